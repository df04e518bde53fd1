"""Charts of notebook 08: allreduce speed-up of tree sets over one BFS tree, and trees left intact when links fail.

One panel per network, titled as the paper writes the network (:func:`starlib.paper.figures.network_title`), one
colour and marker per tree set (:data:`starlib.paper.figures.METHOD_STYLES`), one legend for the whole figure.
Each panel states its sets' tree count k and depth D in a small text of the set's colour (the figures print at
:data:`~starlib.paper.figures.TWO_COLUMN` width, three panels a row). Sets whose curves are identical are drawn
once and named together in that text ("Universal = low-depth"), so no curve hides another; curves that are
merely close (the Maximum set and the exact packer's) differ in line style and marker as well as colour. The
time model's constants are stated in the figure.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import numpy as np
>>> depths = {("slimfly", "q=4", "bfs"): [2], ("slimfly", "q=4", "universal"): [5],
...           ("slimfly", "q=4", "low-depth"): [5], ("slimfly", "q=4", "maximum"): [5, 6, 11]}
>>> fig = speedup_figure(depths, [("slimfly", "q=4")], 2.0 ** np.arange(3, 31), 1.0, 8e-5)
>>> [t.get_text() for t in fig.legends[0].get_texts()]
['one BFS tree', 'Universal', 'low-depth Universal', 'Maximum']
>>> [t.get_text() for t in fig.axes[0].texts]
['BFS: k=1, D=2', 'Univ. = low-depth: k=1, D=5', 'Max.: k=3, D=11']
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
from .figures import MAX_HEIGHT, METHOD_STYLES, TWO_COLUMN, network_title, paper_style, plain_log_ticks

__all__ = ["speedup_figure", "resilience_figure", "byte_label", "percent_label"]

#: Short names of the tree sets in the panels' k and D texts (the figure legend has the full names).
SHORT_LABELS = {"bfs": "BFS", "universal": "Univ.", "low-depth": "low-depth", "maximum": "Max.",
                "property": "Property V-D.1", "generic": "exact packer", "auto": "auto", "hamiltonian": "Hamiltonian",
                "shallow": "shallow"}

#: Size of the small texts in the panels (points): the smallest a printed figure may have.
_NOTE_PT = 7.0

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


def _grid(count: int, cols: int = 3) -> tuple[int, int]:
    return -(-count // cols), min(cols, count)


def _panels(count: int, panel_height: float, sharex: bool = True):
    """Panels three a row at :data:`TWO_COLUMN` width, ``panel_height`` inches each plus room for the title and
    the figure legend, at most :data:`MAX_HEIGHT` high."""
    rows, cols = _grid(count)
    height = min(panel_height * rows + 1.25, MAX_HEIGHT)
    fig, axes = plt.subplots(rows, cols, figsize=(TWO_COLUMN, height), sharex=sharex, squeeze=False,
                             layout="constrained")
    fig.get_layout_engine().set(h_pad=0.02, w_pad=0.02, hspace=0.03, wspace=0.03)
    for ax in axes.flat[count:]:
        ax.set_axis_off()
    return fig, axes


def _notes(ax: plt.Axes, notes: Sequence[tuple[str, str]], corner: str) -> None:
    """Stack small texts ``(text, colour)`` in the ``"upper left"`` or ``"upper right"`` corner of ``ax``."""
    x, ha = (0.03, "left") if corner == "upper left" else (0.97, "right")
    for i, (text, colour) in enumerate(notes):
        ax.annotate(text, (x, 0.97), xycoords="axes fraction", xytext=(0, -i * 1.15 * _NOTE_PT),
                    textcoords="offset points", ha=ha, va="top", fontsize=_NOTE_PT, color=colour)


def _figure_legend(fig: matplotlib.figure.Figure, handles: list, ncol: int) -> None:
    fig.legend(handles=handles, loc="outside lower center", ncol=ncol, frameon=False, handlelength=2.6,
               columnspacing=1.2)


def _label_outer(fig: matplotlib.figure.Figure, axes: np.ndarray, count: int, xlabel: str, ylabel: str,
                 title: str) -> None:
    rows, cols = axes.shape
    for i, ax in enumerate(axes.flat[:count]):
        if i + cols >= count:  # no panel below: the x axis is labelled here
            ax.set_xlabel(xlabel)
            ax.xaxis.set_tick_params(labelbottom=True)
    fig.supylabel(ylabel, fontsize=10)
    fig.suptitle(title, fontsize=9)


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
    drawn: list[str] = []
    with paper_style():
        fig, axes = _panels(len(networks), 1.9)
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
            notes = []
            for i, (methods, ratio, d) in enumerate(curves):
                style = METHOD_STYLES[methods[0]]
                ax.plot(sizes, ratio, color=style.colour, ls=_LINE[methods[0]], lw=1.5, marker=style.marker,
                        ms=4, markevery=(i % 4, 4), fillstyle="none" if methods[0] == "maximum" else "full")
                notes.append((f"{' = '.join(SHORT_LABELS[m] for m in methods)}: k={len(d)}, D={max(d)}",
                              style.colour))
                drawn.extend(methods)
            _notes(ax, notes, "upper left")
            lo = min(float(c[1].min()) for c in curves + [(["bfs"], np.ones(1), [])])
            hi = max(float(c[1].max()) for c in curves + [(["bfs"], np.ones(1), [])])
            # room above the curves for the k and D texts: the top of the (log) height stays empty
            room = 1.0 + 0.2 * len(notes)
            ax.set(xscale="log", yscale="log", title=network_title(family, params),
                   ylim=(lo / 1.3, hi * 1.15 * (1.15 * hi / lo * 1.3) ** (0.12 * room + 0.2)))
            ax.xaxis.set_major_locator(mticker.FixedLocator([2.0**e for e in (4, 10, 20, 30)]))
            ax.xaxis.set_major_formatter(mticker.FuncFormatter(byte_label))
            ax.xaxis.set_minor_locator(mticker.NullLocator())
            plain_log_ticks(ax, "y", subs=(1.0,) if hi / lo > 30 else (1.0, 3.0))
        handles = [Line2D([], [], color=METHOD_STYLES[m].colour, ls=_LINE[m], lw=1.5, marker=METHOD_STYLES[m].marker,
                          ms=4, fillstyle="none" if m == "maximum" else "full", label=METHOD_STYLES[m].label)
                   for m in METHOD_STYLES if m in drawn]
        _figure_legend(fig, handles, ncol=min(len(handles), 3))
        _label_outer(fig, axes, len(networks), "message size", "speed-up over one BFS tree",
                     f"Allreduce on k edge-disjoint trees of depth at most D, message split equally: speed-up over "
                     f"one BFS tree\n(pipelined model: {alpha_us:g} µs per message and link, {beta_us:.2e} µs per "
                     f"byte, i.e. {1e-3 / beta_us:g} GB/s per link direction)")
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
    fvals = sorted(set(resilience["f"].astype(float)))
    # every probability gets a tick; at two-column width only the powers of ten are labelled (every other if none)
    labelled = [f for f in fvals if np.isclose(np.log10(f), round(np.log10(f)))]  # cpu-stable: isclose
    if len(labelled) < 2:
        labelled = fvals[::2] if len(fvals) > 3 else fvals
    drawn: list[str] = []
    with paper_style():
        fig, axes = _panels(len(panels), 1.9)
        for ax, (family, params) in zip(axes.flat, panels, strict=False):
            sub = resilience[(resilience["network"] == family) & (resilience["parameters"] == params)]
            n = int(sub["n"].iloc[0])
            ks = sorted(set(sub["trees"].astype(int)))
            for k in ks:
                ax.plot(fs, ar.intact_expected(k, n, fs), color="#7f7f7f", lw=1.0, zorder=1)
                ax.annotate(f"k={k}", (fmin / 1.2, k * (1 - fmin) ** (n - 1)), ha="right", va="center",
                            fontsize=_NOTE_PT, color="#525252")
            methods = [m for m in METHOD_STYLES if m in set(sub["method"])]
            notes = []
            for i, method in enumerate(methods):
                grp = sub[sub["method"] == method]
                style = METHOD_STYLES[method]
                dodge = 1.0 + 0.07 * (i - (len(methods) - 1) / 2)
                ax.errorbar(grp["f"] * dodge, grp["mc_intact"], yerr=2 * grp["sd_intact"] / np.sqrt(trials),
                            fmt=style.marker, ms=4, color=style.colour, lw=1, capsize=0, zorder=2)
                notes.append((f"{SHORT_LABELS[method]}: k={int(grp['trees'].iloc[0])}", style.colour))
                drawn.append(method)
            _notes(ax, [(f"n = {n}", "#000000"), *notes], "upper right")
            ax.set(xscale="log", title=network_title(family, params),
                   ylim=(0, max(ks) * (1.25 + 0.12 * (len(notes) + 1))),
                   xlim=(fmin / 2.8, fmax * 1.25))  # room for the k labels on the left, the texts on top
            ax.xaxis.set_major_locator(mticker.FixedLocator(labelled))
            ax.xaxis.set_major_formatter(mticker.FuncFormatter(percent_label))
            ax.xaxis.set_minor_locator(mticker.FixedLocator(fvals))
            ax.xaxis.set_minor_formatter(mticker.NullFormatter())
            ax.yaxis.set_major_locator(mticker.MaxNLocator(nbins=4, integer=True))
        handles = [Line2D([], [], color=METHOD_STYLES[m].colour, marker=METHOD_STYLES[m].marker, ls="none", ms=4,
                          label=METHOD_STYLES[m].label) for m in METHOD_STYLES if m in drawn]
        handles.append(Line2D([], [], color="#7f7f7f", lw=1.0, label="closed form k(1-f)$^{n-1}$"))
        _figure_legend(fig, handles, ncol=min(len(handles), 3))
        _label_outer(fig, axes, len(panels), "link failure probability f", "intact trees",
                     f"Expected intact trees when every link fails independently with probability f: closed form "
                     f"(lines)\nand Monte Carlo means ± two standard errors ({trials} failure patterns per point, "
                     f"sets side by side)")
    return fig
