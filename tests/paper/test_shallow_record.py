"""The committed shallow families of notebook 13 (``data/maximum_shallow.csv``): complete, intact, and reproducible.

A sample of rows is recomputed by the same code and must give the same bytes (every row under ``-m slow``), so a
change to the search that changes the table cannot pass with a stale record. The seed rule
(:func:`~starlib.paper.shallow_record.seeded_family`) is checked on a row it improves (depth 5 with seed 0, 4 with
the seed kept) and on a row it leaves to seed 0.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
from pathlib import Path

import pytest

from starlib.edst import check_edsts
from starlib.edst.depth import depth_lower_bound
from starlib.paper import shallow_record
from starlib.paper.catalog import build, parse_params_text
from starlib.paper.shallow_record import (
    COLUMNS,
    SEED_ROUTERS,
    SEEDS,
    read_shallow_record,
    record_row,
    recorded_family,
    seed_count,
    seeded_family,
)
from starlib.paper.shallow_study import shallow_row
from tests.paths import ROOT

RECORD = ROOT / "data" / "maximum_shallow.csv"
TABLE = ROOT / "paper_tables" / "maximum_shallow.csv"
#: Recomputed in every run: a deepened row (gap 1 after deepening), the Slim Fly depth-4 start, an ER_q row.
SAMPLE = [("polarstar-iq", "q=2 d=4"), ("slimfly", "q=8"), ("polarfly", "q=7")]
#: The rows of at most 500 routers where seed 0 leaves a gap of 2 against the counting bound 3 (depth 5), with the
#: seed the rule keeps (depth 4).
GAP_ROWS = {("polarstar-iq", "q=4 d=8"): 3, ("polarstar-paley", "q=4 paley_q=17"): 1,
            ("polarstar-paley", "q=9 paley_q=5"): 1}
#: The gap row recomputed in every run: the cheapest of the three (four searches, about 40 s).
GAP_SAMPLE = ("polarstar-paley", "q=4 paley_q=17")


def _rows() -> list[dict[str, str]]:
    return list(read_shallow_record(RECORD).values())


def _recompute(row: dict[str, str], tmp_path: Path) -> dict:
    params = {k: int(v) for k, v in parse_params_text(row["parameters"]).items()}  # Table IV: integers only
    return record_row(row["network"], params, build(row["network"], params), out_dir=tmp_path,
                      generic_max_seconds=float(row["generic_max_seconds"]),
                      exact_max_seconds=float(row["exact_max_seconds"]), seed=int(row["first_seed"]))


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


def _spy_seeds(monkeypatch) -> list[int]:
    """Record the seed of every search the record module runs (:func:`~starlib.edst.depth.shallowest`)."""
    seeds: list[int] = []
    real = shallow_record.shallowest

    def spy(graph, starts, *, seed=0, **kw):
        seeds.append(seed)
        return real(graph, starts, seed=seed, **kw)

    monkeypatch.setattr(shallow_record, "shallowest", spy)
    return seeds


def test_the_rule_tried_more_seeds_exactly_on_the_gap_rows_and_kept_depth_4():
    """Every row of at most 500 routers may try SEEDS seeds; the three gap rows kept a seed at depth 4, the rest 0."""
    record = read_shallow_record(RECORD)
    for (network, parameters), row in record.items():
        assert (int(row["first_seed"]), int(row["seeds"])) == (0, SEEDS if int(row["n"]) <= SEED_ROUTERS else 1)
        kept = GAP_ROWS.get((network, parameters), 0)
        assert int(row["seed"]) == kept, (network, parameters)
    for key in GAP_ROWS:
        params = {k: int(v) for k, v in parse_params_text(key[1]).items()}
        g = build(key[0], params)
        fam = recorded_family(record, key[0], params, g)
        assert fam is not None
        check_edsts(g, fam)
        assert (max(fam.depths()), int(depth_lower_bound(g, len(fam)).value)) == (4, 3), key


def test_a_gap_row_tries_every_seed_and_recomputes_to_the_recorded_bytes(monkeypatch, tmp_path):
    """Seed 0 leaves depth 5 (bound 3): seeds 1 to 3 run too, and the kept family is the record's, of depth 4."""
    row = read_shallow_record(RECORD)[GAP_SAMPLE]
    seeds = _spy_seeds(monkeypatch)
    again = _recompute(row, tmp_path)
    assert seeds == list(range(SEEDS))
    assert (again["max_depth"], again["seed"], again["seeds"]) == (4, GAP_ROWS[GAP_SAMPLE], SEEDS)
    assert {c: str(v) for c, v in again.items()} == {c: row[c] for c in COLUMNS}
    data = gzip.decompress((tmp_path / row["family_file"]).read_bytes())
    assert hashlib.sha256(data).hexdigest() == row["family_sha256"]
    assert data == gzip.decompress((RECORD.with_suffix("") / row["family_file"]).read_bytes())


def test_a_row_without_a_gap_runs_only_its_first_seed(monkeypatch, tmp_path):
    """Slim Fly MMS(5): 50 routers, depth 4 against the counting bound 3 (gap 1): seed 0 alone, as recorded."""
    row = read_shallow_record(RECORD)[("slimfly", "q=5")]
    seeds = _spy_seeds(monkeypatch)
    again = _recompute(row, tmp_path)
    assert seeds == [0]
    assert (again["max_depth"], again["seed"], again["first_seed"], again["seeds"]) == (4, 0, 0, SEEDS)
    assert {c: str(v) for c, v in again.items()} == {c: row[c] for c in COLUMNS}
    seeds.clear()
    fam, kept = seeded_family(build("slimfly", {"q": 5}), seed=2)
    assert (seeds, kept, max(fam.depths())) == ([2], 2, 4)


def test_the_seed_rule_and_its_arguments():
    assert [seed_count(n) for n in (1, 455, 500, 501, 504)] == [SEEDS, SEEDS, SEEDS, 1, 1]
    assert (seed_count(455, seeds=1), seed_count(455, seed_routers=400), seed_count(455, seed_routers=455)) == (
        1, 1, SEEDS)
    with pytest.raises(ValueError, match=r"seeds=0 is too small: need a number of seeds >= 1"):
        seed_count(50, seeds=0)
    with pytest.raises(ValueError, match=r"seed_routers=-1 is too small"):
        seed_count(50, seed_routers=-1)
    with pytest.raises(ValueError, match=r"n=0 is too small"):
        seed_count(0)
    with pytest.raises(ValueError, match=r"seed=-1 is too small: need a seed >= 0"):
        seeded_family(build("slimfly", {"q": 5}), seed=-1)
    record = read_shallow_record(RECORD)
    with pytest.raises(ValueError, match=r"seeds=2.5 is not an integer"):
        recorded_family(record, "slimfly", {"q": 5}, build("slimfly", {"q": 5}), seeds=2.5)


def test_a_record_made_with_another_seed_rule_is_not_used():
    g = build("slimfly", {"q": 5})
    record = read_shallow_record(RECORD)
    assert recorded_family(record, "slimfly", {"q": 5}, g) is not None
    assert recorded_family(record, "slimfly", {"q": 5}, g, seeds=1) is None  # one seed only: searched live
    assert recorded_family(record, "slimfly", {"q": 5}, g, seed_routers=40) is None  # 50 routers: one seed
    big = build("polarstar-iq", {"q": 4, "d": 12})  # 546 routers: one seed under any number of seeds
    assert int(record[("polarstar-iq", "q=4 d=12")]["seeds"]) == 1
    assert recorded_family(record, "polarstar-iq", {"q": 4, "d": 12}, big, seeds=7) is not None
    assert recorded_family(record, "polarstar-iq", {"q": 4, "d": 12}, big, seed_routers=600) is None
