"""Edge-disjoint spanning trees of ER_q (PolarFly) attaining the bound floor((q+1)/2), for any prime power q.

ER_q has ``n = q^2+q+1`` vertices and ``m = q(q+1)^2/2`` edges, so ``m/(n-1) = (q+1)/2`` and no family
of EDSTs has more than ``floor((q+1)/2)`` trees (for odd ``q`` such a family uses every edge). The
literature conjectures the bound is always attained and reports it checked to ``q = 128``; the
constructions here attain it for every prime power tried (see ``notebooks/12-er-edsts.ipynb``), each
family verified by :func:`starlib.edst.verify.verify_edsts`. All work in the Singer model
(:mod:`starlib.edst.factor.er.singer`), where ``i ~ j`` iff ``i + j mod n`` lies in the difference set ``D``, and
the trees are mapped back to the dot-product labelling of :func:`starlib.factors.polarfly`.

Methods (``er_edsts(q, method=...)``), with the construction tag stored on each tree:

``"hamiltonian"`` (tag ``ER-A``, Construction A, docs/er-edsts.md §4)
    For ``a != b`` in ``D`` the sum classes ``M_a = {{i, a-i}}`` and ``M_b`` form one Hamiltonian path iff
    ``gcd(a - b, n) = 1``; a maximum matching of ``D`` under that relation gives ``floor((q+1)/2)`` paths.
    Depth ``(n-1)/2`` from the middle vertex. ``O(n q)`` time.
``"low-depth"`` (tags ``ER-C``, ``ER-F``; docs/er-edsts.md §5-§7, variants described in
:mod:`starlib.edst.factor.er.clusters`)
    Even ``q``: ``q/2`` lifted-cluster trees rooted at an absolute point ``w``, depth at most 5 (4 in every
    case computed). Odd ``q >= 5``: ``(q-1)/2`` such trees on ``q-1`` clusters plus a last tree ``ER-F``
    rooted at the centre ``v_z``, chosen by a max-flow; depth at most 5 in every case computed. The
    lower bound is 3 (docs/er-edsts.md §9). ``q = 3``, or a failed flow, falls back to ``"repair"``.
``"repair"`` (tags ``ER-C``, ``ER-D``; Construction D, docs/er-edsts.md §8)
    Construction C's trees plus Edmonds' matroid-partition augmentation for the last tree (odd ``q``).
    The last tree is deep (its depth grows with ``q``); kept as the generic fallback and a comparison.

Example
-------
>>> trees = er_edsts(7)
>>> len(trees), er_edst_bound(7), [t.construction for t in trees][:1]
(4, 4, ['ER-A'])
>>> from starlib.factors import polarfly
>>> from starlib.edst.verify import verify_edsts
>>> verify_edsts(polarfly(7), er_edsts(7, "low-depth")).valid
True

References
----------
docs/er-edsts.md (Singer model, Constructions A, C, D, the odd-q max-flow tree, depth lower bound); Appendix
B-B7 of Isham et al. (2025). Lakhotia et al., "PolarFly: a cost-effective and flexible low-diameter topology",
SC'22; Lakhotia et al., "In-network Allreduce with multiple spanning trees on PolarFly" (SPAA 2023, 165-176,
doi:10.1145/3558481.3591073).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from ...._kernels import count_components
from ....factors import polarfly_points
from ....graphs import ArrayGraph, GraphLike, as_graph
from ....primes import check_prime_power
from ...trees import EDSTSet, Tree, tree_center
from ...verify import RULES, VerifyReport
from .clusters import lifted_cluster_trees, odd_cluster_trees
from .layout import cluster_layout
from .repair import complete_last_tree
from .singer import SingerModel, singer_model

__all__ = ["METHODS", "er_edst_bound", "singer_pairing", "hamiltonian_path_orders", "er_edsts",
           "singer_labels_of", "verify_singer_edsts"]

#: the methods of :func:`er_edsts`
METHODS = ("hamiltonian", "low-depth", "repair")


def er_edst_bound(q: int) -> int:
    """The EDST upper bound ``floor(m/(n-1)) = floor((q+1)/2)`` of ER_q.

    Parameters
    ----------
    q : int
        The field order of ER_q (a prime power).

    Returns
    -------
    int
        ``floor((q+1)/2)``, attained by :func:`er_edsts` for every prime power tried.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (ER_q is defined over GF(q) only).

    Example
    -------
    >>> [er_edst_bound(q) for q in (2, 3, 4, 5, 128)]
    [1, 2, 2, 3, 64]

    References
    ----------
    docs/er-edsts.md §1: ``m/(n-1) = q(q+1)^2/2 / (q(q+1)) = (q+1)/2``.
    """
    return (check_prime_power(q) + 1) // 2


def singer_pairing(q: int) -> np.ndarray:
    """``floor((q+1)/2)`` disjoint pairs ``{a, b}`` of the Singer set ``D`` with ``gcd(a - b, n) = 1``.

    A greedy matching on the coprime-difference graph of ``D`` (least remaining degree first), completed
    by a maximum-cardinality matching (networkx) if it falls short.

    Parameters
    ----------
    q : int
        The field order; the Singer set ``D`` has ``q + 1`` elements.

    Returns
    -------
    ndarray
        ``(k, 2)`` array of elements of ``D`` (``a < b`` per row, rows sorted); ``k`` is
        ``floor((q+1)/2)`` whenever such a pairing exists (it has for every ``q`` tried).

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (no Singer difference set to pair).

    Example
    -------
    >>> singer_pairing(4).shape
    (2, 2)

    References
    ----------
    docs/er-edsts.md §4.3 (pairing).
    """
    S = singer_model(q)
    D, n = S.D, S.n
    k = (S.q + 1) // 2
    ok = np.gcd((D[:, None] - D[None, :]) % n, n) == 1
    np.fill_diagonal(ok, False)
    alive = np.ones(D.size, dtype=bool)
    pairs: list[tuple[int, int]] = []
    while len(pairs) < k:
        deg = (ok & alive[None, :]).sum(axis=1)
        deg = np.where(alive & (deg > 0), deg, np.iinfo(np.int64).max)
        u = int(np.argmin(deg))
        if deg[u] == np.iinfo(np.int64).max:
            break
        nb = np.flatnonzero(ok[u] & alive)
        v = int(nb[np.argmin(deg[nb])])
        pairs.append((u, v))
        alive[u] = alive[v] = False
    if len(pairs) < k:
        import networkx as nx  # rarely reached: the greedy pairing above usually suffices

        g = nx.Graph()
        g.add_nodes_from(range(D.size))
        iu, ju = np.nonzero(np.triu(ok, 1))
        g.add_edges_from(zip(iu.tolist(), ju.tolist(), strict=True))
        pairs = sorted(tuple(sorted(e)) for e in nx.max_weight_matching(g, maxcardinality=True))[:k]
    out = np.sort(D[np.array(pairs, dtype=np.int64).reshape(-1, 2)], axis=1)
    return out[np.lexsort((out[:, 1], out[:, 0]))]


def hamiltonian_path_orders(S: SingerModel, pairs: np.ndarray) -> np.ndarray:
    """Vertex order of the Hamiltonian path ``M_a u M_b`` for each pair: ``a/2, a/2+d, a/2-d, ...``.

    Starting at ``s = a (n+1)/2`` and alternately applying ``j -> b - j`` and ``j -> a - j`` visits
    ``s + k (b - a)`` for ``k = 0, 1, -1, 2, -2, ...`` and ends at ``b/2``.

    Parameters
    ----------
    S : SingerModel
    pairs : ndarray
        ``(k, 2)`` elements of ``D`` with ``gcd(b - a, n) = 1``.

    Returns
    -------
    ndarray
        ``(k, n)`` Singer labels, one path per row.

    Example
    -------
    >>> S = singer_model(2)
    >>> hamiltonian_path_orders(S, np.array([[1, 2]])).tolist()
    [[4, 5, 3, 6, 2, 0, 1]]

    References
    ----------
    docs/er-edsts.md §4.2 (path order).
    """
    n = S.n
    half = (n + 1) // 2
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    j = np.arange(n, dtype=np.int64)
    steps = np.where(j % 2 == 1, (j + 1) // 2, -(j // 2))  # 0, 1, -1, 2, -2, ...
    start = (pairs[:, 0] * half) % n
    delta = (pairs[:, 1] - pairs[:, 0]) % n
    return (start[:, None] + steps[None, :] * delta[:, None]) % n


def _hamiltonian(S: SingerModel) -> list[tuple[np.ndarray, int, str]]:
    orders = hamiltonian_path_orders(S, singer_pairing(S.q))
    out = []
    for row in orders:
        e = np.stack([row[:-1], row[1:]], axis=1)
        out.append((e, int(row[(S.n - 1) // 2]), "ER-A"))
    return out


def _low_depth(S: SingerModel, repair: bool = False) -> list[tuple[np.ndarray, int, str]]:
    L = cluster_layout(S)
    if S.q % 2 == 0:
        trees, _ = lifted_cluster_trees(L)
        return [(t, L.w, "ER-C") for t in trees]
    if not repair and S.q >= 5:
        got = odd_cluster_trees(L)
        if got is not None:
            trees, _ = got
            return [(t, L.w, "ER-C") for t in trees[:-1]] + [(trees[-1], int(L.centres[S.q - 1]), "ER-F")]
    trees, used = lifted_cluster_trees(L)
    full, _ = complete_last_tree(L.n, L.edges, trees, used, root=L.w)
    root = tree_center(S.n, full[-1])[0]
    return [(t, L.w, "ER-C") for t in full[:-1]] + [(full[-1], root, "ER-D")]


def singer_labels_of(graph: GraphLike, q: int) -> np.ndarray:
    """Singer label of every vertex of ``graph``, an ER_q in dot-product or Singer labels.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        :func:`starlib.factors.polarfly` (labels: point triples) or
        :func:`starlib.edst.factor.er.singer.singer_graph` (labels ``0..n-1``), for this ``q``
        (:func:`~starlib.graphs.as_graph`).
    q : int
        The field order of ``graph`` = ER_q (a prime power).

    Returns
    -------
    ndarray
        ``sing[v]``; a permutation of ``0..n-1`` under which the edges of ``graph`` are exactly the
        edges of the Singer model (checked, vectorised).

    Raises
    ------
    ValueError
        If ``graph`` is not ER_q for this ``q`` in either labelling.
    TypeError
        If ``graph`` is not a graph.

    Example
    -------
    >>> from starlib.factors import polarfly
    >>> sorted(singer_labels_of(polarfly(2), 2).tolist())
    [0, 1, 2, 3, 4, 5, 6]

    References
    ----------
    docs/er-edsts.md §3.
    """
    return _singer_labels(as_graph(graph, "graph"), singer_model(q))


def _singer_labels(graph: ArrayGraph, S: SingerModel) -> np.ndarray:
    """:func:`singer_labels_of` on a graph already through :func:`~starlib.graphs.as_graph`."""
    q, n = S.q, S.n
    if len(graph.labels) != n:
        raise ValueError(f"graph: expected ER_q with n={n} vertices for q={q}, got {len(graph.labels)}")
    lab0 = graph.labels[0]
    if isinstance(lab0, Sequence) and not isinstance(lab0, str) and len(lab0) == 3:
        try:
            pts = np.fromiter(itertools.chain.from_iterable(graph.labels), dtype=np.int64, count=3 * n)
        except (TypeError, ValueError):
            raise ValueError(f"graph: labels must all be point triples, got {lab0!r} first") from None
        sing = S.index_of_points(pts.reshape(n, 3))
    elif all(isinstance(v, (int, np.integer)) for v in graph.labels[:3]):
        sing = np.asarray(graph.labels, dtype=np.int64)
    else:
        raise ValueError(f"graph: labels must be point triples or Singer labels 0..{n - 1}, got {lab0!r}")
    e = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    m = q * (q + 1) ** 2 // 2
    if e.shape[0] != m or not _is_singer_isomorphism(sing, e, S.in_D):
        raise ValueError(f"graph: not ER_q for q={q} (in dot-product or Singer labels)")
    return sing


@numba.njit(cache=True)
def _is_singer_isomorphism(sing, e, in_D):  # pragma: no cover - compiled
    """True if ``sing`` is a permutation of ``0..n-1`` mapping every row of ``e`` to a Singer edge."""
    n = in_D.shape[0]
    if sing.shape[0] != n:
        return False
    seen = np.zeros(n, np.bool_)
    for v in range(n):
        s = sing[v]
        if s < 0 or s >= n or seen[s]:
            return False
        seen[s] = True
    for j in range(e.shape[0]):
        a = e[j, 0]
        b = e[j, 1]
        if a < 0 or a >= n or b < 0 or b >= n:
            return False
        u = sing[a]
        v = sing[b]
        if u == v or not in_D[(u + v) % n]:
            return False
    return True


def er_edsts(q: int, method: str = "hamiltonian", graph: GraphLike | None = None, *,
             labels: str = "standard") -> EDSTSet:
    """``floor((q+1)/2)`` edge-disjoint spanning trees of ER_q (PolarFly).

    Parameters
    ----------
    q : int
        A prime power (any size; ``q = 128`` takes about a second for ``"hamiltonian"``).
    method : str
        ``"hamiltonian"`` (Construction A, depth ``(n-1)/2``), ``"low-depth"`` (lifted clusters: depth
        at most 5) or ``"repair"`` (Construction C plus matroid repair); see the module docstring.
    graph : ArrayGraph or networkx.Graph, optional
        The host graph: :func:`starlib.factors.polarfly` ``(q)`` or
        :func:`starlib.edst.factor.er.singer.singer_graph` ``(q)`` (:func:`~starlib.graphs.as_graph`). Trees are
        returned in its vertex indices.
    labels : str
        Without ``graph``: ``"standard"`` (vertex indices of ``polarfly(q)``, the default) or ``"singer"``
        (Singer labels; no relabelling, for the largest ``q``).

    Returns
    -------
    EDSTSet
        The trees (``Tree.construction`` as in the module docstring, ``Tree.root`` as described there).

    Raises
    ------
    ValueError
        If ``q`` is not a prime power, ``method`` or ``labels`` is unknown, or ``graph`` is not ER_q.
    TypeError
        If ``graph`` is not a graph.

    Notes
    -----
    Time ``O(n q)`` = ``O(m)`` for ``"hamiltonian"`` (vectorised numpy) and about that for ``"low-depth"``
    (compiled kernels of :mod:`starlib.edst.factor.er.clusters` and :mod:`~starlib.edst.factor.er.choices`:
    per-cluster matchings and one max-flow on ``O(q^2)`` nodes; a few ms for ``q = 37``); ``"repair"`` runs
    Python loops of ``O(n q)`` steps and suits ``q`` up to a few dozen. The graph check of ``graph`` is one
    compiled pass over its edges.

    Example
    -------
    >>> [t.depth for t in er_edsts(4, "low-depth")]
    [4, 4]
    >>> er_edsts(6)
    Traceback (most recent call last):
    ...
    ValueError: q=6 is not a prime power

    References
    ----------
    docs/er-edsts.md §4 (A), §6-§7 (C), §8 (D); upper bound §1.
    """
    q = check_prime_power(q)
    if method not in METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(repr(m) for m in METHODS)}")
    if labels not in ("standard", "singer"):
        raise ValueError(f"labels={labels!r} is not one of 'standard', 'singer'")
    S = singer_model(q)
    if graph is not None:
        sing = _singer_labels(as_graph(graph, "graph"), S)
    elif labels == "standard":
        sing = S.index_of_points(polarfly_points(q))
    else:
        sing = None
    if method == "hamiltonian":
        raw = _hamiltonian(S)
    else:
        raw = _low_depth(S, repair=(method == "repair"))
    if sing is None:
        return EDSTSet(Tree(e, r, tag, n=S.n) for e, r, tag in raw)
    inv = np.empty(S.n, dtype=np.int64)
    inv[sing] = np.arange(S.n, dtype=np.int64)
    return EDSTSet(Tree(inv[e], int(inv[r]), tag, n=S.n) for e, r, tag in raw)


def verify_singer_edsts(q: int, trees: Sequence[Any]) -> VerifyReport:
    """Check EDSTs of ER_q given in Singer labels, tree by tree, without building the graph.

    The same rules as :func:`starlib.edst.verify.verify_edsts` (size, loop, member, repeat, spanning,
    acyclic, disjoint), but an edge ``{u, v}`` is a graph edge iff ``u + v mod n`` is in ``D``, and it is
    named by its slot ``(index of u + v in D, min(u, v))``: one bit per slot in a ``(q+1) x n`` bitmap
    records the edges already used. Memory is ``O(n q)`` bytes plus one tree at a time, so families of
    ER_q too large for the all-at-once verifier (``q`` in the hundreds) can still be checked.

    Parameters
    ----------
    q : int
        The field order; the trees live on Singer labels ``0..q^2+q``.
    trees : sequence of Tree or array_like
        Trees as ``(k, 2)`` arrays of Singer labels.

    Returns
    -------
    VerifyReport
        ``.valid`` and ``.failures`` as in :func:`starlib.edst.verify.verify_edsts`.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power; tree defects are reported, not raised.

    Example
    -------
    >>> trees = er_edsts(5, labels="singer")
    >>> verify_singer_edsts(5, trees).valid
    True
    >>> verify_singer_edsts(5, [trees[0], trees[0]]).problems
    ['tree 1: shares 30 edge(s) with an earlier tree, e.g. (0, 1)']

    References
    ----------
    docs/er-edsts.md §2.3 (adjacency), §4.1 (sum classes).
    """
    S = singer_model(q)
    n = S.n
    m = S.q * (S.q + 1) ** 2 // 2
    dpos = np.full(n, -1, dtype=np.int64)
    dpos[S.D] = np.arange(S.D.size)
    seen = np.zeros((S.q + 1) * n, dtype=bool)
    report = VerifyReport(n=n, m=m, num_trees=len(trees))
    fail = report.failures
    for i, t in enumerate(trees):
        e = np.asarray(t.edges if hasattr(t, "edges") else t, dtype=np.int64).reshape(-1, 2)
        if e.size and (e.min() < 0 or e.max() >= n):
            fail.append((i, "range", f"vertex index outside 0..{n - 1}"))
            continue
        if e.shape[0] != n - 1:
            fail.append((i, "size", f"has {e.shape[0]} edges, a spanning tree of n={n} vertices has {n - 1}"))
        u, v = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
        if np.any(u == v):
            fail.append((i, "loop", f"has a self-loop at vertex {int(u[u == v][0])}"))
        ok = (u != v) & S.in_D[(u + v) % n]
        if not ok.all():
            bad = np.flatnonzero(~ok)
            fail.append((i, "member", f"{bad.size} edge(s) not in the graph, e.g. {(int(u[bad[0]]), int(v[bad[0]]))}"))
        u, v = u[ok], v[ok]
        slot = dpos[(u + v) % n] * n + u
        uniq, cnt = np.unique(slot, return_counts=True)
        if np.any(cnt > 1):
            k = int(uniq[cnt > 1][0]) % n
            fail.append((i, "repeat", f"lists an edge at vertex {k} more than once"))
        clash = seen[uniq]
        if clash.any():
            j = np.flatnonzero(seen[slot])[0]
            fail.append((i, "disjoint", f"shares {int(clash.sum())} edge(s) with an earlier tree, "
                                        f"e.g. {(int(u[j]), int(v[j]))}"))
        seen[uniq] = True
        c = count_components(n, np.stack([u, v], axis=1))
        if c != 1:
            fail.append((i, "spanning", f"not spanning ({c} components)"))
        if uniq.size > n - c:
            fail.append((i, "acyclic", "contains a cycle"))
    fail.sort(key=lambda f: (RULES.index(f[1]), f[0]))
    return report
