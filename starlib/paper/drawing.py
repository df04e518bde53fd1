"""Drawings of star products that show their structure: one small circle per supernode.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> from starlib.networks import complete_paley
>>> pos = supernode_layout(complete_paley(2, 5))
>>> len(pos)
10
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import networkx as nx
import numpy as np

from .. import factors, networks
from ..graphs import ArrayGraph
from ..products import StarProduct, star_product
from .figures import PALETTE, TWO_COLUMN, paper_style

__all__ = ["supernode_layout", "draw_star_product", "draw_graph", "rounded_layout", "SUPERNODE_COLOURS",
           "networks_small_figure"]

#: Colours of supernodes 0, 1, 2, ... (cycled): the colour-blind-safe palette without black, which the
#: supernode edges use.
SUPERNODE_COLOURS = tuple(c for c in PALETTE if c != "#000000")

#: Decimals kept of every node position. A drawing spans about one unit, so 1e-4 is far below a pixel; the
#: digits beyond come from BLAS (Kamada-Kawai's optimiser) or SIMD sin/cos and differ between CPUs.
LAYOUT_DIGITS = 4


def rounded_layout(pos: dict) -> dict:
    """Node positions rounded to :data:`LAYOUT_DIGITS` decimals, so that drawings are the same bytes on every CPU.

    >>> rounded_layout({"a": (0.123456789, -1e-9)})
    {'a': (0.1235, 0.0)}
    """
    return {v: tuple(float(round(float(c), LAYOUT_DIGITS)) + 0.0 for c in xy) for v, xy in pos.items()}


def supernode_layout(P: StarProduct, radius: float = 1.0, inner: float | None = None,
                     structure_pos: dict | None = None) -> dict:
    """Positions: supernode g on a circle (or ``structure_pos``), its vertices on a small circle around it
    (rounded by :func:`rounded_layout`)."""
    G, H = P.structure, P.supernode
    if structure_pos is None:
        ang = np.pi / 2 - 2 * np.pi * np.arange(G.n) / G.n
        centres = np.stack([radius * np.cos(ang), radius * np.sin(ang)], axis=1)  # cpu-stable: drawing
    else:
        centres = np.array([structure_pos[lab] for lab in G.labels], dtype=float)
    if inner is None:
        inner = radius * (0.45 if G.n <= 2 else min(0.35, 1.2 / G.n + 0.08))
    a2 = np.pi / 2 - 2 * np.pi * np.arange(H.n) / H.n
    local = np.stack([inner * np.cos(a2), inner * np.sin(a2)], axis=1)  # cpu-stable: drawing
    pos = {}
    for g in range(G.n):
        for h in range(H.n):
            pos[P.labels[g * H.n + h]] = tuple(centres[g] + local[h])
    return rounded_layout(pos)


def draw_star_product(P: StarProduct, ax: plt.Axes | None = None, title: str | None = None,
                      structure_pos: dict | None = None, node_size: int = 40,
                      colours: Sequence[str] | None = None, inner: float | None = None) -> plt.Axes:
    """Draw a star product: supernode edges dark, the bijection (inter-supernode) edges light.

    Parameters
    ----------
    P : StarProduct
        The product.
    ax : matplotlib Axes, optional
        Where to draw (default: the current axes).
    title : str, optional
        Panel title.
    structure_pos : dict, optional
        Positions of the structure graph's vertices, by label (default: a circle).
    node_size : int
        Marker area of the vertices.
    colours : sequence of str, optional
        Colour of supernode ``g``'s vertices is ``colours[g % len(colours)]`` (default :data:`SUPERNODE_COLOURS`).
    inner : float, optional
        Radius of the small circle of each supernode (default: :func:`supernode_layout`'s).

    Returns
    -------
    The axes.

    Example
    -------
    >>> import matplotlib.pyplot as plt
    >>> from starlib.networks import complete_paley
    >>> fig, ax = plt.subplots()
    >>> ax = draw_star_product(complete_paley(2, 5), ax, colours=["red", "blue"])
    >>> ax.collections[-1].get_facecolors()[[0, 5]].round(2).tolist()
    [[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]]
    >>> plt.close(fig)
    """
    ax = ax or plt.gca()
    pos = supernode_layout(P, structure_pos=structure_pos, inner=inner)
    g = P.to_networkx()
    nH = P.supernode.n
    intra = [(P.labels[u], P.labels[v]) for u, v in P.edges.tolist() if u // nH == v // nH]
    inter = [(P.labels[u], P.labels[v]) for u, v in P.edges.tolist() if u // nH != v // nH]
    nx.draw_networkx_edges(g, pos, edgelist=inter, ax=ax, edge_color="#9ecae1", width=0.8)
    nx.draw_networkx_edges(g, pos, edgelist=intra, ax=ax, edge_color="#08306b", width=1.4)
    palette = list(colours) if colours is not None else list(SUPERNODE_COLOURS)
    index = P.index()
    nx.draw_networkx_nodes(g, pos, ax=ax, node_size=node_size,
                           node_color=[palette[(index[v] // nH) % len(palette)] for v in g.nodes()],
                           edgecolors="#333333", linewidths=0.5)
    ax.set_axis_off()
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def draw_graph(G: ArrayGraph, ax: plt.Axes | None = None, title: str | None = None, layout: str = "circular",
               node_size: int = 40) -> plt.Axes:
    """Draw a factor graph (circular or Kamada–Kawai layout; deterministic)."""
    ax = ax or plt.gca()
    g = G.to_networkx()
    pos = rounded_layout(nx.circular_layout(g) if layout == "circular" else nx.kamada_kawai_layout(g))
    nx.draw_networkx(g, pos, ax=ax, with_labels=False, node_size=node_size, width=0.8, node_color=PALETTE[0],
                     edge_color="#636363")
    ax.set_axis_off()
    ax.set_aspect("equal")
    if title:
        ax.set_title(title, fontsize=10)
    return ax


#: Font size (points) of the panel titles of :func:`networks_small_figure` (at its print width, 7.1 in).
_PANEL_TITLE_PT = 8.5


def networks_small_figure(petersen: StarProduct | None = None) -> plt.Figure:
    """Six small networks of notebook 01, two rows of three panels at the two-column width (7.1 in).

    Petersen as ``K_2 * QR(5)``, MMS(3) as ``K_{3,3} * C(X)``, ER_3 (PolarFly), IQ(3), PolarStar
    ``ER_2 * QR(5)`` and ``K_4 * QR(5)``; star products drawn by :func:`draw_star_product` (supernode edges
    dark, bijection edges light), factor graphs by :func:`draw_graph`.

    Parameters
    ----------
    petersen : StarProduct, optional
        The product ``K_2 * QR(5)`` with ``f(x) = 2x`` (default: built here from :mod:`starlib.factors`).

    Returns
    -------
    matplotlib.figure.Figure
        The six drawings, 7.1 in wide.

    Example
    -------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = networks_small_figure()
    >>> fig.get_size_inches().tolist(), len(fig.axes)
    ([7.1, 4.8], 6)
    >>> plt.close(fig)
    """
    if petersen is None:
        qr5 = factors.paley(5)
        petersen = star_product(factors.complete(2), qr5, qr5.meta["bijection"])
    with paper_style():
        fig, axes = plt.subplots(2, 3, figsize=(TWO_COLUMN, 4.8), layout="constrained")
        draw_star_product(petersen, axes[0, 0], node_size=18)
        mms = networks.slimfly(3)
        kqq_pos = {lab: (-1.0 if lab[0] == 0 else 1.0, 1.0 - lab[1]) for lab in mms.structure.labels}
        draw_star_product(mms, axes[0, 1], structure_pos=kqq_pos, node_size=12)
        draw_graph(factors.polarfly(3), axes[0, 2], layout="kamada", node_size=18)
        draw_graph(factors.inductive_quad(3), axes[1, 0], node_size=18)
        draw_star_product(networks.polarstar(2, supernode="paley", paley_q=5), axes[1, 1], node_size=9)
        draw_star_product(networks.complete_paley(4, 5), axes[1, 2], node_size=12)
        titles = [r"Petersen = $K_2 \star QR(5)$" "\n" r"$f(x)=2x$", r"MMS(3) = $K_{3,3} \star C(X)$",
                  "ER$_3$ (PolarFly)\n13 vertices", "IQ(3), the quad gadget", r"PolarStar ER$_2 \star QR(5)$",
                  r"$K_4 \star QR(5)$"]
        for ax, title in zip(axes.flat, titles, strict=True):
            ax.set_title(title, fontsize=_PANEL_TITLE_PT)
    return fig
