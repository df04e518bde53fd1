"""Section V-B: the Universal construction, ``t_G + t_H - 2`` EDSTs on any star product (Theorem V-B.1).

* Construction V-B.2 (``t_G - 1`` trees ``S_i``): ``T_H^{t_H}`` inside one supernode ``g_i`` (distinct ``g_i``)
  plus all ``n_H`` twisted copies of ``T_G^i``. Root ``(g_i, c_H)``; depth ``<= d_H^{t_H} + 2 d_G^i``
  (Theorem V-B.4).
* Construction V-B.3 (``t_H - 1`` trees ``S'_j``): ``T_H^j`` inside every supernode plus, for every arc
  ``p -> c`` of ``T_G^{t_G}`` rooted at its center ``g_0``, the edge whose child endpoint is ``(c, h_j)``
  (distinct ``h_j``). Root ``(g_0, c_H^j)``; depth ``<= D_G + d_H^j + 2 D_G d_H^j`` (Theorem V-B.5(1)).
* Low-depth variant (Theorem V-B.5(2)): replace the anchored edges by the twisted copy of ``T_G^{t_G}``
  through ``(g_0, h_j)``. Root ``(g_0, h_j)``; depth ``<= D_G + 2 d_H^j``.

``d`` are tree radii (depth from the center) and ``D_G`` the height of ``T_G^{t_G}`` from ``g_0`` (the
center, so ``D_G = d_G^{t_G}``). The ``g_i`` and ``h_j`` are chosen greedily as the free vertices of least
eccentricity in ``T_G^i`` and ``T_H^j``.

Example
-------
>>> from starlib.networks import slimfly
>>> s = universal_trees(slimfly(5))
>>> len(s), s.constructions()
(1, ['V-B.2'])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .blocks import orient
from .context import ProductContext, greedy_distinct, product_context
from .trees import EDSTSet

__all__ = ["universal_trees", "low_depth_trees", "universal_from_context"]


def universal_from_context(ctx: ProductContext, low_depth: bool = False) -> EDSTSet:
    """Constructions V-B.2 and V-B.3 (or V-B.5(2)) on a prepared :class:`ProductContext`."""
    F, G, H = ctx.frame, ctx.G, ctx.H
    tG, tH = G.t, H.t
    out = EDSTSet()
    out.theorem = "V-B.1"
    cH, dH = H.center(-1)
    radG = G.radii()
    # V-B.2
    gi = greedy_distinct([G.ecc(i) for i in range(tG - 1)])
    for i, g in enumerate(gi):
        root = int(F.vertex(g, cH))
        ecc_gi = int(G.ecc(i)[g])
        meta = {"bound": dH + 2 * radG[i], "bound_thm": "V-B.4", "d_H": dH, "d_G": radG[i],
                "ecc_G": ecc_gi, "g": g}
        out.append(ctx.tree([F.intra_block([g], H.trees[-1]), F.copies(G.trees[i])], root, "V-B.2", meta))
    # V-B.3 / V-B.5(2)
    g0, DG = G.center(-1)
    og = orient(G.n, G.trees[-1], g0)
    hj = greedy_distinct([H.ecc(j) for j in range(tH - 1)])
    allg = np.arange(G.n)
    if low_depth and hj:
        copies = F.twisted_copy(og, np.array(hj))
    for j, h in enumerate(hj):
        c_j, d_j = H.center(j)
        inner = F.intra(allg, H.trees[j])
        if low_depth:
            meta = {"bound": DG + 2 * d_j, "bound_thm": "V-B.5(2)", "D_G": DG, "d_H": d_j, "h": h}
            out.append(ctx.tree([copies[j], inner], int(F.vertex(g0, h)), "V-B.5(2)", meta))
        else:
            arcs = F.anchored(og.parent[og.children], og.children, [h])
            meta = {"bound": DG + d_j + 2 * DG * d_j, "bound_thm": "V-B.5(1)", "D_G": DG, "d_H": d_j, "h": h}
            out.append(ctx.tree([arcs, inner], int(F.vertex(g0, c_j)), "V-B.3", meta))
    return out


def universal_trees(P: Any, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None,
                    low_depth: bool = False) -> EDSTSet:
    """The Universal construction: ``t_G + t_H - 2`` EDSTs of any star product.

    Parameters
    ----------
    P : StarProduct
        ``G * H`` with connected factors.
    g_trees, h_trees : optional
        EDST sets of ``G`` and ``H`` (default: :func:`~starlib.edst.factor_trees.factor_edsts`); the last tree
        of each plays ``T^t``.
    low_depth : bool
        Build the ``S'_j`` by Theorem V-B.5(2) (twisted copies) instead of Construction V-B.3.

    Returns
    -------
    EDSTSet
        ``t_G - 1`` trees tagged ``"V-B.2"`` then ``t_H - 1`` tagged ``"V-B.3"`` (or ``"V-B.5(2)"``); each tree's
        ``meta["bound"]`` is its depth bound.

    Raises
    ------
    ValueError
        If ``P`` is not a star product or a factor is disconnected.

    Example
    -------
    >>> from starlib.networks import bundlefly
    >>> len(universal_trees(bundlefly(3, 5)))    # t_G + t_H - 2 = 2 + 1 - 2
    1

    References
    ----------
    Theorem V-B.1, Constructions V-B.2 and V-B.3, Theorems V-B.4 and V-B.5 of Isham et al. (2025).
    """
    return universal_from_context(product_context(P, g_trees, h_trees, "universal"), low_depth=low_depth)


def low_depth_trees(P: Any, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None) -> EDSTSet:
    """The Universal construction with the low-depth ``S'_j`` of Theorem V-B.5(2) (``t_G + t_H - 2`` trees).

    Every tree has depth at most ``max(d_H + 2 d_G, D_G + 2 d_H)`` (Table I, Universal row).

    Example
    -------
    >>> from starlib.factors import complete
    >>> from starlib.products import cartesian_product
    >>> s = low_depth_trees(cartesian_product(complete(6), complete(6)))
    >>> s.constructions()
    ['V-B.2', 'V-B.2', 'V-B.5(2)', 'V-B.5(2)']

    References
    ----------
    Theorem V-B.5(2) of Isham et al. (2025).
    """
    return universal_from_context(product_context(P, g_trees, h_trees, "low-depth"), low_depth=True)
