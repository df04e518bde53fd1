"""Complete a family of shallow spanning trees to one more tree by edge swaps (matroid-partition repair).

For odd ``q`` the lifted-cluster trees of :mod:`starlib.edst.factor.er_clusters` are one short of the bound
``(q+1)/2`` and leave exactly ``n - 1`` edges unused, which do not form a tree (spec er_polarfly.md
§1.6b). :func:`complete_last_tree` builds the last tree ``F`` from them: Kruskal's rule puts every
leftover edge that joins two components of ``F`` into ``F``; each other leftover edge ``e = xy`` (it
closes a cycle of ``F``) is swapped into a tree ``T_t`` for an edge ``f`` of the ``T_t``-path from ``x``
to ``y`` that joins two components of ``F``: ``T_t := T_t - f + e`` stays a spanning tree and ``F := F + f``
gains a component merge. These are the length-2 augmenting paths of Edmonds' matroid partition (§1.6b
step 2). Among all trees and all such ``f`` the swap that keeps the re-hung subtree shallowest is taken.
If no length-2 swap exists, the general augmentation of
:class:`starlib.edst.packing.ForestPartition` (any length) finishes the job, so the result has the
maximum number of trees whenever one exists.

The existing trees are held as parent pointers rooted at ``w``, so a swap costs ``O(depth)``; the whole
repair is ``O(n k depth)`` Python steps plus one vectorised Kruskal pass.

Example
-------
>>> from starlib.edst.factor.er_singer import singer_model
>>> from starlib.edst.factor.er_clusters import cluster_layout, lifted_cluster_trees
>>> L = cluster_layout(singer_model(5))
>>> trees, used = lifted_cluster_trees(L)
>>> out, stats = complete_last_tree(L.n, L.edges, trees, used, root=L.w)
>>> from starlib.edst.verify import verify_edsts
>>> len(out), verify_edsts(L.edges, out, n=L.n).valid
(3, True)

References
----------
Spec er_polarfly.md §1.6b (Construction D, step 2). J. Edmonds, "Minimum partition of a matroid into
independent subsets", J. Res. NBS 69B (1965) 67-72.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ..packing import ForestPartition

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


def _parents(n: int, edges: np.ndarray, ids: np.ndarray, root: int) -> tuple[list[int], list[int]]:
    """Parent vertex and parent edge id of every vertex of a spanning tree (root: -1)."""
    par, pe, reached = _tree_parents(n, edges, ids, root)
    if reached != n:
        raise ValueError(f"trees: a tree does not span the n={n} vertices")
    return par.tolist(), pe.tolist()


@numba.njit(cache=True)
def _tree_parents(n, edges, ids, root):  # pragma: no cover - compiled
    """BFS from ``root`` over the edges ``edges[ids]``: parent vertex, parent edge id (``-1`` at the root and
    unreached vertices) and the number of vertices reached. In a tree both are unique, whatever the order."""
    m = ids.shape[0]
    ptr = np.zeros(n + 1, np.int64)
    for j in range(m):
        ptr[edges[ids[j], 0] + 1] += 1
        ptr[edges[ids[j], 1] + 1] += 1
    for v in range(n):
        ptr[v + 1] += ptr[v]
    fill = ptr[:n].copy()
    nb = np.empty(2 * m, np.int64)
    eid = np.empty(2 * m, np.int64)
    for j in range(m):
        u = edges[ids[j], 0]
        v = edges[ids[j], 1]
        nb[fill[u]] = v
        eid[fill[u]] = ids[j]
        fill[u] += 1
        nb[fill[v]] = u
        eid[fill[v]] = ids[j]
        fill[v] += 1
    par = np.full(n, -1, np.int64)
    pe = np.full(n, -1, np.int64)
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    seen[root] = True
    queue[0] = root
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for p in range(ptr[u], ptr[u + 1]):
            v = nb[p]
            if not seen[v]:
                seen[v] = True
                par[v] = u
                pe[v] = eid[p]
                queue[tail] = v
                tail += 1
    return par, pe, tail


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
    Spec er_polarfly.md §1.6b step 2; Edmonds (1965).
    """
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    m = edges.shape[0]
    used = np.asarray(used, dtype=bool)
    free = np.flatnonzero(~used)
    if free.size < n - 1:
        raise ValueError(f"used: only {free.size} unused edges, a new spanning tree needs n-1={n - 1}")
    skey, sorder = _edge_index(n, edges)
    tids = [_ids(n, skey, sorder, t) for t in trees]
    eu, ev = edges[:, 0].tolist(), edges[:, 1].tolist()
    owner = [-1] * m
    for t, ids in enumerate(tids):
        for j in ids.tolist():
            owner[j] = t
    par: list[list[int]] = []
    pedge: list[list[int]] = []
    for ids in tids:
        p, pe = _parents(n, edges, ids, root)
        par.append(p)
        pedge.append(pe)

    # Kruskal pass over the unused edges (vectorised union-find is not needed: n - 1 unions)
    uf = list(range(n))

    def find(x: int) -> int:
        r = x
        while uf[r] != r:
            r = uf[r]
        while uf[x] != r:
            uf[x], x = r, uf[x]
        return r

    new: list[int] = []
    pending: list[int] = []
    for j in free.tolist():
        ra, rb = find(eu[j]), find(ev[j])
        if ra != rb:
            uf[ra] = rb
            new.append(j)
        else:
            pending.append(j)

    def ancestors(t: int, x: int) -> list[int]:
        p = par[t]
        out = [x]
        while p[x] >= 0:
            x = p[x]
            out.append(x)
        return out

    swaps = 0
    stuck: list[int] = []
    k = len(trees)
    for j in pending:
        if len(new) == n - 1:
            break
        x, y = eu[j], ev[j]
        best = None
        for t in range(k):
            ax, ay = ancestors(t, x), ancestors(t, y)
            sy = set(ay)
            lca_i = next(i for i, v in enumerate(ax) if v in sy)
            lca = ax[lca_i]
            ly = ay.index(lca)
            # path edges: (ax[i] -> parent) for i < lca_i, (ay[i] -> parent) for i < ly
            for side, chain, cut, dep_other in ((0, ax, lca_i, len(ay) - 1), (1, ay, ly, len(ax) - 1)):
                for i in range(cut):
                    c = chain[i]
                    f = pedge[t][c]
                    if find(eu[f]) == find(ev[f]):
                        continue
                    # re-hang the subtree of c below `other`: chain[0] becomes the child of `other`
                    cost = dep_other + 1 + i
                    if best is None or cost < best[0]:
                        best = (cost, t, side, i, f)
        if best is None:
            stuck.append(j)
            continue
        _, t, side, i, f = best
        chain = ancestors(t, x if side == 0 else y)[: i + 1]  # chain[0] .. chain[i] = c
        other = y if side == 0 else x
        p, pe = par[t], pedge[t]
        # reverse the parent pointers along chain, then hang chain[0] from `other`
        old_pe = [pe[v] for v in chain]
        for a in range(i, 0, -1):
            p[chain[a]] = chain[a - 1]
            pe[chain[a]] = old_pe[a - 1]
        p[chain[0]] = other
        pe[chain[0]] = j
        owner[f] = -1
        owner[j] = t
        ra, rb = find(eu[f]), find(ev[f])
        uf[ra] = rb
        new.append(f)
        swaps += 1

    general = 0
    if len(new) < n - 1:
        # general matroid-partition augmentation for the rest
        fp = ForestPartition(n, edges, k + 1)
        for t in range(k):
            for v in range(n):
                if pedge[t][v] >= 0:
                    fp.add(pedge[t][v], t)
        for jj in new:
            fp.add(jj, k)
        rest = [jj for jj in stuck if fp.owner[jj] < 0]
        for jj in rest:
            if fp.size[k] == n - 1:
                break
            if fp.insert(jj):
                general += 1
        if any(s != n - 1 for s in fp.size):
            raise ValueError(f"used: the unused edges cannot complete a {k + 1}-th spanning tree")
        out = [edges[np.array(_forest_ids(fp, t, n), dtype=np.int64)] for t in range(k + 1)]
        return out, {"swaps": swaps, "general": general}
    out = []
    for t in range(k):
        ids = np.array([pedge[t][v] for v in range(n) if pedge[t][v] >= 0], dtype=np.int64)
        out.append(edges[ids])
    out.append(edges[np.array(new, dtype=np.int64)])
    return out, {"swaps": swaps, "general": general}


def _forest_ids(fp: ForestPartition, t: int, n: int) -> list[int]:
    return sorted({eid for v in range(n) for eid in fp.adj[t][v].values()})
