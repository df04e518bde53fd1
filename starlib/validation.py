"""Up-front argument checks shared by the graph builders.

Every bad input is a ``ValueError`` whose message names the parameter, its value and the rule
(``n=1 is too small: need an integer n >= 2``), raised before any construction starts.

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

__all__ = ["check_int", "check_flag", "check_choice"]


def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in ``[minimum, maximum]``.

    Parameters
    ----------
    value : Any
        The argument to check (bool is rejected).
    name : str
        Parameter name for the message.
    minimum, maximum : int, optional
        Inclusive bounds.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``value`` is not an integer or lies outside the bounds.

    Examples
    --------
    >>> check_int(np.int64(3), "d", minimum=3)
    3
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name}={value!r} is not an integer")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name}={v} is too small: need an integer {name} >= {minimum}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name}={v} is too large: need an integer {name} <= {maximum}")
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

    Raises
    ------
    ValueError
        Listing the allowed values.

    Examples
    --------
    >>> check_choice("iq", "supernode", ("paley", "iq"))
    'iq'
    """
    if value not in choices:
        raise ValueError(f"{name}={value!r} is not one of {', '.join(repr(c) for c in choices)}")
    return str(value)
