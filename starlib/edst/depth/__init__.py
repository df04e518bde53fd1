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
:mod:`.er3`         :func:`er_depth3_trees`: ER_q at the bound and depth 3 (the optimum), from committed families
                    found by a symmetric CP-SAT search, every prime power ``q <= 61``
:mod:`.slimfly`     :func:`slimfly_shallow_trees`: Slim Fly MMS(q) at its maximum count, depth <= 4 measured for
                    every admissible ``q <= 128`` (the count and the lower bound 3 proved, the depth not)
:mod:`.slimfly3`    :func:`slimfly_depth3_trees`: Slim Fly MMS(q) at its maximum count and depth 3 (the optimum),
                    from committed families found by CP-SAT (``q = 7``)
:mod:`.record`      :func:`~.record.read_parent_record`: reads the committed families of ``er3`` and ``slimfly3``
:mod:`.weighted`    :func:`weighted_trees` (:class:`WeightedFamily`): ``floor(r sigma)`` spanning trees of weight
                    ``1/r``, every link in at most ``r`` (the exact packer on the ``r``-fold graph, then the
                    search), ``r`` the least bringing the total within 5 % of ``m/(n-1)``; :func:`verify_weighted`
:mod:`.target`      :func:`repair_to_depth`, :func:`deepen_search`: the targeted repair of the deep vertices at any
                    target depth, on any graph (ER_q's repair plus simulated annealing on the excess depth)
:mod:`.coupled`     :func:`coupled_depth_bound` (:class:`CoupledDepthBound`): the depth bound that couples the trees
                    (an integer program over roots, levels and edge-disjoint parent arcs, solved by HiGHS)
:mod:`.exact`       :func:`optimal_depth` (:class:`DepthOptimum`): the least depth of ``k`` EDSTs, proved by OR-tools
                    CP-SAT (the ``exact`` extra; imported when called); :func:`depth_feasible` (one depth,
                    :class:`DepthSolve`); :func:`optimal_depth_trees` (``METHODS["optimal-depth"]``);
                    :func:`small_instances`, :func:`settle_small` (the instances it settles, as table rows);
                    :func:`vertex_transitive`
==================  ============================================================================================

This floor uses the floors below (primitives, factor packings, product constructions). Its sibling modules import
one another's public names: ``search`` offers :func:`~.search.improve_depth` and, for the ER_q repair,
:func:`~.search.graph_index` (adjacency with edge ids) and :func:`~.search.below` (compiled: the subtree test);
``er``'s compiled exchanges (:func:`~.er.repair_family` and its kernels) serve ``target`` and ``slimfly``;
``er3`` and ``slimfly3`` read their records through ``record`` (``slimfly3``'s search, which needs ``exact``, is in
``tools/slimfly_depth3.py``: ``exact`` uses ``shallow``, which reads ``slimfly3``); ``shallow`` uses ``bound``,
``search``, ``er``, ``er3``, ``slimfly``, ``slimfly3`` and ``target``; ``exact`` and ``coupled`` use ``bound``
(and ``exact`` ``shallow``); ``weighted`` uses ``search``.

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
from .coupled import CoupledDepthBound, coupled_depth_bound
from .er import er_shallow_trees
from .er3 import er_depth3_trees
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
from .slimfly import slimfly_shallow_trees
from .slimfly3 import slimfly_depth3_trees
from .target import deepen_search, repair_to_depth
from .weighted import WeightedFamily, verify_weighted, weighted_trees

__all__ = ["DepthBound", "depth_lower_bound", "improve_depth", "ShallowStart", "shallow_starts", "shallow_trees",
           "shallowest", "shallow_factor_trees", "er_shallow_trees", "DepthOptimum", "DepthSolve",
           "depth_feasible", "optimal_depth", "optimal_depth_trees", "settle_small", "small_instances",
           "vertex_transitive", "CoupledDepthBound", "coupled_depth_bound", "er_depth3_trees",
           "slimfly_shallow_trees", "slimfly_depth3_trees", "deepen_search", "repair_to_depth", "WeightedFamily",
           "weighted_trees", "verify_weighted"]
