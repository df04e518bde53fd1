"""Per-tree routing as a file: each vertex's parent, children and depth, and next hops towards and away from the root.

A router that forwards along edge-disjoint spanning trees needs, per tree, where to send a packet that goes towards
the root (its parent) and where to send one bound for a given destination (the child whose subtree holds the
destination, else the parent). :func:`routes` writes both as one JSON document (docs/formats.md §6.9):

* ``vertices``: the names of the vertices (their labels, or a file network's node ids), once; every other array
  indexes into it;
* per tree: ``root``, ``parent`` (``-1`` at the root), ``depth``, ``children`` (sorted), and the preorder
  intervals ``pre`` and ``end`` of a depth-first walk that visits children in increasing index: vertex ``d`` lies
  in the subtree of ``v`` exactly when ``pre[v] <= pre[d] < end[v]``. The next hop from ``v`` towards ``d != v``
  is then the child ``c`` of ``v`` with ``pre[c] <= pre[d] < end[c]`` if ``d`` is in the subtree of ``v``, and
  ``parent[v]`` otherwise (:func:`next_hop`); with ``table=1`` the file also holds the full ``n x n`` next-hop
  table of every tree (``next_hop[v][d]``, ``-1`` on the diagonal).

:func:`read_routes` reads the document back and checks every field against the others.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst.trees import Tree
>>> g = ArrayGraph.from_edges("abcd", np.array([[0, 1], [1, 2], [1, 3], [0, 2]]))
>>> doc = read_routes(routes(g, [Tree(np.array([[0, 1], [1, 2], [1, 3]]), 0)]))
>>> doc["vertices"], doc["trees"][0]["parent"].tolist(), doc["trees"][0]["children"][1]
(['a', 'b', 'c', 'd'], [-1, 0, 1, 1], [2, 3])
>>> next_hop(doc["trees"][0], 2, 3), next_hop(doc["trees"][0], 0, 3), next_hop(doc["trees"][0], 3, 0)
(1, 1, 1)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import orjson

from ..edst.trees import EDSTSet, Tree, orient
from ..graphs import ArrayGraph, jsonable
from ..memory import Size, check_size, format_bytes
from ..validation import check_flag

__all__ = ["ROUTES_FORMAT", "ROUTES_VERSION", "tree_routes", "routes", "read_routes", "next_hop", "next_hop_table",
           "routes_size"]

#: The ``format`` key of a routes document, and its version.
ROUTES_FORMAT = "starlib-routes"
ROUTES_VERSION = 1


def tree_routes(n: int, tree: Tree) -> dict[str, Any]:
    """One tree's routing fields: ``root``, ``parent``, ``depth``, ``children``, ``pre``, ``end`` (index arrays).

    Parameters
    ----------
    n : int
        Number of vertices of the host graph.
    tree : Tree
        A spanning tree of the ``n`` vertices.

    Returns
    -------
    dict
        ``parent``, ``depth``, ``pre``, ``end`` as ``(n,)`` int64 arrays; ``children`` a list of sorted lists.

    Raises
    ------
    ValueError
        If the tree does not span the ``n`` vertices.

    Example
    -------
    >>> r = tree_routes(4, Tree(np.array([[0, 1], [1, 2], [1, 3]]), 1))
    >>> r["parent"].tolist(), r["depth"].tolist(), r["pre"].tolist(), r["end"].tolist()
    ([1, -1, 1, 1], [1, 0, 1, 1], [1, 0, 2, 3], [2, 4, 3, 4])
    """
    if tree.n != n:
        raise ValueError(f"trees: every tree must be on the graph's n={n} vertices, got one on {tree.n}")
    o = orient(n, tree.rows, tree.root)
    parent, depth = o.parent.astype(np.int64), o.depth.astype(np.int64)
    height = int(depth.max()) if n else 0
    size = np.ones(n, dtype=np.int64)
    for d in range(height, 0, -1):  # subtree sizes, one level at a time from the leaves
        level = np.flatnonzero(depth == d)
        np.add.at(size, parent[level], size[level])
    kids = np.flatnonzero(parent >= 0)
    kids = kids[np.lexsort((kids, parent[kids]))]  # grouped by parent, increasing index within
    # offset of each child among its siblings: sizes of the earlier siblings (exclusive cumulative sum per group)
    csum = np.cumsum(size[kids]) - size[kids]
    first = np.r_[True, parent[kids][1:] != parent[kids][:-1]] if kids.size else np.zeros(0, dtype=bool)
    group_start = np.maximum.accumulate(np.where(first, np.arange(kids.size), 0)) if kids.size else kids
    offset = csum - csum[group_start] if kids.size else csum
    pre = np.zeros(n, dtype=np.int64)
    off = np.zeros(n, dtype=np.int64)
    off[kids] = offset
    for d in range(1, height + 1):  # preorder index: the parent's, plus one, plus the earlier siblings' sizes
        level = np.flatnonzero(depth == d)
        pre[level] = pre[parent[level]] + 1 + off[level]
    bounds = np.searchsorted(parent[kids], np.arange(n + 1)) if kids.size else np.zeros(n + 1, dtype=np.int64)
    children = [kids[bounds[v]:bounds[v + 1]].tolist() for v in range(n)]
    return {"root": int(tree.root), "parent": parent, "depth": depth, "children": children, "pre": pre,
            "end": pre + size}


def next_hop_table(route: Mapping[str, Any]) -> np.ndarray:
    """The ``(n, n)`` next-hop table of one tree: entry ``[v, d]`` is the next vertex from ``v`` towards ``d``.

    ``-1`` on the diagonal. Computed from the preorder intervals of :func:`tree_routes` (or of a tree read by
    :func:`read_routes`): a row at a time, the child is found by binary search among ``v``'s children by ``pre``.

    Example
    -------
    >>> next_hop_table(tree_routes(4, Tree(np.array([[0, 1], [1, 2], [1, 3]]), 0))).tolist()
    [[-1, 1, 1, 1], [0, -1, 2, 3], [1, 1, -1, 1], [1, 1, 1, -1]]
    """
    parent, pre, end = (np.asarray(route[k], dtype=np.int64) for k in ("parent", "pre", "end"))
    n = parent.shape[0]
    table = np.empty((n, n), dtype=np.int64)
    for v in range(n):
        row = np.full(n, parent[v], dtype=np.int64)
        kids = np.asarray(route["children"][v], dtype=np.int64)
        inside = (pre > pre[v]) & (pre < end[v])
        if kids.size:
            kp = pre[kids]
            order = np.argsort(kp)
            pos = np.searchsorted(kp[order], pre[inside], side="right") - 1
            row[inside] = kids[order][pos]
        row[v] = -1
        table[v] = row
    return table


def next_hop(route: Mapping[str, Any], v: int, d: int) -> int:
    """The next vertex from ``v`` towards ``d`` in one tree (``-1`` if ``v == d``): the rule of docs/formats.md §6.9.

    Example
    -------
    >>> r = tree_routes(3, Tree(np.array([[0, 1], [1, 2]]), 0))
    >>> next_hop(r, 0, 2), next_hop(r, 2, 0), next_hop(r, 1, 1)
    (1, 1, -1)
    """
    pre, end, parent = route["pre"], route["end"], route["parent"]
    if v == d:
        return -1
    if pre[v] < pre[d] < end[v]:
        for c in route["children"][v]:
            if pre[c] <= pre[d] < end[c]:
                return int(c)
    return int(parent[v])


#: Bytes per vertex of one tree's fields without the table (parent, depth, pre, end, children, each index written
#: in decimal with its separator, and the arrays numpy and Python hold while it is encoded), an upper bound.
_TREE_VERTEX_BYTES = 160


def routes_size(n: int, k: int, table: int | bool = 0) -> Size:
    """The size of :func:`routes` on ``k`` trees of ``n`` vertices, from ``n`` and ``k`` alone, before any work.

    The file is ``k`` trees of ``n`` vertices; with ``table=1`` each tree adds its ``n x n`` next-hop table, every
    entry written in decimal with its comma (at most ``digits(n - 1) + 1`` bytes), so the file grows like
    ``k n^2``. At its peak :func:`routes` holds every tree's encoded text, the document joined from them, one
    tree's table as int64 (``8 n^2`` bytes) with its row work arrays and orjson's buffer for that tree (up to
    twice its text); the caller then writes the document. ``peak_bytes`` is their sum with a tenth to spare: the
    measured peak was 0.83 to 0.97 of the sum without it (Slim Fly q = 13 to 29, table=1; the peak of a child
    process is checked against it in ``tests/io/test_routes_memory.py``).

    Parameters
    ----------
    n : int
        Vertices.
    k : int
        Trees.
    table : int or bool
        Whether the next-hop tables are written.

    Returns
    -------
    Size
        ``n`` vertices, ``m`` the bytes of the file (an upper bound), ``peak_bytes`` the memory at the peak.

    Examples
    --------
    >>> s = routes_size(1000, 10, table=1)
    >>> s.m                                          # 10 tables of 1000 x 1000 entries of at most 4 bytes
    40354200
    >>> s.peak_bytes > 2 * s.m
    True
    """
    n, k = int(n), int(k)
    digits = len(str(max(n - 1, 1)))
    per_tree = n * (6 * (digits + 2)) + 200
    work = _TREE_VERTEX_BYTES * n
    if check_flag(table, "table"):
        per_tree += n * (n * (digits + 1) + 2)
        work += 8 * n * n + 64 * n
    file_bytes = k * per_tree + n * 32 + 200
    peak = 2 * file_bytes + 2 * per_tree + work  # + orjson's buffer for one tree, which grows by doubling
    return Size(n, file_bytes, peak + peak // 10, f"vertices, {k:,} trees and a file of about "
                f"{format_bytes(file_bytes)},")


def routes(graph: ArrayGraph, trees: Sequence[Tree], *, table: int | bool = 0, names: Sequence[Hashable] | None = None,
           network: str | None = None, params: Mapping[str, Any] | None = None) -> bytes:
    """The per-tree routing of ``trees`` as a JSON document (docs/formats.md §6.9), one tree per line.

    Parameters
    ----------
    graph : ArrayGraph
        The host graph (its labels name the vertices).
    trees : sequence of Tree
        Spanning trees of ``graph`` (edge-disjoint or not: each is written on its own).
    table : int or bool
        1 to add each tree's full ``n x n`` next-hop table (``next_hop``); 0 (default) for the preorder
        intervals only, from which :func:`next_hop` answers in time proportional to the degree.
    names : sequence, optional
        The vertices' names (default: the graph's labels); the command line passes a file network's node ids.
    network, params : optional
        Recorded (default ``graph.name``, ``graph.params``).

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        If a tree does not span the graph's vertices, ``table`` is not a flag or ``names`` has the wrong length,
        or the document's estimated peak memory (:func:`routes_size`: ``k n^2`` entries with ``table=1``) exceeds
        the memory limit (:func:`starlib.memory.limit_memory`, the command line's ``--max-memory``), refused
        before any table is made.

    Example
    -------
    >>> g = ArrayGraph.from_edges("abc", np.array([[0, 1], [1, 2]]), name="P3")
    >>> print(routes(g, [Tree(np.array([[0, 1], [1, 2]]), 1)]).decode(), end="")
    {"format":"starlib-routes","version":1,"network":"P3","params":{},"vertices":["a","b","c"],"trees":[
    {"tree":0,"root":1,"parent":[1,-1,1],"depth":[1,0,1],"children":[[],[0,2],[]],"pre":[1,0,2],"end":[2,3,3]}
    ]}
    """
    full = check_flag(table, "table")
    if trees is None or isinstance(trees, str | bytes) or not all(isinstance(t, Tree) for t in trees):
        raise ValueError(f"trees={trees!r:.60} is not a sequence of Tree")
    n = int(graph.n)
    labels = list(graph.labels) if names is None else list(names)
    if len(labels) != n:
        raise ValueError(f"names: {len(labels)} names for the graph's n={n} vertices")
    trees = EDSTSet.of(trees)
    check_size(routes_size(n, len(trees), full), {"table": int(full), "n": n, "trees": len(trees)}, "routes")
    head = {"format": ROUTES_FORMAT, "version": ROUTES_VERSION, "network": graph.name if network is None else network,
            "params": jsonable(dict(graph.params if params is None else params)),
            "vertices": [jsonable(v) for v in labels]}
    parts = [orjson.dumps(head)[:-1] + b',"trees":[\n']
    for i, t in enumerate(trees):
        r = tree_routes(n, t)
        obj: dict[str, Any] = {"tree": i, "root": r["root"], "parent": r["parent"], "depth": r["depth"],
                               "children": r["children"], "pre": r["pre"], "end": r["end"]}
        if full:
            obj["next_hop"] = next_hop_table(r)
        parts += [b",\n"] * (i > 0) + [orjson.dumps(obj, option=orjson.OPT_SERIALIZE_NUMPY)]
        del obj, r  # the table goes before the next one is made
    parts.append(b"\n]}\n" if len(parts) > 1 else b"]}\n")
    return b"".join(parts)  # one copy of the trees' text, not one per concatenation


def read_routes(data: bytes | str) -> dict[str, Any]:
    """Read a routes document (:func:`routes`) and check it: the arrays as numpy, every field against the others.

    Returns
    -------
    dict
        ``network``, ``params``, ``vertices`` and ``trees``: per tree ``root``, ``parent``, ``depth``, ``pre``,
        ``end`` (int64 arrays), ``children`` (lists) and, if written, ``next_hop`` (an ``(n, n)`` array).

    Raises
    ------
    ValueError
        If the document is not a routes document of this version, or a tree's fields disagree: a parent array
        that is not a tree rooted at ``root``, depths that are not the parent's plus one, children that are not
        the vertices whose parent is that vertex, preorder intervals or a next-hop table that are not the ones
        of that tree.

    Example
    -------
    >>> read_routes(b'{"format":"starlib-routes","version":1,"vertices":[0],"trees":[]}')["trees"]
    []
    """
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"routes: not JSON ({e})") from None
    if not isinstance(doc, dict) or doc.get("format") != ROUTES_FORMAT or doc.get("version") != ROUTES_VERSION:
        raise ValueError(f"routes: not a {ROUTES_FORMAT} document of version {ROUTES_VERSION}")
    vertices = doc.get("vertices")
    if not isinstance(vertices, list) or not isinstance(doc.get("trees"), list):
        raise ValueError("routes: 'vertices' and 'trees' must be lists")
    n = len(vertices)
    out = []
    for i, t in enumerate(doc["trees"]):
        where = f"routes: tree {i}"
        try:
            parent = np.asarray(t["parent"], dtype=np.int64).reshape(n)
            root = int(t["root"])
            rebuilt = Tree(np.column_stack([np.flatnonzero(parent >= 0), parent[parent >= 0]]), root, n=n)
            expect = tree_routes(n, rebuilt)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{where}: its parent array is not a spanning tree rooted at 'root' ({e})") from None
        got = {"root": root, "parent": parent}
        for key in ("depth", "pre", "end"):
            got[key] = np.asarray(t.get(key), dtype=np.int64)
            if got[key].shape != (n,) or not np.array_equal(got[key], expect[key]):
                raise ValueError(f"{where}: '{key}' is not the one of its parent array")
        if not np.array_equal(parent, expect["parent"]) or parent[root] != -1:
            raise ValueError(f"{where}: 'parent' is not a tree rooted at {root}")
        if t.get("children") != expect["children"]:
            raise ValueError(f"{where}: 'children' are not the vertices whose parent each vertex is")
        got["children"] = expect["children"]
        if "next_hop" in t:
            got["next_hop"] = np.asarray(t["next_hop"], dtype=np.int64)
            if not np.array_equal(got["next_hop"], next_hop_table(expect)):
                raise ValueError(f"{where}: 'next_hop' is not the next-hop table of its tree")
        out.append(got)
    return {"network": doc.get("network"), "params": doc.get("params"), "vertices": vertices, "trees": out}
