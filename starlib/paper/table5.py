"""Table V and Appendix B: closed forms of the factor graphs, proved symbolically and measured on built graphs.

For every factor-graph family of the paper (Paley QR(q'), the MMS supernodes C(X) and C(X'), K_{q,q}, MMS(q),
K_n, the "bdf" supernode, IQ(d'), ER_q) and every parity / ``delta`` case of Table V, a :class:`FactorCase`
holds sympy closed forms of ``n``, ``m``, the degrees (with how many vertices have each), the spanning-tree
size ``n - 1``, ``t = floor(m/(n-1))`` and ``r = m - t(n-1)`` (docs/star-products.md §2, §10).

Two independent checks back every row:

* :func:`prove_case` proves the ``t`` and ``r`` columns for *all* parameters of the case: writing the
  parameter as ``a k + c`` (``k >= k_min``), it checks ``m = t(n-1) + r`` identically, that ``n, m, t, r``
  take integer values, and that ``0 <= r <= n - 2`` (a polynomial in ``k`` whose coefficients after the shift
  ``k = k_min + j`` are all non-negative is non-negative for every ``j >= 0``); together these force
  ``t = floor(m/(n-1))``. The handshake identity ``sum(degree * count) = 2m`` checks the degree column.
* :func:`measure_factor` builds the graph with :mod:`starlib.factors` / :mod:`starlib.networks`, counts
  ``n``, ``m`` and the degrees, and computes the true maximum number of EDSTs with the exact packing
  :func:`starlib.edst.generic_packing` (trees checked by :func:`starlib.edst.verify_edsts`), so ``t`` is shown to be
  attained, not only an upper bound.

Example
-------
>>> case = case_for("polarfly", 7)
>>> case.case, evaluate(case, 7)["t"], evaluate(case, 7)["r"]
('q odd', 4, 0)
>>> prove_case(case).holds
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import sympy as sp

from ..edst import generic_packing, verify_edsts
from ..graphs import ArrayGraph
from ..registry import get_family
from ..validation import check_int
from . import formulas
from .formulas import closed_forms

__all__ = ["FAMILIES", "TableVFamily", "FactorCase", "CaseProof", "table_v_cases", "case_for", "evaluate", "piecewise",
           "prove_case",
           "nonnegative_certificate", "integer_valued", "expr_str", "closed_form_table", "build_factor",
           "measure_factor", "factor_grid", "measured_table"]

q, qp, n_, d, k = sp.symbols("q q' n d' k", integer=True, positive=True)
_j = sp.Symbol("j", integer=True, nonnegative=True)


@dataclass(frozen=True)
class TableVFamily:
    """A Table V family: its declaration (:data:`starlib.registry.NETWORK_FAMILIES`, ``name``), seen as Table V sees
    it: the paper's symbol for its parameter, its notation and section, and the parameter rule in Table V's words
    (the declared rule, from the smallest member of Table V's cases)."""

    name: str

    @property
    def param(self) -> str:
        """The family's parameter (every Table V family has one)."""
        return next(iter(get_family(self.name).params))

    @property
    def symbol(self) -> sp.Symbol:
        """The paper's symbol for the parameter (``q'`` for the Paley order)."""
        p = get_family(self.name).params[self.param]
        return sp.Symbol(p.symbol or p.name, integer=True, positive=True)

    @property
    def graph(self) -> str:
        """The paper's notation (``"QR(q')"``)."""
        return get_family(self.name).symbol

    @property
    def source(self) -> str:
        """The appendix section that defines it."""
        return get_family(self.name).reference

    @property
    def rule(self) -> str:
        """The parameter rule in Table V's words (``"a prime power q' = 1 mod 4"``)."""
        smallest = min(c.first for c in _CASES if c.family == self.name)
        return get_family(self.name).params[self.param].rule.text(str(self.symbol), minimum=smallest, prose=True)

    def build(self, value: int) -> ArrayGraph:
        """The member with parameter ``value``."""
        return get_family(self.name).build(**{self.param: value})

    def admissible(self, value: int) -> bool:
        """True if ``value`` passes the family's parameter rule (checked without building) and lies in a case of
        Table V."""
        return get_family(self.name).admits(**{self.param: value}) and any(
            c.family == self.name and c.contains(value) for c in _CASES)


@dataclass(frozen=True)
class FactorCase:
    """One row of Table V: a factor family restricted to one parity / ``delta`` case.

    Attributes
    ----------
    family : key of :data:`FAMILIES` (``"paley"``, ``"polarfly"``, ...).
    case : the case in words (``"q even"``, ``"delta = -1"``).
    param : the family parameter as an affine function ``a k + c`` of ``k`` (``q' = 4k + 1``).
    k_min : smallest ``k`` of the case (the family's smallest member).
    n, m : vertex and edge counts (sympy, in the family symbol).
    degrees : ``((degree, number of vertices), ...)``.
    t, r : ``floor(m/(n-1))`` and ``m - t(n-1)`` as the paper's closed forms.

    ``n``, ``m`` and ``degrees`` are the family's declared closed forms (:func:`starlib.paper.formulas.closed_forms`)
    in Table V's symbol, with ``delta`` fixed by the case; ``t`` and ``r`` are Table V's own.
    """

    family: str
    case: str
    param: sp.Expr
    k_min: int
    n: sp.Expr
    m: sp.Expr
    degrees: tuple[tuple[sp.Expr, sp.Expr], ...]
    t: sp.Expr
    r: sp.Expr

    @property
    def first(self) -> int:
        """The smallest parameter of the case, ``param(k_min)``."""
        return int(self.param.subs(k, self.k_min))

    @property
    def symbol(self) -> sp.Symbol:
        """The family's parameter symbol."""
        return FAMILIES[self.family].symbol

    @property
    def graph(self) -> str:
        """Display name of the family (``"QR(q')"``)."""
        return FAMILIES[self.family].graph

    def contains(self, value: int) -> bool:
        """True if ``value`` is ``param(k)`` for an integer ``k >= k_min``."""
        a, c = (int(x) for x in sp.Poly(self.param, k).all_coeffs())
        return (value - c) % a == 0 and (value - c) // a >= self.k_min

    def in_k(self, expr: sp.Expr) -> sp.Expr:
        """``expr`` with the family symbol replaced by ``param`` (a polynomial in ``k``)."""
        return sp.expand(sp.sympify(expr).subs(self.symbol, self.param))


def _case(family: str, case: str, param: sp.Expr, k_min: int, t: sp.Expr, r: sp.Expr,
          delta: int | None = None) -> FactorCase:
    """A Table V row: the family's declared closed forms in Table V's symbol (``delta`` fixed), and ``t``, ``r``."""
    forms = closed_forms(family)
    fam = TableVFamily(family)
    subs = {formulas.SYMBOLS[fam.param]: fam.symbol}
    if delta is not None:
        subs[formulas.SYMBOLS["delta"]] = delta

    def at(e: sp.Expr) -> sp.Expr:
        return sp.sympify(e).subs(subs, simultaneous=True)

    return FactorCase(family, case, param, k_min, at(forms.n), at(forms.m),
                      tuple((at(a), at(b)) for a, b in forms.degrees), t, r)


def _cases() -> tuple[FactorCase, ...]:
    out: list[FactorCase] = []
    # QR(q'), q' = 4k + 1
    out.append(_case("paley", "q' = 1 mod 4", 4 * k + 1, 1, (qp - 1) / 4, (qp - 1) / 4))
    # C(X), C(X'): q = 4k + delta
    for fam in ("mms-supernode", "mms-supernode-prime"):
        for delta in (1, 0, -1):
            out.append(_case(fam, f"delta = {delta}", 4 * k + delta, 1, (q - delta) / 4, (q - delta) / 4, delta))
    # K_{q,q}
    out.append(_case("complete-bipartite", "q even", 2 * k, 1, q / 2, q / 2))
    out.append(_case("complete-bipartite", "q odd", 2 * k + 1, 1, (q - 1) / 2, (3 * q - 1) / 2))
    # MMS(q) = K_{q,q} * C(X)
    mms_t = {1: 3 * (q - 1) / 4, 0: 3 * q / 4, -1: (3 * q - 1) / 4}
    mms_r = {1: (4 * q**2 + 3 * q - 3) / 4, 0: 3 * q / 4, -1: (4 * q**2 + 3 * q - 1) / 4}
    for delta in (1, 0, -1):
        out.append(_case("slimfly", f"delta = {delta}", 4 * k + delta, 1, mms_t[delta], mms_r[delta], delta))
    # K_n
    out.append(_case("complete", "n even", 2 * k, 1, n_ / 2, sp.Integer(0)))
    out.append(_case("complete", "n odd", 2 * k + 1, 1, (n_ - 1) / 2, (n_ - 1) / 2))
    # BDF and IQ: n = 2d'+2, d'-regular
    for fam in ("bdf", "inductive-quad"):
        out.append(_case(fam, "d' = 0 mod 4 (even)", 4 * k, 1, d / 2, d / 2))
        out.append(_case(fam, "d' = 3 mod 4 (odd)", 4 * k + 3, 0, (d - 1) / 2, (3 * d + 1) / 2))
    # ER_q (loop-free): q^2 vertices of degree q+1, q+1 absolute points of degree q
    out.append(_case("polarfly", "q even", 2 * k, 1, q / 2, q * (q + 1) / 2))
    out.append(_case("polarfly", "q odd", 2 * k + 1, 1, (q + 1) / 2, sp.Integer(0)))
    return tuple(out)


_CASES = _cases()

#: Table V's families, in its row order.
FAMILIES: dict[str, TableVFamily] = {name: TableVFamily(name) for name in dict.fromkeys(c.family for c in _CASES)}


def table_v_cases() -> tuple[FactorCase, ...]:
    """Every row of Table V (docs/star-products.md §10) as a :class:`FactorCase`, in the paper's order.

    Returns
    -------
    tuple of FactorCase
        20 cases: QR; C(X), C(X') and MMS(q) for ``delta = 1, 0, -1``; K_{q,q}, K_n, BDF, IQ and ER_q by
        parity.

    Example
    -------
    >>> [c.case for c in table_v_cases() if c.family == "polarfly"]
    ['q even', 'q odd']

    References
    ----------
    Table V and Appendix B-B of Isham et al. (2025); docs/star-products.md §10.
    """
    return _CASES


def case_for(family: str, value: int) -> FactorCase:
    """The Table V case containing parameter ``value`` of ``family``.

    Parameters
    ----------
    family : a key of :data:`FAMILIES`.
    value : the family parameter (``q``, ``q'``, ``n`` or ``d'``).

    Returns
    -------
    FactorCase

    Raises
    ------
    ValueError
        If ``family`` is unknown or ``value`` is not an admissible parameter of it.

    Example
    -------
    >>> case_for("slimfly", 7).case
    'delta = -1'
    """
    if family not in FAMILIES:
        raise ValueError(f"family={family!r} is not a Table V family (known: {', '.join(FAMILIES)})")
    value = check_int(value, "value")
    fam = FAMILIES[family]
    if not fam.admissible(value):
        raise ValueError(f"value={value} is not admissible for {fam.graph}: need {fam.rule}")
    for c in _CASES:
        if c.family == family and c.contains(value):
            return c
    raise ValueError(f"value={value}: no Table V case of {fam.graph} contains it")  # pragma: no cover


def evaluate(case: FactorCase, value: int) -> dict[str, Any]:
    """The closed forms of ``case`` at parameter ``value``.

    Returns
    -------
    dict
        ``n``, ``m``, ``st_edges`` (= ``n - 1``), ``t``, ``r`` (ints) and ``degrees``: sorted list of
        ``(degree, number of vertices)``.

    Raises
    ------
    ValueError
        If ``value`` is not in the case.

    Example
    -------
    >>> evaluate(case_for("paley", 13), 13)["degrees"]
    [(6, 13)]
    """
    if not case.contains(value):
        raise ValueError(f"value={value} is not in the case {case.graph}, {case.case} ({case.symbol} = {case.param})")
    s = {case.symbol: value}
    ev = {key: int(getattr(case, key).subs(s)) for key in ("n", "m", "t", "r")}
    ev["st_edges"] = ev["n"] - 1
    ev["degrees"] = sorted((int(a.subs(s)), int(b.subs(s))) for a, b in case.degrees)
    return ev


def piecewise(family: str, quantity: str) -> sp.Piecewise:
    """One closed form of ``quantity`` for all cases of ``family``, as a sympy ``Piecewise`` on residues.

    Parameters
    ----------
    family : a key of :data:`FAMILIES`.
    quantity : ``"n"``, ``"m"``, ``"t"`` or ``"r"``.

    Returns
    -------
    sympy.Piecewise
        Branch conditions ``Eq(Mod(x - c, a), 0)`` for the case ``x = a k + c``.

    Raises
    ------
    ValueError
        If ``family`` or ``quantity`` is unknown.

    Example
    -------
    >>> e = piecewise("polarfly", "t")
    >>> [int(e.subs(q, v)) for v in (2, 3, 4, 5)]
    [1, 2, 2, 3]
    """
    if family not in FAMILIES:
        raise ValueError(f"family={family!r} is not a Table V family (known: {', '.join(FAMILIES)})")
    if quantity not in ("n", "m", "t", "r"):
        raise ValueError(f"quantity={quantity!r} must be one of n, m, t, r")
    sym = FAMILIES[family].symbol
    branches = []
    for c in _CASES:
        if c.family == family:
            a, off = (int(x) for x in sp.Poly(c.param, k).all_coeffs())
            branches.append((getattr(c, quantity), sp.Eq(sp.Mod(sym - off, a), 0)))
    return sp.Piecewise(*branches)


def nonnegative_certificate(expr: sp.Expr, k_min: int, strict: bool = False) -> bool:
    """Certify ``expr(k) >= 0`` (``> 0`` if ``strict``) for all integers ``k >= k_min`` (``expr`` polynomial in k).

    After the shift ``k = k_min + j`` every coefficient of the polynomial in ``j`` must be non-negative
    (and the constant term positive when ``strict``). This is sufficient, not necessary: False means
    "not certified".

    Example
    -------
    >>> nonnegative_certificate(3 * k - 1, 1, strict=True), nonnegative_certificate(k - 2, 1)
    (True, False)
    """
    p = sp.Poly(sp.expand(sp.sympify(expr).subs(k, k_min + _j)), _j)
    coeffs = p.all_coeffs()
    if any(c < 0 for c in coeffs):
        return False
    return (not strict) or p.eval(0) > 0


def integer_valued(expr: sp.Expr) -> bool:
    """True if the polynomial ``expr(k)`` takes an integer value at every integer ``k``.

    A polynomial of degree ``D`` is integer-valued iff it is an integer at ``D + 1`` consecutive integers
    (Newton's forward-difference form), so ``k = 0..D`` decide it.

    Example
    -------
    >>> integer_valued(k * (k + 1) / 2), integer_valued(k / 2)
    (True, False)
    """
    p = sp.Poly(sp.expand(expr), k)
    if p.is_zero:
        return True
    return all(p.eval(i).is_integer for i in range(p.degree() + 1))


@dataclass(frozen=True)
class CaseProof:
    """Outcome of :func:`prove_case` (each field True when the check succeeded).

    Attributes
    ----------
    identity : ``m - t(n-1) - r`` expands to 0.
    integral : ``n, m, t, r`` and the degree counts are integer-valued polynomials in ``k``.
    r_in_range : ``0 <= r <= n - 2`` for all ``k >= k_min`` (so ``t = floor(m/(n-1))``).
    handshake : ``sum(count) = n`` and ``sum(degree * count) = 2m``.
    r_vs_t : ``"r = t"``, ``"r > t"``, ``"r < t"`` for every ``k >= k_min``, or ``"mixed"``.
    """

    identity: bool
    integral: bool
    r_in_range: bool
    handshake: bool
    r_vs_t: str

    @property
    def holds(self) -> bool:
        """True if every check passed: the closed forms of ``t`` and ``r`` are proved for the whole case."""
        return self.identity and self.integral and self.r_in_range and self.handshake


def prove_case(case: FactorCase) -> CaseProof:
    """Prove a Table V row symbolically for every parameter of its case.

    Parameters
    ----------
    case : FactorCase

    Returns
    -------
    CaseProof

    Example
    -------
    >>> p = prove_case(case_for("complete-bipartite", 5))
    >>> p.holds, p.r_vs_t
    (True, 'r > t')

    References
    ----------
    Table V and Appendix B-B of Isham et al. (2025); eq. (1).
    """
    nk, mk, tk, rk = (case.in_k(e) for e in (case.n, case.m, case.t, case.r))
    identity = sp.expand(mk - tk * (nk - 1) - rk) == 0
    pieces = [nk, mk, tk, rk] + [case.in_k(c) for _, c in case.degrees]
    integral = all(integer_valued(e) for e in pieces)
    r_in_range = nonnegative_certificate(rk, case.k_min) and nonnegative_certificate(nk - 2 - rk, case.k_min)
    handshake = (sp.expand(sum(case.in_k(c) for _, c in case.degrees) - nk) == 0
                 and sp.expand(sum(case.in_k(a * c) for a, c in case.degrees) - 2 * mk) == 0)
    diff = sp.expand(rk - tk)
    if diff == 0:
        rel = "r = t"
    elif nonnegative_certificate(diff, case.k_min, strict=True):
        rel = "r > t"
    elif nonnegative_certificate(-diff, case.k_min, strict=True):
        rel = "r < t"
    else:
        rel = "mixed"
    return CaseProof(bool(identity), bool(integral), bool(r_in_range), bool(handshake), rel)


def expr_str(expr: sp.Expr) -> str:
    """A compact plain-text form of a closed form: ``q'(q' - 1)/4``, ``q(q + 1)^2/2``.

    Example
    -------
    >>> expr_str(q * (q + 1) ** 2 / 2), expr_str(3 * q / 4), expr_str(d * (d + 1))
    ('q(q + 1)^2/2', '3q/4', "d'(d' + 1)")
    """
    e = sp.together(sp.sympify(expr))
    if sp.fraction(e)[1] == 1:
        e = sp.sympify(expr)
    return sp.sstr(e).replace("**", "^").replace("*", "")


def _degree_str(case: FactorCase) -> str:
    if len(case.degrees) == 1:
        return expr_str(case.degrees[0][0])
    return "; ".join(f"{expr_str(a)} [{expr_str(c)} vertices]" for a, c in case.degrees)


def closed_form_table() -> pd.DataFrame:
    """Table V as strings: one row per case, with the result of :func:`prove_case`.

    Returns
    -------
    DataFrame
        Columns ``graph, case, parameter, n, m, degree, st_edges, t, r, r_vs_t, proved, source``.

    Example
    -------
    >>> row = closed_form_table().iloc[0]
    >>> row["graph"], row["t"], row["r"], bool(row["proved"])
    ("QR(q')", "(q' - 1)/4", "(q' - 1)/4", True)
    """
    rows = []
    for c in _CASES:
        fam = FAMILIES[c.family]
        proof = prove_case(c)
        rows.append({"graph": fam.graph, "case": c.case,
                     "parameter": f"{fam.symbol} = {expr_str(c.param)}, k >= {c.k_min} ({fam.rule})",
                     "n": expr_str(c.n), "m": expr_str(c.m), "degree": _degree_str(c),
                     "st_edges": expr_str(c.n - 1), "t": expr_str(c.t), "r": expr_str(c.r),
                     "r_vs_t": proof.r_vs_t, "proved": proof.holds, "source": fam.source})
    return pd.DataFrame(rows)


def build_factor(family: str, value: int) -> ArrayGraph:
    """Build the factor graph ``family`` at parameter ``value`` (after the admissibility check).

    Example
    -------
    >>> build_factor("mms-supernode-prime", 7).m
    14
    """
    case_for(family, value)
    return FAMILIES[family].build(value)


def measure_factor(family: str, value: int, pack: bool = True) -> dict[str, Any]:
    """Build one factor graph, measure it, and compare with its Table V closed forms.

    Parameters
    ----------
    family : a key of :data:`FAMILIES`.
    value : the family parameter.
    pack : compute the true maximum number of EDSTs with :func:`starlib.edst.generic_packing` (the trees are
        checked with :func:`starlib.edst.verify_edsts`); if False, ``t_packed`` is ``None``.

    Returns
    -------
    dict
        Measured ``n, m, degrees`` (``"d x count"`` pairs), ``t_eq1 = floor(m/(n-1))``, ``t_packed``,
        ``r = m - t(n-1)`` (with the packed ``t`` when available), the closed forms ``cf_*``, and
        ``agree`` (every measured value equals its closed form, and the packing attains ``t``).

    Raises
    ------
    ValueError
        If ``value`` is not admissible, or the packing returns trees that fail verification.

    Example
    -------
    >>> row = measure_factor("inductive-quad", 7)
    >>> row["n"], row["m"], row["t_packed"], row["r"], row["agree"]
    (16, 56, 3, 11, True)

    References
    ----------
    Table V / Appendix B-B of Isham et al. (2025).
    """
    case = case_for(family, value)
    cf = evaluate(case, value)
    g = FAMILIES[family].build(value)
    deg, cnt = np.unique(g.degrees(), return_counts=True)
    degrees = sorted(zip(deg.tolist(), cnt.tolist(), strict=True))
    t_eq1 = g.m // (g.n - 1)
    t_packed = None
    if pack:
        p = generic_packing(g)
        rep = verify_edsts(g, [tr.edges for tr in p.trees], allow_empty=True)
        if not rep.valid:  # pragma: no cover - would be a packing bug
            raise ValueError(f"{family} {value}: the packing's trees fail verification: {rep.problems[:3]}")
        t_packed = int(p.count)
    t_used = t_eq1 if t_packed is None else t_packed
    r = g.m - t_used * (g.n - 1)
    agree = (g.n == cf["n"] and g.m == cf["m"] and degrees == cf["degrees"] and t_eq1 == cf["t"]
             and r == cf["r"] and (t_packed is None or t_packed == cf["t"]))

    def fmt(ds: list[tuple[int, int]]) -> str:
        return ", ".join(f"{a} (x{b})" for a, b in ds)

    return {"graph": case.graph, "family": family, "parameter": f"{case.symbol}={value}", "value": value,
            "case": case.case, "n": g.n, "m": g.m, "degrees": fmt(degrees), "st_edges": g.n - 1,
            "t_eq1": t_eq1, "t_packed": t_packed, "r": r,
            "cf_n": cf["n"], "cf_m": cf["m"], "cf_degrees": fmt(cf["degrees"]), "cf_t": cf["t"], "cf_r": cf["r"],
            "agree": bool(agree)}


def factor_grid(paley_max: int = 49, mms_q_max: int = 16, kqq_max: int = 12, complete_max: int = 16,
                iq_max: int = 20, er_q_max: int = 13, slimfly_q_max: int = 9) -> list[tuple[str, int]]:
    """(family, parameter) pairs: every admissible parameter of each family up to its bound.

    Example
    -------
    >>> [v for f, v in factor_grid(er_q_max=5) if f == "polarfly"]
    [2, 3, 4, 5]
    """
    bounds = {"paley": paley_max, "mms-supernode": mms_q_max, "mms-supernode-prime": mms_q_max,
              "complete-bipartite": kqq_max, "slimfly": slimfly_q_max, "complete": complete_max, "bdf": iq_max,
              "inductive-quad": iq_max, "polarfly": er_q_max}
    out = []
    for fam, hi in bounds.items():
        hi = check_int(hi, f"{fam} bound", minimum=2)
        out += [(fam, v) for v in range(2, hi + 1) if FAMILIES[fam].admissible(v)]
    return out


def measured_table(grid: Iterable[tuple[str, int]], pack_max_edges: int = 20000) -> pd.DataFrame:
    """:func:`measure_factor` over a grid; instances with more than ``pack_max_edges`` edges are not packed.

    Example
    -------
    >>> df = measured_table([("complete", 4), ("paley", 5)])
    >>> df[["graph", "t_packed", "r", "agree"]].values.tolist()
    [['K_n', 2, 0, True], ["QR(q')", 1, 1, True]]
    """
    rows = []
    for fam, v in grid:
        cf = evaluate(case_for(fam, v), v)
        rows.append(measure_factor(fam, v, pack=cf["m"] <= pack_max_edges))
    df = pd.DataFrame(rows)
    df["t_packed"] = df["t_packed"].astype("Int64")
    return df
