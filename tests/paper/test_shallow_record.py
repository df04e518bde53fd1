"""The committed shallow families of notebook 13 (``data/maximum_shallow.csv``): complete, intact, and reproducible.

A sample of rows is recomputed by the same code and must give the same bytes (every row under ``-m slow``), so a
change to the search that changes the table cannot pass with a stale record.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
from pathlib import Path

import pytest

from starlib.edst import check_edsts
from starlib.paper.catalog import build, parse_params_text
from starlib.paper.shallow_record import COLUMNS, read_shallow_record, record_row, recorded_family
from starlib.paper.shallow_study import shallow_row
from tests.paths import ROOT

RECORD = ROOT / "data" / "maximum_shallow.csv"
TABLE = ROOT / "paper_tables" / "maximum_shallow.csv"
#: Recomputed in every run: a deepened row (gap 1 after deepening), the Slim Fly depth-4 start, an ER_q row.
SAMPLE = [("polarstar-iq", "q=2 d=4"), ("slimfly", "q=8"), ("polarfly", "q=7")]


def _rows() -> list[dict[str, str]]:
    return list(read_shallow_record(RECORD).values())


def _recompute(row: dict[str, str], tmp_path: Path) -> dict:
    params = {k: int(v) for k, v in parse_params_text(row["parameters"]).items()}  # Table IV: integers only
    return record_row(row["network"], params, build(row["network"], params), out_dir=tmp_path,
                      generic_max_seconds=float(row["generic_max_seconds"]),
                      exact_max_seconds=float(row["exact_max_seconds"]), seed=int(row["seed"]))


def test_the_record_has_every_row_of_the_table_with_its_count_and_depth():
    import pandas as pd

    table = pd.read_csv(TABLE)
    record = read_shallow_record(RECORD)
    assert len(record) == len(table) == 159
    for r in table.to_dict("records"):
        row = record[(r["network"], r["parameters"])]
        assert (int(row["k"]), int(row["max_depth"]), row["start"]) == (r["shallow_trees"], r["shallow_depth"],
                                                                        r["shallow_start"]), r


def test_every_family_file_has_its_recorded_digest_and_no_file_is_extra():
    record = _rows()
    folder = RECORD.with_suffix("")
    assert sorted(p.name for p in folder.iterdir()) == sorted(r["family_file"] for r in record)
    for r in record:
        data = gzip.decompress((folder / r["family_file"]).read_bytes())
        assert hashlib.sha256(data).hexdigest() == r["family_sha256"], r
        assert tuple(r)[:len(COLUMNS)] == COLUMNS


@pytest.mark.parametrize("key", SAMPLE, ids=lambda k: f"{k[0]} {k[1]}")
def test_a_sampled_row_recomputes_to_the_same_bytes(key, tmp_path):
    row = read_shallow_record(RECORD)[key]
    again = _recompute(row, tmp_path)
    assert {c: str(v) for c, v in again.items()} == {c: row[c] for c in COLUMNS}


@pytest.mark.slow
@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['network']} {r['parameters']}")
def test_every_row_recomputes_to_the_same_bytes(row, tmp_path):
    again = _recompute(row, tmp_path)
    assert {c: str(v) for c, v in again.items()} == {c: row[c] for c in COLUMNS}


def test_a_recorded_family_is_verified_and_gives_the_row_the_search_gives():
    """The table's row from the record equals the row from a live search (Slim Fly MMS(5): small)."""
    g = build("slimfly", {"q": 5})
    record = read_shallow_record(RECORD)
    fam = recorded_family(record, "slimfly", {"q": 5}, g, generic_max_seconds=3.0, exact_max_seconds=5.0, seed=0)
    assert fam is not None
    check_edsts(g, fam)
    kw = dict(generic_max_seconds=3.0, exact_max_seconds=5.0, seed=0)
    assert shallow_row("slimfly", {"q": 5}, g, shallow=fam, **kw) == shallow_row("slimfly", {"q": 5}, g, **kw)


def test_a_record_made_otherwise_is_not_used_and_a_tampered_file_is_refused(tmp_path):
    g = build("slimfly", {"q": 5})
    folder = tmp_path / "maximum_shallow"
    folder.mkdir()
    shutil.copy(RECORD, tmp_path / "maximum_shallow.csv")
    name = read_shallow_record(RECORD)[("slimfly", "q=5")]["family_file"]
    shutil.copy(RECORD.with_suffix("") / name, folder / name)
    record = read_shallow_record(tmp_path / "maximum_shallow.csv")
    assert recorded_family(record, "slimfly", {"q": 5}, g, seed=1) is None  # another seed: searched live
    assert recorded_family(record, "slimfly", {"q": 5}, build("slimfly", {"q": 7})) is None  # another network size
    data = gzip.decompress((folder / name).read_bytes())
    (folder / name).write_bytes(gzip.compress(data.replace(b'"shallow"', b'"shallox"')))
    with pytest.raises(ValueError, match="SHA-256"):
        recorded_family(record, "slimfly", {"q": 5}, g)
