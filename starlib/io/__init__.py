"""Files: starlib's JSON format (version 2, reading version 1 too) and exports that other tools read.

Every writer writes atomically (:mod:`starlib.io.atomic`): the new file appears whole, or the old one stays.
docs/formats.md describes every format with an example.

=============================  ====================================================================
function                       what
=============================  ====================================================================
:func:`write_json`             graph (and trees) as starlib JSON version 2 (``version=1``: the old one)
:func:`read_json`              read version 1 or 2, every structural rule checked (``ValueError``)
:func:`encode`, :func:`decode` the same to and from bytes
:func:`export`, :func:`render` any format of :data:`FORMATS` by name, to a file or to bytes
:func:`write_edge_list`, ...   the exports one by one (:mod:`starlib.io.exports`)
:func:`check_target`           can this path be written? (before a long computation)
=============================  ====================================================================

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> sorted(FORMATS)
['anynet', 'edgelist', 'graphml', 'json', 'json-v1', 'labels', 'parents', 'tree-edgelist']
>>> decode(render("json", ArrayGraph.from_edges("ab", np.array([[0, 1]])))).graph.labels
['a', 'b']
"""

from .atomic import atomic_open, atomic_write, check_target
from .exports import (
    FORMATS,
    Format,
    anynet,
    edge_list,
    export,
    graphml,
    label_lines,
    parent_arrays,
    render,
    tree_edge_list,
    write_anynet,
    write_edge_list,
    write_graphml,
    write_parent_arrays,
    write_tree_edge_list,
)
from .json_format import FORMAT, MAX_LABEL_DEPTH, VERSION, NetworkFile, decode, encode, encode_v1, read_json, write_json

__all__ = ["atomic_open", "atomic_write", "check_target", "FORMATS", "Format",
           "anynet", "edge_list", "export", "graphml", "label_lines", "parent_arrays", "render", "tree_edge_list",
           "write_anynet", "write_edge_list", "write_graphml", "write_parent_arrays", "write_tree_edge_list",
           "FORMAT", "MAX_LABEL_DEPTH", "VERSION", "NetworkFile", "decode", "encode", "encode_v1", "read_json",
           "write_json"]
