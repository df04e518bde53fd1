"""Spanning trees as edge arrays: the :class:`Tree` record, the :class:`EDSTSet` list, and BFS helpers.

A tree is an ``(n-1, 2)`` int64 array of vertex indices of its host graph (rows ``u < v``, sorted),
a root, and the tag of the construction that built it (``"V-C.4"``, ``"walecki"``, ``"generic"``).
Its depth is the eccentricity of the root in the tree, computed by BFS on first use.

Example
-------
>>> import numpy as np
>>> t = Tree(np.array([[1, 2], [0, 1], [2, 3]]), root=1, construction="path")
>>> t.edges.tolist(), t.depth
([[0, 1], [1, 2], [2, 3]], 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

__all__ = ["Tree", "EDSTSet", "bfs_distances", "bfs_tree", "is_connected", "tree_eccentricities", "tree_center",
           "sort_edge_rows", "jsonable"]


def sort_edge_rows(edges: np.ndarray) -> np.ndarray:
    """Rows with ``u < v``, sorted lexicographically (duplicates are kept)."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] <= 1:
        return np.sort(e, axis=1)
    lo, hi = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    base = np.int64(max(int(hi.max()), 0) + 1)
    if lo.min() < 0 or base > 3_000_000_000:  # keys would overflow or negative indices: sort pairs directly
        out = np.stack([lo, hi], axis=1)
        return np.ascontiguousarray(out[np.lexsort((hi, lo))])
    key = lo * base + hi
    key.sort()
    return np.stack([key // base, key % base], axis=1)


def _adjacency(n: int, edges: np.ndarray) -> sp.csr_matrix:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    rows = np.concatenate([e[:, 0], e[:, 1]])
    cols = np.concatenate([e[:, 1], e[:, 0]])
    return sp.csr_matrix((np.ones(rows.shape[0], dtype=np.int8), (rows, cols)), shape=(n, n))


def _levels_from_predecessors(pred: np.ndarray, root: int, reached: np.ndarray) -> np.ndarray:
    """Depth of every reached vertex from a predecessor array, by pointer jumping (vectorised)."""
    n = pred.shape[0]
    anc = np.where(reached, pred, np.arange(n))
    anc[root] = root
    dist = (anc != np.arange(n)).astype(np.int64)
    while True:
        nxt = anc[anc]
        if np.array_equal(nxt, anc):
            return dist
        dist = dist + dist[anc]
        anc = nxt


def bfs_distances(n: int, edges: np.ndarray, root: int) -> np.ndarray:
    """BFS distance from ``root`` to every vertex of the graph ``(n, edges)``; ``-1`` if unreachable.

    Example
    -------
    >>> bfs_distances(4, np.array([[0, 1], [1, 2]]), 0).tolist()
    [0, 1, 2, -1]
    """
    if n <= _SMALL:
        dist, _ = _bfs_small(n, edges, int(root))
        return np.array(dist, dtype=np.int64)
    return _csr_distances(_adjacency(n, edges), int(root))


def _csr_distances(a: sp.csr_matrix, root: int) -> np.ndarray:
    n = a.shape[0]
    order, pred = csgraph.breadth_first_order(a, root, directed=False, return_predecessors=True)
    reached = np.zeros(n, dtype=bool)
    reached[order] = True
    dist = _levels_from_predecessors(np.where(pred < 0, np.arange(n), pred), root, reached)
    return np.where(reached, dist, -1)


_SMALL = 1024  # below this many vertices a plain Python BFS beats building a sparse matrix


def _adjacency_lists(n: int, edges: np.ndarray) -> list[list[int]]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in np.asarray(edges, dtype=np.int64).reshape(-1, 2).tolist():
        adj[u].append(v)
        adj[v].append(u)
    return adj


def _bfs_lists(adj: list[list[int]], root: int) -> tuple[list[int], list[int]]:
    n = len(adj)
    dist = [-1] * n
    par = [-1] * n
    dist[root] = 0
    frontier = [root]
    while frontier:
        nxt = []
        for x in frontier:
            dx = dist[x] + 1
            for y in adj[x]:
                if dist[y] < 0:
                    dist[y] = dx
                    par[y] = x
                    nxt.append(y)
        frontier = nxt
    return dist, par


def _bfs_small(n: int, edges: np.ndarray, root: int) -> tuple[list[int], list[int]]:
    """(distance, parent) lists by BFS in pure Python; ``-1`` where unreachable / at the root."""
    return _bfs_lists(_adjacency_lists(n, edges), root)


def bfs_tree(n: int, edges: np.ndarray, root: int) -> np.ndarray:
    """A BFS spanning tree of the connected graph ``(n, edges)`` from ``root`` (Remark V-C.8).

    Several constructions (V-C.7, V-D.5) yield connected spanning subgraphs with a few cycles; a BFS
    tree keeps edge-disjointness and realises the depth bounds.

    Raises
    ------
    ValueError
        If the subgraph does not reach every vertex.

    Example
    -------
    >>> bfs_tree(3, np.array([[0, 1], [1, 2], [0, 2]]), 0).tolist()
    [[0, 1], [0, 2]]
    """
    if n <= _SMALL:
        dist, par = _bfs_small(n, edges, int(root))
        reached = sum(d >= 0 for d in dist)
        pred = np.array(par, dtype=np.int64)
    else:
        a = _adjacency(n, edges)
        order, pred = csgraph.breadth_first_order(a, int(root), directed=False, return_predecessors=True)
        reached = order.shape[0]
    if reached != n:
        raise ValueError(f"edges: the subgraph reaches {reached} of n={n} vertices from root={root}")
    child = np.delete(np.arange(n), int(root))
    return sort_edge_rows(np.stack([pred[child], child], axis=1))


def is_connected(n: int, edges: np.ndarray) -> bool:
    """True if the graph ``(n, edges)`` is connected (``n >= 1``).

    Example
    -------
    >>> is_connected(3, np.array([[0, 1]])), is_connected(3, np.array([[0, 1], [1, 2]]))
    (False, True)
    """
    if n <= _SMALL:
        return min(_bfs_small(n, edges, 0)[0]) >= 0
    return csgraph.connected_components(_adjacency(n, edges), directed=False)[0] == 1


def tree_eccentricities(n: int, edges: np.ndarray) -> np.ndarray:
    """Eccentricity of every vertex of a tree on ``n`` vertices (two BFS passes per diameter end).

    For a tree, ``ecc(v) = max(dist(v, a), dist(v, b))`` where ``a, b`` are the ends of a diameter.

    Example
    -------
    >>> tree_eccentricities(4, np.array([[0, 1], [1, 2], [2, 3]])).tolist()
    [3, 2, 2, 3]
    """
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    if n <= _SMALL:
        adj = _adjacency_lists(n, edges)
        d0 = _bfs_lists(adj, 0)[0]
        if min(d0) < 0:
            raise ValueError(f"edges: not a spanning tree of n={n} vertices (disconnected)")
        a = max(range(n), key=d0.__getitem__)
        da = _bfs_lists(adj, a)[0]
        b = max(range(n), key=da.__getitem__)
        db = _bfs_lists(adj, b)[0]
        return np.maximum(np.array(da, dtype=np.int64), np.array(db, dtype=np.int64))
    adj = _adjacency(n, edges)
    d0 = _csr_distances(adj, 0)
    if (d0 < 0).any():
        raise ValueError(f"edges: not a spanning tree of n={n} vertices (disconnected)")
    a = int(np.argmax(d0))
    da = _csr_distances(adj, a)
    b = int(np.argmax(da))
    db = _csr_distances(adj, b)
    return np.maximum(da, db)


def tree_center(n: int, edges: np.ndarray) -> tuple[int, int]:
    """``(center, radius)`` of a tree: the smallest-index vertex of least eccentricity, and that eccentricity.

    Example
    -------
    >>> tree_center(5, np.array([[0, 1], [1, 2], [2, 3], [3, 4]]))
    (2, 2)
    """
    ecc = tree_eccentricities(n, edges)
    c = int(np.argmin(ecc))
    return c, int(ecc[c])


@dataclass(eq=False)
class Tree:
    """A spanning tree of a host graph on ``n`` vertices.

    Attributes
    ----------
    edges : ``(n-1, 2)`` int64 array of vertex indices, rows ``u < v``, sorted.
    root : the designated root (the depth is measured from it).
    construction : tag of the construction that built it (paper numbering, e.g. ``"V-C.6"``).
    n : number of vertices of the host graph (default ``len(edges) + 1``).
    meta : construction data: ``"bound"`` (the depth bound of the paper's theorem for this tree), the
        theorem (``"bound_thm"``) and the quantities it uses (``"D_G"``, ``"d_H"``, ``"L_H"``, ...).
    """

    edges: np.ndarray
    root: int
    construction: str = ""
    n: int = -1
    meta: dict[str, Any] = field(default_factory=dict, repr=False)
    _depth: int | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.edges = sort_edge_rows(self.edges)
        self.root = int(self.root)
        if self.n < 0:
            self.n = int(self.edges.shape[0]) + 1

    @property
    def depth(self) -> int:
        """Eccentricity of the root in the tree (BFS); ``-1`` if the tree does not reach every vertex."""
        if self._depth is None:
            d = bfs_distances(self.n, self.edges, self.root)
            self._depth = -1 if (d < 0).any() else int(d.max())
        return self._depth

    def to_json(self, labels: Sequence[Hashable] | None = None) -> dict[str, Any]:
        """The interface's JSON object ``{"root", "edges", "depth", "construction"}`` (labels if given)."""
        if labels is None:
            lab: Any = range(self.n)
        else:
            lab = [jsonable(v) for v in labels]
        return {"root": lab[self.root], "edges": [[lab[u], lab[v]] for u, v in self.edges.tolist()],
                "depth": int(self.depth), "construction": self.construction}


class EDSTSet(list):
    """A list of :class:`Tree` with a few summaries (every construction returns one).

    ``theorem`` names the result that built the whole set (``"V-C.10"``, ...) when there is one.

    Example
    -------
    >>> s = EDSTSet([Tree(np.array([[0, 1], [1, 2]]), 0, "a"), Tree(np.array([[0, 2]]), 0, "b", n=3)])
    >>> s.depths(), s.constructions()
    ([2, -1], ['a', 'b'])
    """

    theorem: str = ""

    def depths(self) -> list[int]:
        """Depth of every tree, in order."""
        return [t.depth for t in self]

    def constructions(self) -> list[str]:
        """Construction tag of every tree, in order."""
        return [t.construction for t in self]

    def counts(self) -> dict[str, int]:
        """Number of trees per construction tag (sorted by tag)."""
        tags = self.constructions()
        return {k: tags.count(k) for k in sorted(set(tags))}

    def to_json(self, labels: Sequence[Hashable] | None = None) -> list[dict[str, Any]]:
        """The ``"trees"`` list of the interface's JSON."""
        return [t.to_json(labels) for t in self]

    @classmethod
    def of(cls, trees: Iterable[Tree]) -> EDSTSet:
        """Wrap any iterable of trees."""
        return cls(list(trees))


def jsonable(v: Any) -> Any:
    """A label as JSON-ready data: tuples become lists, numpy scalars become Python numbers."""
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    if isinstance(v, np.generic):
        return v.item()
    return v
