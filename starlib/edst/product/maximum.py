"""Section V-C: the Maximum constructions, ``t_G + t_H`` or ``t_G + t_H - 1`` EDSTs (Theorem V-C.3,
Corollaries V-C.10 and V-C.11).

With ``X_G = {g_0, g_1, ..}`` and ``X_H = {h_0, h_1, ..}`` from Lemma V-C.1
(:func:`~starlib.edst.product.factor_data.lemma_vc1`) and ``T_G^{t_G}`` oriented from ``g_0``:

* V-C.4 (``t_G - 1`` trees): ``Intra(g_i, T_H^{t_H}) u Copies(T_G^i)`` with ``g_i`` in ``X_G \\ {g_0}``;
* V-C.5 (``t_H - 1`` trees): ``T_H^j`` in every supernode plus the ``T_G^{t_G}`` arcs anchored at ``h_j``;
* V-C.6 (1 tree): ``Intra(g_0, T_H^{t_H})``, the non-tree forest of ``H`` in every other supernode, and the arcs
  anchored at every ``h`` outside ``X_H``;
* V-C.7 (1 tree): ``T_H^{t_H}`` in the supernodes outside ``X_G``, all copies of the non-tree forest of ``G``,
  and the arcs anchored at ``h_0``. It has ``t_G`` edges too many; the BFS tree from ``(g_0, h_0)`` is kept
  (Remark V-C.8).

Which trees are built (docs/star-products.md §7.4):

================================  ==========================================  =================
condition                         trees                                       count
================================  ==========================================  =================
``r_G >= t_G`` and ``r_H >= t_H``  V-C.4, V-C.5, V-C.6, V-C.7                  ``t_G + t_H``
only ``r_G >= t_G``               V-C.4 (``g_i`` in X_G), V-C.5, V-C.7         ``t_G + t_H - 1``
only ``r_H >= t_H``               V-C.4, V-C.5 (``h_j`` in X_H), V-C.6         ``t_G + t_H - 1``
================================  ==========================================  =================

Depth bounds (Theorem V-C.12, as reconstructed in docs/star-products.md §7.5; ``D_G`` is the height of
``T_G^{t_G}`` from ``g_0``, ``d`` are tree radii, ``L`` the Lemma V-C.1 path lengths): V-C.4
``d_H + 2 d_G^i``; V-C.5 ``D_G + d_H^j + 2 D_G d_H^j``; V-C.6 ``d_H + D_G (L_H + 1)``; V-C.7
``(D_G + 1)(2 L_G + 2 d_H) + D_G``.

Documented choice (the paper's order of (9)-(11) is not recoverable and does not matter;
docs/star-products.md §7.1, §13): ``g_0`` is the vertex of least eccentricity in ``T_G^{t_G}`` that can
belong to ``X_G``.

Example
-------
>>> from starlib.edst import maximum_trees, universal_trees
>>> from starlib.networks import slimfly
>>> s = maximum_trees(slimfly(4))       # MMS(4): r = t for both factors (Theorem V-C.3)
>>> len(s), s.theorem, s.counts()
(3, 'V-C.3', {'V-C.4': 1, 'V-C.6': 1, 'V-C.7': 1})
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..trees import EDSTSet, orient
from .context import ProductContext, greedy_distinct
from .factor_data import FactorData, LemmaVC1, lemma_vc1

__all__ = ["MaximumSetup", "maximum_construction", "maximum_setup"]


@dataclass
class MaximumSetup:
    """The choices shared by the Maximum constructions (paper's and twisted): which trees, and where.

    Attributes
    ----------
    mode : ``"both"`` (V-C.4 to V-C.7), ``"G"`` (no V-C.6), ``"H"`` (no V-C.7), ``"G-relaxed"`` (our extension).
    theorem : ``"V-C.3"``, ``"V-C.10"``, ``"V-C.11"`` or ``"V-C.11+"``.
    G, H : the factor data after Lemma V-C.1's swaps.
    lemG, lemH : the Lemma V-C.1 sets (None where the mode has none).
    g0, gi : the root supernode of ``T_G^{t_G}`` and the supernodes of V-C.4.
    h0, hj : the child endpoint of V-C.7 (``-1`` without V-C.7) and those of V-C.5.
    """

    mode: str
    theorem: str
    G: FactorData
    H: FactorData
    lemG: LemmaVC1 | None
    lemH: LemmaVC1 | None
    g0: int
    gi: list[int]
    h0: int
    hj: list[int]


def maximum_setup(ctx: ProductContext, relaxed: bool = False, what: str = "method=maximum") -> MaximumSetup:
    """Which Maximum trees a product gets and the vertices they use (Lemma V-C.1 on the factors).

    Raises
    ------
    ValueError
        If ``r_G < t_G`` and ``r_H < t_H`` (no Maximum construction applies; with ``relaxed``: if neither
        non-tree subgraph has a forest of ``t - 1`` edges).
    """
    G, H = ctx.G, ctx.H
    tG, tH, rG, rH = G.t, H.t, G.r, H.r
    geG, geH = rG >= tG, rH >= tH
    lemG = lemH = None
    if geG and geH:
        mode = "both"
        theorem = "V-C.3" if (rG == tG and rH == tH) else "V-C.10"
    elif geG or geH:
        mode = "G" if geG else "H"
        theorem = "V-C.11"
    elif not relaxed:
        raise ValueError(f"{what} needs r_G >= t_G or r_H >= t_H (Corollary V-C.11); here t_G={tG}, "
                         f"r_G={rG}, t_H={tH}, r_H={rH}")
    else:
        theorem = "V-C.11+"
        mode = ""
        try:
            lemG = lemma_vc1(G, tG - 1)
            mode = "G-relaxed"
        except ValueError:
            try:
                lemH = lemma_vc1(H, tH - 1)
                mode = "H"
            except ValueError:
                raise ValueError(f"{what} (relaxed) needs a non-tree forest of t - 1 edges in G or H; "
                                 f"here t_G={tG}, r_G={rG}, t_H={tH}, r_H={rH}") from None

    # Lemma V-C.1 sets (the trees may change by swaps, so read every tree after this block)
    if mode in ("both", "G"):
        lemG = lemma_vc1(G, tG, rank=G.ecc(-1))
        G = lemG.data
        g0 = int(lemG.X[0])
        gi = [int(x) for x in lemG.X[1:]]
    elif mode == "G-relaxed":
        G = lemG.data
        inX = set(lemG.X.tolist())
        g0 = next(v for v in np.argsort(G.ecc(-1), kind="stable").tolist() if v not in inX)
        gi = [int(x) for x in lemG.X]
    else:
        g0 = G.center(-1)[0]
        gi = greedy_distinct([G.ecc(i) for i in range(tG - 1)], exclude={g0})
    if mode in ("both", "H"):
        if lemH is None:
            lemH = lemma_vc1(H, tH if mode == "both" else tH - 1)
        H = lemH.data
        XH = lemH.X
        if mode == "both":
            h0, hj = int(XH[0]), [int(x) for x in XH[1:]]
        else:
            h0, hj = -1, [int(x) for x in XH]
    else:
        hj = greedy_distinct([H.ecc(j) for j in range(tH - 1)])
        h0 = min(set(range(H.n)) - set(hj))
    return MaximumSetup(mode, theorem, G, H, lemG, lemH, g0, gi, h0, hj)


def maximum_construction(ctx: ProductContext, relaxed: bool = False) -> EDSTSet:
    """Theorem V-C.3 / Corollaries V-C.10, V-C.11 on a prepared :class:`ProductContext`.

    With ``relaxed=True`` and ``r_G < t_G``, ``r_H < t_H``, try our extension of Corollary V-C.11 (see
    :func:`maximum_trees`).

    Raises
    ------
    ValueError
        If ``r_G < t_G`` and ``r_H < t_H`` (no Maximum construction applies; with ``relaxed``: if neither
        non-tree subgraph has a forest of ``t - 1`` edges).
    """
    F = ctx.frame
    S = maximum_setup(ctx, relaxed)
    mode, G, H, lemG, lemH, g0, gi, h0, hj = S.mode, S.G, S.H, S.lemG, S.lemH, S.g0, S.gi, S.h0, S.hj
    allg = np.arange(G.n)
    out = EDSTSet()
    out.theorem = S.theorem
    og = orient(G.n, G.trees[-1], g0)
    DG = og.height
    par, ch = og.parent[og.children], og.children
    cH, dH = H.center(-1)
    TH = H.trees[-1]

    radG = G.radii()
    specs: list[tuple] = []  # (blocks, root, tag, meta, exact), written into one buffer at the end
    # V-C.4
    for i, g in enumerate(gi):
        meta = {"bound": dH + 2 * radG[i], "bound_thm": "V-C.12(1)", "d_H": dH, "d_G": radG[i],
                "g": g}
        specs.append(([F.intra_block([g], TH), F.copies_block(G.trees[i])], int(F.vertex(g, cH)), "V-C.4", meta,
                      True))
    # V-C.5
    for j, h in enumerate(hj):
        c_j, d_j = H.center(j)
        meta = {"bound": DG + d_j + 2 * DG * d_j, "bound_thm": "V-C.12(2)", "D_G": DG, "d_H": d_j, "h": h}
        specs.append(([F.anchored_block(par, ch, [h]), F.intra_block(allg, H.trees[j])], int(F.vertex(g0, c_j)),
                      "V-C.5", meta, True))
    # V-C.6
    if mode in ("both", "H"):
        outside = np.setdiff1d(np.arange(H.n), lemH.X)
        meta = {"bound": dH + DG * (lemH.L + 1), "bound_thm": "V-C.12(3)", "d_H": dH, "D_G": DG, "L_H": lemH.L,
                "X_H": lemH.X.tolist()}
        specs.append(([F.intra_block([g0], TH), F.intra_block(np.delete(allg, g0), lemH.forest_edges),
                       F.anchored_block(par, ch, outside)], int(F.vertex(g0, cH)), "V-C.6", meta, True))
    # V-C.7
    if mode in ("both", "G", "G-relaxed"):
        meta = {"bound": (DG + 1) * (2 * lemG.L + 2 * dH) + DG, "bound_thm": "V-C.12(4)", "d_H": dH, "D_G": DG,
                "L_G": lemG.L, "X_G": lemG.X.tolist(), "h_0": h0}
        specs.append(([F.intra_block(np.setdiff1d(allg, lemG.X), TH), F.copies_block(lemG.forest_edges),
                       F.anchored_block(par, ch, [h0])], int(F.vertex(g0, h0)), "V-C.7", meta, False))
    out.extend(ctx.trees(specs))
    # record the factor sets actually used (after Lemma V-C.1 swaps)
    for t in out:
        t.meta["g_0"] = g0
    ctx.G, ctx.H = G, H
    return out
