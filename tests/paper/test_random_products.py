"""Tests for starlib.paper.random_products: random factors with known t and r, random and invariant star products."""

import numpy as np
import pytest

from starlib.bounds import t_and_r
from starlib.edst import generic_packing, has_property_vd1, property_vd1_trees, verify_edsts
from starlib.factors import complete
from starlib.paper.random_products import random_factor, random_star_product, vd1_classes


@pytest.mark.parametrize(("n", "t", "r", "seed"), [(6, 3, 0, 0), (7, 3, 0, 1), (8, 2, 5, 2), (9, 4, 3, 3),
                                                   (5, 1, 3, 4), (10, 4, 8, 5)])
def test_random_factor_has_t_trees_and_r_extra_edges(n, t, r, seed):
    g = random_factor(n, t, r, seed=seed)
    assert g.n == n and g.m == t * (n - 1) + r
    assert g.is_connected()
    assert len(np.unique(g.edges, axis=0)) == g.m and (g.edges[:, 0] < g.edges[:, 1]).all()  # simple
    assert t_and_r(g) == (t, r)
    # an independent maximum: the exact matroid packing with its certificate
    p = generic_packing(g)
    assert p.count == t == p.upper_bound


def test_random_factor_is_deterministic_and_seeded():
    a, b, c = random_factor(8, 3, 2, seed=7), random_factor(8, 3, 2, seed=7), random_factor(8, 3, 2, seed=8)
    assert np.array_equal(a.edges, b.edges)
    assert not np.array_equal(a.edges, c.edges)


@pytest.mark.parametrize(("kw", "needle"), [({"n": 1, "t": 1, "r": 0}, "n=1"), ({"n": 6, "t": 4, "r": 0}, "t=4"),
                                            ({"n": 6, "t": 1, "r": 5}, "r=5"), ({"n": 6, "t": 0, "r": 0}, "t=0"),
                                            ({"n": 5, "t": 2, "r": 3}, "exceeds")])
def test_random_factor_rejects_bad_parameters(kw, needle):
    with pytest.raises(ValueError, match=needle):
        random_factor(**kw)


def test_random_star_product_bijections_are_permutations_and_respect_classes():
    G, H = random_factor(5, 2, 1, seed=1), random_factor(7, 3, 0, seed=2)
    P = random_star_product(G, H, seed=3)
    assert P.n == G.n * H.n and P.m == G.m * H.n + G.n * H.m
    assert (np.sort(P.bijections, axis=1) == np.arange(H.n)).all()
    classes = [[0, 3], [1, 2, 4], [5, 6]]
    Q = random_star_product(G, H, seed=3, classes=classes)
    for c in classes:
        assert set(Q.bijections[:, c].ravel().tolist()) == set(c)
    # random bijections are not all the identity
    assert not (P.bijections == np.arange(H.n)).all()


def test_random_star_product_rejects_a_non_partition():
    G, H = complete(3), complete(4)
    with pytest.raises(ValueError, match="not a partition"):
        random_star_product(G, H, classes=[[0, 1], [1, 2, 3]])
    with pytest.raises(ValueError, match="seed=-1"):
        random_star_product(G, H, seed=-1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vd1_classes_give_property_vd1_and_its_construction(seed):
    G, H = random_factor(6, 2, 1, seed=seed), random_factor(8, 3, 1, seed=seed + 10)
    cls = vd1_classes(H)
    assert sorted(np.concatenate(cls).tolist()) == list(range(H.n))
    assert len(cls[0]) >= 2 and len(cls[2]) >= 2  # t_H - 1 = 2 on both sides
    P = random_star_product(G, H, seed=seed, classes=cls)
    assert has_property_vd1(P) is not None
    trees = property_vd1_trees(P)
    assert len(trees) == 2 + 3 - 1 and verify_edsts(P, trees).valid


def test_vd1_classes_rejects_tiny_supernodes():
    with pytest.raises(ValueError, match="n=2"):
        vd1_classes(complete(2))
