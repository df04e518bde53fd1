"""The product floor of :mod:`starlib.edst`: the paper's constructions on star products (Sections V-B to V-D).

================================  ==================================================================
module                            contents
================================  ==================================================================
:mod:`.factor_data`               a factor with its EDST set: ``t``, ``r``, the non-tree subgraph
                                  ``N``, tree centers, Lemma V-C.1
:mod:`.blocks`                    the edge blocks of the constructions: Intra, Copies, anchored arcs,
                                  twisted copies, in product indices
:mod:`.context`                   :class:`ProductContext`: a product with both factors' data
:mod:`.universal`                 Section V-B: Constructions V-B.2, V-B.3, Theorem V-B.5(2)
:mod:`.maximum`                   Section V-C: Constructions V-C.4 to V-C.7
:mod:`.escape`                    a maximum EDST set of a factor whose non-tree edges lead a
                                  prescribed vertex set out of itself
:mod:`.twisted`                   Section V-C with twisted sheets (ours): depth linear in the
                                  factor depths
:mod:`.property_vd1`              Section V-D: Property V-D.1, Constructions V-D.3 to V-D.5
:mod:`.auto`                      the default factor trees (with the recursion into factors that are
                                  star products), Table I's choice :func:`auto_trees`
:mod:`.constructions`             the constructions as functions of a graph
================================  ==================================================================

A construction asks the factor floor (:mod:`starlib.edst.factor`) for factor trees, never the other way round.

Doors: the functions of a graph (:func:`auto_trees`, the constructions, :func:`construct`, :func:`product_context`,
:func:`table_i_case`, :func:`has_property_vd1`) check their argument once, with :func:`require_star_product` (or
``star_form`` in :func:`auto_trees`), and test each factor's connectivity once; past the door the functions take a
:class:`~starlib.products.StarProduct` whose factors are checked ``ArrayGraph`` objects, and the factor trees and
:meth:`FactorData.of` use them as they are.

Example
-------
>>> from starlib.networks import slimfly
>>> s = auto_trees(slimfly(5))
>>> len(s), s.theorem
(3, 'V-C.10')
"""

from .auto import auto_trees, construct, default_factor_trees, product_context, table_i_case
from .constructions import (
    has_property_vd1,
    low_depth_trees,
    maximum_trees,
    property_vd1_trees,
    twisted_maximum_trees,
    universal_trees,
)
from .context import ProductContext, describe_graph, require_star_product
from .factor_data import FactorData, LemmaVC1, factor_data, lemma_vc1, nontree_edges
from .property_vd1 import PropertyVD1, bijection_orbits

__all__ = ["FactorData", "LemmaVC1", "ProductContext", "PropertyVD1", "auto_trees", "bijection_orbits", "construct",
           "default_factor_trees", "describe_graph", "factor_data", "has_property_vd1", "lemma_vc1",
           "low_depth_trees", "maximum_trees", "nontree_edges", "product_context", "property_vd1_trees",
           "require_star_product", "table_i_case", "twisted_maximum_trees", "universal_trees"]
