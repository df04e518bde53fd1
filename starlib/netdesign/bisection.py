"""How many bisections there are and how many random picks find one: section 8.1.1 of the network-design notes.

A bisection of a network splits its ``N`` (even) compute nodes into two halves and puts every one of its ``M``
routers on a side. The compute nodes are distinct and the halves unlabeled, so there are ``C(N, N/2)/2`` compute
splits (:func:`balanced_bipartitions`; the notes' closed form ``sum_{x=1}^{(N+2)/2} x`` before eq. (16) agrees
only at ``N = 6``) and ``U = 2^M C(N, N/2)/2`` network bisections (eq. (16) corrected,
:func:`network_partitions`).

``p`` picks with replacement from ``U`` items miss a given item with probability ``(1 - 1/U)^p``, so the
confidence of having seen it is ``C = 1 - (1 - 1/U)^p`` (eq. (17), :func:`bisection_confidence`) and the picks
needed for confidence ``C`` are the least integer ``p >= log(1 - C)/log(1 - 1/U)`` (eqs. (18)-(20),
:func:`bisection_picks`). :func:`monte_carlo_confidence` draws the picks literally as a check.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ..validation import check_int, check_real

__all__ = ["balanced_bipartitions", "network_partitions", "bisection_confidence", "bisection_picks",
           "monte_carlo_confidence"]

# exact rational arithmetic in bisection_picks is used while (U-1)^p has at most this many digits
_EXACT_DIGITS = 60_000


def balanced_bipartitions(N: int) -> int:
    """Number of ways to split ``N`` distinct compute nodes into two unlabeled halves: ``C(N, N/2) / 2``.

    Parameters
    ----------
    N : an even number of compute nodes, ``N >= 2``.

    Returns
    -------
    int
        ``C(N, N/2) / 2``, exact.

    Raises
    ------
    ValueError
        If ``N`` is odd or smaller than 2.

    Examples
    --------
    >>> [balanced_bipartitions(N) for N in (2, 4, 6, 8)]    # 1|2; 12|34, 13|24, 14|23; ...
    [1, 3, 10, 35]

    References
    ----------
    Network-design notes, section 8.1.1 (the notes' closed form before eq. 16 holds only for N = 6).
    """
    N = check_int(N, "N", 2)
    if N % 2:
        raise ValueError(f"N={N} is odd: a bisection needs an even number of compute nodes")
    return math.comb(N, N // 2) // 2


def network_partitions(N: int, M: int) -> int:
    """Number of network bisections ``U``: a balanced split of the compute nodes times a side for every router.

    ``U = 2^M C(N, N/2) / 2`` (eq. 16 of the notes with the correct bipartition count).

    Parameters
    ----------
    N : as in :func:`balanced_bipartitions`.
    M : number of routers, ``M >= 0``.

    Returns
    -------
    int
        ``U``, exact.

    Raises
    ------
    ValueError
        If ``N`` is odd or smaller than 2, or ``M < 0``.

    Examples
    --------
    >>> network_partitions(4, 2)     # 3 splits of 4 nodes, 4 ways to place 2 routers
    12

    References
    ----------
    Network-design notes, section 8.1.1 eq. (16).
    """
    M = check_int(M, "M", 0)
    return 2**M * balanced_bipartitions(N)


def bisection_confidence(p: int, U: int, exact: bool = False) -> float | Fraction:
    """Confidence ``C = 1 - (1 - 1/U)^p`` that ``p`` picks with replacement from ``U`` items include a given one.

    The float is computed as ``-expm1(p log1p(-1/U))``, accurate even when ``1/U`` is below the float
    resolution of 1 (where ``1 - (1 - 1/U)**p`` evaluates to 0).

    Parameters
    ----------
    p : number of picks, ``p >= 0``.
    U : number of items, ``U >= 1``.
    exact : return a :class:`fractions.Fraction` instead of a float.

    Returns
    -------
    float or Fraction
        ``C``: 0 for ``p = 0``, 1 for ``U = 1`` and ``p >= 1``.

    Raises
    ------
    ValueError
        If ``p`` is not an integer ``>= 0`` or ``U`` is not an integer ``>= 1``.

    Examples
    --------
    >>> [bisection_confidence(p, 2) for p in (1, 2, 3)]      # the notes' 50%, 75%, 87.5%
    [0.5, 0.75, 0.875]
    >>> bisection_confidence(3, 2, exact=True)
    Fraction(7, 8)

    References
    ----------
    Network-design notes, section 8.1.1 eq. (17).
    """
    p = check_int(p, "p", 0)
    U = check_int(U, "U", 1)
    if exact:
        return 1 - Fraction(U - 1, U) ** p
    if U == 1:
        return 1.0 if p > 0 else 0.0
    return -math.expm1(p * math.log1p(-1.0 / U))


def bisection_picks(C: float | Fraction, U: int) -> int:
    """Smallest number of picks ``p`` with ``bisection_confidence(p, U) >= C`` (the notes' eqs. 18-20).

    ``p = ceil(log(1 - C) / log(1 - 1/U))``, decided in exact rational arithmetic (the float ``C`` is
    taken at its exact binary value) whenever ``(U-1)^p`` is small enough, and otherwise with 60-digit
    arithmetic, so a quotient that is an integer is not pushed to the next one by rounding.

    Parameters
    ----------
    C : the confidence, ``0 < C < 1``.
    U : number of items, ``U >= 1``.

    Returns
    -------
    int
        The least ``p >= 1`` with ``(1 - 1/U)^p <= 1 - C``.

    Raises
    ------
    ValueError
        If ``C`` is not in the open interval (0, 1) or ``U < 1``.

    Examples
    --------
    >>> bisection_picks(0.9, 100)    # the notes' eq. (20)
    230
    >>> bisection_picks(0.75, 2)     # exactly 1 - (1/2)^2: two picks, not three
    2

    References
    ----------
    Network-design notes, section 8.1.1 eqs. (18)-(20).
    """
    x = check_real(C, "C", 0, 1, strict=True, rule="0 < C < 1 (a confidence)")
    U = check_int(U, "U", 1)
    if U == 1:
        return 1
    c = C if isinstance(C, Fraction) else Fraction(x)  # a float C at its exact binary value
    target = 1 - c  # need (1 - 1/U)^p <= target
    est = math.log1p(-float(c)) / math.log1p(-1.0 / U)
    p = max(1, math.ceil(est))
    if p * math.log10(U) <= _EXACT_DIGITS:
        q = Fraction(U - 1, U)
        while p > 1 and q ** (p - 1) <= target:
            p -= 1
        while q**p > target:
            p += 1
        return p
    import mpmath

    with mpmath.workdps(60):
        x = mpmath.log(mpmath.mpf(target.numerator) / target.denominator) / mpmath.log1p(-mpmath.mpf(1) / U)
        return max(1, int(mpmath.ceil(x - mpmath.mpf(10) ** -40)))


def monte_carlo_confidence(picks: Sequence[int], U: int, trials: int, seed: int | np.random.Generator | None = None,
                           ) -> np.ndarray:
    """Simulated confidence: the fraction of ``trials`` runs of picks with replacement from ``U`` items that
    contain item 0 within the first ``p`` picks, for every ``p`` in ``picks``.

    Each run draws ``max(picks)`` uniform items (literally, no distribution formula is used) and records
    where item 0 first appears; a run counts for ``p`` if that is among its first ``p`` picks.

    Parameters
    ----------
    picks : numbers of picks ``p >= 0``.
    U : number of items, ``U >= 1``.
    trials : number of simulated runs, ``>= 1``.
    seed : seed or numpy Generator.

    Returns
    -------
    numpy.ndarray
        One fraction per entry of ``picks``.

    Raises
    ------
    ValueError
        If an argument breaks its rule.

    Examples
    --------
    >>> est = monte_carlo_confidence([1, 2, 3], 2, trials=4000, seed=0)
    >>> bool(np.all(np.abs(est - [0.5, 0.75, 0.875]) < 0.03))
    True

    References
    ----------
    Network-design notes, section 8.1.1 eq. (17) (checked by simulation).
    """
    ps = [check_int(p, "picks", 0) for p in picks]
    U = check_int(U, "U", 1)
    trials = check_int(trials, "trials", 1)
    rng = np.random.default_rng(seed)
    pmax = max(ps, default=0)
    first = np.full(trials, np.iinfo(np.int64).max)
    chunk = max(1, 4_000_000 // max(pmax, 1))
    for s in range(0, trials, chunk):
        t = min(chunk, trials - s)
        hit = rng.integers(U, size=(t, pmax)) == 0
        any_hit = hit.any(axis=1)
        first[s:s + t] = np.where(any_hit, hit.argmax(axis=1), np.iinfo(np.int64).max)
    return np.array([np.mean(first < p) for p in ps])

