"""The figures of notebooks 09, 11 and 13 print legibly: one column or two wide, at most
MAX_HEIGHT high, no text under MIN_FONT_PT, one figure-level legend, built on the notebooks' own inputs (the
committed benchmark records and tables, or the notebook's parameters) and showing the same series as before.
"""

from __future__ import annotations

import itertools

import matplotlib

from tests.paths import ROOT

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from starlib.paper.figures import TWO_COLUMN, network_title, print_faults  # noqa: E402

TITLES = {"slimfly": "Slim Fly MMS(q)", "bundlefly": r"Bundlefly MMS(q) $\star$ QR(q')",
          "polarstar": r"PolarStar ER$_q$ $\star$ QR(q')"}


def _faults_and_close(fig) -> list[str]:
    try:
        return print_faults(fig)
    finally:
        plt.close(fig)


def _legend(fig) -> list[str]:
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)  # one figure-level legend
    return [t.get_text() for t in fig.legends[0].get_texts()]


@pytest.fixture(scope="module")
def scaling() -> pd.DataFrame:
    data = pd.read_csv(ROOT / "benchmarks" / "results" / "scaling.csv")
    data["generic_factor"] = (data.structure_packing.str.contains("generic")
                              | data.supernode_packing.str.contains("generic"))
    data["rss_growth_mb"] = data.peak_rss_mb - data.base_rss_mb
    return data


def test_scaling_time_prints(scaling):
    from starlib.paper.scaling_figures import PHASES, scaling_time_figure

    fig = scaling_time_figure(scaling, TITLES, target_links=10**6, target_seconds=10.0, fit_min_links=10**5)
    assert _legend(fig)[:4] == list(PHASES)
    assert [ax.get_title() for ax in fig.axes] == list(TITLES.values())
    assert _faults_and_close(fig) == []


def test_scaling_memory_prints(scaling):
    from starlib.paper.scaling_figures import PHASES, scaling_memory_figure

    fig = scaling_memory_figure(scaling, TITLES, memory_limit_gb=8.0)
    assert _legend(fig) == ["peak RSS (process)", "peak RSS above imports", *(f"traced: {p}" for p in PHASES)]
    assert _faults_and_close(fig) == []


def test_generic_packing_prints():
    from starlib.edst.forest_union import RANDOM_ORDER_LINKS
    from starlib.paper.scaling import fit_exponents
    from starlib.paper.scaling_figures import packing_figure

    packing = pd.read_csv(ROOT / "benchmarks" / "results" / "packing.csv")
    fits = fit_exponents(packing, "links", ["seconds_generic"], by=["curve"], min_x=50000)
    fig = packing_figure(packing, fits, RANDOM_ORDER_LINKS)
    labels = _legend(fig)
    extra = ["one search per edge", "previous packer", "Sage Roskind-Tarjan"]
    assert len(labels) == packing.curve.nunique() + 3 and labels[-3:] == extra
    assert all(" (k = " in lab for lab in labels[:-3])
    assert _faults_and_close(fig) == []


def test_maximum_shallow_depth_prints():
    from starlib.paper.shallow_figures import depth_gap_figure

    table = pd.read_csv(ROOT / "paper_tables" / "maximum_shallow.csv")
    fig = depth_gap_figure(table)
    assert set(_legend(fig)) >= {"shallow (local search)", "lower bound"}
    assert sum(ax.get_visible() for ax in fig.axes) == table.network.nunique()  # one panel per family
    assert fig.get_size_inches()[0] == pytest.approx(TWO_COLUMN)
    assert _faults_and_close(fig) == []


def test_maximum_shallow_front_prints():
    from starlib.paper.shallow_figures import pareto_figure

    front = pd.read_csv(ROOT / "paper_tables" / "maximum_shallow_front.csv")
    panels = {}
    for (net, params), sub in front.groupby(["network", "parameters"], sort=False):
        sub = sub.sort_values("trees")
        families = {r.family: [r.max_depth] * r.trees for r in sub.itertuples()}
        points = [(r.trees, r.max_depth, r.family) for r in sub.itertuples()]
        panels[network_title(net, params)] = (families, points, int(sub.lower_bound.iloc[0]))
    fig = pareto_figure(panels)
    labels = _legend(fig)
    assert labels[-3:] == ["filled: after local search", "front (c shallowest trees)", "lower bound"]
    assert [ax.get_title() for ax in fig.axes if ax.get_visible()] == list(panels)
    assert _faults_and_close(fig) == []


def test_netdesign_max_routers_prints():
    from starlib import netdesign as nd
    from starlib.paper.netdesign_figures import max_routers_figure

    N, m = 1000, 4  # the notebook's plot_N and plot_m
    ns = np.arange(1, N - 1)
    mmax = np.array([nd.max_routers(N, m, int(x)) for x in ns])
    levels = np.array([nd.tree_levels(N, m, int(x)) for x in ns])
    fig = max_routers_figure(ns, mmax, levels, N, m)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]  # one panel: its own legend
    assert labels == [f"k = {k} tree level{'s' if k > 1 else ''}" for k in sorted(set(levels.tolist()), reverse=True)]
    assert _faults_and_close(fig) == []


def test_netdesign_toy_networks_prints():
    from starlib import netdesign as nd
    from starlib.paper.netdesign_figures import toy_networks_figure

    toys = {"Fig. 3: 1 router, 5 nodes": ([], [5]),
            "Fig. 4: 5 routers, 5 nodes": (list(itertools.combinations(range(1, 6), 2)), [1] * 5),
            "Fig. 5: 2 routers, 8 nodes": ([[1, 2]], [4, 4]),
            "Fig. 6: 3 routers, 9 nodes": ([[1, 2], [1, 3], [2, 3]], [3, 3, 3])}
    fig = toy_networks_figure({name: nd.single_port_network(*args) for name, args in toys.items()})
    assert _legend(fig) == ["compute node (negative)", "router (positive)"]
    assert [ax.get_title().split("\n")[0] for ax in fig.axes] == list(toys)
    assert _faults_and_close(fig) == []


def test_netdesign_evolution_prints():
    from starlib import netdesign as nd
    from starlib.paper.netdesign_figures import evolution_figure

    result = nd.evolve(nd.random_network(16, 2, 8, 6, seed=0), steps=40, seed=0, weights=(0.0, 1.0, 0.25))
    fig = evolution_figure(result, "(1+1) search, N=16, n=2, M=8, m=6, weights (a, b, c) = (0.0, 1.0, 0.25)")
    assert [ax.get_ylabel() for ax in fig.axes] == ["score f (lower is better)", "mean router hops",
                                                     "bisection width (exact)"]
    assert _faults_and_close(fig) == []
