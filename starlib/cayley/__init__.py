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

import functools

from ..edst.packing import generic_seconds
from ..memory import default_memory_limit, format_bytes
from ..registry import Family, Param, family_table
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
    BUILDERS,
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


def largest_k(family: str, max_memory: int | None = None) -> int:
    """The largest ``k <= MAX_K`` whose graph (every ``l, n`` with ``n*l + 1 = k``) fits the memory limit.

    Parameters
    ----------
    family : str
        Command-line name or abbreviation.
    max_memory : int, optional
        Bytes (default: :func:`~starlib.memory.default_memory_limit`).

    Returns
    -------
    int

    Examples
    --------
    >>> largest_k("star", max_memory=2**30), largest_k("transposition", max_memory=2**30)
    (9, 8)
    """
    limit = default_memory_limit() if max_memory is None else max_memory
    info = family_info(family)
    best = 2
    for k in range(3, MAX_K + 1):
        splits = [{"k": k}] if info.params == ("k",) else \
            [{"l": l, "n": (k - 1) // l} for l in range(2, k) if (k - 1) % l == 0]
        if all(cayley_size(info.name, **p).peak_bytes <= limit for p in splits):
            best = k
        else:
            break
    return best


def _k_rule(name: str, text: str) -> str:
    """The rule of ``k`` with the range that fits the default memory limit (``k <= MAX_K`` at most), and the range
    whose EDSTs finish: these graphs have no structured packing, so ``edsts`` runs the exact generic packing,
    whose time is estimated by :func:`~starlib.edst.packing.generic_seconds`."""
    kmax, limit = largest_k(name), default_memory_limit()
    tail = "" if kmax == MAX_K else f"; k = {kmax + 1} needs more than the memory limit of {format_bytes(limit)}"
    k_edsts = max((k for k in range(2, kmax + 1) if _edst_seconds(name, k) <= 3600), default=2)
    return f"{text}{kmax} (k! nodes{tail}; EDSTs within an hour for k <= {k_edsts})"


def _edst_seconds(name: str, k: int) -> float:
    """The generic packing's estimated time on the family's largest graph with this ``k``."""
    info = family_info(name)
    splits = [{"k": k}] if info.params == ("k",) else \
        [{"l": l, "n": (k - 1) // l} for l in range(2, k) if (k - 1) % l == 0]
    return max((generic_seconds(cayley_size(info.name, **p).m) for p in splits), default=0.0)


def _network_families() -> dict[str, Family]:
    def params(name: str, info) -> dict[str, Param]:
        if info.params == ("k",):
            return {"k": Param(int, _k_rule(name, "integer 2 <= k <= "))}
        return {"l": Param(int, "integer l >= 2 (boxes)"),
                "n": Param(int, _k_rule(name, "integer n >= 1 (balls per box), k = n*l + 1 <= "))}
    return family_table(*(Family(name, BUILDERS[name], params(name, info),
                                 (BUILDERS[name].__doc__ or "").strip().splitlines()[0], kind="cayley",
                                 size=functools.partial(cayley_size, name))
                          for name, info in FAMILIES.items()))


#: The super Cayley families as network families for the command line (``starlib.registry.Family`` records).
NETWORK_FAMILIES: dict[str, Family] = _network_families()
