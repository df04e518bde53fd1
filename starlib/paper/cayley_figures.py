"""Charts of notebook 10 (super Cayley graphs): degree and diameter against the number of nodes, and the emulated
MNB and TE times of Corollaries 2-3.

The ten families are encoded twice over: the colour says which nucleus they use (star, rotator or
insertion-selection generators), the marker which super generators (swaps, rotations, all rotations, none), so
that a reader can tell them apart without colour too.

Example
-------
>>> family_style("complete-RIS")
('insertion-selection nucleus', 'all rotations')
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .figures import MARKERS, PALETTE, TWO_COLUMN, paper_style, plain_log_ticks

__all__ = ["FAMILIES", "family_style", "degree_diameter_figure", "mnb_te_figure"]

#: The ten super Cayley families of Yeh, Varvarigos and Lee, in the paper's order.
FAMILIES = ("MS", "RS", "complete-RS", "MR", "RR", "complete-RR", "IS", "MIS", "RIS", "complete-RIS")

_NUCLEUS = {"S": ("star nucleus", PALETTE[0]), "R": ("rotator nucleus", PALETTE[1]),
            "IS": ("insertion-selection nucleus", PALETTE[2])}
_SUPER = {"M": ("swaps", "o"), "R": ("rotations", "^"), "complete-R": ("all rotations", "s"), "": ("none", "D")}


def _parts(family: str) -> tuple[str, str]:
    if family not in FAMILIES:
        raise ValueError(f"family={family!r} is not one of {', '.join(FAMILIES)}")
    if family == "IS":
        return "IS", ""
    head, nucleus = (family[:-2], "IS") if family.endswith("IS") else (family[:-1], family[-1])
    return nucleus, head


def family_style(family: str) -> tuple[str, str]:
    """The nucleus and the super generators of a family, as the figure's legend names them.

    Raises
    ------
    ValueError
        If ``family`` is not one of :data:`FAMILIES`.
    """
    nucleus, sup = _parts(family)
    return _NUCLEUS[nucleus][0], _SUPER[sup][0]


def _style(family: str) -> tuple[str, str]:
    nucleus, sup = _parts(family)
    return _NUCLEUS[nucleus][1], _SUPER[sup][1]


def degree_diameter_figure(table: pd.DataFrame, k_max: int) -> matplotlib.figure.Figure:
    """Degree and diameter of every family against its number of nodes, beside the star graph and the hypercube.

    Families with the same number of symbols ``k`` have the same number of nodes ``k!``; their points are spread
    a little to either side of ``k!`` so that coinciding values stay visible.

    Parameters
    ----------
    table : pandas.DataFrame
        ``network_invariants`` rows: ``family``, ``nodes``, ``degree``, ``diameter`` (``family == "star"`` for
        the star graphs).
    k_max : int
        The largest number of symbols in the table (for the title).

    Returns
    -------
    matplotlib.figure.Figure
        Degree and diameter of every family against its number of nodes.

    References
    ----------
    Yeh, Varvarigos and Lee, *Routing and embeddings in super Cayley graphs* (PaCT 1999), Section 2.
    """
    with paper_style():
        fig, axes = plt.subplots(1, 2, figsize=(TWO_COLUMN, 4.4), layout="constrained")
        for ax, col in zip(axes, ["degree", "diameter"], strict=True):
            for i, f in enumerate(FAMILIES):
                d = table[table.family == f]
                colour, marker = _style(f)
                spread = 1.12 ** (i - (len(FAMILIES) - 1) / 2)
                ax.scatter(d.nodes * spread, d[col], marker=marker, s=22, facecolors="none", edgecolors=colour,
                           linewidths=1.1, zorder=2)
            st = table[table.family == "star"]
            ax.plot(st.nodes, st[col], color="black", lw=1.5, zorder=1)
            dims = np.arange(2, 19)
            ax.plot(2.0**dims, dims, color="black", ls="--", lw=1, zorder=1)
            ax.set_xscale("log")
            ax.xaxis.set_major_locator(mticker.LogLocator(base=10, numticks=5))
            ax.xaxis.set_minor_formatter(mticker.NullFormatter())
            ax.set(xlabel="number of nodes N", ylabel=col, title=col)
        key = [Line2D([], [], ls="none", marker="s", ms=7, color=c, label=name) for name, c in _NUCLEUS.values()]
        key += [Line2D([], [], ls="none", marker=mk, ms=6, color="#525252", fillstyle="none",
                       label=f"super generators: {name}") for name, mk in _SUPER.values()]
        key += [Line2D([], [], color="black", lw=1.5, label="star graph"),
                Line2D([], [], color="black", ls="--", lw=1, label="hypercube ($N = 2^d$)")]
        fig.legend(handles=key, loc="outside lower center", ncols=3, frameon=False,
                   title="colour: nucleus; marker: super generators")
        fig.suptitle(f"The ten super Cayley graphs, $k = nl + 1 \\leq {k_max}$ symbols")
    return fig


#: Line style of the Corollary 2-3 series: the balanced families wide and solid, the others thinner, so that
#: series that coincide (MS and MIS with l = n, whose slowdowns are both 2n) both stay visible.
_SERIES_STYLE = ({"lw": 4.0, "alpha": 0.55, "ls": "-"}, {"lw": 1.6, "ls": "--"}, {"lw": 1.6, "ls": "-"},
                 {"lw": 1.6, "ls": ":"})


def mnb_te_figure(cor: pd.DataFrame) -> matplotlib.figure.Figure:
    """Emulated MNB and TE times over the corollaries' orders (top) and over universal lower bounds (bottom).

    Parameters
    ----------
    cor : pandas.DataFrame
        One row per network: ``series`` (the legend label), ``k`` (symbols), ``mnb_over_order``,
        ``te_over_order``, ``mnb_over_lb``, ``te_over_lb``; series in the order of the frame.

    Returns
    -------
    matplotlib.figure.Figure
        The MNB and TE times of Corollaries 2-3 against k, one panel per quantity.

    Raises
    ------
    ValueError
        If there are more series than line styles (4).

    References
    ----------
    Corollaries 2-3 of Yeh, Varvarigos and Lee (PaCT 1999).
    """
    series = list(dict.fromkeys(cor["series"]))
    if len(series) > len(_SERIES_STYLE):
        raise ValueError(f"cor: {len(series)} series, at most {len(_SERIES_STYLE)} can be told apart")
    panels = [("mnb_over_order", "MNB time / order", "Corollary 2: MNB / its order"),
              ("te_over_order", "TE time / order", "Corollary 3: TE / its order"),
              ("mnb_over_lb", "MNB time / ((N-1)/d)", "MNB / lower bound, degree d"),
              ("te_over_lb", "TE time / Moore bound", "TE / Moore bound, degree d")]
    with paper_style():
        fig, axes = plt.subplots(2, 2, figsize=(TWO_COLUMN, 5.6), sharex=True, layout="constrained")
        for ax, (col, ylabel, title) in zip(axes.ravel(), panels, strict=True):
            for i, label in enumerate(series):
                d = cor[cor["series"] == label]
                ax.plot(d["k"], d[col], color=PALETTE[i], marker=MARKERS[i], ms=5, markevery=(0.025 * i, 0.1),
                        fillstyle="none" if i == 1 else "full", label=label, **_SERIES_STYLE[i])
            ax.set_yscale("log")
            plain_log_ticks(ax, "y")
            ax.set(ylabel=ylabel, title=title)
        for ax in axes[1]:
            ax.set_xlabel("number of symbols k (N = k!)")
        handles, labels = axes[0, 0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=2, frameon=False)
    return fig
