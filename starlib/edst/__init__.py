"""Edge-disjoint spanning trees: factor packings, the paper's star-product constructions, and the verifier.

===========================  ==========================================================================
module                       contents
===========================  ==========================================================================
:mod:`.trees`                :class:`Tree`, :class:`EDSTSet`, BFS helpers (depth, centers)
:mod:`.verify`               :func:`verify_edsts` / :func:`check_edsts` (vectorised)
:mod:`.packing`              :func:`max_edsts` / :func:`generic_packing`: exact packing + certificate
:mod:`.factor_trees`         :func:`factor_edsts`: Walecki, ``K_{q,q}``, circulant/Paley, ER_q, products
:mod:`.nontree`              factor data, the non-tree subgraph ``N``, Lemma V-C.1
:mod:`.blocks`               Intra / Copies / child-anchored edges / twisted copies (spec §4.0)
:mod:`.universal`            Section V-B: :func:`universal_trees`, :func:`low_depth_trees`
:mod:`.maximum`              Section V-C: :func:`maximum_trees`
:mod:`.property_vd1`         Section V-D: :func:`has_property_vd1`, :func:`property_vd1_trees`
:mod:`.auto`                 Table I: :func:`auto_trees`; :func:`generic_trees`; :data:`METHODS`
===========================  ==========================================================================

Example
-------
>>> from starlib.networks import slimfly
>>> P = slimfly(5)
>>> trees = METHODS["auto"](P)
>>> len(trees), verify_edsts(P, trees).valid
(3, True)
"""

from .auto import METHODS, auto_trees, generic_trees, table_i_case
from .factor_trees import factor_edsts
from .maximum import maximum_trees
from .nontree import FactorData, LemmaVC1, factor_data, lemma_vc1
from .packing import Packing, generic_packing, max_edsts
from .property_vd1 import PropertyVD1, has_property_vd1, property_vd1_trees
from .trees import EDSTSet, Tree
from .universal import low_depth_trees, universal_trees
from .verify import VerifyReport, check_edsts, verify_edsts

__all__ = ["EDSTSet", "FactorData", "LemmaVC1", "METHODS", "Packing", "PropertyVD1", "Tree", "VerifyReport",
           "auto_trees", "check_edsts", "factor_data", "factor_edsts", "generic_packing", "generic_trees",
           "has_property_vd1", "lemma_vc1", "low_depth_trees", "max_edsts", "maximum_trees", "property_vd1_trees",
           "table_i_case", "universal_trees", "verify_edsts"]
