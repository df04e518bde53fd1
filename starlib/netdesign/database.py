"""The connection database and its validity rules: sections 1.3 and 4 of the network-design notes.

The notes (section 4) keep a network as a *database of connections*: compute nodes are negative integers,
routers positive integers, and every link is an unordered pair ``[x, y]``. The rules a valid database obeys
come from section 1.3 (the toy model's constraints), section 4 ("features needed": routers of arbitrary port
count, no router connected to itself) and section 6.1 (every compute node reaches every other, the ports of
every node are respected); :func:`validate_connections` lists them in the order it checks them.

A canonical database (:func:`canonical_connections`) is indexed once (:meth:`NetworkIndex.of`): compute nodes
``0..N-1`` in the order -1, -2, ..., routers ``0..M-1`` in increasing label order; the hop counts
(:mod:`~starlib.netdesign.hops`), the alterations and the fitness functions work on those index arrays.
:func:`check_compute_label` is the one check that a label names a compute node.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ..graphs import ArrayGraph
from ..validation import check_int

__all__ = ["NOTES_EXAMPLE_CONNECTIONS", "canonical_connections", "NetworkIndex", "check_compute_label",
           "validate_connections", "is_valid_connections", "compute_nodes", "router_labels", "port_counts",
           "to_array_graph"]

#: The connections of the notes' section 8.2, eq. (21) (drawn in their Fig. 21).
NOTES_EXAMPLE_CONNECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 4), (-2, 4), (-2, 5), (-3, 5), (3, 5), (1, 3), (1, 2), (2, 4))


def canonical_connections(connections: Any) -> np.ndarray:
    """The database as an ``(E, 2)`` int64 array, each pair sorted ascending, rows sorted; duplicates kept.

    A compute link reads ``[c, r]`` (``c < 0 < r``), a router link ``[r1, r2]`` with ``r1 < r2``.
    No validity rule is checked here (see :func:`validate_connections`).

    Parameters
    ----------
    connections : array-like of integer pairs.

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ValueError
        If the input is not a non-empty list of integer pairs.

    Examples
    --------
    >>> canonical_connections([[4, -1], [2, 1]]).tolist()
    [[-1, 4], [1, 2]]

    References
    ----------
    Network-design notes, section 4 ("connections pairs ... unordered pairs of positive (router) and
    negative (computer) integer indices").
    """
    try:
        a = np.asarray(connections)
    except ValueError as exc:  # ragged input
        raise ValueError(f"connections must be a list of integer pairs ({exc})") from None
    if a.size == 0:
        raise ValueError("connections is empty: a network needs at least one pair")
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError(f"connections has shape {a.shape}; it must be a list of pairs, shape (E, 2)")
    if not np.issubdtype(a.dtype, np.integer):
        if np.issubdtype(a.dtype, np.floating) and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError(f"connections must hold integer labels, got dtype {a.dtype}")
    a = np.sort(a.astype(np.int64), axis=1)
    order = np.lexsort((a[:, 1], a[:, 0]))
    return a[order]


@dataclass(frozen=True)
class NetworkIndex:
    """A canonical database as index arrays: compute nodes ``0..N-1`` (labels -1, -2, ...), routers ``0..M-1``.

    Made by :meth:`of` from the rows of :func:`canonical_connections` (or :func:`validate_connections`); the
    rows are not checked again. The hop counts, the alterations and the fitness functions work on these arrays.

    Attributes
    ----------
    rows : numpy.ndarray
        The canonical ``(E, 2)`` database the index was made from.
    nodes : numpy.ndarray
        Compute-node labels in index order: -1, -2, ... (decreasing).
    routers : numpy.ndarray
        Router labels in index order (increasing).
    comp : numpy.ndarray
        Boolean mask of the compute links among ``rows`` (first label negative).
    ci, cr : numpy.ndarray
        For every compute link, in row order: the compute node's index and the router's index.
    ru, rv : numpy.ndarray
        For every router link, in row order: the indices of its two routers (``ru < rv``).

    Examples
    --------
    >>> net = NetworkIndex.of(canonical_connections(NOTES_EXAMPLE_CONNECTIONS))
    >>> net.N, net.M, net.nodes.tolist(), net.ci.tolist(), net.cr.tolist()
    (3, 5, [-1, -2, -3], [2, 1, 1, 0], [4, 3, 4, 3])
    """

    rows: np.ndarray
    nodes: np.ndarray
    routers: np.ndarray
    comp: np.ndarray
    ci: np.ndarray
    cr: np.ndarray
    ru: np.ndarray
    rv: np.ndarray

    @property
    def N(self) -> int:
        """Number of compute nodes."""
        return len(self.nodes)

    @property
    def M(self) -> int:
        """Number of routers."""
        return len(self.routers)

    @classmethod
    def of(cls, rows: np.ndarray) -> NetworkIndex:
        """The index of a canonical database (the output of :func:`canonical_connections`), not re-checked.

        Parameters
        ----------
        rows : numpy.ndarray
            A canonical ``(E, 2)`` int64 database.

        Returns
        -------
        NetworkIndex
        """
        comp = rows[:, 0] < 0
        nodes = np.unique(rows[comp, 0])[::-1].copy()
        rlab = np.concatenate([rows[comp, 1], rows[~comp].ravel()])
        routers = np.unique(rlab)
        ci = len(nodes) - 1 - np.searchsorted(nodes[::-1], rows[comp, 0])
        cr = np.searchsorted(routers, rows[comp, 1])
        ru = np.searchsorted(routers, rows[~comp, 0])
        rv = np.searchsorted(routers, rows[~comp, 1])
        return cls(rows, nodes, routers, comp, ci, cr, ru, rv)

    def router_adjacency(self) -> sp.csr_matrix:
        """The ``(M, M)`` adjacency matrix of the router graph (router links only; int8 entries).

        Returns
        -------
        scipy.sparse.csr_matrix
        """
        M = self.M
        r = np.concatenate([self.ru, self.rv])
        c = np.concatenate([self.rv, self.ru])
        return sp.csr_matrix((np.ones(len(r), dtype=np.int8), (r, c)), shape=(M, M))

    def unreachable_pair(self) -> tuple[int, int] | None:
        """A pair of compute indices that cannot reach each other through routers only, or None (rule 6 of
        :func:`validate_connections`).

        Returns
        -------
        tuple of int, or None

        Examples
        --------
        >>> NetworkIndex.of(canonical_connections([[-1, 1], [-2, 2]])).unreachable_pair()
        (0, 1)
        """
        if self.M == 0:
            return (0, 1)
        _, lab = csgraph.connected_components(self.router_adjacency(), directed=False)
        comps = lab[self.cr]
        if comps.size and np.all(comps == comps[0]):
            return None
        K = int(lab.max()) + 1
        B = sp.csr_matrix((np.ones(len(comps), dtype=np.int32), (self.ci, comps)), shape=(self.N, K))
        share = (B @ B.T).toarray() > 0
        bad = np.argwhere(~share)
        if bad.size == 0:
            return None
        i, j = bad[0]
        return int(i), int(j)


def _ports_map(name: str, ports: Any, labels: np.ndarray) -> dict[int, int] | None:
    """Port count per label: ``ports`` is None (unchecked), one count for all ``labels`` or a mapping."""
    if ports is None:
        return None
    if isinstance(ports, Mapping):
        return {int(k): check_int(v, f"{name}[{k}]", 0) for k, v in ports.items()}
    p = check_int(ports, name, 0)
    return {int(x): p for x in labels}


def check_compute_label(value: Any, name: str, nodes: Collection[int]) -> int:
    """``value`` as an int if it is one of the compute-node labels ``nodes`` of a database.

    Parameters
    ----------
    value : the label to check.
    name : the argument's name, for the message.
    nodes : the database's compute-node labels (a set, or a mapping keyed by label).

    Returns
    -------
    int
        The label, a Python int.

    Raises
    ------
    ValueError
        If ``value`` is not an integer or not one of ``nodes``.

    Examples
    --------
    >>> check_compute_label(-2, "a", {-1, -2, -3})
    -2
    >>> try:
    ...     check_compute_label(4, "a", {-1, -2, -3})
    ... except ValueError as e:
    ...     print(e)
    a=4 is not a compute node of the connections (compute nodes -1, -2, -3)
    """
    label = check_int(value, name)
    if label not in nodes:
        listed = sorted(nodes, reverse=True)
        shown = ", ".join(map(str, listed[:8])) + (", ..." if len(listed) > 8 else "")
        raise ValueError(f"{name}={value!r} is not a compute node of the connections (compute nodes {shown})")
    return label


def validate_connections(connections: Any, router_ports: int | Mapping[int, int] | None = None,
                         node_ports: int | Mapping[int, int] | None = None, *, full: bool = False) -> np.ndarray:
    """Check the notes' validity rules and return the canonical database.

    Rules, checked in this order (the first one broken raises):

    1. labels are non-zero (negative: compute node, positive: router);
    2. a compute node plugs into routers only (no pair of two compute nodes);
    3. no router is connected to itself;
    4. no pair appears twice: no compute node plugged twice into the same router, no doubled router
       link (starlib keeps the network a simple graph);
    5. port counts are respected: a router uses at most ``router_ports`` ports and a compute node at
       most ``node_ports`` (exactly, with ``full=True``: every port used); routers may differ;
    6. there are at least two compute nodes, and every compute node reaches every other through a path
       whose inner vertices are routers only.

    Parameters
    ----------
    connections : array-like of integer pairs.
    router_ports : ports per router (one int for all, or a mapping router label -> ports); None: unchecked.
    node_ports : ports per compute node (int or mapping); None: unchecked.
    full : require every port of the given port counts to be used (section 1.3 and 6.1 constraints).

    Returns
    -------
    numpy.ndarray
        The canonical ``(E, 2)`` database (:func:`canonical_connections`).

    Raises
    ------
    ValueError
        Naming the rule that is broken and the pair or node that breaks it.

    Examples
    --------
    >>> validate_connections(NOTES_EXAMPLE_CONNECTIONS).shape
    (8, 2)
    >>> try:
    ...     validate_connections([[-1, 4], [-1, 4], [-2, 4]])
    ... except ValueError as e:
    ...     print(e)
    connections: pair [-1, 4] appears 2 times; a compute node plugs into a router at most once

    References
    ----------
    Network-design notes, section 1.3 (constraints), section 4 ("features needed") and section 6.1.
    """
    rows = canonical_connections(connections)
    if np.any(rows == 0):
        raise ValueError("connections: label 0 is neither a compute node (negative) nor a router (positive)")
    cc = rows[:, 1] < 0
    if cc.any():
        a, b = rows[cc][0].tolist()
        raise ValueError(f"connections: pair [{a}, {b}] joins two compute nodes; compute nodes plug into routers only")
    loop = rows[:, 0] == rows[:, 1]
    if loop.any():
        raise ValueError(f"connections: router {int(rows[loop][0, 0])} is connected to itself")
    same = np.all(rows[1:] == rows[:-1], axis=1)
    if same.any():
        a, b = rows[1:][same][0].tolist()
        times = int(np.sum(np.all(rows == [a, b], axis=1)))
        what = ("a compute node plugs into a router at most once" if a < 0
                else "two routers are linked at most once")
        raise ValueError(f"connections: pair [{a}, {b}] appears {times} times; {what}")
    net = NetworkIndex.of(rows)
    deg_nodes = np.bincount(net.ci, minlength=net.N)
    deg_routers = np.bincount(np.concatenate([net.cr, net.ru, net.rv]), minlength=net.M)
    for name, ports, labels, deg, kind in (("router_ports", router_ports, net.routers, deg_routers, "router"),
                                           ("node_ports", node_ports, net.nodes, deg_nodes, "compute node")):
        pm = _ports_map(name, ports, labels)
        if pm is None:
            continue
        used = {int(x): int(d) for x, d in zip(labels, deg, strict=True)}
        for lab in sorted(set(pm) | set(used), key=abs):
            have = pm.get(lab)
            u = used.get(lab, 0)
            if have is None:
                raise ValueError(f"{name}: {kind} {lab} is in the connections but has no port count")
            if u > have:
                raise ValueError(f"{name}: {kind} {lab} uses {u} ports but has {have}")
            if full and u < have:
                raise ValueError(f"{name}: {kind} {lab} uses {u} of its {have} ports; full=True requires all")
    if net.N < 2:
        raise ValueError(f"connections: need at least two compute nodes, got {net.N}")
    bad = net.unreachable_pair()
    if bad is not None:
        a, b = (int(net.nodes[i]) for i in bad)
        raise ValueError(f"connections: compute nodes {a} and {b} cannot reach each other through routers")
    return rows


def is_valid_connections(connections: Any, router_ports: int | Mapping[int, int] | None = None,
                         node_ports: int | Mapping[int, int] | None = None, *, full: bool = False) -> bool:
    """True if :func:`validate_connections` accepts the database, False otherwise.

    Parameters
    ----------
    connections, router_ports, node_ports, full : as in :func:`validate_connections`.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_valid_connections([[-1, 1], [-2, 2]])     # two routers that are not linked
    False

    References
    ----------
    Network-design notes, sections 1.3, 4 and 6.1 (the validity rules).
    """
    try:
        validate_connections(connections, router_ports, node_ports, full=full)
    except ValueError:
        return False
    return True


def compute_nodes(connections: Any) -> list[int]:
    """Compute-node labels of a database, in the order -1, -2, ... (decreasing).

    Parameters
    ----------
    connections : array-like of integer pairs (not validated; anything else raises ``ValueError``).

    Returns
    -------
    list of int
        The negative labels, -1 first: row ``i`` of :func:`~starlib.netdesign.hops.all_pairs_hops` is node ``i``.

    Examples
    --------
    >>> compute_nodes([[-2, 1], [-1, 1], [-3, 1]])
    [-1, -2, -3]
    """
    return NetworkIndex.of(canonical_connections(connections)).nodes.tolist()


def router_labels(connections: Any) -> list[int]:
    """Router labels of a database, increasing.

    Parameters
    ----------
    connections : as in :func:`compute_nodes`.

    Returns
    -------
    list of int
        The positive labels, smallest first; their number is ``M``, the routers the network uses.

    Examples
    --------
    >>> router_labels(NOTES_EXAMPLE_CONNECTIONS)
    [1, 2, 3, 4, 5]
    """
    return NetworkIndex.of(canonical_connections(connections)).routers.tolist()


def port_counts(connections: Any) -> dict[int, int]:
    """Ports in use at every node (compute nodes and routers), keyed by label in increasing label order.

    Parameters
    ----------
    connections : as in :func:`compute_nodes`.

    Returns
    -------
    dict
        label -> number of pairs it appears in.

    Examples
    --------
    >>> port_counts(NOTES_EXAMPLE_CONNECTIONS)
    {-3: 1, -2: 2, -1: 1, 1: 2, 2: 2, 3: 2, 4: 3, 5: 3}
    """
    rows = canonical_connections(connections)
    lab, cnt = np.unique(rows.ravel(), return_counts=True)
    return {int(a): int(b) for a, b in zip(lab, cnt, strict=True)}


def to_array_graph(connections: Any, name: str = "netdesign", params: dict | None = None) -> ArrayGraph:
    """The database as an :class:`~starlib.graphs.ArrayGraph` (compute nodes -1, -2, ... first, then routers).

    ``meta["compute"]`` and ``meta["routers"]`` list the labels of each kind.

    Parameters
    ----------
    connections : a valid database (:func:`validate_connections` raises ``ValueError`` otherwise).
    name, params : recorded on the graph.

    Returns
    -------
    ArrayGraph
        Vertices ``0..N-1`` are the compute nodes -1, -2, ..., then the routers in increasing label order.

    Examples
    --------
    >>> g = to_array_graph(NOTES_EXAMPLE_CONNECTIONS)
    >>> g.n, g.m, g.labels[:3]
    (8, 8, [-1, -2, -3])
    """
    rows = validate_connections(connections)
    net = NetworkIndex.of(rows)
    labels = net.nodes.tolist() + net.routers.tolist()
    pos = {lab: i for i, lab in enumerate(labels)}
    e = np.array([[pos[a], pos[b]] for a, b in rows.tolist()], dtype=np.int64)
    return ArrayGraph.from_edges(labels, e, name=name, params=dict(params or {}),
                                 meta={"compute": net.nodes.tolist(), "routers": net.routers.tolist()})

