"""Per-tree depths for the choices of the lifted-cluster trees: a BFS table of built forests, or a depth rule.

The choices of :mod:`starlib.edst.factor.er.choices` (hung centres, reserve, ``X_z`` and ``v_z``) prefer vertices
that are shallow in a tree. They read the depths through :func:`depth_at` and :func:`depth_row`, compiled
dispatchers over two sources:

* a ``(k, n)`` table: the BFS depths from ``w`` of the forests built so far (:func:`tree_depths`, updated by
  :func:`extend_depths` when new leaves are hung), used by the in-memory trees of
  :mod:`starlib.edst.factor.er.clusters`;
* a *depth rule* (a tuple, see :func:`lifted_depth`): the same depths computed from the double star ``S_t``, the
  anchors of the copies (:func:`lifted_anchors`) and one partner lookup
  (:func:`~starlib.edst.factor.er.layout.partner`), in ``O(n)`` memory, used by
  :mod:`starlib.edst.factor.er.stream` to build the same trees without the edge list.

Example
-------
>>> depth, isolated = tree_depths(4, np.array([[[0, 1], [1, 2]]]), 0)
>>> depth.tolist(), isolated
([[0, 1, 2, -1]], True)

References
----------
docs/er-edsts.md §6 (Construction C: the depths of the copies), §7 (the odd-q tree).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

from ...._kernels import bfs_from_jit, csr_jit
from .layout import partner

__all__ = ["depth_at", "depth_row", "lifted_depth", "lifted_anchors", "tree_depths", "extend_depths"]


def depth_at(depth, t, v):  # pragma: no cover - replaced by the overload in compiled code
    """The depth of ``v`` in the forest of tree ``t``: ``depth[t, v]`` for a ``(k, n)`` table, else computed by
    :func:`lifted_depth` from a depth rule (a tuple, see there)."""
    return depth[t, v] if isinstance(depth, np.ndarray) else lifted_depth(depth, t, v)


@overload(depth_at)
def _depth_at_impl(depth, t, v):  # pragma: no cover - compiled
    if isinstance(depth, types.Array):
        return lambda depth, t, v: depth[t, v]
    return lambda depth, t, v: lifted_depth(depth, t, v)


def depth_row(depth, t, vs, out):  # pragma: no cover - replaced by the overload in compiled code
    """``out[c] = depth_at(depth, t, vs[c])`` for every ``c`` (the rule's lookups batched: see
    :func:`_lifted_depth_row`)."""
    for c in range(len(vs)):
        out[c] = depth_at(depth, t, vs[c])


@overload(depth_row)
def _depth_row_impl(depth, t, vs, out):  # pragma: no cover - compiled
    if isinstance(depth, types.Array):
        def table_row(depth, t, vs, out):
            for c in range(vs.shape[0]):
                out[c] = depth[t, vs[c]]
        return table_row
    return lambda depth, t, vs, out: _lifted_depth_row(depth, t, vs, out)


@numba.njit(cache=True)
def _lifted_depth_row(rule, t, vs, out):  # pragma: no cover - compiled
    """:func:`lifted_depth` of every ``vs[c]`` in tree ``t`` into ``out``: the hop to the hub cluster first for
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
        y[c] = partner(d1, v, ca if near_a else cb)
        out[c] = 3 if near_a else 4
        alt[c] = 7 - out[c]
    for c in range(m):
        if alt[c] < 0:
            out[c] = lifted_depth(rule, t, vs[c])
        elif not anchored[y[c]]:
            out[c] = alt[c]


@numba.njit(cache=True, inline="always")
def _near_a(i, t, qc):  # pragma: no cover - compiled
    """Whether the leaf cluster ``i`` of the double star ``S_t``
    (:func:`~starlib.edst.factor.er.choices.double_stars`) hangs from ``a = 2t``."""
    if i == qc - 1 and qc % 2 == 1:
        return True  # the odd leaf of S_t hangs from a
    if t < i // 2:
        return i % 2 == 0
    return i % 2 == 1


@numba.njit(cache=True, inline="always")
def lifted_depth(rule, t, v):  # pragma: no cover - compiled
    """The depth from ``w`` of the non-centre ``v`` in the forest of steps 1-3 of tree ``t`` (the hub trees of
    :func:`~starlib.edst.factor.er.clusters.lifted_cluster_trees`), without the forest:
    ``rule = (d1, cluster, centres, anchored, zpos, zdep, qc, z)``.

    ``v`` in cluster ``i`` of the double star ``S_t`` (hubs ``a = 2t``, ``b = 2t+1``) lies at depth
    ``2 + dist_{S_t}(anchor, i)``. The copy of ``v`` meets the hub cluster next to ``i`` (or ``i`` itself) at
    one partner hop (:func:`~starlib.edst.factor.er.layout.partner`), and ``anchored[y]`` for a vertex ``y`` of a
    hub cluster says whether its copy hangs from ``v_a``: for ``y`` in ``X_a``, rank below ``h = ceil(q/2)`` in
    ``X_a``; for ``y`` in ``X_b``, the same of its partner in ``X_a`` (``anchored`` of :func:`lifted_anchors`).
    Vertices of ``X_z`` (``z >= 0``) take ``zdep[t, zpos[v]]`` (``-1`` before they are hung); ``-1`` outside the
    ``qc`` clusters.
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
        return 3 if anchored[partner(d1, v, centres[a])] else 4
    return 4 if anchored[partner(d1, v, centres[a + 1])] else 3


def lifted_anchors(d1: np.ndarray, xs: np.ndarray, centres: np.ndarray, nclusters: int) -> np.ndarray:
    """``anchored[y]`` for ``y`` in ``X_a`` or ``X_b`` of a double star (``a = 2t``, ``b = 2t + 1 < nclusters``):
    whether the copy of ``y`` hangs from ``v_a`` in tree ``t`` (rank below ``ceil(q/2)`` in ``X_a``, through
    the partner in ``X_a`` for ``y`` in ``X_b``); False elsewhere. ``O(n)``.

    Example
    -------
    >>> from starlib.edst.factor.er.singer import singer_model
    >>> S = singer_model(4)
    >>> from starlib.edst.factor.er.layout import layout_base
    >>> w, centres, cluster, is_centre, d1 = layout_base(S)
    >>> x = np.flatnonzero((cluster >= 0) & ~is_centre)
    >>> xs = x[np.argsort(cluster[x], kind="stable")].reshape(4, 4)
    >>> [int(lifted_anchors(d1, xs, centres, 4)[xs[i]].sum()) for i in range(4)]
    [2, 2, 2, 2]
    """
    q = xs.shape[0]
    n = d1.shape[0]
    anchored = np.zeros(n, dtype=bool)
    h = (q + 1) // 2
    for a in range(0, nclusters - 1, 2):
        anchored[xs[a, :h]] = True
        y = xs[a + 1]
        p = (d1[(y - centres[a]) % n] - y) % n  # partners in X_a (see partner)
        anchored[y] = anchored[p]
    return anchored


@numba.njit(cache=True)
def tree_depths(n, ends, root):  # pragma: no cover - compiled
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
def extend_depths(depth, edges, extra):  # pragma: no cover - compiled
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
