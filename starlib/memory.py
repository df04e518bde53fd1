"""Memory: the limit every builder checks, and the estimates it is checked against.

A builder estimates what it would take from its parameters alone (a :class:`Size`) and :func:`check_size` refuses
it, before anything is allocated, when the estimate exceeds the limit in force: :func:`memory_limit`, a quarter of
the machine's memory unless :func:`limit_memory` (the command line's ``--max-memory``) sets another.

What an estimate covers
-----------------------
On the command line the limit bounds the *whole process's peak resident set* (``VmHWM``), so the estimate checked
against it is the sum of two parts:

* the **baseline** (:func:`process_baseline`): the interpreter and the libraries the verb imports (numpy,
  networkx, scipy, numba, galois, pandas for the side domains) and, for the verbs that run numba kernels, the
  compiler's own peak when its cache is cold (the first run after an install compiles every kernel it calls);
* the **data** (:attr:`Size.peak_bytes`): the graph, the builder's intermediates and the written file, from each
  family's size model, plus, for ``edsts``, the trees, their packing and their verification (:func:`edst_size`).

The baselines were measured on Linux (CPython 3.11, numpy 2.3, numba 0.68, galois 0.4, x86-64) as the peak resident
set of a fresh ``starlib`` process, read from ``VmHWM`` in ``/proc/self/status`` at exit, building or packing the
smallest member of each family, with ``NUMBA_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`` and without (the same within
1 MiB on two cores): ``build`` 107 MiB (factor graphs), 127 MiB (products: scipy), 169 MiB (super Cayley and
network-design families: their packages), 204 MiB (an extension field GF(p^k), k > 1: galois; 222 MiB with an empty
``NUMBA_CACHE_DIR``); ``info`` 171-213 MiB (262 MiB cold: the diameter's kernels); ``edsts`` 197-275 MiB with
numba's cache warm, 295-409 MiB with an empty ``NUMBA_CACHE_DIR``. :data:`BASELINE_BYTES`,
:data:`INFO_BASELINE_BYTES` and :data:`EDST_BASELINE_BYTES` are those maxima with 8-17 % to spare. A library call
(no ``--max-memory``; the caller's process is whatever it is) checks only the data: the baseline in force is 0
unless :func:`limit_memory` sets one, as the command line does.

The per-family data models are linear in the vertices and edges (:meth:`Size.of`); their coefficients bound the
resident-set growth measured over the baseline on builds of 10^5 to 7 * 10^6 edges with 10 % or more to spare, and
``tests/test_memory_peak.py`` checks, for every declared family at two sizes and for ``edsts`` on five families,
that baseline plus data bounds the peak of a fresh process. On the larger sizes the estimate is 1.3-1.9 times the
measured peak (2.5 for PolarStar at q = 47, whose model covers the 115 bytes per edge measured at q = 31), and 2-2.5
times for ``edsts`` below about 10^6 edges, where the cold-compiler baseline dominates (``edsts complete n=4000``:
1.30 GiB estimated, 806 MiB measured).

Example
-------
>>> with limit_memory(2**20):
...     check_size(Size.of(10, 45, 64, 100), {"n": 10}, "complete").m
45
>>> with limit_memory(2**30, baseline=process_baseline("edsts")):
...     check_size(edst_size(Size.of(10, 45, 64, 100)), {"n": 10}, "complete").m
45
"""

from __future__ import annotations

import contextlib
import contextvars
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .validation import check_int, shorten

__all__ = ["MEMORY_FRACTION", "BASELINE_BYTES", "INFO_BASELINE_BYTES", "EDST_BASELINE_BYTES", "EDST_EDGE_BYTES",
           "EDST_VERTEX_BYTES", "physical_memory", "default_memory_limit", "memory_limit", "memory_baseline",
           "process_baseline", "limit_memory", "format_bytes", "Size", "edst_size", "check_size"]

#: The default memory limit is this fraction of the machine's physical memory: a build the size of the limit
#: leaves room for a second one (``pytest -n 2``, two notebooks at once) and for the operating system.
MEMORY_FRACTION = 0.25

#: Peak resident set of a ``starlib`` process before its data (``build`` and the verbs not named below): the
#: interpreter and the imports, measured at 107-204 MiB (222 MiB with numba's cache cold; the module docstring says
#: how), with 8-15 % to spare.
BASELINE_BYTES = 240 * 2**20

#: The same for ``info``, whose diameter runs numba's BFS kernels: 171-213 MiB warm, up to 262 MiB cold.
INFO_BASELINE_BYTES = 304 * 2**20

#: The same for ``edsts``, ``improve``, ``repair`` and ``verify``, which run numba kernels: 197-275 MiB with
#: numba's cache warm, up to 409 MiB when the kernels compile (a cold cache), with 15 % to spare.
EDST_BASELINE_BYTES = 480 * 2**20

#: The ``edsts`` phase on top of the build (:func:`edst_size`): the trees, the packing's work arrays, the
#: verification and the written file. Measured (``--method auto``) over the build's own peak: 28-36 bytes per edge
#: for K_n (2 and 8 million edges), less for Slim Fly, ER_q, PolarStar, the torus, Jellyfish and the star graph
#: (their builds' models already bound the whole run), with 25 % to spare.
EDST_EDGE_BYTES = 48

#: Per vertex of the ``edsts`` phase (the trees' parent arrays and depths, one row per tree).
EDST_VERTEX_BYTES = 400

#: The verbs whose baseline is :data:`EDST_BASELINE_BYTES` (they load the trees' numba kernels).
_EDST_VERBS = frozenset({"edsts", "export", "improve", "repair", "verify"})


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
_BASELINE: contextvars.ContextVar[int] = contextvars.ContextVar("starlib_memory_baseline", default=0)


def process_baseline(verb: str) -> int:
    """The baseline of a command-line verb: :data:`EDST_BASELINE_BYTES` for the verbs that pack or check trees,
    :data:`INFO_BASELINE_BYTES` for ``info``, else :data:`BASELINE_BYTES`.

    Examples
    --------
    >>> process_baseline("build") == BASELINE_BYTES, process_baseline("edsts") == EDST_BASELINE_BYTES
    (True, True)
    """
    return EDST_BASELINE_BYTES if verb in _EDST_VERBS else INFO_BASELINE_BYTES if verb == "info" else BASELINE_BYTES


def memory_baseline() -> int:
    """The baseline in force: the bytes :func:`check_size` adds to every estimate before comparing it with the
    limit (the innermost :func:`limit_memory` that set one; 0 outside the command line).

    Examples
    --------
    >>> memory_baseline()
    0
    >>> with limit_memory(None, baseline=BASELINE_BYTES):
    ...     memory_baseline() == BASELINE_BYTES
    True
    """
    return _BASELINE.get()


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
def limit_memory(max_memory: int | None, baseline: int | None = None) -> Iterator[int]:
    """Set the memory limit every builder checks, inside a ``with`` block (None: keep the one in force).

    The command line's ``--max-memory`` sets it around a whole command, so the builders called deep inside a
    construction see the same limit as the first check; it also sets the verb's :func:`process_baseline`, so the
    limit bounds the whole process.

    Parameters
    ----------
    max_memory : int or None
        Bytes, at least 1.
    baseline : int, optional
        Bytes the process holds before any data (:func:`process_baseline`), added to every estimate inside the
        block (None: keep the one in force; 0 outside the command line).

    Yields
    ------
    int
        The limit in force inside the block.

    Raises
    ------
    ValueError
        If ``max_memory`` is not a positive integer, or ``baseline`` a negative one.

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
    token = base = None
    if max_memory is not None:
        token = _LIMIT.set(check_int(max_memory, "max_memory", minimum=1, rule="a positive number of bytes"))
    if baseline is not None:
        base = _BASELINE.set(check_int(baseline, "baseline", minimum=0, rule="a number of bytes >= 0"))
    try:
        yield memory_limit()
    finally:
        if base is not None:
            _BASELINE.reset(base)
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
    peak_bytes : an upper bound on the bytes the builder adds to the process's resident set at its peak (its
        data and intermediates, measured over the baseline on sample builds, see each family's estimate); the
        interpreter and libraries are not counted (:func:`check_size` adds the baseline in force).
    items : what ``n`` counts when ``m`` is not edges (``"field elements"``); empty for a graph.
    directed : the graph will be directed (known from the parameters, as for a Cayley graph whose generators are
        not closed under inverses); False when undirected or not known before building.
    """

    n: int
    m: int
    peak_bytes: int
    items: str = field(default="", repr=False)
    directed: bool = field(default=False, repr=False)

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


def edst_size(size: Size) -> Size:
    """A graph's estimate with the ``edsts`` phase added: its trees, their packing and verification, and the
    written file (:data:`EDST_EDGE_BYTES` per edge, :data:`EDST_VERTEX_BYTES` per vertex).

    The build's intermediates are gone when the packing starts, so the sum bounds the larger of the two peaks.

    Examples
    --------
    >>> s = edst_size(Size.of(10, 45, 64, 100))
    >>> (s.n, s.m), s.peak_bytes == 64 * 45 + 100 * 10 + EDST_EDGE_BYTES * 45 + EDST_VERTEX_BYTES * 10
    ((10, 45), True)
    """
    return replace(size, peak_bytes=size.peak_bytes + EDST_EDGE_BYTES * size.m
                   + EDST_VERTEX_BYTES * size.n)


def check_size(size: Size, params: Mapping[str, Any], what: str, max_memory: int | None = None) -> Size:
    """Refuse, before anything is allocated, a graph whose estimated peak memory exceeds the limit.

    The estimate compared with the limit is ``size.peak_bytes`` plus the baseline in force
    (:func:`memory_baseline`: the interpreter and libraries on the command line, 0 in a library call).

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
        unless set); with a baseline, the message says how much of the estimate it is, or that it alone exceeds
        the limit (``"the memory limit of 64.0 MiB is too small for complete(n=10): the interpreter and libraries
        alone take about 240 MiB, ..."``).

    Examples
    --------
    >>> check_size(Size(10, 45, 4000), {"n": 10}, "complete").m
    45
    >>> check_size(Size(10**6, 10**12, 2**44), {"n": 10**6}, "complete", max_memory=2**33)
    Traceback (most recent call last):
    ...
    ValueError: n=1000000 is too large: complete(n=1000000) would have 1,000,000 vertices and \
1,000,000,000,000 edges and need about 16.0 TiB at its peak, over the memory limit of 8.00 GiB
    >>> with limit_memory(64 * 2**20, baseline=BASELINE_BYTES):
    ...     check_size(Size(10, 45, 4000), {"n": 10}, "complete")
    Traceback (most recent call last):
    ...
    ValueError: the memory limit of 64.0 MiB is too small for complete(n=10): the interpreter and libraries alone \
take about 240 MiB, its data about 3.91 KiB more
    """
    limit = memory_limit() if max_memory is None else check_int(max_memory, "max_memory", minimum=1,
                                                                   rule="a positive number of bytes")
    base = memory_baseline()
    total = Size(size.n, size.m, size.peak_bytes + base, size.items)
    if total.peak_bytes > limit:
        items = list(params.items())
        head = f"{items[0][0]}={shorten(items[0][1], 40)}" if items else what
        args = ", ".join(f"{k}={shorten(v, 40)}" for k, v in items)
        if base >= limit:
            raise ValueError(f"the memory limit of {format_bytes(limit)} is too small for {what}({args}): the "
                             f"interpreter and libraries alone take about {format_bytes(base)}, its data about "
                             f"{format_bytes(size.peak_bytes)} more")
        text = f"{head} is too large: {what}({args}) would have {total.describe()}"
        if base:
            text += f" (the interpreter and libraries about {format_bytes(base)} of it), over the memory limit of " \
                    f"{format_bytes(limit)}"
        else:
            text += f", over the memory limit of {format_bytes(limit)}"
        raise ValueError(text)
    return size
