"""Tests for starlib.edst.depth.slimfly3: Slim Fly MMS(q) at its maximum EDST count with every tree of depth 3.

Independent checks: the trees are mapped onto Hafner's construction of MMS(q) (:func:`starlib.networks.slimfly_hafner`,
built from the generator sets, not from the star product) and checked there by networkx: each a spanning tree,
no edge in two trees, the count ``floor(m/(n-1))`` from that graph's own sizes, depths by networkx BFS. The
searches are re-run where CP-SAT settles them in seconds (MMS(3) found, MMS(5) refuted).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import orjson
import pytest

from starlib.edst.depth import shallow_trees
from starlib.edst.depth.slimfly3 import (
    DATA_DIR,
    SLIMFLY_DEPTH3_PARAMS,
    SLIMFLY_DEPTH3_QS,
    record_path,
    slimfly_depth3_trees,
)
from starlib.edst.trees import relabel_trees
from starlib.networks import slimfly, slimfly_hafner
from tests.paths import load_tool

_tool = load_tool("slimfly_depth3")
slimfly_depth3_search = _tool.slimfly_depth3_search


def hafner_check(q, trees):
    """Count, spanning trees, edge-disjointness and depths on Hafner's MMS(q), by networkx."""
    H = slimfly_hafner(q)
    G = nx.Graph([tuple(map(int, e)) for e in H.edges])
    assert len(trees) == G.number_of_edges() // (G.number_of_nodes() - 1)
    used: set[frozenset[int]] = set()
    depths = []
    for t in relabel_trees(trees, H.index):
        T = nx.Graph([tuple(map(int, e)) for e in t.edges])
        assert T.number_of_nodes() == G.number_of_nodes() and nx.is_tree(T)
        assert all(G.has_edge(*e) for e in T.edges)
        es = {frozenset(e) for e in T.edges}
        assert not es & used
        used |= es
        depths.append(max(nx.single_source_shortest_path_length(T, t.root).values()))
    return depths


def test_records_are_the_declared_qs():
    assert sorted(int(p.stem[1:]) for p in DATA_DIR.glob("q*.json")) == sorted(SLIMFLY_DEPTH3_QS)
    assert set(SLIMFLY_DEPTH3_PARAMS) == set(SLIMFLY_DEPTH3_QS)


@pytest.mark.parametrize("q", SLIMFLY_DEPTH3_QS)
def test_record_is_a_depth3_maximum_family(q):
    T = slimfly_depth3_trees(q, slimfly(q))
    assert hafner_check(q, T) == [3] * len(T)  # depth 3 is the least any tree can have (slimfly "Lower bound")
    data = orjson.loads(record_path(q).read_bytes())
    assert data["search"] == SLIMFLY_DEPTH3_PARAMS[q] and data["method"] == "slimfly_depth3_search"


def test_shallow_method_returns_the_record():
    T = shallow_trees(slimfly(7))
    assert len(T) == 5 and max(T.depths()) == 3


def test_search_finds_depth3_on_mms3_and_refutes_mms5(tmp_path):
    T = slimfly_depth3_search(3, slimfly(3), time_limit=10.0)
    assert T is not None and hafner_check(3, T) == [3, 3]
    assert slimfly_depth3_search(5, slimfly(5), time_limit=10.0) is None  # Hoffman-Singleton (test_exact)
    assert _tool.write_slimfly_depth3(5, tmp_path, time_limit=10.0) is None
    assert list(tmp_path.iterdir()) == []  # nothing written when nothing is found


def test_absent_q_is_none(tmp_path):
    assert slimfly_depth3_trees(7, slimfly(7), directory=tmp_path) is None
    assert slimfly_depth3_trees(4, slimfly(4)) is None


def test_tool_writes_a_readable_record(tmp_path):
    path = _tool.write_slimfly_depth3(3, tmp_path, time_limit=10.0)
    T = slimfly_depth3_trees(3, slimfly(3), directory=tmp_path)
    assert path is not None and path.name == "q3.json" and max(T.depths()) == 3


def test_bad_records_are_refused(tmp_path):
    data = orjson.loads(record_path(7).read_bytes())
    data["trees"] = data["trees"][:-1]  # one tree short of the maximum
    (tmp_path / "q7.json").write_bytes(orjson.dumps(data))
    with pytest.raises(ValueError, match="expected 5"):
        slimfly_depth3_trees(7, slimfly(7), directory=tmp_path)
    data = orjson.loads(record_path(7).read_bytes())
    parent = np.asarray(data["trees"][0]["parent"])
    parent[data["trees"][0]["root"]] = 0  # the root gets a parent: not a parent array
    data["trees"][0]["parent"] = parent.tolist()
    (tmp_path / "q7.json").write_bytes(orjson.dumps(data))
    with pytest.raises(ValueError, match="parent array"):
        slimfly_depth3_trees(7, slimfly(7), directory=tmp_path)
    data["params"] = {"q": 8}
    (tmp_path / "q7.json").write_bytes(orjson.dumps(data))
    with pytest.raises(ValueError, match="not a family on slimfly"):
        slimfly_depth3_trees(7, slimfly(7), directory=tmp_path)


def test_bad_arguments():
    with pytest.raises(ValueError, match="q"):
        slimfly_depth3_trees(6, slimfly(7))
    with pytest.raises(ValueError, match="graph"):
        slimfly_depth3_trees(7, slimfly(5))
    with pytest.raises(ValueError, match="graph"):
        slimfly_depth3_search(7, None)
    with pytest.raises(ValueError, match="time_limit"):
        slimfly_depth3_search(3, slimfly(3), time_limit=0)
    with pytest.raises(ValueError, match="seed"):
        slimfly_depth3_search(3, slimfly(3), seed=-1)
