"""Tests for starlib.paper.table4: Table IV formulas, proofs, built instances, the Maybe row, and the table writers."""

import pandas as pd
import pytest
import sympy

from starlib.bounds import eq1_bound
from starlib.paper import table4
from starlib.paper.formulas import counts
from starlib.paper.tables import write_table


def test_parse_and_evaluate():
    assert table4.evaluate("(3*q - 1)/2 + (q' - 1)/2", {"q": 5, "paley_q": 13}) == 13
    assert table4.evaluate("(q + d')/2 - 1", {"q": 3, "d": 7}) == 4
    with pytest.raises(ValueError, match="not an integer"):
        table4.evaluate("q/2", {"q": 3})
    with pytest.raises(ValueError, match="needs"):
        table4.evaluate("q + d'", {"q": 3})
    with pytest.raises(ValueError, match="uses"):
        table4.parse("q + x")


def test_twelve_rows_in_paper_order():
    assert len(table4.TABLE_IV) == 12
    assert [r.theorem for r in table4.TABLE_IV] == ["V-C.10", "V-C.3", "V-C.10"] * 2 + [
        "V-C.10", "V-C.11", "V-C.10", "V-C.10", "V-C.11", "V-C.11"]
    assert [r.max_word for r in table4.TABLE_IV].count("Maybe") == 1 and table4.TABLE_IV[-1].max_word == "Maybe"


@pytest.mark.parametrize(("family", "params", "case"), [
    ("slimfly", {"q": 5}, "delta = 1 (q = 1 mod 4)"), ("slimfly", {"q": 8}, "delta = 0 (q = 0 mod 4)"),
    ("slimfly", {"q": 7}, "delta = -1 (q = 3 mod 4)"),
    ("bundlefly", {"q": 3, "paley_q": 5}, "delta = -1 (q = 3 mod 4)"),
    ("polarstar-paley", {"q": 4, "paley_q": 9}, "q even"), ("polarstar-iq", {"q": 9, "d": 4}, "q odd, d' = 0 mod 4")])
def test_row_for(family, params, case):
    assert table4.row_for(family, params).case == case


def test_row_for_rejects_other_families():
    with pytest.raises(ValueError, match="not in Table IV"):
        table4.row_for("hyperx", {"q": 3})


@pytest.mark.parametrize("row", table4.TABLE_IV, ids=lambda r: f"{r.family}:{r.case}")
def test_rows_proved_and_match_closed_counts(row):
    """The symbolic proof holds, and at concrete parameters the bound equals eq. (1) on the closed-form counts of
    starlib.paper.formulas (an independent source of n and m)."""
    p = table4.prove_row(row)
    assert p["integral"] and p["floor"] and p["degree"]
    assert str(p["gap"]) == ("1" if row.max_word == "Maybe" else "0")
    samples = {"slimfly": [{"q": q} for q in (3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27)],
               "bundlefly": [{"q": q, "paley_q": p} for q in (3, 4, 5, 7, 8, 9) for p in (5, 9, 13, 17)],
               "polarstar-paley": [{"q": q, "paley_q": p} for q in (2, 3, 4, 5, 7, 8, 9) for p in (5, 9, 13)],
               "polarstar-iq": [{"q": q, "d": d} for q in (2, 3, 4, 5, 7, 8, 9) for d in (3, 4, 7, 8, 11, 12)]}
    hits = 0
    for params in samples[row.family]:
        if not row.applies(params):
            continue
        c = counts(row.family, **params)
        assert eq1_bound(c["n"], c["m"]) == table4.evaluate(row.bound, params)
        lo, hi = (table4.evaluate(d, params) for d in row.degrees)
        assert c["degrees"] == sorted({lo, hi})
        hits += 1
    assert hits >= 2


def test_prove_row_can_fail():
    """A wrong bound is caught: for Slim Fly with delta = 1, one more than the bound leaves R < 0."""
    bad = table4.Table4Row(**{**table4.TABLE_IV[0].__dict__, "bound": "3*(q - 1)/4 + 1"})
    assert not table4.prove_row(bad)["floor"]


def test_instance_row_hoffman_singleton():
    """MMS(5) is the Hoffman-Singleton graph: 50 vertices, 7-regular, 175 edges, so at most 3 EDSTs."""
    r = table4.instance_row("slimfly", {"q": 5})
    assert (r["vertices"], r["edges"], r["degree"], r["upper_bound"]) == (50, 175, "7", 3)
    assert r["constructed"] == 3 and r["maximum"] and r["verified"] and r["agree"]


def test_degree_string_and_grid():
    grid = table4.instance_grid(8, 4, 3, 9, 7)
    fams = [f for f, _ in grid]
    assert fams.count("slimfly") == 5 and fams.count("bundlefly") == 4
    assert fams.count("polarstar-paley") == 4 and fams.count("polarstar-iq") == 6
    row = table4.instance_row("polarstar-paley", {"q": 3, "paley_q": 5})
    assert row["degree"] == "5-6" and row["theorem"] == "V-C.11" and row["agree"]


def test_default_grid_ranges():
    """Slim Fly every admissible q <= 32; Bundlefly q <= 9, q' <= 17; PolarStar q <= 16 with q' <= 17, d' <= 12."""
    pp = [q for q in range(2, 33) if len(sympy.factorint(q)) == 1]
    mms = [q for q in pp if q >= 3 and q % 4 != 2]
    paley = [q for q in pp if q % 4 == 1 and q <= 17]
    er = [q for q in pp if q <= 16]
    iq = [d for d in range(3, 13) if d % 4 in (0, 3)]
    grid = table4.instance_grid()
    by = {f: [p for g, p in grid if g == f] for f in ("slimfly", "bundlefly", "polarstar-paley", "polarstar-iq")}
    assert [p["q"] for p in by["slimfly"]] == mms and mms[-1] == 32 and len(mms) == 17
    assert by["bundlefly"] == [{"q": q, "paley_q": p} for q in mms if q <= 9 for p in paley]
    assert by["polarstar-paley"] == [{"q": q, "paley_q": p} for q in er for p in paley]
    assert by["polarstar-iq"] == [{"q": q, "d": d} for q in er for d in iq]
    assert len(grid) == 141


def test_instances_writer_has_exactly_the_required_columns(tmp_path):
    df = table4.instances_frame([("slimfly", {"q": 3}), ("polarstar-iq", {"q": 3, "d": 3}),
                                 ("bundlefly", {"q": 4, "paley_q": 5})])
    write_table(df[list(table4.INSTANCE_COLUMNS)], "table4_instances", tmp_path)
    head = (tmp_path / "table4_instances.csv").read_text().splitlines()[0]
    assert head == "network,parameters,vertices,edges,degree,upper_bound,theorem,constructed,maximum,verified"
    back = pd.read_csv(tmp_path / "table4_instances.csv")
    assert back["parameters"].tolist() == ["q=3", "q=3 d=3", "q=4 paley_q=5"]
    assert back["maximum"].tolist() == [True, False, True] and back["verified"].all()


def test_maybe_row_exact_maximum():
    """ER_3 * IQ(3): n = 104, m = 348, bound 3; the exact packing finds 3, Corollary V-C.11 builds 2."""
    r = table4.maybe_row(3, 3)
    assert (r["vertices"], r["edges"], r["upper_bound"]) == (104, 348, 3)
    assert r["constructed"] == 2 and r["exact_maximum"] == 3 and r["verified"]
    assert not r["construction_is_maximum"]
    with pytest.raises(ValueError, match="q=4"):
        table4.maybe_row(4, 3)
    with pytest.raises(ValueError, match="d=4"):
        table4.maybe_row(3, 4)


def test_table_iv_frame_and_writer(tmp_path):
    grid = [("slimfly", {"q": q}) for q in (3, 4, 5)] + [("polarstar-iq", {"q": 3, "d": 3})]
    t4 = table4.table_iv_frame(table4.instances_frame(grid), table4.maybe_frame([(3, 3)]))
    assert len(t4) == 12
    assert t4["instances"].tolist() == [1, 1, 1] + [0] * 8 + [1]
    assert t4["Max? (computed)"].iloc[0] == "yes"
    assert t4["Max? (computed)"].iloc[-1] == ("no: bound attained by exact packing in 1 of 1 packed (of 1 instances), "
                                              "construction 1 short")
    write_table(t4, "table4", tmp_path)
    assert pd.read_csv(tmp_path / "table4.csv")["Max?"].tolist()[-1] == "Maybe"


def test_prop_iv1_forms_match_the_edge_counts():
    for params in ({"q": 3, "d": 3}, {"q": 4, "d": 7}, {"q": 5, "d": 8}):
        case, a, b = table4.prop_iv1_form("polarstar-iq", params)
        c = counts("polarstar-iq", **params)
        assert c["m"] == a * c["n"] + b and 0 <= b < c["n"]
    with pytest.raises(ValueError, match="family"):
        table4.prop_iv1_form("slimfly", {"q": 3})


def test_nested_counts():
    r = table4.nested_counts(4, 9)
    assert (r["maximum_of_maximum"], r["universal_of_universal"], r["verified"]) == (5, 1, True)
    with pytest.raises(ValueError, match="q=3"):
        table4.nested_counts(3, 5)
