"""The factor floor of :mod:`starlib.edst`: maximum EDST sets of the factor graphs.

================================  ==================================================================
module                            contents
================================  ==================================================================
:mod:`.paths`                     Hamiltonian-path packings of ``K_n``, ``K_{q,q}``, circulants
:mod:`.abelian`                   Cayley graphs of ``(GF(p^k), +)``: prime-power Paley, MMS ``C(X)``
:mod:`.er` (a package)            ER_q (PolarFly) at the bound ``floor((q+1)/2)``: the Singer model, the
                                  Hamiltonian paths, the low-depth lifted-cluster family, the last-tree
                                  repair; streamed and checked tree by tree
:mod:`.choose`                    :func:`factor_edsts`: the structured packing that reaches the bound,
                                  else the exact packer
================================  ==================================================================

This floor uses only the floor below (trees, the verifier, the exact packer). A factor that is itself a star
product is handled by the product floor (:mod:`starlib.edst.product`).

Example
-------
>>> from starlib.factors import paley
>>> factor_edsts(paley(13)).constructions()
['circulant', 'circulant', 'circulant']
"""

from .abelian import abelian_graph_paths
from .choose import FACTOR_METHODS, factor_edsts, generic_trees, structured_edsts
from .er import SingerModel, er_edst_bound, er_edsts, singer_graph, singer_model, singer_pairing, verify_singer_edsts
from .paths import bipartite_paths, circulant_connection_set, circulant_paths, complete_bipartite_sides, walecki_paths

__all__ = ["FACTOR_METHODS", "SingerModel", "abelian_graph_paths", "bipartite_paths", "circulant_connection_set",
           "circulant_paths", "complete_bipartite_sides", "er_edst_bound", "er_edsts", "factor_edsts", "generic_trees",
           "singer_graph", "singer_model", "singer_pairing", "structured_edsts", "verify_singer_edsts",
           "walecki_paths"]
