"""Tests for starlib.edst.depth.exact (``optimal_depth``, ``depth_feasible``, ``--method optimal-depth``).

Independent sources: an exhaustive enumeration of pairs of edge-disjoint spanning trees on every connected graph of
at most 5 vertices (networkx's graph atlas) for the optimum; networkx for every depth (BFS from the stated root);
the verifier for every family; the model without its cuts and symmetry rules as a second method on the named
instances. The optima of the named instances are also the hand proofs below (a depth-2 solve proved infeasible by
CP-SAT plus a depth-3 family found and verified).
"""

import itertools
import json
import subprocess
import sys

import networkx as nx
import pytest

from starlib.bounds import upper_bound
from starlib.edst import METHODS, verify_edsts
from starlib.edst.depth import depth_feasible, depth_lower_bound, optimal_depth, settle_small, small_instances
from starlib.edst.depth.exact import MAX_VERTEX_TREES, optimal_depth_trees, vertex_transitive
from starlib.factors import paley, polarfly
from starlib.graphs import as_graph
from tests.nx_trees import nx_depths

pytest.importorskip("ortools")

# name, builder, k; the optimum is 3 on each, with depth 2 refuted by CP-SAT (depth_feasible) or by the radius.
NAMED = [
    ("ER_3", lambda: polarfly(3), 2),
    ("ER_4", lambda: polarfly(4), 2),
    ("ER_5", lambda: polarfly(5), 3),
    ("QR(9)", lambda: paley(9), 2),
    ("K_{3,4}", lambda: nx.complete_bipartite_graph(3, 4), 2),
    ("wheel W_6", lambda: nx.wheel_graph(6), 2),
]


@pytest.mark.parametrize(("name", "build", "k"), NAMED, ids=[c[0] for c in NAMED])
def test_named_optimum_is_3_and_depth_2_is_proved_infeasible(name, build, k):
    G = as_graph(build())
    r = optimal_depth(G, k, time_limit=20)
    assert (r.depth, r.lower, r.status) == (3, 3, "optimal")
    assert len(r.trees) == k and verify_edsts(G, r.trees).valid
    assert max(nx_depths(r.trees)) == 3 == max(r.trees.depths())
    assert all(t.meta["status"] == "optimal" and t.meta["lower_bound"] == 3 for t in r.trees)
    s = depth_feasible(G, k, 2, time_limit=20)  # the solver's own proof, even where the counting bound gives 3
    assert s.status == "INFEASIBLE" and s.trees is None
    assert depth_lower_bound(G, k).value <= 3


@pytest.mark.parametrize(("name", "build", "k"), NAMED[3:], ids=[c[0] for c in NAMED[3:]])
def test_second_method_the_bare_model_agrees(name, build, k):
    """The model without cuts and symmetry rules (a second method) reaches the same verdicts at depth 2 and 3."""
    G = as_graph(build())
    bare = [depth_feasible(G, k, d, time_limit=20, cuts=False, symmetry=False) for d in (2, 3)]
    assert [s.status for s in bare] == ["INFEASIBLE", "OPTIMAL"]
    assert verify_edsts(G, bare[1].trees).valid and max(nx_depths(bare[1].trees)) <= 3


def _spanning_trees(n, edges):
    """Every spanning tree of (n, edges) as a frozenset of edge indices, with its radius (least root depth)."""
    out = []
    for comb in itertools.combinations(range(len(edges)), n - 1):
        T = nx.Graph()
        T.add_nodes_from(range(n))
        T.add_edges_from(edges[i] for i in comb)
        if nx.is_tree(T):
            out.append((frozenset(comb), nx.radius(T)))
    return out


def _brute_optimum(n, edges, k):
    """The least max radius over k pairwise edge-disjoint spanning trees, or None (exhaustive)."""
    trees = _spanning_trees(n, edges)
    best = None
    for fam in itertools.combinations(trees, k):
        sets = [f[0] for f in fam]
        if sum(len(s) for s in sets) == len(frozenset().union(*sets)):
            d = max(f[1] for f in fam)
            best = d if best is None else min(best, d)
    return best


ATLAS = [g for g in nx.graph_atlas_g() if 2 <= g.number_of_nodes() <= 5 and nx.is_connected(g)]


def test_brute_force_agrees_on_every_connected_graph_up_to_5_vertices():
    checked = 0
    for g in ATLAS:
        G = as_graph(g)
        n, edges = int(G.n), [tuple(e) for e in G.edges.tolist()]
        for k in range(1, int(upper_bound(G)) + 1):
            want = _brute_optimum(n, edges, k)
            if want is None:
                with pytest.raises(ValueError, match="no family of k="):
                    optimal_depth(G, k, time_limit=5)
                continue
            r = optimal_depth(G, k, time_limit=5)
            assert (r.depth, r.status) == (want, "optimal"), (g.name, k)
            assert verify_edsts(G, r.trees).valid and max(nx_depths(r.trees)) == want
            # the model itself at the optimum and one below (the warm start often meets the bound at once)
            below, at = depth_feasible(G, k, want - 1, time_limit=5), depth_feasible(G, k, want, time_limit=5)
            assert below.infeasible and at.found and max(nx_depths(at.trees)) <= want, (g.name, k)
            up = optimal_depth(G, k, time_limit=5, warm_start=False)  # from the lower bound upwards
            assert (up.depth, up.status) == (want, "optimal")
            checked += 1
    assert checked >= 35  # 29 graphs, k = 1 and, where eq. (1) allows it, 2


def test_without_a_warm_start_the_search_goes_up_from_the_lower_bound():
    G = nx.wheel_graph(6)
    r = optimal_depth(G, 2, warm_start=False, time_limit=10)
    assert (r.depth, r.status, r.start) == (3, "optimal", ("none", -1))
    assert [(d, s) for d, s, _ in r.log] == [(2, "INFEASIBLE"), (3, "OPTIMAL")]
    # a given warm start of the wrong kind is refused, naming the parameter
    with pytest.raises(ValueError, match="warm_start: 1 trees, need at least k=2"):
        optimal_depth(G, 2, warm_start=METHODS["shallow"](nx.path_graph(6)))


def test_same_result_on_every_run():
    G = polarfly(4)  # the shallow start has depth 4: CP-SAT finds the depth-3 family, the same one twice
    a, b = (optimal_depth(G, 2, time_limit=20) for _ in range(2))
    assert [t.edges.tolist() for t in a.trees] == [t.edges.tolist() for t in b.trees]
    assert [(d, s) for d, s, _ in a.log] == [(d, s) for d, s, _ in b.log]


def test_vertex_transitive():
    assert vertex_transitive(nx.petersen_graph()) and vertex_transitive(paley(9))
    assert not vertex_transitive(nx.wheel_graph(6)) and not vertex_transitive(polarfly(3))
    # 3-regular but not vertex-transitive: the Frucht graph (trivial automorphism group), K_4 + K_{3,3}
    assert not vertex_transitive(nx.frucht_graph())
    assert not vertex_transitive(nx.disjoint_union(nx.complete_graph(4), nx.complete_bipartite_graph(3, 3)))


@pytest.mark.parametrize(("k", "match"), [(0, "k=0 is too small"), (3, "k=3 is too large: need 1 <= k <= 2")])
def test_bad_k(k, match):
    with pytest.raises(ValueError, match=match):
        optimal_depth(nx.wheel_graph(6), k)
    with pytest.raises(ValueError, match=match):
        depth_feasible(nx.wheel_graph(6), k, 3)


def test_bad_parameters_and_size():
    G = nx.wheel_graph(6)
    with pytest.raises(ValueError, match="time_limit=0.0 is too small"):
        optimal_depth(G, 2, time_limit=0)
    with pytest.raises(ValueError, match="depth=-1 is too small"):
        depth_feasible(G, 2, -1)
    with pytest.raises(ValueError, match="workers=0 is too small"):
        depth_feasible(G, 2, 3, workers=0)
    big = nx.path_graph(MAX_VERTEX_TREES + 1)
    with pytest.raises(ValueError, match=r"graph: n \* k = 2001 \* 1 = 2001 is too large"):
        optimal_depth(big, 1)
    with pytest.raises(ValueError, match=r"graph: n \* upper_bound = 2001 \* 1 = 2001 is too large for method "
                                         r"optimal-depth"):
        METHODS["optimal-depth"](big)


def test_method_optimal_depth():
    assert "optimal-depth" in METHODS and not METHODS["optimal-depth"].product_only
    T = METHODS["optimal-depth"](paley(9))
    assert len(T) == len(METHODS["shallow"](paley(9))) == 2 and verify_edsts(paley(9), T).valid
    assert max(nx_depths(T)) == 3 and T[0].meta["status"] == "optimal" and T[0].meta["lower_bound"] == 3
    assert T.theorem == "optimal-depth" and T.constructions() == ["optimal-depth"] * 2
    assert [t.edges.tolist() for t in T] == [t.edges.tolist() for t in optimal_depth_trees(paley(9))]


def test_command_line(tmp_path):
    out = tmp_path / "t.json"
    p = subprocess.run([sys.executable, "-m", "starlib", "edsts", "complete-paley", "n=2", "q=5", "--method",
                        "optimal-depth", "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    d = json.loads(out.read_text())
    assert d["method"] == "optimal-depth" and len(d["trees"]) == 1 and d["trees"][0]["depth"] == 2  # Petersen
    assert (d["depth_status"], d["depth_lower_bound"]) == ("optimal", 2)  # the Petersen graph has radius 2
    v = subprocess.run([sys.executable, "-m", "starlib", "verify", str(out)], capture_output=True, text=True)
    assert v.returncode == 0, v.stderr


def test_small_instances_settle():
    rows = settle_small(time_limit=10)
    assert [r["name"] for r in rows] == [s.name for s in small_instances()]
    for r, s in zip(rows, small_instances(), strict=True):
        G = as_graph(s.build())
        assert r["status"] == "optimal" and r["optimum"] == r["proved_lower"] >= r["lower_bound"]
        assert (r["n"], r["m"], r["k"]) == (G.n, G.m, s.k) and r["lower_bound"] == depth_lower_bound(G, s.k).value


def test_missing_ortools_names_the_extra(monkeypatch):
    from starlib.validation import MissingExtra

    monkeypatch.setitem(sys.modules, "ortools", None)
    with pytest.raises(MissingExtra, match="method optimal-depth needs the 'exact' extra"):
        METHODS["optimal-depth"](nx.wheel_graph(6))
    with pytest.raises(MissingExtra, match="needs the 'exact' extra: pip install 'starlib.exact.'"):
        depth_feasible(nx.wheel_graph(6), 2, 2)


def test_hoffman_singleton_has_no_two_edsts_of_depth_3():
    """The Hoffman-Singleton graph HS (networkx's builder; Slim Fly MMS(5) is this graph) has no 2 EDSTs of depth 3.

    Hand proof. HS is a Moore graph: 7-regular, girth 5, diameter 2, so two non-adjacent vertices have exactly one
    common neighbour and adjacent ones none. Let ``T`` be a spanning tree of depth <= 3 rooted at ``r`` and ``w``
    a neighbour of ``r`` that is not a child of ``r`` in ``T``. Its tree path from ``r`` starts ``r, x`` with
    ``x != w`` another neighbour of ``r``; ``x`` and ``w`` are not adjacent (no triangle) and their one common
    neighbour is ``r``, so the path from ``x`` to ``w`` avoiding ``r`` has length >= 3 and ``w`` sits at depth
    >= 4. Hence every spanning tree of depth <= 3 holds all 7 edges at its root. A second edge-disjoint spanning
    tree needs an edge at that root: none is left. So ``k = 2`` trees need depth >= 4, while the counting bound
    (radius and degree budgets) gives only 3; three trees of depth 4 exist (the solver finds them, verified).
    """
    HS = as_graph(nx.hoffman_singleton_graph())
    assert depth_lower_bound(HS, 2).value == 3 == depth_lower_bound(HS, 3).value
    for sym, cuts in [(True, True), (False, False)]:
        assert depth_feasible(HS, 2, 3, time_limit=20, symmetry=sym, cuts=cuts).infeasible
    r = optimal_depth(HS, 3, time_limit=20)
    assert (r.depth, r.lower, r.status) == (4, 4, "optimal") and verify_edsts(HS, r.trees).valid
    assert max(nx_depths(r.trees)) == 4
