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
import pandas as pd

from .figures import METHOD_STYLES, paper_style, plain_log_ticks

__all__ = ["table1_depth_figure"]


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
        fig, ax = plt.subplots(figsize=(6.4, 5.0))
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
