"""Figure 2 of the paper: Cartesian EDSTs carried naively into a star product are neither trees nor spanning.

Section III of Isham et al. (2025) asks whether the EDSTs of a Cartesian product ``G □ H`` (Ku, Wang and Hung
2003) can simply be moved into the star product ``G * H`` with the same factors, edge by edge, and answers no:
"doing so guarantees neither trees nor spanning edges" (Figure 2, whose drawing is lost in our copy).

The move is :func:`naive_transfer`: an edge inside a supernode stays where it is, and the Cartesian edge
``{(g, h), (g', h)}`` between two supernodes, ``g < g'``, becomes the star-product edge
``{(g, h), (g', phi_{g -> g'}(h))}`` of the same arc (:func:`~starlib.products.transfer_map`). This is a
bijection between the edge sets of ``G □ H`` and ``G * H`` (for every arc and every ``h`` one edge on each side),
so the images of ``k`` EDSTs are ``k`` edge-disjoint sets of ``n - 1`` edges of ``G * H``; what breaks is the
shape: a set of ``n - 1`` edges is a spanning tree iff it has no cycle iff it is connected, and an image can have
a cycle, hence several components, some of them single vertices that no edge of the set reaches.
:func:`naive_transfer_frame` reports this per tree, with the verifier (:func:`~starlib.edst.verify_edsts`) as
the check. The smallest product of :func:`~starlib.networks.complete_paley` where it happens is
``K_3 * QR(5)``.

Example
-------
>>> from starlib.networks import complete_paley
>>> df = naive_transfer_frame(complete_paley(3, 5))
>>> df[["tree", "components", "uncovered", "cycles", "is_tree", "verifier"]].values.tolist()
[[0, 2, 1, 1, False, 'acyclic, spanning'], [1, 1, 0, 0, True, 'ok']]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ..edst import auto_trees, verify_edsts
from ..products import StarProduct, cartesian_product

__all__ = ["naive_transfer", "naive_transfer_frame"]


def naive_transfer(P: StarProduct, edges: Any) -> np.ndarray:
    """Carry an edge set of ``G □ H`` into ``P = G * H`` edge by edge (the move Figure 2 refutes).

    Parameters
    ----------
    P : StarProduct
        The star product; ``G □ H`` is :func:`~starlib.products.cartesian_product` of its factors, with the same
        vertex numbering ``(g, h) -> g * n_H + h``.
    edges : array_like
        ``(k, 2)`` edges of ``G □ H`` (a tree's ``edges``).

    Returns
    -------
    ndarray
        ``(k, 2)`` int64 edges of ``P``: ``{(g, h), (g, h')}`` unchanged; ``{(g, h), (g', h)}`` with ``g < g'``
        becomes ``{(g, h), (g', phi_{g -> g'}(h))}``, so the endpoint in the supernode of lower index keeps
        its supernode vertex.

    Raises
    ------
    ValueError
        If an edge is not an edge of ``G □ H`` (its ends differ in both coordinates, or ``{g, g'}`` is not an
        edge of ``G``, or ``h`` differs across a structure edge).

    Examples
    --------
    >>> from starlib.networks import complete_paley
    >>> P = complete_paley(2, 5)                 # the Petersen graph, f(x) = 2x
    >>> naive_transfer(P, [[1, 6], [0, 1]]).tolist()
    [[1, 7], [0, 1]]

    References
    ----------
    Section III and Figure 2 of Isham et al. (2025); Ku, Wang and Hung (2003) for the Cartesian EDSTs.
    """
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    nH = P.supernode.n
    g, h = np.divmod(e, nH)
    inter = g[:, 0] != g[:, 1]
    bad = inter & (h[:, 0] != h[:, 1])
    if bad.any():
        u, v = e[np.flatnonzero(bad)[0]].tolist()
        raise ValueError(f"edges: ({u}, {v}) joins (g, h) to (g', h') with h != h': not an edge of G □ H")
    lo, hi = np.minimum(g[:, 0], g[:, 1])[inter], np.maximum(g[:, 0], g[:, 1])[inter]
    hh = h[inter, 0]
    out = e.copy()
    out[inter] = np.stack([lo * nH + hh, hi * nH + P.transfer(lo, hi, hh)], axis=1)  # arc_index checks {lo, hi}
    return out


def _components(n: int, edges: np.ndarray) -> tuple[int, int]:
    """Number of connected components of ``(V, edges)`` and of vertices no edge reaches."""
    a = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    count = int(csgraph.connected_components(a, directed=False)[0])
    return count, int(n - np.unique(edges).size)


def naive_transfer_frame(P: StarProduct, cartesian_trees: Sequence[Any] | None = None) -> pd.DataFrame:
    """Carry EDSTs of ``G □ H`` naively into ``P = G * H`` and report, per tree, what they become.

    Parameters
    ----------
    P : StarProduct
        The star product ``G * H``.
    cartesian_trees : sequence of Tree or array_like, optional
        EDSTs of ``G □ H``; by default the ones the paper's constructions build there
        (:func:`~starlib.edst.auto_trees` of :func:`~starlib.products.cartesian_product`).

    Returns
    -------
    DataFrame
        One row per tree: ``tree`` (index), ``construction`` (in ``G □ H``), ``cartesian`` (the verifier's
        verdict on the tree in ``G □ H``: ``ok`` or the failed rules), ``edges`` (``n - 1``), then for the image in
        ``P``: ``components``, ``uncovered`` (vertices no edge of the image reaches), ``cycles`` (independent
        cycles, ``edges - n + components``), ``is_tree``, ``spanning`` (connected and covering every vertex) and
        ``verifier`` (``ok`` or the rules :func:`~starlib.edst.verify_edsts` finds broken for that tree).

    Raises
    ------
    ValueError
        If a given tree is not a set of edges of ``G □ H``.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> df = naive_transfer_frame(slimfly(3))     # MMS(3) = K_{3,3} * C(X)
    >>> df[["components", "uncovered", "cycles", "spanning"]].values.tolist()
    [[2, 0, 1, False], [1, 0, 0, True]]

    References
    ----------
    Section III and Figure 2 of Isham et al. (2025).
    """
    C = cartesian_product(P.structure, P.supernode)
    trees = auto_trees(C) if cartesian_trees is None else list(cartesian_trees)
    arrays = [np.asarray(getattr(t, "edges", t), dtype=np.int64).reshape(-1, 2) for t in trees]
    images = [naive_transfer(P, a) for a in arrays]
    on_c, on_p = verify_edsts(C, arrays, allow_empty=True), verify_edsts(P, images, allow_empty=True)

    def rules(report: Any, i: int) -> str:
        broken = sorted({rule for t, rule, _ in report.failures if t == i})
        return ", ".join(broken) if broken else "ok"

    rows = []
    for i, (t, img) in enumerate(zip(trees, images, strict=True)):
        comp, uncovered = _components(P.n, img)
        cycles = len(img) - P.n + comp
        rows.append({"tree": i, "construction": getattr(t, "construction", ""), "cartesian": rules(on_c, i),
                     "edges": len(img), "components": comp, "uncovered": uncovered, "cycles": cycles,
                     "is_tree": comp == 1 and cycles == 0, "spanning": comp == 1,
                     "verifier": rules(on_p, i)})
    return pd.DataFrame(rows)
