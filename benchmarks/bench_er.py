"""Time and peak memory of the ER_q EDST constructions for large q (far beyond the q <= 128 of the literature).

Run: ``.venv/bin/python benchmarks/bench_er.py [--q 128 256 512] [--methods hamiltonian low-depth]``
(``make bench`` uses the defaults). Each (q, method) runs in a fresh subprocess so that its peak resident
memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) is its own. A run builds the family in Singer labels
(``er_edsts(q, method, labels="singer")``, which includes the Singer model and, for ``low-depth``, the
cluster layout with all ``m`` edges), verifies it with the streaming verifier
``starlib.edst.factor.er.verify_singer_edsts``, and, for ``q <= --cross-check-max``, again with the general verifier
``starlib.edst.verify.verify_edsts`` on the graph built by ``singer_graph(q)``. Results go to
``build/er_edsts_bench.{csv,md,tex}`` (timings are machine-dependent, so never to ``paper_tables/``) and to
standard output. A run that exceeds ``--mem-limit-gb`` of address space fails with ``MemoryError`` (reported
as such), so the benchmark itself cannot exhaust the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, resource, sys, time
import galois  # noqa: F401  (its import, ~1-2 s, is not construction time)
limit = int(float(sys.argv[3]) * 2**30)
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from starlib.edst.factor.er import er_edsts, er_edst_bound, singer_graph, singer_model, verify_singer_edsts
q, method, cross = int(sys.argv[1]), sys.argv[2], int(sys.argv[4])
out = {"q": q, "method": method}
try:
    t = time.perf_counter()
    singer_model(q)
    out["seconds_singer"] = time.perf_counter() - t
    t = time.perf_counter()
    trees = er_edsts(q, method, labels="singer")
    out["seconds_build"] = time.perf_counter() - t
    t = time.perf_counter()
    rep = verify_singer_edsts(q, trees)
    out["seconds_verify"] = time.perf_counter() - t
    out["verified"] = bool(rep.valid)
    if q <= cross:
        from starlib.edst.verify import verify_edsts
        g = singer_graph(q)
        out["cross_checked"] = bool(verify_edsts(g, trees).valid)
    t = time.perf_counter()
    out["max_depth"] = max(tr.depth for tr in trees)
    out["seconds_depth"] = time.perf_counter() - t
    out["trees"] = len(trees)
    out["bound"] = er_edst_bound(q)
    out["vertices"] = q * q + q + 1
    out["edges"] = q * (q + 1) ** 2 // 2
except MemoryError:
    out["error"] = "MemoryError"
out["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
print(json.dumps(out))
"""


def run(q: int, method: str, mem_limit_gb: float, cross_max: int) -> dict:
    """One (q, method) measurement in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", CHILD, str(q), method, str(mem_limit_gb), str(cross_max)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if not lines:
        return {"q": q, "method": method, "error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q", type=int, nargs="+", default=[128, 256, 257, 343, 512])
    ap.add_argument("--methods", nargs="+", default=["hamiltonian", "low-depth"])
    ap.add_argument("--mem-limit-gb", type=float, default=8.0)
    ap.add_argument("--cross-check-max", type=int, default=128)
    ap.add_argument("--out-dir", default=str(ROOT / "build"))
    a = ap.parse_args(argv)

    import pandas as pd

    from starlib.paper.tables import write_table

    rows = []
    for q in a.q:
        for method in a.methods:
            r = run(q, method, a.mem_limit_gb, a.cross_check_max)
            rows.append(r)
            print(json.dumps(r), flush=True)
    cols = ["q", "method", "vertices", "edges", "bound", "trees", "verified", "cross_checked", "max_depth",
            "seconds_singer", "seconds_build", "seconds_verify", "seconds_depth", "peak_rss_gb", "error"]
    frame = pd.DataFrame(rows).reindex(columns=cols)
    frame = frame.astype(object).where(frame.notna(), None)
    write_table(frame, "er_edsts_bench", a.out_dir, sort_by=["q", "method"], float_digits=2)
    print(frame.to_string(index=False))
    ok = frame[frame.error.isna()] if "error" in frame else frame
    verified = ok[ok.verified == True]  # noqa: E712
    if len(verified):
        top = verified.sort_values("q").iloc[-1]
        print(f"largest q verified: {int(top.q)} ({top.method}), build {top.seconds_build:.1f} s, "
              f"verify {top.seconds_verify:.1f} s, peak {top.peak_rss_gb:.2f} GB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
