"""Edge-disjoint spanning trees: factor packings, the paper's star-product constructions, depth, and every method.

Five floors; each uses only the floors below it (``tests/test_layers.py`` keeps it so):

=====================  ===========================================================================================
floor                  modules
=====================  ===========================================================================================
primitives             :mod:`.trees` (:class:`Tree`, :class:`EDSTSet`, BFS helpers), :mod:`.verify`
                       (:func:`verify_edsts`), :mod:`.packing` (:func:`generic_packing`: the exact packing and its
                       certificate, on the compiled greedy forests and augmenting paths of :mod:`.forest_union`)
factor packings        :mod:`.factor`: Walecki, ``K_{q,q}``, circulant/Paley, abelian Cayley graphs, and ER_q by
                       Singer difference sets (the package :mod:`.factor.er`); :func:`factor_edsts` picks the one
                       that reaches the bound
product constructions  :mod:`.product`: Sections V-B (:func:`universal_trees`, :func:`low_depth_trees`), V-C
                       (:func:`maximum_trees`), V-D (:func:`property_vd1_trees`), Table I (:func:`auto_trees`) and
                       the default factor trees
depth                  :mod:`.depth`: :func:`depth_lower_bound`, :func:`improve_depth` (the local search that keeps
                       the count), :func:`shallow_trees` (the most trees, then the least depth)
methods                :mod:`.methods`: :data:`METHODS`, every method declared once, and :func:`edsts`
repair                 :mod:`.repair`: :func:`repair_edsts`, the maximum family after link failures, grown
                       from the surviving trees (on the methods floor: it uses the depth search)
=====================  ===========================================================================================

Every public name below is re-exported here, listed once in :data:`_PUBLIC` by the module that defines it:
``from starlib.edst import auto_trees, verify_edsts``. (Most users need only :func:`starlib.edsts`.)

Documented choices where the paper is silent or its formulas are lost (docs/star-products.md §13)
-------------------------------------------------------------------------------------------------
* Edge sets (2)-(22) follow the reconstruction of docs/star-products.md §5-§8; the order of (9)-(11) and which
  of (15)/(16) serves the ``V_1``-children are immaterial for correctness: (15) is used for ``V_1``, (16) for
  ``V_2``.
* Depth bounds (Theorems V-B.4, V-B.5, V-C.12, V-D.7) are the derived forms of docs/star-products.md §5, §7.5,
  §8.4; every tree carries its bound in ``Tree.meta["bound"]`` with the quantities used, and the tests assert
  ``depth <= bound``.
* Roots: ``g_0`` (root of ``T_G^{t_G}``) is its center for the Universal and Property constructions and, for
  the Maximum ones, the least-eccentricity vertex that Lemma V-C.1 can put in ``X_G``; the ``g_i``, ``h_j``
  are the free vertices of least eccentricity in their trees; ``V_1`` is ``g*`` plus the lowest indices.
* ``t`` and ``r`` are those of the factor EDST sets actually used (maximum ones by default, so
  ``t = floor(m/(n-1))`` whenever a factor reaches that bound, as in every network of Table IV).
* Property V-D.1 is searched over the trees and roots of the supernode packing used, with BFS prefixes
  closed under bijection orbits and ancestors (exact for Cartesian products, sufficient in general).
* Corollary V-C.11 is implemented with the conditions of the paper (``r_G >= t_G`` or ``r_H >= t_H``). Our
  proofs only need forest rank ``>= t - 1`` on one side (``|X_G| = t_G - 1`` with ``g_0`` outside ``X_G`` in
  V-C.7; ``|X_H| = t_H - 1`` in V-C.6), which gives ``t_G + t_H - 1`` trees more often, e.g. whenever
  ``r_G = t_G - 1`` (then maximum, without Property V-D.1): ``maximum_trees(P, relaxed=True)``, theorem tag
  ``"V-C.11+"``. ``auto`` does not use it, so that its counts are exactly Table I's.

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import METHODS, verify_edsts
>>> P = slimfly(5)
>>> trees = METHODS["auto"](P)
>>> len(trees), verify_edsts(P, trees).valid
(3, True)
"""

from __future__ import annotations

import importlib
from typing import Any

# Every public name, by the module that defines it. Each is imported on first use (PEP 562), so that
# ``import starlib.edst.trees`` (reading and verifying a file) does not load the constructions, sympy and the
# compiled kernels they need.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "trees": ("Tree", "EDSTSet", "OrientedTree", "bfs_distances", "bfs_tree", "centred_trees", "is_connected",
              "orient", "relabel_trees", "sort_edge_rows", "tree_center", "tree_eccentricities"),
    "verify": ("VerifyReport", "verify_edsts", "check_edsts"),
    "packing": ("Packing", "generic_packing"),
    "factor": ("FACTOR_METHODS", "factor_edsts", "generic_trees", "structured_edsts", "SingerModel", "singer_graph",
               "singer_model", "er_edst_bound", "er_edsts", "verify_singer_edsts"),
    "product": ("FactorData", "LemmaVC1", "ProductContext", "PropertyVD1", "auto_trees", "default_factor_trees",
                "factor_data", "has_property_vd1", "lemma_vc1", "low_depth_trees", "maximum_trees",
                "product_context", "property_vd1_trees", "table_i_case", "twisted_maximum_trees", "universal_trees"),
    "depth": ("DepthBound", "depth_lower_bound", "improve_depth", "ShallowStart", "shallow_starts", "shallow_trees",
              "shallowest", "shallow_factor_trees", "er_shallow_trees"),
    "methods": ("Method", "Plan", "METHODS", "edsts", "get_method"),
    "repair": ("Repair", "repair_edsts"),
}
_EXPORTS: dict[str, str] = {name: module for module, names in _PUBLIC.items() for name in names}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use (``starlib.edst.auto_trees``)."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
