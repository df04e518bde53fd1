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
:func:`check_permutation`  a permutation of ``0..n-1``
:func:`parse_int`          text: ASCII decimal digits with an optional leading ``-`` (user input)
:func:`parse_int_list`     text: such integers separated by commas (``sizes=4,4,4``)
:func:`parse_bytes`        text: a memory size (``8G``, ``512M``, ``1000000``)
:func:`require_extra`      the optional packages of an extra (``pip install 'starlib[sweep]'``) are installed
=========================  =================================================================

Two checks live beside what they check: :func:`starlib.primes.check_prime_power` (primality and prime powers) and
:func:`starlib.memory.check_size` (a :class:`~starlib.memory.Size` estimate within the memory limit, before anything
is allocated).

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

from typing import Any

import numpy as np

__all__ = ["as_int", "check_int", "check_real", "check_flag", "check_choice", "check_permutation", "shorten",
           "printable", "parse_int", "parse_int_list", "parse_bytes", "MAX_INT_DIGITS", "EXTRAS", "MissingExtra",
           "require_extra"]


def as_int(value: Any) -> int | None:
    """``int(value)`` for genuine integers (Python or numpy, not bool), else None.

    >>> as_int(5), as_int(True), as_int(5.0)
    (5, None, None)
    """
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
    v = as_int(value)
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


def printable(value: Any, limit: int = 80) -> str:
    """Text from a file made safe to print: every non-printable character escaped, cut in the middle beyond ``limit``.

    Control characters (C0, DEL and the C1 controls U+0080-U+009F, which terminals read as escape sequences), bidi
    overrides and isolates (U+202A-U+202E, U+2066-U+2069) and every other character that ``str.isprintable``
    refuses are written as ``repr`` writes them (``\\x1b``, ``\\u202e``), so a crafted network name cannot retitle,
    clear or rewrite the terminal. Unlike :func:`shorten` the text is not quoted.

    Parameters
    ----------
    value : Any
        A string (anything else is ``str()``-ed first).
    limit : int
        Longest text kept whole (after escaping); a longer one keeps its two ends and states its length.

    Returns
    -------
    str
        Printable text of at most about ``limit`` characters.

    Examples
    --------
    >>> printable("\\x1b]0;pwned\\x07 ok\\u202e")
    '\\\\x1b]0;pwned\\\\x07 ok\\\\u202e'
    >>> printable("A" * 100, 20)
    'AAAAAAA...AAAAAAA (100 characters)'
    """
    text = value if isinstance(value, str) else str(value)
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(text) <= limit:
        return text
    half = max((limit - 6) // 2, 4)
    n = len(value) if isinstance(value, str) else len(text)
    return f"{text[:half]}...{text[-half:]} ({n} characters)"


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


def parse_real(text: str | None, name: str, minimum: float | None = None, strict: bool = False) -> float | None:
    """Read a real number written by a user (``None`` stays ``None``), finite and at least ``minimum``.

    >>> parse_real("2.5", "--budget", 0), parse_real(None, "--budget")
    (2.5, None)
    >>> parse_real("soon", "--budget")
    Traceback (most recent call last):
    ...
    ValueError: --budget='soon' is not a number
    """
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name}={shorten(text)} is not a number") from None
    return check_real(value, name, minimum, strict=strict)


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


#: The optional extras of ``pyproject.toml`` that starlib's own code imports, and the modules each one brings.
#: ``pip install starlib`` gives the library and the command line; an extra brings the rest.
EXTRAS: dict[str, tuple[str, ...]] = {
    "sweep": ("dask", "distributed"),          # starlib.sweep, starlib sweep: Dask tasks on a cluster
    "simulate": ("cppyy", "ns"),               # starlib.netsim: the ns-3 packet simulator (PyPI ns3, cppyy)
    "exact": ("ortools",),                     # starlib.edst.depth.exact, --method optimal-depth: OR-tools CP-SAT
    "notebooks": ("IPython", "papermill", "nbformat"),  # the notebooks, tools/run_notebook.py, inline display
}


class MissingExtra(ImportError):
    """An optional package of a starlib extra is not installed (the message names the extra to install)."""


def require_extra(extra: str, what: str) -> None:
    """Check that the packages of ``extra`` import; else one message naming the extra to install.

    Parameters
    ----------
    extra : str
        A key of :data:`EXTRAS` (``"sweep"``, ``"simulate"``, ``"notebooks"``).
    what : str
        What needs it, as the user called it (``"starlib sweep"``, ``"starlib.sweep.run_sweep"``).

    Raises
    ------
    MissingExtra
        An ImportError: ``starlib sweep needs the 'sweep' extra: pip install 'starlib[sweep]'``, when one of the
        extra's modules is not installed (found by :func:`importlib.util.find_spec`, nothing is imported; a module
        set to None in ``sys.modules`` counts as missing).

    Examples
    --------
    >>> require_extra("sweep", "starlib sweep")  # dask and distributed are installed here
    >>> import sys
    >>> saved = sys.modules.get("distributed")
    >>> sys.modules["distributed"] = None
    >>> try:
    ...     require_extra("sweep", "starlib sweep")
    ... except ImportError as exc:
    ...     print(exc)
    ... finally:
    ...     _ = sys.modules.pop("distributed") if saved is None else sys.modules.update(distributed=saved)
    starlib sweep needs the 'sweep' extra: pip install 'starlib[sweep]'
    """
    import importlib.util

    for module in EXTRAS[check_choice(extra, "extra", tuple(EXTRAS))]:
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(f"{what} needs the '{extra}' extra: pip install 'starlib[{extra}]'")
