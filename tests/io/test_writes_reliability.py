"""Bad output targets on the real command line: each kind is refused in one line with status 2,
or written as asked, and never leaves a half file, a temporary file or a replaced file the user may not change.

Every case runs ``starlib`` in a subprocess on real files: a read-only file, links (to a read-only file, to a
folder, to nothing, in a loop), names (empty, ending with '/', too long, with a newline), folders (a file in the
way, /proc, /sys, a read-only mount, one without write permission, one with the sticky bit), devices
(/dev/full), and what the system refuses only while writing (a full disk, a file size limit): for those the line
names the file and the system's reason, the previous file is intact and no temporary file is left. Cases that
need the superuser (to run as ``nobody``, to mount a small tmpfs, to set the immutable attribute) are skipped
with the reason elsewhere.
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.paths import ROOT

ROOTUSER = hasattr(os, "geteuid") and os.geteuid() == 0
NOBODY = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
EDSTS = ["edsts", "polarfly", "q=3"]
OLD = b"the previous file\n"


@pytest.fixture
def world() -> Iterator[Path]:
    """A folder everyone may enter (pytest's tmp_path is private to its user): for runs as ``nobody``."""
    d = Path(tempfile.mkdtemp(prefix="starlib-writes-", dir="/tmp"))
    os.chmod(d, 0o755)
    (d / "cache").mkdir(mode=0o777)
    os.chmod(d / "cache", 0o777)
    try:
        yield d
    finally:
        if (d / "imm.json").exists():  # the immutable file of its case would stop rmtree
            subprocess.run(["chattr", "-i", str(d / "imm.json")], capture_output=True)
        for mount in sorted((p for p in d.rglob("*") if p.is_dir() and os.path.ismount(p)), reverse=True):
            subprocess.run(["umount", str(mount)], capture_output=True)
        shutil.rmtree(d, ignore_errors=True)


def starlib(args: list[str], cwd: Path, *, user: str = "", fsize: int | None = None) -> subprocess.CompletedProcess:
    """``python -m starlib ARGS`` in ``cwd``, as this user or (``user='nobody'``) as nobody, optionally with a
    file size limit (RLIMIT_FSIZE, bytes)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(cwd / "cache") if user else
           os.environ.get("NUMBA_CACHE_DIR", ""), "STARLIB_TRACEBACK": ""}
    env = {k: v for k, v in env.items() if v != ""}
    limit = None if fsize is None else (lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize)))
    cmd = (NOBODY if user == "nobody" else []) + [sys.executable, "-m", "starlib", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, preexec_fn=limit)


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder`` (links not followed): its kind, mode, owner and bytes or link target."""
    out: dict[str, tuple] = {}
    for p in sorted(folder.rglob("*")):
        if "cache" in p.relative_to(folder).parts:  # numba's cache of the runs as nobody
            continue
        st = p.lstat()
        body = (os.readlink(p) if p.is_symlink() else p.read_bytes() if stat.S_ISREG(st.st_mode) else None)
        out[str(p.relative_to(folder))] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode), st.st_uid, body)
    return out


def need_root(why: str) -> None:
    if not ROOTUSER:
        pytest.skip(f"needs the superuser: {why}")


@functools.cache
def _nobody_can_run() -> str:
    """Why ``nobody`` cannot run this checkout's starlib ('' when it can): a checkout in a private folder (a fresh
    clone under ``mktemp -d``, mode 0700) is out of its reach."""
    probe = starlib(["--version"], Path("/"), user="nobody")
    return "" if probe.returncode == 0 else (probe.stderr.strip().splitlines() or ["status 1"])[-1]


def need_nobody() -> None:
    need_root("running starlib as nobody")
    if shutil.which("setpriv") is None:
        pytest.skip("running starlib as nobody needs setpriv (util-linux)")
    why = _nobody_can_run()
    if why:
        pytest.skip(f"user nobody cannot run this checkout's starlib ({why}): the checkout or its venv is in a "
                    "folder nobody may not enter")


def mount_tmpfs(folder: Path, options: str) -> None:
    need_root("mounting a small tmpfs")
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True,
                          text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode})")


def fill(folder: Path) -> None:
    """Write into ``folder`` until the file system is full."""
    with open(folder / "filler", "wb", buffering=0) as f, contextlib.suppress(OSError):
        while True:
            f.write(b"\0" * 4096)


# -- the setups: each makes its files in the folder d and returns (the -o argument, run as, file size limit) ---------

def _read_only(d: Path):
    (d / "ro.json").write_bytes(OLD)
    os.chmod(d / "ro.json", 0o444)
    return "ro.json", "", None


def _link_to_read_only(d: Path):
    _read_only(d)
    os.symlink("ro.json", d / "link.json")
    return "link.json", "", None


def _dangling_link(d: Path):
    os.symlink("nowhere/x.json", d / "link.json")
    return "link.json", "", None


def _dangling_link_in_folder(d: Path):
    os.symlink("missing.json", d / "link.json")
    return "link.json", "", None


def _link_to_folder(d: Path):
    (d / "sub").mkdir()
    os.symlink("sub", d / "link.json")
    return "link.json", "", None


def _link_loop(d: Path):
    os.symlink("b.json", d / "a.json")
    os.symlink("a.json", d / "b.json")
    return "a.json", "", None


def _trailing_slash(d: Path):
    return "new.json/", "", None


def _trailing_slash_on_a_file(d: Path):
    (d / "old.json").write_bytes(OLD)
    return "old.json/", "", None


def _parent_is_a_file(d: Path):
    (d / "plain").write_bytes(OLD)
    return "plain/x.json", "", None


def _name_too_long(d: Path):
    return "n" * 300 + ".json", "", None


def _path_too_long(d: Path):
    return "/".join(["a" * 200] * 25) + "/x.json", "", None


def _newline(d: Path):
    return "two\nlines.json", "", None


def _immutable(d: Path):
    need_root("the immutable attribute (chattr +i)")
    (d / "imm.json").write_bytes(OLD)
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(d / "imm.json")],
                                                        capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available on this file system")
    return "imm.json", "", None


def _read_only_mount(d: Path):
    mount_tmpfs(d / "ro", "size=64k,ro")
    return "ro/x.json", "", None


def _file_on_a_read_only_mount(d: Path):
    mount_tmpfs(d / "ro", "size=64k")
    (d / "ro" / "x.json").write_bytes(OLD)
    if subprocess.run(["mount", "-o", "remount,ro", str(d / "ro")], capture_output=True).returncode != 0:
        pytest.skip("cannot remount the tmpfs read-only")
    return "ro/x.json", "", None


def _no_inode_left(d: Path):
    mount_tmpfs(d / "fs", "size=64k,nr_inodes=2")  # the root folder takes one inode
    (d / "fs" / "x.json").write_bytes(OLD)
    return "fs/new.json", "", None


def _other_users_file(d: Path):
    need_nobody()
    os.chmod(d, 0o777)
    (d / "root.json").write_bytes(OLD)
    os.chmod(d / "root.json", 0o644)
    return "root.json", "nobody", None


def _folder_not_writable(d: Path):
    need_nobody()
    (d / "shut").mkdir(mode=0o755)
    return "shut/x.json", "nobody", None


def _sticky_folder(d: Path):
    need_nobody()
    os.chmod(d, 0o1777)
    (d / "shared.json").write_bytes(OLD)
    os.chmod(d / "shared.json", 0o666)  # writable by nobody, yet only root may replace it in a sticky folder
    return "shared.json", "nobody", None


def _full_disk(d: Path):
    mount_tmpfs(d / "fs", "size=64k")
    (d / "fs" / "x.json").write_bytes(OLD)
    fill(d / "fs")
    return "fs/x.json", "", None


def _file_size_limit(d: Path):
    (d / "x.json").write_bytes(OLD)
    return "x.json", "", 512  # slim fly q=5's file is 1.2 kB; the process may write files of 512 bytes


# (kind, setup, verb and options, fragment of the one line on standard error)
CASES: list[tuple[str, Callable, list[str], str]] = [
    ("read-only file (mode 0444)", _read_only, EDSTS, "--output='ro.json' is read-only (mode 0444); make it "
                                                      "writable or choose another file"),
    ("symbolic link to a read-only file", _link_to_read_only, EDSTS, "--output='link.json' is read-only (mode 0444)"),
    ("dangling symbolic link", _dangling_link, EDSTS, "is a symbolic link to 'nowhere/x.json', which does not exist"),
    ("dangling symbolic link, its folder exists", _dangling_link_in_folder, EDSTS, "which does not exist; starlib "
                                                                                   "does not create files through"),
    ("symbolic link to a folder", _link_to_folder, EDSTS, "--output='link.json' is a folder, not a file"),
    ("loop of symbolic links", _link_loop, EDSTS, "is a symbolic link that cannot be followed (Too many levels"),
    ("trailing slash", _trailing_slash, EDSTS, "--output='new.json/' ends with '/': it names a folder, not a file"),
    ("trailing slash on a file", _trailing_slash_on_a_file, EDSTS, "--output='old.json/' ends with '/'"),
    ("the parent is a file", _parent_is_a_file, EDSTS, "--output='plain/x.json': 'plain' is not a folder"),
    ("empty name", lambda d: ("", "", None), EDSTS, "--output='' is not a file path"),
    ("/proc (no file can be made)", lambda d: ("/proc/starlib-x.json", "", None), EDSTS,
     "cannot create a file in '/proc'"),
    ("/sys (no file can be made)", lambda d: ("/sys/starlib-x.json", "", None), EDSTS,
     "cannot create a file in '/sys'"),
    ("name too long (300 bytes)", _name_too_long, EDSTS, "cannot check it (File name too long)"),
    ("path too long (5000 bytes)", _path_too_long, EDSTS, "(File name too long)"),
    ("newline in the name", _newline, EDSTS, "--output='two\\nlines.json': the file name holds a control character"),
    ("/dev/full", lambda d: ("/dev/full", "", None), EDSTS, "is not a regular file (a device, pipe or socket)"),
    ("immutable file (chattr +i)", _immutable, EDSTS, "--output='imm.json' is not writable by this user"),
    ("read-only mount", _read_only_mount, EDSTS, "cannot create a file in 'ro' (Read-only file system)"),
    ("existing file on a read-only mount", _file_on_a_read_only_mount, EDSTS,
     "--output='ro/x.json' is on a read-only file system; choose another file"),
    ("no inode left", _no_inode_left, EDSTS, "cannot create a file in 'fs' (No space left on device)"),
    ("another user's 0644 file, folder writable", _other_users_file, EDSTS,
     "--output='root.json' is not writable by this user (owner root, mode 0644)"),
    ("folder without write permission", _folder_not_writable, EDSTS,
     "--output='shut/x.json': cannot create a file in 'shut' (Permission denied)"),
    ("another user's 0666 file in a sticky folder", _sticky_folder, EDSTS,
     "--output='shared.json' belongs to root in a folder with the sticky bit"),
    ("full disk (while writing)", _full_disk, ["build", "slimfly", "q=5"],
     "--output='fs/x.json': cannot write (No space left on device); the previous file is unchanged"),
    ("file size limit (while writing)", _file_size_limit, ["build", "slimfly", "q=5"],
     "--output='x.json': cannot write (File too large); the previous file is unchanged"),
]


@pytest.mark.parametrize("kind, setup, verb, fragment", CASES, ids=[c[0] for c in CASES])
def test_a_bad_output_is_refused_in_one_line_and_nothing_changes(world, kind, setup, verb, fragment):
    target, user, fsize = setup(world)
    before = snapshot(world)
    done = starlib([*verb, "-o", target], world, user=user, fsize=fsize)
    lines = done.stderr.splitlines()
    assert done.returncode == 2, (kind, done.returncode, done.stderr)
    assert len(lines) == 1 and fragment in lines[0] and lines[0].startswith("error: "), (kind, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == ""
    after = snapshot(world)
    assert after == before, kind  # bytes, modes, owners and links as they were; no temporary file left
    assert not [p for p in after if p.endswith(".tmp")]


def test_a_read_only_file_keeps_its_bytes_and_mode(world):
    """The issue's example: starlib edsts polarfly q=3 -o ro.json on a 0444 file (also as root)."""
    _read_only(world)
    done = starlib([*EDSTS, "-o", "ro.json"], world)
    assert (done.returncode, done.stderr) == (2, "error: --output='ro.json' is read-only (mode 0444); make it "
                                                 "writable or choose another file\n")
    assert (world / "ro.json").read_bytes() == OLD and stat.S_IMODE((world / "ro.json").stat().st_mode) == 0o444


def test_a_link_to_a_writable_file_replaces_that_file_and_keeps_the_link(world):
    (world / "real.json").write_bytes(OLD)
    os.chmod(world / "real.json", 0o640)
    os.symlink("real.json", world / "link.json")
    done = starlib(["build", "slimfly", "q=5", "-o", "link.json"], world)
    assert done.returncode == 0, done.stderr
    assert os.readlink(world / "link.json") == "real.json" and (world / "real.json").read_bytes().startswith(b"{")
    assert stat.S_IMODE((world / "real.json").stat().st_mode) == 0o640
    assert sorted(p.name for p in world.iterdir()) == ["cache", "link.json", "real.json"]


def test_a_long_legal_name_is_written(world):
    """A name of 250 bytes is legal (the limit is 255); the temporary file's name is cut to fit."""
    name = "n" * 245 + ".json"
    done = starlib(["build", "slimfly", "q=5", "-o", name], world)
    assert done.returncode == 0, done.stderr
    assert (world / name).read_bytes().startswith(b"{") and not list(world.glob("*.tmp"))


def test_root_replacing_another_users_file_keeps_its_owner_and_mode(world):
    need_root("files owned by another user")
    nobody = int(subprocess.run(["id", "-u", "nobody"], capture_output=True, text=True).stdout)
    (world / "theirs.json").write_bytes(OLD)
    os.chown(world / "theirs.json", nobody, -1)
    os.chmod(world / "theirs.json", 0o664)
    group = (world / "theirs.json").stat().st_gid
    done = starlib(["build", "slimfly", "q=5", "-o", "theirs.json"], world)
    assert done.returncode == 0, done.stderr
    st = (world / "theirs.json").stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (nobody, group, 0o664)
    assert (world / "theirs.json").read_bytes() != OLD


def test_nobody_replaces_a_file_it_may_write(world):
    """The permission check is not too strict: nobody's own file, and a group-writable one of ours."""
    need_nobody()
    os.chmod(world, 0o777)
    done = starlib(["build", "slimfly", "q=5", "-o", "mine.json"], world, user="nobody")
    assert done.returncode == 0, done.stderr
    assert (world / "mine.json").stat().st_uid != 0
    done = starlib(["build", "slimfly", "q=5", "--format", "edgelist", "-o", "mine.json"], world, user="nobody")
    assert done.returncode == 0 and not (world / "mine.json").read_bytes().startswith(b"{"), done.stderr


def test_a_rename_the_file_system_forbids_is_reported_and_the_temporary_file_removed(tmp_path):
    """The target made immutable while it is being written: os.replace fails (EPERM) after all the work."""
    need_root("the immutable attribute (chattr +i)")
    from starlib.io.atomic import OutputError, atomic_open

    p = tmp_path / "t.json"
    p.write_bytes(OLD)
    try:
        with pytest.raises(OutputError, match=r"path='.*/t.json': cannot replace the file \(Operation not "
                                              r"permitted\); the previous file is unchanged"):
            with atomic_open(p) as f:
                f.write(b"new")
                if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode != 0:
                    pytest.skip("chattr +i is not available on this file system")
        assert p.read_bytes() == OLD and sorted(x.name for x in tmp_path.iterdir()) == ["t.json"]
    finally:
        subprocess.run(["chattr", "-i", str(p)], capture_output=True)


def test_an_os_error_that_escapes_a_verb_is_one_line_with_status_2(tmp_path, monkeypatch, capsys):
    """Any OSError reaching main() (here a failing os.replace bypassing the conversion) is the user's situation."""
    import starlib.io.atomic as atomic
    from starlib.cli import main

    def replace(src, dst):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(atomic, "_output_error", lambda exc, *a: exc)  # let the bare OSError through
    monkeypatch.setattr(atomic.os, "replace", replace)
    assert main(["build", "slimfly", "q=5", "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: '{tmp_path / 'x.json'}': Permission denied (the system refused the file; nothing was " \
                  f"written)\n"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind, shell, fragment", [
    ("standard output is /dev/full", ">/dev/full", "--output='-' (standard output): cannot write (No space left on "
                                                   "device)"),
    ("standard output closed", ">&-", "--output='-': standard output is closed; give a file with -o PATH")])
def test_standard_output_the_system_refuses_is_one_line_with_status_2(world, kind, shell, fragment):
    """``-o -`` (the default) when standard output is a full device or closed: status 2, not an internal error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(["sh", "-c", f'exec "$0" -m starlib build slimfly q=5 {shell}', sys.executable],
                          cwd=world, env=env, capture_output=True, text=True, timeout=600)
    assert (done.returncode, done.stderr) == (2, f"error: {fragment}\n"), kind
