"""Scaling of Slim Fly, Bundlefly and PolarStar to millions of links: edge list, build, EDSTs, verification, memory.

Run: ``.venv/bin/python benchmarks/bench_scaling.py`` (``make bench``). Never part of the tests. For each family
the parameters grow until the product has well over 10^6 links; every instance runs in a fresh subprocess
(so its peak resident memory ``ru_maxrss`` is its own) under an address-space limit (``--mem-limit-gb``,
default 8). Phases, each timed with ``time.perf_counter`` as the best of ``--runs`` (default 5):

``edges``   the edge-list floor: :func:`starlib.paper.scaling.star_edge_list` writes every link of the product once
            into one array, given the factors and bijections (no sort, labels or checks);
``build``   the starlib builder (``slimfly(q)``, ``bundlefly(q, q')``, ``polarstar(q, "paley", paley_q=q')``),
            factors included;
``edsts``   ``METHODS["auto"]``: the Table I construction (Maximum, V-C.10 / V-C.11, for all three families);
``verify``  :func:`starlib.edst.verify_edsts` (must report valid);
``sort``    not part of either: a :class:`~starlib.edst.trees.Tree` keeps the rows its construction wrote and
            sorts them into the canonical ``edges`` (rows ``u < v``, lexicographic) on first access, for
            output; this column is what that costs for the whole set (``sort_edge_rows`` of every tree).

Memory: ``peak_rss_mb`` is the process's peak resident set (interpreter and imports included, ``base_rss_mb``
after the imports); ``traced_mb_<phase>`` is the tracemalloc peak of one extra, untimed run of each phase
(numpy buffers included), so a phase's own footprint is visible without the interpreter's baseline.

Targets: the EDSTs of a >= 10^6-link star product built and verified in <= 10 s and in <= 5x the
edge-list floor (construction plus verification, the stricter reading; construction alone is reported too);
the summary says for every such instance whether they are met, and also gives the ratio to the full
builder. The compiled kernels use numba's threads (``NUMBA_NUM_THREADS``, default all cores; the machine
record gives the count): the verifier spreads trees and row blocks over them, the constructions run on one.
The generic-packing comparison (>= 100x) is
``bench_edsts.mms_13``, called here, not repeated; Sage's Roskind-Tarjan packing (``passagemath-graphs``,
optional, never a dependency) is timed on the same instance when importable and skipped with a message
otherwise (``--sage-path DIR`` appends a directory holding it to ``sys.path`` of that subprocess).

Writes ``benchmarks/results/scaling.csv`` (one row per instance) and ``benchmarks/results/scaling_machine.json``
(machine, versions, date, load averages, the comparisons). Notebook 11 reads both; it never times anything.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "benchmarks" / "results"

#: (family, parameters) in growing size; the last ones of each family exceed 10^6 links.
INSTANCES: list[tuple[str, tuple[int, ...]]] = [
    *[("slimfly", (q,)) for q in (5, 9, 13, 19, 27, 37, 53, 73, 89, 101, 113, 125)],
    *[("bundlefly", qq) for qq in ((3, 5), (5, 5), (5, 13), (9, 13), (13, 13), (13, 29), (17, 29), (25, 29),
                                   (29, 29), (37, 37))],
    *[("polarstar", qq) for qq in ((3, 5), (5, 5), (7, 13), (11, 13), (17, 17), (23, 29), (31, 29), (37, 37),
                                   (47, 53))],
]

COLUMNS = ["family", "instance", "params", "n", "links", "trees", "theorem", "structure_packing",
           "supernode_packing", "valid", "runs",
           "seconds_edges", "seconds_build", "seconds_edsts", "seconds_verify", "seconds_sort",
           "peak_rss_mb", "base_rss_mb", "traced_mb_edges", "traced_mb_build", "traced_mb_edsts",
           "traced_mb_verify", "load_1min"]


def instance_name(family: str, params: tuple[int, ...]) -> str:
    """Human-readable name, e.g. ``MMS(29) * QR(29)``."""
    if family == "slimfly":
        return f"MMS({params[0]})"
    if family == "bundlefly":
        return f"MMS({params[0]}) * QR({params[1]})"
    return f"ER_{params[0]} * QR({params[1]})"


def param_string(family: str, params: tuple[int, ...]) -> str:
    """Builder keyword arguments as text, e.g. ``q=29 paley_q=29``."""
    keys = ("q",) if family == "slimfly" else ("q", "paley_q")
    return " ".join(f"{k}={v}" for k, v in zip(keys, params, strict=True))


# ------------------------------------------------------------------------------------------- child process
def child(family: str, params: tuple[int, ...], runs: int, mem_limit_gb: float) -> dict:
    """Measure one instance (run in a fresh interpreter by :func:`measure`)."""
    import resource
    import tracemalloc

    limit = int(mem_limit_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    import galois  # noqa: F401  (its import is not construction time)
    from _timing import best_of

    from starlib.edst import METHODS, factor_edsts, verify_edsts
    from starlib.edst.trees import sort_edge_rows
    from starlib.networks import bundlefly, polarstar, slimfly
    from starlib.paper.scaling import star_edge_list

    builders = {"slimfly": lambda: slimfly(*params), "bundlefly": lambda: bundlefly(*params),
                "polarstar": lambda: polarstar(params[0], "paley", paley_q=params[1])}
    build = builders[family]
    auto = METHODS["auto"]
    mb = 2.0**20
    out: dict = {"family": family, "instance": instance_name(family, params),
                 "params": param_string(family, params), "runs": runs, "load_1min": os.getloadavg()[0]}
    out["base_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    def best(fn):  # best of `runs`, keeps the last result (one copy alive at a time)
        _, seconds, res = best_of(fn, runs)
        return seconds, res

    def traced(fn) -> float:  # tracemalloc peak (MB) of one untimed run
        tracemalloc.start()
        try:
            fn()
            return tracemalloc.get_traced_memory()[1] / mb
        finally:
            tracemalloc.stop()

    try:
        out["seconds_build"], P = best(build)
        out["n"], out["links"] = P.n, P.m
        edge_list = lambda: star_edge_list(P.structure, P.supernode, P.bijections)  # noqa: E731
        out["seconds_edges"], E = best(edge_list)
        assert len(E) == P.m, (len(E), P.m)
        E = None
        out["seconds_edsts"], trees = best(lambda: auto(P))
        out["seconds_verify"], rep = best(lambda: verify_edsts(P, trees))
        out["seconds_sort"], _ = best(lambda: [sort_edge_rows(t.rows) for t in trees])
        out["trees"], out["theorem"], out["valid"] = len(trees), trees.theorem, bool(rep.valid)
        out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        out["traced_mb_edges"] = traced(edge_list)
        out["traced_mb_edsts"] = traced(lambda: auto(P))
        out["traced_mb_verify"] = traced(lambda: verify_edsts(P, trees))
        for role, X in (("structure", P.structure), ("supernode", P.supernode)):  # untimed: which factor packing
            out[f"{role}_packing"] = "/".join(sorted({t.construction for t in factor_edsts(X)}))
        P = trees = None  # the builder's footprint is traced with nothing else alive
        out["traced_mb_build"] = traced(build)
    except MemoryError:
        out["error"] = f"MemoryError (limit {mem_limit_gb} GB of address space)"
    out.setdefault("peak_rss_mb", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    return out


def measure(family: str, params: tuple[int, ...], runs: int, mem_limit_gb: float) -> dict:
    """One instance in a fresh interpreter; returns its measurement row."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", family, *map(str, params),
           "--runs", str(runs), "--mem-limit-gb", str(mem_limit_gb)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        err = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return {"family": family, "instance": instance_name(family, params), "error": err}
    return json.loads(lines[-1])


# ------------------------------------------------------------------------------------------- comparisons
def generic_comparison() -> dict:
    """``bench_edsts.mms_13`` (Maximum vs the exact generic packer on MMS(13)), echoed and parsed."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_edsts

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        bench_edsts.mms_13()
    text = buf.getvalue()
    print(text, end="")
    out: dict = {"source": "benchmarks/bench_edsts.py:mms_13", "instance": "MMS(13)", "trees": 9}
    for key, pat in (("seconds_maximum", r"maximum_trees.*?([\d.]+) s"),
                     ("seconds_generic", r"generic_packing.*?([\d.]+) s"),
                     ("ratio", r"generic / construction\s+([\d.]+) x")):
        mt = re.search(pat, text)
        out[key] = float(mt.group(1)) if mt else None
    return out


SAGE_CHILD = r"""
import json, sys, time
if len(sys.argv) > 1 and sys.argv[1]:
    sys.path.append(sys.argv[1])
try:
    from sage.all__sagemath_graphs import Graph
    from sage.graphs.spanning_tree import edge_disjoint_spanning_trees
except ImportError as exc:
    print(json.dumps({"skipped": f"passagemath-graphs is not importable ({exc})"}))
    raise SystemExit(0)
import numpy as np
import galois  # noqa: F401
from starlib.edst import maximum_trees, verify_edsts
from starlib.networks import slimfly
P = slimfly(13)
g = Graph([tuple(e) for e in P.edges.tolist()], format="list_of_edges")
t = time.perf_counter()
T = edge_disjoint_spanning_trees(g, 9)
sage_s = time.perf_counter() - t
trees = [np.array([[u, v] for u, v, _ in tr.edges()], dtype=np.int64) for tr in T]
best = float("inf")
for _ in range(7):
    t = time.perf_counter()
    maximum_trees(P)
    best = min(best, time.perf_counter() - t)
print(json.dumps({"instance": "MMS(13)", "trees": len(T), "sage_valid": bool(verify_edsts(P, trees).valid),
                  "seconds_sage_roskind_tarjan": sage_s, "seconds_maximum": best, "ratio": sage_s / best}))
"""


def sage_comparison(sage_path: str) -> dict:
    """Sage's Roskind-Tarjan packing (9 trees of MMS(13)) against ``maximum_trees``, if Sage is importable."""
    proc = subprocess.run([sys.executable, "-c", SAGE_CHILD, sage_path], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    res = json.loads(lines[-1]) if lines else {"skipped": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    if "skipped" in res:
        print(f"Sage Roskind-Tarjan comparison skipped: {res['skipped']}; it is optional "
              "(pip install passagemath-graphs into the venv, or --sage-path DIR, to enable it).")
    else:
        print(f"Sage Roskind-Tarjan on MMS(13), 9 trees: {res['seconds_sage_roskind_tarjan']:.2f} s "
              f"(valid = {res['sage_valid']}); maximum_trees {res['seconds_maximum']:.4f} s; "
              f"ratio {res['ratio']:.0f} x (target >= 100)")
    return res


# ------------------------------------------------------------------------------------------- machine record
def machine_info() -> dict:
    """Cores, CPU model, memory, Python and library versions, date (UTC), for the sidecar JSON."""
    import numpy
    import scipy

    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem_gb = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gb = round(int(line.split()[1]) / 2**20, 1)
    import numba

    return {"cores": os.cpu_count(), "numba_threads": numba.get_num_threads(), "cpu_model": model,
            "memory_gb": mem_gb, "platform": platform.platform(),
            "python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
            "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


# ------------------------------------------------------------------------------------------- report
def summary(rows: list[dict]) -> str:
    """The printed table (ratios to the edge-list floor) and the verdict on the targets."""
    import pandas as pd

    df = pd.DataFrame(rows).reindex(columns=COLUMNS)
    ok = df[df["seconds_edges"].notna()].copy()
    ok["build/edges"] = ok.seconds_build / ok.seconds_edges
    ok["edsts/edges"] = ok.seconds_edsts / ok.seconds_edges
    ok["edsts/build"] = ok.seconds_edsts / ok.seconds_build
    ok["edsts+verify s"] = ok.seconds_edsts + ok.seconds_verify
    ok["(edsts+verify)/edges"] = ok["edsts+verify s"] / ok.seconds_edges
    show = ok[["instance", "links", "trees", "seconds_edges", "seconds_build", "seconds_edsts", "seconds_verify",
               "build/edges", "edsts/edges", "edsts/build", "edsts+verify s", "peak_rss_mb", "valid"]]
    show = show.rename(columns={"seconds_edges": "edges s", "seconds_build": "build s", "seconds_edsts": "edsts s",
                                "seconds_verify": "verify s", "peak_rss_mb": "peak MB"})
    lines = [show.to_string(index=False, float_format=lambda x: f"{x:.3f}"), "",
             "Targets for >= 10^6 links: EDSTs built + verified <= 10 s and <= 5x the edge-list floor"]
    for _, r in ok[ok.links >= 10**6].iterrows():
        t_ok = r["edsts+verify s"] <= 10
        f_ok = r["(edsts+verify)/edges"] <= 5
        lines.append(f"  {r.instance:24s} {r.links:>10,d} links: edsts+verify {r['edsts+verify s']:6.3f} s "
                     f"({'met' if t_ok else 'NOT met'}) = {r['(edsts+verify)/edges']:4.1f}x the floor "
                     f"({'met' if f_ok else 'NOT met'}; construction alone {r['edsts/edges']:4.1f}x, "
                     f"{r['edsts/build']:.2f}x the builder); valid = {r.valid}")
    big = ok.loc[ok.links.idxmax()]
    lines.append(f"Largest instance {big.instance} ({big.links:,} links): peak RSS {big.peak_rss_mb / 1024:.2f} GB "
                 f"({'under' if big.peak_rss_mb < 8 * 1024 else 'OVER'} 8 GB)")
    bad = df[df["seconds_edges"].isna()]
    for _, r in bad.iterrows():
        lines.append(f"  FAILED {r.instance}: {r.get('error', '')}")
    return "\n".join(lines)


def write_csv(rows: list[dict], path: Path) -> None:
    """Rows in :data:`COLUMNS` order, times to 6 significant digits, memory (MB) to 4."""
    import pandas as pd

    df = pd.DataFrame(rows).reindex(columns=COLUMNS)
    for c in COLUMNS:
        if c.startswith("seconds_"):
            df[c] = df[c].map(lambda v: f"{v:.6g}" if pd.notna(v) else "")
        elif "_mb" in c:
            df[c] = df[c].map(lambda v: f"{v:.4g}" if pd.notna(v) else "")
        elif c == "load_1min":
            df[c] = df[c].map(lambda v: f"{v:.2f}" if pd.notna(v) else "")
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--child", nargs="+", metavar="ARG", help=argparse.SUPPRESS)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per phase (best is kept)")
    ap.add_argument("--mem-limit-gb", type=float, default=8.0, help="address-space limit per instance")
    ap.add_argument("--families", nargs="+", default=["slimfly", "bundlefly", "polarstar"])
    ap.add_argument("--max-links", type=float, default=float("inf"), help="skip larger instances (estimated)")
    ap.add_argument("--out-dir", default=str(RESULTS), help="where scaling.csv and the sidecar JSON go")
    ap.add_argument("--no-comparisons", action="store_true", help="skip the generic and Sage comparisons")
    ap.add_argument("--sage-path", default="", help="extra sys.path entry holding passagemath-graphs")
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.child[0], tuple(int(v) for v in a.child[1:]), a.runs, a.mem_limit_gb)))
        return 0
    if a.runs < 1:
        raise SystemExit(f"error: runs={a.runs} must be >= 1")

    info = machine_info()
    info["load_start"] = [round(v, 2) for v in os.getloadavg()]
    print(f"machine: {info['cores']} cores, {info['cpu_model']}, python {info['python']}, numpy {info['numpy']}; "
          f"load {info['load_start'][0]:.2f}")
    rows = []
    for family, params in INSTANCES:
        if family not in a.families or estimated_links(family, params) > a.max_links:
            continue
        r = measure(family, params, a.runs, a.mem_limit_gb)
        rows.append(r)
        print(f"  {r['instance']:24s} links {r.get('links', 0):>10,}  edges {r.get('seconds_edges', 0):.4f} s  "
              f"build {r.get('seconds_build', 0):.3f} s  edsts {r.get('seconds_edsts', 0):.3f} s  "
              f"verify {r.get('seconds_verify', 0):.3f} s  peak {r.get('peak_rss_mb', 0):.0f} MB  "
              f"load {r.get('load_1min', 0):.2f}  {r.get('error', '')}", flush=True)
    print()
    print(summary(rows))
    if not a.no_comparisons:
        print()
        info["generic_comparison"] = generic_comparison()
        info["sage_comparison"] = sage_comparison(a.sage_path)
    info["load_end"] = [round(v, 2) for v in os.getloadavg()]
    info["runs"] = a.runs
    args = sys.argv[1:] if argv is None else list(argv)
    info["command"] = " ".join(["python benchmarks/bench_scaling.py", *args]) + " (make bench runs it bare)"
    out = Path(a.out_dir)
    write_csv(rows, out / "scaling.csv")
    (out / "scaling_machine.json").write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    print(f"\nwrote {out / 'scaling.csv'} and {out / 'scaling_machine.json'}")
    return 0


def estimated_links(family: str, params: tuple[int, ...]) -> int:
    """Links of an instance from the closed forms (to skip instances above ``--max-links`` without building)."""
    q = params[0]
    if family == "polarstar":
        qp = params[1]
        return q * (q + 1) ** 2 * qp // 2 + (q * q + q + 1) * qp * (qp - 1) // 4
    delta = 1 if q % 4 == 1 else (-1 if q % 4 == 3 else 0)
    mms_deg = (3 * q - delta) // 2
    if family == "slimfly":
        return q * q * mms_deg
    qp = params[1]
    return q * q * qp * (mms_deg + (qp - 1) // 2)


if __name__ == "__main__":
    sys.exit(main())
