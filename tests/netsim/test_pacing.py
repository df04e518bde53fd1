"""Pacing on ns-3 (starlib.netsim.ns3): paced streams against hand-computed times, and the weighted tree family of
Slim Fly MMS(7) paced against its edge-disjoint trees.

The hand values, as in test_ns3.py: a link of rate r sends a packet of P payload bytes in 8 (P + 2) / r ns (rounded
to the nanosecond) and delivers it after the link's delay; a device sends its queued packets first in, first out. A
message paced at p Gb/s hands packet j to its first link 8 b / p ns after packet j - 1 at the earliest (b the
payload of packet j - 1; the exact times chain, each rounded up to the nanosecond).
"""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce.schedule import ScheduleBuilder, replay_counts
from starlib.allreduce.schedules import build_schedule
from starlib.netsim.ns3 import simulate_schedule

pytest.importorskip("cppyy", reason="the 'simulate' extra (cppyy) is not installed")
pytest.importorskip("ns3", reason="the 'simulate' extra (ns3) is not installed")


def ser(payload: int, gbps: float = 100.0) -> int:
    """Serialisation of one packet in ns, rounded as ns-3 does (to the nanosecond)."""
    return round(8 * (payload + 2) / gbps)


@pytest.mark.parametrize(("n", "b"), [(5, 1000), (40, 8192), (3, 65535)])
def test_a_stream_paced_at_half_the_link_rate_leaves_a_packet_every_two_serialisations(n, b):
    # the last of n packets leaves at (n - 1) 2 (8 b / r) (rounded up) and arrives a serialisation and a delay later
    for pace, last in [(50.0, math.ceil((n - 1) * 8 * b / 50.0)), (25.0, math.ceil((n - 1) * 8 * b / 25.0))]:
        bl = ScheduleBuilder(2, np.array([[0, 1]]), 100.0, 1.0, chunk_bytes=[b])
        bl.add([0, 1], [0] * n, own=True, pace_gbps=pace)
        r = simulate_schedule(bl.build("paced", size=b))
        assert r.time_ns == last + ser(b) + 1000, (n, b, pace)
        assert r.hops == n


def test_a_pace_above_what_the_link_carries_changes_nothing():
    for pace in (0.0, 100.0, 400.0):  # 100 Gb/s of payload is a little less than the link's rate with headers
        bl = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 100.0, 1.0, chunk_bytes=[4000])
        bl.add([0, 1, 2], [0] * 6, own=True, pace_gbps=pace)
        assert simulate_schedule(bl.build("fast", size=4000)).time_ns == 6 * ser(4000) + ser(4000) + 2000


def test_pacing_is_at_the_source_only_the_next_hops_forward_at_once():
    # 4 packets paced at 10 Gb/s over 0 -> 1 -> 2: each leaves 800 ns after the previous, crosses the first link
    # and is forwarded at once on the second (its queue is empty): the last arrives 3 x 800 + 2 (s + d)
    bl = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 100.0, 1.0, chunk_bytes=[1000])
    bl.add([0, 1, 2], [0] * 4, own=True, pace_gbps=10.0)
    r = simulate_schedule(bl.build("source", size=1000))
    assert r.time_ns == 3 * 800 + 2 * (ser(1000) + 1000)


def test_a_paced_message_does_not_wait_behind_another_ones_burst():
    # A and B (n packets each) leave 0 for 1 together; C on the slow link 1 - 2 waits for B's first packet. Unpaced,
    # B's first packet is (n + 1)th in the first-in first-out queue; paced at half the rate each, A and B
    # alternate and B's first packet is second on the link
    n, s = 8, ser(1000)
    for pace, b0 in [(0.0, (n + 1) * s), (50.0, 2 * s)]:
        bl = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [100.0, 10.0], [1.0, 5.0], chunk_bytes=[1000, 100])
        bl.add([0, 1], [0] * n, own=True, pace_gbps=pace)
        m = bl.add([0, 1], [0] * n, own=True, pace_gbps=pace)
        bl.add([1, 2], [1], deps=[(m, 0)], own=True)
        r = simulate_schedule(bl.build("burst", size=1000))
        c_arrives = b0 + 1000 + ser(100, 10.0) + 5000
        last_b = (2 * n * s if pace == 0 else 160 * (n - 1) + 2 * s) + 1000
        assert r.time_ns == max(c_arrives, last_b), pace


def test_two_paced_trees_sharing_a_link():
    # two routers, one link, two trees on it (rooted at 0 and at 1), weight 1/2 each: every link direction carries
    # one tree's reduce and the other's broadcast, so each tree is paced at 50 Gb/s. n packets of 1000 bytes per
    # tree, s = 80 ns, delay d = 960 ns (a multiple of the 160 ns gap, so a broadcast packet fits exactly between
    # two reduce packets of the other tree: nobody waits).
    n, b, d = 20, 1000, 960
    s = ser(b)
    kw = dict(trees=[np.array([-1, 0]), np.array([1, -1])], weights=[0.5, 0.5], hosts_per_router=0,
              packet_bytes=b, delay_us=d / 1000)
    paced = build_schedule(nx.path_graph(2), "weighted-trees", 2 * n * b, **kw)
    assert paced.meta["tree_pace_gbps"] == [50.0, 50.0]
    # reduce packet j leaves at 160 j and arrives at the root at 160 j + s + d; the root's broadcast packet j goes
    # at once (it is due: 160 j + s + d >= 160 (j - 1) + s + d + 160) and arrives s + d later
    assert simulate_schedule(paced).time_ns == 160 * (n - 1) + 2 * (s + d)
    # unpaced: each tree's reduce goes back to back (n s on each direction), and a tree's broadcast waits behind the
    # other tree's whole reduce stream in the queue, then goes back to back: 2 n s + d
    unpaced = build_schedule(nx.path_graph(2), "weighted-trees", 2 * n * b, pace=False, **kw)
    assert not unpaced.pace_gbps.any()
    assert simulate_schedule(unpaced).time_ns == 2 * n * s + d
    assert replay_counts(paced) == replay_counts(unpaced) == 4


def test_weighted_trees_with_equal_weights_unpaced_run_as_the_trees_schedule():
    # on edge-disjoint trees with equal weights, the unpaced weighted schedule is the trees schedule (same shares,
    # same messages), and pacing each tree at its whole link rate (nothing shares a link) changes no packet's time
    from starlib.api import edsts, network

    g = network("polarfly", q=3)
    T = edsts(g)
    base = simulate_schedule(build_schedule(g, "trees", 200_000, trees=T, packet_bytes=4096, hosts_per_router=0))
    for pace in (False, True):
        s = build_schedule(g, "weighted-trees", 200_000, trees=T, weights=[1.0] * len(T), packet_bytes=4096,
                           pace=pace, hosts_per_router=0)
        assert s.meta["tree_pace_gbps" if pace else "pace"] == ([100.0] * len(T) if pace else False)
        assert simulate_schedule(s) == base, pace


def test_the_paced_weighted_family_of_slim_fly_mms7_beats_its_edge_disjoint_trees():
    # Slim Fly MMS(7): 5 edge-disjoint shallow trees, or 11 trees of weight 1/2 (total 5.5) that use every link at
    # most twice; 16 MiB, routers as ranks. The busiest link direction carries M / 5.5 bytes in the weighted family,
    # M / 5 with the disjoint trees. Unpaced, the weighted trees convoy in the shared first-in first-out queues
    # (414,778 ns: the time before the schedule could be paced); paced, each tree at 50 Gb/s, they come within a
    # pipeline fill of their busiest link and beat the disjoint trees.
    from starlib.netsim import comparison as c
    from starlib.netsim.cases import schedule_trees

    key = ("slimfly", (("q", 7),))
    g, T = c.network_graph(*key), c._trees(*key)
    tr, w, depth, total = schedule_trees(g, "weighted-trees", T)
    assert (len(T), len(tr), str(total)) == (5, 11, "11/2")
    size = 16 << 20
    paced = build_schedule(g, "weighted-trees", size, trees=tr, weights=w, hosts_per_router=0)
    unpaced = build_schedule(g, "weighted-trees", size, trees=tr, weights=w, hosts_per_router=0, pace=False)
    disjoint = build_schedule(g, "trees", size, trees=T, hosts_per_router=0)
    assert paced.meta["tree_pace_gbps"] == pytest.approx([50.0] * 11, rel=1e-5)
    t_paced, t_unpaced, t_disjoint = (simulate_schedule(s).time_ns for s in (paced, unpaced, disjoint))
    assert t_unpaced == 414_778
    floor = paced.link_bytes().max() * 8 / 100.0  # ns: the busiest link direction's payload at 100 Gb/s
    assert floor == pytest.approx(size / 5.5 * 8 / 100, rel=1e-4)
    assert t_disjoint > floor * 5.5 / 5  # the disjoint trees' busiest link carries M / 5
    assert floor < t_paced < t_disjoint < t_unpaced
    fill = 2 * depth * (ser(8157) + 1000)  # up and down the deepest tree, a packet and a delay per hop
    assert t_paced <= 1.05 * (floor + fill)
