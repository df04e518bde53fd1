"""Proof checks of the upper bounds of Section IV and Appendix A: exhaustive enumerations and a brute-force oracle.

:mod:`starlib.bounds` states the bounds (eq. (1), Proposition IV-.1, Corollary IV-.2, Lemma A-.1, Proposition
IV-.3, Theorem IV-.4). This module checks them independently:

* :func:`nash_williams_tutte` computes the maximum number of EDSTs of a small graph by brute force over all
  vertex partitions (Nash-Williams and Tutte, 1961: ``tau = min_P floor(e(P)/(|P|-1))``), an oracle that shares
  no code with the matroid packing :func:`starlib.edst.generic_packing`; :func:`atlas_check` runs both on every graph
  of the networkx atlas (all graphs with at most 7 vertices) against eq. (1).
* :func:`factor_params` enumerates every simple connected factor ``(n, m)`` up to a size, i.e. every feasible
  ``(n, t, r)``; :func:`pair_statistics` runs over all ordered pairs of them (tens of millions) with whole-array
  numpy, evaluating Lemma A-.1, Proposition IV-.3 and the case analysis of Theorem IV-.4.
* :func:`prop_iv1_check`, :func:`cor_iv2_check`, :func:`simplicity_check`, :func:`lemma_vc2_check` run over all
  simple ``(n, m)`` (or ``(k, n)``) with ``n`` below a bound.
* :func:`universal_gap_example` builds a small star product on which the Universal construction (Theorem V-B.1)
  falls 3 short of the true maximum, computed by exact packing.

The vectorised statements (:func:`prop_iv3_vec`, :func:`construction_count_vec`) are compared with the scalar
library functions on a dense grid by :func:`library_agreement`.

Example
-------
>>> nash_williams_tutte(4, np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]))   # K_4
2
>>> prop_iv1_check(20)["counterexamples"]
0
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import numpy as np
import pandas as pd
import sympy as sp

from .. import bounds
from ..edst import generic_packing, verify_edsts
from ..factors import complete_bipartite
from ..graphs import ArrayGraph
from ..products import cartesian_product, star_product
from ..validation import check_int

__all__ = ["set_partitions", "nash_williams_tutte", "atlas_check", "prop_iv1_check", "prop_iv1_multigraph_failure",
           "cor_iv2_check", "cor_iv2_symbolic", "simplicity_check", "lemma_vc2_check", "factor_params",
           "prop_iv3_vec", "construction_count_vec", "library_agreement", "pair_statistics", "positive_certificate",
           "prop_iv3_certificates", "lemma_a1_on_products", "smallest_universal_gap", "universal_gap_example"]


# ---------------------------------------------------------------------------------------------
# brute-force oracle
# ---------------------------------------------------------------------------------------------
def set_partitions(n: int) -> np.ndarray:
    """Every partition of ``{0..n-1}`` as a restricted growth string (row ``p``: ``p[v]`` = block of ``v``).

    Parameters
    ----------
    n : int
        ``1 <= n <= 10`` (the Bell number B_10 = 115975 rows).

    Returns
    -------
    ndarray
        ``(B_n, n)`` int8 array.

    Raises
    ------
    ValueError
        If ``n`` is outside ``1..10``.

    Example
    -------
    >>> [set_partitions(k).shape[0] for k in range(1, 8)]    # Bell numbers
    [1, 2, 5, 15, 52, 203, 877]
    """
    n = check_int(n, "n", minimum=1, maximum=10)
    rgs = np.zeros((1, 1), dtype=np.int8)
    for _ in range(1, n):
        top = rgs.max(axis=1)
        reps = (top + 2).astype(np.int64)
        base = np.repeat(rgs, reps, axis=0)
        last = np.concatenate([np.arange(r, dtype=np.int8) for r in reps])
        rgs = np.concatenate([base, last[:, None]], axis=1)
    return rgs


def nash_williams_tutte(n: int, edges: np.ndarray, partitions: np.ndarray | None = None) -> int:
    """The maximum number of EDSTs by the Nash-Williams-Tutte formula, brute force over all vertex partitions.

    ``tau(G) = min over partitions P with at least 2 parts of floor(e(P) / (|P| - 1))``, ``e(P)`` the number
    of edges between parts.

    Parameters
    ----------
    n : number of vertices, ``2 <= n <= 10``.
    edges : ``(m, 2)`` vertex pairs.
    partitions : optional precomputed :func:`set_partitions` ``(n)``.

    Returns
    -------
    int
        The least Nash-Williams-Tutte bound over all partitions.

    Raises
    ------
    ValueError
        If ``n`` is outside ``2..10``.

    Example
    -------
    >>> import networkx as nx
    >>> nash_williams_tutte(10, np.array(list(nx.petersen_graph().edges())))
    1

    References
    ----------
    C. St. J. A. Nash-Williams (1961); W. T. Tutte (1961).
    """
    n = check_int(n, "n", minimum=2, maximum=10)
    P = set_partitions(n) if partitions is None else partitions
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    parts = P.max(axis=1).astype(np.int64) + 1
    P, parts = P[parts >= 2], parts[parts >= 2]
    crossing = (P[:, e[:, 0]] != P[:, e[:, 1]]).sum(axis=1)
    return int((crossing // (parts - 1)).min())


def atlas_check(n_max: int = 7) -> pd.DataFrame:
    """Eq. (1) and the exact packing on every graph of the networkx atlas with ``2 <= n <= n_max``.

    For each graph: ``eq1 = floor(m/(n-1))``, the brute-force ``tau`` of :func:`nash_williams_tutte`, and the
    count of :func:`starlib.edst.generic_packing` with its trees verified by :func:`starlib.edst.verify_edsts`.

    Parameters
    ----------
    n_max : int
        At most 7 (the atlas holds all 1253 graphs on up to 7 vertices).

    Returns
    -------
    DataFrame
        One row per graph: ``atlas, n, m, connected, min_degree, eq1, tau_nwt, tau_packed, verified``.

    Example
    -------
    >>> df = atlas_check(4)
    >>> len(df), bool((df.tau_nwt == df.tau_packed).all()), bool((df.tau_nwt <= df.eq1).all())
    (17, True, True)

    References
    ----------
    Eq. (1) of Isham et al. (2025); networkx ``graph_atlas_g`` (Read and Wilson, An Atlas of Graphs, 1998).
    """
    n_max = check_int(n_max, "n_max", minimum=2, maximum=7)
    parts = {k: set_partitions(k) for k in range(2, n_max + 1)}
    rows = []
    for idx, g in enumerate(nx.graph_atlas_g()):
        nv = g.number_of_nodes()
        if nv < 2 or nv > n_max:
            continue
        A = ArrayGraph.from_edges(list(range(nv)), np.array(list(g.edges()), dtype=np.int64).reshape(-1, 2))
        deg = A.degrees()
        p = generic_packing(A)
        ok = verify_edsts(A, [t.edges for t in p.trees], allow_empty=True).valid
        rows.append({"atlas": idx, "n": nv, "m": A.m, "connected": bool(A.is_connected()),
                     "min_degree": int(deg.min()), "eq1": A.m // (nv - 1),
                     "tau_nwt": nash_williams_tutte(nv, A.edges, parts[nv]), "tau_packed": int(p.count),
                     "verified": bool(ok)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# single-graph statements over all simple (n, m)
# ---------------------------------------------------------------------------------------------
def _simple_nm(n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """All simple ``(n, m)``: ``2 <= n < n_max``, ``0 <= m <= n(n-1)/2``."""
    ns = np.arange(2, n_max)
    sizes = ns * (ns - 1) // 2 + 1
    n = np.repeat(ns, sizes)
    m = np.arange(n.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return n.astype(np.int64), m.astype(np.int64)


def prop_iv1_check(n_max: int = 80) -> dict[str, Any]:
    """Proposition IV-.1 for every simple ``(n, m)`` with ``2 <= n < n_max``.

    Compares :func:`starlib.bounds.prop_iv1` with ``floor(m/(n-1))`` and checks the proof's step
    ``a + b < 2(n-1)`` (from ``a <= (n-1)/2``).

    Returns
    -------
    dict
        ``cases``, ``counterexamples`` (bound differs), ``step_failures`` (``a + b >= 2(n-1)``),
        ``plus_one_cases`` (how often the ``a + 1`` branch is taken).

    Example
    -------
    >>> r = prop_iv1_check(10)
    >>> r["cases"], r["counterexamples"], r["step_failures"]
    (128, 0, 0)

    References
    ----------
    Proposition IV-.1 and its proof (Appendix B-A) of Isham et al. (2025).
    """
    n_max = check_int(n_max, "n_max", minimum=3)
    n, m = _simple_nm(n_max)
    got = np.array([bounds.prop_iv1(int(a), int(b)) for a, b in zip(n.tolist(), m.tolist(), strict=True)])
    a, b = m // n, m % n
    return {"cases": int(n.size), "counterexamples": int((got[:, 2] != m // (n - 1)).sum()),
            "step_failures": int((a + b >= 2 * (n - 1)).sum()),
            "plus_one_cases": int((got[:, 2] == got[:, 0] + 1).sum())}


def prop_iv1_multigraph_failure(n_max: int = 10) -> tuple[int, int, int, int]:
    """The smallest ``(n, m)`` with ``m > n(n-1)/2`` where the case rule of Proposition IV-.1 is wrong.

    Shows that the hypothesis "G simple" is needed (parallel edges allow ``a + b >= 2(n-1)``).

    Returns
    -------
    (n, m, rule value, floor(m/(n-1)))

    Example
    -------
    >>> prop_iv1_multigraph_failure()      # two vertices joined by three parallel edges
    (2, 3, 2, 3)
    """
    for n in range(2, n_max):
        for m in range(n * (n - 1) // 2 + 1, 4 * n * n):
            a, b = divmod(m, n)
            rule = a if a + b < n - 1 else a + 1
            if rule != m // (n - 1):
                return n, m, rule, m // (n - 1)
    raise ValueError(f"n_max={n_max}: no failure found below it")  # pragma: no cover


def cor_iv2_check(n_max: int = 80) -> dict[str, Any]:
    """Corollary IV-.2 for every ``(k, n)`` with a simple k-regular graph on n vertices, ``2 <= n < n_max``.

    Compares :func:`starlib.bounds.regular_bound` with ``floor((k n / 2)/(n-1))``. Also counts where the
    parity-only reading (``floor(k/2)``, no exception for ``K_n``) is wrong.

    Returns
    -------
    dict
        ``cases``, ``counterexamples``, ``parity_only_failures``, ``parity_only_failure_cases`` (the
        ``(k, n)`` where ``floor(k/2)`` is wrong, first ten) and ``parity_failures_are_even_complete_graphs``
        (they are exactly ``k = n - 1`` with ``n`` even).

    Example
    -------
    >>> r = cor_iv2_check(9)
    >>> r["counterexamples"], r["parity_only_failure_cases"]
    (0, [(1, 2), (3, 4), (5, 6), (7, 8)])

    References
    ----------
    Corollary IV-.2 of Isham et al. (2025); docs/star-products.md §3.3.
    """
    n_max = check_int(n_max, "n_max", minimum=3)
    cases, bad, parity_bad = 0, 0, []
    for n in range(2, n_max):
        for kdeg in range(0, n):
            if (kdeg * n) % 2:
                continue
            cases += 1
            true = (kdeg * n // 2) // (n - 1)
            bad += bounds.regular_bound(kdeg, n) != true
            if kdeg // 2 != true:
                parity_bad.append((kdeg, n))
    complete_even = [(n - 1, n) for n in range(2, n_max) if n % 2 == 0]
    return {"cases": cases, "counterexamples": int(bad), "parity_only_failures": len(parity_bad),
            "parity_only_failure_cases": parity_bad[:10],
            "parity_failures_are_even_complete_graphs": parity_bad == complete_even}


def cor_iv2_symbolic() -> tuple[sp.Expr, bool]:
    """Corollary IV-.2's algebra: ``(k n/2)/(n-1) = k/2 + k/(2(n-1))``, and ``k/(2(n-1)) < 1/2`` for ``k <= n-2``.

    Returns
    -------
    (difference of the two sides, which simplifies to 0; True if ``n - 1 - k > 0`` is certified for
    ``n = k + 2 + e``, ``e >= 0``)

    Example
    -------
    >>> diff, below_half = cor_iv2_symbolic()
    >>> sp.simplify(diff), below_half
    (0, True)
    """
    kk, nn, e = sp.symbols("k n e", integer=True, nonnegative=True)
    diff = (kk * nn / 2) / (nn - 1) - (kk / 2 + kk / (2 * (nn - 1)))
    below_half = positive_certificate((nn - 1 - kk).subs(nn, kk + 2 + e), [kk, e])
    return diff, below_half


def simplicity_check(n_max: int = 80) -> dict[str, int]:
    """The simplicity bound ``floor(m/(n-1)) <= floor(n/2)`` for every simple ``(n, m)``, ``n < n_max``.

    Example
    -------
    >>> simplicity_check(30)["counterexamples"]
    0

    References
    ----------
    Inequality (24) of Isham et al. (2025), used by Lemma V-C.2 and Appendix A.
    """
    n, m = _simple_nm(check_int(n_max, "n_max", minimum=3))
    bound = np.array([bounds.simplicity_bound(int(x)) for x in range(2, n_max)], dtype=np.int64)
    return {"cases": int(n.size), "counterexamples": int((m // (n - 1) > bound[n - 2]).sum())}


def lemma_vc2_check(n_max: int = 40) -> dict[str, int]:
    """Lemma V-C.2: for simple ``(n, m)`` and ``t <= m/(n-1)`` with ``r = m - t(n-1) <= t``, ``t = floor(m/(n-1))``.

    Every triple ``(n, m, t)`` with ``2 <= n < n_max`` and ``1 <= t <= m/(n-1)`` is checked; the lemma says
    that whenever :func:`starlib.bounds.lemma_vc2_is_maximum` accepts ``t``, eq. (1) allows no more trees.

    Example
    -------
    >>> lemma_vc2_check(12)["counterexamples"]
    0

    References
    ----------
    Lemma V-C.2 of Isham et al. (2025).
    """
    n, m = _simple_nm(check_int(n_max, "n_max", minimum=3))
    cases = bad = 0
    for nv, mv in zip(n.tolist(), m.tolist(), strict=True):
        for t in range(1, mv // (nv - 1) + 1):
            r = mv - t * (nv - 1)
            if bounds.lemma_vc2_is_maximum(nv, t, r):
                cases += 1
                bad += t != mv // (nv - 1)
    return {"cases": cases, "counterexamples": int(bad)}


# ---------------------------------------------------------------------------------------------
# product statements over all pairs of simple connected factors
# ---------------------------------------------------------------------------------------------
def factor_params(n_max: int) -> pd.DataFrame:
    """Every simple connected factor size: ``2 <= n <= n_max``, ``n-1 <= m <= n(n-1)/2``, with ``t`` and ``r``.

    Each ``(n, m)`` gives one ``(t, r) = (floor(m/(n-1)), m - t(n-1))``; every feasible ``(n, t, r)`` with
    ``t >= 1`` appears once.

    Example
    -------
    >>> factor_params(4).values.tolist()
    [[2, 1, 1, 0], [3, 2, 1, 0], [3, 3, 1, 1], [4, 3, 1, 0], [4, 4, 1, 1], [4, 5, 1, 2], [4, 6, 2, 0]]
    """
    n_max = check_int(n_max, "n_max", minimum=2)
    rows = [(nv, mv) for nv in range(2, n_max + 1) for mv in range(nv - 1, nv * (nv - 1) // 2 + 1)]
    a = np.array(rows, dtype=np.int64)
    t = a[:, 1] // (a[:, 0] - 1)
    return pd.DataFrame({"n": a[:, 0], "m": a[:, 1], "t": t, "r": a[:, 1] - t * (a[:, 0] - 1)})


def prop_iv3_vec(t_g: np.ndarray, r_g: np.ndarray, t_h: np.ndarray, r_h: np.ndarray) -> np.ndarray:
    """Proposition IV-.3 on whole arrays (the statement of :func:`starlib.bounds.prop_iv3`).

    Example
    -------
    >>> prop_iv3_vec(np.array([3, 1, 2]), np.array([6, 0, 0]), np.array([1, 1, 2]), np.array([1, 1, 1])).tolist()
    [4, 2, 3]
    """
    ge_g, ge_h = r_g >= t_g, r_h >= t_h
    s = t_g + t_h
    eq = (r_g == t_g) | (r_h == t_h)
    return np.where(ge_g & ge_h, np.where(eq, s, s + 1), np.where(ge_g | ge_h, s, s - 1))


_THEOREMS = ("V-C.3", "V-C.10", "V-C.11", "V-D.2", "V-B.1")


def construction_count_vec(t_g: np.ndarray, r_g: np.ndarray, t_h: np.ndarray, r_h: np.ndarray,
                           property_vd1: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Table I on whole arrays: (index into ``("V-C.3", "V-C.10", "V-C.11", "V-D.2", "V-B.1")``, trees built).

    Mirrors :func:`starlib.bounds.table_i_count`.

    Example
    -------
    >>> th, k = construction_count_vec(np.array([2, 1]), np.array([2, 0]), np.array([1, 2]), np.array([1, 0]))
    >>> [_THEOREMS[i] for i in th], k.tolist()
    (['V-C.3', 'V-B.1'], [3, 1])
    """
    ge_g, ge_h = r_g >= t_g, r_h >= t_h
    s = t_g + t_h
    both_eq = (r_g == t_g) & (r_h == t_h)
    th = np.where(ge_g & ge_h, np.where(both_eq, 0, 1), np.where(ge_g | ge_h, 2, 3 if property_vd1 else 4))
    built = np.where(ge_g & ge_h, s, np.where(ge_g | ge_h, s - 1, s - 1 if property_vd1 else np.maximum(s - 2, 0)))
    return th, built


def library_agreement(n_max: int = 12) -> dict[str, int]:
    """Compare the vectorised statements with :mod:`starlib.bounds` on every pair of factors up to ``n_max``.

    Checks :func:`prop_iv3_vec` against :func:`~starlib.bounds.prop_iv3`, :func:`construction_count_vec` against
    :func:`~starlib.bounds.table_i_count` (with and without Property V-D.1), and ``floor(|E|/(N-1))`` against
    :func:`~starlib.bounds.product_upper_bound` and :func:`~starlib.bounds.theorem_iv4`.

    Returns
    -------
    dict
        ``pairs`` compared and ``mismatches``.

    Example
    -------
    >>> library_agreement(5)
    {'pairs': 196, 'mismatches': 0}
    """
    F = factor_params(n_max)
    t, r, nn, mm = (F[c].to_numpy() for c in ("t", "r", "n", "m"))
    bad = 0
    for i in range(len(F)):
        sl = slice(None)
        pv = prop_iv3_vec(t[i], r[i], t[sl], r[sl])
        th0, b0 = construction_count_vec(t[i], r[i], t[sl], r[sl])
        th1, b1 = construction_count_vec(t[i], r[i], t[sl], r[sl], property_vd1=True)
        big_n = nn[i] * nn
        tau = (mm[i] * nn + nn[i] * mm) // (big_n - 1)
        for j in range(len(F)):
            args = (int(t[i]), int(r[i]), int(t[j]), int(r[j]))
            c0 = bounds.table_i_count(*args)
            c1 = bounds.table_i_count(*args, property_vd1=True)
            ub = bounds.product_upper_bound(args[0], args[1], args[2], args[3], int(nn[i]), int(nn[j]))
            case = bounds.theorem_iv4(args[0], args[1], args[2], args[3], int(nn[i]), int(nn[j]))
            bad += int(bounds.prop_iv3(*args) != pv[j] or c0 != (_THEOREMS[th0[j]], b0[j])
                       or c1 != (_THEOREMS[th1[j]], b1[j]) or ub != tau[j] or case.bound != tau[j]
                       or case.built != b0[j])
    return {"pairs": len(F) ** 2, "mismatches": bad}


def pair_statistics(n_max: int = 30, block: int = 256) -> dict[str, Any]:
    """Lemma A-.1, Proposition IV-.3 and Theorem IV-.4 over every ordered pair of simple connected factors.

    For all pairs ``(G, H)`` from :func:`factor_params` ``(n_max)`` (``N = n_G n_H``, ``|E| = m_G n_H + n_G m_H``,
    ``tau* = floor(|E|/(N-1))``) it records:

    * Lemma A-.1: ``|E| = (t_G + t_H)(N - 1) + L`` with ``L = (r_G-t_G) n_H + (r_H-t_H) n_G + t_G + t_H``;
    * Proposition IV-.3, per case: the bound is valid (``tau* <= bound``), the range of ``tau* - t_G - t_H``,
      how often the bound is attained by eq. (1), and the range of ``L / (N - 1)`` (the proof's inequalities);
    * Theorem IV-.4, per construction (Table I): the largest gap ``tau* - built``; and for the Universal
      construction applied everywhere (``t_G + t_H - 2`` trees), the largest gap overall and outside the case
      ``r_G > t_G and r_H > t_H``.

    Parameters
    ----------
    n_max : largest factor order.
    block : G-rows processed per numpy batch.

    Returns
    -------
    dict
        ``pairs``, ``lemma_a1_failures``, ``prop_iv3`` (DataFrame, one row per case), ``theorem_iv4`` (DataFrame,
        one row per construction) and ``universal`` (dict).

    Example
    -------
    >>> s = pair_statistics(6)
    >>> s["lemma_a1_failures"], int(s["prop_iv3"]["violations"].sum()), s["universal"]["max_gap"]
    (0, 0, 3)

    References
    ----------
    Lemma A-.1, Proposition IV-.3, Theorem IV-.4 and Table I of Isham et al. (2025); docs/star-products.md §3.4-§3.6.
    """
    F = factor_params(check_int(n_max, "n_max", minimum=2))
    nv, mv, tv, rv = (F[c].to_numpy() for c in ("n", "m", "t", "r"))
    case_names = ("r_G >= t_G and r_H >= t_H", "r_G >= t_G and r_H >= t_H, some r = t",
                  "r_G >= t_G and r_H >= t_H, no r = t", "exactly one r >= t", "r_G < t_G and r_H < t_H")
    stats = {c: {"pairs": 0, "violations": 0, "off_min": 10**9, "off_max": -10**9, "bound_attained": 0,
                 "L_min": np.inf, "L_max": -np.inf} for c in case_names}
    th_stats = {th: {"pairs": 0, "max_gap": -10**9, "min_gap": 10**9} for th in _THEOREMS}
    th_stats_prop = {th: {"pairs": 0, "max_gap": -10**9, "min_gap": 10**9} for th in _THEOREMS}
    uni = {"max_gap": -10**9, "max_gap_not_both_gt": -10**9, "pairs_gap3": 0}
    lemma_fail = 0
    total = 0
    for s0 in range(0, len(F), block):
        g = slice(s0, s0 + block)
        nG, mG, tG, rG = (x[g][:, None] for x in (nv, mv, tv, rv))
        nH, mH, tH, rH = (x[None, :] for x in (nv, mv, tv, rv))
        bigN = nG * nH
        E = mG * nH + nG * mH
        L = (rG - tG) * nH + (rH - tH) * nG + tG + tH
        lemma_fail += int((E != (tG + tH) * (bigN - 1) + L).sum())
        tau = E // (bigN - 1)
        bound = prop_iv3_vec(tG, rG, tH, rH)
        off = tau - tG - tH
        ratio = L / (bigN - 1)
        geG, geH = rG >= tG, rH >= tH
        some_eq = (rG == tG) | (rH == tH)
        masks = {case_names[0]: geG & geH, case_names[1]: geG & geH & some_eq,
                 case_names[2]: geG & geH & ~some_eq, case_names[3]: geG ^ geH, case_names[4]: ~geG & ~geH}
        for c, msk in masks.items():
            msk = np.broadcast_to(msk, tau.shape)
            cnt = int(msk.sum())
            if not cnt:
                continue
            st = stats[c]
            st["pairs"] += cnt
            st["violations"] += int((tau[msk] > bound[msk]).sum())
            st["off_min"] = min(st["off_min"], int(off[msk].min()))
            st["off_max"] = max(st["off_max"], int(off[msk].max()))
            st["bound_attained"] += int((tau[msk] == bound[msk]).sum())
            st["L_min"] = min(st["L_min"], float(ratio[msk].min()))
            st["L_max"] = max(st["L_max"], float(ratio[msk].max()))
        for prop, store in ((False, th_stats), (True, th_stats_prop)):
            th, built = construction_count_vec(tG, rG, tH, rH, property_vd1=prop)
            th = np.broadcast_to(th, tau.shape)
            gap = tau - built
            for i, name in enumerate(_THEOREMS):
                msk = th == i
                if msk.any():
                    store[name]["pairs"] += int(msk.sum())
                    store[name]["max_gap"] = max(store[name]["max_gap"], int(gap[msk].max()))
                    store[name]["min_gap"] = min(store[name]["min_gap"], int(gap[msk].min()))
        ugap = tau - (tG + tH - 2)
        both_gt = np.broadcast_to((rG > tG) & (rH > tH), tau.shape)
        uni["max_gap"] = max(uni["max_gap"], int(ugap.max()))
        if (~both_gt).any():
            uni["max_gap_not_both_gt"] = max(uni["max_gap_not_both_gt"], int(ugap[~both_gt].max()))
        uni["pairs_gap3"] += int((ugap >= 3).sum())
        total += tau.size
    p3 = pd.DataFrame([{"case": c, **v} for c, v in stats.items()])
    rows = []
    for name in _THEOREMS:
        src = th_stats_prop if name == "V-D.2" else th_stats
        rows.append({"theorem": name, **src[name]})
    t4 = pd.DataFrame(rows)
    return {"pairs": total, "lemma_a1_failures": lemma_fail, "prop_iv3": p3, "theorem_iv4": t4, "universal": uni}


def positive_certificate(expr: sp.Expr, variables: list[sp.Symbol]) -> bool:
    """Certify ``expr > 0`` for all non-negative values of ``variables``: every coefficient of the expanded
    polynomial is ``>= 0`` and the constant term is ``> 0`` (sufficient, not necessary).

    Example
    -------
    >>> x, y = sp.symbols("x y", nonnegative=True)
    >>> positive_certificate((1 + x) * (2 + y) - 1, [x, y]), positive_certificate(x - y + 1, [x, y])
    (True, False)
    """
    p = sp.Poly(sp.expand(expr), *variables)
    coeffs = p.coeffs()
    return all(c >= 0 for c in coeffs) and p.eval({v: 0 for v in variables}) > 0


def prop_iv3_certificates() -> pd.DataFrame:
    """Symbolic proof of the inequalities on ``L`` behind Proposition IV-.3 (Appendix A, (29)-(30)).

    With ``t_G = 1 + x``, ``t_H = 1 + y``, ``n_G = 2 t_G + e``, ``n_H = 2 t_H + f`` (simplicity: ``t <= n/2``)
    and each ``r`` written through a non-negative slack (``r = t + a`` for ``r >= t``, ``r = t - 1 - a`` for
    ``r < t``, ``r = n - 2 - a`` for ``r <= n - 2``, ``r = a`` for ``r >= 0``), every inequality becomes
    ``polynomial > 0`` in non-negative variables, certified by :func:`positive_certificate`. With Lemma A-.1,
    ``tau* = t_G + t_H + floor(L/(N-1))``, these give each case of the proposition.

    Returns
    -------
    DataFrame
        ``case, claim, substitution, certified``.

    Example
    -------
    >>> bool(prop_iv3_certificates()["certified"].all())
    True

    References
    ----------
    Proposition IV-.3 and Appendix A of Isham et al. (2025); docs/star-products.md §3.5.
    """
    x, y, e, f, a, c = sp.symbols("x y e f a c", integer=True, nonnegative=True)
    tG, tH = 1 + x, 1 + y
    nG, nH = 2 * tG + e, 2 * tH + f
    big = nG * nH - 1

    def L(rG: sp.Expr, rH: sp.Expr) -> sp.Expr:
        return (rG - tG) * nH + (rH - tH) * nG + tG + tH

    rows = [
        ("r_G >= t_G and r_H >= t_H", "L > 0", "r_G = t_G + a, r_H = t_H + c", L(tG + a, tH + c)),
        ("r_G >= t_G and r_H >= t_H", "L < 2(N-1)", "r_G = n_G - 2 - a, r_H = n_H - 2 - c",
         2 * big - L(nG - 2 - a, nH - 2 - c)),
        ("r_G = t_G and r_H >= t_H", "L < N-1", "r_G = t_G, r_H = n_H - 2 - c", big - L(tG, nH - 2 - c)),
        ("r_G >= t_G and r_H = t_H", "L < N-1", "r_G = n_G - 2 - a, r_H = t_H", big - L(nG - 2 - a, tH)),
        ("r_G >= t_G > r_H", "L > -(N-1)", "r_G = t_G + a, r_H = c", L(tG + a, c) + big),
        ("r_G >= t_G > r_H", "L < N-1", "r_G = n_G - 2 - a, r_H = t_H - 1 - c", big - L(nG - 2 - a, tH - 1 - c)),
        ("r_H >= t_H > r_G", "L > -(N-1)", "r_G = a, r_H = t_H + c", L(a, tH + c) + big),
        ("r_H >= t_H > r_G", "L < N-1", "r_G = t_G - 1 - a, r_H = n_H - 2 - c", big - L(tG - 1 - a, nH - 2 - c)),
        ("r_G < t_G and r_H < t_H", "L < 0", "r_G = t_G - 1 - a, r_H = t_H - 1 - c", -L(tG - 1 - a, tH - 1 - c)),
        ("r_G < t_G and r_H < t_H", "L > -(N-1)", "r_G = a, r_H = c", L(a, c) + big),
    ]
    return pd.DataFrame([{"case": cs, "claim": cl, "substitution": sub,
                          "certified": positive_certificate(ex, [x, y, e, f, a, c])} for cs, cl, sub, ex in rows])


def lemma_a1_on_products(products: list[Any]) -> pd.DataFrame:
    """Lemma A-.1 on built star products: ``|E|`` counted on the graph against ``(t_G + t_H)(N - 1) + L``.

    Parameters
    ----------
    products : StarProduct instances (with ``structure`` and ``supernode``).

    Returns
    -------
    DataFrame
        ``product, N, edges, t_G, r_G, t_H, r_H, L, lemma_a1, agree``.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> lemma_a1_on_products([slimfly(3)])[["N", "edges", "L", "agree"]].values.tolist()
    [[18, 45, 11, True]]
    """
    rows = []
    for P in products:
        G, H = P.structure, P.supernode
        tG, rG = bounds.t_and_r(G)
        tH, rH = bounds.t_and_r(H)
        big_l = bounds.lemma_a1(G.n, tG, rG, H.n, tH, rH)
        pred = (tG + tH) * (P.n - 1) + big_l
        name = P.name + "(" + ", ".join(f"{k}={v}" for k, v in P.params.items()) + ")"
        rows.append({"product": name, "N": P.n, "edges": P.m, "t_G": tG, "r_G": rG, "t_H": tH, "r_H": rH,
                     "L": big_l, "lemma_a1": pred, "agree": bool(pred == P.m)})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# the Universal construction's worst case, on an explicit product
# ---------------------------------------------------------------------------------------------
def smallest_universal_gap(gap: int = 3, n_max: int = 15) -> tuple[int, int, int, int, int]:
    """The smallest product (by ``N``, then ``n_G, m_G, n_H, m_H``) whose eq. (1) bound exceeds ``t_G + t_H - 2``
    (the Universal construction's count) by at least ``gap``.

    All pairs of simple connected factors with ``n <= n_max`` are searched; every product with
    ``N <= 2 n_max`` is therefore covered.

    Returns
    -------
    (N, n_G, m_G, n_H, m_H)

    Raises
    ------
    ValueError
        If no pair in the range has the gap.

    Example
    -------
    >>> smallest_universal_gap(3)
    (30, 5, 7, 6, 9)
    """
    F = factor_params(check_int(n_max, "n_max", minimum=2))
    nv, mv, tv = (F[c].to_numpy() for c in ("n", "m", "t"))
    nG, mG, tG = nv[:, None], mv[:, None], tv[:, None]
    big = nG * nv[None, :]
    ugap = (mG * nv[None, :] + nG * mv[None, :]) // (big - 1) - (tG + tv[None, :] - 2)
    i, j = np.nonzero(ugap >= gap)
    if i.size == 0:
        raise ValueError(f"gap={gap}: no pair of factors with n <= {n_max} has it")
    cand = sorted(zip(big[i, j].tolist(), nv[i].tolist(), mv[i].tolist(), nv[j].tolist(), mv[j].tolist(),
                      strict=True))
    return tuple(int(x) for x in cand[0])


def universal_gap_example(seeds: tuple[int, ...] = (0, 1, 2)) -> pd.DataFrame:
    """A smallest star product where the Universal construction is 3 below the true maximum.

    ``G`` = K_{2,3} plus an edge inside the 3-side (5 vertices, 7 edges: ``t_G = 1, r_G = 3``) and
    ``H = K_{3,3}`` (6 vertices, 9 edges: ``t_H = 1, r_H = 4``): ``N = 30``, ``|E| = 87 = 3 (N - 1)``. The
    Universal construction builds ``t_G + t_H - 2 = 0`` trees; the exact packing finds 3 (the edge set splits
    into three spanning trees) for the Cartesian product and for star products with seeded random bijections.

    Parameters
    ----------
    seeds : seeds of the random bijections (one product per seed, plus the Cartesian product).

    Returns
    -------
    DataFrame
        One row per product: ``product, n, m, t_G, r_G, t_H, r_H, eq1_bound, universal_built,
        extended_built, extended_theorem, max_edsts, verified, gap`` (``gap = max_edsts - universal_built``).

    Example
    -------
    >>> df = universal_gap_example(seeds=())
    >>> df[["n", "m", "eq1_bound", "universal_built", "max_edsts"]].values.tolist()
    [[30, 87, 3, 0, 3]]

    References
    ----------
    Theorem IV-.4 and Theorem V-B.1 of Isham et al. (2025); docs/star-products.md §3.6.
    """
    G = ArrayGraph.from_edges(list(range(5)), np.array([[0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3]]),
                              name="K_{2,3}+e")
    H = complete_bipartite(3)
    tG, rG = bounds.t_and_r(G)
    tH, rH = bounds.t_and_r(H)
    products = [("G □ H (Cartesian)", cartesian_product(G, H))]
    for s in seeds:
        f = np.random.default_rng(s).permutation(H.n)
        products.append((f"G * H, f = {f.tolist()} (seed {s})", star_product(G, H, f)))
    rows = []
    for name, P in products:
        p = generic_packing(P)
        ok = verify_edsts(P, [t.edges for t in p.trees], allow_empty=True).valid
        built = max(tG + tH - 2, 0)
        theorem, extended = bounds.table_i_count(tG, rG, tH, rH)
        rows.append({"product": name, "n": P.n, "m": P.m, "t_G": tG, "r_G": rG, "t_H": tH, "r_H": rH,
                     "eq1_bound": bounds.eq1_bound(P.n, P.m), "universal_built": built,
                     "extended_built": extended, "extended_theorem": theorem,
                     "max_edsts": int(p.count), "verified": bool(ok), "gap": int(p.count) - built})
    return pd.DataFrame(rows)
