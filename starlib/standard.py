"""The standard networks every topology is compared with: hypercube, mesh, fat tree, Dragonfly and Jellyfish.

The network-design notes (section 2) name the networks a new topology is measured against; HyperX (the flattened
butterfly) and the torus are in :mod:`starlib.networks`, the others are here, each declared once beside its
builder. Every builder returns the *router graph*: one vertex per router (switch), one edge per link between two
routers; the endpoints (compute nodes) are not vertices. What a router needs besides its links is recorded on the
graph, for comparisons per router port:

* ``meta["radix"]``: the ports of one router (router links and endpoint ports), an ``int``;
* ``meta["endpoints"]``: the endpoints attached to each router, an ``int64`` array indexed like the vertices
  (``meta["endpoints"].sum()`` is the number of endpoints the network serves).

====================  ==========================================================  ========================
function              router graph                                                built as
====================  ==========================================================  ========================
``hypercube(n)``      Q_n, 2^n routers, n-regular                                 K_2 □ K_2 □ ... (n times)
``mesh(sizes)``       P_{s1} □ P_{s2} □ ... (the torus without wrap-around)       Cartesian product
``fat_tree(k, n)``    the k-ary n-tree: n levels of k^(n-1) switches of radix 2k  integer arrays
``dragonfly(a,p,h)``  a h + 1 groups of a routers, one global link per two groups  integer arrays
``jellyfish(n, r)``   a random connected r-regular graph, from a seed             configuration model
====================  ==========================================================  ========================

The omega network is not a family of its own: with its links one-way it has no spanning tree along its links, and
with them both ways its switch graph is ``fat_tree(2, s)`` (docs/networks.md §11.6). ``meta`` is described in §11.1,
the size models' measurements in §11.7.

Example
-------
>>> g = dragonfly(4, 2, 2)                 # a = 4 routers per group, p = 2 endpoints, h = 2 global links
>>> g.n, g.m, g.degree_set(), g.diameter(), g.meta["radix"], int(g.meta["endpoints"].sum())
(36, 90, [5], 3, 7, 72)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .factors import complete
from .family import ClosedForms, Param, choice, family, integer, integers
from .graphs import ArrayGraph, canonical_edges
from .memory import Size
from .products import cartesian_product

__all__ = ["ARRANGEMENTS", "hypercube", "mesh", "mesh_degrees", "fat_tree", "dragonfly", "dragonfly_ports",
           "jellyfish"]

#: The Dragonfly global-link arrangements of Hastings et al. (2015): how the ``a h`` global ports of a group are
#: wired to the other groups (docs/networks.md §11.4).
ARRANGEMENTS = ("absolute", "relative", "circulant")

#: Resident memory a build adds when it is the first to import scipy.sparse.csgraph (a Cartesian product checks its
#: factors' connectivity with it, Jellyfish finds its components): 33 MiB measured in a fresh interpreter. Every
#: size model below is ``a m + b n + base`` with coefficients above the peak resident-set growth and ``tracemalloc``
#: peak measured on builds of 10^5 to 2 * 10^6 links in a fresh interpreter (benchmarks/bench_standard.py;
#: the measured bytes per link are given beside each model).
_SCIPY_BYTES = 40 * 2**20
#: The least a build adds to the resident set (the allocator's arenas): 0.6 MiB measured for a 90-link Dragonfly.
_SMALL_BYTES = 2 * 2**20

#: Endpoints per router of the direct networks (hypercube, mesh, Jellyfish) unless given: one, as in the
#: references (a processor with its router).
_ENDPOINTS = Param(integer(1, note="(endpoints per router: meta only)"), False, 1)


def _with_ports(g: ArrayGraph, radix: int, endpoints: np.ndarray | int) -> ArrayGraph:
    """``g`` with ``meta["radix"]`` and ``meta["endpoints"]`` (per router) set."""
    g.meta["radix"] = int(radix)
    g.meta["endpoints"] = np.broadcast_to(np.asarray(endpoints, dtype=np.int64), (g.n,)).copy()
    return g


def _path(s: int) -> ArrayGraph:
    """The path P_s on ``0..s-1`` (``i ~ i+1``), the factor of a mesh."""
    i = np.arange(s - 1, dtype=np.int64)
    return ArrayGraph(list(range(s)), np.stack([i, i + 1], axis=1), name="path", params={"n": s})


def _cartesian_power(factors: list[ArrayGraph], name: str, params: Any) -> ArrayGraph:
    """``F_1 □ (F_2 □ (... □ F_k))``, labels nested ``(i1, (i2, i3))``; one factor is that factor, renamed.

    ``params(j)`` gives the parameters of the product of ``factors[j:]`` (each nested product is a member of the
    family too). Vertex ``(i1, ..., ik)`` has index ``i1 n_2...n_k + ... + ik`` (the first factor most
    significant).
    """
    last = factors[-1]
    g = ArrayGraph(last.labels, last.edges, name=name, params=params(len(factors) - 1), meta=dict(last.meta))
    for j in range(len(factors) - 2, -1, -1):
        g = cartesian_product(factors[j], g, name=name, params=params(j))
    return g


# ---------------------------------------------------------------------------------------------
# hypercube and mesh: Cartesian products
# ---------------------------------------------------------------------------------------------
@family("hypercube", kind="product", summary="hypercube Q_n = K_2 x K_2 x ... (n times), 2^n routers",
        symbol="Q_n", reference="Seitz 1985",
        params={"n": Param(integer(1, 64, note="(dimension)")), "p": _ENDPOINTS},
        size=lambda n, p: Size.of(2**n, n * 2 ** (n - 1), 360, 1000, _SCIPY_BYTES),  # 352/link at n = 16, 18
        forms=ClosedForms("2**n", "n*2**(n - 1)", (("n", "2**n"),)))
def hypercube(n: int, p: int = 1) -> ArrayGraph:
    """The hypercube ``Q_n``: routers ``{0,1}^n``, two adjacent when they differ in one coordinate.

    Built as the Cartesian product ``K_2 □ Q_{n-1}`` (a :class:`~starlib.products.StarProduct` with identity
    bijections, like :func:`~starlib.networks.hyperx`), so the EDST constructions of the star-product paper read
    its factors.

    Parameters
    ----------
    n : int
        The dimension, ``1 <= n <= 64``.
    p : int
        Endpoints per router (default 1); recorded in ``meta``, the router graph does not depend on it.

    Returns
    -------
    StarProduct
        ``2^n`` vertices labelled by nested bits ``(b1, (b2, (... bn)))`` (index ``b1 2^(n-1) + ... + bn``),
        ``n 2^(n-1)`` edges, ``n``-regular, diameter ``n``; ``meta["radix"] = n + p``. ``Q_1`` is ``K_2`` (an
        :class:`~starlib.graphs.ArrayGraph`).

    Raises
    ------
    ValueError
        If ``n`` or ``p`` breaks its rule.

    Examples
    --------
    >>> g = hypercube(4)
    >>> g.n, g.m, g.degree_set(), g.diameter(), g.labels[5], g.meta["radix"]
    (16, 32, [4], 4, (0, (1, (0, 1))), 5)

    References
    ----------
    C. L. Seitz, "The Cosmic Cube", Commun. ACM 28(1), 22-33 (1985); Definition II-B.1 of Isham et al. (2025)
    (Cartesian product); docs/networks.md §11.2.
    """
    g = _cartesian_power([complete(2) for _ in range(n)], "hypercube", lambda j: {"n": n - j, "p": p})
    return _with_ports(g, n + p, p)


def _mesh_counts(sizes: Sequence[int]) -> tuple[int, int]:
    """``(n, m)`` of the mesh: ``prod s_i`` routers and ``sum_i (s_i - 1) prod_{j != i} s_j`` links.

    >>> _mesh_counts([4, 5])
    (20, 31)
    """
    n = math.prod(sizes)
    return n, sum(n // s * (s - 1) for s in sizes)


def mesh_degrees(sizes: str | Sequence[int]) -> dict[int, int]:
    """The degrees of the mesh ``P_{s1} □ P_{s2} □ ...`` and how many routers have each, from the sizes alone.

    A router has, in dimension ``i``, one neighbour at either end of the path (``s_i = 2``: at both of its two
    positions) and two at the ``s_i - 2`` inner positions; its degree is the sum over the dimensions, so the
    degree counts are the product of the polynomials ``2 x + (s_i - 2) x^2``.

    Parameters
    ----------
    sizes : str or sequence of int
        Path lengths, each ``>= 2`` (``"4,4"`` or ``[4, 4]``).

    Returns
    -------
    dict
        degree -> number of routers, by increasing degree (no zero counts).

    Raises
    ------
    ValueError
        If a size is not an integer ``>= 2``.

    Examples
    --------
    >>> mesh_degrees("4,5")           # 4 corners, 2*(2 + 3) = 10 border routers, 2 * 3 = 6 inner ones
    {2: 4, 3: 10, 4: 6}
    """
    sizes = mesh.family.checked({"sizes": sizes})["sizes"]
    counts = np.ones(1, dtype=object)  # counts[d] = routers of degree d (Python integers: no overflow)
    for s in sizes:
        counts = np.convolve(counts, np.array([0, 2, s - 2], dtype=object))
    return {d: int(c) for d, c in enumerate(counts.tolist()) if c}


@family("mesh", kind="product", summary="mesh P_{s1} x P_{s2} x ... (the torus without wrap-around)",
        reference="Dally-Towles 2004", params={"sizes": Param(integers(2, note=", e.g. 4,4")), "p": _ENDPOINTS},
        size=lambda sizes, p: Size.of(*_mesh_counts(sizes), 150, 400, _SCIPY_BYTES))  # 229-276 per link
def mesh(sizes: str | Sequence[int], p: int = 1) -> ArrayGraph:
    """The mesh (grid) ``P_{s1} □ P_{s2} □ ...``: the torus of :func:`~starlib.networks.torus` without its
    wrap-around links.

    Built as nested Cartesian products of paths (a :class:`~starlib.products.StarProduct` with identity
    bijections). Its closed forms are functions of a list (:func:`mesh_degrees`): ``prod s_i`` routers,
    ``sum_i (s_i - 1) prod_{j != i} s_j`` links.

    Parameters
    ----------
    sizes : str or sequence of int
        Path lengths, each ``>= 2`` (``"4,4,4"`` or ``[4, 4, 4]``); ``2,2,...,2`` (n times) is the hypercube.
    p : int
        Endpoints per router (default 1); recorded in ``meta``.

    Returns
    -------
    StarProduct
        Labels nested ``(i1, (i2, i3))``, index ``i1 s2 s3 + i2 s3 + i3``; diameter ``sum (s_i - 1)``;
        ``meta["radix"]`` is the largest degree plus ``p``. A single size gives the path (an ``ArrayGraph``).

    Raises
    ------
    ValueError
        If a size is not an integer ``>= 2``.

    Examples
    --------
    >>> g = mesh("4,5")
    >>> g.n, g.m, g.degree_set(), g.diameter(), g.meta["radix"]
    (20, 31, [2, 3, 4], 7, 5)

    References
    ----------
    W. J. Dally and B. Towles, *Principles and Practices of Interconnection Networks* (Morgan Kaufmann, 2004),
    ch. 5 (k-ary n-meshes); Definition II-B.1 of Isham et al. (2025); docs/networks.md §11.2.
    """
    g = _cartesian_power([_path(s) for s in sizes], "mesh", lambda j: {"sizes": ",".join(map(str, sizes[j:])), "p": p})
    return _with_ports(g, sum(min(2, s - 1) for s in sizes) + p, p)


# ---------------------------------------------------------------------------------------------
# fat tree: the k-ary n-tree of Petrini and Vanneschi
# ---------------------------------------------------------------------------------------------
@family("fat-tree", summary="fat tree: the k-ary n-tree's switches (radix 2k, n levels, k^n endpoints)",
        symbol="k-ary n-tree", reference="Petrini-Vanneschi 1997",
        params={"k": Param(integer(2, note="(down and up ports per switch; radix 2k)")),
                "n": Param(integer(2, 64, note="(levels)"))},
        size=lambda k, n: Size.of(n * k ** (n - 1), (n - 1) * k**n, 100, 300, _SMALL_BYTES),  # 48-54 per link
        forms=ClosedForms("n*k**(n - 1)", "(n - 1)*k**n", (("k", "2*k**(n - 1)"), ("2*k", "(n - 2)*k**(n - 1)"))))
def fat_tree(k: int, n: int) -> ArrayGraph:
    """The router graph of the k-ary n-tree: ``n k^(n-1)`` switches of radix ``2k`` serving ``k^n`` endpoints.

    Switch ``<w, l>`` has a level ``l`` in ``0..n-1`` (0 the roots, ``n-1`` the leaves) and a word
    ``w = w_0 ... w_{n-2}`` of digits ``0..k-1``; ``<w, l>`` and ``<w', l+1>`` are linked iff ``w_i = w'_i``
    for every ``i != l``. Leaf ``<w, n-1>`` serves the ``k`` endpoints ``P(w_0, ..., w_{n-2}, c)``. Each switch
    has ``k`` links up (none at the roots) and ``k`` down (endpoints at the leaves).

    Parameters
    ----------
    k : int
        Ports down (and up) per switch, ``k >= 2``: the radix is ``2k``.
    n : int
        Levels, ``2 <= n <= 64`` (``n = 2`` is a leaf-spine network, ``K_{k,k}``).

    Returns
    -------
    ArrayGraph
        Vertex ``l k^(n-1) + sum_i w_i k^i`` labelled ``(l, (w_0, ..., w_{n-2}))``; ``(n-1) k^n`` edges;
        ``2 k^(n-1)`` switches of degree ``k`` (roots and leaves) and ``(n-2) k^(n-1)`` of degree ``2k``;
        diameter ``2(n-1)``, also between leaves. ``meta["radix"] = 2k``, ``meta["endpoints"]`` is ``k`` at
        the leaves and 0 elsewhere (``k^n`` in all).

    Raises
    ------
    ValueError
        If ``k`` or ``n`` breaks its rule.

    Examples
    --------
    >>> g = fat_tree(2, 3)
    >>> g.n, g.m, g.degree_set(), g.diameter(), g.labels[9], int(g.meta["endpoints"].sum())
    (12, 16, [2, 4], 4, (2, (1, 0)), 8)

    References
    ----------
    F. Petrini and M. Vanneschi, "k-ary n-trees: high performance networks for massively parallel
    architectures", Proc. 11th IPPS (1997), pp. 87-93, DOI 10.1109/IPPS.1997.580853; C. E. Leiserson,
    "Fat-trees", IEEE Trans. Computers C-34(10) (1985), DOI 10.1109/TC.1985.6312192; docs/networks.md §11.3.
    """
    K = k ** (n - 1)
    w = np.arange(K, dtype=np.int64)
    c = np.arange(k, dtype=np.int64)
    parts = []
    for level in range(n - 1):  # one array operation per level: each switch to its k parents' children
        step = k**level
        base = w - (w // step) % k * step  # w with digit `level` set to 0
        up = level * K + np.repeat(w, k)
        down = (level + 1) * K + (base[:, None] + c[None, :] * step).ravel()
        parts.append(np.stack([up, down], axis=1))
    edges = np.concatenate(parts)  # rows already canonical: sorted by the upper switch, then the lower one
    digits = (w[:, None] // k ** np.arange(n - 1, dtype=np.int64)[None, :]) % k
    words = list(map(tuple, digits.tolist()))
    labels = [(level, word) for level in range(n) for word in words]
    g = ArrayGraph(labels, edges, name="fat-tree", params={"k": k, "n": n})
    return _with_ports(g, 2 * k, np.repeat(np.array([0, k], dtype=np.int64), [(n - 1) * K, K]))


# ---------------------------------------------------------------------------------------------
# Dragonfly
# ---------------------------------------------------------------------------------------------
def dragonfly_ports(a: int, h: int, arrangement: str = "absolute") -> tuple[np.ndarray, np.ndarray]:
    """Where each global port of a Dragonfly leads: ``(group, port)`` at the other end, for every group and port.

    The ``g = a h + 1`` groups are ``0..g-1``; the global ports of a group are ``0..a h - 1``, router ``r`` of
    the group holding ports ``r h .. r h + h - 1``. Port ``k`` of group ``i`` leads to group ``t`` and arrives
    there at port ``k'`` (Hastings et al. 2015, section II):

    * ``absolute``: ``t = k`` if ``k < i``, else ``k + 1``; ``k' = i - 1`` if ``k < i``, else ``i``;
    * ``relative``: ``t = i + k + 1 (mod g)``; ``k' = g - 2 - k``;
    * ``circulant``: ``t = i + j + 1 (mod g)`` and ``k' = k + 1`` for an even port ``k = 2j``,
      ``t = i - j - 1 (mod g)`` and ``k' = k - 1`` for an odd port ``k = 2j + 1`` (needs ``a h`` even).

    Each is an involution on the ports (``(t, k')`` leads back to ``(i, k)``) with one link between every two
    groups.

    Parameters
    ----------
    a, h : int
        Routers per group and global ports per router.
    arrangement : {"absolute", "relative", "circulant"}

    Returns
    -------
    (ndarray, ndarray)
        ``groups[i, k]`` and ``ports[i, k]``, int64 arrays of shape ``(g, a h)``.

    Raises
    ------
    ValueError
        If a parameter breaks the rules of :func:`dragonfly` (as there), or the network would exceed the memory
        limit in force.

    Examples
    --------
    >>> t, back = dragonfly_ports(1, 4, "circulant")
    >>> t[0].tolist(), back[0].tolist()
    ([1, 4, 2, 3], [1, 0, 3, 2])
    """
    given = {"a": a, "p": 1, "h": h, "arrangement": arrangement}
    dragonfly.family.check_size(given)  # the ports take about what the graph takes: refused over the memory limit
    params = dragonfly.family.checked(given)
    a, h, arrangement = params["a"], params["h"], params["arrangement"]
    g = a * h + 1
    i = np.arange(g, dtype=np.int64)[:, None]
    k = np.arange(a * h, dtype=np.int64)[None, :]
    if arrangement == "absolute":
        below = k < i
        t = np.where(below, k, k + 1)
        back = np.where(below, i - 1, i)
    elif arrangement == "relative":
        t = (i + k + 1) % g
        back = np.broadcast_to(g - 2 - k, t.shape)
    else:
        j = k // 2
        even = k % 2 == 0
        t = np.where(even, i + j + 1, i - j - 1) % g
        back = np.broadcast_to(np.where(even, k + 1, k - 1), t.shape)
    return np.ascontiguousarray(t), np.ascontiguousarray(back)


def _dragonfly_check(params: dict[str, Any]) -> dict[str, Any]:
    """The circulant arrangement pairs a group's global ports: it needs ``a h`` even."""
    a, h, arrangement = params["a"], params["h"], params["arrangement"]
    if arrangement == "circulant" and a * h % 2:
        raise ValueError(f"a={a}, h={h}: a*h = {a * h} is odd: arrangement='circulant' pairs the a*h global ports "
                         f"of a group (port 2j to group i+j+1, port 2j+1 to group i-j-1), so it needs a*h even")
    return params


def _dragonfly_counts(a: int, h: int) -> tuple[int, int]:
    """``(n, m)``: ``a g`` routers, ``g a (a-1)/2`` local and ``g (g-1)/2`` global links, ``g = a h + 1``.

    >>> _dragonfly_counts(4, 2)
    (36, 90)
    """
    g = a * h + 1
    return a * g, g * a * (a - 1) // 2 + g * (g - 1) // 2


@family("dragonfly", summary="Dragonfly: a h + 1 groups of a routers (K_a), one global link per two groups",
        reference="Kim et al. 2008", check=_dragonfly_check,
        params={"a": Param(integer(1, note="(routers per group)")),
                "p": Param(integer(1, note="(endpoints per router: meta only)")),
                "h": Param(integer(1, note="(global links per router)")),
                "arrangement": Param(choice(*ARRANGEMENTS, note="global links; circulant needs a*h even"), False,
                                     "absolute")},
        size=lambda a, p, h, arrangement: Size.of(*_dragonfly_counts(a, h), 200, 300, _SMALL_BYTES),  # 105-110/link
        forms=ClosedForms("a*(a*h + 1)", "a*(a*h + 1)*(a - 1 + h)/2", (("a - 1 + h", "a*(a*h + 1)"),)))
def dragonfly(a: int, p: int, h: int, arrangement: str = "absolute") -> ArrayGraph:
    """The Dragonfly's router graph with the canonical full-group connection: ``g = a h + 1`` groups.

    Each group is ``a`` routers linked all to all (``K_a``); each router has ``h`` global links, and the ``a h``
    global ports of a group reach the ``a h`` other groups, one link between every two groups, wired by the
    ``arrangement`` (:func:`dragonfly_ports`). Router ``r`` of group ``i`` is vertex ``i a + r``.

    Parameters
    ----------
    a : int
        Routers per group, ``a >= 1``.
    p : int
        Endpoints per router, ``p >= 1`` (recorded in ``meta``; Kim et al. balance ``a = 2p = 2h``).
    h : int
        Global links per router, ``h >= 1``.
    arrangement : {"absolute", "relative", "circulant"}
        The global-link arrangement of Hastings et al. (2015); ``circulant`` needs ``a h`` even.

    Returns
    -------
    ArrayGraph
        ``a (a h + 1)`` vertices labelled ``(group, router)``, ``(a - 1 + h)``-regular,
        ``(a h + 1) a (a - 1 + h) / 2`` edges; diameter at most 3, exactly 3 when ``a >= h + 2`` (then some
        router has no link to a group and no neighbour linked to a given router of it); ``meta["radix"]`` is
        ``a - 1 + h + p``.

    Raises
    ------
    ValueError
        If a parameter breaks its rule, or ``arrangement="circulant"`` with ``a h`` odd.

    Examples
    --------
    >>> g = dragonfly(2, 1, 2, "circulant")        # Petersen's graph: 5 groups of 2, diameter 2
    >>> g.n, g.m, g.degree_set(), g.diameter()
    (10, 15, [3], 2)

    References
    ----------
    J. Kim, W. J. Dally, S. Scott and D. Abts, "Technology-driven, highly-scalable Dragonfly topology", ISCA 2008,
    pp. 77-88, DOI 10.1109/ISCA.2008.19 (section 3.1: a, p, h, g <= a h + 1); E. Hastings, D. Rincon-Cruz,
    M. Spehlmann, S. Meyers, A. Xu, D. P. Bunde and V. J. Leung, "Comparing global link arrangements for Dragonfly
    networks", IEEE Cluster 2015 (the absolute, relative and circulant-based arrangements); docs/networks.md §11.4.
    """
    g = a * h + 1
    u, v = np.triu_indices(a, 1)
    first = np.arange(g, dtype=np.int64)[:, None] * a
    local = np.stack([(first + u).ravel(), (first + v).ravel()], axis=1)
    t, back = dragonfly_ports(a, h, arrangement)
    i = np.broadcast_to(np.arange(g, dtype=np.int64)[:, None], t.shape)
    k = np.broadcast_to(np.arange(a * h, dtype=np.int64)[None, :], t.shape)
    ours = i < t  # each global link once, from its lower group
    glob = np.stack([i[ours] * a + k[ours] // h, t[ours] * a + back[ours] // h], axis=1)
    edges = canonical_edges(np.concatenate([local, glob]), a * g)
    labels = [(x, r) for x in range(g) for r in range(a)]
    out = ArrayGraph(labels, edges, name="dragonfly", params={"a": a, "p": p, "h": h, "arrangement": arrangement})
    return _with_ports(out, a - 1 + h + p, p)


# ---------------------------------------------------------------------------------------------
# Jellyfish: a random regular graph from a seed
# ---------------------------------------------------------------------------------------------
#: Repair rounds of one pairing before Jellyfish draws a new one (a round rewires most bad pairs; a few rounds
#: suffice), and the pairings it draws before it gives up (never reached in the tests).
_ROUNDS, _PAIRINGS = 200, 20


def _uniform(bits: Any, size: int, bound: int) -> np.ndarray:
    """``size`` integers in ``0..bound-1`` from the raw 64-bit words of ``bits`` (integer operations only)."""
    return (bits.random_raw(size) % np.uint64(bound)).astype(np.int64)


def _rewire(e: np.ndarray, n: int, bits: Any) -> bool:
    """Rewire the pairs ``e`` (in place) into a simple graph with the same degrees; False if it did not converge.

    A round finds the bad pairs (loops, and every copy of a pair after its first) and gives each a random partner
    pair ``{x, y}``: ``{u, v}, {x, y}`` become ``{u, x}, {v, y}`` (or ``{u, y}, {v, x}``, by a random bit) when
    the partner is good and taken by no other bad pair, and the two new pairs are no loops and present nowhere
    (in the graph or among the round's other new pairs). Degrees never change, and every accepted switch
    removes one bad pair without making another.
    """
    m = e.shape[0]
    for _ in range(_ROUNDS):
        e.sort(axis=1)
        keys = e[:, 0] * n + e[:, 1]
        order = np.argsort(keys, kind="stable")
        sk = keys[order]
        bad = e[:, 0] == e[:, 1]
        bad[order[1:]] |= sk[1:] == sk[:-1]
        B = np.flatnonzero(bad)
        if B.size == 0:
            return True
        J = _uniform(bits, B.size, m)
        flip = _uniform(bits, B.size, 2).astype(bool)
        x = np.where(flip, e[J, 1], e[J, 0])
        y = np.where(flip, e[J, 0], e[J, 1])
        u, v = e[B, 0], e[B, 1]
        k1 = np.minimum(u, x) * n + np.maximum(u, x)
        k2 = np.minimum(v, y) * n + np.maximum(v, y)
        ok = ~bad[J] & (u != x) & (v != y) & (k1 != k2)
        for kk in (k1, k2):  # not in the graph
            pos = np.minimum(np.searchsorted(sk, kk), m - 1)
            ok &= sk[pos] != kk
        first = np.zeros(B.size, dtype=bool)  # one bad pair per partner
        first[np.unique(J, return_index=True)[1]] = True
        ok &= first
        new = np.concatenate([k1[ok], k2[ok]])  # no two new pairs alike
        srt = np.sort(new)
        dup = srt[np.flatnonzero(srt[1:] == srt[:-1])]
        ok[np.flatnonzero(ok)[np.isin(k1[ok], dup) | np.isin(k2[ok], dup)]] = False
        e[B[ok]] = np.stack([u[ok], x[ok]], axis=1)
        e[J[ok]] = np.stack([v[ok], y[ok]], axis=1)
    return False


def _connect(e: np.ndarray, n: int) -> None:
    """Join the components of the r-regular simple graph ``e`` (r >= 2) into one, in place, degrees kept.

    Components are taken in the order of their smallest vertex. Each one ``C`` after the first has an edge
    ``{c, d}`` outside the breadth-first tree from its smallest vertex (``r >= 2``: more edges than a tree), so on
    a cycle; with ``{x, y}`` the edge added last to the joined part (at first its first edge), the two become
    ``{x, c}, {y, d}``. Removing ``{c, d}`` leaves ``C`` connected and removing ``{x, y}`` at most splits the
    joined part in two pieces, one holding ``x`` and one ``y``: the new edges join all of them, and cross between
    parts, so they are new.
    """
    from scipy.sparse import coo_matrix, csgraph  # scipy only for the builds that need it

    both = np.concatenate([e, e[:, ::-1]])
    A = coo_matrix((np.ones(both.shape[0], dtype=np.int8), (both[:, 0], both[:, 1])), shape=(n, n)).tocsr()
    A.sort_indices()
    count, labels = csgraph.connected_components(A, directed=False)
    if count == 1:
        return
    starts = np.sort(np.unique(labels, return_index=True)[1])  # the smallest vertex of each component
    pred = np.full(n, -1, dtype=np.int64)
    for s in starts[1:].tolist():  # one search per component but the first (a few; about log n when r = 2)
        _, p = csgraph.breadth_first_order(A, s, directed=False, return_predecessors=True)
        inside = labels == labels[s]
        pred[inside] = p[inside]
    tree = (pred[e[:, 0]] == e[:, 1]) | (pred[e[:, 1]] == e[:, 0])
    comp = labels[e[:, 0]]
    any_edge = np.unique(comp, return_index=True)[1]  # by component label: its first edge
    off = np.flatnonzero(~tree)
    cycle_edge = dict(zip(comp[off].tolist(), off.tolist(), strict=False))  # the last one off the tree: any will do
    last = int(any_edge[labels[starts[0]]])
    for s in starts[1:].tolist():
        j = cycle_edge[int(labels[s])]
        (x, y), (c, d) = e[last].tolist(), e[j].tolist()
        e[last] = (x, c)
        e[j] = (y, d)
        last = j


def _random_regular(n: int, r: int, bits: Any, connected: bool) -> np.ndarray:
    """A simple r-regular graph on ``0..n-1`` (connected if asked, r >= 2): pairs of ``n r`` stubs in a random
    order (the configuration model), rewired into a simple graph, the components then joined."""
    if r == 0:
        return np.zeros((0, 2), dtype=np.int64)
    stubs = np.repeat(np.arange(n, dtype=np.int64), r)
    for _ in range(_PAIRINGS):
        e = stubs[np.argsort(bits.random_raw(stubs.size), kind="stable")].reshape(-1, 2)
        if _rewire(e, n, bits):
            if connected:
                _connect(e, n)
            return e
    raise RuntimeError(f"n={n}, r={r}: no simple pairing after {_PAIRINGS} tries")  # pragma: no cover


def _jellyfish_check(params: dict[str, Any]) -> dict[str, Any]:
    """An r-regular graph on n vertices exists iff ``r < n`` and ``n r`` is even."""
    n, r = params["n"], params["r"]
    if r >= n:
        raise ValueError(f"r={r} is too large: an r-regular simple graph on n={n} switches needs r < n")
    if n * r % 2:
        raise ValueError(f"r={r}, n={n}: n*r = {n * r} is odd: an r-regular graph has n*r/2 links, so n*r must be "
                         f"even")
    return params


def _jellyfish_size(n: int, r: int, p: int, seed: int) -> Size:
    """Sparse members: 119-130 bytes per link past scipy's import (stubs, keys, the rewiring rounds); dense ones
    (``2r > n - 1``) hold the ``n(n-1)/2`` pairs of the complement: 75-98 bytes per link in all."""
    pairs = n * (n - 1) // 2 if 2 * r > n - 1 else 0
    return Size(n, n * r // 2, 250 * (n * r // 2) + 300 * n + 64 * pairs + _SCIPY_BYTES)


@family("jellyfish", summary="Jellyfish: a random connected r-regular graph on n switches, from a seed",
        reference="Singla et al. 2012", check=_jellyfish_check,
        params={"n": Param(integer(3, note="(switches)")),
                "r": Param(integer(2, note="(links per switch, r < n, n*r even)")),
                "p": _ENDPOINTS,
                "seed": Param(integer(0, note="(random seed: the same graph on every machine)"), False, 0)},
        size=_jellyfish_size, forms=ClosedForms("n", "n*r/2", (("r", "n"),)))
def jellyfish(n: int, r: int, p: int = 1, seed: int = 0) -> ArrayGraph:
    """Jellyfish: a random connected ``r``-regular graph on ``n`` switches, the same for the same seed everywhere.

    Sparse members (``2r <= n - 1``) come from the configuration model: the ``n r`` port stubs in a random order,
    paired; loops and repeated pairs rewired by random switches of two pairs (degrees kept); then the components
    joined by switching an edge on a cycle of each with an edge of the rest, which keeps every degree and makes
    the graph connected. Dense members are the complement of a sparse random ``(n - 1 - r)``-regular graph
    (degree above ``(n-1)/2`` makes any graph connected). The random numbers are the raw 64-bit words of
    ``numpy.random.default_rng(seed)`` (PCG64, whose stream numpy keeps from version to version), used only
    through integer operations (sort keys, remainders), so the graph depends on nothing but ``(n, r, seed)``.

    Singla et al. build the graph by adding random links and, when stuck, breaking one (section 3); that gives
    another random regular graph, not the same one: this family is a seeded random regular graph in their
    sense, not their generator's output.

    Parameters
    ----------
    n : int
        Switches, ``n >= 3``.
    r : int
        Links per switch (network ports), ``2 <= r < n``, ``n r`` even (``r = 1`` is a matching, never
        connected).
    p : int
        Endpoints (servers) per switch (default 1), recorded in ``meta``; Singla et al.'s ``k = r + p`` ports.
    seed : int
        Random seed, ``>= 0``.

    Returns
    -------
    ArrayGraph
        Vertices ``0..n-1``, ``n r / 2`` edges, ``r``-regular, connected; ``meta["radix"] = r + p``,
        ``meta["seed"] = seed``.

    Raises
    ------
    ValueError
        If ``r >= n``, ``n r`` is odd, or a parameter breaks its rule.

    Examples
    --------
    >>> g = jellyfish(20, 3, seed=7)
    >>> g.n, g.m, g.degree_set(), g.is_connected()
    (20, 30, [3], True)
    >>> bool((jellyfish(20, 3, seed=7).edges == g.edges).all())
    True

    References
    ----------
    A. Singla, C.-Y. Hong, L. Popa and P. B. Godfrey, "Jellyfish: networking data centers randomly", NSDI 2012,
    pp. 225-238; B. Bollobás, "A probabilistic proof of an asymptotic formula for the number of labelled regular
    graphs", European J. Combin. 1 (1980) (the configuration model); docs/networks.md §11.5.
    """
    bits = np.random.default_rng(seed).bit_generator
    if 2 * r <= n - 1:
        edges = canonical_edges(_random_regular(n, r, bits, connected=True), n)
    else:  # the complement of a sparse random regular graph
        other = canonical_edges(_random_regular(n, n - 1 - r, bits, connected=False), n)
        u, v = np.triu_indices(n, 1)
        keys = u.astype(np.int64) * n + v
        del u, v
        keys = keys[~np.isin(keys, other[:, 0] * n + other[:, 1], assume_unique=True)]
        edges = np.stack([keys // n, keys % n], axis=1)
    g = ArrayGraph(list(range(n)), edges, name="jellyfish", params={"n": n, "r": r, "p": p, "seed": seed},
                   meta={"seed": seed})
    return _with_ports(g, r + p, p)
