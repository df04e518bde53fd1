"""The exact depth of ``k`` edge-disjoint spanning trees: the least ``D`` such that ``k`` EDSTs of depth ``<= D`` exist.

:func:`optimal_depth` answers the question with OR-tools CP-SAT (the ``exact`` extra): a feasibility model per
depth ``D`` (:func:`depth_feasible`), solved from the depth of a warm start (:func:`~.shallow.shallow_trees`)
downwards until a depth is proved infeasible, or from the lower bound (:func:`~.bound.depth_lower_bound`) upwards
when no warm start has ``k`` trees. :func:`small_instances` and :func:`settle_small` are the instances it settles
within seconds, as rows for a table.

The model (``MODEL``)
---------------------
For a tree index ``t < k``, a vertex ``v`` and an edge ``{u, v}``, Booleans ``r[t, v]`` (``v`` is the root of tree
``t``), ``a[t, u->v]`` and ``a[t, v->u]`` (``u`` is the parent of ``v`` in tree ``t``, or the converse), and an
integer ``l[t, v]`` in ``[0, D]`` (the level of ``v``). The constraints:

1. ``sum_v r[t, v] = 1`` (one root per tree);
2. ``r[t, v] + sum_u a[t, u->v] = 1`` (every vertex is the root or has exactly one parent);
3. ``sum_t (a[t, u->v] + a[t, v->u]) <= 1`` (edge-disjoint: an edge in at most one tree, in one direction);
4. ``r[t, v] => l[t, v] = 0`` and ``a[t, u->v] => l[t, v] = l[t, u] + 1``.

Soundness (a solution is a family of ``k`` EDSTs of depth ``<= D``, and conversely). Fix ``t``. By 2 every
non-root vertex has one parent; following parents strictly decreases the level (4), so it never repeats a vertex
and ends at a vertex without a parent, which by 2 is a root, unique by 1. So the parent arcs form a spanning
arborescence rooted at ``r_t`` (``n - 1`` arcs, connected, hence a spanning tree), and by 4 every level is the
tree distance to the root, at most ``D``. By 3 the ``k`` trees are edge-disjoint. Conversely, ``k`` EDSTs of
depth ``<= D`` rooted anywhere give values (orient each edge towards the root, levels = tree distances).

Cuts (implied by every solution, so no family is lost; they only help the infeasibility proofs):

* **Degree budget.** ``1 <= deg_t(x) <= deg(x) - (k - 1)`` where ``deg_t(x) = sum_y (a[t, x->y] + a[t, y->x])``:
  a spanning tree on ``n >= 2`` vertices has an edge at every vertex, and the other ``k - 1`` trees hold at
  least ``k - 1`` of the ``deg(x)`` edges at ``x`` (edge-disjoint).
* **Balls.** ``l[t, v] >= sum_u dist_G(u, v) r[t, u]``: the tree path from the root ``u`` to ``v`` is a walk of
  ``G``, so its length is at least ``dist_G(u, v)`` (one ``r[t, u]`` is 1 by 1).
* **Eccentricity.** ``r[t, u] = 0`` when ``ecc_G(u) > D``: by the ball cut a vertex would need a level ``> D``.

Symmetry breaking (each rule keeps at least one solution of every feasible instance):

* **Trees ordered by root.** ``root(0) <= root(1) <= ... <= root(k-1)`` (``root(t) = sum_v v r[t, v]``). The
  constraints are invariant under permuting the tree indices, so sorting any solution's trees by root index
  gives a solution that satisfies the rule.
* **Vertex 0 a root, on a vertex-transitive graph only.** When every vertex is the image of vertex 0 under an
  automorphism of ``G`` (checked by a VF2++ isomorphism search per vertex with vertex 0 and the vertex marked,
  :func:`vertex_transitive`; done only for regular graphs up to ``VT_MAX_N`` vertices), ``root(0) = 0``: take any
  solution, an automorphism ``s`` with ``s(root(t_0)) = 0`` for a tree ``t_0`` of least root; the image of every
  tree under ``s`` is again a family of ``k`` EDSTs of the same depths (an automorphism keeps edges, edge-
  disjointness and distances), one of them rooted at 0; sorting by root (rule above) puts it first.

The warm start's trees, sorted by root, are the solution hint (``AddHint``).

Time and determinism: ``time_limit`` is CP-SAT's **deterministic** time (``max_deterministic_time``, work units
that track seconds of one worker roughly, not the wall clock), spent over all the depths tried; with one worker
and a fixed ``seed`` the same input gives the same depths, statuses and trees on every run and machine load. A
wall-clock stop at ``4 * time_limit`` seconds is a safety net only (on a loaded machine one deterministic second
took up to 5 wall seconds); a solve it cuts short is not reproducible. The seconds of the per-depth log are
wall-clock and vary.

Measured
--------
One worker, seed 0, ``time_limit=60`` (deterministic), warm start :func:`~.shallow.shallow_trees` (its count is
``k``); wall-clock seconds on 2 cores shared with other jobs, so loose (deterministic 60 took 67 to 281 s wall).

* **Settled within seconds** (:func:`small_instances`; each under 11 s wall, most under 2 s): ``K_{3,4}``,
  ``W_6``, ``K_{4,4}``, ``K_{5,5}`` and QR(9) with ``k = 2``: optimum 3, depth 2 refuted by CP-SAT where the
  counting bound says only 2; Petersen ``k = 1``: 2; QR(13) ``k = 3`` and QR(17) ``k = 4``: optimum 2, a depth-2
  family found below the shallow start's 3; ER_3, ER_4 (``k = 2``) and ER_5 (``k = 3``): optimum 3 = the bound,
  a depth-3 family found below the shallow start's 4 (ER_5: 3 to 11 s).
* **ER_7** ``k = 3``: optimum 3 (12 s). ``k = 4``: open, depth 4, proved lower bound 3 (depth 3: UNKNOWN
  after 60, 79 s wall).
* **ER_8** ``k = 4``: optimum 3, a depth-3 family found (107 s wall) below the shallow start's 4.
* **ER_9** ``k = 5``: open, depth 4, lower bound 3 (depth 3 UNKNOWN, 281 s wall).
* **Slim Fly** MMS(3) ``k = 2``: optimum 3 at once (the shallow start meets the bound, no solve). MMS(4)
  ``k = 3``: open, depth 4, lower bound 3 (depth 3 UNKNOWN, 67-108 s wall). MMS(5) ``k = 3``: **optimum 4**, above
  the counting bound 3: depth 3 refuted in 0.5 s (even ``k = 2``, even without cuts and symmetry rules; MMS(5) is
  the Hoffman-Singleton graph, and a Moore graph of girth 5 forces every depth-3 tree to hold all edges at its
  root, which leaves none for a second tree: the hand proof is in ``tests/edst/depth/test_exact.py``).
* **PolarStar** ER_3 * QR(5) (``polarstar(3, paley_q=5)``, 65 routers) ``k = 2``: **optimum 4**, above the
  counting bound 3 and below the shallow start's 5 (depth 4 found, depth 3 refuted; 0.4 s).

So the model refutes depth 2 on every graph tried, settles depth 3 on MMS(5) and PolarStar ER_3 * QR(5) at
once, and finds depth-3 families up to ER_8; the depth-3 questions of Slim Fly MMS(4), ER_7 ``k = 4`` and ER_9
``k = 5`` stayed open after a minute. A variant with Boolean levels (``x[t, v, l]``) was slower (ER_5 ``k = 3``,
depth 3: 9.2 s wall against 2.7 s; MMS(4) depth 3 still UNKNOWN after 30) and is not kept.

Example
-------
>>> from starlib.factors import polarfly
>>> r = optimal_depth(polarfly(3), 2)
>>> r.depth, r.lower, r.status
(3, 3, 'optimal')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...bounds import upper_bound
from ...graphs import ArrayGraph, GraphLike, as_graph
from ...validation import check_int, check_real, require_extra
from ..trees import EDSTSet, Tree, bfs_distances, orient
from ..verify import check_edsts
from .bound import depth_lower_bound

__all__ = ["MODEL", "DepthSolve", "DepthOptimum", "depth_feasible", "optimal_depth", "vertex_transitive",
           "SmallInstance", "small_instances", "settle_small", "MAX_VERTEX_TREES", "VT_MAX_N",
           "optimal_depth_trees", "METHOD_SECONDS"]

#: The name and one-line description of the CP-SAT model, for a record that states the model.
MODEL = ("cp-sat arborescence+levels", "per tree a root indicator, parent arcs (one per non-root vertex), "
         "integer levels l[v] = l[parent] + 1 in [0, D], edges in at most one tree; cuts: degree budget "
         "1 <= deg_t(x) <= deg(x) - (k-1), balls l[t,v] >= dist(root, v); symmetry: roots non-decreasing "
         "(vertex 0 a root on a vertex-transitive graph)")

#: ``optimal_depth`` and ``--method optimal-depth`` refuse graphs with ``n * k`` above this (the model has about
#: ``2 m k`` arc Booleans and ``n^2 k`` ball terms; beyond it a proof is out of reach in minutes).
MAX_VERTEX_TREES = 2000

#: The vertex-transitivity check (VF2++ per vertex) runs only on regular graphs up to this many vertices.
VT_MAX_N = 200


@dataclass(frozen=True)
class DepthSolve:
    """One CP-SAT solve: is there a family of ``k`` EDSTs of depth ``<= depth``?

    Attributes
    ----------
    depth : the depth ``D`` asked.
    status : CP-SAT's status name: ``"FEASIBLE"``/``"OPTIMAL"`` (a family found), ``"INFEASIBLE"`` (proved that
        none exists), ``"UNKNOWN"`` (the time limit came first), ``"MODEL_INVALID"``.
    seconds : wall-clock seconds of the solve (varies from run to run).
    deterministic_time : CP-SAT's deterministic time spent (reproducible with one worker).
    trees : the family found (``k`` verified trees rooted at their roots), else None.
    """

    depth: int
    status: str
    seconds: float
    deterministic_time: float
    trees: EDSTSet | None = None

    @property
    def found(self) -> bool:
        """True if a family was found."""
        return self.trees is not None

    @property
    def infeasible(self) -> bool:
        """True if CP-SAT proved that no family of this depth exists."""
        return self.status == "INFEASIBLE"


@dataclass
class DepthOptimum:
    """The result of :func:`optimal_depth`.

    Attributes
    ----------
    k : the number of trees.
    depth : the least maximum depth of a family found (the depth of ``trees``).
    lower : a proved lower bound on the maximum depth of every family of ``k`` EDSTs: the largest ``D'`` with
        ``D' - 1`` proved infeasible by CP-SAT, or :func:`~.bound.depth_lower_bound`, whichever is larger.
    status : ``"optimal"`` when ``depth == lower``, else ``"open"``.
    trees : ``k`` edge-disjoint spanning trees of depth ``depth`` (verified), each rooted at its root, tagged
        ``"optimal-depth"`` with ``meta["status"]``, ``meta["lower_bound"]``, ``meta["model"]``.
    log : one ``(D, CP-SAT status, seconds)`` per depth solved, in order (seconds are wall-clock).
    bound : :func:`~.bound.depth_lower_bound`'s value.
    start : the warm start's name and depth (``("shallow", 4)``), or ``("none", -1)``.
    model : ``MODEL[0]``; ``description`` its text.
    """

    k: int
    depth: int
    lower: int
    status: str
    trees: EDSTSet
    log: list[tuple[int, str, float]] = field(default_factory=list)
    bound: int = 0
    start: tuple[str, int] = ("none", -1)
    model: str = MODEL[0]
    description: str = MODEL[1]


def _cp_model() -> Any:
    require_extra("exact", "starlib.edst.depth.exact")
    from ortools.sat.python import cp_model

    return cp_model


def _distances(g: ArrayGraph) -> np.ndarray:
    n = int(g.n)
    return np.stack([bfs_distances(n, g.edges, v) for v in range(n)]) if n else np.zeros((0, 0), np.int64)


def vertex_transitive(graph: GraphLike) -> bool:
    """True if the automorphism group of ``graph`` is transitive on its vertices (every vertex is an image of 0).

    A VF2++ isomorphism search (networkx) per vertex ``v`` not yet in the orbit of 0: is there an automorphism
    mapping ``0`` to ``v``? (``0`` marked in one copy, ``v`` in the other, matched by mark; Slim Fly MMS(5):
    0.1 s, where plain VF2 ran for minutes). A graph that is not regular is not vertex-transitive (answered at
    once).

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        Any graph (:func:`~starlib.graphs.as_graph`).

    Returns
    -------
    bool

    Example
    -------
    >>> import networkx as nx
    >>> vertex_transitive(nx.petersen_graph()), vertex_transitive(nx.wheel_graph(6))
    (True, False)
    """
    import networkx as nx

    g = as_graph(graph, "graph")
    n = int(g.n)
    if n <= 1:
        return True
    deg = np.bincount(g.edges.ravel(), minlength=n)
    if deg.min() != deg.max():
        return False
    base = nx.Graph()
    base.add_nodes_from(range(n))
    base.add_edges_from(g.edges.tolist())
    g1 = base.copy()
    nx.set_node_attributes(g1, {v: int(v == 0) for v in range(n)}, "mark")
    orbit = {0}
    for v in range(1, n):
        if v in orbit:
            continue
        g2 = base.copy()
        nx.set_node_attributes(g2, {u: int(u == v) for u in range(n)}, "mark")
        s = nx.vf2pp_isomorphism(g1, g2, node_label="mark")
        if s is None:
            return False
        x = s[0]  # s is an automorphism with s(0) = v: the orbit of 0 holds s(0), s(s(0)), ...
        while x not in orbit:
            orbit.add(x)
            x = s[x]
    return True


def _check_k(g: ArrayGraph, k: Any) -> int:
    ub = int(upper_bound(g))
    return check_int(k, "k", minimum=1, maximum=max(ub, 1),
                     rule=f"1 <= k <= {ub}, the upper bound min(floor(m/(n-1)), min degree) on the EDST count")


def _checked(graph: GraphLike, k: Any, time_limit: Any) -> tuple[ArrayGraph, int, int, float]:
    """The door of the exact model: the graph (``n >= 2``), ``k``, the size rule ``n * k <= MAX_VERTEX_TREES`` and a
    positive time limit, each refused with a ``ValueError`` naming it."""
    g = as_graph(graph, "graph")
    n = int(g.n)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; a spanning tree packing needs n >= 2")
    k = _check_k(g, k)
    if n * k > MAX_VERTEX_TREES:
        raise ValueError(f"graph: n * k = {n} * {k} = {n * k} is too large for the exact depth model: need "
                         f"n * k <= {MAX_VERTEX_TREES} (MAX_VERTEX_TREES)")
    time_limit = check_real(time_limit, "time_limit", minimum=0.0, rule="a time limit > 0 (deterministic seconds)")
    if time_limit <= 0:
        raise ValueError(f"time_limit={time_limit} is too small: need a time limit > 0 (deterministic seconds)")
    return g, n, k, time_limit


def _hint_arrays(trees: EDSTSet, n: int) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """(root, parent, level) per tree, sorted by root (the order the symmetry rule asks)."""
    out = []
    for t in trees:
        o = orient(n, t.edges, t.root)
        out.append((int(t.root), o.parent, o.depth))
    return sorted(out, key=lambda x: x[0])


def depth_feasible(graph: GraphLike, k: int, depth: int, *, time_limit: float = 10.0, hint: EDSTSet | None = None,
                   seed: int = 0, workers: int = 1, symmetry: bool = True, cuts: bool = True,
                   wall_limit: float | None = None, _prepared: dict[str, Any] | None = None) -> DepthSolve:
    """Solve the model of the module text once: ``k`` EDSTs of ``graph``, each of depth ``<= depth``?

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected graph with ``n >= 2`` (:func:`~starlib.graphs.as_graph`).
    k : int
        The number of trees, ``1 <= k <= upper_bound(graph)``.
    depth : int
        The depth ``D >= 0`` asked.
    time_limit : float, optional
        CP-SAT's deterministic time limit (about seconds of one worker; reproducible).
    hint : EDSTSet, optional
        ``k`` edge-disjoint spanning trees (of any depth) given to CP-SAT as a solution hint.
    seed : int, optional
        CP-SAT's ``random_seed``.
    workers : int, optional
        CP-SAT's ``num_workers`` (1 is deterministic).
    symmetry, cuts : bool, optional
        Add the symmetry-breaking rules and the cuts of the module text (both sound; off only to compare).
    wall_limit : float, optional
        A wall-clock stop in seconds, a safety net (default ``4 * time_limit``): deterministic time can run
        slower than the clock on a loaded machine; a solve it stops is not reproducible.

    Returns
    -------
    DepthSolve
        The status, the seconds and, when found, the family (verified by :func:`~starlib.edst.check_edsts`).

    Raises
    ------
    ValueError
        For ``k`` outside ``1..upper_bound``, ``depth < 0``, ``time_limit <= 0``, ``workers < 1``, or
        ``n * k > MAX_VERTEX_TREES``.

    Example
    -------
    >>> import networkx as nx
    >>> [depth_feasible(nx.wheel_graph(6), 2, d).status for d in (2, 3)]
    ['INFEASIBLE', 'OPTIMAL']
    """
    cp_model = _cp_model()
    g, n, k, time_limit = _checked(graph, k, time_limit)
    D = check_int(depth, "depth", minimum=0, rule="a depth D >= 0")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    workers = check_int(workers, "workers", minimum=1, rule="a number of CP-SAT workers >= 1")
    prep = _prepared if _prepared is not None else {}
    if "dist" not in prep:
        prep["dist"] = _distances(g)
    dist = prep["dist"]
    edges = g.edges
    m = int(edges.shape[0])
    deg = np.bincount(edges.ravel(), minlength=n)
    ecc = dist.max(axis=1)
    t0 = time.perf_counter()
    if D < n - 1 and ecc.min() > D or (n > 1 and D == 0):
        return DepthSolve(D, "INFEASIBLE", time.perf_counter() - t0, 0.0)  # no root sees every vertex within D
    model = cp_model.CpModel()
    r = [[model.NewBoolVar(f"r{t}_{v}") for v in range(n)] for t in range(k)]
    a = [[(model.NewBoolVar(f"a{t}_{e}+"), model.NewBoolVar(f"a{t}_{e}-")) for e in range(m)] for t in range(k)]
    lev = [[model.NewIntVar(0, D, f"l{t}_{v}") for v in range(n)] for t in range(k)]
    into: list[list[list[Any]]] = [[[] for _ in range(n)] for _ in range(k)]
    inc: list[list[list[Any]]] = [[[] for _ in range(n)] for _ in range(k)]
    for t in range(k):
        for e, (u, v) in enumerate(edges.tolist()):
            fwd, back = a[t][e]  # fwd: u is the parent of v; back: v is the parent of u
            into[t][v].append(fwd)
            into[t][u].append(back)
            inc[t][u] += [fwd, back]
            inc[t][v] += [fwd, back]
            model.Add(lev[t][v] == lev[t][u] + 1).OnlyEnforceIf(fwd)
            model.Add(lev[t][u] == lev[t][v] + 1).OnlyEnforceIf(back)
        model.AddExactlyOne(r[t])
        for v in range(n):
            model.AddExactlyOne([r[t][v], *into[t][v]])
            model.Add(lev[t][v] == 0).OnlyEnforceIf(r[t][v])
            if ecc[v] > D:
                model.Add(r[t][v] == 0)
    for e in range(m):
        model.AddAtMostOne([x for t in range(k) for x in a[t][e]])
    if cuts:
        for t in range(k):
            for x in range(n):
                model.Add(sum(inc[t][x]) >= 1)
                model.Add(sum(inc[t][x]) <= int(deg[x]) - (k - 1))
                model.Add(lev[t][x] >= sum(int(dist[u, x]) * r[t][u] for u in range(n) if dist[u, x] > 0))
    if symmetry:
        rootidx = [sum(v * r[t][v] for v in range(1, n)) for t in range(k)]
        for t in range(k - 1):
            model.Add(rootidx[t] <= rootidx[t + 1])
        if "vt" not in prep:
            prep["vt"] = bool(n <= VT_MAX_N and vertex_transitive(g))
        if prep["vt"] and ecc[0] <= D:
            model.Add(r[0][0] == 1)
    if hint is not None and len(hint) == k:
        for t, (root, parent, level) in enumerate(_hint_arrays(hint, n)):
            for v in range(n):
                model.AddHint(r[t][v], v == root)
                model.AddHint(lev[t][v], int(min(level[v], D)))
            for e, (u, v) in enumerate(edges.tolist()):
                model.AddHint(a[t][e][0], int(parent[v]) == u)
                model.AddHint(a[t][e][1], int(parent[u]) == v)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.max_deterministic_time = float(time_limit)
    wall = 4 * float(time_limit) if wall_limit is None else check_real(wall_limit, "wall_limit", minimum=0.0,
                                                                        rule="a wall-clock limit >= 0 seconds")
    solver.parameters.max_time_in_seconds = max(wall, 1e-3)
    status = solver.Solve(model)
    name = solver.StatusName(status)
    seconds = time.perf_counter() - t0
    trees = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        out = []
        for t in range(k):
            root = next(v for v in range(n) if solver.BooleanValue(r[t][v]))
            rows = [(u, v) for e, (u, v) in enumerate(edges.tolist())
                    if solver.BooleanValue(a[t][e][0]) or solver.BooleanValue(a[t][e][1])]
            out.append(Tree(np.array(rows, dtype=np.int64).reshape(-1, 2), root, "optimal-depth", n=n))
        trees = EDSTSet(out)
        check_edsts(g, trees)
        if max(trees.depths()) > D:  # the model guarantees depth <= D: a failure here is a bug, never silent
            raise AssertionError(f"CP-SAT returned depths {trees.depths()} above D={D}")
    return DepthSolve(D, name, seconds, float(solver.deterministic_time), trees)


def _warm_start(g: ArrayGraph, k: int, warm_start: EDSTSet | bool | None) -> tuple[str, EDSTSet | None]:
    if warm_start is False:
        return "none", None
    if warm_start is not None and warm_start is not True:
        ws = EDSTSet(sorted(warm_start, key=lambda t: t.depth)[:k])
        if len(ws) < k:
            raise ValueError(f"warm_start: {len(warm_start)} trees, need at least k={k}")
        check_edsts(g, ws)
        return "given", ws
    from .shallow import shallow_trees

    s = shallow_trees(g)
    if len(s) >= k:
        return "shallow", EDSTSet(sorted(s, key=lambda t: t.depth)[:k])
    return "none", None


def optimal_depth(graph: GraphLike, k: int, *, time_limit: float = 10.0, warm_start: EDSTSet | bool | None = None,
                  seed: int = 0, workers: int = 1, max_depth: int | None = None) -> DepthOptimum:
    """The least ``D`` such that ``graph`` has ``k`` edge-disjoint spanning trees of depth ``<= D`` (CP-SAT).

    Starts from ``lower = depth_lower_bound(graph, k).value`` and the warm start's maximum depth ``upper``; solves
    :func:`depth_feasible` at ``D = upper - 1, upper - 2, ...`` (each family found may be shallower than asked:
    the next ``D`` is one below its depth) until ``D`` is proved infeasible (then ``lower = D + 1``) or ``D <
    lower`` or the time is spent. Without a warm start of ``k`` trees it solves ``D = lower, lower + 1, ...``
    instead, raising ``lower`` past every depth proved infeasible, until a family is found.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected graph with ``n >= 2`` and ``n * k <= MAX_VERTEX_TREES``.
    k : int
        The number of trees, ``1 <= k <= upper_bound(graph)`` (eq. (1)).
    time_limit : float, optional
        CP-SAT's deterministic time (about seconds of one worker) for all the solves together; a wall-clock
        safety stop at ``4 * time_limit`` seconds as well (:func:`depth_feasible`).
    warm_start : EDSTSet or False, optional
        At least ``k`` EDSTs of ``graph`` (the ``k`` shallowest are used). Default (None):
        :func:`~.shallow.shallow_trees` when it finds ``k`` trees, else none. ``False``: none (the search goes
        up from the lower bound).
    seed, workers : int, optional
        CP-SAT's ``random_seed`` and ``num_workers`` (one worker: the same result on every run).
    max_depth : int, optional
        Without a warm start, the largest ``D`` tried (default ``n - 1``, where any ``k`` EDSTs qualify).

    Returns
    -------
    DepthOptimum
        ``depth``, ``lower``, ``status``, the verified ``trees`` and the per-``D`` log.

    Raises
    ------
    ValueError
        For a bad ``k`` (0, above the upper bound), a bad parameter, a graph too large (``n * k``), or when no
        family is found within ``max_depth`` and the time limit.

    Examples
    --------
    >>> import networkx as nx
    >>> r = optimal_depth(nx.complete_bipartite_graph(3, 4), 2)
    >>> r.depth, r.lower, r.status, [(d, s) for d, s, _ in r.log]
    (3, 3, 'optimal', [(2, 'INFEASIBLE')])
    """
    g, n, k, time_limit = _checked(graph, k, time_limit)
    top = n - 1 if max_depth is None else check_int(max_depth, "max_depth", minimum=1, rule="a depth >= 1")
    bound = int(depth_lower_bound(g, k).value)
    lower = bound
    name, ws = _warm_start(g, k, warm_start)
    prep: dict[str, Any] = {}
    log: list[tuple[int, str, float]] = []
    spent = 0.0
    t_start = time.perf_counter()

    def solve(D: int) -> DepthSolve:
        nonlocal spent
        s = depth_feasible(g, k, D, time_limit=max(time_limit - spent, 1e-3), hint=ws, seed=seed, workers=workers,
                           wall_limit=max(4 * time_limit - (time.perf_counter() - t_start), 1e-3), _prepared=prep)
        spent += s.deterministic_time
        log.append((D, s.status, s.seconds))
        return s

    best = ws
    if best is not None:
        depth = max(best.depths())
        D = depth - 1
        while D >= lower and spent < time_limit:
            s = solve(D)
            if s.found:
                assert s.trees is not None
                best, depth = s.trees, max(s.trees.depths())
                D = depth - 1
            elif s.infeasible:
                lower = D + 1
                break
            else:
                break
    else:
        D = lower
        depth = -1
        while D <= top and spent < time_limit:
            s = solve(D)
            if s.found:
                assert s.trees is not None
                best, depth = s.trees, max(s.trees.depths())
                break
            if s.infeasible and lower == D:
                lower = D + 1
            D += 1
        if best is None:
            raise ValueError(f"graph: no family of k={k} EDSTs of depth <= {min(D, top)} found within "
                             f"time_limit={time_limit} (proved lower bound {lower})")
    status = "optimal" if depth <= lower else "open"
    lower = min(lower, depth)
    out = EDSTSet(Tree(t.edges, t.root, "optimal-depth", n=n,
                       meta={"status": status, "lower_bound": int(lower), "depth_bound": bound, "model": MODEL[0]})
                  for t in best)
    out.theorem = "optimal-depth"
    check_edsts(g, out)
    return DepthOptimum(k, int(depth), int(lower), status, out, log, bound,
                        (name, int(max(ws.depths())) if ws is not None else -1))


@dataclass(frozen=True)
class SmallInstance:
    """A small instance :func:`optimal_depth` settles within seconds: a name, a builder and ``k``."""

    name: str
    build: Callable[[], Any]
    k: int


def small_instances() -> list[SmallInstance]:
    """The small instances that :func:`optimal_depth` settles (status ``"optimal"``) within about 10 s each.

    Measured with one worker (module text); each is a graph with its ``k`` (the EDST maximum).

    Returns
    -------
    list of SmallInstance

    Example
    -------
    >>> [(s.name, s.k) for s in small_instances()][:2]
    [('K_{3,4}', 2), ('wheel W_6', 2)]
    """
    import networkx as nx

    from ...factors import paley, polarfly

    return [
        SmallInstance("K_{3,4}", lambda: nx.complete_bipartite_graph(3, 4), 2),
        SmallInstance("wheel W_6", lambda: nx.wheel_graph(6), 2),
        SmallInstance("K_{4,4}", lambda: nx.complete_bipartite_graph(4, 4), 2),
        SmallInstance("K_{5,5}", lambda: nx.complete_bipartite_graph(5, 5), 2),
        SmallInstance("Petersen", nx.petersen_graph, 1),
        SmallInstance("QR(9)", lambda: paley(9), 2),
        SmallInstance("QR(13)", lambda: paley(13), 3),
        SmallInstance("QR(17)", lambda: paley(17), 4),
        SmallInstance("ER_3", lambda: polarfly(3), 2),
        SmallInstance("ER_4", lambda: polarfly(4), 2),
        SmallInstance("ER_5", lambda: polarfly(5), 3),
    ]


def settle_small(instances: list[SmallInstance] | None = None, *, time_limit: float = 10.0,
                 seed: int = 0) -> list[dict[str, Any]]:
    """Run :func:`optimal_depth` on each small instance: one row per instance, for a table.

    Parameters
    ----------
    instances : list of SmallInstance, optional
        Default :func:`small_instances`.
    time_limit : float, optional
        Per instance (deterministic seconds).
    seed : int, optional
        CP-SAT's seed (one worker).

    Returns
    -------
    list of dict
        ``name, n, m, k, lower_bound`` (:func:`~.bound.depth_lower_bound`), ``start_depth`` (the warm start's,
        :func:`~.shallow.shallow_trees`; -1 without one), ``optimum`` (the depth found),
        ``proved_lower``, ``status``, ``seconds`` (wall-clock, rounded to 0.1: varies, keep it out of a
        committed table).

    Example
    -------
    >>> rows = settle_small(small_instances()[:1])
    >>> {c: rows[0][c] for c in ("name", "n", "m", "k", "lower_bound", "optimum", "status")}
    {'name': 'K_{3,4}', 'n': 7, 'm': 12, 'k': 2, 'lower_bound': 2, 'optimum': 3, 'status': 'optimal'}
    """
    rows = []
    for inst in small_instances() if instances is None else instances:
        g = as_graph(inst.build(), "graph")
        t0 = time.perf_counter()
        res = optimal_depth(g, inst.k, time_limit=time_limit, seed=seed)
        rows.append({"name": inst.name, "n": int(g.n), "m": int(g.m), "k": inst.k, "lower_bound": res.bound,
                     "start_depth": res.start[1], "optimum": res.depth, "proved_lower": res.lower, "status": res.status,
                     "seconds": round(time.perf_counter() - t0, 1)})
    return rows


#: Deterministic seconds that ``--method optimal-depth`` (:func:`optimal_depth_trees`) gives CP-SAT by default.
METHOD_SECONDS = 60.0


def optimal_depth_trees(graph: GraphLike, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None, *,
                        time_limit: float = METHOD_SECONDS, seed: int = 0) -> EDSTSet:
    """``--method optimal-depth``: the most trees starlib finds, then the least depth, optimal or with a proved gap.

    ``k`` is the count of :func:`~.shallow.shallow_trees` (the maximum when it meets the upper bound or the exact
    packer ran), whose family is the warm start of :func:`optimal_depth`.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        A connected graph with ``n * upper_bound(graph) <= MAX_VERTEX_TREES`` (checked before anything runs).
    g_trees, h_trees : list of Tree, optional
        Factor trees of a star product, passed to :func:`~.shallow.shallow_trees`.
    time_limit : float, optional
        CP-SAT's deterministic time for all depths (:data:`METHOD_SECONDS`).
    seed : int, optional
        Seed of the local search and of CP-SAT (one worker: the same trees on every run).

    Returns
    -------
    EDSTSet
        ``theorem == "optimal-depth"``; every tree tagged ``"optimal-depth"`` with ``meta["status"]``
        (``"optimal"`` or ``"open"``), ``meta["lower_bound"]`` (proved), ``meta["depth_bound"]``
        (:func:`~.bound.depth_lower_bound`) and ``meta["model"]``.

    Raises
    ------
    ValueError
        If ``n * upper_bound(graph) > MAX_VERTEX_TREES`` (the parameter ``graph`` named) or ``n < 2``.
    MissingExtra
        If OR-tools (the ``exact`` extra) is not installed.

    Example
    -------
    >>> import networkx as nx
    >>> T = optimal_depth_trees(nx.wheel_graph(6))
    >>> len(T), max(T.depths()), T[0].meta["status"], T[0].meta["lower_bound"]
    (2, 3, 'optimal', 3)
    """
    g = as_graph(graph, "graph")
    n = int(g.n)
    if n < 2:
        raise ValueError(f"graph: n={n} vertices; a spanning tree packing needs n >= 2")
    ub = int(upper_bound(g))
    if n * ub > MAX_VERTEX_TREES:
        raise ValueError(f"graph: n * upper_bound = {n} * {ub} = {n * ub} is too large for method optimal-depth: "
                         f"need n * upper_bound(graph) <= {MAX_VERTEX_TREES} (the exact depth model grows as n * k)")
    require_extra("exact", "method optimal-depth")
    from .shallow import shallow_trees

    S = shallow_trees(g, g_trees, h_trees, seed=seed)
    if len(S) == 0:
        return S
    return optimal_depth(g, len(S), time_limit=time_limit, warm_start=S, seed=seed).trees
