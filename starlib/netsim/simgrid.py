"""A :class:`~starlib.allreduce.schedule.Schedule` on SimGrid's flow-level network model: a second simulator.

SimGrid (Casanova, Giersch, Legrand, Quinson and Suter, "Versatile, scalable, and accurate simulation of distributed
applications and platforms", JPDC 74(10), 2014) shares each link's bandwidth among the flows that cross it by
max-min fairness, with no packets: where ns-3 (:mod:`starlib.netsim.ns3`) stores and forwards every packet on
every hop, SimGrid moves a message's bytes over its whole route at once, at the rate the sharing gives it.

The platform
------------
One host per node of the schedule, one split-duplex link per link (``rate_gbps`` each way, ``delay_us`` latency),
and one route per message path (a message of several hops is one flow over its path's links). Two messages between
the same pair of nodes over different paths get different source hosts (extra hosts of the source node, which
carry nothing else: in SimGrid a host has no bandwidth of its own, a route has one host at each end), so every
message follows its own path exactly.

The model
---------
``network/model:CM02`` (Casanova and Marchal's max-min model, no bandwidth correction: ``bandwidth-factor`` 1,
``weight-S`` 0), ``network/crosstraffic:0`` (no reverse traffic for acknowledgements), ``network/TCP-gamma:1e100``
(no window bound on a flow's rate), ``network/latency-factor:0`` and ``surf/precision:1e-12`` (actions end within
a picosecond of their true end, not a nanosecond). The latency factor 0 moves the propagation delay out of SimGrid's
flow: a SimGrid communication pays its route's latency *before* its bytes move, so packets sent one after the other
would each pay it; here SimGrid moves the bytes and the engine delivers them the route's latency (the sum of its
links' delays, read from SimGrid) after the last byte, as a link does. A lone transfer of ``b`` bytes over a route
of latency ``d`` and bottleneck rate ``r`` so takes ``b / r + d``, as under CM02 with its latency; with the latency
phase gone every flow's sharing weight is 1 (CM02 weighs a flow by its latency while it is paid), so the sharing is
plain max-min: ``k`` flows on one link get ``r / k`` each.

The schedule's semantics
------------------------
Packet ``j`` of message ``m`` is released at ``m``'s source once packet ``j + off`` of every dependency ``(d, off)``
with ``0 <= j + off < packets(d)`` has arrived there; its count is its source's own contribution plus the counts
of those packets. A message is a stream: it sends its released packets in the order they were released, one SimGrid
communication at a time (a packet waits while the previous transfer of its message is under way, as it would behind
it in a queue), each communication carrying the packets queued when it starts, at most ``batch`` of them: a message
never waits for more. ``batch=1`` moves every packet on its own; a larger ``batch`` coarsens the transfers (fewer,
larger communications, faster to simulate) without changing a single dependency or count, but the packets of a
batch arrive together, so each hop of a pipeline holds up to ``batch`` packets. The run checks that every packet
arrives and every packet of a final range carries all ``R`` contributions. A paced message (``pace_gbps[m] > 0``,
:mod:`starlib.allreduce.schedule`, *Pacing*) caps each of its communications at its pace (the ``rate`` of
``Comm::send``): the flow-level form of ns-3's one-packet token bucket, the same bytes per second.

The default batch
-----------------
``batch=None`` gives message ``m`` of ``P_m`` packets the batch ``k_m = 1 + floor(P_m / (100 (L - 1)))``, where
``L`` is the number of packets on the schedule's longest dependency chain (a packet that waits for nothing counts 1,
one that waits for others one more than the longest of them; ``L - 1`` taken as at least 1). A pipeline of ``L``
transfers with ``k`` packets per hop fills ``(L - 1)(k - 1)`` packet times later than with one; the rule keeps that
below ``P_m / 100`` packet times, 1 % of the time the stream takes to send its own packets (:data:`BATCH_ERROR`).
Only streams of more than ``100 (L - 1)`` packets are coarsened: the pipelined trees from about 16 MiB on (``L = 2h``
for trees of depth ``h``), the first rounds of halving-doubling, never a ring (``L`` is twice the ranks, ``P_m`` a
few packets per step). Measured against ``batch=1`` (routers as ranks, 8 KiB packets, 100 Gb/s and 1 us links,
the shallow EDSTs for the trees; largest ``k`` in brackets; 0 where the rule gives 1 everywhere):

==============================  ===========  ================  ================
PolarFly, schedule              1 MiB        16 MiB            64 MiB
==============================  ===========  ================  ================
q = 7, trees (h = 3)            0            +0.95 % (2)       +0.97 % (5)
q = 13, trees (h = 3)           0            0                 +0.84 % (3)
q = 31, trees (h = 3)           0            0                 (not run)
q = 7, 13: ring                 0            0                 0
q = 7, halving-doubling         0            +0.034 % (2)      +0.066 % (8)
q = 13, halving-doubling        0            +0.003 % (2)      +0.015 % (6)
==============================  ===========  ================  ================

For the trees the added time is the hand value ``(L - 1)(k - 1)`` packet times: ``(p + (2h - 1) k) 8 b / r + 2hd``
for ``p`` packets of ``b`` bytes per tree, against ``(p + 2h - 1) 8 b / r + 2hd`` at ``batch=1`` (the time of
every batch-1 run above at q = 7 and q = 31, e.g. 344,821 ns at q = 7 and 93,163 ns at q = 31 for 16 MiB; ns-3
gives 93,248 ns there, its 2-byte packet header included).

The engine
----------
SimGrid 3.32 keeps every *detached* communication under way (a host-to-host ``Comm::sendto_init``, which SimGrid
detaches) in one ``std::list`` of its maestro and takes each finished one out with ``std::list::remove``, a scan of
the whole list (``CommImpl::detach`` and ``CommImpl::finish`` in ``src/kernel/activity/CommImpl.cpp``): a run of
such communications costs (communications) x (communications under way), and at PolarFly q = 31 (30,000 under way)
that scan took 94 % of the time. No configuration changes it (it is not the network model's work: Lazy or Full,
max-min settings), and the other activities (``Exec``, ``Io``, parallel tasks) are filed the same way or share
bandwidth otherwise. So the engine detaches nothing: every message is a SimGrid actor on its route's source host,
sending into a mailbox of its own whose permanent receiver (one actor per destination host, which never receives)
makes each communication start at once from host to host; ``Comm::send`` starts it and waits for its end in one
simcall, which files the communication with its own actor only (one at a time, so the scan is of one). The network
sees exactly the same flow (same hosts, route, size and rate bound), so no time changes. Finished communications
stay in the mailbox until the actor clears it (every 8 transfers and after its last). An idle actor suspends
itself; the arrival that releases a packet of its message resumes it at the same instant. The actors' stacks are
256 KiB (``contexts/stack-size``), mapped without a guard page (``contexts/guard-size:0``) so that only the pages
they touch are resident (about 20 KB per message) and 30,000 of them stay within Linux's 65,530 mappings.

SimGrid runs in a child process (``python simgrid_engine.py FOLDER``: the C++ engine of
:mod:`starlib.netsim.simgrid_engine`, compiled there by cppyy against Debian's ``libsimgrid-dev``), because a
SimGrid engine can be created only once per process and Debian's SimGrid library links Debian's ns-3, which must
not share a process with the ns-3 of :mod:`starlib.netsim.ns3`. Each run compiles the engine anew (about 3 s).
The same schedule gives the same time on every run: SimGrid's scheduling is deterministic and nothing is random.

The cost
--------
About 30 us of wall time per SimGrid communication (simcalls, routing, the max-min update), whatever the number
under way. Measured on a shared 2-core machine (wall time of the child process after 3-5 s of compiling; routers
as ranks, 8 KiB packets, shallow EDSTs), PolarFly q = 31 (993 routers, 16 trees of depth 3, 31,744 messages):

=================  =====================  ===============================  ===================================
trees              communications         detached communications          now (default batch: 1 here)
=================  =====================  ===============================  ===================================
1 MiB              253,952                over 2 min (batch=1, stopped)    7.5 s, 849 MB: 14,520 ns
16 MiB             4,063,232              11 min with ``batch=8``:         128 s, 1,008 MB: 93,163 ns
                                          116,100 ns (+25 %)               (the hand value)
=================  =====================  ===============================  ===================================

The ring on a Hamiltonian cycle at q = 31 and 16 MiB (both directions, 1,986 messages, 7,880,448 communications of
one packet of 4,224 bytes): 287 s, 628 MB, 2,654,771 ns (1,984 steps of a delay and a packet each, 1.34 us).

Example
-------
One 1000-byte packet over one 100 Gb/s, 1 us link: 80 ns of transfer and 1000 ns of propagation.

>>> from starlib.allreduce.schedule import ScheduleBuilder
>>> b = ScheduleBuilder(2, np.array([[0, 1]]), [100.0], [1.0], chunk_bytes=[1000])
>>> _ = b.add([0, 1], [0], own=True)
>>> simulate_schedule(b.build("one", size=1000), check=False).time_ns
1080

References
----------
H. Casanova, A. Giersch, A. Legrand, M. Quinson and F. Suter, "Versatile, scalable, and accurate simulation of
distributed applications and platforms", J. Parallel Distrib. Comput. 74(10), 2014, pp. 2899-2917,
doi:10.1016/j.jpdc.2014.06.008. H. Casanova and L. Marchal, "A network model for simulation of grid application",
LIP research report 2002-40 (the CM02 model).
"""

from __future__ import annotations

import ctypes.util
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..allreduce.schedule import Schedule
from ..validation import MissingExtra, check_int, require_extra
from . import simgrid_engine
from .ns3 import SimResult

__all__ = ["BATCH_ERROR", "CONFIG", "SimGridRun", "simgrid_version", "simulate_schedule", "run_schedule", "routes"]

#: SimGrid's configuration for every run (module docstring)
CONFIG = ("network/model:CM02", "network/crosstraffic:0", "network/TCP-gamma:1e100", "network/latency-factor:0",
          "surf/precision:1e-12", "contexts/stack-size:256", "contexts/guard-size:0")
#: the default coarsening's bound on the pipeline fill it adds, as a fraction of a stream (module docstring)
BATCH_ERROR = Fraction(1, 100)
#: the one line that says how to install SimGrid
INSTALL = "apt-get install libsimgrid-dev (Debian bookworm: SimGrid 3.32, its C++ library and headers)"
_INCLUDE_DIRS = ("/usr/include", "/usr/local/include", str(Path(sys.prefix) / "include"))


def _simgrid() -> tuple[str, str]:
    """``(library, include directory)`` of the installed SimGrid; MissingExtra naming the install line if absent."""
    require_extra("simulate", "starlib.netsim.simgrid")  # cppyy
    library = ctypes.util.find_library("simgrid")
    include = next((d for d in _INCLUDE_DIRS if (Path(d) / "simgrid" / "s4u.hpp").is_file()), None)
    if library is None or include is None:
        raise MissingExtra(f"starlib.netsim.simgrid needs SimGrid's C++ library and headers: {INSTALL}")
    return library, include


def simgrid_version() -> str:
    """The installed SimGrid's name and version, e.g. ``'SimGrid 3.32'`` (from its ``simgrid/version.h``).

    Raises
    ------
    MissingExtra
        If SimGrid's library or headers are not installed (the message names the package).

    Example
    -------
    >>> simgrid_version().startswith("SimGrid 3.")
    True
    """
    _, include = _simgrid()
    text = (Path(include) / "simgrid" / "version.h").read_text()
    major, minor, patch = (int(re.search(rf"#define SIMGRID_VERSION_{k}\s+(\d+)", text).group(1))
                           for k in ("MAJOR", "MINOR", "PATCH"))
    return f"SimGrid {major}.{minor}" + (f".{patch}" if patch else "")


def routes(schedule: Schedule) -> dict[str, np.ndarray | int]:
    """The SimGrid platform's hosts and routes for a schedule's message paths.

    Parameters
    ----------
    schedule : Schedule
        The schedule.

    Returns
    -------
    dict
        ``hosts`` (nodes plus extra source hosts), ``route`` (the route of each message), and per route
        ``route_src``, ``route_dst`` (hosts) and CSR ``route_ptr``, ``route_link`` (link index of each hop),
        ``route_up`` (1 where the hop goes from ``links[i, 0]`` to ``links[i, 1]``). Messages with the same path share
        a route; a second path between the same two nodes starts at an extra host of its source node (node
        ``v``'s extras are numbered from ``nodes`` on), and so does a path that returns to its source.

    Example
    -------
    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> b = ScheduleBuilder(3, np.array([[0, 1], [1, 2], [0, 2]]), [1.0], chunk_bytes=[8])
    >>> for p in ([0, 2], [0, 1, 2], [0, 2], [2, 1]):
    ...     _ = b.add(p, [0])
    >>> r = routes(b.build("x", size=8))
    >>> r["hosts"], r["route"].tolist(), r["route_src"].tolist(), r["route_link"].tolist(), r["route_up"].tolist()
    (4, [0, 1, 0, 2], [0, 3, 2], [2, 0, 1, 1], [1, 1, 1, 0])
    """
    s = schedule
    n = s.nodes
    M = s.messages
    paths = np.split(s.path_nodes, s.path_ptr[1:-1]) if M else []
    index: dict[tuple[int, ...], int] = {}
    per_pair: dict[tuple[int, int], int] = {}
    extras: dict[int, list[int]] = {}
    route = np.empty(M, dtype=np.int64)
    src: list[int] = []
    dst: list[int] = []
    chosen: list[np.ndarray] = []
    hosts = n
    for m, p in enumerate(paths):
        key = tuple(p.tolist())
        r = index.get(key)
        if r is None:
            u, v = key[0], key[-1]
            k = per_pair.get((u, v), 0) + (u == v)  # 0: the node's own host; k >= 1: its k-th extra host
            per_pair[(u, v)] = per_pair.get((u, v), 0) + 1
            pool = extras.setdefault(u, [])
            while len(pool) < k:
                pool.append(hosts)
                hosts += 1
            r = index[key] = len(src)
            src.append(u if k == 0 else pool[k - 1])
            dst.append(v)
            chosen.append(p)
        route[m] = r
    nodes = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
    ptr = np.zeros(len(chosen) + 1, dtype=np.int64)
    ptr[1:] = np.cumsum([c.shape[0] - 1 for c in chosen], dtype=np.int64)
    ends = np.cumsum([c.shape[0] for c in chosen], dtype=np.int64)
    a = np.delete(nodes, ends - 1)  # every node but the last of each path
    b = np.delete(nodes, np.concatenate([[0], ends[:-1]]).astype(np.int64) if chosen else [])
    key = np.minimum(s.links[:, 0], s.links[:, 1]) * n + np.maximum(s.links[:, 0], s.links[:, 1])
    order = np.argsort(key, kind="stable")
    link = order[np.searchsorted(key[order], np.minimum(a, b) * n + np.maximum(a, b))]
    return {"hosts": hosts, "route": route, "route_src": np.asarray(src, dtype=np.int64),
            "route_dst": np.asarray(dst, dtype=np.int64), "route_ptr": ptr, "route_link": link.astype(np.int64),
            "route_up": (s.links[link, 0] == a).astype(np.int64)}


@dataclass(frozen=True)
class SimGridRun:
    """One SimGrid run: its result and what it cost (in the child process that ran SimGrid)."""

    result: SimResult
    transfers: int  # SimGrid communications (packets / batch, roughly)
    batch: int  # the largest batch of any message
    chain: int  # packets on the schedule's longest dependency chain
    compile_seconds: float  # loading SimGrid and compiling the engine
    run_seconds: float  # building the platform and simulating
    peak_rss_bytes: int  # the child process's peak resident memory


def run_schedule(schedule: Schedule, *, check: bool = True, batch: int | None = None) -> SimGridRun:
    """Run a schedule on SimGrid (module docstring) and report the result and the cost.

    Parameters
    ----------
    schedule : Schedule
        The collective.
    check : bool
        Check that every packet of every final range arrives with all ``R`` contributions.
    batch : int, optional
        Most packets one SimGrid communication carries (1: every packet on its own); ``None`` (default): the rule of
        the module docstring, ``1 + floor(P_m / (100 (L - 1)))`` for a message of ``P_m`` packets and a longest
        dependency chain of ``L`` packets (at most 1 % of a stream added to a pipeline's fill).

    Returns
    -------
    SimGridRun
        ``result`` (:class:`~starlib.netsim.ns3.SimResult`: the last arrival in ns, packet transmissions
        counted once per packet per link, messages), SimGrid communications, the largest batch, the longest
        dependency chain, seconds and peak memory.

    Raises
    ------
    ValueError
        If ``schedule`` is not a Schedule or ``batch`` is neither None nor an integer >= 1, if the run stalls (a packet
        never arrives), or, with ``check``, if a final packet carries a count other than ``R``.
    MissingExtra
        If SimGrid (``libsimgrid-dev``) or cppyy is not installed.
    RuntimeError
        If the SimGrid process fails (its error output is in the message).

    Example
    -------
    Two one-packet messages from 0 share the link 0-1 and each gets half its rate: 2 x 80 ns + 1000 ns.

    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> b = ScheduleBuilder(2, np.array([[0, 1]]), [100.0], [1.0], chunk_bytes=[1000])
    >>> _ = b.add([0, 1], [0]), b.add([0, 1], [0])
    >>> r = run_schedule(b.build("two", size=1000), check=False)
    >>> r.result.time_ns, r.result.hops, r.transfers, r.batch, r.chain
    (1160, 2, 2, 1, 1)
    """
    if not isinstance(schedule, Schedule):
        raise ValueError(f"schedule: {type(schedule).__name__} given, a starlib.allreduce.schedule.Schedule needed")
    batch = 0 if batch is None else check_int(batch, "batch", minimum=1)
    library, include = _simgrid()
    s = schedule
    r = routes(s)
    arrays = {"route": r["route"], "packets": s.packets.astype(np.int64), "base": s.chunk_ptr,
              "bytes": s.packet_bytes.astype(np.int64), "dep_ptr": s.dep_ptr, "dep_msg": s.dep_msg,
              "dep_off": s.dep_off, "own_lo": s.own_lo, "own_hi": s.own_hi, "fin_msg": s.final_msg,
              "fin_lo": s.final_lo, "fin_hi": s.final_hi, "rate": s.rate_gbps * (1e9 / 8),
              "delay": s.delay_us * 1e-6, "pace": s.pace_gbps * (1e9 / 8),
              **{k: v for k, v in r.items() if k.startswith("route_")}}
    setup = {"library": library, "include": include, "config": list(CONFIG), "batch": batch,
             "error": [BATCH_ERROR.numerator, BATCH_ERROR.denominator], "hosts": r["hosts"],
             "ranks": int(s.ranks.shape[0]), "messages": s.messages, "links": int(s.links.shape[0]),
             "routes": int(r["route_src"].shape[0]), "finals": int(s.final_msg.shape[0])}
    with tempfile.TemporaryDirectory(prefix="starlib-simgrid-") as tmp:
        np.savez(Path(tmp) / simgrid_engine.INPUT, setup=np.array(json.dumps(setup)),
                 **{k: np.ascontiguousarray(v, dtype=np.float64 if k in ("rate", "delay", "pace") else np.int64)
                    for k, v in arrays.items()})
        done = subprocess.run([sys.executable, simgrid_engine.__file__, tmp], capture_output=True, text=True,
                              check=False)
        out_file = Path(tmp) / simgrid_engine.OUTPUT
        if done.returncode != 0 or not out_file.is_file():
            tail = "\n".join(done.stderr.strip().splitlines()[-20:])
            raise RuntimeError(f"SimGrid process failed (exit status {done.returncode}):\n{tail}")
        out = json.loads(out_file.read_text())
    if out["stalled"] < 0 and done.stderr.strip():  # a stall ends in SimGrid's report of a deadlock: not news
        print(done.stderr.rstrip(), file=sys.stderr)
    if out["stalled"] >= 0:
        m = out["stalled"]
        raise ValueError(f"messages[{m}]: {out['arrived']} of {int(s.packets[m])} packets arrived (the schedule "
                         "stalls)")
    if check and out["bad"] >= 0:
        raise ValueError(f"messages[{out['bad']}]: packet {out['bad_packet']} delivers the sum of {out['bad_count']} "
                         f"contributions, not of all {int(s.ranks.shape[0])} ranks")
    result = SimResult(round(out["time_s"] * 1e9), out["hops"], s.messages)
    return SimGridRun(result, out["transfers"], out["max_batch"], out["chain"], out["compile_s"], out["run_s"],
                      out["peak_rss_bytes"])


def simulate_schedule(schedule: Schedule, *, check: bool = True, batch: int | None = None) -> SimResult:
    """Simulated time of a schedule on SimGrid's flow-level network (module docstring).

    Parameters
    ----------
    schedule : Schedule
        The collective (its network, rates, delays and messages).
    check : bool
        Check that every packet of every final range arrives with all ``R`` contributions.
    batch : int, optional
        Most packets one SimGrid communication carries (1: every packet on its own; more: faster, coarser: a
        batch arrives whole, so each hop of a pipeline holds up to ``batch`` packets); ``None`` (default): per
        message, the rule of the module docstring (a pipeline's fill at most 1 % of a stream longer).

    Returns
    -------
    SimResult
        Completion time (ns, the last packet's arrival), packet transmissions (one per packet per link), messages.

    Raises
    ------
    ValueError
        On a run that stalls or, with ``check``, a final packet without all ``R`` contributions; on bad arguments.
    MissingExtra
        If SimGrid or cppyy is not installed (one line naming what to install).

    Example
    -------
    A two-hop message of one 1000-byte packet over a 100 Gb/s and a 50 Gb/s link (1 us each): the bytes move at the
    bottleneck's 50 Gb/s (160 ns) and arrive both delays later.

    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [100.0, 50.0], [1.0], chunk_bytes=[1000])
    >>> _ = b.add([0, 1, 2], [0], own=True)
    >>> simulate_schedule(b.build("hop", size=1000), check=False)
    SimResult(time_ns=2160, hops=2, messages=1)

    References
    ----------
    Casanova et al., JPDC 74(10), 2014 (SimGrid); Casanova and Marchal, LIP RR 2002-40 (CM02).
    """
    return run_schedule(schedule, check=check, batch=batch).result
