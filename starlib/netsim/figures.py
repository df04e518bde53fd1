"""The figures of notebooks 15 and 16: simulated (ns-3) against modelled (notebook 08) allreduce times
(:func:`simulated_figure`), and every schedule of the schedules record against ForestColl's optimum
(:func:`schedules_figure`).

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

from ..figure_style import MARKERS, MAX_HEIGHT, PALETTE, TWO_COLUMN, paper_style

__all__ = ["simulated_figure", "schedules_figure", "ALGORITHM_LABELS", "NETWORK_LABELS", "SCHEDULE_LABELS"]

ALGORITHM_LABELS = {"bfs": "one BFS tree", "auto": "construction (Table I)", "shallow": "shallow maximum",
                    "ring": "Hamiltonian ring", "ring-sp": "contended ring"}
NETWORK_LABELS = {"polarfly": "PolarFly", "slimfly": "Slim Fly", "bundlefly": "Bundlefly", "polarstar": "PolarStar",
                  "polarstar-iq": "PolarStar", "dragonfly": "Dragonfly", "fat-tree": "fat tree", "hyperx": "HyperX"}
#: parameters a panel title leaves out (they do not tell the networks of the record apart)
_QUIET_PARAMS = ("arrangement", "loops", "p")
#: the schedules of the schedules record (:data:`starlib.allreduce.schedules.SCHEDULES`), in the figure's order
SCHEDULE_LABELS = {"trees": "EDSTs (shallow family)", "weighted-trees": "weighted trees", "bfs": "one BFS tree",
                   "ring": "Hamiltonian ring", "multiring": "disjoint Hamiltonian rings", "ring-sp": "contended ring",
                   "dbtree": "double binary tree", "halving-doubling": "halving-doubling"}


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


def schedules_figure(record: pd.DataFrame, simulator: str = "ns3") -> matplotlib.figure.Figure:
    """One panel per network: every schedule's time over ForestColl's optimum against the message size.

    Parameters
    ----------
    record : pandas.DataFrame
        Rows of ``data/schedules.csv`` (columns ``network``, ``params``, ``routers``, ``hosts_per_router``,
        ``schedule``, ``simulator``, ``size_bytes``, ``time_us``, ``optimum_us``, ``bound_us``); the routers as
        ranks (``hosts_per_router = 0``) on ``simulator`` are drawn.
    simulator : str
        The simulator whose times are drawn.

    Returns
    -------
    matplotlib.figure.Figure
        Two columns of panels at the two-column width, networks by size; one colour and marker per schedule, the
        proved lower bound over the optimum dashed grey (below 1 where ForestColl's schedule is not optimal among
        all allreduces, above 1 where latency bounds a small message); one legend below the panels.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> t = pd.DataFrame({"network": "slimfly", "params": "q=7", "routers": 98, "hosts_per_router": 0,
    ...                   "simulator": "ns3", "schedule": list(SCHEDULE_LABELS), "size_bytes": 1 << 20,
    ...                   "time_us": 90.0, "optimum_us": 80.0, "bound_us": 80.0})
    >>> fig = schedules_figure(pd.concat([t, t.assign(size_bytes=16 << 20)])); fig.canvas.draw()
    >>> len(fig.axes), [float(round(v, 2)) for v in fig.get_size_inches()]
    (2, [7.1, 2.65])
    >>> box = fig.legends[0].get_window_extent()
    >>> len(fig.legends[0].get_texts()), bool(box.x0 >= 0 and box.x1 <= fig.bbox.x1)
    (9, True)
    """
    t = record[(record.hosts_per_router == 0) & (record.simulator == simulator)]
    nets = t.groupby(["network", "params"]).routers.first().sort_values(kind="stable")
    schedules = [s for s in SCHEDULE_LABELS if s in set(t.schedule)]
    rows = max(1, -(-len(nets) // 2))
    with paper_style():
        height = min(1.75 * rows + 0.9, MAX_HEIGHT)
        fig, axes = plt.subplots(rows, 2, figsize=(TWO_COLUMN, height), squeeze=False, layout="constrained")
        for ax, ((net, params), n) in zip(axes.flat, nets.items(), strict=False):
            sub = t[(t.network == net) & (t.params == params)]
            for i, s in enumerate(SCHEDULE_LABELS):
                if s not in schedules:
                    continue
                g = sub[sub.schedule == s].sort_values("size_bytes")
                ax.plot(g.size_bytes, g.time_us / g.optimum_us, "-", color=PALETTE[i], marker=MARKERS[i],
                        mfc="none", ms=3.5, lw=1)
            ref = sub.groupby("size_bytes")[["bound_us", "optimum_us"]].first()
            ax.plot(ref.index, ref.bound_us / ref.optimum_us, "--", color="grey", lw=0.9)
            ax.axhline(1.0, color="grey", lw=0.6)
            shown = " ".join(p for p in str(params).split() if p.split("=")[0] not in _QUIET_PARAMS)
            ax.set(xscale="log", yscale="log", title=f"{NETWORK_LABELS.get(net, net)} {shown}, {n} routers")
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_locator(mticker.LogLocator(base=2, numticks=6))
        for ax in axes.flat[len(nets):]:
            ax.set_visible(False)
        for ax in axes[:, 0]:
            ax.set_ylabel("time / optimum")
        for ax in axes[-1]:
            ax.set_xlabel("message size (bytes)")
        handles = [Line2D([], [], color=PALETTE[i], marker=MARKERS[i], mfc="none", label=label)
                   for i, (s, label) in enumerate(SCHEDULE_LABELS.items()) if s in schedules]
        handles.append(Line2D([], [], color="grey", ls="--", label="proved bound"))
        fig.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    return fig
