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
:mod:`.er`, :mod:`.er_singer`  ER_q (PolarFly): :func:`er_edsts` at floor((q+1)/2) via Singer difference sets
===========================  ==========================================================================

Documented choices where the source is UNKNOWN (spec §11)
---------------------------------------------------------
* Edge sets (2)-(22) follow the spec's reconstruction; the order of (9)-(11) and which of (15)/(16) serves
  the ``V_1``-children are immaterial for correctness: (15) is used for ``V_1``, (16) for ``V_2``.
* Depth bounds (Theorems V-B.4, V-B.5, V-C.12, V-D.7) are the spec's derived forms; every tree carries its
  bound in ``Tree.meta["bound"]`` with the quantities used, and the tests assert ``depth <= bound``.
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
>>> P = slimfly(5)
>>> trees = METHODS["auto"](P)
>>> len(trees), verify_edsts(P, trees).valid
(3, True)
"""

from .auto import METHODS, auto_trees, generic_trees, table_i_case
from .er import er_edst_bound, er_edsts, verify_singer_edsts
from .er_singer import singer_graph, singer_model
from .factor_trees import factor_edsts
from .maximum import maximum_trees
from .nontree import FactorData, LemmaVC1, factor_data, lemma_vc1
from .packing import Packing, generic_packing, max_edsts
from .property_vd1 import PropertyVD1, has_property_vd1, property_vd1_trees
from .trees import EDSTSet, Tree
from .universal import low_depth_trees, universal_trees
from .verify import VerifyReport, check_edsts, verify_edsts

__all__ = ["EDSTSet", "FactorData", "LemmaVC1", "METHODS", "Packing", "PropertyVD1", "Tree", "VerifyReport",
           "auto_trees", "check_edsts", "er_edst_bound", "er_edsts", "factor_data", "factor_edsts",
           "generic_packing", "generic_trees",
           "has_property_vd1", "lemma_vc1", "low_depth_trees", "max_edsts", "maximum_trees", "property_vd1_trees",
           "singer_graph", "singer_model", "table_i_case", "universal_trees", "verify_edsts", "verify_singer_edsts"]
