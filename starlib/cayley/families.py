"""Super Cayley graphs and their relatives as Cayley graphs on S_k (Yeh, Varvarigos and Lee, Section 2).

Each family is a list of named generators (:func:`generator_set`); its Cayley graph has the
``k!`` permutations as nodes and an arc ``U -> U[g]`` for every generator ``g``. A graph is
*undirected* when its generator set is closed under inverses (then every arc has its reverse
and the pair is one link), *directed* otherwise. The choices made where the paper leaves room:

- ``RS(l, n)`` and ``RIS(l, n)`` use the rotations ``R`` and ``R^-1`` (undirected);
  ``complete-RS``, ``complete-RR`` and ``complete-RIS`` use all of ``R^1 .. R^(l-1)``.
- ``MR``, ``RR`` and ``complete-RR`` use the insertions ``I_2 .. I_(n+1)`` only (as in rotator
  graphs) and ``RR`` a single rotation ``R``; they are directed unless every generator happens to
  be an involution (``n = 1``, and ``l = 2`` for ``RR``), in which case the graph is undirected.
- Coincident generators (``I_2 = I_2^-1``; ``R = R^-1`` when ``l = 2``) are **one link** in the
  graph built here (``ArrayGraph`` is a simple graph); with ``coincident="parallel"`` the degree
  counts them as parallel links. Which convention a claim needs is decided in
  :mod:`starlib.cayley.emulation` and :mod:`starlib.cayley.schedules`.

Node labels are permutation tuples of ``1..k``; node ``i`` has lexicographic rank ``i``.

Example
-------
>>> g = macro_star(2, 2)
>>> g.n, g.degree_set(), g.directed, cayley_diameter(5, generator_set("MS", l=2, n=2))
(120, [3], False, 8)
>>> [x.name for x in generator_set("complete-RIS", l=3, n=2)]
['I_2', 'I_3', 'I_2^-1', 'I_3^-1', 'R^1', 'R^2']
"""

from __future__ import annotations

import dataclasses
import functools
import math
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..edst.packing import generic_seconds
from ..family import Param, family, integer
from ..graphs import ArrayGraph, canonical_edges
from ..memory import Size, check_size, default_memory_limit, format_bytes
from ..validation import check_choice
from .generators import Generator, insertion, rotation, selection, swap, transposition
from .permutations import MAX_K, PermutationSpace, check_k, check_ln, identity, inverse

__all__ = [
    "FAMILIES", "FamilyInfo", "family_info", "family_k", "check_ln", "check_k", "generator_set", "distinct_generators",
    "is_inverse_closed", "degree", "cayley_graph", "cayley_distances", "cayley_diameter",
    "star_graph", "bubble_sort_graph", "transposition_network", "insertion_selection",
    "macro_star", "rotation_star", "complete_rotation_star", "macro_rotator", "rotation_rotator",
    "complete_rotation_rotator", "macro_insertion_selection", "rotation_insertion_selection",
    "complete_rotation_insertion_selection", "build_family", "family_instances", "network_invariants", "BUILDERS",
    "ROTATION_CHOICES", "rotation_set_diameters", "cayley_size", "largest_k",
]


@dataclass(frozen=True)
class FamilyInfo:
    """A family: its names, generators and parameters, and what the docstring of its builder says about it.

    Attributes
    ----------
    name : str
        Command-line name (``"macro-star"``).
    abbrev : str
        The paper's abbreviation (``"MS"``).
    nucleus : str
        A key of ``_NUCLEUS``: ``"T"`` transpositions ``T_2..T_m``, ``"I"`` insertions ``I_2..I_m``, ``"IS"``
        insertions and selections, with ``m = n + 1`` (``m = k`` for star and IS); ``"bubble"``, ``"TN"``.
    boxes : str
        A key of ``_SUPER``: ``"S"`` swaps, ``"R"`` ``R`` and ``R^-1``, ``"R+"`` ``R`` only, ``"Rall"``
        ``R^1..R^(l-1)``, ``""`` none.
    params : tuple of str
        ``("k",)`` or ``("l", "n")``.
    func : str
        Name of the public builder (``"macro_star"``).
    doc : str
        The builder's docstring without the sections every builder shares: the text (generators, direction,
        degree), then the example from the first ``>>>`` on. The ``l``-level families get the first line
        ``The {abbrev}(l, n) network (command line: ``{name} l= n=``).`` put in front.
    """

    name: str
    abbrev: str
    nucleus: str
    boxes: str
    params: tuple[str, ...]
    func: str
    doc: str


FAMILIES: dict[str, FamilyInfo] = {f.name: f for f in [
    FamilyInfo("star", "star", "T", "", ("k",), "star_graph", """
        The k-dimensional star graph (generators ``T_2 .. T_k``; Akers and Krishnamurthy).

        Undirected; degree ``k - 1``, diameter ``floor(3(k-1)/2)``.
        >>> g = star_graph(4)
        >>> g.n, g.degree_set(), g.diameter()
        (24, [3], 4)
        """),
    FamilyInfo("bubble-sort", "BS", "bubble", "", ("k",), "bubble_sort_graph", """
        The k-dimensional bubble-sort graph (adjacent transpositions ``T_{i,i+1}``).

        Undirected; degree ``k - 1``, diameter ``k(k-1)/2``.
        >>> bubble_sort_graph(4).diameter()
        6
        """),
    FamilyInfo("transposition", "TN", "TN", "", ("k",), "transposition_network", """
        The k-dimensional transposition network k-TN (all ``T_{i,j}``; Section 5).

        Undirected; degree ``k(k-1)/2``, diameter ``k - 1``.
        >>> g = transposition_network(4)
        >>> g.degree_set(), g.diameter()
        ([6], 3)
        """),
    FamilyInfo("insertion-selection", "IS", "IS", "", ("k",), "insertion_selection", """
        The k-dimensional insertion-selection network IS (``I_2..I_k`` and their inverses; Section 2.2).

        Undirected; ``I_2 = I_2^-1`` is one link, so the degree is ``2k - 3`` (``2k - 2`` with parallel links).
        >>> g = insertion_selection(4)
        >>> g.degree_set(), g.meta["degree_parallel"]
        ([5], 6)
        """),
    FamilyInfo("macro-star", "MS", "T", "S", ("l", "n"), "macro_star", """
        Generators: ``T_2 .. T_(n+1)`` and the swaps ``S_2 .. S_l`` (macro-star, Yeh and Varvarigos [21]).
        Undirected (every generator is an involution); degree ``n + l - 1``.
        >>> g = macro_star(3, 2)
        >>> g.n, g.degree_set()
        (5040, [4])
        """),
    FamilyInfo("rotation-star", "RS", "T", "R", ("l", "n"), "rotation_star", """
        Generators: ``T_2 .. T_(n+1)``, ``R`` and ``R^-1`` (rotation-star).
        Undirected; degree ``n + 2`` (``n + 1`` when ``l = 2``, where ``R = R^-1`` is one link).
        >>> rotation_star(2, 2).degree_set(), rotation_star(3, 1).degree_set()
        ([3], [3])
        """),
    FamilyInfo("complete-rotation-star", "complete-RS", "T", "Rall", ("l", "n"), "complete_rotation_star", """
        Generators: ``T_2 .. T_(n+1)`` and all rotations ``R^1 .. R^(l-1)`` (complete-rotation-star).
        Undirected; degree ``n + l - 1``.
        >>> complete_rotation_star(3, 2).degree_set()
        [4]
        """),
    FamilyInfo("macro-rotator", "MR", "I", "S", ("l", "n"), "macro_rotator", """
        Generators: the insertions ``I_2 .. I_(n+1)`` and the swaps ``S_2 .. S_l`` (macro-rotator).
        Directed for ``n >= 2`` (``I_3`` has no inverse in the set); out-degree ``n + l - 1``.
        >>> g = macro_rotator(2, 2)
        >>> g.directed, g.degree_set()
        (True, [3])
        """),
    FamilyInfo("rotation-rotator", "RR", "I", "R+", ("l", "n"), "rotation_rotator", """
        Generators: the insertions ``I_2 .. I_(n+1)`` and the single rotation ``R`` (rotation-rotator).
        Directed unless ``n = 1`` and ``l = 2``; out-degree ``n + 1``.
        >>> g = rotation_rotator(3, 2)
        >>> g.directed, g.degree_set()
        (True, [3])
        """),
    FamilyInfo("complete-rotation-rotator", "complete-RR", "I", "Rall", ("l", "n"), "complete_rotation_rotator", """
        Generators: the insertions ``I_2 .. I_(n+1)`` and all rotations ``R^1 .. R^(l-1)`` (complete-rotation-rotator).
        Directed for ``n >= 2``; out-degree ``n + l - 1``.
        >>> complete_rotation_rotator(3, 2).degree_set()
        [4]
        """),
    FamilyInfo("macro-insertion-selection", "MIS", "IS", "S", ("l", "n"), "macro_insertion_selection", """
        Generators: ``I_2 .. I_(n+1)``, ``I_2^-1 .. I_(n+1)^-1`` and the swaps ``S_2 .. S_l`` (macro-IS).
        Undirected; degree ``2n + l - 2`` (``2n + l - 1`` counting ``I_2`` and ``I_2^-1`` as parallel links).
        >>> macro_insertion_selection(2, 3).degree_set()
        [6]
        """),
    FamilyInfo("rotation-insertion-selection", "RIS", "IS", "R", ("l", "n"), "rotation_insertion_selection", """
        Generators: ``I_2 .. I_(n+1)``, ``I_2^-1 .. I_(n+1)^-1``, ``R`` and ``R^-1`` (rotation-IS).
        Undirected; degree ``2n + 1`` (``2n`` when ``l = 2``) with coincident generators merged.
        >>> rotation_insertion_selection(3, 2).degree_set()
        [5]
        """),
    FamilyInfo("complete-rotation-insertion-selection", "complete-RIS", "IS", "Rall", ("l", "n"),
               "complete_rotation_insertion_selection", """
        Generators: ``I_2 .. I_(n+1)``, ``I_2^-1 .. I_(n+1)^-1`` and all rotations ``R^1 .. R^(l-1)``
        (complete-rotation-IS).
        Undirected; degree ``2n + l - 2`` with ``I_2 = I_2^-1`` merged.
        >>> complete_rotation_insertion_selection(3, 2).degree_set()
        [5]
        """),
]}
_BY_ABBREV = {f.abbrev: f for f in FAMILIES.values()}


def family_info(family: str, allowed: Sequence[str] | None = None) -> FamilyInfo:
    """Look up a family by command-line name (``"macro-star"``) or abbreviation (``"MS"``).

    Parameters
    ----------
    family : str
    allowed : sequence of str, optional
        Abbreviations of the families a caller accepts (those a theorem is about).

    Returns
    -------
    FamilyInfo

    Raises
    ------
    ValueError
        For an unknown name, listing the known ones, or a family outside ``allowed``, listing those.

    Examples
    --------
    >>> family_info("MS").name
    'macro-star'
    >>> family_info("rotation-star", allowed=("MS", "complete-RS"))
    Traceback (most recent call last):
    ...
    ValueError: family='rotation-star' is not one of 'MS', 'complete-RS'
    """
    info = FAMILIES.get(family) or _BY_ABBREV.get(family)
    if info is None:
        import difflib

        names = [*FAMILIES, *_BY_ABBREV]
        close = difflib.get_close_matches(str(family), names, n=3)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        raise ValueError(f"family={family!r} is not a known Cayley family ({hint}{len(FAMILIES)} families: "
                         f"starlib networks lists them)")
    if allowed is not None and info.abbrev not in allowed:
        check_choice(family, "family", tuple(allowed))     # raises: ``family`` names a family outside ``allowed``
    return info


def family_k(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None,
             build: bool = False, allowed: Sequence[str] | None = None) -> tuple[FamilyInfo, int]:
    """A family's record and its number of symbols ``k``, after checking that it got the parameters it takes.

    Whole-``k`` families (star, BS, TN, IS) take ``k`` only; the ``l``-level families take ``l`` and ``n``
    (and ``k`` only if it equals ``n*l + 1``).

    Parameters
    ----------
    family : str
    k, l, n : int, optional
    build : bool
        The graph will be built (``k <= MAX_K``).
    allowed : sequence of str, optional
        As in :func:`family_info`.

    Returns
    -------
    tuple
        ``(FamilyInfo, k)``.

    Raises
    ------
    ValueError
        For a parameter the family does not take or is missing, or a value against the rules of
        :func:`check_k` / :func:`check_ln`.

    Examples
    --------
    >>> info, k = family_k("MS", l=3, n=2)
    >>> info.name, k
    ('macro-star', 7)
    >>> family_k("star", l=3, n=2)
    Traceback (most recent call last):
    ...
    ValueError: star takes k only (got k=None, l=3, n=2)
    """
    info = family_info(family, allowed)
    if info.params == ("k",):
        if k is None or l is not None or n is not None:
            raise ValueError(f"{info.name} takes k only (got k={k}, l={l}, n={n})")
        return info, check_k(k, build=build)
    if l is None or n is None or (k is not None and k != n * l + 1):
        raise ValueError(f"{info.name} takes l and n (k = n*l + 1; got k={k}, l={l}, n={n})")
    return info, check_ln(l, n, build=build)


#: nucleus generators of each kind on ``k`` positions, acting on positions ``1..m``
_NUCLEUS = {
    "T": lambda k, m: [transposition(k, i) for i in range(2, m + 1)],
    "I": lambda k, m: [insertion(k, i) for i in range(2, m + 1)],
    "IS": lambda k, m: [insertion(k, i) for i in range(2, m + 1)] + [selection(k, i) for i in range(2, m + 1)],
    "bubble": lambda k, m: [transposition(k, i, i + 1) for i in range(1, k)],
    "TN": lambda k, m: [transposition(k, i, j) for i in range(1, k) for j in range(i + 1, k + 1)],
}

#: super generators of each kind for ``l`` boxes of ``n`` balls
_SUPER = {
    "S": lambda k, l, n: [swap(k, n, i) for i in range(2, l + 1)],
    "R": lambda k, l, n: [rotation(k, n, 1, signed_name=True), rotation(k, n, -1, signed_name=True)],
    "R+": lambda k, l, n: [rotation(k, n, 1)],
    "Rall": lambda k, l, n: [rotation(k, n, i) for i in range(1, l)],
    "": lambda k, l, n: [],
}


def generator_set(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None) -> list[Generator]:
    """The generators of a family, in the paper's order (nucleus first, then super generators).

    Parameters
    ----------
    family : str
        Command-line name or abbreviation (``"MS"``, ``"complete-RIS"``, ``"star"``, ...).
    k : int, optional
        For ``star``, ``bubble-sort``, ``transposition``, ``insertion-selection``.
    l, n : int, optional
        For the ``l``-level families; ``k = n*l + 1``.

    Returns
    -------
    list of Generator
        Coincident generators (``I_2`` and ``I_2^-1``; ``R^1`` and ``R^-1`` for ``l = 2``) are both listed.

    Raises
    ------
    ValueError
        For an unknown family, or parameters it does not take (:func:`family_k`).

    Examples
    --------
    >>> [g.name for g in generator_set("MS", l=3, n=2)]
    ['T_2', 'T_3', 'S_2', 'S_3']
    >>> [g.name for g in generator_set("RS", l=2, n=1)]
    ['T_2', 'R^1', 'R^-1']
    """
    info, k = family_k(family, k=k, l=l, n=n)
    if info.params == ("k",):
        return _NUCLEUS[info.nucleus](k, k)
    return _NUCLEUS[info.nucleus](k, n + 1) + _SUPER[info.boxes](k, l, n)


def distinct_generators(gens: Sequence[Generator]) -> list[Generator]:
    """Drop generators whose position map repeats an earlier one (coincident generators are one link).

    Examples
    --------
    >>> [g.name for g in distinct_generators(generator_set("IS", k=4))]
    ['I_2', 'I_3', 'I_4', 'I_3^-1', 'I_4^-1']
    """
    seen: set[tuple[int, ...]] = set()
    out = []
    for g in gens:
        if g.perm not in seen and g.perm != identity(g.k):
            seen.add(g.perm)
            out.append(g)
    return out


def is_inverse_closed(gens: Sequence[Generator]) -> bool:
    """True if the inverse of every generator's map is some generator's map (undirected Cayley graph).

    Examples
    --------
    >>> is_inverse_closed(generator_set("MR", l=2, n=2)), is_inverse_closed(generator_set("MR", l=3, n=1))
    (False, True)
    """
    maps = {g.perm for g in gens}
    return all(inverse(p) in maps for p in maps)


def degree(gens: Sequence[Generator], coincident: str = "merge") -> int:
    """Node degree of the Cayley graph (out-degree if directed).

    Parameters
    ----------
    gens : sequence of Generator
    coincident : {"merge", "parallel"}
        ``"merge"``: number of distinct non-identity maps (the simple graph);
        ``"parallel"``: number of named generators (coincident generators as parallel links).

    Returns
    -------
    int
        Links out of every node.

    Raises
    ------
    ValueError
        For another ``coincident``.

    Examples
    --------
    >>> gens = generator_set("IS", k=5)
    >>> degree(gens), degree(gens, "parallel")
    (7, 8)
    """
    check_choice(coincident, "coincident", ("merge", "parallel"))
    return len(distinct_generators(gens)) if coincident == "merge" else len(gens)


def cayley_graph(k: int, gens: Sequence[Generator], *, name: str = "", params: dict | None = None,
                 space: PermutationSpace | None = None) -> ArrayGraph:
    """The Cayley graph of S_k with the given generators, as an :class:`~starlib.graphs.ArrayGraph`.

    Nodes are the ``k!`` permutation tuples in lexicographic order; one arc ``U -> U[g]`` per node
    and distinct generator map, computed for all nodes at once (numpy gather + Lehmer ranking).
    Undirected (edges ``u < v``) when the generator set is closed under inverses, else directed
    (``directed=True``, arcs sorted and deduplicated).

    Parameters
    ----------
    k : int
        Number of symbols, ``2 <= k <= MAX_K``.
    gens : sequence of Generator
        Position maps on ``k`` positions.
    name : str
        Family name for the graph.
    params : dict, optional
        Parameters recorded on the graph.
    space : PermutationSpace, optional
        Reuse cached neighbour maps.

    Returns
    -------
    ArrayGraph
        ``meta`` holds the generator names, the 1-based maps and both degree conventions.

    Raises
    ------
    ValueError
        For a bad ``k``, a generator on the wrong number of positions, or a graph whose estimated peak memory
        exceeds the memory limit (:func:`~starlib.memory.check_size`), checked before anything is built.

    Examples
    --------
    >>> g = cayley_graph(3, generator_set("star", k=3), name="star")
    >>> g.n, g.m, g.labels[0]
    (6, 6, (1, 2, 3))
    """
    k = check_k(k, build=True)
    check_size(_graph_size(k, gens), dict(params or {"k": k}), name or "cayley_graph")
    sp = _space(k, space)
    for g in gens:
        if g.k != sp.k:
            raise ValueError(f"gens: generator {g.name} acts on {g.k} positions, not k = {sp.k}")
    dist = distinct_generators(gens)
    src = np.arange(sp.size, dtype=np.int64)
    arcs = np.concatenate([np.stack([src, sp.neighbors(g.perm)], axis=1) for g in dist]) if dist else \
        np.zeros((0, 2), dtype=np.int64)
    directed = not is_inverse_closed(dist)
    meta = {"generators": [g.name for g in gens],
            "generator_maps": {g.name: tuple(p + 1 for p in g.perm) for g in gens},
            "degree": len(dist), "degree_parallel": len(gens), "k": k}
    edges = canonical_edges(arcs, sp.size, directed=directed)
    return ArrayGraph(sp.labels(), edges, name=name, params=dict(params or {}), directed=directed, meta=meta)


def _graph_size(k: int, gens: Sequence[Generator]) -> Size:
    """``k!`` nodes and one link per node and distinct generator (half that if undirected); measured peak: 128
    bytes per link and 400 per node (``tracemalloc``), 1.6 times that in resident set (star graph, ``k = 10``:
    3.3 GB for 16.3M links), bounded by 150 per link and 500 per node plus the label tuples."""
    dist = distinct_generators(gens)
    n = math.factorial(k)
    directed = not is_inverse_closed(dist)
    m = n * len(dist) if directed else n * len(dist) // 2
    return dataclasses.replace(Size.of(n, m, 150, 500 + 8 * k), directed=directed)


def cayley_size(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None) -> Size:
    """What a family's Cayley graph would take: ``k!`` nodes, its links and peak bytes, nothing built.

    Parameters
    ----------
    family : str
        Command-line name or abbreviation.
    k, l, n : int, optional
        As for :func:`build_family`.

    Returns
    -------
    Size

    Raises
    ------
    ValueError
        When the parameters break the family's rules or ``k > MAX_K``, as the builder does (no member is ever
        estimated as empty).

    Examples
    --------
    >>> cayley_size("star", k=10).m, cayley_size("transposition", k=10).m
    (16329600, 81648000)
    >>> cayley_size("MS", l=2, n=0)
    Traceback (most recent call last):
    ...
    ValueError: n=0 is too small: need an integer n >= 1 (balls per box; k = n*l + 1)
    """
    info, kk = family_k(family, k=k, l=l, n=n, build=True)
    params = {"k": kk} if info.params == ("k",) else {"l": l, "n": n}
    return _graph_size(kk, generator_set(info.name, **params))


def _space(k: int, space: PermutationSpace | None) -> PermutationSpace:
    """The nodes of S_k: ``space`` if given (and built for this ``k``), else a new one (``k <= MAX_K``)."""
    k = check_k(k, build=True)
    if space is not None and space.k != k:
        raise ValueError(f"space: built for k = {space.k}, not k = {k}")
    return space if space is not None else PermutationSpace(k)


def cayley_distances(k: int, gens: Sequence[Generator], *, space: PermutationSpace | None = None) -> np.ndarray:
    """Distance from the identity to every node (breadth-first search over whole frontiers).

    In a Cayley (di)graph ``dist(U, V) = dist(e, U^-1 V)``, so this one search gives every distance;
    in particular the diameter is its maximum. The distances are those of the compiled search
    ``starlib._kernels.bfs`` over the neighbour table as adjacency arrays (``indptr = arange(n+1)*d``,
    ``indices = nbrs.ravel()``; a test checks it), but this level-synchronous search is faster on these
    graphs: each level is one gather from the ``(k!, d)`` table and one scatter into a byte mask of ``k!``
    entries (3.6 MB at ``k = 10``), where the FIFO search reads the 29 MB distance array at random, one
    neighbour at a time (at ``k = 10``, 3.6M nodes, it took 1.0-2.2 times as long for each of the 22 families).

    Parameters
    ----------
    k : int
    gens : sequence of Generator
    space : PermutationSpace, optional

    Returns
    -------
    numpy.ndarray
        int64 distances indexed by node rank (``-1`` for unreachable nodes).

    Examples
    --------
    >>> np.bincount(cayley_distances(4, generator_set("star", k=4))).tolist()   # distance distribution
    [1, 3, 6, 9, 5]
    """
    sp = _space(k, space)
    nbrs = np.stack([sp.neighbors(g.perm) for g in distinct_generators(gens)], axis=1)
    dist = np.full(sp.size, -1, dtype=np.int64)
    dist[0] = 0
    frontier = np.array([0], dtype=np.int64)
    d = 0
    reached = np.zeros(sp.size, dtype=bool)
    reached[0] = True
    while frontier.size:
        d += 1
        new = np.zeros(sp.size, dtype=bool)
        new[nbrs[frontier].ravel()] = True
        new &= ~reached
        frontier = np.flatnonzero(new)
        reached |= new
        dist[frontier] = d
    return dist


def cayley_diameter(k: int, gens: Sequence[Generator], *, space: PermutationSpace | None = None) -> int:
    """Diameter of the Cayley graph (the eccentricity of the identity).

    Raises
    ------
    ValueError
        If the generators do not generate S_k (the graph is not strongly connected).

    Examples
    --------
    >>> cayley_diameter(5, generator_set("bubble-sort", k=5))   # k(k-1)/2
    10
    """
    return int(_connected_distances(k, gens, space).max())


def _connected_distances(k: int, gens: Sequence[Generator], space: PermutationSpace | None) -> np.ndarray:
    """:func:`cayley_distances`, or a ``ValueError`` if some node is unreachable."""
    dist = cayley_distances(k, gens, space=space)
    if (dist < 0).any():
        raise ValueError(f"gens: {', '.join(g.name for g in gens)} do not generate S_{k}: the graph is disconnected")
    return dist


def family_instances(k_max: int, k_min: int = 3) -> list[tuple[str, dict[str, int]]]:
    """Every family with ``k_min <= k <= k_max`` symbols: ``(abbreviation, parameters)``, in table order.

    Whole-``k`` families for each ``k``; ``l``-level families for each ``l >= 2``, ``n >= 1`` with ``n*l + 1 <= k_max``.

    Examples
    --------
    >>> [(f, p) for f, p in family_instances(4) if f in ("MS", "star")]
    [('star', {'k': 3}), ('star', {'k': 4}), ('MS', {'l': 2, 'n': 1}), ('MS', {'l': 3, 'n': 1})]
    """
    out: list[tuple[str, dict[str, int]]] = []
    for info in FAMILIES.values():
        if info.params == ("k",):
            out += [(info.abbrev, {"k": k}) for k in range(k_min, k_max + 1)]
        else:
            out += [(info.abbrev, {"l": l, "n": n}) for n in range(1, k_max) for l in range(2, k_max)
                    if k_min <= n * l + 1 <= k_max]
    return out


def network_invariants(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None,
                       space: PermutationSpace | None = None) -> dict:
    """Node count, degrees (both conventions), directedness, diameter and mean distance of a family member.

    Computed from the generators and one breadth-first search (vertex symmetry); the graph itself is
    not materialised, so ``k = 9`` (362,880 nodes) takes about a second.

    Parameters
    ----------
    family : str
    k, l, n : int, optional
    space : PermutationSpace, optional
        Shared neighbour cache for the ``k`` in question.

    Returns
    -------
    dict
        ``network, family, l, n, k, nodes, degree, degree_parallel, directed, diameter, mean_distance,
        distance_sum``.

    Examples
    --------
    >>> r = network_invariants("MS", l=2, n=2)
    >>> r["network"], r["nodes"], r["degree"], r["diameter"]
    ('MS(2,2)', 120, 3, 8)
    """
    info, kk = family_k(family, k=k, l=l, n=n, build=True)
    gens = generator_set(info.abbrev, k=k, l=l, n=n)
    dist = _connected_distances(kk, gens, space)
    name = f"{info.abbrev}({l},{n})" if k is None else f"{info.abbrev}({kk})"
    return {"network": name, "family": info.abbrev, "l": l, "n": n, "k": kk, "nodes": math.factorial(kk),
            "degree": degree(gens, "merge"), "degree_parallel": degree(gens, "parallel"),
            "directed": not is_inverse_closed(gens), "diameter": int(dist.max()),
            "mean_distance": float(dist.sum()) / (dist.size - 1), "distance_sum": int(dist.sum())}


#: The families whose rotation set the paper leaves open: the ``_SUPER`` key starlib builds and the alternative.
#: ``"R"`` is ``{R, R^-1}`` (undirected), ``"R+"`` is ``{R}`` alone (directed for ``l >= 3``).
ROTATION_CHOICES: dict[str, tuple[str, str]] = {"RS": ("R", "R+"), "RR": ("R+", "R"), "RIS": ("R", "R+")}

_ROTATION_WORDS = {"R": "R and R^-1", "R+": "R only"}


def rotation_set_diameters(family: str, *, l: int, n: int, space: PermutationSpace | None = None) -> dict:
    """Diameter of RS, RR or RIS with starlib's rotation set and with the alternative one.

    Section 2.2 of the paper names RS, RR and RIS by "rotation" without saying whether ``R^-1`` is a generator
    too. starlib builds RS and RIS with ``R`` and ``R^-1`` (undirected) and RR with ``R`` alone (directed, as a
    rotator graph), :data:`ROTATION_CHOICES`; this function gives the diameter of both readings (one
    breadth-first search each, :func:`cayley_diameter`; for a directed graph the largest distance along arcs).
    For ``l = 2``, ``R = R^-1`` and the two readings are the same graph.

    Parameters
    ----------
    family : str
        ``"RS"``, ``"RR"`` or ``"RIS"`` (or the command-line names).
    l, n : int
        Boxes and balls per box, ``k = n*l + 1 <= MAX_K``.
    space : PermutationSpace, optional
        Shared neighbour cache for this ``k``.

    Returns
    -------
    dict
        ``network, family, l, n, k, rotations, diameter, directed, alternative_rotations,
        alternative_diameter, alternative_directed`` (``rotations`` in words: ``"R and R^-1"`` or ``"R only"``).

    Raises
    ------
    ValueError
        If the family is not one of RS, RR, RIS, or ``(l, n)`` break their rules.

    Examples
    --------
    >>> r = rotation_set_diameters("RS", l=4, n=2)          # k = 9: 362,880 nodes
    >>> r["rotations"], r["diameter"], r["alternative_rotations"], r["alternative_diameter"]
    ('R and R^-1', 22, 'R only', 23)

    References
    ----------
    Yeh, Varvarigos and Lee (1999), Section 2.2 (rotation-star, rotation-rotator, rotation-IS; Definition 3).
    """
    info = family_info(family, allowed=tuple(ROTATION_CHOICES))
    k = check_ln(l, n, build=True)
    nucleus = _NUCLEUS[info.nucleus](k, n + 1)
    out = {"network": f"{info.abbrev}({l},{n})", "family": info.abbrev, "l": int(l), "n": int(n), "k": k}
    for prefix, key in zip(("", "alternative_"), ROTATION_CHOICES[info.abbrev], strict=True):
        gens = nucleus + _SUPER[key](k, l, n)
        out[f"{prefix}rotations"] = _ROTATION_WORDS[key]
        out[f"{prefix}diameter"] = cayley_diameter(k, gens, space=space)
        out[f"{prefix}directed"] = not is_inverse_closed(gens)
    return out


# -- the families as graph builders (registered on the command line) --------------------------------------


def build_family(family: str, *, k: int | None = None, l: int | None = None, n: int | None = None,
                 space: PermutationSpace | None = None) -> ArrayGraph:
    """Build a family's Cayley graph by name (command-line name or abbreviation).

    Parameters
    ----------
    family : str
    k : int, optional
        For the whole-``k`` families.
    l, n : int, optional
        For the ``l``-level families (``k = n*l + 1 <= MAX_K``).
    space : PermutationSpace, optional

    Returns
    -------
    ArrayGraph
        ``meta["family"]`` holds the abbreviation.

    Raises
    ------
    ValueError
        As :func:`family_k` with ``build=True`` (``k <= MAX_K``).

    Examples
    --------
    >>> build_family("RR", l=3, n=2).directed
    True
    """
    info, kk = family_k(family, k=k, l=l, n=n, build=True)
    params = {"k": kk} if info.params == ("k",) else {"l": int(l), "n": int(n)}
    gens = generator_set(info.name, **params)
    g = cayley_graph(kk, gens, name=info.name, params=params, space=space)
    g.meta["family"] = info.abbrev
    return g


#: the docstring of a family builder, filled from the family's record
_BUILDER_DOC = """{text}

    Parameters
    ----------
    {params}

    Returns
    -------
    ArrayGraph
        ``k!`` nodes labelled by permutation tuples of ``1..k``.

    Raises
    ------
    ValueError
        For parameters against these rules.

    Examples
    --------
    {example}
    """

_BUILDER_PARAMS = {
    ("k",): "k : int\n        Number of symbols, ``2 <= k <= MAX_K``.",
    ("l", "n"): "l : int\n        Number of boxes, ``l >= 2``.\n    n : int\n        Balls per box, ``n >= 1``; "
                "``k = n*l + 1 <= MAX_K``.",
}


def _splits(info: FamilyInfo, k: int) -> list[dict[str, int]]:
    """Every parameter set of the family with ``k`` symbols (``{"k": k}``, or each ``l, n`` with ``n*l + 1 = k``)."""
    if info.params == ("k",):
        return [{"k": k}]
    return [{"l": ll, "n": (k - 1) // ll} for ll in range(2, k) if (k - 1) % ll == 0]


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
        if all(cayley_size(info.name, **p).peak_bytes <= limit for p in _splits(info, k)):
            best = k
        else:
            break
    return best


def _undirected(info: FamilyInfo, params: dict[str, int]) -> bool:
    """Whether the member with these parameters is undirected (its generators closed under inverses)."""
    return is_inverse_closed(distinct_generators(generator_set(info.name, **params)))


def _reach(info: FamilyInfo) -> str:
    """What fits and what finishes: these graphs have no structured packing, so ``edsts`` runs the exact generic
    packing, whose time is estimated by :func:`~starlib.edst.packing.generic_seconds`. Measured with the phases of
    :mod:`starlib.edst.forest_union` (2 cores): ``S_10`` and ``B_10`` (16.3M links) packed in about 63 s,
    ``MR(9, 1)`` (k = 10, 16.3M links) in 110 s and ``TN(9)`` in 22 s end to end (build, pack, verify, write);
    the directed members (``MR``, ``RR`` and ``complete-RR`` with ``n > 1``, ``RR`` beyond ``l = 2``) have no
    EDSTs."""
    kmax, limit = largest_k(info.name), default_memory_limit()
    tail = "" if kmax == MAX_K else f"; k = {kmax + 1} needs more than the memory limit of {format_bytes(limit)}"
    members = [(k, p, _undirected(info, p)) for k in range(2, kmax + 1) for p in _splits(info, k)]
    seconds: dict[int, float] = {}  # per k, the estimate on its largest undirected member
    for k, p, undirected in members:
        if undirected:
            seconds[k] = max(seconds.get(k, 0.0), generic_seconds(cayley_size(info.name, **p).m))
    fits = [k for k, s in seconds.items() if s <= 3600]
    if not fits:
        return f"(k! nodes{tail}; directed: no EDSTs)"
    who = "EDSTs" if all(undirected for _, _, undirected in members) else "EDSTs of the undirected members"
    return f"(k! nodes{tail}; {who} within an hour for k <= {max(fits)})"


def _check_params(info: FamilyInfo) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The family's cross-check: ``k = n*l + 1 <= MAX_K`` (:func:`family_k`)."""
    def check(params: dict[str, Any]) -> dict[str, Any]:
        family_k(info.name, **params, build=True)
        return params
    return check


def _family_builder(info: FamilyInfo) -> Callable[..., ArrayGraph]:
    """The public builder of one family: :func:`build_family` with the family fixed, documented from its record,
    and declared as a network family (:func:`~starlib.family.family`) with the rules and size model of
    :func:`family_k` and :func:`cayley_size`."""
    if info.params == ("k",):
        def build(k: int) -> ArrayGraph:
            return build_family(info.name, k=k)
        params = {"k": Param(integer(2, MAX_K, note=_reach(info)))}
    else:
        def build(l: int, n: int) -> ArrayGraph:
            return build_family(info.name, l=l, n=n)
        params = {"l": Param(integer(2, note="(boxes)")),
                  "n": Param(integer(1, note=f"(balls per box), k = n*l + 1 <= {MAX_K} {_reach(info)}"))}
    text, example = textwrap.dedent(info.doc).strip().split("\n>>>", 1)
    if info.params == ("l", "n"):
        text = f"The {info.abbrev}(l, n) network (command line: ``{info.name} l= n=``).\n\n{text}"
    build.__name__ = build.__qualname__ = info.func
    build.__doc__ = _BUILDER_DOC.format(text=textwrap.indent(text, "    ").lstrip(),
                                        params=_BUILDER_PARAMS[info.params],
                                        example=textwrap.indent(">>>" + example, "    ").lstrip())
    return family(info.name, kind="cayley", params=params, summary=text.splitlines()[0],
                  size=functools.partial(cayley_size, info.name), check=_check_params(info))(build)


#: the builder of every family, by command-line name, in table order
BUILDERS: dict[str, Callable[..., ArrayGraph]] = {name: _family_builder(info) for name, info in FAMILIES.items()}

# the builders by their own names (``FamilyInfo.func``, checked in the tests)
(star_graph, bubble_sort_graph, transposition_network, insertion_selection, macro_star, rotation_star,
 complete_rotation_star, macro_rotator, rotation_rotator, complete_rotation_rotator, macro_insertion_selection,
 rotation_insertion_selection, complete_rotation_insertion_selection) = BUILDERS.values()
