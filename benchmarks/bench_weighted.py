"""Weighted tree families (``weighted_trees``) against the shallow maximum EDST family, on Slim Fly and PolarFly.

Run: ``.venv/bin/python benchmarks/bench_weighted.py [--r 2 4]``. For each network (Slim Fly MMS(5), MMS(7),
MMS(11), MMS(23), PolarFly ER_31) it prints links, ``m/(n-1)`` (the singleton-partition bound on the strength), the
chosen ``r``, the trees and total weight ``floor(r sigma)/r`` of the cold weighted family with its ratio to
``m/(n-1)``, the certificate's bound on the strength, its maximum and mean depth and seconds; then the shallow
maximum family (``edsts(G, method="shallow")``: trees, ratio, maximum and mean depth, seconds) and the weighted
family warm-started from it (maximum and mean depth, seconds). ``--r`` adds rows with those multiplicities. The
first call compiles the kernels (cached on disk), so a warm-up on MMS(5) precedes the timings. The table also goes to
``build/weighted_bench.md`` (timings are machine-dependent).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a Markdown table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--r", type=int, nargs="*", default=[], help="extra multiplicities to measure")
    args = ap.parse_args(argv)

    from fractions import Fraction

    from starlib.api import edsts, network
    from starlib.edst.depth import verify_weighted, weighted_trees

    weighted_trees(network("slimfly", q=5))  # compile (or load) the kernels
    nets = [("Slim Fly MMS(5)", "slimfly", 5), ("Slim Fly MMS(7)", "slimfly", 7), ("Slim Fly MMS(11)", "slimfly", 11),
            ("Slim Fly MMS(23)", "slimfly", 23), ("PolarFly ER_31", "polarfly", 31)]
    rows = []

    def row(name, g, f, seconds, shallow="", warm=""):
        s = Fraction(g.m, g.n - 1)
        d = f.depths()
        assert verify_weighted(g, f).valid
        rows.append(f"| {name} | {g.m:,} | {float(s):.3f} | {f.r} | {f.count} | {f.total} = {float(f.total):.3f} | "
                    f"{float(f.total / s):.4f} | {float(f.certificate_bound):.3f} | {max(d)} / {sum(d) / len(d):.2f} | "
                    f"{seconds:.2f} | {shallow} | {warm} |")
        print(rows[-1], flush=True)

    for name, family, q in nets:
        g = network(family, q=q)
        t0 = time.perf_counter()
        f = weighted_trees(g)
        t1 = time.perf_counter()
        S = edsts(g, method="shallow")
        t2 = time.perf_counter()
        w = weighted_trees(g, r=f.r, start=S)
        t3 = time.perf_counter()
        ds, dw = S.depths(), w.depths()
        row(name, g, f, t1 - t0,
            f"{len(S)}, {len(S) / float(Fraction(g.m, g.n - 1)):.4f}, {max(ds)} / {sum(ds) / len(ds):.2f}, "
            f"{t2 - t1:.2f} s",
            f"{max(dw)} / {sum(dw) / len(dw):.2f}, {t3 - t2:.2f} s")
        for r in args.r:
            if r != f.r:
                t0 = time.perf_counter()
                f = weighted_trees(g, r=r)
                row(name, g, f, time.perf_counter() - t0)
    head = ("| network | links | m/(n-1) | r | trees | total | total/(m/(n-1)) | certified bound | depth max / mean "
            "| s | shallow max family (trees, ratio, depth, time) | weighted from it (depth, time) |\n"
            "|---|---|---|---|---|---|---|---|---|---|---|---|")
    text = head + "\n" + "\n".join(rows) + "\n"
    out = ROOT / "build" / "weighted_bench.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    print(f"\nwritten {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
