"""Network topologies: Slim Fly two ways, Hoffman–Singleton, Bundlefly, PolarStar, Chimera, HyperX, torus."""

from __future__ import annotations

from collections import deque

import networkx as nx
import numpy as np
import pytest
import sympy

from starlib.api import families
from starlib.factors import chimera as chimera_plain
from starlib.factors import paley, polarfly
from starlib.fields import tables
from starlib.graphs import ArrayGraph
from starlib.networks import (
    bundlefly,
    chimera,
    complete_paley,
    hyperx,
    paley_loop_matching,
    polarstar,
    slimfly,
    slimfly_hafner,
    torus,
)
from starlib.products import StarProduct

MMS_Q = [q for q in range(3, 33) if len(sympy.factorint(q)) == 1]
MMS_SANITY = {3: (18, 5, 45), 4: (32, 6, 96), 5: (50, 7, 175), 7: (98, 11, 539), 8: (128, 12, 768),
              9: (162, 13, 1053)}


def canonical(e: np.ndarray) -> np.ndarray:
    e = np.sort(e, axis=1)
    return e[np.lexsort((e[:, 1], e[:, 0]))]


def girth(g: nx.Graph) -> int:
    """Shortest cycle length by BFS from every vertex (independent of networkx's girth)."""
    best = np.inf
    for s in g:
        dist, parent = {s: 0}, {s: None}
        queue = deque([s])
        while queue:
            u = queue.popleft()
            for w in g[u]:
                if w not in dist:
                    dist[w], parent[w] = dist[u] + 1, u
                    queue.append(w)
                elif parent[u] != w:
                    best = min(best, dist[u] + dist[w] + 1)
    return int(best)


@pytest.mark.parametrize("q", MMS_Q)
def test_hafner_and_star_forms_have_identical_edges(q):
    """MMS(q): Hafner's (0,x,y)/(1,m,c) graph relabelled by (1,m,c) -> ((1,m), xi^-1 c) is the star product."""
    H, P = slimfly_hafner(q), slimfly(q)
    T = tables(q)
    xi_inv = int(T.inv(T.xi))
    side, a, b = np.array(H.labels).T
    star_index = np.where(side == 0, a * q + b, (q + a) * q + T.mul(xi_inv, b))
    assert [P.labels[i] for i in star_index[:3].tolist()] == [((0, 0), 0), ((0, 0), 1), ((0, 0), 2)]
    assert np.array_equal(canonical(star_index[H.edges]), P.edges)
    delta = P.meta["delta"]
    k = (3 * q - delta) // 2
    assert (P.n, P.m, P.degree_set()) == (2 * q * q, q * q * k, [k])
    if q in MMS_SANITY:
        assert (P.n, k, P.m) == MMS_SANITY[q]
    if q <= 13:
        assert P.diameter() == 2


def test_slimfly_bijections_are_the_affine_maps():
    q = 7
    P = slimfly(q)
    T = tables(q)
    for k, (u, v) in enumerate(P.structure.edges.tolist()):
        x, m = u, v - q
        expected = [(pow(T.xi, -1, q) * (y - m * x)) % q for y in range(q)]
        assert P.bijections[k].tolist() == expected


def test_mms5_is_hoffman_singleton():
    g = slimfly(5)
    assert (g.n, g.m, g.degree_set(), g.diameter()) == (50, 175, [7], 2)
    nxg = g.to_networkx()
    assert girth(nxg) == 5
    assert girth(nx.petersen_graph()) == 5 and girth(nx.cycle_graph(7)) == 7  # the girth oracle itself
    assert nx.is_isomorphic(nxg, nx.hoffman_singleton_graph())


@pytest.mark.parametrize(("q", "pq"), [(3, 5), (4, 5), (5, 5), (3, 9)])
def test_bundlefly(q, pq):
    P = bundlefly(q, pq)
    delta = {1: 1, 3: -1, 0: 0}[q % 4]
    k = (3 * q - delta) // 2
    assert (P.n, P.m) == (2 * q * q * pq, q * q * k * pq + 2 * q * q * pq * (pq - 1) // 4)
    assert P.degree_set() == [k + (pq - 1) // 2]
    assert P.structure.name == "slimfly-hafner" and P.supernode.name == "paley"
    if P.n <= 250:
        assert P.diameter() == 3


@pytest.mark.parametrize(("q", "supernode", "extra"), [
    (2, "paley", {"paley_q": 5}), (3, "paley", {"paley_q": 5}), (3, "paley", {"paley_q": 9}),
    (4, "paley", {"paley_q": 5}), (2, "iq", {"d": 3}), (3, "iq", {"d": 3}), (3, "iq", {"d": 4}),
    (4, "iq", {"d": 3}), (2, "iq", {"d": 7}), (2, "bdf", {"d": 8}), (5, "paley", {"paley_q": 5}),
])
def test_polarstar(q, supernode, extra):
    P = polarstar(q, supernode=supernode, **extra)
    H, G = P.supernode, P.structure
    nG = q * q + q + 1
    assert (P.n, P.m) == (nG * H.n, q * (q + 1) ** 2 // 2 * H.n + nG * H.m)
    dH = H.degree_set()[0]
    assert P.degree_set() == [q + dH, q + 1 + dH]
    assert G.name == "polarfly" and np.all(P.bijections == H.meta["bijection"])
    assert P.diameter() == 3
    L = polarstar(q, supernode=supernode, loops=True, **extra)
    assert L.diameter() == 3
    assert L.m == P.m + (q + 1) * (H.n // 2)
    if supernode != "paley":  # the loop edges of an involution are a perfect matching: (q+1+d)-regular
        assert L.degree_set() == [q + 1 + dH]
    else:  # every vertex but (a, 0) of the q+1 absolute supernodes a
        low = np.flatnonzero(L.degrees() == q + dH)
        assert low.tolist() == sorted((G.meta["absolute_points"] * H.n).tolist())
        assert L.degree_set() == [q + dH, q + 1 + dH]


def test_polarstar_sanity_and_rejects():
    assert polarstar(3, supernode="iq", d=3).m == 348
    assert polarstar(3, supernode="iq", d=3, loops=True).m == 364
    with pytest.raises(ValueError, match="paley_q and d are both missing"):
        polarstar(3)
    with pytest.raises(ValueError, match="paley_q=None"):
        polarstar(3, supernode="paley")
    with pytest.raises(ValueError, match="not both"):
        polarstar(3, paley_q=5, d=3)
    P = polarstar(3, d=3)  # d implies the IQ supernode, as the tables' polarstar-iq
    assert (P.n, P.m, P.params["supernode"]) == (104, 348, "iq")
    with pytest.raises(ValueError, match="paley_q=7"):
        polarstar(3, paley_q=7)
    with pytest.raises(ValueError, match="d=5"):
        polarstar(3, supernode="iq", d=5)
    with pytest.raises(ValueError, match="d=None"):
        polarstar(3, supernode="iq")
    with pytest.raises(ValueError, match="supernode='star'"):
        polarstar(3, supernode="star", d=3)
    with pytest.raises(ValueError, match="q=6"):
        polarstar(6, supernode="iq", d=3)
    with pytest.raises(ValueError, match="paley_q=5: paley_q is for supernode='paley'"):
        polarstar(3, supernode="iq", d=3, paley_q=5)


@pytest.mark.parametrize(("n", "q"), [(2, 5), (3, 5), (4, 5), (6, 5), (5, 9), (10, 9), (13, 13)])
def test_complete_paley(n, q):
    P = complete_paley(n, q)
    assert (P.n, P.degree_set()) == (n * q, [n - 1 + (q - 1) // 2])
    assert P.diameter() == 2
    if (n, q) == (2, 5):
        assert nx.is_isomorphic(P.to_networkx(), nx.petersen_graph())


def test_bundlefly_and_complete_paley_reject():
    with pytest.raises(ValueError, match="paley_q=7"):
        bundlefly(3, 7)
    with pytest.raises(ValueError, match="q=2"):
        bundlefly(2, 5)
    with pytest.raises(ValueError, match="n=1"):
        complete_paley(1, 5)
    with pytest.raises(ValueError, match="q=6"):
        slimfly(6)


@pytest.mark.parametrize(("rows", "cols", "toric", "components", "m"), [
    (2, 2, 0, 2, 80), (2, 4, 0, 3, 168), (2, 6, 0, 4, 256), (4, 6, 0, 6, 536), (6, 6, 0, 8, 816),
    (4, 4, 1, 2, 384), (4, 8, 1, 4, 768),
])
def test_chimera_star_product(rows, cols, toric, components, m):
    P = chimera(rows, cols, toric)
    C = chimera_plain(rows, cols, toric)
    idx = P.meta["chimera_index"]
    assert np.array_equal(np.sort(idx), np.arange(C.n))
    assert np.array_equal(canonical(idx[P.edges]), C.edges)  # the star product IS the Chimera graph
    assert (P.n, P.m) == (C.n, m)
    assert nx.number_connected_components(P.supernode.to_networkx()) == components
    assert P.structure.n == 2 and P.supernode.n == C.n // 2


@pytest.mark.parametrize(("rows", "cols", "toric", "match"), [
    (4, 4, 0, "rows=4, cols=4"), (3, 4, 0, "rows=3"), (2, 5, 0, "cols=5"), (6, 4, 1, "rows=6"),
    (8, 8, 0, "rows=8, cols=8"),
])
def test_chimera_star_product_rejects(rows, cols, toric, match):
    with pytest.raises(ValueError, match=match):
        chimera(rows, cols, toric)


def test_hyperx_and_torus():
    g = hyperx([3, 4, 5])
    expected = nx.cartesian_product(nx.cartesian_product(nx.complete_graph(3), nx.complete_graph(4)),
                                    nx.complete_graph(5))
    assert (g.n, g.m, g.degree_set()) == (60, expected.number_of_edges(), [2 + 3 + 4])
    assert nx.is_isomorphic(g.to_networkx(), expected)
    assert isinstance(g, StarProduct) and g.labels[-1] == (2, (3, 4))
    t = torus("4,5,6")
    assert (t.n, t.m, t.degree_set(), t.diameter()) == (120, 360, [6], 2 + 2 + 3)
    assert hyperx("7").m == 21
    for bad, builder, match in (("2,y", hyperx, "sizes='2,y'"), ([2, 1], hyperx, "sizes=1"),
                                ([4, 2], torus, "sizes=2"), ("", torus, "empty")):
        with pytest.raises(ValueError, match=match):
            builder(bad)


def test_registry_has_the_interface_names():
    fams = families()
    for name in ["complete", "complete-bipartite", "paley", "mms-supernode", "slimfly", "polarfly",
                 "inductive-quad", "bdf", "bundlefly", "polarstar", "complete-paley", "hyperx", "torus",
                 "chimera"]:
        assert name in fams, name
    samples = {"complete": {"n": 4}, "complete-bipartite": {"n": 3}, "paley": {"q": 13},
               "mms-supernode": {"q": 7}, "slimfly": {"q": 5}, "polarfly": {"q": 3, "loops": 1},
               "inductive-quad": {"d": 4}, "bdf": {"d": 7}, "bundlefly": {"q": 3, "paley_q": 5},
               "polarstar": {"q": 3, "supernode": "iq", "d": 3}, "complete-paley": {"n": 2, "q": 5},
               "hyperx": {"sizes": "3,3"}, "torus": {"sizes": "3,4"}, "chimera": {"rows": 2, "cols": 4, "toric": 0},
               "chimera-graph": {"rows": 3, "cols": 3, "toric": 1}, "cycle": {"n": 5},
               "slimfly-hafner": {"q": 4}}
    for name, kw in samples.items():
        g = fams[name].builder(**kw)
        assert isinstance(g, ArrayGraph) and g.n > 0 and g.is_connected(), name
        assert set(kw) <= set(fams[name].params), name


def test_polarfly_structure_of_polarstar_is_loop_free():
    P = polarstar(3, paley_q=5)
    assert P.structure.m == polarfly(3).m and "loops" not in P.structure.meta


@pytest.mark.parametrize("pq", [5, 9, 13, 17, 25, 29])
def test_paley_loop_matching_is_a_perfect_matching_of_the_nonzero_elements(pq):
    """{h, xi h} with (xi - 1) h a non-square: squares matched to non-squares, 0 alone, no Paley edge among them.

    Oracle: galois's arithmetic (squares as x**2, its primitive element), not starlib's tables.
    """
    import galois

    GF = galois.GF(pq)
    xi = GF.primitive_element
    squares = {int(x) for x in GF(np.arange(1, pq)) ** 2}
    pairs = paley_loop_matching(pq)
    H = paley(pq)
    assert int(H.meta["xi"]) == int(xi)
    expected = [(h, int(xi * GF(h))) for h in range(1, pq) if int((xi - GF(1)) * GF(h)) not in squares]
    assert [tuple(p) for p in pairs.tolist()] == expected
    assert np.array_equal(H.meta["bijection"][pairs[:, 0]], pairs[:, 1])  # each pair is {h, f(h)}
    assert sorted(pairs.ravel().tolist()) == list(range(1, pq))  # every vertex once, except 0
    assert all((a in squares) != (b in squares) for a, b in pairs.tolist())  # a square with a non-square
    edges = {tuple(e) for e in np.sort(H.edges, axis=1).tolist()}
    assert not edges & {tuple(sorted(p)) for p in pairs.tolist()}
    with pytest.raises(ValueError, match="paley_q=7"):
        paley_loop_matching(7)


@pytest.mark.parametrize(("q", "pq"), [(2, 5), (3, 5), (3, 9), (3, 13), (4, 13), (5, 5)])
def test_polarstar_paley_loop_edges_are_all_new(q, pq):
    """Every loop edge is new: (q+1)(q'-1)/2 more links than the EDST paper's graph (605 -> 617 for ER_5 * QR(5))."""
    P, L = polarstar(q, paley_q=pq), polarstar(q, paley_q=pq, loops=True)
    assert L.m - P.m == (q + 1) * (pq - 1) // 2
    old = {tuple(e) for e in canonical(P.edges).tolist()}
    new = [tuple(e) for e in canonical(L.edges).tolist() if tuple(e) not in old]
    a = P.meta["absolute_points"]
    assert sorted(new) == sorted(tuple(sorted((int(x) * pq + h, int(x) * pq + fh)))
                                 for x in a for h, fh in paley_loop_matching(pq).tolist())
    if (q, pq) == (5, 5):
        assert (P.m, L.m, L.degree_set(), int((L.degrees() == 7).sum())) == (605, 617, [7, 8], 6)
