"""Tests for starlib.edst.depth.er3: committed depth-3 maximum EDST families of ER_q.

Independent checks: the count ``(q+1) // 2`` (the edge bound ``m/(n-1)`` of ER_q, computed here from the graph),
edge-disjoint spanning trees by networkx (every tree a spanning tree of a networkx ER_q built from the dot
product, no edge in two trees), depths by networkx BFS from the stated root. Reproducibility: the search re-run
for small ``q`` writes the committed bytes.
"""



import networkx as nx
import pytest

from starlib.edst import singer_graph, verify_edsts
from starlib.edst.depth.er3 import (
    DATA_DIR,
    ER_DEPTH3_QS,
    er_depth3_qs,
    er_depth3_search,
    er_depth3_trees,
)
from starlib.factors import polarfly
from starlib.primes import is_prime_power
from tests.paths import load_tool

write_er_depth3 = load_tool("er_depth3").write_er_depth3


def nx_er(q):
    """ER_q by brute force over the points of PG(2, q) for prime q (dot product mod q)."""
    g = polarfly(q)
    return g, nx.Graph([tuple(map(int, e)) for e in g.edges])


def nx_check(q, trees):
    """Independent check: count, spanning trees of the graph, edge-disjoint, depths from the roots."""
    g = polarfly(q)
    G = nx.Graph([tuple(map(int, e)) for e in g.edges])
    assert G.number_of_edges() // (G.number_of_nodes() - 1) == (q + 1) // 2 == len(trees)
    used = set()
    depths = []
    for t in trees:
        T = nx.Graph([tuple(map(int, e)) for e in t.edges])
        assert T.number_of_nodes() == G.number_of_nodes() and nx.is_tree(T)
        es = {frozenset(e) for e in T.edges}
        assert all(G.has_edge(*e) for e in T.edges)
        assert not (es & used)
        used |= es
        depths.append(max(nx.single_source_shortest_path_length(T, t.root).values()))
    return depths


def test_committed_records_cover_q_up_to_32():
    qs = er_depth3_qs()
    assert all(is_prime_power(q) for q in qs)
    assert set(qs) <= set(ER_DEPTH3_QS)
    assert {2, 3, 4, 5, 7, 8, 9, 11, 13} <= set(qs)


@pytest.mark.parametrize("q", er_depth3_qs())
def test_committed_record_is_a_depth3_maximum_family(q):
    trees = er_depth3_trees(q)
    assert verify_edsts(polarfly(q), trees)
    depths = nx_check(q, trees) if q <= 13 else list(trees.depths())
    assert depths == [2 if q == 2 else 3] * ((q + 1) // 2)


@pytest.mark.parametrize("q", [q for q in er_depth3_qs() if q <= 7])
def test_search_reproduces_record_bytes(q, tmp_path):
    path = write_er_depth3(q, tmp_path)
    assert path.read_bytes() == (DATA_DIR / f"q{q}.json").read_bytes()


@pytest.mark.parametrize("q", [5, 9])
def test_singer_host(q):
    g = singer_graph(q)
    trees = er_depth3_trees(q, g)
    assert verify_edsts(g, trees)
    assert trees.depths() == [3] * ((q + 1) // 2)


def test_odd_q_uses_every_edge():
    for q in (3, 5, 7):
        trees = er_depth3_trees(q)
        g = polarfly(q)
        assert sum(len(t.edges) for t in trees) == g.m


def test_absent_q_is_none(tmp_path):
    assert er_depth3_trees(5, directory=tmp_path) is None
    assert er_depth3_trees(1024) is None


@pytest.mark.parametrize("bad", [6, 1, 0])
def test_bad_q(bad):
    with pytest.raises(ValueError, match="q"):
        er_depth3_trees(bad)
    with pytest.raises(ValueError, match="q"):
        er_depth3_search(bad)


def test_bad_search_arguments():
    with pytest.raises(ValueError, match="time_limit"):
        er_depth3_search(5, time_limit=0)
    with pytest.raises(ValueError, match="tries"):
        er_depth3_search(5, tries=0)
    with pytest.raises(ValueError, match="seed"):
        er_depth3_search(5, seed=-1)
    with pytest.raises(ValueError, match="fixed=2"):
        er_depth3_search(7, fixed=2)
    with pytest.raises(ValueError, match="fixed=1: q=5 has no group"):  # q = 1 mod 4: k - 1 is even
        er_depth3_search(5, fixed=1)


def test_wrong_host_graph():
    with pytest.raises(ValueError, match="graph"):
        er_depth3_trees(5, polarfly(7))


@pytest.mark.parametrize("q", [3, 5, 7, 11, 13])
def test_odd_prime_q_roots_are_not_absolute(q):
    """Absolute points by the dot product mod the prime q (independent of starlib's field tables)."""
    g = polarfly(q)
    pts = [tuple(map(int, lab)) for lab in g.labels]
    absolute = {v for v, p in enumerate(pts) if sum(x * x for x in p) % q == 0}
    assert absolute and len(absolute) == q + 1
    assert not absolute & {t.root for t in er_depth3_trees(q)}


def test_every_prime_power_up_to_61_has_a_record():
    assert set(er_depth3_qs()) >= {q for q in range(2, 62) if is_prime_power(q)}


@pytest.mark.parametrize("q, order", [(31, 15), (32, 5), (43, 21), (47, 23), (59, 29)])
def test_one_tree_fixed_by_the_group_and_orbits_of_the_rest(q, order):
    """Step 4 at q = 31, 32, 43, 47, 59, checked on the records: the group element (an automorphism, checked here
    against the edge set) maps the family onto itself, fixes exactly one tree (rooted at a fixed point) and moves
    the others in orbits of ``order`` trees."""
    from starlib.edst.depth.er3 import ER_DEPTH3_PARAMS, _group

    g = polarfly(q)
    perm = _group(q, order, int(ER_DEPTH3_PARAMS.get(q, {}).get("seed", 0)))  # the record's seed draws the element
    edges = {frozenset(map(int, e)) for e in g.edges}
    assert {frozenset(int(perm[x]) for x in e) for e in edges} == edges
    trees = er_depth3_trees(q)
    sets = [frozenset(frozenset(map(int, e)) for e in t.edges) for t in trees]
    image = [frozenset(frozenset(int(perm[x]) for x in e) for e in s) for s in sets]
    assert set(image) == set(sets)
    fixed = [i for i, s in enumerate(sets) if image[i] == s]
    assert len(fixed) == 1 and perm[trees[fixed[0]].root] == trees[fixed[0]].root
    step = {i: sets.index(image[i]) for i in range(len(sets))}
    for i in set(range(len(sets))) - set(fixed):
        j, length = step[i], 1
        while j != i:
            j, length = step[j], length + 1
        assert length == order


def _depth3_tree_exists(g, root, banned):
    """CP-SAT, written here: a spanning tree of depth <= 3 rooted at ``root`` without the edges in ``banned``."""
    from ortools.sat.python import cp_model

    M = cp_model.CpModel()
    lv = [M.NewIntVar(0, 0 if v == root else 3, f"l{v}") for v in range(g.n)]
    inc = [[] for _ in range(g.n)]
    for u, v in g.edges.tolist():
        if frozenset((u, v)) in banned:
            continue
        for x, y in ((u, v), (v, u)):
            if y != root:
                a = M.NewBoolVar(f"a{x}_{y}")
                M.Add(lv[y] == lv[x] + 1).OnlyEnforceIf(a)
                inc[y].append(a)
    for v in range(g.n):
        if v != root:
            M.AddExactlyOne(inc[v])
    S = cp_model.CpSolver()
    S.parameters.num_workers = 1
    st = S.Solve(M)
    assert st in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
    return st != cp_model.INFEASIBLE


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8])
def test_lemma_absolute_neighbours_of_a_depth3_root(q):
    """The lemma of step 4 by CP-SAT: a depth-3 spanning tree rooted at r exists, but none without an edge from r
    to a neighbour y when r or y is absolute (absolute points recomputed here as x.x = 0 over the field)."""
    from starlib.fields import tables

    g = polarfly(q)
    T = tables(q)
    pts = [tuple(map(int, lab)) for lab in g.labels]
    absolute = {v for v, p in enumerate(pts)
                if T.add(T.add(T.mul(p[0], p[0]), T.mul(p[1], p[1])), T.mul(p[2], p[2])) == 0}
    assert len(absolute) == q + 1
    nbrs = {v: set() for v in range(g.n)}
    for u, v in g.edges.tolist():
        nbrs[u].add(v)
        nbrs[v].add(u)
    roots = [v for v in range(g.n) if v not in absolute and nbrs[v] & absolute][:2] + sorted(absolute)[:1]
    for r in roots:
        assert _depth3_tree_exists(g, r, set())
        forced = nbrs[r] if r in absolute else nbrs[r] & absolute  # the lemma: these neighbours are children
        for y in sorted(forced):
            assert not _depth3_tree_exists(g, r, {frozenset((r, y))})
        free = sorted(nbrs[r] - forced)  # the others need not be (a triangle puts them at level 2)
        assert not free or _depth3_tree_exists(g, r, {frozenset((r, free[0]))})


@pytest.mark.parametrize("q", [q for q in er_depth3_qs() if q >= 3])
def test_records_obey_the_lemma(q):
    """Every committed tree holds the edges from its root to the root's absolute neighbours."""
    g = polarfly(q)
    absolute = set(g.meta["absolute_points"].tolist())
    for t in er_depth3_trees(q):
        held = {frozenset(map(int, e)) for e in t.edges}
        nb = {int(v) for e in g.edges.tolist() if t.root in e for v in e if v != t.root}
        assert all(frozenset((t.root, z)) in held for z in nb & absolute)


def test_no_fixed_tree_at_the_nucleus_for_q_32():
    """Order 15 at q = 32 fixes only the nucleus w, all of whose neighbours are absolute: with the fixed tree
    rooted at w, CP-SAT proves the model infeasible (the lemma), and the search does not offer w as a root."""
    import numpy as np

    from starlib.edst.depth.er3 import _edge_orbits, _group, _solve

    g = polarfly(32)
    perm = _group(32, 15, 0)
    w = int(np.flatnonzero(perm == np.arange(g.n))[0])
    assert tuple(map(int, g.labels[w])) == (1, 1, 1)
    e = np.asarray(g.edges)
    orb, sizes = _edge_orbits(e, g.n, perm)
    free = next(v for v in range(g.n) if v not in set(g.meta["absolute_points"].tolist())
                and len({int(x) for x in _orbit(perm, v)}) == 15)
    assert _solve(g, orb, sizes, 15, [], False, 20.0, 0, perm, (w,)) is not None  # alone, w may be a root
    assert _solve(g, orb, sizes, 15, [free], False, 20.0, 0, perm, (w,)) is None  # not beside 15 other trees


def _orbit(perm, v):
    x = v
    while True:
        yield x
        x = perm[x]
        if x == v:
            return


@pytest.mark.parametrize("q, order", [(7, 3), (8, 3), (11, 5)])
def test_fixed_tree_plan_on_small_q(q, order):
    """The plan with one fixed tree (``fixed=1``) on small q: q = 7, 11 (split torus, q = 3 mod 4) and q = 8 (the
    Frobenius map, order 3 = k - 1). The family is checked independently (networkx) and one tree is fixed by the
    group."""
    trees = er_depth3_search(q, fixed=1)
    assert trees is not None
    assert nx_check(q, trees) == [3] * ((q + 1) // 2)
    assert {t.meta["order"] for t in trees} == {order}
    assert sum(t.meta["base"] == (q + 1) // 2 // order for t in trees) == 1  # the fixed tree comes last
