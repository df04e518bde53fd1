"""What notebook 16 reads off the schedules record (``data/schedules.csv``, :mod:`starlib.netsim.comparison`).

Every function takes the record as a :class:`pandas.DataFrame` (:func:`read_schedules`) and returns a table; none
computes a time: they compare the record's simulated times with its optimum and bound columns, the schedules with
one another, and the two simulators with each other.

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

__all__ = ["read_schedules", "NETWORK_KEY", "at_largest", "crossovers", "agreement", "ring_efficiency",
           "endpoints_table", "best_schedule"]

#: the columns that name a network in the record
NETWORK_KEY = ["network", "params", "routers"]


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


def ring_efficiency(record: pd.DataFrame, simulator: str = "ns3") -> pd.DataFrame:
    """The rings on a Hamiltonian cycle against their own bandwidth term, at each network's largest size.

    A ring of ``N`` ranks moves ``2(N-1)/N`` of its share of the message over each of its links in each direction;
    ``ring`` runs the cycle in both directions with half the message each, ``multiring`` ``2 r`` directed rings with
    ``1/(2r)`` each, so either takes at least ``(N-1)/N M / (r b)`` (``r = 1`` for ``ring``).

    Returns
    -------
    pandas.DataFrame
        ``network, params, routers, schedule, rings, size_bytes, time_us, own_us, over_own``.
    """
    t = _routers_only(record, simulator)
    t = t[t.schedule.isin(["ring", "multiring"])]
    idx = t.groupby(NETWORK_KEY + ["schedule"]).size_bytes.idxmax()
    out = t.loc[idx, NETWORK_KEY + ["schedule", "rings", "size_bytes", "time_us", "link_gbps"]].copy()
    n = out.routers.astype(float)
    out["own_us"] = ((n - 1) / n * out.size_bytes / (out.rings * out.link_gbps * 125)).round(3)
    out["over_own"] = (out.time_us / out.own_us).round(4)
    return out.drop(columns="link_gbps").sort_values(NETWORK_KEY + ["schedule"]).reset_index(drop=True)


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
    key = NETWORK_KEY + ["hosts_per_router", "ranks", "size_bytes", "schedule"]
    wide = t.pivot_table(index=key, columns="mode", values="time_us").reset_index()
    bound = t.groupby(key).bound_us.first().reset_index()
    wide = wide.merge(bound, on=key).rename(columns={"in-network": "in_network_us", "host": "host_us"})
    wide.columns.name = None
    wide["in_network_over_bound"] = (wide.in_network_us / wide.bound_us).round(4)
    wide["host_over_bound"] = (wide.host_us / wide.bound_us).round(4)
    return wide.sort_values(key).reset_index(drop=True)


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
