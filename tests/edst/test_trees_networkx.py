"""Trees as networkx objects and parent arrays (Tree.to_networkx, Tree.parent_array, EDSTSet.to_networkx,
EDSTSet.parent_arrays, EDSTSet.edge_trees), checked with networkx's own is_tree and BFS."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import starlib.networks as nw
from starlib.cayley import NETWORK_FAMILIES as CAYLEY
from starlib.edst import auto_trees
from starlib.edst.trees import EDSTSet, Tree

GRAPHS = {"slimfly 5": nw.slimfly(5), "bundlefly 3 5": nw.bundlefly(3, 5), "polarfly 5": nw.polarfly(5)}


@pytest.mark.parametrize("name", GRAPHS)
def test_each_tree_as_networkx_and_as_parent_array(name):
    g = GRAPHS[name]
    trees = auto_trees(g)
    assert len(trees) >= 2
    for t in trees:
        T = t.to_networkx(g.labels)
        assert nx.is_tree(T) and set(T) == set(g.labels)
        assert T.graph == {"root": g.labels[t.root], "construction": t.construction}
        assert {frozenset(e) for e in T.edges()} == {frozenset((g.labels[u], g.labels[v])) for u, v in t.edges}
        pred = dict(nx.bfs_predecessors(T, g.labels[t.root]))
        index = g.index()
        want = [index[pred[v]] if v in pred else -1 for v in g.labels]
        assert t.parent_array().tolist() == want
        assert nx.is_tree(t.to_networkx()) and set(t.to_networkx()) == set(range(g.n))
    assert np.array_equal(trees.parent_arrays(), np.stack([t.parent_array() for t in trees]))


@pytest.mark.parametrize("name", GRAPHS)
def test_the_set_as_the_host_graph_with_a_tree_attribute(name):
    g = GRAPHS[name]
    trees = auto_trees(g)
    H = trees.to_networkx(g)
    G = g.to_networkx()
    assert nx.utils.nodes_equal(H.nodes(), G.nodes()) and nx.utils.edges_equal(H.edges(), G.edges())
    assert H.graph["roots"] == [g.labels[t.root] for t in trees] and H.graph["name"] == g.name
    for i, t in enumerate(trees):
        S = nx.Graph()
        S.add_nodes_from(H)
        S.add_edges_from((u, v) for u, v, k in H.edges(data="tree") if k == i)
        assert nx.is_tree(S)
        assert {frozenset(e) for e in S.edges()} == {frozenset(e) for e in t.to_networkx(g.labels).edges()}
    unused = [k for _, _, k in H.edges(data="tree") if k == -1]
    assert len(unused) == g.m - sum(t.rows.shape[0] for t in trees)
    ids = trees.edge_trees(g)
    assert ids.shape == (g.m,) and np.bincount(ids + 1).tolist()[1:] == [t.rows.shape[0] for t in trees]
    U = trees.to_networkx()  # without the host: the trees' edges only, on vertex indices
    assert set(U) == set(range(g.n)) and U.number_of_edges() == g.m - len(unused)
    assert all(k >= 0 for _, _, k in U.edges(data="tree"))


def test_what_has_no_parent_array_or_no_place_in_the_graph():
    with pytest.raises(ValueError, match="not a spanning tree"):
        Tree(np.array([[0, 1], [2, 3], [3, 2]]), 0).parent_array()
    with pytest.raises(ValueError, match="labels: 2 labels given for n=3 vertices"):
        Tree(np.array([[0, 1], [1, 2]]), 0).to_networkx(["a", "b"])
    g = nw.slimfly(3)
    t = auto_trees(g)
    v = next(v for v in range(1, g.n) if [0, v] not in g.edges.tolist())
    with pytest.raises(ValueError, match=rf"tree 1 has the edge \(0, {v}\), which is not in the graph"):
        EDSTSet([t[0], Tree(np.array([[v, 0]]), 0, n=g.n)]).edge_trees(g)
    with pytest.raises(ValueError, match=r"lies in more than one tree \(trees \[0, 1\]\)"):
        EDSTSet([t[0], t[0]]).to_networkx(g)
    with pytest.raises(ValueError, match="outside 0..17"):
        EDSTSet([Tree(np.array([[0, 18]]), 0, n=g.n)]).edge_trees(g)
    with pytest.raises(ValueError, match="directed graph"):
        EDSTSet([]).edge_trees(CAYLEY["macro-rotator"].build(l=2, n=2))
