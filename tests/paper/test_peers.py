"""Tests of starlib.paper.peers (notebook 14) and its chart: the designs against the built graphs and the papers'
closed forms, the certificate check, and the rows against networkx and brute force."""

import math

import matplotlib
import networkx as nx
import numpy as np
import pandas as pd
import pytest

from starlib.edst import generic_packing
from starlib.paper.catalog import build
from starlib.paper.formulas import counts
from starlib.paper.peers import (
    ROW_COLUMNS,
    SPREAD_COLUMNS,
    Design,
    bundlefly_design,
    certified_maximum,
    dragonfly_design,
    fat_tree_design,
    hypercube_design,
    hyperx_design,
    jellyfish_design,
    peer_designs,
    peer_row,
    polarfly_design,
    polarstar_design,
    slimfly_design,
    torus_design,
)
from starlib.primes import is_prime_power

matplotlib.use("Agg")

ALPHA, BETA, MESSAGE = 1.0, 1 / 12500, float(2**26)


def _split(kprime, c, budget):
    """The split the module states: ceil(k'/c) capped by the budget, None if floor(k'/c) does not fit."""
    if kprime + kprime // c > budget:
        return None
    return min(math.ceil(kprime / c), budget - kprime)


@pytest.mark.parametrize("budget", [10, 12, 16])
def test_every_design_is_what_its_graph_counts(budget):
    # routers, largest degree, radix and endpoints counted by networkx on the built graph
    for d in peer_designs([budget], seeds=[0, 1], arrangements=["absolute", "circulant"]):
        g = build(d.network, dict(d.params))
        G = g.to_networkx()
        deg = np.array([G.degree(v) for v in g.labels])
        ends = np.asarray(g.meta["endpoints"]) if "endpoints" in g.meta else np.full(g.n, d.p)
        assert (G.number_of_nodes(), int(deg.max()), int((deg + ends).max()), int(ends.sum())) == (
            d.routers, d.network_ports, d.radix, d.endpoints), (d.network, d.params)
        assert d.radix <= budget and d.budget == budget


def _brute(budget, candidates, c):
    """The most endpoints (then the largest radix) over (family, params) candidates, from the paper's closed forms."""
    best = None
    for fam, params in candidates:
        f = counts(fam, **params)
        kprime = max(f["degrees"])
        p = _split(kprime, c, budget)
        if p is None:
            continue
        key = (f["n"] * p, kprime + p)
        if best is None or key > best[0]:
            best = (key, fam, params)
    return best


def _pp(lo, hi, residues=None):
    return [q for q in range(lo, hi + 1) if is_prime_power(q) and (residues is None or q % 4 in residues)]


@pytest.mark.parametrize("budget", [10, 16, 20, 32])
def test_fixed_designs_are_the_largest_by_the_closed_forms(budget):
    sf = _brute(budget, [("slimfly", {"q": q}) for q in _pp(3, 40, {0, 1, 3})], 2)
    assert slimfly_design(budget).params == sf[2] and slimfly_design(budget).endpoints == sf[0][0]
    pf = _brute(budget, [("polarfly", {"q": q}) for q in _pp(2, 40)], 2)
    assert polarfly_design(budget).params == pf[2]
    bf = _brute(budget, [("bundlefly", {"q": q, "paley_q": x}) for q in _pp(3, 40, {0, 1, 3})
                         for x in _pp(5, 70, {1})], 3)
    got = bundlefly_design(budget)
    assert (got.network, got.params, got.endpoints) == ("bundlefly", bf[2], bf[0][0])
    ps = _brute(budget, [("polarstar-iq", {"q": q, "d": d}) for q in _pp(2, 40) for d in range(3, 40)
                         if d % 4 in (0, 3)] + [("polarstar-paley", {"q": q, "paley_q": x}) for q in _pp(2, 40)
                                                for x in _pp(5, 70, {1})], 3)
    got = polarstar_design(budget)
    assert (got.network, {k: v for k, v in got.params.items() if k != "loops"}, got.endpoints) == (ps[1], ps[2],
                                                                                                  ps[0][0])
    assert got.params["loops"] == 1


def test_known_designs():
    # by hand from the papers' counts: MMS(7) has 98 routers of degree 11; ER_19 381 of degree 20; the balanced
    # Dragonfly with p = 8 has 129 groups of 16; the 3-level 16-ary tree 768 switches, 4096 endpoints
    assert (slimfly_design(16).params, slimfly_design(16).p, slimfly_design(16).radix) == ({"q": 7}, 5, 16)
    assert (slimfly_design(32).params, slimfly_design(32).p) == ({"q": 13}, 10)
    assert (polarfly_design(32).params, polarfly_design(32).p, polarfly_design(32).routers) == ({"q": 19}, 10, 381)
    assert bundlefly_design(16).params == {"q": 5, "paley_q": 9}  # 450 routers, k' = 7 + 4, p = 4
    assert polarstar_design(16).params == {"q": 8, "d": 3, "loops": 1}  # 73 * 8 = 584 routers, k' = 12
    d = dragonfly_design(32)
    assert (d.routers, d.network_ports, d.radix, d.endpoints) == (129 * 16, 23, 31, 129 * 16 * 8)
    f = fat_tree_design(32)
    assert (f.params, f.routers, f.endpoints, f.radix) == ({"k": 16, "n": 3}, 768, 4096, 32)
    h = hyperx_design(32)
    assert (h.params, h.p, h.radix) == ({"sizes": "10,10,10"}, 5, 32)  # 27 + 5; S = 11 would need 30 + 5
    assert hyperx_design(16, dims=2).params == {"sizes": "7,7"}  # 12 + 3 <= 16 < 14 + 4
    j = jellyfish_design(slimfly_design(32), 7)
    assert (j.params, j.radix, j.endpoints) == ({"n": 338, "r": 19, "p": 10, "seed": 7}, 29, 3380)


@pytest.mark.parametrize("budget,target", [(16, 490), (32, 3380), (24, 1134), (64, 35322), (9, 600)])
def test_torus_and_hypercube_by_brute_force(budget, target):
    # every (L, s) with s >= 4 and 2L + 1 <= R, s^L within a factor 64 of the target
    dims = max(L for L in range(1, budget) if 2 * L + 1 <= budget and 4**L <= target)
    sides = [s for s in range(4, 200) if s**dims <= 64 * target]
    side = min(sides, key=lambda s: (max(s**dims, target) / min(s**dims, target), s))
    t = torus_design(budget, target)
    assert t.params == {"sizes": ",".join([str(side)] * dims)} and t.radix == 2 * dims + 1 <= budget
    n = min((n for n in range(1, budget)), key=lambda n: (max(2**n, target) / min(2**n, target), n))
    assert hypercube_design(budget, target).params == {"n": n, "p": 1}


def test_designs_refuse_budgets_too_small():
    for fn, budget in ((slimfly_design, 6), (polarfly_design, 3), (bundlefly_design, 8), (polarstar_design, 5),
                       (dragonfly_design, 2), (fat_tree_design, 3), (hyperx_design, 3)):
        with pytest.raises(ValueError, match="radix budget"):
            fn(budget)
    with pytest.raises(ValueError, match="no torus"):
        torus_design(32, 3)
    assert slimfly_design(7).params == {"q": 3}  # MMS(3): k' = 5, p = 2


@pytest.mark.parametrize("graph,count", [(nx.complete_graph(8), 4), (nx.petersen_graph(), 1),
                                         (nx.hypercube_graph(5), 2), (nx.grid_2d_graph(4, 4, periodic=True), 2)])
def test_certified_maximum_on_known_counts(graph, count):
    from starlib.graphs import ArrayGraph

    g = ArrayGraph.from_networkx(graph)
    pk = generic_packing(g)
    assert pk.count == count and certified_maximum(g, pk)


def test_certified_maximum_refuses_a_bad_certificate_or_trees():
    from dataclasses import replace

    g = build("slimfly", {"q": 5})
    pk = generic_packing(g)
    assert certified_maximum(g, pk)
    assert not certified_maximum(g, replace(pk, certificate=np.zeros(g.n, dtype=np.int64)))  # one part
    parts = np.arange(g.n) % 2  # two parts: far more than 3 crossing edges, so the bound exceeds the count
    assert not certified_maximum(g, replace(pk, certificate=parts))
    assert not certified_maximum(g, replace(pk, count=pk.count + 1))
    first = pk.trees[0]
    assert not certified_maximum(g, replace(pk, trees=[first, first, pk.trees[2]]))  # shared edges


def _allreduce_brute(depth, size):
    """Notebook 08's pipelined time minimised over integer chunk counts, by scanning."""
    s = np.arange(1, 20000, dtype=np.float64)
    return float(((2 * depth + s - 1) * (ALPHA + BETA * size / s)).min())


@pytest.mark.parametrize("design,count,graph", [
    (hypercube_design(8, 16), 2, nx.hypercube_graph(4)),  # Q_4: floor(4/2) trees (Barden et al. 1999)
    (torus_design(9, 25), 2, nx.grid_2d_graph(5, 5, periodic=True)),  # C_5 x C_5: 2 trees
    (fat_tree_design(8), 2, None),  # 4-ary 3-tree: 48 switches, 128 links, floor(128/47) = 2
    (slimfly_design(11), 3, None),  # MMS(5): 7-regular, floor(7/2) = 3
])
def test_peer_row_against_networkx(design, count, graph):
    row = peer_row(design, alpha_us=ALPHA, beta_us=BETA, message_bytes=MESSAGE)
    assert list(row) == list(ROW_COLUMNS)
    G = build(design.network, dict(design.params)).to_networkx() if graph is None else graph
    assert (row["routers"], row["links"], row["diameter"]) == (G.number_of_nodes(), G.number_of_edges(),
                                                               nx.diameter(G))
    assert row["max_edsts"] == count == row["upper_bound"] and row["certified"]
    assert row["edsts_per_port"] == round(count / row["radix"], 4)
    assert nx.radius(G) <= row["lower_bound"] <= row["shallow_depth"]
    assert row["allreduce_us"] == pytest.approx(_allreduce_brute(row["shallow_depth"], MESSAGE / count), abs=0.006)
    assert row["kind"] == ("star product" if design.network == "slimfly" else "peer")


def test_peer_row_refuses_a_design_its_graph_contradicts():
    d = slimfly_design(11)
    wrong = Design(d.budget, d.network, d.params, d.routers + 1, d.network_ports, d.p, d.radix, d.endpoints)
    with pytest.raises(ValueError, match="the design predicts"):
        peer_row(wrong, alpha_us=ALPHA, beta_us=BETA, message_bytes=MESSAGE)


def test_jellyfish_rows_same_seed_same_row_and_the_spread():
    d = jellyfish_design(slimfly_design(11), 3)
    a = peer_row(d, alpha_us=ALPHA, beta_us=BETA, message_bytes=MESSAGE)
    assert a == peer_row(d, alpha_us=ALPHA, beta_us=BETA, message_bytes=MESSAGE)
    from starlib.paper.peers import jellyfish_spread

    t = pd.DataFrame([a, {**a, "parameters": a["parameters"].replace("seed=3", "seed=4"), "shallow_depth": 9,
                          "allreduce_us": 1.25}, {**a, "network": "slimfly", "shallow_depth": 99}])
    s = jellyfish_spread(t)
    assert list(s.columns) == list(SPREAD_COLUMNS) and len(s) == 1
    r = s.iloc[0]
    assert (r.seeds, r.shallow_depth_min, r.shallow_depth_max, r.allreduce_us_min) == (
        2, a["shallow_depth"], 9, 1.25)
    assert "seed" not in r.parameters


def test_peers_figure_rows_and_refusals():
    from starlib.paper.peers_figures import peers_figure

    base = {"edsts_per_port": 0.4, "shallow_depth": 5, "lower_bound": 3, "allreduce_us": 900.0}
    nets = (("polarfly", "q=9"), ("dragonfly", "a=8 p=4 h=4 arrangement=absolute"),
            ("dragonfly", "a=8 p=4 h=4 arrangement=circulant"), ("jellyfish", "n=9 seed=0"),
            ("jellyfish", "n=9 seed=1"))
    t = pd.DataFrame([{"radix_budget": b, "network": n, "parameters": p, **base} for b in (16, 32) for n, p in nets])
    fig = peers_figure(t, "64 MiB")
    labels = [x.get_text() for x in fig.axes[0].get_yticklabels()]
    assert labels == ["PolarFly", "Dragonfly (absolute)", "Dragonfly (circulant)", "Jellyfish (2 seeds)"]
    assert "64 MiB" in fig.axes[2].get_title()
    with pytest.raises(ValueError, match="no label"):
        peers_figure(t.assign(network="mesh"), "1 MiB")


def _dragonflies(changed=None):
    from starlib.paper.peers import MEASURES
    rows = []
    for budget in (16, 32):
        for arrangement in ("absolute", "circulant"):
            row = {"radix_budget": budget, "network": "dragonfly",
                   "parameters": f"a=8 p=4 h=4 arrangement={arrangement}", **{m: 1 for m in MEASURES}}
            row.update((changed or {}).get((budget, arrangement), {}))
            rows.append(row)
    return pd.DataFrame(rows + [{"radix_budget": 16, "network": "slimfly", "parameters": "q=7",
                                 **{m: 9 for m in MEASURES}}])


def test_arrangement_comparison_names_exactly_the_budgets_and_measures_that_differ():
    from starlib.paper.peers import MEASURES, arrangement_comparison
    c = arrangement_comparison(_dragonflies({(16, "circulant"): {"shallow_depth": 4, "allreduce_us": 2.5}}))
    assert len(c) == 2 * len(MEASURES) and c.columns.tolist() == ["radix_budget", "measure", "absolute",
                                                                  "circulant", "agree"]
    assert c[~c.agree][["radix_budget", "measure"]].values.tolist() == [[16, "shallow_depth"], [16, "allreduce_us"]]
    assert c[c.radix_budget == 32].agree.all()
    one = _dragonflies()
    with pytest.raises(ValueError, match="radix budget 32: the Dragonfly has 1 absolute and 0 circulant rows"):
        arrangement_comparison(one.drop(index=3))


def test_budget_comparison_on_the_committed_table():
    from pathlib import Path

    from starlib.paper.peers import budget_comparison
    t = pd.read_csv(Path(__file__).parents[2] / "paper_tables" / "peers.csv")
    b = budget_comparison(t)
    assert b.index.tolist() == sorted(t.radix_budget.unique())
    for budget, g in t.groupby("radix_budget"):  # recomputed row by row
        dragon = g[g.network == "dragonfly"]
        assert b.dragonfly_us[budget] == dragon.allreduce_us.min()
        assert (b.dragonfly_depth_min[budget], b.dragonfly_depth_max[budget]) == (dragon.shallow_depth.min(),
                                                                                 dragon.shallow_depth.max())
        assert b.fastest[budget] == g.sort_values("allreduce_us").network.iloc[0]
        assert b.star_trees[budget] == g[g.kind == "star product"].max_edsts.max()
