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

Example
-------
>>> d = slimfly_design(16)
>>> d.params, d.network_ports, d.p, d.radix, d.routers, d.endpoints
({'q': 7}, 11, 5, 16, 98, 490)
>>> dragonfly_design(32).params
{'a': 16, 'p': 8, 'h': 8, 'arrangement': 'absolute'}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from .. import allreduce as ar
from ..bounds import upper_bound
from ..edst import generic_packing, verify_edsts
from ..edst.depth import depth_lower_bound, shallow_trees
from ..graphs import ArrayGraph
from ..primes import is_prime_power
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


@dataclass(frozen=True)
class Design:
    """One network chosen for a radix budget, with what its closed forms predict.

    Attributes
    ----------
    budget : the radix budget ``R`` it was chosen for.
    network : its family (:data:`starlib.registry.NETWORK_FAMILIES`).
    params : the family's parameters (``starlib info NETWORK KEY=VALUE ...`` builds it).
    routers : routers (vertices) predicted.
    network_ports : the largest number of router-to-router ports ``k'`` (the largest degree) predicted.
    p : endpoints per router (at the leaves of a fat tree, 0 elsewhere).
    radix : ports of the busiest router, ``max(degree + endpoints)``, predicted.
    endpoints : endpoints of the whole network predicted.
    """

    budget: int
    network: str
    params: dict[str, Any] = field(hash=False)
    routers: int
    network_ports: int
    p: int
    radix: int
    endpoints: int


def _balanced(kprime: int, c: int, budget: int) -> int | None:
    """``p = ceil(k'/c)``, at most ``budget - k'``; None when even ``floor(k'/c)`` does not fit the budget."""
    if kprime + kprime // c > budget:
        return None
    return min(-(-kprime // c), budget - kprime)


def _best(candidates: Iterable[Design], what: str, budget: int) -> Design:
    """The design with the most endpoints, then the largest radix; the first such one in the order given."""
    best = None
    for d in candidates:
        if best is None or (d.endpoints, d.radix) > (best.endpoints, best.radix):
            best = d
    if best is None:
        raise ValueError(f"radix budget {budget}: no {what} fits (the smallest needs more ports)")
    return best


def _prime_powers(lo: int, hi: int) -> list[int]:
    return [q for q in range(lo, hi + 1) if is_prime_power(q)]


def _mms_degree(q: int) -> int:
    """Network degree of Slim Fly ``MMS(q)``: ``(3q - delta)/2`` with ``q = 4w + delta``, ``delta`` in -1, 0, 1."""
    delta = {1: 1, 3: -1, 0: 0}[q % 4]
    return (3 * q - delta) // 2


def _mms_orders(hi: int) -> list[int]:
    """The prime powers ``3 <= q <= hi`` with ``q != 2 (mod 4)`` (Slim Fly exists for them)."""
    return [q for q in _prime_powers(3, hi) if q % 4 != 2]


def _fixed(budget: int, network: str, params: dict[str, Any], routers: int, kprime: int, c: int) -> Design | None:
    p = _balanced(kprime, c, budget)
    if p is None:
        return None
    return Design(budget, network, params, routers, kprime, p, kprime + p, routers * p)


def slimfly_design(budget: int) -> Design:
    """Slim Fly ``MMS(q)`` for a radix budget: the largest one with ``k' + floor(k'/2) <= R``, ``p = ceil(k'/2)``.

    ``2 q^2`` routers of network degree ``k' = (3q - delta)/2`` (Besta and Hoefler, SC'14, section III: about
    ``k'/2`` endpoints per router balance the global bandwidth).

    Parameters
    ----------
    budget : int
        Ports per router ``R``.

    Returns
    -------
    Design

    Raises
    ------
    ValueError
        If no Slim Fly fits (``R < 7``: ``MMS(3)`` has ``k' = 5``).

    Example
    -------
    >>> [(slimfly_design(r).params["q"], slimfly_design(r).radix) for r in (16, 32, 64)]
    [(7, 16), (13, 29), (29, 64)]
    """
    cands = (_fixed(budget, "slimfly", {"q": q}, 2 * q * q, _mms_degree(q), 2) for q in _mms_orders(budget))
    return _best((d for d in cands if d), "Slim Fly", budget)


def polarfly_design(budget: int) -> Design:
    """PolarFly ``ER_q`` for a radix budget: the largest with ``k' + floor(k'/2) <= R``, ``k' = q + 1``,
    ``p = ceil(k'/2)``.

    ``q^2 + q + 1`` routers; the ``q + 1`` absolute points have ``q`` network ports, the others ``q + 1``
    (Lakhotia et al., SC'22).

    Example
    -------
    >>> [(polarfly_design(r).params["q"], polarfly_design(r).radix) for r in (16, 32, 64)]
    [(9, 15), (19, 30), (41, 63)]
    """
    cands = (_fixed(budget, "polarfly", {"q": q}, q * q + q + 1, q + 1, 2) for q in _prime_powers(2, budget))
    return _best((d for d in cands if d), "PolarFly", budget)


def _paley_orders(hi: int) -> list[int]:
    return [x for x in _prime_powers(5, hi) if x % 4 == 1]


def bundlefly_design(budget: int) -> Design:
    """Bundlefly ``MMS(q) * QR(q')`` for a radix budget: the most endpoints with ``k' + floor(k'/3) <= R``,
    ``p = ceil(k'/3)``.

    ``2 q^2 q'`` routers of network degree ``k' = (3q - delta)/2 + (q' - 1)/2`` (Lei et al., ICS'20), a
    diameter-3 network: the Dragonfly's balance ``p ~ k'/3``.

    Example
    -------
    >>> d = bundlefly_design(32)
    >>> d.params, d.network_ports, d.p, d.routers
    ({'q': 8, 'paley_q': 25}, 24, 8, 3200)
    """
    cands = (_fixed(budget, "bundlefly", {"q": q, "paley_q": x}, 2 * q * q * x, _mms_degree(q) + (x - 1) // 2, 3)
             for q in _mms_orders(budget) for x in _paley_orders(2 * budget + 1))
    return _best((d for d in cands if d), "Bundlefly", budget)


def polarstar_design(budget: int) -> Design:
    """PolarStar for a radix budget: ``ER_q * IQ(d')`` or ``ER_q * QR(q')`` with the most endpoints such that
    ``k' + floor(k'/3) <= R``, ``p = ceil(k'/3)``; the network version (``loops=1``).

    ``(q^2 + q + 1) n_H`` routers, ``k' = q + 1 + d'`` (``n_H = 2d' + 2``) or ``q + 1 + (q' - 1)/2``
    (``n_H = q'``) (Lakhotia et al., arXiv:2302.07217). The loop edges of the absolute points give their routers
    back the port they lack (docs/networks.md section 6), so every router but at most ``q + 1`` has ``k'``.

    Example
    -------
    >>> d = polarstar_design(32)
    >>> d.network, d.params, d.network_ports, d.routers
    ('polarstar-iq', {'q': 16, 'd': 7, 'loops': 1}, 24, 4368)
    """
    iq = (_fixed(budget, "polarstar-iq", {"q": q, "d": d, "loops": 1}, (q * q + q + 1) * (2 * d + 2), q + 1 + d, 3)
          for q in _prime_powers(2, budget) for d in range(3, budget + 1) if d % 4 in (0, 3))
    paley = (_fixed(budget, "polarstar-paley", {"q": q, "paley_q": x, "loops": 1}, (q * q + q + 1) * x,
                    q + 1 + (x - 1) // 2, 3) for q in _prime_powers(2, budget) for x in _paley_orders(2 * budget + 1))
    return _best((d for d in (*iq, *paley) if d), "PolarStar", budget)


def dragonfly_design(budget: int, arrangement: str = "absolute") -> Design:
    """The balanced Dragonfly ``a = 2p = 2h`` of Kim et al. (ISCA'08) for a radix budget: ``p = floor((R+1)/4)``.

    ``g = a h + 1`` groups of ``a`` routers (the canonical full-group connection), network degree
    ``a - 1 + h = 3p - 1``, radix ``4p - 1``.

    Parameters
    ----------
    budget : int
        Ports per router ``R >= 3``.
    arrangement : str
        The global-link arrangement (:func:`starlib.standard.dragonfly`).

    Example
    -------
    >>> d = dragonfly_design(16, "circulant")
    >>> d.params, d.radix, d.routers, d.endpoints
    ({'a': 8, 'p': 4, 'h': 4, 'arrangement': 'circulant'}, 15, 264, 1056)
    """
    p = (budget + 1) // 4
    if p < 1:
        raise ValueError(f"radix budget {budget}: the smallest balanced Dragonfly (a = 2, p = h = 1) needs 3 ports")
    a, h = 2 * p, p
    routers = a * (a * h + 1)
    return Design(budget, "dragonfly", {"a": a, "p": p, "h": h, "arrangement": arrangement}, routers, a - 1 + h, p,
                  a - 1 + h + p, routers * p)


def fat_tree_design(budget: int, levels: int = 3) -> Design:
    """The k-ary n-tree of radix ``2k = R`` (``k = floor(R/2)``) with ``levels`` levels.

    ``n k^(n-1)`` switches; the ``k^(n-1)`` leaves give ``k`` ports to endpoints (``k^n`` in all), the others
    none (Petrini and Vanneschi 1997).

    Example
    -------
    >>> d = fat_tree_design(32)
    >>> d.params, d.routers, d.p, d.radix, d.endpoints
    ({'k': 16, 'n': 3}, 768, 16, 32, 4096)
    """
    k = budget // 2
    if k < 2:
        raise ValueError(f"radix budget {budget}: a fat tree needs 4 ports or more (k >= 2)")
    return Design(budget, "fat-tree", {"k": k, "n": levels}, levels * k ** (levels - 1), 2 * k if levels > 2 else k,
                  k, 2 * k, k**levels)


def hyperx_design(budget: int, dims: int = 3) -> Design:
    """The regular HyperX ``K_S x ... x K_S`` (``dims`` times) of Ahn et al. (SC'09), ``T = floor(S/2)``
    endpoints per router: the largest ``S`` with ``dims (S - 1) + T <= R``.

    Example
    -------
    >>> d = hyperx_design(32)
    >>> d.params, d.network_ports, d.p, d.radix, d.routers
    ({'sizes': '10,10,10'}, 27, 5, 32, 1000)
    """
    best = None
    for s in range(2, budget + 2):
        if dims * (s - 1) + s // 2 <= budget:
            best = s
    if best is None:
        raise ValueError(f"radix budget {budget}: a {dims}-D HyperX needs {dims + 1} ports or more")
    t = best // 2
    return Design(budget, "hyperx", {"sizes": ",".join([str(best)] * dims)}, best**dims, dims * (best - 1), t,
                  dims * (best - 1) + t, t * best**dims)


def _closest_power(base_min: int, exponent: int, target: int) -> int:
    """The integer ``s >= base_min`` whose ``s^exponent`` is closest to ``target`` in ratio (the smaller on a
    tie), by exact integer comparison."""
    best, best_ratio = base_min, None
    s = base_min
    while True:
        v = s**exponent
        ratio = Fraction(max(v, target), min(v, target))
        if best_ratio is None or ratio < best_ratio:
            best, best_ratio = s, ratio
        if v >= target:
            return best
        s += 1


def torus_design(budget: int, endpoints: int) -> Design:
    """The torus ``C_s^L`` with one endpoint per router and about ``endpoints`` routers: the most dimensions
    ``L`` with ``2L + 1 <= R`` and ``4^L <= endpoints``, then the side ``s >= 4`` closest to the target.

    Example
    -------
    >>> torus_design(32, 3380).params, torus_design(16, 490).params
    ({'sizes': '5,5,5,5,5'}, {'sizes': '5,5,5,5'})
    """
    dims = 0
    while 2 * (dims + 1) + 1 <= budget and 4 ** (dims + 1) <= endpoints:
        dims += 1
    if dims == 0:
        raise ValueError(f"radix budget {budget}, {endpoints} endpoints: no torus of side 4 or more fits")
    s = _closest_power(4, dims, endpoints)
    return Design(budget, "torus", {"sizes": ",".join([str(s)] * dims)}, s**dims, 2 * dims, 1, 2 * dims + 1,
                  s**dims)


def hypercube_design(budget: int, endpoints: int) -> Design:
    """The hypercube ``Q_n`` with one endpoint per router and ``2^n`` closest to ``endpoints`` (``n + 1 <= R``).

    Example
    -------
    >>> hypercube_design(32, 3380).params
    {'n': 12, 'p': 1}
    """
    best, best_ratio = None, None
    for n in range(1, budget):
        v = 2**n
        ratio = Fraction(max(v, endpoints), min(v, endpoints))
        if best_ratio is None or ratio < best_ratio:
            best, best_ratio = n, ratio
        if v >= endpoints:
            break
    if best is None:
        raise ValueError(f"radix budget {budget}: a hypercube needs 2 ports or more")
    return Design(budget, "hypercube", {"n": best, "p": 1}, 2**best, best, 1, best + 1, 2**best)


def jellyfish_design(reference: Design, seed: int) -> Design:
    """Jellyfish from the switches of ``reference``: its routers, network ports ``r`` and endpoints per router,
    wired as a random connected ``r``-regular graph drawn from ``seed`` (Singla et al., NSDI'12).

    Example
    -------
    >>> jellyfish_design(slimfly_design(16), 3).params
    {'n': 98, 'r': 11, 'p': 5, 'seed': 3}
    """
    n, r, p = reference.routers, reference.network_ports, reference.p
    return Design(reference.budget, "jellyfish", {"n": n, "r": r, "p": p, "seed": seed}, n, r, p, r + p, n * p)


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
