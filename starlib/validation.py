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
=========================  =================================================================

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

from typing import Any

import numpy as np

__all__ = ["check_int", "check_real", "check_flag", "check_choice", "check_prime_power", "check_permutation",
           "prime_power_parts", "is_prime_power"]


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


def prime_power_parts(q: Any) -> tuple[int, int] | None:
    """Return ``(p, k)`` with ``q = p**k`` and ``p`` prime, or None if ``q`` is not a prime power.

    Trial division up to the square root of ``q`` (the orders used anywhere are below ``10^7``).

    Examples
    --------
    >>> prime_power_parts(125), prime_power_parts(12), prime_power_parts(1)
    ((5, 3), None, None)
    """
    q = _as_int(q)
    if q is None or q < 2:
        return None
    p = None
    if q % 2 == 0:
        p = 2
    else:
        f = 3
        while f * f <= q:
            if q % f == 0:
                p = f
                break
            f += 2
        if p is None:
            return (q, 1)
    k, r = 0, q
    while r % p == 0:
        r //= p
        k += 1
    return (p, k) if r == 1 else None


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
