"""ER_q (PolarFly) at the factor floor: the Singer model, the EDST families at the bound, streamed and checked.

ER_q has ``n = q^2 + q + 1`` vertices and at most ``floor((q+1)/2)`` edge-disjoint spanning trees; the families
here reach that bound for every prime power tried (docs/er-edsts.md). A graph is ER_q for starlib when its builder
marked it so (:func:`er_order`), not by its name.

Public API (re-exported here, and the first group also by :mod:`starlib.edst.factor` and :mod:`starlib.edst`)
---------------------------------------------------------------------------------------------------------------
* families: :func:`er_edsts` (Construction A, the low-depth lifted clusters, the matroid repair),
  :func:`er_edst_bound`, :func:`singer_pairing`, :func:`verify_singer_edsts`; the Singer model
  :class:`SingerModel`, :func:`singer_model`, :func:`singer_graph`;
* the marker: :func:`er_order` (``q`` of a graph marked as ER_q, else None) and :data:`ER_ORDER_KEY`;
* streamed and checked tree by tree (the sweep of :mod:`starlib.sweep.er`): :func:`er_tree_stream`,
  :class:`SingerChecker`, :func:`check_singer_isomorphism`, :func:`family_sha256`;
* the building blocks, for tests and notebooks: :func:`cluster_layout`, :func:`lifted_cluster_trees`,
  :func:`odd_cluster_trees`, :func:`complete_last_tree`, :func:`double_stars`, :func:`hamiltonian_path_orders`,
  :func:`singer_labels_of`, :func:`is_perfect_difference_set`.

Internal API: what each module offers its siblings
--------------------------------------------------
The modules import one another's public (non-underscore) names only, each listed in that module's ``__all__``;
everything with a leading underscore stays inside its module. In import order (each uses only those above it):

==============  ====================================================================================================
module          offers
==============  ====================================================================================================
``singer``      :class:`SingerModel` (``D``, ``in_D``, ``point_tables``, ``index_of_points``, ``edges``, ...),
                :func:`singer_model`, :func:`singer_graph`, :func:`is_perfect_difference_set`, :func:`er_order`,
                :data:`ER_ORDER_KEY`
``layout``      the cluster layout around an absolute point ``w``: :class:`~.layout.ClusterLayout` and
                :func:`~.layout.cluster_layout` (every edge classified, ``O(m)``), :class:`~.layout.EdgeIds` (its
                edge-id lookups), the edge kinds ``W_EDGE, STAR, INTERNAL, MATCHING``; without the edges:
                :func:`~.layout.layout_base` (the vertex part, ``O(n)``) and :func:`~.layout.partner` (compiled:
                the common neighbour of two vertices, from the difference table of ``D``)
``depths``      per-tree depths for the choices, compiled: :func:`~.depths.depth_at`, :func:`~.depths.depth_row`
                (over a BFS table or a depth rule); the table: :func:`~.depths.tree_depths`,
                :func:`~.depths.extend_depths`; the rule: :func:`~.depths.lifted_depth`,
                :func:`~.depths.lifted_anchors`
``choices``     the ``O(q^2)`` choices of Construction C and the odd-q design, shared by ``clusters`` and
                ``stream``: :func:`~.choices.double_stars`, :func:`~.choices.double_star_rows`,
                :func:`~.choices.max_matching`, :func:`~.choices.complete_matching`, :func:`~.choices.hang_centres`,
                :func:`~.choices.hung`, :func:`~.choices.reserve_stars`, :func:`~.choices.plan_free_stars`,
                :func:`~.choices.flow_selection`, :func:`~.choices.xz_edges`, :func:`~.choices.zstar_vertices`
``clusters``    the trees built in memory on the layout: :func:`~.clusters.lifted_cluster_trees`,
                :func:`~.clusters.odd_cluster_trees`
``repair``      :func:`~.repair.complete_last_tree` (Construction D: the last tree by matroid-partition swaps)
``families``    :func:`er_edsts` and its parts: :func:`er_edst_bound`, :func:`singer_pairing`,
                :func:`hamiltonian_path_orders`, :func:`singer_labels_of`, :func:`verify_singer_edsts`,
                ``METHODS``
``stream``      :func:`er_tree_stream`, :class:`ErTreeStream` (the families of ``families`` tree by tree, in
                ``O(n)`` memory, on ``layout_base``, ``partner``, ``depths``' rule and ``choices``),
                ``FAMILIES``, ``FALLBACK_MAX_Q``
``check``       :class:`SingerChecker`, :class:`TreeCheck`, :func:`check_singer_isomorphism`,
                :class:`IsomorphismCheck`, :func:`family_sha256`
==============  ====================================================================================================

Outside the package only the re-exports above are used (``from starlib.edst.factor.er import er_edsts``), except
by the tests of its modules.

Example
-------
>>> from starlib.factors import polarfly
>>> G = polarfly(7)
>>> q = er_order(G)
>>> trees = er_edsts(q, "low-depth", graph=G)
>>> len(trees), er_edst_bound(q), trees.constructions()[-1]
(4, 4, 'ER-F')

References
----------
docs/er-edsts.md (the Singer model, Constructions A, C, D, the odd-q tree, the depth lower bound).
"""

from .check import IsomorphismCheck, SingerChecker, TreeCheck, check_singer_isomorphism, family_sha256
from .choices import double_stars
from .clusters import lifted_cluster_trees, odd_cluster_trees
from .families import (
    er_edst_bound,
    er_edsts,
    hamiltonian_path_orders,
    singer_labels_of,
    singer_pairing,
    verify_singer_edsts,
)
from .layout import ClusterLayout, cluster_layout
from .repair import complete_last_tree
from .singer import ER_ORDER_KEY, SingerModel, er_order, is_perfect_difference_set, singer_graph, singer_model
from .stream import ErTreeStream, er_tree_stream

__all__ = ["ER_ORDER_KEY", "ClusterLayout", "ErTreeStream", "IsomorphismCheck", "SingerChecker", "SingerModel",
           "TreeCheck", "check_singer_isomorphism", "cluster_layout", "complete_last_tree", "double_stars",
           "er_edst_bound", "er_edsts", "er_order", "er_tree_stream", "family_sha256", "hamiltonian_path_orders",
           "is_perfect_difference_set", "lifted_cluster_trees", "odd_cluster_trees", "singer_graph",
           "singer_labels_of", "singer_model", "singer_pairing", "verify_singer_edsts"]
