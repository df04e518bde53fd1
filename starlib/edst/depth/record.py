"""Committed families of the depth floor: reading a record of parent arrays (starlib's JSON format, version 2).

The depth-3 families of ER_q (:mod:`.er3`) and of Slim Fly (:mod:`.slimfly3`) are package data written by the
tools of ``make er-depth3`` and ``make slimfly-depth3`` with :func:`starlib.io.write_json`. This floor sits below
:mod:`starlib.io`, so it reads the two keys it needs here: the network's name and parameters, ``n``, and each
tree's ``root`` and ``parent`` array (``-1`` at the root). The caller checks the trees as a family
(:func:`~starlib.edst.verify.check_edsts`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import orjson

from ..trees import EDSTSet, Tree

__all__ = ["read_parent_record"]


def read_parent_record(path: Path, network: str, params: dict[str, Any], n: int, tag: str) -> EDSTSet:
    """The trees of a record, checked for shape: it must be a family on ``network(**params)`` with ``n`` vertices.

    Parameters
    ----------
    path : Path
        The JSON file.
    network, params : str, dict
        The network it must be on (the record's ``network`` and ``params`` keys).
    n : int
        Its number of vertices.
    tag : str
        The construction tag of a tree that names none.

    Returns
    -------
    EDSTSet
        One tree per entry of the record's ``trees``, rooted at its ``root``.

    Raises
    ------
    ValueError
        If the record is on another network, or a tree is not a parent array on ``n`` vertices.

    Example
    -------
    >>> from starlib.edst.depth.er3 import record_path
    >>> T = read_parent_record(record_path(3), "polarfly", {"q": 3}, 13, "ER-depth3")
    >>> len(T), T.depths()
    (2, [3, 3])
    """
    data = orjson.loads(Path(path).read_bytes())
    if data.get("network") != network or data.get("params") != params or data.get("n") != n:
        raise ValueError(f"record {path} is not a family on {network}({params}) with n={n}")
    out = []
    for t in data.get("trees") or []:
        parent = np.asarray(t["parent"], dtype=np.int64)
        root = int(t["root"])
        if parent.shape != (n,) or not 0 <= root < n or parent[root] != -1:
            raise ValueError(f"record {path} has a tree that is not a parent array on {n} vertices")
        child = np.flatnonzero(parent >= 0)
        edges = np.stack([parent[child], child], axis=1)
        out.append(Tree(edges, root, construction=str(t.get("construction", tag)), n=n))
    return EDSTSet(out)
