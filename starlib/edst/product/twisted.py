"""The Maximum constructions with twisted sheets: the same ``t_G + t_H`` EDSTs, depth linear in the factor depths.

Theorem V-C.12 bounds the depth of V-C.5 by ``D_G + d_H^j + 2 D_G d_H^j`` and of V-C.7 by
``(D_G + 1)(2 L_G + 2 d_H) + D_G``: quadratic, because each arc of ``T_G^{t_G}`` is entered at one fixed child
endpoint ``h``, and every supernode on the way must be crossed to the vertex where the next arc leaves. The
low-depth variant of Theorem V-B.5(2) avoids this with the twisted copy of ``T_G^{t_G}`` (one vertex per supernode,
no crossing), but the paper notes it cannot be combined with V-C.6, which takes the child endpoints outside a
fixed set ``X_H`` on every arc (docs/star-products.md §5, §7.5). This module combines them (starlib's construction,
not the paper's): V-C.6 takes a *different* set in every supernode, the one the twisted copies leave it, and each
supernode gets its own maximum EDST set of ``H`` chosen so that V-C.6 can still leave that set
(:func:`~starlib.edst.product.escape.escaping_packing`).

Construction
------------
Take ``g_0``, ``g_i``, ``X_G``, ``F_G``, ``L_G`` and the vertices ``h_0, h_1, ..`` as in Section V-C
(:func:`~starlib.edst.product.maximum.maximum_setup`), ``T_G^{t_G}`` oriented from ``g_0`` with height ``D_G``, and
``pi_j`` the twisted copy of ``T_G^{t_G}`` through ``(g_0, h_j)`` (``pi_j(g)`` its vertex in supernode ``g``;
docs/star-products.md §4). In supernode ``g`` let ``Y_g = {pi_j(g)}`` over the copies used (``h_0`` where V-C.7
is built, and every ``h_j`` of V-C.5), and let ``T_H^{1,g} .. T_H^{t_H,g}`` be a maximum EDST set of ``H`` whose
non-tree edges hold a forest ``F_g`` of ``|Y_g|`` edges in which every vertex of ``Y_g`` has a path to a vertex
outside ``Y_g``, of at most ``L_g`` hops (in ``g_0`` the factor's own set; in the other supernodes
:func:`~starlib.edst.product.escape.escaping_packing` for ``Y_g``, needed only where V-C.6 is built).

* **V-C.4** (``t_G - 1`` trees, as in the paper): ``Intra(g_i, T_H^{t_H,g_i}) u Copies(T_G^i)``, rooted at
  ``(g_i, c)`` with ``c`` a centre of ``T_H^{t_H,g_i}``.
* **V-C.5t** (one tree per ``h_j``, ``j >= 1``): the twisted copy ``pi_j`` and ``T_H^{j,g}`` in every supernode
  ``g``; rooted at ``(g_0, h_j)``.
* **V-C.6t** (one tree): ``Intra(g_0, T_H^{t_H,g_0})``, ``F_g`` in every ``g != g_0``, and on every arc
  ``p -> c`` of ``T_G^{t_G}`` the anchored edges ``e(p->c; h)`` for every ``h`` outside ``Y_c``; rooted at
  ``(g_0, c)`` with ``c`` a centre of ``T_H^{t_H,g_0}``.
* **V-C.7t** (one tree): ``T_H^{t_H,g}`` in every supernode ``g`` outside ``X_G``, ``Copies(F_G)`` and the
  twisted copy ``pi_0``; ``N - 1 + |X_G|`` edges, of which the BFS tree from ``(g_0, h_0)`` is kept.

Theorem (starlib). *The trees are edge-disjoint spanning trees of ``G * H``, as many as Section V-C builds, and*

* *V-C.4 has depth at most* ``d_H^{t_H} + 2 d_G^i`` *(the paper's bound);*
* *V-C.5t has depth at most* ``D_G + 2 d_H^j``;
* *V-C.6t has depth at most* ``d_H^{t_H} + D_G (L + 1)``, ``L = max_g L_g``;
* *V-C.7t has depth at most* ``D_G + 2 d_H^{t_H} + L_G``,

*where* ``d_H^j`` *is the largest radius of* ``T_H^{j,g}`` *over the supernodes that hold it.*

Proof. *Disjointness.* Inside supernode ``g`` the ``T_H^{j,g}`` (``j < t_H``) belong to V-C.5t,
``T_H^{t_H,g}`` to exactly one tree (V-C.4 if ``g`` is a ``g_i``, V-C.6t if ``g = g_0``, V-C.7t if ``g`` is
outside ``X_G = {g_0, g_i}``), and ``F_g``, made of non-tree edges of that supernode's set, to V-C.6t. Between
supernodes, the copies of ``T_G^i`` (``i < t_G``) belong to V-C.4 and those of ``F_G`` (non-tree edges of ``G``)
to V-C.7t. The ``n_H`` edges of an arc ``p -> c`` of ``T_G^{t_G}`` are told apart by their child endpoint
(docs/star-products.md §4): the twisted copy ``pi_j`` uses the one ending at ``pi_j(c)``, and these are distinct
for distinct ``j`` because the copies are vertex-disjoint; V-C.6t uses those ending outside ``Y_c``, which are
none of them. So every edge has at most one user.

*Spanning.* V-C.4 as in the paper. V-C.5t: the copy meets every supernode once and ``T_H^{j,g}`` spans
supernode ``g``; ``(n_G - 1) + n_G (n_H - 1) = N - 1`` edges. V-C.6t: supernode ``g_0`` is spanned by
``T_H^{t_H,g_0}``; by induction on the depth of ``c`` in ``T_G^{t_G}``, a vertex ``(c, h)`` with ``h`` outside
``Y_c`` has its anchored edge to supernode ``p``, and a vertex with ``h`` in ``Y_c`` reaches such a vertex along
``F_g`` (Lemma V-C.9's argument, with ``Y_c`` for ``X_H``); ``(n_H - 1) + (n_G - 1)(|Y| + n_H - |Y|) = N - 1``
edges. V-C.7t: a supernode outside ``X_G`` is spanned by ``T_H^{t_H,g}``; every vertex ``(g, h)`` of a
supernode in ``X_G`` follows the copy of ``g``'s ``F_G``-path (at most ``L_G`` hops) to the first supernode
``g'`` outside ``X_G``, the same ``g'`` for all ``h``, so each supernode joins the component of one supernode
outside ``X_G``; the twisted copy ``pi_0`` joins the components of the two ends of every arc of
``T_G^{t_G}``, a spanning tree of ``G``, so the subgraph is connected.

*Depth.* V-C.5t: the copy reaches ``(g, pi_j(g))`` in ``depth(g) <= D_G`` hops from the root ``(g_0, h_j)``, and
any vertex of ``T_H^{j,g}`` is within its diameter, at most ``2 d_H^j``, of ``pi_j(g)``. V-C.6t: from
``(c, h)``, at most ``L`` hops of ``F_c`` reach a vertex outside ``Y_c``, one anchored edge reaches supernode
``p``; after at most ``D_G`` such rounds the path is in supernode ``g_0``, where ``T_H^{t_H,g_0}`` reaches its
centre in at most ``d_H^{t_H}`` hops. V-C.7t: from the root along ``pi_0`` to ``(g', pi_0(g'))`` (at most
``D_G`` hops), inside ``T_H^{t_H,g'}`` to where the ``F_G``-path copy from ``(g, h)`` arrives (at most
``2 d_H^{t_H}``), and back along it (at most ``L_G``); the BFS tree realises distances, so it is no deeper. QED.

Each bound is computed per tree into ``meta["bound"]`` (``"bound_thm"``: ``"V-C.12(1)"`` for V-C.4, then
``"twisted(2)"`` to ``"twisted(4)"``, numbered as Theorem V-C.12's parts; :data:`TWISTED_BOUNDS`) and checked by
the tests. Against Theorem V-C.12 the bounds of V-C.5 and V-C.7 drop from quadratic to linear in the
factor depths; V-C.6t keeps the paper's form with the largest escape length ``L`` of the supernodes' forests in
place of ``L_H``.

Where it applies: wherever Section V-C applies (the same modes: Theorem V-C.3, Corollaries V-C.10, V-C.11 and the
relaxed extension), provided every supernode other than ``g_0`` has an escaping set when V-C.6t is built; if one
has none, :func:`twisted_maximum_construction` raises a ``ValueError`` naming the supernode.

Example
-------
>>> from starlib.edst import twisted_maximum_trees
>>> from starlib.networks import slimfly
>>> s = twisted_maximum_trees(slimfly(7))
>>> len(s), s.counts()
(5, {'V-C.4': 2, 'V-C.5t': 1, 'V-C.6t': 1, 'V-C.7t': 1})
>>> all(t.depth <= t.meta["bound"] for t in s)
True

References
----------
Constructions V-C.4 to V-C.7, Lemma V-C.9, Theorem V-C.12 and Theorem V-B.5(2) of Isham et al. (2025);
docs/star-products.md §7.7.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..trees import EDSTSet, orient, tree_center
from .context import ProductContext
from .escape import Escape, escaping_packing
from .factor_data import FactorData
from .maximum import maximum_setup

__all__ = ["twisted_maximum_construction", "FAMILIES", "TWISTED_BOUNDS"]

#: The construction tags, in the order the trees come.
FAMILIES = ("V-C.4", "V-C.5t", "V-C.6t", "V-C.7t")

#: The module theorem's depth bounds, numbered as Theorem V-C.12's (V-C.4 keeps ``"V-C.12(1)"``): the quantities
#: each needs (``meta`` keys of the tree) and the formula. :func:`starlib.paper.tree_depths.depth_bound` recomputes
#: them with its own copy, as it does the paper's, so that a wrong recorded quantity shows.
TWISTED_BOUNDS: dict[str, tuple[tuple[str, ...], Callable[[dict[str, int]], int]]] = {
    "twisted(2)": (("D_G", "d_H"), lambda d: d["D_G"] + 2 * d["d_H"]),
    "twisted(3)": (("d_H", "D_G", "L"), lambda d: d["d_H"] + d["D_G"] * (d["L"] + 1)),
    "twisted(4)": (("D_G", "d_H", "L_G"), lambda d: d["D_G"] + 2 * d["d_H"] + d["L_G"]),
}


def _bounded(thm: str, meta: dict) -> dict:
    """``meta`` with ``bound`` and ``bound_thm`` filled from :data:`TWISTED_BOUNDS`."""
    return {"bound": TWISTED_BOUNDS[thm][1](meta), "bound_thm": thm, **meta}


class _NoEscape(Exception):
    """Supernode ``g`` has no maximum EDST set of ``H`` escaping ``Y``."""

    def __init__(self, g: int, Y: list[int]) -> None:
        super().__init__(g, Y)
        self.g, self.Y = g, Y


def _supernode_sets(pi: np.ndarray, H: FactorData, base: list[np.ndarray], g0: int
                    ) -> tuple[list[list[np.ndarray]], list[np.ndarray], list[int], np.ndarray]:
    """Per supernode, a maximum EDST set of ``H`` escaping ``Y_g = pi[g]`` (cached by the set).

    Returns ``(sets, forests, Ls, which)``: supernode ``g`` uses ``sets[which[g]]`` with forest ``forests[which[g]]``
    of escape length ``Ls[which[g]]``; ``which[g_0] = 0``, the factor's own set (no forest). Raises
    :class:`_NoEscape` for the first supernode that has none.
    """
    sets: list[list[np.ndarray]] = [base]
    forests: list[np.ndarray] = [np.zeros((0, 2), np.int64)]
    Ls = [0]
    which = np.zeros(pi.shape[0], dtype=np.int64)
    cache: dict[tuple[int, ...], int] = {}
    for g in range(pi.shape[0]):
        if g == g0:
            continue
        key = tuple(sorted(pi[g].tolist()))
        if key not in cache:
            esc: Escape | None = escaping_packing(H.n, H.edges, base, list(key))
            if esc is None:
                raise _NoEscape(g, list(key))
            cache[key] = len(sets)
            sets.append(esc.trees)
            forests.append(esc.forest)
            Ls.append(esc.L)
        which[g] = cache[key]
    return sets, forests, Ls, which


def twisted_maximum_construction(ctx: ProductContext, relaxed: bool = False) -> EDSTSet:
    """Section V-C's trees with twisted copies for V-C.5 and V-C.7 and per-supernode sets for V-C.6.

    Parameters
    ----------
    ctx : ProductContext
        The product with both factors' maximum EDST sets.
    relaxed : bool
        Allow the relaxed extension of Corollary V-C.11 (as :func:`~starlib.edst.maximum_trees`).

    Returns
    -------
    EDSTSet
        Trees tagged ``"V-C.4"``, ``"V-C.5t"``, ``"V-C.6t"``, ``"V-C.7t"``; ``.theorem`` as Section V-C's;
        ``meta["bound"]`` is the module's depth bound.

    Raises
    ------
    ValueError
        If Section V-C does not apply, or a supernode has no maximum EDST set of ``H`` that lets its set
        ``Y_g`` escape.
    """
    F = ctx.frame
    S = maximum_setup(ctx, relaxed, what="method=twisted")
    mode, G, H, lemG, g0, gi, h0, hj = S.mode, S.G, S.H, S.lemG, S.g0, S.gi, S.h0, S.hj
    nG, nH, tH = G.n, H.n, H.t
    og = orient(nG, G.trees[-1], g0)
    DG = og.height
    par, ch = og.parent[og.children], og.children
    with6, with7 = mode in ("both", "H"), mode in ("both", "G", "G-relaxed")
    roots = np.array(([h0] if with7 else []) + list(hj), dtype=np.int64)
    base = [np.asarray(t, dtype=np.int64) for t in H.trees]
    first: _NoEscape | None = None
    for shift in range(nH if with6 else 1):  # the roots at g_0 are free: shift them until every supernode escapes
        pi = F.twisted_images(og, (roots + shift) % nH)
        if not with6:
            sets, forests, Ls, which = [base], [np.zeros((0, 2), np.int64)], [0], np.zeros(nG, dtype=np.int64)
            break
        try:
            sets, forests, Ls, which = _supernode_sets(pi, H, base, g0)
            break
        except _NoEscape as e:
            first = first or e
    else:
        assert first is not None
        raise ValueError(f"method=twisted: for every choice of the roots at g_0 some supernode has no maximum EDST "
                         f"set of H whose non-tree edges lead the twisted copies' vertices out of their set (first "
                         f"choice: supernode g={first.g}, Y_g={first.Y})")
    roots = pi[g0]
    h0 = int(roots[0]) if with7 else -1
    hj = [int(h) for h in roots[(1 if with7 else 0):]]
    groups = {int(s): np.flatnonzero(which == s) for s in np.unique(which)}
    cr = [[tree_center(nH, T) for T in trees] for trees in sets]  # (centre, radius) per set and tree

    def rad(j: int, gs: np.ndarray) -> int:
        return max((cr[int(which[g])][j][1] for g in gs.tolist()), default=0)

    radG = G.radii()
    allg = np.arange(nG)
    out = EDSTSet()
    out.theorem = S.theorem
    specs: list[tuple] = []
    # V-C.4
    for i, g in enumerate(gi):
        c, d = cr[int(which[g])][tH - 1]
        meta = {"bound": d + 2 * radG[i], "bound_thm": "V-C.12(1)", "d_H": d, "d_G": radG[i], "g": g}
        specs.append(([F.intra_block([g], sets[int(which[g])][tH - 1]), F.copies_block(G.trees[i])],
                      int(F.vertex(g, c)), "V-C.4", meta, True))
    # V-C.5t
    copies = F.copy_edges(og, pi)  # the twisted copies through the roots, from their images
    for j, h in enumerate(hj):
        col = j + (1 if with7 else 0)
        d = rad(j, allg)
        meta = _bounded("twisted(2)", {"D_G": DG, "d_H": d, "h": h})
        blocks = [copies[col]] + [F.intra_block(gs, sets[s][j]) for s, gs in groups.items()]
        specs.append((blocks, int(F.vertex(g0, h)), "V-C.5t", meta, True))
    # V-C.6t
    if with6:
        others = allg[allg != g0]
        c, d = cr[int(which[g0])][tH - 1]
        L = max(Ls[int(which[g])] for g in others.tolist()) if others.size else 0
        ys = np.sort(pi[ch], axis=1)
        keep = np.ones((ch.shape[0], nH), dtype=bool)
        np.put_along_axis(keep, ys, False, axis=1)
        outside = np.nonzero(keep)[1].reshape(ch.shape[0], nH - ys.shape[1])
        fblocks = [F.intra_block(gs, forests[s]) for s, gs in groups.items() if s != 0]  # group 0 is {g_0}
        meta = _bounded("twisted(3)", {"d_H": d, "D_G": DG, "L": L})
        specs.append(([F.intra_block([g0], sets[int(which[g0])][tH - 1]), *fblocks,
                       F.anchored_block(par, ch, outside)], int(F.vertex(g0, c)), "V-C.6t", meta, True))
    # V-C.7t
    if with7:
        assert lemG is not None
        out_x = np.setdiff1d(allg, lemG.X)
        d = rad(tH - 1, out_x)
        blocks = [F.intra_block(np.intersect1d(gs, out_x), sets[s][tH - 1]) for s, gs in groups.items()]
        meta = _bounded("twisted(4)", {"d_H": d, "D_G": DG, "L_G": lemG.L, "X_G": lemG.X.tolist(), "h_0": h0})
        specs.append(([*blocks, F.copies_block(lemG.forest_edges), copies[0]], int(F.vertex(g0, h0)), "V-C.7t",
                      meta, False))
    out.extend(ctx.trees(specs))
    for t in out:
        t.meta["g_0"] = g0
    ctx.G, ctx.H = G, H
    return out
