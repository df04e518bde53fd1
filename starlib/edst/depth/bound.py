"""A lower bound on the depth of any family of ``k`` edge-disjoint spanning trees: the radius and degree budgets.

:func:`depth_lower_bound` bounds the maximum depth of ANY family of ``k`` edge-disjoint spanning trees (each rooted
anywhere) of a graph: the radius, and a degree-budget argument combined with the BFS balls.
:func:`~starlib.edst.depth.shallow.shallow_trees` records it on every tree, so a reader sees the gap.

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

Example
-------
>>> from starlib.factors import polarfly
>>> b = depth_lower_bound(polarfly(7), 4)
>>> b.value, b.argument  # ER_7: the degree budget alone gives the 3 of the argument above
(3, 'degree budget')
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from ..._kernels import bfs_scan, csr
from ...graphs import GraphLike, as_graph
from ...validation import check_int

__all__ = ["DepthBound", "depth_lower_bound"]


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


def depth_lower_bound(graph: GraphLike, k: int) -> DepthBound:
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
