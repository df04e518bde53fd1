"""Record, by brute force, the least depth of ``k`` EDSTs of every connected graph on at most 7 vertices.

Writes ``data/depth_optima_small.csv`` (default): one row per connected graph of ``networkx.graph_atlas_g()`` with
``2 <= n <= 7`` and per ``k`` from 1 to ``min(floor(m / (n - 1)), min degree)``; columns ``graph6`` (the graph as
``networkx.to_graph6_bytes(G, header=False)`` writes it), ``n``, ``m``, ``k``, ``optimum`` (the least ``D`` such
that some ``k`` pairwise edge-disjoint spanning trees, each rooted anywhere, all have depth ``<= D``; empty if no
``k`` EDSTs exist). Rows sorted by ``(n, m, graph6, k)``; the file is written atomically.

The brute force (independent of any solver): every spanning tree is listed by backtracking over the edges
(:func:`spanning_trees`, an edge is taken only if it joins two components), its best depth is its radius (the least
height over its roots, :func:`tree_radius`), and ``k`` disjoint trees of radius ``<= D`` are searched as an exact
cover with slack (:func:`disjoint_family`): the lowest undecided edge is either left unused (at most
``m - k (n - 1)`` edges are) or is the lowest edge of one more tree.

Usage::

    .venv/bin/python tools/depth_optima_small.py [-o data/depth_optima_small.csv]

About a minute on one core.
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import networkx as nx

from starlib.io.atomic import atomic_write

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = ["graph6", "n", "m", "k", "optimum"]


def spanning_trees(n: int, edges: list[tuple[int, int]]) -> list[int]:
    """Every spanning tree of the graph ``(range(n), edges)`` as a bit mask over the edge indices."""
    m = len(edges)
    out: list[int] = []

    def rec(i: int, comp: list[int], taken: int, mask: int) -> None:
        if taken == n - 1:
            out.append(mask)
            return
        if m - i < n - 1 - taken:
            return
        u, v = edges[i]
        cu, cv = comp[u], comp[v]
        if cu != cv:
            rec(i + 1, [cu if c == cv else c for c in comp], taken + 1, mask | (1 << i))
        rec(i + 1, comp, taken, mask)

    rec(0, list(range(n)), 0, 0)
    return out


def tree_radius(n: int, edges: list[tuple[int, int]], mask: int) -> int:
    """The least depth of the spanning tree ``mask`` over its roots (its radius)."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for i, (u, v) in enumerate(edges):
        if mask >> i & 1:
            adj[u].append(v)
            adj[v].append(u)
    best = n
    for r in range(n):
        dist = [-1] * n
        dist[r] = 0
        frontier = [r]
        while frontier:
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if dist[y] < 0:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
            frontier = nxt
        best = min(best, max(dist))
    return best


def disjoint_family(masks: list[int], k: int, m: int, n: int) -> list[int] | None:
    """``k`` pairwise disjoint masks among ``masks`` (each of ``n - 1`` bits over ``m`` edges), or ``None``."""
    by_low: dict[int, list[int]] = {}
    for t in masks:
        by_low.setdefault((t & -t).bit_length() - 1, []).append(t)

    def rec(e: int, used: int, left: int, slack: int, chosen: list[int]) -> list[int] | None:
        if left == 0:
            return chosen
        while e < m and used >> e & 1:
            e += 1
        if e >= m:
            return None
        for t in by_low.get(e, ()):
            if not t & used:
                got = rec(e + 1, used | t, left - 1, slack, chosen + [t])
                if got is not None:
                    return got
        if slack > 0:
            return rec(e + 1, used, left, slack - 1, chosen)
        return None

    return rec(0, 0, k, m - k * (n - 1), [])


def optima(G: nx.Graph, ks: list[int]) -> dict[int, int | None]:
    """The least ``D`` such that ``k`` EDSTs of ``G`` have depth ``<= D``, for each ``k`` in ``ks`` (``None``: none)."""
    nodes = sorted(G.nodes())
    idx = {v: i for i, v in enumerate(nodes)}
    n = len(nodes)
    edges = sorted((min(idx[u], idx[v]), max(idx[u], idx[v])) for u, v in G.edges())
    trees = spanning_trees(n, edges)
    rad = [tree_radius(n, edges, t) for t in trees]
    out: dict[int, int | None] = {}
    for k in ks:
        out[k] = None
        for D in range(1, n):
            if disjoint_family([t for t, r in zip(trees, rad, strict=True) if r <= D], k, len(edges), n) is not None:
                out[k] = D
                break
    return out


def graph6(G: nx.Graph) -> str:
    """The graph6 string of ``G`` as networkx writes it (no header, no newline)."""
    return nx.to_graph6_bytes(G, header=False).decode().strip()


def rows() -> list[tuple[str, int, int, int, int | None]]:
    """Every record row, sorted."""
    out = []
    for G in nx.graph_atlas_g():
        n, m = G.number_of_nodes(), G.number_of_edges()
        if n < 2 or not nx.is_connected(G):
            continue
        kmax = min(m // (n - 1), min(d for _, d in G.degree()))
        ks = list(range(1, kmax + 1))
        for k, opt in optima(G, ks).items():
            out.append((graph6(G), n, m, k, opt))
    out.sort(key=lambda r: (r[1], r[2], r[0], r[3]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=str(ROOT / "data" / "depth_optima_small.csv"))
    args = ap.parse_args(argv)
    buf = io.StringIO()
    buf.write(",".join(COLUMNS) + "\n")
    for g6, n, m, k, opt in rows():
        buf.write(f"{g6},{n},{m},{k},{'' if opt is None else opt}\n")
    atomic_write(args.output, buf.getvalue().encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
