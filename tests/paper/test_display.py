"""Notebook tables (starlib.paper.display): headers from the declarations, formulas as MathJax, at most 30 rows."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from starlib.paper import table1
from starlib.paper.display import DISPLAY_ROWS, column_label, table_bundle
from starlib.paper.latex import tex_formula, tex_mixed
from starlib.paper.table_notes import TABLE_NOTES, Column, TableNote


def _cells(html: str) -> list[list[str]]:
    return [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in re.findall(r"<tr>(<td.*?)</tr>", html)]


def _heads(html: str) -> list[str]:
    return re.findall(r"<th [^>]*>(.*?)</th>", html)


def test_table1_formulas_are_the_latex_of_the_tex_file():
    frame = table1.formula_frame()
    bundle = table_bundle(frame, name="table1")
    cells = _cells(bundle["text/html"])
    j = list(frame.columns).index("Min Depth")
    assert TABLE_NOTES["table1"].columns["Min Depth"].kind == "math"
    assert [r[j] for r in cells] == [tex_formula(v) for v in frame["Min Depth"]]
    assert cells[0][j] == "$d_H + 2d_G$"
    j = list(frame.columns).index("Max Depth")
    assert cells[0][j].startswith(r"$\max(D_G + d_H + 2D_G d_H")
    k = list(frame.columns).index("Max?")  # mixed: text with $...$ runs
    assert cells[0][k] == tex_mixed(frame["Max?"].iloc[0]) == "Within 1 (YES if $r_G = t_G$ or $r_H = t_H$)"
    assert "Max(" not in bundle["text/html"] and "Max(D_G" in bundle["text/plain"]  # plain keeps the ASCII


def test_headers_and_units_come_from_the_declaration():
    note = TABLE_NOTES["table5_measured"]
    frame = pd.DataFrame({"n": [7], "t_eq1": [3], "agree": [True]})
    bundle = table_bundle(frame, name="table5_measured")
    heads = _heads(bundle["text/html"])
    assert heads[0] == note.columns["n"].tex + "<br><small>[vertices]</small>" == "$n$<br><small>[vertices]</small>"
    assert heads[1] == "$t_{\\mathrm{eq1}}$<br><small>[trees]</small>"
    assert heads[2] == "agree"  # no tex header: the name
    assert 'title="t_eq1: eq. (1) bound' in bundle["text/html"]
    assert bundle["text/plain"].splitlines()[0].split() == ["n", "t_eq1", "agree"]  # the CSV names


def test_text_mode_latex_headers_read_as_text():
    frame = pd.DataFrame({"# EDSTs": ["t_G + t_H"]})
    heads = _heads(table_bundle(frame, name="table1")["text/html"])
    assert heads == ["# EDSTs<br><small>[trees]</small>"]  # \# of the LaTeX header, read back
    note = TableNote("x", {"t_kib": Column("time", "$\\mu$s", tex="1\\,KiB"),
                           "c": Column("code", tex="\\texttt{a\\_b}")})
    heads = _heads(table_bundle(pd.DataFrame({"t_kib": [1.5], "c": ["x"]}), note=note)["text/html"])
    assert heads == ["1\u2009KiB<br><small>[$\\mu$s]</small>", "<code>a_b</code>"]


def test_long_table_shows_30_rows_and_links_its_file():
    frame = pd.DataFrame({"q": range(135), "vertices": range(135)})
    bundle = table_bundle(frame, name="networks")
    assert len(_cells(bundle["text/html"])) == DISPLAY_ROWS == 30
    assert '<a href="../paper_tables/networks.md">paper_tables/networks.md</a>' in bundle["text/html"]
    lines = bundle["text/plain"].splitlines()
    assert len(lines) == 1 + 30 + 2 and lines[-2] == "Showing the first 30 of 135 rows."
    assert lines[-1].endswith("../paper_tables/networks.md")
    assert len(_cells(table_bundle(frame.head(36))["text/html"])) == 36  # 6 rows more are shown, not hidden
    assert len(_cells(table_bundle(frame.head(37))["text/html"])) == 30
    everything = table_bundle(frame, max_rows=None)
    assert len(_cells(everything["text/html"])) == 135 and "paper_tables" not in everything["text/plain"]


def test_adhoc_headers_spelled_out_with_units_and_labels():
    assert column_label("allreduce_us") == ("Allreduce", "µs")
    assert column_label("speedup_16MiB_sim") == ("speedup_16MiB_sim", "")  # not lower-case words: kept
    assert column_label("largest_q_verified") == ("Largest q verified", "")
    frame = pd.DataFrame({"size_bytes": [1024], "t_G": [2], "d_H + 2 d_G": [5]})
    bundle = table_bundle(frame, labels={"t_G": "trees of G"})
    assert _heads(bundle["text/html"]) == ["Size<br><small>[bytes]</small>", "trees of G", "d_H + 2 d_G"]
    assert bundle["text/plain"].splitlines()[0].split() == ["Size", "[bytes]", "trees", "of", "G", "d_H", "+", "2",
                                                            "d_G"]


def test_index_and_pivot_columns_are_shown():
    pivot = pd.DataFrame({"q": [3, 4], "m": ["a", "b"], "v": [1.5, 2.25]}).pivot(index="q", columns="m", values="v")
    plain = table_bundle(pivot, float_digits=2, index=True)["text/plain"]
    assert plain.splitlines() == ["q    a    b", "3 1.50   --", "4   -- 2.25"]


def test_output_is_deterministic_and_escaped():
    frame = pd.DataFrame({"name": ["a<b & c"], "x": [0.5]})
    first, second = table_bundle(frame, 2), table_bundle(frame.copy(), 2)
    assert first == second
    assert "<td style=\"text-align: left\">a&lt;b &amp; c</td><td>0.50</td>" in first["text/html"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"name": "no_such_table"}, "has no description"),
    ({"labels": {"nope": "x"}}, r"\['nope'\] are not columns"),
    ({"max_rows": 0}, "max_rows=0 must be an integer >= 1"),
    ({"float_digits": -1}, "float_digits=-1 must be an integer >= 0"),
])
def test_bad_arguments_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        table_bundle(pd.DataFrame({"q": [1]}), **kwargs)
    with pytest.raises(ValueError, match="frame=list must be a pandas.DataFrame"):
        table_bundle([1, 2])


def test_mixed_cells_keep_their_text_and_typeset_their_formulas():
    note = TableNote("x", {"range": Column("cases", kind="mixed"), "n": Column("count")})
    frame = pd.DataFrame({"range": ["all q' — with q' >= 3 and max_edsts < 50%"], "n": [4]})
    cells = _cells(table_bundle(frame, note=note)["text/html"])
    assert tex_mixed(frame["range"].iloc[0]).startswith("all $q'$ --- with $q' \\ge 3$ and \\texttt{max\\_edsts}")
    assert cells == [["all $q'$ — with $q' \\ge 3$ and <code>max_edsts</code> $&lt; 50$%", "4"]]
