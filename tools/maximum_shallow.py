"""Write ``data/maximum_shallow.csv`` and ``data/maximum_shallow/``: the shallow family of every Table IV network.

Usage: python tools/maximum_shallow.py [-o data/maximum_shallow.csv] [--seed 0] [--seeds 4] [--seed-routers 500]
(``make maximum-shallow``)

The rows are notebook 13's network grid at its committed parameters (Slim Fly up to q = 32, Bundlefly up to
q = 9, PolarStar up to q = 16 with Paley supernodes up to 17 and Inductive-Quad supernodes up to degree 12, and
PolarFly ER_q up to q = 32: 159 networks), each run through
:func:`starlib.paper.shallow_record.record_row` with the notebook's budgets (the exact packer's 3 s and 5 s
estimates), seed and seed rule (:func:`starlib.paper.shallow_record.seeded_family`: a network of at most
``--seed-routers`` routers whose family is SEED_GAP (2) or more levels above the counting lower bound also tries
the next ``--seeds`` - 1 seeds and keeps the shallowest family). The families are written as starlib JSON next to
the record, and the record is rewritten atomically after every row, sorted by network and parameters, with no
wall-clock column: a rerun gives the same bytes. About 10 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from starlib.paper.catalog import build  # noqa: E402
from starlib.paper.shallow_record import COLUMNS, KEY, SEED_ROUTERS, SEEDS, record_row  # noqa: E402
from starlib.paper.table4 import instance_grid  # noqa: E402
from starlib.primes import is_prime_power  # noqa: E402
from starlib.sweep.record import write_record  # noqa: E402

#: Notebook 13's committed grid parameters: q_max, bundlefly_q_max, polarstar_q_max, paley_q_max, iq_d_max, er_q_max.
GRID = (32, 9, 16, 17, 12)
ER_Q_MAX = 32


def grid() -> list[tuple[str, dict]]:
    """Notebook 13's networks, in its order."""
    return instance_grid(*GRID) + [("polarfly", {"q": q}) for q in range(2, ER_Q_MAX + 1) if is_prime_power(q)]


def main(argv: list[str] | None = None) -> int:
    """Run :func:`record_row` over the grid and write the record and the family files."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--out", default=str(ROOT / "data" / "maximum_shallow.csv"))
    ap.add_argument("--seed", type=int, default=0, help="the local search's first seed")
    ap.add_argument("--seeds", type=int, default=SEEDS, help="the number of seeds a row with a gap may try")
    ap.add_argument("--seed-routers", type=int, default=SEED_ROUTERS,
                    help="only networks of at most this many routers try more than one seed")
    args = ap.parse_args(argv)
    out_dir = Path(args.out).with_suffix("")
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for network, params in grid():
        row = record_row(network, params, build(network, params), out_dir=out_dir, generic_max_seconds=3.0,
                         exact_max_seconds=5.0, seed=args.seed, seeds=args.seeds, seed_routers=args.seed_routers)
        rows.append(row)
        write_record(args.out, rows, columns=COLUMNS, key=KEY)
        print(f"{network} {row['parameters']}: k={row['k']} depth={row['max_depth']} from {row['start']}, "
              f"seed {row['seed']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
