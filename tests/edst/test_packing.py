"""The exact packer against brute force: the Nash-Williams-Tutte formula min over all vertex partitions
of floor(e(P) / (|P| - 1)), evaluated here by enumerating set partitions (independent of the packer)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import generic_packing, verify_edsts
from starlib.edst.packing import pack_forests, partition_bound
from starlib.graphs import ArrayGraph


def set_partitions(elems: list[int]):
    if not elems:
        yield []
        return
    first, rest = elems[0], elems[1:]
    for p in set_partitions(rest):
        for i in range(len(p)):
            yield p[:i] + [[first] + p[i]] + p[i + 1:]
        yield [[first]] + p


def nash_williams_tutte(n: int, edges: list[tuple[int, int]]) -> int:
    """min over partitions with >= 2 parts of floor(crossing edges / (parts - 1)) (brute force)."""
    best = None
    for parts in set_partitions(list(range(n))):
        if len(parts) < 2:
            continue
        where = {v: i for i, b in enumerate(parts) for v in b}
        crossing = sum(where[u] != where[v] for u, v in edges)
        val = crossing // (len(parts) - 1)
        best = val if best is None else min(best, val)
    return best


def check(g: nx.Graph) -> int:
    a = ArrayGraph.from_networkx(g)
    p = generic_packing(a)
    edges = [tuple(e) for e in a.edges.tolist()]
    nwt = nash_williams_tutte(a.n, edges)
    assert p.count == nwt, (edges, p.count)
    assert verify_edsts(a, p.trees, allow_empty=nwt == 0).valid
    assert p.upper_bound == p.count
    # the certificate is a real partition bound equal to the count
    if p.count < a.m // (a.n - 1) or p.bound_kind == "partition":
        assert partition_bound(a.edges, p.certificate) == p.count
    assert p.nontree.shape[0] == a.m - p.count * (a.n - 1)
    return p.count


def test_all_graphs_up_to_six_vertices():
    """Every graph of the atlas with 2..6 vertices (connected or not): 207 graphs."""
    seen = 0
    for g in nx.graph_atlas_g():
        if 2 <= g.number_of_nodes() <= 6:
            check(g)
            seen += 1
    assert seen == 207


@settings(max_examples=40)
@given(st.integers(6, 8), st.floats(0.3, 0.95), st.integers(0, 10**6))
def test_random_graphs_match_brute_force(n, p, seed):
    check(nx.gnp_random_graph(n, p, seed=seed))


def test_feasible_input_is_not_rejected_by_a_degree_check():
    """K_10 plus a vertex joined to four of its vertices: floor(m/(n-1)) = 4 and min degree 4, 4 EDSTs."""
    g = nx.complete_graph(10)
    g.add_edges_from((10, i) for i in range(4))
    a = ArrayGraph.from_networkx(g)
    p = generic_packing(a)
    assert p.count == 4 and verify_edsts(a, p.trees).valid


def test_partition_certificate_below_the_edge_bound():
    """Two K_6 joined by a single edge: floor(m/(n-1)) = 31/11 = 2, but the bridge allows only 1."""
    g = nx.disjoint_union(nx.complete_graph(6), nx.complete_graph(6))
    g.add_edge(0, 6)
    a = ArrayGraph.from_networkx(g)
    p = generic_packing(a)
    assert (p.count, p.bound_kind) == (1, "partition")
    parts = p.certificate_parts()
    assert partition_bound(a.edges, p.certificate) == 1 and len(parts) >= 2


def test_degree_bound_certificate():
    g = nx.complete_graph(8)
    g.add_edge(8, 0)          # pendant vertex: min degree 1 < floor(29/8) = 3
    p = generic_packing(ArrayGraph.from_networkx(g))
    assert (p.count, p.bound_kind) == (1, "degree")
    assert partition_bound(ArrayGraph.from_networkx(g).edges, p.certificate) == 1


def test_requested_k_and_errors():
    a = ArrayGraph.from_networkx(nx.complete_graph(7))
    assert generic_packing(a, k=2).count == 2
    with pytest.raises(ValueError, match="k=4 exceeds"):
        generic_packing(a, k=4)
    with pytest.raises(ValueError, match="k=-1"):
        generic_packing(a, k=-1)
    with pytest.raises(ValueError, match="n=1"):
        generic_packing(ArrayGraph.from_edges([0], np.zeros((0, 2), dtype=int)))
    with pytest.raises(TypeError, match=r"^graph=array of shape \(1, 2\) is not a graph"):
        generic_packing(np.array([[0, 1]]))
    empty = generic_packing(ArrayGraph.from_edges(range(3), np.array([[0, 1]])))
    assert empty.count == 0 and len(empty.trees) == 0


def test_disconnected_graph_has_no_tree():
    a = ArrayGraph.from_networkx(nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4)))
    p = generic_packing(a)
    assert p.count == 0 and p.upper_bound == 0


def test_forest_union_is_maximum_on_a_dense_graph():
    """k forests on K_n: the largest union has min(m, k(n-1)) edges and every forest is acyclic."""
    a = ArrayGraph.from_networkx(nx.complete_graph(9))
    for k in (1, 3, 4, 5):
        fp, rejected = pack_forests(9, a.edges, k)
        assert sum(fp.size) == min(a.m, k * 8)
        for i in range(k):
            f = nx.Graph(list(map(tuple, fp.forest_edges(i).tolist())))
            assert nx.is_forest(f)


def test_petersen_and_hypercube():
    pet = ArrayGraph.from_networkx(nx.petersen_graph())
    p = generic_packing(pet)
    assert p.count == 1 and verify_edsts(pet, p.trees).valid
    assert generic_packing(ArrayGraph.from_networkx(nx.hypercube_graph(4))).count == 2
