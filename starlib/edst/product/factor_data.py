"""Factor data for the constructions: the EDST set, the non-tree subgraph ``N``, tree centers, Lemma V-C.1.

Lemma V-C.1 (Ku, Wang, Hung 2003): if ``G`` has a maximum EDST set of ``t`` trees and ``r >= t`` non-tree
edges, the trees can be chosen so that the non-tree subgraph ``N`` has a set ``X`` of ``t`` vertices, each
with a path in ``N`` to a vertex outside ``X``. Such an ``X`` exists iff the forest rank of ``N``
(``n`` minus its number of components) is at least ``|X|``. :func:`lemma_vc1` takes a spanning forest ``F``
of ``N``; if it is too small it runs matroid-partition augmentation on ``t + 1`` forests (the ``t`` trees and
``F``) letting only ``F`` grow, which maximises ``|F|`` while the trees stay spanning trees. In each tree
component of ``F`` one vertex (a root) stays outside ``X``; ``X`` takes the other vertices by BFS level from
the roots (level 1 first, which keeps the path length ``L`` small) and every ``x`` in ``X`` uses the single
``N``-edge ``{x, step(x)}`` towards its root: exactly ``|X|`` non-tree edges are used, as the counts of
Constructions V-C.6 and V-C.7 require.

Example
-------
>>> from starlib.edst import factor_edsts
>>> from starlib.factors import paley
>>> d = factor_data(paley(13), factor_edsts(paley(13)))
>>> d.t, d.r, d.centers()
(3, 3, [6, 5, 11])
>>> lem = lemma_vc1(d, 3)
>>> len(lem.X), lem.L
(3, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._kernels import bfs_forest, component_roots, csr, forest_edges, trees_eccentricities
from ...graphs import ArrayGraph, GraphLike, as_graph, edge_array
from ..packing import ForestPartition
from ..trees import Tree, sort_edge_rows

__all__ = ["FactorData", "factor_data", "nontree_edges", "LemmaVC1", "lemma_vc1"]


def nontree_edges(edges: np.ndarray, n: int, trees: list[np.ndarray]) -> np.ndarray:
    """Edges of the graph in no tree (the subgraph ``N``), sorted.

    Raises
    ------
    ValueError
        If a tree edge is not an edge of the graph or two trees share an edge.

    Example
    -------
    >>> nontree_edges(np.array([[0, 1], [0, 2], [1, 2]]), 3, [np.array([[0, 1], [1, 2]])]).tolist()
    [[0, 2]]
    """
    e = sort_edge_rows(edges)
    nn = np.int64(n)
    gk = e[:, 0] * nn + e[:, 1]  # sorted (sort-based membership: np.isin/np.unique hash on numpy 2.3 is slow)
    if not trees:
        return e
    te = np.concatenate([np.asarray(t, dtype=np.int64).reshape(-1, 2) for t in trees])
    tk = np.minimum(te[:, 0], te[:, 1]) * nn + np.maximum(te[:, 0], te[:, 1])
    tk.sort()
    if tk.size > 1 and (tk[1:] == tk[:-1]).any():
        raise ValueError("trees: two trees share an edge")
    pos = np.searchsorted(gk, tk)
    if tk.size and (pos.max() >= gk.size or (gk[pos] != tk).any()):
        raise ValueError("trees: a tree edge is not an edge of the graph")
    keep = np.ones(gk.size, dtype=bool)
    keep[pos] = False
    return e[keep]


@dataclass
class FactorData:
    """A factor graph with a maximum EDST set ``T^1..T^t`` and the derived quantities of Table II.

    Attributes
    ----------
    n : number of vertices.
    edges : the graph's edges.
    trees : the ``t`` trees as ``(n-1, 2)`` arrays (``trees[-1]`` plays ``T^t``).
    tags : construction tag of each tree.
    nontree : the non-tree subgraph ``N`` (``r`` edges).
    """

    n: int
    edges: np.ndarray
    trees: list[np.ndarray]
    tags: list[str]
    nontree: np.ndarray
    _ecc: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def t(self) -> int:
        """Number of trees."""
        return len(self.trees)

    @property
    def r(self) -> int:
        """Number of non-tree edges, ``m - t(n-1)``."""
        return int(self.nontree.shape[0])

    def ecc(self, i: int) -> np.ndarray:
        """Eccentricity of every vertex in tree ``i`` (negative ``i`` counts from the end)."""
        i = i % self.t
        if i not in self._ecc:  # every missing tree at once (one compiled call)
            todo = [j for j in range(self.t) if j not in self._ecc]
            eccs = trees_eccentricities(self.n, np.stack([self.trees[j] for j in todo]))
            if (eccs < 0).any():
                raise ValueError(f"trees: not spanning trees of n={self.n} vertices (disconnected)")
            self._ecc.update(zip(todo, eccs, strict=True))
        return self._ecc[i]

    def center(self, i: int) -> tuple[int, int]:
        """``(center, radius)`` of tree ``i``: the smallest-index vertex of least eccentricity."""
        e = self.ecc(i)
        c = int(np.argmin(e))
        return c, int(e[c])

    def centers(self) -> list[int]:
        """Center of every tree."""
        return [self.center(i)[0] for i in range(self.t)]

    def radii(self) -> list[int]:
        """Radius ``d^i`` of every tree (the depth with the center as root)."""
        return [self.center(i)[1] for i in range(self.t)]

    def reordered(self, order: list[int]) -> FactorData:
        """The same data with the trees permuted (``order[j]`` becomes tree ``j``)."""
        return FactorData(self.n, self.edges, [self.trees[j] for j in order], [self.tags[j] for j in order],
                          self.nontree, {k: self._ecc[o] for k, o in enumerate(order) if o in self._ecc})

    @classmethod
    def of(cls, graph: ArrayGraph, trees: list[Any], name: str = "trees") -> FactorData:
        """:func:`factor_data` past its door: ``graph`` is an :class:`~starlib.graphs.ArrayGraph` already checked
        (a factor of a checked star product); the trees are checked here as there."""
        n = int(graph.n)
        if n < 2:
            raise ValueError(f"graph: n={n} vertices; a factor needs n >= 2")
        arrays = [t.edges if isinstance(t, Tree) else
                  sort_edge_rows(edge_array(getattr(t, "edges", t), f"{name}[{i}]", n)) for i, t in enumerate(trees)]
        tags = [str(getattr(t, "construction", "given")) for t in trees]
        for i, a in enumerate(arrays):
            if a.shape[0] != n - 1:
                raise ValueError(f"{name}: tree {i} has {a.shape[0]} edges, a spanning tree of n={n} has {n - 1}")
        nt = nontree_edges(np.asarray(graph.edges), n, arrays)
        ecc = {i: t.meta["ecc"] for i, t in enumerate(trees)
               if isinstance(getattr(t, "meta", None), dict) and "ecc" in t.meta}
        return cls(n, sort_edge_rows(graph.edges), arrays, tags, nt, ecc)


def factor_data(graph: GraphLike, trees: list[Any], name: str = "trees") -> FactorData:
    """Bundle a factor graph with an EDST set (a maximum one for the paper's counts).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The factor (connected, simple, ``n >= 2``; :func:`~starlib.graphs.as_graph`).
    trees : list of Tree or arrays
        Its EDST set, for example :func:`~starlib.edst.product.auto.default_factor_trees` ``(graph)``: integer
        vertex indices in ``0..n-1`` (:func:`~starlib.graphs.edge_array`; floats are refused, not truncated).
    name : str
        The trees' argument name for messages (``"g_trees"`` when a construction was given them).

    Returns
    -------
    FactorData
        :meth:`FactorData.of` on the converted graph (the constructions call that one directly: their factors are
        checked at their door).

    Raises
    ------
    ValueError
        If the graph has fewer than 2 vertices, a tree is not an integer ``(n-1, 2)`` array of indices in
        ``0..n-1`` (naming ``trees[i]``, or ``{name}[i]``), or the given trees are not edge-disjoint graph edges.
    TypeError
        If ``graph`` is not a graph.

    Example
    -------
    >>> from starlib.edst import factor_edsts
    >>> from starlib.factors import complete
    >>> d = factor_data(complete(5), factor_edsts(complete(5)))
    >>> d.t, d.r, d.tags
    (2, 2, ['walecki', 'walecki'])
    """
    return FactorData.of(as_graph(graph, "graph"), trees, name)


@dataclass
class LemmaVC1:
    """Result of :func:`lemma_vc1`.

    Attributes
    ----------
    data : the factor data, with trees possibly changed by swaps (still a maximum EDST set).
    X : the vertices of ``X`` in order (``X[0]`` is the preferred vertex when one was requested).
    step : ``step[i]`` is the next vertex from ``X[i]`` towards ``V \\ X`` along the non-tree edge
        ``{X[i], step[i]}``.
    L : the longest ``N``-path from a vertex of ``X`` to ``V \\ X`` (``0`` when ``X`` is empty).
    """

    data: FactorData
    X: np.ndarray
    step: np.ndarray
    L: int

    @property
    def forest_edges(self) -> np.ndarray:
        """The ``|X|`` non-tree edges ``{x, step(x)}`` the constructions use (sorted rows)."""
        return sort_edge_rows(np.stack([self.X, self.step], axis=1))

    def paths(self) -> list[list[int]]:
        """For every ``x`` in ``X``, its ``N``-path ``x, step(x), ...`` ending at the first vertex not in ``X``."""
        nxt = dict(zip(self.X.tolist(), self.step.tolist(), strict=True))
        out = []
        for x in self.X.tolist():
            p = [x]
            while p[-1] in nxt:
                p.append(nxt[p[-1]])
            out.append(p)
        return out


def _max_forest(data: FactorData) -> tuple[FactorData, np.ndarray]:
    """Trees and a maximum-size forest of the non-tree subgraph over all maximum EDST sets."""
    nt = np.ascontiguousarray(data.nontree, dtype=np.int64).reshape(-1, 2)
    return data, nt[forest_edges(data.n, nt)]  # greedy spanning forest of N, in edge order


def _choose_x(n: int, forest: np.ndarray, size: int, rank: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, int]:
    """``X``, ``step`` and ``L`` of Lemma V-C.1 from a forest of non-tree edges (see :func:`lemma_vc1`).

    One root per forest component: the vertex of highest forest degree (ties: the smallest); in the component
    of the preferred vertex (least ``rank``, then index) its highest-degree neighbour instead, so that the
    preferred vertex sits on level 1. ``X`` takes the non-root vertices by (level, index), the preferred one
    first; ``step`` is each one's parent towards its root.
    """
    deg = np.bincount(forest.ravel(), minlength=n)
    verts = np.flatnonzero(deg)
    indptr, indices = csr(n, forest, sort=False)
    # component label: the smallest vertex of the component (first occurrence of its union-find root)
    _, first, inverse = np.unique(component_roots(n, forest), return_index=True, return_inverse=True)
    comp = first[inverse]
    # roots: per component the vertex maximising (degree, -index)
    order = np.lexsort((verts, -deg[verts]))  # by degree descending, then index ascending
    root_of = np.full(n, -1, dtype=np.int64)
    for v in verts[order][::-1].tolist():  # last write wins: the first in `order`
        root_of[comp[v]] = v
    prefer = -1
    if rank is not None:
        rk = np.asarray(rank)[verts]
        prefer = int(verts[np.lexsort((verts, rk))[0]])
        nb = indices[indptr[prefer]:indptr[prefer + 1]]
        root_of[comp[prefer]] = int(nb[np.lexsort((nb, -deg[nb]))[0]])
    roots = root_of[np.unique(comp[verts])]
    level, up = bfs_forest(indptr, indices, roots)
    nonroot = verts[up[verts] >= 0]
    cand = nonroot[np.lexsort((nonroot, level[nonroot]))]
    if prefer >= 0:
        cand = np.concatenate([[prefer], cand[cand != prefer]])
    X = cand[:size].astype(np.int64)
    step = up[X]
    inx = np.zeros(n, dtype=bool)
    inx[X] = True
    L = 0
    for x in X.tolist():
        hops, y = 0, x
        while inx[y]:
            y = int(up[y])
            hops += 1
        L = max(L, hops)
    return X, step, L


def _augment_forest(data: FactorData) -> tuple[FactorData, np.ndarray]:
    """Matroid-partition augmentation on ``t + 1`` forests where only the last (``F``) may grow."""
    n, t = data.n, data.t
    all_edges = np.concatenate(data.trees + [data.nontree]) if data.t else data.nontree
    fp = ForestPartition(n, all_edges, t + 1)
    base = 0
    for i, tr in enumerate(data.trees):
        for j in range(tr.shape[0]):
            fp.add(base + j, i)
        base += tr.shape[0]
    for j in range(base, all_edges.shape[0]):
        fp.insert(j, grow=(t,))
    trees = [fp.forest_edges(i) for i in range(t)]
    new = FactorData(n, data.edges, trees, data.tags, nontree_edges(data.edges, n, trees))
    return new, fp.forest_edges(t)


def lemma_vc1(data: FactorData, size: int, rank: np.ndarray | None = None) -> LemmaVC1:
    """Lemma V-C.1: a set ``X`` of ``size`` vertices, each with a non-tree path to ``V \\ X``.

    Parameters
    ----------
    data : FactorData
        The factor with a maximum EDST set.
    size : int
        ``|X|``: ``t`` for Theorem V-C.3 / Corollary V-C.10, ``t - 1`` suffices in Corollary V-C.11.
    rank : ndarray, optional
        A score per vertex; the lowest-scoring vertex that can lie in ``X`` becomes ``X[0]`` (used to put the
        root ``g_0`` of ``T^t`` in ``X`` as close to its center as possible).

    Returns
    -------
    LemmaVC1
        ``X``, the step of each ``x`` towards ``V \\ X``, the path bound ``L``, and the (possibly swapped) trees.

    Raises
    ------
    ValueError
        If no maximum EDST set leaves a non-tree forest of ``size`` edges (then ``r < size`` or the
        non-tree edges are too clustered).

    Example
    -------
    >>> from starlib.edst import factor_edsts
    >>> from starlib.factors import complete_bipartite
    >>> K = complete_bipartite(4)
    >>> lem = lemma_vc1(factor_data(K, factor_edsts(K)), 2)
    >>> lem.X.tolist(), lem.step.tolist(), lem.L
    ([4, 6], [0, 0], 1)

    References
    ----------
    Lemma V-C.1 of Isham et al. (2025), after Ku, Wang, Hung, IEEE TPDS 14(3) (2003).
    """
    size = int(size)
    if size < 0:
        raise ValueError(f"size={size} must be >= 0")
    n = data.n
    if size == 0:
        return LemmaVC1(data, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0)
    if size > n - 1:
        raise ValueError(f"size={size}: X needs a vertex outside it, so size <= n-1={n - 1}")
    data, forest = _max_forest(data)
    if forest.shape[0] < size:
        data, forest = _augment_forest(data)
    if forest.shape[0] < size:
        raise ValueError(f"size={size}: the non-tree edges (r={data.r}) of every maximum EDST set found have "
                         f"forest rank {forest.shape[0]} < {size}; Lemma V-C.1 needs r >= t")
    X, step, L = _choose_x(n, forest, size, rank)
    return LemmaVC1(data, X, step, L)
