"""Maximum EDST sets of Cayley graphs on the additive group of GF(q), ``q = p^k``, ``p`` odd, ``k >= 2``.

The prime-power Paley graphs ``QR(q)`` and the McKay-Miller-Siran supernodes ``C(X)`` (the supernode of
:func:`starlib.networks.slimfly`) are ``Cay(G, S)`` with ``G = (GF(q), +) = Z_p^k``: vertex ``x`` (the
integer code ``sum_i x_i p^i``) is joined to ``x + s`` for ``s`` in the symmetric set ``S``, addition being
digit-wise mod ``p``. The circulant packing does not apply (``G`` is not cyclic), so before this module
:func:`~starlib.edst.factor.factor_edsts` used the exact generic packer for them (1.7 s for the
125-vertex supernode of ``slimfly(125)``). This packing reaches the bound in milliseconds.

The bound
---------
``S`` is a union of ``c`` classes ``{s, -s}`` (``s != -s`` as ``p`` is odd), each class is ``q`` edges,
so ``m = c q``, the degree is ``2c <= q - 1`` and ``min(floor(m/(q-1)), 2c) = c``: one tree per class.

The construction
----------------
Fix a cyclic order ``s_0, ..., s_{c-1}`` of class representatives such that every window
``W_i = (s_i, s_{i+1}, ..., s_{i+k-1})`` (indices mod ``c``) is a basis of ``G`` over GF(p). Tree ``i``
is made of

* its own class: each of the ``q/p`` cosets of ``<s_i>`` is a ``p``-cycle ``x, x+s_i, ..., x+(p-1)s_i``;
  tree ``i`` takes the cycle minus one *dropped* edge ``{x, x+s_i}`` (a Hamiltonian path of the coset);
* ``q/p - 1`` connectors: for every level ``r = 1..k-1``, every ``t = 0..p-2`` and every
  ``(a_1, ..., a_{r-1})`` in ``Z_p^{r-1}``, the edge ``{x, x + s_{i+r}}`` of class ``i+r`` with
  ``x = (t+1) s_i + a_1 s_{i+1} + ... + a_{r-1} s_{i+r-1} + t s_{i+r}``.

Class ``j`` drops, in the coset of every such ``x`` (taken over its borrowers ``i = j - r``), exactly the
edge ``{x, x + s_j}`` it lends, and the edge ``{0, s_j}`` in the coset ``<s_j>``.

*Proof.* (1) Tree ``i`` spans: modulo ``<s_i>`` the images ``e_m`` of ``s_{i+m}`` (``m = 1..k-1``) are a
basis of ``G/<s_i> = Z_p^{k-1}`` because ``W_i`` is a basis. The level-``r`` connector joins
``y = a_1 e_1 + ... + a_{r-1} e_{r-1} + t e_r`` to ``y + e_r``; so every ``y != 0`` of ``G/<s_i>``, with
``r`` its highest non-zero coordinate, is joined to ``y - e_r`` by exactly one connector, and the
connectors form a spanning tree of the quotient (a "comb"). Each coset path spans its coset, hence the
tree's ``q - q/p`` path edges and ``q/p - 1`` connectors (``q - 1`` edges) connect ``G``: a spanning tree.
(2) The dropped edges are well defined: write the coset of ``x`` modulo ``<s_j>`` in the basis
``W_{j-k+1} = (s_{j-k+1}, ..., s_{j-1}, s_j)``. For the borrower ``i = j - r`` its coordinates on
``s_{j-k+1}, ..., s_{j-r-1}`` are 0 and on ``s_{j-r}`` it is ``t + 1 != 0``; so ``r`` is read off the coset
(the position of the lowest non-zero coordinate), then ``(t, a)`` from the remaining coordinates: distinct
connectors of class ``j`` lie in distinct cosets, none in ``<s_j>`` (all coordinates 0), and the
``sum_r (p-1) p^{r-1} + 1 = q/p`` cosets are each given exactly one dropped edge. (3) Disjoint: an edge
``{x, x+s}`` has a unique class ``{s, -s}``; the edges of class ``j`` are split into tree ``j``'s paths and
the dropped edges, each dropped edge lent to at most one tree.

The order. With ``xi`` the primitive element, sort the classes by ``log(s) mod (q-1)/2`` (well defined on
``{s, -s}`` since ``-1 = xi^{(q-1)/2}``). For ``QR(q)`` the classes are ``{+-theta^m}``,
``m = 0..c-1``, ``c = (q-1)/4``, ``theta = xi^2``, in this order, and ``theta^c = -1``; so every cyclic
window, across the seam too, is ``theta^i (+-1, +-theta, ..., +-theta^{k-1})``. It is a basis: ``theta`` has
order ``(q-1)/2``, which does not divide ``p^d - 1 <= p^{k/2} - 1 < (q-1)/2`` for a proper subfield
``GF(p^d)``, ``d | k``, ``d < k`` (as ``(p^{k/2} - 1)^2 > 0``), so ``GF(p)(theta) = GF(q)``, the minimal
polynomial of ``theta`` has degree ``k`` and no non-zero polynomial of degree ``< k`` vanishes at ``theta``.
This proves every ``QR(q)`` and every ``C(X)`` with ``q = 1 (mod 4)`` (there ``C(X) = QR(q)``).

For other ``S`` the sorted order is checked window by window (exact rank over GF(p), batched). For ``C(X)``
with ``q = 3 (mod 4)`` (``q = 27, 243, 343, 1331, 2187, ...``) the classes are ``{+-theta^m}``,
``m < (q+1)/4``, but ``theta^{(q+1)/4} = -xi`` is not ``+-1``: the windows across the seam are not runs of
powers, and with galois's Conway polynomials they are dependent (``q = 27``: ``xi^3 = xi + 2``). Then a
deterministic depth-first search (compiled), preferring the sorted order and started half-way round so the
seam falls in its middle, finds another cyclic order (in practice it rearranges 2 to 12 classes at the seam).
Any order it returns is checked again window by window, so the trees are correct by the proof above;
``None`` means no order was found (the tests find one for every ``C(X)``, ``q = 3 (mod 4)``, ``q <= 2187``,
and for most random sets; it fails on some with few classes). ``c >= k`` and ``S`` spanning ``G`` are
necessary; ``None`` also for sets such as ``{+-e_1, +-2 e_1, +-e_2}`` in ``Z_5^2`` where no order exists
(then :func:`~starlib.edst.factor.factor_edsts` uses the exact packer).

Example
-------
>>> from starlib.factors import paley
>>> from starlib.edst.verify import verify_edsts
>>> g = paley(25)
>>> S = additive_connection_set(g, 25)
>>> trees = abelian_paths(25, S)
>>> len(trees), trees[0].shape, verify_edsts(g, trees).valid
(6, (24, 2), True)

References
----------
McKay, Miller, Siran (1998) for ``C(X)``; Lidl, Niederreiter, *Finite Fields*, Thm 2.10 (a generator of
GF(q)* lies in no proper subfield) and Thm 2.14 (subfields ``GF(p^d)``, ``d | k``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from ...fields import tables
from ...primes import check_prime_power, prime_power_parts

if TYPE_CHECKING:
    from ...graphs import ArrayGraph

__all__ = ["additive_connection_set", "abelian_order", "abelian_paths", "abelian_graph_paths"]

_SEARCH_BUDGET = 2_000_000


def _odd_prime_power(q: Any, name: str = "q") -> tuple[int, int, int]:
    """``(q, p, k)`` for an odd prime power ``q = p^k`` with ``k >= 2``, else ValueError naming ``name``."""
    q = check_prime_power(q, name)
    p, k = prime_power_parts(q)
    if p == 2 or k < 2:
        raise ValueError(f"{name}={q} must be an odd prime power p^k with k >= 2 "
                         f"(p = 2 and prime q are not covered; prime q is the circulant case)")
    return q, p, k


def _digits(a: np.ndarray, p: int, k: int) -> np.ndarray:
    return (np.asarray(a, dtype=np.int64)[..., None] // (p ** np.arange(k, dtype=np.int64))) % p


def _codes(d: np.ndarray, p: int, k: int) -> np.ndarray:
    return (d * (p ** np.arange(k, dtype=np.int64))).sum(axis=-1)


def _inverses(p: int) -> np.ndarray:
    inv = np.zeros(p, dtype=np.int64)
    inv[1:] = [pow(a, p - 2, p) for a in range(1, p)]
    return inv


def _full_rank(mats: np.ndarray, p: int) -> np.ndarray:
    """Whether each square matrix of the stack ``(N, k, k)`` is invertible over GF(p) (batched elimination)."""
    M = np.array(mats, dtype=np.int64) % p
    N, k, _ = M.shape
    inv = _inverses(p)
    ok = np.ones(N, dtype=bool)
    idx = np.arange(N)
    for j in range(k):
        nz = M[:, j:, j] != 0
        ok &= nz.any(axis=1)
        piv = j + np.argmax(nz, axis=1)
        rj, rp = M[idx, j].copy(), M[idx, piv].copy()
        M[idx, piv] = rj
        M[idx, j] = rp
        M[:, j] = (M[:, j] * inv[M[:, j, j]][:, None]) % p
        M[:, j + 1:] = (M[:, j + 1:] - M[:, j + 1:, j:j + 1] * M[:, j:j + 1, :]) % p
    return ok


@numba.njit(cache=True)
def _independent(V, rows, cnt, p, inv):  # pragma: no cover - compiled
    k = V.shape[1]
    M = np.empty((cnt, k), dtype=np.int64)
    for a in range(cnt):
        for b in range(k):
            M[a, b] = V[rows[a], b]
    r = 0
    for col in range(k):
        if r == cnt:
            break
        piv = -1
        for a in range(r, cnt):
            if M[a, col] != 0:
                piv = a
                break
        if piv < 0:
            continue
        for b in range(k):
            tmp = M[r, b]
            M[r, b] = M[piv, b]
            M[piv, b] = tmp
        f = inv[M[r, col]]
        for b in range(k):
            M[r, b] = (M[r, b] * f) % p
        for a in range(cnt):
            if a != r and M[a, col] != 0:
                g = M[a, col]
                for b in range(k):
                    M[a, b] = (M[a, b] - g * M[r, b]) % p
        r += 1
    return r == cnt


@numba.njit(cache=True)
def _order_ok(V, seq, t, c, k, p, inv, rows):  # pragma: no cover - compiled
    lo = t - k + 1
    if lo < 0:
        lo = 0
    cnt = 0
    for u in range(lo, t + 1):
        rows[cnt] = seq[u]
        cnt += 1
    if not _independent(V, rows, cnt, p, inv):
        return False
    # windows that wrap around: start s in [c-k+1, c-1], holding seq[s..c-1] and seq[0..s+k-1-c]
    s0 = c - k + 1
    if s0 < 1:
        s0 = 1
    for s in range(s0, t + 1):
        cnt = 0
        for u in range(0, s + k - c):
            rows[cnt] = seq[u]
            cnt += 1
        for u in range(s, t + 1):
            rows[cnt] = seq[u]
            cnt += 1
        if not _independent(V, rows, cnt, p, inv):
            return False
    return True


@numba.njit(cache=True)
def _search_order(V, pref, k, p, inv, budget):  # pragma: no cover - compiled
    """Depth-first search for a cyclic order of the rows of ``V`` with every ``k``-window independent,
    trying candidates in the order ``pref``; returns the order (indices) or an empty array."""
    c = V.shape[0]
    seq = np.full(c, -1, dtype=np.int64)
    used = np.zeros(c, dtype=np.bool_)
    ptr = np.zeros(c, dtype=np.int64)
    rows = np.empty(k, dtype=np.int64)
    t = 0
    nodes = 0
    while t >= 0:
        if t == c:
            return seq
        placed = False
        while ptr[t] < c:
            cand = pref[ptr[t]]
            ptr[t] += 1
            if used[cand]:
                continue
            nodes += 1
            if nodes > budget:
                return np.empty(0, dtype=np.int64)
            seq[t] = cand
            if _order_ok(V, seq, t, c, k, p, inv, rows):
                used[cand] = True
                placed = True
                break
        if placed:
            t += 1
            if t < c:
                ptr[t] = 0
        else:
            seq[t] = -1
            ptr[t] = 0
            t -= 1
            if t >= 0:
                used[seq[t]] = False
    return np.empty(0, dtype=np.int64)


def _classes(q: int, connection: Any) -> np.ndarray:
    """Sorted class representatives ``s`` (``log s < (q-1)/2``) of a validated symmetric set, by ``log mod (q-1)/2``."""
    T = tables(q)
    S = np.asarray(connection)
    if S.ndim != 1 or S.size == 0 or not np.issubdtype(S.dtype, np.integer):
        raise ValueError(f"connection: need a non-empty 1-d integer array of GF({q}) codes, got {S!r}")
    S = S.astype(np.int64)
    if S.min() < 0 or S.max() >= q:
        raise ValueError(f"connection: elements must be GF({q}) codes in 0..{q - 1}")
    if (S == 0).any():
        raise ValueError("connection: 0 is not allowed (it would be a loop)")
    if np.unique(S).size != S.size:
        raise ValueError("connection: repeated elements")
    if not np.array_equal(np.sort(T.neg(S)), np.sort(S)):
        raise ValueError("connection: not symmetric (s in S but -s not in S); the graph would be directed")
    half = (q - 1) // 2
    lg = T.log[S]
    reps = S[lg < half]
    return reps[np.argsort(T.log[reps], kind="stable")]


def abelian_order(q: int, connection: Any) -> np.ndarray | None:
    """A cyclic order of class representatives of ``S`` whose every ``k`` consecutive ones are a basis.

    Parameters
    ----------
    q : int
        Odd prime power ``p^k``, ``k >= 2``.
    connection : array of int
        The symmetric connection set ``S`` (GF(q) integer codes, no 0, no repeats).

    Returns
    -------
    ndarray or None
        ``c`` representatives ``s_0, ..., s_{c-1}`` (one per class ``{s, -s}``), or None when ``c < k``, ``S``
        does not span GF(q) over GF(p), or the search finds no such order within its budget.

    Raises
    ------
    ValueError
        If ``q`` is not an odd prime power with ``k >= 2`` or ``connection`` is not a valid symmetric set.

    Example
    -------
    >>> from starlib.fields import tables
    >>> abelian_order(9, tables(9).squares()).tolist()   # 1 and xi^2 = x + 1 (code 4)
    [1, 4]

    References
    ----------
    Module docstring (the order by discrete logarithm; the proof for ``QR(q)``).
    """
    q, p, k = _odd_prime_power(q)
    reps = _classes(q, connection)
    c = reps.size
    if c < k:
        return None
    V = _digits(reps, p, k)
    win = V[(np.arange(c)[:, None] + np.arange(k)[None, :]) % c]
    if _full_rank(win, p).all():
        return reps
    if _rank(V, p) < k:
        return None
    # start the search half-way round, so that the seam of the sorted order (where its windows may be dependent)
    # lies in the middle of the search, with its whole backtracking available, not at the closing end
    pref = np.roll(np.arange(c, dtype=np.int64), -(c // 2))
    seq = _search_order(V, pref, k, p, _inverses(p), _SEARCH_BUDGET)
    if seq.size == 0:
        return None
    if not _full_rank(V[seq][(np.arange(c)[:, None] + np.arange(k)[None, :]) % c], p).all():  # pragma: no cover
        raise RuntimeError(f"q={q}: the order search returned a dependent window")
    return reps[seq]


def _rank(V: np.ndarray, p: int) -> int:
    """Rank over GF(p) of the rows of ``V`` (``(c, k)``; elimination vectorised over the rows)."""
    M = np.array(V, dtype=np.int64) % p
    inv = _inverses(p)
    r = 0
    for j in range(M.shape[1]):
        nz = np.flatnonzero(M[r:, j]) + r
        if nz.size == 0:
            continue
        M[[r, nz[0]]] = M[[nz[0], r]]
        M[r] = (M[r] * inv[M[r, j]]) % p
        others = np.arange(M.shape[0]) != r
        M[others] = (M[others] - M[others, j:j + 1] * M[r]) % p
        r += 1
        if r == M.shape[0]:
            break
    return r


def abelian_paths(q: int, connection: Any) -> list[np.ndarray] | None:
    """One spanning tree per class ``{s, -s}`` of ``Cay(GF(q)+, S)``: coset paths of ``s`` plus connectors.

    Parameters
    ----------
    q : int
        Odd prime power ``p^k``, ``k >= 2`` (vertex ``x`` is the integer code of a GF(q) element).
    connection : array of int
        The symmetric connection set ``S``.

    Returns
    -------
    list of ndarray or None
        ``c = |S|/2`` edge arrays of shape ``(q-1, 2)`` (int64), edge-disjoint spanning trees, in the order
        of :func:`abelian_order`; None when that order does not exist or is not found.

    Raises
    ------
    ValueError
        If ``q`` or ``connection`` is invalid (see :func:`abelian_order`).

    Example
    -------
    >>> from starlib.fields import tables
    >>> [t.shape for t in abelian_paths(9, tables(9).squares())]
    [(8, 2), (8, 2)]

    References
    ----------
    Module docstring (construction and proof).
    """
    q, p, k = _odd_prime_power(q)
    reps = abelian_order(q, connection)
    if reps is None:
        return None
    c = reps.size
    Q = q // p
    w = p ** np.arange(k, dtype=np.int64)
    R = _digits(reps, p, k)                                            # (c, k)
    B = R[(np.arange(c)[:, None] + np.arange(k)[None, :]) % c]        # (c, k, k): rows s_i .. s_{i+k-1}
    out = np.empty((c, q - 1, 2), dtype=np.int64)
    own = out[:, : Q * (p - 1)].reshape(c, Q, p - 1, 2)                # tree i's own-class paths, per coset
    pos, drops = Q * (p - 1), [np.zeros((c, 1, k), dtype=np.int64)]   # class j drops {0, s_j} in <s_j>
    for r in range(1, k):
        grid = np.indices((p - 1,) + (p,) * (r - 1)).reshape(r, -1).T  # columns t, a_1..a_{r-1}
        A = np.zeros((grid.shape[0], k), dtype=np.int64)
        A[:, 0] = grid[:, 0] + 1
        A[:, 1:r] = grid[:, 1:]
        A[:, r] = grid[:, 0]
        X = np.matmul(A[None], B) % p                                  # (c, N_r, k): connector tails x
        Y = (X + np.roll(R, -r, axis=0)[:, None, :]) % p               # heads x + s_{i+r}
        out[:, pos: pos + A.shape[0], 0] = X @ w
        out[:, pos: pos + A.shape[0], 1] = Y @ w
        pos += A.shape[0]
        drops.append(np.roll(X, r, axis=0))                            # class j drops what tree j-r borrows
    D = np.concatenate(drops, axis=1)                                  # (c, Q, k): dropped edge {x, x + s_j}
    if D.shape[1] != Q or pos != q - 1:  # pragma: no cover - the counts of the proof
        raise RuntimeError(f"q={q}: {D.shape[1]} cosets and {pos} edges per tree, expected {Q} and {q - 1}")
    steps = np.arange(1, p + 1, dtype=np.int64)
    pts = np.zeros((c, Q, p), dtype=np.int64)                          # x + s_j, x + 2 s_j, ..., x + p s_j = x
    for i in range(k):
        pts += ((D[:, :, i, None] + steps[None, None, :] * R[:, None, None, i]) % p) * w[i]
    own[..., 0] = pts[:, :, :-1]
    own[..., 1] = pts[:, :, 1:]
    return list(out)


def additive_connection_set(graph: ArrayGraph, q: int) -> np.ndarray | None:
    """``S`` if the graph, vertex ``x`` read as the GF(q) element of code ``x``, is ``Cay(GF(q)+, S)``; else None.

    Parameters
    ----------
    graph : ArrayGraph
        An undirected simple graph, already checked (its ``n`` and ``edges`` are read), Cayley or not.
    q : int
        Odd prime power ``p^k``, ``k >= 2``.

    Returns
    -------
    ndarray or None
        The sorted connection set, or None if ``n != q`` or the edges are not those of a Cayley graph on
        ``(GF(q), +) = Z_p^k`` with this labelling.

    Raises
    ------
    ValueError
        If ``q`` is not an odd prime power with ``k >= 2``.

    Example
    -------
    >>> from starlib.factors import paley
    >>> additive_connection_set(paley(9), 9).tolist()
    [1, 2, 4, 8]

    References
    ----------
    Module docstring.
    """
    q, p, k = _odd_prime_power(q)
    if int(graph.n) != q or getattr(graph, "directed", False):
        return None
    e = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] == 0 or 2 * e.shape[0] % q:
        return None
    u, v = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    keys = u * q + v
    if not (np.diff(keys) > 0).all():  # not in canonical order: sort, then look for repeated edges
        keys = np.sort(keys)
        if not (np.diff(keys) > 0).all():
            return None
    D = _digits(np.arange(q), p, k)                                    # digits of every vertex, (q, k)
    diff = np.zeros(e.shape[0], dtype=np.int64)
    for i in range(k):                                                 # code of v - u, digit by digit
        diff += ((D[v, i] - D[u, i]) % p) * p**i
    present = np.zeros(q, dtype=bool)
    present[diff] = True
    present[_codes((-D) % p, p, k)[diff]] = True                     # u - v = -(v - u)
    S = np.flatnonzero(present)
    if present[0]:
        return None
    return S if 2 * e.shape[0] == q * S.size else None


def abelian_graph_paths(graph: ArrayGraph) -> list[np.ndarray] | None:
    """:func:`abelian_paths` for a graph on ``n = p^k`` vertices (odd ``p``, ``k >= 2``) that is a Cayley graph
    on ``(GF(n), +)``, else None (the hook of :func:`~starlib.edst.factor.factor_edsts`).

    Parameters
    ----------
    graph : ArrayGraph
        A simple graph, already checked (the hook's caller converts it), Cayley or not.

    Returns
    -------
    list of ndarray or None

    Example
    -------
    >>> from starlib.factors import mms_supernode, paley
    >>> len(abelian_graph_paths(mms_supernode(27))), abelian_graph_paths(paley(13))
    (7, None)

    References
    ----------
    Module docstring.
    """
    n = int(graph.n)
    pk = prime_power_parts(n)
    if pk is None or pk[0] == 2 or pk[1] < 2:
        return None
    S = additive_connection_set(graph, n)
    return None if S is None else abelian_paths(n, S)
