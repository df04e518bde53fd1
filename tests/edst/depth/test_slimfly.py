"""Slim Fly MMS(q) at its maximum EDST count with depth <= 4 (starlib.edst.depth.slimfly).

Each family is checked by the verifier, its count against the proved maximum (eq. (1)), ``auto_trees`` and the
upper bound, its depth against 4; the committed record ``data/slimfly_depth.csv`` (every admissible q <= 128,
written by ``tools/check_slimfly_depth.py``) is re-checked on a sample of its rows, digest for digest.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from starlib.bounds import upper_bound
from starlib.edst import auto_trees, verify_edsts
from starlib.edst.depth.slimfly import (
    TAG,
    TARGET_DEPTH,
    family_sha256,
    slimfly_edst_count,
    slimfly_shallow_trees,
)
from starlib.networks import slimfly, slimfly_hafner

ROOT = Path(__file__).resolve().parents[3]
RECORD = ROOT / "data" / "slimfly_depth.csv"
SAMPLE = [3, 4, 5, 7, 8, 9, 11, 13]
# every prime power from 3 to 128 (none is 2 mod 4, so all are admissible MMS orders)
ADMISSIBLE_128 = [3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41, 43, 47, 49, 53, 59, 61, 64,
                  67, 71, 73, 79, 81, 83, 89, 97, 101, 103, 107, 109, 113, 121, 125, 127, 128]


@pytest.mark.parametrize("q", SAMPLE)
def test_maximum_count_depth_four_verified(q: int) -> None:
    P = slimfly(q)
    T = slimfly_shallow_trees(q, P)
    rep = verify_edsts(P, T)
    assert rep.valid, rep
    k = slimfly_edst_count(q)
    assert len(T) == k == upper_bound(P) == len(auto_trees(P))
    assert max(T.depths()) <= TARGET_DEPTH
    assert T.theorem == "slimfly-depth4"
    for t in T:
        assert t.construction == TAG
        assert t.meta["q"] == q and t.meta["upper_bound"] == k
        assert t.meta["lower_bound"] <= t.depth


def test_count_formula_matches_eq1() -> None:
    # floor(m/(n-1)) = floor((3q - delta)/4), the proof in the module docstring, on every admissible q <= 128
    for q in ADMISSIBLE_128:
        delta = {0: 0, 1: 1, 3: -1}[q % 4]
        d = (3 * q - delta) // 2
        n, m = 2 * q * q, q * q * d
        assert slimfly_edst_count(q) == m // (n - 1) == d // 2


def test_every_tree_depth_at_least_three_closed_form() -> None:
    # the module's "Lower bound": a tree has degree <= c = d - k + 1 anywhere, so depth 2 spans <= 1 + c^2 < 2q^2;
    # checked on every admissible q < 2048 from the degree of the built graph's formula
    from starlib.factors import MMS_ORDER

    count = 0
    for q in range(3, 2048):
        try:
            MMS_ORDER(q, "q")
        except ValueError:
            continue
        delta = {0: 0, 1: 1, 3: -1}[q % 4]
        d = (3 * q - delta) // 2
        c = d - slimfly_edst_count(q) + 1
        assert 1 + c * c < 2 * q * q, q
        count += 1
    assert count > 100


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9])
def test_depth_lower_bound_is_three(q: int) -> None:
    # the generic bound (budgets and BFS balls, a second computation) agrees with the closed form: 3, no more
    from starlib.edst.depth import depth_lower_bound

    P = slimfly(q)
    c = max(P.degrees()) - slimfly_edst_count(q) + 1
    assert 1 + c * c < P.n
    assert depth_lower_bound(P, slimfly_edst_count(q)).value == 3


def test_deterministic() -> None:
    assert family_sha256(slimfly_shallow_trees(8, slimfly(8))) == family_sha256(slimfly_shallow_trees(8, slimfly(8)))


def test_hafner_labels_through_index() -> None:
    from starlib.edst.trees import relabel_trees

    H = slimfly_hafner(5)
    T = relabel_trees(slimfly_shallow_trees(5, slimfly(5)), H.index)
    assert verify_edsts(H, T).valid
    assert max(T.depths()) <= TARGET_DEPTH


@pytest.mark.parametrize("q", [2, 6, 10, 15])
def test_bad_q(q: int) -> None:
    with pytest.raises(ValueError, match="q"):
        slimfly_shallow_trees(q)


def test_bad_graph_and_seed() -> None:
    with pytest.raises(ValueError, match="graph"):
        slimfly_shallow_trees(5, slimfly(7))
    with pytest.raises(ValueError, match="seed"):
        slimfly_shallow_trees(5, slimfly(5), seed=-1)


def _record() -> list[dict[str, str]]:
    with open(RECORD, newline="") as fh:
        return list(csv.DictReader(fh))


def test_record_covers_every_admissible_q() -> None:
    rows = _record()
    assert [int(r["q"]) for r in rows] == ADMISSIBLE_128
    for r in rows:
        assert r["verified"] == "True"
        assert int(r["trees"]) == int(r["upper_bound"]) == slimfly_edst_count(int(r["q"]))
        assert int(r["lower_bound"]) <= int(r["max_depth"]) <= TARGET_DEPTH
        assert int(r["n"]) == 2 * int(r["q"]) ** 2


@pytest.mark.parametrize("q", [5, 8, 13, 17])
def test_record_rows_reproduce(q: int) -> None:
    r = next(r for r in _record() if int(r["q"]) == q)
    P = slimfly(q)
    T = slimfly_shallow_trees(q, P)
    assert (int(r["n"]), int(r["links"]), int(r["trees"]), int(r["max_depth"])) == (P.n, P.m, len(T),
                                                                                     max(T.depths()))
    assert r["stage"] == T[0].meta["stage"]
    assert r["sha256"] == family_sha256(T)


@pytest.mark.parametrize("q", [5, 7])
def test_column_fixing_group_of_the_docstring(q: int) -> None:
    # the maps H_u of "What a closed-form construction would have to do", on Hafner's labels (prime q: mod q):
    # automorphisms, fixing exactly column u, and every line orbit a pencil through a column-u point
    H = slimfly_hafner(q)
    where = {lab: i for i, lab in enumerate(H.labels)}
    edges = {frozenset(map(int, e)) for e in H.edges}
    for u in range(q):
        for b in range(1, q):
            def h(lab: tuple[int, int, int], u: int = u, b: int = b) -> int:
                s, a, c = lab
                return where[(0, a, (c + b * (a - u)) % q)] if s == 0 else where[(1, (a + b) % q, (c - b * u) % q)]
            image = [h(lab) for lab in H.labels]
            assert {frozenset((image[i], image[j])) for i, j in map(tuple, edges)} == edges
            assert [H.labels[i] for i in range(H.n) if image[i] == i] == [(0, u, y) for y in range(q)]
        m, c = 1, 2  # the orbit of the line (m, c) is the pencil through the point (u, m u + c)
        orbit = {((m + b) % q, (c - b * u) % q) for b in range(q)}
        assert orbit == {(mm, cc) for mm in range(q) for cc in range(q) if (mm * u + cc - m * u - c) % q == 0}
