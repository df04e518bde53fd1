"""A pipelined allreduce over ``k`` edge-disjoint trees: what the number of trees and their depth cost in time.

This quantifies the trade-off of section VI of the star-product paper (Isham et al., "Edge-Disjoint Spanning
Trees on Star Products"): more trees give more bandwidth, deeper trees more latency.

**Cost model** (Hockney's latency-bandwidth model [1]; pipelined tree collectives as in [2, 3]; several
edge-disjoint trees as in the PolarFly in-network allreduce [4]):

* sending ``x`` bytes over one link costs ``alpha + x beta``; links are full duplex and a vertex drives all its
  links at once (all-port); the reduction arithmetic is free (done in the network, or overlapped);
* the message of ``S`` bytes is cut into ``k`` parts, part ``i`` going to tree ``i`` (``equal`` split: ``S/k``
  each; ``balanced`` split: sizes chosen so that all trees finish together);
* on a tree of height ``D`` (the depth from its root) a part of ``M`` bytes is cut into ``s`` chunks. A chunk is
  summed on its way up to the root (reduce) and sent back down (broadcast). Every link carries at most one
  chunk per direction per step of length ``alpha + beta M / s``, so the last chunk is home after
  ``2D + s - 1`` steps (checked by :func:`simulate_pipeline_steps`):

      T(D, M, s) = (2D + s - 1)(alpha + beta M / s) = 2D alpha + (s - 1) alpha + M beta (1 + (2D - 1)/s);

* the best chunk count is ``s* = sqrt((2D - 1) M beta / alpha)``, giving
  ``T* = (sqrt((2D - 1) alpha) + sqrt(M beta))^2`` (rounded to an integer ``s >= 1`` by default);
* the trees share no link, so they run concurrently: ``T = max_i T*(D_i, M_i)``.

Small messages cost about ``2 D_max alpha`` (latency grows with depth); large ones about ``S beta / k``
(bandwidth grows with the number of trees). Two tree sets ``(k_a, D_a)`` and ``(k_b > k_a, D_b > D_a)`` cross
at ``S = (alpha/beta) ((sqrt(2D_b - 1) - sqrt(2D_a - 1)) / (1/sqrt(k_a) - 1/sqrt(k_b)))^2``
(:func:`crossover_closed_form`, continuous chunks, equal split).

References
----------
[1] R. W. Hockney, "The communication challenge for MPP: Intel Paragon and Meiko CS-2", Parallel Computing
    20(3):389-398, 1994, doi:10.1016/S0167-8191(06)80021-9.
[2] S. L. Johnsson and C.-T. Ho, "Optimum broadcasting and personalized communication in hypercubes",
    IEEE Trans. Computers 38(9):1249-1268, 1989, doi:10.1109/12.29465.
[3] P. Sanders, J. Speck and J. L. Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and
    scan", Parallel Computing 35(12):581-594, 2009, doi:10.1016/j.parco.2009.09.001.
[4] K. Lakhotia, K. Isham, L. Monroe, M. Besta, T. Hoefler and F. Petrini, "In-network Allreduce with multiple
    spanning trees on PolarFly", SPAA 2023, pp. 165-176, doi:10.1145/3558481.3591073 (reference [12] of the
    star-product paper).

Example
-------
>>> pipelined_time(3, 10.0, alpha=1.0, beta=1.0, chunks=1)      # a 4-vertex path rooted at an end
66.0
>>> round(allreduce_time([1], 16.0, alpha=1.0, beta=1.0), 9)   # s* = 4 chunks: (1 + 4)^2
25.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._kernels import bfs, csr
from ..validation import check_choice, check_int, check_real

__all__ = ["pipelined_time", "best_chunks", "tree_time", "allreduce_time", "balanced_split", "crossover_size",
           "crossover_closed_form", "tree_height", "simulate_pipeline_steps"]

_SPLITS = ("equal", "balanced")
_CHUNKS = ("integer", "continuous")


def _rates(alpha: Any, beta: Any) -> tuple[float, float]:
    """``alpha`` and ``beta`` checked: finite and positive."""
    return check_real(alpha, "alpha", 0, strict=True), check_real(beta, "beta", 0, strict=True)


def _sizes(size: Any) -> np.ndarray:
    s = np.asarray(size, dtype=np.float64)
    if not np.isfinite(s).all() or (s < 0).any():
        raise ValueError(f"size={size!r} must be finite and >= 0 (bytes)")
    return s


def _depths(depths: Any) -> np.ndarray:
    d = np.asarray(depths).reshape(-1)
    if d.size and (not np.issubdtype(d.dtype, np.integer) or (d < 1).any()):
        raise ValueError(f"depths={list(np.asarray(depths).reshape(-1))!r}: every tree depth must be an integer >= 1")
    return d.astype(np.int64)


def _steps_time(depth: int, m: Any, a: float, b: float, s: Any) -> Any:
    """``T(D, M, s) = (2D + s - 1)(alpha + beta M / s)`` without checks."""
    return (2 * depth + s - 1) * (a + b * m / s)


def _best_real_chunks(depth: int, m: Any, a: float, b: float) -> Any:
    """``s* = sqrt((2D - 1) M beta / alpha)``, the real chunk count minimising ``T``."""
    return np.sqrt((2 * depth - 1) * m * b / a)


def pipelined_time(depth: int, size: Any, alpha: float, beta: float, chunks: Any) -> Any:
    """Time of a pipelined reduce + broadcast of ``size`` bytes in ``chunks`` chunks over a tree of height ``depth``.

    ``T = (2 depth + chunks - 1)(alpha + beta size / chunks)``: ``2 depth + chunks - 1`` steps, each moving one
    chunk over a link.

    Parameters
    ----------
    depth : int >= 1
    size : bytes (scalar or array)
    alpha : per-message latency (> 0)
    beta : time per byte (> 0)
    chunks : integer >= 1 (scalar or array)

    Returns
    -------
    float or ndarray
        ``T``, one value per size and chunk count (broadcast).

    Raises
    ------
    ValueError
        For ``depth < 1``, ``chunks < 1``, a negative size, or ``alpha``/``beta`` not positive.

    Example
    -------
    >>> pipelined_time(3, 10.0, 1.0, 1.0, 2)
    42.0
    """
    depth = check_int(depth, "depth", minimum=1)
    a, b = _rates(alpha, beta)
    s = np.asarray(chunks)
    if not np.issubdtype(s.dtype, np.integer) or (s < 1).any():
        raise ValueError(f"chunks={chunks!r} must be an integer >= 1")
    t = _steps_time(depth, _sizes(size), a, b, s)
    return float(t) if np.ndim(t) == 0 else t


def best_chunks(depth: int, size: Any, alpha: float, beta: float) -> Any:
    """The integer chunk count ``s >= 1`` minimising :func:`pipelined_time` (floor or ceiling of ``s*``).

    ``T(s)`` is convex in ``s > 0`` with minimum at ``s* = sqrt((2 depth - 1) size beta / alpha)``.

    Example
    -------
    >>> int(best_chunks(1, 16.0, 1.0, 1.0)), int(best_chunks(3, 10.0, 1.0, 1.0))
    (4, 7)
    """
    depth = check_int(depth, "depth", minimum=1)
    a, b = _rates(alpha, beta)
    m = _sizes(size)
    star = _best_real_chunks(depth, m, a, b)
    lo = np.maximum(np.floor(star), 1).astype(np.int64)
    hi = np.maximum(np.ceil(star), 1).astype(np.int64)
    s = np.where(_steps_time(depth, m, a, b, hi) < _steps_time(depth, m, a, b, lo), hi, lo)
    return s if np.ndim(s) else np.int64(s)


def tree_time(depth: int, size: Any, alpha: float, beta: float, chunks: str = "integer") -> Any:
    """Allreduce time of ``size`` bytes on one tree of height ``depth`` with the best pipelining.

    Parameters
    ----------
    depth, size, alpha, beta : as in :func:`pipelined_time`.
    chunks : ``"integer"`` (best integer chunk count) or ``"continuous"`` (``(sqrt((2D-1) alpha) +
        sqrt(M beta))^2`` where ``s* >= 1``, one chunk below).

    Example
    -------
    >>> tree_time(1, 16.0, 1.0, 1.0), tree_time(2, 0.0, 1.0, 1.0)
    (25.0, 4.0)
    """
    check_choice(chunks, "chunks", _CHUNKS)
    depth = check_int(depth, "depth", minimum=1)
    a, b = _rates(alpha, beta)
    m = _sizes(size)
    if chunks == "integer":
        t = pipelined_time(depth, m, a, b, best_chunks(depth, m, a, b))
    else:
        star = _best_real_chunks(depth, m, a, b)
        t = np.where(star >= 1, (np.sqrt((2 * depth - 1) * a) + np.sqrt(m * b)) ** 2, 2 * depth * (a + b * m))
    return float(t) if np.ndim(t) == 0 else np.asarray(t, dtype=np.float64)


def _capacity(d: np.ndarray, c: np.ndarray, a: float, b: float, chunks: str) -> np.ndarray:
    """Largest part size each tree (rows ``d``) finishes within time ``c`` (columns); ``(k, len(c))``."""
    d = d[:, None].astype(np.float64)
    c = c[None, :]
    w = 2 * d - 1
    if chunks == "continuous":
        # (sqrt(w a) + sqrt(M b))^2 <= c  with s* >= 1, or 2D(a + M b) <= c with s* < 1
        root = np.sqrt(c) - np.sqrt(w * a)
        big = np.where(root > 0, root**2 / b, 0.0)
        small = np.maximum(c / (2 * d) - a, 0.0) / b
        return np.where(np.sqrt(w * big * b / a) >= 1, big, np.minimum(small, a / (w * b)))
    s0 = np.sqrt(np.maximum(c * w / a, 0.0)) - w
    best = np.zeros(np.broadcast_shapes(d.shape, c.shape))
    for s in (np.maximum(np.floor(s0), 1), np.maximum(np.ceil(s0), 1)):
        best = np.maximum(best, s * (c / (w + s) - a) / b)
    return best


def balanced_split(depths: Sequence[int], size: Any, alpha: float, beta: float,
                   chunks: str = "integer") -> tuple[Any, np.ndarray]:
    """The split of ``size`` bytes over trees of the given heights that minimises the allreduce time.

    Every tree finishing its part by time ``c`` can take at most ``cap_i(c)`` bytes; the optimum is the
    least ``c`` with ``sum_i cap_i(c) >= size`` (bisection). Deep trees get less, possibly nothing (a tree
    given nothing stays idle).

    Returns
    -------
    (time, parts) : the time (scalar or per size) and the part sizes ``(k,)`` or ``(k, len(size))``.

    Example
    -------
    >>> t, parts = balanced_split([1, 1], 32.0, 1.0, 1.0)
    >>> round(t, 9), parts.round(9).tolist()
    (25.0, [16.0, 16.0])
    """
    d = _depths(depths)
    if not d.size:
        raise ValueError("depths=[]: the split needs at least one tree")
    check_choice(chunks, "chunks", _CHUNKS)
    a, b = _rates(alpha, beta)
    sz = _sizes(size)
    flat = np.atleast_1d(sz).astype(np.float64)
    lo = np.full(flat.shape, 2.0 * d.min() * a)
    hi = np.array([tree_time(int(d.max()), x / d.size, a, b, chunks) for x in flat]) + a
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        enough = _capacity(d, mid, a, b, chunks).sum(axis=0) >= flat
        hi = np.where(enough, mid, hi)
        lo = np.where(enough, lo, mid)
        if np.all(hi - lo <= 1e-13 * hi):
            break
    cap = _capacity(d, hi, a, b, chunks)
    parts = cap * (flat / np.where(cap.sum(axis=0) > 0, cap.sum(axis=0), 1.0))
    if np.ndim(sz) == 0:
        return float(hi[0]), parts[:, 0]
    return hi, parts


def allreduce_time(depths: Sequence[int], size: Any, alpha: float, beta: float, split: str = "equal",
                   chunks: str = "integer") -> Any:
    """Allreduce time of ``size`` bytes over edge-disjoint trees of the given heights (module docstring).

    Parameters
    ----------
    depths : heights of the ``k`` trees from their roots (``k = 0`` gives ``inf``: nothing can be reduced).
    size : bytes (scalar or array).
    alpha, beta : latency per message and time per byte (both > 0).
    split : ``"equal"`` (``size / k`` per tree) or ``"balanced"`` (:func:`balanced_split`).
    chunks : ``"integer"`` or ``"continuous"`` (see :func:`tree_time`).

    Returns
    -------
    float or ndarray
        The time of the slowest tree, one value per size.

    Raises
    ------
    ValueError
        For a depth below 1, a negative size, non-positive ``alpha``/``beta``, or an unknown option.

    Example
    -------
    >>> allreduce_time([2, 2], 8.0, 1.0, 1.0) == tree_time(2, 4.0, 1.0, 1.0)
    True
    >>> allreduce_time([], 8.0, 1.0, 1.0)
    inf
    """
    check_choice(split, "split", _SPLITS)
    d = _depths(depths)
    sz = _sizes(size)
    if not d.size:
        _rates(alpha, beta)
        return float("inf") if np.ndim(sz) == 0 else np.full(sz.shape, np.inf)
    if split == "equal":
        return tree_time(int(d.max()), sz / d.size, alpha, beta, chunks)
    return balanced_split(d, sz, alpha, beta, chunks)[0]


def crossover_size(depths_a: Sequence[int], depths_b: Sequence[int], alpha: float, beta: float,
                   lo: float = 1.0, hi: float = 2.0**40, split: str = "equal", chunks: str = "integer") -> float:
    """The message size above which tree set ``b`` is faster than tree set ``a`` (bisection on ``log S``).

    Returns ``lo`` if ``b`` is already faster at ``lo``, and ``nan`` if ``b`` is not faster at ``hi``.

    Example
    -------
    >>> round(crossover_size([1], [2, 2], 1.0, 1.0, chunks="continuous"), 6)
    6.246889
    """
    lo, hi = check_real(lo, "lo", 0, strict=True), check_real(hi, "hi", 0, strict=True)

    def gap(x: float) -> float:
        return allreduce_time(depths_a, x, alpha, beta, split, chunks) - allreduce_time(depths_b, x, alpha, beta,
                                                                                         split, chunks)

    if gap(hi) <= 0:
        return float("nan")
    if gap(lo) > 0:
        return lo
    a, b = np.log(lo), np.log(hi)  # cpu-stable: a bisection bracket
    for _ in range(200):
        mid = 0.5 * (a + b)
        if gap(float(np.exp(mid))) > 0:  # cpu-stable: bisection
            b = mid
        else:
            a = mid
        if b - a < 1e-12:
            break
    return float(np.exp(b))  # cpu-stable: rounded by callers


def crossover_closed_form(k_a: int, depth_a: int, k_b: int, depth_b: int, alpha: float, beta: float) -> float:
    """Closed-form crossover of two tree sets (continuous chunks, equal split, ``s* >= 1`` at the crossing).

    ``S = (alpha/beta) ((sqrt(2 D_b - 1) - sqrt(2 D_a - 1)) / (1/sqrt(k_a) - 1/sqrt(k_b)))^2``: solve
    ``sqrt((2D_a-1) alpha) + sqrt(S beta / k_a) = sqrt((2D_b-1) alpha) + sqrt(S beta / k_b)``.

    Raises
    ------
    ValueError
        Unless ``k_b > k_a >= 1`` and ``depth_b >= depth_a >= 1``.

    Example
    -------
    >>> round(crossover_closed_form(1, 1, 4, 2, 1.0, 1.0), 6)     # ((sqrt(3) - 1) / (1 - 1/2))^2
    2.143594
    """
    k_a = check_int(k_a, "k_a", minimum=1)
    k_b = check_int(k_b, "k_b", minimum=k_a + 1)
    depth_a = check_int(depth_a, "depth_a", minimum=1)
    depth_b = check_int(depth_b, "depth_b", minimum=depth_a)
    a, b = _rates(alpha, beta)
    num = np.sqrt(2 * depth_b - 1) - np.sqrt(2 * depth_a - 1)
    den = 1 / np.sqrt(k_a) - 1 / np.sqrt(k_b)
    return float(a / b * (num / den) ** 2)


def _tree_search(n: Any, edges: Any, root: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Breadth-first search ``(dist, parent, order)`` of a spanning tree from ``root``, after checking that
    ``edges`` are ``n - 1`` pairs of vertices ``0..n-1`` connecting all ``n`` (hence a spanning tree)."""
    n = check_int(n, "n", minimum=1)
    root = check_int(root, "root", minimum=0, maximum=n - 1)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] != n - 1:
        raise ValueError(f"edges: {e.shape[0]} edges, a spanning tree on n={n} vertices has {n - 1}")
    if e.size and (e.min() < 0 or e.max() >= n):
        raise ValueError(f"edges: vertex {int(e.min()) if e.min() < 0 else int(e.max())} is not in 0..{n - 1}")
    dist, parent, order = bfs(*csr(n, e), root)
    if order.shape[0] != n:
        raise ValueError(f"edges: not connected (reach {order.shape[0]} of n={n} vertices from root={root})")
    return dist, parent, order


def tree_height(n: int, edges: np.ndarray, root: int) -> int:
    """Height of a spanning tree from ``root`` (BFS).

    Raises
    ------
    ValueError
        If the edges do not form a spanning tree on ``n`` vertices.

    Example
    -------
    >>> tree_height(4, np.array([[0, 1], [1, 2], [2, 3]]), 0)
    3
    """
    return int(_tree_search(n, edges, root)[0].max())


def simulate_pipeline_steps(n: int, edges: np.ndarray, root: int, chunks: int) -> int:
    """Steps of a pipelined reduce + broadcast on a tree, by an event simulation (an independent check).

    Each step moves one chunk over each link direction. A vertex sends chunk ``j`` to its parent once it
    holds chunk ``j`` from all its children and has sent chunk ``j - 1``; the root holds the sum of chunk ``j``
    once all its children delivered it, and every vertex forwards chunk ``j`` to all children once it has
    it and has forwarded chunk ``j - 1``. The result is ``2 * height + chunks - 1`` (the closed form).

    Example
    -------
    >>> simulate_pipeline_steps(5, np.array([[0, 1], [0, 2], [2, 3], [3, 4]]), 0, 4)
    9
    """
    n = check_int(n, "n", minimum=2)
    chunks = check_int(chunks, "chunks", minimum=1)
    _, parent, order = _tree_search(n, edges, root)
    root = int(order[0])
    up = np.zeros((n, chunks), dtype=np.int64)      # step at which v's partial sum of chunk j reaches parent
    ready = np.zeros((n, chunks), dtype=np.int64)   # step at which v holds the partial sum of chunk j
    for v in order[::-1]:  # leaves first
        if v != root:
            last = 0
            for j in range(chunks):
                last = max(ready[v, j], last) + 1
                up[v, j] = last
            p = parent[v]
            ready[p] = np.maximum(ready[p], up[v])
    have = np.zeros((n, chunks), dtype=np.int64)    # step at which v holds the full result of chunk j
    have[root] = ready[root]
    for v in order[1:]:  # parents before children
        p, last = parent[v], 0
        for j in range(chunks):
            last = max(have[p, j], last) + 1
            have[v, j] = last
    return int(have.max())
