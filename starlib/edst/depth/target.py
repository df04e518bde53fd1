"""Drive a family of edge-disjoint spanning trees to a target depth, keeping the count.

:func:`repair_to_depth` takes any EDST family (e.g. the result of :func:`~starlib.edst.depth.shallow_trees`) and
a target depth ``D``. Each round (at most ``rounds``, 4) has two phases, the roots fixed within the round:

1. **Targeted repair** -- the compiled kernel of :mod:`starlib.edst.depth.er` (written for ER_q; it takes any graph
   through :func:`~starlib.edst.depth.search.graph_index`). It counts only the pairs (tree, vertex) deeper than
   ``D`` and lowers that count by exchanges of one graph edge between two trees or with the unused edges, chains
   of two exchanges, neighbour lifts and seeded kicks (the module docstring of :mod:`starlib.edst.depth.er`).
2. **Simulated annealing** when the repair is stuck (on the Bundlefly and PolarStar products it usually is: few
   unused edges, and every lifting exchange it tries is illegal or adds deep vertices elsewhere). The cost is,
   summed over the trees, the number of vertices deeper than ``D`` plus their total excess depth; a move is a
   random legal exchange (half the time at a deep vertex, the new parent anywhere not below it -- not only a
   lift), accepted by the Metropolis rule at a temperature falling geometrically from 4 to 0.2 over ``anneal``
   trial moves (1,600,000); the best state is kept.

Between rounds the trees are re-rooted (at their centres, or in odd rounds at a seeded choice among their
vertices of least eccentricity) and the next round starts from the best family so far; it stops once every tree
has depth at most ``D``. :func:`deepen_search` asks for one level less at a time, down to a lower bound.

Why a target helps where :func:`~starlib.edst.depth.improve_depth` stops: the local search accepts a move only
when ``sum c^depth`` falls, so it refuses to lift a vertex at depth ``D + 1`` of ``T_a`` when the exchanged edge
makes many vertices of ``T_b`` deeper, even if none of them passes ``D``. The repair ignores those, and the
annealing also accepts sideways and uphill moves.

Every family returned passes :func:`~starlib.edst.verify.check_edsts`, has the input's count and is never deeper
than the input at its centres (the best family seen is kept: least maximum depth, then least total depth). The
procedure is deterministic: seeded random numbers, budgets counted in steps and trial moves, no clock.

Measured
--------
``deepen_search(graph, S, lower_bound + 1)`` (targets one level at a time from the depth of S down to ``lower_bound
+ 1``) with ``S = shallow_trees(graph)`` and the defaults (``seed = 0``, one core), on the 68 Table IV networks with
at most 500 routers (``paper_tables/maximum_shallow.csv``, its ``lower_bound`` column): 65 rows end within one level
of the bound (26 before). Depth 4 is reached on Slim Fly q = 8 (from 5), on Bundlefly MMS(3) * QR(p) for p = 5, 9,
13, 17 (from 5), on every PolarStar-IQ and PolarStar-Paley row of bound 3 (from 5, or 6 at IQ (q, d) = (3, 7), (3,
11), (3, 12) and Paley (q, p) = (4, 13)) except three: IQ (4, 8) and Paley (4, 17) reach 5 (from 6), Paley (9, 5)
stays at 5. Every row of bound 4 reaches 5. Every family verified, depths cross-checked by an independent BFS. 112 s
of CPU in all (about 5 s of it the first call's compilation), at most 16 s per network; the rows that reach their
target take 0-12 s, the three misses spend the whole budget. Calling :func:`repair_to_depth` at ``lower_bound + 1``
directly (no intermediate target) misses IQ (3, 11) from depth 6, which the step through 5 reaches; with the earlier
defaults (8 rounds of 400,000 annealing moves) eight PolarStar rows stayed at 5. :func:`deepen_search` down to the
bound itself finds depth 3, the bound, on ER_4 (two trees, from depth 4): certified optimal.
With ``seed = 1`` Paley (4, 17) reaches 4 (3.4 s); IQ (4, 8) and Paley (9, 5) stay at 5 with it too.

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst.depth import shallow_trees
>>> P = slimfly(8)
>>> S = shallow_trees(P)
>>> R = repair_to_depth(P, S, 4)
>>> len(R) == len(S), max(R.depths()) <= max(S.depths())
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from ...graphs import GraphLike, as_graph
from ...validation import check_int
from ..trees import EDSTSet, Tree, centred_trees, sort_edge_rows
from ..verify import check_edsts
from .er import depth_row, family_state, repair_kernel, trial_scratch, try_exchange, undo_exchange
from .search import below, family_arrays, graph_index

__all__ = ["repair_to_depth", "deepen_search"]


@numba.njit(cache=True)
def _excess(t, n, par, root, depth, stack, target):  # pragma: no cover - compiled
    """Recompute the depths of tree ``t``; returns its cost: the number of vertices deeper than ``target`` plus
    their total excess depth."""
    depth_row(t, n, par, root, depth, stack, target)
    c = 0
    for v in range(n):
        if depth[t, v] > target:
            c += 1 + depth[t, v] - target
    return c


@numba.njit(cache=True)
def _anneal(n, indptr, indices, eid, owner, par, pe, root, target, seed, max_moves, temp0,
            temp1):  # pragma: no cover - compiled
    """Simulated annealing on the cost of :func:`_excess` summed over the trees (roots fixed): a move is a random
    legal exchange (a tree ``a``, a vertex ``x`` -- half the time a deep one --, a graph edge ``xy`` outside
    ``T_a`` with ``y`` not below ``x``; ``xp`` goes to the old owner of ``xy`` if that reconnects it), accepted
    by the Metropolis rule at a temperature falling geometrically from ``temp0`` to ``temp1`` over ``max_moves``
    trials. Stops at cost 0. Returns the best parent array seen and its cost."""
    np.random.seed(seed)
    k = par.shape[0]
    depth = np.zeros((k, n), np.int64)
    stack = np.empty(n + 1, np.int64)
    cost = np.zeros(k, np.int64)
    for t in range(k):
        cost[t] = _excess(t, n, par, root, depth, stack, target)
    ts, sv, undo = trial_scratch(n)
    total = cost.sum()
    best = total
    best_par = par.copy()
    ratio = (temp1 / temp0) ** (1.0 / max(max_moves, 1))
    temp = temp0
    deep = np.empty(k * n, np.int64)
    for it in range(max_moves):
        if total == 0:
            break
        temp *= ratio
        if it % 64 == 0:  # the deep pairs, refreshed now and then
            nd = 0
            for t in range(k):
                for v in range(n):
                    if depth[t, v] > target:
                        deep[nd] = t * n + v
                        nd += 1
        if nd > 0 and np.random.random() < 0.5:
            c = deep[np.random.randint(nd)]
            a = c // n
            x = c % n
        else:
            a = np.random.randint(k)
            x = np.random.randint(n)
        if x == root[a]:
            continue
        j = indptr[x] + np.random.randint(indptr[x + 1] - indptr[x])
        y = indices[j]
        e = eid[j]
        if owner[e] == a or below(a, y, x, par, depth):
            continue
        o = try_exchange(a, x, y, e, par, pe, owner, depth, ts, sv, undo)
        if o == -2:
            continue
        ca = _excess(a, n, par, root, depth, stack, target)
        co = _excess(o, n, par, root, depth, stack, target) if o >= 0 else 0
        delta = ca - cost[a] + (co - cost[o] if o >= 0 else 0)
        if delta <= 0 or np.random.random() < np.exp(-delta / temp):  # cpu-stable: numba, libm
            cost[a] = ca
            if o >= 0:
                cost[o] = co
            total += delta
            if total < best:
                best = total
                best_par[:, :] = par
        else:
            undo_exchange(par, pe, owner, depth, ts, sv, undo)
    return best_par, best


def _key(trees: EDSTSet) -> tuple[int, int]:
    d = trees.depths()
    return (max(d), sum(d)) if d else (0, 0)


def _rooted(trees: EDSTSet, roots: Sequence[int]) -> EDSTSet:
    """The same trees with the given roots (depths recomputed on demand)."""
    return EDSTSet(Tree(t.rows, int(r), t.construction, n=t.n, meta=t.meta) for t, r in zip(trees, roots,
                                                                                            strict=True))


def _round_roots(trees: EDSTSet, rnd: int, rng: np.random.Generator) -> list[int]:
    """Roots of round ``rnd``: the centres (round 0 and every even round); otherwise, per tree, a vertex drawn
    (seeded) among those of least eccentricity in that tree -- trees with two centres get the other one."""
    if rnd % 2 == 0:
        return [t.root for t in trees]
    roots = []
    for t in trees:
        ecc = t.meta.get("ecc")
        if ecc is None:
            roots.append(t.root)
            continue
        ecc = np.asarray(ecc)
        cands = np.flatnonzero(ecc == ecc.min())
        roots.append(int(cands[rng.integers(len(cands))]))
    return roots


def repair_to_depth(graph: GraphLike, trees: Sequence[Any], target: int, *, seed: int = 0, rounds: int = 4,
                    max_steps: int = 400, max_evals: int | None = None, anneal: int = 1_600_000) -> EDSTSet:
    """Drive every tree of an EDST family to depth at most ``target`` by targeted exchanges, keeping the count.

    Rounds of the compiled repair of :mod:`starlib.edst.depth.er` (its moves count only the pairs (tree,
    vertex) deeper than ``target``), then simulated annealing on the excess depth when the repair is stuck
    (module docstring); each round starts from the best family so far, its trees rooted at their centres (even
    rounds) or at a seeded choice among their vertices of least eccentricity (odd rounds); it stops as soon as
    the target is reached.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The host graph (read by :func:`~starlib.graphs.as_graph`).
    trees : EDSTSet, sequence of Tree or of (n-1, 2) arrays
        Edge-disjoint spanning trees of ``graph``.
    target : int
        The depth asked for, ``>= 1``.
    seed : int, optional
        Seed of the tie orders, kicks and root draws (same input and seed, same output).
    rounds : int, optional
        Rounds at most (4).
    max_steps : int, optional
        Steps per round at most (a sweep of single exchanges, else chained ones, a lift or a kick; 400).
    max_evals : int, optional
        Trial exchanges of the repair per round at most (each costs ``O(n)``); default
        ``max(20_000, 2 * 10**7 // n)``.
    anneal : int, optional
        Trial moves of the annealing per round (each costs ``O(n)``; 1,600,000; 0 switches it off).

    Returns
    -------
    EDSTSet
        As many trees as given, each rooted at its centre, with the input's construction tags and
        ``meta["target"]``; checked by :func:`~starlib.edst.verify.check_edsts`. The best family seen (least
        maximum depth, then least total depth), so never deeper than the input at its centres; its depths say
        whether the target was reached.

    Raises
    ------
    ValueError
        If ``trees`` is not an EDST family of ``graph`` or a parameter is out of range.

    Example
    -------
    >>> from starlib.networks import bundlefly
    >>> from starlib.edst import auto_trees
    >>> from starlib.edst.depth import improve_depth
    >>> P = bundlefly(3, 5)
    >>> S = improve_depth(P, auto_trees(P))  # Table I's trees after the local search
    >>> R = repair_to_depth(P, S, 4)
    >>> len(R), max(S.depths()), max(R.depths())
    (3, 5, 4)
    """
    target = check_int(target, "target", minimum=1, rule="a depth >= 1")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    rounds = check_int(rounds, "rounds", minimum=1, rule="a number of rounds >= 1")
    max_steps = check_int(max_steps, "max_steps", minimum=1, rule="a number of steps >= 1")
    g = as_graph(graph, "graph")
    n = int(g.n)
    check_edsts(g, trees)
    arrays, tags = family_arrays(trees)
    out = centred_trees(n, [sort_edge_rows(a) for a in arrays], tags)
    if max_evals is None:
        max_evals = max(20_000, 20_000_000 // max(n, 1))
    max_evals = check_int(max_evals, "max_evals", minimum=1, rule="a number of trial exchanges >= 1")
    anneal = check_int(anneal, "anneal", minimum=0, rule="a number of trial moves >= 0")
    if n > 2 and out and max(out.depths()) > target:
        index = graph_index(g)
        indptr, indices, eid, ids = index
        rng = np.random.default_rng(seed)
        cur = out
        for rnd in range(rounds):
            start = _rooted(cur, _round_roots(cur, rnd, rng))
            par, pe, owner, root = family_state(n, ids, start)
            s1 = int(seed) * 7919 + 104_729 * rnd
            bpar, bpe, bown, bad = repair_kernel(n, indptr, indices, eid, owner, par, pe, root, int(target), s1,
                                           int(max_steps), 3, 32, int(max_evals))[:4]
            if bad > 0 and anneal > 0:  # the greedy repair is stuck: anneal from its best state
                bpar = _anneal(n, indptr, indices, eid, bown.copy(), bpar.copy(), bpe.copy(), root, int(target),
                               s1 + 1, int(anneal), 4.0, 0.2)[0]
            rows = []
            for t in range(len(start)):
                v = np.delete(np.arange(n), int(root[t]))
                rows.append(sort_edge_rows(np.stack([bpar[t, v], v], axis=1)))
            cand = centred_trees(n, rows, tags)
            if _key(cand) < _key(out):
                out = cand
            if max(out.depths()) <= target:
                break
            cur = out
    for t in out:
        t.meta["target"] = int(target)
    check_edsts(g, out)
    return out


def deepen_search(graph: GraphLike, trees: Sequence[Any], lower_bound: int, *, seed: int = 0, rounds: int = 4,
                  max_steps: int = 400, max_evals: int | None = None, anneal: int = 1_600_000) -> EDSTSet:
    """Lower the maximum depth one level at a time with :func:`repair_to_depth`, down to ``lower_bound``.

    From the family's maximum depth ``d`` (each tree at its centre) it asks for ``d - 1`` while ``d`` is above
    ``lower_bound``, and stops at the first target missed.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        The host graph.
    trees : EDSTSet, sequence of Tree or of (n-1, 2) arrays
        Edge-disjoint spanning trees of ``graph``.
    lower_bound : int
        A depth no family of this count can beat (e.g. :func:`~starlib.edst.depth.depth_lower_bound`), ``>= 0``;
        the search never asks for less.
    seed, rounds, max_steps, max_evals, anneal
        As :func:`repair_to_depth` (per target).

    Returns
    -------
    EDSTSet
        As :func:`repair_to_depth`: the shallowest family reached, verified, with ``meta["target"]`` the last
        target reached (or the input's depth).

    Raises
    ------
    ValueError
        As :func:`repair_to_depth`, or if ``lower_bound`` is negative.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> from starlib.edst import auto_trees
    >>> from starlib.edst.depth import improve_depth
    >>> P = slimfly(8)
    >>> S = improve_depth(P, auto_trees(P))
    >>> max(S.depths()), max(deepen_search(P, S, 3).depths())
    (5, 4)
    """
    lower_bound = check_int(lower_bound, "lower_bound", minimum=0, rule="a depth >= 0")
    g = as_graph(graph, "graph")
    check_edsts(g, trees)
    arrays, tags = family_arrays(trees)
    best = centred_trees(int(g.n), [sort_edge_rows(a) for a in arrays], tags)
    d = max(best.depths()) if best else 0
    for t in best:
        t.meta["target"] = d
    while d > max(lower_bound, 1):
        cand = repair_to_depth(g, best, d - 1, seed=seed, rounds=rounds, max_steps=max_steps, max_evals=max_evals,
                               anneal=anneal)
        if max(cand.depths()) > d - 1:
            if _key(cand) < _key(best):  # same maximum depth, smaller total: keep it
                best = cand
                for t in best:
                    t.meta["target"] = d
            break
        best, d = cand, d - 1
    check_edsts(g, best)
    return best
