"""The network as an InfraGraph infrastructure description, the network description ASTRA-sim 3.0 reads.

InfraGraph (the PyPI package ``infragraph``, keysight's OpenAPI model ``Infrastructure``) describes a network as
*devices* (each a set of *components*: switches, NICs, xpus, ...), *instances* of the devices, *links* and
*edges* between the components of instances. Its own entry point, ``InfraGraphService().set_graph(text)``
(``infragraph/infragraph_service.py``), reads the description (YAML or JSON: it calls ``yaml.safe_load``),
expands it and builds a networkx graph whose vertices are the components, named
``INSTANCE.INDEX.COMPONENT.INDEX``.

The file written here: one device ``router`` with one component ``switch`` (``choice: switch``, count 1) and no
internal edges; one instance ``routers`` of it with a count of ``n`` (vertex ``i`` is router ``i``, the graph
vertex ``routers.i.switch.0``); one link ``link``; one edge per edge ``u - v`` of the graph (``u < v``, sorted),
``one2one`` from ``routers[u]`` ``switch[0]`` to ``routers[v]`` ``switch[0]``. So the service's graph has the
``n`` vertices and the edges of the network, with the names above. The trees are not written (the InfraGraph
schema describes hardware). The infrastructure's ``name`` is ``starlib`` and the network's name, with every
character the schema's name pattern ``^[\\sa-zA-Z0-9-_()><\\[\\]]+$`` does not allow as ``_``; its ``description``
carries the network's name and parameters as JSON text.

The text is JSON (ASCII, every other character escaped), which is also YAML: the owner reads either with
``yaml.safe_load``, so a ``.infragraph.yaml`` and a ``.infragraph.json`` file hold the same bytes.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> text = infragraph(ArrayGraph.from_edges("abc", np.array([[0, 1], [1, 2]])), network="P3").decode()
>>> print(text[text.index('  "edges"'):], end="")
  "edges": [
    {"ep1": {"instance": "routers[0]", "component": "switch[0]"}, "ep2": {"instance": "routers[1]", \
"component": "switch[0]"}, "link": "link", "scheme": "one2one"},
    {"ep1": {"instance": "routers[1]", "component": "switch[0]"}, "ep2": {"instance": "routers[2]", \
"component": "switch[0]"}, "link": "link", "scheme": "one2one"}
  ]
}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..graphs import ArrayGraph, jsonable
from .json_format import writable_edges

__all__ = ["infragraph", "infragraph_name"]

_NOT_IN_NAME = re.compile(r"[^\sa-zA-Z0-9\-_()><\[\]]")
_EDGE = ('    {"ep1": {"instance": "routers[%d]", "component": "switch[0]"}, "ep2": {"instance": "routers[%d]", '
         '"component": "switch[0]"}, "link": "link", "scheme": "one2one"}')


def infragraph_name(network: Any) -> str:
    """The infrastructure's name: ``starlib`` and the network's name, each character the schema's name pattern
    does not allow as ``_`` (so it never equals the device, instance or link names the file uses).

    Example
    -------
    >>> infragraph_name("slimfly q=5"), infragraph_name(None)
    ('starlib slimfly q_5', 'starlib graph')
    """
    text = network if isinstance(network, str) and network else "graph"
    return _NOT_IN_NAME.sub("_", f"starlib {text}")


def infragraph(graph: ArrayGraph, *, network: str | None = None, params: Mapping[str, Any] | None = None) -> bytes:
    """The graph as an InfraGraph infrastructure (JSON, also YAML): routers ``0..n-1`` and one edge per link.

    Parameters
    ----------
    graph : ArrayGraph
        An undirected graph (InfraGraph's graph is undirected).
    network, params : optional
        The network's name and parameters, recorded in the ``name`` and ``description`` (default ``graph.name``,
        ``graph.params``).

    Returns
    -------
    bytes
        The description, ASCII: ``InfraGraphService().set_graph(text)`` builds a graph of ``n`` vertices
        ``routers.i.switch.0`` and the graph's edges.

    Raises
    ------
    ValueError
        For a directed graph.

    Example
    -------
    >>> import numpy as np
    >>> from starlib.graphs import ArrayGraph
    >>> lines = infragraph(ArrayGraph.from_edges("ab", np.array([[0, 1]])), network="K2").decode().splitlines()
    >>> print(*lines[:4], sep=chr(10))
    {
      "name": "starlib K2",
      "description": "starlib network \\"K2\\", parameters {}: router i is the vertex routers.i.switch.0",
      "devices": [{"name": "router", "description": "a router of the network", "components": [
    """
    n, e, directed = writable_edges(graph)
    if directed:
        raise ValueError("graph: InfraGraph's edges are undirected; a directed graph cannot be written")
    name = graph.name if network is None else network
    par = jsonable(dict(graph.params if params is None else params))
    about = (f"starlib network {json.dumps(name)}, parameters {json.dumps(par, sort_keys=True)}: router i is the "
             f"vertex routers.i.switch.0")
    head = [
        "{",
        f'  "name": {json.dumps(infragraph_name(name))},',
        f'  "description": {json.dumps(about)},',
        '  "devices": [{"name": "router", "description": "a router of the network", "components": [',
        '    {"name": "switch", "description": "the router", "count": 1, "choice": "switch"}],',
        '    "links": [], "edges": []}],',
        '  "links": [{"name": "link", "description": "a link of the network"}],',
        f'  "instances": [{{"name": "routers", "device": "router", "count": {int(n)}}}],',
    ]
    rows = np.asarray(e, dtype=np.int64).tolist()
    body = ",\n".join(_EDGE % (u, v) for u, v in rows)
    tail = ['  "edges": [', body, "  ]", "}"] if rows else ['  "edges": []', "}"]
    return ("\n".join(head + tail) + "\n").encode("ascii")
