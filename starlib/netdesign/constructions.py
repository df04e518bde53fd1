"""Networks built from the network-design notes: their toy models, Solutions 1 and 2, and random networks.

- :func:`single_port_network`: one-port compute nodes spread over routers, the toy models of section 1.3
  (Figs. 3-6) and the chains of section 6.1 (Figs. 10-13);
- :func:`daisy_chain`: section 6.1 "Solution 2", exactly :func:`~starlib.netdesign.routers.min_routers` routers;
- :func:`tree_network`: sections 6.1 and 6.2 "Solution 1", exactly
  :func:`~starlib.netdesign.routers.max_routers` routers;
- :func:`random_network`: section 4, "random network creation", routers connected first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..validation import check_int
from .database import canonical_connections, is_valid_connections, validate_connections
from .routers import check_tree_parameters, min_routers, tree_levels

__all__ = ["single_port_network", "daisy_chain", "tree_network", "random_network"]


def single_port_network(router_links: Any, loads: Sequence[int]) -> np.ndarray:
    """A network of one-port compute nodes: routers ``1..len(loads)``, ``loads[i]`` nodes on router ``i+1``.

    Compute nodes are numbered -1, -2, ... router by router.

    Parameters
    ----------
    router_links : pairs of router labels (may be empty).
    loads : number of compute nodes on each router (each ``>= 0``).

    Returns
    -------
    numpy.ndarray
        The validated canonical database (:func:`~starlib.netdesign.database.validate_connections`).

    Raises
    ------
    ValueError
        If a load is negative, a link names a router outside ``1..len(loads)`` or the result is invalid.

    Examples
    --------
    >>> single_port_network([[1, 2]], [1, 2]).tolist()
    [[-3, 2], [-2, 2], [-1, 1], [1, 2]]

    References
    ----------
    Network-design notes, section 1.3 (Figs. 3-6) and section 6.1 (Figs. 10-13).
    """
    loads = [check_int(x, f"loads[{i}]", 0) for i, x in enumerate(loads)]
    R = len(loads)
    links = np.asarray(router_links, dtype=np.int64).reshape(-1, 2)
    if links.size and (links.min() < 1 or links.max() > R):
        raise ValueError(f"router_links: labels must be routers 1..{R} (one per entry of loads)")
    router_of = np.repeat(np.arange(1, R + 1), loads)
    comp = np.stack([-np.arange(1, len(router_of) + 1), router_of], axis=1)
    return validate_connections(np.concatenate([comp, links]))


def daisy_chain(N: int, m: int) -> np.ndarray:
    """The notes' "Solution 2": ``min_routers(N, m)`` routers of ``m`` ports in a path, ``N`` one-port nodes.

    The end routers hold ``m - 1`` nodes and the inner ones ``m - 2``, filled from router 1; the last
    router takes the remainder (between 2 and ``m - 1`` nodes), so empty ports sit on the last router.
    With ``N <= m`` it is a single router holding all nodes.

    Parameters
    ----------
    N, m : as in :func:`~starlib.netdesign.routers.min_routers` (which raises ``ValueError`` outside its range).

    Returns
    -------
    numpy.ndarray
        The canonical database, checked against ``m`` ports per router and one per compute node.

    Examples
    --------
    >>> from starlib.netdesign import hop_statistics, router_labels
    >>> db = daisy_chain(11, 5)                     # Fig. 12: 4 + 3 + 4
    >>> len(router_labels(db)), hop_statistics(db).max
    (3, 3)

    References
    ----------
    Network-design notes, section 6.1, Figs. 10-13 and eqs. (6)-(7).
    """
    M = min_routers(N, m)
    if M == 1:
        loads = [N]
    else:
        loads = [m - 1] + [m - 2] * (M - 2)
        loads.append(N - sum(loads))
    links = [[i, i + 1] for i in range(1, M)]
    db = single_port_network(links, loads)
    return validate_connections(db, router_ports=m, node_ports=1)


def tree_network(N: int, m: int, n: int = 1) -> np.ndarray:
    """The notes' "Solution 1" network, with exactly ``max_routers(N, m, n)`` routers.

    Every compute node ``c`` plugs each of its ``n`` ports into the root of a private complete
    ``(m-1)``-ary tree of routers with ``k = tree_levels(N, m, n)`` levels (``M' = n sum (m-1)^(a-1)``
    routers per node, eq. 9). The leaves of ``c``'s trees offer ``n (m-1)^k >= N - 1`` free ports;
    for every pair ``c, d`` one leaf port of ``c`` is linked to one leaf port of ``d`` (partners dealt
    round-robin over the ``n`` trees). Every route then passes ``2k`` routers; leaf ports left over are
    the "empty router ports" the notes attribute to the ceiling in eq. (5).

    Router labels: ``1 + (c n + j) M'/n + t`` for node index ``c`` (label ``-(c+1)``), tree ``j`` and
    breadth-first position ``t`` in the tree.

    Parameters
    ----------
    N, m, n : as in :func:`~starlib.netdesign.routers.tree_levels`, but ``n < N - 1`` (``n = N - 1`` needs no
        routers at all).

    Returns
    -------
    numpy.ndarray
        The canonical database, checked against ``m`` ports per router and ``n`` per compute node.

    Raises
    ------
    ValueError
        If the parameters violate the rules of :func:`~starlib.netdesign.routers.tree_levels` or ``n = N - 1``.

    Examples
    --------
    >>> from starlib.netdesign import hop_statistics, max_routers, router_labels
    >>> db = tree_network(5, 5)        # Fig. 7, once per compute node: five routers in a complete graph
    >>> len(router_labels(db)) == max_routers(5, 5), hop_statistics(db).histogram
    (True, {2: 10})

    References
    ----------
    Network-design notes, section 6.1 eqs. (1)-(5), Figs. 7-9, and section 6.2 eqs. (8)-(12), Figs. 14-15.
    """
    N, m, n = check_tree_parameters(N, m, n)
    k = tree_levels(N, m, n)
    if k == 0:
        raise ValueError(f"n={n} = N - 1: every node links directly to every other and no router is needed; "
                         "the connection database has no compute-to-compute pairs")
    b = m - 1
    T = (b**k - 1) // (b - 1)  # routers per tree
    first_leaf = T - b ** (k - 1)
    trees = N * n
    base = 1 + np.arange(trees, dtype=np.int64) * T  # label of each tree's root, tree index = c n + j
    # compute links
    comp = np.stack([-(np.arange(trees) // n + 1), base], axis=1)
    # tree links: child t (1..T-1) to parent (t-1)//b
    t = np.arange(1, T, dtype=np.int64)
    par = (t - 1) // b
    inner = np.stack([(base[:, None] + par[None, :]).ravel(), (base[:, None] + t[None, :]).ravel()], axis=1)
    # cross links between the leaves of c's and d's trees
    c, d = np.triu_indices(N, 1)
    q1, q2 = d - 1, c  # position of d in c's partner list, of c in d's

    def leaf(node: np.ndarray, q: np.ndarray) -> np.ndarray:
        j, s = q % n, q // n
        return base[node * n + j] + first_leaf + s // b

    cross = np.stack([leaf(c, q1), leaf(d, q2)], axis=1)
    db = np.concatenate([comp, inner, cross])
    return validate_connections(db, router_ports=m, node_ports=n, full=False)


def random_network(N: int, n: int, M: int, m: int | Sequence[int], seed: int | np.random.Generator | None = None,
                   *, max_tries: int = 200) -> np.ndarray:
    """A random valid network of ``N`` compute nodes with ``n`` ports each and ``M`` routers.

    Routers are connected first (a random spanning tree, so the all-to-all rule holds by
    construction), then every compute node plugs its ``n`` ports into ``n`` distinct routers chosen
    with probability proportional to their free ports, and the remaining router ports are paired at
    random; a pair that would be a self-link or a doubled link is left empty.

    Parameters
    ----------
    N : compute nodes, ``N >= 2``.
    n : ports per compute node, ``1 <= n <= M``.
    M : routers, ``M >= 1``.
    m : ports per router: one int, or a sequence of ``M`` ints (routers may differ).
    seed : seed or numpy Generator.
    max_tries : attempts before giving up.

    Returns
    -------
    numpy.ndarray
        The canonical database; every compute port is used, router ports are at most ``m``.

    Raises
    ------
    ValueError
        If ``N n + 2 (M - 1)`` router ports (compute ports plus a spanning tree) exceed the ``sum(m)``
        available, or another parameter rule is broken.
    RuntimeError
        If no valid network was drawn in ``max_tries`` attempts.

    Examples
    --------
    >>> from starlib.netdesign import compute_nodes, router_labels
    >>> db = random_network(12, 2, 6, 6, seed=1)
    >>> len(compute_nodes(db)), len(router_labels(db)), is_valid_connections(db, router_ports=6, node_ports=2)
    (12, 6, True)

    References
    ----------
    Network-design notes, section 4 ("random network creation").
    """
    N = check_int(N, "N", 2)
    M = check_int(M, "M", 1)
    n = check_int(n, "n", 1, M, rule=f"1 <= n <= M = {M} (a compute node plugs into distinct routers)")
    if isinstance(m, (int, np.integer)) and not isinstance(m, bool):
        caps = np.full(M, check_int(m, "m", 1), dtype=np.int64)
    else:
        caps = np.array([check_int(x, f"m[{i}]", 1) for i, x in enumerate(m)], dtype=np.int64)
        if len(caps) != M:
            raise ValueError(f"m has {len(caps)} entries; it must have one per router (M={M})")
    need = N * n + 2 * (M - 1)
    if need > caps.sum():
        raise ValueError(f"m: the {int(caps.sum())} router ports cannot hold N*n = {N * n} compute ports plus "
                         f"2(M-1) = {2 * (M - 1)} ports of a spanning tree (rule N n + 2(M-1) <= sum of m)")
    if M == 1 and N * n > caps[0]:
        raise ValueError(f"N={N}: one router with {int(caps[0])} ports cannot hold {N * n} compute ports")
    max_tries = check_int(max_tries, "max_tries", 1)
    rng = np.random.default_rng(seed)
    for _ in range(max_tries):
        db = _draw_network(N, n, M, caps, rng)
        if db is not None and is_valid_connections(db, {i + 1: int(c) for i, c in enumerate(caps)}, n):
            return canonical_connections(db)
    raise RuntimeError(f"random_network: no valid network with N={N}, n={n}, M={M} in {max_tries} tries")


def _draw_network(N: int, n: int, M: int, caps: np.ndarray, rng: np.random.Generator) -> np.ndarray | None:
    free = caps.copy()
    links: list[tuple[int, int]] = []
    order = rng.permutation(M)
    for i in range(1, M):
        prev = order[:i]
        w = free[prev].astype(float)
        w[w <= 1] = 0.0  # keep a port for later; a router needs >= 1 port for its own tree link
        if w.sum() == 0:
            w = free[prev].astype(float)
            if w.sum() == 0:
                return None
        p = prev[rng.choice(i, p=w / w.sum())]
        u = order[i]
        links.append((min(p, u), max(p, u)))
        free[p] -= 1
        free[u] -= 1
    comp = np.empty((N * n, 2), dtype=np.int64)
    for c in range(N):
        avail = np.flatnonzero(free > 0)
        if len(avail) < n:
            return None
        w = free[avail].astype(float)
        pick = avail[rng.choice(len(avail), size=n, replace=False, p=w / w.sum())]
        free[pick] -= 1
        comp[c * n:(c + 1) * n] = np.stack([np.full(n, -(c + 1)), pick + 1], axis=1)
    have = set(links)
    stubs = np.repeat(np.arange(M), free)
    rng.shuffle(stubs)
    for a, b in zip(stubs[0::2].tolist(), stubs[1::2].tolist(), strict=False):  # odd stub: empty port
        e = (min(a, b), max(a, b))
        if a != b and e not in have:
            have.add(e)
            links.append(e)
    rr = np.array(sorted(have), dtype=np.int64).reshape(-1, 2) + 1
    return np.concatenate([comp, rr])

