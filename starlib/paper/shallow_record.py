"""The shallow families of the "maximum and shallow" table, computed once and committed.

The shallow column of notebook 13 (:func:`starlib.paper.shallow_study.shallow_row`) runs the depth-reducing local
search from every start and, on networks of at most :data:`~starlib.edst.depth.shallow.DEEPEN_LINKS` links, the
targeted deepening search (:func:`~starlib.edst.depth.shallowest`): about 95 % of the notebook's time, 5 to 30 s
per row. Like the other long computations of the compendium it runs in its own make target,
``make maximum-shallow`` (``tools/maximum_shallow.py``), which writes

* ``data/maximum_shallow/<network>_<parameters>.json.gz``: each row's family, in starlib JSON compressed with gzip
  (no time stamp; atomic writes), and
* ``data/maximum_shallow.csv``: one row per network (:data:`COLUMNS`) with the family's count, depths, start, the
  settings it was made with and the SHA-256 of its JSON (the uncompressed bytes, which do not depend on the
  machine's zlib).

The notebook reads a row's family (:func:`recorded_family`) only when the record was made with the notebook's own
settings and the JSON's digest matches; the family is then verified against the network the notebook built, like
every family of the table. A row the record lacks is computed live. ``tests/paper/test_shallow_record.py``
recomputes a sample of rows (all of them under ``-m slow``) and requires the same bytes, so a change to the search
that would change the table cannot pass with a stale record.

Example
-------
>>> import tempfile, pathlib
>>> from starlib.paper.catalog import build
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> row = record_row("slimfly", {"q": 5}, build("slimfly", {"q": 5}), out_dir=folder)
>>> row["k"], row["max_depth"], row["start"], (folder / row["family_file"]).exists()
(3, 4, 'auto', True)
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
from ..edst.depth.shallow import ShallowStart, shallow_starts, shallowest
from ..graphs import ArrayGraph
from ..io import atomic_write
from ..io.json_format import decode, encode
from .catalog import format_params
from .depth_certificates import family_filename

__all__ = ["COLUMNS", "KEY", "table_starts", "shallow_search", "record_row", "read_shallow_record", "recorded_family"]

#: The columns of ``data/maximum_shallow.csv``, in order.
COLUMNS = ("network", "parameters", "n", "links", "k", "max_depth", "total_depth", "start", "seed",
           "generic_max_seconds", "exact_max_seconds", "family_file", "family_sha256")

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


def record_row(network: str, params: Mapping[str, Any], graph: ArrayGraph, *, out_dir: str | os.PathLike,
               generic_max_seconds: float = 3.0, exact_max_seconds: float = 5.0, seed: int = 0) -> dict[str, Any]:
    """Compute one row's shallow family, write it to ``out_dir`` and return its record row (:data:`COLUMNS`).

    Parameters
    ----------
    network, params : the family name and parameters (the table's first two columns).
    graph : the network, as :func:`starlib.paper.catalog.build` gives it.
    out_dir : the folder of the family files (it must exist).
    generic_max_seconds, exact_max_seconds, seed : as :func:`shallow_search`.

    Returns
    -------
    dict
        The row: sizes, count, maximum and total depth (from the stated roots), the start it came from, the
        settings, the file name and the SHA-256 of the JSON (before compression).
    """
    _, fam = shallow_search(graph, generic_max_seconds=generic_max_seconds, exact_max_seconds=exact_max_seconds,
                            seed=seed)
    text = format_params(dict(params))
    name = family_filename(network, text) + ".gz"
    data = encode(graph, fam, network=network, params=dict(params), extra={"method": "shallow"})
    atomic_write(Path(out_dir) / name, gzip.compress(data, compresslevel=9, mtime=0))
    depths = fam.depths()
    return {"network": network, "parameters": text, "n": int(graph.n), "links": int(graph.m), "k": len(fam),
            "max_depth": max(depths), "total_depth": sum(depths), "start": fam[0].meta["start"], "seed": seed,
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
                    seed: int = 0) -> EDSTSet | None:
    """The committed shallow family of a row, or ``None`` when the record lacks it or was made otherwise.

    A row is used only when its settings (seed and the exact packer's budgets) are the caller's and its network has
    the caller's size; its JSON must have the recorded SHA-256 and hold the caller's network (same vertex labels and
    links). The family is returned with each tree's ``meta["start"]`` as recorded; the caller verifies it.

    Raises
    ------
    ValueError
        If the file's digest differs from the record, or it holds another network.
    """
    row = record.get((network, format_params(dict(params))))
    if row is None or (int(row["seed"]), float(row["generic_max_seconds"]), float(row["exact_max_seconds"]),
                       int(row["n"]), int(row["links"])) != (seed, float(generic_max_seconds),
                                                             float(exact_max_seconds), int(graph.n), int(graph.m)):
        return None
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
