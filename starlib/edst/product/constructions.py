"""The paper's constructions as functions of a graph (Sections V-B to V-D).

=========================  =================================================================  ====================
function                   construction                                                       trees
=========================  =================================================================  ====================
:func:`maximum_trees`      Constructions V-C.4 to V-C.7 (Theorem V-C.3, Cor. V-C.10, V-C.11)  ``t_G + t_H`` or
                                                                                              ``t_G + t_H - 1``
:func:`property_vd1_trees` Constructions V-D.3 to V-D.5 (Theorem V-D.2)                       ``t_G + t_H - 1``
:func:`universal_trees`    Constructions V-B.2 and V-B.3 (Theorem V-B.1)                      ``t_G + t_H - 2``
:func:`low_depth_trees`    V-B.2 and the twisted copies of Theorem V-B.5(2)                   ``t_G + t_H - 2``
=========================  =================================================================  ====================

Each takes a star product (or a relabelled one) and optional factor EDST sets; the factors get
:func:`~starlib.edst.product.auto.default_factor_trees` otherwise. Given a graph that is no star product (an
``ArrayGraph``, a networkx graph) they raise a ``ValueError`` naming the argument and pointing to ``auto_trees`` /
``generic_trees``, which take any graph. Every method by name, with what it applies to and what it costs, is in
:data:`starlib.edst.methods.METHODS`, on the floor above.

Example
-------
>>> from starlib.networks import slimfly
>>> P = slimfly(7)
>>> len(universal_trees(P)), len(maximum_trees(P))
(3, 5)
"""

from __future__ import annotations

from typing import Any

from ...products import RelabelledProduct, StarProduct
from ..trees import EDSTSet
from .auto import construct, default_factor_trees
from .context import require_star_product
from .factor_data import FactorData
from .maximum import maximum_construction
from .property_vd1 import PropertyVD1, find_property_vd1, property_construction
from .twisted import twisted_maximum_construction
from .universal import universal_construction

__all__ = ["universal_trees", "low_depth_trees", "maximum_trees", "twisted_maximum_trees", "has_property_vd1",
           "property_vd1_trees"]


def universal_trees(P: StarProduct | RelabelledProduct, g_trees: list[Any] | None = None,
                    h_trees: list[Any] | None = None, low_depth: bool = False) -> EDSTSet:
    """The Universal construction: ``t_G + t_H - 2`` EDSTs of any star product.

    Parameters
    ----------
    P : StarProduct or RelabelledProduct
        ``G * H`` with connected factors (a relabelled one gets its trees in its own numbering).
    g_trees, h_trees : optional
        EDST sets of ``G`` and ``H`` (default: :func:`~starlib.edst.product.auto.default_factor_trees`); the last tree
        of each plays ``T^t``.
    low_depth : bool
        Build the ``S'_j`` by Theorem V-B.5(2) (twisted copies) instead of Construction V-B.3.

    Returns
    -------
    EDSTSet
        ``t_G - 1`` trees tagged ``"V-B.2"`` then ``t_H - 1`` tagged ``"V-B.3"`` (or ``"V-B.5(2)"``); each tree's
        ``meta["bound"]`` is its depth bound.

    Raises
    ------
    ValueError
        If ``P`` is not a star product (a plain ``ArrayGraph`` or networkx graph: use :func:`auto_trees` or
        :func:`~starlib.edst.factor.choose.generic_trees`) or a factor is disconnected.
    TypeError
        If ``P`` is not a graph at all (None, a string).

    Examples
    --------
    >>> from starlib.networks import bundlefly
    >>> len(universal_trees(bundlefly(3, 5)))    # t_G + t_H - 2 = 2 + 1 - 2
    1
    >>> import networkx as nx
    >>> universal_trees(nx.petersen_graph())
    Traceback (most recent call last):
    ...
    ValueError: P: method=universal needs a star product (StarProduct), got a networkx Graph; use auto_trees or \
generic_trees for any other graph

    References
    ----------
    Theorem V-B.1, Constructions V-B.2 and V-B.3, Theorems V-B.4 and V-B.5 of Isham et al. (2025).
    """
    return construct(P, lambda ctx: universal_construction(ctx, low_depth=low_depth), g_trees, h_trees,
                     "method=low-depth" if low_depth else "method=universal")


def low_depth_trees(P: StarProduct | RelabelledProduct, g_trees: list[Any] | None = None,
                    h_trees: list[Any] | None = None) -> EDSTSet:
    """The Universal construction with the low-depth ``S'_j`` of Theorem V-B.5(2) (``t_G + t_H - 2`` trees).

    Every tree has depth at most ``max(d_H + 2 d_G, D_G + 2 d_H)`` (Table I, Universal row).

    Example
    -------
    >>> from starlib.factors import complete
    >>> from starlib.products import cartesian_product
    >>> s = low_depth_trees(cartesian_product(complete(6), complete(6)))
    >>> s.constructions()
    ['V-B.2', 'V-B.2', 'V-B.5(2)', 'V-B.5(2)']

    References
    ----------
    Theorem V-B.5(2) of Isham et al. (2025).
    """
    return universal_trees(P, g_trees, h_trees, low_depth=True)


def maximum_trees(P: StarProduct | RelabelledProduct, g_trees: list[Any] | None = None,
                  h_trees: list[Any] | None = None, relaxed: bool = False) -> EDSTSet:
    """The Maximum constructions: ``t_G + t_H`` EDSTs if ``r_G >= t_G`` and ``r_H >= t_H``, else
    ``t_G + t_H - 1`` if one of them holds.

    ``relaxed=True`` (our extension, not in the paper) also covers ``r_G < t_G`` and ``r_H < t_H`` when one
    non-tree subgraph has a forest of ``t - 1`` edges (for example ``r_G = t_G - 1``, or ``t_G = 1``):
    Corollary V-C.11's proof only needs ``|X_H| = t_H - 1`` for V-C.6, and for V-C.7 ``|X_G| = t_G - 1`` with
    the root ``g_0`` outside ``X_G`` (``T_H^{t_H}`` then sits in ``g_0``, the ``g_i`` of V-C.4 are ``X_G``).
    This gives ``t_G + t_H - 1`` trees, the maximum when both ``r < t`` (Proposition IV-.3), without
    Property V-D.1; the set is tagged ``"V-C.11+"``.

    Parameters
    ----------
    P : StarProduct or RelabelledProduct
        ``G * H`` with connected factors (a relabelled one gets its trees in its own numbering).
    g_trees, h_trees : optional
        Maximum EDST sets of ``G`` and ``H`` (default :func:`~starlib.edst.product.auto.default_factor_trees`).
    relaxed : bool
        Allow the extension above when ``r_G < t_G`` and ``r_H < t_H``.

    Returns
    -------
    EDSTSet
        Trees tagged ``"V-C.4"`` .. ``"V-C.7"``; ``.theorem`` is ``"V-C.3"``, ``"V-C.10"``, ``"V-C.11"`` (or
        ``"V-C.11+"`` for the relaxed extension);
        each tree's ``meta["bound"]`` is its Theorem V-C.12 depth bound.

    Raises
    ------
    ValueError
        If ``P`` is not a star product, a factor is disconnected, or ``r_G < t_G`` and ``r_H < t_H`` (and,
        with ``relaxed``, neither non-tree subgraph has a forest of ``t - 1`` edges).

    Example
    -------
    >>> from starlib.networks import polarstar
    >>> s = maximum_trees(polarstar(3, supernode="iq", d=4))   # ER_3 has r = 0: Corollary V-C.11
    >>> len(s), s.theorem
    (3, 'V-C.11')
    >>> from starlib.factors import complete
    >>> from starlib.graphs import ArrayGraph
    >>> from starlib.products import star_product
    >>> G = ArrayGraph.from_edges(range(5), complete(5).edges[1:])   # K_5 minus an edge: t = 2, r = 1
    >>> P = star_product(G, complete(4), [1, 2, 3, 0])               # a cyclic shift: no Property V-D.1
    >>> s = maximum_trees(P, relaxed=True)
    >>> len(s), s.theorem, P.m // (P.n - 1)
    (3, 'V-C.11+', 3)

    References
    ----------
    Theorem V-C.3, Constructions V-C.4 to V-C.7, Lemma V-C.9, Corollaries V-C.10 and V-C.11, Theorem V-C.12
    of Isham et al. (2025).
    """
    return construct(P, lambda ctx: maximum_construction(ctx, relaxed=relaxed), g_trees, h_trees, "method=maximum")


def twisted_maximum_trees(P: StarProduct | RelabelledProduct, g_trees: list[Any] | None = None,
                          h_trees: list[Any] | None = None, relaxed: bool = False) -> EDSTSet:
    """Section V-C's count with twisted sheets: depth linear in the factor depths (starlib's construction).

    V-C.4 as in the paper; V-C.5 and V-C.7 along twisted copies of ``T_G^{t_G}`` (Theorem V-B.5(2)'s device); V-C.6
    leaving, in each supernode, the set the twisted copies occupy there, with a maximum EDST set of ``H`` chosen
    per supernode (:mod:`starlib.edst.product.twisted`, which proves the count and the depth bounds).

    Parameters
    ----------
    P : StarProduct or RelabelledProduct
        ``G * H`` with connected factors.
    g_trees, h_trees : optional
        Maximum EDST sets of ``G`` and ``H`` (default :func:`~starlib.edst.product.auto.default_factor_trees`).
    relaxed : bool
        Allow the relaxed extension of Corollary V-C.11, as in :func:`maximum_trees`.

    Returns
    -------
    EDSTSet
        As many trees as :func:`maximum_trees`, tagged ``"V-C.4"``, ``"V-C.5t"``, ``"V-C.6t"``, ``"V-C.7t"``;
        ``meta["bound"]`` is each tree's depth bound (linear in ``D_G``, ``d_H``, ``L``).

    Raises
    ------
    ValueError
        As :func:`maximum_trees`, and if some supernode has no maximum EDST set of ``H`` whose non-tree edges lead
        the twisted copies' vertices there out of their set.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> s, m = twisted_maximum_trees(slimfly(9)), maximum_trees(slimfly(9))
    >>> len(s) == len(m), max(s.depths()) < max(m.depths())
    (True, True)

    References
    ----------
    Constructions V-C.4 to V-C.7, Theorem V-C.12, Theorem V-B.5(2) of Isham et al. (2025);
    docs/star-products.md §7.7.
    """
    return construct(P, lambda ctx: twisted_maximum_construction(ctx, relaxed=relaxed), g_trees, h_trees,
                     "method=twisted")


def has_property_vd1(P: StarProduct, h_trees: list[Any] | None = None) -> PropertyVD1 | None:
    """A witness of Property V-D.1 for the star product ``P``, or None if the search finds none.

    Parameters
    ----------
    P : StarProduct
        Not a relabelled one: the search runs in the product's own numbering.
    h_trees : optional
        A maximum EDST set of the supernode (default: :func:`~starlib.edst.product.auto.default_factor_trees`).

    Returns
    -------
    PropertyVD1 or None

    Raises
    ------
    ValueError
        If ``P`` is not a star product (a relabelled one is not searched).
    TypeError
        If ``P`` is not a graph at all.

    Example
    -------
    >>> from starlib.factors import complete, paley
    >>> from starlib.products import star_product
    >>> P = star_product(complete(4), paley(5), [1, 2, 3, 4, 0])      # a cyclic shift on every arc
    >>> has_property_vd1(P) is None
    True

    References
    ----------
    Property V-D.1 of Isham et al. (2025) (docs/star-products.md §8.1).
    """
    require_star_product(P, "method=property", relabelled=False)
    H = P.supernode
    return find_property_vd1(P, FactorData.of(H, default_factor_trees(H) if h_trees is None else h_trees, "h_trees"))


def property_vd1_trees(P: StarProduct | RelabelledProduct, g_trees: list[Any] | None = None,
                       h_trees: list[Any] | None = None) -> EDSTSet:
    """Theorem V-D.2: ``t_G + t_H - 1`` EDSTs of a star product with Property V-D.1.

    Parameters
    ----------
    P : StarProduct or RelabelledProduct
        ``G * H`` with connected factors and Property V-D.1.
    g_trees, h_trees : optional
        Maximum EDST sets of ``G`` and ``H``.

    Returns
    -------
    EDSTSet
        ``t_G - 1`` trees ``"V-D.3"``, ``t_H - 1`` trees ``"V-D.4"`` and one ``"V-D.5"``; ``meta["bound"]`` is
        the Theorem V-D.7 depth bound.

    Raises
    ------
    ValueError
        If ``P`` is not a star product, a factor is disconnected, or the property is not found.

    Example
    -------
    >>> from starlib.factors import complete
    >>> from starlib.products import cartesian_product
    >>> s = property_vd1_trees(cartesian_product(complete(4), complete(6)))
    >>> len(s), s.counts()
    (4, {'V-D.3': 1, 'V-D.4': 2, 'V-D.5': 1})

    References
    ----------
    Property V-D.1, Theorem V-D.2, Constructions V-D.3 to V-D.5, Lemma V-D.6, Theorem V-D.7 of Isham et al.
    (2025); Ku, Wang, Hung (2003), second construction (the Cartesian case).
    """
    return construct(P, property_construction, g_trees, h_trees, "method=property")
