"""The compiled forest union behind the exact generic packing, against independent sources.

* the previous packer (:func:`starlib.edst.packing.pack_forests`, Python augmenting paths, written before this
  one): the largest union of ``k`` forests has a size fixed by the matroid (its rank), so both must agree;
* networkx: every forest acyclic, every tree spanning, forests edge-disjoint;
* the certificate recomputed here by a plain count of crossing edges, and the closure property behind it
  (every edge between parts is in the union; every forest spans every part);
* published counts: ``K_n`` has ``floor(n/2)`` edge-disjoint spanning trees;
* the structured constructions of Table IV: where a construction reaches eq. (1)'s bound, the exact packing
  finds the same count.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import auto_trees, generic_packing, verify_edsts
from starlib.edst.forest_union import ForestUnion
from starlib.edst.packing import pack_forests
from starlib.graphs import ArrayGraph


def _edges(g: nx.Graph) -> np.ndarray:
    return np.array(sorted(g.edges()), dtype=np.int64).reshape(-1, 2)


def _crossing_bound(edges: np.ndarray, parts: np.ndarray) -> int:
    """floor(crossing edges / (parts - 1)), counted edge by edge (not with partition_bound)."""
    crossing = sum(1 for u, v in edges.tolist() if parts[u] != parts[v])
    return crossing // (len(set(parts.tolist())) - 1)


def _check_union(n: int, edges: np.ndarray, k: int) -> ForestUnion:
    fu = ForestUnion(n, edges, k)
    spans = fu.grow()
    fp, _ = pack_forests(n, edges, k)
    assert int(fu.sizes().sum()) == sum(fp.size)  # the matroid's rank, by a second implementation
    assert spans == all(s == n - 1 for s in fu.sizes().tolist())
    seen = np.zeros(edges.shape[0], dtype=np.int64)
    for i in range(k):
        f = nx.Graph()
        f.add_nodes_from(range(n))
        f.add_edges_from(map(tuple, fu.forest(i).tolist()))
        assert nx.is_forest(f) and f.number_of_edges() == fu.sizes()[i]
        seen[fu.owner == i] += 1
    assert seen.max(initial=0) <= 1 and (seen.sum() + fu.unused().shape[0]) == edges.shape[0]
    if not spans:
        parts = fu.closure_partition()
        assert _crossing_bound(edges, parts) < k
        owner = fu.owner
        for j, (u, v) in enumerate(edges.tolist()):
            if parts[u] != parts[v]:
                assert owner[j] >= 0  # every crossing edge is in the union
        for i in range(k):  # every forest spans every part: |P| - 1 edges inside it, hence a spanning tree
            inside = fu.forest(i)
            inside = inside[parts[inside[:, 0]] == parts[inside[:, 1]]]
            assert inside.shape[0] == n - len(set(parts.tolist()))
    return fu


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.floats(0.02, 1.0), st.integers(1, 6), st.integers(0, 10**6))
def test_random_graphs_against_the_previous_packer(n, p, k, seed):
    """Sparse (often disconnected) to complete graphs, k from 1 to 6."""
    g = nx.gnp_random_graph(n, p, seed=seed)
    _check_union(n, _edges(g), k)


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 9), st.integers(2, 5), st.integers(0, 10**6))
def test_dense_blocks_joined_by_few_edges(size, blocks, seed):
    """Complete blocks (multigraph-like density) joined by a few random edges: the bridges cap the count."""
    rng = np.random.default_rng(seed)
    g = nx.disjoint_union_all([nx.complete_graph(size) for _ in range(blocks)])
    n = g.number_of_nodes()
    for _ in range(int(rng.integers(blocks - 1, 3 * blocks))):
        u, v = rng.choice(n, 2, replace=False)
        g.add_edge(int(u), int(v))
    a = ArrayGraph.from_networkx(g)
    pk = generic_packing(a)
    assert verify_edsts(a, pk.trees, allow_empty=pk.count == 0).valid
    if pk.count < a.m // (n - 1) and pk.bound_kind != "degree":
        assert _crossing_bound(a.edges, pk.certificate) == pk.count
    _check_union(n, a.edges, pk.count + 1)  # one more than the maximum: the certificate cuts below it


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 30), st.integers(1, 5), st.integers(0, 10**6))
def test_just_at_below_and_above_the_bound(n, k, seed):
    """k edge-disjoint spanning trees exactly (m = k(n-1)); one edge fewer (k-1, the edge bound); plus extras."""
    rng = np.random.default_rng(seed)
    if k > n // 2:
        k = n // 2
    base = generic_packing(ArrayGraph.from_networkx(nx.complete_graph(n)), k=k)  # k trees of K_n
    tight = np.concatenate([t.edges for t in base.trees])
    assert tight.shape[0] == k * (n - 1)
    a = ArrayGraph.from_edges(range(n), tight)
    exact = generic_packing(a)
    assert exact.count == k and exact.bound_kind == "edges" and verify_edsts(a, exact.trees).valid
    drop = int(rng.integers(tight.shape[0]))
    below = ArrayGraph.from_edges(range(n), np.delete(tight, drop, axis=0))
    pb = generic_packing(below)
    assert pb.count == k - 1 and verify_edsts(below, pb.trees, allow_empty=k == 1).valid
    extra = _edges(nx.complete_graph(n))
    extra = extra[rng.random(extra.shape[0]) < 0.2]
    above = ArrayGraph.from_networkx(nx.Graph([*map(tuple, tight.tolist()), *map(tuple, extra.tolist())]))
    pa = generic_packing(above)
    assert pa.count >= k and verify_edsts(above, pa.trees).valid


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8, 13, 21, 34, 55])
def test_complete_graphs_have_half_n_trees(n):
    """K_n has floor(n/2) edge-disjoint spanning trees (Nash-Williams 1961; the edge bound)."""
    a = ArrayGraph.from_networkx(nx.complete_graph(n))
    pk = generic_packing(a)
    assert pk.count == n // 2 and verify_edsts(a, pk.trees).valid


def test_greedy_order_is_seeded():
    """Same graph, same forests: the greedy order comes from a fixed seed, not from the run."""
    g = ArrayGraph.from_networkx(nx.random_regular_graph(6, 60, seed=3))
    one, two = generic_packing(g), generic_packing(g)
    assert [t.edges.tolist() for t in one.trees] == [t.edges.tolist() for t in two.trees]


def test_progress_reaches_the_full_union():
    g = ArrayGraph.from_networkx(nx.random_regular_graph(8, 200, seed=1))
    calls: list[tuple[int, int]] = []
    pk = generic_packing(g, progress=lambda placed, wanted: calls.append((placed, wanted)))
    assert calls and calls[-1] == (pk.count * (g.n - 1), pk.count * (g.n - 1))
    assert [c[0] for c in calls] == sorted(c[0] for c in calls)


def test_closure_partition_needs_a_finished_union():
    fu = ForestUnion(3, np.array([[0, 1], [1, 2]]), 1)
    with pytest.raises(RuntimeError, match="call grow"):
        fu.closure_partition()


def test_table_iv_networks_agree_with_the_constructions():
    """Every Table IV network of notebook 05's grid (141): the exact packing equals the construction wherever the
    construction reaches eq. (1)'s bound, and is at least the construction elsewhere (the Maybe row)."""
    from starlib.bounds import eq1_bound
    from starlib.paper import table4

    grid = table4.instance_grid()
    assert len(grid) == 141
    below = 0
    for family, params in grid:
        P = table4._build(family, params)
        built = len(auto_trees(P))
        pk = generic_packing(P)
        assert verify_edsts(P, pk.trees).valid
        if built == eq1_bound(P.n, P.m):
            assert pk.count == built, (family, params)
        else:
            assert pk.count >= built, (family, params)
            below += 1
    assert below == 18  # the Maybe row: PolarStar ER_q * IQ(d'), q odd, d' = 3 mod 4


@pytest.mark.parametrize("seed", range(5))
def test_both_greedy_orders_reach_the_same_largest_union(seed):
    """The greedy order changes the trees, never the size of the largest union (the matroid's rank)."""
    g = nx.gnp_random_graph(40, 0.15, seed=seed)
    e = _edges(g)
    sizes = set()
    for order in ("input", "random"):
        fu = ForestUnion(40, e, 4, order=order)
        fu.grow()
        sizes.add(int(fu.sizes().sum()))
    assert len(sizes) == 1
    with pytest.raises(ValueError, match="order='bfs' must be"):
        ForestUnion(40, e, 4, order="bfs")
