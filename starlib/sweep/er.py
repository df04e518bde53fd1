"""The ER_q sweep: for each prime power ``q``, an EDST family of ER_q built and verified tree by tree.

One point is ``(q, family)`` with ``family`` in :data:`ER_FAMILIES`. :func:`er_point` never holds ER_q or a whole
family in memory:

1. the Singer model of ER_q (:func:`~starlib.edst.factor.er.singer_model`): ``D`` is checked to be a perfect
   difference set, and :func:`~starlib.edst.factor.er.check_singer_isomorphism` checks, edge by edge, that
   the Gram-basis map is an isomorphism from the dot-product ER_q (PolarFly) onto the Singer model;
2. the family, one tree at a time (:func:`~starlib.edst.factor.er.er_tree_stream`: Construction A's
   Hamiltonian paths, or the lifted-cluster low-depth family), each tree checked by a
   :class:`~starlib.edst.factor.er.SingerChecker` (membership by arithmetic, edge-disjointness by a bitmap
   over edge slots, spanning and acyclic, depth by BFS from its root) and fed to the family's SHA-256.

The row (:data:`ER_COLUMNS`) records the sizes, the bound ``floor((q+1)/2)``, the trees built, whether every check
passed, the deepest tree, the two model checks, the digest, and the task's wall time and peak memory.

Example
-------
>>> row = er_point(5, "low-depth")
>>> row["trees"], row["bound"], row["verified"], row["isomorphism"], row["max_depth"]
(3, 3, True, True, 5)
>>> [" ".join(p.key) for p in er_points(2, 4)]
['2 hamiltonian', '2 low-depth', '3 hamiltonian', '3 low-depth', '4 hamiltonian', '4 low-depth']

References
----------
docs/er-edsts.md §1 (the bound), §2-§3 (Singer model, isomorphism), §4 (Construction A), §6-§7 (low depth).
"""

from __future__ import annotations

import gc
import hashlib
import math
import os
import random
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from ..edst.factor.er import SingerChecker, check_singer_isomorphism, er_edst_bound, er_tree_stream, singer_model
from ..primes import check_prime_power, is_prime_power
from ..validation import check_int
from .engine import Point
from .memory import PeakMemory
from .record import CellError, format_value, read_record

__all__ = ["ER_FAMILIES", "ER_COLUMNS", "ER_KEY", "er_point", "er_points", "read_er_record", "Q_LIMIT",
           "check_er_row", "ER_RESULT_COLUMNS", "recheck_er_record"]

#: the families of a point (the methods of :func:`starlib.edst.factor.er.er_edsts` that stream)
ER_FAMILIES = ("hamiltonian", "low-depth")
#: the record's columns
ER_COLUMNS = ("q", "family", "vertices", "edges", "bound", "trees", "verified", "max_depth", "difference_set",
              "isomorphism", "sha256", "seconds", "peak_mb", "note")
#: the columns that name a point
ER_KEY = ("q", "family")
#: the largest q a point accepts: the slot bitmap and a tree's arrays stay near 1 GB up to here
Q_LIMIT = 2048
#: the columns two runs anywhere give equal (all but the measurements ``seconds`` and ``peak_mb``)
ER_RESULT_COLUMNS = tuple(c for c in ER_COLUMNS if c not in ("seconds", "peak_mb"))
#: the digest of a family with no tree (SHA-256 of nothing)
_EMPTY_SHA256 = hashlib.sha256().hexdigest()
_DIGITS = re.compile(r"[0-9]{1,12}")
_DECIMAL = re.compile(r"[0-9]{1,12}(\.[0-9]{1,6})?")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")
_NOTE = "construction failed: "


def er_point(q: int, family: str) -> dict[str, Any]:
    """Build and verify one ER_q EDST family tree by tree; the record row (:data:`ER_COLUMNS`).

    Parameters
    ----------
    q : int
        A prime power, at most :data:`Q_LIMIT`.
    family : str
        ``"hamiltonian"`` or ``"low-depth"``.

    Returns
    -------
    dict
        ``q, family, vertices, edges, bound, trees, verified, max_depth, difference_set, isomorphism, sha256,
        seconds, peak_mb, note``; ``seconds`` (wall time, 0.1 s) and ``peak_mb`` (peak resident memory of the
        process during the task, :class:`~starlib.sweep.memory.PeakMemory`) are measurements, the rest are results.
        If the construction comes up short (the odd-``q`` design of :func:`~starlib.edst.factor.er.er_tree_stream`
        raises ``RuntimeError``), ``trees`` counts the trees it gave and ``note`` quotes the failure; otherwise
        ``note`` is empty.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power in ``2 .. Q_LIMIT`` or ``family`` is unknown.

    Example
    -------
    >>> er_point(4, "hamiltonian")["sha256"] == er_point(4, "hamiltonian")["sha256"]
    True
    """
    q = check_prime_power(check_int(q, "q", minimum=2, maximum=Q_LIMIT))
    if family not in ER_FAMILIES:
        raise ValueError(f"family={family!r} is not one of {', '.join(repr(f) for f in ER_FAMILIES)}")
    singer_model.cache_clear()  # a worker runs many points: the models earlier ones cached are not this one's memory
    gc.collect()
    with PeakMemory() as pm:
        t0 = time.perf_counter()
        S = singer_model(q)
        iso = check_singer_isomorphism(q, S)
        checker = SingerChecker(q, S)
        note = ""
        try:
            for edges, root, _tag in er_tree_stream(q, family):
                checker.check(edges, root)
        except RuntimeError as exc:  # a construction that comes up short is a finding: the row says why
            note = f"construction failed: {exc}"
        seconds = time.perf_counter() - t0
    return {"q": q, "family": family, "vertices": S.n, "edges": q * (q + 1) ** 2 // 2, "bound": er_edst_bound(q),
            "trees": checker.trees, "verified": bool(checker.valid and checker.trees > 0),
            "max_depth": checker.max_depth, "difference_set": iso.difference_set, "isomorphism": iso.isomorphic,
            "sha256": checker.sha256, "seconds": round(seconds, 1), "peak_mb": pm.megabytes, "note": note}


def er_points(q_min: int = 2, q_max: int = 1024, families: Sequence[str] = ER_FAMILIES) -> list[Point]:
    """The points of an ER_q sweep: every prime power ``q_min <= q <= q_max`` with every family.

    Parameters
    ----------
    q_min, q_max : int
        The range of ``q`` (``2 <= q_min <= q_max <= Q_LIMIT``).
    families : sequence of str
        Families from :data:`ER_FAMILIES`.

    Returns
    -------
    list of Point
        In increasing ``q``, families in the given order; cost = edges of ER_q.

    Raises
    ------
    ValueError
        On a bad range, an unknown or repeated family, or a range with no prime power.
    """
    q_min = check_int(q_min, "q_min", minimum=2, maximum=Q_LIMIT)
    q_max = check_int(q_max, "q_max", minimum=q_min, maximum=Q_LIMIT, rule=f"an integer in {q_min} .. {Q_LIMIT} "
                      "(at least q_min)")
    fams = list(families)
    for f in fams:
        if f not in ER_FAMILIES:
            raise ValueError(f"family={f!r} is not one of {', '.join(repr(x) for x in ER_FAMILIES)}")
    if not fams or len(set(fams)) != len(fams):
        raise ValueError(f"families={fams!r}: give each family once, at least one")
    qs = [q for q in range(q_min, q_max + 1) if is_prime_power(q)]
    if not qs:
        raise ValueError(f"q_min={q_min}, q_max={q_max}: no prime power in this range")
    return [Point(key=(str(q), f), func=er_point, args=(q, f), cost=float(q * (q + 1) ** 2 // 2))
            for q in qs for f in fams]


def _int(cells: Mapping[str, str], c: str, lo: int, hi: int, rule: str | None = None) -> int:
    v = cells[c]
    if not _DIGITS.fullmatch(v) or not lo <= int(v) <= hi:
        raise CellError(c, v, rule or f"an integer in {lo} .. {hi} (ASCII digits)")
    return int(v)


def _bool(cells: Mapping[str, str], c: str) -> bool:
    v = cells[c]
    if v not in ("True", "False"):
        raise CellError(c, v, "True or False")
    return v == "True"


def check_er_row(cells: Mapping[str, str]) -> dict[str, str]:
    """Validate one row of the ER_q record (text cells) and return its canonical cells.

    Each cell is checked by type and range, and every column that follows from ``q`` against it:

    * ``q`` a prime power in 2 .. :data:`Q_LIMIT` (ASCII digits; leading zeros are dropped: ``02`` is ``2``);
      ``family`` one of :data:`ER_FAMILIES`;
    * ``vertices == q^2 + q + 1``, ``edges == q (q+1)^2 / 2``, ``bound == floor((q+1)/2)``;
    * ``trees`` in 0 .. ``bound``; ``verified`` (``True``/``False``) only with at least one tree;
      ``max_depth`` -1 exactly when there is no tree, else 0 .. ``vertices - 1``, and ``(q^2 + q) / 2`` for a
      verified ``hamiltonian`` family (a path rooted at its middle vertex);
    * ``difference_set``, ``isomorphism`` ``True``/``False``;
    * ``sha256`` 64 hex digits (written lowercase), the digest of nothing exactly when there is no tree, and not
      one digit repeated 64 times (a placeholder, not a digest);
    * ``seconds`` a non-negative decimal (``0.1``), ``peak_mb`` a non-negative integer (measurements);
    * ``note`` empty, or ``construction failed: ...`` on one line, with no control character.

    The digest itself can only be checked by recomputing the row (``starlib sweep er --check-record N``).

    Parameters
    ----------
    cells : mapping of str to str
        The row's cells (every column of :data:`ER_COLUMNS`).

    Returns
    -------
    dict
        The canonical cells (what :func:`er_point` would write).

    Raises
    ------
    starlib.sweep.record.CellError
        A ValueError naming the column, the value and the rule.

    Example
    -------
    >>> row = {k: str(v) for k, v in er_point(2, "hamiltonian").items()}
    >>> check_er_row(dict(row, q="02"))["q"]
    '2'
    >>> check_er_row(dict(row, trees="3"))
    Traceback (most recent call last):
    ...
    starlib.sweep.record.CellError: column trees='3': an integer in 0 .. 1 (at most the bound floor((q+1)/2))
    """
    out = {c: cells[c] for c in ER_COLUMNS}
    q = _int(cells, "q", 2, Q_LIMIT)
    if not is_prime_power(q):
        raise CellError("q", cells["q"], f"a prime power in 2 .. {Q_LIMIT}")
    if cells["family"] not in ER_FAMILIES:
        raise CellError("family", cells["family"], f"one of {', '.join(ER_FAMILIES)}")
    n, m, bound = q * q + q + 1, q * (q + 1) ** 2 // 2, (q + 1) // 2
    for c, want, what in (("vertices", n, "q^2 + q + 1"), ("edges", m, "q (q+1)^2 / 2"),
                          ("bound", bound, "floor((q+1)/2)")):
        if cells[c] != str(want) and not (_DIGITS.fullmatch(cells[c]) and int(cells[c]) == want):
            raise CellError(c, cells[c], f"{want} = {what} for q = {q}")
        out[c] = str(want)
    trees = _int(cells, "trees", 0, bound, f"an integer in 0 .. {bound} (at most the bound floor((q+1)/2))")
    verified = _bool(cells, "verified")
    if verified and trees == 0:
        raise CellError("verified", cells["verified"], "False when trees is 0 (no family to verify)")
    d = cells["max_depth"]
    if trees == 0:
        if d != "-1":
            raise CellError("max_depth", d, "-1 when trees is 0")
        depth = -1
    else:
        depth = _int(cells, "max_depth", 0, n - 1, f"an integer in 0 .. {n - 1} (a tree on {n} vertices)")
        if verified and cells["family"] == "hamiltonian" and depth != (q * q + q) // 2:
            raise CellError("max_depth", d, f"{(q * q + q) // 2} = (q^2 + q) / 2 for a verified hamiltonian family "
                            "(paths rooted at their middle vertex)")
    _bool(cells, "difference_set")
    _bool(cells, "isomorphism")
    h = cells["sha256"]
    if not _HEX64.fullmatch(h):
        raise CellError("sha256", h, "a SHA-256 digest: 64 hex digits")
    h = h.lower()
    if len(set(h)) == 1:
        raise CellError("sha256", cells["sha256"], "a SHA-256 digest, not one digit repeated (a placeholder)")
    if (trees == 0) != (h == _EMPTY_SHA256):
        raise CellError("sha256", cells["sha256"], "the digest of nothing exactly when trees is 0")
    s = cells["seconds"]
    if not _DECIMAL.fullmatch(s) or not math.isfinite(float(s)):
        raise CellError("seconds", s, "a non-negative decimal number of seconds (0.1)")
    _int(cells, "peak_mb", 0, 2 ** 40)
    note = cells["note"]
    if note and (not note.startswith(_NOTE) or any(ch < " " or ch == "\x7f" for ch in note)):
        raise CellError("note", note, f"empty, or {_NOTE!r} and the reason on one line (no control characters)")
    out.update(q=str(q), trees=str(trees), max_depth=str(depth), sha256=h, seconds=str(float(s)),
               peak_mb=str(int(cells["peak_mb"])))
    return out


#: the type of each column of the record, as :func:`read_er_record` returns it
_TYPES = {"q": int, "vertices": int, "edges": int, "bound": int, "trees": int, "max_depth": int, "peak_mb": int,
          "seconds": float, "verified": bool, "difference_set": bool, "isomorphism": bool}


def read_er_record(path: str | os.PathLike) -> pd.DataFrame:
    """The ER_q sweep record as a typed DataFrame (one row per ``(q, family)``, sorted).

    Parameters
    ----------
    path : path-like
        A record written by :func:`~starlib.sweep.run_sweep` with :data:`ER_COLUMNS` (``starlib sweep er``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ER_COLUMNS`; integers, booleans and ``seconds`` as floats.

    Raises
    ------
    ValueError
        If the file is missing or not an ER_q record (header, a cell :func:`check_er_row` refuses: the line,
        column, value and rule are named).

    Example
    -------
    >>> import tempfile, pathlib
    >>> from starlib.sweep import run_sweep
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "er.csv"
    >>> _ = run_sweep(er_points(2, 3), p, columns=ER_COLUMNS, key=ER_KEY, workers=1)
    >>> read_er_record(p)[["q", "family", "trees", "verified"]].values.tolist()
    [[2, 'hamiltonian', 1, True], [2, 'low-depth', 1, True], [3, 'hamiltonian', 2, True], [3, 'low-depth', 2, True]]
    """
    if not os.path.exists(path):
        raise ValueError(f"path={str(path)!r} does not exist (make sweep writes the ER_q record)")
    rows = list(read_record(path, columns=ER_COLUMNS, key=ER_KEY, check=check_er_row).values())
    out = pd.DataFrame(rows, columns=list(ER_COLUMNS))
    for c, kind in _TYPES.items():
        try:
            if kind is bool:
                if not out[c].isin(["True", "False"]).all():
                    raise ValueError
                out[c] = out[c] == "True"
            else:
                out[c] = out[c].astype(kind)
        except ValueError:
            raise ValueError(f"path={str(path)!r}: column {c} must hold {kind.__name__} values") from None
    return out.sort_values(["q", "family"], kind="stable").reset_index(drop=True)


def recheck_er_record(path: str | os.PathLike, points: Sequence[Point], n: int, *, seed: int = 0
                      ) -> tuple[int, dict[tuple[str, str], list[tuple[str, str, str]]]]:
    """Recompute a seeded sample of an ER_q record's rows in this process and compare every result column.

    Parameters
    ----------
    path : path-like
        A record of :data:`ER_COLUMNS` (read with :func:`check_er_row`; it is not written).
    points : sequence of Point
        The sweep's points (:func:`er_points`): only the record's rows among them are sampled.
    n : int
        Rows to recompute (all of them when the record holds fewer).
    seed : int
        Seed of the sample (the same rows on every run).

    Returns
    -------
    (int, dict)
        The number of the sweep's rows in the record, and for each sampled key (sorted by q, then family) the
        columns of :data:`ER_RESULT_COLUMNS` where the recomputation differs, as ``(column, recorded,
        recomputed)`` (an empty list: the row is reproduced). ``(0, {})`` when the record holds no row of
        ``points``.

    Raises
    ------
    ValueError
        If the record is not an ER_q record.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from starlib.sweep.record import write_record
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "er.csv"
    >>> _ = write_record(p, [er_point(3, "hamiltonian")], columns=ER_COLUMNS, key=ER_KEY)
    >>> recheck_er_record(p, er_points(2, 5), 5)
    (1, {('3', 'hamiltonian'): []})
    """
    held = read_record(path, columns=ER_COLUMNS, key=ER_KEY, check=check_er_row)
    wanted = {tuple(p.key) for p in points}
    keys = sorted((k for k in held if k in wanted), key=lambda k: (int(k[0]), k[1]))
    out = {}
    for k in sorted(random.Random(seed).sample(keys, min(n, len(keys))), key=lambda k: (int(k[0]), k[1])):
        fresh = check_er_row({c: format_value(v) for c, v in er_point(int(k[0]), k[1]).items()})
        out[k] = [(c, held[k][c], fresh[c]) for c in ER_RESULT_COLUMNS if fresh[c] != held[k][c]]
    return len(keys), out
