"""Hamiltonian-path packings of the factor graphs that have them, and the tests that recognise those graphs.

* :func:`walecki_paths`: Walecki's zig-zag Hamiltonian paths, ``floor(n/2)`` of them in ``K_n``;
* :func:`bipartite_paths`: ``floor(q/2)`` Hamiltonian paths of ``K_{q,q}``, the cycles ``M_{2i} u M_{2i+1}``
  of two perfect matchings minus an edge;
* :func:`circulant_paths`: the cycles ``x -> x + s`` minus an edge, one per class ``{s, -s}`` with
  ``gcd(s, n) = 1``, in a circulant (Paley ``QR(p)`` and ``C(X)`` for prime ``p``).

Each function returns the paths as ``(n-1, 2)`` edge arrays; :func:`~starlib.edst.factor.choose.factor_edsts`
roots them and checks that they reach the graph's bound.

Example
-------
>>> [p.tolist() for p in walecki_paths(4)]
[[[0, 1], [1, 3], [3, 2]], [[1, 2], [2, 0], [0, 3]]]
"""

from __future__ import annotations

from math import gcd
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ...graphs import ArrayGraph

__all__ = ["walecki_paths", "bipartite_paths", "circulant_paths", "circulant_connection_set",
           "complete_bipartite_sides", "path_edges"]


def path_edges(order: np.ndarray) -> np.ndarray:
    """The edges ``order[i] - order[i+1]`` of a path through the vertices in ``order``.

    >>> path_edges(np.array([2, 0, 1])).tolist()
    [[2, 0], [0, 1]]
    """
    order = np.asarray(order, dtype=np.int64)
    return np.stack([order[:-1], order[1:]], axis=1)


def walecki_paths(n: int) -> list[np.ndarray]:
    """Walecki's decomposition of ``K_n`` into ``floor(n/2)`` Hamiltonian paths (edge arrays).

    For even ``n`` path ``i`` is ``i, i+1, i-1, i+2, i-2, ..., i + n/2`` (mod ``n``), ``i < n/2``; these
    ``n/2`` paths partition the edges. For odd ``n`` the same paths on ``Z_{n-1}`` are extended by the
    edge ``{n-1, i}`` (the Hamiltonian cycles through ``n-1`` minus an edge), leaving ``(n-1)/2`` edges
    at vertex ``n-1``.

    Example
    -------
    >>> [p.tolist() for p in walecki_paths(4)]
    [[[0, 1], [1, 3], [3, 2]], [[1, 2], [2, 0], [0, 3]]]

    References
    ----------
    Walecki (1892), in Alspach, "The wonderful Walecki construction", Bull. ICA 52 (2008).
    """
    if n < 2:
        raise ValueError(f"n={n}: K_n needs n >= 2 for a spanning tree")
    even = n - (n % 2)
    half = even // 2
    steps = np.zeros(even, dtype=np.int64)
    k = np.arange(1, even)
    steps[1:] = np.where(k % 2 == 1, (k + 1) // 2, -(k // 2))
    out = []
    for i in range(half):
        order = (i + steps) % even
        if n % 2:
            order = np.concatenate([[n - 1], order])
        out.append(path_edges(order))
    return out


def bipartite_paths(side_a: np.ndarray, side_b: np.ndarray) -> list[np.ndarray]:
    """``floor(q/2)`` edge-disjoint Hamiltonian paths of ``K_{q,q}`` with sides ``side_a``, ``side_b``.

    ``M_d = {a_i b_{i+d}}`` are perfect matchings; ``M_d u M_{d+1}`` is one Hamiltonian cycle since
    ``gcd(1, q) = 1``. Pairs ``(0,1), (2,3), ...`` give the cycles; dropping ``a_0 b_d`` from each leaves a
    path. This reaches ``floor(q^2/(2q-1)) = floor(q/2)`` (Li, Li, Li).

    Example
    -------
    >>> [p.tolist() for p in bipartite_paths(np.array([0, 1]), np.array([2, 3]))]
    [[[0, 3], [3, 1], [1, 2]]]
    """
    a = np.asarray(side_a, dtype=np.int64)
    b = np.asarray(side_b, dtype=np.int64)
    q = a.shape[0]
    if b.shape[0] != q or q < 1:
        raise ValueError(f"side_a, side_b: need two sides of equal size q >= 1, got {a.shape[0]} and {b.shape[0]}")
    out = []
    for d in range(0, q - 1, 2):
        # cycle a_0, b_{d+1}, a_1, b_{d+2}, ... : a_i ~ b_{i+d+1} (M_{d+1}) and b_{i+d+1} ~ a_{i+1} (M_d)
        i = np.arange(q)
        order = np.empty(2 * q, dtype=np.int64)
        order[0::2] = a[i]
        order[1::2] = b[(i + d + 1) % q]
        out.append(path_edges(order))  # the closing edge b_d - a_0 (in M_d) is the one left out
    return out


def circulant_paths(n: int, connection: np.ndarray) -> list[np.ndarray]:
    """Hamiltonian paths ``0, s, 2s, ...`` of the circulant ``Cay(Z_n, S)``, one per class ``{s, -s}``
    with ``gcd(s, n) = 1`` (the cycle ``x -> x + s`` minus the edge ``{-s, 0}``).

    Example
    -------
    >>> [p.tolist() for p in circulant_paths(5, np.array([1, 4]))]
    [[[0, 1], [1, 2], [2, 3], [3, 4]]]
    """
    s_all = sorted({int(s) % n for s in np.asarray(connection).tolist()} - {0})
    reps = sorted({min(s, n - s) for s in s_all})
    out = []
    for s in reps:
        if gcd(s, n) == 1:
            out.append(path_edges((np.arange(n, dtype=np.int64) * s) % n))
    return out


def circulant_connection_set(graph: ArrayGraph) -> np.ndarray | None:
    """``S`` if the graph, with its vertex indices as ``Z_n``, is the circulant ``Cay(Z_n, S)``; else None.

    Example
    -------
    >>> from starlib.factors import paley
    >>> circulant_connection_set(paley(5)).tolist()
    [1, 4]
    """
    n, e = int(graph.n), np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    if n < 3 or e.shape[0] == 0:
        return None
    d = np.flatnonzero(np.bincount(np.concatenate([(e[:, 1] - e[:, 0]) % n, (e[:, 0] - e[:, 1]) % n]), minlength=n))
    expected = sum(n if 2 * s != n else n // 2 for s in d.tolist() if 2 * s <= n)
    return d if expected == e.shape[0] else None


def complete_bipartite_sides(graph: ArrayGraph) -> tuple[np.ndarray, np.ndarray] | None:
    """The two sides if the graph is ``K_{q,q}`` (any labelling), else None.

    Example
    -------
    >>> from starlib.factors import complete_bipartite
    >>> [s.tolist() for s in complete_bipartite_sides(complete_bipartite(2))]
    [[0, 1], [2, 3]]
    """
    n, e = int(graph.n), np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    if n < 2 or n % 2 or e.shape[0] != (n // 2) ** 2:
        return None
    q = n // 2
    deg = np.bincount(e.ravel(), minlength=n)
    if not (deg == q).all():
        return None
    side = np.full(n, -1)
    side[0] = 0
    nb0 = np.concatenate([e[e[:, 0] == 0, 1], e[e[:, 1] == 0, 0]])
    side[nb0] = 1
    side[side < 0] = 0
    if (side[e[:, 0]] == side[e[:, 1]]).any() or (side == 0).sum() != q:
        return None
    return np.flatnonzero(side == 0), np.flatnonzero(side == 1)
