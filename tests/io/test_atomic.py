"""Atomic writes (starlib.io.atomic): the target is replaced whole or left as it was, also when the writer fails,
is interrupted, or is killed by SIGKILL or SIGTERM in the middle of a big file; every writer of starlib.io uses it."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import starlib.io as sio
import starlib.networks as nw
from starlib.edst import auto_trees
from starlib.edst.trees import Tree
from starlib.interrupts import Terminated, sigterm_raises
from starlib.io.atomic import OutputError, atomic_open, atomic_write, check_target, stale_temporaries
from tests.paths import ROOT

OLD = b"the previous file\n"


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_write_replaces_the_file_and_leaves_nothing_else(tmp_path):
    p = tmp_path / "t.json"
    p.write_bytes(OLD)
    os.chmod(p, 0o640)
    assert atomic_write(p, b"new") == p and p.read_bytes() == b"new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640  # an existing file keeps its permissions
    q = atomic_write(tmp_path / "fresh.txt", [b"a", b"b"])
    mask = os.umask(0)
    os.umask(mask)
    assert q.read_bytes() == b"ab" and stat.S_IMODE(q.stat().st_mode) == 0o666 & ~mask  # as open() would make it
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [ValueError("bad chunk"), KeyboardInterrupt(), Terminated("signal 15")])
def test_an_exception_mid_write_keeps_the_old_file_and_removes_the_temporary(tmp_path, error):
    p = tmp_path / "t.json"
    p.write_bytes(OLD)

    def chunks():
        yield b"x" * 100_000
        raise error

    with pytest.raises(type(error)):
        atomic_write(p, chunks())
    assert p.read_bytes() == OLD and _leftovers(tmp_path) == []
    with pytest.raises(type(error)), atomic_open(p) as f:
        f.write(b"half")
        raise error
    assert p.read_bytes() == OLD and _leftovers(tmp_path) == []


def test_the_target_is_checked_before_any_work(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="output='.*/missing/t.json': the folder '.*/missing' does not exist"):
        check_target(tmp_path / "missing" / "t.json", "output")
    with pytest.raises(ValueError, match="output='.*' is a folder, not a file"):
        check_target(tmp_path, "output")
    with pytest.raises(ValueError, match="'.*/file' is not a folder"):
        check_target(tmp_path / "file" / "t.json", "output")
    with pytest.raises(ValueError, match="cannot create a file in '/proc'"):  # even the superuser cannot
        check_target("/proc/starlib-t.json", "output")
    with pytest.raises(ValueError, match="path='' is not a file path"):
        check_target("")
    with pytest.raises(ValueError, match="path=3 is not a file path"):
        check_target(3)
    assert check_target(str(tmp_path / "ok.json")) == tmp_path / "ok.json" and _leftovers(tmp_path) == []


def _writers(tmp_path: Path) -> dict:
    g = nw.slimfly(3)
    t = auto_trees(g)
    return {"write_json": lambda p: sio.write_json(p, g, t),
            "write_json v1": lambda p: sio.write_json(p, g, t, version=1),
            "write_edge_list": lambda p: sio.write_edge_list(p, g),
            "write_edge_list labels": lambda p: sio.write_edge_list(tmp_path / "other", g, labels_path=p),
            "write_tree_edge_list": lambda p: sio.write_tree_edge_list(p, t),
            "write_parent_arrays": lambda p: sio.write_parent_arrays(p, t),
            "write_graphml": lambda p: sio.write_graphml(p, g, t),
            "write_anynet": lambda p: sio.write_anynet(p, g),
            **{f"export {name}": (lambda p, name=name: sio.write_format(p, name, g, t)) for name in sio.FORMATS}}


def test_every_writer_writes_through_the_atomic_helper(tmp_path, monkeypatch):
    """With os.replace failing, no writer may touch the previous file (a direct write would)."""
    writers = _writers(tmp_path)
    for name, write in writers.items():
        p = tmp_path / "t.out"
        p.write_bytes(OLD)
        write(p)
        assert p.read_bytes() != OLD, name
    calls = []

    def refuse(src, dst):
        calls.append(dst)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sio.atomic.os, "replace", refuse)
    for name, write in writers.items():
        p = tmp_path / "t.out"
        p.write_bytes(OLD)
        with pytest.raises(OutputError, match=r"cannot replace the file \(No space left on device\); the previous"):
            write(p)  # a ValueError naming the file (the command line: one line, status 2), not a bare OSError
        assert p.read_bytes() == OLD and Path(calls[-1]) == p, name
        assert _leftovers(tmp_path) == [], name


def test_a_failing_encoder_leaves_the_old_file(tmp_path):
    p = tmp_path / "t.txt"
    p.write_bytes(OLD)
    with pytest.raises(ValueError, match="not a spanning tree"):
        sio.write_parent_arrays(p, [Tree(np.array([[0, 1], [0, 1]]), 0)])
    assert p.read_bytes() == OLD and _leftovers(tmp_path) == []


CHILD = textwrap.dedent("""
    import os, sys, time
    from starlib.io import atomic

    target, mode = sys.argv[1], sys.argv[2]

    def chunks():  # a big file, written slowly, so that the signal comes in the middle
        yield b"x" * (8 << 20)
        print("writing", flush=True)
        for _ in range(600):
            time.sleep(0.05)
            yield b"y" * (1 << 16)

    if mode == "json":  # a real writer: killed once the data is written, before the rename
        import starlib.networks as nw
        from starlib.edst import auto_trees
        from starlib.io import write_json

        def slow_fsync(fd):
            print("writing", flush=True)
            time.sleep(30)

        atomic.os.fsync = slow_fsync
        g = nw.bundlefly(3, 5)
        write_json(target, g, auto_trees(g))
    elif mode == "handled":
        from starlib.interrupts import sigterm_raises

        with sigterm_raises():
            atomic.atomic_write(target, chunks())
    else:
        atomic.atomic_write(target, chunks())
""")


@pytest.mark.parametrize("mode, sig, temporary_left", [
    ("plain", signal.SIGKILL, True), ("plain", signal.SIGTERM, True), ("json", signal.SIGKILL, True),
    ("json", signal.SIGTERM, True), ("handled", signal.SIGTERM, False), ("handled", signal.SIGKILL, True)])
def test_a_writer_killed_mid_write_leaves_the_previous_file_intact(tmp_path, mode, sig, temporary_left):
    target = tmp_path / "t.json"
    target.write_bytes(OLD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(target), mode], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        assert child.stdout.readline() == b"writing\n", child.stderr.read().decode()
        left = _leftovers(tmp_path)
        assert len(left) == 1 and left[0].startswith(".t.json.")  # the temporary file, being written
        child.send_signal(sig)
        child.wait(timeout=60)
    finally:
        child.kill()
        child.wait()
    assert child.returncode != 0
    assert target.read_bytes() == OLD
    assert (_leftovers(tmp_path) != []) == temporary_left
    if mode == "handled" and sig == signal.SIGTERM:
        assert b"Terminated: signal 15" in child.stderr.read()


def test_sigterm_raises_restores_the_previous_handler():
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_raises():
        assert signal.getsignal(signal.SIGTERM) is not before
        with pytest.raises(Terminated):
            os.kill(os.getpid(), signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before


def test_the_next_write_removes_what_a_killed_writer_left(tmp_path):
    """A writer killed by SIGKILL leaves its temporary file; the next write of the same target removes it, and
    nothing else: another target's leftover, a running writer's file and other names stay."""
    target = tmp_path / "t.json"
    target.write_bytes(OLD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(target), "plain"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        assert child.stdout.readline() == b"writing\n", child.stderr.read().decode()
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        child.kill()
        child.wait()
    left = _leftovers(tmp_path)
    assert len(left) == 1 and left[0].startswith(f".t.json.{child.pid}.")
    assert stale_temporaries(target) == [tmp_path / left[0]]
    kept = [f".other.json.{child.pid}.abcdefgh.tmp",           # another target's
            f".t.json.{os.getpid()}.abcdefgh.tmp",            # a running writer's (this process)
            ".t.json.abcdefgh.tmp", "t.json.1.abcdefgh.tmp"]  # not the pattern
    for name in kept:
        (tmp_path / name).write_bytes(b"x")
    atomic_write(target, b"new")
    assert target.read_bytes() == b"new"
    assert sorted(_leftovers(tmp_path)) == sorted(kept)
