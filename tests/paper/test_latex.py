"""The LaTeX tables compile: every ``paper_tables/*.tex`` inside a minimal document, with no error and no box
wider than the page.

The minimal document is ``article`` on letter paper with 1 in margins (a 6.5 in text block) and only the packages
a reader is told to load (:data:`PACKAGES`); it ``\\input``s one table. ``pdflatex`` runs twice (``longtable``
settles its column widths on the second run) and the log of the second run is read: any error (a line starting
with ``!``), any ``Overfull \\hbox`` wider than 1 pt and any float too large for its page fails the table.

``STARLIB_TABLES_DIR=/some/dir`` checks the ``.tex`` files of another folder (for instance the tables of a variant
run) instead of ``paper_tables/``. Without ``pdflatex`` on the path these tests skip, saying so; ``.ci/run``
installs it. All the tables are also compiled together in one document (as a paper would input them). The other
tests here show that the check fails when it should: on a table wider than the page, on an error, on a float
taller than the page.

The compiler of the cells' text (:mod:`starlib.paper.latex`: escaped text, captions, formulas in ASCII, text with
formulas) is tested at the end, without ``pdflatex``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pytest

from starlib.paper.latex import tex_formula, tex_mixed, tex_rich, tex_text
from starlib.paper.table_notes import Column, TableNote
from starlib.paper.tables import LATEX_PACKAGES, write_table
from tests.paths import ROOT

TABLES = Path(os.environ.get("STARLIB_TABLES_DIR") or ROOT / "paper_tables")
PDFLATEX = shutil.which("pdflatex")
needs_tex = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed (Debian: texlive-latex-base, "
                               "texlive-latex-recommended, texlive-fonts-recommended; .ci/run installs them)")

#: the packages of the minimal document (the issue's list; the README tells readers the same)
PACKAGES = ("booktabs", "longtable", "graphicx", "amsmath", "amssymb", "array", "caption", "pdflscape", "tabularx")
DOCUMENT = "\n".join([r"\documentclass{article}", r"\usepackage[letterpaper,margin=1in]{geometry}",
                      r"\usepackage{" + ",".join(PACKAGES) + "}", r"\begin{document}", r"\input{table}",
                      r"\end{document}", ""])
TOLERANCE_PT = 1.0

_OVERFULL = re.compile(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)", re.M)
_TOO_LARGE = re.compile(r"Float too large for page by (\d+(?:\.\d+)?)pt")


@dataclass
class LatexCheck:
    """What the log of one compiled table says."""

    errors: list[str] = field(default_factory=list)
    overfull_pt: list[float] = field(default_factory=list)
    too_large_pt: list[float] = field(default_factory=list)
    pages: int = 0
    log: str = ""

    def problems(self) -> list[str]:
        out = list(self.errors)
        out += [f"Overfull \\hbox {w}pt too wide" for w in self.overfull_pt if w > TOLERANCE_PT]
        out += [f"Float too large for page by {h}pt" for h in self.too_large_pt]
        return out


def compile_table(tex: str, workdir: Path) -> LatexCheck:
    """Compile one table (its text) inside the minimal document in ``workdir``; read the second run's log."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "table.tex").write_text(tex, encoding="utf-8")
    (workdir / "doc.tex").write_text(DOCUMENT, encoding="utf-8")
    check = LatexCheck()
    for _ in range(2):
        proc = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                              cwd=workdir, capture_output=True, text=True, timeout=300)
        log = (workdir / "doc.log").read_text(encoding="latin-1")
        if proc.returncode != 0:
            break
    check.log = log
    check.errors = [line for line in log.splitlines() if line.startswith("!")]
    if proc.returncode != 0 and not check.errors:
        check.errors = [f"pdflatex exited with status {proc.returncode}"]
    check.overfull_pt = [float(w) for w in _OVERFULL.findall(log)]
    check.too_large_pt = [float(h) for h in _TOO_LARGE.findall(log)]
    m = re.search(r"Output written on doc\.pdf \((\d+) pages?", log)
    check.pages = int(m.group(1)) if m else 0
    return check


def _tex_files() -> list[Path]:
    return sorted(TABLES.glob("*.tex"))


def test_the_tables_are_there():
    """The folder checked holds tables (an empty folder would make the compile test vacuous)."""
    assert _tex_files(), f"no .tex files in {TABLES}"


@pytest.mark.parametrize("path", _tex_files(), ids=lambda p: p.stem)
def test_table_is_ascii_and_a_float_with_caption_and_label(path):
    tex = path.read_text(encoding="utf-8")
    assert tex.isascii(), f"{path.name}: non-ASCII characters {sorted({c for c in tex if not c.isascii()})}"
    assert ("\\begin{table}" in tex) != ("\\begin{longtable}" in tex)
    assert "\\caption{" in tex and f"\\label{{tab:{path.stem}}}" in tex
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex


@needs_tex
@pytest.mark.parametrize("path", _tex_files(), ids=lambda p: p.stem)
def test_table_compiles_within_the_page(path, tmp_path):
    check = compile_table(path.read_text(encoding="utf-8"), tmp_path)
    assert not check.problems(), f"{path}: " + "; ".join(check.problems())
    assert check.pages >= 1


@needs_tex
def test_all_tables_in_one_document(tmp_path):
    """A paper inputs many tables: together they compile, their labels differ, and a reference to one resolves."""
    files = _tex_files()
    for p in files:
        shutil.copy(p, tmp_path / p.name)
    body = "\n".join(f"\\input{{{p.stem}}}" for p in files)
    check = compile_table(f"See Table~\\ref{{tab:{files[-1].stem}}}.\n{body}\n", tmp_path)
    assert not check.problems(), "; ".join(check.problems())
    assert "multiply defined" not in check.log and "undefined references" not in check.log
    assert check.pages >= len(files) // 2


def test_the_reader_packages_cover_the_writer():
    """Every package a table uses is one the minimal document (and the README) loads."""
    assert set(LATEX_PACKAGES) <= set(PACKAGES)


def _note(**kw) -> TableNote:
    return TableNote("A test table.", {"x": Column("a value", "units"), "y": Column("a long text")}, **kw)


@needs_tex
def test_the_check_fails_on_a_table_wider_than_the_page(tmp_path):
    """A longtable is never scaled: 60 rows of an unbreakable 9-inch word overflow the 6.5 in text block."""
    df = pd.DataFrame({"x": range(60), "y": ["W" * 120] * 60})
    write_table(df, "wide", tmp_path, note=_note())
    check = compile_table((tmp_path / "wide.tex").read_text(), tmp_path / "tex")
    assert check.overfull_pt and max(check.overfull_pt) > 100, check
    assert any("Overfull" in p for p in check.problems())


@needs_tex
def test_the_check_fails_on_an_error(tmp_path):
    check = compile_table("\\begin{tabular}{l}\na_b \\\\\n\\end{tabular}\n", tmp_path)
    assert check.errors and any("Missing $ inserted" in e for e in check.errors), check


@needs_tex
def test_the_check_fails_on_a_float_taller_than_the_page(tmp_path):
    df = pd.DataFrame({"x": range(80), "y": ["row"] * 80})
    write_table(df, "tall", tmp_path, note=_note(long=False))
    check = compile_table((tmp_path / "tall.tex").read_text(), tmp_path / "tex")
    assert check.too_large_pt, check


@needs_tex
@pytest.mark.parametrize("layout", [{}, {"landscape": True}, {"long": True}, {"long": True, "landscape": True}],
                         ids=["float", "landscape", "longtable", "landscape-longtable"])
def test_every_layout_compiles(layout, tmp_path):
    """The four layouts of the writer, with a table wider than the page where it may be scaled down."""
    wide = not layout.get("long")
    df = pd.DataFrame({"x": [1.5, None, 3.25], "y": ["W" * (150 if wide else 20), "K_{q,q} * C(X)", ""]})
    note = TableNote("Widths: $\\lfloor m/(n-1) \\rfloor$ in `code`.",
                     {"x": Column("a value", "units", tex="$x$", decimals=2),
                      "y": Column("text with formulas", kind="mixed", star=True)}, **layout)
    write_table(df, "layout", tmp_path, note=note)
    check = compile_table((tmp_path / "layout.tex").read_text(), tmp_path / "tex")
    assert not check.problems(), check

# -- the compiler of the cells' text (starlib.paper.latex) ------------------------------------------------------------

def test_text_is_escaped_and_ascii():
    assert tex_text("50% of a_b & {c} #1 ~ ^ \\") == \
        "50\\% of a\\_b \\& \\{c\\} \\#1 \\textasciitilde{} \\textasciicircum{} \\textbackslash{}"
    assert tex_text("agrees except 2 missing '\u2014' cells") == "agrees except 2 missing '---' cells"
    with pytest.raises(ValueError, match="U\\+2603"):
        tex_text("snow \u2603")


def test_rich_text_keeps_mathematics_and_sets_code():
    assert tex_rich("bound $\\lfloor m/(n-1) \\rfloor$ of `max_edsts` & more") == \
        "bound $\\lfloor m/(n-1) \\rfloor$ of \\texttt{max\\_edsts} \\& more"
    with pytest.raises(ValueError, match="unbalanced \\$"):
        tex_rich("a $b")
    with pytest.raises(ValueError, match="unbalanced `"):
        tex_rich("a `b")


def test_formulas_become_mathematics():
    assert tex_formula("(3*q - 1)/2") == "$(3q - 1)/2$"
    assert tex_formula("K_{q,q} * C(X)", star=True) == "$K_{q,q} \\star C(X)$"
    assert tex_formula("t_G + t_H - 1") == "$t_G + t_H - 1$"
    assert tex_formula("MMS(5)") == "$\\mathrm{MMS}(5)$"
    assert tex_formula("ER_47 * QR(53)", star=True) == "$\\mathrm{ER}_{47} \\star \\mathrm{QR}(53)$"
    assert tex_formula("C_3 \u25a1 C_4") == "$C_3 \\mathbin{\\square} C_4$"
    assert tex_formula("Max(d_H + 2*d_G, d_G + 2*d_H)") == "$\\max(d_H + 2d_G, d_G + 2d_H)$"
    assert tex_formula("q^2(3q - 1)/2") == "$q^2(3q - 1)/2$"
    assert tex_formula("floor(m/(n-1))") == "$\\lfloor m/(n-1)\\rfloor$"
    assert tex_formula("q != 2 mod 4") == "$q \\not\\equiv 2 \\pmod{4}$"
    assert tex_formula("C_2x4") == "$C_{2\\times 4}$"
    assert tex_formula("R^1") == "$R^1$"
    with pytest.raises(ValueError, match="are words"):
        tex_formula("not regular")


def test_text_with_formulas():
    assert tex_mixed("Within 1 (YES if r_G = t_G or r_H = t_H)") == "Within 1 (YES if $r_G = t_G$ or $r_H = t_H$)"
    assert tex_mixed("delta = 1 (q = 1 mod 4)") == "$\\delta = 1\\ (q \\equiv 1 \\pmod{4})$"
    assert tex_mixed("Prop IV-.3, case r_G < t_G: tau* - t_G in [-1, -1]") == \
        "Prop IV-.3, case $r_G < t_G$: $\\tau^* - t_G$ in $[-1, -1]$"
    assert tex_mixed("exact packing max_edsts = brute-force tau") == \
        "exact packing \\texttt{max\\_edsts} $=$ brute-force $\\tau$"
    assert tex_mixed("q' = 4k + 1, k >= 1 (a prime power q' = 1 mod 4)") == \
        "$q' = 4k + 1$, $k \\ge 1$ (a prime power $q' \\equiv 1 \\pmod{4}$)"
    assert tex_mixed("|E(G*H)| = (t_G+t_H)(N-1) + L", star=True) == "$|E(G\\star H)| = (t_G+t_H)(N-1) + L$"
    assert tex_mixed("random-invariant #3") == "random-invariant \\#3"
    assert tex_mixed("Fig. 11 (chain, M = 2)") == "Fig. 11 (chain, $M = 2$)"
    assert tex_mixed("d_G + d_H (V-B.3), or eq. (1)") == "$d_G + d_H$ (V-B.3), or eq. (1)"
