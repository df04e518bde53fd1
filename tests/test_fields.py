"""GF(q) tables: against galois, against hand-written GF(p^2) arithmetic, and against the field axioms."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from starlib.fields import field, nonzero_squares, primitive_element, tables, xi_powers
from tests.gf_hand import hand_field_map

PRIME_POWERS_SMALL = [q for q in range(2, 130) if len(sympy.factorint(q)) == 1]


@pytest.mark.parametrize("q", [4, 8, 9, 13, 25, 27, 121, 128])
def test_tables_agree_with_galois(q):
    """The fast tables reproduce galois.GF(q) (same Conway representation, same primitive element)."""
    T = tables(q)
    F = field(q)
    assert T.xi == int(F.primitive_element)
    e = F(np.arange(q))
    assert np.array_equal(T.add_table(), np.asarray(e[:, None] + e[None, :]))
    assert np.array_equal(T.mul_table(), np.asarray(e[:, None] * e[None, :]))
    assert np.array_equal(T.neg(np.arange(q)), np.asarray(-e))
    assert np.array_equal(T.inv(np.arange(1, q)), np.asarray(e[1:] ** -1))
    assert np.array_equal(T.exp, np.asarray(F.primitive_element ** np.arange(q - 1)))


@pytest.mark.parametrize("q", [3, 5, 7, 11, 13, 101, 127])
def test_prime_fields_are_modular_arithmetic(q):
    T = tables(q)
    a = np.arange(q)
    assert np.array_equal(T.add_table(), (a[:, None] + a[None, :]) % q)
    assert np.array_equal(T.mul_table(), (a[:, None] * a[None, :]) % q)
    # xi is a primitive root: its powers pow(xi, i, q) are all distinct
    assert np.array_equal(T.exp, [pow(T.xi, i, q) for i in range(q - 1)])
    assert len(set(T.exp.tolist())) == q - 1
    assert T.xi == sympy.primitive_root(q)


@pytest.mark.parametrize("q", [9, 25, 49])
def test_tables_agree_with_hand_written_gf_p2(q):
    elems, add, mul, to_hand = hand_field_map(q)
    T = tables(q)
    img = [to_hand(c) for c in range(q)]
    assert len(set(img)) == q  # a bijection
    A, M = T.add_table(), T.mul_table()
    for a in range(q):
        for b in range(q):
            assert img[A[a, b]] == add(img[a], img[b])
            assert img[M[a, b]] == mul(img[a], img[b])
    squares = {mul(u, u) for u in elems if u != (0, 0)}
    assert {img[s] for s in nonzero_squares(q).tolist()} == squares


@pytest.mark.parametrize("q", [q for q in PRIME_POWERS_SMALL if q <= 64])
def test_field_axioms(q):
    T = tables(q)
    a = np.arange(q)
    A, M = T.add_table(), T.mul_table()
    assert np.array_equal(A, A.T) and np.array_equal(M, M.T)
    assert np.array_equal(A[0], a) and np.array_equal(M[1], a)
    # every row of the addition table and every non-zero row of the multiplication table is a permutation
    assert np.all(np.sort(A, axis=1) == a)
    assert np.all(np.sort(M[1:, 1:], axis=1) == a[1:])
    # associativity and distributivity on all triples
    assert np.array_equal(A[A[:, :, None], a[None, None, :]], A[a[:, None, None], A[None, :, :]])
    assert np.array_equal(M[M[:, :, None], a[None, None, :]], M[a[:, None, None], M[None, :, :]])
    assert np.array_equal(M[a[:, None, None], A[None, :, :]], A[M[:, :, None], M[:, None, :]])
    # negation, inverse, division
    assert np.all(T.add(a, T.neg(a)) == 0)
    assert np.all(T.mul(a[1:], T.inv(a[1:])) == 1)
    assert np.array_equal(T.div(M[1:, 1:], a[None, 1:]), np.broadcast_to(a[1:, None], (q - 1, q - 1)))


@pytest.mark.parametrize("q", [243, 256, 343, 512, 625, 729, 1024, 2048, 4096, 1331])
def test_primitive_element_has_full_order_large(q):
    T = tables(q)
    assert np.unique(T.exp).size == q - 1
    assert T.log[0] == -1 and np.all(T.exp[T.log[1:]] == np.arange(1, q))


def test_inverse_of_zero_is_an_error():
    with pytest.raises(ValueError, match="a=0"):
        tables(7).inv([1, 0])


@pytest.mark.parametrize("q", [q for q in PRIME_POWERS_SMALL if q > 2])
def test_squares_and_powers(q):
    T = tables(q)
    a = np.arange(1, q)
    sq = nonzero_squares(q)
    assert np.array_equal(sq, np.unique(T.mul(a, a)))
    assert sq.size == ((q - 1) // 2 if q % 2 else q - 1)
    assert np.array_equal(xi_powers(q, [-1, 0, 1, q - 1]), [T.inv(T.xi), 1, T.xi, 1])
    assert primitive_element(q) == T.xi
