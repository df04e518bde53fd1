"""How many routers an all-to-all network needs: section 6 of the network-design notes.

The notes (section 6) ask for the fewest and the most ``m``-port routers that connect ``N`` compute nodes with
``n`` ports each so that every compute node reaches every other.

*Solution 1* (the maximum, sections 6.1 and 6.2): every compute node roots ``n`` private ``(m-1)``-ary trees of
routers. A tree of ``k`` levels has ``sum_{a=1..k} (m-1)^(a-1)`` routers and ``(m-1)^k`` leaf ports, so ``k`` is the
least level count with ``n (m-1)^k >= N - 1`` (eqs. (1), (8); the notes' eq. (8) omits the ``- 1``, their
eq. (11) and Fig. 14 have it), and ``M_max = N n sum_{a=1..k} (m-1)^(a-1) = N n ((m-1)^k - 1)/(m-2)``
(eqs. (3), (10)). :func:`tree_levels` finds ``k`` in integers instead of eqs. (5) and (12)'s
``ceil(log((N-1)/n) / log(m-1))``, which floating point overshoots exactly when ``(N-1)/n`` is a power of ``m-1``.

*Solution 2* (the minimum for ``n = 1``, section 6.1): a daisy chain of ``M`` routers, whose two end routers hold
``m - 1`` nodes each and the ``M - 2`` inner ones ``m - 2``: ``N = 2(m-1) + (M-2)(m-2)`` (eq. (6)). Solved for
``M`` (eq. (7)) and rounded up to whole routers,
``M_min = ceil((N - 2(m-1))/(m-2) + 2) = ceil((N - 2)/(m-2))``; this is the minimum for every ``N >= 3``, not only
for the notes' range ``N > 2(m-1)``: a connected router graph with ``M`` routers has at least ``M - 1`` links, so
at most ``M m - 2(M-1) = M(m-2) + 2`` ports are left for compute nodes, and ``N <= M(m-2) + 2`` is the bound.

The networks that realise both counts are built in :mod:`starlib.netdesign.constructions`.
"""

from __future__ import annotations

from typing import Any

from ..validation import check_int

__all__ = ["check_tree_parameters", "tree_levels", "max_routers", "min_routers"]


def check_tree_parameters(N: Any, m: Any, n: Any = 1) -> tuple[int, int, int]:
    """The parameters of the notes' Solution 1 checked: ``m > 2``, ``N > 2``, ``1 <= n <= N - 1`` (section 6).

    The one rule of :func:`tree_levels`, :func:`max_routers` and
    :func:`~starlib.netdesign.constructions.tree_network`.

    Parameters
    ----------
    N : number of compute nodes.
    m : ports per router.
    n : ports per compute node.

    Returns
    -------
    tuple of int
        ``(N, m, n)`` as ints.

    Raises
    ------
    ValueError
        Naming the first parameter that breaks its rule (``m``, then ``N``, then ``n``).

    Examples
    --------
    >>> check_tree_parameters(1000, 24, 2)
    (1000, 24, 2)
    >>> try:
    ...     check_tree_parameters(10, 2)
    ... except ValueError as e:
    ...     print(e)
    m=2 is too small: need m > 2 (a router needs one port up and at least two down)
    """
    m = check_int(m, "m", 3, rule="m > 2 (a router needs one port up and at least two down)")
    N = check_int(N, "N", 3, rule="N > 2")
    n = check_int(n, "n", 1, N - 1, rule=f"1 <= n <= N - 1 = {N - 1} (ports per compute node)")
    return N, m, n


def tree_levels(N: int, m: int, n: int = 1) -> int:
    """Number of tree levels ``k`` in the notes' "Solution 1": the least ``k`` with ``n (m-1)^k >= N - 1``.

    This is ``ceil(log((N-1)/n) / log(m-1))`` (eqs. 5 and 12) computed in exact integer arithmetic:
    in floating point the ceiling of a quotient of logarithms is off by one when ``(N-1)/n`` is an exact
    power of ``m-1`` (for instance ``log(125)/log(5)`` evaluates to ``3.0000000000000004``).

    Parameters
    ----------
    N : number of compute nodes, ``N > 2``.
    m : ports per router, ``m > 2``.
    n : ports per compute node, ``1 <= n <= N - 1``.

    Returns
    -------
    int
        ``k >= 0`` (``k = 0`` when ``n = N - 1``: every node reaches every other directly).

    Raises
    ------
    ValueError
        If ``m <= 2``, ``N <= 2`` or ``n`` is outside ``1..N-1``.

    Examples
    --------
    >>> tree_levels(1000, 24), tree_levels(1000, 24, n=2), tree_levels(126, 6)
    (3, 2, 3)

    References
    ----------
    Network-design notes, section 6.1 eqs. (1), (4)-(5) and section 6.2 eqs. (8), (11)-(12).
    """
    N, m, n = check_tree_parameters(N, m, n)
    k, reach = 0, n
    while reach < N - 1:
        k += 1
        reach *= m - 1
    return k


def max_routers(N: int, m: int, n: int = 1) -> int:
    """The notes' maximum router count ``M_max = N n sum_{a=1..k} (m-1)^(a-1)`` with ``k = tree_levels(N, m, n)``.

    Every compute node roots ``n`` private ``(m-1)``-ary trees of routers, ``k`` levels deep, whose
    leaves reach the other ``N - 1`` nodes; :func:`tree_network` builds that network.

    Parameters
    ----------
    N, m, n : as in :func:`tree_levels` (which raises ``ValueError`` outside their ranges).

    Returns
    -------
    int
        ``N n ((m-1)^k - 1) / (m-2)``.

    Examples
    --------
    >>> max_routers(1000, 24)       # the notes' example for n = 1
    553000
    >>> max_routers(5, 5), max_routers(17, 5), max_routers(65, 5)   # Figs. 7-9: M' = 1, 1 + 4, 1 + 4 + 16
    (5, 85, 1365)

    References
    ----------
    Network-design notes, section 6.1 eq. (3) (``n = 1``) and section 6.2 eq. (10).
    """
    N, m, n = check_tree_parameters(N, m, n)
    k = tree_levels(N, m, n)
    return N * n * (((m - 1) ** k - 1) // (m - 2))


def min_routers(N: int, m: int) -> int:
    """The notes' minimum router count for one port per compute node (a daisy chain of routers).

    Solves ``N = 2(m-1) + (M-2)(m-2)`` (eq. 6) for ``M`` and rounds up to whole routers:
    ``M_min = ceil((N - 2(m-1))/(m-2) + 2) = ceil((N-2)/(m-2))``.

    The notes state the range ``N > 2(m-1)``; the rounded formula is also right for ``3 <= N <= 2(m-1)``
    (one router while ``N <= m``, two up to ``2(m-1)``, the notes' Figs. 10 and 11), which brute-force
    enumeration confirms, so starlib accepts every ``N >= 3``. For ``N <= 2`` it would give 0 routers.

    Parameters
    ----------
    N : number of compute nodes, ``N >= 3``.
    m : ports per router, ``m > 2``.

    Returns
    -------
    int
        The least number of ``m``-port routers that connect ``N`` single-port compute nodes.

    Raises
    ------
    ValueError
        If ``m <= 2`` or ``N < 3``.

    Examples
    --------
    >>> min_routers(1000, 24)      # the notes' example
    46
    >>> [min_routers(N, 5) for N in (5, 8, 11, 14)]   # Figs. 10-13: 5; 4 + 4; 4 + 3 + 4; 4 + 3 + 3 + 4
    [1, 2, 3, 4]

    References
    ----------
    Network-design notes, section 6.1 "Solution 2", eqs. (6)-(7).
    """
    m = check_int(m, "m", 3, rule="m > 2 (a chained router needs two router ports and a compute port)")
    N = check_int(N, "N", 3, rule="N >= 3 (for N <= 2 the formula (N-2)/(m-2) gives no router)")
    return -(-(N - 2) // (m - 2))

