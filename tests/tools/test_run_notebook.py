"""tools/run_notebook.py: variant runs never touch committed files, and every error is one line with status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.paths import ROOT

RUNNER = ROOT / "tools" / "run_notebook.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUNNER), *args], capture_output=True, text=True, timeout=300)


def one_line_error(p: subprocess.CompletedProcess, text: str) -> None:
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("error: ") and text in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    """A notebook with a parameters cell (x, out_dir) that writes x into out_dir and fails when x is negative."""
    return tiny_notebook(tmp_path, 'x = 1\nout_dir = "../paper_tables"',
                         "import pathlib\nassert x >= 0, 'x must be >= 0'\n"
                         "pathlib.Path(out_dir).mkdir(parents=True, exist_ok=True)\n"
                         "pathlib.Path(out_dir, 'x.txt').write_text(str(x))\nprint(x)")


def tiny_notebook(tmp_path: Path, parameters: str, body: str) -> Path:
    """``tmp_path/nb/tiny.ipynb``: a parameters cell and one code cell, with a Python 3 kernel."""
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell(parameters)
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell(body)]
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    path = tmp_path / "nb" / "tiny.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, str(path))
    return path


def test_a_variant_needs_an_output_file(tiny):
    one_line_error(run(str(tiny), "-p", "x", "2"), "needs --output")


def test_a_variant_needs_its_own_out_dir(tiny, tmp_path):
    one_line_error(run(str(tiny), "-p", "x", "2", "--output", str(tmp_path / "v.ipynb")), "-p out_dir DIR is needed")
    committed = ROOT / "paper_tables"
    one_line_error(run(str(tiny), "-p", "x", "2", "-p", "out_dir", str(committed / "sub"), "--output",
                       str(tmp_path / "v.ipynb")), "inside the committed paper_tables/")


def test_unknown_parameters_and_bad_arguments(tiny, tmp_path):
    one_line_error(run(str(tiny), "-p", "y", "2"), "parameter 'y' is not in the parameters cell")
    one_line_error(run(str(tmp_path / "missing.ipynb")), "is not a notebook file")
    one_line_error(run(str(tiny), "--timeout", "soon"), "is not whole seconds from 1 to 604800")


NOT_NOTEBOOKS = {  # name -> what to put there (None: nothing, "dir": a folder)
    "missing.ipynb": None,
    "folder": "dir",
    "folder.ipynb": "dir",
    "notes.txt": "x = 1\n",
    "empty.ipynb": "",
    "not-json.ipynb": "{not json",
    "json-but-no-notebook.ipynb": '{"a": 1}',
    "a-list.ipynb": "[1, 2]",
}


@pytest.mark.parametrize("name", NOT_NOTEBOOKS)
def test_what_is_no_notebook_is_one_line_and_status_2(name, tmp_path):
    path, content = tmp_path / name, NOT_NOTEBOOKS[name]
    if content == "dir":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    p = run(str(path))
    one_line_error(p, f"notebook={str(path)!r} is not a notebook file")
    assert len(p.stderr) < 300 and p.stdout == ""
    assert sorted(q.name for q in tmp_path.iterdir()) == ([] if content is None else [name])  # nothing written


def test_a_failing_run_writes_nothing(tiny, tmp_path):
    before = tiny.read_bytes()
    out = tmp_path / "variant.ipynb"
    p = run(str(tiny), "-p", "x", "-5", "-p", "out_dir", str(tmp_path / "t"), "--output", str(out))
    one_line_error(p, "AssertionError: x must be >= 0")
    assert not out.exists() and tiny.read_bytes() == before
    assert not list(tmp_path.rglob(".variant.*"))


def test_a_variant_run_writes_where_it_is_told(tiny, tmp_path):
    out = tmp_path / "variant.ipynb"
    p = run(str(tiny), "-p", "x", "7", "-p", "out_dir", "../t", "--output", str(out))
    assert p.returncode == 0, p.stderr
    assert (tiny.parent.parent / "t" / "x.txt").read_text() == "7"  # relative to the notebook's folder
    outputs = nbformat.read(str(out), as_version=4).cells[-1].outputs
    assert outputs[0]["text"] == "7\n"
