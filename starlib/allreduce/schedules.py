"""Every allreduce schedule of the comparison, built into one :class:`~starlib.allreduce.schedule.Schedule`.

:data:`SCHEDULES` declares them (name, one-line summary, whether it needs trees, the options it takes, the
builder) and :func:`build_schedule` builds one on a network of routers with hosts (:func:`with_hosts`):

====================  ============================================================================================
name                  schedule
====================  ============================================================================================
``trees``             pipelined reduce to the root and broadcast on each given tree, the message split equally
``weighted-trees``    the same, the split in proportion to given weights (the trees may share links)
``bfs``               one breadth-first tree from router 0
``ring``              reduce-scatter then allgather around a Hamiltonian cycle (every hop one link), both directions
``multiring``         the same on every edge-disjoint Hamiltonian cycle found, the message split over them
``ring-sp``           the ring over the breadth-first preorder from router 0, each hop a shortest path (contended)
``dbtree``            NCCL's double binary tree, each logical edge a shortest path
``halving-doubling``  Rabenseifner's reduce-scatter by recursive halving and allgather by recursive doubling
====================  ============================================================================================

Messages and packets
--------------------
The buffer of ``size`` bytes is cut into *blocks* (a tree's share, a ring step's block, a halving-doubling
block), and a block of ``B`` bytes into ``ceil(B / packet_bytes)`` packets of sizes as equal as integers allow
(:func:`~starlib.allreduce.schedule.split_bytes`): the chunks. A message is a stream of packets, pipelined packet
by packet through its dependencies: packet ``j`` of a tree's message to a parent leaves once packet ``j`` arrived
from every child, and so on. Every logical message follows one route: a tree edge or ring hop of the network is
one link; a logical edge between ranks that are not neighbours (double binary tree, halving-doubling, ``ring-sp``)
is the shortest path of breadth-first parents from the destination, neighbours scanned in increasing order (the
routing of :func:`starlib.netsim.simulate.ring_messages`).

* **Trees** (Sanders, Speck and Träff 2009, pipelined): per tree one message per tree edge and direction; the
  upward one reduces at the parent (own contribution added), the downward ones copy, those from the root wait for
  every child of the root.
* **Ring** (Patarasuk and Yuan 2009): ``N`` ranks around a cycle, the ring's share cut into ``N`` blocks with the
  same number ``p`` of packets each; step ``t`` of position ``i`` sends block ``(i - t) mod N`` to position
  ``i + 1``. The ``2(N - 1)`` steps of one ring hop are *one* message (a stream of ``2(N - 1) p`` packets) whose
  packet ``j`` waits for packet ``j - p`` of the previous hop's stream (dependency offset ``-p``): own
  contribution on steps ``0..N-1`` (packets ``0 .. Np``), reduced at the destination up to step ``N - 2`` and
  copied from step ``N - 1`` on (``meta["copy_from"]``), final on steps ``N-1 .. 2N-3``. ``N`` messages per ring,
  not ``N^2``. Both directions by default (two rings, half the message each).
* **Double binary tree** (NCCL's ``ncclGetBtree`` / ``ncclGetDtree``, ``src/graph/trees.cc``): tree 1 the binary
  tree on ranks ``0..N-1`` rooted at 0 (the parent of rank ``r`` clears its lowest set bit ``b`` and sets ``2b``,
  or only clears ``b`` when that leaves the ranks), tree 2 its mirror ``r -> N-1-r`` for even ``N`` and its shift
  ``r -> r+1 mod N`` for odd ``N``, so that a rank that is a leaf in one tree is interior in the other; half the
  message each (:func:`nccl_double_binary_tree`).
* **Halving-doubling** (Thakur, Rabenseifner and Gropp 2005, section 4.4; MPICH's
  ``MPIR_Allreduce_intra_reduce_scatter_allgather``): with ``p'`` the largest power of two ``<= N`` and ``r = N -
  p'``, ranks ``2i`` (``i < r``) first send their whole buffer to rank ``2i + 1`` and sit out; the ``p'`` others
  (new rank ``i`` is rank ``2i + 1`` for ``i < r``, ``i + r`` after) run the reduce-scatter by recursive vector
  halving and distance doubling (step ``k``: partner ``new ^ 2^k``, the lower new rank keeps the lower half of its
  blocks) and the allgather by recursive vector doubling and distance halving; ranks ``2i + 1`` finally send the
  result to ``2i``. The buffer is cut into ``p'`` blocks; each rank lists its blocks in the order of
  ``block XOR own block`` (own block first), in which every segment of the algorithm is a contiguous range, so
  each message's dependencies are offsets. An allgather step sends two messages, the rank's own reduced block
  (which waits for the reduce-scatter) and what it gathered before (which waits for the allgather): the bytes of
  one MPI message, as two streams.

Pacing
------
Trees that share links (``weighted-trees``: a family of weight-``1/r`` trees uses each link ``r`` times at most)
meet in the links' first-in first-out queues, where one tree's packets wait behind a burst of another's; since
each tree's pipeline is held together by its dependencies (a vertex sends packet ``j`` up once packet ``j`` came
from all its children), one stall holds up the whole tree and the trees convoy. So ``weighted-trees`` (and
``trees`` with ``pace=True``) paces every message of tree ``t`` at one rate (the schedule's ``pace_gbps``, as a
network card paces a flow; :mod:`starlib.allreduce.schedule`, *Pacing*): the tree's share of the busiest link
direction it uses,

    ``pace_t = min over link directions e that tree t's messages cross of rate_e * B_t / B_e``,

``B_t`` the bytes of one message of tree ``t`` (its share of the buffer) and ``B_e`` the bytes all messages move
over ``e``. On every link direction the paces of the messages that cross it add up to its rate at most, and a
tree alone would move its share in ``max_e B_e / rate_e`` over its links: every tree through the busiest link
finishes with it. With the routers as ranks and one link rate ``r`` this is ``r w_t / max_e W_e``, ``W_e`` the
total weight of the trees through link ``e`` (``r w_t`` for weights ``1/k`` with ``k`` trees on the busiest link).
The host streams of an in-network schedule belong to their tree and count in the same minimum: a host link
carries every tree's share (the whole buffer up and down), so with hosts a tree is paced at ``host_gbps * B_t /
size`` at most, the rate at which its host streams can go anyway; in host mode the messages between hosts cross
host links and router links and take the same minimum over all of them. The other schedules are unpaced.

Hosts
-----
Every router has ``hosts_per_router = P`` hosts (nodes ``n .. n + nP - 1``; host ``h`` of router ``r`` is ``n + r
P + h``), each on a link of its own; the hosts are the ranks. ``mode="in-network"``: the routers run the schedule
(routers reduce); a message that carries its router's own contribution waits instead for one stream from each of
the router's hosts carrying that contribution for those packets (one stream per host and distinct packet
sequence, so a host sends each chunk once), and every result a router ends with (a final message it receives, or
the final packets it sends of its own result) goes down to each of its hosts as a stream. ``mode="host"``: the
hosts run the schedule, the routers only forward: the ring visits each router's hosts in turn along the
Hamiltonian cycle; on tree ``t`` host ``t mod P`` of each router takes the router's place and the router's other
hosts are its children; the double binary tree and halving-doubling run over the ranks, routed through the
routers.

Final ranges are the packets a rank receives as its result (in-network: the streams down to the hosts); the
result a rank computes itself is checked where it sends it on.

Cost
----
Messages are built as arrays (a tree's, a ring's, a halving-doubling step's at once) and their chunks written into
one array. Measured on PolarFly q = 31 (993 routers, one host each, 16 MiB, 2 shared cores): every schedule builds
in 0.3-1.7 s in either mode except ``multiring`` in-network (15 Hamiltonian cycles, 30 rings, 118 million packets:
about 7 s and 1.2 GiB); with 3 hosts per router the others take 0.4-2.7 s. A schedule whose estimated arrays
exceed the memory limit (:func:`starlib.memory.check_size`) is refused before it is built: ``multiring`` in host
mode with 3 hosts per router would have 532 million packets.

References
----------
P. Patarasuk and X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2),
117-124, 2009.
R. Thakur, R. Rabenseifner and W. Gropp, "Optimization of collective communication operations in MPICH", IJHPCA
19(1), 49-66, 2005.
P. Sanders, J. Speck and J. L. Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and scan",
Parallel Computing 35(12), 581-594, 2009.
NVIDIA NCCL, ``src/graph/trees.cc`` (``ncclGetBtree``, ``ncclGetDtree``, ``ncclGetDtreeRoots``).

Example
-------
>>> import networkx as nx
>>> s = build_schedule(nx.complete_graph(4), "ring", 4096)
>>> s.meta["directions"], s.ranks.tolist(), replay_counts(s) == s.messages
(2, [4, 5, 6, 7], True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numba
import numpy as np

from .._kernels import bfs, csr
from ..graphs import ArrayGraph, GraphLike, as_graph
from ..memory import Size, check_size
from ..validation import check_choice, check_int, check_real
from .hamiltonian import disjoint_hamiltonian_cycles, hamiltonian_cycle
from .schedule import Schedule, check_schedule, replay_counts, split_bytes

__all__ = ["SCHEDULES", "MODES", "ScheduleSpec", "HostNetwork", "build_schedule", "with_hosts",
           "nccl_double_binary_tree", "replay_counts"]

#: where the schedule runs: on the routers (hosts send their contributions up and get the result down) or on the
#: hosts (routers only forward)
MODES = ("in-network", "host")
#: bytes a packet and a message of the schedule cost at the peak of the build (9-17 bytes a packet measured on
#: PolarFly q = 31 at 16 MiB: the chunk of every packet, and the batches' chunks while they are copied into one array)
_PACKET_BYTES_PEAK = 24
_MESSAGE_BYTES_PEAK = 400


# ----------------------------------------------------------------------------------------------- the network


@dataclass(frozen=True, eq=False)
class HostNetwork:
    """Routers and their hosts: the network a schedule runs on (:func:`with_hosts`).

    Attributes
    ----------
    routers : routers ``n`` (nodes ``0..n-1``).
    hosts_per_router : hosts ``P`` per router (nodes ``n..n+nP-1``, host ``h`` of router ``r`` is ``n + rP + h``).
    nodes : ``n (1 + P)``.
    links : ``(L, 2)``: the router links (the graph's edges, in its order), then one link per host ``[r, host]``.
    rate_gbps, delay_us : rate (Gb/s each way) and propagation delay (microseconds) of each link.
    ranks : the hosts, in node order (rank ``i`` is node ``n + i``); the routers when ``P = 0``.
    router : ``(nodes,)`` the router of each node (a router's is itself).
    """

    routers: int
    hosts_per_router: int
    nodes: int
    links: np.ndarray
    rate_gbps: np.ndarray
    delay_us: np.ndarray
    ranks: np.ndarray
    router: np.ndarray

    def hosts(self, r: int) -> np.ndarray:
        """The hosts of router ``r``."""
        P = self.hosts_per_router
        return self.routers + r * P + np.arange(P, dtype=np.int64)


def with_hosts(graph: GraphLike, hosts_per_router: int, *, link_gbps: float = 100.0, delay_us: float = 1.0,
               host_gbps: float | None = None, host_delay_us: float | None = None) -> HostNetwork:
    """The network of routers ``graph`` with ``hosts_per_router`` hosts on each router, each on a link of its own.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The routers and their links.
    hosts_per_router : int
        Hosts ``P >= 0`` per router; with ``P = 0`` the routers themselves are the ranks (each router plays its
        one endpoint, no host links: the network of notebook 15).
    link_gbps, delay_us : float
        Rate (Gb/s each way) and propagation delay (microseconds) of a router link.
    host_gbps, host_delay_us : float, optional
        The same for a host's link (default: a router link's).

    Returns
    -------
    HostNetwork

    Raises
    ------
    ValueError
        If ``hosts_per_router < 0`` or a rate or delay is not a finite number > 0.

    Example
    -------
    >>> import networkx as nx
    >>> net = with_hosts(nx.path_graph(2), 2, host_gbps=400.0)
    >>> net.nodes, net.links.tolist(), net.rate_gbps.tolist(), net.router.tolist()
    (6, [[0, 1], [0, 2], [0, 3], [1, 4], [1, 5]], [100.0, 400.0, 400.0, 400.0, 400.0], [0, 1, 0, 0, 1, 1])
    """
    g = as_graph(graph, "graph")
    P = check_int(hosts_per_router, "hosts_per_router", minimum=0,
                  rule="hosts_per_router >= 0 (0: the routers are the ranks)")
    link_gbps = check_real(link_gbps, "link_gbps", minimum=0, strict=True)
    delay_us = check_real(delay_us, "delay_us", minimum=0, strict=True)
    host_gbps = link_gbps if host_gbps is None else check_real(host_gbps, "host_gbps", minimum=0, strict=True)
    host_delay_us = delay_us if host_delay_us is None else check_real(host_delay_us, "host_delay_us", minimum=0,
                                                                      strict=True)
    n = g.n
    hosts = n + np.arange(n * P, dtype=np.int64)
    router = np.concatenate([np.arange(n, dtype=np.int64), np.repeat(np.arange(n, dtype=np.int64), P)])
    e = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    links = np.concatenate([e, np.stack([router[n:], hosts], axis=1)])
    rate = np.concatenate([np.full(e.shape[0], link_gbps), np.full(n * P, host_gbps)])
    delay = np.concatenate([np.full(e.shape[0], delay_us), np.full(n * P, host_delay_us)])
    ranks = hosts if P else np.arange(n, dtype=np.int64)
    return HostNetwork(n, P, n * (1 + P), links, rate, delay, ranks, router)


class _Routes:
    """Routes between nodes: a host to its router, the routers' shortest path of breadth-first parents from the
    destination (neighbours in increasing order), the router to the host."""

    def __init__(self, net: HostNetwork, edges: np.ndarray) -> None:
        self.net = net
        self.indptr, self.indices = csr(net.routers, edges)
        self._parent: dict[int, np.ndarray] = {}
        self._dist: dict[int, np.ndarray] = {}

    def paths(self, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(lengths, nodes)``: the node path of every message from ``src[i]`` to ``dst[i]``, flat."""
        net = self.net
        n = net.routers
        rs, rd = net.router[src], net.router[dst]
        dest, inv = np.unique(rd, return_inverse=True)
        for v in dest.tolist():
            if v not in self._parent:
                self._dist[v], self._parent[v], _ = bfs(self.indptr, self.indices, v)
        toward = np.stack([self._parent[v] for v in dest.tolist()]) if dest.size else np.zeros((0, n), np.int64)
        hops = np.stack([self._dist[v] for v in dest.tolist()])[inv, rs] if dest.size else np.zeros(0, np.int64)
        H = int(hops.max()) if hops.size else 0
        M = src.shape[0]
        cols = np.empty((M, H + 3), dtype=np.int64)
        cols[:, 0] = src
        cur = rs.copy()
        cols[:, 1] = cur
        for s in range(1, H + 1):
            cur = np.where(s <= hops, toward[inv, cur], cur)
            cols[:, s + 1] = cur
        cols[:, H + 2] = dst
        keep = np.zeros((M, H + 3), dtype=bool)
        keep[:, 0] = src >= n
        keep[:, 1:H + 2] = np.arange(H + 1)[None, :] <= hops[:, None]
        keep[:, H + 2] = dst >= n
        return keep.sum(axis=1), cols[keep]


# ----------------------------------------------------------------------------------------------- messages


_FIELDS = ("src", "dst", "lens", "dep_owner", "dep_msg", "dep_off", "own_lo", "own_hi", "reduce",
           "copy_from", "final_lo", "final_hi", "group", "flow")


@dataclass
class _Batch:
    """Messages as arrays (their chunks are kept apart): source and destination node, packet count, dependencies
    as ``(owner, message, offset)`` triples (global message indices), own range, reduce flag, the packet from which
    packets are copies, final range (empty: none), and the group of messages that carry the same own contribution
    of their source router (-1: none; the in-network hosts send it once per group), and the flow each message
    belongs to (a tree: its messages are paced together; -1: none)."""

    src: np.ndarray
    dst: np.ndarray
    lens: np.ndarray
    dep_owner: np.ndarray
    dep_msg: np.ndarray
    dep_off: np.ndarray
    own_lo: np.ndarray
    own_hi: np.ndarray
    reduce: np.ndarray
    copy_from: np.ndarray
    final_lo: np.ndarray
    final_hi: np.ndarray
    group: np.ndarray
    flow: np.ndarray

    @staticmethod
    def cat(parts: Sequence[_Batch]) -> _Batch:
        return _Batch(*(np.concatenate([getattr(b, f) for b in parts]) for f in _FIELDS))


_NO_DEPS = (np.zeros(0, np.int64),) * 3


class _Plan:
    """Batches of messages under construction and their chunks (per batch, an array or a writer); ``results`` lists
    ``(message, lo, hi)``: packets that carry, from their source router, a result it computed itself (in-network,
    it goes down to the router's hosts)."""

    def __init__(self) -> None:
        self.batches: list[_Batch] = []
        self.chunks: list[np.ndarray | Callable[[np.ndarray], None]] = []
        self.size = 0
        self.groups = 0
        self.results: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def new_groups(self, k: int) -> int:
        self.groups += k
        return self.groups - k

    def add(self, src: Any, dst: Any, lens: Any, chunk_ids: np.ndarray | Callable[[np.ndarray], None],
            deps: tuple[Any, Any, Any] = _NO_DEPS, *, own_hi: Any = 0, reduce: Any = False,
            copy_from: Any = None, final_lo: Any = 0, final_hi: Any = 0, group: Any = -1, flow: Any = -1) -> int:
        """Append messages ``size .. size + M - 1`` (own range ``0 .. own_hi``; by default a reducing message's
        packets all reduce, a copying message's all copy); returns the first index. The chunks are an array, or a
        function that writes them into the array it is given (the schedule's own, saving a copy of the largest
        batches)."""
        src = np.asarray(src, dtype=np.int64)
        M = src.shape[0]

        def full(x: Any, dtype: Any = np.int64) -> np.ndarray:
            return np.broadcast_to(np.asarray(x, dtype=dtype), (M,))

        lens = full(lens)
        owner, msg, off = (np.broadcast_to(np.asarray(x, dtype=np.int64), np.shape(deps[0])).reshape(-1)
                           for x in deps)
        self.chunks.append(chunk_ids if callable(chunk_ids) else np.asarray(chunk_ids, dtype=np.int64))
        red = full(reduce, bool)
        self.batches.append(_Batch(src, full(dst), lens, owner, msg, off, full(0), full(own_hi), red,
                                   np.where(red, lens, 0) if copy_from is None else full(copy_from),
                                   full(final_lo), full(final_hi), full(group), full(flow)))
        self.size += M
        return self.size - M


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """``concat(arange(s, s + l) for s, l)``, vectorised."""
    lengths = np.asarray(lengths, dtype=np.int64)
    ends = np.cumsum(lengths)
    return np.repeat(np.asarray(starts, dtype=np.int64) - (ends - lengths), lengths) + \
        np.arange(int(ends[-1]) if ends.size else 0, dtype=np.int64)


@dataclass(frozen=True)
class _Layout:
    """Chunks of the buffer: block ``b`` is chunks ``first[b] .. first[b] + count[b] - 1``."""

    chunk_bytes: np.ndarray
    first: np.ndarray
    count: np.ndarray

    def chunks(self, blocks: Any) -> np.ndarray:
        """The chunks of the blocks, in the blocks' order."""
        b = np.asarray(blocks, dtype=np.int64).reshape(-1)
        return _ranges(self.first[b], self.count[b])


def _layout(block_bytes: np.ndarray, packet_bytes: int, size: int, what: str,
            equal: np.ndarray | None = None) -> _Layout:
    """Cut blocks into packets: ``ceil(B / packet_bytes)`` each, or, for the blocks of a group ``equal[b]``, the
    group's largest count (a ring's blocks need the same packet count); sizes as equal as integers allow."""
    B = np.asarray(block_bytes, dtype=np.int64)
    if B.min() < 1:
        raise ValueError(f"size={size} is too small: {what} cuts the buffer into {B.shape[0]} blocks, so it needs "
                         f"size >= {B.shape[0]}")
    count = -(-B // packet_bytes)
    if equal is not None:
        top = np.zeros(int(equal.max()) + 1, dtype=np.int64)
        np.maximum.at(top, equal, count)
        count = top[equal]
        if (B < count).any():
            raise ValueError(f"packet_bytes={packet_bytes} is too small for size={size}: {what} needs blocks of "
                             f"equal packet counts, and a block of {int(B.min())} bytes cannot fill "
                             f"{int(count.max())} packets")
    first = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    idx = np.arange(int(count.sum()), dtype=np.int64) - np.repeat(first, count)
    per = np.repeat(B // count, count) + (idx < np.repeat(B % count, count))
    return _Layout(per.astype(np.int64), first, count)


# ----------------------------------------------------------------------------------------------- builders


@dataclass
class _Context:
    """What a builder reads: the network, the parameters; what it writes: ``meta``."""

    graph: ArrayGraph
    net: HostNetwork
    indptr: np.ndarray
    indices: np.ndarray
    name: str
    size: int
    packet_bytes: int
    mode: str
    seed: int
    trees: list[np.ndarray] | None
    weights: np.ndarray | None
    directions: int
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def rank_nodes(self) -> np.ndarray:
        """The nodes that run the schedule: the routers in-network, the hosts in host mode."""
        return np.arange(self.net.routers, dtype=np.int64) if self.mode == "in-network" else self.net.ranks

    def check_packets(self, packets: int, messages: int, chunks: int) -> None:
        """Refuse a schedule whose arrays would not fit, before building it: ``packets`` and ``messages`` on the
        ranks that run it, plus in-network every host's streams up and down (each chunk once each way)."""
        if self.mode == "in-network" and self.net.hosts_per_router:
            packets += 2 * self.net.ranks.shape[0] * chunks
            messages *= 1 + 2 * self.net.hosts_per_router  # at most a stream per host up and down per message
        est = Size(packets, messages, _PACKET_BYTES_PEAK * packets + _MESSAGE_BYTES_PEAK * messages,
                   items="packets")
        check_size(est, {"size": self.size, "routers": self.net.routers, "hosts_per_router":
                         self.net.hosts_per_router}, self.name)


def _add_tree(plan: _Plan, verts: np.ndarray, parent: np.ndarray, chunks: np.ndarray, flow: int = -1) -> None:
    """Pipelined reduce to the root then broadcast on one tree (``parent`` over ``verts``, -1 at the root): up
    messages ``v -> parent(v)`` after those of ``v``'s children, down messages ``parent(v) -> v`` after the one
    into ``parent(v)`` (from the root: after every child's up message); every message of flow ``flow``."""
    N = parent.shape[0]
    root = int(np.flatnonzero(parent < 0)[0])
    v = np.flatnonzero(parent >= 0)
    U = v.shape[0]
    pv = parent[v]
    base = plan.size
    up = np.full(N, -1, dtype=np.int64)
    up[v] = base + np.arange(U)
    down = np.full(N, -1, dtype=np.int64)
    down[v] = base + U + np.arange(U)
    c = chunks.shape[0]
    inner = v[pv != root]  # vertices whose parent is not the root
    top = v[pv == root]  # the root's children
    owner = np.concatenate([up[parent[inner]], np.repeat(down[top], top.shape[0]), down[inner]])
    msg = np.concatenate([up[inner], np.tile(up[top], top.shape[0]), down[parent[inner]]])
    g = plan.new_groups(U + 1)
    at_root = pv == root
    plan.add(np.concatenate([verts[v], verts[pv]]), np.concatenate([verts[pv], verts[v]]), c,
             np.tile(chunks, 2 * U), (owner, msg, np.zeros_like(owner)),
             own_hi=np.concatenate([np.full(U, c), np.where(at_root, c, 0)]),
             reduce=np.concatenate([np.ones(U, bool), np.zeros(U, bool)]),
             final_hi=np.concatenate([np.zeros(U, np.int64), np.full(U, c)]),
             group=np.concatenate([g + np.arange(U), np.where(at_root, g + U, -1)]), flow=flow)
    plan.results.append((down[top[:1]], np.zeros(1, np.int64), np.full(1, c)))


def _host_tree(parent: np.ndarray, t: int, P: int) -> np.ndarray:
    """Host mode: tree ``t`` over the ranks ``rP + h``: host ``t mod P`` of each router in the router's place, the
    router's other hosts its children."""
    n = parent.shape[0]
    rep = np.arange(n, dtype=np.int64) * P + t % P
    out = np.repeat(rep, P)
    out[rep] = np.where(parent >= 0, rep[np.maximum(parent, 0)], -1)
    return out


def _trees_plan(ctx: _Context, parents: list[np.ndarray], shares: np.ndarray) -> tuple[_Plan, _Layout]:
    k = len(parents)
    lay = _layout(shares, ctx.packet_bytes, ctx.size, f"{ctx.name} over {k} trees")
    N = ctx.rank_nodes.shape[0]
    ctx.check_packets(int(lay.count.sum()) * 2 * (N - 1), 2 * k * (N - 1), int(lay.count.sum()))
    plan = _Plan()
    for t, par in enumerate(parents):
        tree = par if ctx.mode == "in-network" else _host_tree(par, t, ctx.net.hosts_per_router)
        _add_tree(plan, ctx.rank_nodes, tree, lay.chunks([t]), flow=t)
    ctx.meta["trees"] = k
    return plan, lay


def _build_trees(ctx: _Context) -> tuple[_Plan, _Layout]:
    assert ctx.trees is not None
    return _trees_plan(ctx, ctx.trees, split_bytes(ctx.size, len(ctx.trees)))


def _build_weighted(ctx: _Context) -> tuple[_Plan, _Layout]:
    assert ctx.trees is not None
    if ctx.weights is None:
        raise ValueError("weights: weighted-trees needs one weight > 0 per tree")
    w = [Fraction(float(x)) for x in ctx.weights.tolist()]
    total = sum(w)
    exact = [ctx.size * x / total for x in w]
    shares = np.array([int(x) for x in exact], dtype=np.int64)  # floor (x >= 0)
    left = ctx.size - int(shares.sum())
    order = sorted(range(len(w)), key=lambda t: (-(exact[t] - int(exact[t])), t))  # largest remainders first
    shares[order[:left]] += 1
    ctx.meta["shares"] = shares.tolist()
    return _trees_plan(ctx, ctx.trees, shares)


def _build_bfs(ctx: _Context) -> tuple[_Plan, _Layout]:
    par = np.asarray(bfs(ctx.indptr, ctx.indices, 0)[1], dtype=np.int64)
    return _trees_plan(ctx, [par], np.array([ctx.size], dtype=np.int64))


def _add_ring(plan: _Plan, nodes: np.ndarray, first: np.ndarray, p: int) -> None:
    """One ring: ``N`` streams, stream ``i`` from position ``i`` to ``i + 1`` carrying steps ``0..2N-3`` (block
    ``(i - t) mod N`` at step ``t``, ``p`` packets a block), packet ``j`` after packet ``j - p`` of stream ``i-1``."""
    N = nodes.shape[0]
    steps = 2 * N - 2
    base = plan.size
    i = np.arange(N, dtype=np.int64)
    # first chunk of the block of stream i at step t, first[(i - t) mod N] = D[t - i + N] with D[k] = first[-k mod N]:
    # row i is the window of D from N - i (one array of N (2N - 2) entries, no index array as large)
    D = first[(-np.arange(3 * N)) % N]

    def chunks(out: np.ndarray) -> None:
        window = np.lib.stride_tricks.sliding_window_view(D, steps)
        if p == 1:
            np.take(window, N - i, axis=0, out=out.reshape(N, steps))
        else:
            np.add(window[N - i][:, :, None], np.arange(p), out=out.reshape(N, steps, p))
    plan.add(nodes, np.roll(nodes, -1), steps * p, chunks, (base + i, base + (i - 1) % N, np.full(N, -p)),
             own_hi=N * p, reduce=True, copy_from=(N - 1) * p, final_lo=(N - 1) * p, final_hi=steps * p,
             group=plan.new_groups(N) + i)
    plan.results.append((base + i, np.full(N, (N - 1) * p), np.full(N, N * p)))


def _rings_plan(ctx: _Context, cycles: list[np.ndarray]) -> tuple[_Plan, _Layout]:
    """Every cycle (router orders) in ``ctx.directions`` directions, the message split equally over the rings; in
    host mode each router's hosts in turn."""
    if ctx.mode == "host":
        P = ctx.net.hosts_per_router
        cycles = [(ctx.net.routers + c[:, None] * P + np.arange(P)).reshape(-1) for c in cycles]
    rings = [c if d == 0 else c[::-1].copy() for c in cycles for d in range(ctx.directions)]
    N = rings[0].shape[0]
    shares = split_bytes(ctx.size, len(rings))
    blocks = np.concatenate([split_bytes(int(s), N) for s in shares])
    lay = _layout(blocks, ctx.packet_bytes, ctx.size, f"{ctx.name} over {len(rings)} rings of {N} ranks",
                  equal=np.repeat(np.arange(len(rings)), N))
    ctx.check_packets(int(lay.count.sum()) * 2 * N, N * len(rings), int(lay.count.sum()))
    plan = _Plan()
    for r, c in enumerate(rings):
        _add_ring(plan, c, lay.first[r * N:(r + 1) * N], int(lay.count[r * N]))
    ctx.meta.update(rings=len(cycles), directions=ctx.directions, ring_ranks=N)
    return plan, lay


def _no_cycle(ctx: _Context) -> ValueError:
    return ValueError(f"graph: no Hamiltonian cycle found on {ctx.graph.n} routers (see hamiltonian_cycle); the "
                      f"'ring-sp' schedule runs a ring over shortest paths on any connected network")


def _build_ring(ctx: _Context) -> tuple[_Plan, _Layout]:
    c = hamiltonian_cycle(ctx.graph, seed=ctx.seed)
    if c is None:
        raise _no_cycle(ctx)
    ctx.meta["cycles"] = [c]
    return _rings_plan(ctx, [c])


def _build_multiring(ctx: _Context) -> tuple[_Plan, _Layout]:
    cs = disjoint_hamiltonian_cycles(ctx.graph, seed=ctx.seed)
    if not cs:
        raise _no_cycle(ctx)
    ctx.meta["cycles"] = cs
    return _rings_plan(ctx, cs)


def _build_ring_sp(ctx: _Context) -> tuple[_Plan, _Layout]:
    par = np.asarray(bfs(ctx.indptr, ctx.indices, 0)[1], dtype=np.int64)
    n = par.shape[0]
    order = np.argsort(par, kind="stable")
    cut = np.searchsorted(par[order], np.arange(-1, n + 1))
    children = [order[cut[v + 1]:cut[v + 2]].tolist() for v in range(n)]
    ring, pending = [], [0]
    while pending:  # preorder, children in increasing order (as ring_messages)
        v = pending.pop()
        ring.append(v)
        pending.extend(children[v][::-1])
    c = np.array(ring, dtype=np.int64)
    ctx.meta["cycles"] = [c]
    return _rings_plan(ctx, [c])


def nccl_double_binary_tree(nranks: int) -> tuple[np.ndarray, np.ndarray]:
    """NCCL's double binary tree on ranks ``0..nranks-1``: two parent arrays (-1 at the roots).

    Tree 1 is ``ncclGetBtree``'s: rank ``r > 0`` with lowest set bit ``b`` has parent ``(r ^ b) | 2b``, or ``r ^ b``
    when that is not a rank; tree 2 is ``ncclGetDtree``'s mirror (``r -> N-1-r``) for even ``N`` and shift (``r ->
    r + 1 mod N``) for odd ``N``; the roots are those of ``ncclGetDtreeRoots`` (0, and ``N - 1`` or 1).

    Parameters
    ----------
    nranks : int
        Ranks ``N >= 1``.

    Returns
    -------
    tuple of numpy.ndarray
        The two parent arrays.

    Example
    -------
    >>> t1, t2 = nccl_double_binary_tree(6)
    >>> t1.tolist(), t2.tolist()
    ([-1, 2, 4, 2, 0, 4], [1, 5, 3, 1, 3, -1])

    References
    ----------
    NVIDIA NCCL, ``src/graph/trees.cc``: ``ncclGetBtree``, ``ncclGetDtree``, ``ncclGetDtreeRoots``.
    """
    N = check_int(nranks, "nranks", minimum=1)
    r = np.arange(N, dtype=np.int64)
    bit = r & -r
    up = (r ^ bit) | (bit << 1)
    up = np.where(up >= N, r ^ bit, up)
    up[0] = -1
    if N % 2:
        s = (r - 1) % N
        t2 = np.where(up[s] < 0, -1, (up[s] + 1) % N)
    else:
        m = N - 1 - r
        t2 = np.where(up[m] < 0, -1, N - 1 - up[m])
    return up, t2.astype(np.int64)


def _build_dbtree(ctx: _Context) -> tuple[_Plan, _Layout]:
    N = ctx.rank_nodes.shape[0]
    lay = _layout(split_bytes(ctx.size, 2), ctx.packet_bytes, ctx.size, "dbtree over 2 trees")
    ctx.check_packets(int(lay.count.sum()) * 2 * (N - 1), 4 * (N - 1), int(lay.count.sum()))
    plan = _Plan()
    for t, par in enumerate(nccl_double_binary_tree(N)):
        _add_tree(plan, ctx.rank_nodes, par, lay.chunks([t]))
    ctx.meta["trees"] = 2
    return plan, lay


def _build_halving_doubling(ctx: _Context) -> tuple[_Plan, _Layout]:
    nodes = ctx.rank_nodes
    R = nodes.shape[0]
    p = 1 << (R.bit_length() - 1)
    rem = R - p
    L = p.bit_length() - 1
    lay = _layout(split_bytes(ctx.size, p), ctx.packet_bytes, ctx.size, f"halving-doubling over {p} ranks")
    C = int(lay.count.sum())
    ctx.check_packets(3 * C * p + 2 * C * rem, 3 * L * p + 3 * rem, C)
    a = np.arange(p, dtype=np.int64)
    x = nodes[np.where(a < rem, 2 * a + 1, a + rem)]  # the node of new rank a
    g = np.zeros(p, dtype=np.int64)  # own block of new rank a: a's L bits reversed (step k decides bit L-1-k)
    for i in range(L):
        g |= ((a >> i) & 1) << (L - 1 - i)
    cnt = lay.count
    cum = np.concatenate([[0], np.cumsum(cnt)])

    def pos(j: int) -> np.ndarray:
        """Chunk position of key 2^j in each rank's order (keys ``block ^ own block``): the chunks of the aligned
        group of 2^j blocks around its own block."""
        lo = (g >> j) << j
        return cum[lo + (1 << j)] - cum[lo]

    def keys(lo: int, hi: int, ranks: np.ndarray = a) -> tuple[np.ndarray, np.ndarray]:
        """``(lengths, chunks)`` of messages carrying keys ``lo .. hi - 1`` of ``ranks``, in key order."""
        blocks = g[ranks][:, None] ^ np.arange(lo, hi)[None, :]
        return cnt[blocks].sum(axis=1), lay.chunks(blocks)

    RS = 0
    AGG = RS + p * L
    AGR = AGG + p * L
    PRE = AGR + p * (L - 1)

    def rs(r: np.ndarray, k: int) -> np.ndarray:
        return RS + k * p + r

    def agg(r: np.ndarray, t: int) -> np.ndarray:
        return AGG + t * p + r

    def agr(r: np.ndarray, t: int) -> np.ndarray:
        return AGR + (t - 1) * p + r

    def deps(parts: list[tuple[np.ndarray, np.ndarray, Any]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return tuple(np.concatenate([np.broadcast_to(np.asarray(q[i], dtype=np.int64), q[0].shape) for q in parts])
                     if parts else np.zeros(0, np.int64) for i in range(3))  # type: ignore[return-value]

    def reduced(me: np.ndarray, r: np.ndarray, off: Any) -> list:
        """Dependencies of messages ``me`` of ranks ``r`` on their reduce-scatter result (offset ``off``)."""
        out = [(me, rs(r ^ (1 << i), i), off) for i in range(L)]
        pre = r < rem
        return out + [(me[pre], PRE + r[pre], np.broadcast_to(off, r.shape)[pre])]

    def gathered(me: np.ndarray, r: np.ndarray, t: int) -> list:
        """Dependencies of messages ``me`` carrying keys 1 .. 2^t - 1 of ranks ``r`` (gathered in steps < t)."""
        out = []
        for s in range(t):
            c = r ^ (1 << (L - 1 - s))
            start = pos(s)[r] - cnt[g[r]]  # key 2^s, after key 0
            out.append((me, agg(c, s), -start))
            if s:
                out.append((me, agr(c, s), -(start + cnt[g[r] ^ (1 << s)])))
        return out

    plan = _Plan()
    own_g = plan.new_groups(p)  # every message that carries a rank's own reduced block
    for k in range(L):  # reduce-scatter step k: keys 2^(L-1-k) .. 2^(L-k) - 1 to new rank a ^ 2^k
        lo = 1 << (L - 1 - k)
        lens, ch = keys(lo, 2 * lo)
        me = rs(a, k)
        d = [(me, rs(a ^ (1 << i), i), pos(L - 1 - k)) for i in range(k)]
        pre = a < rem
        d.append((me[pre], PRE + a[pre], pos(L - 1 - k)[pre]))
        plan.add(x, x[a ^ (1 << k)], lens, ch, deps(d), own_hi=lens, reduce=True, group=plan.new_groups(p) + a)
    lens0, ch0 = keys(0, 1)
    for t in range(L):  # allgather step t: the own reduced block to new rank a ^ 2^(L-1-t)
        plan.add(x, x[a ^ (1 << (L - 1 - t))], lens0, ch0,
                 deps(reduced(agg(a, t), a, 0)), own_hi=lens0, final_hi=lens0, group=own_g + a)
    for t in range(1, L):  # ... and the keys it gathered in the steps before
        lens, ch = keys(1, 1 << t)
        plan.add(x, x[a ^ (1 << (L - 1 - t))], lens, ch, deps(gathered(agr(a, t), a, t)), final_hi=lens)
    if rem:
        r = a[:rem]
        lens, ch = keys(0, p, r)  # before: rank 2r sends its buffer to rank 2r + 1 (new rank r), in r's order
        plan.add(nodes[2 * r], x[r], lens, ch, own_hi=lens, reduce=True, group=plan.new_groups(rem) + r)
        post = plan.size  # after: rank 2r + 1 sends the result to rank 2r
        plan.add(x[r], nodes[2 * r], lens0[r], lay.chunks(g[r]), deps(reduced(post + r, r, 0)), own_hi=lens0[r],
                 final_hi=lens0[r], group=own_g + r)
        lens, ch = keys(1, p, r)
        plan.add(x[r], nodes[2 * r], lens, ch, deps(gathered(post + rem + r, r, L)), final_hi=lens)
    plan.results.append((agg(a, 0), np.zeros(p, np.int64), lens0))
    ctx.meta.update(power_of_two=p, steps=L)
    return plan, lay


# ----------------------------------------------------------------------------------------------- hosts


def _in_network(b: _Batch, results: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                net: HostNetwork) -> tuple[_Batch, np.ndarray]:
    """The routers' messages with the hosts as ranks: each group's contribution up from every host of its router
    (one stream per host), every result a router receives or computes down to each of its hosts. Returns the
    messages and, for the new ones (after the routers'), where their chunks start among the routers' (each new
    message carries a slice of one router message's chunks)."""
    P, n = net.hosts_per_router, net.routers
    M = b.src.shape[0]
    ptr = np.concatenate([[0], np.cumsum(b.lens)])
    h = np.arange(P, dtype=np.int64)
    # contributions up: one stream per group and host, the group's messages wait for them instead of their own
    has = np.flatnonzero(b.group >= 0)
    groups, first = np.unique(b.group[has], return_index=True)
    rep = has[first]
    G = groups.shape[0]
    r = b.src[rep]
    lens = np.repeat(b.own_hi[rep] - b.own_lo[rep], P)
    zero = np.zeros(G * P, np.int64)
    up = _Batch(n + np.repeat(r * P, P) + np.tile(h, G), np.repeat(r, P), lens, *_NO_DEPS, zero, lens,
                np.ones(G * P, bool), lens, zero, zero, np.full(G * P, -1), np.repeat(b.flow[rep], P))
    gi = np.searchsorted(groups, b.group[has])
    owner = np.concatenate([b.dep_owner, np.repeat(has, P)])
    msg = np.concatenate([b.dep_msg, M + np.repeat(gi * P, P) + np.tile(h, has.shape[0])])
    off = np.concatenate([b.dep_off, np.repeat(-b.own_lo[has], P)])
    own_lo, own_hi = b.own_lo.copy(), b.own_hi.copy()
    own_lo[has] = own_hi[has] = 0
    # results down: the final packets a router receives (after them), and those it sends of its own (after what
    # they wait for)
    fm = np.flatnonzero(b.final_hi > b.final_lo)
    rm, rlo, rhi = (np.concatenate([q[i] for q in results]) for i in range(3))
    at = np.concatenate([b.dst[fm], b.src[rm]])
    F = at.shape[0]
    ids = M + G * P + np.arange(F * P)
    f_ids, r_ids = ids[:fm.shape[0] * P], ids[fm.shape[0] * P:]
    order = np.argsort(owner, kind="stable")
    dptr = np.concatenate([[0], np.cumsum(np.bincount(owner, minlength=M))])
    dcount = np.repeat(np.diff(dptr)[rm], P)
    pick = order[_ranges(np.repeat(dptr[rm], P), dcount)]  # rm's dependencies, once per host
    lens = np.repeat(np.concatenate([b.final_hi[fm] - b.final_lo[fm], rhi - rlo]), P)
    zero = np.zeros(F * P, np.int64)
    down = _Batch(np.repeat(at, P), n + np.repeat(at * P, P) + np.tile(h, F), lens,
                  np.concatenate([f_ids, np.repeat(r_ids, dcount)]),
                  np.concatenate([np.repeat(fm, P), msg[pick]]),
                  np.concatenate([np.repeat(b.final_lo[fm], P), off[pick] + np.repeat(np.repeat(rlo, P), dcount)]),
                  zero, zero, np.zeros(F * P, bool), zero, zero, lens, np.full(F * P, -1),
                  np.repeat(np.concatenate([b.flow[fm], b.flow[rm]]), P))
    routers = _Batch(b.src, b.dst, b.lens, owner, msg, off, own_lo, own_hi, b.reduce, b.copy_from,
                     np.zeros(M, np.int64), np.zeros(M, np.int64), b.group, b.flow)
    src = np.concatenate([ptr[rep] + b.own_lo[rep], ptr[fm] + b.final_lo[fm], ptr[rm] + rlo])
    return _Batch.cat([routers, up, down]), np.repeat(src, P)


@numba.njit(cache=True)
def _copy_segments(buf, src, dst, lens):  # pragma: no cover - compiled
    """``buf[dst[i] : dst[i] + lens[i]] = buf[src[i] : src[i] + lens[i]]`` for every ``i``."""
    for i in range(src.shape[0]):
        s = src[i]
        d = dst[i]
        for j in range(lens[i]):
            buf[d + j] = buf[s + j]


def _chunk_array(plan: _Plan, lens: np.ndarray, copies: np.ndarray | None) -> np.ndarray:
    """Every message's chunks in one array: the batches', then each copied message's slice (it starts at
    ``copies[i]`` among the batches'); allocated once."""
    out = np.empty(int(lens.sum()), dtype=np.int64)
    head = 0
    for b, c in zip(plan.batches, plan.chunks, strict=True):
        k = int(b.lens.sum())
        if callable(c):
            c(out[head:head + k])
        else:
            out[head:head + k] = c
        head += k
    if copies is not None and copies.shape[0]:
        extra = lens[lens.shape[0] - copies.shape[0]:]
        _copy_segments(out, copies, head + np.concatenate([[0], np.cumsum(extra)[:-1]]), extra)
    return out


# ----------------------------------------------------------------------------------------------- declaration


@dataclass(frozen=True)
class ScheduleSpec:
    """One allreduce schedule: its name, a one-line summary, whether it needs trees, the options it takes beyond
    the common ones, and its builder (internal: a context in, messages and chunks out)."""

    name: str
    summary: str
    needs_trees: bool
    builder: Callable[[_Context], tuple[_Plan, _Layout]] = field(repr=False)
    options: tuple[str, ...] = ()
    paced: bool = False


_RING = ("directions",)
SCHEDULES: dict[str, ScheduleSpec] = {s.name: s for s in [
    ScheduleSpec("trees", "pipelined reduce and broadcast on each given tree, the message split equally", True,
                 _build_trees, ("pace",)),
    ScheduleSpec("weighted-trees", "pipelined reduce and broadcast on each given tree, the message split in "
                 "proportion to weights, each tree paced at its share of its busiest link", True, _build_weighted,
                 ("weights", "pace"), paced=True),
    ScheduleSpec("bfs", "pipelined reduce and broadcast on one breadth-first tree from router 0", False, _build_bfs),
    ScheduleSpec("ring", "reduce-scatter and allgather around a Hamiltonian cycle, every hop one link, both "
                 "directions", False, _build_ring, _RING),
    ScheduleSpec("multiring", "the ring on every edge-disjoint Hamiltonian cycle found, the message split over them",
                 False, _build_multiring, _RING),
    ScheduleSpec("ring-sp", "the ring over the breadth-first preorder from router 0, each hop a shortest path "
                 "(contended)", False, _build_ring_sp, _RING),
    ScheduleSpec("dbtree", "NCCL's double binary tree, each logical edge a shortest path", False, _build_dbtree),
    ScheduleSpec("halving-doubling", "Rabenseifner's recursive halving reduce-scatter and recursive doubling "
                 "allgather, each message a shortest path", False, _build_halving_doubling),
]}


def _parents(graph: ArrayGraph, trees: Any) -> list[np.ndarray]:
    """The trees as parent arrays over the routers, checked: one root, every router below it, tree edges links."""
    if isinstance(trees, np.ndarray) and trees.ndim == 2:
        trees = list(trees)
    if not isinstance(trees, Sequence) or isinstance(trees, str) or len(trees) == 0:
        raise ValueError("trees: a non-empty sequence of parent arrays or Tree objects")
    n = graph.n
    e = np.sort(np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2), axis=1)
    keys = np.sort(e[:, 0] * n + e[:, 1])
    out = []
    for t, tree in enumerate(trees):
        par = tree.parent_array() if hasattr(tree, "parent_array") else np.asarray(tree)
        if par.ndim != 1 or par.shape[0] != n or not np.issubdtype(par.dtype, np.integer):
            raise ValueError(f"trees[{t}]: a parent array of {n} integers (one per router), got shape {par.shape}")
        par = par.astype(np.int64)
        roots = np.flatnonzero(par < 0)
        if roots.shape[0] != 1 or par.max() >= n or (par < -1).any():
            raise ValueError(f"trees[{t}]: {roots.shape[0]} roots, a spanning tree has one (-1) and parents in "
                             f"0..{n - 1}")
        v = np.flatnonzero(par >= 0)
        k = np.minimum(v, par[v]) * n + np.maximum(v, par[v])
        at = np.minimum(np.searchsorted(keys, k), max(keys.shape[0] - 1, 0))
        if keys.shape[0] == 0 or (keys[at] != k).any():
            bad = int(v[keys[at] != k][0]) if keys.shape[0] else int(v[0])
            raise ValueError(f"trees[{t}]: edge {bad}-{int(par[bad])} is not a link of the network")
        anc = np.where(par < 0, np.arange(n), par)
        for _ in range(max(1, int(n).bit_length()) + 1):
            anc = anc[anc]
        if (anc != roots[0]).any():
            raise ValueError(f"trees[{t}]: {int((anc != roots[0]).sum())} routers are not below the root (a cycle)")
        out.append(par)
    return out


def build_schedule(graph: GraphLike, name: str, size: int, *, trees: Any = None, weights: Any = None,
                   directions: int | None = None, hosts_per_router: int = 1, mode: str = "in-network",
                   link_gbps: float = 100.0, delay_us: float = 1.0, host_gbps: float | None = None,
                   host_delay_us: float | None = None, packet_bytes: int = 8192, seed: int = 0,
                   pace: bool | None = None) -> Schedule:
    """The allreduce schedule ``name`` of ``size`` bytes per rank on the routers ``graph`` with hosts.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The routers and their links (connected, 2 routers or more).
    name : str
        A key of :data:`SCHEDULES`.
    size : int
        Bytes of every rank's buffer.
    trees : sequence, optional
        ``trees`` and ``weighted-trees`` only: spanning trees of ``graph`` as parent arrays (-1 at the root) or
        :class:`~starlib.edst.trees.Tree` objects (an ``EDSTSet``).
    weights : sequence of float, optional
        ``weighted-trees`` only: one weight > 0 per tree; tree ``t`` carries ``size * w_t / sum(w)`` bytes (exact
        largest-remainder rounding).
    directions : int, optional
        ``ring``, ``multiring`` and ``ring-sp`` only: each cycle in 1 or 2 directions (default 2; ``ring-sp`` with
        1 is the ring of :func:`starlib.netsim.simulate.ring_messages`).
    hosts_per_router : int
        Hosts ``P >= 0`` per router; the hosts are the ranks. ``P = 0``: no hosts, the routers are the ranks and
        run the schedule (``mode`` is then ``"in-network"`` whatever is given).
    mode : str
        ``"in-network"`` (the routers run the schedule) or ``"host"`` (the hosts do; module docstring).
    link_gbps, delay_us, host_gbps, host_delay_us : float
        Rates and delays of the links (:func:`with_hosts`).
    packet_bytes : int
        Largest packet payload.
    seed : int
        Seed of the Hamiltonian cycle search (``ring``, ``multiring``).
    pace : bool, optional
        ``trees`` and ``weighted-trees`` only: pace every tree at its share of the busiest link it uses (module
        docstring, *Pacing*). Default: True for ``weighted-trees``, False for the others (which only take False).

    Returns
    -------
    Schedule
        ``meta``: ``schedule``, ``mode``, ``routers``, ``hosts_per_router``, ``packet_bytes``, ``pace`` (whether the
        trees are paced), ``copy_from`` (per message, the packet from which its packets overwrite the destination's
        chunk rather than add to it), and per schedule ``trees`` (count), ``shares``, ``tree_pace_gbps`` (each
        tree's rate, when paced), ``rings`` (cycles used), ``directions``, ``ring_ranks``, ``cycles`` (router
        orders), ``power_of_two`` and ``steps`` (halving-doubling).

    Raises
    ------
    ValueError
        Naming the parameter: an unknown ``name`` or ``mode``; ``trees`` missing or given where not needed;
        ``weights`` or ``directions`` given to a schedule that takes none, ``pace`` not a bool or True for a
        schedule that cannot be paced; ``hosts_per_router < 0``; a ``size`` too
        small to give every block a byte, or too large for the memory limit; a tree that is not a spanning tree of
        ``graph``; a ``graph`` with no Hamiltonian cycle found (``ring``, ``multiring``) or not connected.

    Example
    -------
    >>> import networkx as nx
    >>> s = build_schedule(nx.cycle_graph(4), "bfs", 8192, hosts_per_router=2, packet_bytes=1024)
    >>> s.nodes, s.ranks.shape[0], s.chunk_bytes.shape[0], replay_counts(s) == s.messages
    (12, 8, 8, True)
    >>> s.link_bytes()[:4].tolist()   # links 0-1, 0-3, 1-2 of the tree: the buffer each way; link 2-3 unused
    [[8192, 8192], [8192, 8192], [8192, 8192], [0, 0]]
    """
    name = check_choice(name, "name", tuple(SCHEDULES))
    spec = SCHEDULES[name]
    mode = check_choice(mode, "mode", MODES)
    size = check_int(size, "size", minimum=1)
    packet_bytes = check_int(packet_bytes, "packet_bytes", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    g = as_graph(graph, "graph")
    net = with_hosts(g, hosts_per_router, link_gbps=link_gbps, delay_us=delay_us, host_gbps=host_gbps,
                     host_delay_us=host_delay_us)
    if net.hosts_per_router == 0:  # the routers are the ranks: they run the schedule, no host streams
        mode = "in-network"
    if spec.needs_trees and trees is None:
        raise ValueError(f"trees: the {name!r} schedule needs trees (parent arrays or Tree objects)")
    if not spec.needs_trees and trees is not None:
        raise ValueError(f"trees: the {name!r} schedule takes no trees (only "
                         f"{', '.join(repr(s.name) for s in SCHEDULES.values() if s.needs_trees)} do)")
    for opt, value in (("weights", weights), ("directions", directions)):
        if value is not None and opt not in spec.options:
            raise ValueError(f"{opt}: the {name!r} schedule takes no {opt} (only "
                             f"{', '.join(repr(s.name) for s in SCHEDULES.values() if opt in s.options)} do)")
    if pace is None:
        pace = spec.paced
    elif not isinstance(pace, (bool, np.bool_)):
        raise ValueError(f"pace={pace!r}: True or False")
    elif pace and "pace" not in spec.options:
        raise ValueError(f"pace=True: the {name!r} schedule cannot be paced (only "
                         f"{', '.join(repr(s.name) for s in SCHEDULES.values() if 'pace' in s.options)} can)")
    pace = bool(pace)
    if g.n < 2:
        raise ValueError(f"graph: an allreduce needs 2 routers or more, got n={g.n}")
    parents = _parents(g, trees) if trees is not None else None
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64).reshape(-1)
        if parents is None or w.shape[0] != len(parents) or not np.isfinite(w).all() or (w <= 0).any():
            raise ValueError(f"weights: one finite weight > 0 per tree ({0 if parents is None else len(parents)}), "
                             f"got {w.tolist()}")
    d = 2 if directions is None else check_int(directions, "directions", minimum=1, maximum=2)
    edges = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    indptr, indices = csr(g.n, edges)
    if (bfs(indptr, indices, 0)[0] < 0).any():
        raise ValueError(f"graph: not connected ({g.n} routers)")
    ctx = _Context(g, net, indptr, indices, name, size, packet_bytes, mode, seed, parents, w, d)
    plan, lay = spec.builder(ctx)
    b, copies = _Batch.cat(plan.batches), None
    if mode == "in-network" and net.hosts_per_router:
        b, copies = _in_network(b, plan.results, net)
    return _schedule(b, _chunk_array(plan, b.lens, copies), net, _Routes(net, edges), lay, name, size,
                     {"schedule": name, "mode": mode, "routers": net.routers, "hosts_per_router": net.hosts_per_router,
                      "packet_bytes": packet_bytes, "pace": pace, **ctx.meta}, pace)


def _flow_pace(s: Schedule, flow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each flow's share of the busiest link direction it crosses, and every message's pace (0 outside a flow).

    Message ``m`` on link direction ``e`` carrying ``B_e`` bytes of all messages is owed ``rate_e B_m / B_e``; a
    flow is paced at the least its messages are owed on any of their hops, so on every link direction the flows'
    paces add up to its rate at most.
    """
    hops = np.diff(s.path_ptr) - 1
    e = s.hop_directions()
    mb = s.message_bytes().astype(np.float64)
    hop_bytes = np.repeat(mb, hops)
    load = np.bincount(e, weights=hop_bytes, minlength=2 * s.links.shape[0])
    owed = np.repeat(s.rate_gbps, 2)[e] * hop_bytes / load[e]
    f = np.repeat(flow, hops)
    on = f >= 0
    rate = np.full(int(flow.max()) + 1 if flow.size else 0, np.inf)
    np.minimum.at(rate, f[on], owed[on])
    return rate, np.where(flow >= 0, rate[np.maximum(flow, 0)] if rate.size else 0.0, 0.0)


def _schedule(b: _Batch, chunk_ids: np.ndarray, net: HostNetwork, route: _Routes, lay: _Layout, name: str,
              size: int, meta: dict[str, Any], pace: bool = False) -> Schedule:
    """The messages as a checked :class:`Schedule`, each routed from its source to its destination; with
    ``pace``, the messages of each flow paced at its share of the busiest link direction it crosses."""
    M = b.src.shape[0]
    visits, nodes = route.paths(b.src, b.dst)
    order = np.argsort(b.dep_owner, kind="stable")
    fin = np.flatnonzero(b.final_hi > b.final_lo)

    def ptr(counts: np.ndarray) -> np.ndarray:
        return np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    s = Schedule(name=name, nodes=net.nodes, links=net.links, rate_gbps=net.rate_gbps, delay_us=net.delay_us,
                 ranks=net.ranks, size=size, chunk_bytes=lay.chunk_bytes, path_ptr=ptr(visits), path_nodes=nodes,
                 chunk_ptr=ptr(b.lens), chunk_ids=chunk_ids, dep_ptr=ptr(np.bincount(b.dep_owner, minlength=M)),
                 dep_msg=b.dep_msg[order], dep_off=b.dep_off[order], own_lo=np.ascontiguousarray(b.own_lo),
                 own_hi=np.ascontiguousarray(b.own_hi), reduce=np.ascontiguousarray(b.reduce), final_msg=fin,
                 final_lo=b.final_lo[fin], final_hi=b.final_hi[fin],
                 meta={**meta, "copy_from": np.ascontiguousarray(b.copy_from)})
    if pace:
        rate, per_msg = _flow_pace(s, b.flow)
        s = replace(s, pace_gbps=per_msg, meta={**s.meta, "tree_pace_gbps": rate.tolist()})
    check_schedule(s)
    return s
