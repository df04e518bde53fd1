"""The lifted-cluster EDSTs of ER_q, built in memory on the cluster layout: Construction C and the odd-q design.

:func:`lifted_cluster_trees` implements Construction C (docs/er-edsts.md §6) rooted at the absolute point ``w`` of
the layout (:mod:`starlib.edst.factor.er.layout`): tree ``t`` lifts a double star ``S_t`` of the cluster graph
``K_q`` (centres ``a = 2t``, ``b = 2t+1``) through the matchings, which gives ``q`` disjoint *copies*; it joins the
copies to the hub centres ``v_a`` and ``v_b`` through star edges (half the copies each), joins both hubs to ``w``,
and hangs every other centre from an unused star edge chosen by a bipartite matching so that it lands at depth 4.
For even ``q`` this gives the maximum ``q/2`` EDSTs at depth at most 5 from ``w`` (4 whenever the matchings are
perfect, which the tests record); for odd ``q`` it gives ``(q-1)/2`` trees and the leftover edges are handed to
:mod:`starlib.edst.factor.er.repair`. :func:`odd_cluster_trees` gives the maximum ``(q+1)/2`` for odd ``q``
(docs/er-edsts.md §7).

Implementation: the hub trees (steps 1-3) and the partners in ``X_z`` run in compiled kernels of this module on
the layout's edge ids; the choices (step 4 and the odd-q design) are those of
:mod:`starlib.edst.factor.er.choices`, reading the BFS depths of the forests built so far
(:func:`~starlib.edst.factor.er.depths.tree_depths`); ``O(q^3)`` work in all, a few dozen Python steps per call.
:mod:`starlib.edst.factor.er.stream` builds the same trees one at a time without the edge list.

Example
-------
>>> from starlib.edst.factor.er import cluster_layout, singer_model
>>> trees, used = lifted_cluster_trees(cluster_layout(singer_model(4)))
>>> len(trees), int(used.sum())
(2, 40)

References
----------
docs/er-edsts.md §6-§7 (Construction C and the odd-q tree), §9 (depth >= 3 for maximum families).
"""

from __future__ import annotations

import numba
import numpy as np

from ...._kernels import count_components
from .choices import (
    double_star_rows,
    flow_selection,
    hang_centres,
    hung,
    plan_free_stars,
    reserve_stars,
    xz_edges,
    zstar_vertices,
)
from .depths import extend_depths, tree_depths
from .layout import ClusterLayout, EdgeIds

__all__ = ["lifted_cluster_trees", "odd_cluster_trees"]


def _hub_trees(L: ClusterLayout, ids: EdgeIds, qc: int, used: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Steps 1-3 of :func:`lifted_cluster_trees` on the clusters ``0 .. qc-1``: the number ``nb`` of their
    edges per tree, ``ends`` (per tree an ``(n-1, 2)`` array whose first ``nb`` rows are those edges; the
    rest is for the caller to fill) and the BFS depths from ``w`` in these forests (see ``_hub_kernel``)."""
    stars = double_star_rows(qc)
    ends = np.empty((stars.shape[0], L.n - 1, 2), dtype=np.int64)  # numpy-allocated: see cluster_layout
    depth = np.full((stars.shape[0], L.n), -1, dtype=np.int16)
    nb, ok = _hub_kernel(L.edges, L.cluster, ids.mid, ids.mends, ids.start, L.q, stars, ids.xs, ids.star_of,
                         ids.w_of, L.centres, used, L.w, ends, depth)
    if not ok:  # pragma: no cover - disjoint by construction
        raise RuntimeError("hub trees collide")
    return nb, ends, depth


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
    The per-cluster matchings and BFS depths run in compiled kernels (this module's and those of
    :mod:`starlib.edst.factor.er.choices`, calling :mod:`starlib._kernels`); ``O(q^3)`` work in all, a few
    Python steps.

    Example
    -------
    >>> from starlib.edst.factor.er import cluster_layout, singer_model
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
    ids = EdgeIds(L)
    nb, ends, depth = _hub_trees(L, ids, q, used)
    s = ends.shape[0]
    hang = hang_centres(ids.xs, ids.star_of, ids.mate, s, depth, q, used)
    ends[:, nb:] = np.take(L.edges, hung(hang), axis=0)
    return list(ends), used


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
    >>> from starlib.edst.factor.er import cluster_layout, singer_model
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
    ids = EdgeIds(L)
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
    res, starred = reserve_stars(cand, used, ids.star_of, comp_rep, pz, zslot, zreps.size)
    reserve = np.full(q - 1, -1, dtype=np.int64)
    reserve[bs] = res
    hang = hang_centres(ids.xs, ids.star_of, ids.mate, s, depth, q - 1, used, avoid_pairs=True, reserve=reserve)
    # plan: the two free star vertices of every b cluster, in different internal components
    cov, unc, forced, ok = plan_free_stars(cand, bs, used, ids.star_of, comp_rep, res, q)
    if not ok:
        return None
    chosen = flow_selection(ids.xs, L.cluster, z, comp_rep, pz, medge, cov, unc, forced)
    if chosen is None:
        starred[:] = -1
        chosen = flow_selection(ids.xs, L.cluster, z, comp_rep, pz, medge, cov, unc, np.zeros(q, dtype=bool))
        if chosen is None:
            return None
    used[chosen] = True  # reserved for F until the end
    # T_t: the s remaining matching edges at every x in X_z, one per tree
    zm, ok = xz_edges(depth, s, mz, used, L.edges, L.cluster, z, xz, s)
    if not ok:  # pragma: no cover
        raise RuntimeError("flow: some x in X_z does not keep s matching edges")
    # v_z in T_t: an end of an internal edge of X_z not starred in F, one component per tree
    extra = np.concatenate([hung(hang), zm], axis=1)
    ne = nb + extra.shape[1]
    ends[:, nb:ne] = np.take(L.edges, extra, axis=0)
    dz, ok = extend_depths(depth.copy(), L.edges, extra)  # new leaves: hung centres, X_z
    if not ok:  # pragma: no cover - they always are
        dz = tree_depths(n, ends[:, :ne], L.w)[0]
    zs = ids.star_of[zstar_vertices(dz, s, zreps, mate, starred)]
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
