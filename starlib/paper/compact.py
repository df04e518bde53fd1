"""The compact form of a long table: one line per group, the other columns as ranges or sets.

The paper prints its Table IV this way: one line per network family, with the range of each parameter and of
each value. :func:`compact` does it for any frame, from the frame: the rows are grouped by the columns a
:class:`~starlib.paper.table_notes.TableNote` declares (``group_by``), the groups keep the order of their first
row, and every other column becomes a :class:`Spread` of its values in the group:

* numbers (and integers written as text): the least and the largest (one value when they are equal);
* texts listing integers and integer ranges (degree sets ``5-6``, ``2,3``): the least and the largest of them
  all (``5-6``, ``7`` and ``9-10`` as ``5-10``);
* parameter strings ``key=value key=value`` (or ``;`` between them) with numeric values and the same keys in the
  group: the range of each key (``q=3 paley_q=5`` and ``q=47 paley_q=13`` as ``q=3-47 paley_q=5-13``; a key
  may end in primes: ``q'=5``);
* anything else: the distinct values in the order of their first row (at most :data:`MAX_SET` of them; more are
  counted: ``7 values``).

Missing values are left out of a spread; a column missing throughout the group stays missing.

Example
-------
>>> import pandas as pd
>>> df = pd.DataFrame({"net": ["a", "a", "b"], "n": [10, 30, 8], "ok": [True, True, False]})
>>> c = compact(df, ["net"])
>>> [str(x) for x in c.iloc[0]], [str(x) for x in c.iloc[1]]
(['a', '10-30', 'True'], ['b', '8', 'False'])
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["MAX_SET", "Spread", "compact"]

#: the most distinct values a set shows; a group with more shows how many there are
MAX_SET = 4

_PARAM = re.compile(r"([A-Za-z_][A-Za-z_0-9]*'*)=(-?\d+(?:\.\d+)?)")
_INT = re.compile(r"-?\d+")
_INT_RANGE = re.compile(r"(-?\d+)-(-?\d+)")
_LIST = re.compile(r"\s*,\s*")
_SEP = re.compile(r"\s*;\s*|\s+")


@dataclass(frozen=True)
class Spread:
    """The values of one column in one group.

    Attributes
    ----------
    kind : ``"range"`` (``values`` is the least and the largest number), ``"set"`` (the distinct values),
        ``"params"`` (``values`` holds one ``(key, least, largest)`` per key) or ``"count"`` (``values`` is the
        number of distinct values, more than :data:`MAX_SET`).
    values : tuple
    """

    kind: str
    values: tuple

    def __str__(self) -> str:
        if self.kind == "range":
            return "-".join(map(str, self.values))
        if self.kind == "params":
            return " ".join(f"{k}={lo}" + (f"-{hi}" if hi != lo else "") for k, lo, hi in self.values)
        if self.kind == "count":
            return f"{self.values[0]} values"
        return ", ".join(map(str, self.values))


def _missing(v: object) -> bool:
    if v is None or v is pd.NA or v is pd.NaT:
        return True
    return isinstance(v, (float, np.floating)) and math.isnan(float(v))


def _number(v: object) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _params(values: list[object]) -> tuple | None:
    """Per-key ranges of ``key=value;...`` strings with the same keys, else ``None``."""
    if not all(isinstance(v, str) for v in values):
        return None
    parsed = []
    for v in values:
        parts = _SEP.split(v.strip())
        found = [_PARAM.fullmatch(p) for p in parts]
        if not all(found):
            return None
        parsed.append([(m.group(1), m.group(2)) for m in found])
    keys = [k for k, _ in parsed[0]]
    if any([k for k, _ in p] != keys for p in parsed):
        return None
    out = []
    for i, k in enumerate(keys):
        nums = [p[i][1] for p in parsed]
        lo, hi = min(nums, key=float), max(nums, key=float)
        out.append((k, lo, hi))
    return tuple(out)


def _int_ends(values: list[object]) -> list[str] | None:
    """The integers of texts that list integers and integer ranges (``5-6``, ``2,3``, ``7``), else ``None``."""
    out = []
    for v in values:
        if not isinstance(v, str):
            return None
        for part in _LIST.split(v.strip()):
            m = _INT_RANGE.fullmatch(part)
            if m:
                out += m.groups()
            elif _INT.fullmatch(part):
                out.append(part)
            else:
                return None
    return out


def _spread(values: list[object]) -> object:
    present = [v for v in values if not _missing(v)]
    if not present:
        return None
    distinct = list(dict.fromkeys(present))
    if len(distinct) == 1:
        return distinct[0]
    if all(_number(v) for v in distinct):
        return Spread("range", (min(distinct), max(distinct)))
    if all(isinstance(v, str) and _INT.fullmatch(v) for v in distinct):  # integers written as text
        return Spread("range", (min(distinct, key=int), max(distinct, key=int)))
    ends = _int_ends(distinct)
    if ends is not None:
        return Spread("range", (min(ends, key=int), max(ends, key=int)))
    params = _params(distinct)
    if params is not None:
        return Spread("params", params)
    if len(distinct) > MAX_SET:
        return Spread("count", (len(distinct),))
    return Spread("set", tuple(distinct))


def compact(frame: pd.DataFrame, group_by: Sequence[str]) -> pd.DataFrame:
    """One row per group of ``group_by`` (in the order of each group's first row), other columns as spreads.

    Parameters
    ----------
    frame : pandas.DataFrame
    group_by : sequence of str
        Columns of ``frame`` whose values name a group.

    Returns
    -------
    pandas.DataFrame
        The same columns; a cell is a plain value where the group has one value, a :class:`Spread` where it
        has several, ``None`` where it has none.

    Raises
    ------
    ValueError
        If ``group_by`` is empty or names a column the frame does not have.

    Example
    -------
    >>> df = pd.DataFrame({"net": ["a", "a"], "p": ["q=3;r=5", "q=7;r=5"], "x": [1.5, None]})
    >>> [str(v) for v in compact(df, ["net"]).iloc[0]]
    ['a', 'q=3-7 r=5', '1.5']
    """
    keys = list(group_by)
    unknown = [k for k in keys if k not in frame.columns]
    if not keys or unknown:
        raise ValueError(f"group_by={keys!r}: must name one or more columns of the frame "
                         f"({list(map(str, frame.columns))}); unknown: {unknown}")
    groups: dict[tuple, list[int]] = {}
    for i, key in enumerate(frame[keys].itertuples(index=False, name=None)):
        groups.setdefault(tuple("" if _missing(k) else k for k in key), []).append(i)
    rows = []
    for members in groups.values():
        part = frame.iloc[members]
        rows.append([part[c].iloc[0] if c in keys else _spread(part[c].tolist()) for c in frame.columns])
    return pd.DataFrame(rows, columns=frame.columns, dtype=object)
