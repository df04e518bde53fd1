"""Sort-based edge canonicalisation used by the builders.

Same result as :func:`starlib.graphs.canonical_edges` (rows ``u < v``, sorted, unique, no loops), but
deduplicates with one ``np.sort`` of int64 keys: on numpy 2.3 ``np.unique`` goes through a hash table
and is ~50x slower on a few million keys.

Example
-------
>>> canonical(np.array([[2, 0], [0, 1], [1, 2], [0, 2], [1, 1]]), 3).tolist()
[[0, 1], [0, 2], [1, 2]]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .graphs import ArrayGraph

__all__ = ["canonical", "graph_from_edges"]


def canonical(edges: np.ndarray, n: int) -> np.ndarray:
    """Rows ``u < v``, sorted, duplicates and self-loops dropped; ``(m, 2)`` int64."""
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    lo, hi = np.minimum(e[:, 0], e[:, 1]), np.maximum(e[:, 0], e[:, 1])
    keys = lo[lo != hi] * np.int64(n) + hi[lo != hi]
    keys.sort()
    if keys.size:
        keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]
    return np.stack([keys // n, keys % n], axis=1)


def graph_from_edges(labels: Sequence[Hashable], edges: np.ndarray, **kw: Any) -> ArrayGraph:
    """:class:`ArrayGraph` with :func:`canonical` edges (undirected)."""
    labels = list(labels)
    return ArrayGraph(labels, canonical(edges, len(labels)), **kw)
