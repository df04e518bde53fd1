"""Structured factor packings against the exact packer (count) and the verifier; Lemma V-C.1."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from starlib.edst import default_factor_trees, factor_data, factor_edsts, generic_packing, lemma_vc1, verify_edsts
from starlib.edst.factor import (
    bipartite_paths,
    circulant_connection_set,
    circulant_paths,
    complete_bipartite_sides,
    walecki_paths,
)
from starlib.edst.product.factor_data import nontree_edges
from starlib.factors import complete, complete_bipartite, cycle, inductive_quad, mms_supernode, paley, polarfly
from starlib.graphs import ArrayGraph
from starlib.networks import slimfly_hafner


def assert_packing(graph, trees, expected: int, tag: str | None = None) -> None:
    assert len(trees) == expected
    assert verify_edsts(graph, trees).valid
    if tag is not None:
        assert set(trees.constructions()) == {tag}
    for t in trees:  # rooted at a center
        ecc = nx.eccentricity(nx.Graph(list(map(tuple, t.edges.tolist()))))
        assert t.depth == min(ecc.values())


@pytest.mark.parametrize("n", range(2, 14))
def test_walecki(n):
    g = complete(n)
    assert_packing(g, factor_edsts(g), n // 2, "walecki")
    assert factor_edsts(g, method="walecki").constructions() == ["walecki"] * (n // 2)
    assert len(walecki_paths(n)) == generic_packing(g).count


@pytest.mark.parametrize("q", range(2, 10))
def test_complete_bipartite(q):
    g = complete_bipartite(q)
    expected = (q * q) // (2 * q - 1)  # Li, Li, Li: floor(ab/(a+b-1))
    assert expected == q // 2
    assert_packing(g, factor_edsts(g), expected, "bipartite")
    assert len(bipartite_paths(*complete_bipartite_sides(g))) == generic_packing(g).count


def test_bipartite_detection_ignores_labelling():
    g = nx.relabel_nodes(nx.complete_bipartite_graph(5, 5), {i: (7 * i) % 10 for i in range(10)})
    a = ArrayGraph.from_networkx(g)
    assert complete_bipartite_sides(a) is not None
    assert_packing(a, factor_edsts(a), 2, "bipartite")
    assert complete_bipartite_sides(complete(4)) is None


@pytest.mark.parametrize("q", [5, 13, 17, 29, 37])
def test_paley_prime_is_a_hamilton_decomposition(q):
    g = paley(q)
    trees = factor_edsts(g)
    assert_packing(g, trees, (q - 1) // 4, "circulant")
    assert generic_packing(g).count == (q - 1) // 4
    # the leftover edges {-s, 0} form a star at 0: one per cycle, r = t
    nt = nontree_edges(g.edges, q, [t.edges for t in trees])
    assert nt.shape[0] == (q - 1) // 4 and (nt == 0).any(axis=1).all()


@pytest.mark.parametrize("q", [9, 25])
def test_paley_prime_power_gets_the_abelian_packing(q):
    g = paley(q)
    trees = factor_edsts(g)
    assert_packing(g, trees, (q - 1) // 4, "abelian")
    assert len(factor_edsts(g, method="generic")) == (q - 1) // 4  # the exact packer agrees on the count


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9, 11, 13, 16])
def test_mms_supernode(q):
    g = mms_supernode(q)
    delta = {1: 1, 3: -1, 0: 0}[q % 4]
    w = (q - delta) // 4
    trees = factor_edsts(g)
    assert_packing(g, trees, w)
    assert g.m - w * (q - 1) == w  # Table V: t = r = w
    # C(X) for q = 3 is K_3 and for q = 4 the 4-cycle K_{2,2}; prime q >= 5 are circulants; odd prime
    # powers are Cayley graphs of (GF(q), +) (the abelian packing); even q > 4 fall back to the exact packer
    tag = {3: "walecki", 4: "bipartite", 8: "generic", 9: "abelian", 16: "generic"}.get(q, "circulant")
    assert set(trees.constructions()) == {tag}


def test_circulant_helpers():
    assert circulant_connection_set(cycle(7)).tolist() == [1, 6]
    assert circulant_connection_set(complete_bipartite(3)) is None
    paths = circulant_paths(8, np.array([1, 2, 3, 4, 5, 6, 7]))
    assert len(paths) == 2  # classes {1,7}, {3,5} are coprime to 8; {2,6} and {4} are not


@pytest.mark.parametrize("d", [3, 4, 7, 8])
def test_inductive_quad_generic(d):
    g = inductive_quad(d)
    t = g.m // (g.n - 1)
    assert_packing(g, factor_edsts(g), t, "generic")


@pytest.mark.parametrize("q", [2, 3, 4, 5])
def test_polarfly(q):
    g = polarfly(q)
    trees = factor_edsts(g)
    expected = (q + 1) // 2  # Table V: q/2 (even), (q+1)/2 (odd)
    assert len(trees) == expected and verify_edsts(g, trees).valid
    assert all(c.startswith("ER-") or c == "generic" for c in trees.constructions())


@pytest.mark.parametrize("q", [3, 4, 5, 7])
def test_slimfly_hafner_uses_the_star_product(q):
    g = slimfly_hafner(q)
    trees = default_factor_trees(g)
    delta = {1: 1, 3: -1, 0: 0}[q % 4]
    assert len(trees) == (3 * q - delta) // 4 == generic_packing(g).count
    assert verify_edsts(g, trees).valid
    assert all(c.startswith("V-C.") for c in trees.constructions())


def test_methods_and_errors():
    with pytest.raises(ValueError, match="method='nope'"):
        factor_edsts(complete(4), method="nope")
    with pytest.raises(ValueError, match="method=walecki does not apply"):
        factor_edsts(cycle(5), method="walecki")
    with pytest.raises(ValueError, match="n=1"):
        factor_edsts(ArrayGraph.from_edges([0], np.zeros((0, 2), dtype=int)))
    assert factor_edsts(complete(6), method="generic").constructions() == ["generic"] * 3
    # auto falls back to the exact packer when the structure gives fewer trees than the bound
    g = ArrayGraph.from_networkx(nx.circulant_graph(12, [1, 2, 3, 4, 5]))  # only {1,11}, {5,7} are coprime
    assert len(factor_edsts(g)) == generic_packing(g).count == 5


def lemma_check(data, lem, size):
    n = data.n
    assert len(lem.X) == size == len(set(lem.X.tolist()))
    nt = {frozenset(e) for e in lem.data.nontree.tolist()}
    for path in lem.paths():
        assert path[-1] not in set(lem.X.tolist())
        assert all(p in set(lem.X.tolist()) for p in path[:-1])
        assert all(frozenset(e) in nt for e in zip(path, path[1:], strict=False))
        assert len(path) - 1 <= lem.L
    # the trees are still a maximum EDST set of the same graph
    g = ArrayGraph.from_edges(range(n), data.edges)
    assert len(lem.data.trees) == data.t and verify_edsts(g, lem.data.trees).valid
    # the used forest edges form a forest of |X| edges
    f = nx.Graph(list(map(tuple, lem.forest_edges.tolist())))
    assert nx.is_forest(f) and f.number_of_edges() == size


@pytest.mark.parametrize("graph", [complete(5), complete(7), complete_bipartite(5), complete_bipartite(6),
                                   paley(13), mms_supernode(8), inductive_quad(7)])
def test_lemma_vc1_on_factors(graph):
    d = factor_data(graph, factor_edsts(graph))
    assert d.r >= d.t
    lem = lemma_vc1(d, d.t, rank=d.ecc(-1))
    lemma_check(d, lem, d.t)
    # the preferred vertex is the lowest-eccentricity vertex that can be in X
    assert lem.L >= 1


def test_lemma_vc1_augments_when_the_nontree_edges_close_cycles():
    """K_7 with a packing whose non-tree edges are a triangle (forest rank 2 < t = 3): swaps are needed."""
    k7 = complete(7)
    minus = ArrayGraph.from_edges(range(7), np.array([e for e in k7.edges.tolist() if not (e[1] <= 2)]))
    pk = generic_packing(minus)
    assert pk.count == 3
    d = factor_data(k7, list(pk.trees))
    assert sorted(map(tuple, d.nontree.tolist())) == [(0, 1), (0, 2), (1, 2)]
    lem = lemma_vc1(d, 3)
    lemma_check(d, lem, 3)
    assert not np.array_equal(np.sort(lem.data.nontree, axis=0), np.sort(d.nontree, axis=0))


def test_lemma_vc1_errors():
    d = factor_data(complete(6), factor_edsts(complete(6)))  # r = 0
    with pytest.raises(ValueError, match="forest rank 0 < 3"):
        lemma_vc1(d, 3)
    assert len(lemma_vc1(d, 0).X) == 0
    with pytest.raises(ValueError, match="size=-1"):
        lemma_vc1(d, -1)
