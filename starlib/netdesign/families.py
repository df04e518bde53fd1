"""The network-design notes' networks as command-line families, each declared beside its builder.

Every graph has the compute nodes first, then the routers (:func:`~starlib.netdesign.database.to_array_graph`).
Their sizes follow from the notes' counts without building anything: Solution 1 has ``max_routers(N, m, n)``
routers in ``N n`` private trees (a tree of ``t`` routers has ``t - 1`` links), one link per compute port and one
per pair of compute nodes; Solution 2 has ``min_routers(N, m)`` routers in a path; a random network has at most
one link per two ports. The builders hold the connection database, a label table and the edge list at once:
the size model allows 400 bytes per link and 300 per vertex (resident-set growth measured on builds of 2 * 10^5
to 2 * 10^6 links: 364, 438 and 402 bytes per link for the three, vertices included).

Example
-------
>>> s = NETWORK_FAMILIES["netdesign-tree"].estimate({"N": 5, "m": 5})
>>> g = NETWORK_FAMILIES["netdesign-tree"].build(N=5, m=5)
>>> (s.n, s.m) == (g.n, g.m)
True
"""

from __future__ import annotations

import sys
from typing import Any

from ..family import Family, Param, declared_in, family, family_table, integer
from ..graphs import ArrayGraph
from ..memory import Size
from .constructions import daisy_chain, random_network, tree_network
from .database import to_array_graph
from .routers import check_tree_parameters, max_routers, min_routers

__all__ = ["NETWORK_FAMILIES"]


def _size(routers: int, compute: int, links: int) -> Size:
    return Size.of(compute + routers, links, 400, 300)


def _tree_check(params: dict[str, Any]) -> dict[str, Any]:
    """Solution 1's rules (:func:`~starlib.netdesign.routers.check_tree_parameters`) and ``n < N - 1`` (with
    ``n = N - 1`` every node links to every other and no router is needed)."""
    N, m, n = check_tree_parameters(params["N"], params["m"], params["n"])
    if n == N - 1:
        raise ValueError(f"n={n} = N - 1: every node links directly to every other and no router is needed")
    return params


def _tree_size(N: int, m: int, n: int) -> Size:
    routers = max_routers(N, m, n)
    return _size(routers, N, N * n + (routers - N * n) + N * (N - 1) // 2)


@family("netdesign-tree", kind="netdesign", size=_tree_size, check=_tree_check,
        summary="network-design notes, Solution 1: max_routers(N, m, n) routers in private trees",
        params={"N": Param(integer(3, note="(compute nodes)")), "m": Param(integer(3, note="(router ports)")),
                "n": Param(integer(1, note="(ports per compute node, n < N-1)"), False, 1)})
def _graph_tree(N: int, m: int, n: int = 1) -> ArrayGraph:
    return to_array_graph(tree_network(N, m, n), "netdesign-tree", {"N": N, "m": m, "n": n})


def _chain_size(N: int, m: int) -> Size:
    routers = min_routers(N, m)
    return _size(routers, N, N + routers - 1)


@family("netdesign-chain", kind="netdesign", size=_chain_size,
        summary="network-design notes, Solution 2: min_routers(N, m) routers in a daisy chain",
        params={"N": Param(integer(3, note="(compute nodes)")), "m": Param(integer(3, note="(router ports)"))})
def _graph_chain(N: int, m: int) -> ArrayGraph:
    return to_array_graph(daisy_chain(N, m), "netdesign-chain", {"N": N, "m": m})


def _random_check(params: dict[str, Any]) -> dict[str, Any]:
    """Section 4's rules: ``n <= M`` distinct routers per node, ``N n + 2(M-1) <= M m`` router ports."""
    N, n, M, m = params["N"], params["n"], params["M"], params["m"]
    if n > M:
        raise ValueError(f"n={n} is too large: need 1 <= n <= M = {M} (a compute node plugs into distinct routers)")
    if N * n + 2 * (M - 1) > M * m:
        raise ValueError(f"m: the {M * m} router ports cannot hold N*n = {N * n} compute ports plus "
                         f"2(M-1) = {2 * (M - 1)} ports of a spanning tree (rule N n + 2(M-1) <= sum of m)")
    return params


@family("netdesign-random", kind="netdesign", check=_random_check,
        size=lambda N, n, M, m, seed: _size(M, N, N * n + (M * m - N * n) // 2),  # at most one link per two ports
        summary="network-design notes, section 4: a random valid network",
        params={"N": Param(integer(2, note="(compute nodes)")),
                "n": Param(integer(1, note="(ports per compute node, n <= M)")),
                "M": Param(integer(1, note="(routers)")),
                "m": Param(integer(1, note="(router ports, N n + 2(M-1) <= M m)")),
                "seed": Param(integer(0, note="(random seed)"), False, 0)})
def _graph_random(N: int, n: int, M: int, m: int, seed: int = 0) -> ArrayGraph:
    return to_array_graph(random_network(N, n, M, m, seed), "netdesign-random",
                          {"N": N, "n": n, "M": M, "m": m, "seed": seed})


#: The notes' networks as network families for the command line, in the order of their declarations.
NETWORK_FAMILIES: dict[str, Family] = family_table(declared_in(sys.modules[__name__]))
