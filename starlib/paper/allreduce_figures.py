"""Charts of notebook 08: allreduce speed-up of tree sets over one BFS tree, and trees left intact when links fail.

One panel per network, titled as the paper writes the network (:func:`starlib.paper.figures.network_title`), one
colour and marker per tree set (:data:`starlib.paper.figures.METHOD_STYLES`). Sets whose curves are identical are
drawn once and named together in the legend ("Universal = low-depth"), so no curve hides another; curves that are
merely close (the Maximum set and the exact packer's) differ in line style and marker as well as colour. The
time model's constants are stated in the figure.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import numpy as np
>>> depths = {("slimfly", "q=4", "bfs"): [2], ("slimfly", "q=4", "universal"): [5],
...           ("slimfly", "q=4", "low-depth"): [5], ("slimfly", "q=4", "maximum"): [5, 6, 11]}
>>> fig = speedup_figure(depths, [("slimfly", "q=4")], 2.0 ** np.arange(3, 31), 1.0, 8e-5)
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['one BFS tree (k=1, D=2)', 'Universal = low-depth Universal (k=1, D=5)', 'Maximum (k=3, D=11)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .. import allreduce as ar
from .figures import METHOD_STYLES, network_title, paper_style, plain_log_ticks

__all__ = ["speedup_figure", "resilience_figure", "byte_label", "percent_label"]

#: Line style of each tree set: the constructions solid, the BFS baseline dotted, the exact packer dashed.
_LINE = {"bfs": ":", "universal": "-", "low-depth": "-", "maximum": "-", "property": "-", "generic": "--"}


def byte_label(size: float, _pos: int | None = None) -> str:
    """A power-of-two byte count as a reader writes it.

    >>> [byte_label(2.0 ** e) for e in (4, 10, 20, 30, 31)]
    ['16 B', '1 KiB', '1 MiB', '1 GiB', '2 GiB']
    """
    for unit, exp in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 2**exp:
            return f"{size / 2**exp:g} {unit}"
    return f"{size:g} B"


def percent_label(value: float, _pos: int | None = None) -> str:
    """A probability as a percentage: ``0.0005`` -> ``'0.05%'``.

    >>> percent_label(0.0005), percent_label(0.02)
    ('0.05%', '2%')
    """
    return f"{100 * value:.10g}%"


def _grid(count: int, cols: int = 4) -> tuple[int, int]:
    return -(-count // cols), min(cols, count)


def _panels(count: int, figsize_panel: tuple[float, float], sharex: bool = True):
    rows, cols = _grid(count)
    fig, axes = plt.subplots(rows, cols, figsize=(figsize_panel[0] * cols, figsize_panel[1] * rows + 0.6),
                             sharex=sharex, squeeze=False, layout="constrained")
    for ax in axes.flat[count:]:
        ax.set_axis_off()
    return fig, axes


def _label_outer(fig: matplotlib.figure.Figure, axes: np.ndarray, xlabel: str, ylabel: str, title: str) -> None:
    for ax in axes[-1]:
        ax.set_xlabel(xlabel)
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    fig.suptitle(title)


def speedup_figure(depths: Mapping[tuple[str, str, str], Sequence[int]], networks: Sequence[tuple[str, str]],
                   sizes: np.ndarray, alpha_us: float, beta_us: float) -> matplotlib.figure.Figure:
    """Allreduce time on one BFS tree divided by the time on each tree set, against the message size.

    Parameters
    ----------
    depths : mapping
        ``(family, parameters, method) -> depths of the set's trees``; the method ``"bfs"`` (one tree) is the
        baseline and must be present for every network. Sets without trees are left out.
    networks : sequence of (family, parameters)
        The panels, in order (``parameters`` as in the tables, ``"q=4 paley_q=5"``).
    sizes : array
        Message sizes in bytes (powers of two give the tick labels 16 B, 1 KiB, ...).
    alpha_us, beta_us : float
        The model's latency per message and link (microseconds) and time per byte (microseconds).

    Returns
    -------
    matplotlib.figure.Figure
        One panel per network: speed-up of each tree set over the BFS tree against message size.

    Raises
    ------
    ValueError
        If a network has no ``"bfs"`` set.

    References
    ----------
    The pipelined model of notebook 08 (Hockney's alpha-beta model; ``starlib.allreduce.allreduce_time``).
    """
    with paper_style():
        fig, axes = _panels(len(networks), (3.8, 3.1))
        for ax, (family, params) in zip(axes.flat, networks, strict=False):
            if (family, params, "bfs") not in depths:
                raise ValueError(f"depths: no 'bfs' set for {family} {params}, the baseline of the speed-up")
            base = ar.allreduce_time(list(depths[(family, params, "bfs")]), sizes, alpha_us, beta_us)
            curves: list[tuple[list[str], np.ndarray, list[int]]] = []
            for method in METHOD_STYLES:
                d = list(depths.get((family, params, method), []))
                if not d:
                    continue
                ratio = base / ar.allreduce_time(d, sizes, alpha_us, beta_us)
                same = next((c for c in curves if np.array_equal(c[1], ratio)), None)
                if same is not None:
                    same[0].append(method)
                else:
                    curves.append(([method], ratio, d))
            for i, (methods, ratio, d) in enumerate(curves):
                style = METHOD_STYLES[methods[0]]
                ax.plot(sizes, ratio, color=style.colour, ls=_LINE[methods[0]], lw=1.8, marker=style.marker,
                        ms=5, markevery=(i % 4, 4), fillstyle="none" if methods[0] == "maximum" else "full",
                        label=f"{' = '.join(METHOD_STYLES[m].label for m in methods)} (k={len(d)}, D={max(d)})")
            lo = min(float(c[1].min()) for c in curves + [(["bfs"], np.ones(1), [])])
            hi = max(float(c[1].max()) for c in curves + [(["bfs"], np.ones(1), [])])
            # room above the curves for the legend: the top 40% of the (log) height stays empty
            ax.set(xscale="log", yscale="log", title=network_title(family, params),
                   ylim=(lo / 1.3, hi * 1.15 * (1.15 * hi / lo * 1.3) ** 0.7))
            ax.xaxis.set_major_locator(mticker.FixedLocator([2.0**e for e in (4, 10, 20, 30)]))
            ax.xaxis.set_major_formatter(mticker.FuncFormatter(byte_label))
            ax.xaxis.set_minor_locator(mticker.NullLocator())
            plain_log_ticks(ax, "y")
            ax.legend(loc="upper left", fontsize=7.5, handlelength=2.6)
        _label_outer(fig, axes, "message size", "speed-up over one BFS tree",
                     f"Allreduce over k edge-disjoint trees of depth at most D, message split equally: time on one "
                     f"BFS tree / time on the set\n(pipelined model: {alpha_us:g} µs per message and link, "
                     f"{beta_us:.2e} µs per byte, i.e. {1e-3 / beta_us:g} GB/s per link direction)")
    return fig


def resilience_figure(resilience: pd.DataFrame, trials: int) -> matplotlib.figure.Figure:
    """Expected number of intact trees against the link failure probability: closed form and Monte Carlo.

    Every tree of a network has ``n - 1`` links, so the closed form ``k (1 - f)^(n-1)`` depends on the set only
    through ``k``: one line per distinct ``k``. The Monte Carlo means of the sets (two standard errors) are
    drawn side by side around each ``f``, so sets with the same ``k`` stay visible.

    Parameters
    ----------
    resilience : pandas.DataFrame
        One row per (network, set, f): ``network``, ``parameters``, ``n``, ``method``, ``trees``, ``f``,
        ``mc_intact``, ``sd_intact``; panels in the order of the frame.
    trials : int
        Monte Carlo failure patterns per point (for the standard error).

    Returns
    -------
    matplotlib.figure.Figure
        Expected intact trees against the link failure probability, closed form and Monte Carlo.

    Raises
    ------
    ValueError
        If ``trials`` is not positive.
    """
    if trials < 1:
        raise ValueError(f"trials={trials} must be at least 1")
    panels = list(dict.fromkeys(zip(resilience["network"], resilience["parameters"], strict=True)))
    fmin, fmax = float(resilience["f"].min()), float(resilience["f"].max())
    fs = np.geomspace(fmin, fmax, 100)
    with paper_style():
        fig, axes = _panels(len(panels), (3.8, 3.0))
        for ax, (family, params) in zip(axes.flat, panels, strict=False):
            sub = resilience[(resilience["network"] == family) & (resilience["parameters"] == params)]
            n = int(sub["n"].iloc[0])
            ks = sorted(set(sub["trees"].astype(int)))
            for k in ks:
                ax.plot(fs, ar.intact_expected(k, n, fs), color="#7f7f7f", lw=1.2, zorder=1)
                ax.annotate(f"k={k}", (fmin / 1.2, k * (1 - fmin) ** (n - 1)), ha="right", va="center", fontsize=8,
                            color="#525252")
            methods = [m for m in METHOD_STYLES if m in set(sub["method"])]
            for i, method in enumerate(methods):
                grp = sub[sub["method"] == method]
                style = METHOD_STYLES[method]
                dodge = 1.0 + 0.07 * (i - (len(methods) - 1) / 2)
                ax.errorbar(grp["f"] * dodge, grp["mc_intact"], yerr=2 * grp["sd_intact"] / np.sqrt(trials),
                            fmt=style.marker, ms=5, color=style.colour, lw=1, capsize=0, zorder=2,
                            label=f"{style.label} (k={int(grp['trees'].iloc[0])})")
            ax.set(xscale="log", title=f"{network_title(family, params)}, n = {n}", ylim=(0, max(ks) * 1.7),
                   xlim=(fmin / 2.6, fmax * 1.25))  # room for the k labels on the left, the legend on top
            ax.xaxis.set_major_locator(mticker.FixedLocator(sorted(set(resilience["f"].astype(float)))))
            ax.xaxis.set_major_formatter(mticker.FuncFormatter(percent_label))
            ax.xaxis.set_minor_locator(mticker.NullLocator())
            ax.yaxis.set_major_locator(mticker.MaxNLocator(integer=True))
            handles, labels = ax.get_legend_handles_labels()
            handles.append(Line2D([], [], color="#7f7f7f", lw=1.2))
            labels.append("closed form k(1-f)$^{n-1}$")
            ax.legend(handles, labels, loc="upper right", fontsize=7.5)
        _label_outer(fig, axes, "link failure probability f", "intact trees",
                     f"Expected number of intact trees when every link fails independently with probability f: "
                     f"closed form (lines)\nand Monte Carlo means with two standard errors ({trials} failure "
                     f"patterns per point, sets side by side)")
    return fig
