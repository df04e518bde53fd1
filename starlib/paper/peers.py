"""Notebook 14, "Star products among their peers": every network at a router radix budget, with its designers'
endpoint split, and what its edge-disjoint spanning trees (EDSTs) give per router port.

**Designs.** One small function per family turns a radix budget ``R`` (ports per router, links to routers and
to endpoints together) into the family's parameters; each returns a :class:`Design` whose router count, network
ports, endpoints and radix are predicted from the family's closed forms (the tests check them on the built
graphs). ``k'`` is the network degree (router-to-router ports), ``p`` the endpoints per router.

* Star products and Dragonfly, whose size is fixed by the radix: among the instances with
  ``k' + floor(k'/c) <= R``, the one with the most endpoints (each design's aim: the largest network a router of
  that radix builds), with the balanced split ``p = ceil(k'/c)`` (at most ``R - k'``). ``c = 2`` for the
  diameter-2 networks, Slim Fly ``MMS(q)`` (Besta and Hoefler, SC'14: about half the network ports go to
  endpoints) and PolarFly ``ER_q`` (Lakhotia et al., SC'22, the same balance); ``c = 3`` for the diameter-3
  networks, Bundlefly ``MMS(q) * QR(q')`` (Lei et al., ICS'20) and PolarStar ``ER_q * IQ(d')`` or
  ``ER_q * QR(q')`` (Lakhotia et al., arXiv:2302.07217; the network version with the absolute-point loop edges),
  as in the balanced Dragonfly ``a = 2p = 2h`` of Kim et al. (ISCA'08), whose ``k' = a - 1 + h = 3p - 1``
  (:func:`dragonfly_design`: ``p = floor((R + 1)/4)``, radix ``4p - 1``).
* Fat tree (:func:`fat_tree_design`): the three-level k-ary n-tree of radix ``2k = R``; its leaves give ``k``
  ports to endpoints (Petrini and Vanneschi 1997), and the PolarFly and PolarStar authors compare with its
  three-stage form.
* HyperX (:func:`hyperx_design`): the regular 3-D HyperX ``K_S x K_S x K_S`` of Ahn et al. (SC'09), the form the
  PolarStar paper compares with, with ``T = floor(S/2)`` endpoints per router (the most a cut of each dimension
  in half, ``S^2/4`` links per line, carries at full bandwidth); the largest ``S`` with ``3(S-1) + T <= R``.
* Torus and hypercube (:func:`torus_design`, :func:`hypercube_design`): one endpoint per router (Dally and
  Towles 2004; Seitz 1985); their size is free, so they are sized to a target endpoint count (the notebook's:
  the Slim Fly of the same budget), the torus with the most dimensions its size allows at a side of 4 or more
  (a side of 3 is ``K_3``, a HyperX).
* Jellyfish (:func:`jellyfish_design`): Singla et al. (NSDI'12) build it from the switches of the network it
  is compared with; here the Slim Fly's routers, network ports and endpoints, one random graph per seed.

**Rows.** :func:`peer_row` builds a design, measures it (routers, links, diameter, the radix and endpoints
counted from the graph), packs the maximum number of EDSTs exactly
(:func:`~starlib.edst.packing.generic_packing`) and checks its certificate independently
(:func:`certified_maximum`: the trees verify, and the certificate partition's Nash-Williams bound equals their
count), builds the shallow maximum family (:func:`~starlib.edst.depth.shallow_trees`, same count, verified), its
lower bound (:func:`~starlib.edst.depth.depth_lower_bound`), and notebook 08's allreduce time for a large message
on the shallow family (:func:`starlib.allreduce.allreduce_time`).

The designs themselves live in :mod:`starlib.designs` (re-exported here).

Example
-------
>>> [d.network for d in peer_designs([16])][:4]
['slimfly', 'polarfly', 'bundlefly', 'polarstar-iq']
>>> design_table(peer_designs([16]))[["network", "routers", "endpoints"]].head(2).values.tolist()
[['slimfly', 98, 490], ['polarfly', 91, 455]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .. import allreduce as ar
from ..bounds import upper_bound
from ..designs import (
    Design,
    bundlefly_design,
    dragonfly_design,
    fat_tree_design,
    hypercube_design,
    hyperx_design,
    jellyfish_design,
    polarfly_design,
    polarstar_design,
    slimfly_design,
    torus_design,
)
from ..edst import generic_packing, verify_edsts
from ..edst.depth import depth_lower_bound, shallow_trees
from ..graphs import ArrayGraph
from .catalog import build, format_params
from .shallow_study import measured_depths

__all__ = ["Design", "slimfly_design", "polarfly_design", "bundlefly_design", "polarstar_design", "dragonfly_design",
           "fat_tree_design", "hyperx_design", "torus_design", "hypercube_design", "jellyfish_design",
           "peer_designs", "design_table", "ports", "certified_maximum", "peer_row", "ROW_COLUMNS", "STAR_PRODUCTS",
           "jellyfish_spread", "SPREAD_COLUMNS", "MEASURES", "arrangement_comparison", "budget_comparison"]

#: The star-product families (the others are their peers).
STAR_PRODUCTS = ("slimfly", "polarfly", "bundlefly", "polarstar-iq", "polarstar-paley")

#: The columns of ``paper_tables/peers.csv``, in order.
ROW_COLUMNS = ("radix_budget", "network", "parameters", "kind", "routers", "links", "diameter", "network_ports",
               "endpoints_per_router", "radix", "endpoints", "upper_bound", "max_edsts", "certified",
               "edsts_per_port", "shallow_depth", "lower_bound", "allreduce_us")

#: The measured columns of a row that two designs of the same budget are compared on.
MEASURES = ("routers", "links", "diameter", "max_edsts", "edsts_per_port", "shallow_depth", "lower_bound",
            "allreduce_us")

#: The columns of ``paper_tables/peers_jellyfish.csv``, in order.
SPREAD_COLUMNS = ("radix_budget", "parameters", "seeds", "diameter_min", "diameter_max", "max_edsts_min",
                  "max_edsts_max", "shallow_depth_min", "shallow_depth_max", "lower_bound_min", "lower_bound_max",
                  "allreduce_us_min", "allreduce_us_max")


def peer_designs(budgets: Sequence[int], seeds: Sequence[int] = (0,), arrangements: Sequence[str] = ("absolute",),
                 fat_tree_levels: int = 3, hyperx_dims: int = 3) -> list[Design]:
    """Every network of the comparison for every radix budget, in the notebook's order.

    Per budget: Slim Fly, PolarFly, Bundlefly, PolarStar (the star products), then the Dragonfly for each
    arrangement, the fat tree, HyperX, the torus and hypercube sized to the Slim Fly's endpoints, and a Jellyfish
    from the Slim Fly's switches for each seed.

    Example
    -------
    >>> [d.network for d in peer_designs([16])]  # doctest: +NORMALIZE_WHITESPACE
    ['slimfly', 'polarfly', 'bundlefly', 'polarstar-iq', 'dragonfly', 'fat-tree', 'hyperx', 'torus', 'hypercube',
     'jellyfish']
    """
    out: list[Design] = []
    for r in budgets:
        sf = slimfly_design(r)
        out += [sf, polarfly_design(r), bundlefly_design(r), polarstar_design(r)]
        out += [dragonfly_design(r, a) for a in arrangements]
        out += [fat_tree_design(r, fat_tree_levels), hyperx_design(r, hyperx_dims), torus_design(r, sf.endpoints),
                hypercube_design(r, sf.endpoints)]
        out += [jellyfish_design(sf, s) for s in seeds]
    return out


def design_table(designs: Sequence[Design]) -> pd.DataFrame:
    """The designs as a frame: budget, network, parameters and the predicted sizes and ports."""
    return pd.DataFrame([{"radix_budget": d.budget, "network": d.network, "parameters": format_params(d.params),
                          "routers": d.routers, "network_ports": d.network_ports, "endpoints_per_router": d.p,
                          "radix": d.radix, "endpoints": d.endpoints} for d in designs])


def ports(graph: ArrayGraph, design: Design) -> tuple[np.ndarray, np.ndarray]:
    """Endpoints and ports (links plus endpoints) of every router, counted on the built graph.

    The endpoints are ``graph.meta["endpoints"]`` where the family records them (the standard networks), else
    ``design.p`` at every router.

    Example
    -------
    >>> from starlib.standard import fat_tree
    >>> e, k = ports(fat_tree(2, 3), fat_tree_design(4))
    >>> e.tolist(), k.tolist()
    ([0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2], [2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4])
    """
    deg = np.bincount(np.asarray(graph.edges).ravel(), minlength=graph.n).astype(np.int64)
    given = graph.meta.get("endpoints")
    endpoints = np.asarray(given, dtype=np.int64) if given is not None else np.full(graph.n, design.p, np.int64)
    return endpoints, deg + endpoints


def certified_maximum(graph: ArrayGraph, packing: Any) -> bool:
    """Whether a packing is a certified maximum: its trees are edge-disjoint spanning trees of ``graph`` and the
    Nash-Williams bound of its certificate partition equals their number.

    For a partition of the vertices into ``P >= 2`` parts, every spanning tree has at least ``P - 1`` edges
    between parts, so ``k`` EDSTs need ``k (P - 1)`` crossing edges: ``k <= floor(crossing / (P - 1))``
    (Nash-Williams 1961, Tutte 1961). Computed here from the edges, independently of the packer.

    Example
    -------
    >>> from starlib.factors import complete
    >>> from starlib.edst import generic_packing
    >>> g = complete(6)
    >>> certified_maximum(g, generic_packing(g))
    True
    """
    trees = list(packing.trees)
    if len(trees) != packing.count or not verify_edsts(graph, trees).valid:
        return False
    parts = np.asarray(packing.certificate, dtype=np.int64)
    e = np.asarray(graph.edges, dtype=np.int64)
    count = int(np.unique(parts).size)
    if count < 2:
        return False
    crossing = int((parts[e[:, 0]] != parts[e[:, 1]]).sum())
    return crossing // (count - 1) == packing.count


def peer_row(design: Design, *, alpha_us: float, beta_us: float, message_bytes: float, seed: int = 0,
             builder: Callable[[str, dict[str, Any]], ArrayGraph] = build) -> dict[str, Any]:
    """One row of ``paper_tables/peers`` (columns :data:`ROW_COLUMNS`): the network built and measured.

    Parameters
    ----------
    design : the network (:func:`peer_designs`).
    alpha_us, beta_us : notebook 08's latency per message and time per byte of one link (microseconds).
    message_bytes : the allreduce message size (bytes).
    seed : the local search's seed.
    builder : builds a family from its name and parameters (:func:`starlib.paper.catalog.build`).

    Returns
    -------
    dict
        The design's budget, network and parameters; ``kind`` (star product or peer); routers, links and diameter
        of the graph; the largest degree ``k'``, the endpoints per router ``p``, the radix ``max(degree +
        endpoints)`` and the endpoints, counted on the graph; eq. (1)'s bound ``min(floor(m/(n-1)), delta)``;
        the maximum number of EDSTs and whether it is certified (:func:`certified_maximum`); EDSTs per port
        (maximum / radix, 4 decimals); the deepest tree of the shallow maximum family and the lower bound for
        that count; the allreduce time of ``message_bytes`` over the shallow family (microseconds, 2 decimals).

    Raises
    ------
    ValueError
        If the built graph's sizes or ports differ from the design's closed forms, or the shallow family is
        not a maximum family of edge-disjoint spanning trees.
    """
    g = builder(design.network, dict(design.params))
    endpoints, radix = ports(g, design)
    deg = radix - endpoints
    built = (int(g.n), int(deg.max()), int(radix.max()), int(endpoints.sum()))
    predicted = (design.routers, design.network_ports, design.radix, design.endpoints)
    if built != predicted:
        raise ValueError(f"{design.network} {format_params(design.params)}: built (routers, k', radix, endpoints) = "
                         f"{built}, the design predicts {predicted}")
    if "radix" in g.meta and int(g.meta["radix"]) != built[2]:
        raise ValueError(f"{design.network}: meta radix {g.meta['radix']} but {built[2]} ports counted")
    packing = generic_packing(g)
    certified = certified_maximum(g, packing)
    trees = shallow_trees(g, seed=seed)
    if len(trees) != packing.count or not verify_edsts(g, trees).valid:
        raise ValueError(f"{design.network}: the shallow family has {len(trees)} trees, the maximum is "
                         f"{packing.count}")
    depths = measured_depths(g, trees)
    k = packing.count
    return {"radix_budget": design.budget, "network": design.network, "parameters": format_params(design.params),
            "kind": "star product" if design.network in STAR_PRODUCTS else "peer",
            "routers": built[0], "links": int(g.m), "diameter": int(g.eccentricities().max()),
            "network_ports": built[1], "endpoints_per_router": design.p, "radix": built[2], "endpoints": built[3],
            "upper_bound": int(upper_bound(g)), "max_edsts": k, "certified": bool(certified),
            "edsts_per_port": round(k / built[2], 4), "shallow_depth": max(depths),
            "lower_bound": int(depth_lower_bound(g, k).value),
            "allreduce_us": round(float(ar.allreduce_time(depths, float(message_bytes), alpha_us, beta_us)), 2)}


def jellyfish_spread(table: pd.DataFrame) -> pd.DataFrame:
    """The spread of the Jellyfish rows over their seeds, per budget (columns :data:`SPREAD_COLUMNS`).

    Parameters
    ----------
    table : rows of :func:`peer_row` (other networks are ignored).

    Example
    -------
    >>> t = pd.DataFrame({"radix_budget": [16, 16], "network": ["jellyfish"] * 2,
    ...                   "parameters": ["n=98 r=11 p=5 seed=0", "n=98 r=11 p=5 seed=1"], "diameter": [3, 4],
    ...                   "max_edsts": [5, 5], "shallow_depth": [4, 5], "lower_bound": [3, 3],
    ...                   "allreduce_us": [1.5, 2.5]})
    >>> r = jellyfish_spread(t).iloc[0]
    >>> r.parameters, int(r.seeds), int(r.diameter_min), int(r.diameter_max), float(r.allreduce_us_min)
    ('n=98 r=11 p=5', 2, 3, 4, 1.5)
    """
    j = table[table.network == "jellyfish"].copy()
    j["parameters"] = [" ".join(w for w in p.split() if not w.startswith("seed=")) for p in j.parameters]
    rows = []
    for (budget, params), grp in j.groupby(["radix_budget", "parameters"], sort=True):
        row: dict[str, Any] = {"radix_budget": int(budget), "parameters": params, "seeds": len(grp)}
        for col in ("diameter", "max_edsts", "shallow_depth", "lower_bound", "allreduce_us"):
            row[f"{col}_min"] = grp[col].min().item()
            row[f"{col}_max"] = grp[col].max().item()
        rows.append(row)
    return pd.DataFrame(rows, columns=list(SPREAD_COLUMNS))


def arrangement_comparison(table: pd.DataFrame, first: str = "absolute", second: str = "circulant") -> pd.DataFrame:
    """The Dragonfly's two global-link arrangements side by side, per radix budget and measure.

    Parameters
    ----------
    table : rows of :func:`peer_row` (other networks are ignored).
    first, second : the arrangements compared (the ``arrangement=`` of the Dragonfly's parameters).

    Returns
    -------
    pandas.DataFrame
        One row per budget and measure of :data:`MEASURES`: ``radix_budget``, ``measure``, the value under
        ``first`` and under ``second`` (columns named after them), and ``agree``.

    Raises
    ------
    ValueError
        If a budget lacks one of the two arrangements, or has one twice.

    Example
    -------
    >>> t = pd.DataFrame({"radix_budget": [16, 16], "network": ["dragonfly"] * 2,
    ...                   "parameters": ["a=8 p=4 h=4 arrangement=absolute", "a=8 p=4 h=4 arrangement=circulant"],
    ...                   **{m: [1, 1] for m in MEASURES}})
    >>> t.loc[1, "shallow_depth"] = 2
    >>> c = arrangement_comparison(t)
    >>> c[~c.agree][["radix_budget", "measure", "absolute", "circulant"]].values.tolist()
    [[16, 'shallow_depth', 1, 2]]
    """
    d = table[table.network == "dragonfly"].copy()
    d["arrangement"] = [dict(w.split("=", 1) for w in p.split()).get("arrangement") for p in d.parameters]
    rows = []
    for budget, grp in d.groupby("radix_budget", sort=True):
        by = {a: grp[grp.arrangement == a] for a in (first, second)}
        if any(len(g) != 1 for g in by.values()):
            raise ValueError(f"radix budget {budget}: the Dragonfly has {len(by[first])} {first} and "
                             f"{len(by[second])} {second} rows, one of each is needed")
        for m in MEASURES:
            a, b = by[first][m].item(), by[second][m].item()
            rows.append({"radix_budget": int(budget), "measure": m, first: a, second: b, "agree": bool(a == b)})
    return pd.DataFrame(rows, columns=["radix_budget", "measure", first, second, "agree"])


def budget_comparison(table: pd.DataFrame) -> pd.DataFrame:
    """Per radix budget, the numbers notebook 14's observations compare: the star products against the Dragonfly,
    the fat tree and HyperX.

    Parameters
    ----------
    table : rows of :func:`peer_row` (with ``kind``).

    Returns
    -------
    pandas.DataFrame
        One row per budget (index ``radix_budget``): ``star_trees`` and ``star_us``, the most trees and the
        fastest allreduce of any star product, and ``star_per_port`` the most EDSTs per port; ``dragonfly_trees``,
        ``dragonfly_us`` (its faster arrangement), ``dragonfly_depth_min``, ``dragonfly_depth_max``;
        ``fat_tree_trees``, ``fat_tree_us``; ``hyperx_trees``, ``hyperx_depth``, ``hyperx_per_port``,
        ``hyperx_us``; ``d3_depth`` and ``d3_lower_bound``, the deepest family and the largest lower bound of
        the diameter-3 star products (Bundlefly, PolarStar); ``fastest``, the network of the fastest allreduce,
        and ``most_per_port``, the network(s) with the most EDSTs per port (joined by ``,``).

    Example
    -------
    >>> import pathlib
    >>> t = pd.read_csv(pathlib.Path(__file__).parents[2] / "paper_tables" / "peers.csv")
    >>> b = budget_comparison(t)
    >>> int(b.star_trees[32]), int(b.dragonfly_trees[32]), int(b.fat_tree_trees[32]), b.fastest[32]
    (12, 11, 10, 'hyperx')
    """
    rows = {}
    for budget, g in table.groupby("radix_budget", sort=True):
        star, d3 = g[g.network.isin(STAR_PRODUCTS)], g[g.network.isin(("bundlefly", "polarstar-iq",
                                                                          "polarstar-paley"))]
        net = {n: g[g.network == n] for n in ("dragonfly", "fat-tree", "hyperx")}
        top = g.edsts_per_port.max()
        rows[int(budget)] = {
            "star_trees": int(star.max_edsts.max()), "star_us": float(star.allreduce_us.min()),
            "star_per_port": float(star.edsts_per_port.max()),
            "dragonfly_trees": int(net["dragonfly"].max_edsts.max()),
            "dragonfly_us": float(net["dragonfly"].allreduce_us.min()),
            "dragonfly_depth_min": int(net["dragonfly"].shallow_depth.min()),
            "dragonfly_depth_max": int(net["dragonfly"].shallow_depth.max()),
            "fat_tree_trees": int(net["fat-tree"].max_edsts.max()),
            "fat_tree_us": float(net["fat-tree"].allreduce_us.min()),
            "hyperx_trees": int(net["hyperx"].max_edsts.max()), "hyperx_depth": int(net["hyperx"].shallow_depth.max()),
            "hyperx_per_port": float(net["hyperx"].edsts_per_port.max()),
            "hyperx_us": float(net["hyperx"].allreduce_us.min()),
            "d3_depth": int(d3.shallow_depth.max()), "d3_lower_bound": int(d3.lower_bound.max()),
            "fastest": str(g.loc[g.allreduce_us.idxmin(), "network"]),
            "most_per_port": ",".join(sorted(set(g[g.edsts_per_port == top].network)))}
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "radix_budget"
    return out
