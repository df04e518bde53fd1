"""The drawings of notebooks 01, 07 and 10 print legibly at one of the two column widths.

Each builder is run on small real inputs and checked with :func:`starlib.paper.figures.print_faults`: width 3.5 or
7.1 in, at most MAX_HEIGHT (8 in) high, no visible text under 7 pt, at most one legend, a figure-level one.
"""

from __future__ import annotations

import math
from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from starlib import cayley as sc  # noqa: E402
from starlib.paper.figures import ONE_COLUMN, TWO_COLUMN, print_faults  # noqa: E402


def _faults_and_size(fig):
    faults, size = print_faults(fig), fig.get_size_inches().tolist()
    return faults, size


@pytest.fixture(scope="module")
def cayley_table():
    k_max = 5
    spaces = {k: sc.PermutationSpace(k) for k in range(3, k_max + 1)}
    return pd.DataFrame([sc.network_invariants(f, space=spaces[p["k"] if "k" in p else p["n"] * p["l"] + 1], **p)
                         for f, p in sc.family_instances(k_max)])


def _corollary_rows(n_max: int = 3):
    """The rows of notebook 10's Corollaries 2-3 cell, for balanced networks up to ``n_max``."""
    cases = [("MS / complete-RS, l = n", "MS", n, n) for n in range(2, n_max + 1)]
    cases += [("MIS / complete-RIS, l = n", "MIS", n, n) for n in range(2, n_max + 1)]
    cases += [("MS(2, n)", "MS", 2, n) for n in range(1, n_max * n_max // 2 + 1)]
    cases += [("IS", "IS", None, k) for k in range(3, n_max ** 2 + 2)]
    for label, f, l, n in cases:
        if f == "IS":
            k, s, d = n, 2, 2 * n - 2
        else:
            k, s = n * l + 1, sc.allport_schedule(f, l, n).length
            d = sc.degree(sc.generator_set(f, l=l, n=n), "parallel")
        N, lnN = math.factorial(k), math.lgamma(k + 1)
        mnb = s * sc.star_mnb_time(k)
        te = s * Fraction(sc.star_distance_sum(k), k - 1)
        order_mnb = math.log(lnN) / lnN if f == "IS" else math.sqrt(math.log(lnN) / lnN)
        order_te = 1.0 if f == "IS" else math.sqrt(lnN / math.log(lnN))
        yield {"series": label, "k": k, "mnb_over_order": float(Fraction(mnb, N)) / order_mnb,
               "te_over_order": float(te / N) / order_te, "mnb_over_lb": mnb / sc.mnb_lower_bound(N, d),
               "te_over_lb": float(te / sc.te_lower_bound(sc.moore_distance_sum(N, d), d))}


def test_cayley_degree_diameter_prints_with_one_shared_legend(cayley_table):
    from starlib.paper.cayley_figures import degree_diameter_figure

    fig = degree_diameter_figure(cayley_table, 5)
    faults, size = _faults_and_size(fig)
    labels = [t.get_text() for t in fig.legends[0].get_texts()] if len(fig.legends) == 1 else []
    panel_legends = [ax.get_legend() for ax in fig.axes]
    plt.close(fig)
    assert faults == [] and size[0] == TWO_COLUMN
    assert panel_legends == [None, None]
    assert labels == ["star nucleus", "rotator nucleus", "insertion-selection nucleus", "super generators: swaps",
                      "super generators: rotations", "super generators: all rotations", "super generators: none",
                      "star graph", "hypercube ($N = 2^d$)"]


def test_cayley_mnb_te_prints_with_one_shared_legend():
    from starlib.paper.cayley_figures import mnb_te_figure

    cor = pd.DataFrame(_corollary_rows())
    fig = mnb_te_figure(cor)
    faults, size = _faults_and_size(fig)
    labels = [t.get_text() for t in fig.legends[0].get_texts()] if len(fig.legends) == 1 else []
    plt.close(fig)
    assert faults == [] and size[0] == TWO_COLUMN
    assert labels == ["MS / complete-RS, l = n", "MIS / complete-RIS, l = n", "MS(2, n)", "IS"]


@pytest.mark.parametrize("builder, width, panels", [("chimera_c2_figure", TWO_COLUMN, 2),
                                                   ("chimera_planar_figure", TWO_COLUMN, 3),
                                                   ("chimera_toric_figure", ONE_COLUMN, 1)])
def test_chimera_figures_print(builder, width, panels):
    from starlib.paper import chimera_view as cv

    fig = getattr(cv, builder)()
    faults, size = _faults_and_size(fig)
    n_axes, titles = len(fig.axes), [ax.get_title() for ax in fig.axes]
    plt.close(fig)
    assert faults == [] and size[0] == width and n_axes == panels and all(titles)


def test_chimera_figures_are_deterministic(tmp_path):
    from starlib.paper import chimera_view as cv
    from starlib.paper.figures import save_figure

    data = []
    for stem in ("a", "b"):
        fig = cv.chimera_planar_figure()
        data.append(save_figure(fig, stem, tmp_path, ("png",))[0].read_bytes())
        plt.close(fig)
    assert data[0] == data[1]


def test_networks_small_prints():
    from starlib import factors
    from starlib.paper.drawing import networks_small_figure
    from starlib.products import star_product

    qr5 = factors.paley(5)
    petersen = star_product(factors.complete(2), qr5, qr5.meta["bijection"])
    fig = networks_small_figure(petersen)
    faults, size = _faults_and_size(fig)
    titles = [ax.get_title() for ax in fig.axes]
    plt.close(fig)
    assert faults == [] and size[0] == TWO_COLUMN and size[1] <= 9
    assert len(titles) == 6 and titles[0].startswith("Petersen") and titles[-1] == r"$K_4 \star QR(5)$"
