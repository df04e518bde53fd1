"""The standard networks (starlib.standard) against independent sources.

Independent references: networkx's generators (``hypercube_graph``, ``grid_graph``, ``complete_bipartite_graph``,
``petersen_graph``, ``complete_graph``), constructions written here from each reference's definition in another
form (the k-ary n-tree by testing every pair of switches; each Dragonfly arrangement by the port of a group that
leads to a given group, the inverse of the builder's map), published counts (Petrini and Vanneschi: ``n k^(n-1)``
switches and ``k^n`` endpoints; Barden et al. 1999: ``Q_n`` has ``floor(n/2)`` edge-disjoint spanning trees; Kim
et al.: at most 3 hops between routers), breadth-first searches written here, and the families' closed forms
evaluated by :func:`starlib.paper.formulas.counts`. The omega network, which is no family, is built here from
Lawrie's definition to check the two facts that make it none (docs/networks.md §11.6).
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter, deque

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.cli.main import main
from starlib.paper.formulas import closed_forms, counts
from starlib.products import StarProduct
from starlib.registry import NETWORK_FAMILIES
from starlib.standard import (
    ARRANGEMENTS,
    _connect,
    _rewire,
    dragonfly,
    dragonfly_ports,
    fat_tree,
    hypercube,
    jellyfish,
    mesh,
    mesh_degrees,
)


def flat(label):
    """A nested product label ``(a, (b, c))`` as the flat tuple ``(a, b, c)``; a single coordinate as it is (as
    networkx labels one-dimensional grids and cubes)."""
    out = []
    while isinstance(label, tuple):
        out.append(label[0])
        label = label[1]
    return (*out, label) if out else label


def label_edges(g, relabel=lambda x: x):
    return {frozenset((relabel(g.labels[u]), relabel(g.labels[v]))) for u, v in g.edges.tolist()}


def bfs_distances(adj, source):
    dist = {source: 0}
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for w in adj[u]:
            if w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    return dist


def adjacency(g):
    adj = {v: [] for v in range(g.n)}
    for u, v in g.edges.tolist():
        adj[u].append(v)
        adj[v].append(u)
    return adj


def check_forms(name, g, **params):
    """The declared closed forms at these parameters: vertices, links, and each degree with its count."""
    assert counts(name, **params) == {"n": g.n, "m": g.m, "degrees": g.degree_set()}
    forms = closed_forms(name)
    values = {s: params[s.name] for e in (forms.n, forms.m) for s in e.free_symbols}
    declared = Counter()
    for deg, cnt in forms.degrees:
        values.update({s: params[s.name] for s in (deg.free_symbols | cnt.free_symbols)})
        declared[int(deg.subs(values))] += int(cnt.subs(values))
    assert {d: c for d, c in declared.items() if c} == dict(Counter(g.degrees().tolist()))


def check_canonical(g):
    e = g.edges
    assert e.dtype == np.int64 and (e[:, 0] < e[:, 1]).all()
    keys = e[:, 0] * g.n + e[:, 1]
    assert (np.diff(keys) > 0).all()  # sorted, no repeated link


# --------------------------------------------------------------------------------------------- hypercube
@pytest.mark.parametrize("n", range(1, 9))
def test_hypercube_is_networkx_hypercube_graph_edge_for_edge(n):
    g = hypercube(n)
    check_canonical(g)
    ref = nx.hypercube_graph(n)  # nodes: tuples of n bits
    assert label_edges(g, flat) == {frozenset(e) for e in ref.edges()}
    if n <= 5:
        assert nx.is_isomorphic(g.to_networkx(), ref)
    assert [flat(x) for x in g.labels] == sorted(ref.nodes())  # index = the bits read as a binary number
    check_forms("hypercube", g, n=n)
    assert g.diameter() == n
    assert isinstance(g, StarProduct) == (n >= 2)  # K_2 x Q_{n-1}: the constructions read its factors
    if n >= 2:
        assert g.structure.n == 2 and g.supernode.params["n"] == n - 1


def test_hypercube_ports_and_rules():
    g = hypercube(5, p=3)
    assert g.meta["radix"] == 8 and g.meta["endpoints"].tolist() == [3] * 32 and g.params == {"n": 5, "p": 3}
    for bad, match in (({"n": 0}, "n=0 is too small: need an integer 1 <= n <= 64"),
                       ({"n": 65}, "n=65 is too large"), ({"n": 3, "p": 0}, "p=0 is too small"),
                       ({"n": 2.5}, "n=2.5")):
        with pytest.raises(ValueError, match=match):
            hypercube(**bad)
    with pytest.raises(ValueError, match="n=40 is too large: hypercube"):  # refused before allocating
        hypercube(40)


@pytest.mark.parametrize("n", range(2, 9))
def test_hypercube_has_floor_n_over_2_edge_disjoint_spanning_trees(n):
    """Barden, Libeskind-Hadas, Davis and Williams, Inform. Process. Lett. 70 (1999): Q_n has floor(n/2) EDSTs."""
    trees = starlib.edsts(hypercube(n), method="generic")
    assert len(trees) == n // 2 and starlib.verify(hypercube(n), trees).valid


# --------------------------------------------------------------------------------------------- mesh
@pytest.mark.parametrize("sizes", [[5], [2, 2], [3, 4], [4, 5], [2, 3, 4], [3, 3, 3], [2, 2, 2, 3]])
def test_mesh_is_networkx_grid_graph_edge_for_edge(sizes):
    g = mesh(sizes)
    check_canonical(g)
    ref = nx.grid_graph(dim=sizes)  # networkx lists the coordinates in the reverse order of dim
    reverse = (lambda x: flat(x)[::-1]) if len(sizes) > 1 else flat
    assert label_edges(g, reverse) == {frozenset(e) for e in ref.edges()}
    assert nx.is_isomorphic(g.to_networkx(), ref)
    assert g.diameter() == sum(s - 1 for s in sizes)
    assert g.meta["radix"] == max(g.degree_set()) + 1


def brute_mesh_degrees(sizes):
    """Degrees of the grid by counting, for every point, the coordinates that can move by +-1."""
    out = Counter()
    for point in itertools.product(*(range(s) for s in sizes)):
        out[sum((x > 0) + (x < s - 1) for x, s in zip(point, sizes, strict=True))] += 1
    return dict(sorted(out.items()))


@pytest.mark.parametrize("sizes", [[2], [7], [2, 2], [2, 7], [4, 5], [3, 3, 3], [2, 3, 4, 5]])
def test_mesh_counts_and_degrees_against_brute_force(sizes):
    g = mesh(sizes)
    est = NETWORK_FAMILIES["mesh"].estimate({"sizes": sizes})
    assert (est.n, est.m) == (g.n, g.m) == (int(np.prod(sizes)), len(nx.grid_graph(dim=sizes).edges()))
    assert mesh_degrees(sizes) == brute_mesh_degrees(sizes) == dict(sorted(Counter(g.degrees().tolist()).items()))


def test_mesh_of_twos_is_the_hypercube_and_sizes_are_checked():
    assert np.array_equal(mesh("2,2,2,2").edges, hypercube(4).edges)
    assert mesh("3,4").params == {"sizes": "3,4", "p": 1} and mesh([3, 4]).params["sizes"] == "3,4"
    assert mesh("3,4").supernode.params["sizes"] == "4"  # each nested product is a mesh itself
    for bad, match in (("4,1", "sizes=1 is too small"), ("4,x", "sizes='4,x'"), ("", "empty")):
        with pytest.raises(ValueError, match=match):
            mesh(bad)
    with pytest.raises(ValueError, match="sizes=1"):
        mesh_degrees([1, 3])


# --------------------------------------------------------------------------------------------- fat tree
def brute_fat_tree(k, n):
    """Petrini and Vanneschi's switches <w, l> and their rule, tested on every pair of switches."""
    switches = [(level, w) for level in range(n) for w in itertools.product(range(k), repeat=n - 1)]
    edges = set()
    for (l1, w1), (l2, w2) in itertools.combinations(switches, 2):
        if l2 == l1 + 1 and all(w1[i] == w2[i] for i in range(n - 1) if i != l1):
            edges.add(frozenset(((l1, w1), (l2, w2))))
    return switches, edges


@pytest.mark.parametrize("k, n", [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (2, 4), (3, 4), (2, 5)])
def test_fat_tree_is_the_k_ary_n_tree(k, n):
    g = fat_tree(k, n)
    check_canonical(g)
    switches, edges = brute_fat_tree(k, n)
    assert sorted(g.labels) == sorted(switches) and label_edges(g) == edges
    # published counts: n k^(n-1) switches, k^n endpoints, every switch k links down (to switches or endpoints)
    assert g.n == n * k ** (n - 1) and int(g.meta["endpoints"].sum()) == k**n and g.meta["radix"] == 2 * k
    check_forms("fat-tree", g, k=k, n=n)
    level = np.array([x[0] for x in g.labels])
    used = g.degrees() + g.meta["endpoints"]
    assert (used[level == 0] == k).all() and (used[level > 0] == 2 * k).all()
    assert (g.meta["endpoints"][level == n - 1] == k).all() and (g.meta["endpoints"][level < n - 1] == 0).all()
    # diameter 2(n-1), reached between leaves
    adj = adjacency(g)
    leaves = np.flatnonzero(level == n - 1).tolist()
    leaf_diameter = max(max(d for v, d in bfs_distances(adj, s).items() if v in set(leaves)) for s in leaves)
    assert leaf_diameter == g.diameter() == 2 * (n - 1)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_a_two_level_fat_tree_is_a_complete_bipartite_graph(k):
    assert nx.is_isomorphic(fat_tree(k, 2).to_networkx(), nx.complete_bipartite_graph(k, k))


def test_fat_tree_rules():
    for bad, match in (({"k": 1, "n": 3}, "k=1 is too small"), ({"k": 4, "n": 1}, "n=1 is too small"),
                       ({"k": 4, "n": 65}, "n=65 is too large")):
        with pytest.raises(ValueError, match=match):
            fat_tree(**bad)
    with pytest.raises(ValueError, match="k=64 is too large: fat-tree"):
        fat_tree(64, 8)


# --------------------------------------------------------------------------------------------- Dragonfly
def port_towards(arrangement, a, h, i, j):
    """The global port of group i whose link reaches group j, from each arrangement's definition read backwards
    (Hastings et al. 2015): absolute numbers the other groups in order, relative counts the groups after i,
    circulant alternates the groups after and before i."""
    g = a * h + 1
    if arrangement == "absolute":
        return j if j < i else j - 1
    if arrangement == "relative":
        return (j - i - 1) % g
    d = (j - i) % g
    return 2 * (d - 1) if d <= a * h // 2 else 2 * (g - d - 1) + 1


def brute_dragonfly(a, h, arrangement):
    g = a * h + 1
    edges = {frozenset(((i, x), (i, y))) for i in range(g) for x, y in itertools.combinations(range(a), 2)}
    for i, j in itertools.combinations(range(g), 2):
        ri, rj = port_towards(arrangement, a, h, i, j) // h, port_towards(arrangement, a, h, j, i) // h
        edges.add(frozenset(((i, ri), (j, rj))))
    return edges


CASES = [(a, h) for a in range(1, 6) for h in range(1, 5)]


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
@pytest.mark.parametrize("a, h", CASES)
def test_dragonfly_against_its_definition(a, h, arrangement):
    if arrangement == "circulant" and a * h % 2:
        with pytest.raises(ValueError, match=f"a={a}, h={h}: a\\*h = {a * h} is odd: arrangement='circulant'"):
            dragonfly(a, 1, h, arrangement)
        return
    g = dragonfly(a, 2, h, arrangement)
    check_canonical(g)
    assert label_edges(g) == brute_dragonfly(a, h, arrangement)
    check_forms("dragonfly", g, a=a, p=2, h=h)
    groups = np.array([x[0] for x in g.labels])
    gu, gv = groups[g.edges[:, 0]], groups[g.edges[:, 1]]
    between = Counter(zip(gu[gu != gv].tolist(), gv[gu != gv].tolist(), strict=True))
    assert len(between) == (a * h + 1) * a * h // 2 and set(between.values()) == {1}  # one link per two groups
    glob = np.bincount(g.edges[gu != gv].ravel(), minlength=g.n)
    assert (glob == h).all()  # h global links per router
    assert g.meta["radix"] == a - 1 + h + 2 and (g.meta["endpoints"] == 2).all()
    # Kim et al.: at most 3 hops (local, global, local); exactly 3 once a group has more routers than h + 1
    assert g.diameter() <= 3 and (g.diameter() == 3 or a < h + 2)


@pytest.mark.parametrize("arrangement", ARRANGEMENTS)
@pytest.mark.parametrize("a, h", [(2, 2), (4, 2), (3, 4), (6, 3)])
def test_dragonfly_ports_are_an_involution(a, h, arrangement):
    if arrangement == "circulant" and a * h % 2:
        return
    t, back = dragonfly_ports(a, h, arrangement)
    g = a * h + 1
    i = np.arange(g)[:, None].repeat(a * h, axis=1)
    k = np.arange(a * h)[None, :].repeat(g, axis=0)
    assert (t != i).all() and np.array_equal(t[t, back], i) and np.array_equal(back[t, back], k)
    assert all(sorted(row) == sorted(set(range(g)) - {x}) for x, row in enumerate(t.tolist()))


def test_small_dragonflies_are_known_graphs():
    assert nx.is_isomorphic(dragonfly(2, 1, 2, "circulant").to_networkx(), nx.petersen_graph())
    assert dragonfly(2, 1, 2, "circulant").diameter() == 2
    for arrangement in ARRANGEMENTS:  # one router per group: the complete graph on h + 1 routers
        assert nx.is_isomorphic(dragonfly(1, 1, 4, arrangement).to_networkx(), nx.complete_graph(5))
    assert nx.is_isomorphic(dragonfly(2, 1, 1).to_networkx(), nx.cycle_graph(6))


def test_dragonfly_rules_and_the_command_line(capsys):
    for bad, match in (({"a": 0, "p": 1, "h": 1}, "a=0 is too small"), ({"a": 2, "p": 0, "h": 1}, "p=0"),
                       ({"a": 2, "p": 1, "h": 0}, "h=0 is too small"),
                       ({"a": 2, "p": 1, "h": 1, "arrangement": "palmtree"}, "arrangement='palmtree'")):
        with pytest.raises(ValueError, match=match):
            dragonfly(**bad)
    with pytest.raises(ValueError, match="a=100000 is too large: dragonfly"):
        dragonfly_ports(100000, 1000)
    assert main(["info", "dragonfly", "a=4", "p=2", "h=2", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["n"], info["m"], info["diameter"], info["regular"]) == (36, 90, 3, True)


# --------------------------------------------------------------------------------------------- Jellyfish
JELLY = [(3, 2), (4, 2), (5, 2), (6, 3), (7, 2), (8, 7), (9, 4), (10, 3), (10, 8), (11, 6), (12, 5), (16, 3),
         (20, 9), (20, 10), (21, 10), (30, 29), (50, 3), (64, 6), (101, 50), (200, 7)]


@pytest.mark.parametrize("n, r", JELLY)
def test_jellyfish_is_a_connected_simple_regular_graph(n, r):
    for seed in range(5):
        g = jellyfish(n, r, seed=seed)
        check_canonical(g)
        assert g.m == n * r // 2 and (g.degrees() == r).all() and len(bfs_distances(adjacency(g), 0)) == n
        check_forms("jellyfish", g, n=n, r=r, p=1, seed=seed)
        assert g.meta["radix"] == r + 1 and g.params["seed"] == seed


def test_jellyfish_dense_members_are_complements():
    assert nx.is_isomorphic(jellyfish(7, 6).to_networkx(), nx.complete_graph(7))
    comp = nx.complement(jellyfish(10, 8, seed=3).to_networkx())
    assert sorted(d for _, d in comp.degree()) == [1] * 10  # a perfect matching is missing


def digest(g):
    return hashlib.sha256(g.edges.astype("<i8").tobytes()).hexdigest()[:16]


def test_jellyfish_is_the_same_graph_for_the_same_seed():
    """The graph depends only on (n, r, seed): built twice it is the same, other seeds give others, and the
    digests below are those of the lock's numpy (PCG64's raw stream and integer operations only; a change of the
    generator or of the algorithm shows here)."""
    assert np.array_equal(jellyfish(40, 5, seed=11).edges, jellyfish(40, 5, seed=11).edges)
    assert len({digest(jellyfish(40, 5, seed=s)) for s in range(10)}) == 10
    got = {(n, r, s): digest(jellyfish(n, r, seed=s)) for n, r, s in [(40, 5, 0), (200, 2, 1), (1000, 7, 2),
                                                                         (30, 20, 3)]}
    assert got == PINNED


PINNED = {(40, 5, 0): "a50668bbad74c235", (200, 2, 1): "36d03a679ffb5986", (1000, 7, 2): "07031f506827cd12",
          (30, 20, 3): "0a678cf418564bbd"}


def test_jellyfish_rules():
    for bad, match in (({"n": 10, "r": 10}, "r=10 is too large: an r-regular simple graph on n=10 switches needs "
                                             "r < n"),
                       ({"n": 9, "r": 3}, "n\\*r = 27 is odd"), ({"n": 10, "r": 1}, "r=1 is too small"),
                       ({"n": 2, "r": 1}, "n=2 is too small"), ({"n": 10, "r": 3, "seed": -1}, "seed=-1")):
        with pytest.raises(ValueError, match=match):
            jellyfish(**bad)
    with pytest.raises(ValueError, match="n=100000000 is too large: jellyfish"):
        jellyfish(10**8, 64)


def test_rewiring_removes_loops_and_repeated_pairs():
    bits = np.random.default_rng(5).bit_generator
    e = np.array([[0, 0], [1, 1], [2, 3], [2, 3], [4, 5], [4, 5], [6, 7], [6, 7], [0, 8], [1, 9], [8, 9],
                  [10, 11], [10, 11], [11, 10]], dtype=np.int64)  # 12 vertices of degree 2 (0 and 1 by loops)
    degrees = np.bincount(e.ravel(), minlength=12)
    assert _rewire(e, 12, bits)
    assert (e[:, 0] != e[:, 1]).all() and len({tuple(sorted(x)) for x in e.tolist()}) == len(e)
    assert np.array_equal(np.bincount(e.ravel(), minlength=12), degrees)


def test_joining_components_keeps_degrees_even_across_bridges():
    """K_4 and a cubic graph on 10 vertices with a bridge (two K_4 with an edge subdivided, the new vertices
    joined) and a 3-prism: one connected cubic graph after the join."""
    k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    side = [(1, 2), (1, 3), (2, 3), (0, 2), (0, 3), (0, 4), (1, 4)]  # K_4 on 0..3 with 0-1 subdivided by 4
    bridged = [(4 + u, 4 + v) for u, v in side] + [(9 + u, 9 + v) for u, v in side] + [(8, 13)]
    prism = [(14, 15), (15, 16), (14, 16), (17, 18), (18, 19), (17, 19), (14, 17), (15, 18), (16, 19)]
    e = np.array(k4 + bridged + prism, dtype=np.int64)
    assert (np.bincount(e.ravel()) == 3).all()
    _connect(e, 20)
    g = nx.Graph(e.tolist())
    assert nx.is_connected(g) and g.number_of_edges() == len(e) and {d for _, d in g.degree()} == {3}


# --------------------------------------------------------------------------------------------- omega (no family)
def omega(s):
    """Lawrie's omega network on N = 2^s lines: s stages of N/2 switches 2 x 2, a perfect shuffle (the rotation
    of s bits) before each stage; links one-way, from stage j to stage j + 1."""
    N = 2**s
    shuffle = lambda y: ((y << 1) | (y >> (s - 1))) & (N - 1)  # noqa: E731
    D = nx.DiGraph()
    D.add_nodes_from((j, t) for j in range(s) for t in range(N // 2))
    D.add_edges_from(((j, y // 2), (j + 1, shuffle(y) // 2)) for j in range(s - 1) for y in range(N))
    return D


@pytest.mark.parametrize("s", range(2, 7))
def test_omega_has_no_spanning_tree_along_its_links_and_both_ways_it_is_the_2_ary_tree(s):
    """docs/networks.md §11.6: why the omega network is no family."""
    D = omega(s)
    n = D.number_of_nodes()
    assert all(len(nx.descendants(D, v)) < n - 1 and len(nx.ancestors(D, v)) < n - 1 for v in D)
    U = D.to_undirected()
    assert nx.is_isomorphic(U, fat_tree(2, s).to_networkx())
    assert U.number_of_edges() // (n - 1) == 1  # at most one EDST even with the links both ways
