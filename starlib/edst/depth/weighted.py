"""Weighted families of spanning trees: ``r``-fold packings that reach the graph's strength, made shallow.

An allreduce pipelined over ``k`` edge-disjoint spanning trees sends ``size/k`` over each tree link, so its
bandwidth term is ``size / (b k)``. The best any family of spanning trees can do is ``size / (b sigma)``, where
``sigma`` is the graph's *strength*, the fractional spanning-tree packing number

    ``sigma = min over vertex partitions P with |P| >= 2 of e(P) / (|P| - 1)``

(``e(P)`` the edges between parts; Nash-Williams and Tutte; Cunningham's strength). The largest number of EDSTs is
``floor(sigma)``, which can be well below ``sigma``: Slim Fly MMS(5) has ``m/(n-1) = 175/49 = 3.57`` and 3 EDSTs.

Weights
-------
A *weighted family* here is ``k`` spanning trees of the simple graph, each of weight ``1/r``, every link in at
most ``r`` of them (its total weight at most 1). Splitting the message in proportion to the weights, each tree
carries ``size/k`` and each link at most ``r size / k``: the bandwidth term is ``size / (b total)`` with
``total = k/r``. Such a family is exactly a family of EDSTs of the multigraph ``G^r`` (every edge repeated ``r``
times; a spanning tree never holds two parallel copies), and by Nash-Williams and Tutte applied to ``G^r`` the most
trees are

    ``k = min over P of floor(r e(P) / (|P| - 1)) = floor(r sigma)``

(the floor of a minimum is the minimum of the floors). So ``total = floor(r sigma)/r >= sigma - 1/r``: a small ``r``
comes within a few percent of the fractional optimum.

Construction
------------
1. ``r``: as given, or by :func:`choose_r` from the singleton-partition bound ``sigma_ub = m/(n-1) >= sigma``: the
   smallest ``r`` in ``1..8`` with ``floor(r sigma_ub)/r >= target sigma_ub``.
2. The exact packer (:func:`~starlib.edst.packing.generic_packing`, matroid partition) on ``G^r``, the edge list
   repeated ``r`` times (copy ``c`` of edge ``j`` is row ``c m + j``). It accepts parallel edges: an edge whose ends
   a forest already joins is dependent there, a parallel copy included. The count it returns is the maximum, with a
   partition certificate ``P`` whose bound ``floor(r e(P)/(|P|-1))`` equals it; then ``total`` is the best of any
   ``r``-fold family and ``total <= sigma <= e(P)/(|P|-1)`` (:attr:`WeightedFamily.certificate_bound`).
3. Depth: the local search of :mod:`starlib.edst.depth.search` (:func:`~.search.run_search`) on ``G^r``, the
   trees' edges spread over distinct copies (the ``j``-th tree through an edge takes copy ``j``). A move never gives
   one copy to two trees, and the search's legality test (``T_b - xy + xp`` only when ``xp`` reconnects ``T_b``)
   refuses a tree that would hold two copies of one edge (``xp`` already in ``T_b`` joins the two sides), so every
   tree stays a spanning tree of the simple graph and every link serves at most ``r`` trees. The trees are returned
   rooted at their centres, the best family seen kept (never deeper than the packer's trees at their centres).
4. :func:`verify_weighted` checks the family before it is returned.

Example
-------
>>> import networkx as nx
>>> f = weighted_trees(nx.petersen_graph())          # sigma = 15/9 = 5/3; one EDST, five trees of weight 1/3
>>> f.r, len(f.trees), f.total, f.strength_bound, verify_weighted(nx.petersen_graph(), f).valid
(3, 5, Fraction(5, 3), Fraction(5, 3), True)

References
----------
C. St. J. A. Nash-Williams, "Edge-disjoint spanning trees of finite graphs", J. London Math. Soc. 36 (1961)
445-450; W. T. Tutte, "On the problem of decomposing a graph into n connected factors", J. London Math. Soc. 36
(1961) 221-230; W. H. Cunningham, "Optimal attack and reinforcement of a network", J. ACM 32 (1985) 549-561.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np

from ...graphs import ArrayGraph, GraphLike, as_graph
from ...memory import Size, check_size
from ...validation import check_int, check_real
from ..packing import generic_packing
from ..trees import EDSTSet, is_connected
from ..verify import VerifyReport, verify_edsts
from .search import default_restarts, family_arrays, family_state, graph_index, run_search, searched_family

__all__ = ["WeightedFamily", "weighted_trees", "verify_weighted", "choose_r", "R_MAX"]

#: The largest ``r`` :func:`choose_r` tries (``floor(r sigma)/r >= sigma - 1/8`` there: within 5 % once
#: ``sigma >= 2.5``).
R_MAX = 8

#: Bytes per link copy of ``G^r`` the construction holds at its peak, for the size check: the repeated edge list,
#: the packer's per-edge arrays (owner, labels, queue, order) and the search's slots (two per copy) and its
#: ``(k, n)`` arrays (``k (n-1) <= r m``), about 25 int64 values in all.
_COPY_BYTES = 200


@dataclass(frozen=True, eq=False)
class WeightedFamily:
    """Spanning trees with weights ``1/r``, every link in at most ``r`` of them (total weight at most 1).

    Attributes
    ----------
    trees : EDSTSet
        The trees, spanning trees of the simple graph, each rooted at its centre (tag ``"weighted+ls"``).
    weights : tuple of Fraction
        One per tree, all ``1/r``.
    r : int
        The multiplicity: a link serves at most ``r`` trees.
    total : Fraction
        The sum of the weights, ``len(trees)/r``: the bandwidth term of an allreduce over the family is
        ``size / (b total)``.
    strength_bound : Fraction
        ``m/(n-1)``, the singleton-partition upper bound on the strength, from which ``r`` was chosen.
    certificate : ndarray
        ``(n,)`` parts of a vertex partition ``P`` with ``floor(r e(P)/(|P|-1)) = len(trees)``: no ``r``-fold
        family has more trees (Nash-Williams and Tutte on ``G^r``).
    certificate_bound : Fraction
        ``e(P)/(|P|-1)`` of that partition: an upper bound on the strength, so
        ``total <= sigma <= certificate_bound``.
    """

    trees: EDSTSet
    weights: tuple[Fraction, ...]
    r: int
    total: Fraction
    strength_bound: Fraction
    certificate: np.ndarray
    certificate_bound: Fraction

    @property
    def count(self) -> int:
        """Number of trees, ``floor(r sigma)``."""
        return len(self.trees)

    def depths(self) -> list[int]:
        """Depth of every tree from its root."""
        return self.trees.depths()


def choose_r(n: int, m: int, target: float = 0.95, r_max: int = R_MAX) -> int:
    """The smallest ``r`` in ``1..r_max`` with ``floor(r s)/r >= target s``, ``s = m/(n-1)``; the best ratio
    (smallest ``r`` among equals) if none reaches ``target``.

    Exact rational arithmetic (``target`` as the exact value of the float).

    Parameters
    ----------
    n, m : int
        Vertices (``n >= 2``) and links of a connected graph.
    target : float
        The fraction of ``m/(n-1)`` wanted, ``0 < target <= 1``.
    r_max : int
        The largest ``r`` tried.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If a parameter is out of range.

    Examples
    --------
    >>> choose_r(10, 15), choose_r(50, 175), choose_r(5, 5), choose_r(1058, 18515)   # Petersen, MMS(5), C_5, MMS(23)
    (3, 2, 4, 1)
    >>> choose_r(5, 5, target=1.0, r_max=3)    # C_5: 1, 1, 1 for r = 1, 2, 3 (5/4 needs r = 4)
    1
    """
    n = check_int(n, "n", minimum=2, rule="a graph with at least 2 vertices")
    m = check_int(m, "m", minimum=n - 1, rule=f"at least n-1 = {n - 1} links (a connected graph)")
    target = check_real(target, "target", 0.0, 1.0, rule="a fraction 0 < target <= 1")
    if target <= 0.0:
        raise ValueError(f"target={target!r}: need a fraction 0 < target <= 1")
    r_max = check_int(r_max, "r_max", minimum=1, rule="a multiplicity >= 1")
    s = Fraction(m, n - 1)
    want = Fraction(target) * s
    best, best_val = 1, Fraction(-1)
    for r in range(1, r_max + 1):
        val = Fraction((r * m) // (n - 1), r)
        if val >= want:
            return r
        if val > best_val:
            best, best_val = r, val
    return best


def weighted_trees(graph: GraphLike, *, r: int | None = None, target: float = 0.95, seed: int = 0,
                   start: Sequence[Any] | None = None, max_rounds: int = 60, base: float = 6.0,
                   restarts: int | None = None) -> WeightedFamily:
    """A shallow weighted family of spanning trees: ``floor(r sigma)`` trees of weight ``1/r``, each link in at most
    ``r`` of them, the most any ``r``-fold family has (module text).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected simple graph (read by :func:`~starlib.graphs.as_graph`).
    r : int, optional
        The multiplicity (``>= 1``). Default: :func:`choose_r` with ``target``.
    target : float
        For ``r=None``: the fraction of ``m/(n-1)`` the total weight should reach (``0 < target <= 1``).
    seed : int
        Seed of the depth search's tie order (:func:`~starlib.edst.depth.search.improve_depth`).
    start : EDSTSet or sequence of trees, optional
        Edge-disjoint spanning trees of ``graph`` to start from: their ``r`` copies (copy ``c`` of every tree on
        copy ``c`` of its links) are the packer's warm start (``generic_packing(start=...)``), the other trees grow
        around them (the augmenting paths may swap their edges). The count is the same maximum. Worth it where the
        start is a maximum family already shallower than the search reaches: at ``r = 1`` the shallow families of
        ``edsts(G, method="shallow")`` (depth 3 on PolarFly ER_31 and Slim Fly MMS(7), where a cold start gives 4).
        At ``r >= 2`` the trees added around the copies start deep and the search brings them to the depth a cold
        start reaches (measured on Slim Fly MMS(5), MMS(7), MMS(11)). Default: a cold start.
    max_rounds, base, restarts
        As in :func:`~starlib.edst.depth.search.improve_depth`; ``restarts`` defaults to its rule applied to the
        ``r m`` links of ``G^r``.

    Returns
    -------
    WeightedFamily
        Checked by :func:`verify_weighted`.

    Raises
    ------
    ValueError
        If ``graph`` has fewer than 2 vertices, a loop or is disconnected; if ``r``, ``target``, ``seed``,
        ``max_rounds``, ``base`` or ``restarts`` is out of range; if ``start`` is not an EDST family of ``graph``;
        if ``G^r`` would not fit in the memory limit.
    TypeError
        If ``graph`` is not a graph.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> f = weighted_trees(slimfly(5))             # 3 EDSTs; m/(n-1) = 175/49 = 3.57
    >>> f.r, f.count, f.total, float(f.total / f.strength_bound) > 0.95
    (2, 7, Fraction(7, 2), True)
    >>> weighted_trees(slimfly(5), r=0)
    Traceback (most recent call last):
    ...
    ValueError: r=0 is too small: need a multiplicity r >= 1 (each link serves at most r trees)

    References
    ----------
    Nash-Williams (1961), Tutte (1961), Cunningham (1985): see the module text.
    """
    g = as_graph(graph, "graph")
    n, m = int(g.n), int(g.m)
    edges = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; a spanning-tree family needs n >= 2")
    if m and bool((edges[:, 0] == edges[:, 1]).any()):
        raise ValueError("graph: has a self-loop; a weighted tree family needs a simple graph")
    if not is_connected(n, edges):
        raise ValueError(f"graph: disconnected (n={n}, m={m}); a spanning tree needs a connected graph")
    target = check_real(target, "target", 0.0, 1.0, rule="a fraction 0 < target <= 1")
    if target <= 0.0:
        raise ValueError(f"target={target!r}: need a fraction 0 < target <= 1")
    if r is None:
        r = choose_r(n, m, target)
    r = check_int(r, "r", minimum=1, rule="a multiplicity r >= 1 (each link serves at most r trees)")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    max_rounds = check_int(max_rounds, "max_rounds", minimum=0, rule="a number of rounds >= 0")
    if not (float(base) > 1.0):
        raise ValueError(f"base={base!r}: the potential needs a base > 1")
    if restarts is None:
        restarts = default_restarts(r * m)
    restarts = check_int(restarts, "restarts", minimum=1, rule="a number of runs >= 1")
    check_size(Size.of(n, r * m, _COPY_BYTES, 0), {"r": r}, "weighted_trees")

    multi = ArrayGraph(list(range(n)), np.tile(edges, (r, 1)))  # copy c of edge j is row c m + j
    indptr, indices, eid, ids = graph_index(multi)  # ids(u, v): the first copy, the simple edge's row j
    warm = None
    if start is not None:
        rep = verify_edsts(g, start)
        if not rep.valid:
            raise ValueError(f"start: not an EDST family of the graph ({'; '.join(rep.problems[:3])})")
        warm = np.full(r * m, -1, dtype=np.int64)
        for t, tree in enumerate(family_arrays(start)[0]):
            j = ids(tree[:, 0], tree[:, 1])
            warm[j[None, :] + m * np.arange(r)[:, None]] = t + len(start) * np.arange(r)[:, None]
    pack = generic_packing(multi, start=warm)
    k = pack.count
    arrays = [t.rows for t in pack.trees]
    if n == 2:  # one edge, r trees on it: nothing to search
        rows = arrays
        moves = 0
    else:
        par, pe = family_state(n, arrays, ids)
        used = np.zeros(m, dtype=np.int64)
        for t in range(k):  # the trees through an edge take its copies 0, 1, ... in tree order
            j = pe[t, 1:].copy()
            pe[t, 1:] = j + used[j] * m
            used[j] += 1
        owner = np.full(r * m, -1, dtype=np.int64)
        owner[pe[:, 1:]] = np.arange(k, dtype=np.int64)[:, None]
        rows, moves = run_search(n, (indptr, indices, eid), owner, par, pe, max_rounds=max_rounds, seed=seed,
                                 base=base, restarts=restarts)
    trees = searched_family(n, rows, ["weighted"] * k, moves, before=arrays)
    parts = np.asarray(pack.certificate, dtype=np.int64)
    crossing = int((parts[edges[:, 0]] != parts[edges[:, 1]]).sum())
    family = WeightedFamily(trees=trees, weights=(Fraction(1, r),) * k, r=r, total=Fraction(k, r),
                            strength_bound=Fraction(m, n - 1), certificate=parts,
                            certificate_bound=Fraction(crossing, np.unique(parts).shape[0] - 1))
    report = verify_weighted(g, family)
    if not report.valid:  # pragma: no cover - the search keeps every copy in one tree
        raise RuntimeError("weighted_trees: the family fails its check: " + "; ".join(report.problems[:3]))
    return family


def verify_weighted(graph: GraphLike, family: WeightedFamily) -> VerifyReport:
    """Check a weighted family: every tree a spanning tree of the simple graph, every link of total weight <= 1.

    Rules (failures as in :class:`~starlib.edst.verify.VerifyReport`): every rule of
    :func:`~starlib.edst.verify.verify_edsts` for each tree but disjointness (``size``, ``loop``, ``member``,
    ``repeat``, ``spanning``, ``acyclic``; ``empty`` for no tree); ``weights``: one positive weight per tree,
    ``total`` their sum, each weight ``1/r``; ``multiplicity``: the weights of the trees through a link sum to at
    most 1 (with weights ``1/r``: at most ``r`` trees per link).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The simple graph.
    family : WeightedFamily

    Returns
    -------
    VerifyReport
        ``.valid`` (also its truth value), ``.failures``, ``.problems``.

    Raises
    ------
    TypeError
        If ``family`` is not a :class:`WeightedFamily`.
    ValueError
        Malformed input, as :func:`~starlib.edst.verify.verify_edsts` refuses it.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> from starlib.edst.trees import EDSTSet, Tree
    >>> c3 = nx.cycle_graph(3)                    # sigma = 3/2: the three paths, weight 1/2 each
    >>> paths = EDSTSet(Tree(np.array(p), 0) for p in ([[0, 1], [1, 2]], [[1, 2], [0, 2]], [[0, 2], [0, 1]]))
    >>> half = Fraction(1, 2)
    >>> f = WeightedFamily(paths, (half,) * 3, 2, Fraction(3, 2), Fraction(3, 2), np.arange(3), Fraction(3, 2))
    >>> verify_weighted(c3, f).valid
    True
    >>> thirds = WeightedFamily(EDSTSet(paths[:1] * 3), (Fraction(1, 3),) * 3, 3, Fraction(1), Fraction(3, 2),
    ...                         np.arange(3), Fraction(3, 2))
    >>> verify_weighted(c3, thirds).valid          # one path three times: each of its links has weight 1
    True
    >>> twice = WeightedFamily(EDSTSet(paths[:1] * 3), (half,) * 3, 2, Fraction(3, 2), Fraction(3, 2),
    ...                        np.arange(3), Fraction(3, 2))
    >>> verify_weighted(c3, twice).problems
    ['trees: 2 link(s) of total weight above 1, e.g. (0, 1) in 3 trees of weight 3/2']
    """
    if not isinstance(family, WeightedFamily):
        raise TypeError(f"family={type(family).__name__} is not a WeightedFamily")
    g = as_graph(graph, "graph")
    n = int(g.n)
    trees = list(family.trees)
    report = verify_edsts(g, trees)
    report.failures = [f for f in report.failures if f[1] != "disjoint"]
    fail = report.failures
    w = list(family.weights)
    if len(w) != len(trees):
        fail.append((-1, "weights", f"{len(w)} weights for {len(trees)} trees"))
        return report
    bad = [i for i, x in enumerate(w) if not isinstance(x, Fraction | int) or x <= 0]
    if bad:
        fail.append((bad[0], "weights", f"weight {w[bad[0]]!r} is not a positive fraction"))
        return report
    if sum(w, Fraction(0)) != family.total:
        fail.append((-1, "weights", f"total {family.total} differs from the sum of the weights {sum(w, Fraction(0))}"))
    if not isinstance(family.r, int) or family.r < 1 or any(x != Fraction(1, family.r) for x in w):
        fail.append((-1, "weights", f"the weights are not all 1/r with r={family.r!r}"))
    # total weight per link, in integers over the common denominator
    den = lcm(*(Fraction(x).denominator for x in w)) if w else 1
    num = np.array([int(Fraction(x) * den) for x in w], dtype=object)
    gedges = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    gkey = np.sort(np.minimum(gedges[:, 0], gedges[:, 1]) * n + np.maximum(gedges[:, 0], gedges[:, 1]))
    load = np.zeros(gkey.shape[0], dtype=object)
    uses = np.zeros(gkey.shape[0], dtype=np.int64)
    for i, t in enumerate(trees):
        e = t.rows if hasattr(t, "rows") else np.asarray(t, dtype=np.int64).reshape(-1, 2)
        key = np.unique(np.minimum(e[:, 0], e[:, 1]) * n + np.maximum(e[:, 0], e[:, 1]))
        pos = np.searchsorted(gkey, key).clip(max=max(gkey.shape[0] - 1, 0))
        pos = pos[gkey[pos] == key] if gkey.size else pos[:0]  # links not in the graph: the rule "member"
        load[pos] += num[i]
        uses[pos] += 1
    over = np.flatnonzero(load > den)
    if over.size:
        j = int(over[0])
        u, v = divmod(int(gkey[j]), n)
        fail.append((-1, "multiplicity", f"{over.size} link(s) of total weight above 1, e.g. {(u, v)} in "
                                         f"{int(uses[j])} trees of weight {Fraction(int(load[j]), den)}"))
    return report
