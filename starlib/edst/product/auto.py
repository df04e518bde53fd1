"""Choosing the construction (Table I), the generic packing of a whole product, and the CLI's methods.

:func:`auto_trees` follows Table I of the paper:

==========================================  ========================  =====================
case                                        construction              trees
==========================================  ========================  =====================
``r_G >= t_G`` and ``r_H >= t_H``            Maximum (V-C.3 / V-C.10)  ``t_G + t_H``
``r_G >= t_G`` or ``r_H >= t_H``             Maximum (V-C.11)          ``t_G + t_H - 1``
Property V-D.1 found                        V-D.2                     ``t_G + t_H - 1``
otherwise                                   Universal (V-B.1)         ``t_G + t_H - 2``
==========================================  ========================  =====================

``t`` and ``r`` are those of the factor EDST sets used (maximum ones by default, so ``t = floor(m/(n-1))``
whenever the factor reaches that bound). For a graph that is not a star product, or whose supernode is
disconnected (Chimera), ``auto`` returns the best packing :func:`~starlib.edst.factor_trees.factor_edsts`
knows (the maximum).

Example
-------
>>> from starlib.networks import bundlefly
>>> s = auto_trees(bundlefly(3, 5))
>>> len(s), s.theorem
(3, 'V-C.10')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bounds import table_i_count
from .context import is_star_product, product_context
from .factor_trees import factor_edsts
from .maximum import maximum_from_context
from .packing import generic_packing
from .property_vd1 import find_property_vd1, property_from_context
from .trees import EDSTSet, Tree, is_connected, tree_center
from .universal import universal_from_context, universal_trees

__all__ = ["auto_trees", "generic_trees", "table_i_case", "METHODS"]


def table_i_case(P: Any, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None) -> dict[str, Any]:
    """Table I's row for a star product: ``t``, ``r`` of both factors, Property V-D.1, theorem and count.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> c = table_i_case(slimfly(7))
    >>> (c["t_G"], c["r_G"], c["t_H"], c["r_H"], c["theorem"], c["count"])
    (3, 10, 2, 2, 'V-C.10', 5)
    """
    ctx = product_context(P, g_trees, h_trees, "auto")
    G, H = ctx.G, ctx.H
    prop = None
    if G.r < G.t and H.r < H.t:
        prop = find_property_vd1(P, H)
    theorem, count = table_i_count(G.t, G.r, H.t, H.r, prop is not None)
    return {"t_G": G.t, "r_G": G.r, "t_H": H.t, "r_H": H.r, "property_vd1": prop is not None, "theorem": theorem,
            "count": count, "witness": prop}


def auto_trees(P: Any, g_trees: list[Any] | None = None, h_trees: list[Any] | None = None) -> EDSTSet:
    """The construction Table I prescribes for this star product (the most trees the paper builds).

    Parameters
    ----------
    P : StarProduct or ArrayGraph
        A star product with connected factors; any other graph gets
        :func:`~starlib.edst.factor_trees.factor_edsts` (a maximum packing).
    g_trees, h_trees : optional
        Maximum EDST sets of the factors.

    Returns
    -------
    EDSTSet
        ``.theorem`` names the result applied; the count equals Table I's formula.

    Raises
    ------
    ValueError
        If the graph has fewer than 2 vertices.

    Example
    -------
    >>> from starlib.factors import complete
    >>> from starlib.products import cartesian_product
    >>> s = auto_trees(cartesian_product(complete(4), complete(4)))    # r = 0 < t: Property V-D.1
    >>> len(s), s.theorem
    (3, 'V-D.2')

    References
    ----------
    Table I and Theorem IV-.4 of Isham et al. (2025).
    """
    if not is_star_product(P) or not all(is_connected(X.n, X.edges) for X in (P.structure, P.supernode)):
        return factor_edsts(P)
    ctx = product_context(P, g_trees, h_trees, "auto")
    G, H = ctx.G, ctx.H
    if G.r >= G.t or H.r >= H.t:
        return maximum_from_context(ctx)
    witness = find_property_vd1(P, H)
    if witness is not None:
        return property_from_context(ctx, witness)
    return universal_from_context(ctx)


def generic_trees(P: Any) -> EDSTSet:
    """A maximum EDST set of any graph (product or not) by the exact matroid-partition packer.

    Trees are rooted at their centers and tagged ``"generic"``.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> len(generic_trees(slimfly(3)))
    2

    References
    ----------
    Roskind-Tarjan / Edmonds matroid partition (see :mod:`starlib.edst.packing`).
    """
    p = generic_packing(P)
    n = int(P.n)
    out = EDSTSet()
    for t in p.trees:
        c, _ = tree_center(n, t.edges)
        out.append(Tree(t.edges, c, "generic", n=n))
    out.theorem = "generic"
    return out


def _needs_product(name: str, fn: Callable[[Any], EDSTSet]) -> Callable[[Any], EDSTSet]:
    def method(graph: Any) -> EDSTSet:
        if not is_star_product(graph):
            raise ValueError(f"method={name} needs a star product")
        return fn(graph)

    method.__name__ = f"method_{name.replace('-', '_')}"
    method.__doc__ = f"CLI method ``{name}``: ``(graph) -> list[Tree]``."
    return method


def _low_depth(P: Any) -> EDSTSet:
    return universal_trees(P, low_depth=True)


def _maximum(P: Any) -> EDSTSet:
    return maximum_from_context(product_context(P, method="maximum"))


def _property(P: Any) -> EDSTSet:
    return property_from_context(product_context(P, method="property"))


#: The command line's ``--method`` choices: name -> function ``(graph) -> list[Tree]``.
METHODS: dict[str, Callable[[Any], EDSTSet]] = {
    "universal": _needs_product("universal", universal_trees),
    "low-depth": _needs_product("low-depth", _low_depth),
    "maximum": _needs_product("maximum", _maximum),
    "property": _needs_product("property", _property),
    "generic": generic_trees,
    "auto": auto_trees,
}
