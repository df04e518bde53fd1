"""Compiled graph kernels (numba): adjacency arrays, breadth-first search, union-find, the EDST certificate.

These are the inner loops behind :mod:`starlib.edst.trees`, :mod:`starlib.edst.product.blocks` and
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

__all__ = ["csr", "bfs", "count_components", "edst_certificate", "canonical_rows", "tree_eccentricities",
           "trees_eccentricities", "bfs_forest", "sorted_rows"]


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
    if not sort:
        for i in range(m):
            u = edges[i, 0]
            v = edges[i, 1]
            indices[fill[u]] = v
            fill[u] += 1
            indices[fill[v]] = u
            fill[v] += 1
        return indptr, indices
    # sorted rows without a comparison sort: build the rows unsorted, then walk the vertices h in increasing
    # order and append h to the row of each neighbour of h; every row receives its neighbours in order
    for i in range(m):
        u = edges[i, 0]
        v = edges[i, 1]
        indices[fill[u]] = v
        fill[u] += 1
        indices[fill[v]] = u
        fill[v] += 1
    out = np.empty(2 * m, np.int64)
    fill[:] = indptr[:-1]
    for h in range(n):
        for j in range(indptr[h], indptr[h + 1]):
            t = indices[j]
            out[fill[t]] = h
            fill[t] += 1
    return indptr, out


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
def _bfs_from(indptr, indices, roots):  # pragma: no cover - compiled
    """FIFO search from every root at once: distance, parent (-1 at roots and unreached), visiting order."""
    n = indptr.shape[0] - 1
    dist = np.full(n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    tail = 0
    for r in roots:
        if dist[r] < 0:
            dist[r] = 0
            order[tail] = r
            tail += 1
    head = 0
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


@numba.njit(cache=True)
def _bfs(indptr, indices, root):  # pragma: no cover - compiled
    return _bfs_from(indptr, indices, np.array([root], np.int64))


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
def _tree_eccentricities(n, edges):  # pragma: no cover - compiled
    """Eccentricities in the tree ``(n, edges)`` by three BFS; all -1 if it does not span."""
    indptr, indices = _csr(n, edges, False)
    d0 = _bfs(indptr, indices, 0)[0]
    if d0.min() < 0:
        return np.full(n, -1, np.int64)
    da = _bfs(indptr, indices, np.argmax(d0))[0]
    db = _bfs(indptr, indices, np.argmax(da))[0]
    return np.maximum(da, db)


@numba.njit(cache=True)
def _trees_eccentricities(n, trees):  # pragma: no cover - compiled
    """Eccentricities in each of ``t`` trees ``(t, n-1, 2)``; row of -1 for a tree that does not span."""
    out = np.empty((trees.shape[0], n), np.int64)
    for i in range(trees.shape[0]):
        out[i, :] = _tree_eccentricities(n, trees[i])
    return out


def tree_eccentricities(n: int, edges: np.ndarray) -> np.ndarray:
    """Eccentricity of every vertex of the tree ``(n, edges)``; all ``-1`` if the edges do not connect it.

    Example
    -------
    >>> tree_eccentricities(3, np.array([[0, 1], [1, 2]])).tolist()
    [2, 1, 2]
    """
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    return _tree_eccentricities(int(n), np.ascontiguousarray(np.asarray(edges, dtype=np.int64).reshape(-1, 2)))


def trees_eccentricities(n: int, trees: np.ndarray) -> np.ndarray:
    """Eccentricity of every vertex in each of ``t`` trees given as one ``(t, n-1, 2)`` array.

    For a tree, ``ecc(v) = max(dist(v, a), dist(v, b))`` with ``a, b`` the ends of a diameter (three BFS
    per tree). A row is all ``-1`` if that tree does not span the ``n`` vertices.

    Example
    -------
    >>> trees_eccentricities(3, np.array([[[0, 1], [1, 2]], [[0, 2], [2, 1]]])).tolist()
    [[2, 1, 2], [2, 2, 1]]
    """
    e = np.ascontiguousarray(np.asarray(trees, dtype=np.int64).reshape(-1, max(int(n) - 1, 0), 2))
    if n == 1:
        return np.zeros((e.shape[0], 1), dtype=np.int64)
    return _trees_eccentricities(int(n), e)


def bfs_forest(indptr: np.ndarray, indices: np.ndarray, roots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first search from several roots at once: ``(level, parent)``, ``-1`` where unreached.

    In a forest with one root per component every vertex gets its distance to, and its neighbour towards,
    the root of its component (the same as one search per root).

    Example
    -------
    >>> indptr, indices = csr(5, np.array([[0, 1], [1, 2], [3, 4]]))
    >>> [a.tolist() for a in bfs_forest(indptr, indices, np.array([2, 3]))]
    [[2, 1, 0, 0, 1], [1, 2, -1, -1, 3]]
    """
    dist, parent, _ = _bfs_from(indptr, indices, np.ascontiguousarray(roots, dtype=np.int64))
    return dist, parent


@numba.njit(cache=True)
def _sorted_rows(e):  # pragma: no cover - compiled
    """Rows ``(min, max)`` in lexicographic order by two stable counting passes (by max, then by min).
    Returns an empty array when the indices are negative or too sparse for counting (caller sorts)."""
    m = e.shape[0]
    lo_min = 0
    base = 0
    for i in range(m):
        a = min(e[i, 0], e[i, 1])
        b = max(e[i, 0], e[i, 1])
        if a < lo_min:
            lo_min = a
        if b + 1 > base:
            base = b + 1
    if lo_min < 0 or base > 4 * m + 1024:
        return np.empty((0, 2), np.int64)
    cnt = np.zeros(base + 1, np.int64)
    for i in range(m):
        cnt[max(e[i, 0], e[i, 1]) + 1] += 1
    for v in range(base):
        cnt[v + 1] += cnt[v]
    tmp = np.empty((m, 2), np.int64)
    for i in range(m):
        a = min(e[i, 0], e[i, 1])
        b = max(e[i, 0], e[i, 1])
        k = cnt[b]
        tmp[k, 0] = a
        tmp[k, 1] = b
        cnt[b] = k + 1
    cnt[:] = 0
    for i in range(m):
        cnt[tmp[i, 0] + 1] += 1
    for v in range(base):
        cnt[v + 1] += cnt[v]
    out = np.empty((m, 2), np.int64)
    for i in range(m):
        k = cnt[tmp[i, 0]]
        out[k, 0] = tmp[i, 0]
        out[k, 1] = tmp[i, 1]
        cnt[tmp[i, 0]] = k + 1
    return out


def sorted_rows(edges: np.ndarray) -> np.ndarray | None:
    """Rows ``u < v`` sorted lexicographically by counting sort (linear time), or None when the vertex
    indices are negative or sparse (more than ``4 m + 1024``) and a comparison sort is the better choice.

    Example
    -------
    >>> sorted_rows(np.array([[3, 1], [0, 2], [1, 0]])).tolist()
    [[0, 1], [0, 2], [1, 3]]
    """
    e = np.asarray(edges)
    if e.dtype != np.int64 or not e.flags.c_contiguous:
        e = np.ascontiguousarray(e, dtype=np.int64)
    e = e.reshape(-1, 2)
    out = _sorted_rows(e)
    return out if out.shape[0] == e.shape[0] else None


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
    """Start of every row of a canonical edge list by galloping search from the previous row's start
    (rows are short, so this touches a few entries per row); validity is checked by :func:`_match_rows`."""
    m = g.shape[0]
    ptr = np.empty(n + 1, np.int64)
    lo = 0
    for u in range(n):
        if lo >= m or g[lo, 0] >= u:
            ptr[u] = lo
            continue
        # g[lo, 0] < u: gallop to a bound hi with g[hi, 0] >= u (or hi = m), then bisect (lo, hi]
        step = 1
        hi = lo + 1
        while hi < m and g[hi, 0] < u:
            lo = hi
            step *= 2
            hi = lo + step
        if hi > m:
            hi = m
        while hi - lo > 1:
            mid = (lo + hi) >> 1
            if g[mid, 0] < u:
                lo = mid
            else:
                hi = mid
        lo = hi
        ptr[u] = lo
    ptr[n] = m
    return ptr


@numba.njit(cache=True)
def _tree_pass(n, ptr, e, fill, bucket, par):  # pragma: no cover - compiled
    """One tree: ``n - 1`` edges in range, no loop, no cycle (union-find with path halving), so a spanning
    tree; each edge dropped into the bucket of its smaller end (capacity: the graph's row there, so an
    overflow already means a non-member or a repeat). False at the first violation."""
    if e.shape[0] != n - 1:
        return False
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
            return False
        bucket[f] = b
        fill[a] = f + 1
    return True


@numba.njit(cache=True)
def _match_rows(n, g, ptr, fills, buckets, u0, u1):  # pragma: no cover - compiled
    """Rows ``u0..u1-1``: the graph rows are canonical, and every bucketed tree edge is a graph edge met once."""
    stamp = np.full(n, -1, np.int64)
    used = np.full(n, -1, np.int64)
    for u in range(u0, u1):
        prev = u
        for j in range(ptr[u], ptr[u + 1]):
            v = g[j, 1]
            if g[j, 0] != u or v <= prev or v >= n:
                return False  # not canonical: rows u < v, sorted, no repeats
            stamp[v] = u
            prev = v
        for k in range(fills.shape[0]):
            for j in range(ptr[u], fills[k, u]):
                v = buckets[k, j]
                if stamp[v] != u or used[v] == u:
                    return False
                used[v] = u
    return True


@numba.njit(cache=True, parallel=True)
def _certify(n, g, ptr, trees, cuts, buckets):  # pragma: no cover - compiled
    """``buckets``: ``(parts, m)`` int32 scratch, one row per thread (allocated by numpy, which backs large
    arrays with huge pages: fewer page faults than an allocation inside the kernel)."""
    nt = len(trees)
    parts = buckets.shape[0]
    fills = np.empty((parts, n), np.int64)
    ok = np.ones(parts, np.bool_)
    for k in numba.prange(parts):  # a share of the trees per thread, each with its own buckets
        fills[k, :] = ptr[:-1]
        par = np.empty(n, np.int32)
        for t in range(k * nt // parts, (k + 1) * nt // parts):
            if not _tree_pass(n, ptr, trees[t], fills[k], buckets[k], par):
                ok[k] = False
                break
    if not ok.all():
        return False
    ok = np.ones(cuts.shape[0] - 1, np.bool_)
    for c in numba.prange(cuts.shape[0] - 1):  # a block of rows per thread
        ok[c] = _match_rows(n, g, ptr, fills, buckets, cuts[c], cuts[c + 1])
    return ok.all()


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
    return bool(_match_rows(int(n), g, ptr, ptr[None, :-1].copy(), np.empty((1, 0), np.int32), 0, int(n)))


_TREE_TYPE = numba.types.int64[:, ::1]


def _row_cuts(ptr: np.ndarray, parts: int) -> np.ndarray:
    """``parts + 1`` row boundaries splitting the graph's edges into blocks of about equal size."""
    n = ptr.shape[0] - 1
    target = np.linspace(0, ptr[-1], parts + 1)[1:-1]
    inner = np.searchsorted(ptr[:-1], target, side="left")
    return np.unique(np.concatenate([[0], np.clip(inner, 0, n), [n]])).astype(np.int64)


def edst_certificate(n: int, graph_edges: np.ndarray, trees: list[np.ndarray]) -> bool:
    """True iff ``trees`` are edge-disjoint spanning trees of the graph; False if any rule fails.

    ``graph_edges`` must be canonical (rows ``u < v``, sorted, no repeats: an
    :class:`~starlib.graphs.ArrayGraph`'s ``edges``); a non-canonical list also gives False, and the caller
    falls back to a method without that assumption. Each tree is an ``(k, 2)`` int64 array in any row order
    and orientation. Cost: one pass over every tree (its union-find), one pass over all trees and the graph
    per block of rows (membership, disjointness); memory ``O(n + m)``. Trees and row blocks are spread over
    numba's threads (``NUMBA_NUM_THREADS``, default: all cores).

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
    if n < 1 or n >= 2**31 or (g.shape[0] and (g[0, 0] < 0 or g[-1, 0] >= n)):
        return False
    typed = numba.typed.List.empty_list(_TREE_TYPE)
    for t in trees:
        e = np.asarray(t)
        if e.dtype != np.int64 or not e.flags.c_contiguous or e.ndim != 2:
            e = np.ascontiguousarray(e, dtype=np.int64).reshape(-1, 2)
        if e.shape[0] != n - 1:
            return False
        typed.append(e)
    ptr = _row_starts(n, g)
    parts = max(1, min(numba.get_num_threads(), len(typed)))
    buckets = np.empty((parts, g.shape[0]), dtype=np.int32)
    return bool(_certify(n, g, ptr, typed, _row_cuts(ptr, numba.get_num_threads()), buckets))
