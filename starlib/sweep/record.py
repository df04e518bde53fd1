"""The record of a sweep: one CSV row per finished parameter point, rewritten atomically as rows arrive.

The file has a header with the sweep's columns, then one row per point, sorted by the key columns (so the bytes
do not depend on the order in which the points finished). Every write replaces the whole file through
:func:`starlib.io.atomic_write`: a reader, or a run killed at any moment, sees the previous record or the new one,
never half a row. :func:`read_record` is what a rerun uses to skip the points already done.

Example
-------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> _ = write_record(p, [{"q": 3, "ok": True}, {"q": 2, "ok": False}], columns=("q", "ok"), key=("q",))
>>> p.read_text().splitlines()
['q,ok', '2,False', '3,True']
>>> sorted(read_record(p, columns=("q", "ok"), key=("q",)))
[('2',), ('3',)]
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..io import atomic_write

__all__ = ["read_record", "write_record", "format_value"]


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


def write_record(path: str | os.PathLike, rows: Iterable[Mapping[str, Any]], *, columns: Sequence[str],
                 key: Sequence[str]) -> Path:
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

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    ValueError
        If a row lacks a column or has an unknown one, or two rows share a key.
    """
    cells = []
    seen = set()
    for row in rows:
        if set(row) != set(columns):
            missing, extra = sorted(set(columns) - set(row)), sorted(set(row) - set(columns))
            raise ValueError(f"rows: a row must have exactly the record's columns (missing {missing}, extra {extra})")
        text = {c: format_value(row[c]) for c in columns}
        k = tuple(text[c] for c in key)
        if k in seen:
            raise ValueError(f"rows: two rows for the point {dict(zip(key, k, strict=True))}")
        seen.add(k)
        cells.append(text)
    cells.sort(key=lambda r: _sort_key(r, key))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(columns)
    for r in cells:
        w.writerow([r[c] for c in columns])
    return atomic_write(path, buf.getvalue().encode("utf-8"))


def read_record(path: str | os.PathLike, *, columns: Sequence[str], key: Sequence[str]) -> dict[tuple, dict[str, str]]:
    """Read a record: ``{key tuple: row}`` (cells as strings); an absent file is an empty record.

    Parameters
    ----------
    path : path-like
        The CSV file.
    columns, key : sequence of str
        As for :func:`write_record`; the header must be exactly ``columns``.

    Returns
    -------
    dict
        Rows by key (the key cells as strings).

    Raises
    ------
    ValueError
        If the file is not such a record (another header, a short row, a repeated point).
    """
    p = Path(path)
    if not p.exists():
        return {}
    if p.is_dir():
        raise ValueError(f"record={str(p)!r} is a folder, not a record file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"record={str(p)!r} cannot be read as a CSV record ({exc})") from None
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header != list(columns):
        raise ValueError(f"record={str(p)!r} has the header {header}, expected {list(columns)}: not a record of "
                         "this sweep (use another -o file)")
    out: dict[tuple, dict[str, str]] = {}
    for line, cells in enumerate(reader, start=2):
        if len(cells) != len(columns):
            raise ValueError(f"record={str(p)!r} line {line} has {len(cells)} cells, expected {len(columns)}")
        row = dict(zip(columns, cells, strict=True))
        k = tuple(row[c] for c in key)
        if k in out:
            raise ValueError(f"record={str(p)!r} line {line} repeats the point {dict(zip(key, k, strict=True))}")
        out[k] = row
    return out
