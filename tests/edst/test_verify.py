"""The EDST verifier: each rule is detected, reported for the right tree, and valid sets pass.

The reference for validity is networkx (is_tree on each tree, set intersection of edges), an
independent implementation of the same definitions.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import EDSTSet, Tree, check_edsts, verify_edsts
from starlib.edst.trees import bfs_distances, bfs_tree, tree_center, tree_eccentricities
from starlib.factors import complete
from starlib.graphs import ArrayGraph


def k(n: int) -> ArrayGraph:
    return complete(n)


def walecki_k6() -> list[np.ndarray]:
    # three Hamiltonian paths of K_6 (Walecki), written out by hand
    return [np.array(p) for p in ([[0, 1], [1, 5], [5, 2], [2, 4], [4, 3]],
                                  [[1, 2], [2, 0], [0, 3], [3, 5], [5, 4]],
                                  [[2, 3], [3, 1], [1, 4], [4, 0], [0, 5]])]


def test_valid_set_passes_and_matches_networkx():
    g = k(6)
    trees = walecki_k6()
    rep = verify_edsts(g, trees)
    assert rep.valid and rep.problems == [] and bool(rep)
    assert rep.num_trees == 3 and rep.n == 6 and rep.m == 15
    # independent check
    used = set()
    for t in trees:
        h = nx.Graph([tuple(e) for e in t.tolist()])
        assert nx.is_tree(h) and h.number_of_nodes() == 6
        es = {frozenset(e) for e in t.tolist()}
        assert not (es & used)
        used |= es


@pytest.mark.parametrize("rule, trees, bad_tree", [
    ("size", [[[0, 1], [1, 2], [2, 3], [3, 4]]], 0),
    ("member", [[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]], [[0, 2], [2, 4], [4, 1], [1, 3], [0, 5]]], 1),
    ("disjoint", [[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]], [[0, 2], [1, 2], [2, 4], [1, 3], [3, 5]]], 1),
    ("spanning", [[[0, 1], [1, 2], [0, 2], [3, 4], [4, 5]]], 0),
    ("acyclic", [[[0, 1], [1, 2], [0, 2], [3, 4], [4, 5]]], 0),
    ("repeat", [[[0, 1], [1, 0], [1, 2], [2, 3], [3, 4]]], 0),
    ("loop", [[[0, 0], [0, 1], [1, 2], [2, 3], [3, 4]]], 0),
])
def test_each_rule_is_reported_for_the_right_tree(rule, trees, bad_tree):
    g = ArrayGraph.from_edges(range(6), np.array([e for e in itertools.combinations(range(6), 2)
                                                  if e != (0, 5)]))  # K_6 minus {0,5}
    rep = verify_edsts(g, [np.array(t) for t in trees])
    assert not rep.valid
    assert rep.failed(rule) == [bad_tree], rep.problems
    with pytest.raises(ValueError, match="not an EDST set"):
        check_edsts(g, [np.array(t) for t in trees])


def test_an_index_out_of_range_is_malformed_input_not_a_report():
    g = k(6)
    trees = [np.array(t) for t in walecki_k6()] + [np.array([[0, 9], [0, 1], [1, 2], [2, 3], [3, 4]])]
    with pytest.raises(ValueError, match=r"^trees\[3\]: vertex index 9 is out of range: need indices in 0\.\.5"):
        verify_edsts(g, trees)
    with pytest.raises(ValueError, match=r"^trees\[0\]: vertex index -1 is out of range"):
        check_edsts(g, [np.array([[-1, 0], [0, 1], [1, 2], [2, 3], [3, 4]])])


def test_an_empty_family_is_valid_only_when_asked_for():
    rep = verify_edsts(k(6), [])
    assert not rep.valid and rep.num_trees == 0
    assert rep.failures == [(-1, "empty", "no trees: an empty family proves nothing (pass allow_empty=True to "
                                          "accept it)")]
    assert rep.failed("empty") == [-1] and rep.problems[0].startswith("trees: no trees")
    with pytest.raises(ValueError, match="not an EDST set .trees: no trees"):
        check_edsts(k(6), [])
    assert verify_edsts(k(6), [], allow_empty=True).valid
    assert check_edsts(k(6), [], allow_empty=True).num_trees == 0


def test_disjoint_reports_the_shared_edge():
    g = k(4)
    rep = verify_edsts(g, [np.array([[0, 1], [1, 2], [2, 3]]), np.array([[0, 2], [1, 3], [2, 3]])])
    assert rep.failures == [(1, "disjoint", "shares 1 edge(s) with tree 0, e.g. (2, 3)")]


def test_accepts_tree_objects_edge_arrays_and_bare_edges():
    trees = walecki_k6()
    objs = EDSTSet(Tree(t, 0, "walecki") for t in trees)
    assert verify_edsts(k(6), objs).valid
    assert verify_edsts(k(6).edges, trees).valid           # n inferred
    assert verify_edsts(k(6).edges, trees, n=6).valid
    assert not verify_edsts(k(6).edges, trees, n=7).valid  # vertex 6 not spanned
    assert verify_edsts(k(6), [], allow_empty=True).valid


def test_bad_graph_input_raises():
    with pytest.raises(ValueError, match="n=0"):
        verify_edsts(np.zeros((0, 2), dtype=int), [], n=0)
    with pytest.raises(ValueError, match="graph_or_edges: vertex index 5 is out of range: need indices in 0..2"):
        verify_edsts(np.array([[0, 5]]), [], n=3)
    with pytest.raises(ValueError, match="differs"):
        verify_edsts(k(4), [], n=5)


@settings(max_examples=60)
@given(st.integers(4, 9), st.integers(0, 10**6))
def test_random_edge_sets_agree_with_networkx(n, seed):
    """Random 'trees' (random edge subsets of K_n): the verifier's verdict equals networkx's."""
    rng = np.random.default_rng(seed)
    g = k(n)
    trees = []
    for _ in range(rng.integers(1, 4)):
        size = int(rng.integers(n - 2, n + 1))
        idx = rng.choice(g.m, size=size, replace=False)
        trees.append(g.edges[idx])
    rep = verify_edsts(g, trees)
    ok = True
    used: set = set()
    for t in trees:
        h = nx.Graph()
        h.add_nodes_from(range(n))
        h.add_edges_from(map(tuple, t.tolist()))
        ok &= nx.is_tree(h)
        es = {frozenset(e) for e in t.tolist()}
        ok &= not (es & used)
        used |= es
    assert rep.valid == ok


def test_tree_record_depth_json_and_helpers():
    t = Tree(np.array([[3, 2], [0, 1], [1, 2]]), root=0, construction="path")
    assert t.edges.tolist() == [[0, 1], [1, 2], [2, 3]]
    assert t.depth == 3 and t.n == 4
    js = t.to_json(["a", "b", "c", ("d", 1)])
    assert js == {"root": "a", "edges": [["a", "b"], ["b", "c"], ["c", ["d", 1]]], "depth": 3,
                  "construction": "path"}
    s = EDSTSet([t, Tree(np.array([[0, 1]]), 1, "x")])
    assert s.depths() == [3, 1] and s.counts() == {"path": 1, "x": 1}
    assert tree_eccentricities(4, t.edges).tolist() == [3, 2, 2, 3]
    assert tree_center(4, t.edges) == (1, 2)
    assert bfs_distances(5, t.edges, 2).tolist() == [2, 1, 0, 1, -1]
    assert bfs_tree(4, np.array([[0, 1], [1, 2], [2, 3], [0, 3]]), 0).tolist() == [[0, 1], [0, 3], [1, 2]]
    with pytest.raises(ValueError, match="reaches"):
        bfs_tree(4, np.array([[0, 1]]), 0)


def test_depth_matches_networkx_on_random_trees():
    for seed in range(20):
        tr = nx.random_labeled_tree(30, seed=seed)
        e = np.array(list(tr.edges()))
        t = Tree(e, root=seed % 30)
        assert t.depth == nx.eccentricity(tr, seed % 30)
        assert tree_eccentricities(30, e).tolist() == [nx.eccentricity(tr, v) for v in range(30)]
