"""A depth lower bound that couples the ``k`` trees: an integer program over roots, levels and parent arcs.

:func:`~starlib.edst.depth.bound.depth_lower_bound` reasons one tree at a time; on ``K_{3,4}``, the wheel ``W_6``
(hub + 5-cycle) and the Paley graph ``QR(9) = K_3 x K_3`` with ``k = 2`` it gives 2 while the optimum is 3.
:func:`coupled_depth_bound` asks, for ``D = b, b + 1, ...`` from that bound ``b``, whether the integer program
``P(D)`` below is feasible, and returns the least ``D`` not refuted: ``P(D - 1)`` infeasible proves that no family
of ``k`` EDSTs has every depth ``<= D - 1``.

The program ``P(D)``
--------------------
Binary variables, for every tree ``t = 1..k``: ``y[t, v, d]`` (vertex ``v`` at depth ``d`` of tree ``t``,
``0 <= d <= D``) and ``a[t, u -> v, d]`` for every edge ``{u, v}``, both directions, ``1 <= d <= D`` (``u`` is the
parent of ``v`` in tree ``t`` and ``v`` is at depth ``d``). Constraints:

(1) ``sum_d y[t, v, d] = 1`` (every vertex has one depth in every tree);
(2) ``sum_v y[t, v, 0] = 1`` (one root per tree);
(3) ``sum_{u in N(v)} a[t, u -> v, d] = y[t, v, d]`` for ``d >= 1`` (a vertex at depth ``d >= 1`` has one parent);
(4) ``a[t, u -> v, d] <= y[t, u, d - 1]`` (the parent is one level up);
(5) ``sum_t sum_d (a[t, u -> v, d] + a[t, v -> u, d]) <= 1`` for every edge (the trees share no edge; within a
    tree an edge is used once);
(6) ``sum_{d' <= d} y[t, v, d'] <= sum_{r : dist(r, v) <= d} y[t, r, 0]`` (a vertex within depth ``d`` of the root
    is within distance ``d`` of it), and ``y[t, r, 0] = 0`` when ``ecc(r) > D``;
(7) ``sum_v v y[t, v, 0] <= sum_v v y[t + 1, v, 0]`` (the trees listed by the index of their roots).

Why every family of ``k`` EDSTs of depth ``<= D`` satisfies it. Let ``T_1, ..., T_k`` be such a family; root each
at a vertex from which its depth is ``<= D`` and renumber the trees so that the roots' indices do not decrease
(the family is a set, so this is free: (7)). Set ``y[t, v, d] = 1`` iff ``v`` is at depth ``d`` in ``T_t``
rooted at ``r_t`` and ``a[t, u -> v, d] = 1`` iff ``u`` is the parent of ``v`` there, ``v`` at depth ``d``. (1), (2)
hold since the depths are ``<= D`` and the root is unique; (3), (4) since every non-root vertex has exactly one
parent, one level up, joined to it by a tree edge; (5) since an edge of ``T_t`` joins a child to its parent (one
direction, one depth) and lies in no other tree; (6) since the tree path from ``r_t`` to ``v`` is a walk of ``G``
of length ``depth(v)``, so ``dist(r_t, v) <= depth(v)``, and a root of depth ``<= D`` has ``ecc <= D``.

Conversely a feasible point is a family (the program is exact, not only a relaxation): (1)-(4) give every
non-root vertex one parent one level up, so following parents strictly lowers the depth and ends at the unique
root: each tree is a spanning tree of depth ``<= D``; (5) makes them edge-disjoint. So the least feasible ``D`` is
the optimum, and every refuted ``D`` is a proved lower bound. The coupling of the issue is inside (5): summed over
the edges at ``x`` it gives ``sum_t deg_{T_t}(x) <= deg(x)``, so a vertex with many children in one tree is a leaf
in the others, and (6) forces the edges a vertex at distance ``D`` from the root must take.

Cost and the fallback
---------------------
``P(D)`` has ``k (n (D + 1) + 2 m D)`` binaries; it is solved by HiGHS through :func:`scipy.optimize.milp`. Above
``max_vars`` binaries (default 25000), or once the solves have spent ``time_limit`` seconds in all (default 5)
without a verdict, the search stops: the value is then the last ``D`` not refuted, and ``argument`` says which
argument reached it (``"coupled ILP"`` when a refutation raised the value above
:func:`~starlib.edst.depth.bound.depth_lower_bound`, else that function's argument), ``status`` why it stopped.
The LP relaxation is no cheaper substitute: it is feasible at ``D = 2`` on all three graphs above.

Measured (one core, shared): on every connected graph with at most 7 vertices and every ``k`` (1354 rows of
``data/depth_optima_small.csv``, brute force) the value is the optimum on all rows, the per-tree bound on 1333;
about 30 s for all. On Table IV with ``k`` = the shallow count (two runs with the defaults): PolarStar
``ER_2 * IQ(3)`` (``k = 2``), ``ER_2 * IQ(4)`` (3), ``ER_3 * IQ(4)`` (3), ``ER_2 * QR(5)`` (2), ``ER_2 * QR(9)``
(3), ``ER_3 * QR(5)`` (2), ``ER_2 * QR(13)`` (4), ``ER_4 * QR(5)`` (3): value 4 (per-tree 3), depth 3 refuted and a
family of depth 4 found, so 4 is the optimum (the heuristic's families have depth 5 on all but the first; depth 3
refuted also by CP-SAT, :func:`~starlib.edst.depth.exact.depth_feasible`, and the family checked, on
``ER_2 * IQ(3)``, ``ER_2 * IQ(4)``, ``ER_2 * QR(5)``, ``ER_3 * QR(5)``);
``ER_3 * IQ(3)``, ``ER_4 * IQ(3)``, ``ER_2 * IQ(7)``, ``ER_3 * QR(9)``: 4, depth 3 refuted, depth 4 undecided
within the budget; PolarFly ``ER_3`` (``k = 2``) and Slim Fly ``MMS(3)`` (``k = 2``): 3, optimal (a depth-3
family found). Larger PolarFly, Slim Fly and Bundlefly instances are undecided or skipped: the value there is the
per-tree bound. The verdicts depend on the solver's speed (a time budget): near the budget a rerun may refute one
depth less (``ER_2 * IQ(8)`` was raised to 4 in one run, not in another); ``refuted`` records what was proved.
HiGHS may overrun the budget in presolve (up to 25 s measured on Bundlefly ``MMS(3) * QR(9)``, n = 162).

Example
-------
>>> import networkx as nx
>>> b = coupled_depth_bound(nx.complete_bipartite_graph(3, 4), 2)
>>> b.value, b.argument, b.values["degree budget + balls"], b.optimal
(3, 'coupled ILP', 2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds, LinearConstraint, milp

from ..._kernels import csr
from ...graphs import GraphLike, as_graph
from ...validation import check_int, check_real
from .bound import DepthBound, depth_lower_bound

__all__ = ["CoupledDepthBound", "coupled_depth_bound", "coupled_program_feasible"]


@dataclass(frozen=True)
class CoupledDepthBound(DepthBound):
    """:class:`~starlib.edst.depth.bound.DepthBound` with the coupled program's verdicts.

    Attributes (besides those of ``DepthBound``)
    --------------------------------------------
    optimal : ``True`` if the program was feasible at ``value`` (a family of depth ``value`` exists: the bound is
        the optimum).
    status : ``"optimal"`` (feasible at ``value``), ``"time limit"`` (a solve at ``value`` ended undecided),
        ``"skipped"`` (the program at ``value`` exceeds ``max_vars``) or ``"no family"`` (no ``k`` EDSTs).
    refuted : the depths ``D`` the program proved infeasible (each a proof that no family has depth ``<= D``).
    seconds : the solver time spent.
    witness : if ``optimal``, the parents (``k x n`` array, ``-1`` at the root) of a family of depth ``value``
        found by the solver (check it with :func:`starlib.edst.verify.verify_edsts`), else ``None``.
    """

    optimal: bool = False
    status: str = "skipped"
    refuted: tuple[int, ...] = ()
    seconds: float = 0.0
    witness: np.ndarray | None = field(default=None, repr=False, compare=False)


def _program(n: int, e: np.ndarray, k: int, D: int):
    """The constraint matrix, bounds and sizes of ``P(D)`` (module docstring)."""
    m = len(e)
    ny = n * (D + 1)  # y[v, d] at v * (D + 1) + d
    na = 2 * m * D  # a[arc j, d] at ny + j * D + (d - 1); arc 2i: e[i,0] -> e[i,1], 2i+1 the reverse
    per = ny + na
    nv = k * per
    tails = np.empty(2 * m, np.int64)
    heads = np.empty(2 * m, np.int64)
    tails[0::2], heads[0::2] = e[:, 0], e[:, 1]
    tails[1::2], heads[1::2] = e[:, 1], e[:, 0]
    # distances (BFS from every vertex)
    indptr, indices = csr(n, e, sort=False)
    dist = np.full((n, n), n + 1, np.int64)
    for s in range(n):
        dist[s, s] = 0
        frontier = [s]
        dd = 0
        while frontier:
            dd += 1
            nxt = []
            for x in frontier:
                for y in indices[indptr[x]:indptr[x + 1]]:
                    if dist[s, y] > n:
                        dist[s, y] = dd
                        nxt.append(int(y))
            frontier = nxt
    ecc = dist.max(axis=1)
    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    lo: list[np.ndarray] = []
    hi: list[np.ndarray] = []
    nrow = 0

    def add(r, c, v, lb, ub):
        nonlocal nrow
        rows.append(np.asarray(r, np.int64) + nrow)
        cols.append(np.asarray(c, np.int64))
        vals.append(np.asarray(v, float))
        cnt = len(lb)
        lo.append(np.asarray(lb, float))
        hi.append(np.asarray(ub, float))
        nrow += cnt

    dl = np.arange(D + 1)
    vv = np.arange(n)
    for t in range(k):
        base = t * per
        yi = base + vv[:, None] * (D + 1) + dl[None, :]  # (n, D+1)
        # (1)
        add(np.repeat(vv, D + 1), yi.ravel(), np.ones(n * (D + 1)), np.ones(n), np.ones(n))
        # (2)
        add(np.zeros(n, np.int64), yi[:, 0], np.ones(n), [1.0], [1.0])
        # (3): rows (v, d) for d = 1..D
        ai = base + ny + np.arange(2 * m)[:, None] * D + np.arange(D)[None, :]  # (2m, D): depth d = col + 1
        r3 = heads[:, None] * D + np.arange(D)[None, :]
        add(np.concatenate([r3.ravel(), (vv[:, None] * D + np.arange(D)[None, :]).ravel()]),
            np.concatenate([ai.ravel(), yi[:, 1:].ravel()]),
            np.concatenate([np.ones(2 * m * D), -np.ones(n * D)]), np.zeros(n * D), np.zeros(n * D))
        # (4): a[j, d] - y[tail j, d - 1] <= 0
        r4 = np.arange(2 * m * D)
        add(np.concatenate([r4, r4]), np.concatenate([ai.ravel(), yi[tails][:, :D].ravel()]),
            np.concatenate([np.ones(2 * m * D), -np.ones(2 * m * D)]),
            np.full(2 * m * D, -np.inf), np.zeros(2 * m * D))
        # (6): sum_{d' <= d} y[v, d'] - sum_{r: dist(r, v) <= d} y[r, 0] <= 0, for d = 0..D-1
        rr, cc, va = [], [], []
        row = 0
        for v in range(n):
            for d in range(D):
                near = np.flatnonzero(dist[:, v] <= d)
                own = yi[v, :d + 1]
                rr.append(np.full(len(own) + len(near), row))
                cc.append(np.concatenate([own, yi[near, 0]]))
                va.append(np.concatenate([np.ones(len(own)), -np.ones(len(near))]))
                row += 1
        if row:
            add(np.concatenate(rr), np.concatenate(cc), np.concatenate(va), np.full(row, -np.inf), np.zeros(row))
    # (5)
    r5 = np.repeat(np.arange(m), 2)
    c5, r5s = [], []
    for t in range(k):
        ai = t * per + ny + np.arange(2 * m)[:, None] * D + np.arange(D)[None, :]
        c5.append(ai.ravel())
        r5s.append(np.repeat(r5, D))
    c5a = np.concatenate(c5)
    add(np.concatenate(r5s), c5a, np.ones(len(c5a)), np.full(m, -np.inf), np.ones(m))
    # (7)
    for t in range(k - 1):
        y0 = t * per + vv * (D + 1)
        y1 = (t + 1) * per + vv * (D + 1)
        add(np.zeros(2 * n, np.int64), np.concatenate([y0, y1]), np.concatenate([vv, -vv]).astype(float),
            [-np.inf], [0.0])
    A = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(nrow, nv))
    ub = np.ones(nv)
    for t in range(k):  # roots of eccentricity > D are excluded
        ub[t * per + np.flatnonzero(ecc > D) * (D + 1)] = 0.0
    return A, np.concatenate(lo), np.concatenate(hi), ub


def coupled_program_feasible(graph: GraphLike, k: int, depth: int, time_limit: float = 10.0) -> bool | None:
    """Whether ``k`` edge-disjoint spanning trees of ``graph``, each of depth ``<= depth``, exist (program ``P(D)``).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected undirected graph.
    k : int
        The number of trees, ``k >= 1``.
    depth : int
        The depth ``D >= 0`` every tree must meet from its root.
    time_limit : float
        Seconds for the solver (HiGHS, through :func:`scipy.optimize.milp`), ``> 0``.

    Returns
    -------
    bool or None
        ``True`` (feasible), ``False`` (proved infeasible) or ``None`` (the time limit ended the solve undecided).

    Raises
    ------
    ValueError
        If ``k < 1``, ``depth < 0`` or ``time_limit <= 0``.

    Example
    -------
    >>> import networkx as nx
    >>> coupled_program_feasible(nx.wheel_graph(6), 2, 2), coupled_program_feasible(nx.wheel_graph(6), 2, 3)
    (False, True)
    """
    k = check_int(k, "k", minimum=1, rule="a number of trees k >= 1")
    depth = check_int(depth, "depth", minimum=0, rule="a depth >= 0")
    time_limit = check_real(time_limit, "time_limit", minimum=0.0, strict=True,
                            rule="a positive number of seconds")
    verdict, _ = _solve(as_graph(graph, "graph"), k, depth, time_limit)
    return verdict


def _solve(g, k: int, D: int, time_limit: float) -> tuple[bool | None, np.ndarray | None]:
    """Solve ``P(D)``: the verdict and, if feasible, the parents (``k x n``, ``-1`` at the roots) of a family."""
    n = int(g.n)
    e = np.asarray(g.edges, dtype=np.int64).reshape(-1, 2)
    if n == 1:
        return True, np.full((k, 1), -1, np.int64)
    if len(e) < k * (n - 1):
        return False, None
    A, lo, hi, ub = _program(n, e, k, D)
    res = milp(np.zeros(A.shape[1]), constraints=LinearConstraint(A, lo, hi), integrality=np.ones(A.shape[1]),
               bounds=Bounds(np.zeros(A.shape[1]), ub), options={"time_limit": float(time_limit), "presolve": True})
    if res.status == 2:
        return False, None
    if res.status != 0 or res.x is None:
        return None, None
    x = np.round(res.x).astype(np.int64)
    ny, per = n * (D + 1), n * (D + 1) + 2 * len(e) * D
    parents = np.full((k, n), -1, np.int64)
    for t in range(k):
        a = x[t * per + ny:(t + 1) * per].reshape(2 * len(e), D).sum(axis=1)
        for j in np.flatnonzero(a):
            u, v = (e[j // 2, 0], e[j // 2, 1]) if j % 2 == 0 else (e[j // 2, 1], e[j // 2, 0])
            parents[t, v] = u
    return True, parents


def coupled_depth_bound(graph: GraphLike, k: int, *, time_limit: float = 5.0,
                        max_vars: int = 25000) -> CoupledDepthBound:
    """A lower bound on the maximum depth of any ``k`` EDSTs of ``graph`` that couples the trees.

    Starts from :func:`~starlib.edst.depth.bound.depth_lower_bound` and raises it while the program ``P(D)`` of the
    module docstring (roots, levels, parent arcs, edge-disjointness, depth >= distance) is proved infeasible;
    stops at the first ``D`` found feasible (then the value is the optimum), once the solves have spent
    ``time_limit`` seconds in all, or at a program of more than ``max_vars`` binaries (then the value is the last
    one proved).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected undirected graph.
    k : int
        The number of trees, ``k >= 1``.
    time_limit : float
        Seconds allowed to all the solves together, ``> 0``.
    max_vars : int
        The largest program (binaries) attempted, ``>= 0``.

    Returns
    -------
    CoupledDepthBound
        ``value``, ``argument`` (``"coupled ILP"`` if the program raised the value, else the per-tree argument),
        ``values`` (the per-tree arguments' values and ``"coupled ILP"``), ``optimal``, ``status``,
        ``refuted``.

    Raises
    ------
    ValueError
        If ``k < 1``, ``time_limit <= 0``, ``max_vars < 0`` or the graph is disconnected.

    Example
    -------
    >>> import networkx as nx
    >>> b = coupled_depth_bound(nx.wheel_graph(6), 2)
    >>> b.value, b.argument, b.refuted, b.status
    (3, 'coupled ILP', (2,), 'optimal')
    """
    k = check_int(k, "k", minimum=1, rule="a number of trees k >= 1")
    time_limit = check_real(time_limit, "time_limit", minimum=0.0, strict=True,
                            rule="a positive number of seconds")
    max_vars = check_int(max_vars, "max_vars", minimum=0, rule="a number of binaries >= 0")
    g = as_graph(graph, "graph")
    base = depth_lower_bound(g, k)
    n = int(g.n)
    m = int(len(np.asarray(g.edges).reshape(-1, 2)))
    values = dict(base.values)
    D = base.value
    refuted: list[int] = []
    status = "skipped"
    optimal = False
    witness = None
    spent = 0.0
    if D > n or m < k * (n - 1):
        values["coupled ILP"] = n + 1
        return CoupledDepthBound(n + 1, base.argument if D > n else "edge count", values, k, base.root,
                                 k * (n + 1), False, "no family", (), 0.0)
    while D <= n - 1:
        if k * (n * (D + 1) + 2 * m * D) > max_vars:
            status = "skipped"
            break
        left = time_limit - spent
        if left <= 0:
            status = "time limit"
            break
        t0 = time.perf_counter()
        ok, parents = _solve(g, k, D, left)
        spent += time.perf_counter() - t0
        if ok is None:
            status = "time limit"
            break
        if ok:
            status, optimal, witness = "optimal", True, parents
            break
        refuted.append(D)
        D += 1
    if D > n - 1:  # every depth refuted: no k EDSTs at all
        D, status = n + 1, "no family"
    values["coupled ILP"] = D
    arg = "coupled ILP" if D > base.value else base.argument
    return CoupledDepthBound(int(D), arg, values, k, base.root, int(k * D), optimal, status, tuple(refuted),
                             round(spent, 3), witness)
