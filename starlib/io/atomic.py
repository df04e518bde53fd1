"""Atomic file writes: the whole new file or the old one, never half of either.

Every writer of :mod:`starlib.io` goes through :func:`atomic_write`: the bytes go to a temporary file in the
target's folder (``.NAME.XXXXXXXX.tmp``, hidden, same file system), which is flushed, synced to disk and then
renamed over the target with :func:`os.replace` (atomic on POSIX and Windows). On any exception, including
:class:`KeyboardInterrupt`, the temporary file is removed and the target is untouched. A process killed by a
signal it cannot catch (``SIGKILL``) leaves the target untouched too, and at most one ``.NAME.*.tmp`` file
behind; :func:`starlib.interrupts.sigterm_raises` turns ``SIGTERM`` into an exception so that the temporary file
is removed as well.

:func:`check_target` runs the same checks up front (the folder exists, the target is not a folder, a file can
be created there), so a caller can refuse a bad ``-o PATH`` before a long computation.

Example
-------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> atomic_write(d / "a.txt", b"hello\\n").read_bytes()
b'hello\\n'
>>> sorted(p.name for p in d.iterdir())  # no temporary file left behind
['a.txt']
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

__all__ = ["check_target", "atomic_write", "atomic_open"]


def _describe(path: Any, name: str) -> str:
    return f"{name}={str(path)!r}"


def check_target(path: str | os.PathLike, name: str = "path") -> Path:
    """Check that ``path`` can be written atomically, before any work is done; return it as a ``Path``.

    The folder must exist and be a folder, ``path`` must not be a folder or another non-regular file (a device
    such as ``/dev/full``, a pipe, a socket: the rename would replace it), and a file must be creatable in the
    folder (checked by creating and removing an empty temporary file, which also catches read-only file
    systems and the superuser on them).

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
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise ValueError(f"{name}={path!r} is not a file path")
    p = Path(path)
    folder = p.parent
    if p.is_dir():
        raise ValueError(f"{_describe(path, name)} is a folder, not a file")
    if p.exists() and not p.is_file():  # a device (/dev/full), pipe or socket: renaming over it would replace it
        raise ValueError(f"{_describe(path, name)} is not a regular file (a device, pipe or socket); starlib "
                         f"replaces files whole, so it writes only to regular files ('-' is standard output)")
    if not folder.exists():
        raise ValueError(f"{_describe(path, name)}: the folder {str(folder)!r} does not exist")
    if not folder.is_dir():
        raise ValueError(f"{_describe(path, name)}: {str(folder)!r} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise ValueError(f"{_describe(path, name)}: cannot create a file in {str(folder)!r} "
                         f"({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)
    return p


def _file_mode(target: Path) -> int:
    """The permission bits the new file gets: the old file's, else what ``open`` would give (0o666 & ~umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike, name: str = "path", *, fsync: bool = True) -> Iterator[BinaryIO]:
    """A binary file to write; on a normal exit it replaces ``path`` atomically, on any exception it is removed.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write (checked with :func:`check_target` first).
    name : str
        Parameter name for error messages.
    fsync : bool
        Sync the data to disk before the rename (default), so that a power cut cannot leave an empty file.

    Yields
    ------
    BinaryIO
        The temporary file, open for writing.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "b.txt"
    >>> with atomic_open(p) as f:
    ...     _ = f.write(b"part 1, ") and f.write(b"part 2")
    >>> p.read_bytes()
    b'part 1, part 2'
    """
    target = check_target(path, name)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
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
        The file to write; an existing file is replaced only once the new one is complete.
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
