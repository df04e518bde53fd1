"""starlib.netsim.ns3: any Schedule on ns-3 against hand-computed times, counts checked, dependency offsets, and
the message wrappers of starlib.netsim.simulate against the committed record data/simulate.csv.

The hand values: ns-3's point-to-point link of rate r sends a packet of P payload bytes plus its 2-byte PPP header
in 8 (P + 2) / r ns (rounded to the nanosecond) and delivers it after the link's propagation delay; a node forwards
a packet once it has received all of it (store and forward), and a device sends its queued packets first in, first
out.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

from starlib.allreduce.schedule import ScheduleBuilder, replay_counts
from starlib.netsim import grid
from starlib.netsim.ns3 import MAX_PACKET, simulate_schedule
from tests.paths import ROOT

pytest.importorskip("cppyy", reason="the 'simulate' extra (cppyy) is not installed")
pytest.importorskip("ns3", reason="the 'simulate' extra (ns3) is not installed")


def ser(payload: int, gbps: float = 100.0) -> int:
    """Serialisation of one packet in ns, rounded as ns-3 does (to the nanosecond)."""
    return round(8 * (payload + 2) / gbps)


def test_one_packet_per_link_is_its_links_delay_plus_size_and_header_over_its_rate():
    # three links of different rates and delays, one packet on each (the last one against the link's row)
    links = np.array([[0, 1], [0, 2], [2, 3]])
    rate, delay = [100.0, 10.0, 25.0], [1.0, 2.5, 0.2]
    for payload, path, link in [(1000, [0, 1], 0), (1500, [0, 2], 1), (8192, [3, 2], 2)]:
        b = ScheduleBuilder(4, links, rate, delay, chunk_bytes=[payload])
        b.add(path, [0], own=True)
        r = simulate_schedule(b.build("one", size=payload))
        assert r.time_ns == round(delay[link] * 1000) + ser(payload, rate[link])
        assert (r.hops, r.messages) == (1, 1)


def test_each_packet_has_its_chunks_bytes():
    b = ScheduleBuilder(2, np.array([[0, 1]]), 100.0, 1.0, chunk_bytes=[1000, 3000, 17])
    b.add([0, 1], [1, 0, 2, 1], own=True)
    r = simulate_schedule(b.build("sizes", size=4017))
    assert r.time_ns == 1000 + 2 * ser(3000) + ser(1000) + ser(17)
    assert r.hops == 4


@pytest.mark.parametrize("rates", [(100.0, 40.0), (40.0, 100.0)])
def test_a_path_of_two_links_is_store_and_forward_and_the_slower_link_sets_the_pace(rates):
    # p packets over 0 -> 1 -> 2: packet i (1-based) reaches 1 at i s1 + d1; link 1-2 sends it when it has arrived
    # and the link is free; computed here by that recurrence, then checked against the closed form
    p, size, (r1, r2), (d1, d2) = 5, 4000, rates, (1000, 300)
    s1, s2 = ser(size, r1), ser(size, r2)
    free = 0
    for i in range(1, p + 1):
        free = max(i * s1 + d1, free) + s2
    assert free + d2 == d1 + d2 + (s1 + p * s2 if s2 >= s1 else p * s1 + s2)
    b = ScheduleBuilder(3, np.array([[1, 0], [1, 2]]), [r1, r2], [d1 / 1000, d2 / 1000], chunk_bytes=[size])
    b.add([0, 1, 2], [0] * p, own=True)
    r = simulate_schedule(b.build("path", size=p * size))
    assert r.time_ns == free + d2
    assert r.hops == 2 * p


def test_two_messages_on_one_link_queue_first_in_first_out():
    # A (2 packets) then B (2 packets) leave 0 for 1 together: B's first packet is third on the link and reaches 1
    # at 3 s + d; C (one packet on the slow, long link 1-2) waits for it: 3 s + d + s_C + d_C, after B's last
    # packet (4 s + d). Were B first, or the two interleaved, C would arrive 2 s or 1 s earlier.
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), [100.0, 10.0], [1.0, 5.0], chunk_bytes=[8192, 100])
    b.add([0, 1], [0, 0], own=True)
    m = b.add([0, 1], [0, 0], own=True)
    b.add([1, 2], [1], deps=[(m, 0)], own=True)
    r = simulate_schedule(b.build("fifo", size=8192))
    assert r.time_ns == 3 * ser(8192) + 1000 + ser(100, 10.0) + 5000
    assert r.hops == 5


def ring3(offsets: bool = True) -> ScheduleBuilder:
    """Ring allreduce of 3 ranks on the triangle, one chunk per rank, written by hand with dependency offsets.

    Rank i sends to i + 1 a reduce-scatter stream rs_i (packet j carries chunk i - j, j = 0, 1) and an allgather
    stream ag_i (packet j carries chunk i - 2 - j). rs_i's packet 1 waits for rs_{i-1}'s packet 0 (offset -1);
    ag_i's packet 0 waits for rs_{i-1}'s packet 1 (offset +1) and adds the rank's own part (1 + 2 = 3
    contributions); ag_i's packet 1 forwards ag_{i-1}'s packet 0 (offset -1).
    """
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2], [2, 0]]), 100.0, 1.0, chunk_bytes=[1000, 1000, 1000])
    rs = [b.add([i, (i + 1) % 3], [i, (i - 1) % 3], deps=[(((i - 1) % 3), -1 if offsets else 0)], own=True,
                reduce=True) for i in range(3)]
    for i in range(3):
        b.add([i, (i + 1) % 3], [(i - 2) % 3, (i - 3) % 3], deps=[(rs[(i - 1) % 3], 1), (3 + (i - 1) % 3, -1)],
              own=(0, 1), final=True)
    return b


def test_dependency_offsets_run_a_three_rank_ring():
    s = ring3().build("ring3", size=3000)
    assert replay_counts(s) == 6  # the counts, without a simulator
    r = simulate_schedule(s)
    # four steps, each one packet over one link after the previous step's packet arrived
    assert r.time_ns == 4 * (1000 + ser(1000))
    assert (r.hops, r.messages) == (12, 6)


def test_a_wrong_schedule_is_refused_with_the_message_named():
    # offsets 0 instead of -1: rs_i's packet 0 waits for rs_{i-1}'s packet 0, a cycle: nothing ever leaves
    s = ring3(offsets=False).build("stall", size=3000)
    with pytest.raises(ValueError, match="never leaves"):
        replay_counts(s)
    with pytest.raises(ValueError, match=r"messages\[0\] \(0->1\): 0 of 2 packets arrived \(the schedule stalled"):
        simulate_schedule(s)
    # reduce then broadcast on the path 0 - 1 - 2 rooted at 1, the root forgetting its own part on one side
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 100.0, 1.0, chunk_bytes=[1024])
    up0 = b.add([0, 1], [0], own=True, reduce=True)
    up2 = b.add([2, 1], [0], own=True, reduce=True)
    b.add([1, 0], [0], deps=[(up0, 0), (up2, 0)], own=True, final=True)
    b.add([1, 2], [0], deps=[(up0, 0), (up2, 0)], own=False, final=True)
    s = b.build("lost", size=1024)
    with pytest.raises(ValueError, match="2 contributions"):
        replay_counts(s)
    with pytest.raises(ValueError, match=r"messages\[3\]: packet 0 delivers the sum of 2 contributions, not of all "
                                         r"n=3 ranks"):
        simulate_schedule(s)
    assert simulate_schedule(s, check=False).time_ns == 2 * (1000 + ser(1024))


def test_bad_input_names_the_parameter():
    b = ScheduleBuilder(2, np.array([[0, 1]]), 100.0, 1.0, chunk_bytes=[MAX_PACKET + 1])
    b.add([0, 1], [0], own=True)
    with pytest.raises(ValueError, match=r"chunk_bytes\[0\]=65536: every chunk is one packet of at most 65535"):
        simulate_schedule(b.build("big", size=MAX_PACKET + 1))
    with pytest.raises(ValueError, match="schedule"):
        simulate_schedule("ring")


def test_every_schedule_of_the_comparison_runs_with_its_counts_and_no_faster_than_its_busiest_link():
    # the schedule builders on a small graph with two hosts per router: the engine agrees with the count replay
    # (no stall, all sums), makes one transmission per packet per hop, and cannot beat the serialisation of the
    # busiest link direction (its bytes plus 2 header bytes per packet at 100 Gb/s)
    import networkx as nx

    from starlib.allreduce.schedules import build_schedule

    G = nx.circulant_graph(10, [1, 3])
    for name in ("bfs", "ring", "ring-sp", "dbtree", "halving-doubling"):
        s = build_schedule(G, name, 40_000, hosts_per_router=2, packet_bytes=4096)
        assert replay_counts(s) == s.messages
        r = simulate_schedule(s)
        hops = np.diff(s.path_ptr) - 1
        assert r.hops == int((s.packets * hops).sum()), name
        pk = np.zeros((s.links.shape[0], 2), dtype=np.int64)  # packets per link direction
        a = np.delete(s.path_nodes, s.path_ptr[1:] - 1)
        c = np.delete(s.path_nodes, s.path_ptr[:-1])
        key = {(int(u), int(v)): (i, 0) for i, (u, v) in enumerate(s.links)}
        key.update({(int(v), int(u)): (i, 1) for i, (u, v) in enumerate(s.links)})
        for u, v, k in zip(a.tolist(), c.tolist(), np.repeat(s.packets, hops).tolist(), strict=True):
            pk[key[(u, v)]] += k
        busiest = (s.link_bytes() + 2 * pk) * 8 / 100.0
        assert r.time_ns >= busiest.max(), name


@pytest.fixture(scope="module")
def slimfly():
    return grid.build("slimfly")


@pytest.mark.parametrize("algorithm", grid.ALGORITHMS)
@pytest.mark.parametrize("size", [2 ** 10, 2 ** 24])
def test_the_message_wrappers_rerun_the_committed_record(slimfly, algorithm, size):
    with open(ROOT / "data" / "simulate.csv", newline="") as f:
        want = next(r for r in csv.DictReader(f) if r["network"] == "slimfly" and r["algorithm"] == algorithm
                    and r["size_bytes"] == str(size))
    got = grid.case(*slimfly, algorithm, size)
    assert {k: str(v) for k, v in got.items()} == {k: want[k] for k in got}
