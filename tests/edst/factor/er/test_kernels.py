"""The compiled kernels behind the ER_q constructions agree with the library routines they replace.

The lifted-cluster trees of :mod:`starlib.edst.factor.er` (:mod:`~starlib.edst.factor.er.clusters`,
:mod:`~starlib.edst.factor.er.choices`, :mod:`~starlib.edst.factor.er.depths`) used to call
``scipy.sparse.csgraph`` (maximum bipartite matching, maximum flow, BFS, connected components) and
:mod:`starlib.edst.factor.er.singer` built the edge list and the point lookup with numpy. The trees are the same
arrays only if the kernels return exactly what those routines returned, including the choice among several maximum
matchings or flows: ``tests/test_kernels.py`` compares the shared matching and flow kernels (:mod:`starlib._kernels`)
with scipy and networkx. Independent sources here: scipy's matching (the completion of ``complete_matching``), a
plain-Python BFS, the sum-class definition of the Singer edges, a brute-force search over the Singer points, and
the verifier on the resulting trees.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from starlib.edst.factor.er import clusters, er_edsts, singer_model
from starlib.edst.factor.er.choices import complete_matching
from starlib.edst.factor.er.depths import extend_depths, tree_depths
from starlib.edst.factor.er.layout import INTERNAL, MATCHING, EdgeIds, cluster_layout
from starlib.edst.factor.er.repair import _parents
from starlib.edst.factor.er.singer import _normalise
from starlib.edst.verify import verify_edsts
from starlib.factors import polarfly, polarfly_points


def _scipy_matching(good: np.ndarray) -> np.ndarray:
    if not good.any():
        return np.full(good.shape[0], -1)
    return csgraph.maximum_bipartite_matching(sp.csr_matrix(good.astype(np.int8)), perm_type="column")


def test_match_fills_unmatched_rows_with_unused_columns_in_order():
    rng = np.random.default_rng(7)
    for _ in range(200):
        r = int(rng.integers(1, 15))
        good = rng.random((r, r + int(rng.integers(0, 4)))) < 0.2
        mt = _scipy_matching(good)
        col = complete_matching(good)
        assert np.array_equal(col[mt >= 0], mt[mt >= 0])
        rest = np.setdiff1d(np.arange(good.shape[1]), mt[mt >= 0])
        assert np.array_equal(col[mt < 0], rest[:int((mt < 0).sum())])


def _bfs(n: int, e: np.ndarray, root: int) -> list[int]:
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in e.tolist():
        adj[u].append(v)
        adj[v].append(u)
    dist = [-1] * n
    dist[root] = 0
    todo = deque([root])
    while todo:
        u = todo.popleft()
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist


def test_tree_depths_and_leaf_extension_match_plain_bfs():
    rng = np.random.default_rng(3)
    n, k = 60, 4
    forests = []
    for _ in range(k):
        perm = rng.permutation(n)
        # a random tree on the first 40 vertices of perm, the other 20 isolated
        e = np.array([[perm[i], perm[rng.integers(0, i)]] for i in range(1, 40)])
        forests.append(e)
    ends = np.stack(forests)
    root = int(ends[0, 0, 1])
    depth, isolated = tree_depths(n, ends, root)
    for t in range(k):
        assert depth[t].tolist() == _bfs(n, ends[t], root)
    assert isolated
    # hang two new leaves per forest from reached vertices: the extension equals the BFS of the union
    edges = np.concatenate([ends.reshape(-1, 2), np.zeros((2 * k, 2), dtype=np.int64)])
    extra = np.empty((k, 2), dtype=np.int64)
    for t in range(k):
        reached = np.flatnonzero(depth[t] >= 0)
        fresh = np.flatnonzero(depth[t] < 0)[:2]
        for j in range(2):
            row = k * 39 + 2 * t + j
            edges[row] = (fresh[j], reached[j])
            extra[t, j] = row
    ext, ok = extend_depths(depth.copy(), edges, extra)
    assert ok
    for t in range(k):
        assert ext[t].tolist() == _bfs(n, np.concatenate([ends[t], edges[extra[t]]]), root)
    # an edge between two reached vertices is refused
    extra[0, 0] = 0
    assert not extend_depths(depth.copy(), edges, extra)[1]


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27])
def test_hub_forest_depths_are_bfs_depths(q):
    """The depths the hub kernel derives from the copies of ``S_t`` are the BFS depths of its forest."""
    L = cluster_layout(singer_model(q))
    ids = EdgeIds(L)
    key = L.edges[:, 0] * L.n + L.edges[:, 1]
    for qc in ([q, q - 1] if q % 2 else [q]):
        used = np.zeros(L.edges.shape[0], dtype=bool)
        nb, ends, depth = clusters._hub_trees(L, ids, qc, used)
        rows = ends[:, :nb].reshape(-1, 2)
        got = np.sort(rows[:, 0] * L.n + rows[:, 1])
        assert np.array_equal(got, key[used])  # the edges marked used, each once
        for t in range(ends.shape[0]):
            assert depth[t].tolist() == _bfs(L.n, ends[t, :nb], L.w)


@pytest.mark.parametrize("q", [2, 3, 4, 5, 8, 9, 25, 27, 49, 64])
def test_layout_edges_and_index(q):
    S = singer_model(q)
    e = np.concatenate([S.sum_class(int(d)) for d in S.D])
    key = np.sort(e[:, 0] * S.n + e[:, 1])
    assert np.array_equal(S.edges(), np.stack([key // S.n, key % S.n], axis=1))
    L = cluster_layout(S)
    assert np.array_equal(L.edges, S.edges())
    star_of, w_of, mate, mid, start, mends = L._index
    mids = np.flatnonzero(L.kind == MATCHING)
    assert np.array_equal(mid, mids[np.argsort(L.pair[mids], kind="stable")])
    assert np.array_equal(start, np.searchsorted(L.pair[mid], np.arange(q * q)))
    assert np.array_equal(mends, L.edges[mid])
    ie = L.edges[L.kind == INTERNAL]
    assert np.all(mate[ie[:, 0]] == ie[:, 1]) and np.all(mate[ie[:, 1]] == ie[:, 0])
    assert int((mate >= 0).sum()) == 2 * ie.shape[0]
    se = L.edges[star_of[star_of >= 0]]
    assert np.all(L.is_centre[se[:, 0]] | L.is_centre[se[:, 1]])
    assert np.array_equal(np.sort(np.flatnonzero(w_of >= 0)), np.sort(L.centres))


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 16, 25, 27])
def test_index_of_points_by_brute_force(q):
    S = singer_model(q)
    T = S.field
    y = polarfly_points(q).astype(np.int64)
    rng = np.random.default_rng(q)
    extra = rng.integers(0, q, (200, 3))
    y = np.concatenate([y, extra[(extra != 0).any(axis=1)]])
    x = np.zeros_like(y)
    for r in range(3):
        x = T.add(x, T.mul(y[:, r:r + 1], S.basis[r][None, :]))
    x = _normalise(T, x)
    expect = [int(np.flatnonzero((S.points == row).all(axis=1))[0]) for row in x]
    assert S.index_of_points(y).tolist() == expect
    with pytest.raises(ValueError, match="zero vector"):
        S.index_of_points(np.zeros((1, 3), dtype=np.int64))


def test_repair_parents_match_plain_bfs():
    n = 30
    rng = np.random.default_rng(5)
    perm = rng.permutation(n)
    edges = np.array([[perm[i], perm[rng.integers(0, i)]] for i in range(1, n)])
    ids = rng.permutation(n - 1)
    par, pe = _parents(n, edges, ids, int(perm[0]))
    dist = _bfs(n, edges, int(perm[0]))
    for v in range(n):
        if v == perm[0]:
            assert par[v] == -1 and pe[v] == -1
        else:
            assert dist[par[v]] == dist[v] - 1 and sorted(edges[pe[v]].tolist()) == sorted([v, par[v]])
    with pytest.raises(ValueError, match="does not span"):
        _parents(n + 1, edges, ids, 0)


@pytest.mark.parametrize("q", [13, 16, 23, 32, 37])
def test_low_depth_trees_verify(q):
    g = polarfly(q)
    trees = er_edsts(q, "low-depth", graph=g)
    assert len(trees) == (q + 1) // 2 and verify_edsts(g, trees).valid
    assert max(trees.depths()) <= 5
