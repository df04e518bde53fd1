"""Per-tree routes (starlib.io.routes) against networkx: parents, depths and children from a BFS of each tree, and
every next hop from the tree's unique path; the file read back equals the trees' parent arrays; planted faults in
a file are refused."""

from __future__ import annotations

import networkx as nx
import numpy as np
import orjson
import pytest

import starlib
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph, jsonable
from starlib.io import next_hop, next_hop_table, read_routes, render, routes
from starlib.io.readers import read_input


def _cases():
    sf = starlib.network("slimfly", q=5)
    ps = starlib.network("polarstar", q=3, supernode="iq", d=3)
    star = ArrayGraph.from_edges(range(5), np.array([[0, 1], [0, 2], [0, 3], [0, 4], [1, 2]]))
    return [("slimfly q=5", sf, starlib.edsts(sf)), ("polarstar iq q=3 d=3", ps, starlib.edsts(ps)),
            ("star rooted at a leaf", star, EDSTSet([Tree(np.array([[0, 1], [0, 2], [0, 3], [0, 4]]), 3)]))]


CASES = _cases()


@pytest.mark.parametrize("name, graph, trees", CASES, ids=[c[0] for c in CASES])
def test_routes_agree_with_networkx_paths_in_each_tree(name, graph, trees):
    doc = read_routes(routes(graph, trees, table=1))
    assert doc["vertices"] == [jsonable(v) for v in graph.labels]
    assert [t["parent"].tolist() for t in doc["trees"]] == trees.parent_arrays().tolist()
    for t, r in zip(trees, doc["trees"], strict=True):
        T = nx.Graph(t.edges.tolist())
        T.add_nodes_from(range(graph.n))
        depth = nx.single_source_shortest_path_length(T, t.root)
        assert r["depth"].tolist() == [depth[v] for v in range(graph.n)]
        pred = dict(nx.bfs_predecessors(T, t.root))
        assert r["children"] == [sorted(c for c, p in pred.items() if p == v) for v in range(graph.n)]
        paths = dict(nx.all_pairs_shortest_path(T))  # a tree has one path per pair
        expect = np.array([[paths[v][d][1] if v != d else -1 for d in range(graph.n)] for v in range(graph.n)])
        assert np.array_equal(r["next_hop"], expect)
        assert np.array_equal(next_hop_table(r), expect)
        rng = np.random.default_rng(0)
        for v, d in rng.integers(0, graph.n, size=(50, 2)).tolist():
            assert next_hop(r, v, d) == expect[v, d]


def test_the_towards_root_hop_is_the_parent_and_a_descendant_is_reached_through_a_child():
    g, trees = CASES[0][1], CASES[0][2]
    r = read_routes(routes(g, trees))["trees"][0]
    table = next_hop_table(r)
    root = r["root"]
    others = [v for v in range(g.n) if v != root]
    assert all(table[v, root] == r["parent"][v] for v in others)
    assert sorted(set(table[root, others].tolist())) == r["children"][root]


def test_a_file_network_is_named_by_its_node_ids(tmp_path):
    path = tmp_path / "ring.graphml"
    nx.write_graphml(nx.relabel_nodes(nx.cycle_graph(5), {i: f"r{i}" for i in range(5)}), path)
    g = read_input(path).graph
    text = render("routes", g, [Tree(np.array([[0, 1], [1, 2], [2, 3], [3, 4]]), 0, n=5)])
    assert orjson.loads(text)["vertices"] == [str(v) for v in g.labels] == ["r0", "r1", "r2", "r3", "r4"]


def test_the_layout_is_the_documented_one():
    g = ArrayGraph.from_edges("abcd", np.array([[0, 1], [1, 2], [1, 3], [0, 2]]), name="kite")
    text = routes(g, [Tree(np.array([[0, 1], [1, 2], [1, 3]]), 0)]).decode()
    assert text == ('{"format":"starlib-routes","version":1,"network":"kite","params":{},"vertices":["a","b","c","d"],'
                    '"trees":[\n{"tree":0,"root":0,"parent":[-1,0,1,1],"depth":[0,1,2,2],"children":[[1],[2,3],[],[]],'
                    '"pre":[0,1,2,3],"end":[4,4,3,4]}\n]}\n')


@pytest.mark.parametrize("key, value, words", [
    ("parent", [-1, 0, 3, 1], "'depth' is not the one"),  # a different tree: its depths no longer match
    ("parent", [-1, 0, 0, 2, 0][:4], "'depth'"),
    ("depth", [0, 1, 2, 1], "'depth' is not the one"),
    ("children", [[1], [3, 2], [], []], "'children'"),
    ("pre", [0, 1, 3, 2], "'pre'"),
    ("end", [4, 4, 3, 3], "'end'"),
    ("next_hop", [[-1, 1, 1, 1], [0, -1, 2, 3], [1, 1, -1, 1], [1, 1, 2, -1]], "'next_hop'"),
    ("parent", [1, 0, 1, 1], "not a spanning tree"),
])
def test_planted_faults_in_a_routes_file_are_refused(key, value, words):
    g = ArrayGraph.from_edges("abcd", np.array([[0, 1], [1, 2], [1, 3], [0, 2]]))
    doc = orjson.loads(routes(g, [Tree(np.array([[0, 1], [1, 2], [1, 3]]), 0)], table=1))
    doc["trees"][0][key] = value
    with pytest.raises(ValueError, match=words):
        read_routes(orjson.dumps(doc))


def test_bad_arguments_name_the_parameter():
    g = ArrayGraph.from_edges("ab", np.array([[0, 1]]))
    with pytest.raises(ValueError, match="table=2 is not a flag"):
        routes(g, [Tree(np.array([[0, 1]]), 0)], table=2)
    with pytest.raises(ValueError, match="trees: every tree must be on the graph's n=2"):
        routes(g, [Tree(np.array([[0, 1], [1, 2]]), 0)])
    with pytest.raises(ValueError, match="not a starlib-routes document"):
        read_routes(b'{"format":"other"}')
