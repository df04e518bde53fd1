"""The command line under a hostile environment and with odd options and files: one table, one fresh process a row.

Each row is the input (the arguments, the environment variables added, the files in an empty folder), the exit
status and words the output must hold; every row also checks that nothing was written (the folder holds exactly the
files it started with, byte for byte: no output, no temporary file) and that a status-2 refusal is one line on
standard error with no traceback. The rows cover:

* the environment, checked at start-up before numba is imported (``NUMBA_NUM_THREADS=100000`` used to end in a
  segmentation fault with no message, ``0`` in numba's words without the variable's name), and its siblings
  ``NUMBA_THREADING_LAYER``, ``NUMBA_CACHE_DIR``, ``STARLIB_PROGRESS``, ``STARLIB_PROGRESS_DELAY``;
* an ASCII locale (``LC_ALL=C PYTHONUTF8=0``): a verdict or a message holding a character the terminal's encoding
  lacks is written escaped (``\\u03c4``) instead of being lost to ``UnicodeEncodeError``;
* ``--option`` given twice for one key (refused like a repeated ``KEY=VALUE`` parameter);
* a sweep record's blank lines (at its end accepted, between rows refused by line);
* anynet files naming ids far beyond what the file holds (refused from the ids the file names, never by
  allocating ``range(10**17)``);
* edge lists whose words hold a no-break space or another Unicode space (part of the word: only ASCII spaces and
  tabs separate) or a control character (refused);
* ``--format routes --option table=1`` over ``--max-memory`` (refused from its size model before any table).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from starlib.io.routes import routes_size
from starlib.memory import process_baseline
from tests.paths import ROOT

#: Variables of the calling environment a row must not inherit (each row sets its own).
_CLEARED = ("NUMBA_NUM_THREADS", "NUMBA_THREADING_LAYER", "STARLIB_PROGRESS", "STARLIB_PROGRESS_DELAY",
            "STARLIB_TRACEBACK", "PYTHONIOENCODING", "LC_ALL", "LC_CTYPE", "LANG", "PYTHONUTF8")

#: An ASCII locale: standard output and error encode ASCII only.
ASCII = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}

_FILES: dict[str, bytes] = {}


def _trees_file(network: str = "", **params: object) -> bytes:
    import starlib
    from starlib.io import render

    fam = params.pop("family")
    g = starlib.network(fam, **params)
    return render("json", g, starlib.edsts(g), network=network or fam, params=params)


def files() -> dict[str, bytes]:
    """The input files of the rows, made once (a torus with a Greek name, Slim Fly MMS(13) for routes)."""
    if not _FILES:
        torus = json.loads(_trees_file(family="torus", sizes="3,3"))
        torus["network"] = "τόρος"
        _FILES["greek.json"] = json.dumps(torus, ensure_ascii=False).encode()
        _FILES["t.json"] = _trees_file(family="torus", sizes="3,3")
        _FILES["sf13.json"] = _trees_file(family="slimfly", q=13)
    return _FILES


def _routes_limit() -> str:
    """A --max-memory the export verb's baseline fits under, and MMS(13)'s routes with table=1 does not."""
    sf = json.loads(files()["sf13.json"])
    return str(process_baseline("export") + routes_size(sf["n"], len(sf["trees"]), 1).peak_bytes // 2)


ER_HEADER = ("q,family,vertices,edges,bound,trees,verified,max_depth,difference_set,isomorphism,sha256,seconds,"
             "peak_mb,note")

#: (id, argv, environment added, files {name: bytes or a name of files()}, status, words in stdout + stderr)
ROWS = [
    # -- the environment, before numba ------------------------------------------------------------------------
    ("threads 100000", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "100000"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS='100000'", "environment variable", "too large", "an integer from 1 to"]),
    ("threads 0", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "0"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS='0'", "too small", "an integer from 1 to 1024"]),
    ("threads -1", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "-1"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS='-1'", "is not an integer"]),
    ("threads empty", ["verify", "t.json"], {"NUMBA_NUM_THREADS": ""}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS=''", "is not an integer"]),
    ("threads word", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "two"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS='two'", "is not an integer"]),
    ("threads Arabic-Indic digit", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "\u0661"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS=", "is not an integer"]),
    ("threads 20 digits", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "9" * 20}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS=", "too large"]),
    ("threads 1 accepted", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "1"}, ["t.json"], 0, ["t.json: valid"]),
    ("threads beyond the CPUs accepted", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "8"}, ["t.json"], 0,
     ["t.json: valid"]),
    ("threads 1025", ["verify", "t.json"], {"NUMBA_NUM_THREADS": "1025"}, ["t.json"], 2,
     ["NUMBA_NUM_THREADS='1025'", "too large", "an integer from 1 to 1024"]),
    ("threads checked for build too", ["build", "torus", "sizes=3,3", "-o", "out.json"],
     {"NUMBA_NUM_THREADS": "0"}, [], 2, ["NUMBA_NUM_THREADS='0'"]),
    ("threads checked for networks too", ["networks"], {"NUMBA_NUM_THREADS": "100000"}, [], 2,
     ["NUMBA_NUM_THREADS='100000'"]),
    ("threading layer", ["verify", "t.json"], {"NUMBA_THREADING_LAYER": "fast"}, ["t.json"], 2,
     ["NUMBA_THREADING_LAYER='fast'", "workqueue"]),
    ("cache dir is a file", ["verify", "t.json"], {"NUMBA_CACHE_DIR": "t.json"}, ["t.json"], 2,
     ["NUMBA_CACHE_DIR='t.json'", "is not a folder"]),
    ("progress yes", ["verify", "t.json"], {"STARLIB_PROGRESS": "yes"}, ["t.json"], 2,
     ["STARLIB_PROGRESS='yes'", "0 (no progress bar) or 1"]),
    ("progress delay word", ["verify", "t.json"], {"STARLIB_PROGRESS_DELAY": "soon"}, ["t.json"], 2,
     ["STARLIB_PROGRESS_DELAY='soon'", "is not a number"]),
    ("progress delay negative", ["verify", "t.json"], {"STARLIB_PROGRESS_DELAY": "-1"}, ["t.json"], 2,
     ["STARLIB_PROGRESS_DELAY='-1'", "out of range", ">= 0"]),
    ("progress delay inf", ["verify", "t.json"], {"STARLIB_PROGRESS_DELAY": "inf"}, ["t.json"], 2,
     ["STARLIB_PROGRESS_DELAY='inf'", "is not a number"]),
    # -- an ASCII locale --------------------------------------------------------------------------------------
    ("C locale verify", ["verify", "greek.json"], ASCII, ["greek.json"], 0,
     ["greek.json: valid", "\\u03c4\\u03cc\\u03c1\\u03bf\\u03c2 sizes=3,3"]),
    ("C locale verify --json", ["verify", "greek.json", "--json"], ASCII, ["greek.json"], 0,
     ['"valid": true', '"network": "\\u03c4']),
    ("C locale info", ["info", "greek.json"], ASCII, ["greek.json"], 0, ["a file of \\u03c4", "vertices"]),
    ("C locale message", ["build", "slimfly", "q=\u0665"], ASCII, [], 2, ["q=", "is not an integer"]),
    ("C locale file name", ["info", "\u03c9.edges"], ASCII, [], 2, ["cannot read (No such file or directory)"]),
    ("C locale edge-list labels", ["info", "g.edges"], ASCII, {"g.edges": "α β\nβ γ\n".encode()}, 0,
     ["vertices          3"]),
    # -- --option once per key -----------------------------------------------------------------------------
    ("option twice (build)", ["build", "torus", "sizes=3,3", "--format", "anynet", "--option", "nodes_per_router=2",
                              "--option", "nodes_per_router=3", "-o", "out.anynet"], {}, [], 2,
     ["--option nodes_per_router is given twice", "nodes_per_router=2", "'nodes_per_router=3'"]),
    ("option twice, same value", ["export", "t.json", "--format", "msccl-xml", "--option", "chunks=2", "--option",
                                  "chunks=2", "-o", "a.xml"], {}, ["t.json"], 2, ["--option chunks is given twice"]),
    ("option twice (edsts)", ["edsts", "torus", "sizes=3,3", "--format", "graphml", "--option", "endpoints=1",
                              "--option", "endpoints=2", "-o", "t.graphml"], {}, [], 2,
     ["--option endpoints is given twice"]),
    ("parameter twice", ["build", "torus", "sizes=3,3", "sizes=4,4", "-o", "out.json"], {}, [], 2,
     ["sizes is given twice"]),
    # -- sweep records ---------------------------------------------------------------------------------------
    ("record: a trailing blank line", ["sweep", "er", "--q-max", "3", "--check-record", "1", "-o", "r.csv"], {},
     {"r.csv": (ER_HEADER + "\n\n").encode()}, 2, ["holds no row of this sweep"]),
    ("record: BOM, CRLF, blank lines", ["sweep", "er", "--q-max", "3", "--check-record", "1", "-o", "r.csv"], {},
     {"r.csv": ("\ufeff" + ER_HEADER + "\r\n\r\n\r\n").encode()}, 2, ["holds no row of this sweep"]),
    ("record: a blank line between rows", ["sweep", "er", "--q-max", "3", "--check-record", "1", "-o", "r.csv"],
     {}, {"r.csv": (ER_HEADER + "\n\n" + "x," * 13 + "x\n").encode()}, 2,
     ["line 2 is blank, between rows (line 3 follows it)"]),
    # -- anynet ids beyond the file ------------------------------------------------------------------------
    ("anynet router 10^17", ["info", "big.anynet"], {}, {"big.anynet": b"router 0 router 100000000000000000\n"}, 2,
     ["router 1 is never named", "the file names 2 routers"]),
    ("anynet node head 10^17", ["info", "n.anynet"], {}, {"n.anynet": b"node 100000000000000000 router 0\n"}, 2,
     ["router 1 is never named"]),
    ("anynet compute node 10^17", ["info", "c.anynet"], {},
     {"c.anynet": b"router 0 node 100000000000000000\nrouter 0 router 1\n"}, 2,
     ["compute node 0 is missing", "numbered up to 100000000000000000"]),
    ("anynet 19-digit id", ["info", "d.anynet"], {}, {"d.anynet": b"router 0 router 1000000000000000000\n"}, 2,
     ["more than 18 digits"]),
    # -- edge-list words -------------------------------------------------------------------------------------
    ("edge list: no-break space in a label", ["info", "nb.edges", "--json"], {},
     {"nb.edges": "rack\u00a01 r2\nr2 r3\n".encode()}, 0, ['"n": 3']),
    ("edge list: em space in a label", ["info", "em.edges", "--json"], {},
     {"em.edges": "a\u2003b c\nc d\n".encode()}, 0, ['"n": 3']),
    ("edge list: a no-break space does not separate", ["info", "one.edges"], {},
     {"one.edges": "a\u00a0b\n".encode()}, 2, ["line 1: 1 word", "two per line"]),
    ("edge list: ideographic space does not separate", ["info", "id.edges"], {},
     {"id.edges": "a\u3000b c\u3000d e\n".encode()}, 2, ["line 1: 3 words"]),
    ("edge list: tab separates", ["info", "tab.edges", "--json"], {}, {"tab.edges": b"a\tb\nb\t c\n"}, 0,
     ['"n": 3']),
    ("edge list: vertical tab", ["info", "vt.edges"], {}, {"vt.edges": b"a\x0bb c\n"}, 2,
     ["line 1: the control character '\\x0b'", "spaces and tabs only"]),
    ("edge list: form feed", ["info", "ff.edges"], {}, {"ff.edges": b"a b\nb\x0cc d\n"}, 2,
     ["line 2: the control character '\\x0c'"]),
    # -- routes over --max-memory --------------------------------------------------------------------------
    ("routes table over --max-memory", ["export", "sf13.json", "--format", "routes", "--option", "table=1",
                                        "--max-memory", "ROUTES_LIMIT", "-o", "routes.json"], {}, ["sf13.json"], 2,
     ["table=1 is too large", "routes(table=1, n=338", "over the memory limit"]),
]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name, argv, env, given, status, words", ROWS, ids=[r[0] for r in ROWS])
def test_refused_or_read_with_nothing_written(tmp_path, name, argv, env, given, status, words):
    made = given if isinstance(given, dict) else {f: files()[f] for f in given}
    for f, data in made.items():
        (tmp_path / f).write_bytes(data)
    argv = [_routes_limit() if a == "ROUTES_LIMIT" else a for a in argv]
    before = _snapshot(tmp_path)
    base = {k: v for k, v in os.environ.items() if k not in _CLEARED}
    done = subprocess.run([sys.executable, "-m", "starlib", *argv], capture_output=True, cwd=tmp_path, timeout=300,
                          env={**base, "PYTHONPATH": str(ROOT), **env})
    out, err = done.stdout.decode("ascii" if env is ASCII else "utf-8"), done.stderr.decode("ascii" if env is ASCII
                                                                                             else "utf-8")
    assert done.returncode == status, (name, out, err)
    for w in words:
        assert w in out + err, (name, w, out, err)
    assert "Traceback" not in err and "Segmentation" not in err, (name, err)
    if status == 2:
        assert err.startswith("error: ") and err.count("\n") == 1 and out == "", (name, out, err)
    assert _snapshot(tmp_path) == before, name  # nothing written, no temporary file left


def test_the_table_has_enough_rows():
    assert len(ROWS) >= 35 and len({r[0] for r in ROWS}) == len(ROWS)
