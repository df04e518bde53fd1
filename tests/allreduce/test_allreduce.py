"""Tests for starlib.allreduce: the pipelined multi-tree allreduce model and link-failure resilience.

Independent sources: hand computation on path graphs, brute force over chunk counts, an event simulation of
the pipeline on random trees, exhaustive enumeration of failure patterns, and Monte Carlo.
"""

import itertools

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.allreduce import (
    allreduce_time,
    any_intact_probability,
    balanced_split,
    best_chunks,
    crossover_closed_form,
    crossover_size,
    failure_patterns,
    intact_counts,
    intact_expected,
    intact_expected_fixed,
    intact_std,
    intact_std_fixed,
    pipelined_time,
    simulate_failures,
    simulate_pipeline_steps,
    tree_height,
    tree_owner,
    tree_time,
)
from starlib.graphs import ArrayGraph


def path_edges(n):
    return np.stack([np.arange(n - 1), np.arange(1, n)], axis=1)


# ---------------------------------------------------------------- k = 1: a path graph, by hand


def test_path_graph_single_tree_by_hand():
    # a 4-vertex path rooted at an end has height 3: 2*3 + s - 1 steps of (alpha + S beta / s)
    assert tree_height(4, path_edges(4), 0) == 3
    assert tree_height(4, path_edges(4), 1) == 2
    assert pipelined_time(3, 10.0, 1.0, 1.0, 1) == 6 * 11
    assert pipelined_time(3, 10.0, 1.0, 1.0, 2) == 7 * 6
    assert pipelined_time(3, 10.0, 2.0, 0.5, 5) == 10 * (2 + 1)
    # one tree, equal split: allreduce_time is the single-tree time with the best chunk count
    brute = min(pipelined_time(3, 10.0, 1.0, 1.0, s) for s in range(1, 200))
    assert allreduce_time([3], 10.0, 1.0, 1.0) == pytest.approx(brute)


@settings(derandomize=True, deadline=None, max_examples=60)
@given(st.integers(1, 12), st.floats(0, 1e5), st.floats(0.01, 10), st.floats(1e-3, 10))
def test_best_chunks_is_the_brute_force_minimum(depth, size, alpha, beta):
    s = int(best_chunks(depth, size, alpha, beta))
    t = pipelined_time(depth, size, alpha, beta, s)
    cand = np.arange(1, 3000)
    brute = pipelined_time(depth, size, alpha, beta, cand).min()
    assert t <= brute * (1 + 1e-12)


def test_continuous_optimum_at_an_integral_chunk_count():
    # D = 1, alpha = beta = 1, M = 16: s* = 4 and T* = (1 + 4)^2 = 25 in both chunk models
    assert int(best_chunks(1, 16.0, 1.0, 1.0)) == 4
    assert tree_time(1, 16.0, 1.0, 1.0) == 25.0
    assert tree_time(1, 16.0, 1.0, 1.0, chunks="continuous") == pytest.approx(25.0)
    # the integer optimum is never below the continuous one
    for d, m in itertools.product((1, 2, 5), (0.5, 3.0, 100.0, 1e6)):
        assert tree_time(d, m, 1.0, 0.1) >= tree_time(d, m, 1.0, 0.1, chunks="continuous") - 1e-9


@settings(derandomize=True, deadline=None, max_examples=40)
@given(st.integers(2, 25), st.integers(1, 6), st.data())
def test_pipeline_closed_form_matches_event_simulation(n, chunks, data):
    # a random labelled tree (Pruefer sequence) and a random root
    seq = data.draw(st.lists(st.integers(0, n - 1), min_size=n - 2, max_size=n - 2))
    g = nx.from_prufer_sequence(seq) if n > 2 else nx.path_graph(2)
    edges = np.array(sorted(tuple(sorted(e)) for e in g.edges()))
    root = data.draw(st.integers(0, n - 1))
    height = max(nx.single_source_shortest_path_length(g, root).values())
    assert tree_height(n, edges, root) == height
    assert simulate_pipeline_steps(n, edges, root, chunks) == 2 * height + chunks - 1


# ---------------------------------------------------------------- k trees


def test_equal_split_and_limits():
    # k trees of equal depth: the time of one tree carrying S/k
    assert allreduce_time([2, 2, 2], 300.0, 1.0, 0.5) == tree_time(2, 100.0, 1.0, 0.5)
    # the deepest tree decides under an equal split
    assert allreduce_time([1, 4], 50.0, 1.0, 1.0) == tree_time(4, 25.0, 1.0, 1.0)
    # small messages: 2 D alpha (latency); large messages: S beta / k (bandwidth)
    assert allreduce_time([3], 0.0, 1.0, 1.0) == 6.0
    big = 1e12
    for k in (1, 2, 5):
        t = allreduce_time([3] * k, big, 1.0, 1.0)
        assert t / (big / k) == pytest.approx(1.0, rel=1e-4)
    assert allreduce_time([], 5.0, 1.0, 1.0) == float("inf")
    sizes = np.array([0.0, 10.0, 1e4])
    vec = allreduce_time([2, 3], sizes, 1.0, 0.1)
    assert vec.tolist() == [allreduce_time([2, 3], float(x), 1.0, 0.1) for x in sizes]


def test_balanced_split():
    # equal depths: the balanced split is the equal split
    t, parts = balanced_split([2, 2, 2], 300.0, 1.0, 0.5)
    assert t == pytest.approx(allreduce_time([2, 2, 2], 300.0, 1.0, 0.5), rel=1e-9)
    assert parts == pytest.approx([100.0] * 3)
    # never slower than the equal split, and never slower than using the shallowest tree alone
    rng = np.random.default_rng(0)
    for _ in range(30):
        d = rng.integers(1, 12, size=rng.integers(1, 6)).tolist()
        s = float(10 ** rng.uniform(0, 7))
        tb, parts = balanced_split(d, s, 1.0, 0.01)
        assert tb <= allreduce_time(d, s, 1.0, 0.01) * (1 + 1e-9)
        assert tb <= tree_time(min(d), s, 1.0, 0.01) * (1 + 1e-9)
        assert parts.sum() == pytest.approx(s)
        # every tree that gets data finishes its part by the reported time (the others stay idle)
        for di, m in zip(d, parts, strict=True):
            assert m == 0 or tree_time(di, float(m), 1.0, 0.01) <= tb * (1 + 1e-9)
    # a tiny message goes to the shallow tree only
    _, parts = balanced_split([1, 6], 1.0, 1.0, 1.0)
    assert parts[1] == 0.0


def test_crossover_closed_form_matches_bisection():
    for (ka, da, kb, db) in [(1, 1, 2, 2), (2, 3, 4, 7), (3, 5, 5, 12), (1, 2, 6, 9)]:
        exact = crossover_closed_form(ka, da, kb, db, 1.0, 0.01)
        num = crossover_size([da] * ka, [db] * kb, 1.0, 0.01, chunks="continuous")
        assert num == pytest.approx(exact, rel=1e-8)
        # below the crossover the shallow set is faster, above it the many-tree set
        assert allreduce_time([da] * ka, exact / 2, 1.0, 0.01, chunks="continuous") < \
            allreduce_time([db] * kb, exact / 2, 1.0, 0.01, chunks="continuous")
        assert allreduce_time([da] * ka, exact * 2, 1.0, 0.01, chunks="continuous") > \
            allreduce_time([db] * kb, exact * 2, 1.0, 0.01, chunks="continuous")
    # no crossing: the second set is never faster; or it is faster from the smallest size on
    assert np.isnan(crossover_size([1, 1], [3], 1.0, 1.0))
    assert crossover_size([2], [2, 2], 1.0, 1.0, lo=4.0) == 4.0


# ---------------------------------------------------------------- resilience


def k4_with_two_trees():
    edges = np.array([[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]])
    g = ArrayGraph.from_edges(range(4), edges)
    trees = [np.array([[0, 1], [1, 2], [2, 3]]), np.array([[0, 2], [0, 3], [1, 3]])]
    return g, trees


def test_closed_forms_by_exhaustive_enumeration():
    g, trees = k4_with_two_trees()
    owner = tree_owner(g, trees)
    assert sorted(owner.tolist()) == [0, 0, 0, 1, 1, 1]
    m = 6
    # exactly F failed links, every F-subset equally likely
    for F in range(m + 1):
        counts = [sum(all(owner[j] != i for j in sub) for i in range(2))
                  for sub in itertools.combinations(range(m), F)]
        assert intact_expected_fixed(2, 4, m, F) == pytest.approx(np.mean(counts), abs=1e-12)
        assert intact_std_fixed(2, 4, m, F) ** 2 == pytest.approx(np.var(counts), abs=1e-12)
    # independent failures with probability f: weight every pattern
    for f in (0.0, 0.1, 0.37, 1.0):
        total = second = any_ok = 0.0
        for mask in itertools.product((0, 1), repeat=m):
            w = np.prod([f if x else 1 - f for x in mask])
            intact = [all(not mask[j] for j in range(m) if owner[j] == i) for i in range(2)]
            total += w * sum(intact)
            second += w * sum(intact) ** 2
            any_ok += w * any(intact)
        assert intact_expected(2, 4, f) == pytest.approx(total, abs=1e-12)
        assert intact_std(2, 4, f) ** 2 == pytest.approx(second - total**2, abs=1e-12)
        assert any_intact_probability(2, 4, f) == pytest.approx(any_ok, abs=1e-12)


def test_path_graph_resilience_by_hand():
    # k = 1 tree: the whole path; it survives iff none of its n - 1 links fails
    assert intact_expected(1, 5, 0.5) == 0.5**4
    assert any_intact_probability(1, 5, 0.5) == 0.5**4
    assert intact_expected_fixed(1, 5, 4, 0) == 1.0
    assert intact_expected_fixed(1, 5, 4, 1) == 0.0
    g = ArrayGraph.from_edges(range(5), path_edges(5))
    owner = tree_owner(g, [path_edges(5)])
    assert (simulate_failures(owner, 1, 1.0, 4, seed=0) == 0).all()
    assert (simulate_failures(owner, 1, 0.0, 4, seed=0) == 1).all()


@pytest.mark.parametrize("model", ["bernoulli", "fixed"])
def test_monte_carlo_agrees_with_closed_form(model):
    from starlib.edst import factor_edsts
    from starlib.networks import slimfly

    P = slimfly(5)
    trees = factor_edsts(P)
    owner = tree_owner(P, trees)
    k, n, m = len(trees), P.n, P.m
    for f in (0.005, 0.02):
        sims = simulate_failures(owner, k, f, 4000, seed=7, model=model)
        exact = intact_expected(k, n, f) if model == "bernoulli" else intact_expected_fixed(k, n, m, round(f * m))
        sd = intact_std(k, n, f) if model == "bernoulli" else intact_std_fixed(k, n, m, round(f * m))
        se = sd / np.sqrt(len(sims))
        assert sims.std() == pytest.approx(sd, rel=0.1)
        assert abs(sims.mean() - exact) <= 4 * se + 1e-9
    # same seed, same result; shared patterns give the same counts
    assert np.array_equal(simulate_failures(owner, k, 0.01, 50, seed=3, model=model),
                          simulate_failures(owner, k, 0.01, 50, seed=3, model=model))
    pat = failure_patterns(m, 0.01, 50, seed=3, model=model)
    assert np.array_equal(intact_counts(pat, owner, k), simulate_failures(owner, k, 0.01, 50, seed=3, model=model))


def test_tree_owner_rejects_bad_trees():
    g, trees = k4_with_two_trees()
    with pytest.raises(ValueError, match="shares a link"):
        tree_owner(g, [trees[0], trees[0]])
    sq = ArrayGraph.from_edges(range(4), np.array([[0, 1], [1, 2], [2, 3]]))
    with pytest.raises(ValueError, match="not a link"):
        tree_owner(sq, [np.array([[0, 2], [1, 2], [2, 3]])])


@pytest.mark.parametrize("call, match", [
    (lambda: pipelined_time(0, 1.0, 1.0, 1.0, 1), "depth=0"),
    (lambda: pipelined_time(2, 1.0, 1.0, 1.0, 0), "chunks=0"),
    (lambda: tree_time(2, 1.0, 0.0, 1.0), "alpha=0.0"),
    (lambda: tree_time(2, 1.0, 1.0, -1.0), "beta=-1.0"),
    (lambda: tree_time(2, -5.0, 1.0, 1.0), "size=-5.0"),
    (lambda: allreduce_time([2, 0], 1.0, 1.0, 1.0), "depths="),
    (lambda: allreduce_time([2], 1.0, 1.0, 1.0, split="random"), "split='random'"),
    (lambda: intact_expected(2, 5, 1.5), "f=1.5"),
    (lambda: intact_expected_fixed(2, 5, 10, 11), "failed=11"),
    (lambda: crossover_closed_form(3, 1, 2, 2, 1.0, 1.0), "k_b=2"),
    (lambda: simulate_failures(np.array([0, 1]), 2, 0.1, 0, seed=0), "trials=0"),
    (lambda: simulate_failures(np.array([0, 1]), 2, 0.1, 5, seed=0, model="x"), "model='x'"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace("[", r"\[")):
        call()


@pytest.mark.parametrize("edges, match", [
    (np.array([[0, 1], [1, 2]]), r"2 edges, a spanning tree on n=4 vertices has 3"),
    (np.array([[0, 1], [1, 2], [2, 0]]), r"not connected \(reach 3 of n=4"),  # a triangle and an isolated vertex
    (np.array([[0, 1], [1, 2], [2, 4]]), r"vertex 4 is not in 0..3"),
    (np.array([[0, 1], [-1, 2], [2, 3]]), r"vertex -1 is not in 0..3"),
])
def test_tree_height_rejects_what_is_not_a_spanning_tree(edges, match):
    with pytest.raises(ValueError, match=match):
        tree_height(4, edges, 0)
    with pytest.raises(ValueError, match=match):
        simulate_pipeline_steps(4, edges, 0, 2)
