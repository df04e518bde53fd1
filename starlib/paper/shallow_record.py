"""The shallow families of the "maximum and shallow" table, computed once and committed.

The shallow column of notebook 13 (:func:`starlib.paper.shallow_study.shallow_row`) runs the depth-reducing local
search from every start and, on networks of at most :data:`~starlib.edst.depth.shallow.DEEPEN_LINKS` links, the
targeted deepening search (:func:`~starlib.edst.depth.shallowest`): about 95 % of the notebook's time, 5 to 30 s
per row. Like the other long computations of the compendium it runs in its own make target,
``make maximum-shallow`` (``tools/maximum_shallow.py``), which writes

* ``data/maximum_shallow/<network>_<parameters>.json.gz``: each row's family, in starlib JSON compressed with gzip
  (no time stamp; atomic writes), and
* ``data/maximum_shallow.csv``: one row per network (:data:`COLUMNS`) with the family's count, depths, start, the
  seed it came from, the settings it was made with and the SHA-256 of its JSON (the uncompressed bytes, which do
  not depend on the machine's zlib).

**Seeds.** The search depends on the local search's seed, and on a few networks another seed gives a family one
level shallower. The rule, declared once (:data:`SEEDS`, :data:`SEED_ROUTERS`, :data:`SEED_GAP`) and applied by
one function (:func:`seeded_family`) that both the record and a live row of the notebook use: a row runs its
first seed; on a network of at most :data:`SEED_ROUTERS` routers whose family is :data:`SEED_GAP` or more levels
above the counting lower bound (:func:`~starlib.edst.depth.depth_lower_bound`), it also runs the next
``SEEDS - 1`` seeds and keeps the shallowest family (least maximum depth, then least total depth, then lowest
seed). The record's ``seed`` column is the seed kept, ``first_seed`` the first seed and ``seeds`` the number of
seeds the row may try (:func:`seed_count`: :data:`SEEDS` up to :data:`SEED_ROUTERS` routers, 1 above).

The notebook reads a row's family (:func:`recorded_family`) only when the record was made with the notebook's own
settings (first seed, seed rule and budgets) and the JSON's digest matches; the family is then verified against
the network the notebook built, like every family of the table. A row the record lacks is computed live, by the
same rule. ``tests/paper/test_shallow_record.py`` recomputes a sample of rows (all of them under ``-m slow``) and
requires the same bytes, so a change to the search that would change the table cannot pass with a stale record.

Example
-------
>>> import tempfile, pathlib
>>> from starlib.paper.catalog import build
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> row = record_row("slimfly", {"q": 5}, build("slimfly", {"q": 5}), out_dir=folder)
>>> row["k"], row["max_depth"], row["start"], (folder / row["family_file"]).exists()
(3, 4, 'auto', True)
>>> row["seed"], row["first_seed"], row["seeds"]  # 50 routers, one level above the counting bound: seed 0 only
(0, 0, 4)
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..edst import EDSTSet
from ..edst.depth.bound import depth_lower_bound
from ..edst.depth.shallow import ShallowStart, shallow_starts, shallowest
from ..graphs import ArrayGraph
from ..io import atomic_write
from ..io.json_format import decode, encode
from ..validation import check_int
from .catalog import format_params
from .depth_certificates import family_filename

__all__ = ["COLUMNS", "KEY", "SEEDS", "SEED_ROUTERS", "SEED_GAP", "table_starts", "shallow_search", "seed_count",
           "seeded_family", "record_row", "read_shallow_record", "recorded_family"]

#: The columns of ``data/maximum_shallow.csv``, in order (``seed``: the seed kept; ``first_seed``: the first seed
#: tried; ``seeds``: the number of seeds the row may try, :func:`seed_count`).
COLUMNS = ("network", "parameters", "n", "links", "k", "max_depth", "total_depth", "start", "seed", "first_seed",
           "seeds", "generic_max_seconds", "exact_max_seconds", "family_file", "family_sha256")

#: The number of seeds (the first and the next ``SEEDS - 1``) a row with a gap may try (:func:`seeded_family`).
SEEDS = 4

#: Only networks of at most this many routers try more than one seed (each seed is a full search, 10-15 s there).
SEED_ROUTERS = 500

#: A row tries more seeds when its family's maximum depth is at least this many levels above the counting lower
#: bound (:func:`~starlib.edst.depth.depth_lower_bound`): the target of the depth study is a gap of at most 1.
SEED_GAP = 2

#: The columns that name a row.
KEY = ("network", "parameters")


def shallow_search(graph: ArrayGraph, *, generic_max_seconds: float = 3.0, exact_max_seconds: float | None = 5.0,
                   seed: int = 0) -> tuple[list[ShallowStart], EDSTSet]:
    """The starts of the table's shallow column and the shallowest family from them.

    Parameters
    ----------
    graph : ArrayGraph
        The network.
    generic_max_seconds, exact_max_seconds : float
        The exact packer's budgets, as :func:`~starlib.paper.shallow_study.shallow_row` takes them (the larger
        one where only the exact packer can tell the maximum count; the smaller one as a start anyway, capped at
        1 s).
    seed : int
        The local search's seed.

    Returns
    -------
    (list of ShallowStart, EDSTSet)
        :func:`~starlib.edst.depth.shallow_starts` and :func:`~starlib.edst.depth.shallowest` of them.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> starts, fam = shallow_search(slimfly(5))
    >>> len(fam), max(fam.depths()), fam[0].meta["start"] in [s.name for s in starts]
    (3, 4, True)
    """
    starts = table_starts(graph, generic_max_seconds=generic_max_seconds, exact_max_seconds=exact_max_seconds,
                          seed=seed)
    return starts, shallowest(graph, starts, seed=seed)


def table_starts(graph: ArrayGraph, *, generic_max_seconds: float = 3.0, exact_max_seconds: float | None = 5.0,
                 seed: int = 0) -> list[ShallowStart]:
    """The starting families of the table's shallow column (:func:`~starlib.edst.depth.shallow_starts`).

    The exact packer runs as a start where the other starts are below the upper bound and its estimated time is at
    most the larger budget, or anyway where it is at most the smaller one capped at 1 s.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> [s.name for s in table_starts(slimfly(5))][-1]
    'generic'
    """
    exact = generic_max_seconds if exact_max_seconds is None else max(exact_max_seconds, generic_max_seconds)
    return shallow_starts(graph, exact_seconds=exact, cheap_seconds=min(1.0, generic_max_seconds), seed=seed)


def seed_count(n: int, *, seeds: int = SEEDS, seed_routers: int = SEED_ROUTERS) -> int:
    """The number of seeds a row of ``n`` routers may try: ``seeds`` up to ``seed_routers`` routers, 1 above.

    Parameters
    ----------
    n : int
        The network's number of routers (vertices), ``n >= 1``.
    seeds : int
        The number of seeds a row with a gap may try, ``seeds >= 1`` (default :data:`SEEDS`).
    seed_routers : int
        The largest network that may try more than one seed, ``seed_routers >= 0`` (default
        :data:`SEED_ROUTERS`).

    Returns
    -------
    int
        The row's number of seeds (the record's ``seeds`` column).

    Raises
    ------
    ValueError
        If an argument is not an integer or is below its minimum.

    Example
    -------
    >>> seed_count(455), seed_count(504), seed_count(455, seeds=1)
    (4, 1, 1)
    """
    n = check_int(n, "n", minimum=1, rule="a number of routers n >= 1")
    seeds = check_int(seeds, "seeds", minimum=1, rule="a number of seeds >= 1")
    seed_routers = check_int(seed_routers, "seed_routers", minimum=0, rule="a number of routers seed_routers >= 0")
    return seeds if n <= seed_routers else 1


def _rank(fam: EDSTSet, seed: int) -> tuple[int, int, int, int]:
    """The order of :func:`seeded_family`: most trees, then least maximum depth, least total depth, lowest seed."""
    depths = fam.depths()
    return -len(fam), max(depths), sum(depths), seed


def seeded_family(graph: ArrayGraph, *, generic_max_seconds: float = 3.0, exact_max_seconds: float | None = 5.0,
                  seed: int = 0, seeds: int = SEEDS, seed_routers: int = SEED_ROUTERS,
                  starts: list[ShallowStart] | None = None) -> tuple[EDSTSet, int]:
    """The table's shallow family under the seed rule, and the seed it came from.

    The search (:func:`shallow_search`) runs with ``seed``. If the network has at most ``seed_routers`` routers
    and the family's maximum depth is :data:`SEED_GAP` or more above the counting lower bound
    (:func:`~starlib.edst.depth.depth_lower_bound` for its count), it runs again with each of the seeds
    ``seed + 1, ..., seed + seeds - 1`` (starts included) and keeps the shallowest family: least maximum depth,
    then least total depth, then lowest seed (every seed gives the same count: the starts' maximum). The record
    (:func:`record_row`) and a live row of notebook 13 (:func:`~starlib.paper.shallow_study.shallow_row`) both
    come here.

    Parameters
    ----------
    graph : ArrayGraph
        The network.
    generic_max_seconds, exact_max_seconds : float
        The exact packer's budgets, as :func:`shallow_search` takes them.
    seed : int
        The first seed of the local search, ``seed >= 0``.
    seeds, seed_routers : int
        The rule (:func:`seed_count`; defaults :data:`SEEDS` and :data:`SEED_ROUTERS`).
    starts : list of ShallowStart, optional
        The first seed's starts, when the caller has them (:func:`table_starts` with these budgets and ``seed``);
        None computes them.

    Returns
    -------
    (EDSTSet, int)
        The family kept and its seed.

    Raises
    ------
    ValueError
        If ``seed``, ``seeds`` or ``seed_routers`` is not an integer or is below its minimum.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> fam, kept = seeded_family(slimfly(5))  # depth 4, one above the counting bound: seed 0 only
    >>> len(fam), max(fam.depths()), kept
    (3, 4, 0)
    """
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    count = seed_count(int(graph.n), seeds=seeds, seed_routers=seed_routers)
    if starts is None:
        starts = table_starts(graph, generic_max_seconds=generic_max_seconds, exact_max_seconds=exact_max_seconds,
                              seed=seed)
    fam = shallowest(graph, starts, seed=seed)
    best, kept = fam, seed
    if count > 1 and max(fam.depths()) - int(depth_lower_bound(graph, len(fam)).value) >= SEED_GAP:
        for s in range(seed + 1, seed + count):
            _, other = shallow_search(graph, generic_max_seconds=generic_max_seconds,
                                      exact_max_seconds=exact_max_seconds, seed=s)
            if _rank(other, s) < _rank(best, kept):
                best, kept = other, s
    return best, kept


def record_row(network: str, params: Mapping[str, Any], graph: ArrayGraph, *, out_dir: str | os.PathLike,
               generic_max_seconds: float = 3.0, exact_max_seconds: float = 5.0, seed: int = 0, seeds: int = SEEDS,
               seed_routers: int = SEED_ROUTERS) -> dict[str, Any]:
    """Compute one row's shallow family, write it to ``out_dir`` and return its record row (:data:`COLUMNS`).

    Parameters
    ----------
    network, params : the family name and parameters (the table's first two columns).
    graph : the network, as :func:`starlib.paper.catalog.build` gives it.
    out_dir : the folder of the family files (it must exist).
    generic_max_seconds, exact_max_seconds : as :func:`shallow_search`.
    seed, seeds, seed_routers : the first seed and the seed rule, as :func:`seeded_family`.

    Returns
    -------
    dict
        The row: sizes, count, maximum and total depth (from the stated roots), the start it came from, the seed
        kept, the settings (first seed, the row's number of seeds :func:`seed_count`, budgets), the file name and
        the SHA-256 of the JSON (before compression).

    Raises
    ------
    ValueError
        If ``seed``, ``seeds`` or ``seed_routers`` is invalid (:func:`seeded_family`).
    """
    fam, kept = seeded_family(graph, generic_max_seconds=generic_max_seconds, exact_max_seconds=exact_max_seconds,
                              seed=seed, seeds=seeds, seed_routers=seed_routers)
    text = format_params(dict(params))
    name = family_filename(network, text) + ".gz"
    data = encode(graph, fam, network=network, params=dict(params), extra={"method": "shallow"})
    atomic_write(Path(out_dir) / name, gzip.compress(data, compresslevel=9, mtime=0))
    depths = fam.depths()
    return {"network": network, "parameters": text, "n": int(graph.n), "links": int(graph.m), "k": len(fam),
            "max_depth": max(depths), "total_depth": sum(depths), "start": fam[0].meta["start"], "seed": kept,
            "first_seed": int(seed), "seeds": seed_count(int(graph.n), seeds=seeds, seed_routers=seed_routers),
            "generic_max_seconds": generic_max_seconds, "exact_max_seconds": exact_max_seconds,
            "family_file": name, "family_sha256": hashlib.sha256(data).hexdigest()}


def read_shallow_record(path: str | os.PathLike) -> dict[tuple[str, str], dict[str, str]]:
    """The committed record (``data/maximum_shallow.csv``) by (network, parameters); an absent file is empty.

    Example
    -------
    >>> read_shallow_record("/nonexistent/maximum_shallow.csv")
    {}
    """
    p = Path(path)
    if not p.exists():
        return {}
    with p.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if rows and tuple(rows[0]) != COLUMNS:
        raise ValueError(f"record={str(p)!r} has the columns {list(rows[0])}, expected {list(COLUMNS)}")
    return {(r["network"], r["parameters"]): {**r, "folder": str(p.with_suffix(""))} for r in rows}


def recorded_family(record: Mapping[tuple[str, str], Mapping[str, str]], network: str, params: Mapping[str, Any],
                    graph: ArrayGraph, *, generic_max_seconds: float = 3.0, exact_max_seconds: float = 5.0,
                    seed: int = 0, seeds: int = SEEDS, seed_routers: int = SEED_ROUTERS) -> EDSTSet | None:
    """The committed shallow family of a row, or ``None`` when the record lacks it or was made otherwise.

    A row is used only when its settings are the caller's (the first seed; the number of seeds the row may try,
    :func:`seed_count` of the caller's ``seeds`` and ``seed_routers``; the exact packer's budgets) and its network
    has the caller's size; its JSON must have the recorded SHA-256 and hold the caller's network (same vertex
    labels and links). The family is returned with each tree's ``meta["start"]`` as recorded; the caller verifies
    it.

    Raises
    ------
    ValueError
        If ``seed``, ``seeds`` or ``seed_routers`` is invalid, the row's kept seed is not one of the seeds it may
        try, the file's digest differs from the record, or it holds another network.
    """
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    count = seed_count(int(graph.n), seeds=seeds, seed_routers=seed_routers)
    row = record.get((network, format_params(dict(params))))
    if row is None or (int(row["first_seed"]), int(row["seeds"]), float(row["generic_max_seconds"]),
                       float(row["exact_max_seconds"]), int(row["n"]), int(row["links"])) != (
            seed, count, float(generic_max_seconds), float(exact_max_seconds), int(graph.n), int(graph.m)):
        return None
    if not seed <= int(row["seed"]) < seed + count:
        raise ValueError(f"{network} {row['parameters']}: seed={row['seed']} kept, but the row may try only the "
                         f"seeds {seed} to {seed + count - 1} (make maximum-shallow rewrites the record)")
    path = Path(row["folder"]) / row["family_file"]
    data = gzip.decompress(path.read_bytes())
    digest = hashlib.sha256(data).hexdigest()
    if digest != row["family_sha256"]:
        raise ValueError(f"{path}: SHA-256 {digest} differs from the record's {row['family_sha256']} "
                         "(make maximum-shallow rewrites both)")
    nf = decode(data, f"path={str(path)!r}")
    if nf.graph.labels != graph.labels or not np.array_equal(nf.graph.edges, graph.edges):
        raise ValueError(f"{path}: holds another network than {network} {row['parameters']}")
    fam = EDSTSet(nf.trees)
    fam.theorem = "shallow"
    for t in fam:
        t.meta["start"] = row["start"]
    return fam
