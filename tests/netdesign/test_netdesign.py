"""starlib.netdesign against hand-checked cases from the notes, brute-force enumeration and second methods."""

import itertools
import math
from fractions import Fraction

import mpmath
import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib import netdesign as nd

EXAMPLE = [[-1, 4], [-2, 4], [-2, 5], [-3, 5], [3, 5], [1, 3], [1, 2], [2, 4]]  # notes, eq. (21)


# ------------------------------------------------------------------------------------------------ section 6
def test_notes_router_count_examples():
    # N = 1000, m = 24, n = 1: log(999)/log(23) = 2.20 -> k = 3, 1000 * (1 + 23 + 529)
    assert nd.tree_levels(1000, 24) == 3
    assert nd.max_routers(1000, 24) == 553_000  # the notes' value
    assert nd.min_routers(1000, 24) == 46  # ceil(998 / 22) = ceil(45.36); the notes' value
    # n = 2: 2 * 23 = 46 < 999 <= 2 * 23^2 = 1058 -> k = 2, 1000 * 2 * (1 + 23); the notes print 72,000
    assert nd.tree_levels(1000, 24, 2) == 2
    assert nd.max_routers(1000, 24, 2) == 48_000


@pytest.mark.parametrize("m", [3, 4, 5, 6, 24])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_tree_levels_is_least_k(m, n):
    for N in range(n + 2, 300, 7):
        k = nd.tree_levels(N, m, n)
        assert n * (m - 1) ** k >= N - 1
        assert k == 0 or n * (m - 1) ** (k - 1) < N - 1


def test_tree_levels_exact_where_float_ceil_fails():
    # the Octave/Python expression ceil(log((N-1)/n)/log(m-1)) overshoots at 125 = 5^3
    assert math.ceil(math.log(125) / math.log(5)) == 4
    assert nd.tree_levels(126, 6) == 3
    assert nd.max_routers(126, 6) == 126 * (1 + 5 + 25)


@pytest.mark.parametrize(("N", "m", "n"), [(5, 5, 1), (17, 5, 1), (10, 5, 1), (9, 5, 2), (17, 5, 2), (20, 4, 3),
                                           (7, 3, 1), (12, 3, 2), (30, 6, 4)])
def test_tree_network_counts_match_the_formula(N, m, n):
    db = nd.tree_network(N, m, n)
    k = nd.tree_levels(N, m, n)
    routers = nd.router_labels(db)
    ports = nd.port_counts(db)
    assert len(routers) == nd.max_routers(N, m, n)  # counted in the built network
    assert nd.is_valid_connections(db, router_ports=m, node_ports=n)
    assert all(ports[c] == n for c in nd.compute_nodes(db))
    empty = len(routers) * m - sum(ports[r] for r in routers)
    assert empty == N * (n * (m - 1) ** k - (N - 1))  # zero exactly when eq. (8) holds with equality
    assert nd.hop_statistics(db).histogram == {2 * k: N * (N - 1) // 2}  # down k levels, up k levels


def _min_routers_by_search(N, m, max_M=6):
    """Fewest m-port routers holding N one-port nodes, by enumerating every router graph."""
    for M in range(1, max_M + 1):
        pairs = list(itertools.combinations(range(M), 2))
        for mask in range(2 ** len(pairs)):
            g = nx.empty_graph(M)
            g.add_edges_from(p for i, p in enumerate(pairs) if mask >> i & 1)
            if not nx.is_connected(g) or max(d for _, d in g.degree()) > m:
                continue
            if sum(m - d for _, d in g.degree()) >= N:
                return M
    return None


@pytest.mark.parametrize("m", [3, 4, 5])
def test_min_routers_against_enumeration(m):
    for N in range(3, 3 * m):
        M = _min_routers_by_search(N, m)
        if M is None:
            continue
        assert nd.min_routers(N, m) == M, (N, m)
        db = nd.daisy_chain(N, m)
        assert len(nd.router_labels(db)) == M
        assert len(nd.compute_nodes(db)) == N
        assert nd.is_valid_connections(db, router_ports=m, node_ports=1)


def test_daisy_chain_figures():
    # Figs. 10-13 (m = 5): 5; 4 + 4; 4 + 3 + 4; 4 + 3 + 3 + 4
    for N, loads in [(5, [5]), (8, [4, 4]), (11, [4, 3, 4]), (14, [4, 3, 3, 4])]:
        db = nd.daisy_chain(N, 5)
        ports = nd.port_counts(db)
        assert [ports[r] - (2 if 1 < r < len(loads) else (1 if len(loads) > 1 else 0))
                for r in nd.router_labels(db)] == loads
        assert nd.is_valid_connections(db, router_ports=5, node_ports=1, full=True)
        assert nd.hop_statistics(db).max == len(loads)


def test_router_count_errors_name_the_rule():
    with pytest.raises(ValueError, match=r"m=2 .*m > 2"):
        nd.max_routers(10, 2)
    with pytest.raises(ValueError, match=r"N=2 .*N > 2"):
        nd.tree_levels(2, 5)
    with pytest.raises(ValueError, match=r"n=10 .*n <= N - 1"):
        nd.max_routers(10, 5, 10)
    with pytest.raises(ValueError, match=r"m=2"):
        nd.min_routers(10, 2)
    with pytest.raises(ValueError, match=r"N=2 .*N >= 3"):
        nd.min_routers(2, 5)
    with pytest.raises(ValueError, match=r"N=1\.5"):
        nd.min_routers(1.5, 5)
    with pytest.raises(ValueError, match=r"no router is needed"):
        nd.tree_network(6, 4, 5)
    assert nd.max_routers(6, 4, 5) == 0  # n = N - 1: direct links, no routers


# ------------------------------------------------------------------------------------------------ section 8.1.1
def test_balanced_bipartitions_by_enumeration():
    for N in (2, 4, 6, 8, 10):
        nodes = frozenset(range(N))
        splits = {frozenset({frozenset(a), nodes - frozenset(a)}) for a in itertools.combinations(nodes, N // 2)}
        assert nd.balanced_bipartitions(N) == len(splits)
    assert [nd.balanced_bipartitions(N) for N in (4, 6)] == [3, 10]  # the notes' lists 12|34 ... and 10 for N = 6


def test_notes_closed_form_for_bipartitions_is_wrong_beyond_six():
    notes = {N: sum(range(1, (N + 2) // 2 + 1)) for N in (4, 6, 8, 10)}
    assert notes[6] == nd.balanced_bipartitions(6) == 10
    assert (notes[8], nd.balanced_bipartitions(8)) == (15, 35)
    assert (notes[10], nd.balanced_bipartitions(10)) == (21, 126)


def test_network_partitions_by_enumeration():
    for N, M in [(2, 1), (4, 2), (6, 1), (4, 3)]:
        seen = set()
        for sides in itertools.product((0, 1), repeat=N + M):
            if sum(sides[:N]) != N // 2:
                continue
            a = frozenset(i for i, s in enumerate(sides) if s)
            b = frozenset(range(N + M)) - a
            seen.add(frozenset({a, b}))
        assert nd.network_partitions(N, M) == len(seen)


def test_bipartition_errors():
    with pytest.raises(ValueError, match=r"N=7 is odd"):
        nd.balanced_bipartitions(7)
    with pytest.raises(ValueError, match=r"M=-1"):
        nd.network_partitions(4, -1)


def test_confidence_examples_and_enumeration():
    assert [nd.bisection_confidence(p, 2) for p in (1, 2, 3)] == [0.5, 0.75, 0.875]  # the notes' example
    for U in (1, 2, 3, 4):
        for p in (0, 1, 2, 3):
            hits = sum(0 in picks for picks in itertools.product(range(U), repeat=p))
            assert nd.bisection_confidence(p, U, exact=True) == Fraction(hits, U**p)
            assert nd.bisection_confidence(p, U) == pytest.approx(hits / U**p, rel=1e-12)


def test_confidence_does_not_underflow():
    U = 10**20
    assert 1 - (1 - 1 / U) ** 3 == 0.0  # the naive float formula
    assert nd.bisection_confidence(3, U) == pytest.approx(3e-20, rel=1e-9)


def test_picks_examples():
    assert nd.bisection_picks(0.9, 100) == 230  # the notes' eq. (20)
    assert nd.bisection_picks(0.75, 2) == 2  # exactly 1 - (1/2)^2
    assert nd.bisection_picks(Fraction(7, 8), 2) == 3
    assert nd.bisection_picks(0.5, 1) == 1


@given(st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)), st.integers(2, 2000))
@settings(derandomize=True, deadline=None, max_examples=60)
def test_picks_is_least_sufficient(C, U):
    p = nd.bisection_picks(C, U)
    assert nd.bisection_confidence(p, U, exact=True) >= C
    assert p == 1 or nd.bisection_confidence(p - 1, U, exact=True) < C


def test_picks_for_huge_U_with_high_precision():
    U = 10**30
    p = nd.bisection_picks(0.9, U)
    with mpmath.workdps(80):
        conf = lambda q: 1 - (1 - mpmath.mpf(1) / U) ** q  # noqa: E731
        assert conf(p) >= mpmath.mpf(0.9) > conf(p - 1)


def test_confidence_errors():
    for bad in (0, 1, 1.5, -0.1, float("nan")):
        with pytest.raises(ValueError, match=r"C=.*0 < C < 1"):
            nd.bisection_picks(bad, 10)
    with pytest.raises(ValueError, match=r"U=0"):
        nd.bisection_picks(0.5, 0)
    with pytest.raises(ValueError, match=r"p=-1"):
        nd.bisection_confidence(-1, 4)


# ------------------------------------------------------------------------------------------------ the database
def test_notes_example_is_valid_and_has_mixed_ports():
    db = nd.validate_connections(EXAMPLE)
    assert db.tolist() == sorted(sorted(p) for p in EXAMPLE)
    assert nd.compute_nodes(EXAMPLE) == [-1, -2, -3]
    assert nd.router_labels(EXAMPLE) == [1, 2, 3, 4, 5]
    ports = nd.port_counts(EXAMPLE)
    assert sorted({ports[c] for c in (-1, -2, -3)}) == [1, 2]  # n = 1, 2 (the caption says m = 1, 2)
    assert sorted({ports[r] for r in range(1, 6)}) == [2, 3]
    assert nd.is_valid_connections(EXAMPLE, router_ports={1: 2, 2: 2, 3: 2, 4: 3, 5: 3}, node_ports=2)


@pytest.mark.parametrize(("conns", "kw", "pattern"), [
    ([[-1, 0], [-2, 1]], {}, r"label 0"),
    ([[-1, -2], [-1, 1], [-2, 1]], {}, r"pair \[-2, -1\] joins two compute nodes"),
    ([[-1, 1], [-2, 1], [1, 1]], {}, r"router 1 is connected to itself"),
    ([[-1, 1], [-1, 1], [-2, 1]], {}, r"pair \[-1, 1\] appears 2 times; a compute node plugs"),
    ([[-1, 1], [-2, 2], [1, 2], [2, 1]], {}, r"pair \[1, 2\] appears 2 times; two routers"),
    ([[-1, 1], [-2, 1], [-3, 1]], {"router_ports": 2}, r"router_ports: router 1 uses 3 ports but has 2"),
    ([[-1, 1], [-1, 2], [-2, 1], [1, 2]], {"node_ports": 1}, r"node_ports: compute node -1 uses 2"),
    ([[-1, 1], [-2, 1]], {"router_ports": 3, "full": True}, r"router 1 uses 2 of its 3 ports"),
    ([[-1, 1], [-2, 2]], {}, r"compute nodes -1 and -2 cannot reach each other"),
    ([[-1, 1], [1, 2]], {}, r"at least two compute nodes"),
    ([[-1, 1, 2]], {}, r"shape"),
    ([[-1.5, 1]], {}, r"integer"),
])
def test_validity_rules(conns, kw, pattern):
    with pytest.raises(ValueError, match=pattern):
        nd.validate_connections(conns, **kw)
    assert not nd.is_valid_connections(conns, **kw)


def test_reachability_through_shared_routers_without_router_links():
    # n = 2, m = 4, M = 2, N = 4 (the notes' Fig. 16): no router link, but every pair shares a router
    db = [[c, r] for c in (-1, -2, -3, -4) for r in (1, 2)]
    assert nd.is_valid_connections(db, router_ports=4, node_ports=2, full=True)
    assert nd.hop_statistics(db).histogram == {1: 6}


def _valid_by_definition(rows):
    """The validity rules re-implemented on networkx, pair by pair, as in the notes' section 8.2 method."""
    if any(a == b or (a < 0 and b < 0) or a == 0 or b == 0 for a, b in rows):
        return False
    if len({tuple(sorted(r)) for r in rows}) != len(rows):
        return False
    nodes = sorted({x for r in rows for x in r if x < 0})
    if len(nodes) < 2:
        return False
    g = nx.Graph(rows)
    for a, b in itertools.combinations(nodes, 2):
        h = g.subgraph([x for x in g if x > 0 or x in (a, b)])
        if not nx.has_path(h, a, b):
            return False
    return True


def test_validity_against_enumeration_of_small_databases():
    # every fifth set of pairs over compute nodes -1..-3 and routers 1..3 (819 of the 4095 databases)
    labels = [-3, -2, -1, 1, 2, 3]
    pairs = [p for p in itertools.combinations(labels, 2) if p[1] > 0]
    agree = valid = 0
    for mask in range(1, 2 ** len(pairs), 5):
        rows = [list(p) for i, p in enumerate(pairs) if mask >> i & 1]
        ours = nd.is_valid_connections(rows)
        assert ours == _valid_by_definition(rows), rows
        agree += 1
        valid += ours
    assert agree == 819 and 0 < valid < agree


# ------------------------------------------------------------------------------------------------ hop counts
def test_notes_hop_example():
    assert nd.router_hops(EXAMPLE, -1, -3) == 5  # routers 4, 2, 1, 3, 5
    assert nd.router_hops(EXAMPLE, -1, -3, count="links") == 6  # the notes' "6, not 4"
    assert nx.shortest_path_length(nx.Graph(EXAMPLE), -1, -3) == 4  # through compute node -2: not allowed
    assert nd.router_hops(EXAMPLE, -1, -2) == 1 and nd.router_hops(EXAMPLE, -2, -3) == 1
    labels, H = nd.all_pairs_hops(EXAMPLE, count="links")
    assert labels == [-1, -2, -3] and H.tolist() == [[0, 2, 6], [2, 0, 2], [6, 2, 0]]


def test_router_hops_errors():
    with pytest.raises(ValueError, match=r"a=-9 is not a compute node"):
        nd.router_hops(EXAMPLE, -9, -1)
    with pytest.raises(ValueError, match=r"b=4 is not a compute node"):
        nd.router_hops(EXAMPLE, -1, 4)
    with pytest.raises(ValueError, match=r"count='edges'"):
        nd.router_hops(EXAMPLE, -1, -2, count="edges")


@pytest.mark.parametrize(("links", "loads", "hist"), [
    ([], [5], {1: 10}),  # Fig. 3: 10 = 5 * 4 / 2 pairs at 1 hop
    (list(itertools.combinations(range(1, 6), 2)), [1] * 5, {2: 10}),  # Fig. 4: five routers, 2 hops
    ([[1, 2]], [4, 4], {1: 12, 2: 16}),  # Fig. 5: 2 * C(4, 2) and 4 * 4
    ([[1, 2], [1, 3], [2, 3]], [3, 3, 3], {1: 9, 2: 27}),  # Fig. 6: 3 * C(3, 2) and 3 * 3 * 3
])
def test_toy_networks_of_section_1_3(links, loads, hist):
    db = nd.single_port_network(links, loads)
    assert nd.is_valid_connections(db, router_ports=5, node_ports=1, full=True)
    s = nd.hop_statistics(db)
    assert s.histogram == hist and s.pairs == sum(hist.values()) == math.comb(sum(loads), 2)


def test_pair_counts_of_section_1_4():
    for N, pairs in [(4, 6), (100, 4950), (10_000, 49_995_000)]:
        assert N * (N - 1) // 2 == pairs
    assert nd.hop_statistics(nd.single_port_network([], [4])).pairs == 6


@pytest.mark.parametrize("seed", range(6))
def test_all_pairs_hops_match_pairwise_method(seed):
    N, n, M, m = [(10, 1, 5, 4), (9, 2, 6, 5), (12, 3, 7, 8)][seed % 3]
    db = nd.random_network(N, n, M, m, seed=seed)
    labels, H = nd.all_pairs_hops(db)
    for i, j in itertools.combinations(range(len(labels)), 2):
        assert H[i, j] == H[j, i] == nd.router_hops(db, labels[i], labels[j])
    _, HL = nd.all_pairs_hops(db, count="links")
    assert np.array_equal(HL, H + 1 - np.eye(len(labels), dtype=int))
    s = nd.hop_statistics(db)
    assert s.total == H[np.triu_indices(len(labels), 1)].sum() and s.max == H.max()


# ------------------------------------------------------------------------------------------------ bisection
def _bisection_brute_force(db):
    """Fewest cut links over every side assignment of all nodes with half the compute nodes on each side."""
    rows = nd.canonical_connections(db)
    labels = nd.compute_nodes(db) + nd.router_labels(db)
    N = len(nd.compute_nodes(db))
    pos = {x: i for i, x in enumerate(labels)}
    e = np.array([[pos[a], pos[b]] for a, b in rows.tolist()])
    V = len(labels)
    sides = (np.arange(2**V)[:, None] >> np.arange(V)[None, :]) & 1
    balanced = sides[:, :N].sum(axis=1) == N // 2
    cut = (sides[:, e[:, 0]] != sides[:, e[:, 1]]).sum(axis=1)
    return int(cut[balanced].min())


@pytest.mark.parametrize("seed", range(8))
def test_bisection_against_brute_force(seed):
    N, n, M, m = [(6, 1, 3, 4), (8, 1, 4, 4), (6, 2, 4, 5), (8, 2, 4, 6)][seed % 4]
    db = nd.random_network(N, n, M, m, seed=seed)
    want = _bisection_brute_force(db)
    for inner in ("enumerate", "flow"):
        r = nd.bisection_width(db, method="exact", inner=inner)
        assert r.width == want and r.exact and r.confidence == 1.0
        assert r.evaluated == r.total == nd.balanced_bipartitions(N)
        assert len(r.half) == N // 2 and -1 in r.half


def test_bisection_of_chains_and_trees():
    assert nd.bisection_width(nd.daisy_chain(8, 5)).width == 1  # Fig. 11: cut the one router link
    # m = 6, N = 14: 5 + 4 + 5 nodes; no router link splits 7 | 7, the best cut moves two nodes: 3 links
    assert nd.bisection_width(nd.daisy_chain(14, 6)).width == 3
    assert _bisection_brute_force(nd.single_port_network([[1, 2], [2, 3]], [3, 2, 3])) == 2
    assert nd.bisection_width(nd.single_port_network([[1, 2], [2, 3]], [3, 2, 3])).width == 2
    # four routers in a complete graph, one node each: cutting the links of two compute nodes (2) beats
    # splitting the routers 2 | 2 (4 router links)
    k4 = nd.single_port_network(list(itertools.combinations(range(1, 5), 2)), [1] * 4)
    assert nd.bisection_width(k4).width == _bisection_brute_force(k4) == 2


def test_sampled_bisection_states_its_confidence():
    db = nd.random_network(12, 2, 6, 6, seed=3)
    exact = nd.bisection_width(db, method="exact")
    r = nd.bisection_width(db, method="sampled", picks=40, seed=1)
    assert not r.exact and r.evaluated == 40 and r.total == 462
    assert r.confidence == nd.bisection_confidence(40, 462)
    assert r.width >= exact.width  # a sample can only miss the minimum
    big = nd.bisection_width(db, method="sampled", confidence=0.999, seed=1)
    assert big.evaluated == nd.bisection_picks(0.999, 462) and big.confidence >= 0.999
    assert big.width == exact.width
    assert nd.bisection_width(db, method="sampled", picks=40, seed=1) == r  # seeded


def test_bisection_errors():
    with pytest.raises(ValueError, match=r"N=3 compute nodes is odd"):
        nd.bisection_width(EXAMPLE)
    db = nd.random_network(20, 1, 6, 6, seed=0)
    with pytest.raises(ValueError, match=r"picks: N=20 has 92378 bisections"):
        nd.bisection_width(db)
    with pytest.raises(ValueError, match=r"confidence=1\.2 .*need 0 < confidence < 1"):
        nd.bisection_width(db, method="sampled", confidence=1.2)
    with pytest.raises(ValueError, match=r"method='fast'"):
        nd.bisection_width(db, method="fast")
    big = nd.random_network(60, 1, 20, 6, seed=0)
    with pytest.raises(ValueError, match=r"needs .* picks"):
        nd.bisection_width(big, method="sampled", confidence=0.5)


# ------------------------------------------------------------------------------------------------ random networks
def test_random_network_is_valid_and_seeded():
    a = nd.random_network(20, 2, 10, 6, seed=7)
    assert np.array_equal(a, nd.random_network(20, 2, 10, 6, seed=7))
    assert not np.array_equal(a, nd.random_network(20, 2, 10, 6, seed=8))
    assert nd.is_valid_connections(a, router_ports=6, node_ports=2)
    ports = nd.port_counts(a)
    assert all(ports[c] == 2 for c in nd.compute_nodes(a)) and len(nd.compute_nodes(a)) == 20
    mixed = nd.random_network(10, 1, 4, [3, 4, 5, 6], seed=1)
    assert nd.is_valid_connections(mixed, router_ports={1: 3, 2: 4, 3: 5, 4: 6}, node_ports=1)


def test_random_network_errors():
    with pytest.raises(ValueError, match=r"n=3 .*n <= M = 2"):
        nd.random_network(4, 3, 2, 8)
    with pytest.raises(ValueError, match=r"rule N n \+ 2\(M-1\) <= sum of m"):
        nd.random_network(10, 1, 3, 4)
    with pytest.raises(ValueError, match=r"m has 2 entries"):
        nd.random_network(4, 1, 3, [4, 4])


# ------------------------------------------------------------------------------------------------ alterations
network_params = st.sampled_from([(6, 1, 3, 4), (8, 1, 4, 4), (10, 2, 5, 6), (9, 2, 6, 5), (12, 1, 6, 4),
                                  (8, 3, 5, 7)])


@given(network_params, st.integers(0, 10**6), st.sampled_from(nd.MOVES), st.integers(0, 10**6))
@settings(derandomize=True, deadline=None, max_examples=120)
def test_every_alteration_keeps_a_valid_database_valid(params, net_seed, move, move_seed):
    N, n, M, m = params
    db = nd.random_network(N, n, M, m, seed=net_seed)
    new = nd.alter(db, move, seed=move_seed)
    assert nd.is_valid_connections(new, router_ports=m, node_ports=n)
    assert nd.port_counts(new) == nd.port_counts(db)  # every port count kept
    changed = len({tuple(r) for r in db.tolist()} ^ {tuple(r) for r in new.tolist()})
    assert changed in (0, {"compute": 4, "router": 4, "set": 8}[move])


@given(network_params, st.integers(0, 10**6), st.integers(0, 10**6))
@settings(derandomize=True, deadline=None, max_examples=40)
def test_chains_of_alterations_stay_valid(params, net_seed, seed):
    N, n, M, m = params
    db = nd.random_network(N, n, M, m, seed=net_seed)
    rng = np.random.default_rng(seed)
    for _ in range(15):
        db = nd.alter(db, nd.MOVES[int(rng.integers(3))], seed=rng)
        assert nd.is_valid_connections(db, router_ports=m, node_ports=n)


def test_compute_swap_exchanges_routers_of_two_nodes():
    db = nd.single_port_network([[1, 2]], [2, 2])
    new = nd.swap_compute_connections(db, seed=0)
    old_c = {tuple(r) for r in db.tolist() if r[0] < 0}
    new_c = {tuple(r) for r in new.tolist() if r[0] < 0}
    (a, s1), (b, s2) = sorted(old_c - new_c)
    assert sorted(new_c - old_c) == sorted([(a, s2), (b, s1)]) and s1 != s2
    assert [r for r in new.tolist() if r[0] > 0] == [[1, 2]]


def test_set_swap_exchanges_two_neighbours_between_routers():
    db = nd.random_network(12, 1, 4, 6, seed=2)
    new = nd.swap_connection_sets(db, seed=5)
    gone = {tuple(r) for r in db.tolist()} - {tuple(r) for r in new.tolist()}
    came = {tuple(r) for r in new.tolist()} - {tuple(r) for r in db.tolist()}
    assert len(gone) == len(came) == 4
    routers = {x for r in gone for x in r if x > 0} & {x for r in came for x in r if x > 0}
    assert len(routers) >= 2


def test_rewire_rejects_invalid_rearrangements():
    db = nd.single_port_network([[1, 2]], [2, 2])  # -1, -2 on router 1; -3, -4 on router 2
    with pytest.raises(ValueError, match=r"appears 2 times"):
        nd.rewire(db, [[-1, 1]], [[-2, 1]])
    with pytest.raises(ValueError, match=r"cannot reach each other"):
        nd.rewire(db, [[1, 2]], [[-1, 2]])
    with pytest.raises(ValueError, match=r"remove: pair \[-1, 2\] is not in the connections"):
        nd.rewire(db, [[-1, 2]], [[-1, 1]])
    with pytest.raises(ValueError, match=r"move='swap'"):
        nd.alter(db, "swap")


def test_no_valid_move_leaves_the_network_unchanged():
    db = nd.single_port_network([], [4])  # one router: no compute swap has s1 != s2
    assert np.array_equal(nd.swap_compute_connections(db, seed=0, max_tries=10), db)


# ------------------------------------------------------------------------------------------------ fitness, search
def test_cost_and_weighted_score_by_hand():
    db = nd.single_port_network([[1, 2]], [4, 4])
    assert nd.network_cost(db) == 2.0
    assert nd.network_cost(db, router_cost=10, link_cost=0.5) == 10 * 2 + 0.5 * 9
    s = nd.weighted_score(db, weights=(1, 2, 3))
    assert s["mean_hops"] == (12 * 1 + 16 * 2) / 28 and s["max_hops"] == 2 and s["bisection"] == 1
    assert s["score"] == pytest.approx(1 * 2 + 2 * 44 / 28 - 3 * 1)
    assert nd.weighted_score(db, weights=(0, 1, 0), latency="max")["score"] == 2
    with pytest.raises(ValueError, match=r"weights=\(1, 2\)"):
        nd.weighted_score(db, weights=(1, 2))
    with pytest.raises(ValueError, match=r"router_cost=-1"):
        nd.network_cost(db, router_cost=-1)


def test_evolution_improves_and_is_seeded():
    db = nd.random_network(12, 2, 6, 6, seed=4)
    r = nd.evolve(db, steps=60, seed=2, weights=(0, 1, 0.5))
    assert np.all(np.diff(r.scores) <= 0) and r.scores[-1] < r.scores[0]
    assert nd.is_valid_connections(r.best, router_ports=6, node_ports=2)
    assert nd.port_counts(r.best) == nd.port_counts(db)
    parts = nd.weighted_score(r.best, weights=(0, 1, 0.5))
    assert parts["score"] == pytest.approx(r.scores[-1])
    assert len(r.moves) == len(r.accepted) == 60 and set(r.moves) <= set(nd.MOVES)
    again = nd.evolve(db, steps=60, seed=2, weights=(0, 1, 0.5))
    assert np.array_equal(again.best, r.best) and np.array_equal(again.scores, r.scores)
    with pytest.raises(ValueError, match=r"moves\[0\]='flip' is not one of"):
        nd.evolve(db, steps=1, moves=("flip",))


def test_array_graph_and_cli_family():
    g = nd.to_array_graph(nd.tree_network(5, 5))
    assert g.n == 10 and g.m == 5 + 10 and g.is_connected()
    assert nx.is_isomorphic(g.to_networkx().subgraph(nd.router_labels(nd.tree_network(5, 5))), nx.complete_graph(5))
    built = nd.NETWORK_FAMILIES["netdesign-chain"].build(N=14, m=5)
    assert built.n == 14 + 4 and built.m == 14 + 3


def test_monte_carlo_confidence_agrees_with_formula():
    ps = [0, 1, 5, 20, 60]
    for U in (2, 7, 30):
        est = nd.monte_carlo_confidence(ps, U, trials=20_000, seed=U)
        for p, e in zip(ps, est, strict=True):
            c = nd.bisection_confidence(p, U)
            assert abs(e - c) <= 5 * math.sqrt(c * (1 - c) / 20_000) + 1e-12, (U, p, e, c)
    with pytest.raises(ValueError, match=r"trials=0"):
        nd.monte_carlo_confidence([1], 2, trials=0)


@pytest.mark.parametrize("seed", range(3))
def test_set_swap_decompositions_by_rewire(seed):
    db = nd.random_network(8, 1, 4, 4, seed=seed)
    found = nd.set_swap_decompositions(db)
    assert found
    for f in found:
        (x1, x2), (y1, y2), s1, s2 = f["X"], f["Y"], f["s1"], f["s2"]
        old = [[s1, x1], [s1, x2], [s2, y1], [s2, y2]]
        assert nd.is_valid_connections(nd.rewire(db, old, [[s1, y1], [s1, y2], [s2, x1], [s2, x2]]))
        steps = 0
        for x, y in itertools.product((x1, x2), (y1, y2)):
            steps += nd.is_valid_connections(_rewire_or_none(db, [[s1, x], [s2, y]], [[s1, y], [s2, x]]))
        assert steps == f["valid_first_steps"]


def _rewire_or_none(db, remove, add):
    try:
        return nd.rewire(db, remove, add)
    except ValueError:
        return [[-1, -2]]  # an invalid database


def _cut_brute_force(db, half):
    rows = nd.canonical_connections(db)
    comp, routers = nd.compute_nodes(db), nd.router_labels(db)
    best = None
    for sides in itertools.product((0, 1), repeat=len(routers)):
        side = {c: int(c in half) for c in comp} | dict(zip(routers, sides, strict=True))
        cut = sum(side[a] != side[b] for a, b in rows.tolist())
        best = cut if best is None else min(best, cut)
    return best


@pytest.mark.parametrize("seed", range(4))
def test_cut_width_against_brute_force(seed):
    db = nd.random_network(7, 2, 5, 5, seed=seed)
    comp = nd.compute_nodes(db)
    for r in (1, 3, 5):
        half = comp[:r]
        want = _cut_brute_force(db, set(half))
        assert nd.cut_width(db, half) == nd.cut_width(db, half, inner="flow") == want
    with pytest.raises(ValueError, match=r"half\[0\]=7 is not a compute node"):
        nd.cut_width(db, [7])
    with pytest.raises(ValueError, match=r"non-empty proper subset"):
        nd.cut_width(db, comp)


# ------------------------------------------------------------------------------------ the modules' shared surface
@pytest.mark.parametrize("seed", range(3))
def test_inner_steps_agree_with_the_checked_functions(seed):
    """The unchecked inner steps the modules share give what the checked public functions give."""
    db = nd.random_network(10, 2, 6, 6, seed=seed)
    net = nd.NetworkIndex.of(nd.validate_connections(db))
    assert net.nodes.tolist() == nd.compute_nodes(db) and net.routers.tolist() == nd.router_labels(db)
    assert net.unreachable_pair() is None
    for count in nd.HOP_COUNTS:
        H = nd.hop_matrix(net, count)
        assert np.array_equal(H, nd.all_pairs_hops(db, count)[1])
        assert nd.HopStatistics.from_matrix(H) == nd.hop_statistics(db, count)
    scorer = nd.weighted_scorer((1, 1, 1), latency="max", count="links")
    assert scorer.parts(nd.validate_connections(db)) == nd.weighted_score(db, (1, 1, 1), latency="max", count="links")
    for move in nd.MOVES:
        assert np.array_equal(nd.alter_rows(net.rows, move, np.random.default_rng(seed), 50),
                              nd.alter(db, move, seed, max_tries=50))
    assert nd.check_tree_parameters(10, 3) == (10, 3, 1)
    assert nd.check_compute_label(np.int64(-3), "a", set(nd.compute_nodes(db))) == -3
    with pytest.raises(ValueError, match="count="):
        nd.weighted_scorer(count="hops")
    with pytest.raises(ValueError, match="count="):
        nd.hop_matrix(net, "hops")
