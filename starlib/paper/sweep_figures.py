"""The figure of the ER_q sweep record: depth, time and peak memory of each family against q.

References
----------
docs/er-edsts.md §4 (Construction A: paths of depth (n-1)/2), §6-§7 (the low-depth family), §9 (depth >= 3).
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import pandas as pd

from .figures import MARKERS, PALETTE, TWO_COLUMN, paper_style, plain_log_ticks

__all__ = ["sweep_figure"]

_NAMES = {"hamiltonian": "Hamiltonian paths (Construction A)", "low-depth": "lifted-cluster trees (low depth)"}


def sweep_figure(record: pd.DataFrame, lower_bound: int = 3) -> matplotlib.figure.Figure:
    """Three panels against ``q``: the deepest tree, the task's wall time, the task's peak memory.

    Parameters
    ----------
    record : pandas.DataFrame
        The typed ER_q sweep record (``starlib.sweep.er.read_er_record``).
    lower_bound : int
        Depth no maximum family can go below (docs/er-edsts.md §9), drawn as a line.

    Returns
    -------
    matplotlib.figure.Figure
        Depth, seconds and peak MB of each family's task against q, at :data:`TWO_COLUMN` width; log scales
        except seconds (symlog, linear below 0.1 s, so that 0.0 s readings are drawn at 0, not at an invented floor).
    """
    with paper_style():
        fig, axes = plt.subplots(1, 3, figsize=(TWO_COLUMN, 3.0))
        for i, (fam, label) in enumerate(_NAMES.items()):
            sub = record[record.family == fam].sort_values("q")
            style = {"marker": MARKERS[i], "ms": 3.0, "lw": 1.0, "color": PALETTE[i], "label": label}
            axes[0].plot(sub.q, sub.max_depth, **style)
            axes[1].plot(sub.q, sub.seconds, **style)  # 0.0 s readings stay at 0 on the symlog axis
            axes[2].plot(sub.q, sub.peak_mb, **style)
        axes[0].axhline(lower_bound, color="#525252", ls=":", lw=1.2, label=f"lower bound {lower_bound}")
        titles = ("deepest tree (depth)", "wall time (s)", "peak memory (MB)")
        for ax, title in zip(axes, titles, strict=True):
            ax.set_xscale("log")
            plain_log_ticks(ax, "x", subs=(1.0,))
            if ax is axes[1]:
                # Linear below 0.1 s so that a 0.0 s reading (below the timer's resolution) is drawn at 0.
                ax.set_yscale("symlog", linthresh=0.1)
                ax.set_ylim(bottom=0)
                ax.yaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _pos: f"{v:g}"))
            else:
                ax.set_yscale("log")
                plain_log_ticks(ax, "y", subs=(1.0,) if ax is axes[0] else (1.0, 2.0, 5.0))  # depth: 6 decades
            ax.set(xlabel="q (prime power)", title=title)
        axes[1].set_ylabel("0 = below the timer's resolution", fontsize=7.5)
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False)
        fig.suptitle(r"EDST families of $ER_q$ built and verified tree by tree, every prime power $q \leq$ "
                     f"{int(record.q.max())}")
        fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
