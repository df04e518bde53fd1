"""starlib: star-product network topologies and their edge-disjoint spanning trees.

The package follows the paper "Edge-Disjoint Spanning Trees on Star Products" (Isham et al., 2025). Most users need
four functions (:mod:`starlib.api`):

>>> import starlib
>>> G = starlib.network("slimfly", q=7)            # Slim Fly MMS(7): 98 routers, 539 links
>>> trees = starlib.edsts(G, method="shallow")     # the most edge-disjoint spanning trees, then the least depth
>>> len(trees), max(trees.depths()), starlib.verify(G, trees).valid
(5, 3, True)

and ``starlib.export(path, G, trees)`` writes them (starlib JSON, GraphML, BookSim anynet, ... by the suffix).
Below them, in floors (``docs/architecture.md``):

- :mod:`starlib.fields` GF(q) arithmetic on whole arrays (through ``galois``), :mod:`starlib.primes`;
- :mod:`starlib.factors` factor graphs; :mod:`starlib.products` star and Cartesian products;
  :mod:`starlib.networks` Slim Fly, Bundlefly, PolarStar, Chimera, HyperX, torus; each family declared once
  beside its builder (:mod:`starlib.family`), collected in :mod:`starlib.registry`;
- :mod:`starlib.edst` EDST packings, the paper's constructions, the verifier and every method
  (:data:`starlib.edst.METHODS`); :mod:`starlib.bounds` the bounds;
- :mod:`starlib.validation` the argument checks, :mod:`starlib.memory` the size models and the memory limit,
  :mod:`starlib.interrupts` Ctrl-C and SIGTERM, :mod:`starlib.graphs` the one graph type (integer edge arrays and
  a label table), :mod:`starlib.figure_style` the look of every figure;
- :mod:`starlib.standard` the networks they are compared with (fat tree, Dragonfly, HyperX, ...) and
  :mod:`starlib.designs` each family's network for a router radix budget;
- the side domains :mod:`starlib.netdesign`, :mod:`starlib.cayley`, :mod:`starlib.allreduce`, :mod:`starlib.netsim`
  (ns-3 and SimGrid); files in :mod:`starlib.io`; :mod:`starlib.sweep` sweeps on Dask into resumable records;
  :mod:`starlib.cli` the command line; :mod:`starlib.paper` regenerates ``paper_tables/``.

Submodules are imported on first use (``starlib.networks.slimfly(7)``), so ``import starlib`` stays cheap.
"""

from __future__ import annotations

from .api import edsts, export, families, network, read, read_network, repair, verify
from .graphs import ArrayGraph

__version__ = "0.2.0"
__all__ = ["network", "families", "edsts", "verify", "export", "read", "read_network", "repair", "ArrayGraph",
           "__version__"]


def __getattr__(name: str) -> object:
    """Import a submodule on first attribute access (``starlib.networks``, ``starlib.paper.table4``, ...)."""
    import importlib
    import importlib.util

    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'starlib' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
