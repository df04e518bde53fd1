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
  ``\\caption``, ``\\label{tab:NAME}``, booktabs rules, formulas typeset as mathematics and a glossary under
  the table. A float wider than the text is scaled down to the text width; a table described as landscape
  sits in a ``landscape`` page. The file needs only the packages of :data:`LATEX_PACKAGES`.

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
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from .table_notes import TABLE_NOTES, Column, TableNote

__all__ = ["MISSING", "LONGTABLE_ROWS", "LATEX_PACKAGES", "format_cell", "describe", "display_cells",
           "tex_text", "tex_rich", "tex_formula", "tex_mixed", "render_markdown", "render_latex", "write_table"]

#: the one marker of a missing value in the Markdown and LaTeX renderings (LaTeX typesets it as an en dash)
MISSING = "--"
#: a table with more rows than this is a ``longtable`` (it breaks across pages) instead of a ``table`` float
LONGTABLE_ROWS = 40
#: every LaTeX package a ``.tex`` table uses (``\\usepackage{...}`` in the document that inputs it)
LATEX_PACKAGES = ("booktabs", "longtable", "graphicx", "amsmath", "amssymb", "array", "caption", "pdflscape",
                  "tabularx")


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
        cells: list[str | None] = []
        for v, col in zip(row, cols, strict=True):
            if _is_missing(v) or (col is not None and _is_sentinel(v, col.missing)):
                cells.append(None)
            elif isinstance(v, str) and v == "":
                cells.append(None if col is None or col.empty is None else col.empty)
            elif _is_float(v):
                d = col.decimals if col is not None and col.decimals is not None else float_digits
                cells.append(_float_text(float(v), d, col is not None and col.sci))
            else:
                cells.append(format_cell(v, float_digits))
        out.append(cells)
    return out


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
# LaTeX: text, formulas written in ASCII (``(3*q - 1)/2``, ``K_{q,q} * C(X)``), and text with formulas in it

_TEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"}
#: the non-ASCII characters the tables hold, in text mode (anything else is refused: no Unicode in a .tex file)
_TEX_UNICODE = {"\u2014": "---", "\u2013": "--", "\u25a1": r"$\square$", "\u00d7": r"$\times$",
                "\u2264": r"$\le$", "\u2265": r"$\ge$", "\u00b5": r"$\mu$", "\u03bc": r"$\mu$",
                "\u2018": "`", "\u2019": "'", "\u00a7": r"\S{}", "\u00e9": r"\'e", "\u00f6": r"\"o", "\u2212": "$-$"}


def tex_text(s: str) -> str:
    """Escape plain text for LaTeX (special characters, the few non-ASCII characters the tables use).

    Parameters
    ----------
    s : str

    Returns
    -------
    str
        ASCII only.

    Raises
    ------
    ValueError
        For a non-ASCII character without a LaTeX form here.

    Example
    -------
    >>> print(tex_text("q=3;paley_q=5 — 50%"))
    q=3;paley\\_q=5 --- 50\\%
    """
    out = []
    for ch in s:
        if ch in _TEX_SPECIAL:
            out.append(_TEX_SPECIAL[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _TEX_UNICODE:
            out.append(_TEX_UNICODE[ch])
        else:
            raise ValueError(f"text={s!r}: character {ch!r} (U+{ord(ch):04X}) has no LaTeX form in "
                             "starlib.paper.tables._TEX_UNICODE")
    return "".join(out)


def tex_rich(s: str) -> str:
    """Caption and glossary text: ``$...$`` is LaTeX mathematics, kept; ```...``` is code (typewriter).

    Parameters
    ----------
    s : str
        Text as the descriptions write it (:mod:`starlib.paper.table_notes`).

    Returns
    -------
    str
        LaTeX source: the text escaped, the mathematics kept, the code in ``\texttt``.

    Raises
    ------
    ValueError
        For an unbalanced ``$`` or backtick, or a character :func:`tex_text` cannot write.

    Example
    -------
    >>> print(tex_rich("bound $\\\\lfloor m/(n-1) \\\\rfloor$ of `max_edsts`"))
    bound $\\lfloor m/(n-1) \\rfloor$ of \\texttt{max\\_edsts}
    """
    parts = s.split("$")
    if len(parts) % 2 == 0:
        raise ValueError(f"text={s!r}: unbalanced $ (mathematics is written between two $)")
    out = []
    for i, p in enumerate(parts):
        if i % 2:
            out.append("$" + p + "$")
            continue
        code = p.split("`")
        if len(code) % 2 == 0:
            raise ValueError(f"text={s!r}: unbalanced ` (code is written between two `)")
        out.append("".join(r"\texttt{" + tex_text(c) + "}" if k % 2 else tex_text(c) for k, c in enumerate(code)))
    return "".join(out)


_TOKEN = re.compile(r"""
 (?P<space>\s+)
|(?P<ref>(?:[IVX]+|[A-C])-[A-Z]?\.?\d+(?:\(\d+\))?)           # V-C.10, IV-.1, A-.1, B-B1, V-B.5(2)
|(?P<code>[a-z]+(?:[._][a-z]+)+)                               # max_edsts, starlib.bounds
|(?P<word>[A-Za-z][a-z]+(?:-[A-Za-z][a-z]*)+)                   # brute-force, Nash-Williams-Tutte
|(?P<name>[A-Za-z]+(?:_(?:\{[^{}]*\}|[A-Za-z0-9]+))?'*)         # t_G, K_{q,q}, ER_q, q', delta, YES
|(?P<num>\d+(?:\.\d+)?)
|(?P<op><=|>=|!=|[-+*/=<>^|\u25a1])
|(?P<open>[(\[])
|(?P<close>[)\]])
|(?P<punct>.)
""", re.X)

#: names that are mathematics although longer than one letter, and their LaTeX
_FUNCS = {"floor": r"\lfloor", "ceil": r"\lceil", "Max": r"\max", "max": r"\max", "min": r"\min", "log": r"\log",
          "tau": r"\tau", "delta": r"\delta", "mod": r"\bmod"}
_CLOSING = {"floor": r"\rfloor", "ceil": r"\rceil"}
#: graph names, set upright
_GRAPHS = {"MMS", "QR", "IQ", "BDF", "ER", "PG", "GF"}
#: two-letter words that are English, not a product of two variables (``kn`` is)
_ENGLISH2 = {"if", "or", "in", "of", "on", "to", "is", "at", "by", "as", "an", "no", "be", "eq", "so", "up", "ok",
             "vs"}
_OPS = {"<=": r"\le", ">=": r"\ge", "!=": r"\ne", "\u25a1": r"\mathbin{\square}"}
_PAIRS = {"(": ")", "[": "]"}
#: control words that need a space before a following letter or digit
_CONTROL_WORD = re.compile(r"(\\(?:lfloor|lceil|max|min|log|tau|delta|bmod|equiv|le|ge|ne|cdot|star))(?=[A-Za-z0-9])")

Token = tuple[str, str]


def _tokens(s: str) -> list[Token]:
    return [(m.lastgroup or "punct", m.group()) for m in _TOKEN.finditer(s)]


def _beside(toks: list[Token], i: int, step: int) -> int:
    """Index of the nearest token before (``step=-1``) or after (``+1``) ``i`` that is not a space."""
    j = i + step
    while 0 <= j < len(toks) and toks[j][0] == "space":
        j += step
    return j


def _name_is_math(name: str) -> bool:
    base = name.split("_")[0].rstrip("'")
    if name in _FUNCS or base in _GRAPHS or "_" in name or name.endswith("'") or len(name) == 1:
        return True
    return len(name) == 2 and name.islower() and name not in _ENGLISH2


def _brackets(toks: list[Token]) -> dict[int, int]:
    """Matching brackets: index of each opening bracket -> index of its closing one."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, (k, t) in enumerate(toks):
        if k == "open":
            stack.append(i)
        elif k == "close" and stack and _PAIRS[toks[stack[-1]][1]] == t:
            pairs[stack.pop()] = i
    return pairs


def _classify(toks: list[Token]) -> list[bool]:
    """Which tokens are mathematics (the rest is text): the rule of the ``mixed`` columns.

    Names are mathematics when they have a subscript or a prime, are one letter, a graph name (``MMS``, ``QR``,
    ...), a function (``floor``, ``Max``, ``mod``, ...) or a two-letter product such as ``kn``; operators are
    mathematics. A bracket pair is mathematics when it follows a mathematical name (``C(X)``) or holds
    mathematics, and holds no words; so is a comma inside it. A number is mathematics next to an operator, a
    mathematical name or a bracket it touches. The article ``a`` before a word (and not after an operator) is
    text. Words, section numbers (``V-C.10``) and code (``max_edsts``) are text.
    """
    n = len(toks)
    kind = [k for k, _ in toks]
    is_math = [k == "op" or (k == "name" and _name_is_math(t)) for k, t in toks]
    for i, (k, t) in enumerate(toks):
        if k == "name" and t == "a":
            j, p = _beside(toks, i, 1), _beside(toks, i, -1)
            if j < n and kind[j] in ("name", "word") and not is_math[j] and not (p >= 0 and kind[p] == "op"):
                is_math[i] = False
    for i, j in sorted(_brackets(toks).items()):
        inner = range(i + 1, j)
        words = any(kind[x] in ("word", "ref", "code") or (kind[x] == "name" and not is_math[x]) for x in inner)
        call = i > 0 and kind[i - 1] == "name" and is_math[i - 1]
        if (call or any(is_math[x] for x in inner)) and not words:
            is_math[i] = is_math[j] = True
            for x in inner:
                is_math[x] = is_math[x] or toks[x] == ("punct", ",")
    for i, k in enumerate(kind):
        if k == "num":
            touching = [j for j in (i - 1, i + 1) if 0 <= j < n and kind[j] in ("open", "close")]
            near = [j for j in (_beside(toks, i, -1), _beside(toks, i, 1)) if 0 <= j < n and kind[j] in ("op", "name")]
            is_math[i] = any(is_math[j] for j in touching + near)
    return is_math


def _math_name(name: str) -> str:
    """LaTeX of a name: ``ER_47`` -> ``\\mathrm{ER}_{47}``, ``C_2x4`` -> ``C_{2\\times 4}``, ``tau`` -> ``\\tau``."""
    if name in _FUNCS:
        return _FUNCS[name]
    body = name.rstrip("'")
    base, _, sub = body.partition("_")
    out = r"\mathrm{" + base + "}" if base in _GRAPHS else base
    if sub and not sub.startswith("{"):
        sub = re.sub(r"^(\d+)x(\d+)$", r"\1\\times \2", sub)
        sub = sub if len(sub) == 1 else "{" + sub + "}"
    return out + ("_" + sub if sub else "") + "'" * (len(name) - len(body))


def _math_run(toks: list[Token], star: bool) -> str:
    """LaTeX for a run of mathematical tokens (the text between two ``$``)."""
    n = len(toks)
    closing = {j: _CLOSING[toks[i - 1][1]] for i, j in _brackets(toks).items()
               if i > 0 and toks[i - 1][1] in _CLOSING}
    out: list[str] = []
    skip = -1
    for i, (k, t) in enumerate(toks):
        if i <= skip:
            continue
        left, right = _beside(toks, i, -1), _beside(toks, i, 1)
        lk = toks[left][0] if left >= 0 else ""
        rk, rt = toks[right] if right < n else ("", "")
        if k == "space":
            # two operands side by side keep a visible space ("1 (q = 1 mod 4)"); elsewhere TeX spaces itself
            operands = lk in ("name", "num", "close") and rk in ("name", "num", "open") and rt != "mod" \
                and toks[left][1] not in _FUNCS
            out.append(r"\ " if operands else " ")
        elif k == "name" and t == "mod" and right < n:
            # X = A mod M  ->  X \equiv A \pmod{M} (X != A mod M: \not\equiv); without "=" before it: A \bmod M
            eq = next((x for x in reversed(range(len(out))) if out[x] in ("=", r"\ne")), None)
            if eq is None:
                out.append(_FUNCS[t])
            else:
                out[eq] = r"\equiv" if out[eq] == "=" else r"\not\equiv"
                out.append(r"\pmod{" + (_math_name(rt) if rk == "name" else rt) + "}")
                skip = right
        elif k == "name":
            out.append(_math_name(t))
        elif k == "op" and t == "*":
            if i > 0 and toks[i - 1][0] == "name" and (i + 1 == n or toks[i + 1][0] in ("space", "close")):
                out.append("^*")  # tau* : a starred symbol
            elif star:
                out.append(r"\star")
            elif lk == "num" and rk == "num":
                out.append(r"\cdot")
            else:
                out.append("" if lk == "num" else " ")  # 3*q -> 3q, D_G*d_H -> D_G d_H
        elif k == "op" and t == "^" and rk in ("num", "name"):
            power = _math_name(rt) if rk == "name" else rt
            out.append("^" + (power if len(power) == 1 else "{" + power + "}"))
            skip = right
        elif k == "op":
            out.append(_OPS.get(t, t))
        elif k == "open":
            out.append("" if i > 0 and toks[i - 1][1] in _CLOSING else t)
        elif k == "close":
            out.append(closing.get(i, t))
        elif k == "num" or toks[i] == ("punct", ","):
            out.append(t)
        else:
            raise ValueError(f"formula {''.join(x for _, x in toks)!r}: {t!r} is not mathematics")
    return _CONTROL_WORD.sub(r"\1 ", "".join(out))


def tex_formula(s: str, star: bool = False) -> str:
    """A cell that is one formula in ASCII (``(3*q - 1)/2``, ``floor(m/(n-1))``), as LaTeX mathematics.

    ``*`` is multiplication (juxtaposition) or, with ``star``, the star product; ``x*`` after a name is the
    starred symbol ``x^*``; ``<=``, ``>=``, ``!=`` are relations; ``floor(...)`` and ``Max(...)`` are the floor
    and the maximum; ``X = a mod m`` is a congruence; ``MMS``, ``QR``, ``IQ``, ``BDF``, ``ER`` are set upright.

    Parameters
    ----------
    s : str
        A cell of a ``"math"`` column.
    star : bool
        ``*`` is the star product (the column's ``star``).

    Returns
    -------
    str
        One ``$...$``.

    Raises
    ------
    ValueError
        If the cell holds words (describe the column as ``"mixed"``).

    Example
    -------
    >>> print(tex_formula("(3*q - 1)/2"), tex_formula("K_{q,q} * C(X)", star=True), tex_formula("q' = 1 mod 4"))
    $(3q - 1)/2$ $K_{q,q} \\star C(X)$ $q' \\equiv 1 \\pmod{4}$
    """
    toks = _tokens(s.strip())
    flags = _classify(toks)
    words = [t for (k, t), f in zip(toks, flags, strict=True) if not f and k not in ("space", "num", "punct")]
    if words:
        raise ValueError(f"formula={s!r}: {words} are words, not mathematics (describe the column as 'mixed')")
    return "$" + _math_run(toks, star) + "$"


def tex_mixed(s: str, star: bool = False) -> str:
    """Text with formulas in it (``Within 1 (YES if r_G = t_G or r_H = t_H)``): the formulas as mathematics.

    The rule that tells formula from text is :func:`_classify`'s; each run of mathematical tokens becomes one
    ``$...$``, code (``max_edsts``) becomes typewriter text and the rest is escaped text.

    Parameters
    ----------
    s, star : str, bool
        A cell of a ``"mixed"`` column, and whether ``*`` is the star product there.

    Returns
    -------
    str
        Escaped text and ``$...$`` runs.

    Example
    -------
    >>> print(tex_mixed("Within 1 (YES if r_G = t_G or r_H = t_H)"))
    Within 1 (YES if $r_G = t_G$ or $r_H = t_H$)
    >>> print(tex_mixed("all (k, n) with k < n, kn even, n < 80"))
    all $(k, n)$ with $k < n$, $kn$ even, $n < 80$
    >>> print(tex_mixed("an integer d' >= 3, d' = 0 or 3 mod 4"))
    an integer $d' \\ge 3$, $d' \\equiv 0$ or $3 \\pmod{4}$
    """
    toks = _tokens(s)
    flags = _classify(toks)
    out: list[str] = []
    i, n = 0, len(toks)
    while i < n:
        if flags[i]:
            j = i
            while j + 1 < n and (flags[j + 1] or (toks[j + 1][0] == "space" and j + 2 < n and flags[j + 2])):
                j += 1
            out.append("$" + _math_run(toks[i:j + 1], star) + "$")
            i = j + 1
        else:
            kind, text = toks[i]
            out.append(r"\texttt{" + tex_text(text) + "}" if kind == "code" else tex_text(text))
            i += 1
    # "d' = 0 or 3 mod 4" is one congruence written over two formulas
    return re.sub(r"\$([^$]*?) = ([^$=]*?)\$ or \$([^$\s]+) \\bmod ([^$\s]+)\$",
                  r"$\1 \\equiv \2$ or $\3 \\pmod{\4}$", "".join(out))


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


def render_latex(frame: pd.DataFrame, name: str, float_digits: int = 4, *, note: TableNote | None = None) -> str:
    """Render a described frame as a LaTeX ``table`` float (or ``longtable``) with caption, label and glossary.

    The layout follows the description: font size, ``landscape`` (a page of its own, turned), column widths
    for text that wraps. A float wider than the text (``\\linewidth``) is scaled down to it; a table of more
    than :data:`LONGTABLE_ROWS` rows is a ``longtable`` that repeats its header on every page (never scaled:
    its description must make it fit). Formula columns are typeset as mathematics (:func:`tex_formula`,
    :func:`tex_mixed`).

    Parameters
    ----------
    frame : pandas.DataFrame
    name : str
        The table's name; ``\\label{tab:NAME}``.
    float_digits : int
        Decimals of the float columns without a description of their own.
    note : TableNote, optional
        The description (default: :func:`describe` of ``name``).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If the table has no description, it does not match the frame, or a cell cannot be typeset.

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
    cols = _column_notes(frame, name, note)
    cells = display_cells(frame, float_digits, cols)
    spec = []
    for j, col in enumerate(cols):
        if col is not None and col.width:
            spec.append(r">{\raggedright\arraybackslash}p{" + col.width + "}")
        else:
            spec.append("r" if _numeric(frame, j) else "l")
    align = "@{}" + "".join(spec) + "@{}"
    heads = [col.tex if col is not None and col.tex else tex_text(str(c)) for c, col in zip(frame.columns, cols,
                                                                                              strict=True)]
    head = " & ".join(r"\rotatebox{90}{" + h + "}" if note.rotate else h for h in heads) + r" \\"
    body = [" & ".join(_tex_cell(c, col) for c, col in zip(r, cols, strict=True)) + r" \\" for r in cells]
    caption = tex_rich(note.caption)
    glossary = _tex_glossary(frame, note, heads, any(c is None for r in cells for c in r))
    long = len(frame) > LONGTABLE_ROWS if note.long is None else note.long
    ncol = frame.shape[1]
    out = [f"% {name}.tex: written by starlib.paper.tables.write_table from one frame (do not edit).",
           "% Needs \\usepackage{" + ",".join(LATEX_PACKAGES) + "}.", "% In a document: \\input{" + name + "}."]
    if note.landscape:
        out.append(r"\begin{landscape}")
    if long:
        out += [r"\begingroup", "\\" + note.size, r"\setlength{\tabcolsep}{" + note.tabcolsep + "}",
                r"\setlength{\LTcapwidth}{\linewidth}",
                r"\begin{longtable}{" + align + "}", r"\caption{" + caption + r"}\label{tab:" + name + r"}\\",
                r"\toprule", head, r"\midrule", r"\endfirsthead",
                r"\multicolumn{" + str(ncol) + r"}{@{}l}{\tablename~\thetable{} (continued)}\\",
                r"\toprule", head, r"\midrule", r"\endhead",
                r"\midrule", r"\multicolumn{" + str(ncol) + r"}{r@{}}{\textit{continued on the next page}}\\",
                r"\endfoot", r"\bottomrule", r"\endlastfoot"]
        out += body
        out += [r"\end{longtable}", r"\par\noindent", glossary, r"\par", r"\endgroup"]
    else:
        out += [r"\ifdefined\starlibtablebox\else\newsavebox{\starlibtablebox}\fi",
                r"\begin{table}[htbp]", r"\centering", r"\caption{" + caption + "}", r"\label{tab:" + name + "}",
                "\\" + note.size, r"\setlength{\tabcolsep}{" + note.tabcolsep + "}",
                r"\sbox{\starlibtablebox}{%", r"\begin{tabular}{" + align + "}", r"\toprule", head, r"\midrule"]
        out += body
        out += [r"\bottomrule", r"\end{tabular}}%",
                r"\ifdim\wd\starlibtablebox>\linewidth",
                r"\resizebox{\linewidth}{!}{\usebox{\starlibtablebox}}%",
                r"\else", r"\usebox{\starlibtablebox}%", r"\fi",
                r"\par\medskip", glossary, r"\end{table}"]
    if note.landscape:
        out.append(r"\end{landscape}")
    return "\n".join(out) + "\n"


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
    caption: str | None = None,
    note: TableNote | None = None,
) -> list[Path]:
    """Write ``frame`` as ``NAME.csv``, ``NAME.md`` and ``NAME.tex`` in ``out_dir``.

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
    caption : str, optional
        Ignored: the caption is the description's (kept so that older calls still run).
    note : TableNote, optional
        A description for a table that is not in ``TABLE_NOTES`` (tests, scratch tables).

    Returns
    -------
    list of Path
        The three paths written.

    Raises
    ------
    ValueError
        If ``name`` is not a plain file stem or has no description, or the description does not match the frame.

    Example
    -------
    >>> import tempfile
    >>> write_table(pd.DataFrame({"q": [2, 3]}), "scratch", tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: table 'scratch' has no description: add a TableNote for 'scratch' to ...
    """
    del caption
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
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / f"{name}.csv", out / f"{name}.md", out / f"{name}.tex"]
    for p, t in zip(paths, texts, strict=True):
        p.write_text(t, encoding="utf-8")
    return paths


def _csv_quote(s: str) -> str:
    if any(c in s for c in ',"\n'):
        return '"' + s.replace('"', '""') + '"'
    return s
