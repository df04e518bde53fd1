"""Hop counts between compute nodes through routers only: sections 1.3, 5 and 8.2-8.3 of the network-design notes.

Section 8.2 of the notes: a route between two compute nodes may pass through routers only, never through
another compute node; for compute nodes ``A`` and ``B`` keep ``A``, ``B`` and all routers and take the shortest
path (:func:`router_hops` does exactly that). For all pairs at once (sections 5 and 8.3.1),
:func:`all_pairs_hops` searches the router graph breadth-first from every router that holds a compute node;
then ``hops(a, b) = 1 + min dist(r, s)`` over the routers ``r`` of ``a`` and ``s`` of ``b``.

Units: a hop count is the number of *routers* on the route by default (section 1.3: two nodes on one router
are 1 hop apart, Figs. 3-6); ``count="links"`` counts links instead, one more, the convention of the notes'
Fig. 21 (where the route from -1 to -3 has 6 links and 5 routers). The statistics run over the ``N(N-1)/2``
unordered pairs of section 1.4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
import numpy as np
import scipy.sparse.csgraph as csgraph

from ..validation import check_choice
from .database import NetworkIndex, check_compute_label, validate_connections

__all__ = ["HOP_COUNTS", "router_hops", "hop_matrix", "all_pairs_hops", "HopStatistics", "hop_statistics"]

#: What a hop count counts: ``"routers"`` on the route (section 1.3) or ``"links"`` (Fig. 21; one more).
HOP_COUNTS: tuple[str, ...] = ("routers", "links")


def _links_extra(count: str) -> int:
    """0 for ``count="routers"``, 1 for ``"links"``: a route through ``r`` routers has ``r + 1`` links."""
    return HOP_COUNTS.index(check_choice(count, "count", HOP_COUNTS))


def router_hops(connections: Any, a: int, b: int, count: str = "routers") -> int:
    """Shortest route between compute nodes ``a`` and ``b`` whose inner vertices are routers only.

    The notes' method, literally: keep ``a``, ``b`` and all routers, drop every other compute node, and
    take the shortest path (breadth-first search in networkx).

    Parameters
    ----------
    connections : a valid database (:func:`validate_connections`).
    a, b : compute-node labels (negative).
    count : ``"routers"`` (routers on the route; section 1.3) or ``"links"`` (links; Fig. 21).

    Returns
    -------
    int
        0 when ``a == b``.

    Raises
    ------
    ValueError
        If the database is invalid, ``a`` or ``b`` is not one of its compute nodes, or ``count`` is unknown.

    Examples
    --------
    >>> from starlib.netdesign import NOTES_EXAMPLE_CONNECTIONS
    >>> router_hops(NOTES_EXAMPLE_CONNECTIONS, -1, -3), router_hops(NOTES_EXAMPLE_CONNECTIONS, -1, -3, "links")
    (5, 6)

    References
    ----------
    Network-design notes, section 8.2 ("Routes between compute nodes can only use positive nodes").
    """
    extra = _links_extra(count)
    rows = validate_connections(connections)
    nodes = set(NetworkIndex.of(rows).nodes.tolist())
    a, b = check_compute_label(a, "a", nodes), check_compute_label(b, "b", nodes)
    if a == b:
        return 0
    keep = (rows[:, 0] > 0) | (rows[:, 0] == a) | (rows[:, 0] == b)
    g = nx.Graph()
    g.add_edges_from(map(tuple, rows[keep].tolist()))
    length = nx.shortest_path_length(g, a, b)  # links; the routers on the route are one fewer
    return int(length - 1 + extra)


def hop_matrix(net: NetworkIndex, count: str = "routers") -> np.ndarray:
    """Hop counts of the shortest router-only route between every two compute nodes of an indexed database.

    The work of :func:`all_pairs_hops` on a database already checked and indexed (for callers that score many
    databases, such as :mod:`~starlib.netdesign.fitness`).

    Parameters
    ----------
    net : NetworkIndex
        The index of a valid database (:meth:`~starlib.netdesign.database.NetworkIndex.of`).
    count : str
        One of :data:`HOP_COUNTS`.

    Returns
    -------
    numpy.ndarray
        ``(N, N)`` float matrix in compute-index order, zero diagonal.

    Raises
    ------
    ValueError
        If ``count`` is unknown.

    Examples
    --------
    >>> from starlib.netdesign.database import NOTES_EXAMPLE_CONNECTIONS, NetworkIndex, validate_connections
    >>> hop_matrix(NetworkIndex.of(validate_connections(NOTES_EXAMPLE_CONNECTIONS)), "links").tolist()
    [[0.0, 2.0, 6.0], [2.0, 0.0, 2.0], [6.0, 2.0, 0.0]]
    """
    extra = _links_extra(count)
    att = np.unique(net.cr)
    pos = np.searchsorted(att, net.cr)
    adj = net.router_adjacency()
    D = np.empty((len(att), len(att)))
    chunk = max(1, 4_000_000 // max(net.M, 1))
    for s in range(0, len(att), chunk):
        d = csgraph.shortest_path(adj, directed=False, unweighted=True, indices=att[s:s + chunk])
        D[s:s + chunk] = d[:, att]
    order = np.argsort(net.ci, kind="stable")
    ci, ps = net.ci[order], pos[order]
    deg = np.bincount(ci, minlength=net.N)
    start = np.concatenate([[0], np.cumsum(deg)[:-1]])
    nmax = int(deg.max())
    slot = np.minimum(np.arange(nmax)[None, :], deg[:, None] - 1)  # pad with the node's last port
    P = ps[start[:, None] + slot]  # (N, nmax) attachment positions
    Dn = D[P[:, 0]]
    for j in range(1, nmax):
        Dn = np.minimum(Dn, D[P[:, j]])
    H = Dn[:, P[:, 0]]
    for j in range(1, nmax):
        H = np.minimum(H, Dn[:, P[:, j]])
    H = H + (1 + extra)
    np.fill_diagonal(H, 0)
    return H


def all_pairs_hops(connections: Any, count: str = "routers") -> tuple[list[int], np.ndarray]:
    """Router-only hop counts between all pairs of compute nodes.

    Breadth-first search over the router graph from every router that holds a compute node, then
    ``hops(a, b) = 1 + min over routers r of a, s of b of dist(r, s)`` in whole-array minima.

    Parameters
    ----------
    connections : a valid database.
    count : ``"routers"`` or ``"links"`` (see :func:`router_hops`).

    Returns
    -------
    labels : list of int
        Compute-node labels -1, -2, ... (row and column order).
    hops : numpy.ndarray
        ``(N, N)`` int64 matrix, zero diagonal.

    Raises
    ------
    ValueError
        If the database is invalid or ``count`` is unknown.

    Examples
    --------
    >>> from starlib.netdesign import NOTES_EXAMPLE_CONNECTIONS
    >>> labels, H = all_pairs_hops(NOTES_EXAMPLE_CONNECTIONS)
    >>> labels, H.tolist()
    ([-1, -2, -3], [[0, 1, 5], [1, 0, 1], [5, 1, 0]])

    Notes
    -----
    Time ``O(A (M + L))`` for ``A`` routers holding compute nodes and ``L`` router links; memory ``O(A^2 + N^2)``.

    References
    ----------
    Network-design notes, sections 5 and 8.3.1 (all-pairs shortest path).
    """
    _links_extra(count)
    net = NetworkIndex.of(validate_connections(connections))
    return net.nodes.tolist(), hop_matrix(net, count).astype(np.int64)


@dataclass(frozen=True)
class HopStatistics:
    """Hop statistics over the ``pairs = N(N-1)/2`` unordered compute-node pairs.

    ``histogram[h]`` is the number of pairs at ``h`` hops; ``total`` the sum of hops over pairs, so
    ``mean = total / pairs`` exactly.
    """

    pairs: int
    total: int
    max: int
    histogram: dict[int, int]

    @property
    def mean(self) -> float:
        """Average hop count over pairs."""
        return self.total / self.pairs

    @classmethod
    def from_matrix(cls, H: np.ndarray) -> HopStatistics:
        """The statistics of a hop matrix (:func:`all_pairs_hops`, :func:`hop_matrix`) over its upper triangle.

        Parameters
        ----------
        H : numpy.ndarray
            ``(N, N)`` symmetric hop counts, ``N >= 2``.

        Returns
        -------
        HopStatistics

        Examples
        --------
        >>> HopStatistics.from_matrix(np.array([[0, 1, 5], [1, 0, 1], [5, 1, 0]])).histogram
        {1: 2, 5: 1}
        """
        iu = np.triu_indices(H.shape[0], 1)
        h = H[iu].astype(np.int64)
        vals, cnt = np.unique(h, return_counts=True)
        hist = {int(v): int(c) for v, c in zip(vals, cnt, strict=True)}
        return cls(int(h.size), int(h.sum()), int(h.max()), hist)


def hop_statistics(connections: Any, count: str = "routers") -> HopStatistics:
    """Number of pairs, total, maximum and histogram of router-only hop counts over all compute-node pairs.

    Parameters
    ----------
    connections, count : as in :func:`all_pairs_hops` (which raises ``ValueError`` for bad input).

    Returns
    -------
    HopStatistics

    Examples
    --------
    >>> s = hop_statistics([[-c, 1] for c in range(1, 6)])    # Fig. 3: one 5-port router, 5 compute nodes
    >>> s.pairs, s.histogram
    (10, {1: 10})

    References
    ----------
    Network-design notes, section 1.3 (Figs. 3-6) and section 1.4 (N(N-1)/2 pairs).
    """
    return HopStatistics.from_matrix(all_pairs_hops(connections, count)[1])

