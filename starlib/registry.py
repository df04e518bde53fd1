"""The network families of the core library, collected from their declarations; read by everything that names one.

Each family is declared once, beside its builder, with :func:`~starlib.family.family`: the factor graphs in
:mod:`starlib.factors`, the networks in :mod:`starlib.networks`, the standard networks they are compared with in
:mod:`starlib.standard`, and here the Cartesian product of two families given as specs. :data:`NETWORK_FAMILIES`
collects them in the order of their declarations (factors first). The command line, the catalogue of the paper's
networks, the closed forms, Table V and the memory guard read it. A *variant* is a family with some builder
arguments fixed (``polarstar-iq`` is :func:`~starlib.networks.polarstar` with ``supernode="iq"``), so that every
name in a table is also a name the command line builds.

The side domains declare their families the same way (``starlib.cayley.NETWORK_FAMILIES``,
``starlib.netdesign.NETWORK_FAMILIES``); the command line joins the three tables.

Example
-------
>>> fam = NETWORK_FAMILIES["polarstar-iq"]
>>> fam.params["d"].text
'integer d >= 3, d = 0 or 3 (mod 4)'
>>> P = fam.build(q=3, d=3)
>>> P.n, P.params["supernode"]
(104, 'iq')
>>> build_spec("complete:n=4").m
6
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from . import factors, networks, standard
from .family import Family, Param, custom, declared_in, family, family_table
from .graphs import ArrayGraph
from .memory import Size
from .products import StarProduct, cartesian_product
from .validation import parse_int, shorten

__all__ = ["NETWORK_FAMILIES", "get_family", "parse_params", "build_spec", "cartesian", "spec_size"]


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
        rules = "; ".join(f"{k}: {family.params[k].text}" for k in missing)
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


def _check_spec(value: Any, name: str) -> str:
    """A family spec whose family and parameters exist and pass their rules (nothing is built)."""
    fam, params = _spec(value, name)
    fam.checked(params)
    return value


def _cartesian_size(G: str, H: str) -> Size:
    """The factors' estimates, and the product: ``n_G n_H`` vertices, ``m_G n_H + n_G m_H`` edges, 100 bytes per
    edge and 300 per vertex (as the star-product networks)."""
    g, h = spec_size(G, "G"), spec_size(H, "H")
    return g.then(h).then(Size.of(g.n * h.n, g.m * h.n + g.n * h.m, 100, 300))


_SPEC = "family spec name:key=value,..."


@family("cartesian", kind="product", summary="Cartesian product G x H of two families (identity bijections)",
        params={"G": Param(custom(f"{_SPEC} e.g. complete:n=4", _check_spec)),
                "H": Param(custom(f"{_SPEC} e.g. paley:q=5", _check_spec))},
        size=_cartesian_size)
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


#: Every family of the core library, in the order of their declarations: factors, networks, the standard networks,
#: the Cartesian product.
NETWORK_FAMILIES: dict[str, Family] = family_table(declared_in(factors), declared_in(networks), declared_in(standard),
                                                   declared_in(sys.modules[__name__]))
