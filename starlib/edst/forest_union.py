"""A largest union of ``k`` edge-disjoint forests, in compiled code: greedy forests, then augmenting paths.

This is the engine of the exact generic packing (:func:`starlib.edst.packing.generic_packing`). A graph has
``k`` edge-disjoint spanning trees iff a largest union of ``k`` forests has ``k(n-1)`` edges, and the union of
``k`` forests is the ``k``-fold union of the graphic matroid, so it grows to a largest one by augmenting paths
(Edmonds' matroid partition, 1965), in three steps:

1. **Greedy forests.** The edges go each into the first forest where its ends are in different components (a
   union-find per forest), in a seeded random order from :data:`RANDOM_ORDER_LINKS` links on. On the networks
   of this project this places all but a fraction of a percent of the ``k(n-1)`` tree edges, in a few forests:
   Slim Fly MMS(49), 175,273 links and ``k = 36``, is about 400 edges short. Edges in their input order do far
   worse there (28,868 short), because a sorted edge list fills the forests region by region; on small graphs
   the input order is kept, for its shallower trees.
2. **Augmenting paths, one per missing edge.** A breadth-first search of the exchange graph starts from one
   unused edge (``batch`` of them at once if asked; one is fastest on every network measured). An edge ``x``
   is joined to the edges ``y`` of forest ``i`` on the path between the ends of ``x`` in that forest (``x``
   may replace ``y``). The search ends at the first edge that joins two components of a forest which is not
   yet a spanning tree. The path found is shortest, so applying its swaps in order keeps every forest a forest
   (Roskind and Tarjan 1985, Lemma 2), and the union gains one edge. As in Roskind and Tarjan, the edges
   labelled in each forest are contracted by a per-search union-find whose representative is the top vertex of
   a labelled subtree, so a search labels every edge at most once, and the lowest common ancestor of the two
   ends is found by two alternating walks in the contracted tree. Labels carry the search's stamp, so nothing
   is reset between searches. A search therefore costs at most ``O(m + kn)`` (with near-constant union-find
   factors) and usually far less, because it stops at the first terminal: a labelled edge is tested against
   the deficient forests as soon as it is labelled.
2b. **Phases, from :data:`PHASE_LINKS` links on.** On sparse networks with hardly more links than ``k(n-1)``
   (star and bubble-sort graphs, tori) the greedy forests leave about 3 % of the tree edges, and the last
   searches each label most of the graph: one search per missing edge grows as ``m^2`` there (``S_9``, 1.45
   million links, 60 to 100 s). A phase instead searches from every unused edge at once, as in Hopcroft and
   Karp's matching algorithm and Cunningham's phases for matroid intersection (1986): every edge is labelled by
   the first search that reaches it, and a source's search stops at its first terminal, so the others take
   over the rest of the exchange graph and one phase costs at most one pass over it. Then each terminal's path
   is applied in turn, from the terminal back to its source, with every swap checked against the forests as
   they are now (the edge must join exactly the two sides the previous cut left, so every forest keeps its
   components); a path spoilt by the ones applied before it is undone and waits for the next phase. The first
   path of a phase is a shortest one and always applies (Lemma 2 below), so every phase gains; on ``S_9`` ten
   phases place the 44,799 missing edges, the number left falling about threefold per phase. A phase that finds
   no terminal pruned nothing, so it labelled the closure of the unused edges: the union is largest. Where the
   greedy forests miss few edges (dense networks: Slim Fly MMS(49) misses 405), one search per missing edge is
   faster (0.1 s against 0.2 s there), so the phases run only where at least :data:`PHASE_MISSING` are missing.
3. **Spanned edges are skipped for good** (one search per missing edge). A search that fails labels the
   closure of its source: every forest restricted to a component of the labelled edges is a spanning tree of it
   (each labelled edge's ends are joined in every forest by labelled edges). Such a vertex set stays saturated
   while the union grows, and overlapping ones merge into one (the forests' trees on both join), so a union-find
   over the vertices keeps them, and an unused edge inside one of its sets is never searched from again.

When a search from every unused edge finds no terminal (either engine), the union is largest, and the labelled
edges (the closure of the unused ones) span, in every forest, the same vertex partition ``P``. Every edge between parts
is in the union, so ``e(P) < k(|P| - 1)`` and ``floor(e(P) / (|P| - 1))`` is an upper bound below ``k``
(Nash-Williams and Tutte): :meth:`ForestUnion.closure_partition` returns it.

Every forest is held as parent pointers (``parent[i, v]`` and the edge ``parent_edge[i, v]``) plus a
union-find of its components. A swap cuts one edge and links another (rerooting one side), in time
proportional to the depth, never rebuilding the forest. All arrays are ``k x n`` or ``m`` long, and
``k <= m/(n-1)``, so memory is linear in ``m``.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> import networkx as nx
>>> g = ArrayGraph.from_networkx(nx.complete_graph(6))
>>> fu = ForestUnion(g.n, g.edges, 3)
>>> fu.grow(), fu.sizes().tolist()
(True, [5, 5, 5])

References
----------
J. Edmonds, "Minimum partition of a matroid into independent subsets", J. Res. NBS 69B (1965) 67-72;
J. Roskind and R. E. Tarjan, "A note on finding minimum-cost edge-disjoint spanning trees", Math. Oper. Res. 10
(1985) 701-708; H. N. Gabow and H. H. Westermann, "Forests, frames, and games", Algorithmica 7 (1992) 465-497;
J. E. Hopcroft and R. M. Karp, "An n^{5/2} algorithm for maximum matchings in bipartite graphs", SIAM J. Comput.
2 (1973) 225-231; W. H. Cunningham, "Improved bounds for matroid partition and intersection algorithms", SIAM J.
Comput. 15 (1986) 948-957.
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from .._kernels import bfs_edges_jit, component_roots, find

__all__ = ["ForestUnion", "GREEDY_SEED", "PHASE_MISSING", "PHASE_LINKS", "RANDOM_ORDER_LINKS",
           "reverse_path"]

#: Seed of the greedy phase's random edge order (``numpy.random.default_rng``): fixed, so the same graph gives the
#: same forests on every machine.
GREEDY_SEED = 20_230_216

#: From this many links on, the greedy phase takes the edges in a seeded random order; below, in their input order.
#: The input order (rows ``u < v`` sorted, as starlib's graphs list them) fills the first forests around the first
#: vertices, which gives shallower trees (a factor graph's trees become the product's, so their depth shows there)
#: but leaves more edges to the augmenting paths: on Slim Fly MMS(49) 28,868 instead of about 400, 1.3 s instead
#: of 0.05 s. Below 20,000 links either order takes milliseconds.
RANDOM_ORDER_LINKS = 20_000

#: From this many links on, the augmenting paths are found in phases (one search from every unused edge at once,
#: many paths applied per search); below, one search per missing edge. Both give a largest union; the phases
#: change which one, so below this size the forests stay those the project's committed tables were made with
#: (the largest network there has 102,700 links). On sparse networks the phases are far faster: the star graph
#: ``S_9`` in ~8 s instead of 60-100 s.
PHASE_LINKS = 120_000

#: ... and where the greedy forests miss at least this many tree edges: sparse networks, 10,932 on the torus
#: ``C_48^3`` and 92,454 on the star graph ``S_10`` (0.6 % of its tree edges, but one search each would take
#: hours). Dense networks miss fewer (405 on Slim Fly MMS(49), 1,002 on MMS(73), 1,394 on ER_81), and one search
#: per missing edge places those faster than a phase labels the graph (MMS(49): 0.1 s against 0.2 s).
PHASE_MISSING = 5_000


@numba.njit(cache=True)
def _empty_forests(n, m, k):  # pragma: no cover - compiled
    """``k`` forests without edges: union-find rows (every vertex its own root) with their ranks, no owner,
    size 0."""
    uf = np.empty((k, n), np.int64)
    for i in range(k):
        for v in range(n):
            uf[i, v] = v
    return uf, np.zeros((k, n), np.int8), np.full(m, -1, np.int64), np.zeros(k, np.int64)


@numba.njit(cache=True, inline="always")
def _union(uf, rank, i, ra, rb):  # pragma: no cover - compiled
    """Join the roots ``ra != rb`` of forest ``i``'s union-find by rank (the forests do not depend on it; the
    finds of the greedy phase get shorter: half the time on a torus of six million links)."""
    if rank[i, ra] < rank[i, rb]:
        uf[i, ra] = rb
    elif rank[i, ra] > rank[i, rb]:
        uf[i, rb] = ra
    else:
        uf[i, ra] = rb
        rank[i, rb] += 1


@numba.njit(cache=True)
def _first_fit(n, eu, ev, k, order):  # pragma: no cover - compiled
    """Greedy forests: each edge in ``order`` goes into the first forest where it joins two components."""
    uf, rank, owner, size = _empty_forests(n, eu.shape[0], k)
    _fit_rest(uf, rank, owner, size, eu, ev, k, order)
    return owner, size, uf


@numba.njit(cache=True)
def _fit_rest(uf, rank, owner, size, eu, ev, k, order):  # pragma: no cover - compiled
    """Each edge in ``order`` that no forest owns yet goes into the first forest where it joins two components
    (``uf``, ``rank``, ``owner`` and ``size`` updated in place)."""
    for t in range(order.shape[0]):
        e = order[t]
        if owner[e] >= 0:
            continue
        for i in range(k):
            ra = find(uf[i], eu[e])
            rb = find(uf[i], ev[e])
            if ra != rb:
                _union(uf, rank, i, ra, rb)
                owner[e] = i
                size[i] += 1
                break


@numba.njit(cache=True)
def _warm_fit(n, eu, ev, k, order, start):  # pragma: no cover - compiled
    """Greedy forests from a start: the edges with ``start[e] = i >= 0`` go into forest ``i`` first, then every
    other edge in ``order`` into the first forest where it joins two components. Returns ``(owner, size, uf, bad)``,
    ``bad`` the first start edge that closes a cycle in its forest (``-1``: none)."""
    m = eu.shape[0]
    uf, rank, owner, size = _empty_forests(n, m, k)
    for e in range(m):
        i = start[e]
        if i >= 0:
            ra = find(uf[i], eu[e])
            rb = find(uf[i], ev[e])
            if ra == rb:
                return owner, size, uf, e
            _union(uf, rank, i, ra, rb)
            owner[e] = i
            size[i] += 1
    _fit_rest(uf, rank, owner, size, eu, ev, k, order)
    return owner, size, uf, -1


@numba.njit(cache=True)
def _forest_parents(n, eu, ev, owner, k):  # pragma: no cover - compiled
    """Parent pointers of every forest (a breadth-first forest from the smallest vertex of each component)."""
    m = eu.shape[0]
    start = np.zeros(k + 1, np.int64)
    for e in range(m):
        if owner[e] >= 0:
            start[owner[e] + 1] += 1
    for i in range(k):
        start[i + 1] += start[i]
    ids = np.empty(start[k], np.int64)
    fill = start[:-1].copy()
    for e in range(m):
        i = owner[e]
        if i >= 0:
            ids[fill[i]] = e
            fill[i] += 1
    par = np.full((k, n), -1, np.int64)
    pedge = np.full((k, n), -1, np.int64)
    none = np.zeros(0, np.int64)
    for i in range(k):
        sel = ids[start[i]:start[i + 1]]
        rows = np.empty((sel.shape[0], 2), np.int64)
        for j in range(sel.shape[0]):
            rows[j, 0] = eu[sel[j]]
            rows[j, 1] = ev[sel[j]]
        _, parent, prow, _ = bfs_edges_jit(n, rows, none)
        for v in range(n):
            par[i, v] = parent[v]
            if prow[v] >= 0:
                pedge[i, v] = sel[prow[v]]
    return par, pedge


@numba.njit(cache=True)
def _cfind(cc, stamp, i, x):  # pragma: no cover - compiled
    """Top of the labelled chain above ``x`` in forest ``i``; entries with an old stamp count as singletons.
    ``cc[x, i]`` holds the chain pointer and its stamp side by side (one cache line for all forests of ``x``)."""
    if cc[x, i, 1] != stamp:
        cc[x, i, 1] = stamp
        cc[x, i, 0] = x
        return x
    r = x
    while cc[r, i, 0] != r:
        r = cc[r, i, 0]
        if cc[r, i, 1] != stamp:
            cc[r, i, 1] = stamp
            cc[r, i, 0] = r
    while cc[x, i, 0] != r:
        nxt = cc[x, i, 0]
        cc[x, i, 0] = r
        x = nxt
    return r


@numba.njit(cache=True, inline="always")
def _walk_up(cc, stamp, i, par, mark, w, own, other):  # pragma: no cover - compiled
    """One step of a lowest-common-ancestor walk in the contracted forest ``i``: from ``w`` to its contracted
    parent, marked ``own``. Returns ``(w, moved, met)``: the new position, whether ``w`` had a parent, and whether
    the other walk (mark ``other``) had been there (then it is the lowest common ancestor)."""
    p = par[i, w]
    if p < 0:
        return w, False, False
    w = _cfind(cc, stamp, i, p)
    if mark[w] == other:
        return w, True, True
    mark[w] = own
    return w, True, False


@numba.njit(cache=True)
def _deficient(n, k, size):  # pragma: no cover - compiled
    """The forests that are not yet spanning trees: ``(defs, ndef)``, their indices in ``defs[:ndef]``."""
    defs = np.empty(k, np.int64)
    ndef = 0
    for i in range(k):
        if size[i] < n - 1:
            defs[ndef] = i
            ndef += 1
    return defs, ndef


@numba.njit(cache=True, inline="always")
def _contracted_lca(cc, stamp, i, par, mark, state, ta, tb):  # pragma: no cover - compiled
    """The lowest common ancestor of ``ta`` and ``tb`` in forest ``i`` with its labelled chains contracted: two
    walks, one step each in turn, marking (:func:`_walk_up`); ``-1`` if they end in two trees."""
    state[1] += 1
    q0 = 2 * state[1]
    q1 = q0 + 1
    u = ta
    v = tb
    mark[u] = q0
    mark[v] = q1
    while True:
        u, moved_u, met = _walk_up(cc, stamp, i, par, mark, u, q0, q1)
        if met:
            return u
        v, moved_v, met = _walk_up(cc, stamp, i, par, mark, v, q1, q0)
        if met:
            return v
        if not moved_u and not moved_v:
            return -1


@numba.njit(cache=True)
def _search(n, eu, ev, k, owner, size, uf, par, pedge, sources, label, lst, queue, cc, mark,
            state):  # pragma: no cover - compiled
    """One breadth-first search of the exchange graph from the unused edges ``sources`` at once.

    Returns ``(x, i, labelled)``: the terminal edge ``x`` and the forest ``i`` it joins (``label`` leads back to
    a source), ``(-2, -1, 0)`` when every forest is already spanning, ``(-1, -1, labelled)`` when there is no
    augmenting path (``lst[e] == state[0]`` marks the closure of the sources, ``queue[:labelled]`` lists it).
    """
    state[0] += 1
    stamp = state[0]
    defs, ndef = _deficient(n, k, size)
    if ndef == 0:
        return -2, -1, 0
    t = 0
    for s in range(sources.shape[0]):
        e = sources[s]
        label[e] = -1
        lst[e] = stamp
        queue[t] = e
        t += 1
        for d in range(ndef):
            j = defs[d]
            if find(uf[j], eu[e]) != find(uf[j], ev[e]):
                return e, j, t
    h = 0
    while h < t:
        x = queue[h]
        h += 1
        a = eu[x]
        b = ev[x]
        ox = owner[x]
        for i in range(k):
            if i == ox:
                continue
            ta = _cfind(cc, stamp, i, a)
            tb = _cfind(cc, stamp, i, b)
            if ta == tb:
                continue
            lca = _contracted_lca(cc, stamp, i, par, mark, state, ta, tb)
            if lca < 0:  # ends in two components: impossible for an edge dependent in forest i
                return -3, i, t
            for side in range(2):
                w = ta if side == 0 else tb
                while w != lca:
                    y = pedge[i, w]
                    p = par[i, w]
                    label[y] = x
                    lst[y] = stamp
                    queue[t] = y
                    t += 1
                    cc[w, i, 0] = p
                    for d in range(ndef):
                        j = defs[d]
                        if j != i and find(uf[j], eu[y]) != find(uf[j], ev[y]):
                            return y, j, t
                    w = _cfind(cc, stamp, i, p)
    return -1, -1, t


@numba.njit(cache=True)
def reverse_path(t, v, stop, prev, prev_e, par, pe):  # pragma: no cover - compiled
    """Tree ``t`` of the ``(k, n)`` parent arrays ``par`` (vertex) and ``pe`` (edge id): reverse the parent
    pointers on the path from ``v`` up to ``stop`` (excluded; ``-1``: up to the root), ``v`` taking the parent
    ``prev`` by edge ``prev_e``. Every vertex of the path then hangs from the one below it (with
    ``stop = prev = prev_e = -1``: ``v`` becomes the root of its tree). Compiled, for numba callers: the re-rooting
    of this module's swaps and the moves of the local search (:mod:`starlib.edst.depth`)."""
    cur = v
    while cur != stop:
        nxt = par[t, cur]
        nxt_e = pe[t, cur]
        par[t, cur] = prev
        pe[t, cur] = prev_e
        prev = cur
        prev_e = nxt_e
        cur = nxt


@numba.njit(cache=True)
def _tree_root(par, i, v):  # pragma: no cover - compiled
    while par[i, v] >= 0:
        v = par[i, v]
    return v


@numba.njit(cache=True)
def _cut(par, pedge, i, e, eu, ev):  # pragma: no cover - compiled
    """Cut edge ``e`` from forest ``i``; returns its lower end, now the root of its side."""
    a = eu[e]
    if pedge[i, a] != e:
        a = ev[e]
    par[i, a] = -1
    pedge[i, a] = -1
    return a


@numba.njit(cache=True)
def _hang(par, pedge, i, e, a, b):  # pragma: no cover - compiled
    """Link edge ``e = (a, b)`` into forest ``i``, ``a``'s tree rerooted at ``a`` and hung below ``b`` (the caller
    knows the two ends lie in different trees)."""
    reverse_path(i, a, -1, -1, -1, par, pedge)
    par[i, a] = b
    pedge[i, a] = e


@numba.njit(cache=True)
def _link(par, pedge, i, e, eu, ev):  # pragma: no cover - compiled
    """Join the two trees of forest ``i`` holding the ends of ``e``; False if they are one tree."""
    a = eu[e]
    b = ev[e]
    if _tree_root(par, i, a) == _tree_root(par, i, b):
        return False
    _hang(par, pedge, i, e, a, b)
    return True


@numba.njit(cache=True)
def _apply(eu, ev, owner, size, uf, par, pedge, label, x, i):  # pragma: no cover - compiled
    """Apply the augmenting path ending with ``x`` joining forest ``i``; False if a swap is not valid."""
    target = i
    cur = x
    first = True
    while cur >= 0:
        old = owner[cur]
        if old >= 0:
            _cut(par, pedge, old, cur, eu, ev)
            size[old] -= 1
        if not _link(par, pedge, target, cur, eu, ev):
            return False
        if first:  # the only step that joins two components
            ra = find(uf[target], eu[cur])
            rb = find(uf[target], ev[cur])
            uf[target, ra] = rb
            first = False
        owner[cur] = target
        size[target] += 1
        cur = label[cur]
        target = old
    return True


@numba.njit(cache=True)
def _augment(n, eu, ev, k, owner, size, uf, par, pedge, todo, pos, tight, batch, label, lst, queue, cc, mark,
             state, limit):  # pragma: no cover - compiled
    """Up to ``limit`` augmentations from the unused edges ``todo[pos[0]:]``, ``batch`` sources per search.

    An edge with both ends in one component of ``tight`` is spanned by the union (it lies inside a vertex set
    on which every forest is already a spanning tree) and is skipped. A search that fails adds its labelled
    edges to ``tight``: their components are such sets. Returns ``(done, status)``: status 0 every forest
    spans, 1 ``limit`` reached, 2 no unused edge left to try (the union is largest), 3 a swap was not valid.
    """
    done = 0
    sources = np.empty(max(batch, 1), np.int64)
    while done < limit:
        full = True
        for i in range(k):
            if size[i] < n - 1:
                full = False
        if full:
            return done, 0
        ns = 0
        p = pos[0]
        while p < todo.shape[0] and ns < batch:
            e = todo[p]
            if owner[e] < 0 and find(tight, eu[e]) != find(tight, ev[e]):
                sources[ns] = e
                ns += 1
            elif ns == 0:
                pos[0] = p + 1  # used, or spanned for good: never a source again
            p += 1
        if ns == 0:
            return done, 2
        x, i, t = _search(n, eu, ev, k, owner, size, uf, par, pedge, sources[:ns], label, lst, queue, cc,
                          mark, state)
        if x == -1:
            for j in range(t):
                y = queue[j]
                ra = find(tight, eu[y])
                rb = find(tight, ev[y])
                if ra != rb:
                    tight[ra] = rb
            continue
        if x < 0 or not _apply(eu, ev, owner, size, uf, par, pedge, label, x, i):
            return done, 3
        done += 1
    return done, 1


@numba.njit(cache=True)
def _phase(n, ends, k, owner, size, uf, par, pedge, sources, ls, queue, cc, mark, state, sat, comp, term_e,
           term_f):  # pragma: no cover - compiled
    """One phase: a breadth-first search of the exchange graph from every unused edge ``sources`` at once, each
    source's search stopping at its first terminal.

    As :func:`_search`, every edge is labelled at most once, by the first search that reaches it, and the edges
    labelled in a forest are contracted. A labelled edge ``y`` carries its label (``ls[y, 0]``, the edge that
    labelled it; ``-1`` at a source) and its source (``ls[y, 1]``, an index into ``sources``); once a source's
    search has found a terminal (``sat``), its labelled edges are not expanded further, so the other searches take
    over the rest of the exchange graph. Returns ``(t, nt)``: ``queue[:t]`` the labelled edges, ``term_e[:nt]``
    the terminals (at most one per source, in the order found) and ``term_f`` the forest each one joins. With
    ``nt == 0`` nothing was pruned, and ``queue[:t]`` is the closure of the unused edges. ``(-2, 0)``: every forest
    already spans; ``(-3, 0)``: an inconsistent forest (a bug).
    """
    state[0] += 1
    stamp = state[0]
    defs, ndef = _deficient(n, k, size)
    if ndef == 0:
        return -2, 0
    for v in range(n):  # the components of the deficient forests, one row per vertex (no augmentation in a search)
        for d in range(ndef):
            comp[v, d] = find(uf[defs[d]], v)
    nt = 0
    t = 0
    for s in range(sources.shape[0]):
        e = sources[s]
        ls[e, 0] = -1
        ls[e, 1] = s
        sat[s] = False
        queue[t] = e
        t += 1
        for d in range(ndef):
            if comp[ends[e, 0], d] != comp[ends[e, 1], d]:
                term_e[nt] = e
                term_f[nt] = defs[d]
                nt += 1
                sat[s] = True
                break
    h = 0
    while h < t:
        x = queue[h]
        h += 1
        sx = ls[x, 1]
        if sat[sx]:
            continue
        a = ends[x, 0]
        b = ends[x, 1]
        ox = owner[x]
        for i in range(k):
            if i == ox or sat[sx]:
                continue
            ta = _cfind(cc, stamp, i, a)
            tb = _cfind(cc, stamp, i, b)
            if ta == tb:
                continue
            lca = _contracted_lca(cc, stamp, i, par, mark, state, ta, tb)
            if lca < 0:  # ends in two components: impossible for an edge dependent in forest i
                return -3, 0
            for side in range(2):
                w = ta if side == 0 else tb
                while w != lca:
                    y = pedge[i, w]
                    p = par[i, w]
                    ls[y, 0] = x
                    ls[y, 1] = sx
                    queue[t] = y
                    t += 1
                    cc[w, i, 0] = p
                    if not sat[sx]:
                        ya = ends[y, 0]
                        yb = ends[y, 1]
                        for d in range(ndef):
                            if defs[d] != i and comp[ya, d] != comp[yb, d]:
                                term_e[nt] = y
                                term_f[nt] = defs[d]
                                nt += 1
                                sat[sx] = True
                                break
                    w = _cfind(cc, stamp, i, p)
    return t, nt


@numba.njit(cache=True)
def _first_root(par, i, a, b):  # pragma: no cover - compiled
    """Walk up from ``a`` and ``b`` in forest ``i``, one step each in turn, until one of them is at its tree's
    root; returns ``(0 or 1, the root, where the other walk stands)``: 0 if ``a`` got there first. Costs about
    twice the smaller of the two depths."""
    while True:
        if par[i, a] < 0:
            return 0, a, b
        a = par[i, a]
        if par[i, b] < 0:
            return 1, b, a
        b = par[i, b]


@numba.njit(cache=True)
def _meets(par, i, u, w, mark, q):  # pragma: no cover - compiled
    """Whether ``u`` and ``w`` lie in one tree of forest ``i``: two walks up, one step each in turn, marking their
    vertices ``q`` and ``q + 1``, until one steps on the other's mark (yes) or both stand at roots (no). Costs about
    twice the length of the path between them, not the depth of the tree."""
    if u == w:
        return True
    mark[u] = q
    mark[w] = q + 1
    while True:
        pu = par[i, u]
        if pu >= 0:
            u = pu
            if mark[u] == q + 1:
                return True
            mark[u] = q
        pw = par[i, w]
        if pw >= 0:
            w = pw
            if mark[w] == q:
                return True
            mark[w] = q + 1
        if pu < 0 and pw < 0:
            return False


@numba.njit(cache=True)
def _try_path(eu, ev, owner, size, uf, par, pedge, ls, x, j, moved, mfrom, mark,
              state):  # pragma: no cover - compiled
    """Apply the labelled path that ends with ``x`` joining forest ``j``, checking every swap against the forests
    as they are now; undo it if a swap fails. Returns whether the union gained an edge.

    From the terminal back to the source, each edge moves into the forest the previous one left: ``x`` into
    ``j`` (it must still join two components there), then each label ``y`` into the forest of the edge ``z`` it
    labelled, where it must join exactly the two sides that cutting ``z`` left (one end below the cut, whose
    side is rerooted, and the other in one tree with ``z``'s upper end), so every forest keeps its components.
    The first path of a phase always passes (its search had no shortcut: Roskind and Tarjan's Lemma 2); a later
    one may have been spoilt by the paths applied before it, and is then undone. The walks that check a swap
    start at its ends and stop as soon as they can decide, so a swap costs about the depth of the side it
    reroots plus the distance between the two upper ends, not the depth of the trees.
    """
    ra = find(uf[j], eu[x])
    rb = find(uf[j], ev[x])
    if ra == rb:
        return False
    nm = 0
    target = j
    cur = x
    ok = True
    side = -1  # the root of the lower side of the edge just cut from ``target``
    other = -1  # its upper end
    while cur >= 0:
        a = eu[cur]
        b = ev[cur]
        if side < 0:  # the terminal joins two trees of forest j: reroot the shallower one
            first, _, _ = _first_root(par, target, a, b)
            if first == 1:
                a, b = b, a
        else:
            first, r, w = _first_root(par, target, a, b)
            if first == 1:
                a, b = b, a  # a: the end whose walk reached a root first; w: where b's walk stands
            state[1] += 1
            q = 2 * state[1]
            if r == side:  # a is below the cut: b must be in one tree with the upper end
                good = _meets(par, target, other, w, mark, q)
            else:  # a is above the cut (with the upper end?); then b must be below it
                good = _meets(par, target, a, other, mark, q) and _tree_root(par, target, w) == side
                a, b = b, a
            if not good:
                ok = False
                break
        old = owner[cur]
        nxt = ls[cur, 0]
        if (old >= 0) != (nxt >= 0):  # a source already used, or a used edge without a label: spoilt
            ok = False
            break
        if old >= 0:
            ch = _cut(par, pedge, old, cur, eu, ev)
        _hang(par, pedge, target, cur, a, b)  # a: the end on the side to reroot
        owner[cur] = target
        moved[nm] = cur
        mfrom[nm] = old
        nm += 1
        if old >= 0:
            side = ch
            other = ev[cur] if eu[cur] == ch else eu[cur]
        cur = nxt
        target = old
    if ok:
        uf[j, ra] = rb
        size[j] += 1
        return True
    for q in range(nm - 1, -1, -1):  # undo: every forest back to its edge set before this path
        e = moved[q]
        _cut(par, pedge, owner[e], e, eu, ev)
        if mfrom[q] >= 0:
            _hang(par, pedge, mfrom[q], e, eu[e], ev[e])
        owner[e] = mfrom[q]
    return False


@numba.njit(cache=True)
def _apply_phase(eu, ev, owner, size, uf, par, pedge, ls, term_e, term_f, nt, moved, mfrom, mark,
                 state):  # pragma: no cover - compiled
    """Every terminal path of a phase in turn (:func:`_try_path`, ``moved`` and ``mfrom`` its scratch arrays of
    ``m + 1`` entries); returns how many were applied."""
    got = 0
    for q in range(nt):
        if _try_path(eu, ev, owner, size, uf, par, pedge, ls, term_e[q], term_f[q], moved, mfrom, mark, state):
            got += 1
    return got


@numba.njit(cache=True)
def _unused_sources(owner, todo):  # pragma: no cover - compiled
    """Keep in ``todo`` (in place, in order) the edges still unused; returns their number."""
    ns = 0
    for p in range(todo.shape[0]):
        e = todo[p]
        if owner[e] < 0:
            todo[ns] = e
            ns += 1
    return ns


class ForestUnion:
    """``k`` edge-disjoint forests of a graph, grown to a largest union (see the module text).

    Parameters
    ----------
    n : int
        Number of vertices.
    edges : ndarray
        ``(m, 2)`` integer edge list, no loops; edges are referred to by row.
    k : int
        Number of forests.
    seed : int
        Seed of the greedy phase's random edge order (default :data:`GREEDY_SEED`).
    batch : int
        Unused edges a search starts from at once (default 1, Roskind and Tarjan's; 8, 64 and all of them were
        slower on every network measured, up to 6 times on the star graph ``S_8``).
    order : str
        ``"random"`` (seeded), ``"input"`` (the rows as given) or ``"auto"``: random from
        :data:`RANDOM_ORDER_LINKS` links on, input order below.
    engine : str
        ``"phases"`` (step 2b), ``"paths"`` (one search per missing edge, step 2) or ``"auto"``: phases from
        :data:`PHASE_LINKS` links on where the greedy forests miss at least :data:`PHASE_MISSING` tree edges.
        Both reach a largest union; its size never depends on the engine.
    start : ndarray, optional
        A warm start: ``start[e]`` the forest (``0..k-1``) edge ``e`` begins in, ``-1`` for none; each forest's
        start edges must be acyclic. They are placed first, the other edges then go greedily as above, and the
        augmenting paths continue from there (``starlib.edst.repair`` repacks a damaged network from its
        surviving trees this way). Without it (the default) the greedy phase is the cold one above, unchanged.

    Example
    -------
    >>> fu = ForestUnion(4, np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]]), 2)
    >>> fu.grow(), fu.sizes().tolist()
    (False, [3, 2])
    >>> fu.closure_partition().tolist()  # every edge is used: the parts are single vertices, floor(5/3) = 1 < 2
    [0, 1, 2, 3]
    """

    def __init__(self, n: int, edges: np.ndarray, k: int, seed: int = GREEDY_SEED, batch: int = 1,
                 order: str = "auto", start: np.ndarray | None = None, engine: str = "auto") -> None:
        e = np.ascontiguousarray(np.asarray(edges, dtype=np.int64).reshape(-1, 2))
        self.n, self.k, self.m = int(n), int(k), int(e.shape[0])
        self.edges = e
        self.eu = np.ascontiguousarray(e[:, 0])
        self.ev = np.ascontiguousarray(e[:, 1])
        if order not in ("auto", "random", "input"):
            raise ValueError(f"order={order!r} must be 'auto', 'random' or 'input'")
        if engine not in ("auto", "phases", "paths"):
            raise ValueError(f"engine={engine!r} must be 'auto', 'phases' or 'paths'")
        if order == "random" or (order == "auto" and self.m >= RANDOM_ORDER_LINKS):
            self.order = np.random.default_rng(seed).permutation(self.m).astype(np.int64)
        else:
            self.order = np.arange(self.m, dtype=np.int64)
        self.batch = int(batch)
        if start is None:
            self.owner, self.size, self.uf = _first_fit(self.n, self.eu, self.ev, self.k, self.order)
        else:
            st = np.ascontiguousarray(np.asarray(start, dtype=np.int64).reshape(-1))
            if st.shape[0] != self.m or (st.size and (st.min() < -1 or st.max() >= self.k)):
                raise ValueError(f"start: need one forest index in -1..{self.k - 1} per edge ({self.m} edges), got "
                                 f"{st.shape[0]} values in {int(st.min()) if st.size else 0}.."
                                 f"{int(st.max()) if st.size else 0}")
            self.owner, self.size, self.uf, bad = _warm_fit(self.n, self.eu, self.ev, self.k, self.order, st)
            if bad >= 0:
                raise ValueError(f"start: edge {bad} ({int(self.eu[bad])}, {int(self.ev[bad])}) closes a cycle in "
                                 f"start forest {int(st[bad])}; each forest's start edges must be acyclic")
        #: the start forest each forest began as (its index at construction), followed through :meth:`keep`
        self.origin = np.arange(self.k, dtype=np.int64)
        self.parent, self.parent_edge = _forest_parents(self.n, self.eu, self.ev, self.owner, self.k)
        self.greedy_edges = int(self.size.sum())
        missing = self.k * (self.n - 1) - self.greedy_edges
        #: how the augmenting paths are found: ``"phases"`` or ``"paths"`` (one search per missing edge)
        self.engine = engine if engine != "auto" else (
            "phases" if self.m >= PHASE_LINKS and missing >= PHASE_MISSING else "paths")
        self._work()

    def _work(self) -> None:
        self._todo = self.order[self.owner[self.order] < 0]
        self._pos = np.zeros(1, np.int64)
        self._tight = np.arange(self.n, dtype=np.int64)
        self._label = np.full(self.m, -2, np.int64)
        self._lst = np.zeros(self.m, np.int64)
        self._queue = np.empty(self.m, np.int64)
        self._cc = np.zeros((self.n, self.k, 2), np.int64)
        self._mark = np.zeros(self.n, np.int64)
        self._state = np.zeros(2, np.int64)
        self.stuck = False
        #: phases run so far by the ``"phases"`` engine
        self.phases = 0

    def sizes(self) -> np.ndarray:
        """Edges in each forest."""
        return self.size.copy()

    def grow(self, progress: Callable[[int, int], None] | None = None) -> bool:
        """Augment until every forest spans (True) or the union is largest (False).

        ``progress(placed, wanted)`` is called between batches of augmentations (about 50 calls in all; after
        every phase with the ``"phases"`` engine).
        """
        if self.engine == "phases":
            return self._grow_phases(progress)
        wanted = self.k * (self.n - 1)
        chunk = max(1, (wanted - int(self.size.sum())) // 50)
        while True:
            _, status = _augment(self.n, self.eu, self.ev, self.k, self.owner, self.size, self.uf, self.parent,
                                 self.parent_edge, self._todo, self._pos, self._tight, self.batch, self._label,
                                 self._lst, self._queue, self._cc, self._mark, self._state, chunk)
            if status == 3:  # pragma: no cover - would contradict Roskind and Tarjan's Lemma 2
                raise RuntimeError("ForestUnion.grow: an augmenting path did not keep the forests acyclic")
            if progress is not None:
                progress(int(self.size.sum()), wanted)
            if status != 1:
                self.stuck = status == 2
                return status == 0

    def _grow_phases(self, progress: Callable[[int, int], None] | None) -> bool:
        """:meth:`grow` by phases (the module text, step 2b)."""
        wanted = self.k * (self.n - 1)
        todo = self._todo.copy()
        ls = np.empty((self.m, 2), np.int64)
        sat = np.zeros(self.m, np.bool_)
        comp = np.empty((self.n, self.k), np.int64)
        term_e = np.empty(self.m, np.int64)
        term_f = np.empty(self.m, np.int64)
        moved = np.empty(self.m + 1, np.int64)
        mfrom = np.empty(self.m + 1, np.int64)
        while True:
            ns = _unused_sources(self.owner, todo)
            todo = todo[:ns]
            if ns == 0:  # every edge is in the union: it is largest (and spans iff the sizes say so)
                self.stuck = bool(self.size.sum() < wanted)
                return not self.stuck
            t, nt = _phase(self.n, self.edges, self.k, self.owner, self.size, self.uf, self.parent, self.parent_edge,
                           todo, ls, self._queue, self._cc, self._mark, self._state, sat, comp, term_e, term_f)
            if t == -2:
                return True
            if t == -3:  # pragma: no cover - an edge dependent in a forest has its ends in one tree
                raise RuntimeError("ForestUnion.grow: a forest does not hold the ends of a dependent edge together")
            if nt == 0:
                self.stuck = True
                return False
            got = _apply_phase(self.eu, self.ev, self.owner, self.size, self.uf, self.parent, self.parent_edge, ls,
                               term_e, term_f, nt, moved, mfrom, self._mark, self._state)
            if got == 0:  # pragma: no cover - would contradict Roskind and Tarjan's Lemma 2 (the first path)
                raise RuntimeError("ForestUnion.grow: no augmenting path of a phase could be applied")
            self.phases += 1
            if progress is not None:
                progress(int(self.size.sum()), wanted)

    def closure_partition(self) -> np.ndarray:
        """After :meth:`grow` returned False: the vertex partition spanned by the closure of the unused edges.

        ``parts[v]`` numbers the parts ``0, 1, ...`` in order of their smallest vertex. Its Nash-Williams bound
        (:func:`~starlib.edst.packing.partition_bound`) is below ``k``.
        """
        if not self.stuck:
            raise RuntimeError("closure_partition: the union is not known to be largest; call grow() first")
        x, _, t = _search(self.n, self.eu, self.ev, self.k, self.owner, self.size, self.uf, self.parent,
                          self.parent_edge, self.unused(), self._label, self._lst, self._queue, self._cc,
                          self._mark, self._state)
        if x != -1:  # pragma: no cover - grow() found no augmenting path from any unused edge
            raise RuntimeError("closure_partition: an unused edge can still join the union")
        ids = self._queue[:t]
        roots = component_roots(self.n, self.edges[ids])
        _, first, parts = np.unique(roots, return_index=True, return_inverse=True)
        rank = np.empty(first.shape[0], np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0])
        return rank[parts.reshape(-1)]

    def keep(self, k: int) -> None:
        """Keep the ``k`` largest forests (ties: the lower index) and release the others' edges."""
        order = np.argsort(-self.size, kind="stable")[:k]
        kept = np.sort(order)
        new_index = np.full(self.k, -1, np.int64)
        new_index[kept] = np.arange(k)
        self.owner = np.where(self.owner >= 0, new_index[np.maximum(self.owner, 0)], -1).astype(np.int64)
        self.size = np.ascontiguousarray(self.size[kept])
        self.uf = np.ascontiguousarray(self.uf[kept])
        self.parent = np.ascontiguousarray(self.parent[kept])
        self.parent_edge = np.ascontiguousarray(self.parent_edge[kept])
        self.origin = self.origin[kept]
        self.k = int(k)
        self._work()

    def forest(self, i: int) -> np.ndarray:
        """Forest ``i`` as an ``(size, 2)`` edge array, rows in edge order."""
        return self.edges[self.owner == i]

    def forests(self) -> list[np.ndarray]:
        """Every forest as by :meth:`forest` (rows in edge order), from one stable sort of the owners."""
        small = self.owner.astype(np.int16) if self.k < 32_000 else self.owner  # a radix sort for small keys
        order = np.argsort(small, kind="stable")
        bounds = np.searchsorted(self.owner[order], np.arange(self.k + 1))
        return [self.edges[order[bounds[i]:bounds[i + 1]]] for i in range(self.k)]

    def unused(self) -> np.ndarray:
        """Row ids of the edges in no forest."""
        return np.flatnonzero(self.owner < 0)
