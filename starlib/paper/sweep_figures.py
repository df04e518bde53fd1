"""The figure of the ER_q sweep record: depth, time and peak memory of each family against q.

References
----------
docs/er-edsts.md §4 (Construction A: paths of depth (n-1)/2), §6-§7 (the low-depth family), §9 (depth >= 3).
"""

from __future__ import annotations

import matplotlib.figure
import matplotlib.pyplot as plt
import pandas as pd

from .figures import MARKERS, PALETTE, paper_style, plain_log_ticks

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
        Depth, seconds and peak MB of each family's task against q, log scales.
    """
    with paper_style():
        fig, axes = plt.subplots(1, 3, figsize=(12.0, 3.9))
        for i, (fam, label) in enumerate(_NAMES.items()):
            sub = record[record.family == fam].sort_values("q")
            style = {"marker": MARKERS[i], "ms": 3.0, "lw": 1.0, "color": PALETTE[i], "label": label}
            axes[0].plot(sub.q, sub.max_depth, **style)
            axes[1].plot(sub.q, sub.seconds.clip(lower=0.05), **style)
            axes[2].plot(sub.q, sub.peak_mb, **style)
        axes[0].axhline(lower_bound, color="#525252", ls=":", lw=1.2, label=f"lower bound {lower_bound}")
        titles = ("depth of the deepest tree", "task wall time (s)", "task peak memory (MB)")
        for ax, title in zip(axes, titles, strict=True):
            ax.set_xscale("log")
            ax.set_yscale("log")
            plain_log_ticks(ax, "x")
            plain_log_ticks(ax, "y", subs=(1.0,) if ax is axes[0] else (1.0, 2.0, 5.0))  # depth spans 6 decades
            ax.set(xlabel="q (prime power)", title=title)
        axes[0].legend(loc="upper left", fontsize=7.5)
        fig.suptitle(r"EDST families of $ER_q$ built and verified tree by tree, every prime power $q \leq$ "
                     f"{int(record.q.max())}")
        fig.tight_layout()
    return fig
