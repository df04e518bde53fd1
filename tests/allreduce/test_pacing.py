"""Pacing in starlib.allreduce: the Schedule's per-message rate (checked, ignored by the count replay) and the rate
build_schedule gives each tree, against the rule written out here by hand from the trees' edges and weights (a
tree's weight over the largest total weight of the trees through any link it uses, times the link's rate; with
hosts, also its share of the buffer over a host link, which carries every tree).
"""

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce.schedule import ScheduleBuilder, replay_counts
from starlib.allreduce.schedules import build_schedule
from starlib.api import edsts, network
from starlib.graphs import as_graph
from starlib.netsim.simulate import bfs_parents


def two_link_builder() -> ScheduleBuilder:
    return ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 100.0, 1.0, chunk_bytes=[1000])


def test_pace_is_stored_per_message_and_defaults_to_unpaced():
    b = two_link_builder()
    b.add([0, 1, 2], [0, 0], own=True, pace_gbps=25.0)
    b.add([2, 1], [0], own=True)
    s = b.build("x", size=1000)
    assert s.pace_gbps.dtype == np.float64 and s.pace_gbps.tolist() == [25.0, 0.0]
    assert replay_counts(s) == 2  # pacing changes no dependency and no count


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_a_negative_or_non_finite_pace_is_refused_naming_the_message(bad):
    b = two_link_builder()
    b.add([0, 1], [0], own=True)
    b.add([1, 2], [0], own=True, pace_gbps=bad)
    with pytest.raises(ValueError, match=r"messages\[1\]: pace_gbps=.* finite rate >= 0"):
        b.build("bad", size=1000)


def hand_rates(parents, weights, link_gbps=100.0):
    """Per tree: link_gbps * w_t / (largest total weight of the trees through any edge of tree t)."""
    load = {}
    for par, w in zip(parents, weights, strict=True):
        for v, p in enumerate(par.tolist()):
            if p >= 0:
                e = (min(v, p), max(v, p))
                load[e] = load.get(e, 0.0) + w
    out = []
    for par, w in zip(parents, weights, strict=True):
        top = max(load[(min(v, p), max(v, p))] for v, p in enumerate(par.tolist()) if p >= 0)
        out.append(link_gbps * w / top)
    return out


def test_each_tree_is_paced_at_its_weight_over_the_busiest_link_it_uses():
    g = network("polarfly", q=3)
    parents = [bfs_parents(g.n, g.edges, r) for r in (0, 5, 9)]  # breadth-first trees: they share links
    w = [1.0, 2.0, 5.0]
    s = build_schedule(g, "weighted-trees", 8000, trees=parents, weights=w, packet_bytes=256, hosts_per_router=0)
    want = hand_rates(parents, w)
    assert s.meta["pace"] is True
    assert s.meta["tree_pace_gbps"] == pytest.approx(want, rel=1e-12)
    # every message of tree t at tree t's rate: messages are built tree by tree, 2 (n - 1) each
    per_tree = np.repeat(np.array(want), 2 * (g.n - 1))
    np.testing.assert_allclose(s.pace_gbps, per_tree, rtol=1e-12)
    # no link direction is paced beyond its rate
    load = np.zeros(2 * s.links.shape[0])
    np.add.at(load, s.hop_directions(), np.repeat(s.pace_gbps, np.diff(s.path_ptr) - 1))
    assert load.max() <= 100.0 * (1 + 1e-12)
    assert replay_counts(s) == s.messages


@pytest.mark.parametrize(("host_gbps", "host_bound"), [(100.0, True), (800.0, False)])
def test_with_hosts_a_tree_is_paced_no_faster_than_its_share_of_a_host_link(host_gbps, host_bound):
    # in-network with one host per router: every host link carries the whole buffer up (and down), each tree its
    # share, so a tree gets host_gbps * share / size of it; at 100 Gb/s that binds (the trees' total weight on a
    # router link never exceeds the sum of all weights), at 800 Gb/s the router links do
    g = network("polarfly", q=3)
    parents = [bfs_parents(g.n, g.edges, r) for r in (0, 5, 9)]
    w = [1.0, 2.0, 5.0]
    s = build_schedule(g, "weighted-trees", 8000, trees=parents, weights=w, packet_bytes=256, host_gbps=host_gbps)
    router = hand_rates(parents, w)
    host = [host_gbps * x / sum(w) for x in w]
    assert s.meta["tree_pace_gbps"] == pytest.approx([min(a, b) for a, b in zip(router, host, strict=True)],
                                                     rel=1e-12)
    assert (s.meta["tree_pace_gbps"] == pytest.approx(host, rel=1e-12)) is host_bound
    assert (s.pace_gbps > 0).all()  # the host streams too: they belong to their tree
    assert replay_counts(s) == s.messages


def test_host_mode_paces_every_message_within_every_link_it_crosses():
    g = network("polarfly", q=3)
    parents = [bfs_parents(g.n, g.edges, r) for r in (0, 5)]
    s = build_schedule(g, "weighted-trees", 4000, trees=parents, weights=[1.0, 1.0], packet_bytes=256,
                       hosts_per_router=2, mode="host")
    hops = np.diff(s.path_ptr) - 1
    load = np.zeros(2 * s.links.shape[0])
    np.add.at(load, s.hop_directions(), np.repeat(s.pace_gbps, hops))
    assert (s.pace_gbps > 0).all() and load.max() <= 100.0 * (1 + 1e-12)
    assert load.max() == pytest.approx(100.0, rel=1e-12)  # the busiest link direction is paced full
    assert replay_counts(s) == s.messages


def test_edge_disjoint_trees_paced_go_at_the_full_link_rate_and_the_option_is_recorded():
    g = network("polarfly", q=3)
    T = edsts(g)
    paced = build_schedule(g, "trees", 6000, trees=T, hosts_per_router=0, pace=True)
    assert paced.meta["tree_pace_gbps"] == [100.0] * len(T)  # one tree per link: all of it
    plain = build_schedule(g, "trees", 6000, trees=T, hosts_per_router=0)
    assert plain.meta["pace"] is False and not plain.pace_gbps.any()
    unpaced = build_schedule(g, "weighted-trees", 6000, trees=T, weights=[1.0] * len(T), hosts_per_router=0,
                             pace=False)
    assert unpaced.meta["pace"] is False and not unpaced.pace_gbps.any()
    for f in ("path_nodes", "chunk_ids", "dep_msg", "dep_off", "own_lo", "own_hi", "final_msg", "chunk_bytes"):
        assert np.array_equal(getattr(unpaced, f), getattr(plain, f))  # equal weights, unpaced: the trees schedule
    assert build_schedule(g, "ring", 6000, hosts_per_router=0, pace=False).meta["pace"] is False


@pytest.mark.parametrize(("kw", "match"), [
    ({"name": "ring", "pace": True}, "pace=True: the 'ring' schedule cannot be paced"),
    ({"name": "trees", "pace": "yes"}, "pace='yes'"),
])
def test_bad_pace_is_refused(kw, match):
    g = as_graph(nx.cycle_graph(8))
    args = dict(kw)
    if args["name"] == "trees":
        args["trees"] = [bfs_parents(8, g.edges, 0)]
    with pytest.raises(ValueError, match=match):
        build_schedule(g, args.pop("name"), 4096, **args)
