"""The ER_q sweep record read for the paper: a summary per family and the time on a cluster of N workers.

The record (``data/er_sweep.csv``, written by ``make sweep``) has one row per prime power ``q`` and EDST family
of ER_q, each verified tree by tree (``starlib.sweep``). :func:`sweep_summary` condenses it per family;
:func:`lpt_makespan` and :func:`sweep_projection` turn the measured time of every task into the wall time of the
same sweep on ``N`` workers, scheduled as the sweep engine schedules it (the dearest task first, each to the
worker that frees up first: Graham's LPT rule, within 4/3 of the best possible schedule).

Example
-------
>>> lpt_makespan([5, 4, 3, 3, 3], 2)  # the best schedule takes 9: {5, 4} and {3, 3, 3}
10.0
>>> lpt_makespan([5, 4, 3, 3, 3], 1), lpt_makespan([5, 4, 3, 3, 3], 8)
(18.0, 5.0)

References
----------
docs/er-edsts.md §1 (the bound), §4 (Construction A), §6-§7 (the low-depth family); R. L. Graham, "Bounds on
multiprocessing timing anomalies", SIAM J. Appl. Math. 17 (1969) 416-429 (the LPT rule).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..primes import is_prime_power

__all__ = ["sweep_summary", "lpt_makespan", "sweep_projection", "time_exponent"]


def sweep_summary(record: pd.DataFrame) -> pd.DataFrame:
    """One row per family: the range of ``q``, whether every point is at the bound and verified, depth, cost.

    Parameters
    ----------
    record : pandas.DataFrame
        The typed record (``starlib.sweep.er.read_er_record``).

    Returns
    -------
    pandas.DataFrame
        ``family, points, q_max, largest_q_verified, at_bound, verified, isomorphism, max_depth_range,
        task_hours, longest_task_s, peak_mb``. ``largest_q_verified`` is the largest ``q`` such that every prime
        power up to it is at the bound and verified; ``max_depth_range`` is over ``q >= 3``; ``task_hours`` sums
        the tasks' wall times.
    """
    rows = []
    for fam, sub in record.groupby("family", sort=True):
        sub = sub.sort_values("q")
        good = (sub.trees == sub.bound) & sub.verified & sub.isomorphism & sub.difference_set
        ok = dict(zip(sub.q.astype(int), good, strict=True))
        upto = 0
        for q in range(2, int(sub.q.max()) + 1):  # every prime power in turn: a missing or failed one stops it
            if is_prime_power(q):
                if not ok.get(q, False):
                    break
                upto = q
        deep = sub[sub.q >= 3].max_depth
        rows.append({"family": fam, "points": len(sub), "q_max": int(sub.q.max()), "largest_q_verified": upto,
                     "at_bound": bool((sub.trees == sub.bound).all()), "verified": bool(sub.verified.all()),
                     "isomorphism": bool((sub.isomorphism & sub.difference_set).all()),
                     "max_depth_range": f"{int(deep.min())}-{int(deep.max())}",
                     "task_hours": round(float(sub.seconds.sum()) / 3600, 2),
                     "longest_task_s": float(sub.seconds.max()), "peak_mb": int(sub.peak_mb.max())})
    return pd.DataFrame(rows)


def lpt_makespan(seconds: Sequence[float], workers: int) -> float:
    """Wall time of independent tasks on ``workers`` equal workers, dearest first to the first free worker.

    Parameters
    ----------
    seconds : sequence of float
        Each task's time.
    workers : int
        Number of workers (at least 1).

    Returns
    -------
    float
        The makespan (the time the last task finishes).

    Raises
    ------
    ValueError
        If ``workers < 1``.
    """
    if workers < 1:
        raise ValueError(f"workers={workers} must be at least 1")
    free = [0.0] * min(workers, max(len(seconds), 1))
    for s in sorted((float(x) for x in seconds), reverse=True):
        heapq.heappush(free, heapq.heappop(free) + s)
    return max(free)


def sweep_projection(record: pd.DataFrame, workers: Sequence[int] = (1, 2, 4, 8, 16, 32, 64, 128)) -> pd.DataFrame:
    """The sweep's wall time on ``N`` workers, from the measured time of every task (:func:`lpt_makespan`).

    Parameters
    ----------
    record : pandas.DataFrame
        The typed record; its ``seconds`` are the tasks' wall times.
    workers : sequence of int
        The cluster sizes.

    Returns
    -------
    pandas.DataFrame
        ``workers, hours, ideal_hours`` (total / N), ``efficiency`` (ideal / projected) and ``bound_by``
        (``"longest task"`` once one task alone sets the time).
    """
    sec = record.seconds.to_numpy(dtype=float)
    total, longest = float(sec.sum()), float(sec.max())
    rows = []
    for n in workers:
        span = lpt_makespan(sec, n)
        rows.append({"workers": n, "hours": round(span / 3600, 3), "ideal_hours": round(total / n / 3600, 3),
                     "efficiency": round(total / n / span, 3),
                     "bound_by": "longest task" if span <= longest * 1.0001 else "total work"})
    return pd.DataFrame(rows)


def time_exponent(record: pd.DataFrame, family: str, q_min: int = 128) -> float:
    """The exponent ``b`` of a least-squares fit ``seconds ~ a * edges^b`` over the points with ``q >= q_min``.

    Parameters
    ----------
    record : pandas.DataFrame
        The typed record.
    family : str
        The family whose tasks are fitted.
    q_min : int
        Smaller points are dominated by fixed costs and left out.

    Returns
    -------
    float
        The slope on log-log axes, rounded to 0.01.
    """
    sub = record[(record.family == family) & (record.q >= q_min) & (record.seconds > 0)]
    lx, ly = np.log(sub.edges.to_numpy(float)), np.log(sub.seconds.to_numpy(float))  # cpu-stable: rounded below
    slope = np.polyfit(lx, ly, 1)[0]
    return round(float(slope), 2)
