"""Atomic file writes: the whole new file or the old one, never half of either.

Every writer of :mod:`starlib.io` goes through :func:`atomic_write`: the bytes go to a temporary file in the
target's folder (``.NAME.PID.XXXXXXXX.tmp``, hidden, same file system), which is flushed, synced to disk and then
renamed over the target with :func:`os.replace` (atomic on POSIX and Windows). On any exception, including
:class:`KeyboardInterrupt`, the temporary file is removed and the target is untouched.
:func:`starlib.interrupts.sigterm_raises` turns ``SIGTERM`` into an exception so that the temporary file is removed
as well.

A process killed by a signal it cannot catch (``SIGKILL``, the kernel's out-of-memory killer, a power cut) leaves
the target untouched too, and one temporary file behind. Its name holds the writer's process id
(``.NAME.PID.XXXXXXXX.tmp``), so the next write of the same target removes it: on POSIX, before it creates its own
temporary file, :func:`atomic_open` removes every file of that target's pattern whose process no longer exists
(:func:`stale_temporaries`). A temporary file of a running writer (this process or another), of another target,
or of any other name is never touched; a process id reused by a running process keeps its file until that process
ends. Temporary files of another machine sharing the folder (a network file system) cannot be told apart by their
process id: do not write one target from two machines at once.

:func:`check_target` runs the same checks up front (the folder exists, the target is not a folder, a file can
be created there, an existing target is one the user may change), so a caller can refuse a bad ``-o PATH``
before a long computation. What the system refuses only while writing (a full disk, a file size limit, a
replacement the file system forbids) raises :class:`OutputError`, a :class:`ValueError` naming the file and the
cause, never a bare :class:`OSError`: it is the user's situation, not a bug.

A symbolic link as the target is followed: the file it points to is replaced and the link stays (as the shell's
``>`` does); a link to nothing, or a loop of links, is refused. A replaced file keeps its permission bits, and its
owner and group where the process may set them (the superuser replacing another user's file).

Example
-------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", b"hello\\n").read_bytes()
b'hello\\n'
>>> sorted(p.name for p in d.iterdir())  # no temporary file left behind
['a.txt']
>>> dead = d / ".a.txt.999999999.abcdefgh.tmp"       # a writer killed by SIGKILL: no process 999999999
>>> _ = dead.write_bytes(b"half")
>>> _ = atomic_write(d / "a.txt", b"again\\n")
>>> sorted(p.name for p in d.iterdir())              # removed by the next write of a.txt
['a.txt']
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["OutputError", "check_target", "atomic_write", "atomic_open", "stale_temporaries"]

#: longest file name (in bytes) of the common file systems; the temporary file's name is kept under it
_NAME_MAX = 255


class OutputError(ValueError):
    """A file could not be written for a reason of the system (a full disk, a size limit, a forbidden rename).

    It is a :class:`ValueError` (the command line reports it in one line with status 2, like bad input); the
    :class:`OSError` is its ``__cause__``. The temporary file is removed and the target is as it was.

    Example
    -------
    >>> issubclass(OutputError, ValueError)
    True
    """


def _describe(path: Any, name: str) -> str:
    return f"{name}={str(path)!r}"


def _euid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else -1


def _owner(st: os.stat_result) -> str:
    try:
        import pwd

        return pwd.getpwuid(st.st_uid).pw_name
    except (ImportError, KeyError):
        return f"uid {st.st_uid}"


def _resolve(p: Path, path: Any, name: str) -> Path:
    """The file a write to ``p`` changes: ``p`` itself, or the file a symbolic link points to (followed)."""
    if not p.is_symlink():
        return p
    try:
        real = Path(os.path.realpath(p, strict=True))
    except FileNotFoundError:
        raise ValueError(f"{_describe(path, name)} is a symbolic link to {os.readlink(p)!r}, which does not "
                         f"exist; starlib does not create files through dangling links: remove the link or "
                         f"choose another file") from None
    except OSError as exc:  # ELOOP: a loop of links
        raise ValueError(f"{_describe(path, name)} is a symbolic link that cannot be followed "
                         f"({exc.strerror or exc})") from None
    return real


def _check(path: str | os.PathLike, name: str) -> Path:
    """:func:`check_target`'s work; returns the real file to replace (symbolic links followed)."""
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise ValueError(f"{name}={path!r} is not a file path")
    text = os.fspath(path)
    text = text if isinstance(text, str) else os.fsdecode(text)
    if "\0" in text:
        raise ValueError(f"{_describe(path, name)} contains a NUL character; no file system allows it")
    if text.endswith(("/", os.sep, "/.", "/..")) or text in (".", ".."):
        raise ValueError(f"{_describe(path, name)} ends with '/': it names a folder, not a file")
    p = Path(text)
    if any(ord(c) < 32 or ord(c) == 127 for c in p.name):
        raise ValueError(f"{_describe(path, name)}: the file name holds a control character (a newline, a tab, "
                         f"...); starlib does not make such names (they break line-based tools and listings)")
    try:
        real = _resolve(p, path, name)
        if real.is_dir():
            raise ValueError(f"{_describe(path, name)} is a folder, not a file")
        folder = real.parent
        exists = real.exists()
        if exists and not real.is_file():  # a device (/dev/full), pipe or socket: the rename would replace it
            raise ValueError(f"{_describe(path, name)} is not a regular file (a device, pipe or socket); starlib "
                             f"replaces files whole, so it writes only to regular files ('-' is standard output)")
        if not folder.exists():
            raise ValueError(f"{_describe(path, name)}: the folder {str(folder)!r} does not exist")
        if not folder.is_dir():
            raise ValueError(f"{_describe(path, name)}: {str(folder)!r} is not a folder")
        if exists:
            _check_replaceable(real, path, name)
    except OSError as exc:  # a name too long, a folder that cannot be searched, ...
        raise ValueError(f"{_describe(path, name)}: cannot check it ({exc.strerror or exc})") from None
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(real.name), suffix=".tmp")
    except OSError as exc:
        raise ValueError(f"{_describe(path, name)}: cannot create a file in {str(folder)!r} "
                         f"({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)
    return real


def _check_replaceable(real: Path, path: Any, name: str) -> None:
    """Refuse an existing file the user may not change: the rename needs only the folder's write permission."""
    st = real.stat()
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o222 == 0:  # the superuser passes os.access, yet a file without a write bit is meant to stay
        raise ValueError(f"{_describe(path, name)} is read-only (mode {mode:04o}); make it writable or choose "
                         f"another file")
    if hasattr(os, "statvfs") and os.statvfs(real.parent).f_flag & os.ST_RDONLY:
        raise ValueError(f"{_describe(path, name)} is on a read-only file system; choose another file")
    if not os.access(real, os.W_OK):
        raise ValueError(f"{_describe(path, name)} is not writable by this user (owner {_owner(st)}, mode "
                         f"{mode:04o}{'' if _euid() != 0 else '; an immutable attribute?'}); starlib does not "
                         f"replace a file it may not change: choose another file")
    folder = os.stat(real.parent)
    uid = _euid()
    if folder.st_mode & stat.S_ISVTX and uid != 0 and uid not in (st.st_uid, folder.st_uid):
        raise ValueError(f"{_describe(path, name)} belongs to {_owner(st)} in a folder with the sticky bit "
                         f"(like /tmp): only its owner may replace it; choose another file")


def check_target(path: str | os.PathLike, name: str = "path") -> Path:
    """Check that ``path`` can be written atomically, before any work is done; return it as a ``Path``.

    The folder must exist and be a folder, ``path`` must not be a folder or another non-regular file (a device
    such as ``/dev/full``, a pipe, a socket: the rename would replace it), a file must be creatable in the
    folder (checked by creating and removing an empty temporary file, which also catches read-only file
    systems and the superuser on them), and an existing file must be one the user may change: writable by the
    user (:func:`os.access`), with a write bit at all (a mode such as 0444 is refused also for the superuser),
    and not another user's file in a folder with the sticky bit. A symbolic link is followed (the file it points
    to is checked); a dangling link or a loop is refused, and so are a name ending with ``/``, a NUL character
    and a control character (a newline, ...) in the file name.

    Parameters
    ----------
    path : str or os.PathLike
        The file to be written (it may exist: it is replaced).
    name : str
        Parameter name for the message.

    Returns
    -------
    Path
        ``path`` as given, as a :class:`pathlib.Path`.

    Raises
    ------
    ValueError
        Naming the parameter, the path and the rule broken.

    Example
    -------
    >>> check_target("/nonexistent-folder/t.json", "output")
    Traceback (most recent call last):
    ...
    ValueError: output='/nonexistent-folder/t.json': the folder '/nonexistent-folder' does not exist
    """
    _check(path, name)
    return Path(path)


#: digits of the largest process id written in a temporary file's name (Linux allows up to 2**22, 7 digits)
_PID_DIGITS = 10


def _temp_prefix(name: str, pid: int | None = None) -> str:
    """``.NAME.PID.`` (``pid`` default this process), NAME cut so that the temporary file's name (prefix, 8 random
    characters, ``.tmp``) fits; without a ``pid`` (``-1``): ``.NAME.``, the part every target's file shares."""
    room = _NAME_MAX - 2 - 8 - 4 - (_PID_DIGITS + 1)
    raw = os.fsencode(name)
    if len(raw) > room:
        name = os.fsdecode(raw[:room])  # a character cut in two stays as escaped bytes: still a valid name
    if pid == -1:
        return f".{name}."
    return f".{name}.{os.getpid() if pid is None else pid}."


def _process_gone(pid: int) -> bool:
    """Whether no process ``pid`` exists (POSIX ``kill(pid, 0)``); one we may not signal exists."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError, OSError):
        return False
    return False


def stale_temporaries(path: str | os.PathLike) -> list[Path]:
    """The temporary files a killed writer of ``path`` left in its folder: ``.NAME.PID.XXXXXXXX.tmp`` whose process
    ``PID`` no longer exists (POSIX; elsewhere none).

    Parameters
    ----------
    path : str or os.PathLike
        The target (not followed: pass the file a symbolic link points to).

    Returns
    -------
    list of Path
        The stale temporary files, sorted; a folder that cannot be listed has none.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / ".t.json.999999999.abcd_123.tmp").write_bytes(b"")   # its writer is gone
    >>> _ = (d / f".t.json.{os.getpid()}.abcd_123.tmp").write_bytes(b"")  # this process: running
    >>> [p.name for p in stale_temporaries(d / "t.json")]
    ['.t.json.999999999.abcd_123.tmp']
    """
    if os.name != "posix":
        return []
    target = Path(path)
    prefix = _temp_prefix(target.name, -1)
    pattern = re.compile(re.escape(prefix) + rf"([0-9]{{1,{_PID_DIGITS}}})\.[a-z0-9_]{{8}}\.tmp")
    out = []
    try:
        with os.scandir(target.parent) as entries:
            for e in entries:
                m = pattern.fullmatch(e.name) if e.name.startswith(prefix) else None
                if m is not None and e.is_file(follow_symlinks=False) and _process_gone(int(m.group(1))):
                    out.append(Path(e.path))
    except OSError:
        return []
    return sorted(out)


def _file_mode(target: Path) -> int:
    """The permission bits the new file gets: the old file's, else what ``open`` would give (0o666 & ~umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _keep_owner(tmp: str, target: Path) -> None:
    """Give the new file the old one's owner and group where the process may (the superuser, or a group of ours)."""
    try:
        st = target.stat()
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.chown(tmp, st.st_uid, st.st_gid)
    if os.stat(tmp).st_gid != st.st_gid:  # not root: at least the group, when we belong to it
        with contextlib.suppress(OSError):
            os.chown(tmp, -1, st.st_gid)


def _output_error(exc: OSError, path: Any, name: str, action: str, existed: bool) -> OutputError:
    kept = "the previous file is unchanged" if existed else "no file was made"
    return OutputError(f"{_describe(path, name)}: cannot {action} ({exc.strerror or exc}); {kept}")


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, name: str = "path", *, fsync: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write; on a normal exit it replaces ``path`` atomically, on any exception it is removed.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (checked with :func:`check_target` first); a symbolic link is followed.
    name : str
        Parameter name for error messages.
    fsync : bool
        Sync the data to disk before the rename (default), so that a power cut cannot leave an empty file.

    Yields
    ------
    BinaryIO
        The temporary file, open for writing.

    Raises
    ------
    ValueError
        If the target cannot be written (:func:`check_target`).
    OutputError
        If writing, syncing or renaming fails (a full disk, a size limit, a forbidden replacement); an
        :class:`OSError` without a file name raised by a write to the yielded file is turned into one too.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "b.txt"
    >>> with atomic_open(p) as f:
    ...     _ = f.write(b"part 1, ") and f.write(b"part 2")
    >>> p.read_bytes()
    b'part 1, part 2'
    """
    target = _check(path, name)
    existed = target.exists()
    for stale in stale_temporaries(target):  # what a writer killed by SIGKILL left: its process is gone
        with contextlib.suppress(OSError):
            stale.unlink()
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temp_prefix(target.name), suffix=".tmp")
    except OSError as exc:
        raise _output_error(exc, path, name, f"create a file in {str(target.parent)!r}", existed) from exc
    action = "write"
    try:
        with os.fdopen(fd, "wb") as f:
            try:
                yield f
            except OSError as exc:
                if exc.filename is not None:  # another file's error (the caller's): not ours to describe
                    raise
                raise _output_error(exc, path, name, "write", existed) from exc
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        action = "set the owner and mode of the new file"
        if existed:
            _keep_owner(tmp, target)
        os.chmod(tmp, _file_mode(target))
        action = "replace the file"
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise _output_error(exc, path, name, action, existed) from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(path: str | os.PathLike, data: bytes | bytearray | memoryview | Iterable[bytes],
                 name: str = "path", *, fsync: bool = True) -> Path:
    """Write ``data`` to ``path`` atomically (see the module docstring); return the path.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; an existing file is replaced only once the new one is complete (a symbolic link is
        followed: the file it points to is replaced).
    data : bytes or iterable of bytes
        The content, whole or in chunks (a generator is consumed while the temporary file is open).
    name : str
        Parameter name for error messages.
    fsync : bool
        Sync to disk before the rename (default).

    Returns
    -------
    Path
        ``path`` as a :class:`pathlib.Path`.

    Raises
    ------
    ValueError
        If the target cannot be written (:func:`check_target`).
    OutputError
        A :class:`ValueError` too: writing or renaming failed (``cannot write (No space left on device)``); the
        previous file is unchanged and no temporary file is left.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "c.txt"
    >>> atomic_write(p, (s.encode() for s in ["a", "b"])).read_text()
    'ab'
    """
    with atomic_open(path, name, fsync=fsync) as f:
        if isinstance(data, bytes | bytearray | memoryview):
            f.write(data)
        else:
            for chunk in data:
                f.write(chunk)
    return Path(path)
