"""Write one table three ways: CSV for machines, Markdown for review, LaTeX (booktabs) for the paper.

Every file under ``paper_tables/`` is written by :func:`write_table` from a single
:class:`pandas.DataFrame`, so the three renderings can never disagree. Each table has a description in
:data:`starlib.paper.table_notes.TABLE_NOTES` (caption, the meaning and unit of every column, decimals, which
columns hold formulas, the LaTeX layout); :func:`write_table` refuses a table without one.

* ``.csv``: the values only, as :func:`format_cell` writes them (integers as integers, other floats with
  ``float_digits`` decimals, booleans ``True``/``False``, missing values empty).
* ``.md``: a caption line, a pipe table (every float column with its own fixed number of decimals, booleans
  ``yes``/``no``, one marker ``--`` for every missing value), and a glossary: each column's meaning and unit.
* ``.tex``: a ``table`` float (or a ``longtable`` for more than :data:`LONGTABLE_ROWS` rows) with
  ``\\caption``, ``\\label{tab:NAME}``, booktabs rules, formulas typeset as mathematics (by
  :mod:`starlib.paper.latex`) and a glossary under the table. A float wider than the text is scaled down to the
  text width; a table described as landscape sits in a ``landscape`` page. The file needs only the packages of
  :data:`LATEX_PACKAGES`.

Output is deterministic: the column order is the frame's, rows are sorted when ``sort_by`` is given.

Example
-------
>>> import pandas as pd, tempfile, pathlib
>>> from starlib.paper.table_notes import Column, TableNote
>>> note = TableNote("Edges of ER_q.", {"q": Column("prime power"), "m": Column("edges", "edges")})
>>> d = tempfile.mkdtemp()
>>> paths = write_table(pd.DataFrame({"q": [3, 2], "m": [24, 9]}), "er", d, sort_by=["q"], note=note)
>>> sorted(p.name for p in paths)
['er.csv', 'er.md', 'er.tex']
>>> print(pathlib.Path(d, "er.csv").read_text(), end="")
q,m
2,9
3,24
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from ..io.atomic import atomic_write, check_target
from .compact import Spread, compact
from .latex import tex_formula, tex_mixed, tex_rich, tex_text
from .table_notes import TABLE_NOTES, Column, TableNote

__all__ = ["MISSING", "LONGTABLE_ROWS", "LATEX_PACKAGES", "LATEX_PACKAGES_FULL", "ACMART_LOADS",
           "record_provenance", "format_cell", "describe", "display_cells",
           "render_markdown", "render_latex", "write_table"]

#: the one marker of a missing value in the Markdown and LaTeX renderings (LaTeX typesets it as an en dash)
MISSING = "--"
#: a paper form has at most this many rows (else it declares ``group_by``); a full listing with more rows is a
#: ``longtable`` (it breaks across pages) instead of a ``table`` float
LONGTABLE_ROWS = 40
#: the LaTeX packages of a paper table ``NAME.tex`` (``\\usepackage{...}`` in the document that inputs it)
LATEX_PACKAGES = ("booktabs", "graphicx", "amsmath", "amssymb", "array")
#: the packages of LATEX_PACKAGES that ``acmart`` loads itself (loading ``amssymb`` again is an error there)
ACMART_LOADS = ("amsmath", "amssymb")
#: the LaTeX packages of a full listing ``NAME_full.tex`` (``longtable``, ``landscape`` pages)
LATEX_PACKAGES_FULL = LATEX_PACKAGES + ("longtable", "pdflscape")

#: what :func:`record_provenance` recorded: the notebook and its parameters (empty: nothing recorded)
_PROVENANCE: dict = {}


def record_provenance(notebook: str | None, parameters: Mapping[str, object] | None = None) -> None:
    """Record the notebook that writes the tables, and its parameters, for the comment atop each ``.tex`` file.

    A notebook's setup cell calls it once; every later :func:`write_table` names the notebook and its
    parameters in the comment at the top of the ``.tex`` files (without a record, the comment leaves them out).
    ``None`` forgets the record.

    Parameters
    ----------
    notebook : str or None
        The notebook's path in the repository, e.g. ``"notebooks/04-table4.ipynb"``.
    parameters : mapping of str to object, optional
        The notebook's parameters (the papermill parameters cell), written with :func:`ascii`, in this order.

    Raises
    ------
    ValueError
        If ``notebook`` is empty or not a string, or a parameter's name is not a string.

    Example
    -------
    >>> record_provenance("notebooks/04-table4.ipynb", {"out_dir": "../paper_tables", "q_max": 13})
    >>> _tex_header("table4", False)[2]
    "% Notebook: notebooks/04-table4.ipynb; parameters: out_dir='../paper_tables', q_max=13."
    >>> record_provenance(None)
    """
    _PROVENANCE.clear()
    if notebook is None:
        return
    if not isinstance(notebook, str) or not notebook.strip() or "\n" in notebook:
        raise ValueError(f"notebook={notebook!r} must be the notebook's path, one non-empty line")
    params = dict(parameters or {})
    bad = [k for k in params if not isinstance(k, str)]
    if bad:
        raise ValueError(f"parameters={params!r}: the names {bad!r} are not strings")
    _PROVENANCE.update(notebook=ascii(notebook)[1:-1],
                       parameters=[(k, ascii(v)) for k, v in params.items()])


def format_cell(value: object, float_digits: int = 4, *, for_csv: bool = False) -> str:
    """Format one cell as the CSV files do (integers stay integers, other floats get ``float_digits`` decimals).

    Parameters
    ----------
    value : object
        A cell of a frame.
    float_digits : int
        Decimals of a float that is not an integer.
    for_csv : bool
        ``True``: booleans ``True``/``False`` and missing values empty (the CSV convention); ``False``:
        ``yes``/``no`` and :data:`MISSING`.

    Returns
    -------
    str

    Example
    -------
    >>> format_cell(2.0), format_cell(0.5, 2), format_cell(float("nan")), format_cell(None, for_csv=True)
    ('2', '0.50', '--', '')
    """
    if value is None or value is pd.NA or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return "" if for_csv else MISSING
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


def describe(name: str) -> TableNote:
    """The description of table ``name`` in :data:`~starlib.paper.table_notes.TABLE_NOTES`.

    Raises
    ------
    ValueError
        If the table has no description (every table written to ``paper_tables/`` needs one).

    Example
    -------
    >>> describe("table4").columns["Upper bound"].kind
    'math'
    """
    if name not in TABLE_NOTES:
        raise ValueError(f"table {name!r} has no description: add a TableNote for {name!r} to "
                         "starlib.paper.table_notes.TABLE_NOTES (caption, meaning and unit of every column)")
    return TABLE_NOTES[name]


def _is_missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, (float, np.floating)) and math.isnan(float(value))


def _is_float(value: object) -> bool:
    return isinstance(value, (float, np.floating)) and not isinstance(value, bool) and not _is_missing(value)


def _column_notes(frame: pd.DataFrame, name: str, note: TableNote | None) -> list[Column | None]:
    """One description per column (``None`` for every column without a ``note``); checks that they match."""
    if note is None:
        return [None] * frame.shape[1]
    cols = [str(c) for c in frame.columns]
    missing = [c for c in cols if c not in note.columns and note.default is None]
    if missing:
        raise ValueError(f"table {name!r}: columns {missing} have no description in its TableNote")
    unused = [c for c in note.columns if c not in cols]
    if unused:
        raise ValueError(f"table {name!r}: the TableNote describes columns {unused} that the frame does not have")
    out = []
    for c in cols:
        col = note.columns.get(c, note.default)
        values = frame[c].tolist()
        if col.decimals is None and any(_is_float(v) for v in values):
            raise ValueError(f"table {name!r}: column {c!r} holds floats but its description sets no decimals")
        out.append(col)
    return out


def _is_sentinel(value: object, sentinels: tuple) -> bool:
    """``value`` is one of the column's "no value" sentinels (``-1`` matches integers only, ``"-"`` strings)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, str):
        return value in [x for x in sentinels if isinstance(x, str)]
    if isinstance(value, (int, np.integer)):
        return int(value) in [x for x in sentinels if isinstance(x, int)]
    return False


def _float_text(v: float, decimals: int, sci: bool) -> str:
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if sci:
        return f"{v:.{decimals}e}"
    return f"{v:.{decimals}f}"


def display_cells(frame: pd.DataFrame, float_digits: int = 4, columns: Sequence[Column | None] | None = None,
                  ) -> list[list[str | None]]:
    """The cells as the Markdown and LaTeX renderings show them; ``None`` marks a missing value.

    A cell is missing when it is ``None``, NaN or NA, equals one of its column's ``missing`` sentinels, or is
    an empty string in a column whose ``empty`` is ``None``. Every float of a column gets the same number of
    decimals: the column's ``decimals`` (``float_digits`` without a description).

    Parameters
    ----------
    frame : pandas.DataFrame
    float_digits : int
        Decimals of the float columns that have no description.
    columns : sequence of Column or None, optional
        One description per column.

    Returns
    -------
    list of list of (str or None)

    Example
    -------
    >>> from starlib.paper.table_notes import Column
    >>> df = pd.DataFrame({"x": [1.0, 0.25], "d": [-1, 3], "ok": [True, None]})
    >>> display_cells(df, columns=[Column("x", decimals=2), Column("d", missing=(-1,)), Column("ok")])
    [['1.00', None, 'yes'], ['0.25', '3', None]]
    """
    cols = list(columns) if columns is not None else [None] * frame.shape[1]
    out: list[list[str | None]] = []
    for row in frame.itertuples(index=False, name=None):
        out.append([_display(v, col, float_digits) for v, col in zip(row, cols, strict=True)])
    return out


def _display(v: object, col: Column | None, float_digits: int) -> str | None:
    """One cell as :func:`display_cells` shows it."""
    if _is_missing(v) or (col is not None and _is_sentinel(v, col.missing)):
        return None
    if isinstance(v, str) and v == "":
        return None if col is None or col.empty is None else col.empty
    if _is_float(v):
        d = col.decimals if col is not None and col.decimals is not None else float_digits
        return _float_text(float(v), d, col is not None and col.sci)
    return format_cell(v, float_digits)


def _numeric(frame: pd.DataFrame, j: int) -> bool:
    """Right-align a column of numbers (integers, floats; not booleans)."""
    s = frame.iloc[:, j]
    if pd.api.types.is_bool_dtype(s):
        return False
    if pd.api.types.is_numeric_dtype(s):
        return True
    vals = [v for v in s.tolist() if not _is_missing(v) and v != ""]
    return bool(vals) and all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)
                              for v in vals)


# ---------------------------------------------------------------------------------------------------------------
# Markdown


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def render_markdown(frame: pd.DataFrame, float_digits: int = 4, *, name: str | None = None,
                    note: TableNote | None = None) -> str:
    """Render a frame as a GitHub pipe table, with caption line and column glossary when it is described.

    Parameters
    ----------
    frame : pandas.DataFrame
    float_digits : int
        Decimals of the float columns (used only where no description sets them).
    name : str, optional
        The table's name: its description in :data:`~starlib.paper.table_notes.TABLE_NOTES` adds the caption
        line above and the glossary (meaning and unit of each column) below the table.
    note : TableNote, optional
        A description to use instead of looking ``name`` up.

    Returns
    -------
    str
        The Markdown text, ending with a newline.

    Raises
    ------
    ValueError
        If ``name`` has no description, or the description does not match the frame's columns.

    Example
    -------
    >>> print(render_markdown(pd.DataFrame({"q": [2, 3], "ok": [True, None]})), end="")
    | q | ok |
    |---:|---|
    | 2 | yes |
    | 3 | -- |
    """
    if note is None and name is not None:
        note = describe(name)
    cols = _column_notes(frame, name or "frame", note)
    cells = display_cells(frame, float_digits, cols)
    head = [_md_escape(str(c)) for c in frame.columns]
    align = ["---:" if _numeric(frame, j) else "---" for j in range(frame.shape[1])]
    lines = []
    if note is not None:
        lines += [(f"**{name}.** " if name else "") + note.caption, ""]
    lines += ["| " + " | ".join(head) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(MISSING if c is None else _md_escape(c) for c in r) + " |" for r in cells]
    if note is not None:
        lines += ["", "Columns:", ""]
        for label, col in _glossary(frame, note):
            lines.append(f"- {', '.join(f'`{x}`' for x in label)}{_unit(col)}: {_meaning(col)}")
        if any(c is None for r in cells for c in r):
            lines += ["", f"`{MISSING}`: no value (not applicable, or not computed at this size)."]
    return "\n".join(lines) + "\n"


def _meaning(col: Column) -> str:
    return col.meaning.rstrip(".") + "."


def _unit(col: Column) -> str:
    return f" [{col.unit}]" if col.unit else ""


def _glossary(frame: pd.DataFrame, note: TableNote) -> list[tuple[list[str], Column]]:
    """Glossary entries in column order; the columns that share the table's default description share one entry."""
    out: list[tuple[list[str], Column]] = []
    shared: list[str] = []
    for c in map(str, frame.columns):
        if c in note.columns:
            out.append(([c], note.columns[c]))
        else:
            if not shared:
                out.append((shared, note.default))
            shared.append(c)
    return out


# ---------------------------------------------------------------------------------------------------------------
# LaTeX

def _tex_cell(text: str | None, col: Column | None) -> str:
    if text is None:
        return MISSING
    kind = col.kind if col is not None else "text"
    sci = re.fullmatch(r"(-?\d+(?:\.\d+)?)e([+-]\d+)", text) if col is not None and col.sci else None
    if sci:  # 4.74e-298 -> 4.74 \times 10^{-298}
        mantissa, power = sci.group(1), int(sci.group(2))
        return "$" + mantissa + (r" \times 10^{" + str(power) + "}" if power else "") + "$"
    if kind == "math" and text != "":
        return tex_formula(text, col.star)
    if kind == "mixed":
        return tex_mixed(text, col.star)
    if col is not None and col.width:
        return tex_text(text).replace(";", r";\allowbreak{}")  # "q=3;paley_q=5" may wrap in its column
    return tex_text(text)


_SIZES = ("normalsize", "small", "footnotesize", "scriptsize", "tiny")


def _tex_spread(value: Spread, col: Column | None, float_digits: int) -> str:
    """A compact cell: a range ``lo--hi``, per-key parameter ranges, a set ``a, b`` or a count of values."""
    if value.kind == "params":
        return " ".join(tex_text(f"{k}={lo}") + (f"--{hi}" if hi != lo else "") for k, lo, hi in value.values)
    if value.kind == "count":
        return f"{value.values[0]} values"
    parts = [_tex_cell(_display(v, col, float_digits), col) for v in value.values]
    return "--".join(parts) if value.kind == "range" else ", ".join(parts)


def _paper_shown(frame: pd.DataFrame, name: str, note: TableNote) -> tuple[pd.DataFrame, TableNote]:
    """The paper form's columns, one row per row of ``frame``, and the description that covers them.

    The audit and detail columns are dropped; each pair ``(a, b)`` of ``note.equal`` adds a column ``a = b``
    (``a`` equals ``b`` in the row) after the later of the two, described from their headers.
    """
    cols = [str(c) for c in frame.columns]
    for field_name, declared in (("audit", note.audit), ("detail", note.detail),
                                 ("equal", tuple(c for pair in note.equal for c in pair))):
        unknown = [c for c in declared if c not in cols]
        if unknown:
            raise ValueError(f"table {name!r}: TableNote.{field_name}={declared!r} names columns {unknown} that the "
                             "frame does not have")
    hidden = set(note.audit) | set(note.detail)
    hidden_pairs = [p for p in note.equal if set(p) & hidden]
    if hidden_pairs:
        raise ValueError(f"table {name!r}: TableNote.equal pairs {hidden_pairs} name columns the paper form does not "
                         "show (audit or detail)")
    shown = frame[[c for c in frame.columns if str(c) not in hidden]].copy()
    columns = {c: col for c, col in note.columns.items() if c in set(map(str, shown.columns))}
    for a, b in note.equal:
        new = note.equal_name(a, b)
        if new in cols:
            raise ValueError(f"table {name!r}: TableNote.equal adds a column {new!r} that the frame already has")
        ca, cb = columns.get(a, note.default), columns.get(b, note.default)
        values = [bool(x == y) and not (_is_missing(x) or _is_missing(y)) for x, y in zip(shown[a], shown[b],
                                                                                          strict=True)]
        shown.insert(max(shown.columns.get_loc(a), shown.columns.get_loc(b)) + 1, new, values)
        ha, hb = (c.tex if c is not None and c.tex else tex_text(x) for c, x in ((ca, a), (cb, b)))
        columns[new] = Column(f"yes if {ha} equals {hb} in every row of the line", tex=f"{ha} $=$ {hb}")
    for column, values in note.rows:
        if column not in cols:
            raise ValueError(f"table {name!r}: TableNote.rows names the column {column!r}, which the frame does not "
                             "have")
        shown = shown[shown[column].isin(values)].reset_index(drop=True)
        if shown.empty:
            raise ValueError(f"table {name!r}: TableNote.rows keeps the rows with {column} in {values!r}, and the "
                             "frame has none")
    order = [str(c) for c in shown.columns]
    columns = {c: columns[c] for c in order if c in columns}
    unknown = [c for c in note.group_by if c not in order and c not in hidden]
    if unknown:
        raise ValueError(f"table {name!r}: TableNote.group_by={note.group_by!r} names columns {unknown} that the "
                         "frame does not have")
    for field_name, other in (("audit", note.audit), ("detail", note.detail)):
        both = [c for c in note.group_by if c in other]
        if both:
            raise ValueError(f"table {name!r}: columns {both} are in both TableNote.group_by and "
                             f"TableNote.{field_name} (a paper table groups by columns it shows)")
    return shown, replace(note, columns=columns)


def _paper_frame(frame: pd.DataFrame, name: str, note: TableNote) -> pd.DataFrame:
    """The paper form's rows and columns: audit and detail columns dropped, rows grouped by ``note.group_by``."""
    return _paper_rows(_paper_shown(frame, name, note)[0], name, note)


def _paper_rows(shown: pd.DataFrame, name: str, note: TableNote) -> pd.DataFrame:
    """The lines of the paper form from its columns (:func:`_paper_shown`): grouped, at most a page long."""
    paper = compact(shown, note.group_by) if note.group_by else shown
    if len(paper) > LONGTABLE_ROWS:
        raise ValueError(f"table {name!r}: its paper form has {len(paper)} rows, more than LONGTABLE_ROWS="
                         f"{LONGTABLE_ROWS} (a float must fit a page): declare TableNote.group_by, the columns "
                         "whose values name one line of a compact form")
    return paper


def render_latex(frame: pd.DataFrame, name: str, float_digits: int = 4, *, note: TableNote | None = None,
                 full: bool = False) -> str:
    """Render a described frame as LaTeX: the paper form (a float) or the full listing (every column).

    The paper form (``full=False``, the file ``NAME.tex``) is a ``table`` float, or ``table*`` spanning both
    columns of a two-column paper when the description says ``wide``. It shows the paper's columns only (the
    description's ``audit`` and ``detail`` columns are left out; each ``equal`` pair ``(a, b)`` adds a column
    ``a = b`` computed from the frame) and, when the description declares ``group_by``, one line per group with
    the other columns as ranges or sets (:func:`starlib.paper.compact.compact`). A float wider than
    the text (``\\linewidth``: the column, or the page for ``table*``) is scaled down to it. Never a
    ``longtable`` nor a landscape page: a paper form of more than :data:`LONGTABLE_ROWS` rows is refused.

    The full listing (``full=True``, the file ``NAME_full.tex``, for a one-column appendix) has every row and
    column in the description's layout: font size, ``landscape`` (a page of its own, turned), a ``longtable``
    that repeats its header on every page for more than :data:`LONGTABLE_ROWS` rows (never scaled: its
    description must make it fit). Formula columns are typeset as mathematics
    (:func:`~starlib.paper.latex.tex_formula`, :func:`~starlib.paper.latex.tex_mixed`).

    Parameters
    ----------
    frame : pandas.DataFrame
    name : str
        The table's name; ``\\label{tab:NAME}`` (``tab:NAME_full`` for the full listing).
    float_digits : int
        Decimals of the float columns without a description of their own.
    note : TableNote, optional
        The description (default: :func:`describe` of ``name``).
    full : bool
        The full listing instead of the paper form.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If the table has no description, it does not match the frame, a cell cannot be typeset, or the paper
        form is longer than :data:`LONGTABLE_ROWS` rows.

    Example
    -------
    >>> from starlib.paper.table_notes import Column, TableNote
    >>> note = TableNote("Degree of $MMS(q)$.", {"case": Column("residue", kind="mixed"),
    ...                  "degree": Column("degree", "links", tex="$k$", kind="math")})
    >>> tex = render_latex(pd.DataFrame({"case": ["q = 1 mod 4"], "degree": ["(3*q - 1)/2"]}), "deg", note=note)
    >>> r"\\label{tab:deg}" in tex, r"$q \\equiv 1 \\pmod{4}$ & $(3q - 1)/2$ \\\\" in tex
    (True, True)
    """
    if note is None:
        note = describe(name)
    if note.size not in _SIZES:
        raise ValueError(f"table {name!r}: size={note.size!r} is not one of {', '.join(_SIZES)}")
    _column_notes(frame, name, note)  # the description matches the whole frame
    if full:
        shown, rows, shown_note = frame, frame, note
    else:
        shown, shown_note = _paper_shown(frame, name, note)
        rows = _paper_rows(shown, name, note)
    cols = _column_notes(shown, name, shown_note)
    spec = []
    for j, col in enumerate(cols):
        if col is not None and col.width:
            spec.append(r">{\raggedright\arraybackslash}p{" + col.width + "}")
        else:
            spec.append("r" if _numeric(shown, j) else "l")
    align = "@{}" + "".join(spec) + "@{}"
    heads = [col.tex if col is not None and col.tex else tex_text(str(c)) for c, col in zip(shown.columns, cols,
                                                                                              strict=True)]
    head = " & ".join(r"\rotatebox{90}{" + h + "}" if note.rotate else h for h in heads) + r" \\"
    body, has_missing = [], False
    block = None if full or note.block is None else list(map(str, shown.columns)).index(note.block)
    previous: object = None
    for i, row in enumerate(rows.itertuples(index=False, name=None)):
        cells = []
        for v, col in zip(row, cols, strict=True):
            text = None if isinstance(v, Spread) else _display(v, col, float_digits)
            has_missing = has_missing or (text is None and not isinstance(v, Spread))
            cells.append(_tex_spread(v, col, float_digits) if isinstance(v, Spread) else _tex_cell(text, col))
        if block is not None:  # a rule before each new block, its value on the block's first line only
            if i and row[block] != previous:
                body.append(r"\midrule")
            elif i:
                cells[block] = ""
            previous = row[block]
        body.append(" & ".join(cells) + r" \\")
    label = name + ("_full" if full else "")
    caption = tex_rich(note.caption)
    if full:
        caption += " Every row and column."
    by = dict(zip(map(str, shown.columns), heads, strict=True))
    if not full and note.rows:
        caption += "".join(f" Rows with {by.get(c, tex_text(c))} $\\in \\{{{', '.join(map(str, v))}\\}}$ only; "
                           "the full listing has every row." for c, v in note.rows)
    if not full and note.group_by:
        caption += " " + _lines_sentence(note, by)
    glossary = _tex_glossary(shown, shown_note, heads, has_missing)
    out = _tex_header(name, full)
    long = full and (len(frame) > LONGTABLE_ROWS if note.long is None else note.long)
    ncol = shown.shape[1]
    landscape = full and note.landscape
    if landscape:
        out.append(r"\begin{landscape}")
    if long:
        out += [r"\begingroup", "\\" + note.size, r"\setlength{\tabcolsep}{" + note.tabcolsep + "}",
                r"\setlength{\LTcapwidth}{\linewidth}",
                r"\begin{longtable}{" + align + "}", r"\caption{" + caption + r"}\label{tab:" + label + r"}\\",
                r"\toprule", head, r"\midrule", r"\endfirsthead",
                r"\multicolumn{" + str(ncol) + r"}{@{}l}{\tablename~\thetable{} (continued)}\\",
                r"\toprule", head, r"\midrule", r"\endhead",
                r"\midrule", r"\multicolumn{" + str(ncol) + r"}{r@{}}{\textit{continued on the next page}}\\",
                r"\endfoot", r"\bottomrule", r"\endlastfoot"]
        out += body
        out += [r"\end{longtable}", r"\par\noindent", glossary, r"\par", r"\endgroup"]
    else:
        env = "table*" if note.wide and not full else "table"
        out += [r"\ifdefined\starlibtablebox\else\newsavebox{\starlibtablebox}\fi",
                r"\begin{" + env + "}[" + ("tbp" if env == "table*" else "htbp") + "]", r"\centering",
                r"\caption{" + caption + "}", r"\label{tab:" + label + "}",
                "\\" + note.size, r"\setlength{\tabcolsep}{" + note.tabcolsep + "}",
                r"\sbox{\starlibtablebox}{%", r"\begin{tabular}{" + align + "}", r"\toprule", head, r"\midrule"]
        out += body
        out += [r"\bottomrule", r"\end{tabular}}%",
                r"\ifdim\wd\starlibtablebox>\linewidth",
                r"\resizebox{\linewidth}{!}{\usebox{\starlibtablebox}}%",
                r"\else", r"\usebox{\starlibtablebox}%", r"\fi",
                r"\par\medskip", glossary, r"\end{" + env + "}"]
    if landscape:
        out.append(r"\end{landscape}")
    return "\n".join(out) + "\n"


def _lines_sentence(note: TableNote, heads: Mapping[str, str]) -> str:
    """The caption's sentence on the compact form: what one line is, how a column shows the rows it stands for.

    ``note.lines`` says what a line is in the reader's words; without it (a test requires it for every table
    of :data:`~starlib.paper.table_notes.TABLE_NOTES`) the grouping columns' headers are named.

    Example
    -------
    >>> from starlib.paper.table_notes import TableNote
    >>> _lines_sentence(TableNote("C.", group_by=("net", "kind"), lines="network family"), {}).split(";")[0]
    'One line per network family'
    """
    what = tex_rich(note.lines) if note.lines else " and ".join(heads.get(c, tex_text(c)) for c in note.group_by)
    return ("One line per " + what + "; where the rows of a line differ, a column shows the range of their values "
            "($a$--$b$) or their distinct values ($a, b$).")


def _version() -> str:
    """starlib's version: ``__version__`` of the package this module belongs to.

    Read from the parent package, which Python imports before this module, rather than imported (the paper layer
    imports nothing above it) or taken from the installed metadata (an editable install keeps the version it was
    installed with).
    """
    return str(sys.modules[__name__.split(".")[0]].__version__)


def _tex_header(name: str, full: bool) -> list[str]:
    """The comment at the top of a ``.tex`` file: what it is, where it comes from, what it needs."""
    stem = name + ("_full" if full else "")
    what = ("every row and column of table " + name + " (an appendix listing for a one-column page)" if full else
            "table " + name + " as a paper prints it (every column: " + name + ".csv)")
    out = [f"% {stem}.tex: {what}.",
           f"% Written by starlib.paper.tables.write_table from one frame, starlib {_version()} (do not edit)."]
    if _PROVENANCE:
        params = ", ".join(f"{k}={v}" for k, v in _PROVENANCE["parameters"])
        out.append(f"% Notebook: {_PROVENANCE['notebook']}" + (f"; parameters: {params}." if params else "."))
    out += [f"% Commit: git log -1 -- paper_tables/{stem}.tex",
            "% Needs \\usepackage{" + ",".join(LATEX_PACKAGES_FULL if full else LATEX_PACKAGES) + "}"
            + ("" if full else " (acmart: " + ",".join(p for p in LATEX_PACKAGES if p not in ACMART_LOADS) + ")")
            + f". In a document: \\input{{{stem}}}" + (" after \\onecolumn (or in a one-column appendix)." if full
                                                       else ".")]
    return out


def _tex_glossary(frame: pd.DataFrame, note: TableNote, heads: list[str], has_missing: bool) -> str:
    """The column glossary, a paragraph under the table: ``header: meaning (unit)``."""
    by_name = dict(zip(map(str, frame.columns), heads, strict=True))
    items = []
    for label, col in _glossary(frame, note):
        names = [by_name[x] for x in label]
        key = names[0] if len(names) == 1 else f"{names[0]}--{names[-1]}" if len(names) > 2 else ", ".join(names)
        items.append(r"\textbf{" + key + "}" + tex_rich(_unit(col)) + ": " + tex_rich(_meaning(col)))
    if has_missing:
        items.append(r"\textbf{" + MISSING + "}: no value (not applicable, or not computed at this size).")
    return (r"{\scriptsize\raggedright\noindent\textit{Columns.} " + " ".join(items) + r"\par}")


def write_table(
    frame: pd.DataFrame,
    name: str,
    out_dir: str | Path = "../paper_tables",
    *,
    sort_by: Sequence[str] | None = None,
    float_digits: int = 4,
    note: TableNote | None = None,
) -> list[Path]:
    """Write ``frame`` as ``NAME.csv``, ``NAME.md`` and ``NAME.tex`` in ``out_dir``, each file atomically.

    Every file goes through :func:`starlib.io.atomic_write` (a temporary file renamed over the old one when
    whole), after all of them are checked (:func:`starlib.io.check_target`): a reader, or a run killed at any
    moment, sees each old file or its new one, never half of one.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table; its column order is kept.
    name : str
        File stem, e.g. ``"table4_instances"``; its description in
        :data:`~starlib.paper.table_notes.TABLE_NOTES` gives the caption, the column glossary, the decimals of
        the Markdown and LaTeX renderings and the LaTeX layout.
    out_dir : str or Path
        Directory (created if missing).
    sort_by : sequence of str, optional
        Columns to sort rows by (stable sort), for a row order independent of computation order.
    float_digits : int
        Decimals of non-integral floats in the CSV file.
    note : TableNote, optional
        A description for a table that is not in ``TABLE_NOTES`` (tests, scratch tables).

    Returns
    -------
    list of Path
        The three paths written.

    Raises
    ------
    ValueError
        If ``name`` is not a plain file stem or has no description, or the description does not match the frame,
        or a file cannot be written (read-only, a full disk: :class:`starlib.io.atomic.OutputError`).

    Example
    -------
    >>> import tempfile
    >>> write_table(pd.DataFrame({"q": [2, 3]}), "scratch", tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: table 'scratch' has no description: add a TableNote for 'scratch' to ...
    """
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"name={name!r} must be a plain file stem")
    if note is None:
        note = describe(name)
    df = frame.reset_index(drop=True)
    if sort_by:
        df = df.sort_values(list(sort_by), kind="mergesort").reset_index(drop=True)
    csv_rows = [[format_cell(v, float_digits, for_csv=True) for v in row]
                for row in df.itertuples(index=False, name=None)]
    csv = ",".join(_csv_quote(str(c)) for c in df.columns) + "\n"
    csv += "".join(",".join(_csv_quote(c) for c in r) + "\n" for r in csv_rows)
    texts = [csv, render_markdown(df, float_digits, name=name, note=note),
             render_latex(df, name, float_digits, note=note)]
    out = Path(out_dir)
    paths = [out / f"{name}.csv", out / f"{name}.md", out / f"{name}.tex"]
    if note.condensed:
        texts.append(render_latex(df, name, float_digits, note=note, full=True))
        paths.append(out / f"{name}_full.tex")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file in the way, a read-only file system, a folder without write permission
        raise ValueError(f"out_dir={str(out_dir)!r}: cannot create the folder ({exc.strerror or exc})") from None
    for p in paths:  # every target checked before the first is replaced: a bad one leaves all as they were
        check_target(p, "out_dir")
    for p, t in zip(paths, texts, strict=True):
        atomic_write(p, t.encode("utf-8"), "out_dir")  # the bytes write_text gave ("\n" kept), replaced whole
    return paths


def _csv_quote(s: str) -> str:
    if any(c in s for c in ',"\n'):
        return '"' + s.replace('"', '""') + '"'
    return s
