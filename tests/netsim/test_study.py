"""starlib.netsim.study: what notebook 16 reads off the schedules record, on small hand-made frames whose answers
are worked out by hand (and two rows of the record whose ns-3 times the pipeline's closed form gives exactly)."""

from __future__ import annotations

import math

import matplotlib
import pandas as pd
import pytest

from starlib.netsim import study

matplotlib.use("Agg")


def rows(**columns) -> pd.DataFrame:
    """A frame of routers-as-ranks ns-3 rows on network ``k n=4`` unless the columns say otherwise."""
    base = {"network": "k", "params": "n=4", "routers": 4, "hosts_per_router": 0, "mode": "in-network",
            "simulator": "ns3", "link_gbps": 100.0, "packet_bytes": 8192}
    base.update(columns)
    return pd.DataFrame(base)


def test_coverage_counts_the_grid_and_ignores_rows_outside_it():
    grid = [{"family": "k", "params": (("n", 4),), "hosts_per_router": 0, "mode": "in-network", "schedule": s,
             "simulator": sim, "size": 1024} for s in ("trees", "ring") for sim in ("ns3", "simgrid")]
    t = rows(schedule=["trees", "ring", "bfs"], size_bytes=1024)
    out = study.coverage(t, grid).to_dict("records")
    assert out == [{"network": "k", "params": "n=4", "cases": 4, "held": 2, "missing": 2}]


def test_network_facts_degrees_strength_and_families():
    # ER_3: 13 routers of degree 3 (4 quadrics) and 4, 24 links, strength m/(n-1) = 2; MMS(5): 7-regular, 25/7
    t = pd.concat([rows(network="polarfly", params="q=3", schedule=["trees", "bfs"], trees=[2, 1],
                        weight=["2", ""], max_depth=[3, 2]),
                   rows(network="slimfly", params="q=5", schedule=["trees", "weighted-trees"], trees=[3, 7],
                        weight=["3", "7/2"], max_depth=[4, 5])])
    f = study.network_facts(t).set_index("network")
    assert f.loc["polarfly", ["routers", "links", "min_degree", "max_degree", "kind", "strength_text"]].tolist() == [
        13, 24, 3, 4, "ER_q", "2"]
    assert f.loc["polarfly", ["trees", "weight", "trees_depth", "bfs_depth", "weighted_depth"]].tolist() == [
        2, "", 3, 2, -1]
    assert math.isnan(f.loc["polarfly", "weight_value"])
    assert f.loc["slimfly", ["min_degree", "kind", "strength_text", "weight_value"]].tolist() == [
        7, "odd-degree regular", "25/7", 3.5]


def test_largest_wide_takes_each_networks_largest_size_and_leaves_absent_schedules_empty():
    t = pd.concat([rows(schedule=["trees", "ring"], size_bytes=16 << 20, time_us=[110.0, 330.0], optimum_us=100.0,
                        bound_us=95.0),
                   rows(schedule=["trees"], size_bytes=64 << 20, time_us=[420.0], optimum_us=400.0, bound_us=380.0),
                   rows(schedule=["trees"], size_bytes=1 << 20, time_us=[9.0], optimum_us=5.0, bound_us=5.0)])
    w = study.largest_wide(t)
    assert len(w) == 1 and w.size_bytes[0] == 64 << 20
    assert (w.trees[0], w.bound_over_optimum[0]) == (1.05, 0.95)
    assert math.isnan(w.ring[0]) and list(w.columns[-8:]) == [s.replace("-", "_") for s in study.SCHEDULE_ORDER]
    assert study.largest_wide(t, min_size=1 << 30).empty


def test_crossover_table_from_which_size_the_trees_win():
    # trees lose at 1 KiB, win from 16 KiB against the ring; against bfs they win everywhere; no dbtree row
    t = rows(schedule=["trees", "ring", "bfs"] * 3, size_bytes=[1024] * 3 + [16384] * 3 + [65536] * 3,
             time_us=[5.0, 4.0, 6.0, 7.0, 9.0, 8.0, 10.0, 20.0, 30.0])
    c = study.crossover_table(t).iloc[0]
    assert (c.smallest_bytes, c.largest_bytes, c.from_ring, c.from_bfs, c.from_dbtree) == (1024, 65536, 16384, 1024,
                                                                                           -1)


def test_pipeline_estimate_gives_the_recorded_ns3_times():
    # two rows of the record (ns-3, 256 MiB, packets of 65,535 bytes): Slim Fly MMS(7), 5 trees of depth 3, and
    # HyperX 5 x 5 x 5, 6 trees of depth 4. MMS(7): a share of 53,687,092 bytes is 820 packets of 65,473 bytes,
    # 5,238 ns each with the header; (820 + 6 - 1) * 5.238 + 6 = 4,327.35 us.
    t = rows(network=["slimfly", "hyperx"], params=["q=7", "sizes=5,5,5"], routers=[98, 125], schedule="trees",
             size_bytes=256 << 20, trees=[5, 6], max_depth=[3, 4], packet_bytes=65535,
             time_us=[4327.350, 3623.618])
    e = study.pipeline_estimate(t).set_index("network")
    assert e.loc["slimfly", "packets"] == 820 and e.loc["slimfly", "estimate_us"] == pytest.approx(4327.35, abs=1e-6)
    assert e.loc["hyperx", "over_estimate"] == pytest.approx(1.0, abs=2e-4)
    assert e.loc["slimfly", "fill_us"] == pytest.approx(5 * 5.238 + 6, abs=1e-6)


def test_trees_against_optimum_keeps_the_kinds_and_sizes_of_the_target():
    t = rows(network=["a", "a", "b"], schedule="trees", size_bytes=[1 << 20, 16 << 20, 16 << 20],
             time_us=[50.0, 103.0, 150.0], optimum_us=100.0)
    f = pd.DataFrame({"network": ["a", "b"], "params": "n=4", "kind": ["even-degree regular", "odd-degree regular"]})
    out = study.trees_against_optimum(t, f)
    assert out[["network", "size_bytes", "over_optimum"]].values.tolist() == [["a", 16 << 20, 1.03]]


def test_weighted_against_bound_only_where_the_weight_exceeds_the_tree_count():
    # M = 1.25 MB at 12,500 B/us: M / (b sigma) = 100 / sigma us
    t = rows(network=["a", "a", "b", "b"], schedule=["weighted-trees", "trees"] * 2, size_bytes=1250000,
             time_us=[42.0, 50.0, 30.0, 30.0])
    f = pd.DataFrame({"network": ["a", "b"], "params": "n=4", "trees": [2, 3], "weight": ["5/2", "3"],
                      "weight_value": [2.5, 3.0], "strength": [2.5, 3.2], "strength_text": ["5/2", "16/5"]})
    w = study.weighted_against_bound(t, f, min_size=0)
    assert w.network.tolist() == ["a"]
    assert w.iloc[0][["fractional_us", "own_us", "over_fractional", "over_trees"]].tolist() == [40.0, 40.0, 1.05,
                                                                                              0.84]


def test_targets_met_not_met_and_not_yet():
    big = 16 << 20
    t = pd.concat([
        rows(network="a", simulator=["ns3", "simgrid"], schedule="trees", size_bytes=big, time_us=[102.0, 125.0],
             optimum_us=100.0, bound_us=100.0, rings=0),
        rows(network="a", simulator="ns3", schedule="ring", size_bytes=big, time_us=[1500.0], optimum_us=100.0,
             bound_us=100.0, rings=1),
    ])
    f = pd.DataFrame({"network": ["a"], "params": ["n=4"], "kind": ["ER_q"], "trees": [2], "weight": [""],
                      "weight_value": [float("nan")], "strength": [2.0], "strength_text": ["2"]})
    got = study.targets(t, f)
    assert got.met.tolist() == ["yes", "no rows yet", "no", "no"]
    # the ring: own term (3/4) M / b = 1006.63 us, 1.49 times; the simulators: 125 / 102 = 1.2255, beyond 15 %
    assert got.worst[2] == pytest.approx(1500 / round(0.75 * big / 12500, 3), abs=1e-4)
    assert got.worst[3] == pytest.approx(1.2255) and got.worst_case[3] == "a n=4, 16 MiB, trees"
    assert got.limit.tolist() == ["<= 1.03", "<= 1.05", "<= 1.1", "0.85 to 1.15"]
    assert got.cases.tolist() == [1, 0, 1, 1] and got.within.tolist() == [1, 0, 0, 0]


def test_depth_at_small_the_deeper_family_loses():
    t = pd.concat([rows(schedule=["trees", "bfs", "ring"], size_bytes=1024, max_depth=[3, 2, 0],
                        time_us=[6.1, 4.2, 9.0]),
                   rows(network="b", schedule=["trees", "bfs"], size_bytes=1024, max_depth=[2, 2], time_us=[4.1, 4.3]),
                   rows(network="c", schedule=["trees"], size_bytes=1024, max_depth=[2], time_us=[4.1])])
    d = study.depth_at_small(t)
    assert d[["network", "trees_faster", "best"]].values.tolist() == [["b", True, "trees"], ["k", False, "bfs"]]


def test_endpoints_table_both_modes_and_in_network_only():
    t = pd.concat([rows(hosts_per_router=2, mode=["in-network", "host"], ranks=8, schedule="trees",
                        size_bytes=1250000, time_us=[110.0, 150.0], bound_us=100.0),
                   rows(network="b", hosts_per_router=2, mode=["in-network"], ranks=8, schedule="ring",
                        size_bytes=1250000, time_us=[200.0], bound_us=100.0)])
    e = study.endpoints_table(t).set_index("network")
    assert e.loc["k", ["in_network_over_bound", "host_over_bound"]].tolist() == [1.1, 1.5]
    assert math.isnan(e.loc["b", "host_us"]) and e.loc["b", "in_network_over_bound"] == 2.0
    assert study.endpoints_table(t[t.hosts_per_router == 0]).empty


def test_span():
    assert study.span(pd.Series([3.0, 1.0])) == "1.0000..3.0000"
    assert study.span(pd.Series([float("nan")])) == "none"


def test_schedules_figure_prints_with_every_network_and_schedule():
    from starlib.netsim.figures import SCHEDULE_LABELS, schedules_figure
    from starlib.paper.figures import MAX_HEIGHT, TWO_COLUMN, print_faults

    nets = [("slimfly", "q=7", 98), ("polarfly", "q=9", 91), ("bundlefly", "q=5 paley_q=9", 450),
            ("polarstar-iq", "q=8 d=3 loops=1", 584), ("dragonfly", "a=8 p=4 h=4 arrangement=absolute", 264),
            ("fat-tree", "k=8 n=3", 192), ("hyperx", "sizes=5,5,5", 125), ("polarfly", "q=32", 1057)]
    t = pd.concat([rows(network=n, params=p, routers=r, schedule=list(SCHEDULE_LABELS), size_bytes=s,
                        time_us=2.0, optimum_us=1.0, bound_us=0.9) for n, p, r in nets for s in (1024, 1 << 20)])
    fig = schedules_figure(t)
    faults, size = print_faults(fig), fig.get_size_inches()
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    legend = [x.get_text() for x in fig.legends[0].get_texts()]
    matplotlib.pyplot.close(fig)
    assert faults == [] and abs(size[0] - TWO_COLUMN) < 0.01 and size[1] <= MAX_HEIGHT
    assert titles[0] == "PolarFly q=9, 91 routers" and "Dragonfly a=8 h=4, 264 routers" in titles
    assert legend == list(SCHEDULE_LABELS.values()) + ["proved bound"]


def test_ring_efficiency_own_term_blocks_and_step_delays():
    # HyperX 5 x 5 x 5 at 256 MiB (the record's ns-3 rows): one cycle both ways, (124/125) M / b = 21,303.3 us;
    # five cycles, a fifth of it. PolarFly q = 32 at 16 MiB: a block of 7,937 bytes is one packet, 2,112 delays.
    t = rows(network=["hyperx", "hyperx", "polarfly"], params=["sizes=5,5,5", "sizes=5,5,5", "q=32"],
             routers=[125, 125, 1057], schedule=["ring", "multiring", "ring"], rings=[1, 5, 1],
             size_bytes=[256 << 20, 256 << 20, 16 << 20], packet_bytes=[65535, 65535, 8192],
             time_us=[21304.448, 4261.64, 3453.0])
    r = study.ring_efficiency(t).set_index(["network", "schedule"])
    assert r.loc[("hyperx", "ring"), "own_us"] == pytest.approx(124 / 125 * (256 << 20) / 12500, abs=1e-3)
    assert r.loc[("hyperx", "multiring"), "over_own"] == pytest.approx(1.0002, abs=1e-4)
    assert r.loc[("hyperx", "ring"), "block_packets"] == 17  # 1,073,742 bytes in packets of 65,535
    assert r.loc[("polarfly", "ring"), ["block_packets", "steps_delay_us"]].tolist() == [1, 2112.0]


def test_ring_closed_form_against_recorded_times():
    # HyperX 256 MiB: blocks of 17 packets of 63,162 bytes, 5,053 ns each: 248 steps of 85.901 us = 21,303.448 us
    # (ns-3: 21,304.448); PolarFly q = 32 at 16 MiB: one packet of 7,937 bytes a step, 2,112 x (0.635 + 1) us.
    t = rows(network=["hyperx", "polarfly"], params=["sizes=5,5,5", "q=32"], routers=[125, 1057], schedule="ring",
             rings=1, size_bytes=[256 << 20, 16 << 20], packet_bytes=[65535, 8192], time_us=[21304.448, 3453.12])
    r = study.ring_efficiency(t).set_index("network")
    assert r.loc["hyperx", "estimate_us"] == pytest.approx(21303.448, abs=1e-6)
    assert r.loc["polarfly", "estimate_us"] == pytest.approx(2112 * 1.635, abs=1e-6)
    assert r.loc["hyperx", "over_estimate"] == pytest.approx(1.0, abs=1e-4)
