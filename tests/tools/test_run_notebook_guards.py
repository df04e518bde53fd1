"""tools/run_notebook.py: a run never writes onto a file or folder git tracks, refuses bad arguments in
one line (status 2) before papermill starts, and a run that fails or is stopped leaves nothing behind.

Every case runs the real runner in a subprocess. The refusals are tables (one row a kind); the checks after each
are that the committed files named in the row are byte- and mtime-identical and that no folder the run would
have written was created.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import nbformat
import pytest

from tests.paths import ROOT
from tests.tools.test_run_notebook import tiny_notebook

RUNNER = ROOT / "tools" / "run_notebook.py"
NB01 = ROOT / "notebooks" / "01-star-products.ipynb"
NB02 = ROOT / "notebooks" / "02-factor-graphs.ipynb"
MARK = f"guard-{uuid.uuid4().hex[:8]}"  # names no committed folder holds


def run(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUNNER), *map(str, args)], capture_output=True, text=True,
                          timeout=300, **kw)


def one_line_error(p: subprocess.CompletedProcess, text: str, status: int = 2) -> None:
    assert p.returncode == status, p.stderr
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("error: ") and text in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


def stamp(*paths: Path) -> dict[Path, tuple[bytes, int] | None]:
    return {p: (p.read_bytes(), p.stat().st_mtime_ns) if p.is_file() else None for p in paths}


@pytest.fixture()
def tiny(tmp_path: Path) -> Path:
    """A notebook (x, out_dir) that writes x.txt and sub/y.txt into out_dir, then fails when x < 0; with x == 99
    it writes ``ready`` and sleeps (to be stopped by a signal)."""
    return tiny_notebook(
        tmp_path, 'x = 1\nout_dir = "../paper_tables"\nlabel = "a"',
        "import pathlib, time\nd = pathlib.Path(out_dir)\nd.mkdir(parents=True, exist_ok=True)\n"
        "(d / 'x.txt').write_text(str(x))\n(d / 'sub').mkdir(exist_ok=True)\n(d / 'sub' / 'y.txt').write_text('y')\n"
        "if x == 99:\n    (d / 'ready').write_text('1')\n    time.sleep(120)\n"
        "assert x >= 0, 'x must be >= 0'\nprint(x, label)")


# -- refusals before papermill starts: (kind, arguments, text of the message, committed paths that must not change)
# In the arguments, TINY is the tiny notebook, TMP the test's folder.
REFUSED = [
    ("variant --output onto a committed notebook",
     [NB01, "-p", "q_max", "3", "-p", "out_dir", "TMP/t", "--output", NB02], "notebooks/02-factor-graphs.ipynb",
     [NB02]),
    ("variant --output onto its own committed notebook and out_dir ../data (the issue's command)",
     [NB01, "-p", "q_max", "3", "-p", "out_dir", "../data", "--output", NB01], "is the notebook", [NB01]),
    ("variant out_dir ../data (committed folder)",
     [NB01, "-p", "q_max", "3", "-p", "out_dir", "../data", "--output", "TMP/v.ipynb"], "data in this repository",
     []),
    ("out_dir: a new folder inside a committed one",
     ["TINY", "-p", "x", "2", "-p", "out_dir", ROOT / "data" / MARK, "--output", "TMP/v.ipynb"],
     f"data/{MARK} in this repository", []),
    ("out_dir: a committed folder reached by a symlink", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/docs-link",
                                                          "--output", "TMP/v.ipynb"], "is docs in this repository", []),
    ("--output: a committed file reached by a symlink",
     ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output", "TMP/nb01-link.ipynb"],
     "notebooks/01-star-products.ipynb in this repository", [NB01]),
    ("--output: a committed notebook, run without -p", [NB01, "--output", NB02], "notebooks/02-factor-graphs.ipynb",
     [NB02]),
    ("--output: a new file at the top of the repository",
     ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output", ROOT / f"{MARK}.ipynb"],
     f"{MARK}.ipynb in this repository", []),
    ("--output: the input itself through ..", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output",
                                               "TMP/nb/../nb/tiny.ipynb"], "is the notebook tiny.ipynb itself", []),
    ("--output: a folder", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output", "TMP/folder.ipynb"],
     "is a folder", []),
    ("--output: under a file", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output", "TMP/file/v.ipynb"],
     "which is a file", []),
    ("--output: not .ipynb", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/t", "--output", "TMP/v.txt"],
     "must end in .ipynb", []),
    ("out_dir: a file", ["TINY", "-p", "x", "2", "-p", "out_dir", "TMP/file", "--output", "TMP/v.ipynb"],
     "is a file: need a folder", []),
    ("out_dir: empty", ["TINY", "-p", "x", "2", "-p", "out_dir", "", "--output", "TMP/v.ipynb"], "is empty", []),
    ("out_dir: a shared folder (/tmp)", ["TINY", "-p", "x", "2", "-p", "out_dir", "/tmp", "--output",
                                         "TMP/v.ipynb"], "is a shared folder", []),
    ("-p: a name without a value", ["TINY", "-p", "x"], "expected 2 arguments", []),
    ("-p: an empty name", ["TINY", "-p", "", "2"], "parameter '' is not in the parameters cell", []),
    ("-p: a value that does not parse", ["TINY", "-p", "x", "[1,", "-p", "out_dir", "TMP/t", "--output",
                                         "TMP/v.ipynb"], "-p x [1,: the value is not a Python literal", []),
    ("-p: text for a number", ["TINY", "-p", "x", "abc", "-p", "out_dir", "TMP/t", "--output", "TMP/v.ipynb"],
     "-p x abc: the value is not a Python literal", []),
    ("-p: a flag for an integer", ["TINY", "-p", "x", "True", "-p", "out_dir", "TMP/t", "--output", "TMP/v.ipynb"],
     "-p x True: need an integer", []),
    ("-p: a float for an integer", ["TINY", "-p", "x", "2.5", "-p", "out_dir", "TMP/t", "--output", "TMP/v.ipynb"],
     "-p x 2.5: need an integer", []),
    ("--timeout 0", ["TINY", "--timeout", "0"], "'0' is not whole seconds from 1 to 604800", []),
    ("--timeout negative", ["TINY", "--timeout", "-5"], "'-5' is not whole seconds", []),
    ("--timeout huge", ["TINY", "--timeout", "10" * 12], "is not whole seconds", []),
    ("notebook: outside the repository, a folder", ["TMP"], "is not a notebook file", []),
]


@pytest.mark.parametrize("kind,args,text,committed", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_run_is_one_line_and_changes_nothing(kind, args, text, committed, tiny, tmp_path):
    (tmp_path / "folder.ipynb").mkdir()
    (tmp_path / "file").write_text("a file\n")
    (tmp_path / "docs-link").symlink_to(ROOT / "docs")
    (tmp_path / "nb01-link.ipynb").symlink_to(NB01)
    before_tmp = sorted(p.name for p in tmp_path.iterdir())
    data_before = sorted(p.name for p in (ROOT / "data").iterdir())
    before = stamp(*committed)
    argv = [str(tiny) if a == "TINY" else str(a).replace("TMP", str(tmp_path)) for a in args]
    one_line_error(run(*argv), text)
    assert stamp(*committed) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == before_tmp  # no t/, no v.ipynb, no temporary file
    assert sorted(p.name for p in (ROOT / "data").iterdir()) == data_before
    assert not (ROOT / f"{MARK}.ipynb").exists()


# -- runs that start and fail or are stopped: nothing is left


def test_a_failed_run_removes_the_folders_it_created(tiny, tmp_path):
    out_dir, out = tmp_path / "new" / "tables", tmp_path / "o" / "p" / "v.ipynb"
    p = run(tiny, "-p", "x", "-5", "-p", "out_dir", out_dir, "--output", out)
    one_line_error(p, "AssertionError: x must be >= 0 (nothing written)")
    assert sorted(q.name for q in tmp_path.iterdir()) == ["nb"]  # new/ and o/ are gone


def test_a_failed_run_restores_an_existing_out_dir(tiny, tmp_path):
    out_dir = tmp_path / "tables"
    out_dir.mkdir()
    (out_dir / "x.txt").write_text("old x\n")
    (out_dir / "keep.csv").write_text("a,b\n")
    before = stamp(out_dir / "x.txt", out_dir / "keep.csv")
    p = run(tiny, "-p", "x", "-5", "-p", "out_dir", out_dir, "--output", tmp_path / "v.ipynb")
    one_line_error(p, "AssertionError")
    assert sorted(q.name for q in out_dir.iterdir()) == ["keep.csv", "x.txt"]  # sub/ removed
    assert {k: v[0] for k, v in stamp(*before).items()} == {k: v[0] for k, v in before.items()}
    assert not (tmp_path / "v.ipynb").exists()


@pytest.mark.parametrize("sig,status,text", [(signal.SIGTERM, 143, "stopped by SIGTERM"),
                                             (signal.SIGINT, 130, "interrupted by Ctrl-C")])
def test_a_stopped_run_removes_what_it_wrote(tiny, tmp_path, sig, status, text):
    out_dir, out = tmp_path / "new" / "tables", tmp_path / "o" / "v.ipynb"
    proc = subprocess.Popen([sys.executable, str(RUNNER), str(tiny), "-p", "x", "99", "-p", "out_dir", str(out_dir),
                             "--output", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out_dir / "ready").exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.2)
    os.kill(proc.pid, sig)
    stdout, stderr = proc.communicate(timeout=120)
    one_line_error(subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr), text, status)
    assert sorted(q.name for q in tmp_path.iterdir()) == ["nb"]


def test_a_variant_may_write_into_an_ignored_folder(tiny):
    """build/ is ignored by git: a variant may write there (README's example does)."""
    where = ROOT / "build" / MARK
    try:
        p = run(tiny, "-p", "x", "3", "-p", "label", "b", "-p", "out_dir", where / "t", "--output", where / "v.ipynb")
        assert p.returncode == 0, p.stderr
        assert (where / "t" / "x.txt").read_text() == "3"
        assert nbformat.read(str(where / "v.ipynb"), as_version=4).cells[-1].outputs[0]["text"] == "3 b\n"
    finally:
        import shutil

        shutil.rmtree(where, ignore_errors=True)
