"""Weighted tree families (starlib.edst.depth.weighted) against independent sources.

* The count against the Nash-Williams-Tutte value of the r-fold graph, ``floor(r sigma)``, with the strength
  ``sigma = min over partitions P of e(P)/(|P|-1)`` evaluated by enumerating every vertex partition (n <= 10), or
  against the counting bound ``floor(r m/(n-1))`` (each tree needs n-1 links, each link serves at most r trees)
  where the family reaches it.
* Every tree checked by networkx (``nx.is_tree`` on all vertices, links of the graph) and every link's use counted
  here (at most r).
* Depths measured by networkx BFS from the stated roots; each root a centre (depth = the tree's radius); never
  deeper than the baseline: the exact packer's r-fold trees (:func:`generic_packing` on the repeated edge list), each
  rooted at a centre, depth measured by networkx; never below the graph's radius.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import generic_packing, generic_trees
from starlib.edst.depth import slimfly_depth3_trees
from starlib.edst.depth.weighted import WeightedFamily, choose_r, verify_weighted, weighted_trees
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph, as_graph
from starlib.networks import slimfly
from starlib.paper.bound_checks import set_partitions
from tests.nx_trees import nx_depths


def strength(n: int, edges: list[tuple[int, int]]) -> Fraction:
    """min over vertex partitions with >= 2 parts of crossing edges / (parts - 1), by enumeration (n <= 10)."""
    P = set_partitions(n).astype(np.int64)
    parts = P.max(axis=1) + 1
    e = np.array(edges, dtype=np.int64)
    crossing = (P[:, e[:, 0]] != P[:, e[:, 1]]).sum(axis=1)
    keep = parts >= 2
    pairs = set(zip(crossing[keep].tolist(), parts[keep].tolist(), strict=True))
    return min(Fraction(c, p - 1) for c, p in pairs)


def tree_radius(t: nx.Graph) -> int:
    return nx.radius(t)


def check_family(G: nx.Graph, f: WeightedFamily) -> list[int]:
    """Check ``f`` on the networkx graph ``G`` (nodes 0..n-1) independently; return its depths."""
    n = G.number_of_nodes()
    assert isinstance(f.trees, EDSTSet)
    assert f.weights == (Fraction(1, f.r),) * len(f.trees)
    assert f.total == Fraction(len(f.trees), f.r) == sum(f.weights)
    assert f.strength_bound == Fraction(G.number_of_edges(), n - 1)
    uses: Counter = Counter()
    for t in f.trees:
        T = nx.Graph()
        T.add_nodes_from(range(n))
        T.add_edges_from(t.edges.tolist())
        assert nx.is_tree(T) and T.number_of_nodes() == n
        assert all(G.has_edge(u, v) for u, v in T.edges())
        uses.update(frozenset(e) for e in T.edges())
        assert t.depth == tree_radius(T)  # rooted at a centre
    assert max(uses.values()) <= f.r
    # the certificate partition: floor(r e(P)/(|P|-1)) equals the count, e(P)/(|P|-1) is the stated bound
    parts = f.certificate
    cross = sum(parts[u] != parts[v] for u, v in G.edges())
    blocks = len(set(parts.tolist()))
    assert (f.r * cross) // (blocks - 1) == len(f.trees)
    assert f.certificate_bound == Fraction(cross, blocks - 1)
    assert f.total <= f.certificate_bound
    assert verify_weighted(G, f).valid
    depths = nx_depths(f.trees)
    assert depths == f.depths()
    assert min(depths) >= nx.radius(G)
    return depths


def baseline_depth(G: nx.Graph, r: int) -> int:
    """The exact packer's trees on G^r, each rooted at a centre: their largest radius (networkx)."""
    a = as_graph(G)
    pack = generic_packing(ArrayGraph(list(range(a.n)), np.tile(a.edges, (r, 1))))
    return max(tree_radius(nx.Graph(t.edges.tolist())) for t in pack.trees)


def two_k4_bridged() -> nx.Graph:
    g = nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4))
    g.add_edge(0, 4)
    return g


def k4_pendant() -> nx.Graph:
    g = nx.complete_graph(4)
    g.add_edge(3, 4)
    return g


SMALL = {
    "K4": nx.complete_graph(4),
    "K5": nx.complete_graph(5),
    "C5": nx.cycle_graph(5),
    "C6": nx.cycle_graph(6),
    "C8": nx.cycle_graph(8),
    "K33": nx.complete_bipartite_graph(3, 3),
    "wheel6": nx.wheel_graph(6),
    "two K4 and a bridge": two_k4_bridged(),
    "K4 and a pendant": k4_pendant(),
    "path4": nx.path_graph(4),
    "petersen": nx.petersen_graph(),
    "prism": nx.circular_ladder_graph(4),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_count_is_floor_r_sigma_by_brute_force(name: str) -> None:
    G = SMALL[name]
    n = G.number_of_nodes()
    sigma = strength(n, list(G.edges()))
    for r in (1, 2, 3, 5):
        f = weighted_trees(G, r=r)
        assert f.r == r
        assert len(f.trees) == (r * sigma.numerator) // sigma.denominator  # floor(r sigma)
        assert f.total <= sigma <= f.certificate_bound
        depths = check_family(G, f)
        assert max(depths) <= baseline_depth(G, r)


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 8), st.floats(0.3, 0.9), st.integers(0, 10**6), st.integers(1, 6))
def test_random_graphs_match_brute_force(n: int, p: float, seed: int, r: int) -> None:
    G = nx.gnp_random_graph(n, p, seed=seed)
    if not nx.is_connected(G):
        with pytest.raises(ValueError, match="graph: disconnected"):
            weighted_trees(G, r=r)
        return
    sigma = strength(n, list(G.edges()))
    f = weighted_trees(G, r=r)
    assert len(f.trees) == (r * sigma.numerator) // sigma.denominator
    check_family(G, f)


def test_cycles_reach_the_strength_with_r_n_minus_1() -> None:
    """C_n: sigma = n/(n-1); one EDST, and with r = n-1 the n paths C_n - e (each link in n-1 of them)."""
    for n in (3, 5, 7, 12):
        G = nx.cycle_graph(n)
        f = weighted_trees(G, r=n - 1)
        assert len(f.trees) == n and f.total == Fraction(n, n - 1)
        check_family(G, f)
        assert sorted(t.edges.tolist() for t in f.trees) == sorted(
            sorted([min(e), max(e)] for e in G.edges() if e != drop) for drop in G.edges())
        assert weighted_trees(G, r=n - 2).count == n - 2  # floor((n-2) n/(n-1)) = n-2


def test_named_networks_at_the_counting_bound() -> None:
    """Petersen (5/3), Slim Fly MMS(3) (45/17) and MMS(5) (175/49 = 25/7): the r-fold family reaches
    floor(r m/(n-1)), the counting bound, so the strength is m/(n-1) there (r = n-1 over its gcd)."""
    cases = [(nx.petersen_graph(), 3, 5), (nx.convert_node_labels_to_integers(slimfly(3).to_networkx()), 17, 45),
             (nx.convert_node_labels_to_integers(slimfly(5).to_networkx()), 7, 25)]
    for G, r, count in cases:
        n, m = G.number_of_nodes(), G.number_of_edges()
        assert count == (r * m) // (n - 1) == Fraction(r * m, n - 1)
        f = weighted_trees(G, r=r)
        assert len(f.trees) == count
        check_family(G, f)


def test_default_r_and_the_target() -> None:
    """r=None: the smallest r <= 8 with floor(r s)/r >= 0.95 s, s = m/(n-1) (values worked by hand)."""
    # Petersen s = 5/3: r=1 gives 1 (0.6 s), r=2 gives 3/2 (0.9 s), r=3 gives 5/3
    # MMS(3) s = 45/17 = 2.65: 2, 5/2 (0.944 s), 7/3, 10/4, 13/5 (0.982 s)
    # MMS(5) s = 25/7 = 3.57: 3 (0.84 s), 7/2 (0.98 s)
    # C_5 s = 5/4: 1 for r = 1, 2, 3, then 5/4
    # K_4 s = 2; MMS(7) s = 539/97 = 5.56: 5 (0.90 s), 11/2 (0.99 s)
    sf = {q: nx.convert_node_labels_to_integers(slimfly(q).to_networkx()) for q in (3, 5, 7)}
    for G, r, count in [(nx.petersen_graph(), 3, 5), (sf[3], 5, 13), (sf[5], 2, 7), (nx.cycle_graph(5), 4, 5),
                        (nx.complete_graph(4), 1, 2), (sf[7], 2, 11)]:
        assert choose_r(G.number_of_nodes(), G.number_of_edges()) == r
        f = weighted_trees(G)
        assert (f.r, len(f.trees)) == (r, count)
        assert float(f.total) >= 0.95 * float(f.strength_bound)
        check_family(G, f)
    # a higher target takes a larger r; none reached: the best ratio, the smallest such r
    assert weighted_trees(sf[5], target=0.99).r == 7  # 25/7 exactly
    assert choose_r(5, 5, target=1.0, r_max=3) == 1
    assert choose_r(50, 175, target=1.0, r_max=6) == 2  # 7/2 is the best of r <= 6


def test_two_vertices() -> None:
    f = weighted_trees(nx.path_graph(2), r=3)
    assert len(f.trees) == 3 and f.total == 1
    assert [t.edges.tolist() for t in f.trees] == [[[0, 1]]] * 3
    assert verify_weighted(nx.path_graph(2), f).valid


def test_deterministic() -> None:
    G = slimfly(5)
    a, b = weighted_trees(G), weighted_trees(G)
    assert [t.edges.tobytes() for t in a.trees] == [t.edges.tobytes() for t in b.trees]
    assert [t.root for t in a.trees] == [t.root for t in b.trees]
    assert np.array_equal(a.certificate, b.certificate)
    c = weighted_trees(G, seed=5, restarts=2)
    assert c.count == a.count and verify_weighted(G, c).valid


def test_shallower_than_the_packer_on_slimfly() -> None:
    """MMS(3), r = 5: 13 trees; the search never deepens the packer's trees, and on this graph it gains."""
    G = nx.convert_node_labels_to_integers(slimfly(3).to_networkx())
    f = weighted_trees(G)
    depths = check_family(G, f)
    assert max(depths) < baseline_depth(G, f.r)


def test_warm_start() -> None:
    """r = 1 from the committed depth-3 maximum family of MMS(7): the family stays at depth 3 (the packer keeps a
    maximum start, the search never deepens); r = 2 from it: the same count as a cold start."""
    G = slimfly(7)
    S = slimfly_depth3_trees(7, G)
    H = nx.convert_node_labels_to_integers(G.to_networkx())
    f = weighted_trees(G, r=1, start=S)
    assert len(f.trees) == len(S) == 5
    assert max(check_family(H, f)) <= max(nx_depths(S)) == 3
    g = weighted_trees(G, r=2, start=S)
    assert g.count == weighted_trees(G, r=2).count == 11
    check_family(H, g)
    with pytest.raises(ValueError, match="start: not an EDST family"):
        weighted_trees(G, start=[S[0], S[0]])
    with pytest.raises(ValueError, match="start: not an EDST family"):
        weighted_trees(nx.petersen_graph(), start=generic_trees(nx.complete_graph(10)))


def test_bad_input() -> None:
    G = nx.petersen_graph()
    for r in (0, -2):
        with pytest.raises(ValueError, match=f"r={r}"):
            weighted_trees(G, r=r)
    with pytest.raises(ValueError, match="r=1.5"):
        weighted_trees(G, r=1.5)
    for target in (0, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="target"):
            weighted_trees(G, target=target)
    with pytest.raises(ValueError, match="graph: disconnected"):
        weighted_trees(nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(3)))
    with pytest.raises(ValueError, match="graph: n=1"):
        weighted_trees(nx.empty_graph(1))
    with pytest.raises(ValueError, match="graph: a networkx MultiGraph has parallel edges"):
        weighted_trees(nx.MultiGraph([(0, 1), (0, 1), (1, 2)]))
    with pytest.raises(ValueError, match="seed"):
        weighted_trees(G, seed=-1)
    with pytest.raises(ValueError, match="r=10000000000000 is too large"):
        weighted_trees(G, r=10**13)
    with pytest.raises(TypeError, match="graph=None"):
        weighted_trees(None)
    with pytest.raises(TypeError, match="WeightedFamily"):
        verify_weighted(G, [])


def test_verifier_finds_each_broken_rule() -> None:
    """Families broken on purpose; the verdict against the rule that breaks."""
    G = nx.cycle_graph(4)
    f = weighted_trees(G, r=3)  # the four paths C_4 - e, each link in three of them
    assert verify_weighted(G, f).valid

    def with_trees(trees, weights=None, r=3, total=None):
        w = weights if weights is not None else (Fraction(1, r),) * len(trees)
        return WeightedFamily(EDSTSet(trees), tuple(w), r, sum(w, Fraction(0)) if total is None else total,
                              f.strength_bound, f.certificate, f.certificate_bound)

    t0 = f.trees[0]
    # one path five times: its links carry 5/3
    rep = verify_weighted(G, with_trees([t0] * 5))
    assert rep.failed("multiplicity") == [-1] and "5/3" in rep.problems[0]
    # three times is fine (weight 1), with r = 2 (weights 1/2) it is not
    assert verify_weighted(G, with_trees([t0] * 3)).valid
    assert not verify_weighted(G, with_trees([t0] * 3, r=2)).valid
    # a cycle: not spanning, not acyclic
    cyc = Tree(np.array([[0, 1], [1, 2], [0, 2]]), 0, n=4)
    rep = verify_weighted(G, with_trees([cyc]))
    assert {r for _, r, _ in rep.failures} == {"spanning", "acyclic", "member"}
    # a link outside the graph
    rep = verify_weighted(G, with_trees([Tree(np.array([[0, 2], [0, 1], [0, 3]]), 0, n=4)]))
    assert [r for _, r, _ in rep.failures] == ["member"]
    # weights: a wrong total, a weight that is not 1/r, too few weights, a non-positive weight
    assert verify_weighted(G, with_trees(list(f.trees), total=Fraction(5))).failed("weights") == [-1]
    rep = verify_weighted(G, with_trees(list(f.trees), weights=[Fraction(1, 3)] * 3 + [Fraction(1, 4)]))
    assert rep.failed("weights") == [-1] and not rep.failed("multiplicity")
    assert not verify_weighted(G, with_trees(list(f.trees), weights=[Fraction(1, 3)] * 3)).valid
    assert not verify_weighted(G, with_trees(list(f.trees), weights=[Fraction(0)] * 4)).valid
    # no tree at all
    assert verify_weighted(G, with_trees([])).failed("empty") == [-1]
