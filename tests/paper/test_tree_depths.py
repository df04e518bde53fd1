"""Tests for starlib.paper.tree_depths: depth formulas by hand, independent depth measurement, counts vs Table I."""

import networkx as nx
import numpy as np
import pytest

from starlib.edst import verify_edsts
from starlib.networks import polarstar, slimfly
from starlib.paper.tree_depths import (
    build_trees,
    depth_bound,
    depth_instances,
    depth_table,
    expected_count,
    factor_tree_sets,
    graph_radius,
    measured_depth,
    shuffled_generic_trees,
    summarise_depths,
)


def test_depth_formulas_by_hand():
    # docs/star-products.md §5: V-B.4 d_H + 2 d_G; V-B.5(1) D_G + d_H + 2 D_G d_H; V-B.5(2) D_G + 2 d_H
    assert depth_bound("V-B.4", {"d_H": 3, "d_G": 5}) == 13
    assert depth_bound("V-B.5(1)", {"D_G": 4, "d_H": 2}) == 4 + 2 + 16
    assert depth_bound("V-B.5(2)", {"D_G": 4, "d_H": 2}) == 8
    # V-C.12: (3) d_H + D_G (L_H + 1); (4) (D_G + 1)(2 L_G + 2 d_H) + D_G
    assert depth_bound("V-C.12(3)", {"d_H": 2, "D_G": 3, "L_H": 1}) == 8
    assert depth_bound("V-C.12(4)", {"D_G": 3, "L_G": 1, "d_H": 2}) == 4 * 6 + 3
    # V-D.7: (1) 2 D_T + ecc_g + ecc_g2; (3) D_T + D_G (2 D_T + 1)
    assert depth_bound("V-D.7(1)", {"D_T": 2, "ecc_g": 3, "ecc_g2": 4}) == 11
    assert depth_bound("V-D.7(3)", {"D_T": 2, "D_G": 3}) == 17
    with pytest.raises(ValueError, match="theorem='V-Z.1'"):
        depth_bound("V-Z.1", {})
    with pytest.raises(ValueError, match="L_H"):
        depth_bound("V-C.12(3)", {"d_H": 1, "D_G": 1})


def test_measured_depth_agrees_with_networkx():
    rng = np.random.default_rng(1)
    for n in (2, 7, 30):
        g = nx.random_labeled_tree(n, seed=int(rng.integers(1000))) if n > 2 else nx.path_graph(2)
        edges = np.array(list(g.edges()))
        for root in (0, n - 1):
            assert measured_depth(n, edges, root) == nx.eccentricity(g, root)
    assert measured_depth(3, np.array([[0, 1]]), 0) == -1


def test_depth_instances_follow_the_admissible_parameters():
    inst = depth_instances(9, paley_orders=(5, 9), iq_degrees=(3,), bundlefly_q_max=4)
    sf = [p["q"] for f, p in inst if f == "slimfly"]
    assert sf == [3, 4, 5, 7, 8, 9]  # prime powers, none = 2 mod 4
    assert [p["q"] for f, p in inst if f == "bundlefly"] == [3, 3, 4, 4]
    assert [p["q"] for f, p in inst if f == "polarstar-iq"] == [2, 3, 4, 5, 7, 8, 9]
    with pytest.raises(ValueError, match="paley_orders"):
        depth_instances(5, paley_orders=(7,))
    with pytest.raises(ValueError, match="d=5"):
        depth_instances(5, iq_degrees=(5,))
    with pytest.raises(ValueError, match="q_max=1"):
        depth_instances(1)


@pytest.mark.parametrize("P", [slimfly(7), polarstar(4, supernode="iq", d=4)], ids=["slimfly7", "ps-iq-4-4"])
@pytest.mark.parametrize("choice", ["paths", "shallow"])
def test_constructions_count_and_depth_within_bound(P, choice):
    for method in ("universal", "low-depth", "maximum", "twisted"):
        trees = build_trees(P, method, choice)
        assert verify_edsts(P, trees).valid
        assert len(trees) == expected_count(P, method)
        for t in trees:
            d = measured_depth(P.n, t.edges, t.root)
            assert d == t.depth
            assert d <= t.meta["bound"] == depth_bound(t.meta["bound_thm"], t.meta)


def test_shallow_factor_trees_are_shallower_for_polarstar():
    P = polarstar(7, supernode="paley", paley_q=5)
    paths = factor_tree_sets(P, "paths")[0]
    shallow = factor_tree_sets(P, "shallow")[0]
    assert len(paths) == len(shallow) == 4
    assert max(t.depth for t in shallow) <= 5 < min(t.depth for t in paths)
    with pytest.raises(ValueError, match="factor_trees='deep'"):
        factor_tree_sets(P, "deep")


def test_generic_packing_is_maximum_but_depth_depends_on_edge_order():
    P = slimfly(7)
    sets = [shuffled_generic_trees(P, seed=s) for s in range(3)]
    for s in sets:
        assert verify_edsts(P, s).valid and len(s) == expected_count(P, "generic") == 5
        assert all(t.depth >= graph_radius(P) for t in s)
    assert len({tuple(s.depths()) for s in sets}) > 1


def test_table_and_summary():
    df = depth_table([("polarstar-paley", {"q": 3, "paley_q": 5})], factor_choices=("paths", "shallow"))
    assert set(df["method"]) == {"universal", "low-depth", "maximum", "twisted", "generic"}
    built = df[df["bound"] >= 0]
    assert (built["depth"] <= built["bound"]).all() and (built["bound"] == built["bound_recomputed"]).all()
    s = summarise_depths(df)
    assert len(s) == 9  # 4 constructions x 2 factor choices + generic
    assert s["within_bound"].all() and (s["trees"] == s["expected_trees"]).all()
    # Slim Fly q = 3: t_G + t_H - 2 = 1 + 1 - 2 = 0 Universal trees (one row, tree 0)
    df3 = depth_table([("slimfly", {"q": 3})], methods=("universal",))
    assert df3[["trees", "tree", "depth"]].values.tolist() == [[0, 0, -1]]
