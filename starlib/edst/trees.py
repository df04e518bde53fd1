"""Spanning trees as edge arrays: the :class:`Tree` record, the :class:`EDSTSet` list, and BFS helpers.

A tree is an ``(n-1, 2)`` int64 array of vertex indices of its host graph (``edges``: rows ``u < v``,
sorted, computed on first use from the rows as built), a root, and the tag of the construction that built
it (``"V-C.4"``, ``"walecki"``, ``"generic"``). Its depth is the eccentricity of the root in the tree,
computed by BFS on first use. The graph kernels are compiled (:mod:`starlib._kernels`).

Example
-------
>>> import numpy as np
>>> t = Tree(np.array([[1, 2], [0, 1], [2, 3]]), root=1, construction="path")
>>> t.edges.tolist(), t.depth
([[0, 1], [1, 2], [2, 3]], 2)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import bfs, count_components, csr, sorted_rows, trees_eccentricities
from .._kernels import tree_eccentricities as _tree_eccentricities
from ..graphs import ArrayGraph, jsonable

if TYPE_CHECKING:  # imported where used, so that reading and verifying a file does not load networkx
    import networkx as nx

__all__ = ["Tree", "EDSTSet", "bfs_distances", "bfs_tree", "is_connected", "tree_eccentricities", "tree_center",
           "centred_trees", "relabel_trees", "OrientedTree", "orient", "sort_edge_rows"]


def sort_edge_rows(edges: np.ndarray) -> np.ndarray:
    """Rows with ``u < v``, sorted lexicographically (duplicates are kept).

    Linear-time counting sort (:func:`starlib._kernels.sorted_rows`) when the vertex indices are dense, as
    in a spanning tree; otherwise a sort of integer keys.

    Example
    -------
    >>> sort_edge_rows(np.array([[2, 1], [0, 3], [1, 0]])).tolist()
    [[0, 1], [0, 3], [1, 2]]
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] <= 1:
        return np.sort(e, axis=1)
    fast = sorted_rows(e)
    if fast is not None:
        return fast
    lo, hi = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    base = np.int64(max(int(hi.max()), 0) + 1)
    if lo.min() < 0 or base > 3_000_000_000:  # keys would overflow or negative indices: sort pairs directly
        out = np.stack([lo, hi], axis=1)
        return np.ascontiguousarray(out[np.lexsort((hi, lo))])
    key = lo * base + hi
    key.sort()
    return np.stack([key // base, key % base], axis=1)


def _adjacency_arrays(n: int, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Adjacency arrays with the neighbour order of the historical implementations (kept so that BFS trees,
    and every table built from them, stay byte-identical): edge order up to :data:`_SMALL` vertices (the
    pure-Python adjacency lists did that), sorted above (scipy's canonical CSR did that)."""
    return csr(n, edges, sort=n > _SMALL)


_SMALL = 1024  # neighbour-order switch of :func:`_adjacency_arrays` (see there)


def bfs_distances(n: int, edges: np.ndarray, root: int) -> np.ndarray:
    """BFS distance from ``root`` to every vertex of the graph ``(n, edges)``; ``-1`` if unreachable.

    Example
    -------
    >>> bfs_distances(4, np.array([[0, 1], [1, 2]]), 0).tolist()
    [0, 1, 2, -1]
    """
    return bfs(*csr(n, edges, sort=False), int(root))[0]


def bfs_tree(n: int, edges: np.ndarray, root: int, sort: bool = True) -> np.ndarray:
    """A BFS spanning tree of the connected graph ``(n, edges)`` from ``root`` (Remark V-C.8).

    Several constructions (V-C.7, V-D.5) yield connected spanning subgraphs with a few cycles; a BFS
    tree keeps edge-disjointness and realises the depth bounds.

    With ``sort=False`` the rows are ``(parent, child)`` in increasing child order (not sorted).

    Raises
    ------
    ValueError
        If the subgraph does not reach every vertex.

    Example
    -------
    >>> bfs_tree(3, np.array([[0, 1], [1, 2], [0, 2]]), 0).tolist()
    [[0, 1], [0, 2]]
    """
    _, pred, order = bfs(*_adjacency_arrays(n, edges), int(root))
    reached = order.shape[0]
    if reached != n:
        raise ValueError(f"edges: the subgraph reaches {reached} of n={n} vertices from root={root}")
    child = np.delete(np.arange(n), int(root))
    rows = np.stack([pred[child], child], axis=1)
    return sort_edge_rows(rows) if sort else rows


def is_connected(n: int, edges: np.ndarray) -> bool:
    """True if the graph ``(n, edges)`` is connected (``n >= 1``).

    Example
    -------
    >>> is_connected(3, np.array([[0, 1]])), is_connected(3, np.array([[0, 1], [1, 2]]))
    (False, True)
    """
    return count_components(n, edges) == 1


def tree_eccentricities(n: int, edges: np.ndarray) -> np.ndarray:
    """Eccentricity of every vertex of a tree on ``n`` vertices (two BFS passes per diameter end).

    For a tree, ``ecc(v) = max(dist(v, a), dist(v, b))`` where ``a, b`` are the ends of a diameter.

    Example
    -------
    >>> tree_eccentricities(4, np.array([[0, 1], [1, 2], [2, 3]])).tolist()
    [3, 2, 2, 3]
    """
    ecc = _tree_eccentricities(n, edges)
    if ecc[0] < 0:
        raise ValueError(f"edges: not a spanning tree of n={n} vertices (disconnected)")
    return ecc


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


def centred_trees(n: int, arrays: Sequence[Any], tag: str | Sequence[str]) -> EDSTSet:
    """Spanning trees given as edge arrays, with sorted rows, each rooted at its center.

    The center is the smallest-index vertex of least eccentricity; all eccentricities come from one compiled
    call. ``tag`` is one construction tag for all trees or one per tree.

    Raises
    ------
    ValueError
        If an array does not have ``n - 1`` edges or does not connect the ``n`` vertices.

    Example
    -------
    >>> s = centred_trees(4, [np.array([[0, 1], [1, 2], [2, 3]])], "path")
    >>> s[0].root, s[0].depth, s.constructions()
    (1, 2, ['path'])
    """
    out = EDSTSet()
    tags = [tag] * len(arrays) if isinstance(tag, str) else list(tag)
    arrs = [np.asarray(a, dtype=np.int64).reshape(-1, 2) for a in arrays]
    if not arrs:
        return out
    if any(a.shape[0] != n - 1 for a in arrs):
        raise ValueError(f"trees: every tree of a graph on n={n} vertices needs {n - 1} edges")
    st = np.stack([sort_edge_rows(a) for a in arrs])
    eccs = trees_eccentricities(n, st)
    if (eccs < 0).any():
        raise ValueError(f"trees: not spanning trees of n={n} vertices (disconnected)")
    for e, ecc, tg in zip(st, eccs, tags, strict=True):
        c = int(np.argmin(ecc))
        out.append(Tree(e, c, tg, n=n, meta={"ecc": ecc}, _depth=int(ecc[c]), canonical=True))
    return out


def relabel_trees(trees: Iterable[Tree], index: np.ndarray) -> EDSTSet:
    """The same trees with vertex ``v`` renamed ``index[v]`` (the vertex map of a relabelled graph).

    Tags, roots (renamed), metadata and the set's ``theorem`` are kept.

    Example
    -------
    >>> s = relabel_trees([Tree(np.array([[0, 1], [1, 2]]), 0, "p")], np.array([2, 0, 1]))
    >>> s[0].edges.tolist(), s[0].root
    ([[0, 1], [0, 2]], 2)
    """
    index = np.asarray(index, dtype=np.int64)
    out = EDSTSet(Tree(index[t.rows], int(index[t.root]), t.construction, n=index.shape[0], meta=t.meta)
                  for t in trees)
    out.theorem = getattr(trees, "theorem", "")
    out.factors = getattr(trees, "factors", None)
    return out


@dataclass
class OrientedTree:
    """A spanning tree of ``G`` directed away from ``root``.

    Attributes
    ----------
    root : the root vertex.
    parent : ``parent[c]`` for every vertex (``-1`` at the root).
    order : vertices in BFS order from the root.
    depth : ``depth[c]`` = distance from the root.
    """

    root: int
    parent: np.ndarray
    order: np.ndarray
    depth: np.ndarray

    @property
    def children(self) -> np.ndarray:
        """Every non-root vertex, in BFS order (the heads of the arcs)."""
        return self.order[1:]

    @property
    def height(self) -> int:
        """Eccentricity of the root in the tree (``D_G`` of docs/star-products.md §2)."""
        return int(self.depth.max())


def orient(n: int, tree_edges: np.ndarray, root: int) -> OrientedTree:
    """Orient a spanning tree of ``n`` vertices away from ``root`` (BFS).

    Raises
    ------
    ValueError
        If the edges do not form a spanning tree.

    Example
    -------
    >>> o = orient(3, np.array([[0, 1], [1, 2]]), 1)
    >>> o.parent.tolist(), o.depth.tolist()
    ([1, -1, 1], [1, 0, 1])
    """
    e = np.asarray(tree_edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] != n - 1:
        raise ValueError(f"tree_edges: {e.shape[0]} edges, a spanning tree of n={n} has {n - 1}")
    # vertex order as before the compiled BFS: by depth then index up to _SMALL vertices, else BFS order
    # over sorted neighbour lists (it decides the edge order the constructions hand to bfs_tree)
    depth, parent, order = bfs(*_adjacency_arrays(n, e), int(root))
    if order.shape[0] != n:
        raise ValueError(f"tree_edges: not a spanning tree (reaches {order.shape[0]} of {n} vertices)")
    if n <= _SMALL:
        order = np.argsort(depth, kind="stable").astype(np.int64)
    return OrientedTree(int(root), parent, order, depth)


class Tree:
    """A spanning tree of a host graph on ``n`` vertices.

    Attributes
    ----------
    rows : the ``(n-1, 2)`` int64 edge array as the construction wrote it (any row order and orientation);
        the verifier and the depth read it.
    edges : the same edges with rows ``u < v``, sorted (computed from ``rows`` on first access and kept: the
        canonical form for output and comparison).
    root : the designated root (the depth is measured from it).
    construction : tag of the construction that built it (paper numbering, e.g. ``"V-C.6"``).
    n : number of vertices of the host graph (default ``len(edges) + 1``).
    meta : construction data: ``"bound"`` (the depth bound of the paper's theorem for this tree), the
        theorem (``"bound_thm"``) and the quantities it uses (``"D_G"``, ``"d_H"``, ``"L_H"``, ...).

    Sorting is deferred because it is the most expensive step of assembling a million-link tree set and
    nothing but output needs it.
    """

    __slots__ = ("rows", "_edges", "root", "construction", "n", "meta", "_depth")

    def __init__(self, edges: Any, root: int, construction: str = "", n: int = -1,
                 meta: dict[str, Any] | None = None, _depth: int | None = None, *, canonical: bool = False) -> None:
        arr = np.asarray(edges)
        if arr.size and (arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer)):
            raise ValueError(f"edges: vertex indices must be integers, got dtype {arr.dtype} (floats are not "
                             f"truncated)")
        self.rows = arr.astype(np.int64, copy=False).reshape(-1, 2)
        self._edges: np.ndarray | None = self.rows if canonical else None  # caller vouches: sorted, u < v
        self.root = int(root)
        self.construction = construction
        self.n = int(n) if n >= 0 else int(self.rows.shape[0]) + 1
        self.meta: dict[str, Any] = {} if meta is None else meta
        self._depth = _depth

    @property
    def edges(self) -> np.ndarray:
        """Rows ``u < v``, sorted lexicographically (computed once)."""
        if self._edges is None:
            self._edges = sort_edge_rows(self.rows)
            self.rows = self._edges  # one copy alive
        return self._edges

    @edges.setter
    def edges(self, value: Any) -> None:
        self.rows = np.asarray(value, dtype=np.int64).reshape(-1, 2)
        self._edges = None
        self._depth = None

    def __repr__(self) -> str:
        return (f"Tree(edges=<{self.rows.shape[0]} edges>, root={self.root}, construction={self.construction!r}, "
                f"n={self.n})")

    @property
    def depth(self) -> int:
        """Eccentricity of the root in the tree (BFS); ``-1`` if the tree does not reach every vertex."""
        if self._depth is None:
            d = bfs_distances(self.n, self.rows, self.root)
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

    def parent_array(self) -> np.ndarray:
        """The tree as a parent array: ``parent[v]`` is ``v``'s neighbour towards the root, ``-1`` at the root.

        This is the form a runtime broadcasting down (or reducing up) the tree reads, and the form of the
        trees in the version-2 JSON file (docs/formats.md). The edges are ``{v, parent[v]}`` for ``v != root``.

        Returns
        -------
        numpy.ndarray
            ``(n,)`` int64.

        Raises
        ------
        ValueError
            If the edges do not form a spanning tree of the ``n`` vertices (no parent array exists).

        Example
        -------
        >>> Tree(np.array([[0, 1], [1, 2], [1, 3]]), root=2).parent_array().tolist()
        [1, 2, -1, 1]
        """
        return orient(self.n, self.rows, self.root).parent

    def to_networkx(self, labels: Sequence[Hashable] | None = None) -> nx.Graph:
        """The tree as an ``nx.Graph`` on all ``n`` vertices of the host graph.

        Parameters
        ----------
        labels : sequence, optional
            The host graph's vertex labels (``graph.labels``); vertex indices when omitted.

        Returns
        -------
        networkx.Graph
            Nodes: every vertex (labelled); edges: the tree's; ``graph["root"]`` is the root (labelled) and
            ``graph["construction"]`` the construction tag.

        Example
        -------
        >>> t = Tree(np.array([[0, 1], [1, 2]]), root=1, construction="path")
        >>> g = t.to_networkx(["a", "b", "c"])
        >>> import networkx as nx
        >>> sorted(g.edges()), g.graph["root"], nx.is_tree(g)
        ([('a', 'b'), ('b', 'c')], 'b', True)
        """
        import networkx as nx

        lab = _labels(labels, self.n)
        g = nx.Graph(root=lab[self.root], construction=self.construction)
        g.add_nodes_from(lab)
        g.add_edges_from((lab[u], lab[v]) for u, v in self.edges.tolist())
        return g


def _labels(labels: Sequence[Hashable] | None, n: int) -> Sequence[Hashable]:
    """``labels`` checked against ``n`` vertices, or the indices ``0..n-1``."""
    if labels is None:
        return range(n)
    if len(labels) != n:
        raise ValueError(f"labels: {len(labels)} labels given for n={n} vertices")
    return labels


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
    #: The factor packings a star-product construction used (``FactorData`` of G and H, after the swaps of
    #: Lemma V-C.1), None for other sets.
    factors: Any = None

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

    def parent_arrays(self) -> np.ndarray:
        """Every tree's :meth:`Tree.parent_array`, one row per tree: a ``(k, n)`` int64 array.

        Example
        -------
        >>> s = EDSTSet([Tree(np.array([[0, 1], [1, 2]]), 0), Tree(np.array([[0, 2], [1, 2]]), 2)])
        >>> s.parent_arrays().tolist()
        [[-1, 0, 1], [2, 2, -1]]
        """
        if not self:
            return np.zeros((0, 0), dtype=np.int64)
        return np.stack([t.parent_array() for t in self])

    def edge_trees(self, graph: ArrayGraph) -> np.ndarray:
        """For every edge of ``graph`` (in the order of ``graph.edges``), the index of the tree that uses it, or -1.

        Parameters
        ----------
        graph : ArrayGraph
            The undirected host graph (``.n``, ``.edges``).

        Returns
        -------
        numpy.ndarray
            ``(m,)`` int64.

        Raises
        ------
        ValueError
            If the graph is directed, or a tree has an edge that is not in the graph or lies in another tree
            (the attribute names one tree per edge).

        Example
        -------
        >>> from starlib.graphs import ArrayGraph
        >>> k3 = ArrayGraph.from_edges(range(3), np.array([[0, 1], [0, 2], [1, 2]]))
        >>> EDSTSet([Tree(np.array([[2, 1], [0, 2]]), 0)]).edge_trees(k3).tolist()
        [-1, 0, 0]
        """
        if graph.directed:
            raise ValueError("graph: a directed graph has no edge-disjoint spanning trees to mark")
        n = int(graph.n)
        g = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
        gkeys = np.minimum(g[:, 0], g[:, 1]) * n + np.maximum(g[:, 0], g[:, 1])
        order = np.argsort(gkeys, kind="stable")
        e = np.concatenate([t.rows for t in self] + [np.zeros((0, 2), dtype=np.int64)])
        tree_of = np.repeat(np.arange(len(self), dtype=np.int64), [t.rows.shape[0] for t in self])
        if e.size and (e.min() < 0 or e.max() >= n):
            raise ValueError(f"trees: tree {int(tree_of[np.argmax((e < 0).any(1) | (e >= n).any(1))])} has a "
                             f"vertex outside 0..{n - 1}")
        keys = np.minimum(e[:, 0], e[:, 1]) * n + np.maximum(e[:, 0], e[:, 1])
        hit = order[np.searchsorted(gkeys, keys, sorter=order).clip(max=max(g.shape[0] - 1, 0))] if g.size \
            else np.zeros(keys.shape[0], dtype=np.int64)
        missing = (gkeys[hit] != keys) if g.size else np.ones(keys.shape[0], dtype=bool)
        if missing.any():
            k = int(np.argmax(missing))
            raise ValueError(f"trees: tree {int(tree_of[k])} has the edge {divmod(int(keys[k]), n)}, which is not "
                             f"in the graph")
        twice = np.bincount(hit, minlength=g.shape[0]) > 1
        if twice.any():
            j = int(np.argmax(twice))
            users = tree_of[hit == j].tolist()
            raise ValueError(f"trees: the edge {tuple(g[j].tolist())} lies in more than one tree (trees {users})")
        out = np.full(g.shape[0], -1, dtype=np.int64)
        out[hit] = tree_of
        return out

    def to_networkx(self, graph: ArrayGraph | None = None, labels: Sequence[Hashable] | None = None) -> nx.Graph:
        """The trees as one ``nx.Graph`` whose edges carry the attribute ``tree`` (a tree index, or -1).

        With ``graph``, it is the whole host graph (``graph.to_networkx()``'s nodes, labels and graph attributes)
        and an edge no tree uses has ``tree = -1``; without it, only the trees' edges, on the vertices
        ``0..n-1`` (or ``labels``). ``graph["roots"]`` lists the roots in tree order. For one networkx graph per
        tree use ``[t.to_networkx(labels) for t in trees]`` (:meth:`Tree.to_networkx`).

        Parameters
        ----------
        graph : ArrayGraph, optional
            The undirected host graph.
        labels : sequence, optional
            Vertex labels when ``graph`` is not given.

        Returns
        -------
        networkx.Graph

        Raises
        ------
        ValueError
            As :meth:`edge_trees` (a tree edge not in the graph, or in two trees).

        Example
        -------
        >>> from starlib.graphs import ArrayGraph
        >>> k3 = ArrayGraph.from_edges("abc", np.array([[0, 1], [0, 2], [1, 2]]))
        >>> g = EDSTSet([Tree(np.array([[0, 1], [1, 2]]), 0)]).to_networkx(k3)
        >>> sorted(g.edges(data="tree")), g.graph["roots"]
        ([('a', 'b', 0), ('a', 'c', -1), ('b', 'c', 0)], ['a'])
        """
        import networkx as nx

        if graph is not None:
            lab = graph.labels
            ids = self.edge_trees(graph)
            edges = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
            g = nx.Graph(name=graph.name, **graph.params)
        else:
            n = self[0].n if self else 0
            lab = _labels(labels, n)
            edges = np.concatenate([t.edges for t in self]) if self else np.zeros((0, 2), dtype=np.int64)
            ids = np.repeat(np.arange(len(self)), [t.rows.shape[0] for t in self])
            g = nx.Graph()
        g.graph["roots"] = [lab[t.root] for t in self]
        g.add_nodes_from(lab)
        g.add_edges_from((lab[u], lab[v], {"tree": t}) for (u, v), t in zip(edges.tolist(), ids.tolist(),
                                                                            strict=True))
        return g

    @classmethod
    def of(cls, trees: Iterable[Tree]) -> EDSTSet:
        """Wrap any iterable of trees."""
        return cls(list(trees))
