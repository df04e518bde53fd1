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
>>> from starlib.edst import maximum_trees, universal_trees
>>> from starlib.networks import slimfly
>>> s = universal_trees(slimfly(5))
>>> len(s), s.constructions()
(1, ['V-B.2'])
"""

from __future__ import annotations

import numpy as np

from ..trees import EDSTSet, orient
from .context import ProductContext, greedy_distinct

__all__ = ["universal_construction"]


def universal_construction(ctx: ProductContext, low_depth: bool = False) -> EDSTSet:
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
