"""Factor graphs of the star-product networks: structure graphs and supernodes.

Each family is a function returning an :class:`~starlib.graphs.ArrayGraph` built from whole
numpy arrays (vertex ``i`` carries the meaningful label ``labels[i]``), plus a ``*_graph``
wrapper returning ``nx.Graph``. Field-based families label vertices by galois integer codes
(:mod:`starlib.fields`). Families that serve as supernodes carry their canonical bijection in
``meta["bijection"]`` (Paley: ``x -> xi x``; IQ/BDF: the involution).

Families (paper: "Edge-Disjoint Spanning Trees on Star Products", Table V and Appendices B, C;
docs/networks.md):

=====================  ==========================================  ================
function               graph                                       n
=====================  ==========================================  ================
``complete(n)``        K_n                                         n
``complete_bipartite`` K_{n,n}                                     2n
``paley(q)``           QR(q), q = 1 mod 4                          q
``mms_supernode(q)``   C(X) / C(X') of MMS(q) (Slim Fly)           q
``polarfly(q)``        ER_q, the Erdős–Rényi polarity graph        q^2+q+1
``inductive_quad(d)``  IQ(d), d = 0 or 3 mod 4                     2d+2
``bdf(d)``             the "bdf" supernode of the PolarStar code   2d+2
``chimera(R, C)``      Chimera C_{RxC} (D-Wave), optional torus    8RC
=====================  ==========================================  ================

Example
-------
>>> g = paley(13)
>>> g.n, g.m, g.degree_set(), g.diameter()
(13, 39, [6], 2)
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np

from .family import ClosedForms, Param, family, flag, integer, prime_power
from .fields import tables
from .graphs import ArrayGraph
from .memory import Size
from .primes import check_prime_power, prime_power_parts
from .validation import check_int

if TYPE_CHECKING:  # networkx only at the boundary (polarfly_graph), imported there
    import networkx as nx

__all__ = [
    "PALEY_ORDER",
    "MMS_ORDER",
    "RSTAR_DEGREE",
    "mms_delta",
    "FIELD_BASE_BYTES",
    "field_edge_bytes",
    "chimera_counts",
    "complete",
    "complete_bipartite",
    "cycle",
    "paley",
    "mms_generators",
    "mms_supernode",
    "polarfly",
    "polarfly_points",
    "inductive_quad",
    "bdf",
    "chimera",
    "polarfly_graph",
]


# ---------------------------------------------------------------------------------------------
# the parameter rules of the field-based and R* families (the builders, the networks and Table V read them)
# ---------------------------------------------------------------------------------------------
#: The order of a Paley graph: a prime power ``= 1 (mod 4)`` (so that -1 is a square and QR(q) is undirected).
PALEY_ORDER = prime_power(residues=(4, (1,)), needs="the Paley graph QR({name}) needs")
#: The order of an MMS graph: a prime power ``q = 4w + delta >= 3``, ``delta`` in {-1, 0, 1}.
MMS_ORDER = prime_power(3, residues=(4, (0, 1, 3)), needs="MMS({name}) needs")
#: The degree of an R* supernode (IQ, BDF) on ``2d + 2`` vertices: ``d >= 3``, ``d = 0 or 3 (mod 4)``.
RSTAR_DEGREE = integer(3, residues=(4, (0, 3)), needs="an R* supernode of order 2{name}+2 needs")


def mms_delta(q: int) -> int:
    """The ``delta`` of ``q = 4w + delta`` (1, 0 or -1) for an MMS order ``q``.

    >>> [mms_delta(x) for x in (3, 4, 5, 7, 8, 9)]
    [-1, 0, 1, -1, 0, 1]
    >>> mms_delta(2)
    Traceback (most recent call last):
    ...
    ValueError: q=2 is too small: MMS(q) needs a prime power q >= 3, q != 2 (mod 4)
    """
    return {0: 0, 1: 1, 3: -1}[MMS_ORDER(q, "q") % 4]


# ---------------------------------------------------------------------------------------------
# sizes: every family's size model (read by the memory guard before anything is built)
# ---------------------------------------------------------------------------------------------
#: Resident memory a field-based builder adds on first use beyond the process baseline
#: (:data:`starlib.memory.BASELINE_BYTES`, which counts the galois import: a build over GF(27) peaks at 204 MiB in
#: a fresh ``starlib`` process, the factor graphs' 107 MiB plus galois): its field tables and the allocator's arenas.
FIELD_BASE_BYTES = 16 * 2**20


def field_edge_bytes(q: int) -> int:
    """Peak bytes per edge of a Cayley graph on GF(q): 160 plus 16 per digit of an extension field's elements.

    Measured (``tracemalloc`` and resident set): QR(1009) 146, QR(7^4) 144, QR(5^5) 176 bytes per edge. Every
    size model is a linear model ``a m + b n (+ FIELD_BASE_BYTES)`` whose coefficients bound the peak
    ``tracemalloc`` and resident-set growth measured on builds of 10^5 to 2.4 * 10^6 edges in a fresh
    interpreter (the measured bytes per edge are given beside each model).

    >>> field_edge_bytes(1009), field_edge_bytes(7**4)
    (176, 224)
    """
    parts = prime_power_parts(q) if q < 10**12 else None
    return 160 + 16 * (parts[1] if parts else 1)


def chimera_counts(rows: int, cols: int, toric: Any = False) -> tuple[int, int]:
    """``(n, m)`` of the Chimera graph of ``rows x cols`` cells: ``8 rc`` vertices; ``16`` edges per ``K_{4,4}`` cell
    and ``4`` couplers between neighbouring cells, ``16rc + 4(r-1)c + 4r(c-1)``, or ``24 rc`` when toric.

    >>> chimera_counts(3, 3), chimera_counts(4, 6), chimera_counts(4, 4, toric=True)
    ((72, 192), (192, 536), (128, 384))
    """
    r, c = rows, cols
    wrap = toric is True or toric == 1
    return 8 * r * c, 24 * r * c if wrap else 16 * r * c + 4 * (r - 1) * c + 4 * r * (c - 1)


# ---------------------------------------------------------------------------------------------
# complete graphs
# ---------------------------------------------------------------------------------------------
@family("complete", kind="factor", summary="complete graph K_n", symbol="K_n", reference="App. B-B4",
        params={"n": Param(integer(2))},
        size=lambda n: Size.of(n, n * (n - 1) // 2, 64, 100),  # measured 48 per edge
        forms=ClosedForms("n", "n*(n - 1)/2", (("n - 1", "n"),)))
def complete(n: int) -> ArrayGraph:
    """The complete graph K_n on vertices ``0..n-1``.

    Parameters
    ----------
    n : int
        Number of vertices, ``n >= 2``.

    Returns
    -------
    ArrayGraph
        ``n(n-1)/2`` edges, (n-1)-regular.

    Raises
    ------
    ValueError
        If ``n`` is not an integer or ``n < 2`` (K_1 has no spanning tree to pack).

    Examples
    --------
    >>> complete(5).m
    10

    References
    ----------
    Table V row K_n; Example II-D.5 (structure graph of K_n * QR(q)).
    """
    u, v = np.triu_indices(n, 1)
    edges = np.stack([u, v], axis=1).astype(np.int64)
    return ArrayGraph(list(range(n)), edges, name="complete", params={"n": n})


@family("complete-bipartite", kind="factor", summary="complete bipartite graph K_{n,n}", symbol="K_{q,q}",
        reference="App. B-B2", params={"n": Param(integer(1), symbol="q")},
        size=lambda n: Size.of(2 * n, n * n, 64, 200),  # measured 48 per edge
        forms=ClosedForms("2*n", "n**2", (("n", "2*n"),)))
def complete_bipartite(n: int) -> ArrayGraph:
    """The complete bipartite graph K_{n,n}; labels ``(side, i)``, side 0 first.

    Parameters
    ----------
    n : int
        Size of each side, ``n >= 1``.

    Returns
    -------
    ArrayGraph
        ``2n`` vertices, ``n^2`` edges; vertex ``(0, i)`` has index ``i``, ``(1, j)`` index ``n + j``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.

    Examples
    --------
    >>> g = complete_bipartite(3)
    >>> g.n, g.m, g.labels[4]
    (6, 9, (1, 1))

    References
    ----------
    Table V row K_{q,q}: the structure graph of MMS(q) = K_{q,q} * C(X) (docs/networks.md §3.3).
    """
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    edges = np.stack([i.ravel(), n + j.ravel()], axis=1).astype(np.int64)
    labels = [(0, a) for a in range(n)] + [(1, a) for a in range(n)]
    return ArrayGraph(labels, edges, name="complete-bipartite", params={"n": n})


@family("cycle", kind="factor", summary="cycle C_n", params={"n": Param(integer(3))},
        size=lambda n: Size.of(n, n, 150, 250))  # measured 300 per vertex (edge and vertex) at n = 10^6
def cycle(n: int) -> ArrayGraph:
    """The cycle C_n on vertices ``0..n-1`` (``i ~ i+1 mod n``), the factor of a torus.

    Parameters
    ----------
    n : int
        Length, ``n >= 3``.

    Returns
    -------
    ArrayGraph
        2-regular, ``n`` edges.

    Raises
    ------
    ValueError
        If ``n`` is not an integer ``>= 3`` (shorter cycles are not simple graphs).

    Examples
    --------
    >>> cycle(5).edges.tolist()[:2], cycle(5).m
    ([[0, 1], [0, 4]], 5)
    """
    i = np.arange(n, dtype=np.int64)
    return ArrayGraph.from_edges(list(range(n)), np.stack([i, (i + 1) % n], axis=1), name="cycle",
                                 params={"n": n})


# ---------------------------------------------------------------------------------------------
# Cayley graphs over GF(q): Paley and the MMS supernodes
# ---------------------------------------------------------------------------------------------
def _cayley_gf(q: int, connection: np.ndarray, name: str, params: dict, meta: dict) -> ArrayGraph:
    """Cay(GF(q), S) for a symmetric set S (``x ~ x + s``), vectorised."""
    T = tables(q)
    x = T.elements()
    y = T.add(x[:, None], connection[None, :])
    edges = np.stack([np.broadcast_to(x[:, None], y.shape).ravel(), y.ravel()], axis=1)
    return ArrayGraph.from_edges(list(range(q)), edges, name=name, params=params, meta=meta)


@family("paley", kind="factor", summary="Paley graph QR(q)", symbol="QR(q')", reference="App. B-B1", diameter=2,
        params={"q": Param(PALEY_ORDER, symbol="q'")},
        size=lambda q: Size.of(q, q * (q - 1) // 4, field_edge_bytes(q), 100, FIELD_BASE_BYTES),
        forms=ClosedForms("q", "q*(q - 1)/4", (("(q - 1)/2", "q"),)))
def paley(q: int) -> ArrayGraph:
    """The Paley graph QR(q): ``u ~ v`` iff ``v - u`` is a non-zero square of GF(q).

    Parameters
    ----------
    q : int
        A prime power with ``q = 1 (mod 4)`` (so that -1 is a square and the graph is undirected).

    Returns
    -------
    ArrayGraph
        Vertices are the field elements (galois integer codes ``0..q-1``); ``(q-1)/2``-regular,
        ``q(q-1)/4`` edges, diameter 2. ``meta["bijection"]`` is ``x -> xi x`` (multiplication
        by the primitive element, a non-square), which maps QR(q) onto its complement
        (property R1); ``meta["xi"]`` and ``meta["connection_set"]`` are recorded too.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power or ``q != 1 (mod 4)``.

    Examples
    --------
    >>> g = paley(5)          # the 5-cycle
    >>> g.m, g.degree_set()
    (5, [2])

    References
    ----------
    docs/networks.md §2; Table V row QR(q'); PolarStar (arXiv:2302.07217) supernode with property R1.
    """
    T = tables(q)
    squares = T.squares()
    meta = {
        "xi": T.xi,
        "connection_set": squares,
        "bijection": T.mul(T.xi, T.elements()),
    }
    return _cayley_gf(q, squares, "paley", {"q": q}, meta)


def mms_generators(q: int) -> tuple[int, np.ndarray, np.ndarray]:
    """The MMS generator sets ``X`` and ``X' = xi X`` of GF(q), and ``delta``.

    ``q = 4w + delta`` with ``delta`` in {-1, 0, 1}; exponents of ``xi`` (docs/networks.md §3.1):

    * ``delta = 1``: X = {xi^0, xi^2, ..., xi^(q-3)}, X' = {xi^1, xi^3, ..., xi^(q-2)};
    * ``delta = -1``: X = {xi^0, xi^2, ..., xi^(2w-2)} u {xi^(2w-1), xi^(2w+1), ..., xi^(4w-3)},
      X' = {xi^1, ..., xi^(2w-1)} u {xi^(2w), xi^(2w+2), ..., xi^(4w-2)};
    * ``delta = 0``: X = {xi^0, xi^2, ..., xi^(q-2)}, X' = {xi^1, xi^3, ..., xi^(q-1)}.

    Parameters
    ----------
    q : int
        A prime power ``q >= 3`` (``q = 2`` has no decomposition ``4w + delta``).

    Returns
    -------
    delta : int
    X, Xprime : ndarray
        Sorted integer codes, ``(q - delta)/2`` elements each.

    Raises
    ------
    ValueError
        If ``q`` breaks :data:`MMS_ORDER` (``q = 2`` has no decomposition ``4w + delta``).

    Examples
    --------
    >>> delta, X, Xp = mms_generators(5)
    >>> delta, X.tolist(), Xp.tolist()
    (1, [1, 4], [2, 3])

    References
    ----------
    McKay–Miller–Širáň (1998); Hafner (2004); Besta–Hoefler, Slim Fly (SC'14).
    """
    delta = mms_delta(q)
    w = (q - delta) // 4
    if delta == 1:
        ex, exp_ = np.arange(0, q - 2, 2), np.arange(1, q - 1, 2)
    elif delta == -1:
        ex = np.concatenate([np.arange(0, 2 * w - 1, 2), np.arange(2 * w - 1, 4 * w - 2, 2)])
        exp_ = np.concatenate([np.arange(1, 2 * w, 2), np.arange(2 * w, 4 * w - 1, 2)])
    else:
        ex, exp_ = np.arange(0, q - 1, 2), np.arange(1, q, 2)
    T = tables(q)
    return delta, np.sort(T.xi_pow(ex)), np.sort(T.xi_pow(exp_))


@family("mms-supernode", kind="factor", summary="MMS / Slim Fly supernode C(X) = Cay(GF(q), X)", symbol="C(X)",
        reference="App. B-B1", params={"q": Param(MMS_ORDER), "prime": Param(flag("C(X') instead of C(X)"), False, 0)},
        size=lambda q, prime: Size.of(q, q * (q - mms_delta(q)) // 4, field_edge_bytes(q), 100, FIELD_BASE_BYTES),
        forms=ClosedForms("q", "q*(q - delta)/4", (("(q - delta)/2", "q"),), derived={"delta": mms_delta}))
def mms_supernode(q: int, prime: bool = False) -> ArrayGraph:
    """The MMS supernode C(X) = Cay(GF(q), X), or C(X') with ``prime=True``.

    Parameters
    ----------
    q : int
        A prime power ``q >= 3``, ``q = 4w + delta``.
    prime : bool
        Build C(X') instead of C(X).

    Returns
    -------
    ArrayGraph
        ``(q - delta)/2``-regular on GF(q), ``q(q - delta)/4`` edges. ``meta["bijection"]`` is
        ``x -> xi x``, the isomorphism C(X) -> C(X') (for ``delta = 1``, C(X) = QR(q) and this is
        the Paley bijection); ``meta["delta"]``, ``meta["connection_set"]`` are recorded.

    Raises
    ------
    ValueError
        If ``q`` breaks :data:`MMS_ORDER`, or ``prime`` is not a flag.

    Examples
    --------
    >>> g = mms_supernode(4)          # delta = 0: X = {1, xi^2}
    >>> g.n, g.m, g.degree_set()
    (4, 4, [2])

    References
    ----------
    docs/networks.md §3.1; Table V row C(X) or C(X').
    """
    delta, X, Xp = mms_generators(q)
    T = tables(q)
    meta = {"delta": delta, "xi": T.xi, "connection_set": Xp if prime else X,
            "bijection": T.mul(T.xi, T.elements())}
    return _cayley_gf(q, Xp if prime else X, "mms-supernode", {"q": q, "prime": int(prime)}, meta)


mms_supernode.variant("mms-supernode-prime", preset={"prime": True}, symbol="C(X')",
                      summary="MMS / Slim Fly supernode C(X') = Cay(GF(q), X')")


# ---------------------------------------------------------------------------------------------
# ER_q (PolarFly)
# ---------------------------------------------------------------------------------------------
def polarfly_points(q: int) -> np.ndarray:
    """Canonical representatives of the points of PG(2, q), in ER_q's vertex order.

    ``(x, y, 1)`` at index ``x*q + y``; then ``(x, 1, 0)`` at ``q^2 + x``; then ``(1, 0, 0)``.

    Parameters
    ----------
    q : int
        The order of the field of the projective plane PG(2, q) (a prime power).

    Returns
    -------
    ndarray
        ``(q^2+q+1, 3)`` int64 array of integer codes.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power (PG(2, q) needs the field GF(q)).

    Examples
    --------
    >>> polarfly_points(2).tolist()[-3:]
    [[0, 1, 0], [1, 1, 0], [1, 0, 0]]
    """
    q = check_prime_power(q)
    x = np.arange(q, dtype=np.int64)
    n = q * q + q + 1
    pts = np.zeros((n, 3), dtype=np.int64)
    pts[: q * q, 0] = np.repeat(x, q)
    pts[: q * q, 1] = np.tile(x, q)
    pts[: q * q, 2] = 1
    pts[q * q: q * q + q, 0] = x
    pts[q * q: q * q + q, 1] = 1
    pts[n - 1, 0] = 1
    return pts


def _polarfly_arcs(q: int) -> tuple[np.ndarray, np.ndarray]:
    """All ordered pairs (u, v) with u.v = 0 (including u = v), q+1 per u, vectorised.

    For u = (a, b, c) the line u-perp is solved in each chart: if b != 0 the points
    (x, -(a x + c)/b, 1) for all x plus (-b/a, 1, 0) (a != 0) or (1, 0, 0) (a = 0);
    if b = 0 != a the points (-c/a, y, 1) for all y plus (0, 1, 0); u = (0, 0, 1) meets the
    line at infinity: (x, 1, 0) for all x plus (1, 0, 0).
    """
    T = tables(q)
    pts = polarfly_points(q)
    n = pts.shape[0]
    a, b, c = pts[:, 0], pts[:, 1], pts[:, 2]
    xs = np.arange(q, dtype=np.int64)
    dst = np.empty((n, q + 1), dtype=np.int64)
    # case b != 0
    iB = np.flatnonzero(b != 0)
    aB, bB, cB = a[iB, None], b[iB, None], c[iB, None]
    y = T.mul(T.neg(T.add(T.mul(aB, xs[None, :]), cB)), T.inv(bB))
    dst[iB, :q] = xs[None, :] * q + y
    a_safe = np.where(aB[:, 0] != 0, aB[:, 0], 1)
    dst[iB, q] = np.where(aB[:, 0] != 0, q * q + T.mul(T.neg(bB[:, 0]), T.inv(a_safe)), n - 1)
    # case b == 0, a != 0
    iA = np.flatnonzero((b == 0) & (a != 0))
    x0 = T.mul(T.neg(c[iA]), T.inv(a[iA]))
    dst[iA, :q] = x0[:, None] * q + xs[None, :]
    dst[iA, q] = q * q
    # u = (0, 0, 1)
    iZ = np.flatnonzero((a == 0) & (b == 0))
    dst[iZ, :q] = q * q + xs[None, :]
    dst[iZ, q] = n - 1
    src = np.repeat(np.arange(n, dtype=np.int64), q + 1)
    return src, dst.ravel()


@family("polarfly", kind="factor", also=("network",), summary="Erdős–Rényi polarity graph ER_q (PolarFly)",
        symbol="ER_q", reference="App. B-B7", diameter=2,
        params={"q": Param(prime_power(2)), "loops": Param(flag("record the q+1 absolute-point loops"), False, 0)},
        size=lambda q, loops: Size.of(q * q + q + 1, q * (q + 1) ** 2 // 2, 120, 300, FIELD_BASE_BYTES),  # 95/edge
        forms=ClosedForms("q**2 + q + 1", "q*(q + 1)**2/2", (("q + 1", "q**2"), ("q", "q + 1"))))
def polarfly(q: int, loops: bool = False) -> ArrayGraph:
    """The Erdős–Rényi polarity graph ER_q (PolarFly): points of PG(2,q), ``u ~ v`` iff ``u.v = 0``.

    Parameters
    ----------
    q : int
        The order of the field of PG(2, q), a prime power; ER_q has ``q^2 + q + 1`` vertices.
    loops : bool
        Record the self-loops at the ``q+1`` absolute points (``u.u = 0``). An ArrayGraph cannot
        hold self-loops, so ``edges`` is always the loop-free edge set and, with ``loops=True``,
        ``meta["loops"]`` lists the looped vertices (``polarfly_graph(q, loops=True)`` adds them as
        networkx self-loops). ``meta["absolute_points"]`` is recorded in both cases.

    Returns
    -------
    ArrayGraph
        ``q^2+q+1`` vertices labelled by their representative triples (see
        :func:`polarfly_points`), ``q(q+1)^2/2`` loop-free edges, degrees ``q+1`` and ``q``
        (absolute points), diameter 2.

    Raises
    ------
    ValueError
        If ``q`` is not a prime power or ``loops`` is not a flag.

    Examples
    --------
    >>> g = polarfly(7)
    >>> g.n, g.m, len(g.meta["absolute_points"])
    (57, 224, 8)

    Notes
    -----
    ``O(q^3)`` vectorised work (``q+1`` points on each of ``q^2+q+1`` lines).

    References
    ----------
    Appendix B-B7 of Isham et al. (2025); docs/networks.md §4; Table V row ER_q; Lakhotia et al., PolarFly
    (SC'22); Brown (1966), Erdős–Rényi.
    """
    src, dst = _polarfly_arcs(q)
    absolute = np.sort(src[src == dst])
    keep = src < dst
    n = src.size // (q + 1)
    keys = np.sort(src[keep] * np.int64(n) + dst[keep])
    edges = np.stack([keys // n, keys % n], axis=1)
    pts = polarfly_points(q)
    labels = list(zip(*(pts[:, i].tolist() for i in range(3)), strict=True))
    # "er_q" marks the graph as ER_q for the ER_q constructions (starlib.edst.factor.er.er_order); not with loops
    meta = {"absolute_points": absolute} if loops else {"absolute_points": absolute, "er_q": q}
    if loops:
        meta["loops"] = absolute.copy()
        meta["loops_representation"] = (
            "self-loops are not edges of the ArrayGraph; meta['loops'] lists the vertices with a loop")
    return ArrayGraph(labels, edges, name="polarfly", params={"q": q, "loops": int(loops)}, meta=meta)


# ---------------------------------------------------------------------------------------------
# R* supernodes: Inductive-Quad and the "bdf" variant of the PolarStar reference code
# ---------------------------------------------------------------------------------------------
# the quad gadget of the SST merlin code (docs/supernodes.md §3): 01 02 03 41 42 43 16 56 27 67 35 75
_QUAD_SST = np.array([[0, 1], [0, 2], [0, 3], [4, 1], [4, 2], [4, 3],
                      [1, 6], [5, 6], [2, 7], [6, 7], [3, 5], [7, 5]], dtype=np.int64)
# the base graph of IntelLabs/PolarFly iq.py (same shape, different hard-coded edges)
_QUAD_INTEL = np.array([[0, 7], [4, 7], [0, 1], [4, 1], [0, 2], [4, 2],
                        [1, 6], [5, 6], [5, 3], [5, 7], [2, 3], [6, 3]], dtype=np.int64)


def _inductive(d: int, gadget: np.ndarray, base4: bool, name: str) -> ArrayGraph:
    """Shared induction: start from a base of degree 0/3 (or 4), add gadgets of degree +4."""
    e_list: list[np.ndarray] = []
    if d % 4 == 3:
        e_list.append(gadget)
        a_side, fa_side, n_cur, d_cur = [0, 1, 2, 3], [4, 5, 6, 7], 8, 3
    elif base4:  # Intel iq.py: the degree-4 base is the gadget plus a pair {8, 9}
        extra = np.array([[8, 0], [8, 4], [8, 1], [8, 5], [9, 2], [9, 6], [9, 3], [9, 7]], dtype=np.int64)
        e_list += [gadget, extra]
        a_side, fa_side, n_cur, d_cur = [0, 1, 2, 3, 8], [4, 5, 6, 7, 9], 10, 4
    else:  # SST: IQ(0) = a single pair {0, 1}
        a_side, fa_side, n_cur, d_cur = [0], [1], 2, 0
    while d_cur < d:
        e_list.append(gadget + n_cur)
        A = np.asarray(a_side, dtype=np.int64)
        fA = np.asarray(fa_side, dtype=np.int64)
        for i, targets in ((0, A), (1, A), (2, fA), (3, fA)):
            for u in (n_cur + i, n_cur + i + 4):
                e_list.append(np.stack([np.full(len(targets), u), targets], axis=1))
        a_side += [n_cur + i for i in range(4)]
        fa_side += [n_cur + 4 + i for i in range(4)]
        n_cur += 8
        d_cur += 4
    f = np.empty(n_cur, dtype=np.int64)
    f[a_side] = fa_side
    f[fa_side] = a_side
    g = ArrayGraph.from_edges(list(range(n_cur)), np.concatenate(e_list), name=name, params={"d": d})
    g.meta.update({"involution": f, "bijection": f, "A": np.asarray(a_side), "fA": np.asarray(fa_side)})
    return g


def _size_rstar(d: int) -> Size:
    return Size.of(2 * d + 2, d * (d + 1), 120, 200)  # measured 92 per edge at d = 400


_RSTAR_FORMS = ClosedForms("2*d + 2", "d*(d + 1)", (("d", "2*d + 2"),))


@family("inductive-quad", kind="factor", summary="Inductive-Quad graph IQ(d) (R* supernode, 2d+2 vertices)",
        symbol="IQ(d')", reference="App. B-B6", params={"d": Param(RSTAR_DEGREE, symbol="d'")}, size=_size_rstar,
        forms=_RSTAR_FORMS)
def inductive_quad(d: int) -> ArrayGraph:
    """The Inductive-Quad graph IQ(d): d-regular on ``2d+2`` vertices with an involution f (R*).

    Base IQ(3) = the quad gadget Q (8 vertices: A = {0..3}, fA = {4..7}, f(i) = i+4) for
    ``d = 3 (mod 4)``, or the pair IQ(0) = ({0, 1}, no edges) for ``d = 0 (mod 4)``. Each step
    adds a copy of Q on 8 new vertices; both ends of its first two f-pairs are joined to every
    vertex of the current A, both ends of its last two pairs to every vertex of the current fA;
    then the new A-side joins A and the new fA-side joins fA. Each step raises the degree by 4.

    Parameters
    ----------
    d : int
        Degree, ``d >= 3`` and ``d = 0 or 3 (mod 4)`` (IQ(0), two isolated vertices, is only the
        induction base and is rejected).

    Returns
    -------
    ArrayGraph
        ``2d+2`` vertices, ``d(d+1)`` edges; ``meta["involution"]`` (= ``meta["bijection"]``) is
        the fixed-point-free involution f with ``E u f(E) u {x f(x)} = E(K_n)`` (property R*);
        ``meta["A"]``, ``meta["fA"]`` are the two halves.

    Raises
    ------
    ValueError
        If ``d`` breaks :data:`RSTAR_DEGREE`: an R* graph on ``2d+2`` vertices needs ``d = 0, 3 (mod 4)``.

    Examples
    --------
    >>> g = inductive_quad(7)
    >>> g.n, g.m, g.degree_set()
    (16, 56, [7])

    References
    ----------
    docs/supernodes.md §3 (after the SST merlin ``class IQ``); PolarStar (arXiv:2302.07217).
    """
    return _inductive(d, _QUAD_SST, base4=False, name="inductive-quad")


@family("bdf", kind="factor", summary="'bdf' supernode of the PolarStar code (bdfGen; IQ parameters)",
        symbol="BDF(d')", reference="App. B-B5", params={"d": Param(RSTAR_DEGREE, symbol="d'")}, size=_size_rstar,
        forms=_RSTAR_FORMS)
def bdf(d: int) -> ArrayGraph:
    """The "bdf" supernode of the PolarStar reference code: ``bdfGen(d)`` of IntelLabs/PolarFly.

    The Bermond–Delorme–Farhi paper (1982) itself could not be retrieved. In the authors' own
    code the supernode *type* is called "bdf" (``Polarstar.py``: "sg: supernode type - bdf",
    order ``bdfV = 2*bdfq + 2``) and it is built by ``iq.py``'s ``bdfGen(q)``, which is the
    Inductive-Quad induction with different hard-coded base graphs: a quad gadget with edges
    07 47 01 41 02 42 16 56 53 57 23 63 and, for ``d = 0 (mod 4)``, a degree-4 base on 10 vertices
    (the gadget plus a pair {8, 9}, 8 ~ 0 4 1 5, 9 ~ 2 6 3 7). So "BDF" here has exactly IQ's
    parameters (``n = 2d+2``, d-regular, ``m = d(d+1)``, R* involution). Any R* graph has
    ``n <= 2d+2`` (docs/supernodes.md §2), so no larger "BDF" supernode exists; if the 1982
    family has order ``2d`` it is a different, smaller graph, not implemented here.

    Parameters
    ----------
    d : int
        Degree, ``d >= 3`` and ``d = 0 or 3 (mod 4)``.

    Returns
    -------
    ArrayGraph
        As :func:`inductive_quad` (``meta["involution"]``, ``meta["bijection"]``, ``A``, ``fA``).

    Raises
    ------
    ValueError
        If ``d`` breaks :data:`RSTAR_DEGREE` (as for IQ).

    Examples
    --------
    >>> from starlib.products import has_property_rstar
    >>> g = bdf(8)
    >>> g.n, g.m, has_property_rstar(g, g.meta["involution"])
    (18, 72, True)

    Notes
    -----
    ``bdf(d)`` and ``inductive_quad(d)`` are isomorphic for ``d = 3, 4`` but not for ``d = 7, 8``
    (networkx isomorphism test, see ``tests/test_factors.py``): two different R* graphs with the
    same parameters, so every count and bound that depends only on ``(n, m, degrees)`` is equal.

    References
    ----------
    IntelLabs/PolarFly ``polarfly/topologies/topogen/iq.py`` (``bdfGen``), ``Polarstar.py``;
    Bermond, Delorme, Farhi, "Large graphs with given degree and diameter III" (1982); Table V
    row "BDF graph" (values stripped in the source).
    """
    return _inductive(d, _QUAD_INTEL, base4=True, name="bdf")


# ---------------------------------------------------------------------------------------------
# Chimera
# ---------------------------------------------------------------------------------------------
def _chimera_graph_check(params: dict[str, Any]) -> dict[str, Any]:
    """A toric Chimera needs ``rows, cols >= 3`` (so that wrapped couplers are simple edges)."""
    if params["toric"]:
        for name in ("rows", "cols"):
            check_int(params[name], name, minimum=3)
    return params


@family("chimera-graph", kind="factor",
        summary="Chimera graph C_{rows x cols} (any size; not necessarily a star product)",
        params={"rows": Param(integer(1, note="(>= 3 if toric)")), "cols": Param(integer(1, note="(>= 3 if toric)")),
                "toric": Param(flag("wrap-around couplers"), False, 0)},
        size=lambda rows, cols, toric: Size.of(*chimera_counts(rows, cols, toric), 150, 300),  # 159/edge at 60 x 60
        check=_chimera_graph_check)
def chimera(rows: int, cols: int, toric: bool = False) -> ArrayGraph:
    """The Chimera graph C_{rows x cols}: a grid of K_{4,4} unit cells with couplers.

    Vertex ``(i, j, shore, k)`` (index ``((i*cols + j)*2 + shore)*4 + k``) is qubit ``k`` of
    the vertical (``shore = 0``) or horizontal (``shore = 1``) shore of cell ``(i, j)``. Inside a
    cell the two shores form K_{4,4}; vertical couplers join ``(i,j,0,k)-(i+1,j,0,k)``,
    horizontal couplers ``(i,j,1,k)-(i,j+1,1,k)``; ``toric=True`` wraps both directions.

    Parameters
    ----------
    rows, cols : int
        Grid size (``>= 1``; ``>= 3`` when ``toric``, so that wrapped couplers are simple edges).
    toric : bool
        Wrap-around couplers (6-regular, ``m = 24 rows cols``).

    Returns
    -------
    ArrayGraph
        ``8 rows cols`` vertices; ``24 rows cols - 4(rows + cols)`` edges (planar).

    Raises
    ------
    ValueError
        If ``rows``/``cols`` are not positive integers (``>= 3`` for a torus).

    Examples
    --------
    >>> g = chimera(2, 2)
    >>> g.n, g.m, g.degree_set()
    (32, 80, [5])

    References
    ----------
    Appendix C of Isham et al. (2025); docs/networks.md §9; D-Wave Chimera topology.
    """

    def idx(i, j, s, k):
        return ((i * cols + j) * 2 + s) * 4 + k

    i, j, k, ll = np.meshgrid(np.arange(rows), np.arange(cols), np.arange(4), np.arange(4), indexing="ij")
    intra = np.stack([idx(i, j, 0, k).ravel(), idx(i, j, 1, ll).ravel()], axis=1)
    ri = rows if toric else rows - 1
    cj = cols if toric else cols - 1
    i, j, k = np.meshgrid(np.arange(ri), np.arange(cols), np.arange(4), indexing="ij")
    vert = np.stack([idx(i, j, 0, k).ravel(), idx((i + 1) % rows, j, 0, k).ravel()], axis=1)
    i, j, k = np.meshgrid(np.arange(rows), np.arange(cj), np.arange(4), indexing="ij")
    horiz = np.stack([idx(i, j, 1, k).ravel(), idx(i, (j + 1) % cols, 1, k).ravel()], axis=1)
    labels = list(itertools.product(range(rows), range(cols), range(2), range(4)))
    return ArrayGraph.from_edges(labels, np.concatenate([intra, vert, horiz]), name="chimera",
                                 params={"rows": rows, "cols": cols, "toric": int(toric)})


# ---------------------------------------------------------------------------------------------
# networkx at the boundary: every builder's graph converts with ArrayGraph.to_networkx(); ER_q adds its loops
# ---------------------------------------------------------------------------------------------
def polarfly_graph(q: int, loops: bool = False) -> nx.Graph:
    """:func:`polarfly` as ``nx.Graph``; ``loops=True`` adds the ``q+1`` absolute-point self-loops.

    (Every other family converts with ``.to_networkx()``: ``paley(13).to_networkx()``.)

    Examples
    --------
    >>> import networkx as nx
    >>> nx.number_of_selfloops(polarfly_graph(3, loops=True))
    4
    """
    g = polarfly(q, loops)
    out = g.to_networkx()
    if g.meta.get("loops") is not None:
        out.add_edges_from((g.labels[v], g.labels[v]) for v in g.meta["loops"].tolist())
    return out
