"""The cut ratio, the strength and the allreduce bounds of starlib.allreduce.optimum, against independent sources.

Every set (cut ratio) and every partition (strength) of small random graphs, with random integer capacities and
compute masks; Dinkelbach with networkx's minimum cuts on medium graphs; the exact EDST packer (matroid
partition: ``floor(strength)`` trees by Nash-Williams and Tutte); networkx's edge connectivity (the best 2-part
partition); closed forms; and the gossip step of the lower bound by exhaustive search over call sequences.
"""

from __future__ import annotations

from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce import (
    CutRatio,
    Strength,
    allreduce_lower_bound_us,
    cut_ratio,
    forestcoll_time_us,
    strength,
)
from starlib.api import network
from starlib.edst.packing import generic_packing
from starlib.graphs import ArrayGraph, as_graph
from tests.edst.product.test_constructions import random_connected  # a random tree plus random edges


# -- brute force -------------------------------------------------------------------------------------------------------
def boundary(e: np.ndarray, cap: np.ndarray, inside: np.ndarray) -> int:
    return int(cap[inside[e[:, 0]] != inside[e[:, 1]]].sum())


def brute_cut_ratio(n: int, e: np.ndarray, cap: np.ndarray, comp: np.ndarray) -> Fraction:
    """max |S & V_c| / c(delta(S)) over every nonempty S that leaves a compute node outside."""
    best = None
    for mask in range(1, 2**n):
        inside = (mask >> np.arange(n)) & 1 == 1
        if (comp & ~inside).any():
            r = Fraction(int((inside & comp).sum()), boundary(e, cap, inside))
            best = r if best is None or r > best else best
    return best


def set_partitions(items: list[int]):
    """Every partition of ``items`` (a list of blocks)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for p in set_partitions(rest):
        for k in range(len(p)):
            yield p[:k] + [[first] + p[k]] + p[k + 1:]
        yield [[first]] + p


def labels_of(n: int, blocks: list[list[int]]) -> np.ndarray:
    lab = np.empty(n, dtype=np.int64)
    for k, block in enumerate(blocks):
        lab[block] = k
    return lab


def partition_ratio(e: np.ndarray, cap: np.ndarray, lab: np.ndarray) -> Fraction:
    return Fraction(int(cap[lab[e[:, 0]] != lab[e[:, 1]]].sum()), int(len(np.unique(lab))) - 1)


def brute_strength(n: int, e: np.ndarray, cap: np.ndarray) -> Fraction:
    """min c(E(P)) / (|P| - 1) over every partition with at least two parts."""
    return min(partition_ratio(e, cap, labels_of(n, p)) for p in set_partitions(list(range(n))) if len(p) >= 2)


def cases(seed: int, count: int, sizes: tuple[int, int]):
    """Seeded random connected graphs with unit or random capacities and random compute masks."""
    rng = np.random.default_rng(seed)
    for k in range(count):
        n = int(rng.integers(*sizes))
        g = random_connected(n, rng.uniform(0, 0.7), rng)
        cap = np.ones(g.m, dtype=np.int64) if k % 3 == 0 else rng.integers(1, 6, size=g.m)
        comp = rng.random(n) < 0.6
        if comp.sum() < 2:
            comp[:] = True
        yield g, cap, comp


# -- the cut ratio -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cut_ratio_is_the_maximum_over_every_set(seed):
    for g, cap, comp in cases(seed, 40, (2, 10)):
        r = cut_ratio(g, cap, comp)
        assert isinstance(r, CutRatio) and r.value == brute_cut_ratio(g.n, g.edges, cap, comp)
        inside = np.zeros(g.n, dtype=bool)
        inside[r.cut] = True
        # the set attains the value and is one the maximum ranges over
        assert r.cut.size and (comp & ~inside).any()
        assert Fraction(int((inside & comp).sum()), boundary(g.edges, cap, inside)) == r.value
        # all compute nodes by default
        assert cut_ratio(g, cap).value == brute_cut_ratio(g.n, g.edges, cap, np.ones(g.n, dtype=bool))


def nx_cut_ratio(g: ArrayGraph, cap: np.ndarray, comp: np.ndarray) -> Fraction:
    """Dinkelbach's iteration with networkx's minimum cuts, every compute node as the sink in every round, and the
    most violated set taken (no forcing, no sweep): a second computation of the cut ratio."""
    big = int(comp.sum())
    best = Fraction(1, int(cap.sum()))
    while True:
        p, q = best.numerator, best.denominator
        top, top_set = 0, None
        for t in np.flatnonzero(comp).tolist():
            h = nx.DiGraph()
            for (u, v), c in zip(g.edges.tolist(), cap.tolist(), strict=True):
                h.add_edge(u, v, capacity=p * c)
                h.add_edge(v, u, capacity=p * c)
            for v in np.flatnonzero(comp).tolist():
                h.add_edge("s", v, capacity=q)
            value, (side, _) = nx.minimum_cut(h, "s", t)
            if q * big - value > top:
                top, top_set = q * big - value, side - {"s"}
        if top_set is None:
            return best
        inside = np.zeros(g.n, dtype=bool)
        inside[list(top_set)] = True
        best = Fraction(int((inside & comp).sum()), boundary(g.edges, cap, inside))


def test_cut_ratio_agrees_with_networkx_minimum_cuts_on_medium_graphs():
    for g, cap, comp in cases(11, 8, (14, 26)):
        assert cut_ratio(g, cap, comp).value == nx_cut_ratio(g, cap, comp)


# -- the strength ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [4, 5])
def test_strength_is_the_minimum_over_every_partition(seed):
    for g, cap, _ in cases(seed, 40, (2, 9)):
        s = strength(g, cap)
        assert isinstance(s, Strength) and s.value == brute_strength(g.n, g.edges, cap)
        # the partition attains it; labels 0..|P|-1 in the order of the parts' smallest vertices
        lab = s.partition
        assert len(np.unique(lab)) >= 2 and partition_ratio(g.edges, cap, lab) == s.value
        firsts = [int(np.flatnonzero(lab == k)[0]) for k in range(int(lab.max()) + 1)]
        assert firsts == sorted(firsts)


def test_strength_at_nine_vertices_and_capacities():
    rng = np.random.default_rng(6)
    for _ in range(2):
        g = random_connected(9, 0.4, rng)
        cap = rng.integers(1, 4, size=g.m)
        assert strength(g, cap).value == brute_strength(9, g.edges, cap)


def test_floor_of_the_strength_is_the_number_of_edsts():
    # Nash-Williams and Tutte: a graph has k EDSTs iff c(E(P)) >= k (|P| - 1) for every partition, so the maximum
    # is floor(strength); the packer finds it by matroid partition, with no cut or partition search
    rng = np.random.default_rng(7)
    for _ in range(12):
        g = random_connected(int(rng.integers(10, 30)), 0.3, rng)
        assert generic_packing(g).count == int(strength(g).value)
    for name, params in [("polarfly", {"q": 5}), ("polarfly", {"q": 4}), ("slimfly", {"q": 5})]:
        g = network(name, **params)
        assert generic_packing(g).count == int(strength(g).value)


def test_strength_against_edge_connectivity():
    # the 2-part partitions give the edge connectivity (networkx), so strength <= lambda; and every part of a
    # partition has lambda links leaving it, so strength >= lambda p / (2 (p - 1)) > lambda / 2
    rng = np.random.default_rng(8)
    for _ in range(20):
        g = random_connected(int(rng.integers(3, 20)), rng.uniform(0, 0.6), rng)
        lam = nx.edge_connectivity(g.to_networkx())
        s = strength(g).value
        assert Fraction(lam, 2) < s <= lam
    for n in range(3, 9):  # the best 2-part partition of every set, brute force, is networkx's edge connectivity
        g = random_connected(n, 0.4, rng)
        two = min(partition_ratio(g.edges, np.ones(g.m, np.int64), labels_of(n, p))
                  for p in set_partitions(list(range(n))) if len(p) == 2)
        assert two == nx.edge_connectivity(g.to_networkx())


@pytest.mark.parametrize("graph, value", [
    (nx.complete_graph(7), Fraction(7, 2)),                 # n (n-1)/2 links over n - 1
    (nx.cycle_graph(9), Fraction(9, 8)),
    (nx.path_graph(6), Fraction(1)),                        # a tree: every link is a bridge
    (nx.complete_bipartite_graph(3, 4), Fraction(12, 6)),   # ab / (a + b - 1)
    (nx.barbell_graph(5, 0), Fraction(1)),                  # two K_5 joined by a bridge
])
def test_strength_closed_forms(graph, value):
    assert strength(graph).value == value


def test_polarfly_q_odd_trees_meet_the_strength():
    # ER_q: m/(n-1) = (q+1)/2 bounds the strength, and for q odd the (q+1)/2 trees the packer finds attain it
    for q in (3, 5, 7):
        g = network("polarfly", q=q)
        assert strength(g).value == Fraction(q + 1, 2) == generic_packing(g).count


# -- the two together: ForestColl's reduce-scatter + allgather never beats the bound -----------------------------------
def test_forestcoll_time_is_at_least_the_lower_bound():
    # 2 rho sigma >= N (docs/collectives.md), with equality exactly when every part of a strength-optimal
    # partition has a complement that attains the cut ratio; checked over every partition by brute force
    for g, cap, _ in cases(9, 40, (2, 9)):
        n, e = g.n, g.edges
        rho = cut_ratio(g, cap).value
        sigma = strength(g, cap).value
        assert 2 * rho * sigma >= n
        attains = []
        for p in set_partitions(list(range(n))):
            lab = labels_of(n, p)
            if len(p) >= 2 and partition_ratio(e, cap, lab) == sigma:
                attains.append(all(Fraction(n - len(b), boundary(e, cap, lab == k)) == rho for k, b in enumerate(p)))
        assert (2 * rho * sigma == n) == any(attains)
        # in the time functions: no delay, the bandwidth terms
        lb = allreduce_lower_bound_us(g, 10**6, 100.0, 0.0, capacity=cap)
        fc = forestcoll_time_us(g, 10**6, 100.0, capacity=cap)
        assert fc >= lb - 1e-3


# -- times -------------------------------------------------------------------------------------------------------------
def test_times_by_hand():
    k6 = nx.complete_graph(6)  # strength 3, diameter 1; cut ratio 5/5 = 1
    # 1 Gbit/s = 125 bytes per microsecond: 3 * 10^6 bytes over 3 unit links of 100 Gbit/s
    assert allreduce_lower_bound_us(k6, 3 * 10**6, 100.0, 2.0) == 3 * 10**6 / (12_500 * 3)
    assert allreduce_lower_bound_us(k6, 3, 100.0, 2.0) == 2.0          # latency: diameter 1 times 2 us
    assert forestcoll_time_us(k6, 3 * 10**6, 100.0) == 2 * (3 * 10**6 / 6) * 1 / 12_500
    c8 = nx.cycle_graph(8)  # strength 8/7, diameter 4; cut ratio 7/2
    assert allreduce_lower_bound_us(c8, 8 * 10**5, 100.0, 1.0) == round(8 * 10**5 * 7 / (12_500 * 8), 3)
    assert allreduce_lower_bound_us(c8, 8, 100.0, 1.0) == 4.0
    assert forestcoll_time_us(c8, 8 * 10**5, 100.0) == round(2 * 10**5 * Fraction(7, 2) / 12_500, 3)
    # doubled capacities halve the bandwidth terms; compute nodes 0 and 4 of the cycle: N = 2, cut ratio 1/2
    two = np.full(8, 2)
    assert allreduce_lower_bound_us(c8, 8 * 10**5, 100.0, 0.0, capacity=two) == \
        round(8 * 10**5 * 7 / (12_500 * 16), 3)
    mask = np.zeros(8, dtype=bool)
    mask[[0, 4]] = True
    assert forestcoll_time_us(c8, 8 * 10**5, 100.0, compute=mask) == 2 * 4 * 10**5 * 0.5 / 12_500


# -- the gossip step of the lower bound --------------------------------------------------------------------------------
def fewest_calls(graph: nx.Graph) -> int:
    """The fewest one-way calls (a sender passes all it knows to a neighbour) after which every vertex knows every
    vertex's input: breadth-first search over the knowledge states."""
    nodes = sorted(graph.nodes())
    p = len(nodes)
    full = (1 << p) - 1
    start = tuple(1 << i for i in range(p))
    arcs = [(u, v) for u, v in graph.edges()] + [(v, u) for u, v in graph.edges()]
    seen, frontier, calls = {start}, [start], 0
    while True:
        if any(all(k == full for k in state) for state in frontier):
            return calls
        nxt = []
        for state in frontier:
            for u, v in arcs:
                new = list(state)
                new[v] |= state[u]
                new = tuple(new)
                if new not in seen:
                    seen.add(new)
                    nxt.append(new)
        frontier, calls = nxt, calls + 1


@pytest.mark.parametrize("graph", [nx.path_graph(2), nx.path_graph(3), nx.complete_graph(3), nx.path_graph(4),
                                   nx.star_graph(3), nx.cycle_graph(4), nx.complete_graph(4), nx.path_graph(5),
                                   nx.star_graph(4)])
def test_gossip_among_p_parts_needs_2p_minus_2_calls(graph):
    # Harary and Schwenk: 2(p-1) one-way calls at least, on any connected graph, and a tree attains it (in to a
    # vertex, then out)
    assert fewest_calls(graph) == 2 * (graph.number_of_nodes() - 1)


# -- bad input ---------------------------------------------------------------------------------------------------------
def test_bad_input_is_refused_with_the_rule():
    g = nx.cycle_graph(4)
    with pytest.raises(ValueError, match="not connected .2 components"):
        cut_ratio(nx.disjoint_union(nx.path_graph(2), nx.path_graph(3)))
    with pytest.raises(ValueError, match="not connected"):
        strength(nx.Graph([(0, 1), (2, 3)]))
    with pytest.raises(ValueError, match="1 vertex: need at least 2"):
        strength(nx.empty_graph(1))
    with pytest.raises(ValueError, match="capacity: need one value per link"):
        strength(g, [1, 2, 3])
    with pytest.raises(ValueError, match="capacity: link capacities must be integers"):
        cut_ratio(g, [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="capacity: a link has capacity 0: need positive integers"):
        strength(g, [1, 0, 1, 1])
    with pytest.raises(ValueError, match="too large for 64-bit"):
        strength(g, [2**59, 1, 1, 1])
    with pytest.raises(ValueError, match="compute: need a boolean mask of the 4 vertices"):
        cut_ratio(g, compute=[1, 1, 0, 0])
    with pytest.raises(ValueError, match="compute: 1 compute node.s.: need at least 2"):
        cut_ratio(g, compute=np.array([True, False, False, False]))
    with pytest.raises(ValueError, match="a directed graph"):
        strength(ArrayGraph.from_edges(range(3), [[0, 1], [1, 2]], directed=True))
    with pytest.raises(ValueError, match="size_bytes"):
        allreduce_lower_bound_us(g, 0, 100.0, 1.0)
    with pytest.raises(ValueError, match="link_gbps"):
        forestcoll_time_us(g, 10, -1.0)
    with pytest.raises(ValueError, match="delay_us"):
        allreduce_lower_bound_us(g, 10, 100.0, -1.0)


def test_results_are_read_only_and_loops_ignored():
    g = ArrayGraph(list(range(3)), np.array([[0, 0], [0, 1], [1, 2], [0, 2]]))  # a loop at 0 crosses no cut
    assert strength(g, [5, 1, 1, 1]).value == Fraction(3, 2) == strength(as_graph(nx.cycle_graph(3))).value
    r = cut_ratio(g)
    with pytest.raises(ValueError):
        r.cut[0] = 1
