"""EDST construction and verification times: the paper's constructions against the exact generic packer.

Run: ``.venv/bin/python benchmarks/bench_edsts.py`` (``make bench``). Never part of the tests. Prints, from one
run, the measured times and the ratios the project targets:

1. Bundlefly ``MMS(29) * QR(29)`` (48,778 routers, ~1.39M links): the 28 EDSTs of Corollary V-C.10 (21 from the
   Slim Fly structure graph, itself built by the constructions on ``K_{29,29} * C(X)``, plus 7 from the Paley
   supernode) are built and verified. Targets: construction + verification <= 10 s, construction <= 5x the
   product's edge-list build time.
2. Slim Fly ``MMS(13)`` (338 routers, 3,211 links): ``maximum_trees`` against ``generic_packing`` at the same
   number of trees (9, the maximum). Target: the construction >= 100x faster.

Times are ``time.perf_counter`` seconds, best of a few runs (the first call, which includes imports and GF(q)
table caching, is reported separately where it matters).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import galois  # noqa: E402,F401  (its import is not construction time)
from _timing import best_of  # noqa: E402

from starlib.edst import auto_trees, generic_packing, maximum_trees, verify_edsts  # noqa: E402
from starlib.networks import bundlefly, slimfly  # noqa: E402


def bundlefly_29() -> None:
    first_build, build, P = best_of(lambda: bundlefly(29, 29), 3)
    first_con, con, trees = best_of(lambda: auto_trees(P), 3)
    _, ver, report = best_of(lambda: verify_edsts(P, trees), 3)
    t0 = time.perf_counter()
    depths = trees.depths()
    t_depth = time.perf_counter() - t0
    assert report.valid, report.problems[:3]
    print("Bundlefly MMS(29) * QR(29)")
    print(f"  routers n = {P.n:,}, links m = {P.m:,}, trees = {len(trees)} ({trees.theorem}), "
          f"constructions {trees.counts()}")
    print(f"  product edge-list build   {build:8.3f} s   (first call {first_build:.3f} s)")
    print(f"  EDST construction         {con:8.3f} s   (first call {first_con:.3f} s)")
    print(f"  verification              {ver:8.3f} s   valid = {report.valid}")
    print(f"  tree depths (BFS)         {t_depth:8.3f} s   min {min(depths)}, max {max(depths)}")
    print(f"  construction / build      {con / build:8.2f} x   (target <= 5)")
    print(f"  construction + verify     {con + ver:8.3f} s   (target <= 10)")


def mms_13() -> None:
    P = slimfly(13)
    first_con, con, trees = best_of(lambda: maximum_trees(P), 7)
    _, gen, pack = best_of(lambda: generic_packing(P), 2)
    assert len(trees) == pack.count == 9
    assert verify_edsts(P, trees).valid and verify_edsts(P, pack.trees).valid
    print("Slim Fly MMS(13), 9 EDSTs each")
    print(f"  routers n = {P.n}, links m = {P.m}")
    print(f"  maximum_trees (V-C.10)    {con:8.4f} s   (first call {first_con:.4f} s)")
    print(f"  generic_packing (exact)   {gen:8.4f} s")
    print(f"  generic / construction    {gen / con:8.1f} x   (target >= 100)")


if __name__ == "__main__":
    bundlefly_29()
    mms_13()
