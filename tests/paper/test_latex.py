r"""The LaTeX tables compile where a reader puts them: two-column IEEE and ACM papers and one-column articles.

Each table has two LaTeX forms (:func:`starlib.paper.tables.render_latex`): ``NAME.tex``, the float a paper
prints (``table`` or ``table*``, never a ``longtable`` nor a landscape page), and, where it differs,
``NAME_full.tex``, every row and column for a one-column appendix. Every paper form is compiled in each
configuration of :data:`CONFIGS`: ``\documentclass[conference]{IEEEtran}`` and
``\documentclass[sigconf]{acmart}`` (two columns) and ``article`` on letter and A4 paper at 10 pt and 11 pt
(one column, default margins except letter 10 pt with 1 in). The full listings, appendix material laid out for
a one-column page (their ``longtable`` is never scaled), are compiled in ``article`` on letter paper at 10 pt
with 1 in margins. All tables of one configuration go in ONE document (one ``pdflatex`` run, a second only when
LaTeX asks for it), with ``\typeout`` markers and a ``\clearpage`` between the inputs, so the log names the table
of every problem: any error (a line starting with ``!``), any ``Overfull \hbox`` wider than 1 pt, any float too
large for its page.

The preamble is the one the README tells readers to use: the packages of
:data:`~starlib.paper.tables.LATEX_PACKAGES` (acmart loads ``amsmath`` and ``amssymb`` itself; loading
``amssymb`` again is an error there), and for ``acmart`` ``\settopmatter{printacmref=false}``,
``\setcopyright{none}`` and ``\renewcommand\footnotetextcopyrightpermission[1]{}`` so it compiles silently
(and a ``\title``, which its running heads need).

``STARLIB_TABLES_DIR=/some/dir`` checks the ``.tex`` files of another folder (for instance the tables of a variant
run) instead of ``paper_tables/``. Where ``pdflatex`` or a document class is not installed the tests skip, saying
so; ``.ci/run`` installs them. The planted-fault tests show that the check fails when it should: on a table wider
than the page, on an error, on a float taller than the page, in one and in two columns.

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
from starlib.paper.tables import ACMART_LOADS, LATEX_PACKAGES, LATEX_PACKAGES_FULL, write_table
from tests.paths import ROOT

TABLES = Path(os.environ.get("STARLIB_TABLES_DIR") or ROOT / "paper_tables")
PDFLATEX = shutil.which("pdflatex")
KPSEWHICH = shutil.which("kpsewhich")
needs_tex = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed (Debian: texlive-latex-base, "
                               "texlive-latex-recommended, texlive-fonts-recommended; .ci/run installs them)")
TOLERANCE_PT = 1.0


@dataclass(frozen=True)
class Config:
    """A document a reader inputs the tables into: class line, preamble, and whether it takes the full listings."""

    name: str
    documentclass: str
    cls: str
    needs: tuple[str, ...] = ()
    preamble: tuple[str, ...] = ()
    full: bool = False


_ACM_QUIET = (r"\title{Tables}", r"\settopmatter{printacmref=false}", r"\setcopyright{none}",
              r"\renewcommand\footnotetextcopyrightpermission[1]{}")
CONFIGS = (
    Config("ieee-conference", r"\documentclass[conference]{IEEEtran}", "IEEEtran.cls"),
    Config("acm-sigconf", r"\documentclass[sigconf]{acmart}", "acmart.cls", ("binhex.tex",), _ACM_QUIET),
    Config("article-letter-10pt", r"\documentclass[letterpaper,10pt]{article}", "article.cls",
           preamble=(r"\usepackage[letterpaper,margin=1in]{geometry}",), full=True),
    Config("article-a4-10pt", r"\documentclass[a4paper,10pt]{article}", "article.cls"),
    Config("article-letter-11pt", r"\documentclass[letterpaper,11pt]{article}", "article.cls"),
    Config("article-a4-11pt", r"\documentclass[a4paper,11pt]{article}", "article.cls"),
)

_OVERFULL = re.compile(r"^Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)", re.M)
_TOO_LARGE = re.compile(r"Float too large for page by (\d+(?:\.\d+)?)pt")
_MARK = "starlib-table:"


def _installed(config: Config) -> bool:
    """``pdflatex`` and every file of the configuration's class are there."""
    if PDFLATEX is None or KPSEWHICH is None:
        return False
    files = (config.cls, *config.needs)
    found = subprocess.run([KPSEWHICH, *files], capture_output=True, text=True).stdout.split()
    return len(found) == len(files)


def _skip_unless_installed(config: Config) -> None:
    if not _installed(config):
        pytest.skip(f"{config.cls} (or one of {config.needs}) is not installed (Debian: texlive-publishers, "
                    "texlive-latex-extra, texlive-fonts-extra, texlive-plain-generic; .ci/run installs them)")


def _packages(config: Config, full: bool) -> tuple[str, ...]:
    packages = LATEX_PACKAGES_FULL if full else LATEX_PACKAGES
    return tuple(p for p in packages if not (config.cls == "acmart.cls" and p in ACMART_LOADS))


def document(config: Config, body: str, full: bool = False) -> str:
    """The reader's document: the class, the minimal preamble, ``body``."""
    return "\n".join([config.documentclass, *config.preamble, r"\usepackage{" + ",".join(_packages(config, full))
                      + "}", r"\begin{document}", body, r"\end{document}", ""])


@dataclass
class LatexCheck:
    """What the log of one compiled document says, per table (the ``\\typeout`` markers) and in all."""

    errors: list[str] = field(default_factory=list)
    overfull_pt: list[float] = field(default_factory=list)
    too_large_pt: list[float] = field(default_factory=list)
    by_table: dict[str, list[str]] = field(default_factory=dict)
    pages: int = 0
    log: str = ""

    def problems(self) -> list[str]:
        out = list(self.errors)
        out += [f"Overfull \\hbox {w}pt too wide" for w in self.overfull_pt if w > TOLERANCE_PT]
        out += [f"Float too large for page by {h}pt" for h in self.too_large_pt]
        return out


def _problems(log: str) -> list[str]:
    out = [line for line in log.splitlines() if line.startswith("!")]
    out += [f"Overfull \\hbox {w}pt too wide" for w in map(float, _OVERFULL.findall(log)) if w > TOLERANCE_PT]
    out += [f"Float too large for page by {h}pt" for h in _TOO_LARGE.findall(log)]
    return out


def compile_document(doc: str, workdir: Path, files: dict[str, str] | None = None) -> LatexCheck:
    """Compile ``doc`` in ``workdir`` (with ``files``: name -> text); rerun while LaTeX asks (at most 3 runs)."""
    workdir.mkdir(parents=True, exist_ok=True)
    for fname, text in (files or {}).items():
        (workdir / fname).write_text(text, encoding="utf-8")
    (workdir / "doc.tex").write_text(doc, encoding="utf-8")
    for _ in range(3):
        proc = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "doc.tex"],
                              cwd=workdir, capture_output=True, text=True, timeout=600)
        log = (workdir / "doc.log").read_text(encoding="latin-1")
        if proc.returncode != 0 or not re.search(r"Rerun to get|Label\(s\) may have changed", log):
            break
    check = LatexCheck(log=log)
    check.errors = [line for line in log.splitlines() if line.startswith("!")]
    if proc.returncode != 0 and not check.errors:
        check.errors = [f"pdflatex exited with status {proc.returncode}"]
    check.overfull_pt = [float(w) for w in _OVERFULL.findall(log)]
    check.too_large_pt = [float(h) for h in _TOO_LARGE.findall(log)]
    parts = log.split(_MARK)
    for part in parts[1:]:
        name, _, rest = part.partition("\n")
        problems = _problems(rest)
        if problems:
            check.by_table[name.strip()] = problems
    m = re.search(r"Output written on doc\.pdf \((\d+) pages?", log)
    check.pages = int(m.group(1)) if m else 0
    return check


def compile_table(tex: str, workdir: Path, config: Config = CONFIGS[2]) -> LatexCheck:
    """Compile one table (its text) in the document of ``config``."""
    body = "\\typeout{" + _MARK + "table}\n\\input{table}\n\\clearpage"
    return compile_document(document(config, body, full=True), workdir, {"table.tex": tex})


def _paper_files() -> list[Path]:
    return sorted(p for p in TABLES.glob("*.tex") if not p.stem.endswith("_full"))


def _full_files() -> list[Path]:
    return sorted(TABLES.glob("*_full.tex"))


def test_the_tables_are_there():
    """The folder checked holds tables (an empty folder would make the compile test vacuous)."""
    assert _paper_files(), f"no .tex files in {TABLES}"


@pytest.mark.parametrize("path", _paper_files() + _full_files(), ids=lambda p: p.stem)
def test_table_is_ascii_with_caption_label_and_provenance(path):
    tex = path.read_text(encoding="utf-8")
    assert tex.isascii(), f"{path.name}: non-ASCII characters {sorted({c for c in tex if not c.isascii()})}"
    assert "\\caption{" in tex and f"\\label{{tab:{path.stem}}}" in tex
    assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert tex.startswith(f"% {path.stem}.tex: ") and f"% Commit: git log -1 -- paper_tables/{path.stem}.tex" in tex
    if not path.stem.endswith("_full"):
        assert "longtable" not in tex.replace("% ", "") and "landscape" not in tex, path.name
        assert ("\\begin{table}" in tex) != ("\\begin{table*}" in tex)


def _marked(files: list[Path]) -> str:
    return "\n".join(f"\\typeout{{{_MARK}{p.stem}}}\n\\input{{{p.stem}}}\n\\clearpage" for p in files)


@needs_tex
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.name)
def test_every_table_compiles_in(config, tmp_path):
    """All paper tables (and in one column the full listings) in one document of ``config``: no problem."""
    _skip_unless_installed(config)
    files = _paper_files() + (_full_files() if config.full else [])
    for p in files:
        shutil.copy(p, tmp_path / p.name)
    first = files[0].stem
    body = f"See Table~\\ref{{tab:{first}}}.\n" + _marked(files)
    check = compile_document(document(config, body, full=config.full), tmp_path)
    assert not check.by_table, f"{config.name}: " + "; ".join(f"{k}: {v}" for k, v in check.by_table.items())
    assert not check.problems(), f"{config.name}: " + "; ".join(check.problems())
    assert "multiply defined" not in check.log and "undefined references" not in check.log
    assert check.pages >= len(files) // 2


def test_the_reader_packages_cover_the_writer():
    """The header of every table names exactly the packages the documents above load."""
    for p in _paper_files():
        assert "\\usepackage{" + ",".join(LATEX_PACKAGES) + "}" in p.read_text(), p.name
    for p in _full_files():
        assert "\\usepackage{" + ",".join(LATEX_PACKAGES_FULL) + "}" in p.read_text(), p.name


def _note(**kw) -> TableNote:
    return TableNote("A test table.", {"x": Column("a value", "units"), "y": Column("a long text")}, **kw)


_TWO_COLUMNS = [c for c in CONFIGS if c.name in ("article-letter-10pt", "ieee-conference")]


@needs_tex
@pytest.mark.parametrize("config", _TWO_COLUMNS, ids=lambda c: c.name)
def test_the_check_fails_on_a_table_wider_than_the_page(config, tmp_path):
    """One column: a longtable is never scaled, 60 rows of an unbreakable 9-inch word overflow the text block. Two
    columns: a paper float is scaled to the column, its caption is not, and an unbreakable 9-inch word overflows."""
    _skip_unless_installed(config)
    if config.full:
        df = pd.DataFrame({"x": range(60), "y": ["W" * 120] * 60})
        write_table(df, "wide", tmp_path, note=_note(group_by=("y",)))
        tex = (tmp_path / "wide_full.tex").read_text()
    else:
        note = TableNote("W" * 120 + ".", {"x": Column("a value", "units"), "y": Column("a text")})
        write_table(pd.DataFrame({"x": [1], "y": ["a"]}), "wide", tmp_path, note=note)
        tex = (tmp_path / "wide.tex").read_text()
    check = compile_table(tex, tmp_path / "tex", config)
    assert check.overfull_pt and max(check.overfull_pt) > 100, check
    assert any("Overfull" in p for p in check.problems()) and "table" in check.by_table


@needs_tex
def test_a_longtable_fails_in_two_columns(tmp_path):
    """Why the paper form is a float: a full listing's ``longtable`` stops ``pdflatex`` in a two-column paper."""
    _skip_unless_installed(CONFIGS[0])
    write_table(pd.DataFrame({"x": range(60), "y": ["a"] * 60}), "long", tmp_path, note=_note(group_by=("y",)))
    check = compile_table((tmp_path / "long_full.tex").read_text(), tmp_path / "tex", CONFIGS[0])
    assert any("longtable not in 1-column mode" in e for e in check.errors), check.errors


@needs_tex
@pytest.mark.parametrize("config", _TWO_COLUMNS, ids=lambda c: c.name)
def test_the_check_fails_on_an_error(config, tmp_path):
    _skip_unless_installed(config)
    check = compile_table("\\begin{tabular}{l}\na_b \\\\\n\\end{tabular}\n", tmp_path, config)
    assert check.errors and any("Missing $ inserted" in e for e in check.errors), check


@needs_tex
@pytest.mark.parametrize("config", _TWO_COLUMNS, ids=lambda c: c.name)
def test_the_check_fails_on_a_float_taller_than_the_page(config, tmp_path):
    _skip_unless_installed(config)
    df = pd.DataFrame({"x": range(80), "y": ["row"] * 80})
    write_table(df, "tall", tmp_path, note=_note(long=False, group_by=("y",)))
    check = compile_table((tmp_path / "tall_full.tex").read_text(), tmp_path / "tex", config)
    assert check.too_large_pt and "table" in check.by_table, check


@needs_tex
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c.name)
def test_every_layout_compiles(config, tmp_path):
    """The layouts of the writer in one document: paper forms (one column, ``table*``, compact) and full listings
    (float, landscape, longtable, landscape longtable) where the configuration takes them."""
    _skip_unless_installed(config)
    layouts = {"float": {}, "wide": {"wide": True}, "compact": {"group_by": ("g",), "audit": ("ok",)},
               "landscape": {"landscape": True, "audit": ("ok",)}, "longtable": {"long": True, "audit": ("ok",)},
               "landscapelongtable": {"long": True, "landscape": True, "audit": ("ok",)}}
    files = []
    for name, layout in layouts.items():
        wide = not layout.get("long")
        df = pd.DataFrame({"g": ["a", "a", "b"], "x": [1.5, None, 3.25],
                           "y": ["W" * (150 if wide else 20), "K_{q,q} * C(X)", ""], "ok": [True, True, False]})
        note = TableNote("Widths: $\\lfloor m/(n-1) \\rfloor$ in `code`.",
                         {"g": Column("a group"), "x": Column("a value", "units", tex="$x$", decimals=2),
                          "y": Column("text with formulas", kind="mixed", star=True), "ok": Column("a check")},
                         **layout)
        files += [p for p in write_table(df, name, tmp_path, note=note) if p.suffix == ".tex"
                  and (config.full or not p.stem.endswith("_full"))]
    check = compile_document(document(config, _marked(files), full=config.full), tmp_path)
    assert not check.problems(), f"{config.name}: {check.by_table} {check.problems()}"

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
