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
        failed = G.edges[rng.choice(G.m, nf, replace=False)]
        r = check(G, trees, failed)
        assert r.count_before == len(trees)
        lost = {tuple(x) for x in failed.tolist()}
        undamaged = [i for i, t in enumerate(trees) if not lost & {tuple(x) for x in t.edges.tolist()}]
        assert r.damaged == [i for i in range(len(trees)) if i not in undamaged]
        # the independent test of whether every undamaged tree can stay: the most trees of the damaged network less
        # their links (networkx), plus them, reaches the maximum
        h = damaged(G, failed).to_networkx()
        h.remove_edges_from([(G.labels[u], G.labels[v]) for i in undamaged for u, v in trees[i].edges.tolist()])
        rest = generic_packing(h).count if nx.is_connected(h) else 0
        if len(undamaged) + rest >= r.count_after:
            assert r.kept == undamaged and r.changed == []
        else:
            assert r.changed and len(r.kept) + len(r.changed) == len(undamaged)
        for i in r.kept:  # byte-identical: the input's own object, the same parent array
            t = r.trees[r.source.index(i)]
            assert t is trees[i] and np.array_equal(t.parent_array(), trees[i].parent_array())
        assert sorted(r.kept + r.reattached + r.changed + r.dropped) == list(range(len(trees)))


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
        r = repair_edsts(G, trees, np.array([cut]), deep=False)
        assert r.count_after == len(trees)
        if not cands or r.repacked:
            continue
        best = min(int(bfs_distances(n, np.vstack([rest, [c]]), t0.root).max()) for c in cands)
        assert r.joined == 1 and r.reattached == [0] and r.trees[0].root == t0.root
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
    r = repair_edsts(G, trees, f, deep=False)
    assert r.damaged == [1] and r.trees[0] is trees[0] and r.trees[2] is trees[2]
    assert r.trees[1].root == trees[1].root and r.trees[1].construction.endswith("+repair")
    assert r.summary().startswith("1 link failed, 1 tree damaged: 3 -> 3 trees")
    deep = repair_edsts(G, trees, f, deep=True)
    assert verify_edsts(deep.graph, deep.trees).valid and deep.depth_after <= max(t.depth for t in r.trees)
    assert deep.searched and deep.trees[0] is trees[0] and deep.trees[2] is trees[2]  # the search left them alone
    assert deep.trees[1].construction.endswith("+repair+ls")


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


# A hand-made network: the paths T0 = 0-1-2-3-4 and T1 = 0-2-4-1-3 and one more link, 0-4. 9 links on 5 vertices:
# floor(9/4) = 2 trees; after one failure 8 = 2 x 4, so every remaining link is in a tree and the one spare link,
# 0-4, is all a damaged tree can take without touching the other tree.
HAND_T0 = [(0, 1), (1, 2), (2, 3), (3, 4)]
HAND_T1 = [(0, 2), (2, 4), (1, 4), (1, 3)]
HAND = nx.Graph(HAND_T0 + HAND_T1 + [(0, 4)])


def test_hand_a_cut_tree_rejoined_and_the_other_byte_identical():
    """0-2 fails: T1 falls into {0} and {2, 4, 1, 3}; the spare link 0-4 crosses, so T1 becomes 0-4, 4-2, 4-1, 1-3
    (depth 3 from its root 0, was 4) and T0 stays as it was: 1 kept, 1 reattached, 0 changed."""
    G = ArrayGraph.from_networkx(HAND)
    r = repair_edsts(G, [HAND_T0, HAND_T1], [(0, 2)], deep=False)
    assert (r.kept, r.reattached, r.changed, r.dropped, r.damaged) == ([0], [1], [], [], [1])
    assert r.trees[1].edges.tolist() == [[0, 4], [1, 3], [1, 4], [2, 4]]
    parents = nx.predecessor(nx.Graph(HAND_T0), 0)  # the parent array of T0 rooted at 0, by networkx
    assert r.trees[0].parent_array().tolist() == [-1] + [parents[v][0] for v in range(1, 5)]
    assert np.array_equal(r.trees[0].rows, np.array(HAND_T0))  # the input's own rows, untouched
    assert r.depth_changes() == [(1, 4, 3)] and (r.depth_before, r.depth_after) == (4, 4)
    assert r.summary() == ("1 link failed, 1 tree damaged: 2 -> 2 trees, deepest 4 -> 4 (1 kept, 1 reattached, "
                           "0 changed; depths tree 1 4 -> 3); maximum: 8 links < 3 x 4 (edges bound 2)")


def test_hand_the_count_forces_a_change_and_the_summary_names_it():
    """1-4 fails: T1 falls into {0, 2, 4} and {1, 3}. The spare link 0-4 lies inside {0, 2, 4}; every link across
    is in T0 (0-1, 1-2, 2-3, 3-4), so two trees need a link of T0 in T1 and 0-4 in T0: tree 0 changes."""
    G = ArrayGraph.from_networkx(HAND)
    for deep in (False, True):
        r = repair_edsts(G, [HAND_T0, HAND_T1], [(1, 4)], deep=deep)
        assert (r.kept, r.reattached, r.changed, r.dropped, r.count_after) == ([], [1], [0], [], 2)
        assert [0, 4] in r.trees[0].edges.tolist() and r.repacked and r.searched == deep
        assert verify_edsts(r.graph, r.trees).valid
        assert "0 kept, 1 reattached, 1 changed to keep the count: tree 0;" in r.summary()
        # depths by networkx: each tree's eccentricity from its root
        after = [nx.eccentricity(nx.Graph(t.edges.tolist()), t.root) for t in r.trees]
        assert r.depth_changes() == [(0, 4, after[0]), (1, 4, after[1])] and r.depth_after == max(after)


@pytest.fixture(scope="module")
def dragonfly20():
    """A 20-router Dragonfly (5 groups of K_4, one global link per two groups: 40 links), built with networkx."""
    g = nx.Graph()
    for grp in range(5):
        g.add_edges_from(((grp, a), (grp, b)) for a in range(4) for b in range(a + 1, 4))
    port = {i: 0 for i in range(5)}
    for i in range(5):
        for j in range(i + 1, 5):
            g.add_edge((i, port[i]), (j, port[j]))
            port[i] += 1
            port[j] += 1
    assert (g.number_of_nodes(), g.number_of_edges()) == (20, 40)
    G = ArrayGraph.from_networkx(g)
    return G, starlib.edsts(G, method="shallow")


def test_dragonfly_every_link_of_tree_1(dragonfly20):
    """Each link of tree 1 fails in turn (39 links: still floor(39/19) = 2 trees). Tree 0 can stay exactly when the
    damaged network less tree 0's links is connected (networkx); then it is the input's object, else it is named as
    changed. Depth before and after against networkx's eccentricities."""
    G, trees = dragonfly20
    assert len(trees) == 2
    t0 = {tuple(x) for x in trees[0].edges.tolist()}
    seen = set()
    for u, v in trees[1].edges.tolist():
        r = repair_edsts(G, trees, [(u, v)])
        h = nx.Graph([tuple(x) for x in G.edges.tolist() if tuple(x) not in t0 and (x[0], x[1]) != (u, v)])
        h.add_nodes_from(range(G.n))
        can_keep = nx.is_connected(h)
        seen.add(can_keep)
        assert r.count_after == 2 and r.reattached == [1] and r.dropped == []
        if can_keep:
            assert r.kept == [0] and r.changed == [] and r.trees[0] is trees[0]
            assert np.array_equal(r.trees[0].parent_array(), trees[0].parent_array())
        else:
            assert r.kept == [] and r.changed == [0] and "changed to keep the count: tree 0" in r.summary()
        ecc = [nx.eccentricity(nx.Graph(t.edges.tolist()), t.root) for t in r.trees]
        assert r.depth_after == max(ecc) and r.depths_before == [t.depth for t in trees]
        assert r.depth_before == max(nx.eccentricity(nx.Graph(t.edges.tolist()), t.root) for t in trees)
    assert seen == {True, False}  # both cases occur on this network
