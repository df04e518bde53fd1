"""Closed forms for vertex count, edge count and degrees of every family.

Sources: Property II-B.3 and Table V of the paper; docs/star-products.md §1.5, §10; docs/networks.md.

Each formula is a sympy expression in the family's parameters, so notebooks can show it and
tests can evaluate it; :func:`counts` evaluates one at concrete parameters. These are the
*independent* side of the checks in ``notebooks/01-star-products.ipynb``: the graphs are built
by :mod:`starlib.factors` / :mod:`starlib.networks` and counted, the formulas come from the paper.

For the MMS families the parameter ``delta`` is determined by ``q = 4w + delta``
(``delta`` in {-1, 0, 1}); :func:`mms_delta` computes it.

Example
-------
>>> counts("slimfly", q=5)
{'n': 50, 'm': 175, 'degrees': [7]}
>>> counts("polarstar-paley", q=3, paley_q=5)["m"]
185
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy as sp

__all__ = ["SYMBOLS", "FORMULAS", "mms_delta", "counts", "product_counts", "parse_formula", "evaluate_formula"]

q, qp, d, n, delta, k = sp.symbols("q q' d n delta k", integer=True, positive=True)
SYMBOLS = {"q": q, "paley_q": qp, "d": d, "n": n, "delta": delta}


def mms_delta(q_value: int) -> int:
    """The ``delta`` of ``q = 4w + delta`` (1, 0 or -1); ``q = 2 mod 4`` has none (ValueError).

    >>> [mms_delta(x) for x in (3, 4, 5, 7, 8, 9)]
    [-1, 0, 1, -1, 0, 1]
    """
    r = q_value % 4
    if r == 2:
        raise ValueError(f"q={q_value} is not of the form 4w + delta with delta in {{-1, 0, 1}}")
    return {0: 0, 1: 1, 3: -1}[r]


def _star(nG: sp.Expr, mG: sp.Expr, nH: sp.Expr, mH: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Property II-B.3: |V| = n_G n_H, |E| = m_G n_H + n_G m_H."""
    return sp.expand(nG * nH), sp.expand(mG * nH + nG * mH)


_paley = (qp, qp * (qp - 1) / 4, [(qp - 1) / 2])
_mms = (2 * q**2, q**2 * (3 * q - delta) / 2, [(3 * q - delta) / 2])
_er = (q**2 + q + 1, q * (q + 1) ** 2 / 2, [q, q + 1])
_iq = (2 * d + 2, d * (d + 1), [d])

FORMULAS: dict[str, tuple[sp.Expr, sp.Expr, list[sp.Expr]]] = {
    "complete": (n, n * (n - 1) / 2, [n - 1]),
    "complete-bipartite": (2 * n, n**2, [n]),
    "paley": (q, q * (q - 1) / 4, [(q - 1) / 2]),
    "mms-supernode": (q, q * (q - delta) / 4, [(q - delta) / 2]),
    "slimfly": _mms,
    "polarfly": _er,
    "inductive-quad": _iq,
    "bundlefly": (*_star(_mms[0], _mms[1], _paley[0], _paley[1]), [_mms[2][0] + _paley[2][0]]),
    "polarstar-paley": (*_star(_er[0], _er[1], _paley[0], _paley[1]),
                        [q + (qp - 1) / 2, q + 1 + (qp - 1) / 2]),
    "polarstar-iq": (*_star(_er[0], _er[1], _iq[0], _iq[1]), [q + d, q + 1 + d]),
    "complete-paley": (*_star(n, n * (n - 1) / 2, q, q * (q - 1) / 4), [n - 1 + (q - 1) / 2]),
}
"""family -> (n, m, sorted degree list) as sympy expressions (ER_q is loop-free)."""


def counts(family: str, **params: int) -> dict[str, Any]:
    """Evaluate the closed forms of ``family`` at ``params`` (``delta`` is derived from ``q`` for MMS).

    Parameters
    ----------
    family : a key of :data:`FORMULAS`.
    params : the family's parameters (``q``, ``paley_q``, ``d``, ``n``).

    Returns
    -------
    ``{"n": int, "m": int, "degrees": sorted list of distinct degrees}``.
    """
    if family not in FORMULAS:
        raise ValueError(f"family={family!r} has no closed form (known: {', '.join(FORMULAS)})")
    subs = {SYMBOLS[key]: val for key, val in params.items()}
    if family in ("slimfly", "bundlefly", "mms-supernode"):
        subs[delta] = mms_delta(params["q"])
    nv, mv, degs = FORMULAS[family]
    vals = [sp.sympify(e).subs(subs) for e in (nv, mv, *degs)]
    for v in vals:
        if not (v.is_integer and v.is_number):
            raise ValueError(f"{family} with {params}: closed form {v} is not an integer")
    return {"n": int(vals[0]), "m": int(vals[1]), "degrees": sorted({int(v) for v in vals[2:]})}


def product_counts(nG: int, mG: int, nH: int, mH: int) -> tuple[int, int]:
    """Vertex and edge counts of any star product from its factors' counts (Property II-B.3).

    >>> product_counts(2, 1, 5, 5)   # K_2 * QR(5), the Petersen graph
    (10, 15)
    """
    nv, mv = _star(sp.Integer(nG), sp.Integer(mG), sp.Integer(nH), sp.Integer(mH))
    return int(nv), int(mv)


def parse_formula(text: str, symbols: Mapping[str, sp.Symbol], functions: Mapping[str, Any] | None = None,
                  rule: str = "") -> sp.Expr:
    """A formula cell of a table as a sympy expression that may use only ``symbols`` (and ``functions``).

    Parameters
    ----------
    text : str
        The cell, with its symbols written as the keys of ``symbols``.
    symbols : mapping of str to sympy.Symbol
        The names the cell may use.
    functions : mapping of str to callable, optional
        Functions the cell may call (``{"Max": sympy.Max}``).
    rule : str
        How the error message states the allowed names.

    Raises
    ------
    ValueError
        If the cell uses any other name.

    Example
    -------
    >>> x = sp.Symbol("x")
    >>> parse_formula("2*x + 1", {"x": x}, rule="use x")
    2*x + 1
    >>> parse_formula("2*y", {"x": x}, rule="use x")
    Traceback (most recent call last):
    ...
    ValueError: text='2*y' uses ['y']; use x
    """
    expr = sp.sympify(text, locals={**symbols, **(functions or {})})
    unknown = expr.free_symbols - set(symbols.values())
    if unknown:
        raise ValueError(f"text={text!r} uses {sorted(map(str, unknown))}; {rule}")
    return expr


def evaluate_formula(text: str, expr: sp.Expr, values: Mapping[sp.Symbol, int], what: str) -> int:
    """The integer value of a parsed formula cell at ``values`` (``what`` names the values in messages).

    Raises
    ------
    ValueError
        If a symbol of the formula has no value, or the value is not an integer.

    Example
    -------
    >>> x = sp.Symbol("x")
    >>> evaluate_formula("x/2", x / 2, {x: 6}, "x=6")
    3
    >>> evaluate_formula("x/2", x / 2, {x: 3}, "x=3")
    Traceback (most recent call last):
    ...
    ValueError: x=3: the formula 'x/2' gives 3/2, not an integer
    """
    val = sp.sympify(expr).subs(values)
    if val.free_symbols:
        raise ValueError(f"{what}: the formula {text!r} needs {sorted(map(str, val.free_symbols))}")
    if not val.is_integer:
        raise ValueError(f"{what}: the formula {text!r} gives {val}, not an integer")
    return int(val)
