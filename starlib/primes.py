"""Primality and prime powers: the orders GF(q) exists for, decided exactly for every integer a user can type.

:func:`is_prime` is deterministic: trial division by the primes below 1000, then strong probable-prime tests to
the first 13 prime bases (which decide every ``n < 3.3 * 10^24``), and a strong Lucas test above that (BPSW).
:func:`prime_power_parts` writes ``q = p^k`` by integer roots; :func:`check_prime_power` is the argument check
every field-based family uses.

Example
-------
>>> is_prime(2**61 - 1), prime_power_parts(3**7), is_prime_power(12)
(True, (3, 7), False)
>>> check_prime_power(6)
Traceback (most recent call last):
...
ValueError: q=6 is not a prime power
"""

from __future__ import annotations

from math import isqrt, log2
from typing import Any

from .validation import as_int

__all__ = ["is_prime", "prime_power_parts", "is_prime_power", "check_prime_power"]

#: The first 13 primes: as Miller-Rabin bases they decide every ``n < 3,317,044,064,679,887,385,961,981``
#: (Sorenson and Webster, "Strong pseudoprimes to twelve prime bases", Math. Comp. 86 (2017)).
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_MR_LIMIT = 3_317_044_064_679_887_385_961_981
_SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % d for d in range(2, int(p**0.5) + 1)))


def _strong_probable_prime(n: int, a: int) -> bool:
    """Miller-Rabin round: True if odd ``n > 2`` is a strong probable prime to base ``a``."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    x = pow(a, d, n)
    if x in (1, n - 1):
        return True
    for _ in range(s - 1):
        x = x * x % n
        if x == n - 1:
            return True
    return False


def _strong_lucas_probable_prime(n: int) -> bool:
    """Strong Lucas test with Selfridge's parameters (``D`` the first of 5, -7, 9, ... with ``(D/n) = -1``)."""
    r = isqrt(n)
    if r * r == n:
        return False
    D = 5
    while _jacobi(D, n) != -1:
        D = -D - 2 if D > 0 else -D + 2
    P, Q = 1, (1 - D) // 4
    d, s = n + 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    # U_d, V_d by the binary method (left to right), with Q^d
    U, V, Qk = 0, 2, 1
    for bit in bin(d)[2:]:
        U, V = U * V % n, (V * V - 2 * Qk) % n
        Qk = Qk * Qk % n
        if bit == "1":
            U, V = (P * U + V), (D * U + P * V)
            U = (U + n if U % 2 else U) // 2 % n
            V = (V + n if V % 2 else V) // 2 % n
            Qk = Qk * Q % n
    if U == 0 or V == 0:
        return True
    for _ in range(s - 1):
        V = (V * V - 2 * Qk) % n
        Qk = Qk * Qk % n
        if V == 0:
            return True
    return False


def _jacobi(a: int, n: int) -> int:
    """The Jacobi symbol ``(a/n)`` for odd ``n > 0``."""
    a %= n
    result = 1
    while a:
        while a % 2 == 0:
            a //= 2
            if n % 8 in (3, 5):
                result = -result
        a, n = n, a
        if a % 4 == 3 and n % 4 == 3:
            result = -result
        a %= n
    return result if n == 1 else 0


def is_prime(n: Any) -> bool:
    """True if ``n`` is a prime number (an integer, not bool); fast for any size.

    Trial division by the primes below 1000, then Miller-Rabin with the first 13 primes as bases, which is
    deterministic (a proof) for every ``n < 3.3 * 10^24``. Above that, the Baillie-PSW test (base-2 Miller-Rabin
    and a strong Lucas test): no composite passing it is known, and none exists below ``2^64``. The orders of
    buildable networks are far below either limit.

    Parameters
    ----------
    n : Any
        The number to test; anything but an integer (Python or numpy, not bool) is not a prime.

    Returns
    -------
    bool

    Examples
    --------
    >>> [p for p in range(30) if is_prime(p)]
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    >>> is_prime(2305843009213693951), is_prime(561), is_prime(3215031751)   # 2^61 - 1; two Carmichael numbers
    (True, False, False)

    References
    ----------
    G. L. Miller (1976), M. O. Rabin (1980); J. Sorenson and J. Webster, Math. Comp. 86 (2017) (the 13 bases);
    R. Baillie and S. Wagstaff, Math. Comp. 35 (1980) (the strong Lucas test).
    """
    n = as_int(n)
    if n is None or n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    if n < 1_000_000:  # no factor below 1000 <= sqrt(n)
        return True
    if n < _MR_LIMIT:
        return all(_strong_probable_prime(n, a) for a in _MR_BASES)
    return _strong_probable_prime(n, 2) and _strong_lucas_probable_prime(n)


def _iroot(n: int, k: int) -> int:
    """The integer ``k``-th root ``floor(n ** (1/k))`` of ``n >= 1`` (exact for any size)."""
    bits = n.bit_length()
    shift = max(bits - 60, 0)  # n = top * 2^shift with 60 significant bits: a float guess good to ~50 bits
    exponent = (log2(n >> shift) + shift) / k  # log2 of the root
    if exponent < 50:
        r = int(2.0 ** exponent)
    else:  # 52 bits of the root from the float, then Newton's iteration from just above it: a few steps
        whole = max(int(exponent) - 52, 0)
        r = int(2.0 ** (exponent - whole)) << whole
        r += (r >> 40) + 1
        while True:
            s = ((k - 1) * r + n // r ** (k - 1)) // k
            if s >= r:
                break
            r = s
    while r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


def prime_power_parts(q: Any) -> tuple[int, int] | None:
    """Return ``(p, k)`` with ``q = p**k`` and ``p`` prime, or None if ``q`` is not a prime power.

    A factor below 1000 is divided out. Otherwise every prime factor exceeds 1000, so ``q = p^k`` has
    ``k <= log_1000 q``: for each prime ``e`` in that range, an exact integer ``e``-th root ``r`` (``r^e = q``) is
    split in turn; if none exists, ``q`` is a prime power iff it is prime (:func:`is_prime`). Microseconds up to
    hundreds of digits (2^61 - 1 in 0.1 ms, where trial division ran for hours); seconds at 5,000 digits.

    Parameters
    ----------
    q : Any
        The number to split; anything but an integer (Python or numpy, not bool) gives None.

    Returns
    -------
    tuple of int or None
        ``(p, k)``, or None.

    Examples
    --------
    >>> prime_power_parts(125), prime_power_parts(12), prime_power_parts(1)
    ((5, 3), None, None)
    >>> prime_power_parts(1000003 ** 3)
    (1000003, 3)
    """
    q = as_int(q)
    if q is None or q < 2:
        return None
    for p in _SMALL_PRIMES:
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    e = 2
    while 1000 ** e <= q:  # q = p^k, k > 1, is a perfect e-th power for every prime e | k
        if e in _SMALL_PRIMES or is_prime(e):
            r = _iroot(q, e)
            if r ** e == q:
                parts = prime_power_parts(r)
                return None if parts is None else (parts[0], parts[1] * e)
        e += 1
    return (q, 1) if is_prime(q) else None


def is_prime_power(q: Any) -> bool:
    """True if ``q`` is an integer of the form ``p**k`` with ``p`` prime and ``k >= 1``.

    Examples
    --------
    >>> [x for x in range(2, 30) if is_prime_power(x)]
    [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29]
    """
    return prime_power_parts(q) is not None


def check_prime_power(value: Any, name: str = "q", minimum: int = 2) -> int:
    """Return ``value`` as ``int`` if it is a prime power ``>= minimum``.

    Parameters
    ----------
    value : Any
        The value to check.
    name : str
        Parameter name used in the error message.
    minimum : int
        Smallest admissible value.

    Returns
    -------
    int
        The prime power as a Python ``int``.

    Raises
    ------
    ValueError
        ``"q=6 is not a prime power"`` (or not an integer, or below ``minimum``).

    Examples
    --------
    >>> check_prime_power(49)
    49
    >>> check_prime_power(6)
    Traceback (most recent call last):
    ...
    ValueError: q=6 is not a prime power
    """
    qi = as_int(value)
    if qi is None:
        raise ValueError(f"{name}={value!r} is not an integer (need a prime power)")
    if not is_prime_power(qi):
        raise ValueError(f"{name}={qi} is not a prime power")
    if qi < minimum:
        raise ValueError(f"{name}={qi} is too small: need a prime power >= {minimum}")
    return qi
