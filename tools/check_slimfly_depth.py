"""Build, verify and record Slim Fly MMS(q) at its maximum EDST count with depth <= 4, every admissible q <= Q.

Writes ``data/slimfly_depth.csv`` (default), one row per admissible ``q`` (a prime power ``q >= 3``,
``q = 0, 1 or 3 (mod 4)``): ``q, n, links, trees, upper_bound, lower_bound, max_depth, verified, stage, sha256``.
``trees`` is :func:`starlib.edst.depth.slimfly.slimfly_shallow_trees`'s count, ``upper_bound`` eq. (1)
(:func:`starlib.bounds.upper_bound`), ``lower_bound`` the depth lower bound for that count
(:func:`starlib.edst.depth.depth_lower_bound`), ``verified`` the verdict of
:func:`starlib.edst.verify.verify_edsts` run here again on the family, ``stage`` the step that reached the depth
(``ls`` or ``repair``) and ``sha256`` :func:`~starlib.edst.depth.slimfly.family_sha256` of the family
(seed 0), so a rerun can be compared row by row. No timings: every column is reproducible.

Usage::

    .venv/bin/python tools/check_slimfly_depth.py [--q-max 128] [-o data/slimfly_depth.csv]

``make slimfly-depth`` runs it with the defaults. About 80 s on one core for ``q <= 64`` and about 50 minutes for
``q <= 128`` (MMS(128): 32,768 vertices, 3.1 million links, 96 trees). Exits with status 1 if any row misses
the count, the depth or the verifier.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from starlib.bounds import upper_bound
from starlib.edst.depth.slimfly import TARGET_DEPTH, family_sha256, slimfly_shallow_trees
from starlib.edst.verify import verify_edsts
from starlib.factors import MMS_ORDER
from starlib.networks import slimfly

COLUMNS = ["q", "n", "links", "trees", "upper_bound", "lower_bound", "max_depth", "verified", "stage", "sha256"]
ROOT = Path(__file__).resolve().parents[1]


def admissible(q_max: int) -> list[int]:
    """Every admissible MMS order ``3 <= q <= q_max`` (those :data:`~starlib.factors.MMS_ORDER` accepts)."""
    out = []
    for q in range(3, q_max + 1):
        try:
            MMS_ORDER(q, "q")
        except ValueError:
            continue
        out.append(q)
    return out


def row(q: int) -> dict[str, object]:
    """One record row: build the family for ``q``, verify it again, summarise it."""
    P = slimfly(q)
    T = slimfly_shallow_trees(q, P)
    rep = verify_edsts(P, T)
    return {"q": q, "n": int(P.n), "links": int(P.m), "trees": len(T), "upper_bound": int(upper_bound(P)),
            "lower_bound": int(T[0].meta["lower_bound"]), "max_depth": max(T.depths()), "verified": bool(rep.valid),
            "stage": T[0].meta["stage"], "sha256": family_sha256(T)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--q-max", type=int, default=128)
    ap.add_argument("-o", "--output", type=Path, default=ROOT / "data" / "slimfly_depth.csv")
    args = ap.parse_args(argv)
    rows = []
    ok = True
    for q in admissible(args.q_max):
        r = row(q)
        rows.append(r)
        good = r["verified"] and r["trees"] == r["upper_bound"] and int(r["max_depth"]) <= TARGET_DEPTH
        ok &= bool(good)
        print(",".join(str(r[c]) for c in COLUMNS[:-1]), flush=True)
    with open(args.output, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
