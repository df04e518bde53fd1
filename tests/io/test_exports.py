"""Exports (starlib.io.exports) read back by the tools that own them: networkx for the edge lists and GraphML, numpy
for parent arrays, and for BookSim's anynet file a parser transcribed from BookSim 2's own reader."""

from __future__ import annotations

import networkx as nx
import numpy as np
import orjson
import pytest

import starlib.networks as nw
from starlib.cayley import NETWORK_FAMILIES as CAYLEY
from starlib.edst import auto_trees
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph, jsonable
from starlib.io import (
    FORMATS,
    anynet,
    encode,
    gml,
    graphml,
    node_link,
    parent_arrays,
    render,
    write_anynet,
    write_edge_list,
    write_format,
    write_graphml,
    write_parent_arrays,
    write_tree_edge_list,
)
from tests.paths import ROOT


def _cases() -> list[tuple[str, ArrayGraph, EDSTSet]]:
    sf, bf = nw.slimfly(5), nw.bundlefly(3, 5)
    k4 = ArrayGraph.from_edges(['<a&"b>', "c", 3, (4, 5)], np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]),
                               name="K4 & co", params={"why": "<xml>"})
    return [("slimfly 5", sf, auto_trees(sf)), ("bundlefly 3 5", bf, auto_trees(bf)),
            ("K4 with awkward labels", k4, EDSTSet([Tree(np.array([[0, 1], [1, 2], [2, 3]]), 0, "a"),
                                                     Tree(np.array([[0, 2], [0, 3], [1, 3]]), 3, "b")]))]


CASES = _cases()
IDS = [c[0] for c in CASES]


def _edge_set(edges) -> set[tuple[int, int]]:
    return {(min(u, v), max(u, v)) for u, v in edges}


# -- edge lists, labels, parent arrays ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_edge_list_and_labels_read_back_with_networkx(name, graph, trees, tmp_path):
    write_edge_list(tmp_path / "g.txt", graph, tmp_path / "g.labels")
    G = nx.read_edgelist(tmp_path / "g.txt", nodetype=int)
    assert _edge_set(G.edges()) == _edge_set(graph.edges.tolist()) and G.number_of_edges() == graph.m
    lines = (tmp_path / "g.labels").read_bytes().splitlines()
    assert [orjson.loads(s) for s in lines] == [jsonable(v) for v in graph.labels]
    labels = [orjson.loads(s) for s in lines]  # the labelled graph again, from the two files alone
    key = lambda v: orjson.dumps(v)  # noqa: E731  (lists are unhashable; their JSON text is not)
    assert {frozenset((key(labels[u]), key(labels[v]))) for u, v in G.edges()} == \
        {frozenset((key(jsonable(a)), key(jsonable(b)))) for a, b in graph.to_networkx().edges()}


def test_edge_list_of_a_directed_graph_keeps_the_arcs(tmp_path):
    g = CAYLEY["macro-rotator"].build(l=2, n=2)
    write_edge_list(tmp_path / "d.txt", g)
    D = nx.read_edgelist(tmp_path / "d.txt", nodetype=int, create_using=nx.DiGraph)
    assert sorted(D.edges()) == [tuple(e) for e in g.edges.tolist()]


@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_tree_edge_list_reads_back_with_networkx(name, graph, trees, tmp_path):
    write_tree_edge_list(tmp_path / "t.txt", trees)
    G = nx.read_edgelist(tmp_path / "t.txt", nodetype=int, data=[("tree", int)])
    for i, t in enumerate(trees):
        assert _edge_set((u, v) for u, v, k in G.edges(data="tree") if k == i) == _edge_set(t.edges.tolist())
    tree_column = [int(line.split()[2]) for line in (tmp_path / "t.txt").read_text().splitlines()]
    assert tree_column == sorted(tree_column) and len(tree_column) == sum(t.rows.shape[0] for t in trees)


@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_parent_arrays_are_the_bfs_parents_networkx_finds(name, graph, trees, tmp_path):
    write_parent_arrays(tmp_path / "p.txt", trees)
    P = np.loadtxt(tmp_path / "p.txt", dtype=np.int64, ndmin=2)
    assert P.shape == (len(trees), graph.n)
    for row, t in zip(P, trees, strict=True):
        T = nx.Graph(t.edges.tolist())
        pred = dict(nx.bfs_predecessors(T, t.root))
        assert row.tolist() == [pred.get(v, -1) for v in range(graph.n)]
    with pytest.raises(ValueError, match="not a spanning tree"):
        parent_arrays([Tree(np.array([[0, 1], [0, 1]]), 0)])


# -- GraphML -----------------------------------------------------------------------------------------------------------

def _expected_graph(graph: ArrayGraph, trees: EDSTSet | None) -> nx.Graph:
    """What nx.write_graphml is given for the same content: indices as nodes, label text, tree per edge."""
    H = nx.DiGraph() if graph.directed else nx.Graph()
    H.graph.update(network=graph.name, params=orjson.dumps(jsonable(graph.params)).decode())
    if trees is not None:
        H.graph["roots"] = orjson.dumps([t.root for t in trees]).decode()
    H.add_nodes_from((i, {"label": orjson.dumps(jsonable(v)).decode()}) for i, v in enumerate(graph.labels))
    tree_of = {}
    for i, t in enumerate(trees or []):
        tree_of.update(dict.fromkeys(map(tuple, t.edges.tolist()), i))
    for u, v in graph.edges.tolist():
        H.add_edge(u, v, **({"tree": tree_of.get((u, v), -1)} if trees is not None else {}))
    return H


def _same(a: nx.Graph, b: nx.Graph) -> None:
    assert a.is_directed() == b.is_directed() and a.graph == b.graph
    assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
    norm = (lambda u, v: (u, v)) if a.is_directed() else (lambda u, v: (min(u, v), max(u, v)))
    assert {norm(u, v): d for u, v, d in a.edges(data=True)} == {norm(u, v): d for u, v, d in b.edges(data=True)}


@pytest.mark.parametrize("with_trees", [True, False])
@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_graphml_reads_back_as_networkx_writes_it(name, graph, trees, with_trees, tmp_path):
    ts = trees if with_trees else None
    write_graphml(tmp_path / "ours.graphml", graph, ts)
    nx.write_graphml(_expected_graph(graph, ts), tmp_path / "nx.graphml")
    ours = nx.read_graphml(tmp_path / "ours.graphml", node_type=int)
    _same(ours, nx.read_graphml(tmp_path / "nx.graphml", node_type=int))
    assert [orjson.loads(ours.nodes[i]["label"]) for i in range(graph.n)] == [jsonable(v) for v in graph.labels]
    if with_trees:
        for i, t in enumerate(trees):
            assert _edge_set((u, v) for u, v, k in ours.edges(data="tree") if k == i) == _edge_set(t.edges.tolist())
        assert sum(k == -1 for _, _, k in ours.edges(data="tree")) == graph.m - sum(t.rows.shape[0] for t in trees)


def test_graphml_of_a_directed_graph(tmp_path):
    g = CAYLEY["macro-rotator"].build(l=2, n=2)
    write_graphml(tmp_path / "d.graphml", g)
    nx.write_graphml(_expected_graph(g, None), tmp_path / "nx.graphml")
    _same(nx.read_graphml(tmp_path / "d.graphml", node_type=int), nx.read_graphml(tmp_path / "nx.graphml",
                                                                                   node_type=int))


# -- GML and node-link JSON: what networkx reads ------------------------------------------------------------------

def _check_networkx_view(g: nx.Graph, graph: ArrayGraph, trees: EDSTSet | None, labels: list) -> None:
    """``g`` (read by networkx, nodes 0..n-1) is ``graph`` with its labels, family, parameters and trees."""
    assert list(g.nodes) == list(range(graph.n)) and labels == [jsonable(v) for v in graph.labels]
    assert _edge_set(g.edges) == _edge_set(graph.edges.tolist()) and g.number_of_edges() == graph.m
    if trees is None:
        assert all("tree" not in d for _, _, d in g.edges(data=True))
    else:
        which = dict(zip(map(tuple, graph.edges.tolist()), trees.edge_trees(graph).tolist(), strict=True))
        assert {(min(u, v), max(u, v)): d["tree"] for u, v, d in g.edges(data=True)} == which


@pytest.mark.parametrize("with_trees", [False, True])
@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_gml_reads_back_with_networkx(name, graph, trees, with_trees, tmp_path):
    t = trees if with_trees else None
    (tmp_path / "g.gml").write_bytes(gml(graph, t))
    g = nx.read_gml(tmp_path / "g.gml", label=None)  # integer ids; the labels are JSON text
    _check_networkx_view(g, graph, t, [orjson.loads(g.nodes[i]["label"]) for i in g])
    assert g.graph["network"] == graph.name and orjson.loads(g.graph["params"]) == jsonable(graph.params)
    if t is not None:
        assert orjson.loads(g.graph["roots"]) == [x.root for x in t]
    assert gml(graph, t).isascii()


@pytest.mark.parametrize("with_trees", [False, True])
@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_node_link_reads_back_with_networkx(name, graph, trees, with_trees):
    t = trees if with_trees else None
    data = orjson.loads(node_link(graph, t))
    g = nx.node_link_graph(data, edges="edges")
    assert not g.is_multigraph() and not g.is_directed()
    _check_networkx_view(g, graph, t, [g.nodes[i]["label"] for i in g])
    assert g.graph["network"] == graph.name and g.graph["params"] == jsonable(graph.params)
    if t is not None:
        assert g.graph["roots"] == [x.root for x in t]


def test_gml_and_node_link_of_a_directed_graph():
    g = CAYLEY["macro-rotator"].build(l=2, n=2)
    assert nx.parse_gml(gml(g).decode(), label=None).is_directed()
    assert nx.node_link_graph(orjson.loads(node_link(g)), edges="edges").number_of_edges() == g.m


def test_graphml_refuses_trees_that_are_not_edge_disjoint_in_the_graph():
    g = nw.slimfly(3)
    t = auto_trees(g)
    with pytest.raises(ValueError, match="lies in more than one tree"):
        graphml(g, [t[0], t[0]])


# -- BookSim anynet ----------------------------------------------------------------------------------------------------

def parse_anynet(text: str) -> tuple[dict[int, int], dict[int, dict[int, int]], dict[int, dict[int, int]]]:
    """BookSim 2's ``AnyNet::readFile`` (booksim/booksim2, src/networks/anynet.cpp), transcribed state for state.

    Returns ``(node_router, node_latency, channels)``: the router of every compute node (``node_list``); per
    router, its nodes and their injection/ejection latency (``router_list[NODE]``); per router, the routers it
    has a channel to and that channel's latency (``router_list[ROUTER]``). Stricter than BookSim only where
    BookSim would go on with garbage: an unknown word, a line cut short, a latency after a node head, a word
    that is not an integer where BookSim calls ``atoi``, a tab or carriage return (BookSim splits on spaces
    only) and node numbers that are not 0..N-1 (BookSim asserts that).
    """
    assert "\t" not in text and "\r" not in text
    node_router: dict[int, int] = {}
    router_nodes: dict[int, dict[int, int]] = {}
    channels: dict[int, dict[int, int]] = {}

    def router(r: int) -> None:  # "intialize router structures"
        router_nodes.setdefault(r, {})
        channels.setdefault(r, {})

    for line in text.split("\n"):  # getline
        if line == "":
            continue
        state, head_type, head, body_type, body = "HEAD_TYPE", None, -1, None, -1
        for word in line.split(" "):
            if word == "":
                continue
            if state == "HEAD_TYPE":
                assert word in ("router", "node"), f"Unknow head of line type {word}"
                head_type, state = word, "HEAD_ID"
                continue
            if state == "HEAD_ID":
                head = int(word)
                router(head)  # BookSim initialises router structures under the head's id, whatever its type
                state = "BODY_TYPE"
                continue
            if state == "LINK_WEIGHT" and word not in ("router", "node"):
                assert head_type == "router", "a latency after a node head is misfiled by BookSim"
                (channels if body_type == "router" else router_nodes)[head][body] = int(word)
                continue  # the state stays LINK_WEIGHT
            if state in ("BODY_TYPE", "LINK_WEIGHT"):
                assert word in ("router", "node"), f"Unknow body type {word}"
                body_type, state = word, "BODY_ID"
                continue
            body = int(word)  # BODY_ID
            if body_type == "router":
                router(body)
            assert not (head_type == "node" and body_type == "node"), "Cannot connect node to node"
            if head_type == "node":
                assert node_router.get(head, body) == body, "node trying to connect to multiple routers"
                node_router[head] = body
                router_nodes[body][head] = 1
            elif body_type == "node":
                assert node_router.get(body, head) == head, "node trying to connect to multiple routers"
                node_router[body] = head
                router_nodes[head][body] = 1
            else:
                channels[head][body] = 1
                channels[body].setdefault(head, 1)
            state = "LINK_WEIGHT"
        assert state in ("LINK_WEIGHT", "BODY_TYPE"), f"Incomplete parse of the line: {line}"
    assert sorted(node_router) == list(range(len(node_router))), "sequential node numbering starting at 0"
    return node_router, router_nodes, channels


def test_the_parser_reads_booksims_own_examples_as_booksim_documents_them():
    # src/examples/anynet/anynet_file and its README: router 0 has nodes 0-2 and a link to router 1, which
    # "implies that router1 is connected to router 0"; router 2 has nodes 6-8 and links to routers 1 and 0
    nodes, lat, ch = parse_anynet("router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n"
                                  "router 2 node 6 node 7 node 8 router 1 router 0\n")
    assert nodes == {i: i // 3 for i in range(9)}
    assert ch == {0: {1: 1, 2: 1}, 1: {0: 1, 2: 1}, 2: {1: 1, 0: 1}}
    # anynet.cpp's header comment, example 1: "Router 0 is connect to router 1 with a 15-cycle channel, and router
    # 0 is connected to router 2 with a 1-cycle channel ... channel from router 1 back to router 0 is only
    # single-cycle"
    _, _, ch = parse_anynet("router 0 router 1 15 router 2")
    assert ch == {0: {1: 15, 2: 1}, 1: {0: 1}, 2: {0: 1}}
    # example 2: "Router 0 is directly connected to node 0-2. Channel latency is 5cycles for 1 and 2"
    nodes, lat, _ = parse_anynet("router 0 node 0 node 1 5 node 2 5")
    assert nodes == {0: 0, 1: 0, 2: 0} and lat[0] == {0: 1, 1: 5, 2: 5}
    with pytest.raises(AssertionError, match="Incomplete parse"):
        parse_anynet("router 0 node")
    with pytest.raises(AssertionError, match="sequential node numbering"):
        parse_anynet("router 0 node 1")


@pytest.mark.parametrize("c, latency, node_latency", [(1, None, None), (3, None, None), (1, 7, None), (2, 4, 9)])
@pytest.mark.parametrize("name, graph, trees", CASES, ids=IDS)
def test_anynet_reads_back_as_booksim_reads_it(name, graph, trees, c, latency, node_latency, tmp_path):
    write_anynet(tmp_path / "net.anynet", graph, nodes_per_router=c, latency=latency, node_latency=node_latency)
    nodes, lat, ch = parse_anynet((tmp_path / "net.anynet").read_text())
    assert nodes == {i: i // c for i in range(graph.n * c)}
    assert lat == {r: dict.fromkeys(range(r * c, r * c + c), node_latency or 1) for r in range(graph.n)}
    want = {r: {} for r in range(graph.n)}
    for u, v in graph.edges.tolist():
        want[u][v] = want[v][u] = latency or 1
    assert ch == want


def test_anynet_refuses_what_booksim_cannot_hold():
    with pytest.raises(ValueError, match="directed graph cannot be written"):
        anynet(CAYLEY["macro-rotator"].build(l=2, n=2))
    g = nw.slimfly(3)
    with pytest.raises(ValueError, match="nodes_per_router=0 is too small"):
        anynet(g, 0)
    with pytest.raises(ValueError, match="latency=0 is too small"):
        anynet(g, latency=0)
    with pytest.raises(ValueError, match="node_latency=True is not an integer"):
        anynet(g, node_latency=True)


# -- formats by name ---------------------------------------------------------------------------------------------------

def test_every_format_by_name(tmp_path):
    g = nw.slimfly(3)
    t = auto_trees(g)
    for name, f in FORMATS.items():
        data = render(name, g, t)
        assert write_format(tmp_path / name, name, g, t).read_bytes() == data and data.endswith(b"\n")
        if f.trees == "no":
            assert render(name, g) == data
    assert render("json", g, t, extra={"method": "auto"}) == encode(g, t, extra={"method": "auto"})
    with pytest.raises(ValueError, match="format='csv' is not one of json, json-v1, edgelist"):
        render("csv", g)
    with pytest.raises(ValueError, match="format='edgelist' takes no option 'latency'"):
        render("edgelist", g, latency=3)
    with pytest.raises(ValueError, match="format='tree-edgelist' writes trees: give the trees"):
        render("tree-edgelist", g)
    with pytest.raises(ValueError, match="trees=.* is not a sequence of Tree"):
        render("parents", g, [np.array([[0, 1]])])


def test_the_examples_of_docs_formats_md_are_what_starlib_writes():

    from starlib.registry import NETWORK_FAMILIES, parse_params

    doc = (ROOT / "docs" / "formats.md").read_text()
    params = parse_params(NETWORK_FAMILIES["torus"], ["sizes=3,3"])  # as `starlib edsts torus sizes=3,3` does
    g = NETWORK_FAMILIES["torus"].build(**params)
    t = auto_trees(g)
    extra = {"upper_bound": 2, "method": "auto"}
    v2 = encode(g, t, network="torus", params=params, extra=extra)
    assert "\n    " + v2.decode() in doc  # the worked example, as one indented line
    v1 = render("json-v1", g, t, network="torus", params=params, extra=extra)
    assert f"({len(v2)} bytes; version 1 took {len(v1)})" in doc
    assert "\n    " + render("parents", g, t).decode().replace("\n", "\n    ").rstrip() + "\n" in doc

    def documented_lines(start: str) -> list[str]:
        """The first indented block after ``start``, without its '...' lines."""
        lines = doc[doc.index(start):].splitlines()
        first = next(k for k, line in enumerate(lines) if line.startswith("    "))
        block = []
        for line in lines[first:]:
            if not line.startswith("    "):
                break
            block.append(line.strip())
        return [line for line in block if line != "..."]

    for start, fmt, opts in (("### 6.2", "tree-edgelist", {}), ("The torus with `latency=2`", "anynet",
                                                                   {"latency": 2}), ("### 6.4", "graphml", {})):
        lines = [line.strip() for line in render(fmt, g, t, **opts).decode().splitlines()]
        documented = documented_lines(start)
        assert len(documented) >= 4 and all(line in lines for line in documented), (fmt, documented)
    rows = [line.split() for line in documented_lines("### 6.1")]
    assert [" ".join(r[:2]) for r in rows] == render("edgelist", g).decode().splitlines()[:len(rows)]
    assert [r[2] for r in rows if len(r) == 3 and r[2] != "..."] == render("labels", g).decode().splitlines()[:4]
