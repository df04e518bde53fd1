"""Appendix C: the Chimera graph seen as a star product ``K_2 * H``, tested, bounded and drawn.

The paper colours Chimera cells by 2x2 blocks, reversing the colour from block to block
(:func:`starlib.networks.chimera_colour`). The blue and the red cells are the two would-be supernodes, the
couplers between colours the would-be bijection. :func:`colour_classes` splits any Chimera (planar or toric,
any size) this way, for every size, including those that are *not* star products, so the notebook can show
why: :func:`supernodes_isomorphic` compares the two colour classes component by component
(:func:`component_types` names the components: single K_{4,4} cells, "joined pairs" and 4-cell "rings").
:func:`chimera_row` gathers the counts, the closed forms, the Proposition IV-.1 bound and the exact EDST
maximum; :func:`draw_chimera` draws a Chimera with its cells coloured.

Example
-------
>>> cc = colour_classes(4, 4)           # C_4: not a star product
>>> component_types(cc.blue), component_types(cc.red)
('1 ring + 4 K44', '4 pair')
>>> supernodes_isomorphic(cc)
False
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from matplotlib.collections import LineCollection
from scipy.sparse import csgraph

from .. import bounds
from ..edst import generic_packing, verify_edsts
from ..factors import chimera as chimera_graph
from ..graphs import ArrayGraph
from ..networks import chimera as chimera_product
from ..networks import chimera_colour
from ..validation import check_choice, check_flag, check_int
from .drawing import draw_star_product
from .figures import ONE_COLUMN, TWO_COLUMN, paper_style

__all__ = ["ChimeraColouring", "colour_classes", "component_types", "supernodes_isomorphic", "star_product_rule",
           "chimera_closed_form", "product_matches_chimera", "chimera_row", "draw_chimera", "BLUE", "RED",
           "chimera_c2_figure", "chimera_planar_figure", "chimera_toric_figure"]

BLUE, RED = "#2b6cb0", "#c53030"
_TYPES = {(8, 16): "K44", (16, 36): "pair", (32, 80): "ring"}


@dataclass
class ChimeraColouring:
    """A Chimera split by the block colouring of Appendix C.

    Attributes
    ----------
    graph : the Chimera (:func:`starlib.factors.chimera`), labels ``(i, j, shore, k)``.
    colour : ``(n,)`` 0 (blue) or 1 (red) per vertex.
    blue, red : the subgraphs induced by each colour (labels kept).
    cross : ``(c, 2)`` edges joining the two colours (the would-be bijection).
    """

    graph: ArrayGraph
    colour: np.ndarray
    blue: ArrayGraph
    red: ArrayGraph
    cross: np.ndarray

    @property
    def cross_is_perfect_matching(self) -> bool:
        """True if every vertex has exactly one coupler to the other colour."""
        return bool((np.bincount(self.cross.ravel(), minlength=self.graph.n) == 1).all())


def _induced(g: ArrayGraph, keep: np.ndarray, name: str) -> ArrayGraph:
    idx = np.flatnonzero(keep)
    pos = np.full(g.n, -1, dtype=np.int64)
    pos[idx] = np.arange(idx.size)
    both = keep[g.edges[:, 0]] & keep[g.edges[:, 1]]
    return ArrayGraph.from_edges([g.labels[i] for i in idx.tolist()], pos[g.edges[both]], name=name)


def colour_classes(rows: int, cols: int, toric: bool = False, colouring: str = "blocks") -> ChimeraColouring:
    """Split the Chimera ``C_{rows x cols}`` into its blue and red cells (the colouring of Appendix C).

    Parameters
    ----------
    rows, cols : int
        Grid size (``>= 1``; ``>= 3`` if ``toric``).
    toric : bool
        Wrap-around couplers.
    colouring : str
        ``"blocks"``: the 2x2-block colouring of :func:`starlib.networks.chimera_colour` (colour reversed from
        block to block); ``"checkerboard"``: ``(i + j) mod 2`` (colour reversed from cell to cell).

    Returns
    -------
    ChimeraColouring

    Raises
    ------
    ValueError
        If the sizes are invalid (see :func:`starlib.factors.chimera`) or ``colouring`` is unknown.

    Example
    -------
    >>> cc = colour_classes(2, 2)
    >>> cc.blue.n, cc.blue.m, cc.cross_is_perfect_matching
    (16, 32, True)
    >>> colour_classes(2, 4, colouring="checkerboard").cross_is_perfect_matching
    False

    References
    ----------
    Appendix C of Isham et al. (2025), the colouring made precise in docs/networks.md §9.2; docs/networks.md §9.
    """
    colouring = check_choice(colouring, "colouring", ("blocks", "checkerboard"))
    C = chimera_graph(rows, cols, toric)
    lab = np.array(C.labels, dtype=np.int64)
    if colouring == "blocks":
        colour = chimera_colour(lab[:, 0], lab[:, 1]).astype(np.int64)
    else:
        colour = (lab[:, 0] + lab[:, 1]) % 2
    blue = _induced(C, colour == 0, "chimera-blue")
    red = _induced(C, colour == 1, "chimera-red")
    cross = C.edges[colour[C.edges[:, 0]] != colour[C.edges[:, 1]]]
    return ChimeraColouring(C, colour, blue, red, cross)


def _components(g: ArrayGraph) -> list[ArrayGraph]:
    k, comp = csgraph.connected_components(g.adjacency(), directed=False)
    out = []
    for c in range(k):
        out.append(_induced(g, comp == c, f"{g.name}-component"))
    return out


def component_types(g: ArrayGraph) -> str:
    """The components of a Chimera colour class by type: ``K44`` (one cell), ``pair`` (two cells joined by 4
    couplers: 16 vertices, 36 edges) and ``ring`` (four cells round a block corner: 32 vertices, 80 edges).

    Returns
    -------
    str
        E.g. ``"1 pair + 2 K44"`` (types in the order ring, pair, K44, then any other ``(n,m)``).

    Example
    -------
    >>> component_types(colour_classes(2, 4).blue)
    '1 pair + 2 K44'
    """
    counts: dict[str, int] = {}
    for c in _components(g):
        name = _TYPES.get((c.n, c.m), f"({c.n},{c.m})")
        counts[name] = counts.get(name, 0) + 1
    order = ["ring", "pair", "K44"]
    keys = [t for t in order if t in counts] + sorted(t for t in counts if t not in order)
    return " + ".join(f"{counts[t]} {t}" for t in keys)


def supernodes_isomorphic(cc: ChimeraColouring) -> bool:
    """True if the blue and red classes are isomorphic graphs (matched component by component).

    Example
    -------
    >>> supernodes_isomorphic(colour_classes(2, 4)), supernodes_isomorphic(colour_classes(4, 4))
    (True, False)
    """
    blue = [c.to_networkx() for c in _components(cc.blue)]
    red = [c.to_networkx() for c in _components(cc.red)]
    if len(blue) != len(red):
        return False
    free = list(range(len(red)))
    for b in blue:
        hit = next((i for i in free if nx.faster_could_be_isomorphic(b, red[i]) and nx.is_isomorphic(b, red[i])),
                   None)
        if hit is None:
            return False
        free.remove(hit)
    return True


def star_product_rule(rows: int, cols: int) -> bool:
    """The derived rule (docs/networks.md §9.3): the planar ``C_{2a x 2b}`` is ``K_2 * H`` iff ``(a-1)(b-1)`` is even.

    Raises
    ------
    ValueError
        If ``rows`` or ``cols`` is odd or below 2.

    Example
    -------
    >>> star_product_rule(2, 4), star_product_rule(4, 4), star_product_rule(4, 6)
    (True, False, True)
    """
    rows = check_int(rows, "rows", minimum=2)
    cols = check_int(cols, "cols", minimum=2)
    for nm, v in (("rows", rows), ("cols", cols)):
        if v % 2:
            raise ValueError(f"{nm}={v} is odd: the rule covers C_(2a x 2b) only")
    return ((rows // 2 - 1) * (cols // 2 - 1)) % 2 == 0


def chimera_closed_form(rows: int, cols: int, toric: bool = False) -> tuple[int, int]:
    """``(n, m)`` of the Chimera from Appendix C: ``n = 8RC``, ``m = 24RC - 4(R + C)`` (planar) or ``24RC`` (toric).

    Example
    -------
    >>> chimera_closed_form(4, 4), chimera_closed_form(4, 4, toric=True)
    ((128, 352), (128, 384))
    """
    rows = check_int(rows, "rows", minimum=1)
    cols = check_int(cols, "cols", minimum=1)
    toric = check_flag(toric, "toric")
    n = 8 * rows * cols
    return n, 24 * rows * cols - (0 if toric else 4 * (rows + cols))


def product_matches_chimera(rows: int, cols: int, toric: bool = False) -> bool:
    """True if :func:`starlib.networks.chimera` (``K_2 * H``) maps onto the Chimera edge for edge.

    Uses ``meta["chimera_index"]``, the Chimera vertex of each product vertex.

    Example
    -------
    >>> product_matches_chimera(2, 2)
    True
    """
    P = chimera_product(rows, cols, toric)
    C = chimera_graph(rows, cols, toric)
    idx = np.asarray(P.meta["chimera_index"])
    if np.unique(idx).size != C.n:
        return False
    mapped = np.sort(idx[P.edges], axis=1)
    keys = np.sort(mapped[:, 0] * C.n + mapped[:, 1])
    return bool(np.array_equal(keys, np.sort(C.edges[:, 0] * C.n + C.edges[:, 1])))


def chimera_row(rows: int, cols: int, toric: bool = False, pack: bool = True) -> dict[str, Any]:
    """Counts, colour classes, star-product status, the Proposition IV-.1 bound and the EDST maximum of a Chimera.

    Parameters
    ----------
    rows, cols : grid size.
    toric : wrap-around couplers.
    pack : compute the maximum number of EDSTs with :func:`starlib.edst.generic_packing` (trees verified).

    Returns
    -------
    dict
        ``instance, rows, cols, toric, n, m, cf_n, cf_m, degrees, blue, red, matching, isomorphic, rule,
        star_product, n_H, m_H, a, b, bound, max_edsts``. ``rule`` is the ``(a-1)(b-1)`` rule (planar only);
        ``star_product`` is True when the library's ``K_2 * H`` maps onto the Chimera edge for edge, False
        when the colour classes are not isomorphic.

    Example
    -------
    >>> r = chimera_row(2, 4)
    >>> r["star_product"], r["blue"], r["a"], r["b"], r["bound"], r["max_edsts"]
    (True, '1 pair + 2 K44', 2, 40, 2, 2)

    References
    ----------
    Appendix C (C-A1, Cases 1 and 2) of Isham et al. (2025); Proposition IV-.1.
    """
    cc = colour_classes(rows, cols, toric)
    C = cc.graph
    cf_n, cf_m = chimera_closed_form(rows, cols, toric)
    iso = supernodes_isomorphic(cc)
    rule = None if toric or rows % 2 or cols % 2 else star_product_rule(rows, cols)
    star = product_matches_chimera(rows, cols, toric) if iso and cc.cross_is_perfect_matching else False
    a, b, bound = bounds.prop_iv1(C.n, C.m)
    best = None
    if pack:
        p = generic_packing(C)
        if not verify_edsts(C, [t.edges for t in p.trees], allow_empty=True).valid:  # pragma: no cover - packing bug
            raise ValueError(f"rows={rows}, cols={cols}: packed trees fail verification")
        best = int(p.count)
    return {"instance": f"{'toric ' if toric else ''}C_{rows}x{cols}", "rows": rows, "cols": cols,
            "toric": bool(toric), "n": C.n, "m": C.m, "cf_n": cf_n, "cf_m": cf_m,
            "degrees": ",".join(map(str, C.degree_set())), "blue": component_types(cc.blue),
            "red": component_types(cc.red), "matching": cc.cross_is_perfect_matching, "isomorphic": iso,
            "rule": rule, "star_product": star, "n_H": cc.blue.n, "m_H": cc.blue.m, "a": a, "b": b,
            "bound": bound, "max_edsts": best}


def _positions(rows: int, cols: int, spacing: float = 5.0) -> np.ndarray:
    """Cell (i, j): shore 0 as a row of 4 nodes, shore 1 as a column of 4 nodes, crossing in the cell."""
    i, j, s, k = np.array(list(np.ndindex(rows, cols, 2, 4))).T
    x0, y0 = j * spacing, -i * spacing
    x = np.where(s == 0, x0 + 0.5 + k, x0 + 2.0)
    y = np.where(s == 0, y0 - 2.0, y0 - 0.5 - k)
    return np.stack([x, y], axis=1).astype(float)


def draw_chimera(rows: int, cols: int, toric: bool = False, ax: plt.Axes | None = None, title: str | None = None,
                 node_size: float = 9.0) -> plt.Axes:
    """Draw the Chimera ``C_{rows x cols}`` with blue and red cells (Appendix C colouring).

    Edges inside a colour are drawn in that colour, couplers between colours (the bijection of ``K_2 * H``)
    in grey; in the toric variant the wrap-around couplers are drawn as dashed stubs leaving the plane.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = draw_chimera(2, 2, ax=ax)
    >>> len(ax.collections)
    4
    >>> plt.close(fig)
    """
    ax = ax or plt.gca()
    cc = colour_classes(rows, cols, toric)
    C, colour = cc.graph, cc.colour
    pos = _positions(rows, cols)
    lab = np.array(C.labels, dtype=np.int64)
    u, v = C.edges[:, 0], C.edges[:, 1]
    wrap = (np.abs(lab[u, 0] - lab[v, 0]) > 1) | (np.abs(lab[u, 1] - lab[v, 1]) > 1)
    same = colour[u] == colour[v]
    for msk, col, lw in ((~same & ~wrap, "#9e9e9e", 0.7), (same & ~wrap & (colour[u] == 0), BLUE, 0.8),
                         (same & ~wrap & (colour[u] == 1), RED, 0.8)):
        segs = np.stack([pos[u[msk]], pos[v[msk]]], axis=1)
        ax.add_collection(LineCollection(segs, colors=col, linewidths=lw))
    if wrap.any():
        stubs = []
        for a_, b_ in ((u[wrap], v[wrap]), (v[wrap], u[wrap])):
            d = pos[b_] - pos[a_]
            step = -np.sign(d) * (np.abs(d) > 5.5) * 1.8
            stubs.append(np.stack([pos[a_], pos[a_] + step], axis=1))
        ax.add_collection(LineCollection(np.concatenate(stubs), colors="#555555", linewidths=0.7,
                                         linestyles="dashed"))
    ax.scatter(pos[:, 0], pos[:, 1], s=node_size, c=np.where(colour == 0, BLUE, RED), zorder=3, linewidths=0)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.autoscale_view()
    if title:
        ax.set_title(title, fontsize=10)
    return ax


#: Font size (points) of the panel titles of the Chimera figures (at their print widths).
_PANEL_TITLE_PT = 8.5


def chimera_c2_figure() -> plt.Figure:
    """``C_{2x2}`` coloured by cells (left) beside the same graph drawn as ``K_2 * 2K_{4,4}`` (right), 7.1 in wide.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = chimera_c2_figure()
    >>> fig.get_size_inches().tolist(), len(fig.axes)
    ([7.1, 3.4], 2)
    >>> plt.close(fig)
    """
    with paper_style():
        fig, axes = plt.subplots(1, 2, figsize=(TWO_COLUMN, 3.4), gridspec_kw={"width_ratios": [1, 1.25]},
                                 layout="constrained")
        draw_chimera(2, 2, ax=axes[0], node_size=9)
        draw_star_product(chimera_product(2, 2), axes[1], structure_pos={0: (-1.0, 0), 1: (1.0, 0)},
                          colours=[BLUE, RED], inner=0.75, node_size=14)
        axes[0].set_title("$C_{2\\times2}$: blue and red cells,\ncouplers between colours grey",
                          fontsize=_PANEL_TITLE_PT)
        axes[1].set_title("the same graph as $K_2 \\star 2K_{4,4}$:\nsupernode edges dark, couplers light",
                          fontsize=_PANEL_TITLE_PT)
    return fig


def chimera_planar_figure() -> plt.Figure:
    """The planar Chimeras ``C_{2x2}``, ``C_{2x4}`` (star products) and ``C_4`` (not one), 7.1 in wide.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = chimera_planar_figure()
    >>> fig.get_size_inches().tolist(), len(fig.axes)
    ([7.1, 3.2], 3)
    >>> plt.close(fig)
    """
    panels = [(2, 2, "$C_{2\\times2}$\n$= K_2 \\star 2K_{4,4}$"),
              (2, 4, "$C_{2\\times4} = K_2 \\star (P \\cup 2K_{4,4})$"),
              (4, 4, "$C_4$: blue ring + 4 cells, red 4 pairs\n(not a star product)")]
    with paper_style():
        fig, axes = plt.subplots(1, 3, figsize=(TWO_COLUMN, 3.2), gridspec_kw={"width_ratios": [1, 2, 2]},
                                 layout="constrained")
        for ax, (r, c, title) in zip(axes, panels, strict=True):
            draw_chimera(r, c, ax=ax, node_size=2.5)
            ax.set_title(title, fontsize=_PANEL_TITLE_PT)
    return fig


def chimera_toric_figure() -> plt.Figure:
    """The toric ``C_4 = K_2 * H'`` with its wrap-around couplers as dashed stubs, one column (3.5 in) wide.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = chimera_toric_figure()
    >>> fig.get_size_inches().tolist(), len(fig.axes)
    ([3.5, 3.7], 1)
    >>> plt.close(fig)
    """
    with paper_style():
        fig, ax = plt.subplots(figsize=(ONE_COLUMN, 3.7), layout="constrained")
        draw_chimera(4, 4, toric=True, ax=ax, node_size=2.5)
        ax.set_title("toric $C_4 = K_2 \\star H'$,\n$H'$ = two rings of four $K_{4,4}$", fontsize=_PANEL_TITLE_PT)
    return fig
