"""The cluster layout of ER_q around an absolute point, and the lifted-cluster EDSTs built on it.

Fix an absolute point ``w``; its ``q`` neighbours ``v_0 .. v_{q-1}`` are the *centres*. Every other vertex
is adjacent to exactly one centre, so ``V = {w} u C_0 u ... u C_{q-1}`` with ``C_i = {v_i} u X_i``,
``|X_i| = q``; between ``X_i`` and ``X_j`` the edges form a perfect matching ``M(i, j)``; a centre is
adjacent only to ``w`` and to its ``X_i`` (spec er_polarfly.md §1.4). In Singer labels the layout is
read off the difference table: for ``x != w`` write ``x - w = d - d'`` (``d, d'`` in ``D``, unique); then
``x`` is a centre if ``d' = 2w``, and otherwise ``x`` lies in ``X_i`` for the centre ``d' - w``.

:func:`lifted_cluster_trees` implements a variant of Construction C (§1.6) rooted at ``w``: tree ``t``
lifts a double star ``S_t`` of the cluster graph ``K_q`` (centres ``a = 2t``, ``b = 2t+1``) through the
matchings, which gives ``q`` disjoint *copies*; it joins the copies to the hub centres ``v_a`` and
``v_b`` through star edges (half the copies each), joins both hubs to ``w``, and hangs every other centre
from an unused star edge chosen by a bipartite matching so that it lands at depth 4. For even ``q`` this
gives the maximum ``q/2`` EDSTs at depth at most 5 from ``w`` (4 whenever the matchings are perfect, which
the tests record); for odd ``q`` it gives ``(q-1)/2`` trees and the leftover edges are handed to
:mod:`starlib.edst.er_repair`.

Example
-------
>>> from starlib.edst.er_singer import singer_model
>>> L = cluster_layout(singer_model(5))
>>> L.q, int((L.cluster >= 0).sum()), np.bincount(L.cluster[L.cluster >= 0]).tolist()
(5, 30, [6, 6, 6, 6, 6])

References
----------
Spec er_polarfly.md §1.4 (layout), §1.6 (Construction C), §1.7 (depth >= 3 for maximum families).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from .er_singer import SingerModel
from .trees import bfs_distances

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


def cluster_layout(S: SingerModel) -> ClusterLayout:
    """Compute the cluster layout of ER_q (spec §1.4) from the Singer difference table.

    Parameters
    ----------
    S : SingerModel
        From :func:`starlib.edst.er_singer.singer_model`.

    Returns
    -------
    ClusterLayout

    Raises
    ------
    RuntimeError
        If a structural claim of §1.4 fails (it cannot for a Singer difference set).

    Example
    -------
    >>> from starlib.edst.er_singer import singer_model
    >>> L = cluster_layout(singer_model(4))
    >>> np.bincount(L.kind).tolist()  # q w-edges, q^2 star, internal, q^2(q-1)/2 matching
    [4, 16, 6, 24]

    References
    ----------
    Spec er_polarfly.md §1.4.
    """
    q, n, D = S.q, S.n, S.D
    w = int(S.absolute_points()[0])
    ia, ib = np.nonzero(~np.eye(q + 1, dtype=bool))
    diff = (D[ia] - D[ib]) % n
    tab_a = np.full(n, -1, dtype=np.int64)
    tab_b = np.full(n, -1, dtype=np.int64)
    tab_a[diff] = ia
    tab_b[diff] = ib
    jw = int(np.flatnonzero(D == (2 * w) % n)[0])
    x = np.arange(n, dtype=np.int64)
    delta = (x - w) % n
    a, b = tab_a[delta], tab_b[delta]
    is_centre = (b == jw) & (x != w)
    dindex = np.where(is_centre, a, b)
    others = np.flatnonzero(np.arange(q + 1) != jw)
    centre_of = (D[others] - w) % n
    order = np.argsort(centre_of)
    centres = centre_of[order]
    cid = np.full(q + 1, -1, dtype=np.int64)
    cid[others[order]] = np.arange(q)
    cluster = np.where(x == w, -1, cid[np.where(x == w, 0, dindex)])
    if not np.array_equal(np.flatnonzero(is_centre), np.sort(centres)) or \
            np.any(np.bincount(cluster[cluster >= 0], minlength=q) != q + 1):
        raise RuntimeError(f"q={q}: cluster layout failed")  # pragma: no cover
    edges = S.edges()
    u, v = edges[:, 0], edges[:, 1]
    cu, cv = cluster[u], cluster[v]
    kind = np.full(edges.shape[0], MATCHING, dtype=np.int8)
    kind[(cu == cv)] = INTERNAL
    kind[is_centre[u] | is_centre[v]] = STAR
    kind[(u == w) | (v == w)] = W_EDGE
    lo, hi = np.minimum(cu, cv), np.maximum(cu, cv)
    pair = np.where(kind == MATCHING, lo * q + hi, -1)
    if np.any((kind == STAR) & (cu != cv)) or np.any((kind == W_EDGE) & ~(is_centre[u] | is_centre[v])):
        raise RuntimeError(f"q={q}: a centre has a neighbour outside its cluster")  # pragma: no cover
    counts = np.bincount(pair[pair >= 0], minlength=q * q)
    iu, ju = np.triu_indices(q, 1)
    if np.any(counts[iu * q + ju] != q):
        raise RuntimeError(f"q={q}: some M(i, j) is not a perfect matching")  # pragma: no cover
    for arr in (centres, cluster, is_centre, edges, kind, pair):
        arr.setflags(write=False)
    return ClusterLayout(q=q, n=n, w=w, centres=centres, cluster=cluster, is_centre=is_centre, edges=edges,
                         kind=kind, pair=pair)


def double_stars(q: int) -> list[np.ndarray]:
    """The ``floor(q/2)`` edge-disjoint double stars ``S_t`` of ``K_q`` (spec §1.6 step 1).

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
    Spec er_polarfly.md §1.6 step 1.
    """
    s = q // 2
    out = []
    for t in range(s):
        a, b = 2 * t, 2 * t + 1
        rows = [(a, b)]
        for u in range(s):
            if u == t:
                continue
            au, bu = 2 * u, 2 * u + 1
            rows += [(a, au), (b, bu)] if t < u else [(a, bu), (b, au)]
        if q % 2:
            rows.append((a, q - 1))
        out.append(np.array(rows, dtype=np.int64))
    return out


def _components(n: int, e: np.ndarray) -> np.ndarray:
    a = sp.csr_matrix((np.ones(e.shape[0], dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n))
    return csgraph.connected_components(a, directed=False)[1]


def _depths(n: int, e: np.ndarray, root: int) -> np.ndarray:
    """BFS depth from ``root`` in the forest ``e`` (``-1`` if unreached), as int16."""
    return bfs_distances(n, e, root).astype(np.int16)


def _match(good: np.ndarray) -> np.ndarray:
    """Rows matched to distinct columns: a maximum matching on ``good`` first, the rest arbitrarily.

    Returns ``col[r]`` for every row (``good`` must have at least as many columns as rows).
    """
    r, c = good.shape
    col = np.full(r, -1, dtype=np.int64)
    if good.any():
        mt = csgraph.maximum_bipartite_matching(sp.csr_matrix(good.astype(np.int8)), perm_type="column")
        col[mt >= 0] = mt[mt >= 0]
    rest = np.setdiff1d(np.arange(c), col[col >= 0])
    miss = np.flatnonzero(col < 0)
    col[miss] = rest[: miss.size]
    return col


class _Ids:
    """Edge-id lookups of a layout: star edge of a non-centre, w-edge of a centre, matchings by pair."""

    def __init__(self, L: ClusterLayout) -> None:
        n, q = L.n, L.q
        sid = np.flatnonzero(L.kind == STAR)
        su, sv = L.edges[sid, 0], L.edges[sid, 1]
        self.star_of = np.full(n, -1, dtype=np.int64)
        self.star_of[np.where(L.is_centre[su], sv, su)] = sid
        wid = np.flatnonzero(L.kind == W_EDGE)
        wc = np.where(L.edges[wid, 0] == L.w, L.edges[wid, 1], L.edges[wid, 0])
        self.w_of = np.full(n, -1, dtype=np.int64)
        self.w_of[wc] = wid
        mid = np.flatnonzero(L.kind == MATCHING)
        self.mid = mid[np.argsort(L.pair[mid], kind="stable")]
        self.start = np.searchsorted(L.pair[self.mid], np.arange(q * q))
        self.xs = [np.flatnonzero((L.cluster == i) & ~L.is_centre) for i in range(q)]

    def matching(self, L: ClusterLayout, i: int, j: int) -> np.ndarray:
        lo, hi = min(i, j), max(i, j)
        s = self.start[lo * L.q + hi]
        return self.mid[s:s + L.q]


def _hub_trees(L: ClusterLayout, ids: _Ids, qc: int, used: np.ndarray) -> list[list[np.ndarray]]:
    """Steps 1-3 of :func:`lifted_cluster_trees` on the clusters ``0 .. qc-1``."""
    n, q = L.n, L.q
    ar = np.arange(q)
    parts = []
    for st in double_stars(qc):
        a, b = int(st[0, 0]), int(st[0, 1])
        lo, hi = np.minimum(st[:, 0], st[:, 1]), np.maximum(st[:, 0], st[:, 1])
        eidx = ids.mid[(ids.start[lo * q + hi][:, None] + ar[None, :]).ravel()]
        comp = _components(n, L.edges[eidx])
        xa, xb = ids.xs[a], ids.xs[b]
        h = (q + 1) // 2
        half = np.zeros(n, dtype=bool)
        half[comp[xa[:h]]] = True
        hub_b = xb[~half[comp[xb]]]
        hub = np.concatenate([ids.star_of[xa[:h]], ids.star_of[hub_b], ids.w_of[L.centres[[a, b]]]])
        if used[hub].any() or used[eidx].any():  # pragma: no cover - disjoint by construction
            raise RuntimeError("hub trees collide")
        used[eidx] = True
        used[hub] = True
        parts.append([eidx, hub])
    return parts


def _hang_centres(L: ClusterLayout, ids: _Ids, parts: list[list[np.ndarray]], depth: np.ndarray,
                  clusters: range, used: np.ndarray, avoid_pairs: bool = False,
                  reserve: dict[int, int] | None = None) -> None:
    """Step 4: hang every non-hub centre of ``clusters`` from a free star edge, shallow ones first.

    ``reserve[i]`` is a vertex of ``X_i`` whose star edge no tree may take. With ``avoid_pairs`` the star
    edges left free in a cluster (two, counting the reserved one) are kept off a common internal edge
    (the odd-q design needs them in different internal components).
    """
    s = len(parts)
    reserve = reserve or {}
    mate = _internal_mates(L)
    for i in clusters:
        trees_i = np.array([t for t in range(s) if i not in (2 * t, 2 * t + 1)], dtype=np.int64)
        if trees_i.size == 0:
            continue
        xi = ids.xs[i]
        free = xi[~used[ids.star_of[xi]]]
        if i in reserve:
            free = free[free != reserve[i]]
        if free.size < trees_i.size:
            raise RuntimeError(f"cluster {i}: {free.size} free star edges for {trees_i.size} trees")
        d = depth[np.ix_(trees_i, free)]
        col = _match(d <= 3)
        left = np.setdiff1d(np.arange(free.size), col)
        kept = free[left].tolist() + ([reserve[i]] if i in reserve else [])
        if avoid_pairs and len(kept) == 2 and mate[kept[0]] == kept[1]:
            # give the first non-reserved leftover to a tree (its old vertex is outside the pair)
            cand = np.flatnonzero(free[col] != kept[1])
            r = int(cand[np.argmin(d[cand, left[0]])])
            col[r] = left[0]
        for t, j in zip(trees_i.tolist(), col.tolist(), strict=True):
            parts[t].append(np.array([ids.star_of[free[j]]], dtype=np.int64))
        used[ids.star_of[free[col]]] = True


def _internal_mates(L: ClusterLayout) -> np.ndarray:
    """``mate[x]`` = the other end of ``x``'s internal edge (``-1`` if none)."""
    mate = np.full(L.n, -1, dtype=np.int64)
    e = L.edges[L.kind == INTERNAL]
    mate[e[:, 0]] = e[:, 1]
    mate[e[:, 1]] = e[:, 0]
    return mate


def lifted_cluster_trees(L: ClusterLayout) -> tuple[list[np.ndarray], np.ndarray]:
    """Lifted-cluster spanning trees rooted at ``w`` (a variant of Construction C, spec §1.6).

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
        If a cluster runs out of free star edges (the budget of §1.6 step 4 rules this out).

    Example
    -------
    >>> from starlib.edst.er_singer import singer_model
    >>> L = cluster_layout(singer_model(4))
    >>> trees, used = lifted_cluster_trees(L)
    >>> [t.shape for t in trees], int(used.sum())
    ([(20, 2), (20, 2)], 40)

    References
    ----------
    Spec er_polarfly.md §1.6 (Construction C) steps 1-5, with both hubs joined to ``w``.
    """
    n, q = L.n, L.q
    used = np.zeros(L.edges.shape[0], dtype=bool)
    ids = _Ids(L)
    parts = _hub_trees(L, ids, q, used)
    depth = np.stack([_depths(n, L.edges[np.concatenate(p)], L.w) for p in parts]) if parts else \
        np.zeros((0, n), dtype=np.int16)
    _hang_centres(L, ids, parts, depth, range(q), used)
    return [L.edges[np.concatenate(p)] for p in parts], used


def _partner_in(L: ClusterLayout, ids: _Ids, i: int, z: int) -> np.ndarray:
    """``pi[x]`` = the neighbour of ``x`` in ``X_z`` along ``M(i, z)``, for ``x`` in ``X_i`` (else -1)."""
    me = L.edges[ids.matching(L, i, z)]
    a_in = L.cluster[me[:, 0]] == i
    y = np.where(a_in, me[:, 0], me[:, 1])
    x = np.where(a_in, me[:, 1], me[:, 0])
    pi = np.full(L.n, -1, dtype=np.int64)
    pi[y] = x
    return pi


def _flow_selection(L: ClusterLayout, ids: _Ids, z: int, comp_rep: np.ndarray,
                    plan: dict[int, tuple[int, int, bool]]) -> np.ndarray | None:
    """Choose the matching edges ``M(i, z)`` of the last tree by a max-flow (see :func:`odd_cluster_trees`).

    ``plan[b] = (covered free vertex, uncovered free vertex, forced)``: the component of the uncovered one
    gets no matching edge; with ``forced`` the covered component must use the covered vertex itself.
    Returns the chosen edge ids, or None if the flow does not saturate.
    """
    n, q = L.n, L.q
    s = (q - 1) // 2
    src, snk = 0, 1
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    verts = np.concatenate([ids.xs[i] for i in range(q) if i != z])
    vnode = np.full(n, -1, dtype=np.int64)
    vnode[verts] = np.arange(verts.size)
    off_comp = 2
    off_v = off_comp + verts.size  # component node = off_comp + vnode[representative]
    off_z = off_v + verts.size
    xz = ids.xs[z]
    znode = np.full(n, -1, dtype=np.int64)
    znode[xz] = off_z + np.arange(xz.size)
    for i in range(q):
        if i == z:
            continue
        xi = ids.xs[i]
        reps = np.unique(comp_rep[xi])
        arcs = xi
        if i in plan:
            cov, unc, forced = plan[i]
            reps = reps[reps != comp_rep[unc]]
            arcs = xi[comp_rep[xi] != comp_rep[unc]]
            if forced:
                arcs = arcs[(comp_rep[arcs] != comp_rep[cov]) | (arcs == cov)]
        rows += [np.full(reps.size, src), off_comp + vnode[comp_rep[arcs]]]
        cols += [off_comp + vnode[reps], off_v + vnode[arcs]]
        pi = _partner_in(L, ids, i, z)
        rows.append(off_v + vnode[xi])
        cols.append(znode[pi[xi]])
    rows.append(znode[xz])
    cols.append(np.full(xz.size, snk))
    r, c = np.concatenate(rows), np.concatenate(cols)
    k = np.ones(r.size, dtype=np.int32)
    k[-xz.size:] = s
    nodes = off_z + xz.size
    cap = sp.csr_matrix((k, (r, c)), shape=(nodes, nodes))
    res = csgraph.maximum_flow(cap, src, snk)
    if res.flow_value != q * s:
        return None
    flow = res.flow.tocoo()
    sel = (flow.data > 0) & (flow.row >= off_v) & (flow.row < off_z)
    y = verts[flow.row[sel] - off_v]
    x = xz[flow.col[sel] - off_z]
    key = np.minimum(x, y) * np.int64(n) + np.maximum(x, y)
    ekey = L.edges[:, 0] * np.int64(n) + L.edges[:, 1]
    o = np.argsort(ekey)
    return o[np.searchsorted(ekey[o], key)]


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
        flow is not saturating or a free-star condition fails (then use :mod:`starlib.edst.er_repair`).

    Raises
    ------
    ValueError
        If ``q`` is even.

    Example
    -------
    >>> from starlib.edst.er_singer import singer_model
    >>> out = odd_cluster_trees(cluster_layout(singer_model(7)))
    >>> len(out[0]), bool(out[1].all())
    (4, True)

    References
    ----------
    Spec er_polarfly.md §1.6 / §1.6b (this design replaces the matroid repair when the flow saturates).
    """
    n, q = L.n, L.q
    if q % 2 == 0:
        raise ValueError(f"q={q} is even: odd_cluster_trees needs an odd prime power")
    s, z = (q - 1) // 2, q - 1
    used = np.zeros(L.edges.shape[0], dtype=bool)
    ids = _Ids(L)
    mate = _internal_mates(L)
    ar = np.arange(n)
    comp_rep = np.where((mate >= 0) & (mate < ar), mate, ar)
    parts = _hub_trees(L, ids, q - 1, used)
    depth = np.stack([_depths(n, L.edges[np.concatenate(p)], L.w) for p in parts])
    # X_z: its internal components (pairs and the absolute point), one end of each starred in F
    xz = ids.xs[z]
    zreps = np.unique(comp_rep[xz])
    zslot = np.full(n, -1, dtype=np.int64)
    zslot[zreps] = np.arange(zreps.size)
    # b clusters: reserve a free star vertex whose X_z partner gets its own depth-1 slot (a matching)
    bs = list(range(1, q - 1, 2))
    pis = {b: _partner_in(L, ids, b, z) for b in bs}
    cand = [ids.xs[b][~used[ids.star_of[ids.xs[b]]]] for b in bs]
    g = np.zeros((len(bs), zreps.size), dtype=bool)
    for r, b in enumerate(bs):
        g[r, zslot[comp_rep[pis[b][cand[r]]]]] = True
    mt = csgraph.maximum_bipartite_matching(sp.csr_matrix(g.astype(np.int8)), perm_type="column") if g.any() \
        else np.full(len(bs), -1)
    reserve: dict[int, int] = {}
    starred = np.full(zreps.size, -1, dtype=np.int64)  # forced F star end of each X_z component
    for r, b in enumerate(bs):
        if mt[r] >= 0:
            f = cand[r][zslot[comp_rep[pis[b][cand[r]]]] == mt[r]][0]
            reserve[b] = int(f)
            starred[mt[r]] = pis[b][f]
    _hang_centres(L, ids, parts, depth, range(q - 1), used, avoid_pairs=True, reserve=reserve)
    plan: dict[int, tuple[int, int, bool]] = {}
    for b in bs:
        xi = ids.xs[b]
        free = xi[~used[ids.star_of[xi]]]
        if free.size != 2 or comp_rep[free[0]] == comp_rep[free[1]]:
            return None
        if b in reserve:
            cov = reserve[b]
            plan[b] = (cov, int(free[free != cov][0]), True)
        else:
            plan[b] = (int(free[0]), int(free[1]), False)
    chosen = _flow_selection(L, ids, z, comp_rep, plan)
    if chosen is None:
        plan = {b: (c, u, False) for b, (c, u, _) in plan.items()}
        starred[:] = -1
        chosen = _flow_selection(L, ids, z, comp_rep, plan)
        if chosen is None:
            return None
    used[chosen] = True  # reserved for F until the end
    # T_t: the s remaining matching edges at every x in X_z, one per tree
    mz = np.concatenate([ids.matching(L, i, z) for i in range(q - 1)])
    mz = mz[~used[mz]]
    me = L.edges[mz]
    xend = np.where(L.cluster[me[:, 0]] == z, me[:, 0], me[:, 1])
    yend = np.where(L.cluster[me[:, 0]] == z, me[:, 1], me[:, 0])
    order = np.argsort(xend, kind="stable")
    mz, yend = mz[order], yend[order]
    if not np.array_equal(np.bincount(xend, minlength=n)[xz], np.full(xz.size, s)):  # pragma: no cover
        raise RuntimeError("flow: some x in X_z does not keep s matching edges")
    for j in range(xz.size):
        e = mz[j * s:(j + 1) * s]
        col = _match(depth[:, yend[j * s:(j + 1) * s]] <= 3)  # tree t -> edge col[t]
        for t in range(s):
            parts[t].append(e[col[t]:col[t] + 1])
    used[mz] = True
    # v_z in T_t: an end of an internal edge of X_z not starred in F, one component per tree
    dz = np.stack([_depths(n, L.edges[np.concatenate(p)], L.w) for p in parts])
    pair_reps = zreps[mate[zreps] >= 0]
    ends = np.stack([pair_reps, mate[pair_reps]], axis=1)  # (s, 2)
    forced = starred[zslot[pair_reps]]
    allow = np.ones((s, 2), dtype=bool)
    allow[forced >= 0] = ends[forced >= 0] != forced[forced >= 0, None]
    dd = np.where(allow[None, :, :], dz[:, ends], np.iinfo(np.int16).max)  # (tree, pair, end)
    col = _match(dd.min(axis=2) <= 3)
    zstar = [int(ends[col[t], int(np.argmin(dd[t, col[t]]))]) for t in range(s)]
    used[ids.star_of[zstar]] = True
    for t in range(s):
        parts[t].append(ids.star_of[[zstar[t]]])
    # F: everything left, plus the reserved matching edges
    used[chosen] = False
    fid = np.flatnonzero(~used)
    if fid.size != n - 1:  # pragma: no cover - the counting above
        raise RuntimeError(f"the last tree has {fid.size} edges, not n-1={n - 1}")
    used[fid] = True
    trees = [L.edges[np.concatenate(p)] for p in parts] + [L.edges[fid]]
    if _components(n, trees[-1]).max() != 0:
        return None
    return trees, used
