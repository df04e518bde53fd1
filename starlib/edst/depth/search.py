"""A depth-reducing local search over a family of edge-disjoint spanning trees that keeps the count.

:func:`improve_depth` takes any family of EDSTs (an :class:`~starlib.edst.trees.EDSTSet`, a list of
:class:`~starlib.edst.trees.Tree` or of edge arrays, e.g. read from a file) and returns a family with the same
number of trees, every tree rooted at a centre, whose maximum depth is never larger, then whose mean depth is never
larger. :func:`~starlib.edst.depth.bound.depth_lower_bound` says how far from the best possible depth it can be.

The local search
----------------
State: a parent array and a parent-edge array per tree, and ``owner[e]``, the tree that uses graph edge ``e``
(``-1`` if none). A move takes a vertex ``x`` of tree ``a`` with parent ``p`` and a graph edge ``xy`` with
``depth_a(y) + 1 < depth_a(x)`` (then ``y`` is not below ``x``: everything below ``x`` is deeper than ``x``), and
replaces ``xp`` by ``xy`` in ``T_a``: the subtree of ``x`` rises by ``depth_a(x) - depth_a(y) - 1 >= 1`` levels.

* If ``xy`` is unused, ``xp`` becomes unused: ``T_a`` stays a spanning tree, the family stays edge-disjoint.
* If ``xy`` lies in ``T_b``, then ``T_b := T_b - xy + xp``: removing ``xy`` splits ``T_b`` into the part below
  the lower end of ``xy`` and the rest; ``xp`` reconnects them iff exactly one of ``x, p`` lies below (tested by
  walking up from ``p`` in ``T_b``). The part below is re-hung: from ``p`` (its parent becomes ``x``;
  the path from ``p`` up to ``y`` is reversed) or, if ``x`` was below ``y``, ``x`` simply changes parent to ``p``.

A move is accepted when the potential ``Phi = sum_t sum_v c^depth_t(v)`` strictly decreases (``c = base``, 6 by
default); every move computes its exact change from subtree sums of ``c^depth``. Each round re-roots every tree
at a centre, sorts the candidates ``(a, x)`` deepest first (ties in a seeded random order), and for each takes
the best improving edge ``xy``. The search stops after a round without a move or after ``max_rounds`` rounds, and
returns the best family seen (least maximum depth, then least total depth), so never a worse one than the input
re-rooted at its centres. ``restarts`` independent runs from the input (other seeds, bases 6, 3 and 20) keep the
best. The loops are compiled (numba) over flat arrays: parents, parent edges, depths, subtree sums and child
lists as linked siblings, updated in place by a move (the moved subtree and the ancestors of its old and new
parents), the ancestor test by walking up from ``p``; every round rebuilds them from the parents.

For the ER_q repair of :mod:`starlib.edst.depth.er` this module offers :func:`graph_index` (adjacency arrays with
an edge id per slot) and :func:`below` (compiled: whether a vertex lies in a subtree).

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import auto_trees
>>> P = slimfly(5)
>>> T = auto_trees(P)
>>> S = improve_depth(P, T)
>>> len(S) == len(T), max(S.depths()) <= max(T.depths())
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from ..._kernels import bfs, csr, trees_eccentricities
from ...graphs import ArrayGraph, GraphLike, as_graph
from ...validation import check_int
from ..forest_union import reverse_path
from ..trees import EDSTSet, Tree, centred_trees, sort_edge_rows
from ..verify import check_edsts

__all__ = ["improve_depth", "graph_index", "EdgeLookup", "below", "exact_powers", "family_arrays", "family_state",
           "run_search", "searched_family", "default_restarts"]


@numba.njit(cache=True)
def _push_child(t, v, p, fc, ns, ps):  # pragma: no cover - compiled
    """Put ``v`` at the head of ``p``'s child list in tree ``t`` (a root, ``p < 0``, has no siblings)."""
    ps[t, v] = -1
    if p >= 0:
        f = fc[t, p]
        ns[t, v] = f
        if f >= 0:
            ps[t, f] = v
        fc[t, p] = v
    else:
        ns[t, v] = -1


@numba.njit(cache=True)
def _rebuild(t, n, par, root, depth, sub, fc, ns, ps, pw, stack, order):  # pragma: no cover - compiled
    """Child lists (first child, next and previous sibling), depths and subtree sums of c^depth of tree ``t``."""
    for v in range(n):
        fc[t, v] = -1
    for v in range(n - 1, -1, -1):
        _push_child(t, v, par[t, v], fc, ns, ps)
    r = root[t]
    depth[t, r] = 0
    return _settle(t, r, par, depth, sub, fc, ns, pw, stack, order)


@numba.njit(cache=True)
def _settle(t, v0, par, depth, sub, fc, ns, pw, stack, order):  # pragma: no cover - compiled
    """Depths (from ``depth[t, v0]``) and subtree sums below ``v0``; returns the subtree's size."""
    stack[0] = v0
    top = 1
    cnt = 0
    while top > 0:
        top -= 1
        v = stack[top]
        order[cnt] = v
        cnt += 1
        c = fc[t, v]
        while c >= 0:
            depth[t, c] = depth[t, v] + 1
            stack[top] = c
            top += 1
            c = ns[t, c]
    for i in range(cnt - 1, -1, -1):
        v = order[i]
        s = pw[depth[t, v]]
        c = fc[t, v]
        while c >= 0:
            s += sub[t, c]
            c = ns[t, c]
        sub[t, v] = s
    return cnt


@numba.njit(cache=True)
def _set_parent(t, v, newp, par, fc, ns, ps):  # pragma: no cover - compiled
    """Move ``v`` from its parent's child list to ``newp``'s (``par`` updated)."""
    old = par[t, v]
    if old >= 0:
        a = ps[t, v]
        b = ns[t, v]
        if a >= 0:
            ns[t, a] = b
        else:
            fc[t, old] = b
        if b >= 0:
            ps[t, b] = a
    par[t, v] = newp
    _push_child(t, v, newp, fc, ns, ps)


@numba.njit(cache=True)
def _move_subtree(t, v, old, new, e, par, pe, depth, sub, fc, ns, ps, pw, stack, order):  # pragma: no cover
    """Tree ``t``: hang the subtree of ``v`` from ``old`` onto ``new`` by graph edge ``e`` (depths and the
    ancestors' subtree sums updated)."""
    _add_up(t, old, -sub[t, v], par, sub)
    _set_parent(t, v, new, par, fc, ns, ps)
    pe[t, v] = e
    depth[t, v] = depth[t, new] + 1
    _settle(t, v, par, depth, sub, fc, ns, pw, stack, order)
    _add_up(t, new, sub[t, v], par, sub)


@numba.njit(cache=True)
def _add_up(t, v, amount, par, sub):  # pragma: no cover - compiled
    """Add ``amount`` to the subtree sums of ``v`` and all its ancestors."""
    while v >= 0:
        sub[t, v] += amount
        v = par[t, v]


@numba.njit(cache=True)
def below(t, u, v, par, depth):  # pragma: no cover - compiled
    """Tree ``t`` of the ``(k, n)`` parent and depth arrays ``par``, ``depth``: True if ``u`` lies in the subtree of
    ``v`` (walk up from ``u`` to the depth of ``v``). Compiled, for numba callers (this search and the repair of
    :mod:`starlib.edst.depth.er`)."""
    dv = depth[t, v]
    while depth[t, u] > dv:
        u = par[t, u]
    return u == v


@numba.njit(cache=True)
def _reroot_centre(t, n, par, pe, root, depth, fc, ns):  # pragma: no cover - compiled
    """Re-root tree ``t`` at a centre (middle of a diameter path); depths must be current."""
    u = 0
    for v in range(n):
        if depth[t, v] > depth[t, u]:
            u = v
    dist = np.full(n, -1, np.int64)
    via = np.full(n, -1, np.int64)
    q = np.empty(n, np.int64)
    q[0] = u
    dist[u] = 0
    h = 0
    tl = 1
    while h < tl:
        x = q[h]
        h += 1
        p = par[t, x]
        if p >= 0 and dist[p] < 0:
            dist[p] = dist[x] + 1
            via[p] = x
            q[tl] = p
            tl += 1
        c = fc[t, x]
        while c >= 0:
            if dist[c] < 0:
                dist[c] = dist[x] + 1
                via[c] = x
                q[tl] = c
                tl += 1
            c = ns[t, c]
    w = u
    for v in range(n):
        if dist[v] > dist[w]:
            w = v
    c = w
    for _ in range(dist[w] // 2):
        c = via[c]
    reverse_path(t, c, -1, -1, -1, par, pe)
    root[t] = c


@numba.njit(cache=True)
def _reroot_delta(b, x, y, p, depth, sub, par, fc, ns, pw, mark, q, nd):  # pragma: no cover - compiled
    """Change of sum c^depth in tree b when the subtree of y (child of x) is re-hung from p (inside it) below x."""
    s_old = sub[b, y]
    q[0] = p
    nd[p] = depth[b, x] + 1
    mark[p] = 1
    h = 0
    tl = 1
    s_new = 0.0
    while h < tl:
        v = q[h]
        h += 1
        s_new += pw[nd[v]]
        up = v != y  # the neighbours of v in the re-hung tree: its old parent (unless v = y), then its children
        c = par[b, v] if up else fc[b, v]
        while c >= 0:
            if mark[c] == 0:
                mark[c] = 1
                nd[c] = nd[v] + 1
                q[tl] = c
                tl += 1
            if up:
                up = False
                c = fc[b, v]
            else:
                c = ns[b, c]
    for i in range(tl):
        mark[q[i]] = 0
    return s_new - s_old


@numba.njit(cache=True)
def _search(n, indptr, indices, eid, owner, par, pe, root, rank, pw, max_rounds):  # pragma: no cover - compiled
    """The local search; returns the best parent/edge arrays seen, their roots, moves and (max, total) depth."""
    k = par.shape[0]
    depth = np.zeros((k, n), np.int64)
    sub = np.zeros((k, n), np.float64)
    fc = np.full((k, n), -1, np.int64)
    ns = np.full((k, n), -1, np.int64)
    ps = np.full((k, n), -1, np.int64)
    stack = np.empty(n, np.int64)
    order = np.empty(n, np.int64)
    mark = np.zeros(n, np.int64)
    q = np.empty(n, np.int64)
    nd = np.zeros(n, np.int64)
    best_par = par.copy()
    best_pe = pe.copy()
    best_root = root.copy()
    best_max = n + 1
    best_sum = 0
    moves = 0
    rounds = 0
    moved = True
    while True:
        for t in range(k):
            _rebuild(t, n, par, root, depth, sub, fc, ns, ps, pw, stack, order)
            _reroot_centre(t, n, par, pe, root, depth, fc, ns)
            _rebuild(t, n, par, root, depth, sub, fc, ns, ps, pw, stack, order)
        mx = 0
        sm = 0
        for t in range(k):
            dt = 0
            for v in range(n):
                if depth[t, v] > dt:
                    dt = depth[t, v]
            sm += dt
            if dt > mx:
                mx = dt
        if mx < best_max or (mx == best_max and sm < best_sum):
            best_max = mx
            best_sum = sm
            best_par[:, :] = par
            best_pe[:, :] = pe
            best_root[:] = root
        if not moved or rounds >= max_rounds:
            break
        rounds += 1
        moved = False
        # candidates: (tree, vertex) deepest first, ties by the seeded rank
        keys = np.empty(k * n, np.int64)
        for t in range(k):
            for v in range(n):
                keys[t * n + v] = (n - depth[t, v]) * (k * n) + rank[t * n + v]
        cand = np.argsort(keys)
        for ci_ in range(k * n):
            idx = cand[ci_]
            a = idx // n
            x = idx % n
            dx = depth[a, x]
            if dx < 2:
                continue
            p = par[a, x]
            best_d = 0.0
            best_j = -1
            for j in range(indptr[x], indptr[x + 1]):
                y = indices[j]
                if y == p or depth[a, y] + 1 >= dx:
                    continue
                e = eid[j]
                o = owner[e]
                if o == a:
                    continue
                s = dx - depth[a, y] - 1
                da = sub[a, x] * (pw[0] / pw[s] - 1.0)
                if o < 0:
                    delta = da
                else:
                    b = o
                    if par[b, x] == y:  # x below y in T_b: legal iff p is not below x
                        if below(b, p, x, par, depth):
                            continue
                        delta = da + sub[b, x] * (pw[depth[b, p] + 1] / pw[depth[b, x]] - 1.0)
                    else:  # y below x in T_b: legal iff p is below y
                        if not below(b, p, y, par, depth):
                            continue
                        delta = da + _reroot_delta(b, x, y, p, depth, sub, par, fc, ns, pw, mark, q, nd)
                if delta < best_d and delta < -1e-12 * abs(da):
                    best_d = delta
                    best_j = j
            if best_j < 0:
                continue
            y = indices[best_j]
            e = eid[best_j]
            o = owner[e]
            exp = pe[a, x]
            # tree a: the subtree of x moves from p to y
            _move_subtree(a, x, p, y, e, par, pe, depth, sub, fc, ns, ps, pw, stack, order)
            owner[e] = a
            owner[exp] = o
            if o >= 0:
                b = o
                if par[b, x] == y:  # the subtree of x moves from y to p
                    _move_subtree(b, x, y, p, exp, par, pe, depth, sub, fc, ns, ps, pw, stack, order)
                else:  # the subtree of y is re-hung from p below x: reverse the path p .. y
                    old = sub[b, y]
                    prev = x
                    prev_e = exp
                    cur = p
                    while cur != y:
                        nxt = par[b, cur]
                        nxt_e = pe[b, cur]
                        _set_parent(b, cur, prev, par, fc, ns, ps)
                        pe[b, cur] = prev_e
                        prev = cur
                        prev_e = nxt_e
                        cur = nxt
                    _set_parent(b, y, prev, par, fc, ns, ps)
                    pe[b, y] = prev_e
                    depth[b, p] = depth[b, x] + 1
                    _settle(b, p, par, depth, sub, fc, ns, pw, stack, order)
                    _add_up(b, x, sub[b, p] - old, par, sub)
            moves += 1
            moved = True
    return best_par, best_pe, best_root, moves, best_max, best_sum


def exact_powers(base: float, count: int, cap: float) -> np.ndarray:
    """``min(base**i, cap)`` for ``i = 0 .. count - 1``, each power correctly rounded, the same bytes on every CPU.

    numpy's ``base ** np.arange(...)`` is not: its float64 power runs a SIMD kernel where the CPU has AVX-512 and
    the C library's ``pow`` elsewhere, and the two differ in the last bit (``6.0 ** 34``, ``20.0 ** 23``). The
    local search breaks ties between moves of equal potential change, so one bit there gives other trees on another
    machine. Here every power is the exact rational ``base**i`` rounded once (:class:`fractions.Fraction`).

    Examples
    --------
    >>> p = exact_powers(20.0, 25, 1e300)
    >>> bool(p[23] == float(20 ** 23)), p[:3].tolist()
    (True, [1.0, 20.0, 400.0])
    >>> exact_powers(6.0, 5, 100.0).tolist()
    [1.0, 6.0, 36.0, 100.0, 100.0]
    """
    from fractions import Fraction

    out = np.full(count, float(cap), dtype=np.float64)
    b = Fraction(float(base))
    exact = Fraction(1)
    for i in range(count):
        if exact >= cap:
            break
        out[i] = float(exact)
        exact *= b
    return out


def family_arrays(trees: Sequence[Any]) -> tuple[list[np.ndarray], list[str]]:
    """Edge arrays and construction tags of a family (Tree objects, ArrayGraphs or edge arrays)."""
    arrays, tags = [], []
    for t in trees:
        if isinstance(t, Tree):
            arrays.append(t.rows)
            tags.append(t.construction)
        elif isinstance(t, ArrayGraph):
            arrays.append(np.asarray(t.edges, dtype=np.int64).reshape(-1, 2))
            tags.append("")
        else:
            arrays.append(np.asarray(t, dtype=np.int64).reshape(-1, 2))
            tags.append("")
    return arrays, tags


def _tag(construction: str) -> str:
    base = construction or "input"
    return base if base.endswith("+ls") else base + "+ls"


@dataclass(frozen=True, eq=False)
class EdgeLookup:
    """The edge ids of a graph by their ends: ``ids(u, v)`` for arrays ``u, v`` of the ends of graph edges
    (vectorised, either order); ``m`` edges. Built by :func:`graph_index`."""

    n: int
    m: int
    order: np.ndarray
    keys: np.ndarray

    def __call__(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return self.order[np.searchsorted(self.keys, np.minimum(u, v) * self.n + np.maximum(u, v))]


def graph_index(g: ArrayGraph) -> tuple[np.ndarray, np.ndarray, np.ndarray, EdgeLookup]:
    """Adjacency arrays of a graph with an edge id per slot, and the edge ids by ends.

    Parameters
    ----------
    g : ArrayGraph

    Returns
    -------
    (indptr, indices, eid, ids)
        ``indices[indptr[v]:indptr[v + 1]]`` are the neighbours of ``v`` in increasing order and ``eid`` the
        graph edge of each slot (edge ``j`` gives a slot at both ends); ``ids`` an :class:`EdgeLookup`.

    Example
    -------
    >>> from starlib.factors import complete
    >>> indptr, indices, eid, ids = graph_index(complete(3))
    >>> indices.tolist(), eid.tolist(), ids(np.array([2]), np.array([1])).tolist(), ids.m
    ([1, 2, 0, 2, 0, 1], [0, 1, 0, 2, 1, 2], [2], 3)
    """
    n = int(g.n)
    gedges = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    m = gedges.shape[0]
    gkeys = np.minimum(gedges[:, 0], gedges[:, 1]) * n + np.maximum(gedges[:, 0], gedges[:, 1])
    order = np.argsort(gkeys, kind="stable")
    ids = EdgeLookup(n, m, order, gkeys[order])

    both = np.concatenate([gedges, gedges[:, ::-1]])
    eids = np.concatenate([np.arange(m), np.arange(m)])
    srt = np.lexsort((both[:, 1], both[:, 0]))
    indices = np.ascontiguousarray(both[srt, 1])
    eid = np.ascontiguousarray(eids[srt])
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(both[:, 0], minlength=n), out=indptr[1:])
    return indptr, indices, eid, ids


def improve_depth(graph: GraphLike, trees: Sequence[Any], *, max_rounds: int = 60, seed: int = 0,
                  base: float = 6.0, restarts: int | None = None) -> EDSTSet:
    """Reduce the depths of a family of edge-disjoint spanning trees by local exchanges, keeping the count.

    Moves (module docstring): re-rooting at a centre; replacing a deep vertex's parent edge ``xp`` in ``T_a`` by
    a graph edge ``xy`` to a shallower ``y`` that is unused (``xp`` becomes unused) or lies in ``T_b`` (``xp``
    moves to ``T_b``, legal iff it reconnects ``T_b - xy``). A move is taken when the potential
    ``sum_t sum_v base^depth_t(v)`` strictly decreases; the best family seen (least maximum depth, then least
    total depth) is returned, so the maximum depth never exceeds the input's (each input tree at its centre).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The host graph (read by :func:`~starlib.graphs.as_graph`).
    trees : EDSTSet, sequence of Tree or of (n-1, 2) arrays
        Edge-disjoint spanning trees of ``graph`` (as :func:`~starlib.edst.verify.verify_edsts` accepts).
    max_rounds : int, optional
        Rounds of moves at most (each round re-roots at centres, then tries every deep vertex once).
    seed : int, optional
        Tie order of the candidates of equal depth (same input and seed, same output).
    base : float, optional
        The base ``c > 1`` of the potential (6; a larger base favours the deepest vertices more strictly).
    restarts : int, optional
        Independent runs from the input, the best kept (least maximum depth, then least total depth): run ``i``
        uses the seed ``seed + i`` and the base ``base``, 3 or 20 for ``i = 0, 1, 2 (mod 3)``. On the
        networks of notebook 13 several runs gain one level over a single run (Bundlefly MMS(4) * QR(9) from
        ``auto``: 7 with one run, 6 with six; PolarStar ER_3 * IQ(7): 6 with twelve, 5 with 24). Default: 24 up
        to 20,000 links, 12 up to 50,000, 4 up to 200,000, else 1 (one run from ``auto``: 0.01 s on Slim Fly
        MMS(13), 0.2 s on MMS(29), 1.2 s on MMS(43) with 120,185 links).

    Returns
    -------
    EDSTSet
        As many trees as given, each rooted at its centre (the smallest-index vertex of least eccentricity),
        tagged with its input construction plus ``"+ls"`` (``"input+ls"`` for bare arrays); checked by
        :func:`~starlib.edst.verify.check_edsts`. ``meta["moves"]`` of each tree holds the number of moves.

    Raises
    ------
    ValueError
        If ``trees`` is not an EDST family of ``graph``, or a parameter is out of range.

    Example
    -------
    >>> from starlib.factors import complete
    >>> import numpy as np
    >>> path = np.array([[0, 1], [1, 2], [2, 3], [3, 4]])
    >>> S = improve_depth(complete(5), [path])
    >>> S.depths(), S.constructions()
    ([1], ['input+ls'])
    """
    max_rounds = check_int(max_rounds, "max_rounds", minimum=0, rule="a number of rounds >= 0")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    if not (float(base) > 1.0):
        raise ValueError(f"base={base!r}: the potential needs a base > 1")
    g = as_graph(graph, "graph")
    n = int(g.n)
    if restarts is None:
        restarts = default_restarts(g.m)
    restarts = check_int(restarts, "restarts", minimum=1, rule="a number of runs >= 1")
    check_edsts(g, trees)
    arrays, tags = family_arrays(trees)
    k = len(arrays)
    if n == 1:  # every tree is empty, of depth 0
        return EDSTSet(Tree(np.zeros((0, 2), dtype=np.int64), 0, _tag(t), n=1, meta={"moves": 0}) for t in tags)
    if n == 2:
        return _output(g, n, arrays, tags, 0)
    indptr, indices, eid, ids = graph_index(g)
    par, pe = family_state(n, arrays, ids)
    owner = np.full(int(ids.m), -1, dtype=np.int64)
    owner[pe[:, 1:]] = np.arange(k, dtype=np.int64)[:, None]
    child_rows, moves = run_search(n, (indptr, indices, eid), owner, par, pe, max_rounds=max_rounds, seed=seed,
                                   base=base, restarts=restarts)
    return _output(g, n, child_rows, tags, moves, before=arrays)


def default_restarts(m: int) -> int:
    """The default number of runs of :func:`improve_depth` on ``m`` links: 24 up to 20,000, 12 up to 50,000, 4 up to
    200,000, else 1.

    Example
    -------
    >>> [default_restarts(m) for m in (175, 20_001, 120_185, 580_861)]
    [24, 12, 4, 1]
    """
    return 24 if m <= 20_000 else 12 if m <= 50_000 else 4 if m <= 200_000 else 1


def family_state(n: int, arrays: Sequence[np.ndarray], ids: EdgeLookup) -> tuple[np.ndarray, np.ndarray]:
    """The search's start: every tree as a parent array from vertex 0 and the edge id of each parent edge.

    Parameters
    ----------
    n : int
        Vertices (``n >= 2``).
    arrays : sequence of (n-1, 2) arrays
        Spanning trees.
    ids : EdgeLookup
        The graph's edge ids by ends (:func:`graph_index`).

    Returns
    -------
    (par, pe)
        ``(k, n)`` int64: ``par[t, v]`` the parent of ``v`` in tree ``t`` rooted at 0 (``-1`` at 0), ``pe[t, v]``
        the id of the edge ``v par[t, v]`` (``-1`` at 0).

    Example
    -------
    >>> from starlib.factors import complete
    >>> _, _, _, ids = graph_index(complete(3))
    >>> par, pe = family_state(3, [np.array([[0, 2], [2, 1]])], ids)
    >>> par.tolist(), pe.tolist()
    ([[-1, 2, 0]], [[-1, 2, 1]])
    """
    k = len(arrays)
    par = np.full((k, n), -1, dtype=np.int64)
    pe = np.full((k, n), -1, dtype=np.int64)
    child = np.arange(1, n)
    for t, arr in enumerate(arrays):
        _, parent, _ = bfs(*csr(n, arr, sort=False), 0)
        par[t] = parent
        pe[t, 1:] = ids(child, parent[1:])
    return par, pe


def run_search(n: int, index: tuple[np.ndarray, np.ndarray, np.ndarray], owner: np.ndarray, par: np.ndarray,
               pe: np.ndarray, *, max_rounds: int, seed: int, base: float,
               restarts: int) -> tuple[list[np.ndarray], int]:
    """The restarts of the local search from one state (the loop of :func:`improve_depth`), the best kept.

    The state is any assignment of edge ids to trees: ``owner[e]`` the tree that holds edge ``e`` (``-1``: none),
    ``par``/``pe`` every tree's parents and parent edge ids, rooted at 0 (:func:`family_state`). A move never gives
    one edge id to two trees, so a graph whose edge list repeats an edge ``r`` times (ids of the copies distinct)
    lets each edge serve up to ``r`` trees: :mod:`starlib.edst.depth.weighted` runs the search so. No array passed
    is changed.

    Parameters
    ----------
    n : int
        Vertices (``n >= 3``).
    index : (indptr, indices, eid)
        The adjacency with an edge id per slot (:func:`graph_index`).
    owner, par, pe : ndarray
        The state, as above.
    max_rounds, seed, base, restarts
        As in :func:`improve_depth` (checked there).

    Returns
    -------
    (rows, moves)
        The best family seen (least maximum depth, then least total depth over the runs): per tree an
        ``(n-1, 2)`` array of ``(parent, child)`` rows; the moves made by all runs.

    Example
    -------
    >>> from starlib.factors import complete
    >>> indptr, indices, eid, ids = graph_index(complete(4))
    >>> par, pe = family_state(4, [np.array([[0, 1], [1, 2], [2, 3]])], ids)
    >>> owner = np.full(ids.m, -1, dtype=np.int64)
    >>> owner[pe[0, 1:]] = 0
    >>> rows, moves = run_search(4, (indptr, indices, eid), owner, par, pe, max_rounds=60, seed=0, base=6.0,
    ...                          restarts=1)
    >>> rows[0].tolist()  # the path 0-1-2-3 became a star: one parent of the three others
    [[1, 0], [1, 2], [1, 3]]
    """
    indptr, indices, eid = index
    k = par.shape[0]
    root = np.zeros(k, dtype=np.int64)
    best: tuple[int, int] | None = None
    moves = 0
    for r in range(restarts):
        rank = np.random.default_rng(seed + r).permutation(k * n).astype(np.int64)
        c = float(base) if r % 3 == 0 else (3.0 if r % 3 == 1 else 20.0)
        # only the depths that occur matter; a capped power keeps every sum finite (moves stay legal)
        pw = exact_powers(c, n + 2, np.finfo(np.float64).max / (4.0 * n * max(k, 1)))
        res = _search(n, indptr, indices, eid, owner.copy(), par.copy(), pe.copy(), root.copy(), rank, pw,
                      int(max_rounds))
        moves += int(res[3])
        key = (int(res[4]), int(res[5]))
        if best is None or key < best:
            best, bpar, broot = key, res[0], res[2]
    child_rows = []
    for t in range(k):
        v = np.delete(np.arange(n), int(broot[t]))
        child_rows.append(np.stack([bpar[t, v], v], axis=1))
    return child_rows, int(moves)


def _output(g: ArrayGraph, n: int, arrays: list[np.ndarray], tags: list[str], moves: int,
            before: list[np.ndarray] | None = None) -> EDSTSet:
    out = searched_family(n, arrays, tags, moves, before)
    check_edsts(g, out)
    return out


def searched_family(n: int, arrays: list[np.ndarray], tags: list[str], moves: int,
                    before: list[np.ndarray] | None = None) -> EDSTSet:
    """The trees a search returns: each rooted at its centre, tagged ``+ls``, ``meta["moves"]`` set; the input
    ``before`` (at its centres) instead if the search's family were worse (least maximum, then total depth).

    Parameters
    ----------
    n : int
        Vertices.
    arrays : list of (n-1, 2) arrays
        The searched trees.
    tags : list of str
        Each tree's input construction tag.
    moves : int
        The moves made.
    before : list of (n-1, 2) arrays, optional
        The input family (a guard: the search keeps the best family seen, so never a worse one).

    Returns
    -------
    EDSTSet
        Not verified here (:func:`improve_depth` checks its output as EDSTs).

    Example
    -------
    >>> s = searched_family(3, [np.array([[0, 1], [1, 2]])], ["path"], 0)
    >>> s[0].root, s[0].depth, s.constructions()
    (1, 1, ['path+ls'])
    """
    out = centred_trees(n, [sort_edge_rows(a) for a in arrays], [_tag(t) for t in tags])
    if before is not None:  # never worse than the input at its centres (the search keeps the best, this is a guard)
        ecc = trees_eccentricities(n, np.stack([sort_edge_rows(a) for a in before]))
        r_in = ecc.min(axis=1)
        d_out = np.array(out.depths())
        if (int(d_out.max()), int(d_out.sum())) > (int(r_in.max()), int(r_in.sum())):
            out = centred_trees(n, [sort_edge_rows(a) for a in before], [_tag(t) for t in tags])
    for t in out:
        t.meta["moves"] = moves
    return out
