"""Maximum EDST sets of the factor graphs: a structured packing where one reaches the bound, else the exact packer.

=============  =======================================================  =========================
graph          packing                                                  trees
=============  =======================================================  =========================
``K_n``        Walecki's zig-zag Hamiltonian paths                      ``floor(n/2)``
``K_{q,q}``    Hamiltonian cycles ``M_{2i} u M_{2i+1}`` minus an edge   ``floor(q/2)``
circulant      ``x -> x + s`` Hamiltonian cycles (``gcd(s, n) = 1``)    one per class ``{s, -s}``
               minus an edge: Paley ``QR(p)`` and ``C(X)`` for prime p
abelian        ``Cay(GF(q)+, S)``, ``q = p^k``, odd p, ``k >= 2``:        one per class ``{s, -s}``
               ``<s>``-coset paths joined by other classes' dropped
               edges (:mod:`starlib.edst.factor.abelian`): ``QR(q)``, ``C(X)``
``ER_q``       :func:`starlib.edst.factor.er.er_edsts` (low-depth       ``ceil(q/2)``
               lifted clusters, else Hamiltonian paths)
anything else  :func:`~starlib.edst.packing.generic_packing`            the maximum
=============  =======================================================  =========================

A structured packing is used by ``method="auto"`` only when its count equals the graph's upper bound
``min(floor(m/(n-1)), min degree)``, so "auto" always returns a maximum EDST set. Prime-power Paley graphs
``QR(p^k)`` and MMS supernodes ``C(X)``, ``k >= 2`` (additive group ``Z_p^k``, not cyclic) use the "abelian"
packing (31 trees of the 125-vertex supernode of ``slimfly(125)`` in a few ms instead of 1.7 s generic).
Factors that are themselves star products are the business of the floor above
(:func:`starlib.edst.product.auto.default_factor_trees`).

Every tree is rooted at a center (least eccentricity).

Example
-------
>>> from starlib.factors import complete, paley
>>> [t.construction for t in factor_edsts(complete(6))]
['walecki', 'walecki', 'walecki']
>>> len(factor_edsts(paley(13))), factor_edsts(paley(13))[0].depth
(3, 6)
"""

from __future__ import annotations

from collections.abc import Callable

from ...bounds import upper_bound
from ...graphs import ArrayGraph, GraphLike, as_graph
from ..packing import generic_packing
from ..trees import EDSTSet, centred_trees
from ..verify import verify_edsts
from .abelian import abelian_graph_paths
from .er import er_edsts, er_order
from .paths import bipartite_paths, circulant_connection_set, circulant_paths, complete_bipartite_sides, walecki_paths

__all__ = ["factor_edsts", "structured_edsts", "generic_trees", "FACTOR_METHODS"]


def _walecki(graph: ArrayGraph) -> EDSTSet | None:
    n = int(graph.n)
    return centred_trees(n, walecki_paths(n), "walecki") if int(graph.m) == n * (n - 1) // 2 else None


def _bipartite(graph: ArrayGraph) -> EDSTSet | None:
    sides = complete_bipartite_sides(graph)
    return None if sides is None else centred_trees(int(graph.n), bipartite_paths(*sides), "bipartite")


def _circulant(graph: ArrayGraph) -> EDSTSet | None:
    s = circulant_connection_set(graph)
    return None if s is None else centred_trees(int(graph.n), circulant_paths(int(graph.n), s), "circulant")


def _abelian(graph: ArrayGraph) -> EDSTSet | None:
    a = abelian_graph_paths(graph)
    return None if a is None else centred_trees(int(graph.n), a, "abelian")


def _er(graph: ArrayGraph) -> EDSTSet | None:
    q = er_order(graph)  # marked as ER_q by its builder (polarfly without loops, singer_graph)
    if q is None:
        return None
    try:  # depth <= 5 trees when the lifted-cluster construction applies, else Hamiltonian paths
        res = er_edsts(q, "low-depth", graph=graph)
    except ValueError:
        res = er_edsts(q, "hamiltonian", graph=graph)
    arrays = [t.edges for t in res]
    report = verify_edsts(graph, arrays)
    if not report.valid:  # a broken construction, not a bad input
        raise RuntimeError(f"er_edsts(q={q}) returned an invalid EDST set: " + "; ".join(report.problems[:3]))
    return centred_trees(int(graph.n), arrays, [t.construction or "er" for t in res])


#: The structured packings, in the order ``method="auto"`` tries them: name -> ``graph -> EDSTSet | None``
#: (None when the packing does not apply to the graph).
_STRUCTURED: dict[str, Callable[[ArrayGraph], EDSTSet | None]] = {
    "walecki": _walecki, "bipartite": _bipartite, "circulant": _circulant, "abelian": _abelian, "er": _er}

#: Every ``method`` of :func:`factor_edsts`.
FACTOR_METHODS = ("auto", "generic", *_STRUCTURED)


def _check_graph(graph: GraphLike) -> tuple[ArrayGraph, int]:
    """The graph (:func:`~starlib.graphs.as_graph`: a networkx graph is converted, anything else refused) and
    its ``n``, at least 2."""
    graph = as_graph(graph, "graph")
    if graph.n < 2:
        raise ValueError(f"graph: n={graph.n} vertices; a spanning tree packing needs n >= 2")
    return graph, graph.n


def _first_structured(graph: ArrayGraph) -> EDSTSet | None:
    """The first structured packing that reaches the bound of a checked graph, or None."""
    bound = upper_bound(graph)
    for build in _STRUCTURED.values():
        trees = build(graph)
        if trees is not None and len(trees) >= bound:
            return trees
    return None


def structured_edsts(graph: GraphLike) -> EDSTSet | None:
    """The first structured packing (table above) that reaches the graph's upper bound, or None.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        Simple, undirected, ``n >= 2`` (:func:`~starlib.graphs.as_graph`).

    Example
    -------
    >>> from starlib.factors import complete, cycle
    >>> structured_edsts(complete(4)).constructions(), structured_edsts(cycle(5)).constructions()
    (['walecki', 'walecki'], ['circulant'])
    """
    return _first_structured(_check_graph(graph)[0])


def factor_edsts(graph: GraphLike, method: str = "auto") -> EDSTSet:
    """A maximum EDST set of a factor graph (structured when available, else the exact packer).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        A connected simple graph with ``n >= 2``. A networkx graph goes through :func:`~starlib.graphs.as_graph`:
        the trees are index arrays of its nodes in sorted order (``as_graph(graph).labels[i]`` is node ``i``).
    method : str
        ``"auto"`` (structured if it reaches the upper bound, else generic), ``"generic"``
        (:func:`~starlib.edst.packing.generic_packing`), or one structured method: ``"walecki"``
        (``K_n``), ``"bipartite"`` (``K_{q,q}``), ``"circulant"`` (Paley/``C(X)`` of prime order, any
        circulant), ``"abelian"`` (Cayley graphs on ``(GF(p^k), +)``, odd ``p``, ``k >= 2``: prime-power
        Paley/``C(X)``), ``"er"`` (``ER_q`` via :mod:`starlib.edst.factor.er`).

    Returns
    -------
    EDSTSet
        Trees rooted at their centers, tagged with the method (or the ER_q family's tag).

    Raises
    ------
    ValueError
        If ``method`` is unknown or does not apply to the graph, or the graph has fewer than 2 vertices, is a
        networkx multigraph or is directed.
    TypeError
        If ``graph`` is not a graph (None, a string, an edge list).

    Example
    -------
    >>> from starlib.factors import complete_bipartite
    >>> s = factor_edsts(complete_bipartite(5))
    >>> len(s), s.constructions()[0]
    (2, 'bipartite')

    References
    ----------
    Table V and Appendix B of Isham et al. (2025) (factor EDST counts); Walecki (K_n); Li, Li, Li (K_{a,b});
    Alspach, Bryant, Dyer (Paley graphs); Lakhotia et al., SPAA'23 (ER_q).
    """
    if method not in FACTOR_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(FACTOR_METHODS)}")
    graph, n = _check_graph(graph)
    if method in _STRUCTURED:
        trees = _STRUCTURED[method](graph)
        if trees is None:
            raise ValueError(f"method={method} does not apply to the graph {getattr(graph, 'name', '')!r} "
                             f"(n={n}, m={int(graph.m)})")
        return trees
    trees = _first_structured(graph) if method == "auto" else None
    return trees if trees is not None else generic_trees(graph)


def generic_trees(graph: GraphLike, progress: Callable[[int, int], None] | None = None) -> EDSTSet:
    """A maximum EDST set of any graph by the exact packer, trees rooted at their centers and tagged "generic".

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        Simple and undirected, ``n >= 2``. A networkx graph goes through :func:`~starlib.graphs.as_graph`: the
        trees are index arrays of its nodes in sorted order (insertion order if they do not compare).
    progress : callable, optional
        ``progress(placed, wanted)``, passed to :func:`~starlib.edst.packing.generic_packing`.

    Returns
    -------
    EDSTSet
        As many trees as the graph has (none if it is disconnected).

    Raises
    ------
    TypeError, ValueError
        As :func:`factor_edsts` for the graph: no graph at all; fewer than 2 vertices, a multigraph, a digraph.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> len(generic_trees(slimfly(3)))
    2
    >>> import networkx as nx
    >>> s = generic_trees(nx.petersen_graph())              # 15 edges, 9 per spanning tree
    >>> len(s), s[0].n
    (1, 10)

    References
    ----------
    Roskind-Tarjan / Edmonds matroid partition (see :mod:`starlib.edst.packing`).
    """
    graph, n = _check_graph(graph)
    out = centred_trees(n, [t.edges for t in generic_packing(graph, progress=progress).trees], "generic")
    out.theorem = "generic"
    return out
