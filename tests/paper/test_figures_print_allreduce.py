"""The figures of notebooks 08, 14 and 15 print legibly: one of the two print widths, at most
MAX_HEIGHT high, no text under MIN_FONT_PT, one figure-level legend (``starlib.paper.figures.print_faults``).

Each builder draws small real inputs: trees built on two star products (notebook 08), the committed table of
notebook 14 and the committed ns-3 record of notebook 15.
"""

from __future__ import annotations

import matplotlib

from tests.paths import ROOT

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from starlib import allreduce as ar  # noqa: E402
from starlib.edst import EDSTSet, Tree  # noqa: E402
from starlib.edst.trees import bfs_tree  # noqa: E402
from starlib.paper.catalog import build, format_params  # noqa: E402
from starlib.paper.figures import MAX_HEIGHT, TWO_COLUMN, print_faults  # noqa: E402
from starlib.paper.tree_depths import build_trees  # noqa: E402

NETWORKS = (("slimfly", {"q": 4}), ("polarstar-iq", {"q": 4, "d": 3}))
METHODS = ("bfs", "universal", "low-depth", "maximum", "generic")


@pytest.fixture(scope="module")
def sets():
    """``(family, parameters, method) -> (product, trees)`` as notebook 08 builds them (factor trees shallow)."""
    out = {}
    for family, params in NETWORKS:
        P = build(family, params)
        for method in METHODS:
            if method == "bfs":
                root = int(np.argmin(P.eccentricities()))
                trees = EDSTSet([Tree(bfs_tree(P.n, P.edges, root), root, "bfs", n=P.n)])
            else:
                trees = build_trees(P, method, "shallow")
            out[(family, format_params(params), method)] = (P, trees)
    return out


def _legend(fig) -> list[str]:
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    return [t.get_text() for t in fig.legends[0].get_texts()]


def test_speedup_figure_prints(sets):
    from starlib.paper.allreduce_figures import speedup_figure

    depths = {key: [ar.tree_height(P.n, t.edges, t.root) for t in trees] for key, (P, trees) in sets.items()}
    panels = [(family, format_params(params)) for family, params in NETWORKS]
    fig = speedup_figure(depths, panels, 2.0 ** np.arange(3, 31), 1.0, 1 / 12.5e3)
    faults, size, legend = print_faults(fig), fig.get_size_inches(), _legend(fig)
    notes = [[t.get_text() for t in ax.texts] for ax in fig.axes[:2]]
    plt.close(fig)
    assert faults == [] and abs(size[0] - TWO_COLUMN) < 0.01 and size[1] <= MAX_HEIGHT
    # the tree sets of the former per-panel legends, once; their k and D now in each panel's texts
    assert legend == ["one BFS tree", "Universal", "low-depth Universal", "Maximum", "exact packer"]
    for (family, params), texts in zip(panels, notes, strict=True):
        bfs = depths[(family, params, "bfs")]
        assert texts[0] == f"BFS: k=1, D={max(bfs)}"
        maximum = depths[(family, params, "maximum")]
        assert any(t.startswith("Max.") and t.endswith(f"k={len(maximum)}, D={max(maximum)}") for t in texts)


def test_speedup_figure_twelve_panels_fit():
    """Notebook 08 draws twelve panels: four rows of three, still at most MAX_HEIGHT."""
    from starlib.paper.allreduce_figures import speedup_figure

    panels = [("slimfly", f"q={q}") for q in range(12)]
    depths = {(f, p, m): d for f, p in panels for m, d in (("bfs", [2]), ("universal", [5]), ("maximum", [5, 6, 11]))}
    fig = speedup_figure(depths, panels, 2.0 ** np.arange(3, 31), 1.0, 8e-5)
    faults = print_faults(fig)
    plt.close(fig)
    assert faults == []


def test_resilience_figure_prints(sets):
    from starlib.paper.allreduce_figures import resilience_figure

    trials, rows = 50, []
    for family, params in NETWORKS:
        p = format_params(params)
        P = sets[(family, p, "bfs")][0]
        owners = {m: ar.tree_owner(P, sets[(family, p, m)][1]) for m in ("bfs", "low-depth", "maximum", "generic")}
        for i, f in enumerate((0.0005, 0.001, 0.002, 0.005, 0.01, 0.02)):
            patterns = ar.failure_patterns(P.m, f, trials, i, "bernoulli")
            for method, owner in owners.items():
                k = len(sets[(family, p, method)][1])
                rows.append({"network": family, "parameters": p, "n": P.n, "method": method, "trees": k, "f": f,
                             "mc_intact": ar.intact_counts(patterns, owner, k).mean(),
                             "sd_intact": ar.intact_std(k, P.n, f)})
    fig = resilience_figure(pd.DataFrame(rows), trials)
    faults, legend = print_faults(fig), _legend(fig)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    plt.close(fig)
    assert faults == []
    assert legend == ["one BFS tree", "low-depth Universal", "Maximum", "exact packer", "closed form k(1-f)$^{n-1}$"]
    P = sets[("slimfly", "q=4", "bfs")][0]
    k_max = len(sets[("slimfly", "q=4", "maximum")][1])
    assert f"n = {P.n}" in texts and "BFS: k=1" in texts and f"Max.: k={k_max}" in texts
    assert ticks == ["0.1%", "1%"]  # six probabilities, the powers of ten labelled


def test_peers_figure_prints():
    from starlib.paper.peers_figures import peers_figure

    table = pd.read_csv(ROOT / "paper_tables" / "peers.csv")
    fig = peers_figure(table, "64 MiB")
    faults, legend = print_faults(fig), _legend(fig)
    plt.close(fig)
    assert faults == []
    budgets = sorted(int(b) for b in table.radix_budget.unique())
    assert legend == [f"radix budget {b}" for b in budgets] + ["lower bound on the depth"]


def test_simulated_figure_prints():
    from starlib.netsim.figures import ALGORITHM_LABELS, simulated_figure

    table = pd.read_csv(ROOT / "data" / "simulate.csv")
    fig = simulated_figure(table)
    faults, legend = print_faults(fig), _legend(fig)
    plt.close(fig)
    assert faults == []
    algs = [ALGORITHM_LABELS[a] for a in ALGORITHM_LABELS if a in set(table.algorithm)]
    assert legend == algs + ["ns-3", "model (notebook 08)"]
    # more networks than the record holds: the rows shrink, the figure stays at most MAX_HEIGHT
    more = pd.concat([table.assign(network=f"{n}{i}") for i in range(2) for n in [table.network.iloc[0]]]
                     + [table])
    fig = simulated_figure(more)
    faults = print_faults(fig)
    plt.close(fig)
    assert faults == []
