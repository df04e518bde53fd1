"""The chart of notebook 14 ("Star products among their peers"): per network and radix budget, EDSTs per port,
the depth of the shallow maximum family against its lower bound, and the allreduce time of a large message.

One row per network (star products on top), one colour and marker per radix budget; a network with several
instances per budget (Jellyfish, one per seed) is drawn at its median with a bar from its least to its largest
value. A rule separates the star products from their peers.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import pandas as pd
>>> t = pd.DataFrame({"radix_budget": [16, 16, 16], "network": ["slimfly", "jellyfish", "jellyfish"],
...                   "parameters": ["q=7", "n=98 r=11 p=5 seed=0", "n=98 r=11 p=5 seed=1"],
...                   "edsts_per_port": [0.3125] * 3, "shallow_depth": [4, 4, 5], "lower_bound": [3, 3, 3],
...                   "allreduce_us": [1254.1, 1254.1, 1260.0]})
>>> fig = peers_figure(t, "64 MiB")
>>> len(fig.axes), [t.get_text() for t in fig.axes[0].get_yticklabels()]
(3, ['Slim Fly', 'Jellyfish (2 seeds)'])
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .figures import MARKERS, MAX_HEIGHT, PALETTE, TWO_COLUMN, paper_style
from .peers import STAR_PRODUCTS

__all__ = ["peers_figure", "NETWORK_LABELS"]

#: Row labels of the figure, in its order (top to bottom); the keys are the families of the table's rows.
NETWORK_LABELS = {"slimfly": "Slim Fly", "polarfly": "PolarFly", "bundlefly": "Bundlefly",
                  "polarstar-iq": "PolarStar", "polarstar-paley": "PolarStar (QR)", "dragonfly": "Dragonfly",
                  "fat-tree": "fat tree", "hyperx": "HyperX", "torus": "torus", "hypercube": "hypercube",
                  "jellyfish": "Jellyfish"}

_PANELS = (("edsts_per_port", "EDSTs per\nrouter port"), ("shallow_depth", "depth of the shallow\nmaximum family"),
           ("allreduce_us", "allreduce time\n({size}), $\\mu$s"))


def _row_key(network: str, parameters: str) -> str:
    """The figure row of a table row: the family, and the Dragonfly's arrangement (one row each)."""
    if network == "dragonfly":
        arrangement = dict(w.split("=", 1) for w in parameters.split()).get("arrangement", "absolute")
        return f"dragonfly:{arrangement}"
    return network


def _row_label(key: str, seeds: int) -> str:
    if key.startswith("dragonfly:"):
        return f"Dragonfly ({key.split(':', 1)[1]})"
    label = NETWORK_LABELS[key]
    return f"{label} ({seeds} seeds)" if seeds > 1 else label


def peers_figure(table: pd.DataFrame, size_label: str) -> matplotlib.figure.Figure:
    """Three panels side by side, one row per network: EDSTs per port, depth (with the lower bound as a dash),
    and the allreduce time.

    Parameters
    ----------
    table : rows of :func:`starlib.paper.peers.peer_row` (columns ``radix_budget``, ``network``,
        ``parameters``, ``edsts_per_port``, ``shallow_depth``, ``lower_bound``, ``allreduce_us``).
    size_label : the message size of the allreduce column, for the axis label (``"64 MiB"``).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If the table has a network without a label, or more radix budgets than markers.
    """
    unknown = sorted(set(table.network) - set(NETWORK_LABELS))
    if unknown:
        raise ValueError(f"peers_figure: no label for {unknown}")
    budgets = sorted(int(b) for b in table.radix_budget.unique())
    if len(budgets) > len(MARKERS):
        raise ValueError(f"peers_figure: {len(budgets)} radix budgets, at most {len(MARKERS)}")
    keys = [_row_key(n, p) for n, p in zip(table.network, table.parameters, strict=True)]
    t = table.assign(_key=keys)
    order = list(dict.fromkeys(k for f in NETWORK_LABELS for k in keys if k.split(":")[0] == f))
    seeds = t.groupby(["_key", "radix_budget"]).size().groupby(level=0).max()
    ypos = {k: i for i, k in enumerate(order)}
    stars = sum(k in STAR_PRODUCTS for k in order)  # star products first: a rule below them
    offsets = np.linspace(-0.25, 0.25, len(budgets)) if len(budgets) > 1 else np.zeros(1)
    with paper_style():
        fig, axes = plt.subplots(1, 3, figsize=(TWO_COLUMN, min(0.3 * len(order) + 1.9, MAX_HEIGHT)), sharey=True,
                                 layout="constrained")
        for ax, (col, title) in zip(axes, _PANELS, strict=True):
            for b, off, colour, marker in zip(budgets, offsets, PALETTE, MARKERS, strict=False):
                sub = t[t.radix_budget == b]
                for key, grp in sub.groupby("_key", sort=False):
                    y = ypos[key] + off
                    v = grp[col].to_numpy(dtype=float)
                    if len(v) > 1:
                        ax.plot([v.min(), v.max()], [y, y], color=colour, linewidth=1.2, zorder=2)
                    ax.plot([float(np.median(v))], [y], linestyle="none", marker=marker, color=colour,
                            markerfacecolor=colour, markersize=5, zorder=3)
                    if col == "shallow_depth":
                        lb = grp["lower_bound"].to_numpy(dtype=float)
                        ax.plot([float(np.median(lb))], [y], linestyle="none", marker="|", color=PALETTE[6],
                                markersize=8, zorder=2)
            ax.set_title(title.format(size=size_label))
            ax.xaxis.set_major_locator(mticker.MaxNLocator(nbins=6, integer=True) if col == "shallow_depth"
                                       else mticker.MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10]))
            ax.grid(axis="x", linewidth=0.4, alpha=0.5)
            if stars:
                ax.axhline(stars - 0.5, color="#999999", linewidth=0.6)
        axes[0].set_yticks(range(len(order)), [_row_label(k, int(seeds[k])) for k in order])
        axes[0].set_ylim(len(order) - 0.5, -0.5)
        handles = [Line2D([], [], linestyle="none", marker=m, color=c, label=f"radix budget {b}")
                   for b, c, m in zip(budgets, PALETTE, MARKERS, strict=False)]
        handles.append(Line2D([], [], linestyle="none", marker="|", color=PALETTE[6], markersize=8,
                              label="lower bound on the depth"))
        fig.legend(handles=handles, loc="outside lower center", ncol=min(len(handles), 4), frameon=False,
                   columnspacing=1.0, handletextpad=0.3)
    return fig
