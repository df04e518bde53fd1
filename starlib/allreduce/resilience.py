"""Link-failure resilience of ``k`` edge-disjoint spanning trees: how many survive when links fail.

The star-product paper (Isham et al., sections I-B and VI) motivates large EDST sets by fault tolerance as well
as bandwidth; this module counts what that buys.

Each link fails with probability ``f`` independently. A tree of ``n - 1`` links survives with probability
``p = (1 - f)^(n - 1)``; edge-disjoint trees share no link, so they fail independently: the number of intact
trees is Binomial ``(k, p)``, with ``E[intact] = k p``, standard deviation ``sqrt(k p (1 - p))`` and
``P(some tree intact) = 1 - (1 - p)^k``. With exactly ``F`` failed links chosen uniformly among the ``m``,
one tree is intact with probability ``p_1 = C(m - n + 1, F) / C(m, F)`` (every failure misses its ``n - 1``
links) and two given trees with ``p_2 = C(m - 2(n - 1), F) / C(m, F)``, so ``E[intact] = k p_1`` and
``Var = k p_1 (1 - p_1) + k (k - 1)(p_2 - p_1^2)``. :func:`simulate_failures` checks these by Monte Carlo.

A broken tree need not stay broken: :func:`repair_trials` repairs the family after random failures
(:func:`starlib.edst.repair_edsts`: the maximum of the damaged network, grown from the surviving trees) and
records the counts and depths.

Example
-------
>>> intact_expected(2, 4, 0.5), any_intact_probability(2, 2, 0.5)
(0.25, 0.75)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.special import gammaln

from ..validation import check_choice, check_int, check_real

if TYPE_CHECKING:
    from ..graphs import ArrayGraph

__all__ = ["intact_expected", "intact_expected_fixed", "intact_std", "intact_std_fixed", "any_intact_probability",
           "tree_owner", "failure_patterns", "intact_counts", "simulate_failures", "repair_trials"]


def _fraction(f: Any) -> np.ndarray:
    x = np.asarray(f, dtype=np.float64)
    if not np.isfinite(x).all() or (x < 0).any() or (x > 1).any():
        raise ValueError(f"f={f!r} must lie in [0, 1] (a fraction of links)")
    return x


def _survival(k: Any, n: Any, f: Any) -> tuple[int, Any]:
    """``k`` checked, and ``p = (1 - f)^(n - 1)``: the probability that one tree of ``n - 1`` links survives."""
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    return k, (1 - _fraction(f)) ** (n - 1)


def _fixed_args(k: Any, n: Any, m: Any, failed: Any, all_trees: bool) -> tuple[int, int, int, int]:
    """``k, n, m, failed`` checked: ``0 <= failed <= m`` and ``m`` at least the links of one tree (of all ``k``
    trees if ``all_trees``)."""
    k = check_int(k, "k", minimum=0)
    n = check_int(n, "n", minimum=1)
    m = check_int(m, "m", minimum=max((k if all_trees else 1) * (n - 1), 0))
    return k, n, m, check_int(failed, "failed", minimum=0, maximum=m)


def _owners(owner: Any, k: Any) -> tuple[np.ndarray, int]:
    """``owner`` as int64 and ``k`` checked: every owner is a tree index ``0..k-1`` or ``-1`` (no tree)."""
    owner = np.asarray(owner, dtype=np.int64)
    k = check_int(k, "k", minimum=0)
    if owner.size and (owner.max() >= k or owner.min() < -1):
        raise ValueError(f"owner: tree indices must lie in -1..k-1 with k={k}")
    return owner, k


def intact_expected(k: int, n: int, f: Any) -> Any:
    """Expected number of intact trees when every link fails independently with probability ``f``.

    ``k (1 - f)^(n - 1)``: linearity of expectation over the ``k`` trees of ``n - 1`` links each.

    Example
    -------
    >>> intact_expected(2, 4, 0.5)
    0.25
    """
    k, p = _survival(k, n, f)
    r = k * p
    return float(r) if np.ndim(r) == 0 else r


def intact_expected_fixed(k: int, n: int, m: int, failed: int) -> float:
    """Expected number of intact trees when exactly ``failed`` of the ``m`` links fail, uniformly at random.

    ``k C(m - n + 1, F) / C(m, F)``: a tree survives iff all ``F`` failures miss its ``n - 1`` links.

    Example
    -------
    >>> round(intact_expected_fixed(2, 4, 6, 2), 12)      # K4, two trees: 2 * C(3,2)/C(6,2)
    0.4
    """
    k, n, m, failed = _fixed_args(k, n, m, failed, False)
    return float(k * np.exp(_log_survive(m, n - 1, failed)))  # cpu-stable: rounded


def intact_std(k: int, n: int, f: Any) -> Any:
    """Standard deviation of the number of intact trees under independent link failures.

    The ``k`` trees are edge-disjoint, so they fail independently: the count is Binomial
    ``(k, p)`` with ``p = (1 - f)^(n - 1)`` and standard deviation ``sqrt(k p (1 - p))``.

    Example
    -------
    >>> intact_std(4, 2, 0.5)
    1.0
    """
    k, p = _survival(k, n, f)
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
    k, n, m, failed = _fixed_args(k, n, m, failed, True)
    p1 = np.exp(_log_survive(m, n - 1, failed))  # cpu-stable: a probability, rounded before a table
    p2 = np.exp(_log_survive(m, 2 * (n - 1), failed)) if k > 1 else 0.0  # cpu-stable: rounded
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
    k, p = _survival(k, n, f)
    r = 1 - (1 - p) ** k
    return float(r) if np.ndim(r) == 0 else r


def tree_owner(graph: ArrayGraph, trees: Sequence[Any]) -> np.ndarray:
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
    f = check_real(f, "f", 0, 1, rule="0 <= f <= 1 (a fraction of links)")
    check_choice(model, "model", ("bernoulli", "fixed"))
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
    owner, k = _owners(owner, k)
    failed = np.asarray(failed, dtype=bool)
    if failed.ndim != 2 or failed.shape[1] != owner.shape[0]:
        raise ValueError(f"failed: shape {failed.shape} does not match {owner.shape[0]} links")
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
    owner, k = _owners(owner, k)
    return intact_counts(failure_patterns(owner.shape[0], f, trials, seed, model), owner, k)


def repair_trials(graph: ArrayGraph, trees: Sequence[Any], failed: int, trials: int,
                  seed: int) -> dict[str, np.ndarray]:
    """Repair ``trees`` after ``trials`` random sets of exactly ``failed`` links each (uniform, seeded).

    Each set is ``failed`` distinct links drawn by ``numpy.random.default_rng(seed)`` (one generator for all the
    trials, so the sets do not depend on the trees); each repair is :func:`starlib.edst.repair_edsts`
    (verified; without the depth search).

    Parameters
    ----------
    graph : the network; trees : its edge-disjoint spanning trees.
    failed : links failing at once (``1 <= failed <= m``).
    trials : failure sets.
    seed : seed of the generator.

    Returns
    -------
    dict of ``(trials,)`` arrays
        ``intact`` trees that lost no link, ``repaired`` trees after the repair (the maximum of the damaged
        network, certified), ``bound`` that certified upper bound, ``depth`` the deepest repaired tree (0 if none),
        ``reattached`` cut subtrees rejoined by unused links, ``repacked`` whether the augmenting packer ran, and
        ``failed_edges`` the ``(trials, failed)`` row indices of the failed links.

    Example
    -------
    >>> from starlib.graphs import ArrayGraph
    >>> from starlib.edst import generic_packing
    >>> k6 = ArrayGraph.from_edges(range(6), np.array([[u, v] for u in range(6) for v in range(u + 1, 6)]))
    >>> r = repair_trials(k6, generic_packing(k6).trees, 1, 3, seed=0)
    >>> r["intact"].tolist(), r["repaired"].tolist()       # K_6 less a link: floor(14/5) = 2
    ([2, 2, 2], [2, 2, 2])
    """
    from ..edst.repair import repair_edsts

    m = int(graph.m)
    failed = check_int(failed, "failed", minimum=1, maximum=m)
    trials = check_int(trials, "trials", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    k = len(trees)
    out = {key: np.zeros(trials, dtype=np.int64) for key in ("intact", "repaired", "bound", "depth", "reattached")}
    out["repacked"] = np.zeros(trials, dtype=bool)
    out["failed_edges"] = np.zeros((trials, failed), dtype=np.int64)
    for t in range(trials):
        ids = np.sort(rng.choice(m, failed, replace=False))
        r = repair_edsts(graph, trees, graph.edges[ids], deep=False)
        out["failed_edges"][t] = ids
        out["intact"][t] = k - len(r.damaged)
        out["repaired"][t] = r.count_after
        out["bound"][t] = r.upper_bound
        out["depth"][t] = r.depth_after
        out["reattached"][t] = r.joined
        out["repacked"][t] = r.repacked
    return out
