"""Maximum and shallow EDSTs: the most trees a method of starlib can build, then the least depth.

:func:`shallow_trees` optimises the two goals in order, on any graph:

1. **Count.** It starts from :func:`~starlib.edst.product.auto.auto_trees` (Table I on a star product, a maximum
   packing on any other graph). When that family is below the upper bound ``min(floor(m/(n-1)), min degree)``
   (eq. (1)) and the exact packer is affordable (estimated at most ``exact_seconds``), it also runs
   :func:`~starlib.edst.factor.choose.generic_trees`, which certifies the maximum (PolarStar ``ER_q * IQ(d')``,
   the paper's "Maybe" row: 5 trees where Table I builds 4). The count returned is the largest of the starting
   families, so never below ``auto``; it is the exact maximum whenever it reaches the bound or the exact packer
   ran.
2. **Depth.** Among the starting families of that count it runs the depth-reducing local search
   :func:`~starlib.edst.depth.improve_depth` on each and keeps the family of least maximum depth, then least
   total depth (ties: the first start in the order below). Every tree is rooted at its centre and tagged with
   its construction plus ``"+ls"``.

The starting families use the structure of the graph
-----------------------------------------------------
* **Star products** ``P = G *_f H``. The depth theorems bound every product tree by its factor trees' depths:
  Theorem V-B.4 gives ``d_H^{t_H} + 2 d_G^i`` for the trees of Construction V-C.4 (as for V-B.2), Theorem
  V-B.5(1) ``D_G + d_H^j + 2 D_G d_H^j`` for Construction V-C.5, and Theorem V-C.12 the products
  ``d_H^{t_H} + D_G (L_H + 1)`` and ``(D_G + 1)(2 L_G + 2 d_H^{t_H}) + D_G`` for Constructions V-C.6 and V-C.7;
  Theorem V-D.7 the same forms for Section V-D. Each bound is non-decreasing in every factor depth ``d``, ``D``.
  So a family of factor trees of the same count and smaller depths gives product trees with smaller bounds.
  The second start therefore runs Table I's construction with **shallow factor trees**: each factor's default
  maximum packing (:func:`~starlib.edst.product.auto.default_factor_trees`), improved by the local search on the
  factor itself (same count; the Hamiltonian paths of ``K_{7,7}``, of depth 7 from their centres, become trees
  of depth 3). Table I's case also depends on ``r``, the forest rank of the edges
  the factor packing leaves unused, which changes with the packing; a start whose count falls below ``auto``'s
  is dropped.
* **Any graph.** The first start is ``auto``; the exact packer's family is a further start when it is cheap
  (at most ``cheap_seconds``) or needed for the count.
* For ``ER_q`` (a graph its builder marked so, :func:`~starlib.edst.factor.er.er_order`) ``auto`` is the Singer
  lifted-cluster family of depth 4-5 (:func:`~starlib.edst.factor.er.er_edsts`, ``"low-depth"``);
  :func:`~starlib.edst.depth.er.er_shallow_trees` (that family, the local search, then a repair of the vertices
  deeper than 4) is a further start, of depth 4 for every prime power ``q <= 128`` measured (depth 2 at
  ``q = 2``), and the committed depth-3 family of :func:`~starlib.edst.depth.er3.er_depth3_trees` another, where
  one is known (every prime power ``q <= 61``): depth 3 is the lower bound, so these are optimal.
* For Slim Fly MMS(q) (``slimfly(q)``), :func:`~starlib.edst.depth.slimfly.slimfly_shallow_trees` (depth 4
  measured for every admissible ``q <= 128``; ``q = 8`` needs its repair) is a further start, and the committed
  depth-3 family of :func:`~starlib.edst.depth.slimfly3.slimfly_depth3_trees` another where one is known
  (``q = 7``): every tree of a maximum family of MMS(q) has depth at least 3, so it is optimal.

**Deepening.** On graphs of at most :data:`DEEPEN_LINKS` links, when the best family is more than one level above
the lower bound, :func:`~starlib.edst.depth.target.deepen_search` then asks for one level less at a time, down to
the lower bound plus one (the targeted repair of the deep vertices, then simulated annealing on the excess depth;
a few seconds to 16 s per network): after it, 65 of the 68 Table IV networks with at most 500 routers are within
one level of the per-tree bound (26 before).

Why the local search finishes the job: Construction V-C.6 and V-C.7's two trees are the deep ones (the
quadratic terms above). A vertex ``x`` deep in such a tree ``T_a`` has a graph neighbour ``y`` much shallower in
``T_a`` (the diameter of Slim Fly is 2); the search moves ``x``'s subtree under ``y``, taking the edge ``xy``
from the unused edges or from another tree ``T_b``, which gets ``x``'s old parent edge in exchange when that
reconnects ``T_b``. Every move keeps ``k`` edge-disjoint spanning trees (:mod:`starlib.edst.depth.search`).

What this is not: a closed-form construction with a proved depth. The families are built by the paper's
constructions and then improved instance by instance; their depth is measured (and the family verified), not
guaranteed. Aligning the reserved-tree edges of Section V-C with the bijections, as Theorem V-B.5(2) does for the
Universal trees, is built in :func:`~starlib.edst.product.twisted_maximum_trees` (docs/star-products.md §7.7), with
depth bounds proved linear in the factor depths; it is not a start here, because in one trial on four networks with
a gap of 2 or 3 the search ended at the same depth from it as from the others. Hub sets per tree, as in the ER_q
lifted clusters, are a route this module does not take.

Above ``single_start_links`` links (200,000) only the start of least maximum depth is searched, once: on Bundlefly
MMS(29) * QR(29) (1,390,173 links) that is the shallow factor trees' start.

Lower bound
-----------
:func:`~starlib.edst.depth.depth_lower_bound` gives, for the count found, a depth no family of that many EDSTs
can beat (radius and degree budgets; the proof is in :mod:`starlib.edst.depth.bound`). ``shallow_trees`` stores it
in ``meta["lower_bound"]`` of every tree, so a reader sees the gap.

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import auto_trees, verify_edsts
>>> P = slimfly(7)
>>> S = shallow_trees(P)
>>> len(S) == len(auto_trees(P)), max(S.depths()) <= 5, verify_edsts(P, S).valid
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...bounds import upper_bound
from ...graphs import GraphLike, as_graph
from ...products import star_form
from ...validation import check_int, check_real
from ..factor import generic_trees
from ..factor.er import er_order
from ..packing import generic_seconds
from ..product.auto import auto_trees, default_factor_trees
from ..trees import EDSTSet, is_connected
from .bound import depth_lower_bound
from .er import er_shallow_trees
from .er3 import er_depth3_trees
from .search import improve_depth
from .slimfly import slimfly_shallow_trees
from .slimfly3 import slimfly_depth3_trees
from .target import deepen_search

__all__ = ["ShallowStart", "shallow_starts", "shallow_trees", "shallowest", "shallow_factor_trees", "DEEPEN_LINKS",
           "deepen_moves"]

#: :func:`shallowest` runs the targeted deepening search (:func:`~.target.deepen_search`, down to the lower bound
#: plus one) on graphs with at most this many links: every Table IV network with at most 500 routers (3,800
#: links at most) within seconds each; above it the search's fixed budget no longer reaches the deep vertices.
DEEPEN_LINKS = 4_000

#: What an annealing trial move of the deepening costs, per vertex of the graph (nanoseconds): 11-25 measured on
#: Slim Fly MMS(5) and MMS(8) and PolarFly ER_9 (one core of an AMD EPYC, busy); the ``budget`` of
#: :func:`shallow_trees` plans the deepening's moves with it.
MOVE_NS_PER_VERTEX = 20.0

#: The deepening's annealing moves per round without a budget (:func:`~.target.repair_to_depth`'s default).
ANNEAL_MOVES = 1_600_000


@dataclass(frozen=True)
class ShallowStart:
    """One starting family of :func:`shallow_trees`: its name and its trees."""

    name: str
    trees: EDSTSet


def shallow_factor_trees(graph: GraphLike, *, seed: int = 0) -> EDSTSet:
    """A factor's default maximum EDST set, made shallow by the local search (same count, each tree at its centre).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected factor graph with ``n >= 2``.
    seed : int, optional
        Seed of :func:`~starlib.edst.depth.improve_depth`.

    Returns
    -------
    EDSTSet
        As many trees as :func:`~starlib.edst.product.auto.default_factor_trees`, tagged ``"<method>+ls"``.

    Example
    -------
    >>> from starlib.factors import complete_bipartite
    >>> from starlib.edst import default_factor_trees
    >>> G = complete_bipartite(7)
    >>> [max(default_factor_trees(G).depths()), max(shallow_factor_trees(G).depths())]
    [7, 3]
    """
    g = as_graph(graph, "graph")
    return improve_depth(g, default_factor_trees(g), seed=seed)


def shallow_starts(graph: GraphLike, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None, *,
                   exact_seconds: float = 60.0, cheap_seconds: float = 1.0, seed: int = 0) -> list[ShallowStart]:
    """The starting families of :func:`shallow_trees`, in order (module docstring); all of the largest count.

    Parameters
    ----------
    graph, g_trees, h_trees, exact_seconds, cheap_seconds, seed
        As :func:`shallow_trees`.

    Returns
    -------
    list of ShallowStart
        ``"auto"``, ``"shallow factor trees"`` for a star product with connected factors, ``"ER shallow"`` for
        ``ER_q``, ``"generic"`` when the exact packer ran; only those with the largest count.

    Example
    -------
    >>> from starlib.networks import polarstar
    >>> [(s.name, len(s.trees)) for s in shallow_starts(polarstar(3, d=7))]
    [('generic', 5)]
    """
    g = as_graph(graph, "graph")
    if g.n < 2:
        raise ValueError(f"graph: n={g.n} vertices; a spanning tree packing needs n >= 2")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    starts = [ShallowStart("auto", auto_trees(g, g_trees, h_trees))]
    form = star_form(g)
    if form is not None and all(is_connected(X.n, X.edges) for X in (form[0].structure, form[0].supernode)):
        P = form[0]
        gs = improve_depth(P.structure, g_trees if g_trees is not None else default_factor_trees(P.structure),
                           seed=seed)
        hs = improve_depth(P.supernode, h_trees if h_trees is not None else default_factor_trees(P.supernode),
                           seed=seed)
        starts.append(ShallowStart("shallow factor trees", auto_trees(g, list(gs), list(hs))))
    q = er_order(g)  # a graph marked as ER_q by its builder (polarfly without loops, singer_graph)
    if q is not None:
        starts.append(ShallowStart("ER shallow", er_shallow_trees(q, graph=g, seed=seed)))
        deep3 = er_depth3_trees(q, graph=g)  # the committed depth-3 family, where one is known
        if deep3 is not None:
            starts.append(ShallowStart("ER depth 3", deep3))
    params = getattr(graph, "params", None) or {}
    if getattr(graph, "name", None) == "slimfly" and form is not None and "q" in params:
        starts.append(ShallowStart("Slim Fly depth 4", slimfly_shallow_trees(int(params["q"]), graph, seed=seed)))
        deep3 = slimfly_depth3_trees(int(params["q"]), graph)  # the committed depth-3 family, where one is known
        if deep3 is not None:
            starts.append(ShallowStart("Slim Fly depth 3", deep3))
    count = max(len(s.trees) for s in starts)
    seconds = generic_seconds(int(g.m))
    if (count < upper_bound(g) and seconds <= exact_seconds) or seconds <= cheap_seconds:
        starts.append(ShallowStart("generic", generic_trees(g)))
        count = max(count, len(starts[-1].trees))
    return [s for s in starts if len(s.trees) == count]


def shallow_trees(graph: GraphLike, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None, *,
                  exact_seconds: float = 60.0, cheap_seconds: float = 1.0, seed: int = 0,
                  restarts: int | None = None, single_start_links: int = 200_000,
                  budget: float | None = None) -> EDSTSet:
    """The most edge-disjoint spanning trees starlib can build on a graph, then the shallowest such family found.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        Any simple undirected graph with ``n >= 2`` (:func:`~starlib.graphs.as_graph`).
    g_trees, h_trees : list of Tree, optional
        Factor EDSTs of a star product's structure graph and supernode, as for
        :func:`~starlib.edst.product.auto.auto_trees` (default: the maximum ones).
    exact_seconds : float, optional
        Run the exact packer when the other starts are below the upper bound and its estimated time
        (:func:`~starlib.edst.packing.generic_seconds`) is at most this (60 s).
    cheap_seconds : float, optional
        Run the exact packer as one more start anyway when its estimate is at most this (1 s: about 130,000 links).
    seed : int, optional
        Seed of the local search (same input and seed, same trees).
    restarts : int, optional
        Runs of the local search per start (default: :func:`~starlib.edst.depth.improve_depth`'s, by size).
    single_start_links : int, optional
        Above this many links, search from one start only, the one of least maximum depth (on Bundlefly
        MMS(29) * QR(29), 1.39M links, the shallow factor trees' start of depth 37: 33 s to depth 6, where the
        search from ``auto``'s depth 2591 takes 70 s to reach depth 6 as well).
    budget : float, optional
        Seconds that the optional work may take, planned from estimates and never from a clock (the same budget
        gives the same trees on every machine): the exact packer runs only when its estimate
        (:func:`~starlib.edst.packing.generic_seconds`) is within half the budget, and the deepening gets the
        annealing moves that half the budget buys at :data:`MOVE_NS_PER_VERTEX` (none below 10,000 per round).
        The starts and the local search always run (about a second up to 100,000 links); the first run on a
        machine also compiles the kernels. Default: no budget (the exact packer up to ``exact_seconds``, the
        deepening's full 1,600,000 moves per round).

    Returns
    -------
    EDSTSet
        ``theorem == "shallow"``. Every tree rooted at its centre, tagged ``"<construction>+ls"``, with
        ``meta["start"]`` (the starting family) and ``meta["lower_bound"]``
        (:func:`~starlib.edst.depth.depth_lower_bound` for this count). At least as many trees as
        ``auto_trees``; the maximum when it equals the upper bound or the exact packer ran.

    Raises
    ------
    ValueError
        For a graph with fewer than 2 vertices or a bad parameter.
    TypeError
        If ``graph`` is not a graph.

    Examples
    --------
    >>> from starlib.networks import bundlefly
    >>> from starlib.edst import auto_trees
    >>> P = bundlefly(4, 9)
    >>> A, S = auto_trees(P), shallow_trees(P)
    >>> len(S) == len(A), max(A.depths()), max(S.depths()) <= 7, S[0].meta["lower_bound"]
    (True, 46, True, 4)

    References
    ----------
    Theorems V-B.4, V-B.5, V-C.12 and V-D.7 of Isham et al. (2025) (product depth from factor depth); the
    local search and the lower bound of :mod:`starlib.edst.depth`.
    """
    g = as_graph(graph, "graph")  # once: the two halves take it as it is
    if budget is not None:
        budget = check_real(budget, "budget", minimum=0.0, rule="seconds >= 0")
        exact_seconds, cheap_seconds = min(exact_seconds, budget / 2), min(cheap_seconds, budget / 2)
    starts = shallow_starts(g, g_trees, h_trees, exact_seconds=exact_seconds, cheap_seconds=cheap_seconds, seed=seed)
    return shallowest(g, starts, seed=seed, restarts=restarts, single_start_links=single_start_links,
                      deepen_seconds=None if budget is None else budget / 2)


def deepen_moves(seconds: float, n: int, levels: int, rounds: int = 4) -> int:
    """The annealing moves per round that ``seconds`` buy for the deepening of ``levels`` levels on ``n`` vertices.

    Every level asks :func:`~.target.repair_to_depth` for up to ``rounds`` rounds; a move costs about
    :data:`MOVE_NS_PER_VERTEX` per vertex. At most :data:`ANNEAL_MOVES`; 0 (no deepening) below 10,000.

    >>> deepen_moves(10.0, 20, 1), deepen_moves(1.0, 500, 2), deepen_moves(0.01, 500, 2)
    (1600000, 12500, 0)
    """
    moves = int(seconds * 1e9 / (MOVE_NS_PER_VERTEX * max(n, 1) * max(levels, 1) * rounds))
    return min(ANNEAL_MOVES, moves) if moves >= 10_000 else 0


def shallowest(graph: GraphLike, starts: Sequence[ShallowStart], *, seed: int = 0, restarts: int | None = None,
               single_start_links: int = 200_000, deepen_seconds: float | None = None) -> EDSTSet:
    """The local search from each starting family (all of one count); the family of least maximum, then total depth.

    The second half of :func:`shallow_trees`, for callers that build the starts themselves
    (:func:`shallow_starts`, or their own families of one count).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The host graph.
    starts : sequence of ShallowStart
        Edge-disjoint spanning tree families of ``graph``, all with the same number of trees.
    seed, restarts, single_start_links
        As :func:`shallow_trees`.
    deepen_seconds : float, optional
        The deepening's planned seconds (:func:`deepen_moves`); default its full moves.

    Returns
    -------
    EDSTSet
        As :func:`shallow_trees`.

    Raises
    ------
    ValueError
        If ``starts`` is empty or its families differ in count.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> from starlib.edst import auto_trees
    >>> P = slimfly(5)
    >>> S = shallowest(P, [ShallowStart("auto", auto_trees(P))])
    >>> len(S), max(S.depths()) <= 5, S[0].meta["start"]
    (3, True, 'auto')
    """
    starts = list(starts)
    if not starts or len({len(s.trees) for s in starts}) != 1:
        raise ValueError(f"starts: need one or more families of one count, got counts "
                         f"{[len(s.trees) for s in starts]}")
    g = as_graph(graph, "graph")
    if g.m > single_start_links and len(starts) > 1:  # one search only: from the start of least maximum depth
        starts = [min(starts, key=lambda s: max(s.trees.depths()) if len(s.trees) else 0)]
    best: tuple[tuple[int, int], EDSTSet, str] | None = None
    for s in starts:
        out = improve_depth(g, s.trees, seed=seed, restarts=restarts)
        d = out.depths()
        key = (max(d), sum(d)) if d else (0, 0)
        if best is None or key < best[0]:
            best = (key, out, s.name)
    assert best is not None
    out = best[1]
    if len(out):
        lb = depth_lower_bound(g, len(out)).value
        levels = max(out.depths()) - (lb + 1)
        anneal = ANNEAL_MOVES if deepen_seconds is None else deepen_moves(deepen_seconds, int(g.n), levels)
        if g.m <= DEEPEN_LINKS and levels > 0 and anneal > 0:
            out = deepen_search(g, out, lb + 1, seed=seed, anneal=anneal)
    out.theorem = "shallow"
    if len(out):
        for t in out:
            t.meta["start"] = best[2]
            t.meta["lower_bound"] = int(lb)
    return out
