"""A (1+1) evolutionary search over networks: sections 7 and 8.4 of the network-design notes.

The notes improve a network by random alterations (section 7) judged by a multi-objective fitness (section 8.4,
"the outcome of the evolution"). :func:`evolve` applies one random alteration per step
(:mod:`starlib.netdesign.alterations`) and keeps it when the weighted score
(:func:`~starlib.netdesign.fitness.weighted_score`) does not get worse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..validation import check_choice, check_int
from .alterations import MOVES, alter_rows
from .database import validate_connections
from .fitness import weighted_scorer

__all__ = ["EvolutionResult", "evolve"]


@dataclass(frozen=True)
class EvolutionResult:
    """Outcome of :func:`evolve`.

    ``scores[t]`` is the score of the current network after step ``t`` (``scores[0]``: the start), so it
    never increases; ``moves[t-1]`` and ``accepted[t-1]`` describe step ``t``; ``best`` is the final
    network and ``parts`` its score components.
    """

    best: np.ndarray
    scores: np.ndarray
    moves: tuple[str, ...]
    accepted: np.ndarray
    parts: dict[str, float] = field(default_factory=dict)
    history: dict[str, np.ndarray] = field(default_factory=dict)


def evolve(connections: Any, steps: int = 200, seed: int | None = 0, *, moves: Sequence[str] = MOVES,
           weights: Sequence[float] = (0.0, 1.0, 1.0), latency: str = "mean", count: str = "routers",
           picks: int | None = 256, exact_limit: int = 6435, max_tries: int = 20) -> EvolutionResult:
    """A (1+1) evolutionary search: alter the network, keep the change when the score does not get worse.

    At each step one of ``moves`` is chosen at random and applied (:func:`alter`); the altered
    network replaces the current one if its :func:`weighted_score` is lower or equal (equal moves let
    the search drift across plateaus). Alterations keep every port count, so the cost term is constant.

    Parameters
    ----------
    connections : a valid starting database.
    steps : number of alteration steps, ``>= 0``.
    seed : seed for the choice of moves and proposals (the bisection splits use a fixed seed 0).
    moves : subset of :data:`MOVES`.
    weights, latency, count, picks, exact_limit : as in :func:`weighted_score`.
    max_tries : proposals per step before the step is skipped.

    Returns
    -------
    EvolutionResult

    Raises
    ------
    ValueError
        If the database is invalid, ``moves`` is empty or names an unknown move, or an option of
        :func:`~starlib.netdesign.fitness.weighted_score` breaks its rule.

    Examples
    --------
    >>> from starlib.netdesign import is_valid_connections, random_network
    >>> r = evolve(random_network(8, 1, 4, 4, seed=0), steps=30, seed=1)
    >>> bool(r.scores[-1] <= r.scores[0]), bool(np.all(np.diff(r.scores) <= 0)), is_valid_connections(r.best)
    (True, True, True)

    References
    ----------
    Network-design notes, sections 7 and 8.4 ("the outcome of the evolution").
    """
    steps = check_int(steps, "steps", 0)
    moves = tuple(check_choice(mv, f"moves[{i}]", MOVES) for i, mv in enumerate(moves))
    if not moves:
        raise ValueError("moves is empty: give at least one of " + ", ".join(MOVES))
    sc = weighted_scorer(weights, latency=latency, count=count, picks=picks, seed=0, exact_limit=exact_limit)
    max_tries = check_int(max_tries, "max_tries", 1)
    rows = validate_connections(connections)
    rng = np.random.default_rng(seed)
    cur = sc.parts(rows)
    keys = ("score", "mean_hops", "max_hops", "bisection")
    hist = {k: [cur[k]] for k in keys}
    chosen, acc = [], []
    for _ in range(steps):
        mv = moves[int(rng.integers(len(moves)))]
        new = alter_rows(rows, mv, rng, max_tries)
        ok = False
        if new is not rows and not np.array_equal(new, rows):
            parts = sc.parts(new)
            if parts["score"] <= cur["score"]:
                rows, cur, ok = new, parts, True
        chosen.append(mv)
        acc.append(ok)
        for k in keys:
            hist[k].append(cur[k])
    return EvolutionResult(rows, np.array(hist["score"]), tuple(chosen), np.array(acc, dtype=bool), dict(cur),
                           {k: np.array(v) for k, v in hist.items()})

