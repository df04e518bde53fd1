"""Time of the repair after link failures against its targets: one failure on Bundlefly MMS(29) * QR(29)
(1,390,173 links) in under 1 s, on a network of about 1e5 links (Slim Fly MMS(41), 102,541 links) in under 50 ms,
in-process, without the full depth search; and the ratio to a from-scratch exact packing of the damaged network.

Run: ``.venv/bin/python benchmarks/bench_repair.py [--runs N] [--failures F]``. For each network the trees are
``starlib.edsts(G)`` (``auto``), built once; then ``runs`` seeded random failure sets of ``F`` links each
(default 1) are repaired by :func:`starlib.edst.repair_edsts`, timed without (``verify=False``) and with the
verification of the result (``verify=True``, the default of the API and the command line). One from-scratch
:func:`~starlib.edst.generic_packing` of the first damaged network gives the ratio. Two warm-up repairs (one
reattaching, one repacking) compile (or load) the kernels first. All times are measured in this one run, on this
machine; the table also goes to ``build/repair_bench.md`` (machine-dependent, so never to ``paper_tables/``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="failure sets per network (default 5)")
    ap.add_argument("--failures", type=int, default=1, help="failed links per set (default 1)")
    args = ap.parse_args(argv)

    import networkx as nx
    import numpy as np

    import starlib
    from starlib.edst import generic_packing, repair_edsts
    from starlib.graphs import ArrayGraph

    w = starlib.network("slimfly", q=5)
    repair_edsts(w, starlib.edsts(w), w.edges[:1])  # compile (or load) the kernels: reattaching
    two = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    two.add_edges_from([(0, 5), (1, 6)])
    two = ArrayGraph.from_networkx(two)
    repair_edsts(two, generic_packing(two).trees, [[0, 5]])  # and the warm-started packer
    nets = [("Slim Fly MMS(41)", "slimfly", {"q": 41}, 0.05),
            ("Bundlefly MMS(29) * QR(29)", "bundlefly", {"q": 29, "paley_q": 29}, 1.0)]
    rows = []
    for name, fam, params, target in nets:
        g = starlib.network(fam, **params)
        trees = starlib.edsts(g)
        rng = np.random.default_rng(2026)
        fast, checked, info = [], [], []
        for _ in range(args.runs):
            failed = g.edges[rng.choice(g.m, args.failures, replace=False)]
            t = time.perf_counter()
            r = repair_edsts(g, trees, failed, verify=False)
            fast.append(time.perf_counter() - t)
            t = time.perf_counter()
            r = repair_edsts(g, trees, failed)
            checked.append(time.perf_counter() - t)
            info.append(r)
        t = time.perf_counter()
        p = generic_packing(info[0].graph)
        scratch = time.perf_counter() - t
        assert p.count == info[0].count_after, (p.count, info[0].count_after)
        med = statistics.median(fast)
        rows.append(f"| {name} | {g.m:,} | {len(trees)} | {args.failures} | {args.runs} | "
                    f"{sum(x.repacked for x in info)} | {med * 1e3:.1f} | {max(fast) * 1e3:.1f} | "
                    f"{statistics.median(checked) * 1e3:.1f} | {scratch:.2f} | {scratch / med:.0f} | "
                    f"{'yes' if max(fast) < target else 'NO'} (< {target * 1e3:g} ms) |")
        print(rows[-1], flush=True)
    head = ("| network | links | trees | failed links | runs | repacked | repair ms (median) | repair ms (max) | "
            "with verification ms (median) | from scratch s | ratio | target met |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|")
    text = head + "\n" + "\n".join(rows) + "\n"
    out = ROOT / "build" / "repair_bench.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
