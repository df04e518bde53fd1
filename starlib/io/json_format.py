"""starlib's JSON files: a graph and, optionally, its spanning trees (version 2 written, versions 1 and 2 read).

Version 2 (docs/formats.md §4 gives the exact layout and a worked example) names itself and writes every vertex
label once; everything else is an integer index into ``nodes``::

    {"format": "starlib", "version": 2, "network": "slimfly", "params": {"q": 3}, "directed": false,
     "n": 18, "m": 45, ...extra keys such as "upper_bound" and "method"...,
     "nodes": [label, ...],                      # n labels, all distinct
     "adjacency": [[v, ...], ...],               # n lists: the neighbours v > u of vertex u, increasing
     "trees": [{"root": r, "parent": [p_0, ..., p_{n-1}], "depth": d, "construction": "V-C.4"}, ...]}

Each edge is one number (in the list of its smaller end) and each tree one parent array (``-1`` at the root),
so the 28 trees of Bundlefly ``MMS(29) * QR(29)`` (48,778 vertices, 1,390,173 edges) take 17 MB instead of
version 1's 83 MB. Encoding and decoding go through numpy and orjson, without a Python loop per edge.

Version 1 (what the command line wrote before) had no ``format`` key and gave every edge as a pair of labels;
:func:`decode` still reads it. :func:`encode_v1` writes it, for tools that only read version 1.

The reader checks every structural rule and reports the first broken one as a ``ValueError`` naming where it
is (``adjacency[5][2]=7.0 is a float, not an integer index``): types (no bool or float where an integer
stands), ranges, lengths, order, distinct labels, nesting depth of labels (at most :data:`MAX_LABEL_DEPTH`).
Whether the trees are spanning, acyclic and disjoint is the verifier's question
(:func:`starlib.edst.verify_edsts`), not the reader's.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst.trees import EDSTSet, Tree
>>> g = ArrayGraph.from_edges(["a", "b", "c"], np.array([[0, 1], [0, 2], [1, 2]]), name="triangle")
>>> data = encode(g, EDSTSet([Tree(np.array([[0, 1], [1, 2]]), 1, "path")]))
>>> data
b'{"format":"starlib","version":2,"network":"triangle","params":{},"directed":false,"n":3,"m":3,"nodes":["a","b","c"],"adjacency":[[1,2],[2],[]],"trees":[{"root":1,"parent":[1,-1,1],"depth":1,"construction":"path"}]}\\n'
>>> f = decode(data)
>>> f.graph.labels, f.graph.edges.tolist(), f.trees[0].edges.tolist(), f.trees[0].root
(['a', 'b', 'c'], [[0, 1], [0, 2], [1, 2]], [[0, 1], [1, 2]], 1)
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import math
import os
import re
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from ..edst.trees import EDSTSet, Tree
from ..graphs import ArrayGraph, integer_labels_json, jsonable
from ..validation import printable
from .atomic import atomic_write, check_target

__all__ = ["FORMAT", "VERSION", "MAX_LABEL_DEPTH", "INPUT", "NetworkFile", "decode_labels", "writable_labels",
           "label_text", "writable_edges", "encode", "encode_v1", "decode", "strict_loads", "write_json"]

#: The value of the ``"format"`` key.
FORMAT = "starlib"
#: The version :func:`encode` writes (:func:`decode` reads 1 and 2).
VERSION = 2
#: Deepest nesting of lists in a vertex label (``[[0, 0, 1], 3]`` has depth 2).
MAX_LABEL_DEPTH = 32
#: The key of ``ArrayGraph.meta`` that marks a network read from a file (:mod:`starlib.io.readers`): the file's name.
#: The writers then name its vertices by the file's node ids where a format has ids
#: (:func:`starlib.io.exports.node_ids`).
INPUT = "input"
#: The keys version 2 defines (``extra`` may not use them).
RESERVED_KEYS = ("format", "version", "network", "params", "directed", "n", "m", "nodes", "adjacency", "trees")

_NUMPY = orjson.OPT_SERIALIZE_NUMPY


@dataclass
class NetworkFile:
    """What a starlib JSON file holds, as starlib objects.

    Attributes
    ----------
    graph : ArrayGraph
        The graph: ``labels`` from ``nodes`` (JSON lists become tuples), canonical ``edges``.
    trees : EDSTSet or None
        The trees (``None`` when the file has no ``"trees"`` key, as ``build`` writes), each with its root and
        construction tag.
    network, params : str, dict
        The family name and parameters the file names.
    version : int or None
        The file's format version (1 or 2); None for a file of another format (:mod:`starlib.io.readers`).
    extra : dict
        Every other top-level key (the command line writes ``upper_bound`` and ``method``; a network read from
        another format records ``input`` and ``input_format``).
    format : str
        The input format it was read as (a key of :data:`starlib.io.readers.INPUT_FORMATS`).
    """

    graph: ArrayGraph
    trees: EDSTSet | None
    network: str = ""
    params: dict = field(default_factory=dict)
    version: int | None = VERSION
    extra: dict = field(default_factory=dict)
    format: str = "json"


@contextlib.contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while millions of lists and tuples are made (it would walk them all
    several times: decoding Bundlefly MMS(29) * QR(29) takes twice as long with it); reference counting goes on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Bad(ValueError):
    """A structural rule broken at ``where`` (the caller adds the source)."""


class _Big(int):
    """An integer literal beyond 64 bits, as the strict parser keeps it (always refused, naming its place)."""

    text: str


class _Huge(float):
    """A number literal beyond a 64-bit float's range (``1e400``), which Python would read as infinity (refused)."""

    text: str


#: The rule every integer of a file keeps (indices, counts, depths, parameters, ``upper_bound``, ...).
INT_RULE = "an integer of at most 64 bits (-2**63 .. 2**63-1)"
#: The rule every other number keeps.
FLOAT_RULE = "a finite number within a 64-bit float's range (about 1.8e308)"


def _kind(v: Any) -> str:
    """A JSON value's kind in words (``bool``, not ``int``, for true/false)."""
    if type(v) is _Big:
        return f"an integer beyond 64 bits; need {INT_RULE}"
    if type(v) is _Huge:
        return f"a number beyond a 64-bit float; need {FLOAT_RULE}"
    return {bool: "a bool", int: "an integer", float: "a float", str: "a string", list: "a list", dict: "an object",
            type(None): "null"}.get(type(v), type(v).__name__)


def _show(v: Any) -> str:
    """A value as short JSON text for a message, every non-printable character escaped (:func:`printable`)."""
    if type(v) in (_Big, _Huge):
        return printable(v.text, 40)
    try:
        text = orjson.dumps(v, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS, default=str).decode()
    except TypeError:  # nested too deep for orjson's writer, or an integer beyond 64 bits inside
        text = "[[[..." if isinstance(v, list) else repr(v)
    return printable(text, 60)


# -- labels ------------------------------------------------------------------------------------------------------------

def _label(v: Any, where: str, depth: int = 0) -> Hashable:
    """A JSON label as starlib's label: lists become tuples; only integers, strings and lists are labels."""
    t = type(v)
    if t is str:
        return v
    if t is int:
        if not -(1 << 63) <= v < (1 << 63):
            raise _Bad(f"{where}: {_show(v)} is an integer beyond 64 bits; a label's integers are each {INT_RULE}")
        return v
    if t is list:
        if depth >= MAX_LABEL_DEPTH:
            raise _Bad(f"{where}: a label nested deeper than {MAX_LABEL_DEPTH} lists")
        return tuple([_label(x, where, depth + 1) for x in v])
    raise _Bad(f"{where}: {_show(v)} is {_kind(v)}; a label is an integer, a string or a list of labels")


#: Every digit to ``0`` and ``E`` to ``e``: a run of digits or an exponent is then found by a plain byte search,
#: about nine times faster than a regular expression over the 17 MB of a large trees file.
_DIGITS_TO_ZERO = bytes.maketrans(b"0123456789E", b"0000000000e")


def _long_digits(data: bytes, exponents: bool = False) -> bool:
    """Whether ``data`` has a run of 19 digits (an integer that may not fit in 64 bits), or with ``exponents`` an
    exponent of 3 digits (a float that may overflow): the regular expression ``[0-9]{19}|[eE][+-]?[0-9]{3}``.

    >>> _long_digits(b"[1234567890123456789]"), _long_digits(b"[123456789012345678]")
    (True, False)
    >>> _long_digits(b"[1e-308]", exponents=True), _long_digits(b"[1e-30]", exponents=True)
    (True, False)
    """
    m = data.translate(_DIGITS_TO_ZERO)
    return b"0" * 19 in m or (exponents and (b"e000" in m or b"e+000" in m or b"e-000" in m))


def _int_lists_depth(nodes: list) -> int:
    """The nesting depth of the labels if every label is an integer or nested lists of integers, else -1.

    Read from the JSON text (:func:`~starlib.graphs.integer_labels_json`): the depth is the deepest bracket level
    less the outer list's; a label that may be beyond 64 bits (19 digits) goes to the slow path, which names it.
    """
    dumped = integer_labels_json(nodes)
    if dumped is None or _long_digits(dumped[0]):
        return -1
    return int(dumped[1].max()) - 1


def _labels(nodes: Any) -> list[Hashable]:
    """The ``nodes`` list as distinct labels."""
    if type(nodes) is not list:
        raise _Bad(f"nodes is {_kind(nodes)}, not a list of labels")
    depth = _int_lists_depth(nodes)
    if depth == 0:  # integer labels
        labels: list[Hashable] = list(nodes)
    elif depth == 1:  # lists of integers: (q1, q2, q3)
        labels = [v if type(v) is int else tuple(v) for v in nodes]
    elif depth == 2:  # lists of integers and lists of integers: ((s1, s2, s3), h), the product labels
        labels = [v if type(v) is int else tuple([x if type(x) is int else tuple(x) for x in v]) for v in nodes]
    else:  # strings, deeper nesting, or something that is not a label: checked leaf by leaf
        labels = [_label(v, f"nodes[{i}]") for i, v in enumerate(nodes)]
    if len(set(labels)) != len(labels):
        first: dict[Hashable, int] = {}
        for i, v in enumerate(labels):
            if v in first:
                raise _Bad(f"nodes[{first[v]}] and nodes[{i}] are the same label {_show(nodes[i])}; labels must "
                           f"be distinct")
            first[v] = i
    return labels


def decode_labels(values: Any, where: str = "nodes") -> list[Hashable]:
    """A JSON list of vertex labels (parsed) as starlib's labels, by the rules of ``nodes`` (§4.1 of docs/formats.md).

    Integers, strings and lists of labels (as tuples), nested at most :data:`MAX_LABEL_DEPTH` deep, all distinct.

    Parameters
    ----------
    values : list
        The parsed JSON values.
    where : str
        What to call the list in a message.

    Returns
    -------
    list
        The labels (JSON lists as tuples).

    Raises
    ------
    ValueError
        ``"{where}: ..."`` naming the first label that breaks a rule.

    Examples
    --------
    >>> decode_labels([[0, 1], "b", 7])
    [(0, 1), 'b', 7]
    >>> decode_labels([1, 2, 1])
    Traceback (most recent call last):
    ...
    ValueError: nodes: nodes[0] and nodes[2] are the same label 1; labels must be distinct
    """
    try:
        with _no_gc():
            return _labels(values)
    except _Bad as exc:
        raise ValueError(f"{where}: {exc}") from None


def writable_labels(graph: ArrayGraph) -> tuple[bytes, list[Hashable]]:
    """The graph's labels as the JSON list ``nodes``, and as the reader will see them.

    The labels are checked by the reader's rules (:func:`decode`), so that no writer (this module's, or an export of
    :mod:`starlib.io.exports`) writes a file the reader refuses.

    Parameters
    ----------
    graph : ArrayGraph
        The graph whose labels are to be written: integers, strings or lists of labels (numpy scalars and arrays
        are written as numbers and lists).

    Returns
    -------
    nodes : bytes
        The JSON text of the list of labels.
    labels : list
        The labels as the reader returns them (JSON lists as tuples).

    Raises
    ------
    ValueError
        If a label is not an integer, a string or a list of labels, is nested too deep, or two labels are equal.

    Example
    -------
    >>> writable_labels(ArrayGraph([(0, 1), "b"], np.zeros((0, 2), dtype=np.int64)))
    (b'[[0,1],"b"]', [(0, 1), 'b'])
    """
    labels = list(graph.labels)
    try:
        data = orjson.dumps(labels)
    except TypeError:  # numpy scalars or arrays inside labels
        data = orjson.dumps(jsonable(labels))
    try:
        with _no_gc():
            return data, _labels(orjson.loads(data))
    except _Bad as exc:
        raise ValueError(f"graph.labels: {exc}") from None


def label_text(label: Hashable) -> str:
    """A vertex's name as text, for a format whose names are text (MSCCL's rank map, GML labels, messages).

    A string is itself (a network file's node id, ``g0r0``, not ``"g0r0"``); any other label is its JSON text
    (``5``, ``[0,1]``), as :func:`writable_labels` writes it.

    Examples
    --------
    >>> label_text("g0r0"), label_text(5), label_text((0, (1, 2)))
    ('g0r0', '5', '[0,[1,2]]')
    """
    if isinstance(label, str):
        return label
    return orjson.dumps(jsonable(label)).decode()


# -- writing -----------------------------------------------------------------------------------------------------------

def writable_edges(graph: ArrayGraph) -> tuple[int, np.ndarray, bool]:
    """``(n, edges, directed)`` of the graph, with the edge rows checked canonical, as every writer needs them.

    Canonical is what :meth:`ArrayGraph.from_edges` makes: indices in ``0..n-1``, rows sorted, no repeat, ``u < v``
    (no loop for a digraph).

    Parameters
    ----------
    graph : ArrayGraph
        The graph whose edges are to be written.

    Returns
    -------
    tuple of (int, numpy.ndarray, bool)
        The number of vertices, the ``(m, 2)`` int64 edge rows, and whether the rows are arcs.

    Raises
    ------
    ValueError
        If the rows are not canonical.

    Example
    -------
    >>> n, e, directed = writable_edges(ArrayGraph.from_edges("abc", np.array([[2, 1], [0, 1]])))
    >>> n, e.tolist(), directed
    (3, [[0, 1], [1, 2]], False)
    """
    n = len(graph.labels)
    e = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    directed = bool(getattr(graph, "directed", False))
    if e.size:
        keys = e[:, 0] * np.int64(n) + e[:, 1]
        bad = (e.min() < 0 or e.max() >= n or bool((keys[1:] <= keys[:-1]).any())
               or bool((e[:, 0] == e[:, 1]).any() if directed else (e[:, 0] >= e[:, 1]).any()))
        if bad:
            raise ValueError("graph.edges: the rows are not canonical (indices in 0..n-1, sorted, no repeat, "
                             f"{'no loop' if directed else 'u < v'}); build the graph with ArrayGraph.from_edges")
    return n, e, directed


def _adjacency(n: int, e: np.ndarray) -> list[np.ndarray]:
    """``adjacency[u]`` = the heads of the rows starting at ``u`` (the rows are sorted)."""
    starts = np.searchsorted(e[:, 0], np.arange(n + 1))
    return np.split(np.ascontiguousarray(e[:, 1]), starts[1:-1]) if n else []


def _header(graph: ArrayGraph, network: str | None, params: dict | None, extra: dict | None) -> dict[str, Any]:
    head = {"network": graph.name if network is None else network,
            "params": jsonable(dict(graph.params if params is None else params))}
    if not isinstance(head["network"], str):
        raise ValueError(f"network={head['network']!r} is not a string")
    for k in extra or {}:
        if k in RESERVED_KEYS:
            raise ValueError(f"extra: the key {k!r} is one of the format's own keys {RESERVED_KEYS}")
    return head


def encode(graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
           params: dict | None = None, extra: dict | None = None) -> bytes:
    """A graph and its spanning trees as a version-2 JSON file (bytes, one line, ending in a newline).

    Parameters
    ----------
    graph : ArrayGraph
        The graph (canonical edge rows, distinct labels that are integers, strings or nested lists of them).
    trees : sequence of Tree, optional
        Spanning trees of ``graph`` (each becomes a parent array, so each must span); omitted: no ``"trees"``
        key, as the command line's ``build`` writes.
    network, params : str, dict, optional
        The family name and parameters to record (default ``graph.name`` and ``graph.params``).
    extra : dict, optional
        More top-level keys (JSON values), written after ``m`` (the command line adds ``upper_bound``,
        ``method``).

    Returns
    -------
    bytes
        The file's content: deterministic (the same bytes for the same graph and trees).

    Raises
    ------
    ValueError
        If a label is not an integer, string or list, labels repeat, the edge rows are not canonical, a tree
        does not span (it has no parent array), the graph is directed and trees are given, or ``extra`` uses a
        reserved key.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> encode(ArrayGraph.from_edges([(0, 0), (0, 1)], np.array([[0, 1]])), extra={"note": "K2"})
    b'{"format":"starlib","version":2,"network":"","params":{},"directed":false,"n":2,"m":1,"note":"K2","nodes":[[0,0],[0,1]],"adjacency":[[1],[]]}\\n'
    """
    n, e, directed = writable_edges(graph)
    head = _header(graph, network, params, extra)
    nodes, _ = writable_labels(graph)
    obj: dict[str, Any] = {"format": FORMAT, "version": VERSION, **head, "directed": directed, "n": n,
                           "m": int(e.shape[0]), **jsonable(dict(extra or {})), "nodes": orjson.Fragment(nodes),
                           "adjacency": _adjacency(n, e)}
    if trees is not None:
        if directed:
            raise ValueError("trees: spanning trees of a directed graph are not written (edge-disjoint spanning "
                             "trees are undirected)")
        out = []
        for i, t in enumerate(trees):
            if not isinstance(t, Tree) or t.n != n:
                raise ValueError(f"trees[{i}]: need a Tree on the graph's n={n} vertices, got {t!r}")
            try:
                parent = t.parent_array()
            except ValueError as exc:
                raise ValueError(f"trees[{i}]: not a spanning tree, so it has no parent array ({exc})") from None
            out.append({"root": t.root, "parent": parent, "depth": int(t.depth), "construction": t.construction})
        obj["trees"] = out
    return orjson.dumps(obj, option=_NUMPY | orjson.OPT_APPEND_NEWLINE)


def encode_v1(graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
              params: dict | None = None, extra: dict | None = None) -> bytes:
    """A graph and its trees in version 1 (every edge as a pair of labels), for tools that read only version 1.

    The same content as the command line wrote before version 2 (``{"network", "params", "nodes", "edges",
    "trees", ...extra}``; the same bytes when every string is ASCII).

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> encode_v1(ArrayGraph.from_edges([(0, 0), (0, 1)], np.array([[0, 1]]), name="K2"))
    b'{"network":"K2","params":{},"nodes":[[0,0],[0,1]],"edges":[[[0,0],[0,1]]]}\\n'
    """
    n, e, _ = writable_edges(graph)
    head = _header(graph, network, params, extra)
    nodes, _ = writable_labels(graph)
    with _no_gc():
        lab = orjson.loads(nodes)
        obj: dict[str, Any] = {**head, "nodes": lab, "edges": [[lab[u], lab[v]] for u, v in e.tolist()]}
        if trees is not None:
            obj["trees"] = [{"root": lab[t.root], "edges": [[lab[u], lab[v]] for u, v in t.edges.tolist()],
                             "depth": int(t.depth), "construction": t.construction} for t in trees]
        obj.update(jsonable(dict(extra or {})))
        return orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)


def write_json(path: str | os.PathLike, graph: ArrayGraph, trees: Sequence[Tree] | None = None, *,
               version: int = VERSION, network: str | None = None, params: dict | None = None,
               extra: dict | None = None) -> Path:
    """Write :func:`encode` (or, with ``version=1``, :func:`encode_v1`) to ``path`` atomically.

    The target is checked before anything is encoded (:func:`starlib.io.atomic.check_target`); the file
    appears whole or not at all.

    Returns
    -------
    Path
        ``path``.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from starlib.graphs import ArrayGraph
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "k2.json"
    >>> decode(write_json(p, ArrayGraph.from_edges([0, 1], np.array([[0, 1]]))).read_bytes()).graph.edges.tolist()
    [[0, 1]]
    """
    if version not in (1, 2) or isinstance(version, bool):
        raise ValueError(f"version={version!r} is not one starlib writes (1 or 2)")
    check_target(path)
    data = (encode if version == 2 else encode_v1)(graph, trees, network=network, params=params, extra=extra)
    return atomic_write(path, data)


# -- reading -----------------------------------------------------------------------------------------------------------

def _not_int(v: Any, what: str = "an integer") -> str:
    """``is a float, not an integer``; for a number beyond 64 bits, the rule it breaks."""
    return f"is {_kind(v)}" + ("" if type(v) in (_Big, _Huge) else f", not {what}")


def _int(v: Any, where: str, lo: int, hi: int | None = None) -> int:
    if type(v) is not int:
        raise _Bad(f"{where}={_show(v)} {_not_int(v)}")
    if v < lo or (hi is not None and v > hi):
        raise _Bad(f"{where}={v} is out of range: need {lo} <= {where} <= {hi}" if hi is not None
                   else f"{where}={v} is out of range: need {where} >= {lo}")
    return v


def _int64(values: Any, where: Any, count: int) -> np.ndarray:
    """``np.fromiter`` of Python ints known to be ints; one beyond 64 bits (orjson reads up to 2**64-1) named."""
    try:
        return np.fromiter(values(), dtype=np.int64, count=count)
    except OverflowError:
        k, v = next((k, v) for k, v in enumerate(values()) if not -(1 << 63) <= v < (1 << 63))
        raise _Bad(f"{where(k)}={v} is an integer beyond 64 bits; need {INT_RULE}") from None


def _int_array(values: list, where: str, count: int) -> np.ndarray:
    """A JSON list of integers as int64 (bools, floats, strings and nested lists refused, with their place)."""
    if set(map(type, values)) - {int}:
        i = next(i for i, v in enumerate(values) if type(v) is not int)
        raise _Bad(f"{where}[{i}]={_show(values[i])} {_not_int(values[i], 'an integer index')}")
    return _int64(lambda: iter(values), lambda k: f"{where}[{k}]", count)


def _decode_v2(obj: dict) -> NetworkFile:
    if obj.get("format") != FORMAT:
        raise _Bad(f"format={_show(obj.get('format'))} is not {FORMAT!r}")
    version = obj.get("version")
    if type(version) is not int or version != VERSION:
        raise _Bad(f"version={_show(version)} is not one this starlib reads (1, or 2 with a \"format\" key)")
    for key in ("network", "params", "directed", "n", "m", "nodes", "adjacency"):
        if key not in obj:
            raise _Bad(f"the key {key!r} is missing")
    network, params, directed = obj["network"], obj["params"], obj["directed"]
    if type(network) is not str:
        raise _Bad(f"network={_show(network)} is {_kind(network)}, not a string")
    if type(params) is not dict:
        raise _Bad(f"params is {_kind(params)}, not an object")
    if type(directed) is not bool:
        raise _Bad(f"directed={_show(directed)} is {_kind(directed)}, not true or false")
    n, m = _int(obj["n"], "n", 0), _int(obj["m"], "m", 0)
    labels = _labels(obj["nodes"])
    if len(labels) != n:
        raise _Bad(f"nodes has {len(labels)} labels, n={n}")
    edges = _adjacency_edges(obj["adjacency"], n, m, directed)
    graph = ArrayGraph(labels, edges, name=network, params=params, directed=directed)
    trees = None
    if "trees" in obj:
        if directed:
            raise _Bad("trees are given for a directed graph")
        trees = _trees_v2(obj["trees"], n)
    extra = {k: v for k, v in obj.items() if k not in RESERVED_KEYS}
    return NetworkFile(graph, trees, network, params, VERSION, extra)


def _adjacency_edges(adj: Any, n: int, m: int, directed: bool) -> np.ndarray:
    """The ``adjacency`` lists as canonical edge rows, every rule checked."""
    if type(adj) is not list or len(adj) != n:
        raise _Bad(f"adjacency is {_kind(adj)}" + (f" of {len(adj)} lists" if type(adj) is list else "")
                   + f", need a list of n={n} lists")
    if set(map(type, adj)) - {list}:
        u = next(u for u, row in enumerate(adj) if type(row) is not list)
        raise _Bad(f"adjacency[{u}] is {_kind(adj[u])}, not a list of indices")
    lengths = np.fromiter(map(len, adj), dtype=np.int64, count=n)
    if int(lengths.sum()) != m:
        raise _Bad(f"adjacency lists {int(lengths.sum())} edges, m={m}")
    flat = itertools.chain.from_iterable(adj)
    if set(map(type, flat)) - {int}:
        u, k = next((u, k) for u, row in enumerate(adj) for k, v in enumerate(row) if type(v) is not int)
        raise _Bad(f"adjacency[{u}][{k}]={_show(adj[u][k])} {_not_int(adj[u][k], 'an integer index')}")
    offsets = np.concatenate([[0], np.cumsum(lengths)])

    def at(i: int) -> str:
        u = int(np.searchsorted(offsets, i, side="right")) - 1
        return f"adjacency[{u}][{i - int(offsets[u])}]"

    heads = _int64(lambda: itertools.chain.from_iterable(adj), at, m)
    tails = np.repeat(np.arange(n, dtype=np.int64), lengths)
    low = (heads < 0) | (heads == tails) if directed else heads <= tails
    bad = low | (heads >= n)
    order = np.zeros(m, dtype=bool)
    keys = tails * np.int64(n) + heads
    order[1:] = keys[1:] <= keys[:-1]
    if bad.any() or order.any():
        i = int(np.argmax(bad | order))
        u, k = int(tails[i]), i - int(np.searchsorted(tails, tails[i]))
        rule = ("in 0..n-1 and not u" if directed else "in u+1..n-1") if bad[i] else "increasing, no repeat"
        raise _Bad(f"adjacency[{u}][{k}]={int(heads[i])}: the entries of adjacency[u] must be {rule} "
                   f"(u={u}, n={n})")
    return np.stack([tails, heads], axis=1)


def _trees_v2(trees: Any, n: int) -> EDSTSet:
    if type(trees) is not list:
        raise _Bad(f"trees is {_kind(trees)}, not a list")
    out = EDSTSet()
    for i, t in enumerate(trees):
        where = f"trees[{i}]"
        if type(t) is not dict:
            raise _Bad(f"{where} is {_kind(t)}, not an object")
        for key in ("root", "parent"):
            if key not in t:
                raise _Bad(f"{where}: the key {key!r} is missing")
        root = _int(t["root"], f"{where}.root", 0, n - 1)
        if "depth" in t:
            _int(t["depth"], f"{where}.depth", -1)
        construction = t.get("construction", "")
        if type(construction) is not str:
            raise _Bad(f"{where}.construction is {_kind(construction)}, not a string")
        parent = t["parent"]
        if type(parent) is not list or len(parent) != n:
            raise _Bad(f"{where}.parent is {_kind(parent)}" + (f" of {len(parent)} entries" if type(parent) is list
                                                              else "") + f", need a list of n={n} indices")
        p = _int_array(parent, f"{where}.parent", n)
        v = np.arange(n, dtype=np.int64)
        bad = (p < -1) | (p >= n) | (p == v) | ((p == -1) != (v == root))
        if bad.any():
            j = int(np.argmax(bad))
            raise _Bad(f"{where}.parent[{j}]={int(p[j])}: need -1 at the root {root} and, at every other vertex, "
                       f"another vertex in 0..{n - 1}")
        keep = v != root
        out.append(Tree(np.stack([v[keep], p[keep]], axis=1), root, construction, n=n))
    return out


#: The keys of version 1; every other top-level key but those of :data:`V2_ONLY_KEYS` is kept in ``extra``.
V1_KEYS = ("network", "params", "nodes", "edges", "trees")
#: Keys that only version 2 defines: a file without ``"format"`` (read as version 1) may not hold them.
V2_ONLY_KEYS = ("directed", "n", "m", "adjacency")
#: Keys the command line writes beside the format's own, with the kind of value each must be (both versions).
TYPED_EXTRA = {"method": str, "input": str, "input_format": str, "upper_bound": int}
_PASS = orjson.OPT_PASSTHROUGH_SUBCLASS


def _decode_v1(obj: dict) -> NetworkFile:
    """Version 1: labels everywhere (edges as ``[label, label]`` pairs, roots as labels), checked as version 2 is.

    docs/formats.md §4.4 lists the rules key by key: the same types, ranges and distinctness as version 2, and no
    self-loop or link listed twice (in either direction), which version 2's adjacency lists cannot express.
    """
    for key in ("nodes", "edges"):
        if key not in obj:
            raise _Bad(f"the key {key!r} is missing (a version-1 file has nodes and edges)")
    for key in V2_ONLY_KEYS:
        if key in obj:
            raise _Bad(f"the key {key!r} belongs to version 2, but the file has no \"format\" key, so it is read as "
                       f"version 1; a version-2 file starts with \"format\": \"starlib\", \"version\": 2")
    network, params = obj.get("network", ""), obj.get("params", {})
    if type(network) is not str:
        raise _Bad(f"network={_show(network)} is {_kind(network)}, not a string")
    if type(params) is not dict:
        raise _Bad(f"params is {_kind(params)}, not an object")
    labels = _labels(obj["nodes"])
    n = len(labels)
    index = {orjson.dumps(v): i for i, v in enumerate(obj["nodes"])}  # JSON text -> index (the labels are checked)

    def pairs(value: Any, where: str) -> np.ndarray:
        if type(value) is not list:
            raise _Bad(f"{where} is {_kind(value)}, not a list of [u, v] pairs of node labels")
        if set(map(type, value)) - {list} or set(map(len, value)) - {2}:
            k = next(k for k, e in enumerate(value) if type(e) is not list or len(e) != 2)
            raise _Bad(f"{where}[{k}]={_show(value[k])} is not a pair [u, v] of node labels")
        try:
            # a number beyond 64 bits is never a node's key: orjson refuses it or writes what no label is
            return np.fromiter(map(index.__getitem__, map(orjson.dumps, itertools.chain.from_iterable(value))),
                               dtype=np.int64, count=2 * len(value)).reshape(-1, 2)
        except (KeyError, TypeError):  # a label that is no node (or cannot be one): find and name it
            for k, e in enumerate(value):
                for x in e:
                    try:
                        known = orjson.dumps(x, option=_PASS) in index
                    except TypeError:
                        known = False
                    if not known:
                        raise _Bad(f"{where}[{k}]: {_show(x)} is not one of the nodes") from None
            raise

    def no_loop(rows: np.ndarray, value: list, where: str) -> None:
        loops = np.flatnonzero(rows[:, 0] == rows[:, 1])
        if loops.size:
            k = int(loops[0])
            raise _Bad(f"{where}[{k}]={_show(value[k])} is a self-loop; a link joins two different nodes")

    rows = pairs(obj["edges"], "edges")
    no_loop(rows, obj["edges"], "edges")
    low, high = np.minimum(rows[:, 0], rows[:, 1]), np.maximum(rows[:, 0], rows[:, 1])
    keys = low * np.int64(max(n, 1)) + high
    order = np.argsort(keys, kind="stable")
    same = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if same.size:
        i, j = sorted((int(order[same[0]]), int(order[same[0] + 1])))
        raise _Bad(f"edges[{i}] and edges[{j}] are the same link {_show(obj['edges'][j])}; list each link once (in "
                   f"either direction): starlib reads simple graphs")
    graph = ArrayGraph.from_edges(labels, rows, name=network, params=params)
    obj["edges"] = None  # let the parsed pairs go before the trees are converted
    trees = None
    if "trees" in obj:
        if type(obj["trees"]) is not list:
            raise _Bad(f"trees is {_kind(obj['trees'])}, not a list")
        trees = EDSTSet()
        for i, t in enumerate(obj["trees"]):
            where = f"trees[{i}]"
            if type(t) is not dict:
                raise _Bad(f"{where} is {_kind(t)}, not an object")
            for key in ("root", "edges"):
                if key not in t:
                    raise _Bad(f"{where}: the key {key!r} is missing")
            try:
                root = index.get(orjson.dumps(t["root"], option=_PASS))
            except TypeError:
                root = None
            if root is None:
                raise _Bad(f"{where}.root={_show(t['root'])} is not one of the nodes")
            if "depth" in t:
                _int(t["depth"], f"{where}.depth", -1)
            construction = t.get("construction", "")
            if type(construction) is not str:
                raise _Bad(f"{where}.construction is {_kind(construction)}, not a string")
            tree_rows = pairs(t["edges"], f"{where}.edges")
            no_loop(tree_rows, t["edges"], f"{where}.edges")
            if len(tree_rows) != n - 1:
                raise _Bad(f"{where}.edges has {len(tree_rows)} pairs; a spanning tree of n={n} nodes has n-1="
                           f"{n - 1} (version 2's parent array has one per vertex but the root)")
            trees.append(Tree(tree_rows, root, construction, n=n))
            obj["trees"][i] = {k: v for k, v in t.items() if k != "edges"}  # the pairs go; the rest is checked below
    extra = {k: v for k, v in obj.items() if k not in V1_KEYS}
    return NetworkFile(graph, trees, network, params, 1, extra)


def _place(parent: Any, key: Any) -> str:
    """``trees[0].depth`` from the chain ``((None, "trees"), 0), "depth"`` the walk of :func:`_check_values` keeps."""
    parts: list[Any] = [key]
    while parent is not None:
        parent, k = parent
        parts.append(k)
    out = ""
    for k in reversed(parts):
        out += f"[{k}]" if type(k) is int else (f".{printable(k, 40)}" if out else printable(k, 40))
    return out


def _unicode(text: str, parent: Any, key: Any, what: str = "") -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _Bad(f"{_place(parent, key)}{' ' + what if what else ''}={_show(text)} holds the lone surrogate "
                   f"{text[exc.start]!r} (an escape \\ud800 to \\udfff without its pair); a JSON string is Unicode "
                   f"text") from None


def _check_values(obj: dict, arrays: tuple[str, ...], tree_arrays: tuple[str, ...], everything: bool,
                  typed: bool = True, surrogates: bool = False) -> int:
    """Check the values no other rule reads (``params``, the extra keys, the trees' other keys): every integer
    :data:`INT_RULE`, every other number :data:`FLOAT_RULE`, every string valid Unicode (no lone surrogate), the
    command line's own keys (:data:`TYPED_EXTRA`) of their kind; the number of object keys met.

    The big arrays (``arrays`` at the top, ``tree_arrays`` in each tree) were checked by their own rules and are
    skipped unless ``everything``; ``surrogates``: look for lone surrogates (the text has a ``\\ud800`` escape).
    """
    for key, kind in TYPED_EXTRA.items() if typed else ():
        if key in obj and type(obj[key]) not in (kind, _Big, _Huge) or (kind is int and type(obj.get(key)) is int
                                                                      and obj[key] < 0):
            rule = "a string" if kind is str else "an integer >= 0"
            raise _Bad(f"{key}={_show(obj[key])} is {_kind(obj[key])}; the command line writes {key} as {rule}")
    keys = len(obj)
    # depth first, one iterator per open container (no copy of a list of a million links); a place is a chain
    # (parent's place, key or index), made into a name only for a message
    top = [(k, v) for k, v in obj.items() if everything or (k not in arrays and k != "trees")]
    stack: list[tuple[Any, Iterator[tuple[Any, Any]]]] = [(None, iter(top))]
    trees = obj.get("trees")
    if not everything and type(trees) is list:
        for i, t in enumerate(trees):
            if type(t) is dict:
                keys += len(t)
                stack.append((((None, "trees"), i), iter([(k, v) for k, v in t.items() if k not in tree_arrays])))
    while stack:
        here, items = stack[-1]
        for k, v in items:
            t = type(v)
            if t is dict:
                keys += len(v)
                if surrogates:
                    for x in v:
                        _unicode(x, (here, k), x, "(the key)")
                stack.append(((here, k), iter(v.items())))
                break
            if t is list:
                stack.append(((here, k), enumerate(v)))
                break
            if t is _Big or t is _Huge:
                raise _Bad(f"{_place(here, k)}={_show(v)} is {_kind(v)}")
            if t is int and not -(1 << 63) <= v < (1 << 63):
                raise _Bad(f"{_place(here, k)}={_show(v)} is an integer beyond 64 bits; need {INT_RULE}")
            if t is str and surrogates:
                _unicode(v, here, k)
        else:
            stack.pop()
    return keys


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (JSON has no NaN or Infinity; need {FLOAT_RULE})")


def _strict_int(text: str) -> int:
    if len(text) <= 18:
        return int(text)
    v = _Big(int(text)) if len(text) <= 4000 else _Big(1 << 70)  # beyond what Python converts: a value never valid
    if -(1 << 63) <= v < (1 << 63) and len(text) <= 4000:
        return int(v)
    v.text = text
    return v


def _strict_float(text: str) -> float:
    f = float(text)
    if math.isfinite(f):
        return f
    v = _Huge(f)
    v.text = text
    return v


def _object(pairs: list[tuple[str, Any]]) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Bad(f"the key {_show(key)} appears twice in one object; the keys of a JSON object must be distinct")
    return d


#: Every JSON string, with the colon after it when it is an object's key.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"\s*(:?)')
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


def _not_json(data: bytes, at: int, what: str) -> _Bad:
    line, start = data.count(b"\n", 0, at) + 1, data.rfind(b"\n", 0, at) + 1
    return _Bad(f"not JSON (line {line}, column {at - start + 1}: {what})")


def _parse(data: bytes, fast: bool = True, any_file: bool = False) -> tuple[Any, bool]:
    """Parse JSON strictly: ``(value, fast)``, ``fast`` when orjson parsed it (then duplicate keys are counted later).

    orjson parses a version-2 file (it has an ``"adjacency"`` key) with no 19-digit run or 3-digit exponent; the
    standard library parses the rest, and any text orjson refuses (to name the problem the same way for both
    versions), with hooks that keep the rules: UTF-8 only (a leading byte-order mark dropped), no NUL byte, no NaN
    or Infinity, no duplicate key, every integer :data:`INT_RULE` and float :data:`FLOAT_RULE` (those beyond are
    marked, and refused where they stand). A version-1 file is millions of small lists of small integers, which the
    standard library shares (Python's cached small ints) and orjson does not: 1.4 GB instead of 1.9 GB for the
    83 MB version-1 file of Bundlefly MMS(29) * QR(29).
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    suspect = _long_digits(data, exponents=True)
    if fast and (any_file or b'"adjacency"' in data) and not suspect:
        try:
            return orjson.loads(data), True
        except orjson.JSONDecodeError:
            pass  # the standard library names the problem
    nul = data.find(b"\x00")
    if nul >= 0:
        raise _not_json(data, nul, "a NUL byte; a starlib JSON file is UTF-8 text (is this UTF-16?)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_json(data, exc.start, f"the byte 0x{data[exc.start]:02x} is not UTF-8; a starlib JSON file is "
                                         f"UTF-8") from None
    hooks: dict[str, Any] = {"parse_int": _strict_int, "parse_float": _strict_float} if suspect else {}
    try:
        return json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_object, **hooks), False
    except RecursionError:
        raise _Bad("not JSON that starlib reads (arrays or objects nested deeper than Python's JSON reader goes, "
                   f"about 1,000 levels; a vertex label may nest {MAX_LABEL_DEPTH})") from None
    except _Bad:
        raise
    except ValueError as exc:  # JSONDecodeError, NaN
        raise _Bad(f"not JSON ({printable(exc, 200)})") from None


def strict_loads(data: bytes, source: str = "data") -> Any:
    """Parse JSON by the rules of :func:`decode` (any JSON document: node-link JSON is read with it too).

    UTF-8 (a leading byte-order mark dropped), no NUL byte, no NaN or Infinity, no key twice in one object, every
    integer :data:`INT_RULE`, every other number :data:`FLOAT_RULE`, no lone surrogate, nesting within the parser's
    depth; orjson parses, the standard library names what orjson refuses.

    Parameters
    ----------
    data : bytes
        The JSON text.
    source : str
        How to name it in messages.

    Returns
    -------
    Any
        The parsed value.

    Raises
    ------
    ValueError
        ``"{source}: ..."`` naming the first broken rule and where.

    Example
    -------
    >>> strict_loads(b'{"a": 1, "a": 2}', "x.json")
    Traceback (most recent call last):
    ...
    ValueError: x.json: the key "a" appears twice in one object; the keys of a JSON object must be distinct
    """
    with _no_gc():
        try:
            obj, fast = _parse(bytes(data), any_file=True)
            keys = (_check_values(obj, (), (), True, typed=False, surrogates=bool(_SURROGATE.search(data)))
                    if type(obj) is dict else 0)
            if fast and type(obj) is dict and keys != _STRING.findall(data).count(b":"):
                _parse(bytes(data), fast=False)  # the standard library names the key
            elif fast and type(obj) is not dict and b":" in data:
                _parse(bytes(data), fast=False)
            return obj
        except _Bad as exc:
            raise ValueError(f"{source}: {exc}") from None


def decode(data: bytes | bytearray | memoryview | str, source: str = "data") -> NetworkFile:
    """Read a starlib JSON file's content (version 2, or version 1 when there is no ``"format"`` key).

    Parameters
    ----------
    data : bytes or str
        The file's content (UTF-8).
    source : str
        How to name the content in error messages (:func:`starlib.io.read_json` gives ``path='t.json'``).

    Returns
    -------
    NetworkFile
        The graph, the trees (``None`` if the file has none), network name, parameters, version, other keys.

    Raises
    ------
    ValueError
        ``"{source}: ..."`` naming the first broken rule: not JSON (not UTF-8, a NUL byte, NaN or Infinity, nested
        too deep), a duplicate key, not an object, an unknown format or version, a missing key, a wrong type (bool,
        float or string where an integer index stands), an integer beyond 64 bits or a number beyond a 64-bit
        float anywhere, an index out of range, a list of the wrong length, an adjacency list out of order, repeated
        labels, labels nested too deep; in version 1 also a self-loop, a link listed twice, a tree without n-1
        edges. Every value quoted from the file is escaped and shortened (:func:`starlib.validation.printable`).

    Examples
    --------
    >>> decode(b'{"format": "starlib", "version": 2, "network": "", "params": {}, "directed": false, "n": 2, '
    ...        b'"m": 1, "nodes": [0, 1], "adjacency": [[1], [true]]}')
    Traceback (most recent call last):
    ...
    ValueError: data: adjacency lists 2 edges, m=1
    >>> decode(b'{"nodes": [0, 1], "edges": [[0, 1]], "upper_bound": 123456789012345678901234567890}')
    Traceback (most recent call last):
    ...
    ValueError: data: upper_bound=123456789012345678901234567890 is an integer beyond 64 bits; need an integer of \
at most 64 bits (-2**63 .. 2**63-1)
    """
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{source}: not JSON (a lone surrogate {data[exc.start]!r} in the text)") from None
    elif isinstance(data, memoryview | bytearray):
        data = bytes(data)
    with _no_gc():
        try:
            obj, fast = _parse(data)
            if type(obj) is not dict:
                raise _Bad(f"the top level is {_kind(obj)}, not an object")
            if "format" in obj or "version" in obj:
                nf = _decode_v2(obj)
                keys = _check_values(obj, ("nodes", "adjacency"), ("parent",), False)
            else:
                nf = _decode_v1(obj)
                keys = _check_values(obj, ("nodes", "edges"), ("edges",), False)
            if not fast and _SURROGATE.search(data):
                _check_values(obj, (), (), True, surrogates=True)
            if fast and keys != _STRING.findall(data).count(b":"):  # orjson keeps the last of two equal keys
                _parse(data, fast=False)  # the standard library names the key
                raise _Bad("a key appears twice in one object; the keys of a JSON object must be distinct")
            return nf
        except _Bad as exc:
            raise ValueError(f"{source}: {exc}") from None

