"""The record of a sweep: one CSV row per finished parameter point, rewritten atomically as rows arrive.

The file has a header with the sweep's columns, then one row per point, sorted by the key columns (so the bytes
do not depend on the order in which the points finished). Every write replaces the whole file through
:func:`starlib.io.atomic_write`: a reader, or a run killed at any moment, sees the previous record or the new one,
never half a row. :func:`read_record` is what a rerun uses to skip the points already done.

Several processes may write one record (two sweeps with different families, say): :func:`merge_record` holds an
exclusive lock (:func:`fcntl.flock` on the hidden sidecar ``.NAME.lock`` next to the record, created on the first
write and left in place) only around *read the file, merge, write it back*, so the rows another process wrote
survive and both runs make progress. Readers need no lock: the file is always whole.

A *check* (``check(cells) -> cells``) validates a row and returns its canonical cells (``"02"`` becomes ``"2"``),
raising :class:`CellError` naming the column, the value and the rule; :func:`read_record` turns it into a
ValueError naming the record and the line. Rows are keyed by their canonical key cells, so a hand-edited ``02``
is the point ``2``.

Example
-------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> _ = write_record(p, [{"q": 3, "ok": True}, {"q": 2, "ok": False}], columns=("q", "ok"), key=("q",))
>>> p.read_text().splitlines()
['q,ok', '2,False', '3,True']
>>> sorted(read_record(p, columns=("q", "ok"), key=("q",)))
[('2',), ('3',)]
>>> _ = merge_record(p, [{"q": 5, "ok": True}], columns=("q", "ok"), key=("q",))
>>> p.read_text().splitlines()
['q,ok', '2,False', '3,True', '5,True']
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..io import atomic_write

__all__ = ["read_record", "write_record", "merge_record", "record_lock", "format_value", "CellError",
           "MAX_RECORD_BYTES"]

#: the largest record read (bytes): far above any sweep's record (data/er_sweep.csv is about 50 kB)
MAX_RECORD_BYTES = 64 * 2 ** 20

#: a row check: the cells of one row in, its canonical cells out (raises :class:`CellError`)
RowCheck = Callable[[Mapping[str, str]], dict[str, str]]


class CellError(ValueError):
    """A cell that breaks its column's rule: ``column``, ``value`` and ``rule`` name it.

    >>> str(CellError("q", "x", "an integer"))
    "column q='x': an integer"
    """

    def __init__(self, column: str, value: str, rule: str) -> None:
        super().__init__(f"column {column}={value!r}: {rule}")
        self.column, self.value, self.rule = column, value, rule


def format_value(value: Any) -> str:
    """A cell as written: ``None`` empty, booleans ``True``/``False``, everything else ``str``.

    >>> [format_value(v) for v in (None, True, 3, 0.25, "x")]
    ['', 'True', '3', '0.25', 'x']
    """
    return "" if value is None else str(value)


def _sort_key(row: Mapping[str, str], key: Sequence[str]) -> tuple:
    out = []
    for k in key:
        v = row[k]
        try:
            out.append((0, int(v), ""))
        except ValueError:
            out.append((1, 0, v))
    return tuple(out)


def _cells(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], key: Sequence[str],
           check: RowCheck | None) -> dict[tuple, dict[str, str]]:
    """Rows as canonical text cells by key; the same refusals as :func:`write_record`."""
    out: dict[tuple, dict[str, str]] = {}
    for row in rows:
        if set(row) != set(columns):
            missing, extra = sorted(set(columns) - set(row)), sorted(set(row) - set(columns))
            raise ValueError(f"rows: a row must have exactly the record's columns (missing {missing}, extra {extra})")
        text = {c: format_value(row[c]) for c in columns}
        if check is not None:
            try:
                text = check(text)
            except CellError as exc:
                raise ValueError(f"rows: the row {dict(zip(key, (text[c] for c in key), strict=True))} has {exc}") \
                    from None
        k = tuple(text[c] for c in key)
        if k in out:
            raise ValueError(f"rows: two rows for the point {dict(zip(key, k, strict=True))}")
        out[k] = text
    return out


def _serialise(cells: Iterable[Mapping[str, str]], columns: Sequence[str], key: Sequence[str]) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in sorted(cells, key=lambda r: _sort_key(r, key)):
        w.writerow([r[c] for c in columns])
    return buf.getvalue().encode("utf-8")


def write_record(path: str | os.PathLike, rows: Iterable[Mapping[str, Any]], *, columns: Sequence[str],
                 key: Sequence[str], check: RowCheck | None = None) -> Path:
    """Write the record atomically: header, then the rows sorted by ``key`` (numbers numerically).

    Parameters
    ----------
    path : path-like
        The CSV file (replaced as a whole).
    rows : iterable of mapping
        One mapping per point with every column (extra keys are an error).
    columns : sequence of str
        The header, in order.
    key : sequence of str
        The columns that name a point (no two rows may share them).
    check : callable, optional
        Validates each row and returns its canonical cells (see the module docstring).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    ValueError
        If a row lacks a column or has an unknown one, fails ``check``, or two rows share a key.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> write_record(p, [{"q": 2}], columns=("q",), key=("q",)).read_text()
    'q\\n2\\n'
    """
    cells = _cells(rows, columns, key, check)
    return atomic_write(path, _serialise(cells.values(), columns, key))


def _read_bytes(p: Path) -> bytes | None:
    """The record's bytes (None if absent), refusing what is not a regular file of at most MAX_RECORD_BYTES."""
    try:
        st = os.stat(p)  # follows a symbolic link: a link to /dev/zero is a device
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ValueError(f"record={str(p)!r} cannot be read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ValueError(f"record={str(p)!r} is a folder, not a record file")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"record={str(p)!r} is not a regular file (a device, pipe or socket): a record is a CSV "
                         "file")
    if st.st_size > MAX_RECORD_BYTES:
        raise ValueError(f"record={str(p)!r} is {st.st_size} bytes: a record is at most {MAX_RECORD_BYTES} bytes "
                         "(not a sweep record?)")
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:  # removed since the stat
        return None
    except OSError as exc:
        raise ValueError(f"record={str(p)!r} cannot be read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced by a device since the stat
            raise ValueError(f"record={str(p)!r} is not a regular file: a record is a CSV file")
        data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"record={str(p)!r} is over {MAX_RECORD_BYTES} bytes: a record is at most "
                         f"{MAX_RECORD_BYTES} bytes (not a sweep record?)")
    return data


def _parse(p: Path, data: bytes, columns: Sequence[str], key: Sequence[str],
           check: RowCheck | None) -> dict[tuple, dict[str, str]]:
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte order mark (a spreadsheet's "CSV UTF-8"): not a cell
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(f"record={str(p)!r} line {line} is not UTF-8 (byte {data[exc.start]:#04x} at offset "
                         f"{exc.start}): a record is UTF-8 text") from None
    out: dict[tuple, dict[str, str]] = {}
    if text.strip("\r\n") == "":  # an empty file (created by touch or mktemp), or blank lines only: an empty record
        return out
    lines: dict[tuple, int] = {}
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header != list(columns):
            raise ValueError(f"record={str(p)!r} has the header {header}, expected {list(columns)}: not a record of "
                             "this sweep (use another -o file)")
        blank = None  # the first blank line after a row: fine at the end (an editor's), refused before a row
        for cells in reader:
            line = reader.line_num
            if not cells:
                blank = line if blank is None else blank
                continue
            if blank is not None:
                raise ValueError(f"record={str(p)!r} line {blank} is blank, between rows (line {line} follows it): a "
                                 f"record has one row per line; blank lines only at its end")
            if len(cells) != len(columns):
                raise ValueError(f"record={str(p)!r} line {line} has {len(cells)} cells, expected {len(columns)} "
                                 f"({', '.join(columns)})")
            row = dict(zip(columns, cells, strict=True))
            if check is not None:
                try:
                    row = check(row)
                except CellError as exc:
                    raise ValueError(f"record={str(p)!r} line {line}, {exc}") from None
            k = tuple(row[c] for c in key)
            if k in out:
                raise ValueError(f"record={str(p)!r} line {line} repeats the point "
                                 f"{dict(zip(key, k, strict=True))} of line {lines[k]}: one row per point")
            out[k], lines[k] = row, line
    except csv.Error as exc:
        raise ValueError(f"record={str(p)!r} line {reader.line_num} is not CSV ({exc})") from None
    return out


def read_record(path: str | os.PathLike, *, columns: Sequence[str], key: Sequence[str],
                check: RowCheck | None = None) -> dict[tuple, dict[str, str]]:
    """Read a record: ``{key tuple: row}`` (cells as canonical strings); an absent or empty file is an empty record.

    The file must be a regular file (a symbolic link to one is followed) of at most :data:`MAX_RECORD_BYTES`,
    UTF-8 (a leading byte order mark is ignored), with ``\\n`` or ``\\r\\n`` line ends; blank lines at its end are
    ignored, a blank line between rows is refused.

    Parameters
    ----------
    path : path-like
        The CSV file.
    columns, key : sequence of str
        As for :func:`write_record`; the header must be exactly ``columns``.
    check : callable, optional
        Validates each row and returns its canonical cells (see the module docstring).

    Returns
    -------
    dict
        Rows by key (the canonical key cells as strings).

    Raises
    ------
    ValueError
        If the file is not such a record: a folder, device or pipe, too large, not UTF-8, another header, a row
        with another number of cells, a blank line between rows, a cell ``check`` refuses (the line, column, value
        and rule are named), or a point twice.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> _ = p.write_text("q\\n2\\n3,4\\n")
    >>> read_record(p, columns=("q",), key=("q",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: record='...r.csv' line 3 has 2 cells, expected 1 (q)
    """
    p = Path(path)
    data = _read_bytes(p)
    return {} if data is None else _parse(p, data, columns, key, check)


def _lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


@contextlib.contextmanager
def record_lock(path: str | os.PathLike) -> Iterator[Path]:
    """Hold the exclusive lock of the record at ``path`` (the sidecar ``.NAME.lock``, created if absent).

    Parameters
    ----------
    path : path-like
        The record (its folder must exist and be writable).

    Yields
    ------
    Path
        The lock file.

    Raises
    ------
    ValueError
        If the lock file cannot be opened (named with the reason).

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> with record_lock(p) as lock:
    ...     lock.name
    '.r.csv.lock'
    """
    import fcntl

    lock = _lock_path(Path(path))
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise ValueError(f"record={str(path)!r}: cannot open its lock file {str(lock)!r} "
                         f"({exc.strerror or exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield lock
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def merge_record(path: str | os.PathLike, rows: Iterable[Mapping[str, Any]], *, columns: Sequence[str],
                 key: Sequence[str], check: RowCheck | None = None) -> tuple[dict[tuple, dict[str, str]], list[tuple]]:
    """Add ``rows`` to the record under its lock: read the file, keep its rows, add the new points, write.

    A point the file already holds (another process finished it first) keeps the file's row. The file is
    rewritten only if its bytes change (new rows, or cells written canonically for the first time).

    Parameters
    ----------
    path : path-like
        The record.
    rows : iterable of mapping
        New rows (every column).
    columns, key, check
        As for :func:`read_record`.

    Returns
    -------
    rows : dict
        The whole record after the merge, by key.
    added : list of tuple
        The keys of ``rows`` written by this call (the others were in the file already).

    Raises
    ------
    ValueError
        As :func:`read_record` and :func:`write_record`.

    Example
    -------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
    >>> merge_record(p, [{"q": 3}, {"q": 2}], columns=("q",), key=("q",))[1]
    [('3',), ('2',)]
    >>> merge_record(p, [{"q": 3}, {"q": 5}], columns=("q",), key=("q",))[1]
    [('5',)]
    """
    new = _cells(rows, columns, key, check)
    p = Path(path)
    with record_lock(p):
        data = _read_bytes(p)
        held = {} if data is None else _parse(p, data, columns, key, check)
        merged = dict(held)
        added = [k for k in new if k not in held]
        for k in added:
            merged[k] = new[k]
        out = _serialise(merged.values(), columns, key)
        if out != data:
            atomic_write(p, out)
    return merged, added
