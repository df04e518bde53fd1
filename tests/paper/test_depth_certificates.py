"""The committed depth certificates (data/depth_certificates.csv and data/depth_certificates/) re-checked.

Every family file is re-read and re-verified (k EDSTs of the stated depth, the digest of the record); the cheapest
refuted depths are re-solved on the stated model with the recorded time limit and seed; the columns agree.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import pytest

from starlib.edst.depth import exact
from starlib.edst.verify import check_edsts
from starlib.io import read_json
from starlib.paper.catalog import build, parse_params_text
from starlib.paper.depth_certificates import (
    COLUMNS,
    LONG_TIME_LIMITS,
    certify_row,
    family_filename,
    row_time_limit,
)

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "data" / "depth_certificates.csv"
FAMILIES = ROOT / "data" / "depth_certificates"


def _rows() -> list[dict[str, str]]:
    with open(RECORD, newline="") as fh:
        return list(csv.DictReader(fh))


ROWS = _rows()
with open(ROOT / "paper_tables" / "maximum_shallow.csv", newline="") as _fh:
    TABLE = {(r["network"], r["parameters"]): r for r in csv.DictReader(_fh)}
WITH_FAMILY = [r for r in ROWS if r["family_file"]]
# the three cheapest refutations (short time limits first, then the smallest models) are re-solved
REFUTED = sorted((r for r in ROWS if r["refuted"]),
                 key=lambda r: (float(r["time_limit"]), int(r["n"]) * int(r["k"])))[:3]


def test_record_columns_and_order() -> None:
    with open(RECORD, newline="") as fh:
        assert tuple(next(csv.reader(fh))) == COLUMNS
    keys = [(r["network"], r["parameters"]) for r in ROWS]
    assert len(set(keys)) == len(keys) and len(ROWS) > 0


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['network']} {r['parameters']}")
def test_row_consistent(row: dict[str, str]) -> None:
    b, lo, best, start = (int(row[c]) for c in ("per_tree_bound", "proved_lower", "best_depth", "start_depth"))
    assert lo >= b and best >= lo and start >= best
    assert row["status"] == ("optimal" if best == lo else "open")
    refuted = [int(d) for d in row["refuted"].split()]
    assert lo == (max(refuted) + 1 if refuted else b)
    assert row["model"] == exact.MODEL[0]
    # the Table IV row it certifies: same network, count and counting bound; the table's family (its start may have
    # become shallower since the record was made) never beats the proved bound, and the table reads that bound
    table = TABLE[row["network"], row["parameters"]]
    assert (row["n"], row["k"], row["per_tree_bound"]) == (table["n"], table["shallow_trees"], table["lower_bound"])
    assert int(table["shallow_depth"]) >= lo
    if "proved_lower" in table:
        assert int(table["proved_lower"]) == lo
    assert int(row["n"]) * int(row["k"]) <= exact.MAX_VERTEX_TREES
    assert (row["family_file"] == "") == (row["family_sha256"] == "") == (best == start)
    if row["family_file"]:
        assert row["family_file"] == family_filename(row["network"], row["parameters"])


def test_no_stray_family_files() -> None:
    assert sorted(p.name for p in FAMILIES.glob("*.json")) == sorted(r["family_file"] for r in WITH_FAMILY)


@pytest.mark.parametrize("row", WITH_FAMILY, ids=lambda r: r["family_file"])
def test_family_file_verifies(row: dict[str, str]) -> None:
    path = FAMILIES / row["family_file"]
    assert hashlib.sha256(path.read_bytes()).hexdigest() == row["family_sha256"]
    f = read_json(path)
    assert f.network == row["network"] and int(f.graph.n) == int(row["n"]) and int(f.graph.m) == int(row["links"])
    assert f.trees is not None and len(f.trees) == int(row["k"])
    check_edsts(f.graph, f.trees)
    assert max(f.trees.depths()) == int(row["best_depth"])


@pytest.mark.parametrize("row", REFUTED, ids=lambda r: f"{r['network']} {r['parameters']}")
def test_refuted_depth_still_infeasible(row: dict[str, str]) -> None:
    # the stated model, the recorded time limit and seed, one worker, no hint (the refutation needs no start)
    g = build(row["network"], {k: int(v) for k, v in parse_params_text(row["parameters"]).items()})
    for D in (int(d) for d in row["refuted"].split()):
        s = exact.depth_feasible(g, int(row["k"]), D, time_limit=float(row["time_limit"]), seed=int(row["seed"]),
                                 workers=1)
        assert s.status == "INFEASIBLE", (D, s.status)


def test_long_time_limits_are_recorded() -> None:
    # every row with a longer limit is in the record with that limit, and every other row has the default 10
    by_key = {(r["network"], r["parameters"]): float(r["time_limit"]) for r in ROWS}
    for key, limit in LONG_TIME_LIMITS.items():
        assert by_key[key] == limit
    assert all(v == 10.0 for k, v in by_key.items() if k not in LONG_TIME_LIMITS)
    assert row_time_limit("slimfly", "q=4", 10.0) == LONG_TIME_LIMITS["slimfly", "q=4"]
    assert row_time_limit("slimfly", "q=5", 10.0) == 10.0


def test_certify_row_rejects_bad_time_limit() -> None:
    with pytest.raises(ValueError, match="time_limit"):
        certify_row("polarfly", "q=2", time_limit=0)
