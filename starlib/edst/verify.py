"""The EDST verifier: every tree spans, is acyclic, uses only graph edges, and no edge is in two trees.

Two stages. First a compiled certificate (:func:`starlib._kernels.edst_certificate`) answers yes or no in
one pass over the trees and one over the graph's canonical edge list: a union-find per tree (``n - 1``
edges and no cycle: spanning and acyclic), every tree edge dropped into the bucket of its smaller endpoint,
and a sweep over the graph's rows matching each bucket against its row (membership) and catching an edge
met twice (disjointness). A 1.5M-link Slim Fly with 75 trees is certified in about 25 ms.

Only when the answer is no (or the graph's edge list is not canonical) does the second stage run: every
rule for every tree, vectorised over all trees at once, to name each failure. Edges become integer keys
``u*n + v``, membership is a ``searchsorted`` against the graph's sorted keys, disjointness a sort of all
keys, and connectivity one ``connected_components`` call on the disjoint union of the trees (tree ``i`` on
vertices ``i*n .. i*n+n-1``). The two stages agree on validity (``tests/test_kernels.py`` checks it on
corrupted tree sets).

Malformed input is refused, not reported: a ``ValueError`` naming the argument (``trees[1]: vertex indices
must be integers, got dtype float64``) for a tree that is not an ``(k, 2)`` integer array of indices in
``0..n-1`` (floats are not truncated, an index out of range is not wrapped, a ragged list is not guessed at),
and a ``TypeError`` for a graph or tree list of the wrong kind (``None``, text). A well-formed family that
breaks a rule is a report with ``valid`` False. So is an empty family: zero trees prove nothing, and a report
on them says ``valid`` only if the caller asked for that (``allow_empty=True``).

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> k4 = ArrayGraph.from_edges(range(4), np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]))
>>> verify_edsts(k4, [np.array([[0, 1], [1, 2], [2, 3]]), np.array([[0, 2], [0, 3], [1, 3]])]).valid
True
>>> verify_edsts(k4, [np.array([[0, 1], [1, 2], [0, 2]])]).problems
['tree 0: not spanning (2 components)', 'tree 0: contains a cycle']
>>> verify_edsts(k4, [[[0.0, 1.0], [1.0, 2.0], [2.0, 3.0]]])
Traceback (most recent call last):
...
ValueError: trees[0]: vertex indices must be integers, got dtype float64
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import edst_certificate
from ..graphs import ArrayGraph, GraphLike, as_graph, edge_array

if TYPE_CHECKING:
    from numpy.typing import ArrayLike
from ..memory import Size, check_size
from ..validation import check_flag, check_int, shorten
from .trees import Tree

__all__ = ["VerifyReport", "verify_edsts", "check_edsts", "check_tree_sequence", "RULES"]

#: The rules a tree set must satisfy, in the order they are checked. ``"empty"`` is a rule of the family (at
#: least one tree unless ``allow_empty``), reported with the tree index -1. ``"range"`` (an index outside
#: ``0..n-1``) is refused as malformed input by :func:`verify_edsts` and reported by
#: :func:`~starlib.edst.factor.er.verify_singer_edsts`.
RULES = ("empty", "range", "size", "loop", "member", "repeat", "spanning", "acyclic", "disjoint")


@dataclass
class VerifyReport:
    """Outcome of :func:`verify_edsts`.

    Attributes
    ----------
    n, m : vertices and edges of the graph.
    num_trees : number of trees checked.
    failures : ``(tree index, rule, detail)`` for every failed rule (rule in :data:`RULES`; tree index -1 for
        a rule of the whole family, ``"empty"``).
    """

    n: int
    m: int
    num_trees: int
    failures: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True if every rule holds for every tree (and the family is not empty, unless that was allowed)."""
        return not self.failures

    @property
    def problems(self) -> list[str]:
        """One human-readable line per failure."""
        return [f"tree {i}: {detail}" if i >= 0 else f"trees: {detail}" for i, _, detail in self.failures]

    def failed(self, rule: str) -> list[int]:
        """Indices of the trees that fail ``rule``."""
        return sorted({i for i, r, _ in self.failures if r == rule})

    def __bool__(self) -> bool:
        return self.valid

    def summary(self) -> str:
        """``"valid: 28 trees on n=..., m=..."`` or the list of problems."""
        head = f"{self.num_trees} trees on n={self.n}, m={self.m}"
        if self.valid:
            return f"valid: {head}"
        return f"invalid: {head}\n" + "\n".join(self.problems)


def _graph_arrays(graph_or_edges: GraphLike | ArrayLike, n: int | None
                  ) -> tuple[int, np.ndarray, ArrayGraph | None]:
    """``(n, edges, graph)`` of the graph argument: a graph through :func:`~starlib.graphs.as_graph` (networkx too;
    its labels name the vertices in messages), or a bare edge array through :func:`~starlib.graphs.edge_array`
    (integers only, in ``0..n-1``; ``graph`` None, the indices name the vertices)."""
    name = "graph_or_edges"
    n_given = n is not None
    if n is not None:
        n = check_int(n, "n", minimum=1, rule="a number of vertices n >= 1")
    if graph_or_edges is None or isinstance(graph_or_edges, str | bytes | dict | set) or _is_graph(graph_or_edges):
        graph = as_graph(graph_or_edges, name)  # TypeError for None or text; ValueError for a multigraph, ...
        if n is not None and n != graph.n:
            raise ValueError(f"n={n} differs from the graph's n={graph.n}")
        n, edges = graph.n, np.asarray(graph.edges, dtype=np.int64)
    else:
        graph = None
        edges = edge_array(graph_or_edges, name)
        if n is None:
            n = int(edges.max()) + 1 if edges.size else 0
        edge_array(edges, name, max(n, 1))  # the range: no negative index, none >= n
    if n < 1:
        if not n_given:
            raise ValueError(f"{name}: the graph has no vertex; need at least one")
        raise ValueError(f"n={n}: the graph needs at least one vertex")
    # the checks hold a few arrays of n entries: refuse an n that cannot fit before allocating them
    check_size(Size.of(n, 0, 0, _VERTEX_BYTES), {"n": n} if n_given else {"n (largest index + 1)": n},
               "verify_edsts")
    return n, edges, graph


def _namer(graph: ArrayGraph | None) -> Callable[[int], str]:
    """How a message names vertex ``i``: its label (a network file's node id, ``'g0r0'``), else its index.

    >>> _namer(None)(3), _namer(ArrayGraph.from_edges(["a", "b"], np.array([[0, 1]])))(1)
    ('3', "'b'")
    """
    if graph is None:
        return str
    labels = graph.labels
    return lambda i: shorten(labels[i], 40)


#: Bytes per vertex the checks hold at least (a few int64 arrays of n entries), for the size check.
_VERTEX_BYTES = 24


def _is_graph(obj: Any) -> bool:
    """A starlib graph, or a networkx graph (recognised by its class, without importing networkx)."""
    return isinstance(obj, ArrayGraph) or any(c.__name__ == "Graph" and c.__module__.startswith("networkx.")
                                              for c in type(obj).__mro__)


def _check_range(n: int, edges: np.ndarray) -> None:
    if edges.size and (edges.min() < 0 or edges.max() >= n):
        raise ValueError(f"graph_or_edges: vertex indices must lie in 0..{n - 1}")


def check_tree_sequence(trees: Any, name: str = "trees",
                        need: str = "a list of Tree objects or of (n-1, 2) arrays of vertex indices") -> Any:
    """Return ``trees`` if it is a sequence of trees (an iterable, not a text, bytes, a dict or None).

    The one check :func:`verify_edsts`, :func:`starlib.edst.repair_edsts`, :func:`starlib.edsts` (``g_trees``,
    ``h_trees``) and :func:`starlib.export` make before they read the trees one by one.

    Parameters
    ----------
    trees : Any
        The argument.
    name : str
        Its name for the message.
    need : str
        What it should be, in words.

    Returns
    -------
    Any
        ``trees`` unchanged.

    Raises
    ------
    TypeError
        Naming ``name``, the value (shortened) and what is needed.

    Examples
    --------
    >>> check_tree_sequence([], "trees")
    []
    >>> check_tree_sequence(None, "trees")
    Traceback (most recent call last):
    ...
    TypeError: trees=None is not a sequence of trees: need a list of Tree objects or of (n-1, 2) arrays of vertex \
indices
    """
    if trees is None or isinstance(trees, str | bytes | dict) or not hasattr(trees, "__iter__"):
        raise TypeError(f"{name}={shorten(trees)} is not a sequence of trees: need {need}")
    return trees


def _tree_arrays(trees: Any, n: int) -> list[np.ndarray]:
    """Every tree as a ``(k, 2)`` int64 array of indices in ``0..n-1``; a malformed one is a ``ValueError`` naming
    ``trees[i]`` (floats are not truncated, an index out of range is not wrapped)."""
    check_tree_sequence(trees)
    out = []
    for i, tree in enumerate(trees):
        e = tree.rows if isinstance(tree, Tree) else tree.edges if isinstance(tree, ArrayGraph) else tree
        out.append(edge_array(e, f"trees[{i}]", n))  # a Tree's rows as built: no sorted copy needed
        if isinstance(tree, Tree) and not 0 <= tree.root < n:
            raise ValueError(f"trees[{i}].root={tree.root} is not a vertex: need an index in 0..{n - 1} "
                             f"(n={n} vertices)")
    return out


def verify_edsts(graph_or_edges: GraphLike | ArrayLike, trees: Sequence[Any], n: int | None = None, *,
                 allow_empty: bool = False) -> VerifyReport:
    """Check that ``trees`` are edge-disjoint spanning trees of a graph.

    Rules (see :data:`RULES`): each tree has exactly ``n-1`` edges, no self-loop, only edges of the graph, no
    edge twice; it spans (one component) and is acyclic; no edge lies in two trees; and there is at least one
    tree, unless ``allow_empty``.

    Parameters
    ----------
    graph_or_edges : ArrayGraph, StarProduct, networkx.Graph or array_like
        A graph (a networkx graph is numbered by :func:`~starlib.graphs.as_graph`: its nodes in sorted order, so
        the trees :func:`~starlib.edst.product.auto.auto_trees` returns for it are checked against it as they
        are), or an ``(m, 2)`` integer edge array (then ``n`` defaults to max + 1).
    trees : sequence of Tree or array_like
        Each tree as a :class:`~starlib.edst.trees.Tree` or an ``(k, 2)`` integer array of vertex indices in
        ``0..n-1``.
    n : int, optional
        Number of vertices, for a bare edge array (for a graph it must equal the graph's).
    allow_empty : bool
        Call an empty family valid. By default zero trees are a report with ``valid`` False and the failure
        ``(-1, "empty", ...)``: a check that proves nothing must not look like a proof.

    Returns
    -------
    VerifyReport
        ``.valid``, ``.failures`` as ``(tree, rule, detail)``, ``.problems`` as text.

    Raises
    ------
    ValueError
        Malformed input, naming it: the graph (no vertex, indices out of range, a multigraph, directed) or a
        tree (``trees[i]``: not an ``(k, 2)`` array, a ragged list, non-integer entries such as floats, an
        index outside ``0..n-1``; ``trees[i].root``: a root outside ``0..n-1``), or an ``n`` whose vertex arrays
        cannot fit in the memory limit (:func:`starlib.memory.check_size`).
    TypeError
        If the graph or the tree list is not one at all (``None``, a string).

    Examples
    --------
    >>> import numpy as np
    >>> r = verify_edsts(np.array([[0, 1], [1, 2], [0, 2]]), [[[0, 1], [1, 2]], [[0, 2], [1, 2]]])
    >>> r.failures
    [(1, 'disjoint', 'shares 1 edge(s) with tree 0, e.g. (1, 2)')]
    >>> verify_edsts(np.array([[0, 1], [1, 2]]), [[[0, 1], [1, 3]]])
    Traceback (most recent call last):
    ...
    ValueError: trees[0]: vertex index 3 is out of range: need indices in 0..2 (n=3 vertices)
    >>> from starlib.edst.trees import Tree
    >>> verify_edsts(np.array([[0, 1]]), [Tree(np.array([[0, 1]]), root=7)])
    Traceback (most recent call last):
    ...
    ValueError: trees[0].root=7 is not a vertex: need an index in 0..1 (n=2 vertices)
    >>> verify_edsts(np.array([[0, 1]]), [], n=10**12)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: n=1000000000000 is too large: verify_edsts(n=1000000000000) would have ... over the memory limit of ...
    >>> verify_edsts(np.array([[0, 1]]), []).problems, verify_edsts(np.array([[0, 1]]), [], allow_empty=True).valid
    (['trees: no trees: an empty family proves nothing (pass allow_empty=True to accept it)'], True)

    A networkx graph and the trees built on it:

    >>> import networkx as nx
    >>> from starlib.edst import auto_trees
    >>> G = nx.complete_graph(["a", "b", "c", "d"])
    >>> verify_edsts(G, auto_trees(G)).summary()
    'valid: 2 trees on n=4, m=6'

    A message names the vertices by the graph's labels (a network file's node ids), a bare edge array's by index:

    >>> verify_edsts(G, [[(0, 1), (1, 2), (2, 3)], [(0, 2), (2, 3), (1, 3)]]).problems
    ["tree 1: shares 1 edge(s) with tree 0, e.g. ('c', 'd')"]

    References
    ----------
    Definition of an EDST set, Section I-A / eq. (1) of Isham et al. (2025).
    """
    n, gedges, graph = _graph_arrays(graph_or_edges, n)
    arrays = _tree_arrays(trees, n)
    report = VerifyReport(n=n, m=int(gedges.shape[0]), num_trees=len(arrays))
    if not arrays:
        _check_range(n, gedges)
        if not check_flag(allow_empty, "allow_empty"):
            report.failures.append((-1, "empty", "no trees: an empty family proves nothing (pass allow_empty=True "
                                                 "to accept it)"))
        return report
    if edst_certificate(n, gedges, arrays):  # yes: the graph's list is canonical, so in range
        return report
    _check_range(n, gedges)
    _diagnose(n, gedges, arrays, report.failures, _namer(graph))
    return report


def _diagnose(n: int, gedges: np.ndarray, arrays: list[np.ndarray], fail: list[tuple[int, str, str]],
              name: Callable[[int], str] = str) -> None:
    """Every failed rule of every tree (run when the certificate says no, or the graph is not canonical); ``name``
    names a vertex by its index (:func:`_namer`)."""
    nn = np.int64(n)

    def edge(a: int, b: int) -> str:
        return f"({name(a)}, {name(b)})"

    gkey = np.sort(np.minimum(gedges[:, 0], gedges[:, 1]) * nn + np.maximum(gedges[:, 0], gedges[:, 1]))

    sizes = np.array([a.shape[0] for a in arrays], dtype=np.int64)
    tid = np.repeat(np.arange(len(arrays), dtype=np.int64), sizes)
    allv = np.concatenate(arrays) if sizes.sum() else np.zeros((0, 2), dtype=np.int64)

    # every index is in 0..n-1: _tree_arrays refused the rest on the way in
    # size
    for i in np.flatnonzero(sizes != n - 1).tolist():
        fail.append((i, "size", f"has {int(sizes[i])} edges, a spanning tree of n={n} vertices has {n - 1}"))
    u = np.minimum(allv[:, 0], allv[:, 1])
    v = np.maximum(allv[:, 0], allv[:, 1])
    # loop
    loop = u == v
    for i in np.unique(tid[loop]).tolist():
        fail.append((i, "loop", f"has a self-loop at vertex {name(int(u[loop & (tid == i)][0]))}"))
    key = u * nn + v
    # member
    if gkey.size:
        pos = np.minimum(np.searchsorted(gkey, key), gkey.size - 1)
        member = gkey[pos] == key
    else:
        member = np.zeros(key.shape[0], dtype=bool)
    notmem = ~loop & ~member
    for i in np.unique(tid[notmem]).tolist():
        sel = notmem & (tid == i)
        ex = edge(int(u[sel][0]), int(v[sel][0]))
        fail.append((i, "member", f"{int(sel.sum())} edge(s) not in the graph, e.g. {ex}"))

    # repeat (the same edge twice in one tree) and disjoint (one edge in two trees)
    ok = ~loop
    tk = np.stack([key[ok], tid[ok]], axis=1)
    order = np.lexsort((tk[:, 1], tk[:, 0]))
    sk, st = tk[order, 0], tk[order, 1]
    same = (sk[1:] == sk[:-1])
    rep = same & (st[1:] == st[:-1])
    for i in np.unique(st[1:][rep]).tolist():
        k = int(sk[1:][rep & (st[1:] == i)][0])
        fail.append((i, "repeat", f"lists the edge {edge(k // n, k % n)} more than once"))
    cross = same & (st[1:] != st[:-1])
    if cross.any():
        a, b, k = st[:-1][cross], st[1:][cross], sk[1:][cross]
        for bi, ai in np.unique(np.stack([b, a], axis=1), axis=0).tolist():
            sel = (a == ai) & (b == bi)
            kk = int(k[sel][0])
            fail.append((bi, "disjoint", f"shares {int(sel.sum())} edge(s) with tree {ai}, "
                                         f"e.g. {edge(kk // n, kk % n)}"))

    # spanning and acyclic: one connected_components call over the disjoint union of the trees
    import scipy.sparse as sp  # here: only a family the certificate refused is diagnosed
    import scipy.sparse.csgraph as csgraph

    keep = ok.copy()
    # drop in-tree repeats so they do not count as cycles twice
    dup_rows = np.zeros(ok.sum(), dtype=bool)
    dup_rows[order[1:][rep]] = True
    idx_ok = np.flatnonzero(ok)
    keep[idx_ok[dup_rows]] = False
    t = len(arrays)
    off = tid[keep] * nn
    ru, rv = u[keep] + off, v[keep] + off
    a = sp.csr_matrix((np.ones(ru.shape[0], dtype=np.int8), (ru, rv)), shape=(t * n, t * n))
    _, lab = csgraph.connected_components(a, directed=False)
    lab = lab.reshape(t, n)
    comps = lab.max(axis=1) - lab.min(axis=1) + 1  # labels are consecutive within each block
    distinct = np.bincount(tid[keep], minlength=t)
    for i in range(t):
        c = int(comps[i])
        if c != 1:
            fail.append((i, "spanning", f"not spanning ({c} components)"))
        if int(distinct[i]) > n - c:
            fail.append((i, "acyclic", "contains a cycle"))
    fail.sort(key=lambda f: (RULES.index(f[1]), f[0]))


def check_edsts(graph_or_edges: GraphLike | ArrayLike, trees: Sequence[Any], n: int | None = None, *,
                allow_empty: bool = False) -> VerifyReport:
    """Like :func:`verify_edsts` but raise if any rule fails (an empty family too, unless ``allow_empty``).

    Raises
    ------
    ValueError
        ``trees: not an EDST set`` followed by the first three problems found and how many more there are (one
        line; :func:`verify_edsts` lists them all); malformed input as in :func:`verify_edsts`.
    TypeError
        As in :func:`verify_edsts`.

    Examples
    --------
    >>> import numpy as np
    >>> check_edsts(np.array([[0, 1], [1, 2]]), [np.array([[0, 1], [1, 2]])]).num_trees
    1
    >>> check_edsts(np.array([[0, 1], [1, 2], [0, 2]]), [[[0, 1], [1, 2]]] * 6)
    Traceback (most recent call last):
    ...
    ValueError: trees: not an EDST set (tree 1: shares 2 edge(s) with tree 0, e.g. (0, 1); tree 2: shares 2 \
edge(s) with tree 1, e.g. (0, 1); tree 3: shares 2 edge(s) with tree 2, e.g. (0, 1); and 2 more problems)
    """
    report = verify_edsts(graph_or_edges, trees, n, allow_empty=allow_empty)
    if not report.valid:
        shown, more = report.problems[:3], len(report.problems) - 3
        raise ValueError("trees: not an EDST set (" + "; ".join(shown) + (f"; and {more} more problem"
                         f"{'s' if more > 1 else ''}" if more > 0 else "") + ")")
    return report
