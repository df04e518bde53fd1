"""Vectorised building blocks of the star-product constructions (docs/star-products.md §4).

With ``G`` the structure graph, ``H`` the supernode and ``phi_{g->g'}`` the transfer maps:

* ``Intra(g, F)``: the ``H``-edges ``F`` copied inside supernode ``g`` (:meth:`ProductFrame.intra`);
* ``Copies(F)``: all ``n_H`` twisted copies ``{(g,h), (g', phi_{g->g'}(h))}`` of ``G``-edges ``F``
  (:meth:`ProductFrame.copies`);
* the child-anchored edge ``e(p->c; h) = {(p, phi_{c->p}(h)), (c, h)}`` of an arc of an oriented ``G``-tree
  (:meth:`ProductFrame.anchored`): for a fixed arc, ``h -> e(p->c; h)`` is a bijection onto the ``n_H``
  edges between the two supernodes, so constructions that use disjoint child endpoints are disjoint;
* the twisted copy of an oriented ``G``-tree through ``(g_0, h)`` (:meth:`ProductFrame.twisted_copy`).

Every block is built with numpy over whole supernode copies; Python loops run over ``G``'s levels only.

Example
-------
>>> from starlib.factors import complete, paley
>>> from starlib.products import star_product
>>> P = star_product(complete(2), paley(5), paley(5).meta["bijection"])
>>> F = ProductFrame(P)
>>> F.copies(np.array([[0, 1]])).shape, F.intra([1], np.array([[0, 1]])).tolist()
((5, 2), [[5, 6]])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from ..trees import OrientedTree

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ...products import StarProduct

__all__ = ["ProductFrame", "Block"]


@numba.njit(cache=True)
def _arc_index(n, gedges):  # pragma: no cover - compiled
    """Sorted neighbour rows of a canonical edge list, each neighbour with the row of its edge."""
    m = gedges.shape[0]
    back = np.zeros(n, np.int64)
    indptr = np.zeros(n + 1, np.int64)
    for k in range(m):
        indptr[gedges[k, 0] + 1] += 1
        indptr[gedges[k, 1] + 1] += 1
        back[gedges[k, 1]] += 1
    for v in range(n):
        indptr[v + 1] += indptr[v]
    lo = indptr[:-1].copy()  # neighbours w < v first (edges (w, v) come in increasing w) ...
    hi = indptr[:-1] + back  # ... then v's own edges (v, u), u increasing: every row ends up sorted
    nbr = np.empty(2 * m, np.int64)
    arc = np.empty(2 * m, np.int64)
    for k in range(m):
        u = gedges[k, 0]
        v = gedges[k, 1]
        nbr[hi[u]] = v
        arc[hi[u]] = k
        hi[u] += 1
        nbr[lo[v]] = u
        arc[lo[v]] = k
        lo[v] += 1
    return indptr, nbr, arc


@numba.njit(cache=True)
def _arc_rows(indptr, nbr, arc, pairs):  # pragma: no cover - compiled
    """Row of the structure edge ``{pairs[i, 0], pairs[i, 1]}``; -1 where it is not an edge."""
    out = np.empty(pairs.shape[0], np.int64)
    n = indptr.shape[0] - 1
    for i in range(pairs.shape[0]):
        a = pairs[i, 0]
        b = pairs[i, 1]
        out[i] = -1
        if a < 0 or a >= n:
            continue
        lo = indptr[a]
        hi = indptr[a + 1]
        while lo < hi:
            mid = (lo + hi) >> 1
            if nbr[mid] < b:
                lo = mid + 1
            else:
                hi = mid
        if lo < indptr[a + 1] and nbr[lo] == b:
            out[i] = arc[lo]
    return out


@numba.njit(cache=True)
def _intra(out, gs, f, nH):  # pragma: no cover - compiled
    m = f.shape[0]
    for a in range(gs.shape[0]):
        base = gs[a] * nH
        for i in range(m):
            out[a * m + i, 0] = base + f[i, 0]
            out[a * m + i, 1] = base + f[i, 1]


@numba.njit(cache=True)
def _copies(out, gedges, B, shared, k, nH):  # pragma: no cover - compiled
    for a in range(k.shape[0]):
        r = k[a]
        br = 0 if shared else r
        s0 = gedges[r, 0] * nH
        s1 = gedges[r, 1] * nH
        base = a * nH
        for h in range(nH):
            out[base + h, 0] = s0 + h
            out[base + h, 1] = s1 + B[br, h]


@numba.njit(cache=True)
def _anchored(out, gedges, B, shared, k, p, c, hs, nH):  # pragma: no cover - compiled
    """``{(p, phi_{c->p}(h)), (c, h)}`` for every arc ``a`` and ``h`` in ``hs[a]`` (inverse rows made as needed)."""
    j = hs.shape[1]
    inv = np.empty(nH, np.int64)
    inv_row = -1
    for a in range(p.shape[0]):
        r = k[a]
        br = 0 if shared else r
        forward = c[a] == gedges[r, 0]  # the bijection of row r maps supernode c to supernode p
        if not forward and inv_row != br:
            for h in range(nH):
                inv[B[br, h]] = h
            inv_row = br
        for i in range(j):
            h = hs[a, i]
            ph = B[br, h] if forward else inv[h]
            out[a * j + i, 0] = p[a] * nH + ph
            out[a * j + i, 1] = c[a] * nH + h


class Block:
    """A block of product edges not yet written: its row count and a kernel call that writes it.

    :meth:`ProductContext.tree` sums the sizes, allocates the tree once and lets every block write its
    rows in place (no intermediate arrays to concatenate); :meth:`array` materialises one block alone.
    """

    __slots__ = ("size", "_kernel", "_args")

    def __init__(self, size: int, kernel: Any, args: tuple) -> None:
        self.size = int(size)
        self._kernel = kernel
        self._args = args

    def write(self, out: np.ndarray) -> None:
        """Write the block's rows into ``out`` (``(size, 2)`` int64, C-contiguous)."""
        if self.size:
            self._kernel(out, *self._args)

    def array(self) -> np.ndarray:
        """The block as a new ``(size, 2)`` int64 array."""
        out = np.empty((self.size, 2), dtype=np.int64)
        self.write(out)
        return out


class ProductFrame:
    """Index arithmetic of a star product ``P = G * H`` (vertex ``(g, h)`` has index ``g n_H + h``).

    Parameters
    ----------
    P : StarProduct
        Needs ``structure``, ``supernode``, ``bijections`` (row ``k`` for the arc
        ``G.edges[k,0] -> G.edges[k,1]``) and ``inverse_bijections()``.
    """

    def __init__(self, P: StarProduct) -> None:
        self.P = P
        self.G = P.structure
        self.H = P.supernode
        self.nG, self.nH = int(self.G.n), int(self.H.n)
        self.N = self.nG * self.nH
        self.gedges = np.ascontiguousarray(self.G.edges, dtype=np.int64)
        self.B = P.bijections
        self._arcs = _arc_index(self.nG, self.gedges)  # G.edges is canonical (an ArrayGraph's)
        self._kernel_b: tuple[np.ndarray, bool] | None = None

    @property
    def Binv(self) -> np.ndarray:
        """The inverse bijections (``P.inverse_bijections()``, computed on first use)."""
        return self.P.inverse_bijections()

    # -- structure-graph arcs ------------------------------------------------------------------
    def arc_rows(self, g: ArrayLike, g2: ArrayLike) -> np.ndarray:
        """Row of ``G.edges`` holding ``{g, g2}`` (element-wise over arrays of structure edges)."""
        g, g2 = np.asarray(g, dtype=np.int64), np.asarray(g2, dtype=np.int64)
        if g.shape != g2.shape:
            g, g2 = np.broadcast_arrays(g, g2)
        return self._pair_rows(np.stack([g.ravel(), g2.ravel()], axis=1)).reshape(g.shape)

    def _pair_rows(self, pairs: np.ndarray) -> np.ndarray:
        """:meth:`arc_rows` of an ``(a, 2)`` int64 array of structure edges."""
        k = _arc_rows(*self._arcs, pairs)
        if k.size and k.min() < 0:
            raise ValueError("structure edges: some pair is not an edge of the structure graph")
        return k

    def phi(self, g: ArrayLike, g2: ArrayLike, h: ArrayLike) -> np.ndarray:
        """``phi_{g -> g2}(h)`` element-wise (``g``, ``g2``, ``h`` broadcast together)."""
        g, g2 = np.asarray(g, dtype=np.int64), np.asarray(g2, dtype=np.int64)
        k = self.arc_rows(g, g2)
        h = np.asarray(h, dtype=np.int64)
        return np.where(g < g2, self.B[k, h], self.Binv[k, h])

    # -- blocks --------------------------------------------------------------------------------
    def vertex(self, g: ArrayLike, h: ArrayLike) -> np.ndarray:
        """Index ``g n_H + h`` (broadcasting)."""
        return np.asarray(g, dtype=np.int64) * self.nH + np.asarray(h, dtype=np.int64)

    def intra(self, gs: ArrayLike, hedges: np.ndarray) -> np.ndarray:
        """``Intra(g, F)`` for every ``g`` in ``gs``: the ``H``-edges ``F`` inside supernode ``g``."""
        return self.intra_block(gs, hedges).array()

    def intra_block(self, gs: ArrayLike, hedges: np.ndarray) -> Block:
        """:meth:`intra` as a :class:`Block` (written in place by :meth:`ProductContext.tree`)."""
        gs = np.ascontiguousarray(gs, dtype=np.int64).reshape(-1)
        f = np.ascontiguousarray(hedges, dtype=np.int64).reshape(-1, 2)
        return Block(gs.shape[0] * f.shape[0], _intra, (gs, f, self.nH))

    def copies(self, gedges: np.ndarray) -> np.ndarray:
        """``Copies(F)``: the ``n_H`` twisted copies ``{(g,h), (g', phi_{g->g'}(h))}`` of each ``G``-edge."""
        return self.copies_block(gedges).array()

    def copies_block(self, gedges: np.ndarray) -> Block:
        """:meth:`copies` as a :class:`Block`."""
        k = self._pair_rows(np.ascontiguousarray(gedges, dtype=np.int64).reshape(-1, 2))
        return Block(k.shape[0] * self.nH, _copies, (self.gedges, *self._bij(), k, self.nH))

    def _bij(self) -> tuple[np.ndarray, bool]:
        """The bijections for the kernels: ``(B, False)``, or ``(B[:1], True)`` when one bijection is
        broadcast to every arc (no copy of the broadcast)."""
        if self._kernel_b is None:
            B = self.B
            shared = B.ndim == 2 and B.shape[0] > 0 and B.strides[0] == 0
            self._kernel_b = (np.ascontiguousarray(B[:1] if shared else B, dtype=np.int64), bool(shared))
        return self._kernel_b

    def anchored(self, parents: np.ndarray, children: np.ndarray, hs: np.ndarray) -> np.ndarray:
        """Child-anchored edges ``e(p->c; h) = {(p, phi_{c->p}(h)), (c, h)}``.

        Parameters
        ----------
        parents, children : ``(a,)`` arrays, the arcs ``p -> c``.
        hs : ``(j,)`` child endpoints used on every arc, or ``(a, j)`` per arc.

        Returns
        -------
        ``(a * j, 2)`` edges.
        """
        return self.anchored_block(parents, children, hs).array()

    def anchored_block(self, parents: np.ndarray, children: np.ndarray, hs: np.ndarray) -> Block:
        """:meth:`anchored` as a :class:`Block`."""
        p = np.ascontiguousarray(parents, dtype=np.int64).reshape(-1)
        c = np.ascontiguousarray(children, dtype=np.int64).reshape(-1)
        hs = np.asarray(hs, dtype=np.int64)
        h2 = np.ascontiguousarray(np.broadcast_to(hs if hs.ndim == 2 else hs.reshape(1, -1),
                                                  (p.shape[0], hs.shape[-1])))
        k = self._pair_rows(np.stack([c, p], axis=1))
        return Block(h2.size, _anchored, (self.gedges, *self._bij(), k, p, c, h2, self.nH))

    def twisted_images(self, tree: OrientedTree, hs: np.ndarray) -> np.ndarray:
        """``pi(g)`` of the twisted copies of the oriented ``G``-tree through ``(root, h)``, ``h`` in ``hs``.

        ``pi(root) = h`` and ``pi(c) = phi_{par(c)->c}(pi(par(c)))``: the one vertex of supernode ``c`` that the copy
        through ``(root, h)`` holds.

        Returns
        -------
        ``(n_G, len(hs))`` array: column ``i`` is the copy through ``hs[i]``; the columns of every row are distinct.
        """
        hs = np.asarray(hs, dtype=np.int64).reshape(-1)
        pi = np.empty((self.nG, hs.shape[0]), dtype=np.int64)
        pi[tree.root] = hs
        depth = tree.depth
        for lev in range(1, tree.height + 1):  # loop over the tree's levels
            cs = np.flatnonzero(depth == lev)
            ps = tree.parent[cs]
            pi[cs] = self.phi(ps[:, None], cs[:, None], pi[ps])
        return pi

    def twisted_copy(self, tree: OrientedTree, hs: np.ndarray) -> np.ndarray:
        """The copies of the oriented ``G``-tree through ``(root, h)`` for every ``h`` in ``hs``.

        The copy's edges are ``{(par(c), pi(par(c))), (c, pi(c))}`` with ``pi`` of :meth:`twisted_images`. Copies
        through distinct ``h`` are vertex-disjoint.

        Returns
        -------
        ``(len(hs), n_G - 1, 2)`` edges (one block per ``h``).
        """
        return self.copy_edges(tree, self.twisted_images(tree, hs))

    def copy_edges(self, tree: OrientedTree, pi: np.ndarray) -> np.ndarray:
        """The edges ``{(par(c), pi(par(c))), (c, pi(c))}`` of the twisted copies with images ``pi``
        (:meth:`twisted_images`, one column per copy).

        Returns
        -------
        ``(pi.shape[1], n_G - 1, 2)`` edges (one block per copy).
        """
        cs = tree.children
        ps = tree.parent[cs]
        a = (ps[None, :] * self.nH + pi[ps].T)
        b = (cs[None, :] * self.nH + pi[cs].T)
        return np.stack([a, b], axis=2)
