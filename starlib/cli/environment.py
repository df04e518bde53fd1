"""The environment variables the command line reads, checked at start-up before numba is imported.

=========================  ==========================================================================================
variable                   rule
=========================  ==========================================================================================
``NUMBA_NUM_THREADS``      an integer from 1 to :data:`MAX_THREADS` (1024); numba reads it once, when it is imported,
                           runs more threads than CPUs (1024 on 2 CPUs, measured), but crashes on 100000 (a
                           segmentation fault, no message) and refuses 0 without naming it
``NUMBA_THREADING_LAYER``  one of numba's layers: ``default``, ``safe``, ``forksafe``, ``threadsafe``, ``tbb``,
                           ``omp``, ``workqueue``
``NUMBA_CACHE_DIR``        empty (numba's default), or a folder or a path where one can be made: an existing file
                           or device would make numba compile every kernel on every run (a minute), silently
``STARLIB_PROGRESS``       empty, ``0`` (no progress bar) or ``1`` (a bar even when standard error is no terminal)
``STARLIB_PROGRESS_DELAY`` empty, or a finite number of seconds >= 0 before the bar appears
=========================  ==========================================================================================

A variable that breaks its rule is one line naming it, its value and the rule, with exit status 2, before any
work (:func:`check_environment`). ``STARLIB_TRACEBACK`` (any non-empty value shows a traceback instead of the
one-line error) takes any value.

Example
-------
>>> check_environment({"NUMBA_NUM_THREADS": "1", "STARLIB_PROGRESS": "0"})
>>> check_environment({"NUMBA_NUM_THREADS": "0"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: NUMBA_NUM_THREADS='0' (environment variable) is too small: need an integer from 1 to 1024 (numba's \
threads, which may outnumber the CPUs), or unset it
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

__all__ = ["check_environment", "progress_delay", "DELAY", "THREADING_LAYERS", "MAX_THREADS"]

#: Seconds a command runs before its progress bar appears (``STARLIB_PROGRESS_DELAY`` overrides it).
DELAY = 1.0

#: numba's threading layers (``NUMBA_THREADING_LAYER``; numba's documentation, "The Threading Layers").
THREADING_LAYERS = ("default", "safe", "forksafe", "threadsafe", "tbb", "omp", "workqueue")

#: The most threads ``NUMBA_NUM_THREADS`` may ask for: numba runs more threads than CPUs (a parallel kernel with 1024
#: on 2 CPUs, measured) and crashes without a message on 100000.
MAX_THREADS = 1024


def _bad(name: str, value: str, why: str, rule: str) -> ValueError:
    from ..validation import shorten

    return ValueError(f"{name}={shorten(value, 40)} (environment variable) {why}: need {rule}, or unset it")


def progress_delay(environ: Mapping[str, str] | None = None) -> float:
    """Seconds before the progress bar appears: ``STARLIB_PROGRESS_DELAY`` (empty or unset: :data:`DELAY`).

    Raises
    ------
    ValueError
        For a value that is not a finite number >= 0, naming the variable.

    Examples
    --------
    >>> progress_delay({"STARLIB_PROGRESS_DELAY": "0.5"}), progress_delay({})
    (0.5, 1.0)
    """
    environ = os.environ if environ is None else environ
    text = environ.get("STARLIB_PROGRESS_DELAY", "")
    if text == "":
        return DELAY
    rule = "a number of seconds >= 0 (1.5)"
    try:
        seconds = float(text) if text.isascii() and "_" not in text else math.nan
    except ValueError:
        raise _bad("STARLIB_PROGRESS_DELAY", text, "is not a number", rule) from None
    if not math.isfinite(seconds) or seconds < 0:
        raise _bad("STARLIB_PROGRESS_DELAY", text, "is out of range" if math.isfinite(seconds) else
                   "is not a number", rule)
    return seconds


def check_environment(environ: Mapping[str, str] | None = None) -> None:
    """Check the environment variables of the module text; the first that breaks its rule is a ``ValueError``.

    Parameters
    ----------
    environ : mapping, optional
        The environment (default ``os.environ``).

    Raises
    ------
    ValueError
        Naming the variable, its value (shortened) and the rule.

    Examples
    --------
    >>> check_environment({"STARLIB_PROGRESS": "yes"})
    Traceback (most recent call last):
    ...
    ValueError: STARLIB_PROGRESS='yes' (environment variable) is not 0 or 1: need 0 (no progress bar) or 1 (a bar \
on any standard error), or unset it
    """
    environ = os.environ if environ is None else environ
    text = environ.get("NUMBA_NUM_THREADS")
    if text is not None:  # numba reads even an empty value (and warns with a traceback)
        limit = MAX_THREADS
        rule = f"an integer from 1 to {limit} (numba's threads, which may outnumber the CPUs)"
        digits = text.isascii() and text.isdigit()
        if not digits:
            raise _bad("NUMBA_NUM_THREADS", text, "is not an integer", rule)
        if len(text) > 9 or int(text) > limit:
            raise _bad("NUMBA_NUM_THREADS", text, "is too large", rule)
        if int(text) < 1:
            raise _bad("NUMBA_NUM_THREADS", text, "is too small", rule)
    layer = environ.get("NUMBA_THREADING_LAYER")
    if layer is not None and layer not in THREADING_LAYERS:
        raise _bad("NUMBA_THREADING_LAYER", layer, "is not a threading layer of numba",
                   f"one of {', '.join(THREADING_LAYERS)}")
    cache = environ.get("NUMBA_CACHE_DIR", "")
    if cache:
        try:
            not_folder = os.path.exists(cache) and not os.path.isdir(cache)
        except (ValueError, OSError):  # a NUL character, a name too long
            not_folder = True
        if not_folder:
            raise _bad("NUMBA_CACHE_DIR", cache, "is not a folder", "the folder where numba caches the compiled "
                       "kernels (made if absent)")
    shown = environ.get("STARLIB_PROGRESS", "")
    if shown not in ("", "0", "1"):
        raise _bad("STARLIB_PROGRESS", shown, "is not 0 or 1", "0 (no progress bar) or 1 (a bar on any standard "
                   "error)")
    progress_delay(environ)
