"""Proof checks of the Section IV bounds: brute-force oracle, exhaustive enumerations, certificates."""

import networkx as nx
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from starlib.edst import generic_packing
from starlib.graphs import ArrayGraph
from starlib.paper import bound_checks as bc


def test_set_partitions_are_bell_and_distinct():
    for n, bell in zip(range(1, 9), (1, 2, 5, 15, 52, 203, 877, 4140), strict=True):
        P = bc.set_partitions(n)
        assert P.shape == (bell, n)
        assert len({tuple(r) for r in P.tolist()}) == bell
        # restricted growth: p[0] = 0 and p[i] <= 1 + max(p[:i])
        assert (P[:, 0] == 0).all()
        assert (P[:, 1:] <= np.maximum.accumulate(P, axis=1)[:, :-1] + 1).all()
    with pytest.raises(ValueError, match="n=11"):
        bc.set_partitions(11)


def test_nash_williams_tutte_known_values():
    for n in range(2, 9):
        assert bc.nash_williams_tutte(n, np.array(list(nx.complete_graph(n).edges()))) == n // 2
    assert bc.nash_williams_tutte(6, np.array(list(nx.cycle_graph(6).edges()))) == 1
    assert bc.nash_williams_tutte(5, np.array([[0, 1], [1, 2], [3, 4]])) == 0  # disconnected
    cube = nx.convert_node_labels_to_integers(nx.hypercube_graph(3))
    assert bc.nash_williams_tutte(8, np.array(list(cube.edges()))) == 1


@given(st.integers(min_value=3, max_value=8), st.integers(min_value=0, max_value=10**6))
def test_oracle_agrees_with_packing(n, seed):
    rng = np.random.default_rng(seed)
    u, v = np.triu_indices(n, 1)
    keep = rng.random(u.size) < rng.uniform(0.3, 1.0)
    edges = np.stack([u[keep], v[keep]], axis=1)
    g = ArrayGraph.from_edges(list(range(n)), edges)
    assert bc.nash_williams_tutte(n, g.edges) == generic_packing(g).count


def test_atlas_small():
    df = bc.atlas_check(5)
    assert len(df) == 2 + 4 + 11 + 34  # graphs on 2..5 vertices
    assert (df.tau_nwt == df.tau_packed).all() and (df.tau_nwt <= df.eq1).all() and df.verified.all()
    assert (df.tau_nwt <= df.min_degree).all()


def test_single_graph_statements():
    r = bc.prop_iv1_check(30)
    assert r["counterexamples"] == 0 and r["step_failures"] == 0 and r["plus_one_cases"] > 0
    assert bc.prop_iv1_multigraph_failure() == (2, 3, 2, 3)
    c = bc.cor_iv2_check(30)
    assert c["counterexamples"] == 0 and c["parity_failures_are_even_complete_graphs"]
    assert c["parity_only_failures"] == 14  # n = 2, 4, ..., 28
    assert bc.simplicity_check(40)["counterexamples"] == 0
    assert bc.lemma_vc2_check(15)["counterexamples"] == 0
    diff, below = bc.cor_iv2_symbolic()
    assert sp.simplify(diff) == 0 and below


def test_factor_params_are_all_simple_connected_sizes():
    F = bc.factor_params(7)
    assert len(F) == sum(n * (n - 1) // 2 - n + 2 for n in range(2, 8))
    assert ((F.r >= 0) & (F.r <= F.n - 2) & (F.t >= 1) & (F.t <= F.n // 2)).all()
    assert (F.t * (F.n - 1) + F.r == F.m).all()


def test_vectorised_statements_match_library():
    assert bc.library_agreement(6)["mismatches"] == 0


def test_pair_statistics_small():
    s = bc.pair_statistics(10, block=17)
    F = bc.factor_params(10)
    assert s["pairs"] == len(F) ** 2 and s["lemma_a1_failures"] == 0
    p3 = s["prop_iv3"].set_index("case")
    assert p3["violations"].sum() == 0
    claimed = {"r_G >= t_G and r_H >= t_H": (0, 1), "r_G >= t_G and r_H >= t_H, some r = t": (0, 0),
               "r_G >= t_G and r_H >= t_H, no r = t": (0, 1), "exactly one r >= t": (-1, 0),
               "r_G < t_G and r_H < t_H": (-1, -1)}
    for case, (lo, hi) in claimed.items():
        assert (p3.loc[case, "off_min"], p3.loc[case, "off_max"]) == (lo, hi)
    assert p3.loc["r_G < t_G and r_H < t_H", "L_max"] < 0 < p3.loc["r_G >= t_G and r_H >= t_H", "L_min"]
    t4 = s["theorem_iv4"].set_index("theorem")
    assert t4.loc["V-C.3", "max_gap"] == 0 and t4.loc["V-D.2", "max_gap"] == 0
    assert t4.loc["V-C.10", "max_gap"] == 1 and t4.loc["V-C.11", "max_gap"] == 1
    assert s["universal"]["max_gap"] == 3 and s["universal"]["max_gap_not_both_gt"] == 2
    # a brute-force recount of one statistic with plain Python
    worst = max((mG * nH + nG * mH) // (nG * nH - 1) - (tG + tH - 2)
                for nG, mG, tG, _ in F.values.tolist() for nH, mH, tH, _ in F.values.tolist())
    assert worst == 3


def test_certificates_are_sound():
    assert bc.prop_iv3_certificates()["certified"].all()
    x, y = sp.symbols("x y", nonnegative=True)
    assert not bc.positive_certificate(x * y - x + 1, [x, y])  # false at x = 2, y = 0
    assert not bc.positive_certificate(x + y, [x, y])  # zero at the origin: not strictly positive


def test_universal_gap_example():
    df = bc.universal_gap_example(seeds=(0,))
    assert (df["eq1_bound"] == 3).all() and (df["max_edsts"] == 3).all() and (df["universal_built"] == 0).all()
    assert (df["extended_theorem"] == "V-C.10").all() and (df["extended_built"] == 2).all()
    assert df["verified"].all()


def test_lemma_a1_on_products():
    from starlib.networks import complete_paley, polarstar

    df = bc.lemma_a1_on_products([complete_paley(3, 5), polarstar(2, supernode="paley", paley_q=5)])
    assert df["agree"].all()
    assert df["edges"].tolist() == [3 * 5 + 3 * 5, 9 * 5 + 7 * 5]
