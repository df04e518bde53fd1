"""The networks of the paper over its parameter ranges, with measured and closed-form invariants.

:func:`paper_grid` lists (family, parameters) pairs for the families of Table IV and their
factors; :func:`build` builds one; :func:`invariants_table` builds every instance, measures
n, m, the degree set and the diameter (BFS), and sets them beside the closed forms of
:mod:`starlib.paper.formulas`. ``notebooks/01-star-products.ipynb`` writes the result to
``paper_tables/networks.*``.

Example
-------
>>> row = invariants_row("slimfly", {"q": 5})
>>> row["vertices"], row["edges"], row["degrees"], row["diameter"], row["agree"]
(50, 175, '7', 2, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd

from .. import networks
from ..graphs import ArrayGraph
from ..primes import is_prime_power
from ..registry import get_family
from .formulas import counts

__all__ = ["paper_grid", "build", "invariants_row", "invariants_table", "format_params", "parse_params_text",
           "hafner_to_star_labels"]

def format_params(params: dict[str, Any]) -> str:
    """``{"q": 3, "d": 7}`` -> ``"q=3 d=7"`` (the parameters column of every table).

    The ``KEY=VALUE`` words the command line takes, separated by spaces: a table row's network and parameters
    pasted after ``starlib info`` rebuild its network (``starlib info polarstar-iq q=3 d=7``).

    >>> format_params({"q": 3, "d": 7})
    'q=3 d=7'
    """
    return " ".join(f"{k}={v}" for k, v in params.items())


def parse_params_text(text: str) -> dict[str, str]:
    """Inverse of :func:`format_params`: ``"q=3 d=7"`` (or the older ``"q=3;d=7"``) -> ``{"q": "3", "d": "7"}``.

    >>> parse_params_text("q=4 paley_q=5"), parse_params_text("q=3;d=7")
    ({'q': '4', 'paley_q': '5'}, {'q': '3', 'd': '7'})
    """
    return dict(item.split("=", 1) for item in text.replace(";", " ").split())


def build(family: str, params: dict[str, Any]) -> ArrayGraph:
    """Build one instance of a family of :data:`starlib.registry.NETWORK_FAMILIES` (``"polarstar-iq"``, ...).

    >>> build("polarstar-iq", {"q": 3, "d": 3}).n
    104
    """
    return get_family(family).build(**params)


def _prime_powers(lo: int, hi: int, residues: Iterable[int] | None = None, mod: int = 4) -> list[int]:
    res = None if residues is None else set(residues)
    return [x for x in range(lo, hi + 1) if is_prime_power(x) and (res is None or x % mod in res)]


def paper_grid(q_max: int = 13, paley_max: int = 29, iq_max: int = 12, product_q_max: int = 5) -> list[tuple]:
    """(family, params) pairs covering the paper's families; sizes bounded by the arguments.

    Slim Fly and ER_q run over every admissible prime power ``q <= q_max``; the products over
    ``q <= product_q_max`` with Paley ``q' in {5, 9}`` and IQ ``d' in {3, 4, 7, 8}``.
    """
    mms_q = _prime_powers(3, q_max, residues={0, 1, 3})
    grid: list[tuple] = []
    grid += [("complete", {"n": n}) for n in (4, 5, 8)]
    grid += [("complete-bipartite", {"n": n}) for n in (3, 4, 5)]
    grid += [("paley", {"q": x}) for x in _prime_powers(5, paley_max, residues={1})]
    grid += [("mms-supernode", {"q": x}) for x in mms_q]
    grid += [("polarfly", {"q": x}) for x in _prime_powers(2, q_max)]
    grid += [("inductive-quad", {"d": x}) for x in range(3, iq_max + 1) if x % 4 in (0, 3)]
    grid += [("slimfly", {"q": x}) for x in mms_q]
    small_mms = [x for x in mms_q if x <= product_q_max]
    grid += [("bundlefly", {"q": x, "paley_q": y}) for x in small_mms for y in (5, 9)]
    er_q = _prime_powers(2, product_q_max)
    grid += [("polarstar-paley", {"q": x, "paley_q": y}) for x in er_q for y in (5, 9)]
    grid += [("polarstar-iq", {"q": x, "d": y}) for x in er_q for y in (3, 4, 7, 8)]
    grid += [("complete-paley", {"n": x, "q": y}) for x in (2, 3, 4) for y in (5, 9)]
    return grid


def invariants_row(family: str, params: dict[str, Any]) -> dict[str, Any]:
    """Build one instance; measure n, m, degree set, diameter; compare with the closed forms."""
    g = build(family, params)
    form = counts(family, **params)
    degs = g.degree_set()
    diam = g.diameter()
    want = get_family(family).diameter
    agree = (g.n == form["n"] and g.m == form["m"] and degs == form["degrees"]
             and (want is None or diam == want))
    return {"network": family, "parameters": format_params(params), "vertices": g.n, "edges": g.m,
            "degrees": ",".join(map(str, degs)), "diameter": diam,
            "formula_vertices": form["n"], "formula_edges": form["m"],
            "formula_degrees": ",".join(map(str, form["degrees"])),
            "expected_diameter": want, "agree": bool(agree)}


def invariants_table(grid: Iterable[tuple]) -> pd.DataFrame:
    """:func:`invariants_row` over a grid, as a frame in grid order."""
    df = pd.DataFrame([invariants_row(f, p) for f, p in grid])
    df["expected_diameter"] = df["expected_diameter"].astype("Int64")
    return df


def hafner_to_star_labels(q: int) -> dict:
    """The relabelling that maps Hafner's MMS(q) onto :func:`~starlib.networks.slimfly`, as a dict of labels.

    ``(0, x, y) -> ((0, x), y)`` and ``(1, m, c) -> ((1, m), xi^{-1} c)``, read off the vertex map that
    :func:`~starlib.networks.slimfly_hafner` carries (``.index``), so the check below tests that map against an
    independent construction of each side.

    >>> from starlib.networks import slimfly, slimfly_hafner
    >>> mp = hafner_to_star_labels(7)
    >>> {frozenset(map(mp.get, e)) for e in slimfly_hafner(7).edge_labels()} == set(
    ...     map(frozenset, slimfly(7).edge_labels()))
    True
    """
    H = networks.slimfly_hafner(q)
    P = H.product
    return {H.labels[i]: P.labels[v] for v, i in enumerate(H.index.tolist())}
