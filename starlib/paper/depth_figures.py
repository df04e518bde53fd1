"""Charts of tree depths: Table I's depth bounds (notebook 04), the depth theorems and the trade-off of Section VI
(notebook 06), and the ER_q families (notebook 12).

Every function takes the notebook's table and returns a :class:`matplotlib.figure.Figure` drawn with
:func:`starlib.paper.figures.paper_style`: colour-blind-safe colours, a marker as well as a colour for every series,
one style per construction (:data:`starlib.paper.figures.METHOD_STYLES`), log axes labelled with plain numbers.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import pandas as pd
>>> rows = pd.DataFrame({"row": [4, 5, 5], "instance": ["a", "a", "b"], "method": "property",
...                      "depth": [5, 5, 3], "depth_formula": [7, 7, 7]})
>>> fig = table1_depth_figure(rows)
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['Property V-D.1, rows 4-5 (2 products)', 'depth = bound']
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .figures import (
    MARKERS,
    MAX_HEIGHT,
    METHOD_STYLES,
    PALETTE,
    TWO_COLUMN,
    network_title,
    paper_style,
    plain_log_ticks,
)

__all__ = ["table1_depth_figure", "depth_vs_bound_figure", "depth_by_q_figure", "depth_tradeoff_figure",
           "generic_orders_figure", "family_panel", "er_depth_figure"]

#: Panels of :func:`depth_by_q_figure`, in the paper's order of the families.
PANEL_ORDER = ("slimfly", "bundlefly", "polarstar-paley", "polarstar-iq")

#: Line style and marker fill of the two factor-tree choices of notebook 06 (the exact packer has none).
FACTOR_TREE_STYLES = {"paths": ("-", "full"), "shallow": ("--", "none")}


def _rows_text(rows: list[int]) -> str:
    rows = sorted(set(int(r) for r in rows))
    if len(rows) == 1:
        return f"row {rows[0]}"
    if rows == list(range(rows[0], rows[-1] + 1)):
        return f"rows {rows[0]}-{rows[-1]}"
    return "rows " + ", ".join(map(str, rows))


def _diagonal(ax: plt.Axes, lo: float, hi: float, label: str = "depth = bound") -> None:
    ax.plot([lo, hi], [lo, hi], color="#7f7f7f", lw=1, ls="--", label=label, zorder=1)


def table1_depth_figure(instances: pd.DataFrame) -> matplotlib.figure.Figure:
    """Depth of the deepest tree against Table I's *Max Depth* bound, one point per product and construction.

    A product checked under two rows of Table I with the same construction (rows 4 and 5 share the
    Property V-D.1 construction and its bound) is one point, so every legend entry has points of its own.
    Hollow markers of different shapes keep coinciding points of different constructions visible.

    Parameters
    ----------
    instances : pandas.DataFrame
        ``table1.instances_frame``: columns ``row``, ``instance``, ``method``, ``depth``, ``depth_formula``;
        rows without a depth (no tree built) are left out.

    Returns
    -------
    matplotlib.figure.Figure
        Deepest tree against Table I's depth formula, one point per (product, construction).

    Raises
    ------
    ValueError
        If no row has a depth, or a method has no style.

    References
    ----------
    Table I of Isham et al. (2025), the Max Depth column (docs/star-products.md §9).
    """
    built = instances[instances["depth"].notna()]
    if built.empty:
        raise ValueError("instances: no row has a depth (no trees were built)")
    unknown = sorted(set(built["method"]) - set(METHOD_STYLES))
    if unknown:
        raise ValueError(f"instances: method {unknown[0]!r} has no style (one of {', '.join(METHOD_STYLES)})")
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 5.0))
        for method in [m for m in METHOD_STYLES if m in set(built["method"])]:
            sub = built[built["method"] == method]
            points = sub.drop_duplicates(["instance", "depth", "depth_formula"])
            style = METHOD_STYLES[method]
            ax.scatter(points["depth_formula"].astype(float), points["depth"].astype(float), s=34,
                       marker=style.marker, facecolors="none", edgecolors=style.colour, linewidths=1.3,
                       label=f"{style.label}, {_rows_text(sub['row'])} ({sub['instance'].nunique()} products)",
                       zorder=2)
        lo = float(min(built["depth"].min(), built["depth_formula"].min())) * 0.8
        hi = float(built["depth_formula"].max()) * 1.2
        _diagonal(ax, lo, hi)
        ax.set(xscale="log", yscale="log", xlabel="Table I depth bound (Max Depth column)",
               ylabel="depth of the deepest tree", title="Table I: deepest tree against the bound of its row")
        plain_log_ticks(ax, "both")
        ax.legend(loc="upper left")
        fig.tight_layout()
    return fig


def depth_vs_bound_figure(bounded: pd.DataFrame) -> matplotlib.figure.Figure:
    """Every product tree's measured depth against the bound of its depth theorem, one colour and marker per theorem.

    starlib's ``twisted(k)`` bounds (:mod:`starlib.edst.product.twisted`) are drawn filled, in the colour and marker
    of the paper's ``V-C.12(k)`` whose tree they replace.

    Parameters
    ----------
    bounded : pandas.DataFrame
        One row per tree with a bound: columns ``theorem``, ``bound``, ``depth`` (``tree_depths.depth_table``).

    Returns
    -------
    matplotlib.figure.Figure
        Measured depth against the theorem's bound, one colour per theorem.

    Raises
    ------
    ValueError
        If the frame is empty or has more theorems (not counting the filled ``twisted(k)``) than
        :data:`~starlib.paper.figures.PALETTE` has colours.

    References
    ----------
    Theorems V-B.4, V-B.5, V-C.12 of Isham et al. (2025) (docs/star-products.md §5-§8).
    """
    theorems = sorted(set(bounded["theorem"]))
    if not theorems:
        raise ValueError("bounded: no tree to draw")
    # starlib's twisted(k) share the colour and marker of the paper's V-C.12(k) they replace, filled
    own = [t for t in theorems if not (t.startswith("twisted(") and t.replace("twisted", "V-C.12") in theorems)]
    if len(own) > len(PALETTE):
        raise ValueError(f"bounded: {len(own)} theorems, more than the {len(PALETTE)} colours of the palette")
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 5.0))
        for thm in theorems:
            grp = bounded[bounded["theorem"] == thm]
            filled = thm not in own
            i = own.index(thm.replace("twisted", "V-C.12") if filled else thm)
            ax.scatter(grp["bound"], grp["depth"], s=26, marker=MARKERS[i], facecolors=PALETTE[i] if filled else "none",
                       edgecolors=PALETTE[i], linewidths=1.1, label=f"{thm} ({len(grp)} trees)", zorder=2)
        _diagonal(ax, float(bounded["depth"].min()) * 0.8, float(bounded["bound"].max()) * 1.2)
        ax.set(xscale="log", yscale="log", xlabel="bound of the tree's depth theorem", ylabel="measured depth",
               title="Every product tree: measured depth against its bound")
        plain_log_ticks(ax, "both")
        ax.legend(loc="upper left", ncols=2)
        fig.tight_layout()
    return fig


def family_panel(network: str, parameters: str) -> str:
    """The panel title of a network family with its supernode fixed and ``q`` free.

    >>> family_panel("bundlefly", "q=4 paley_q=5")
    'Bundlefly MMS(q) $\\\\star$ QR(5)'
    """
    params = dict(item.split("=", 1) for item in parameters.replace(";", " ").split())
    return network_title(network, {**params, "q": "q"})


def depth_by_q_figure(summary: pd.DataFrame) -> matplotlib.figure.Figure:
    """The deepest tree of each method against ``q``, one panel per family and supernode, one legend for all.

    A method has its colour and marker (:data:`~starlib.paper.figures.METHOD_STYLES`); the factor trees are told
    apart by the line and the marker's fill (paths: solid line, filled marker; shallow: dashed line, open marker).
    Where Universal and low-depth coincide, the smaller triangle sits inside the larger circle, both visible.

    Parameters
    ----------
    summary : pandas.DataFrame
        ``tree_depths.summarise_depths``: columns ``network``, ``parameters`` (starting ``q=``), ``method``,
        ``factor_trees``, ``trees``, ``max_depth``.

    Returns
    -------
    matplotlib.figure.Figure
        Deepest tree of every construction against q, one panel per family.

    Raises
    ------
    ValueError
        If a row's parameters do not start with ``q=``.

    References
    ----------
    Section VI of Isham et al. (2025): the count-versus-depth trade-off.
    """
    data = summary[summary["trees"] > 0].copy()
    q = data["parameters"].str.extract(r"^q=(\d+)")[0]
    if q.isna().any():
        raise ValueError(f"summary: parameters {data['parameters'][q.isna()].iloc[0]!r} do not start with q=")
    data["q"] = q.astype(int)
    data["panel"] = [family_panel(n, p) for n, p in zip(data["network"], data["parameters"], strict=True)]
    data["order"] = data["network"].map({f: i for i, f in enumerate(PANEL_ORDER)}).fillna(len(PANEL_ORDER))
    panels = list(dict.fromkeys(data.sort_values(["order", "network", "parameters"], kind="mergesort")["panel"]))
    cols = 3
    rows = -(-(len(panels) + 1) // cols)
    with paper_style():
        fig, axes = plt.subplots(rows, cols, figsize=(TWO_COLUMN, min(2.4 * rows, MAX_HEIGHT)), squeeze=False,
                                 layout="constrained")
        for ax, panel in zip(axes.flat, panels, strict=False):
            sub = data[data["panel"] == panel]
            for method in [m for m in METHOD_STYLES if m in set(sub["method"])]:
                style = METHOD_STYLES[method]
                for choice, grp in sub[sub["method"] == method].groupby("factor_trees", sort=True):
                    grp = grp.sort_values("q")
                    ls, fill = FACTOR_TREE_STYLES.get(choice, ("none", "full"))
                    ax.plot(grp["q"], grp["max_depth"], ls=ls, marker=style.marker, color=style.colour,
                            ms=9 if method == "universal" else 6,
                            fillstyle=fill, lw=1.4, markeredgewidth=1.2)
            ax.set(title=panel, xlabel="q", yscale="log")
            ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
            plain_log_ticks(ax, "y")
        for ax in axes[:, 0]:
            ax.set_ylabel("depth of the deepest tree")
        for ax in axes.flat[len(panels):]:
            ax.set_axis_off()
        methods = [m for m in METHOD_STYLES if m in set(data["method"])]
        key = [Line2D([], [], color=METHOD_STYLES[m].colour, marker=METHOD_STYLES[m].marker, ls="none", ms=7,
                      label=METHOD_STYLES[m].label) for m in methods]
        key += [Line2D([], [], color="#525252", ls=ls, marker="o", fillstyle=fill, label=f"factor trees: {choice}")
                for choice, (ls, fill) in FACTOR_TREE_STYLES.items() if choice in set(data["factor_trees"])]
        axes.flat[len(panels)].legend(handles=key, loc="center", title="method (colour, marker)", frameon=False)
    return fig


def depth_tradeoff_figure(summary: pd.DataFrame) -> matplotlib.figure.Figure:
    """Number of trees against the depth of the deepest one: low-depth, Maximum and twisted sets of one network joined.

    Parameters
    ----------
    summary : pandas.DataFrame
        ``tree_depths.summarise_depths`` (columns ``network``, ``parameters``, ``method``, ``factor_trees``,
        ``trees``, ``max_depth``); one panel per factor-tree choice, the exact packer's sets in both.

    Returns
    -------
    matplotlib.figure.Figure
        Trees built against deepest tree, one point per (network, method).

    References
    ----------
    Section VI of Isham et al. (2025).
    """
    with paper_style():
        fig, axes = plt.subplots(1, 2, figsize=(TWO_COLUMN, 3.6), sharey=True, layout="constrained")
        for ax, choice in zip(axes, ("paths", "shallow"), strict=True):
            sub = summary[summary["factor_trees"].isin([choice, "-"]) & (summary["trees"] > 0)]
            for _, grp in sub.groupby(["network", "parameters"]):
                sets = grp.set_index("method").reindex(["low-depth", "twisted", "maximum"]).dropna(subset=["trees"])
                ax.plot(sets["trees"], sets["max_depth"], color="#bdbdbd", lw=0.9, zorder=1)
            for method in [m for m in ("low-depth", "maximum", "twisted", "generic") if m in set(summary["method"])]:
                grp = sub[sub["method"] == method]
                style = METHOD_STYLES[method]
                ax.scatter(grp["trees"], grp["max_depth"], color=style.colour, marker=style.marker, s=30,
                           label=style.label, zorder=2)
            ax.set(title=f"factor trees: {choice}", xlabel="number of EDSTs", yscale="log")
            ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
            plain_log_ticks(ax, "y")
        axes[0].set_ylabel("depth of the deepest tree")
        handles, labels = axes[1].get_legend_handles_labels()
        handles.append(Line2D([], [], color="#bdbdbd", lw=0.9))
        labels.append("the sets of one network")
        fig.legend(handles, labels, loc="outside lower center", ncols=2, frameon=False)
    return fig


def generic_orders_figure(orders: pd.DataFrame) -> matplotlib.figure.Figure:
    """Depth range of the exact packer's trees per random edge order, beside the low-depth construction.

    Parameters
    ----------
    orders : pandas.DataFrame
        One row per (network, seed): ``network``, ``parameters``, ``seed``, ``min_depth``, ``max_depth``,
        ``low_depth_max``, ``low_depth_bound``.

    Returns
    -------
    matplotlib.figure.Figure
        Depth of the exact packer's trees for every edge order tried.
    """
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 4.0))
        ticks, names = [], []
        groups = list(orders.groupby(["network", "parameters"]))
        width = max(len(g) for _, g in groups) + 3
        for i, ((family, params), grp) in enumerate(groups):
            x = i * width + np.arange(len(grp))
            ax.vlines(x, grp["min_depth"], grp["max_depth"], color=METHOD_STYLES["generic"].colour, lw=2.5,
                      label="exact packer: shallowest to deepest tree, one bar per edge order" if i == 0 else None)
            low = METHOD_STYLES["low-depth"]
            ax.hlines(grp["low_depth_max"].iloc[0], x.min() - 0.5, x.max() + 0.5, color=low.colour, lw=2,
                      label="low-depth construction: deepest tree" if i == 0 else None)
            ax.hlines(grp["low_depth_bound"].iloc[0], x.min() - 0.5, x.max() + 0.5, color=low.colour, lw=2, ls="--",
                      label="low-depth construction: its bound" if i == 0 else None)
            ticks.append(float(x.mean()))
            names.append(network_title(family, params))
        ax.set(xticks=ticks, xticklabels=names, ylabel="tree depth",
               xlabel=f"network ({width - 3} random edge orders of the exact packer each)",
               title="The exact packer gives no depth control")
        top = float(orders["max_depth"].max())
        ax.set_ylim(0, top * 1.45)
        ax.legend(loc="upper left")
        fig.tight_layout()
    return fig


def er_depth_figure(depths: pd.DataFrame, lower_bound: int = 3) -> matplotlib.figure.Figure:
    """Depth of the deepest tree of each ER_q family against ``q``, with the lower bound for a maximum family.

    Parameters
    ----------
    depths : pandas.DataFrame
        One row per (q, method): ``q``, ``method`` (``"hamiltonian"``, ``"low-depth"``), ``max_depth``.
    lower_bound : int
        Depth no maximum family can go below (docs/er-edsts.md §9), drawn as a line.

    Returns
    -------
    matplotlib.figure.Figure
        Deepest tree of each ER_q family against q, with the lower bound.

    References
    ----------
    docs/er-edsts.md §4 (Construction A), §6-§8 (the lifted-cluster families), §9 (the lower bound).
    """
    names = {"hamiltonian": "Construction A: Hamiltonian paths", "low-depth": "lifted-cluster trees (low depth)"}
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 4.2))
        for i, (method, label) in enumerate(names.items()):
            sub = depths[depths.method == method].sort_values("q")
            ax.plot(sub.q, sub.max_depth, marker=MARKERS[i], ms=4.5, lw=1.3, color=PALETTE[i], label=label)
        ax.axhline(lower_bound, color="#525252", ls=":", lw=1.2, label=f"lower bound {lower_bound}")
        ax.set_yscale("log")
        plain_log_ticks(ax, "y")
        ax.set(xlabel="q (prime power)", ylabel="depth of the deepest tree",
               title=r"EDSTs of $ER_q$ at the bound $\lfloor (q+1)/2 \rfloor$: depth of the family")
        ax.legend(loc="center right")
        fig.tight_layout()
    return fig
