"""Maximum EDST sets of the factor graphs: structured packings where known, the exact packer otherwise.

=============  =======================================================  =========================
graph          packing                                                  trees
=============  =======================================================  =========================
``K_n``        Walecki's zig-zag Hamiltonian paths                      ``floor(n/2)``
``K_{q,q}``    Hamiltonian cycles ``M_{2i} u M_{2i+1}`` minus an edge   ``floor(q/2)``
circulant      ``x -> x + s`` Hamiltonian cycles (``gcd(s, n) = 1``)    one per class ``{s, -s}``
               minus an edge: Paley ``QR(p)`` and ``C(X)`` for prime p
abelian        ``Cay(GF(q)+, S)``, ``q = p^k``, odd p, ``k >= 2``:        one per class ``{s, -s}``
               ``<s>``-coset paths joined by other classes' dropped
               edges (:mod:`starlib.edst.abelian`): ``QR(q)``, ``C(X)``
``ER_q``       :func:`starlib.edst.er.er_edsts` (low-depth lifted       ``ceil(q/2)``
               clusters, else Hamiltonian paths) when importable
star products  the paper's constructions (:func:`auto_trees`), e.g.     Table I
               ``MMS(q) = K_{q,q} * C(X)`` (also in Hafner's form)
anything else  :func:`~starlib.edst.packing.generic_packing`            the maximum
=============  =======================================================  =========================

A structured packing is used by ``method="auto"`` only when its count equals the graph's upper bound
``min(floor(m/(n-1)), min degree)``, so "auto" always returns a maximum EDST set. Prime-power Paley graphs
``QR(p^k)`` and MMS supernodes ``C(X)``, ``k >= 2`` (additive group ``Z_p^k``, not cyclic) use the "abelian"
packing (31 trees of the 125-vertex supernode of ``slimfly(125)`` in a few ms instead of 1.7 s generic).

Every tree is rooted at a center (least eccentricity).

Example
-------
>>> from starlib.factors import complete, paley
>>> [t.construction for t in factor_edsts(complete(6))]
['walecki', 'walecki', 'walecki']
>>> len(factor_edsts(paley(13))), factor_edsts(paley(13))[0].depth
(3, 6)
"""

from __future__ import annotations

from math import gcd
from typing import Any

import numpy as np

from .._kernels import trees_eccentricities
from .abelian import abelian_graph_paths
from .packing import generic_packing
from .trees import EDSTSet, Tree, is_connected, sort_edge_rows
from .verify import verify_edsts

__all__ = ["walecki_paths", "bipartite_paths", "circulant_paths", "circulant_connection_set",
           "complete_bipartite_sides", "factor_edsts", "FACTOR_METHODS"]

FACTOR_METHODS = ("auto", "generic", "walecki", "bipartite", "circulant", "abelian", "er", "star")


def _path_edges(order: np.ndarray) -> np.ndarray:
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
        out.append(_path_edges(order))
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
        out.append(_path_edges(order))  # the closing edge b_d - a_0 (in M_d) is the one left out
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
            out.append(_path_edges((np.arange(n, dtype=np.int64) * s) % n))
    return out


def circulant_connection_set(graph: Any) -> np.ndarray | None:
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


def complete_bipartite_sides(graph: Any) -> tuple[np.ndarray, np.ndarray] | None:
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


def _is_complete(graph: Any) -> bool:
    return int(graph.m) == int(graph.n) * (int(graph.n) - 1) // 2


def _rooted(n: int, arrays: list[np.ndarray], tag: str | list[str]) -> EDSTSet:
    """Trees with sorted rows, rooted at a center (all eccentricities in one compiled call)."""
    out = EDSTSet()
    tags = [tag] * len(arrays) if isinstance(tag, str) else tag
    arrs = [np.asarray(a, dtype=np.int64).reshape(-1, 2) for a in arrays]
    if not arrs:
        return out
    if any(a.shape[0] != n - 1 for a in arrs):
        raise ValueError(f"trees: every tree of a graph on n={n} vertices needs {n - 1} edges")
    st = np.stack([sort_edge_rows(a) for a in arrs])
    eccs = trees_eccentricities(n, st)
    if (eccs < 0).any():
        raise ValueError(f"trees: not spanning trees of n={n} vertices (disconnected)")
    for e, ecc, tg in zip(st, eccs, tags, strict=True):
        c = int(np.argmin(ecc))
        out.append(Tree(e, c, tg, n=n, meta={"ecc": ecc}, _depth=int(ecc[c]), canonical=True))
    return out


def _bound(graph: Any) -> int:
    n = int(graph.n)
    deg = np.bincount(np.asarray(graph.edges).ravel(), minlength=n)
    return int(min(int(graph.m) // (n - 1), int(deg.min())))


def _hafner_star(graph: Any) -> tuple[Any, np.ndarray] | None:
    """MMS(q) in Hafner's form: the star product ``slimfly(q)`` and the index map product -> Hafner."""
    if getattr(graph, "name", "") != "slimfly-hafner" or "q" not in getattr(graph, "params", {}):
        return None
    from ..fields import tables
    from ..networks import slimfly

    q = int(graph.params["q"])
    P = slimfly(q)
    T = tables(q)
    g = np.arange(2 * q, dtype=np.int64)[:, None]
    h = np.arange(q, dtype=np.int64)[None, :]
    # ((0, x), y) -> (0, x, y) at x q + y;  ((1, m), c') -> (1, m, xi c') at q^2 + m q + xi c'
    mapped = np.where(g < q, g * q + h, g * q + T.mul(T.xi, h)).ravel()
    ge = np.asarray(graph.edges, dtype=np.int64)
    if ge.shape != P.edges.shape:
        return None
    pe = mapped[P.edges]
    nn = np.int64(graph.n)
    pk = np.minimum(pe[:, 0], pe[:, 1]) * nn + np.maximum(pe[:, 0], pe[:, 1])
    pk.sort()
    if not np.array_equal(pk, np.minimum(ge[:, 0], ge[:, 1]) * nn + np.maximum(ge[:, 0], ge[:, 1])):
        return None  # (graph.edges is canonical, so its keys are sorted)
    return P, mapped


def _er_trees(graph: Any) -> EDSTSet | None:
    if getattr(graph, "name", "") != "polarfly" or "q" not in getattr(graph, "params", {}):
        return None
    if graph.params.get("loops"):
        return None
    try:
        from .er import er_edsts  # written by another module owner; optional
    except ImportError:
        return None
    q = int(graph.params["q"])
    try:  # depth <= 5 trees when the lifted-cluster construction applies, else Hamiltonian paths
        res = er_edsts(q, "low-depth", graph=graph)
    except ValueError:
        res = er_edsts(q, "hamiltonian", graph=graph)
    arrays = [np.asarray(t.edges if hasattr(t, "edges") else t, dtype=np.int64) for t in res]
    report = verify_edsts(graph, arrays)
    if not report.valid:
        raise RuntimeError(f"er_edsts(q={graph.params['q']}) returned an invalid EDST set: "
                           + "; ".join(report.problems[:3]))
    return _rooted(int(graph.n), arrays, [str(getattr(t, "construction", "") or "er") for t in res])


def factor_edsts(graph: Any, method: str = "auto") -> EDSTSet:
    """A maximum EDST set of a factor graph (structured when available, else the exact packer).

    Parameters
    ----------
    graph : ArrayGraph or StarProduct
        A connected simple graph with ``n >= 2``.
    method : str
        ``"auto"`` (structured if it reaches the upper bound, else generic), ``"generic"``
        (:func:`~starlib.edst.packing.generic_packing`), or one structured method: ``"walecki"``
        (``K_n``), ``"bipartite"`` (``K_{q,q}``), ``"circulant"`` (Paley/``C(X)`` of prime order, any
        circulant), ``"abelian"`` (Cayley graphs on ``(GF(p^k), +)``, odd ``p``, ``k >= 2``: prime-power
        Paley/``C(X)``), ``"er"`` (``ER_q`` via :mod:`starlib.edst.er`), ``"star"`` (a star product, or
        MMS(q) in Hafner's form: the paper's constructions).

    Returns
    -------
    EDSTSet
        Trees rooted at their centers, tagged with the method (or the construction number).

    Raises
    ------
    ValueError
        If ``method`` is unknown or does not apply to the graph, or the graph is not a connected simple
        graph on ``n >= 2`` vertices.

    Example
    -------
    >>> from starlib.factors import complete_bipartite
    >>> s = factor_edsts(complete_bipartite(5))
    >>> len(s), s.constructions()[0]
    (2, 'bipartite')

    References
    ----------
    Spec §12 (factor EDSTs); Li, Li, Li (K_{a,b}); Alspach, Bryant, Dyer (Paley graphs); Lakhotia et al.
    SPAA'23 (ER_q).
    """
    if method not in FACTOR_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(FACTOR_METHODS)}")
    n = int(graph.n)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; a spanning tree packing needs n >= 2")
    if method == "generic":
        p = generic_packing(graph)
        return _rooted(n, [t.edges for t in p.trees], "generic")
    bound = _bound(graph) if method == "auto" else None

    def accept(trees: EDSTSet | None, name: str) -> EDSTSet | None:
        if trees is None:
            if method == name:
                raise ValueError(f"method={name} does not apply to the graph {getattr(graph, 'name', '')!r} "
                                 f"(n={n}, m={int(graph.m)})")
            return None
        if method == "auto" and len(trees) < bound:
            return None
        return trees

    candidates: list[tuple[str, Any]] = [
        ("walecki", lambda: _rooted(n, walecki_paths(n), "walecki") if _is_complete(graph) else None),
        ("bipartite", lambda: (None if (sides := complete_bipartite_sides(graph)) is None
                               else _rooted(n, bipartite_paths(*sides), "bipartite"))),
        ("circulant", lambda: (None if (s := circulant_connection_set(graph)) is None
                               else _rooted(n, circulant_paths(n, s), "circulant"))),
        ("abelian", lambda: (None if (a := abelian_graph_paths(graph)) is None else _rooted(n, a, "abelian"))),
        ("er", lambda: _er_trees(graph)),
        ("star", lambda: _star_trees(graph)),
    ]
    for name, build in candidates:
        if method not in ("auto", name):
            continue
        got = accept(build(), name)
        if got is not None:
            return got
    p = generic_packing(graph)
    return _rooted(n, [t.edges for t in p.trees], "generic")


def _star_trees(graph: Any) -> EDSTSet | None:
    from .auto import auto_trees

    if getattr(graph, "structure", None) is not None and getattr(graph, "supernode", None) is not None:
        if not all(is_connected(X.n, X.edges) for X in (graph.structure, graph.supernode)):
            return None
        return auto_trees(graph)
    hs = _hafner_star(graph)
    if hs is None:
        return None
    P, mapped = hs
    return EDSTSet(Tree(mapped[t.rows], int(mapped[t.root]), t.construction, n=int(graph.n)) for t in auto_trees(P))

