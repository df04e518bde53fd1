"""Bounds of Section IV / Appendix A checked exhaustively against direct computation (floor(m/(n-1)) of the
actual edge counts), and the Table V values of t and r against graphs built by starlib."""

from __future__ import annotations

import itertools

import networkx as nx
import pytest
import sympy

from starlib.bounds import (
    eq1_bound,
    lemma_a1,
    lemma_a1_symbolic,
    lemma_vc2_is_maximum,
    product_edge_count,
    product_upper_bound,
    prop_iv1,
    prop_iv1_symbolic,
    prop_iv3,
    regular_bound,
    simplicity_bound,
    t_and_r,
    table_i_count,
    theorem_iv4,
    upper_bound,
)
from starlib.factors import complete, complete_bipartite, inductive_quad, mms_supernode, paley, polarfly
from starlib.graphs import ArrayGraph
from starlib.networks import slimfly


def feasible(nmax: int):
    """Every (n, t, r) of a connected simple graph with t = floor(m/(n-1)), r = m - t(n-1)."""
    for n in range(2, nmax + 1):
        for m in range(n - 1, n * (n - 1) // 2 + 1):
            t = m // (n - 1)
            yield n, t, m - t * (n - 1), m


def test_prop_iv1_exhaustive():
    """Proposition IV-.1 for all simple (n, m) with n < 80 (docs/star-products.md §3.2)."""
    for n in range(2, 80):
        for m in range(n * (n - 1) // 2 + 1):
            a, b, bound = prop_iv1(n, m)
            assert (a, b) == divmod(m, n)
            assert bound == m // (n - 1) == eq1_bound(n, m)


def test_prop_iv1_needs_simple():
    with pytest.raises(ValueError, match="m=11 exceeds n\\(n-1\\)/2=10"):
        prop_iv1(5, 11)
    with pytest.raises(ValueError, match="^n=1 is too small: need an integer n >= 2$"):
        eq1_bound(1, 0)
    with pytest.raises(ValueError, match="^m=-1 is too small: need an integer m >= 0$"):
        eq1_bound(3, -1)
    with pytest.raises(ValueError, match="^n='a' is not an integer$"):
        eq1_bound("a", 3)


def test_regular_bound_exhaustive():
    for n in range(2, 70):
        for k in range(n):
            if (k * n) % 2:
                with pytest.raises(ValueError, match="no simple k-regular"):
                    regular_bound(k, n)
                continue
            assert regular_bound(k, n) == (k * n // 2) // (n - 1)
    with pytest.raises(ValueError, match="k=5, n=5"):
        regular_bound(5, 5)


def test_regular_bound_on_real_graphs():
    for g in (nx.petersen_graph(), nx.complete_graph(8), nx.complete_graph(7), nx.hypercube_graph(4),
              nx.random_regular_graph(5, 12, seed=1)):
        a = ArrayGraph.from_networkx(g)
        k = a.degree_set()[0]
        assert regular_bound(k, a.n) == eq1_bound(a.n, a.m)


def test_simplicity_bound():
    for n, t, r, m in feasible(25):
        assert t <= simplicity_bound(n)
        assert lemma_vc2_is_maximum(n, t, r) == (r <= t)
        if r <= t and n >= 3:  # Lemma V-C.2: t reaches eq. (1) (here t is eq. (1) by construction)
            assert t == m // (n - 1)


def test_lemma_a1_and_prop_iv3_exhaustive():
    """Every pair of feasible factor parameters with n_G, n_H <= 13: the identity of Lemma A-.1, and
    Proposition IV-.3's bound and case ranges against tau* = floor(|E| / (N - 1)) computed directly."""
    params = list(feasible(13))
    cases = 0
    for (nG, tG, rG, mG), (nH, tH, rH, mH) in itertools.product(params, repeat=2):
        N = nG * nH
        edges = mG * nH + nG * mH
        assert edges == product_edge_count(nG, mG, nH, mH)
        assert (tG + tH) * (N - 1) + lemma_a1(nG, tG, rG, nH, tH, rH) == edges
        tau = edges // (N - 1)
        assert product_upper_bound(tG, rG, tH, rH, nG, nH) == tau
        assert tau <= prop_iv3(tG, rG, tH, rH)
        s = tG + tH
        if rG >= tG and rH >= tH:
            assert tau in (s, s + 1)
            if rG == tG or rH == tH:
                assert tau == s
        elif rG >= tG or rH >= tH:
            assert tau in (s - 1, s)
        else:
            assert tau == s - 1
        cases += 1
    assert cases == len(params) ** 2 == 298**2


def test_prop_iv3_bound_is_attained_in_each_case():
    """The table's values are tight: some feasible parameters reach each bound."""
    reached = set()
    params = list(feasible(12))
    for (nG, tG, rG, _), (nH, tH, rH, _) in itertools.product(params, repeat=2):
        if product_upper_bound(tG, rG, tH, rH, nG, nH) == prop_iv3(tG, rG, tH, rH):
            reached.add((rG >= tG, rH >= tH, rG == tG or rH == tH))
    assert {(True, True, False), (True, True, True), (True, False, False), (False, False, False)} <= reached


def test_theorem_iv4_gaps():
    params = list(feasible(11))
    worst_universal = 0
    for (nG, tG, rG, _), (nH, tH, rH, _) in itertools.product(params, repeat=2):
        for prop in (False, True):
            c = theorem_iv4(tG, rG, tH, rH, nG, nH, property_vd1=prop)
            assert c.bound == product_upper_bound(tG, rG, tH, rH, nG, nH)
            if rG >= tG or rH >= tH or prop:
                assert 0 <= c.gap <= 1, c           # extended constructions: within 1
            else:
                assert c.theorem == "V-B.1" and 0 <= c.gap <= 1
            worst_universal = max(worst_universal, c.bound - max(tG + tH - 2, 0))
    assert worst_universal == 3  # the Universal construction alone: within 3, and 3 occurs
    # the example of docs/star-products.md §3.6: G = H = a 6-vertex graph with 9 edges (t = 1, r = 4):
    # bound 3, Universal 0
    assert product_upper_bound(1, 4, 1, 4, 6, 6) == 3
    assert table_i_count(1, 4, 1, 4) == ("V-C.10", 2)


@pytest.mark.parametrize("graph, t, r", [
    (paley(13), 3, 3), (paley(17), 4, 4), (paley(9), 2, 2),
    (mms_supernode(7), 2, 2), (mms_supernode(8), 2, 2), (mms_supernode(9), 2, 2),
    (complete_bipartite(6), 3, 3), (complete_bipartite(7), 3, 10),
    (complete(8), 4, 0), (complete(9), 4, 4),
    (inductive_quad(8), 4, 4), (inductive_quad(7), 3, 11),
    (polarfly(4), 2, 10), (polarfly(5), 3, 0), (polarfly(7), 4, 0),
])
def test_table_v_t_and_r(graph, t, r):
    """Table V closed forms (docs/star-products.md §10).

    Paley (q'-1)/4 twice; C(X) w twice; K_{q,q}; K_n; IQ(d'); ER_q.
    """
    assert t_and_r(graph) == (t, r)


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9, 11, 13])
def test_table_v_mms(q):
    delta = {1: 1, 3: -1, 0: 0}[q % 4]
    t = {0: 3 * q // 4, 1: 3 * (q - 1) // 4, -1: (3 * q - 1) // 4}[delta]
    r = {0: 3 * q // 4, 1: (4 * q * q + 3 * q - 3) // 4, -1: (4 * q * q + 3 * q - 1) // 4}[delta]
    P = slimfly(q)
    assert t_and_r(P) == (t, r)
    assert upper_bound(P) == regular_bound((3 * q - delta) // 2, 2 * q * q) == t


def test_upper_bound_uses_min_degree():
    g = nx.complete_graph(8)
    g.add_edge(8, 0)
    a = ArrayGraph.from_networkx(g)
    assert eq1_bound(a.n, a.m) == 3 and upper_bound(a) == 1
    with pytest.raises(ValueError, match="n=1"):
        upper_bound(ArrayGraph.from_edges([0], []))


def test_symbolic_forms():
    lhs, rhs = lemma_a1_symbolic()
    assert sympy.expand(lhs - rhs) == 0
    assert sympy.simplify(prop_iv1_symbolic()) == 0
