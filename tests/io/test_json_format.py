"""starlib's JSON files (starlib.io.json_format): version 2 written and read back exactly, checked against its
definition (docs/formats.md §4) with the standard library and networkx; version 1 files of the old command line
still read; every structural rule of the reader reported as a ValueError, also for randomly damaged files."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import starlib.networks as nw
from starlib.cayley import NETWORK_FAMILIES as CAYLEY
from starlib.edst import auto_trees, verify_edsts
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph, jsonable
from starlib.io import MAX_LABEL_DEPTH, NetworkFile, decode, encode, encode_v1, read_json, write_json
from starlib.netdesign import NETWORK_FAMILIES as NETDESIGN

# What the command line wrote before version 2 (starlib.cli at commit 1a25705), byte for byte:
# `python -m starlib edsts slimfly q=3` and `python -m starlib build polarfly q=2`.
SLIMFLY3_V1 = "".join([
    '{"network":"slimfly","params":{"q":3},"nodes":[[[0,0],0],[[0,0],1],[[0,0],2],[[0,1],0],[[0,1],1],[[0',
    ',1],2],[[0,2],0],[[0,2],1],[[0,2],2],[[1,0],0],[[1,0],1],[[1,0],2],[[1,1],0],[[1,1],1],[[1,1],2],[[1',
    ',2],0],[[1,2],1],[[1,2],2]],"edges":[[[[0,0],0],[[0,0],1]],[[[0,0],0],[[0,0],2]],[[[0,0],0],[[1,0],0',
    ']],[[[0,0],0],[[1,1],0]],[[[0,0],0],[[1,2],0]],[[[0,0],1],[[0,0],2]],[[[0,0],1],[[1,0],2]],[[[0,0],1',
    '],[[1,1],2]],[[[0,0],1],[[1,2],2]],[[[0,0],2],[[1,0],1]],[[[0,0],2],[[1,1],1]],[[[0,0],2],[[1,2],1]]',
    ',[[[0,1],0],[[0,1],1]],[[[0,1],0],[[0,1],2]],[[[0,1],0],[[1,0],0]],[[[0,1],0],[[1,1],1]],[[[0,1],0],',
    '[[1,2],2]],[[[0,1],1],[[0,1],2]],[[[0,1],1],[[1,0],2]],[[[0,1],1],[[1,1],0]],[[[0,1],1],[[1,2],1]],[',
    '[[0,1],2],[[1,0],1]],[[[0,1],2],[[1,1],2]],[[[0,1],2],[[1,2],0]],[[[0,2],0],[[0,2],1]],[[[0,2],0],[[',
    '0,2],2]],[[[0,2],0],[[1,0],0]],[[[0,2],0],[[1,1],2]],[[[0,2],0],[[1,2],1]],[[[0,2],1],[[0,2],2]],[[[',
    '0,2],1],[[1,0],2]],[[[0,2],1],[[1,1],1]],[[[0,2],1],[[1,2],0]],[[[0,2],2],[[1,0],1]],[[[0,2],2],[[1,',
    '1],0]],[[[0,2],2],[[1,2],2]],[[[1,0],0],[[1,0],1]],[[[1,0],0],[[1,0],2]],[[[1,0],1],[[1,0],2]],[[[1,',
    '1],0],[[1,1],1]],[[[1,1],0],[[1,1],2]],[[[1,1],1],[[1,1],2]],[[[1,2],0],[[1,2],1]],[[[1,2],0],[[1,2]',
    ',2]],[[[1,2],1],[[1,2],2]]],"trees":[{"root":[[0,1],0],"edges":[[[[0,0],0],[[1,1],0]],[[[0,0],1],[[0',
    ',0],2]],[[[0,0],1],[[1,1],2]],[[[0,1],0],[[0,1],1]],[[[0,1],0],[[0,1],2]],[[[0,1],0],[[1,1],1]],[[[0',
    ',1],1],[[1,1],0]],[[[0,1],1],[[1,2],1]],[[[0,1],2],[[1,2],0]],[[[0,2],0],[[1,0],0]],[[[0,2],0],[[1,2',
    '],1]],[[[0,2],1],[[0,2],2]],[[[0,2],1],[[1,2],0]],[[[0,2],2],[[1,0],1]],[[[1,0],1],[[1,0],2]],[[[1,1',
    '],1],[[1,1],2]],[[[1,2],1],[[1,2],2]]],"depth":6,"construction":"V-C.6"},{"root":[[0,1],2],"edges":[',
    '[[[0,0],0],[[0,0],1]],[[[0,0],0],[[0,0],2]],[[[0,0],2],[[1,1],1]],[[[0,1],0],[[1,0],0]],[[[0,1],0],[',
    '[1,2],2]],[[[0,1],1],[[1,0],2]],[[[0,1],2],[[1,0],1]],[[[0,1],2],[[1,1],2]],[[[0,2],0],[[0,2],1]],[[',
    '[0,2],1],[[1,0],2]],[[[0,2],2],[[1,2],2]],[[[1,0],0],[[1,0],1]],[[[1,0],0],[[1,0],2]],[[[1,1],0],[[1',
    ',1],1]],[[[1,1],0],[[1,1],2]],[[[1,2],0],[[1,2],1]],[[[1,2],0],[[1,2],2]]],"depth":6,"construction":',
    '"V-C.7"}],"upper_bound":2,"method":"auto"}\n',
])
POLARFLY2_V1 = "".join([
    '{"network":"polarfly","params":{"q":2},"nodes":[[0,0,1],[0,1,1],[1,0,1],[1,1,1],[0,1,0],[1,1,0],[1,0',
    ',0]],"edges":[[[0,0,1],[0,1,0]],[[0,0,1],[1,1,0]],[[0,0,1],[1,0,0]],[[0,1,1],[1,1,1]],[[0,1,1],[1,0,',
    '0]],[[1,0,1],[1,1,1]],[[1,0,1],[0,1,0]],[[1,1,1],[1,1,0]],[[0,1,0],[1,0,0]]]}\n',
])


def _same_graph(a: ArrayGraph, b: ArrayGraph) -> None:
    assert a.labels == b.labels
    assert a.edges.dtype == np.int64 and np.array_equal(a.edges, b.edges)
    assert a.directed == b.directed


def _same_trees(a: EDSTSet, b: EDSTSet) -> None:
    assert len(a) == len(b)
    for s, t in zip(a, b, strict=True):
        assert (s.root, s.construction, s.n) == (t.root, t.construction, t.n)
        assert np.array_equal(s.edges, t.edges)


# -- version 1: the files the old command line wrote -------------------------------------------------------------------

def test_version_1_files_of_the_old_command_line_are_read():
    f = decode(SLIMFLY3_V1)
    P, T = nw.slimfly(3), auto_trees(nw.slimfly(3))
    assert f.version == 1 and (f.network, f.params) == ("slimfly", {"q": 3})
    assert f.extra == {"upper_bound": 2, "method": "auto"}
    _same_graph(f.graph, P)
    _same_trees(f.trees, T)
    assert [t.root for t in f.trees] == [P.labels.index(((0, 1), 0)), P.labels.index(((0, 1), 2))]
    assert verify_edsts(f.graph, f.trees).valid
    g = decode(POLARFLY2_V1.encode())  # a `build` file: no trees, labels in the graph's own (unsorted) order
    assert g.trees is None and g.version == 1
    _same_graph(g.graph, nw.polarfly(2))


def test_encode_v1_writes_the_old_command_lines_bytes():
    P = nw.slimfly(3)
    assert encode_v1(P, auto_trees(P), extra={"upper_bound": 2, "method": "auto"}) == SLIMFLY3_V1.encode()
    assert encode_v1(nw.polarfly(2), params={"q": 2}) == POLARFLY2_V1.encode()  # the command line: params as given


def test_version_1_reader_reports_unknown_nodes_and_bad_pairs():
    obj = json.loads(SLIMFLY3_V1)
    obj["trees"][1]["edges"][3][1] = [[9, 9], 0]
    with pytest.raises(ValueError, match=r"trees\[1\]\.edges\[3\]: \[\[9,9\],0\] is not one of the nodes"):
        decode(json.dumps(obj))
    obj = json.loads(SLIMFLY3_V1)
    obj["edges"][0] = [obj["edges"][0][0]]
    with pytest.raises(ValueError, match="edges\\[0\\]=.* is not a pair \\[u, v\\] of node labels"):
        decode(json.dumps(obj))
    obj = json.loads(SLIMFLY3_V1)
    obj["trees"][0]["root"] = [[0, 1], 7]
    with pytest.raises(ValueError, match=r"trees\[0\]\.root=\[\[0,1\],7\] is not one of the nodes"):
        decode(json.dumps(obj))


# -- version 2: round trips and the definition -------------------------------------------------------------------------

def _cases() -> list[tuple[str, ArrayGraph, EDSTSet | None]]:
    sf, bf = nw.slimfly(5), nw.bundlefly(3, 5)
    mixed = ArrayGraph.from_edges([0, "a", (1, "b"), (2, (3, -4)), ((5,),)], np.array([[0, 1], [1, 2], [2, 3],
                                                                                       [3, 4], [0, 4]]), name="mixed")
    return [("slimfly 5 + trees", sf, auto_trees(sf)),
            ("bundlefly 3 5 + trees", bf, auto_trees(bf)),
            ("polarfly 3", nw.polarfly(3), None),
            ("netdesign labels < 0", NETDESIGN["netdesign-tree"].build(N=3, m=3), None),
            ("directed Cayley graph", CAYLEY["macro-rotator"].build(l=2, n=2), None),
            ("string, tuple and int labels", mixed, None),
            ("one vertex, one empty tree", ArrayGraph.from_edges(["v"], np.zeros((0, 2))),
             EDSTSet([Tree(np.zeros((0, 2)), 0, "trivial", n=1)])),
            ("no vertex", ArrayGraph.from_edges([], np.zeros((0, 2))), None)]


@pytest.mark.parametrize("name, graph, trees", _cases(), ids=[c[0] for c in _cases()])
def test_version_2_round_trip_is_exact_and_deterministic(name, graph, trees):
    data = encode(graph, trees, extra={"upper_bound": 7})
    f = decode(data)
    assert isinstance(f, NetworkFile) and f.version == 2
    _same_graph(f.graph, graph)
    assert (f.network, f.params, f.extra) == (graph.name, jsonable(graph.params), {"upper_bound": 7})
    assert f.graph.name == graph.name
    if trees is None:
        assert f.trees is None
    else:
        _same_trees(f.trees, trees)
        assert f.trees.depths() == trees.depths()
        assert verify_edsts(f.graph, f.trees).valid
    assert encode(f.graph, f.trees, extra=f.extra) == data  # the same bytes again


@pytest.mark.parametrize("name, graph, trees", _cases()[:6], ids=[c[0] for c in _cases()[:6]])
def test_version_2_content_matches_its_definition(name, graph, trees):
    """Read with the standard library's json and checked against networkx, not against the reader."""
    obj = json.loads(encode(graph, trees))
    assert list(obj)[:7] == ["format", "version", "network", "params", "directed", "n", "m"]
    assert (obj["format"], obj["version"], obj["directed"]) == ("starlib", 2, graph.directed)
    G = graph.to_networkx()
    assert (obj["n"], obj["m"]) == (G.number_of_nodes(), G.number_of_edges())
    assert obj["nodes"] == [jsonable(v) for v in graph.labels]
    index = {v: i for i, v in enumerate(graph.labels)}
    for u, row in enumerate(obj["adjacency"]):
        nbrs = G.successors(graph.labels[u]) if graph.directed else G.neighbors(graph.labels[u])
        want = sorted(index[w] for w in nbrs)
        assert row == (want if graph.directed else [v for v in want if v > u])
    for tree, t in zip(trees or [], obj.get("trees", []), strict=True):
        T = nx.Graph(tree.edges.tolist())
        assert nx.is_tree(T) and t["root"] == tree.root and t["construction"] == tree.construction
        pred = dict(nx.bfs_predecessors(T, tree.root))
        assert t["parent"] == [pred.get(v, -1) for v in range(graph.n)]
        assert t["depth"] == max(nx.single_source_shortest_path_length(T, tree.root).values())


def test_version_2_is_at_most_a_quarter_of_version_1():
    P = nw.bundlefly(5, 9)
    T = auto_trees(P)
    v1, v2 = encode_v1(P, T), encode(P, T)
    assert len(v2) <= len(v1) / 4, (len(v1), len(v2))
    _same_trees(decode(v1).trees, decode(v2).trees)


def test_files_on_disk_and_unreadable_paths(tmp_path):
    P = nw.slimfly(3)
    T = auto_trees(P)
    p = write_json(tmp_path / "sf.json", P, T, network="slimfly", params={"q": 3})
    f = read_json(p)
    _same_graph(f.graph, P)
    _same_trees(f.trees, T)
    assert read_json(write_json(tmp_path / "v1.json", P, T, version=1)).version == 1
    with pytest.raises(ValueError, match="version=3 is not one starlib writes"):
        write_json(tmp_path / "x.json", P, version=3)
    with pytest.raises(ValueError, match="cannot read"):
        read_json(tmp_path / "missing.json")
    with pytest.raises(ValueError, match="does not exist"):
        write_json(tmp_path / "no" / "x.json", P)


def test_a_tree_that_is_no_tree_is_read_and_the_verifier_says_why():
    """A parent array with a cycle is well-formed (the reader's business); the verifier reports the cycle."""
    P = nw.slimfly(3)
    obj = json.loads(encode(P, auto_trees(P)))
    par = obj["trees"][0]["parent"]
    a = next(v for v in range(P.n) if par[v] >= 0 and par[par[v]] >= 0)
    b = par[a]
    obj["trees"][0]["parent"][b] = a  # a <-> b: a 2-cycle; the root's branch loses b's subtree
    f = decode(json.dumps(obj))
    r = verify_edsts(f.graph, f.trees)
    assert not r.valid and r.failed("spanning") == [0]


# -- the reader's rules ------------------------------------------------------------------------------------------------

def _small() -> dict:
    P = ArrayGraph.from_edges([[0, 0], [0, 1], [1, 0], [1, 1]], np.array([[0, 1], [0, 2], [1, 3], [2, 3], [0, 3]]))
    return json.loads(encode(P, [Tree(np.array([[0, 1], [0, 2], [2, 3]]), 0, "t")]))


def _set(path: str, value) -> dict:
    obj = _small()
    *head, last = path.split(".")
    target = obj
    for k in head:
        target = target[int(k)] if isinstance(target, list) else target[k]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return obj


def _deep(k: int) -> list:
    """``[[...[1]...]]``, ``k`` lists deep."""
    v: object = 1
    for _ in range(k):
        v = [v]
    return v


BAD = [
    ("format", "graphs", "format=\"graphs\" is not 'starlib'"),
    ("version", 3, "version=3 is not one this starlib reads"),
    ("version", True, "version=true is not one this starlib reads"),
    ("version", "2", "version=\"2\" is not one"),
    ("network", 5, "network=5 is an integer, not a string"),
    ("params", [], "params is a list, not an object"),
    ("directed", 0, "directed=0 is an integer, not true or false"),
    ("n", True, "n=true is a bool, not an integer"),
    ("n", 4.0, "n=4.0 is a float, not an integer"),
    ("n", -1, "n=-1 is out of range"),
    ("n", 5, "nodes has 4 labels, n=5"),
    ("m", 6, "adjacency lists 5 edges, m=6"),
    ("m", KeyError, "the key 'm' is missing"),
    ("nodes", {"0": 0}, "nodes is an object, not a list of labels"),
    ("nodes.2", [0, 0], "nodes\\[0\\] and nodes\\[2\\] are the same label \\[0,0\\]"),
    ("nodes.1", [0, 1.5], "nodes\\[1\\]: 1.5 is a float; a label is an integer, a string or a list"),
    ("nodes.1", True, "nodes\\[1\\]: true is a bool"),
    ("nodes.1", None, "nodes\\[1\\]: null is null"),
    ("nodes.1", {"a": 1}, "nodes\\[1\\]: {\"a\":1} is an object"),
    ("nodes.1", _deep(MAX_LABEL_DEPTH + 1), f"nodes\\[1\\]: a label nested deeper than {MAX_LABEL_DEPTH} lists"),
    ("adjacency", {}, "adjacency is an object, need a list of n=4 lists"),
    ("adjacency", [[1, 2, 3], [3], [3]], "adjacency is a list of 3 lists, need a list of n=4 lists"),
    ("adjacency.1", 3, "adjacency\\[1\\] is an integer, not a list of indices"),
    ("adjacency.1", [True], "adjacency\\[1\\]\\[0\\]=true is a bool, not an integer index"),
    ("adjacency.1", [3.0], "adjacency\\[1\\]\\[0\\]=3.0 is a float, not an integer index"),
    ("adjacency.1", ["3"], "adjacency\\[1\\]\\[0\\]=\"3\" is a string, not an integer index"),
    ("adjacency.1", [[3]], "adjacency\\[1\\]\\[0\\]=\\[3\\] is a list, not an integer index"),
    ("adjacency.1", [4], "adjacency\\[1\\]\\[0\\]=4: the entries of adjacency\\[u\\] must be in u\\+1..n-1"),
    ("adjacency.1", [0], "adjacency\\[1\\]\\[0\\]=0: the entries of adjacency\\[u\\] must be in u\\+1..n-1"),
    ("adjacency.1", [-3], "adjacency\\[1\\]\\[0\\]=-3: the entries"),
    ("adjacency.0", [2, 1, 3], "adjacency\\[0\\]\\[1\\]=1: the entries of adjacency\\[u\\] must be increasing"),
    ("adjacency.0", [1, 1, 3], "adjacency\\[0\\]\\[1\\]=1: the entries of adjacency\\[u\\] must be increasing"),
    ("adjacency.1", [2 ** 63], "adjacency\\[1\\]\\[0\\]=9223372036854775808 is an integer beyond 64 bits; need an "
                               "integer of at most 64 bits"),
    ("adjacency.1", [2 ** 70], "adjacency\\[1\\]\\[0\\]=1180591620717411303424 is an integer beyond 64 bits"),
    ("trees", {}, "trees is an object, not a list"),
    ("trees.0", [], "trees\\[0\\] is a list, not an object"),
    ("trees.0.root", KeyError, "trees\\[0\\]: the key 'root' is missing"),
    ("trees.0.parent", KeyError, "trees\\[0\\]: the key 'parent' is missing"),
    ("trees.0.root", 4, "trees\\[0\\].root=4 is out of range: need 0 <= trees\\[0\\].root <= 3"),
    ("trees.0.root", False, "trees\\[0\\].root=false is a bool"),
    ("trees.0.root", 1, "trees\\[0\\].parent\\[0\\]=-1: need -1 at the root 1"),
    ("trees.0.depth", 1.5, "trees\\[0\\].depth=1.5 is a float"),
    ("trees.0.construction", 4, "trees\\[0\\].construction is an integer, not a string"),
    ("trees.0.parent", [-1, 0, 0], "trees\\[0\\].parent is a list of 3 entries, need a list of n=4 indices"),
    ("trees.0.parent.3", 2.0, "trees\\[0\\].parent\\[3\\]=2.0 is a float, not an integer index"),
    ("trees.0.parent.3", -1, "trees\\[0\\].parent\\[3\\]=-1: need -1 at the root 0"),
    ("trees.0.parent.3", 3, "trees\\[0\\].parent\\[3\\]=3: need -1 at the root 0 and, at every other vertex, another"),
    ("trees.0.parent.3", 4, "trees\\[0\\].parent\\[3\\]=4"),
    ("trees.0.parent.3", -2, "trees\\[0\\].parent\\[3\\]=-2"),
]


@pytest.mark.parametrize("path, value, message", BAD, ids=[f"{p}={v!r:.20}" for p, v, _ in BAD])
def test_every_broken_rule_is_a_value_error_naming_it(path, value, message):
    text = json.dumps(_set(path, value))
    with pytest.raises(ValueError, match=message):
        decode(text, "t.json")
    with pytest.raises(ValueError, match="^t.json: "):
        decode(text, "t.json")


@pytest.mark.parametrize("text, message", [
    (b"", "not JSON"), (b"{", "not JSON"), (b"[1, 2]", "the top level is a list, not an object"),
    (b'{"format": "starlib", "version": 2, "adjacency": [[NaN]]}', "not JSON"),
    (b'{"nodes": [NaN], "edges": []}', "not JSON"),
    (b'{"nodes": [0], "edges": []}' + b"\xff", "not JSON"),
    (b"[" * 5000 + b"]" * 5000, "not JSON"),
    (b'{"format": "starlib", "version": 2, "nodes": [' + b"[" * 5000 + b"]" * 5000 + b"]}", "not JSON"),
])
def test_what_is_not_json_or_not_an_object(text, message):
    with pytest.raises(ValueError, match=message):
        decode(text)


def test_directed_graphs_carry_no_trees():
    obj = _set("directed", True)
    with pytest.raises(ValueError, match="trees are given for a directed graph"):
        decode(json.dumps(obj))
    obj["adjacency"] = [[1, 2, 3], [0, 3], [3], []]
    obj["m"] = 6
    del obj["trees"]
    g = decode(json.dumps(obj)).graph
    assert g.directed and g.edges.tolist() == [[0, 1], [0, 2], [0, 3], [1, 0], [1, 3], [2, 3]]
    obj["adjacency"][1] = [1, 3]
    with pytest.raises(ValueError, match="must be in 0..n-1 and not u"):
        decode(json.dumps(obj))


def test_the_writer_refuses_what_the_reader_would():
    P = nw.slimfly(3)
    with pytest.raises(ValueError, match=r"trees\[0\]: not a spanning tree"):
        encode(P, [Tree(np.array([[0, 1]] * 17), 0, n=P.n)])
    with pytest.raises(ValueError, match=r"trees\[0\]: need a Tree on the graph's n=18 vertices"):
        encode(P, [Tree(np.array([[0, 1]]), 0)])
    with pytest.raises(ValueError, match=r"graph.labels: nodes\[0\] and nodes\[1\] are the same label"):
        encode(ArrayGraph([(1, 2), (1, 2)], np.array([[0, 1]])))
    with pytest.raises(ValueError, match=r"graph.labels: nodes\[1\]: 0.5 is a float"):
        encode(ArrayGraph([0, 0.5], np.array([[0, 1]])))
    with pytest.raises(ValueError, match="graph.edges: the rows are not canonical"):
        encode(ArrayGraph([0, 1, 2], np.array([[1, 2], [0, 1]])))
    with pytest.raises(ValueError, match="extra: the key 'nodes' is one of the format's own keys"):
        encode(P, extra={"nodes": 1})
    with pytest.raises(ValueError, match="spanning trees of a directed graph are not written"):
        encode(CAYLEY["macro-rotator"].build(l=2, n=2), [])
    # numpy scalars in labels are written as plain numbers
    assert decode(encode(ArrayGraph([(np.int64(1),), (np.int64(2),)], np.array([[0, 1]])))).graph.labels == \
        [(1,), (2,)]


# -- damaged files: only ValueError, never a crash ---------------------------------------------------------------------

_VALID = encode(nw.slimfly(3), auto_trees(nw.slimfly(3)))
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
                     | st.text(max_size=3), lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3),
                                                                                               c, max_size=3),
                     max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, len(_VALID)), flip=st.integers(0, len(_VALID) - 1), byte=st.integers(0, 255))
def test_damaged_bytes_give_a_value_error_or_a_valid_file(cut, flip, byte):
    for data in (_VALID[:cut], _VALID[:flip] + bytes([byte]) + _VALID[flip + 1:]):
        try:
            f = decode(data)
        except ValueError:
            continue
        assert isinstance(f, NetworkFile) and f.graph.n == len(f.graph.labels)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(["format", "version", "n", "m", "nodes", "nodes.3", "adjacency", "adjacency.2",
                              "adjacency.2.0", "trees", "trees.0", "trees.0.root", "trees.0.parent",
                              "trees.0.parent.1", "trees.0.depth", "directed", "params", "network"]),
       value=_JSON)
def test_any_json_value_anywhere_gives_a_value_error_or_a_valid_file(where, value):
    try:
        f = decode(json.dumps(_set(where, value)))
    except ValueError:
        return
    assert isinstance(f, NetworkFile)


def test_the_writers_share_one_check_of_labels_and_edges():
    """``writable_labels`` and ``writable_edges`` are what every writer (JSON and the exports) checks."""
    from starlib.io.json_format import writable_edges, writable_labels

    P = nw.slimfly(3)
    nodes, labels = writable_labels(P)
    f = decode(encode(P))
    assert labels == f.graph.labels and json.loads(nodes) == json.loads(encode(P))["nodes"]
    n, e, directed = writable_edges(P)
    assert (n, directed) == (P.n, False) and np.array_equal(e, f.graph.edges)
    with pytest.raises(ValueError, match="graph.edges: the rows are not canonical"):
        writable_edges(ArrayGraph([0, 1, 2], np.array([[1, 2], [0, 1]])))
    with pytest.raises(ValueError, match=r"graph.labels: nodes\[1\]: 0.5 is a float"):
        writable_labels(ArrayGraph([0, 0.5], np.array([[0, 1]])))
