"""Star products: counts, degrees, edges and transfer maps against the definition, for random bijections."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from starlib.factors import complete, complete_bipartite, cycle, inductive_quad, paley
from starlib.graphs import ArrayGraph
from starlib.products import (
    StarProduct,
    cartesian_product,
    check_permutation,
    has_property_r1,
    has_property_rstar,
    star_product,
    transfer_map,
)

FACTORS = {
    "K2": lambda: complete(2),
    "K4": lambda: complete(4),
    "C5": lambda: cycle(5),
    "K33": lambda: complete_bipartite(3),
    "QR5": lambda: paley(5),
    "QR9": lambda: paley(9),
    "IQ3": lambda: inductive_quad(3),
    "path4": lambda: ArrayGraph.from_edges(list("abcd"), np.array([[0, 1], [1, 2], [2, 3]])),
}


def definition_edges(G, H, B):
    """Edge set of G * H straight from the definition, with Python loops (the oracle)."""
    nH = H.n
    out = set()
    for g in range(G.n):
        for u, v in H.edges.tolist():
            out.add((g * nH + u, g * nH + v))
    for k, (g, g2) in enumerate(G.edges.tolist()):
        for h in range(nH):
            a, b = g * nH + h, g2 * nH + int(B[k][h])
            out.add((min(a, b), max(a, b)))
    return out


@given(st.sampled_from(sorted(FACTORS)), st.sampled_from(sorted(FACTORS)), st.integers(0, 2**32 - 1))
def test_random_bijections_match_definition(gname, hname, seed):
    G, H = FACTORS[gname](), FACTORS[hname]()
    rng = np.random.default_rng(seed)
    B = np.stack([rng.permutation(H.n) for _ in range(G.m)])
    P = star_product(G, H, B)
    assert isinstance(P, StarProduct)
    assert P.n == G.n * H.n
    assert P.m == G.m * H.n + G.n * H.m
    gd, hd = G.degrees(), H.degrees()
    assert np.array_equal(P.degrees(), (gd[:, None] + hd[None, :]).ravel())
    assert {tuple(e) for e in P.edges.tolist()} == definition_edges(G, H, B)
    assert P.labels[5 % P.n] == (G.labels[(5 % P.n) // H.n], H.labels[(5 % P.n) % H.n])
    assert np.all(P.edges[:, 0] < P.edges[:, 1])
    keys = P.edges[:, 0] * P.n + P.edges[:, 1]
    assert np.all(np.diff(keys) > 0)
    # transfer maps: phi_{g'->g} = phi_{g->g'}^{-1}, and every (g,h)-(g',phi(h)) is an edge
    edges = {tuple(e) for e in P.edges.tolist()}
    for g, g2 in G.edges.tolist():
        fwd, bwd = transfer_map(P, g, g2), transfer_map(P, g2, g)
        assert np.array_equal(fwd[bwd], np.arange(H.n)) and np.array_equal(bwd[fwd], np.arange(H.n))
        for h in range(H.n):
            assert (g * H.n + h, g2 * H.n + int(fwd[h])) in edges
        assert np.array_equal(P.transfer(np.full(H.n, g2), np.full(H.n, g), np.arange(H.n)), bwd)
    assert np.array_equal(P.intra_mask().sum(), G.n * H.m)


def test_three_bijection_forms_agree():
    G, H = complete(4), paley(5)
    f = H.meta["bijection"]
    P1 = star_product(G, H, f)
    P2 = star_product(G, H, np.tile(f, (G.m, 1)))
    P3 = star_product(G, H, lambda a, b: f)
    assert np.array_equal(P1.edges, P2.edges) and np.array_equal(P1.edges, P3.edges)
    assert P1.bijections.shape == (G.m, H.n) and P1.bijections.strides[0] == 0  # broadcast view
    rng = np.random.default_rng(1)
    table = {(a, b): rng.permutation(5) for a, b in itertools.combinations(range(4), 2)}
    P4 = star_product(G, H, lambda a, b: table[(a, b)])
    assert np.array_equal(P4.bijections, np.stack([table[tuple(e)] for e in G.edges.tolist()]))


def test_petersen_and_cartesian():
    H = paley(5)
    P = star_product(complete(2), H, H.meta["bijection"])  # f(x) = 2x
    assert H.meta["bijection"].tolist() == [0, 2, 4, 1, 3]
    assert nx.is_isomorphic(P.to_networkx(), nx.petersen_graph())
    C = cartesian_product(cycle(3), cycle(4))
    assert nx.is_isomorphic(C.to_networkx(), nx.cartesian_product(nx.cycle_graph(3), nx.cycle_graph(4)))
    assert np.all(C.bijections == np.arange(4))


def test_bad_bijections_are_rejected():
    G, H = complete(3), cycle(4)
    B = np.tile(np.arange(4), (3, 1))
    B[1] = [0, 0, 1, 2]
    with pytest.raises(ValueError, match=r"row 1 \(arc 0 -> 2\).*not a permutation"):
        star_product(G, H, B)
    with pytest.raises(ValueError, match=r"shape \(G.m, H.n\)=\(3, 4\)"):
        star_product(G, H, np.zeros((2, 4), dtype=int))
    with pytest.raises(ValueError, match="not a permutation of 0..3"):
        star_product(G, H, [0, 1, 2, 2])
    with pytest.raises(ValueError, match="integers"):
        star_product(G, H, [0.0, 1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"arc 1 -> 2.*every arc needs"):
        star_product(G, H, lambda a, b: [0, 1, 2] if (a, b) == (1, 2) else [0, 1, 2, 3])
    with pytest.raises(ValueError, match="not a permutation"):
        check_permutation([0, 2], 2)


def test_disconnected_factors():
    two = ArrayGraph.from_edges([0, 1, 2, 3], np.array([[0, 1], [2, 3]]), name="2K2")
    with pytest.raises(ValueError, match="structure graph 2K2 .*is not connected"):
        star_product(two, complete(3), [0, 1, 2])
    with pytest.raises(ValueError, match="supernode 2K2 .*is not connected"):
        star_product(complete(3), two, [0, 1, 2, 3])
    P = star_product(complete(2), two, [0, 2, 1, 3], allow_disconnected_supernode=True)
    assert P.is_connected() and P.m == 2 * 2 + 4


def test_transfer_map_non_edge():
    P = star_product(cycle(5), complete(2), [1, 0])
    with pytest.raises(ValueError, match="g=0, g2=2"):
        transfer_map(P, 0, 2)
    assert transfer_map(P, 4, 0).tolist() == [1, 0]


def test_extra_edges_are_merged():
    P = star_product(complete(2), cycle(4), [0, 1, 2, 3], extra_edges=np.array([[0, 2], [1, 0]]))
    assert P.m == 4 + 2 * 4 + 1  # {0,1} is already an edge of the cycle
    assert P.meta["extra_edges"].tolist() == [[0, 1], [0, 2]]


@pytest.mark.parametrize("q", [5, 9, 13, 17, 25, 29, 37, 41, 49])
def test_paley_has_r1_not_rstar(q):
    H = paley(q)
    f = H.meta["bijection"]
    assert has_property_r1(H, f)
    assert not has_property_rstar(H, f)  # x -> xi x is not an involution
    assert not has_property_r1(H, np.arange(q))


def test_rstar_needs_an_involution_and_completeness():
    H = inductive_quad(7)
    f = H.meta["involution"]
    assert has_property_rstar(H, f)
    assert not has_property_rstar(H, np.arange(H.n))
    # drop one edge: the R* closure is no longer complete
    H2 = ArrayGraph(H.labels, H.edges[1:])
    assert not has_property_rstar(H2, f)
    with pytest.raises(ValueError, match="permutation"):
        has_property_rstar(H, f[:-1])


@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(0, 200))
def test_sort_based_canonical_edges_match_a_set_reference(seed, n, m):
    from starlib.graphs import canonical_edges

    e = np.random.default_rng(seed).integers(0, n, size=(m, 2))
    reference = sorted({(min(u, v), max(u, v)) for u, v in e.tolist() if u != v})
    assert canonical_edges(e, n).tolist() == [list(p) for p in reference]


def test_each_factor_is_converted_once(monkeypatch):
    """``star_product`` and ``cartesian_product`` are doors: each converts and checks a factor once (H first in
    ``cartesian_product``, which needs its size for the identity), then builds past the door."""
    import starlib.products as products

    real, names = products.as_graph, []

    def counted(obj, name="graph", **kwargs):
        names.append(name)
        return real(obj, name, **kwargs)

    monkeypatch.setattr(products, "as_graph", counted)
    assert cartesian_product(nx.path_graph(3), nx.complete_graph(2)).m == 7
    assert names == ["H", "G"]
    names.clear()
    assert star_product(complete(3), nx.complete_graph(2), [1, 0]).m == 9
    assert names == ["G", "H"]
