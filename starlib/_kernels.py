"""Compiled graph kernels (numba): adjacency arrays, breadth-first search, union-find, matching, flow, certificate.

These are the inner loops of the package, written once: :mod:`starlib.edst` (trees, verification, the
ER_q constructions, Lemma V-C.1, matroid partition, the depth bound), the Cayley and all-reduce domains call
them. They take and return plain int64 arrays and know nothing about labels, so the public functions of those
modules keep their validation and error messages. Compiled code is cached on disk (``cache=True``), so only the
first call in a fresh checkout pays the compilation.

Python code calls the wrappers (:func:`csr`, :func:`bfs`, :func:`bfs_forest`, :func:`bfs_edges`,
:func:`hopcroft_karp`, :func:`max_flow`, ...), one call per whole loop; they check and convert their arguments.
Other modules' numba kernels cannot call a Python wrapper, so each wrapper's compiled core is public under the
wrapper's name plus ``_jit`` (:func:`csr_jit`, :func:`bfs_from_jit`, :func:`bfs_edges_jit`,
:func:`hopcroft_karp_jit`, :func:`max_flow_jit`): the same computation without the argument checks. Compiled
helpers that have no wrapper keep a plain name (:func:`bfs_scan`, :func:`bool_rows`, :func:`find`,
:func:`union_edges`).

* :func:`csr` builds adjacency arrays ``(indptr, indices)`` of an undirected edge list, neighbours in the
  order the edges list them (``sort=False``: exactly the lists a Python loop appending ``v`` to ``adj[u]``
  and ``u`` to ``adj[v]`` edge by edge would build) or sorted (``sort=True``);
* breadth-first search over adjacency arrays is :func:`bfs_scan` (first-in first-out, from one or several
  roots at once, into arrays the caller owns: a stamp marks the visited vertices, so a caller searching from
  many roots never resets them, and the search can stop below a depth). Everything here that searches a fixed
  graph runs on it: :func:`bfs` (distances, parents, visiting order), :func:`bfs_forest` (several roots),
  :func:`bfs_edges` (an edge list, with the edge to each parent), :func:`eccentricities`,
  :func:`tree_eccentricities`; so do the depth bound of :mod:`starlib.edst.depth` and the tree check of
  :mod:`starlib.edst.factor.er`. The matching and the flow below search graphs that change while they run
  (the alternating and the residual graph), so their breadth-first phases are written out inside them;
* union-find: :func:`find` (path halving) is the one primitive; :func:`union_edges` runs Kruskal's pass
  over an edge list, behind :func:`count_components`, :func:`forest_edges` (the greedy spanning forest)
  and :func:`component_roots` (component labels);
* :func:`hopcroft_karp` (maximum bipartite matching) and :func:`max_flow` (Dinic) visit vertices and arcs
  in exactly scipy's order (``scipy.sparse.csgraph.maximum_bipartite_matching`` / ``maximum_flow``), so
  they return scipy's matching and flow, not just one of the same size;
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

import os

import numba
import numpy as np

__all__ = ["csr", "bfs", "bfs_forest", "bfs_edges", "eccentricities", "tree_eccentricities", "trees_eccentricities",
           "sorted_rows", "find", "union_edges", "count_components", "forest_edges", "component_roots",
           "edst_certificate", "canonical_rows", "hopcroft_karp", "max_flow",
           # compiled, for other modules' numba kernels (module docstring)
           "csr_jit", "bfs_scan", "bfs_from_jit", "bfs_edges_jit", "bool_rows", "hopcroft_karp_jit", "max_flow_jit"]


def _edge_rows(edges: np.ndarray) -> np.ndarray:
    """``edges`` as a C-contiguous ``(m, 2)`` int64 array (no copy when it already is one)."""
    e = np.asarray(edges)
    if e.dtype != np.int64 or not e.flags.c_contiguous:
        e = np.ascontiguousarray(e, dtype=np.int64)
    return e.reshape(-1, 2)


@numba.njit(cache=True)
def csr_jit(n, edges, sort):  # pragma: no cover - compiled
    """The compiled core of :func:`csr` (``n`` an int, ``edges`` a C-contiguous ``(m, 2)`` int64 array, ``sort`` a
    bool): ``(indptr, indices)``."""
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
    if not sort:
        return indptr, indices
    # sorted rows without a comparison sort: from the rows in edge order, walk the vertices h in increasing
    # order and append h to the row of each neighbour of h; every row receives its neighbours in order
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
    return csr_jit(int(n), _edge_rows(edges), bool(sort))


@numba.njit(cache=True)
def bfs_scan(indptr, indices, roots, stamp, seen, dist, parent, order, tail, limit):  # pragma: no cover - compiled
    """Breadth-first search (first-in first-out) from all ``roots`` at once, into arrays the caller owns.

    A vertex counts as visited iff ``seen[v] == stamp``, or, when ``seen`` is empty, iff ``dist[v] >= 0`` (the
    caller fills ``dist`` with ``-1`` first); roots already visited are skipped. Every vertex reached gets its
    distance ``dist[v]`` from the nearest root, ``seen[v] = stamp`` and, unless ``parent`` is empty, its BFS parent
    (``-1`` at a root); the vertices are appended to ``order`` from position ``tail`` in visiting order (neighbours
    in the order of ``indices``). The vertices deeper than ``limit`` are reached but not expanded
    (``limit >= n - 1``: no cut). Returns the new ``tail``.

    A stamp per search lets a caller search from many roots without resetting anything (the eccentricities, the
    depth bound of :mod:`starlib.edst.depth`); a caller that keeps its marks over several calls, continuing
    ``order`` at the returned ``tail``, visits the components one after another (the tree check of
    :mod:`starlib.edst.factor.er`). Integer arrays of any width (int32 scratch, int64 results).
    """
    stamped = seen.shape[0] > 0
    record = parent.shape[0] > 0
    head = tail
    for i in range(roots.shape[0]):
        r = roots[i]
        if (seen[r] != stamp) if stamped else (dist[r] < 0):
            if stamped:
                seen[r] = stamp
            dist[r] = 0
            if record:
                parent[r] = -1
            order[tail] = r
            tail += 1
    while head < tail:
        x = order[head]
        head += 1
        if dist[x] > limit:
            break
        dx = dist[x] + 1
        for j in range(indptr[x], indptr[x + 1]):
            y = indices[j]
            if (seen[y] != stamp) if stamped else (dist[y] < 0):
                if stamped:
                    seen[y] = stamp
                dist[y] = dx
                if record:
                    parent[y] = x
                order[tail] = y
                tail += 1
    return tail


@numba.njit(cache=True)
def bfs_from_jit(indptr, indices, roots):  # pragma: no cover - compiled
    """FIFO search from every root at once (:func:`bfs_scan` into fresh arrays, no stamps): ``(dist, parent, order)``,
    ``-1`` where unreached (parent also at the roots); ``order`` the reached vertices in visiting order. The
    compiled core of :func:`bfs` and :func:`bfs_forest`."""
    n = indptr.shape[0] - 1
    dist = np.full(n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    order = np.empty(n, np.int64)
    tail = bfs_scan(indptr, indices, roots, 0, order[:0], dist, parent, order, 0, n)  # visited: dist >= 0
    return dist, parent, order[:tail]


@numba.njit(cache=True)
def _bfs(indptr, indices, root):  # pragma: no cover - compiled
    return bfs_from_jit(indptr, indices, np.array([root], np.int64))


@numba.njit(cache=True)
def _eccentricities(indptr, indices, sources):  # pragma: no cover - compiled
    """BFS eccentricity of every source (-1 if some vertex is unreachable from it); one queue, stamps not resets."""
    n = indptr.shape[0] - 1
    seen = np.full(n, -1, np.int64)
    dist = np.zeros(n, np.int64)
    queue = np.empty(n, np.int64)
    none = np.empty(0, np.int64)
    out = np.empty(sources.shape[0], np.int64)
    for i in range(sources.shape[0]):
        tail = bfs_scan(indptr, indices, sources[i:i + 1], i, seen, dist, none, queue, 0, n)
        out[i] = dist[queue[tail - 1]] if tail == n else -1
    return out


def eccentricities(indptr: np.ndarray, indices: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """BFS eccentricity of each source over adjacency arrays; ``-1`` for a source that does not reach every vertex.

    Example
    -------
    >>> indptr, indices = csr(4, np.array([[0, 1], [1, 2], [2, 3]]))
    >>> eccentricities(indptr, indices, np.arange(4)).tolist()
    [3, 2, 2, 3]
    """
    return _eccentricities(indptr, indices, np.ascontiguousarray(sources, dtype=np.int64))


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
    indptr, indices = csr_jit(n, edges, False)
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
    return _tree_eccentricities(int(n), _edge_rows(edges))


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
    dist, parent, _ = bfs_from_jit(indptr, indices, np.ascontiguousarray(roots, dtype=np.int64))
    return dist, parent


@numba.njit(cache=True)
def _parent_rows(parent, edges):  # pragma: no cover - compiled
    """Row of ``edges`` joining each vertex to ``parent[v]`` (the first such row; ``-1`` where no parent)."""
    row = np.full(parent.shape[0], -1, np.int64)
    for j in range(edges.shape[0]):
        a, b = edges[j, 0], edges[j, 1]
        if parent[b] == a:
            a, b = b, a  # a: the end that may hang from the other
        if parent[a] == b and row[a] < 0:
            row[a] = j
    return row


@numba.njit(cache=True)
def _smallest_vertices(n, edges):  # pragma: no cover - compiled
    """The smallest vertex of every component of ``(n, edges)``, increasing."""
    root = _component_roots(n, edges)
    seen = np.zeros(n, np.bool_)
    out = np.empty(n, np.int64)
    k = 0
    for v in range(n):
        r = root[v]
        if not seen[r]:
            seen[r] = True
            out[k] = v
            k += 1
    return out[:k]


@numba.njit(cache=True)
def bfs_edges_jit(n, edges, roots):  # pragma: no cover - compiled
    """The compiled core of :func:`bfs_edges` (``edges`` a C-contiguous ``(m, 2)`` int64 array, ``roots`` an
    int64 array, empty for the smallest vertex of every component)."""
    if roots.shape[0] == 0:
        roots = _smallest_vertices(n, edges)
    indptr, indices = csr_jit(n, edges, False)
    dist, parent, order = bfs_from_jit(indptr, indices, roots)
    return dist, parent, _parent_rows(parent, edges), order


def bfs_edges(n: int, edges: np.ndarray,
              roots: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Breadth-first search of the graph ``(n, edges)`` from ``roots`` (neighbours in edge order), with the
    edge to each vertex's parent: ``(dist, parent, parent_row, order)``.

    ``dist``, ``parent`` and ``order`` are those of :func:`bfs` on ``csr(n, edges, sort=False)`` started
    from all roots at once; ``parent_row[v]`` is the row of ``edges`` the search reached ``v`` through
    (the first row joining ``v`` and ``parent[v]``), ``-1`` at the roots and where unreached. Without
    ``roots`` (or with none) the roots are the smallest vertex of every component: a breadth-first spanning
    forest, the same as one search from each not yet reached vertex in increasing order.

    Example
    -------
    >>> e = np.array([[2, 1], [0, 1], [1, 2], [3, 4]])
    >>> [a.tolist() for a in bfs_edges(5, e, np.array([0]))]
    [[0, 1, 2, -1, -1], [-1, 0, 1, -1, -1], [-1, 1, 0, -1, -1], [0, 1, 2]]
    >>> [a.tolist() for a in bfs_edges(5, e)][1:3]
    [[-1, 0, 1, -1, 3], [-1, 1, 0, -1, 3]]
    """
    r = np.zeros(0, np.int64) if roots is None else np.ascontiguousarray(roots, dtype=np.int64).reshape(-1)
    return bfs_edges_jit(int(n), _edge_rows(edges), r)


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
    e = _edge_rows(edges)
    out = _sorted_rows(e)
    return out if out.shape[0] == e.shape[0] else None


@numba.njit(cache=True)
def find(parent, x):  # pragma: no cover - compiled
    """Root of ``x`` in the union-find forest ``parent`` (``parent[r] == r`` at a root), with path halving.

    The one union-find primitive of the package, compiled (call it from other kernels; from Python, use
    :func:`union_edges` or the wrappers below for a whole loop). Path halving re-links nodes along the way
    but never changes which node is a root, so any caller comparing roots sees the same answers as with any
    other compression rule.

    Example
    -------
    >>> parent = np.array([1, 2, 2, 3])
    >>> int(find(parent, 0)), parent.tolist()
    (2, [2, 2, 2, 3])
    """
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@numba.njit(cache=True)
def union_edges(parent, edges):  # pragma: no cover - compiled
    """Kruskal's pass over ``edges`` in order on the union-find ``parent`` (updated in place).

    Edge ``j = (u, v)`` joins two components iff ``find(u) != find(v)``; then ``parent[find(u)] = find(v)``.
    Returns the boolean mask of those edges: from ``parent = arange(n)`` they are the greedy spanning forest
    in edge order, and the roots afterwards label the components.

    Example
    -------
    >>> parent = np.arange(4)
    >>> union_edges(parent, np.array([[0, 1], [1, 0], [2, 3], [0, 3]])).tolist()
    [True, False, True, True]
    """
    joined = np.zeros(edges.shape[0], np.bool_)
    for j in range(edges.shape[0]):
        x = find(parent, edges[j, 0])
        y = find(parent, edges[j, 1])
        if x != y:
            parent[x] = y
            joined[j] = True
    return joined


@numba.njit(cache=True)
def _component_roots(n, edges):  # pragma: no cover - compiled
    parent = np.arange(n)
    union_edges(parent, edges)
    for v in range(n):
        parent[v] = find(parent, v)
    return parent


def count_components(n: int, edges: np.ndarray) -> int:
    """Number of connected components of the graph ``(n, edges)`` (union-find with path halving).

    Example
    -------
    >>> count_components(3, np.zeros((0, 2), dtype=np.int64))
    3
    """
    return int(n) - int(union_edges(np.arange(int(n)), _edge_rows(edges)).sum())


def forest_edges(n: int, edges: np.ndarray) -> np.ndarray:
    """Row indices of the greedy spanning forest of ``(n, edges)``: every edge, in order, that joins two
    components of the edges kept before it (Kruskal's rule with all weights equal).

    Example
    -------
    >>> forest_edges(4, np.array([[0, 1], [1, 0], [2, 3], [0, 3], [1, 2]])).tolist()
    [0, 2, 3]
    """
    return np.flatnonzero(union_edges(np.arange(int(n)), _edge_rows(edges)))


def component_roots(n: int, edges: np.ndarray) -> np.ndarray:
    """Component label of every vertex of ``(n, edges)``: its union-find root after :func:`union_edges` over
    the edges in order (so the labels depend on that order; ``np.unique(..., return_index=True)`` turns them
    into the smallest vertex of each component when a canonical label is wanted).

    Example
    -------
    >>> component_roots(5, np.array([[0, 3], [4, 1], [3, 4]])).tolist()
    [1, 1, 2, 1, 1]
    """
    return _component_roots(int(n), _edge_rows(edges))


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
        x = find(par, a)
        y = find(par, b)
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
    nt = trees.shape[0]
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
    g = _edge_rows(edges)
    if g.shape[0] and (g[0, 0] < 0 or g[-1, 0] >= n):
        return False
    ptr = _row_starts(int(n), g)
    return bool(_match_rows(int(n), g, ptr, ptr[None, :-1].copy(), np.empty((1, 0), np.int32), 0, int(n)))


def _row_cuts(ptr: np.ndarray, parts: int) -> np.ndarray:
    """``parts + 1`` row boundaries splitting the graph's edges into blocks of about equal size."""
    n = ptr.shape[0] - 1
    target = np.linspace(0, ptr[-1], parts + 1)[1:-1]
    inner = np.searchsorted(ptr[:-1], target, side="left")
    return np.unique(np.concatenate([[0], np.clip(inner, 0, n), [n]])).astype(np.int64)


def kernels_cached() -> bool:
    """Whether numba's cache holds this machine's build of the kernels (the verifier's stands for them all).

    The first run on a machine, or after ``NUMBA_CACHE_DIR`` changes, compiles the kernels it uses (about a minute
    for ``starlib edsts slimfly q=5``); later runs load them from the cache in a second. True when numba's cache
    layout is not the one known here, so that nothing is said when unsure.

    >>> isinstance(kernels_cached(), bool)
    True
    """
    try:
        return os.path.exists(_certify._cache._cache_file._index_path)
    except AttributeError:
        return True


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
    g = _edge_rows(graph_edges)
    n = int(n)
    if n < 1 or n >= 2**31 or (g.shape[0] and (g[0, 0] < 0 or g[-1, 0] >= n)):
        return False
    # one (trees, n - 1, 2) array: a numba typed list of arrays compiles its methods afresh in every process
    # (half a second), while a plain array takes the cached kernel as it is
    stack = np.empty((len(trees), max(n - 1, 0), 2), dtype=np.int64)
    for i, t in enumerate(trees):
        e = np.asarray(t)
        if e.ndim != 2 or e.shape[0] != n - 1 or (e.size and e.shape[1] != 2):
            e = np.asarray(e).reshape(-1, 2)
            if e.shape[0] != n - 1:
                return False
        stack[i] = e
    ptr = _row_starts(n, g)
    parts = max(1, min(numba.get_num_threads(), len(trees)))
    buckets = np.empty((parts, g.shape[0]), dtype=np.int32)
    return bool(_certify(n, g, ptr, stack, _row_cuts(ptr, numba.get_num_threads()), buckets))


# ---------------------------------------------------------------------------------------------
# bipartite matching and maximum flow
# ---------------------------------------------------------------------------------------------
@numba.njit(cache=True)
def bool_rows(good):  # pragma: no cover - compiled
    """Adjacency arrays ``(indptr, indices)`` of the rows of a boolean matrix: the True columns, increasing (the
    input of :func:`hopcroft_karp_jit` for a matrix of allowed pairs)."""
    r, c = good.shape
    indptr = np.zeros(r + 1, np.int64)
    for a in range(r):
        k = 0
        for b in range(c):
            if good[a, b]:
                k += 1
        indptr[a + 1] = indptr[a] + k
    indices = np.empty(indptr[r], np.int64)
    k = 0
    for a in range(r):
        for b in range(c):
            if good[a, b]:
                indices[k] = b
                k += 1
    return indptr, indices


_INF = np.int64(1) << 62


@numba.njit(cache=True)
def hopcroft_karp_jit(indptr, indices, c):  # pragma: no cover - compiled
    """Maximum matching of the rows ``0..r-1`` (neighbours ``indices[indptr[a]:indptr[a+1]]``) to the
    columns ``0..c-1``: ``col[a]`` or ``-1``. The compiled core of :func:`hopcroft_karp` (arguments not
    checked)."""
    r = indptr.shape[0] - 1
    nnz = indptr[r]
    inf = _INF
    x = np.full(r, -1, np.int64)
    y = np.full(c, r, np.int64)  # r: the auxiliary row every free column is matched to
    dist = np.empty(r + 1, np.int64)
    queue = np.empty(r + 1, np.int64)
    stack = np.empty(nnz + r + 1, np.int64)
    parents = np.empty(max(r, 1), np.int64)
    while True:
        head = 0
        tail = 0
        for v in range(r):
            if x[v] < 0:
                dist[v] = 0
                queue[tail] = v
                tail += 1
            else:
                dist[v] = inf
        dist[r] = inf
        while head < tail:
            v = queue[head]
            head += 1
            if dist[v] < dist[r]:
                for up in range(indptr[v], indptr[v + 1]):
                    yu = y[indices[up]]
                    if dist[yu] == inf:
                        dist[yu] = dist[v] + 1
                        queue[tail] = yu
                        tail += 1
        if dist[r] == inf:
            break
        for w in range(r):
            if x[w] >= 0:
                continue
            done = False
            stack[0] = w
            sh = 1
            while sh != 0:
                sh -= 1
                v = stack[sh]
                for up in range(indptr[v], indptr[v + 1]):
                    u = indices[up]
                    yu = y[u]
                    if dist[yu] == dist[v] + 1:
                        if yu == r:  # augment along the parents back to w
                            done = True
                            while True:
                                dist[v] = inf
                                u_old = x[v]
                                y[u] = v
                                x[v] = u
                                u = u_old
                                if v == w:
                                    break
                                v = parents[v]
                            break
                        stack[sh] = yu
                        sh += 1
                        parents[yu] = v
                if done:
                    break
    return x


@numba.njit(cache=True)
def max_flow_jit(nodes, rows, cols, caps, src, snk):  # pragma: no cover - compiled
    """Dinic's maximum flow on the arcs ``rows[i] -> cols[i]``: ``(indptr, heads, flow)``, the residual arcs and
    their flow; the compiled core of :func:`max_flow` (arguments not checked; the value is the flow out of
    ``src``)."""
    m = rows.shape[0]
    # entries per tail: real arcs (capacity) and reverse slots (-1), each row sorted by head (insertion sort:
    # rows are short or already sorted), then equal heads merged (capacities of real arcs add up)
    deg = np.zeros(nodes + 1, np.int64)
    for i in range(m):
        deg[rows[i] + 1] += 1
        deg[cols[i] + 1] += 1
    for v in range(nodes):
        deg[v + 1] += deg[v]
    fill = deg[:nodes].copy()
    hd = np.empty(2 * m, np.int64)
    cp = np.empty(2 * m, np.int64)
    for i in range(m):
        u = rows[i]
        v = cols[i]
        hd[fill[u]] = v
        cp[fill[u]] = caps[i]
        fill[u] += 1
        hd[fill[v]] = u
        cp[fill[v]] = -1
        fill[v] += 1
    indptr = np.zeros(nodes + 1, np.int64)
    heads = np.empty(2 * m, np.int64)
    cap = np.zeros(2 * m, np.int64)
    k = 0
    for v in range(nodes):
        lo = deg[v]
        hi = deg[v + 1]
        for a in range(lo + 1, hi):
            x = hd[a]
            c = cp[a]
            b = a - 1
            while b >= lo and hd[b] > x:
                hd[b + 1] = hd[b]
                cp[b + 1] = cp[b]
                b -= 1
            hd[b + 1] = x
            cp[b + 1] = c
        for a in range(lo, hi):
            if a == lo or hd[a] != hd[a - 1]:
                heads[k] = hd[a]
                k += 1
            if cp[a] >= 0:
                cap[k - 1] += cp[a]
        indptr[v + 1] = k
    heads = heads[:k]
    cap = cap[:k]
    rev = np.empty(k, np.int64)
    for v in range(nodes):
        for p in range(indptr[v], indptr[v + 1]):
            hd = heads[p]
            lo = indptr[hd]
            hi = indptr[hd + 1]
            while lo < hi:
                mi = (lo + hi) // 2
                if heads[mi] < v:
                    lo = mi + 1
                else:
                    hi = mi
            rev[p] = lo
    flows = np.zeros(k, np.int64)
    levels = np.empty(nodes, np.int64)
    progress = np.empty(nodes, np.int64)
    queue = np.empty(nodes, np.int64)
    st_v = np.empty(nodes, np.int64)
    st_f = np.empty(nodes, np.int64)
    while True:
        levels[:] = -1
        queue[0] = src
        qs = 0
        qe = 1
        levels[src] = 0
        reached = False
        while qs != qe:
            cur = queue[qs]
            qs += 1
            if cur == snk:
                reached = True
                break
            for e in range(indptr[cur], indptr[cur + 1]):
                d = heads[e]
                if cap[e] > 0 and levels[d] == -1:
                    levels[d] = levels[cur] + 1
                    queue[qe] = d
                    qe += 1
        if not reached:
            break
        for v in range(nodes):
            progress[v] = indptr[v]
        while True:  # one augmenting path of the level graph per pass
            top = 0
            st_v[0] = src
            st_f[0] = 2147483647
            found = False
            while True:
                cur = st_v[top]
                e = progress[cur]
                d = heads[e]
                if cap[e] > 0 and levels[d] == levels[cur] + 1:
                    cf = min(st_f[top], cap[e])
                    if d == snk:
                        while top > -1:
                            e2 = progress[st_v[top]]
                            cap[e2] -= cf
                            cap[rev[e2]] += cf
                            flows[e2] += cf
                            flows[rev[e2]] -= cf
                            top -= 1
                        found = True
                        break
                    top += 1
                    st_v[top] = d
                    st_f[top] = cf
                else:
                    dead = False
                    while progress[cur] == indptr[cur + 1] - 1:
                        top -= 1
                        if top < 0:
                            dead = True
                            break
                        cur = st_v[top]
                    if dead:
                        break
                    progress[cur] += 1
            if not found:
                break
    return indptr, heads, flows


def hopcroft_karp(indptr: np.ndarray, indices: np.ndarray, ncols: int) -> np.ndarray:
    """Maximum matching of a bipartite graph (Hopcroft and Karp): rows ``0..r-1`` against columns ``0..ncols-1``.

    Each phase labels the rows by a breadth-first search of alternating paths from the free rows (a search
    of the alternating graph, whose arcs run from a row to the row matched to its neighbour column, so it is
    written out here rather than run on adjacency arrays), then augments along vertex-disjoint shortest
    paths found by a stack search from every free row in increasing order, neighbours in the given order.
    That is exactly the visiting order of ``scipy.sparse.csgraph.maximum_bipartite_matching(A,
    perm_type="column")`` (scipy 1.4 or later) when ``indices`` are the sorted column lists of ``A``, so
    the matching is the same one, not just one of the same size. ``O(E sqrt(V))`` time.

    Parameters
    ----------
    indptr, indices : ndarray
        Adjacency arrays of the rows: row ``a`` is adjacent to the columns ``indices[indptr[a]:indptr[a+1]]``
        (for a boolean matrix ``good``: ``indices = np.nonzero(good)[1]``, ``indptr`` the running row sums).
    ncols : int
        Number of columns.

    Returns
    -------
    ndarray
        ``col[a]``, the column matched to row ``a``, or ``-1``.

    Raises
    ------
    ValueError
        If ``indptr`` does not start at 0 and increase to ``len(indices)``, or a column lies outside
        ``0..ncols-1``.

    Example
    -------
    >>> good = np.array([[1, 1, 0], [1, 0, 0], [0, 1, 1]], dtype=bool)
    >>> indptr = np.concatenate([[0], np.cumsum(good.sum(axis=1))])
    >>> hopcroft_karp(indptr, np.nonzero(good)[1], 3).tolist()
    [1, 0, 2]

    References
    ----------
    J. E. Hopcroft and R. M. Karp, "An n^{5/2} algorithm for maximum matchings in bipartite graphs",
    SIAM J. Comput. 2(4) (1973) 225-231.
    """
    ptr = np.ascontiguousarray(indptr, dtype=np.int64).reshape(-1)
    idx = np.ascontiguousarray(indices, dtype=np.int64).reshape(-1)
    ncols = int(ncols)
    if ptr.size == 0 or ptr[0] != 0 or ptr[-1] != idx.size or np.any(np.diff(ptr) < 0):
        raise ValueError(f"indptr={ptr.tolist()[:8]}...: must start at 0 and increase to len(indices)={idx.size}")
    if idx.size and (idx.min() < 0 or idx.max() >= ncols):
        raise ValueError(f"indices: a column outside 0..ncols-1={ncols - 1}")
    return hopcroft_karp_jit(ptr, idx, ncols)


def max_flow(n: int, tails: np.ndarray, heads: np.ndarray, caps: np.ndarray, source: int,
             sink: int) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Maximum flow from ``source`` to ``sink`` by Dinic's algorithm, integer capacities.

    The residual graph is the canonical one of ``scipy.sparse.csgraph.maximum_flow``: per node the sorted
    union of its out- and in-neighbours (a reverse arc of capacity 0 added where missing, parallel arcs
    merged with their capacities summed). Each phase builds the level graph by a breadth-first search of the
    residual arcs that stops at the sink (written out here: its arcs change with the flow), then a blocking
    flow by the same stack search with per-node arc pointers as scipy, so the flow is the one
    ``maximum_flow(csr, source, sink)`` (method ``"dinic"``) returns, not just one of the same value.

    Parameters
    ----------
    n : int
        Number of nodes ``0..n-1``.
    tails, heads, caps : ndarray
        Arc ``i`` runs from ``tails[i]`` to ``heads[i]`` with capacity ``caps[i] >= 0``.
    source, sink : int
        Distinct nodes.

    Returns
    -------
    (value, indptr, targets, flow)
        The flow value and the flow on the residual arcs: node ``v`` has the arcs to
        ``targets[indptr[v]:indptr[v+1]]`` (increasing) carrying ``flow`` (net, so ``-f`` on the reverse
        of an arc carrying ``f``); that is scipy's ``flow`` matrix in CSR form.

    Raises
    ------
    ValueError
        If the arrays differ in length, a node lies outside ``0..n-1``, an arc is a loop, a capacity is
        negative, or ``source == sink``.

    Example
    -------
    >>> value, indptr, targets, flow = max_flow(4, np.array([0, 0, 1, 2]), np.array([1, 2, 3, 3]),
    ...                                         np.array([2, 1, 1, 3]), 0, 3)
    >>> value, indptr.tolist(), targets.tolist(), flow.tolist()
    (2, [0, 2, 4, 6, 8], [1, 2, 0, 3, 0, 3, 1, 2], [1, 1, -1, 1, -1, 1, -1, -1])

    References
    ----------
    E. A. Dinic, "Algorithm for solution of a problem of maximum flow in networks with power estimation",
    Soviet Math. Dokl. 11 (1970) 1277-1280.
    """
    n = int(n)
    rows, cols, cap = (np.ascontiguousarray(a, dtype=np.int64).reshape(-1) for a in (tails, heads, caps))
    if not rows.size == cols.size == cap.size:
        raise ValueError(f"tails, heads, caps: lengths {rows.size}, {cols.size}, {cap.size} must be equal")
    for name, a in (("tails", rows), ("heads", cols), ("source", np.array([source])), ("sink", np.array([sink]))):
        if a.size and (a.min() < 0 or a.max() >= n):
            raise ValueError(f"{name}: a node outside 0..n-1={n - 1}")
    if np.any(rows == cols):
        raise ValueError("tails, heads: an arc is a loop (tail == head)")
    if cap.size and cap.min() < 0:
        raise ValueError(f"caps: capacity {int(cap.min())} is negative; capacities must be >= 0")
    if source == sink:
        raise ValueError(f"source={source}, sink={sink}: must be distinct")
    indptr, targets, flow = max_flow_jit(n, rows, cols, cap, int(source), int(sink))
    return int(flow[indptr[source]:indptr[source + 1]].sum()), indptr, targets, flow
