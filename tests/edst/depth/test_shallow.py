"""Tests for starlib.edst.depth.shallow (``shallow_trees``, ``--method shallow``), the ``improve`` verb and
notebook 13's study module.

Independent sources: the upper bound of eq. (1) and the exact packer's certified maximum for the counts; networkx
for every depth (BFS from the root each tree states), the diameter and the tree check; the verifier for the family.
"""

import json
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.bounds import upper_bound
from starlib.edst import METHODS, auto_trees, generic_packing, shallow_trees, verify_edsts
from starlib.edst.depth import depth_lower_bound, shallow_factor_trees, shallow_starts
from starlib.factors import complete_bipartite, polarfly
from starlib.graphs import as_graph
from starlib.networks import bundlefly, polarstar, slimfly
from starlib.paper.random_products import random_factor, random_star_product
from starlib.paper.shallow_study import allreduce_rows, front_rows, method_families, pareto_front, shallow_row
from tests.nx_trees import nx_depths


def nx_diameter(graph):
    g = nx.Graph()
    g.add_nodes_from(range(graph.n))
    g.add_edges_from(graph.edges.tolist())
    return nx.diameter(g)


# The networks of notebook 13's table. Counts: the upper bound (reached on all but PolarStar ER_3 * IQ(7), where the
# exact packer certifies 5 against Table I's 4). Depth targets: 2 * diameter + 1.
NAMED = [
    ("Slim Fly MMS(7)", lambda: slimfly(7), 5),
    ("Slim Fly MMS(11)", lambda: slimfly(11), 8),
    ("Slim Fly MMS(13)", lambda: slimfly(13), 9),
    ("Bundlefly MMS(4) * QR(9)", lambda: bundlefly(4, 9), 5),
    ("Bundlefly MMS(7) * QR(5)", lambda: bundlefly(7, 5), 6),
    ("PolarStar ER_3 * IQ(7)", lambda: polarstar(3, d=7), 5),
    ("PolarStar ER_5 * QR(9)", lambda: polarstar(5, paley_q=9), 4),
    ("PolarFly ER_23", lambda: polarfly(23), 12),
]


@pytest.mark.parametrize("name,make,count", NAMED, ids=[n for n, _, _ in NAMED])
def test_named_instances_reach_the_count_within_the_depth_target(name, make, count):
    g = make()
    S = shallow_trees(g)
    assert verify_edsts(g, S).valid
    assert len(S) == count >= len(auto_trees(g))
    depths = nx_depths(S)
    assert depths == S.depths()
    assert max(depths) <= 2 * nx_diameter(g) + 1
    if name.startswith("PolarFly"):
        assert max(depths) <= 4
    lb = depth_lower_bound(g, len(S)).value
    assert lb <= max(depths) and S[0].meta["lower_bound"] == lb
    assert S.theorem == "shallow" and all(t.construction.endswith("+ls") for t in S)


def test_polarstar_maybe_row_gets_the_exact_maximum():
    P = polarstar(3, d=7)
    packing = generic_packing(P)  # the exact packer, with its certificate
    assert packing.count == 5 and upper_bound(P) == 5 and len(auto_trees(P)) == 4
    S = shallow_trees(P)
    assert len(S) == packing.count and S[0].meta["start"] == "generic"


def test_exact_packer_skipped_when_too_slow_keeps_auto():
    P = polarstar(3, d=7)
    S = shallow_trees(P, exact_seconds=0.0, cheap_seconds=0.0)
    assert len(S) == len(auto_trees(P)) == 4 and verify_edsts(P, S).valid


def test_er_starts_include_the_depth_4_family():
    names = [s.name for s in shallow_starts(polarfly(11))]
    assert names[:2] == ["auto", "ER shallow"]


def test_shallow_factor_trees_keep_the_count():
    G = complete_bipartite(9)
    S = shallow_factor_trees(G)
    base = METHODS["auto"](G)
    assert len(S) == len(base) and verify_edsts(G, S).valid
    assert max(nx_depths(S)) < max(base.depths())


def test_method_record_and_networkx_input():
    g = nx.petersen_graph()
    S = METHODS["shallow"](g)
    assert len(S) == 1 and nx_depths(S) == [2]  # the Petersen graph: radius 2, one tree of 9 edges out of 15
    with pytest.raises(ValueError, match="n >= 2"):
        shallow_trees(nx.empty_graph(1))


def test_same_input_same_trees():
    P = bundlefly(3, 5)
    a, b = shallow_trees(P), shallow_trees(P)
    assert [t.edges.tolist() for t in a] == [t.edges.tolist() for t in b]
    assert [t.root for t in a] == [t.root for t in b]


@settings(max_examples=10, deadline=None)
@given(ng=st.integers(4, 7), tg=st.integers(1, 2), nh=st.integers(4, 7), th=st.integers(1, 2),
       seed=st.integers(0, 1000))
def test_random_star_products_never_fewer_nor_deeper_than_auto(ng, tg, nh, th, seed):
    G = random_factor(ng, tg, int(tg * (ng - 1) < ng * (ng - 1) // 2), seed=seed)
    H = random_factor(nh, th, int(th * (nh - 1) < nh * (nh - 1) // 2), seed=seed + 1)
    P = random_star_product(G, H, seed=seed + 2)
    A = auto_trees(P)
    S = shallow_trees(P)
    assert verify_edsts(P, S, allow_empty=not len(S)).valid
    assert len(S) >= len(A)
    if len(A) and len(S) == len(A):
        assert max(nx_depths(S)) <= max(nx_depths(A))


# -- the command line -----------------------------------------------------------------------------------------

def run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "starlib", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_cli_shallow_and_improve(tmp_path):
    r = run("edsts", "slimfly", "q=7", "-o", "t.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run("improve", "t.json", "-o", "s.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before = json.loads((tmp_path / "t.json").read_text())
    after = json.loads((tmp_path / "s.json").read_text())
    assert len(after["trees"]) == len(before["trees"]) == 5
    assert max(t["depth"] for t in after["trees"]) < max(t["depth"] for t in before["trees"])
    assert after["method"] == "auto+ls"
    r = run("verify", "s.json", cwd=tmp_path)
    assert r.returncode == 0 and "valid: 5" in r.stdout
    r = run("edsts", "slimfly", "q=7", "--method", "shallow", "-o", "sh.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert max(t["depth"] for t in json.loads((tmp_path / "sh.json").read_text())["trees"]) <= 5


@pytest.mark.parametrize("args,needle", [
    (["improve", "missing.json", "-o", "x.json"], "path='missing.json'"),
    (["improve", "b.json", "-o", "x.json"], "has no trees"),
    (["improve", "t.json", "--seed", "-1", "-o", "x.json"], "seed=-1"),
    (["improve", "t.json", "--seed", "x", "-o", "x.json"], "seed="),
    (["improve", "t.json", "-o", "nodir/x.json"], "nodir"),
])
def test_cli_improve_bad_input(tmp_path, args, needle):
    assert run("build", "slimfly", "q=5", "-o", "b.json", cwd=tmp_path).returncode == 0
    assert run("edsts", "slimfly", "q=5", "-o", "t.json", cwd=tmp_path).returncode == 0
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and needle in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()


def test_cli_improve_broken_file_is_refused(tmp_path):
    assert run("edsts", "slimfly", "q=5", "-o", "t.json", cwd=tmp_path).returncode == 0
    data = json.loads((tmp_path / "t.json").read_text())
    data["trees"][1]["parent"] = data["trees"][0]["parent"]  # two equal trees: not edge-disjoint
    data["trees"][1]["root"] = data["trees"][0]["root"]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    r = run("improve", "bad.json", "-o", "x.json", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr and not (tmp_path / "x.json").exists()


# -- notebook 13's study module -------------------------------------------------------------------------------

def test_pareto_front_by_hand():
    assert pareto_front({"a": [5, 5, 7], "b": [3], "c": [4, 6]}) == [(1, 3, "b"), (2, 5, "a"), (3, 7, "a")]
    assert pareto_front({"x": [4, 4, 4], "y": [2, 9]}) == [(1, 2, "y"), (3, 4, "x")]


def test_shallow_row_and_front_on_slimfly_5():
    g = slimfly(5)
    row = shallow_row("slimfly", {"q": 5}, g)
    assert row["n"] == 50 and row["links"] == 175 and row["diameter"] == nx_diameter(g) == 2
    assert row["upper_bound"] == row["paper_trees"] == row["generic_trees"] == row["shallow_trees"] == 3
    assert row["lower_bound"] <= row["shallow_depth"] <= row["target"] == 5 and row["within_target"]
    fams = method_families(g, ["bfs", "maximum", "shallow"])
    assert set(fams) == {"bfs", "maximum", "maximum+ls", "shallow"}
    rows, (depths, front, bound) = front_rows("slimfly", {"q": 5}, g, fams)
    assert rows[0]["trees"] == 1 and rows[0]["max_depth"] == 2 and rows[0]["family"] == "bfs"  # the radius
    assert rows[-1]["trees"] == 3 and rows[-1]["max_depth"] == row["shallow_depth"] and bound <= rows[-1]["max_depth"]


def test_allreduce_rows_shallow_beats_deep_with_the_same_count():
    rows = allreduce_rows(None, {"bfs": [2], "deep": [30, 30, 30], "shallow": [4, 4, 4]}, {"1KiB": 1024.0,
                          "64MiB": float(2**26)}, 1.0, 1e-4)
    by = {r["method"]: r for r in rows}
    assert by["shallow"]["t_1KiB_us"] < by["deep"]["t_1KiB_us"]
    assert by["shallow"]["t_64MiB_us"] <= by["deep"]["t_64MiB_us"]
    assert np.isnan(by["bfs"]["beats_bfs_from_bytes"]) and by["shallow"]["beats_bfs_from_bytes"] > 0
    # small messages: one BFS tree of depth 2 wins; large ones: three trees win
    assert by["bfs"]["t_1KiB_us"] < by["shallow"]["t_1KiB_us"] and by["shallow"]["t_64MiB_us"] < by["bfs"][
        "t_64MiB_us"]


def test_as_graph_of_the_named_networks_is_what_shallow_reads():
    g = as_graph(slimfly(5))
    assert shallow_trees(g).depths() == shallow_trees(slimfly(5)).depths()


def _dragonfly20():
    """A 20-router Dragonfly (5 groups of 4 routers, one global link per router), as a user writes one."""
    import networkx as nx

    G = nx.Graph()
    for a in range(5):
        G.add_edges_from((f"g{a}r{i}", f"g{a}r{j}") for i in range(4) for j in range(i + 1, 4))
        G.add_edges_from((f"g{a}r{b - 1}", f"g{b}r{a}") for b in range(a + 1, 5))
    return G


def test_a_budget_plans_the_optional_work_and_keeps_the_output_deterministic():
    from starlib.edst import verify_edsts
    from starlib.edst.depth import shallow_trees
    from starlib.edst.depth.shallow import ANNEAL_MOVES, deepen_moves

    G = _dragonfly20()
    full, ample, none = shallow_trees(G), shallow_trees(G, budget=1000.0), shallow_trees(G, budget=0.0)
    for S in (full, ample, none):
        assert verify_edsts(G, S).valid and len(S) == 2
    # an ample budget buys the full deepening: the very trees of no budget
    assert deepen_moves(500.0, 20, 5) == ANNEAL_MOVES
    assert [t.edges.tolist() for t in ample] == [t.edges.tolist() for t in full]
    # no budget for the optional work: no deepening, the local search's family, never shallower than the full run
    assert deepen_moves(0.0, 20, 5) == 0
    assert max(none.depths()) >= max(full.depths())
    assert [t.edges.tolist() for t in shallow_trees(G, budget=0.0)] == [t.edges.tolist() for t in none]
    with pytest.raises(ValueError, match="budget"):
        shallow_trees(G, budget=-1.0)
