"""Table V closed forms: symbolic proofs, independent values and measurement on built graphs."""

import pytest
import sympy as sp

from starlib.paper import table5 as ft


def test_twenty_cases_all_proved():
    cases = ft.table_v_cases()
    assert len(cases) == 20
    assert all(ft.prove_case(c).holds for c in cases)
    # every family has a case for each residue it admits, and cases do not overlap
    for fam, info in ft.FAMILIES.items():
        for v in range(2, 60):
            hits = [c for c in cases if c.family == fam and c.contains(v)]
            assert len(hits) <= 1
            if info.admissible(v):
                assert len(hits) == 1, (fam, v)


@pytest.mark.parametrize("case", ft.table_v_cases(), ids=lambda c: f"{c.family}-{c.case}")
def test_closed_forms_against_floor_division(case):
    """Independent of the certificate: evaluate n, m and compare t, r with integer division, k up to 40."""
    for kk in range(case.k_min, case.k_min + 40):
        v = int(case.param.subs(ft.k, kk))
        ev = ft.evaluate(case, v)
        assert ev["t"] == ev["m"] // (ev["n"] - 1)
        assert ev["r"] == ev["m"] - ev["t"] * (ev["n"] - 1)
        assert sum(c for _, c in ev["degrees"]) == ev["n"]
        assert sum(a * c for a, c in ev["degrees"]) == 2 * ev["m"]


def test_published_values():
    # Li, Li, Li: STP(K_{a,a}) = floor(a^2 / (2a - 1))
    for a in range(2, 50):
        assert ft.evaluate(ft.case_for("complete-bipartite", a), a)["t"] == a * a // (2 * a - 1)
    # ER_7 (docs/networks.md §4), the Hoffman-Singleton graph MMS(5), K_{5,5}
    assert {k: ft.evaluate(ft.case_for("polarfly", 7), 7)[k] for k in ("n", "m", "t", "r")} == \
        {"n": 57, "m": 224, "t": 4, "r": 0}
    hs = ft.evaluate(ft.case_for("slimfly", 5), 5)
    assert (hs["n"], hs["m"], hs["degrees"], hs["t"]) == (50, 175, [(7, 50)], 3)
    assert ft.evaluate(ft.case_for("complete-bipartite", 5), 5)["r"] == 7


def test_wrong_formula_is_not_proved():
    good = ft.case_for("polarfly", 4)
    bad = ft.FactorCase(good.family, good.case, good.param, good.k_min, good.n, good.m, good.degrees, good.t,
                        ft.q / 2)
    p = ft.prove_case(bad)
    assert not p.identity and not p.holds
    # a t that is one too large makes r negative: identity can hold, the range check must fail
    worse = ft.FactorCase(good.family, good.case, good.param, good.k_min, good.n, good.m, good.degrees,
                          good.t + 1, good.r - good.n + 1)
    pw = ft.prove_case(worse)
    assert pw.identity and not pw.r_in_range and not pw.holds


def test_certificates():
    k = ft.k
    assert ft.nonnegative_certificate(k**2 - 3 * k + 2, 2)
    assert not ft.nonnegative_certificate(k - 5, 1)
    assert ft.integer_valued(k * (k - 1) * (k - 2) / 6)
    assert not ft.integer_valued(k**2 / 4)


def test_piecewise_matches_cases():
    for fam in ft.FAMILIES:
        for quantity in ("n", "m", "t", "r"):
            e = ft.piecewise(fam, quantity)
            for v in range(2, 40):
                if ft.FAMILIES[fam].admissible(v):
                    assert int(e.subs(ft.FAMILIES[fam].symbol, v)) == ft.evaluate(ft.case_for(fam, v), v)[quantity]


def test_expr_str():
    assert ft.expr_str(ft.q * (ft.q + 1) ** 2 / 2) == "q(q + 1)^2/2"
    assert ft.expr_str(2 * ft.d + 2) == "2d' + 2"
    assert ft.expr_str(sp.Integer(0)) == "0"


def test_measure_small_instances():
    for fam, v in [("paley", 9), ("mms-supernode", 8), ("mms-supernode-prime", 7), ("complete-bipartite", 3),
                   ("slimfly", 3), ("complete", 6), ("bdf", 4), ("inductive-quad", 3), ("polarfly", 3)]:
        row = ft.measure_factor(fam, v)
        assert row["agree"], row
        assert row["t_packed"] == row["t_eq1"]
    row = ft.measure_factor("polarfly", 4, pack=False)
    assert row["t_packed"] is None and row["agree"]


def test_cx_delta1_is_paley():
    from starlib.factors import mms_supernode, paley

    assert (mms_supernode(13).edges == paley(13).edges).all()


def test_grid_and_table():
    grid = ft.factor_grid(paley_max=13, mms_q_max=5, kqq_max=3, complete_max=3, iq_max=4, er_q_max=3,
                          slimfly_q_max=3)
    assert ("paley", 13) in grid and ("paley", 11) not in grid and ("bdf", 4) in grid
    df = ft.measured_table(grid, pack_max_edges=20)
    assert df["agree"].all()
    assert df.loc[df["m"] > 20, "t_packed"].isna().all()
    cf = ft.closed_form_table()
    assert list(cf.columns) == ["graph", "case", "parameter", "n", "m", "degree", "st_edges", "t", "r", "r_vs_t",
                                "proved", "source"]
    assert cf["proved"].all()


@pytest.mark.parametrize("fam, value, word", [("paley", 7, "q' = 1 mod 4"), ("polarfly", 6, "prime power"),
                                              ("inductive-quad", 5, "0 or 3 mod 4"), ("nope", 3, "family")])
def test_bad_parameters(fam, value, word):
    with pytest.raises(ValueError, match=word):
        ft.case_for(fam, value)
    with pytest.raises(ValueError):
        ft.piecewise("paley", "x")
