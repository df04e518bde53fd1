"""The depth floor of :mod:`starlib.edst`: how deep a family of EDSTs must be, and families made shallow.

==================  ============================================================================================
module              contents
==================  ============================================================================================
:mod:`.bound`       :class:`DepthBound`, :func:`depth_lower_bound`: a depth no family of ``k`` EDSTs can beat
                    (radius and degree budgets; the proof is in the module text)
:mod:`.search`      :func:`improve_depth`: the local search that keeps the count and never deepens a family
:mod:`.shallow`     :func:`shallow_trees` (``METHODS["shallow"]``): the most trees starlib can build, then the
                    least depth; :class:`ShallowStart`, :func:`shallow_starts`, :func:`shallowest`,
                    :func:`shallow_factor_trees`
:mod:`.er`          :func:`er_shallow_trees`: ER_q at the bound ``floor((q+1)/2)`` and depth 4 (the lifted
                    clusters of :mod:`starlib.edst.factor.er`, the local search, a repair of the deep vertices)
==================  ============================================================================================

This floor uses the floors below (primitives, factor packings, product constructions). Its sibling modules import
one another's public names: ``search`` offers :func:`~.search.improve_depth` and, for the ER_q repair,
:func:`~.search.graph_index` (adjacency with edge ids) and :func:`~.search.below` (compiled: the subtree test);
``shallow`` uses ``bound``, ``search`` and ``er``.

Every public name is imported from its module on first use (PEP 562): ``from starlib.edst.depth import
improve_depth`` (the command line's ``improve``) loads the local search only, not the constructions.

Example
-------
>>> from starlib.networks import slimfly
>>> from starlib.edst import auto_trees
>>> from starlib.edst.depth import depth_lower_bound, improve_depth
>>> P = slimfly(5)
>>> S = improve_depth(P, auto_trees(P))
>>> depth_lower_bound(P, len(S)).value <= max(S.depths())
True
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    "DepthBound": "bound", "depth_lower_bound": "bound", "improve_depth": "search", "ShallowStart": "shallow",
    "shallow_starts": "shallow", "shallow_trees": "shallow", "shallowest": "shallow",
    "shallow_factor_trees": "shallow", "er_shallow_trees": "er",
}

__all__ = ["DepthBound", "depth_lower_bound", "improve_depth", "ShallowStart", "shallow_starts", "shallow_trees",
           "shallowest", "shallow_factor_trees", "er_shallow_trees"]


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use (``starlib.edst.depth.improve_depth``)."""
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
