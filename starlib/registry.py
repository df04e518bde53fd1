"""The network families of the core library: one record per family, read by everything that names one.

A :class:`Family` holds a family's name (as on the command line and in every table of ``paper_tables/``), its
builder, its parameters with their rules, a one-line summary, the paper's notation for it and where the paper
defines it. The command line, the catalogue of the paper's networks, the closed forms and Table V all read
:data:`NETWORK_FAMILIES`; nothing else lists families. A *variant* is a family with some builder arguments
fixed (``polarstar-iq`` is :func:`~starlib.networks.polarstar` with ``supernode="iq"``), so that every name in a
table is also a name the command line builds.

The side domains keep their families in the same record type (``starlib.cayley.NETWORK_FAMILIES``,
``starlib.netdesign.NETWORK_FAMILIES``); the command line joins the three tables.

Example
-------
>>> fam = NETWORK_FAMILIES["polarstar-iq"]
>>> fam.params["d"].rule
'integer d >= 3, d = 0 or 3 (mod 4)'
>>> P = fam.build(q=3, d=3)
>>> P.n, P.params["supernode"]
(104, 'iq')
>>> build_spec("complete:n=4").m
6
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import factors, networks
from .graphs import ArrayGraph
from .memory import Size, check_size
from .primes import check_prime_power
from .products import StarProduct, cartesian_product
from .validation import check_int, parse_int, shorten

__all__ = ["Param", "Family", "family_table", "NETWORK_FAMILIES", "get_family", "parse_params", "build_spec",
           "cartesian", "spec_size"]


@dataclass(frozen=True)
class Param:
    """One parameter of a family: its type (int or str), the rule in words, a default, and the rule as a check.

    ``check(value, name)`` returns the value or raises the ``ValueError`` the builder raises (it is the
    validator the builder itself calls), so a parameter can be tested without building the graph.
    """

    type: type = int
    rule: str = ""
    default: Any = None
    required: bool = True
    check: Callable[[Any, str], Any] | None = None


@dataclass(frozen=True)
class Family:
    """A network family: ``build(**params)`` returns the graph.

    Attributes
    ----------
    name : the name on the command line and in the tables (``"slimfly"``).
    builder : the function that builds it.
    params : its parameters (name -> :class:`Param`), in the builder's order.
    summary : one line for listings.
    kind : ``"factor"``, ``"product"``, ``"network"``, ``"cayley"`` or ``"netdesign"``.
    preset : builder arguments fixed for this family (a variant of a more general builder).
    symbol : the paper's notation (``"MMS(q)"``, ``"QR(q')"``), empty if the paper has none.
    reference : where the paper defines it (``"App. B-B3"``).
    diameter : the diameter the paper states for every member, if it states one.
    size : ``size(**params) -> Size``, the estimate of vertices, edges and peak bytes from the parameters alone
        (:func:`~starlib.factors.factor_size`, :func:`~starlib.networks.network_size`, ...); read by
        :meth:`estimate` and :meth:`check_size`.
    """

    name: str
    builder: Callable[..., Any]
    params: Mapping[str, Param]
    summary: str
    kind: str = "network"
    preset: Mapping[str, Any] = field(default_factory=dict)
    symbol: str = ""
    reference: str = ""
    diameter: int | None = None
    size: Callable[..., Size] | None = None

    def _known(self, params: Mapping[str, Any]) -> None:
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"{unknown[0]} is not a parameter of {self.name} "
                             f"(parameters: {', '.join(self.params) or 'none'})")

    def build(self, **params: Any) -> Any:
        """The member with these parameters (unknown names are a ``ValueError``).

        The builder refuses, before allocating, a member over the memory limit in force
        (:func:`~starlib.memory.limit_memory` sets it; :meth:`check_size` says so without building).
        """
        self._known(params)
        return self.builder(**self.preset, **params)

    def estimate(self, params: Mapping[str, Any]) -> Size:
        """Vertices, edges and peak bytes of the member with these parameters, from the parameters alone.

        Parameters that break the family's rules give ``Size(0, 0, 0)`` (the builder reports them); a family
        without an estimate too.

        >>> s = NETWORK_FAMILIES["slimfly"].estimate({"q": 5})
        >>> s.n, s.m
        (50, 175)
        """
        self._known(params)
        return Size(0, 0, 0) if self.size is None else self.size(**self.preset, **params)

    def check_size(self, params: Mapping[str, Any], max_memory: int | None = None) -> Size:
        """:meth:`estimate`, refused with a ``ValueError`` naming the parameters, the estimate and the limit when
        the peak would exceed ``max_memory`` (default: :func:`~starlib.memory.memory_limit`).

        The command line calls it before building, with its ``--max-memory``.

        >>> NETWORK_FAMILIES["complete"].check_size({"n": 20000}, max_memory=2**33)
        Traceback (most recent call last):
        ...
        ValueError: n=20000 is too large: complete(n=20000) would have 20,000 vertices and 199,990,000 edges \
and need about 11.9 GiB at its peak, over the memory limit of 8.00 GiB
        """
        return check_size(self.estimate(params), params, self.name, max_memory)

    def admits(self, **params: Any) -> bool:
        """True if every given parameter passes its rule (parameters without a check pass; nothing is built).

        >>> fam = NETWORK_FAMILIES["paley"]
        >>> fam.admits(q=13), fam.admits(q=7), fam.admits(q=15)
        (True, False, False)
        """
        for name, value in params.items():
            p = self.params.get(name)
            if p is None:
                return False
            if p.check is not None:
                try:
                    p.check(value, name)
                except ValueError:
                    return False
        return True


def family_table(*records: Family) -> dict[str, Family]:
    """Records keyed by name, in the given order; a name given twice is a ``ValueError``.

    >>> list(family_table(Family("a", int, {}, "x"), Family("b", int, {}, "y")))
    ['a', 'b']
    """
    out: dict[str, Family] = {}
    for f in records:
        if f.name in out:
            raise ValueError(f"name={f.name!r} is given to two families")
        out[f.name] = f
    return out


def get_family(name: str, table: Mapping[str, Family] | None = None) -> Family:
    """Look up a family by name (in :data:`NETWORK_FAMILIES` unless ``table`` is given).

    Raises
    ------
    ValueError
        For an unknown name, listing the known ones.
    """
    fams = NETWORK_FAMILIES if table is None else table
    if name not in fams:
        import difflib

        close = difflib.get_close_matches(str(name), list(fams), n=3)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        known = ", ".join(sorted(fams)) if len(fams) <= 12 else f"starlib networks lists all {len(fams)}"
        raise ValueError(f"network={shorten(name)} is not a known family ({hint}{known})")
    return fams[name]


def _parse_value(key: str, text: str, kind: type) -> Any:
    if kind is str:
        return text
    if "," in text:
        raise ValueError(f"{key}={shorten(text)} must be a single integer (no commas)")
    return parse_int(text, key)  # ASCII digits only: int() would take '٥', '５', '1_3' and ' 5 '


def parse_params(family: Family, pairs: Sequence[str]) -> dict[str, Any]:
    """Turn ``KEY=VALUE`` words into keyword arguments for ``family``'s builder, checking the names.

    Integers are read by :func:`~starlib.validation.parse_int`: ASCII digits with an optional ``-``, at most
    40 digits (a longer value is "too large"); ``q=٥``, ``q=５``, ``q=1_3`` and ``q= 5`` are refused.

    Raises
    ------
    ValueError
        For a word that is not ``KEY=VALUE``, an unknown or repeated key, a value of the wrong type, or a
        missing required parameter (naming its rule).

    >>> parse_params(NETWORK_FAMILIES["complete"], ["n=5"])
    {'n': 5}
    """
    out: dict[str, Any] = {}
    for word in pairs:
        if not isinstance(word, str) or "=" not in word:
            raise ValueError(f"argument {shorten(word)} is not of the form KEY=VALUE")
        key, text = word.split("=", 1)
        if key not in family.params:
            known = ", ".join(family.params) or "none"
            raise ValueError(f"{key if len(key) <= 30 else shorten(key)} is not a parameter of {family.name} "
                             f"(parameters: {known})")
        if key in out:
            raise ValueError(f"{key} is given twice")
        out[key] = _parse_value(key, text, family.params[key].type)
    missing = [k for k, p in family.params.items() if p.required and k not in out]
    if missing:
        rules = "; ".join(f"{k}: {family.params[k].rule}" for k in missing)
        raise ValueError(f"{family.name} needs {', '.join(missing)} ({rules})")
    return out


def _spec(spec: Any, what: str) -> tuple[Family, dict[str, Any]]:
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"{what}={shorten(spec)} must be a family spec such as complete:n=4 or paley:q=5")
    name, _, rest = spec.partition(":")
    fam = get_family(name)
    return fam, parse_params(fam, [w for w in rest.split(",") if w])


def build_spec(spec: str, what: str = "spec") -> ArrayGraph:
    """Build a core family from ``"name:key=value,key=value"`` (``"paley:q=5"``); an undirected graph.

    Raises
    ------
    ValueError
        If the spec does not name a core family, its parameters break their rules, or the graph is directed.
    """
    fam, params = _spec(spec, what)
    g = fam.build(**params)
    if not isinstance(g, ArrayGraph) or g.directed:
        raise ValueError(f"{what}={spec!r} must name an undirected graph family")
    return g


def spec_size(spec: str, what: str = "spec") -> Size:
    """:meth:`Family.estimate` of a family spec (``"paley:q=5"``), nothing built.

    >>> s = spec_size("complete:n=4")
    >>> s.n, s.m
    (4, 6)
    """
    fam, params = _spec(spec, what)
    return fam.estimate(params)


def _cartesian_size(G: Any = None, H: Any = None, **_: Any) -> Size:
    """The factors' estimates, and the product: ``n_G n_H`` vertices, ``m_G n_H + n_G m_H`` edges, 100 bytes per
    edge and 300 per vertex (as the star-product networks)."""
    try:
        g, h = spec_size(G, "G"), spec_size(H, "H")
    except ValueError:
        return Size(0, 0, 0)
    return g.then(h).then(Size.of(g.n * h.n, g.m * h.n + g.n * h.m, 100, 300))


def cartesian(G: str, H: str) -> StarProduct:
    """Cartesian product ``G □ H`` of two core families given as specs (the command line's ``cartesian``).

    Parameters
    ----------
    G, H : str
        Family specs ``"name:key=value,key=value"``, e.g. ``"complete:n=4"``, ``"paley:q=5"``.

    Returns
    -------
    StarProduct
        The product with identity bijections (Section II-B of the paper: the Cartesian product is the star
        product with every bijection the identity).

    Examples
    --------
    >>> P = cartesian("complete:n=4", "complete:n=4")        # the 4x4 rook's graph
    >>> P.n, P.m, P.degree_set()
    (16, 48, [6])
    """
    check_size(_cartesian_size(G, H), {"G": G, "H": H}, "cartesian")
    return cartesian_product(build_spec(G, "G"), build_spec(H, "H"), name="cartesian", params={"G": G, "H": H})


def _at_least(minimum: int) -> Callable[[Any, str], int]:
    """The check ``(value, name) -> int`` of an integer ``>= minimum``."""
    return functools.partial(check_int, minimum=minimum)


def _factor(builder: str) -> Callable[..., Size]:
    """The size estimate of a builder of :mod:`starlib.factors` (:func:`~starlib.factors.factor_size`)."""
    return functools.partial(factors.factor_size, builder)


def _network(builder: str) -> Callable[..., Size]:
    """The size estimate of a builder of :mod:`starlib.networks` (:func:`~starlib.networks.network_size`)."""
    return functools.partial(networks.network_size, builder)


_PQ = Param(int, "prime power q >= 2", check=check_prime_power)
_MMS_Q = Param(int, "prime power q >= 3, q != 2 (mod 4)", check=factors.check_mms_order)
_PALEY_Q = Param(int, "prime power q' = 1 (mod 4)", check=factors.check_paley_order)
_RSTAR_D = Param(int, "integer d >= 3, d = 0 or 3 (mod 4)", check=factors.check_rstar_degree)
_LOOPS = Param(int, "0/1: add the absolute-point loop edges (network version)", default=0, required=False)
_TORIC = Param(int, "0/1: wrap-around couplers", default=0, required=False)

#: Every family of the core library, factors first, in display order.
NETWORK_FAMILIES: dict[str, Family] = family_table(
    # factor graphs (starlib.factors)
    Family("complete", factors.complete, {"n": Param(int, "integer n >= 2", check=_at_least(2))}, "complete graph K_n",
           kind="factor", size=_factor("complete"), symbol="K_n", reference="App. B-B4"),
    Family("complete-bipartite", factors.complete_bipartite, {"n": Param(int, "integer n >= 1", check=_at_least(1))},
           "complete bipartite graph K_{n,n}", kind="factor",
           size=_factor("complete_bipartite"), symbol="K_{q,q}", reference="App. B-B2"),
    Family("cycle", factors.cycle, {"n": Param(int, "integer n >= 3", check=_at_least(3))}, "cycle C_n", kind="factor",
           size=_factor("cycle")),
    Family("paley", factors.paley, {"q": Param(int, "prime power q = 1 (mod 4)", check=factors.check_paley_order)},
           "Paley graph QR(q)",
           kind="factor", size=_factor("paley"), symbol="QR(q')", reference="App. B-B1", diameter=2),
    Family("mms-supernode", factors.mms_supernode,
           {"q": _MMS_Q, "prime": Param(int, "0: C(X), 1: C(X')", default=0, required=False)},
           "MMS / Slim Fly supernode C(X) = Cay(GF(q), X)", kind="factor",
           size=_factor("mms_supernode"), symbol="C(X)", reference="App. B-B1"),
    Family("mms-supernode-prime", factors.mms_supernode, {"q": _MMS_Q},
           "MMS / Slim Fly supernode C(X') = Cay(GF(q), X')", kind="factor",
           size=_factor("mms_supernode"), preset={"prime": True},
           symbol="C(X')", reference="App. B-B1"),
    Family("polarfly", factors.polarfly,
           {"q": _PQ, "loops": Param(int, "0/1: record the q+1 absolute-point loops", default=0, required=False)},
           "Erdős–Rényi polarity graph ER_q (PolarFly)", kind="factor",
           size=_factor("polarfly"), symbol="ER_q", reference="App. B-B7",
           diameter=2),
    Family("inductive-quad", factors.inductive_quad, {"d": _RSTAR_D},
           "Inductive-Quad graph IQ(d) (R* supernode, 2d+2 vertices)", kind="factor",
           size=_factor("inductive_quad"), symbol="IQ(d')",
           reference="App. B-B6"),
    Family("bdf", factors.bdf, {"d": _RSTAR_D}, "'bdf' supernode of the PolarStar code (bdfGen; IQ parameters)",
           kind="factor", size=_factor("bdf"), symbol="BDF(d')", reference="App. B-B5"),
    Family("chimera-graph", factors.chimera,
           {"rows": Param(int, "integer rows >= 1 (>= 3 if toric)"),
            "cols": Param(int, "integer cols >= 1 (>= 3 if toric)"), "toric": _TORIC},
           "Chimera graph C_{rows x cols} (any size; not necessarily a star product)", kind="factor",
           size=_factor("chimera")),
    # networks (starlib.networks)
    Family("slimfly", networks.slimfly, {"q": _MMS_Q}, "Slim Fly MMS(q) = K_{q,q} * C(X) (affine bijections)",
           kind="product", size=_network("slimfly"), symbol="MMS(q)", reference="App. B-B3", diameter=2),
    Family("slimfly-hafner", networks.slimfly_hafner, {"q": _MMS_Q},
           "Slim Fly MMS(q) in Hafner's (0,x,y)/(1,m,c) form (relabelled K_{q,q} * C(X))", kind="network",
           size=_network("slimfly_hafner"),
           symbol="MMS(q)", reference="App. B-B3", diameter=2),
    Family("bundlefly", networks.bundlefly, {"q": _MMS_Q, "paley_q": _PALEY_Q}, "Bundlefly MMS(q) * QR(q')",
           kind="product", size=_network("bundlefly"), symbol="MMS(q) * QR(q')", reference="App. B-C2", diameter=3),
    Family("polarstar", networks.polarstar,
           {"q": _PQ, "supernode": Param(str, "paley | iq | bdf (default: paley if paley_q is given, iq if d is)",
                                           required=False),
            "paley_q": Param(int, "prime power q' = 1 (mod 4) (supernode=paley)", default=None, required=False),
            "d": Param(int, "integer d >= 3, d = 0 or 3 (mod 4) (supernode=iq|bdf)", default=None, required=False),
            "loops": _LOOPS},
           "PolarStar ER_q * QR(q') or ER_q * IQ(d)", kind="product",
           size=_network("polarstar"), reference="App. B-C3", diameter=3),
    Family("polarstar-paley", networks.polarstar, {"q": _PQ, "paley_q": _PALEY_Q, "loops": _LOOPS},
           "PolarStar ER_q * QR(q') (polarstar with supernode=paley)", kind="product",
           size=_network("polarstar"), preset={"supernode": "paley"},
           symbol="ER_q * QR(q')", reference="App. B-C3", diameter=3),
    Family("polarstar-iq", networks.polarstar, {"q": _PQ, "d": _RSTAR_D, "loops": _LOOPS},
           "PolarStar ER_q * IQ(d) (polarstar with supernode=iq)", kind="product",
           size=_network("polarstar"), preset={"supernode": "iq"},
           symbol="ER_q * IQ(d')", reference="App. B-C3", diameter=3),
    Family("complete-paley", networks.complete_paley,
           {"n": Param(int, "integer n >= 2", check=_at_least(2)),
            "q": Param(int, "prime power q = 1 (mod 4)", check=factors.check_paley_order)},
           "K_n * QR(q) (K_2 * QR(5) = Petersen)", kind="product",
           size=_network("complete_paley"), symbol="K_n * QR(q)", diameter=2),
    Family("cartesian", cartesian,
           {"G": Param(str, "family spec name:key=value,... e.g. complete:n=4"),
            "H": Param(str, "family spec name:key=value,... e.g. paley:q=5")},
           "Cartesian product G x H of two families (identity bijections)", kind="product", size=_cartesian_size),
    Family("hyperx", networks.hyperx, {"sizes": Param(str, "comma-separated integers >= 2, e.g. 4,4,4")},
           "HyperX K_{s1} x K_{s2} x ... (Cartesian product)", kind="product", size=_network("hyperx")),
    Family("torus", networks.torus, {"sizes": Param(str, "comma-separated integers >= 3, e.g. 4,4")},
           "torus C_{s1} x C_{s2} x ... (Cartesian product)", kind="product", size=_network("torus")),
    Family("chimera", networks.chimera,
           {"rows": Param(int, "even integer rows >= 2 (multiple of 4 if toric)"),
            "cols": Param(int, "even integer cols >= 2 (multiple of 4 if toric); (rows/2-1)(cols/2-1) even"),
            "toric": _TORIC},
           "Chimera C_{rows x cols} as K_2 * (blue cells), when it is a star product", kind="product",
           size=_network("chimera")),
)
