"""Slim Fly MMS(q) at its maximum EDST count with every tree of depth at most 4.

:func:`slimfly_shallow_trees` returns ``k(q) = floor((3q - delta)/4)`` edge-disjoint spanning trees of
:func:`~starlib.networks.slimfly` ``(q)`` (``q = 4w + delta``, ``delta`` in {-1, 0, 1}), each rooted at its centre,
of depth at most 4. Which parts of that statement are theorems and which are measurements is spelled out below;
nothing here is claimed beyond it.

What is proved
--------------
**Count (a theorem).** MMS(q) has ``n = 2q^2`` vertices and is ``d``-regular with ``d = (3q - delta)/2``, so
``m = q^2 d``. Eq. (1) bounds the count by ``floor(m/(n-1))``, and

    m / (n - 1) = q^2 d / (2q^2 - 1) = d/2 + d / (2 (2q^2 - 1)),

where the last term lies in ``(0, 1/2)`` because ``0 < d < 2q^2 - 1``. Hence ``floor(m/(n-1)) = floor(d/2) =
floor((3q - delta)/4)``: ``3w`` for ``delta`` in {0, 1} and ``3w - 1`` for ``delta = -1`` (q = 5: 3, 7: 5, 8: 6,
9: 6, 11: 8, 13: 9). It is below the degree, so it is :func:`~starlib.bounds.upper_bound`. Table I's construction
(:func:`~starlib.edst.product.auto.auto_trees`, Sections V-C/V-D, Corollaries V-C.10/V-C.11) reaches it for every
admissible ``q``: its count is ``t_G + t_H = floor(q^2/(2q-1)) + floor(q|X|/(2(q-1)))`` (Theorem V-C.3) and this
function raises if it ever did not. So the count returned is the maximum, and it is certified by the bound.

**Slack (a theorem, the reason depth is hard here).** The unused edges number ``m - k(n-1)``: ``3w`` for
``q = 2^j`` (``delta = 0``), ``q^2 + 3w`` for ``delta = 1`` and ``q^2 + 3w - 1`` for ``delta = -1``. For
``q = 2^j`` the packing is perfect up to ``3q/4`` edges: every vertex but at most ``3q/2`` uses all of its ``d``
edges, one parent edge in each of the ``k - 1`` or ``k`` trees it is not the root of, and the remaining
``d - k = 3q/4`` (or ``3q/4 + 1`` at a root) as child edges, summed over the trees. A depth-4 family therefore has
to spread the child edges of every vertex evenly over the trees, which is why q = 8 is the hard case (depth 5 from
the local search alone).

**Degree cap (a theorem).** A vertex is a non-root in at least ``k - 1`` trees, each with an edge there, so no tree
of a maximum family has degree above ``d - k + 1`` at a vertex. For ``q >= 8``, ``k - 1 > |X| = (q - delta)/2``:
no tree holds all ``q`` cross edges of a vertex.

**Lower bound (a theorem, every admissible q).** In a family of ``k(q)`` EDSTs of MMS(q), *every* tree has
depth at least 3. The ``k - 1`` other trees each use an edge at every vertex, so a tree has degree at most
``c = d - k + 1`` anywhere (the degree cap above): its root has at most ``c`` children and every other vertex at
most ``c - 1``. A tree of depth 2 therefore has at most ``1 + c + c(c - 1) = 1 + c^2`` vertices. For
``delta = 0``, ``c = 3q/4 + 1`` and ``2q^2 - (1 + c^2) = (23q^2 - 24q - 32)/16 > 0`` for ``q >= 4``; for
``delta = +-1`` (``d`` odd), ``c = (d + 3)/2 <= (3q + 7)/4`` and ``16 (2q^2 - 1 - c^2) >= 23q^2 - 42q - 65 > 0``
for ``q >= 3``. So ``1 + c^2 < 2q^2 = n``: no tree of depth 2 spans. This is the degree-budget argument of
:mod:`starlib.edst.depth.bound` in closed form, and :func:`~starlib.edst.depth.depth_lower_bound` (which also
uses the BFS balls) gives the same 3 on every ``q`` it is run on. So depth 4 is within one level of optimal, for
every admissible ``q``; at ``q = 3`` depth 3 is reached, and at ``q = 5`` CP-SAT proves depth 3 infeasible
(``data/depth_certificates.csv``), so 4 is optimal there; it proves depth 3 infeasible at ``q = 4`` too, and
finds a depth-3 family at ``q = 7`` (:mod:`starlib.edst.depth.slimfly3`). So the least depth of a maximum family
is 3 at ``q = 3, 7`` and 4 at ``q = 4, 5``; for the other ``q`` it is 3 or 4.

What is measured, not proved
----------------------------
**Depth <= 4.** The family is built by a deterministic pipeline and its depth is then *checked*, not derived:

1. Start: Table I's maximum family (``auto_trees``, the paper's Constructions V-C.4 to V-C.7 or V-D; depth up to
   ``(D_G + 1)(2 L_G + 2 d_H^{t_H}) + D_G``, Theorem V-C.12).
2. The depth-reducing local search :func:`~starlib.edst.depth.improve_depth` (subtree moves along graph edges
   ``xy`` with ``y`` shallower, exchanging parent edges between trees; every move keeps ``k`` edge-disjoint
   spanning trees). It reaches depth 4 for every admissible ``q <= 128`` except ``q = 8`` (depth 5).
3. If a tree is deeper than 4: the targeted repair of the vertices deeper than 4 written for ER_q
   (:mod:`starlib.edst.depth.er`; exchanges scored by the number of deep vertices, chained exchanges, seeded kicks),
   which takes q = 8 to depth 4. Then one more search and repair from the best family if still needed.

Every family returned passes :func:`~starlib.edst.verify.check_edsts`. Depth ``<= 4`` holds for **every admissible
q <= 128** (the 43 prime powers from 3 to 128; depth 3 at q = 3): ``make slimfly-depth``
(``tools/check_slimfly_depth.py``) builds and verifies each one and writes ``data/slimfly_depth.csv`` (about
80 s on one core up to ``q = 64``, about 50 minutes up to 128, where ``n = 32,768`` and ``m = 3.1`` million).
For one of these ``q`` the recorded family *is* a computer-checked proof that MMS(q) has ``k(q)`` EDSTs of depth
at most 4; it is not a proof for other ``q``, and for ``q > 128`` the function returns the best family found,
whose depths say whether it met the target.

What a closed-form construction would have to do
------------------------------------------------
(Recorded for the next attempt; not implemented.) In Hafner's form the tree rooted at a point ``P`` of column
``u`` that takes the column's ``C(X)`` by a BFS tree (depth 2, since MMS(q) has diameter 2), every line below the
point where it meets column ``u`` (depth 3) and every other point below one of its lines (depth 4) has depth 4,
but holds all ``q`` cross edges of each column-``u`` point, which the degree cap forbids for ``q >= 8``. The slack
count shows that a maximum family must instead give each vertex about ``3q/4`` child edges *in total*, cross and
intra alike; in a hub design (children in one tree only) a tree owning a whole column or slope class would be the
only tree able to use its ``q|X|/2`` intra edges, so the hub sets must interleave inside every class
(docs/star-products.md §7.6). Turning the twisted-sheet idea (lift a factor tree through the bijections, join the
sheets with supernode edges near the root) into such a balanced assignment is the open step.

One symmetric shortcut fails, provably. The maps ``H_u = {(x, y) -> (x, y + b (x - u))}`` (lines
``(m, c) -> (m + b, c - b u)``) form a group of order ``q`` of automorphisms that fixes column ``u`` pointwise,
acts regularly on every other column, and whose line orbits are the pencils through the points of column ``u``.
Root a tree invariant under ``H_u`` at its centre: ``H_u`` fixes it (the orbits have 1 or ``q >= 3`` points, so a
central edge is not flipped), so the parent map commutes with ``H_u``. A point of a column ``x != u`` then cannot
have its parent in its own column (the column is one orbit, and a parent map inside a finite orbit closes a
cycle), so its parent is a line; by
invariance all the parents of column ``x`` are the ``q`` lines through one point ``(u, z_x)``, one per slope. A
second tree invariant under ``H_u'``, ``u' != u``, does the same through ``(u', z'_x)``. The line through
``(u, z_x)`` and ``(u', z'_x)`` has some slope ``m`` and meets column ``x`` in one point: both trees hold that
cross edge. Trees invariant under the same ``H_u`` each hold a spanning tree of column ``u``'s ``C(X)`` (the fixed
points, whose parents must be fixed too), and ``C(X)`` has at most ``t_H < k`` edge-disjoint ones. So no maximum
family consists of trees each invariant under some ``H_u``.

References
----------
Isham et al. (2025): eq. (1), Theorem V-C.3, Corollaries V-C.10/V-C.11, Theorem V-C.12, Table I, Appendix B-B3
(MMS(q) = K_{q,q} * C(X)); docs/star-products.md §7.6.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from ...bounds import upper_bound
from ...factors import MMS_ORDER, mms_delta
from ...graphs import GraphLike, as_graph
from ...validation import check_int
from ..product.auto import auto_trees
from ..trees import EDSTSet, Tree
from ..verify import check_edsts
from .bound import depth_lower_bound
from .er import repair_family
from .search import graph_index, improve_depth

__all__ = ["TARGET_DEPTH", "TAG", "check_slimfly_graph", "slimfly_edst_count", "slimfly_shallow_trees",
           "family_sha256"]

#: The depth every tree should meet.
TARGET_DEPTH = 4
#: Construction tag of every tree (the start, Table I's ``auto``, then the local search and the repair).
TAG = "slimfly-depth4(auto+ls+repair)"


def slimfly_edst_count(q: int) -> int:
    """The maximum number of EDSTs of Slim Fly MMS(q): ``floor((3q - delta)/4)``, ``q = 4w + delta``.

    Proved equal to eq. (1)'s ``floor(m/(n-1))`` for MMS(q) (module docstring, "Count"), and met by Table I.

    Parameters
    ----------
    q : int
        An admissible MMS order: a prime power ``q >= 3``, ``q = 0, 1 or 3 (mod 4)``
        (:data:`~starlib.factors.MMS_ORDER`).

    Returns
    -------
    int
        ``3w`` for ``delta`` in {0, 1}, ``3w - 1`` for ``delta = -1``.

    Raises
    ------
    ValueError
        If ``q`` is not an admissible MMS order.

    Examples
    --------
    >>> [slimfly_edst_count(q) for q in (3, 4, 5, 7, 8, 9, 11, 13)]
    [2, 3, 3, 5, 6, 6, 8, 9]

    References
    ----------
    Eq. (1) and Theorem V-C.3 of Isham et al. (2025).
    """
    delta = mms_delta(q)
    return (3 * q - delta) // 4


def family_sha256(trees: EDSTSet) -> str:
    """SHA-256 of a family: every tree's root and canonical edges (sorted rows ``u < v``), in order.

    Parameters
    ----------
    trees : EDSTSet
        The family.

    Returns
    -------
    str
        64 hex digits; equal families (same trees, roots and order) give equal digests.

    Examples
    --------
    >>> T = EDSTSet([Tree(np.array([[0, 1], [1, 2]]), 0, "a")])
    >>> len(family_sha256(T))
    64
    """
    h = hashlib.sha256()
    for t in trees:
        h.update(np.int64(t.root).tobytes())
        h.update(np.ascontiguousarray(t.edges, dtype=np.int64).tobytes())
    return h.hexdigest()


def check_slimfly_graph(q: int, graph: GraphLike | None) -> Any:
    """``graph`` if it is the network ``slimfly(q)`` (its name ``"slimfly"`` and its ``q``), else a ``ValueError``.

    This floor of the library does not build networks, so the caller passes :func:`~starlib.networks.slimfly`
    ``(q)``; the trees of this module are in its vertex indices.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> check_slimfly_graph(5, slimfly(5)).n
    50
    >>> check_slimfly_graph(5, slimfly(7))
    Traceback (most recent call last):
    ...
    ValueError: graph: expected slimfly(q=5) (name 'slimfly', params q=5), got name='slimfly', params={'q': 7}
    """
    if graph is None:
        raise ValueError(f"graph: None; pass the network slimfly(q={q}) (starlib.networks.slimfly)")
    name = getattr(graph, "name", None)
    params = getattr(graph, "params", None) or {}
    if name != "slimfly" or params.get("q") != q:
        raise ValueError(f"graph: expected slimfly(q={q}) (name 'slimfly', params q={q}), got name={name!r}, "
                         f"params={params!r}")
    return graph


def _key(trees: EDSTSet) -> tuple[int, int]:
    d = trees.depths()
    return max(d), sum(d)


def slimfly_shallow_trees(q: int, graph: GraphLike | None = None, *, seed: int = 0) -> EDSTSet:
    """``floor((3q - delta)/4)`` EDSTs of Slim Fly MMS(q) (the maximum), each of depth at most 4 for ``q <= 64``.

    The count is proved maximum; the depth is measured and verified (module docstring: the proof of the count, the
    pipeline, and the record ``data/slimfly_depth.csv`` of every admissible ``q <= 64``, all of depth <= 4).

    Parameters
    ----------
    q : int
        An admissible MMS order (:data:`~starlib.factors.MMS_ORDER`: a prime power ``q >= 3``,
        ``q = 0, 1 or 3 (mod 4)``).
    graph : StarProduct
        The network ``slimfly(q)`` (its name must be ``"slimfly"`` and its ``q`` this ``q``; this floor of the
        library does not build networks). The trees are in its vertex indices (for Hafner's labels,
        :func:`~starlib.networks.slimfly_hafner`, map them with :func:`~starlib.edst.trees.relabel_trees` and
        its ``.index``).
    seed : int, optional
        Seed of the local search and the repair (tie orders, kicks); the same ``q`` and seed give the same trees.

    Returns
    -------
    EDSTSet
        ``theorem == "slimfly-depth4"``; every tree rooted at its centre, tagged :data:`TAG`, with ``meta``
        ``"q"``, ``"target"`` (4), ``"upper_bound"`` (eq. (1), equal to the count), ``"lower_bound"``
        (:func:`~starlib.edst.depth.depth_lower_bound`) and ``"stage"`` (``"ls"`` or ``"repair"``: the step that
        reached the depth). Checked by :func:`~starlib.edst.verify.check_edsts` before it is returned.

    Raises
    ------
    ValueError
        If ``q`` is not an admissible MMS order, ``seed`` is negative, or ``graph`` is not ``slimfly(q)``.

    Examples
    --------
    >>> from starlib.edst import verify_edsts
    >>> from starlib.networks import slimfly
    >>> T = slimfly_shallow_trees(8, slimfly(8))
    >>> len(T), max(T.depths()), verify_edsts(slimfly(8), T).valid
    (6, 4, True)

    References
    ----------
    Isham et al. (2025): eq. (1), Theorem V-C.3, Table I (the start), Theorem V-C.12 (its depth);
    docs/star-products.md §7.6.
    """
    q = MMS_ORDER(q, "q")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    P = check_slimfly_graph(q, graph)
    g = as_graph(P, "graph")
    k = slimfly_edst_count(q)
    ub = upper_bound(g)
    start = auto_trees(P)
    if len(start) != k or ub != k:  # pragma: no cover - Theorem V-C.3 and the count proof
        raise RuntimeError(f"q={q}: auto_trees gives {len(start)} trees, upper bound {ub}, expected {k}")
    m = int(g.m)
    runs = 24 if m <= 20_000 else 8 if m <= 60_000 else 2 if m <= 200_000 else 1
    steps = 400 if m <= 200_000 else 100
    index = None
    best: EDSTSet | None = None
    stage = "ls"
    base: EDSTSet = start
    for attempt in range(2):
        s = seed * 1009 + 31 * attempt
        fam = improve_depth(g, base, seed=s, restarts=runs if attempt == 0 else 2 * runs)
        cur_stage = "ls"
        if max(fam.depths()) > TARGET_DEPTH:
            if index is None:
                index = graph_index(g)
            fam, _ = repair_family(g, index, fam, s, steps)
            cur_stage = "repair"
        if best is None or _key(fam) < _key(best):
            best, stage = fam, cur_stage
        if max(best.depths()) <= TARGET_DEPTH:
            break
        base = best
    assert best is not None
    lb = int(depth_lower_bound(g, k).value)
    out = EDSTSet()
    for t in best:
        meta = {"q": q, "target": TARGET_DEPTH, "upper_bound": int(ub), "lower_bound": lb, "stage": stage}
        out.append(Tree(t.rows, t.root, TAG, n=t.n, meta=meta, _depth=t.depth))
    out.theorem = "slimfly-depth4"
    check_edsts(g, out)
    return out
