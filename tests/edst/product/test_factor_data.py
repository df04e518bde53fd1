"""Lemma V-C.1's choice of X: the compiled/vectorised :func:`starlib.edst.product.factor_data._choose_x` against the
plain-Python dictionary implementation it replaced (kept here as the reference), on many forests."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from starlib.edst import factor_edsts
from starlib.edst.product.factor_data import _choose_x, _max_forest, factor_data, lemma_vc1
from starlib.factors import complete, complete_bipartite, mms_supernode, paley, polarfly


def reference_choose_x(forest: np.ndarray, size: int, rank) -> tuple[list[int], list[int], int]:
    adj: dict[int, list[int]] = {}
    for u, v in forest.tolist():
        adj.setdefault(u, []).append(v)
        adj.setdefault(v, []).append(u)
    verts = sorted(adj)
    comp: dict[int, int] = {}
    for s in verts:
        if s in comp:
            continue
        comp[s] = s
        stack = [s]
        while stack:
            x = stack.pop()
            for y in adj[x]:
                if y not in comp:
                    comp[y] = s
                    stack.append(y)
    prefer = None
    if rank is not None:
        prefer = min(verts, key=lambda v: (rank[v], v))
    roots: dict[int, int] = {}
    for v in verts:
        c = comp[v]
        if c not in roots or (len(adj[v]), -v) > (len(adj[roots[c]]), -roots[c]):
            roots[c] = v
    if prefer is not None:
        roots[comp[prefer]] = max(adj[prefer], key=lambda v: (len(adj[v]), -v))
    level: dict[int, int] = {}
    up: dict[int, int] = {}
    for r in sorted(roots.values()):
        level[r] = 0
        frontier = [r]
        while frontier:
            nxt = []
            for x in frontier:
                for y in adj[x]:
                    if y not in level:
                        level[y] = level[x] + 1
                        up[y] = x
                        nxt.append(y)
            frontier = nxt
    cand = sorted(up, key=lambda v: (level[v], v))
    if prefer is not None:
        cand.remove(prefer)
        cand.insert(0, prefer)
    X = cand[:size]
    step = [up[x] for x in X]
    inx = set(X)
    L = 0
    for x in X:
        hops, y = 0, x
        while y in inx:
            y = up[y]
            hops += 1
        L = max(L, hops)
    return X, step, L


def random_forest(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    par = list(range(n))

    def find(x: int) -> int:
        while par[x] != x:
            x = par[x]
        return x

    out = []
    for _ in range(20 * k):
        u, v = (int(x) for x in rng.integers(0, n, 2))
        if u != v and find(u) != find(v) and len(out) < k:
            par[find(u)] = find(v)
            out.append(sorted((u, v)))
    return np.array(out, dtype=np.int64).reshape(-1, 2)


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**6), st.booleans())
def test_choice_equals_reference_on_random_forests(n, seed, ranked):
    forest = random_forest(n, seed % n, seed)
    if forest.shape[0] == 0:
        return
    rank = np.random.default_rng(seed + 1).integers(0, 4, n) if ranked else None
    for size in {1, forest.shape[0] // 2 or 1, forest.shape[0]}:
        X, step, L = _choose_x(n, forest, size, rank)
        rX, rstep, rL = reference_choose_x(forest, size, rank)
        assert (X.tolist(), step.tolist(), L) == (rX, rstep, rL)


@pytest.mark.parametrize("graph", [complete(9), complete_bipartite(7), paley(13), paley(29), mms_supernode(13),
                                   mms_supernode(25), polarfly(7)], ids=lambda g: f"{g.name}{g.params}")
def test_lemma_on_factor_graphs_equals_reference(graph):
    d = factor_data(graph, factor_edsts(graph))
    if d.r < 1:
        pytest.skip("no non-tree edges")
    _, forest = _max_forest(d)
    for size, rank in ((min(d.t, forest.shape[0]), d.ecc(-1)), (min(d.t - 1, forest.shape[0]), None)):
        if size < 1:
            continue
        lem = lemma_vc1(d, size, rank=rank)
        rX, rstep, rL = reference_choose_x(forest, size, rank)
        assert (lem.X.tolist(), lem.step.tolist(), lem.L) == (rX, rstep, rL)
