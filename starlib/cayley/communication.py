"""Multinode broadcast (MNB) and total exchange (TE) time bounds under all-port communication (Corollaries 2, 3).

The corollaries combine three facts: the k-star does MNB in ``Theta((k-1)!)`` and TE in ``Theta(k!)``
steps (Fragopoulou and Akl), a super Cayley graph emulates it with the slowdown of Theorems 4-5, and
no ``N``-node network of degree ``d`` can beat the counting bounds below. Everything here is exact
integer arithmetic, so the bounds can be evaluated far beyond the sizes whose graphs can be built.

- :func:`mnb_lower_bound`: every node receives ``N - 1`` packets over at most ``d`` links a step.
- :func:`te_lower_bound`: ``N * sum_v dist(e, v)`` packet-hops over at most ``N d`` links a step
  (vertex-transitive graphs); :func:`moore_distance_sum` is the least possible ``sum_v dist(e, v)``
  of any ``N``-node graph of degree ``d`` (the argument of the proof of Corollary 3).
- :func:`star_distance_sum`: the exact total distance of the k-star (cycle structure).

Example
-------
>>> mnb_lower_bound(120, 4), star_distance_sum(4), moore_distance_sum(24, 3)
(30, 62, 59)
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..validation import check_int
from .families import family_info
from .permutations import check_k, check_ln

__all__ = ["allport_slowdown_claim", "mnb_lower_bound", "te_lower_bound", "star_distance_sum",
           "moore_distance_sum", "star_mnb_time"]


def allport_slowdown_claim(family: str, l: int | None = None, n: int | None = None) -> int:
    """The slowdown the paper claims for all-port emulation of the star graph.

    ``max(2n, l+1)`` for MS and complete-RS (Theorem 4), ``max(2n, l+2)`` for MIS and complete-RIS
    (Theorem 5), 2 for IS (Theorem 2).

    Parameters
    ----------
    family : str
    l, n : int, optional
        Not used for IS.

    Returns
    -------
    int
        Steps of the emulation per step of the star graph.

    Raises
    ------
    ValueError
        For a family without such a claim.

    Examples
    --------
    >>> allport_slowdown_claim("MS", 5, 3), allport_slowdown_claim("MIS", 2, 2), allport_slowdown_claim("IS")
    (6, 4, 2)
    """
    ab = family_info(family, ("IS", "MS", "complete-RS", "MIS", "complete-RIS")).abbrev
    if ab == "IS":
        return 2
    check_ln(l, n)
    return max(2 * n, l + (1 if ab in ("MS", "complete-RS") else 2))


def mnb_lower_bound(num_nodes: int, degree: int) -> int:
    """``ceil((N - 1) / d)``: steps any MNB needs with all-port communication.

    Parameters
    ----------
    num_nodes : int
        ``N >= 1``.
    degree : int
        In-degree ``d >= 1``.

    Returns
    -------
    int
        A lower bound on the number of steps.

    Raises
    ------
    ValueError
        For ``N < 1`` or ``d < 1``.

    Examples
    --------
    >>> mnb_lower_bound(math.factorial(5), 4)
    30
    """
    num_nodes, degree = check_int(num_nodes, "num_nodes", 1), check_int(degree, "degree", 1)
    return -(-(num_nodes - 1) // degree)


def star_mnb_time(k: int) -> int:
    """The MNB lower bound of the k-star, ``ceil((k! - 1)/(k - 1))``.

    Fragopoulou and Akl (reference [8] of the paper) attain it up to a constant factor.

    Examples
    --------
    >>> star_mnb_time(5)
    30
    """
    k = check_k(k)
    return mnb_lower_bound(math.factorial(k), k - 1)


def te_lower_bound(distance_sum: int, degree: int) -> Fraction:
    """``sum_v dist(e, v) / d``: steps any TE needs in a vertex-transitive graph (all-port).

    Parameters
    ----------
    distance_sum : int
        Total distance from one node to all others.
    degree : int

    Returns
    -------
    fractions.Fraction

    Examples
    --------
    >>> te_lower_bound(62, 3)
    Fraction(62, 3)
    """
    return Fraction(check_int(distance_sum, "distance_sum", 0), check_int(degree, "degree", 1))


def star_distance_sum(k: int) -> int:
    """Total distance from the identity to all nodes of the k-star, exactly.

    With ``m`` misplaced symbols and ``c`` cycles of length >= 2, ``dist = m + c`` if position 1 is
    fixed and ``m + c - 2`` otherwise (Akers, Harel and Krishnamurthy); summing over S_k gives
    ``k (k! - (k-1)!) + k! (H_k - 1) - 2 (k! - (k-1)!)``.

    Examples
    --------
    >>> [star_distance_sum(k) for k in (2, 3, 4)]
    [1, 9, 62]
    """
    k = check_k(k)
    f, f1 = math.factorial(k), math.factorial(k - 1)
    cycles = sum(f // i for i in range(1, k + 1))          # k! H_k
    return k * (f - f1) + (cycles - f) - 2 * (f - f1)


def moore_distance_sum(num_nodes: int, degree: int) -> int:
    """The least ``sum_v dist(e, v)`` over graphs with ``N`` nodes and degree ``d`` (Moore bound).

    At most ``d (d-1)^(i-1)`` nodes lie at distance ``i``; filling the levels greedily gives the bound.

    Examples
    --------
    >>> moore_distance_sum(10, 3)      # the Petersen graph attains it: 3*1 + 6*2
    15
    """
    num_nodes, degree = check_int(num_nodes, "num_nodes", 1), check_int(degree, "degree", 1)
    left, total, i, level = num_nodes - 1, 0, 1, degree
    while left > 0:
        take = min(left, level)
        total += i * take
        left -= take
        i += 1
        level *= max(degree - 1, 1)
    return total
