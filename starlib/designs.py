"""A network for a router radix budget: one small function per family, with its designers' endpoint split.

Each function turns a radix budget ``R`` (ports per router, links to routers and to endpoints together) into the
family's parameters and returns a :class:`Design` whose router count, network ports, endpoints and radix are
predicted from the family's closed forms (the tests check them on the built graphs). ``k'`` is the network degree
(router-to-router ports), ``p`` the endpoints per router. The choices and their sources are those of
:mod:`starlib.paper.peers` (notebook 14), which compares the designs; the simulations' grid
(:mod:`starlib.netsim.comparison`) builds its networks from them too.

Example
-------
>>> d = slimfly_design(16)
>>> d.params, d.network_ports, d.p, d.radix, d.routers, d.endpoints
({'q': 7}, 11, 5, 16, 98, 490)
>>> dragonfly_design(32).params
{'a': 16, 'p': 8, 'h': 8, 'arrangement': 'absolute'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .primes import is_prime_power

__all__ = ["Design", "slimfly_design", "polarfly_design", "bundlefly_design", "polarstar_design", "dragonfly_design",
           "fat_tree_design", "hyperx_design", "torus_design", "hypercube_design", "jellyfish_design"]


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
