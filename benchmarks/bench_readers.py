"""Reading network files: peak memory per byte of file for each input format, and the file-network EDST target.

Run: ``.venv/bin/python benchmarks/bench_readers.py [--q 13 23 37] [--target "slimfly q=43" ...]``. Never part of
the tests.

*Memory model.* :data:`starlib.io.INPUT_FORMATS` refuses a file whose size times the format's ``bytes_per_byte``
exceeds the memory limit, before reading it. This measures that ratio: Slim Fly ``MMS(q)`` for each ``--q`` is
written in every format that writes a topology (``starlib.io.render``); each file is read by
``starlib.io.read_input`` in a fresh subprocess that has imported starlib.io and networkx and read a small file
first (so that imports and first-call caches are not counted), after resetting the peak resident set
(``/proc/self/clear_refs``, Linux); the peak growth (``VmHWM`` less the resident set before the read) divided by
the file's size is the ratio. A starlib JSON file and node-link JSON share the suffix ``.json``; the model takes
the larger of their ratios for such a file.

*Target.* ``starlib edsts FILE --method shallow`` on a GraphML file of about 10^5 links within 3x the
time of the same network built by name, reading included: both commands run as subprocesses, best of
``--runs``, on each ``--target`` network (default Slim Fly ``MMS(43)``: 3,698 routers, 120,185 links), and their
tree counts and depths are printed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from starlib.io import read_input
import networkx  # noqa: F401  (imported by the readers: not part of the peak)

def status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024

read_input(sys.argv[2], sys.argv[3])  # warm: first calls, caches
with open("/proc/self/clear_refs", "w") as fh:
    fh.write("5")
base = status("VmRSS")
t = time.perf_counter()
f = read_input(sys.argv[1], sys.argv[3])
seconds = time.perf_counter() - t
print(json.dumps({"peak": status("VmHWM") - base, "seconds": seconds, "n": f.graph.n, "m": f.graph.m}))
"""

#: input format -> (output format that writes it, suffix)
WRITERS = {"json": ("json", ".json"), "node-link": ("node-link", ".json"), "graphml": ("graphml", ".graphml"),
           "gml": ("gml", ".gml"), "edgelist": ("edgelist", ".edges"), "anynet": ("anynet", ".anynet")}


def measure_memory(qs: list[int], folder: Path) -> list[dict]:
    from starlib.io import INPUT_FORMATS, render
    from starlib.networks import slimfly

    small = slimfly(3)
    rows = []
    for q in qs:
        G = slimfly(q)
        for name, (out, suffix) in WRITERS.items():
            path, warm = folder / f"sf{q}-{name}{suffix}", folder / f"warm-{name}{suffix}"
            path.write_bytes(render(out, G, None, network="slimfly", params={"q": q}))
            warm.write_bytes(render(out, small, None, network="slimfly", params={"q": 3}))
            res = json.loads(subprocess.run([sys.executable, "-c", CHILD, str(path), str(warm), name], check=True,
                                            capture_output=True, text=True, cwd=ROOT).stdout)
            size = path.stat().st_size
            rows.append({"format": name, "q": q, "links": G.m, "MB": size / 1e6, "peak MB": res["peak"] / 1e6,
                         "bytes/byte": res["peak"] / size, "model": INPUT_FORMATS[name].bytes_per_byte,
                         "read s": res["seconds"]})
    return rows


def time_target(spec: str, runs: int, folder: Path) -> dict:
    """``spec``: a family and its parameters as on the command line (``"dragonfly a=24 p=12 h=12"``)."""
    from starlib.cli.commands import build_network
    from starlib.io import render

    name, *words = spec.split()
    G, params, _ = build_network(name, words)
    graphml = folder / f"{name}.graphml"
    graphml.write_bytes(render("graphml", G, None, network=name, params=params))
    out: dict = {"network": spec, "n": G.n, "m": G.m, "graphml MB": graphml.stat().st_size / 1e6}
    for key, args in (("by name", [name, *words]), ("from GraphML", [str(graphml)])):
        best = float("inf")
        for _ in range(runs):
            target = folder / "t.json"
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "starlib", "edsts", *args, "--method", "shallow", "-o", str(target),
                            "--quiet"], check=True, cwd=ROOT)
            best = min(best, time.perf_counter() - t)
        data = json.loads(target.read_text())
        out[key] = {"seconds": round(best, 2), "trees": len(data["trees"]),
                    "depth": max(t["depth"] for t in data["trees"])}
    out["ratio"] = round(out["from GraphML"]["seconds"] / out["by name"]["seconds"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q", type=int, nargs="+", default=[13, 23, 37], help="Slim Fly sizes for the memory model")
    ap.add_argument("--target", nargs="*", default=["slimfly q=43"],
                    help="networks of the timing target, each a quoted 'family KEY=VALUE ...' (none: skip)")
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        print(f"{'format':<10} {'q':>3} {'links':>8} {'MB':>7} {'peak MB':>8} {'bytes/byte':>10} {'model':>6} "
              f"{'read s':>7}")
        for r in measure_memory(a.q, folder):
            print(f"{r['format']:<10} {r['q']:>3} {r['links']:>8,} {r['MB']:>7.2f} {r['peak MB']:>8.1f} "
                  f"{r['bytes/byte']:>10.1f} {r['model']:>6} {r['read s']:>7.2f}")
        for spec in a.target:
            print(json.dumps(time_target(spec, a.runs, folder)))


if __name__ == "__main__":
    main()
