"""Any :class:`~starlib.allreduce.schedule.Schedule`, packet by packet, on the ns-3 network simulator.

The network is the schedule's: its nodes joined by full-duplex point-to-point links (ns-3's
``PointToPointNetDevice`` and ``PointToPointChannel``), each with its own rate and propagation delay: a link of rate
``r`` sends a packet of ``P`` bytes plus its 2-byte PPP header in ``8 (P + 2) / r`` and delivers it ``delay``
later; each device queues packets first-in first-out (drop-tail queues that hold every packet of the schedule,
so none is ever dropped), MTU 65,535 bytes. No IP stack: a C++ engine (:mod:`starlib.netsim.engine`, compiled at
run time by cppyy) sends packets straight to the links, forwards them hop by hop along their message's path (store
and forward), releases each packet when the packets it depends on have arrived at its source, and counts the
contributions summed into each packet, so the run also checks the schedule's result (every final packet carries
all ``R`` ranks' contributions).

A paced message (the schedule's ``pace_gbps``, :mod:`starlib.allreduce.schedule`, *Pacing*) hands its packets to
its first link in order, each ``8 b / pace`` ns after the previous one at the earliest (``b`` that one's payload
bytes), the time rounded up to the nanosecond (the exact times chain, so the rounding does not add up); the engine
waits for that time with ``Simulator::Schedule``. An unpaced message's packets go to the link when released, as
before pacing existed: an unpaced schedule runs event for event as it did.

Each packet is one chunk of the buffer (``chunk_bytes`` bytes, at most 65,535); the packet's identity travels in
an ns-3 packet tag, which adds no bytes on the wire.

Only the three ns-3 modules the engine uses (core, network, point-to-point) are loaded, with their headers: a few
seconds, against about thirty for ``from ns import ns`` (every module's headers); if the installed ns-3 does not
have the layout of the PyPI ``ns3`` wheel, the full import is used.

Measured (one core of a shared 2-core machine, CPU time): loading ns-3 and compiling the engine 3.6 s (the full
``from ns import ns``: 25 to 28 s); PolarFly q = 31 (993 routers, 15,872 links) with its 16 shallow trees, the
pipelined tree allreduce of 16 MiB with every router a rank (:func:`starlib.netsim.simulate.tree_messages`: 31,744
messages, 4,063,232 packet transmissions): network built in 1.5 s, messages loaded in 0.6 s, run in 66 s, peak
resident memory 1.1 GB for the whole process; the same trees with one host per router
(:func:`starlib.allreduce.schedules.build_schedule`, 1,986 nodes, 8,130,560 transmissions): 106 s, 1.5 GB.

Reference: G. F. Riley and T. R. Henderson, "The ns-3 Network Simulator", in *Modeling and Tools for Network
Simulation*, Springer 2010, pp. 15-34, doi:10.1007/978-3-642-12331-3_2; ns-3 3.44 from PyPI (``ns3``).

Example
-------
One 1000-byte packet over one 100 Gb/s link of 1 us: ``8 (1000 + 2) / 100`` ns of serialisation, then the delay.

>>> from starlib.allreduce.schedule import ScheduleBuilder
>>> b = ScheduleBuilder(2, np.array([[0, 1]]), 100.0, 1.0, chunk_bytes=[1000])
>>> _ = b.add([0, 1], [0], own=True)
>>> simulate_schedule(b.build("one", size=1000))
SimResult(time_ns=1080, hops=1, messages=1)

Three such packets paced at 50 Gb/s leave 160 ns apart: the last arrives at ``2 x 160 + 80 + 1000`` ns.

>>> b = ScheduleBuilder(2, np.array([[0, 1]]), 100.0, 1.0, chunk_bytes=[1000])
>>> _ = b.add([0, 1], [0, 0, 0], own=True, pace_gbps=50.0)
>>> simulate_schedule(b.build("paced", size=1000)).time_ns
1400
"""

from __future__ import annotations

import glob
import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..allreduce.schedule import Schedule, check_schedule
from ..validation import require_extra
from .engine import SOURCE

__all__ = ["SimResult", "MAX_PACKET", "simulate_schedule", "simulator_version"]

#: largest packet payload: the MTU the devices are given (the 2-byte PPP header comes on top)
MAX_PACKET = 65535
_STATE: dict[str, Any] = {}
_MODULES = ("core", "network", "point-to-point")


@dataclass(frozen=True)
class SimResult:
    """One simulated collective: completion time (ns), packet transmissions (one per packet per link), messages."""

    time_ns: int
    hops: int
    messages: int


def _load_lean(cppyy: Any) -> bool:
    """Load ns-3's core, network and point-to-point modules (headers and libraries) from the PyPI wheel's layout.

    False, with nothing loaded, if the installed ns-3 does not have that layout.
    """
    spec = importlib.util.find_spec("ns3")
    roots = list(spec.submodule_search_locations or []) if spec is not None else []
    for root in roots:
        include = os.path.join(root, "include")
        if not all(os.path.isfile(os.path.join(include, "ns3", f"{m}-module.h")) for m in _MODULES):
            continue
        for libdir in (os.path.join(root, "lib64"), os.path.join(root, "lib")):
            libs = {m: sorted(glob.glob(os.path.join(libdir, f"libns3*-{m}.so"))) for m in (*_MODULES, "stats")}
            if all(len(v) == 1 for v in libs.values()):
                cppyy.add_include_path(include)
                cppyy.add_library_path(libdir)
                for m in ("core", "stats", "network", "point-to-point"):  # dependency order
                    cppyy.load_library(libs[m][0])
                for m in _MODULES:
                    cppyy.include(f"ns3/{m}-module.h")
                return True
    return False


def _engine() -> tuple[Any, Any]:
    """``(cppyy, Engine)``: ns-3 loaded and the engine compiled, once per process."""
    if not _STATE:
        require_extra("simulate", "starlib.netsim")
        # cling reports on the C-level standard error that it could not run one static initialiser of ns-3's
        # Time class ("Failed to materialize symbols"); ns-3 works regardless (the tests time packets to the
        # nanosecond). Those lines are dropped, anything else it prints is passed on.
        sys.stderr.flush()
        with tempfile.TemporaryFile() as tmp:
            saved = os.dup(2)
            os.dup2(tmp.fileno(), 2)
            try:
                import cppyy  # noqa: PLC0415
                if not _load_lean(cppyy):
                    from ns import ns  # noqa: F401, PLC0415 (every module: tens of seconds)
                cppyy.cppdef(SOURCE)
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            tmp.seek(0)
            said = tmp.read().decode(errors="replace").splitlines()
        for line in said:
            if "Failed to materialize symbols" not in line:
                print(line, file=sys.stderr)
        _STATE.update(cppyy=cppyy, engine=cppyy.gbl.starlib_netsim.Engine)
    return _STATE["cppyy"], _STATE["engine"]


def simulator_version() -> str:
    """The simulator's name and version, e.g. ``'ns-3 3.44.post0'`` (from the installed ``ns3`` distribution).

    Example
    -------
    >>> simulator_version().startswith("ns-3 ")
    True
    """
    from importlib.metadata import version  # noqa: PLC0415
    return f"ns-3 {version('ns3')}"


def simulate_schedule(schedule: Schedule, *, check: bool = True) -> SimResult:
    """Run a schedule packet by packet on ns-3 point-to-point links; the time of its last arrival.

    Parameters
    ----------
    schedule : Schedule
        The collective (:mod:`starlib.allreduce.schedule`): its network (per-link rate and delay), messages,
        dependencies, own contributions, final ranges and pacing. Every chunk must fit one packet (at most
        :data:`MAX_PACKET` bytes).
    check : bool
        Also check the result: every packet of every final range arrives carrying the contributions of all ``R``
        ranks (``R = len(schedule.ranks)``). A run that stalls is refused either way.

    Returns
    -------
    SimResult
        ``time_ns``: when the last packet of any message arrived; ``hops``: packet transmissions (one per packet
        per link); ``messages``: the schedule's messages.

    Raises
    ------
    ValueError
        On a malformed schedule (see :func:`~starlib.allreduce.schedule.check_schedule`), a chunk larger than a
        packet, a run that stalls (packets never released: the message is named), or (``check``) a final packet
        that arrives without all ``R`` contributions.

    Example
    -------
    Two packets of 1000 bytes over the path 0 - 1 - 2 (store and forward): the first needs two links, the second
    follows one serialisation behind, ``2 (1000 + 80) + 80`` ns.

    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 100.0, 1.0, chunk_bytes=[1000, 1000], ranks=[0])
    >>> _ = b.add([0, 1, 2], [0, 1], own=True)
    >>> simulate_schedule(b.build("path", size=2000))
    SimResult(time_ns=2240, hops=4, messages=1)

    References
    ----------
    G. F. Riley and T. R. Henderson, "The ns-3 Network Simulator", in *Modeling and Tools for Network
    Simulation*, Springer 2010, pp. 15-34.
    """
    if not isinstance(schedule, Schedule):
        raise ValueError(f"schedule={type(schedule).__name__}: need a starlib.allreduce.schedule.Schedule")
    s = schedule
    check_schedule(s)
    if s.chunk_bytes.size and int(s.chunk_bytes.max()) > MAX_PACKET:
        c = int(np.argmax(s.chunk_bytes))
        raise ValueError(f"chunk_bytes[{c}]={int(s.chunk_bytes[c])}: every chunk is one packet of at most "
                         f"{MAX_PACKET} bytes (the links' MTU)")
    M = s.messages
    G = int(s.chunk_ptr[-1])
    if M >= 2 ** 32 or s.path_ptr[-1] - M >= 2 ** 32:
        raise ValueError(f"schedule: {M} messages and {int(s.path_ptr[-1] - M)} hops, the engine indexes at most "
                         f"{2 ** 32 - 1} of each")
    links = s.links.reshape(-1)
    bps = np.rint(np.asarray(s.rate_gbps, dtype=np.float64) * 1e9).astype(np.int64)
    delay_ns = np.rint(np.asarray(s.delay_us, dtype=np.float64) * 1000).astype(np.int64)
    hop_dev = s.hop_directions()  # device 2 l sends along link l's row, 2 l + 1 against it

    def arr(a: np.ndarray) -> np.ndarray:  # cppyy passes a numpy array as a pointer; an empty one is refused
        return np.ascontiguousarray(a, dtype=np.int64) if a.size else np.zeros(1, dtype=np.int64)

    cppyy, engine_cls = _engine()
    eng = engine_cls()
    counts = np.empty(G, dtype=np.int64)
    try:
        eng.Network(s.nodes, s.links.shape[0], arr(links), arr(bps), arr(delay_ns), MAX_PACKET,
                    min(max(G, 1), 2 ** 32 - 1))
        eng.Load(M, arr(s.path_ptr), arr(hop_dev), arr(s.chunk_ptr), arr(s.chunk_ids), arr(s.chunk_bytes),
                 arr(s.dep_ptr), arr(s.dep_msg), arr(s.dep_off), arr(s.own_lo), arr(s.own_hi),
                 np.ascontiguousarray(s.pace_gbps) if M else np.zeros(1))
        eng.Run()
        eng.Results(counts)
        time_ns, hops, drops = int(eng.TimeNs()), int(eng.Hops()), int(eng.Drops())
    finally:
        cppyy.gbl.ns3.Simulator.Destroy()
        del eng
    if drops:  # cannot happen with queues that hold every packet; refused rather than reported as a stall
        raise RuntimeError(f"ns-3 dropped {drops} packets (queues of {G} packets)")
    lost = counts < 0
    if lost.any():
        g = int(np.flatnonzero(lost)[0])
        m = int(np.searchsorted(s.chunk_ptr, g, side="right") - 1)
        got = int((~lost[s.chunk_ptr[m]:s.chunk_ptr[m + 1]]).sum())
        path = s.path(m)
        raise ValueError(f"messages[{m}] ({int(path[0])}->{int(path[-1])}): {got} of {int(s.packets[m])} packets "
                         f"arrived (the schedule stalled: packet {g - int(s.chunk_ptr[m])} was never released)")
    if check and s.final_msg.size:
        R = int(s.ranks.shape[0])
        length = s.final_hi - s.final_lo
        ends = np.cumsum(length)
        first = s.chunk_ptr[s.final_msg] + s.final_lo  # flat index of each final range's first packet
        idx = np.repeat(first - (ends - length), length) + np.arange(int(ends[-1]) if ends.size else 0)
        bad = np.flatnonzero(counts[idx] != R)
        if bad.size:
            i = int(bad[0])
            r = int(np.searchsorted(ends, i, side="right"))
            m = int(s.final_msg[r])
            raise ValueError(f"messages[{m}]: packet {int(idx[i] - s.chunk_ptr[m])} delivers the sum of "
                             f"{int(counts[idx[i]])} contributions, not of all n={R} ranks")
    return SimResult(time_ns, hops, M)
