"""The depth floor of :mod:`starlib.edst`: how deep a family of EDSTs must be, and families made shallow.

==================  ============================================================================================
module              contents
==================  ============================================================================================
:mod:`.bound`       :class:`DepthBound`, :func:`depth_lower_bound`: a depth no family of ``k`` EDSTs can beat
                    (radius and degree budgets; the proof is in the module text)
:mod:`.search`      :func:`improve_depth`: the local search that keeps the count and never deepens a family
:mod:`.shallow`     :func:`shallow_trees` (``METHODS["shallow"]``): the most trees starlib can build, then the
                    least depth; :class:`ShallowStart`, :func:`shallow_starts`, :func:`shallowest`,
                    :func:`shallow_factor_trees`
:mod:`.er`          :func:`er_shallow_trees`: ER_q at the bound ``floor((q+1)/2)`` and depth 4 (the lifted
                    clusters of :mod:`starlib.edst.factor.er`, the local search, a repair of the deep vertices)
:mod:`.exact`       :func:`optimal_depth` (:class:`DepthOptimum`): the least depth of ``k`` EDSTs, proved by OR-tools
                    CP-SAT (the ``exact`` extra; imported when called); :func:`depth_feasible` (one depth,
                    :class:`DepthSolve`); :func:`optimal_depth_trees` (``METHODS["optimal-depth"]``);
                    :func:`small_instances`, :func:`settle_small` (the instances it settles, as table rows);
                    :func:`vertex_transitive`
==================  ============================================================================================

This floor uses the floors below (primitives, factor packings, product constructions). Its sibling modules import
one another's public names: ``search`` offers :func:`~.search.improve_depth` and, for the ER_q repair,
:func:`~.search.graph_index` (adjacency with edge ids) and :func:`~.search.below` (compiled: the subtree test);
``shallow`` uses ``bound``, ``search`` and ``er``; ``exact`` uses ``bound`` and ``shallow``.

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import auto_trees
>>> P = slimfly(5)
>>> S = improve_depth(P, auto_trees(P))
>>> depth_lower_bound(P, len(S)).value <= max(S.depths())
True
"""

from .bound import DepthBound, depth_lower_bound
from .er import er_shallow_trees
from .exact import (
    DepthOptimum,
    DepthSolve,
    depth_feasible,
    optimal_depth,
    optimal_depth_trees,
    settle_small,
    small_instances,
    vertex_transitive,
)
from .search import improve_depth
from .shallow import ShallowStart, shallow_factor_trees, shallow_starts, shallow_trees, shallowest

__all__ = ["DepthBound", "depth_lower_bound", "improve_depth", "ShallowStart", "shallow_starts", "shallow_trees",
           "shallowest", "shallow_factor_trees", "er_shallow_trees", "DepthOptimum", "DepthSolve",
           "depth_feasible", "optimal_depth", "optimal_depth_trees", "settle_small", "small_instances",
           "vertex_transitive"]
