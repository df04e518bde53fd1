"""Charts of notebook 13 ("Maximum and shallow"): the count-depth plane per network, and depth against the lower
bound over the Table IV grid.

Both use :func:`starlib.paper.figures.paper_style` and the method styles of :data:`starlib.paper.figures.METHOD_STYLES`
(hollow markers: a method's own family; filled: the same family after the local search).

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> fig = pareto_figure({"Slim Fly MMS(5)": ({"bfs": [2], "auto": [9, 12, 7], "auto+ls": [4, 4, 4]},
...                                          [(1, 2, "bfs"), (3, 4, "auto+ls")], 3)})
>>> len(fig.axes), fig.axes[0].get_xlabel(), fig.get_size_inches().tolist()
(1, 'edge-disjoint spanning trees', [7.1, 3.0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .figures import METHOD_STYLES, PALETTE, TWO_COLUMN, paper_style, plain_log_ticks

__all__ = ["pareto_figure", "depth_gap_figure"]

#: Panels of :func:`depth_gap_figure`, in the paper's order.
FAMILIES = ("slimfly", "bundlefly", "polarstar-paley", "polarstar-iq", "polarfly")
_FAMILY_LABELS = {"slimfly": "Slim Fly", "bundlefly": "Bundlefly", "polarstar-paley": "PolarStar QR",
                  "polarstar-iq": "PolarStar IQ", "polarfly": "PolarFly ER$_q$"}


def pareto_figure(panels: Mapping[str, tuple[Mapping[str, Sequence[int]], Sequence[tuple[int, int, str]], int]],
                  ncols: int = 3) -> matplotlib.figure.Figure:
    """Maximum depth against the number of trees, one panel per network, with the front of what can be built.

    Parameters
    ----------
    panels : title -> (families, front, lower bound). ``families`` maps a method name (a key of
        :data:`~starlib.paper.figures.METHOD_STYLES`, optionally with ``"+ls"``) to its trees' depths; ``front``
        is :func:`starlib.paper.shallow_study.pareto_front`; the lower bound is drawn as a dotted line.
    ncols : panels per row (the figure is :data:`~starlib.paper.figures.TWO_COLUMN` wide whatever ``ncols``).
    """
    titles = list(panels)
    ncols = max(1, min(ncols, len(titles)))
    nrows = -(-len(titles) // ncols)
    with paper_style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(TWO_COLUMN, min(2.1 * nrows + 0.9, 9.0)), squeeze=False,
                                 layout="constrained")
        used: dict[str, None] = {}
        for ax, title in zip(axes.flat, titles, strict=False):
            families, front, bound = panels[title]
            for name, depths in families.items():
                if not len(depths):
                    continue
                base = name.removesuffix("+ls")
                st = METHOD_STYLES[base]
                improved = name.endswith("+ls")
                ax.plot([len(depths)], [max(depths)], linestyle="none", marker=st.marker, color=st.colour,
                        markerfacecolor=st.colour if improved else "none", markersize=6, zorder=3)
                used[base] = None
            counts = np.arange(1, front[-1][0] + 1)  # c trees need the depth of the first front point with >= c
            ax.step(counts, [min(d for c0, d, _ in front if c0 >= c) for c in counts], where="mid",
                    color=PALETTE[6], linewidth=1.0, zorder=2)
            ax.axhline(bound, color=PALETTE[6], linestyle=":", linewidth=1.0, zorder=1)
            ax.set_yscale("log")
            plain_log_ticks(ax, "y")
            top = max(max(d) for d in families.values() if len(d))
            low = min([bound] + [min(d) for d in families.values() if len(d)])
            ax.set_title(title, fontsize=9)
            if top / max(low, 1) < 4:  # a narrow range (2 to 6, say): whole depths, at most six of them
                ticks = np.arange(int(np.ceil(max(low, 1) * 0.8)), int(top * 1.3) + 1)
                ax.yaxis.set_major_locator(mticker.FixedLocator(ticks[:: -(-len(ticks) // 6)]))
                ax.yaxis.set_minor_locator(mticker.NullLocator())
            ax.set_ylim(max(low, 1) * 0.8, top * 1.3)
            kmax = max(len(d) for d in families.values())
            ax.set_xlim(0.5, kmax + 0.5)
            ax.set_xticks(range(1, kmax + 1, max(1, kmax // 6)))
        for i, ax in enumerate(axes.flat):
            ax.set_visible(i < len(titles))
            if i < len(titles) <= i + ncols:  # the lowest panel of its column
                ax.set_xlabel("edge-disjoint spanning trees")
        handles = [Line2D([], [], linestyle="none", marker=METHOD_STYLES[m].marker, color=METHOD_STYLES[m].colour,
                          markerfacecolor="none", label=METHOD_STYLES[m].label) for m in used]
        handles += [Line2D([], [], linestyle="none", marker="o", color="#555555", label="filled: after local search"),
                    Line2D([], [], color=PALETTE[6], linewidth=1.0, label="front (c shallowest trees)"),
                    Line2D([], [], color=PALETTE[6], linestyle=":", linewidth=1.0, label="lower bound")]
        fig.supylabel("maximum depth", fontsize=10)
        fig.legend(handles=handles, loc="outside lower center", ncol=min(3, len(handles)), frameon=False)
    return fig


def depth_gap_figure(table: pd.DataFrame) -> matplotlib.figure.Figure:
    """Maximum depth of the paper's and the shallow families against the number of links, with the lower bound,
    one panel per family of networks (rows of ``paper_tables/maximum_shallow.csv``).

    Parameters
    ----------
    table : the notebook's table (:data:`starlib.paper.shallow_study.ROW_COLUMNS`).
    """
    fams = [f for f in FAMILIES if (table["network"] == f).any()]
    with paper_style():
        ncols = min(3, len(fams))
        nrows = -(-len(fams) // ncols)
        fig, axes = plt.subplots(nrows, ncols, figsize=(TWO_COLUMN, 2.3 * nrows + 0.6), squeeze=False, sharey=True,
                                 layout="constrained")
        for ax, fam in zip(axes.flat, fams, strict=False):
            sub = table[table["network"] == fam].sort_values("links")
            x = sub["links"].to_numpy()
            paper = sub["paper"].iloc[0]
            for col, key, filled in (("paper_depth", paper, False), ("shallow_depth", "shallow", True)):
                st = METHOD_STYLES[key]
                ax.plot(x, sub[col].to_numpy(), linestyle="none", marker=st.marker, color=st.colour,
                        markerfacecolor=st.colour if filled else "none", label=st.label)
            ax.plot(x, sub["lower_bound"].to_numpy(), linestyle="none", marker="_", color=PALETTE[6],
                    markersize=9, label="lower bound")
            ax.set_xscale("log")
            ax.set_yscale("log")
            plain_log_ticks(ax, "x", subs=(1.0,))  # powers of ten only: a panel spans up to four decades
            plain_log_ticks(ax, "y")
            ax.set_title(_FAMILY_LABELS[fam])
            ax.set_xlabel("links")
        for ax in list(axes.flat)[len(fams):]:
            ax.set_visible(False)
        for row in axes:
            row[0].set_ylabel("maximum depth")
        handles, labels = [], []
        for ax in axes.flat:
            for h, lab in zip(*ax.get_legend_handles_labels(), strict=True):
                if lab not in labels:
                    handles.append(h)
                    labels.append(lab)
        fig.legend(handles, labels, loc="outside lower center", ncol=2, frameon=False)
    ys = np.concatenate([table[c].to_numpy() for c in ("paper_depth", "shallow_depth", "lower_bound")])
    if ys.min() < 1:
        raise ValueError("depth_gap_figure: depths must be >= 1 on a log axis")
    return fig
