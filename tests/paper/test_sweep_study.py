"""The sweep study of notebook 12: the LPT schedule against brute force, the summary on planted records."""

import itertools

import numpy as np
import pandas as pd
import pytest

from starlib.paper.sweep_study import lpt_makespan, sweep_projection, sweep_summary


def best_makespan(times, workers):
    """The optimal makespan by trying every assignment of tasks to workers (tiny instances only)."""
    best = float("inf")
    for assign in itertools.product(range(workers), repeat=len(times)):
        load = [0.0] * workers
        for t, w in zip(times, assign, strict=True):
            load[w] += t
        best = min(best, max(load))
    return best


@pytest.mark.parametrize("seed", range(20))
def test_lpt_is_within_graham_bound_of_the_optimum(seed):
    rng = np.random.default_rng(seed)
    times = rng.integers(1, 20, size=int(rng.integers(1, 8))).astype(float).tolist()
    for workers in (1, 2, 3):
        span, best = lpt_makespan(times, workers), best_makespan(times, workers)
        assert best <= span <= best * (4 / 3 - 1 / (3 * workers)) + 1e-9  # Graham (1969)
        assert span >= max(max(times), sum(times) / workers)


def test_lpt_refuses_no_workers():
    with pytest.raises(ValueError, match="workers=0"):
        lpt_makespan([1.0], 0)


def _record(rows):
    cols = ["q", "family", "vertices", "edges", "bound", "trees", "verified", "max_depth", "difference_set",
            "isomorphism", "sha256", "seconds", "peak_mb", "note"]
    out = []
    for q, fam, trees, ok, depth, sec in rows:
        out.append([q, fam, q * q + q + 1, q * (q + 1) ** 2 // 2, (q + 1) // 2, trees, ok, depth, True, True, "x",
                    sec, 300, ""])
    return pd.DataFrame(out, columns=cols)


def test_summary_stops_at_the_first_missing_or_failed_prime_power():
    rec = _record([(2, "a", 1, True, 2, 1.0), (3, "a", 2, True, 3, 1.0), (5, "a", 3, True, 4, 2.0),
                   (2, "b", 1, True, 2, 1.0), (3, "b", 1, True, 3, 1.0), (4, "b", 2, True, 4, 1.0)])
    s = sweep_summary(rec).set_index("family")
    assert s.loc["a", "largest_q_verified"] == 3  # q = 4 is missing
    assert s.loc["b", "largest_q_verified"] == 2  # q = 3 is one tree short
    assert not s.loc["b", "at_bound"] and s.loc["a", "at_bound"]
    assert s.loc["a", "max_depth_range"] == "3-4" and s.loc["a", "longest_task_s"] == 2.0


def test_projection_columns():
    rec = _record([(q, "a", (q + 1) // 2, True, 4, float(q)) for q in (2, 3, 4, 5, 7, 8, 9)])
    p = sweep_projection(rec, workers=(1, 2, 64))
    assert p.hours.iloc[0] == round(sum((2, 3, 4, 5, 7, 8, 9)) / 3600, 3)
    assert p.bound_by.iloc[-1] == "longest task" and p.hours.iloc[-1] == round(9 / 3600, 3)
