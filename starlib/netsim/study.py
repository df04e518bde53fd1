"""What notebook 16 reads off the schedules record (``data/schedules.csv``, :mod:`starlib.netsim.comparison`).

Every function takes the record as a :class:`pandas.DataFrame` (:func:`read_schedules`) and returns a table: they
compare the record's simulated times with its optimum and bound columns, the schedules with one another, and the
two simulators with each other. Two add what the record does not hold: :func:`network_facts` builds each network
(its degrees and strength), and :func:`pipeline_estimate` states the closed form of a pipelined tree's time that
the trees' simulated times are checked against.

Example
-------
>>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "mode": "in-network",
...                   "ranks": 4, "simulator": "ns3", "schedule": ["trees", "ring", "trees", "ring"],
...                   "size_bytes": [1024, 1024, 4096, 4096], "time_us": [2.0, 5.0, 3.0, 2.5]})
>>> crossovers(t, "trees", ["ring"]).to_dict("records")
[{'network': 'k', 'params': 'n=4', 'routers': 4, 'versus': 'ring', 'wins_from_bytes': -1, 'wins_up_to_bytes': 1024}]
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike

import numpy as np
import pandas as pd

__all__ = ["read_schedules", "NETWORK_KEY", "SCHEDULE_ORDER", "BASELINES", "at_largest", "crossovers", "agreement",
           "ring_efficiency", "endpoints_table", "best_schedule", "coverage", "network_facts", "largest_wide",
           "crossover_table", "pipeline_estimate", "trees_against_optimum", "weighted_against_bound", "targets",
           "depth_at_small", "span"]

#: the columns that name a network in the record
NETWORK_KEY = ["network", "params", "routers"]
#: the schedules in the order the tables and the figure show them
SCHEDULE_ORDER = ("trees", "weighted-trees", "bfs", "ring", "multiring", "ring-sp", "dbtree", "halving-doubling")
#: the schedules the trees are compared with (every other schedule of the record but the weighted family)
BASELINES = ("bfs", "ring", "multiring", "ring-sp", "dbtree", "halving-doubling")


def read_schedules(path: str | PathLike) -> pd.DataFrame:
    """The record as a frame (``weight`` as text: a fraction such as ``11/2``; empty where there are no trees)."""
    return pd.read_csv(path, keep_default_na=False, dtype={"weight": str, "params": str})


def _routers_only(record: pd.DataFrame, simulator: str | None = "ns3") -> pd.DataFrame:
    t = record[record.hosts_per_router == 0]
    return t if simulator is None else t[t.simulator == simulator]


def at_largest(record: pd.DataFrame, simulator: str = "ns3", min_size: int = 16 << 20) -> pd.DataFrame:
    """Per network and schedule (routers as ranks), the row of the largest size (at least ``min_size``): its time
    over ForestColl's optimum and over the proved bound.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, schedule, size_bytes, time_us, optimum_us, bound_us, over_optimum, over_bound``
        (ratios to 4 decimals), sorted by network and schedule.
    """
    t = _routers_only(record, simulator)
    t = t[t.size_bytes >= min_size]
    idx = t.groupby(NETWORK_KEY + ["schedule"]).size_bytes.idxmax()
    out = t.loc[idx, NETWORK_KEY + ["schedule", "size_bytes", "time_us", "optimum_us", "bound_us"]].copy()
    out["over_optimum"] = (out.time_us / out.optimum_us).round(4)
    out["over_bound"] = (out.time_us / out.bound_us).round(4)
    return out.sort_values(NETWORK_KEY + ["schedule"]).reset_index(drop=True)


def crossovers(record: pd.DataFrame, schedule: str, others: Sequence[str], simulator: str = "ns3") -> pd.DataFrame:
    """Where ``schedule`` beats each of ``others`` (routers as ranks): the smallest size from which it is faster at
    every larger size of the record (-1: not at the largest), and the largest size up to which it is faster at every
    smaller size (-1: not at the smallest).

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, versus, wins_from_bytes, wins_up_to_bytes``.
    """
    t = _routers_only(record, simulator)
    rows = []
    for key, sub in t.groupby(NETWORK_KEY):
        wide = sub.pivot_table(index="size_bytes", columns="schedule", values="time_us")
        if schedule not in wide:
            continue
        for other in others:
            if other not in wide:
                continue
            both = wide[[schedule, other]].dropna()
            better = both[schedule] < both[other]
            tail = better[::-1].cummin()[::-1]
            head = better.cummin()
            rows.append({**dict(zip(NETWORK_KEY, key, strict=True)), "versus": other,
                         "wins_from_bytes": int(tail[tail].index.min()) if tail.any() else -1,
                         "wins_up_to_bytes": int(head[head].index.max()) if head.any() else -1})
    return pd.DataFrame(rows, columns=NETWORK_KEY + ["versus", "wins_from_bytes", "wins_up_to_bytes"])


def agreement(record: pd.DataFrame, min_size: int = 1 << 20) -> pd.DataFrame:
    """SimGrid's time over ns-3's for every case both ran, from ``min_size`` bytes on.

    Returns
    -------
    pandas.DataFrame
        The case's key columns (without the simulator), ``ns3_us``, ``simgrid_us``, ``simgrid_over_ns3``.
    """
    key = ["network", "params", "routers", "hosts_per_router", "mode", "schedule", "size_bytes"]
    t = record[record.size_bytes >= min_size]
    wide = t.pivot_table(index=key, columns="simulator", values="time_us").dropna().reset_index()
    wide = wide.rename(columns={"ns3": "ns3_us", "simgrid": "simgrid_us"})
    wide["simgrid_over_ns3"] = (wide.simgrid_us / wide.ns3_us).round(4)
    wide.columns.name = None
    return wide


def ring_efficiency(record: pd.DataFrame, simulator: str = "ns3", delay_us: float = 1.0, header_bytes: int = 2
                    ) -> pd.DataFrame:
    """The rings on a Hamiltonian cycle against their own bandwidth term, at each network's largest size.

    A ring of ``N`` ranks moves ``2(N-1)/N`` of its share of the message over each of its links in each direction;
    ``ring`` runs the cycle in both directions with half the message each, ``multiring`` ``2 r`` directed rings with
    ``1/(2r)`` each, so either takes at least ``(N-1)/N M / (r b)`` (``r = 1`` for ``ring``). Its ``2(N-1)`` steps
    each send a block of ``M / (2 r N)`` bytes, ``p`` packets of serialisation time ``s`` (header included, to the
    nanosecond); a packet leaves once the packet one block earlier arrived from the previous rank, so a step takes
    the block's transmission or one packet's hop, whichever is longer, and the ring

        ``T = 2 (N - 1) max(p s, s + delay)``:

    while a block is several packets the link delays hide behind the transmissions, but a block of one packet waits
    a link delay at every step.

    Parameters
    ----------
    record : pandas.DataFrame
        The record.
    simulator : str
        The simulator whose rows are read.
    delay_us : float
        The links' delay (the grid's: 1 us).
    header_bytes : int
        The bytes a packet's header adds to its serialisation (ns-3's PPP header: 2).

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, schedule, rings, size_bytes, time_us, own_us, over_own, block_packets`` (the
        packets of one step's block), ``steps_delay_us`` (``2 (N - 1)`` link delays), ``estimate_us`` (``T``
        above), ``over_estimate``.

    Example
    -------
    >>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": ["ring"], "rings": 1, "size_bytes": 1 << 20, "time_us": 64.0,
    ...                   "link_gbps": 100.0, "packet_bytes": 8192})
    >>> ring_efficiency(t)[["own_us", "over_own", "block_packets", "steps_delay_us"]].to_dict("records")
    [{'own_us': 62.915, 'over_own': 1.0172, 'block_packets': 16, 'steps_delay_us': 6.0}]
    >>> float(ring_efficiency(t).estimate_us[0])   # 6 steps of 16 packets of 8,192 bytes, 656 ns each
    62.976
    """
    t = _routers_only(record, simulator)
    t = t[t.schedule.isin(["ring", "multiring"])]
    cols = NETWORK_KEY + ["schedule", "rings", "size_bytes", "time_us", "own_us", "over_own", "block_packets",
                          "steps_delay_us", "estimate_us", "over_estimate"]
    if t.empty:
        return pd.DataFrame(columns=cols)
    idx = t.groupby(NETWORK_KEY + ["schedule"]).size_bytes.idxmax()
    out = t.loc[idx, NETWORK_KEY + ["schedule", "rings", "size_bytes", "time_us", "link_gbps", "packet_bytes"]].copy()
    n = out.routers.astype(float)
    out["own_us"] = ((n - 1) / n * out.size_bytes / (out.rings * out.link_gbps * 125)).round(3)
    out["over_own"] = (out.time_us / out.own_us).round(4)
    block = -(-out.size_bytes // (2 * out.rings * out.routers))
    packets = -(-block // out.packet_bytes)
    ser_us = np.round(8 * (-(-block // packets) + header_bytes) / out.link_gbps) / 1000.0  # ns-3: whole ns
    out["block_packets"] = packets.astype(int)
    out["steps_delay_us"] = (2 * (out.routers - 1) * delay_us).astype(float)
    step = np.maximum(packets * ser_us, ser_us + delay_us)
    out["estimate_us"] = (2 * (out.routers - 1) * step).round(3)
    out["over_estimate"] = (out.time_us / out.estimate_us).round(4)
    return out[cols].sort_values(NETWORK_KEY + ["schedule"]).reset_index(drop=True)


def endpoints_table(record: pd.DataFrame, simulator: str = "ns3") -> pd.DataFrame:
    """The cases with endpoints: per network, size and schedule, the time in-network and on the hosts, each over the
    proved bound.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, hosts_per_router, ranks, size_bytes, schedule, in_network_us, host_us,
        bound_us, in_network_over_bound, host_over_bound``.
    """
    t = record[(record.hosts_per_router > 0) & (record.simulator == simulator)]
    key = NETWORK_KEY + ["hosts_per_router", "size_bytes", "schedule"]
    cols = key[:4] + ["ranks"] + key[4:] + ["in_network_us", "host_us", "bound_us", "in_network_over_bound",
                                             "host_over_bound"]
    if t.empty:
        return pd.DataFrame(columns=cols)
    wide = t.pivot_table(index=key, columns="mode", values="time_us").reindex(columns=["in-network", "host"])
    wide = wide.reset_index()
    # the ranks and the bound: the host mode's (every host a rank) where it ran, else the in-network mode's
    both = t.sort_values("mode", key=lambda m: m != "host").groupby(key)[["ranks", "bound_us"]].first()
    wide = wide.merge(both.reset_index(), on=key).rename(columns={"in-network": "in_network_us", "host": "host_us"})
    wide.columns.name = None
    wide["in_network_over_bound"] = (wide.in_network_us / wide.bound_us).round(4)
    wide["host_over_bound"] = (wide.host_us / wide.bound_us).round(4)
    return wide[cols].sort_values(key).reset_index(drop=True)


def best_schedule(record: pd.DataFrame, simulator: str = "ns3") -> pd.DataFrame:
    """Per network and size (routers as ranks), the fastest schedule and its time over the runner-up.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, size_bytes, best, best_us, second, second_us, margin`` (second over best).
    """
    t = _routers_only(record, simulator)
    rows = []
    for key, sub in t.groupby(NETWORK_KEY + ["size_bytes"]):
        s = sub.sort_values(["time_us", "schedule"])
        a, b = s.iloc[0], s.iloc[1] if len(s) > 1 else s.iloc[0]
        rows.append({**dict(zip(NETWORK_KEY + ["size_bytes"], key, strict=True)), "best": a.schedule,
                     "best_us": a.time_us, "second": b.schedule, "second_us": b.time_us,
                     "margin": float(np.round(b.time_us / a.time_us, 4))})
    return pd.DataFrame(rows)


def coverage(record: pd.DataFrame, cases: Sequence[dict]) -> pd.DataFrame:
    """How much of a grid the record holds: per network, the cases declared and the cases with a row.

    Parameters
    ----------
    record : pandas.DataFrame
        The record (:func:`read_schedules`).
    cases : sequence of dict
        The grid's cases, as :func:`starlib.netsim.comparison.cases` gives them (``family``, ``params`` as
        ``(name, value)`` pairs, ``hosts_per_router``, ``mode``, ``schedule``, ``simulator``, ``size``).

    Returns
    -------
    pandas.DataFrame
        ``network, params, cases, held, missing``, one row per network of ``cases`` in their order; rows of the
        record outside the grid are not counted.

    Example
    -------
    >>> grid = [{"family": "k", "params": (("n", 4),), "hosts_per_router": 0, "mode": "in-network",
    ...          "schedule": s, "simulator": "ns3", "size": 1024} for s in ("trees", "ring")]
    >>> t = pd.DataFrame({"network": ["k"], "params": ["n=4"], "hosts_per_router": [0], "mode": ["in-network"],
    ...                   "schedule": ["ring"], "simulator": ["ns3"], "size_bytes": [1024]})
    >>> coverage(t, grid).to_dict("records")
    [{'network': 'k', 'params': 'n=4', 'cases': 2, 'held': 1, 'missing': 1}]
    """
    from .comparison import params_label

    key = ["network", "params", "hosts_per_router", "mode", "schedule", "simulator", "size_bytes"]
    held = set(record[key].astype(str).itertuples(index=False, name=None))
    rows: dict[tuple[str, str], list[int]] = {}
    for c in cases:
        label = params_label(c["params"])
        k = (c["family"], label, str(c["hosts_per_router"]), c["mode"], c["schedule"], c["simulator"], str(c["size"]))
        count = rows.setdefault((c["family"], label), [0, 0])
        count[0] += 1
        count[1] += k in held
    return pd.DataFrame([{"network": n, "params": p, "cases": a, "held": b, "missing": a - b}
                         for (n, p), (a, b) in rows.items()], columns=["network", "params", "cases", "held", "missing"])


def _graph(network: str, params: str):
    """The network of a record's row: the grid's own (:mod:`starlib.netsim.comparison`), else built from the text."""
    from . import comparison

    for net in comparison.NETWORKS:
        if net.family == network and net.param_text == params:
            return comparison.network_graph(net.family, net.params)
    from ..api import network as build

    return build(network, **{k: int(v) if v.lstrip("-").isdigit() else v
                             for k, v in (p.split("=") for p in params.split())})


def network_facts(record: pd.DataFrame) -> pd.DataFrame:
    """Per network of the record: its degrees, its strength and the tree families the record ran on it.

    The strength ``sigma`` (:func:`starlib.allreduce.optimum.strength`) is the fractional tree packing number: no
    allreduce moves ``M`` bytes faster than ``M / (b sigma)`` (docs/collectives.md §3), ``k`` edge-disjoint trees
    take at least ``M / (b k)``, and the weighted family of total weight ``W`` at least ``M / (b W)``.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, links, min_degree, max_degree, kind`` (``ER_q`` for PolarFly, else ``even-degree
        regular``, ``odd-degree regular`` or ``irregular``), ``strength`` (float), ``strength_text`` (a fraction),
        ``trees`` (``k``; -1 where the record has no ``trees`` row), ``weight`` (``W`` as text, empty where the
        record has no ``weighted-trees`` row), ``weight_value`` (its float; NaN), ``trees_depth``,
        ``weighted_depth``, ``bfs_depth`` (-1: no row).

    Example
    -------
    >>> t = pd.DataFrame({"network": "polarfly", "params": "q=3", "routers": 13, "links": 24, "hosts_per_router": 0,
    ...                   "schedule": ["trees", "weighted-trees"], "trees": [2, 2], "weight": ["2", "2"],
    ...                   "max_depth": [3, 3]})
    >>> f = network_facts(t)
    >>> f[["kind", "min_degree", "max_degree", "strength_text", "trees", "weight_value"]].to_dict("records")
    [{'kind': 'ER_q', 'min_degree': 3, 'max_degree': 4, 'strength_text': '2', 'trees': 2, 'weight_value': 2.0}]
    >>> int(f.bfs_depth.iloc[0])   # no bfs row
    -1
    """
    from fractions import Fraction

    from ..allreduce.optimum import strength

    t = record[record.hosts_per_router == 0]
    rows = []
    for (net, params), sub in t.groupby(["network", "params"], sort=True):
        g = _graph(net, str(params))
        deg = np.asarray(g.degrees())
        lo, hi = int(deg.min()), int(deg.max())
        kind = ("ER_q" if net == "polarfly" else "irregular" if lo != hi
                else "even-degree regular" if lo % 2 == 0 else "odd-degree regular")
        sigma = Fraction(strength(g).value)
        first = sub.groupby("schedule")[["trees", "weight", "max_depth"]].first()

        def get(schedule: str, col: str, default, first=first):
            return first.loc[schedule, col] if schedule in first.index else default

        weight = str(get("weighted-trees", "weight", ""))
        rows.append({"network": net, "params": params, "routers": int(g.n), "links": int(g.m), "min_degree": lo,
                     "max_degree": hi, "kind": kind, "strength": round(float(sigma), 4), "strength_text": str(sigma),
                     "trees": int(get("trees", "trees", -1)), "weight": weight,
                     "weight_value": float(Fraction(weight)) if weight else float("nan"),
                     "trees_depth": int(get("trees", "max_depth", -1)),
                     "weighted_depth": int(get("weighted-trees", "max_depth", -1)),
                     "bfs_depth": int(get("bfs", "max_depth", -1))})
    return pd.DataFrame(rows)


def largest_wide(record: pd.DataFrame, simulator: str = "ns3", min_size: int = 16 << 20) -> pd.DataFrame:
    """:func:`at_largest` with one row per network: each schedule's time over ForestColl's optimum at the
    network's largest size (at least ``min_size``), and the proved bound over the optimum.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, size_bytes, optimum_us, bound_over_optimum`` and one column per schedule of
        :data:`SCHEDULE_ORDER` (``-`` written ``_``), NaN where the schedule has no row at that size.

    Example
    -------
    >>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": ["trees", "ring"], "size_bytes": 16 << 20, "time_us": [110.0, 300.0],
    ...                   "optimum_us": 100.0, "bound_us": 90.0})
    >>> largest_wide(t)[["size_bytes", "bound_over_optimum", "trees", "ring"]].to_dict("records")
    [{'size_bytes': 16777216, 'bound_over_optimum': 0.9, 'trees': 1.1, 'ring': 3.0}]
    """
    t = _routers_only(record, simulator)
    t = t[t.size_bytes >= min_size]
    names = [s.replace("-", "_") for s in SCHEDULE_ORDER]
    if t.empty:
        return pd.DataFrame(columns=NETWORK_KEY + ["size_bytes", "optimum_us", "bound_over_optimum"] + names)
    top = t.groupby(NETWORK_KEY).size_bytes.transform("max")
    t = t[t.size_bytes == top]
    out = t.groupby(NETWORK_KEY, as_index=False)[["size_bytes", "optimum_us", "bound_us"]].first()
    out["bound_over_optimum"] = (out.bound_us / out.optimum_us).round(4)
    wide = t.pivot_table(index=NETWORK_KEY, columns="schedule", values="time_us", aggfunc="first")
    wide = wide.reindex(columns=list(SCHEDULE_ORDER)).div(t.groupby(NETWORK_KEY).optimum_us.first(), axis=0)
    wide = wide.round(4)
    wide.columns = names
    out = out.drop(columns="bound_us").merge(wide.reset_index(), on=NETWORK_KEY)
    return out.sort_values(NETWORK_KEY).reset_index(drop=True)


def crossover_table(record: pd.DataFrame, simulator: str = "ns3") -> pd.DataFrame:
    """:func:`crossovers` of the trees against every baseline, one row per network: from which size on the trees
    are faster at every larger size, against each of :data:`BASELINES`.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, smallest_bytes, largest_bytes`` (the sizes the network ran) and
        ``from_<baseline>`` (``-`` written ``_``) in bytes: -1 where the baseline did not run or the trees are not
        faster at the largest size.

    Example
    -------
    >>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": ["trees", "ring", "trees", "ring"], "size_bytes": [1024, 1024, 4096, 4096],
    ...                   "time_us": [2.0, 5.0, 3.0, 2.5]})
    >>> crossover_table(t)[["smallest_bytes", "from_ring", "from_bfs"]].to_dict("records")
    [{'smallest_bytes': 1024, 'from_ring': -1, 'from_bfs': -1}]
    """
    t = _routers_only(record, simulator)
    cols = NETWORK_KEY + ["smallest_bytes", "largest_bytes"] + [f"from_{b.replace('-', '_')}" for b in BASELINES]
    if t.empty:
        return pd.DataFrame(columns=cols)
    c = crossovers(record, "trees", BASELINES, simulator)
    sizes = t.groupby(NETWORK_KEY).size_bytes.agg(smallest_bytes="min", largest_bytes="max").reset_index()
    out = sizes[sizes.set_index(NETWORK_KEY).index.isin(t[t.schedule == "trees"].set_index(NETWORK_KEY).index)]
    for b in BASELINES:
        got = c[c.versus == b][NETWORK_KEY + ["wins_from_bytes"]].rename(
            columns={"wins_from_bytes": f"from_{b.replace('-', '_')}"})
        out = out.merge(got, on=NETWORK_KEY, how="left")
    out = out.fillna(-1)
    for col in cols[3:]:
        out[col] = out[col].astype(int)
    return out[cols].sort_values(NETWORK_KEY).reset_index(drop=True)


def pipeline_estimate(record: pd.DataFrame, delay_us: float = 1.0, header_bytes: int = 2,
                      simulator: str = "ns3") -> pd.DataFrame:
    """The edge-disjoint trees (``trees``, routers as ranks) against the closed form of a pipeline.

    Tree ``t`` moves a share of ``B = ceil(M / k)`` bytes as ``P = ceil(B / p)`` packets of ``ceil(B / P)`` bytes
    (``p`` the record's packet size), each taking ``s`` to serialise with its header (to the nanosecond, as ns-3
    rounds it). Packet ``j`` climbs the deepest tree's ``D`` levels and comes back down, ``2 D`` hops of ``s`` plus a
    link delay each, and the packets follow one another ``s`` apart on every link, which no other tree uses:

        ``T = (P + 2 D - 1) s + 2 D delay``.

    Its bandwidth part ``P s`` is about ``M / (k b)``; the rest is the pipeline's fill, a fixed cost per size that
    the larger sizes amortise.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, size_bytes, trees, max_depth, packets, time_us, estimate_us, bandwidth_us``
        (``M / (k b)``), ``fill_us`` (``estimate - P s``), ``over_estimate``.

    Example
    -------
    >>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": "trees", "size_bytes": [1024, 1 << 20], "trees": 2, "max_depth": 2,
    ...                   "packet_bytes": 8192, "link_gbps": 100.0, "time_us": [4.045, 48.0]})
    >>> pipeline_estimate(t)[["packets", "estimate_us", "fill_us"]].to_dict("records")
    [{'packets': 1, 'estimate_us': 4.164, 'fill_us': 4.123}, {'packets': 64, 'estimate_us': 47.952, 'fill_us': 5.968}]
    """
    t = _routers_only(record, simulator)
    t = t[t.schedule == "trees"]
    cols = NETWORK_KEY + ["size_bytes", "trees", "max_depth", "packets", "time_us", "estimate_us", "bandwidth_us",
                          "fill_us", "over_estimate"]
    if t.empty:
        return pd.DataFrame(columns=cols)
    share = -(-t.size_bytes // t.trees)
    packets = -(-share // t.packet_bytes)
    payload = -(-share // packets)
    ser_us = np.round(8 * (payload + header_bytes) / t.link_gbps) / 1000.0  # ns-3: whole nanoseconds
    hops = 2 * t.max_depth
    out = t[NETWORK_KEY + ["size_bytes", "trees", "max_depth"]].copy()
    out["packets"] = packets.astype(int)
    out["time_us"] = t.time_us
    out["estimate_us"] = ((packets + hops - 1) * ser_us + hops * delay_us).round(3)
    out["bandwidth_us"] = (t.size_bytes / (t.trees * t.link_gbps * 125)).round(3)
    out["fill_us"] = (out.estimate_us - packets * ser_us).round(3)
    out["over_estimate"] = (out.time_us / out.estimate_us).round(4)
    return out[cols].sort_values(NETWORK_KEY + ["size_bytes"]).reset_index(drop=True)


def trees_against_optimum(record: pd.DataFrame, facts: pd.DataFrame, min_size: int = 16 << 20,
                          kinds: Sequence[str] = ("ER_q", "even-degree regular"), simulator: str = "ns3"
                          ) -> pd.DataFrame:
    """The edge-disjoint trees' time over ForestColl's optimum from ``min_size`` on, on the networks of ``kinds``.

    Parameters
    ----------
    record : pandas.DataFrame
        The record.
    facts : pandas.DataFrame
        :func:`network_facts` of the record (its ``kind`` column).
    min_size : int
        The smallest size checked (bytes).
    kinds : sequence of str
        The kinds of network checked.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, kind, size_bytes, time_us, optimum_us, over_optimum``.

    Example
    -------
    >>> t = pd.DataFrame({"network": ["a", "b"], "params": "", "routers": 4, "hosts_per_router": 0,
    ...                   "simulator": "ns3", "schedule": "trees", "size_bytes": 16 << 20, "time_us": [99.0, 120.0],
    ...                   "optimum_us": 100.0})
    >>> f = pd.DataFrame({"network": ["a", "b"], "params": "", "kind": ["ER_q", "irregular"]})
    >>> trees_against_optimum(t, f)[["network", "over_optimum"]].to_dict("records")
    [{'network': 'a', 'over_optimum': 0.99}]
    """
    t = _routers_only(record, simulator)
    t = t[(t.schedule == "trees") & (t.size_bytes >= min_size)]
    t = t.merge(facts[["network", "params", "kind"]], on=["network", "params"])
    t = t[t.kind.isin(list(kinds))]
    out = t[NETWORK_KEY + ["kind", "size_bytes", "time_us", "optimum_us"]].copy()
    out["over_optimum"] = (out.time_us / out.optimum_us).round(4)
    return out.sort_values(NETWORK_KEY + ["size_bytes"]).reset_index(drop=True)


def weighted_against_bound(record: pd.DataFrame, facts: pd.DataFrame, min_size: int = 16 << 20,
                           simulator: str = "ns3") -> pd.DataFrame:
    """The weighted family where it applies (its total weight ``W`` above the ``k`` edge-disjoint trees) from
    ``min_size`` on: its time over the fractional optimum ``M / (b sigma)`` (the proved bound's bandwidth term),
    over its own ``M / (b W)``, and over the edge-disjoint trees' time.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, trees, weight, strength_text, size_bytes, time_us, fractional_us, own_us,
        trees_us, over_fractional, over_own, over_trees``.

    Example
    -------
    >>> t = pd.DataFrame({"network": "a", "params": "", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": ["weighted-trees", "trees"], "size_bytes": 1250000, "time_us": [44.0, 50.0],
    ...                   "link_gbps": 100.0})
    >>> f = pd.DataFrame({"network": ["a"], "params": [""], "trees": [2], "weight": ["5/2"], "weight_value": [2.5],
    ...                   "strength": [2.5], "strength_text": ["5/2"]})
    >>> weighted_against_bound(t, f, min_size=0)[["fractional_us", "over_fractional", "over_trees"]].to_dict("records")
    [{'fractional_us': 40.0, 'over_fractional': 1.1, 'over_trees': 0.88}]
    """
    t = _routers_only(record, simulator)
    t = t[t.size_bytes >= min_size]
    trees = t[t.schedule == "trees"][NETWORK_KEY + ["size_bytes", "time_us"]].rename(columns={"time_us": "trees_us"})
    w = t[t.schedule == "weighted-trees"].merge(
        facts[["network", "params", "trees", "weight", "weight_value", "strength", "strength_text"]],
        on=["network", "params"], suffixes=("_record", ""))
    w = w[w.weight_value > w.trees].merge(trees, on=NETWORK_KEY + ["size_bytes"], how="left")
    b = w.link_gbps * 125
    w["fractional_us"] = (w.size_bytes / (b * w.strength_text.map(_fraction_float))).round(3)
    w["own_us"] = (w.size_bytes / (b * w.weight_value)).round(3)
    w["over_fractional"] = (w.time_us / w.fractional_us).round(4)
    w["over_own"] = (w.time_us / w.own_us).round(4)
    w["over_trees"] = (w.time_us / w.trees_us).round(4)
    cols = NETWORK_KEY + ["trees", "weight", "strength_text", "size_bytes", "time_us", "fractional_us", "own_us",
                          "trees_us", "over_fractional", "over_own", "over_trees"]
    return w[cols].sort_values(NETWORK_KEY + ["size_bytes"]).reset_index(drop=True)


def _fraction_float(text: str) -> float:
    from fractions import Fraction

    return float(Fraction(text))


def _target(name: str, scope: str, ratio: pd.Series, where: pd.Series, low: float | None, high: float) -> dict:
    """One row of :func:`targets`: how many of ``ratio`` lie within ``[low, high]`` and the one farthest out (if
    none is out: the largest, or with a ``low`` limit the farthest from 1)."""
    limit = f"<= {high:g}" if low is None else f"{low:g} to {high:g}"
    if ratio.empty:
        return {"target": name, "scope": scope, "limit": limit, "cases": 0, "within": 0, "worst": float("nan"),
                "worst_case": "", "met": "no rows yet"}
    floor = -np.inf if low is None else low
    inside = (ratio <= high) & (ratio >= floor)
    out = (ratio - high).clip(lower=0) + (floor - ratio).clip(lower=0)
    score = out if not inside.all() else ratio if low is None else (ratio - 1).abs()
    i = score.idxmax()
    return {"target": name, "scope": scope, "limit": limit, "cases": int(len(ratio)), "within": int(inside.sum()),
            "worst": float(ratio[i]), "worst_case": where[i], "met": "yes" if inside.all() else "no"}


def _where(frame: pd.DataFrame, extra: str = "") -> pd.Series:
    size = frame.size_bytes.map(lambda s: f"{s >> 20} MiB" if s >= 1 << 20 else f"{s >> 10} KiB")
    text = frame.network + " " + frame.params.astype(str) + ", " + size
    return text + (", " + frame[extra].astype(str) if extra else "")


def targets(record: pd.DataFrame, facts: pd.DataFrame, *, min_size: int = 16 << 20, trees_slack: float = 0.03,
            weighted_slack: float = 0.05, ring_slack: float = 0.10, agree_slack: float = 0.15,
            agree_from: int = 1 << 20, simulator: str = "ns3") -> pd.DataFrame:
    """The four targets of the comparison, each checked on every row of the record in its scope.

    * the edge-disjoint trees within ``1 + trees_slack`` of ForestColl's optimum (or below it) from ``min_size`` on,
      on PolarFly (``ER_q``) and the even-degree regular networks (:func:`trees_against_optimum`);
    * the weighted family within ``1 + weighted_slack`` of the fractional optimum ``M / (b sigma)`` from ``min_size``
      on, where its weight exceeds the trees' count (:func:`weighted_against_bound`);
    * the ring on a Hamiltonian cycle within ``1 + ring_slack`` of its own bandwidth term at each network's largest
      size (:func:`ring_efficiency`);
    * SimGrid's time within ``agree_slack`` of ns-3's from ``agree_from`` bytes on, every case both ran
      (:func:`agreement`).

    Returns
    -------
    pandas.DataFrame
        ``target, scope, limit, cases, within, worst`` (the ratio farthest outside the limit, else the largest one,
        or for the simulators the farthest from 1), ``worst_case``, ``met`` (``yes``, ``no`` or ``no rows yet``).

    Example
    -------
    >>> t = pd.DataFrame({"network": "a", "params": "q=3", "routers": 4, "hosts_per_router": 0, "mode": "in-network",
    ...                   "simulator": ["ns3", "simgrid"], "schedule": "trees", "size_bytes": 16 << 20,
    ...                   "time_us": [102.0, 104.0], "optimum_us": 100.0, "bound_us": 100.0, "link_gbps": 100.0,
    ...                   "rings": 0})
    >>> f = pd.DataFrame({"network": ["a"], "params": ["q=3"], "kind": ["ER_q"], "trees": [2], "weight": [""],
    ...                   "weight_value": [float("nan")], "strength": [2.0], "strength_text": ["2"]})
    >>> targets(t, f)[["cases", "worst", "met"]].to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'cases': 1, 'worst': 1.02, 'met': 'yes'}, {'cases': 0, 'worst': nan, 'met': 'no rows yet'},
     {'cases': 0, 'worst': nan, 'met': 'no rows yet'}, {'cases': 1, 'worst': 1.0196, 'met': 'yes'}]
    """
    mib = f"{min_size >> 20} MiB"
    tr = trees_against_optimum(record, facts, min_size, simulator=simulator)
    w = weighted_against_bound(record, facts, min_size, simulator=simulator)
    ring = ring_efficiency(record, simulator)
    ring = ring[ring.schedule == "ring"]
    a = agreement(record, agree_from)
    if "simgrid_over_ns3" not in a:  # no case ran on both simulators yet
        a = pd.DataFrame(columns=["network", "params", "size_bytes", "schedule", "simgrid_over_ns3"])
    rows = [
        _target("edge-disjoint trees against ForestColl's optimum", f"ER_q and even-degree regular, from {mib}",
                tr.over_optimum.astype(float), _where(tr), None, 1 + trees_slack),
        _target("weighted trees against the fractional optimum", f"weight above the tree count, from {mib}",
                w.over_fractional.astype(float), _where(w), None, 1 + weighted_slack),
        _target("Hamiltonian ring against its bandwidth term", "every network with a cycle, largest size",
                ring.over_own.astype(float), _where(ring), None, 1 + ring_slack),
        _target("SimGrid over ns-3", f"every case both ran, from {agree_from >> 20} MiB",
                a.simgrid_over_ns3.astype(float), _where(a, "schedule"), 1 - agree_slack, 1 + agree_slack),
    ]
    return pd.DataFrame(rows)


def depth_at_small(record: pd.DataFrame, size: int = 1024, simulator: str = "ns3") -> pd.DataFrame:
    """At one small size (routers as ranks): the trees against one breadth-first tree, and the fastest schedule.

    A message of ``size`` bytes is one packet per tree, so a tree allreduce takes about ``2 D`` link delays: the
    deepest tree's depth decides it, and the split over ``k`` trees only shortens each packet's serialisation.

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, trees_depth, bfs_depth, trees_us, bfs_us, trees_faster, best, best_us``, one
        row per network with both a ``trees`` and a ``bfs`` row at ``size``.

    Example
    -------
    >>> t = pd.DataFrame({"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "simulator": "ns3",
    ...                   "schedule": ["trees", "bfs", "ring"], "size_bytes": 1024, "max_depth": [3, 2, 0],
    ...                   "time_us": [6.1, 4.2, 9.0]})
    >>> depth_at_small(t)[["trees_depth", "bfs_depth", "trees_faster", "best"]].to_dict("records")
    [{'trees_depth': 3, 'bfs_depth': 2, 'trees_faster': False, 'best': 'bfs'}]
    """
    t = _routers_only(record, simulator)
    t = t[t.size_bytes == size]
    cols = NETWORK_KEY + ["trees_depth", "bfs_depth", "trees_us", "bfs_us", "trees_faster", "best", "best_us"]
    rows = []
    for key, sub in t.groupby(NETWORK_KEY):
        s = sub.set_index("schedule")
        if "trees" not in s.index or "bfs" not in s.index:
            continue
        best = sub.sort_values(["time_us", "schedule"]).iloc[0]
        rows.append({**dict(zip(NETWORK_KEY, key, strict=True)), "trees_depth": int(s.max_depth["trees"]),
                     "bfs_depth": int(s.max_depth["bfs"]), "trees_us": float(s.time_us["trees"]),
                     "bfs_us": float(s.time_us["bfs"]), "trees_faster": bool(s.time_us["trees"] < s.time_us["bfs"]),
                     "best": best.schedule, "best_us": float(best.time_us)})
    return pd.DataFrame(rows, columns=cols)


def span(values: pd.Series, digits: int = 4) -> str:
    """``smallest..largest`` of a series to ``digits`` decimals, ``one value`` when they agree, ``none`` when empty.

    Example
    -------
    >>> span(pd.Series([1.2, 0.95, 1.0])), span(pd.Series([2.0, 2.0]), 1), span(pd.Series([], dtype=float))
    ('0.9500..1.2000', '2.0', 'none')
    """
    v = pd.to_numeric(pd.Series(values), errors="coerce").dropna()
    if v.empty:
        return "none"
    lo, hi = f"{v.min():.{digits}f}", f"{v.max():.{digits}f}"
    return lo if lo == hi else f"{lo}..{hi}"
