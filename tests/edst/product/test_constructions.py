"""The star-product constructions on Slim Fly, Bundlefly, PolarStar, Cartesian and random star products.

Independent references: the closed forms of Table IV (docs/star-products.md §11), Table I's count formula from the
factors' ``t = floor(m/(n-1))`` and ``r`` (computed here from n and m only), the exact packer (maximality on small
products), networkx for the tree radii/diameters that enter the depth bounds, and the verifier.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.bounds import product_upper_bound, table_i_count, upper_bound
from starlib.edst import (
    METHODS,
    auto_trees,
    default_factor_trees,
    factor_edsts,
    generic_packing,
    generic_trees,
    has_property_vd1,
    low_depth_trees,
    maximum_trees,
    property_vd1_trees,
    universal_trees,
    verify_edsts,
)
from starlib.edst.product.property_vd1 import bijection_orbits
from starlib.factors import complete, complete_bipartite, cycle, inductive_quad, paley
from starlib.graphs import ArrayGraph
from starlib.networks import bundlefly, polarstar, slimfly
from starlib.products import cartesian_product, star_product


def delta(q: int) -> int:
    return {1: 1, 3: -1, 0: 0}[q % 4]


def tr(graph) -> tuple[int, int]:
    """(t, r) of a factor: t the maximum number of EDSTs (exact packer, tested against brute force)."""
    t = generic_packing(graph).count
    return t, graph.m - t * (graph.n - 1)


def tree_stats(graph) -> tuple[int, int]:
    """(max radius, max diameter) over the factor's EDST set, by networkx."""
    rad, dia = 0, 0
    for t in default_factor_trees(graph):
        g = nx.Graph(list(map(tuple, t.edges.tolist())))
        ecc = nx.eccentricity(g)
        rad, dia = max(rad, min(ecc.values())), max(dia, max(ecc.values()))
    return rad, dia


def table_i_depth_bounds(P) -> dict[str, int]:
    """Table I's depth cells with every factor quantity replaced by its maximum over the factor trees
    (``D`` by the diameter, ``L`` by ``|X| <= t``): upper bounds computed independently of the constructions."""
    dG, DG = tree_stats(P.structure)
    dH, DH = tree_stats(P.supernode)
    tG, _ = tr(P.structure)
    tH, _ = tr(P.supernode)
    return {"V-B.2": dH + 2 * dG, "V-C.4": dH + 2 * dG, "V-B.3": DG + dH + 2 * DG * dH,
            "V-C.5": DG + dH + 2 * DG * dH, "V-D.4": DG + dH + 2 * DG * dH, "V-B.5(2)": DG + 2 * dH,
            "V-C.6": dH + DG * (tH + 1), "V-C.7": (DG + 1) * (2 * tG + 2 * dH) + DG,
            "V-D.3": 2 * DH + 4 * dG, "V-D.5": DH + DG * (2 * DH + 1)}


def check(P, trees, count: int, bounds: dict[str, int] | None = None) -> None:
    rep = verify_edsts(P, trees, allow_empty=count == 0)  # an empty family passes only where the formula says 0
    assert rep.valid, rep.problems[:3]
    assert len(trees) == count, (len(trees), count, trees.constructions())
    for t in trees:
        assert t.n == P.n
        assert 0 <= t.depth <= t.meta["bound"], (t.construction, t.depth, t.meta)
        if bounds is not None:
            assert t.depth <= bounds[t.construction], (t.construction, t.depth)


def check_all_methods(P, independent_depth: bool = False):
    G, H = P.structure, P.supernode
    tG, rG = tr(G)
    tH, rH = tr(H)
    bounds = table_i_depth_bounds(P) if independent_depth else None
    auto = auto_trees(P)
    prop = has_property_vd1(P) is not None
    theorem, count = table_i_count(tG, rG, tH, rH, prop)
    assert auto.theorem == theorem
    check(P, auto, count, bounds)
    check(P, universal_trees(P), tG + tH - 2, bounds)
    check(P, low_depth_trees(P), tG + tH - 2, bounds)
    if rG >= tG or rH >= tH:
        check(P, maximum_trees(P), tG + tH - (1 if (rG < tG or rH < tH) else 0), bounds)
    else:
        with pytest.raises(ValueError, match="r_G >= t_G or r_H >= t_H"):
            maximum_trees(P)
    if prop:
        check(P, property_vd1_trees(P), tG + tH - 1, bounds)
    else:
        with pytest.raises(ValueError, match="lacks Property V-D.1"):
            property_vd1_trees(P)
    return auto


# -- Slim Fly, Bundlefly, PolarStar (Table IV) ---------------------------------------------------
@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9, 11, 13])
def test_slimfly(q):
    P = slimfly(q)
    auto = check_all_methods(P, independent_depth=True)
    expected = (3 * q - delta(q)) // 4  # Table IV: floor((3q - delta)/4)
    assert len(auto) == expected == upper_bound(P)
    assert auto.theorem == ("V-C.3" if delta(q) == 0 else "V-C.10")
    if q <= 7:
        assert generic_packing(P).count == expected


@pytest.mark.parametrize("q, qq", [(3, 5), (4, 5), (5, 5), (3, 9), (4, 13), (7, 5)])
def test_bundlefly(q, qq):
    P = bundlefly(q, qq)
    auto = check_all_methods(P, independent_depth=True)
    expected = (3 * q - delta(q) + qq - 1) // 4
    assert len(auto) == expected == upper_bound(P)
    assert auto.theorem == ("V-C.3" if delta(q) == 0 else "V-C.10")


@pytest.mark.parametrize("q", [2, 3, 4, 5])
@pytest.mark.parametrize("qq", [5, 9])
def test_polarstar_paley(q, qq):
    P = polarstar(q, supernode="paley", paley_q=qq)
    auto = check_all_methods(P)
    bound = q // 2 + (qq - 1) // 4
    assert upper_bound(P) == bound
    if q % 2 == 0:
        assert (len(auto), auto.theorem) == (q // 2 + (qq - 1) // 4, "V-C.10")
    else:
        assert (len(auto), auto.theorem) == ((q + 1) // 2 + (qq - 1) // 4 - 1, "V-C.11")
    assert len(auto) == bound  # "Max? Yes" in both rows


@pytest.mark.parametrize("q", [2, 3, 4, 5])
@pytest.mark.parametrize("d", [3, 4, 7, 8])
def test_polarstar_iq(q, d):
    P = polarstar(q, supernode="iq", d=d)
    auto = check_all_methods(P)
    bound = (q + d) // 2
    assert upper_bound(P) == bound
    built = {(0, 0): q // 2 + d // 2, (0, 3): q // 2 + (d - 1) // 2, (1, 0): (q + 1) // 2 + d // 2 - 1,
             (1, 3): (q + d) // 2 - 1}[(q % 2, d % 4)]
    assert len(auto) == built
    assert auto.theorem == ("V-C.10" if q % 2 == 0 else "V-C.11")
    # "Max?": Yes except q odd, d = 3 mod 4 ("Maybe": one below the bound)
    assert bound - len(auto) == (1 if (q % 2, d % 4) == (1, 3) else 0)


def test_polarstar_with_loop_edges_keeps_valid_trees():
    P = polarstar(3, supernode="iq", d=4, loops=True)
    trees = auto_trees(P)
    assert len(trees) == 3 and verify_edsts(P, trees).valid


# -- Cartesian products (Property V-D.1 always holds) ---------------------------------------------
CARTESIAN = [(complete(4), complete(4)), (complete(4), complete(6)), (complete(6), complete(6)),
             (complete(5), complete(4)), (cycle(5), cycle(6)), (complete_bipartite(3), paley(5)),
             (complete(3), inductive_quad(4)), (complete_bipartite(4), complete(5))]


@pytest.mark.parametrize("G, H", CARTESIAN, ids=lambda g: f"{g.name}{g.n}")
def test_cartesian(G, H):
    P = cartesian_product(G, H)
    assert has_property_vd1(P) is not None
    auto = check_all_methods(P, independent_depth=True)
    tG, rG = tr(G)
    tH, rH = tr(H)
    assert len(property_vd1_trees(P)) == tG + tH - 1   # Ku-Wang-Hung's second construction
    if rG < tG and rH < tH:
        assert len(auto) == tG + tH - 1 == product_upper_bound(tG, rG, tH, rH, G.n, H.n)
    if P.n <= 40:
        assert generic_packing(P).count >= len(auto)


def test_maximal_when_table_says_yes():
    """Small products where Table I says YES: the exact packer finds no more trees."""
    for P in (cartesian_product(complete(4), complete(4)), cartesian_product(complete(4), complete(6)),
              slimfly(4), slimfly(5), polarstar(2, supernode="paley", paley_q=5)):
        assert generic_packing(P).count == len(auto_trees(P))


# -- random star products --------------------------------------------------------------------------
def random_connected(n: int, p: float, rng: np.random.Generator) -> ArrayGraph:
    g = nx.random_labeled_tree(n, seed=int(rng.integers(2**31)))
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                g.add_edge(u, v)
    return ArrayGraph.from_networkx(g)


@settings(max_examples=25)
@given(st.integers(2, 6), st.integers(3, 7), st.floats(0.0, 0.9), st.floats(0.0, 0.9), st.integers(0, 2**31))
def test_random_star_products(nG, nH, pG, pH, seed):
    rng = np.random.default_rng(seed)
    G = random_connected(nG, pG, rng)
    H = random_connected(nH, pH, rng)
    B = np.stack([rng.permutation(nH) for _ in range(G.m)])
    P = star_product(G, H, B)
    check_all_methods(P)


def invariant_bijections(H: ArrayGraph, m: int, rng: np.random.Generator) -> np.ndarray:
    """Random arc bijections preserving the classes V(E_1)\\V(E_2), I, V(E_2)\\V(E_1) of a split of the
    last tree of H's packing (rooted at vertex 0, E_1 = the tree inside a BFS prefix of about half)."""
    tree = factor_edsts(H)[-1]
    g = nx.Graph(list(map(tuple, tree.edges.tolist())))
    order = list(nx.bfs_tree(g, 0))
    k = max(2, H.n // 2)
    S = set(order[:k])
    parent = {c: p for p, c in nx.bfs_edges(g, 0)}
    inter = {parent[v] for v in range(H.n) if v not in S} & S
    classes = [sorted(S - inter), sorted(inter), sorted(set(range(H.n)) - S)]
    rows = []
    for _ in range(m):
        f = np.arange(H.n)
        for c in classes:
            f[c] = rng.permutation(c) if c else f[c]
        rows.append(f)
    return np.stack(rows)


@settings(max_examples=25)
@given(st.integers(2, 6), st.integers(4, 8), st.floats(0.0, 0.9), st.floats(0.2, 0.9), st.integers(0, 2**31))
def test_random_star_products_with_property(nG, nH, pG, pH, seed):
    rng = np.random.default_rng(seed)
    G = random_connected(nG, pG, rng)
    H = random_connected(nH, pH, rng)
    tH = generic_packing(H).count
    B = invariant_bijections(H, G.m, rng)
    P = star_product(G, H, B)
    w = has_property_vd1(P)
    # the split used to build B has |V(E_2) \ V(E_1)| = n_H - k >= t_H - 1, and |V(E_1) \ V(E_2)| may be
    # small; the search must find a witness whenever the generating split meets the size condition
    tree = factor_edsts(H)[-1]
    g = nx.Graph(list(map(tuple, tree.edges.tolist())))
    order = list(nx.bfs_tree(g, 0))
    k = max(2, H.n // 2)
    parent = {c: p for p, c in nx.bfs_edges(g, 0)}
    inter = {parent[v] for v in order[k:]} & set(order[:k])
    if len(order) - k >= tH - 1 and k - len(inter) >= tH - 1:
        assert w is not None
    if w is not None:
        # the witness is invariant under every arc bijection
        for f in P.bijections:
            assert set(f[w.VE1].tolist()) == set(w.VE1.tolist())
            assert set(f[w.VE2].tolist()) == set(w.VE2.tolist())
        assert len(w.V1only) >= tH - 1 and len(w.V2only) >= tH - 1
        check(P, property_vd1_trees(P), generic_packing(G).count + tH - 1)
    check_all_methods(P)


def test_cyclic_shift_lacks_property_vd1():
    """f(h) = h + 1 on every arc: one orbit, so no invariant split exists (the paper's example after Property V-D.1)."""
    G, H = complete(4), complete(6)          # r = 0 < t on both sides
    P = star_product(G, H, np.roll(np.arange(6), -1))
    assert bijection_orbits(P).tolist() == [0] * 6
    assert has_property_vd1(P) is None
    with pytest.raises(ValueError, match="lacks Property V-D.1"):
        property_vd1_trees(P)
    auto = auto_trees(P)
    assert (len(auto), auto.theorem) == (2 + 3 - 2, "V-B.1")
    assert verify_edsts(P, auto).valid
    # the same factors with identity bijections (Cartesian) reach t_G + t_H - 1
    assert len(auto_trees(cartesian_product(G, H))) == 4


# -- METHODS -----------------------------------------------------------------------------------------
def test_methods_dict():
    assert sorted(METHODS) == ["auto", "generic", "low-depth", "maximum", "optimal-depth", "property", "shallow",
                               "twisted", "universal"]
    P = slimfly(3)
    for name, fn in METHODS.items():
        if name == "property":
            continue
        trees = fn(P)
        none_expected = name in ("universal", "low-depth")  # t_G + t_H - 2 = 1 + 1 - 2 for Slim Fly q = 3
        assert verify_edsts(P, trees, allow_empty=none_expected).valid and (len(trees) == 0) == none_expected
    assert len(METHODS["generic"](P)) == 2
    k6 = complete(6)
    assert len(METHODS["auto"](k6)) == 3 and len(METHODS["generic"](k6)) == 3
    for name in ("universal", "low-depth", "maximum", "twisted", "property"):
        with pytest.raises(ValueError, match=f"method={name} needs a star product"):
            METHODS[name](k6)


def test_generic_trees_on_product_is_maximum():
    P = cartesian_product(complete(3), cycle(4))
    g = generic_trees(P)
    assert len(g) == generic_packing(P).count and verify_edsts(P, g).valid
    assert set(g.constructions()) == {"generic"}


def test_disconnected_supernode_goes_generic():
    H = ArrayGraph.from_edges(range(4), np.array([[0, 1], [2, 3]]))
    P = star_product(complete(3), H, [1, 2, 3, 0], allow_disconnected_supernode=True)
    with pytest.raises(ValueError, match="not connected"):
        universal_trees(P)
    trees = auto_trees(P)
    assert len(trees) == generic_packing(P).count and verify_edsts(P, trees).valid


def test_given_factor_trees_are_used():
    P = slimfly(5)
    g_trees = factor_edsts(P.structure, method="generic")
    trees = maximum_trees(P, g_trees=g_trees)
    assert len(trees) == 3 and verify_edsts(P, trees).valid


@settings(max_examples=20)
@given(st.integers(5, 7), st.integers(3, 6), st.integers(0, 2**31))
def test_relaxed_corollary_v_c_11(nG, nH, seed):
    """Our extension: r_G = t_G - 1 (forest rank t_G - 1) gives t_G + t_H - 1 trees with arbitrary bijections."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        g = nx.gnm_random_graph(nG, int(rng.integers(nG, nG * (nG - 1) // 2 + 1)), seed=int(rng.integers(2**31)))
        if nx.is_connected(g):
            G = ArrayGraph.from_networkx(g)
            tG, rG = tr(G)
            if tG >= 2 and rG == tG - 1:
                break
    else:
        return
    H = complete(nH)
    tH, rH = tr(H)
    P = star_product(G, H, np.stack([rng.permutation(nH) for _ in range(G.m)]))
    trees = maximum_trees(P, relaxed=True)
    check(P, trees, tG + tH - 1)
    if rH < tH:
        assert trees.theorem == "V-C.11+"
        assert len(trees) == product_upper_bound(tG, rG, tH, rH, G.n, H.n)  # maximum (Prop. IV-.3)


def test_relaxed_needs_a_forest():
    P = star_product(complete(4), complete(6), np.roll(np.arange(6), -1))   # r_G = r_H = 0
    with pytest.raises(ValueError, match="relaxed"):
        maximum_trees(P, relaxed=True)
