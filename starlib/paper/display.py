"""Show a table in a notebook the way a person reads it: short headers with units, formulas as mathematics.

:func:`show_table` displays a frame as one output with two renderings, both deterministic:

* ``text/html`` (what JupyterLab and the site built with nbconvert show): the headers of a described table are
  its LaTeX headers (``Column.tex``, e.g. ``$n$``) with the unit on a second line and the column's name and
  meaning as a tooltip; the cells of its formula columns (``kind="math"`` or ``"mixed"``) are ``$...$``
  mathematics, the same LaTeX as the ``.tex`` file (:func:`~starlib.paper.latex.tex_formula`,
  :func:`~starlib.paper.latex.tex_mixed`), which MathJax typesets in JupyterLab and on the site.
* ``text/plain`` (what nbval compares): the cells as the Markdown file writes them, under the CSV column names.

A frame that is not a paper table gets headers from its column names (``max_depth`` reads "Max depth", a
``_us``/``_bytes``/... suffix becomes the unit), or from ``labels``. At most ``max_rows`` rows are shown, with a
line that says how many there are; a named table links to its file ``../paper_tables/NAME.md`` (relative to
the notebook), which has every row, the caption and the column glossary.

Example
-------
>>> import pandas as pd
>>> bundle = table_bundle(pd.DataFrame({"q": [3, 4], "max_depth": [2, 3]}))
>>> print(bundle["text/plain"])
q Max depth
3         2
4         3
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Mapping
from functools import cache
from typing import Any

import pandas as pd

from .latex import tex_formula, tex_mixed, tex_rich, tex_text
from .table_notes import Column, TableNote
from .tables import MISSING, describe, display_cells

__all__ = ["DISPLAY_ROWS", "TABLES_LINK", "show_table", "table_bundle", "column_label"]

#: rows shown of a long table (one of more than 36 rows); it says how many rows it has, a named one links its file
DISPLAY_ROWS = 30
#: where a named table's full Markdown file is, relative to the notebooks
TABLES_LINK = "../paper_tables/{name}.md"

#: unit of an ad-hoc column named by its suffix (``allreduce_us``, ``size_bytes``)
_SUFFIX_UNITS = {"us": "µs", "ms": "ms", "s": "s", "seconds": "s", "bytes": "bytes", "kb": "kB", "mb": "MB",
                 "hops": "hops", "pct": "%"}
_TEXTTT = re.compile(r"\\texttt\{((?:[^{}]|\\\{|\\\})*)\}")
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|inf)(?:e[+-]\d+)?")


@cache
def _ascii_escapes() -> tuple[tuple[str, str], ...]:
    """The LaTeX of each ASCII character that :func:`~starlib.paper.latex.tex_text` escapes, and the thin space."""
    return tuple((tex_text(ch), ch) for ch in string.punctuation if tex_text(ch) != ch) + (("\\,", "\u2009"),)


def _html_text(tex: str, source: str = "") -> str:
    """LaTeX text with ``$...$`` mathematics (a header, a ``tex_mixed`` cell) as HTML for MathJax.

    The mathematics is kept (HTML-escaped, MathJax reads the text); outside it, ``\\texttt{...}`` becomes
    ``<code>`` and the escapes of :func:`~starlib.paper.latex.tex_text` become their characters again: those of
    ASCII characters, and those of the non-ASCII characters of ``source`` (the text that was escaped).
    """
    escapes = _ascii_escapes() + tuple((tex_text(ch), ch) for ch in sorted(set(source)) if ord(ch) > 127)
    escapes = tuple(sorted(escapes, key=lambda p: -len(p[0])))
    out = []
    for i, part in enumerate(tex.split("$")):
        if i % 2:
            out.append("$" + html.escape(part, quote=False) + "$")
            continue
        pieces = []
        for k, piece in enumerate(_TEXTTT.split(part)):
            for latex, char in escapes:
                piece = piece.replace(latex, char)
            piece = html.escape(piece, quote=False)
            pieces.append(f"<code>{piece}</code>" if k % 2 else piece)
        out.append("".join(pieces))
    return "".join(out)


def column_label(name: str) -> tuple[str, str]:
    """A reader's header for a column without a description: ``snake_case`` reads "Snake case", unit apart.

    A name in lower-case words joined by ``_`` is spelled out with a capital; its last word, if it names a unit
    (``us``, ``ms``, ``s``, ``bytes``, ...), becomes the unit. Any other name (``t_G``, ``q``, ``bfs sim``,
    ``d_H + 2 d_G``) is kept as written: it is already how the text writes it.

    Parameters
    ----------
    name : str
        The column's name.

    Returns
    -------
    tuple of str
        The label and the unit (empty if none).

    Example
    -------
    >>> column_label("allreduce_us"), column_label("max_depth"), column_label("t_G"), column_label("q")
    (('Allreduce', 'µs'), ('Max depth', ''), ('t_G', ''), ('q', ''))
    >>> column_label("bfs sim"), column_label("d_H + 2 d_G")
    (('bfs sim', ''), ('d_H + 2 d_G', ''))
    """
    if not re.fullmatch(r"[a-z][a-z0-9]+(?:_[a-z0-9]+)*", name):
        return name, ""
    words = name.split("_")
    unit = ""
    if len(words) > 1 and words[-1] in _SUFFIX_UNITS:
        unit = _SUFFIX_UNITS[words.pop()]
    text = " ".join(words)
    return text[0].upper() + text[1:], unit


def _flat(label: Any) -> str:
    """A column label as text (a pivot table's ``(value, column)`` tuple joined by spaces)."""
    if isinstance(label, tuple):
        return " ".join(str(x) for x in label if str(x) != "")
    return "" if label is None else str(label)


def _check(frame: Any, float_digits: Any, max_rows: Any, labels: Any) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame={type(frame).__name__} must be a pandas.DataFrame")
    if isinstance(float_digits, bool) or not isinstance(float_digits, int) or float_digits < 0:
        raise ValueError(f"float_digits={float_digits!r} must be an integer >= 0")
    if max_rows is not None and (isinstance(max_rows, bool) or not isinstance(max_rows, int) or max_rows < 1):
        raise ValueError(f"max_rows={max_rows!r} must be an integer >= 1 (or None: every row)")
    if labels is not None and not isinstance(labels, Mapping):
        raise ValueError(f"labels={labels!r} must be a mapping from column name to header")


def table_bundle(frame: pd.DataFrame, float_digits: int = 4, index: bool = False, *, name: str | None = None,
                 note: TableNote | None = None, labels: Mapping[str, str] | None = None,
                 max_rows: int | None = DISPLAY_ROWS) -> dict[str, str]:
    """The ``text/html`` and ``text/plain`` renderings that :func:`show_table` displays.

    Parameters are those of :func:`show_table`.

    Returns
    -------
    dict
        ``{"text/html": ..., "text/plain": ...}``.

    Example
    -------
    >>> frame = pd.DataFrame({"graph": ["C(X)"], "m": ["q(q - 1)/4"], "r_vs_t": ["r = t"]})
    >>> bundle = table_bundle(frame, name="table5")
    >>> tex_formula("q(q - 1)/4"), ">$q(q - 1)/4$</td>" in bundle["text/html"]
    ('$q(q - 1)/4$', True)
    >>> print(bundle["text/plain"])
    graph          m r_vs_t
     C(X) q(q - 1)/4  r = t
    Table table5, in full with its caption and column glossary: ../paper_tables/table5.md
    """
    _check(frame, float_digits, max_rows, labels)
    if note is None and name is not None:
        note = describe(name)
    shown = frame.reset_index() if index else frame
    if index:  # an unnamed index is shown without a header
        shown = shown.rename(columns={"index": ""}) if frame.index.names == [None] else shown
    names = [_flat(c) for c in shown.columns]
    labels = dict(labels or {})
    unknown = sorted(set(labels) - set(names))
    if unknown:
        raise ValueError(f"labels={labels!r}: {unknown} are not columns of the frame (columns: {names})")
    cols: list[Column | None] = [None if note is None else note.columns.get(c, note.default) for c in names]
    total = len(shown)
    whole = max_rows is None or total <= max_rows + max_rows // 5  # hiding a handful of rows helps nobody
    body = shown if whole else shown.iloc[:max_rows]
    body = body.set_axis(range(body.shape[1]), axis=1)
    cells = display_cells(body, float_digits, cols)
    missing = MISSING

    heads_html, heads_plain = [], []
    for c, col in zip(names, cols, strict=True):
        tip = c if col is None else f"{c}: {col.meaning}"
        if c in labels:
            text, unit, plain = html.escape(labels[c], quote=False), "", labels[c]
        elif col is not None:
            text = _html_text(col.tex) if col.tex else html.escape(c, quote=False)
            unit, plain = _html_text(tex_rich(col.unit)), c
        else:
            label, unit = column_label(c)
            text, plain = html.escape(label, quote=False), label + (f" [{unit}]" if unit else "")
            unit = html.escape(unit, quote=False)
        unit_line = f"<br><small>[{unit}]</small>" if unit else ""
        heads_html.append(f'<th title="{html.escape(tip)}">{text}{unit_line}</th>')
        heads_plain.append(plain)

    # numbers (as shown) are right-aligned, the rest left-aligned
    left = [not all(_NUMBER.fullmatch(r[j]) for r in cells if r[j] is not None) for j in range(len(names))]
    rows_html = []
    for row in cells:
        tds = []
        for text, col, is_left in zip(row, cols, left, strict=True):
            if text is None:
                value = missing
            elif col is not None and col.kind == "math" and text != "":
                value = html.escape(tex_formula(text, col.star), quote=False)
            elif col is not None and col.kind == "mixed":
                value = _html_text(tex_mixed(text, col.star), text)
            else:
                value = html.escape(text, quote=False)
            tds.append(('<td style="text-align: left">' if is_left else "<td>") + value + "</td>")
        rows_html.append("<tr>" + "".join(tds) + "</tr>")
    heads_html = [h.replace("<th ", '<th style="text-align: left" ', 1) if is_left else h
                  for h, is_left in zip(heads_html, left, strict=True)]

    notes_plain, notes_html = [], []
    if total > len(body):
        notes_plain.append(f"Showing the first {len(body)} of {total} rows.")
        notes_html.append(notes_plain[-1])
    if name is not None:
        link = TABLES_LINK.format(name=name)
        notes_plain.append(f"Table {name}, in full with its caption and column glossary: {link}")
        notes_html.append(f'Table <code>{html.escape(name)}</code>, in full with its caption and column glossary: '
                          f'<a href="{html.escape(link)}">{html.escape(link[3:])}</a>')
    plain_rows = [[missing if x is None else x for x in r] for r in cells]
    plain = pd.DataFrame(plain_rows, columns=heads_plain) if plain_rows else pd.DataFrame(columns=heads_plain)
    text = plain.to_string(index=False) if plain_rows else "  ".join(heads_plain) + "\n(no rows)"
    out_html = ('<table class="starlib-table">\n<thead><tr>' + "".join(heads_html) + "</tr></thead>\n<tbody>\n"
                + "\n".join(rows_html) + "\n</tbody>\n</table>\n")
    if notes_html:
        out_html += "<p><small>" + "<br>".join(notes_html) + "</small></p>\n"
    return {"text/html": out_html, "text/plain": "\n".join([text, *notes_plain])}


def show_table(frame: pd.DataFrame, float_digits: int = 4, index: bool = False, *, name: str | None = None,
               note: TableNote | None = None, labels: Mapping[str, str] | None = None,
               max_rows: int | None = DISPLAY_ROWS) -> None:
    """Display ``frame`` as a table a person reads: headers with units, formulas as mathematics, ~30 rows.

    Cells are formatted as the Markdown files under ``paper_tables/`` format them
    (:func:`starlib.paper.tables.display_cells`: a described column's decimals, ``yes``/``no``, ``--`` for a
    missing value). The output holds ``text/html`` and ``text/plain`` (module docstring); both are
    deterministic, so nbval compares them.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table, or some of a paper table's rows and columns; its column order is kept.
    float_digits : int
        Digits after the decimal point of floats in columns without a description of their own.
    index : bool
        Show the frame's index as leading columns (for pivot tables, whose index labels the rows).
    name : str, optional
        The paper table ``frame`` shows (``"table1"``): headers, units and formula columns come from its
        description in :data:`~starlib.paper.table_notes.TABLE_NOTES`, and the output links to its file.
    note : TableNote, optional
        A description to use instead of looking ``name`` up.
    labels : mapping, optional
        Column name -> header, for columns whose name or description does not read well here.
    max_rows : int or None
        Rows shown of a long table (``None``: every row). A table of at most ``max_rows + max_rows // 5``
        rows is shown whole (36 for the default 30), a longer one up to row ``max_rows``.

    Raises
    ------
    ValueError
        For a ``name`` without a description, a label of a column the frame does not have, or a bad
        ``float_digits`` or ``max_rows``.

    Example
    -------
    >>> show_table(pd.DataFrame({"size_bytes": [1024]}))  # doctest: +SKIP
    """
    from IPython.display import display

    display(table_bundle(frame, float_digits, index, name=name, note=note, labels=labels, max_rows=max_rows),
            raw=True)
