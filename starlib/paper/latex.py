"""The LaTeX of the tables' text: plain text, captions with ``$...$``, formulas written in ASCII, and text with
formulas in it.

:func:`starlib.paper.tables.write_table` typesets every cell, caption and glossary entry through these four
functions; which one a column's cells go through is the column's ``kind`` (:class:`~starlib.paper.table_notes.Column`).

=====================  ==============================================================================================
function               input
=====================  ==============================================================================================
:func:`tex_text`       plain text: the LaTeX specials ``& % $ # _ { } ~ ^ \\ < > |`` escaped, the few non-ASCII
                       characters the tables hold (dashes, ``≤``, ``×``, ``µ``, ...) written in ASCII; any other
                       non-ASCII character is refused, so a ``.tex`` file is pure ASCII
:func:`tex_rich`       captions and glossaries: ``$...$`` is LaTeX mathematics, kept as written; ```...``` is code
                       (``\\texttt``); the rest is :func:`tex_text`
:func:`tex_formula`    a ``"math"`` cell: the whole cell is one formula in ASCII, typeset as one ``$...$``
:func:`tex_mixed`      a ``"mixed"`` cell: text with formulas in it; each run of formula tokens becomes one ``$...$``
=====================  ==============================================================================================

Grammar of the ASCII formulas
-----------------------------
A cell is cut into tokens, tried in this order (the first that matches at a position wins)::

    space  := whitespace
    ref    := section or theorem number        V-C.10  IV-.1  A-.1  B-B1  V-B.5(2)
    code   := lowercase words joined by _ or .  max_edsts  starlib.bounds
    word   := words joined by hyphens           brute-force  Nash-Williams
    name   := letters [ _ (letters|digits) | _{...} ] primes    t_G  K_{q,q}  ER_q  q'  delta
    num    := digits [ . digits ]
    op     := <= >= != - + * / = < > ^ | □
    open   := ( [          close := ) ]          punct := any other character

**Which tokens are mathematics** (:func:`tex_mixed`; in :func:`tex_formula` every token must be):

- a *name* when it has a subscript or a prime, is one letter, a graph name (``MMS QR IQ BDF ER PG GF``), a
  function or Greek letter (``floor ceil Max max min log mod tau delta``) or two lowercase letters that are not an
  English word (``kn`` is a product, ``if`` is not); every *op*;
- a bracket pair that follows a mathematical name (``C(X)``) or holds mathematics, and holds no words, refs, code
  or text names; so is a comma inside it;
- a *num* next to an op, a mathematical name, or a bracket it touches;
- not the article ``a`` before a word (unless an op precedes it); never a word, a ref or code.

**How mathematics is written** (one run of mathematical tokens, spaces included):

- ``*`` is multiplication by juxtaposition (``3*q`` -> ``3q``; between two numbers ``\\cdot``), the star product
  ``\\star`` in a column with ``star=True``, and ``^*`` right after a name that ends a term (``tau*``);
- ``<=``, ``>=``, ``!=`` and ``□`` are ``\\le``, ``\\ge``, ``\\ne`` and the box product ``\\mathbin{\\square}``;
- ``^`` raises to the one number or name after it (``q^2``, ``2^k``);
- ``floor(...)`` and ``ceil(...)`` become ``\\lfloor ... \\rfloor`` and ``\\lceil ... \\rceil``;
- ``X = A mod M`` is the congruence ``X \\equiv A \\pmod{M}`` (``!=``: ``\\not\\equiv``); ``A mod M`` without ``=``
  is ``A \\bmod M``; in mixed text ``d' = 0 or 3 mod 4`` is one congruence over two formulas;
- a subscript of more than one character is braced, graph names are upright (``ER_47`` -> ``\\mathrm{ER}_{47}``,
  ``C_2x4`` -> ``C_{2\\times 4}``); ``tau`` and ``delta`` are Greek letters;
- two operands side by side keep a visible space (``1 (q = 1 mod 4)`` -> ``1\\ (q \\equiv 1 \\pmod{4})``).

Example
-------
>>> print(tex_formula("floor(m/(n-1))"), tex_mixed("q' = 4k + 1, k >= 1"))
$\\lfloor m/(n-1)\\rfloor$ $q' = 4k + 1$, $k \\ge 1$
"""

from __future__ import annotations

import re

__all__ = ["tex_text", "tex_rich", "tex_formula", "tex_mixed"]


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
        Text of a cell or a header, typeset as it reads (no mathematics, no code).

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
                             "starlib.paper.latex._TEX_UNICODE")
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
