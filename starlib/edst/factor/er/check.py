"""Checks of ER_q EDST families that stream: tree by tree, without building ER_q.

ER_q in Singer labels (:mod:`starlib.edst.factor.er.singer`) is ``i ~ j`` iff ``(i + j) mod n`` lies in the
perfect difference set ``D`` and ``i != j``. Every edge ``{u, v}`` has a *slot* ``(index of u + v in D, min(u, v))``;
the ``(q + 1) n`` slots hold each edge once (and some non-edges: a slot ``(d, u)`` with ``d - u <= u``), so one
bit per slot records the edges already used. :class:`SingerChecker` checks one tree at a time:

* *member*: every edge satisfies ``u != v`` and ``u + v mod n`` in ``D`` (arithmetic, no adjacency);
* *disjoint*: no slot is used twice, within the tree or across trees (the bitmap: ``(q+1) n / 8`` bytes, 134 MB
  at ``q = 1024``);
* *spanning* and *acyclic*: one component (a BFS), and ``n - c`` distinct edges for ``c`` components;
* *depth*: a BFS from the stated root;
* *digest*: the tree's edges as ``(min, max)`` rows in increasing order, little-endian ``uint32``, fed to a SHA-256
  of the family in tree order (:attr:`SingerChecker.sha256`). Two runs anywhere that build the same family give
  the same digest.

:func:`check_singer_isomorphism` ties the Singer model to the dot-product definition of ER_q (``u ~ v`` iff
``u . v = 0``, :func:`starlib.factors.polarfly`) by checking the explicit Gram-basis map of
:meth:`~starlib.edst.factor.er.singer.SingerModel.index_of_points` edge by edge, also without building either graph.

Memory: the bitmap plus ``O(n)`` per tree; time ``O(n)`` per tree (a counting sort puts the edges in order).

Example
-------
>>> from starlib.edst.factor.er import er_edsts
>>> C = SingerChecker(5)
>>> [C.check(t.edges, t.root).ok for t in er_edsts(5, "low-depth", labels="singer")]
[True, True, True]
>>> C.check(er_edsts(5, labels="singer")[0].edges, 0).disjoint  # the same edges again
False

References
----------
docs/er-edsts.md §2 (Singer model, adjacency), §3 (the isomorphism), §1 (the bound).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from ...._kernels import bfs_scan
from ....factors import polarfly_points
from .singer import SingerModel, is_perfect_difference_set, singer_model

__all__ = ["TreeCheck", "SingerChecker", "IsomorphismCheck", "check_singer_isomorphism", "family_sha256"]


@dataclass(frozen=True)
class TreeCheck:
    """What :meth:`SingerChecker.check` found for one tree.

    Attributes
    ----------
    edges : int
        Number of rows given.
    member : bool
        Every row is an edge of ER_q.
    disjoint : bool
        No edge is used twice (within this tree or by an earlier tree of the checker).
    spanning : bool
        One component on all ``n`` vertices.
    acyclic : bool
        No edge closes a cycle.
    depth : int
        Largest BFS distance from the root in the tree (``-1`` if the root is out of range).
    """

    edges: int
    member: bool
    disjoint: bool
    spanning: bool
    acyclic: bool
    depth: int

    @property
    def ok(self) -> bool:
        """A spanning tree of ER_q, edge-disjoint from the trees checked before."""
        return self.member and self.disjoint and self.spanning and self.acyclic


@numba.njit(cache=True)
def _check_tree(edges, root, n, in_D, dpos, bits, canon, count, deg, other, adj, dist, queue,
                one):  # pragma: no cover - compiled
    """One tree: ``(bad members, reused slots, components, depth)``; ``canon`` gets the sorted rows.

    ``bits`` (uint8) is the slot bitmap, updated. Rows that are not edges are left out of the other checks
    and of ``canon`` (its unused tail is zero). The rows are counting-sorted by their smaller end first, so
    that the bitmap is read in increasing slot order per sum class; the components come from a BFS
    (:func:`starlib._kernels.bfs_scan`) from the root and then from every vertex it did not reach. ``count,
    deg`` (``n + 1``), ``other`` (rows), ``adj`` (twice the rows), ``dist``, ``queue`` (``n``) and ``one`` (1)
    are scratch, int32, reused from tree to tree.
    """
    e = edges.shape[0]
    count[:] = 0
    deg[:] = 0
    bad = 0
    for r in range(e):
        a = np.int64(edges[r, 0])
        b = np.int64(edges[r, 1])
        if a < 0 or b < 0 or a >= n or b >= n or a == b or not in_D[(a + b) % n]:
            bad += 1
            continue
        u = min(a, b)
        count[u + 1] += 1
        deg[u + 1] += 1
        deg[max(a, b) + 1] += 1
    for x in range(n):
        count[x + 1] += count[x]
        deg[x + 1] += deg[x]
    fill = dist  # the fill pointers of the sort, then of the adjacency, live in dist and queue until the BFS
    fill[:] = count[:n]
    for r in range(e):
        a = np.int64(edges[r, 0])
        b = np.int64(edges[r, 1])
        if a < 0 or b < 0 or a >= n or b >= n or a == b or not in_D[(a + b) % n]:
            continue
        u = min(a, b)
        other[fill[u]] = max(a, b)
        fill[u] += 1
    afill = queue
    afill[:] = deg[:n]
    reused = 0
    k = 0
    for u in range(n):
        lo = count[u]
        hi = count[u + 1]
        for i in range(lo + 1, hi):  # insertion sort: buckets are tree degrees
            x = other[i]
            j = i - 1
            while j >= lo and other[j] > x:
                other[j + 1] = other[j]
                j -= 1
            other[j + 1] = x
        for i in range(lo, hi):
            v = np.int64(other[i])
            canon[k, 0] = u
            canon[k, 1] = v
            k += 1
            slot = dpos[(u + v) % n] * n + u
            byte = slot >> 3
            mask = np.uint8(1 << (slot & 7))
            if bits[byte] & mask:
                reused += 1
            bits[byte] |= mask
            adj[afill[u]] = v
            afill[u] += 1
            adj[afill[v]] = u
            afill[v] += 1
    # BFS from the root (its depth), then from every vertex not reached (the components); visited: dist >= 0
    dist[:] = -1
    none = adj[:0]
    depth = -1
    components = 0
    tail = 0
    for s in range(-1, n):
        start = root if s < 0 else s
        if start < 0 or start >= n or dist[start] >= 0:
            continue
        components += 1
        one[0] = start
        tail = bfs_scan(deg, adj, one, 0, none, dist, none, queue, tail, n)
        if s < 0:
            depth = dist[queue[tail - 1]]
    return bad, reused, components, depth


class SingerChecker:
    """Check the trees of one ER_q EDST family one at a time, in Singer labels, and hash them.

    Parameters
    ----------
    q : int
        The field order (a prime power).
    model : SingerModel, optional
        :func:`~starlib.edst.factor.er.singer.singer_model` ``(q)`` if already built.

    Attributes
    ----------
    q, n : int
    trees : int
        Trees checked so far.
    valid : bool
        Every tree so far was a spanning tree of ER_q, edge-disjoint from the others.
    max_depth : int
        The deepest tree so far (BFS from each stated root).
    sha256 : str
        Hex SHA-256 of the canonical edges of the trees so far, in order.

    Example
    -------
    >>> from starlib.edst.factor.er import er_edsts
    >>> C = SingerChecker(3)
    >>> for t in er_edsts(3, labels="singer"):
    ...     _ = C.check(t.edges, t.root)
    >>> C.trees, C.valid, C.max_depth
    (2, True, 6)

    References
    ----------
    docs/er-edsts.md §2.3 (adjacency), §4.1 (sum classes: the slots).
    """

    def __init__(self, q: int, model: SingerModel | None = None) -> None:
        S = model if model is not None else singer_model(q)
        self.q, self.n = S.q, S.n
        self._in_D = S.in_D
        self._dpos = np.full(S.n, -1, dtype=np.int64)
        self._dpos[S.D] = np.arange(S.D.size)
        self._bits = np.zeros(((S.q + 1) * S.n + 7) // 8, dtype=np.uint8)
        self._hash = hashlib.sha256()
        self.trees, self.valid, self.max_depth = 0, True, -1
        self._scratch: tuple | None = None

    @property
    def sha256(self) -> str:
        """Hex digest of the canonical edges of the trees checked so far (module docstring)."""
        return self._hash.hexdigest()

    def check(self, edges: np.ndarray, root: int) -> TreeCheck:
        """Check one tree (edge rows in Singer labels, rooted at ``root``) and add it to the family.

        Parameters
        ----------
        edges : array_like
            ``(e, 2)`` vertex pairs in Singer labels.
        root : int
            The vertex the depth is measured from.

        Returns
        -------
        TreeCheck
        """
        e = np.ascontiguousarray(np.asarray(edges).reshape(-1, 2))
        n = self.n
        if self._scratch is None or self._scratch[2].shape[0] < e.shape[0]:
            rows = max(e.shape[0], n - 1)
            self._scratch = (np.empty(n + 1, np.int32), np.empty(n + 1, np.int32), np.empty(rows, np.int32),
                             np.empty(2 * rows, np.int32), np.empty(n, np.int32), np.empty(n, np.int32),
                             np.empty(1, np.int32))
        canon = np.zeros(e.shape, dtype=np.uint32)
        bad, reused, components, depth = _check_tree(e, int(root), n, self._in_D, self._dpos, self._bits, canon,
                                                     *self._scratch)
        placed = e.shape[0] - bad - reused  # distinct edges of the graph in this tree (if none was reused)
        self._hash.update(canon.astype("<u4", copy=False).tobytes())
        out = TreeCheck(edges=int(e.shape[0]), member=bad == 0, disjoint=reused == 0, spanning=components == 1,
                        acyclic=reused == 0 and placed == self.n - components, depth=int(depth))
        self.trees += 1
        self.valid = self.valid and out.ok
        self.max_depth = max(self.max_depth, out.depth)
        return out


def family_sha256(trees: Sequence[Any]) -> str:
    """The digest of :attr:`SingerChecker.sha256` computed in memory with numpy's sort (a second implementation).

    Parameters
    ----------
    trees : sequence of Tree or array_like
        The family in order, each tree as ``(e, 2)`` vertex pairs (Singer labels for the sweep's digests).

    Returns
    -------
    str
        Hex SHA-256 of each tree's edges as ``(min, max)`` rows in increasing order, little-endian ``uint32``,
        trees in order.

    Example
    -------
    >>> from starlib.edst.factor.er import er_edsts
    >>> trees = er_edsts(4, labels="singer")
    >>> C = SingerChecker(4)
    >>> for t in trees:
    ...     _ = C.check(t.edges, t.root)
    >>> family_sha256(trees) == C.sha256
    True
    """
    h = hashlib.sha256()
    for t in trees:
        e = np.sort(np.asarray(t.edges if hasattr(t, "edges") else t, dtype=np.int64).reshape(-1, 2), axis=1)
        e = e[np.lexsort((e[:, 1], e[:, 0]))]
        h.update(e.astype("<u4").tobytes())
    return h.hexdigest()


@dataclass(frozen=True)
class IsomorphismCheck:
    """What :func:`check_singer_isomorphism` found.

    Attributes
    ----------
    q, n : int
    difference_set : bool
        ``D`` is a perfect difference set mod ``n`` (every nonzero residue is one difference).
    bijection : bool
        The Gram-basis map sends the ``n`` points of PG(2, q) to ``n`` distinct Singer labels.
    singer_edges : int
        Edges of the Singer model (pairs ``i < j`` with ``i + j`` in ``D``), counted.
    orthogonal : int
        Of these, how many map to dot-product-orthogonal point pairs.
    dot_edges : int
        Edges of the dot-product ER_q: ``(n (q+1) - a) / 2`` with ``a`` the absolute points counted
        (every point is orthogonal to the ``q + 1`` points of its polar line, itself among them iff absolute).
    """

    q: int
    n: int
    difference_set: bool
    bijection: bool
    singer_edges: int
    orthogonal: int
    dot_edges: int

    @property
    def isomorphic(self) -> bool:
        """The map is an isomorphism: a bijection sending every Singer edge to a dot-product edge, with equal
        edge counts."""
        return (self.difference_set and self.bijection and self.orthogonal == self.singer_edges == self.dot_edges)


@numba.njit(cache=True)
def _gf_add(a, b, p, k, add):  # pragma: no cover - compiled
    """``a + b`` in GF(p^k): XOR in characteristic 2, ``mod p`` in a prime field, else the table."""
    if p == 2:
        return a ^ b
    if k == 1:
        s = a + b
        return s - p if s >= p else s
    return add[a, b]


@numba.njit(cache=True)
def _orthogonal_edges(P, D, n, p, k, add, mul):  # pragma: no cover - compiled
    """``(Singer edges, of which orthogonal)``: every ``i`` and ``d`` in ``D`` with ``j = d - i > i``.

    The loop runs over ``d`` outside and ``i`` inside, so ``j`` walks down as ``i`` walks up: both rows of ``P``
    are read in order."""
    edges = 0
    ortho = 0
    for t in range(D.shape[0]):
        d = D[t]
        for i in range(n):
            j = d - i
            if j < 0:
                j += n
            if j <= i:
                continue
            edges += 1
            s = _gf_add(_gf_add(mul[P[i, 0], P[j, 0]], mul[P[i, 1], P[j, 1]], p, k, add), mul[P[i, 2], P[j, 2]],
                        p, k, add)
            if s == 0:
                ortho += 1
    return edges, ortho


@numba.njit(cache=True)
def _absolute_count(P, p, k, add, mul):  # pragma: no cover - compiled
    a = 0
    for i in range(P.shape[0]):
        if _gf_add(_gf_add(mul[P[i, 0], P[i, 0]], mul[P[i, 1], P[i, 1]], p, k, add), mul[P[i, 2], P[i, 2]],
                   p, k, add) == 0:
            a += 1
    return a


def check_singer_isomorphism(q: int, model: SingerModel | None = None) -> IsomorphismCheck:
    """Check, edge by edge, that the Gram-basis map is an isomorphism from dot-product ER_q to the Singer model.

    Parameters
    ----------
    q : int
        The field order of ER_q (a prime power).
    model : SingerModel, optional
        The model of that ``q`` if the caller holds it already (the sweep's point checks both with one model).

    Returns
    -------
    IsomorphismCheck
        ``.isomorphic`` is the verdict. ``O(n q)`` time with GF(q) tables, ``O(n + q^2)`` memory: neither
        graph is built.

    Example
    -------
    >>> r = check_singer_isomorphism(7)
    >>> r.isomorphic, r.singer_edges, 7 * 8 * 8 // 2
    (True, 224, 224)

    References
    ----------
    docs/er-edsts.md §3 (the Gram basis and the map ``y -> sum y_r e_r``).
    """
    S = model if model is not None else singer_model(q)
    pts = polarfly_points(S.q)
    sing = S.index_of_points(pts)
    bijection = bool(np.unique(sing).size == S.n and sing.min() == 0 and sing.max() == S.n - 1)
    P = np.empty((S.n, 3), dtype=np.int16)
    P[sing] = pts
    add, mul, _, _ = S.point_tables
    T = S.field
    add, mul = add.astype(np.int16), mul.astype(np.int16)  # 2 MB each at q = 1024: they stay in cache
    edges, ortho = _orthogonal_edges(P, S.D, S.n, T.p, T.k, add, mul)
    absolute = _absolute_count(P, T.p, T.k, add, mul)
    return IsomorphismCheck(q=S.q, n=S.n, difference_set=is_perfect_difference_set(S.D, S.n), bijection=bijection,
                            singer_edges=int(edges), orthogonal=int(ortho),
                            dot_edges=(S.n * (S.q + 1) - int(absolute)) // 2)
