"""Exports that other tools read: edge lists, per-tree edge lists, parent arrays, GraphML, BookSim's anynet, and
(from :mod:`~starlib.io.routes`, :mod:`~starlib.io.msccl`, :mod:`~starlib.io.astra`,
:mod:`~starlib.io.infragraph`) per-tree routes, an MSCCL allreduce, ASTRA-sim's ns-3 topology and the network as
InfraGraph.

Every function here returns the file's content as bytes (``edge_list``, ``graphml``, ...) or writes it atomically
(``write_*``, through :func:`starlib.io.atomic.atomic_write`). :data:`FORMATS` names each format once, with
starlib's JSON formats, for the command line's ``--format``; :func:`render` and :func:`write_format` dispatch on the
name. docs/formats.md §6 describes each format with an example.

Vertices are written as their indices ``0..n-1`` (the order of ``graph.labels``); :func:`label_lines` (or
``labels_path`` of :func:`write_edge_list`) gives the label of each index, one JSON value per line. The integer
columns are formatted with orjson and joined by ``bytes`` templates, in blocks, without a Python loop per digit.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst.trees import EDSTSet, Tree
>>> k4 = ArrayGraph.from_edges(range(4), np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]))
>>> trees = EDSTSet([Tree(np.array([[0, 1], [1, 2], [2, 3]]), 0), Tree(np.array([[0, 2], [0, 3], [1, 3]]), 3)])
>>> print(edge_list(k4).decode(), end="")
0 1
0 2
0 3
1 2
1 3
2 3
>>> print(parent_arrays(trees).decode(), end="")
-1 0 1 2
3 3 0 -1
>>> print(anynet(k4).decode(), end="")
router 0 node 0
router 1 node 1
router 2 node 2
router 3 node 3
router 0 router 1
router 0 router 2
router 0 router 3
router 1 router 2
router 1 router 3
router 2 router 3
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from ..edst.trees import EDSTSet, Tree
from ..graphs import ArrayGraph, jsonable
from ..validation import check_flag, check_int
from .astra import check_ns3_options, ns3_map, ns3_topology
from .atomic import atomic_write, check_target
from .infragraph import infragraph
from .json_format import INPUT, encode, encode_v1, writable_edges, writable_labels
from .msccl import check_msccl_options, msccl_allreduce
from .routes import routes
from .xml_safe import xml_attr, xml_holds, xml_json, xml_text

__all__ = ["edge_list", "label_lines", "tree_edge_list", "parent_arrays", "graphml", "gml", "node_link", "anynet",
           "node_ids", "write_edge_list", "write_tree_edge_list", "write_parent_arrays", "write_graphml",
           "write_anynet", "Format", "FORMATS", "render", "write_format"]

_BLOCK = 1 << 16  # rows formatted at a time (bounds the memory of the token lists)


def _rows(template: bytes, *columns: np.ndarray) -> bytes:
    """``template % (row values)`` for every row of the integer columns, joined.

    Example
    -------
    >>> _rows(b"%s-%s;", np.array([1, 22]), np.array([-3, 4]))
    b'1--3;22-4;'
    """
    cols = [np.ascontiguousarray(c, dtype=np.int64) for c in columns]
    rows = cols[0].shape[0] if cols else 0
    out = []
    for s in range(0, rows, _BLOCK):
        tokens = [orjson.dumps(c[s:s + _BLOCK], option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].split(b",") for c in cols]
        out.append(b"".join(map(template.__mod__, zip(*tokens, strict=True))))
    return b"".join(out)


def _trees(trees: Sequence[Tree], n: int | None = None) -> EDSTSet:
    if trees is None or isinstance(trees, str | bytes) or not all(isinstance(t, Tree) for t in trees):
        raise ValueError(f"trees={trees!r:.60} is not a sequence of Tree")
    if n is not None and any(t.n != n for t in trees):
        raise ValueError(f"trees: every tree must be on the graph's n={n} vertices")
    return EDSTSet.of(trees)


# -- the topology ------------------------------------------------------------------------------------------------------

def edge_list(graph: ArrayGraph) -> bytes:
    """The graph as an edge list: one line ``u v`` per edge (``u < v``; arcs ``u -> v`` for a digraph), sorted.

    Vertex indices, no header: networkx reads it with ``nx.read_edgelist(path, nodetype=int)``, as do igraph,
    SNAP and most simulators' loaders. A vertex without an edge does not appear (:func:`label_lines` lists all).

    Parameters
    ----------
    graph : ArrayGraph
        The graph.

    Returns
    -------
    bytes

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> edge_list(ArrayGraph.from_edges("abc", np.array([[2, 1], [0, 1]])))
    b'0 1\\n1 2\\n'
    """
    _, e, _ = writable_edges(graph)
    return _rows(b"%s %s\n", e[:, 0], e[:, 1])


def label_lines(graph: ArrayGraph) -> bytes:
    """The vertex labels, one JSON value per line: line ``i`` (from 0) is the label of vertex ``i``.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> print(label_lines(ArrayGraph.from_edges([(0, 1), (0, 2)], np.array([[0, 1]]))).decode(), end="")
    [0,1]
    [0,2]
    """
    _, labels = writable_labels(graph)
    return b"".join(orjson.dumps(v) + b"\n" for v in labels)


def write_edge_list(path: str | os.PathLike, graph: ArrayGraph, labels_path: str | os.PathLike | None = None) -> Path:
    """Write :func:`edge_list` to ``path`` (and :func:`label_lines` to ``labels_path``), atomically.

    Both targets are checked before either is written.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from starlib.graphs import ArrayGraph
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> g = ArrayGraph.from_edges("ab", np.array([[0, 1]]))
    >>> write_edge_list(d / "g.txt", g, d / "g.labels").read_text(), (d / "g.labels").read_text()
    ('0 1\\n', '"a"\\n"b"\\n')
    """
    check_target(path, "path")
    if labels_path is not None:
        check_target(labels_path, "labels_path")
        atomic_write(labels_path, label_lines(graph), "labels_path")
    return atomic_write(path, edge_list(graph))


# -- the trees ---------------------------------------------------------------------------------------------------------

def tree_edge_list(trees: Sequence[Tree]) -> bytes:
    """Every tree's edges, one line ``u v t`` per edge (``t`` = the tree's index from 0), tree after tree.

    Within a tree the edges are sorted with ``u < v``. networkx reads the lines with
    ``nx.read_edgelist(path, nodetype=int, data=[("tree", int)])`` (the trees are edge-disjoint, so no line
    overwrites another); one tree is the lines whose last column is ``t``.

    Example
    -------
    >>> t = EDSTSet([Tree(np.array([[1, 0], [1, 2]]), 0), Tree(np.array([[0, 2], [2, 1]]), 2)])
    >>> print(tree_edge_list(t).decode(), end="")
    0 1 0
    1 2 0
    0 2 1
    1 2 1
    """
    ts = _trees(trees)
    if not ts:
        return b""
    e = np.concatenate([t.edges for t in ts])
    tid = np.repeat(np.arange(len(ts)), [t.edges.shape[0] for t in ts])
    return _rows(b"%s %s %s\n", e[:, 0], e[:, 1], tid)


def parent_arrays(trees: Sequence[Tree]) -> bytes:
    """One line per tree: its parent array (:meth:`~starlib.edst.trees.Tree.parent_array`), ``n`` integers.

    ``parent[v]`` is ``v``'s neighbour towards the tree's root, ``-1`` at the root. ``numpy.loadtxt(path,
    dtype=int, ndmin=2)`` reads the ``(k, n)`` array back.

    Raises
    ------
    ValueError
        If a tree does not span its ``n`` vertices (it has no parent array).

    Example
    -------
    >>> parent_arrays([Tree(np.array([[0, 1], [1, 2]]), 1)])
    b'1 -1 1\\n'
    """
    ts = _trees(trees)
    lines = [b" ".join(orjson.dumps(p, option=orjson.OPT_SERIALIZE_NUMPY)[1:-1].split(b",")) + b"\n"
             for p in ts.parent_arrays()]
    return b"".join(lines)


def write_tree_edge_list(path: str | os.PathLike, trees: Sequence[Tree]) -> Path:
    """Write :func:`tree_edge_list` to ``path`` atomically."""
    check_target(path)
    return atomic_write(path, tree_edge_list(trees))


def write_parent_arrays(path: str | os.PathLike, trees: Sequence[Tree]) -> Path:
    """Write :func:`parent_arrays` to ``path`` atomically."""
    check_target(path)
    return atomic_write(path, parent_arrays(trees))


# -- GraphML -----------------------------------------------------------------------------------------------------------

_GRAPHML_HEAD = (b"<?xml version='1.0' encoding='utf-8'?>\n"
                 b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                 b'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                 b'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                 b'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')


def graphml(graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
            params: dict | None = None, endpoints: int | None = None) -> bytes:
    """The graph as GraphML, each edge with the attribute ``tree`` (the index of the tree using it, or -1).

    What ``nx.write_graphml`` writes for :meth:`EDSTSet.to_networkx(graph) <starlib.edst.trees.EDSTSet.to_networkx>`
    with the vertices renamed to their indices (``tests/io/test_exports.py`` reads both with ``nx.read_graphml``
    and compares), formatted in blocks instead of through an XML tree, so that a million edges take a second
    rather than minutes. Nodes ``id="0"`` .. ``id="n-1"`` carry ``label`` (the label as JSON text); the graph
    carries ``network`` and ``params`` (JSON text) and, with trees, ``roots`` (the roots' ids as JSON text).
    Without trees there is no ``tree`` attribute. ``nx.read_graphml(path, node_type=int)`` reads it. A network
    read from a file (:func:`node_ids`) keeps the file's node ids instead of ``0`` .. ``n-1``, in ``roots`` too
    (a JSON list of strings, the roots' GraphML ids; a family's ``roots`` are the integers ``i`` of ``id="i"``).

    Parameters
    ----------
    graph : ArrayGraph
        The graph (directed graphs get ``edgedefault="directed"`` and no trees).
    trees : sequence of Tree, optional
        Edge-disjoint trees of ``graph``.
    network, params : str, dict, optional
        Recorded as graph data (default ``graph.name``, ``graph.params``).
    endpoints : int, optional
        Endpoints (compute nodes) per router, >= 1: each node gets the integer attribute ``endpoints``, which
        SST merlin's ``anytopo`` topology requires of every vertex (``topoAny._process_graph`` in sst-elements'
        ``src/sst/elements/merlin/topology/pymerlin-topo-any.py`` reads ``G.nodes[v]['endpoints']`` after
        ``nx.read_graphml``). Without it, no such attribute.

    Returns
    -------
    bytes
        The GraphML document, UTF-8.

    Raises
    ------
    ValueError
        If a tree edge is not in the graph or in two trees (:meth:`EDSTSet.edge_trees`).

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> text = graphml(ArrayGraph.from_edges("ab", np.array([[0, 1]])), [Tree(np.array([[0, 1]]), 0)]).decode()
    >>> print(text[text.index("  <key"):])
      <key id="network" for="graph" attr.name="network" attr.type="string" />
      <key id="params" for="graph" attr.name="params" attr.type="string" />
      <key id="roots" for="graph" attr.name="roots" attr.type="string" />
      <key id="label" for="node" attr.name="label" attr.type="string" />
      <key id="tree" for="edge" attr.name="tree" attr.type="int" />
      <graph edgedefault="undirected">
        <data key="network"></data>
        <data key="params">{}</data>
        <data key="roots">[0]</data>
        <node id="0"><data key="label">"a"</data></node>
        <node id="1"><data key="label">"b"</data></node>
        <edge source="0" target="1"><data key="tree">0</data></edge>
      </graph>
    </graphml>
    <BLANKLINE>
    """
    n, e, directed = writable_edges(graph)
    _, labels = writable_labels(graph)
    name = graph.name if network is None else network
    par = graph.params if params is None else params
    ts = None if trees is None else _trees(trees, n)
    ep = b"" if endpoints is None else b'<data key="endpoints">%d</data>' % check_int(endpoints, "endpoints", 1)

    def text(value: Any) -> bytes:  # a string as descriptive text, anything else as JSON text: both XML-safe
        return (xml_text(value) if isinstance(value, str) else xml_json(value)).encode()

    out = [_GRAPHML_HEAD]
    keys = [("network", "graph", "string"), ("params", "graph", "string")]
    keys += [("roots", "graph", "string")] if ts is not None else []
    keys += [("label", "node", "string")] + ([("endpoints", "node", "int")] if ep else [])
    keys += [("tree", "edge", "int")] if ts is not None else []
    out += [b'  <key id="%s" for="%s" attr.name="%s" attr.type="%s" />\n' % (k.encode(), f.encode(), k.encode(),
                                                                           t.encode()) for k, f, t in keys]
    out.append(b'  <graph edgedefault="%s">\n' % (b"directed" if directed else b"undirected"))
    out.append(b'    <data key="network">%s</data>\n' % text(name))
    out.append(b'    <data key="params">%s</data>\n' % text(jsonable(dict(par))))
    ids = node_ids(graph)
    if ids is not None and not all(xml_holds(str(v)) for v in ids):  # ids XML cannot hold: 0 .. n-1, labels beside
        ids = None
    if ts is not None:  # the roots as the nodes' ids: a file network's own ids, else the indices (id="i")
        out.append(b'    <data key="roots">%s</data>\n' % text([t.root if ids is None else str(ids[t.root])
                                                                 for t in ts]))
    if ids is None:  # vertex i is id="i"
        out += [b'    <node id="%d"><data key="label">%s</data>%s</node>\n' % (i, xml_json(v).encode(), ep)
                for i, v in enumerate(labels)]
        if ts is not None:
            out.append(_rows(b'    <edge source="%s" target="%s"><data key="tree">%s</data></edge>\n', e[:, 0],
                             e[:, 1], ts.edge_trees(graph)))
        else:
            out.append(_rows(b'    <edge source="%s" target="%s" />\n', e[:, 0], e[:, 1]))
    else:  # a network read from a file keeps the file's node ids
        xml_ids = [xml_attr(str(v)).encode() for v in ids]
        out += [b'    <node id=%s><data key="label">%s</data>%s</node>\n' % (x, xml_json(v).encode(), ep)
                for x, v in zip(xml_ids, labels, strict=True)]
        out += _id_rows(b'    <edge source=%s target=%s><data key="tree">%d</data></edge>\n'
                        if ts is not None else b'    <edge source=%s target=%s />\n', xml_ids, e,
                        None if ts is None else ts.edge_trees(graph))
    out.append(b"  </graph>\n</graphml>\n")
    return b"".join(out)


# -- a network read from a file: its own node ids ----------------------------------------------------------------------

def node_ids(graph: ArrayGraph) -> list[int | str] | None:
    """The node ids a writer gives a network read from a file: its labels, when they can be ids; else None.

    A graph that :mod:`starlib.io.readers` read carries the file's name in ``graph.meta["input"]``; its labels
    are the file's node ids (GraphML and node-link ids, GML labels or ids, edge-list words, anynet router
    numbers). The GraphML and node-link writers use them as ids when every label is an integer or a string and
    their texts are distinct; any other graph (a family built by name, a star product's tuple labels) is written
    with the ids ``0`` .. ``n-1`` and its labels beside them.

    Examples
    --------
    >>> g = ArrayGraph.from_edges(["r1", "r2"], np.array([[0, 1]]), meta={"input": "my.graphml"})
    >>> node_ids(g), node_ids(ArrayGraph.from_edges(["r1", "r2"], np.array([[0, 1]])))
    (['r1', 'r2'], None)
    """
    if not graph.meta.get(INPUT):
        return None
    labels = list(graph.labels)
    if not all(type(v) is str or type(v) is int for v in labels) or len({str(v) for v in labels}) != len(labels):
        return None
    return labels


def _id_rows(template: bytes, ids: Sequence[bytes], e: np.ndarray, tree: np.ndarray | None) -> list[bytes]:
    """``template % (ids[u], ids[v][, tree])`` for every edge row (a Python loop: ids are not integers)."""
    if tree is None:
        return [template % (ids[u], ids[v]) for u, v in e.tolist()]
    return [template % (ids[u], ids[v], t) for (u, v), t in zip(e.tolist(), tree.tolist(), strict=True)]


def write_graphml(path: str | os.PathLike, graph: ArrayGraph, trees: Sequence[Tree] | None = None, *,
                  network: str | None = None, params: dict | None = None) -> Path:
    """Write :func:`graphml` to ``path`` atomically."""
    check_target(path)
    return atomic_write(path, graphml(graph, trees, network=network, params=params))


# -- GML and node-link JSON (networkx's formats) -----------------------------------------------------------------------

_GML_ESCAPE = re.compile('[^ -~]|[&"]')


def _gml_text(text: str) -> bytes:
    """A GML string: printable ASCII, with ``&``, ``"`` and every other character as ``&#N;``, as networkx writes it."""
    return b'"%s"' % _GML_ESCAPE.sub(lambda m: f"&#{ord(m.group(0))};", text).encode("ascii")


def gml(graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
        params: dict | None = None) -> bytes:
    """The graph as GML, laid out as networkx's ``write_gml`` lays it out, each edge with ``tree`` when trees are given.

    Nodes ``id 0`` .. ``id n-1`` (GML ids are integers) with ``label``, the vertex's label as JSON text; the graph
    carries ``network``, ``params`` (JSON text) and, with trees, ``roots`` (the roots' GML ids, that is their
    indices, as JSON text); with trees every edge carries ``tree`` (the index of the tree using it, or -1). A
    network read from a file whose node ids are strings (:func:`node_ids`) has its ids themselves as the labels,
    not JSON text, and the graph says so with ``labels "ids"``: ``nx.read_gml(path)`` names its nodes by the
    file's ids. Strings are escaped as networkx escapes them (``&``, ``"`` and characters beyond printable ASCII as
    ``&#N;``), so ``nx.read_gml(path)`` reads the file (``label=None`` keeps the integer ids) and
    :func:`starlib.io.read_input` reads the labels back.

    Parameters
    ----------
    graph : ArrayGraph
        The graph (a directed one gets ``directed 1`` and no trees).
    trees : sequence of Tree, optional
        Edge-disjoint trees of ``graph``.
    network, params : str, dict, optional
        Recorded on the graph (default ``graph.name``, ``graph.params``).

    Returns
    -------
    bytes
        The GML text (ASCII).

    Example
    -------
    >>> print(gml(ArrayGraph.from_edges("ab", np.array([[0, 1]])), network="K2").decode(), end="")
    graph [
      network "K2"
      params "{}"
      node [
        id 0
        label "&#34;a&#34;"
      ]
      node [
        id 1
        label "&#34;b&#34;"
      ]
      edge [
        source 0
        target 1
      ]
    ]
    """
    n, e, directed = writable_edges(graph)
    _, labels = writable_labels(graph)
    ts = None if trees is None else _trees(trees, n)
    name = graph.name if network is None else network
    par = graph.params if params is None else params
    ids = node_ids(graph)
    plain = ids is not None and all(type(v) is str for v in ids)  # the file's ids as the labels networkx names by
    out = [b"graph [\n", b"  directed 1\n" if directed else b""]
    out.append(b"  network %s\n" % _gml_text(name if isinstance(name, str) else orjson.dumps(name).decode()))
    out.append(b"  params %s\n" % _gml_text(orjson.dumps(jsonable(dict(par))).decode()))
    if plain:
        out.append(b'  labels "ids"\n')
    if ts is not None:
        out.append(b"  roots %s\n" % _gml_text(orjson.dumps([t.root for t in ts]).decode()))
    out += [b"  node [\n    id %d\n    label %s\n  ]\n" % (i, _gml_text(v if plain else orjson.dumps(v).decode()))
            for i, v in enumerate(labels)]
    if ts is not None:
        out.append(_rows(b"  edge [\n    source %s\n    target %s\n    tree %s\n  ]\n", e[:, 0], e[:, 1],
                         ts.edge_trees(graph)))
    else:
        out.append(_rows(b"  edge [\n    source %s\n    target %s\n  ]\n", e[:, 0], e[:, 1]))
    out.append(b"]\n")
    return b"".join(out)


def node_link(graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
              params: dict | None = None) -> bytes:
    """The graph as networkx's node-link JSON (``nx.node_link_data``), each edge with ``tree`` when trees are given.

    One JSON object on one line: ``directed``, ``multigraph`` (false), ``graph`` (``network``, ``params`` and, with
    trees, ``roots``: the roots' indices, or their ids for a network read from a file with string ids), ``nodes``
    (``{"id": ..., "label": ...}``: the id is the vertex's index,
    or the file's node id for a network read from a file (:func:`node_ids`); the label is the vertex's label as a
    JSON value) and ``edges`` (``{"source", "target"}`` ids, and ``tree``: the index of the tree using the edge, or
    -1). ``nx.node_link_graph(json.load(f))`` reads it (networkx 3.4 and later name the list ``edges``; older
    releases need ``edges="edges"``), and so does :func:`starlib.io.read_input`.

    Parameters
    ----------
    graph : ArrayGraph
        The graph (``directed`` is true for a digraph, which gets no trees).
    trees : sequence of Tree, optional
        Edge-disjoint trees of ``graph``.
    network, params : str, dict, optional
        Recorded in ``graph`` (default ``graph.name``, ``graph.params``).

    Returns
    -------
    bytes

    Example
    -------
    >>> node_link(ArrayGraph.from_edges([(0, 1), (1, 0)], np.array([[0, 1]])), [Tree(np.array([[0, 1]]), 1)])
    b'{"directed":false,"multigraph":false,"graph":{"network":"","params":{},"roots":[1]},"nodes":[{"id":0,"label":[0,1]},{"id":1,"label":[1,0]}],"edges":[{"source":0,"target":1,"tree":0}]}\\n'
    """
    n, e, directed = writable_edges(graph)
    _, labels = writable_labels(graph)
    ts = None if trees is None else _trees(trees, n)
    head: dict[str, Any] = {"network": graph.name if network is None else network,
                            "params": jsonable(dict(graph.params if params is None else params))}
    ids = node_ids(graph)
    if ts is not None:  # the roots by the file's string ids where it has them (the reader takes strings as ids)
        named = ids is not None and all(isinstance(v, str) for v in ids)
        head["roots"] = [ids[t.root] if named else t.root for t in ts]
    label_json = [orjson.dumps(v) for v in labels]
    if ids is None:
        nodes = [b'{"id":%d,"label":%s}' % (i, lab) for i, lab in enumerate(label_json)]
        rows = (_rows(b'{"source":%s,"target":%s,"tree":%s},', e[:, 0], e[:, 1], ts.edge_trees(graph))
                if ts is not None else _rows(b'{"source":%s,"target":%s},', e[:, 0], e[:, 1]))
    else:
        id_json = [orjson.dumps(v) for v in ids]
        nodes = [b'{"id":%s,"label":%s}' % (i, lab) for i, lab in zip(id_json, label_json, strict=True)]
        rows = b"".join(_id_rows(b'{"source":%s,"target":%s,"tree":%d},' if ts is not None
                                 else b'{"source":%s,"target":%s},', id_json, e,
                                 None if ts is None else ts.edge_trees(graph)))
    return b"".join([b'{"directed":%s,"multigraph":false,"graph":' % (b"true" if directed else b"false"),
                     orjson.dumps(head), b',"nodes":[', b",".join(nodes), b'],"edges":[', rows[:-1], b"]}\n"])


# -- BookSim anynet ----------------------------------------------------------------------------------------------------

def anynet(graph: ArrayGraph, nodes_per_router: int = 1, latency: int | None = None,
           node_latency: int | None = None) -> bytes:
    """The graph as a BookSim 2 ``anynet`` network file: routers are the graph's vertices, links its edges.

    The grammar is that of ``AnyNet::readFile`` in BookSim 2's ``src/networks/anynet.cpp`` (booksim/booksim2 on
    GitHub, unchanged since 2015) and of the file's header comment and ``src/examples/anynet/README``; the user
    guide ``doc/manual.tex`` (Section "Topologies") only names the topology. A line is a *head* and *bodies*,
    words separated by single spaces, empty lines skipped, no comments::

        line := ("router" | "node") ID  { ("router" | "node") ID [LATENCY] }

    ``router a router b [L]``: a channel a -> b of latency L cycles (default 1) and, unless it is already
    listed, b -> a of latency 1 (latencies are per direction). ``router r node i [L]``: compute node ``i`` is
    attached to router ``r`` with injection and ejection latency L. Node numbers must run 0..N-1, each node on
    one router; routers are numbered 0..R-1. The configuration reads the file with ``topology = anynet;
    network_file = FILE; routing_function = min;`` (``src/examples/anynet/anynet_config``).

    This writer's choices: router ``r`` is vertex ``r``; each router gets ``nodes_per_router`` compute nodes,
    ``r*c .. r*c+c-1`` (``c = nodes_per_router``), listed first, one line per router; then one line per link,
    ``router u router v`` with ``u < v`` (BookSim adds the reverse channel), or, with ``latency``, two lines
    per link, ``router u router v L`` and ``router v router u L``, so both directions have latency L.

    Parameters
    ----------
    graph : ArrayGraph
        An undirected graph (BookSim's channels always come in both directions).
    nodes_per_router : int
        Compute nodes (BookSim's concentration) per router, >= 1.
    latency : int, optional
        Latency of every router-to-router channel in cycles, >= 1 (BookSim's default 1 when omitted).
    node_latency : int, optional
        Injection and ejection latency of every compute node in cycles, >= 1 (default 1 when omitted).

    Returns
    -------
    bytes
        The network file: one line per router (its compute nodes), then the links.

    Raises
    ------
    ValueError
        For a directed graph or an invalid count or latency.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> print(anynet(ArrayGraph.from_edges("ab", np.array([[0, 1]])), 2, latency=3).decode(), end="")
    router 0 node 0 node 1
    router 1 node 2 node 3
    router 0 router 1 3
    router 1 router 0 3
    """
    n, e, directed = writable_edges(graph)
    if directed:
        raise ValueError("graph: anynet links are bidirectional; a directed graph cannot be written")
    c = check_int(nodes_per_router, "nodes_per_router", 1)
    lat = b"" if latency is None else b" %d" % check_int(latency, "latency", 1)
    nlat = b"" if node_latency is None else b" %d" % check_int(node_latency, "node_latency", 1)
    r = np.arange(n, dtype=np.int64)
    routers = _rows(b"router %s" + (b" node %s" + nlat) * c + b"\n", r, *[r * c + j for j in range(c)])
    if latency is None:
        links = _rows(b"router %s router %s\n", e[:, 0], e[:, 1])
    else:
        both = np.stack([e, e[:, ::-1]], axis=1).reshape(-1, 2)  # u v, v u, for each edge in turn
        links = _rows(b"router %s router %s" + lat + b"\n", both[:, 0], both[:, 1])
    return routers + links


def write_anynet(path: str | os.PathLike, graph: ArrayGraph, nodes_per_router: int = 1, latency: int | None = None,
                 node_latency: int | None = None) -> Path:
    """Write :func:`anynet` to ``path`` atomically."""
    check_target(path)
    return atomic_write(path, anynet(graph, nodes_per_router, latency, node_latency))


# -- one name per format -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Format:
    """An output format: its name, what it holds, whether it needs trees, what it records, and its encoder.

    Attributes
    ----------
    name : the name the command line's ``--format`` takes.
    summary : one line for help texts.
    trees : ``"no"`` (trees are not written), ``"optional"`` or ``"required"``.
    options : the options a user sets (integers, the command line's ``--option KEY=VALUE``).
    words : ``(option, word)`` pairs: a word an option also takes instead of an integer (``("chunks", "lcm")``).
    records : what it records about the run when given: ``network`` (the family's name), ``params`` (its
        parameters), ``extra`` (further keys, such as the method and the upper bound).
    encode : ``encode(graph, trees, **options, **records) -> bytes``.
    check : ``check(**options)`` raises ``ValueError`` for a bad option value, before any work (None: the encoder
        checks them).
    """

    name: str
    summary: str
    trees: str
    options: tuple[str, ...]
    encode: Callable[..., bytes]
    records: tuple[str, ...] = ()
    check: Callable[..., Any] | None = None
    words: tuple[tuple[str, str], ...] = ()


_META = ("network", "params", "extra")


def _msccl(graph: ArrayGraph, trees: Sequence[Tree], *, network: str | None = None,
           params: Mapping[str, Any] | None = None, **options: Any) -> bytes:
    """:func:`starlib.io.msccl.msccl_allreduce`, named after the run (``"slimfly q=5: allreduce over 3 trees"``)."""
    net = graph.name if network is None else network
    par = dict(graph.params if params is None else params)
    words = " ".join(f"{k}={v}" for k, v in jsonable(par).items())
    name = f"{net or 'graph'}{' ' + words if words else ''}: allreduce over {len(trees)} trees"
    return msccl_allreduce(graph, trees, name=name, **options)

#: The integer options' ranges where the tool that reads the file, or the file's size, sets a bound:
#: ``option -> (minimum, maximum, rule)``, checked before any work (:func:`check_options`).
OPTION_RANGES: dict[str, tuple[int, int, str]] = {
    "endpoints": (1, 2**31 - 1, "1 <= endpoints <= 2147483647 (SST merlin reads a 32-bit int)"),
    "nodes_per_router": (1, 2**16, "1 <= nodes_per_router <= 65536 (compute nodes on one router)"),
    "latency": (1, 2**31 - 1, "1 <= latency <= 2147483647 cycles (BookSim reads a 32-bit int)"),
    "node_latency": (1, 2**31 - 1, "1 <= node_latency <= 2147483647 cycles (BookSim reads a 32-bit int)"),
    "hosts_per_router": (1, 2**16, "1 <= hosts_per_router <= 65536 (hosts on one switch)"),
    "bandwidth_gbps": (1, (2**63 - 1) // 10**9, "1 <= bandwidth_gbps <= 9223372036 (ns-3 holds bit/s in 64 bits)"),
    "host_bandwidth_gbps": (1, (2**63 - 1) // 10**9,
                            "1 <= host_bandwidth_gbps <= 9223372036 (ns-3 holds bit/s in 64 bits)"),
    "latency_ns": (0, 2**63 - 1, "0 <= latency_ns <= 2^63 - 1 (ns-3 holds time in 64-bit ns)"),
    "host_latency_ns": (0, 2**63 - 1, "0 <= host_latency_ns <= 2^63 - 1 (ns-3 holds time in 64-bit ns)"),
    "min_bytes": (0, 2**63 - 1, "0 <= min_bytes <= 2^63 - 1 (a 64-bit byte count)"),
    "max_bytes": (0, 2**63 - 1, "0 <= max_bytes <= 2^63 - 1 (a 64-bit byte count)"),
}

#: Bytes of output per compute node or host line, for the size check of :func:`render` (measured: about 12).
_PER_ENDPOINT_BYTES = 32


def _ranged(inner: Callable[..., Any] | None) -> Callable[..., Any]:
    """A format's option check: each option in :data:`OPTION_RANGES` first, then the format's own rules."""
    def check(**options: Any) -> Any:
        for key, value in options.items():
            if key in OPTION_RANGES and value is not None:
                lo, hi, rule = OPTION_RANGES[key]
                options[key] = check_int(value, key, lo, hi, rule=rule)
        return inner(**options) if inner is not None else options
    return check


def check_options(fmt: str, **options: Any) -> dict[str, Any]:
    """Check the options of format ``fmt`` before any work: known to the format, each in its range.

    Parameters
    ----------
    fmt : str
        A key of :data:`FORMATS`.
    **options
        The options, as :func:`render` takes them.

    Returns
    -------
    dict
        The options, integers as ``int``.

    Raises
    ------
    ValueError
        Naming the format, or the option, its value and the rule.

    Examples
    --------
    >>> check_options("anynet", nodes_per_router=4)
    {'nodes_per_router': 4}
    >>> check_options("anynet", nodes_per_router=10**20)
    Traceback (most recent call last):
    ...
    ValueError: nodes_per_router=100000000000000000000 is too large: need 1 <= nodes_per_router <= 65536 \
(compute nodes on one router)
    """
    if fmt not in FORMATS:
        raise ValueError(f"format={fmt!r} is not one of {', '.join(FORMATS)}")
    f = FORMATS[fmt]
    unknown = sorted(set(options) - set(f.options))
    if unknown:
        raise ValueError(f"format={fmt!r} takes no option {unknown[0]!r} (its options: "
                         f"{', '.join(f.options) or 'none'})")
    out = dict(options)
    _ranged(None)(**out)  # the ranges (a copy: the format's check sees the values as given)
    if f.check is not None:
        f.check(**options)
    return {k: (int(v) if k in OPTION_RANGES and v is not None else v) for k, v in out.items()}


#: Every output format by name (the JSON formats first).
FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("json", "starlib JSON, version 2: labels once, integer indices (docs/formats.md §4)", "optional", (),
           lambda g, t, **o: encode(g, t, **o), _META),
    Format("json-v1", "starlib JSON, version 1: every edge as a pair of labels (for older readers)", "optional",
           (), lambda g, t, **o: encode_v1(g, t, **o), _META),
    Format("edgelist", "topology: one 'u v' line per edge (vertex indices)", "no", (), lambda g, t: edge_list(g)),
    Format("labels", "the label of vertex i on line i, as JSON", "no", (), lambda g, t: label_lines(g)),
    Format("graphml", "GraphML; each edge's 'tree' attribute names its tree (or -1); endpoints=E for SST merlin",
           "optional", ("endpoints",), lambda g, t, **o: graphml(g, t, **o), ("network", "params"),
           _ranged(lambda endpoints=1: check_int(endpoints, "endpoints", 1))),
    Format("gml", "GML as networkx writes it; each edge's 'tree' attribute names its tree (or -1)", "optional",
           (), lambda g, t, **o: gml(g, t, **o), ("network", "params")),
    Format("node-link", "networkx node-link JSON; each edge's 'tree' names its tree (or -1)", "optional",
           (), lambda g, t, **o: node_link(g, t, **o), ("network", "params")),
    Format("anynet", "BookSim 2 anynet network file (routers = vertices)", "no",
           ("nodes_per_router", "latency", "node_latency"), lambda g, t, **o: anynet(g, **o), (), _ranged(None)),
    Format("tree-edgelist", "trees: one 'u v tree' line per tree edge", "required", (),
           lambda g, t: tree_edge_list(t)),
    Format("parents", "trees: one line per tree, its parent array (-1 at the root)", "required", (),
           lambda g, t: parent_arrays(t)),
    Format("routes", "trees: per tree parent, children, depth and next hops (JSON; table=1 adds n x n tables)",
           "required", ("table",), lambda g, t, **o: routes(g, t, names=node_ids(g), **o), ("network", "params"),
           lambda table=0: check_flag(table, "table")),
    Format("msccl-xml", "trees: an allreduce over the trees as an MSCCL/RCCL algorithm XML file", "required",
           ("chunks", "channels", "min_bytes", "max_bytes"), lambda g, t, **o: _msccl(g, t, **o),
           ("network", "params"), _ranged(check_msccl_options), (("chunks", "lcm"),)),
    Format("astra-ns3", "ASTRA-sim ns-3 topology file (hosts, then switches = vertices, then links)", "no",
           ("hosts_per_router", "bandwidth_gbps", "latency_ns", "host_bandwidth_gbps", "host_latency_ns"),
           lambda g, t, **o: ns3_topology(g, **o), (), _ranged(check_ns3_options)),
    Format("astra-ns3-map", "the names of astra-ns3's nodes: 'ID host NAME' or 'ID switch NAME' per ns-3 node",
           "no", ("hosts_per_router",), lambda g, t, **o: ns3_map(g, **o), (),
           _ranged(lambda hosts_per_router=1: check_ns3_options(hosts_per_router))),
    Format("infragraph", "InfraGraph infrastructure for ASTRA-sim 3.0 (JSON, also YAML): routers = vertices, one edge "
           "per link", "no", (), lambda g, t, **o: infragraph(g, **o), ("network", "params")),
)}


def render(fmt: str, graph: ArrayGraph, trees: Sequence[Tree] | None = None, *, network: str | None = None,
           params: Mapping[str, Any] | None = None, extra: Mapping[str, Any] | None = None, **options: Any) -> bytes:
    """The content of ``graph`` (and ``trees``) in the format named ``fmt`` (a key of :data:`FORMATS`).

    Parameters
    ----------
    fmt : str
        The format's name.
    graph : ArrayGraph
        The graph.
    trees : sequence of Tree, optional
        Its trees (required by ``tree-edgelist`` and ``parents``, not written by ``edgelist``, ``labels``,
        ``anynet``).
    network, params, extra : optional
        What the run was (the family, its parameters, further keys such as the method): each is written by the
        formats that record it (:attr:`Format.records`) and left out by the others.
    **options
        The format's options (:attr:`Format.options`), e.g. ``nodes_per_router=4`` for ``anynet``.

    Raises
    ------
    ValueError
        For an unknown format or option, or a format that needs trees called without them.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> render("anynet", ArrayGraph.from_edges("ab", np.array([[0, 1]])), latency=2)
    b'router 0 node 0\\nrouter 1 node 1\\nrouter 0 router 1 2\\nrouter 1 router 0 2\\n'
    >>> render("parents", ArrayGraph.from_edges("ab", np.array([[0, 1]])))
    Traceback (most recent call last):
    ...
    ValueError: format='parents' writes trees: give the trees
    """
    if fmt not in FORMATS:
        raise ValueError(f"format={fmt!r} is not one of {', '.join(FORMATS)}")
    f = FORMATS[fmt]
    check_options(fmt, **options)
    per = options.get("nodes_per_router", options.get("hosts_per_router"))
    if per is not None:  # one line part per endpoint: refuse a file that cannot fit, before writing it
        from ..memory import Size, check_size

        n = len(graph.labels) if isinstance(graph, ArrayGraph) else 0
        key = "nodes_per_router" if "nodes_per_router" in options else "hosts_per_router"
        check_size(Size(n * int(per), 0, n * int(per) * _PER_ENDPOINT_BYTES * 2, "endpoints"),
                   {key: int(per), "n": n}, fmt)
    if f.trees == "required" and trees is None:
        raise ValueError(f"format={fmt!r} writes trees: give the trees")
    given = {"network": network, "params": params, "extra": extra}
    recorded = {k: v for k, v in given.items() if k in f.records and v is not None}
    return f.encode(graph, trees if f.trees != "no" else None, **options, **recorded)


def write_format(path: str | os.PathLike, fmt: str, graph: ArrayGraph, trees: Sequence[Tree] | None = None,
                 **options: Any) -> Path:
    """Write :func:`render` ``(fmt, graph, trees, **options)`` to ``path`` atomically (target checked first);
    ``options`` may name what the run was (``network``, ``params``, ``extra``) as for :func:`render`.

    Example
    -------
    >>> import tempfile, pathlib
    >>> from starlib.graphs import ArrayGraph
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "k2.txt"
    >>> write_format(p, "edgelist", ArrayGraph.from_edges("ab", np.array([[0, 1]]))).read_text()
    '0 1\\n'
    """
    check_target(path)
    return atomic_write(path, render(fmt, graph, trees, **options))
