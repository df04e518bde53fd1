"""Networks from files: every input format declared once, each read by the library that owns it or by its grammar.

:data:`INPUT_FORMATS` holds one :class:`InputFormat` per format: its name (the command line's ``--input-format``),
the suffixes that name it, its reader and the memory it needs per byte of file. :func:`read_input` reads a path:

1. it opens the path without blocking and checks, from the open file, that it is a regular file (a folder, a
   FIFO, ``/dev/zero`` or a socket is refused before a byte is read, so nothing blocks or reads forever) that is
   not empty;
2. it refuses a file whose size, times the format's :attr:`InputFormat.bytes_per_byte` (measured), exceeds the
   memory limit (:func:`starlib.memory.memory_limit`, the command line's ``--max-memory``), before reading it;
3. it reads the bytes, decodes them strictly (UTF-8; GML is ASCII, as networkx requires) and parses them:
   GraphML with networkx's ``GraphMLReader``, GML with ``networkx.parse_gml``, node-link JSON with
   ``networkx.node_link_graph``, starlib JSON with :func:`starlib.io.json_format.decode`, edge lists and BookSim
   ``anynet`` files with the parsers below;
4. it checks what every network must be: at least two vertices, no self-loop, no parallel links, distinct node
   ids; a directed graph is kept directed (``starlib info`` and ``build`` read it; the EDST verbs refuse it).

Every refusal is one ``ValueError`` that names the file and what is wrong, e.g.
``path='net.edges': line 3: 3 words ('0 1 7'); an edge list has two per line, 'u v' (# starts a comment)``.

The vertices are the file's node ids, in the file's order (docs/formats.md §8 says, format by format, which ids
and in which order), and the graph remembers the file's name in ``graph.meta["input"]``, so that the writers name
the vertices by those ids again (:func:`starlib.io.exports.node_ids`). A file that starlib wrote (GraphML, GML or
node-link JSON carrying ``network`` and a ``label`` per node) is read back with its labels, its family name and
parameters and, when its edges carry ``tree``, its trees.

Example
-------
>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "ring.edges"
>>> _ = p.write_text("# a ring of four routers\\nr0 r1\\nr1 r2\\nr2 r3\\nr3 r0\\n")
>>> f = read_input(p)
>>> f.format, f.graph.labels, f.graph.edges.tolist()
('edgelist', ['r0', 'r1', 'r2', 'r3'], [[0, 1], [0, 3], [1, 2], [2, 3]])
>>> sorted(INPUT_FORMATS)
['anynet', 'edgelist', 'gml', 'graphml', 'json', 'node-link']
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from ..edst.trees import EDSTSet, Tree
from ..graphs import ArrayGraph
from ..memory import format_bytes, memory_baseline, memory_limit
from ..validation import printable, shorten
from .json_format import INPUT, INT_RULE, NetworkFile, decode, decode_labels, strict_loads
from .xml_safe import declared_encoding, refuse_entities

__all__ = ["InputFormat", "INPUT_FORMATS", "input_formats_for", "read_input", "read_file", "read_json", "decode_input",
           "read_estimate", "MAX_INDEX_DIGITS"]

#: An integer word of an edge list or an anynet file has at most this many digits (it must fit in 64 bits).
MAX_INDEX_DIGITS = 18


@dataclass(frozen=True)
class InputFormat:
    """An input format: its name, the suffixes that name it, its reader, and the memory it needs to read a file.

    Attributes
    ----------
    name : the name ``--input-format`` takes.
    summary : one line for help texts.
    suffixes : the file suffixes that name it (lower case, with the dot). Two formats may share a suffix; then
        ``sniff`` tells them apart.
    read : ``read(data, path) -> NetworkFile``: the file's bytes to a network (``path``, as given, names the file
        in messages and its name is recorded).
    bytes_per_byte : peak memory while a file is read, per byte of the file: the largest ratio
        ``benchmarks/bench_readers.py`` measured (Slim Fly files of 0.02 to 63 MB, with and without trees), with a
        third or more to spare (docs/formats.md §8.8 lists the measurements). A file is refused before it is read
        when its size times this exceeds the memory limit.
    trees : whether the format can hold trees (``verify`` and ``improve`` need them).
    sniff : for a shared suffix, ``sniff(head) -> bool`` on the file's first bytes: this format or the next one
        with the suffix.
    """

    name: str
    summary: str
    suffixes: tuple[str, ...]
    read: Callable[[bytes, str], NetworkFile]
    bytes_per_byte: int
    trees: bool
    sniff: Callable[[bytes], bool] | None = None


# -- the file, its bytes and their text -------------------------------------------------------------------------------

_KINDS = ((stat.S_ISDIR, "cannot read (Is a directory)"),
          (stat.S_ISFIFO, "is a named pipe (FIFO), not a regular file"),
          (stat.S_ISCHR, "is a character device, not a regular file"),
          (stat.S_ISBLK, "is a block device, not a regular file"),
          (stat.S_ISSOCK, "is a socket, not a regular file"))


def _open(path: str | os.PathLike, source: str) -> int:
    """A descriptor of ``path`` opened for reading without blocking (a FIFO opens at once), checked a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ValueError(f"{source}: cannot read ({exc.strerror or exc})") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        what = next((text for test, text in _KINDS if test(mode)), "is not a regular file")
        raise ValueError(f"{source}: {what}" + ("" if what.startswith("cannot") else
                                                 ": starlib reads networks from regular files only (it checks their "
                                                 "size before it reads them)"))
    return fd


def read_estimate(size: int, fmt: InputFormat) -> int:
    """Bytes of memory that reading ``size`` bytes of ``fmt`` takes at its peak (:attr:`InputFormat.bytes_per_byte`).

    >>> read_estimate(10**6, INPUT_FORMATS["graphml"]) == 10**6 * INPUT_FORMATS["graphml"].bytes_per_byte
    True
    """
    return int(size) * fmt.bytes_per_byte


def _check_size(size: int, formats: Sequence[InputFormat], source: str) -> None:
    if size == 0:
        raise ValueError(f"{source}: the file is empty (0 bytes)")
    fmt = max(formats, key=lambda f: f.bytes_per_byte)
    need, base, limit = read_estimate(size, fmt), memory_baseline(), memory_limit()
    if need + base > limit:  # a suffix of several formats (.json): the one that needs the most, since none is read yet
        what = fmt.name if len(formats) == 1 else " or ".join(f.name for f in formats)
        also = f", with the interpreter and libraries about {format_bytes(need + base)}" if base else ""
        raise ValueError(f"{source} is too large: reading {format_bytes(size)} of {what} would need about "
                         f"{format_bytes(need)} ({fmt.bytes_per_byte} bytes per byte of file){also}, over the memory "
                         f"limit of {format_bytes(limit)}; refused before reading (--max-memory sets the limit)")


def read_file(path: str | os.PathLike, formats: Sequence[InputFormat], source: str | None = None) -> bytes:
    """The bytes of a network file, opened as every reader of a path opens it (:func:`read_input`,
    :func:`starlib.io.read_json`).

    Opened without blocking and checked, from the open descriptor, to be a regular file (a folder, a FIFO,
    ``/dev/zero`` or a socket is refused before a byte is read, so nothing blocks or reads forever), not empty, and
    not larger than the memory limit allows: its size times the largest :attr:`InputFormat.bytes_per_byte` of
    ``formats``, plus the baseline in force (:func:`starlib.memory.memory_baseline`: the interpreter and libraries
    on the command line, 0 in a library call), must be within :func:`starlib.memory.memory_limit` (the command
    line's ``--max-memory``).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    formats : sequence of InputFormat
        The formats it may be in (their memory per byte bounds the size).
    source : str, optional
        How messages name the file (default ``path='...'``).

    Returns
    -------
    bytes
        The whole file.

    Raises
    ------
    ValueError
        ``path='...': ...`` naming the file and the rule: cannot be read, not a regular file, empty, too large
        (its size, the memory it needs and the limit), or grew while it was read.

    Example
    -------
    >>> read_file("/dev/zero", [INPUT_FORMATS["json"]])
    Traceback (most recent call last):
    ...
    ValueError: path='/dev/zero': is a character device, not a regular file: starlib reads networks from regular \
files only (it checks their size before it reads them)
    """
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise ValueError(f"path={shorten(path, PATH_SHOWN)} is not a file path")
    source = _source(str(path)) if source is None else source
    fd = _open(path, source)
    try:
        size = os.fstat(fd).st_size
        _check_size(size, formats, source)
    except BaseException:
        os.close(fd)
        raise
    return _read_bytes(fd, size, source)


def _read_bytes(fd: int, size: int, source: str) -> bytes:
    with os.fdopen(fd, "rb") as f:
        data = f.read(size + 1)
    if len(data) > size:
        raise ValueError(f"{source}: the file grew while it was read (it had {size:,} bytes); read it when it is "
                         f"complete")
    return data


def _line_col(data: bytes, at: int) -> str:
    line, start = data.count(b"\n", 0, at) + 1, data.rfind(b"\n", 0, at) + 1
    return f"line {line}, column {at - start + 1}"


def _text(data: bytes, source: str, ascii_only: bool = False) -> str:
    """The bytes as text: UTF-8 (a leading byte-order mark dropped), or ASCII for GML; else name the first bad byte."""
    try:
        text = data.decode("ascii" if ascii_only else "utf-8")
    except UnicodeDecodeError as exc:
        what = ("ASCII (GML is 7-bit ASCII: networkx writes other characters as &#N; entities)" if ascii_only
                else "UTF-8")
        raise ValueError(f"{source}: {_line_col(data, exc.start)}: the byte 0x{data[exc.start]:02x} is not {what}; "
                         f"is this a {'GML' if ascii_only else 'text'} file?") from None
    return text[1:] if text.startswith("\ufeff") else text


def _name(v: Hashable) -> str:
    return shorten(v, 40)


# -- what every network is: simple, at least two vertices -------------------------------------------------------------

#: A path longer than this is shortened in messages (its two ends kept, its length stated).
PATH_SHOWN = 200


def _source(path: str) -> str:
    """``path='...'``: the path as given, escaped as ``repr`` escapes it and shortened (:func:`shorten`)."""
    return f"path={shorten(str(path), PATH_SHOWN)}"


def _extra(path: str, fmt: str, **more: Any) -> dict[str, Any]:
    """What a network read from a file of another format records: the file's name and its format."""
    return {"input": Path(path).name, "input_format": fmt, **more}


def _finish(labels: list[Hashable], rows: np.ndarray, path: str, fmt: str, *, directed: bool = False,
            where: Callable[[int], str] | None = None, tree_of_row: np.ndarray | None = None,
            roots: Any = None, network: str = "", params: dict | None = None, extra: dict | None = None
            ) -> NetworkFile:
    """The network of ``rows`` (vertex indices) on ``labels``, checked simple; ``tree_of_row``: trees.

    ``where(k)`` names row ``k`` in a message (``line 7``) for a format whose rows are the file's lines; None for
    a graph networkx built, whose edges are not in the file's order.
    """
    source = _source(path)
    n = len(labels)
    if n < 2:
        raise ValueError(f"{source}: the graph has {n} vert{'ex' if n == 1 else 'ices'}; a network needs at least 2")
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, 2)
    loops = np.flatnonzero(rows[:, 0] == rows[:, 1])
    if loops.size:
        k = int(loops[0])
        at = f"{where(k)} is a self-loop" if where is not None else "a self-loop"
        raise ValueError(f"{source}: {at} at {_name(labels[rows[k, 0]])}; starlib reads simple graphs (no "
                         f"self-loops, no parallel links): remove it")
    pairs = rows if directed else np.sort(rows, axis=1)
    keys = pairs[:, 0] * np.int64(n) + pairs[:, 1]
    order = np.argsort(keys, kind="stable")
    same = np.flatnonzero(keys[order][1:] == keys[order][:-1])
    if same.size:
        first, second = int(order[same[0]]), int(order[same[0] + 1])
        u, v = rows[first]
        link = f"{_name(labels[u])} {'->' if directed else 'and'} {_name(labels[v])}"
        which = f"{where(first)} and {where(second)} both link" if where is not None else "two edges link"
        raise ValueError(f"{source}: {which} {link}: parallel links (a multigraph); starlib reads simple graphs: list "
                         f"each link once")
    meta = {INPUT: Path(path).name}
    graph = ArrayGraph.from_edges(labels, rows, name=network, params=dict(params or {}), directed=directed, meta=meta)
    trees = None if tree_of_row is None else _trees(rows, tree_of_row, roots, labels, source)
    return NetworkFile(graph, trees, network, dict(params or {}), None, _extra(path, fmt, **(extra or {})), fmt)


def _trees(rows: np.ndarray, tree_of_row: np.ndarray, roots: Any, labels: list[Hashable], source: str
           ) -> EDSTSet | None:
    """Trees from a ``tree`` attribute per edge (-1: no tree) and the graph's ``roots`` (default: vertex 0)."""
    n = len(labels)
    t = np.asarray(tree_of_row, dtype=np.int64)  # checked by _check_tree_indices: -1 .. m // (n - 1) - 1
    if t.size == 0 or (t < 0).all():
        return None
    k = int(t.max()) + 1
    if roots is None:
        roots = [0] * k
    if (not isinstance(roots, list) or len(roots) != k
            or not all(type(r) is int and 0 <= r < n for r in roots)):
        raise ValueError(f"{source}: roots={shorten(roots, 40)}: need a list of {k} vertex indices in 0..{n - 1}, "
                         f"one per tree")
    order = np.argsort(t, kind="stable")
    cuts = np.searchsorted(t[order], np.arange(k + 1))
    return EDSTSet([Tree(rows[order[cuts[i]:cuts[i + 1]]], roots[i], "", n=n) for i in range(k)])


def _json_text(value: Any) -> Any:
    """A JSON text attribute parsed, or None when it is not JSON."""
    if not isinstance(value, str):
        return None
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        return None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_id(v: Hashable, what: str, source: str) -> None:
    """Refuse, at read time, an id or label that no file can hold: an integer beyond 64 bits (GML's integers are
    unbounded; every writer holds 64 bits), a string with a lone surrogate (GML's ``&#55296;``: no UTF-8 for it)."""
    if type(v) is int and not -(1 << 63) <= v < (1 << 63):
        raise ValueError(f"{source}: {what} {shorten(v, 40)} is an integer beyond 64 bits; an id is {INT_RULE} or a "
                         f"string")
    if type(v) is str and (half := _SURROGATE.search(v)) is not None:
        raise ValueError(f"{source}: {what} {shorten(v, 40)} holds the lone surrogate U+{ord(half.group(0)):04X}, "
                         f"half of a UTF-16 pair and no character; an id is Unicode text")


def _check_tree_indices(edges: Sequence[tuple[Any, Any, Any]], n: int, source: str) -> None:
    """Every edge's ``tree`` an integer from -1 (no tree) to the most edge-disjoint spanning trees there can be, less 1.

    A graph of ``n`` vertices and ``m`` edges has at most ``m // (n - 1)`` edge-disjoint spanning trees, so a tree
    index at or above that bound (``10**9``, or beyond 64 bits) names a tree that cannot be: refused before the
    trees are built, naming the edge.
    """
    bound = len(edges) // (n - 1) if n > 1 else 0
    for u, v, t in edges:
        if type(t) is not int:
            rule = "a tree index is an integer"
        elif t < -1:
            rule = "a tree index is -1 (no tree) or 0, 1, 2, ..."
        elif t >= bound and n > 1:
            rule = (f"a graph of {n} vertices and {len(edges)} edges has at most m // (n - 1) = {bound} "
                    f"edge-disjoint spanning trees, so a tree index is -1 (no tree)"
                    + ("" if bound == 0 else " or 0" if bound == 1 else f" or 0 .. {bound - 1}"))
        else:
            continue
        raise ValueError(f"{source}: the edge {_name(u)} - {_name(v)} has tree={shorten(t, 40)}; {rule}")


def _from_networkx(g: Any, path: str, fmt: str, labels_from: str | None, json_labels: bool = True) -> NetworkFile:
    """A networkx graph (any of the four classes) as a network file, its nodes in the graph's (the file's) order.

    ``labels_from``: a node attribute that holds the labels (``"label"``), or None for the node ids. A graph that
    starlib wrote (``network`` and ``params`` on the graph, ``label`` on every node) is read with its labels
    (``json_labels``: the labels are JSON text, unless the graph says ``labels "ids"``: they are the file's string
    ids themselves), its family and parameters, and the trees of its ``tree`` attribute, rooted at the graph's
    ``roots`` (vertex indices, or node ids when they are strings).
    """
    source = _source(path)
    nodes = list(g.nodes)
    data = g.nodes
    starlib_file = ("network" in g.graph and "params" in g.graph
                    and all("label" in data[v] for v in nodes))
    if starlib_file:
        raw = [data[v]["label"] for v in nodes]
        if json_labels and g.graph.get("labels") != "ids":  # "ids": the labels are a file's string ids themselves
            if not all(isinstance(x, str) for x in raw):
                raise ValueError(f"{source}: a node's label is not text; a file starlib wrote gives each label as "
                                 f"JSON text")
            try:
                raw = orjson.loads(b"[" + ",".join(raw).encode() + b"]")
            except orjson.JSONDecodeError:
                raw = None
            if raw is None or len(raw) != len(nodes):
                raise ValueError(f"{source}: the node labels are not JSON text, one label per node, as starlib "
                                 f"writes them")
        labels = decode_labels(raw, f"{source}: the nodes' labels")
    elif labels_from is not None and nodes and all(labels_from in data[v] for v in nodes):
        labels = [data[v][labels_from] for v in nodes]
        seen: dict[Hashable, Any] = {}
        for v, lab in zip(nodes, labels, strict=True):
            if not isinstance(lab, int | str) or isinstance(lab, bool):
                raise ValueError(f"{source}: node {_name(v)} has the {labels_from} {_name(lab)}; a {labels_from} "
                                 f"that names a node is an integer or a string")
            _check_id(lab, f"node {_name(v)}'s {labels_from}", source)
            if lab in seen:
                raise ValueError(f"{source}: nodes {_name(seen[lab])} and {_name(v)} have the same {labels_from} "
                                 f"{_name(lab)}; labels name the nodes, so they must be distinct")
            seen[lab] = v
    else:
        labels = nodes
        for v in nodes:
            if not isinstance(v, int | str) or isinstance(v, bool):
                raise ValueError(f"{source}: the node id {_name(v)} is {type(v).__name__}; an id is an integer or a "
                                 f"string")
            _check_id(v, "the node id", source)
    index = {v: i for i, v in enumerate(nodes)}
    edges = list(g.edges(data="tree", default=-1))
    rows = np.fromiter((index[x] for u, v, _ in edges for x in (u, v)), dtype=np.int64,
                       count=2 * len(edges)).reshape(-1, 2)
    tree_of_row = None
    network, params, roots = "", {}, None
    if starlib_file:
        network = g.graph["network"] if isinstance(g.graph["network"], str) else ""
        par = g.graph["params"] if isinstance(g.graph["params"], dict) else _json_text(g.graph["params"])
        params = par if isinstance(par, dict) else {}
        roots = g.graph.get("roots")
        if isinstance(roots, str):
            text, roots = roots, _json_text(roots)
            if roots is None:  # not JSON (an integer beyond 64 bits, a typo): refused, not read as "no roots"
                raise ValueError(f"{source}: roots={shorten(text, 40)} is not JSON text; starlib writes the roots as "
                                 f"a JSON list of vertex indices or node ids, each {INT_RULE} or a string")
        if isinstance(roots, list) and roots and all(type(r) is str for r in roots):  # the roots' node ids
            stray = next((r for r in roots if r not in index), None)
            if stray is not None:
                raise ValueError(f"{source}: roots names {_name(stray)}, which is no node id of the file")
            roots = [index[r] for r in roots]
    if any(t != -1 for _, _, t in edges):
        _check_tree_indices(edges, len(nodes), source)
        tree_of_row = np.fromiter((t for _, _, t in edges), dtype=np.int64, count=len(edges))
    return _finish(labels, rows, path, fmt, directed=g.is_directed(), tree_of_row=tree_of_row, roots=roots,
                   network=network, params=params)


# -- GraphML, GML, node-link JSON: networkx ---------------------------------------------------------------------------

def _read_graphml(data: bytes, path: str) -> NetworkFile:
    """GraphML with networkx's ``GraphMLReader`` (ids as strings); duplicate ids and undeclared nodes refused."""
    from xml.etree.ElementTree import ParseError

    import networkx as nx
    from networkx.readwrite.graphml import GraphMLReader

    source = _source(path)
    refuse_entities(data, source, "GraphML")  # XXE (a file's content pulled in), "billion laughs": never expanded
    if not data.startswith((b"\xff\xfe", b"\xfe\xff")) and declared_encoding(data) in (None, "utf-8", "utf8"):
        _text(data, source)  # a clear message for bytes that are not UTF-8 (expat would say "invalid token")
    reader = GraphMLReader(node_type=str)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ports and untyped keys: networkx warns and goes on; so do we, quietly
            graphs = list(reader(string=data))
    except ParseError as exc:
        raise ValueError(f"{source}: not well-formed XML ({printable(exc, 200)})") from None
    except (nx.NetworkXError, KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"{source}: not GraphML that networkx reads ({type(exc).__name__}: {printable(exc, 200)})"
                         ) from None
    if len(graphs) != 1:
        raise ValueError(f"{source}: holds {len(graphs)} <graph> elements in the GraphML namespace "
                         f"(http://graphml.graphdrawing.org/xmlns); starlib reads a file of one graph")
    seen: set[str] = set()
    for element in reader.xml.iter(f"{{{reader.NS_GRAPHML}}}node"):
        node_id = element.get("id")
        if node_id is None:
            raise ValueError(f"{source}: a <node> has no id")
        if node_id in seen:
            raise ValueError(f"{source}: the node id {_name(node_id)} is declared twice; node ids must be distinct")
        seen.add(node_id)
    g = graphs[0]
    if g.number_of_nodes() != len(seen):
        stray = next(v for v in g if v not in seen)
        raise ValueError(f"{source}: an <edge> names the node {_name(stray)}, which no <node> declares")
    return _from_networkx(g, path, "graphml", None)


def _read_gml(data: bytes, path: str) -> NetworkFile:
    """GML with ``networkx.parse_gml``: the nodes' ``label`` names them when every node has one (networkx's rule)."""
    import networkx as nx

    source = _source(path)
    text = _text(data, source, ascii_only=True)
    try:
        g = nx.parse_gml(text, label=None)
    except RecursionError:
        raise ValueError(f"{source}: lists nested deeper than networkx's GML parser goes (it recurses once per "
                         f"level, about 1,000 levels); a network file nests 3 (graph, node or edge, attribute)"
                         ) from None
    except (nx.NetworkXError, KeyError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"{source}: not GML that networkx reads "
                         f"({printable(str(exc).splitlines()[0], 200) if str(exc) else repr(exc)})") from None
    return _from_networkx(g, path, "gml", "label")


_NODE_LINK = re.compile(rb'"nodes"\s*:\s*\[\s*\{|"links"\s*:\s*\[')


def _is_node_link(head: bytes) -> bool:
    """A ``.json`` file is node-link JSON when its ``nodes`` are objects or it has ``links``; else starlib JSON."""
    return _NODE_LINK.search(head) is not None


def _read_node_link(data: bytes, path: str) -> NetworkFile:
    """networkx node-link JSON (``nx.node_link_data``; edges under ``edges``, or ``links`` as before networkx 3.4)."""
    import networkx as nx

    source = _source(path)
    obj = strict_loads(data, source)  # the rules of starlib JSON: UTF-8, no key twice, 64-bit integers, ...
    what = "is not node-link JSON (networkx's node_link_data: an object with 'nodes' and 'edges' or 'links')"
    if type(obj) is not dict or type(obj.get("nodes")) is not list:
        raise ValueError(f"{source} {what}: " + ("the top level is not an object" if type(obj) is not dict
                                                 else "'nodes' is missing or not a list"))
    key = "edges" if "edges" in obj else "links"
    links = obj.get(key, [])
    if type(links) is not list:
        raise ValueError(f"{source} {what}: '{key}' is not a list")
    ids: dict[Any, int] = {}
    for i, node in enumerate(obj["nodes"]):
        if type(node) is not dict or "id" not in node:
            raise ValueError(f"{source} {what}: nodes[{i}] is not an object with an 'id'")
        v = node["id"]
        if type(v) not in (int, str):
            raise ValueError(f"{source}: nodes[{i}].id={_name(v)} is {type(v).__name__}; an id is an integer or a "
                             f"string")
        if v in ids:
            raise ValueError(f"{source}: nodes[{ids[v]}] and nodes[{i}] have the same id {_name(v)}; node ids must "
                             f"be distinct")
        ids[v] = i
    for k, link in enumerate(links):
        if type(link) is not dict or "source" not in link or "target" not in link:
            raise ValueError(f"{source} {what}: {key}[{k}] is not an object with 'source' and 'target'")
        for end in ("source", "target"):
            if type(link[end]) not in (int, str) or link[end] not in ids:
                raise ValueError(f"{source}: {key}[{k}].{end}={_name(link[end])} is not the id of a node")
    try:
        # always a multigraph: parallel links stay visible (a plain graph would merge them) and are then refused
        g = nx.node_link_graph({**obj, "multigraph": True}, edges=key)
    except (nx.NetworkXError, KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"{source} {what}: {printable(exc, 200)}") from None
    return _from_networkx(g, path, "node-link", None, json_labels=False)


# -- starlib JSON ------------------------------------------------------------------------------------------------------

def _read_json(data: bytes, path: str) -> NetworkFile:
    """starlib JSON, version 1 or 2 (:func:`starlib.io.json_format.decode`: every structural rule checked)."""
    source = _source(path)
    nf = decode(data, source)
    g = nf.graph
    if g.n < 2:
        raise ValueError(f"{source}: the graph has {g.n} vert{'ex' if g.n == 1 else 'ices'}; a network needs at "
                         f"least 2")
    g.meta[INPUT] = Path(path).name
    return nf


# -- edge lists --------------------------------------------------------------------------------------------------------

_INTEGER = re.compile(r"[0-9]+")
#: What separates the words of an edge list: ASCII spaces and tabs only (a no-break space is part of a word; a
#: carriage return inside a line, from a file of old Mac line ends, splits it too, so the line has too many words).
_SEPARATORS = re.compile(r"[ \t\r]+")
#: Control characters an edge-list word may not hold (C0 but tab, DEL, C1): \v and \f are no separators.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def _read_edge_list(data: bytes, path: str) -> NetworkFile:
    """An edge list: a line ``u v`` per link, ``#`` to the end of a line a comment; integer ids or words, not both.

    Words are separated by ASCII spaces and tabs only, as docs/formats.md §8.7 says: a no-break space or another
    Unicode space is part of a word (``rack\u00a01`` is one label), a control character in a word is refused.
    """
    source = _source(path)
    text = _text(data, source)
    words: list[str] = []
    line_of: list[int] = []
    for k, line in enumerate(text.split("\n"), 1):
        if "#" in line:
            line = line[:line.index("#")]
        line = line[:-1] if line.endswith("\r") else line  # a \r\n line end
        line = line.strip(" \t")
        if not line:
            continue
        w = _SEPARATORS.split(line)
        if len(w) != 2:
            raise ValueError(f"{source}: line {k}: {len(w)} word{'s' if len(w) != 1 else ''} "
                             f"({shorten(line.strip(), 40)}); an edge list has two per line, 'u v' (# starts a "
                             f"comment)")
        bad = _CONTROL.search(line)
        if bad is not None:
            raise ValueError(f"{source}: line {k}: the control character {bad.group()!r} in {shorten(line, 40)}; "
                             f"an edge list separates its words by spaces and tabs only, and a word holds no control "
                             f"character")
        words += w
        line_of.append(k)
    if not words:
        raise ValueError(f"{source}: no links (only blank or comment lines); an edge list has a line 'u v' per link")

    def where(r: int) -> str:
        return f"line {line_of[r]}"

    integer = [bool(_INTEGER.fullmatch(w)) for w in words]
    if all(integer):
        long = next((i for i, w in enumerate(words) if len(w) > MAX_INDEX_DIGITS), None)
        if long is not None:
            raise ValueError(f"{source}: {where(long // 2)}: the index {shorten(words[long])} has more than "
                             f"{MAX_INDEX_DIGITS} digits")
        values = np.array(words).astype(np.int64)
        labels_arr, inverse = np.unique(values, return_inverse=True)
        labels: list[Hashable] = labels_arr.tolist()
        rows = inverse.reshape(-1, 2)
    elif any(integer):
        i, j = integer.index(True), integer.index(False)
        raise ValueError(f"{source}: {where(j // 2)}: {shorten(words[j])} is not an integer index, but "
                         f"{where(i // 2)} names vertices by integers ({words[i]}): an edge list names every vertex "
                         f"by an integer or none (a header line? # starts a comment)")
    else:
        index: dict[str, int] = {}
        rows = np.fromiter((index.setdefault(w, len(index)) for w in words), dtype=np.int64,
                           count=len(words)).reshape(-1, 2)
        labels = list(index)
    return _finish(labels, rows, path, "edgelist", where=where)


# -- BookSim anynet ----------------------------------------------------------------------------------------------------

def _read_anynet(data: bytes, path: str) -> NetworkFile:
    """A BookSim 2 ``anynet`` file, by the grammar of ``AnyNet::readFile`` (docs/formats.md §8.6).

    ``line := TYPE ID { TYPE ID [LATENCY] }`` with ``TYPE`` ``router`` or ``node``, words separated by spaces (a
    line ending in ``\\r`` is read as BookSim reads it: ``atoi`` ignores the ``\\r``). The routers are the
    vertices, router ``r`` the vertex ``r``; router-to-router bodies are links (a link listed twice, in either
    direction, is one link, as in BookSim's channel maps); compute nodes are counted, not vertices.
    """
    source = _source(path)
    text = _text(data, source)
    router_ids: set[int] = set()
    node_router: dict[int, int] = {}
    links: list[tuple[int, int]] = []
    link_line: list[int] = []

    def number(word: str, k: int, what: str) -> int:
        if _INTEGER.fullmatch(word) and len(word) > MAX_INDEX_DIGITS:
            raise ValueError(f"{source}: line {k}: the {what} {shorten(word)} has more than {MAX_INDEX_DIGITS} "
                             f"digits (it must fit in 64 bits)")
        if not _INTEGER.fullmatch(word):
            raise ValueError(f"{source}: line {k}: {shorten(word)} is not a {what} (a number 0, 1, 2, ...); "
                             f"BookSim's grammar is 'router|node ID {{router|node ID [LATENCY]}}'")
        return int(word)

    for k, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if line == "":
            continue
        if "\t" in line or "\r" in line:
            raise ValueError(f"{source}: line {k}: a tab or carriage return; BookSim splits words at spaces only")
        words = [w for w in line.split(" ") if w]
        if not words:
            continue
        state, head_type, head, body_type = "HEAD_TYPE", "", -1, ""
        for w in words:
            if state == "HEAD_TYPE" or state == "BODY_TYPE" or (state == "LINK_WEIGHT" and w in ("router", "node")):
                if w not in ("router", "node"):
                    where = "head of line" if state == "HEAD_TYPE" else "body"
                    raise ValueError(f"{source}: line {k}: {shorten(w)} is not a {where} type ('router' or "
                                     f"'node'); BookSim's grammar is 'router|node ID {{router|node ID [LATENCY]}}'")
                if state == "HEAD_TYPE":
                    head_type, state = w, "HEAD_ID"
                else:
                    body_type, state = w, "BODY_ID"
            elif state == "HEAD_ID":
                head = number(w, k, "router or node id")
                router_ids.add(head)  # BookSim declares a router under the head's id, whatever its type
                state = "BODY_TYPE"
            elif state == "BODY_ID":
                body = number(w, k, "router or node id")
                if head_type == "node" and body_type == "node":
                    raise ValueError(f"{source}: line {k}: node {head} is connected to node {body}; BookSim "
                                     f"connects nodes only to routers")
                if body_type == "router":
                    router_ids.add(body)
                if head_type == "router" and body_type == "router":
                    links.append((head, body))
                    link_line.append(k)
                else:
                    node, router = (head, body) if head_type == "node" else (body, head)
                    if node_router.setdefault(node, router) != router:
                        raise ValueError(f"{source}: line {k}: node {node} is connected to routers "
                                         f"{node_router[node]} and {router}; BookSim attaches a node to one router")
                state = "LINK_WEIGHT"
            else:  # LINK_WEIGHT: a latency
                if number(w, k, "latency") < 1:
                    raise ValueError(f"{source}: line {k}: latency {w}: BookSim's channels need a positive delay")
        if state not in ("LINK_WEIGHT", "BODY_TYPE"):
            raise ValueError(f"{source}: line {k}: {shorten(line.strip(), 40)} ends after "
                             f"{'a type' if state.endswith('ID') else 'its head'}; BookSim's grammar is "
                             f"'router|node ID {{router|node ID [LATENCY]}}'")
    if not router_ids:
        raise ValueError(f"{source}: no routers; an anynet file has lines 'router R router S' and 'router R node N'")
    r = max(router_ids) + 1
    if len(router_ids) != r:  # the file names fewer routers than its largest id: the first gap, found by sorting
        # the ids it names (never a range up to the largest id, which may be 10**17)
        missing = next(i for i, v in enumerate(sorted(router_ids)) if v != i)
        raise ValueError(f"{source}: routers are numbered up to {r - 1} but router {missing} is never named (the "
                         f"file names {len(router_ids)} routers); BookSim numbers routers 0..R-1")
    if node_router:
        nodes = sorted(node_router)
        missing = next((i for i, v in enumerate(nodes) if v != i), None)
        if missing is not None:
            raise ValueError(f"{source}: compute node {missing} is missing (the file names {len(nodes)} nodes, "
                             f"numbered up to {nodes[-1]}); BookSim numbers nodes 0..N-1")
    rows = np.array(links, dtype=np.int64).reshape(-1, 2)
    if rows.size:  # BookSim keeps one channel per ordered pair and adds the reverse: a link listed twice is one link
        loops = np.flatnonzero(rows[:, 0] == rows[:, 1])
        if loops.size:
            k = int(loops[0])
            raise ValueError(f"{source}: line {link_line[k]}: router {rows[k, 0]} is linked to itself (a self-loop); "
                             f"starlib reads simple graphs")
        rows = np.unique(np.sort(rows, axis=1), axis=0)
    return _finish(list(range(r)), rows, path, "anynet", extra={"compute_nodes": len(node_router)})


# -- one declaration per format ----------------------------------------------------------------------------------------

#: Every input format by name. A file's suffix names its format (``.json`` is node-link JSON when its ``nodes``
#: are objects, else starlib JSON); ``--input-format`` overrides the suffix.
INPUT_FORMATS: dict[str, InputFormat] = {f.name: f for f in (
    InputFormat("json", "starlib JSON, version 1 or 2 (build and edsts write it)", (".json",), _read_json, 32, True),
    InputFormat("node-link", "networkx node-link JSON (nx.node_link_data), 'edges' or 'links'", (".json",),
                _read_node_link, 40, True, _is_node_link),
    InputFormat("graphml", "GraphML (read by networkx; node ids name the vertices)", (".graphml",), _read_graphml,
                40, True),
    InputFormat("gml", "GML (read by networkx; labels name the vertices, else ids)", (".gml",), _read_gml, 24,
                True),
    InputFormat("edgelist", "a line 'u v' per link (integers or names, # comments)",
                (".edges", ".edgelist", ".txt"), _read_edge_list, 56, False),
    InputFormat("anynet", "BookSim 2 anynet network file (routers are the vertices)", (".anynet",), _read_anynet,
                24, False),
)}


def input_formats_for(path: str | os.PathLike, input_format: str | None = None) -> list[InputFormat]:
    """The formats a path may be in: the one named, else those its suffix names (several for ``.json``).

    Raises
    ------
    ValueError
        For an unknown ``input_format``, or a suffix that names no format.

    Examples
    --------
    >>> [f.name for f in input_formats_for("t.json")], [f.name for f in input_formats_for("x", "gml")]
    (['node-link', 'json'], ['gml'])
    >>> input_formats_for("net.csv")
    Traceback (most recent call last):
    ...
    ValueError: path='net.csv': the suffix '.csv' names no input format; give --input-format (one of json, \
node-link, graphml, gml, edgelist, anynet)
    """
    names = ", ".join(INPUT_FORMATS)
    if input_format is not None:
        if input_format not in INPUT_FORMATS:
            raise ValueError(f"--input-format={input_format!r} is not one of {names}")
        return [INPUT_FORMATS[input_format]]
    suffix = Path(path).suffix.lower()
    found = [f for f in INPUT_FORMATS.values() if suffix in f.suffixes]
    if not found:
        raise ValueError(f"{_source(str(path))}: the suffix {shorten(suffix or '(none)')} names no input format; give "
                         f"--input-format (one of {names})")
    return sorted(found, key=lambda f: f.sniff is None)  # the formats that sniff decide first


def decode_input(data: bytes, formats: Sequence[InputFormat], path: str = "data") -> NetworkFile:
    """Read a file's bytes as the first of ``formats`` whose sniff accepts them (a format without sniff always does).

    Example
    -------
    >>> decode_input(b"router 0 router 1\\nrouter 1 router 2\\n", [INPUT_FORMATS["anynet"]]).graph.edges.tolist()
    [[0, 1], [1, 2]]
    """
    head = data[:1 << 20]
    fmt = next(f for f in formats if f.sniff is None or f.sniff(head) or f is formats[-1])
    return fmt.read(data, path)


def read_input(path: str | os.PathLike, input_format: str | None = None) -> NetworkFile:
    """Read a network (and its trees, where the format has them) from a file of any input format.

    Parameters
    ----------
    path : str or os.PathLike
        A regular file.
    input_format : str, optional
        A key of :data:`INPUT_FORMATS`; by default the file's suffix names it (:func:`input_formats_for`).

    Returns
    -------
    NetworkFile
        The graph (vertices named by the file's ids, ``meta["input"]`` set), its trees (None when the file has
        none), the family name and parameters a starlib file records, ``version`` (1 or 2 for starlib JSON, else
        None), ``extra`` (a file of another format: ``input``, its name, and ``input_format``) and ``format``.

    Raises
    ------
    ValueError
        Naming the file and what is wrong: no such file, a folder, a FIFO or device, an empty file, a file larger
        than the memory limit allows (before it is read), bytes that are not UTF-8, a parse error, fewer than two
        vertices, a self-loop, parallel links, duplicate node ids, an unknown format.

    Example
    -------
    >>> read_input("/nonexistent/my.graphml")
    Traceback (most recent call last):
    ...
    ValueError: path='/nonexistent/my.graphml': cannot read (No such file or directory)
    """
    if not isinstance(path, str | os.PathLike) or str(path) == "":
        raise ValueError(f"path={shorten(path, PATH_SHOWN)} is not a file path")
    try:
        formats = input_formats_for(path, input_format)  # an unknown --input-format: refused before the file is opened
    except ValueError:
        if input_format is None:  # a suffix that names no format: a missing file, a folder or a FIFO is said first
            os.close(_open(path, _source(str(path))))
        raise
    return decode_input(read_file(path, formats), formats, str(path))


def read_json(path: str | os.PathLike) -> NetworkFile:
    """Read a starlib JSON file (:func:`~starlib.io.json_format.decode`), opened as every input is (:func:`read_file`).

    The path is opened without blocking and must be a regular file (a FIFO or ``/dev/zero`` is refused before a
    byte is read) whose size, times what reading needs per byte, is within the memory limit
    (:func:`starlib.memory.memory_limit`, the command line's ``--max-memory``).

    Raises
    ------
    ValueError
        ``path='...': ...`` for a file that cannot be read, is no regular file, is empty or too large, or breaks a
        rule of :func:`~starlib.io.json_format.decode`.

    Example
    -------
    >>> read_json("/nonexistent/t.json")
    Traceback (most recent call last):
    ...
    ValueError: path='/nonexistent/t.json': cannot read (No such file or directory)
    """
    data = read_file(path, [INPUT_FORMATS["json"]])
    return decode(data, _source(str(path)))
