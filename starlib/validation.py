"""Argument checks: the one place where starlib decides whether an input is acceptable.

Every public function checks its arguments at the top with these, before any work starts. Every bad input is
a ``ValueError`` whose message names the parameter, the value received and the rule
(``n=1 is too small: need an integer n >= 2``). All checks take the arguments in one order:
``check_*(value, name, ...)``, and return the value in its canonical type.

=========================  =================================================================
check                      accepts
=========================  =================================================================
:func:`check_int`          an integer (Python or numpy, not bool) in ``[minimum, maximum]``
:func:`check_real`         a finite real number in ``[minimum, maximum]`` (or ``> minimum``)
:func:`check_flag`         ``True/False/0/1``
:func:`check_choice`       one of a fixed set of strings
:func:`check_prime_power`  a prime power ``>= minimum``
:func:`check_permutation`  a permutation of ``0..n-1``
:func:`parse_int`          text: ASCII decimal digits with an optional leading ``-`` (user input)
:func:`parse_int_list`     text: such integers separated by commas (``sizes=4,4,4``)
:func:`parse_bytes`        text: a memory size (``8G``, ``512M``, ``1000000``)
:func:`check_size`         a :class:`Size` estimate within the memory limit (before anything is allocated)
=========================  =================================================================

Text from a user is never given to ``int()``: Python's ``int`` also accepts ``"٥"`` (Arabic-Indic five),
``"５"`` (full-width), ``"1_3"`` and ``" 5 "``. :func:`parse_int` accepts exactly ``-?[0-9]+`` and at most
:data:`MAX_INT_DIGITS` digits, and a message quotes at most a shortened value (:func:`shorten`).

Example
-------
>>> check_int(5, "n", minimum=2)
5
>>> check_int(1, "n", minimum=2)
Traceback (most recent call last):
...
ValueError: n=1 is too small: need an integer n >= 2
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from math import isqrt, log2
from typing import Any

import numpy as np

__all__ = ["check_int", "check_real", "check_flag", "check_choice", "check_prime_power", "check_permutation",
           "prime_power_parts", "is_prime_power", "is_prime", "shorten", "parse_int", "parse_int_list", "parse_bytes",
           "MAX_INT_DIGITS", "Size", "physical_memory", "default_memory_limit", "memory_limit", "limit_memory",
           "check_size", "format_bytes"]


def _as_int(value: Any) -> int | None:
    """``int(value)`` for genuine integers (Python or numpy, not bool), else None."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        return None
    return int(value)


def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None, *,
              rule: str | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[minimum, maximum]``.

    Parameters
    ----------
    value : Any
        The argument to check (bool is rejected).
    name : str
        Parameter name for the message.
    minimum, maximum : int, optional
        Inclusive bounds.
    rule : str, optional
        The rule in words for the message (default: ``"an integer {name} >= {minimum}"``).

    Returns
    -------
    int
        ``value`` as a Python ``int``.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or lies outside the bounds.

    Examples
    --------
    >>> check_int(np.int64(3), "d", minimum=3)
    3
    >>> check_int(9, "i", 2, 4, rule="2 <= i <= k = 4")
    Traceback (most recent call last):
    ...
    ValueError: i=9 is too large: need 2 <= i <= k = 4
    """
    v = _as_int(value)
    if v is None:
        raise ValueError(f"{name}={value!r} is not an integer")
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}={v} is too small: need {rule or f'an integer {name} >= {minimum}'}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name}={v} is too large: need {rule or f'an integer {name} <= {maximum}'}")
    return v


def check_real(value: Any, name: str, minimum: float | None = None, maximum: float | None = None, *,
               strict: bool = False, rule: str | None = None) -> float:
    """Return ``value`` as ``float`` if it is a finite real number in ``[minimum, maximum]``.

    Parameters
    ----------
    value : Any
        The argument to check (bool and strings are rejected).
    name : str
        Parameter name for the message.
    minimum, maximum : float, optional
        Bounds, inclusive unless ``strict`` (then ``value > minimum`` and ``value < maximum``).
    strict : bool
        Exclude the bounds themselves.
    rule : str, optional
        The rule in words for the message.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``value`` is not a finite real number or lies outside the bounds.

    Examples
    --------
    >>> check_real(2, "bandwidth", 0, strict=True)
    2.0
    >>> check_real(0.0, "bandwidth", 0, strict=True)
    Traceback (most recent call last):
    ...
    ValueError: bandwidth=0.0 is out of range: need a finite number bandwidth > 0
    """
    lo, hi = (">", "<") if strict else (">=", "<=")
    words = " and ".join([f"{name} {lo} {minimum}"] * (minimum is not None) + [f"{name} {hi} {maximum}"]
                         * (maximum is not None))
    rule = rule or (f"a finite number {words}" if words else "a finite number")
    if isinstance(value, bool | np.bool_ | str | bytes):
        raise ValueError(f"{name}={value!r} is not a number: need {rule}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={value!r} is not a number: need {rule}") from None
    bad = not np.isfinite(v)
    if minimum is not None:
        bad |= v <= minimum if strict else v < minimum
    if maximum is not None:
        bad |= v >= maximum if strict else v > maximum
    if bad:
        raise ValueError(f"{name}={value!r} is out of range: need {rule}")
    return v


def check_flag(value: Any, name: str) -> bool:
    """Accept ``True/False/0/1`` (the command line passes integers) and return a bool.

    Parameters
    ----------
    value : Any
    name : str

    Returns
    -------
    bool
        The flag.

    Raises
    ------
    ValueError
        For anything else.

    Examples
    --------
    >>> check_flag(1, "loops"), check_flag(False, "loops")
    (True, False)
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer) and int(value) in (0, 1):
        return bool(value)
    raise ValueError(f"{name}={value!r} is not a flag: use 0/1 or False/True")


def check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``choices``.

    Parameters
    ----------
    value : Any
    name : str
    choices : tuple of str

    Returns
    -------
    str
        ``value``, one of ``choices``.

    Raises
    ------
    ValueError
        Listing the allowed values.

    Examples
    --------
    >>> check_choice("iq", "supernode", ("paley", "iq"))
    'iq'
    """
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}={value!r} is not one of {', '.join(repr(c) for c in choices)}")
    return str(value)


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
    n = _as_int(n)
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
    q = _as_int(q)
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
    qi = _as_int(value)
    if qi is None:
        raise ValueError(f"{name}={value!r} is not an integer (need a prime power)")
    if not is_prime_power(qi):
        raise ValueError(f"{name}={qi} is not a prime power")
    if qi < minimum:
        raise ValueError(f"{name}={qi} is too small: need a prime power >= {minimum}")
    return qi


def check_permutation(value: Any, n: int, name: str = "f") -> np.ndarray:
    """Return ``value`` as an int64 array if it is a permutation of ``0..n-1``.

    Parameters
    ----------
    value : array_like of int
    n : int
        Expected length.
    name : str
        Name for the error message.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        If ``value`` has the wrong length, non-integer entries or repeats a value.

    Examples
    --------
    >>> check_permutation([1, 0, 2], 3).tolist()
    [1, 0, 2]
    """
    arr = np.asarray(value)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{name}: need a permutation of 0..{n - 1} (length {n}), got shape {arr.shape}")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{name}: entries must be integers, got dtype {arr.dtype}")
    arr = arr.astype(np.int64)
    if not np.array_equal(np.sort(arr), np.arange(n)):
        raise ValueError(f"{name}={arr.tolist()[:12]}{'...' if n > 12 else ''} is not a permutation of 0..{n - 1}")
    return arr


# ---------------------------------------------------------------------------------------------
# integers written by a user (the command line, a spec string): ASCII decimal digits only
# ---------------------------------------------------------------------------------------------
#: Longest integer text accepted (digits, sign not counted): every buildable parameter has a handful of digits,
#: and 40 digits hold any 128-bit seed.
MAX_INT_DIGITS = 40

_ASCII_DIGITS = frozenset("0123456789")


def shorten(text: Any, limit: int = 30) -> str:
    """``repr`` of a value for a message, cut in the middle beyond ``limit`` characters with the length stated.

    Parameters
    ----------
    text : Any
        The value (``str`` is quoted as by ``repr``).
    limit : int
        Longest text kept whole.

    Returns
    -------
    str

    Examples
    --------
    >>> shorten("٥")
    "'٥'"
    >>> shorten("1" * 5000)
    "'111111111111...111111111111' (5000 characters)"
    """
    r = repr(text)
    if len(r) <= limit:
        return r
    n = len(text) if isinstance(text, str) else len(r)
    half = max((limit - 6) // 2, 4)
    q = r[0] if isinstance(text, str) else ""
    return f"{r[:half + len(q)]}...{r[-half - len(q):]} ({n} characters)"


def parse_int(text: Any, name: str) -> int:
    """Read an integer written by a user: ASCII digits ``0-9`` with an optional leading ``-``, nothing else.

    No spaces, ``+``, underscores, other scripts' digits (``"٥"``, ``"５"``) or exponents; at most
    :data:`MAX_INT_DIGITS` digits (a longer value is "too large", quoted shortened).

    Parameters
    ----------
    text : str
        The text (``"13"``).
    name : str
        Parameter name for the message.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        ``"q='1_3' is not an integer: need ASCII digits 0-9 with an optional leading - (no spaces, +, _ or
        other digits)"``; ``"q='' is empty: ..."``; ``"q='1234...' (5000 characters) is too large: need at most
        40 digits"``; a ``TypeError`` if ``text`` is not a string.

    Examples
    --------
    >>> parse_int("-12", "n"), parse_int("007", "n")
    (-12, 7)
    >>> parse_int("５", "q")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: q='５' is not an integer: need ASCII digits 0-9 with an optional leading - (no spaces, ...)
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}={shorten(text)} must be text (str) to be read as an integer, "
                        f"not {type(text).__name__}")
    digits = text[1:] if text.startswith("-") else text
    rule = "need ASCII digits 0-9 with an optional leading - (no spaces, +, _ or other digits)"
    if not digits:
        raise ValueError(f"{name}={shorten(text)} is empty: {rule}" if not text else
                         f"{name}={shorten(text)} is not an integer: {rule}")
    if not _ASCII_DIGITS.issuperset(digits):
        raise ValueError(f"{name}={shorten(text)} is not an integer: {rule}")
    if len(digits) > MAX_INT_DIGITS:
        raise ValueError(f"{name}={shorten(text)} is too large: need at most {MAX_INT_DIGITS} digits")
    return int(text)


def parse_int_list(text: Any, name: str, sep: str = ",") -> list[int]:
    """Read integers separated by ``sep`` (``"4,4,4"``), each by :func:`parse_int`; no empty item.

    Parameters
    ----------
    text : str
    name : str
        Parameter name for the message.
    sep : str
        The separator.

    Returns
    -------
    list of int

    Raises
    ------
    ValueError
        For an empty list, an empty item (``"4,,4"``, ``"4,"``) or an item that is not an integer (naming its
        position); a ``TypeError`` if ``text`` is not a string.

    Examples
    --------
    >>> parse_int_list("4,4,6", "sizes")
    [4, 4, 6]
    >>> parse_int_list("4,x", "sizes")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: sizes='4,x': item 2 'x' is not an integer: need ASCII digits 0-9 with an optional leading - ...
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}={shorten(text)} must be text (str), not {type(text).__name__}")
    if len(text) > 20 * (MAX_INT_DIGITS + 1):
        raise ValueError(f"{name}={shorten(text)} is too long: need at most 20 items of at most "
                         f"{MAX_INT_DIGITS} digits")
    items = text.split(sep)
    out = []
    for i, item in enumerate(items, 1):
        if not item:
            raise ValueError(f"{name}={shorten(text)}: item {i} is empty: need integers separated by "
                             f"single {sep!r}" + (" (nothing at all given)" if not text else ""))
        try:
            out.append(parse_int(item, "x"))
        except ValueError as exc:
            raise ValueError(f"{name}={shorten(text)}: item {i} {str(exc)[2:]}") from None
    return out


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def parse_bytes(text: Any, name: str = "max_memory") -> int:
    """Read a memory size: an integer number of bytes, or one followed by ``K``, ``M``, ``G`` or ``T``
    (binary units, an optional ``i`` and ``B``: ``8G``, ``8GiB``, ``512M``).

    Parameters
    ----------
    text : str
    name : str
        Parameter name for the message.

    Returns
    -------
    int
        Bytes, at least 1.

    Raises
    ------
    ValueError
        For anything else, or a size below 1 byte; a ``TypeError`` if ``text`` is not a string.

    Examples
    --------
    >>> parse_bytes("8G"), parse_bytes("512MiB"), parse_bytes("1000")
    (8589934592, 536870912, 1000)
    """
    if not isinstance(text, str):
        raise TypeError(f"{name}={shorten(text)} must be text (str), not {type(text).__name__}")
    body = text
    for suffix in ("iB", "B"):
        if body.upper().endswith(suffix.upper()) and len(body) > len(suffix):
            body = body[: -len(suffix)]
            break
    unit = body[-1:].upper() if body[-1:].upper() in _UNITS and body[-1:] else ""
    digits = body[:-1] if unit else body
    rule = "need a number of bytes such as 8G, 8GiB, 512M or 1000000 (units K, M, G, T of 1024)"
    if not digits or not _ASCII_DIGITS.issuperset(digits) or len(digits) > MAX_INT_DIGITS:
        raise ValueError(f"{name}={shorten(text)} is not a memory size: {rule}")
    value = int(digits) * _UNITS[unit]
    if value < 1:
        raise ValueError(f"{name}={shorten(text)} is too small: {rule}, at least 1 byte")
    return value


# ---------------------------------------------------------------------------------------------
# sizes: refuse, before allocating, what would not fit in memory
# ---------------------------------------------------------------------------------------------
#: The default memory limit is this fraction of the machine's physical memory: a build the size of the limit
#: leaves room for a second one (``pytest -n 2``, two notebooks at once) and for the operating system.
MEMORY_FRACTION = 0.25


def physical_memory() -> int:
    """The machine's physical memory in bytes (the cgroup's limit if that is smaller; 8 GiB if unknown).

    Examples
    --------
    >>> physical_memory() > 2**28
    True
    """
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not a POSIX system
        total = 8 * 2**30
    try:
        with open("/sys/fs/cgroup/memory.max") as fh:
            text = fh.read().strip()
        if text.isdigit() and 0 < int(text) < total:
            total = int(text)
    except OSError:
        pass
    return int(total)


def default_memory_limit() -> int:
    """:data:`MEMORY_FRACTION` of :func:`physical_memory`: the limit when nobody set one.

    Examples
    --------
    >>> default_memory_limit() == int(physical_memory() * MEMORY_FRACTION)
    True
    """
    return int(physical_memory() * MEMORY_FRACTION)


_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar("starlib_memory_limit", default=None)


def memory_limit() -> int:
    """The memory limit in force: the innermost :func:`limit_memory`, else :func:`default_memory_limit`.

    Examples
    --------
    >>> with limit_memory(2**30):
    ...     memory_limit()
    1073741824
    """
    v = _LIMIT.get()
    return default_memory_limit() if v is None else v


@contextlib.contextmanager
def limit_memory(max_memory: int | None) -> Iterator[int]:
    """Set the memory limit every builder checks, inside a ``with`` block (None: keep the one in force).

    The command line's ``--max-memory`` sets it around a whole command, so the builders called deep inside a
    construction see the same limit as the first check.

    Parameters
    ----------
    max_memory : int or None
        Bytes, at least 1.

    Yields
    ------
    int
        The limit in force inside the block.

    Raises
    ------
    ValueError
        If ``max_memory`` is not a positive integer.

    Examples
    --------
    >>> from starlib.factors import complete
    >>> with limit_memory(10**6):  # doctest: +ELLIPSIS
    ...     complete(2000)
    Traceback (most recent call last):
    ...
    ValueError: n=2000 is too large: complete(n=2000) would have 2,000 vertices and 1,999,000 edges and need \
about 122 MiB at its peak, over the memory limit of 977 KiB
    """
    token = None
    if max_memory is not None:
        token = _LIMIT.set(check_int(max_memory, "max_memory", minimum=1, rule="a positive number of bytes"))
    try:
        yield memory_limit()
    finally:
        if token is not None:
            _LIMIT.reset(token)


def format_bytes(b: int | float) -> str:
    """A byte count in binary units with three significant digits (``74.5 GiB``).

    Examples
    --------
    >>> format_bytes(999), format_bytes(80 * 2**30), format_bytes(2**40), format_bytes(3 * 10**21)
    ('999 B', '80.0 GiB', '1.00 TiB', '3.00e+21 B')
    """
    if b >= 1000 * 2**60:
        return f"{float(b):.2e} B" if b < 10**300 else f"about 2^{int(b).bit_length() - 1} B"
    for unit, size in (("EiB", 2**60), ("PiB", 2**50), ("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= size:
            v = b / size
            return f"{v:.2f} {unit}" if v < 10 else f"{v:.1f} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return f"{int(b)} B"


@dataclass(frozen=True)
class Size:
    """What a graph would take, estimated from its parameters before anything is built.

    Attributes
    ----------
    n : vertices.
    m : edges (arcs for a directed graph).
    peak_bytes : an upper bound on the bytes the builder holds at its peak (measured with ``tracemalloc`` and
        the resident set on sample builds, see each family's estimate), the interpreter itself not counted.
    items : what ``n`` counts when ``m`` is not edges (``"field elements"``); empty for a graph.
    """

    n: int
    m: int
    peak_bytes: int
    items: str = field(default="", repr=False)

    @classmethod
    def of(cls, n: int, m: int, edge_bytes: int, vertex_bytes: int, base: int = 0) -> Size:
        """``Size(n, m, edge_bytes * m + vertex_bytes * n + base)``: the linear model every estimate uses.

        >>> Size.of(10, 45, 64, 100).peak_bytes
        3880
        """
        return cls(int(n), int(m), int(edge_bytes * m + vertex_bytes * n + base))

    def then(self, other: Size) -> Size:
        """A builder that holds this graph while it builds ``other`` (a factor, then the product): ``other``'s
        vertices and edges, both peaks added.

        >>> Size(16, 24, 1000).then(Size(160, 784, 5000))
        Size(n=160, m=784, peak_bytes=6000)
        """
        return Size(other.n, other.m, self.peak_bytes + other.peak_bytes, other.items)

    def describe(self) -> str:
        """``"2,000 vertices and 1,999,000 edges and need about 92.2 MiB at its peak"``."""
        def count(x: int) -> str:
            return f"{x:,}" if x < 10**15 else f"{float(x):.2e}" if x < 10**300 else f"about 2^{x.bit_length() - 1}"
        what = f"{count(self.n)} {self.items}" if self.items else \
            f"{count(self.n)} vertices and {count(self.m)} edges"
        return f"{what} and need about {format_bytes(self.peak_bytes)} at its peak"


def check_size(size: Size, params: Mapping[str, Any], what: str, max_memory: int | None = None) -> Size:
    """Refuse, before anything is allocated, a graph whose estimated peak memory exceeds the limit.

    Parameters
    ----------
    size : Size
        The estimate (from the parameters only).
    params : mapping
        The parameters it was estimated from, named in the message (the first is the one said to be too large).
    what : str
        The family or builder (``"slimfly"``).
    max_memory : int, optional
        The limit in bytes (default: :func:`memory_limit`, which :func:`limit_memory` sets).

    Returns
    -------
    Size
        ``size``, if it fits.

    Raises
    ------
    ValueError
        ``"q=100003 is too large: slimfly(q=100003) would have 20,001,200,018 vertices and 1.50e+15 edges and
        need about 133 PiB at its peak, over the memory limit of 5.89 GiB"`` (a quarter of the machine's memory
        unless set).

    Examples
    --------
    >>> check_size(Size(10, 45, 4000), {"n": 10}, "complete").m
    45
    >>> check_size(Size(10**6, 10**12, 2**44), {"n": 10**6}, "complete", max_memory=2**33)
    Traceback (most recent call last):
    ...
    ValueError: n=1000000 is too large: complete(n=1000000) would have 1,000,000 vertices and \
1,000,000,000,000 edges and need about 16.0 TiB at its peak, over the memory limit of 8.00 GiB
    """
    limit = memory_limit() if max_memory is None else check_int(max_memory, "max_memory", minimum=1,
                                                                   rule="a positive number of bytes")
    if size.peak_bytes > limit:
        items = list(params.items())
        head = f"{items[0][0]}={shorten(items[0][1], 40)}" if items else what
        args = ", ".join(f"{k}={shorten(v, 40)}" for k, v in items)
        raise ValueError(f"{head} is too large: {what}({args}) would have {size.describe()}, over the memory "
                         f"limit of {format_bytes(limit)}")
    return size
