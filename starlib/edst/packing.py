"""Exact maximum EDST packing of any simple graph: matroid partition with a Nash-Williams certificate.

The union of ``k`` forests is a matroid (the ``k``-fold union of the graphic matroid), so inserting edges one
by one, each through a shortest augmenting path of edge swaps (Edmonds' matroid partition, in the form of
Roskind and Tarjan), yields a largest union of ``k`` forests. The graph has ``k`` edge-disjoint spanning trees
iff that union has ``k(n-1)`` edges.

When it has fewer, the edges labelled by a failed search (every unused edge and every forest edge reachable
from it by swaps) span, in every forest, the same vertex partition ``P``; all edges between parts are in the
union, so ``e(P) < k(|P|-1)`` and ``floor(e(P)/(|P|-1)) < k`` is an upper bound (Nash-Williams and Tutte).
:func:`generic_packing` starts at ``k = min(floor(m/(n-1)), min degree)`` and lowers ``k`` to the bound of each
extracted partition until a packing succeeds, keeping the largest forests as the next start, so the count it
returns always equals a certified upper bound.

The work is done by :class:`~starlib.edst.forest_union.ForestUnion`: seeded greedy forests, then compiled
augmenting paths for the few edges they miss. Slim Fly MMS(49) (175,273 links, 36 trees) takes about 0.08 s on
this project's 2-core machine, the star graph ``S_9`` (1,451,520 links) about 5 s
(:func:`generic_seconds` estimates it). This module also keeps :class:`ForestPartition`, the same algorithm with
Python augmenting paths, for its callers that insert chosen edges into chosen forests one at a time (the ER_q
repair and Lemma V-C.1's factor data); the tests hold the two to the same union sizes.

Example
-------
>>> import networkx as nx
>>> from starlib.graphs import ArrayGraph
>>> p = generic_packing(ArrayGraph.from_networkx(nx.petersen_graph()))
>>> p.count, p.bound_kind, len(p.certificate_parts())
(1, 'edges', 10)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._kernels import bfs_edges, component_roots
from ..graphs import GraphLike, as_graph
from .forest_union import PHASE_LINKS, ForestUnion
from .trees import EDSTSet, Tree

__all__ = ["ForestPartition", "Packing", "generic_packing", "partition_bound", "pack_forests",
           "generic_seconds"]


def generic_seconds(m: int) -> float:
    """An upper estimate of the exact generic packing's time on ``m`` links, in seconds.

    Below :data:`~starlib.edst.forest_union.PHASE_LINKS` links (one augmenting search per missing edge):
    ``5e-11 m^2 + 1e-6 m``; from there on (augmenting paths in phases): ``2e-8 m^1.4``.

    The hardest graphs for :func:`generic_packing` are sparse ones with hardly more links than ``k(n-1)``
    (every link is needed): the greedy phase leaves about 3 % of the tree edges to augmenting paths. One search per
    missing edge grows as ``m^2`` there: on this project's 2-core reference machine the star graph ``S_9``
    (1,451,520 links) took 31 to 100 s. The phases take it in about 5 s, the 3-D torus ``C_128^3`` (6,291,456
    links) in about 40 s and ``S_10`` (16,329,600 links) in under two minutes; ``2e-8 m^1.4`` is above every
    sparse network of ``benchmarks/bench_packing.py``. Dense networks are far faster (Slim Fly MMS(73), 580,861
    links: 0.4 s), so the estimate errs long.

    Parameters
    ----------
    m : int
        Links of the graph.

    Returns
    -------
    float

    Examples
    --------
    >>> round(generic_seconds(100_000), 2), round(generic_seconds(1_451_520)), round(generic_seconds(16_329_600))
    (0.6, 8, 251)
    """
    if m < PHASE_LINKS:
        return 5e-11 * float(m) ** 2 + 1e-6 * float(m)
    return 2e-8 * float(m) ** 1.4


def partition_bound(edges: np.ndarray, parts: np.ndarray) -> int:
    """Nash-Williams-Tutte bound ``floor(e(P) / (|P| - 1))`` of a vertex partition.

    Parameters
    ----------
    edges : ``(m, 2)`` array of vertex indices.
    parts : ``(n,)`` array, ``parts[v]`` the part of vertex ``v``.

    Returns
    -------
    int
        The bound; no graph has more EDSTs than the number of crossing edges over ``|P| - 1``.

    Raises
    ------
    ValueError
        If the partition has a single part.

    Example
    -------
    >>> partition_bound(np.array([[0, 1], [1, 2], [0, 2], [2, 3]]), np.array([0, 0, 0, 1]))
    1
    """
    parts = np.asarray(parts)
    k = np.unique(parts).shape[0]
    if k < 2:
        raise ValueError(f"parts: a partition with {k} part gives no bound; need at least 2 parts")
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    crossing = int((parts[e[:, 0]] != parts[e[:, 1]]).sum())
    return crossing // (k - 1)


def _root(parent: list[int], x: int) -> int:
    """Root of ``x`` in a union-find held as a Python list, with full path compression.

    :class:`ForestPartition` changes its union-finds one edge at a time between Python steps of the
    augmenting search, so they stay Python lists (a call into a compiled kernel per lookup would cost
    more than the lookup); whole loops of unions go to :func:`starlib._kernels.union_edges`.
    """
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        parent[x], x = root, parent[x]
    return root


class ForestPartition:
    """``k`` edge-disjoint forests over a fixed edge list, grown by matroid-partition augmentation.

    Forest ``i`` is held as the set of its edge ids (``members[i]``, a dict in insertion order), a union-find
    of its components (swaps never change components, only a final insertion merges two) and parent
    pointers rebuilt lazily after a change (for tree paths) by the compiled breadth-first search
    :func:`starlib._kernels.bfs_edges`, rooted at the smallest vertex of every component.

    Parameters
    ----------
    n : number of vertices.
    edges : ``(m, 2)`` int array; edges are referred to by row index.
    k : number of forests.
    """

    def __init__(self, n: int, edges: np.ndarray, k: int) -> None:
        e = np.array(edges, dtype=np.int64).reshape(-1, 2)  # a copy: the ids refer to these rows
        self.n, self.k, self.m = int(n), int(k), int(e.shape[0])
        self._edges = e
        self.eu: list[int] = e[:, 0].tolist()
        self.ev: list[int] = e[:, 1].tolist()
        self.owner: list[int] = [-1] * self.m
        self.members: list[dict[int, None]] = [{} for _ in range(k)]
        self.uf: list[list[int]] = [list(range(n)) for _ in range(k)]
        self.size: list[int] = [0] * k
        self._par: list[list[int]] = [[] for _ in range(k)]
        self._pedge: list[list[int]] = [[] for _ in range(k)]
        self._dep: list[list[int]] = [[] for _ in range(k)]
        self._dirty: list[bool] = [True] * k
        self.last_labels: dict[int, int] = {}
        self._tight: dict[tuple[int, ...], list[int]] = {}

    # -- forest primitives ---------------------------------------------------------------------
    def _link(self, eid: int, i: int) -> None:
        self.members[i][eid] = None
        self.owner[eid] = i
        self.size[i] += 1
        self._dirty[i] = True

    def _unlink(self, eid: int) -> None:
        i = self.owner[eid]
        del self.members[i][eid]
        self.owner[eid] = -1
        self.size[i] -= 1
        self._dirty[i] = True

    def add(self, eid: int, i: int) -> None:
        """Put edge ``eid`` into forest ``i`` (its ends must be in different components of forest ``i``)."""
        uf = self.uf[i]
        ra, rb = _root(uf, self.eu[eid]), _root(uf, self.ev[eid])
        if ra == rb:
            raise ValueError(f"eid={eid}: both ends already connected in forest {i}")
        uf[ra] = rb
        self._link(eid, i)

    def _rebuild(self, i: int) -> None:
        ids = np.fromiter(self.members[i], dtype=np.int64, count=len(self.members[i]))
        dep, par, row, _ = bfs_edges(self.n, self._edges[ids])  # a forest: parents do not depend on the order
        self._par[i], self._dep[i] = par.tolist(), dep.tolist()
        self._pedge[i] = np.append(ids, -1)[row].tolist()  # row -1 (a root) picks the appended -1
        self._dirty[i] = False

    def path(self, i: int, a: int, b: int) -> list[int]:
        """Edge ids of the path from ``a`` to ``b`` in forest ``i`` (they must be connected)."""
        if self._dirty[i]:
            self._rebuild(i)
        par, pedge, dep = self._par[i], self._pedge[i], self._dep[i]
        out: list[int] = []
        while dep[a] > dep[b]:
            out.append(pedge[a])
            a = par[a]
        while dep[b] > dep[a]:
            out.append(pedge[b])
            b = par[b]
        while a != b:
            out.append(pedge[a])
            out.append(pedge[b])
            a, b = par[a], par[b]
        return out

    # -- augmentation --------------------------------------------------------------------------
    def insert(self, eid: int, grow: tuple[int, ...] | None = None) -> bool:
        """Insert edge ``eid`` through a shortest augmenting path; False if the union cannot grow by it.

        Parameters
        ----------
        eid : the edge to insert (not yet in a forest).
        grow : forests allowed to gain an edge (default: all). Others only swap edges.
        """
        a, b = self.eu[eid], self.ev[eid]
        grow = tuple(range(self.k)) if grow is None else grow
        for i in grow:
            if _root(self.uf[i], a) != _root(self.uf[i], b):
                self.add(eid, i)
                return True
        # an edge inside a part of a saturated partition found by an earlier failure stays dependent
        tight = self._tight.get(grow)
        if tight is not None and tight[a] == tight[b]:
            return False
        found = self._search([eid], set(grow))
        if found is None:
            self._tight[grow] = self._label_components()
            return False
        x, i, label = found
        self._apply(x, i, label)
        return True

    def _search(self, sources: list[int], grow: set[int]) -> tuple[int, int, dict[int, int]] | None:
        """BFS over swap edges from ``sources``; ``(terminal edge, forest, labels)`` or None (labels kept).

        Within one search the labelled edges of each forest are contracted (a union-find whose
        representative is the top vertex of a labelled subtree), so each forest edge is walked once.
        This is a search of the matroid's exchange graph (its nodes are edges, the arcs out of an edge are
        the unlabelled forest edges on its tree paths, found on the fly through the contraction), not of
        the input graph: the arcs exist only as the search goes, so it cannot run on adjacency arrays and
        stays here rather than in :mod:`starlib._kernels`.
        """
        label: dict[int, int] = {s: -1 for s in sources}
        queue = deque(sources)
        k, n = self.k, self.n
        eu, ev, owner = self.eu, self.ev, self.owner
        full = [self.size[i] == n - 1 for i in range(k)]
        contracted: list[list[int] | None] = [None] * k
        for i in range(k):
            if self._dirty[i]:
                self._rebuild(i)

        while queue:
            x = queue.popleft()
            a, b = eu[x], ev[x]
            ox = owner[x]
            for i in range(k):
                if i == ox:
                    continue
                if not full[i] and _root(self.uf[i], a) != _root(self.uf[i], b):
                    if i in grow:
                        return x, i, label
                    continue
                c = contracted[i]
                if c is None:
                    c = contracted[i] = list(range(n))
                par, pedge, dep = self._par[i], self._pedge[i], self._dep[i]
                ta, tb = _root(c, a), _root(c, b)
                while ta != tb:
                    if dep[ta] < dep[tb]:
                        ta, tb = tb, ta
                    y = pedge[ta]
                    label[y] = x
                    queue.append(y)
                    p = par[ta]
                    c[ta] = p
                    ta = _root(c, p)
        self.last_labels = label
        return None

    def _apply(self, x: int, i: int, label: dict[int, int]) -> None:
        cur, target, first = x, i, True
        while True:
            old = self.owner[cur]
            if old >= 0:
                self._unlink(cur)
            if first:
                self.add(cur, target)  # the only insertion that joins two components
                first = False
            else:
                self._link(cur, target)
            prev = label[cur]
            if prev < 0:
                return
            cur, target = prev, old

    def _label_components(self) -> list[int]:
        """Component representative of every vertex in the graph of the last search's labelled edges.

        After a failed search the labelled edges ``L`` satisfy ``|I & A| = k r(A)`` for ``A`` the edges
        inside the components of ``L``: ``A`` is saturated, and stays so while the union only grows.
        """
        ids = np.fromiter(self.last_labels, dtype=np.int64, count=len(self.last_labels))
        return component_roots(self.n, self._edges[ids]).tolist()  # roots depend on the labelling order

    def forest_edges(self, i: int) -> np.ndarray:
        """Forest ``i`` as an ``(size, 2)`` edge array (sorted rows)."""
        return self._edges[np.array(sorted(self.members[i]), dtype=np.int64)]

    def unused(self) -> list[int]:
        """Ids of the edges in no forest."""
        return [j for j, o in enumerate(self.owner) if o < 0]


def pack_forests(n: int, edges: np.ndarray, k: int) -> tuple[ForestPartition, list[int]]:
    """A largest union of ``k`` edge-disjoint forests (edges inserted in the given order).

    Returns
    -------
    (ForestPartition, rejected edge ids)

    Example
    -------
    >>> fp, rej = pack_forests(3, np.array([[0, 1], [1, 2], [0, 2]]), 1)
    >>> fp.size, rej
    ([2], [2])
    """
    fp = ForestPartition(n, edges, k)
    rejected = [j for j in range(fp.m) if not fp.insert(j)]
    return fp, rejected


@dataclass
class Packing:
    """A maximum EDST packing with its certificate of optimality.

    Attributes
    ----------
    trees : the ``count`` trees (tag ``"generic"``).
    count : number of trees.
    upper_bound : a proven upper bound equal to ``count`` (for a requested ``k``: just ``floor(m/(n-1))``).
    bound_kind : ``"edges"`` (``floor(m/(n-1))``), ``"degree"`` (minimum degree), ``"partition"``, or
        ``"requested"`` when a fixed ``k`` was asked for.
    certificate : vertex partition whose Nash-Williams bound equals ``upper_bound`` (``parts[v]``).
    nontree : the edges in no tree (the subgraph ``N`` of the paper), ``(r, 2)``.
    origin : for a warm start (``generic_packing(..., start=)``), the start forest each tree grew from (``-1``: a
        forest that began empty); ``None`` for a cold start.
    owner : for a warm start, the tree of every edge (``-1``: none); ``None`` for a cold start.
    """

    trees: EDSTSet
    count: int
    upper_bound: int
    bound_kind: str
    certificate: np.ndarray
    nontree: np.ndarray
    origin: np.ndarray | None = None
    owner: np.ndarray | None = None

    def certificate_parts(self) -> list[list[int]]:
        """The certificate partition as sorted lists of vertices."""
        parts: dict[int, list[int]] = {}
        for v, p in enumerate(self.certificate.tolist()):
            parts.setdefault(p, []).append(v)
        return sorted(parts.values())


def _graph(graph: GraphLike) -> tuple[int, np.ndarray]:
    """The door of :func:`generic_packing`: ``(n, edges)`` of the graph, converted and checked once."""
    graph = as_graph(graph, "graph")  # a networkx graph converted; None, text, digraphs, multigraphs refused
    n = int(graph.n)
    e = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; a spanning-tree packing needs n >= 2")
    if e.size and ((e[:, 0] == e[:, 1]).any()):
        raise ValueError("graph: has a self-loop; EDST packing needs a simple graph")
    return n, e


def generic_packing(graph: GraphLike, k: int | None = None,
                    progress: Callable[[int, int], None] | None = None, *,
                    start: np.ndarray | None = None, engine: str = "auto") -> Packing:
    """Maximum EDST packing of a simple graph by matroid partition, with an optimality certificate.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph, simple and undirected (:func:`~starlib.graphs.as_graph`: a networkx
        graph's trees are index arrays of its nodes in sorted order).
    k : int, optional
        Pack exactly ``k`` trees instead of the maximum (fails if impossible).
    progress : callable, optional
        ``progress(placed, wanted)``, called about 50 times per round of augmentations: tree edges placed so far
        and ``k(n-1)``.
    start : ndarray, optional
        A warm start (the augmenting, not from-scratch, repack of ``starlib.edst.repair``): ``start[e]`` the forest
        ``0..s-1`` that edge ``e`` (a row of ``graph.edges``) begins in, ``-1`` for none; each forest acyclic.
        The packing grows from these forests (:class:`~starlib.edst.forest_union.ForestUnion`'s ``start``); when
        the first target is below ``s``, the largest start forests are kept. The count is the same maximum with
        its certificate; ``Packing.origin`` says which start forest each tree grew from.
    engine : str
        How the augmenting paths are found (:class:`~starlib.edst.forest_union.ForestUnion`): ``"auto"`` (phases
        on large sparse graphs), ``"phases"`` or ``"paths"``. The count and its certificate never depend on it;
        the trees may.

    Returns
    -------
    Packing
        ``count`` trees, ``upper_bound == count`` with its certificate partition.

    Raises
    ------
    ValueError
        If ``graph`` has fewer than 2 vertices, a loop, or is directed or a networkx multigraph; if ``k`` exceeds
        the maximum (the message gives the certified bound).
    TypeError
        If ``graph`` is not a graph (None, a string, an edge list).

    Example
    -------
    >>> import networkx as nx
    >>> from starlib.graphs import ArrayGraph
    >>> g = nx.complete_graph(10)
    >>> g.add_edges_from([(10, 0), (10, 1), (10, 2), (10, 3)])
    >>> generic_packing(ArrayGraph.from_networkx(g)).count, generic_packing(g).count
    (4, 4)

    References
    ----------
    J. Edmonds, "Minimum partition of a matroid into independent subsets", J. Res. NBS 69B (1965);
    J. Roskind and R. E. Tarjan, "A note on finding minimum-cost edge-disjoint spanning trees",
    Math. Oper. Res. 10 (1985); C. St. J. A. Nash-Williams (1961), W. T. Tutte (1961).
    """
    n, e = _graph(graph)
    m = e.shape[0]
    deg = np.bincount(e.ravel(), minlength=n)
    by_edges = m // (n - 1)
    vmin = int(np.argmin(deg))
    if k is not None:
        if not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"k={k} must be a non-negative integer")
        target, kind = int(k), "requested"
        cert = np.arange(n)
    elif by_edges <= int(deg[vmin]):
        target, kind, cert = by_edges, "edges", np.arange(n)
    else:
        target, kind = int(deg[vmin]), "degree"
        cert = (np.arange(n) != vmin).astype(np.int64)
    fu: ForestUnion | None = None
    st: np.ndarray | None = None
    if start is not None:
        st = np.asarray(start, dtype=np.int64).reshape(-1)
        if st.shape[0] != m:
            raise ValueError(f"start: {st.shape[0]} forest indices given for m={m} edges; need one per edge")
    while True:
        if target == 0:
            origin = None if st is None else np.zeros(0, dtype=np.int64)
            owner = None if st is None else np.full(m, -1, dtype=np.int64)
            return Packing(EDSTSet(), 0, by_edges if kind == "requested" else 0, kind, cert, e.copy(), origin, owner)
        if fu is None:
            if st is None:
                fu = ForestUnion(n, e, target, engine=engine)
            else:
                s = int(st.max()) + 1 if st.size else 0
                fu = ForestUnion(n, e, max(target, s), start=st, engine=engine)
                if fu.k > target:
                    fu.keep(target)
        else:
            fu.keep(target)  # a union of the kept forests is a start for the smaller k
        if fu.grow(progress):
            trees = EDSTSet(Tree(f, 0, "generic", n=n) for f in fu.forests())
            origin = owner = None
            if st is not None:
                s = int(st.max()) + 1 if st.size else 0
                origin, owner = np.where(fu.origin < s, fu.origin, -1), fu.owner.copy()
            return Packing(trees, target, by_edges if kind == "requested" else target, kind, cert, e[fu.unused()],
                           origin, owner)
        parts = fu.closure_partition()
        bound = partition_bound(e, parts)
        if bound >= target:  # pragma: no cover - the closure argument forbids it
            raise RuntimeError(f"certificate bound {bound} does not cut below k={target}")
        if kind == "requested":
            raise ValueError(f"k={k} exceeds the maximum number of EDSTs: a vertex partition into "
                             f"{int(parts.max()) + 1} parts bounds it by {bound}")
        target, kind, cert = bound, "partition", parts
