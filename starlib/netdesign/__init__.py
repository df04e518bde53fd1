"""Network design from the working notes on an all-to-all network of compute nodes and routers.

The network-design notes (working notes, sections 1-10 with eqs. (1)-(22) and Figs. 1-21; cited here by their
own section, equation and figure numbers) model an all-to-all network of ``N`` compute nodes with ``n`` ports
each and ``M`` routers with ``m`` ports each as a *database of connections*: compute nodes are negative
integers, routers positive integers, and every link is a pair ``[x, y]``. One module per topic:

==========================================  =====================================================================
module                                      the notes
==========================================  =====================================================================
:mod:`~starlib.netdesign.routers`           section 6: router counts (:func:`tree_levels`, :func:`max_routers`,
                                            :func:`min_routers`)
:mod:`~starlib.netdesign.bisection`         section 8.1.1: how many bisections, how many picks
                                            (:func:`balanced_bipartitions`, :func:`bisection_picks`, ...)
:mod:`~starlib.netdesign.database`          sections 1.3 and 4: the database and its validity rules
                                            (:func:`validate_connections`, ...)
:mod:`~starlib.netdesign.hops`              sections 1.3, 5, 8.2 and 8.3: router-only hop counts
                                            (:func:`router_hops`, :func:`all_pairs_hops`, :func:`hop_statistics`)
:mod:`~starlib.netdesign.constructions`     sections 1.3, 4 and 6: toy networks, Solutions 1 and 2, random
                                            networks (:func:`tree_network`, :func:`daisy_chain`, ...)
:mod:`~starlib.netdesign.alterations`       section 7: the three alterations (:func:`alter`, ...)
:mod:`~starlib.netdesign.fitness`           sections 8.1 and 8.4: bisection width, cost, the weighted score
:mod:`~starlib.netdesign.evolution`         sections 7 and 8.4: a (1+1) evolutionary search (:func:`evolve`)
:mod:`~starlib.netdesign.families`          the networks above as command-line families (:data:`NETWORK_FAMILIES`)
==========================================  =====================================================================

Typical use
-----------
>>> db = daisy_chain(8, 5)                      # Fig. 11 of the notes: two 5-port routers, 4 + 4 nodes
>>> hop_statistics(db).histogram                # pairs at 1 and 2 hops, as Fig. 5 counts them
{1: 12, 2: 16}
>>> bisection_width(db).width
1

Hop counts are the number of *routers* on a path by default (section 1.3: one shared router is one
hop); ``count="links"`` counts links instead (one more), the convention of the notes' Fig. 21.
"""

from __future__ import annotations

from .alterations import (
    MOVES,
    alter,
    alter_rows,
    rewire,
    set_swap_decompositions,
    swap_compute_connections,
    swap_connection_sets,
    swap_router_connections,
)
from .bisection import (
    balanced_bipartitions,
    bisection_confidence,
    bisection_picks,
    monte_carlo_confidence,
    network_partitions,
)
from .constructions import daisy_chain, random_network, single_port_network, tree_network
from .database import (
    NOTES_EXAMPLE_CONNECTIONS,
    NetworkIndex,
    canonical_connections,
    check_compute_label,
    compute_nodes,
    is_valid_connections,
    port_counts,
    router_labels,
    to_array_graph,
    validate_connections,
)
from .evolution import EvolutionResult, evolve
from .families import NETWORK_FAMILIES
from .fitness import BisectionResult, Scorer, bisection_width, cut_width, network_cost, weighted_score, weighted_scorer
from .hops import HOP_COUNTS, HopStatistics, all_pairs_hops, hop_matrix, hop_statistics, router_hops
from .routers import check_tree_parameters, max_routers, min_routers, tree_levels

__all__ = [
    "NETWORK_FAMILIES",
    "NOTES_EXAMPLE_CONNECTIONS",
    "MOVES",
    "HOP_COUNTS",
    "check_tree_parameters",
    "tree_levels",
    "max_routers",
    "min_routers",
    "balanced_bipartitions",
    "network_partitions",
    "bisection_confidence",
    "bisection_picks",
    "monte_carlo_confidence",
    "canonical_connections",
    "NetworkIndex",
    "check_compute_label",
    "validate_connections",
    "is_valid_connections",
    "compute_nodes",
    "router_labels",
    "port_counts",
    "to_array_graph",
    "router_hops",
    "hop_matrix",
    "all_pairs_hops",
    "HopStatistics",
    "hop_statistics",
    "single_port_network",
    "daisy_chain",
    "tree_network",
    "random_network",
    "rewire",
    "swap_compute_connections",
    "swap_router_connections",
    "swap_connection_sets",
    "alter",
    "alter_rows",
    "set_swap_decompositions",
    "BisectionResult",
    "bisection_width",
    "cut_width",
    "network_cost",
    "Scorer",
    "weighted_scorer",
    "weighted_score",
    "EvolutionResult",
    "evolve",
]
