"""What edge-disjoint spanning trees buy: a pipelined allreduce model over ``k`` trees, and link-failure resilience.

The star-product paper (Isham et al., "Edge-Disjoint Spanning Trees on Star Products") motivates many
edge-disjoint spanning trees (EDSTs) by collective bandwidth and fault tolerance (section I-B) and weighs more
trees against shallower ones (section VI, Discussion). This package puts numbers on both:

=========================================  =====================================================================
module                                     contents
=========================================  =====================================================================
:mod:`~starlib.allreduce.timing`           the allreduce time over ``k`` trees of given heights (latency-bandwidth
                                           model, pipelined chunks, equal or balanced split), crossover sizes,
                                           tree heights and an event simulation of the pipeline
:mod:`~starlib.allreduce.resilience`       how many trees survive independent or exactly-``F`` link failures, in
                                           closed form and by Monte Carlo
:mod:`~starlib.allreduce.optimum`          exact optimum and bound (fractions, minimum cuts): ForestColl's cut
                                           ratio and its reduce-scatter + allgather time, the strength and the
                                           lower bound no allreduce beats (docs/collectives.md)
:mod:`~starlib.allreduce.schedule`         a collective schedule as message streams over the network's links:
                                           what the simulators and the exports run
:mod:`~starlib.allreduce.schedules`        every allreduce schedule of the comparison (trees, weighted trees,
                                           rings, double binary tree, halving-doubling, ...) built into one
:mod:`~starlib.allreduce.hamiltonian`      Hamiltonian cycles, one or several edge-disjoint: the rings' routes
=========================================  =====================================================================

Example
-------
>>> round(allreduce_time([1], 16.0, alpha=1.0, beta=1.0), 9)   # s* = 4 chunks: (1 + 4)^2
25.0
>>> intact_expected(2, 4, 0.5)
0.25
"""

from __future__ import annotations

from .optimum import (
    CutRatio,
    Strength,
    allreduce_lower_bound_us,
    cut_ratio,
    forestcoll_time_us,
    strength,
)
from .resilience import (
    any_intact_probability,
    failure_patterns,
    intact_counts,
    intact_expected,
    intact_expected_fixed,
    intact_std,
    intact_std_fixed,
    simulate_failures,
    tree_owner,
)
from .timing import (
    allreduce_time,
    balanced_split,
    best_chunks,
    crossover_closed_form,
    crossover_size,
    pipelined_time,
    simulate_pipeline_steps,
    tree_height,
    tree_time,
)

__all__ = ["pipelined_time", "best_chunks", "tree_time", "allreduce_time", "balanced_split",
           "crossover_size", "crossover_closed_form", "simulate_pipeline_steps", "tree_height",
           "intact_expected", "intact_expected_fixed", "intact_std", "intact_std_fixed", "any_intact_probability",
           "tree_owner", "failure_patterns", "intact_counts", "simulate_failures",
           "CutRatio", "Strength", "cut_ratio", "strength", "allreduce_lower_bound_us", "forestcoll_time_us"]
