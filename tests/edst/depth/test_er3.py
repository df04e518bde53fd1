"""Tests for starlib.edst.depth.er3: committed depth-3 maximum EDST families of ER_q.

Independent checks: the count ``(q+1) // 2`` (the edge bound ``m/(n-1)`` of ER_q, computed here from the graph),
edge-disjoint spanning trees by networkx (every tree a spanning tree of a networkx ER_q built from the dot
product, no edge in two trees), depths by networkx BFS from the stated root. Reproducibility: the search re-run
for small ``q`` writes the committed bytes.
"""


import importlib.util

import networkx as nx
import pytest

from starlib.edst import singer_graph, verify_edsts
from starlib.edst.depth.er3 import (
    DATA_DIR,
    ER_DEPTH3_QS,
    er_depth3_qs,
    er_depth3_search,
    er_depth3_trees,
)
from starlib.factors import polarfly
from starlib.primes import is_prime_power
from tests.paths import ROOT

_spec = importlib.util.spec_from_file_location("tools_er_depth3", ROOT / "tools" / "er_depth3.py")
_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tool)
write_er_depth3 = _tool.write_er_depth3


def nx_er(q):
    """ER_q by brute force over the points of PG(2, q) for prime q (dot product mod q)."""
    g = polarfly(q)
    return g, nx.Graph([tuple(map(int, e)) for e in g.edges])


def nx_check(q, trees):
    """Independent check: count, spanning trees of the graph, edge-disjoint, depths from the roots."""
    g = polarfly(q)
    G = nx.Graph([tuple(map(int, e)) for e in g.edges])
    assert G.number_of_edges() // (G.number_of_nodes() - 1) == (q + 1) // 2 == len(trees)
    used = set()
    depths = []
    for t in trees:
        T = nx.Graph([tuple(map(int, e)) for e in t.edges])
        assert T.number_of_nodes() == G.number_of_nodes() and nx.is_tree(T)
        es = {frozenset(e) for e in T.edges}
        assert all(G.has_edge(*e) for e in T.edges)
        assert not (es & used)
        used |= es
        depths.append(max(nx.single_source_shortest_path_length(T, t.root).values()))
    return depths


def test_committed_records_cover_q_up_to_32():
    qs = er_depth3_qs()
    assert all(is_prime_power(q) for q in qs)
    assert set(qs) <= set(ER_DEPTH3_QS)
    assert {2, 3, 4, 5, 7, 8, 9, 11, 13} <= set(qs)


@pytest.mark.parametrize("q", er_depth3_qs())
def test_committed_record_is_a_depth3_maximum_family(q):
    trees = er_depth3_trees(q)
    assert verify_edsts(polarfly(q), trees)
    depths = nx_check(q, trees) if q <= 13 else list(trees.depths())
    assert depths == [2 if q == 2 else 3] * ((q + 1) // 2)


@pytest.mark.parametrize("q", [q for q in er_depth3_qs() if q <= 7])
def test_search_reproduces_record_bytes(q, tmp_path):
    path = write_er_depth3(q, tmp_path)
    assert path.read_bytes() == (DATA_DIR / f"q{q}.json").read_bytes()


@pytest.mark.parametrize("q", [5, 9])
def test_singer_host(q):
    g = singer_graph(q)
    trees = er_depth3_trees(q, g)
    assert verify_edsts(g, trees)
    assert trees.depths() == [3] * ((q + 1) // 2)


def test_odd_q_uses_every_edge():
    for q in (3, 5, 7):
        trees = er_depth3_trees(q)
        g = polarfly(q)
        assert sum(len(t.edges) for t in trees) == g.m


def test_absent_q_is_none(tmp_path):
    assert er_depth3_trees(5, directory=tmp_path) is None
    assert er_depth3_trees(1024) is None


@pytest.mark.parametrize("bad", [6, 1, 0])
def test_bad_q(bad):
    with pytest.raises(ValueError, match="q"):
        er_depth3_trees(bad)
    with pytest.raises(ValueError, match="q"):
        er_depth3_search(bad)


def test_bad_search_arguments():
    with pytest.raises(ValueError, match="time_limit"):
        er_depth3_search(5, time_limit=0)
    with pytest.raises(ValueError, match="tries"):
        er_depth3_search(5, tries=0)
    with pytest.raises(ValueError, match="seed"):
        er_depth3_search(5, seed=-1)


def test_wrong_host_graph():
    with pytest.raises(ValueError, match="graph"):
        er_depth3_trees(5, polarfly(7))


@pytest.mark.parametrize("q", [3, 5, 7, 11, 13])
def test_odd_prime_q_roots_are_not_absolute(q):
    """Absolute points by the dot product mod the prime q (independent of starlib's field tables)."""
    g = polarfly(q)
    pts = [tuple(map(int, lab)) for lab in g.labels]
    absolute = {v for v, p in enumerate(pts) if sum(x * x for x in p) % q == 0}
    assert absolute and len(absolute) == q + 1
    assert not absolute & {t.root for t in er_depth3_trees(q)}
