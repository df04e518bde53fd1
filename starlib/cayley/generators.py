"""The generators of super Cayley graphs as position maps (Yeh, Varvarigos and Lee, Section 2.2).

Positions are numbered ``1..k`` in names and in the paper, ``0..k-1`` in the maps. With
``k = n*l + 1`` balls, position 1 is the *outside ball* and the ``i``-th *box* (super-symbol) is
positions ``(i-1)n+2 .. in+1``. A generator maps the label ``U`` to ``U[g]``.

- :func:`transposition` ``T_i`` (``T_{i,j}``): exchange positions 1 and ``i`` (``i`` and ``j``);
- :func:`swap` ``S_{n,i}``: exchange box 1 and box ``i``, keeping the order inside the boxes;
- :func:`rotation` ``R^i``: shift positions ``2..k`` cyclically right by ``n*i`` (``R^i = R^(i mod l)``);
- :func:`insertion` ``I_i`` (Definition 1): cyclic left shift of positions ``1..i``
  (the outside ball is inserted at position ``i``);
- :func:`selection` ``I_i^-1`` (Definition 2): cyclic right shift of positions ``1..i``.

Names are the paper's, written ``T_3``, ``T_{2,5}``, ``S_2``, ``R^1``, ``R^-1``, ``I_3``, ``I_3^-1``.

Example
-------
>>> insertion(5, 3).apply((1, 2, 3, 4, 5))
(2, 3, 1, 4, 5)
>>> rotation(7, 2, 1).apply((1, 2, 3, 4, 5, 6, 7))   # l = 3 boxes of n = 2
(1, 6, 7, 2, 3, 4, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..validation import check_int
from .permutations import check_k, compose, identity, inverse

__all__ = ["Generator", "transposition", "swap", "rotation", "insertion", "selection", "word_map", "word_names"]


@dataclass(frozen=True)
class Generator:
    """A named generator: ``name`` as in the paper and its 0-based position map ``perm``.

    Attributes
    ----------
    name : str
        ``"T_3"``, ``"S_2"``, ``"R^-1"``, ``"I_4^-1"``, ...
    perm : tuple of int
        ``V = U[perm]``.
    kind : str
        ``"nucleus"`` (acts on positions ``1..n+1``) or ``"super"`` (moves boxes).
    """

    name: str
    perm: tuple[int, ...]
    kind: str = "nucleus"

    @property
    def k(self) -> int:
        """Number of positions."""
        return len(self.perm)

    def apply(self, label: Sequence) -> tuple:
        """The label ``label[perm]`` (a tuple of the same symbols).

        Examples
        --------
        >>> transposition(4, 3).apply("abcd")
        ('c', 'b', 'a', 'd')
        """
        return tuple(label[p] for p in self.perm)

    def inverse_perm(self) -> tuple[int, ...]:
        """Position map of the inverse generator."""
        return inverse(self.perm)

    def is_involution(self) -> bool:
        """True if the generator is its own inverse (its arcs pair up into undirected links)."""
        return compose(self.perm, self.perm) == identity(self.k)


def transposition(k: int, i: int, j: int | None = None) -> Generator:
    """Transposition ``T_i`` (positions 1 and ``i``) or ``T_{i,j}`` (positions ``i`` and ``j``).

    Parameters
    ----------
    k : int
        Number of positions.
    i : int
        ``2 <= i <= k`` for ``T_i``; ``1 <= i < j`` for ``T_{i,j}``.
    j : int, optional
        Second position, ``i < j <= k``.

    Returns
    -------
    Generator
        Named ``T_i`` (also for ``T_{1,i}``) or ``T_{i,j}``.

    Raises
    ------
    ValueError
        For positions outside these ranges.

    Examples
    --------
    >>> transposition(4, 2).perm, transposition(4, 2, 4).name
    ((1, 0, 2, 3), 'T_{2,4}')
    """
    k = check_k(k)
    if j is None:
        i = check_int(i, "i", 2, k, rule=f"2 <= i <= k = {k} (T_i exchanges positions 1 and i)")
        a, b, name = 1, i, f"T_{i}"
    else:
        i = check_int(i, "i", 1, k - 1, rule=f"1 <= i < j <= k = {k}")
        j = check_int(j, "j", i + 1, k, rule=f"i = {i} < j <= k = {k}")
        a, b = i, j
        name = f"T_{j}" if i == 1 else f"T_{{{i},{j}}}"
    p = list(range(k))
    p[a - 1], p[b - 1] = p[b - 1], p[a - 1]
    return Generator(name, tuple(p), "nucleus")


def _boxes(k: int, n: int) -> tuple[int, int, int]:
    """Checked ``k`` and ``n`` and the number of boxes ``l``, where ``k = n*l + 1``."""
    k = check_k(k, minimum=3)
    n = check_int(n, "n", 1, k - 1, rule=f"1 <= n <= k - 1 = {k - 1}")
    if (k - 1) % n:
        raise ValueError(f"n={n} does not divide k - 1 = {k - 1}: need k = n*l + 1 (l boxes of n balls)")
    return k, n, (k - 1) // n


def swap(k: int, n: int, i: int) -> Generator:
    """Swap generator ``S_{n,i}``: exchange box 1 and box ``i`` (positions ``(i-1)n+2 .. in+1``).

    Parameters
    ----------
    k : int
        Number of positions, ``k = n*l + 1``.
    n : int
        Balls per box.
    i : int
        Box, ``2 <= i <= l``.

    Returns
    -------
    Generator
        Named ``S_i`` (a super generator, an involution).

    Raises
    ------
    ValueError
        If ``n`` does not divide ``k - 1`` or ``i`` is not a box other than the first.

    Examples
    --------
    >>> swap(7, 2, 3).apply((1, 2, 3, 4, 5, 6, 7))
    (1, 6, 7, 4, 5, 2, 3)
    """
    k, n, boxes = _boxes(k, n)
    i = check_int(i, "i", 2, boxes, rule=f"2 <= i <= l = {boxes} (S_{{n,i}} swaps box 1 with box i)")
    p = list(range(k))
    for t in range(n):
        a, b = 1 + t, 1 + (i - 1) * n + t
        p[a], p[b] = p[b], p[a]
    return Generator(f"S_{i}", tuple(p), "super")


def rotation(k: int, n: int, i: int, *, signed_name: bool = False) -> Generator:
    """Rotation generator ``R^i`` (Definition 3): shift positions ``2..k`` cyclically right by ``n*i``.

    ``R^i = R^(i mod l)``; negative ``i`` gives the inverse rotations. The name is ``R^a`` with
    ``a = i mod l`` in ``1..l-1`` (so ``R^-1`` of ``l = 4`` is named ``R^3``) unless
    ``signed_name``, which keeps ``R^{i}`` as given (used where ``R`` and ``R^-1`` are listed
    separately and may coincide, ``l = 2``).

    Parameters
    ----------
    k, n : int
        Number of positions ``k = n*l + 1`` for ``l`` boxes of ``n`` balls.
    i : int
        Exponent, not a multiple of ``l`` (that is the identity).
    signed_name : bool
        Keep the exponent as given in the name.

    Returns
    -------
    Generator
        A super generator.

    Raises
    ------
    ValueError
        If ``i`` is a multiple of ``l`` or ``n`` does not divide ``k - 1``.

    Examples
    --------
    >>> r = rotation(7, 2, -1)
    >>> r.name, r.apply((1, 2, 3, 4, 5, 6, 7))
    ('R^2', (1, 4, 5, 6, 7, 2, 3))
    """
    k, n, boxes = _boxes(k, n)
    i = check_int(i, "i")
    if i % boxes == 0:
        raise ValueError(f"i={i} is a multiple of l = {boxes}: R^i would be the identity")
    shift = (n * i) % (k - 1)
    p = [0] + [1 + ((q - 1 - shift) % (k - 1)) for q in range(1, k)]
    name = f"R^{i}" if signed_name else f"R^{i % boxes}"
    return Generator(name, tuple(p), "super")


def _insertion_map(k: int, i: int, name: str) -> tuple[int, int, list[int]]:
    """Checked ``k``, ``i`` and the position map of ``I_i``: the cyclic left shift of positions ``1..i``."""
    k = check_k(k)
    i = check_int(i, "i", 2, k, rule=f"2 <= i <= k = {k} ({name} shifts positions 1..i)")
    return k, i, list(range(1, i)) + [0] + list(range(i, k))


def insertion(k: int, i: int) -> Generator:
    """Insertion generator ``I_i`` (Definition 1): ``I_i(U) = u_2 .. u_i u_1 u_{i+1} .. u_k``.

    Parameters
    ----------
    k : int
        Number of positions.
    i : int
        Where the outside ball is inserted, ``2 <= i <= k``.

    Returns
    -------
    Generator
        Named ``I_i``; ``I_2`` is the transposition ``T_2``.

    Raises
    ------
    ValueError
        If ``i`` is not a position ``2..k`` to insert at.

    Examples
    --------
    >>> insertion(4, 4).apply((1, 2, 3, 4))
    (2, 3, 4, 1)
    """
    k, i, p = _insertion_map(k, i, "I_i")
    return Generator(f"I_{i}", tuple(p), "nucleus")


def selection(k: int, i: int) -> Generator:
    """Selection generator ``I_i^-1`` (Definition 2): ``I_i^-1(U) = u_i u_1 .. u_{i-1} u_{i+1} .. u_k``.

    Parameters
    ----------
    k, i : int
        Number of positions and the position ``2 <= i <= k`` whose ball moves to the front.

    Returns
    -------
    Generator
        Named ``I_i^-1``, the inverse of ``I_i``; ``I_2^-1`` has the same map as ``I_2``.

    Raises
    ------
    ValueError
        As :func:`insertion`: ``i`` must be one of the positions ``2..k``.

    Examples
    --------
    >>> s = selection(4, 4)
    >>> s.apply((1, 2, 3, 4)), s.perm == inverse(insertion(4, 4).perm)
    ((4, 1, 2, 3), True)
    """
    k, i, p = _insertion_map(k, i, "I_i^-1")
    return Generator(f"I_{i}^-1", inverse(p), "nucleus")


def word_map(word: Sequence[Generator]) -> tuple[int, ...]:
    """Position map of a word of generators applied left to right.

    Parameters
    ----------
    word : sequence of Generator
        Non-empty.

    Returns
    -------
    tuple of int

    Examples
    --------
    >>> word_map([insertion(5, 4), selection(5, 3)]) == transposition(5, 4).perm   # Theorem 2
    True
    """
    if not word:
        raise ValueError("word: need at least one generator")
    return compose(*(g.perm for g in word))


def word_names(word: Sequence[Generator]) -> str:
    """The word as the paper writes it, e.g. ``'S_2 T_3 S_2'``.

    Examples
    --------
    >>> word_names([swap(7, 2, 2), transposition(7, 3), swap(7, 2, 2)])
    'S_2 T_3 S_2'
    """
    return " ".join(g.name for g in word)
