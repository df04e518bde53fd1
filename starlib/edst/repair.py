"""Repair a family of edge-disjoint spanning trees after link failures: the new maximum, certified, kept shallow.

Given a network, its EDSTs and a few failed links, :func:`repair_edsts` returns a maximum EDST family of the
damaged network (the failed links removed), starting from what survived rather than from scratch:

1. **Intact trees stay.** A tree that lost no link is kept as it is (same edges, root and tag).
2. **Cut subtrees are reattached near the root.** A damaged tree becomes a forest: the part that still holds the
   root, and the subtrees the failures cut off. Each cut subtree ``C`` is joined back by a link in no tree
   (``N``, the unused links) from a vertex ``u`` still reached from the root to a vertex ``w`` of ``C``, the one
   of least resulting depth ``depth(u) + 1 + ecc_C(w)`` (``ecc_C`` the eccentricity inside ``C``: three
   breadth-first searches per forest), ties to the lower link; subtrees cut behind other cut subtrees follow in
   later rounds. This is cheap (a few searches of the forest and a scan of ``N``) and keeps the root. When no
   unused link crosses, one exchange is tried (an augmenting path of length two): a link ``c`` of another
   spanning tree ``S`` that joins the root part to a cut part moves to the damaged tree, if an unused link
   reconnects ``S - c`` (candidates by the depth of their root-side end, at most 256).
3. **Augmenting repack when needed.** If a forest cannot be reconnected from ``N``, or the trees now fewer than
   the damaged network's bound ``min(floor(m/(n-1)), minimum degree)``, the exact matroid-partition packer
   (:func:`~starlib.edst.packing.generic_packing`) continues from the surviving forests (its warm ``start``): its
   augmenting paths swap links between trees until every forest spans, or stop with a Nash-Williams partition
   whose bound equals the count. The count returned is then the new maximum, with that certificate. A vertex
   whose degree equals the count that loses a link, or ``m < k(n-1)`` after the failures, lowers the maximum;
   the largest forests (the intact trees first) are the ones kept. The packer may also move links of intact
   trees; trees it changed are rooted at their centre and tagged ``"+repair"``.
4. **Optionally the full depth search** (``deep=True``): :func:`~starlib.edst.depth.improve_depth` on the whole
   family (the count is kept; every tree re-rooted at its centre, tags ``"+ls"``).

Failures that disconnect the network leave no spanning tree: the count is 0, certified by the components (a
partition with no crossing link). The result is verified (:func:`~starlib.edst.verify.check_edsts`) before it is
returned.

Links are named on the command line as ``U-V`` (:func:`parse_link`): the two vertex labels as the network file
writes them, joined by ``-``: ``a-b`` for an edge list, ``3-17`` for integer ids, ``[[0,1],2]-[[1,1],0]`` for the
nested labels of a starlib JSON file (the JSON text of each label; spaces are ignored and ``(``, ``)`` read as
``[``, ``]``). A split at a ``-`` inside a label is tried too; a text that names two vertices in more than one way
is refused.

Example
-------
>>> import networkx as nx
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst import generic_packing
>>> G = ArrayGraph.from_networkx(nx.complete_graph(6))
>>> T = generic_packing(G).trees
>>> r = repair_edsts(G, T, np.array([[0, 1]]))
>>> r.count_before, r.count_after, r.upper_bound, r.bound_kind    # K_6 less a link: floor(14 / 5) = 2
(3, 2, 2, 'edges')

References
----------
J. Roskind and R. E. Tarjan, "A note on finding minimum-cost edge-disjoint spanning trees", Math. Oper. Res. 10
(1985) 701-708 (the augmenting paths); C. St. J. A. Nash-Williams (1961) and W. T. Tutte (1961) (the bound).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from .._kernels import bfs_edges, component_roots
from ..graphs import ArrayGraph, GraphLike, as_graph, jsonable
from .depth import improve_depth
from .packing import generic_packing
from .trees import EDSTSet, Tree, tree_center
from .verify import check_edsts

__all__ = ["Repair", "repair_edsts", "parse_link", "link_text", "label_index"]


@dataclass
class Repair:
    """A repaired EDST family of a damaged network, with what changed and the certificate of its count.

    Attributes
    ----------
    graph : the damaged network (the failed links removed; same vertices and labels).
    trees : the repaired family (verified), trees in the order of the input family that they come from.
    failed : ``(f, 2)`` the failed links as vertex indices (rows ``u < v``).
    count_before, count_after : trees before and after.
    depth_before, depth_after : the deepest tree before and after (``0`` when there is no tree).
    damaged : indices (in the input family) of the trees that lost a link.
    reattached : cut subtrees joined back by an unused link (step 2).
    exchanged : cut parts joined back by a link of another tree, that tree reconnected by an unused link (step 2).
    repacked : whether the augmenting packer ran (step 3).
    kept : input trees found unchanged in the result.
    upper_bound : a proven upper bound on the EDSTs of the damaged network, equal to ``count_after``.
    bound_kind : ``"edges"``, ``"degree"``, ``"partition"`` (Nash-Williams) or ``"disconnected"``.
    certificate : the vertex partition of the bound (``parts[v]``).
    """

    graph: ArrayGraph
    trees: EDSTSet
    failed: np.ndarray
    count_before: int
    count_after: int
    depth_before: int
    depth_after: int
    damaged: list[int] = field(default_factory=list)
    reattached: int = 0
    repacked: bool = False
    kept: int = 0
    upper_bound: int = 0
    bound_kind: str = ""
    certificate: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    exchanged: int = 0

    def summary(self) -> str:
        """One line: failures, trees and the deepest tree before and after, how, and the certificate.

        >>> import networkx as nx
        >>> G = ArrayGraph.from_networkx(nx.complete_graph(4))
        >>> repair_edsts(G, [[(0, 1), (1, 2), (2, 3)], [(0, 2), (0, 3), (1, 3)]], np.array([[1, 2]])).summary()
        '1 link failed, 1 tree damaged: 2 -> 1 tree, deepest 3 -> 2 (1 kept, 0 reattached, 0 exchanged, no repack); \
maximum: 5 links < 2 x 3 (edges bound 1)'
        """
        f, d = self.failed.shape[0], len(self.damaged)
        how = (f"{self.kept} kept, {self.reattached} reattached, {self.exchanged} exchanged, "
               f"{'repacked' if self.repacked else 'no repack'}")
        why = {"edges": f"{self.graph.m} links < {self.count_after + 1} x {self.graph.n - 1}",
               "degree": "a vertex of that degree", "partition": f"a partition into "
               f"{int(self.certificate.max()) + 1 if self.certificate.size else 0} parts",
               "disconnected": "the network is disconnected"}.get(self.bound_kind, self.bound_kind)
        return (f"{f} link{'s' if f != 1 else ''} failed, {d} tree{'s' if d != 1 else ''} damaged: "
                f"{self.count_before} -> {self.count_after} tree{'s' if self.count_after != 1 else ''}, deepest "
                f"{self.depth_before} -> {self.depth_after} ({how}); maximum: {why} ({self.bound_kind} bound "
                f"{self.upper_bound})")


def _norm(text: str) -> str:
    return text.replace(" ", "").replace("(", "[").replace(")", "]")


def link_text(label: Hashable) -> str:
    """A vertex label as :func:`parse_link` reads it: a string as itself, anything else as compact JSON.

    >>> link_text("a"), link_text(((0, 1), 2)), link_text(7)
    ('a', '[[0,1],2]', '7')
    """
    if isinstance(label, str):
        return label
    return json.dumps(jsonable(label), separators=(",", ":"), ensure_ascii=False)


def label_index(labels: Sequence[Hashable]) -> dict[str, list[int]]:
    """Every text that names a vertex (:func:`link_text`, normalised; strings also JSON-quoted) -> its indices.

    >>> label_index(["a", (0, 1)])
    {'a': [0], '"a"': [0], '[0,1]': [1]}
    """
    out: dict[str, list[int]] = {}
    for i, lab in enumerate(labels):
        texts = [_norm(link_text(lab))]
        if isinstance(lab, str):
            texts.append(_norm(json.dumps(lab, ensure_ascii=False)))
        for t in dict.fromkeys(texts):
            out.setdefault(t, []).append(i)
    return out


def parse_link(text: str, index: dict[str, list[int]], name: str = "--fail") -> tuple[int, int]:
    """The two vertex indices of a link named ``U-V`` (:func:`label_index` of the network's labels).

    Raises
    ------
    ValueError
        If no split at a ``-`` names two vertices (naming the unknown label), more than one does, a label names
        two vertices, or ``U`` and ``V`` are the same vertex.

    Examples
    --------
    >>> idx = label_index(["a", "b-c", "c"])
    >>> parse_link("a-b-c", idx), parse_link("[0,1]-a", label_index([(0, 1), "a"]))
    ((0, 1), (0, 1))
    >>> parse_link("a-x", idx)
    Traceback (most recent call last):
    ...
    ValueError: --fail='a-x': vertex 'x' is not in the network (write U-V with the labels the file uses)
    """
    t = _norm(str(text))
    splits = [(t[:i], t[i + 1:]) for i, ch in enumerate(t) if ch == "-"]
    good = [(a, b) for a, b in splits if a in index and b in index]
    if not good:
        unknown = next((b for a, b in splits if a in index), None)
        unknown = unknown if unknown is not None else next((a for a, b in splits if b in index), None)
        if not splits:
            raise ValueError(f"{name}={text!r}: a link is written U-V (two vertex labels joined by '-')")
        what = unknown if unknown is not None else splits[0][0]
        raise ValueError(f"{name}={text!r}: vertex {what!r} is not in the network (write U-V with the labels the "
                         f"file uses)")
    if len(good) > 1:
        reads = " or ".join(f"{a!r} and {b!r}" for a, b in good)
        raise ValueError(f"{name}={text!r} is ambiguous: it reads as {reads}")
    a, b = good[0]
    for x in (a, b):
        if len(index[x]) > 1:
            raise ValueError(f"{name}={text!r}: the label {x!r} names {len(index[x])} vertices")
    u, v = index[a][0], index[b][0]
    if u == v:
        raise ValueError(f"{name}={text!r}: U and V are the same vertex; a link joins two vertices")
    return u, v


@numba.njit(cache=True)
def _owners(start, ev, rows, tree_of, owner):  # pragma: no cover - compiled
    """Mark ``owner[j] = tree_of[r]`` for the link ``j`` of every tree row ``r`` (graph rows ``u < v`` sorted,
    ``start[u]`` the first row of ``u``: a binary search in ``u``'s row). Returns ``(-1, 0)``, or the first bad row
    and why: 1 not a link, 2 a link already taken."""
    for r in range(rows.shape[0]):
        a, b = rows[r, 0], rows[r, 1]
        if a > b:
            a, b = b, a
        lo, hi = start[a], start[a + 1]
        while lo < hi:
            mid = (lo + hi) // 2
            if ev[mid] < b:
                lo = mid + 1
            else:
                hi = mid
        if lo == start[a + 1] or ev[lo] != b:
            return r, 1
        if owner[lo] >= 0:
            return r, 2
        owner[lo] = tree_of[r]
    return -1, 0


def _tree_rows(t: Any) -> tuple[np.ndarray, int, str]:
    """``(rows, root, tag)`` of a tree given as a :class:`Tree` or an edge array (root 0, tag ``"input"``)."""
    if isinstance(t, Tree):
        return t.rows, t.root, t.construction
    return np.asarray(t, dtype=np.int64).reshape(-1, 2), 0, "input"


def _reattach(n: int, rows: np.ndarray, root: int, free_e: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Step 2 on one damaged tree: ``(rows, chosen)``, the forest with the chosen unused links (positions in
    ``free_e``) added round by round, each cut component by the link of least resulting depth."""
    chosen: list[int] = []
    taken = np.zeros(free_e.shape[0], dtype=bool)
    while True:
        dist = bfs_edges(n, rows, np.array([root]))[0]
        reached = dist >= 0
        if reached.all():
            return rows, chosen
        comp = component_roots(n, rows)
        d0 = bfs_edges(n, rows)[0]
        out = np.flatnonzero(~reached)
        far_a = _group_argmax(comp[out], d0[out], out)
        da = bfs_edges(n, rows, far_a)[0]
        far_b = _group_argmax(comp[out], da[out], out)
        db = bfs_edges(n, rows, far_b)[0]
        ecc = np.maximum(da, db)
        ru, rv = reached[free_e[:, 0]], reached[free_e[:, 1]]
        cand = np.flatnonzero((ru != rv) & ~taken)
        if cand.size == 0:
            return rows, chosen
        inner = np.where(ru[cand], free_e[cand, 0], free_e[cand, 1])
        outer = np.where(ru[cand], free_e[cand, 1], free_e[cand, 0])
        cost = dist[inner] + 1 + ecc[outer]
        order = np.lexsort((cand, cost, comp[outer]))
        c = comp[outer][order]
        first = np.ones(order.shape[0], dtype=bool)
        first[1:] = c[1:] != c[:-1]
        pick = cand[order[first]]
        taken[pick] = True
        chosen.extend(pick.tolist())
        rows = np.concatenate([rows, free_e[pick]])


def _exchange(n: int, e2: np.ndarray, owner2: np.ndarray, free: np.ndarray, rows: np.ndarray, root: int,
              spanning: set[int], src: list[tuple[np.ndarray, int, str]], forest: dict[int, np.ndarray],
              limit: int = 256) -> tuple[int, int, int, np.ndarray] | None:
    """One exchange (an augmenting path of length two) for a damaged tree that no unused link rejoins: a link ``c``
    of a spanning tree ``s`` joins the root part to a cut part, and an unused link ``d`` reconnects ``s - c``.
    Candidates ``c`` by the depth of their root-side end (then link order), at most ``limit`` of them; ``d`` the
    lowest. Returns ``(c, d, s, rows of s - c + d)`` or None."""
    dist = bfs_edges(n, rows, np.array([root]))[0]
    reached = dist >= 0
    ru, rv = reached[e2[:, 0]], reached[e2[:, 1]]
    own = owner2
    cand = np.flatnonzero((ru != rv) & (own >= 0))
    cand = cand[np.isin(own[cand], np.fromiter(spanning, dtype=np.int64, count=len(spanning)))]
    if cand.size == 0:
        return None
    inner = np.where(ru[cand], e2[cand, 0], e2[cand, 1])
    cand = cand[np.lexsort((cand, dist[inner]))][:limit]
    fr = free[owner2[free] < 0]
    if fr.size == 0:
        return None
    fe = e2[fr]
    for c in cand.tolist():
        s_tree = int(own[c])
        s_rows = forest[s_tree] if s_tree in forest else src[s_tree][0]
        a, b = int(e2[c, 0]), int(e2[c, 1])
        hit = ((s_rows[:, 0] == a) & (s_rows[:, 1] == b)) | ((s_rows[:, 0] == b) & (s_rows[:, 1] == a))
        rest = s_rows[~hit]
        side = bfs_edges(n, rest, np.array([a]))[0] >= 0
        ok = np.flatnonzero(side[fe[:, 0]] != side[fe[:, 1]])
        if ok.size:
            d = int(fr[ok[0]])
            return c, d, s_tree, np.concatenate([rest, e2[d:d + 1]])
    return None


def _group_argmax(groups: np.ndarray, values: np.ndarray, items: np.ndarray) -> np.ndarray:
    """For each group, the item of largest value (ties: the first in ``items`` order)."""
    order = np.lexsort((-np.arange(items.shape[0]), values, groups))
    g = groups[order]
    last = np.ones(order.shape[0], dtype=bool)
    last[:-1] = g[1:] != g[:-1]
    return items[order[last]]


def _trivial_bound(n: int, e: np.ndarray) -> tuple[int, str, np.ndarray]:
    """``min(floor(m/(n-1)), minimum degree)`` of ``(n, e)`` with its kind and certificate partition."""
    deg = np.bincount(e.ravel(), minlength=n)
    by_edges, vmin = e.shape[0] // (n - 1), int(np.argmin(deg))
    if by_edges <= int(deg[vmin]):
        return by_edges, "edges", np.arange(n, dtype=np.int64)
    return int(deg[vmin]), "degree", (np.arange(n) != vmin).astype(np.int64)


def _door(graph: GraphLike, trees: Sequence[Any], failed: Any,
          names: Sequence[str] | None) -> tuple[ArrayGraph, np.ndarray, np.ndarray]:
    """The checks of :func:`repair_edsts`: ``(graph, failed rows, failed edge ids)``."""
    graph = as_graph(graph, "graph")
    if graph.directed:
        raise ValueError("graph: directed; EDSTs are repaired on undirected networks")
    if graph.n < 2:
        raise ValueError(f"graph: n={graph.n} vertices; a spanning-tree repair needs n >= 2")
    if len(trees) == 0:
        raise ValueError("trees: no tree given; a repair starts from a family of edge-disjoint spanning trees")
    n = int(graph.n)
    f = np.asarray(failed, dtype=np.int64).reshape(-1, 2) if np.size(failed) else np.zeros((0, 2), np.int64)
    if f.shape[0] == 0:
        raise ValueError("failed: no link given; name at least one failed link")
    if f.min() < 0 or f.max() >= n:
        raise ValueError(f"failed: vertex index {int(f.max()) if f.max() >= n else int(f.min())} is out of range "
                         f"0..{n - 1}")
    if (f[:, 0] == f[:, 1]).any():
        raise ValueError(f"failed: link {f[f[:, 0] == f[:, 1]][0].tolist()} joins a vertex to itself")
    f = np.sort(f, axis=1)
    gk = graph.edges[:, 0] * n + graph.edges[:, 1]  # rows u < v, sorted: the keys increase
    fk = f[:, 0] * n + f[:, 1]
    pos = np.minimum(np.searchsorted(gk, fk), gk.shape[0] - 1)
    miss = gk[pos] != fk
    what = (lambda j: f"--fail={names[j]!r}") if names is not None else (lambda j: "failed")
    if miss.any():
        j = int(np.argmax(miss))
        u, v = f[j].tolist()
        raise ValueError(f"{what(j)}: {graph.labels[u]!r} and {graph.labels[v]!r} are not linked (no such link to "
                         f"fail)")
    _, first, counts = np.unique(pos, return_index=True, return_counts=True)
    if (counts > 1).any():
        j = int(np.flatnonzero(pos == pos[first[np.argmax(counts > 1)]])[1])
        raise ValueError(f"{what(j)}: the link {graph.labels[f[j, 0]]!r}-{graph.labels[f[j, 1]]!r} is named twice")
    return graph, f, pos


def repair_edsts(graph: GraphLike, trees: Sequence[Any], failed: Any, *, deep: bool = False, seed: int = 0,
                 verify: bool = True, names: Sequence[str] | None = None) -> Repair:
    """The maximum EDST family of ``graph`` without the ``failed`` links, grown from ``trees`` (module text).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The network before the failures (simple, undirected).
    trees : EDSTSet, sequence of Tree or of ``(n-1, 2)`` arrays
        Edge-disjoint spanning trees of ``graph`` (at least one).
    failed : ``(f, 2)`` array-like of vertex indices
        The failed links, each a link of ``graph``, none twice.
    deep : bool
        Run the full depth search (:func:`~starlib.edst.depth.improve_depth`) on the result.
    seed : int
        Seed of that search.
    verify : bool
        Verify the result (:func:`~starlib.edst.verify.check_edsts`; default True). The input trees are checked as
        they are read (links of ``graph``, disjoint, ``n - 1`` each); the verification of the result catches the
        rest.
    names : sequence of str, optional
        How each failed link was written (``--fail`` texts), for the error messages.

    Returns
    -------
    Repair
        The damaged network, the repaired family (each kept tree the input's own object), the counts and the
        deepest trees before and after, and the certificate that the count is the maximum.

    Raises
    ------
    ValueError
        For no trees, no failed link, a failed pair that is no link of ``graph`` or named twice, trees that are
        not edge-disjoint spanning-tree-sized sets of links of ``graph``.

    Example
    -------
    >>> import networkx as nx
    >>> G = ArrayGraph.from_networkx(nx.petersen_graph())
    >>> T = generic_packing(G).trees                      # one tree; 6 links unused
    >>> r = repair_edsts(G, T, [T[0].rows[0]])
    >>> r.count_after, r.reattached, r.repacked
    (1, 1, False)

    References
    ----------
    Roskind and Tarjan (1985), Nash-Williams (1961) and Tutte (1961), as in :mod:`starlib.edst.packing`.
    """
    graph, f, fid = _door(graph, trees, failed, names)
    n, m = int(graph.n), int(graph.m)
    e = graph.edges
    owner = np.full(m, -1, dtype=np.int64)
    src = [_tree_rows(t) for t in trees]
    for i, (rows, _, _) in enumerate(src):
        if rows.shape[0] != n - 1:
            raise ValueError(f"trees: tree {i} has {rows.shape[0]} edges; a spanning tree of n={n} vertices has "
                             f"{n - 1}")
        if rows.size and (rows.min() < 0 or rows.max() >= n):
            raise ValueError(f"trees: tree {i} has a vertex outside 0..{n - 1}")
    k0 = len(src)
    all_rows = np.ascontiguousarray(np.concatenate([r for r, _, _ in src]))
    tree_of = np.repeat(np.arange(k0, dtype=np.int64), n - 1)
    start = np.searchsorted(e[:, 0], np.arange(n + 1)).astype(np.int64)
    bad, why = _owners(start, np.ascontiguousarray(e[:, 1]), all_rows, tree_of, owner)
    if bad >= 0:
        i = int(tree_of[bad])
        raise ValueError(f"trees: tree {i} uses a pair of vertices that is not a link of the graph" if why == 1 else
                         f"trees: tree {i} shares a link with another tree (or repeats one)")
    depth_before = max(Tree(r, root, n=n).depth if not isinstance(t, Tree) else t.depth
                       for t, (r, root, _) in zip(trees, src, strict=True))
    damaged = sorted({int(x) for x in owner[fid] if x >= 0})
    alive = np.ones(m, dtype=bool)
    alive[fid] = False
    e2 = e[alive]
    meta = {"input": graph.meta["input"]} if "input" in graph.meta else {}
    g2 = ArrayGraph(list(graph.labels), e2, name=graph.name, params=dict(graph.params), meta=meta)
    owner2 = owner[alive]

    # step 2: reattach cut subtrees by unused links, nearest the root
    free = np.flatnonzero(owner2 < 0)
    free_e = e2[free]
    forest: dict[int, np.ndarray] = {}
    spanning = set(range(k0)) - set(damaged)
    reattached = exchanged = 0
    for t in damaged:
        rows = e2[owner2 == t]
        while True:
            avail = np.flatnonzero(owner2[free] < 0)
            rows, chosen = _reattach(n, rows, src[t][1], free_e[avail])
            owner2[free[avail[np.asarray(chosen, dtype=np.int64)]]] = t
            reattached += len(chosen)
            if rows.shape[0] == n - 1:
                break
            swap = _exchange(n, e2, owner2, free, rows, src[t][1], spanning, src, forest)
            if swap is None:
                break
            c, d, s_tree, s_rows = swap
            owner2[c], owner2[d] = t, s_tree
            forest[s_tree] = s_rows
            rows = np.concatenate([rows, e2[c:c + 1]])
            exchanged += 1
        forest[t] = rows
        if rows.shape[0] == n - 1:
            spanning.add(t)

    # step 3: the count against the damaged network's bound; the augmenting packer when short of it
    roots = component_roots(n, e2) if not spanning else np.zeros(n, np.int64)  # a spanning tree: connected
    kept = 0
    if not np.all(roots == roots[0]):
        _, first, parts = np.unique(roots, return_index=True, return_inverse=True)
        rank = np.empty(first.shape[0], np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0])
        out, bound, kind, cert, repacked = EDSTSet(), 0, "disconnected", rank[parts.reshape(-1)], False
    else:
        bound, kind, cert = _trivial_bound(n, e2)
        repacked = len(spanning) < bound
        if not repacked:
            out = EDSTSet(_rebuilt(src, trees, forest, t, n) for t in sorted(spanning)[:bound])
            kept = sum(1 for t in sorted(spanning)[:bound] if t not in forest)
        else:
            p = generic_packing(g2, start=owner2)
            bound, kind, cert = p.upper_bound, p.bound_kind, p.certificate
            origin = p.origin.tolist() if p.origin is not None else [-1] * p.count
            out = EDSTSet()
            both = (owner2 >= 0) & (p.owner >= 0) if p.owner is not None else np.zeros(0, bool)
            common = np.bincount(owner2[both] * (p.count + 1) + p.owner[both], minlength=k0 * (p.count + 1)) \
                if p.owner is not None else np.zeros(k0 * (p.count + 1), np.int64)
            for i, (tree, j) in enumerate(zip(p.trees, origin, strict=True)):
                # unchanged iff all n - 1 links of start forest j (a spanning tree) are in tree i
                same = j >= 0 and j in spanning and int(common[j * (p.count + 1) + i]) == n - 1
                if same:
                    out.append(_rebuilt(src, trees, forest, j, n))
                    kept += j not in forest
                else:
                    c, _ = tree_center(n, tree.rows)
                    tag = (src[j][2] if j >= 0 else "generic") + "+repair"
                    out.append(Tree(tree.rows, c, tag, n=n))
    if deep and len(out):
        out = improve_depth(g2, out, seed=seed)
    if verify:
        check_edsts(g2, out, allow_empty=True)
    return Repair(g2, out, f, k0, len(out), depth_before, max(out.depths()) if len(out) else 0, damaged, reattached,
                  repacked, kept, bound, kind, cert, exchanged)


def _rebuilt(src: list[tuple[np.ndarray, int, str]], trees: Sequence[Any], forest: dict[int, np.ndarray], t: int,
             n: int) -> Tree:
    """Tree ``t`` of the input if it was not damaged (the same object for a :class:`Tree`), else its reattached
    forest with its root, tagged ``"+repair"``."""
    if t not in forest:
        x = trees[t]
        return x if isinstance(x, Tree) else Tree(src[t][0], src[t][1], src[t][2], n=n)
    rows, root, tag = forest[t], src[t][1], src[t][2]
    return Tree(rows, root, tag + "+repair", n=n)
