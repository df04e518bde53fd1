"""The cluster layout of ER_q around an absolute point (docs/er-edsts.md §5), in Singer labels.

Fix an absolute point ``w``; its ``q`` neighbours ``v_0 .. v_{q-1}`` are the *centres*. Every other vertex
is adjacent to exactly one centre, so ``V = {w} u C_0 u ... u C_{q-1}`` with ``C_i = {v_i} u X_i``,
``|X_i| = q``; between ``X_i`` and ``X_j`` the edges form a perfect matching ``M(i, j)``; a centre is
adjacent only to ``w`` and to its ``X_i``. In Singer labels the layout is read off the difference table: for
``x != w`` write ``x - w = d - d'`` (``d, d'`` in ``D``, unique); then ``x`` is a centre if ``d' = 2w``, and
otherwise ``x`` lies in ``X_i`` for the centre ``d' - w``.

Two forms, for the two builders of the package:

* :func:`cluster_layout` with every edge of ER_q classified (w-edge, star, internal, matching) and the edge-id
  lookups (:class:`EdgeIds`), for the in-memory trees of :mod:`starlib.edst.factor.er.clusters`; ``O(m)``
  memory, one compiled pass over the edges;
* :func:`layout_base`, the vertex part only, and :func:`partner`, the common neighbour of two vertices from the
  difference table of ``D``: the partner of ``x`` in a matching ``M(i, j)`` without the edge list. ``O(n)``
  memory, for the trees streamed by :mod:`starlib.edst.factor.er.stream`.

Example
-------
>>> from starlib.edst.factor.er.singer import singer_model
>>> L = cluster_layout(singer_model(5))
>>> L.q, int((L.cluster >= 0).sum()), np.bincount(L.cluster[L.cluster >= 0]).tolist()
(5, 30, [6, 6, 6, 6, 6])

References
----------
docs/er-edsts.md §5 (layout).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np

from .singer import SingerModel

__all__ = ["W_EDGE", "STAR", "INTERNAL", "MATCHING", "ClusterLayout", "cluster_layout", "EdgeIds", "layout_base",
           "partner"]

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
        Edge-id lookups computed with the layout (``star_of, w_of, mate, mid, start, mends``, see ``EdgeIds``); empty
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
    w, centres, cluster, is_centre, _ = layout_base(S)
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


def layout_base(S: SingerModel) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The vertex part of :func:`cluster_layout`: ``(w, centres, cluster, is_centre, d1)``.

    ``d1[r]`` (``r != 0``) is the ``d1`` of the unique ``d1 - d2 = r`` (``d1, d2`` in ``D``; ``d1[0] = -1``):
    the common neighbour of ``x != y`` is ``(d1[(x - y) mod n] - x) mod n`` (see :func:`partner`). ``O(n)``
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
def partner(d1, x, y):  # pragma: no cover - compiled
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


class EdgeIds:
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


@numba.njit(cache=True)
def _layout_kernel(D, n, w, cluster, is_centre, q, edges, kind, pair, star_of, w_of, mate, mid, start,
                   mends):  # pragma: no cover - compiled
    """Fill the edges of ER_q (as :meth:`SingerModel.edges`), their kind and cluster pair, and the lookups of
    :class:`EdgeIds` (``star_of, w_of, mate, mid, start, mends``; ``pair``, ``star_of``, ``w_of``, ``mate``
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
    """Edge-id lookups of a layout (see :class:`EdgeIds`): ``star_of``, ``w_of``, ``mate``, the matching edges
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
