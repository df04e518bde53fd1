"""Time of ``shallow_trees`` against its targets: <= 10 s per network up to 1e5 links, <= 60 s on
Bundlefly MMS(29) * QR(29) (1,390,173 links).

Run: ``.venv/bin/python benchmarks/bench_shallow.py [--large]`` (``make bench`` uses the defaults). For each network
it prints links, the count and maximum depth of ``auto_trees`` (built in the same run), the count, maximum and mean
depth of ``shallow_trees``, the lower bound, and the seconds of ``shallow_trees`` (starts, exact packer where it
runs, local search) and of the lower bound. ``--large`` adds Slim Fly MMS(43) (120,185 links), PolarFly ER_47
(54,144 links) and Bundlefly MMS(29) * QR(29). The first call compiles the kernels (cached on disk), so one warm-up
run on a small graph precedes the timings. The table also goes to ``build/shallow_bench.md`` (timings are
machine-dependent, so never to ``paper_tables/``).
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
    ap.add_argument("--large", action="store_true", help="add MMS(43), ER_47 and Bundlefly MMS(29) * QR(29)")
    args = ap.parse_args(argv)

    from starlib.edst import auto_trees, shallow_trees
    from starlib.edst.depth import depth_lower_bound
    from starlib.factors import polarfly
    from starlib.networks import bundlefly, polarstar, slimfly

    shallow_trees(slimfly(5))  # compile (or load) the kernels
    nets = [("Slim Fly MMS(7)", lambda: slimfly(7)), ("Slim Fly MMS(13)", lambda: slimfly(13)),
            ("Bundlefly MMS(4) * QR(9)", lambda: bundlefly(4, 9)),
            ("Bundlefly MMS(7) * QR(5)", lambda: bundlefly(7, 5)),
            ("PolarStar ER_3 * IQ(7)", lambda: polarstar(3, d=7)),
            ("PolarStar ER_5 * QR(9)", lambda: polarstar(5, paley_q=9)), ("PolarFly ER_23", lambda: polarfly(23)),
            ("Slim Fly MMS(29)", lambda: slimfly(29)), ("Bundlefly MMS(9) * QR(17)", lambda: bundlefly(9, 17))]
    if args.large:
        nets += [("Slim Fly MMS(43)", lambda: slimfly(43)), ("PolarFly ER_47", lambda: polarfly(47)),
                 ("Bundlefly MMS(29) * QR(29)", lambda: bundlefly(29, 29))]
    rows = []
    for name, make in nets:
        g = make()
        a = auto_trees(g)
        t0 = time.perf_counter()
        s = shallow_trees(g)
        t1 = time.perf_counter()
        lb = depth_lower_bound(g, len(s)).value
        t2 = time.perf_counter()
        d = s.depths()
        rows.append(f"| {name} | {g.m:,} | {len(a)} / {max(a.depths())} | {len(s)} / {max(d)} | "
                    f"{sum(d) / len(d):.2f} | {lb} | {s[0].meta['start']} | {t1 - t0:.2f} | {t2 - t1:.2f} |")
        print(rows[-1], flush=True)
    head = ("| network | links | auto (trees / depth) | shallow (trees / depth) | mean depth | lower bound | start "
            "| shallow s | bound s |\n|---|---|---|---|---|---|---|---|---|")
    text = head + "\n" + "\n".join(rows) + "\n"
    print(text)
    out = ROOT / "build" / "shallow_bench.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
