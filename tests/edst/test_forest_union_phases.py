"""The phase engine of the compiled forest union against the one-search-per-edge engine and brute force.

Both engines grow a largest union of ``k`` forests, whose size is the rank of the ``k``-fold union of the graphic
matroid, so they must agree on it whatever forests they pick. The graphs are the hard kind for the packer:
random sparse graphs with hardly more links than ``k(n - 1)`` (just below, at and just above), built as ``k``
random spanning trees plus or minus a few links, so that every link is needed.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import generic_packing, verify_edsts
from starlib.edst.forest_union import PHASE_LINKS, PHASE_MISSING, ForestUnion
from starlib.graphs import ArrayGraph


def _random_tree(n: int, rng: np.random.Generator) -> np.ndarray:
    """A random labelled tree: vertex ``v`` hangs from a random earlier vertex of a random order."""
    perm = rng.permutation(n)
    parent = perm[rng.integers(0, np.arange(1, n))]
    return np.stack([parent, perm[1:]], axis=1)


def _near_tight(n: int, k: int, extra: int, rng: np.random.Generator) -> np.ndarray:
    """``k`` random spanning trees (duplicates removed), plus ``extra`` random links, or minus ``-extra`` links."""
    rows = np.concatenate([_random_tree(n, rng) for _ in range(k)])
    if extra > 0:
        rows = np.concatenate([rows, rng.integers(0, n, size=(extra, 2))])
    rows = np.sort(rows, axis=1)
    rows = np.unique(rows[rows[:, 0] != rows[:, 1]], axis=0)
    if extra < 0:
        rows = np.delete(rows, rng.choice(rows.shape[0], size=min(-extra, rows.shape[0]), replace=False), axis=0)
    return rows


def _forests_ok(fu: ForestUnion) -> None:
    seen = np.zeros(fu.m, dtype=np.int64)
    for i in range(fu.k):
        f = nx.Graph()
        f.add_nodes_from(range(fu.n))
        f.add_edges_from(map(tuple, fu.forest(i).tolist()))
        assert nx.is_forest(f) and f.number_of_edges() == fu.sizes()[i]
        seen[fu.owner == i] += 1
    assert seen.max(initial=0) <= 1


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 120), st.integers(1, 5), st.integers(-3, 3), st.sampled_from(["random", "input"]),
       st.integers(0, 10**6))
def test_phases_reach_the_same_union_as_single_searches(n, k, extra, order, seed):
    """Just below, at and above k(n - 1) links: the same largest union (and the same certificate bound)."""
    e = _near_tight(n, k, extra, np.random.default_rng(seed))
    sizes, spans, bounds = [], [], []
    for engine in ("paths", "phases"):
        fu = ForestUnion(n, e, k, order=order, engine=engine)
        spans.append(fu.grow())
        _forests_ok(fu)
        sizes.append(int(fu.sizes().sum()))
        if not spans[-1]:
            parts = fu.closure_partition()
            crossing = int((parts[e[:, 0]] != parts[e[:, 1]]).sum()) if e.size else 0
            bounds.append(crossing // (int(parts.max()) + 1 - 1) if parts.max() > 0 else 0)
    assert sizes[0] == sizes[1] and spans[0] == spans[1]
    assert all(b < k for b in bounds)


@pytest.mark.parametrize("seed", range(4))
def test_phases_on_a_tight_random_network(seed):
    """A 6-regular random network (m = 3n, so every spanning-tree link but 3 is needed) of 3,000 vertices: the
    phases find the 3 trees the degree and edge bounds allow, in several phases; the trees pass the verifier."""
    g = nx.random_regular_graph(6, 3000, seed=seed)
    a = ArrayGraph.from_networkx(g)
    fu = ForestUnion(a.n, a.edges, 3, engine="phases")
    assert fu.grow() and fu.phases >= 1
    _forests_ok(fu)
    pk = generic_packing(a)  # below PHASE_LINKS: the single-search engine
    assert pk.count == 3 and a.m < PHASE_LINKS


def test_generic_packing_uses_phases_from_phase_links_on():
    """The 6-regular torus C_48^3 (331,776 links; its greedy forests miss 10,932 tree edges) packs by phases, to
    the bound, verified, and to the same count and certificate as one search per missing edge."""
    from starlib.cli.commands import build_network

    a = build_network("torus", ["sizes=48,48,48"])[0]
    fu = ForestUnion(a.n, a.edges, 3)
    assert a.m >= PHASE_LINKS and fu.engine == "phases" and 3 * (a.n - 1) - fu.greedy_edges >= PHASE_MISSING
    pk = generic_packing(a)
    assert pk.count == 3 and pk.bound_kind == "edges" and verify_edsts(a, pk.trees).valid
    assert generic_packing(a, engine="paths").count == 3


def test_dense_networks_keep_one_search_per_edge():
    """Slim Fly MMS(49): 175,273 links, but its greedy forests miss only 405 tree edges: no phases."""
    from starlib.networks import slimfly

    g = slimfly(49)
    fu = ForestUnion(g.n, g.edges, 36)
    assert g.m >= PHASE_LINKS and 36 * (g.n - 1) - fu.greedy_edges < PHASE_MISSING
    assert fu.engine == "paths" and fu.grow()


def test_engine_is_checked():
    with pytest.raises(ValueError, match="engine='bfs' must be 'auto', 'phases' or 'paths'"):
        ForestUnion(3, np.array([[0, 1], [1, 2]]), 1, engine="bfs")


def test_the_time_estimate_follows_the_engines():
    """generic_seconds: 5e-11 m^2 + 1e-6 m below PHASE_LINKS (one search per edge), 2e-8 m^1.4 from there on, which
    stays above every sparse graph measured (S_9 4.6 s, S_10 72 s); a run is refused only beyond a day, which no
    graph that fits in memory reaches any more (Slim Fly MMS(343), 60.6M links: 26 minutes)."""
    from starlib.edst.methods import REFUSE_SECONDS, refuse_slow
    from starlib.edst.packing import generic_seconds

    assert generic_seconds(PHASE_LINKS - 1) == pytest.approx(5e-11 * (PHASE_LINKS - 1) ** 2 + 1e-6 * (PHASE_LINKS - 1))
    assert generic_seconds(1_451_520) > 4.6 and generic_seconds(16_329_600) > 72
    assert generic_seconds(60_589_235) < REFUSE_SECONDS < generic_seconds(2 * 10**9)
    with pytest.raises(ValueError, match="method='generic' is too slow here"):
        refuse_slow("generic", "the exact generic packing on 2,000,000,000 links", generic_seconds(2 * 10**9))
