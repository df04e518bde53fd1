"""The standard networks' builders (starlib.standard): peak memory against their size models, and build times
against networkx's generators of the same graphs.

Run: ``.venv/bin/python benchmarks/bench_standard.py`` (``make bench``). Prints two tables; never part of the
tests.

Memory. Each build runs in a fresh interpreter that has imported only ``starlib.registry``: its resident-set
growth is the peak resident set during the build (``VmHWM``, reset through ``/proc/self/clear_refs`` just before
it) minus the resident set before it, so the imports a build makes on first use (scipy for a Cartesian product's
connectivity check and Jellyfish's components) are counted, as the families' estimates must count them. A second
fresh interpreter measures the peak of ``tracemalloc`` (Python and numpy allocations only). ``per edge`` is the
larger of the two divided by the links; ``estimate / peak`` must be at least 1 for every row.

Speed. ``hypercube`` and ``mesh`` against ``networkx.hypercube_graph`` and ``networkx.grid_graph`` (the same
graphs, as the tests check edge for edge on small cases), best of 3 runs each (``_timing.best_of``), both timed
in this interpreter after a warm-up build.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _timing import best_of  # noqa: E402

from starlib.standard import hypercube, mesh  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: (family, parameters): builds of about 10^5 to 2 * 10^6 links (some with as many vertices as links), and small
#: ones where an import dominates.
SAMPLES = [
    ("hypercube", {"n": 10}), ("hypercube", {"n": 14}), ("hypercube", {"n": 17}),
    ("mesh", {"sizes": "30,30"}), ("mesh", {"sizes": "300,300"}), ("mesh", {"sizes": "60,60,60"}),
    ("mesh", {"sizes": "1000,1000"}),
    ("fat-tree", {"k": 4, "n": 3}), ("fat-tree", {"k": 16, "n": 4}), ("fat-tree", {"k": 8, "n": 6}),
    ("fat-tree", {"k": 24, "n": 4}), ("fat-tree", {"k": 2, "n": 17}),
    ("dragonfly", {"a": 4, "p": 2, "h": 2}), ("dragonfly", {"a": 24, "p": 12, "h": 12}),
    ("dragonfly", {"a": 32, "p": 16, "h": 16, "arrangement": "circulant"}),
    ("dragonfly", {"a": 48, "p": 24, "h": 24, "arrangement": "relative"}),
    ("dragonfly", {"a": 2, "p": 1, "h": 300}),
    ("jellyfish", {"n": 200, "r": 6}), ("jellyfish", {"n": 20000, "r": 10}), ("jellyfish", {"n": 100000, "r": 10}),
    ("jellyfish", {"n": 50000, "r": 40}), ("jellyfish", {"n": 1500, "r": 1000}), ("jellyfish", {"n": 2000, "r": 1000}),
    ("jellyfish", {"n": 1000000, "r": 2}),
]

CHILD = r"""
import json, sys, tracemalloc
from starlib.registry import NETWORK_FAMILIES

def status(key):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024

name, params, mode = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
fam = NETWORK_FAMILIES[name]
est = fam.estimate(params)
if mode == "rss":
    base = status("VmRSS")
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
    g = fam.build(**params)
    peak = status("VmHWM") - base
else:
    tracemalloc.start()
    g = fam.build(**params)
    peak = tracemalloc.get_traced_memory()[1]
print(json.dumps({"n": g.n, "m": g.m, "peak": peak, "estimate": est.peak_bytes}))
"""


def measure(name: str, params: dict, mode: str) -> dict:
    """One build in a fresh interpreter: ``{"n", "m", "peak", "estimate"}``."""
    out = subprocess.run([sys.executable, "-c", CHILD, name, json.dumps(params), mode], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def speed() -> pd.DataFrame:
    """Best-of-3 build seconds of starlib and networkx on the same graphs."""
    cases = [("Q_14", lambda: hypercube(14), lambda: nx.hypercube_graph(14)),
             ("Q_17", lambda: hypercube(17), lambda: nx.hypercube_graph(17)),
             ("mesh 300 x 300", lambda: mesh("300,300"), lambda: nx.grid_graph(dim=[300, 300])),
             ("mesh 60 x 60 x 60", lambda: mesh("60,60,60"), lambda: nx.grid_graph(dim=[60, 60, 60]))]
    rows = []
    for name, ours, theirs in cases:
        ours()
        _, t_ours, g = best_of(ours)
        _, t_nx, h = best_of(theirs)
        rows.append({"graph": name, "m": g.m, "starlib s": t_ours, "networkx s": t_nx, "speed-up": t_nx / t_ours,
                     "same size": (g.n, g.m) == (h.number_of_nodes(), h.number_of_edges())})
    return pd.DataFrame(rows)


def main() -> None:
    rows = []
    for name, params in SAMPLES:
        rss, traced = measure(name, params, "rss"), measure(name, params, "tracemalloc")
        peak = max(rss["peak"], traced["peak"])
        rows.append({"family": name, "params": " ".join(f"{k}={v}" for k, v in params.items()), "n": rss["n"],
                     "m": rss["m"], "rss MiB": rss["peak"] / 2**20, "traced MiB": traced["peak"] / 2**20,
                     "per edge": peak / rss["m"], "estimate MiB": rss["estimate"] / 2**20,
                     "estimate / peak": rss["estimate"] / peak})
    df = pd.DataFrame(rows)
    pd.set_option("display.width", 250)
    print(df.to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    low = df[df["estimate / peak"] < 1]
    if len(low):
        print(f"\n{len(low)} estimate(s) below the measured peak")
    print()
    print(speed().to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
