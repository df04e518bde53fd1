"""The "abelian" packing of Cayley graphs on (GF(p^k), +): QR(q), the Slim Fly supernodes C(X), other sets S.

Every tree set is checked by the verifier (spanning, acyclic, member, disjoint); the count is compared with the
bound min(floor(m/(n-1)), min degree) computed from the graph itself, and the connection set found by the
detector with the one the builders record (an independent source: the field's squares / MMS generators).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from starlib.edst import verify_edsts
from starlib.edst.factor import factor_edsts
from starlib.edst.factor.abelian import abelian_graph_paths, abelian_order, abelian_paths, additive_connection_set
from starlib.factors import complete_bipartite, cycle, mms_generators, mms_supernode, paley, polarfly
from starlib.fields import tables
from starlib.graphs import ArrayGraph
from starlib.networks import slimfly
from starlib.primes import prime_power_parts

ODD_PRIME_POWERS = [q for q in range(9, 730, 2) if (pk := prime_power_parts(q)) and pk[1] >= 2]


def bound(g) -> int:
    deg = np.bincount(g.edges.ravel(), minlength=g.n)
    return int(min(g.m // (g.n - 1), deg.min()))


def check(g, q: int, S_expected: np.ndarray) -> None:
    S = additive_connection_set(g, q)
    assert S is not None and np.array_equal(S, np.sort(S_expected))
    trees = abelian_paths(q, S)
    assert trees is not None
    assert len(trees) == bound(g) == S.size // 2
    assert all(t.shape == (q - 1, 2) and t.dtype == np.int64 for t in trees)
    report = verify_edsts(g, trees)
    assert report.valid, report.problems[:3]


def test_the_list_of_cases():
    assert ODD_PRIME_POWERS == [9, 25, 27, 49, 81, 121, 125, 169, 243, 289, 343, 361, 529, 625, 729]


@pytest.mark.parametrize("q", [q for q in ODD_PRIME_POWERS if q % 4 == 1])
def test_paley(q):
    check(paley(q), q, tables(q).squares())


def test_slimfly_supernode_is_mms_supernode():
    """slimfly(q) builds its supernode C(X) with mms_supernode(q); the larger cases below use it directly
    (slimfly(729) itself would have half a billion links)."""
    for q in (9, 25, 27, 49, 81):
        H = slimfly(q).supernode
        assert H.n == q and np.array_equal(H.edges, mms_supernode(q).edges)


@pytest.mark.parametrize("q", ODD_PRIME_POWERS)
def test_slimfly_supernode(q):
    H = mms_supernode(q)
    check(H, q, mms_generators(q)[1])
    Hp = mms_supernode(q, prime=True)  # C(X') too
    check(Hp, q, mms_generators(q)[2])


@pytest.mark.parametrize("q", [1331, 2187])
def test_larger_q_3_mod_4(q):
    """C(X) with q = 3 mod 4, where the sorted order has dependent windows and the search repairs it."""
    check(mms_supernode(q), q, mms_generators(q)[1])


def test_paley_order_is_the_log_order():
    """For QR(q) the order is theta^0, theta^1, ... (theta = xi^2) with no search: the proved case."""
    for q in (81, 125, 625):
        T = tables(q)
        order = abelian_order(q, T.squares())
        assert np.array_equal(order, T.xi_pow(2 * np.arange((q - 1) // 4)))


def cayley(q: int, S: np.ndarray) -> ArrayGraph:
    T = tables(q)
    x = np.arange(q)
    y = T.add(x[:, None], S[None, :])
    return ArrayGraph.from_edges(range(q), np.stack([np.broadcast_to(x[:, None], y.shape).ravel(), y.ravel()], 1))


@pytest.mark.parametrize("q", [9, 25, 27, 49, 81, 125])
def test_random_connection_sets(q):
    """Any spanning symmetric S: when a valid order exists (almost always) the trees are a maximum packing."""
    T = tables(q)
    rng = np.random.default_rng(q)
    half = np.flatnonzero(T.log < (q - 1) // 2)
    half = half[half > 0]
    built = 0
    for size in (2 + prime_power_parts(q)[1], half.size // 3, half.size // 2, half.size):
        reps = rng.choice(half, size=min(size, half.size), replace=False)
        S = np.sort(np.concatenate([reps, T.neg(reps)]))
        g = cayley(q, S)
        assert np.array_equal(additive_connection_set(g, q), S)
        trees = abelian_paths(q, S)
        if trees is not None:
            built += 1
            assert len(trees) == bound(g) == S.size // 2
            assert verify_edsts(g, trees).valid
    assert built >= 3


def test_no_order_gives_none():
    # q = 25: classes e1, 2 e1 (one line) and e2: every cyclic order puts e1 next to 2 e1
    S = np.array([1, 2, 3, 4, 5, 20])  # +-1, +-2 (digits (1,0), (2,0)) and +-5 (digit (0,1))
    assert abelian_order(25, S) is None and abelian_paths(25, S) is None
    g = cayley(25, S)
    trees = factor_edsts(g)  # falls back to the exact packer
    assert set(trees.constructions()) != {"abelian"} and verify_edsts(g, trees).valid
    # S inside a line: disconnected, no order
    assert abelian_order(25, np.array([1, 2, 3, 4])) is None


def test_detector_rejects_non_cayley_graphs():
    g = paley(25)
    perm = np.random.default_rng(0).permutation(25)
    relabelled = ArrayGraph.from_edges(range(25), perm[g.edges])
    assert additive_connection_set(relabelled, 25) is None
    assert abelian_graph_paths(relabelled) is None
    minus_one = ArrayGraph.from_edges(range(25), g.edges[1:])
    assert additive_connection_set(minus_one, 25) is None
    assert additive_connection_set(cycle(25), 25) is None  # Cay(Z_25), not Cay(Z_5^2)
    assert additive_connection_set(polarfly(5), 25) is None  # ER_5: 31 vertices
    assert additive_connection_set(complete_bipartite(9), 9) is None  # K_{9,9}: 18 vertices
    k55 = ArrayGraph.from_networkx(nx.complete_bipartite_graph(12, 13))  # K_{12,13}: 25 vertices, not Cayley
    assert additive_connection_set(k55, 25) is None
    assert abelian_graph_paths(paley(13)) is None and abelian_graph_paths(complete_bipartite(4)) is None


def test_bad_input():
    with pytest.raises(ValueError, match="q=13"):
        additive_connection_set(paley(13), 13)
    with pytest.raises(ValueError, match="q=16"):
        abelian_paths(16, np.array([1, 2]))
    with pytest.raises(ValueError, match="q=12"):
        abelian_order(12, np.array([1, 11]))
    with pytest.raises(ValueError, match="connection: not symmetric"):
        abelian_paths(25, np.array([1, 5]))
    with pytest.raises(ValueError, match="connection: 0"):
        abelian_paths(25, np.array([0, 1, 4]))
    with pytest.raises(ValueError, match="connection: elements"):
        abelian_paths(25, np.array([1, 4, 25]))
    with pytest.raises(ValueError, match="connection: repeated"):
        abelian_paths(25, np.array([1, 4, 4]))
    with pytest.raises(ValueError, match="connection: need"):
        abelian_paths(25, np.array([]))


@pytest.mark.parametrize("which", ["slimfly125-supernode", "paley125"])
def test_factor_edsts_uses_abelian(which):
    g = slimfly(125).supernode if which == "slimfly125-supernode" else paley(125)
    trees = factor_edsts(g)
    assert len(trees) == 31 == bound(g)
    assert set(trees.constructions()) == {"abelian"}
    assert verify_edsts(g, trees).valid
    assert len(factor_edsts(g, method="abelian")) == 31


def test_method_abelian_refuses_other_graphs():
    with pytest.raises(ValueError, match="method=abelian does not apply"):
        factor_edsts(paley(13), method="abelian")


def test_deterministic():
    a = abelian_paths(243, mms_generators(243)[1])
    b = abelian_paths(243, mms_generators(243)[1])
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
