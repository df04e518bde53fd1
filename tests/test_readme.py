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
