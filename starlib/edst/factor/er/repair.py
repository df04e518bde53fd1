"""Complete a family of shallow spanning trees to one more tree by edge swaps (matroid-partition repair).

For odd ``q`` the lifted-cluster trees of :mod:`starlib.edst.factor.er.clusters` are one short of the bound
``(q+1)/2`` and leave exactly ``n - 1`` edges unused, which do not form a tree (docs/er-edsts.md §7).
:func:`complete_last_tree` builds the last tree ``F`` from them: Kruskal's rule puts every leftover edge that
joins two components of ``F`` into ``F``; each other leftover edge ``e = xy`` (it closes a cycle of ``F``) is
swapped into a tree ``T_t`` for an edge ``f`` of the ``T_t``-path from ``x`` to ``y`` that joins two components
of ``F``: ``T_t := T_t - f + e`` stays a spanning tree and ``F := F + f`` gains a component merge. These are the
length-2 augmenting paths of Edmonds' matroid partition (docs/er-edsts.md §8). Among all trees and all such
``f`` the swap that keeps the re-hung subtree shallowest is taken. If no length-2 swap exists, the general
augmentation of :class:`starlib.edst.packing.ForestPartition` (any length) finishes the job, so the result has
the maximum number of trees whenever one exists.

The existing trees are held as parent pointers rooted at ``w`` (found by the BFS of
:func:`starlib._kernels.bfs_edges`), so a swap costs ``O(depth)``; the Kruskal pass
(:func:`starlib._kernels.union_edges`) and the swaps (``O(n k depth)``, on the same union-find) are one
compiled call each.

Example
-------
>>> from starlib.edst.factor.er import cluster_layout, lifted_cluster_trees, singer_model
>>> L = cluster_layout(singer_model(5))
>>> trees, used = lifted_cluster_trees(L)
>>> out, stats = complete_last_tree(L.n, L.edges, trees, used, root=L.w)
>>> from starlib.edst.verify import verify_edsts
>>> len(out), verify_edsts(L.edges, out, n=L.n).valid
(3, True)

References
----------
docs/er-edsts.md §8 (Construction D). J. Edmonds, "Minimum partition of a matroid into
independent subsets", J. Res. NBS 69B (1965) 67-72.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ...._kernels import bfs_edges, find, union_edges
from ...packing import ForestPartition

__all__ = ["complete_last_tree"]


def _edge_index(n: int, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    key = np.minimum(edges[:, 0], edges[:, 1]) * np.int64(n) + np.maximum(edges[:, 0], edges[:, 1])
    order = np.argsort(key)
    return key[order], order


def _ids(n: int, skey: np.ndarray, order: np.ndarray, e: np.ndarray) -> np.ndarray:
    key = np.minimum(e[:, 0], e[:, 1]) * np.int64(n) + np.maximum(e[:, 0], e[:, 1])
    pos = np.searchsorted(skey, key)
    if np.any(pos >= skey.size) or not np.array_equal(skey[np.minimum(pos, skey.size - 1)], key):
        raise ValueError("trees: an edge is not an edge of the graph")
    return order[pos]


def _parents(n: int, edges: np.ndarray, ids: np.ndarray, root: int) -> tuple[np.ndarray, np.ndarray]:
    """Parent vertex and parent edge id of every vertex of the spanning tree ``edges[ids]`` (root: -1), by
    the kernels' BFS (in a tree both are unique, whatever the neighbour order)."""
    _, par, row, order = bfs_edges(n, edges[ids], np.array([root]))
    if order.size != n:
        raise ValueError(f"trees: a tree does not span the n={n} vertices")
    return par, np.append(ids, -1)[row]  # row -1 (the root) picks the appended -1


@numba.njit(cache=True)
def _path_to_root(p, x, out):  # pragma: no cover - compiled
    """``x`` and its ancestors under the parent pointers ``p`` into ``out``; returns their number."""
    k = 0
    out[0] = x
    while p[x] >= 0:
        x = p[x]
        k += 1
        out[k] = x
    return k + 1


@numba.njit(cache=True)
def _swaps(n, eu, ev, par, pedge, uf, pending, nnew):  # pragma: no cover - compiled
    """The length-2 exchanges of :func:`complete_last_tree`, in the order of ``pending``.

    ``par``, ``pedge`` (``(k, n)``: parent vertex and edge id per tree) and the union-find ``uf`` of the
    new tree ``F`` (``nnew`` edges so far) are updated in place. For each pending edge ``j = xy`` (until
    ``F`` has ``n - 1`` edges): over the trees ``t`` in order and the edges ``f`` of the ``T_t``-path from
    ``x`` (then from ``y``) to their lowest common ancestor, in order from ``x`` (from ``y``), take the
    first ``f`` joining two components of ``F`` with the least cost ``depth(other end) + 1 + i`` (the depth
    of the re-hung end, ``i`` the position of ``f`` on the path). Returns the ``f`` moved to ``F`` and the
    pending edges no swap could place, both in order.
    """
    k = par.shape[0]
    added = np.empty(pending.shape[0], np.int64)
    stuck = np.empty(pending.shape[0], np.int64)
    na = 0
    ns = 0
    ax = np.empty(n, np.int64)
    ay = np.empty(n, np.int64)
    pos_y = np.full(n, -1, np.int64)
    old_pe = np.empty(n, np.int64)
    for jj in range(pending.shape[0]):
        if nnew + na == n - 1:
            break
        j = pending[jj]
        x = eu[j]
        y = ev[j]
        best = -1
        bt = bside = bi = bf = -1
        for t in range(k):
            lx = _path_to_root(par[t], x, ax)
            ly = _path_to_root(par[t], y, ay)
            for i in range(ly):
                pos_y[ay[i]] = i
            lca_x = 0
            while pos_y[ax[lca_x]] < 0:
                lca_x += 1
            lca_y = pos_y[ax[lca_x]]
            for i in range(ly):
                pos_y[ay[i]] = -1
            for side in range(2):
                chain = ax if side == 0 else ay
                cut = lca_x if side == 0 else lca_y
                dep_other = (ly if side == 0 else lx) - 1
                for i in range(cut):
                    f = pedge[t, chain[i]]
                    if find(uf, eu[f]) == find(uf, ev[f]):
                        continue
                    cost = dep_other + 1 + i
                    if best < 0 or cost < best:
                        best, bt, bside, bi, bf = cost, t, side, i, f
        if best < 0:
            stuck[ns] = j
            ns += 1
            continue
        # re-hang: reverse the parent pointers along chain[0..i], then hang chain[0] from the other end
        p = par[bt]
        pe = pedge[bt]
        _path_to_root(p, x if bside == 0 else y, ax)
        for a in range(bi + 1):
            old_pe[a] = pe[ax[a]]
        for a in range(bi, 0, -1):
            p[ax[a]] = ax[a - 1]
            pe[ax[a]] = old_pe[a - 1]
        p[ax[0]] = y if bside == 0 else x
        pe[ax[0]] = j
        uf[find(uf, eu[bf])] = find(uf, ev[bf])
        added[na] = bf
        na += 1
    return added[:na], stuck[:ns]


def complete_last_tree(n: int, edges: np.ndarray, trees: list[np.ndarray], used: np.ndarray,
                       root: int = 0) -> tuple[list[np.ndarray], dict[str, Any]]:
    """Turn ``k - 1`` edge-disjoint spanning trees plus the unused edges into ``k`` spanning trees.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : ndarray
        ``(m, 2)`` edges of the host graph.
    trees : list of ndarray
        Edge-disjoint spanning trees (``(n-1, 2)`` arrays of vertex indices).
    used : ndarray
        Boolean mask over ``edges`` of the edges in ``trees``; the others (exactly ``n - 1`` of them, or
        more) are the material of the new tree.
    root : int
        Root used for the parent pointers of the existing trees (their depth is measured from it).

    Returns
    -------
    (trees, stats)
        The ``k`` trees (the new one last) and counters: ``swaps`` (length-2 exchanges), ``general``
        (insertions that needed the general augmentation).

    Raises
    ------
    ValueError
        If fewer than ``n - 1`` edges are unused, or the unused edges cannot be completed to a ``k``-th
        tree (then no ``k`` EDSTs exist).

    Example
    -------
    >>> import numpy as np
    >>> k4 = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    >>> star = k4[[0, 1, 2]]  # the star at 0 leaves the triangle 1 2 3, which is no tree
    >>> used = np.array([True, True, True, False, False, False])
    >>> out, st = complete_last_tree(4, k4, [star], used, root=0)
    >>> [o.shape[0] for o in out], st["swaps"]
    ([3, 3], 1)

    References
    ----------
    docs/er-edsts.md §8; Edmonds (1965).
    """
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    used = np.asarray(used, dtype=bool)
    free = np.flatnonzero(~used)
    if free.size < n - 1:
        raise ValueError(f"used: only {free.size} unused edges, a new spanning tree needs n-1={n - 1}")
    skey, sorder = _edge_index(n, edges)
    tids = [_ids(n, skey, sorder, t) for t in trees]
    k = len(trees)
    par = np.empty((k, n), dtype=np.int64)
    pedge = np.empty((k, n), dtype=np.int64)
    for t, ids in enumerate(tids):
        par[t], pedge[t] = _parents(n, edges, ids, root)

    # Kruskal pass over the unused edges, then the length-2 swaps (one compiled call each)
    uf = np.arange(n)
    joins = union_edges(uf, edges[free])
    added, stuck = _swaps(n, edges[:, 0].copy(), edges[:, 1].copy(), par, pedge, uf, free[~joins],
                          int(joins.sum()))
    new = np.concatenate([free[joins], added])
    swaps = int(added.size)

    general = 0
    if new.size < n - 1:
        # general matroid-partition augmentation for the rest
        fp = ForestPartition(n, edges, k + 1)
        for t in range(k):
            for eid in pedge[t][pedge[t] >= 0].tolist():
                fp.add(eid, t)
        for jj in new.tolist():
            fp.add(jj, k)
        rest = [jj for jj in stuck.tolist() if fp.owner[jj] < 0]
        for jj in rest:
            if fp.size[k] == n - 1:
                break
            if fp.insert(jj):
                general += 1
        if any(s != n - 1 for s in fp.size):
            raise ValueError(f"used: the unused edges cannot complete a {k + 1}-th spanning tree")
        out = [fp.forest_edges(t) for t in range(k + 1)]
        return out, {"swaps": swaps, "general": general}
    out = [edges[pedge[t][pedge[t] >= 0]] for t in range(k)]
    out.append(edges[new])
    return out, {"swaps": swaps, "general": general}

