"""The three alterations of a network: section 7 of the network-design notes.

Each alteration exchanges the ends of connections, so every node keeps its port count:

- 7.1, swap compute connections: ``[cA, s1], [cB, s2] -> [cA, s2], [cB, s1]`` (``cA != cB``, ``s1 != s2``);
- 7.2, swap router connections: ``[s1, X], [s2, Y] -> [s1, Y], [s2, X]`` (``s1 != s2``, ``X != Y``; ``X`` and
  ``Y`` may be compute nodes or routers, so 7.2 contains 7.1, as the notes remark);
- 7.3, swap sets of connections: ``[s1, X1], [s1, X2], [s2, Y1], [s2, Y2] -> [s1, Y1], [s1, Y2], [s2, X1],
  [s2, X2]`` (``s1 != s2``, ``{X1, X2}`` disjoint from ``{Y1, Y2}``).

A proposal is drawn as the notes' steps describe (random pairs, the inequality checks) and kept only if the
rearranged database is valid (:func:`~starlib.netdesign.database.validate_connections`).
:func:`set_swap_decompositions` answers the question that closes section 7.3.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..validation import check_choice, check_int
from .database import NetworkIndex, canonical_connections, validate_connections

__all__ = ["MOVES", "rewire", "set_swap_decompositions", "alter", "alter_rows", "swap_compute_connections",
           "swap_router_connections", "swap_connection_sets"]

#: The three alterations of section 7, by name.
MOVES: tuple[str, ...] = ("compute", "router", "set")


def _keys(rows: np.ndarray, off: int, width: int) -> np.ndarray:
    return (rows[:, 0] + off) * width + (rows[:, 1] + off)


def _try_rewire(rows: np.ndarray, remove: np.ndarray, new: np.ndarray) -> np.ndarray | None:
    """The database with rows ``remove`` (indices) replaced by ``new`` pairs, or None if that is invalid."""
    new = np.sort(np.asarray(new, dtype=np.int64).reshape(-1, 2), axis=1)
    if np.any(new[:, 0] == new[:, 1]) or np.any(new[:, 1] < 0) or np.any(new == 0):
        return None
    keep = np.ones(len(rows), dtype=bool)
    keep[remove] = False
    out = np.concatenate([rows[keep], new])
    off = int(-out.min()) + 1
    width = int(out.max()) + off + 1
    k = _keys(out, off, width)
    if len(np.unique(k)) != len(k):
        return None
    out = out[np.lexsort((out[:, 1], out[:, 0]))]
    net = NetworkIndex.of(out)
    if net.N != len(np.unique(rows[rows[:, 0] < 0, 0])) or net.unreachable_pair() is not None:
        return None
    return out


def rewire(connections: Any, remove: Any, add: Any) -> np.ndarray:
    """Replace the pairs ``remove`` by the pairs ``add`` and check that the result is valid.

    The three alterations are rewirings that keep every node's port count; this is the building block
    for applying a chosen one by hand.

    Parameters
    ----------
    connections : a valid database.
    remove : pairs present in the database (each removed once).
    add : pairs to add.

    Returns
    -------
    numpy.ndarray
        The canonical new database.

    Raises
    ------
    ValueError
        If a pair to remove is absent, or the new database breaks a rule of :func:`validate_connections`.

    Examples
    --------
    >>> from starlib.netdesign import single_port_network
    >>> db = single_port_network([[1, 2]], [2, 2])       # -1,-2 on router 1; -3,-4 on router 2
    >>> rewire(db, [[-1, 1], [-3, 2]], [[-1, 2], [-3, 1]]).tolist()
    [[-4, 2], [-3, 1], [-2, 1], [-1, 2], [1, 2]]

    References
    ----------
    Network-design notes, section 7.
    """
    rows = validate_connections(connections)
    rem = canonical_connections(remove) if np.size(remove) else np.zeros((0, 2), dtype=np.int64)
    idx = []
    taken = np.zeros(len(rows), dtype=bool)
    for a, b in rem.tolist():
        hit = np.flatnonzero(np.all(rows == [a, b], axis=1) & ~taken)
        if hit.size == 0:
            raise ValueError(f"remove: pair [{a}, {b}] is not in the connections")
        taken[hit[0]] = True
        idx.append(int(hit[0]))
    keep = rows[~taken]
    added = canonical_connections(add) if np.size(add) else np.zeros((0, 2), dtype=np.int64)
    return validate_connections(np.concatenate([keep, added]))


def _ends(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (row, column) whose label is a router: the 'router end' of a pair."""
    r, c = np.nonzero(rows > 0)
    return r, c


def _swap_far_ends(rows: np.ndarray, i: int, ci: int, j: int, cj: int) -> np.ndarray | None:
    """Section 7.2's ``[s1, X], [s2, Y] -> [s1, Y], [s2, X]`` for the router ends ``s1 = rows[i, ci]`` and
    ``s2 = rows[j, cj]``, or None if ``s1 = s2``, ``X = Y``, one link is taken twice or the result is invalid."""
    s1, X = int(rows[i, ci]), int(rows[i, 1 - ci])
    s2, Y = int(rows[j, cj]), int(rows[j, 1 - cj])
    if i == j or s1 == s2 or X == Y:
        return None
    return _try_rewire(rows, np.array([i, j]), [[s1, Y], [s2, X]])


def _propose_compute(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """Section 7.1: two random compute links ``[cA, s1], [cB, s2]`` (router end in column 1) swap routers."""
    cl = np.flatnonzero(rows[:, 0] < 0)
    if len(cl) < 2:
        return None
    i, j = rng.choice(cl, size=2, replace=False)
    return _swap_far_ends(rows, int(i), 1, int(j), 1)


def _propose_router(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """Section 7.2: two random router ends of any links swap their far ends."""
    r, c = _ends(rows)
    if len(r) < 2:
        return None
    e1, e2 = rng.choice(len(r), size=2, replace=False)
    return _swap_far_ends(rows, int(r[e1]), int(c[e1]), int(r[e2]), int(c[e2]))


def _propose_set(rows: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    """Section 7.3: two links of one router and two of another swap their far ends."""
    r, c = _ends(rows)
    if len(r) < 4:
        return None
    lab = rows[r, c]

    def pick_two() -> tuple[int, list[int], list[int]] | None:
        e = int(rng.integers(len(r)))
        s = int(lab[e])
        others = np.flatnonzero((lab == s) & (r != r[e]))
        if others.size == 0:
            return None
        f = int(others[rng.integers(others.size)])
        idx = [int(r[e]), int(r[f])]
        far = [int(rows[r[e], 1 - c[e]]), int(rows[r[f], 1 - c[f]])]
        return s, idx, far

    A, B = pick_two(), pick_two()
    if A is None or B is None:
        return None
    (s1, i1, X), (s2, i2, Y) = A, B
    if s1 == s2 or set(i1) & set(i2) or set(X) & set(Y):
        return None
    new = [[s1, Y[0]], [s1, Y[1]], [s2, X[0]], [s2, X[1]]]
    return _try_rewire(rows, np.array(i1 + i2), new)


def set_swap_decompositions(connections: Any) -> list[dict[str, Any]]:
    """Every valid set swap of section 7.3 and how many of its four single-swap first steps are valid.

    A set swap ``[s1, X1], [s1, X2], [s2, Y1], [s2, Y2] -> [s1, Y1], [s1, Y2], [s2, X1], [s2, X2]`` has the
    same result as two single swaps (``X1 <-> Y1`` then ``X2 <-> Y2``, or ``X1 <-> Y2`` then ``X2 <-> Y1``, in
    either order). If none of the four possible first swaps gives a valid network, the set swap reaches a
    network the single swaps cannot reach through valid states: the notes' question "is swapping multiple
    ports distinct from performing the same number of swaps on individual port pairs?".

    Parameters
    ----------
    connections : a valid database (small: every pair of routers and pairs of their links is tried).

    Returns
    -------
    list of dict
        ``s1, X, s2, Y`` (``X``, ``Y`` sorted pairs of far ends, ``s1 < s2``) and ``valid_first_steps``
        (0 to 4), one entry per valid set swap.

    Raises
    ------
    ValueError
        If the database is invalid.

    Examples
    --------
    >>> from starlib.netdesign import single_port_network
    >>> db = single_port_network([[1, 2]], [2, 2])      # -1, -2 on router 1; -3, -4 on router 2
    >>> set_swap_decompositions(db)
    [{'s1': 1, 'X': (-2, -1), 's2': 2, 'Y': (-4, -3), 'valid_first_steps': 4}]

    References
    ----------
    Network-design notes, section 7.3 (the question after the steps).
    """
    rows = validate_connections(connections)
    far: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(rows.tolist()):
        for s, x in ((a, b), (b, a)):
            if s > 0:
                far.setdefault(s, []).append((x, i))
    out = []
    for s1, s2 in itertools.combinations(sorted(far), 2):
        for (x1, i1), (x2, i2) in itertools.combinations(far[s1], 2):
            for (y1, j1), (y2, j2) in itertools.combinations(far[s2], 2):
                if {x1, x2} & {y1, y2} or {i1, i2} & {j1, j2}:
                    continue
                new = [[s1, y1], [s1, y2], [s2, x1], [s2, x2]]
                if _try_rewire(rows, np.array([i1, i2, j1, j2]), new) is None:
                    continue
                steps = 0
                for (x, i), (y, j) in itertools.product(((x1, i1), (x2, i2)), ((y1, j1), (y2, j2))):
                    steps += _try_rewire(rows, np.array([i, j]), [[s1, y], [s2, x]]) is not None
                out.append({"s1": s1, "X": tuple(sorted((x1, x2))), "s2": s2, "Y": tuple(sorted((y1, y2))),
                            "valid_first_steps": steps})
    return out


_PROPOSERS = {"compute": _propose_compute, "router": _propose_router, "set": _propose_set}


def alter(connections: Any, move: str, seed: int | np.random.Generator | None = None, *,
          max_tries: int = 100) -> np.ndarray:
    """Apply one random alteration of kind ``move`` (``"compute"``, ``"router"`` or ``"set"``).

    Proposals are drawn as in the notes (random pairs, the inequality checks, then the validity check
    of the rearranged database) until one is valid; if none is within ``max_tries`` the database is
    returned unchanged. Every alteration keeps each node's port count.

    Parameters
    ----------
    connections : a valid database.
    move : one of :data:`MOVES`.
    seed : seed or numpy Generator.
    max_tries : proposals before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical altered database (valid).

    Raises
    ------
    ValueError
        If the database is invalid, ``move`` is not one of :data:`MOVES` or ``max_tries < 1``.

    Examples
    --------
    >>> from starlib.netdesign import is_valid_connections, port_counts, random_network
    >>> db = random_network(10, 1, 4, 5, seed=0)
    >>> new = alter(db, "router", seed=3)
    >>> is_valid_connections(new), port_counts(new) == port_counts(db)
    (True, True)

    References
    ----------
    Network-design notes, sections 7.1-7.3.
    """
    check_choice(move, "move", MOVES)
    max_tries = check_int(max_tries, "max_tries", 1)
    rows = validate_connections(connections)
    rng = np.random.default_rng(seed)
    return alter_rows(rows, move, rng, max_tries)


def alter_rows(rows: np.ndarray, move: str, rng: np.random.Generator, max_tries: int) -> np.ndarray:
    """The work of :func:`alter` on a database already checked: nothing is checked again.

    For callers that alter one database many times (:func:`~starlib.netdesign.evolution.evolve`).

    Parameters
    ----------
    rows : numpy.ndarray
        A valid canonical database (the output of :func:`~starlib.netdesign.database.validate_connections`).
    move : str
        One of :data:`MOVES`.
    rng : numpy.random.Generator
        The random numbers of the proposals.
    max_tries : int
        Proposals before giving up, ``>= 1``.

    Returns
    -------
    numpy.ndarray
        The canonical altered database, or a copy of ``rows`` if no proposal was valid.

    Examples
    --------
    >>> from starlib.netdesign import random_network
    >>> db = random_network(10, 1, 4, 5, seed=0)
    >>> bool((alter_rows(db, "router", np.random.default_rng(3), 100) == alter(db, "router", seed=3)).all())
    True
    """
    prop = _PROPOSERS[move]
    for _ in range(max_tries):
        out = prop(rows, rng)
        if out is not None:
            return out
    return rows.copy()


def swap_compute_connections(connections: Any, seed: int | np.random.Generator | None = None, *,
                             max_tries: int = 100) -> np.ndarray:
    """:func:`alter` with ``move="compute"`` (section 7.1): ``[cA, s1], [cB, s2] -> [cA, s2], [cB, s1]``.

    Two random compute links (``cA != cB``, ``s1 != s2``) exchange their routers; the parameters, the result and
    the errors are those of :func:`alter`.

    Examples
    --------
    >>> from starlib.netdesign import port_counts, single_port_network
    >>> db = single_port_network([[1, 2]], [2, 2])
    >>> new = swap_compute_connections(db, seed=0)
    >>> port_counts(new) == port_counts(db), bool((new != db).any())
    (True, True)
    """
    return alter(connections, "compute", seed, max_tries=max_tries)


def swap_router_connections(connections: Any, seed: int | np.random.Generator | None = None, *,
                            max_tries: int = 100) -> np.ndarray:
    """:func:`alter` with ``move="router"`` (section 7.2): ``[s1, X], [s2, Y] -> [s1, Y], [s2, X]``.

    Two random router ends (``s1 != s2``, ``X != Y``) exchange the far ends of their links. ``X`` and ``Y`` may
    be compute nodes or routers, so this move contains the one of section 7.1.

    Examples
    --------
    >>> from starlib.netdesign import random_network, validate_connections
    >>> new = swap_router_connections(random_network(10, 1, 4, 5, seed=0), seed=1)
    >>> validate_connections(new, router_ports=5, node_ports=1).shape     # still valid, 10 + 4 links
    (14, 2)
    """
    return alter(connections, "router", seed, max_tries=max_tries)


def swap_connection_sets(connections: Any, seed: int | np.random.Generator | None = None, *,
                         max_tries: int = 100) -> np.ndarray:
    """:func:`alter` with ``move="set"`` (section 7.3): two links of one router trade places with two of another.

    ``[s1, X1], [s1, X2], [s2, Y1], [s2, Y2] -> [s1, Y1], [s1, Y2], [s2, X1], [s2, X2]``, with ``s1 != s2`` and
    ``{X1, X2}`` disjoint from ``{Y1, Y2}`` (the notes list three of these four inequalities; their step 4 names
    ``[s1, Y2]`` where ``[s2, Y2]`` is meant).

    Examples
    --------
    >>> from starlib.netdesign import random_network
    >>> db = random_network(12, 1, 4, 6, seed=2)
    >>> new = swap_connection_sets(db, seed=5)
    >>> sorted(set(map(tuple, db.tolist())) - set(map(tuple, new.tolist())))     # -12, -11 and -3, -2 trade places
    [(-12, 4), (-11, 4), (-3, 1), (-2, 1)]
    """
    return alter(connections, "set", seed, max_tries=max_tries)
