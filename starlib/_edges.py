"""Edge canonicalisation for the builders (kept for its import path; the work is in :mod:`starlib.graphs`).

Example
-------
>>> canonical(np.array([[2, 0], [0, 1], [1, 2], [0, 2], [1, 1]]), 3).tolist()
[[0, 1], [0, 2], [1, 2]]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .graphs import ArrayGraph, canonical_edges

__all__ = ["canonical", "graph_from_edges"]


def canonical(edges: np.ndarray, n: int) -> np.ndarray:
    """Rows ``u < v``, sorted, duplicates and self-loops dropped; ``(m, 2)`` int64."""
    return canonical_edges(edges, n)


def graph_from_edges(labels: Sequence[Hashable], edges: np.ndarray, **kw: Any) -> ArrayGraph:
    """:class:`ArrayGraph` with canonical edges (undirected)."""
    return ArrayGraph.from_edges(labels, edges, **kw)
