"""Every EDST method of starlib, declared once: what it builds, what it applies to, what it costs, how it reports.

The top floor of :mod:`starlib.edst`: a method may use any floor below (the primitives and the exact packer, the
factor packings, the product constructions, the depth search). :data:`METHODS` is the one dispatch from a method
name to a construction; the command line's ``--method``, the tables' ``method`` column and the depth study read it.

=================  ===============================================================  ==================================
method             construction                                                     trees
=================  ===============================================================  ==================================
``auto``           Table I's choice for a star product (:func:`auto_trees`); a      Table I's count; the maximum
                   structured or exact maximum packing of any other graph
``maximum``        Constructions V-C.4 to V-C.7 (Theorem V-C.3, Cor. V-C.10,        ``t_G + t_H`` or ``t_G + t_H - 1``
                   V-C.11)
``twisted``        ``maximum``'s trees with twisted sheets (starlib's construction,   as ``maximum``
                   :func:`twisted_maximum_trees`): depth linear in the factor depths
``property``       Constructions V-D.3 to V-D.5 (Theorem V-D.2)                     ``t_G + t_H - 1``
``universal``      Constructions V-B.2 and V-B.3 (Theorem V-B.1)                    ``t_G + t_H - 2``
``low-depth``      V-B.2 and the twisted copies of Theorem V-B.5(2)                 ``t_G + t_H - 2``
``generic``        the exact matroid-partition packer on the whole graph            the maximum
``shallow``        the most trees of ``auto`` and the exact packer, then the least  at least ``auto``'s
                   depth (:func:`~starlib.edst.depth.shallow_trees`)
``optimal-depth``  ``shallow``'s count, then the least depth by CP-SAT: proved      ``shallow``'s count
                   optimal, or open with a proved lower bound
                   (:func:`~starlib.edst.depth.optimal_depth_trees`)
=================  ===============================================================  ==================================

A :class:`Method` says what it applies to (a star product, or any graph) and plans its run on one graph
(:meth:`Method.plan`): the function to call, its estimated time when it falls back to the exact packing (refused
over a day, :data:`REFUSE_SECONDS`), and whether it reports progress. The command line asks the method for its
plan instead of routing methods itself.

Example
-------
>>> from starlib.networks import slimfly
>>> P = slimfly(7)
>>> [(name, len(METHODS[name](P))) for name in ("universal", "maximum", "generic")]
[('universal', 3), ('maximum', 5), ('generic', 5)]
>>> METHODS["maximum"].families
('V-C.4', 'V-C.5', 'V-C.6', 'V-C.7')
>>> plan = METHODS["generic"].plan(P)
>>> plan.what, plan.reports
('method generic: the exact generic packing on 539 links', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..graphs import ArrayGraph, GraphLike, as_graph
from ..products import star_form
from .factor import generic_trees, structured_edsts
from .packing import generic_seconds
from .product import (
    auto_trees,
    low_depth_trees,
    maximum_trees,
    property_vd1_trees,
    require_star_product,
    twisted_maximum_trees,
    universal_trees,
)
from .product.twisted import FAMILIES as TWISTED_FAMILIES
from .trees import EDSTSet

__all__ = ["Method", "Plan", "METHODS", "edsts", "get_method", "REFUSE_SECONDS", "format_duration", "refuse_slow"]

#: A run estimated longer than this (a day) is refused: it would not finish in any session a reader has.
REFUSE_SECONDS = 86_400.0

#: ``progress(placed, wanted)``: called as the exact packing places tree edges.
Progress = Callable[[int, int], None]


def format_duration(seconds: float) -> str:
    """``"9 minutes"``, ``"2.5 hours"``, ``"80 days"``: an estimate as a reader says it.

    >>> format_duration(40), format_duration(518), format_duration(9000), format_duration(6.9e6)
    ('40 seconds', '9 minutes', '2.5 hours', '80 days')
    """
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.0f} days"


@dataclass(frozen=True)
class Plan:
    """How a method builds the trees of one graph.

    Attributes
    ----------
    method : the method's name.
    run : ``run(progress) -> EDSTSet``; ``progress`` is called only when ``reports``.
    seconds : the estimated time of the exact generic packing when the method runs it, else 0.
    what : what runs (``"method generic: the exact generic packing on 141,120 links"``), for a warning.
    reports : ``run`` reports the tree edges placed (:data:`Progress`).
    """

    method: str
    run: Callable[[Progress | None], EDSTSet]
    seconds: float = 0.0
    what: str = ""
    reports: bool = False

    def __call__(self, progress: Progress | None = None) -> EDSTSet:
        """Build the trees."""
        return self.run(progress)


def _exact_plan(name: str, graph: ArrayGraph, run: Callable[[Progress | None], EDSTSet], reports: bool,
                why: str = "") -> Plan:
    """The plan of a run that is the exact generic packing on the whole graph, refused over a day."""
    m = int(graph.m)
    seconds = generic_seconds(m)
    what = f"method {name}" + (f" ({why})" if why else "") + f": the exact generic packing on {m:,} links"
    refuse_slow(name, what, seconds)
    return Plan(name, run, seconds, what, reports)


def refuse_slow(method: str, what: str, seconds: float) -> None:
    """Refuse a run estimated over :data:`REFUSE_SECONDS` (a day), before it starts.

    >>> refuse_slow("generic", "the exact generic packing on 60,589,235 links", 2e5)
    Traceback (most recent call last):
    ...
    ValueError: method='generic' is too slow here: the exact generic packing on 60,589,235 links would take \
about 2 days (an upper estimate, generic_seconds); choose a smaller network
    """
    if seconds > REFUSE_SECONDS:
        raise ValueError(f"method={method!r} is too slow here: {what} would take about {format_duration(seconds)} "
                         f"(an upper estimate, generic_seconds); choose a smaller network")


@dataclass(frozen=True)
class Method:
    """One EDST method: its name, what it builds, what it applies to and how it plans a run.

    Calling the record builds the trees: ``METHODS["maximum"](P)`` or ``METHODS["maximum"](P, g_trees, h_trees)``.

    Attributes
    ----------
    name : the method's name (``--method`` on the command line).
    build : ``build(graph, g_trees, h_trees) -> EDSTSet`` on a checked graph (a star product for a product
        method).
    summary : the constructions and theorems it applies.
    families : tags of the tree families it builds, in order (the first is the one whose depth Table I's "min
        depth" column bounds).
    product_only : True if it needs a star product (a relabelled one is built as its star product).
    exact : True if it is the exact packer on the whole graph, whatever the graph (its cost is known from the
        number of links alone, before the graph is built: :meth:`check_links`).
    reports : on a graph without structure this method's trees are the exact packer's
        (:func:`~starlib.edst.factor.generic_trees`), which then runs directly and reports its progress.
    options : the keywords :meth:`configured` accepts (``shallow``: ``budget``, seconds planned for its optional
        work).

    Any other method applies to any graph: on one that is no star product it runs a structured packing when one
    applies (:func:`~starlib.edst.factor.structured_edsts`) and falls back to the exact packer otherwise.
    """

    name: str
    build: Callable[[ArrayGraph, Any, Any], EDSTSet]
    summary: str
    families: tuple[str, ...] = ()
    product_only: bool = True
    exact: bool = False
    reports: bool = False
    options: tuple[str, ...] = ()

    def configured(self, **options: Any) -> Method:
        """This method with keyword options for its build (only those it declares in :attr:`options`).

        >>> METHODS["shallow"].configured(budget=5.0).name
        'shallow'
        >>> METHODS["maximum"].configured(budget=5.0)
        Traceback (most recent call last):
        ...
        ValueError: budget=5.0: method 'maximum' takes no such option (options: none)
        """
        for key, value in options.items():
            if key not in self.options:
                raise ValueError(f"{key}={value!r}: method {self.name!r} takes no such option (options: "
                                 f"{', '.join(self.options) or 'none'})")
        build = self.build
        return replace(self, build=lambda graph, g_trees, h_trees: build(graph, g_trees, h_trees, **options))

    def checked(self, graph: GraphLike, name: str = "graph") -> ArrayGraph:
        """The door: the graph as this method takes it, checked once (a star product for a product method, else any
        graph, :func:`~starlib.graphs.as_graph`); a ``ValueError`` naming ``name`` when it does not apply.
        :attr:`build` takes the result."""
        if self.product_only:
            require_star_product(graph, f"method={self.name}", name=name)
            return graph
        return as_graph(graph, name)

    def __call__(self, graph: GraphLike, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None
                 ) -> EDSTSet:
        return self.build(self.checked(graph), g_trees, h_trees)

    def check_links(self, m: int) -> None:
        """Refuse, before the graph is built, an exact method on ``m`` links estimated over a day."""
        if self.exact:
            refuse_slow(self.name, f"the exact generic packing on {m:,} links", generic_seconds(m))

    def plan(self, graph: ArrayGraph) -> Plan:
        """How this method builds the trees of ``graph``: the call, and its cost when it is the exact packer.

        On a star product every method runs its construction (milliseconds to a second). On another graph a
        product method does not apply (``ValueError``); ``generic`` is the exact packer; ``auto`` and ``shallow``
        run a structured packing when one applies and the exact packer otherwise. A run estimated over a day is
        refused.

        Examples
        --------
        >>> from starlib.networks import slimfly
        >>> p = METHODS["auto"].plan(slimfly(5))
        >>> len(p()), p.seconds
        (3, 0.0)
        >>> from starlib.cayley import star_graph
        >>> METHODS["maximum"].plan(star_graph(5))
        Traceback (most recent call last):
        ...
        ValueError: method='maximum' needs a star product and star is not one; use --method auto or generic
        """
        if self.exact:
            return _exact_plan(self.name, graph, lambda progress=None: generic_trees(graph, progress=progress),
                               reports=True)
        # checked here, once: a star product (every method takes one) or a graph structured_edsts accepted, so the
        # runs call build directly, without Method.checked again
        if star_form(graph) is not None:
            return Plan(self.name, lambda progress=None: self.build(graph, None, None))
        if self.product_only:
            raise ValueError(f"method={self.name!r} needs a star product and {graph.name or 'this graph'} is not "
                             f"one; use --method auto or generic")
        if structured_edsts(graph) is not None:
            return Plan(self.name, lambda progress=None: self.build(graph, None, None))
        why = f"no structured packing for {int(graph.m):,} links"
        if self.reports:
            return _exact_plan(self.name, graph, lambda progress=None: generic_trees(graph, progress=progress),
                               reports=True, why=why)
        return _exact_plan(self.name, graph, lambda progress=None: self.build(graph, None, None), reports=False,
                           why=why)


def _shallow(graph: ArrayGraph, g_trees: Any, h_trees: Any, **options: Any) -> EDSTSet:
    """``shallow``: :func:`~starlib.edst.depth.shallow_trees`, whose floor (solvers, compiled kernels) loads here."""
    from .depth import shallow_trees

    return shallow_trees(graph, g_trees, h_trees, **options)


def _optimal_depth(graph: ArrayGraph, g_trees: Any, h_trees: Any) -> EDSTSet:
    """``optimal-depth``: :func:`~starlib.edst.depth.optimal_depth_trees`, loaded when used."""
    from .depth import optimal_depth_trees

    return optimal_depth_trees(graph, g_trees, h_trees)


#: Every EDST method, by name.
METHODS: dict[str, Method] = {m.name: m for m in (
    Method("universal", universal_trees, "Constructions V-B.2 and V-B.3 (Theorem V-B.1)",
           ("V-B.2", "V-B.3")),
    Method("low-depth", low_depth_trees,
           "Construction V-B.2 and the twisted copies of Theorem V-B.5(2)", ("V-B.2", "V-B.5(2)")),
    Method("maximum", maximum_trees,
           "Constructions V-C.4 to V-C.7 (Theorem V-C.3, Corollaries V-C.10, V-C.11)",
           ("V-C.4", "V-C.5", "V-C.6", "V-C.7")),
    Method("twisted", twisted_maximum_trees,
           "the Maximum constructions with twisted sheets (starlib's): the same count, depth linear in the factor "
           "depths", TWISTED_FAMILIES),
    Method("property", property_vd1_trees, "Constructions V-D.3 to V-D.5 (Theorem V-D.2)",
           ("V-D.3", "V-D.4", "V-D.5")),
    Method("generic", lambda graph, g_trees, h_trees: generic_trees(graph),
           "the exact matroid-partition packer on the whole graph", ("generic",), product_only=False, exact=True),
    Method("auto", auto_trees,
           "Table I's construction for a star product; the maximum packing of any other graph", product_only=False,
           reports=True),
    Method("shallow", _shallow,
           "the most trees of auto and the exact packer, made shallow by the local search", ("shallow",),
           product_only=False, options=("budget",)),
    Method("optimal-depth", _optimal_depth,
           "shallow's count, then the least depth by OR-tools CP-SAT: optimal, or open with a proved lower bound "
           "(the 'exact' extra; n * upper bound <= 2000)", ("optimal-depth",), product_only=False),
)}


def edsts(graph: GraphLike, method: str = "auto", g_trees: list[Any] | None = None,
          h_trees: list[Any] | None = None) -> EDSTSet:
    """EDSTs of ``graph`` by the named method (a key of :data:`METHODS`).

    Parameters
    ----------
    graph : StarProduct, RelabelledProduct, ArrayGraph or networkx.Graph
        Any graph for ``"auto"``, ``"generic"``, ``"shallow"`` and ``"optimal-depth"`` (a networkx graph's trees
        are index arrays of its nodes in sorted order, :func:`~starlib.graphs.as_graph`); a star product for the
        others.
    method : str
        A key of :data:`METHODS`.
    g_trees, h_trees : optional
        EDST sets of the factors (product methods only).

    Returns
    -------
    EDSTSet
        The trees, each tagged with its construction, root and depth (``.theorem`` names the result applied).

    Raises
    ------
    ValueError
        If ``method`` is unknown, or the method does not apply to the graph (``graph: method=maximum needs a
        star product ...``).
    TypeError
        If ``graph`` is not a graph (None, a string).

    Examples
    --------
    >>> from starlib.networks import bundlefly
    >>> s = edsts(bundlefly(3, 5), "maximum")
    >>> len(s), s.theorem
    (3, 'V-C.10')
    >>> import networkx as nx
    >>> len(edsts(nx.complete_graph(6), "generic"))
    3
    """
    return get_method(method)(graph, g_trees, h_trees)


def get_method(name: str) -> Method:
    """The record of a method by name.

    >>> get_method("maximum").product_only
    True
    >>> get_method("best")
    Traceback (most recent call last):
    ...
    ValueError: method='best' is not one of universal, low-depth, maximum, twisted, property, generic, auto, \
shallow, optimal-depth
    """
    if name not in METHODS:
        raise ValueError(f"method={name!r} is not one of {', '.join(METHODS)}")
    return METHODS[name]
