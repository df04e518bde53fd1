"""The network-design notes' networks as command-line families (``starlib.registry.Family`` records)."""

from __future__ import annotations

from ..graphs import ArrayGraph
from ..registry import Family, Param, family_table
from .constructions import daisy_chain, random_network, tree_network
from .database import to_array_graph

__all__ = ["NETWORK_FAMILIES"]


def _graph_tree(N: int, m: int, n: int = 1) -> ArrayGraph:
    return to_array_graph(tree_network(N, m, n), "netdesign-tree", {"N": N, "m": m, "n": n})


def _graph_chain(N: int, m: int) -> ArrayGraph:
    return to_array_graph(daisy_chain(N, m), "netdesign-chain", {"N": N, "m": m})


def _graph_random(N: int, n: int, M: int, m: int, seed: int = 0) -> ArrayGraph:
    return to_array_graph(random_network(N, n, M, m, seed), "netdesign-random",
                          {"N": N, "n": n, "M": M, "m": m, "seed": seed})


#: The notes' networks as network families for the command line (``starlib.registry.Family`` records).
NETWORK_FAMILIES: dict[str, Family] = family_table(
    Family("netdesign-tree", _graph_tree,
           {"N": Param(int, "compute nodes N > 2"), "m": Param(int, "router ports m > 2"),
            "n": Param(int, "ports per compute node 1 <= n < N-1", 1, False)},
           "network-design notes, Solution 1: max_routers(N, m, n) routers in private trees", kind="netdesign"),
    Family("netdesign-chain", _graph_chain,
           {"N": Param(int, "compute nodes N >= 3"), "m": Param(int, "router ports m > 2")},
           "network-design notes, Solution 2: min_routers(N, m) routers in a daisy chain", kind="netdesign"),
    Family("netdesign-random", _graph_random,
           {"N": Param(int, "compute nodes N >= 2"), "n": Param(int, "ports per compute node 1 <= n <= M"),
            "M": Param(int, "routers M >= 1"), "m": Param(int, "router ports, N n + 2(M-1) <= M m"),
            "seed": Param(int, "random seed", 0, False)},
           "network-design notes, section 4: a random valid network", kind="netdesign"),
)
