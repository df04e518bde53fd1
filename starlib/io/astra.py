"""ASTRA-sim's ns-3 network topology file: hosts (the NPUs), switches (the graph's routers) and links.

ASTRA-sim's ns-3 backend reads the file in ``SetupNetwork`` of ``scratch/common.h`` (astra-sim/astra-network-ns3,
the HPCC simulator's reader): whitespace-separated tokens read with ``operator>>``, so line breaks are only for
people::

    node_num switch_num link_num
    switch_id ... (switch_num ids)
    src dst data_rate link_delay error_rate      (link_num times)

``node_num`` counts hosts and switches; the ids listed second are the switches, every other node is a host, an
NPU whose id is its rank. ``data_rate`` is an ns-3 ``DataRate`` string (``400Gbps``), ``link_delay`` an ns-3
``Time`` string (``500ns``), ``error_rate`` a number (``0`` for none). Links are bidirectional (``QbbHelper``
installs one device at each end).

This writer's layout: router ``r`` gets ``c`` hosts, ids ``r*c .. r*c+c-1`` (``c = hosts_per_router``), so the
``N = n*c`` NPUs come first, as ASTRA-sim numbers them; router ``r`` is switch ``N + r``. Links: each host to its
switch, then each edge ``u < v`` of the graph as ``N+u N+v``, all with the same rate, delay and error rate 0.
:func:`read_ns3_topology` parses the same grammar (the round-trip tests use it).

The grammar has no comments (every token counts), so the names of the nodes go to a file of their own,
:func:`ns3_map`: one line per ns-3 node, ``ID host NAME`` or ``ID switch NAME``, ``NAME`` the router's label as
JSON (a network file's node id).

Example
-------
>>> from starlib.graphs import ArrayGraph
>>> print(ns3_topology(ArrayGraph.from_edges("ab", np.array([[0, 1]]))).decode(), end="")
4 2 3
2 3
0 2 400Gbps 500ns 0
1 3 400Gbps 500ns 0
2 3 400Gbps 500ns 0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import orjson

from ..graphs import ArrayGraph
from ..validation import check_int
from .json_format import writable_labels

__all__ = ["check_ns3_options", "ns3_topology", "ns3_map", "read_ns3_topology", "Ns3Topology"]


def check_ns3_options(hosts_per_router: int = 1, bandwidth_gbps: int = 400, latency_ns: int = 500,
                      host_bandwidth_gbps: int | None = None, host_latency_ns: int | None = None
                      ) -> tuple[int, int, int, int, int]:
    """Check the options of :func:`ns3_topology`; the host link's rate and delay default to the switch link's.

    Example
    -------
    >>> check_ns3_options(2, host_latency_ns=10)
    (2, 400, 500, 400, 10)
    """
    c = check_int(hosts_per_router, "hosts_per_router", 1)
    bw = check_int(bandwidth_gbps, "bandwidth_gbps", 1)
    lat = check_int(latency_ns, "latency_ns", 0)
    hbw = bw if host_bandwidth_gbps is None else check_int(host_bandwidth_gbps, "host_bandwidth_gbps", 1)
    hlat = lat if host_latency_ns is None else check_int(host_latency_ns, "host_latency_ns", 0)
    return c, bw, lat, hbw, hlat


def ns3_topology(graph: ArrayGraph, hosts_per_router: int = 1, bandwidth_gbps: int = 400, latency_ns: int = 500,
                 host_bandwidth_gbps: int | None = None, host_latency_ns: int | None = None) -> bytes:
    """The graph as an ASTRA-sim ns-3 topology file (the grammar of the module docstring).

    Parameters
    ----------
    graph : ArrayGraph
        An undirected graph: its vertices are the switches, its edges the switch-to-switch links.
    hosts_per_router : int
        Hosts (NPUs) attached to each switch, >= 1.
    bandwidth_gbps, latency_ns : int
        Rate (Gbit/s, >= 1) and delay (ns, >= 0) of every switch-to-switch link.
    host_bandwidth_gbps, host_latency_ns : int, optional
        The same for host-to-switch links (default: those of the switch links).

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        For a directed graph or a count, rate or delay out of range.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> print(ns3_topology(ArrayGraph.from_edges("ab", np.array([[0, 1]])), 2, 100, 1000, 200, 10).decode(), end="")
    6 2 5
    4 5
    0 4 200Gbps 10ns 0
    1 4 200Gbps 10ns 0
    2 5 200Gbps 10ns 0
    3 5 200Gbps 10ns 0
    4 5 100Gbps 1000ns 0
    """
    if graph.directed:
        raise ValueError("graph: ns-3 links are bidirectional; a directed graph cannot be written")
    c, bw, lat, hbw, hlat = check_ns3_options(hosts_per_router, bandwidth_gbps, latency_ns, host_bandwidth_gbps,
                                              host_latency_ns)
    n = int(graph.n)
    hosts = n * c
    e = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    e = np.sort(e, axis=1)
    e = e[np.lexsort((e[:, 1], e[:, 0]))]
    out = [f"{hosts + n} {n} {hosts + e.shape[0]}\n", " ".join(str(hosts + r) for r in range(n)) + "\n"]
    host_tail = f" {hbw}Gbps {hlat}ns 0\n"
    out += [f"{h} {hosts + h // c}{host_tail}" for h in range(hosts)]
    tail = f" {bw}Gbps {lat}ns 0\n"
    out += [f"{hosts + u} {hosts + v}{tail}" for u, v in e.tolist()]
    return "".join(out).encode()


def ns3_map(graph: ArrayGraph, hosts_per_router: int = 1) -> bytes:
    """Which router each node of :func:`ns3_topology` ``(graph, hosts_per_router)`` stands for, by its name.

    One line per ns-3 node, in id order: ``ID host NAME`` for the ``N = n*c`` hosts (NPU ``ID`` hangs off the
    router named ``NAME``), then ``ID switch NAME`` for the switches (switch ``N + r`` is router ``r``). ``NAME`` is
    the router's label as JSON (``"g0r0"`` for a network file's node id, ``[0,1]`` for a star product's vertex), so
    the third field of a line is ``json.loads``-able. The topology's grammar has no comments, hence a file of its own.

    Parameters
    ----------
    graph : ArrayGraph
        The graph given to :func:`ns3_topology`.
    hosts_per_router : int
        The same ``hosts_per_router``, >= 1.

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        For a bad count, or labels that cannot be written (:func:`~starlib.io.json_format.writable_labels`).

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> print(ns3_map(ArrayGraph.from_edges(["r1", "r2"], np.array([[0, 1]])), 2).decode(), end="")
    0 host "r1"
    1 host "r1"
    2 host "r2"
    3 host "r2"
    4 switch "r1"
    5 switch "r2"
    """
    c = check_ns3_options(hosts_per_router)[0]
    _, labels = writable_labels(graph)
    names = [orjson.dumps(v).decode() for v in labels]
    hosts = len(names) * c
    out = [f"{h} host {names[h // c]}\n" for h in range(hosts)]
    out += [f"{hosts + r} switch {name}\n" for r, name in enumerate(names)]
    return "".join(out).encode()


@dataclass(frozen=True)
class Ns3Topology:
    """An ns-3 topology file as read: node and switch counts, the switch ids, and the links.

    Attributes
    ----------
    nodes : node_num (hosts and switches).
    switches : the switch ids, in the file's order.
    links : ``(link_num, 2)`` int64, the ``src dst`` columns.
    rates, delays : each link's ``data_rate`` and ``link_delay`` strings.
    error_rates : each link's error rate.
    """

    nodes: int
    switches: list[int]
    links: np.ndarray
    rates: list[str]
    delays: list[str]
    error_rates: list[float]

    def switch_graph(self) -> ArrayGraph:
        """The switches and their links as a graph: switch ``switches[i]`` is vertex ``i`` (labelled by its id)."""
        index = {s: i for i, s in enumerate(self.switches)}
        both = [(index[u], index[v]) for u, v in self.links.tolist() if u in index and v in index]
        return ArrayGraph.from_edges(list(self.switches), np.array(both, dtype=np.int64).reshape(-1, 2))

    def hosts_of(self) -> dict[int, list[int]]:
        """Each switch id's hosts (ids), from the host-to-switch links."""
        sw = set(self.switches)
        out: dict[int, list[int]] = {s: [] for s in self.switches}
        for u, v in self.links.tolist():
            if (u in sw) != (v in sw):
                s, h = (u, v) if u in sw else (v, u)
                out[s].append(h)
        return {s: sorted(h) for s, h in out.items()}


def read_ns3_topology(data: bytes | str) -> Ns3Topology:
    """Parse an ns-3 topology file by the grammar of ASTRA-sim's reader (``scratch/common.h``, ``SetupNetwork``).

    Raises
    ------
    ValueError
        If a count or id is not a non-negative integer, an id is out of ``0..node_num-1``, a switch is listed
        twice, a link joins a node to itself, the error rate is not a number in ``[0, 1]``, or tokens are missing
        or left over.

    Example
    -------
    >>> t = read_ns3_topology("3 1 2\\n2\\n0 2 100Gbps 1us 0\\n1 2 100Gbps 1us 0\\n")
    >>> t.switches, t.links.tolist(), t.hosts_of()
    ([2], [[0, 2], [1, 2]], {2: [0, 1]})
    """
    tokens = (data.decode() if isinstance(data, bytes) else data).split()

    def count(i: int, what: str) -> int:
        if i >= len(tokens) or not tokens[i].isdigit():
            raise ValueError(f"ns-3 topology: token {i + 1} ({what}) must be a non-negative integer, got "
                             f"{tokens[i] if i < len(tokens) else 'end of file'!r}")
        return int(tokens[i])

    nodes, nsw, nlinks = count(0, "node_num"), count(1, "switch_num"), count(2, "link_num")
    if len(tokens) != 3 + nsw + 5 * nlinks:
        raise ValueError(f"ns-3 topology: {len(tokens)} tokens; the header promises 3 + {nsw} switch ids + 5 x "
                         f"{nlinks} link fields = {3 + nsw + 5 * nlinks}")
    switches = [count(3 + i, "switch id") for i in range(nsw)]
    if len(set(switches)) != nsw or any(s >= nodes for s in switches):
        raise ValueError(f"ns-3 topology: switch ids must be distinct and < node_num={nodes}")
    links, rates, delays, errors = [], [], [], []
    for j in range(nlinks):
        i = 3 + nsw + 5 * j
        u, v = count(i, "link src"), count(i + 1, "link dst")
        if u >= nodes or v >= nodes or u == v:
            raise ValueError(f"ns-3 topology: link {j + 1} '{u} {v}' needs two different ids < node_num={nodes}")
        try:
            err = float(tokens[i + 4])
        except ValueError:
            err = -1.0
        if not 0.0 <= err <= 1.0:
            raise ValueError(f"ns-3 topology: link {j + 1} error_rate={tokens[i + 4]!r} is not a number in [0, 1]")
        links.append((u, v))
        rates.append(tokens[i + 2])
        delays.append(tokens[i + 3])
        errors.append(err)
    return Ns3Topology(nodes, switches, np.array(links, dtype=np.int64).reshape(-1, 2), rates, delays, errors)
