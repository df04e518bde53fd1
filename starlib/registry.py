"""The registry of network families the command line knows (``python -m starlib networks``).

A family is a name, a builder (keyword arguments -> :class:`~starlib.graphs.ArrayGraph` or
``nx.Graph``), its parameters with their types and rules, and optional extra verbs' hooks
(for example the EDST methods that apply to it). Modules register their families at import
time with :func:`register`; :func:`families` imports them all.

Example
-------
>>> fam = families()["complete"]
>>> fam.params["n"].rule
'integer n >= 2'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Param", "Family", "register", "families", "get_family", "MODULES"]

# modules whose import registers families (in display order)
MODULES = ["starlib.factors", "starlib.networks", "starlib.cayley", "starlib.netdesign"]


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its type (int or str), the rule in words, and a default."""

    type: type = int
    rule: str = ""
    default: Any = None
    required: bool = True


@dataclass
class Family:
    """A network family: ``builder(**params)`` returns the graph."""

    name: str
    builder: Callable[..., Any]
    params: dict[str, Param]
    summary: str
    kind: str = "network"  # "factor", "network", "product", "cayley"
    extra: dict[str, Any] = field(default_factory=dict)


_REGISTRY: dict[str, Family] = {}


def register(name: str, builder: Callable[..., Any], params: dict[str, Param], summary: str,
             kind: str = "network", **extra: Any) -> None:
    """Register a family under ``name`` (re-registering the same name replaces it)."""
    _REGISTRY[name] = Family(name, builder, params, summary, kind, dict(extra))


def families() -> dict[str, Family]:
    """All registered families (imports every module in :data:`MODULES` that exists)."""
    for mod in MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as exc:  # a module not written yet
            if exc.name != mod:
                raise
    return dict(_REGISTRY)


def get_family(name: str) -> Family:
    """Look up a family by name; unknown names are a ``ValueError`` listing the known ones."""
    fams = families()
    if name not in fams:
        raise ValueError(f"network={name!r} is not a known family (known: {', '.join(sorted(fams))})")
    return fams[name]
