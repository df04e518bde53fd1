"""Tests for starlib.paper.table1 (Table I rows, the instance checker, the table writers) and
starlib.paper.tree_figures."""

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest
import sympy

matplotlib.use("Agg")

from starlib.bounds import prop_iv3, table_i_count  # noqa: E402
from starlib.edst import auto_trees  # noqa: E402
from starlib.factors import complete_bipartite  # noqa: E402
from starlib.networks import hyperx, torus  # noqa: E402
from starlib.paper import table1  # noqa: E402
from starlib.paper.tables import write_table  # noqa: E402
from starlib.paper.tree_figures import draw_tree_panels, product_positions  # noqa: E402
from starlib.products import cartesian_product  # noqa: E402


def test_formula_parsing_and_evaluation():
    assert table1.evaluate("t_G + t_H - 2", {"t_G": 3, "t_H": 4}) == 5
    assert table1.evaluate("Max(d_H + 2*d_G, d_G + 2*d_H)", {"d_G": 1, "d_H": 5}) == 11
    with pytest.raises(ValueError, match="allowed symbols"):
        table1.formula("t_G + x")
    with pytest.raises(ValueError, match="needs"):
        table1.evaluate("t_G + t_H", {"t_G": 1})


def test_every_cell_parses():
    for row in table1.TABLE_I:
        for text in (row.count, row.max_depth, row.min_depth, row.n_min_depth) + (
                (row.low_depth_max,) if row.low_depth_max else ()):
            assert table1.formula(text).free_symbols <= set(table1.SYMBOLS.values())


def _feasible(n_max=8):
    """(n, t, r) of simple connected graphs: 1 <= t <= n/2, 0 <= r <= n - 2, m <= n(n-1)/2."""
    for n in range(3, n_max + 1):
        for t in range(1, n // 2 + 1):
            for r in range(0, n - 1):
                if t * (n - 1) + r <= n * (n - 1) // 2:
                    yield n, t, r


def test_counts_and_claims_agree_with_bounds_module():
    """The count cells agree with bounds.table_i_count, and the Max? claims hold against Proposition IV-.3
    (an independent statement of the bound) for every feasible pair of small factors."""
    tG_, tH_ = table1.SYMBOLS["t_G"], table1.SYMBOLS["t_H"]
    count_of = {row.row: sympy.lambdify([tG_, tH_], table1.formula(row.count)) for row in table1.TABLE_I}
    want_thm = {1: ("V-C.10", "V-C.3"), 2: ("V-C.3",), 3: ("V-C.11",), 4: ("V-D.2",)}
    worst = {}
    params = sorted({(t, r) for _, t, r in _feasible()})
    for (tG, rG), (tH, rH) in itertools.product(params, repeat=2):
        for prop in (False, True):
            bound = prop_iv3(tG, rG, tH, rH)
            ref_thm, ref_count = table_i_count(tG, rG, tH, rH, prop)
            for row in table1.TABLE_I:
                if not row.applies(tG, rG, tH, rH, prop):
                    continue
                count = int(count_of[row.row](tG, tH))
                if row.row in want_thm:
                    assert count == ref_count and ref_thm in want_thm[row.row]
                if row.row == 6 and rG < tG and rH < tH and not prop:
                    assert count == ref_count
                worst[row.row] = max(worst.get(row.row, 0), bound - count)
                assert bound - count <= row.claim_gap
                if row.row == 1 and (rG == tG or rH == tH):
                    assert bound == count
    # every claim is attained by Proposition IV-.3 (the claims are tight)
    assert worst == {1: 1, 2: 0, 3: 1, 4: 0, 5: 2, 6: 3}


def test_row_membership():
    rows = {r.row: r for r in table1.TABLE_I}
    assert rows[1].applies(2, 3, 1, 1, False) and not rows[2].applies(2, 3, 1, 1, False)
    assert rows[2].applies(2, 2, 1, 1, False) and rows[1].applies(2, 2, 1, 1, False)
    assert rows[3].applies(2, 0, 1, 1, False) and not rows[3].applies(2, 2, 1, 1, False)
    assert rows[4].applies(2, 0, 2, 1, True) and not rows[4].applies(2, 0, 2, 1, False)
    assert rows[5].applies(1, 4, 1, 4, True) and not rows[4].applies(1, 4, 1, 4, True)
    assert all(rows[6].applies(*a) for a in [(1, 0, 1, 0, False), (3, 9, 2, 2, True)])


def test_check_instance_on_k4_square_k4():
    """K_4 □ K_4: 16 vertices, 48 edges, 6-regular, so at most floor(48/15) = 3 EDSTs; K_4 has t = 2, r = 0."""
    inst = table1.Instance("K_4 □ K_4", "hyperx", {"sizes": "4,4"}, lambda: hyperx("4,4"))
    rows = table1.check_instance(inst)
    assert sorted({(r["row"], r["method"]) for r in rows}) == [(4, "property"), (5, "property"),
                                                                (6, "low-depth"), (6, "universal")]
    by = {(r["row"], r["method"]): r for r in rows}
    r4 = by[(4, "property")]
    assert (r4["t_G"], r4["r_G"], r4["t_H"], r4["r_H"]) == (2, 0, 2, 0)
    assert r4["upper_bound"] == 3 and r4["constructed"] == 3 and r4["exact_maximum"] == 3
    assert r4["verified"] and r4["agree"] and r4["max"] == "yes" and r4["theorem"] == "V-D.2"
    assert by[(6, "universal")]["constructed"] == 2 and by[(6, "universal")]["max"] == "within 1"


def test_check_instance_detects_a_wrong_formula(monkeypatch):
    """The checker can fail: with a wrong count formula the instance no longer agrees."""
    inst = table1.Instance("C_3 □ C_4", "torus", {"sizes": "3,4"}, lambda: torus("3,4"))
    assert all(r["agree"] for r in table1.check_instance(inst))
    rows = list(table1.TABLE_I)
    rows[1] = table1.TableIRow(**{**rows[1].__dict__, "count": "t_G + t_H + 1"})
    monkeypatch.setattr(table1, "TABLE_I", tuple(rows))
    bad = [r for r in table1.check_instance(inst) if r["row"] == 2]
    assert bad and not any(r["agree"] for r in bad)


def test_universal_gap_three_is_real():
    """K_{3,3} □ K_{3,3} splits into 3 spanning trees (108 = 3 * 35 + 3 edges, exact packing), Universal builds 0."""
    inst = table1.Instance("K33", "cartesian", {}, lambda: cartesian_product(complete_bipartite(3),
                                                                               complete_bipartite(3)))
    rows = {(r["row"], r["method"]): r for r in table1.check_instance(inst)}
    assert rows[(6, "universal")]["constructed"] == 0 and rows[(6, "universal")]["exact_maximum"] == 3
    assert rows[(5, "property")]["constructed"] == 1 and rows[(1, "maximum")]["constructed"] == 2


def test_build_trees_rejects_bad_method():
    with pytest.raises(ValueError, match="method='nope'"):
        table1.build_trees(hyperx("4,4"), "nope")
    with pytest.raises(ValueError):
        table1.build_trees(hyperx("4,4"), "maximum")  # r_G < t_G and r_H < t_H


def test_random_instances_are_seeded_and_fall_in_their_rows():
    a = table1.random_instances(3, 4, invariant=True)
    b = table1.random_instances(3, 4, invariant=True)
    assert [i.params for i in a] == [i.params for i in b]
    df = table1.instances_frame(a[:2])
    assert set(df.loc[df["method"] == "property", "row"]) >= {4, 5}


def test_table_writers_round_trip(tmp_path):
    insts = [table1.Instance("K_2 □ K_4", "hyperx", {"sizes": "2,4"}, lambda: hyperx("2,4")),
             table1.Instance("C_3 □ C_4", "torus", {"sizes": "3,4"}, lambda: torus("3,4"))]
    df = table1.instances_frame(insts)
    t1 = table1.table_i_frame(df)
    write_table(df, "table1_instances", tmp_path)
    write_table(t1, "table1", tmp_path)
    back = pd.read_csv(tmp_path / "table1_instances.csv")
    assert list(back.columns) == list(df.columns) and len(back) == len(df)
    assert back["row"].is_monotonic_increasing
    t1b = pd.read_csv(tmp_path / "table1.csv")
    assert len(t1b) == 6 and t1b["EDST Thm."].tolist() == ["V-C.10", "V-C.3", "V-C.11", "V-D.2", "V-D.2", "V-B.1"]
    # C_3 □ C_4 (r = t = 1 on both sides) lies in rows 1, 2, 5, 6; K_2 □ K_4 (r = 0 on both sides) in 4, 5, 6
    assert t1b["instances"].tolist() == [1, 1, 0, 1, 2, 2]
    assert t1b["all agree"].tolist() == [True, True, False, True, True, True]  # row 3 has no instance
    for ext in ("md", "tex"):
        assert (tmp_path / f"table1.{ext}").read_text().count("V-D.2") == 2


def test_tree_panels():
    P = hyperx("4,4")
    trees = auto_trees(P)
    fig = draw_tree_panels(P, trees)
    assert len(fig.axes) == 3 and fig.axes[0].get_title().startswith("tree 1: V-D.3")
    with pytest.raises(ValueError, match="0 trees"):
        draw_tree_panels(P, [])
    with pytest.raises(ValueError, match="titles"):
        draw_tree_panels(P, trees, titles=["a"])
    pos = product_positions(P)
    assert pos.shape == (16, 2) and len(np.unique(pos.round(9), axis=0)) == 16
