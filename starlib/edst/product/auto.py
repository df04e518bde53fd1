"""Table I's choice of construction (:func:`auto_trees`), and the default factor trees every construction uses.

:func:`auto_trees` follows Table I of the paper:

==========================================  ========================  =====================
case                                        construction              trees
==========================================  ========================  =====================
``r_G >= t_G`` and ``r_H >= t_H``            Maximum (V-C.3 / V-C.10)  ``t_G + t_H``
``r_G >= t_G`` or ``r_H >= t_H``             Maximum (V-C.11)          ``t_G + t_H - 1``
Property V-D.1 found                        V-D.2                     ``t_G + t_H - 1``
otherwise                                   Universal (V-B.1)         ``t_G + t_H - 2``
==========================================  ========================  =====================

``t`` and ``r`` are those of the factor EDST sets used: :func:`default_factor_trees` unless given, maximum
ones, so ``t = floor(m/(n-1))`` whenever the factor reaches that bound. A factor that is itself a star product
(the structure graph MMS(q) of Bundlefly, which :func:`~starlib.networks.slimfly_hafner` builds as a relabelled
``K_{q,q} * C(X)``) gets its trees from :func:`auto_trees` in turn: that recursion is why the default factor
trees live on this floor and not on the factor floor below. For a graph that is not a star product, or whose
supernode is disconnected (Chimera), ``auto`` returns :func:`~starlib.edst.factor.choose.factor_edsts` (a
maximum packing).

Example
-------
>>> from starlib.networks import bundlefly
>>> s = auto_trees(bundlefly(3, 5))
>>> len(s), s.theorem
(3, 'V-C.10')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...bounds import table_i_count, upper_bound
from ...graphs import ArrayGraph, GraphLike, as_graph
from ...products import RelabelledProduct, StarProduct, star_form
from ..factor import factor_edsts, generic_trees, structured_edsts
from ..trees import EDSTSet, is_connected, relabel_trees
from .blocks import ProductFrame
from .context import ProductContext, require_star_product
from .factor_data import FactorData
from .maximum import maximum_construction
from .property_vd1 import find_property_vd1, property_construction
from .universal import universal_construction

__all__ = ["default_factor_trees", "product_context", "construct", "table_i_case", "auto_trees"]


def _connected_factors(P: StarProduct) -> bool:
    return all(is_connected(X.n, X.edges) for X in (P.structure, P.supernode))


def _check_factors(P: StarProduct, connected: bool = False) -> None:
    """The product door's check of the factors: ``n >= 2`` each, and connected (not tested again when the caller
    has found them ``connected``)."""
    for role, X in (("structure graph", P.structure), ("supernode", P.supernode)):
        if X.n < 2:
            raise ValueError(f"{role} {X.name or ''}: n={X.n}; the constructions need factors with n >= 2")
        if not connected and not is_connected(X.n, X.edges):
            raise ValueError(f"{role} {X.name or ''} is not connected: the constructions need connected factors "
                             f"(use method=generic)")


def default_factor_trees(graph: GraphLike) -> EDSTSet:
    """The maximum EDST set a construction uses for a factor when it is given none.

    In order: the first structured factor packing that reaches the factor's upper bound
    (:func:`~starlib.edst.factor.choose.structured_edsts`); for a factor that is a star product with connected
    factors, the paper's construction (:func:`auto_trees`) if it reaches the bound; else the exact packer.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The factor (:func:`~starlib.graphs.as_graph`: a networkx graph's trees are index arrays of its nodes
        in sorted order).

    Example
    -------
    >>> from starlib.networks import slimfly_hafner
    >>> s = default_factor_trees(slimfly_hafner(4))       # Hafner's MMS(4) is K_{4,4} * C(X)
    >>> len(s), s.theorem
    (3, 'V-C.3')
    """
    return _factor_trees(as_graph(graph, "graph"))


def _factor_trees(graph: ArrayGraph) -> EDSTSet:
    """:func:`default_factor_trees` past its door (a factor of a checked product, or a converted graph)."""
    trees = structured_edsts(graph)
    if trees is not None:
        return trees
    form = star_form(graph)  # a factor that is itself a star product (Hafner's MMS(q)) gets Table I's trees
    if form is not None and _connected_factors(form[0]):
        trees = _auto(*form, None, None)
        if len(trees) >= upper_bound(graph):
            return trees
    return generic_trees(graph)


def product_context(P: StarProduct, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None,
                    what: str = "product_context") -> ProductContext:
    """A star product with EDST sets of both factors (:func:`default_factor_trees` unless given).

    Parameters
    ----------
    P : StarProduct
    g_trees, h_trees : optional EDST sets of the structure graph and the supernode.
    what : str
        Who asks, for error messages (``"P: method=maximum needs a star product ..."``).

    Returns
    -------
    ProductContext

    Raises
    ------
    ValueError
        If ``P`` is not a star product, or a factor has fewer than 2 vertices or no spanning tree.
    TypeError
        If ``P`` is not a graph at all.
    """
    require_star_product(P, what, relabelled=False)
    _check_factors(P)
    return _context(P, g_trees, h_trees)


def _context(P: StarProduct, g_trees: list[Any] | None, h_trees: list[Any] | None) -> ProductContext:
    """:func:`product_context` past its door: ``P`` is a star product whose factors passed :func:`_check_factors`."""
    G, H = P.structure, P.supernode
    dg = FactorData.of(G, _factor_trees(G) if g_trees is None else g_trees, "g_trees")
    dh = FactorData.of(H, _factor_trees(H) if h_trees is None else h_trees, "h_trees")
    return ProductContext(P, ProductFrame(P), dg, dh)


def construct(P: StarProduct | RelabelledProduct, build: Callable[[ProductContext], EDSTSet],
              g_trees: list[Any] | None = None, h_trees: list[Any] | None = None, what: str = "construct") -> EDSTSet:
    """Run a construction on a star product: factor packings first, then ``build(context)``.

    A :class:`~starlib.products.RelabelledProduct` is built as its star product and its trees are mapped back
    to its own numbering (:func:`~starlib.edst.trees.relabel_trees`). The set's ``.factors`` are the factor
    packings the construction used (after the swaps of Lemma V-C.1).

    Raises
    ------
    ValueError
        If ``P`` is not a star product or a factor is unfit (see :func:`product_context`), or ``build`` raises.

    Example
    -------
    >>> from starlib.edst.product.universal import universal_construction
    >>> from starlib.networks import slimfly
    >>> s = construct(slimfly(5), universal_construction)
    >>> s.constructions(), s.factors[0].t
    (['V-B.2'], 2)
    """
    product, index = require_star_product(P, what)
    _check_factors(product)
    return _construct(product, index, build, g_trees, h_trees)


def _construct(product: StarProduct, index: np.ndarray | None, build: Callable[[ProductContext], EDSTSet],
               g_trees: list[Any] | None, h_trees: list[Any] | None) -> EDSTSet:
    """:func:`construct` past its door: the factors of ``product`` checked, ``index`` its map to the caller's
    numbering (None: the identity)."""
    ctx = _context(product, g_trees, h_trees)
    trees = build(ctx)
    trees.factors = (ctx.G, ctx.H)
    return trees if index is None else relabel_trees(trees, index)


def table_i_case(P: StarProduct, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None) -> dict[str, Any]:
    """Table I's row for a star product: ``t``, ``r`` of both factors, Property V-D.1, theorem and count.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> c = table_i_case(slimfly(7))
    >>> (c["t_G"], c["r_G"], c["t_H"], c["r_H"], c["theorem"], c["count"])
    (3, 10, 2, 2, 'V-C.10', 5)
    """
    ctx = product_context(P, g_trees, h_trees, "table_i_case")
    G, H = ctx.G, ctx.H
    prop = None
    if G.r < G.t and H.r < H.t:
        prop = find_property_vd1(P, H)
    theorem, count = table_i_count(G.t, G.r, H.t, H.r, prop is not None)
    return {"t_G": G.t, "r_G": G.r, "t_H": H.t, "r_H": H.r, "property_vd1": prop is not None, "theorem": theorem,
            "count": count, "witness": prop}


def auto_trees(P: GraphLike, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None) -> EDSTSet:
    """The construction Table I prescribes for this star product (the most trees the paper builds).

    Parameters
    ----------
    P : StarProduct, RelabelledProduct, ArrayGraph or networkx.Graph
        A star product with connected factors (a relabelled one gets its trees in its own numbering); any
        other graph gets :func:`~starlib.edst.factor.choose.factor_edsts` (a maximum packing). A networkx graph
        goes through :func:`~starlib.graphs.as_graph` first: its trees are index arrays of that numbering (the
        nodes in sorted order, insertion order if they do not compare; ``as_graph(P).labels[i]`` is node ``i``),
        and :func:`~starlib.edst.verify.verify_edsts` checks them against the networkx graph as they are.
    g_trees, h_trees : optional
        Maximum EDST sets of the factors.

    Returns
    -------
    EDSTSet
        ``.theorem`` names the result applied; the count equals Table I's formula; ``.factors`` holds the
        factor packings used. A disconnected graph has no spanning tree: an empty set.

    Raises
    ------
    TypeError
        If ``P`` is not a graph (None, a string, an edge list), naming ``P``.
    ValueError
        If the graph has fewer than 2 vertices, or is a networkx multigraph or a directed graph.

    Examples
    --------
    >>> from starlib.factors import complete
    >>> from starlib.products import cartesian_product
    >>> s = auto_trees(cartesian_product(complete(4), complete(4)))    # r = 0 < t: Property V-D.1
    >>> len(s), s.theorem
    (3, 'V-D.2')

    A networkx graph (the Petersen graph: 15 edges, 9 per spanning tree, so one tree):

    >>> import networkx as nx
    >>> s = auto_trees(nx.petersen_graph())
    >>> len(s), s[0].n, s[0].edges.shape
    (1, 10, (9, 2))
    >>> from starlib.graphs import as_graph
    >>> G = nx.complete_graph(["x", "y", "z", "w"])          # K_4: two Hamiltonian paths
    >>> labels = as_graph(G).labels                          # node i of the trees is labels[i]
    >>> labels, [[(labels[u], labels[v]) for u, v in t.edges.tolist()] for t in auto_trees(G)]
    (['w', 'x', 'y', 'z'], [[('w', 'x'), ('x', 'z'), ('y', 'z')], [('w', 'y'), ('w', 'z'), ('x', 'y')]])
    >>> auto_trees(None)
    Traceback (most recent call last):
    ...
    TypeError: P=None is not a graph: need a starlib ArrayGraph (StarProduct, ...) or a networkx Graph

    References
    ----------
    Table I and Theorem IV-.4 of Isham et al. (2025).
    """
    form = star_form(P)  # the door: a star product with connected factors, else any graph
    if form is None or not _connected_factors(form[0]):
        graph = as_graph(P, "P")
        if graph.n < 2:
            raise ValueError(f"P: n={graph.n} vertices; a spanning tree packing needs n >= 2")
        return factor_edsts(graph)
    return _auto(*form, g_trees, h_trees)


def _auto(product: StarProduct, index: np.ndarray | None, g_trees: list[Any] | None,
          h_trees: list[Any] | None) -> EDSTSet:
    """:func:`auto_trees` past its door: a star product whose factors are connected."""
    _check_factors(product, connected=True)
    return _construct(product, index, _table_i_construction, g_trees, h_trees)


def _table_i_construction(ctx: ProductContext) -> EDSTSet:
    G, H = ctx.G, ctx.H
    if G.r >= G.t or H.r >= H.t:
        return maximum_construction(ctx)
    witness = find_property_vd1(ctx.P, H)
    return universal_construction(ctx) if witness is None else property_construction(ctx, witness)
