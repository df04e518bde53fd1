"""The optimum of allreduce on a network and a lower bound that no allreduce beats, exactly, as fractions.

A network here is an undirected graph whose links are full duplex, ``capacity[e]`` units each way (one unit is a
link of ``link_gbps``). Two numbers of it decide what allreduce can do (docs/collectives.md proves the claims):

* the **cut ratio** ``rho = max_S |S & V_c| / c(delta(S))`` over the vertex sets ``S`` that leave a compute node
  outside (``V_c`` the compute nodes, ``c(delta(S))`` the capacity of the links leaving ``S``). ForestColl's
  optimal allgather of ``M`` bytes over ``N`` compute nodes takes ``(M/N) rho / b`` (Zhao et al.), its
  reduce-scatter as long, and its allreduce (reduce-scatter, then allgather) twice that
  (:func:`forestcoll_time_us`);
* the **strength** ``sigma = min_P c(E(P)) / (|P| - 1)`` over the partitions ``P`` of the vertices into at least
  two parts (``E(P)`` the links between parts): the fractional spanning-tree packing number (Nash-Williams,
  Tutte; Cunningham). No allreduce in which vertices add partial sums of an element but do not code across
  elements finishes before ``M / (b sigma)`` (:func:`allreduce_lower_bound_us`, with the latency term).

Both are computed exactly by Dinkelbach's iteration for a ratio, with minimum cuts as the oracle (Dinic's
maximum flow, :func:`starlib._kernels.max_flow_jit`, on integer capacities: the current ratio ``p/q`` scaled to
integers); no set and no partition is enumerated.

* :func:`cut_ratio`: one minimum cut per compute node ``t`` (``t`` outside ``S``, the compute nodes swept
  earlier forced inside, as in Hao and Orlin's sequence), each at the best ratio found so far; a set that beats
  it raises the ratio and the same cut is solved again. A node swept at a lower ratio stays settled at a higher
  one, so one sweep ends at the optimum: ``N`` cuts plus one per improvement (2 s of CPU at 1,000 routers).
* :func:`strength`: the oracle ``min_P [c(delta(P)) - lambda |P|]`` is the Dilworth truncation of
  ``f(A) = c(delta(A))/2 - lambda``, computed by the greedy over the vertices (one minimum cut per vertex);
  the minimising partition is read off the tight sets and its value checked against the oracle's (``n`` cuts per
  round, one round when the singletons are optimal: 1 to 2 s of CPU at 1,000 routers).

Example
-------
>>> import networkx as nx
>>> cut_ratio(nx.petersen_graph()).value          # S = V - v: 9 compute nodes behind 3 links
Fraction(3, 1)
>>> strength(nx.petersen_graph()).value           # 15 links over 9 = n - 1: the singletons
Fraction(5, 3)

References
----------
L. Zhao, S. Maleki, Z. Yang, H. Pourreza, A. Krishnamurthy, "ForestColl: efficient collective communications on
heterogeneous network fabrics", arXiv:2402.06787 (2024). W. H. Cunningham, "Optimal attack
and reinforcement of a network", J. ACM 32(3) (1985) 549-561. W. Dinkelbach, "On nonlinear fractional
programming", Management Science 13(7) (1967) 492-498. J. Hao and J. B. Orlin, "A faster algorithm for finding
the minimum cut in a directed graph", J. Algorithms 17(3) (1994) 424-446.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numba
import numpy as np

from .._kernels import count_components, find, max_flow_jit
from ..graphs import GraphLike, as_graph
from ..validation import check_real

__all__ = ["CutRatio", "Strength", "cut_ratio", "strength", "allreduce_lower_bound_us", "forestcoll_time_us"]

#: The total capacity times ``n^2`` stays below this, so every scaled capacity and flow fits in int64 (the greedy's
#: values are at most ``4 n`` times the total capacity, its flows ``n`` times that; docs/collectives.md).
_LIMIT = 2**60


@dataclass(frozen=True, eq=False)
class CutRatio:
    """ForestColl's cut ratio of a network and a set that attains it.

    Attributes
    ----------
    value : Fraction
        ``max_S |S & V_c| / c(delta(S))`` over the nonempty vertex sets ``S`` that leave a compute node outside.
    cut : ndarray
        The vertices of a maximising ``S`` (sorted int64 indices, read-only).
    """

    value: Fraction
    cut: np.ndarray


@dataclass(frozen=True, eq=False)
class Strength:
    """The strength of a network (its fractional spanning-tree packing number) and a partition that attains it.

    Attributes
    ----------
    value : Fraction
        ``min_P c(E(P)) / (|P| - 1)`` over the partitions ``P`` of the vertices into at least two parts.
    partition : ndarray
        The part of every vertex (int64 labels ``0..|P|-1``, numbered in the order of their smallest vertex,
        read-only).
    """

    value: Fraction
    partition: np.ndarray


# -- input -------------------------------------------------------------------------------------------------------------

def _network(graph: GraphLike, capacity: Any) -> tuple[int, np.ndarray, np.ndarray]:
    """``(n, edges, cap)``: the graph checked (connected, two vertices or more), loops dropped, capacities checked."""
    g = as_graph(graph)
    n, e = g.n, np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    m = e.shape[0]
    if capacity is None:
        cap = np.ones(m, dtype=np.int64)
    else:
        arr = np.asarray(capacity)
        if arr.shape != (m,):
            raise ValueError(f"capacity: need one value per link of as_graph(graph).edges ({m} links), got shape "
                             f"{arr.shape}")
        if m and (not np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_):
            raise ValueError(f"capacity: link capacities must be integers (units of link_gbps), got dtype "
                             f"{arr.dtype}")
        if m and int(arr.min()) < 1:
            raise ValueError(f"capacity: a link has capacity {int(arr.min())}: need positive integers (drop a link "
                             f"from the graph rather than give it 0)")
        if m and int(arr.max()) > _LIMIT:
            raise ValueError(f"capacity: a link has capacity {int(arr.max())}: need at most 2^60")
        cap = arr.astype(np.int64)
    if n < 2:
        raise ValueError(f"graph: {n} vertex{'' if n == 1 else 'es'}: need at least 2 (a network to cut)")
    loops = e[:, 0] == e[:, 1]
    if loops.any():  # a loop crosses no cut
        e, cap = e[~loops], cap[~loops]
    parts = count_components(n, e)
    if parts > 1:
        raise ValueError(f"graph: not connected ({parts} components): the cut ratio is infinite and the strength 0; "
                         f"pass a connected network")
    total = sum(int(c) for c in cap)  # exact: no int64 overflow on huge capacities
    if total * n * n >= _LIMIT:
        raise ValueError(f"capacity: total capacity {total:,} times n^2 = {n}^2 is too large for 64-bit integer cuts "
                         f"(need under 2^60)")
    return n, e, cap


def _compute_mask(compute: Any, n: int) -> np.ndarray:
    """The compute-node mask, checked: ``n`` booleans, at least two True."""
    if compute is None:
        return np.ones(n, dtype=bool)
    arr = np.asarray(compute)
    if arr.shape != (n,) or arr.dtype != np.bool_:
        raise ValueError(f"compute: need a boolean mask of the {n} vertices, got dtype {arr.dtype} and shape "
                         f"{arr.shape}")
    if int(arr.sum()) < 2:
        raise ValueError(f"compute: {int(arr.sum())} compute node(s): need at least 2 (with one, allgather and "
                         f"allreduce move nothing)")
    return arr.copy()


def _neighbours(n: int, e: np.ndarray, cap: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Adjacency arrays with capacities: ``nbr[ptr[v]:ptr[v+1]]`` are the neighbours of ``v`` over links ``cap``."""
    tails = np.concatenate([e[:, 0], e[:, 1]])
    order = np.argsort(tails, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(tails, minlength=n), out=ptr[1:])
    return ptr, np.concatenate([e[:, 1], e[:, 0]])[order], np.concatenate([cap, cap])[order]


def _weighted_degrees(n: int, e: np.ndarray, cap: np.ndarray) -> np.ndarray:
    deg = np.zeros(n, dtype=np.int64)
    np.add.at(deg, e[:, 0], cap)
    np.add.at(deg, e[:, 1], cap)
    return deg


def _boundary(e: np.ndarray, cap: np.ndarray, inside: np.ndarray) -> int:
    """``c(delta(S))`` for the mask ``inside`` of ``S``."""
    return int(cap[inside[e[:, 0]] != inside[e[:, 1]]].sum())


# -- minimum cuts ------------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _min_cut(nodes, rows, cols, caps, src, snk, side):  # pragma: no cover - compiled
    """The value of a minimum ``src``-``snk`` cut (Dinic, :func:`max_flow_jit`); when ``side`` has ``nodes`` entries,
    also its smallest source side (the nodes the residual graph reaches from ``src``) into ``side``.

    The arcs ``rows[i] -> cols[i]`` have capacities ``caps[i] > 0``, each node's arcs best listed by increasing
    head (the flow kernel sorts them by insertion).
    """
    indptr, heads, flows = max_flow_jit(nodes, rows, cols, caps, src, snk)
    value = 0
    for a in range(indptr[src], indptr[src + 1]):
        value += flows[a]
    if side.shape[0] != nodes:
        return value
    cap = np.zeros(heads.shape[0], np.int64)
    for i in range(rows.shape[0]):  # the capacity of each residual arc: the input arcs it merges
        w = cols[i]
        lo = indptr[rows[i]]
        hi = indptr[rows[i] + 1]
        while lo < hi:
            mid = (lo + hi) // 2
            if heads[mid] < w:
                lo = mid + 1
            else:
                hi = mid
        cap[lo] += caps[i]
    side[:] = False
    stack = np.empty(nodes, np.int64)
    side[src] = True
    stack[0] = src
    top = 1
    while top:
        top -= 1
        v = stack[top]
        for a in range(indptr[v], indptr[v + 1]):
            d = heads[a]
            if cap[a] > flows[a] and not side[d]:
                side[d] = True
                stack[top] = d
                top += 1
    return value


# -- the cut ratio -----------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _sweep(e, cap, comp, big, terminals, start, forced, into, ptr, nbr, ncap, p, q):  # pragma: no cover - compiled
    """Settle the compute nodes ``terminals[start:]`` in turn at the ratio ``p/q``; stop at the first that a set
    beats. Returns ``(j, inside)``: the position reached (``len(terminals)`` when all are settled) and the mask of
    the set that beats ``p/q`` (empty when none does). ``forced`` (the settled nodes) and ``into`` (each vertex's
    capacity into them) are updated in place.

    The cut for ``t``: node 0 the source with the settled nodes, node 1 the sink ``t``, then the other vertices
    in order; an arc of ``q [v compute] + p c(v, settled)`` from the source to each, the links among them and
    ``t`` at ``p`` times their capacity both ways. Its value plus the arcs from the settled nodes to ``t``
    (``q + p c(t, settled)``) is ``min p c(delta(S)) + q |V_c - S|`` over the sets ``S`` that contain the settled
    nodes and not ``t``; a set beats ``p/q`` exactly when that is below ``q N``.
    """
    n = forced.shape[0]
    m = e.shape[0]
    ends = np.empty(n, np.int64)
    side = np.zeros(0, np.bool_)
    for j in range(start, terminals.shape[0]):
        t = terminals[j]
        nodes = 2
        for v in range(n):
            if forced[v]:
                ends[v] = 0
            elif v == t:
                ends[v] = 1
            else:
                ends[v] = nodes
                nodes += 1
        rows = np.empty(nodes + 2 * m, np.int64)
        cols = np.empty(nodes + 2 * m, np.int64)
        caps = np.empty(nodes + 2 * m, np.int64)
        k = 0
        for v in range(n):
            if ends[v] >= 2:
                c = q * comp[v] + p * into[v]
                if c > 0:
                    rows[k] = 0
                    cols[k] = ends[v]
                    caps[k] = c
                    k += 1
        for i in range(m):
            a = ends[e[i, 0]]
            b = ends[e[i, 1]]
            if a != 0 and b != 0:
                rows[k] = a
                cols[k] = b
                caps[k] = p * cap[i]
                rows[k + 1] = b
                cols[k + 1] = a
                caps[k + 1] = p * cap[i]
                k += 2
        value = _min_cut(nodes, rows[:k], cols[:k], caps[:k], 0, 1, side) + q + p * into[t]
        if value < q * big:
            side = np.zeros(nodes, np.bool_)
            _min_cut(nodes, rows[:k], cols[:k], caps[:k], 0, 1, side)
            inside = np.zeros(n, np.bool_)
            for v in range(n):
                inside[v] = side[ends[v]] if v != t else False
            return j, inside
        forced[t] = True
        for a in range(ptr[t], ptr[t + 1]):
            into[nbr[a]] += ncap[a]
    return terminals.shape[0], np.zeros(0, np.bool_)


def cut_ratio(graph: GraphLike, capacity: Any = None, compute: Any = None) -> CutRatio:
    """ForestColl's cut ratio ``max_S |S & V_c| / c(delta(S))``, exactly, with a maximising set ``S``.

    ``S`` ranges over the nonempty vertex sets that leave at least one compute node outside; ``c(delta(S))`` is
    the capacity of the links leaving ``S`` (each link full duplex, ``capacity[e]`` each way). ForestColl's optimal
    allgather of ``M`` bytes (``M/N`` per compute node) takes ``(M/N) value / b`` seconds on links of ``b`` bytes
    per second per unit of capacity.

    Dinkelbach's iteration on the ratio ``p/q``: a set beats it exactly when ``q |S & V_c| - p c(delta(S)) > 0``,
    that is when ``p c(delta(S)) + q |V_c - S|`` falls below ``q N``, and the minimum of that over the sets ``S``
    that contain a source and exclude a compute node ``t`` is a minimum cut (the links at ``p`` times their
    capacity, an arc of capacity ``q`` from the source to each compute node). The compute nodes ``t_1, t_2, ...``
    are swept once: the cut for ``t_i`` forces ``t_1..t_{i-1}`` into ``S`` (a set whose first excluded compute
    node is ``t_j`` was settled at ``t_j``), starts from the best ratio found so far (a set settled at a ratio stays
    settled at any higher one) and, when a set beats that ratio, takes the set's ratio and cuts again. The start
    is the best ``S = V - v``: ``(N - 1) / c(delta(v))`` at the compute node of least capacity.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        A connected undirected network.
    capacity : array_like of int, optional
        Positive integer capacity of each link, in the order of ``as_graph(graph).edges`` (default 1 each).
    compute : array_like of bool, optional
        Which vertices are compute nodes (default all); at least two.

    Returns
    -------
    CutRatio
        ``value`` (a Fraction) and ``cut``, the sorted vertices of a set ``S`` that attains it.

    Raises
    ------
    ValueError
        If the graph has fewer than 2 vertices or is not connected, a capacity is not a positive integer (or the
        array does not have one per link), ``compute`` is not a boolean mask of the vertices with two True, or the
        capacities are too large for 64-bit cuts.

    Example
    -------
    >>> import networkx as nx
    >>> r = cut_ratio(nx.path_graph(4))               # S = {1, 2, 3}: 3 compute nodes behind one link
    >>> r.value, r.cut.tolist()
    (Fraction(3, 1), [1, 2, 3])
    >>> cut_ratio(nx.path_graph(4), compute=[True, False, False, True]).value
    Fraction(1, 1)

    References
    ----------
    L. Zhao et al., "ForestColl: efficient collective communications on heterogeneous network fabrics",
    arXiv:2402.06787 (2024): the optimal allgather time ``(M/N) max_S |S & V_c| / B+(S)``.
    W. Dinkelbach, Management Science 13(7) (1967) 492-498. J. Hao and J. B. Orlin, J. Algorithms 17(3) (1994).
    """
    n, e, cap = _network(graph, capacity)
    comp = _compute_mask(compute, n)
    big = int(comp.sum())
    deg = _weighted_degrees(n, e, cap)
    ptr, nbr, ncap = _neighbours(n, e, cap)
    terminals = np.flatnonzero(comp).astype(np.int64)
    v0 = int(terminals[np.argmin(deg[terminals])])
    best = np.ones(n, dtype=bool)
    best[v0] = False
    ratio = Fraction(big - 1, int(deg[v0]))
    forced = np.zeros(n, dtype=bool)
    into = np.zeros(n, dtype=np.int64)
    j = 0
    while j < terminals.size:
        j, inside = _sweep(e, cap, comp.astype(np.int64), big, terminals, j, forced, into, ptr, nbr, ncap,
                           ratio.numerator, ratio.denominator)
        if inside.size:
            found = Fraction(int(comp[inside].sum()), _boundary(e, cap, inside))
            if found <= ratio:  # pragma: no cover - a cut below q N is a set that beats p/q
                raise RuntimeError(f"cut_ratio: a minimum cut gave the ratio {found}, not above {ratio}")
            ratio, best = found, inside
    cut = np.flatnonzero(best)
    cut.setflags(write=False)
    return CutRatio(ratio, cut)


# -- the strength ------------------------------------------------------------------------------------------------------

@numba.njit(cache=True)
def _greedy(n, lo_, hi_, cap, upto, ptr, nbr, ncap, deg, p, q):  # pragma: no cover - compiled
    """The greedy for the Dilworth truncation of ``F(A) = q c(delta(A)) - 2p``: ``(x, parent)``, the vector and a
    union-find forest whose sets are the parts (the unions of the meeting tight sets ``A_i``).

    Vertex ``i`` in turn gets ``x(i) = min { F(A) - x(A - i) : i in A, A within 0..i }``, one minimum cut: source
    ``i``, sink ``i + 1`` (the vertices above ``i`` merged), the links within ``0..i`` at ``q`` times their
    capacity both ways (``lo_, hi_`` sorted by larger end, the first ``upto[i]``), an arc of ``x(u)`` from ``i``
    to each earlier ``u`` with ``x(u) > 0``, and from each earlier ``u`` to the sink ``q c(u, above i) - x(u)``
    when ``x(u) < 0`` (else ``q c(u, above i)``). The cut's value is
    ``min [q c(delta(A)) - x(A - i)] + sum of the positive x(u) - q c(i, above i)``.
    """
    x = np.zeros(n, np.int64)
    out = np.zeros(n, np.int64)  # capacity from each of 0..i-1 to the vertices above i (then i - 1)
    parent = np.arange(n)
    for i in range(n):
        below = 0
        for a in range(ptr[i], ptr[i + 1]):
            if nbr[a] < i:
                out[nbr[a]] -= ncap[a]
                below += ncap[a]
        out[i] = deg[i] - below
        k = upto[i]
        size = i + 2 * k + i
        rows = np.empty(size, np.int64)
        cols = np.empty(size, np.int64)
        caps = np.empty(size, np.int64)
        j = 0
        plus = 0
        for u in range(i):
            if x[u] > 0:
                rows[j] = i
                cols[j] = u
                caps[j] = x[u]
                plus += x[u]
                j += 1
        for a in range(k):
            rows[j] = lo_[a]
            cols[j] = hi_[a]
            caps[j] = q * cap[a]
            rows[j + 1] = hi_[a]
            cols[j + 1] = lo_[a]
            caps[j + 1] = q * cap[a]
            j += 2
        for u in range(i):
            c = q * out[u] - min(x[u], 0)
            if c > 0:
                rows[j] = u
                cols[j] = i + 1
                caps[j] = c
                j += 1
        side = np.zeros(i + 2, np.bool_)
        value = _min_cut(i + 2, rows[:j], cols[:j], caps[:j], i, i + 1, side)
        x[i] = value + q * out[i] - plus - 2 * p
        root = find(parent, i)
        for u in range(i):
            if side[u]:
                r = find(parent, u)
                if r != root:
                    parent[r] = root
    for v in range(n):
        parent[v] = find(parent, v)
    return x, parent


def _truncation(n: int, e: np.ndarray, cap: np.ndarray, ptr: np.ndarray, nbr: np.ndarray, ncap: np.ndarray,
                deg: np.ndarray, p: int, q: int) -> tuple[int, np.ndarray]:
    """The Dilworth truncation of ``F(A) = q c(delta(A)) - 2p`` at ``V`` and a partition attaining it.

    The greedy (:func:`_greedy`) gives ``x`` with ``x(B) <= F(B)`` for every nonempty ``B`` (at step ``i`` for the
    sets whose largest vertex is ``i``, by the choice of ``x(i)``), so ``x(V) <= sum_{A in P} F(A)`` for every
    partition ``P``. The smallest source side ``A_i`` of step ``i`` is tight (``x(A_i) = F(A_i)``, and later steps
    leave ``x`` on ``A_i`` alone); two tight sets that meet have a tight union (submodularity), so the unions of
    the chains of meeting ``A_i`` are tight and partition ``V``: that partition attains ``x(V)``.

    Returns ``(x(V), labels)``: the minimum of ``sum_{A in P} F(A)`` over the partitions ``P`` of ``V`` and the part
    of every vertex (numbered in the order of the parts' smallest vertices) in one that attains it.
    """
    lo_, hi_ = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    order = np.lexsort((lo_, hi_))  # links by larger then smaller end: each vertex's arcs in increasing order
    lo_, hi_, c = lo_[order], hi_[order], cap[order]
    upto = np.searchsorted(hi_, np.arange(n), side="right").astype(np.int64)  # links within 0..i: the first upto[i]
    x, roots = _greedy(n, lo_, hi_, c, upto, ptr, nbr, ncap, deg, p, q)
    _, first, labels = np.unique(roots, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return int(x.sum()), rank[labels.reshape(-1)]


def _partition_cut(e: np.ndarray, cap: np.ndarray, labels: np.ndarray) -> int:
    """``c(E(P))``: the capacity of the links between parts."""
    return int(cap[labels[e[:, 0]] != labels[e[:, 1]]].sum())


def strength(graph: GraphLike, capacity: Any = None) -> Strength:
    """The strength ``min_P c(E(P)) / (|P| - 1)`` of a network, exactly, with a partition that attains it.

    ``P`` ranges over the partitions of the vertices into at least two parts and ``E(P)`` is the set of links
    between parts. By Nash-Williams and Tutte's theorem in its fractional form this is the largest total weight of
    spanning trees that fit under the capacities (the fractional spanning-tree packing number); no allreduce beats
    ``M / (b value)`` (docs/collectives.md, :func:`allreduce_lower_bound_us`).

    Dinkelbach's iteration from the singletons (``c(E) / (n - 1)``): at ``lambda = p/q`` the oracle
    ``min_P [c(delta(P)) - lambda (|P| - 1)]`` is negative exactly when a partition has a lower ratio, and is the
    Dilworth truncation of ``f(A) = c(delta(A))/2 - lambda`` at ``V`` (plus ``lambda``), computed by the greedy over
    the vertices with one minimum cut each; the minimising partition is the one the tight sets form, and its value
    is checked against the truncation's. The next ``lambda`` is that partition's ratio; the iteration stops when
    nothing is below the current one.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        A connected undirected network.
    capacity : array_like of int, optional
        Positive integer capacity of each link, in the order of ``as_graph(graph).edges`` (default 1 each).

    Returns
    -------
    Strength
        ``value`` (a Fraction) and ``partition``, the part of every vertex in a partition that attains it.

    Raises
    ------
    ValueError
        If the graph has fewer than 2 vertices or is not connected, or a capacity is not a positive integer (or
        the array does not have one per link), or the capacities are too large for 64-bit cuts.
    RuntimeError
        If the partition read off the tight sets does not attain the greedy's value (a bug, never seen).

    Example
    -------
    >>> import networkx as nx
    >>> s = strength(nx.barbell_graph(3, 0))          # two triangles and a bridge: the bridge is the weak part
    >>> s.value, s.partition.tolist()
    (Fraction(1, 1), [0, 0, 0, 1, 1, 1])
    >>> strength(nx.complete_graph(5)).value           # 10 links, 4 = n - 1 per tree
    Fraction(5, 2)

    References
    ----------
    W. H. Cunningham, "Optimal attack and reinforcement of a network", J. ACM 32(3) (1985) 549-561 (the strength,
    its computation by a minimum cut per vertex). C. St. J. A. Nash-Williams, "Edge-disjoint spanning trees of
    finite graphs", J. London Math. Soc. 36 (1961) 445-450; W. T. Tutte, "On the problem of decomposing a graph
    into n connected factors", ibid. 221-230. W. Dinkelbach, Management Science 13(7) (1967) 492-498.
    """
    n, e, cap = _network(graph, capacity)
    deg = _weighted_degrees(n, e, cap)
    ptr, nbr, ncap = _neighbours(n, e, cap)
    labels = np.arange(n, dtype=np.int64)
    ratio = Fraction(int(cap.sum()), n - 1)
    while True:
        p, q = ratio.numerator, ratio.denominator
        total, parts = _truncation(n, e, cap, ptr, nbr, ncap, deg, p, q)
        count = int(parts.max()) + 1
        across = _partition_cut(e, cap, parts)
        if q * 2 * across - 2 * p * count != total:
            raise RuntimeError(f"strength: the partition of the tight sets ({count} parts) has value "
                               f"{q * 2 * across - 2 * p * count}, the greedy {total}, at lambda = {ratio}")
        if total >= -2 * p:  # nothing below p/q (the single part V has value -2p)
            if total > -2 * p:
                raise RuntimeError(f"strength: the greedy's {total} exceeds the single part's {-2 * p}")
            break
        labels, ratio = parts, Fraction(across, count - 1)
    labels.setflags(write=False)
    return Strength(ratio, labels)


# -- times -------------------------------------------------------------------------------------------------------------

def _bytes_per_us(link_gbps: float) -> Fraction:
    """Bytes per microsecond of a unit link: ``link_gbps`` Gbit/s is ``125 link_gbps`` bytes per microsecond."""
    return Fraction(check_real(link_gbps, "link_gbps", 0, strict=True)) * 125


def allreduce_lower_bound_us(graph: GraphLike, size_bytes: float, link_gbps: float, delay_us: float,
                             capacity: Any = None) -> float:
    """A time no allreduce of ``size_bytes`` over every vertex of the network beats, in microseconds.

    ``max(M / (b sigma), D delay)``: ``sigma`` the strength (:func:`strength`), ``b`` the bytes per second of a
    unit link, ``D`` the diameter. Proved in docs/collectives.md for every schedule in which vertices (routers
    too) send and add partial sums of an element but do not code across elements: for every partition ``P`` of
    the vertices into ``p >= 2`` parts each element crosses between parts ``2(p - 1)`` times at least (one-way
    gossip among the parts), while the links between parts carry ``2 c(E(P)) b`` bytes per second at most; and
    the result at ``v`` depends on the input at ``u``, ``dist(u, v)`` links away.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        A connected undirected network; every vertex holds a vector of ``size_bytes`` and ends with the sum.
    size_bytes : float
        ``M``, the size of the vector, positive.
    link_gbps : float
        Rate of a unit link in Gbit/s, each direction, positive.
    delay_us : float
        Latency of one link in microseconds (propagation and switching), at least 0.
    capacity : array_like of int, optional
        Link capacities in units of ``link_gbps`` (:func:`strength`).

    Returns
    -------
    float
        The bound in microseconds, rounded to the nanosecond.

    Raises
    ------
    ValueError
        For a bad graph or capacity (:func:`strength`), a size or rate that is not positive, a negative delay.

    Example
    -------
    >>> import networkx as nx                          # K_5: strength 5/2, diameter 1
    >>> allreduce_lower_bound_us(nx.complete_graph(5), 10**6, 100.0, 1.0)  # 10^6 / (12,500 * 5/2) us
    32.0
    >>> allreduce_lower_bound_us(nx.complete_graph(5), 8, 100.0, 1.0)      # latency: one link
    1.0

    References
    ----------
    F. Harary and A. J. Schwenk, "The communication problem on graphs and digraphs", J. Franklin Inst. 297
    (1974) 491-495 (2n - 2 one-way calls for gossip). W. H. Cunningham, J. ACM 32(3) (1985) 549-561.
    """
    size = Fraction(check_real(size_bytes, "size_bytes", 0, strict=True))
    rate = _bytes_per_us(link_gbps)
    delay = Fraction(check_real(delay_us, "delay_us", 0))
    sigma = strength(graph, capacity).value
    diameter = as_graph(graph).diameter()
    return round(float(max(size / (rate * sigma), diameter * delay)), 3)


def forestcoll_time_us(graph: GraphLike, size_bytes: float, link_gbps: float, compute: Any = None,
                       capacity: Any = None) -> float:
    """ForestColl's optimal reduce-scatter plus allgather of ``size_bytes``, in microseconds (bandwidth only).

    ``2 (M/N) rho / b``: ``rho`` the cut ratio (:func:`cut_ratio`), ``N`` the number of compute nodes, ``b`` the
    bytes per second of a unit link. The allgather's optimum is ForestColl's ``(M/N) rho / b``; its reduce-scatter
    runs the allgather's trees backwards (aggregating towards each shard's owner), over the reversed links, which
    on full-duplex links of equal capacity both ways is the same network: the same time (docs/collectives.md).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        A connected undirected network.
    size_bytes : float
        ``M``, the size of the vector on each compute node, positive (each owns ``M/N`` of the result).
    link_gbps : float
        Rate of a unit link in Gbit/s, each direction, positive.
    compute : array_like of bool, optional
        The compute nodes (default every vertex).
    capacity : array_like of int, optional
        Link capacities in units of ``link_gbps``.

    Returns
    -------
    float
        The time in microseconds, rounded to the nanosecond.

    Raises
    ------
    ValueError
        As :func:`cut_ratio`, and for a size or rate that is not positive.

    Example
    -------
    >>> import networkx as nx                          # K_5: rho = 4/4 = 1, N = 5
    >>> forestcoll_time_us(nx.complete_graph(5), 10**6, 100.0)   # 2 (10^6 / 5) / 12,500 us
    32.0

    References
    ----------
    L. Zhao et al., "ForestColl: efficient collective communications on heterogeneous network fabrics",
    arXiv:2402.06787 (2024).
    """
    size = Fraction(check_real(size_bytes, "size_bytes", 0, strict=True))
    rate = _bytes_per_us(link_gbps)
    r = cut_ratio(graph, capacity, compute)
    big = len(as_graph(graph).labels) if compute is None else int(np.asarray(compute).sum())
    return round(float(2 * size / big * r.value / rate), 3)
