"""The exact generic EDST packing against links, beside the previous packer and Sage's Roskind-Tarjan.

Run: ``.venv/bin/python benchmarks/bench_packing.py [--sage-path PYTHON] [--runs R]`` (``make bench`` runs it
bare). Never part of the tests. Every instance runs in a fresh interpreter (so its peak resident memory
``ru_maxrss`` is its own) and is measured there:

``seconds_generic``   :func:`starlib.edst.generic_packing` (greedy forests, then compiled augmenting paths), the
                      best of ``--runs`` (one run above 5 s); its trees pass :func:`starlib.edst.verify_edsts`
                      and ``trees`` equals the certified bound (``bound_kind``: ``edges`` for
                      ``floor(m/(n-1))``, ``degree``, ``partition``);
``seconds_paths``     the same packing with one augmenting search per missing edge
                      (``generic_packing(..., engine="paths")``, the packer before the phases of
                      :mod:`starlib.edst.forest_union`): run once, only from
                      :data:`~starlib.edst.forest_union.PHASE_LINKS` links (below, ``generic`` is this engine) up to
                      ``--paths-max-links``; its union has the same size (asserted);
``seconds_previous``  the packer before that one: :func:`starlib.edst.packing.pack_forests`, Edmonds' matroid
                      partition with Python augmenting paths (kept for the incremental uses of
                      :class:`~starlib.edst.packing.ForestPartition`), asked for the same number of trees; run
                      once, only up to ``--previous-max-links`` (it took 34 s on 36,163 links);
``seconds_sage``      Sage's ``edge_disjoint_spanning_trees`` (Roskind-Tarjan), only where ``--sage-path`` gives
                      the Python interpreter of an environment with ``passagemath-graphs`` and
                      ``passagemath-polyhedra`` (Sage is never a dependency of starlib), for the instances up to
                      ``--sage-max-links``. Sage runs in its own interpreter on the same edge list, once; its
                      trees are checked by starlib's verifier;
``packing_mb``        the peak resident memory of the first packing above the resident memory before it (the
                      kernels loaded on a tiny graph and the graph built first; ``MALLOC_MMAP_THRESHOLD_`` makes
                      glibc give freed blocks back, so the packing cannot hide in pages the builder left): the
                      packing's own memory, compiled kernels' arrays included, to show it grows linearly in m.

The ratios ``paths/generic``, ``previous/generic`` and ``sage/generic`` are measured in the same run. The summary
states the targets: Slim Fly MMS(29) in <= 2 s, MMS(49) in <= 30 s, >= 300x Sage on MMS(13) and ER_23; the star
graph S_9 in <= 5 s and S_10 in <= 3 minutes; a time exponent <= 1.3 on each sparse family (star, bubble-sort,
torus) over its instances of at least 10^5 links; and the dense families no slower than the ``paths`` engine.

Writes ``benchmarks/results/packing.csv`` (one row per instance) and ``benchmarks/results/packing_machine.json``
(machine, versions, date, load, the command). Notebook 11 reads both; it never times anything.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
RESULTS = ROOT / "benchmarks" / "results"

#: (curve, command-line family, parameters): dense Slim Fly and ER_q, sparse permutation networks and tori.
INSTANCES: list[tuple[str, str, str]] = [
    *[("Slim Fly MMS(q)", "slimfly", f"q={q}") for q in (5, 9, 13, 17, 23, 29, 37, 49, 61, 73)],
    *[("PolarFly ER_q", "polarfly", f"q={q}") for q in (7, 11, 17, 23, 31, 47, 64, 81)],
    *[("star graph S_k", "star", f"k={k}") for k in (6, 7, 8, 9, 10)],
    *[("bubble-sort graph B_k", "bubble-sort", f"k={k}") for k in (6, 7, 8, 9, 10)],
    *[("torus C_s^3", "torus", f"sizes={s},{s},{s}") for s in (8, 16, 32, 48, 64, 96, 128, 150)],
]

COLUMNS = ["curve", "family", "params", "n", "links", "trees", "bound_kind", "valid", "runs", "seconds_generic",
           "seconds_paths", "seconds_previous", "seconds_sage", "sage_trees", "sage_valid", "paths_over_generic",
           "previous_over_generic", "sage_over_generic", "peak_rss_mb", "packing_mb", "load_1min"]

SAGE_CHILD = r"""
import json, sys, time
import numpy as np
try:
    from sage.all__sagemath_graphs import Graph
    from sage.graphs.spanning_tree import edge_disjoint_spanning_trees
except ImportError as exc:
    print(json.dumps({"skipped": f"passagemath-graphs is not importable ({exc})"}))
    raise SystemExit(0)
edges = np.load(sys.argv[1])
k = int(sys.argv[2])
g = Graph([tuple(e) for e in edges.tolist()], format="list_of_edges")
t = time.perf_counter()
T = edge_disjoint_spanning_trees(g, k)
seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "trees": [[[int(u), int(v)] for u, v, _ in tr.edges()] for tr in T]}))
"""


def child(family: str, params: str, runs: int, previous_max_links: int, paths_max_links: int) -> dict:
    """Measure one instance (run in a fresh interpreter by :func:`measure`)."""
    import resource

    import galois  # noqa: F401  (its import is not packing time)
    import numpy as np
    from _timing import best_of

    from starlib.cli.commands import build_network
    from starlib.edst import generic_packing, verify_edsts
    from starlib.edst.forest_union import PHASE_LINKS
    from starlib.edst.packing import pack_forests
    from starlib.sweep.memory import PeakMemory

    tiny = build_network("slimfly", ["q=5"])[0]
    for engine in ("paths", "phases"):  # the compiled kernels of both engines loaded, on a tiny graph
        generic_packing(tiny, engine=engine)
    g = build_network(family, params.split())[0]
    out: dict = {"family": family, "params": params, "n": int(g.n), "links": int(g.m),
                 "load_1min": os.getloadavg()[0]}
    # memory first, on a fresh heap: later runs reuse pages the allocator kept, and their peak would not show
    before = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    t = time.perf_counter()
    with PeakMemory() as pm:
        p = generic_packing(g)
    first = time.perf_counter() - t
    out["packing_mb"] = max(pm.megabytes - before, 0.0)
    best = first
    runs = 1 if first > 5 else runs
    if runs > 1:
        _, best, p = best_of(lambda: generic_packing(g), runs - 1)
        best = min(best, first)
    out.update(runs=runs, seconds_generic=best, trees=int(p.count), bound_kind=p.bound_kind,
               valid=bool(verify_edsts(g, p.trees, allow_empty=True).valid))
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    count = out["trees"]
    if PHASE_LINKS <= g.m <= paths_max_links:
        t = time.perf_counter()
        q = generic_packing(g, engine="paths")
        out["seconds_paths"] = time.perf_counter() - t
        assert q.count == count, "the paths engine disagrees"
    if g.m <= previous_max_links and count > 0:
        t = time.perf_counter()
        fp, _ = pack_forests(g.n, np.asarray(g.edges), count)
        out["seconds_previous"] = time.perf_counter() - t
        assert sum(fp.size) == count * (g.n - 1), "the previous packer disagrees"
    return out


def measure(family: str, params: str, runs: int, previous_max_links: int, paths_max_links: int) -> dict:
    """One instance in a fresh interpreter; returns its measurement row."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", family, params, "--runs", str(runs),
           "--previous-max-links", str(previous_max_links), "--paths-max-links", str(paths_max_links)]
    # glibc returns every block of 64 kB or more to the system when it is freed: otherwise the pages the builder
    # freed stay resident, the packing reuses them, and its peak above the resident memory before it would not show
    env = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return {"family": family, "params": params, "error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(lines[-1])


def sage_packing(sage_python: str, family: str, params: str, k: int) -> dict:
    """Sage's Roskind-Tarjan packing of ``k`` trees, timed in Sage's interpreter; trees checked by starlib.

    Only small graphs get here (``--sage-max-links``), so building them in this process leaves the peak memory
    that later children inherit (``ru_maxrss`` survives ``fork``) near the interpreter's.
    """
    import numpy as np

    from starlib.cli.commands import build_network
    from starlib.edst import verify_edsts

    g = build_network(family, params.split())[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "edges.npy"
        np.save(path, np.asarray(g.edges, dtype=np.int64))
        try:
            proc = subprocess.run([sage_python, "-c", SAGE_CHILD, str(path), str(k)], capture_output=True, text=True,
                                  check=False)
        except OSError as exc:
            return {"skipped": f"{sage_python} cannot run ({exc.strerror})"}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return {"skipped": (proc.stderr.strip().splitlines() or ["Sage failed"])[-1]}
    res = json.loads(lines[-1])
    if "skipped" in res:
        return res
    trees = [np.array(t, dtype=np.int64).reshape(-1, 2) for t in res["trees"]]
    return {"seconds": res["seconds"], "trees": len(trees), "valid": bool(verify_edsts(g, trees).valid)}


def summary(rows: list[dict]) -> str:
    """The printed table and the verdict on the issue's targets."""
    import numpy as np
    import pandas as pd

    df = pd.DataFrame(rows).reindex(columns=[*COLUMNS, "error"])
    show = df[["curve", "params", "links", "trees", "bound_kind", "valid", "seconds_generic", "seconds_paths",
               "seconds_previous", "seconds_sage", "paths_over_generic", "previous_over_generic", "sage_over_generic",
               "peak_rss_mb", "packing_mb"]]
    lines = [show.to_string(index=False, float_format=lambda x: f"{x:.4g}"), "", "Targets:"]

    def row(family: str, params: str) -> pd.Series | None:
        sel = df[(df.family == family) & (df.params == params)]
        return None if sel.empty else sel.iloc[0]

    for family, params, name, limit in (("slimfly", "q=29", "MMS(29)", 2.0), ("slimfly", "q=49", "MMS(49)", 30.0)):
        r = row(family, params)
        if r is not None and pd.notna(r.seconds_generic):
            lines.append(f"  {name} ({r.links:,} links, {r.trees} trees): {r.seconds_generic:.3f} s "
                         f"({'met' if r.seconds_generic <= limit else 'NOT met'}: <= {limit:g} s)")
    for family, params, name in (("slimfly", "q=13", "MMS(13)"), ("polarfly", "q=23", "ER_23")):
        r = row(family, params)
        if r is None:
            continue
        if pd.notna(r.sage_over_generic):
            lines.append(f"  {name}: Sage {r.seconds_sage:.2f} s ({r.sage_trees} trees, valid = {r.sage_valid}), "
                         f"generic {r.seconds_generic * 1e3:.2f} ms: {r.sage_over_generic:,.0f}x "
                         f"({'met' if r.sage_over_generic >= 300 else 'NOT met'}: >= 300x)")
        else:
            lines.append(f"  {name}: Sage not measured (--sage-path)")
    for params, limit in (("k=9", 5.0), ("k=10", 180.0)):
        r = row("star", params)
        if r is not None and pd.notna(r.seconds_generic):
            lines.append(f"  star graph S_{params[2:]} ({r.links:,} links, {r.trees} trees): {r.seconds_generic:.2f} s "
                         f"({'met' if r.seconds_generic <= limit else 'NOT met'}: <= {limit:g} s), "
                         f"packing memory {r.packing_mb / r.links * 2**20:.0f} bytes per link")
    for curve in ("star graph S_k", "bubble-sort graph B_k", "torus C_s^3"):
        sub = df[(df.curve == curve) & (df.links >= 10**5) & df.seconds_generic.notna()]
        if len(sub) >= 2:
            slope = float(np.polyfit(np.log(sub.links.astype(float)), np.log(sub.seconds_generic.astype(float)), 1)[0])
            lines.append(f"  {curve}: time exponent {slope:.2f} over {len(sub)} instances of "
                         f"{int(sub.links.min()):,}-{int(sub.links.max()):,} links "
                         f"({'met' if slope <= 1.3 else 'NOT met'}: <= 1.3)")
    dense = df[df.family.isin(["slimfly", "polarfly"]) & df.paths_over_generic.notna()]
    if len(dense):
        worst = dense.loc[dense.paths_over_generic.idxmin()]
        lines.append(f"  dense networks, phases against one search per edge: slowest ratio "
                     f"{worst.paths_over_generic:.2f}"
                     f" ({worst.curve} {worst.params}; {'met' if worst.paths_over_generic >= 0.9 else 'NOT met'}: "
                     f"no slower, within 10 % timing noise)")
    for _, r in df[df.get("error", pd.Series(index=df.index, dtype=object)).notna()].iterrows():
        lines.append(f"  FAILED {r.family} {r.params}: {r.error}")
    return "\n".join(lines)


def write_csv(rows: list[dict], path: Path) -> None:
    """Rows in :data:`COLUMNS` order; times to 4 significant digits, ratios and memory (MB) to 3."""
    import pandas as pd

    df = pd.DataFrame(rows).reindex(columns=COLUMNS)
    for c in COLUMNS:
        if c.startswith("seconds_"):
            df[c] = df[c].map(lambda v: f"{v:.4g}" if pd.notna(v) else "")
        elif c.endswith("_mb") or c.endswith("_over_generic"):
            df[c] = df[c].map(lambda v: f"{v:.3g}" if pd.notna(v) else "")
        elif c == "load_1min":
            df[c] = df[c].map(lambda v: f"{v:.2f}" if pd.notna(v) else "")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".csv.tmp")
    df.to_csv(tmp, index=False)
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs=2, metavar="ARG", help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=5, help="timed runs of the generic packing (best is kept)")
    ap.add_argument("--sage-path", default="",
                    help="Python interpreter of an environment with passagemath-graphs (a venv directory works too)")
    ap.add_argument("--sage-max-links", type=int, default=7000, help="run Sage only up to this many links")
    ap.add_argument("--previous-max-links", type=int, default=40_000,
                    help="run the previous packer only up to this many links")
    ap.add_argument("--paths-max-links", type=int, default=2_000_000,
                    help="run the one-search-per-edge engine only up to this many links (S_9 took 60-100 s)")
    ap.add_argument("--max-links", type=int, default=20_000_000, help="skip larger instances")
    ap.add_argument("--out-dir", default=str(RESULTS), help="where packing.csv and the sidecar JSON go")
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.child[0], a.child[1], a.runs, a.previous_max_links, a.paths_max_links)))
        return 0
    if a.runs < 1:
        raise SystemExit(f"error: runs={a.runs} must be >= 1")
    sage = a.sage_path
    if sage and Path(sage).is_dir():
        sage = str(Path(sage) / "bin" / "python")
    from bench_scaling import machine_info  # cores, CPU model, memory, versions and date

    info = machine_info()
    info["load_start"] = [round(v, 2) for v in os.getloadavg()]
    print(f"machine: {info['cores']} cores, {info['cpu_model']}, python {info['python']}; "
          f"load {info['load_start'][0]:.2f}", file=sys.stderr)
    if not sage:
        print("Sage: not measured; it is optional (--sage-path PYTHON: an environment with passagemath-graphs and "
              "passagemath-polyhedra, never a dependency of starlib)", file=sys.stderr)
    from starlib.cli.commands import resolve

    rows = []
    for curve, family, params in INSTANCES:
        fam, values = resolve(family, params.split())  # estimated, not built: a child inherits this process's peak
        if int(fam.estimate(values).m) > a.max_links:
            continue
        r = {"curve": curve, **measure(family, params, a.runs, a.previous_max_links, a.paths_max_links)}
        if "error" not in r:
            if r.get("seconds_paths"):
                r["paths_over_generic"] = r["seconds_paths"] / r["seconds_generic"]
            if r.get("seconds_previous"):
                r["previous_over_generic"] = r["seconds_previous"] / r["seconds_generic"]
            if sage and r["links"] <= a.sage_max_links and r["trees"] > 0:
                s = sage_packing(sage, family, params, r["trees"])
                if "skipped" in s:
                    print(f"Sage skipped: {s['skipped']}", file=sys.stderr)
                    sage = ""
                else:
                    r.update(seconds_sage=s["seconds"], sage_trees=s["trees"], sage_valid=s["valid"],
                             sage_over_generic=s["seconds"] / r["seconds_generic"])
        rows.append(r)
        print(f"  {curve:22s} {params:16s} links {r.get('links', 0):>9,}  trees {r.get('trees', '-')}  "
              f"generic {r.get('seconds_generic', float('nan')):.4f} s  paths {r.get('seconds_paths', 0):.2f} s  "
              f"previous {r.get('seconds_previous', 0):.2f} s  "
              f"sage {r.get('seconds_sage', 0):.2f} s  peak {r.get('peak_rss_mb', 0):.0f} MB  "
              f"{r.get('error', '')}", file=sys.stderr, flush=True)
    print(summary(rows))
    info["load_end"] = [round(v, 2) for v in os.getloadavg()]
    info["runs"] = a.runs
    info["sage"] = bool(a.sage_path)
    args = sys.argv[1:] if argv is None else list(argv)
    info["command"] = " ".join(["python benchmarks/bench_packing.py", *args])
    info["date_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    out = Path(a.out_dir)
    write_csv(rows, out / "packing.csv")
    (out / "packing_machine.json").write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    print(f"\nwrote {out / 'packing.csv'} and {out / 'packing_machine.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
