"""Tests for starlib.allreduce.hamiltonian: Hamiltonian cycles, one or several edge-disjoint.

Independent sources: networkx (the graph's edges, the cycle's vertices), an exhaustive search written here (which
graphs have a Hamiltonian cycle), Walecki's decomposition of K_n for odd n into (n - 1)/2 Hamiltonian cycles, and
the degree bound floor(min degree / 2) on edge-disjoint Hamiltonian cycles.
"""

import itertools

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce.hamiltonian import _cp_sat, disjoint_hamiltonian_cycles, hamiltonian_cycle, is_hamiltonian_cycle
from starlib.api import network


def assert_hamiltonian(g: nx.Graph, cycle) -> set:
    """Check with networkx that ``cycle`` is a Hamiltonian cycle of ``g``; its edges as a set of frozensets."""
    c = [int(v) for v in cycle]
    assert sorted(c) == sorted(g.nodes)
    hops = {frozenset((a, b)) for a, b in zip(c, c[1:] + c[:1], strict=True)}
    assert len(hops) == len(c)
    assert all(g.has_edge(*tuple(h)) for h in hops)
    return hops


def assert_disjoint(g: nx.Graph, cycles) -> None:
    seen: set = set()
    for c in cycles:
        hops = assert_hamiltonian(g, c)
        assert not hops & seen
        seen |= hops


def brute_force_hamiltonian(g: nx.Graph) -> bool:
    """Exhaustive depth-first search over paths from vertex 0 (every Hamiltonian cycle passes through it)."""
    n = g.number_of_nodes()
    if n < 3:
        return False
    adj = {v: set(g[v]) for v in g}

    def extend(path: list, seen: set) -> bool:
        if len(path) == n:
            return path[0] in adj[path[-1]]
        return any(extend(path + [w], seen | {w}) for w in adj[path[-1]] if w not in seen)

    return extend([0], {0})


def as_nx(G):
    g = nx.Graph()
    g.add_nodes_from(range(G.n))
    g.add_edges_from(G.edges.tolist())
    return g


SMALL = [("polarfly", {"q": 3}), ("polarfly", {"q": 7}), ("slimfly", {"q": 3}), ("slimfly", {"q": 5}),
         ("bundlefly", {"q": 3, "paley_q": 5})]


@pytest.mark.parametrize(("name", "params"), SMALL)
def test_networks_cycles_are_hamiltonian_and_disjoint(name, params):
    G = network(name, **params)
    g = as_nx(G)
    assert_hamiltonian(g, hamiltonian_cycle(G))
    cycles = disjoint_hamiltonian_cycles(G)
    assert 1 <= len(cycles) <= min(d for _, d in g.degree) // 2
    assert_disjoint(g, cycles)


@pytest.mark.parametrize("n", [5, 7, 9, 11])
def test_complete_graph_walecki(n):
    g = nx.complete_graph(n)
    cycles = disjoint_hamiltonian_cycles(g)
    assert len(cycles) == (n - 1) // 2
    assert_disjoint(g, cycles)
    # (n - 1)/2 cycles of n edges each: every edge of K_n, a Hamiltonian decomposition
    assert sum(len(c) for c in cycles) == n * (n - 1) // 2


def test_complete_graph_even():
    # K_8: degree 7 bounds the count by 3, and K_8 has 3 disjoint Hamiltonian cycles (plus a perfect matching)
    g = nx.complete_graph(8)
    cycles = disjoint_hamiltonian_cycles(g)
    assert len(cycles) == 3
    assert_disjoint(g, cycles)


def test_petersen_has_none():
    g = nx.petersen_graph()
    assert not brute_force_hamiltonian(g)
    assert hamiltonian_cycle(g) is None
    assert disjoint_hamiltonian_cycles(g) == []
    # without the exact fallback the heuristic alone reports not found as well
    assert hamiltonian_cycle(g, exact_limit=0, restarts=4) is None


def random_graphs(count: int, seed: int):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(4, 10))
        p = float(rng.uniform(0.25, 0.7))
        yield nx.gnp_random_graph(n, p, seed=int(rng.integers(1 << 30)))


def test_random_small_graphs_agree_with_brute_force():
    for g in random_graphs(60, 3):
        c = hamiltonian_cycle(g)
        assert (c is not None) == brute_force_hamiltonian(g), sorted(g.edges)
        if c is not None:
            assert_hamiltonian(g, c)


def test_exact_alone_agrees_with_brute_force():
    # restarts=0: CP-SAT decides every case
    for g in random_graphs(30, 11):
        c = hamiltonian_cycle(g, restarts=0)
        assert (c is not None) == brute_force_hamiltonian(g), sorted(g.edges)
        if c is not None:
            assert_hamiltonian(g, c)


def test_joint_model():
    # all cycles at once: K_7 has 21 edges, room for 3 Hamiltonian cycles of 7 and not for 4
    e = np.array(sorted(nx.complete_graph(7).edges))
    status, cycles = _cp_sat(7, e, 3, 10.0, 0)
    assert status in ("OPTIMAL", "FEASIBLE") and len(cycles) == 3
    assert_disjoint(nx.complete_graph(7), cycles)
    assert _cp_sat(7, e, 4, 10.0, 0) == ("INFEASIBLE", [])
    # a hint (a cycle found before) is only a hint: the answer is still three disjoint cycles
    status, hinted = _cp_sat(7, e, 3, 10.0, 0, hint=[hamiltonian_cycle(nx.complete_graph(7), seed=3)])
    assert len(hinted) == 3
    assert_disjoint(nx.complete_graph(7), hinted)
    # the exact search alone, one cycle after the other and then jointly, still finds Walecki's count
    cycles = disjoint_hamiltonian_cycles(nx.complete_graph(9), restarts=0)
    assert len(cycles) == 4
    assert_disjoint(nx.complete_graph(9), cycles)


def test_heuristic_alone_on_hamiltonian_graphs():
    # graphs with a planted Hamiltonian cycle plus random chords: the heuristic (no CP-SAT) finds one
    rng = np.random.default_rng(5)
    for n in (30, 200, 1000):
        perm = rng.permutation(n)
        g = nx.Graph(list(zip(perm.tolist(), np.roll(perm, 1).tolist(), strict=True)))
        for a, b in rng.integers(0, n, (3 * n, 2)).tolist():
            if a != b:
                g.add_edge(a, b)
        c = hamiltonian_cycle(g, exact_limit=0)
        assert c is not None
        assert_hamiltonian(g, c)


def test_hypercube_disjoint():
    # Q_4 is 4-regular and has 2 edge-disjoint Hamiltonian cycles (hypercubes of even dimension decompose)
    g = nx.convert_node_labels_to_integers(nx.hypercube_graph(4))
    cycles = disjoint_hamiltonian_cycles(g)
    assert len(cycles) == 2
    assert_disjoint(g, cycles)


def test_necessary_conditions():
    assert hamiltonian_cycle(nx.path_graph(5)) is None  # degree 1
    two = nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4))
    assert hamiltonian_cycle(two) is None  # disconnected
    assert hamiltonian_cycle(nx.complete_graph(2)) is None
    assert brute_force_hamiltonian(nx.complete_graph(3))
    assert hamiltonian_cycle(nx.complete_graph(3)).tolist() == [0, 1, 2]


def test_avoid():
    g = nx.complete_graph(7)
    first = hamiltonian_cycle(g)
    used = np.stack([first, np.roll(first, -1)], axis=1)
    second = hamiltonian_cycle(g, avoid=used)
    assert_disjoint(g, [first, second])
    # a cycle graph avoiding one of its edges has no Hamiltonian cycle
    assert hamiltonian_cycle(nx.cycle_graph(6), avoid=np.array([[2, 3]])) is None


def test_max_cycles():
    g = nx.complete_graph(9)
    assert len(disjoint_hamiltonian_cycles(g, max_cycles=2)) == 2
    assert disjoint_hamiltonian_cycles(g, max_cycles=0) == []


def test_canonical_form():
    c = hamiltonian_cycle(nx.complete_graph(6), seed=4)
    assert c[0] == 0 and c[1] < c[-1]


def test_deterministic():
    G = network("polarfly", q=7)
    a = [c.tobytes() for c in disjoint_hamiltonian_cycles(G, seed=2)]
    b = [c.tobytes() for c in disjoint_hamiltonian_cycles(G, seed=2)]
    assert a == b
    assert hamiltonian_cycle(G, seed=9).tobytes() == hamiltonian_cycle(G, seed=9).tobytes()
    # other seeds find other cycles (on this graph some two of three differ)
    got = {hamiltonian_cycle(G, seed=s).tobytes() for s in range(3)}
    assert len(got) > 1


def test_is_hamiltonian_cycle():
    e = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]])
    assert is_hamiltonian_cycle(4, e, np.array([0, 1, 2, 3]))
    assert not is_hamiltonian_cycle(4, e, np.array([0, 2, 1, 3]))  # 1-3 is no edge
    assert not is_hamiltonian_cycle(4, e, np.array([0, 1, 2]))
    assert not is_hamiltonian_cycle(4, e, np.array([0, 1, 1, 3]))
    for perm in itertools.permutations(range(4)):
        g = nx.Graph(e.tolist())
        ok = all(g.has_edge(a, b) for a, b in zip(perm, perm[1:] + perm[:1], strict=True))
        assert is_hamiltonian_cycle(4, e, np.array(perm)) == ok


@pytest.mark.parametrize(("kw", "name"), [({"seed": -1}, "seed"), ({"restarts": -1}, "restarts"),
                                          ({"exact_limit": -1}, "exact_limit"), ({"time_limit": 0}, "time_limit"),
                                          ({"avoid": np.array([[0, 9]])}, "avoid")])
def test_bad_input(kw, name):
    with pytest.raises(ValueError, match=name):
        hamiltonian_cycle(nx.complete_graph(5), **kw)


def test_bad_input_disjoint():
    with pytest.raises(ValueError, match="max_cycles"):
        disjoint_hamiltonian_cycles(nx.complete_graph(5), max_cycles=-1)
    with pytest.raises(ValueError, match="attempts"):
        disjoint_hamiltonian_cycles(nx.complete_graph(5), attempts=0)
