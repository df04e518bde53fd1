"""One simulated allreduce, with the optimum and the proved bound beside it: what ``starlib simulate`` prints and
each row of ``data/schedules.csv`` holds.

:data:`SIMULATORS` declares the two simulators (ns-3, packet by packet: :mod:`starlib.netsim.ns3`; SimGrid, flow
level: :mod:`starlib.netsim.simgrid`), each with its version and its run. :func:`schedule_trees` gives a schedule
the trees it needs (the shallow maximum family for ``trees``, the weighted family for ``weighted-trees``), and
:func:`run_case` builds the schedule (:func:`starlib.allreduce.schedules.build_schedule`), runs it and returns one
row:

* ``time_us``: the simulated completion time (the last packet's arrival);
* ``optimum_us``: ForestColl's optimal reduce-scatter + allgather time on the same network, its ranks the compute
  nodes (:func:`starlib.allreduce.optimum.forestcoll_time_us`, bandwidth only);
* ``bound_us``: the proved lower bound for any allreduce (docs/collectives.md): the largest of the router graph's
  strength bound ``M / (b sigma)`` (the partition of the routers, each router with its hosts), a host link's
  ``M / b_host`` (a host must receive the whole result over its one link; with hosts only) and the latency of the
  longest shortest path between ranks.

Example
-------
>>> sorted(SIMULATORS)
['ns3', 'simgrid']
>>> reference(_cycle(4), 0).bound_us(10**6)   # C_4: strength 4/3, M / (12,500 B/us * 4/3)
60.0
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from typing import Any

import numpy as np

from ..graphs import ArrayGraph, GraphLike, as_graph
from ..validation import check_choice

__all__ = ["Simulator", "SIMULATORS", "schedule_trees", "Reference", "reference", "run_case", "CASE_COLUMNS"]


@dataclass(frozen=True)
class Simulator:
    """A simulator of :class:`~starlib.allreduce.schedule.Schedule` s: its module runs ``simulate_schedule``.

    Attributes
    ----------
    name : the name ``--simulator`` takes.
    summary : one line for the help.
    module : the module with ``simulate_schedule(schedule) -> SimResult``.
    version_function : the module's function that names the simulator and its version.
    """

    name: str
    summary: str
    module: str
    version_function: str

    def run(self, schedule: Any) -> Any:
        """Simulate ``schedule``; the :class:`~starlib.netsim.ns3.SimResult`."""
        return importlib.import_module(self.module).simulate_schedule(schedule)

    def version(self) -> str:
        """e.g. ``'ns-3 3.44'`` or ``'SimGrid 3.32'``."""
        return str(getattr(importlib.import_module(self.module), self.version_function)())


#: The simulators, each declared once.
SIMULATORS: dict[str, Simulator] = {s.name: s for s in (
    Simulator("ns3", "ns-3, packet by packet: store and forward on point-to-point links with first-in first-out "
              "queues (the reference)", "starlib.netsim.ns3", "simulator_version"),
    Simulator("simgrid", "SimGrid, flow level: each link's rate shared max-min among the flows that cross it "
              "(CM02)", "starlib.netsim.simgrid", "simgrid_version"),
)}

#: The columns of a case, in order (:func:`run_case`).
CASE_COLUMNS = ("network", "params", "routers", "links", "hosts_per_router", "mode", "ranks", "schedule",
                "simulator", "size_bytes", "link_gbps", "packet_bytes", "time_us", "optimum_us", "bound_us",
                "time_over_optimum", "time_over_bound", "trees", "weight", "max_depth", "rings", "messages",
                "packet_hops", "simulator_version")


def _cycle(n: int) -> ArrayGraph:
    return ArrayGraph.from_edges(range(n), np.array([[i, (i + 1) % n] for i in range(n)]))


def schedule_trees(graph: GraphLike, schedule: str, trees: Any = None, *, method: str = "shallow"
                   ) -> tuple[Any, Any, int, Fraction | None]:
    """The trees (and weights) a schedule runs on: ``(trees, weights, max depth, total weight)``.

    ``trees``: the given trees, else ``starlib.edsts(graph, method)`` (the shallow maximum family by default);
    ``weighted-trees``: :func:`~starlib.edst.depth.weighted_trees` warm-started from that family (its weights
    ``1/r``); ``bfs`` and the others: none (``(None, None, 0, None)``; ``bfs`` builds its tree itself).

    Example
    -------
    >>> T, w, depth, total = schedule_trees(_cycle(5), "weighted-trees")
    >>> len(T), total, depth   # C_5: strength 5/4, r = 4 gives 5 paths of weight 1/4
    (5, Fraction(5, 4), 2)
    """
    from ..allreduce.schedules import SCHEDULES

    schedule = check_choice(schedule, "schedule", tuple(SCHEDULES))
    g = as_graph(graph, "graph")
    if not SCHEDULES[schedule].needs_trees:
        if trees is not None:
            raise ValueError(f"--trees: the {schedule!r} schedule takes no trees")
        return None, None, 0, None
    if trees is None:
        from ..edst import edsts

        trees = edsts(g, method=method)
    if schedule == "trees":
        depth = max(int(t.depth) for t in trees) if hasattr(trees[0], "depth") else 0
        return trees, None, depth, Fraction(len(trees))
    from ..edst.depth import weighted_trees

    fam = weighted_trees(g, start=trees)
    return fam.trees, [float(w) for w in fam.weights], max(fam.depths()), fam.total


def _capacities(rates: np.ndarray) -> tuple[np.ndarray, float]:
    """Integer capacities proportional to ``rates`` (Gb/s, to the Mb/s) and the rate of one unit."""
    mbps = np.rint(np.asarray(rates, dtype=np.float64) * 1000).astype(np.int64)
    if (mbps < 1).any():
        raise ValueError("link_gbps, host_gbps: rates of at least 0.001 Gb/s")
    g = 0
    for x in np.unique(mbps).tolist():
        g = gcd(g, int(x))
    return mbps // g, g / 1000.0


@dataclass(frozen=True)
class Reference:
    """What every time of a network is compared with, computed once per network and endpoint count.

    Attributes
    ----------
    rho : ForestColl's cut ratio of the network with its hosts, the ranks its compute nodes, in units of
        ``unit_gbps`` (:func:`starlib.allreduce.optimum.cut_ratio`).
    ranks : the number of ranks ``N``.
    unit_gbps : the rate of one capacity unit.
    sigma : the strength of the router graph (:func:`starlib.allreduce.optimum.strength`).
    link_gbps, host_gbps : the rates of a router link and (with hosts) a host link.
    latency_us : the latency of the longest shortest path between two ranks (links' delays).
    hosts : whether the ranks are hosts.
    """

    rho: Fraction
    ranks: int
    unit_gbps: float
    sigma: Fraction
    link_gbps: float
    host_gbps: float
    latency_us: Fraction
    hosts: bool

    def optimum_us(self, size: int) -> float:
        """ForestColl's optimal reduce-scatter + allgather of ``size`` bytes: ``2 (M/N) rho / b`` (µs, to the ns)."""
        return round(float(2 * Fraction(size) / self.ranks * self.rho / (Fraction(self.unit_gbps) * 125)), 3)

    def bound_us(self, size: int) -> float:
        """The proved lower bound for any allreduce of ``size`` bytes (µs, to the ns): the largest of the router
        graph's strength bound ``M / (b sigma)`` (every part of a partition of the routers, each router with its
        hosts, holds a rank: docs/collectives.md), with hosts ``M / b_host`` (the partition {one host} and the
        rest: a host receives the whole result over its one link) and the latency between the farthest ranks."""
        M = Fraction(size)
        terms = [M / (Fraction(self.link_gbps) * 125 * self.sigma), self.latency_us]
        if self.hosts:
            terms.append(M / (Fraction(self.host_gbps) * 125))
        return round(float(max(terms)), 3)


def reference(graph: GraphLike, hosts_per_router: int, link_gbps: float = 100.0, delay_us: float = 1.0,
              host_gbps: float | None = None, host_delay_us: float | None = None) -> Reference:
    """The optimum and the bound of a network of routers ``graph`` with ``hosts_per_router`` hosts each.

    The compute nodes of ForestColl's optimum are the ranks (the hosts; the routers when ``hosts_per_router =
    0``), which forward through the routers.

    Example
    -------
    >>> ref = reference(_cycle(4), 0)
    >>> ref.rho, ref.sigma, ref.optimum_us(10**6), ref.bound_us(10**6)   # C_4: 2 (M/4) (3/2) / b; M / (b 4/3)
    (Fraction(3, 2), Fraction(4, 3), 60.0, 60.0)
    >>> reference(_cycle(4), 1, host_gbps=50.0).bound_us(10**6)   # a host link: 10^6 / 6,250 B/us
    160.0
    """
    from ..allreduce.optimum import cut_ratio, strength
    from ..allreduce.schedules import with_hosts

    g = as_graph(graph, "graph")
    net = with_hosts(g, hosts_per_router, link_gbps=link_gbps, delay_us=delay_us, host_gbps=host_gbps,
                     host_delay_us=host_delay_us)
    cap, unit = _capacities(net.rate_gbps)
    compute = np.zeros(net.nodes, dtype=bool)
    compute[net.ranks] = True
    rho = cut_ratio(ArrayGraph(list(range(net.nodes)), net.links), cap, compute).value
    hosts = net.hosts_per_router > 0
    latency = int(g.diameter()) * Fraction(delay_us)
    if hosts:
        latency += 2 * Fraction(float(net.delay_us[-1]))
    return Reference(rho, int(net.ranks.shape[0]), unit, strength(g).value, float(link_gbps),
                     float(net.rate_gbps[-1]), latency, hosts)


def case_schedule(g: Any, schedule: str, size: int, *, trees: Any = None, method: str = "shallow",
                  **options: Any) -> tuple[Any, int, Any]:
    """The schedule :func:`run_case` simulates, with the depth and total weight its row reports (nothing simulated).

    ``g`` is a checked :class:`~starlib.graphs.ArrayGraph`; ``trees`` and ``method`` as :func:`run_case`, ``options``
    the keywords of :func:`~starlib.allreduce.schedules.build_schedule`.
    """
    from ..allreduce.schedules import build_schedule

    T, weights, depth, total = schedule_trees(g, schedule, trees, method=method)
    s = build_schedule(g, schedule, size, trees=T, weights=weights, **options)
    if schedule == "bfs":
        depth = int(g.eccentricities()[0])
    return s, depth, total


def run_case(graph: GraphLike, schedule: str, size: int, *, simulator: str = "ns3", trees: Any = None,
             method: str = "shallow", hosts_per_router: int = 0, mode: str = "in-network", link_gbps: float = 100.0,
             delay_us: float = 1.0, host_gbps: float | None = None, host_delay_us: float | None = None,
             packet_bytes: int = 8192, seed: int = 0, network: str = "", params: str = "",
             ref: Reference | None = None) -> dict[str, Any]:
    """Simulate one allreduce schedule on a network and return its row (:data:`CASE_COLUMNS`).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The routers and their links.
    schedule : str
        A key of :data:`starlib.allreduce.schedules.SCHEDULES`.
    size : int
        Bytes of every rank's buffer.
    simulator : str
        A key of :data:`SIMULATORS`.
    trees : EDSTSet, optional
        ``trees`` and ``weighted-trees``: the trees to start from (default ``starlib.edsts(graph, method)``).
    method : str
        The EDST method when no trees are given.
    hosts_per_router, mode, link_gbps, delay_us, host_gbps, host_delay_us, packet_bytes, seed
        As :func:`~starlib.allreduce.schedules.build_schedule` (``hosts_per_router = 0``: the routers are the ranks).
    network, params : str
        What the row names the network (a family and its parameters, or a file).
    ref : Reference, optional
        The network's optimum and bound, if computed already (:func:`reference`).

    Returns
    -------
    dict
        The row: times in microseconds rounded to the nanosecond, ratios to 4 decimals.

    Raises
    ------
    ValueError
        Naming the parameter (unknown schedule or simulator, bad sizes or rates, no Hamiltonian cycle found, a
        schedule that is refused by the memory limit).
    """
    simulator = check_choice(simulator, "simulator", tuple(SIMULATORS))
    sim = SIMULATORS[simulator]
    g = as_graph(graph, "graph")
    s, depth, total = case_schedule(g, schedule, size, trees=trees, method=method, hosts_per_router=hosts_per_router,
                                    mode=mode, link_gbps=link_gbps, delay_us=delay_us, host_gbps=host_gbps,
                                    host_delay_us=host_delay_us, packet_bytes=packet_bytes, seed=seed)
    res = sim.run(s)
    t = res.time_ns / 1000.0
    ref = ref or reference(g, hosts_per_router, link_gbps, delay_us, host_gbps, host_delay_us)
    opt, low = ref.optimum_us(size), ref.bound_us(size)
    return {"network": network, "params": params, "routers": int(g.n), "links": int(g.m),
            "hosts_per_router": int(s.meta["hosts_per_router"]), "mode": s.meta["mode"],
            "ranks": int(s.ranks.shape[0]), "schedule": schedule, "simulator": simulator, "size_bytes": int(size),
            "link_gbps": float(link_gbps), "packet_bytes": int(packet_bytes), "time_us": round(t, 3),
            "optimum_us": opt, "bound_us": low,
            "time_over_optimum": round(t / opt, 4), "time_over_bound": round(t / low, 4),
            "trees": int(s.meta.get("trees", 0)), "weight": "" if total is None else str(total),
            "max_depth": depth, "rings": int(s.meta.get("rings", 0)), "messages": int(s.messages),
            "packet_hops": int(res.hops), "simulator_version": sim.version()}
