"""Network topologies as star products: Slim Fly, Bundlefly, PolarStar, K_n * Paley, Chimera, HyperX, torus.

Every builder returns a :class:`~starlib.products.StarProduct` (except
:func:`slimfly_hafner`, the geometric form of MMS(q)), so the EDST constructions of
:mod:`starlib.edst` can read the factors, the bijections and :func:`~starlib.products.transfer_map`.

=====================  =============================================================  ===========
function               star product                                                   bijections
=====================  =============================================================  ===========
``slimfly(q)``         MMS(q) = K_{q,q} * C(X)                                        f(y) = xi^-1 (y - m x)
``bundlefly(q, q')``   MMS(q) * QR(q')                                                x -> xi' x on every arc
``polarstar(q, ...)``  ER_q * QR(q') or ER_q * IQ(d')                                 same f on every arc
``complete_paley``     K_n * QR(q) (K_2 * QR(5) = Petersen)                           x -> xi x
``chimera``            C_{2a x 2b} = K_2 * (blue cells), when it is one               the couplers
``hyperx``/``torus``   K_{s1} □ K_{s2} □ ..., C_{s1} □ C_{s2} □ ...                     identity
=====================  =============================================================  ===========

Example
-------
>>> P = slimfly(5)                        # the Hoffman–Singleton graph
>>> P.n, P.m, P.degree_set(), P.diameter()
(50, 175, [7], 2)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .factors import (
    FIELD_BASE_BYTES,
    MMS_ORDER,
    PALEY_ORDER,
    RSTAR_DEGREE,
    bdf,
    chimera_counts,
    complete,
    complete_bipartite,
    cycle,
    inductive_quad,
    mms_delta,
    mms_generators,
    mms_supernode,
    paley,
    polarfly,
)
from .factors import chimera as chimera_graph_array
from .family import ClosedForms, Param, choice, family, flag, integer, integers, prime_power
from .fields import tables
from .graphs import ArrayGraph, canonical_edges
from .memory import Size
from .products import RelabelledProduct, StarProduct, cartesian_product, star_product

__all__ = [
    "polarstar_supernode",
    "slimfly_hafner",
    "slimfly",
    "bundlefly",
    "polarstar",
    "loop_matching",
    "paley_loop_matching",
    "complete_paley",
    "hyperx",
    "torus",
    "chimera",
    "chimera_colour",
]


def _mms_counts(q: int) -> tuple[int, int]:
    """``(n, m)`` of MMS(q): ``2q^2`` vertices of degree ``(3q - delta)/2``, ``q = 4w + delta``, delta in {-1, 0, 1}.

    >>> _mms_counts(5), _mms_counts(4), _mms_counts(7)
    ((50, 175), (32, 96), (98, 539))
    """
    return 2 * q * q, q * q * (3 * q - mms_delta(q)) // 2


def _product_size(nG: int, mG: int, nH: int, mH: int, edge_bytes: int, base: int = 0, extra: int = 0) -> Size:
    """A star product of ``G`` and ``H``: ``n_G n_H`` vertices, ``m_G n_H + n_G m_H (+ extra)`` edges, ``edge_bytes``
    per edge and 300 per vertex (the linear models of :func:`starlib.factors.field_edge_bytes`)."""
    return Size.of(nG * nH, mG * nH + nG * mH + extra, edge_bytes, 300, base)


#: The closed forms of MMS(q) (Table V; the same graph in both of its forms).
_MMS_FORMS = ClosedForms("2*q**2", "q**2*(3*q - delta)/2", (("(3*q - delta)/2", "2*q**2"),),
                         derived={"delta": mms_delta})
#: Every star-product network has its paper diameter from Section II (Slim Fly 2, the others 3).
_LOOPS = Param(flag("add the absolute-point loop edges (network version)"), False, 0)


def polarstar_supernode(supernode: str | None, paley_q: Any = None, d: Any = None) -> str:
    """The supernode family of a PolarStar: ``supernode`` if given, else implied by the parameters.

    ``paley_q`` implies ``"paley"`` and ``d`` implies ``"iq"`` (the supernode of the paper's tables), so
    ``polarstar q=3 d=3`` on the command line is ER_3 * IQ(3).

    Raises
    ------
    ValueError
        When ``supernode`` is not given and both or neither of ``paley_q`` and ``d`` are.

    Examples
    --------
    >>> polarstar_supernode(None, d=3), polarstar_supernode(None, paley_q=5), polarstar_supernode("bdf", d=4)
    ('iq', 'paley', 'bdf')
    """
    if supernode is not None:
        return supernode
    if paley_q is not None and d is not None:
        raise ValueError(f"paley_q={paley_q} and d={d}: give paley_q (Paley supernode QR(q')) or d (IQ supernode "
                         f"IQ(d')), not both")
    if paley_q is None and d is None:
        raise ValueError("paley_q and d are both missing: a PolarStar needs paley_q (Paley supernode QR(q'), a prime "
                         "power = 1 (mod 4)) or d (IQ supernode IQ(d'), d >= 3, d = 0 or 3 (mod 4))")
    return "paley" if paley_q is not None else "iq"


@family("slimfly", kind="product", summary="Slim Fly MMS(q) = K_{q,q} * C(X) (affine bijections)", symbol="MMS(q)",
        reference="App. B-B3", diameter=2, params={"q": Param(MMS_ORDER)},
        size=lambda q: Size.of(*_mms_counts(q), 100, 300, FIELD_BASE_BYTES),  # measured 64 per edge at q = 101
        forms=_MMS_FORMS)
def slimfly(q: int) -> StarProduct:
    """Slim Fly / MMS(q) as the star product ``K_{q,q} * C(X)`` with affine bijections.

    Structure vertices ``(0, x)`` (index ``x``) and ``(1, m)`` (index ``q + m``); every arc runs
    ``(0, x) -> (1, m)`` and carries ``f(y) = xi^{-1} (y - m x)``. Relabelling Hafner's
    ``(1, m, c)`` as ``((1, m), xi^{-1} c)`` (and ``(0, x, y)`` as ``((0, x), y)``) maps
    :func:`slimfly_hafner` onto this graph edge for edge.

    Parameters
    ----------
    q : int
        A prime power ``q >= 3``: ``K_{q,q}`` and ``C(X)`` over GF(q).

    Returns
    -------
    StarProduct
        ``2q^2`` vertices, ``q^2 (3q - delta)/2`` edges, ``(3q - delta)/2``-regular, diameter 2.

    Raises
    ------
    ValueError
        If ``q`` breaks :data:`~starlib.factors.MMS_ORDER` (MMS(2) does not exist).

    Examples
    --------
    >>> P = slimfly(4)
    >>> P.n, P.m, P.degree_set()
    (32, 96, [6])

    References
    ----------
    Example II-D.2 and Appendix B-B3 of Isham et al. (2025) ("MMS(q) = K_{q,q} * C(X)"); docs/networks.md §3.3
    (explicit bijections).
    """
    G = complete_bipartite(q)
    H = mms_supernode(q)
    T = tables(q)
    x = G.edges[:, 0]
    m = G.edges[:, 1] - q
    xi_inv = int(T.inv(T.xi))
    y = T.elements()
    B = T.mul(xi_inv, T.sub(y[None, :], T.mul(m, x)[:, None]))
    return star_product(G, H, B, name="slimfly", params={"q": q},
                        meta={"delta": H.meta["delta"], "xi": T.xi})


@family("slimfly-hafner", summary="Slim Fly MMS(q) in Hafner's (0,x,y)/(1,m,c) form (relabelled K_{q,q} * C(X))",
        symbol="MMS(q)", reference="App. B-B3", diameter=2, params={"q": Param(MMS_ORDER)},
        size=lambda q: Size.of(*_mms_counts(q), 160, 300, FIELD_BASE_BYTES),  # 129 per edge at q = 101 (q^3 grids)
        forms=_MMS_FORMS)
def slimfly_hafner(q: int) -> RelabelledProduct:
    """MMS(q) in Hafner's form: vertices ``(0, x, y)`` and ``(1, m, c)`` over GF(q).

    ``(0,x,y) ~ (0,x,y')`` iff ``y - y'`` in X; ``(1,m,c) ~ (1,m,c')`` iff ``c - c'`` in X';
    ``(0,x,y) ~ (1,m,c)`` iff ``y = m x + c`` (X, X' of :func:`~starlib.factors.mms_generators`).

    Parameters
    ----------
    q : int
        A prime power ``q >= 3``, the order of the field of the geometry.

    Returns
    -------
    RelabelledProduct
        ``2q^2`` vertices (``(0,x,y)`` at index ``x q + y``, ``(1,m,c)`` at ``q^2 + m q + c``),
        ``(3q - delta)/2``-regular, ``q^2 (3q - delta)/2`` edges, diameter 2. It carries its star-product form:
        ``.product`` is :func:`slimfly` ``(q)`` and ``.index`` maps its vertices here
        (``((0, x), y) -> (0, x, y)``, ``((1, m), c') -> (1, m, xi c')``), the one place where the two
        labellings meet.

    Raises
    ------
    ValueError
        If ``q`` breaks :data:`~starlib.factors.MMS_ORDER`.

    Examples
    --------
    >>> g = slimfly_hafner(3)
    >>> g.n, g.m, g.degree_set(), g.product.name
    (18, 45, [5], 'slimfly')

    References
    ----------
    Hafner (2004); McKay–Miller–Širáň (1998); Besta–Hoefler, Slim Fly (SC'14); docs/networks.md §3.2.
    """
    delta, X, Xp = mms_generators(q)
    T = tables(q)
    e = T.elements()
    qq = q * q
    # supernode edges: (0, x, y) ~ (0, x, y + s), s in X; (1, m, c) ~ (1, m, c + s'), s' in X'
    idx = np.arange(qq, dtype=np.int64)
    hi, lo = idx // q, idx % q
    d0 = hi[:, None] * q + T.add(lo[:, None], X[None, :])
    d1 = qq + hi[:, None] * q + T.add(lo[:, None], Xp[None, :])
    s0 = np.broadcast_to(idx[:, None], d0.shape)
    s1 = np.broadcast_to(qq + idx[:, None], d1.shape)
    # cross edges: (0, x, m x + c) ~ (1, m, c)
    x, m, c = np.meshgrid(e, e, e, indexing="ij")
    y = T.add(T.mul(m, x), c)
    s2 = x * q + y
    d2 = qq + m * q + c
    edges = np.concatenate([np.stack([a.ravel(), b.ravel()], axis=1)
                            for a, b in ((s0, d0), (s1, d1), (s2, d2))])
    labels = [(0, a, b) for a in range(q) for b in range(q)] + [(1, a, b) for a in range(q) for b in range(q)]
    # star-product vertex ((0, x), y) = x q + y is (0, x, y); ((1, m), c') = (q + m) q + c' is (1, m, xi c')
    g = np.arange(2 * q, dtype=np.int64)[:, None]
    h = e[None, :]
    index = np.where(g < q, g * q + h, g * q + T.mul(T.xi, h)).ravel()
    return RelabelledProduct(labels, canonical_edges(edges, 2 * qq), name="slimfly-hafner", params={"q": q},
                             meta={"delta": delta, "xi": T.xi}, index=index, make_product=functools.partial(slimfly, q))


def _size_bundlefly(q: int, paley_q: int) -> Size:
    # measured 63 per edge at (25, 29), the structure graph apart
    return slimfly_hafner.family.size(q).then(
        _product_size(*_mms_counts(q), paley_q, paley_q * (paley_q - 1) // 4, 100, FIELD_BASE_BYTES))


@family("bundlefly", kind="product", summary="Bundlefly MMS(q) * QR(q')", symbol="MMS(q) * QR(q')",
        reference="App. B-C2", diameter=3, params={"q": Param(MMS_ORDER), "paley_q": Param(PALEY_ORDER, symbol="q'")},
        size=_size_bundlefly, forms=ClosedForms(star=((slimfly, {"q": "q"}), (paley, {"q": "paley_q"}))))
def bundlefly(q: int, paley_q: int) -> StarProduct:
    """Bundlefly ``MMS(q) * QR(q')`` with ``f(x) = xi' x`` on every arc (oriented by index).

    The structure graph is :func:`slimfly_hafner` ``(q)``; the supernode is the Paley graph
    ``QR(q')`` with its bijection ``x -> xi' x`` (a non-square multiplier). The bijections of the
    original Bundlefly design are not reproduced (docs/networks.md §5); EDST counts and bounds do not
    depend on them.

    Parameters
    ----------
    q : int
        Prime power ``q >= 3`` (MMS structure graph).
    paley_q : int
        Prime power ``q' = 1 (mod 4)`` (Paley supernode).

    Returns
    -------
    StarProduct
        ``2q^2 q'`` vertices, ``((3q - delta)/2 + (q'-1)/2)``-regular.

    Raises
    ------
    ValueError
        If ``q`` or ``paley_q`` violate their rules.

    Examples
    --------
    >>> P = bundlefly(3, 5)
    >>> P.n, P.m, P.degree_set(), P.diameter()
    (90, 315, [7], 3)

    References
    ----------
    Appendix B-C2 of Isham et al. (2025); Lei et al., Bundlefly (ICS'20); docs/networks.md §5.
    """
    G = slimfly_hafner(q)
    H = paley(paley_q)
    return star_product(G, H, H.meta["bijection"], name="bundlefly", params={"q": q, "paley_q": paley_q})


def loop_matching(f: np.ndarray) -> np.ndarray:
    """Greedy pairs ``{h, f(h)}`` such that no vertex is used twice (PolarStar's loop edges with IQ/bdf).

    Scans ``h = 0, 1, ...`` and keeps ``{h, f(h)}`` when ``h != f(h)`` and neither end is covered
    yet (the ``conn`` array of the reference code's ``starProdGen``). For an involution without fixed points
    (the IQ and bdf supernodes) this is every pair, a perfect matching. For a Paley supernode
    :func:`polarstar` uses :func:`paley_loop_matching` instead (docs/networks.md §6).

    Parameters
    ----------
    f : ndarray
        A permutation of the supernode vertices.

    Returns
    -------
    ndarray
        ``(k, 2)`` int64 array of pairs.

    Examples
    --------
    >>> loop_matching(np.array([0, 2, 4, 1, 3])).tolist()    # x -> 2x on GF(5)
    [[1, 2], [4, 3]]
    """
    f = np.asarray(f, dtype=np.int64)
    cov = np.zeros(len(f), dtype=bool)
    pairs = []
    for h, fh in enumerate(f.tolist()):  # O(n_H) once per supernode type, not per edge
        if h == fh or cov[h] or cov[fh]:
            continue
        pairs.append((h, fh))
        cov[h] = cov[fh] = True
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def paley_loop_matching(paley_q: int) -> np.ndarray:
    """PolarStar's loop edges in a Paley supernode: ``{h, xi h}`` for every ``h`` with ``(xi - 1) h`` a non-square.

    The loop of an absolute point of ER_q joins ``(a, h)`` to ``(a, f(h))``, with ``f(x) = xi x`` on ``QR(q')``.
    The pair ``{h, xi h}`` is a Paley edge iff ``xi h - h = (xi - 1) h`` is a square, so the pairs kept here are
    exactly the ones that are not edges yet. ``xi - 1 != 0``, so the ``h`` kept form one coset of the squares
    (the squares or the non-squares of GF(q')*) and their images ``xi h`` the other one: the pairs are a perfect
    matching between the squares and the non-squares, covering every vertex but 0 (the one fixed point of f,
    which no pair ``{h, f(h)}`` can cover). The greedy scan of :func:`loop_matching`, which takes pairs in index
    order whether or not they are edges already, may instead take existing edges (both pairs for QR(5) with
    ``xi = 2``).

    Parameters
    ----------
    paley_q : int
        Prime power ``q' = 1 (mod 4)``, the order of the Paley supernode.

    Returns
    -------
    ndarray
        ``((q'-1)/2, 2)`` int64 array of pairs ``(h, xi h)``, sorted by ``h`` (galois integer codes).

    Raises
    ------
    ValueError
        If ``paley_q`` is not a prime power ``= 1 (mod 4)``.

    Examples
    --------
    >>> paley_loop_matching(5).tolist()      # xi = 2, xi - 1 = 1: h in {2, 3}, the non-squares
    [[2, 4], [3, 1]]

    References
    ----------
    Lakhotia et al., PolarStar (arXiv:2302.07217), the network version with the loops of ER_q;
    docs/networks.md §6.
    """
    paley_q = PALEY_ORDER(paley_q, "paley_q")
    T = tables(paley_q)
    h = np.arange(1, paley_q, dtype=np.int64)
    h = h[T.log[T.mul(T.sub(T.xi, 1), h)] % 2 == 1]  # (xi - 1) h a non-square: odd discrete log
    return np.stack([h, T.mul(T.xi, h)], axis=1)


def _polarstar_check(params: dict[str, Any]) -> dict[str, Any]:
    """The supernode named or implied (:func:`polarstar_supernode`), given exactly the parameters it takes."""
    supernode = params["supernode"] = polarstar_supernode(params["supernode"], params["paley_q"], params["d"])
    paley_q, d = params["paley_q"], params["d"]
    if supernode == "paley":
        if paley_q is None:
            raise ValueError("paley_q=None: supernode='paley' needs paley_q, a prime power = 1 (mod 4)")
        if d is not None:
            raise ValueError(f"d={d}: d is the degree of an IQ/bdf supernode; supernode='paley' takes paley_q")
    else:
        if d is None:
            raise ValueError(f"d=None: supernode={supernode!r} needs d >= 3 with d = 0 or 3 (mod 4)")
        if paley_q is not None:
            raise ValueError(f"paley_q={paley_q}: paley_q is for supernode='paley', not {supernode!r}")
    return params


def _size_polarstar(q: int, supernode: str, paley_q: int | None, d: int | None, loops: bool) -> Size:
    # measured 116-122 per edge (31, iq d=28, loops; 31, paley 29, loops)
    nH, mH = (paley_q, paley_q * (paley_q - 1) // 4) if supernode == "paley" else (2 * d + 2, d * (d + 1))
    extra = (q + 1) * (nH // 2) if loops else 0
    return _product_size(q * q + q + 1, q * (q + 1) ** 2 // 2, nH, mH, 160, FIELD_BASE_BYTES, extra)


@family("polarstar", kind="product", summary="PolarStar ER_q * QR(q') or ER_q * IQ(d)", reference="App. B-C3",
        diameter=3, size=_size_polarstar, check=_polarstar_check,
        params={"q": Param(prime_power(2)),
                "supernode": Param(choice("paley", "iq", "bdf", note="default: paley if paley_q is given, iq if d is"),
                                   False),
                "paley_q": Param(prime_power(residues=(4, (1,)), needs="the Paley graph QR({name}) needs",
                                             note="(supernode=paley)"), False, symbol="q'"),
                "d": Param(integer(3, residues=(4, (0, 3)), needs="an R* supernode of order 2{name}+2 needs",
                                   note="(supernode=iq|bdf)"), False, symbol="d'"),
                "loops": _LOOPS})
def polarstar(q: int, supernode: str | None = None, paley_q: int | None = None, d: int | None = None,
              loops: bool = False) -> StarProduct:
    """PolarStar ``ER_q * QR(q')`` or ``ER_q * IQ(d')``: the same bijection f on every ER_q arc.

    Parameters
    ----------
    q : int
        Prime power (ER_q structure graph, loop-free).
    supernode : {"paley", "iq", "bdf"}, optional
        Supernode family: Paley QR(paley_q) with ``f(x) = xi x`` (property R1), or IQ(d) / the
        "bdf" variant with their involution (property R*). Default: ``"paley"`` when ``paley_q`` is given,
        ``"iq"`` when ``d`` is (``polarstar(3, d=3)`` is ER_3 * IQ(3)).
    paley_q : int, optional
        Required for ``supernode="paley"``: prime power ``= 1 (mod 4)``.
    d : int, optional
        Required for ``supernode="iq"`` / ``"bdf"``: degree ``>= 3``, ``= 0 or 3 (mod 4)``.
    loops : bool
        ``False`` (default) builds the EDST paper's graph: ER_q without its loops, so PolarStar is
        not regular. ``True`` builds the network version of the PolarStar design: the loop at each
        of the ``q+1`` absolute points ``a`` of ER_q becomes intra-supernode edges
        ``{(a, h), (a, f(h))}``, one per vertex at most, recorded in ``meta["extra_edges"]``, which
        raise the degree of the absolute supernodes to that of the others. With IQ/bdf, ``f`` is an
        involution without fixed points and the pairs (:func:`loop_matching`) are a perfect
        matching of non-edges: the graph is ``(q+1+d)``-regular. With Paley, the pairs are
        :func:`paley_loop_matching`, ``{h, xi h}`` with ``(xi - 1) h`` a non-square: ``(q'-1)/2``
        new edges per absolute supernode covering every vertex but ``h = 0`` (the fixed point of
        ``f``; ``q'`` is odd, so no perfect matching exists). Every vertex then has degree
        ``q + 1 + (q'-1)/2`` except the ``q+1`` vertices ``(a, 0)``, which keep ``q + (q'-1)/2``.

    Returns
    -------
    StarProduct
        ``(q^2+q+1) n_H`` vertices; without loops ``q(q+1)^2 n_H/2 + (q^2+q+1) m_H`` edges and
        degrees ``q + deg_H`` (absolute supernodes) or ``q + 1 + deg_H``; diameter 3. With loops,
        ``(q+1) floor(n_H/2)`` edges more.

    Raises
    ------
    ValueError
        If a parameter breaks its rule, or the parameters of the other supernode are given.

    Examples
    --------
    >>> P = polarstar(3, supernode="iq", d=3)
    >>> P.n, P.m, P.degree_set()
    (104, 348, [6, 7])
    >>> polarstar(3, supernode="iq", d=3, loops=True).m
    364
    >>> L = polarstar(5, paley_q=5, loops=True)          # radix 8: the q+1 = 6 vertices (a, 0) have 7 links
    >>> L.m, L.degree_set(), int((L.degrees() == 7).sum())
    (617, [7, 8], 6)

    References
    ----------
    Lakhotia et al., PolarStar (arXiv:2302.07217); IntelLabs/PolarFly ``PolarstarGenerator``;
    Appendix B-C3 of Isham et al. (2025); docs/networks.md §6.
    """
    if supernode == "paley":
        H = paley(paley_q)
        params = {"q": q, "supernode": supernode, "paley_q": paley_q}
    else:
        H = inductive_quad(d) if supernode == "iq" else bdf(d)
        params = {"q": q, "supernode": supernode, "d": int(d)}
    params["loops"] = int(loops)
    G = polarfly(q)
    f = H.meta["bijection"]
    extra = None
    if loops:
        pairs = paley_loop_matching(paley_q) if supernode == "paley" else loop_matching(f)
        a = G.meta["absolute_points"]
        extra = (a[:, None, None] * H.n + pairs[None, :, :]).reshape(-1, 2)
    P = star_product(G, H, f, name="polarstar", params=params, extra_edges=extra)
    P.meta["absolute_points"] = G.meta["absolute_points"]
    return P


polarstar.variant("polarstar-paley", preset={"supernode": "paley"}, symbol="ER_q * QR(q')",
                  summary="PolarStar ER_q * QR(q') (polarstar with supernode=paley)",
                  params={"q": Param(prime_power(2)), "paley_q": Param(PALEY_ORDER, symbol="q'"), "loops": _LOOPS},
                  forms=ClosedForms(star=((polarfly, {"q": "q"}), (paley, {"q": "paley_q"}))))
polarstar.variant("polarstar-iq", preset={"supernode": "iq"}, symbol="ER_q * IQ(d')",
                  summary="PolarStar ER_q * IQ(d) (polarstar with supernode=iq)",
                  params={"q": Param(prime_power(2)), "d": Param(RSTAR_DEGREE, symbol="d'"), "loops": _LOOPS},
                  forms=ClosedForms(star=((polarfly, {"q": "q"}), (inductive_quad, {"d": "d"}))))


@family("complete-paley", kind="product", summary="K_n * QR(q) (K_2 * QR(5) = Petersen)", symbol="K_n * QR(q)",
        diameter=2, params={"n": Param(integer(2)), "q": Param(PALEY_ORDER)},
        size=lambda n, q: _product_size(n, n * (n - 1) // 2, q, q * (q - 1) // 4, 100, FIELD_BASE_BYTES),  # 57/edge
        forms=ClosedForms(star=((complete, {"n": "n"}), (paley, {"q": "q"}))))
def complete_paley(n: int, q: int) -> StarProduct:
    """``K_n * QR(q)`` with ``f(x) = xi x`` on every arc; ``K_2 * QR(5)`` is the Petersen graph.

    Parameters
    ----------
    n : int
        Structure graph K_n, ``n >= 2``.
    q : int
        Prime power ``= 1 (mod 4)``.

    Returns
    -------
    StarProduct
        ``n q`` vertices, ``(n - 1 + (q-1)/2)``-regular.

    Raises
    ------
    ValueError
        If ``n < 2`` or ``q`` is not a prime power ``= 1 (mod 4)``.

    Examples
    --------
    >>> import networkx as nx
    >>> nx.is_isomorphic(complete_paley(2, 5).to_networkx(), nx.petersen_graph())
    True

    References
    ----------
    Example II-D.5 of Isham et al. (2025); docs/networks.md §7.
    """
    G = complete(n)
    H = paley(q)
    return star_product(G, H, H.meta["bijection"], name="complete-paley", params={"n": n, "q": H.params["q"]})


def _product_of(factors: list[ArrayGraph], name: str, params: dict) -> ArrayGraph:
    if len(factors) == 1:
        g = factors[0]
        return ArrayGraph(g.labels, g.edges, name=name, params=params, meta=dict(g.meta))
    rest = _product_of(factors[1:], name, {"sizes": ",".join(str(f.n) for f in factors[1:])})
    return cartesian_product(factors[0], rest, name=name, params=params)


@family("hyperx", kind="product", summary="HyperX K_{s1} x K_{s2} x ... (Cartesian product)",
        params={"sizes": Param(integers(2, note=", e.g. 4,4,4"))},
        size=lambda sizes: Size.of(math.prod(sizes), math.prod(sizes) * sum(v - 1 for v in sizes) // 2, 80, 400))
def hyperx(sizes: str | Sequence[int]) -> ArrayGraph:
    """HyperX ``K_{s1} □ K_{s2} □ ...`` as nested Cartesian (identity-bijection star) products.

    Parameters
    ----------
    sizes : str or sequence of int
        Side lengths (``"4,4,4"`` or ``[4, 4, 4]``), each ``>= 2``.

    Returns
    -------
    StarProduct
        ``K_{s1} □ HyperX(s2, ...)``, labels nested ``(i1, (i2, i3))``; a single size gives K_s.

    Raises
    ------
    ValueError
        If a size is not an integer ``>= 2``.

    Examples
    --------
    >>> g = hyperx("3,4")
    >>> g.n, g.m, g.degree_set()
    (12, 30, [5])

    References
    ----------
    Ahn et al., HyperX (SC'09); Definition II-B.1 of Isham et al. (2025) (Cartesian product).
    """
    return _product_of([complete(v) for v in sizes], "hyperx", {"sizes": ",".join(map(str, sizes))})


@family("torus", kind="product", summary="torus C_{s1} x C_{s2} x ... (Cartesian product)",
        params={"sizes": Param(integers(3, note=", e.g. 4,4"))},
        size=lambda sizes: Size.of(math.prod(sizes), math.prod(sizes) * len(sizes), 100, 500))  # 242/edge 600x600
def torus(sizes: str | Sequence[int]) -> ArrayGraph:
    """Torus ``C_{s1} □ C_{s2} □ ...`` as nested Cartesian (identity-bijection star) products.

    Parameters
    ----------
    sizes : str or sequence of int
        Ring lengths, each ``>= 3``.

    Returns
    -------
    StarProduct
        ``2k``-regular for ``k`` dimensions; a single size gives the cycle.

    Raises
    ------
    ValueError
        If a size is not an integer ``>= 3``.

    Examples
    --------
    >>> g = torus([4, 5])
    >>> g.n, g.m, g.degree_set()
    (20, 40, [4])

    References
    ----------
    Definition II-B.1 of Isham et al. (2025) (Cartesian product).
    """
    return _product_of([cycle(v) for v in sizes], "torus", {"sizes": ",".join(map(str, sizes))})


def chimera_colour(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Colour Chimera cells by 2x2 blocks: ``(i + j + i//2 + j//2) mod 2`` (0 = blue).

    Parameters
    ----------
    i, j : array_like of int
        Cell coordinates.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> chimera_colour(np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1])).tolist()
    [0, 1, 1, 0]

    References
    ----------
    The colouring of Appendix C of Isham et al. (2025), made precise in docs/networks.md §9.2 (the paper
    describes it in words; the formula is ours).
    """
    i = np.asarray(i)
    j = np.asarray(j)
    return (i + j + i // 2 + j // 2) % 2


def _chimera_check(params: dict[str, Any]) -> dict[str, Any]:
    """The sizes for which the 2x2-block colouring makes a Chimera the star product ``K_2 * H``."""
    rows, cols, toric = params["rows"], params["cols"], params["toric"]
    if toric:
        for nm, v in (("rows", rows), ("cols", cols)):
            if v % 4:
                raise ValueError(f"{nm}={v} is not a multiple of 4: the toric Chimera is a star product K_2 * H "
                                 "of the 2x2-block colouring only when both sizes are multiples of 4")
    else:
        a, b = rows // 2, cols // 2
        if (a - 1) * (b - 1) % 2:
            raise ValueError(f"rows={rows}, cols={cols}: C_({rows}x{cols}) is not a star product K_2 * H: "
                             f"(a-1)(b-1) = {(a - 1) * (b - 1)} is odd, so blue and red cells are not isomorphic")
    return params


#: A boundary cell of an odd-sized grid has no coupler to the other colour.
_EVEN_SIZE = "the Chimera C_(2a x 2b) is a star product K_2 * H only with"


@family("chimera", kind="product", summary="Chimera C_{rows x cols} as K_2 * (blue cells), when it is a star product",
        params={"rows": Param(integer(2, residues=(2, (0,)), needs=_EVEN_SIZE, note="(multiple of 4 if toric)")),
                "cols": Param(integer(2, residues=(2, (0,)), needs=_EVEN_SIZE,
                                      note="(multiple of 4 if toric); (rows/2-1)(cols/2-1) even")),
                "toric": Param(flag("wrap-around couplers"), False, 0)},
        size=lambda rows, cols, toric: Size.of(*chimera_counts(rows, cols, toric), 320, 400),  # 217-340/edge
        check=_chimera_check)
def chimera(rows: int, cols: int, toric: bool = False) -> StarProduct:
    """A Chimera graph as the star product ``K_2 * H`` (H = the blue cells), when it is one.

    Cells are coloured by :func:`chimera_colour`. Every vertex then has exactly one coupler to
    the other colour, and a colour-swapping automorphism sigma of the Chimera maps the blue
    subgraph H onto the red one: the reflection ``i -> rows-1-i`` if ``rows/2`` is odd, else
    ``j -> cols-1-j`` if ``cols/2`` is odd (planar), or the shift ``i -> i+2`` (torus). Product
    vertex ``(0, h)`` is blue vertex ``h``, ``(1, h)`` is ``sigma(h)``, and the arc bijection
    follows the couplers. ``meta["chimera_index"][v]`` is the index in
    :func:`starlib.factors.chimera` of product vertex ``v``.

    Parameters
    ----------
    rows, cols : int
        Even grid sizes ``2a x 2b``. Planar: a star product iff ``(a-1)(b-1)`` is even.
        Toric: rows and cols must be multiples of 4 (so the 2x2-block colouring wraps).
    toric : bool
        Wrap-around couplers.

    Returns
    -------
    StarProduct
        Structure K_2, a (generally disconnected) supernode on ``4 rows cols`` vertices.

    Raises
    ------
    ValueError
        If the Chimera is not a star product of this form (odd sizes, ``(a-1)(b-1)`` odd, or a
        torus whose sizes are not multiples of 4).

    Examples
    --------
    >>> P = chimera(2, 4)
    >>> P.n, P.m, P.supernode.n, P.supernode.m
    (64, 168, 32, 68)

    References
    ----------
    Appendix C of Isham et al. (2025); docs/networks.md §9.
    """
    C = chimera_graph_array(rows, cols, toric)
    lab = np.array(C.labels, dtype=np.int64)  # (n, 4): i, j, shore, k
    ci, cj, cs, ck = lab.T
    colour = chimera_colour(ci, cj)
    if toric:
        si, sj = (ci + 2) % rows, cj
    elif (rows // 2) % 2:
        si, sj = rows - 1 - ci, cj
    else:
        si, sj = ci, cols - 1 - cj
    sigma = ((si * cols + sj) * 2 + cs) * 4 + ck
    blue = np.flatnonzero(colour == 0)
    pos = np.full(C.n, -1, dtype=np.int64)
    pos[blue] = np.arange(blue.size)
    sigma_inv = np.empty_like(sigma)
    sigma_inv[sigma] = np.arange(C.n)
    u, v = C.edges[:, 0], C.edges[:, 1]
    both_blue = (colour[u] == 0) & (colour[v] == 0)
    H = ArrayGraph.from_edges([C.labels[t] for t in blue.tolist()],
                              np.stack([pos[u[both_blue]], pos[v[both_blue]]], axis=1),
                              name="chimera-supernode", params={"rows": rows, "cols": cols, "toric": int(toric)})
    cross = colour[u] != colour[v]
    bu = np.where(colour[u] == 0, u, v)[cross]
    rv = np.where(colour[u] == 0, v, u)[cross]
    f = np.full(blue.size, -1, dtype=np.int64)
    f[pos[bu]] = pos[sigma_inv[rv]]
    if bu.size != blue.size or np.any(f < 0):  # pragma: no cover - excluded by the parameter rules
        raise ValueError(f"rows={rows}, cols={cols}: the couplers between colours are not a perfect matching")
    P = star_product(complete(2), H, f, name="chimera", params={"rows": rows, "cols": cols, "toric": int(toric)},
                     allow_disconnected_supernode=True)
    P.meta["chimera_index"] = np.concatenate([blue, sigma[blue]])
    return P
