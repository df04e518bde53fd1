"""The Python API's checks: each bad input is refused with a ValueError (TypeError for what is no graph
or no tree list at all) that names the parameter, its value and the rule, never a bare MemoryError, IndexError,
a library's words, a crash, or a silently changed graph. One row per kind; the CLI's format options follow.
"""

from __future__ import annotations

import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.edst.trees import Tree
from starlib.edst.verify import verify_edsts
from starlib.graphs import ArrayGraph, as_graph
from starlib.io.exports import FORMATS, check_options, render
from starlib.memory import limit_memory

K4 = ArrayGraph.from_edges(range(4), np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]))
K4_TREES = [Tree(np.array([[0, 1], [1, 2], [2, 3]]), root=0), Tree(np.array([[0, 2], [0, 3], [1, 3]]), root=3)]


def _nx(edges, cls=nx.Graph, nodes=()):
    g = cls()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    return g


NAN = float("nan")
TORUS = starlib.network("torus", sizes="3,3")
TORUS_TREES = starlib.edsts(TORUS)

# kind -> (call, exception, text the message must hold)
REFUSED = {
    # verify_edsts: the root of a tree
    "a tree's root is not a vertex (too large)":
        (lambda: verify_edsts(K4, [Tree(K4_TREES[0].rows, root=4), K4_TREES[1]]), ValueError,
         "trees[0].root=4 is not a vertex: need an index in 0..3 (n=4 vertices)"),
    "a tree's root is negative":
        (lambda: verify_edsts(K4, [K4_TREES[0], Tree(K4_TREES[1].rows, root=-1)]), ValueError,
         "trees[1].root=-1 is not a vertex"),
    # sizes that cannot fit, refused before anything is allocated
    "verify_edsts n=10**12":
        (lambda: verify_edsts(np.array([[0, 1]]), [[[0, 1]]], n=10**12), ValueError,
         "n=1000000000000 is too large: verify_edsts(n=1000000000000) would have"),
    "verify_edsts an edge index of 10**12 (n from the largest index)":
        (lambda: verify_edsts(np.array([[0, 10**12]]), []), ValueError,
         "n (largest index + 1)=1000000000001 is too large"),
    "ArrayGraph.from_edges(range(10**12))":
        (lambda: ArrayGraph.from_edges(range(10**12), [[0, 1]]), ValueError,
         "len(labels)=1000000000000 is too large: ArrayGraph.from_edges"),
    "ArrayGraph.from_edges(range(10**30)) (len overflows)":
        (lambda: ArrayGraph.from_edges(range(10**30), [[0, 1]]), ValueError, "is too large"),
    # networkx graphs: nothing dropped or merged silently
    "networkx self-loop": (lambda: as_graph(_nx([("x", "x"), ("x", "y")]), "graph"), ValueError,
                           "graph: a self-loop at node 'x'; a network has none"),
    "networkx self-loop (from_networkx)": (lambda: ArrayGraph.from_networkx(_nx([(1, 1), (1, 2)])), ValueError,
                                           "g: a self-loop at node 1"),
    "networkx self-loop through starlib.edsts": (lambda: starlib.edsts(_nx([(0, 1), (1, 2), (2, 2)])), ValueError,
                                                 "a self-loop at node 2"),
    "networkx MultiGraph with parallel edges": (lambda: as_graph(_nx([(0, 1), (0, 1), (1, 2)], nx.MultiGraph)),
                                                ValueError, "has parallel edges (2 between 0 and 1)"),
    "networkx DiGraph where undirected is needed": (lambda: starlib.edsts(_nx([(0, 1), (1, 2)], nx.DiGraph)),
                                                    ValueError, "DiGraph is directed"),
    "networkx NaN node ids": (lambda: starlib.verify(_nx([(NAN, 1), (1, 2), (2, NAN)]), []), ValueError,
                              "node nan is a NaN float"),
    "networkx empty graph (verify)": (lambda: starlib.verify(nx.Graph(), []), ValueError,
                                      "graph_or_edges: the graph has no vertex; need at least one"),
    "networkx one node (edsts)": (lambda: starlib.edsts(nx.empty_graph(1)), ValueError, "n=1 vertices"),
    "networkx empty graph (edsts)": (lambda: starlib.edsts(nx.Graph()), ValueError, "n=0 vertices"),
    # ArrayGraph whose arrays disagree: was a segmentation fault
    "ArrayGraph with fewer labels than its edges use":
        (lambda: starlib.edsts(ArrayGraph([0, 1], np.array([[0, 1], [1, 2]]))), ValueError,
         "graph: vertex index 2 is out of range: need indices in 0..1 (n=2 labels)"),
    "ArrayGraph with a negative edge index":
        (lambda: starlib.verify(ArrayGraph([0, 1, 2], np.array([[0, 1], [-1, 2]])), []), ValueError,
         "vertex index -1 is out of range"),
    "ArrayGraph.relabel with no sequence": (lambda: K4.relabel(5), ValueError,
                                            "labels=5 must be a sequence of 4 vertex labels"),
    "ArrayGraph.relabel with the wrong length": (lambda: K4.relabel([1, 2]), ValueError,
                                                 "labels: need 4 labels, got 2"),
    "from_edges edges of the wrong shape": (lambda: ArrayGraph.from_edges(range(3), [[0, 1, 2]]), ValueError,
                                            "need an (m, 2) array"),
    "from_edges float edges": (lambda: ArrayGraph.from_edges(range(3), [[0.0, 1.0]]), ValueError,
                               "vertex indices must be integers"),
    # starlib.edsts: options it does not take were ignored
    "edsts k=-1": (lambda: starlib.edsts(K4, k=-1), ValueError, "k=-1 is not an option of edsts"),
    "edsts k larger than any bound": (lambda: starlib.edsts(K4, k=10**6), ValueError,
                                      "k=1000000 is not an option of edsts"),
    "edsts an unknown option": (lambda: starlib.edsts(K4, depth=3), ValueError,
                                "depth=3 is not an option of edsts (its options: g_trees, h_trees"),
    "edsts g_trees that is no tree list": (lambda: starlib.edsts(K4, g_trees=5), TypeError,
                                           "g_trees=5 is not a sequence of trees"),
    # an unsigned index past int64 wrapped to a negative one
    "uint64 edge index 2**63": (lambda: ArrayGraph.from_edges(range(3), np.array([[0, 2**63]], dtype=np.uint64)),
                                ValueError, "vertex index 9223372036854775808 is out of range"),
    "uint64 tree index 2**63": (lambda: verify_edsts(K4, [np.full((3, 2), 2**63, dtype=np.uint64)]), ValueError,
                                "trees[0]: vertex index 9223372036854775808 is out of range"),
    # starlib.repair and starlib.export: arguments that were ignored or gave a library's words
    "repair seed=True": (lambda: starlib.repair(TORUS, TORUS_TREES, ["[0,0]-[0,1]"], seed=True), ValueError,
                         "seed=True is not an integer"),
    "repair seed=-1": (lambda: starlib.repair(TORUS, TORUS_TREES, ["[0,0]-[0,1]"], seed=-1), ValueError,
                       "seed=-1 is too small: need an integer seed >= 0"),
    "repair deep='yes'": (lambda: starlib.repair(TORUS, TORUS_TREES, ["[0,0]-[0,1]"], deep="yes"), ValueError,
                          "deep='yes' is not a flag"),
    "repair a failed link that is no pair": (lambda: starlib.repair(TORUS, TORUS_TREES, [(1, 2, 3)]), ValueError,
                                             "fail[0]=(1, 2, 3) is not a link"),
    "repair a label given as a list": (lambda: starlib.repair(TORUS, TORUS_TREES, [[[0, 0], [0, 1]]]), ValueError,
                                       "fail: vertex [0, 0] is not in the network (labels are hashable"),
    "export path=None": (lambda: starlib.export(None, K4), ValueError, "path=None is not a file path"),
    # starlib.network: parameter types
    "network q=True": (lambda: starlib.network("slimfly", q=True), ValueError, "q=True is not an integer"),
    "network q=5.0": (lambda: starlib.network("slimfly", q=5.0), ValueError, "q=5.0 is not an integer"),
    "network q='5'": (lambda: starlib.network("slimfly", q="5"), ValueError, "q='5' is not an integer"),
    # format options (render and check_options; the CLI's --option goes through the same check)
    "anynet nodes_per_router=10**20": (lambda: render("anynet", K4, nodes_per_router=10**20), ValueError,
                                       "nodes_per_router=100000000000000000000 is too large: need 1 <= "
                                       "nodes_per_router <= 65536"),
    "anynet latency=2**31": (lambda: check_options("anynet", latency=2**31), ValueError,
                             "latency=2147483648 is too large: need 1 <= latency <= 2147483647"),
    "astra-ns3 hosts_per_router=10**20 (was killed for memory)":
        (lambda: render("astra-ns3", K4, hosts_per_router=10**20), ValueError, "hosts_per_router=1000"),
    "graphml endpoints=10**20": (lambda: check_options("graphml", endpoints=10**20), ValueError,
                                 "endpoints=100000000000000000000 is too large"),
    "msccl-xml max_bytes=2**63": (lambda: check_options("msccl-xml", max_bytes=2**63), ValueError,
                                  "max_bytes=9223372036854775808 is too large"),
    "anynet file over the memory limit":
        (lambda: _with_limit(lambda: render("anynet", K4, nodes_per_router=65536)), ValueError,
         "nodes_per_router=65536 is too large: anynet(nodes_per_router=65536, n=4) would have 262,144 endpoints"),
    "an option a format does not take": (lambda: check_options("anynet", endpoints=2), ValueError,
                                         "format='anynet' takes no option 'endpoints'"),
}


def _export_nx():
    import tempfile
    from pathlib import Path

    return starlib.export(Path(tempfile.mkdtemp()) / "p.json", nx.path_graph(3))


def _with_limit(f):
    with limit_memory(2**20):
        return f()


@pytest.mark.parametrize("kind", REFUSED)
def test_a_bad_input_is_refused_by_name(kind):
    call, exc, text = REFUSED[kind]
    with pytest.raises(exc) as info:
        call()
    assert type(info.value) is exc and text in str(info.value), str(info.value)
    assert "\n" not in str(info.value)


ACCEPTED = {  # kind -> (call, check of the result): the edges of the rows above that must still work
    "numpy integer q": (lambda: starlib.network("slimfly", q=np.int64(5)).n, 50),
    "a MultiGraph without parallel edges": (lambda: as_graph(_nx([(0, 1), (1, 2)], nx.MultiGraph)).m, 2),
    "a tree rooted at the last vertex": (lambda: verify_edsts(K4, [Tree(K4_TREES[0].rows, root=3), K4_TREES[1]])
                                         .valid, True),
    "trees of another graph are reported, not refused": (lambda: verify_edsts(
        starlib.network("slimfly", q=5), K4_TREES).failed("size"), [0, 1]),
    "a one-node graph verifies with allow_empty": (lambda: verify_edsts(nx.empty_graph(1), [], allow_empty=True)
                                                   .valid, True),
    "anynet at the bounds": (lambda: check_options("anynet", nodes_per_router=65536, latency=2**31 - 1),
                             {"nodes_per_router": 65536, "latency": 2**31 - 1}),
    "edsts with the factor options": (lambda: len(starlib.edsts(K4, g_trees=None)), 2),
    "export of a networkx graph": (lambda: _export_nx().suffix, ".json"),
    "repair with a numpy seed": (lambda: starlib.repair(TORUS, TORUS_TREES, ["[0,0]-[0,1]"], seed=np.int64(3))
                                 .count_after, 2),
}


@pytest.mark.parametrize("kind", ACCEPTED)
def test_the_edges_of_the_rules_still_work(kind):
    call, expected = ACCEPTED[kind]
    assert call() == expected


def test_the_cli_names_a_format_option_out_of_range(tmp_path):
    """The issue's command: 'cannot fit int into an index-sized integer' before; the option, value and rule now."""
    out = tmp_path / "x.txt"
    p = subprocess.run([sys.executable, "-m", "starlib", "build", "slimfly", "q=5", "--format", "anynet", "--option",
                        "nodes_per_router=99999999999999999999", "-o", str(out)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 2 and p.stderr == ("error: nodes_per_router=99999999999999999999 is too large: need 1 <= "
                                              "nodes_per_router <= 65536 (compute nodes on one router)\n"), p.stderr
    assert not out.exists()


ALL_OPTIONS = [(fmt, opt) for fmt, f in FORMATS.items() for opt in f.options]


@pytest.mark.parametrize("fmt,option", ALL_OPTIONS, ids=[f"{f}-{o}" for f, o in ALL_OPTIONS])
@pytest.mark.parametrize("value", [10**20, -1, 2.5, "4", True])
def test_every_format_option_names_itself_for_a_bad_value(fmt, option, value):
    """Every option of every format, with a huge, negative, float, text and bool value: a ValueError naming the
    option and its value (the command line reads VALUE with parse_int, then runs this same check)."""
    if option == "table" and value is True:  # the one flag: True is its value
        assert check_options(fmt, table=True) == {"table": True}
        return
    with pytest.raises(ValueError) as info:
        check_options(fmt, **{option: value})
    assert str(info.value).startswith(f"{option}="), str(info.value)
    assert "index-sized" not in str(info.value) and "\n" not in str(info.value)
