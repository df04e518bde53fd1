"""Factor graphs against closed forms (Table V of the paper; the counts of docs/networks.md) and independent
constructions.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
import sympy

from starlib.factors import (
    bdf,
    chimera,
    complete,
    complete_bipartite,
    cycle,
    inductive_quad,
    mms_generators,
    mms_supernode,
    paley,
    polarfly,
    polarfly_graph,
    polarfly_points,
)
from starlib.fields import field, tables
from starlib.products import has_property_r1, has_property_rstar
from tests.gf_hand import hand_field_map

PRIME_POWERS = [q for q in range(2, 130) if len(sympy.factorint(q)) == 1]


def edge_set(g):
    return {tuple(sorted(e)) for e in g.edges.tolist()}


# --------------------------------------------------------------------------------------------- basic
@pytest.mark.parametrize("n", [2, 3, 7, 10])
def test_complete_and_bipartite(n):
    k = complete(n)
    assert (k.n, k.m, k.degree_set()) == (n, n * (n - 1) // 2, [n - 1])
    b = complete_bipartite(n)
    assert (b.n, b.m, b.degree_set()) == (2 * n, n * n, [n])
    assert nx.is_isomorphic(b.to_networkx(), nx.complete_bipartite_graph(n, n))
    assert all(b.labels[u][0] == 0 and b.labels[v][0] == 1 for u, v in b.edges.tolist())
    c = cycle(n + 2)
    assert nx.is_isomorphic(c.to_networkx(), nx.cycle_graph(n + 2))


# --------------------------------------------------------------------------------------------- Paley
PALEY_Q = [q for q in PRIME_POWERS if q % 4 == 1]


@pytest.mark.parametrize("q", PALEY_Q)
def test_paley_closed_forms(q):
    g = paley(q)
    assert (g.n, g.m, g.degree_set()) == (q, q * (q - 1) // 4, [(q - 1) // 2])
    if q <= 61:
        assert g.diameter() == 2
    f = g.meta["bijection"]
    assert has_property_r1(g, f)
    # f maps QR(q) onto its complement: f(E) and E are disjoint
    fe = {tuple(sorted(e)) for e in f[g.edges].tolist()}
    assert not fe & edge_set(g)


@pytest.mark.parametrize("q", [q for q in PALEY_Q if sympy.isprime(q)])
def test_paley_prime_matches_euler_criterion(q):
    expected = {(u, v) for u, v in itertools.combinations(range(q), 2) if pow(v - u, (q - 1) // 2, q) == 1}
    assert edge_set(paley(q)) == expected


@pytest.mark.parametrize("q", [9, 25])
def test_paley_prime_power_matches_hand_written_field(q):
    elems, add, mul, to_hand = hand_field_map(q)
    p = int(round(q ** 0.5))
    squares = {mul(u, u) for u in elems if u != (0, 0)}
    neg = {u: ((-u[0]) % p, (-u[1]) % p) for u in elems}
    img = [to_hand(c) for c in range(q)]
    expected = {(a, b) for a, b in itertools.combinations(range(q), 2) if add(img[b], neg[img[a]]) in squares}
    assert edge_set(paley(q)) == expected


def test_paley_sanity_values():
    assert [paley(q).m for q in (5, 9, 13, 17)] == [5, 18, 39, 68]
    assert nx.is_isomorphic(paley(5).to_networkx(), nx.cycle_graph(5))
    assert nx.is_isomorphic(paley(9).to_networkx(), nx.complement(paley(9).to_networkx()))


@pytest.mark.parametrize("q", [3, 7, 11, 6, 1, 8])
def test_paley_rejects(q):
    with pytest.raises(ValueError, match=f"q={q}"):
        paley(q)


# --------------------------------------------------------------------------------------------- MMS supernodes
MMS_Q = [q for q in PRIME_POWERS if 3 <= q <= 64]


@pytest.mark.parametrize("q", MMS_Q)
def test_mms_generators_and_supernodes(q):
    T = tables(q)
    delta, X, Xp = mms_generators(q)
    assert q % 4 == delta % 4 and delta in (-1, 0, 1)
    size = (q - delta) // 2
    assert X.size == Xp.size == size
    assert len(set(X.tolist())) == size
    assert np.array_equal(np.sort(T.neg(X)), X)              # X = -X
    assert np.array_equal(np.sort(T.mul(T.xi, X)), Xp)       # X' = xi X
    for prime in (False, True):
        g = mms_supernode(q, prime=prime)
        assert (g.n, g.m, g.degree_set()) == (q, q * size // 2, [size])
    if delta == 1:
        assert edge_set(mms_supernode(q)) == edge_set(paley(q))


def test_mms_supernode_rejects():
    with pytest.raises(ValueError, match="q=2"):
        mms_supernode(2)
    with pytest.raises(ValueError, match="q=10"):
        mms_supernode(10)
    with pytest.raises(ValueError, match="prime=2"):
        mms_supernode(5, prime=2)


# --------------------------------------------------------------------------------------------- ER_q
ER_SANITY = {2: (7, 9), 3: (13, 24), 4: (21, 50), 5: (31, 90), 7: (57, 224), 8: (73, 324), 9: (91, 450)}


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 27, 49])
def test_polarfly_counts_and_degrees(q):
    g = polarfly(q)
    n = q * q + q + 1
    assert (g.n, g.m) == (n, q * (q + 1) ** 2 // 2)
    if q in ER_SANITY:
        assert (g.n, g.m) == ER_SANITY[q]
    deg = g.degrees()
    absolute = g.meta["absolute_points"]
    assert absolute.size == q + 1
    assert np.all(deg[absolute] == q)
    assert np.sum(deg == q + 1) == n - q - 1
    pts = polarfly_points(q)
    T = tables(q)
    dots = T.add(T.add(T.mul(pts[:, 0], pts[:, 0]), T.mul(pts[:, 1], pts[:, 1])), T.mul(pts[:, 2], pts[:, 2]))
    assert np.array_equal(np.flatnonzero(dots == 0), absolute)
    if q <= 9:
        assert g.diameter() == 2


@pytest.mark.parametrize("q", [3, 5, 7, 11])
def test_polarfly_prime_matches_brute_force_dot_products(q):
    pts = polarfly_points(q)
    expected = {(i, j) for i, j in itertools.combinations(range(len(pts)), 2) if int(pts[i] @ pts[j]) % q == 0}
    assert edge_set(polarfly(q)) == expected


@pytest.mark.parametrize("q", [4, 9])
def test_polarfly_prime_power_matches_galois_dot_products(q):
    F = field(q)
    pts = F(polarfly_points(q))
    gram = np.asarray(pts @ pts.T)  # galois matrix product over GF(q)
    i, j = np.nonzero(np.triu(gram == 0, 1))
    assert edge_set(polarfly(q)) == set(zip(i.tolist(), j.tolist(), strict=True))


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16])
def test_polarfly_with_loops_is_a_friendship_geometry(q):
    """With the absolute-point loops, any two distinct points have exactly one common neighbour."""
    g = polarfly(q, loops=True)
    a = g.adjacency().toarray().astype(np.int64)
    a[g.meta["loops"], g.meta["loops"]] = 1
    a2 = a @ a
    assert np.all(a2[~np.eye(g.n, dtype=bool)] == 1)
    nxg = polarfly_graph(q, loops=True)
    assert nx.number_of_selfloops(nxg) == q + 1 and nxg.number_of_edges() == g.m + q + 1
    assert "loops" not in polarfly(q).meta


def test_polarfly_rejects():
    with pytest.raises(ValueError, match="q=6"):
        polarfly(6)
    with pytest.raises(ValueError, match="loops=2"):
        polarfly(3, loops=2)


# --------------------------------------------------------------------------------------------- IQ / bdf
IQ_SANITY = {3: (8, 12), 4: (10, 20), 7: (16, 56), 8: (18, 72), 11: (24, 132), 12: (26, 156)}


@pytest.mark.parametrize("builder", [inductive_quad, bdf])
@pytest.mark.parametrize("d", [3, 4, 7, 8, 11, 12, 15, 16, 31, 32])
def test_rstar_supernodes(builder, d):
    g = builder(d)
    assert (g.n, g.m, g.degree_set()) == (2 * d + 2, d * (d + 1), [d])
    if d in IQ_SANITY:
        assert (g.n, g.m) == IQ_SANITY[d]
    f = g.meta["involution"]
    assert np.array_equal(f[f], np.arange(g.n)) and not np.any(f == np.arange(g.n))
    assert has_property_rstar(g, f)
    # at n = 2d + 2 every orbit {xy, f(x)f(y)} holds exactly one edge: E and f(E) are disjoint
    fe = {tuple(sorted(e)) for e in f[g.edges].tolist()}
    assert not fe & edge_set(g)
    assert not any(tuple(sorted((x, int(f[x])))) in edge_set(g) for x in range(g.n))
    assert g.is_connected()


def test_quad_gadget_edges():
    assert edge_set(inductive_quad(3)) == {(0, 1), (0, 2), (0, 3), (1, 4), (2, 4), (3, 4),
                                           (1, 6), (5, 6), (2, 7), (6, 7), (3, 5), (5, 7)}


def test_bdf_versus_iq_isomorphism():
    """The two hard-coded bases give isomorphic graphs for d = 3, 4 but different graphs for d = 7, 8."""
    assert nx.is_isomorphic(inductive_quad(3).to_networkx(), bdf(3).to_networkx())
    assert nx.is_isomorphic(inductive_quad(4).to_networkx(), bdf(4).to_networkx())
    assert not nx.is_isomorphic(inductive_quad(7).to_networkx(), bdf(7).to_networkx())
    assert not nx.is_isomorphic(inductive_quad(8).to_networkx(), bdf(8).to_networkx())


@pytest.mark.parametrize("d", [0, 1, 2, 5, 6, 9, -1])
def test_rstar_rejects(d):
    for builder in (inductive_quad, bdf):
        with pytest.raises(ValueError, match=f"d={d}"):
            builder(d)


# --------------------------------------------------------------------------------------------- Chimera
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (2, 2), (2, 4), (3, 5), (4, 4), (6, 6)])
def test_chimera_counts(rows, cols):
    g = chimera(rows, cols)
    assert (g.n, g.m) == (8 * rows * cols, 24 * rows * cols - 4 * (rows + cols))
    t = chimera(max(rows, 3), max(cols, 3), toric=True)
    assert t.m == 24 * t.params["rows"] * t.params["cols"] and t.degree_set() == [6]
    if rows >= 3 and cols >= 3:
        assert g.degree_set() == [5, 6]
    # cells are K_{4,4}
    cell = [v for v, lab in enumerate(g.labels) if lab[:2] == (0, 0)]
    sub = g.to_networkx().subgraph([g.labels[v] for v in cell])
    assert nx.is_isomorphic(sub, nx.complete_bipartite_graph(4, 4))


def test_chimera_rejects():
    with pytest.raises(ValueError, match="rows=2"):
        chimera(2, 4, toric=True)
    with pytest.raises(ValueError, match="cols=0"):
        chimera(2, 0)
    with pytest.raises(ValueError, match="toric=5"):
        chimera(4, 4, toric=5)


@pytest.mark.parametrize("n", [1, 0, -3])
def test_complete_rejects(n):
    with pytest.raises(ValueError, match=f"n={n}"):
        complete(n)
    with pytest.raises(ValueError, match="n=2.5"):
        complete(2.5)
