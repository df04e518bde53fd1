"""networkx graphs through the Python API: auto_trees, generic_trees, verify_edsts and upper_bound accept them.

Every public function that takes a graph converts it with :func:`starlib.graphs.as_graph`, so the trees of a
networkx graph are index arrays of as_graph's numbering (nodes sorted when they compare, else in insertion order).
Each family returned here is checked twice: by :func:`starlib.edst.verify_edsts` on the networkx graph itself,
and independently with networkx on the original labels (every tree ``nx.is_tree`` on all nodes, its edges edges
of ``G``, no edge in two trees). Counts are compared with an independent source: the Nash-Williams/Tutte
formula ``min over vertex partitions P of floor(crossing(P) / (|P| - 1))`` by brute force over every partition
on small graphs, and ``floor(lambda/2) <= count <= lambda`` with networkx's edge connectivity ``lambda``
(Nash-Williams 1961: a ``2k``-edge-connected graph has ``k`` EDSTs) on a larger one.
"""

from __future__ import annotations

import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

from starlib.bounds import t_and_r, upper_bound
from starlib.edst import auto_trees, edsts, factor_edsts, generic_packing, generic_trees, verify_edsts
from starlib.graphs import ArrayGraph, as_graph


def partitions(n: int):
    """Every partition of ``0..n-1`` as a block number per vertex (restricted growth strings)."""
    block = [0] * n

    def grow(i: int, used: int):
        if i == n:
            yield block, used
            return
        for b in range(used + 1):
            block[i] = b
            yield from grow(i + 1, max(used, b + 1))

    yield from grow(1, 1) if n else iter(())


def nash_williams_tutte(G: nx.Graph) -> int:
    """The number of EDSTs of ``G`` by the Nash-Williams/Tutte formula, brute force over all vertex partitions."""
    nodes = list(G.nodes())
    pos = {v: i for i, v in enumerate(nodes)}
    edges = [(pos[u], pos[v]) for u, v in G.edges() if u != v]
    best = None
    for block, k in partitions(len(nodes)):
        if k < 2:
            continue
        crossing = sum(block[u] != block[v] for u, v in edges)
        best = crossing // (k - 1) if best is None else min(best, crossing // (k - 1))
    return best


def independent_check(G: nx.Graph, trees) -> None:
    """Every tree spans G (on G's own labels), uses only edges of G, and no edge is in two trees: by networkx."""
    labels = as_graph(G).labels
    used: set[frozenset] = set()
    for t in trees:
        rows = [(labels[u], labels[v]) for u, v in np.asarray(t.edges).tolist()]
        h = nx.Graph()
        h.add_nodes_from(G.nodes())
        h.add_edges_from(rows)
        assert nx.is_tree(h) and h.number_of_nodes() == G.number_of_nodes()
        assert all(G.has_edge(u, v) for u, v in rows)
        es = {frozenset(e) for e in rows}
        assert len(es) == len(rows) and not (es & used)
        used |= es


def with_string_labels() -> nx.Graph:
    """K_{3,3} plus two chords (6 vertices, 11 edges), labelled by city names inserted out of sorted order."""
    G = nx.Graph()
    G.add_edges_from([("Oslo", "Bern"), ("Oslo", "Rome"), ("Oslo", "Kyiv"), ("Lima", "Bern"), ("Lima", "Rome"),
                      ("Lima", "Kyiv"), ("Doha", "Bern"), ("Doha", "Rome"), ("Doha", "Kyiv"), ("Oslo", "Lima"),
                      ("Bern", "Rome")])
    return G


SMALL = {
    "petersen": nx.petersen_graph(),
    "K5": nx.complete_graph(5),
    "gnp(8, 0.6, seed=3)": nx.gnp_random_graph(8, 0.6, seed=3),
    "string labels": with_string_labels(),
    "two K4": nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4)),
}


def test_the_brute_force_is_right_on_known_graphs():
    assert nash_williams_tutte(nx.complete_graph(6)) == 3      # K_{2k} has k EDSTs
    assert nash_williams_tutte(nx.cycle_graph(5)) == 1
    assert nash_williams_tutte(nx.path_graph(4)) == 1
    assert nash_williams_tutte(nx.petersen_graph()) == 1       # 15 edges, 9 per tree
    assert nash_williams_tutte(nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(3))) == 0
    assert sum(1 for _ in partitions(6)) == 203                # the Bell number B_6


@pytest.mark.parametrize("name", SMALL)
def test_small_networkx_graphs_get_maximum_families(name):
    G = SMALL[name]
    expected = nash_williams_tutte(G)
    before = nx.to_dict_of_lists(G)
    for build in (auto_trees, generic_trees, factor_edsts, lambda g: edsts(g, "auto"), lambda g: edsts(g, "generic")):
        trees = build(G)
        assert len(trees) == expected, (name, build)
        assert all(t.n == G.number_of_nodes() for t in trees)
        report = verify_edsts(G, trees, allow_empty=expected == 0)
        assert report.valid and report.n == G.number_of_nodes() and report.m == G.number_of_edges()
        independent_check(G, trees)
    assert generic_packing(G).count == generic_packing(G).count == expected
    assert nx.to_dict_of_lists(G) == before                    # the caller's graph is not touched
    degree = min(d for _, d in G.degree())
    assert upper_bound(G) == min(G.number_of_edges() // (G.number_of_nodes() - 1), degree) >= expected
    assert t_and_r(G) == divmod(G.number_of_edges(), G.number_of_nodes() - 1)


def test_petersen_has_one_tree_and_k5_two():
    assert len(auto_trees(nx.petersen_graph())) == 1           # m = 15 < 2 (n - 1) = 18
    trees = auto_trees(nx.complete_graph(5))
    assert len(trees) == 2 and trees.constructions() == ["walecki", "walecki"]


def test_networkx_and_array_graph_give_the_same_trees():
    for G in SMALL.values():
        A = ArrayGraph.from_networkx(G)
        ours, theirs = auto_trees(G), auto_trees(A)
        assert [t.edges.tolist() for t in ours] == [t.edges.tolist() for t in theirs]
        assert upper_bound(G) == upper_bound(A)


def test_trees_are_indices_of_the_sorted_labels():
    G = with_string_labels()
    labels = as_graph(G).labels
    assert labels == sorted(G.nodes()) and labels != list(G.nodes())   # inserted out of order, numbered sorted
    trees = auto_trees(G)
    assert len(trees) == nash_williams_tutte(G) == 2
    # as index arrays they fit the ArrayGraph and the networkx graph alike; relabelled, networkx agrees
    assert verify_edsts(G, trees).valid and verify_edsts(ArrayGraph.from_networkx(G), trees).valid
    json_trees = trees.to_json(labels)
    assert all(G.has_edge(u, v) for t in json_trees for u, v in t["edges"])


def test_labels_that_do_not_compare_keep_insertion_order():
    G = nx.Graph()
    G.add_edges_from([(1, "a"), ("a", (2, 3)), ((2, 3), 1), (1, "b"), ("b", "a"), ("b", (2, 3))])  # K_4
    assert as_graph(G).labels == [1, "a", (2, 3), "b"]
    trees = auto_trees(G)
    assert len(trees) == nash_williams_tutte(G) == 2
    assert verify_edsts(G, trees).valid
    independent_check(G, trees)


def test_a_disconnected_graph_has_no_tree_and_says_so():
    G = SMALL["two K4"]
    assert auto_trees(G) == [] and generic_trees(G) == []
    assert not verify_edsts(G, []).valid                       # zero trees prove nothing ...
    assert verify_edsts(G, [], allow_empty=True).valid         # ... unless the caller asked for zero
    assert upper_bound(G) == 1                                 # eq. (1) and the degree do not see the cut


def test_a_self_loop_is_refused_not_dropped():
    """A networkx self-loop is refused (it was once dropped silently), naming the node."""
    G = nx.petersen_graph()
    G.add_edge(0, 0)
    for f in (as_graph, auto_trees, upper_bound, lambda g: verify_edsts(g, [])):
        with pytest.raises(ValueError, match="a self-loop at node 0; a network has none"):
            f(G)
    G.remove_edges_from(nx.selfloop_edges(G))
    trees = auto_trees(G)
    assert len(trees) == 1 and verify_edsts(G, trees).valid and upper_bound(G) == 1


def test_a_larger_random_graph_against_edge_connectivity():
    G = nx.gnp_random_graph(24, 0.45, seed=11)
    lam = nx.edge_connectivity(G)
    trees = auto_trees(G)
    assert lam // 2 <= len(trees) <= min(lam, upper_bound(G))
    assert len(generic_trees(G)) == len(trees)
    assert verify_edsts(G, trees).valid
    independent_check(G, trees)


def test_a_networkx_product_goes_generic_and_is_maximum():
    """The prism K_2 x C_5 built by networkx (a star product starlib does not see as one: it gets the generic
    packing) against the same product built by starlib (Table I's construction)."""
    from starlib.factors import complete, cycle
    from starlib.products import cartesian_product

    G = nx.cartesian_product(nx.complete_graph(2), nx.cycle_graph(5))
    P = cartesian_product(complete(2), cycle(5))
    assert len(auto_trees(G)) == len(auto_trees(P)) == nash_williams_tutte(G) == 1     # 15 edges, 9 per tree
    assert verify_edsts(G, auto_trees(G)).valid
    assert cartesian_product(nx.complete_graph(2), nx.cycle_graph(5)).m == P.m == 15


def test_graph_like_is_a_string_alias_that_imports_no_networkx():
    """``GraphLike`` (what a public function accepts) names networkx without importing it at run time."""
    code = ("import sys, typing, starlib.graphs as g, starlib.products, starlib.bounds; "
            "print(g.GraphLike, 'networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["ArrayGraph", "|", "nx.Graph", "False"]


def test_the_api_converts_a_networkx_graph_once(monkeypatch):
    """``starlib.edsts`` converts at its door and gives the same ArrayGraph to the method and to the verifier."""
    import starlib

    real = ArrayGraph.from_networkx.__func__
    calls = []

    def counted(cls, g, *args, **kwargs):
        calls.append(g)
        return real(cls, g, *args, **kwargs)

    monkeypatch.setattr(ArrayGraph, "from_networkx", classmethod(counted))
    G = nx.petersen_graph()
    trees = starlib.edsts(G)
    assert len(trees) == 1 and calls == [G]
    assert verify_edsts(G, trees).valid
