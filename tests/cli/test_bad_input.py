"""The command line's bad-input battery: every kind of bad input gets one line, exit status 2, and nothing written.

Each case runs ``starlib`` in-process (``starlib.cli.main``) in an empty folder, with an output file there when the
verb writes one, and asserts: status 2, nothing on standard output, exactly one line on standard error that names
the parameter (the fragment given), no traceback, and the folder still empty. The cases are a catalogue by kind:
family and parameter names, integer syntax, parameter rules, sizes refused before allocating, output targets,
formats and methods, and malformed files given to ``verify``. A few run as real processes (the entry point,
Ctrl-C, SIGTERM and SIGKILL during work and during the write, two concurrent writers): the previous file always
survives whole. The Python API's battery is tests/test_bad_input.py; the notebook runner's is in
tests/tools/test_run_notebook.py.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from starlib.cli import main
from starlib.io import read_json

OUT = "out.json"  # written in the test's empty folder when the verb writes a file

# (arguments, fragment of the one-line message); "{out}" is replaced by the output file's path
FAMILIES_AND_NAMES = [
    (["build", "no-such-net"], "network='no-such-net' is not a known family"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["build", "slimfly"], "slimfly needs q"),
    (["build", "slimfly", "p=5"], "p is not a parameter of slimfly"),
    (["build", "slimfly", "5"], "argument '5' is not of the form KEY=VALUE"),
    (["build", "slimfly", "q=5", "q=5"], "q is given twice"),
    (["build", "slimfly", "=5"], " is not a parameter of slimfly"),
    (["info"], "the following arguments are required: network"),
    (["info", "slimfly", "q=5", "--foo"], "unrecognized arguments: --foo"),
    (["build", "cartesian", "G=complete:m=4", "H=paley:q=5"], "m is not a parameter of complete"),
    (["build", "cartesian", "G=nothing:n=4", "H=paley:q=5"], "network='nothing' is not a known family"),
    (["build", "cartesian", "G=", "H=paley:q=5"], "G='' must be a family spec"),
]
INTEGER_SYNTAX = [
    (["build", "slimfly", "q=abc"], "q='abc' is not an integer"),
    (["build", "slimfly", "q=٥"], "q='٥' is not an integer"),  # Arabic-Indic five: int() would take it
    (["build", "slimfly", "q=５"], "q='５' is not an integer"),  # full-width five
    (["build", "slimfly", "q=1_3"], "q='1_3' is not an integer"),
    (["build", "slimfly", "q= 5 "], "q=' 5 ' is not an integer"),
    (["build", "slimfly", "q=+5"], "q='+5' is not an integer"),
    (["build", "slimfly", "q=5.0"], "q='5.0' is not an integer"),
    (["build", "slimfly", "q=1e3"], "q='1e3' is not an integer"),
    (["build", "slimfly", "q="], "q='' is empty"),
    (["build", "slimfly", "q=" + "7" * 5000], "is too large: need at most 40 digits"),
    (["build", "slimfly", "q=5,5"], "q='5,5' must be a single integer"),
    (["build", "hyperx", "sizes=4,x"], "sizes='4,x': item 2 'x' is not an integer"),
    (["build", "hyperx", "sizes=4,,4"], "sizes='4,,4': item 2 is empty"),
    (["build", "hyperx", "sizes=4,"], "sizes='4,': item 2 is empty"),
    (["build", "hyperx", "sizes=" + ",".join(["2"] * 65)], "sizes="),
    (["build", "cartesian", "G=complete:n=abc", "H=paley:q=5"], "n='abc' is not an integer"),
]
RULES = [
    (["build", "slimfly", "q=6"], "q=6"),
    (["build", "slimfly", "q=-5"], "q=-5 is not a prime power"),
    (["build", "slimfly", "q=2"], "q=2"),
    (["build", "paley", "q=7"], "q=7"),
    (["build", "inductive-quad", "d=5"], "d=5"),
    (["build", "torus", "sizes=2,2"], "sizes=2 is too small"),
    (["build", "chimera", "rows=3", "cols=4"], "rows=3"),
    (["build", "star", "k=11"], "k=11 is too large"),
    (["build", "macro-star", "l=1", "n=2"], "l=1 is too small"),
    (["build", "polarstar", "q=3", "d=3", "loops=2"], "loops=2 is not a flag"),
    (["build", "polarstar", "q=3"], "paley_q and d are both missing"),
    (["build", "polarstar", "q=3", "paley_q=5", "d=3"], "not both"),
    (["build", "polarstar", "q=3", "supernode=star", "d=3"], "supernode='star'"),
    (["build", "polarstar-iq", "q=3", "d=5"], "d=5"),
    (["build", "bundlefly", "q=5", "paley_q=7"], "paley_q=7"),
    (["build", "cartesian", "G=complete:n=4", "H=paley:q=7"], "q=7"),
    (["build", "netdesign-random", "N=4", "n=1", "M=1", "m=1"], "m: the 1 router ports cannot hold"),
]
SIZES = [  # refused from the parameters alone, before anything is allocated
    (["info", "slimfly", "q=100003"], "q=100003 is too large: slimfly(q=100003) would have 20,001,200,018 vertices"),
    (["info", "slimfly", "q=1000000007"], "q=1000000007 is too large"),
    (["info", "slimfly", "q=2305843009213693951"], "q=2305843009213693951 is too large"),  # 2^61 - 1: Miller-Rabin
    (["info", "polarfly", "q=1024", "--max-memory", "1G"], "over the memory limit of 1.00 GiB"),
    (["build", "complete", "n=20000", "--max-memory", "8G"], "n=20000 is too large: complete(n=20000) would have "
                                                              "20,000 vertices and 199,990,000 edges"),
    (["info", "torus", "sizes=1000,1000,1000"], "sizes='1000,1000,1000' is too large"),
    (["info", "slimfly", "q=5", "--max-memory", "1M"], "the memory limit of 1.00 MiB is too small for slimfly(q=5): "
                                                       "the interpreter and libraries alone take about 304 MiB"),
    (["info", "slimfly", "q=5", "--max-memory", "abc"], "--max-memory='abc' is not a memory size"),
    (["info", "slimfly", "q=5", "--max-memory", "0"], "--max-memory='0' is too small"),
    # directed from its generators: refused before the 10! nodes are built (it used to build 2 GB first)
    (["edsts", "macro-rotator", "l=3", "n=3", "-o", "{out}"], "macro-rotator l=3 n=3: the graph is directed"),
]
OUTPUT = [  # checked before any work
    (["edsts", "slimfly", "q=5", "-o", "/nonexistent-folder/x.json"], "--output='/nonexistent-folder/x.json': the "
                                                                      "folder '/nonexistent-folder' does not exist"),
    (["edsts", "slimfly", "q=5", "-o", "{dir}"], "is a folder, not a file"),
    (["edsts", "slimfly", "q=5", "-o", "/dev/full"], "--output='/dev/full' is not a regular file"),
    (["build", "slimfly", "q=5", "-o", "/dev/null"], "--output='/dev/null' is not a regular file"),
    (["edsts", "slimfly", "q=5", "-o", "/proc/version"], "--output='/proc/version' is read-only (mode 0444)"),
    (["edsts", "slimfly", "q=5", "-o", ""], "--output='' is not a file path"),
    (["edsts", "slimfly", "q=5", "-o", "{file}/x.json"], "is not a folder"),
    (["build", "slimfly", "q=5", "-o"], "argument -o/--output: expected one argument"),
]
FORMATS_AND_METHODS = [
    (["edsts", "slimfly", "q=5", "--method", "nonsense", "-o", "{out}"], "method='nonsense' is not one of"),
    (["edsts", "paley", "q=13", "--method", "maximum", "-o", "{out}"], "method='maximum' needs a star product"),
    (["edsts", "slimfly", "q=3", "--method", "universal", "-o", "{out}"], "method='universal' builds no spanning tree "
                                                                          "for slimfly q=3"),  # t_G + t_H - 2 = 0
    (["edsts", "slimfly", "q=5", "--format", "nonsense", "-o", "{out}"], "--format='nonsense' is not one of"),
    (["build", "slimfly", "q=5", "--format", "parents", "-o", "{out}"], "--format='parents' writes trees"),
    (["build", "slimfly", "q=5", "--format", "anynet", "--option", "foo=1", "-o", "{out}"],
     "--option 'foo=1': format anynet takes nodes_per_router=N"),
    (["build", "slimfly", "q=5", "--format", "anynet", "--option", "nodes_per_router=x", "-o", "{out}"],
     "nodes_per_router='x' is not an integer"),
    (["build", "slimfly", "q=5", "--format", "anynet", "--option", "nodes_per_router=0", "-o", "{out}"],
     "nodes_per_router=0 is too small"),
    (["build", "slimfly", "q=5", "--format", "edgelist", "--option", "latency=2", "-o", "{out}"],
     "format edgelist takes no option"),
]
V2_HEAD = '{"format":"starlib","version":2,"network":"","params":{},"directed":false,"n":3,"m":3,'
V2_OK = V2_HEAD + '"nodes":[0,1,2],"adjacency":[[1,2],[2],[]]'
FILES = [  # verify FILE: a file that is not a starlib file with trees is bad input (2), not an invalid family (1)
    (b"5", "the top level is"),
    (b"null", "the top level is"),
    (b'"text"', "the top level is"),
    (b"", "the file is empty"),
    (b"{", "not JSON"),
    (b'{"nodes": 5, "edges": [], "trees": []}', "nodes"),
    (b'{"nodes": [0, 1], "edges": [[0, 1]], "trees": [5]}', "trees"),
    (b'{"nodes": [0, 1], "edges": [[0, 1]], "trees": [[[0, 1]]]}', "trees"),  # a tree that is a bare list
    (b'{"nodes": [{"a": 1}, 1], "edges": [[0, 1]], "trees": []}', "nodes"),  # a dict label
    (b"[" * 100_000 + b"]" * 100_000, "not JSON"),  # nesting deep enough for a RecursionError
    (b'{"nodes": [0, 1], "edges": [[0, 1]], "trees": [{"edges": [[0, 1]]}]}\xff\xfe', "not JSON"),
    (b'\xff\xfe{"nodes": []}', "not JSON"),  # not UTF-8
    (b'{"nodes": [0, 1], "edges": [[0, NaN]], "trees": []}', "not JSON"),
    (b'{"nodes": [0, 1], "edges": [[0, 1]]}', "has no trees"),  # what build writes
    (b'{"nodes": [0, 1], "edges": [[0, 1]], "trees": []}', "lists 0 trees"),
    ((V2_OK + "}").encode(), "has no trees"),
    ((V2_OK + ',"trees":[]}').encode(), "lists 0 trees"),
    ((V2_OK + ',"trees":[{"root":0,"parent":[-1,0.0,1]}]}').encode(), "trees"),  # a float index
    ((V2_OK + ',"trees":[{"root":0,"parent":[-1,0,7]}]}').encode(), "trees"),  # out of range
    ((V2_OK + ',"trees":[{"root":0,"parent":[-1,0]}]}').encode(), "trees"),  # too short
    (V2_OK.replace('"version":2', '"version":3').encode() + b"}", "version"),
    (V2_OK.replace('"format":"starlib"', '"format":"other"').encode() + b"}", "format"),
    (V2_OK.replace('"n":3', '"n":true').encode() + b"}", "n"),
    (V2_OK.replace("[[1,2],[2],[]]", "[[1,2],[2],[9]]").encode() + b"}", "adjacency"),
]

CASES = [*FAMILIES_AND_NAMES, *INTEGER_SYNTAX, *RULES, *SIZES, *OUTPUT, *FORMATS_AND_METHODS]


def _ids(cases):
    return [" ".join(a)[:60] if isinstance(a, list) else a[:40].decode("latin-1") for a, _ in cases]


def _check_one_line(code, out, err, fragment, folder):
    assert code == 2, err
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err  # one line
    assert fragment in err, err
    assert "Traceback" not in err and len(err) < 400
    assert sorted(os.listdir(folder)) == [], "something was written"


@pytest.mark.parametrize("args, fragment", CASES, ids=_ids(CASES))
def test_bad_arguments(args, fragment, capsys, tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "a-file").write_text("x")
    monkeypatch.chdir(work)
    args = [a.replace("{out}", str(work / OUT)).replace("{dir}", str(tmp_path)).replace("{file}",
                                                                                        str(tmp_path / "a-file"))
            for a in args]
    if args[0] in ("build", "edsts") and "-o" not in args and args != ["build", "slimfly", "q=5", "-o"]:
        args += ["-o", str(work / OUT)]
    code = main(args)
    out, err = capsys.readouterr()
    _check_one_line(code, out, err, fragment, work)


@pytest.mark.parametrize("content, fragment", FILES, ids=_ids(FILES))
def test_malformed_files_given_to_verify(content, fragment, capsys, tmp_path):
    f = tmp_path / "in" / "t.json"
    f.parent.mkdir()
    f.write_bytes(content)
    work = tmp_path / "work"
    work.mkdir()
    code = main(["verify", str(f)])
    out, err = capsys.readouterr()
    _check_one_line(code, out, err, fragment, work)
    assert f"{f}" in err  # the message names the file
    assert f.read_bytes() == content


def test_verify_missing_file_and_folder(capsys, tmp_path):
    for target, fragment in ((tmp_path / "missing.json", "cannot read (No such file or directory)"),
                             (tmp_path, "cannot read (Is a directory)")):
        code = main(["verify", str(target)])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.count("\n") == 1 and fragment in err and str(target) in err


def test_the_output_is_checked_before_the_work(monkeypatch, capsys, tmp_path):
    from starlib.family import Family

    def boom(*a, **k):
        raise AssertionError("built although the output cannot be written")

    monkeypatch.setattr(Family, "build", boom)
    assert main(["edsts", "slimfly", "q=125", "-o", str(tmp_path / "nodir" / "x.json")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["edsts", "slimfly", "q=125", "--format", "nope", "-o", str(tmp_path / "x.json")]) == 2
    assert "--format='nope'" in capsys.readouterr().err


def test_battery_size():
    """The issue asks for at least 80 kinds across the command line, the API and the runner."""
    assert len(CASES) + len(FILES) + 2 >= 80


# -- real processes: the entry point, signals, concurrent writers -----------------------------------------------------
def _default_sigint():
    # a process started from a background job (or an xdist worker) inherits SIGINT ignored, and Python keeps it
    # ignored; the command line then rightly ignores Ctrl-C. The signal tests need what a terminal gives.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _starlib(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "starlib", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=_default_sigint, **kw)


def test_entry_point_one_line_no_traceback(tmp_path):
    for args in (["build", "slimfly", "q=6"], ["verify", str(tmp_path)],
                 ["edsts", "slimfly", "q=5", "-o", "/dev/full"]):
        p = _starlib(*args)
        out, err = p.communicate()
        assert p.returncode == 2 and out == "" and err.count("\n") == 1 and err.startswith("error: ")


def _previous(tmp_path):
    """A valid previous file (Slim Fly MMS(5) and its trees) the killed runs must leave intact."""
    f = tmp_path / "t.json"
    # the generic packing's kernels compiled into numba's cache first, so the signal lands in the packing and not
    # in a fresh clone's first compilation (where llvmlite's callbacks see it; main delivers it again)
    assert main(["edsts", "slimfly", "q=5", "--method", "generic", "-o", str(f), "-q"]) == 0
    assert main(["edsts", "slimfly", "q=5", "-o", str(f), "-q"]) == 0
    return f, f.read_bytes()


def _wait_for_stage(p, stage, timeout=120):
    """Collect the run's stderr in a thread until the progress bar names ``stage`` (the signal then lands in the
    work, after the handlers are installed, however loaded the machine is); return the collector."""
    import threading

    seen = []

    def read():
        while chunk := p.stderr.read(1):
            seen.append(chunk)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    deadline = time.monotonic() + timeout
    while stage not in "".join(seen):
        assert p.poll() is None and time.monotonic() < deadline, "the run ended before the stage: " + "".join(seen)
        time.sleep(0.05)
    return t, seen


@pytest.mark.parametrize("sig, status, message", [(signal.SIGINT, 130, "interrupted"),
                                                  (signal.SIGTERM, 143, "terminated")])
def test_interrupt_during_work_leaves_the_previous_file(sig, status, message, tmp_path, capsys):
    f, before = _previous(tmp_path)
    p = _starlib("edsts", "star", "k=9", "--method", "generic", "-o", str(f), cwd=tmp_path,  # 30-70 s of packing
                 env={**os.environ, "STARLIB_PROGRESS": "1", "STARLIB_PROGRESS_DELAY": "0"})
    reader, seen = _wait_for_stage(p, "edsts star: trees")
    p.send_signal(sig)
    p.wait(timeout=120)
    reader.join(timeout=60)
    err = "".join(seen)
    last = err.replace("\r", "\n").strip().splitlines()[-1]  # the bar is cleared with carriage returns
    assert p.returncode == status and last == message and "Traceback" not in err, err
    assert f.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir()) == ["t.json"]  # no temporary file left


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_kill_during_the_write_leaves_a_whole_file(sig, tmp_path):
    """Kill a run that writes a 17 MB file as soon as its temporary file appears: the target is the previous file
    or, if the rename won the race, the complete new one; never a partial file."""
    f, before = _previous(tmp_path)
    p = _starlib("edsts", "bundlefly", "q=29", "paley_q=29", "-o", str(f), "-q", cwd=tmp_path)
    deadline = time.monotonic() + 120
    while p.poll() is None and time.monotonic() < deadline:
        if any(x.name.startswith(".t.json.") for x in tmp_path.iterdir()):
            p.send_signal(sig)
            break
        time.sleep(0.0005)
    p.communicate(timeout=120)
    after = f.read_bytes()
    if after != before:
        nf = read_json(f)  # the new file, whole
        assert len(nf.trees) == 28 and nf.graph.n == 48_778
    else:
        assert read_json(f).graph.n == 50


def test_two_concurrent_writers_leave_one_whole_file(tmp_path):
    f = tmp_path / "t.json"
    runs = [_starlib("edsts", *args, "-o", str(f), "-q") for args in (["slimfly", "q=25"], ["bundlefly", "q=7",
                                                                                           "paley_q=13"])]
    for p in runs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    nf = read_json(f)
    assert (nf.network, nf.graph.n) in {("slimfly", 2 * 25**2), ("bundlefly", 2 * 7**2 * 13)}
    assert json.loads(f.read_bytes())["format"] == "starlib"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["t.json"]
    assert Path(f).stat().st_size > 0


@pytest.mark.parametrize("exc, status, message", [(KeyboardInterrupt, 130, "interrupted"),
                                                  ("terminated", 143, "terminated")])
def test_an_interrupt_swallowed_by_a_callback_still_stops_the_run(exc, status, message, monkeypatch, capsys,
                                                                   tmp_path):
    """Ctrl-C or SIGTERM landing in a ctypes callback while numba compiles reaches Python only through
    sys.unraisablehook; the command line keeps it and stops at the next stage, writing nothing."""
    import types

    from starlib.interrupts import Terminated

    error = KeyboardInterrupt() if exc is KeyboardInterrupt else Terminated("signal 15 (SIGTERM)")

    def swallowing(run):
        def swallowed(progress=None):
            sys.unraisablehook(types.SimpleNamespace(exc_type=type(error), exc_value=error, exc_traceback=None,
                                                     err_msg="Exception ignored on calling ctypes callback function",
                                                     object=None))
            return run(progress)
        return swallowed

    _replace_runs(monkeypatch, swallowing)
    f = tmp_path / "t.json"
    assert main(["edsts", "slimfly", "q=5", "-o", str(f)]) == status
    out, err = capsys.readouterr()
    assert err == f"{message}\n" and out == "" and not f.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("signame, status, message", [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_a_signal_whose_exception_vanished_still_stops_the_run(signame, status, message, monkeypatch, capsys,
                                                               tmp_path):
    """A handled signal whose exception something swallowed without any trace (not even sys.unraisablehook):
    the handler recorded the signal, and the next stage raises it again, writing nothing."""
    import signal as signal_module

    signum = getattr(signal_module, signame)

    def swallowing(run):
        def swallowed(progress=None):
            try:
                signal_module.getsignal(signum)(signum, None)  # the command line's own handler
            except BaseException:  # noqa: BLE001 -- what a careless callback would do
                pass
            return run(progress)
        return swallowed

    _interrupted_run_writes_nothing(monkeypatch, capsys, tmp_path, swallowing, status, message)


@pytest.mark.parametrize("signame, status, message", [("SIGINT", 130, "interrupted"), ("SIGTERM", 143, "terminated")])
def test_a_compilation_cut_short_by_a_signal_ends_as_interrupted(signame, status, message, monkeypatch, capsys,
                                                                 tmp_path):
    """Seen on a fresh clone: Ctrl-C inside numba's compiler left a half-built llvmlite object, whose finalizer
    raised AttributeError (a traceback after 'interrupted'), and the kernel's library then failed with
    RuntimeError('no compiled object yet ...') (status 70, 'internal error'). Both follow a signal the run
    received and raised again, so the run ends as interrupted, with one line and nothing written."""
    import signal as signal_module

    from starlib.interrupts import Terminated

    signum = getattr(signal_module, signame)

    class HalfBuilt:  # llvmlite's PassBuilder when the signal lands in its constructor
        def __del__(self):
            del self._as_parameter_

    def cutting(run):
        def cut_short(progress=None):
            try:
                signal_module.getsignal(signum)(signum, None)  # the command line's own handler
            except BaseException:  # noqa: BLE001 -- numba's compiler swallows it
                pass
            try:
                from starlib.interrupts import INTERRUPTS

                INTERRUPTS.raise_pending()  # the next stage raises the kept signal ...
            except (KeyboardInterrupt, Terminated):
                pass  # ... and a careless callback swallows it again
            HalfBuilt()  # its finalizer fails at once (reference counting)
            raise RuntimeError("no compiled object yet for <Library '_csr' at 0x7f>")
        return cut_short

    _interrupted_run_writes_nothing(monkeypatch, capsys, tmp_path, cutting, status, message)


def _replace_runs(monkeypatch, wrap):
    """Every method's plan runs ``wrap(run)`` instead of its ``run`` (what a careless callback inside does)."""
    import dataclasses

    from starlib.edst.methods import Method

    real = Method.plan
    monkeypatch.setattr(Method, "plan", lambda self, graph: dataclasses.replace(p := real(self, graph),
                                                                                run=wrap(p.run)))


def _interrupted_run_writes_nothing(monkeypatch, capsys, tmp_path, wrap, status, message):
    """``edsts`` with each plan's run wrapped by ``wrap``, SIGINT at its terminal default: one line, no file."""
    import signal as signal_module

    _replace_runs(monkeypatch, wrap)
    previous = signal_module.signal(signal_module.SIGINT, signal_module.default_int_handler)  # as in a terminal
    try:
        f = tmp_path / "t.json"
        assert main(["edsts", "slimfly", "q=5", "-o", str(f)]) == status
    finally:
        signal_module.signal(signal_module.SIGINT, previous)
    out, err = capsys.readouterr()
    assert err == f"{message}\n" and out == "" and not f.exists() and list(tmp_path.iterdir()) == []
