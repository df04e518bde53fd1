"""The symmetric group S_k as integer-indexed arrays: lexicographic ranks, position maps, composition.

A node of a super Cayley graph is a permutation ``U = (u_1, ..., u_k)`` of the symbols ``1..k``.
Inside the library the ``k!`` permutations are the rows of one ``(k!, k)`` ``int8`` array in
lexicographic order, so a node *is* its lexicographic rank (computed for whole arrays by a
vectorised Lehmer code). A generator is a *position map* ``g`` (0-based): it sends the label
``U`` to ``U[g]`` (``V[p] = U[g[p]]``), so applying it to every node is one numpy gather on the
``(k!, k)`` array followed by one ranking, and applying the word ``g1 g2 ... gm`` (first ``g1``)
is the position map :func:`compose` ``(g1, ..., gm)``.

Example
-------
>>> sp = PermutationSpace(4)
>>> sp.size, sp.label(0), sp.label(23)
(24, (1, 2, 3, 4), (4, 3, 2, 1))
>>> int(lehmer_rank(np.array([[3, 2, 1, 0]]))[0])
23
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from ..validation import check_int, check_permutation

__all__ = ["MAX_K", "check_k", "check_ln", "all_permutations", "lehmer_rank", "compose", "inverse", "identity",
           "PermutationSpace"]

#: largest k for which whole graphs (k! nodes) are built; 10! = 3,628,800 nodes
MAX_K = 10

_BUILD_RULE = f"k <= {MAX_K} to build a graph (k! nodes; {MAX_K}! = {math.factorial(MAX_K):,})"


def check_k(k: int, *, build: bool = False, minimum: int = 2) -> int:
    """Validate the number of symbols ``k``: an integer ``k >= minimum``, and ``k <= MAX_K`` if a graph is built.

    Parameters
    ----------
    k : int
        Number of symbols (positions of a label).
    build : bool
        True when all ``k!`` nodes will be materialised.
    minimum : int
        Smallest admissible ``k``.

    Returns
    -------
    int
        ``k`` as a Python ``int``.

    Raises
    ------
    ValueError
        If ``k`` is not an integer, is below ``minimum``, or exceeds ``MAX_K`` while ``build``.

    Examples
    --------
    >>> check_k(11)
    11
    >>> check_k(11, build=True)
    Traceback (most recent call last):
    ...
    ValueError: k=11 is too large: need k <= 10 to build a graph (k! nodes; 10! = 3,628,800)
    """
    k = check_int(k, "k", minimum)
    return check_int(k, "k", maximum=MAX_K, rule=_BUILD_RULE) if build else k


def check_ln(l: int, n: int, *, build: bool = False) -> int:
    """Validate the box parameters of a super Cayley graph and return ``k = n*l + 1`` (Section 2.1).

    Rules: ``l >= 2`` boxes, ``n >= 1`` balls per box, ``k = n*l + 1`` symbols, and ``k <= MAX_K``
    when the graph itself is built.

    Parameters
    ----------
    l, n : int
        Number of boxes and balls per box.
    build : bool
        True when all ``k!`` nodes will be materialised.

    Returns
    -------
    int
        ``k``.

    Raises
    ------
    ValueError
        Naming the parameter, its value and the rule.

    Examples
    --------
    >>> check_ln(3, 2)
    7
    >>> check_ln(1, 4)
    Traceback (most recent call last):
    ...
    ValueError: l=1 is too small: need an integer l >= 2 (number of boxes; k = n*l + 1)
    """
    l = check_int(l, "l", 2, rule="an integer l >= 2 (number of boxes; k = n*l + 1)")
    n = check_int(n, "n", 1, rule="an integer n >= 1 (balls per box; k = n*l + 1)")
    k = n * l + 1
    if build and k > MAX_K:
        raise ValueError(f"l={l}, n={n} give k = n*l + 1 = {k}, too large: need {_BUILD_RULE}")
    return k


def identity(k: int) -> tuple[int, ...]:
    """The identity position map on ``k`` positions.

    Parameters
    ----------
    k : int
        Number of positions.

    Returns
    -------
    tuple of int
        ``(0, 1, ..., k-1)``.

    Examples
    --------
    >>> identity(3)
    (0, 1, 2)
    """
    return tuple(range(k))


def compose(*maps: Sequence[int]) -> tuple[int, ...]:
    """Position map of the word ``maps[0] maps[1] ...`` applied left to right (first ``maps[0]``).

    Applying ``a`` then ``b`` to ``U`` gives ``U[a][b] = U[a[b]]``, so the composite is ``a[b]``.

    Parameters
    ----------
    *maps : sequences of int
        Position maps of equal length (at least one).

    Returns
    -------
    tuple of int
        The composite position map.

    Raises
    ------
    ValueError
        If no map is given or the lengths differ.

    Examples
    --------
    >>> t2, t3 = (1, 0, 2), (2, 1, 0)          # swap positions 1,2 and 1,3
    >>> compose(t2, t3, t2)                     # T_2 T_3 T_2 swaps positions 2 and 3
    (0, 2, 1)
    """
    if not maps:
        raise ValueError("maps: need at least one position map")
    out = np.asarray(maps[0], dtype=np.int64)
    for m in maps[1:]:
        m = np.asarray(m, dtype=np.int64)
        if m.shape != out.shape:
            raise ValueError(f"maps: lengths differ ({out.size} and {m.size})")
        out = out[m]
    return tuple(int(x) for x in out)


def inverse(p: Sequence[int]) -> tuple[int, ...]:
    """Inverse position map (``compose(p, inverse(p))`` is the identity).

    Parameters
    ----------
    p : sequence of int
        A permutation of ``0..k-1``.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> inverse((1, 2, 0))
    (2, 0, 1)
    """
    a = np.asarray(p, dtype=np.int64)
    out = np.empty_like(a)
    out[a] = np.arange(a.size)
    return tuple(int(x) for x in out)


def all_permutations(k: int) -> np.ndarray:
    """All permutations of ``0..k-1`` as the rows of a ``(k!, k)`` int8 array, in lexicographic order.

    Parameters
    ----------
    k : int
        Number of symbols, ``1 <= k <= MAX_K``.

    Returns
    -------
    numpy.ndarray
        Row ``r`` is the permutation of lexicographic rank ``r``.

    Raises
    ------
    ValueError
        If ``k`` is outside ``1..MAX_K``.

    Examples
    --------
    >>> all_permutations(3).tolist()
    [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    """
    k = check_k(k, build=True, minimum=1)
    n = math.factorial(k)
    flat = np.fromiter(itertools.chain.from_iterable(itertools.permutations(range(k))), dtype=np.int8, count=n * k)
    return flat.reshape(n, k)


def lehmer_rank(perms: np.ndarray) -> np.ndarray:
    """Lexicographic rank of each row of ``perms`` (a permutation of ``0..k-1``), by the Lehmer code.

    The Lehmer digit of position ``i`` is the number of later entries smaller than entry ``i``;
    the rank is ``sum_i digit_i (k-1-i)!``. Cost ``O(N k^2)`` whole-array operations.

    Parameters
    ----------
    perms : numpy.ndarray
        Shape ``(N, k)``.

    Returns
    -------
    numpy.ndarray
        int64 ranks, shape ``(N,)``.

    Examples
    --------
    >>> lehmer_rank(all_permutations(4)).tolist() == list(range(24))
    True
    """
    p = np.asarray(perms)
    if p.ndim != 2:
        raise ValueError(f"perms: need a 2-d array of permutations, got shape {p.shape}")
    k = p.shape[1]
    cols = [np.ascontiguousarray(p[:, i]) for i in range(k)]
    rank = np.zeros(p.shape[0], dtype=np.int64)
    for i in range(k - 1):
        digit = np.zeros(p.shape[0], dtype=np.int16)
        for j in range(i + 1, k):
            digit += cols[j] < cols[i]
        rank += digit.astype(np.int64) * math.factorial(k - 1 - i)
    return rank


class PermutationSpace:
    """The ``k!`` nodes of a Cayley graph on S_k with cached neighbour maps, one per generator.

    ``neighbors(g)[r]`` is the rank of ``U[g]`` for the node ``U`` of rank ``r``: the arc of
    generator ``g`` out of every node at once. Node 0 is the identity ``(1, 2, ..., k)``.

    Parameters
    ----------
    k : int
        Number of symbols, ``1 <= k <= MAX_K``.

    Examples
    --------
    >>> sp = PermutationSpace(3)
    >>> sp.neighbors((1, 0, 2)).tolist()      # T_2 on every node
    [2, 4, 0, 5, 1, 3]
    """

    def __init__(self, k: int) -> None:
        self.perms = all_permutations(k)
        self.k = int(k)
        self.size = int(self.perms.shape[0])
        self._cache: dict[tuple[int, ...], np.ndarray] = {}

    def neighbors(self, g: Sequence[int]) -> np.ndarray:
        """Rank of ``U[g]`` for every node ``U`` (int64 array of length ``k!``), cached per map."""
        key = tuple(check_permutation(g, self.k, "g").tolist())
        if key not in self._cache:
            self._cache[key] = lehmer_rank(self.perms[:, list(key)])
        return self._cache[key]

    def rank(self, label: Sequence[int]) -> int:
        """Rank of a label written with symbols ``1..k`` (as in the paper)."""
        a = np.asarray(label, dtype=np.int64) - 1
        if a.shape != (self.k,) or sorted(a.tolist()) != list(range(self.k)):
            raise ValueError(f"label={tuple(label)} is not a permutation of 1..{self.k}")
        return int(lehmer_rank(a[None, :])[0])

    def label(self, r: int) -> tuple[int, ...]:
        """The label (symbols ``1..k``) of the node of rank ``r``."""
        return tuple(int(x) + 1 for x in self.perms[r])

    def labels(self) -> list[tuple[int, ...]]:
        """All labels in rank order."""
        return [tuple(row) for row in (self.perms.astype(np.int64) + 1).tolist()]
