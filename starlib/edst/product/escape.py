"""A maximum EDST set of a factor whose non-tree edges lead a given vertex set out of itself.

Lemma V-C.1 asks for *some* set ``X`` of ``t`` vertices, each with a non-tree path to ``V \\ X``, and chooses
``X`` to suit the trees. The twisted Maximum construction (:mod:`starlib.edst.product.twisted`) meets the same
need with ``X`` *prescribed*, a different ``Y`` in every supernode, and chooses the trees to suit ``Y``:
:func:`escaping_packing` returns ``t`` edge-disjoint spanning trees of ``H`` and a forest ``F`` of ``|Y|`` other
edges in which every vertex of ``Y`` has a path to a vertex outside ``Y``, or says that none exists.

Method
------
A forest ``F`` of non-tree edges in which every vertex of ``Y`` reaches ``V \\ Y`` is, after contracting
``V \\ Y`` to one vertex ``z``, a spanning tree of ``H / (V \\ Y)`` on ``Y + {z}``; conversely any forest of
``|Y|`` edges of ``H / (V \\ Y)`` is such a spanning tree. So the question is a matroid partition: ``t`` copies of
the graphic matroid of ``H`` and one graphic matroid of ``H / (V \\ Y)`` (edges inside ``V \\ Y`` are loops), and
the answer is yes iff the union has rank ``t (n - 1) + |Y|``. Starting from the given trees and a greedy ``F``,
every non-tree edge is inserted by Edmonds' augmenting paths (breadth first, every circuit read in the forests
as they stand before the path is applied, each element labelled once; Edmonds 1965, Knuth 1973). A path only
moves edges between forests and ends by growing ``F``, because the trees are bases of their matroids; so the
trees stay spanning trees and ``F`` grows to the largest size any partition allows. The result is checked.

Finally ``F`` is replaced by a breadth-first forest from ``V \\ Y`` over *all* the non-tree edges of the final
trees: it has the same ``|Y|`` edges count, and every ``y`` reaches ``V \\ Y`` by a shortest non-tree path, so
the escape length ``L`` is the least these trees allow.

Example
-------
>>> from starlib.edst import factor_edsts
>>> from starlib.factors import complete_bipartite
>>> K = complete_bipartite(4)
>>> trees = [t.edges for t in factor_edsts(K)]
>>> esc = escaping_packing(K.n, K.edges, trees, [0, 1])
>>> len(esc.trees), esc.forest.shape[0], esc.L
(2, 2, 1)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from ..._kernels import bfs_forest, csr
from ..trees import sort_edge_rows

__all__ = ["Escape", "escaping_packing"]


@dataclass
class Escape:
    """Result of :func:`escaping_packing`.

    Attributes
    ----------
    trees : the ``t`` spanning trees, ``(n - 1, 2)`` sorted edge rows each.
    forest : the ``|Y|`` non-tree edges ``{y, step(y)}``, one per vertex of ``Y`` (sorted rows).
    L : the largest number of forest hops from a vertex of ``Y`` to the first vertex outside ``Y``.
    """

    trees: list[np.ndarray]
    forest: np.ndarray
    L: int


class _Forests:
    """``k`` forests over one edge list; forest ``i`` sees vertex ``v`` as ``vmap[i][v]`` (a contraction)."""

    def __init__(self, n: int, eu: list[int], ev: list[int], vmaps: list[list[int]]) -> None:
        self.n, self.eu, self.ev, self.vmaps = n, eu, ev, vmaps
        self.k = len(vmaps)
        self.members: list[set[int]] = [set() for _ in range(self.k)]
        self.owner = [-1] * len(eu)
        self._par: list[dict[int, tuple[int, int]] | None] = [None] * self.k
        self._dep: list[dict[int, int]] = [{} for _ in range(self.k)]

    def ends(self, e: int, i: int) -> tuple[int, int]:
        return self.vmaps[i][self.eu[e]], self.vmaps[i][self.ev[e]]

    def move(self, e: int, i: int) -> None:
        if self.owner[e] >= 0:
            self.members[self.owner[e]].discard(e)
            self._par[self.owner[e]] = None
        self.owner[e] = i
        if i >= 0:
            self.members[i].add(e)
            self._par[i] = None

    def _rebuild(self, i: int) -> None:
        adj: dict[int, list[tuple[int, int]]] = {}
        for e in sorted(self.members[i]):
            a, b = self.ends(e, i)
            adj.setdefault(a, []).append((b, e))
            adj.setdefault(b, []).append((a, e))
        par: dict[int, tuple[int, int]] = {}
        dep: dict[int, int] = {}
        for s in sorted(adj):
            if s in dep:
                continue
            dep[s] = 0
            par[s] = (-1, -1)
            queue = deque([s])
            while queue:
                x = queue.popleft()
                for y, e in adj[x]:
                    if y not in dep:
                        dep[y], par[y] = dep[x] + 1, (x, e)
                        queue.append(y)
        self._par[i], self._dep[i] = par, dep

    def path(self, e: int, i: int) -> list[int] | None:
        """The edges of forest ``i`` between the ends of ``e`` (its circuit minus ``e``), or None if independent."""
        a, b = self.ends(e, i)
        if a == b:
            return []  # a loop of the contracted matroid: never independent, and no circuit to exchange along
        if self._par[i] is None:
            self._rebuild(i)
        par, dep = self._par[i], self._dep[i]
        assert par is not None
        if a not in dep or b not in dep:
            return None
        out: list[int] = []
        while dep[a] > dep[b]:
            a, e1 = par[a]
            out.append(e1)
        while dep[b] > dep[a]:
            b, e1 = par[b]
            out.append(e1)
        while a != b:
            if par[a][0] < 0:
                return None  # different components
            a, e1 = par[a]
            out.append(e1)
            b, e2 = par[b]
            out.append(e2)
        return out

    def insert(self, s: int) -> bool:
        """Edmonds' augmenting path from the unassigned edge ``s``; True if the union grew."""
        label: dict[int, tuple[int, int]] = {s: (-1, -1)}
        queue = deque([s])
        while queue:
            x = queue.popleft()
            for i in range(self.k):
                if i == self.owner[x]:
                    continue
                circ = self.path(x, i)
                if circ is None:  # x fits into forest i: apply the path back to s
                    while x >= 0:
                        prev, j = label[x]
                        self.move(x, i)
                        x, i = prev, j
                    return True
                for y in circ:
                    if y not in label:
                        label[y] = (x, i)
                        queue.append(y)
        return False


def escaping_packing(n: int, edges: np.ndarray, trees: list[np.ndarray], Y: list[int] | np.ndarray) -> Escape | None:
    """``len(trees)`` EDSTs of ``H`` and a non-tree forest in which every vertex of ``Y`` reaches ``V \\ Y``.

    Parameters
    ----------
    n : int
        Number of vertices of ``H``.
    edges : ndarray
        ``(m, 2)`` edges of ``H``.
    trees : list of ndarray
        A maximum EDST set of ``H`` (the start; it is kept when it already works).
    Y : sequence of int
        The prescribed vertices (distinct; at most ``n - 1``).

    Returns
    -------
    Escape or None
        The trees (possibly exchanged edges), the forest and its escape length; None if no EDST set of
        ``len(trees)`` trees leaves such a forest (the matroid union has smaller rank).

    Raises
    ------
    ValueError
        If ``Y`` repeats a vertex, leaves no vertex outside it, or names a vertex not in ``range(n)``.

    Example
    -------
    >>> import numpy as np
    >>> C4 = np.array([[0, 1], [1, 2], [2, 3], [0, 3]])
    >>> escaping_packing(4, C4, [np.array([[0, 1], [1, 2], [2, 3]])], [3]).forest.tolist()
    [[0, 3]]
    >>> escaping_packing(4, C4, [np.array([[0, 1], [1, 2], [2, 3]])], [0, 3]) is None
    True

    References
    ----------
    Lemma V-C.1 of Isham et al. (2025) (the same forest, with ``X`` chosen instead of prescribed); J. Edmonds,
    "Minimum partition of a matroid into independent subsets", J. Res. NBS 69B (1965); D. E. Knuth, "Matroid
    partitioning", Stanford CS-73-342 (1973).
    """
    Yl = [int(y) for y in np.asarray(Y, dtype=np.int64).reshape(-1)]
    if len(set(Yl)) != len(Yl):
        raise ValueError(f"Y={Yl}: vertices must be distinct")
    if any(y < 0 or y >= n for y in Yl):
        raise ValueError(f"Y={Yl}: vertices must lie in range(n={n})")
    if len(Yl) > n - 1:
        raise ValueError(f"Y has {len(Yl)} vertices: at least one of the n={n} vertices must lie outside it")
    e = sort_edge_rows(np.asarray(edges, dtype=np.int64).reshape(-1, 2))
    key = {(int(a), int(b)): i for i, (a, b) in enumerate(e.tolist())}
    t = len(trees)
    inY = np.zeros(n, dtype=bool)
    inY[Yl] = True
    z = n
    contract = [v if inY[v] else z for v in range(n)]
    ident = list(range(n))
    fs = _Forests(n, e[:, 0].tolist(), e[:, 1].tolist(), [ident] * t + [contract])
    for i, tr in enumerate(trees):
        for a, b in sort_edge_rows(np.asarray(tr, dtype=np.int64).reshape(-1, 2)).tolist():
            fs.move(key[(a, b)], i)
    for eid in range(e.shape[0]):  # greedy F, then augmenting paths for the rest
        if fs.owner[eid] < 0 and fs.path(eid, t) is None:
            fs.move(eid, t)
    for eid in range(e.shape[0]):
        if len(fs.members[t]) == len(Yl):
            break
        if fs.owner[eid] < 0:
            fs.insert(eid)
    if len(fs.members[t]) < len(Yl):
        return None
    out = [sort_edge_rows(e[sorted(fs.members[i])]) for i in range(t)]
    used = np.zeros(e.shape[0], dtype=bool)
    for i in range(t):
        used[list(fs.members[i])] = True
    forest, L = _bfs_escape(n, e[~used], inY)
    return Escape(out, forest, L)


def _bfs_escape(n: int, nontree: np.ndarray, inY: np.ndarray) -> tuple[np.ndarray, int]:
    """Breadth-first forest from ``V \\ Y`` over ``nontree``: one edge per ``y`` and the largest distance."""
    dist, parent = bfs_forest(*csr(n, nontree), np.flatnonzero(~inY))
    if (dist < 0).any():
        raise AssertionError("escaping_packing: the forest found does not reach every vertex of Y")
    ys = np.flatnonzero(inY)
    return sort_edge_rows(np.stack([ys, parent[ys]], axis=1)), int(dist.max())
