"""Tests for starlib.cayley (super Cayley graphs; Yeh, Varvarigos and Lee 1999).

Expected values come from outside the code under test: k! node counts, the known diameters of the
star graph (floor(3(k-1)/2)), bubble-sort graph (k(k-1)/2) and transposition network (k-1), networkx
BFS, hand-derived degrees and congestions, a brute-force schedule search, and the printed Figure 1.
"""

from __future__ import annotations

import itertools
import math
import re

import networkx as nx
import numpy as np
import pytest

from starlib.api import families
from starlib.cayley import (
    FIGURE1_PRINTED,
    PermutationSpace,
    allport_schedule,
    allport_slowdown_claim,
    build_family,
    cayley_diameter,
    cayley_distances,
    check_ln,
    check_schedule,
    check_words,
    compare_printed,
    decode_printed_rows,
    degree,
    embedding_congestion,
    generator_set,
    insertion,
    lehmer_rank,
    mnb_lower_bound,
    network_invariants,
    node_level_check,
    optimal_schedule_length,
    paper_allport_schedule,
    rotation,
    rotation_set_diameters,
    selection,
    simulate_schedule,
    star_distance_sum,
    star_emulation_words,
    swap,
    tn_embedding_words,
    transposition,
)
from starlib.cayley.emulation import tn_word_case

LEVEL = ["MS", "RS", "complete-RS", "MR", "RR", "complete-RR", "MIS", "RIS", "complete-RIS"]
SMALL_LN = [(2, 1), (3, 1), (2, 2), (5, 1), (2, 3), (3, 2)]


# -- permutations and generators ---------------------------------------------------------------------

def test_lehmer_rank_matches_itertools_order():
    perms = np.array(list(itertools.permutations(range(6))))
    assert lehmer_rank(perms).tolist() == list(range(720))
    assert PermutationSpace(5).rank((5, 4, 3, 2, 1)) == 119


def test_generators_follow_the_paper_definitions():
    u = "abcdefg"  # k = 7, l = 3 boxes of n = 2
    assert "".join(transposition(7, 4).apply(u)) == "dbcaefg"
    assert "".join(insertion(7, 4).apply(u)) == "bcdaefg"          # u_2..u_i u_1 u_{i+1}..
    assert "".join(selection(7, 4).apply(u)) == "dabcefg"          # u_i u_1..u_{i-1} u_{i+1}..
    assert "".join(swap(7, 2, 3).apply(u)) == "afgdebc"            # box 1 <-> box 3
    assert "".join(rotation(7, 2, 1).apply(u)) == "afgbcde"        # positions 2..k right by n
    assert "".join(rotation(7, 2, -1).apply(u)) == "adefgbc"
    assert rotation(7, 2, 4).perm == rotation(7, 2, 1).perm        # R^i = R^(i mod l)


def test_coincident_generators():
    assert insertion(5, 2).perm == selection(5, 2).perm
    assert rotation(5, 2, 1).perm == rotation(5, 2, -1).perm       # l = 2
    assert rotation(7, 2, 1).perm != rotation(7, 2, -1).perm


# -- families: node count, degree, regularity, diameter ------------------------------------------------

def _expected_degree(fam: str, l: int, n: int) -> int:
    rot = {"S": l - 1, "R": 1 if l == 2 else 2, "R+": 1, "Rall": l - 1}
    nucleus = {"T": n, "I": n, "IS": 2 * n - 1}
    kind = {"MS": ("T", "S"), "RS": ("T", "R"), "complete-RS": ("T", "Rall"), "MR": ("I", "S"),
            "RR": ("I", "R+"), "complete-RR": ("I", "Rall"), "MIS": ("IS", "S"), "RIS": ("IS", "R"),
            "complete-RIS": ("IS", "Rall")}[fam]
    return nucleus[kind[0]] + rot[kind[1]]


@pytest.mark.parametrize("fam", LEVEL)
@pytest.mark.parametrize("l,n", SMALL_LN)
def test_level_families_counts_degrees(fam, l, n):
    g = build_family(fam, l=l, n=n)
    k = n * l + 1
    assert g.n == math.factorial(k)
    assert g.labels[0] == tuple(range(1, k + 1))
    assert g.degree_set() == [_expected_degree(fam, l, n)]
    if g.directed:
        assert np.bincount(g.edges[:, 1], minlength=g.n).tolist() == [g.degree_set()[0]] * g.n
    assert g.is_connected()


@pytest.mark.parametrize("fam,l,n,directed", [("MS", 3, 2, False), ("MR", 3, 2, True), ("MR", 3, 1, False),
                                              ("RR", 2, 1, False), ("RR", 3, 1, True), ("IS", None, None, False),
                                              ("complete-RR", 2, 2, True), ("RIS", 3, 2, False)])
def test_directedness_follows_inverse_closure(fam, l, n, directed):
    g = build_family(fam, k=5) if l is None else build_family(fam, l=l, n=n)
    assert g.directed is directed


@pytest.mark.parametrize("k", range(3, 8))
def test_star_bubble_tn_diameters_match_known_formulas(k):
    assert cayley_diameter(k, generator_set("star", k=k)) == (3 * (k - 1)) // 2
    assert cayley_diameter(k, generator_set("bubble-sort", k=k)) == k * (k - 1) // 2
    assert cayley_diameter(k, generator_set("transposition", k=k)) == k - 1
    assert build_family("star", k=k).degree_set() == [k - 1]
    assert build_family("transposition", k=k).degree_set() == [k * (k - 1) // 2]


@pytest.mark.parametrize("fam,kw", [("MS", {"l": 2, "n": 2}), ("RS", {"l": 3, "n": 1}), ("MR", {"l": 2, "n": 2}),
                                    ("complete-RR", {"l": 2, "n": 2}), ("IS", {"k": 5}), ("RIS", {"l": 2, "n": 2})])
def test_bfs_diameter_agrees_with_networkx(fam, kw):
    g = build_family(fam, **kw)
    assert cayley_diameter(len(g.labels[0]), generator_set(fam, **kw)) == nx.diameter(g.to_networkx())


@pytest.mark.parametrize("k", [4, 6, 7])
def test_bfs_agrees_with_the_compiled_kernel(k):
    """cayley_distances keeps its own level-synchronous search (faster here); the distances are the kernel's."""
    from starlib import _kernels
    from starlib.cayley import distinct_generators, family_instances

    sp = PermutationSpace(k)
    for fam, p in family_instances(k, k_min=k):
        gens = distinct_generators(generator_set(fam, **p))
        nbrs = np.stack([sp.neighbors(g.perm) for g in gens], axis=1)
        indptr = np.arange(sp.size + 1, dtype=np.int64) * nbrs.shape[1]
        expected = _kernels.bfs(indptr, nbrs.ravel(), 0)[0]
        assert np.array_equal(cayley_distances(k, gens, space=sp), expected), (fam, p)


@pytest.mark.parametrize("fam,l,n", [("MS", 3, 2), ("RR", 2, 3), ("complete-RIS", 3, 2)])
def test_vertex_transitivity_spot_checks(fam, l, n):
    g = build_family(fam, l=l, n=n)
    k = n * l + 1
    rng = np.random.default_rng(0)
    sources = rng.choice(g.n, size=4, replace=False)
    assert set(g.eccentricities(sources).tolist()) == {cayley_diameter(k, generator_set(fam, l=l, n=n))}
    # relabelling the symbols by sigma (left multiplication) maps arcs to arcs
    sp = PermutationSpace(k)
    sigma = rng.permutation(k)
    image = lehmer_rank(sigma[sp.perms.astype(np.int64)])
    arcs = {tuple(e) for e in g.edges.tolist()}
    mapped = {tuple(e) for e in image[g.edges].tolist()}
    if not g.directed:
        mapped = {tuple(sorted(e)) for e in mapped}
    assert mapped == arcs


def test_builders_are_the_table_and_carry_their_names():
    import starlib.cayley as sc
    from starlib.cayley.families import BUILDERS, FAMILIES

    for name, info in FAMILIES.items():
        f = getattr(sc, info.func)
        assert f is BUILDERS[name] and f.__name__ == info.func and info.func in sc.__all__
        assert f.__doc__.count("Parameters") == 1 and f"{info.func}(" in f.__doc__
        kw = {"k": 4} if info.params == ("k",) else {"l": 2, "n": 2}
        assert f(*kw.values()).meta["family"] == info.abbrev == build_family(name, **kw).meta["family"]


def test_registered_on_the_command_line():
    fams = families()
    names = ["star", "bubble-sort", "transposition", "macro-star", "rotation-star", "complete-rotation-star",
             "macro-rotator", "rotation-rotator", "complete-rotation-rotator", "insertion-selection",
             "macro-insertion-selection", "rotation-insertion-selection", "complete-rotation-insertion-selection"]
    for name in names:
        assert name in fams and fams[name].kind == "cayley"
    assert list(fams["macro-star"].params) == ["l", "n"] and list(fams["star"].params) == ["k"]
    assert fams["macro-insertion-selection"].builder(l=2, n=2).n == 120


# -- bad parameters ---------------------------------------------------------------------------------

@pytest.mark.parametrize("call,msg", [
    (lambda: build_family("MS", l=1, n=3), "l=1"),
    (lambda: build_family("MS", l=3, n=0), "n=0"),
    (lambda: build_family("MS", l=4, n=3), "k = n*l + 1 = 13"),
    (lambda: build_family("MS", l=2.0, n=3), "l=2.0 is not an integer"),
    (lambda: build_family("star", k=1), "k=1"),
    (lambda: build_family("star", k=11), "k=11"),
    (lambda: build_family("nope", k=3), "family='nope'"),
    (lambda: swap(7, 2, 4), "i=4"),
    (lambda: swap(8, 2, 2), "n=2 does not divide k - 1 = 7"),
    (lambda: rotation(7, 2, 3), "i=3 is a multiple of l = 3"),
    (lambda: insertion(5, 6), "i=6"),
    (lambda: degree(generator_set("IS", k=4), "both"), "coincident='both'"),
    (lambda: star_emulation_words("RS", l=2, n=2), "family='RS'"),
    (lambda: paper_allport_schedule("MS", 5, 3), "l=5, n=3"),
    (lambda: tn_embedding_words("MS", l=2, n=2, variant="x"), "variant='x'"),
    (lambda: transposition(5, 2, 2), "j=2 is too small: need i = 2 < j <= k = 5"),
    (lambda: PermutationSpace(11), "k=11 is too large: need k <= 10"),
    (lambda: PermutationSpace(4).neighbors((0, 1, 1, 3)), "g=[0, 1, 1, 3] is not a permutation"),
    (lambda: allport_slowdown_claim("RR", 2, 2), "family='RR' is not one of"),
    (lambda: mnb_lower_bound(0, 3), "num_nodes=0 is too small"),
    (lambda: tn_word_case(3, 3, 1), "j=3 is too small"),
])
def test_bad_parameters_raise_value_error(call, msg):
    with pytest.raises(ValueError, match=re.escape(msg)):
        call()


def test_check_ln_returns_k():
    assert check_ln(4, 3) == 13


# -- Theorems 1-3: star emulation words and congestion ----------------------------------------------

@pytest.mark.parametrize("fam,dil", [("MS", 3), ("complete-RS", 3), ("MIS", 4), ("complete-RIS", 4)])
@pytest.mark.parametrize("l,n", [(2, 2), (3, 2), (2, 3), (4, 3), (5, 2)])
def test_emulation_words_dilation_and_congestion(fam, dil, l, n):
    words = star_emulation_words(fam, l=l, n=n)
    res = check_words(words)
    assert res.ok and res.max_length == dil
    host = generator_set(fam, l=l, n=n)
    # hand count: each box move is used twice by the n dimensions of its box; each nucleus link by l dimensions
    assert embedding_congestion(words, host, "parallel")[0] == max(2 * n, l)
    if fam in ("MIS", "complete-RIS"):      # I_2 merged with I_2^-1 carries both T_2- and T_3-words
        assert embedding_congestion(words, host, "merge")[0] == max(2 * n, 2 * l)
    per_dim = [embedding_congestion(words, host, "parallel", keys=[j])[0] for j in words]
    assert max(per_dim[:n]) == 1 and max(per_dim[n:]) <= 2


@pytest.mark.parametrize("fam,l,n", [("MS", 2, 3), ("complete-RS", 3, 2), ("MIS", 2, 2), ("complete-RIS", 3, 2)])
def test_emulation_node_by_node(fam, l, n):
    sp = PermutationSpace(n * l + 1)
    words = star_emulation_words(fam, l=l, n=n)
    host = generator_set(fam, l=l, n=n)
    res = node_level_check(sp, words, host)
    assert res.ok
    assert res.load_min == res.load_max == embedding_congestion(words, host)[1]


def test_insertion_selection_theorem2():
    for k in range(3, 8):
        words, host = star_emulation_words("IS", k=k), generator_set("IS", k=k)
        assert check_words(words).ok and check_words(words).max_length == 2
        assert embedding_congestion(words, host, "parallel")[0] == 1
        assert embedding_congestion(words, host, "merge")[0] == 2


# -- Theorems 4-5: all-port schedules ----------------------------------------------------------------

@pytest.mark.parametrize("fam", ["MS", "complete-RS"])
@pytest.mark.parametrize("l,n", [(4, 3), (7, 3), (3, 2), (5, 2), (2, 3), (3, 4)])
def test_paper_schedule_is_conflict_free_with_claimed_length(fam, l, n):
    r = check_schedule(paper_allport_schedule(fam, l, n))
    assert r.ok and r.length == max(2 * n, l + 1)


def test_paper_schedule_fails_for_n_equal_1():
    r = check_schedule(paper_allport_schedule("MS", 3, 1))
    assert not r.order_ok and r.bad_order == [3]   # box 2 returns in the step it is forwarded


@pytest.mark.parametrize("fam", ["MS", "complete-RS", "MIS", "complete-RIS"])
def test_general_schedule_lengths(fam):
    for l in range(2, 9):
        for n in range(1, 6):
            r = check_schedule(allport_schedule(fam, l, n))
            assert r.ok
            if fam in ("MS", "complete-RS") or n == 1:
                assert r.length == max(2 * n, l + 1)
            else:
                assert r.length == max(2 * n, l + 2, n + 3)


@pytest.mark.parametrize("fam,l,n", [("MS", 3, 2), ("complete-RS", 2, 3), ("MIS", 2, 2), ("complete-RIS", 3, 2),
                                     ("MS", 6, 1)])
def test_schedules_packet_by_packet(fam, l, n):
    assert simulate_schedule(PermutationSpace(n * l + 1), allport_schedule(fam, l, n)) == (True, 1)


def test_mis_2_2_needs_five_steps_brute_force():
    """Theorem 5 claims max(2n, l+2) = 4 for MIS(2, 2); exhaustive search over 4 steps finds no schedule."""
    words = star_emulation_words("MIS", l=2, n=2)
    jobs = [[g.name for g in words[j]] for j in sorted(words)]
    feasible = []
    for times in itertools.product(*[itertools.combinations(range(1, 5), len(w)) for w in jobs]):
        used = [(t, g) for w, ts in zip(jobs, times, strict=True) for g, t in zip(w, ts, strict=True)]
        if len(used) == len(set(used)):
            feasible.append(times)
    assert feasible == []
    assert optimal_schedule_length("MIS", 2, 2)[0] == 5
    assert check_schedule(allport_schedule("MIS", 2, 2)).length == 5


def test_merged_selection_links_break_theorem5():
    assert optimal_schedule_length("MIS", 3, 2, "merge")[0] == 6 > max(2 * 2, 3 + 2)
    assert not check_schedule(allport_schedule("MIS", 3, 2), "merge").ok


def test_figure1a_rows_match_the_construction():
    cmp = compare_printed(paper_allport_schedule("MS", 4, 3), FIGURE1_PRINTED["a"]["rows"])
    assert cmp["verdict"].tolist()[1:4] == ["identical"] * 3
    assert cmp["verdict"].tolist()[4:] == ["agrees (empty cells lost)"] * 2


def test_figure1b_readings_are_valid_schedules():
    sols = decode_printed_rows(FIGURE1_PRINTED["b"]["rows"], "MS", 5, 3)
    assert sols
    for _, s in sols:
        r = check_schedule(s)
        assert r.ok and r.length == 6 and r.busy == [7, 7, 7, 7, 7, 4]


# -- Theorems 6-7: transposition-network words -----------------------------------------------------

def test_tn_case_table():
    assert [tn_word_case(1, 3, 2), tn_word_case(1, 4, 2), tn_word_case(2, 3, 2)] == [1, 2, 3]


@pytest.mark.parametrize("fam,l,n,dil", [("MS", 2, 2, 5), ("MS", 3, 2, 7), ("complete-RS", 2, 3, 5),
                                         ("complete-RS", 3, 2, 7), ("complete-RS", 4, 1, 7)])
def test_tn_words_theorem6(fam, l, n, dil):
    res = check_words(tn_embedding_words(fam, l=l, n=n))
    assert res.ok and res.max_length == dil
    assert node_level_check(PermutationSpace(n * l + 1), tn_embedding_words(fam, l=l, n=n)).ok


def test_tn_words_printed_fail_on_complete_rs():
    bad = check_words(tn_embedding_words("complete-RS", l=3, n=2, variant="printed")).failures
    assert {tn_word_case(i, j, 2) for i, j in bad} == {2, 4, 5, 6}
    bad = check_words(tn_embedding_words("complete-RS", l=3, n=2, variant="fixed-B")).failures
    assert {tn_word_case(i, j, 2) for i, j in bad} == {6}
    assert check_words(tn_embedding_words("MS", l=3, n=2, variant="printed")).ok


def test_tn_in_is_theorem7():
    for k in (4, 5, 6):
        res = check_words(tn_embedding_words("IS", k=k))
        assert res.ok and res.max_length == 6


# -- communication bounds --------------------------------------------------------------------------

@pytest.mark.parametrize("k", range(2, 8))
def test_star_distance_sum_matches_bfs(k):
    assert star_distance_sum(k) == int(cayley_distances(k, generator_set("star", k=k)).sum())


# -- the rotation sets of RS, RR and RIS (left open by the paper) ----------------------------------------------

def _hand_digraph(family: str, l: int, n: int, rotations: str) -> nx.DiGraph:
    """The Cayley digraph from the paper's definitions, written out on tuples (no starlib.cayley code)."""
    k = n * l + 1

    def t(u, i):  # T_i: exchange positions 1 and i
        u = list(u)
        u[0], u[i - 1] = u[i - 1], u[0]
        return tuple(u)

    def ins(u, i):  # I_i: u_2 .. u_i u_1 u_{i+1} ..
        return u[1:i] + u[:1] + u[i:]

    def sel(u, i):  # I_i^-1: u_i u_1 .. u_{i-1} u_{i+1} ..
        return u[i - 1:i] + u[:i - 1] + u[i:]

    def rot(u, s):  # positions 2..k shifted right by s
        body = u[1:]
        return u[:1] + body[-s:] + body[:-s]

    moves = []
    if family == "RS":
        moves += [lambda u, i=i: t(u, i) for i in range(2, n + 2)]
    else:
        moves += [lambda u, i=i: ins(u, i) for i in range(2, n + 2)]
    if family == "RIS":
        moves += [lambda u, i=i: sel(u, i) for i in range(2, n + 2)]
    moves.append(lambda u: rot(u, n))
    if rotations == "R and R^-1":
        moves.append(lambda u: rot(u, k - 1 - n))
    g = nx.DiGraph()
    for u in itertools.permutations(range(1, k + 1)):
        g.add_edges_from((u, m(u)) for m in moves if m(u) != u)
    return g


@pytest.mark.parametrize("family", ["RS", "RR", "RIS"])
@pytest.mark.parametrize(("l", "n"), [(2, 1), (3, 1), (4, 1), (2, 2), (5, 1), (3, 2), (2, 3)])
def test_rotation_set_diameters_match_networkx(family, l, n):
    """Both readings against networkx on the digraph built from the definitions (all-pairs up to k = 5)."""
    r = rotation_set_diameters(family, l=l, n=n)
    assert r["rotations"] == ("R only" if family == "RR" else "R and R^-1")
    assert r["alternative_rotations"] == ("R and R^-1" if family == "RR" else "R only")
    k = n * l + 1
    for prefix in ("", "alternative_"):
        g = _hand_digraph(family, l, n, r[f"{prefix}rotations"])
        undirected = all(g.has_edge(v, u) for u, v in g.edges())
        assert r[f"{prefix}directed"] == (not undirected)
        if k <= 5:
            expected = nx.diameter(g.to_undirected() if undirected else g)
        else:  # vertex-transitive: the eccentricity of the identity is the diameter
            expected = max(nx.single_source_shortest_path_length(g, tuple(range(1, k + 1))).values())
        assert r[f"{prefix}diameter"] == expected, prefix
    if l == 2:  # R = R^-1: one graph
        assert r["diameter"] == r["alternative_diameter"]
    # the chosen reading is the graph the family builds
    assert r["diameter"] == network_invariants(family, l=l, n=n)["diameter"]


def test_rotation_set_diameters_quoted_figures_and_rejects():
    r = rotation_set_diameters("RS", l=4, n=2)     # figures quoted in the issue that asked for this table
    assert (r["diameter"], r["alternative_diameter"]) == (22, 23)
    with pytest.raises(ValueError, match="family='MS'"):
        rotation_set_diameters("MS", l=2, n=2)
    with pytest.raises(ValueError, match="l=1"):
        rotation_set_diameters("RS", l=1, n=2)


def test_nucleus_words_and_box_moves():
    """The bricks the emulation words and the schedules share: a nucleus word is its transposition, and the two
    box moves undo each other (the words ``B T B^-1`` of Theorems 1, 3 and 4 rest on both)."""
    from starlib.cayley.emulation import box_moves, nucleus_word
    from starlib.cayley.families import family_info
    from starlib.cayley.generators import word_map
    from starlib.cayley.permutations import identity

    for fam, l, n in (("MS", 3, 2), ("complete-RS", 3, 2), ("MIS", 2, 3), ("complete-RIS", 4, 2)):
        k, kind = n * l + 1, family_info(fam).nucleus
        assert all(word_map(nucleus_word(kind, k, m)) == transposition(k, m).perm for m in range(2, k + 1))
        for box in range(2, l + 1):
            for variant in ("corrected", "printed"):
                b, binv = box_moves(fam, k, l, n, box, variant)
                assert word_map([b, binv]) == identity(k)
