"""The timing helper shared by the benchmark scripts (never used by tests: tests are not timed)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(fn: Callable[[], object], runs: int = 3) -> tuple[float, float, object]:
    """Run ``fn`` ``runs`` times: (first-call seconds, best seconds, last result).

    The previous result is dropped before each run, so only one copy is alive at a time.
    """
    times, out = [], None
    for _ in range(runs):
        out = None
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return times[0], min(times), out
