"""ForestColl's public Python as an external oracle for the allgather/allreduce optimum of starlib's networks.

Run: ``.venv/bin/python benchmarks/bench_forestcoll.py --forestcoll PATH [--trees-max-n 40] [--brute-max-n 20]``,
where ``PATH`` is a checkout of https://github.com/liangyuRain/ForestColl (Zhao et al., "ForestColl:
Throughput-Optimal Collective Communications on Heterogeneous Network Fabrics", arXiv 2402.06787; Apache-2.0)::

    git clone https://github.com/liangyuRain/ForestColl /work/forestcoll
    .venv/bin/python benchmarks/bench_forestcoll.py --forestcoll /work/forestcoll

ForestColl is not on PyPI and none of its code is part of starlib: this script puts ``PATH`` on ``sys.path`` at
run time and imports its ``pipeline_allgather`` and ``to_xml`` modules, which need only networkx (pinned in the
project). Without ``--forestcoll`` (as ``make bench`` runs it) the script prints how to get ForestColl and exits 0.

Every network is a starlib build with all vertices compute nodes and every link a unit-capacity link in both
directions. The first table (ForestColl timed in one run) compares the optimal allgather time ``(M/N) * r``
through its ratio ``r = max_S |S ∩ V_c| / B+(S)`` (``S`` a vertex set missing at least one compute node,
``B+(S)`` its exiting capacity; here ``|S| / |δ(S)|`` over the nonempty proper subsets):

- *ForestColl*: ``OptimalBranchingsAlgo(G, capacitated=True).binary_search()`` returns ``(U, k)`` with
  ``r = U / k`` (its README: the runtime is ``convertToRuntime(U, k) = U / (k N)`` times ``M``);
- *starlib*: ``starlib.allreduce.optimum.cut_ratio(graph)`` (best of 3 runs), with ``|S|`` of the set it returns,
  checked here to attain its value;
- *brute force* (``n <= --brute-max-n``): every subset, numpy bit masks; an independent third value;
- *(n-1)/δ*: the single-vertex cut, a lower bound on ``r`` (``S`` = all but a vertex of least degree).

The second table (``n <= --trees-max-n``; ForestColl's tree construction is a sequence of networkx max-flows and
grows fast with ``n``) reads ForestColl's schedule from ``optimal_pipeline_spanning_trees``: ``(u, i) -> tree``
with ``Cs[u, i]`` chunks, ``k`` chunks per root. It is checked here independently of ForestColl: every tree an
out-arborescence spanning all vertices from its root, ``sum_i Cs[u, i] = k``, and the heaviest directed link
carries ``L`` chunks, so the schedule's own ratio is ``L / k`` (it must equal the optimum). Its MSCCL allreduce XML
(``to_xml.construct_algo_allreduce``, which accepts only trees of one chunk, so from the ``fixed_K=1`` schedule
when the optimum needs ``k > 1``) goes through ``starlib.io.msccl_replay.replay_msccl``. ForestColl's files order
a rank's reduce-scatter write of a chunk and its allgather write of the same chunk only through the round trip via
the tree parent, not inside the rank, and the replay, which asks for the order inside the rank, reports a race
(docs/collectives.md, "ForestColl as an oracle"). A run takes 2 to 5 minutes on 2 cores. Never part of the tests.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _timing import best_of  # noqa: E402

from starlib.graphs import ArrayGraph, as_graph  # noqa: E402

HOW_TO = ("bench_forestcoll: skipped (no --forestcoll); get the oracle with `git clone "
          "https://github.com/liangyuRain/ForestColl /work/forestcoll` and run `.venv/bin/python "
          "benchmarks/bench_forestcoll.py --forestcoll /work/forestcoll`")


def networks() -> list[tuple[str, Callable[[], ArrayGraph]]]:
    """The instances: (label, builder). The barbell is a control whose optimum is not a single-vertex cut."""
    import networkx as nx

    from starlib.api import network

    def net(name: str, **p: Any) -> Callable[[], ArrayGraph]:
        return lambda: network(name, **p)

    rows = [(f"PolarFly q={q}", net("polarfly", q=q)) for q in (3, 4, 5, 7, 9)]
    rows += [(f"Slim Fly q={q}", net("slimfly", q=q)) for q in (3, 4, 5)]
    rows += [("Bundlefly q=3 q'=5", net("bundlefly", q=3, paley_q=5)),
             ("Dragonfly a=4 h=2", net("dragonfly", a=4, p=1, h=2)),
             ("HyperX 4x4", net("hyperx", sizes="4,4")),
             ("barbell K5-o-K5", lambda: as_graph(nx.barbell_graph(5, 1), "barbell"))]
    return rows


def to_forestcoll(g: ArrayGraph) -> Any:
    """ForestColl's topology: a networkx DiGraph on ``0..n-1``, integer ``capacity=1`` on both directions of a link."""
    import networkx as nx

    G = nx.DiGraph()
    G.add_nodes_from(range(g.n))
    for a, b in g.edges.tolist():
        G.add_edge(a, b, capacity=1)
        G.add_edge(b, a, capacity=1)
    return G


def forestcoll_ratio(G: Any) -> tuple[Fraction, float, int]:
    """ForestColl's optimum ``U / k`` (exact: ``U`` is an integer-valued float for unit capacities) and ``(U, k)``."""
    from pipeline_allgather import OptimalBranchingsAlgo

    U, k = OptimalBranchingsAlgo(G, capacitated=True, compute_nodes=list(G.nodes())).binary_search()
    return Fraction(U) / k, U, k


def starlib_ratio(g: ArrayGraph) -> tuple[Fraction | None, int | None, float | None, str]:
    """starlib's ``cut_ratio(graph)``: its value, the size of its set ``S`` (checked to attain the value), its best
    seconds of 3 (the first call compiles or loads the numba kernels), and why it is absent if it is."""
    try:
        from starlib.allreduce.optimum import cut_ratio
    except ImportError as e:
        return None, None, None, f"starlib.allreduce.optimum.cut_ratio not available ({e})"
    _, sec, res = best_of(lambda: cut_ratio(g))
    inside = np.zeros(g.n, dtype=bool)
    inside[res.cut] = True
    crossing = int((inside[g.edges[:, 0]] != inside[g.edges[:, 1]]).sum())
    assert Fraction(int(inside.sum()), crossing) == res.value, "cut_ratio's set does not attain its value"
    return res.value, int(inside.sum()), sec, ""


def brute_ratio(g: ArrayGraph) -> Fraction:
    """``max |S| / |δ(S)|`` over all nonempty proper vertex subsets (``2^n`` masks, for small ``n`` only)."""
    n, e = g.n, g.edges
    best = Fraction(0)
    block = 1 << 16
    for start in range(1, (1 << n) - 1, block):
        s = np.arange(start, min(start + block, (1 << n) - 1), dtype=np.int64)
        cut = np.zeros(len(s), dtype=np.int64)
        for a, b in e.tolist():
            cut += ((s >> a) ^ (s >> b)) & 1
        size = np.zeros(len(s), dtype=np.int64)
        for v in range(n):
            size += (s >> v) & 1
        r = size / cut  # a float filter; the maximum is then taken exactly among the near-maximal masks
        cand = np.flatnonzero(r >= r.max() * (1 - 1e-9))
        for i in cand.tolist():
            best = max(best, Fraction(int(size[i]), int(cut[i])))
    return best


def check_trees(Ts: dict, Cs: dict, k: int, n: int) -> tuple[Fraction, int, float]:
    """Check ForestColl's trees without its code: (the schedule's ratio L/k, max depth, mean depth)."""
    load: dict[tuple[int, int], int] = {}
    per_root: dict[int, int] = {}
    depths = []
    for (u, i), paths in Ts.items():
        children: dict[int, list[int]] = {}
        indeg: dict[int, int] = {}
        for p in paths:
            for a, b in p:  # without switches every path is a single link
                children.setdefault(a, []).append(b)
                indeg[b] = indeg.get(b, 0) + 1
                load[a, b] = load.get((a, b), 0) + Cs[u, i]
        assert indeg.get(u, 0) == 0 and all(c == 1 for c in indeg.values()), f"tree {(u, i)} is not a branching"
        depth, frontier, seen = 0, [u], {u}
        while frontier:
            nxt = [c for x in frontier for c in children.get(x, [])]
            seen.update(nxt)
            depth += bool(nxt)
            frontier = nxt
        assert len(seen) == n, f"tree {(u, i)} reaches {len(seen)} of {n} vertices"
        depths.append(depth)
        per_root[u] = per_root.get(u, 0) + Cs[u, i]
    assert set(per_root) == set(range(n)) and set(per_root.values()) == {k}, "chunks per root differ from k"
    return Fraction(max(load.values()), k), max(depths), sum(depths) / len(depths)


def msccl_xml(Ts: dict, Cs: dict, k: int, n: int) -> bytes:
    """ForestColl's MSCCL allreduce XML of one-chunk trees (``to_xml.construct_algo_allreduce``, one instance)."""
    from to_xml import construct_algo_allreduce

    nTs = {key: [[(p[0][0], p[-1][-1], None)] for p in paths] for key, paths in Ts.items()}
    return ET.tostring(construct_algo_allreduce(nTs, dict(Cs), k, list(range(n)), ninstance=1), "utf-8")


def replay(data: bytes) -> str:
    """``replay_msccl`` on ForestColl's XML: "passes (...)" or the first failure."""
    from starlib.io.msccl_replay import replay_msccl

    try:
        rep = replay_msccl(data)
    except ValueError as e:
        race = re.search(r"gpu (\d+): tb (\d+) step \d+ and tb (\d+) step \d+ both touch chunk (\d+)", str(e))
        if race:
            return "fails: race, gpu {} tb {} / tb {} on chunk {} (not ordered inside the rank)".format(*race.groups())
        return f"fails: {str(e)[:110]}"
    return f"passes ({rep.threadblocks} tbs, {rep.channels} ch, {rep.max_steps_per_tb} steps/tb)"


def schedule_row(label: str, g: ArrayGraph, G: Any, opt: Fraction) -> dict[str, Any]:
    """ForestColl's trees for ``G``, checked, and its XML replayed."""
    from pipeline_allgather import optimal_pipeline_spanning_trees

    t = time.perf_counter()
    (U, k), (Ts, Cs) = optimal_pipeline_spanning_trees(G, compute_nodes=list(range(g.n)))
    sec = time.perf_counter() - t
    sched, dmax, dmean = check_trees(Ts, Cs, k, g.n)
    row = {"network": label, "n": g.n, "k": k, "trees": len(Ts), "sum Cs": sum(Cs.values()), "max depth": dmax,
           "mean depth": round(dmean, 2), "L/k": str(sched), "= opt": sched == opt, "trees s": round(sec, 2)}
    if set(Cs.values()) != {1}:
        t = time.perf_counter()
        (U1, k1), (Ts, Cs) = optimal_pipeline_spanning_trees(G, compute_nodes=list(range(g.n)), fixed_K=1)
        row["k=1 ratio"] = str(check_trees(Ts, Cs, k1, g.n)[0])
        row["trees s"] = round(row["trees s"] + time.perf_counter() - t, 2)
    else:
        k1, row["k=1 ratio"] = k, str(sched)
    try:
        data = msccl_xml(Ts, Cs, k1, g.n)
    except AssertionError:  # ForestColl's own limits (108 thread blocks per GPU, 32 channels)
        line = traceback.extract_tb(sys.exc_info()[2])[-1].line
        row["MSCCL XML (k=1)"] = f"not written: ForestColl's `{line}` fails"
        return row
    row["MSCCL XML (k=1)"] = f"{len(data) / 1024:.0f} KB, replay {replay(data)}"
    return row


def main(argv: list[str] | None = None) -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--forestcoll", type=Path, help="a checkout of github.com/liangyuRain/ForestColl")
    a.add_argument("--trees-max-n", type=int, default=40, help="ForestColl's trees and XML up to this many vertices")
    a.add_argument("--brute-max-n", type=int, default=20, help="brute force over all subsets up to this n")
    args = a.parse_args(argv)
    if args.forestcoll is None:
        print(HOW_TO)
        return
    if not (args.forestcoll / "pipeline_allgather.py").is_file():
        sys.exit(f"--forestcoll {args.forestcoll}: no pipeline_allgather.py there (not a ForestColl checkout)")
    sys.path.insert(0, str(args.forestcoll.resolve()))
    import pandas as pd

    ratios, schedules, absent = [], [], ""
    for label, build in networks():
        g = build()
        G = to_forestcoll(g)
        t = time.perf_counter()
        fc, U, k = forestcoll_ratio(G)
        t_fc = time.perf_counter() - t
        ours, size, t_ours, note = starlib_ratio(g)
        absent = absent or note
        degree = np.bincount(g.edges.ravel(), minlength=g.n)
        row = {"network": label, "n": g.n, "m": g.m, "ForestColl": str(fc), "U, k": f"{U:g}, {k}",
               "starlib": "n/a" if ours is None else str(ours), "equal": "n/a" if ours is None else ours == fc,
               "|S|": "" if size is None else size,
               "(n-1)/δ": str(Fraction(g.n - 1, int(degree.min()))),
               "brute": str(brute_ratio(g)) if g.n <= args.brute_max_n else "",
               "ForestColl s": round(t_fc, 2), "starlib s": "" if t_ours is None else round(t_ours, 4)}
        ratios.append(row)
        print(f"  {label}: ForestColl {fc} in {t_fc:.2f} s", file=sys.stderr, flush=True)
        if g.n <= args.trees_max_n:
            schedules.append(schedule_row(label, g, G, fc))
    pd.set_option("display.width", 250)
    pd.set_option("display.max_colwidth", 120)
    print("Optimal allgather ratio r = max_S |S ∩ V_c| / B+(S) (time = (M/N) r), all vertices compute, unit links")
    print(pd.DataFrame(ratios).to_string(index=False))
    if absent:
        print(f"\nstarlib column empty: {absent}")
    print(f"\nForestColl's schedules (n <= {args.trees_max_n}), checked here; XML replayed by starlib")
    print(pd.DataFrame(schedules).to_string(index=False))


if __name__ == "__main__":
    main()
