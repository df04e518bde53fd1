"""The Singer model of ER_q: PG(2, q) as the cyclic group Z_n, n = q^2 + q + 1, and a perfect difference set.

A monic cubic ``t^3 = c0 + c1 t + c2 t^2`` over GF(q) whose root ``t`` generates the cyclic group
GF(q^3)* / GF(q)* (of order ``n``) labels the points of PG(2, q) by exponents: point ``i`` is the
projective point of ``t^i``, written in the basis ``(1, t, t^2)``. The points with first coordinate 0
form a line ``D``, a perfect (Singer) difference set mod ``n``, and with the symmetric form
``B(x, y) = phi(x y)`` (``phi`` = first coordinate) ER_q becomes

    i ~ j  iff  (i + j) mod n in D  and  i != j,

with absolute points ``i = d (n+1)/2 mod n``, ``d in D``. A Gram-basis change maps the dot-product
labelling of :func:`starlib.factors.polarfly` onto this one (:meth:`SingerModel.index_of_points`), so
constructions written in Singer labels are returned on the standard ER_q.

Everything is whole-array arithmetic over the integer-coded field of :mod:`starlib.fields` (no
``galois.GF`` class is created, so no JIT compilation): the cubic is chosen by a vectorised search, the
``n`` powers of ``t`` by doubling (``O(log n)`` numpy steps), the lookup of a point's index by a
``searchsorted`` on normalised coordinate keys.

Example
-------
>>> S = singer_model(7)
>>> S.n, len(S.D), S.absolute_points().size
(57, 8, 8)
>>> S.graph().m == 7 * 8 * 8 // 2
True

References
----------
docs/er-edsts.md §2 (Singer model) and §3 (the isomorphism). J. Singer, "A theorem in finite projective geometry
and some applications to number theory", Trans. AMS 43 (1938) 377-385.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numba
import numpy as np

from ....fields import GFTables, tables
from ....graphs import ArrayGraph, GraphLike
from ....primes import check_prime_power

__all__ = ["SingerModel", "singer_model", "singer_graph", "is_perfect_difference_set", "ER_ORDER_KEY", "er_order"]

#: The key of ``ArrayGraph.meta`` under which a graph that is ER_q records ``q``: written by the builders
#: :func:`starlib.factors.polarfly` (without loops) and :func:`singer_graph`, read by :func:`er_order`.
ER_ORDER_KEY = "er_q"


# ---------------------------------------------------------------------------------------------
# arithmetic in GF(q)[t] / (t^3 - c2 t^2 - c1 t - c0), vectorised over a batch of cubics
# ---------------------------------------------------------------------------------------------
def _cubic_mul(T: GFTables, x: np.ndarray, y: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Product of ``(B, 3)`` coordinate rows modulo the cubics ``c = (B, 3)`` rows ``(c0, c1, c2)``."""
    add, mul = T.add, T.mul
    r = [np.zeros(x.shape[0], dtype=np.int64) for _ in range(5)]
    for a in range(3):
        for b in range(3):
            r[a + b] = add(r[a + b], mul(x[:, a], y[:, b]))
    # t^4 = t * t^3 and t^3 = c0 + c1 t + c2 t^2, highest power first
    for s in (4, 3):
        top = r[s]
        for j in range(3):
            r[s - 3 + j] = add(r[s - 3 + j], mul(top, c[:, j]))
    return np.stack(r[:3], axis=1)


def _cubic_pow(T: GFTables, x: np.ndarray, e: int, c: np.ndarray) -> np.ndarray:
    """``x**e`` modulo each cubic (square and multiply, exponent shared by the batch)."""
    out = np.zeros_like(x)
    out[:, 0] = 1
    base = x
    while e:
        if e & 1:
            out = _cubic_mul(T, out, base, c)
        e >>= 1
        if e:
            base = _cubic_mul(T, base, base, c)
    return out


def _find_singer_cubic(T: GFTables, n: int) -> tuple[int, int, int]:
    """First cubic ``(c0, c1, c2)`` (c2, then c1, then c0 increasing) whose root has order n mod GF(q)*.

    A candidate must have no root in GF(q) (so it is irreducible) and ``t^(n/r)`` must lie outside
    GF(q) for every prime ``r | n`` (``t^n`` is in GF(q) for every irreducible cubic).
    """
    import sympy  # here, not at the top: the command line's edsts would pay a quarter second for this line

    q = T.q
    primes = sorted(sympy.factorint(n))
    r = T.elements()
    r2 = T.mul(r, r)
    r3 = T.mul(r2, r)
    for c2 in range(q):
        for c1 in range(q):
            # values r^3 - c2 r^2 - c1 r: the c0 making r a root
            roots_c0 = T.sub(r3, T.add(T.mul(c2, r2), T.mul(c1, r)))
            ok = np.ones(q, dtype=bool)
            ok[0] = False
            ok[roots_c0] = False
            c0 = np.flatnonzero(ok)
            if c0.size == 0:
                continue
            cs = np.stack([c0, np.full_like(c0, c1), np.full_like(c0, c2)], axis=1)
            t = np.zeros((c0.size, 3), dtype=np.int64)
            t[:, 1] = 1
            good = np.ones(c0.size, dtype=bool)
            for p in primes:
                y = _cubic_pow(T, t, n // p, cs)
                good &= (y[:, 1] != 0) | (y[:, 2] != 0)
            hit = np.flatnonzero(good)
            if hit.size:
                return int(c0[hit[0]]), int(c1), int(c2)
    raise RuntimeError(f"q={q}: no Singer cubic found")  # pragma: no cover - impossible (Singer 1938)


def _powers(T: GFTables, cubic: tuple[int, int, int], count: int) -> np.ndarray:
    """Coordinates of ``t^0 .. t^(count-1)`` in the basis (1, t, t^2), by doubling.

    With ``v_0 .. v_{L-1}`` known, ``t^(m+i) = sum_a v_i[a] t^(m+a)`` for ``m = L - 3`` gives the
    block ``v_L .. v_{2L-4}`` from three known rows, so ``O(log count)`` vectorised steps.
    """
    c0, c1, c2 = cubic
    v = np.zeros((max(count, 4), 3), dtype=np.int64)
    v[0] = (1, 0, 0)
    v[1] = (0, 1, 0)
    v[2] = (0, 0, 1)
    v[3] = (c0, c1, c2)
    L = 4
    while L < count:
        m = L - 3
        new = min(2 * L - 3, count)  # rows L .. new-1, i.e. i = 3 .. new-1-m
        src = v[3:new - m]
        acc = np.zeros((src.shape[0], 3), dtype=np.int64)
        for a in range(3):
            acc = T.add(acc, T.mul(src[:, a:a + 1], v[m + a][None, :]))
        v[L:new] = acc
        L = new
    return v[:count]


def _normalise(T: GFTables, x: np.ndarray) -> np.ndarray:
    """Scale each nonzero row so that its first nonzero coordinate is 1."""
    lead = np.where(x[:, 0] != 0, x[:, 0], np.where(x[:, 1] != 0, x[:, 1], x[:, 2]))
    if np.any(lead == 0):
        raise ValueError("points: the zero vector is not a projective point")
    return T.mul(x, T.inv(lead)[:, None])


def _sqrt(T: GFTables, a: int) -> int | None:
    """A square root of ``a`` in GF(q), or None if ``a`` is a non-square."""
    if a == 0:
        return 0
    la = int(T.log[a])
    if T.p == 2:
        return int(T.exp[(la * (T.q // 2)) % (T.q - 1)])
    if la % 2:
        return None
    return int(T.exp[la // 2])


def is_perfect_difference_set(D: np.ndarray, n: int) -> bool:
    """True if every nonzero residue mod ``n`` is ``a - b`` for exactly one ordered pair of ``D``.

    Parameters
    ----------
    D : array_like of int
        Candidate set of residues.
    n : int
        Modulus.

    Returns
    -------
    bool

    Example
    -------
    >>> is_perfect_difference_set([0, 1, 3], 7), is_perfect_difference_set([0, 1, 2], 7)
    (True, False)

    References
    ----------
    docs/er-edsts.md §2.2; Singer (1938).
    """
    d = np.unique(np.asarray(D, dtype=np.int64) % n)
    diff = (d[:, None] - d[None, :]) % n
    counts = np.bincount(diff.ravel(), minlength=n)
    return bool(counts[0] == d.size and np.all(counts[1:] == 1))


@numba.njit(cache=True)
def _singer_edges(D, n):  # pragma: no cover - compiled
    """Rows ``(u, v)``, ``u < v``, ``u + v mod n`` in the sorted set ``D``, in increasing order."""
    k = D.shape[0]
    out = np.empty((n * k // 2, 2), np.int64)
    c = 0
    for u in range(n):
        j0 = np.searchsorted(D, u)
        for t in range(k):
            j = j0 + t
            v = D[j] - u if j < k else D[j - k] - u + n
            if v > u:
                out[c, 0] = u
                out[c, 1] = v
                c += 1
    return out[:c]


def _point_slots(x: np.ndarray, q: int) -> np.ndarray:
    """Slot of each normalised point: ``a q + b`` for ``(1, a, b)``, ``q^2 + b`` for ``(0, 1, b)``, else
    ``q^2 + q``."""
    return np.where(x[:, 0] == 1, x[:, 1] * q + x[:, 2], np.where(x[:, 1] == 1, q * q + x[:, 2], q * q + q))


@numba.njit(cache=True)
def _index_of_points(y, basis, add, mul, inv, index, q):  # pragma: no cover - compiled
    """``x = sum_r y_r e_r`` over GF(q) (tables), normalised, looked up by slot; ``(out, first zero row)``."""
    rows = y.shape[0]
    out = np.empty(rows, np.int64)
    for r in range(rows):
        x0 = 0
        x1 = 0
        x2 = 0
        for c in range(3):
            a = y[r, c]
            x0 = add[x0, mul[a, basis[c, 0]]]
            x1 = add[x1, mul[a, basis[c, 1]]]
            x2 = add[x2, mul[a, basis[c, 2]]]
        if x0 != 0:
            out[r] = index[mul[x1, inv[x0]] * q + mul[x2, inv[x0]]]
        elif x1 != 0:
            out[r] = index[q * q + mul[x2, inv[x1]]]
        elif x2 != 0:
            out[r] = index[q * q + q]
        else:
            return out, r
    return out, -1


# ---------------------------------------------------------------------------------------------
# the model
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class SingerModel:
    """ER_q in Singer labels, with the isomorphism to the dot-product labelling.

    Attributes
    ----------
    q, n : int
        Field order and ``n = q^2 + q + 1``.
    cubic : tuple of int
        ``(c0, c1, c2)`` with ``t^3 = c0 + c1 t + c2 t^2``.
    points : ndarray
        ``(n, 3)`` normalised coordinates (first nonzero = 1) of the point ``[t^i]``.
    D : ndarray
        The Singer difference set ``{i : t^i has first coordinate 0}``, sorted, ``q + 1`` elements.
    gram : ndarray
        ``G[a][b] = phi(t^(a+b))``, the form ``B`` in the basis (1, t, t^2).
    basis : ndarray
        Rows ``e1, e2, e3`` with ``e_r^T G e_s = lam`` if ``r = s`` else 0.
    lam : int
        The common value ``e_r^T G e_r``.
    """

    q: int
    n: int
    cubic: tuple[int, int, int]
    points: np.ndarray
    D: np.ndarray
    gram: np.ndarray
    basis: np.ndarray
    lam: int

    @property
    def field(self) -> GFTables:
        """Integer-coded GF(q) arithmetic (:func:`starlib.fields.tables`)."""
        return tables(self.q)

    @functools.cached_property
    def in_D(self) -> np.ndarray:
        """Boolean mask of length ``n``: ``in_D[s]`` iff ``s`` is in ``D``."""
        mask = np.zeros(self.n, dtype=bool)
        mask[self.D] = True
        return mask

    @functools.cached_property
    def point_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """GF(q) addition and multiplication tables, inverses (``inv[0] = 0``), and ``index[slot]``: the
        Singer index of the normalised point in slot ``a q + b`` for ``(1, a, b)``, ``q^2 + b`` for
        ``(0, 1, b)``, ``q^2 + q`` for ``(0, 0, 1)``."""
        T = self.field
        el = T.elements()
        add = T.add(el[:, None], el[None, :])
        mul = T.mul(el[:, None], el[None, :])
        inv = np.zeros(self.q, dtype=np.int64)
        inv[1:] = T.inv(el[1:])
        index = np.empty(self.n, dtype=np.int64)
        index[_point_slots(self.points, self.q)] = np.arange(self.n, dtype=np.int64)
        return add, mul, inv, index

    def absolute_points(self) -> np.ndarray:
        """The ``q + 1`` absolute points ``d (n+1)/2 mod n`` (those ``i`` with ``2i`` in ``D``), sorted."""
        return np.sort((self.D * ((self.n + 1) // 2)) % self.n)

    def adjacent(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Element-wise test ``u ~ v`` in Singer labels (``u != v`` and ``u + v mod n`` in ``D``)."""
        u = np.asarray(u, dtype=np.int64)
        v = np.asarray(v, dtype=np.int64)
        return (u != v) & self.in_D[(u + v) % self.n]

    def sum_class(self, d: int) -> np.ndarray:
        """The matching ``M_d = {{i, d - i}}`` as a ``((n-1)/2, 2)`` array, rows ``u < v`` (docs/er-edsts.md §4.1)."""
        n = self.n
        i = np.arange(n, dtype=np.int64)
        j = (int(d) - i) % n
        keep = i < j
        return np.stack([i[keep], j[keep]], axis=1)

    def edges(self) -> np.ndarray:
        """All ``q(q+1)^2/2`` edges in Singer labels, rows ``u < v``, sorted.

        For each ``u`` the neighbours ``(d - u) mod n``, ``d`` in ``D``, come out sorted when ``D`` is read
        from its first element ``>= u`` round to the others (compiled, ``O(m)``).
        """
        return _singer_edges(self.D, self.n)

    def graph(self) -> ArrayGraph:
        """ER_q as an :class:`~starlib.graphs.ArrayGraph` on Singer labels ``0..n-1``."""
        return ArrayGraph(list(range(self.n)), self.edges(), name="polarfly-singer", params={"q": self.q},
                          meta={"absolute_points": self.absolute_points(), "difference_set": self.D.copy(),
                                ER_ORDER_KEY: self.q})

    def index_of_points(self, points: np.ndarray) -> np.ndarray:
        """Singer index of each dot-product point ``y`` (rows of integer codes), via ``x = sum_r y_r e_r``.

        ``y . y' = 0`` iff ``x^T G x' = 0`` iff ``i + i'`` is in ``D`` (docs/er-edsts.md §3), so this maps
        the vertices of :func:`starlib.factors.polarfly` to the Singer labels isomorphically.

        Raises
        ------
        ValueError
            If a row is the zero vector or not a point of PG(2, q).
        """
        y = np.asarray(points, dtype=np.int64).reshape(-1, 3)
        if y.size and (y.min() < 0 or y.max() >= self.q):
            raise ValueError(f"points: coordinates must be field codes in 0..{self.q - 1}")
        add, mul, inv, index = self.point_tables
        out, bad = _index_of_points(y, self.basis, add, mul, inv, index, self.q)
        if bad >= 0:
            raise ValueError("points: the zero vector is not a projective point")
        return out


def _gram_basis(T: GFTables, G: np.ndarray) -> tuple[np.ndarray, int]:
    """A ``G``-orthogonal basis with equal norms ``lam`` (docs/er-edsts.md §3), by an ordered scan."""
    q = T.q
    g = [[int(G[a, b]) for b in range(3)] for a in range(3)]

    def s_add(*xs: int) -> int:
        out = 0
        for x in xs:
            out = int(T.add(out, x))
        return out

    def s_mul(a: int, b: int) -> int:
        return int(T.mul(a, b))

    det = s_add(s_mul(g[0][0], s_add(s_mul(g[1][1], g[2][2]), int(T.neg(s_mul(g[1][2], g[2][1]))))),
                int(T.neg(s_mul(g[0][1], s_add(s_mul(g[1][0], g[2][2]), int(T.neg(s_mul(g[1][2], g[2][0]))))))),
                s_mul(g[0][2], s_add(s_mul(g[1][0], g[2][1]), int(T.neg(s_mul(g[1][1], g[2][0]))))))
    if det == 0:  # pragma: no cover - B is non-degenerate
        raise RuntimeError("the Gram matrix is singular")
    lam = 1 if T.p == 2 else det

    def form(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """B(x, y) row-wise for (N, 3) arrays (y broadcastable)."""
        out = np.zeros(np.broadcast_shapes(x.shape, y.shape)[:-1], dtype=np.int64)
        for a in range(3):
            for b in range(3):
                if g[a][b]:
                    out = T.add(out, T.mul(T.mul(x[..., a], y[..., b]), g[a][b]))
        return out

    def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.array([T.sub(T.mul(a[1], b[2]), T.mul(a[2], b[1])),
                         T.sub(T.mul(a[2], b[0]), T.mul(a[0], b[2])),
                         T.sub(T.mul(a[0], b[1]), T.mul(a[1], b[0]))], dtype=np.int64)

    # candidate vectors in a fixed order: (1, a, b), then (0, 1, b), then (0, 0, 1)
    el = T.elements()
    cand = np.concatenate([np.stack([np.ones(q * q, dtype=np.int64), np.repeat(el, q), np.tile(el, q)], axis=1),
                           np.stack([np.zeros(q, dtype=np.int64), np.ones(q, dtype=np.int64), el], axis=1),
                           np.array([[0, 0, 1]], dtype=np.int64)])
    ab = np.stack([np.repeat(el, q), np.tile(el, q)], axis=1)[1:]  # (alpha, beta) != (0, 0)
    chunk = 4096
    for s in range(0, cand.shape[0], chunk):
        block = cand[s:s + chunk]
        e1s = block[form(block, block) == lam]
        for e1 in e1s[:8]:
            l1 = form(np.eye(3, dtype=np.int64), e1[None, :])  # G e1
            piv = int(np.flatnonzero(l1)[0])
            # basis of the complement of e1: u_b = unit_b - (l1_b / l1_piv) unit_piv
            us = []
            for b in range(3):
                if b != piv:
                    u = np.zeros(3, dtype=np.int64)
                    u[b] = 1
                    u[piv] = int(T.neg(T.div(int(l1[b]), int(l1[piv]))))
                    us.append(u)
            e2c = T.add(T.mul(ab[:, :1], us[0][None, :]), T.mul(ab[:, 1:], us[1][None, :]))
            e2s = e2c[form(e2c, e2c) == lam]
            for e2 in e2s[:8]:
                l2 = form(np.eye(3, dtype=np.int64), e2[None, :])
                u = cross(l1, l2)
                qu = int(form(u[None, :], u[None, :])[0])
                if qu == 0:
                    continue
                c = _sqrt(T, int(T.div(lam, qu)))
                if c is None:
                    continue
                e3 = T.mul(u, c)
                basis = np.stack([e1, e2, e3]).astype(np.int64)
                return basis, int(lam)
    raise RuntimeError(f"q={q}: no Gram basis found")  # pragma: no cover - exists by Witt's theorem


@functools.lru_cache(maxsize=16)
def singer_model(q: int) -> SingerModel:
    """Build the Singer model of ER_q (difference set, point coordinates, Gram-basis isomorphism).

    Parameters
    ----------
    q : int
        A prime power (any: 2, 4, 8, 9, 25, 27, 121, 125, 128, 1024, ...).

    Returns
    -------
    SingerModel
        Cached per ``q``; ``D`` is verified to be a perfect difference set and the basis to satisfy
        ``e_r^T G e_s = lam [r = s]``.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (GF(q^3) does not exist).

    Notes
    -----
    ``O(n)`` vectorised work for the powers of ``t`` and ``O(q^2)`` for the checks; no per-point loop.
    The cubic is the first in the order (c2, c1, c0) whose root generates GF(q^3)*/GF(q)*.

    Example
    -------
    >>> S = singer_model(2)
    >>> S.D.tolist(), S.absolute_points().tolist()
    ([1, 2, 4], [1, 2, 4])

    References
    ----------
    docs/er-edsts.md §2-§3; Singer (1938).
    """
    q = check_prime_power(q)
    T = tables(q)
    n = q * q + q + 1
    cubic = _find_singer_cubic(T, n)
    v = _powers(T, cubic, n + 1)
    if v[n, 1] != 0 or v[n, 2] != 0 or np.any((v[1:n, 1] == 0) & (v[1:n, 2] == 0)):
        raise RuntimeError(f"q={q}: the cubic {cubic} does not generate PG(2, q)")  # pragma: no cover
    D = np.flatnonzero(v[:n, 0] == 0).astype(np.int64)
    if D.size != q + 1 or not is_perfect_difference_set(D, n):
        raise RuntimeError(f"q={q}: D is not a perfect difference set")  # pragma: no cover
    points = _normalise(T, v[:n])
    G = np.array([[v[a + b, 0] for b in range(3)] for a in range(3)], dtype=np.int64)
    basis, lam = _gram_basis(T, G)
    for arr in (points, D, G, basis):
        arr.setflags(write=False)
    return SingerModel(q=q, n=n, cubic=cubic, points=points, D=D, gram=G, basis=basis, lam=lam)


def singer_graph(q: int) -> ArrayGraph:
    """ER_q on Singer labels: ``i ~ j`` iff ``(i + j) mod n`` is in the Singer difference set, ``i != j``.

    Parameters
    ----------
    q : int
        The field order (a prime power); ``n = q^2 + q + 1`` vertices.

    Returns
    -------
    ArrayGraph
        Named ``"polarfly-singer"``; vertices ``0..n-1``; ``meta`` holds the absolute points, ``D`` and the
        ER_q marker (``meta[ER_ORDER_KEY] = q``, read by :func:`er_order`).

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (as :func:`singer_model`).

    Example
    -------
    >>> g = singer_graph(3)
    >>> g.n, g.m, g.degree_set(), g.diameter()
    (13, 24, [3, 4], 2)

    References
    ----------
    docs/er-edsts.md §2.3.
    """
    return singer_model(q).graph()


def er_order(graph: GraphLike | None) -> int | None:
    """The ``q`` of a graph marked as ER_q by its builder, else None: how starlib recognises ER_q.

    :func:`starlib.factors.polarfly` (without loops; a looped ER_q is not given the ER_q constructions) and
    :func:`singer_graph` record ``q`` in ``graph.meta[ER_ORDER_KEY]``. Neither the graph's name nor its trees
    count: a graph read back from a file, or built by hand, carries no marker and is treated as any other graph.

    Parameters
    ----------
    graph : ArrayGraph, networkx.Graph or None
        Any graph (a networkx graph, a star product or anything without the marker gives None).

    Returns
    -------
    int or None
        ``q`` when the marker is present and ``graph.n == q^2 + q + 1``; None otherwise.

    Example
    -------
    >>> from starlib.factors import complete, polarfly
    >>> er_order(polarfly(7)), er_order(singer_graph(3)), er_order(polarfly(7, loops=True)), er_order(complete(57))
    (7, 3, None, None)

    References
    ----------
    docs/er-edsts.md §1 (ER_q: ``n = q^2 + q + 1``).
    """
    meta = getattr(graph, "meta", None)
    q = meta.get(ER_ORDER_KEY) if isinstance(meta, dict) else None
    if q is None:
        return None
    q = int(q)
    return q if getattr(graph, "n", None) == q * q + q + 1 else None
