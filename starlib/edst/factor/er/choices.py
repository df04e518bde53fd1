"""The choices of Construction C and of the odd-q design, shared by the in-memory and the streamed trees.

Everything the lifted-cluster trees decide is ``O(q^2)``: the double stars ``S_t`` (:func:`double_stars`), the
centres hung from free star edges (:func:`hang_centres`), and for odd ``q`` the reserved star vertices
(:func:`reserve_stars`), the plan of the free stars (:func:`plan_free_stars`), the matching edges of the last tree
by a max-flow (:func:`flow_selection`), the matching edges the other trees keep at ``X_z`` (:func:`xz_edges`) and
where ``v_z`` hangs (:func:`zstar_vertices`). Each is a small compiled kernel; the preferences read per-tree depths
through :func:`~starlib.edst.factor.er.depths.depth_at` and :func:`~starlib.edst.factor.er.depths.depth_row`,
from a BFS table (:mod:`starlib.edst.factor.er.clusters`) or a depth rule (:mod:`starlib.edst.factor.er.stream`),
so both builders make the same choices and build the same trees.

The bipartite matchings (:func:`max_matching`, :func:`complete_matching`) and the flow run on the shared kernels of
:mod:`starlib._kernels` (:func:`~starlib._kernels.hopcroft_karp_jit`, :func:`~starlib._kernels.max_flow_jit`),
which visit vertices and arcs in exactly the order of ``scipy.sparse.csgraph.maximum_bipartite_matching`` and
``maximum_flow``, which earlier versions called, so the trees are the same arrays (``tests/test_kernels.py``
compares the kernels with scipy and networkx).

Example
-------
>>> good = np.array([[True, False, False], [True, False, False]])  # both rows want column 0
>>> max_matching(good).tolist(), complete_matching(good).tolist()
([0, -1], [0, 1])

References
----------
docs/er-edsts.md §6 (Construction C, steps 1 and 4), §7 (the odd-q tree).
"""

from __future__ import annotations

import numba
import numpy as np

from ...._kernels import bool_rows, hopcroft_karp_jit, max_flow_jit
from .depths import depth_at, depth_row

__all__ = ["double_stars", "double_star_rows", "max_matching", "complete_matching", "hang_centres", "hung",
           "reserve_stars", "plan_free_stars", "flow_selection", "xz_edges", "zstar_vertices"]


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
    return list(double_star_rows(int(q)))


@numba.njit(cache=True)
def double_star_rows(q):  # pragma: no cover - compiled
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
def max_matching(good):  # pragma: no cover - compiled
    """Maximum matching of the rows of the boolean matrix ``good`` (:func:`starlib._kernels.hopcroft_karp`,
    columns in increasing order): ``col[r]`` or ``-1``."""
    indptr, indices = bool_rows(good)
    return hopcroft_karp_jit(indptr, indices, good.shape[1])


@numba.njit(cache=True)
def complete_matching(good):  # pragma: no cover - compiled
    """Rows matched to distinct columns: a maximum matching on ``good`` first, the rest arbitrarily.

    Returns ``col[r]`` for every row: the rows left unmatched take the unused columns in increasing
    order (``good`` must have at least as many columns as rows).
    """
    col = max_matching(good)
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


def hang_centres(xs: np.ndarray, star_of: np.ndarray, mate: np.ndarray, s: int, depth: np.ndarray | tuple,
                 nclusters: int, used: np.ndarray, avoid_pairs: bool = False,
                 reserve: np.ndarray | None = None) -> np.ndarray:
    """Step 4 of Construction C: hang every non-hub centre of the clusters ``0 .. nclusters-1`` from a free star edge.

    ``xs[i]`` lists ``X_i``, ``star_of[x]`` is the id of the star edge ``v_i x`` and ``mate[x]`` the other end of
    ``x``'s internal edge (``-1``: none), in the caller's edge ids (those of
    :class:`~starlib.edst.factor.er.layout.EdgeIds`, or the compact ids of the stream); ``used`` marks the edges
    taken, by id. For cluster ``i`` the trees ``t`` with ``i`` not in ``{2t, 2t+1}`` are matched to the free
    vertices of ``X_i`` (depth <= 3 in the tree first, ``depth`` a table or a rule of
    :mod:`starlib.edst.factor.er.depths`; :func:`complete_matching`).
    ``reserve[i]`` (``-1``: none) is a vertex of ``X_i`` whose star edge no tree may take. With ``avoid_pairs``
    the star edges left free in a cluster (two, counting the reserved one) are kept off a common internal edge
    (the odd-q design needs them in different internal components). Returns ``hang`` (``(s, nclusters)`` star
    edge ids, ``-1`` at the hubs of a tree) and marks the edges in ``used``.

    Raises
    ------
    RuntimeError
        If a cluster has fewer free star edges than trees to hang (docs/er-edsts.md §6 rules it out).
    """
    if reserve is None:
        reserve = np.full(nclusters, -1, dtype=np.int64)
    hang, bad, nf, nt = _hang_kernel(s, nclusters, xs, star_of, used, depth, reserve, mate, avoid_pairs)
    if bad == -2:  # pragma: no cover - a tree always holds a vertex outside the pair
        raise RuntimeError("avoid_pairs: no tree can give up its star edge")
    if bad >= 0:
        raise RuntimeError(f"cluster {bad}: {nf} free star edges for {nt} trees")
    return hang


@numba.njit(cache=True)
def _hang_kernel(s, nclusters, xs, star_of, used, depth, reserve, mate, avoid_pairs):  # pragma: no cover
    """Step 4 of Construction C for the clusters ``0 .. nclusters-1`` (see :func:`hang_centres`).

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
            depth_row(depth, trees[a], free[:nf], drow)
            for c in range(nf):
                good[a, c] = drow[c] <= 3
        col = complete_matching(good)
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
                        dv = depth_at(depth, trees[a], k0)
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


def hung(hang: np.ndarray) -> np.ndarray:
    """The star edge ids of ``hang`` per tree, clusters in increasing order (hubs skipped)."""
    return hang[hang >= 0].reshape(hang.shape[0], -1)


@numba.njit(cache=True)
def reserve_stars(cand, used, star_of, comp_rep, pz, zslot, nslots):  # pragma: no cover - compiled
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
    mt = max_matching(g)
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
def plan_free_stars(cand, bs, used, star_of, comp_rep, res, q):  # pragma: no cover - compiled
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


def flow_selection(xs: np.ndarray, cluster: np.ndarray, z: int, comp_rep: np.ndarray, pz: np.ndarray,
                    medge: np.ndarray, cov: np.ndarray, unc: np.ndarray, forced: np.ndarray) -> np.ndarray | None:
    """Choose the matching edges ``M(i, z)`` of the last tree by a max-flow (see
    :func:`~starlib.edst.factor.er.clusters.odd_cluster_trees`).

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


@numba.njit(cache=True)
def _flow_kernel(verts, cluster, comp_rep, unc, cov, forced, pz, medge, xz, s, target):  # pragma: no cover
    """Network, max-flow and chosen edges of :func:`flow_selection` (``(chosen, saturated)``)."""
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


@numba.njit(cache=True)
def xz_edges(depth, k, mz, used, edges, cluster, z, xz, s):  # pragma: no cover - compiled
    """At every ``x`` in ``X_z``, its ``s`` matching edges not in ``used`` (``mz`` order), one per tree: a
    matching of trees to edges whose other end is at depth <= 3 first. Returns ``(zm, ok)``: ``zm[t, j]``
    the edge tree ``t`` takes at ``xz[j]``; ``ok`` False if some ``x`` does not keep exactly ``s`` edges.
    Marks the edges in ``used``. ``depth``: a ``(k, n)`` table or a rule of
    :func:`~starlib.edst.factor.er.depths.lifted_depth`."""
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
            depth_row(depth, t, by[j], drow)
            for c in range(s):
                good[t, c] = drow[c] <= 3
        col = complete_matching(good)
        for t in range(k):
            zm[t, j] = be[j, col[t]]
        for c in range(s):
            used[be[j, c]] = True
    return zm, True


@numba.njit(cache=True)
def zstar_vertices(dz, k, zreps, mate, starred):  # pragma: no cover - compiled
    """``v_z`` in each tree ``T_t``: an end of an internal edge of ``X_z`` (not the end ``F`` must star), one
    internal edge per tree (a matching preferring ends at depth <= 3), the shallower allowed end. ``dz``: a
    ``(k, n)`` table or a rule of :func:`~starlib.edst.factor.er.depths.lifted_depth`."""
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
                dd[t, p, e] = depth_at(dz, t, ends[p, e]) if ok else big
        p += 1
    good = np.empty((k, npair), np.bool_)
    for t in range(k):
        for p in range(npair):
            good[t, p] = min(dd[t, p, 0], dd[t, p, 1]) <= 3
    col = complete_matching(good)
    zstar = np.empty(k, np.int64)
    for t in range(k):
        p = col[t]
        zstar[t] = ends[p, 0] if dd[t, p, 0] <= dd[t, p, 1] else ends[p, 1]
    return zstar
