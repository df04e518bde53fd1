"""Tests for starlib.paper.scaling: exact recovery of power laws, grouped fits, and the star-product edge-list floor."""

import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.factors import complete, cycle, paley
from starlib.graphs import canonical_edges
from starlib.networks import bundlefly, polarstar, slimfly
from starlib.paper.scaling import fit_exponent, fit_exponents, star_edge_list
from starlib.products import star_product


# ------------------------------------------------------------------------------------------- fit_exponent
@settings(derandomize=True, deadline=None, max_examples=60)
@given(k=st.floats(-3, 3), c=st.floats(1e-6, 1e6),
       xs=st.lists(st.floats(1e-3, 1e7), min_size=2, max_size=12, unique=True))
def test_fit_recovers_an_exact_power_law(k, c, xs):
    x = np.array(xs)
    if np.ptp(np.log(x)) < 1e-2:  # nearly equal sizes: the slope is ill-conditioned, not a fit property
        return
    fit = fit_exponent(x, c * x**k)
    assert fit.exponent == pytest.approx(k, abs=1e-8)
    assert fit.prefactor == pytest.approx(c, rel=1e-6)
    assert fit.points == len(xs)
    assert fit.r2 == pytest.approx(1.0, abs=1e-9) or k == pytest.approx(0.0, abs=1e-12)


def test_fit_known_values_by_hand():
    # y = 3 x^1.5 at x = 1, 4, 16: log y = log 3 + 1.5 log x exactly
    fit = fit_exponent([1, 4, 16], [3, 24, 192])
    assert fit.exponent == pytest.approx(1.5, abs=1e-12)
    assert fit.prefactor == pytest.approx(3.0, rel=1e-12)
    # a noisy law: slope of the least-squares line through (0, 0), (1, 1), (2, 3) in log2 units is 1.5
    fit = fit_exponent([1, 2, 4], [1, 2, 8])
    assert fit.exponent == pytest.approx(1.5, abs=1e-12)
    # r^2 by hand: residuals of the line -1/6 + 1.5 t at t = 0, 1, 2 are 1/6, -1/3, 1/6 (times ln 2)
    ss_res = (1 / 36 + 1 / 9 + 1 / 36) * math.log(2) ** 2
    ss_tot = ((0 - 4 / 3) ** 2 + (1 - 4 / 3) ** 2 + (3 - 4 / 3) ** 2) * math.log(2) ** 2
    assert fit.r2 == pytest.approx(1 - ss_res / ss_tot, abs=1e-12)


@pytest.mark.parametrize(("x", "y", "needle"), [
    ([1, 2], [1, 0], r"y\[1\]=0.0"),
    ([1, -2], [1, 2], r"x\[1\]=-2.0"),
    ([1, float("nan")], [1, 2], r"x\[1\]=nan"),
    ([1, 2, 3], [1, 2], "same length"),
    ([5], [1], "at least 2 points"),
    ([3, 3], [1, 2], "single distinct value"),
    ([[1, 2], [3, 4]], [1, 2], "one-dimensional"),
    (["a", "b"], [1, 2], "not a sequence of numbers"),
])
def test_fit_rejects_bad_input(x, y, needle):
    with pytest.raises(ValueError, match=needle):
        fit_exponent(x, y)


def test_fit_exponents_per_group_and_threshold():
    m = np.array([10, 100, 1000, 10000], dtype=float)
    df = pd.concat([pd.DataFrame({"family": f, "links": m, "t": c * m**k, "mem": 7 * m})
                    for f, c, k in (("b", 2.0, 1.0), ("a", 0.5, 1.25))])
    df.loc[(df.family == "a") & (df.links == 10), "t"] = 1e6  # an overhead-dominated point, dropped by min_x
    out = fit_exponents(df, "links", ["t", "mem"], by=["family"], min_x=100)
    assert out[["family", "cost"]].values.tolist() == [["a", "t"], ["a", "mem"], ["b", "t"], ["b", "mem"]]
    assert out.exponent.tolist() == pytest.approx([1.25, 1.0, 1.0, 1.0], abs=1e-12)
    assert out.prefactor.tolist() == pytest.approx([0.5, 7.0, 2.0, 7.0], rel=1e-12)
    assert out.points.tolist() == [3, 3, 3, 3] and out.min_x.tolist() == [100] * 4
    whole = fit_exponents(df[df.family == "b"], "links", ["t"])
    assert list(whole.columns[:2]) == ["cost", "exponent"] and whole.exponent[0] == pytest.approx(1.0)


def test_fit_exponents_errors_name_the_problem():
    df = pd.DataFrame({"links": [10, 100], "t": [1.0, 2.0], "family": ["a", "a"]})
    with pytest.raises(ValueError, match="'seconds'"):
        fit_exponents(df, "links", ["seconds"])
    with pytest.raises(ValueError, match="min_x=50"):
        fit_exponents(df, "links", ["t"], by=["family"], min_x=50)


# ------------------------------------------------------------------------------------------- star_edge_list
def naive_star_edges(G, H, B):
    """The definition, one Python tuple per link: copies of H, then (g, h) ~ (g', f(h)) per arc g < g'."""
    B = np.broadcast_to(np.asarray(B), (G.m, H.n))
    links = [(g * H.n + a, g * H.n + b) for g in range(G.n) for a, b in H.edges.tolist()]
    for k, (g, g2) in enumerate(G.edges.tolist()):
        links += [(g * H.n + h, g2 * H.n + int(B[k, h])) for h in range(H.n)]
    return links


@pytest.mark.parametrize("build", [
    lambda: slimfly(5), lambda: slimfly(9), lambda: bundlefly(3, 5), lambda: polarstar(3, "paley", paley_q=5),
    lambda: polarstar(4, "iq", d=4),
    lambda: star_product(cycle(5), complete(4), np.random.default_rng(0).permuted(np.tile(np.arange(4), (5, 1)),
                                                                                axis=1)),
], ids=["MMS5", "MMS9", "bundlefly-3-5", "ER3*QR5", "ER4*IQ4", "C5*K4-random-arcs"])
def test_star_edge_list_writes_every_link_once(build):
    P = build()
    E = star_edge_list(P.structure, P.supernode, P.bijections)
    assert E.shape == (P.m, 2) and E.dtype == np.int64
    assert (E[:, 0] < E[:, 1]).all()
    assert len(np.unique(E, axis=0)) == P.m  # no link twice
    assert np.array_equal(canonical_edges(E, P.n), P.edges)  # the builder's edge set
    assert sorted(map(tuple, E.tolist())) == sorted(naive_star_edges(P.structure, P.supernode, P.bijections))


def test_star_edge_list_petersen_from_factors():
    H = paley(5)
    E = star_edge_list(complete(2), H, H.meta["bijection"])  # K_2 * QR(5) with f(x) = 2x
    assert nx.is_isomorphic(nx.Graph(E.tolist()), nx.petersen_graph())


def test_star_edge_list_rejects_bad_input():
    with pytest.raises(ValueError, match=r"bijections has shape \(4,\)"):
        star_edge_list(complete(3), complete(5), np.arange(4))
    with pytest.raises(ValueError, match="H: expected an ArrayGraph"):
        star_edge_list(complete(3), np.zeros((2, 2)), np.arange(2))
