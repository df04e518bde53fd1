"""A collective schedule as message streams over a network's links: what the simulators and the exports run.

A :class:`Schedule` is the one representation every allreduce schedule of :mod:`starlib.allreduce.schedules` is
built into, and every consumer reads: ns-3 and SimGrid (:mod:`starlib.netsim`), the MSCCL export and its replay
(:mod:`starlib.io.msccl`). It describes the network, the ranks and a set of *messages*.

The network
-----------
``nodes`` vertices (routers, then hosts if any) and ``links`` (full-duplex point-to-point, one row per link) with
a rate (Gb/s each way) and a propagation delay (microseconds) per link. ``ranks[i]`` is the node that plays rank
``i`` (holds a contribution and must end with the sum of all of them); a node that is no rank only forwards and
may reduce (a router in an in-network allreduce).

The buffer
----------
Every rank's buffer of ``size`` bytes is cut into ``C`` chunks, chunk ``c`` of ``chunk_bytes[c]`` bytes. A
message is a *stream* of packets, one chunk each: packet ``j`` of message ``m`` carries chunk
``chunks(m)[j]``.

Messages
--------
Message ``m`` goes from ``path(m)[0]`` to ``path(m)[-1]`` hop by hop over links of the network. Packet ``j`` of
``m`` leaves its source once, for every dependency ``(d, off)`` of ``m`` with ``0 <= j + off < packets(d)``,
packet ``j + off`` of message ``d`` has arrived (``d`` ends where ``m`` starts). It carries the number of
contributions summed into it: its source's own contribution (1 where ``own_lo <= j < own_hi``, else 0) plus the
counts of the packets it waited for. At its destination it is added to the chunk held there (``reduce``) or
overwrites it (a copy); the simulators need only the counts, the MSCCL export both.

Pacing
------
``pace_gbps[m]`` (Gb/s; 0 for an unpaced message) limits the rate at which message ``m`` leaves its source, as a
network card or switch limits a flow (a rate limiter per queue pair or per flow): a token bucket of one packet.
A paced message's packets leave in their order, packet ``j`` no earlier than it is released (its dependencies
arrived) and no earlier than packet ``j - 1`` left plus ``8 b / pace_gbps[m]`` ns, ``b`` the payload bytes of
packet ``j - 1``; no credit is saved while a message waits for its dependencies, so it never bursts. Pacing acts
at the source only: the later hops of a multi-hop message forward each packet as it arrives, like any packet. An
unpaced message sends each packet when it is released. A rate above what the links can carry does nothing;
:func:`replay_counts` ignores pacing (it has no time).

A schedule is correct when every packet of every *final* range ``(m, lo, hi)`` arrives carrying all ``R``
contributions (``R`` = number of ranks) and the run does not stall; :func:`replay_counts` checks both without a
simulator (no time, only the order the dependencies force), and the simulators check it again as they run.

Example
-------
Reduce then broadcast on the path 0 - 1 - 2 rooted at 1, one chunk:

>>> b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [1.0], chunk_bytes=[1024])
>>> up0 = b.add([0, 1], [0], own=True, reduce=True)
>>> up2 = b.add([2, 1], [0], own=True, reduce=True)
>>> d0 = b.add([1, 0], [0], deps=[(up0, 0), (up2, 0)], own=True, final=True)
>>> d2 = b.add([1, 2], [0], deps=[(up0, 0), (up2, 0)], own=True, final=True)
>>> s = b.build("trees", size=1024)
>>> s.messages, s.ranks.tolist(), replay_counts(s)
(4, [0, 1, 2], 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..validation import check_int, check_real

__all__ = ["Schedule", "ScheduleBuilder", "replay_counts", "split_bytes"]


def split_bytes(size: int, parts: int) -> np.ndarray:
    """``size`` bytes cut into ``parts`` pieces as equal as integers allow (the first ``size mod parts`` one larger).

    Example
    -------
    >>> split_bytes(10, 4).tolist()
    [3, 3, 2, 2]
    """
    size = check_int(size, "size", minimum=0)
    parts = check_int(parts, "parts", minimum=1)
    out = np.full(parts, size // parts, dtype=np.int64)
    out[: size % parts] += 1
    return out


@dataclass(frozen=True, eq=False)
class Schedule:
    """A collective as message streams on a network (module docstring). Build it with :class:`ScheduleBuilder`.

    Every array is an int64 (or float64) numpy array; ``*_ptr`` arrays are CSR offsets into the flat array after
    them (message ``m`` owns ``flat[ptr[m]:ptr[m + 1]]``). ``pace_gbps`` is each message's pacing rate (module
    docstring, *Pacing*; 0 or omitted: unpaced).
    """

    name: str
    nodes: int
    links: np.ndarray  # (L, 2)
    rate_gbps: np.ndarray  # (L,)
    delay_us: np.ndarray  # (L,)
    ranks: np.ndarray  # (R,) node of each rank
    size: int  # bytes of each rank's buffer
    chunk_bytes: np.ndarray  # (C,)
    path_ptr: np.ndarray  # (M + 1,)
    path_nodes: np.ndarray
    chunk_ptr: np.ndarray  # (M + 1,): packets(m) = chunk_ptr[m + 1] - chunk_ptr[m]
    chunk_ids: np.ndarray
    dep_ptr: np.ndarray  # (M + 1,)
    dep_msg: np.ndarray
    dep_off: np.ndarray
    own_lo: np.ndarray  # (M,)
    own_hi: np.ndarray  # (M,)
    reduce: np.ndarray  # (M,) bool
    final_msg: np.ndarray  # (F,)
    final_lo: np.ndarray
    final_hi: np.ndarray
    pace_gbps: np.ndarray | None = None  # (M,) float64, 0: unpaced (None: every message unpaced)
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.pace_gbps is None:
            object.__setattr__(self, "pace_gbps", np.zeros(self.messages, dtype=np.float64))

    @property
    def messages(self) -> int:
        """Number of messages."""
        return int(self.path_ptr.shape[0] - 1)

    @property
    def packets(self) -> np.ndarray:
        """Packets of each message."""
        return np.diff(self.chunk_ptr)

    @property
    def packet_bytes(self) -> np.ndarray:
        """Bytes of every packet of every message, flat (aligned with ``chunk_ids``)."""
        return self.chunk_bytes[self.chunk_ids]

    def path(self, m: int) -> np.ndarray:
        """The nodes message ``m`` visits."""
        return self.path_nodes[self.path_ptr[m]:self.path_ptr[m + 1]]

    def chunks(self, m: int) -> np.ndarray:
        """The chunk each packet of message ``m`` carries."""
        return self.chunk_ids[self.chunk_ptr[m]:self.chunk_ptr[m + 1]]

    def deps(self, m: int) -> list[tuple[int, int]]:
        """``(message, offset)`` dependencies of message ``m``."""
        s, e = self.dep_ptr[m], self.dep_ptr[m + 1]
        return list(zip(self.dep_msg[s:e].tolist(), self.dep_off[s:e].tolist(), strict=True))

    def hop_directions(self) -> np.ndarray:
        """The link direction of every hop of every message, flat (message by message, hop by hop): ``2 l`` along
        link ``l``'s row (from ``links[l, 0]`` to ``links[l, 1]``), ``2 l + 1`` against it.

        Example
        -------
        >>> b = ScheduleBuilder(3, np.array([[0, 1], [2, 1]]), [1.0], chunk_bytes=[10])
        >>> _ = b.add([0, 1, 2], [0])
        >>> b.build("x", size=10).hop_directions().tolist()
        [0, 3]
        """
        n = self.nodes
        key = np.minimum(self.links[:, 0], self.links[:, 1]) * n + np.maximum(self.links[:, 0], self.links[:, 1])
        order = np.argsort(key, kind="stable")
        a = np.delete(self.path_nodes, self.path_ptr[1:] - 1)  # every node but the last of each path
        b = np.delete(self.path_nodes, self.path_ptr[:-1])  # every node but the first
        pos = order[np.searchsorted(key[order], np.minimum(a, b) * n + np.maximum(a, b))]
        return 2 * pos + (self.links[pos, 0] != a)

    def message_bytes(self) -> np.ndarray:
        """Bytes of each message (the sum of its packets')."""
        return np.add.reduceat(self.packet_bytes, self.chunk_ptr[:-1]) if self.chunk_ids.size else \
            np.zeros(self.messages, dtype=np.int64)

    def link_bytes(self) -> np.ndarray:
        """Bytes each link carries in each direction, ``(L, 2)``: column 0 from ``links[:, 0]`` to ``links[:, 1]``.

        Example
        -------
        >>> b = ScheduleBuilder(2, np.array([[0, 1]]), [1.0], chunk_bytes=[10, 20])
        >>> _ = b.add([1, 0], [0, 1], own=True, final=True)
        >>> b.build("x", size=30).link_bytes().tolist()
        [[0, 30]]
        """
        w = np.repeat(self.message_bytes(), np.diff(self.path_ptr) - 1)
        return np.bincount(self.hop_directions(), weights=w, minlength=2 * self.links.shape[0]).astype(
            np.int64).reshape(-1, 2)


class ScheduleBuilder:
    """Collects the messages of a :class:`Schedule` (checked once, in :meth:`build`).

    Parameters
    ----------
    nodes : int
        Vertices of the network.
    links : array (L, 2)
        Its links.
    rate_gbps : sequence of float
        Rate of each link (Gb/s each way), or one value for all.
    delay_us : float or sequence of float
        Propagation delay of each link (microseconds), or one value for all.
    chunk_bytes : sequence of int
        The buffer's chunks.
    ranks : sequence of int, optional
        The node of each rank (default: every node).
    """

    def __init__(self, nodes: int, links: np.ndarray, rate_gbps: Sequence[float] | float, delay_us: Any = 1.0,
                 *, chunk_bytes: Sequence[int], ranks: Sequence[int] | None = None) -> None:
        self.nodes = check_int(nodes, "nodes", minimum=1)
        self.links = np.asarray(links, dtype=np.int64).reshape(-1, 2)
        L = self.links.shape[0]
        self.rate = np.broadcast_to(np.asarray(rate_gbps, dtype=np.float64).reshape(-1), (L,)).copy() if L else \
            np.zeros(0)
        self.delay = np.broadcast_to(np.asarray(delay_us, dtype=np.float64).reshape(-1), (L,)).copy() if L else \
            np.zeros(0)
        self.chunk_bytes = np.asarray(chunk_bytes, dtype=np.int64).reshape(-1)
        self.ranks = np.arange(self.nodes, dtype=np.int64) if ranks is None else np.asarray(ranks, dtype=np.int64)
        self._paths: list[np.ndarray] = []
        self._chunks: list[np.ndarray] = []
        self._deps: list[list[tuple[int, int]]] = []
        self._own: list[tuple[int, int]] = []
        self._reduce: list[bool] = []
        self._final: list[tuple[int, int, int]] = []
        self._pace: list[float] = []

    def add(self, path: Sequence[int], chunks: Sequence[int], deps: Sequence[tuple[int, int]] = (), *,
            own: bool | tuple[int, int] = False, reduce: bool = False,
            final: bool | tuple[int, int] = False, pace_gbps: float = 0.0) -> int:
        """Add a message; returns its index.

        Parameters
        ----------
        path : sequence of int
            Nodes visited, source first (consecutive ones linked).
        chunks : sequence of int
            The chunk each packet carries.
        deps : sequence of (int, int)
            ``(message, offset)``: packet ``j`` waits for packet ``j + offset`` of ``message`` (where it exists).
        own : bool or (lo, hi)
            The source adds its contribution to every packet (True), none (False) or packets ``lo <= j < hi``.
        reduce : bool
            The destination adds the packet to its chunk (else the packet overwrites it).
        final : bool or (lo, hi)
            Every packet (True), or packets ``lo <= j < hi``, must arrive with all contributions.
        pace_gbps : float
            The message leaves its source at most at this rate (Gb/s; 0: unpaced; module docstring, *Pacing*).
        """
        p = np.asarray(path, dtype=np.int64).reshape(-1)
        c = np.asarray(chunks, dtype=np.int64).reshape(-1)
        m = len(self._paths)
        self._paths.append(p)
        self._chunks.append(c)
        self._deps.append([(int(d), int(o)) for d, o in deps])
        self._own.append((0, c.shape[0]) if own is True else (0, 0) if own is False else (int(own[0]), int(own[1])))
        self._reduce.append(bool(reduce))
        self._pace.append(float(pace_gbps))
        if final is True:
            self._final.append((m, 0, c.shape[0]))
        elif final is not False:
            self._final.append((m, int(final[0]), int(final[1])))
        return m

    def __len__(self) -> int:
        return len(self._paths)

    def build(self, name: str, size: int, meta: dict[str, Any] | None = None) -> Schedule:
        """The schedule, checked: paths over links, chunks in range, dependencies that end at the source."""
        M = len(self._paths)

        def flat(parts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
            ptr = np.zeros(M + 1, dtype=np.int64)
            ptr[1:] = np.cumsum([p.shape[0] for p in parts], dtype=np.int64)
            return ptr, (np.concatenate(parts) if M else np.zeros(0, dtype=np.int64)).astype(np.int64)

        path_ptr, path_nodes = flat(self._paths)
        chunk_ptr, chunk_ids = flat(self._chunks)
        dep_ptr, dep_flat = flat([np.asarray(d, dtype=np.int64).reshape(-1) for d in self._deps])
        dep_ptr //= 2
        deps = dep_flat.reshape(-1, 2)
        own = np.asarray(self._own, dtype=np.int64).reshape(-1, 2)
        fin = np.asarray(self._final, dtype=np.int64).reshape(-1, 3)
        s = Schedule(name=str(name), nodes=self.nodes, links=self.links, rate_gbps=self.rate, delay_us=self.delay,
                     ranks=self.ranks, size=int(size), chunk_bytes=self.chunk_bytes, path_ptr=path_ptr,
                     path_nodes=path_nodes, chunk_ptr=chunk_ptr, chunk_ids=chunk_ids, dep_ptr=dep_ptr,
                     dep_msg=deps[:, 0].copy(), dep_off=deps[:, 1].copy(), own_lo=own[:, 0].copy(),
                     own_hi=own[:, 1].copy(), reduce=np.asarray(self._reduce, dtype=bool),
                     final_msg=fin[:, 0].copy(), final_lo=fin[:, 1].copy(), final_hi=fin[:, 2].copy(),
                     pace_gbps=np.asarray(self._pace, dtype=np.float64), meta=dict(meta or {}))
        check_schedule(s)
        return s


def check_schedule(s: Schedule) -> None:
    """Raise ``ValueError`` naming the message and the rule if ``s`` is malformed (not whether it is correct)."""
    n = s.nodes
    L = s.links.shape[0]
    if L and (s.links.min() < 0 or s.links.max() >= n or (s.links[:, 0] == s.links[:, 1]).any()):
        raise ValueError(f"links: every link joins two different nodes of 0..{n - 1}")
    for arr, what in ((s.rate_gbps, "rate_gbps"), (s.delay_us, "delay_us")):
        if arr.shape != (L,) or not np.isfinite(arr).all() or (arr <= 0).any():
            raise ValueError(f"{what}: one finite value > 0 per link")
    if s.ranks.size == 0 or s.ranks.min() < 0 or s.ranks.max() >= n or np.unique(s.ranks).size != s.ranks.size:
        raise ValueError(f"ranks: distinct nodes of 0..{n - 1}, at least one")
    if (s.chunk_bytes < 1).any():
        raise ValueError("chunk_bytes: every chunk has at least one byte")
    check_real(s.size, "size", 0)
    key = np.minimum(s.links[:, 0], s.links[:, 1]) * n + np.maximum(s.links[:, 0], s.links[:, 1])
    lk = np.sort(key)
    if lk.size and (np.diff(lk) == 0).any():
        raise ValueError("links: a link is listed twice")
    hops = np.diff(s.path_ptr) - 1
    if (hops < 1).any():
        m = int(np.flatnonzero(hops < 1)[0])
        raise ValueError(f"messages[{m}]: a path needs two nodes or more")
    if s.path_nodes.size and (s.path_nodes.min() < 0 or s.path_nodes.max() >= n):
        raise ValueError(f"messages: a path visits a node outside 0..{n - 1}")
    a = np.delete(s.path_nodes, s.path_ptr[1:] - 1)
    b = np.delete(s.path_nodes, s.path_ptr[:-1])
    k = np.minimum(a, b) * n + np.maximum(a, b)
    pos = np.searchsorted(lk, k)
    bad = (pos >= lk.size) | (lk[np.minimum(pos, max(lk.size - 1, 0))] != k) if lk.size else np.ones_like(k, bool)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        m = int(np.searchsorted(np.cumsum(hops), i, side="right"))
        raise ValueError(f"messages[{m}]: hop {int(a[i])}-{int(b[i])} is not a link of the network")
    C = s.chunk_bytes.shape[0]
    if s.chunk_ids.size and (s.chunk_ids.min() < 0 or s.chunk_ids.max() >= C):
        raise ValueError(f"messages: a packet carries a chunk outside 0..{C - 1}")
    P = np.diff(s.chunk_ptr)
    if (P < 1).any():
        raise ValueError(f"messages[{int(np.flatnonzero(P < 1)[0])}]: a message needs one packet or more")
    M = s.messages
    if s.dep_msg.size:
        if s.dep_msg.min() < 0 or s.dep_msg.max() >= M:
            raise ValueError(f"messages: a dependency names a message outside 0..{M - 1}")
        owner = np.repeat(np.arange(M), np.diff(s.dep_ptr))
        src = s.path_nodes[s.path_ptr[:-1]]
        dst = s.path_nodes[s.path_ptr[1:] - 1]
        wrong = dst[s.dep_msg] != src[owner]
        if wrong.any():
            i = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"messages[{int(owner[i])}]: depends on message {int(s.dep_msg[i])}, which does not end "
                             f"at its source {int(src[owner[i]])}")
    if ((s.own_lo < 0) | (s.own_hi < s.own_lo) | (s.own_hi > P)).any():
        raise ValueError("messages: own ranges must satisfy 0 <= lo <= hi <= packets")
    if s.final_msg.size and (s.final_msg.min() < 0 or s.final_msg.max() >= M or (s.final_lo < 0).any()
                             or (s.final_hi < s.final_lo).any() or (s.final_hi > P[s.final_msg]).any()):
        raise ValueError("final: ranges (message, lo, hi) with 0 <= lo <= hi <= packets")
    pace = s.pace_gbps
    if not isinstance(pace, np.ndarray) or pace.shape != (M,) or pace.dtype != np.float64:
        raise ValueError(f"pace_gbps: one float64 rate per message ({M}), got "
                         f"{getattr(pace, 'dtype', type(pace).__name__)} of shape {np.shape(pace)}")
    bad = ~np.isfinite(pace) | (pace < 0)
    if bad.any():
        m = int(np.flatnonzero(bad)[0])
        raise ValueError(f"messages[{m}]: pace_gbps={float(pace[m])} must be a finite rate >= 0 Gb/s (0: unpaced)")


def replay_counts(s: Schedule) -> int:
    """Run the schedule's dependencies without time and check every final packet's count; the messages that ran.

    Packets are released in dependency order (a packet leaves once the packets it waits for have arrived; its
    count is its source's own contribution plus theirs). Raises ``ValueError`` if the run stalls (a dependency
    cycle) or a final packet arrives with fewer or more than all ``R`` contributions. Pacing (``pace_gbps``) is
    ignored: it delays packets, it never changes which packets a packet waits for.
    """
    M = s.messages
    P = np.diff(s.chunk_ptr)
    base = s.chunk_ptr[:-1]
    total = int(s.chunk_ptr[-1])
    count = np.zeros(total, dtype=np.int64)
    waiting = np.zeros(total, dtype=np.int64)
    users: list[list[tuple[int, int]]] = [[] for _ in range(M)]
    for m in range(M):
        for d, off in s.deps(m):
            lo, hi = max(0, -off), min(int(P[m]), int(P[d]) - off)
            if lo < hi:
                waiting[base[m] + lo: base[m] + hi] += 1
            users[d].append((m, off))
    own = np.zeros(total, dtype=np.int64)
    for m in range(M):
        own[base[m] + s.own_lo[m]: base[m] + s.own_hi[m]] = 1
    count[:] = own
    ready = list(np.flatnonzero(waiting == 0))
    done = np.zeros(total, dtype=bool)
    msg_of = np.repeat(np.arange(M), P)
    while ready:
        g = int(ready.pop())
        done[g] = True
        m = int(msg_of[g])
        j = g - int(base[m])
        for w, off in users[m]:
            jw = j - off
            if 0 <= jw < P[w]:
                h = int(base[w]) + jw
                count[h] += count[g]
                waiting[h] -= 1
                if waiting[h] == 0:
                    ready.append(h)
    if not done.all():
        g = int(np.flatnonzero(~done)[0])
        m = int(msg_of[g])
        raise ValueError(f"messages[{m}]: packet {g - int(base[m])} never leaves (the schedule stalls)")
    R = s.ranks.shape[0]
    for m, lo, hi in zip(s.final_msg.tolist(), s.final_lo.tolist(), s.final_hi.tolist(), strict=True):
        got = count[base[m] + lo: base[m] + hi]
        if (got != R).any():
            j = int(np.flatnonzero(got != R)[0]) + lo
            raise ValueError(f"messages[{m}]: packet {j} delivers the sum of {int(got[j - lo])} contributions, not "
                             f"of all {R} ranks")
    return M
