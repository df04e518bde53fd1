"""The grid of ``make schedules``: every allreduce schedule on the networks of notebook 14 at equal router radix and
on a network of 1,000 routers, on both simulators, into the resumable record ``data/schedules.csv``.

Networks (:data:`NETWORKS`): the designs of notebook 14 at the router radix budget ``R = 16``
(:mod:`starlib.paper.peers`: Slim Fly MMS(7), PolarFly ER_9, Bundlefly MMS(5) * QR(9), PolarStar ER_8 * IQ(3),
Dragonfly a = 8, fat tree k = 8, HyperX 5 x 5 x 5), each with its designers' endpoints per router, and PolarFly
ER_32 (1,057 routers, the PolarFly of radix 49). Links of 100 Gb/s each way and 1 us, packets of 8 KiB (larger from
64 MiB on: :func:`packet_bytes_for`).

Cases (:func:`cases`): every schedule of :data:`starlib.allreduce.schedules.SCHEDULES` with the routers as the
ranks (``hosts_per_router = 0``), at the sizes :func:`sizes_for` gives (1, 16 and 256 KiB, 1, 4 and 16 MiB, and
64 and 256 MiB, on networks of at most :data:`LARGE_ROUTERS` routers; :data:`MID_SIZES` up to 1,000 routers;
:data:`BIG_SIZES` beyond), the contended ``ring-sp`` only up to :data:`LARGE_ROUTERS` routers (it is there to
show what notebook 15's ring was); with the designers' endpoints, the schedules of :data:`HOST_SCHEDULES` at
:data:`HOST_SIZES`, in-network (the hosts reduce into their router) on every network of fewer than 1,000 routers
but the fat tree (whose endpoints hang from its leaves only), and on the hosts (every host a rank) on the networks
of at most :data:`LARGE_ROUTERS` routers (250 to 490 ranks; a host-based ring over the 2,336 hosts of PolarStar
would be 22 million packets); at 1,000 routers, the schedules whose packets stay within :data:`MAX_PACKETS`
(``multiring`` is 32 rings of 1,057 ranks x 2,112 steps, 71 million packets whatever the size); the rings only
where the buffer has a byte for each of their blocks (:func:`_ring_blocks`: ``ring`` at 1 KiB on PolarStar's 584
routers, ``multiring`` at 1 KiB on HyperX, left out). Each case runs on both simulators.

:func:`points` gives the cases as sweep points (:class:`starlib.sweep.engine.Point`) for ``starlib sweep
schedules``: Dask tasks on a local cluster or the scheduler at ``--scheduler``, each row written as it arrives, a
rerun resuming from the record.

Example
-------
>>> [n.label for n in NETWORKS][:3]
['slimfly q=7', 'polarfly q=9', 'bundlefly q=5 paley_q=9']
>>> len(cases()) > 500
True
>>> sizes_for(91)[-1] == 256 << 20
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..validation import check_choice
from .cases import CASE_COLUMNS, SIMULATORS, Reference, reference, run_case

__all__ = ["GridNetwork", "NETWORKS", "SIZES", "LARGE_SIZES", "LARGE_ROUTERS", "MID_SIZES", "BIG_SIZES",
           "sizes_for", "packet_bytes_for", "HOST_SCHEDULES", "HOST_SIZES", "MAX_PACKETS", "COLUMNS", "KEY",
           "cases", "points", "grid_point", "check_row", "network_graph", "has_hamiltonian_cycle", "recheck"]

#: radix budget of notebook 14 the networks are designed for
RADIX = 16
#: the radix budget of the network of more than 1,000 routers (PolarFly ER_32: 1,057 routers)
LARGE_RADIX = 49
SIZES = (1 << 10, 16 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20)  # 1 KiB .. 16 MiB
LARGE_SIZES = (64 << 20, 256 << 20)
#: networks with at most this many routers run every size, 1 KiB .. 256 MiB, and the contended ring
LARGE_ROUTERS = 128
#: the sizes of the networks of 128 to 1,000 routers, and of the 1,000-router network
MID_SIZES = (1 << 10, 64 << 10, 1 << 20, 16 << 20)
BIG_SIZES = (1 << 10, 1 << 20, 16 << 20)
HOST_SCHEDULES = ("trees", "ring", "dbtree", "halving-doubling", "bfs")
HOST_SIZES = (16 << 20,)
#: the largest schedule (packets) a 1,000-router case runs
MAX_PACKETS = 20_000_000
LINK_GBPS = 100.0
DELAY_US = 1.0
#: packets of 8 KiB, or for the large sizes ``size / PACKETS_PER_BUFFER`` bytes, at most 65,535 (one ns-3 frame)
PACKET_BYTES = 8192
PACKETS_PER_BUFFER = 4096
MAX_PACKET_BYTES = 65535


def packet_bytes_for(size: int) -> int:
    """The packet size of a case of ``size`` bytes: 8 KiB up to 32 MiB, then ``size / 4096`` up to 65,535 bytes.

    The cost of a simulation is its packets; from 64 MiB on, a buffer is cut into 4,096 packets (16 KiB at 64 MiB,
    65,535 bytes at 256 MiB), so a tree's share is still hundreds of packets and its pipeline fills in a few.

    Example
    -------
    >>> [packet_bytes_for(s) for s in (1024, 16 << 20, 64 << 20, 256 << 20)]
    [8192, 8192, 16384, 65535]
    """
    return min(MAX_PACKET_BYTES, max(PACKET_BYTES, size // PACKETS_PER_BUFFER))


KEY = ("network", "params", "hosts_per_router", "mode", "schedule", "simulator", "size_bytes")
COLUMNS = CASE_COLUMNS


@dataclass(frozen=True)
class GridNetwork:
    """A network of the grid: its family, parameters, designers' endpoints per router (0: none) and radix budget."""

    family: str
    params: tuple[tuple[str, Any], ...]
    endpoints: int
    radix: int

    @property
    def label(self) -> str:
        """``family k=v ...``, as the record names it."""
        return f"{self.family} {params_label(self.params)}"

    @property
    def param_text(self) -> str:
        """The parameters as the record's ``params`` cell."""
        return params_label(self.params)


def _designs() -> list[GridNetwork]:
    from .. import designs

    out = []
    for design in (designs.slimfly_design, designs.polarfly_design, designs.bundlefly_design,
                   designs.polarstar_design, designs.dragonfly_design, designs.fat_tree_design, designs.hyperx_design):
        d = design(RADIX)
        p = 0 if d.network == "fat-tree" else int(d.p)  # a fat tree's endpoints hang from its leaves only
        out.append(GridNetwork(d.network, tuple(d.params.items()), p, RADIX))
    big = designs.polarfly_design(LARGE_RADIX)  # ER_32: 1,057 routers
    out.append(GridNetwork(big.network, tuple(big.params.items()), 0, LARGE_RADIX))
    return out


#: the networks of the grid, in order
NETWORKS: tuple[GridNetwork, ...] = tuple(_designs())


@lru_cache(maxsize=4)
def network_graph(family: str, params: tuple[tuple[str, Any], ...]) -> Any:
    """The network (built once per process)."""
    from ..api import network

    return network(family, **dict(params))


@lru_cache(maxsize=4)
def _trees(family: str, params: tuple[tuple[str, Any], ...]) -> Any:
    """The shallow maximum family of a network (once per process)."""
    from ..api import edsts

    return edsts(network_graph(family, params), method="shallow")


@lru_cache(maxsize=16)
def _reference(family: str, params: tuple[tuple[str, Any], ...], hosts_per_router: int) -> Reference:
    """The network's optimum and bound (once per process and endpoint count)."""
    return reference(network_graph(family, params), hosts_per_router, LINK_GBPS, DELAY_US)


@lru_cache(maxsize=16)
def has_hamiltonian_cycle(family: str, params: tuple[tuple[str, Any], ...]) -> bool:
    """Whether the ring schedules can run: a Hamiltonian cycle found (the fat tree, bipartite with parts of 128
    and 64 switches, has none)."""
    from ..allreduce.hamiltonian import hamiltonian_cycle

    return hamiltonian_cycle(network_graph(family, params)) is not None


def _packets(routers: int, schedule: str, size: int) -> int:
    """A rough count of a schedule's packets (for the 1,000-router cut): the ring family's blocks, one packet at
    least per ring, rank and step; the others about ``4 N size / packet``."""
    per = -(-size // packet_bytes_for(size))
    if schedule == "multiring":
        return 30 * routers * 2 * (routers - 1)
    if schedule in ("ring", "ring-sp"):
        return 2 * routers * 2 * (routers - 1) * max(1, -(-size // (2 * routers * packet_bytes_for(size))))
    return 4 * routers * per


def _ring_blocks(graph: Any, schedule: str) -> int:
    """The most blocks a ring schedule may cut the buffer into (a byte each at least): ``2 N`` for the ring (both
    directions), ``2 N floor(delta / 2)`` for the multiring (at most ``floor(delta / 2)`` edge-disjoint Hamiltonian
    cycles); 0 for the other schedules. A case smaller than that is left out of the grid."""
    if schedule == "ring":
        return 2 * graph.n
    if schedule == "multiring":
        return 2 * graph.n * (int(graph.degrees().min()) // 2)
    return 0


def sizes_for(routers: int) -> tuple[int, ...]:
    """The message sizes a network of ``routers`` routers runs (module docstring).

    Example
    -------
    >>> [len(sizes_for(n)) for n in (91, 450, 1057)]
    [8, 4, 3]
    """
    if routers <= LARGE_ROUTERS:
        return SIZES + LARGE_SIZES
    if routers < 1000:
        return MID_SIZES
    return BIG_SIZES


def cases() -> list[dict[str, Any]]:
    """Every case of the grid (module docstring), as keyword dictionaries of :func:`grid_point`."""
    from ..allreduce.schedules import SCHEDULES

    out = []
    for net in NETWORKS:
        g = network_graph(net.family, net.params)
        runs = [(0, "in-network", name, size) for name in SCHEDULES for size in sizes_for(g.n)
                if name != "ring-sp" or g.n <= LARGE_ROUTERS]
        if net.endpoints and g.n < 1000:
            modes = ("in-network", "host") if g.n <= LARGE_ROUTERS else ("in-network",)
            runs += [(net.endpoints, mode, name, size) for mode in modes for name in HOST_SCHEDULES
                     for size in HOST_SIZES]
        for P, mode, name, size in runs:
            if g.n >= 1000 and _packets(g.n, name, size) > MAX_PACKETS:
                continue
            if name in ("ring", "multiring") and not has_hamiltonian_cycle(net.family, net.params):
                continue
            if size < _ring_blocks(g, name) * (P if mode == "host" else 1):
                continue
            for sim in SIMULATORS:
                out.append({"family": net.family, "params": net.params, "hosts_per_router": P, "mode": mode,
                            "schedule": name, "simulator": sim, "size": size})
    return out


def grid_point(family: str, params: tuple[tuple[str, Any], ...], hosts_per_router: int, mode: str, schedule: str,
               simulator: str, size: int) -> dict[str, Any]:
    """One row of the record: :func:`starlib.netsim.cases.run_case` on the grid's network and links."""
    g, trees, options = _grid_case(family, params, hosts_per_router, mode, schedule, size)
    return run_case(g, schedule, size, simulator=simulator, trees=trees, **options, network=family,
                    params=params_label(params),
                    ref=_reference(family, params, hosts_per_router))


def grid_schedule(family: str, params: tuple[tuple[str, Any], ...], hosts_per_router: int, mode: str, schedule: str,
                  size: int) -> Any:
    """The schedule a row of the record simulates (built, not simulated): what :func:`grid_point` runs."""
    from .cases import case_schedule

    g, trees, options = _grid_case(family, params, hosts_per_router, mode, schedule, size)
    return case_schedule(g, schedule, size, trees=trees, **options)[0]


def _grid_case(family: str, params: tuple[tuple[str, Any], ...], hosts_per_router: int, mode: str, schedule: str,
               size: int) -> tuple[Any, Any, dict[str, Any]]:
    """The grid's network, its trees where the schedule needs them, and the schedule's options at ``size``."""
    from ..allreduce.schedules import SCHEDULES

    g = network_graph(family, params)
    trees = _trees(family, params) if SCHEDULES[schedule].needs_trees else None
    return g, trees, {"hosts_per_router": hosts_per_router, "mode": mode, "link_gbps": LINK_GBPS,
                      "delay_us": DELAY_US, "packet_bytes": packet_bytes_for(size)}


def points(selected: list[dict[str, Any]] | None = None) -> list[Any]:
    """The grid's cases as sweep points, the dearest (most routers, largest sizes) first."""
    from ..sweep.engine import Point

    out = []
    for c in selected if selected is not None else cases():
        label = params_label(c["params"])
        mode = c["mode"] if c["hosts_per_router"] else "in-network"
        key = (c["family"], label, str(c["hosts_per_router"]), mode, c["schedule"], c["simulator"], str(c["size"]))
        g = network_graph(c["family"], c["params"])
        out.append(Point(key=key, func=grid_point, args=(c["family"], c["params"], c["hosts_per_router"], mode,
                                                         c["schedule"], c["simulator"], c["size"]),
                         cost=float(g.n) * c["size"]))
    return out


def check_row(cells: Mapping[str, str]) -> dict[str, str]:
    """Validate one row of the record (the sweep's check): known schedule, simulator and mode, positive times."""
    from ..allreduce.schedules import MODES, SCHEDULES
    from ..sweep.record import CellError

    out = dict(cells)
    for col, choices in (("schedule", tuple(SCHEDULES)), ("simulator", tuple(SIMULATORS)), ("mode", MODES)):
        try:
            check_choice(cells[col], col, choices)
        except ValueError:
            raise CellError(col, cells[col], f"one of {', '.join(choices)}") from None
    for col in ("time_us", "optimum_us", "bound_us"):
        try:
            ok = float(cells[col]) > 0
        except ValueError:
            ok = False
        if not ok:
            raise CellError(col, cells[col], "a time in microseconds > 0")
    for col in ("routers", "hosts_per_router", "size_bytes", "ranks", "messages", "packet_hops"):
        if not cells[col].isdigit():
            raise CellError(col, cells[col], "an integer >= 0")
    return out


def recheck(path: Any, n: int, *, seed: int = 0, max_routers: int = 128, max_size: int = 1 << 20
            ) -> dict[tuple[str, ...], list[tuple[str, str, str]]]:
    """Recompute ``n`` rows of the record (a seeded sample of its cheap rows: at most ``max_routers`` routers and
    ``max_size`` bytes) in this process and compare every column.

    Returns
    -------
    dict
        For each sampled key, the columns that differ as ``(column, recorded, recomputed)`` (empty: reproduced).
    """
    import random

    from ..sweep.record import format_value, read_record

    held = read_record(path, columns=COLUMNS, key=KEY, check=check_row)
    cheap = sorted(k for k, row in held.items() if int(row["routers"]) <= max_routers
                   and int(row["size_bytes"]) <= max_size)
    out = {}
    for k in sorted(random.Random(seed).sample(cheap, min(n, len(cheap)))):
        family, params = k[0], parse_params(k[1])
        row = grid_point(family, params, int(k[2]), k[3], k[4], k[5], int(k[6]))
        fresh = {c: format_value(v) for c, v in row.items()}
        out[k] = [(c, held[k][c], fresh[c]) for c in COLUMNS if fresh[c] != held[k][c]]
    return out


def params_label(params: Sequence[tuple[str, Any]]) -> str:
    """The record's ``params`` cell of a grid network's parameters (:func:`parse_params` reads it back).

    >>> params_label((("q", 8), ("d", 3), ("loops", 1)))
    'q=8 d=3 loops=1'
    """
    return " ".join(f"{k}={v}" for k, v in params)


def parse_params(label: str) -> tuple[tuple[str, Any], ...]:
    """A record's ``params`` cell as the grid's functions take it (integers where they are ones).

    >>> parse_params("a=8 p=4 h=4 arrangement=absolute")
    (('a', 8), ('p', 4), ('h', 4), ('arrangement', 'absolute'))
    """
    def value(text: str) -> Any:
        return int(text) if text.lstrip("-").isdigit() else text

    return tuple((k, value(v)) for k, v in (p.split("=", 1) for p in label.split()))
