"""The command line end to end, as a new user meets it: ``starlib edsts`` then ``starlib verify``, before and after.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--q 29] [--paley-q 29] [--runs 3] [--before REV]``. Never part
of the tests. Every number is measured in this one run, on this machine:

- **after**: the command line of this checkout, ``python -m starlib edsts bundlefly q=29 paley_q=29 -o t.json``
  and ``python -m starlib verify t.json``, each a fresh process, wall time best of ``--runs`` (after one
  warm-up run that fills numba's cache), the file's size, and the peak resident memory of each process
  (``os.wait4``'s ``ru_maxrss``, the child's own);
- **before**: the same commands from a ``git worktree`` of ``--before`` (default ``1a25705``, the command line
  before the version-2 file format: version-1 JSON, no streaming of anything), run with ``PYTHONPATH`` pointing at it;
- **Python floor**: ``bundlefly`` + ``auto_trees`` + ``verify_edsts`` in one process that has imported starlib
  (the work the command line wraps, without start-up and files).

The issue's targets: edsts + verify <= 3 s end to end, a file <= 20 MB, verify <= 500 MB peak. The table prints
the ratios before / after. Temporary files and the worktree go to a scratch folder removed afterwards.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = r"""
import sys, time
import starlib.networks as nw
from starlib.edst import auto_trees, verify_edsts
q, pq = int(sys.argv[1]), int(sys.argv[2])
auto_trees(nw.bundlefly(5, 5))  # compiled kernels loaded, as in a session
t = time.perf_counter()
P = nw.bundlefly(q, pq)
T = auto_trees(P)
ok = verify_edsts(P, T).valid
print(time.perf_counter() - t, ok)
"""


def run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, peak resident MB and exit status of one process."""
    t = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss / 1024, p.returncode


def measure(label: str, pythonpath: str, scratch: Path, q: int, pq: int, runs: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": pythonpath, "STARLIB_PROGRESS": "0"}
    out = scratch / f"{label}.json"
    edsts = [sys.executable, "-m", "starlib", "edsts", "bundlefly", f"q={q}", f"paley_q={pq}", "-o", str(out)]
    verify = [sys.executable, "-m", "starlib", "verify", str(out)]
    rows = {}
    for name, cmd in (("edsts", edsts), ("verify", verify)):
        run(cmd, env, scratch)  # warm-up: numba's cache, the file system
        samples = [run(cmd, env, scratch) for _ in range(runs)]
        if any(s[2] != 0 for s in samples):
            raise SystemExit(f"{label} {name} failed (status {samples[0][2]})")
        rows[f"{name}_s"] = min(s[0] for s in samples)
        rows[f"{name}_mb"] = max(s[1] for s in samples)
    rows["file_mb"] = out.stat().st_size / 1e6
    rows["total_s"] = rows["edsts_s"] + rows["verify_s"]
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q", type=int, default=29)
    ap.add_argument("--paley-q", type=int, default=29)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", default="1a25705", help="git revision of the 'before' command line ('' skips it)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        scratch = Path(tmp)
        results = {"after": measure("after", str(ROOT), scratch, a.q, a.paley_q, a.runs)}
        if a.before:
            tree = scratch / "before-tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), a.before],
                           check=True)
            try:
                results["before"] = measure("before", str(tree), scratch, a.q, a.paley_q, a.runs)
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
        floor = subprocess.run([sys.executable, "-c", FLOOR, str(a.q), str(a.paley_q)], capture_output=True,
                               text=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    floor_s = float(floor.stdout.split()[0])
    print(f"Bundlefly MMS({a.q}) * QR({a.paley_q}), best of {a.runs} fresh processes each")
    print(f"{'':24}{'before':>10}{'after':>10}{'ratio':>8}{'target':>10}")
    targets = {"edsts_s": "", "verify_s": "", "total_s": "<= 3", "file_mb": "<= 20", "edsts_mb": "",
               "verify_mb": "<= 500"}
    names = {"edsts_s": "edsts (s)", "verify_s": "verify (s)", "total_s": "edsts + verify (s)",
             "file_mb": "file (MB)", "edsts_mb": "edsts peak RSS (MB)", "verify_mb": "verify peak RSS (MB)"}
    for key, name in names.items():
        after = results["after"][key]
        before = results.get("before", {}).get(key)
        b = f"{before:10.2f}" if before is not None else f"{'-':>10}"
        r = f"{before / after:7.1f}x" if before is not None else f"{'-':>8}"
        print(f"{name:<24}{b}{after:10.2f}{r}{targets[key]:>10}")
    print(f"{'Python floor (s)':<24}{'':10}{floor_s:10.2f}   (bundlefly + auto_trees + verify_edsts in one "
          f"process)")


if __name__ == "__main__":
    main()
