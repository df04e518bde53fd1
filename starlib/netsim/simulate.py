"""Allreduce over edge-disjoint spanning trees, or a ring, packet by packet, on the ns-3 network simulator.

The network is a graph of routers joined by full-duplex point-to-point links of one rate and one delay, each
router's node also playing the router's single endpoint; :mod:`starlib.netsim.ns3` runs the collective on ns-3
(any :class:`~starlib.allreduce.schedule.Schedule`). This module writes the two collectives of notebook 15 as
*messages* (a path of nodes, a packet count, dependencies) and runs them there.

Packet ``j`` of a message leaves its source once packet ``j`` of every message it depends on has arrived there.
Every packet carries the number of contributions summed into it (each endpoint contributes 1), so the simulation
also checks that the result every endpoint ends with is the sum over all ``n`` endpoints.

* **Trees** (``trees``): the message is split equally among the ``k`` trees (as :func:`starlib.allreduce.
  allreduce_time`'s ``equal`` split); on each tree a vertex sends packet ``j`` to its parent once packet ``j``
  arrived from all its children (reduce), the root sends it down once it has it from all children, and every
  vertex forwards it down once it got it (broadcast): the pipelined reduce + broadcast of notebook 08's model,
  with one packet as the chunk.
* **Ring** (``ring``): reduce-scatter then allgather over a ring of the ``n`` endpoints (Patarasuk and Yuan,
  "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2), 2009), in ``2(n-1)`` steps
  of ``S/n`` bytes each, pipelined packet by packet. The ring's order is the preorder of a breadth-first tree from
  vertex 0, and each step's message follows the network's shortest-path routing (the breadth-first parent towards
  the destination), so consecutive endpoints are usually neighbours and the links a path shares queue.

Reference: G. F. Riley and T. R. Henderson, "The ns-3 Network Simulator", in *Modeling and Tools for Network
Simulation*, Springer 2010, pp. 15-34, doi:10.1007/978-3-642-12331-3_2; ns-3 3.44 from PyPI (``ns3``).

Example
-------
>>> t = simulate_trees(3, np.array([[0, 1], [1, 2]]), [np.array([1, -1, 1])], 1000, packet_bytes=1000)
>>> t.time_ns        # up: 1 -> ... leaf to root (1 hop) then down (1 hop): 2 x (1000 ns + 80 ns)
2160
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._kernels import bfs, csr
from ..allreduce.schedule import Schedule, ScheduleBuilder
from ..validation import check_int, check_real
from .ns3 import MAX_PACKET, SimResult, simulate_schedule, simulator_version

__all__ = ["SimResult", "MAX_PACKET", "simulator_version", "simulate_messages", "simulate_trees", "simulate_ring",
           "tree_messages", "ring_messages", "messages_schedule", "bfs_parents", "MIN_PACKET"]

#: bytes every packet carries at least (a message's packets are never smaller, as when the packet carried its
#: message id, index and contribution count in its first 12 bytes, padded)
MIN_PACKET = 16


def _packet_bytes(packet_bytes: Any) -> int:
    return check_int(packet_bytes, "packet_bytes", minimum=MIN_PACKET, maximum=MAX_PACKET)


def _packets(size: int, packet_bytes: int) -> tuple[int, int, int]:
    """``(packets, bytes, last)`` of a message of ``size`` bytes cut into packets (each at least MIN_PACKET)."""
    if size <= packet_bytes:
        b = max(size, MIN_PACKET)
        return 1, b, b
    p = -(-size // packet_bytes)
    return p, packet_bytes, max(size - (p - 1) * packet_bytes, MIN_PACKET)


def messages_schedule(n: int, edges: np.ndarray, messages: Sequence[tuple], expected: Sequence[int],
                      rate_gbps: float = 100.0, delay_us: float = 1.0) -> Schedule:
    """Messages as a :class:`~starlib.allreduce.schedule.Schedule` on ``n`` routers, every router a rank.

    Message ``i`` becomes the schedule's message ``i`` (its dependencies with offset 0, its own contribution on
    every packet or none); the final messages (``expected``) are final on every packet, the others reduce at their
    destination (the reduce-scatter or reduce half of the ring and the trees), the final ones overwrite. The
    messages say how many bytes each packet has, not which part of the buffer: the schedule's chunks are the
    distinct packet sizes (chunk ``c`` of ``sizes[c]`` bytes, smallest first), and its ``size`` the largest
    message's bytes.

    Parameters
    ----------
    n, edges, messages, expected, rate_gbps, delay_us
        As :func:`simulate_messages`.

    Returns
    -------
    Schedule
        Named ``"messages"``.

    Raises
    ------
    ValueError
        As :func:`simulate_messages`, before anything is simulated.

    Example
    -------
    >>> s = messages_schedule(2, np.array([[0, 1]]), [([0, 1], 3, 1000, 500, [], 1)], [0])
    >>> s.chunk_bytes.tolist(), s.chunks(0).tolist(), s.size
    ([500, 1000], [1, 1, 0], 2500)
    """
    n = check_int(n, "n", minimum=1)
    rate = check_real(rate_gbps, "rate_gbps", 0, strict=True)
    delay = check_real(delay_us, "delay_us", 0, strict=True)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.size and (e.min() < 0 or e.max() >= n):
        raise ValueError(f"edges: a vertex is outside 0..{n - 1}")
    for i, (path, packets, nbytes, last, deps, own) in enumerate(messages):
        if len(path) < 2 or packets < 1 or own not in (0, 1):
            raise ValueError(f"messages[{i}]: path {list(path)!r}, {packets} packets, own {own!r}: a message needs "
                             "two nodes or more, one packet or more and own 0 or 1")
        if not MIN_PACKET <= last <= nbytes <= MAX_PACKET:
            raise ValueError(f"messages[{i}]: packet bytes {nbytes} and last {last} must satisfy "
                             f"{MIN_PACKET} <= last <= bytes <= {MAX_PACKET}")
        for d in deps:
            if messages[d][0][-1] != path[0] or messages[d][1] != packets:
                raise ValueError(f"messages[{i}]: depends on message {d}, which does not end at its source "
                                 f"{path[0]} with {packets} packets")
    sizes = sorted({int(m[2]) for m in messages} | {int(m[3]) for m in messages})
    chunk = {b: c for c, b in enumerate(sizes)}
    final = set(int(i) for i in expected)
    b = ScheduleBuilder(n, e, rate, delay, chunk_bytes=sizes or [MIN_PACKET])
    for i, (path, packets, nbytes, last, deps, own) in enumerate(messages):
        b.add(path, [chunk[int(nbytes)]] * (int(packets) - 1) + [chunk[int(last)]], [(int(d), 0) for d in deps],
              own=bool(own), reduce=i not in final, final=i in final)
    size = max((int(m[1] - 1) * int(m[2]) + int(m[3]) for m in messages), default=0)
    return b.build("messages", size)


def simulate_messages(n: int, edges: np.ndarray, messages: Sequence[tuple], expected: Sequence[int],
                      rate_gbps: float = 100.0, delay_us: float = 1.0) -> SimResult:
    """Run messages on a point-to-point network in ns-3 and check the sums every final message delivers.

    The messages become a schedule (:func:`messages_schedule`) that :func:`starlib.netsim.ns3.simulate_schedule`
    runs.

    Parameters
    ----------
    n : int
        Number of routers (nodes ``0..n-1``).
    edges : numpy.ndarray
        ``(m, 2)`` links.
    messages : sequence of tuple
        ``(path, packets, bytes, last_bytes, deps, own)``: the nodes the message visits (consecutive ones must be
        linked), its packet count, the bytes of each packet and of the last one, the indices of the messages it
        waits for (they end where it starts and have as many packets) and its source's own contribution (0 or 1).
    expected : sequence of int
        Indices of the final messages: every packet of each must arrive carrying ``n`` contributions.
    rate_gbps, delay_us : float
        Link rate (Gb/s, each direction) and propagation delay (microseconds).

    Returns
    -------
    SimResult
        The time the last packet of any message arrived.

    Raises
    ------
    ValueError
        On a path over a non-link, a dependency that does not end at the message's source, or when the
        collective does not complete with the full sum everywhere (a wrong tree or ring).

    Example
    -------
    >>> simulate_messages(2, np.array([[0, 1]]), [([0, 1], 1, 1000, 1000, [], 1)], [], 100.0, 1.0).time_ns
    1080
    """
    return simulate_schedule(messages_schedule(n, edges, messages, expected, rate_gbps, delay_us))


def bfs_parents(n: int, edges: np.ndarray, root: int = 0) -> np.ndarray:
    """Breadth-first parents from ``root`` (``-1`` at the root), neighbours in increasing order.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : numpy.ndarray
        ``(m, 2)`` links.
    root : int
        Where the search starts.

    Returns
    -------
    numpy.ndarray
        ``parent[v]``: ``v``'s neighbour one hop nearer to ``root``.

    Raises
    ------
    ValueError
        If the network is not connected.

    Example
    -------
    >>> bfs_parents(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0]])).tolist()
    [-1, 0, 1, 0]
    """
    n = check_int(n, "n", minimum=1)
    root = check_int(root, "root", minimum=0, maximum=n - 1)
    dist, parent, order = bfs(*csr(n, np.asarray(edges, dtype=np.int64).reshape(-1, 2)), root)
    if order.shape[0] != n:
        raise ValueError(f"edges: not connected (reach {order.shape[0]} of n={n} vertices from root={root})")
    return np.asarray(parent, dtype=np.int64)


def tree_messages(parents: Sequence[np.ndarray], size: int, packet_bytes: int = 8192) -> tuple[list, list]:
    """Messages of a pipelined reduce + broadcast on each tree (given by parent arrays, ``-1`` at the root).

    Parameters
    ----------
    parents : sequence of numpy.ndarray
        One parent array per tree (``parents[t][v]`` is ``v``'s parent, ``-1`` at the root).
    size : int
        Message size in bytes, split equally among the trees (the first ``size mod k`` trees one byte more).
    packet_bytes : int
        Largest packet payload; a tree's share is cut into packets of this size (each packet is a chunk).

    Returns
    -------
    tuple of list
        ``(messages, final)`` for :func:`simulate_messages`: one message per tree link and direction, and the
        indices of the downward ones (each must deliver the sum of all ``n`` contributions).

    Raises
    ------
    ValueError
        If a parent array has no root or several, or a vertex that is not below the root (a cycle).

    Example
    -------
    >>> msgs, final = tree_messages([np.array([-1, 0, 1])], 100)
    >>> [(m[0], m[4]) for m in msgs], final
    ([([2, 1], []), ([1, 0], [0]), ([0, 1], [1]), ([1, 2], [2])], [2, 3])
    """
    size = check_int(size, "size", minimum=1)
    packet_bytes = _packet_bytes(packet_bytes)
    k = len(parents)
    if k == 0:
        raise ValueError("parents: no trees")
    msgs: list = []
    final: list = []
    for t, par in enumerate(parents):
        par = np.asarray(par, dtype=np.int64)
        n = par.shape[0]
        packets, nbytes, last = _packets(size // k + (t < size % k), packet_bytes)
        roots = np.flatnonzero(par < 0)
        if roots.shape[0] != 1:
            raise ValueError(f"parents[{t}]: {roots.shape[0]} roots, a spanning tree has one")
        root = int(roots[0])
        children: list[list[int]] = [[] for _ in range(n)]
        for v in range(n):
            if v != root:
                children[int(par[v])].append(v)
        up: dict[int, int] = {}
        pending = [root]
        order = []
        while pending:
            v = pending.pop()
            order.append(v)
            pending.extend(children[v])
        for v in order[::-1]:
            if v != root:
                up[v] = len(msgs)
                msgs.append(([v, int(par[v])], packets, nbytes, last, [up[c] for c in children[v]], 1))
        down: dict[int, int] = {}
        for v in order:
            if v == root:
                continue
            p = int(par[v])
            deps = [up[c] for c in children[root]] if p == root else [down[p]]
            down[v] = len(msgs)
            final.append(len(msgs))
            msgs.append(([p, v], packets, nbytes, last, deps, int(p == root)))
        unreached = n - 1 - len(down)
        if unreached:
            raise ValueError(f"parents[{t}]: {unreached} vertices are not below the root (not a spanning tree)")
    return msgs, final


def ring_messages(n: int, edges: np.ndarray, size: int, packet_bytes: int = 8192) -> tuple[list, list]:
    """Messages of a pipelined ring allreduce (reduce-scatter, allgather) routed on shortest paths.

    The ring visits the vertices in the preorder of :func:`bfs_parents` from 0; block ``b`` (of ``size / n`` bytes,
    the first ``size mod n`` blocks one byte more) travels around it. Step ``t`` of position ``i`` sends block
    ``i - t`` to the next position along the shortest path of breadth-first parents towards it; packet ``j`` of a
    step leaves once packet ``j`` of the previous step arrived (Patarasuk and Yuan 2009, pipelined).

    Parameters
    ----------
    n : int
        Number of vertices (at least 2).
    edges : numpy.ndarray
        ``(m, 2)`` links of a connected network.
    size : int
        Message size in bytes.
    packet_bytes : int
        Largest packet payload.

    Returns
    -------
    tuple of list
        ``(messages, final)`` for :func:`simulate_messages`: ``2 (n - 1) n`` messages, the allgather's are final.

    Example
    -------
    >>> msgs, final = ring_messages(3, np.array([[0, 1], [1, 2], [2, 0]]), 30)
    >>> len(msgs), len(final), msgs[0][:2]
    (12, 6, ([0, 1], 1))
    """
    n = check_int(n, "n", minimum=2)
    size = check_int(size, "size", minimum=1)
    packet_bytes = _packet_bytes(packet_bytes)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    par = bfs_parents(n, e, 0)
    children: list[list[int]] = [[] for _ in range(n)]
    for v in range(1, n):
        children[int(par[v])].append(v)
    ring, pending = [], [0]
    while pending:
        v = pending.pop()
        ring.append(v)
        pending.extend(children[v][::-1])
    toward: dict[int, np.ndarray] = {}

    def path(u: int, v: int) -> list[int]:
        if v not in toward:
            toward[v] = bfs_parents(n, e, v)
        out = [u]
        while out[-1] != v:
            out.append(int(toward[v][out[-1]]))
        return out

    hop = [path(ring[i], ring[(i + 1) % n]) for i in range(n)]
    msgs: list = []
    final: list = []
    into = [-1] * n  # the last message into ring position i
    for step in range(2 * (n - 1)):
        new = [-1] * n
        for i in range(n):
            block = (i - step) % n
            packets, nbytes, last = _packets(size // n + (block < size % n), packet_bytes)
            deps = [] if step == 0 else [into[i]]
            own = 1 if step < n else 0
            new[(i + 1) % n] = len(msgs)
            if step >= n - 1:
                final.append(len(msgs))
            msgs.append((hop[i], packets, nbytes, last, deps, own))
        into = new
    return msgs, final


def _edges(n: int, edges: Any) -> np.ndarray:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    check_int(n, "n", minimum=1)
    return e


def simulate_trees(n: int, edges: np.ndarray, parents: Sequence[np.ndarray], size: int, packet_bytes: int = 8192,
                   rate_gbps: float = 100.0, delay_us: float = 1.0) -> SimResult:
    """Simulated allreduce of ``size`` bytes over trees (parent arrays) on the network ``(n, edges)``.

    Parameters
    ----------
    n : int
        Routers (each also the endpoint).
    edges : numpy.ndarray
        ``(m, 2)`` point-to-point links.
    parents : sequence of numpy.ndarray
        The trees as parent arrays (see :func:`tree_messages`).
    size : int
        Message size in bytes.
    packet_bytes : int
        Largest packet payload.
    rate_gbps, delay_us : float
        Link rate (Gb/s each way) and propagation delay (microseconds).

    Returns
    -------
    SimResult
        Completion time in nanoseconds, packet transmissions, messages.

    Raises
    ------
    ValueError
        On a tree link that is not a network link, a parent array that is not a spanning tree, or a run that
        does not deliver the full sum everywhere.

    Example
    -------
    >>> simulate_trees(2, np.array([[0, 1]]), [np.array([-1, 0])], 1000, packet_bytes=1000).time_ns
    2160
    """
    msgs, final = tree_messages(parents, size, packet_bytes)
    return simulate_messages(n, _edges(n, edges), msgs, final, rate_gbps, delay_us)


def simulate_ring(n: int, edges: np.ndarray, size: int, packet_bytes: int = 8192, rate_gbps: float = 100.0,
                  delay_us: float = 1.0) -> SimResult:
    """Simulated ring allreduce of ``size`` bytes on the network ``(n, edges)`` (see :func:`ring_messages`).

    Parameters
    ----------
    n : int
        Routers (each also the endpoint), at least 2.
    edges : numpy.ndarray
        ``(m, 2)`` point-to-point links of a connected network.
    size : int
        Message size in bytes.
    packet_bytes : int
        Largest packet payload.
    rate_gbps, delay_us : float
        Link rate (Gb/s each way) and propagation delay (microseconds).

    Returns
    -------
    SimResult
        Completion time in nanoseconds, packet transmissions, messages.

    Example
    -------
    >>> simulate_ring(2, np.array([[0, 1]]), 2000, packet_bytes=1000).time_ns
    2160
    """
    msgs, final = ring_messages(n, _edges(n, edges), size, packet_bytes)
    return simulate_messages(n, _edges(n, edges), msgs, final, rate_gbps, delay_us)
