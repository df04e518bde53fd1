"""starlib: star-product network topologies and their edge-disjoint spanning trees.

The package follows the paper "Edge-Disjoint Spanning Trees on Star Products" (Isham et al., 2025):

- :mod:`starlib.fields` GF(q) arithmetic on whole arrays (through ``galois``);
- :mod:`starlib.factors` factor graphs (complete, complete bipartite, Paley, MMS supernodes, ER_q, IQ, BDF, ...);
- :mod:`starlib.products` star and Cartesian products with explicit bijections;
- :mod:`starlib.networks` Slim Fly, Bundlefly, PolarStar, Chimera, HyperX/torus;
- :mod:`starlib.edst` EDST packings, the paper's constructions and the verifier; :mod:`starlib.bounds` the bounds;
- :mod:`starlib.netdesign` the network-design notes; :mod:`starlib.cayley` super Cayley graphs;
- :mod:`starlib.paper.tables` and :mod:`starlib.paper.figures` write ``paper_tables/``.

Submodules are imported on first use (``starlib.networks.slimfly(7)``), so ``import starlib`` stays cheap.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from .graphs import ArrayGraph

__version__ = "0.1.0"
__all__ = ["ArrayGraph", "__version__"]

def __getattr__(name: str) -> Any:
    """Import a submodule on first attribute access (``starlib.networks``, ``starlib.paper.table4``, ...)."""
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'starlib' has no attribute {name!r}")
