"""The cluster layout of ER_q around an absolute point, and the lifted-cluster EDSTs built on it.

Fix an absolute point ``w``; its ``q`` neighbours ``v_0 .. v_{q-1}`` are the *centres*. Every other vertex
is adjacent to exactly one centre, so ``V = {w} u C_0 u ... u C_{q-1}`` with ``C_i = {v_i} u X_i``,
``|X_i| = q``; between ``X_i`` and ``X_j`` the edges form a perfect matching ``M(i, j)``; a centre is
adjacent only to ``w`` and to its ``X_i`` (docs/er-edsts.md §5). In Singer labels the layout is
read off the difference table: for ``x != w`` write ``x - w = d - d'`` (``d, d'`` in ``D``, unique); then
``x`` is a centre if ``d' = 2w``, and otherwise ``x`` lies in ``X_i`` for the centre ``d' - w``.

:func:`lifted_cluster_trees` implements Construction C (docs/er-edsts.md §6) rooted at ``w``: tree ``t``
lifts a double star ``S_t`` of the cluster graph ``K_q`` (centres ``a = 2t``, ``b = 2t+1``) through the
matchings, which gives ``q`` disjoint *copies*; it joins the copies to the hub centres ``v_a`` and
``v_b`` through star edges (half the copies each), joins both hubs to ``w``, and hangs every other centre
from an unused star edge chosen by a bipartite matching so that it lands at depth 4. For even ``q`` this
gives the maximum ``q/2`` EDSTs at depth at most 5 from ``w`` (4 whenever the matchings are perfect, which
the tests record); for odd ``q`` it gives ``(q-1)/2`` trees and the leftover edges are handed to
:mod:`starlib.edst.factor.er.repair`.

Implementation: the layout and the steps of the constructions run in small compiled kernels of this module
(``O(q^3)`` work in all, a few dozen Python steps per call), which call the package's shared kernels
(:mod:`starlib._kernels`) for the bipartite matchings (:func:`~starlib._kernels.hopcroft_karp`), the
max-flow (:func:`~starlib._kernels.max_flow`, Dinic), BFS depths and component counts. The matching and
the flow visit vertices and arcs in exactly the order of ``scipy.sparse.csgraph.maximum_bipartite_matching``
and ``maximum_flow``, which earlier versions called, so the trees are the same arrays
(``tests/test_kernels.py`` compares the kernels with scipy and networkx).

The choices (hung centres, reserve, plan, flow, ``X_z`` and ``v_z``) read per-tree depths through
``_depth_at`` / ``_depth_row``: either the ``(k, n)`` BFS table of the built forests (this module) or a *depth
rule* (``_lifted_depth``) that computes them from the partner lookup ``_partner`` (the difference table of
``D``, ``O(n)`` memory), which :mod:`starlib.edst.factor.er.stream` uses to build the same trees one at a time
without the edge list.

Example
-------
>>> from starlib.edst.factor.er.singer import singer_model
>>> L = cluster_layout(singer_model(5))
>>> L.q, int((L.cluster >= 0).sum()), np.bincount(L.cluster[L.cluster >= 0]).tolist()
(5, 30, [6, 6, 6, 6, 6])

References
----------
docs/er-edsts.md §5 (layout), §6-§7 (Construction C and the odd-q tree), §9 (depth >= 3 for maximum families).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
from numba import types
from numba.extending import overload

from ...._kernels import bfs_from_jit, bool_rows, count_components, csr_jit, hopcroft_karp_jit, max_flow_jit
from .singer import SingerModel

__all__ = ["ClusterLayout", "cluster_layout", "double_stars", "lifted_cluster_trees"]

#: edge kinds of the layout
W_EDGE, STAR, INTERNAL, MATCHING = 0, 1, 2, 3


@dataclass(frozen=True, eq=False)
class ClusterLayout:
    """The cluster decomposition of ER_q (Singer labels) around the absolute point ``w``.

    Attributes
    ----------
    q, n : int
    w : int
        The absolute point (the smallest one).
    centres : ndarray
        ``centres[i]`` is ``v_i``, sorted increasingly.
    cluster : ndarray
        ``cluster[x]`` is the ``i`` with ``x`` in ``C_i`` (``-1`` for ``w``).
    is_centre : ndarray
        Boolean mask of the centres.
    edges : ndarray
        All edges ``(m, 2)`` in Singer labels, ``u < v``.
    kind : ndarray
        ``W_EDGE``, ``STAR``, ``INTERNAL`` or ``MATCHING`` per edge.
    pair : ndarray
        For a matching edge, the cluster pair id ``i*q + j`` (``i < j``); ``-1`` otherwise.
    _index : tuple
        Edge-id lookups computed with the layout (``star_of, w_of, mate, mid, start, mends``, see ``_Ids``); empty
        if not supplied (they are then recomputed from ``kind`` and ``pair``).
    """

    q: int
    n: int
    w: int
    centres: np.ndarray
    cluster: np.ndarray
    is_centre: np.ndarray
    edges: np.ndarray
    kind: np.ndarray
    pair: np.ndarray
    _index: tuple = field(default=(), repr=False)


def cluster_layout(S: SingerModel) -> ClusterLayout:
    """Compute the cluster layout of ER_q (docs/er-edsts.md §5) from the Singer difference table.

    Parameters
    ----------
    S : SingerModel
        From :func:`starlib.edst.factor.er.singer.singer_model`.

    Returns
    -------
    ClusterLayout

    Raises
    ------
    RuntimeError
        If a structural claim of docs/er-edsts.md §5 fails (it cannot for a Singer difference set).

    Example
    -------
    >>> from starlib.edst.factor.er.singer import singer_model
    >>> L = cluster_layout(singer_model(4))
    >>> np.bincount(L.kind).tolist()  # q w-edges, q^2 star, internal, q^2(q-1)/2 matching
    [4, 16, 6, 24]

    References
    ----------
    docs/er-edsts.md §5.
    """
    q, n, D = S.q, S.n, S.D
    w, centres, cluster, is_centre, _ = _layout_base(S)
    # outputs allocated by numpy (large arrays get huge pages there, not a page fault per 4 KiB in the kernel)
    m, mm = q * (q + 1) ** 2 // 2, q * q * (q - 1) // 2
    edges, kind, pair = np.empty((m, 2), dtype=np.int64), np.empty(m, dtype=np.int8), np.full(m, -1, dtype=np.int64)
    index = [np.full(n, -1, dtype=np.int64) for _ in range(3)]  # star_of, w_of, mate
    index += [np.empty(mm, dtype=np.int32), np.empty(q * q, dtype=np.int64), np.empty((mm, 2), dtype=np.int32)]
    bad = _layout_kernel(D, n, w, cluster, is_centre, q, edges, kind, pair, *index)  # edges: S.edges()
    if bad == 1:  # pragma: no cover
        raise RuntimeError(f"q={q}: a centre has a neighbour outside its cluster")
    if bad == 2:  # pragma: no cover
        raise RuntimeError(f"q={q}: some M(i, j) is not a perfect matching")
    for arr in (centres, cluster, is_centre, edges, kind, pair, *index):
        arr.setflags(write=False)
    return ClusterLayout(q=q, n=n, w=w, centres=centres, cluster=cluster, is_centre=is_centre, edges=edges,
                         kind=kind, pair=pair, _index=tuple(index))


def _layout_base(S: SingerModel) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The vertex part of :func:`cluster_layout`: ``(w, centres, cluster, is_centre, d1)``.

    ``d1[r]`` (``r != 0``) is the ``d1`` of the unique ``d1 - d2 = r`` (``d1, d2`` in ``D``; ``d1[0] = -1``):
    the common neighbour of ``x != y`` is ``(d1[(x - y) mod n] - x) mod n`` (see :func:`_partner`). ``O(n)``
    memory; the edges are not built.
    """
    q, n, D = S.q, S.n, S.D
    w = int(S.absolute_points()[0])
    ia, ib = np.nonzero(~np.eye(q + 1, dtype=bool))
    diff = (D[ia] - D[ib]) % n
    tab_a = np.full(n, -1, dtype=np.int64)
    tab_b = np.full(n, -1, dtype=np.int64)
    tab_a[diff] = ia
    tab_b[diff] = ib
    del ia, ib, diff
    jw = int(np.flatnonzero(D == (2 * w) % n)[0])
    x = np.arange(n, dtype=np.int64)
    delta = (x - w) % n
    a, b = tab_a[delta], tab_b[delta]
    del delta, tab_b
    is_centre = (b == jw) & (x != w)
    dindex = np.where(is_centre, a, b)
    del a, b
    others = np.flatnonzero(np.arange(q + 1) != jw)
    centre_of = (D[others] - w) % n
    order = np.argsort(centre_of)
    centres = centre_of[order]
    cid = np.full(q + 1, -1, dtype=np.int64)
    cid[others[order]] = np.arange(q)
    cluster = np.where(x == w, -1, cid[np.where(x == w, 0, dindex)])
    del dindex, x
    if not np.array_equal(np.flatnonzero(is_centre), np.sort(centres)) or \
            np.any(np.bincount(cluster[cluster >= 0], minlength=q) != q + 1):
        raise RuntimeError(f"q={q}: cluster layout failed")  # pragma: no cover
    d1 = np.where(tab_a >= 0, D[np.maximum(tab_a, 0)], -1)
    return w, centres, cluster, is_centre, d1


@numba.njit(cache=True, inline="always")
def _partner(d1, x, y):  # pragma: no cover - compiled
    """The common neighbour of the vertices ``x != y``: ``(d1 - x) mod n`` for the unique ``d1 - d2 = x - y``
    (``d1, d2`` in ``D``); ``x + (d1 - x) = d1`` and ``y + (d1 - x) = d2`` are in ``D``. For ``x`` in ``X_i``
    and the centre ``y = v_j`` (``j != i``) it is the partner of ``x`` in ``M(i, j)``; for ``y = v_i`` it is
    the other end of ``x``'s internal edge (or ``x`` itself, or ``v_i``, when there is none)."""
    n = d1.shape[0]
    r = x - y  # in (-n, n): a branch, not an integer division
    if r < 0:
        r += n
    p = d1[r] - x
    return p + n if p < 0 else p


def _depth_at(depth, t, v):  # pragma: no cover - replaced by the overload in compiled code
    """The depth of ``v`` in the forest of tree ``t``: ``depth[t, v]`` for a ``(k, n)`` table, else computed by
    :func:`_lifted_depth` from a depth rule (a tuple, see there)."""
    return depth[t, v] if isinstance(depth, np.ndarray) else _lifted_depth(depth, t, v)


@overload(_depth_at)
def _depth_at_impl(depth, t, v):  # pragma: no cover - compiled
    if isinstance(depth, types.Array):
        return lambda depth, t, v: depth[t, v]
    return lambda depth, t, v: _lifted_depth(depth, t, v)


def _depth_row(depth, t, vs, out):  # pragma: no cover - replaced by the overload in compiled code
    """``out[c] = _depth_at(depth, t, vs[c])`` for every ``c`` (the rule's lookups batched: see
    :func:`_lifted_depth_row`)."""
    for c in range(len(vs)):
        out[c] = _depth_at(depth, t, vs[c])


@overload(_depth_row)
def _depth_row_impl(depth, t, vs, out):  # pragma: no cover - compiled
    if isinstance(depth, types.Array):
        def table_row(depth, t, vs, out):
            for c in range(vs.shape[0]):
                out[c] = depth[t, vs[c]]
        return table_row
    return lambda depth, t, vs, out: _lifted_depth_row(depth, t, vs, out)


@numba.njit(cache=True)
def _lifted_depth_row(rule, t, vs, out):  # pragma: no cover - compiled
    """:func:`_lifted_depth` of every ``vs[c]`` in tree ``t`` into ``out``: the hop to the hub cluster first for
    all vertices (independent lookups, which overlap in memory), then the anchor bits."""
    d1, cluster, centres, anchored, zpos, zdep, qc, z = rule
    m = vs.shape[0]
    a = 2 * t
    ca = centres[a]
    cb = centres[a + 1]
    y = np.empty(m, np.int64)
    alt = np.empty(m, np.int64)  # the depth when the copy hangs from v_b (out: from v_a); -1: no rule
    for c in range(m):
        v = vs[c]
        i = cluster[v]
        if i == z or i < 0 or i >= qc:
            alt[c] = -1
            continue
        if i == a or i == a + 1:
            y[c] = v
            out[c] = 2 if i == a else 3
            alt[c] = 5 - out[c]
            continue
        near_a = _near_a(i, t, qc)
        y[c] = _partner(d1, v, ca if near_a else cb)
        out[c] = 3 if near_a else 4
        alt[c] = 7 - out[c]
    for c in range(m):
        if alt[c] < 0:
            out[c] = _lifted_depth(rule, t, vs[c])
        elif not anchored[y[c]]:
            out[c] = alt[c]


@numba.njit(cache=True, inline="always")
def _near_a(i, t, qc):  # pragma: no cover - compiled
    """Whether the leaf cluster ``i`` of the double star ``S_t`` (:func:`double_stars`) hangs from ``a = 2t``."""
    if i == qc - 1 and qc % 2 == 1:
        return True  # the odd leaf of S_t hangs from a
    if t < i // 2:
        return i % 2 == 0
    return i % 2 == 1


@numba.njit(cache=True, inline="always")
def _lifted_depth(rule, t, v):  # pragma: no cover - compiled
    """The depth from ``w`` of the non-centre ``v`` in the forest of steps 1-3 of tree ``t`` (``_hub_kernel``),
    without the forest: ``rule = (d1, cluster, centres, anchored, zpos, zdep, qc, z)``.

    ``v`` in cluster ``i`` of the double star ``S_t`` (hubs ``a = 2t``, ``b = 2t+1``) lies at depth
    ``2 + dist_{S_t}(anchor, i)``. The copy of ``v`` meets the hub cluster next to ``i`` (or ``i`` itself) at
    one partner hop (:func:`_partner`), and ``anchored[y]`` for a vertex ``y`` of a hub cluster says whether
    its copy hangs from ``v_a``: for ``y`` in ``X_a``, rank below ``h = ceil(q/2)`` in ``X_a``; for ``y`` in
    ``X_b``, the same of its partner in ``X_a`` (``anchored`` of :func:`_lifted_anchors`). Vertices of ``X_z``
    (``z >= 0``) take ``zdep[t, zpos[v]]`` (``-1`` before they are hung); ``-1`` outside the ``qc`` clusters.
    """
    d1, cluster, centres, anchored, zpos, zdep, qc, z = rule
    i = cluster[v]
    if i == z:
        return zdep[t, zpos[v]]
    if i < 0 or i >= qc:
        return -1
    a = 2 * t
    if i == a:
        return 2 if anchored[v] else 3
    if i == a + 1:
        return 3 if anchored[v] else 2
    if _near_a(i, t, qc):
        return 3 if anchored[_partner(d1, v, centres[a])] else 4
    return 4 if anchored[_partner(d1, v, centres[a + 1])] else 3


def _lifted_anchors(d1: np.ndarray, xs: np.ndarray, centres: np.ndarray, nclusters: int) -> np.ndarray:
    """``anchored[y]`` for ``y`` in ``X_a`` or ``X_b`` of a double star (``a = 2t``, ``b = 2t + 1 < nclusters``):
    whether the copy of ``y`` hangs from ``v_a`` in tree ``t`` (rank below ``ceil(q/2)`` in ``X_a``, through
    the partner in ``X_a`` for ``y`` in ``X_b``); False elsewhere. ``O(n)``.

    Example
    -------
    >>> from starlib.edst.factor.er.singer import singer_model
    >>> S = singer_model(4)
    >>> w, centres, cluster, is_centre, d1 = _layout_base(S)
    >>> x = np.flatnonzero((cluster >= 0) & ~is_centre)
    >>> xs = x[np.argsort(cluster[x], kind="stable")].reshape(4, 4)
    >>> [int(_lifted_anchors(d1, xs, centres, 4)[xs[i]].sum()) for i in range(4)]
    [2, 2, 2, 2]
    """
    q = xs.shape[0]
    n = d1.shape[0]
    anchored = np.zeros(n, dtype=bool)
    h = (q + 1) // 2
    for a in range(0, nclusters - 1, 2):
        anchored[xs[a, :h]] = True
        y = xs[a + 1]
        p = (d1[(y - centres[a]) % n] - y) % n  # partners in X_a (see _partner)
        anchored[y] = anchored[p]
    return anchored


@numba.njit(cache=True)
def _layout_kernel(D, n, w, cluster, is_centre, q, edges, kind, pair, star_of, w_of, mate, mid, start,
                   mends):  # pragma: no cover - compiled
    """Fill the edges of ER_q (as :meth:`SingerModel.edges`), their kind and cluster pair, and the lookups of
    :class:`_Ids` (``star_of, w_of, mate, mid, start, mends``; ``pair``, ``star_of``, ``w_of``, ``mate``
    start at -1), in one pass that writes each edge and classifies it. Returns a failed check (0: none;
    1: a centre adjacent outside its cluster, or a w-edge not at a centre; 2: an ``M(i, j)`` of size != q,
    or not ``q (q+1)^2 / 2`` edges).

    Every ``M(i, j)``, ``i < j``, has ``q`` edges (checked), so the pair groups of ``mid`` start at ``q``
    times the number of smaller pair ids; within a group the edges keep their order.
    """
    k = D.shape[0]
    m = edges.shape[0]
    c = 0
    for p in range(q * q):
        start[p] = c
        if p // q < p % q:
            c += q
    cnt = np.zeros(q * q, np.int64)
    bad = 0
    j = 0
    for u in range(n):
        j0 = np.searchsorted(D, u)
        for t in range(k):  # the neighbours (d - u) mod n in increasing order (see _singer_edges)
            jd = j0 + t
            v = D[jd] - u if jd < k else D[jd - k] - u + n
            if v <= u:
                continue
            if j >= m:
                return 2
            edges[j, 0] = u
            edges[j, 1] = v
            cu = cluster[u]
            cv = cluster[v]
            centre = is_centre[u] or is_centre[v]
            if u == w or v == w:
                kind[j] = 0  # W_EDGE
                w_of[v if u == w else u] = j
                if not centre:
                    bad = 1
            elif centre:
                kind[j] = 1  # STAR
                star_of[v if is_centre[u] else u] = j
                if cu != cv:
                    bad = 1
            elif cu == cv:
                kind[j] = 2  # INTERNAL
                mate[u] = v
                mate[v] = u
            else:
                kind[j] = 3  # MATCHING
                p = min(cu, cv) * q + max(cu, cv)
                pair[j] = p
                if cnt[p] < q:
                    mid[start[p] + cnt[p]] = j
                    mends[start[p] + cnt[p], 0] = u
                    mends[start[p] + cnt[p], 1] = v
                cnt[p] += 1
            j += 1
    if j != m and bad == 0:
        bad = 2
    if bad == 0:
        for i in range(q):
            for k2 in range(i + 1, q):
                if cnt[i * q + k2] != q:
                    bad = 2
    return bad


@numba.njit(cache=True)
def _layout_index(edges, kind, pair, is_centre, w, n, q):  # pragma: no cover - compiled
    """Edge-id lookups of a layout (see :class:`_Ids`): ``star_of``, ``w_of``, ``mate``, the matching edges
    grouped by cluster pair (a stable counting sort: ``mid``, ``start``) and their ends ``mends``."""
    star_of = np.full(n, -1, np.int64)
    w_of = np.full(n, -1, np.int64)
    mate = np.full(n, -1, np.int64)
    start = np.zeros(q * q + 1, np.int64)
    m = edges.shape[0]
    for j in range(m):
        u = edges[j, 0]
        v = edges[j, 1]
        k = kind[j]
        if k == 0:  # W_EDGE
            w_of[v if u == w else u] = j
        elif k == 1:  # STAR
            star_of[v if is_centre[u] else u] = j
        elif k == 2:  # INTERNAL
            mate[u] = v
            mate[v] = u
        else:
            start[pair[j] + 1] += 1
    for p in range(q * q):
        start[p + 1] += start[p]
    fill = start[:q * q].copy()
    mid = np.empty(start[q * q], np.int32)
    for j in range(m):
        if kind[j] == 3:
            mid[fill[pair[j]]] = j
            fill[pair[j]] += 1
    mends = np.empty((mid.shape[0], 2), np.int32)
    for i in range(mid.shape[0]):
        mends[i, 0] = edges[mid[i], 0]
        mends[i, 1] = edges[mid[i], 1]
    return star_of, w_of, mate, mid, start[:q * q], mends


def double_stars(q: int) -> list[np.ndarray]:
    """The ``floor(q/2)`` edge-disjoint double stars ``S_t`` of ``K_q`` (docs/er-edsts.md §6 step 1).

    ``S_t`` has centres ``a = 2t`` and ``b = 2t+1``, the edge ``a b``, and for every other centre pair
    ``u``: ``a_t a_u, b_t b_u`` if ``t < u``, else ``a_t b_u, b_t a_u``; for odd ``q`` also ``a_t z``,
    ``z = q - 1``. Each is a spanning tree of ``K_q`` of depth 2 from ``a``.

    Parameters
    ----------
    q : int
        Number of clusters, ``q >= 2``.

    Returns
    -------
    list of ndarray
        ``S_t`` as a ``(q-1, 2)`` array of cluster indices.

    Example
    -------
    >>> [s.tolist() for s in double_stars(4)]
    [[[0, 1], [0, 2], [1, 3]], [[2, 3], [2, 1], [3, 0]]]

    References
    ----------
    docs/er-edsts.md §6 step 1.
    """
    return list(_double_star_rows(int(q)))


# ---------------------------------------------------------------------------------------------
# compiled kernels (private): double stars, the ER_q steps (matching, BFS and flow from starlib._kernels)
# ---------------------------------------------------------------------------------------------
@numba.njit(cache=True)
def _double_star_rows(q):  # pragma: no cover - compiled
    """``(floor(q/2), q-1, 2)``: the rows of every ``S_t`` in the order of :func:`double_stars`."""
    s = q // 2
    out = np.empty((s, q - 1, 2), np.int64)
    for t in range(s):
        a = 2 * t
        b = a + 1
        out[t, 0, 0] = a
        out[t, 0, 1] = b
        k = 1
        for u in range(s):
            if u == t:
                continue
            au = 2 * u
            bu = au + 1
            out[t, k, 0] = a
            out[t, k + 1, 0] = b
            if t < u:
                out[t, k, 1] = au
                out[t, k + 1, 1] = bu
            else:
                out[t, k, 1] = bu
                out[t, k + 1, 1] = au
            k += 2
        if q % 2:
            out[t, k, 0] = a
            out[t, k, 1] = q - 1
    return out


@numba.njit(cache=True)
def _max_matching(good):  # pragma: no cover - compiled
    """Maximum matching of the rows of the boolean matrix ``good`` (:func:`starlib._kernels.hopcroft_karp`,
    columns in increasing order): ``col[r]`` or ``-1``."""
    indptr, indices = bool_rows(good)
    return hopcroft_karp_jit(indptr, indices, good.shape[1])


@numba.njit(cache=True)
def _match(good):  # pragma: no cover - compiled
    """Rows matched to distinct columns: a maximum matching on ``good`` first, the rest arbitrarily.

    Returns ``col[r]`` for every row: the rows left unmatched take the unused columns in increasing
    order (``good`` must have at least as many columns as rows).
    """
    col = _max_matching(good)
    r, c = good.shape
    taken = np.zeros(c, np.bool_)
    for a in range(r):
        if col[a] >= 0:
            taken[col[a]] = True
    j = 0
    for a in range(r):
        if col[a] < 0:
            while taken[j]:
                j += 1
            col[a] = j
            j += 1
    return col


@numba.njit(cache=True)
def _tree_depths(n, ends, root):  # pragma: no cover - compiled
    """BFS depth from ``root`` (int16, ``-1`` if unreached) in each forest ``ends[t]`` (``(k, m, 2)`` edge rows):
    ``(k, n)``, and whether every unreached vertex is isolated in its forest."""
    k = ends.shape[0]
    out = np.full((k, n), -1, np.int16)
    isolated = True
    roots = np.array([root], np.int64)
    for t in range(k):
        indptr, indices = csr_jit(n, ends[t], False)
        dist = bfs_from_jit(indptr, indices, roots)[0]
        for v in range(n):
            out[t, v] = dist[v]
            if dist[v] < 0 and indptr[v + 1] > indptr[v]:
                isolated = False
    return out, isolated


@numba.njit(cache=True)
def _extend_depths(depth, edges, extra):  # pragma: no cover - compiled
    """BFS depths ``depth`` of forests in which every unreached vertex is isolated, after adding ``extra``.

    Exact when every added edge hangs a new leaf: one end reached, the other unreached (so isolated, as
    no earlier added edge touched it). Then the BFS depth of the leaf is its neighbour's plus one and
    nothing else changes. Updates ``depth`` in place and returns ``(depth, ok)``; ``ok`` is False if some
    edge is not of that form (then run the BFS on the whole forest).
    """
    k = depth.shape[0]
    out = depth  # updated in place (the caller passes a copy)
    for t in range(k):
        for j in range(extra.shape[1]):
            e = extra[t, j]
            u = edges[e, 0]
            v = edges[e, 1]
            if out[t, u] >= 0 and out[t, v] < 0:
                out[t, v] = out[t, u] + 1
            elif out[t, v] >= 0 and out[t, u] < 0:
                out[t, u] = out[t, v] + 1
            else:
                return out, False
    return out, True


@numba.njit(cache=True)
def _hub_kernel(edges, cluster, mid, mends, start, q, stars, xs, star_of, w_of, centres, used,  # pragma: no cover
                w, ends, depth):
    """Steps 1-3 of :func:`lifted_cluster_trees` for every double star, and the BFS depths from ``w``.

    Fills ``ends`` and ``depth`` (``-1`` on entry) and returns ``(nb, ok)``: ``ends[t]`` (its first ``nb``
    rows) the rows of ``edges`` of the ``M(i, j)`` edges of ``S_t`` (rows of ``S_t`` in order, each matching
    in its stored order), then of the hub edges: the star edges of ``v_a`` to the first ``ceil(q/2)`` vertices of
    ``X_a``, of ``v_b`` to the vertices of ``X_b`` in the other copies, and ``w v_a``, ``w v_b``;
    ``depth[t]`` the BFS depth from ``w`` in that forest (int16, ``-1`` where unreached: the other centres
    and the clusters outside ``S_t``, all isolated in it). ``ok`` is False if a count or disjointness check
    fails. Marks the edges in ``used``.

    The lift of the tree ``S_t`` through perfect matchings is ``q`` disjoint copies of ``S_t``, each with
    one vertex per cluster. Every row of ``S_t`` starts at ``a`` or ``b`` and the first is ``ab``, so one
    pass over the rows carries each copy's anchor (``v_a`` for the copies of the first ``ceil(q/2)``
    vertices of ``X_a``, else ``v_b``) to all its vertices; the copy hangs from ``w`` only through its
    anchor, so a vertex of cluster ``j`` lies at depth ``2 + dist_{S_t}(anchor cluster, j)``.
    """
    s, r = stars.shape[0], stars.shape[1]
    n = cluster.shape[0]
    h = (q + 1) // 2
    nb = r * q + q + 2
    if ends.shape[0] != s or ends.shape[1] < nb or depth.shape[0] != s or depth.shape[1] != n:
        return nb, False
    hub = np.empty(q + 2, np.int64)
    on_a = np.zeros(n, np.bool_)  # the copy of the vertex is anchored at v_a
    da = np.zeros(q, np.int64)  # distances in S_t from a, from b
    db = np.zeros(q, np.int64)
    ok = True
    for t in range(s):
        a = stars[t, 0, 0]
        b = stars[t, 0, 1]
        da[a] = 0
        db[a] = 1
        da[b] = 1
        db[b] = 0
        for j in range(1, r):
            leaf = stars[t, j, 1]
            da[leaf] = 1 if stars[t, j, 0] == a else 2
            db[leaf] = 3 - da[leaf]
        d = depth[t]
        d[w] = 0
        d[centres[a]] = 1
        d[centres[b]] = 1
        for c in range(q):
            x = xs[a, c]
            on_a[x] = c < h
            d[x] = 2 if c < h else 3
        k = 0
        for j in range(r):
            i = stars[t, j, 0]
            jj = stars[t, j, 1]
            base = start[min(i, jj) * q + max(i, jj)]
            for c in range(q):
                e = mid[base + c]
                if used[e]:
                    ok = False
                used[e] = True
                u = mends[base + c, 0]
                v = mends[base + c, 1]
                ends[t, k, 0] = u
                ends[t, k, 1] = v
                k += 1
                x, y = (u, v) if cluster[u] == i else (v, u)
                on_a[y] = on_a[x]
                d[y] = 2 + (da[jj] if on_a[x] else db[jj])
        hk = 0
        for c in range(h):
            hub[hk] = star_of[xs[a, c]]
            hk += 1
        for c in range(q):
            y = xs[b, c]
            if not on_a[y]:
                if hk >= q:
                    ok = False
                    break
                hub[hk] = star_of[y]
                hk += 1
        if hk != q:
            ok = False
            hk = q
        hub[hk] = w_of[centres[a]]
        hub[hk + 1] = w_of[centres[b]]
        for j in range(q + 2):
            if used[hub[j]]:
                ok = False
            used[hub[j]] = True
            ends[t, k + j, 0] = edges[hub[j], 0]
            ends[t, k + j, 1] = edges[hub[j], 1]
    return nb, ok


@numba.njit(cache=True)
def _hang_kernel(s, nclusters, xs, star_of, used, depth, reserve, mate, avoid_pairs):  # pragma: no cover
    """Step 4 of :func:`lifted_cluster_trees` for the clusters ``0 .. nclusters-1`` (see ``_hang_centres``).

    Returns ``(hang, bad, nfree, ntrees)``: ``hang[t, i]`` the star edge id hanging ``v_i`` in tree ``t``
    (``-1`` for the hubs of ``t``); ``bad`` the first cluster short of free star edges (``-1`` if none,
    ``-2`` if the pair-avoiding swap found no row), with its counts.
    """
    q = xs.shape[1]
    hang = np.full((s, nclusters), -1, np.int64)
    trees = np.empty(s, np.int64)
    free = np.empty(q, np.int64)
    inc = np.empty(q, np.bool_)
    left = np.empty(q, np.int64)
    for i in range(nclusters):
        nt = 0
        for t in range(s):
            if i != 2 * t and i != 2 * t + 1:
                trees[nt] = t
                nt += 1
        if nt == 0:
            continue
        res = reserve[i]
        nf = 0
        for c in range(q):
            x = xs[i, c]
            if not used[star_of[x]] and x != res:
                free[nf] = x
                nf += 1
        if nf < nt:
            return hang, i, nf, nt
        good = np.empty((nt, nf), np.bool_)
        drow = np.empty(nf, np.int64)
        for a in range(nt):
            _depth_row(depth, trees[a], free[:nf], drow)
            for c in range(nf):
                good[a, c] = drow[c] <= 3
        col = _match(good)
        inc[:nf] = False
        for a in range(nt):
            inc[col[a]] = True
        nl = 0
        for c in range(nf):
            if not inc[c]:
                left[nl] = c
                nl += 1
        nkept = nl + (1 if res >= 0 else 0)
        if avoid_pairs and nkept == 2:
            k0 = free[left[0]]
            k1 = free[left[1]] if nl == 2 else res
            if mate[k0] == k1:
                # give the first non-reserved leftover to a tree (its old vertex is outside the pair)
                best = -1
                bestd = 0
                for a in range(nt):
                    if free[col[a]] != k1:
                        dv = _depth_at(depth, trees[a], k0)
                        if best < 0 or dv < bestd:
                            best = a
                            bestd = dv
                if best < 0:
                    return hang, -2, nf, nt
                col[best] = left[0]
        for a in range(nt):
            e = star_of[free[col[a]]]
            hang[trees[a], i] = e
        for a in range(nt):
            used[star_of[free[col[a]]]] = True
    return hang, -1, 0, 0


@numba.njit(cache=True)
def _reserve_kernel(cand, used, star_of, comp_rep, pz, zslot, nslots):  # pragma: no cover - compiled
    """Reserve a free star vertex per ``b`` cluster (rows of ``cand``: ``X_b``) whose ``X_z`` partner's
    component gets its own slot (a matching of clusters to the slots of ``X_z``). Returns ``(res, starred)``:
    the reserved vertex per row (``-1``: none) and per slot the ``X_z`` vertex that ``F`` must star."""
    nb, q = cand.shape
    g = np.zeros((nb, nslots), np.bool_)
    for r in range(nb):
        for c in range(q):
            x = cand[r, c]
            if not used[star_of[x]]:
                g[r, zslot[comp_rep[pz[x]]]] = True
    mt = _max_matching(g)
    res = np.full(nb, -1, np.int64)
    starred = np.full(nslots, -1, np.int64)
    for r in range(nb):
        if mt[r] >= 0:
            for c in range(q):
                x = cand[r, c]
                if not used[star_of[x]] and zslot[comp_rep[pz[x]]] == mt[r]:
                    res[r] = x
                    starred[mt[r]] = pz[x]
                    break
    return res, starred


@numba.njit(cache=True)
def _plan_kernel(cand, bs, used, star_of, comp_rep, res, q):  # pragma: no cover - compiled
    """The two free star vertices of every ``b`` cluster: ``(cov, unc, forced, ok)`` indexed by cluster
    (``-1`` / False elsewhere); ``ok`` is False unless there are exactly two, in different components."""
    cov = np.full(q, -1, np.int64)
    unc = np.full(q, -1, np.int64)
    forced = np.zeros(q, np.bool_)
    for r in range(cand.shape[0]):
        f0 = -1
        f1 = -1
        cnt = 0
        for c in range(cand.shape[1]):
            x = cand[r, c]
            if not used[star_of[x]]:
                if cnt == 0:
                    f0 = x
                elif cnt == 1:
                    f1 = x
                cnt += 1
        if cnt != 2 or comp_rep[f0] == comp_rep[f1]:
            return cov, unc, forced, False
        b = bs[r]
        if res[r] >= 0:
            cov[b] = res[r]
            unc[b] = f1 if f0 == res[r] else f0
            forced[b] = True
        else:
            cov[b] = f0
            unc[b] = f1
    return cov, unc, forced, True


@numba.njit(cache=True)
def _xz_kernel(depth, k, mz, used, edges, cluster, z, xz, s):  # pragma: no cover - compiled
    """At every ``x`` in ``X_z``, its ``s`` matching edges not in ``used`` (``mz`` order), one per tree: a
    matching of trees to edges whose other end is at depth <= 3 first. Returns ``(zm, ok)``: ``zm[t, j]``
    the edge tree ``t`` takes at ``xz[j]``; ``ok`` False if some ``x`` does not keep exactly ``s`` edges.
    Marks the edges in ``used``. ``depth``: a ``(k, n)`` table or a rule of :func:`_lifted_depth`."""
    nz = xz.shape[0]
    pos = np.full(cluster.shape[0], -1, np.int64)
    for j in range(nz):
        pos[xz[j]] = j
    cnt = np.zeros(nz, np.int64)
    be = np.empty((nz, s), np.int64)
    by = np.empty((nz, s), np.int64)
    zm = np.empty((k, nz), np.int64)
    for i in range(mz.shape[0]):
        e = mz[i]
        if used[e]:
            continue
        u = edges[e, 0]
        v = edges[e, 1]
        x, y = (u, v) if cluster[u] == z else (v, u)
        j = pos[x]
        if cnt[j] >= s:
            return zm, False
        be[j, cnt[j]] = e
        by[j, cnt[j]] = y
        cnt[j] += 1
    for j in range(nz):
        if cnt[j] != s:
            return zm, False
    good = np.empty((k, s), np.bool_)
    drow = np.empty(s, np.int64)
    for j in range(nz):
        for t in range(k):
            _depth_row(depth, t, by[j], drow)
            for c in range(s):
                good[t, c] = drow[c] <= 3
        col = _match(good)
        for t in range(k):
            zm[t, j] = be[j, col[t]]
        for c in range(s):
            used[be[j, c]] = True
    return zm, True


@numba.njit(cache=True)
def _zstar_kernel(dz, k, zreps, mate, starred):  # pragma: no cover - compiled
    """``v_z`` in each tree ``T_t``: an end of an internal edge of ``X_z`` (not the end ``F`` must star), one
    internal edge per tree (a matching preferring ends at depth <= 3), the shallower allowed end. ``dz``: a
    ``(k, n)`` table or a rule of :func:`_lifted_depth`."""
    big = 32767
    npair = 0
    for i in range(zreps.shape[0]):
        if mate[zreps[i]] >= 0:
            npair += 1
    ends = np.empty((npair, 2), np.int64)
    dd = np.empty((k, npair, 2), np.int64)
    p = 0
    for i in range(zreps.shape[0]):
        a = zreps[i]
        if mate[a] < 0:
            continue
        ends[p, 0] = a
        ends[p, 1] = mate[a]
        for e in range(2):
            ok = starred[i] < 0 or ends[p, e] != starred[i]
            for t in range(k):
                dd[t, p, e] = _depth_at(dz, t, ends[p, e]) if ok else big
        p += 1
    good = np.empty((k, npair), np.bool_)
    for t in range(k):
        for p in range(npair):
            good[t, p] = min(dd[t, p, 0], dd[t, p, 1]) <= 3
    col = _match(good)
    zstar = np.empty(k, np.int64)
    for t in range(k):
        p = col[t]
        zstar[t] = ends[p, 0] if dd[t, p, 0] <= dd[t, p, 1] else ends[p, 1]
    return zstar


@numba.njit(cache=True)
def _partners_kernel(edges, cluster, mid, start, q, z):  # pragma: no cover - compiled
    """The edges of ``M(i, z)``, ``i != z`` (``i`` increasing), and per vertex ``y`` outside ``C_z`` its
    partner ``pz[y]`` in ``X_z`` and that edge ``medge[y]`` (``-1`` elsewhere)."""
    n = cluster.shape[0]
    mz = np.empty((q - 1) * q, np.int64)
    pz = np.full(n, -1, np.int64)
    medge = np.full(n, -1, np.int64)
    k = 0
    for i in range(q):
        if i == z:
            continue
        base = start[min(i, z) * q + max(i, z)]
        for c in range(q):
            e = mid[base + c]
            mz[k] = e
            k += 1
            u = edges[e, 0]
            v = edges[e, 1]
            x, y = (u, v) if cluster[u] == z else (v, u)
            pz[y] = x
            medge[y] = e
    return mz, pz, medge


# ---------------------------------------------------------------------------------------------
# the constructions
# ---------------------------------------------------------------------------------------------
class _Ids:
    """Edge-id lookups of a layout: star edge of a non-centre, w-edge of a centre, matchings by pair.

    ``star_of[x]``, ``w_of[v]``: edge ids; ``mate[x]``: the other end of ``x``'s internal edge (``-1`` if
    none); ``mid[start[i q + j]:][:q]``: the edges of ``M(i, j)``, ``i < j``, in edge order, and ``mends``
    their rows of ``edges`` (read in order instead of gathered); ``xs[i]`` (a ``(q, q)`` array) lists
    ``X_i`` increasingly.
    """

    def __init__(self, L: ClusterLayout) -> None:
        n, q = L.n, L.q
        index = L._index or _layout_index(L.edges, L.kind, L.pair, L.is_centre, L.w, n, q)
        self.star_of, self.w_of, self.mate, self.mid, self.start, self.mends = index
        x = np.flatnonzero((L.cluster >= 0) & ~L.is_centre)
        self.xs = x[np.argsort(L.cluster[x], kind="stable")].reshape(q, q)



def _hub_trees(L: ClusterLayout, ids: _Ids, qc: int, used: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Steps 1-3 of :func:`lifted_cluster_trees` on the clusters ``0 .. qc-1``: the number ``nb`` of their
    edges per tree, ``ends`` (per tree an ``(n-1, 2)`` array whose first ``nb`` rows are those edges; the
    rest is for the caller to fill) and the BFS depths from ``w`` in these forests (see ``_hub_kernel``)."""
    stars = _double_star_rows(qc)
    ends = np.empty((stars.shape[0], L.n - 1, 2), dtype=np.int64)  # numpy-allocated: see cluster_layout
    depth = np.full((stars.shape[0], L.n), -1, dtype=np.int16)
    nb, ok = _hub_kernel(L.edges, L.cluster, ids.mid, ids.mends, ids.start, L.q, stars, ids.xs, ids.star_of,
                         ids.w_of, L.centres, used, L.w, ends, depth)
    if not ok:  # pragma: no cover - disjoint by construction
        raise RuntimeError("hub trees collide")
    return nb, ends, depth


def _hang_centres(ids: _Ids, s: int, depth: np.ndarray | tuple, nclusters: int, used: np.ndarray,
                  avoid_pairs: bool = False, reserve: np.ndarray | None = None) -> np.ndarray:
    """Step 4: hang every non-hub centre of the clusters ``0 .. nclusters-1`` from a free star edge.

    For cluster ``i`` the trees ``t`` with ``i`` not in ``{2t, 2t+1}`` are matched to the free vertices of
    ``X_i`` (depth <= 3 in the tree first; :func:`_match`). ``reserve[i]`` (``-1``: none) is a vertex of
    ``X_i`` whose star edge no tree may take. With ``avoid_pairs`` the star edges left free in a cluster
    (two, counting the reserved one) are kept off a common internal edge (the odd-q design needs them in
    different internal components). Returns ``hang`` (``(s, nclusters)`` star edge ids, ``-1`` at the
    hubs of a tree) and marks the edges in ``used``.
    """
    if reserve is None:
        reserve = np.full(nclusters, -1, dtype=np.int64)
    hang, bad, nf, nt = _hang_kernel(s, nclusters, ids.xs, ids.star_of, used, depth, reserve,
                                     ids.mate, avoid_pairs)
    if bad == -2:  # pragma: no cover - a tree always holds a vertex outside the pair
        raise RuntimeError("avoid_pairs: no tree can give up its star edge")
    if bad >= 0:
        raise RuntimeError(f"cluster {bad}: {nf} free star edges for {nt} trees")
    return hang


def _hung(hang: np.ndarray) -> np.ndarray:
    """The star edge ids of ``hang`` per tree, clusters in increasing order (hubs skipped)."""
    return hang[hang >= 0].reshape(hang.shape[0], -1)


def lifted_cluster_trees(L: ClusterLayout) -> tuple[list[np.ndarray], np.ndarray]:
    """Lifted-cluster spanning trees rooted at ``w`` (Construction C, docs/er-edsts.md §6).

    Tree ``t`` (``t < floor(q/2)``) consists of

    1. every matching ``M(i, j)`` with ``{i, j}`` in the double star ``S_t`` (``q`` copies, each a
       transversal of the clusters);
    2. the star edges ``v_a - x`` for ``x`` in ``X_a`` of the first ``ceil(q/2)`` copies (ordered by their
       ``X_a`` vertex) and ``v_b - y`` for ``y`` in ``X_b`` of the remaining copies;
    3. the edges ``w - v_a`` and ``w - v_b`` (Construction C uses ``w - v_a`` and lets a copy shared by
       both hubs carry ``v_b``; joining ``v_b`` to ``w`` instead shortens the tree by two levels);
    4. for every other centre ``v_i`` one star edge ``v_i - x`` not used by any tree. In ``S_t`` cluster
       ``i`` is adjacent to exactly one hub, so ``x`` lies at depth 3 iff its copy hangs from that hub;
       a maximum bipartite matching per cluster (trees against free ``x``) takes depth-3 vertices first,
       then any free vertex.

    Depth from ``w``: hubs 1, their ``X`` vertices 2, the rest of a copy at most 4, hung centres 4 (or 5
    when the matching of step 4 is not perfect). For even ``q`` these are ``q/2`` EDSTs, the maximum;
    for odd ``q`` there are ``(q-1)/2`` (see :func:`odd_cluster_trees` for the maximum).

    Parameters
    ----------
    L : ClusterLayout

    Returns
    -------
    (trees, used)
        ``trees[t]`` an ``(n-1, 2)`` edge array in Singer labels; ``used`` the boolean mask over
        ``L.edges`` of the edges taken.

    Raises
    ------
    RuntimeError
        If a cluster runs out of free star edges (the star-edge budget of docs/er-edsts.md §6 rules this out).

    Notes
    -----
    The per-cluster matchings and BFS depths run in compiled kernels (this module's, calling
    :mod:`starlib._kernels`); ``O(q^3)`` work in all, a few Python steps.

    Example
    -------
    >>> from starlib.edst.factor.er.singer import singer_model
    >>> L = cluster_layout(singer_model(4))
    >>> trees, used = lifted_cluster_trees(L)
    >>> [t.shape for t in trees], int(used.sum())
    ([(20, 2), (20, 2)], 40)

    References
    ----------
    docs/er-edsts.md §6 (Construction C), steps 1-5.
    """
    q = L.q
    used = np.zeros(L.edges.shape[0], dtype=bool)
    ids = _Ids(L)
    nb, ends, depth = _hub_trees(L, ids, q, used)
    s = ends.shape[0]
    hang = _hang_centres(ids, s, depth, q, used)
    ends[:, nb:] = np.take(L.edges, _hung(hang), axis=0)
    return list(ends), used


@numba.njit(cache=True)
def _flow_kernel(verts, cluster, comp_rep, unc, cov, forced, pz, medge, xz, s, target):  # pragma: no cover
    """Network, max-flow and chosen edges of :func:`_flow_selection` (``(chosen, saturated)``)."""
    n = cluster.shape[0]
    nv = verts.shape[0]
    nz = xz.shape[0]
    vnode = np.full(n, -1, np.int64)
    for i in range(nv):
        vnode[verts[i]] = i
    off_comp = 2
    off_v = off_comp + nv  # component node = off_comp + vnode[representative]
    off_z = off_v + nv
    znode = np.full(n, -1, np.int64)
    for i in range(nz):
        znode[xz[i]] = off_z + i
    live = np.empty(nv, np.bool_)
    arc = np.empty(nv, np.bool_)
    nhead = 0
    narc = 0
    for i in range(nv):
        x = verts[i]
        c = cluster[x]
        rep = comp_rep[x]
        live[i] = unc[c] < 0 or rep != comp_rep[unc[c]]  # not the uncovered component
        arc[i] = live[i] and not (forced[c] and rep == comp_rep[cov[c]] and x != cov[c])
        if live[i] and rep == x:
            nhead += 1
        if arc[i]:
            narc += 1
    m = nhead + narc + nv + nz
    rows = np.empty(m, np.int64)
    cols = np.empty(m, np.int64)
    caps = np.ones(m, np.int64)
    j = 0
    for i in range(nv):  # source -> one representative per live component
        if live[i] and comp_rep[verts[i]] == verts[i]:
            rows[j] = 0
            cols[j] = off_comp + i
            j += 1
    for i in range(nv):  # component -> its vertices (except the excluded ones)
        if arc[i]:
            rows[j] = off_comp + vnode[comp_rep[verts[i]]]
            cols[j] = off_v + i
            j += 1
    for i in range(nv):  # vertex -> its M(i, z) partner
        rows[j] = off_v + i
        cols[j] = znode[pz[verts[i]]]
        j += 1
    for i in range(nz):  # X_z -> sink, capacity s
        rows[j] = off_z + i
        cols[j] = 1
        caps[j] = s
        j += 1
    nodes = off_z + nz
    indptr, heads, flow = max_flow_jit(nodes, rows, cols, caps, 0, 1)
    value = 0
    for p in range(indptr[0], indptr[1]):
        value += flow[p]
    chosen = np.empty(nv, np.int64)
    c = 0
    for v in range(off_v, off_z):
        for p in range(indptr[v], indptr[v + 1]):
            if flow[p] > 0:
                chosen[c] = medge[verts[v - off_v]]
                c += 1
    return chosen[:c], value == target


def _flow_selection(xs: np.ndarray, cluster: np.ndarray, z: int, comp_rep: np.ndarray, pz: np.ndarray,
                    medge: np.ndarray, cov: np.ndarray, unc: np.ndarray, forced: np.ndarray) -> np.ndarray | None:
    """Choose the matching edges ``M(i, z)`` of the last tree by a max-flow (see :func:`odd_cluster_trees`).

    For the clusters ``b`` with ``unc[b] >= 0`` (the plan): ``cov[b]`` is the covered free vertex,
    ``unc[b]`` the uncovered one, whose component gets no matching edge; with ``forced[b]`` the covered
    component must use the covered vertex itself. Network (nodes: source 0, sink 1, then one per vertex
    ``y`` of the ``X_i``, ``i != z``, in cluster order, as the component node of ``y``'s internal component
    when ``y`` represents it, then one per such ``y`` as a vertex node, then ``X_z``): source -> internal
    components -> their vertices -> partner in ``X_z`` -> sink (capacity ``s`` at ``X_z``, 1 elsewhere).
    Returns the chosen edge ids (as a set: the order carries no meaning), or None if the flow does not
    saturate.
    """
    q = xs.shape[0]
    s = (q - 1) // 2
    verts = xs[np.arange(q) != z].ravel()
    chosen, full = _flow_kernel(verts, cluster, comp_rep, unc, cov, forced, pz, medge, xs[z], s, q * s)
    return chosen if full else None


def odd_cluster_trees(L: ClusterLayout) -> tuple[list[np.ndarray], np.ndarray] | None:
    """The maximum ``(q+1)/2`` EDSTs for odd ``q``: lifted trees on ``q-1`` clusters plus a last tree.

    Let ``z = q-1`` and ``s = (q-1)/2``. Trees ``T_0 .. T_{s-1}`` are the trees of
    :func:`lifted_cluster_trees` on the even number ``q-1`` of clusters ``0 .. q-2`` (pairs
    ``a = 2t, b = 2t+1``; copies split ``s+1 : s`` between the hubs), rooted at ``w``. The last tree ``F``
    is rooted at the centre ``v_z`` and contains

    * ``w - v_z``, and ``v_z - x`` for one end ``x`` of every internal edge of ``X_z`` and for the absolute
      point of ``X_z`` (``s + 1`` star edges: ``X_z`` hangs at depth 1 and 2);
    * every internal edge of every cluster (``q(q-1)/2``);
    * in each ``X_i``, ``i != z``: one edge of ``M(i, z)`` at one end of every internal component (an
      internal edge or the absolute point), except one component of each ``b`` cluster, which instead
      hangs from ``v_b`` by a star edge; and the free star edges of ``v_a`` (one) and ``v_b`` (two).

    Counting per cluster: an ``a`` cluster has ``q - (s+1) - (s-1) = 1`` free star edge and gives ``F``
    ``s+1`` matching edges; a ``b`` cluster has 2 and gives ``s``; every ``x`` in ``X_z`` must keep
    exactly ``s`` of its ``2s`` matching edges for the trees ``T_t`` (one each). The choice of the
    ``M(i, z)`` edges is a max-flow problem (source, components, vertices, ``X_z`` with capacity ``s``);
    a saturating flow gives ``F``. To keep ``F`` shallow, the covered free star vertex of every ``b``
    cluster is matched, where a bipartite matching allows it, to a vertex of ``X_z`` at depth 1, and is
    forced to carry its component's edge. The trees ``T_t`` then take, at every ``x`` in ``X_z``, its ``s``
    remaining matching edges (one per tree, a bipartite matching preferring shallow partners) and hang
    ``v_z`` from the other end of one internal edge of ``X_z`` each.

    Depths: ``T_t`` at most 5 from ``w`` (4 when every preference is met); ``F`` at most 5 from ``v_z``
    when every ``b`` cluster got its depth-1 vertex of ``X_z``, at most 7 otherwise.

    Parameters
    ----------
    L : ClusterLayout
        For an odd ``q >= 3``.

    Returns
    -------
    (trees, used) or None
        ``(q+1)/2`` edge arrays (``F`` last) and the mask of used edges (all of them), or None if the
        flow is not saturating or a free-star condition fails (then use :mod:`starlib.edst.factor.er.repair`).

    Raises
    ------
    ValueError
        If ``q`` is even.

    Notes
    -----
    The matchings (Hopcroft-Karp), the max-flow (Dinic), BFS depths and union-find run in the compiled
    kernels of :mod:`starlib._kernels`, which follow scipy's visiting orders, so the trees are those the
    scipy-based implementation built; ``O(q^3)`` work in all.

    Example
    -------
    >>> from starlib.edst.factor.er.singer import singer_model
    >>> out = odd_cluster_trees(cluster_layout(singer_model(7)))
    >>> len(out[0]), bool(out[1].all())
    (4, True)

    References
    ----------
    docs/er-edsts.md §7 (this design replaces the matroid repair of §8 when the flow saturates).
    """
    n, q = L.n, L.q
    if q % 2 == 0:
        raise ValueError(f"q={q} is even: odd_cluster_trees needs an odd prime power")
    s, z = (q - 1) // 2, q - 1
    used = np.zeros(L.edges.shape[0], dtype=bool)
    ids = _Ids(L)
    mate = ids.mate
    ar = np.arange(n)
    comp_rep = np.where((mate >= 0) & (mate < ar), mate, ar)
    nb, ends, depth = _hub_trees(L, ids, q - 1, used)
    # X_z: its internal components (pairs and the absolute point), one end of each starred in F
    xz = ids.xs[z]
    zreps = np.unique(comp_rep[xz])
    zslot = np.full(n, -1, dtype=np.int64)
    zslot[zreps] = np.arange(zreps.size)
    mz, pz, medge = _partners_kernel(L.edges, L.cluster, ids.mid, ids.start, q, z)
    # b clusters: reserve a free star vertex whose X_z partner gets its own depth-1 slot (a matching)
    bs = np.arange(1, q - 1, 2)
    cand = ids.xs[bs]
    res, starred = _reserve_kernel(cand, used, ids.star_of, comp_rep, pz, zslot, zreps.size)
    reserve = np.full(q - 1, -1, dtype=np.int64)
    reserve[bs] = res
    hang = _hang_centres(ids, s, depth, q - 1, used, avoid_pairs=True, reserve=reserve)
    # plan: the two free star vertices of every b cluster, in different internal components
    cov, unc, forced, ok = _plan_kernel(cand, bs, used, ids.star_of, comp_rep, res, q)
    if not ok:
        return None
    chosen = _flow_selection(ids.xs, L.cluster, z, comp_rep, pz, medge, cov, unc, forced)
    if chosen is None:
        starred[:] = -1
        chosen = _flow_selection(ids.xs, L.cluster, z, comp_rep, pz, medge, cov, unc, np.zeros(q, dtype=bool))
        if chosen is None:
            return None
    used[chosen] = True  # reserved for F until the end
    # T_t: the s remaining matching edges at every x in X_z, one per tree
    zm, ok = _xz_kernel(depth, s, mz, used, L.edges, L.cluster, z, xz, s)
    if not ok:  # pragma: no cover
        raise RuntimeError("flow: some x in X_z does not keep s matching edges")
    # v_z in T_t: an end of an internal edge of X_z not starred in F, one component per tree
    extra = np.concatenate([_hung(hang), zm], axis=1)
    ne = nb + extra.shape[1]
    ends[:, nb:ne] = np.take(L.edges, extra, axis=0)
    dz, ok = _extend_depths(depth.copy(), L.edges, extra)  # new leaves: hung centres, X_z
    if not ok:  # pragma: no cover - they always are
        dz = _tree_depths(n, ends[:, :ne], L.w)[0]
    zs = ids.star_of[_zstar_kernel(dz, s, zreps, mate, starred)]
    used[zs] = True
    ends[:, ne] = L.edges[zs]
    # F: everything left, plus the reserved matching edges
    used[chosen] = False
    fid = np.flatnonzero(~used)
    if fid.size != n - 1:  # pragma: no cover - the counting above
        raise RuntimeError(f"the last tree has {fid.size} edges, not n-1={n - 1}")
    used[fid] = True
    trees = list(ends) + [np.take(L.edges, fid, axis=0)]
    if count_components(n, trees[-1]) != 1:
        return None
    return trees, used
