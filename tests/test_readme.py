"""The README's library example runs as printed, and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import os
import re

from tests.paths import ROOT


def readme_example() -> str:
    """The indented code block that opens the README's section 'The library'."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## The library\n"):]
    block = re.search(r"\n\n((?:    .*\n|\n)+)", section).group(1)
    return "\n".join(line[4:] for line in block.splitlines())


def test_the_library_example_runs_and_prints_what_it_says(tmp_path):
    code = readme_example()
    assert "starlib.network(" in code and "starlib.export(" in code
    expected = [m.group(1).split("(")[0].strip() for m in re.finditer(r"print\(.*#\s*(?:any networkx graph: )?(.*)$",
                                                                        code, re.M)]
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
    finally:
        os.chdir(cwd)
    assert out.getvalue().splitlines() == expected == ["5 3", "3"]
    assert (tmp_path / "sf7.json").stat().st_size > 0


def _notebook_table() -> list[tuple[str, float]]:
    """The notebook and time (seconds) of every row of the README's table 'What regenerates what'."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## What regenerates what\n"):]
    section = section[:section.index("\n## ", 1)]
    rows = re.findall(r"^\|[^|\n]*\| `(\d\d-[^`]+)` \|[^|\n]*\| (\d+(?:\.\d+)?) s \|$", section, re.M)
    return [(nb, float(t)) for nb, t in rows]


def test_the_run_times_sentence_agrees_with_the_table():
    text = (ROOT / "README.md").read_text()
    rows = _notebook_table()
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))
    assert sorted(nb for nb, _ in rows) == notebooks  # one row per notebook
    total = sum(t for _, t in rows) / 60
    m = re.search(r"about (\d+(?:\.\d+)?) minutes\s+for every notebook of the table one after the other, "
                  r"(\d+(?:\.\d+)?) of them for notebook (\d\d)", text)
    assert m, "the README's sentence on the notebooks' total time is missing"
    assert abs(float(m.group(1)) - total) <= 0.5, f"the table's times add up to {total:.2f} minutes"
    longest = dict(rows)[next(nb for nb, _ in rows if nb.startswith(m.group(3)))] / 60
    assert abs(float(m.group(2)) - longest) <= 0.05, f"notebook {m.group(3)} takes {longest:.2f} minutes"
    words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
            "seventeen eighteen nineteen twenty".split()
    for w in re.findall(r"\ball (" + "|".join(words) + r")\b(?= notebooks| one after)", text):
        assert words.index(w) + 1 == len(rows), f"the README says 'all {w}'; its table has {len(rows)} notebooks"


def test_the_twisted_constructions_depth_and_bound_are_computed():
    from starlib.edst.product import twisted_maximum_trees
    from starlib.networks import slimfly

    line = next(ln for ln in (ROOT / "README.md").read_text().splitlines() if "--method twisted" in ln)
    count, depth, bound = map(int, re.search(r"the same (\d+) trees, depth (\d+) \(proved at most (\d+)\)",
                                             line).groups())
    q = int(re.search(r"slimfly q=(\d+)", line).group(1))
    trees = twisted_maximum_trees(slimfly(q))
    assert (len(trees), max(trees.depths()), max(t.meta["bound"] for t in trees)) == (count, depth, bound)
