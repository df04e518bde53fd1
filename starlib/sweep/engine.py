"""The sweep loop on ``dask.distributed``: one task per parameter point, each row written as it arrives.

:func:`run_sweep` reads the record, drops the points it already holds, and submits one task per remaining point
to a Dask cluster: a :class:`distributed.LocalCluster` of worker processes on this machine by default, or the
scheduler at ``scheduler`` (``tcp://host:8786``), for example one started by ``dask-jobqueue`` on a Slurm or PBS
cluster. Dearer points (by :attr:`Point.cost`) get a higher priority, so the longest tasks start first. As each
task finishes, its row is merged into the record under the record's lock and the whole record is rewritten
atomically (:func:`starlib.sweep.record.merge_record`: the file is read again first, so rows another process
wrote meanwhile survive): an interrupted sweep keeps every finished row, and a rerun resumes from them. A
worker that dies mid-task (killed, out of memory) loses nothing: the scheduler runs its tasks again
on another worker, and each point still gives exactly one row.

Example
-------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> pts = [Point(key=(str(q),), func=_square, args=(q,)) for q in (2, 3)]
>>> run_sweep(pts, p, columns=("q", "square"), key=("q",), workers=1).computed
2
>>> p.read_text().splitlines()
['q,square', '2,4', '3,9']
>>> run_sweep(pts, p, columns=("q", "square"), key=("q",), workers=1).computed  # resumed: nothing left
0
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..validation import require_extra
from .record import RowCheck, merge_record, read_record

__all__ = ["Point", "SweepResult", "run_sweep", "open_client", "close_client", "check_scheduler"]

#: HOST:PORT after the scheme: a name or IPv4 address, or an IPv6 address in brackets
_HOST_PORT = re.compile(r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))(?::(?P<port>[0-9]{1,5}))")


def check_scheduler(address: str, name: str = "scheduler") -> str:
    """Check a Dask scheduler address before connecting; return it.

    The address is ``SCHEME://HOST:PORT`` with a scheme of the installed ``distributed`` that reaches another
    process (``tcp``, ``tls``, and ``ucx``, ``ws``, ``wss`` where available; not ``inproc``, which only names a
    scheduler inside this process), or ``HOST:PORT`` (``tcp``). ``PORT`` is 1 .. 65535; an IPv6 host is written in
    brackets (``tcp://[::1]:8786``).

    Parameters
    ----------
    address : str
        The address.
    name : str
        Parameter name for the message.

    Returns
    -------
    str
        ``address``.

    Raises
    ------
    ValueError
        Naming the parameter, the address and the rule.

    Example
    -------
    >>> check_scheduler("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> check_scheduler("garbage", "--scheduler")
    Traceback (most recent call last):
    ...
    ValueError: --scheduler='garbage' is not a Dask scheduler address: need tcp://HOST:PORT (or tls://HOST:PORT)
    """
    rule = "need tcp://HOST:PORT (or tls://HOST:PORT)"
    if not isinstance(address, str) or not address:
        raise ValueError(f"{name}={address!r} is not a Dask scheduler address: {rule}")
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme == "inproc":
        raise ValueError(f"{name}={address!r}: an inproc address names a scheduler inside one process, which "
                         f"starlib cannot reach; {rule}")
    try:
        from distributed.comm.registry import backends

        schemes = sorted(s for s in backends if s != "inproc")
    except ImportError:  # pragma: no cover - the caller checks the extra first
        schemes = ["tcp", "tls"]
    if scheme not in schemes:
        raise ValueError(f"{name}={address!r} has the scheme {scheme!r}: not one of {', '.join(schemes)}; {rule}")
    m = _HOST_PORT.fullmatch(rest)
    if m is None:
        raise ValueError(f"{name}={address!r} is not a Dask scheduler address: {rule}")
    if not 1 <= int(m["port"]) <= 65535:
        raise ValueError(f"{name}={address!r} has the port {int(m['port'])}: need a port in 1 .. 65535")
    return address


def _square(q: int) -> dict[str, int]:
    """A toy point function (the module example): ``{"q": q, "square": q * q}``."""
    return {"q": q, "square": q * q}


@dataclass(frozen=True)
class Point:
    """One parameter point of a sweep.

    Attributes
    ----------
    key : tuple of str
        The point's key cells in the record (as written, e.g. ``("1024", "low-depth")``).
    func : callable
        Importable on the workers; ``func(*args)`` returns the row (a dict over the record's columns).
    args : tuple
        Its arguments.
    cost : float
        Relative cost (e.g. edges); the dearest points start first.
    """

    key: tuple[str, ...]
    func: Callable[..., dict[str, Any]]
    args: tuple = ()
    cost: float = 0.0


@dataclass
class SweepResult:
    """What :func:`run_sweep` did.

    Attributes
    ----------
    total : int
        Points asked for.
    skipped : int
        Points already in the record when the run started.
    taken : int
        Points another process wrote to the record while this run computed them (the file's row is kept).
    computed : int
        Points computed by this run (each written once).
    rows : dict
        The whole record after the run, by key.
    failed : list
        ``(key, message)`` of the points whose task raised (no row; a rerun tries them again).
    """

    total: int
    skipped: int
    computed: int = 0
    taken: int = 0
    rows: dict[tuple, dict[str, Any]] = field(default_factory=dict)
    failed: list[tuple[tuple, str]] = field(default_factory=list)


def open_client(scheduler: str | None = None, workers: int = 2, threads_per_worker: int = 1,
                memory_limit: str | int = "auto") -> Any:
    """A ``distributed.Client``: to the scheduler at ``scheduler``, else on a new local cluster of processes.

    Parameters
    ----------
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); None starts a ``LocalCluster``.
    workers : int
        Worker processes of the local cluster.
    threads_per_worker : int
        Threads per worker (1: the point functions are compiled, single-threaded code).
    memory_limit : str or int
        Per-worker memory limit of the local cluster (``"auto"``: the machine's memory shared by the workers).

    Returns
    -------
    distributed.Client
        Close it (or use it as a context manager); a local cluster closes with it.

    Raises
    ------
    ValueError
        If ``scheduler`` is not an address (:func:`check_scheduler`), or no scheduler answers there within 10 s.
    starlib.validation.MissingExtra
        An ImportError naming the extra to install when dask or distributed is missing.
    """
    require_extra("sweep", "starlib.sweep.open_client")
    from distributed import Client, LocalCluster

    if scheduler is not None:
        check_scheduler(scheduler)
        try:
            return Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"scheduler={scheduler!r}: no Dask scheduler answered within 10 s ({exc})") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=threads_per_worker, processes=True,
                           memory_limit=memory_limit, dashboard_address=":0", silence_logs=logging.CRITICAL)
    client = Client(cluster)
    client._starlib_cluster = cluster  # closed with the client (close_client)
    return client


def close_client(client: Any) -> None:
    """Close a client from :func:`open_client`, and the local cluster it started (if any)."""
    cluster = getattr(client, "_starlib_cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


def run_sweep(points: Sequence[Point], path: str | os.PathLike, *, columns: Sequence[str], key: Sequence[str],
              scheduler: str | None = None, workers: int = 2, client: Any = None,
              on_row: Callable[[dict[str, Any], int, int], None] | None = None,
              check: RowCheck | None = None) -> SweepResult:
    """Compute every point not yet in the record at ``path`` as Dask tasks, writing each row as it arrives.

    Parameters
    ----------
    points : sequence of Point
        The sweep (keys must be distinct).
    path : path-like
        The record (CSV); read first, then after every finished point read again, merged with the new row and
        rewritten atomically, all under the record's lock (:func:`~starlib.sweep.record.merge_record`), so several
        runs may share one record.
    columns, key : sequence of str
        The record's header and key columns (see :mod:`starlib.sweep.record`).
    scheduler : str, optional
        A Dask scheduler address; None starts a local cluster of ``workers`` processes.
    workers : int
        Worker processes of the local cluster.
    client : distributed.Client, optional
        Use this client (and its cluster) instead of opening one; it is left open.
    on_row : callable, optional
        ``on_row(row, done, todo)`` after each row is written (progress).
    check : callable, optional
        Validates each row of the record and each row a task returns (see :mod:`starlib.sweep.record`).

    Returns
    -------
    SweepResult

    Raises
    ------
    ValueError
        If two points share a key, the record is not a record of these columns (or a row fails ``check``), or a
        task returns a row with the wrong key. A task that raises gives no row: it is listed in
        :attr:`SweepResult.failed` and the other points go on.
    """
    keys = [tuple(p.key) for p in points]
    if len(set(keys)) != len(keys):
        raise ValueError("points: two points share a key")
    rows: dict[tuple, dict[str, Any]] = dict(read_record(path, columns=columns, key=key, check=check))
    todo = [p for p in points if tuple(p.key) not in rows]
    result = SweepResult(total=len(points), skipped=len(points) - len(todo), rows=rows)
    if not todo:
        return result
    require_extra("sweep", "starlib.sweep.run_sweep")
    from distributed import as_completed

    own = client is None
    if own:
        client = open_client(scheduler, workers=workers)
    try:
        submitted, by_key = [], {}
        for p in sorted(todo, key=lambda p: -p.cost):  # dearest first (the queue is also ordered by priority)
            name = "-".join(("starlib-sweep", p.func.__name__, *p.key))
            fut = client.submit(p.func, *p.args, key=name, priority=p.cost, pure=False)
            submitted.append(fut)
            by_key[fut.key] = p
        for fut in as_completed(submitted):
            p = by_key[fut.key]
            if fut.status == "cancelled":  # cancelled above: another run wrote this point
                result.taken += 1
                continue
            if fut.status == "error":  # the task raised, or its worker died too often: no row, go on
                exc = fut.exception()
                result.failed.append((tuple(p.key), f"{type(exc).__name__}: {exc}".splitlines()[0]))
                fut.release()
                continue
            row = fut.result()
            got = tuple(str(row.get(c, "")) for c in key)
            if got != tuple(p.key):
                raise ValueError(f"point {p.key}: the task returned the row of {got}")
            rows, added = merge_record(path, [row], columns=columns, key=key, check=check)
            result.rows = rows
            fut.release()
            if not added:  # another run wrote this point first: its row stays
                result.taken += 1
                continue
            result.computed += 1
            if on_row is not None:
                on_row(row, result.computed, len(todo))
            for other in submitted:  # points another run finished meanwhile: not computed twice
                if other.key in by_key and tuple(by_key[other.key].key) in rows and not other.done():
                    other.cancel()
    finally:
        if own:
            close_client(client)
    return result

