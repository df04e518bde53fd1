"""Star products G * H (Bermond–Delorme–Farhi) and Cartesian products, with explicit bijections.

A star product has the structure graph G (first factor) and the supernode H (second factor).
Every edge ``{g, g'}`` of G, oriented as in ``G.edges`` (``g < g'``), carries a bijection
``f_(g,g')`` of V_H; ``(g, h) ~ (g', f_(g,g')(h))`` for every ``h``, and every supernode ``g``
is a copy of H. :class:`StarProduct` keeps the factors and the bijections:

* ``P.structure`` (G), ``P.supernode`` (H), ``P.bijections``: int64 array of shape
  ``(G.m, H.n)``, row ``k`` = the bijection on the arc ``G.edges[k, 0] -> G.edges[k, 1]``
  (when every arc carries the same f it is a read-only broadcast view of one row);
* vertex ``(g, h)`` has index ``g * H.n + h`` and label ``(G.labels[g], H.labels[h])``;
* :func:`transfer_map` gives ``phi_{g -> g'}`` in either direction
  (``phi_{g' -> g} = phi_{g -> g'}^{-1}``), so constructions never look at the orientation.

Example
-------
>>> import networkx as nx
>>> from starlib.factors import complete, paley
>>> P = star_product(complete(2), paley(5), paley(5).meta["bijection"])   # f(x) = 2x
>>> P.n, P.m, nx.is_isomorphic(P.to_networkx(), nx.petersen_graph())
(10, 15, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .graphs import ArrayGraph, GraphLike, as_graph, canonical_edges
from .validation import check_permutation

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "StarProduct",
    "RelabelledProduct",
    "star_form",
    "star_product",
    "cartesian_product",
    "transfer_map",
    "has_property_r1",
    "has_property_rstar",
    "check_permutation",
]

BijectionSpec = np.ndarray | list | Callable[[Any, Any], Any]


@dataclass(repr=False, eq=False)
class StarProduct(ArrayGraph):
    """A star product ``G * H``: an :class:`ArrayGraph` that remembers its factors and bijections.

    Attributes
    ----------
    structure : ArrayGraph
        G, the structure graph (first factor).
    supernode : ArrayGraph
        H, the supernode (second factor).
    bijections : ndarray
        ``(G.m, H.n)`` int64; row ``k`` maps ``h`` in supernode ``G.edges[k, 0]`` to
        ``bijections[k, h]`` in supernode ``G.edges[k, 1]``.
    """

    structure: ArrayGraph | None = None
    supernode: ArrayGraph | None = None
    bijections: np.ndarray | None = None
    _keys: np.ndarray | None = field(default=None, init=False)
    _inverse: np.ndarray | None = field(default=None, init=False)

    def __repr__(self) -> str:
        return (f"StarProduct(name={self.name!r}, params={self.params!r}, n={self.n}, m={self.m}, "
                f"structure={self.structure.name or 'G'}(n={self.structure.n}, m={self.structure.m}), "
                f"supernode={self.supernode.name or 'H'}(n={self.supernode.n}, m={self.supernode.m}))")

    # -- indexing ---------------------------------------------------------------------------
    def vertex(self, g: ArrayLike, h: ArrayLike) -> Any:
        """Index of vertex ``(g, h)`` (``g * H.n + h``; works on arrays)."""
        if np.ndim(g) or np.ndim(h):
            return np.asarray(g, dtype=np.int64) * self.supernode.n + np.asarray(h, dtype=np.int64)
        return int(g) * self.supernode.n + int(h)

    def split(self, v: ArrayLike) -> tuple[Any, Any]:
        """``(g, h)`` of vertex index ``v`` (works on arrays)."""
        return np.divmod(v, self.supernode.n) if np.ndim(v) else divmod(int(v), self.supernode.n)

    def arc_index(self, g: ArrayLike, g2: ArrayLike) -> np.ndarray:
        """Row ``k`` of ``structure.edges`` holding ``{g, g2}`` (vectorised); ValueError if absent."""
        G = self.structure
        if self._keys is None:
            self._keys = G.edges[:, 0] * np.int64(G.n) + G.edges[:, 1]
        g = np.asarray(g, dtype=np.int64)
        g2 = np.asarray(g2, dtype=np.int64)
        key = np.minimum(g, g2) * np.int64(G.n) + np.maximum(g, g2)
        k = np.searchsorted(self._keys, key)
        k_ok = np.minimum(k, max(G.m - 1, 0))
        bad = (k >= G.m) | (self._keys[k_ok] != key) if G.m else np.ones(np.shape(key), bool)
        if np.any(bad):
            pos = np.flatnonzero(np.atleast_1d(bad))[0]
            a, b = np.atleast_1d(g)[pos], np.atleast_1d(g2)[pos]
            raise ValueError(f"g={int(a)}, g2={int(b)}: {{{int(a)}, {int(b)}}} is not an edge of the structure graph")
        return k

    def inverse_bijections(self) -> np.ndarray:
        """``(G.m, H.n)`` array of the inverse bijections (row k = ``f_k^{-1}``), cached."""
        if self._inverse is None:
            B = self.bijections
            nH = self.supernode.n
            if B.ndim == 2 and B.shape[0] > 0 and B.strides[0] == 0:
                row = np.empty(nH, dtype=np.int64)
                row[B[0]] = np.arange(nH)
                self._inverse = np.broadcast_to(row, B.shape)
            else:
                inv = np.empty_like(B)
                np.put_along_axis(inv, B, np.broadcast_to(np.arange(nH), B.shape), axis=1)
                self._inverse = inv
        return self._inverse

    def transfer_map(self, g: int, g2: int) -> np.ndarray:
        """``phi_{g -> g2}``: same as :func:`transfer_map` ``(self, g, g2)``."""
        return transfer_map(self, g, g2)

    def transfer(self, g: ArrayLike, g2: ArrayLike, h: ArrayLike) -> np.ndarray:
        """Vectorised ``phi_{g -> g2}(h)`` for arrays of structure edges and supernode vertices."""
        g = np.asarray(g, dtype=np.int64)
        g2 = np.asarray(g2, dtype=np.int64)
        h = np.asarray(h, dtype=np.int64)
        k = self.arc_index(g, g2)
        fwd = self.bijections[k, h]
        bwd = self.inverse_bijections()[k, h]
        return np.where(g < g2, fwd, bwd)

    def intra_mask(self) -> np.ndarray:
        """Boolean mask over ``edges``: True for edges inside a supernode (copies of H)."""
        nH = self.supernode.n
        return (self.edges[:, 0] // nH) == (self.edges[:, 1] // nH)


@dataclass(repr=False, eq=False)
class RelabelledProduct(ArrayGraph):
    """A graph that is a star product with its vertices numbered differently, and says so.

    A builder that knows its graph is a star product in another vertex order (Slim Fly in Hafner's form is
    ``K_{q,q} * C(X)``) returns one of these, so that the EDST constructions use the product structure
    without recognising the graph or comparing edge sets.

    Attributes
    ----------
    index : ndarray
        Product vertex ``v`` is vertex ``index[v]`` of this graph (a permutation of ``0..n-1``).
    make_product : callable
        Builds the :class:`StarProduct` (once, on first use of :attr:`product`).
    """

    index: np.ndarray | None = None
    make_product: Callable[[], StarProduct] | None = None
    _product: StarProduct | None = field(default=None, init=False)

    @property
    def product(self) -> StarProduct:
        """The star product this graph relabels (built on first use)."""
        if self._product is None:
            self._product = self.make_product()
        return self._product


def star_form(graph: GraphLike) -> tuple[StarProduct, np.ndarray | None] | None:
    """The star product a graph is, and the vertex map to the graph (None: the identity); None if not known.

    A question, not a check: any graph (or anything else) is asked, and only a :class:`StarProduct` or a
    :class:`RelabelledProduct` answers.

    Examples
    --------
    >>> from starlib.factors import complete
    >>> P = cartesian_product(complete(2), complete(3))
    >>> star_form(P)[0] is P, star_form(P)[1], star_form(complete(3))
    (True, None, None)
    """
    if isinstance(graph, StarProduct):
        return graph, None
    if isinstance(graph, RelabelledProduct):
        return graph.product, graph.index
    return None


def _bijection_array(G: ArrayGraph, H: ArrayGraph, bijections: BijectionSpec) -> np.ndarray:
    nH = H.n
    if callable(bijections):
        rows = []
        for k, (u, v) in enumerate(G.edges.tolist()):
            try:
                rows.append(check_permutation(bijections(G.labels[u], G.labels[v]), nH, name="f"))
            except ValueError as exc:
                raise ValueError(f"bijections: arc {G.labels[u]!r} -> {G.labels[v]!r} (row {k}): {exc}; "
                                 f"every arc needs a bijection of the supernode's {nH} vertices") from None
        return np.stack(rows) if rows else np.zeros((0, nH), dtype=np.int64)
    arr = np.asarray(bijections)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"bijections: entries must be integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64, copy=False)
    if arr.ndim == 1:
        f = check_permutation(arr, nH, name="bijections")
        f.setflags(write=False)
        return np.broadcast_to(f, (G.m, nH))
    if arr.ndim != 2 or arr.shape != (G.m, nH):
        raise ValueError(f"bijections: expected one permutation of length H.n={nH} or an array of shape "
                         f"(G.m, H.n)=({G.m}, {nH}), got shape {arr.shape}")
    if arr.shape[0] and arr.strides[0] == 0:
        check_permutation(arr[0], nH, name="bijections")
        return arr
    bad = np.any(np.sort(arr, axis=1) != np.arange(nH), axis=1)
    if np.any(bad):
        k = int(np.flatnonzero(bad)[0])
        u, v = G.edges[k].tolist()
        raise ValueError(f"bijections: row {k} (arc {G.labels[u]!r} -> {G.labels[v]!r}) = "
                         f"{arr[k].tolist()[:12]} is not a permutation of 0..{nH - 1}; "
                         "every arc needs a bijection of the supernode's vertices")
    return arr


def star_product(G: GraphLike, H: GraphLike, bijections: BijectionSpec, *, name: str = "star-product",
                 params: dict | None = None, meta: dict | None = None,
                 allow_disconnected_supernode: bool = False,
                 extra_edges: np.ndarray | None = None) -> StarProduct:
    """The star product ``G * H`` with the given arc bijections.

    Vertices ``(g, h)``, index ``g * H.n + h``. Edges: ``(g, h) ~ (g, h')`` for ``{h, h'}`` in
    E_H (a copy of H per supernode), and ``(g, h) ~ (g', f_(g,g')(h))`` for every edge
    ``{g, g'}`` of G with ``g < g'`` (the orientation of ``G.edges``).

    Parameters
    ----------
    G : ArrayGraph or networkx.Graph
        Structure graph (simple, undirected, connected). A networkx graph goes through
        :func:`~starlib.graphs.as_graph` (its nodes numbered in sorted order, which the bijections then index).
    H : ArrayGraph or networkx.Graph
        Supernode (simple, undirected; connected unless ``allow_disconnected_supernode``).
    bijections : array_like or callable
        One permutation of ``0..H.n-1`` used on every arc; or an ``(G.m, H.n)`` array whose row
        ``k`` is the bijection of arc ``G.edges[k,0] -> G.edges[k,1]``; or a callable
        ``(g_label, g2_label) -> permutation`` called once per arc.
    name : str
        Family name for the result.
    params : dict, optional
        Parameters for the result.
    meta : dict, optional
        Extra structure to record.
    allow_disconnected_supernode : bool
        Accept a disconnected H (the Chimera supernodes are disconnected).
    extra_edges : ndarray, optional
        Additional ``(k, 2)`` edges (vertex indices) merged into the edge set, for example the
        absolute-point loop edges of PolarStar; recorded in ``meta["extra_edges"]``. Counts and
        degrees then differ from the star-product formulas.

    Returns
    -------
    StarProduct
        ``n = G.n H.n``, ``m = G.m H.n + G.n H.m`` (without ``extra_edges``),
        ``deg(g, h) = deg_G(g) + deg_H(h)``.

    Raises
    ------
    ValueError
        If a factor is directed, a networkx multigraph or not connected ("structure graph ... is not
        connected"), or a bijection is not a permutation of V_H (naming the arc).
    TypeError
        If ``G`` or ``H`` is not a graph (None, a string, an edge list), naming it.

    Examples
    --------
    >>> from starlib.factors import complete
    >>> P = star_product(complete(3), complete(2), [1, 0])
    >>> P.n, P.m, P.degree_set()
    (6, 9, [3])

    References
    ----------
    Definition II-B.2 (after Bermond, Delorme, Farhi 1982) and Property II-B.3 (counts) of Isham et al. (2025);
    docs/star-products.md §1.3-§1.5.
    """
    return _star_product(as_graph(G, "G", directed=True), as_graph(H, "H", directed=True), bijections, name=name,
                         params=params, meta=meta, allow_disconnected_supernode=allow_disconnected_supernode,
                         extra_edges=extra_edges)


def _star_product(G: ArrayGraph, H: ArrayGraph, bijections: BijectionSpec, *, name: str, params: dict | None,
                  meta: dict | None, allow_disconnected_supernode: bool, extra_edges: np.ndarray | None) -> StarProduct:
    """:func:`star_product` past its door: the factors converted, checked here (undirected, non-empty, connected)."""
    for role, X in (("structure graph", G), ("supernode", H)):
        if X.directed:
            raise ValueError(f"{role} {X.name or ''} is directed: star products need undirected factors")
    if G.n == 0 or H.n == 0:
        raise ValueError("star product: both factors need at least one vertex")
    if G.n > 1 and not G.is_connected():
        raise ValueError(f"structure graph {G.name or 'G'} {G.params or ''} is not connected")
    if H.n > 1 and not allow_disconnected_supernode and not H.is_connected():
        raise ValueError(f"supernode {H.name or 'H'} {H.params or ''} is not connected "
                         "(pass allow_disconnected_supernode=True to accept it)")
    B = _bijection_array(G, H, bijections)
    nG, nH = G.n, H.n
    N = np.int64(nG * nH)
    intra = (np.arange(nG, dtype=np.int64)[:, None, None] * nH + H.edges[None, :, :]).reshape(-1, 2)
    src = (G.edges[:, 0, None] * nH + np.arange(nH, dtype=np.int64)[None, :]).ravel()
    dst = (G.edges[:, 1, None] * nH + B).ravel()
    keys = np.concatenate([intra[:, 0] * N + intra[:, 1], src * N + dst])
    keys.sort()
    edges = np.stack([keys // N, keys % N], axis=1)
    meta = dict(meta or {})
    if extra_edges is not None and len(extra_edges):
        extra = canonical_edges(np.asarray(extra_edges, dtype=np.int64), int(N))
        if extra.size and (extra.max() >= N or extra.min() < 0):
            raise ValueError(f"extra_edges: vertex indices must lie in 0..{int(N) - 1}")
        meta["extra_edges"] = extra
        edges = canonical_edges(np.concatenate([edges, extra]), int(N))
    labels = [(a, b) for a in G.labels for b in H.labels]
    return StarProduct(labels, edges, name=name, params=dict(params or {}), meta=meta,
                       structure=G, supernode=H, bijections=B)


def cartesian_product(G: GraphLike, H: GraphLike, *, name: str = "cartesian", params: dict | None = None,
                      allow_disconnected_supernode: bool = False) -> StarProduct:
    """The Cartesian product ``G □ H``: the star product with identity bijections.

    Parameters
    ----------
    G, H : ArrayGraph or networkx.Graph
        Connected factors (:func:`~starlib.graphs.as_graph`).
    name : str
        Family name for the result.
    params : dict, optional
        Parameters for the result.
    allow_disconnected_supernode : bool
        Accept a disconnected H.

    Returns
    -------
    StarProduct
        ``G □ H``: vertices ``(g, h)``, every bijection the identity.

    Raises
    ------
    ValueError
        If a factor is not connected (or directed, or a networkx multigraph).
    TypeError
        If ``G`` or ``H`` is not a graph, naming it.

    Examples
    --------
    >>> from starlib.factors import complete
    >>> cartesian_product(complete(2), complete(2)).m   # the 4-cycle
    4
    >>> import networkx as nx
    >>> cartesian_product(nx.path_graph(3), nx.complete_graph(2)).m   # the 2 x 3 grid
    7

    References
    ----------
    Definition II-B.1 of Isham et al. (2025); the Cartesian product is the star product with f = id on every arc
    (Section II-B).
    """
    H = as_graph(H, "H", directed=True)  # H first, for the identity's length: each factor is converted once
    return _star_product(as_graph(G, "G", directed=True), H, np.arange(H.n, dtype=np.int64), name=name, params=params,
                         meta=None, allow_disconnected_supernode=allow_disconnected_supernode, extra_edges=None)


def transfer_map(P: StarProduct, g: int, g2: int) -> np.ndarray:
    """The transfer map ``phi_{g -> g2}`` of a star product, for either orientation of ``{g, g2}``.

    ``phi_{g -> g2}(h) = f_(g,g2)(h)`` if ``g < g2`` (the arc's orientation) and
    ``f_(g2,g)^{-1}(h)`` otherwise, so ``{(g, h), (g2, phi(h))}`` is an edge for every ``h`` and
    ``phi_{g2 -> g} = phi_{g -> g2}^{-1}``.

    Parameters
    ----------
    P : StarProduct
    g, g2 : int
        Adjacent structure vertices (indices).

    Returns
    -------
    ndarray
        Permutation of ``0..H.n-1`` (a fresh array).

    Raises
    ------
    ValueError
        If ``{g, g2}`` is not an edge of the structure graph.

    Examples
    --------
    >>> from starlib.factors import complete, paley
    >>> P = star_product(complete(2), paley(5), [0, 2, 4, 1, 3])
    >>> transfer_map(P, 0, 1).tolist(), transfer_map(P, 1, 0).tolist()
    ([0, 2, 4, 1, 3], [0, 3, 1, 4, 2])

    References
    ----------
    docs/star-products.md §1.4 (orientation and transfer maps).
    """
    k = int(P.arc_index(int(g), int(g2)))
    if int(g) < int(g2):
        return np.array(P.bijections[k], dtype=np.int64)
    return np.array(P.inverse_bijections()[k], dtype=np.int64)


def _edge_keys(e: np.ndarray, n: int) -> np.ndarray:
    e = np.sort(np.asarray(e, dtype=np.int64).reshape(-1, 2), axis=1)
    e = e[e[:, 0] != e[:, 1]]
    return e[:, 0] * np.int64(n) + e[:, 1]


def _covers_complete(n: int, *edge_sets: np.ndarray) -> bool:
    """True if the union of the edge sets (loops ignored) is the edge set of K_n."""
    keys = np.unique(np.concatenate([_edge_keys(e, n) for e in edge_sets]))
    return keys.size == n * (n - 1) // 2


def has_property_r1(H: ArrayGraph, f: Any) -> bool:
    """Property R1 (PolarStar's Paley supernodes): ``E u f(E)`` is the edge set of K_n.

    Parameters
    ----------
    H : ArrayGraph
        The supernode.
    f : array_like of int
        A permutation of ``0..H.n-1``.

    Returns
    -------
    bool
        True if every pair of vertices is an edge of ``H`` or of its image under ``f``.

    Raises
    ------
    ValueError
        If ``f`` is not a permutation of the vertices.

    Examples
    --------
    >>> from starlib.factors import paley
    >>> H = paley(13)
    >>> has_property_r1(H, H.meta["bijection"]), has_property_r1(H, range(13))
    (True, False)

    References
    ----------
    Example II-D.4 of Isham et al. (2025); docs/supernodes.md §1 (the PolarStar authors' validator "R1/P1").
    """
    n = H.n
    f = check_permutation(np.asarray(f), n)
    return _covers_complete(n, H.edges, f[H.edges])


def has_property_rstar(H: ArrayGraph, f: Any) -> bool:
    """Property R* (IQ supernodes): f is an involution and ``E u f(E) u {x f(x)}`` is K_n.

    Parameters
    ----------
    H : ArrayGraph
        The supernode, for example an IQ graph.
    f : array_like of int
        The candidate involution, a permutation of ``0..H.n-1``.

    Returns
    -------
    bool
        True if ``f`` is an involution and every pair of vertices is an edge of ``H``, an image of one under
        ``f``, or a pair ``{x, f(x)}``.

    Raises
    ------
    ValueError
        If ``f`` is not a permutation of the vertices (being an involution is tested, not required).

    Examples
    --------
    >>> from starlib.factors import inductive_quad
    >>> H = inductive_quad(4)
    >>> has_property_rstar(H, H.meta["involution"])
    True

    References
    ----------
    Example II-D.3 of Isham et al. (2025) (Bermond et al.'s star product); docs/supernodes.md §1 (the PolarStar
    authors' validator "R*").
    """
    n = H.n
    f = check_permutation(np.asarray(f), n)
    if not np.array_equal(f[f], np.arange(n)):
        return False
    pairs = np.stack([np.arange(n), f], axis=1)
    return _covers_complete(n, H.edges, f[H.edges], pairs)
