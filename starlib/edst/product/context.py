"""One star product's factor EDST sets, its index frame, and small helpers shared by the constructions.

Example
-------
>>> from starlib.edst import product_context
>>> from starlib.networks import slimfly
>>> ctx = product_context(slimfly(5))
>>> (ctx.G.t, ctx.G.r, ctx.H.t, ctx.H.r)
(2, 7, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...graphs import GraphLike, as_graph
from ...products import StarProduct, star_form
from ..trees import Tree, bfs_tree
from .blocks import Block, ProductFrame
from .factor_data import FactorData

__all__ = ["ProductContext", "greedy_distinct", "describe_graph", "require_star_product"]


def describe_graph(obj: Any) -> str:
    """``"a networkx Graph"``, ``"an ArrayGraph 'complete'"``: what a graph argument is, for a message.

    >>> from starlib.factors import complete
    >>> describe_graph(complete(3))
    "an ArrayGraph 'complete'"
    """
    cls = type(obj)
    if cls.__module__.split(".")[0] == "networkx":
        return f"a networkx {cls.__name__}"
    label = getattr(obj, "name", "")
    return f"{'an' if cls.__name__[:1] in 'AEIOU' else 'a'} {cls.__name__}" + (f" {label!r}" if label else "")


def require_star_product(P: GraphLike, what: str, *, relabelled: bool = True, name: str = "P"
                         ) -> tuple[StarProduct, np.ndarray | None]:
    """The star product behind ``P`` and the map to ``P``'s numbering (:func:`~starlib.products.star_form`): the
    one check of the product floor's door.

    A public function that needs a star product takes ``StarProduct | RelabelledProduct``, calls this once and
    passes the :class:`~starlib.products.StarProduct` it returns inward.

    Parameters
    ----------
    P : GraphLike
        The argument as the door received it: a StarProduct (or a RelabelledProduct, if ``relabelled``) passes; any
        other graph, or anything else, is refused.
    what : who needs it, for the message (``"method=maximum"``).
    relabelled : accept a :class:`~starlib.products.RelabelledProduct` (its map is returned; None otherwise).
    name : the argument's name in the message.

    Raises
    ------
    ValueError
        If ``P`` is a graph but no star product (or a relabelled one where ``relabelled`` is false).
    TypeError
        If ``P`` is no graph at all (None, text).

    Example
    -------
    >>> from starlib.factors import complete
    >>> require_star_product(complete(3), "method=maximum")
    Traceback (most recent call last):
    ...
    ValueError: P: method=maximum needs a star product (StarProduct), got an ArrayGraph 'complete'; use auto_trees \
or generic_trees for any other graph
    """
    form = star_form(P)
    if form is None or (form[1] is not None and not relabelled):
        as_graph(P, name)  # None, text, a multigraph or a digraph: refused as such
        raise ValueError(f"{name}: {what} needs a star product (StarProduct), got {describe_graph(P)}; use auto_trees "
                         f"or generic_trees for any other graph")
    return form


def greedy_distinct(scores: list[np.ndarray], exclude: set[int] | None = None,
                    allowed: np.ndarray | None = None) -> list[int]:
    """Pick distinct vertices, the ``i``-th minimising ``scores[i]`` (ties: smallest index).

    Example
    -------
    >>> greedy_distinct([np.array([1, 0, 2]), np.array([1, 0, 2])])
    [1, 0]
    """
    used = set(exclude or ())
    ok = None if allowed is None else set(np.asarray(allowed).tolist())
    out = []
    for s in scores:
        best = None
        for v in np.argsort(s, kind="stable").tolist():
            if v not in used and (ok is None or v in ok):
                best = v
                break
        if best is None:
            raise ValueError("greedy_distinct: not enough distinct vertices to choose from")
        used.add(best)
        out.append(best)
    return out


@dataclass
class ProductContext:
    """A star product with maximum EDST sets of both factors.

    Attributes
    ----------
    P : the star product (checked at the door: a :class:`~starlib.products.StarProduct` with connected factors of
        at least 2 vertices).
    frame : its :class:`~starlib.edst.product.blocks.ProductFrame`.
    G, H : :class:`~starlib.edst.product.factor_data.FactorData` of the structure graph and the supernode.
    """

    P: StarProduct
    frame: ProductFrame
    G: FactorData
    H: FactorData

    @property
    def N(self) -> int:
        """Number of product vertices."""
        return self.frame.N

    def tree(self, parts: list[np.ndarray | Block], root: int, tag: str, meta: dict[str, Any],
             exact: bool = True) -> Tree:
        """A product tree from edge blocks (arrays, or :class:`~starlib.edst.product.blocks.Block` written in place);
        with ``exact=False`` take a BFS tree from ``root`` (Remark V-C.8)."""
        return self.trees([(parts, root, tag, meta, exact)])[0]

    def trees(self, specs: list[tuple[list[np.ndarray | Block], int, str, dict[str, Any], bool]]) -> list[Tree]:
        """Several trees, ``(parts, root, tag, meta, exact)`` each as in :meth:`tree`, written into one buffer.

        One allocation for the whole set (numpy backs a large buffer with huge pages; a few hundred separate
        tree-sized arrays each pay their page faults), every block written in place; each tree's rows are a
        view of the buffer until it is sorted.
        """
        sizes = [[p.size if isinstance(p, Block) else int(np.asarray(p).size) // 2 for p in parts]
                 for parts, *_ in specs]
        buf = np.empty((sum(sum(s) for s in sizes), 2), dtype=np.int64)
        out = []
        start = 0
        for (parts, root, tag, meta, exact), ks in zip(specs, sizes, strict=True):
            first = start
            for p, k in zip(parts, ks, strict=True):
                if isinstance(p, Block):
                    p.write(buf[start:start + k])
                else:
                    buf[start:start + k] = np.asarray(p, dtype=np.int64).reshape(-1, 2)
                start += k
            e = buf[first:start]
            if not exact:
                e = bfs_tree(self.N, e, root, sort=False)  # the Tree sorts when asked
            out.append(Tree(e, root, tag, n=self.N, meta=meta))
        return out
