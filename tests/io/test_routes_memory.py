"""The size model of the ``routes`` output (:func:`starlib.io.routes.routes_size`) bounds the real peak memory.

``--format routes --option table=1`` writes every tree's ``n x n`` next-hop table: its file and its peak grow like
``k n^2``. A fresh interpreter builds Slim Fly MMS(19) (722 routers, 14 trees), reads its resident set just before
:func:`starlib.io.routes.routes` runs (after a first run on MMS(5), so that no kernel compiles in the
measured one), runs it with ``table=1`` (a 28 MB document, under a second) and reports the kernel's high-water
mark of its resident set, restarted just before the call (``/proc/self/clear_refs``, then ``VmHWM``). What
``routes`` added must not exceed the estimate, and the estimate must not be loose by more than a factor of three
(else ``--max-memory`` would refuse outputs that fit). The command line refuses the same output before any work
when it is over ``--max-memory`` (tests/cli/test_environment_and_options.py).

``resource.getrusage(RUSAGE_SELF).ru_maxrss`` is not the measure: Linux starts a freshly executed process's
``ru_maxrss`` at the peak of the process that spawned it (the pytest process, 300 MB once a test module has built
networks), and ``clear_refs`` does not reset it.

Independent reference: the kernel's own count of the process's resident pages, nothing starlib computes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from starlib.io.routes import routes_size
from tests.paths import ROOT

CHILD = r"""
import json
import starlib
from starlib.io.routes import routes

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key + ":"))

small = starlib.network("slimfly", q=5)
routes(small, list(starlib.edsts(small)), table=1)  # any kernel compiles here (a cold numba cache), not below
G = starlib.network("slimfly", q=19)
trees = list(starlib.edsts(G))
with open("/proc/self/clear_refs", "w") as f:  # the high-water mark restarts at the resident set now
    f.write("5")
before = status("VmRSS")
data = routes(G, trees, table=1)
peak = status("VmHWM")
print(json.dumps({"n": int(G.n), "k": len(trees), "file": len(data), "before": before, "peak": peak}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc/self/statm (Linux)")
def test_the_routes_table_estimate_bounds_the_measured_peak():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    size = routes_size(got["n"], got["k"], table=1)
    added = got["peak"] - got["before"]
    assert got["file"] <= size.m, (got, size)                         # the file's bound
    assert got["file"] > 20 * 2**20                                   # large enough for the table to dominate
    assert added <= size.peak_bytes, (got, added, size.peak_bytes)  # the estimate bounds the peak
    assert size.peak_bytes <= 3 * added, (added, size.peak_bytes)   # and is not loose


def test_the_estimate_grows_like_k_n_squared():
    small, large = routes_size(2000, 10, 1), routes_size(4000, 20, 1)  # indices of 4 digits in both
    assert 7.5 < large.m / small.m < 9 and 6 < large.peak_bytes / small.peak_bytes < 9
    assert routes_size(4000, 20, 0).peak_bytes < large.peak_bytes / 100   # without the table: linear in k n
