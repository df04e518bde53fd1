"""Files: starlib's JSON format (version 2, reading version 1 too), exports that other tools read, and networks read
from the files of other tools.

Every writer writes atomically (:mod:`starlib.io.atomic`): the new file appears whole, or the old one stays.
docs/formats.md describes every format with an example.

=============================  ====================================================================
function                       what
=============================  ====================================================================
:func:`write_json`             graph (and trees) as starlib JSON version 2 (``version=1``: the old one)
:func:`read_json`              read version 1 or 2, every structural rule checked (``ValueError``)
:func:`encode`, :func:`decode` the same to and from bytes (:mod:`starlib.io.json_format`)
:func:`write_format`, :func:`render` any format of :data:`FORMATS` by name, to a file or to bytes
:func:`write_edge_list`, ...   the exports one by one (:mod:`starlib.io.exports`)
:func:`routes`                 per-tree routing: parent, children, depth, next hops (:mod:`starlib.io.routes`)
:func:`msccl_allreduce`        an allreduce over the trees as MSCCL XML (:mod:`starlib.io.msccl`)
:func:`msccl_schedule`         any allreduce ``Schedule`` (:mod:`starlib.allreduce.schedule`) as MSCCL XML, with
                               the host and router of every rank (:func:`msccl_rank_map`)
:func:`replay_msccl`           replay such a file: limits, deadlock, races, every chunk reduced once
                               (:mod:`starlib.io.msccl_replay`)
:func:`ns3_topology`           ASTRA-sim's ns-3 topology file, and :func:`read_ns3_topology` (:mod:`starlib.io.astra`);
                               :func:`ns3_map` names its nodes (the grammar has no comments)
:func:`infragraph`             the network as an InfraGraph infrastructure, ASTRA-sim 3.0's network description
                               (:mod:`starlib.io.infragraph`)
:func:`read_input`             a network (and its trees) from a file of any format of :data:`INPUT_FORMATS`:
                               GraphML, GML, node-link JSON, an edge list, BookSim anynet, starlib JSON
                               (:mod:`starlib.io.readers`)
:func:`check_target`           can this path be written? (before a long computation)
=============================  ====================================================================

Every XML file (GraphML, MSCCL) is written and read through :mod:`starlib.io.xml_safe`: text that XML 1.0 holds,
and the guard that refuses entity declarations before the parser expands any.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> sorted(FORMATS)  # doctest: +NORMALIZE_WHITESPACE
['anynet', 'astra-ns3', 'astra-ns3-map', 'edgelist', 'gml', 'graphml', 'infragraph', 'json', 'json-v1', 'labels',
 'msccl-xml', 'node-link', 'parents', 'routes', 'tree-edgelist']
>>> sorted(INPUT_FORMATS)
['anynet', 'edgelist', 'gml', 'graphml', 'json', 'node-link']
>>> decode(render("json", ArrayGraph.from_edges("ab", np.array([[0, 1]])))).graph.labels
['a', 'b']
"""

from .astra import Ns3Topology, ns3_map, ns3_topology, read_ns3_topology
from .atomic import atomic_open, atomic_write, check_target
from .exports import (
    FORMATS,
    Format,
    anynet,
    edge_list,
    gml,
    graphml,
    label_lines,
    node_ids,
    node_link,
    parent_arrays,
    render,
    tree_edge_list,
    write_anynet,
    write_edge_list,
    write_format,
    write_graphml,
    write_parent_arrays,
    write_tree_edge_list,
)
from .infragraph import infragraph
from .json_format import (
    FORMAT,
    INPUT,
    MAX_LABEL_DEPTH,
    VERSION,
    NetworkFile,
    decode,
    encode,
    encode_v1,
    write_json,
)
from .msccl import MSCCL_LIMITS, msccl_allreduce, msccl_rank_map, msccl_schedule
from .msccl_replay import ReplayReport, replay_msccl
from .readers import (
    INPUT_FORMATS,
    InputFormat,
    decode_input,
    input_formats_for,
    read_estimate,
    read_file,
    read_input,
    read_json,
)
from .routes import next_hop, next_hop_table, read_routes, routes

__all__ = ["atomic_open", "atomic_write", "check_target", "FORMATS", "Format",
           "anynet", "edge_list", "write_format", "gml", "graphml", "label_lines", "node_ids", "node_link",
           "parent_arrays",
           "render", "tree_edge_list", "write_anynet", "write_edge_list", "write_graphml", "write_parent_arrays",
           "write_tree_edge_list", "FORMAT", "INPUT", "MAX_LABEL_DEPTH", "VERSION", "NetworkFile", "decode", "encode",
           "encode_v1", "read_json", "write_json", "INPUT_FORMATS", "InputFormat", "decode_input", "input_formats_for",
           "read_estimate", "read_file", "read_input", "Ns3Topology", "ns3_map", "ns3_topology", "read_ns3_topology",
           "MSCCL_LIMITS", "msccl_allreduce", "msccl_rank_map", "msccl_schedule", "ReplayReport", "replay_msccl",
           "next_hop", "next_hop_table", "read_routes", "routes", "infragraph"]
