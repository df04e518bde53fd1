"""Closed forms for vertex count, edge count and degrees of every family, from the families' declarations.

Sources: Property II-B.3 and Table V of the paper; docs/star-products.md §1.5, §10; docs/networks.md.

Each family declares the closed forms the paper states beside its builder (:class:`~starlib.family.ClosedForms`,
text in the family's parameter names); :func:`closed_forms` turns them into sympy expressions (a star product's by
Property II-B.3 from its factors' forms), so notebooks can show them and tests can evaluate them; :func:`counts`
evaluates one at concrete parameters. These are the *independent* side of the checks in
``notebooks/01-star-products.ipynb``: the graphs are built by :mod:`starlib.factors` / :mod:`starlib.networks`
and counted, the formulas come from the paper.

For the MMS families the symbol ``delta`` is determined by ``q = 4w + delta`` (``delta`` in {-1, 0, 1};
:func:`~starlib.factors.mms_delta`), as their declarations say.

Example
-------
>>> counts("slimfly", q=5)
{'n': 50, 'm': 175, 'degrees': [7]}
>>> counts("polarstar-paley", q=3, paley_q=5)["m"]
185
>>> closed_forms("polarfly").degrees
((q + 1, q**2), (q, q + 1))
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..family import Family
from ..registry import NETWORK_FAMILIES, get_family

__all__ = ["SYMBOLS", "Forms", "closed_forms", "FORMULAS", "counts", "product_counts", "parse_formula",
           "evaluate_formula"]

q, qp, d, n, delta, k = sp.symbols("q q' d n delta k", integer=True, positive=True)
#: The sympy symbol of each parameter name (``paley_q`` is the paper's ``q'``) and of ``delta``.
SYMBOLS = {"q": q, "paley_q": qp, "d": d, "n": n, "delta": delta}


@dataclass(frozen=True)
class Forms:
    """A family's closed forms as sympy expressions in :data:`SYMBOLS`.

    Attributes
    ----------
    n, m : vertices and edges.
    degrees : ``((degree, number of vertices), ...)`` (the counts are None for a star product, whose declaration
        gives the factors, not the counts).
    derived : symbol -> function of the family's parameters (``delta``).
    """

    n: sp.Expr
    m: sp.Expr
    degrees: tuple[tuple[sp.Expr, sp.Expr | None], ...]
    derived: Mapping[sp.Symbol, Callable[[Mapping[str, int]], int]]


def _parse(text: str) -> sp.Expr:
    return sp.sympify(text, locals=SYMBOLS)


def _star(nG: sp.Expr, mG: sp.Expr, nH: sp.Expr, mH: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Property II-B.3: |V| = n_G n_H, |E| = m_G n_H + n_G m_H."""
    return sp.expand(nG * nH), sp.expand(mG * nH + nG * mH)


def _renamed(fn: Callable[..., int], names: Mapping[str, str]) -> Callable[[Mapping[str, int]], int]:
    """``fn`` of a factor's parameters, called with the product's (``names``: factor parameter -> product's)."""
    wanted = list(inspect.signature(fn).parameters)
    return lambda params: fn(**{w: params[names.get(w, w)] for w in wanted})


def _forms(fam: Family) -> Forms | None:
    decl = fam.forms
    if decl is None:
        return None
    if decl.star is None:
        derived = {SYMBOLS[name]: _renamed(fn, {}) for name, fn in decl.derived.items()}
        return Forms(_parse(decl.n), _parse(decl.m), tuple((_parse(a), _parse(b)) for a, b in decl.degrees), derived)
    (g_builder, g_names), (h_builder, h_names) = decl.star
    parts = []
    derived = {}
    for builder, names in ((g_builder, g_names), (h_builder, h_names)):
        f = _forms(builder.family)
        subs = {SYMBOLS[a]: SYMBOLS[b] for a, b in names.items()}
        parts.append((f.n.subs(subs, simultaneous=True), f.m.subs(subs, simultaneous=True),
                      [deg.subs(subs, simultaneous=True) for deg, _ in f.degrees]))
        derived.update({sym: _renamed_product(fn, names) for sym, fn in f.derived.items()})
    (nG, mG, dG), (nH, mH, dH) = parts
    nv, mv = _star(nG, mG, nH, mH)
    return Forms(nv, mv, tuple((a + b, None) for a in dG for b in dH), derived)


def _renamed_product(fn: Callable[[Mapping[str, int]], int], names: Mapping[str, str]
                     ) -> Callable[[Mapping[str, int]], int]:
    """A factor's derived symbol as a function of the product's parameters."""
    return lambda params: fn({a: params[b] for a, b in names.items()})


def closed_forms(family: str) -> Forms:
    """The closed forms a family declares, as sympy expressions (:class:`Forms`).

    Raises
    ------
    ValueError
        If the family is unknown or declares none.

    >>> closed_forms("bundlefly").n
    2*q**2*q'
    """
    f = _forms(get_family(family))
    if f is None:
        raise ValueError(f"family={family!r} has no closed form (known: {', '.join(FORMULAS)})")
    return f


#: family -> (n, m, degree list) as sympy expressions (ER_q is loop-free), for every family that declares forms.
FORMULAS: dict[str, tuple[sp.Expr, sp.Expr, list[sp.Expr]]] = {
    name: (f.n, f.m, [deg for deg, _ in f.degrees])
    for name, f in ((name, _forms(fam)) for name, fam in NETWORK_FAMILIES.items()) if f is not None}


def counts(family: str, **params: int) -> dict[str, Any]:
    """Evaluate the closed forms of ``family`` at ``params`` (``delta`` is derived from ``q`` for MMS).

    Parameters
    ----------
    family : a key of :data:`FORMULAS`.
    params : the family's parameters (``q``, ``paley_q``, ``d``, ``n``, and any other a family declares).

    Returns
    -------
    ``{"n": int, "m": int, "degrees": sorted list of distinct degrees}`` (a degree whose declared count is 0 at
    these parameters is left out).

    >>> counts("fat-tree", k=4, n=2), counts("dragonfly", a=4, p=2, h=2)["m"]
    ({'n': 8, 'm': 16, 'degrees': [4]}, 90)
    """
    if family not in FORMULAS:
        raise ValueError(f"family={family!r} has no closed form (known: {', '.join(FORMULAS)})")
    forms = closed_forms(family)
    subs = {SYMBOLS[key]: val for key, val in params.items() if key in SYMBOLS}
    subs.update({sym: fn(params) for sym, fn in forms.derived.items()})
    exprs = [sp.sympify(e) for e in (forms.n, forms.m, *(x for deg in forms.degrees for x in deg if x is not None))]
    # a parameter without a symbol in SYMBOLS (a, h, k, r of the standard networks) is the plain symbol of its name
    subs.update({s: params[s.name] for e in exprs for s in e.free_symbols if s not in subs and s.name in params})
    present = [deg for deg, cnt in forms.degrees if cnt is None or sp.sympify(cnt).subs(subs) != 0]
    vals = [sp.sympify(e).subs(subs) for e in (forms.n, forms.m, *present)]
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
