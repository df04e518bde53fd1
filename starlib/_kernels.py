"""Compiled graph kernels (numba): adjacency arrays, breadth-first search, union-find, the EDST certificate.

These are the inner loops behind :mod:`starlib.edst.trees`, :mod:`starlib.edst.blocks` and
:mod:`starlib.edst.verify`; they take and return plain int64 arrays and know nothing about labels, so
the public functions keep their validation and error messages. Compiled code is cached on disk
(``cache=True``), so only the first call in a fresh checkout pays the compilation.

* :func:`csr` builds adjacency arrays ``(indptr, indices)`` of an undirected edge list, neighbours in the
  order the edges list them (``sort=False``: exactly the lists a Python loop appending ``v`` to ``adj[u]``
  and ``u`` to ``adj[v]`` edge by edge would build) or sorted (``sort=True``);
* :func:`bfs` is a FIFO breadth-first search over those arrays (distances, parents, visiting order);
* :func:`count_components` counts components with union-find (path halving);
* :func:`edst_certificate` decides in one pass over the trees whether they are edge-disjoint spanning
  trees of a graph whose edge list is canonical (rows ``u < v``, sorted): a union-find per tree
  (``n - 1`` edges and no cycle means spanning and acyclic), each tree edge dropped into the bucket of
  its smaller endpoint, then one sweep over the graph's rows matches every bucket against the row
  (membership) and catches an edge listed twice in any trees (disjointness). It answers yes or no;
  :func:`starlib.edst.verify.verify_edsts` reports the details when the answer is no.

Example
-------
>>> import numpy as np
>>> indptr, indices = csr(3, np.array([[0, 2], [0, 1]]), False)
>>> indptr.tolist(), indices.tolist()
([0, 2, 3, 4], [2, 1, 0, 0])
>>> dist, parent, order = bfs(indptr, indices, 1)
>>> dist.tolist(), parent.tolist(), order.tolist()
([1, 0, 2], [1, -1, 0], [1, 0, 2])
>>> count_components(4, np.array([[0, 1], [2, 3]]))
2
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["csr", "bfs", "count_components", "edst_certificate", "canonical_rows"]


@numba.njit(cache=True)
def _csr(n, edges, sort):  # pragma: no cover - compiled
    m = edges.shape[0]
    indptr = np.zeros(n + 1, np.int64)
    for i in range(m):
        indptr[edges[i, 0] + 1] += 1
        indptr[edges[i, 1] + 1] += 1
    for v in range(n):
        indptr[v + 1] += indptr[v]
    fill = indptr[:-1].copy()
    indices = np.empty(2 * m, np.int64)
    for i in range(m):
        u = edges[i, 0]
        v = edges[i, 1]
        indices[fill[u]] = v
        fill[u] += 1
        indices[fill[v]] = u
        fill[v] += 1
    if sort:
        for v in range(n):
            indices[indptr[v]:indptr[v + 1]].sort()
    return indptr, indices


def csr(n: int, edges: np.ndarray, sort: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Adjacency arrays of an undirected graph: ``indices[indptr[v]:indptr[v+1]]`` are ``v``'s neighbours.

    Parameters
    ----------
    n : int
        Number of vertices (indices ``0..n-1``; not re-checked).
    edges : ndarray
        ``(m, 2)`` integer edge list; a self-loop lists its vertex twice in its own row.
    sort : bool
        Sort every neighbour list; otherwise keep the order in which the edges list them.

    Example
    -------
    >>> indptr, indices = csr(3, np.array([[1, 2], [0, 1]]))
    >>> [indices[indptr[v]:indptr[v + 1]].tolist() for v in range(3)]
    [[1], [0, 2], [1]]
    """
    e = np.ascontiguousarray(np.asarray(edges, dtype=np.int64).reshape(-1, 2))
    return _csr(int(n), e, bool(sort))


@numba.njit(cache=True)
def _bfs(indptr, indices, root):  # pragma: no cover - compiled
    n = indptr.shape[0] - 1
    dist = np.full(n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    dist[root] = 0
    order[0] = root
    head = 0
    tail = 1
    while head < tail:
        x = order[head]
        head += 1
        dx = dist[x] + 1
        for j in range(indptr[x], indptr[x + 1]):
            y = indices[j]
            if dist[y] < 0:
                dist[y] = dx
                parent[y] = x
                order[tail] = y
                tail += 1
    return dist, parent, order[:tail]


def bfs(indptr: np.ndarray, indices: np.ndarray, root: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Breadth-first search from ``root`` over adjacency arrays (first-in first-out, neighbours in order).

    Returns
    -------
    dist : ``(n,)`` distance from ``root``, ``-1`` where unreachable.
    parent : ``(n,)`` BFS parent, ``-1`` at the root and where unreachable.
    order : the reached vertices in visiting order (``order[0] == root``).

    Example
    -------
    >>> indptr, indices = csr(4, np.array([[0, 1], [1, 2]]))
    >>> [a.tolist() for a in bfs(indptr, indices, 0)]
    [[0, 1, 2, -1], [-1, 0, 1, -1], [0, 1, 2]]
    """
    return _bfs(indptr, indices, int(root))


@numba.njit(cache=True)
def _find(par, x):  # pragma: no cover - compiled
    while par[x] != x:
        par[x] = par[par[x]]
        x = par[x]
    return x


@numba.njit(cache=True)
def _count_components(n, edges):  # pragma: no cover - compiled
    par = np.arange(n).astype(np.int32)
    comps = n
    for i in range(edges.shape[0]):
        x = _find(par, edges[i, 0])
        y = _find(par, edges[i, 1])
        if x != y:
            par[x] = y
            comps -= 1
    return comps


def count_components(n: int, edges: np.ndarray) -> int:
    """Number of connected components of the graph ``(n, edges)`` (union-find with path halving).

    Example
    -------
    >>> count_components(3, np.zeros((0, 2), dtype=np.int64))
    3
    """
    e = np.ascontiguousarray(np.asarray(edges, dtype=np.int64).reshape(-1, 2))
    return int(_count_components(int(n), e))


@numba.njit(cache=True)
def _row_starts(n, g):  # pragma: no cover - compiled
    """Start of every row of a canonical edge list by binary search; validity is checked by the sweep."""
    m = g.shape[0]
    ptr = np.empty(n + 1, np.int64)
    lo = 0
    for u in range(n):
        hi = m
        while lo < hi:
            mid = (lo + hi) >> 1
            if g[mid, 0] < u:
                lo = mid + 1
            else:
                hi = mid
        ptr[u] = lo
    ptr[n] = m
    return ptr


@numba.njit(cache=True)
def _tree_pass(n, ptr, e, fill, bucket, par):  # pragma: no cover - compiled
    """Union-find over one tree and its edges into the buckets; False at the first violation."""
    for v in range(n):
        par[v] = v
    for i in range(e.shape[0]):
        a = e[i, 0]
        b = e[i, 1]
        if a > b:
            a, b = b, a
        if a < 0 or b >= n or a == b:
            return False
        x = _find(par, a)
        y = _find(par, b)
        if x == y:
            return False
        par[x] = y
        f = fill[a]
        if f >= ptr[a + 1]:
            return False  # more tree edges at a than graph edges: not members, or not disjoint
        bucket[f] = b
        fill[a] = f + 1
    return True


@numba.njit(cache=True)
def _row_sweep(n, g, ptr, fill, bucket):  # pragma: no cover - compiled
    """Every bucket entry is a graph edge of its row, listed once; the graph rows are canonical."""
    stamp = np.full(n, -1, np.int64)
    used = np.full(n, -1, np.int64)
    if ptr[0] != 0:
        return False
    for u in range(n):
        prev = u
        for j in range(ptr[u], ptr[u + 1]):
            v = g[j, 1]
            if g[j, 0] != u or v <= prev or v >= n:
                return False  # not canonical: rows u < v, sorted, no repeats
            stamp[v] = u
            prev = v
        for j in range(ptr[u], fill[u]):
            v = bucket[j]
            if stamp[v] != u or used[v] == u:
                return False
            used[v] = u
    return True


def canonical_rows(n: int, edges: np.ndarray) -> bool:
    """True if ``edges`` is a canonical edge list of a graph on ``n`` vertices: rows ``u < v``, sorted, no repeats.

    Example
    -------
    >>> canonical_rows(3, np.array([[0, 1], [0, 2]])), canonical_rows(3, np.array([[0, 2], [0, 1]]))
    (True, False)
    """
    g = np.ascontiguousarray(np.asarray(edges, dtype=np.int64).reshape(-1, 2))
    if g.shape[0] and (g[0, 0] < 0 or g[-1, 0] >= n):
        return False
    ptr = _row_starts(int(n), g)
    return bool(_row_sweep(int(n), g, ptr, ptr[:-1].copy(), np.empty(0, np.int32)))


def edst_certificate(n: int, graph_edges: np.ndarray, trees: list[np.ndarray]) -> bool:
    """True iff ``trees`` are edge-disjoint spanning trees of the graph; False if any rule fails.

    ``graph_edges`` must be canonical (rows ``u < v``, sorted, no repeats: an
    :class:`~starlib.graphs.ArrayGraph`'s ``edges``); a non-canonical list also gives False, and the caller
    falls back to a method without that assumption. Each tree is an ``(k, 2)`` int64 array in any row order
    and orientation. Cost: one pass over the trees and one over the graph, memory ``O(n + m)``.

    Example
    -------
    >>> g = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    >>> edst_certificate(4, g, [np.array([[1, 0], [2, 1], [3, 2]]), np.array([[0, 2], [0, 3], [1, 3]])])
    True
    >>> edst_certificate(4, g, [np.array([[0, 1], [1, 2], [2, 3]]), np.array([[0, 1], [0, 3], [1, 3]])])
    False
    """
    g = np.ascontiguousarray(np.asarray(graph_edges, dtype=np.int64).reshape(-1, 2))
    n = int(n)
    if n < 1 or (g.shape[0] and (g[0, 0] < 0 or g[-1, 0] >= n)):
        return False
    ptr = _row_starts(n, g)
    fill = ptr[:-1].copy()
    bucket = np.empty(g.shape[0], np.int32 if n < 2**31 else np.int64)
    par = np.empty(n, np.int32 if n < 2**31 else np.int64)
    for t in trees:
        e = np.asarray(t)
        if e.dtype != np.int64 or not e.flags.c_contiguous:
            e = np.ascontiguousarray(e, dtype=np.int64)
        e = e.reshape(-1, 2)
        if e.shape[0] != n - 1 or not _tree_pass(n, ptr, e, fill, bucket, par):
            return False
    return bool(_row_sweep(n, g, ptr, fill, bucket))
