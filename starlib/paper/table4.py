"""Table IV of the paper (EDSTs in Slim Fly, Bundlefly and PolarStar): closed forms, proofs, and built instances.

:data:`TABLE_IV` holds the twelve rows of Table IV (docs/star-products.md §11) with the degree, the upper bound
of eq. (1) and the number of trees constructed as formula strings in ``q``, ``q'`` (Paley) and ``d'`` (Inductive-Quad).

* :func:`prove_row` checks a row for *all* its parameters: it writes the parameters as ``q = a k + c``,
  ``q' = 4 j + 1``, ``d' = 4 i + c'`` and verifies with sympy that the bound ``B`` is integer-valued and that
  ``R = m - B(n-1)`` satisfies ``0 <= R <= n - 2`` (so ``B = floor(m/(n-1))``, with ``n`` and ``m`` the closed
  forms of :data:`starlib.paper.formulas.FORMULAS`), and it computes ``bound - constructed`` symbolically.
* :func:`instance_row` builds one network, measures its degree and bound, runs the construction Table I
  prescribes (:func:`starlib.edst.auto_trees`), verifies the trees and compares everything with the row's
  formulas.
* :func:`maybe_row` computes the true maximum of a PolarStar ``ER_q * IQ(d')`` (``q`` odd, ``d' = 3 mod 4``,
  the paper's "Maybe" row) with the exact matroid packing.

Example
-------
>>> row = row_for("polarstar-iq", {"q": 3, "d": 3})
>>> row.case, row.max_word, evaluate(row.bound, {"q": 3, "d": 3}), evaluate(row.constructed, {"q": 3, "d": 3})
("q odd, d' = 3 mod 4", 'Maybe', 3, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import sympy

from .. import networks
from ..bounds import eq1_bound, prop_iv1
from ..edst import auto_trees, generic_packing, maximum_trees, universal_trees, verify_edsts
from ..factors import mms_delta
from ..graphs import ArrayGraph
from ..primes import is_prime_power
from . import formulas
from .catalog import format_params, parse_params_text
from .formulas import evaluate_formula, parse_formula

__all__ = ["Table4Row", "TABLE_IV", "INSTANCE_COLUMNS", "parse", "evaluate", "row_for", "prove_row",
           "closed_form_frame", "instance_grid", "degree_string", "instance_row", "instances_frame",
           "table_iv_frame", "maybe_row", "maybe_frame", "PROP_IV1_FORMS", "prop_iv1_form", "nested_counts",
           "parse_params"]

_Q, _QP, _D = formulas.SYMBOLS["q"], formulas.SYMBOLS["paley_q"], formulas.SYMBOLS["d"]
_PARAM_SYMBOL = {"q": _Q, "paley_q": _QP, "d": _D}

#: The columns of ``paper_tables/table4_instances.csv``, in order.
INSTANCE_COLUMNS = ("network", "parameters", "vertices", "edges", "degree", "upper_bound", "theorem",
                    "constructed", "maximum", "verified")


def parse(text: str) -> sympy.Expr:
    """A Table IV formula (in ``q``, ``q'``, ``d'``) as a sympy expression in the symbols of
    :data:`starlib.paper.formulas.SYMBOLS`.

    Raises
    ------
    ValueError
        If the text uses another name.

    Example
    -------
    >>> parse("(3*q - 1)/2 + (q' - 1)/2")
    3*q/2 + q'/2 - 1
    """
    return parse_formula(text.replace("q'", "qp").replace("d'", "dp"), {"q": _Q, "qp": _QP, "dp": _D},
                         rule="Table IV formulas use q, q', d'")


def evaluate(text: str, params: dict[str, int]) -> int:
    """Evaluate a Table IV formula at a network's parameters (keys ``q``, ``paley_q``, ``d``).

    Raises
    ------
    ValueError
        If the value is not an integer or a parameter is missing.

    Example
    -------
    >>> evaluate("(q + d')/2 - 1", {"q": 3, "d": 7})
    4
    """
    given = {_PARAM_SYMBOL[k]: v for k, v in params.items() if k in _PARAM_SYMBOL}
    return evaluate_formula(text, parse(text), given, f"params={params}")


@dataclass(frozen=True)
class Table4Row:
    """One row of Table IV.

    Attributes
    ----------
    network : the network as the paper names it.
    family : the :mod:`starlib.paper.catalog` family that builds it.
    case : the parameter case, in words.
    applies : ``params -> bool``, whether a parameter choice falls in this case.
    degree : the degree formula, or ``None`` when the network is not regular.
    degrees : the formulas of the smallest and the largest degree.
    bound : upper bound of eq. (1).
    theorem : the result that builds the trees.
    constructed : number of trees built.
    max_word : the paper's ``Max?`` entry.
    substitution : the parametrisation of the case used by :func:`prove_row` (symbol -> (a, c, k_min):
        ``symbol = a k + c`` for integers ``k >= k_min``).
    """

    network: str
    family: str
    case: str
    applies: Callable[[dict[str, int]], bool]
    degree: str | None
    degrees: tuple[str, str]
    bound: str
    theorem: str
    constructed: str
    max_word: str
    substitution: tuple[tuple[str, int, int, int], ...]


def _mms_rows(network: str, family: str, extra: str, sub_extra: tuple) -> list[Table4Row]:
    e = f" + {extra}" if extra else ""
    tail = f" + {extra.replace('/2', '/4')}" if extra else ""
    spec = [(1, "delta = 1 (q = 1 mod 4)", "(3*q - 1)/2", "3*(q - 1)/4", "V-C.10", "(q - 1)/2 + (q - 1)/4", (4, 1, 1)),
            (0, "delta = 0 (q = 0 mod 4)", "3*q/2", "3*q/4", "V-C.3", "q/2 + q/4", (4, 0, 1)),
            (-1, "delta = -1 (q = 3 mod 4)", "(3*q + 1)/2", "(3*q - 1)/4", "V-C.10", "(q - 1)/2 + (q + 1)/4",
             (4, -1, 1))]
    rows = []
    for delta, case, deg, bound, thm, built, (a, c, kmin) in spec:
        degree = deg + e
        rows.append(Table4Row(network, family, case, (lambda p, delta=delta: mms_delta(p["q"]) == delta),
                              degree, (degree, degree), bound + tail, thm, built + tail, "Yes",
                              (("q", a, c, kmin),) + sub_extra))
    return rows


_QP_SUB = ("paley_q", 4, 1, 1)


def _ps_rows() -> list[Table4Row]:
    rows = []
    for even in (True, False):
        case = "q even" if even else "q odd"
        qsub = ("q", 2, 0, 1) if even else ("q", 2, 1, 1)
        bound = "q/2 + (q' - 1)/4" if even else "(q - 1)/2 + (q' - 1)/4"
        built = "q/2 + (q' - 1)/4" if even else "(q + 1)/2 + (q' - 1)/4 - 1"
        rows.append(Table4Row("PolarStar ER_q * QR(q')", "polarstar-paley", case,
                              (lambda p, even=even: (p["q"] % 2 == 0) == even), None,
                              ("q + (q' - 1)/2", "q + 1 + (q' - 1)/2"), bound, "V-C.10" if even else "V-C.11",
                              built, "Yes", (qsub, _QP_SUB)))
    spec = [(True, 0, "(q + d')/2", "V-C.10", "q/2 + d'/2", "Yes"),
            (True, 3, "(q + d' - 1)/2", "V-C.10", "q/2 + (d' - 1)/2", "Yes"),
            (False, 0, "(q + d' - 1)/2", "V-C.11", "(q + 1)/2 + d'/2 - 1", "Yes"),
            (False, 3, "(q + d')/2", "V-C.11", "(q + d')/2 - 1", "Maybe")]
    for even, res, bound, thm, built, word in spec:
        case = f"q {'even' if even else 'odd'}, d' = {res} mod 4"
        qsub = ("q", 2, 0, 1) if even else ("q", 2, 1, 1)
        dsub = ("d", 4, 0, 1) if res == 0 else ("d", 4, 3, 0)
        rows.append(Table4Row("PolarStar ER_q * IQ(d')", "polarstar-iq", case,
                              (lambda p, even=even, res=res: (p["q"] % 2 == 0) == even and p["d"] % 4 == res),
                              None, ("q + d'", "q + 1 + d'"), bound, thm, built, word, (qsub, dsub)))
    return rows


TABLE_IV: tuple[Table4Row, ...] = tuple(
    _mms_rows("Slim Fly MMS(q) = K_{q,q} * C(X)", "slimfly", "", ())
    + _mms_rows("Bundlefly MMS(q) * QR(q')", "bundlefly", "(q' - 1)/2", (_QP_SUB,))
    + _ps_rows())
"""The twelve rows of Table IV (docs/star-products.md §11), in the paper's order."""


def row_for(family: str, params: dict[str, int]) -> Table4Row:
    """The row of :data:`TABLE_IV` a network falls in.

    Raises
    ------
    ValueError
        If the family is not in Table IV or no row's case matches.

    Example
    -------
    >>> row_for("slimfly", {"q": 8}).theorem
    'V-C.3'
    """
    cand = [r for r in TABLE_IV if r.family == family]
    if not cand:
        raise ValueError(f"family={family!r} is not in Table IV (slimfly, bundlefly, polarstar-paley, polarstar-iq)")
    for r in cand:
        if r.applies(params):
            return r
    raise ValueError(f"params={params}: no case of {family} matches")


def _integer_valued(expr: sympy.Expr, gens: list[sympy.Symbol]) -> bool:
    """A polynomial is integer-valued on Z^k iff it is an integer on the grid {0..D}^k (Newton basis)."""
    if not gens:
        return bool(sympy.sympify(expr).is_integer)
    p = sympy.Poly(sympy.expand(expr), *gens)
    D = max(p.degree(g) for g in gens)
    return all(p.eval(dict(zip(gens, pt, strict=True))).is_integer
               for pt in itertools.product(range(D + 1), repeat=len(gens)))


def _nonnegative(expr: sympy.Expr, gens: list[sympy.Symbol]) -> bool:
    """Sufficient test of ``expr >= 0`` for all non-negative integer ``gens``: every coefficient is >= 0."""
    e = sympy.expand(expr)
    if not gens:
        return bool(e >= 0)
    return all(c >= 0 for c in sympy.Poly(e, *gens).coeffs())


def prove_row(row: Table4Row) -> dict[str, Any]:
    """Check a Table IV row for every parameter choice of its case, symbolically.

    With ``n, m`` the closed forms of the network (:data:`starlib.paper.formulas.FORMULAS`, ``delta`` fixed by the
    case) and the parameters written as ``a k + c`` (``k >= k_min``, shifted to ``k = k_min + j``, ``j >= 0``):

    * ``integral``: the bound and the constructed count are integer-valued;
    * ``floor``: ``R = m - bound (n-1)`` and ``n - 2 - R`` are polynomials in the ``j`` with non-negative
      coefficients, so ``0 <= R <= n - 2`` and the bound is ``floor(m/(n-1))`` (sufficient test);
    * ``degree``: for regular rows, ``2m = n * degree``;
    * ``gap``: ``bound - constructed`` simplified (0 for the ``Yes`` rows).

    Returns
    -------
    dict with keys ``integral, floor, degree, gap`` (``gap`` a sympy expression).

    Example
    -------
    >>> p = prove_row(TABLE_IV[-1])        # PolarStar, q odd, d' = 3 mod 4
    >>> p["integral"], p["floor"], p["gap"]
    (True, True, 1)

    References
    ----------
    Eq. (1), Proposition IV-.1, Corollary IV-.2 and Appendix B-C of Isham et al. (2025).
    """
    n_expr, m_expr, _ = formulas.FORMULAS[row.family]
    subs: dict[sympy.Symbol, sympy.Expr] = {}
    gens = []
    for name, a, c, kmin in row.substitution:
        j = sympy.Symbol(f"j_{name}", integer=True, nonnegative=True)
        gens.append(j)
        subs[_PARAM_SYMBOL[name]] = a * (j + kmin) + c
    if row.family in ("slimfly", "bundlefly"):
        delta = {"delta = 1": 1, "delta = 0": 0, "delta = -1": -1}[row.case.split(" (")[0]]
        subs[formulas.SYMBOLS["delta"]] = delta
    n = sympy.expand(sympy.sympify(n_expr).subs(subs))
    m = sympy.expand(sympy.sympify(m_expr).subs(subs))
    bound = sympy.expand(parse(row.bound).subs(subs))
    built = sympy.expand(parse(row.constructed).subs(subs))
    R = sympy.expand(m - bound * (n - 1))
    degree_ok = True
    if row.degree is not None:
        degree_ok = sympy.expand(2 * m - n * parse(row.degree).subs(subs)) == 0
    return {"integral": _integer_valued(bound, gens) and _integer_valued(built, gens),
            "floor": _nonnegative(R, gens) and _nonnegative(n - 2 - R, gens),
            "degree": bool(degree_ok),
            "gap": sympy.simplify(parse(row.bound) - parse(row.constructed))}


def closed_form_frame() -> pd.DataFrame:
    """Table IV with formula strings and the outcome of :func:`prove_row` for every row.

    Example
    -------
    >>> df = closed_form_frame()
    >>> len(df), bool(df["bound proved"].all())
    (12, True)
    """
    recs = []
    for r in TABLE_IV:
        p = prove_row(r)
        degree = r.degree if r.degree is not None else f"not regular ({r.degrees[0]} to {r.degrees[1]})"
        recs.append({"Network": r.network, "Parameters": r.case, "Degree": degree, "Upper bound": r.bound,
                     "Thm.": r.theorem, "# EDSTs constructed": r.constructed, "Max?": r.max_word,
                     "bound proved": bool(p["integral"] and p["floor"] and p["degree"]),
                     "bound - constructed": str(p["gap"])})
    return pd.DataFrame(recs)


def _prime_powers(lo: int, hi: int, residues: tuple[int, ...] | None = None) -> list[int]:
    return [x for x in range(lo, hi + 1) if is_prime_power(x) and (residues is None or x % 4 in residues)]


def instance_grid(q_max: int = 32, bundlefly_q_max: int = 9, polarstar_q_max: int = 16, paley_q_max: int = 17,
                  iq_d_max: int = 12) -> list[tuple[str, dict[str, int]]]:
    """(family, params) pairs covering every row of Table IV.

    Slim Fly: every prime power ``3 <= q <= q_max``, ``q != 2 mod 4``; Bundlefly: such ``q <= bundlefly_q_max``
    with every Paley ``q' <= paley_q_max``; PolarStar: every prime power ``q <= polarstar_q_max`` with every
    Paley ``q' <= paley_q_max`` and every IQ degree ``3 <= d' <= iq_d_max``, ``d' = 0 or 3 mod 4``. The defaults
    give 141 networks (17 Slim Flies ``q <= 32``, 24 Bundleflies ``q <= 9``, ``q' <= 17``, 100 PolarStars
    ``q <= 16``, ``q' <= 17``, ``d' <= 12``, the largest ``ER_16 * IQ(12)`` with 7098 vertices); building them,
    constructing and verifying their EDSTs takes about 10 s.

    Example
    -------
    >>> len(instance_grid(5, 4, 3, 5, 4))   # MMS 3,4,5; Bundlefly 3,4 x 5; ER 2,3 x (QR 5; IQ 3,4)
    11
    """
    mms = _prime_powers(3, q_max, (0, 1, 3))
    paley = _prime_powers(5, paley_q_max, (1,))
    iq = [d for d in range(3, iq_d_max + 1) if d % 4 in (0, 3)]
    er = _prime_powers(2, polarstar_q_max)
    grid: list[tuple[str, dict[str, int]]] = [("slimfly", {"q": q}) for q in mms]
    grid += [("bundlefly", {"q": q, "paley_q": p}) for q in mms if q <= bundlefly_q_max for p in paley]
    grid += [("polarstar-paley", {"q": q, "paley_q": p}) for q in er for p in paley]
    grid += [("polarstar-iq", {"q": q, "d": d}) for q in er for d in iq]
    return grid


def _build(family: str, params: dict[str, int]) -> Any:
    if family == "slimfly":
        return networks.slimfly(params["q"])
    if family == "bundlefly":
        return networks.bundlefly(params["q"], params["paley_q"])
    if family == "polarstar-paley":
        return networks.polarstar(params["q"], supernode="paley", paley_q=params["paley_q"])
    if family == "polarstar-iq":
        return networks.polarstar(params["q"], supernode="iq", d=params["d"])
    raise ValueError(f"family={family!r} is not in Table IV (slimfly, bundlefly, polarstar-paley, polarstar-iq)")


def degree_string(graph: ArrayGraph) -> str:
    """The degree of a regular graph (``"7"``), else the range of degrees (``"6-7"``).

    Example
    -------
    >>> from starlib.networks import polarstar
    >>> degree_string(polarstar(3, supernode="iq", d=3))
    '6-7'
    """
    ds = graph.degree_set()
    return str(ds[0]) if len(ds) == 1 else f"{ds[0]}-{ds[-1]}"


def instance_row(family: str, params: dict[str, int]) -> dict[str, Any]:
    """Build one network of Table IV, construct and verify its EDSTs, and compare with the row's formulas.

    Returns
    -------
    dict
        The :data:`INSTANCE_COLUMNS` (``upper_bound`` is eq. (1), ``maximum`` is ``constructed == upper_bound``,
        ``verified`` the verifier's verdict) plus ``case``, ``prop_iv1`` (the bound by Proposition IV-.1),
        ``formula_degree``, ``formula_upper_bound``, ``formula_theorem``, ``formula_constructed``, ``depth`` (the
        deepest tree) and ``agree`` (every measured value equals its formula and the trees verify).

    Example
    -------
    >>> r = instance_row("slimfly", {"q": 5})
    >>> r["degree"], r["upper_bound"], r["theorem"], r["constructed"], r["maximum"], r["agree"]
    ('7', 3, 'V-C.10', 3, True, True)
    """
    row = row_for(family, params)
    P = _build(family, params)
    n, m = int(P.n), int(P.m)
    bound = eq1_bound(n, m)
    trees = auto_trees(P)
    verified = bool(verify_edsts(P, trees, allow_empty=True).valid)
    degree = degree_string(P)
    lo, hi = (evaluate(d, params) for d in row.degrees)
    f_degree = str(lo) if lo == hi else f"{lo}-{hi}"
    f_bound, f_built = evaluate(row.bound, params), evaluate(row.constructed, params)
    iv1 = prop_iv1(n, m)[2]
    agree = (verified and degree == f_degree and bound == f_bound == iv1 and len(trees) == f_built
             and trees.theorem == row.theorem)
    return {"network": family, "parameters": format_params(params), "vertices": n, "edges": m, "degree": degree,
            "upper_bound": bound, "theorem": trees.theorem, "constructed": len(trees),
            "maximum": len(trees) == bound, "verified": verified, "case": row.case, "prop_iv1": iv1,
            "formula_degree": f_degree, "formula_upper_bound": f_bound, "formula_theorem": row.theorem,
            "formula_constructed": f_built, "depth": max(trees.depths()), "agree": bool(agree)}


def instances_frame(grid: Iterable[tuple[str, dict[str, int]]]) -> pd.DataFrame:
    """:func:`instance_row` over a grid, in grid order.

    Example
    -------
    >>> df = instances_frame([("slimfly", {"q": 3}), ("polarstar-iq", {"q": 3, "d": 3})])
    >>> df[["parameters", "constructed", "upper_bound", "maximum"]].values.tolist()
    [['q=3', 2, 2, True], ['q=3 d=3', 2, 3, False]]
    """
    return pd.DataFrame([instance_row(f, p) for f, p in grid])


def maybe_row(q: int, d: int) -> dict[str, Any]:
    """The true maximum number of EDSTs of PolarStar ``ER_q * IQ(d')`` beside the construction's count.

    Parameters
    ----------
    q : int
        Odd prime power (the paper's "Maybe" row has ``q`` odd).
    d : int
        IQ degree ``d' = 3 mod 4``.

    Returns
    -------
    dict
        ``network, parameters, vertices, edges, upper_bound, theorem, constructed, exact_maximum,
        certificate, verified, construction_is_maximum``. ``exact_maximum`` comes from the matroid packing
        :func:`~starlib.edst.packing.generic_packing` (its trees are verified; ``certificate`` says which bound
        certifies it: ``edges`` for eq. (1)).

    Raises
    ------
    ValueError
        If ``(q, d)`` is not in the "Maybe" case.

    Example
    -------
    >>> r = maybe_row(3, 3)
    >>> r["upper_bound"], r["constructed"], r["exact_maximum"], r["construction_is_maximum"]
    (3, 2, 3, False)

    References
    ----------
    Table IV (last row) of Isham et al. (2025); Edmonds (1965), Roskind and Tarjan (1985).
    """
    params = {"q": q, "d": d}
    if not (isinstance(q, int) and isinstance(d, int)) or q % 2 == 0 or d % 4 != 3:
        raise ValueError(f"q={q}, d={d}: the 'Maybe' row of Table IV needs q odd and d' = 3 mod 4")
    P = _build("polarstar-iq", params)
    trees = auto_trees(P)
    pk = generic_packing(P)
    verified = bool(verify_edsts(P, trees, allow_empty=True).valid
                    and verify_edsts(P, pk.trees, allow_empty=True).valid)
    return {"network": "polarstar-iq", "parameters": format_params(params), "vertices": int(P.n),
            "edges": int(P.m), "upper_bound": eq1_bound(int(P.n), int(P.m)), "theorem": trees.theorem,
            "constructed": len(trees), "exact_maximum": int(pk.count), "certificate": pk.bound_kind,
            "verified": verified, "construction_is_maximum": len(trees) == int(pk.count)}


def maybe_frame(pairs: Iterable[tuple[int, int]]) -> pd.DataFrame:
    """:func:`maybe_row` for every ``(q, d')``."""
    return pd.DataFrame([maybe_row(int(q), int(d)) for q, d in pairs])


def table_iv_frame(instances: pd.DataFrame, maybe: pd.DataFrame | None = None) -> pd.DataFrame:
    """:func:`closed_form_frame` with, per row, the instances checked and what they show.

    Parameters
    ----------
    instances : DataFrame
        The output of :func:`instances_frame`.
    maybe : DataFrame, optional
        The output of :func:`maybe_frame`.

    Returns
    -------
    DataFrame
        The closed-form columns plus ``instances``, ``all agree`` (formulas, theorem, verifier) and
        ``Max? (computed)``: ``yes`` when every instance reaches its bound; for rows where the construction
        stays below the bound, how many of the exactly packed instances reach the bound all the same (exact
        packing is costly, so it may cover only some of the row's instances; the text says how many).

    Example
    -------
    >>> g = [("polarstar-iq", {"q": 3, "d": 3})]
    >>> t = table_iv_frame(instances_frame(g), maybe_frame([(3, 3)]))
    >>> int(t.iloc[-1]["instances"]), t.iloc[-1]["Max? (computed)"]
    (1, 'no: bound attained by exact packing in 1 of 1 packed (of 1 instances), construction 1 short')
    """
    out = closed_form_frame()
    counts, agree, word = [], [], []
    for r in TABLE_IV:
        sub = instances[(instances["network"] == r.family) & (instances["case"] == r.case)]
        counts.append(int(len(sub)))
        agree.append(bool(len(sub) and sub["agree"].all()))
        if len(sub) and sub["maximum"].all():
            word.append("yes")
        elif len(sub) == 0:
            word.append("--")
        else:
            gap = int((sub["upper_bound"] - sub["constructed"]).max())
            ex = None
            if maybe is not None and len(maybe):
                ex = maybe[[net == r.family and row_for(net, parse_params(p)) is r
                            for net, p in zip(maybe["network"], maybe["parameters"], strict=True)]]
            if ex is not None and len(ex):
                hit = int((ex["exact_maximum"] == ex["upper_bound"]).sum())
                word.append(f"no: bound attained by exact packing in {hit} of {len(ex)} packed (of {len(sub)} "
                            f"instances), construction {gap} short")
            else:
                word.append(f"no: construction up to {gap} short")
    out["instances"] = counts
    out["all agree"] = agree
    out["Max? (computed)"] = word
    return out


#: Appendix B-C3 (docs/star-products.md §11): PolarStar has ``m = a n + b``; the closed forms of ``a`` and ``b``
#: per parity case.
PROP_IV1_FORMS: dict[tuple[str, str], tuple[str, str]] = {
    ("polarstar-paley", "q even"): ("q/2 + (q' - 1)/4", "q'*q**2/2"),
    ("polarstar-paley", "q odd"): ("(q - 1)/2 + (q' - 1)/4", "q'*(2*q**2 + q + 1)/2"),
    ("polarstar-iq", "q + d' even"): ("(q + d')/2", "(d' + 1)*q**2"),
    ("polarstar-iq", "q + d' odd"): ("(q + d' - 1)/2", "(d' + 1)*(2*q**2 + q + 1)"),
}


def prop_iv1_form(family: str, params: dict[str, int]) -> tuple[str, int, int]:
    """The case and the values of ``a`` and ``b`` (``m = a n + b``) of a PolarStar from :data:`PROP_IV1_FORMS`.

    Raises
    ------
    ValueError
        If the family is not a PolarStar.

    Example
    -------
    >>> prop_iv1_form("polarstar-iq", {"q": 3, "d": 3})     # n = 104, m = 348 = 3 n + 36
    ("q + d' even", 3, 36)
    """
    if family == "polarstar-paley":
        case = "q even" if params["q"] % 2 == 0 else "q odd"
    elif family == "polarstar-iq":
        case = "q + d' even" if (params["q"] + params["d"]) % 2 == 0 else "q + d' odd"
    else:
        raise ValueError(f"family={family!r}: Proposition IV-.1 forms are given for polarstar-paley and polarstar-iq")
    a, b = PROP_IV1_FORMS[(family, case)]
    return case, evaluate(a, params), evaluate(b, params)


def nested_counts(q: int, paley_q: int) -> dict[str, Any]:
    """Bundlefly ``MMS(q) * QR(q')``: trees of the Maximum construction applied at both levels against the
    Universal construction applied at both levels (the example of the paper's Discussion, Section VI).

    The structure graph MMS(q) (Hafner's form in :func:`~starlib.networks.bundlefly`) is the star product
    ``K_{q,q} * C(X)`` relabelled (:func:`~starlib.networks.slimfly_hafner` carries that form); its EDSTs are
    built by the same construction (Maximum, resp. Universal) and then used as ``T_G`` for the Bundlefly
    construction.

    Returns
    -------
    dict
        ``parameters, maximum_of_maximum, universal_of_universal, difference, verified``.

    Raises
    ------
    ValueError
        If the Universal construction builds no tree of MMS(q) (``q = 3``), or a parameter is invalid.

    Example
    -------
    >>> r = nested_counts(4, 5)
    >>> r["maximum_of_maximum"], r["universal_of_universal"], r["verified"]
    (4, 0, True)

    References
    ----------
    Section VI (Discussion) and Theorems V-B.1, V-C.3, Corollary V-C.10 of Isham et al. (2025).
    """
    P = networks.bundlefly(q, paley_q)
    mms = P.structure  # MMS(q) in Hafner's labelling, which carries its form K_{q,q} * C(X)
    g_max = maximum_trees(mms)
    g_uni = universal_trees(mms)
    if len(g_uni) == 0:
        raise ValueError(f"q={q}: the Universal construction builds no tree of MMS({q}); need q >= 4")
    ok = verify_edsts(mms, g_max, allow_empty=True).valid and verify_edsts(mms, g_uni, allow_empty=True).valid
    top_max = auto_trees(P, g_trees=g_max)
    top_uni = universal_trees(P, g_trees=g_uni)
    ok = ok and verify_edsts(P, top_max, allow_empty=True).valid and verify_edsts(P, top_uni, allow_empty=True).valid
    return {"parameters": format_params({"q": q, "paley_q": paley_q}), "maximum_of_maximum": len(top_max),
            "universal_of_universal": len(top_uni), "difference": len(top_max) - len(top_uni),
            "verified": bool(ok)}


def parse_params(text: str) -> dict[str, int]:
    """Inverse of :func:`~starlib.paper.catalog.format_params` for integer parameters.

    Example
    -------
    >>> parse_params("q=3 d=7")
    {'q': 3, 'd': 7}
    """
    return {k: int(v) for k, v in parse_params_text(text).items()}
