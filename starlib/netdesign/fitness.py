"""Fitness functions of a network: sections 8.1 and 8.4 of the network-design notes.

**Bisection width** (section 8.1, after Thompson's bisection of the compute nodes): the fewest links whose
removal separates two halves of the compute nodes. For one split of the compute nodes the routers may sit on
either side, and the best placement is a minimum cut: with ``a_r`` links from side-A nodes to router ``r`` and
``d_r`` compute links at ``r``, putting the routers on sides ``S`` (``S_r = 1``: side A) cuts
``sum_r a_r (1 - S_r) + (d_r - a_r) S_r`` compute links plus the router links with ends on different sides.
starlib minimises that exactly, over all ``2^M`` router sides for small ``M`` and by maximum flow otherwise, so
only the ``C(N, N/2)/2`` compute splits are searched: all of them (exact) or a sample whose confidence is the
one of section 8.1.1 (:mod:`starlib.netdesign.bisection`). A sampled width is an upper bound.

**Cost and the weighted score** (section 8.4, eq. (22)): ``f = a cost + b latency - c bisection``, lower is
better. The notes write ``+ c (bisection bandwidth)``; a wider bisection is better, so with non-negative weights
it enters with a minus sign. ``latency`` is the mean or maximum router-only hop count
(:mod:`starlib.netdesign.hops`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ..validation import check_choice, check_int, check_real
from .bisection import balanced_bipartitions, bisection_confidence, bisection_picks
from .database import NetworkIndex, check_compute_label, validate_connections
from .hops import HOP_COUNTS, HopStatistics, hop_matrix

__all__ = ["BisectionResult", "bisection_width", "cut_width", "network_cost", "Scorer", "weighted_scorer",
           "weighted_score"]

_MAX_PICKS = 10**7
_INNER = ("auto", "enumerate", "flow")


@dataclass(frozen=True)
class BisectionResult:
    """The smallest number of links cut to separate two halves of the compute nodes.

    ``half`` is the side (compute labels) holding node -1 in a minimising bisection; ``evaluated`` the
    number of compute splits examined out of ``total = balanced_bipartitions(N)``; ``confidence`` 1 for
    an exact search, else ``bisection_confidence(evaluated, total)``: the probability that a given
    minimising split was among the samples (a lower bound on finding the minimum).
    """

    width: int
    half: tuple[int, ...]
    evaluated: int
    total: int
    exact: bool
    confidence: float


def _incidence(net: NetworkIndex) -> np.ndarray:
    att = np.zeros((net.N, net.M), dtype=np.int64)
    np.add.at(att, (net.ci, net.cr), 1)
    return att


def _cut_enumerate(X: np.ndarray, net: NetworkIndex) -> np.ndarray:
    """Min cut for each compute split (rows of X: 1 = side A), over all 2^M router sides, in whole arrays.

    With ``a_r`` links from side-A nodes to router ``r`` and ``d_r`` compute links at ``r``, placing the
    routers by the 0/1 vector ``S`` (1 = side A) cuts ``sum_r a_r (1 - S_r) + (d_r - a_r) S_r`` compute links
    plus the router links with ends on different sides: ``a (1 - 2S) + d S + L(S)``, one matrix product.
    """
    M = net.M
    S = ((np.arange(2**M)[:, None] >> np.arange(M)[None, :]) & 1).astype(np.float32)  # router on side A
    L = np.zeros(2**M, dtype=np.float32)
    for u, v in zip(net.ru.tolist(), net.rv.tolist(), strict=True):
        L += np.abs(S[:, u] - S[:, v])
    att = _incidence(net).astype(np.float32)  # small integers: float32 sums are exact
    const = att.sum(axis=0) @ S.T + L  # d S + L(S)
    W = np.ascontiguousarray((1.0 - 2.0 * S).T)
    A = X.astype(np.float32) @ att  # links from side-A nodes to each router
    out = np.empty(len(X), dtype=np.int64)
    chunk = max(1, 2**16 // 2**M)  # keep each block of costs in cache
    for s in range(0, len(X), chunk):
        cost = A[s:s + chunk] @ W
        cost += const
        out[s:s + chunk] = np.rint(cost.min(axis=1)).astype(np.int64)
    return out


def _cut_flow(X: np.ndarray, net: NetworkIndex) -> np.ndarray:
    """Min cut for each compute split by maximum flow (scipy), for networks with many routers."""
    N, M = net.N, net.M
    src, snk = N + M, N + M + 1
    u = np.concatenate([net.ci, N + net.ru])
    v = np.concatenate([N + net.cr, N + net.rv])
    big = len(net.rows) + 1
    rows_ = np.concatenate([u, v, np.full(N, src), np.arange(N)])
    cols_ = np.concatenate([v, u, np.arange(N), np.full(N, snk)])
    data = np.concatenate([np.ones(2 * len(u), dtype=np.int32), np.zeros(2 * N, dtype=np.int32)])
    g = sp.csr_matrix((data, (rows_, cols_)), shape=(N + M + 2, N + M + 2))
    g.sort_indices()
    # positions of the source and sink arcs in g.data
    coo_pos = {}
    indptr, indices = g.indptr, g.indices
    for node in range(N):
        lo, hi = indptr[src], indptr[src + 1]
        coo_pos.setdefault("s", {})[node] = lo + int(np.searchsorted(indices[lo:hi], node))
        lo, hi = indptr[node], indptr[node + 1]
        coo_pos.setdefault("t", {})[node] = lo + int(np.searchsorted(indices[lo:hi], snk))
    ps = np.array([coo_pos["s"][i] for i in range(N)])
    pt = np.array([coo_pos["t"][i] for i in range(N)])
    out = np.empty(len(X), dtype=np.int64)
    for k, x in enumerate(X.astype(bool)):
        g.data[ps] = np.where(x, big, 0)
        g.data[pt] = np.where(x, 0, big)
        out[k] = csgraph.maximum_flow(g, src, snk).flow_value
    return out


@functools.lru_cache(maxsize=8)
def _splits_all(N: int) -> np.ndarray:
    """Every balanced split of ``N`` compute nodes as a 0/1 matrix, node 0 always on side A (read-only)."""
    P = balanced_bipartitions(N)
    X = np.zeros((P, N), dtype=np.int8)
    X[:, 0] = 1
    if N > 2:
        idx = np.array(list(itertools.combinations(range(1, N), N // 2 - 1)), dtype=np.int64)
        np.put_along_axis(X, idx, 1, axis=1)
    X.setflags(write=False)
    return X


def _splits_sampled(N: int, picks: int, rng: np.random.Generator) -> np.ndarray:
    order = np.argsort(rng.random((picks, N)), axis=1)
    X = np.zeros((picks, N), dtype=np.int8)
    np.put_along_axis(X, order[:, : N // 2], 1, axis=1)
    flip = X[:, 0] == 0
    X[flip] = 1 - X[flip]
    return X


def _min_cuts(X: np.ndarray, net: NetworkIndex, inner: str) -> np.ndarray:
    if inner == "auto":
        inner = "enumerate" if net.M <= 12 else "flow"
    return _cut_enumerate(X, net) if inner == "enumerate" else _cut_flow(X, net)


def bisection_width(connections: Any, *, method: str = "auto", picks: int | None = None,
                    confidence: float | None = None, seed: int | np.random.Generator | None = None,
                    exact_limit: int = 6435, inner: str = "auto") -> BisectionResult:
    """Bisection width: the fewest links whose removal separates two halves of the compute nodes.

    For one split of the compute nodes the routers may sit on either side; the best placement is a
    minimum cut, found exactly (``inner="enumerate"``: all ``2^M`` router sides in whole arrays, used
    for ``M <= 12``; ``inner="flow"``: maximum flow). Over the splits: ``method="exact"`` examines all
    ``balanced_bipartitions(N)`` of them; ``method="sampled"`` draws ``picks`` uniform random splits
    with replacement (or as many as :func:`bisection_picks` needs for ``confidence``) and states the
    confidence of eq. (17); ``"auto"`` is exact when there are at most ``exact_limit`` splits.
    A sampled width is an upper bound on the true one.

    Parameters
    ----------
    connections : a valid database with an even number of compute nodes.
    method : ``"auto"``, ``"exact"`` or ``"sampled"``.
    picks : number of sampled splits (sampled mode).
    confidence : desired confidence in (0, 1) instead of ``picks`` (sampled mode).
    seed : seed or numpy Generator for the samples.
    exact_limit : largest number of splits searched exhaustively by ``"auto"`` (default: N = 16).
    inner : ``"auto"``, ``"enumerate"`` or ``"flow"`` (min cut for one split).

    Returns
    -------
    BisectionResult

    Raises
    ------
    ValueError
        If the database is invalid, ``N`` is odd, ``confidence`` is outside (0, 1), sampled mode lacks
        ``picks``/``confidence`` or needs more than 10^7 picks, or an option is unknown.

    Examples
    --------
    >>> from starlib.netdesign import single_port_network
    >>> bisection_width(single_port_network([], [4])).width          # cut two nodes off the router
    2
    >>> bisection_width(single_port_network([[1, 2]], [2, 2])).width  # cut the router link
    1

    References
    ----------
    Network-design notes, section 8.1 (Thompson's bisection of the compute nodes) and 8.1.1.
    """
    check_choice(method, "method", ("auto", "exact", "sampled"))
    check_choice(inner, "inner", _INNER)
    rows = validate_connections(connections)
    net = NetworkIndex.of(rows)
    N = net.N
    if N % 2:
        raise ValueError(f"N={N} compute nodes is odd: a bisection needs an even number of compute nodes")
    total = balanced_bipartitions(N)
    if picks is not None and confidence is not None:
        raise ValueError("picks and confidence: give one of them, not both")
    if confidence is not None:
        check_real(confidence, "confidence", 0, 1, strict=True, rule="0 < confidence < 1")
    if picks is not None:
        picks = check_int(picks, "picks", 1)
    exact_limit = check_int(exact_limit, "exact_limit", 0)
    exact = method == "exact" or (method == "auto" and total <= exact_limit)
    if exact:
        X = _splits_all(N)
    else:
        if picks is None:
            if confidence is None:
                raise ValueError(f"picks: N={N} has {total} bisections (> exact_limit={exact_limit}); give picks "
                                 "or confidence for a sampled search")
            picks = bisection_picks(confidence, total)
            if picks > _MAX_PICKS:
                raise ValueError(f"confidence={confidence} needs {picks} picks among U={total} bisections, "
                                 f"more than the limit {_MAX_PICKS}; give picks and accept a stated confidence")
        X = _splits_sampled(N, picks, np.random.default_rng(seed))
    cuts = _min_cuts(X, net, inner)
    best = int(np.argmin(cuts))
    half = tuple(int(lab) for lab in net.nodes[X[best].astype(bool)])
    conf = 1.0 if exact else bisection_confidence(len(X), total)
    return BisectionResult(int(cuts[best]), half, int(len(X)), total, exact, conf)


def cut_width(connections: Any, half: Sequence[int], *, inner: str = "auto") -> int:
    """Fewest links to cut to separate the compute nodes ``half`` from the others, routers placed freely.

    The minimum cut for one split of the compute nodes (the quantity :func:`bisection_width` minimises
    over splits); useful to bound a bisection width by a split chosen by hand.

    Parameters
    ----------
    connections : a valid database.
    half : compute-node labels on one side (a non-empty proper subset; ``N/2`` of them for a bisection).
    inner : ``"auto"``, ``"enumerate"`` (all ``2^M`` router sides) or ``"flow"`` (maximum flow).

    Returns
    -------
    int
        The minimum over all placements of the routers.

    Raises
    ------
    ValueError
        If the database is invalid, ``half`` names a label that is not a compute node, is empty or holds all
        compute nodes, or ``inner`` is unknown.

    Examples
    --------
    >>> from starlib.netdesign import daisy_chain
    >>> cut_width(daisy_chain(11, 5), [-1, -2, -3, -4])    # the first router's nodes: cut one router link
    1

    References
    ----------
    Network-design notes, section 8.1 ("determine how many cuts need to be made to separate the two halves").
    """
    check_choice(inner, "inner", _INNER)
    net = NetworkIndex.of(validate_connections(connections))
    pos = {int(c): i for i, c in enumerate(net.nodes)}
    side = {pos[check_compute_label(c, f"half[{i}]", pos)] for i, c in enumerate(half)}
    if not side or len(side) == net.N:
        raise ValueError(f"half has {len(side)} of the {net.N} compute nodes; it must be a non-empty proper subset")
    X = np.zeros((1, net.N), dtype=np.int8)
    X[0, sorted(side)] = 1
    return int(_min_cuts(X, net, inner)[0])


def network_cost(connections: Any, router_cost: float = 1.0, link_cost: float = 0.0) -> float:
    """Cost of a network: ``router_cost`` per router plus ``link_cost`` per connection (cable).

    Parameters
    ----------
    connections : a valid database.
    router_cost, link_cost : unit prices (non-negative).

    Returns
    -------
    float
        ``router_cost M + link_cost E`` for ``M`` routers and ``E`` connections.

    Raises
    ------
    ValueError
        If the database is invalid or a price is negative.

    Examples
    --------
    >>> from starlib.netdesign import NOTES_EXAMPLE_CONNECTIONS
    >>> network_cost(NOTES_EXAMPLE_CONNECTIONS, router_cost=100, link_cost=1)    # 5 routers, 8 cables
    508.0

    References
    ----------
    Network-design notes, section 8.4 eq. (22) (the "cost" term).
    """
    _check_prices(router_cost, link_cost)
    return _cost(NetworkIndex.of(validate_connections(connections)), router_cost, link_cost)


def _check_prices(router_cost: Any, link_cost: Any) -> None:
    check_real(router_cost, "router_cost", 0)
    check_real(link_cost, "link_cost", 0)


def _cost(net: NetworkIndex, router_cost: float, link_cost: float) -> float:
    """``router_cost`` per router plus ``link_cost`` per connection (section 8.4)."""
    return float(router_cost * net.M + link_cost * len(net.rows))


@dataclass(frozen=True)
class Scorer:
    """The weighted score of :func:`weighted_score` with its options fixed and checked (by :func:`weighted_scorer`).

    Scoring many databases with one :class:`Scorer` checks the options once (the evolutionary search of
    :mod:`~starlib.netdesign.evolution` does that).

    Attributes
    ----------
    weights : the weights ``(a, b, c)`` of cost, latency and bisection.
    latency : ``"mean"`` or ``"max"`` hop count.
    count : one of :data:`~starlib.netdesign.hops.HOP_COUNTS`.
    picks, seed, exact_limit : the bisection search's options (:func:`bisection_width`).
    router_cost, link_cost : the prices of :func:`network_cost`.
    """

    weights: tuple[float, float, float]
    latency: str
    count: str
    picks: int | None
    seed: int
    router_cost: float
    link_cost: float
    exact_limit: int

    def parts(self, rows: np.ndarray) -> dict[str, float]:
        """The score of a valid canonical database and its parts (the database is not re-checked).

        Parameters
        ----------
        rows : numpy.ndarray
            The output of :func:`~starlib.netdesign.database.validate_connections`.

        Returns
        -------
        dict
            As :func:`weighted_score` returns it.
        """
        net = NetworkIndex.of(rows)
        a, b, c = self.weights
        out: dict[str, float] = {"cost": _cost(net, self.router_cost, self.link_cost)}
        st = HopStatistics.from_matrix(hop_matrix(net, self.count))
        out["mean_hops"], out["max_hops"] = st.mean, float(st.max)
        if c != 0:
            out["bisection"] = float(bisection_width(rows, picks=self.picks, seed=self.seed,
                                                     exact_limit=self.exact_limit).width)
        else:
            out["bisection"] = float("nan")
        lat = out["mean_hops"] if self.latency == "mean" else out["max_hops"]
        out["score"] = a * out["cost"] + b * lat - (c * out["bisection"] if c != 0 else 0.0)
        return out


def weighted_scorer(weights: Sequence[float] = (0.0, 1.0, 1.0), *, latency: str = "mean", count: str = "routers",
                    picks: int | None = 256, seed: int = 0, router_cost: float = 1.0, link_cost: float = 0.0,
                    exact_limit: int = 6435) -> Scorer:
    """The options of :func:`weighted_score` checked once, as a :class:`Scorer` for many databases.

    Parameters
    ----------
    weights, latency, count, picks, seed, router_cost, link_cost, exact_limit : as in :func:`weighted_score`.

    Returns
    -------
    Scorer

    Raises
    ------
    ValueError
        If a weight is not a finite number, a price is negative, or another option breaks its rule.

    Examples
    --------
    >>> from starlib.netdesign import single_port_network
    >>> weighted_scorer((1, 1, 1)).parts(single_port_network([[1, 2]], [4, 4]))["score"]
    2.571428571428571
    """
    if len(weights) != 3:
        raise ValueError(f"weights={weights!r} must be three numbers (a, b, c) for cost, latency, bisection")
    abc = tuple(check_real(w, f"weights[{i}]") for i, w in enumerate(weights))
    check_choice(latency, "latency", ("mean", "max"))
    check_choice(count, "count", HOP_COUNTS)
    if picks is not None:
        picks = check_int(picks, "picks", 1)
    seed = check_int(seed, "seed", 0, rule="seed >= 0 (fixed, so every network is cut by the same sampled splits)")
    _check_prices(router_cost, link_cost)
    return Scorer(abc, latency, count, picks, seed, router_cost, link_cost, check_int(exact_limit, "exact_limit", 0))


def weighted_score(connections: Any, weights: Sequence[float] = (0.0, 1.0, 1.0), *, latency: str = "mean",
                   count: str = "routers", picks: int | None = 256, seed: int = 0, router_cost: float = 1.0,
                   link_cost: float = 0.0, exact_limit: int = 6435) -> dict[str, float]:
    """The notes' multi-objective fitness ``f = a cost + b latency - c bisection`` (lower is better).

    Eq. (22) writes ``+ c (bisection bandwidth)``; a wider bisection is better, so with non-negative
    weights it enters with a minus sign here. ``latency`` is the mean or maximum router-only hop count;
    the bisection width is exact up to ``exact_limit`` splits and otherwise sampled with ``picks``
    splits drawn from the fixed ``seed`` (the same splits for every network of the same ``N``, so
    scores are comparable).

    Parameters
    ----------
    connections : a valid database.
    weights : ``(a, b, c)``.
    latency : ``"mean"`` or ``"max"``.
    count : ``"routers"`` or ``"links"`` for the hop counts.
    picks : sampled splits for a large network.
    seed : non-negative int seeding the sampled splits.
    router_cost, link_cost : prices for :func:`network_cost`.
    exact_limit : see :func:`bisection_width`.

    Returns
    -------
    dict
        ``cost``, ``mean_hops``, ``max_hops``, ``bisection`` (NaN when ``c = 0``) and ``score``.

    Raises
    ------
    ValueError
        If the database is invalid, a weight is not a finite number, a price is negative, or another option
        breaks its rule.

    Examples
    --------
    >>> from starlib.netdesign import single_port_network
    >>> s = weighted_score(single_port_network([[1, 2]], [4, 4]), weights=(1, 1, 1))
    >>> s["cost"], s["mean_hops"], s["bisection"], s["score"]      # 2 + 44/28 - 1
    (2.0, 1.5714285714285714, 1.0, 2.571428571428571)

    References
    ----------
    Network-design notes, section 8.4 eq. (22).
    """
    sc = weighted_scorer(weights, latency=latency, count=count, picks=picks, seed=seed, router_cost=router_cost,
                         link_cost=link_cost, exact_limit=exact_limit)
    return sc.parts(validate_connections(connections))

