"""Charts of notebook 11: time and memory of the EDST constructions and of the exact packing against links.

One panel per family, log-log axes, one colour and marker per phase; the targets (10^6 links, the time budget,
the memory limit) are labelled where they are drawn, and the legend sits below the panels, clear of every line.
Every figure is drawn at :data:`~starlib.paper.figures.TWO_COLUMN` width with one figure-level legend.
Kept apart from :mod:`starlib.paper.scaling`, which the benchmarks import without matplotlib.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import pandas as pd
>>> data = pd.DataFrame({"family": "slimfly", "links": [10**3, 10**6], "runs": 5, "generic_factor": False,
...                      **{f"seconds_{p}": [1e-4, 1e-2] for p in PHASES}})
>>> fig = scaling_time_figure(data, {"slimfly": "Slim Fly"}, target_links=10**6, target_seconds=10.0,
...                           fit_min_links=10**5)
>>> [t.get_text() for t in fig.legends[0].get_texts()]
['edges', 'build', 'edsts', 'verify']
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.figure
import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.axes import Axes

from .figures import MARKERS, PALETTE, TWO_COLUMN, paper_style

__all__ = ["PHASES", "PHASE_STYLES", "scaling_time_figure", "scaling_memory_figure", "packing_figure"]

#: The measured phases of ``benchmarks/bench_scaling.py``, in order.
PHASES = ("edges", "build", "edsts", "verify")

#: Colour and marker of each phase.
PHASE_STYLES = {"edges": (PALETTE[0], "v"), "build": (PALETTE[1], "s"), "edsts": (PALETTE[2], "o"),
                "verify": (PALETTE[3], "^")}


def _vline(ax: Axes, x: float, label: str) -> None:
    """A dotted vertical line at ``x`` with ``label`` written along it, from the bottom of the axes."""
    ax.axvline(x, color="#7f7f7f", ls=":", lw=1)
    ax.annotate(label, (x, 0.02), xycoords=("data", "axes fraction"), xytext=(-3, 0), textcoords="offset points",
                rotation=90, ha="right", va="bottom", fontsize=8, color="#525252")


def _targets(ax: Axes, target_links: float | None, level: float, level_label: str) -> None:
    if target_links is not None:
        _vline(ax, target_links, f"{target_links:,.0f} links")
    ax.axhline(level, color="#7f7f7f", ls="--", lw=1)
    ax.annotate(level_label, (0.02, level), xycoords=("axes fraction", "data"), xytext=(0, -3),
                textcoords="offset points", va="top", fontsize=8, color="#525252")


def _panels(data: pd.DataFrame, titles: Mapping[str, str]):
    """The figure, its axes, and per panel (axes, title, the family's rows by links)."""
    fig, axes = plt.subplots(1, len(titles), figsize=(TWO_COLUMN, 3.3), sharey=True,
                             squeeze=False, layout="constrained")
    panels = [(ax, title, data[data.family == fam].sort_values("links"))
              for ax, (fam, title) in zip(axes[0], titles.items(), strict=True)]
    return fig, axes[0], panels


def scaling_time_figure(data: pd.DataFrame, titles: Mapping[str, str], target_links: float,
                        target_seconds: float, fit_min_links: float) -> matplotlib.figure.Figure:
    """Seconds of each phase against links, one panel per family; a generic factor packing would be circled.

    Parameters
    ----------
    data : pandas.DataFrame
        The measurement record: ``family``, ``links``, ``runs``, ``generic_factor`` and ``seconds_<phase>`` for
        every phase of :data:`PHASES`.
    titles : mapping
        Family -> panel title, in the order of the panels.
    target_links, target_seconds : float
        The targets drawn (a vertical and a horizontal line).
    fit_min_links : float
        Instances at least this large are the fitted ones (only they are circled when generic).

    Returns
    -------
    matplotlib.figure.Figure
        Time of every phase against links, one panel per family, targets drawn.
    """
    with paper_style():
        fig, axes, panels = _panels(data, titles)
        for ax, title, sub in panels:
            for p in PHASES:
                colour, marker = PHASE_STYLES[p]
                ax.plot(sub.links, sub[f"seconds_{p}"], marker=marker, ms=5, lw=1.3, color=colour, label=p)
            gen_rows = sub[sub.generic_factor & (sub.links >= fit_min_links)]
            if len(gen_rows):
                ax.scatter(gen_rows.links, gen_rows.seconds_edsts, s=120, facecolors="none", edgecolors="black",
                           label="generic factor packing")
            _targets(ax, target_links, target_seconds, f"{target_seconds:g} s target")
            ax.set(xscale="log", yscale="log", title=title, xlabel="links m")
        axes[0].set_ylabel(f"seconds (best of {int(data.runs.max())} runs)")
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=len(labels), title="phase")
    return fig


def scaling_memory_figure(data: pd.DataFrame, titles: Mapping[str, str],
                          memory_limit_gb: float) -> matplotlib.figure.Figure:
    """Peak memory against links: the process's peak, its growth above the imports, each phase's traced peak.

    Parameters
    ----------
    data : pandas.DataFrame
        ``family``, ``links``, ``peak_rss_mb``, ``rss_growth_mb`` and ``traced_mb_<phase>`` for every phase.
    titles : mapping
        Family -> panel title, in the order of the panels.
    memory_limit_gb : float
        The limit drawn as a horizontal line.

    Returns
    -------
    matplotlib.figure.Figure
        Peak memory against links, one panel per family, the limit drawn.
    """
    with paper_style():
        fig, axes, panels = _panels(data, titles)
        for ax, title, sub in panels:
            ax.plot(sub.links, sub.peak_rss_mb, marker="D", ms=5, lw=1.6, color="black", label="peak RSS (process)")
            ax.plot(sub.links, sub.rss_growth_mb, marker="d", ms=5, lw=1.2, ls="--", color="black",
                    label="peak RSS above imports")
            for p in PHASES:
                colour, marker = PHASE_STYLES[p]
                ax.plot(sub.links, sub[f"traced_mb_{p}"], marker=marker, ms=5, lw=1.3, color=colour,
                        label=f"traced: {p}")
            _targets(ax, None, memory_limit_gb * 1024, f"{memory_limit_gb:g} GB limit")
            ax.set(xscale="log", yscale="log", title=title, xlabel="links m")
        axes[0].set_ylabel("peak memory (MB)")
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=3)
    return fig


def packing_figure(data: pd.DataFrame, fits: pd.DataFrame,
                   random_order_links: float | None = None) -> matplotlib.figure.Figure:
    """The exact generic packing against links: time (with one search per missing edge, the previous packer and
    Sage) and memory, per curve.

    Parameters
    ----------
    data : pandas.DataFrame
        ``benchmarks/results/packing.csv``: ``curve``, ``links``, ``runs``, ``seconds_generic``,
        ``seconds_previous``, ``seconds_sage``, ``packing_mb`` and optionally ``seconds_paths`` (empty cells where
        not measured).
    fits : pandas.DataFrame
        :func:`~starlib.paper.scaling.fit_exponents` of ``seconds_generic`` by ``curve``: the legend gives each
        curve's exponent.
    random_order_links : float, optional
        Where the greedy phase switches from the input order to a random one
        (:data:`starlib.edst.forest_union.RANDOM_ORDER_LINKS`): a dotted vertical line in the time panel.

    Returns
    -------
    matplotlib.figure.Figure
        Left: seconds against links, one colour per curve (filled: starlib's packing; hollow, dotted: the same
        packing with one augmenting search per missing edge, where it differs; hollow, dashed: the previous
        packer; crosses: Sage's Roskind-Tarjan). Right: the packing's own peak memory.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> d = pd.DataFrame({"curve": "Slim Fly", "links": [10**3, 10**5], "runs": 5, "seconds_generic": [1e-4, 1e-2],
    ...                   "seconds_previous": [0.1, None], "seconds_sage": [0.5, None], "packing_mb": [1.0, 9.0]})
    >>> f = pd.DataFrame({"curve": ["Slim Fly"], "cost": ["seconds_generic"], "exponent": [1.0]})
    >>> [t.get_text() for t in packing_figure(d, f).legends[0].get_texts()][:2]
    ['Slim Fly (k = 1.00)', 'previous packer']
    """
    exponents = dict(zip(fits.curve, fits.exponent, strict=True))
    with paper_style():
        fig, (ax_t, ax_m) = plt.subplots(1, 2, figsize=(TWO_COLUMN, 3.6), layout="constrained")
        for j, (curve, sub) in enumerate(data.sort_values("links").groupby("curve", sort=False)):
            colour, marker = PALETTE[j % len(PALETTE)], MARKERS[j % len(MARKERS)]
            label = f"{curve} (k = {exponents[curve]:.2f})" if curve in exponents else curve
            ax_t.plot(sub.links, sub.seconds_generic, marker=marker, ms=5, lw=1.4, color=colour, label=label)
            paths = sub[sub.seconds_paths.notna()] if "seconds_paths" in sub else sub.iloc[:0]
            if len(paths):
                ax_t.plot(paths.links, paths.seconds_paths, marker=marker, ms=5, lw=1, ls=":", color=colour,
                          mfc="none")
            prev = sub[sub.seconds_previous.notna()]
            if len(prev):
                ax_t.plot(prev.links, prev.seconds_previous, marker=marker, ms=5, lw=1, ls="--", color=colour,
                          mfc="none")
            sage = sub[sub.seconds_sage.notna()]
            if len(sage):
                ax_t.scatter(sage.links, sage.seconds_sage, marker="x", s=40, color=colour)
            mem = sub[sub.packing_mb > 0]
            ax_m.plot(mem.links, mem.packing_mb, marker=marker, ms=5, lw=1.4, color=colour)
        if random_order_links is not None:
            _vline(ax_t, random_order_links, f"random greedy order from {random_order_links:,.0f}")
        if "seconds_paths" in data and data.seconds_paths.notna().any():
            ax_t.plot([], [], marker="o", mfc="none", ls=":", color="#525252", label="one search per edge")
        ax_t.plot([], [], marker="o", mfc="none", ls="--", color="#525252", label="previous packer")
        ax_t.scatter([], [], marker="x", color="#525252", label="Sage Roskind-Tarjan")
        ax_t.set(xscale="log", yscale="log", xlabel="links m",
                 ylabel=f"seconds (best of up to {int(data.runs.max())} runs)", title="time")
        ax_m.set(xscale="log", yscale="log", xlabel="links m", ylabel="MB above the graph", title="peak memory")
        handles, labels = ax_t.get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=3)
    return fig
