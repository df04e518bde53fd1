"""The small API (starlib.network, edsts, verify, export, read): what a user calls, checked against the library
routines it stands for and against networkx."""

from __future__ import annotations

import networkx as nx
import pytest

import starlib
from starlib.edst import METHODS, verify_edsts
from starlib.networks import slimfly


def test_network_builds_every_kind_of_family():
    assert starlib.network("slimfly", q=5).m == slimfly(5).m
    assert starlib.network("star", k=4).n == 24  # a super Cayley family
    assert starlib.network("netdesign-chain", N=11, m=5).n == 14  # a network-design family
    with pytest.raises(ValueError, match="network='slimfy' is not a known family .did you mean slimfly"):
        starlib.network("slimfy", q=5)


@pytest.mark.parametrize("method", list(METHODS))
def test_edsts_gives_each_methods_trees_verified(method):
    # Slim Fly MMS(5) has no Property V-D.1 witness; K_4 x K_6 has one (Cartesian products always do)
    # optimal-depth on Slim Fly MMS(3), where the shallow start meets the depth bound (MMS(5) would run CP-SAT a minute)
    P = (starlib.network("cartesian", G="complete:n=4", H="complete:n=6") if method == "property" else
         slimfly(3) if method == "optimal-depth" else slimfly(5))
    trees = starlib.edsts(P, method=method)
    assert [t.edges.tolist() for t in trees] == [t.edges.tolist() for t in METHODS[method](P)]
    assert verify_edsts(P, trees).valid and starlib.verify(P, trees).valid


def test_edsts_on_a_networkx_graph_and_a_method_that_does_not_apply():
    G = nx.random_regular_graph(6, 30, seed=2)
    trees = starlib.edsts(G, method="shallow")
    assert len(trees) == 3 and starlib.verify(G, trees).valid
    with pytest.raises(ValueError, match="method=maximum needs a star product"):
        starlib.edsts(G, method="maximum")


def test_export_reads_the_format_off_the_suffix(tmp_path):
    G = starlib.network("torus", sizes="3,4")
    trees = starlib.edsts(G)
    back = starlib.read(starlib.export(tmp_path / "t.json", G, trees, network="torus", params={"sizes": "3,4"}))
    assert back.network == "torus" and len(back.trees) == len(trees) and verify_edsts(back.graph, back.trees).valid
    g = nx.read_graphml(starlib.export(tmp_path / "t.graphml", G, trees))
    assert g.number_of_edges() == G.m
    assert (starlib.export(tmp_path / "t.txt", G, format="edgelist").read_text().count("\n")) == G.m
    with pytest.raises(ValueError, match="the suffix '.txt' names no format"):
        starlib.export(tmp_path / "u.txt", G, trees)
    assert not (tmp_path / "u.txt").exists()


def test_edsts_may_return_no_tree():
    """Table I's Universal count t_G + t_H - 2 is 0 on K_2 x K_2 (the 4-cycle): auto builds no tree, and the API
    returns the empty family instead of failing its verification; the exact packer finds the one tree."""
    G = starlib.network("hyperx", sizes="2,2")
    assert len(starlib.edsts(G)) == 0 and len(starlib.edsts(G, method="generic")) == 1
