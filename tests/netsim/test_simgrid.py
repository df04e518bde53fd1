"""starlib.netsim.simgrid: SimGrid's flow-level model against hand-computed times, wrong schedules refused, and the
same tree allreduce on ns-3.

The hand values: under the configuration of the module (CM02, plain max-min, the propagation delay added after the
bytes), ``b`` bytes alone on a route of bottleneck rate ``r`` and latency ``d`` take ``8 b / r + d``; ``k`` flows on
one link direction get ``r / k`` each, and a flow held back on one link leaves the rest of another to the flows
there (max-min); a stream of ``p`` packets keeps its link busy, so its last packet arrives after ``p`` transfer
times and one delay.
"""

from __future__ import annotations

import numpy as np
import pytest

from starlib.allreduce.schedule import Schedule, ScheduleBuilder
from starlib.netsim.simulate import MIN_PACKET, messages_schedule, tree_messages
from starlib.validation import MissingExtra

pytest.importorskip("cppyy", reason="the 'simulate' extra (cppyy) is not installed")
simgrid = pytest.importorskip("starlib.netsim.simgrid")
try:
    simgrid.simgrid_version()
except MissingExtra as exc:  # the message names the Debian package
    pytest.skip(f"SimGrid is not installed: {exc}", allow_module_level=True)


def ns(nbytes: int, gbps: float = 100.0) -> float:
    """Transfer time of ``nbytes`` at ``gbps`` in nanoseconds."""
    return 8 * nbytes / gbps


def tree_schedule(n: int, edges: np.ndarray, parents: list, size: int, packet_bytes: int = 8192) -> Schedule:
    """The pipelined reduce + broadcast of :func:`~starlib.netsim.simulate.tree_messages` (100 Gb/s, 1 us links)."""
    return messages_schedule(n, edges, *tree_messages(parents, size, packet_bytes))


def test_a_stream_on_one_link_is_its_bytes_over_the_rate_plus_one_delay():
    # 3 packets of 1500 bytes at 10 Gb/s, 2.5 us: back to back, the last one arrives after 3 x 1200 ns + 2500 ns
    b = ScheduleBuilder(2, np.array([[0, 1]]), [10.0], [2.5], chunk_bytes=[1500, 1500, 1500])
    b.add([0, 1], [0, 1, 2], own=True, final=True)
    b.add([1, 0], [0, 1, 2], own=True)
    r = simgrid.simulate_schedule(b.build("stream", size=4500), check=False)
    assert r.time_ns == round(3 * ns(1500, 10.0) + 2500)
    assert (r.hops, r.messages) == (6, 2)


def test_flows_on_one_link_share_it_max_min_and_the_other_direction_is_free():
    # A (b bytes) and B (3 b) leave 0 together: half the rate each until A is done at 2 ser, then B alone for its
    # remaining 2 b: 4 ser. C (4 b) goes the other way alone: 4 ser too; any sharing of the two directions (one
    # capacity, or acknowledgements' cross-traffic) would make C later than that.
    b0 = 10_000
    b = ScheduleBuilder(2, np.array([[0, 1]]), [100.0], [1.0], chunk_bytes=[b0, 3 * b0, 4 * b0])
    b.add([0, 1], [0])
    b.add([0, 1], [1])
    b.add([1, 0], [2])
    r = simgrid.simulate_schedule(b.build("share", size=8 * b0), check=False)
    assert r.time_ns == round(4 * ns(b0) + 1000)


def test_a_two_hop_flow_is_one_flow_over_its_links_under_max_min():
    # X goes 0-1-2; Z1, Z2 go 1-2, so X gets a third of link 1-2 and of link 0-1, where Y (0-1) gets the other two
    # thirds (max-min: not half). All of b bytes but Y of 3 b: X, Z1, Z2 end at 3 ser (X after both delays); Y has
    # moved 2 b by then and moves its last b alone: 4 ser + one delay, the last arrival. Equal halves on 0-1 would
    # give Y 4.5 ser.
    b0 = 100_000
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [100.0], [1.0], chunk_bytes=[b0, 3 * b0])
    b.add([0, 1, 2], [0])
    b.add([0, 1], [1])
    b.add([1, 2], [0])
    b.add([1, 2], [0])
    r = simgrid.simulate_schedule(b.build("path", size=3 * b0), check=False)
    assert r.time_ns == round(4 * ns(b0) + 1000)
    assert r.hops == 5


def test_each_message_follows_its_own_path_between_the_same_two_nodes():
    # 0 -> 2 directly, 0 -> 1 -> 2, and 0 -> 1 -> 0 (back to its source): the last two share the direction 0 -> 1,
    # so both move at half the rate: 2 ser and both of their delays; the direct one is alone (ser + d). Were the
    # second routed like the first, it would arrive after one delay, and the hop count would not be 1 + 2 + 2.
    b0 = 10_000
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2], [0, 2]]), [100.0], [1.0], chunk_bytes=[b0])
    for path in ([0, 2], [0, 1, 2], [0, 1, 0]):
        b.add(path, [0])
    r = simgrid.simulate_schedule(b.build("paths", size=b0), check=False)
    assert (r.time_ns, r.hops) == (round(2 * ns(b0) + 2000), 5)


@pytest.mark.parametrize("batch", [1, 4])
def test_a_tree_allreduce_on_a_star_pipelines_packets_or_batches(batch):
    # star K_{1,3} rooted at its centre, p packets: a batch of k packets moves in k ser and releases the root's
    # next k, so the last arrives after (p + k) ser and two delays (k = 1: 2 (d + ser) + (p - 1) ser, as on ns-3
    # without the header); every leaf ends with all 4 contributions (checked)
    p, pb = 8, 8192
    s = tree_schedule(4, np.array([[0, 1], [0, 2], [0, 3]]), [np.array([-1, 0, 0, 0])], p * pb, packet_bytes=pb)
    run = simgrid.run_schedule(s, batch=batch)
    assert run.result.time_ns == round((p + batch) * ns(pb) + 2000)
    assert run.result.hops == 6 * p and run.transfers == 6 * p // batch
    assert (run.batch, run.chain) == (batch, 2)  # leaf -> centre -> leaf: two packets on every dependency chain


@pytest.mark.parametrize(("p", "k"), [(99, 1), (300, 4)])
def test_the_default_batch_is_one_plus_a_hundredth_of_a_stream_per_link_of_the_longest_chain(p, k):
    # the star of the test above with p packets of MIN_PACKET bytes: the chain is 2 packets (one link between them),
    # so every stream of p packets gets k = 1 + floor(p / 100); the pipeline then holds k packets per hop: (p + k)
    # transfer times and two delays, (k - 1) transfer times more than batch=1, at most p / 100 of them (1 %)
    s = tree_schedule(4, np.array([[0, 1], [0, 2], [0, 3]]), [np.array([-1, 0, 0, 0])], p * MIN_PACKET,
                      packet_bytes=MIN_PACKET)
    run = simgrid.run_schedule(s)
    assert (run.batch, run.chain) == (k, 2)
    assert run.result.time_ns == round((p + k) * ns(MIN_PACKET) + 2000)
    assert run.transfers == 6 * -(-p // k) and run.result.hops == 6 * p
    assert run.result.time_ns - round((p + 1) * ns(MIN_PACKET) + 2000) <= 0.01 * p * ns(MIN_PACKET) + 1  # + rounding


def test_polarfly_trees_are_the_contention_free_pipeline_at_batch_1_and_within_1_percent_by_default():
    # PolarFly ER_7 (57 routers), its 4 shallow EDSTs (edge-disjoint: every link direction carries one stream, no
    # sharing), 16 MiB: p = 512 packets of 8 KiB per tree, and the deepest tree (depth h) decides: a packet climbs h
    # links and comes down h, so (p + (2h - 1) k) transfer times + 2h delays with k packets per hop. The default
    # gives the chain of 2h packets k = 1 + 512 // (100 (2h - 1)).
    from starlib.api import edsts, network

    G = network("polarfly", q=7)
    T = edsts(G, method="shallow")
    h = max(int(t.depth) for t in T)
    p = (16 << 20) // len(T) // 8192
    assert p * len(T) * 8192 == 16 << 20
    s = tree_schedule(G.n, G.edges, [t.parent_array() for t in T], 16 << 20)
    exact = simgrid.run_schedule(s, batch=1)
    assert (exact.batch, exact.chain) == (1, 2 * h)
    assert exact.result.time_ns == round((p + 2 * h - 1) * ns(8192) + 2 * h * 1000)
    coarse = simgrid.run_schedule(s)
    k = 1 + p // (100 * (2 * h - 1))
    assert k > 1 and (coarse.batch, coarse.chain) == (k, 2 * h)
    assert coarse.result.time_ns == round((p + (2 * h - 1) * k) * ns(8192) + 2 * h * 1000)
    assert coarse.result.hops == exact.result.hops and coarse.transfers < exact.transfers
    assert 0 < coarse.result.time_ns - exact.result.time_ns <= 0.01 * exact.result.time_ns


def test_a_schedule_that_loses_a_contribution_or_stalls_is_refused():
    # reduce on the path 0 - 1 - 2 to 1, broadcast back (messages 2 and 3), and 2 echoes what it got (message 4)
    def path_schedule(deps_down2: list[tuple[int, int]]) -> Schedule:
        b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [100.0], chunk_bytes=[1000, 1000])
        up0 = b.add([0, 1], [0, 1], own=True, reduce=True)
        up2 = b.add([2, 1], [0, 1], own=True, reduce=True)
        b.add([1, 0], [0, 1], deps=[(up0, 0), (up2, 0)], own=True, final=True)
        down2 = b.add([1, 2], [0, 1], deps=deps_down2, own=True, final=True)
        b.add([2, 1], [0, 1], deps=[(down2, 0)])
        return b.build("path", size=2000)

    assert simgrid.simulate_schedule(path_schedule([(0, 0), (1, 0)])).messages == 5
    # the broadcast to 2 forgets what came from 0
    with pytest.raises(ValueError, match=r"messages\[3\]: packet 0 delivers the sum of 2 contributions, not of all 3"):
        simgrid.simulate_schedule(path_schedule([(1, 0)]))
    # the broadcast to 2 waits for the echo, which waits for it
    with pytest.raises(ValueError, match=r"messages\[3\]: 0 of 2 packets arrived \(the schedule stalls\)"):
        simgrid.simulate_schedule(path_schedule([(0, 0), (1, 0), (4, 0)]))


def test_the_trees_agree_with_ns3_within_a_few_percent():
    # PolarFly ER_3 (13 routers), its two shallow EDSTs, 1 MiB, one schedule on both simulators: ns-3 stores and
    # forwards 8 KiB packets with a 2-byte header, SimGrid moves their bytes as flows; the same packet transmissions
    pytest.importorskip("ns", reason="ns-3 (the 'simulate' extra) is not installed")
    from starlib.api import edsts, network
    from starlib.netsim import ns3

    G = network("polarfly", q=3)
    s = tree_schedule(G.n, G.edges, [t.parent_array() for t in edsts(G, method="shallow")], 1 << 20)
    sg = simgrid.simulate_schedule(s)
    ref = ns3.simulate_schedule(s)
    assert sg.hops == ref.hops and sg.messages == ref.messages
    assert abs(sg.time_ns - ref.time_ns) <= 0.15 * ref.time_ns


def test_bad_input_and_a_missing_simgrid_are_named(monkeypatch):
    b = ScheduleBuilder(2, np.array([[0, 1]]), [100.0], chunk_bytes=[MIN_PACKET])
    b.add([0, 1], [0])
    s = b.build("x", size=MIN_PACKET)
    with pytest.raises(ValueError, match="batch"):
        simgrid.simulate_schedule(s, batch=0)
    with pytest.raises(ValueError, match="schedule"):
        simgrid.simulate_schedule("trees")
    monkeypatch.setattr(simgrid.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(MissingExtra, match="apt-get install libsimgrid-dev"):
        simgrid.simulate_schedule(s)


@pytest.mark.parametrize(("pace", "batch"), [(50.0, 1), (25.0, 1), (25.0, 4), (400.0, 1)])
def test_a_paced_stream_is_capped_at_its_pace(pace, batch):
    # 8 packets of 1000 bytes from 0 to 1 on a 100 Gb/s, 1 us link, the message paced: each communication flows at
    # min(pace, 100) Gb/s, so the stream's bytes take 8 x 8000 / min(pace, 100) ns and the last one a delay more
    b = ScheduleBuilder(2, np.array([[0, 1]]), [100.0], [1.0], chunk_bytes=[1000] * 8)
    b.add([0, 1], list(range(8)), own=True, pace_gbps=pace)
    r = simgrid.run_schedule(b.build("paced", size=8000), check=False, batch=batch)
    assert r.result.time_ns == round(8 * 8000 / min(pace, 100.0) + 1000)


def test_two_weighted_trees_on_one_link_paced_at_their_share():
    # two routers, two trees of weight 1/2 (rooted at 0 and at 1): each direction carries one tree's reduce and the
    # other's broadcast, each paced at 50 Gb/s, so the two flows of a direction never exceed its 100 Gb/s
    import networkx as nx

    from starlib.allreduce.schedules import build_schedule

    n, b, d = 20, 1000, 960
    kw = dict(trees=[np.array([-1, 0]), np.array([1, -1])], weights=[0.5, 0.5], hosts_per_router=0,
              packet_bytes=b, delay_us=d / 1000)
    paced = build_schedule(nx.path_graph(2), "weighted-trees", 2 * n * b, **kw)
    t = simgrid.run_schedule(paced, batch=1).result.time_ns
    # paced: reduce packet j leaves at 160 j (8000 bits at 50 Gb/s) and arrives 160 + d after it left; the root's
    # broadcast packet j follows at the same pace, d later: 160 n + 2 d for the last one, 160 (n - 1) + 2 (160 + d)
    assert t == 160 * (n + 1) + 2 * d
