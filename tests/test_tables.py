"""The table writer: three renderings of one frame, deterministic formats."""

from fractions import Fraction

import pandas as pd
import pytest

from starlib.paper.tables import format_cell, render_latex, render_markdown, write_table


def test_integers_stay_integers_in_mixed_frames(tmp_path):
    df = pd.DataFrame({"q": [3, 5], "ratio": [0.5, 1.0], "name": ["a_b", "c"], "ok": [True, False]})
    write_table(df, "t", tmp_path)
    assert (tmp_path / "t.csv").read_text() == "q,ratio,name,ok\n3,0.5000,a_b,True\n5,1,c,False\n"
    md = (tmp_path / "t.md").read_text().splitlines()
    assert md[0] == "| q | ratio | name | ok |"
    assert md[2] == "| 3 | 0.5000 | a_b | yes |"
    tex = (tmp_path / "t.tex").read_text()
    assert r"a\_b" in tex and r"\toprule" in tex and r"\bottomrule" in tex
    assert "3 & 0.5000" in tex


def test_sorting_and_byte_stability(tmp_path):
    df = pd.DataFrame({"q": [7, 2, 5], "n": [57, 7, 31]})
    write_table(df, "a", tmp_path, sort_by=["q"])
    first = [(tmp_path / f"a.{ext}").read_bytes() for ext in ("csv", "md", "tex")]
    write_table(df.sample(frac=1, random_state=1), "a", tmp_path, sort_by=["q"])
    second = [(tmp_path / f"a.{ext}").read_bytes() for ext in ("csv", "md", "tex")]
    assert first == second
    assert first[0].decode().splitlines()[1:] == ["2,7", "5,31", "7,57"]


def test_cells_and_quoting(tmp_path):
    assert format_cell(Fraction(3, 4)) == "3/4"
    assert format_cell(float("nan")) == "--"
    assert format_cell(float("nan"), for_csv=True) == ""
    assert format_cell(2.0) == "2"
    df = pd.DataFrame({"parameters": ["q=3;d=7", "x,y"]})
    write_table(df, "p", tmp_path)
    assert (tmp_path / "p.csv").read_text().splitlines()[2] == '"x,y"'
    assert "x,y" in render_markdown(df) and "q=3;d=7" in render_latex(df)


def test_bad_name(tmp_path):
    with pytest.raises(ValueError, match="name="):
        write_table(pd.DataFrame({"a": [1]}), "x/y", tmp_path)
