"""What edge-disjoint spanning trees buy: a pipelined allreduce model over ``k`` trees, and link-failure resilience.

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

**Resilience.** Each link fails with probability ``f`` independently. A tree of ``n - 1`` links survives with
probability ``(1 - f)^(n - 1)``; edge-disjoint trees fail independently, so ``E[intact] = k (1 - f)^(n-1)`` and
``P(some tree intact) = 1 - (1 - (1 - f)^(n - 1))^k``. With exactly ``F`` failed links chosen uniformly,
``E[intact] = k C(m - n + 1, F) / C(m, F)``. :func:`simulate_failures` checks these by Monte Carlo.

References
----------
[1] R. W. Hockney, "The communication challenge for MPP: Intel Paragon and Meiko CS-2", Parallel Computing
    20(3):389-398, 1994, doi:10.1016/S0167-8191(06)80021-9.
[2] S. L. Johnsson and C.-T. Ho, "Optimum broadcasting and personalized communication in hypercubes",
    IEEE Trans. Computers 38(9):1249-1268, 1989, doi:10.1109/12.29465.
[3] P. Sanders, J. Speck and J. L. Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and
    scan", Parallel Computing 35(12):581-594, 2009, doi:10.1016/j.parco.2009.09.001.
[4] K. Lakhotia et al., "Network-accelerated distributed reductions on PolarFly", SPAA 2023,
    doi:10.1145/3558481.3591073.

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
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
from scipy.special import gammaln

from .validation import check_int

__all__ = ["pipelined_time", "best_chunks", "tree_time", "allreduce_time", "balanced_split",
           "crossover_size", "crossover_closed_form", "simulate_pipeline_steps", "tree_height",
           "intact_expected", "intact_expected_fixed", "intact_std", "intact_std_fixed", "any_intact_probability",
           "tree_owner",
           "failure_patterns", "intact_counts", "simulate_failures"]

_SPLITS = ("equal", "balanced")
_CHUNKS = ("integer", "continuous")


def _positive(value: Any, name: str) -> float:
    v = float(value)
    if not np.isfinite(v) or v <= 0:
        raise ValueError(f"{name}={value!r} must be a finite number > 0")
    return v


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
    a, b = _positive(alpha, "alpha"), _positive(beta, "beta")
    s = np.asarray(chunks)
    if not np.issubdtype(s.dtype, np.integer) or (s < 1).any():
        raise ValueError(f"chunks={chunks!r} must be an integer >= 1")
    t = (2 * depth + s - 1) * (a + b * _sizes(size) / s)
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
    a, b = _positive(alpha, "alpha"), _positive(beta, "beta")
    m = _sizes(size)
    star = np.sqrt((2 * depth - 1) * m * b / a)
    lo = np.maximum(np.floor(star), 1).astype(np.int64)
    hi = np.maximum(np.ceil(star), 1).astype(np.int64)
    t_lo = (2 * depth + lo - 1) * (a + b * m / lo)
    t_hi = (2 * depth + hi - 1) * (a + b * m / hi)
    s = np.where(t_hi < t_lo, hi, lo)
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
    if chunks not in _CHUNKS:
        raise ValueError(f"chunks={chunks!r} is not one of {', '.join(_CHUNKS)}")
    depth = check_int(depth, "depth", minimum=1)
    a, b = _positive(alpha, "alpha"), _positive(beta, "beta")
    m = _sizes(size)
    if chunks == "integer":
        t = pipelined_time(depth, m, a, b, best_chunks(depth, m, a, b))
    else:
        star = np.sqrt((2 * depth - 1) * m * b / a)
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
    if chunks not in _CHUNKS:
        raise ValueError(f"chunks={chunks!r} is not one of {', '.join(_CHUNKS)}")
    a, b = _positive(alpha, "alpha"), _positive(beta, "beta")
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
    if split not in _SPLITS:
        raise ValueError(f"split={split!r} is not one of {', '.join(_SPLITS)}")
    d = _depths(depths)
    sz = _sizes(size)
    if not d.size:
        _positive(alpha, "alpha")
        _positive(beta, "beta")
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
    lo, hi = _positive(lo, "lo"), _positive(hi, "hi")

    def gap(x: float) -> float:
        return allreduce_time(depths_a, x, alpha, beta, split, chunks) - allreduce_time(depths_b, x, alpha, beta,
                                                                                         split, chunks)

    if gap(hi) <= 0:
        return float("nan")
    if gap(lo) > 0:
        return lo
    a, b = np.log(lo), np.log(hi)
    for _ in range(200):
        mid = 0.5 * (a + b)
        if gap(float(np.exp(mid))) > 0:
            b = mid
        else:
            a = mid
        if b - a < 1e-12:
            break
    return float(np.exp(b))


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
    a, b = _positive(alpha, "alpha"), _positive(beta, "beta")
    num = np.sqrt(2 * depth_b - 1) - np.sqrt(2 * depth_a - 1)
    den = 1 / np.sqrt(k_a) - 1 / np.sqrt(k_b)
    return float(a / b * (num / den) ** 2)


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
    n = check_int(n, "n", minimum=1)
    root = check_int(root, "root", minimum=0, maximum=n - 1)
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    if e.shape[0] != n - 1:
        raise ValueError(f"edges: {e.shape[0]} edges, a spanning tree on n={n} vertices has {n - 1}")
    a = sp.csr_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n, n))
    order = csgraph.breadth_first_order(a, root, directed=False, return_predecessors=False)
    if order.shape[0] != n:
        raise ValueError(f"edges: not connected (reach {order.shape[0]} of n={n} vertices from root={root})")
    dist = csgraph.shortest_path(a, unweighted=True, directed=False, indices=root)
    return int(dist.max())


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
    tree_height(n, edges, root)  # validates
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    a = sp.csr_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n, n))
    order, parent = csgraph.breadth_first_order(a, int(root), directed=False, return_predecessors=True)
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


def _fraction(f: Any) -> np.ndarray:
    x = np.asarray(f, dtype=np.float64)
    if not np.isfinite(x).all() or (x < 0).any() or (x > 1).any():
        raise ValueError(f"f={f!r} must lie in [0, 1] (a fraction of links)")
    return x


def intact_expected(k: int, n: int, f: Any) -> Any:
    """Expected number of intact trees when every link fails independently with probability ``f``.

    ``k (1 - f)^(n - 1)``: linearity of expectation over the ``k`` trees of ``n - 1`` links each.

    Example
    -------
    >>> intact_expected(2, 4, 0.5)
    0.25
    """
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    r = k * (1 - _fraction(f)) ** (n - 1)
    return float(r) if np.ndim(r) == 0 else r


def intact_expected_fixed(k: int, n: int, m: int, failed: int) -> float:
    """Expected number of intact trees when exactly ``failed`` of the ``m`` links fail, uniformly at random.

    ``k C(m - n + 1, F) / C(m, F)``: a tree survives iff all ``F`` failures miss its ``n - 1`` links.

    Example
    -------
    >>> round(intact_expected_fixed(2, 4, 6, 2), 12)      # K4, two trees: 2 * C(3,2)/C(6,2)
    0.4
    """
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=max(n - 1, 0))
    failed = check_int(failed, "failed", minimum=0, maximum=m)
    return float(k * np.exp(_log_survive(m, n - 1, failed)))


def intact_std(k: int, n: int, f: Any) -> Any:
    """Standard deviation of the number of intact trees under independent link failures.

    The ``k`` trees are edge-disjoint, so they fail independently: the count is Binomial
    ``(k, p)`` with ``p = (1 - f)^(n - 1)`` and standard deviation ``sqrt(k p (1 - p))``.

    Example
    -------
    >>> intact_std(4, 2, 0.5)
    1.0
    """
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    p = (1 - _fraction(f)) ** (n - 1)
    r = np.sqrt(k * p * (1 - p))
    return float(r) if np.ndim(r) == 0 else r


def _log_survive(m: int, used: int, failed: int) -> float:
    """log of C(m - used, F) / C(m, F); ``-inf`` if ``F > m - used``."""
    free = m - used
    if failed > free:
        return float("-inf")
    return float(gammaln(free + 1) - gammaln(free - failed + 1) - gammaln(m + 1) + gammaln(m - failed + 1))


def intact_std_fixed(k: int, n: int, m: int, failed: int) -> float:
    """Standard deviation of the number of intact trees when exactly ``failed`` uniform links fail.

    With ``p_1 = C(m - n + 1, F)/C(m, F)`` (one tree intact) and ``p_2 = C(m - 2(n - 1), F)/C(m, F)`` (two given
    trees intact), the variance is ``k p_1 (1 - p_1) + k (k - 1)(p_2 - p_1^2)``.

    Example
    -------
    >>> round(intact_std_fixed(2, 4, 6, 2) ** 2, 12)     # K4, two trees, two failed links
    0.24
    """
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=max(k * (n - 1), 0))
    failed = check_int(failed, "failed", minimum=0, maximum=m)
    p1 = np.exp(_log_survive(m, n - 1, failed))
    p2 = np.exp(_log_survive(m, 2 * (n - 1), failed)) if k > 1 else 0.0
    var = k * p1 * (1 - p1) + k * (k - 1) * (p2 - p1 * p1)
    return float(np.sqrt(max(var, 0.0)))


def any_intact_probability(k: int, n: int, f: Any) -> Any:
    """Probability that at least one of ``k`` edge-disjoint trees survives independent link failures.

    ``1 - (1 - (1 - f)^(n - 1))^k``: disjoint trees fail independently.

    Example
    -------
    >>> any_intact_probability(2, 2, 0.5)
    0.75
    """
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    r = 1 - (1 - (1 - _fraction(f)) ** (n - 1)) ** k
    return float(r) if np.ndim(r) == 0 else r


def tree_owner(graph: Any, trees: Sequence[Any]) -> np.ndarray:
    """For every link of ``graph`` (row of ``graph.edges``), the index of the tree using it, or ``-1``.

    Raises
    ------
    ValueError
        If a tree edge is not a link of the graph or two trees share a link.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> g = ArrayGraph.from_edges(range(3), np.array([[0, 1], [0, 2], [1, 2]]))
    >>> tree_owner(g, [np.array([[1, 2], [0, 1]])]).tolist()
    [0, -1, 0]
    """
    n = int(graph.n)
    e = np.sort(np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2), axis=1)
    keys = e[:, 0] * n + e[:, 1]
    order = np.argsort(keys, kind="stable")
    owner = np.full(e.shape[0], -1, dtype=np.int64)
    for i, t in enumerate(trees):
        te = np.sort(np.asarray(getattr(t, "edges", t), dtype=np.int64).reshape(-1, 2), axis=1)
        tk = te[:, 0] * n + te[:, 1]
        pos = np.searchsorted(keys, tk, sorter=order)
        pos = np.minimum(pos, len(keys) - 1)
        idx = order[pos]
        if len(tk) and not (keys[idx] == tk).all():
            raise ValueError(f"trees: tree {i} uses an edge that is not a link of the graph")
        if (owner[idx] >= 0).any() or np.unique(idx).size != idx.size:
            raise ValueError(f"trees: tree {i} shares a link with another tree")
        owner[idx] = i
    return owner


def failure_patterns(m: int, f: float, trials: int, seed: int, model: str = "bernoulli") -> np.ndarray:
    """Random link-failure patterns: a ``(trials, m)`` boolean array, ``True`` where a link failed.

    Parameters
    ----------
    m : number of links.
    f : failure probability (``"bernoulli"``) or failed fraction (``"fixed"``: exactly ``round(f m)`` links
        fail in each pattern, chosen uniformly).
    trials : number of patterns.
    seed : seed of ``numpy.random.default_rng``.
    model : ``"bernoulli"`` or ``"fixed"``.

    Example
    -------
    >>> failure_patterns(10, 0.3, 4, seed=1, model="fixed").sum(axis=1).tolist()
    [3, 3, 3, 3]
    """
    m = check_int(m, "m", minimum=0)
    trials = check_int(trials, "trials", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    f = float(_fraction(f))
    if model not in ("bernoulli", "fixed"):
        raise ValueError(f"model={model!r} is not one of 'bernoulli', 'fixed'")
    rng = np.random.default_rng(seed)
    if model == "bernoulli":
        return rng.random((trials, m)) < f
    nf = int(round(f * m))
    failed = np.zeros((trials, m), dtype=bool)
    if nf:
        pick = np.argpartition(rng.random((trials, m)), nf - 1, axis=1)[:, :nf]
        np.put_along_axis(failed, pick, True, axis=1)
    return failed


def intact_counts(failed: np.ndarray, owner: np.ndarray, k: int) -> np.ndarray:
    """Number of intact trees in each failure pattern (rows of ``failed``), given the links' owners.

    Example
    -------
    >>> intact_counts(np.array([[True, False, False], [False, False, True]]), np.array([0, 0, 1]), 2).tolist()
    [1, 1]
    """
    owner = np.asarray(owner, dtype=np.int64)
    k = check_int(k, "k", minimum=0)
    failed = np.asarray(failed, dtype=bool)
    if failed.ndim != 2 or failed.shape[1] != owner.shape[0]:
        raise ValueError(f"failed: shape {failed.shape} does not match {owner.shape[0]} links")
    if owner.size and (owner.max() >= k or owner.min() < -1):
        raise ValueError(f"owner: tree indices must lie in -1..k-1 with k={k}")
    used = owner >= 0
    onehot = np.zeros((int(used.sum()), k), dtype=np.float32)
    onehot[np.arange(onehot.shape[0]), owner[used]] = 1.0
    broken = failed[:, used].astype(np.float32) @ onehot
    return (broken == 0).sum(axis=1).astype(np.int64)


def simulate_failures(owner: np.ndarray, k: int, f: float, trials: int, seed: int,
                      model: str = "bernoulli") -> np.ndarray:
    """Monte Carlo: number of intact trees in each of ``trials`` random failure patterns.

    :func:`failure_patterns` then :func:`intact_counts`; the same ``seed`` gives the same patterns for any tree
    set on the same links (common random numbers).

    Parameters
    ----------
    owner : :func:`tree_owner` of the links (length ``m``).
    k : number of trees.
    f, trials, seed, model : as in :func:`failure_patterns`.

    Returns
    -------
    ndarray of ``trials`` integers in ``0..k``.

    Example
    -------
    >>> simulate_failures(np.array([0, 0, 1, -1]), 2, 0.0, 3, seed=0).tolist()
    [2, 2, 2]
    """
    owner = np.asarray(owner, dtype=np.int64)
    k = check_int(k, "k", minimum=0)
    if owner.size and (owner.max() >= k or owner.min() < -1):
        raise ValueError(f"owner: tree indices must lie in -1..k-1 with k={k}")
    return intact_counts(failure_patterns(owner.shape[0], f, trials, seed, model), owner, k)
