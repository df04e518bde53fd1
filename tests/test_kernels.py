"""The compiled kernels against independent implementations (scipy, networkx, plain Python), and the
verifier's two stages (certificate and diagnosis) against each other on corrupted tree sets.

Matching and flow: :func:`hopcroft_karp` and :func:`max_flow` return exactly scipy's matching and flow (the ER_q
constructions rely on that choice among several optima) and the sizes and values networkx computes on its own."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib._kernels import (
    bfs,
    bfs_edges,
    bfs_scan,
    canonical_rows,
    component_roots,
    count_components,
    csr,
    eccentricities,
    edst_certificate,
    find,
    forest_edges,
    hopcroft_karp,
    max_flow,
    union_edges,
)
from starlib.edst import METHODS, Tree, verify_edsts
from starlib.edst.trees import _SMALL, bfs_tree
from starlib.edst.verify import _diagnose
from starlib.networks import bundlefly, slimfly


def _python_bfs(n: int, edges: np.ndarray, root: int) -> tuple[list[int], list[int]]:
    """Reference BFS over adjacency lists appended in edge order."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges.tolist():
        adj[u].append(v)
        adj[v].append(u)
    dist, par, frontier = [-1] * n, [-1] * n, [root]
    dist[root] = 0
    while frontier:
        nxt = []
        for x in frontier:
            for y in adj[x]:
                if dist[y] < 0:
                    dist[y], par[y] = dist[x] + 1, x
                    nxt.append(y)
        frontier = nxt
    return dist, par


def _random_graph(n: int, m: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, size=(m, 2))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(0, 120), st.integers(0, 10**6))
def test_bfs_in_edge_order_equals_python_lists(n, m, seed):
    e = _random_graph(n, m, seed)
    e = e[e[:, 0] != e[:, 1]]
    root = seed % n
    dist, par, order = bfs(*csr(n, e, sort=False), root)
    ref_dist, ref_par = _python_bfs(n, e, root)
    assert dist.tolist() == ref_dist and par.tolist() == ref_par
    assert sorted(order.tolist()) == [v for v in range(n) if ref_dist[v] >= 0] and order[0] == root


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(0, 120), st.integers(0, 10**6), st.integers(0, 6))
def test_bfs_scan_stamps_cut_and_components(n, m, seed, limit):
    """bfs_scan against the plain search: a stamp per search (no resets), the depth cut, and one stamp over
    several calls that continue the visiting order (component by component)."""
    e = _random_graph(n, m, seed)
    e = e[e[:, 0] != e[:, 1]]
    indptr, indices = csr(n, e, sort=False)
    ref = [_python_bfs(n, e, r)[0] for r in range(n)]
    seen, dist, parent = np.full(n, -1), np.zeros(n, np.int64), np.full(n, -7)
    order = np.empty(n, np.int64)
    for r in range(n):  # stamp r: the arrays carry the previous searches
        tail = bfs_scan(indptr, indices, np.array([r]), r, seen, dist, parent, order, 0, n)
        assert order[0] == r and sorted(order[:tail].tolist()) == [v for v in range(n) if ref[r][v] >= 0]
        assert [int(dist[v]) for v in order[:tail]] == [ref[r][v] for v in order[:tail]]
        assert all(parent[v] == -1 if v == r else dist[parent[v]] == dist[v] - 1 for v in order[:tail].tolist())
    # the cut: every vertex within limit + 1 is reached, none beyond
    seen[:] = -1
    tail = bfs_scan(indptr, indices, np.array([0]), 0, seen, dist, np.empty(0, np.int64), order, 0, limit)
    assert sorted(order[:tail].tolist()) == [v for v in range(n) if 0 <= ref[0][v] <= limit + 1]
    # one stamp, calls continuing at the returned tail: the components one after another (int32 scratch)
    seen32, dist32, order32 = np.full(n, -1, np.int32), np.zeros(n, np.int32), np.empty(n, np.int32)
    ip32, ix32 = indptr.astype(np.int32), indices.astype(np.int32)
    tail, components = 0, 0
    for s in range(n):
        if seen32[s] != 0:
            components += 1
            tail = bfs_scan(ip32, ix32, np.array([s], np.int32), 0, seen32, dist32, ip32[:0], order32, tail, n)
    assert tail == n and components == count_components(n, e)
    # without stamps (seen empty): visited iff dist >= 0, the same order
    dist32[:] = -1
    tail2, order2 = 0, np.empty(n, np.int32)
    for s in range(n):
        if dist32[s] < 0:
            tail2 = bfs_scan(ip32, ix32, np.array([s], np.int32), 0, ip32[:0], dist32, ip32[:0], order2, tail2, n)
    assert tail2 == n and order2.tolist() == order32.tolist()
    # eccentricities run on it: the largest reference distance, -1 where a vertex is unreachable
    expect = [max(d) if min(d) >= 0 else -1 for d in ref]
    assert eccentricities(indptr, indices, np.arange(n)).tolist() == expect


@pytest.mark.parametrize("seed", range(5))
def test_bfs_over_sorted_lists_equals_scipy(seed):
    n = 3000
    e = _random_graph(n, 9000, seed)
    e = e[e[:, 0] != e[:, 1]]
    a = sp.csr_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n, n))
    ref_order, ref_pred = csgraph.breadth_first_order(a, 7, directed=False, return_predecessors=True)
    dist, par, order = bfs(*csr(n, e, sort=True), 7)
    assert order.tolist() == ref_order.tolist()
    assert np.array_equal(np.where(ref_pred < 0, -1, ref_pred), par)
    ref_dist = csgraph.shortest_path(a, unweighted=True, indices=7)
    assert np.array_equal(np.where(np.isinf(ref_dist), -1, ref_dist).astype(np.int64), dist)


def test_bfs_tree_neighbour_order_switch():
    """Up to _SMALL vertices BFS trees follow edge order, above it sorted neighbours (as before the kernels)."""
    cyc = np.array([[0, 3], [0, 1], [1, 2], [2, 3]])  # from 0: 3 is listed first
    assert bfs_tree(4, cyc, 0).tolist() == [[0, 1], [0, 3], [2, 3]]
    n = _SMALL + 2
    path = np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)
    e = np.vstack([[[0, n - 1]], path])  # a cycle, the closing edge listed first
    t = bfs_tree(n, e, 0)
    a = sp.csr_matrix((np.ones(2 * n), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n, n))
    _, pred = csgraph.breadth_first_order(a, 0, directed=False, return_predecessors=True)
    child = np.arange(1, n)
    ref = np.sort(np.stack([pred[child], child], axis=1), axis=1)
    assert t.tolist() == ref[np.lexsort((ref[:, 1], ref[:, 0]))].tolist()


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 30), st.integers(0, 60), st.integers(0, 10**6))
def test_count_components_equals_networkx(n, m, seed):
    e = _random_graph(n, m, seed)
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(map(tuple, e.tolist()))
    assert count_components(n, e) == nx.number_connected_components(g)


def _python_kruskal(n: int, edges: np.ndarray) -> tuple[list[int], list[int]]:
    """Greedy forest in edge order and the final roots, by a plain union-find without path compression."""
    parent = list(range(n))

    def root(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    keep = []
    for j, (u, v) in enumerate(edges.tolist()):
        ru, rv = root(u), root(v)
        if ru != rv:
            parent[ru] = rv
            keep.append(j)
    return keep, [root(v) for v in range(n)]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 30), st.integers(0, 60), st.integers(0, 10**6))
def test_union_find_equals_python_kruskal_and_networkx(n, m, seed):
    e = _random_graph(n, m, seed)
    keep, roots = _python_kruskal(n, e)
    assert forest_edges(n, e).tolist() == keep
    assert component_roots(n, e).tolist() == roots  # compression never changes a root
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(map(tuple, e.tolist()))
    comps = {frozenset(c) for c in nx.connected_components(g)}
    assert {frozenset(np.flatnonzero(np.array(roots) == r).tolist()) for r in set(roots)} == comps
    parent = np.arange(n)
    joined = union_edges(parent, e)
    assert np.flatnonzero(joined).tolist() == keep
    assert [int(find(parent, v)) for v in range(n)] == roots


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(0, 120), st.integers(0, 10**6))
def test_bfs_edges_reach_each_vertex_through_its_first_parent_row(n, m, seed):
    e = _random_graph(n, m, seed)
    e = e[e[:, 0] != e[:, 1]]
    root = seed % n
    dist, par, row, order = bfs_edges(n, e, np.array([root]))
    ref_dist, ref_par = _python_bfs(n, e, root)
    assert dist.tolist() == ref_dist and par.tolist() == ref_par
    for v in range(n):
        if ref_par[v] < 0:
            assert row[v] == -1
        else:
            rows = [j for j, (a, b) in enumerate(e.tolist()) if {a, b} == {v, ref_par[v]}]
            assert row[v] == rows[0]
    # without roots: a breadth-first spanning forest, one search per unreached vertex in increasing order
    dist, par, row, _ = bfs_edges(n, e)
    seen = [-1] * n
    for s in range(n):
        if seen[s] < 0:
            d, p = _python_bfs(n, e, s)
            for v in range(n):
                if d[v] >= 0:
                    seen[v] = 0
                    assert dist[v] == d[v] and par[v] == p[v]
    assert (row >= 0).sum() == n - count_components(n, e)


def _csr_of(good: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.concatenate([[0], np.cumsum(good.sum(axis=1))]), np.nonzero(good)[1]


@pytest.mark.parametrize("seed", range(4))
def test_hopcroft_karp_is_scipys_matching_and_networkx_size(seed):
    rng = np.random.default_rng(seed)
    for it in range(300):
        r = int(rng.integers(0, 30))
        c = int(rng.integers(r, r + 6)) if it % 3 else int(rng.integers(0, 30))
        good = rng.random((r, c)) < rng.choice([0.03, 0.1, 0.3, 0.7])
        col = hopcroft_karp(*_csr_of(good), c)
        ref = (csgraph.maximum_bipartite_matching(sp.csr_matrix(good.astype(np.int8)), perm_type="column")
               if good.any() else np.full(r, -1))
        assert np.array_equal(col, ref)
        matched = col[col >= 0]
        assert np.unique(matched).size == matched.size and good[np.flatnonzero(col >= 0), matched].all()
        g = nx.Graph()
        g.add_nodes_from(range(r + c))
        g.add_edges_from((a, r + b) for a, b in zip(*np.nonzero(good), strict=True))
        size = len(nx.bipartite.hopcroft_karp_matching(g, top_nodes=range(r))) // 2
        assert matched.size == size


@pytest.mark.parametrize("seed", range(3))
def test_max_flow_is_scipys_flow_and_networkx_value(seed):
    rng = np.random.default_rng(100 + seed)
    for it in range(300):
        nodes = int(rng.integers(3, 40))
        m = int(rng.integers(1, 120))
        rows, cols = rng.integers(0, nodes, m), rng.integers(0, nodes, m)
        keep = rows != cols
        rows, cols = rows[keep], cols[keep]
        if rows.size == 0:
            continue
        if it % 2:  # distinct arcs, as in the ER_q construction; otherwise parallel arcs are summed
            key = np.unique(rows * nodes + cols)
            rows, cols = key // nodes, key % nodes
        caps = rng.integers(1, 5, rows.size)
        value, indptr, targets, flow = max_flow(nodes, rows, cols, caps, 0, 1)
        ref = csgraph.maximum_flow(sp.csr_matrix((caps.astype(np.int32), (rows, cols)), shape=(nodes, nodes)), 0, 1)
        F = ref.flow.tocsr()
        F.sort_indices()
        assert np.array_equal(F.indptr, indptr) and np.array_equal(F.indices, targets)
        assert np.array_equal(F.data, flow) and value == ref.flow_value
        g = nx.DiGraph()
        g.add_nodes_from(range(nodes))
        for a, b, c in zip(rows.tolist(), cols.tolist(), caps.tolist(), strict=True):
            g.add_edge(a, b, capacity=g.edges[a, b]["capacity"] + c if g.has_edge(a, b) else c)
        assert value == nx.maximum_flow_value(g, 0, 1)
        tails = np.repeat(np.arange(nodes), np.diff(indptr))
        net = np.bincount(tails, weights=flow, minlength=nodes)
        assert net[0] == value and net[1] == -value and not net[2:].any()  # conservation


def test_matching_and_flow_reject_bad_input():
    with pytest.raises(ValueError, match="indptr"):
        hopcroft_karp(np.array([0, 2]), np.array([0]), 1)
    with pytest.raises(ValueError, match="ncols"):
        hopcroft_karp(np.array([0, 1]), np.array([3]), 2)
    ok = (np.array([0]), np.array([1]), np.array([1]))
    with pytest.raises(ValueError, match="source=0, sink=0"):
        max_flow(2, *ok, 0, 0)
    with pytest.raises(ValueError, match="caps: capacity -1"):
        max_flow(2, np.array([0]), np.array([1]), np.array([-1]), 0, 1)
    with pytest.raises(ValueError, match="heads: a node outside"):
        max_flow(2, np.array([0]), np.array([2]), np.array([1]), 0, 1)
    with pytest.raises(ValueError, match="loop"):
        max_flow(2, np.array([1]), np.array([1]), np.array([1]), 0, 1)
    with pytest.raises(ValueError, match="lengths"):
        max_flow(2, np.array([0, 1]), np.array([1]), np.array([1]), 0, 1)
    assert max_flow(3, np.zeros(0), np.zeros(0), np.zeros(0), 0, 1)[0] == 0


def test_canonical_rows():
    assert canonical_rows(4, np.array([[0, 1], [0, 3], [2, 3]]))
    assert canonical_rows(1, np.zeros((0, 2), dtype=np.int64))
    for bad in ([[0, 1], [0, 1]], [[1, 0]], [[0, 2], [0, 1]], [[1, 2], [0, 3]], [[0, 4]], [[-1, 2]], [[2, 2]]):
        assert not canonical_rows(4, np.array(bad)), bad


def _corruptions(P, trees: list[np.ndarray], rng: np.random.Generator) -> list[list[np.ndarray]]:
    """Valid rewrites and broken variants of a valid EDST set."""
    out = []
    a = [t.copy() for t in trees]
    out.append([t[rng.permutation(len(t))][:, ::-1] for t in a])  # rows shuffled and reversed: still valid
    i, j = rng.choice(len(a), 2, replace=False)
    b = [t.copy() for t in a]
    b[i][0] = b[j][0]  # an edge in two trees (and tree i loses one)
    out.append(b)
    b = [t.copy() for t in a]
    b[i] = b[i][1:]  # too few edges
    out.append(b)
    b = [t.copy() for t in a]
    b[i] = np.vstack([b[i], b[i][:1]])  # an edge listed twice in one tree
    out.append(b)
    b = [t.copy() for t in a]
    b[i][3] = [b[i][3, 0], b[i][3, 0]]  # a loop
    out.append(b)
    b = [t.copy() for t in a]
    keys = set((P.edges[:, 0] * P.n + P.edges[:, 1]).tolist())
    u = int(b[i][5, 0])
    v = next(w for w in range(P.n) if w != u and min(u, w) * P.n + max(u, w) not in keys)
    b[i][5] = [u, v]  # not an edge of the graph
    out.append(b)
    nt = np.setdiff1d(P.edges[:, 0] * P.n + P.edges[:, 1],
                      np.concatenate([np.sort(t, axis=1) @ [P.n, 1] for t in a]))
    if nt.size:
        b = [t.copy() for t in a]
        b[i][4] = [nt[0] // P.n, nt[0] % P.n]  # a non-tree edge swapped in: a cycle, or still a tree
        out.append(b)
    return out


@pytest.mark.parametrize("P", [slimfly(5), slimfly(7), bundlefly(3, 5)], ids=lambda P: P.name)
def test_certificate_agrees_with_diagnosis_and_networkx(P):
    trees = [t.rows for t in METHODS["auto"](P)]
    rng = np.random.default_rng(0)
    for variant in [trees, *_corruptions(P, trees, rng)]:
        cert = edst_certificate(P.n, P.edges, variant)
        failures: list = []
        _diagnose(P.n, P.edges, variant, failures)
        ok = True
        used: set = set()
        gset = {tuple(e) for e in P.edges.tolist()}
        for t in variant:
            rows = [tuple(sorted(e)) for e in t.tolist()]
            h = nx.Graph()
            h.add_nodes_from(range(P.n))
            h.add_edges_from(rows)
            ok &= (len(rows) == P.n - 1 and nx.is_tree(h) and set(rows) <= gset and not (set(rows) & used)
                   and h.number_of_nodes() == P.n)
            used |= set(rows)
        assert cert == (not failures) == ok
        assert verify_edsts(P, variant).valid == ok
    # an index out of range is malformed input: the certificate says no, the verifier refuses it by name
    i = int(rng.integers(len(trees)))
    for bad in (P.n, -1):
        variant = [t.copy() for t in trees]
        variant[i][2] = [0, bad]
        assert not edst_certificate(P.n, P.edges, variant)
        with pytest.raises(ValueError, match=rf"^trees\[{i}\]: vertex index {bad} is out of range"):
            verify_edsts(P, variant)


def test_non_canonical_graph_lists_fall_back_to_the_diagnosis():
    P = slimfly(5)
    trees = [t.rows for t in METHODS["auto"](P)]
    shuffled = P.edges[np.random.default_rng(1).permutation(P.m)][:, ::-1]
    assert not edst_certificate(P.n, shuffled, trees)
    assert verify_edsts(shuffled, trees, n=P.n).valid
    doubled = np.vstack([P.edges, P.edges[:3]])
    assert verify_edsts(doubled, trees, n=P.n).valid


def test_tree_sorts_lazily_and_verifier_reads_rows():
    t = Tree(np.array([[3, 2], [1, 0], [2, 1]]), root=0)
    assert t.rows.tolist() == [[3, 2], [1, 0], [2, 1]] and t._edges is None
    assert verify_edsts(np.array([[0, 1], [1, 2], [2, 3]]), [t]).valid and t._edges is None
    assert t.depth == 3 and t._edges is None
    assert t.edges.tolist() == [[0, 1], [1, 2], [2, 3]] and t.rows is t.edges


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 60), st.integers(1, 200), st.integers(0, 10**6))
def test_sort_edge_rows_equals_a_key_sort(n, m, seed):
    """Counting sort (dense indices) and key sort (sparse ones) agree with numpy's lexsort, duplicates kept."""
    from starlib.edst.trees import sort_edge_rows

    rng = np.random.default_rng(seed)
    for hi in (n, 50 * n + 5000):  # dense: counting sort; sparse: key sort
        e = rng.integers(0, hi, size=(m, 2))
        lo, up = e.min(axis=1), e.max(axis=1)
        order = np.lexsort((up, lo))
        assert sort_edge_rows(e).tolist() == np.stack([lo, up], axis=1)[order].tolist()
