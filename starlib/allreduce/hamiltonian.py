"""Hamiltonian cycles of a network, one or several edge-disjoint: the rings a ring allreduce runs on, one link a hop.

A ring allreduce whose consecutive ranks are neighbours in the network sends every step over a single link and no
two steps of a ring share one; on a network that has a Hamiltonian cycle that is the ring to use, and every
further edge-disjoint Hamiltonian cycle is another ring with links of its own.

The search
----------
:func:`hamiltonian_cycle` runs Pósa's rotation-extension heuristic (Pósa 1976), compiled with numba, with seeded
restarts:

* a path grows from a random start; its end moves to an unvisited neighbour while it has one, the neighbour
  with the fewest unvisited neighbours first (Warnsdorff's rule; ties drawn at random);
* when the end has no unvisited neighbour, a *rotation*: pick a neighbour ``u`` of the end ``e`` on the path,
  add the edge ``e u`` and drop the edge from ``u`` to its successor ``s``, which reverses the path after ``u``
  and makes ``s`` the new end. Rotations that give an end with unvisited neighbours are preferred;
* once the path holds every vertex, rotations (those giving an end adjacent to the start first) go on until the
  end is a neighbour of the start: the cycle closes.

A restart gives up after ``20 n + 1000`` steps (a step is one extension or rotation); ``restarts`` of them, each
from the state the seeded generator (xorshift64*, integer arithmetic only) reached, make the search the same on
every machine. When all fail and the graph has at most ``exact_limit`` vertices, OR-tools CP-SAT decides the
question exactly with ``AddCircuit`` over both arcs of every edge (one worker, a fixed seed and a *deterministic*
time limit, so its answer is the same on every run); ``restarts=0`` leaves the question to CP-SAT alone.

"Not found" (``None``) therefore means one of: a quick necessary condition fails (fewer than 3 vertices, a
vertex of degree below 2, a disconnected graph), CP-SAT proved that no Hamiltonian cycle exists, or neither the
heuristic nor CP-SAT within its limit (or, above ``exact_limit`` vertices, the heuristic alone) found one. Only
the first two are proofs.

:func:`disjoint_hamiltonian_cycles` finds cycles greedily, one after the other, each on the edges the previous
ones left. A greedy sequence can strand itself (the last cycle's remaining edges may form no Hamiltonian cycle
although another sequence would), so on graphs of at most ``exact_limit`` vertices that end below the degree
bound ``floor(min degree / 2)`` a few more greedy sequences (other seeds) run, and then CP-SAT looks for one
cycle more than the best sequence, all cycles at once (the sequence as its hint); the best family found is
returned.

Measured (2 shared cores): on PolarFly q = 31 (993 vertices, degree 31-32) one cycle takes about 0.02 s and 15
edge-disjoint ones, the degree bound, about 0.1 s; the first greedy sequence reaches the bound on PolarFly q = 7
and 9 (3 and 4 cycles), Slim Fly q = 5 and 7 (3 and 5) and Bundlefly (q = 3, Paley 5; 3) as well.

References
----------
L. Pósa, "Hamiltonian circuits in random graphs", Discrete Mathematics 14(4), 359-364, 1976.
H. C. von Warnsdorf, *Des Rösselsprunges einfachste und allgemeinste Lösung*, 1823 (the fewest-exits rule).
E. Lucas, *Récréations mathématiques* II, 1883, pp. 161-197 (Walecki's decomposition of K_n, n odd, into
(n - 1)/2 Hamiltonian cycles).
L. Perron and F. Didier, "CP-SAT", Google OR-Tools, https://developers.google.com/optimization/ (AddCircuit).

Example
-------
>>> import networkx as nx
>>> hamiltonian_cycle(nx.cycle_graph(5)).tolist()
[0, 1, 2, 3, 4]
>>> len(disjoint_hamiltonian_cycles(nx.complete_graph(7)))
3
"""

from __future__ import annotations

import numba
import numpy as np

from .._kernels import count_components, csr
from ..graphs import GraphLike, as_graph
from ..validation import check_int, check_real, require_extra

__all__ = ["hamiltonian_cycle", "disjoint_hamiltonian_cycles", "is_hamiltonian_cycle"]

_MASK = (1 << 64) - 1


@numba.njit(cache=True)
def _next(state):  # pragma: no cover - compiled
    """xorshift64* (Vigna 2016): the next 31-bit value of the generator whose state is ``state[0]``."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(33))


@numba.njit(cache=True)
def _posa_jit(indptr, indices, state, restarts, steps):  # pragma: no cover - compiled
    """Pósa's rotation-extension search (module docstring); the cycle's vertex order, or an empty array."""
    n = indptr.shape[0] - 1
    path = np.empty(n, np.int64)
    pos = np.empty(n, np.int64)
    free = np.empty(n, np.int64)
    mark = np.zeros(n, np.uint8)
    cand = np.empty(n, np.int64)
    for _ in range(restarts):
        start = _next(state) % n
        for v in range(n):
            pos[v] = -1
            free[v] = indptr[v + 1] - indptr[v]
            mark[v] = 0
        for k in range(indptr[start], indptr[start + 1]):
            mark[indices[k]] = 1
            free[indices[k]] -= 1
        path[0] = start
        pos[start] = 0
        length = 1
        for _s in range(steps):
            e = path[length - 1]
            best = -1
            bestd = n + 1
            ties = 0
            for k in range(indptr[e], indptr[e + 1]):
                w = indices[k]
                if pos[w] < 0:
                    d = free[w]
                    if d < bestd:
                        best, bestd, ties = w, d, 1
                    elif d == bestd:
                        ties += 1
                        if _next(state) % ties == 0:
                            best = w
            if best >= 0:  # extension
                path[length] = best
                pos[best] = length
                length += 1
                for k in range(indptr[best], indptr[best + 1]):
                    free[indices[k]] -= 1
                continue
            if length == n and mark[e]:
                return path.copy()
            # rotation: candidates u (on the path, not e's predecessor), new end path[pos[u] + 1]
            good = 0
            total = 0
            for k in range(indptr[e], indptr[e + 1]):
                u = indices[k]
                if pos[u] < length - 2:
                    c = path[pos[u] + 1]
                    ok = mark[c] if length == n else free[c] > 0
                    if ok:
                        cand[total] = cand[good]
                        cand[good] = u
                        good += 1
                    else:
                        cand[total] = u
                    total += 1
            if total == 0:
                break  # e has no other neighbour on the path: a dead end, restart
            u = cand[_next(state) % good] if good else cand[_next(state) % total]
            i = pos[u] + 1
            j = length - 1
            while i < j:
                a = path[i]
                b = path[j]
                path[i] = b
                pos[b] = i
                path[j] = a
                pos[a] = j
                i += 1
                j -= 1
    return np.empty(0, np.int64)


def _seed_state(*words: int) -> np.ndarray:
    """A nonzero xorshift state from integers, mixed by splitmix64 (Steele, Lea and Flood 2014)."""
    x = 0
    for w in words:
        x = (x + (int(w) & _MASK) + 0x9E3779B97F4A7C15) & _MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        x = z ^ (z >> 31)
    return np.array([x or 1], dtype=np.uint64)


def _canonical(cycle: np.ndarray) -> np.ndarray:
    """The cycle from its smallest vertex, towards the smaller of that vertex's two cycle neighbours."""
    c = np.roll(np.asarray(cycle, dtype=np.int64), -int(np.argmin(cycle)))
    if c.shape[0] > 2 and c[-1] < c[1]:
        c = np.concatenate([c[:1], c[:0:-1]])
    return c


def _remaining(graph: GraphLike, avoid: np.ndarray | None) -> tuple[int, np.ndarray]:
    """``(n, edges)``: the graph's edges without those of ``avoid`` (rows ``u < v``, sorted)."""
    g = as_graph(graph, "graph")
    n = g.n
    e = np.sort(np.asarray(g.edges, dtype=np.int64).reshape(-1, 2), axis=1)
    if avoid is not None:
        a = np.asarray(avoid, dtype=np.int64)
        if a.size and (a.ndim != 2 or a.shape[1] != 2 or a.min() < 0 or a.max() >= n):
            raise ValueError(f"avoid: an (k, 2) array of vertex pairs in 0..{n - 1}, got shape {a.shape}")
        a = np.sort(a.reshape(-1, 2), axis=1)
        e = e[~np.isin(e[:, 0] * n + e[:, 1], a[:, 0] * n + a[:, 1])]
    return n, e[np.lexsort((e[:, 1], e[:, 0]))]


def is_hamiltonian_cycle(n: int, edges: np.ndarray, cycle: np.ndarray) -> bool:
    """Whether ``cycle`` visits each of the ``n`` vertices once and its consecutive vertices are joined by edges.

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : numpy.ndarray
        ``(m, 2)`` edges of the graph.
    cycle : numpy.ndarray
        A vertex order (the edge back from the last vertex to the first included).

    Returns
    -------
    bool

    Example
    -------
    >>> is_hamiltonian_cycle(3, np.array([[0, 1], [1, 2], [0, 2]]), np.array([0, 2, 1]))
    True
    """
    c = np.asarray(cycle, dtype=np.int64).reshape(-1)
    if c.shape[0] != n or n < 3 or np.unique(c).shape[0] != n or c.min() < 0 or c.max() >= n:
        return False
    e = np.sort(np.asarray(edges, dtype=np.int64).reshape(-1, 2), axis=1)
    hops = np.sort(np.stack([c, np.roll(c, -1)], axis=1), axis=1)
    return bool(np.isin(hops[:, 0] * n + hops[:, 1], e[:, 0] * n + e[:, 1]).all())


def _cp_sat(n: int, edges: np.ndarray, k: int, time_limit: float, seed: int,
            hint: list[np.ndarray] | None = None) -> tuple[str, list[np.ndarray]]:
    """CP-SAT: ``k`` edge-disjoint Hamiltonian cycles of ``(n, edges)`` (AddCircuit on both arcs of every edge);
    ``(status name, cycles)``, the cycles empty unless a solution was found."""
    require_extra("exact", "the exact Hamiltonian cycle search (CP-SAT)")
    from ortools.sat.python import cp_model  # noqa: PLC0415 (heavy, optional)

    model = cp_model.CpModel()
    m = edges.shape[0]
    arcs = [[(model.NewBoolVar(""), model.NewBoolVar("")) for _ in range(m)] for _ in range(k)]
    for c in range(k):
        model.AddCircuit([(int(u), int(v), arcs[c][i][0]) for i, (u, v) in enumerate(edges.tolist())]
                         + [(int(v), int(u), arcs[c][i][1]) for i, (u, v) in enumerate(edges.tolist())])
    if k > 1:
        for i in range(m):
            model.AddAtMostOne([x for c in range(k) for x in arcs[c][i]])
    index = {(int(u), int(v)): i for i, (u, v) in enumerate(edges.tolist())}
    for c, cyc in enumerate(hint or []):
        for a, b in zip(cyc.tolist(), np.roll(cyc, -1).tolist(), strict=True):
            i = index[(min(a, b), max(a, b))]
            model.AddHint(arcs[c][i][0 if a < b else 1], True)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(seed) % (1 << 31)
    solver.parameters.max_deterministic_time = float(time_limit)
    status = solver.StatusName(solver.Solve(model))
    if status not in ("OPTIMAL", "FEASIBLE"):
        return status, []
    out = []
    for c in range(k):
        succ = np.full(n, -1, dtype=np.int64)
        for i, (u, v) in enumerate(edges.tolist()):
            if solver.BooleanValue(arcs[c][i][0]):
                succ[u] = v
            if solver.BooleanValue(arcs[c][i][1]):
                succ[v] = u
        cyc = [0]
        while len(cyc) < n:
            cyc.append(int(succ[cyc[-1]]))
        out.append(_canonical(np.array(cyc, dtype=np.int64)))
    return status, out


def _search(n: int, e: np.ndarray, seed: int, restarts: int, exact_limit: int, time_limit: float) -> np.ndarray | None:
    """One Hamiltonian cycle of ``(n, e)`` (``e`` rows ``u < v``, sorted), or None (module docstring)."""
    if n < 3 or e.shape[0] < n:
        return None
    deg = np.bincount(e.reshape(-1), minlength=n)
    if deg.min() < 2 or count_components(n, e) != 1:
        return None
    if restarts:
        indptr, indices = csr(n, e)
        found = _posa_jit(indptr, indices, _seed_state(seed, n, e.shape[0]), restarts, 20 * n + 1000)
        if found.shape[0] == n:
            return _canonical(found)
    if n <= exact_limit:
        _, cycles = _cp_sat(n, e, 1, time_limit, seed)
        if cycles:
            return cycles[0]
    return None


def _check_search(seed: int, restarts: int, exact_limit: int, time_limit: float) -> None:
    check_int(seed, "seed", minimum=0)
    check_int(restarts, "restarts", minimum=0)
    check_int(exact_limit, "exact_limit", minimum=0)
    check_real(time_limit, "time_limit", minimum=0, strict=True)


def hamiltonian_cycle(graph: GraphLike, *, seed: int = 0, avoid: np.ndarray | None = None, restarts: int = 64,
                      exact_limit: int = 128, time_limit: float = 10.0) -> np.ndarray | None:
    """A Hamiltonian cycle of ``graph`` (avoiding the edges ``avoid``), or None when none was found.

    Pósa's rotation-extension heuristic with seeded restarts, then, on graphs of at most ``exact_limit``
    vertices, OR-tools CP-SAT (module docstring).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The network.
    seed : int
        Seed of the heuristic's random choices (and of CP-SAT's search): the same seed, the same cycle.
    avoid : numpy.ndarray, optional
        ``(k, 2)`` edges the cycle must not use.
    restarts : int
        Restarts of the heuristic (each at most ``20 n + 1000`` steps); 0: CP-SAT alone.
    exact_limit : int
        Largest number of vertices on which CP-SAT runs when the heuristic fails (0: never).
    time_limit : float
        CP-SAT's limit in its *deterministic* seconds (a measure of work, not of the wall clock: the same answer
        on every run and machine).

    Returns
    -------
    numpy.ndarray or None
        The ``n`` vertices in cycle order, from the smallest vertex towards the smaller of its two cycle
        neighbours. None means *not found*: a necessary condition fails (fewer than 3 vertices, a vertex of degree
        below 2, a disconnected graph), CP-SAT proved that there is none, or neither the heuristic nor CP-SAT
        within its limit found one; only the first two are proofs.

    Raises
    ------
    ValueError
        On a bad ``seed``, ``restarts``, ``exact_limit``, ``time_limit`` or ``avoid``.
    MissingExtra
        When CP-SAT is needed (the heuristic failed on a graph of at most ``exact_limit`` vertices) and OR-tools
        (the ``exact`` extra) is not installed.

    Example
    -------
    >>> import networkx as nx
    >>> hamiltonian_cycle(nx.petersen_graph()) is None     # CP-SAT proves it: the Petersen graph has none
    True
    >>> c = hamiltonian_cycle(nx.hypercube_graph(3))
    >>> c.shape, sorted(c.tolist()) == list(range(8))
    ((8,), True)

    References
    ----------
    L. Pósa, Discrete Mathematics 14(4), 359-364, 1976 (rotation-extension).
    """
    _check_search(seed, restarts, exact_limit, time_limit)
    n, e = _remaining(graph, avoid)
    return _search(n, e, int(seed), int(restarts), int(exact_limit), float(time_limit))


def disjoint_hamiltonian_cycles(graph: GraphLike, max_cycles: int | None = None, seed: int = 0, *,
                                restarts: int = 64, exact_limit: int = 128, time_limit: float = 10.0,
                                attempts: int = 8) -> list[np.ndarray]:
    """Edge-disjoint Hamiltonian cycles of ``graph``, found greedily one after the other on the remaining edges.

    Cycle ``i`` is :func:`hamiltonian_cycle` of the graph without the edges of cycles ``0..i-1`` (seed derived
    from ``seed`` and ``i``), until none is found or ``max_cycles`` are. On graphs of at most ``exact_limit``
    vertices where that sequence ends below ``floor(min degree / 2)`` (no more cycles fit), ``attempts - 1``
    further sequences run with other seeds, and CP-SAT then seeks one cycle more than the best, all at once (the
    best sequence as its hint, ``time_limit`` deterministic seconds); the largest family found is returned.

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The network.
    max_cycles : int, optional
        Stop after this many cycles (default: as many as are found).
    seed : int
        Seed of the search (the same seed, the same cycles).
    restarts, exact_limit, time_limit : see :func:`hamiltonian_cycle`
    attempts : int
        Greedy sequences tried on small graphs (at most ``exact_limit`` vertices) before CP-SAT.

    Returns
    -------
    list of numpy.ndarray
        The cycles (vertex orders as :func:`hamiltonian_cycle` returns them), pairwise edge-disjoint, in the order
        found.

    Raises
    ------
    ValueError
        On a bad ``max_cycles``, ``seed``, ``restarts``, ``exact_limit``, ``time_limit`` or ``attempts``.

    Example
    -------
    >>> import networkx as nx
    >>> cycles = disjoint_hamiltonian_cycles(nx.complete_graph(9))   # Walecki: K_9 splits into 4
    >>> len(cycles), sum(c.shape[0] for c in cycles)
    (4, 36)

    References
    ----------
    E. Lucas, *Récréations mathématiques* II, 1883 (Walecki: K_n for odd n is (n - 1)/2 Hamiltonian cycles).
    """
    _check_search(seed, restarts, exact_limit, time_limit)
    check_int(attempts, "attempts", minimum=1)
    n, e = _remaining(graph, None)
    limit = None if max_cycles is None else check_int(max_cycles, "max_cycles", minimum=0)
    deg = np.bincount(e.reshape(-1), minlength=n) if n else np.zeros(1, np.int64)
    bound = int(deg.min()) // 2 if limit is None else min(int(deg.min()) // 2, limit)
    small = n <= exact_limit

    def sequence(attempt: int) -> list[np.ndarray]:
        cycles: list[np.ndarray] = []
        rest = e
        while limit is None or len(cycles) < limit:
            c = _search(n, rest, seed + attempt * 1_000_003 + len(cycles) * 7919, restarts,
                        exact_limit if attempt == 0 else 0, time_limit)
            if c is None:
                break
            cycles.append(c)
            used = np.sort(np.stack([c, np.roll(c, -1)], axis=1), axis=1)
            rest = rest[~np.isin(rest[:, 0] * n + rest[:, 1], used[:, 0] * n + used[:, 1])]
        return cycles

    best = sequence(0)
    if not small or len(best) >= bound:
        return best
    for attempt in range(1, attempts):
        got = sequence(attempt)
        if len(got) > len(best):
            best = got
            if len(best) >= bound:
                return best
    while len(best) < bound:
        _, joint = _cp_sat(n, e, len(best) + 1, time_limit, seed, hint=best)
        if not joint:
            break
        best = joint
    return best
