"""The twisted Maximum construction (starlib.edst.product.twisted) and its escaping packings (escape.py).

Independent references: the Nash-Williams-Tutte partition condition, by brute force over every vertex partition,
for whether an escaping packing exists; networkx for trees, forests and distances; the paper's construction
(``maximum_trees``) for the count; the verifier for every product family.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import METHODS, factor_edsts, maximum_trees, twisted_maximum_trees, verify_edsts
from starlib.edst.product.escape import escaping_packing
from starlib.factors import complete, complete_bipartite
from starlib.graphs import ArrayGraph
from starlib.networks import bundlefly, polarstar, slimfly
from starlib.products import star_product
from tests.edst.product.test_constructions import random_connected


# -- escaping packings -------------------------------------------------------------------------------
def partitions(items: list[int]):
    """Every set partition of ``items`` (as block labels per item)."""
    if not items:
        yield []
        return
    for rest in partitions(items[1:]):
        k = max(rest, default=-1) + 1
        for b in range(k + 1):
            yield [b, *rest]


def has_t_edsts(n: int, edges: list[tuple[int, int]], t: int, parts: list[np.ndarray]) -> bool:
    """Nash-Williams-Tutte: ``t`` EDSTs iff every partition into ``p`` blocks is crossed by ``>= t (p - 1)`` edges."""
    e = np.array(edges, dtype=np.int64).reshape(-1, 2)
    for lab in parts:
        p = int(lab.max()) + 1
        if p > 1 and int((lab[e[:, 0]] != lab[e[:, 1]]).sum()) < t * (p - 1):
            return False
    return True


def escapes(n: int, F: list[tuple[int, int]], Y: set[int]) -> bool:
    """``F`` (``|Y|`` edges) is a forest of ``H / (V - Y)``: acyclic after contracting ``V - Y``, no loop."""
    z = n
    g = nx.MultiGraph()
    g.add_nodes_from(list(Y) + [z])
    for a, b in F:
        a2, b2 = (a if a in Y else z), (b if b in Y else z)
        if a2 == b2:
            return False
        g.add_edge(a2, b2)
    return nx.is_forest(g) and g.number_of_edges() == len(Y)


def brute_force_exists(n: int, edges: list[tuple[int, int]], t: int, Y: set[int], parts) -> bool:
    for F in itertools.combinations(edges, len(Y)):
        if escapes(n, list(F), Y) and has_t_edsts(n, [e for e in edges if e not in F], t, parts):
            return True
    return False


SMALL = {
    "K5": nx.complete_graph(5),
    "K33": nx.complete_bipartite_graph(3, 3),
    "octahedron": nx.octahedral_graph(),
    "prism": nx.circular_ladder_graph(3),
    "K4+pendant": nx.Graph([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3), (3, 4)]),
    "C4+chord": nx.Graph([(0, 1), (1, 2), (2, 3), (0, 3), (0, 2)]),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_escaping_packing_matches_brute_force(name):
    g = SMALL[name]
    A = ArrayGraph.from_networkx(g)
    n = A.n
    edges = [tuple(map(int, e)) for e in A.edges.tolist()]
    base = [t.edges for t in factor_edsts(A)]
    t = len(base)
    r = len(edges) - t * (n - 1)
    parts = [np.array(lab) for lab in partitions(list(range(n)))]
    seen = {True: 0, False: 0}
    for size in range(1, min(r, n - 1, 3) + 1):
        for Y in itertools.combinations(range(n), size):
            esc = escaping_packing(n, A.edges, base, list(Y))
            expect = brute_force_exists(n, edges, t, set(Y), parts)
            assert (esc is not None) == expect, (name, Y)
            seen[expect] += 1
            if esc is None:
                continue
            # the result, checked with networkx: t edge-disjoint spanning trees, the forest outside them
            tree_edges = [set(map(tuple, T.tolist())) for T in esc.trees]
            assert len(tree_edges) == t and all(nx.is_tree(nx.Graph(list(T))) and len(T) == n - 1
                                                for T in tree_edges)
            assert sum(map(len, tree_edges)) == len(set().union(*tree_edges))
            nontree = [e for e in edges if all(e not in T for T in tree_edges)]
            forest = [tuple(e) for e in esc.forest.tolist()]
            assert len(forest) == size and set(forest) <= set(nontree)
            assert escapes(n, forest, set(Y))
            # L is the largest non-tree distance from Y to V - Y (multi-source BFS from outside Y)
            ng = nx.Graph(nontree)
            ng.add_nodes_from(range(n))
            ng.add_edges_from(("out", v) for v in range(n) if v not in Y)
            dist = nx.single_source_shortest_path_length(ng, "out")
            assert esc.L == max(dist[y] - 1 for y in Y)
    if name == "K4+pendant":  # the pendant vertex 4 has one edge, which every spanning tree needs
        assert seen[False] > 0 and escaping_packing(n, A.edges, base, [4]) is None
    assert seen[True] > 0


def test_escaping_packing_bad_input():
    K = complete_bipartite(3)
    base = [t.edges for t in factor_edsts(K)]
    with pytest.raises(ValueError, match="distinct"):
        escaping_packing(K.n, K.edges, base, [0, 0])
    with pytest.raises(ValueError, match=r"range\(n=6\)"):
        escaping_packing(K.n, K.edges, base, [6])
    with pytest.raises(ValueError, match="outside it"):
        escaping_packing(K.n, K.edges, base, list(range(6)))


# -- the construction --------------------------------------------------------------------------------
NETWORKS = {
    "slimfly3": slimfly(3), "slimfly4": slimfly(4), "slimfly5": slimfly(5), "slimfly7": slimfly(7),
    "slimfly8": slimfly(8), "slimfly9": slimfly(9), "bundlefly-3-5": bundlefly(3, 5),
    "bundlefly-4-5": bundlefly(4, 5), "ps-paley-3-5": polarstar(3, supernode="paley", paley_q=5),
    "ps-iq-4-4": polarstar(4, supernode="iq", d=4), "ps-iq-5-7": polarstar(5, supernode="iq", d=7),
}


def nx_depth(n: int, edges: np.ndarray, root: int) -> int:
    g = nx.Graph(list(map(tuple, edges.tolist())))
    assert g.number_of_nodes() == n and nx.is_tree(g)
    return max(nx.single_source_shortest_path_length(g, root).values())


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_twisted_count_validity_and_bounds(name):
    P = NETWORKS[name]
    s, m = twisted_maximum_trees(P), maximum_trees(P)
    assert verify_edsts(P, s).valid
    assert len(s) == len(m) and s.theorem == m.theorem
    # one twisted tree for every V-C.5, V-C.6 and V-C.7 tree of the paper's set, V-C.4 unchanged
    paper = m.counts()
    assert s.counts() == {({"V-C.4": "V-C.4"}.get(k) or k + "t"): v for k, v in paper.items()}
    for t in s:
        d = nx_depth(P.n, t.edges, t.root)
        assert d == t.depth <= t.meta["bound"]


@pytest.mark.parametrize("q", [7, 9, 11, 13])
def test_twisted_is_shallower_than_the_paper_on_slimfly(q):
    """The point of the construction: V-C.5 and V-C.7 lose their quadratic depth (measured here)."""
    P = slimfly(q)
    s, m = twisted_maximum_trees(P), maximum_trees(P)
    deep = {"V-C.5", "V-C.7"}
    paper_deep = max(t.depth for t in m if t.construction in deep)
    ours = max(t.depth for t in s if t.construction in {c + "t" for c in deep})
    assert ours < paper_deep
    assert max(s.depths()) < max(m.depths())


def test_twisted_refuses_when_no_supernode_set_escapes():
    """H = K_4 plus a pendant vertex: a twisted copy that lands on the pendant in some supernode cannot be left."""
    H = ArrayGraph.from_networkx(SMALL["K4+pendant"])
    G = complete(7)
    outcomes = []
    for seed in range(12):
        rng = np.random.default_rng(seed)
        P = star_product(G, H, np.stack([rng.permutation(5) for _ in range(G.m)]))
        assert len(maximum_trees(P)) == 4  # the paper's construction applies to every one
        try:
            s = twisted_maximum_trees(P)
        except ValueError as e:
            assert "method=twisted: for every choice of the roots" in str(e)
            outcomes.append(False)
            continue
        assert verify_edsts(P, s).valid and len(s) == 4
        outcomes.append(True)
    assert True in outcomes and False in outcomes


def test_twisted_method_is_declared():
    assert METHODS["twisted"].families == ("V-C.4", "V-C.5t", "V-C.6t", "V-C.7t")
    assert len(METHODS["twisted"](slimfly(5))) == 3
    with pytest.raises(ValueError, match="method=twisted needs a star product"):
        METHODS["twisted"](complete(6))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 6), st.integers(3, 7), st.floats(0.0, 0.9), st.floats(0.0, 0.9), st.integers(0, 2**31))
def test_random_star_products(nG, nH, pG, pH, seed):
    """Wherever the paper's construction applies, the twisted one builds as many valid trees or refuses."""
    rng = np.random.default_rng(seed)
    G, H = random_connected(nG, pG, rng), random_connected(nH, pH, rng)
    P = star_product(G, H, np.stack([rng.permutation(nH) for _ in range(G.m)]))
    for relaxed in (False, True):
        try:
            m = maximum_trees(P, relaxed=relaxed)
        except ValueError:
            continue
        try:
            s = twisted_maximum_trees(P, relaxed=relaxed)
        except ValueError as e:
            assert "method=twisted" in str(e)
            continue
        assert verify_edsts(P, s).valid and len(s) == len(m)
        assert all(t.depth <= t.meta["bound"] for t in s)
