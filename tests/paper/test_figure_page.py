"""Every committed figure PDF on a two-column IEEEtran page: one-column figures at ``\\columnwidth``, two-column
figures in ``figure*`` at ``\\textwidth``, compiled by pdflatex with no overfull box and no float too large.

The folder is ``paper_tables/figures`` unless ``STARLIB_FIGURES_DIR`` names another (figures of a notebook
run into /tmp, for example). Skipped with a message when pdflatex or IEEEtran.cls is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from starlib.paper.figures import ONE_COLUMN, TWO_COLUMN
from tests.paths import ROOT

_MEDIABOX = re.compile(rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]")


def figures_dir() -> Path:
    return Path(os.environ.get("STARLIB_FIGURES_DIR", ROOT / "paper_tables" / "figures"))


def pdf_size_inches(path: Path) -> tuple[float, float]:
    """Width and height (inches) of the first page of a matplotlib PDF, read from its MediaBox."""
    found = _MEDIABOX.search(path.read_bytes())
    if found is None:
        raise ValueError(f"path: {path} has no /MediaBox")
    x0, y0, x1, y1 = (float(v) for v in found.groups())
    return (x1 - x0) / 72, (y1 - y0) / 72


def page_source(pdfs: list[Path]) -> str:
    """An IEEEtran conference document placing each PDF by its width (one column or both), one figure a page.

    One page each: a figure must fit a page with its caption and some text; two tall ``figure*`` floats that
    LaTeX is forced to stack on one page at the end would overflow it for reasons of the test page, not of the
    figures.
    """
    body = []
    for pdf in pdfs:
        width, _ = pdf_size_inches(pdf)
        env, size = ("figure", r"\columnwidth") if width < (ONE_COLUMN + TWO_COLUMN) / 2 else ("figure*", r"\textwidth")
        body.append(f"\\begin{{{env}}}[!t]\\centering\\includegraphics[width={size}]{{{pdf.resolve().as_posix()}}}"
                    f"\\caption{{{pdf.stem.replace('_', ' ')}}}\\end{{{env}}}\n\\lipsum[1]\n\\clearpage\n")
    return ("\\documentclass[conference]{IEEEtran}\n\\usepackage{graphicx}\n\\usepackage{lipsum}\n"
            "\\begin{document}\n" + "\n".join(body) + "\\clearpage\n\\end{document}\n")


def compile_page(pdfs: list[Path], work: Path) -> str:
    """Compile :func:`page_source` in ``work`` and return the pdflatex log."""
    (work / "page.tex").write_text(page_source(pdfs))
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "page.tex"], cwd=work,
                         capture_output=True, text=True, timeout=300)
    log = (work / "page.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    return log


def _need_latex() -> None:
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    found = subprocess.run(["kpsewhich", "IEEEtran.cls"], capture_output=True, text=True)
    if not found.stdout.strip():
        pytest.skip("IEEEtran.cls is not installed (Debian: texlive-publishers)")


def test_every_figure_is_one_or_two_columns_wide():
    pdfs = sorted(figures_dir().glob("*.pdf"))
    if not pdfs:
        pytest.skip(f"no figure PDFs in {figures_dir()}")
    wrong = {p.name: round(pdf_size_inches(p)[0], 2) for p in pdfs
             if min(abs(pdf_size_inches(p)[0] - w) for w in (ONE_COLUMN, TWO_COLUMN)) > 0.02}
    assert not wrong, f"figures neither {ONE_COLUMN} nor {TWO_COLUMN} in wide: {wrong}"


def test_every_figure_compiles_on_a_two_column_page(tmp_path):
    _need_latex()
    pdfs = sorted(figures_dir().glob("*.pdf"))
    if not pdfs:
        pytest.skip(f"no figure PDFs in {figures_dir()}")
    log = compile_page(pdfs, tmp_path)
    problems = [line for line in log.splitlines() if line.startswith("Overfull") or "Float too large" in line]
    assert not problems, problems


def test_the_page_reports_a_figure_taller_than_the_page(tmp_path):
    _need_latex()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from starlib.paper.figures import save_figure

    fig = plt.figure(figsize=(ONE_COLUMN, 12.0))
    (pdf,) = save_figure(fig, "tall", tmp_path / "fig", formats=("pdf",), print_size=False)  # save_figure refuses it
    plt.close(fig)
    assert pdf_size_inches(pdf) == pytest.approx((ONE_COLUMN, 12.0))
    log = compile_page([pdf], tmp_path)
    assert "Float too large" in log
