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
from .products import StarProduct, cartesian_product
from .validation import check_int, check_prime_power

__all__ = ["Param", "Family", "family_table", "NETWORK_FAMILIES", "get_family", "parse_params", "build_spec",
           "cartesian"]


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

    def build(self, **params: Any) -> Any:
        """The member with these parameters (unknown names are a ``ValueError``)."""
        unknown = sorted(set(params) - set(self.params))
        if unknown:
            raise ValueError(f"{unknown[0]} is not a parameter of {self.name} "
                             f"(parameters: {', '.join(self.params) or 'none'})")
        return self.builder(**self.preset, **params)

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
        raise ValueError(f"network={name!r} is not a known family (known: {', '.join(sorted(fams))})")
    return fams[name]


def _parse_value(key: str, text: str, kind: type) -> Any:
    if kind is str:
        return text
    parts = text.split(",")
    try:
        vals = [int(p) for p in parts]
    except ValueError:
        raise ValueError(f"{key}={text} is not an integer{' list' if len(parts) > 1 else ''}") from None
    if len(vals) != 1:
        raise ValueError(f"{key}={text} must be a single integer")
    return vals[0]


def parse_params(family: Family, pairs: Sequence[str]) -> dict[str, Any]:
    """Turn ``KEY=VALUE`` words into keyword arguments for ``family``'s builder, checking the names.

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
        if "=" not in word:
            raise ValueError(f"argument {word!r} is not of the form KEY=VALUE")
        key, text = word.split("=", 1)
        if key not in family.params:
            known = ", ".join(family.params) or "none"
            raise ValueError(f"{key} is not a parameter of {family.name} (parameters: {known})")
        if key in out:
            raise ValueError(f"{key} is given twice")
        out[key] = _parse_value(key, text, family.params[key].type)
    missing = [k for k, p in family.params.items() if p.required and k not in out]
    if missing:
        rules = "; ".join(f"{k}: {family.params[k].rule}" for k in missing)
        raise ValueError(f"{family.name} needs {', '.join(missing)} ({rules})")
    return out


def build_spec(spec: str, what: str = "spec") -> ArrayGraph:
    """Build a core family from ``"name:key=value,key=value"`` (``"paley:q=5"``); an undirected graph.

    Raises
    ------
    ValueError
        If the spec does not name a core family, its parameters break their rules, or the graph is directed.
    """
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"{what}={spec!r} must be a family spec such as complete:n=4 or paley:q=5")
    name, _, rest = spec.partition(":")
    fam = get_family(name)
    g = fam.build(**parse_params(fam, [w for w in rest.split(",") if w]))
    if not isinstance(g, ArrayGraph) or g.directed:
        raise ValueError(f"{what}={spec!r} must name an undirected graph family")
    return g


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
    return cartesian_product(build_spec(G, "G"), build_spec(H, "H"), name="cartesian", params={"G": G, "H": H})


def _at_least(minimum: int) -> Callable[[Any, str], int]:
    """The check ``(value, name) -> int`` of an integer ``>= minimum``."""
    return functools.partial(check_int, minimum=minimum)


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
           kind="factor", symbol="K_n", reference="App. B-B4"),
    Family("complete-bipartite", factors.complete_bipartite, {"n": Param(int, "integer n >= 1", check=_at_least(1))},
           "complete bipartite graph K_{n,n}", kind="factor", symbol="K_{q,q}", reference="App. B-B2"),
    Family("cycle", factors.cycle, {"n": Param(int, "integer n >= 3", check=_at_least(3))}, "cycle C_n", kind="factor"),
    Family("paley", factors.paley, {"q": Param(int, "prime power q = 1 (mod 4)", check=factors.check_paley_order)},
           "Paley graph QR(q)",
           kind="factor", symbol="QR(q')", reference="App. B-B1", diameter=2),
    Family("mms-supernode", factors.mms_supernode,
           {"q": _MMS_Q, "prime": Param(int, "0: C(X), 1: C(X')", default=0, required=False)},
           "MMS / Slim Fly supernode C(X) = Cay(GF(q), X)", kind="factor", symbol="C(X)", reference="App. B-B1"),
    Family("mms-supernode-prime", factors.mms_supernode, {"q": _MMS_Q},
           "MMS / Slim Fly supernode C(X') = Cay(GF(q), X')", kind="factor", preset={"prime": True},
           symbol="C(X')", reference="App. B-B1"),
    Family("polarfly", factors.polarfly,
           {"q": _PQ, "loops": Param(int, "0/1: record the q+1 absolute-point loops", default=0, required=False)},
           "Erdős–Rényi polarity graph ER_q (PolarFly)", kind="factor", symbol="ER_q", reference="App. B-B7",
           diameter=2),
    Family("inductive-quad", factors.inductive_quad, {"d": _RSTAR_D},
           "Inductive-Quad graph IQ(d) (R* supernode, 2d+2 vertices)", kind="factor", symbol="IQ(d')",
           reference="App. B-B6"),
    Family("bdf", factors.bdf, {"d": _RSTAR_D}, "'bdf' supernode of the PolarStar code (bdfGen; IQ parameters)",
           kind="factor", symbol="BDF(d')", reference="App. B-B5"),
    Family("chimera-graph", factors.chimera,
           {"rows": Param(int, "integer rows >= 1 (>= 3 if toric)"),
            "cols": Param(int, "integer cols >= 1 (>= 3 if toric)"), "toric": _TORIC},
           "Chimera graph C_{rows x cols} (any size; not necessarily a star product)", kind="factor"),
    # networks (starlib.networks)
    Family("slimfly", networks.slimfly, {"q": _MMS_Q}, "Slim Fly MMS(q) = K_{q,q} * C(X) (affine bijections)",
           kind="product", symbol="MMS(q)", reference="App. B-B3", diameter=2),
    Family("slimfly-hafner", networks.slimfly_hafner, {"q": _MMS_Q},
           "Slim Fly MMS(q) in Hafner's (0,x,y)/(1,m,c) form (relabelled K_{q,q} * C(X))", kind="network",
           symbol="MMS(q)", reference="App. B-B3", diameter=2),
    Family("bundlefly", networks.bundlefly, {"q": _MMS_Q, "paley_q": _PALEY_Q}, "Bundlefly MMS(q) * QR(q')",
           kind="product", symbol="MMS(q) * QR(q')", reference="App. B-C2", diameter=3),
    Family("polarstar", networks.polarstar,
           {"q": _PQ, "supernode": Param(str, "paley | iq | bdf", default="paley", required=False),
            "paley_q": Param(int, "prime power q' = 1 (mod 4) (supernode=paley)", default=None, required=False),
            "d": Param(int, "integer d >= 3, d = 0 or 3 (mod 4) (supernode=iq|bdf)", default=None, required=False),
            "loops": _LOOPS},
           "PolarStar ER_q * QR(q') or ER_q * IQ(d)", kind="product", reference="App. B-C3", diameter=3),
    Family("polarstar-paley", networks.polarstar, {"q": _PQ, "paley_q": _PALEY_Q, "loops": _LOOPS},
           "PolarStar ER_q * QR(q') (polarstar with supernode=paley)", kind="product", preset={"supernode": "paley"},
           symbol="ER_q * QR(q')", reference="App. B-C3", diameter=3),
    Family("polarstar-iq", networks.polarstar, {"q": _PQ, "d": _RSTAR_D, "loops": _LOOPS},
           "PolarStar ER_q * IQ(d) (polarstar with supernode=iq)", kind="product", preset={"supernode": "iq"},
           symbol="ER_q * IQ(d')", reference="App. B-C3", diameter=3),
    Family("complete-paley", networks.complete_paley,
           {"n": Param(int, "integer n >= 2", check=_at_least(2)),
            "q": Param(int, "prime power q = 1 (mod 4)", check=factors.check_paley_order)},
           "K_n * QR(q) (K_2 * QR(5) = Petersen)", kind="product", symbol="K_n * QR(q)", diameter=2),
    Family("cartesian", cartesian,
           {"G": Param(str, "family spec name:key=value,... e.g. complete:n=4"),
            "H": Param(str, "family spec name:key=value,... e.g. paley:q=5")},
           "Cartesian product G x H of two families (identity bijections)", kind="product"),
    Family("hyperx", networks.hyperx, {"sizes": Param(str, "comma-separated integers >= 2, e.g. 4,4,4")},
           "HyperX K_{s1} x K_{s2} x ... (Cartesian product)", kind="product"),
    Family("torus", networks.torus, {"sizes": Param(str, "comma-separated integers >= 3, e.g. 4,4")},
           "torus C_{s1} x C_{s2} x ... (Cartesian product)", kind="product"),
    Family("chimera", networks.chimera,
           {"rows": Param(int, "even integer rows >= 2 (multiple of 4 if toric)"),
            "cols": Param(int, "even integer cols >= 2 (multiple of 4 if toric); (rows/2-1)(cols/2-1) even"),
            "toric": _TORIC},
           "Chimera C_{rows x cols} as K_2 * (blue cells), when it is a star product", kind="product"),
)
