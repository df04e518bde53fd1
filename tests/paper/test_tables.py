"""The table writer: three renderings of one frame, every table described, deterministic formats.

The CSV rendering is what machines read and must not change; the Markdown and LaTeX renderings carry a caption,
a glossary (meaning and unit of every column), one missing-value marker and a fixed number of decimals per
column. ``tests/paper/test_latex.py`` compiles the LaTeX.
"""

import csv
import json
import re
from fractions import Fraction

import pandas as pd
import pytest

from starlib.paper.latex import tex_rich
from starlib.paper.table_notes import TABLE_NOTES, Column, TableNote
from starlib.paper.tables import (
    LONGTABLE_ROWS,
    MISSING,
    describe,
    display_cells,
    format_cell,
    render_latex,
    render_markdown,
    write_table,
)
from tests.paths import ROOT

NOTE = TableNote("Test table with $\\lfloor m/(n-1) \\rfloor$ and `code`.",
                 {"q": Column("prime power", tex="$q$"),
                  "ratio": Column("a ratio", decimals=2),
                  "name": Column("a name"),
                  "ok": Column("yes if fine")})


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"q": [3, 5], "ratio": [0.5, 1.0], "name": ["a_b", "c"], "ok": [True, False]})


# -- CSV: the machine format, unchanged -------------------------------------------------------------------------------

def test_csv_keeps_integers_and_its_own_float_digits(tmp_path):
    write_table(_frame(), "t", tmp_path, note=NOTE)
    assert (tmp_path / "t.csv").read_text() == "q,ratio,name,ok\n3,0.5000,a_b,True\n5,1,c,False\n"
    write_table(_frame(), "t", tmp_path, note=NOTE, float_digits=1)
    assert (tmp_path / "t.csv").read_text().splitlines()[1] == "3,0.5,a_b,True"


def test_sorting_and_byte_stability(tmp_path):
    note = TableNote("Orders of ER_q.", {"q": Column("prime power"), "n": Column("vertices", "vertices")})
    df = pd.DataFrame({"q": [7, 2, 5], "n": [57, 7, 31]})
    write_table(df, "a", tmp_path, sort_by=["q"], note=note)
    first = [(tmp_path / f"a.{ext}").read_bytes() for ext in ("csv", "md", "tex")]
    write_table(df.sample(frac=1, random_state=1), "a", tmp_path, sort_by=["q"], note=note)
    second = [(tmp_path / f"a.{ext}").read_bytes() for ext in ("csv", "md", "tex")]
    assert first == second
    assert first[0].decode().splitlines()[1:] == ["2,7", "5,31", "7,57"]


def test_cells_and_quoting(tmp_path):
    assert format_cell(Fraction(3, 4)) == "3/4"
    assert format_cell(float("nan")) == MISSING == "--"
    assert format_cell(float("nan"), for_csv=True) == ""
    assert format_cell(2.0) == "2"
    note = TableNote("Parameters.", {"parameters": Column("parameters")})
    df = pd.DataFrame({"parameters": ["q=3;d=7", "x,y"]})
    write_table(df, "p", tmp_path, note=note)
    assert (tmp_path / "p.csv").read_text().splitlines()[2] == '"x,y"'
    assert "x,y" in render_markdown(df) and "q=3;d=7" in render_latex(df, "p", note=note)


# -- descriptions: every table has one, and it matches its frame -----------------------------------------------------

def test_bad_name(tmp_path):
    with pytest.raises(ValueError, match="name="):
        write_table(pd.DataFrame({"a": [1]}), "x/y", tmp_path, note=NOTE)


def test_a_table_without_description_is_refused(tmp_path):
    with pytest.raises(ValueError, match="table 'no_such_table' has no description"):
        write_table(pd.DataFrame({"a": [1]}), "no_such_table", tmp_path)
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_caption_comes_only_from_the_description(tmp_path):
    """``write_table`` has no ``caption=``: a caption passed beside the description would be lost, so it is refused."""
    with pytest.raises(TypeError, match="caption"):
        write_table(_frame(), "t", tmp_path, note=NOTE, caption="lost")
    assert not list(tmp_path.iterdir())


def test_the_description_must_match_the_columns(tmp_path):
    with pytest.raises(ValueError, match=r"columns \['extra'\] have no description"):
        write_table(_frame().assign(extra=1), "t", tmp_path, note=NOTE)
    with pytest.raises(ValueError, match=r"describes columns \['ok'\]"):
        write_table(_frame().drop(columns="ok"), "t", tmp_path, note=NOTE)
    floats = TableNote("x", {"x": Column("a float without decimals")})
    with pytest.raises(ValueError, match="column 'x' holds floats but its description sets no decimals"):
        write_table(pd.DataFrame({"x": [0.5]}), "t", tmp_path, note=floats)
    with pytest.raises(ValueError, match="kind="):
        Column("x", kind="formula")


def _notebook_tables() -> dict[str, str]:
    """Table name -> notebook, for every ``write_table(frame, "name", out_dir, ...)`` in the notebooks' code."""
    out = {}
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        names = re.findall(r"\"(\w+)\",\s*out_dir", code)
        assert len(names) == code.count("write_table("), f"{nb.name}: a write_table call of another form"
        out.update(dict.fromkeys(names, nb.name))
    return out


def test_every_notebook_table_is_described_and_every_description_used():
    written = _notebook_tables()
    assert len(written) >= 29
    assert sorted(set(written) - set(TABLE_NOTES)) == []
    assert sorted(set(TABLE_NOTES) - set(written)) == []


def test_the_committed_tables_are_the_described_ones():
    committed = {p.stem for p in (ROOT / "paper_tables").glob("*.csv")}
    assert committed == set(TABLE_NOTES)


@pytest.mark.parametrize("name", sorted(TABLE_NOTES))
def test_every_description_renders_and_speaks_of_mathematics(name):
    """A caption speaks of the mathematics: no repository path, file, command or notebook."""
    note = describe(name)
    assert not re.search(r"notebook|docs/|data/|benchmarks/|\.(csv|py|md|ipynb)\b|`|\bmake\b|starlib", note.caption,
                         re.I), note.caption
    for text in [note.caption] + [c.meaning for c in note.columns.values()]:
        assert tex_rich(text).isascii()
    for col in list(note.columns.values()) + ([note.default] if note.default else []):
        assert col.meaning.strip(), name
        if col.unit:
            assert tex_rich(col.unit).isascii()


def test_the_committed_csv_headers_match_the_descriptions():
    """The described columns are exactly the columns of the committed CSV files."""
    for name, note in TABLE_NOTES.items():
        with open(ROOT / "paper_tables" / f"{name}.csv", newline="", encoding="utf-8") as f:
            cols = next(csv.reader(f))
        assert set(note.columns) <= set(cols), name
        if note.default is None:
            assert set(cols) == set(note.columns), name


# -- Markdown --------------------------------------------------------------------------------------------------------

def test_markdown_caption_glossary_marker_and_decimals():
    df = pd.DataFrame({"q": [3, 5], "ratio": [0.5, 1.0], "name": ["a_b", None], "ok": [True, False]})
    md = render_markdown(df, note=NOTE, name="t").splitlines()
    assert md[0] == "**t.** Test table with $\\lfloor m/(n-1) \\rfloor$ and `code`."
    assert md[2] == "| q | ratio | name | ok |"
    assert md[3] == "|---:|---:|---|---|"
    assert md[4:6] == ["| 3 | 0.50 | a_b | yes |", "| 5 | 1.00 | -- | no |"]  # two decimals, also for 1.0
    assert "- `ratio`: a ratio." in md and "- `q`: prime power." in md
    assert md[-1] == "`--`: no value (not applicable, or not computed at this size)."


def test_markdown_units_shared_columns_and_no_marker_line_without_missing_values():
    note = TableNote("Schedule.", {"step": Column("step", "steps")}, default=Column("dimension", empty=""))
    md = render_markdown(pd.DataFrame({"step": [1], "2": ["T_2"], "3": [""]}), note=note, name="f")
    assert "- `step` [steps]: step." in md
    assert "- `2`, `3`: dimension." in md
    assert "| 1 | T_2 |  |" in md  # the empty cell means something here: it is not a missing value
    assert "no value" not in md


def test_markdown_without_description_is_a_plain_table():
    md = render_markdown(pd.DataFrame({"x": [1.0, 0.25], "s": ["a|b", None]}), float_digits=3)
    assert md == "| x | s |\n|---:|---|\n| 1.000 | a\\|b |\n| 0.250 | -- |\n"


def test_display_cells_missing_sentinels_empty_and_scientific():
    df = pd.DataFrame({"d": [-1, 4], "f": ["-", "paths"], "e": ["", "2 4"], "c": [4.735685e-298, 1.0]})
    cols = [Column("depth", missing=(-1,)), Column("factor", missing=("-",)), Column("cases", empty="none"),
            Column("confidence", decimals=2, sci=True)]
    assert display_cells(df, columns=cols) == [[None, None, "none", "4.74e-298"], ["4", "paths", "2 4", "1.00e+00"]]
    assert display_cells(pd.DataFrame({"b": [True], "n": [pd.NA]}).astype(object)) == [["yes", None]]


# -- LaTeX -------------------------------------------------------------------------------------------------------------

def test_latex_float_with_caption_label_booktabs_and_glossary():
    tex = render_latex(_frame(), "t", note=NOTE)
    assert "\\begin{table}[htbp]" in tex and "\\caption{Test table with $\\lfloor m/(n-1) \\rfloor$ and " \
        "\\texttt{code}.}" in tex
    assert "\\label{tab:t}" in tex and "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
    assert "$q$ & ratio & name & ok \\\\" in tex  # the described header, else the escaped name
    assert "3 & 0.50 & a\\_b & yes \\\\" in tex
    assert "\\textbf{ratio}: a ratio." in tex
    assert "\\resizebox{\\linewidth}{!}" in tex  # scaled down only when wider than the text
    assert "longtable" not in tex.split("% Needs")[1].split("\n", 1)[1] and "landscape" not in tex
    assert tex.isascii()


def test_latex_paper_form_is_a_float_and_the_full_listing_switches_to_longtable():
    note = TableNote("Long.", {"x": Column("x")})
    short = render_latex(pd.DataFrame({"x": range(LONGTABLE_ROWS)}), "s", note=note)
    assert "\\begin{table}" in short and "\\begin{longtable}" not in short
    with pytest.raises(ValueError, match="41 rows, more than LONGTABLE_ROWS=40.*group_by"):
        render_latex(pd.DataFrame({"x": range(LONGTABLE_ROWS + 1)}), "s", note=note)
    long = render_latex(pd.DataFrame({"x": range(LONGTABLE_ROWS + 1)}), "s", note=note, full=True)
    assert "\\begin{longtable}{@{}r@{}}" in long and "\\begin{table}" not in long
    assert "\\endfirsthead" in long and "\\endhead" in long and "(continued)" in long
    assert long.count("\\caption{") == 1 and "\\label{tab:s_full}" in long
    turned = TableNote("Wide.", {"x": Column("x")}, landscape=True, rotate=True, size="scriptsize")
    full = render_latex(pd.DataFrame({"x": [1]}), "w", note=turned, full=True)
    assert full.index("\\begin{landscape}") < full.index("\\begin{table}") < full.index("\\end{landscape}")
    paper = render_latex(pd.DataFrame({"x": [1]}), "w", note=turned)
    assert "landscape" not in paper and "\\rotatebox{90}{x}" in paper and "\\scriptsize" in paper
    forced = render_latex(pd.DataFrame({"x": [1]}), "f", note=TableNote("F.", {"x": Column("x")}, long=True),
                          full=True)
    assert "\\begin{longtable}" in forced


def test_paper_form_drops_audit_columns_and_spans_two_columns_when_wide(tmp_path):
    note = TableNote("A.", {**NOTE.columns}, audit=("ok", "ratio"), wide=True)
    paths = write_table(_frame(), "a", tmp_path, note=note)
    assert [p.name for p in paths] == ["a.csv", "a.md", "a.tex", "a_full.tex"]
    paper, full = (tmp_path / "a.tex").read_text(), (tmp_path / "a_full.tex").read_text()
    assert "$q$ & name \\\\" in paper and "3 & a\\_b \\\\" in paper and "\\begin{table*}[tbp]" in paper
    assert "\\textbf{ok}" not in paper and "\\textbf{ok}" in full
    assert "$q$ & ratio & name & ok \\\\" in full and "\\begin{table}[htbp]" in full and "tab:a_full" in full
    assert (tmp_path / "a.csv").read_text().splitlines()[0] == "q,ratio,name,ok"
    assert write_table(_frame(), "b", tmp_path, note=NOTE)[-1].name == "b.tex"  # no full listing when the same


def test_paper_form_compact_one_line_per_group():
    df = pd.DataFrame({"net": ["a", "a", "a", "b"], "parameters": ["q=3 d=4", "q=7 d=4", "q=5 d=4", "q=2 d=3"],
                       "n": [10, 30, 20, 8], "x": [0.5, 1.25, None, 2.0], "m": ["q/2", "q", "q", "q"]})
    note = TableNote("C.", {"net": Column("net"), "parameters": Column("p"), "n": Column("n"),
                            "x": Column("x", decimals=2), "m": Column("m", kind="math")}, group_by=("net",))
    tex = render_latex(df, "c", note=note)
    assert "a & q=3--7 d=4 & 10--30 & 0.50--1.25 & $q/2$, $q$ \\\\" in tex
    assert "b & q=2 d=3 & 8 & 2.00 & $q$ \\\\" in tex
    assert "One line per net;" in tex  # no words given: the header names the line
    with pytest.raises(ValueError, match="group_by=\\('nope',\\) names columns \\['nope'\\]"):
        render_latex(df, "c", note=TableNote("C.", note.columns, group_by=("nope",)))
    with pytest.raises(ValueError, match="in both TableNote.group_by and TableNote.audit"):
        render_latex(df, "c", note=TableNote("C.", note.columns, group_by=("net",), audit=("net",)))


def test_caption_says_in_words_what_a_line_is_and_blocks_split_the_paper_form():
    df = pd.DataFrame({"R": [16, 16, 16, 32, 32], "net": ["a", "b", "b", "a", "b"], "D": [5, 4, 5, 6, 6]})
    cols = {"R": Column("budget", tex="$R$"), "net": Column("network", tex="nw."), "D": Column("depth")}
    note = TableNote("B.", cols, group_by=("R", "net"), lines="radix budget and network family", block="R")
    tex = render_latex(df, "b", note=note)
    assert "One line per radix budget and network family; where the rows of a line differ, a column shows the " \
           "range of their values ($a$--$b$) or their distinct values ($a, b$).}" in tex
    assert "nw." not in tex.split("\\label")[0]  # the caption does not name the line by its headers
    body = tex.split("\\midrule\n", 1)[1].split("\\bottomrule")[0].splitlines()
    assert body == ["16 & a & 5 \\\\", " & b & 4--5 \\\\", "\\midrule", "32 & a & 6 \\\\", " & b & 6 \\\\"]
    full = render_latex(df, "b", note=note, full=True)
    assert "One line per" not in full and full.count("\\midrule") == 1  # the full listing: every row, no blocks
    with pytest.raises(ValueError, match="block='net' must be one of group_by=\\('R',\\)"):
        TableNote("B.", cols, group_by=("R",), block="net")
    with pytest.raises(ValueError, match="lines='x' needs group_by"):
        TableNote("B.", cols, lines="x")


def test_every_compact_table_says_what_its_lines_are():
    from starlib.paper.table_notes import TABLE_NOTES
    missing = [name for name, note in TABLE_NOTES.items() if note.group_by and not note.lines]
    assert missing == []
    for name, note in TABLE_NOTES.items():  # words, not the column names or headers of the grouping
        assert not any(c in note.lines.split() for c in note.group_by if "_" in c), name


def test_provenance_comment_is_recorded_once_and_byte_stable(tmp_path):
    from starlib import __version__
    from starlib.paper.tables import record_provenance
    try:
        record_provenance("notebooks/04-table4.ipynb", {"out_dir": "../paper_tables", "q_max": 13})
        first = write_table(_frame(), "p", tmp_path, note=NOTE)[2].read_text()
        again = write_table(_frame(), "p", tmp_path, note=NOTE)[2].read_text()
    finally:
        record_provenance(None)
    assert first == again
    head = first.splitlines()[:5]
    assert head[1].endswith(f"starlib {__version__} (do not edit).")
    assert head[2] == "% Notebook: notebooks/04-table4.ipynb; parameters: out_dir='../paper_tables', q_max=13."
    assert head[3] == "% Commit: git log -1 -- paper_tables/p.tex"
    assert not re.search(r"\b[0-9a-f]{40}\b", first)
    plain = write_table(_frame(), "p", tmp_path, note=NOTE)[2].read_text()
    assert "% Notebook:" not in plain and plain.splitlines()[2] == "% Commit: git log -1 -- paper_tables/p.tex"
    with pytest.raises(ValueError, match="notebook=''"):
        record_provenance("")


def test_latex_escaping_and_missing_marker():
    note = TableNote("M.", {"x": Column("x", decimals=1), "s": Column("s", width="2cm")})
    tex = render_latex(pd.DataFrame({"x": [float("nan")], "s": ["q=3;paley_q=5"]}), "m", note=note)
    assert "-- & q=3;\\allowbreak{}paley\\_q=5 \\\\" in tex
    assert ">{\\raggedright\\arraybackslash}p{2cm}" in tex
    assert "\\textbf{--}: no value" in tex


def test_latex_scientific_notation_and_math_columns(tmp_path):
    note = TableNote("S.", {"c": Column("confidence", decimals=2, sci=True),
                            "f": Column("formula", kind="math"), "m": Column("mixed", kind="mixed")})
    df = pd.DataFrame({"c": [4.735685e-298, 1.0], "f": ["3*q/4", "q/2"], "m": ["q even", "\u2014"]})
    tex = render_latex(df, "s", note=note)
    assert "$4.74 \\times 10^{-298}$ & $3q/4$ & $q$ even \\\\" in tex
    assert "$1.00$ & $q/2$ & --- \\\\" in tex


def test_detail_columns_are_shown_only_in_the_full_listing(tmp_path):
    df = pd.DataFrame({"net": ["a"] * 6, "name": [f"a({i})" for i in range(6)], "n": range(6)})
    cols = {"net": Column("net"), "name": Column("the instance"), "n": Column("n")}
    plain = render_latex(df, "d", note=TableNote("D.", cols, group_by=("net",)))
    assert "6 values" in plain  # without the declaration, the identifier is counted
    note = TableNote("D.", cols, group_by=("net",), detail=("name",))
    paths = write_table(df, "d", tmp_path, note=note)
    paper, full = (tmp_path / "d.tex").read_text(), (tmp_path / "d_full.tex").read_text()
    assert paths[-1].name == "d_full.tex"
    assert "6 values" not in paper and "a(3)" not in paper and "a & 0--5 \\\\" in paper
    assert "a(3)" in full and "\\textbf{name}" in full and "\\textbf{name}" not in paper
    assert (tmp_path / "d.csv").read_text().splitlines()[0] == "net,name,n"
    with pytest.raises(ValueError, match="detail=\\('name',\\) needs group_by"):
        TableNote("D.", cols, detail=("name",))
    with pytest.raises(ValueError, match="TableNote.detail=\\('nope',\\) names columns \\['nope'\\]"):
        render_latex(df, "d", note=TableNote("D.", cols, group_by=("net",), detail=("nope",)))
    with pytest.raises(ValueError, match="in both TableNote.group_by and TableNote.detail"):
        render_latex(df, "d", note=TableNote("D.", cols, group_by=("net",), detail=("net",)))


def test_equal_adds_a_computed_comparison_that_can_group_the_paper_form():
    df = pd.DataFrame({"q": [2, 3, 4, 5], "bound": [1, 2, 2, 3], "trees": [1, 2, 1, 3]})
    cols = {"q": Column("q", tex="$q$"), "bound": Column("bound", "trees"), "trees": Column("trees", "trees")}
    note = TableNote("E.", cols, equal=(("trees", "bound"),), group_by=("trees = bound",))
    tex = render_latex(df, "e", note=note)
    assert "$q$ & bound & trees & trees $=$ bound \\\\" in tex
    assert "2--5 & 1--3 & 1--3 & yes \\\\" in tex and "4 & 2 & 1 & no \\\\" in tex
    assert "\\textbf{trees $=$ bound}: yes if trees equals bound in every row of the line." in tex
    assert "One line per trees $=$ bound;" in tex
    assert "trees = bound" not in render_latex(df, "e", note=note, full=True)  # the full listing: the frame
    with pytest.raises(ValueError, match="TableNote.equal=.*names columns \\['nope'\\]"):
        render_latex(df, "e", note=TableNote("E.", cols, equal=(("trees", "nope"),)))
    with pytest.raises(ValueError, match="must be a tuple of \\(column, column\\) pairs"):
        TableNote("E.", cols, equal=("trees",))


def test_rows_select_the_paper_forms_rows_and_the_caption_says_so():
    df = pd.DataFrame({"f": [0.001, 0.002, 0.01, 0.001], "E": [0.9, 0.8, 0.5, 0.7]})
    cols = {"f": Column("rate", tex="$f$", decimals=3), "E": Column("mean", "trees", tex="$E$", decimals=1)}
    note = TableNote("R.", cols, rows=(("f", (0.001, 0.01)),))
    tex = render_latex(df, "r", note=note)
    body = [ln for ln in tex.splitlines() if ln.endswith("\\\\") and "&" in ln]
    assert body[1:] == ["0.001 & 0.9 \\\\", "0.010 & 0.5 \\\\", "0.001 & 0.7 \\\\"]  # 0.002 left out
    assert "Rows with $f$ $\\in \\{0.001, 0.01\\}$ only; the full listing has every row." in tex
    assert "0.002" in render_latex(df, "r", note=note, full=True)
    with pytest.raises(ValueError, match="keeps the rows with f in \\(0.5,\\), and the frame has none"):
        render_latex(df, "r", note=TableNote("R.", cols, rows=(("f", (0.5,)),)))
    with pytest.raises(ValueError, match="rows=.*must be a tuple of \\(column, non-empty tuple of values\\) pairs"):
        TableNote("R.", cols, rows=(("f", 0.5),))


def test_no_paper_form_counts_values_instead_of_showing_them():
    """Every compact paper form (from the committed CSV files) shows ranges and sets, never "N values"."""
    from starlib.paper.tables import _paper_frame

    for name, note in TABLE_NOTES.items():
        if not note.group_by:
            continue
        paper = _paper_frame(pd.read_csv(ROOT / "paper_tables" / f"{name}.csv"), name, note)
        counted = sorted({c for c in paper.columns for v in paper[c] if getattr(v, "kind", None) == "count"})
        assert not counted, f"{name}: columns {counted} show 'N values' (declare them detail, or group by them)"
