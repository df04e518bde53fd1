"""The figure of notebook 15: simulated (ns-3) against modelled (notebook 08) allreduce times.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import pandas as pd
>>> t = pd.DataFrame({"network": ["slimfly"] * 2, "params": ["q=5"] * 2, "algorithm": ["bfs"] * 2,
...                   "size_bytes": [1024, 2048], "sim_us": [4.0, 5.0], "model_us": [8.0, 9.0]})
>>> fig = simulated_figure(t)
>>> len(fig.axes), [float(round(v, 2)) for v in fig.get_size_inches()]
(2, [7.1, 2.8])
>>> [t.get_text() for t in fig.legends[0].get_texts()]
['one BFS tree', 'ns-3', 'model (notebook 08)']

With every algorithm of the record the legend (two rows of four) stays inside the figure's width:

>>> t = pd.DataFrame({"network": "slimfly", "params": "q=5", "algorithm": list(ALGORITHM_LABELS),
...                   "size_bytes": 1024, "sim_us": 4.0, "model_us": 4.0})
>>> fig = simulated_figure(t); fig.canvas.draw()
>>> box = fig.legends[0].get_window_extent()
>>> len(fig.legends[0].get_texts()), bool(box.x0 >= 0 and box.x1 <= fig.bbox.x1)
(7, True)
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import pandas as pd
from matplotlib.lines import Line2D

from ..paper.figures import MARKERS, MAX_HEIGHT, PALETTE, TWO_COLUMN, paper_style

__all__ = ["simulated_figure", "ALGORITHM_LABELS", "NETWORK_LABELS"]

ALGORITHM_LABELS = {"bfs": "one BFS tree", "auto": "construction (Table I)", "shallow": "shallow maximum",
                    "ring": "Hamiltonian ring", "ring-sp": "contended ring"}
NETWORK_LABELS = {"polarfly": "PolarFly", "slimfly": "Slim Fly", "bundlefly": "Bundlefly", "polarstar": "PolarStar"}


def simulated_figure(table: pd.DataFrame) -> matplotlib.figure.Figure:
    """One row of panels per network: allreduce time against message size (left) and simulated / modelled (right).

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of ``data/simulate.csv`` (columns ``network``, ``params``, ``algorithm``, ``size_bytes``, ``sim_us``,
        ``model_us``).

    Returns
    -------
    matplotlib.figure.Figure
        Solid lines with markers: ns-3; dashed: notebook 08's model; one colour and marker per algorithm.
    """
    nets = sorted(table.network.unique())
    algs = [a for a in ALGORITHM_LABELS if a in set(table.algorithm)]
    with paper_style():
        # two columns at TWO_COLUMN width; rows share the height up to MAX_HEIGHT (2.05 in each at most)
        height = min(2.05 * len(nets) + 0.75, MAX_HEIGHT)
        fig, axes = plt.subplots(len(nets), 2, figsize=(TWO_COLUMN, height), squeeze=False, layout="constrained")
        for row, net in zip(axes, nets, strict=True):
            sub = table[table.network == net]
            for i, alg in enumerate(algs):
                g = sub[sub.algorithm == alg].sort_values("size_bytes")
                kw = {"color": PALETTE[i], "marker": MARKERS[i], "mfc": "none", "ms": 4}
                row[0].plot(g.size_bytes, g.sim_us, "-", **kw)
                row[0].plot(g.size_bytes, g.model_us, "--", color=PALETTE[i], lw=1)
                row[1].plot(g.size_bytes, g.sim_us / g.model_us, "-", **kw)
            label = f"{NETWORK_LABELS.get(net, net)} ({sub.params.iloc[0].replace(',', ', ')})"
            row[0].set(xscale="log", yscale="log", ylabel="time ($\\mu$s)", title=label)
            row[1].set(xscale="log", ylabel="simulated / model", title=label)
            row[1].axhline(1.0, color="grey", lw=0.8)
            for ax in row:
                ax.set_xscale("log", base=2)
                ax.xaxis.set_major_locator(mticker.LogLocator(base=2, numticks=6))  # a few powers of two
        for ax in axes[-1]:
            ax.set_xlabel("message size (bytes)")
        handles = [Line2D([], [], color=PALETTE[i], marker=MARKERS[i], mfc="none", label=ALGORITHM_LABELS[a])
                   for i, a in enumerate(algs)]
        handles += [Line2D([], [], color="grey", ls="-", label="ns-3"),
                    Line2D([], [], color="grey", ls="--", label="model (notebook 08)")]
        fig.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    return fig
