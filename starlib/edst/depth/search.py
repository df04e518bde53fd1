"""Depth of EDST families: a lower bound on the deepest tree, and a depth-reducing local search that keeps the count.

Two public functions:

* :func:`depth_lower_bound` -- a lower bound on the maximum depth of ANY family of ``k`` edge-disjoint spanning
  trees (each rooted anywhere) of a graph: the radius, and a degree-budget argument combined with the BFS balls;
* :func:`improve_depth` -- a local search that takes any family of EDSTs (an :class:`~.trees.EDSTSet`, a list of
  :class:`~.trees.Tree` or of edge arrays, e.g. read from a file) and returns a family with the same number of
  trees, every tree rooted at a centre, whose maximum depth is never larger, then whose mean depth is never larger.

The degree-budget argument
--------------------------
Let ``T_1, ..., T_k`` be edge-disjoint spanning trees of a graph ``G`` on ``n >= 2`` vertices. Every spanning tree
has at least one edge at every vertex, so at a vertex ``x`` the ``k - 1`` trees other than ``T`` use at least
``k - 1`` of the ``deg(x)`` edges at ``x``, and ``deg_T(x) <= b(x) := deg(x) - (k - 1)``, the budget of ``x``.
Root ``T`` at ``r`` and let ``L_i`` be the number of vertices at depth ``i`` and ``C_i = L_0 + ... + L_i``. Then

1. ``L_0 = 1`` and ``L_1 <= b(r)`` (the root's neighbours in ``T``);
2. a non-root vertex spends one unit of its budget on its parent, so ``L_{i+1} <= L_i (B - 1)`` for ``i >= 1``,
   with ``B`` the largest budget of a non-root vertex (the Moore-type bound);
3. a vertex at depth ``i`` in ``T`` is at distance ``<= i`` from ``r`` in ``G`` (the tree path is a walk of
   ``G``), so ``C_i <= |ball_G(r, i)|``.

Define ``U_0 = S_0 = 1`` and, for ``i >= 0``, ``u = b(r)`` if ``i = 0`` else ``U_i (B - 1)``,
``S_{i+1} = min(|ball_G(r, i + 1)|, S_i + u)`` and ``U_{i+1} = min(u, S_{i+1} - 1)``. By induction ``L_i <= U_i``
and ``C_i <= S_i``: ``C_{i+1} = C_i + L_{i+1} <= S_i + u`` by 2 (or 1), ``C_{i+1} <= |ball(r, i+1)|`` by 3, and
``L_{i+1} <= C_{i+1} - 1 <= S_{i+1} - 1`` (the root is not at depth ``i + 1``). A tree of depth ``D`` rooted at
``r`` has ``C_D = n``, hence ``S_D >= n``: its depth is at least ``D(r)``, the least ``D`` with ``S_D >= n``.
Minimising over ``r`` gives a bound for every tree of the family wherever it is rooted, hence for the family's
maximum depth; and since ``S_D <= |ball(r, D)|``, ``D(r) >= ecc(r)``, so the bound is at least the radius. The
sum of the ``k`` depths is at least ``k`` times it.

For ER_q (``q`` odd, ``k = (q + 1) / 2``, degrees ``q`` and ``q + 1``) the budget is ``b <= (q + 3) / 2 = k + 1``,
so a tree of depth 2 has at most ``1 + (k + 1) + (k + 1) k = (k + 1)^2 < q^2 + q + 1`` vertices: the bound is
``>= 3``.

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

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import auto_trees
>>> P = slimfly(5)
>>> T = auto_trees(P)
>>> S = improve_depth(P, T)
>>> len(S) == len(T), max(S.depths()) <= max(T.depths()), depth_lower_bound(P, len(T)).value <= max(S.depths())
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from .._kernels import bfs, bfs_scan, csr, trees_eccentricities
from ..graphs import ArrayGraph, as_graph
from ..validation import check_int
from .forest_union import reverse_path
from .trees import EDSTSet, Tree, centred_trees, sort_edge_rows
from .verify import check_edsts

__all__ = ["DepthBound", "depth_lower_bound", "improve_depth"]


# ----------------------------------------------------------------------------------------------------------------
# lower bound
# ----------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DepthBound:
    """A lower bound on the maximum depth of any family of ``k`` EDSTs of a graph.

    Attributes
    ----------
    value : the bound (the largest of ``values``).
    argument : the name of the argument that gives it (``"radius"``, ``"degree budget"`` or
        ``"degree budget + balls"``; the first in that order that reaches ``value``).
    values : every argument's bound: ``"radius"``, ``"degree budget"`` (Moore-type count without the balls,
        least over the roots), ``"degree budget + balls"`` (the combined count, least over the roots).
    k : the number of trees.
    root : a root at which the combined bound is attained.
    sum_value : a lower bound on the sum of the ``k`` depths (``k * value``).

    A value ``n + 1`` (above any depth) means that the budgets leave no spanning tree from any root: no family
    of ``k`` EDSTs exists (e.g. ``k = 3`` on ``K_4``).
    """

    value: int
    argument: str
    values: dict[str, int] = field(default_factory=dict)
    k: int = 1
    root: int = 0
    sum_value: int = 0


@numba.njit(cache=True)
def _bound_kernel(indptr, indices, budget, k_big, n):  # pragma: no cover - compiled
    """Per root: eccentricity, budget-only depth, budget+ball depth (least over roots, with pruning)."""
    big = n + 1
    # the two largest budgets, so that B (largest among non-root vertices) is known for every root
    b1 = -1
    b2 = -1
    i1 = -1
    for v in range(n):
        if budget[v] > b1:
            b2 = b1
            b1 = budget[v]
            i1 = v
        elif budget[v] > b2:
            b2 = budget[v]
    best_rad = big
    best_moore = big
    best_comb = big
    best_root = 0
    seen = np.full(n, -1, np.int64)  # BFS stamps: the root r marks what its search reached (no resets)
    dist = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    none = np.empty(0, np.int64)
    one = np.empty(1, np.int64)
    ball = np.zeros(n + 2, np.int64)
    moore = np.empty(n, np.int64)
    for r in range(n):  # the budget-only count of every root
        bm = b2 if r == i1 else b1  # largest non-root budget
        br = budget[r]
        s = 1
        u = 1
        d = 0
        while s < n and d <= n:
            if d == 0:
                uu = br
            else:
                uu = u * (bm - 1)
            if uu <= 0:
                d = big
                break
            if uu > n:
                uu = n
            s = s + uu
            u = uu
            d += 1
        moore[r] = d
        if d < best_moore:
            best_moore = d
    # no root has eccentricity below rad_floor (1 if a vertex sees all others, else 2), nor a combined count below
    # max(best_moore, rad_floor): once both are reached, the remaining roots cannot lower either
    rad_floor = 1 if n == 1 else 2
    for v in range(n):
        if indptr[v + 1] - indptr[v] >= n - 1:
            rad_floor = 1
    lb = np.zeros(n, np.int64)  # lower bounds on ecc(r) from the BFS done: d(s, r) and ecc(s) - d(s, r)
    for r in range(n):
        if best_rad <= rad_floor and best_comb <= max(best_moore, rad_floor):
            break
        if lb[r] >= best_rad and max(moore[r], lb[r]) >= best_comb:
            continue  # ecc(r) >= lb[r] and the combined count >= max(moore[r], ecc(r)): r lowers neither bound
        bm = b2 if r == i1 else b1
        br = budget[r]
        # BFS levels from r, stopped once deeper than every bound still worth computing
        limit = max(best_rad, best_comb)
        one[0] = r
        tail = bfs_scan(indptr, indices, one, r, seen, dist, none, queue, 0, limit)
        ecc = 0
        # ball sizes by level (vertices reached with dist <= level)
        for i in range(n + 2):
            ball[i] = 0
        reached = 0
        for i in range(tail):
            v = queue[i]
            if dist[v] > ecc:
                ecc = dist[v]
            ball[dist[v]] += 1
            reached += 1
        if reached < n:
            continue  # the BFS stopped deeper than the best bounds: ecc(r) > both, this root cannot beat them
        if ecc < best_rad:
            best_rad = ecc
        for v in range(n):
            dv = dist[v]
            if dv > lb[v]:
                lb[v] = dv
            if ecc - dv > lb[v]:
                lb[v] = ecc - dv
        for i in range(1, n + 2):
            ball[i] += ball[i - 1]
        # combined count: S_{d+1} = min(|ball(r, d+1)|, S_d + u), U_{d+1} = min(u, S_{d+1} - 1)
        s = 1
        u = 1
        d = 0
        while s < n:
            if d == 0:
                uu = br
            else:
                uu = u * (bm - 1)
            if uu <= 0:
                d = big  # no vertex can be added below: no spanning tree from this root
                break
            if uu > n:
                uu = n
            s2 = min(ball[d + 1], s + uu)
            if s2 - 1 < uu:
                uu = s2 - 1
            s = s2
            u = uu
            d += 1
        if d < best_comb:
            best_comb = d
            best_root = r
    return best_rad, best_moore, best_comb, best_root


def depth_lower_bound(graph: Any, k: int) -> DepthBound:
    """A lower bound on the maximum depth of any family of ``k`` edge-disjoint spanning trees of ``graph``.

    The argument (module docstring): the radius, and the degree budget ``b(x) = deg(x) - (k - 1)`` (every other
    tree uses an edge at ``x``) counted level by level, at most ``b(r)`` vertices at depth 1 and ``B - 1`` times
    the previous level below (``B`` the largest non-root budget), with the vertices within depth ``i`` inside the
    BFS ball of radius ``i`` around the root; least over every root ``r``.

    One BFS per root (compiled), cut short when deeper than the best bounds so far; a root is skipped when the
    BFS already done show that it lowers neither bound (``ecc(r) >= d(s, r)`` and ``>= ecc(s) - d(s, r)`` for
    every source ``s`` searched), and the roots stop as soon as the radius reaches 2 (1 if a vertex is adjacent
    to all others) and the combined bound the least budget-only bound, which no root can go below (Slim Fly
    MMS(43), 120,185 links: one root, 0.01 s).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected undirected graph (read by :func:`~starlib.graphs.as_graph`).
    k : int
        The number of trees, ``k >= 1``.

    Returns
    -------
    DepthBound
        ``value`` (the bound), ``argument`` (which argument gives it) and every argument's ``values``.

    Raises
    ------
    ValueError
        If ``k < 1`` or the graph is disconnected.

    Example
    -------
    >>> from starlib.factors import complete
    >>> b = depth_lower_bound(complete(5), 2)
    >>> b.value, b.argument, b.values["radius"]
    (2, 'degree budget', 1)
    """
    k = check_int(k, "k", minimum=1, rule="a number of trees k >= 1")
    g = as_graph(graph, "graph")
    n = int(g.n)
    if n == 1:
        return DepthBound(0, "radius", {"radius": 0, "degree budget": 0, "degree budget + balls": 0}, k, 0, 0)
    e = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    indptr, indices = csr(n, e, sort=False)
    deg = np.diff(indptr)
    budget = (deg - (k - 1)).astype(np.int64)
    rad, moore, comb, root = _bound_kernel(indptr, indices, budget, k, n)
    if rad > n:
        raise ValueError("graph: disconnected, no spanning tree exists")
    values = {"radius": int(rad), "degree budget": int(moore), "degree budget + balls": int(comb)}
    value = max(values.values())
    arg = next(a for a, v in values.items() if v == value)
    return DepthBound(int(value), arg, values, k, int(root), int(k * value))


# ----------------------------------------------------------------------------------------------------------------
# local search
# ----------------------------------------------------------------------------------------------------------------


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
def _below(t, u, v, par, depth):  # pragma: no cover - compiled
    """True if ``u`` lies in the subtree of ``v`` (walk up from ``u``)."""
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
        if v != y:
            pp = par[b, v]
            if mark[pp] == 0:
                mark[pp] = 1
                nd[pp] = nd[v] + 1
                q[tl] = pp
                tl += 1
        c = fc[b, v]
        while c >= 0:
            if mark[c] == 0:
                mark[c] = 1
                nd[c] = nd[v] + 1
                q[tl] = c
                tl += 1
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
                        if _below(b, p, x, par, depth):
                            continue
                        delta = da + sub[b, x] * (pw[depth[b, p] + 1] / pw[depth[b, x]] - 1.0)
                    else:  # y below x in T_b: legal iff p is below y
                        if not _below(b, p, y, par, depth):
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


def _family_arrays(trees: Any) -> tuple[list[np.ndarray], list[str]]:
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


def _graph_index(g: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, Any]:
    """Adjacency arrays with an edge id per slot (edge ``j`` gives a slot at both ends), and ``ids(u, v)``, the
    edge ids of end pairs (vectorised; ``ids.m`` is the number of edges)."""
    n = int(g.n)
    gedges = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    m = gedges.shape[0]
    gkeys = np.minimum(gedges[:, 0], gedges[:, 1]) * n + np.maximum(gedges[:, 0], gedges[:, 1])
    order = np.argsort(gkeys, kind="stable")
    skeys = gkeys[order]

    def ids(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return order[np.searchsorted(skeys, np.minimum(u, v) * n + np.maximum(u, v))]

    ids.m = m  # type: ignore[attr-defined]

    both = np.concatenate([gedges, gedges[:, ::-1]])
    eids = np.concatenate([np.arange(m), np.arange(m)])
    srt = np.lexsort((both[:, 1], both[:, 0]))
    indices = np.ascontiguousarray(both[srt, 1])
    eid = np.ascontiguousarray(eids[srt])
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(both[:, 0], minlength=n), out=indptr[1:])
    return indptr, indices, eid, ids


def improve_depth(graph: Any, trees: Sequence[Any], *, max_rounds: int = 60, seed: int = 0,
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
        restarts = 24 if g.m <= 20_000 else 12 if g.m <= 50_000 else 4 if g.m <= 200_000 else 1
    restarts = check_int(restarts, "restarts", minimum=1, rule="a number of runs >= 1")
    check_edsts(g, trees)
    arrays, tags = _family_arrays(trees)
    k = len(arrays)
    if n == 1:  # every tree is empty, of depth 0
        return EDSTSet(Tree(np.zeros((0, 2), dtype=np.int64), 0, _tag(t), n=1, meta={"moves": 0}) for t in tags)
    if n == 2:
        return _output(g, n, arrays, tags, 0)
    indptr, indices, eid, ids = _graph_index(g)
    m = int(ids.m)
    owner = np.full(m, -1, dtype=np.int64)
    par = np.full((k, n), -1, dtype=np.int64)
    pe = np.full((k, n), -1, dtype=np.int64)
    root = np.zeros(k, dtype=np.int64)
    for t, arr in enumerate(arrays):
        _, parent, _ = bfs(*csr(n, arr, sort=False), 0)
        par[t] = parent
        child = np.arange(1, n)
        pe[t, 1:] = ids(child, parent[1:])
        owner[pe[t, 1:]] = t
    best: tuple[int, int] | None = None
    moves = 0
    for r in range(restarts):
        rank = np.random.default_rng(seed + r).permutation(k * n).astype(np.int64)
        c = float(base) if r % 3 == 0 else (3.0 if r % 3 == 1 else 20.0)
        with np.errstate(over="ignore"):
            pw = c ** np.arange(n + 2, dtype=np.float64)
        # only the depths that occur matter; a capped power keeps every sum finite (moves stay legal)
        pw = np.minimum(pw, np.finfo(np.float64).max / (4.0 * n * max(k, 1)))
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
    return _output(g, n, child_rows, tags, int(moves), before=arrays)


def _output(g: ArrayGraph, n: int, arrays: list[np.ndarray], tags: list[str], moves: int,
            before: list[np.ndarray] | None = None) -> EDSTSet:
    out = centred_trees(n, [sort_edge_rows(a) for a in arrays], [_tag(t) for t in tags])
    if before is not None:  # never worse than the input at its centres (the search keeps the best, this is a guard)
        ecc = trees_eccentricities(n, np.stack([sort_edge_rows(a) for a in before]))
        r_in = ecc.min(axis=1)
        d_out = np.array(out.depths())
        if (int(d_out.max()), int(d_out.sum())) > (int(r_in.max()), int(r_in.sum())):
            out = centred_trees(n, [sort_edge_rows(a) for a in before], [_tag(t) for t in tags])
    for t in out:
        t.meta["moves"] = moves
    check_edsts(g, out)
    return out
