"""starlib's one internal graph representation: integer-indexed edge arrays with a label table.

Large instances (a million links) stay fast because every builder works on whole numpy
arrays; networkx appears only at the edges of the library (:meth:`ArrayGraph.to_networkx`, and
:func:`as_graph`, which every public function that takes a graph calls first, so a networkx graph is accepted
wherever a graph is).

Check at the door: a public function takes a :data:`GraphLike` (an :class:`ArrayGraph`, which includes
``StarProduct`` and ``RelabelledProduct``, or a networkx graph), converts and checks it once with
:func:`as_graph`, and passes the resulting :class:`ArrayGraph` inward; the functions inside are typed
``ArrayGraph`` (or ``StarProduct``) and do not check it again.

Example
-------
>>> import numpy as np
>>> g = ArrayGraph.from_edges(["a", "b", "c"], np.array([[2, 0], [0, 1], [1, 2]]))
>>> g.n, g.m, g.edges.tolist()
(3, 3, [[0, 1], [0, 2], [1, 2]])
>>> sorted(g.to_networkx().edges())
[('a', 'b'), ('a', 'c'), ('b', 'c')]
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

if TYPE_CHECKING:  # networkx and scipy are imported where used: ``starlib verify`` needs neither at start-up
    import networkx as nx
    import scipy.sparse as sp

__all__ = ["ArrayGraph", "GraphLike", "canonical_edges", "jsonable", "as_graph", "edge_array", "integer_labels_json"]

#: What a public function accepts as a graph: an :class:`ArrayGraph` (a ``StarProduct`` or ``RelabelledProduct``
#: is one) or a networkx graph, which :func:`as_graph` converts at the door. A string, so that networkx is not
#: imported at run time; functions past the door take an ``ArrayGraph``.
GraphLike: TypeAlias = "ArrayGraph | nx.Graph"


def canonical_edges(edges: np.ndarray, n: int | None = None, *, directed: bool = False,
                    allow_loops: bool = False) -> np.ndarray:
    """Return edges as a sorted, duplicate-free ``(m, 2)`` int64 array with ``u < v`` per row.

    Self-loops are dropped unless ``allow_loops``; parallel edges are merged. Deduplication is one
    ``np.sort`` of int64 keys ``u * n + v`` and a neighbour comparison: on numpy 2.3 ``np.unique``
    goes through a hash table and is ~50x slower on a few million keys.

    >>> canonical_edges(np.array([[2, 0], [0, 1], [1, 2], [0, 2], [1, 1]]), 3).tolist()
    [[0, 1], [0, 2], [1, 2]]
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if directed:
        u, v = e[:, 0], e[:, 1]
    else:
        u, v = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    if not allow_loops:
        keep = u != v
        u, v = u[keep], v[keep]
    if u.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if n is None:
        n = int(max(u.max(), v.max())) + 1
    keys = u * np.int64(n) + v
    keys.sort()
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    return np.stack([keys // n, keys % n], axis=1)


def jsonable(v: Any) -> Any:
    """A label (or any value) as JSON-ready data: tuples and arrays become lists, numpy scalars Python numbers.

    >>> jsonable((np.int64(1), (2, np.bool_(True)), np.arange(2)))
    [1, [2, True], [0, 1]]
    """
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    if isinstance(v, np.ndarray):
        return jsonable(v.tolist())
    if isinstance(v, np.generic):
        return v.item()
    return v


def integer_labels_json(labels: Sequence[Any]) -> tuple[bytes, np.ndarray] | None:
    """The labels as one compact JSON array, and the bracket depth after each of its bytes, when every label is an
    integer or integers nested in lists or tuples; None otherwise.

    One ``orjson`` dump for the whole list (its text holds only ``[ ] , - 0-9``): the fast path of the JSON reader
    and of repair's label lookup (0.06 s for the 48,778 labels of Bundlefly MMS(29) * QR(29), where converting them
    one by one takes 0.6 s). A string, a
    float, a boolean, a subclass of ``int`` or an integer beyond 64 bits gives None (the caller's label-by-label
    path decides).

    >>> text, depth = integer_labels_json([(0, 1), 2])
    >>> text, depth.tolist()
    (b'[[0,1],2]', [1, 2, 2, 2, 2, 1, 1, 1, 0])
    >>> integer_labels_json(["a", 1]) is None, integer_labels_json([True]) is None
    (True, True)
    """
    import orjson

    try:
        text = orjson.dumps(labels if isinstance(labels, list) else list(labels),
                            option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:  # nested deeper than orjson writes, an integer beyond 64 bits, a subclass
        return None
    if text.translate(None, b"[],-0123456789"):  # a string, a boolean or a float somewhere
        return None
    b = np.frombuffer(text, dtype=np.uint8)
    return text, np.cumsum((b == ord("[")).astype(np.int64) - (b == ord("]")))


def edge_array(edges: Any, name: str = "edges", n: int | None = None) -> np.ndarray:
    """``edges`` as an ``(m, 2)`` int64 array of vertex indices, checked: integers only, in ``0..n-1`` if ``n``.

    Floats are refused rather than truncated (``[[0.5, 1.7]]`` is not the edge ``(0, 1)``), and an index
    outside ``0..n-1`` is refused rather than wrapped onto another vertex.

    Parameters
    ----------
    edges : array_like
        Pairs of vertex indices (an empty sequence is no edge).
    name : str
        The argument's name for the message (``"edges"``, ``"trees[2]"``).
    n : int, optional
        Number of vertices: indices must lie in ``0..n-1``.

    Returns
    -------
    ndarray
        ``(m, 2)`` int64 (a view when ``edges`` already is one).

    Raises
    ------
    ValueError
        For a ragged or non-numeric list, a shape other than ``(m, 2)``, non-integer entries (floats, bools,
        objects) or an index out of range.

    Examples
    --------
    >>> edge_array([[0, 1], [1, 2]], n=3).tolist()
    [[0, 1], [1, 2]]
    >>> edge_array([[0, 5]], n=3)
    Traceback (most recent call last):
    ...
    ValueError: edges: vertex index 5 is out of range: need indices in 0..2 (n=3 vertices)
    """
    try:
        arr = np.asarray(edges)
    except (ValueError, TypeError):
        raise ValueError(f"{name}: not an array of [u, v] pairs (ragged or non-numeric)") from None
    if arr.size == 0:
        return np.zeros((0, 2), dtype=np.int64)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: need an (m, 2) array of [u, v] vertex pairs, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_:
        raise ValueError(f"{name}: vertex indices must be integers, got dtype {arr.dtype}")
    if arr.dtype.kind == "u" and int(arr.max()) > np.iinfo(np.int64).max:  # would wrap to a negative index
        hi = int(arr.max())
        raise ValueError(f"{name}: vertex index {hi} is out of range: need indices in "
                         f"{f'0..{n - 1} (n={n} vertices)' if n is not None else 'int64'}")
    arr = arr.astype(np.int64, copy=False)
    if n is not None:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi >= n:
            bad = lo if lo < 0 else hi
            raise ValueError(f"{name}: vertex index {bad} is out of range: need indices in 0..{n - 1} (n={n} "
                             f"vertices)")
    return arr


def as_graph(obj: GraphLike, name: str = "graph", *, directed: bool = False) -> ArrayGraph:
    """The graph an argument stands for: an :class:`ArrayGraph` (or ``StarProduct``, ...) as it is, a networkx
    graph converted by :meth:`ArrayGraph.from_networkx`.

    Every public function of starlib that takes a graph (a :data:`GraphLike`) calls this first, once, and passes
    the result inward. For a networkx graph the result
    numbers the nodes in sorted order (insertion order if the labels do not compare) and keeps them as
    ``labels``; trees built on it are index arrays of that
    numbering, so ``labels[i]`` is node ``i`` (``EDSTSet.to_json(G.labels)`` writes them with the labels).

    Parameters
    ----------
    obj : ArrayGraph, StarProduct, RelabelledProduct or networkx.Graph
        The graph.
    name : str
        The argument's name, for messages.
    directed : bool
        Accept directed graphs (``nx.DiGraph``, a directed ``ArrayGraph``); otherwise they are refused.

    Returns
    -------
    ArrayGraph

    Raises
    ------
    TypeError
        For anything that is not a graph (None, a string, an edge list), naming the argument.
    ValueError
        For a networkx multigraph with parallel edges (they would be merged), a self-loop (it would be dropped),
        a NaN node id, a directed graph unless ``directed``, or an ``ArrayGraph`` whose edge array is malformed
        or has an index outside ``0..len(labels)-1``.

    Examples
    --------
    >>> import networkx as nx
    >>> g = as_graph(nx.petersen_graph())
    >>> g.n, g.m, g.labels[:3]
    (10, 15, [0, 1, 2])
    >>> as_graph(nx.MultiGraph([(0, 1), (0, 1)]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: graph: a networkx MultiGraph has parallel edges (2 between 0 and 1); EDSTs here need a simple graph ...
    >>> as_graph(nx.Graph([("x", "x"), ("x", "y")]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: graph: a self-loop at node 'x'; a network has none (...)
    >>> as_graph(None)
    Traceback (most recent call last):
    ...
    TypeError: graph=None is not a graph: need a starlib ArrayGraph (StarProduct, ...) or a networkx Graph
    """
    if isinstance(obj, ArrayGraph):
        e = obj.edges
        if not isinstance(e, np.ndarray) or e.ndim != 2 or (e.size and e.shape[1] != 2) or \
                (e.size and not np.issubdtype(e.dtype, np.integer)):
            raise ValueError(f"{name}: its edges must be an (m, 2) integer array, got "
                             f"{getattr(e, 'dtype', type(e).__name__)} of shape {np.shape(e)}")
        if obj.directed and not directed:
            raise ValueError(f"{name}: a directed graph ({obj.name or 'ArrayGraph'}) has no EDSTs here; pass an "
                             f"undirected graph")
        if e.size and (int(e.min()) < 0 or int(e.max()) >= len(obj.labels)):
            bad = int(e.min()) if int(e.min()) < 0 else int(e.max())
            raise ValueError(f"{name}: vertex index {bad} is out of range: need indices in 0..{len(obj.labels) - 1} "
                             f"(n={len(obj.labels)} labels)")
        return obj
    nx = sys.modules.get("networkx")  # not imported: obj cannot be a networkx graph
    if nx is not None and isinstance(obj, nx.Graph):
        if obj.is_directed() and not directed:
            raise ValueError(f"{name}: a networkx {type(obj).__name__} is directed; EDSTs here need an undirected "
                             f"graph (g.to_undirected() gives one)")
        _check_networkx(obj, name, "EDSTs here need a simple graph")
        return ArrayGraph.from_networkx(obj)
    raise TypeError(f"{name}={_short(obj)} is not a graph: need a starlib ArrayGraph (StarProduct, ...) or a "
                    f"networkx Graph")


#: Bytes per label of a list built from a range (a pointer and an int object), for the size check of from_edges.
_LABEL_BYTES = 36


def _check_networkx(g: nx.Graph, name: str, need: str) -> None:
    """Refuse what a conversion would change silently: parallel edges, a self-loop, a NaN node id."""
    if g.is_multigraph():
        for u, nbrs in g.adj.items():
            for v, keys in nbrs.items():
                if len(keys) > 1:
                    raise ValueError(f"{name}: a networkx {type(g).__name__} has parallel edges ({len(keys)} "
                                     f"between {u!r} and {v!r}); {need} (nx.Graph(g) merges them)")
    import networkx as nx  # loaded already: g is a networkx graph

    loop = next(iter(nx.selfloop_edges(g)), None)
    if loop is not None:
        raise ValueError(f"{name}: a self-loop at node {loop[0]!r}; a network has none (g.remove_edges_from("
                         f"nx.selfloop_edges(g)) drops them)")
    for v in g.nodes:
        if isinstance(v, float | np.floating) and v != v:
            raise ValueError(f"{name}: node {v!r} is a NaN float; a node id must equal itself to name a vertex")


def _short(obj: Any) -> str:
    r = repr(obj) if not isinstance(obj, np.ndarray) else f"array of shape {obj.shape}"
    return r if len(r) <= 40 else f"{r[:30]}... ({type(obj).__name__})"


@dataclass
class ArrayGraph:
    """A simple graph on vertices ``0..n-1`` with a label per vertex.

    Attributes
    ----------
    labels : list of hashable node labels (``labels[i]`` names vertex ``i``).
    edges : ``(m, 2)`` int64 array, rows sorted, ``u < v`` in each row (for ``directed`` graphs: arcs).
    name : family name as used on the command line (``"slimfly"``).
    params : the parameters it was built with (``{"q": 7}``).
    directed : True for a digraph (some Cayley graphs).
    meta : extra structure (an involution, a primitive element, loops of ER_q, ...).
    """

    labels: list
    edges: np.ndarray
    name: str = ""
    params: dict = field(default_factory=dict)
    directed: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_edges(cls, labels: Sequence[Hashable], edges: np.ndarray, **kw: Any) -> ArrayGraph:
        """Build from labels and an integer edge array of indices into ``labels`` (sorted, deduplicated).

        Self-loops are dropped and parallel edges merged (:func:`canonical_edges`).

        Raises
        ------
        ValueError
            If ``labels`` is not iterable, or ``edges`` is not an ``(m, 2)`` integer array with indices in
            ``0..len(labels)-1`` (:func:`edge_array`): ``from_edges(range(3), [[0, 5]])`` is refused, not
            wrapped onto another edge.

        >>> ArrayGraph.from_edges(range(3), [[0, 5]])
        Traceback (most recent call last):
        ...
        ValueError: edges: vertex index 5 is out of range: need indices in 0..2 (n=3 vertices)
        >>> ArrayGraph.from_edges(range(10**12), [[0, 1]])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: len(labels)=1000000000000 is too large: ArrayGraph.from_edges(len(labels)=1000000000000) would \
have 1,000,000,000,000 vertices and 0 edges and need about ... over the memory limit of ...
        """
        if not isinstance(labels, list):
            try:
                count = len(labels)
            except (TypeError, OverflowError) as exc:
                count = None if isinstance(exc, TypeError) else 2**63
            if count is not None:  # a list of count labels: refuse one that cannot fit before it is made
                from .memory import Size, check_size

                check_size(Size.of(count, 0, 0, _LABEL_BYTES), {"len(labels)": count}, "ArrayGraph.from_edges")
            try:
                labels = list(labels)
            except TypeError:
                raise ValueError(f"labels={_short(labels)} must be a sequence of vertex labels (a list or "
                                 f"range)") from None
        directed = kw.get("directed", False)
        return cls(labels, canonical_edges(edge_array(edges, "edges", len(labels)), len(labels),
                                           directed=directed), **kw)

    @classmethod
    def from_networkx(cls, g: nx.Graph, name: str = "", params: dict | None = None) -> ArrayGraph:
        """Convert a networkx graph (nodes sorted when comparable, else in insertion order).

        Raises
        ------
        TypeError
            If ``g`` is not a networkx graph.
        ValueError
            For parallel edges of a multigraph (they would be merged silently), a self-loop (it would be dropped)
            or a NaN node id (it equals no node, itself included).

        Examples
        --------
        >>> import networkx as nx
        >>> ArrayGraph.from_networkx(nx.path_graph(["a", "b", "c"])).edges.tolist()
        [[0, 1], [1, 2]]
        >>> ArrayGraph.from_networkx(nx.Graph([(1, 1), (1, 2)]))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: g: a self-loop at node 1; a network has none (...)
        """
        import networkx as nx

        if not isinstance(g, nx.Graph):
            raise TypeError(f"g={_short(g)} is not a networkx graph")
        _check_networkx(g, "g", "a simple graph is needed")
        nodes = list(g.nodes())
        try:
            nodes = sorted(nodes)
        except TypeError:
            pass
        idx = {v: i for i, v in enumerate(nodes)}
        e = np.array([[idx[u], idx[v]] for u, v in g.edges()], dtype=np.int64).reshape(-1, 2)
        return cls.from_edges(nodes, e, name=name, params=dict(params or {}), directed=g.is_directed())

    # -- basic invariants ---------------------------------------------------------------------
    @property
    def n(self) -> int:
        """Number of vertices."""
        return len(self.labels)

    @property
    def m(self) -> int:
        """Number of edges (arcs for a digraph)."""
        return int(self.edges.shape[0])

    def degrees(self) -> np.ndarray:
        """Degree of every vertex (out-degree for a digraph)."""
        if self.directed:
            return np.bincount(self.edges[:, 0], minlength=self.n)
        return np.bincount(self.edges.ravel(), minlength=self.n)

    def degree_set(self) -> list[int]:
        """Sorted list of distinct degrees."""
        return sorted(set(self.degrees().tolist()))

    def index(self) -> dict:
        """Map label -> vertex index."""
        return {v: i for i, v in enumerate(self.labels)}

    def adjacency(self) -> sp.csr_matrix:
        """Sparse adjacency matrix (symmetric unless directed)."""
        e = self.edges
        if self.directed:
            rows, cols = e[:, 0], e[:, 1]
        else:
            rows, cols = np.concatenate([e[:, 0], e[:, 1]]), np.concatenate([e[:, 1], e[:, 0]])
        import scipy.sparse as sp

        data = np.ones(rows.shape[0], dtype=np.int8)
        return sp.csr_matrix((data, (rows, cols)), shape=(self.n, self.n))

    def is_connected(self) -> bool:
        """True if the graph is (weakly) connected and non-empty."""
        if self.n == 0:
            return False
        from scipy.sparse import csgraph

        k, _ = csgraph.connected_components(self.adjacency(), directed=self.directed, connection="weak")
        return k == 1

    def eccentricities(self, sources: np.ndarray | None = None) -> np.ndarray:
        """BFS eccentricity of each source (all vertices by default); inf-free only if connected."""
        src = np.arange(self.n) if sources is None else np.asarray(sources)
        if not self.directed:  # compiled BFS over adjacency arrays: no n x n distance block
            from ._kernels import csr, eccentricities

            indptr, indices = csr(self.n, self.edges)
            out = eccentricities(indptr, indices, src)
            if (out < 0).any():
                raise ValueError(f"graph {self.name or ''} is not connected: eccentricity is infinite")
            return out
        from scipy.sparse import csgraph

        a = self.adjacency()
        out = np.empty(len(src), dtype=np.int64)
        chunk = max(1, 2_000_000 // max(self.n, 1))
        for s in range(0, len(src), chunk):
            d = csgraph.shortest_path(a, directed=self.directed, unweighted=True, indices=src[s:s + chunk])
            if np.isinf(d).any():
                raise ValueError(f"graph {self.name or ''} is not connected: eccentricity is infinite")
            out[s:s + chunk] = d.max(axis=1).astype(np.int64)
        return out

    def diameter(self) -> int:
        """Diameter by BFS from every vertex (use on graphs up to ~10^4 vertices)."""
        return int(self.eccentricities().max())

    # -- conversion ---------------------------------------------------------------------------
    def to_networkx(self) -> nx.Graph:
        """The same graph as ``nx.Graph`` (``nx.DiGraph`` if directed) with the meaningful labels."""
        import networkx as nx

        g = nx.DiGraph() if self.directed else nx.Graph()
        g.graph.update({"name": self.name, **self.params})
        g.add_nodes_from(self.labels)
        lab = self.labels
        g.add_edges_from((lab[u], lab[v]) for u, v in self.edges.tolist())
        return g

    def edge_labels(self) -> list[tuple]:
        """Edges as pairs of labels, in the canonical order."""
        lab = self.labels
        return [(lab[u], lab[v]) for u, v in self.edges.tolist()]

    def relabel(self, labels: Sequence[Hashable]) -> ArrayGraph:
        """Same graph, new labels."""
        try:
            count = len(labels)
        except TypeError:
            raise ValueError(f"labels={_short(labels)} must be a sequence of {self.n} vertex labels") from None
        if count != self.n:
            raise ValueError(f"labels: need {self.n} labels, got {count}")
        return ArrayGraph(list(labels), self.edges, self.name, dict(self.params), self.directed, dict(self.meta))
