"""Drawings of edge-disjoint spanning trees of a star product: one panel per tree, its edges coloured.

Every panel shows the whole product in light grey with each supernode drawn as a small circle around its
structure-graph vertex (:func:`product_positions`; the small circles are turned by an angle so that the
matching edges between two supernodes are not collinear), the tree's edges in the tree's colour (solid inside
supernodes, dashed between them) and its root as a large black-ringed vertex.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> from starlib.networks import hyperx
>>> from starlib.edst import auto_trees
>>> P = hyperx("4,4")
>>> fig = draw_tree_panels(P, auto_trees(P))
>>> len(fig.axes)
3
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.figure
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D

from ..products import StarProduct
from .figures import PALETTE, TWO_COLUMN, paper_style

__all__ = ["TREE_COLOURS", "product_positions", "draw_tree", "draw_tree_panels"]

#: Colours of trees 0, 1, 2, ... (cycled): the colour-blind-safe palette of :mod:`starlib.paper.figures`.
TREE_COLOURS = (PALETTE[1], PALETTE[0], PALETTE[2], PALETTE[3], PALETTE[4], PALETTE[5], PALETTE[6], PALETTE[7])


def product_positions(P: StarProduct, structure_pos: dict | None = None, turn: float = 20.0) -> np.ndarray:
    """``(N, 2)`` positions of the vertices of a star product, by vertex index.

    Supernode ``g`` sits at ``structure_pos[label of g]`` (default: a circle); its vertex ``h`` at angle
    ``90 + turn - 360 h / n_H`` degrees on a small circle of radius 0.22 times the smallest distance between
    two supernodes.

    Example
    -------
    >>> from starlib.networks import hyperx
    >>> product_positions(hyperx("2,3"), turn=0.0).round(2)[:2].tolist()
    [[0.0, 1.44], [0.38, 0.78]]
    """
    G, H = P.structure, P.supernode
    if structure_pos is None:
        ang = np.pi / 2 - 2 * np.pi * np.arange(G.n) / G.n
        centres = np.stack([np.cos(ang), np.sin(ang)], axis=1)  # cpu-stable: drawing
    else:
        centres = np.array([structure_pos[lab] for lab in G.labels], dtype=float)
    diff = centres[:, None, :] - centres[None, :, :]
    dist = np.sqrt((diff**2).sum(axis=2))[~np.eye(G.n, dtype=bool)]
    inner = 0.22 * float(dist.min()) if dist.size else 1.0
    a = np.pi / 2 + np.deg2rad(turn) - 2 * np.pi * np.arange(H.n) / H.n
    local = inner * np.stack([np.cos(a), np.sin(a)], axis=1)  # cpu-stable: drawing
    return (centres[:, None, :] + local[None, :, :]).reshape(-1, 2)


def _segments(pos: np.ndarray, edges: np.ndarray) -> np.ndarray:
    return np.stack([pos[edges[:, 0]], pos[edges[:, 1]]], axis=1)


def draw_tree(P: StarProduct, tree: Any, ax: plt.Axes, colour: str = TREE_COLOURS[0], title: str | None = None,
              structure_pos: dict | None = None, node_size: float = 30) -> plt.Axes:
    """Draw one spanning tree of the star product ``P`` over the product's edges.

    Parameters
    ----------
    P : StarProduct
    tree : Tree or (n-1, 2) array
        Vertex indices of ``P``; a :class:`~starlib.edst.trees.Tree` also marks its root.
    ax : matplotlib Axes
    colour : colour of the tree's edges.
    title : panel title.
    structure_pos : optional positions of the structure graph's vertices (by label).
    node_size : marker area of the vertices.

    Returns
    -------
    The axes.

    Raises
    ------
    ValueError
        If the tree uses a vertex index outside ``P``.
    """
    from matplotlib.collections import LineCollection

    pos = product_positions(P, structure_pos)
    pad = 0.1 * float(np.ptp(pos, axis=0).max())
    edges = np.asarray(getattr(tree, "edges", tree), dtype=np.int64).reshape(-1, 2)
    if edges.size and (edges.min() < 0 or edges.max() >= P.n):
        raise ValueError(f"tree: vertex indices must lie in 0..{P.n - 1}")
    nH = int(P.supernode.n)
    ax.add_collection(LineCollection(_segments(pos, np.asarray(P.edges)), colors="#d9d9d9", linewidths=0.6,
                                     zorder=1))
    inside = edges[:, 0] // nH == edges[:, 1] // nH
    ax.add_collection(LineCollection(_segments(pos, edges[inside]), colors=colour, linewidths=2.0, zorder=2))
    ax.add_collection(LineCollection(_segments(pos, edges[~inside]), colors=colour, linewidths=1.4,
                                     linestyles="dashed", zorder=2))
    ax.scatter(pos[:, 0], pos[:, 1], s=node_size, c="#525252", zorder=3, linewidths=0)
    root = getattr(tree, "root", None)
    if root is not None:
        ax.scatter([pos[root, 0]], [pos[root, 1]], s=node_size * 4, c=colour, edgecolors="black", linewidths=1.5,
                   zorder=4)
    ax.set_xlim(pos[:, 0].min() - pad, pos[:, 0].max() + pad)
    ax.set_ylim(pos[:, 1].min() - pad, pos[:, 1].max() + pad)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def draw_tree_panels(P: StarProduct, trees: Sequence[Any], titles: Sequence[str] | None = None,
                     structure_pos: dict | None = None,
                     node_size: float = 30, legend: bool = True) -> matplotlib.figure.Figure:
    """A figure with one :func:`draw_tree` panel per tree (in a row) and a legend of the line styles.

    Parameters
    ----------
    P : StarProduct
    trees : sequence of Tree or arrays
    titles : one title per tree (default: ``"tree i: <construction>, depth d"``).
    structure_pos : optional positions of the structure graph's vertices.
    node_size : marker area of the vertices.
    legend : draw the key (links of the product, tree edges inside and between supernodes, and the root when the
        trees have one) below the panels.

    Returns
    -------
    matplotlib.figure.Figure
        A row of square panels, one per tree, filling :data:`TWO_COLUMN` width, with the key below them.

    Raises
    ------
    ValueError
        If there is no tree or the number of titles differs from the number of trees.

    References
    ----------
    Section V of Isham et al. (2025) (the constructions drawn).
    """
    if len(trees) == 0:
        raise ValueError("trees: nothing to draw (0 trees)")
    if titles is not None and len(titles) != len(trees):
        raise ValueError(f"titles: {len(titles)} titles for {len(trees)} trees")
    if titles is None:
        titles = [f"tree {i + 1}: {getattr(t, 'construction', '')}, depth {getattr(t, 'depth', '?')}"
                  for i, t in enumerate(trees)]
    with paper_style():
        height = min(TWO_COLUMN / len(trees) + 0.6, 4.0) + 0.5 * legend
        fig, axes = plt.subplots(1, len(trees), figsize=(TWO_COLUMN, height), squeeze=False, layout="constrained")
        fig.get_layout_engine().set(h_pad=0.12)  # equal-aspect panels: keep the titles clear of the top edge
        for i, (t, ax) in enumerate(zip(trees, axes[0], strict=True)):
            draw_tree(P, t, ax, colour=TREE_COLOURS[i % len(TREE_COLOURS)], title=titles[i],
                      structure_pos=structure_pos, node_size=node_size)
        if legend:
            key = [Line2D([], [], color="#d9d9d9", lw=1.2, label="link of the product"),
                   Line2D([], [], color="#525252", lw=2.0, label="tree edge inside a supernode"),
                   Line2D([], [], color="#525252", lw=1.4, ls="--", label="tree edge between supernodes")]
            if any(getattr(t, "root", None) is not None for t in trees):  # bare edge arrays have no root to mark
                key.append(Line2D([], [], color="none", marker="o", markersize=9, markerfacecolor="white",
                                  markeredgecolor="black", markeredgewidth=1.5, label="root"))
            fig.legend(handles=key, loc="outside lower center", ncols=len(key), frameon=False)
    return fig
