"""Charts and drawings of notebook 09 (the network-design notes): router counts, bisection confidence, routes through
routers only, the toy networks of section 1.3 and the evolutionary search.

Compute nodes (negative labels) are orange squares and routers (positive labels) sky-blue circles in every
drawing; colours come from the colour-blind-safe :data:`starlib.paper.figures.PALETTE`.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> import numpy as np
>>> fig = max_routers_figure(np.array([1, 2, 3]), np.array([30, 20, 30]), np.array([2, 1, 1]), N=4, m=3)
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['k = 2 tree levels', 'k = 1 tree level']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.ticker as mticker
import networkx as nx
import numpy as np
from matplotlib.lines import Line2D

from .. import netdesign as nd
from .drawing import rounded_layout
from .figures import MARKERS, PALETTE, TWO_COLUMN, paper_style

__all__ = ["max_routers_figure", "confidence_figure", "route_figure", "toy_networks_figure", "evolution_figure",
           "COMPUTE_COLOUR", "ROUTER_COLOUR"]

#: Node colours of the drawings: compute nodes orange, routers sky blue (Okabe-Ito).
COMPUTE_COLOUR, ROUTER_COLOUR = PALETTE[4], PALETTE[5]


def max_routers_figure(ns: np.ndarray, mmax: np.ndarray, levels: np.ndarray, N: int,
                       m: int) -> matplotlib.figure.Figure:
    """Maximum routers against ports per compute node, one colour and marker per number of tree levels ``k``.

    Parameters
    ----------
    ns : array of int
        Ports per compute node.
    mmax : array of int
        ``max_routers(N, m, n)`` for each ``n``.
    levels : array of int
        ``tree_levels(N, m, n)`` for each ``n``: the bands of the sawtooth.
    N, m : int
        Compute nodes and router ports (for the title).

    Returns
    -------
    matplotlib.figure.Figure
        The routers of Solution 1 against the router ports, one band per tree depth.

    Raises
    ------
    ValueError
        If the three arrays differ in length.

    References
    ----------
    The network-design notes, section 6.2 (eqs. 9-12 and the Octave plot).
    """
    if not len(ns) == len(mmax) == len(levels):
        raise ValueError(f"ns, mmax, levels: lengths {len(ns)}, {len(mmax)}, {len(levels)} differ")
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 3.2), layout="constrained")
        for i, k in enumerate(sorted(set(levels.tolist()), reverse=True)):
            sel = levels == k
            ax.plot(ns[sel], mmax[sel] / 1000, ls="none", marker=MARKERS[i % len(MARKERS)], ms=3.5,
                    color=PALETTE[i % len(PALETTE)], label=f"k = {k} tree level{'s' if k > 1 else ''}")
        i_min = int(np.argmin(mmax))
        ax.annotate(f"smallest: {mmax[i_min]:,} at n = {ns[i_min]}", (ns[i_min], mmax[i_min] / 1000),
                    xytext=(-10, -18), textcoords="offset points", ha="right", fontsize=9,
                    arrowprops={"arrowstyle": "->", "color": "#525252"})
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _p: f"{v:g}"))
        ax.set(xlabel="ports per compute node n", ylabel="maximum routers $M_{max}$ (thousands)",
               title=f"Maximum routers, N = {N} compute nodes, m = {m} router ports",
               ylim=(0, float(mmax.max()) / 1000 * 1.3))  # the legend above the points
        ax.legend(loc="upper left", ncols=4, markerscale=1.6)
    return fig


def confidence_figure(Us: Sequence[int], rng: np.random.Generator, mc_trials: int = 2000,
                      notes_point: tuple[int, float, int] | None = (100, 0.9, 230)) -> matplotlib.figure.Figure:
    """Confidence that ``p`` random picks among ``U`` splits include a given one: eq. (17) and a Monte Carlo check.

    The Monte Carlo estimates draw from ``rng`` in a fixed order (every ``U`` in turn), so a notebook that goes
    on using ``rng`` stays reproducible.

    Parameters
    ----------
    Us : sequence of int
        Numbers of splits, one curve each.
    rng : numpy.random.Generator
        Source of the Monte Carlo picks.
    mc_trials : int
        Trials per Monte Carlo point.
    notes_point : (U, C, p) or None
        The notes' worked example, marked on its curve.

    Returns
    -------
    matplotlib.figure.Figure
        Bisection confidence against the picks, formula and Monte Carlo.

    References
    ----------
    The network-design notes, section 8.1.1, eqs. (17)-(20).
    """
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 4.3))
        for i, U in enumerate(Us):
            p = np.unique(np.geomspace(1, 5 * U, 60).astype(int))
            ax.plot(p, [nd.bisection_confidence(int(x), U) for x in p], color=PALETTE[i], lw=1.8, label=f"U = {U}")
            pm = p[:: max(1, len(p) // 12)]
            ax.plot(pm, nd.monte_carlo_confidence(pm.tolist(), U, mc_trials, seed=rng), ls="none",
                    marker=MARKERS[i], ms=5, color=PALETTE[i], markerfacecolor="white")
        ax.axhline(0.9, color="#7f7f7f", lw=0.8, ls="--")
        handles, labels = ax.get_legend_handles_labels()
        handles.append(Line2D([], [], ls="none", marker="o", color="#525252", markerfacecolor="white"))
        labels.append(f"Monte Carlo, {mc_trials} trials")
        if notes_point is not None:
            U, C, p = notes_point
            (mark,) = ax.plot([p], [nd.bisection_confidence(p, U)], ls="none", marker="X", ms=10, color=PALETTE[6])
            handles.append(mark)
            labels.append(f"the notes: U = {U}, C = {C:g}, p = {p}")
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(mticker.FuncFormatter(lambda v, _p: f"{v:g}"))
        ax.set(xlabel="random picks p", ylabel="confidence C",
               title=r"Confidence that $p$ picks among $U$ splits include a given one: $C = 1 - (1 - 1/U)^p$")
        ax.legend(handles, labels, loc="lower right")
        fig.tight_layout()
    return fig


def _nodes(g: nx.Graph, pos: Mapping, ax: plt.Axes, size: float, font_size: float) -> None:
    compute = [v for v in g if v < 0]
    routers = [v for v in g if v > 0]
    nx.draw_networkx_nodes(g, pos, nodelist=compute, node_shape="s", node_color=COMPUTE_COLOUR, node_size=size,
                           edgecolors="#333333", linewidths=0.6, ax=ax)
    nx.draw_networkx_nodes(g, pos, nodelist=routers, node_color=ROUTER_COLOUR, node_size=size, edgecolors="#333333",
                           linewidths=0.6, ax=ax)
    nx.draw_networkx_labels(g, pos, ax=ax, font_size=font_size)


def _node_key() -> list[Line2D]:
    return [Line2D([], [], ls="none", marker="s", ms=9, color=COMPUTE_COLOUR, markeredgecolor="#333333",
                   label="compute node (negative)"),
            Line2D([], [], ls="none", marker="o", ms=9, color=ROUTER_COLOUR, markeredgecolor="#333333",
                   label="router (positive)")]


def route_figure(connections: Any, pos: Mapping, route: Sequence[int],
                 detour: Sequence[int]) -> matplotlib.figure.Figure:
    """A connection database with a route through routers only and a shorter path through a compute node.

    Parameters
    ----------
    connections : (L, 2) array or list of pairs
        The database (compute nodes negative, routers positive).
    pos : mapping
        Position of every node.
    route, detour : sequence of int
        The allowed route (routers only inside) and the forbidden shorter path, as node sequences.

    Returns
    -------
    matplotlib.figure.Figure
        The network with the example route drawn on it.

    References
    ----------
    The network-design notes, eq. (21) and Fig. 21.
    """
    g = nx.Graph([tuple(map(int, e)) for e in np.asarray(connections).tolist()])
    src, dst = route[0], route[-1]
    routers, links = nd.router_hops(connections, src, dst), nd.router_hops(connections, src, dst, count="links")
    with paper_style():
        fig, ax = plt.subplots(figsize=(TWO_COLUMN, 4.2))
        route_edges = list(zip(route[:-1], route[1:], strict=True))
        on_route = {frozenset(e) for e in route_edges}
        off_route = [e for e in zip(detour[:-1], detour[1:], strict=True) if frozenset(e) not in on_route]
        nx.draw_networkx_edges(g, pos, ax=ax, edge_color="#bdbdbd", width=1.5)
        nx.draw_networkx_edges(g, pos, edgelist=route_edges, ax=ax, edge_color=PALETTE[0], width=3)
        nx.draw_networkx_edges(g, pos, edgelist=off_route, ax=ax, edge_color=PALETTE[1], style="dashed", width=2.2)
        _nodes(g, pos, ax, size=420, font_size=9)
        key = [Line2D([], [], color=PALETTE[0], lw=3, label=f"through routers only: {routers} routers, {links} links"),
               Line2D([], [], color=PALETTE[1], lw=2.2, ls="--",
                      label=f"through compute node: {len(detour) - 1} links (not allowed)")] + _node_key()
        ax.legend(handles=key, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncols=2, frameon=False, fontsize=8.5)
        ax.set_title(f"eq. (21): the route from {src} to {dst}")
        ax.axis("off")
        fig.tight_layout()
    return fig


def toy_networks_figure(networks: Mapping[str, Any]) -> matplotlib.figure.Figure:
    """The toy networks side by side (Kamada-Kawai layout, rounded), each titled with its hop histogram.

    Parameters
    ----------
    networks : mapping of title -> connection database

    Returns
    -------
    matplotlib.figure.Figure
        One panel per toy network, two a row at :data:`~starlib.paper.figures.TWO_COLUMN` width, compute nodes and
        routers told apart.

    References
    ----------
    The network-design notes, section 1.3 (Figs. 3-6).
    """
    ncols = min(2, len(networks))
    nrows = -(-len(networks) // ncols)
    with paper_style():
        fig, axes = plt.subplots(nrows, ncols, figsize=(TWO_COLUMN, min(2.7 * nrows + 0.4, 9.0)), squeeze=False,
                                 layout="constrained")
        for ax in list(axes.flat)[len(networks):]:
            ax.set_visible(False)
        for ax, (name, db) in zip(axes.flat, networks.items(), strict=False):
            g = nx.Graph(np.asarray(db).tolist())
            pos = rounded_layout(nx.kamada_kawai_layout(g))  # the last digits depend on the CPU's BLAS
            nx.draw_networkx_edges(g, pos, ax=ax, width=1.0)
            _nodes(g, pos, ax, size=200, font_size=7)
            hist = ", ".join(f"{c} at {h} hop{'s' if h > 1 else ''}"
                             for h, c in nd.hop_statistics(db).histogram.items())
            ax.set_title(f"{name}\npairs: {hist}", fontsize=9)
            ax.axis("off")
        fig.legend(handles=_node_key(), loc="outside lower center", ncols=2, frameon=False)
    return fig


def evolution_figure(result: Any, title: str) -> matplotlib.figure.Figure:
    """Score, mean router hops and exact bisection width of the best network so far, step by step.

    Parameters
    ----------
    result : EvolutionResult
        From :func:`starlib.netdesign.evolve` (its ``history`` holds the three series).
    title : str
        Figure title (the size and the weights).

    Returns
    -------
    matplotlib.figure.Figure
        Score and its parts along the evolutionary search.
    """
    series = [("score", "score f (lower is better)"), ("mean_hops", "mean router hops"),
              ("bisection", "bisection width (exact)")]
    with paper_style():
        fig, axes = plt.subplots(1, 3, figsize=(TWO_COLUMN, 2.6), layout="constrained")
        steps = np.arange(len(result.scores))
        for i, (ax, (key, label)) in enumerate(zip(axes, series, strict=True)):
            ax.step(steps, result.history[key], where="post", color=PALETTE[i], lw=1.8)
            ax.set(xlabel="step", ylabel=label)
        axes[2].yaxis.set_major_locator(mticker.MaxNLocator(integer=True))
        fig.suptitle(title, fontsize=10)
    return fig
