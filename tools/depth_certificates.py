"""Write ``data/depth_certificates.csv``: CP-SAT depth certificates for the small Table IV networks.

Usage: python tools/depth_certificates.py [-o data/depth_certificates.csv] [--time-limit 10] [--n-max 126]
(``make depth-certificates``)

The rows: every row of ``paper_tables/maximum_shallow.csv`` with ``n * k <= MAX_VERTEX_TREES`` (the solver's size
limit, ``k`` the table's ``shallow_trees``) **and** ``n <= 126`` routers (24 rows). The ``n`` rule is the time
budget: measured on 2 shared cores, a depth CP-SAT leaves open at 10 deterministic seconds costs about 20 s wall
(Slim Fly MMS(4), PolarFly ER_7), the 24 rows up to ``n = 126`` took about 11 minutes with the deeper starts of
the first run, and the next row (Slim Fly MMS(8), ``n = 128``, ``k = 6``) had not finished after 5 minutes
wall, so the remaining 29 rows (up to ``n * k = 2000``) would take well over the ~25 minutes allowed. Each row
is :func:`starlib.paper.depth_certificates.certify_row` with ``time_limit`` deterministic seconds per depth,
seed 0, one worker: the statuses and families are the same on every run. Families below the shallow start go to
``data/depth_certificates/`` (starlib JSON, atomic); the record is rewritten atomically after every row, sorted
by network and parameters, with no wall-clock column.

Rows listed in :data:`starlib.paper.depth_certificates.LONG_TIME_LIMITS` get their longer limit instead (300 for
Slim Fly MMS(4) and Bundlefly MMS(3) * QR(5), which refute depth 3 in about 2 minutes and 40 s). A family file
that no row names any more (a start that became as shallow as CP-SAT's family) is removed, so the folder holds
exactly the record's families. The committed record is this tool's output on the current ``shallow_trees`` (with
the committed depth-3 families of ER_q and Slim Fly MMS(7) and the targeted deepening): every row is optimal,
and no row needs a family file, since every start already meets its proved bound. The whole run takes 2 to 3
minutes.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from starlib.edst.depth.exact import MAX_VERTEX_TREES  # noqa: E402
from starlib.paper.depth_certificates import COLUMNS, KEY, certify_row, row_time_limit  # noqa: E402
from starlib.sweep.record import write_record  # noqa: E402

#: The largest network (routers) certified (the time budget; module text).
N_MAX = 126


def main(argv: list[str] | None = None) -> int:
    """Run :func:`certify_row` over the selected Table IV rows and write the record."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default=str(ROOT / "data" / "depth_certificates.csv"))
    ap.add_argument("--table", default=str(ROOT / "paper_tables" / "maximum_shallow.csv"))
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--n-max", type=int, default=N_MAX)
    args = ap.parse_args(argv)
    if args.time_limit <= 0:
        ap.error(f"--time-limit={args.time_limit}: need a deterministic time limit > 0")
    with open(args.table, newline="") as fh:
        table = [r for r in csv.DictReader(fh)
                 if int(r["n"]) * int(r["shallow_trees"]) <= MAX_VERTEX_TREES and int(r["n"]) <= args.n_max]
    table.sort(key=lambda r: (int(r["n"]), r["network"], r["parameters"]))
    out_dir = Path(args.out).with_suffix("")
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for r in table:
        limit = row_time_limit(r["network"], r["parameters"], args.time_limit)
        row = certify_row(r["network"], r["parameters"], time_limit=limit, seed=0, out_dir=out_dir)
        rows.append(row)
        write_record(args.out, rows, columns=COLUMNS, key=KEY)
        print(f"{row['network']} {row['parameters']}: k={row['k']} bound={row['per_tree_bound']} "
              f"proved={row['proved_lower']} best={row['best_depth']} {row['status']}", flush=True)
    kept = {row["family_file"] for row in rows}
    for stale in sorted(p for p in out_dir.glob("*.json") if p.name not in kept):
        stale.unlink()  # a family of an earlier run that no row names any more (its start is now as shallow)
        print(f"removed {stale.name}: no row names it", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
