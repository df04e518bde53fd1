"""ER_q (PolarFly) at the factor floor: the Singer model, the EDST families at the bound, streamed and checked.

Example
-------
>>> trees = er_edsts(7)
>>> len(trees), er_edst_bound(7)
(4, 4)
"""

from .check import IsomorphismCheck, SingerChecker, TreeCheck, check_singer_isomorphism, family_sha256
from .clusters import ClusterLayout, cluster_layout, double_stars, lifted_cluster_trees, odd_cluster_trees
from .families import (
    er_edst_bound,
    er_edsts,
    hamiltonian_path_orders,
    singer_labels_of,
    singer_pairing,
    verify_singer_edsts,
)
from .repair import complete_last_tree
from .singer import SingerModel, is_perfect_difference_set, singer_graph, singer_model
from .stream import ErTreeStream, er_tree_stream

__all__ = ["ClusterLayout", "ErTreeStream", "IsomorphismCheck", "SingerChecker", "SingerModel", "TreeCheck",
           "check_singer_isomorphism", "cluster_layout", "complete_last_tree", "double_stars", "er_edst_bound",
           "er_edsts", "er_tree_stream", "family_sha256", "hamiltonian_path_orders", "is_perfect_difference_set",
           "lifted_cluster_trees", "odd_cluster_trees", "singer_graph", "singer_labels_of", "singer_model",
           "singer_pairing", "verify_singer_edsts"]
