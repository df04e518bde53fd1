"""Write one table three ways: CSV for machines, Markdown for review, LaTeX (booktabs) for the paper.

Every file under ``paper_tables/`` is written by :func:`write_table` from a single
:class:`pandas.DataFrame`, so the three renderings can never disagree.  Output is
deterministic: the column order is the frame's, rows are sorted when ``sort_by`` is
given, integers print as integers, floats with a fixed number of digits, booleans as
``yes``/``no`` in Markdown and LaTeX (``True``/``False`` in CSV).

Example
-------
>>> import pandas as pd, tempfile, pathlib
>>> d = tempfile.mkdtemp()
>>> paths = write_table(pd.DataFrame({"q": [3, 2], "n": [13, 7]}), "er", d, sort_by=["q"])
>>> sorted(p.name for p in paths)
['er.csv', 'er.md', 'er.tex']
>>> print(pathlib.Path(d, "er.csv").read_text(), end="")
q,n
2,7
3,13
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["format_cell", "write_table", "render_markdown", "render_latex"]


def format_cell(value: object, float_digits: int = 4, *, for_csv: bool = False) -> str:
    """Format one table cell deterministically (integers stay integers)."""
    if value is None or value is pd.NA or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return "" if for_csv else "--"
    if isinstance(value, (bool, np.bool_)):
        if for_csv:
            return "True" if value else "False"
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return f"{v:.{float_digits}f}"
    return str(value)


def _cells(frame: pd.DataFrame, float_digits: int, for_csv: bool) -> list[list[str]]:
    return [
        [format_cell(v, float_digits, for_csv=for_csv) for v in row]
        for row in frame.itertuples(index=False, name=None)
    ]


def _csv_quote(s: str) -> str:
    if any(c in s for c in ',"\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def render_markdown(frame: pd.DataFrame, float_digits: int = 4) -> str:
    """Render a frame as a pipe table (GitHub Markdown)."""
    head = [str(c) for c in frame.columns]
    rows = _cells(frame, float_digits, for_csv=False)
    esc = [[c.replace("|", "\\|") for c in r] for r in rows]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in esc]
    return "\n".join(lines) + "\n"


_TEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}"}


def _tex_escape(s: str) -> str:
    return "".join(_TEX_SPECIAL.get(c, c) for c in s)


def render_latex(frame: pd.DataFrame, float_digits: int = 4, caption: str | None = None) -> str:
    """Render a frame as a booktabs ``tabular`` (no floating environment unless ``caption``)."""
    rows = _cells(frame, float_digits, for_csv=False)
    align = "".join("r" if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
                    else "l" for c in frame.columns)
    out = []
    if caption:
        out += [r"\begin{table}", r"\centering", r"\caption{" + _tex_escape(caption) + "}"]
    out += [r"\begin{tabular}{" + align + "}", r"\toprule",
            " & ".join(_tex_escape(str(c)) for c in frame.columns) + r" \\", r"\midrule"]
    out += [" & ".join(_tex_escape(c) for c in r) + r" \\" for r in rows]
    out += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        out += [r"\end{table}"]
    return "\n".join(out) + "\n"


def write_table(
    frame: pd.DataFrame,
    name: str,
    out_dir: str | Path = "../paper_tables",
    *,
    sort_by: Sequence[str] | None = None,
    float_digits: int = 4,
    caption: str | None = None,
) -> list[Path]:
    """Write ``frame`` as ``NAME.csv``, ``NAME.md`` and ``NAME.tex`` in ``out_dir``.

    Parameters
    ----------
    frame : the table; its column order is kept.
    name : file stem, e.g. ``"table4_instances"``.
    out_dir : directory (created if missing).
    sort_by : columns to sort rows by (stable sort), for a row order independent of computation order.
    float_digits : digits after the decimal point for non-integral floats.
    caption : optional LaTeX caption (wraps the tabular in a ``table`` environment).

    Returns
    -------
    The three paths written.
    """
    if not name or "/" in name:
        raise ValueError(f"name={name!r} must be a plain file stem")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    df = frame.reset_index(drop=True)
    if sort_by:
        df = df.sort_values(list(sort_by), kind="mergesort").reset_index(drop=True)
    csv_rows = _cells(df, float_digits, for_csv=True)
    csv = ",".join(_csv_quote(str(c)) for c in df.columns) + "\n"
    csv += "".join(",".join(_csv_quote(c) for c in r) + "\n" for r in csv_rows)
    paths = [out / f"{name}.csv", out / f"{name}.md", out / f"{name}.tex"]
    texts = [csv, render_markdown(df, float_digits), render_latex(df, float_digits, caption)]
    for p, t in zip(paths, texts, strict=True):
        p.write_text(t, encoding="utf-8")
    return paths
