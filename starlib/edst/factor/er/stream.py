"""ER_q EDST families streamed one tree at a time: no graph, no edge-indexed arrays.

:func:`er_tree_stream` gives the trees of :func:`starlib.edst.factor.er.er_edsts` ``(q, family, labels="singer")``
(the same edge sets, roots and construction tags) one by one, for ``q`` up to about a thousand, in ``O(n)`` memory
(``n = q^2 + q + 1``) instead of the ``O(m)`` edge arrays of :func:`~starlib.edst.factor.er.layout.cluster_layout`
(``m = q (q+1)^2 / 2``: ``537,920,000`` edges, tens of GB, at ``q = 1024``).

``"hamiltonian"`` (tag ``ER-A``)
    Tree ``t`` is the Hamiltonian path of the ``t``-th pair of :func:`~starlib.edst.factor.er.singer_pairing`
    (:func:`~starlib.edst.factor.er.hamiltonian_path_orders`, one row at a time), rooted at its middle vertex.
``"low-depth"`` (tags ``ER-C``, ``ER-F``)
    Everything the lifted-cluster trees decide is ``O(q^2)``: the hub star edges, the hung centres, and for
    odd ``q`` the reserve, plan, flow, ``X_z`` and ``v_z`` choices. Only the inter-cluster
    matchings ``M(i, j)`` are ``O(q^3)``, and the double star ``S_t`` fixes which tree owns ``M(i, j)``. So only
    the ``O(q^2)`` *special* edges (w-edges, star edges, internal edges, and for odd ``q`` the matchings
    ``M(i, z)``) get compact ids, and the matching edges of a tree are generated when the tree is asked for:
    the partner of ``x`` in ``X_j`` is the common neighbour of ``x`` and the centre ``v_j``, one lookup in
    the difference table of ``D`` (:func:`~starlib.edst.factor.er.layout.partner`). The per-tree depths the
    choices prefer are computed from the same rule (:func:`~starlib.edst.factor.er.depths.lifted_depth`), and
    the choices run in the kernels of :mod:`starlib.edst.factor.er.choices`, as for the in-memory trees of
    :mod:`starlib.edst.factor.er.clusters`, so the trees are the same. Where the odd-``q`` design fails
    (``q = 3`` always), ``q <= 128`` falls back to the in-memory :func:`~starlib.edst.factor.er.er_edsts`;
    larger ``q`` raise ``RuntimeError``.

Example
-------
>>> st = er_tree_stream(5, "low-depth")
>>> len(st), [(e.shape, root, tag) for e, root, tag in st][-1]
(3, ((30, 2), 18, 'ER-F'))

References
----------
docs/er-edsts.md §4 (Construction A), §5 (layout), §6 (Construction C), §7 (the odd-q tree).
"""

from __future__ import annotations

from collections.abc import Iterator

import numba
import numpy as np

from ...._kernels import count_components
from ....primes import check_prime_power
from . import choices  # the choices of the in-memory trees (clusters), made here on compact ids
from .depths import lifted_anchors, lifted_depth
from .families import er_edsts, hamiltonian_path_orders, singer_pairing
from .layout import layout_base, partner
from .singer import SingerModel, singer_model

__all__ = ["FAMILIES", "ErTreeStream", "er_tree_stream"]

#: the families of :func:`er_tree_stream`
FAMILIES = ("hamiltonian", "low-depth")

#: largest ``q`` for which a failed odd-``q`` design falls back to the in-memory construction
FALLBACK_MAX_Q = 128


class ErTreeStream:
    """The EDSTs of ER_q in Singer labels, one tree per call (see :func:`er_tree_stream`).

    Attributes
    ----------
    q, n : int
        The field order and ``n = q^2 + q + 1``.
    k : int
        The number of trees: ``floor((q+1)/2)`` (fewer only if a construction comes up short).
    family : str
        ``"hamiltonian"`` or ``"low-depth"``.

    Example
    -------
    >>> st = er_tree_stream(4, "low-depth")
    >>> e, root, tag = st.tree(1)
    >>> len(st), e.shape, e.dtype.name, root, tag
    (2, (20, 2), 'int32', 1, 'ER-C')

    References
    ----------
    docs/er-edsts.md §4, §6-§7.
    """

    def __init__(self, q: int, n: int, k: int, family: str, maker: object) -> None:
        self.q, self.n, self.k, self.family = q, n, k, family
        self._maker = maker

    def tree(self, t: int) -> tuple[np.ndarray, int, str]:
        """Tree ``t``: ``((n-1, 2)`` int32 Singer labels, root (a Singer label), construction tag).

        Parameters
        ----------
        t : int
            ``0 <= t < k``.

        Returns
        -------
        (edges, root, tag)

        Raises
        ------
        IndexError
            If ``t`` is out of range.

        Example
        -------
        >>> er_tree_stream(2).tree(0)[0].tolist()
        [[4, 5], [5, 3], [3, 6], [6, 2], [2, 0], [0, 1]]

        References
        ----------
        docs/er-edsts.md §4.2 (path order), §6 (lifted trees).
        """
        t = int(t)
        if not 0 <= t < self.k:
            raise IndexError(f"t={t} is out of range: the stream has k={self.k} trees (0 <= t < k)")
        return self._maker.tree(t)

    def __iter__(self) -> Iterator[tuple[np.ndarray, int, str]]:
        for t in range(self.k):
            yield self.tree(t)

    def __len__(self) -> int:
        return self.k

    def __repr__(self) -> str:
        return f"ErTreeStream(q={self.q}, n={self.n}, k={self.k}, family={self.family!r})"


def er_tree_stream(q: int, family: str = "hamiltonian") -> ErTreeStream:
    """The EDST family ``er_edsts(q, family, labels="singer")`` of ER_q as a stream of trees.

    Parameters
    ----------
    q : int
        A prime power.
    family : str
        ``"hamiltonian"`` or ``"low-depth"`` (see the module docstring).

    Returns
    -------
    ErTreeStream
        Its tree ``t`` has the edge set, root and tag of tree ``t`` of :func:`~starlib.edst.factor.er.er_edsts`
        (the order of the rows may differ). Set-up is ``O(q^3)`` time (the choices of
        :mod:`~starlib.edst.factor.er.choices` read per-tree depths) and ``O(n)`` memory; each tree is
        ``O(n)`` time and memory.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power or ``family`` is unknown.
    RuntimeError
        If the odd-``q`` design of :func:`~starlib.edst.factor.er.clusters.odd_cluster_trees` fails for
        ``q > 128`` (``q <= 128`` falls back to the in-memory construction).

    Example
    -------
    >>> st = er_tree_stream(7, "low-depth")
    >>> [(root, tag) for _, root, tag in st]
    [(1, 'ER-C'), (1, 'ER-C'), (1, 'ER-C'), (52, 'ER-F')]
    >>> er_tree_stream(6)
    Traceback (most recent call last):
    ...
    ValueError: q=6 is not a prime power

    References
    ----------
    docs/er-edsts.md §4 (A), §5-§7 (layout, C, the odd-q tree).
    """
    q = check_prime_power(q)
    if family not in FAMILIES:
        raise ValueError(f"family={family!r} is not one of {', '.join(repr(f) for f in FAMILIES)}")
    S = singer_model(q)
    if family == "hamiltonian":
        maker: object = _Hamiltonian(S)
    else:
        maker = _LowDepth.build(S)
    return ErTreeStream(q, S.n, maker.k, family, maker)


# ---------------------------------------------------------------------------------------------
# hamiltonian
# ---------------------------------------------------------------------------------------------
class _Hamiltonian:
    """Construction A: the path of pair ``t``, ``s + j (b - a)`` for ``j = 0, 1, -1, 2, ...``."""

    def __init__(self, S: SingerModel) -> None:
        self.S = S
        self.pairs = singer_pairing(S.q)
        self.k = int(self.pairs.shape[0])

    def tree(self, t: int) -> tuple[np.ndarray, int, str]:
        n = self.S.n
        row = hamiltonian_path_orders(self.S, self.pairs[t:t + 1])[0]
        e = np.empty((n - 1, 2), dtype=np.int32)
        e[:, 0] = row[:-1]
        e[:, 1] = row[1:]
        return e, int(row[(n - 1) // 2]), "ER-A"


# ---------------------------------------------------------------------------------------------
# low-depth
# ---------------------------------------------------------------------------------------------
class _Materialised:
    """The in-memory family of :func:`~starlib.edst.factor.er.er_edsts` (small ``q`` fallback)."""

    def __init__(self, q: int) -> None:
        self.trees = [(np.asarray(t.edges, dtype=np.int32), int(t.root), str(t.construction))
                      for t in er_edsts(q, "low-depth", labels="singer")]
        self.k = len(self.trees)

    def tree(self, t: int) -> tuple[np.ndarray, int, str]:
        e, r, tag = self.trees[t]
        return e.copy(), r, tag


class _LowDepth:
    """Construction C (even ``q``) or the odd-``q`` design, with compact ids for the special edges.

    Edge ids: the w-edge of centre ``v_i`` is ``i``; the star edge of ``x = xs[i, c]`` is ``q + i q + c``; the
    internal edge ``{x, mate[x]}`` with ``x < mate[x]`` is ``q + q^2 + i q + c``; the edge of ``M(i, z)`` at
    ``y = xs[i, c]`` is ``q + 2 q^2 + i q + c``. ``extra[t]`` holds tree ``t``'s special edges; its matching
    edges are generated by :func:`_matching_rows`.
    """

    def __init__(self, S: SingerModel, w: int, centres: np.ndarray, d1: np.ndarray, xs: np.ndarray,
                 stars: np.ndarray, ends: np.ndarray, extra: np.ndarray, last: np.ndarray | None,
                 zroot: int) -> None:
        self.S, self.w, self.centres, self.d1, self.xs = S, w, centres, d1, xs
        self.stars, self.ends, self.extra, self.last, self.zroot = stars, ends, extra, last, zroot
        self.k = extra.shape[0] + (last is not None)

    @staticmethod
    def build(S: SingerModel) -> _LowDepth | _Materialised:
        q, n = S.q, S.n
        if q == 3:  # odd_cluster_trees needs q >= 5 (er_edsts repairs q = 3)
            return _Materialised(q)
        w, centres, cluster, is_centre, d1 = layout_base(S)
        x = np.flatnonzero((cluster >= 0) & ~is_centre)
        xs = x[np.argsort(cluster[x], kind="stable")].reshape(q, q)
        del x, is_centre
        nid = q + 3 * q * q
        ends = np.full((nid, 2), -1, dtype=np.int64)
        star_of = np.full(n, -1, dtype=np.int64)
        mate = np.full(n, -1, dtype=np.int64)
        rank = np.full(n, -1, dtype=np.int64)
        _special_kernel(d1, xs, centres, cluster, w, ends, star_of, mate, rank)
        used = np.zeros(nid, dtype=bool)
        odd = q % 2 == 1
        qc = q - 1 if odd else q
        stars = choices.double_star_rows(qc)
        s = stars.shape[0]
        h = (q + 1) // 2
        hub, ok = _hub_ids(xs, centres, d1, rank, star_of, used, s, h)
        if not ok:  # pragma: no cover - disjoint by construction
            raise RuntimeError(f"q={q}: hub trees collide")
        z = q - 1 if odd else -2
        zpos = np.full(n, -1, dtype=np.int64)
        zdep = np.full((s, q), -1, dtype=np.int16)
        if odd:
            zpos[xs[z]] = np.arange(q)
        anchored = lifted_anchors(d1, xs, centres, qc)
        rule = (d1.astype(np.int32), cluster.astype(np.int16), centres, anchored, zpos.astype(np.int32), zdep, qc, z)
        if not odd:
            hang = choices.hang_centres(xs, star_of, mate, s, rule, q, used)
            extra = np.concatenate([hub, choices.hung(hang)], axis=1)
            return _LowDepth(S, w, centres, d1, xs, stars, ends, extra, None, -1)
        got = _odd_design(S, xs, star_of, mate, ends, used, cluster, centres, d1, rule, hub)
        if got is None:
            if q <= FALLBACK_MAX_Q:
                return _Materialised(q)
            raise RuntimeError(f"q={q}: the odd-q design of odd_cluster_trees fails (plan, flow or the last tree's "
                               f"connectivity); only the in-memory repair (q <= {FALLBACK_MAX_Q}) handles it")
        extra, last = got
        return _LowDepth(S, w, centres, d1, xs, stars, ends, extra, last, int(centres[q - 1]))

    def tree(self, t: int) -> tuple[np.ndarray, int, str]:
        if t == self.extra.shape[0]:
            return self.last.copy(), self.zroot, "ER-F"
        out = np.empty((self.S.n - 1, 2), dtype=np.int32)
        _tree_kernel(t, self.stars, self.xs, self.centres, self.d1, self.ends, self.extra, out)
        return out, self.w, "ER-C"


def _odd_design(S: SingerModel, xs: np.ndarray, star_of: np.ndarray, mate: np.ndarray, ends: np.ndarray,
                used: np.ndarray, cluster: np.ndarray,
                centres: np.ndarray, d1: np.ndarray, rule: tuple,
                hub: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The steps of :func:`~starlib.edst.factor.er.clusters.odd_cluster_trees` after the hub trees, on compact
    ids: ``(extra, last)`` (the special edge ids of every ``T_t``, the rows of ``F``) or None where it fails."""
    q, n = S.q, S.n
    s, z = (q - 1) // 2, q - 1
    ar = np.arange(n)
    comp_rep = np.where((mate >= 0) & (mate < ar), mate, ar)
    del ar
    xz = xs[z]
    zreps = np.unique(comp_rep[xz])
    zslot = np.full(n, -1, dtype=np.int64)
    zslot[zreps] = np.arange(zreps.size)
    mz, pz, medge = _partners_z(d1, xs, centres, z, ends)
    bs = np.arange(1, q - 1, 2)
    cand = xs[bs]
    res, starred = choices.reserve_stars(cand, used, star_of, comp_rep, pz, zslot, zreps.size)
    reserve = np.full(q - 1, -1, dtype=np.int64)
    reserve[bs] = res
    hang = choices.hang_centres(xs, star_of, mate, s, rule, q - 1, used, avoid_pairs=True, reserve=reserve)
    cov, unc, forced, ok = choices.plan_free_stars(cand, bs, used, star_of, comp_rep, res, q)
    if not ok:
        return None
    chosen = choices.flow_selection(xs, cluster, z, comp_rep, pz, medge, cov, unc, forced)
    if chosen is None:
        starred[:] = -1
        chosen = choices.flow_selection(xs, cluster, z, comp_rep, pz, medge, cov, unc, np.zeros(q, dtype=bool))
        if chosen is None:
            return None
    used[chosen] = True
    zm, ok = choices.xz_edges(rule, s, mz, used, ends, cluster, z, xz, s)
    if not ok:  # pragma: no cover
        raise RuntimeError("flow: some x in X_z does not keep s matching edges")
    _hang_z(rule, zm, ends, cluster, z)  # X_z hangs one below its partner: the depths zstar_vertices reads
    zs = star_of[choices.zstar_vertices(rule, s, zreps, mate, starred)]
    used[zs] = True
    used[chosen] = False
    fid = np.flatnonzero(~used & (ends[:, 0] >= 0))
    if fid.size != n - 1:  # pragma: no cover - the counting of odd_cluster_trees
        raise RuntimeError(f"the last tree has {fid.size} edges, not n-1={n - 1}")
    last = ends[fid].astype(np.int32)
    if count_components(n, last) != 1:
        return None
    extra = np.concatenate([hub, choices.hung(hang), zm, zs[:, None]], axis=1)
    return extra, last


# ---------------------------------------------------------------------------------------------
# compiled kernels
# ---------------------------------------------------------------------------------------------
@numba.njit(cache=True)
def _special_kernel(d1, xs, centres, cluster, w, ends, star_of, mate, rank):  # pragma: no cover - compiled
    """Rows of the w-, star and internal edges under their compact ids (see :class:`_LowDepth`), and ``star_of``,
    ``mate`` and ``rank`` (the position of ``x`` in ``xs[cluster[x]]``)."""
    q = xs.shape[0]
    for i in range(q):
        v = centres[i]
        ends[i, 0] = min(w, v)
        ends[i, 1] = max(w, v)
        for c in range(q):
            x = xs[i, c]
            rank[x] = c
            e = q + i * q + c
            star_of[x] = e
            ends[e, 0] = min(x, v)
            ends[e, 1] = max(x, v)
            y = partner(d1, x, v)  # the common neighbour of x and v_i: its internal mate if there is one
            if y != x and y != v and cluster[y] == i:
                mate[x] = y
    for i in range(q):
        for c in range(q):
            x = xs[i, c]
            y = mate[x]
            if y > x:
                e = q + q * q + i * q + c
                ends[e, 0] = x
                ends[e, 1] = y


@numba.njit(cache=True)
def _hub_ids(xs, centres, d1, rank, star_of, used, s, h):  # pragma: no cover - compiled
    """Step 2-3 of Construction C for every tree (as the hub trees of
    :func:`~starlib.edst.factor.er.clusters.lifted_cluster_trees`): the star edges of ``v_a`` to the first ``h``
    vertices of ``X_a`` and of ``v_b`` to the vertices of ``X_b`` whose copy is not anchored at ``v_a``, then
    ``w v_a`` and ``w v_b``; ``(hub, ok)`` with ``hub`` ``(s, q+2)`` edge ids, marked in ``used``."""
    q = xs.shape[0]
    hub = np.empty((s, q + 2), np.int64)
    ok = True
    for t in range(s):
        a = 2 * t
        b = a + 1
        k = 0
        for c in range(h):
            hub[t, k] = star_of[xs[a, c]]
            k += 1
        for c in range(q):
            y = xs[b, c]
            if rank[partner(d1, y, centres[a])] >= h:
                if k >= q:
                    ok = False
                    break
                hub[t, k] = star_of[y]
                k += 1
        if k != q:
            ok = False
            k = q
        hub[t, q] = a
        hub[t, q + 1] = b
        for j in range(q + 2):
            if used[hub[t, j]]:
                ok = False
            used[hub[t, j]] = True
    return hub, ok


@numba.njit(cache=True)
def _partners_z(d1, xs, centres, z, ends):  # pragma: no cover - compiled
    """``M(i, z)`` for ``i != z`` (``i`` increasing): the edge ids ``mz``, and per ``y`` outside ``C_z`` its
    partner ``pz[y]`` in ``X_z`` and edge ``medge[y]`` (as
    :func:`~starlib.edst.factor.er.clusters.odd_cluster_trees` finds them); writes the rows of ``ends``."""
    q = xs.shape[0]
    n = d1.shape[0]
    mz = np.empty((q - 1) * q, np.int64)
    pz = np.full(n, -1, np.int64)
    medge = np.full(n, -1, np.int64)
    k = 0
    vz = centres[z]
    for i in range(q):
        if i == z:
            continue
        for c in range(q):
            y = xs[i, c]
            x = partner(d1, y, vz)
            e = q + 2 * q * q + i * q + c
            ends[e, 0] = min(x, y)
            ends[e, 1] = max(x, y)
            mz[k] = e
            k += 1
            pz[y] = x
            medge[y] = e
    return mz, pz, medge


@numba.njit(cache=True)
def _hang_z(rule, zm, ends, cluster, z):  # pragma: no cover - compiled
    """Depth of every ``x`` in ``X_z`` in tree ``t``: one more than its partner through ``zm[t]`` (written into
    the ``zdep`` of ``rule``; as :func:`~starlib.edst.factor.er.depths.extend_depths` on the new leaves)."""
    zpos = rule[4]
    zdep = rule[5]
    for t in range(zm.shape[0]):
        for j in range(zm.shape[1]):
            e = zm[t, j]
            u = ends[e, 0]
            v = ends[e, 1]
            x, y = (u, v) if cluster[u] == z else (v, u)
            zdep[t, zpos[x]] = lifted_depth(rule, t, y) + 1


@numba.njit(cache=True)
def _tree_kernel(t, stars, xs, centres, d1, ends, extra, out):  # pragma: no cover - compiled
    """Tree ``t``: the matchings ``M(i, j)`` of the rows of ``S_t`` (the partner of each ``x`` in ``X_i``), then
    the rows of its special edges ``extra[t]``; ``(min, max)`` per row."""
    q = xs.shape[0]
    r = stars.shape[1]
    k = 0
    for j in range(r):
        i = stars[t, j, 0]
        vj = centres[stars[t, j, 1]]
        for c in range(q):
            x = xs[i, c]
            y = partner(d1, x, vj)
            out[k, 0] = min(x, y)
            out[k, 1] = max(x, y)
            k += 1
    for j in range(extra.shape[1]):
        e = extra[t, j]
        out[k, 0] = ends[e, 0]
        out[k, 1] = ends[e, 1]
        k += 1
