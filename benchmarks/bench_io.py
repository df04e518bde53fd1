"""File sizes, write and read times and peak memory of starlib's JSON files, version 1 against version 2; exports.

Run: ``.venv/bin/python benchmarks/bench_io.py [--q 29] [--paley-q 29] [--runs 3]`` (``make bench`` uses the
defaults). Never part of the tests. The instance is Bundlefly ``MMS(q) * QR(q')`` with the EDSTs of
``auto_trees`` (q = q' = 29: 48,778 routers, 1,390,173 links, 28 trees), the case of the issue that introduced
version 2. Each measurement runs in a fresh subprocess, so that its peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its own:

- *write*: build the network and its trees, then ``write_json`` (version 1 or 2), best of ``--runs``;
- *read + verify*: what ``starlib verify FILE`` does, ``read_json`` then ``verify_edsts``, in a process that
  has imported nothing else; best time of ``--runs`` processes, largest peak memory.

Targets (from the issue): version 2 written, read back and verified in <= 3 s, a file of <= 20 MB, a verify run
in <= 500 MB. The second table times every export of ``starlib.io.FORMATS`` on the same instance. Temporary
files go to a scratch folder that is removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, sys, time
mode, path, q, pq, runs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out = {}
if mode == "read":
    from starlib.edst import verify_edsts
    from starlib.io import read_json
    out["rss_imports"] = rss()
    t = time.perf_counter()
    f = read_json(path)
    out["read"] = time.perf_counter() - t
    t = time.perf_counter()
    report = verify_edsts(f.graph, f.trees)
    out["verify"] = time.perf_counter() - t
    out["valid"] = bool(report.valid)
    out["version"] = f.version
else:
    import starlib.networks as nw
    from starlib.edst import auto_trees
    from starlib.io import FORMATS, render, write_json
    P = nw.bundlefly(q, pq)
    T = auto_trees(P)
    out.update(n=P.n, m=P.m, trees=len(T))
    out["rss_before"] = rss()
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        if mode == "exports":
            sizes = {name: len(render(name, P, T)) for name in FORMATS}
        else:
            write_json(path, P, T, version=int(mode[-1]), extra={"method": "auto"})
        times.append(time.perf_counter() - t)
    out["write"] = min(times)
    if mode == "exports":
        out["formats"] = {}
        for name in FORMATS:
            t = time.perf_counter()
            data = render(name, P, T)
            out["formats"][name] = (time.perf_counter() - t, len(data))
out["rss"] = rss()
print(json.dumps(out))
"""


def child(*args: object) -> dict:
    """Run ``CHILD`` with ``args`` in a fresh Python; its one line of JSON."""
    done = subprocess.run([sys.executable, "-c", CHILD, *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode:
        raise RuntimeError(done.stderr)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> None:
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("--q", type=int, default=29)
    a.add_argument("--paley-q", type=int, default=29)
    a.add_argument("--runs", type=int, default=3)
    args = a.parse_args(argv)
    res: dict[int, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for v in (1, 2):
            path = Path(tmp) / f"v{v}.json"
            w = child(f"write{v}", path, args.q, args.paley_q, args.runs)
            reads = [child("read", path, args.q, args.paley_q, 1) for _ in range(args.runs)]
            assert all(r["valid"] and r["version"] == v for r in reads), reads
            res[v] = {**w, "size": path.stat().st_size, "read": min(r["read"] for r in reads),
                      "verify": min(r["verify"] for r in reads), "rss_read": max(r["rss"] for r in reads),
                      "rss_imports": max(r["rss_imports"] for r in reads)}
        ex = child("exports", Path(tmp) / "unused", args.q, args.paley_q, 1)
    one, two = res[1], res[2]
    mb = 1e6
    print(f"Bundlefly MMS({args.q}) * QR({args.paley_q}): n = {two['n']:,}, m = {two['m']:,}, {two['trees']} trees "
          f"(auto_trees); best of {args.runs}")
    print(f"  {'':34s} {'version 1':>10s} {'version 2':>10s} {'v1 / v2':>9s}")
    rows = [("file size (MB)", one["size"] / mb, two["size"] / mb, "target v2 <= 20"),
            ("write_json (s)", one["write"], two["write"], ""),
            ("read_json (s)", one["read"], two["read"], ""),
            ("verify_edsts after reading (s)", one["verify"], two["verify"], ""),
            ("peak RSS, read + verify (MB)", one["rss_read"], two["rss_read"], "target v2 <= 500"),
            ("  of which imports alone (MB)", one["rss_imports"], two["rss_imports"], ""),
            ("peak RSS, build + write (MB)", one["rss"], two["rss"], ""),
            ("  of which build alone (MB)", one["rss_before"], two["rss_before"], "")]
    for name, x, y, note in rows:
        print(f"  {name:34s} {x:10.2f} {y:10.2f} {x / y:8.2f}x   {note}".rstrip())
    total = [r["write"] + r["read"] + r["verify"] for r in (one, two)]
    print(f"  {'write + read + verify (s)':34s} {total[0]:10.2f} {total[1]:10.2f} {total[0] / total[1]:8.2f}x"
          f"   target v2 <= 3")
    print(f"\nExports of the same network and trees (starlib.io.render, in memory; all {len(ex['formats'])} "
          f"formats together {ex['write']:.2f} s)")
    print(f"  {'format':15s} {'seconds':>8s} {'MB':>8s}")
    for name, (sec, size) in ex["formats"].items():
        print(f"  {name:15s} {sec:8.2f} {size / mb:8.2f}")


if __name__ == "__main__":
    main()
