"""EDSTs of ER_q (PolarFly): Singer model, isomorphism with the dot-product ER_q, and the constructions.

Independent sources: the dot-product ER_q of :func:`starlib.factors.polarfly` (helper code written
separately) and a brute-force dot product with ``galois`` arrays; difference sets counted with a plain
``Counter``; the Hamiltonian-path lemma checked by networkx on every pair of ``D``; trees checked by the
general verifier and their depths by networkx eccentricities.
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import gcd

import networkx as nx
import numpy as np
import pytest

from starlib.edst.factor.er import (
    cluster_layout,
    er_edst_bound,
    er_edsts,
    hamiltonian_path_orders,
    singer_graph,
    singer_labels_of,
    singer_model,
    singer_pairing,
    verify_singer_edsts,
)
from starlib.edst.factor.er.layout import INTERNAL, MATCHING, STAR, W_EDGE
from starlib.edst.verify import verify_edsts
from starlib.factors import polarfly, polarfly_points
from starlib.primes import is_prime_power

SMALL = [q for q in range(2, 33) if is_prime_power(q)]
ODD_SMALL = [q for q in SMALL if q % 2]


def _difference_counts(D: np.ndarray, n: int) -> Counter:
    return Counter((int(a) - int(b)) % n for a, b in itertools.permutations(D.tolist(), 2))


@pytest.mark.parametrize("q", [2, 3, 4, 5, 8, 9, 16, 25, 27, 32, 49, 64, 81, 121, 125, 128, 256])
def test_singer_set_is_perfect_difference_set(q):
    S = singer_model(q)
    n = q * q + q + 1
    assert S.n == n and S.D.size == q + 1
    counts = _difference_counts(S.D, n)
    assert sorted(counts) == list(range(1, n)) and set(counts.values()) == {1}
    # absolute points: the i with 2i in D, and they are q+1 distinct points
    ab = S.absolute_points()
    assert ab.size == q + 1 and set(((2 * ab) % n).tolist()) == set(S.D.tolist())


@pytest.mark.parametrize("q", [q for q in SMALL if q <= 16])
def test_singer_graph_is_dot_product_er_q(q):
    S = singer_model(q)
    g = polarfly(q)
    sing = S.index_of_points(polarfly_points(q))
    assert sorted(sing.tolist()) == list(range(S.n))
    mapped = np.sort(sing[g.edges], axis=1)
    mapped = mapped[np.lexsort((mapped[:, 1], mapped[:, 0]))]
    assert np.array_equal(mapped, singer_graph(q).edges)
    # absolute points correspond
    assert sorted(sing[g.meta["absolute_points"]].tolist()) == S.absolute_points().tolist()


@pytest.mark.parametrize("q", [4, 9])
def test_isomorphism_against_galois_dot_products(q):
    import galois

    GF = galois.GF(q)
    pts = polarfly_points(q)
    P = GF(pts)
    dots = (P[:, None, 0] * P[None, :, 0]) + (P[:, None, 1] * P[None, :, 1]) + (P[:, None, 2] * P[None, :, 2])
    adj = (np.asarray(dots) == 0) & ~np.eye(len(pts), dtype=bool)
    S = singer_model(q)
    sing = S.index_of_points(pts)
    sums = (sing[:, None] + sing[None, :]) % S.n
    singer_adj = np.isin(sums, S.D) & ~np.eye(len(pts), dtype=bool)
    assert np.array_equal(adj, singer_adj)


@pytest.mark.parametrize("q", [1021, 1024])
def test_large_singer_models(q):
    S = singer_model(q)
    n = S.n
    diffs = (S.D[:, None] - S.D[None, :]) % n
    assert np.array_equal(np.bincount(diffs.ravel(), minlength=n), np.r_[q + 1, np.ones(n - 1, dtype=np.int64)])


def test_singer_labels_of_rejects_wrong_graph():
    with pytest.raises(ValueError, match="graph: expected ER_q with n=57"):
        singer_labels_of(polarfly(5), 7)
    g = singer_graph(5)
    g.edges = g.edges[1:]
    with pytest.raises(ValueError, match="graph: not ER_q for q=5"):
        er_edsts(5, graph=g)


@pytest.mark.parametrize("q", [3, 4, 5, 8, 9, 16, 27, 32])
def test_cluster_layout_claims(q):
    S = singer_model(q)
    L = cluster_layout(S)
    kinds = np.bincount(L.kind, minlength=4)
    assert kinds[W_EDGE] == q and kinds[STAR] == q * q and kinds[MATCHING] == q * q * (q - 1) // 2
    assert kinds.sum() == q * (q + 1) ** 2 // 2
    # every x in X_i has exactly one neighbour in each other X_j
    xe = L.edges[L.kind == MATCHING]
    for x in np.flatnonzero((L.cluster == 0) & ~L.is_centre)[:3]:
        nb = np.concatenate([xe[xe[:, 0] == x, 1], xe[xe[:, 1] == x, 0]])
        assert sorted(L.cluster[nb].tolist()) == list(range(1, q))
    # internal edges: (q-1)/2 per cluster plus one absolute point (odd q); q/2 or none (even q)
    absolute = set(S.absolute_points().tolist())
    ie = L.edges[L.kind == INTERNAL]
    per = np.bincount(L.cluster[ie[:, 0]], minlength=q)
    if q % 2:
        assert set(per.tolist()) == {(q - 1) // 2}
        for i in range(q):
            xi = set(np.flatnonzero((L.cluster == i) & ~L.is_centre).tolist())
            unmatched = xi - set(ie.ravel().tolist())
            assert len(unmatched) == 1 and unmatched <= absolute
    else:
        assert sorted(per.tolist()) == [0] + [q // 2] * (q - 1)


@pytest.mark.parametrize("q", [4, 5, 7, 8, 9])
def test_hamiltonian_path_lemma_by_brute_force(q):
    """M_a u M_b is one Hamiltonian path iff gcd(a - b, n) = 1 (every pair of D)."""
    S = singer_model(q)
    n = S.n
    for a, b in itertools.combinations(S.D.tolist(), 2):
        g = nx.Graph()
        g.add_nodes_from(range(n))
        g.add_edges_from(S.sum_class(a).tolist())
        g.add_edges_from(S.sum_class(b).tolist())
        is_path = nx.is_connected(g) and g.number_of_edges() == n - 1 and max(d for _, d in g.degree()) <= 2
        assert is_path == (gcd(b - a, n) == 1)


@pytest.mark.parametrize("q", SMALL)
def test_pairing_and_paths(q):
    S = singer_model(q)
    pairs = singer_pairing(q)
    assert pairs.shape == (er_edst_bound(q), 2)
    assert len(set(pairs.ravel().tolist())) == pairs.size and set(pairs.ravel().tolist()) <= set(S.D.tolist())
    assert all(gcd(int(b - a), S.n) == 1 for a, b in pairs)
    for row in hamiltonian_path_orders(S, pairs):
        assert sorted(row.tolist()) == list(range(S.n))
        assert S.adjacent(row[:-1], row[1:]).all()


@pytest.mark.parametrize("q", SMALL)
@pytest.mark.parametrize("method", ["hamiltonian", "low-depth"])
def test_er_edsts_attain_bound_and_verify(q, method):
    g = polarfly(q)
    trees = er_edsts(q, method, graph=g)
    assert len(trees) == (q + 1) // 2 == er_edst_bound(q)
    report = verify_edsts(g, trees)
    assert report.valid, report.problems
    if q % 2:  # odd q: a maximum family uses every edge
        assert sum(t.edges.shape[0] for t in trees) == g.m
    # the same trees without passing the graph (standard labels) and in Singer labels
    assert [t.edges.tolist() for t in er_edsts(q, method)] == [t.edges.tolist() for t in trees]
    singer = er_edsts(q, method, labels="singer")
    assert verify_edsts(singer_graph(q), singer).valid
    assert verify_singer_edsts(q, singer).valid


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 31, 32])
def test_depths(q):
    n = q * q + q + 1
    ham = er_edsts(q, "hamiltonian")
    for t in ham:
        assert np.bincount(t.edges.ravel(), minlength=n).max() <= 2  # a path
        assert t.depth == (n - 1) // 2
    low = er_edsts(q, "low-depth")
    depths = [t.depth for t in low]
    # independent depth: networkx eccentricity of the root
    for t, d in zip(low, depths, strict=True):
        g = nx.Graph(t.edges.tolist())
        assert nx.eccentricity(g, t.root) == d
    if q >= 3:
        assert min(depths) >= 3  # docs/er-edsts.md §9: no tree of a maximum family has depth < 3
    if q % 2 == 0 and q >= 4:
        assert max(depths) == 4
    else:
        assert max(depths) <= 5
    tags = {t.construction for t in low}
    assert tags == ({"ER-C"} if q % 2 == 0 else ({"ER-C", "ER-D"} if q == 3 else {"ER-C", "ER-F"}))


@pytest.mark.parametrize("q", [3, 5, 7, 9, 11])
def test_repair_method(q):
    g = polarfly(q)
    trees = er_edsts(q, "repair", graph=g)
    assert len(trees) == (q + 1) // 2 and verify_edsts(g, trees).valid
    assert trees[-1].construction == "ER-D"


def test_singer_verifier_catches_errors():
    trees = er_edsts(4, labels="singer")
    assert verify_singer_edsts(4, trees).valid
    e = trees[0].edges.copy()
    assert verify_singer_edsts(4, [e, e]).failed("disjoint") == [1]
    bad = e.copy()
    S = singer_model(4)
    v = int(np.flatnonzero(~S.adjacent(np.zeros(S.n, dtype=np.int64), np.arange(S.n)))[1])  # 0 itself is first
    bad[0] = [0, v]
    rep = verify_singer_edsts(4, [bad])
    assert rep.failed("member") == [0]
    cyc = np.concatenate([e[:-1], e[:1]])  # drop an edge, repeat one: not spanning
    assert set(verify_singer_edsts(4, [cyc]).failed("spanning")) == {0}


@pytest.mark.parametrize("bad, match", [(6, "q=6 is not a prime power"), (1, "q=1 is not a prime power"),
                                        (2.0, "q=2.0 is not an integer")])
def test_bad_q(bad, match):
    with pytest.raises(ValueError, match=match):
        er_edsts(bad)


def test_bad_method_and_labels():
    with pytest.raises(ValueError, match="method='fast' is not one of"):
        er_edsts(5, "fast")
    with pytest.raises(ValueError, match="labels='dot' is not one of"):
        er_edsts(5, labels="dot")
