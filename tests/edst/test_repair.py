"""Repair after link failures against independent sources: the from-scratch exact packing of the damaged graph
(its count, and the brute-force Nash-Williams-Tutte minimum over all vertex partitions on small graphs), the
verifier on every returned family, a brute-force search of the reattaching links for the shallowest one, and
planted bad inputs."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.edst import generic_packing, repair_edsts, verify_edsts
from starlib.edst.forest_union import ForestUnion
from starlib.edst.packing import partition_bound
from starlib.edst.repair import label_index, parse_link
from starlib.edst.trees import bfs_distances
from starlib.graphs import ArrayGraph
from tests.edst.test_packing import nash_williams_tutte


def damaged(g: ArrayGraph, failed: np.ndarray) -> ArrayGraph:
    """The graph without the failed links, built independently of the repair (networkx)."""
    h = g.to_networkx()
    h.remove_edges_from([(g.labels[u], g.labels[v]) for u, v in failed.tolist()])
    return ArrayGraph.from_networkx(h)


def check(g: ArrayGraph, trees, failed: np.ndarray, brute: bool = False):
    r = repair_edsts(g, trees, failed)
    h = damaged(g, failed)
    assert np.array_equal(r.graph.edges, h.edges)
    assert verify_edsts(h, r.trees, allow_empty=True).valid
    scratch = generic_packing(h).count if nx.is_connected(h.to_networkx()) else 0
    assert r.count_after == scratch == r.upper_bound
    if brute:
        assert r.count_after == nash_williams_tutte(h.n, [tuple(x) for x in h.edges.tolist()])
    if r.bound_kind == "partition":
        assert partition_bound(h.edges, r.certificate) == r.count_after
    if r.bound_kind == "disconnected":
        assert partition_bound(h.edges, r.certificate) == 0
    return r


@pytest.mark.parametrize("seed", range(30))
def test_small_random_graphs_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 8))
    g = nx.gnp_random_graph(n, float(rng.uniform(0.5, 0.95)), seed=seed)
    if not nx.is_connected(g) or g.number_of_edges() < n:
        g = nx.complete_graph(n)
    G = ArrayGraph.from_networkx(g)
    trees = generic_packing(G).trees
    f = G.edges[rng.choice(G.m, int(rng.integers(1, min(4, G.m) + 1)), replace=False)]
    check(G, trees, f, brute=True)


@pytest.mark.parametrize("name,params", [("slimfly", {"q": 5}), ("slimfly", {"q": 7}), ("torus", {"sizes": "4,4"}),
                                         ("bundlefly", {"q": 4, "paley_q": 5}), ("hypercube", {"n": 4})])
def test_networks_one_to_eight_failures_against_scratch(name, params):
    G = starlib.network(name, **params)
    trees = starlib.edsts(G)
    rng = np.random.default_rng(7)
    for nf in range(1, 9):
        r = check(G, trees, G.edges[rng.choice(G.m, nf, replace=False)])
        assert r.count_before == len(trees)
        undamaged = [i for i in range(len(trees)) if i not in r.damaged]
        if not r.repacked:  # the trees that lost no link are the input's own objects, but those an exchange changed
            assert sum(any(t is trees[i] for t in r.trees) for i in undamaged) == r.kept
            assert r.kept >= len(undamaged) - r.exchanged


def test_reattach_takes_the_shallowest_unused_link():
    """Every single failure in a tree of Slim Fly MMS(7): when an unused link can rejoin the cut subtree, the repaired
    tree is as shallow as the best such link allows (all candidates tried by brute force)."""
    G = starlib.network("slimfly", q=7)
    trees = starlib.edsts(G)
    n, t0 = G.n, trees[0]
    used = {tuple(x) for t in trees for x in t.edges.tolist()}
    free = [tuple(x) for x in G.edges.tolist() if tuple(x) not in used]
    tried = 0
    for cut in t0.edges.tolist()[::7]:
        rest = np.array([x for x in t0.edges.tolist() if x != cut])
        d = bfs_distances(n, rest, t0.root)
        cands = [c for c in free if (d[c[0]] < 0) != (d[c[1]] < 0)]
        r = repair_edsts(G, trees, np.array([cut]))
        assert r.count_after == len(trees)
        if not cands or r.repacked:
            continue
        best = min(int(bfs_distances(n, np.vstack([rest, [c]]), t0.root).max()) for c in cands)
        assert r.reattached == 1 and r.trees[0].root == t0.root
        assert r.trees[0].depth == best, cut
        tried += 1
    assert tried >= 5


def test_count_drops_with_a_partition_certificate():
    """Two K_5 joined by two links pack 2 trees; one of the joining links fails: 1 tree, the two halves certify."""
    g = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    g.add_edges_from([(0, 5), (1, 6)])
    G = ArrayGraph.from_networkx(g)
    p = generic_packing(G)
    assert p.count == 2
    r = check(G, p.trees, np.array([[0, 5]]), brute=False)
    assert (r.count_before, r.count_after, r.bound_kind, r.repacked) == (2, 1, "partition", True)
    assert sorted(np.bincount(r.certificate).tolist()) == [5, 5]


def test_count_drops_at_a_vertex_of_that_degree():
    """K_5 plus a vertex joined to three of it: 3 trees would need ... the new vertex has degree 3; the count is
    min(floor(13/5), 3) = 2. A failed link at that vertex leaves degree 2: still 2, and a second one leaves 1."""
    g = nx.complete_graph(5)
    g.add_edges_from([(5, 0), (5, 1), (5, 2)])
    G = ArrayGraph.from_networkx(g)
    trees = generic_packing(G).trees
    assert len(trees) == 2
    r = check(G, trees, np.array([[0, 5]]), brute=True)
    assert r.count_after == 2
    r = check(G, trees, np.array([[0, 5], [1, 5]]), brute=True)
    assert (r.count_after, r.bound_kind) == (1, "degree")


def test_failures_that_disconnect_leave_no_tree():
    G = starlib.network("torus", sizes="3,3")
    trees = starlib.edsts(G)
    v = G.index()[(1, 1)]
    cut = G.edges[(G.edges == v).any(axis=1)]  # the four links of one vertex
    r = check(G, trees, cut)
    assert (r.count_after, r.bound_kind, len(r.trees), r.depth_after) == (0, "disconnected", 0, 0)
    assert np.bincount(r.certificate).tolist() == [8, 1]


def test_kept_trees_reattached_roots_and_summary():
    G = starlib.network("slimfly", q=5)
    trees = starlib.edsts(G)
    f = trees[1].edges[:1]
    r = repair_edsts(G, trees, f)
    assert r.damaged == [1] and r.trees[0] is trees[0] and r.trees[2] is trees[2]
    assert r.trees[1].root == trees[1].root and r.trees[1].construction.endswith("+repair")
    assert r.summary().startswith("1 link failed, 1 tree damaged: 3 -> 3 trees")
    deep = repair_edsts(G, trees, f, deep=True)
    assert verify_edsts(deep.graph, deep.trees).valid and deep.depth_after <= max(t.depth for t in r.trees)


def test_warm_start_gives_the_cold_count_and_keeps_a_full_start():
    for seed in range(10):
        g = nx.gnp_random_graph(12, 0.6, seed=seed)
        G = ArrayGraph.from_networkx(g)
        cold = generic_packing(G)
        start = np.full(G.m, -1)
        if cold.count:
            start = cold.trees.edge_trees(G)
        warm = generic_packing(G, start=start)
        assert warm.count == cold.count and np.array_equal(warm.origin, np.arange(cold.count))
        assert [t.edges.tolist() for t in warm.trees] == [t.edges.tolist() for t in cold.trees]
        assert cold.origin is None
    with pytest.raises(ValueError, match="closes a cycle in start forest 0"):
        ForestUnion(3, np.array([[0, 1], [1, 2], [0, 2]]), 1, start=np.array([0, 0, 0]))
    with pytest.raises(ValueError, match="start: need one forest index"):
        ForestUnion(3, np.array([[0, 1], [1, 2], [0, 2]]), 1, start=np.array([0, 3, 0]))


def test_link_syntax():
    idx = label_index([(0, 1), (0, 2), "a-b", "a", "b", -1, "x y"])
    assert parse_link("[0,1]-[0, 2]", idx) == (0, 1)
    assert parse_link("(0, 1)-(0,2)", idx) == (0, 1)
    assert parse_link('"a-b"-a', idx) == (2, 3)
    assert parse_link("-1-a", idx) == (5, 3)
    with pytest.raises(ValueError, match="ambiguous"):
        parse_link("a-b-a", label_index(["a-b", "a", "b-a"]))  # 'a-b' and 'a', or 'a' and 'b-a'
    assert parse_link("a-b-a", idx) == (2, 3)  # 'b-a' is no label of idx: one reading
    with pytest.raises(ValueError, match="vertex 'c' is not in the network"):
        parse_link("a-c", idx)
    with pytest.raises(ValueError, match="same vertex"):
        parse_link("a-a", idx)
    with pytest.raises(ValueError, match="written U-V"):
        parse_link("ab", idx)


@pytest.mark.parametrize("fail,match", [
    ([(0, 9)], "vertex 9 is not in the network"),
    ([(0, 1), (1, 0)], "named twice"),
    ([], "no link given"),
    (["0-2"], "are not linked"),
    ("0-1", "must be a list of links"),
])
def test_bad_input(fail, match):
    G = ArrayGraph.from_networkx(nx.cycle_graph(5))
    trees = generic_packing(G).trees
    with pytest.raises(ValueError, match=match):
        starlib.repair(G, trees, fail)


def test_bad_trees():
    G = ArrayGraph.from_networkx(nx.complete_graph(4))
    with pytest.raises(ValueError, match="no tree given"):
        repair_edsts(G, [], [[0, 1]])
    with pytest.raises(ValueError, match="shares a link"):
        repair_edsts(G, [[(0, 1), (1, 2), (2, 3)]] * 2, [[0, 1]])
    with pytest.raises(ValueError, match="has 2 edges"):
        repair_edsts(G, [[(0, 1), (1, 2)]], [[0, 1]])
    with pytest.raises(ValueError, match="not a link"):
        repair_edsts(ArrayGraph.from_networkx(nx.path_graph(4)), [[(0, 1), (1, 2), (0, 3)]], [[0, 1]])
    with pytest.raises(ValueError, match="not an EDST set"):  # n - 1 links of the graph, with a cycle: the verifier
        repair_edsts(G, [[(0, 1), (1, 2), (0, 2)]], [[2, 3]])


def test_repair_trials_of_notebook_08():
    """The resilience helper: the repaired count of every trial against a from-scratch packing of the damaged
    network rebuilt from the recorded failed links, intact trees counted by hand, and seeded sets."""
    from starlib.allreduce.resilience import repair_trials

    G = starlib.network("slimfly", q=4)
    trees = starlib.edsts(G)
    r = repair_trials(G, trees, 4, 5, seed=3)
    again = repair_trials(G, trees, 4, 5, seed=3)
    assert all(np.array_equal(r[k], again[k]) for k in r)
    used = [{tuple(x) for x in t.edges.tolist()} for t in trees]
    for t in range(5):
        ids = r["failed_edges"][t]
        keep = np.ones(G.m, dtype=bool)
        keep[ids] = False
        h = ArrayGraph.from_edges(G.labels, G.edges[keep])
        assert r["repaired"][t] == generic_packing(h).count == r["bound"][t] == 2  # 96 - 4 links < 3 x 31
        failed = {tuple(x) for x in G.edges[ids].tolist()}
        assert r["intact"][t] == sum(1 for u in used if not (u & failed))
    with pytest.raises(ValueError, match="failed"):
        repair_trials(G, trees, 0, 5, seed=3)
