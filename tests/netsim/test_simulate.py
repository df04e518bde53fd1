"""starlib.netsim on ns-3: the simulator's set-up against hand-computed times, a planted wrong tree, the grid's rings
(the Hamiltonian ring on a cycle by hand, the contended ring against the message lists), and one row of the
committed record data/simulate.csv rerun live.

The hand values: ns-3's point-to-point link sends a packet of P payload bytes plus its 2-byte PPP header at the link
rate and delivers it after the propagation delay, so one packet over one 100 Gb/s, 1 us link arrives after
1000 + 8 (P + 2) / 100 ns (ns-3 rounds to the nanosecond); a store-and-forward chain of h links takes h times that
for one packet, and p back-to-back packets add (p - 1) serialisations.
"""

from __future__ import annotations

import csv

import numpy as np
import pytest

from starlib.netsim import grid
from starlib.netsim.simulate import simulate_messages, simulate_ring, simulate_trees, tree_messages
from tests.paths import ROOT

pytest.importorskip("ns")


def ser(payload: int, gbps: float = 100.0) -> int:
    """Serialisation of one packet in ns, rounded as ns-3 does (to the nanosecond)."""
    return round(8 * (payload + 2) / gbps)


def test_one_packet_over_one_link_is_delay_plus_size_and_header_over_rate():
    for payload, gbps, delay in [(1000, 100.0, 1.0), (8192, 100.0, 1.0), (1500, 10.0, 2.5)]:
        r = simulate_messages(2, np.array([[0, 1]]), [([0, 1], 1, payload, payload, [], 1)], [], gbps, delay)
        assert r.time_ns == round(delay * 1000) + ser(payload, gbps)
        assert r.hops == 1


def test_a_chain_is_store_and_forward_and_packets_pipeline():
    h, p, b = 5, 7, 4000
    e = np.array([[i, i + 1] for i in range(h)])
    r = simulate_messages(h + 1, e, [(list(range(h + 1)), p, b, b, [], 1)], [])
    assert r.time_ns == h * (1000 + ser(b)) + (p - 1) * ser(b)
    assert r.hops == h * p


def test_a_tree_allreduce_on_a_star_matches_the_hand_count():
    # star K_{1,3} rooted at its centre: every leaf sends p packets up (in parallel on its own link), the root
    # sends them down: 2 (1 us + ser) + (p - 1) ser, and the sums reach every leaf
    p, b = 3, 8192
    e = np.array([[0, 1], [0, 2], [0, 3]])
    r = simulate_trees(4, e, [np.array([-1, 0, 0, 0])], p * b, packet_bytes=b)
    assert r.time_ns == 2 * (1000 + ser(b)) + (p - 1) * ser(b)


def test_two_edge_disjoint_paths_halve_the_streaming_part():
    # K_4 holds two edge-disjoint Hamiltonian paths; over one, 8 packets stream behind a depth-3 pipeline; over
    # both, each path carries 4 of them
    e4 = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    p1 = np.array([-1, 0, 1, 2])             # path 0-1-2-3 from 0: links 01 12 23
    p2 = np.array([2, 3, -1, 0])             # path 2-0-3-1 from 2: links 02 03 13
    single = simulate_trees(4, e4, [p1], 8 * 8192).time_ns
    double = simulate_trees(4, e4, [p1, p2], 8 * 8192).time_ns
    assert single == 2 * 3 * (1000 + ser(8192)) + 7 * ser(8192)
    assert double == 2 * 3 * (1000 + ser(8192)) + 3 * ser(8192)


def test_a_ring_on_two_nodes_is_two_steps():
    assert simulate_ring(2, np.array([[0, 1]]), 2000, packet_bytes=1000).time_ns == 2 * (1000 + ser(1000))


@pytest.mark.parametrize("plant", ["cycle", "missing", "non-link"])
def test_a_planted_wrong_tree_fails(plant):
    e = np.array([[0, 1], [1, 2], [2, 3], [3, 0]])
    good = np.array([-1, 0, 1, 2])
    assert simulate_trees(4, e, [good], 5000).time_ns > 0
    bad = {"cycle": np.array([-1, 2, 1, 2]), "missing": np.array([-1, 0, 1, -1]),
           "non-link": np.array([-1, 0, 0, 2])}[plant]
    with pytest.raises(ValueError, match="parents|stalled|not a link|roots"):
        simulate_trees(4, e, [bad], 5000)


def test_a_message_that_loses_a_contribution_is_caught():
    # a tree message set whose root forgets its own part: the sums delivered are n - 1, not n
    msgs, final = tree_messages([np.array([-1, 0, 1])], 100)
    msgs = [m if i != final[0] else (*m[:5], 0) for i, m in enumerate(msgs)]
    with pytest.raises(ValueError, match="sum of 2 contributions, not of all n=3"):
        simulate_messages(3, np.array([[0, 1], [1, 2]]), msgs, final)


def test_one_row_of_the_committed_record_reruns_the_same():
    with open(ROOT / "data" / "simulate.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(grid.NETWORKS) * len(grid.ALGORITHMS) * len(grid.SIZES)
    want = next(r for r in rows if r["network"] == "slimfly" and r["algorithm"] == "shallow"
                and r["size_bytes"] == str(2 ** 16))
    n, e, trees = grid.build("slimfly")
    got = grid.case(n, e, trees, "shallow", 2 ** 16)
    assert {k: str(v) for k, v in got.items()} == {k: want[k] for k in got}
    assert want["simulator"] == grid.simulator_version()


def test_the_ring_on_a_cycle_is_2_n_minus_1_one_link_steps_as_modelled():
    # C_6 is its own Hamiltonian cycle; 12,000 bytes: two rings (one per direction) of 6 blocks of 1,000 bytes, one
    # packet each; every step crosses one link that no other step uses, so the last block arrives after
    # 2 (n - 1) (delay + serialisation), which is also the model's 2 (n - 1) (alpha + beta S / (2n))
    n = 6
    e = np.array([[i, (i + 1) % n] for i in range(n)])
    got = grid.case(n, e, {}, "ring", 12000)
    assert got["sim_us"] == 2 * (n - 1) * (1000 + ser(1000)) / 1000
    assert got["model_us"] == 2 * (n - 1) * (grid.ALPHA_US + 1000 * grid.BETA_US)
    assert got["packet_hops"] == 2 * n * 2 * (n - 1) and (got["trees"], got["max_depth"]) == (0, 0)


@pytest.mark.parametrize("size", [2 ** 10, 2 ** 18])
def test_the_contended_ring_is_the_message_ring_where_a_block_is_one_packet(size):
    # ring-sp (a schedule) against ring_messages (the message lists notebook 15 ran before): the same ring, the same
    # routes; with one packet per block (50 routers, up to 256 KiB) the same packets, so the same time
    n, e, trees = grid.build("slimfly")
    got, old = grid.case(n, e, trees, "ring-sp", size), simulate_ring(n, e, size)
    assert (got["sim_us"], got["packet_hops"]) == (old.time_ns / 1000, old.hops)


def test_bad_input_names_the_parameter():
    e = np.array([[0, 1]])
    with pytest.raises(ValueError, match="packet_bytes"):
        simulate_trees(2, e, [np.array([-1, 0])], 1000, packet_bytes=8)
    with pytest.raises(ValueError, match="size"):
        simulate_ring(2, e, 0)
    with pytest.raises(ValueError, match="algorithm"):
        grid.case(2, e, {}, "tree", 1000)
    with pytest.raises(ValueError, match="network"):
        grid.build("dragonfly")
    with pytest.raises(ValueError, match=r"messages\[0\]: path"):
        simulate_messages(2, e, [([0], 1, 100, 100, [], 1)], [])


def test_the_command_line_refuses_an_unwritable_record_and_writes_nothing(tmp_path, capsys):
    target = tmp_path / "missing" / "simulate.csv"
    assert grid.main(["-o", str(target)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and not target.parent.exists()
