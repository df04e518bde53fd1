"""coupled_depth_bound against an independent brute force (tools/depth_optima_small.py) and its record."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import networkx as nx
import pytest

from starlib.edst.depth.bound import depth_lower_bound
from starlib.edst.depth.coupled import CoupledDepthBound, coupled_depth_bound, coupled_program_feasible

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import depth_optima_small as brute  # noqa: E402

RECORD = ROOT / "data" / "depth_optima_small.csv"


def _rows() -> list[dict[str, str]]:
    with open(RECORD, newline="") as fh:
        return list(csv.DictReader(fh))


def _optimum(row: dict[str, str]) -> int:
    """The record's optimum, ``n + 1`` where no ``k`` EDSTs exist (the bound's convention)."""
    return int(row["optimum"]) if row["optimum"] else int(row["n"]) + 1


def _graph(row: dict[str, str]) -> nx.Graph:
    return nx.from_graph6_bytes(row["graph6"].encode())


def _rook3() -> nx.Graph:
    """QR(9) = K_3 x K_3 (the 3x3 rook's graph)."""
    return nx.convert_node_labels_to_integers(nx.cartesian_product(nx.complete_graph(3), nx.complete_graph(3)))


NAMED = {"K_{3,4}": nx.complete_bipartite_graph(3, 4), "W_6": nx.wheel_graph(6), "QR(9)": _rook3()}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_cases_reach_the_optimum(name):
    G = NAMED[name]
    opt = brute.optima(G, [2])[2]  # brute force: every spanning tree, its radius, exact cover with slack
    assert opt == 3
    assert depth_lower_bound(G, 2).value == 2  # the per-tree bound is one short
    b = coupled_depth_bound(G, 2)
    assert isinstance(b, CoupledDepthBound)
    assert (b.value, b.argument, b.refuted) == (3, "coupled ILP", (2,))
    assert b.values["coupled ILP"] == 3 and b.sum_value == 6


def test_record_header_sorted_and_complete():
    rows = _rows()
    assert list(rows[0]) == brute.COLUMNS
    keys = [(int(r["n"]), int(r["m"]), r["graph6"], int(r["k"])) for r in rows]
    assert keys == sorted(keys)
    # every connected graph of the atlas on 2..7 vertices appears, with k = 1 .. min(m // (n - 1), min degree)
    want = set()
    for G in nx.graph_atlas_g():
        n, m = G.number_of_nodes(), G.number_of_edges()
        if n >= 2 and nx.is_connected(G):
            for k in range(1, min(m // (n - 1), min(d for _, d in G.degree())) + 1):
                want.add((n, m, brute.graph6(G), k))
    assert set(keys) == want


def test_record_sample_rechecked():
    """Every 40th row and every row with two or more trees on 7 vertices' densest graphs: the brute force again."""
    rows = _rows()
    sample = rows[::40] + [r for r in rows if r["n"] == "7" and int(r["m"]) >= 19]
    for r in sample:
        got = brute.optima(_graph(r), [int(r["k"])])[int(r["k"])]
        assert ("" if got is None else str(got)) == r["optimum"], r


def test_brute_force_small_cases_by_hand():
    # a tree is its own only spanning tree: the least depth is its radius
    assert brute.optima(nx.path_graph(5), [1]) == {1: 2}
    # K_4 holds two EDSTs (two Hamiltonian paths, radius 2; a star and its complement cannot both be trees)
    assert brute.optima(nx.complete_graph(4), [1, 2]) == {1: 1, 2: 2}
    # C_4 with one chord: 5 edges < 2 * 3, no two EDSTs
    assert brute.optima(nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]), [2]) == {2: None}


def _gap_rows() -> list[dict[str, str]]:
    return [r for r in _rows() if depth_lower_bound(_graph(r), int(r["k"])).value < _optimum(r)]


def test_coupled_meets_the_record_where_the_per_tree_bound_is_short():
    rows = _gap_rows()
    assert len(rows) == 21  # of 1354 rows, the per-tree bound is short on 21
    for r in rows:
        b = coupled_depth_bound(_graph(r), int(r["k"]))
        assert b.value == _optimum(r), r


@pytest.mark.slow
def test_coupled_never_exceeds_the_record():
    """Every row (about 30 s): the bound never exceeds the brute-force optimum, nor goes below the per-tree one."""
    exact = 0
    for r in _rows():
        G, k = _graph(r), int(r["k"])
        b = coupled_depth_bound(G, k)
        assert depth_lower_bound(G, k).value <= b.value <= _optimum(r), r
        exact += b.value == _optimum(r)
    assert exact == 1354


def test_fallback_when_the_program_is_too_large():
    G = nx.wheel_graph(6)
    b = coupled_depth_bound(G, 2, max_vars=0)
    assert (b.value, b.argument, b.status, b.optimal) == (2, "degree budget", "skipped", False)


def test_no_family():
    # K_4 minus an edge: 5 edges < 2 * 3
    b = coupled_depth_bound(nx.Graph([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]), 2)
    assert (b.value, b.status) == (5, "no family")


def test_program_feasible_matches_the_brute_force():
    for G in (nx.complete_bipartite_graph(3, 4), nx.wheel_graph(6), nx.petersen_graph()):
        opt = brute.optima(G, [1])[1]
        assert coupled_program_feasible(G, 1, opt) is True
        assert coupled_program_feasible(G, 1, opt - 1) is False


@pytest.mark.parametrize(("kw", "match"), [
    ({"k": 0}, "k=0"),
    ({"k": 2, "time_limit": 0}, "time_limit"),
    ({"k": 2, "max_vars": -1}, "max_vars"),
])
def test_bad_input(kw, match):
    with pytest.raises(ValueError, match=match):
        coupled_depth_bound(nx.wheel_graph(6), **kw)


def test_bad_depth_and_disconnected():
    with pytest.raises(ValueError, match="depth"):
        coupled_program_feasible(nx.wheel_graph(6), 2, -1)
    with pytest.raises(ValueError, match="disconnected"):
        coupled_depth_bound(nx.Graph([(0, 1), (2, 3)]), 1)


@pytest.mark.parametrize("name", sorted(NAMED))
def test_witness_is_a_family_of_the_optimum_depth(name):
    """The solver's family at the bound, checked here: spanning trees, pairwise edge-disjoint, depth <= 3."""
    G = NAMED[name]
    b = coupled_depth_bound(G, 2)
    assert b.optimal and b.witness.shape == (2, G.number_of_nodes())
    used = set()
    for par in b.witness:
        roots = [v for v in range(len(par)) if par[v] < 0]
        assert len(roots) == 1
        T = nx.Graph()
        T.add_nodes_from(G)
        for v, u in enumerate(par):
            if u >= 0:
                assert G.has_edge(int(u), v)
                T.add_edge(int(u), v)
        assert nx.is_tree(T)
        assert max(nx.shortest_path_length(T, roots[0]).values()) <= 3
        edges = {frozenset(x) for x in T.edges()}
        assert not edges & used
        used |= edges
