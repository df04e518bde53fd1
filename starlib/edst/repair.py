"""Repair a family of edge-disjoint spanning trees after link failures: the new maximum, certified, kept shallow.

Given a network, its EDSTs and a few failed links, :func:`repair_edsts` returns a maximum EDST family of the
damaged network (the failed links removed), starting from what survived rather than from scratch:

1. **Intact trees stay, byte for byte.** A tree that lost no link is returned as it was (the same object: edges,
   root, tag) unless step 3 needs it. A damaged tree becomes a forest: the part that still holds the root, and the
   subtrees the failures cut off. Each cut subtree ``C`` is joined back by a link in no tree (``N``, the unused
   links) from a vertex ``u`` still reached from the root to a vertex ``w`` of ``C``, the one of least resulting
   depth ``depth(u) + 1 + ecc_C(w)`` (``ecc_C`` the eccentricity inside ``C``: three breadth-first searches per
   forest), ties to the lower link; subtrees cut behind other cut subtrees follow in later rounds. The root stays.
2. **The damaged trees alone, by augmenting paths.** If the spanning trees are now fewer than the damaged network's
   bound ``min(floor(m/(n-1)), minimum degree)``, the exact matroid-partition packer
   (:func:`~starlib.edst.packing.generic_packing`) grows the damaged forests from their own links and ``N`` only
   (its warm ``start``): the intact trees' links are not in its graph, so they cannot move. Its count is the most
   trees that keep every intact tree; a damaged forest it cannot complete is dropped and its links are free.
3. **Other trees only when the count needs it.** If step 2 falls short of the bound, the packer runs on the whole
   damaged network from every forest: its count is the new maximum, certified by a Nash-Williams partition when it
   is below the bound. If that maximum is above step 2's, the intact trees are opened to the packer one at a time
   (the first that reaches the maximum wins, so one tree changes when one is enough); when no single tree does,
   the whole-network packing is taken, and the intact trees its augmenting paths left alone are still kept.
   :attr:`Repair.changed` names the trees changed; trees the packer built are rooted at their centre and tagged
   ``"+repair"``.
4. **The depth search on what the repair made** (``deep``; by default when the damaged network has at most
   :data:`DEEP_LINKS` = 200,000 links): one run of :func:`~starlib.edst.depth.improve_depth` on the reattached and
   changed trees, on the links no kept tree holds, so the kept trees stay as they are (tags ``"+ls"``, roots at
   the centres). On 20 to 36,163 links it cost 0.03 to 0.2 s a repair on a loaded 2-core machine and reached the
   depth of 24 runs; on Bundlefly MMS(29) * QR(29) (1,390,172 links) 1.6 s, over a repair's budget, hence the
   limit. ``starlib improve`` searches every tree, the kept ones too.

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
>>> len(r.kept) + len(r.reattached) + len(r.changed), len(r.dropped)
(2, 1)

References
----------
J. Roskind and R. E. Tarjan, "A note on finding minimum-cost edge-disjoint spanning trees", Math. Oper. Res. 10
(1985) 701-708 (the augmenting paths); C. St. J. A. Nash-Williams (1961) and W. T. Tutte (1961) (the bound).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from .._kernels import bfs_edges, component_roots
from ..graphs import ArrayGraph, GraphLike, as_graph, edge_array, integer_labels_json, jsonable
from .packing import Packing, generic_packing
from .trees import EDSTSet, Tree, tree_center
from .verify import check_edsts, check_tree_sequence

__all__ = ["Repair", "repair_edsts", "parse_link", "link_text", "label_index", "DEEP_LINKS"]

#: The depth search of step 4 runs by default on damaged networks of at most this many links.
DEEP_LINKS = 200_000


@dataclass
class Repair:
    """A repaired EDST family of a damaged network, with what changed and the certificate of its count.

    The input trees are numbered from 0 in their order; each is ``kept`` (lost no link, returned as it was),
    ``reattached`` (lost a link and was mended), ``changed`` (lost no link, but the count needed some of its links)
    or ``dropped`` (the count fell).

    Attributes
    ----------
    graph : the damaged network (the failed links removed; same vertices and labels).
    trees : the repaired family (verified), in the order of the input trees they come from, new trees last.
    failed : ``(f, 2)`` the failed links as vertex indices (rows ``u < v``).
    count_before, count_after : trees before and after.
    depth_before, depth_after : the deepest tree before and after (``0`` when there is no tree).
    damaged : input trees that lost a link.
    kept, reattached, changed, dropped : input trees by what the repair did to them (sorted lists).
    source : for each tree of ``trees``, the input tree it comes from (``-1``: a new tree).
    depths_before : the depth of every input tree (``trees.depths()`` gives those after).
    joined : cut subtrees joined back by an unused link (step 1).
    repacked : whether the augmenting packer ran (steps 2 and 3).
    searched : whether the depth search ran on the trees the repair made (step 4).
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
    damaged: list[int]
    kept: list[int]
    reattached: list[int]
    changed: list[int]
    dropped: list[int]
    source: list[int]
    depths_before: list[int]
    joined: int
    repacked: bool
    searched: bool
    upper_bound: int
    bound_kind: str
    certificate: np.ndarray

    def depth_changes(self) -> list[tuple[int, int, int]]:
        """``(input tree, depth before, depth after)`` of every reattached and changed tree, in tree order.

        >>> import networkx as nx
        >>> T = [[(0, 1), (1, 2), (2, 3), (3, 4)], [(0, 2), (2, 4), (1, 3), (1, 4)]]
        >>> repair_edsts(nx.complete_graph(5), T, [(2, 3)], deep=False).depth_changes()   # tree 0 rejoined by 0-3
        [(0, 4, 2)]
        """
        return [(s, self.depths_before[s], int(t.depth)) for s, t in zip(self.source, self.trees, strict=True)
                if s >= 0 and s not in self.kept]

    def summary(self) -> str:
        """One line: failures, trees before and after, what happened to each, the depths, and the certificate.

        >>> import networkx as nx
        >>> G = ArrayGraph.from_networkx(nx.complete_graph(4))
        >>> repair_edsts(G, [[(0, 1), (1, 2), (2, 3)], [(0, 2), (0, 3), (1, 3)]], np.array([[1, 2]])).summary()
        '1 link failed, 1 tree damaged: 2 -> 1 tree, deepest 3 -> 2 (1 kept, 0 reattached, 0 changed, 1 dropped: \
tree 0); maximum: 5 links < 2 x 3 (edges bound 1)'
        """
        f, d = self.failed.shape[0], len(self.damaged)
        how = [f"{len(self.kept)} kept", f"{len(self.reattached)} reattached", f"{len(self.changed)} changed"
               + (f" to keep the count: {_named(self.changed)}" if self.changed else "")]
        how += [f"{len(self.dropped)} dropped: {_named(self.dropped)}"] if self.dropped else []
        how += [f"{len(self.source) - len(self.kept) - len(self.reattached) - len(self.changed)} new"] \
            if -1 in self.source else []
        steps = [", ".join(how)]
        moves = self.depth_changes()
        if moves:
            shown = ", ".join(f"tree {s} {a} -> {b}" for s, a, b in moves[:4]) + (", ..." if len(moves) > 4 else "")
            steps.append(f"depths {shown}" + ("" if not self.searched else ", after the depth search"))
        steps += ["augmenting repack"] if self.repacked else []
        why = {"edges": f"{self.graph.m} links < {self.count_after + 1} x {self.graph.n - 1}",
               "degree": "a vertex of that degree", "partition": f"a partition into "
               f"{int(self.certificate.max()) + 1 if self.certificate.size else 0} parts",
               "disconnected": "the network is disconnected"}.get(self.bound_kind, self.bound_kind)
        return (f"{f} link{'s' if f != 1 else ''} failed, {d} tree{'s' if d != 1 else ''} damaged: "
                f"{self.count_before} -> {self.count_after} tree{'s' if self.count_after != 1 else ''}, deepest "
                f"{self.depth_before} -> {self.depth_after} ({'; '.join(steps)}); maximum: {why} "
                f"({self.bound_kind} bound {self.upper_bound})")


def _named(trees: Sequence[int]) -> str:
    """``tree 3``, ``trees 0, 3`` or ``trees 0, 1, 2, 3, ... (12)``: input trees by number."""
    shown = ", ".join(str(t) for t in trees[:4]) + (f", ... ({len(trees)})" if len(trees) > 4 else "")
    return f"tree{'s' if len(trees) != 1 else ''} {shown}"


def _norm(text: str) -> str:
    if " " not in text and "(" not in text and ")" not in text:
        return text
    return text.replace(" ", "").replace("(", "[").replace(")", "]")


_PLAIN = frozenset("0123456789-(), ")  # the repr of integers nested in tuples, and nothing else


def link_text(label: Hashable) -> str:
    """A vertex label as :func:`parse_link` reads it: a string as itself, anything else as compact JSON.

    >>> link_text("a"), link_text(((0, 1), 2)), link_text(7), link_text((5,)), link_text((True, 1.5))
    ('a', '[[0,1],2]', '7', '[5]', '[true,1.5]')
    """
    if isinstance(label, str):
        return label
    if isinstance(label, int | tuple) and not isinstance(label, bool):  # integers nested in tuples: from repr
        text = repr(label)
        if _PLAIN.issuperset(text):
            return text.replace(" ", "").replace("(", "[").replace(")", "]").replace(",]", "]")
    return json.dumps(jsonable(label), separators=(",", ":"), ensure_ascii=False)


def _integer_label_texts(labels: Sequence[Hashable]) -> list[str] | None:
    """:func:`link_text` of every label at once when each is an integer or integers nested in tuples, else None.

    One dump of the whole list (:func:`~starlib.graphs.integer_labels_json`), cut at its top-level commas (0.07 s
    for the 48,778 labels of Bundlefly MMS(29) * QR(29), where one :func:`link_text` per label takes 0.6 s).

    >>> _integer_label_texts([((0, 1), 2), (3, -4), 5]), _integer_label_texts(["a", 1])
    (['[[0,1],2]', '[3,-4]', '5'], None)
    """
    if not labels or type(labels[0]) not in (int, tuple):  # strings, at once, with no dump
        return None
    dumped = integer_labels_json(labels)
    if dumped is None:
        return None
    data, depth = dumped
    cuts = np.flatnonzero((np.frombuffer(data, dtype=np.uint8) == ord(",")) & (depth == 1))
    starts, ends = np.concatenate([[1], cuts + 1]), np.concatenate([cuts, [len(data) - 1]])
    text = data.decode("ascii")
    return [text[a:z] for a, z in zip(starts.tolist(), ends.tolist(), strict=True)]


def label_index(labels: Sequence[Hashable]) -> dict[str, list[int]]:
    """Every text that names a vertex (:func:`link_text`, normalised; strings also JSON-quoted) -> its indices.

    >>> label_index(["a", (0, 1)])
    {'a': [0], '"a"': [0], '[0,1]': [1]}
    """
    out: dict[str, list[int]] = {}
    texts = _integer_label_texts(labels)
    if texts is not None:  # every label an integer or integers nested in tuples: one dump, split at the top commas
        for i, text in enumerate(texts):
            out.setdefault(text, []).append(i)
        return out
    for i, lab in enumerate(labels):
        if not isinstance(lab, str):
            out.setdefault(_norm(link_text(lab)), []).append(i)
            continue
        a, b = _norm(lab), _norm(json.dumps(lab, ensure_ascii=False))
        out.setdefault(a, []).append(i)
        if b != a:
            out.setdefault(b, []).append(i)
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


def _tree_rows(t: Any, name: str) -> tuple[np.ndarray, int, str]:
    """``(rows, root, tag)`` of a tree given as a :class:`Tree` or an edge array (root 0, tag ``"input"``); an array
    that is no pairs of integers is a ``ValueError`` naming ``name``."""
    if isinstance(t, Tree):
        return t.rows, t.root, t.construction
    return edge_array(t, name), 0, "input"


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
    check_tree_sequence(trees)
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


def repair_edsts(graph: GraphLike, trees: Sequence[Any], failed: Any, *, deep: bool | None = None, seed: int = 0,
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
    deep : bool, optional
        Run the depth search on the trees the repair made (step 4; the kept trees stay as they are). By default
        (None) it runs when the damaged network has at most :data:`DEEP_LINKS` links.
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
        The damaged network, the repaired family (each kept tree the input's own object), which input trees were
        kept, reattached, changed and dropped, the depths before and after, and the certificate that the count is
        the maximum.

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
    >>> r = repair_edsts(G, T, [T[0].rows[0]], deep=False)
    >>> r.count_after, r.reattached, r.joined, r.repacked
    (1, [0], 1, False)

    Notes
    -----
    Step 1 costs a few breadth-first searches per damaged tree and a scan of the unused links. The packer of
    step 2 runs on the damaged trees' links and the unused ones only, so its cost does not grow with the kept
    trees; step 3 runs it on the whole damaged network, then once per kept tree tried.

    References
    ----------
    Roskind and Tarjan (1985), Nash-Williams (1961) and Tutte (1961), as in :mod:`starlib.edst.packing`.
    """
    graph, f, fid = _door(graph, trees, failed, names)
    n, m = int(graph.n), int(graph.m)
    e = graph.edges
    owner = np.full(m, -1, dtype=np.int64)
    src = [_tree_rows(t, f"trees[{i}]") for i, t in enumerate(trees)]
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
    depths_before = [int(t.depth) if isinstance(t, Tree) else Tree(r, root, n=n).depth
                     for t, (r, root, _) in zip(trees, src, strict=True)]
    damaged = sorted({int(x) for x in owner[fid] if x >= 0})
    intact = sorted(set(range(k0)) - set(damaged))
    alive = np.ones(m, dtype=bool)
    alive[fid] = False
    e2 = e[alive]
    meta = {"input": graph.meta["input"]} if "input" in graph.meta else {}
    g2 = ArrayGraph(list(graph.labels), e2, name=graph.name, params=dict(graph.params), meta=meta)
    owner2 = owner[alive]

    # step 1: each cut subtree rejoined by an unused link, nearest the root; no other tree touched
    free = np.flatnonzero(owner2 < 0)
    made: dict[int, tuple[np.ndarray, int, str]] = {}  # input tree (or -1 - j for new tree j) -> rows, root, tag
    joined = 0
    for t in damaged:
        avail = free[owner2[free] < 0]
        rows, chosen = _reattach(n, e2[owner2 == t], src[t][1], e2[avail])
        owner2[avail[np.asarray(chosen, dtype=np.int64)]] = t
        joined += len(chosen)
        made[t] = (rows, src[t][1], src[t][2] + "+repair")
    whole = intact + [t for t in damaged if made[t][0].shape[0] == n - 1]

    # steps 2 and 3: the count against the damaged network's bound; the augmenting packer when short of it
    kept, repacked = list(intact), False
    roots = component_roots(n, e2) if not whole else np.zeros(n, np.int64)  # a spanning tree: connected
    if not np.all(roots == roots[0]):
        _, first, parts = np.unique(roots, return_index=True, return_inverse=True)
        rank = np.empty(first.shape[0], np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(first.shape[0])
        bound, kind, cert, kept, made = 0, "disconnected", rank[parts.reshape(-1)], [], {}
    else:
        bound, kind, cert = _trivial_bound(n, e2)
        if len(whole) < bound:
            repacked, reattached = True, made
            made, same, p = _grow(g2, owner2, intact, damaged, src)  # step 2: the damaged trees alone
            if len(intact) + p.count < bound:
                full = _grow(g2, owner2, [], list(range(k0)), src)  # the maximum of the damaged network
                bound, kind, cert = full[2].upper_bound, full[2].bound_kind, full[2].certificate
                if len(intact) + p.count < bound:  # step 3: one kept tree changed if one is enough, else the packer's
                    made, same, kept = _change(g2, owner2, intact, damaged, src, bound, full)
            made.update({t: reattached[t] for t in same if t in reattached})  # left as step 1 made them
        made = {t: x for t, x in made.items() if x[0].shape[0] == n - 1}  # a forest left short: dropped
    source = sorted(kept + list(made), key=lambda s: (s < 0, abs(s)))
    out = EDSTSet(_rebuilt(trees, src, made, s, n) for s in source)
    deep = g2.m <= DEEP_LINKS if deep is None else bool(deep)
    mine = [i for i, s in enumerate(source) if s not in kept]
    if deep and mine:  # step 4: the depth search on the trees the repair made, the kept trees' links left out
        from .depth import improve_depth  # here: the depth floor loads scipy's solvers, which a repair rarely needs

        rest = ArrayGraph(list(g2.labels), e2[~np.isin(owner2, kept)])
        for i, t in zip(mine, improve_depth(rest, [out[i] for i in mine], seed=seed, restarts=1), strict=True):
            out[i] = t
    if verify:
        check_edsts(g2, out, allow_empty=True)
    return Repair(g2, out, f, k0, len(out), max(depths_before), max(out.depths()) if len(out) else 0, damaged,
                  kept, [s for s in damaged if s in made], [s for s in intact if s in made],
                  [s for s in range(k0) if s not in source], source, depths_before, joined, repacked,
                  bool(deep and mine), bound, kind, cert)


def _grow(g2: ArrayGraph, owner2: np.ndarray, fixed: list[int], grow: list[int],
          src: list[tuple[np.ndarray, int, str]]) -> tuple[dict[int, tuple[np.ndarray, int, str]], list[int], Packing]:
    """The exact packer on the links of ``g2`` that no tree of ``fixed`` holds, warm-started from the forests
    ``grow`` (``owner2[j]``: the input tree holding link ``j``, ``-1`` none): ``(made, same, packing)``, the trees
    it changed or made by input index (``-1 - j`` for the ``j``-th tree grown from no forest), each rooted at its
    centre and tagged ``"+repair"``, and the trees of ``grow`` it left as they were."""
    n = int(g2.n)
    ids = np.flatnonzero(~np.isin(owner2, fixed))
    remap = np.full(len(src) + 1, -1, dtype=np.int64)  # remap[-1]: an unused link stays unused
    remap[grow] = np.arange(len(grow))
    st = remap[owner2[ids]]
    p = generic_packing(ArrayGraph(list(g2.labels), g2.edges[ids]), start=st)
    both = (st >= 0) & (p.owner >= 0)
    common = np.bincount(st[both] * (p.count + 1) + p.owner[both], minlength=len(grow) * (p.count + 1))
    made: dict[int, tuple[np.ndarray, int, str]] = {}
    same: list[int] = []
    for i, (tree, j) in enumerate(zip(p.trees, p.origin.tolist(), strict=True)):
        if j >= 0 and int(common[j * (p.count + 1) + i]) == n - 1:  # all n - 1 links of forest j are in tree i
            same.append(grow[j])
            continue
        key = grow[j] if j >= 0 else -1 - sum(1 for x in made if x < 0)
        tag = (src[grow[j]][2] if j >= 0 else "generic") + "+repair"
        made[key] = (tree.rows, tree_center(n, tree.rows)[0], tag)
    return made, same, p


def _change(g2: ArrayGraph, owner2: np.ndarray, intact: list[int], damaged: list[int],
            src: list[tuple[np.ndarray, int, str]], bound: int,
            full: tuple[dict[int, tuple[np.ndarray, int, str]], list[int], Packing]
            ) -> tuple[dict[int, tuple[np.ndarray, int, str]], list[int], list[int]]:
    """Step 3: ``(made, same, kept)`` with one intact tree opened to the packer, each tried in turn, the first
    that reaches ``bound``; when none does, ``full`` (the packer on every tree) and the intact trees it left."""
    for s in intact:
        others = [t for t in intact if t != s]
        made, same, p = _grow(g2, owner2, others, damaged + [s], src)
        if len(others) + p.count >= bound:
            return made, same, others + [t for t in same if t == s]
    made, same, _ = full
    return made, same, [t for t in intact if t in same]


def _rebuilt(trees: Sequence[Any], src: list[tuple[np.ndarray, int, str]],
             made: dict[int, tuple[np.ndarray, int, str]], s: int, n: int) -> Tree:
    """The tree ``made[s]`` if the repair made it, else input tree ``s`` as it was (the same object for a
    :class:`Tree`)."""
    if s in made:
        rows, root, tag = made[s]
        return Tree(rows, root, tag, n=n)
    x = trees[s]
    return x if isinstance(x, Tree) else Tree(src[s][0], src[s][1], src[s][2], n=n)
