"""Finite fields GF(q) as whole-array integer arithmetic, consistent with :mod:`galois`.

Every graph builder of starlib that lives over a finite field (Paley, MMS / Slim Fly, ER_q /
PolarFly) works on *integer-coded* field elements ``0..q-1``. The code is galois's integer
representation: for ``q = p^k`` the element ``c_0 + c_1 x + ... + c_{k-1} x^{k-1}`` of
``GF(p)[x] / (C(x))`` is the integer ``c_0 + c_1 p + ... + c_{k-1} p^{k-1}``, where ``C`` is the
Conway polynomial galois uses by default; the primitive element ``xi`` is galois's default
(the least primitive root mod ``p`` for a prime field, ``x`` for an extension field).

:func:`tables` returns a cached :class:`GFTables` with exp/log tables, so that a whole array of
``q^2`` products costs one numpy gather. Building one costs ``O(q log q)`` numpy work and no
numba compilation, which is why the builders use it rather than ``galois.GF(q)`` arrays
(constructing a new ``galois.GF`` class JIT-compiles for about a second). :func:`field` still
gives the real galois class, and the tests check the tables against it. Which ``q`` are field
orders (prime powers) is decided beside this module, in :mod:`starlib.primes`.

Example
-------
>>> T = tables(9)
>>> T.xi, int(T.mul(T.xi, T.xi)), T.add(3, 3).item()  # x*x = x + 1 mod x^2+2x+2
(3, 4, 6)
>>> sorted(nonzero_squares(13).tolist())
[1, 3, 4, 9, 10, 12]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .memory import Size, check_size
from .primes import check_prime_power, prime_power_parts

__all__ = [
    "field",
    "primitive_element",
    "conway_coefficients",
    "GFTables",
    "tables",
    "nonzero_squares",
    "xi_powers",
]


@functools.cache
def field(q: int):
    """The galois field class ``galois.GF(q)`` (cached; creating one JIT-compiles, ~1 s).

    Parameters
    ----------
    q : int
        The order of the field, a prime power.

    Returns
    -------
    type
        A ``galois.FieldArray`` subclass with galois's default (Conway) representation.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (galois would raise a less specific error).

    Examples
    --------
    >>> field(9).order
    9
    """
    import galois

    return galois.GF(check_prime_power(q))


@functools.cache
def conway_coefficients(q: int) -> tuple[int, ...]:
    """Coefficients ``(c_0, ..., c_{k-1})`` of galois's monic irreducible ``C(x) = x^k + ...``.

    For an extension field this is the Conway polynomial (read from galois's database, or from
    ``galois.GF(q)`` if the database is unavailable); for a prime field ``k = 1`` and the
    polynomial is ``x - xi`` (unused by the arithmetic).

    Parameters
    ----------
    q : int
        The order ``p^k`` of the field.

    Returns
    -------
    tuple of int
        Low-to-high coefficients below the leading 1.

    Examples
    --------
    >>> conway_coefficients(9)   # x^2 + 2x + 2
    (2, 2)
    """
    p, k = prime_power_parts(check_prime_power(q))
    if k == 1:
        return ((-_prime_primitive_root(p)) % p,)
    try:
        from galois._databases import ConwayPolyDatabase  # fast path, no JIT compilation

        degrees, coeffs = ConwayPolyDatabase().fetch(p, k)
        c = [0] * (k + 1)
        for d, v in zip(degrees, coeffs, strict=True):
            c[int(d)] = int(v)
    except Exception:  # noqa: BLE001 - any failure: ask galois itself
        c = [int(v) for v in field(q).irreducible_poly.coeffs[::-1]]
    return tuple(c[:k])


@functools.cache
def _prime_primitive_root(p: int) -> int:
    """The least primitive root modulo the prime ``p`` (galois's ``primitive_root(p)``, without importing galois).

    ``g`` is primitive iff ``g^((p-1)/f) != 1 (mod p)`` for every prime ``f | p - 1``; the factors of ``p - 1``
    come from trial division (``p`` is a field order, far below ``10^12``). Importing galois costs 0.4 s, which
    every Slim Fly or Bundlefly over a prime field would otherwise pay for this one number.

    >>> [_prime_primitive_root(p) for p in (2, 3, 7, 23, 29, 191)]
    [1, 2, 3, 5, 2, 19]
    """
    if p == 2:
        return 1
    m, factors, f = p - 1, [], 2
    while f * f <= m:
        if m % f == 0:
            factors.append(f)
            while m % f == 0:
                m //= f
        f += 1
    if m > 1:
        factors.append(m)
    return next(g for g in range(2, p) if all(pow(g, (p - 1) // f, p) != 1 for f in factors))


def primitive_element(q: int) -> int:
    """galois's default primitive element ``xi`` of GF(q), as an integer code.

    Parameters
    ----------
    q : int
        The order of the field (a prime power).

    Returns
    -------
    int
        The least primitive root mod ``q`` for prime ``q``; the code ``p`` of ``x`` otherwise.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power: there is no field of that order.

    Examples
    --------
    >>> primitive_element(7), primitive_element(8), primitive_element(9)
    (3, 2, 3)
    """
    return tables(q).xi


def _poly_mul_matrix(c_digits: np.ndarray, mod: Sequence[int], p: int) -> np.ndarray:
    """Matrix of ``y -> c*y`` on digit vectors of ``GF(p)[x]/(x^k + mod[k-1] x^{k-1} + ... + mod[0])``."""
    k = len(mod)
    mx = np.zeros((k, k), dtype=np.int64)  # multiplication by x
    for i in range(k - 1):
        mx[i + 1, i] = 1
    mx[:, k - 1] = (-np.asarray(mod, dtype=np.int64)) % p
    out = np.zeros((k, k), dtype=np.int64)
    power = np.eye(k, dtype=np.int64)
    for ci in c_digits:
        out = (out + int(ci) * power) % p
        power = (mx @ power) % p
    return out


@dataclass(frozen=True, eq=False)
class GFTables:
    """Integer-coded arithmetic of GF(q) on whole numpy arrays.

    Attributes
    ----------
    q, p, k : int
        Order, characteristic and degree (``q = p**k``).
    xi : int
        The primitive element (galois's default).
    exp : ndarray
        ``exp[i]`` is the code of ``xi**i`` for ``0 <= i < q-1``.
    log : ndarray
        ``log[a]`` is the discrete log of ``a != 0``; ``log[0] = -1``.
    """

    q: int
    p: int
    k: int
    xi: int
    exp: np.ndarray
    log: np.ndarray

    # -- element-wise operations ------------------------------------------------------------
    def _digits(self, a: np.ndarray) -> np.ndarray:
        a = np.asarray(a, dtype=np.int64)
        weights = self.p ** np.arange(self.k, dtype=np.int64)
        return (a[..., None] // weights) % self.p

    def _undigits(self, d: np.ndarray) -> np.ndarray:
        weights = self.p ** np.arange(self.k, dtype=np.int64)
        return (d * weights).sum(axis=-1)

    def add(self, a: Any, b: Any) -> np.ndarray:
        """``a + b`` element-wise (broadcasting)."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        if self.k == 1:
            return (a + b) % self.p
        if self.p == 2:
            return a ^ b
        return self._undigits((self._digits(a) + self._digits(b)) % self.p)

    def neg(self, a: Any) -> np.ndarray:
        """``-a`` element-wise."""
        a = np.asarray(a, dtype=np.int64)
        if self.k == 1:
            return (-a) % self.p
        if self.p == 2:
            return a.copy()
        return self._undigits((-self._digits(a)) % self.p)

    def sub(self, a: Any, b: Any) -> np.ndarray:
        """``a - b`` element-wise."""
        return self.add(a, self.neg(b))

    def mul(self, a: Any, b: Any) -> np.ndarray:
        """``a * b`` element-wise, through the log/exp tables."""
        a = np.asarray(a, dtype=np.int64)
        b = np.asarray(b, dtype=np.int64)
        la, lb = self.log[a], self.log[b]
        r = self.exp[(la + lb) % (self.q - 1)]
        return np.where((la < 0) | (lb < 0), 0, r)

    def inv(self, a: Any) -> np.ndarray:
        """``a**-1`` element-wise; raises ValueError if some ``a`` is 0."""
        a = np.asarray(a, dtype=np.int64)
        if np.any(a == 0):
            raise ValueError("a=0 has no inverse in GF(q)")
        return self.exp[(-self.log[a]) % (self.q - 1)]

    def div(self, a: Any, b: Any) -> np.ndarray:
        """``a / b`` element-wise; raises ValueError if some ``b`` is 0."""
        return self.mul(a, self.inv(b))

    def xi_pow(self, e: Any) -> np.ndarray:
        """``xi**e`` for integer exponents ``e`` (any sign), element-wise."""
        return self.exp[np.asarray(e, dtype=np.int64) % (self.q - 1)]

    # -- tables ------------------------------------------------------------------------------
    def elements(self) -> np.ndarray:
        """All elements ``0..q-1``."""
        return np.arange(self.q, dtype=np.int64)

    def squares(self) -> np.ndarray:
        """Sorted non-zero squares ``{xi^0, xi^2, ...}`` (``(q-1)/2`` of them for odd q)."""
        if self.p == 2:
            return np.arange(1, self.q, dtype=np.int64)
        return np.sort(self.exp[0::2])

    def add_table(self) -> np.ndarray:
        """``q x q`` addition table."""
        e = self.elements()
        return self.add(e[:, None], e[None, :])

    def mul_table(self) -> np.ndarray:
        """``q x q`` multiplication table."""
        e = self.elements()
        return self.mul(e[:, None], e[None, :])


@functools.cache
def tables(q: int) -> GFTables:
    """Cached exp/log tables of GF(q), consistent with ``galois.GF(q)``.

    Parameters
    ----------
    q : int
        A prime power (any: 4, 8, 9, 25, 27, 49, 121, 125, 128, ...).

    Returns
    -------
    GFTables

    Raises
    ------
    ValueError
        If ``q`` is not a prime power, or the tables would not fit in the memory limit
        (:func:`~starlib.memory.check_size`), checked before any table is built.

    Notes
    -----
    ``xi**i`` for all ``i < q-1`` is computed by doubling: with the ``k x k`` matrix ``M`` of
    multiplication by ``xi`` over GF(p), block ``[L, 2L)`` is block ``[0, L)`` times ``M^L``,
    so ``O(log q)`` numpy matrix products and no Python loop over elements.

    Examples
    --------
    >>> T = tables(8)
    >>> int(T.mul(T.xi_pow(3), T.xi_pow(4)))  # xi^7 = 1
    1
    """
    q = check_prime_power(q)
    p, k = prime_power_parts(q)
    # exp, log and the doubling blocks of k digits: measured 40 bytes per element at q = 10^6 + 3 (k = 1)
    check_size(Size(q, 0, 32 * (k + 2) * q, "field elements"), {"q": q}, "tables")
    if k == 1:
        xi = _prime_primitive_root(p)
        m = np.array([[xi % p]], dtype=np.int64)
    else:
        xi = p  # the code of x, primitive for the Conway polynomial
        m = _poly_mul_matrix(np.array([0, 1] + [0] * (k - 2)), conway_coefficients(q), p)
    block = np.zeros((1, k), dtype=np.int64)
    block[0, 0] = 1
    mpow = m
    while block.shape[0] < q - 1:
        block = np.concatenate([block, (block @ mpow.T) % p])
        mpow = (mpow @ mpow) % p
    weights = p ** np.arange(k, dtype=np.int64)
    exp = (block[: q - 1] * weights).sum(axis=1)
    log = np.full(q, -1, dtype=np.int64)
    log[exp] = np.arange(q - 1, dtype=np.int64)
    if np.count_nonzero(log >= 0) != q - 1:  # pragma: no cover - would mean a wrong polynomial
        raise RuntimeError(f"q={q}: xi={xi} is not a primitive element of the Conway representation")
    exp.setflags(write=False)
    log.setflags(write=False)
    return GFTables(q=q, p=p, k=k, xi=int(xi), exp=exp, log=log)


def nonzero_squares(q: int) -> np.ndarray:
    """Sorted non-zero squares of GF(q) as integer codes.

    Parameters
    ----------
    q : int
        The field order, a prime power.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> nonzero_squares(5).tolist()
    [1, 4]
    """
    return tables(q).squares()


def xi_powers(q: int, exponents: Any) -> np.ndarray:
    """``xi**e`` for each exponent (integer codes), ``xi`` = :func:`primitive_element`.

    Parameters
    ----------
    q : int
        Order of the field GF(q) (a prime power).
    exponents : array_like of int

    Returns
    -------
    ndarray

    Examples
    --------
    >>> xi_powers(7, [0, 1, 2, 6]).tolist()
    [1, 3, 2, 1]
    """
    return tables(q).xi_pow(exponents)
