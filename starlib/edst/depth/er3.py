"""Maximum EDST families of ER_q (PolarFly) of depth 3, the least possible: symmetric CP-SAT search, records.

ER_q has ``k = floor((q+1)/2)`` EDSTs at most (:func:`~starlib.edst.factor.er.er_edst_bound`) and no maximum
family has depth below 3 (docs/er-edsts.md §9); :func:`~starlib.edst.depth.er.er_shallow_trees` reaches depth 4.
This module finds depth-3 maximum families **by search**; no closed form is known (docs/er-edsts.md §13).

The search (:func:`er_depth3_search`)
-------------------------------------
1. **A group permuting the trees.** Let ``k'`` be the odd part of ``k`` (``k = c k'`` with ``c`` a power of 2).
   For odd ``q`` a product of two reflections ``x -> x - 2 (x.v)/(v.v) v`` of ``GF(q)^3`` (``v`` non-isotropic,
   drawn by a seeded generator) is an automorphism of ER_q (it keeps the dot product); a power ``g`` of one whose
   permutation of the points has order divisible by ``k'`` has order exactly ``k'``. An element of odd order
   ``> 1`` dividing ``q + 1`` fixes no edge; one dividing ``q - 1`` fixes the two edges from its fixed point
   ``v`` to the absolute points of ``v^perp`` (step 4). The orbits are computed per instance; orbits shorter
   than ``k'`` are left unused, which for odd ``q`` makes the model infeasible. Even ``q`` and ``k' = 1``
   (``q = 3, 7``) use no symmetry (``c = k`` base trees; ``q = 31``: step 4): the swap of the first two
   coordinates (order 2) was tried for even ``q`` and gave no depth-3 family at ``q = 4, 8, 16``.
2. **Base trees.** ``c`` base trees ``B_0 .. B_{c-1}``, rooted at non-absolute points of distinct
   ``<g>``-orbits; the family is ``g^i(B_j)`` for ``i < k'``, ``j < c`` (``k`` trees). It is edge-disjoint iff
   every edge orbit holds at most one edge of all base trees together (the images of one orbit representative
   are ``k'`` distinct edges), and every tree has depth 3 iff every base tree has (``g`` is an automorphism).
   For odd ``q`` the family uses every edge, so "exactly one" per orbit.
3. **CP-SAT model of the base trees** (one worker, fixed seed, deterministic time limit): Booleans for the parent
   arcs of each base tree, levels ``l`` in ``[dist_G(root, v), 3]``, ``arc u->v => l_v = l_u + 1``, one parent
   per non-root vertex, and the orbit constraints of step 2. Root choices are tried in a seeded order until one
   is feasible.
4. **A tree fixed by the group** (by default where ``k`` is a power of 2 from 16 on, ``q = 31, 32``, which have
   ``k' = 1``; elsewhere with ``fixed=1``). A group of odd order ``m`` with ``k = c m + 1`` acts with ``c`` orbits of
   ``m`` trees, as above, and one tree ``T_0`` with ``g(T_0) = T_0``. ``q = 3 mod 4``: ``m = k - 1 = (q - 1)/2``,
   odd, an element of the split torus of ``SO(3, q)`` (order dividing ``q - 1``; ``q = 31``: 15, ``q = 43``: 21,
   ``q = 47``: 23); it fixes a non-absolute point ``v`` and the two absolute points of ``v^perp``, and the two edges
   from ``v`` to them; one base tree. ``q = 32``: ``m = 5``, the Frobenius map ``x -> x^2`` on coordinates, which
   fixes the seven points of PG(2, 2). An edge whose orbit is shorter than ``m`` can only be in ``T_0``; ``T_0``
   takes whole edge orbits. It is modelled on vertex orbits: one parent arc per orbit representative ``x`` (the
   parent of ``g^i x`` is ``g^i`` of it), to a vertex ``u`` fixed by the stabiliser of ``x`` (``|orbit(u)|`` divides
   ``|orbit(x)|``), and one level per vertex orbit. Its root is a fixed point of the group: ``T_0``'s centre is fixed
   by ``g`` (a central edge would be fixed with both ends, ``g`` having odd order), and the centre has the least
   eccentricity.

   **Lemma (the root's edges to absolute points).** *In a spanning tree of ER_q of depth at most 3 rooted at
   ``r``, a neighbour ``y`` of ``r`` is a child of ``r`` whenever ``r`` or ``y`` is absolute.* Proof: let
   ``u != r`` be the parent of ``y``. If ``u`` is at level 1, it lies on ``r^perp`` and on ``y^perp``; so does
   ``y`` if ``y`` is absolute, and ``r`` if ``r`` is: two distinct lines meet once, so ``u = y`` or ``u = r``,
   impossible. If ``u`` is at level 2, its parent ``v`` lies on ``r^perp`` and ``u^perp``; so does ``y``
   (``y ~ r``, ``y ~ u``), so ``v = y``, a child of ``u``: impossible. If ``u`` is at level 3 or deeper, ``y``
   is at level 4 or deeper. QED.

   *Corollary.* A depth-3 tree rooted at an absolute point holds all of its edges, so in a family of ``k >= 2``
   EDSTs (every vertex has an edge in every tree) no depth-3 tree is rooted at an absolute point; this is why
   ER_3 and ER_5 have none, and why the search roots trees at non-absolute points.
   For even ``q`` the absolute points form the line ``w^perp`` of the nucleus ``w = (1, 1, 1)``, so every
   neighbour of ``w`` is absolute and a depth-3 tree rooted at ``w`` takes all of ``w``'s edges, leaving none
   for the other ``k - 1 >= 1`` trees: ``w`` is never a root here either. Every automorphism fixes ``w``, and the
   coordinate shift, the elements of order dividing ``q + 1`` and products such as shift·Frobenius (order 15 at
   ``q = 32``) fix no other point, so they leave ``T_0`` no centre (the search proved the order-15 model
   infeasible in under a second per root, as the lemma predicts); the Frobenius map fixes PG(2, 2).

Every family is checked by :func:`~starlib.edst.verify.check_edsts`; the search is deterministic (seeded draws,
one CP-SAT worker, ``max_deterministic_time``, no clock). ``make er-depth3`` runs it and writes the committed
records ``starlib/edst/depth/er_depth3/q{q}.json`` (package data, starlib JSON, :func:`starlib.io.write_json`);
:func:`er_depth3_trees` loads them. The measured table (q, group order, base trees, seconds) is in
docs/er-edsts.md §13.3.

Measured (one worker): depth 3 for every prime power ``q <= 61`` (``q = 2``: depth 2), from under a second
(``q <= 13``) to about six minutes (``q = 61``) per ``q``. ``q = 31, 32`` use step 4 (about 6 s and 1 minute;
without it, 16 unsymmetric trees found nothing in 400 and 600 deterministic units); ``q = 43, 47, 59`` use step 4
with ``fixed=1`` (one base tree and one fixed tree; the default plan would need 2, 8 and 2 base trees). Seed 0
except ``q = 49, 53, 61`` (seed 1: seed 0's root choices were refuted or ran out of time) and ``q = 59`` (seed 2);
the arguments are in :data:`ER_DEPTH3_PARAMS` and in each record. The repair kernel of
:mod:`~starlib.edst.depth.er` with target 3 stalls far from depth 3 (docs §13.3), so it is not used here.

Example
-------
>>> T = er_depth3_search(5)
>>> len(T), T.depths()
(3, [3, 3, 3])
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ...factors import polarfly, polarfly_points
from ...fields import GFTables, tables
from ...graphs import ArrayGraph, GraphLike, as_graph
from ...primes import check_prime_power
from ...validation import check_int
from ..factor.er import er_edst_bound
from ..factor.er.families import singer_labels_of
from ..trees import EDSTSet, Tree, bfs_distances, relabel_trees
from ..verify import check_edsts
from .record import read_parent_record

__all__ = ["er_depth3_search", "er_depth3_trees", "er_depth3_qs", "record_path", "DATA_DIR", "TAG",
           "ER_DEPTH3_QS"]

#: the committed records, ``q{q}.json`` (package data: starlib's JSON format, version 2, written by
#: ``tools/er_depth3.py``, ``make er-depth3``)
DATA_DIR = Path(__file__).resolve().parent / "er_depth3"
#: the construction tag of the trees
TAG = "ER-depth3"
#: the target depth
DEPTH = 3


def _point_index(T: GFTables, q: int, pts: np.ndarray) -> np.ndarray:
    """Vertex index in ``polarfly(q)`` of each (non-zero) coordinate row."""
    a, b, c = pts[:, 0], pts[:, 1], pts[:, 2]
    out = np.empty(pts.shape[0], np.int64)
    iz = c != 0
    ic = T.inv(np.where(iz, c, 1))
    out[iz] = (T.mul(a, ic) * q + T.mul(b, ic))[iz]
    iy = (~iz) & (b != 0)
    ib = T.inv(np.where(iy, b, 1))
    out[iy] = (q * q + T.mul(a, ib))[iy]
    out[(~iz) & (b == 0)] = q * q + q
    return out


def _dot(T: GFTables, x: np.ndarray, v: np.ndarray) -> np.ndarray:
    return T.add(T.add(T.mul(x[:, 0], v[0]), T.mul(x[:, 1], v[1])), T.mul(x[:, 2], v[2]))


def _reflection(T: GFTables, q: int, pts: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The point permutation of ``x -> x - 2 (x.v)/(v.v) v`` (odd ``q``, ``v.v != 0``)."""
    s = T.div(T.mul(2 % T.p, _dot(T, pts, v)), int(_dot(T, v[None, :], v)[0]))
    img = np.stack([T.sub(pts[:, i], T.mul(s, v[i])) for i in range(3)], axis=1)
    return _point_index(T, q, img)


def _perm_order(p: np.ndarray) -> int:
    seen = np.zeros(p.shape[0], bool)
    o = 1
    for s in range(p.shape[0]):
        length = 0
        x = s
        while not seen[x]:
            seen[x] = True
            x = p[x]
            length += 1
        if length:
            o = o * length // math.gcd(o, length)
    return o


def _perm_pow(p: np.ndarray, e: int) -> np.ndarray:
    r = np.arange(p.shape[0])
    b = p.copy()
    while e:
        if e & 1:
            r = b[r]
        b = b[b]
        e >>= 1
    return r


def _group(q: int, order: int, seed: int) -> np.ndarray | None:
    """A point permutation of ER_q of order ``order`` (step 1 of the module docstring), or None if none is found.

    Odd ``q``: a power of a product of two seeded reflections. Even ``q = 2^e``: a power of the coordinate shift
    composed with the Frobenius map, ``(x, y, z) -> (y^2, z^2, x^2)`` (order ``lcm(3, e)``), or the coordinate
    swap for ``order = 2``.
    """
    n = q * q + q + 1
    if order == 1:
        return np.arange(n)
    T = tables(q)
    pts = polarfly_points(q)
    if q % 2 == 0:
        if order == 2:
            return _point_index(T, q, pts[:, [1, 0, 2]])
        p = _point_index(T, q, T.mul(pts, pts)[:, [1, 2, 0]])
        o = _perm_order(p)
        return _perm_pow(p, o // order) if o % order == 0 else None
    norms = T.add(T.add(T.mul(pts[:, 0], pts[:, 0]), T.mul(pts[:, 1], pts[:, 1])), T.mul(pts[:, 2], pts[:, 2]))
    nonabs = pts[norms != 0]
    rng = np.random.default_rng(seed)
    for _ in range(10_000):
        u, v = nonabs[rng.integers(nonabs.shape[0], size=2)]
        p = _reflection(T, q, pts, u)[_reflection(T, q, pts, v)]
        o = _perm_order(p)
        if o % order == 0:
            return _perm_pow(p, o // order)
    return None  # pragma: no cover


def _vertex_orbits(perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orbit id of every vertex under ``<perm>`` (numbered by least vertex) and the orbit sizes."""
    n = perm.shape[0]
    orb = np.full(n, -1, np.int64)
    sizes = []
    for v in range(n):
        x, s = v, 0
        while orb[x] < 0:
            orb[x] = len(sizes)
            x = perm[x]
            s += 1
        if s:
            sizes.append(s)
    return orb, np.array(sizes, np.int64)


def _orbit_reps(vorb: np.ndarray) -> np.ndarray:
    """The least vertex of each orbit of :func:`_vertex_orbits`, by orbit id (so increasing)."""
    return np.unique(vorb, return_index=True)[1]


def _edge_orbits(e: np.ndarray, n: int, perm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Orbit id of every edge under ``<perm>`` and the orbit sizes (raises if ``perm`` is no automorphism)."""
    key = e[:, 0] * n + e[:, 1]
    order = np.argsort(key)
    img = np.sort(perm[e], axis=1)
    ikey = img[:, 0] * n + img[:, 1]
    pos = np.searchsorted(key[order], ikey)
    pos = np.minimum(pos, key.shape[0] - 1)
    if not np.array_equal(key[order][pos], ikey):
        raise RuntimeError("the group element is not an automorphism")  # pragma: no cover
    nxt = order[pos]
    orb = np.full(e.shape[0], -1, np.int64)
    sizes = []
    for i in range(e.shape[0]):
        j = i
        s = 0
        while orb[j] < 0:
            orb[j] = len(sizes)
            s += 1
            j = nxt[j]
        if s:
            sizes.append(s)
    return orb, np.array(sizes, np.int64)


def _solve(g: ArrayGraph, orb: np.ndarray, sizes: np.ndarray, order: int, roots: list[int], exact: bool,
           time_limit: float, seed: int, perm: np.ndarray | None = None,
           fixed_roots: tuple[int, ...] = ()) -> list[np.ndarray] | None:
    """CP-SAT model of steps 3-4: the edge rows of the free base trees (rooted at ``roots``), then of the invariant
    trees (rooted at the ``perm``-fixed ``fixed_roots``, whole orbits), or None (infeasible or out of time)."""
    from ortools.sat.python import cp_model

    n = int(g.n)
    e = np.asarray(g.edges, dtype=np.int64)
    M = cp_model.CpModel()
    arcs: list[tuple[int, int, int, object]] = []
    by_orbit: list[list[object]] = [[] for _ in range(sizes.shape[0])]
    by_inv: list[list[object]] = [[] for _ in range(sizes.shape[0])]
    for j, r in enumerate(roots):
        dist = bfs_distances(n, e, r)
        lv = [M.NewIntVar(int(dist[v]), 0 if v == r else DEPTH, f"l{j}_{v}") for v in range(n)]
        inc: list[list[object]] = [[] for _ in range(n)]
        for i in range(e.shape[0]):
            u, v = int(e[i, 0]), int(e[i, 1])
            for x, y in ((u, v), (v, u)):
                if y == r or dist[x] + 1 > DEPTH:
                    continue
                a = M.NewBoolVar(f"a{j}_{x}_{y}")
                arcs.append((j, i, x, a))
                inc[y].append(a)
                M.Add(lv[y] == lv[x] + 1).OnlyEnforceIf(a)
                by_orbit[orb[i]].append(a)
        for v in range(n):
            if v != r:
                M.AddExactlyOne(inc[v])
    inv_arcs: list[tuple[int, int, int, object]] = []
    if fixed_roots:
        assert perm is not None
        vorb, vsize = _vertex_orbits(perm)
        reps = _orbit_reps(vorb)
        key = e[:, 0] * n + e[:, 1]
        sorter = np.argsort(key)
        nbrs: list[list[int]] = [[] for _ in range(n)]
        for u, v in e.tolist():
            nbrs[u].append(v)
            nbrs[v].append(u)
        for j, r in enumerate(fixed_roots, start=len(roots)):
            dist = bfs_distances(n, e, r)
            lo = [M.NewIntVar(int(dist[reps[o]]), 0 if o == vorb[r] else DEPTH, f"m{j}_{o}")
                  for o in range(vsize.shape[0])]
            for o, x in enumerate(reps.tolist()):
                if x == r:
                    continue
                inc_x = []
                for u in nbrs[x]:
                    # the parent of g^i x is g^i u, so the stabiliser of x must fix u: |orbit(u)| divides |orbit(x)|
                    if dist[u] + 1 > DEPTH or vsize[o] % vsize[vorb[u]]:
                        continue
                    i = int(sorter[np.searchsorted(key, min(u, x) * n + max(u, x), sorter=sorter)])
                    a = M.NewBoolVar(f"b{j}_{u}_{x}")
                    inv_arcs.append((j, i, u, a))
                    inc_x.append(a)
                    M.Add(lo[o] == lo[vorb[u]] + 1).OnlyEnforceIf(a)
                    by_inv[orb[i]].append(a)
                M.AddExactlyOne(inc_x)
    for o, lits in enumerate(by_orbit):
        if sizes[o] != order:  # an edge with a non-trivial stabiliser would be in two trees of a free orbit
            for a in lits:
                M.Add(a == 0)
            lits = by_inv[o]
            if not lits:
                continue
        else:
            lits = lits + by_inv[o]
        if exact:
            M.AddExactlyOne(lits)
        else:
            M.AddAtMostOne(lits)
    S = cp_model.CpSolver()
    S.parameters.num_workers = 1
    S.parameters.random_seed = int(seed)
    S.parameters.max_deterministic_time = float(time_limit)
    st = S.Solve(M)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    base: list[list[np.ndarray]] = [[] for _ in range(len(roots) + len(fixed_roots))]
    for j, i, _, a in arcs:
        if S.Value(a):
            base[j].append(e[i])
    for j, i, _, a in inv_arcs:
        if S.Value(a):
            row = e[i]
            for _ in range(order):  # the whole orbit of the edge
                base[j].append(row)
                row = perm[row]
    out = [np.array(b, dtype=np.int64).reshape(-1, 2) for b in base]
    return out[:len(roots)] + [np.unique(np.sort(b, axis=1), axis=0) for b in out[len(roots):]]


def er_depth3_search(q: int, *, seed: int = 0, time_limit: float = 20.0, tries: int = 12,
                     fixed: int | None = None) -> EDSTSet | None:
    """Search ``floor((q+1)/2)`` EDSTs of ER_q of depth 3 (module docstring), in ``polarfly(q)``'s indexing.

    Parameters
    ----------
    q : int
        A prime power.
    seed : int, optional
        Seed of the group element, the root order and CP-SAT; the same inputs give the same trees.
    time_limit : float, optional
        CP-SAT's deterministic time per root choice (work units, not seconds of the clock).
    tries : int, optional
        Number of root choices tried.
    fixed : {None, 0, 1}, optional
        Trees fixed by the group (step 4). None: one where ``k`` is a power of 2 from 16 on (``q = 31, 32``),
        else none. 1 with ``q = 3 mod 4``: a group of order ``k - 1 = (q - 1)/2`` (split torus), one free base
        tree and one fixed tree; with even ``q``: the Frobenius map's odd part, where its order divides ``k - 1``.

    Returns
    -------
    EDSTSet or None
        ``er_edst_bound(q)`` trees of depth 3 (``q = 2``: one tree of depth 2), checked by
        :func:`~starlib.edst.verify.check_edsts`, tag ``"ER-depth3"``, ``meta`` with ``"order"`` (of the group),
        ``"base"`` (index of the base tree) and ``"shift"`` (``i`` of ``g^i``); None if no root choice gave one.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power, ``seed``, ``time_limit`` or ``tries`` is out of range, or ``fixed`` is not
        one of None, 0, 1 or is 1 for a ``q`` that has no such group (``q = 1 mod 4``, or an even ``q`` whose
        Frobenius order has no odd part dividing ``k - 1``).

    Example
    -------
    >>> T = er_depth3_search(3)
    >>> len(T), max(T.depths())
    (2, 3)
    """
    q = check_prime_power(q)
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    tries = check_int(tries, "tries", minimum=1, rule="at least one root choice")
    if not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit={time_limit!r}: must be a positive number (deterministic time units)")
    k = er_edst_bound(q)
    if isinstance(fixed, bool) or fixed not in (None, 0, 1):
        raise ValueError(f"fixed={fixed!r}: must be None, 0 or 1 (trees fixed by the group)")
    plans = _plans(q, k, fixed)
    g = polarfly(q)
    n = int(g.n)
    e = np.asarray(g.edges, dtype=np.int64)
    if q == 2:  # k = 1: a BFS tree of a vertex of degree 3 has depth 2 = the diameter
        from ..trees import bfs_tree
        r = int(np.flatnonzero(np.bincount(e.ravel(), minlength=n) == 3)[0])
        out = EDSTSet([Tree(bfs_tree(n, e, r), r, TAG, n=n, meta={"order": 1, "base": 0, "shift": 0})])
        check_edsts(g, out)
        return out
    for order, invariant in plans:
        out = _search_order(q, g, k, order, seed, time_limit, tries, invariant)
        if out is not None:
            return out
    return None


def _plans(q: int, k: int, fixed: int | None = None) -> list[tuple[int, int]]:
    """The (group order, invariant trees) pairs :func:`er_depth3_search` tries, in order (steps 1 and 4).

    >>> _plans(29, 15), _plans(31, 16), _plans(32, 16), _plans(43, 22), _plans(43, 22, 1)
    ([(15, 0)], [(15, 1)], [(5, 1)], [(11, 0)], [(21, 1)])
    """
    odd = k
    while odd % 2 == 0:
        odd //= 2
    if fixed == 1 or (fixed is None and odd == 1 and k >= 16):  # orbits of trees and one fixed tree
        if q % 2 and (k - 1) % 2:  # q = 3 mod 4: (k - 1) divides q - 1, the split torus
            return [(k - 1, 1)]
        frob = (q - 1).bit_length() if q % 2 == 0 else 1  # e of q = 2^e
        while frob % 2 == 0:
            frob //= 2
        if frob > 1 and (k - 1) % frob == 0:
            return [(frob, 1)]
        if fixed == 1:
            raise ValueError(f"fixed=1: q={q} has no group for one fixed tree (needs q = 3 mod 4, or q = 2^e with "
                             f"the odd part of e dividing k - 1 = {k - 1})")
    if q % 2 == 0:  # the coordinate swap (order 2) gave no depth-3 family at q = 4, 8, 16: no symmetry
        return [(1, 0)]
    return [(odd, 0)]


def _search_order(q: int, g: ArrayGraph, k: int, order: int, seed: int, time_limit: float,
                  tries: int, invariant: int = 0) -> EDSTSet | None:
    """:func:`er_depth3_search` with a group of this order: ``c = (k - invariant) / order`` free base trees and
    ``invariant`` trees fixed by the group, rooted at its fixed points (step 4)."""
    n = int(g.n)
    e = np.asarray(g.edges, dtype=np.int64)
    c = (k - invariant) // order
    perm = _group(q, order, seed)
    if perm is None:  # pragma: no cover - the plans ask for orders the groups have
        return None
    orb, sizes = _edge_orbits(e, n, perm)
    absolute = set(int(v) for v in g.meta["absolute_points"])
    vorb, vsize = _vertex_orbits(perm)
    fixed = set(np.flatnonzero(vsize[vorb] == 1).tolist()) if order > 1 else set()
    # the invariant trees' roots: fixed points that can root a depth-3 tree beside other trees (the lemma of step
    # 4): not absolute, and not a point whose neighbours are all absolute (even q: the nucleus)
    nbr_abs = np.zeros(n, np.int64)
    np.add.at(nbr_abs, e.ravel(), np.isin(e[:, ::-1], list(absolute)).ravel())
    deg = np.bincount(e.ravel(), minlength=n)
    centres = sorted(v for v in fixed if v not in absolute and nbr_abs[v] < deg[v])
    if invariant and len(centres) < invariant:  # pragma: no cover
        return None
    reps = [v for v in _orbit_reps(vorb).tolist() if v not in fixed]  # the least vertex of each orbit
    rng = np.random.default_rng(seed + 1)
    rng.shuffle(reps)
    # non-absolute roots first (ER_3, ER_5 have no depth-3 tree rooted at an absolute point); even q: then the rest
    reps = [v for v in reps if v not in absolute] + ([v for v in reps if v in absolute] if q % 2 == 0 else [])
    for t in range(tries):
        roots = [int(x) for x in reps[t * c:(t + 1) * c]]
        if len(roots) < c:
            break
        fixed_roots = tuple(centres[(t + i) % len(centres)] for i in range(invariant)) if invariant else ()
        base = _solve(g, orb, sizes, order, roots, q % 2 == 1, time_limit, seed, perm, fixed_roots)
        if base is None:
            continue
        out = EDSTSet()
        for j, rows in enumerate(base[:c]):
            p = np.arange(n)
            for i in range(order):
                out.append(Tree(p[rows], int(p[roots[j]]), TAG, n=n, meta={"order": order, "base": j, "shift": i}))
                p = perm[p]
        for j, rows in enumerate(base[c:], start=c):
            out.append(Tree(rows, fixed_roots[j - c], TAG, n=n, meta={"order": order, "base": j, "shift": 0}))
        check_edsts(g, out)
        return out
    return None


def record_path(q: int, directory: str | Path | None = None) -> Path:
    """The record of ``q``: ``q{q}.json`` in ``directory`` (default :data:`DATA_DIR`).

    >>> record_path(5).name
    'q5.json'
    """
    return (DATA_DIR if directory is None else Path(directory)) / f"q{q}.json"


def er_depth3_qs(directory: str | Path | None = None) -> list[int]:
    """The ``q`` with a committed depth-3 record, increasing.

    Example
    -------
    >>> er_depth3_qs()[:3]
    [2, 3, 4]
    """
    d = DATA_DIR if directory is None else Path(directory)
    return sorted(int(p.stem[1:]) for p in d.glob("q*.json") if p.stem[1:].isdigit())


def er_depth3_trees(q: int, graph: GraphLike | None = None, *, directory: str | Path | None = None) -> EDSTSet | None:
    """The committed depth-3 maximum family of ER_q, re-verified, or None if none is known for ``q``.

    Parameters
    ----------
    q : int
        A prime power.
    graph : ArrayGraph, optional
        The host graph, ``polarfly(q)`` (default) or the Singer graph of ``q``
        (:func:`~starlib.edst.factor.er.singer.singer_graph`); the trees are in its vertex indices.
    directory : str or Path, optional
        Where the records are; default :data:`DATA_DIR`.

    Returns
    -------
    EDSTSet or None
        ``er_edst_bound(q)`` trees of depth 3 (``q = 2``: depth 2), checked by
        :func:`~starlib.edst.verify.check_edsts` on ``graph``; None when no record exists for ``q``.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power, ``graph`` is not ER_q, or the record is not a valid depth-3 family.

    Example
    -------
    >>> T = er_depth3_trees(5)
    >>> len(T), T.depths()
    (3, [3, 3, 3])
    >>> er_depth3_trees(1024) is None
    True
    """
    q = check_prime_power(q)
    path = record_path(q, directory)
    if not path.exists():
        return None
    pf = polarfly(q)
    trees = read_parent_record(path, "polarfly", {"q": q}, int(pf.n), TAG)
    if len(trees) != er_edst_bound(q) or max(trees.depths()) > max(DEPTH, 2 if q == 2 else DEPTH):
        raise ValueError(f"q={q}: record {path} has {len(trees)} trees of depths {trees.depths()}, "
                         f"expected {er_edst_bound(q)} of depth <= 3")
    if graph is None:
        check_edsts(pf, trees)
        return trees
    g = as_graph(graph, "graph")
    host = singer_labels_of(g, q)
    inv = np.empty_like(host)
    inv[host] = np.arange(host.shape[0])
    index = inv[singer_labels_of(pf, q)]
    out = relabel_trees(trees, index)
    check_edsts(g, out)
    return out


#: the prime powers the committed records cover (``make er-depth3`` writes them): every prime power up to 61
ER_DEPTH3_QS = (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41, 43, 47, 49, 53,
                59, 61)
#: search arguments other than the defaults, per ``q`` (the records name the arguments they were made with)
ER_DEPTH3_PARAMS: dict[int, dict[str, float | int]] = {23: {"time_limit": 80.0, "tries": 4},
                                                        32: {"time_limit": 150.0, "tries": 4},
                                                        43: {"time_limit": 150.0, "tries": 2, "fixed": 1},
                                                        47: {"time_limit": 150.0, "tries": 3, "fixed": 1},
                                                        49: {"seed": 1, "time_limit": 100.0, "tries": 12},
                                                        53: {"seed": 1, "time_limit": 100.0, "tries": 12},
                                                        59: {"seed": 2, "time_limit": 100.0, "tries": 12, "fixed": 1},
                                                        61: {"seed": 1, "time_limit": 100.0, "tries": 12}}


