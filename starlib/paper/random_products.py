"""Seeded random factors and random star products, for checking the constructions off the named families.

* :func:`random_factor` draws a connected simple graph that is the union of ``t`` random edge-disjoint
  spanning trees and ``r`` further random edges. With ``r <= n - 2`` its maximum number of EDSTs is exactly
  ``t = floor(m/(n-1))`` and ``r = m - t(n-1)`` (docs/star-products.md §2), so the Table I case of a product of two such
  factors is known in advance.
* :func:`random_star_product` joins two factors with a random bijection on every arc; given ``classes``
  (a partition of ``V_H``) every bijection maps each class onto itself.
* :func:`vd1_classes` splits the last tree of the supernode's packing into a top part ``E_1`` and bottom
  branches ``E_2`` and returns the three vertex classes ``V(E_1) \\ V(E_2)``, ``I``, ``V(E_2) \\ V(E_1)``.
  Bijections that preserve them give a star product with Property V-D.1 (docs/star-products.md §8.1,
  condition 3) that is not Cartesian.

Example
-------
>>> from starlib.bounds import t_and_r
>>> H = random_factor(8, 2, 3, seed=1)
>>> H.n, H.m, t_and_r(H), H.is_connected()
(8, 17, (2, 3), True)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ..edst import default_factor_trees, orient, tree_center
from ..graphs import ArrayGraph
from ..products import StarProduct, star_product
from ..validation import check_int

__all__ = ["random_factor", "random_star_product", "vd1_classes"]

_ATTEMPTS = 200


def _random_tree(n: int, free: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """A spanning tree of the graph of ``free`` edges (rows of an ``(k, 2)`` array): a minimum spanning
    tree for random weights; ``None`` if the free edges do not connect all ``n`` vertices."""
    w = rng.random(free.shape[0]) + 1.0  # weights in [1, 2): no zero entries in the sparse matrix
    a = sp.csr_matrix((w, (free[:, 0], free[:, 1])), shape=(n, n))
    t = csgraph.minimum_spanning_tree(a).tocoo()
    if t.nnz != n - 1:
        return None
    e = np.stack([np.minimum(t.row, t.col), np.maximum(t.row, t.col)], axis=1).astype(np.int64)
    return e


def random_factor(n: int, t: int, r: int, seed: int = 0, name: str = "random") -> ArrayGraph:
    """A random connected simple graph with exactly ``t`` EDSTs and ``r`` non-tree edges.

    The graph is the union of ``t`` edge-disjoint spanning trees, each a minimum spanning tree of the
    still-unused edges of ``K_n`` under random weights, and ``r`` unused edges chosen uniformly. If the unused
    edges stop being connected before the last tree, the draw restarts (at most 200 times).

    Parameters
    ----------
    n : int
        Number of vertices, ``n >= 2``.
    t : int
        Number of spanning trees, ``1 <= t <= n/2``.
    r : int
        Extra edges, ``0 <= r <= n - 2`` and ``t(n-1) + r <= n(n-1)/2``.
    seed : int
        Seed of :func:`numpy.random.default_rng`.
    name : str
        Name of the graph.

    Returns
    -------
    ArrayGraph
        ``m = t(n-1) + r`` edges; ``params`` records ``n, t, r, seed``. Since ``r <= n - 2``,
        ``floor(m/(n-1)) = t``, and the ``t`` trees attain it.

    Raises
    ------
    ValueError
        If a parameter breaks its rule, or no draw succeeds (only possible when ``t`` is close to ``n/2``).

    Example
    -------
    >>> g = random_factor(6, 3, 0, seed=0)          # three spanning trees of K_6: all 15 edges
    >>> g.m, g.degree_set()
    (15, [5])

    References
    ----------
    docs/star-products.md §2 (``t``, ``r``); Nash-Williams and Tutte (1961) for ``t <= floor(m/(n-1))``.
    """
    n = check_int(n, "n", minimum=2)
    t = check_int(t, "t", minimum=1)
    r = check_int(r, "r", minimum=0)
    seed = check_int(seed, "seed", minimum=0)
    if 2 * t > n:
        raise ValueError(f"t={t} is too large for n={n}: a simple graph has at most n/2 edge-disjoint spanning trees")
    if r > n - 2:
        raise ValueError(f"r={r} is too large: need r <= n - 2 = {n - 2} so that t = floor(m/(n-1))")
    if t * (n - 1) + r > n * (n - 1) // 2:
        raise ValueError(f"t={t}, r={r}: t(n-1) + r = {t * (n - 1) + r} exceeds the n(n-1)/2 = {n * (n - 1) // 2} "
                         f"edges of K_{n}")
    rng = np.random.default_rng(seed)
    iu = np.triu_indices(n, 1)
    all_edges = np.stack(iu, axis=1).astype(np.int64)
    for _ in range(_ATTEMPTS):
        used = np.zeros(all_edges.shape[0], dtype=bool)
        ok = True
        for _k in range(t):
            tree = _random_tree(n, all_edges[~used], rng)
            if tree is None:
                ok = False
                break
            used[tree[:, 0] * n + tree[:, 1] - (tree[:, 0] + 1) * (tree[:, 0] + 2) // 2] = True
        if not ok:
            continue
        extra = rng.choice(np.flatnonzero(~used), size=r, replace=False)
        used[extra] = True
        return ArrayGraph.from_edges(list(range(n)), all_edges[used], name=name,
                                     params={"n": n, "t": t, "r": r, "seed": seed})
    raise ValueError(f"n={n}, t={t}: no union of {t} random edge-disjoint spanning trees found in {_ATTEMPTS} draws "
                     f"(seed={seed}); lower t")


def random_star_product(G: ArrayGraph, H: ArrayGraph, seed: int = 0,
                        classes: Sequence[Sequence[int]] | None = None, name: str = "random-star") -> StarProduct:
    """``G * H`` with an independent random bijection on every arc of ``G``.

    Parameters
    ----------
    G, H : ArrayGraph
        Structure graph and supernode (connected).
    seed : int
        Seed of :func:`numpy.random.default_rng`.
    classes : sequence of sequences of int, optional
        A partition of ``V_H``; every bijection then permutes each class within itself (so every class is a
        union of orbits of the group the bijections generate).
    name : str
        Name of the product.

    Returns
    -------
    StarProduct
        ``G * H`` with the drawn bijections.

    Raises
    ------
    ValueError
        If ``classes`` is not a partition of ``0..H.n-1``, or a factor is not a valid star-product factor.

    Example
    -------
    >>> from starlib.factors import complete
    >>> P = random_star_product(complete(3), complete(4), seed=2, classes=[[0, 1], [2, 3]])
    >>> P.n, P.m, bool((np.sort(P.bijections[:, :2], axis=1) == [0, 1]).all())
    (12, 30, True)

    References
    ----------
    Definition II-B.2 of Isham et al. (2025) (any bijection per arc); Bermond, Delorme, Farhi (1982).
    """
    seed = check_int(seed, "seed", minimum=0)
    nH = int(H.n)
    rng = np.random.default_rng(seed)
    if classes is None:
        parts = [np.arange(nH, dtype=np.int64)]
    else:
        parts = [np.asarray(c, dtype=np.int64).reshape(-1) for c in classes]
        flat = np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)
        if not np.array_equal(flat, np.arange(nH)):
            raise ValueError(f"classes={[p.tolist() for p in parts]} is not a partition of the supernode's "
                             f"vertices 0..{nH - 1}")
    B = np.empty((int(G.m), nH), dtype=np.int64)
    for k in range(int(G.m)):
        for p in parts:
            B[k, p] = rng.permutation(p)
    params = {"seed": seed, "invariant": classes is not None}
    return star_product(G, H, B, name=name, params=params)


def vd1_classes(H: ArrayGraph, trees: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """Vertex classes ``[V(E_1) \\ V(E_2), I, V(E_2) \\ V(E_1)]`` of a balanced top/bottom split of a tree of ``H``.

    The tree is the last one of ``trees`` (default: :func:`~starlib.edst.default_factor_trees` of ``H``),
    oriented from its center. ``V(E_1)`` is the shortest prefix of the BFS order holding at least half of
    the vertices and satisfying the size condition ``|V(E_1) \\ V(E_2)|, |V(E_2) \\ V(E_1)| >= t_H - 1`` of
    Property V-D.1; ``I`` holds the vertices of the prefix with a child outside it.

    Parameters
    ----------
    H : ArrayGraph
        The supernode (connected, ``n >= 3``).
    trees : sequence of (n-1, 2) arrays, optional
        A maximum EDST set of ``H``.

    Returns
    -------
    list of three sorted int arrays (the first two non-empty).

    Raises
    ------
    ValueError
        If ``H`` has fewer than 3 vertices or no prefix meets the size condition.

    Example
    -------
    >>> from starlib.factors import complete
    >>> cls = vd1_classes(complete(6))            # t_H = 3: both outer classes need >= 2 vertices
    >>> sorted(np.concatenate(cls).tolist()) == list(range(6)), len(cls[0]) >= 2, len(cls[2]) >= 2
    (True, True, True)

    References
    ----------
    Property V-D.1 of Isham et al. (2025) (docs/star-products.md §8.1).
    """
    n = int(H.n)
    if n < 3:
        raise ValueError(f"H: n={n}; a split of a spanning tree into two non-empty edge sets needs n >= 3")
    packing = list(default_factor_trees(H)) if trees is None else list(trees)
    arrays = [np.asarray(getattr(t, "edges", t), dtype=np.int64).reshape(-1, 2) for t in packing]
    need = len(arrays) - 1
    T = arrays[-1]
    c, _ = tree_center(n, T)
    og = orient(n, T, c)
    for k in range((n + 1) // 2, n):
        inside = np.zeros(n, dtype=bool)
        inside[og.order[:k]] = True
        out = np.flatnonzero(~inside)
        I_mask = np.zeros(n, dtype=bool)
        I_mask[og.parent[out]] = True
        I_mask &= inside
        only1 = np.flatnonzero(inside & ~I_mask)
        if out.shape[0] >= need and only1.shape[0] >= max(need, 1):
            return [only1, np.flatnonzero(I_mask), out]
    raise ValueError(f"H {H.name or ''}: no prefix of the BFS order of its last tree leaves t_H - 1 = {need} "
                     f"vertices on both sides")
