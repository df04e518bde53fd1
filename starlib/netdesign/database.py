"""Network design from the working notes: router counts, bisection sampling, the connection database,
router-only hop counts, alterations, fitness functions and a small evolutionary search.

The notes (seed ``004``, "network design") model an all-to-all network of ``N`` compute nodes with ``n``
ports each and ``M`` routers with ``m`` ports each as a *database of connections*: compute nodes are
negative integers, routers positive integers, and every link is a pair ``[x, y]``.  This module holds

- the router-count formulas of section 6 (:func:`tree_levels`, :func:`max_routers`, :func:`min_routers`)
  and the networks that realise them (:func:`tree_network`, :func:`daisy_chain`);
- the counting of section 8.1.1 (:func:`balanced_bipartitions`, :func:`network_partitions`,
  :func:`bisection_confidence`, :func:`bisection_picks`);
- the database and its validity rules (:func:`validate_connections`), the router-only hop counts of
  section 8.2 (:func:`router_hops`, :func:`all_pairs_hops`, :func:`hop_statistics`);
- random network creation (section 4, :func:`random_network`), the three alterations of section 7
  (:func:`swap_compute_connections`, :func:`swap_router_connections`, :func:`swap_connection_sets`);
- fitness functions (section 8: :func:`bisection_width`, :func:`network_cost`, :func:`weighted_score`)
  and a (1+1) evolutionary search (:func:`evolve`).

Typical use
-----------
>>> db = daisy_chain(8, 5)                      # Fig. 11 of the notes: two 5-port routers, 4 + 4 nodes
>>> hop_statistics(db).histogram                # pairs at 1 and 2 hops, as Fig. 5 counts them
{1: 12, 2: 16}
>>> bisection_width(db).width
1

Hop counts are the number of *routers* on a path by default (section 1.3: one shared router is one
hop); ``count="links"`` counts links instead (one more), the convention of the notes' Fig. 21.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from .graphs import ArrayGraph
from .registry import Family, Param, family_table

__all__ = [
    "NETWORK_FAMILIES",
    "NOTES_EXAMPLE_CONNECTIONS",
    "MOVES",
    "tree_levels",
    "max_routers",
    "min_routers",
    "balanced_bipartitions",
    "network_partitions",
    "bisection_confidence",
    "bisection_picks",
    "monte_carlo_confidence",
    "canonical_connections",
    "validate_connections",
    "is_valid_connections",
    "compute_nodes",
    "router_labels",
    "port_counts",
    "to_array_graph",
    "router_hops",
    "all_pairs_hops",
    "HopStatistics",
    "hop_statistics",
    "single_port_network",
    "daisy_chain",
    "tree_network",
    "random_network",
    "rewire",
    "swap_compute_connections",
    "swap_router_connections",
    "swap_connection_sets",
    "alter",
    "set_swap_decompositions",
    "BisectionResult",
    "bisection_width",
    "cut_width",
    "network_cost",
    "weighted_score",
    "EvolutionResult",
    "evolve",
]

#: The connections of the notes' section 8.2, eq. (21) (drawn in their Fig. 21).
NOTES_EXAMPLE_CONNECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 4), (-2, 4), (-2, 5), (-3, 5), (3, 5), (1, 3), (1, 2), (2, 4))

#: The three alterations of section 7, by name.
MOVES: tuple[str, ...] = ("compute", "router", "set")

# exact rational arithmetic in bisection_picks is used while (U-1)^p has at most this many digits
_EXACT_DIGITS = 60_000
_MAX_PICKS = 10**7


# ---------------------------------------------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------------------------------------------
def _int(name: str, value: Any, minimum: int | None = None, rule: str | None = None) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name}={value!r} must be an integer")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}={v} violates the rule {rule or f'{name} >= {minimum}'}")
    return v


def _count_arg(count: str) -> int:
    if count not in ("routers", "links"):
        raise ValueError(f"count={count!r} must be 'routers' or 'links'")
    return 1 if count == "routers" else 2


# ---------------------------------------------------------------------------------------------------------------
# section 6: how many routers
# ---------------------------------------------------------------------------------------------------------------
def _tree_args(N: Any, m: Any, n: Any) -> tuple[int, int, int]:
    m = _int("m", m, 3, "m > 2 (a router needs one port up and at least two down)")
    N = _int("N", N, 3, "N > 2")
    n = _int("n", n, 1, "n >= 1")
    if n > N - 1:
        raise ValueError(f"n={n} violates the rule n <= N - 1 = {N - 1} (ports per compute node)")
    return N, m, n


def tree_levels(N: int, m: int, n: int = 1) -> int:
    """Number of tree levels ``k`` in the notes' "Solution 1": the least ``k`` with ``n (m-1)^k >= N - 1``.

    This is ``ceil(log((N-1)/n) / log(m-1))`` (eqs. 5 and 12) computed in exact integer arithmetic:
    in floating point the ceiling of a quotient of logarithms is off by one when ``(N-1)/n`` is an exact
    power of ``m-1`` (for instance ``log(125)/log(5)`` evaluates to ``3.0000000000000004``).

    Parameters
    ----------
    N : number of compute nodes, ``N > 2``.
    m : ports per router, ``m > 2``.
    n : ports per compute node, ``1 <= n <= N - 1``.

    Returns
    -------
    int
        ``k >= 0`` (``k = 0`` when ``n = N - 1``: every node reaches every other directly).

    Raises
    ------
    ValueError
        If ``m <= 2``, ``N <= 2`` or ``n`` is outside ``1..N-1``.

    Examples
    --------
    >>> tree_levels(1000, 24), tree_levels(1000, 24, n=2), tree_levels(126, 6)
    (3, 2, 3)

    References
    ----------
    Network-design notes, section 6.1 eqs. (1), (4)-(5) and section 6.2 eqs. (8), (11)-(12).
    """
    N, m, n = _tree_args(N, m, n)
    k, reach = 0, n
    while reach < N - 1:
        k += 1
        reach *= m - 1
    return k


def max_routers(N: int, m: int, n: int = 1) -> int:
    """The notes' maximum router count ``M_max = N n sum_{a=1..k} (m-1)^(a-1)`` with ``k = tree_levels(N, m, n)``.

    Every compute node roots ``n`` private ``(m-1)``-ary trees of routers, ``k`` levels deep, whose
    leaves reach the other ``N - 1`` nodes; :func:`tree_network` builds that network.

    Parameters
    ----------
    N : number of compute nodes, ``N > 2``.
    m : ports per router, ``m > 2``.
    n : ports per compute node, ``1 <= n <= N - 1``.

    Returns
    -------
    int
        ``N n ((m-1)^k - 1) / (m-2)``.

    Raises
    ------
    ValueError
        If ``m <= 2``, ``N <= 2`` or ``n`` is outside ``1..N-1``.

    Examples
    --------
    >>> max_routers(1000, 24)       # the notes' example for n = 1
    553000
    >>> max_routers(5, 5), max_routers(17, 5), max_routers(65, 5)   # Figs. 7-9: M' = 1, 1 + 4, 1 + 4 + 16
    (5, 85, 1365)

    References
    ----------
    Network-design notes, section 6.1 eq. (3) (``n = 1``) and section 6.2 eq. (10).
    """
    N, m, n = _tree_args(N, m, n)
    k = tree_levels(N, m, n)
    return N * n * (((m - 1) ** k - 1) // (m - 2))


def min_routers(N: int, m: int) -> int:
    """The notes' minimum router count for one port per compute node (a daisy chain of routers).

    Solves ``N = 2(m-1) + (M-2)(m-2)`` (eq. 6) for ``M`` and rounds up to whole routers:
    ``M_min = ceil((N - 2(m-1))/(m-2) + 2) = ceil((N-2)/(m-2))``.

    The notes state the range ``N > 2(m-1)``; the rounded formula is also right for ``3 <= N <= 2(m-1)``
    (one router while ``N <= m``, two up to ``2(m-1)``, the notes' Figs. 10 and 11), which brute-force
    enumeration confirms, so starlib accepts every ``N >= 3``. For ``N <= 2`` it would give 0 routers.

    Parameters
    ----------
    N : number of compute nodes, ``N >= 3``.
    m : ports per router, ``m > 2``.

    Returns
    -------
    int
        The least number of ``m``-port routers that connect ``N`` single-port compute nodes.

    Raises
    ------
    ValueError
        If ``m <= 2`` or ``N < 3``.

    Examples
    --------
    >>> min_routers(1000, 24)      # the notes' example
    46
    >>> [min_routers(N, 5) for N in (5, 8, 11, 14)]   # Figs. 10-13: 5; 4 + 4; 4 + 3 + 4; 4 + 3 + 3 + 4
    [1, 2, 3, 4]

    References
    ----------
    Network-design notes, section 6.1 "Solution 2", eqs. (6)-(7).
    """
    m = _int("m", m, 3, "m > 2 (a chained router needs two router ports and a compute port)")
    N = _int("N", N, 3, "N >= 3 (for N <= 2 the formula (N-2)/(m-2) gives no router)")
    return -(-(N - 2) // (m - 2))


# ---------------------------------------------------------------------------------------------------------------
# section 8.1.1: how many bisections, how many picks
# ---------------------------------------------------------------------------------------------------------------
def balanced_bipartitions(N: int) -> int:
    """Number of ways to split ``N`` distinct compute nodes into two unlabeled halves: ``C(N, N/2) / 2``.

    Parameters
    ----------
    N : an even number of compute nodes, ``N >= 2``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``N`` is odd or smaller than 2.

    Examples
    --------
    >>> [balanced_bipartitions(N) for N in (2, 4, 6, 8)]    # 1|2; 12|34, 13|24, 14|23; ...
    [1, 3, 10, 35]

    References
    ----------
    Network-design notes, section 8.1.1 (the notes' closed form before eq. 16 holds only for N = 6).
    """
    N = _int("N", N, 2, "N >= 2")
    if N % 2:
        raise ValueError(f"N={N} is odd: a bisection needs an even number of compute nodes")
    return math.comb(N, N // 2) // 2


def network_partitions(N: int, M: int) -> int:
    """Number of network bisections ``U``: a balanced split of the compute nodes times a side for every router.

    ``U = 2^M C(N, N/2) / 2`` (eq. 16 of the notes with the correct bipartition count).

    Parameters
    ----------
    N : an even number of compute nodes, ``N >= 2``.
    M : number of routers, ``M >= 0``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``N`` is odd or smaller than 2, or ``M < 0``.

    Examples
    --------
    >>> network_partitions(4, 2)     # 3 splits of 4 nodes, 4 ways to place 2 routers
    12

    References
    ----------
    Network-design notes, section 8.1.1 eq. (16).
    """
    M = _int("M", M, 0, "M >= 0")
    return 2**M * balanced_bipartitions(N)


def _confidence_args(p: Any, U: Any) -> tuple[int, int]:
    p = _int("p", p, 0, "p >= 0 picks")
    U = _int("U", U, 1, "U >= 1 items")
    return p, U


def bisection_confidence(p: int, U: int, exact: bool = False) -> float | Fraction:
    """Confidence ``C = 1 - (1 - 1/U)^p`` that ``p`` picks with replacement from ``U`` items include a given one.

    The float is computed as ``-expm1(p log1p(-1/U))``, accurate even when ``1/U`` is below the float
    resolution of 1 (where ``1 - (1 - 1/U)**p`` evaluates to 0).

    Parameters
    ----------
    p : number of picks, ``p >= 0``.
    U : number of items, ``U >= 1``.
    exact : return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or Fraction

    Raises
    ------
    ValueError
        If ``p < 0`` or ``U < 1``.

    Examples
    --------
    >>> [bisection_confidence(p, 2) for p in (1, 2, 3)]      # the notes' 50%, 75%, 87.5%
    [0.5, 0.75, 0.875]
    >>> bisection_confidence(3, 2, exact=True)
    Fraction(7, 8)

    References
    ----------
    Network-design notes, section 8.1.1 eq. (17).
    """
    p, U = _confidence_args(p, U)
    if exact:
        return 1 - Fraction(U - 1, U) ** p
    if U == 1:
        return 1.0 if p > 0 else 0.0
    return -math.expm1(p * math.log1p(-1.0 / U))


def bisection_picks(C: float | Fraction, U: int) -> int:
    """Smallest number of picks ``p`` with ``bisection_confidence(p, U) >= C`` (the notes' eqs. 18-20).

    ``p = ceil(log(1 - C) / log(1 - 1/U))``, decided in exact rational arithmetic (the float ``C`` is
    taken at its exact binary value) whenever ``(U-1)^p`` is small enough, and otherwise with 60-digit
    arithmetic, so a quotient that is an integer is not pushed to the next one by rounding.

    Parameters
    ----------
    C : the confidence, ``0 < C < 1``.
    U : number of items, ``U >= 1``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``C`` is not in the open interval (0, 1) or ``U < 1``.

    Examples
    --------
    >>> bisection_picks(0.9, 100)    # the notes' eq. (20)
    230
    >>> bisection_picks(0.75, 2)     # exactly 1 - (1/2)^2: two picks, not three
    2

    References
    ----------
    Network-design notes, section 8.1.1 eqs. (18)-(20).
    """
    if isinstance(C, (bool, np.bool_)) or not isinstance(C, (int, float, Fraction, np.floating, np.integer)):
        raise ValueError(f"C={C!r} must be a number in the open interval (0, 1)")
    if not (0 < C < 1):
        raise ValueError(f"C={C!r} violates the rule 0 < C < 1 (a confidence)")
    U = _int("U", U, 1, "U >= 1 items")
    if U == 1:
        return 1
    c = Fraction(C)
    target = 1 - c  # need (1 - 1/U)^p <= target
    est = math.log1p(-float(c)) / math.log1p(-1.0 / U)
    p = max(1, math.ceil(est))
    if p * math.log10(U) <= _EXACT_DIGITS:
        q = Fraction(U - 1, U)
        while p > 1 and q ** (p - 1) <= target:
            p -= 1
        while q**p > target:
            p += 1
        return p
    import mpmath

    with mpmath.workdps(60):
        x = mpmath.log(mpmath.mpf(target.numerator) / target.denominator) / mpmath.log1p(-mpmath.mpf(1) / U)
        return max(1, int(mpmath.ceil(x - mpmath.mpf(10) ** -40)))


def monte_carlo_confidence(picks: Sequence[int], U: int, trials: int, seed: int | np.random.Generator | None = None,
                           ) -> np.ndarray:
    """Simulated confidence: the fraction of ``trials`` runs of picks with replacement from ``U`` items that
    contain item 0 within the first ``p`` picks, for every ``p`` in ``picks``.

    Each run draws ``max(picks)`` uniform items (literally, no distribution formula is used) and records
    where item 0 first appears; a run counts for ``p`` if that is among its first ``p`` picks.

    Parameters
    ----------
    picks : numbers of picks ``p >= 0``.
    U : number of items, ``U >= 1``.
    trials : number of simulated runs, ``>= 1``.
    seed : seed or numpy Generator.

    Returns
    -------
    numpy.ndarray
        One fraction per entry of ``picks``.

    Raises
    ------
    ValueError
        If an argument breaks its rule.

    Examples
    --------
    >>> est = monte_carlo_confidence([1, 2, 3], 2, trials=4000, seed=0)
    >>> bool(np.all(np.abs(est - [0.5, 0.75, 0.875]) < 0.03))
    True

    References
    ----------
    Network-design notes, section 8.1.1 eq. (17) (checked by simulation).
    """
    ps = [_int("picks", p, 0, "picks >= 0") for p in picks]
    U = _int("U", U, 1, "U >= 1 items")
    trials = _int("trials", trials, 1, "trials >= 1")
    rng = np.random.default_rng(seed)
    pmax = max(ps, default=0)
    first = np.full(trials, np.iinfo(np.int64).max)
    chunk = max(1, 4_000_000 // max(pmax, 1))
    for s in range(0, trials, chunk):
        t = min(chunk, trials - s)
        hit = rng.integers(U, size=(t, pmax)) == 0
        any_hit = hit.any(axis=1)
        first[s:s + t] = np.where(any_hit, hit.argmax(axis=1), np.iinfo(np.int64).max)
    return np.array([np.mean(first < p) for p in ps])


# ---------------------------------------------------------------------------------------------------------------
# the connection database
# ---------------------------------------------------------------------------------------------------------------
def canonical_connections(connections: Any) -> np.ndarray:
    """The database as an ``(E, 2)`` int64 array, each pair sorted ascending, rows sorted; duplicates kept.

    A compute link reads ``[c, r]`` (``c < 0 < r``), a router link ``[r1, r2]`` with ``r1 < r2``.
    No validity rule is checked here (see :func:`validate_connections`).

    Parameters
    ----------
    connections : array-like of integer pairs.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        If the input is not a non-empty list of integer pairs.

    Examples
    --------
    >>> canonical_connections([[4, -1], [2, 1]]).tolist()
    [[-1, 4], [1, 2]]

    References
    ----------
    Network-design notes, section 4 ("connections pairs ... unordered pairs of positive (router) and
    negative (computer) integer indices").
    """
    try:
        a = np.asarray(connections)
    except ValueError as exc:  # ragged input
        raise ValueError(f"connections must be a list of integer pairs ({exc})") from None
    if a.size == 0:
        raise ValueError("connections is empty: a network needs at least one pair")
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"connections has shape {a.shape}; it must be a list of pairs, shape (E, 2)")
    if not np.issubdtype(a.dtype, np.integer):
        if np.issubdtype(a.dtype, np.floating) and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"connections must hold integer labels, got dtype {a.dtype}")
    a = np.sort(a.astype(np.int64), axis=1)
    order = np.lexsort((a[:, 1], a[:, 0]))
    return a[order]


@dataclass
class _Net:
    """Index arrays of a canonical database (compute nodes ``0..N-1`` ordered -1, -2, ...; routers ascending)."""

    rows: np.ndarray
    nodes: np.ndarray  # compute labels, -1, -2, ... order (descending)
    routers: np.ndarray  # router labels ascending
    comp: np.ndarray  # bool mask of compute links among rows
    ci: np.ndarray  # compute index of each compute link
    cr: np.ndarray  # router index of each compute link
    ru: np.ndarray  # router indices of router links
    rv: np.ndarray

    @property
    def N(self) -> int:
        return len(self.nodes)

    @property
    def M(self) -> int:
        return len(self.routers)


def _index(rows: np.ndarray) -> _Net:
    comp = rows[:, 0] < 0
    nodes = np.unique(rows[comp, 0])[::-1].copy()
    rlab = np.concatenate([rows[comp, 1], rows[~comp].ravel()])
    routers = np.unique(rlab)
    ci = len(nodes) - 1 - np.searchsorted(nodes[::-1], rows[comp, 0])
    cr = np.searchsorted(routers, rows[comp, 1])
    ru = np.searchsorted(routers, rows[~comp, 0])
    rv = np.searchsorted(routers, rows[~comp, 1])
    return _Net(rows, nodes, routers, comp, ci, cr, ru, rv)


def _router_adjacency(net: _Net) -> sp.csr_matrix:
    M = net.M
    r = np.concatenate([net.ru, net.rv])
    c = np.concatenate([net.rv, net.ru])
    return sp.csr_matrix((np.ones(len(r), dtype=np.int8), (r, c)), shape=(M, M))


def _unreachable_pair(net: _Net) -> tuple[int, int] | None:
    """A pair of compute indices that cannot reach each other through routers only, or None."""
    if net.M == 0:
        return (0, 1)
    _, lab = csgraph.connected_components(_router_adjacency(net), directed=False)
    comps = lab[net.cr]
    if comps.size and np.all(comps == comps[0]):
        return None
    K = int(lab.max()) + 1
    B = sp.csr_matrix((np.ones(len(comps), dtype=np.int32), (net.ci, comps)), shape=(net.N, K))
    share = (B @ B.T).toarray() > 0
    bad = np.argwhere(~share)
    if bad.size == 0:
        return None
    i, j = bad[0]
    return int(i), int(j)


def _ports_map(name: str, ports: Any, labels: np.ndarray) -> dict[int, int] | None:
    if ports is None:
        return None
    if isinstance(ports, Mapping):
        out = {int(k): _int(f"{name}[{k}]", v, 0) for k, v in ports.items()}
        return out
    p = _int(name, ports, 0)
    return {int(x): p for x in labels}


def validate_connections(connections: Any, router_ports: int | Mapping[int, int] | None = None,
                         node_ports: int | Mapping[int, int] | None = None, *, full: bool = False) -> np.ndarray:
    """Check the notes' validity rules and return the canonical database.

    Rules, checked in this order (the first one broken raises):

    1. labels are non-zero (negative: compute node, positive: router);
    2. a compute node plugs into routers only (no pair of two compute nodes);
    3. no router is connected to itself;
    4. no pair appears twice: no compute node plugged twice into the same router, no doubled router
       link (starlib keeps the network a simple graph);
    5. port counts are respected: a router uses at most ``router_ports`` ports and a compute node at
       most ``node_ports`` (exactly, with ``full=True``: every port used); routers may differ;
    6. there are at least two compute nodes, and every compute node reaches every other through a path
       whose inner vertices are routers only.

    Parameters
    ----------
    connections : array-like of integer pairs.
    router_ports : ports per router (one int for all, or a mapping router label -> ports); None: unchecked.
    node_ports : ports per compute node (int or mapping); None: unchecked.
    full : require every port of the given port counts to be used (section 1.3 and 6.1 constraints).

    Returns
    -------
    numpy.ndarray
        The canonical ``(E, 2)`` database (:func:`canonical_connections`).

    Raises
    ------
    ValueError
        Naming the rule that is broken and the pair or node that breaks it.

    Examples
    --------
    >>> validate_connections(NOTES_EXAMPLE_CONNECTIONS).shape
    (8, 2)
    >>> try:
    ...     validate_connections([[-1, 4], [-1, 4], [-2, 4]])
    ... except ValueError as e:
    ...     print(e)
    connections: pair [-1, 4] appears 2 times; a compute node plugs into a router at most once

    References
    ----------
    Network-design notes, section 1.3 (constraints), section 4 ("features needed") and section 6.1.
    """
    rows = canonical_connections(connections)
    if np.any(rows == 0):
        raise ValueError("connections: label 0 is neither a compute node (negative) nor a router (positive)")
    cc = rows[:, 1] < 0
    if cc.any():
        a, b = rows[cc][0].tolist()
        raise ValueError(f"connections: pair [{a}, {b}] joins two compute nodes; compute nodes plug into routers only")
    loop = rows[:, 0] == rows[:, 1]
    if loop.any():
        raise ValueError(f"connections: router {int(rows[loop][0, 0])} is connected to itself")
    same = np.all(rows[1:] == rows[:-1], axis=1)
    if same.any():
        a, b = rows[1:][same][0].tolist()
        times = int(np.sum(np.all(rows == [a, b], axis=1)))
        what = ("a compute node plugs into a router at most once" if a < 0
                else "two routers are linked at most once")
        raise ValueError(f"connections: pair [{a}, {b}] appears {times} times; {what}")
    net = _index(rows)
    deg_nodes = np.bincount(net.ci, minlength=net.N)
    deg_routers = np.bincount(np.concatenate([net.cr, net.ru, net.rv]), minlength=net.M)
    for name, ports, labels, deg, kind in (("router_ports", router_ports, net.routers, deg_routers, "router"),
                                           ("node_ports", node_ports, net.nodes, deg_nodes, "compute node")):
        pm = _ports_map(name, ports, labels)
        if pm is None:
            continue
        used = {int(x): int(d) for x, d in zip(labels, deg, strict=True)}
        for lab in sorted(set(pm) | set(used), key=abs):
            have = pm.get(lab)
            u = used.get(lab, 0)
            if have is None:
                raise ValueError(f"{name}: {kind} {lab} is in the connections but has no port count")
            if u > have:
                raise ValueError(f"{name}: {kind} {lab} uses {u} ports but has {have}")
            if full and u < have:
                raise ValueError(f"{name}: {kind} {lab} uses {u} of its {have} ports; full=True requires all")
    if net.N < 2:
        raise ValueError(f"connections: need at least two compute nodes, got {net.N}")
    bad = _unreachable_pair(net)
    if bad is not None:
        a, b = (int(net.nodes[i]) for i in bad)
        raise ValueError(f"connections: compute nodes {a} and {b} cannot reach each other through routers")
    return rows


def is_valid_connections(connections: Any, router_ports: int | Mapping[int, int] | None = None,
                         node_ports: int | Mapping[int, int] | None = None, *, full: bool = False) -> bool:
    """True if :func:`validate_connections` accepts the database, False otherwise.

    Parameters
    ----------
    connections, router_ports, node_ports, full : as in :func:`validate_connections`.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_valid_connections([[-1, 1], [-2, 2]])     # two routers that are not linked
    False

    References
    ----------
    Network-design notes, sections 1.3, 4 and 6.1 (the validity rules).
    """
    try:
        validate_connections(connections, router_ports, node_ports, full=full)
    except ValueError:
        return False
    return True


def compute_nodes(connections: Any) -> list[int]:
    """Compute-node labels of a database, in the order -1, -2, ... (decreasing).

    Parameters
    ----------
    connections : array-like of integer pairs.

    Returns
    -------
    list of int

    Raises
    ------
    ValueError
        If ``connections`` is not a list of integer pairs.

    Examples
    --------
    >>> compute_nodes(NOTES_EXAMPLE_CONNECTIONS)
    [-1, -2, -3]
    """
    return _index(canonical_connections(connections)).nodes.tolist()


def router_labels(connections: Any) -> list[int]:
    """Router labels of a database, increasing.

    Parameters
    ----------
    connections : array-like of integer pairs.

    Returns
    -------
    list of int

    Raises
    ------
    ValueError
        If ``connections`` is not a list of integer pairs.

    Examples
    --------
    >>> router_labels(NOTES_EXAMPLE_CONNECTIONS)
    [1, 2, 3, 4, 5]
    """
    return _index(canonical_connections(connections)).routers.tolist()


def port_counts(connections: Any) -> dict[int, int]:
    """Ports in use at every node (compute nodes and routers), keyed by label in increasing label order.

    Parameters
    ----------
    connections : array-like of integer pairs.

    Returns
    -------
    dict
        label -> number of pairs it appears in.

    Raises
    ------
    ValueError
        If ``connections`` is not a list of integer pairs.

    Examples
    --------
    >>> port_counts(NOTES_EXAMPLE_CONNECTIONS)
    {-3: 1, -2: 2, -1: 1, 1: 2, 2: 2, 3: 2, 4: 3, 5: 3}
    """
    rows = canonical_connections(connections)
    lab, cnt = np.unique(rows.ravel(), return_counts=True)
    return {int(a): int(b) for a, b in zip(lab, cnt, strict=True)}


def to_array_graph(connections: Any, name: str = "netdesign", params: dict | None = None) -> ArrayGraph:
    """The database as an :class:`~starlib.graphs.ArrayGraph` (compute nodes -1, -2, ... first, then routers).

    ``meta["compute"]`` and ``meta["routers"]`` list the labels of each kind.

    Parameters
    ----------
    connections : a valid database.
    name, params : recorded on the graph.

    Returns
    -------
    ArrayGraph

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> g = to_array_graph(NOTES_EXAMPLE_CONNECTIONS)
    >>> g.n, g.m, g.labels[:3]
    (8, 8, [-1, -2, -3])
    """
    rows = validate_connections(connections)
    net = _index(rows)
    labels = net.nodes.tolist() + net.routers.tolist()
    pos = {lab: i for i, lab in enumerate(labels)}
    e = np.array([[pos[a], pos[b]] for a, b in rows.tolist()], dtype=np.int64)
    return ArrayGraph.from_edges(labels, e, name=name, params=dict(params or {}),
                                 meta={"compute": net.nodes.tolist(), "routers": net.routers.tolist()})


# ---------------------------------------------------------------------------------------------------------------
# section 8.2: hop counts through routers only
# ---------------------------------------------------------------------------------------------------------------
def router_hops(connections: Any, a: int, b: int, count: str = "routers") -> int:
    """Shortest route between compute nodes ``a`` and ``b`` whose inner vertices are routers only.

    The notes' method, literally: keep ``a``, ``b`` and all routers, drop every other compute node, and
    take the shortest path (breadth-first search in networkx).

    Parameters
    ----------
    connections : a valid database (:func:`validate_connections`).
    a, b : compute-node labels (negative).
    count : ``"routers"`` (routers on the route; section 1.3) or ``"links"`` (links; Fig. 21).

    Returns
    -------
    int
        0 when ``a == b``.

    Raises
    ------
    ValueError
        If the database is invalid, ``a`` or ``b`` is not one of its compute nodes, or ``count`` is unknown.

    Examples
    --------
    >>> router_hops(NOTES_EXAMPLE_CONNECTIONS, -1, -3), router_hops(NOTES_EXAMPLE_CONNECTIONS, -1, -3, "links")
    (5, 6)

    References
    ----------
    Network-design notes, section 8.2 ("Routes between compute nodes can only use positive nodes").
    """
    extra = _count_arg(count)
    rows = validate_connections(connections)
    nodes = set(rows[rows[:, 0] < 0, 0].tolist())
    for name, x in (("a", a), ("b", b)):
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or int(x) not in nodes:
            raise ValueError(f"{name}={x!r} is not a compute node of the connections (negative labels "
                             f"{sorted(nodes, reverse=True)})")
    a, b = int(a), int(b)
    if a == b:
        return 0
    keep = (rows[:, 0] > 0) | (rows[:, 0] == a) | (rows[:, 0] == b)
    g = nx.Graph()
    g.add_edges_from(map(tuple, rows[keep].tolist()))
    length = nx.shortest_path_length(g, a, b)
    return int(length - 2 + extra)


def _hop_matrix(net: _Net) -> np.ndarray:
    """Routers on the shortest router-only route between every two compute nodes (diagonal 0)."""
    att = np.unique(net.cr)
    pos = np.searchsorted(att, net.cr)
    adj = _router_adjacency(net)
    D = np.empty((len(att), len(att)))
    chunk = max(1, 4_000_000 // max(net.M, 1))
    for s in range(0, len(att), chunk):
        d = csgraph.shortest_path(adj, directed=False, unweighted=True, indices=att[s:s + chunk])
        D[s:s + chunk] = d[:, att]
    order = np.argsort(net.ci, kind="stable")
    ci, ps = net.ci[order], pos[order]
    deg = np.bincount(ci, minlength=net.N)
    start = np.concatenate([[0], np.cumsum(deg)[:-1]])
    nmax = int(deg.max())
    slot = np.minimum(np.arange(nmax)[None, :], deg[:, None] - 1)  # pad with the node's last port
    P = ps[start[:, None] + slot]  # (N, nmax) attachment positions
    Dn = D[P[:, 0]]
    for j in range(1, nmax):
        Dn = np.minimum(Dn, D[P[:, j]])
    H = Dn[:, P[:, 0]]
    for j in range(1, nmax):
        H = np.minimum(H, Dn[:, P[:, j]])
    H = H + 1
    np.fill_diagonal(H, 0)
    return H


def all_pairs_hops(connections: Any, count: str = "routers") -> tuple[list[int], np.ndarray]:
    """Router-only hop counts between all pairs of compute nodes.

    Breadth-first search over the router graph from every router that holds a compute node, then
    ``hops(a, b) = 1 + min over routers r of a, s of b of dist(r, s)`` in whole-array minima.

    Parameters
    ----------
    connections : a valid database.
    count : ``"routers"`` or ``"links"`` (see :func:`router_hops`).

    Returns
    -------
    labels : list of int
        Compute-node labels -1, -2, ... (row and column order).
    hops : numpy.ndarray
        ``(N, N)`` int64 matrix, zero diagonal.

    Raises
    ------
    ValueError
        If the database is invalid or ``count`` is unknown.

    Examples
    --------
    >>> labels, H = all_pairs_hops(NOTES_EXAMPLE_CONNECTIONS)
    >>> labels, H.tolist()
    ([-1, -2, -3], [[0, 1, 5], [1, 0, 1], [5, 1, 0]])

    Notes
    -----
    Time ``O(A (M + L))`` for ``A`` routers holding compute nodes and ``L`` router links; memory ``O(A^2 + N^2)``.

    References
    ----------
    Network-design notes, sections 5 and 8.3.1 (all-pairs shortest path).
    """
    extra = _count_arg(count)
    net = _index(validate_connections(connections))
    H = _hop_matrix(net)
    if extra == 2:
        H = H + 1
        np.fill_diagonal(H, 0)
    return net.nodes.tolist(), H.astype(np.int64)


@dataclass(frozen=True)
class HopStatistics:
    """Hop statistics over the ``pairs = N(N-1)/2`` unordered compute-node pairs.

    ``histogram[h]`` is the number of pairs at ``h`` hops; ``total`` the sum of hops over pairs, so
    ``mean = total / pairs`` exactly.
    """

    pairs: int
    total: int
    max: int
    histogram: dict[int, int]

    @property
    def mean(self) -> float:
        """Average hop count over pairs."""
        return self.total / self.pairs


def _stats_from_matrix(H: np.ndarray) -> HopStatistics:
    iu = np.triu_indices(H.shape[0], 1)
    h = H[iu].astype(np.int64)
    vals, cnt = np.unique(h, return_counts=True)
    hist = {int(v): int(c) for v, c in zip(vals, cnt, strict=True)}
    return HopStatistics(int(h.size), int(h.sum()), int(h.max()), hist)


def hop_statistics(connections: Any, count: str = "routers") -> HopStatistics:
    """Number of pairs, total, maximum and histogram of router-only hop counts over all compute-node pairs.

    Parameters
    ----------
    connections : a valid database.
    count : ``"routers"`` or ``"links"``.

    Returns
    -------
    HopStatistics

    Raises
    ------
    ValueError
        If the database is invalid or ``count`` is unknown.

    Examples
    --------
    >>> s = hop_statistics(single_port_network([], [5]))    # Fig. 3: one 5-port router
    >>> s.pairs, s.histogram
    (10, {1: 10})

    References
    ----------
    Network-design notes, section 1.3 (Figs. 3-6) and section 1.4 (N(N-1)/2 pairs).
    """
    return _stats_from_matrix(all_pairs_hops(connections, count)[1])


# ---------------------------------------------------------------------------------------------------------------
# constructions
# ---------------------------------------------------------------------------------------------------------------
def single_port_network(router_links: Any, loads: Sequence[int]) -> np.ndarray:
    """A network of one-port compute nodes: routers ``1..len(loads)``, ``loads[i]`` nodes on router ``i+1``.

    Compute nodes are numbered -1, -2, ... router by router.

    Parameters
    ----------
    router_links : pairs of router labels (may be empty).
    loads : number of compute nodes on each router (each ``>= 0``).

    Returns
    -------
    numpy.ndarray
        The validated canonical database.

    Raises
    ------
    ValueError
        If a load is negative, a link names a router outside ``1..len(loads)`` or the result is invalid.

    Examples
    --------
    >>> single_port_network([[1, 2]], [1, 2]).tolist()
    [[-3, 2], [-2, 2], [-1, 1], [1, 2]]

    References
    ----------
    Network-design notes, section 1.3 (Figs. 3-6) and section 6.1 (Figs. 10-13).
    """
    loads = [_int(f"loads[{i}]", x, 0) for i, x in enumerate(loads)]
    R = len(loads)
    links = np.asarray(router_links, dtype=np.int64).reshape(-1, 2)
    if links.size and (links.min() < 1 or links.max() > R):
        raise ValueError(f"router_links: labels must be routers 1..{R} (one per entry of loads)")
    router_of = np.repeat(np.arange(1, R + 1), loads)
    comp = np.stack([-np.arange(1, len(router_of) + 1), router_of], axis=1)
    return validate_connections(np.concatenate([comp, links]))


def daisy_chain(N: int, m: int) -> np.ndarray:
    """The notes' "Solution 2": ``min_routers(N, m)`` routers of ``m`` ports in a path, ``N`` one-port nodes.

    The end routers hold ``m - 1`` nodes and the inner ones ``m - 2``, filled from router 1; the last
    router takes the remainder (between 2 and ``m - 1`` nodes), so empty ports sit on the last router.
    With ``N <= m`` it is a single router holding all nodes.

    Parameters
    ----------
    N : number of compute nodes, ``N >= 3``.
    m : ports per router, ``m > 2``.

    Returns
    -------
    numpy.ndarray
        The validated canonical database.

    Raises
    ------
    ValueError
        As :func:`min_routers`.

    Examples
    --------
    >>> db = daisy_chain(11, 5)                     # Fig. 12: 4 + 3 + 4
    >>> len(router_labels(db)), hop_statistics(db).max
    (3, 3)

    References
    ----------
    Network-design notes, section 6.1, Figs. 10-13 and eqs. (6)-(7).
    """
    M = min_routers(N, m)
    if M == 1:
        loads = [N]
    else:
        loads = [m - 1] + [m - 2] * (M - 2)
        loads.append(N - sum(loads))
    links = [[i, i + 1] for i in range(1, M)]
    db = single_port_network(links, loads)
    return validate_connections(db, router_ports=m, node_ports=1)


def tree_network(N: int, m: int, n: int = 1) -> np.ndarray:
    """The notes' "Solution 1" network, with exactly ``max_routers(N, m, n)`` routers.

    Every compute node ``c`` plugs each of its ``n`` ports into the root of a private complete
    ``(m-1)``-ary tree of routers with ``k = tree_levels(N, m, n)`` levels (``M' = n sum (m-1)^(a-1)``
    routers per node, eq. 9). The leaves of ``c``'s trees offer ``n (m-1)^k >= N - 1`` free ports;
    for every pair ``c, d`` one leaf port of ``c`` is linked to one leaf port of ``d`` (partners dealt
    round-robin over the ``n`` trees). Every route then passes ``2k`` routers; leaf ports left over are
    the "empty router ports" the notes attribute to the ceiling in eq. (5).

    Router labels: ``1 + (c n + j) M'/n + t`` for node index ``c`` (label ``-(c+1)``), tree ``j`` and
    breadth-first position ``t`` in the tree.

    Parameters
    ----------
    N : number of compute nodes, ``N > 2``.
    m : ports per router, ``m > 2``.
    n : ports per compute node, ``1 <= n < N - 1`` (``n = N - 1`` needs no routers at all).

    Returns
    -------
    numpy.ndarray
        The validated canonical database.

    Raises
    ------
    ValueError
        If the parameters violate the rules of :func:`max_routers` or ``n = N - 1``.

    Examples
    --------
    >>> db = tree_network(5, 5)        # Fig. 7, once per compute node: five routers in a complete graph
    >>> len(router_labels(db)) == max_routers(5, 5), hop_statistics(db).histogram
    (True, {2: 10})

    References
    ----------
    Network-design notes, section 6.1 eqs. (1)-(5), Figs. 7-9, and section 6.2 eqs. (8)-(12), Figs. 14-15.
    """
    N, m, n = _tree_args(N, m, n)
    k = tree_levels(N, m, n)
    if k == 0:
        raise ValueError(f"n={n} = N - 1: every node links directly to every other and no router is needed; "
                         "the connection database has no compute-to-compute pairs")
    b = m - 1
    T = (b**k - 1) // (b - 1)  # routers per tree
    first_leaf = T - b ** (k - 1)
    trees = N * n
    base = 1 + np.arange(trees, dtype=np.int64) * T  # label of each tree's root, tree index = c n + j
    # compute links
    comp = np.stack([-(np.arange(trees) // n + 1), base], axis=1)
    # tree links: child t (1..T-1) to parent (t-1)//b
    t = np.arange(1, T, dtype=np.int64)
    par = (t - 1) // b
    inner = np.stack([(base[:, None] + par[None, :]).ravel(), (base[:, None] + t[None, :]).ravel()], axis=1)
    # cross links between the leaves of c's and d's trees
    c, d = np.triu_indices(N, 1)
    q1, q2 = d - 1, c  # position of d in c's partner list, of c in d's

    def leaf(node: np.ndarray, q: np.ndarray) -> np.ndarray:
        j, s = q % n, q // n
        return base[node * n + j] + first_leaf + s // b

    cross = np.stack([leaf(c, q1), leaf(d, q2)], axis=1)
    db = np.concatenate([comp, inner, cross])
    return validate_connections(db, router_ports=m, node_ports=n, full=False)


def random_network(N: int, n: int, M: int, m: int | Sequence[int], seed: int | np.random.Generator | None = None,
                   *, max_tries: int = 200) -> np.ndarray:
    """A random valid network of ``N`` compute nodes with ``n`` ports each and ``M`` routers.

    Routers are connected first (a random spanning tree, so the all-to-all rule holds by
    construction), then every compute node plugs its ``n`` ports into ``n`` distinct routers chosen
    with probability proportional to their free ports, and the remaining router ports are paired at
    random; a pair that would be a self-link or a doubled link is left empty.

    Parameters
    ----------
    N : compute nodes, ``N >= 2``.
    n : ports per compute node, ``1 <= n <= M``.
    M : routers, ``M >= 1``.
    m : ports per router: one int, or a sequence of ``M`` ints (routers may differ).
    seed : seed or numpy Generator.
    max_tries : attempts before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical database; every compute port is used, router ports are at most ``m``.

    Raises
    ------
    ValueError
        If ``N n + 2 (M - 1)`` router ports (compute ports plus a spanning tree) exceed the ``sum(m)``
        available, or another parameter rule is broken.
    RuntimeError
        If no valid network was drawn in ``max_tries`` attempts.

    Examples
    --------
    >>> db = random_network(12, 2, 6, 6, seed=1)
    >>> len(compute_nodes(db)), len(router_labels(db)), is_valid_connections(db, router_ports=6, node_ports=2)
    (12, 6, True)

    References
    ----------
    Network-design notes, section 4 ("random network creation").
    """
    N = _int("N", N, 2, "N >= 2")
    M = _int("M", M, 1, "M >= 1")
    n = _int("n", n, 1, "n >= 1")
    if n > M:
        raise ValueError(f"n={n} violates the rule n <= M = {M}: a compute node plugs into distinct routers")
    if isinstance(m, (int, np.integer)) and not isinstance(m, bool):
        caps = np.full(M, _int("m", m, 1, "m >= 1"), dtype=np.int64)
    else:
        caps = np.array([_int(f"m[{i}]", x, 1, f"m[{i}] >= 1") for i, x in enumerate(m)], dtype=np.int64)
        if len(caps) != M:
            raise ValueError(f"m has {len(caps)} entries; it must have one per router (M={M})")
    need = N * n + 2 * (M - 1)
    if need > caps.sum():
        raise ValueError(f"m: the {int(caps.sum())} router ports cannot hold N*n = {N * n} compute ports plus "
                         f"2(M-1) = {2 * (M - 1)} ports of a spanning tree (rule N n + 2(M-1) <= sum of m)")
    if M == 1 and N * n > caps[0]:
        raise ValueError(f"N={N}: one router with {int(caps[0])} ports cannot hold {N * n} compute ports")
    max_tries = _int("max_tries", max_tries, 1)
    rng = np.random.default_rng(seed)
    for _ in range(max_tries):
        db = _draw_network(N, n, M, caps, rng)
        if db is not None and is_valid_connections(db, {i + 1: int(c) for i, c in enumerate(caps)}, n):
            return canonical_connections(db)
    raise RuntimeError(f"random_network: no valid network with N={N}, n={n}, M={M} in {max_tries} tries")


def _draw_network(N: int, n: int, M: int, caps: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    free = caps.copy()
    links: list[tuple[int, int]] = []
    order = rng.permutation(M)
    for i in range(1, M):
        prev = order[:i]
        w = free[prev].astype(float)
        w[w <= 1] = 0.0  # keep a port for later; a router needs >= 1 port for its own tree link
        if w.sum() == 0:
            w = free[prev].astype(float)
            if w.sum() == 0:
                return None
        p = prev[rng.choice(i, p=w / w.sum())]
        u = order[i]
        links.append((min(p, u), max(p, u)))
        free[p] -= 1
        free[u] -= 1
    comp = np.empty((N * n, 2), dtype=np.int64)
    for c in range(N):
        avail = np.flatnonzero(free > 0)
        if len(avail) < n:
            return None
        w = free[avail].astype(float)
        pick = avail[rng.choice(len(avail), size=n, replace=False, p=w / w.sum())]
        free[pick] -= 1
        comp[c * n:(c + 1) * n] = np.stack([np.full(n, -(c + 1)), pick + 1], axis=1)
    have = set(links)
    stubs = np.repeat(np.arange(M), free)
    rng.shuffle(stubs)
    for a, b in zip(stubs[0::2].tolist(), stubs[1::2].tolist(), strict=False):  # odd stub: empty port
        e = (min(a, b), max(a, b))
        if a != b and e not in have:
            have.add(e)
            links.append(e)
    rr = np.array(sorted(have), dtype=np.int64).reshape(-1, 2) + 1
    return np.concatenate([comp, rr])


# ---------------------------------------------------------------------------------------------------------------
# section 7: alterations
# ---------------------------------------------------------------------------------------------------------------
def _keys(rows: np.ndarray, off: int, width: int) -> np.ndarray:
    return (rows[:, 0] + off) * width + (rows[:, 1] + off)


def _try_rewire(rows: np.ndarray, remove: np.ndarray, new: np.ndarray) -> np.ndarray | None:
    """The database with rows ``remove`` (indices) replaced by ``new`` pairs, or None if that is invalid."""
    new = np.sort(np.asarray(new, dtype=np.int64).reshape(-1, 2), axis=1)
    if np.any(new[:, 0] == new[:, 1]) or np.any(new[:, 1] < 0) or np.any(new == 0):
        return None
    keep = np.ones(len(rows), dtype=bool)
    keep[remove] = False
    out = np.concatenate([rows[keep], new])
    off = int(-out.min()) + 1
    width = int(out.max()) + off + 1
    k = _keys(out, off, width)
    if len(np.unique(k)) != len(k):
        return None
    out = out[np.lexsort((out[:, 1], out[:, 0]))]
    net = _index(out)
    if net.N != len(np.unique(rows[rows[:, 0] < 0, 0])) or _unreachable_pair(net) is not None:
        return None
    return out


def rewire(connections: Any, remove: Any, add: Any) -> np.ndarray:
    """Replace the pairs ``remove`` by the pairs ``add`` and check that the result is valid.

    The three alterations are rewirings that keep every node's port count; this is the building block
    for applying a chosen one by hand.

    Parameters
    ----------
    connections : a valid database.
    remove : pairs present in the database (each removed once).
    add : pairs to add.

    Returns
    -------
    numpy.ndarray
        The canonical new database.

    Raises
    ------
    ValueError
        If a pair to remove is absent, or the new database breaks a rule of :func:`validate_connections`.

    Examples
    --------
    >>> db = single_port_network([[1, 2]], [2, 2])       # -1,-2 on router 1; -3,-4 on router 2
    >>> rewire(db, [[-1, 1], [-3, 2]], [[-1, 2], [-3, 1]]).tolist()
    [[-4, 2], [-3, 1], [-2, 1], [-1, 2], [1, 2]]

    References
    ----------
    Network-design notes, section 7.
    """
    rows = validate_connections(connections)
    rem = canonical_connections(remove) if np.size(remove) else np.zeros((0, 2), dtype=np.int64)
    idx = []
    taken = np.zeros(len(rows), dtype=bool)
    for a, b in rem.tolist():
        hit = np.flatnonzero(np.all(rows == [a, b], axis=1) & ~taken)
        if hit.size == 0:
            raise ValueError(f"remove: pair [{a}, {b}] is not in the connections")
        taken[hit[0]] = True
        idx.append(int(hit[0]))
    keep = rows[~taken]
    added = canonical_connections(add) if np.size(add) else np.zeros((0, 2), dtype=np.int64)
    return validate_connections(np.concatenate([keep, added]))


def _ends(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row, column) whose label is a router: the 'router end' of a pair."""
    r, c = np.nonzero(rows > 0)
    return r, c


def _propose_compute(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    cl = np.flatnonzero(rows[:, 0] < 0)
    if len(cl) < 2:
        return None
    i, j = rng.choice(cl, size=2, replace=False)
    (cA, s1), (cB, s2) = rows[i].tolist(), rows[j].tolist()
    if cA == cB or s1 == s2:
        return None
    return _try_rewire(rows, np.array([i, j]), [[cA, s2], [cB, s1]])


def _propose_router(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    r, c = _ends(rows)
    if len(r) < 2:
        return None
    e1, e2 = rng.choice(len(r), size=2, replace=False)
    i, j = int(r[e1]), int(r[e2])
    s1, X = int(rows[i, c[e1]]), int(rows[i, 1 - c[e1]])
    s2, Y = int(rows[j, c[e2]]), int(rows[j, 1 - c[e2]])
    if i == j or s1 == s2 or X == Y:
        return None
    return _try_rewire(rows, np.array([i, j]), [[s1, Y], [s2, X]])


def _propose_set(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    r, c = _ends(rows)
    if len(r) < 4:
        return None
    lab = rows[r, c]

    def pick_two() -> tuple[int, list[int], list[int]] | None:
        e = int(rng.integers(len(r)))
        s = int(lab[e])
        others = np.flatnonzero((lab == s) & (r != r[e]))
        if others.size == 0:
            return None
        f = int(others[rng.integers(others.size)])
        idx = [int(r[e]), int(r[f])]
        far = [int(rows[r[e], 1 - c[e]]), int(rows[r[f], 1 - c[f]])]
        return s, idx, far

    A, B = pick_two(), pick_two()
    if A is None or B is None:
        return None
    (s1, i1, X), (s2, i2, Y) = A, B
    if s1 == s2 or set(i1) & set(i2) or set(X) & set(Y):
        return None
    new = [[s1, Y[0]], [s1, Y[1]], [s2, X[0]], [s2, X[1]]]
    return _try_rewire(rows, np.array(i1 + i2), new)


def set_swap_decompositions(connections: Any) -> list[dict[str, Any]]:
    """Every valid set swap of section 7.3 and how many of its four single-swap first steps are valid.

    A set swap ``[s1, X1], [s1, X2], [s2, Y1], [s2, Y2] -> [s1, Y1], [s1, Y2], [s2, X1], [s2, X2]`` has the
    same result as two single swaps (``X1 <-> Y1`` then ``X2 <-> Y2``, or ``X1 <-> Y2`` then ``X2 <-> Y1``, in
    either order). If none of the four possible first swaps gives a valid network, the set swap reaches a
    network the single swaps cannot reach through valid states: the notes' question "is swapping multiple
    ports distinct from performing the same number of swaps on individual port pairs?".

    Parameters
    ----------
    connections : a valid database (small: every pair of routers and pairs of their links is tried).

    Returns
    -------
    list of dict
        ``s1, X, s2, Y`` (``X``, ``Y`` sorted pairs of far ends, ``s1 < s2``) and ``valid_first_steps``
        (0 to 4), one entry per valid set swap.

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> db = single_port_network([[1, 2]], [2, 2])      # -1, -2 on router 1; -3, -4 on router 2
    >>> set_swap_decompositions(db)
    [{'s1': 1, 'X': (-2, -1), 's2': 2, 'Y': (-4, -3), 'valid_first_steps': 4}]

    References
    ----------
    Network-design notes, section 7.3 (the question after the steps).
    """
    rows = validate_connections(connections)
    far: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(rows.tolist()):
        for s, x in ((a, b), (b, a)):
            if s > 0:
                far.setdefault(s, []).append((x, i))
    out = []
    for s1, s2 in itertools.combinations(sorted(far), 2):
        for (x1, i1), (x2, i2) in itertools.combinations(far[s1], 2):
            for (y1, j1), (y2, j2) in itertools.combinations(far[s2], 2):
                if {x1, x2} & {y1, y2} or {i1, i2} & {j1, j2}:
                    continue
                new = [[s1, y1], [s1, y2], [s2, x1], [s2, x2]]
                if _try_rewire(rows, np.array([i1, i2, j1, j2]), new) is None:
                    continue
                steps = 0
                for (x, i), (y, j) in itertools.product(((x1, i1), (x2, i2)), ((y1, j1), (y2, j2))):
                    steps += _try_rewire(rows, np.array([i, j]), [[s1, y], [s2, x]]) is not None
                out.append({"s1": s1, "X": tuple(sorted((x1, x2))), "s2": s2, "Y": tuple(sorted((y1, y2))),
                            "valid_first_steps": steps})
    return out


_PROPOSERS = {"compute": _propose_compute, "router": _propose_router, "set": _propose_set}


def alter(connections: Any, move: str, seed: int | np.random.Generator | None = None, *,
          max_tries: int = 100) -> np.ndarray:
    """Apply one random alteration of kind ``move`` (``"compute"``, ``"router"`` or ``"set"``).

    Proposals are drawn as in the notes (random pairs, the inequality checks, then the validity check
    of the rearranged database) until one is valid; if none is within ``max_tries`` the database is
    returned unchanged. Every alteration keeps each node's port count.

    Parameters
    ----------
    connections : a valid database.
    move : one of :data:`MOVES`.
    seed : seed or numpy Generator.
    max_tries : proposals before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical altered database (valid).

    Raises
    ------
    ValueError
        If the database is invalid or ``move`` is unknown.

    Examples
    --------
    >>> db = random_network(10, 1, 4, 5, seed=0)
    >>> new = alter(db, "router", seed=3)
    >>> is_valid_connections(new), port_counts(new) == port_counts(db)
    (True, True)

    References
    ----------
    Network-design notes, sections 7.1-7.3.
    """
    if move not in _PROPOSERS:
        raise ValueError(f"move={move!r} must be one of {', '.join(MOVES)}")
    max_tries = _int("max_tries", max_tries, 1)
    rows = validate_connections(connections)
    rng = np.random.default_rng(seed)
    return _alter_rows(rows, move, rng, max_tries)


def _alter_rows(rows: np.ndarray, move: str, rng: np.random.Generator, max_tries: int) -> np.ndarray:
    prop = _PROPOSERS[move]
    for _ in range(max_tries):
        out = prop(rows, rng)
        if out is not None:
            return out
    return rows.copy()


def swap_compute_connections(connections: Any, seed: int | np.random.Generator | None = None, *,
                             max_tries: int = 100) -> np.ndarray:
    """Section 7.1: ``[cA, s1], [cB, s2] -> [cA, s2], [cB, s1]`` for random compute links (cA != cB, s1 != s2).

    Returns a valid database; unchanged if no valid proposal was found in ``max_tries``.

    Parameters
    ----------
    connections : a valid database.
    seed : seed or numpy Generator.
    max_tries : proposals before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical altered database.

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> db = single_port_network([[1, 2]], [2, 2])
    >>> new = swap_compute_connections(db, seed=0)
    >>> port_counts(new) == port_counts(db), bool((new != db).any())
    (True, True)

    References
    ----------
    Network-design notes, section 7.1.
    """
    return alter(connections, "compute", seed, max_tries=max_tries)


def swap_router_connections(connections: Any, seed: int | np.random.Generator | None = None, *,
                            max_tries: int = 100) -> np.ndarray:
    """Section 7.2: ``[s1, X], [s2, Y] -> [s1, Y], [s2, X]`` for random router ends s1 != s2, X != Y.

    ``X`` and ``Y`` may be compute nodes or routers, so this move contains the one of section 7.1.
    Returns a valid database; unchanged if no valid proposal was found in ``max_tries``.

    Parameters
    ----------
    connections : a valid database.
    seed : seed or numpy Generator.
    max_tries : proposals before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical altered database.

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> db = random_network(10, 1, 4, 5, seed=0)
    >>> is_valid_connections(swap_router_connections(db, seed=1), router_ports=5, node_ports=1)
    True

    References
    ----------
    Network-design notes, section 7.2.
    """
    return alter(connections, "router", seed, max_tries=max_tries)


def swap_connection_sets(connections: Any, seed: int | np.random.Generator | None = None, *,
                         max_tries: int = 100) -> np.ndarray:
    """Section 7.3: ``[s1, X1], [s1, X2], [s2, Y1], [s2, Y2] -> [s1, Y1], [s1, Y2], [s2, X1], [s2, X2]``.

    Requires ``s1 != s2`` and ``{X1, X2}`` disjoint from ``{Y1, Y2}`` (the notes list three of these four
    inequalities; their step 4 names ``[s1, Y2]`` where ``[s2, Y2]`` is meant).
    Returns a valid database; unchanged if no valid proposal was found in ``max_tries``.

    Parameters
    ----------
    connections : a valid database.
    seed : seed or numpy Generator.
    max_tries : proposals before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical altered database.

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> db = random_network(12, 1, 4, 6, seed=2)
    >>> is_valid_connections(swap_connection_sets(db, seed=5), router_ports=6, node_ports=1)
    True

    References
    ----------
    Network-design notes, section 7.3.
    """
    return alter(connections, "set", seed, max_tries=max_tries)


# ---------------------------------------------------------------------------------------------------------------
# section 8: fitness
# ---------------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BisectionResult:
    """The smallest number of links cut to separate two halves of the compute nodes.

    ``half`` is the side (compute labels) holding node -1 in a minimising bisection; ``evaluated`` the
    number of compute splits examined out of ``total = balanced_bipartitions(N)``; ``confidence`` 1 for
    an exact search, else ``bisection_confidence(evaluated, total)``: the probability that a given
    minimising split was among the samples (a lower bound on finding the minimum).
    """

    width: int
    half: tuple[int, ...]
    evaluated: int
    total: int
    exact: bool
    confidence: float


def _incidence(net: _Net) -> np.ndarray:
    att = np.zeros((net.N, net.M), dtype=np.int64)
    np.add.at(att, (net.ci, net.cr), 1)
    return att


def _cut_enumerate(X: np.ndarray, net: _Net) -> np.ndarray:
    """Min cut for each compute split (rows of X: 1 = side A), over all 2^M router sides, in whole arrays.

    With ``a_r`` links from side-A nodes to router ``r`` and ``d_r`` compute links at ``r``, placing the
    routers by the 0/1 vector ``S`` (1 = side A) cuts ``sum_r a_r (1 - S_r) + (d_r - a_r) S_r`` compute links
    plus the router links with ends on different sides: ``a (1 - 2S) + d S + L(S)``, one matrix product.
    """
    M = net.M
    S = ((np.arange(2**M)[:, None] >> np.arange(M)[None, :]) & 1).astype(np.float32)  # router on side A
    L = np.zeros(2**M, dtype=np.float32)
    for u, v in zip(net.ru.tolist(), net.rv.tolist(), strict=True):
        L += np.abs(S[:, u] - S[:, v])
    att = _incidence(net).astype(np.float32)  # small integers: float32 sums are exact
    const = att.sum(axis=0) @ S.T + L  # d S + L(S)
    W = np.ascontiguousarray((1.0 - 2.0 * S).T)
    A = X.astype(np.float32) @ att  # links from side-A nodes to each router
    out = np.empty(len(X), dtype=np.int64)
    chunk = max(1, 2**16 // 2**M)  # keep each block of costs in cache
    for s in range(0, len(X), chunk):
        cost = A[s:s + chunk] @ W
        cost += const
        out[s:s + chunk] = np.rint(cost.min(axis=1)).astype(np.int64)
    return out


def _cut_flow(X: np.ndarray, net: _Net) -> np.ndarray:
    """Min cut for each compute split by maximum flow (scipy), for networks with many routers."""
    N, M = net.N, net.M
    src, snk = N + M, N + M + 1
    u = np.concatenate([net.ci, N + net.ru])
    v = np.concatenate([N + net.cr, N + net.rv])
    big = len(net.rows) + 1
    rows_ = np.concatenate([u, v, np.full(N, src), np.arange(N)])
    cols_ = np.concatenate([v, u, np.arange(N), np.full(N, snk)])
    data = np.concatenate([np.ones(2 * len(u), dtype=np.int32), np.zeros(2 * N, dtype=np.int32)])
    g = sp.csr_matrix((data, (rows_, cols_)), shape=(N + M + 2, N + M + 2))
    g.sort_indices()
    # positions of the source and sink arcs in g.data
    coo_pos = {}
    indptr, indices = g.indptr, g.indices
    for node in range(N):
        lo, hi = indptr[src], indptr[src + 1]
        coo_pos.setdefault("s", {})[node] = lo + int(np.searchsorted(indices[lo:hi], node))
        lo, hi = indptr[node], indptr[node + 1]
        coo_pos.setdefault("t", {})[node] = lo + int(np.searchsorted(indices[lo:hi], snk))
    ps = np.array([coo_pos["s"][i] for i in range(N)])
    pt = np.array([coo_pos["t"][i] for i in range(N)])
    out = np.empty(len(X), dtype=np.int64)
    for k, x in enumerate(X.astype(bool)):
        g.data[ps] = np.where(x, big, 0)
        g.data[pt] = np.where(x, 0, big)
        out[k] = csgraph.maximum_flow(g, src, snk).flow_value
    return out


@functools.lru_cache(maxsize=8)
def _splits_all(N: int) -> np.ndarray:
    """Every balanced split of ``N`` compute nodes as a 0/1 matrix, node 0 always on side A (read-only)."""
    P = balanced_bipartitions(N)
    X = np.zeros((P, N), dtype=np.int8)
    X[:, 0] = 1
    if N > 2:
        idx = np.array(list(itertools.combinations(range(1, N), N // 2 - 1)), dtype=np.int64)
        np.put_along_axis(X, idx, 1, axis=1)
    X.setflags(write=False)
    return X


def _splits_sampled(N: int, picks: int, rng: np.random.Generator) -> np.ndarray:
    order = np.argsort(rng.random((picks, N)), axis=1)
    X = np.zeros((picks, N), dtype=np.int8)
    np.put_along_axis(X, order[:, : N // 2], 1, axis=1)
    flip = X[:, 0] == 0
    X[flip] = 1 - X[flip]
    return X


def _min_cuts(X: np.ndarray, net: _Net, inner: str) -> np.ndarray:
    if inner == "auto":
        inner = "enumerate" if net.M <= 12 else "flow"
    return _cut_enumerate(X, net) if inner == "enumerate" else _cut_flow(X, net)


def bisection_width(connections: Any, *, method: str = "auto", picks: int | None = None,
                    confidence: float | None = None, seed: int | np.random.Generator | None = None,
                    exact_limit: int = 6435, inner: str = "auto") -> BisectionResult:
    """Bisection width: the fewest links whose removal separates two halves of the compute nodes.

    For one split of the compute nodes the routers may sit on either side; the best placement is a
    minimum cut, found exactly (``inner="enumerate"``: all ``2^M`` router sides in whole arrays, used
    for ``M <= 12``; ``inner="flow"``: maximum flow). Over the splits: ``method="exact"`` examines all
    ``balanced_bipartitions(N)`` of them; ``method="sampled"`` draws ``picks`` uniform random splits
    with replacement (or as many as :func:`bisection_picks` needs for ``confidence``) and states the
    confidence of eq. (17); ``"auto"`` is exact when there are at most ``exact_limit`` splits.
    A sampled width is an upper bound on the true one.

    Parameters
    ----------
    connections : a valid database with an even number of compute nodes.
    method : ``"auto"``, ``"exact"`` or ``"sampled"``.
    picks : number of sampled splits (sampled mode).
    confidence : desired confidence in (0, 1) instead of ``picks`` (sampled mode).
    seed : seed or numpy Generator for the samples.
    exact_limit : largest number of splits searched exhaustively by ``"auto"`` (default: N = 16).
    inner : ``"auto"``, ``"enumerate"`` or ``"flow"`` (min cut for one split).

    Returns
    -------
    BisectionResult

    Raises
    ------
    ValueError
        If the database is invalid, ``N`` is odd, ``confidence`` is outside (0, 1), sampled mode lacks
        ``picks``/``confidence`` or needs more than 10^7 picks, or an option is unknown.

    Examples
    --------
    >>> bisection_width(single_port_network([], [4])).width          # cut two nodes off the router
    2
    >>> bisection_width(single_port_network([[1, 2]], [2, 2])).width  # cut the router link
    1

    References
    ----------
    Network-design notes, section 8.1 (Thompson's bisection of the compute nodes) and 8.1.1.
    """
    if method not in ("auto", "exact", "sampled"):
        raise ValueError(f"method={method!r} must be 'auto', 'exact' or 'sampled'")
    if inner not in ("auto", "enumerate", "flow"):
        raise ValueError(f"inner={inner!r} must be 'auto', 'enumerate' or 'flow'")
    rows = validate_connections(connections)
    net = _index(rows)
    N = net.N
    if N % 2:
        raise ValueError(f"N={N} compute nodes is odd: a bisection needs an even number of compute nodes")
    total = balanced_bipartitions(N)
    if picks is not None and confidence is not None:
        raise ValueError("picks and confidence: give one of them, not both")
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, (int, float, Fraction)) or not (
                0 < confidence < 1):
            raise ValueError(f"confidence={confidence!r} violates the rule 0 < confidence < 1")
    if picks is not None:
        picks = _int("picks", picks, 1, "picks >= 1")
    exact_limit = _int("exact_limit", exact_limit, 0)
    exact = method == "exact" or (method == "auto" and total <= exact_limit)
    if exact:
        X = _splits_all(N)
    else:
        if picks is None:
            if confidence is None:
                raise ValueError(f"picks: N={N} has {total} bisections (> exact_limit={exact_limit}); give picks "
                                 "or confidence for a sampled search")
            picks = bisection_picks(confidence, total)
            if picks > _MAX_PICKS:
                raise ValueError(f"confidence={confidence} needs {picks} picks among U={total} bisections, "
                                 f"more than the limit {_MAX_PICKS}; give picks and accept a stated confidence")
        X = _splits_sampled(N, picks, np.random.default_rng(seed))
    cuts = _min_cuts(X, net, inner)
    best = int(np.argmin(cuts))
    half = tuple(int(lab) for lab in net.nodes[X[best].astype(bool)])
    conf = 1.0 if exact else bisection_confidence(len(X), total)
    return BisectionResult(int(cuts[best]), half, int(len(X)), total, exact, conf)


def cut_width(connections: Any, half: Sequence[int], *, inner: str = "auto") -> int:
    """Fewest links to cut to separate the compute nodes ``half`` from the others, routers placed freely.

    The minimum cut for one split of the compute nodes (the quantity :func:`bisection_width` minimises
    over splits); useful to bound a bisection width by a split chosen by hand.

    Parameters
    ----------
    connections : a valid database.
    half : compute-node labels on one side (a non-empty proper subset; ``N/2`` of them for a bisection).
    inner : ``"auto"``, ``"enumerate"`` (all ``2^M`` router sides) or ``"flow"`` (maximum flow).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If the database is invalid, ``half`` names a label that is not a compute node, is empty or holds all
        compute nodes, or ``inner`` is unknown.

    Examples
    --------
    >>> cut_width(daisy_chain(11, 5), [-1, -2, -3, -4])    # the first router's nodes: cut one router link
    1

    References
    ----------
    Network-design notes, section 8.1 ("determine how many cuts need to be made to separate the two halves").
    """
    if inner not in ("auto", "enumerate", "flow"):
        raise ValueError(f"inner={inner!r} must be 'auto', 'enumerate' or 'flow'")
    net = _index(validate_connections(connections))
    pos = {int(c): i for i, c in enumerate(net.nodes)}
    side = set()
    for c in half:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or int(c) not in pos:
            raise ValueError(f"half: {c!r} is not a compute node of the connections")
        side.add(pos[int(c)])
    if not side or len(side) == net.N:
        raise ValueError(f"half has {len(side)} of the {net.N} compute nodes; it must be a non-empty proper subset")
    X = np.zeros((1, net.N), dtype=np.int8)
    X[0, sorted(side)] = 1
    return int(_min_cuts(X, net, inner)[0])


def network_cost(connections: Any, router_cost: float = 1.0, link_cost: float = 0.0) -> float:
    """Cost of a network: ``router_cost`` per router plus ``link_cost`` per connection (cable).

    Parameters
    ----------
    connections : a valid database.
    router_cost, link_cost : unit prices (non-negative).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the database is invalid or a price is negative.

    Examples
    --------
    >>> network_cost(NOTES_EXAMPLE_CONNECTIONS, router_cost=100, link_cost=1)    # 5 routers, 8 cables
    508.0

    References
    ----------
    Network-design notes, section 8.4 eq. (22) (the "cost" term).
    """
    for name, v in (("router_cost", router_cost), ("link_cost", link_cost)):
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
            raise ValueError(f"{name}={v!r} must be a non-negative number")
    rows = validate_connections(connections)
    net = _index(rows)
    return float(router_cost * net.M + link_cost * len(rows))


@dataclass(frozen=True)
class _Scorer:
    weights: tuple[float, float, float]
    latency: str
    count: str
    picks: int | None
    seed: int
    router_cost: float
    link_cost: float
    exact_limit: int

    def parts(self, rows: np.ndarray) -> dict[str, float]:
        net = _index(rows)
        a, b, c = self.weights
        out: dict[str, float] = {"cost": float(self.router_cost * net.M + self.link_cost * len(rows))}
        H = _hop_matrix(net) + (1 if self.count == "links" else 0)
        np.fill_diagonal(H, 0)
        st = _stats_from_matrix(H)
        out["mean_hops"], out["max_hops"] = st.mean, float(st.max)
        if c != 0:
            out["bisection"] = float(bisection_width(rows, picks=self.picks, seed=self.seed,
                                                     exact_limit=self.exact_limit).width)
        else:
            out["bisection"] = float("nan")
        lat = out["mean_hops"] if self.latency == "mean" else out["max_hops"]
        out["score"] = a * out["cost"] + b * lat - (c * out["bisection"] if c != 0 else 0.0)
        return out


def _scorer(weights: Sequence[float], latency: str, count: str, picks: int | None, seed: int,
            router_cost: float, link_cost: float, exact_limit: int) -> _Scorer:
    if len(weights) != 3 or any(isinstance(w, bool) or not isinstance(w, (int, float)) for w in weights):
        raise ValueError(f"weights={weights!r} must be three numbers (a, b, c) for cost, latency, bisection")
    if latency not in ("mean", "max"):
        raise ValueError(f"latency={latency!r} must be 'mean' or 'max'")
    _count_arg(count)
    if picks is not None:
        picks = _int("picks", picks, 1, "picks >= 1")
    seed = _int("seed", seed, 0, "seed >= 0 (fixed, so every network is cut by the same sampled splits)")
    return _Scorer(tuple(float(w) for w in weights), latency, count, picks, seed, router_cost, link_cost,
                   _int("exact_limit", exact_limit, 0))


def weighted_score(connections: Any, weights: Sequence[float] = (0.0, 1.0, 1.0), *, latency: str = "mean",
                   count: str = "routers", picks: int | None = 256, seed: int = 0, router_cost: float = 1.0,
                   link_cost: float = 0.0, exact_limit: int = 6435) -> dict[str, float]:
    """The notes' multi-objective fitness ``f = a cost + b latency - c bisection`` (lower is better).

    Eq. (22) writes ``+ c (bisection bandwidth)``; a wider bisection is better, so with non-negative
    weights it enters with a minus sign here. ``latency`` is the mean or maximum router-only hop count;
    the bisection width is exact up to ``exact_limit`` splits and otherwise sampled with ``picks``
    splits drawn from the fixed ``seed`` (the same splits for every network of the same ``N``, so
    scores are comparable).

    Parameters
    ----------
    connections : a valid database.
    weights : ``(a, b, c)``.
    latency : ``"mean"`` or ``"max"``.
    count : ``"routers"`` or ``"links"`` for the hop counts.
    picks : sampled splits for a large network.
    seed : non-negative int seeding the sampled splits.
    router_cost, link_cost : prices for :func:`network_cost`.
    exact_limit : see :func:`bisection_width`.

    Returns
    -------
    dict
        ``cost``, ``mean_hops``, ``max_hops``, ``bisection`` (NaN when ``c = 0``) and ``score``.

    Raises
    ------
    ValueError
        If the database is invalid or an option breaks its rule.

    Examples
    --------
    >>> s = weighted_score(single_port_network([[1, 2]], [4, 4]), weights=(1, 1, 1))
    >>> s["cost"], s["mean_hops"], s["bisection"], s["score"]      # 2 + 44/28 - 1
    (2.0, 1.5714285714285714, 1.0, 2.571428571428571)

    References
    ----------
    Network-design notes, section 8.4 eq. (22).
    """
    sc = _scorer(weights, latency, count, picks, seed, router_cost, link_cost, exact_limit)
    return sc.parts(validate_connections(connections))


@dataclass(frozen=True)
class EvolutionResult:
    """Outcome of :func:`evolve`.

    ``scores[t]`` is the score of the current network after step ``t`` (``scores[0]``: the start), so it
    never increases; ``moves[t-1]`` and ``accepted[t-1]`` describe step ``t``; ``best`` is the final
    network and ``parts`` its score components.
    """

    best: np.ndarray
    scores: np.ndarray
    moves: tuple[str, ...]
    accepted: np.ndarray
    parts: dict[str, float] = field(default_factory=dict)
    history: dict[str, np.ndarray] = field(default_factory=dict)


def evolve(connections: Any, steps: int = 200, seed: int | None = 0, *, moves: Sequence[str] = MOVES,
           weights: Sequence[float] = (0.0, 1.0, 1.0), latency: str = "mean", count: str = "routers",
           picks: int | None = 256, exact_limit: int = 6435, max_tries: int = 20) -> EvolutionResult:
    """A (1+1) evolutionary search: alter the network, keep the change when the score does not get worse.

    At each step one of ``moves`` is chosen at random and applied (:func:`alter`); the altered
    network replaces the current one if its :func:`weighted_score` is lower or equal (equal moves let
    the search drift across plateaus). Alterations keep every port count, so the cost term is constant.

    Parameters
    ----------
    connections : a valid starting database.
    steps : number of alteration steps, ``>= 0``.
    seed : seed for the choice of moves and proposals (the bisection splits use a fixed seed 0).
    moves : subset of :data:`MOVES`.
    weights, latency, count, picks, exact_limit : as in :func:`weighted_score`.
    max_tries : proposals per step before the step is skipped.

    Returns
    -------
    EvolutionResult

    Raises
    ------
    ValueError
        If the database is invalid or an option breaks its rule.

    Examples
    --------
    >>> r = evolve(random_network(8, 1, 4, 4, seed=0), steps=30, seed=1)
    >>> bool(r.scores[-1] <= r.scores[0]), bool(np.all(np.diff(r.scores) <= 0)), is_valid_connections(r.best)
    (True, True, True)

    References
    ----------
    Network-design notes, sections 7 and 8.4 ("the outcome of the evolution").
    """
    steps = _int("steps", steps, 0)
    moves = tuple(moves)
    for mv in moves:
        if mv not in _PROPOSERS:
            raise ValueError(f"moves: {mv!r} is not one of {', '.join(MOVES)}")
    if not moves:
        raise ValueError("moves is empty: give at least one of " + ", ".join(MOVES))
    sc = _scorer(weights, latency, count, picks, 0, 1.0, 0.0, exact_limit)
    max_tries = _int("max_tries", max_tries, 1)
    rows = validate_connections(connections)
    rng = np.random.default_rng(seed)
    cur = sc.parts(rows)
    keys = ("score", "mean_hops", "max_hops", "bisection")
    hist = {k: [cur[k]] for k in keys}
    chosen, acc = [], []
    for _ in range(steps):
        mv = moves[int(rng.integers(len(moves)))]
        new = _alter_rows(rows, mv, rng, max_tries)
        ok = False
        if new is not rows and not np.array_equal(new, rows):
            parts = sc.parts(new)
            if parts["score"] <= cur["score"]:
                rows, cur, ok = new, parts, True
        chosen.append(mv)
        acc.append(ok)
        for k in keys:
            hist[k].append(cur[k])
    return EvolutionResult(rows, np.array(hist["score"]), tuple(chosen), np.array(acc, dtype=bool), dict(cur),
                           {k: np.array(v) for k, v in hist.items()})


# ---------------------------------------------------------------------------------------------------------------
# command-line families
# ---------------------------------------------------------------------------------------------------------------
def _graph_tree(N: int, m: int, n: int = 1) -> ArrayGraph:
    return to_array_graph(tree_network(N, m, n), "netdesign-tree", {"N": N, "m": m, "n": n})


def _graph_chain(N: int, m: int) -> ArrayGraph:
    return to_array_graph(daisy_chain(N, m), "netdesign-chain", {"N": N, "m": m})


def _graph_random(N: int, n: int, M: int, m: int, seed: int = 0) -> ArrayGraph:
    return to_array_graph(random_network(N, n, M, m, seed), "netdesign-random",
                          {"N": N, "n": n, "M": M, "m": m, "seed": seed})


#: The notes' networks as network families for the command line (``starlib.registry.Family`` records).
NETWORK_FAMILIES: dict[str, Family] = family_table(
    Family("netdesign-tree", _graph_tree,
           {"N": Param(int, "compute nodes N > 2"), "m": Param(int, "router ports m > 2"),
            "n": Param(int, "ports per compute node 1 <= n < N-1", 1, False)},
           "network-design notes, Solution 1: max_routers(N, m, n) routers in private trees", kind="netdesign"),
    Family("netdesign-chain", _graph_chain,
           {"N": Param(int, "compute nodes N > 2(m-1)"), "m": Param(int, "router ports m > 2")},
           "network-design notes, Solution 2: min_routers(N, m) routers in a daisy chain", kind="netdesign"),
    Family("netdesign-random", _graph_random,
           {"N": Param(int, "compute nodes N >= 2"), "n": Param(int, "ports per compute node 1 <= n <= M"),
            "M": Param(int, "routers M >= 1"), "m": Param(int, "router ports, N n + 2(M-1) <= M m"),
            "seed": Param(int, "random seed", 0, False)},
           "network-design notes, section 4: a random valid network", kind="netdesign"),
)
