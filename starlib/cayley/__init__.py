"""Super Cayley graphs (Yeh, Varvarigos and Lee, "Routing and embeddings in super Cayley graphs", PaCT 1999).

Nodes are permutations of ``k = n*l + 1`` symbols: an outside ball (position 1) and ``l`` boxes of
``n`` balls. Nucleus generators (transpositions ``T_i``, insertions ``I_i``, selections ``I_i^-1``)
permute the outside ball and the first box; super generators (swaps ``S_{n,i}``, rotations ``R^i``)
move whole boxes. The package is split by what it holds:

- :mod:`~starlib.cayley.permutations` S_k as a ``(k!, k)`` array, Lehmer ranks, composition;
- :mod:`~starlib.cayley.generators` the generators as named position maps (Section 2.2);
- :mod:`~starlib.cayley.families` the thirteen families as Cayley graphs, degrees, BFS diameters;
- :mod:`~starlib.cayley.emulation` the star-graph emulation words (Theorems 1-3), congestion, and the
  transposition-network word table (Theorems 6-7);
- :mod:`~starlib.cayley.schedules` all-port emulation schedules (Theorems 4-5, Figure 1), their checker,
  an exact minimum-length schedule by integer programming;
- :mod:`~starlib.cayley.communication` MNB / TE time bounds (Corollaries 2-3).

Every family is a network family of the command line (:data:`NETWORK_FAMILIES`):
``python -m starlib build macro-star l=2 n=3``.

Example
-------
>>> from starlib.cayley import macro_star, star_emulation_words, check_words
>>> g = macro_star(2, 2)
>>> g.n, g.degree_set()
(120, [3])
>>> words = star_emulation_words("MS", l=2, n=2)
>>> check_words(words).max_length        # Theorem 1: dilation 3
3
"""

from __future__ import annotations

from ..family import Family, declared_in, family_table
from . import families
from .communication import (
    allport_slowdown_claim,
    mnb_lower_bound,
    moore_distance_sum,
    star_distance_sum,
    star_mnb_time,
    te_lower_bound,
)
from .emulation import (
    WordCheck,
    check_words,
    embedding_congestion,
    link_ids,
    node_level_check,
    star_emulation_words,
    tn_embedding_words,
    tn_word_case,
)
from .families import (
    FAMILIES,
    ROTATION_CHOICES,
    bubble_sort_graph,
    build_family,
    cayley_diameter,
    cayley_distances,
    cayley_graph,
    cayley_size,
    check_ln,
    complete_rotation_insertion_selection,
    complete_rotation_rotator,
    complete_rotation_star,
    degree,
    distinct_generators,
    family_info,
    family_instances,
    generator_set,
    insertion_selection,
    is_inverse_closed,
    largest_k,
    macro_insertion_selection,
    macro_rotator,
    macro_star,
    network_invariants,
    rotation_insertion_selection,
    rotation_rotator,
    rotation_set_diameters,
    rotation_star,
    star_graph,
    transposition_network,
)
from .generators import Generator, insertion, rotation, selection, swap, transposition, word_map, word_names
from .permutations import MAX_K, PermutationSpace, all_permutations, compose, inverse, lehmer_rank
from .schedules import (
    FIGURE1_PRINTED,
    Schedule,
    allport_schedule,
    check_schedule,
    compare_printed,
    decode_printed_rows,
    figure_table,
    optimal_schedule_length,
    paper_allport_schedule,
    simulate_schedule,
)

__all__ = [
    "NETWORK_FAMILIES", "MAX_K", "PermutationSpace", "all_permutations", "compose", "inverse", "lehmer_rank",
    "Generator", "insertion", "rotation", "selection", "swap", "transposition", "word_map", "word_names",
    "FAMILIES", "family_info", "check_ln", "generator_set", "distinct_generators", "is_inverse_closed", "degree",
    "cayley_graph", "cayley_distances", "cayley_diameter", "build_family", "family_instances",
    "network_invariants", "ROTATION_CHOICES", "rotation_set_diameters", "cayley_size", "largest_k",
    "star_graph", "bubble_sort_graph", "transposition_network", "insertion_selection", "macro_star",
    "rotation_star", "complete_rotation_star", "macro_rotator", "rotation_rotator", "complete_rotation_rotator",
    "macro_insertion_selection", "rotation_insertion_selection", "complete_rotation_insertion_selection",
    "WordCheck", "check_words", "embedding_congestion", "link_ids", "node_level_check", "star_emulation_words",
    "tn_embedding_words", "tn_word_case",
    "FIGURE1_PRINTED", "Schedule", "allport_schedule", "check_schedule", "compare_printed", "decode_printed_rows",
    "figure_table",
    "optimal_schedule_length", "paper_allport_schedule", "simulate_schedule",
    "allport_slowdown_claim", "mnb_lower_bound", "moore_distance_sum", "star_distance_sum", "star_mnb_time",
    "te_lower_bound",
]


#: The super Cayley families as network families for the command line, declared beside their builders.
NETWORK_FAMILIES: dict[str, Family] = family_table(declared_in(families))
