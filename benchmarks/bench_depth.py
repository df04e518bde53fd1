"""Time and result of the depth lower bound and the depth-reducing local search on named networks.

Run: ``.venv/bin/python benchmarks/bench_depth.py [--large]`` (``make bench`` uses the defaults). For each network
and each input family (``auto_trees``, ``generic_trees``; for ER_q ``er_edsts`` hamiltonian and low-depth) it
prints the count, the maximum depth before and after :func:`starlib.edst.depth.improve_depth` (with its default
restarts), the mean depth after, the lower bound of :func:`starlib.edst.depth.depth_lower_bound` and both
times. ``--large`` adds Slim Fly MMS(29) (36,163 links) and MMS(43) (120,185 links): a few seconds each for the
bound and the search, minutes for building ``generic_trees`` of MMS(43). The table also goes to
``build/depth_bench.md`` (timings are machine-dependent, so never to ``paper_tables/``). The first call compiles
the kernels (cached on disk), so one warm-up run on a small graph precedes the timings.
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
    ap.add_argument("--large", action="store_true", help="add Slim Fly MMS(29) and MMS(43)")
    args = ap.parse_args(argv)

    from starlib.edst import auto_trees, er_edsts, generic_trees
    from starlib.edst.depth import depth_lower_bound, improve_depth
    from starlib.factors import polarfly
    from starlib.networks import bundlefly, polarstar, slimfly

    warm = slimfly(5)
    improve_depth(warm, auto_trees(warm))
    depth_lower_bound(warm, 3)

    nets = [("Slim Fly MMS(7)", lambda: slimfly(7)), ("Slim Fly MMS(11)", lambda: slimfly(11)),
            ("Slim Fly MMS(13)", lambda: slimfly(13)), ("Bundlefly MMS(4) * QR(9)", lambda: bundlefly(4, 9)),
            ("Bundlefly MMS(7) * QR(5)", lambda: bundlefly(7, 5)),
            ("PolarStar ER_3 * IQ(7)", lambda: polarstar(3, d=7)),
            ("PolarStar ER_5 * QR(9)", lambda: polarstar(5, paley_q=9))]
    if args.large:
        nets += [("Slim Fly MMS(29)", lambda: slimfly(29)), ("Slim Fly MMS(43)", lambda: slimfly(43))]
    rows = []
    for name, make in nets:
        g = make()
        for method, build in (("auto", auto_trees), ("generic", generic_trees)):
            rows.append(_row(name, g, method, build(g), depth_lower_bound, improve_depth))
    for q in (11, 23):
        g = polarfly(q)
        for method in ("hamiltonian", "low-depth"):
            rows.append(_row(f"PolarFly ER_{q}", g, method, er_edsts(q, method, graph=g), depth_lower_bound,
                             improve_depth))
    head = ("| network | n | links | input | trees | depth before | depth after | mean after | lower bound "
            "| bound s | search s |\n|---|---|---|---|---|---|---|---|---|---|---|")
    text = head + "\n" + "\n".join(rows) + "\n"
    print(text)
    out = ROOT / "build" / "depth_bench.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    return 0


def _row(name, g, method, trees, depth_lower_bound, improve_depth) -> str:
    t = time.perf_counter()
    bound = depth_lower_bound(g, len(trees))
    tb = time.perf_counter() - t
    t = time.perf_counter()
    out = improve_depth(g, trees)
    ts = time.perf_counter() - t
    d = out.depths()
    return (f"| {name} | {g.n} | {g.m} | {method} | {len(trees)} | {max(trees.depths())} | {max(d)} | "
            f"{sum(d) / len(d):.2f} | {bound.value} ({bound.argument}) | {tb:.3f} | {ts:.2f} |")


if __name__ == "__main__":
    raise SystemExit(main())
