"""Memory: the limit every builder checks, and the estimates it is checked against.

A builder estimates what it would take from its parameters alone (a :class:`Size`) and :func:`check_size` refuses
it, before anything is allocated, when the estimate exceeds the limit in force: :func:`memory_limit`, a quarter of
the machine's memory unless :func:`limit_memory` (the command line's ``--max-memory``) sets another.

Example
-------
>>> with limit_memory(2**20):
...     check_size(Size.of(10, 45, 64, 100), {"n": 10}, "complete").m
45
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .validation import check_int, shorten

__all__ = ["MEMORY_FRACTION", "physical_memory", "default_memory_limit", "memory_limit", "limit_memory",
           "format_bytes", "Size", "check_size"]

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
