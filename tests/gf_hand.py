"""Hand-written GF(p^2) arithmetic: an oracle for starlib's tables that shares no code with them."""

from __future__ import annotations

import itertools

from starlib.fields import conway_coefficients

__all__ = ["gf_p2", "hand_field_map"]


def gf_p2(p: int):
    """Hand-written GF(p^2) = Z_p[i] / (i^2 - r) with r the least non-residue mod p."""
    r = next(x for x in range(2, p) if pow(x, (p - 1) // 2, p) == p - 1)
    elems = list(itertools.product(range(p), repeat=2))  # (a, b) = a + b i

    def add(u, v):
        return ((u[0] + v[0]) % p, (u[1] + v[1]) % p)

    def mul(u, v):
        return ((u[0] * v[0] + r * u[1] * v[1]) % p, (u[0] * v[1] + u[1] * v[0]) % p)

    return elems, add, mul


def hand_field_map(q: int):
    """Isomorphism from starlib's codes of GF(p^2) to the hand-written field: x -> a root of C(x)."""
    p = int(round(q ** 0.5))
    elems, add, mul = gf_p2(p)
    c0, c1 = conway_coefficients(q)
    alpha = next(u for u in elems
                 if add(add(mul(u, u), mul((c1, 0), u)), (c0, 0)) == (0, 0))
    def to_hand(code: int):
        a0, a1 = code % p, code // p
        return add((a0, 0), mul((a1, 0), alpha))
    return elems, add, mul, to_hand
