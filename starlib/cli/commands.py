"""The work behind each verb of the command line, apart from argument parsing and printing.

Each function takes plain values, raises ``ValueError`` for anything the user got wrong (the command line prints
its first line and exits with status 2), and imports the heavy parts of starlib only when it needs them, so
``starlib networks`` and ``starlib --help`` stay quick.

Example
-------
>>> g, params, fam = build_network("complete-paley", ["n=2", "q=5"])
>>> g.n, g.m, params, fam.name
(10, 15, {'n': 2, 'q': 5}, 'complete-paley')
>>> words(["q=3;d=3"])
['q=3', 'd=3']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..api import families
from ..family import Family
from ..graphs import ArrayGraph, jsonable
from ..registry import NETWORK_FAMILIES, get_family, parse_params

if TYPE_CHECKING:
    from ..io import NetworkFile

__all__ = ["words", "resolve", "build_network", "graph_info", "networks_json", "DIAMETER_WORK",
           "read_trees", "verify_file"]

#: ``info`` computes the diameter (a BFS from every vertex, ``n m`` steps) only up to this much work (about 10 s
#: on one core); ``--diameter`` computes it anyway.
DIAMETER_WORK = 3 * 10**8


def words(pairs: Sequence[str]) -> list[str]:
    """The ``KEY=VALUE`` words, with a word such as ``"q=3;d=3"`` (a table's parameters cell, quoted) split at ``;``.

    >>> words(["q=3", "paley_q=5;loops=1"])
    ['q=3', 'paley_q=5', 'loops=1']
    """
    return [w for word in pairs for w in (word.split(";") if ";" in word else [word])]


def resolve(name: str, pairs: Sequence[str], max_memory: int | None = None) -> tuple[Family, dict[str, Any]]:
    """The family and parameters named on the command line, checked (rules and estimated size), nothing built.

    >>> fam, params = resolve("polarstar", ["q=3", "d=3"])
    >>> fam.name, params, fam.estimate(params).n
    ('polarstar', {'q': 3, 'd': 3}, 104)
    """
    # the core families first: the super Cayley and network-design packages (pandas, ...) load only when named
    fam = NETWORK_FAMILIES[name] if name in NETWORK_FAMILIES else get_family(name, families())
    params = parse_params(fam, words(pairs))
    fam.check_size(params, max_memory)
    return fam, params


def build_network(name: str, pairs: Sequence[str], max_memory: int | None = None
                  ) -> tuple[ArrayGraph, dict[str, Any], Family]:
    """Build the named network from ``KEY=VALUE`` words; refuse it first if its estimated size exceeds the limit.

    Parameters
    ----------
    name : str
        A family name (``starlib networks`` lists them).
    pairs : sequence of str
        ``KEY=VALUE`` words (:func:`words`).
    max_memory : int, optional
        Bytes (default: the limit in force, a quarter of the machine's memory).

    Returns
    -------
    (graph, params, family)

    Raises
    ------
    ValueError
        Unknown family or parameter, a value breaking its rule, or a graph estimated over the memory limit.
    """
    fam, params = resolve(name, pairs, max_memory)
    try:
        graph = fam.build(**params)
    except TypeError as exc:  # a builder signature mismatch is a usage error, not a crash
        raise ValueError(f"{name}: {exc}") from None
    return graph, params, fam


def graph_info(graph: ArrayGraph, family: Family, params: dict[str, Any], diameter: bool | None = None
               ) -> dict[str, Any]:
    """What ``info`` reports: size, degrees, connectivity, diameter (or why it was skipped), the EDST bound.

    Parameters
    ----------
    graph : ArrayGraph
    family : Family
    params : dict
    diameter : bool, optional
        True: always compute the diameter; False: never; None: only when ``n m <= DIAMETER_WORK``.

    Returns
    -------
    dict
        JSON-ready; ``diameter`` is None and ``diameter_skipped`` says why when it was not computed.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> d = graph_info(slimfly(5), NETWORK_FAMILIES["slimfly"], {"q": 5})
    >>> d["n"], d["m"], d["diameter"], d["upper_bound"]
    (50, 175, 2, 3)
    """
    n, m = int(graph.n), int(graph.m)
    deg = graph.degrees()
    out: dict[str, Any] = {"network": family.name, "params": jsonable(params), "summary": family.summary,
                           "n": n, "m": m, "degree_min": int(deg.min()) if n else 0,
                           "degree_max": int(deg.max()) if n else 0, "regular": bool(n and deg.min() == deg.max()),
                           "directed": bool(graph.directed)}
    if not graph.directed and n >= 2:
        from ..bounds import upper_bound

        t = m // (n - 1)
        out.update(t=t, r=m - t * (n - 1), upper_bound=int(upper_bound(graph)))
    out["connected"] = bool(graph.is_connected())
    out["diameter"] = None
    work = n * max(m, 1)
    if not out["connected"]:
        out["diameter_skipped"] = "the graph is not connected (the diameter is infinite)"
    elif diameter is False:
        out["diameter_skipped"] = "--no-diameter was given"
    elif diameter or work <= DIAMETER_WORK:
        out["diameter"] = int(graph.diameter())
    else:
        out["diameter_skipped"] = (f"a BFS from each of {n:,} vertices over {m:,} links is {work:.1e} steps, over "
                                   f"the {DIAMETER_WORK:.0e} that info spends by default; --diameter computes it")
    if family.diameter is not None:
        out["paper_diameter"] = family.diameter
    return out


def networks_json(fams: dict[str, Family]) -> dict[str, Any]:
    """``networks --json``: every family with its kind, summary and parameters (type, rule, required, default).

    >>> d = networks_json({"paley": NETWORK_FAMILIES["paley"]})
    >>> d["networks"][0]["params"]["q"]["rule"]
    'prime power q = 1 (mod 4)'
    """
    return {"networks": [{"name": f.name, "kind": f.kind, "summary": f.summary,
                          "params": {k: {"type": p.type.__name__, "rule": p.text, "required": p.required,
                                         **({"default": jsonable(p.default)} if p.default is not None else {})}
                                     for k, p in f.params.items()}}
                         for f in sorted(fams.values(), key=lambda f: f.name)]}


def read_trees(path: str) -> NetworkFile:
    """Read a starlib JSON file (version 1 or 2) that must hold a non-empty family of trees of an undirected graph.

    Returns
    -------
    NetworkFile
        :class:`~starlib.io.json_format.NetworkFile` with ``trees`` set.

    Raises
    ------
    ValueError
        For a file that cannot be read or is not a starlib network file with trees (malformed JSON, a wrong
        shape, no ``trees``, an empty list of trees, a directed graph): a usage error, not an invalid family.
    """
    from ..io import read_json

    nf = read_json(path)
    source = f"file={str(path)!r}"
    if nf.trees is None:
        raise ValueError(f"{source} has no trees (a network file from build?): this needs the file edsts writes")
    if len(nf.trees) == 0:
        raise ValueError(f"{source} lists 0 trees: there is nothing to check")
    if nf.graph.directed:
        raise ValueError(f"{source} holds a directed graph: EDSTs are checked on undirected graphs")
    return nf


def verify_file(path: str) -> tuple[dict[str, Any], int]:
    """Read a starlib JSON file (version 1 or 2) and verify its trees; ``(verdict, status)``.

    Returns
    -------
    (dict, int)
        The verdict (``valid``, ``trees``, ``n``, ``m``, ``network``, ``params``, ``upper_bound``, ``problems``)
        and the exit status: 0 valid, 1 invalid trees.

    Raises
    ------
    ValueError
        For a file that cannot be read or is not a starlib network file with trees (malformed JSON, a wrong
        shape, no ``trees``, an empty list of trees): such a file is a usage error, not an invalid family.
    """
    from ..bounds import upper_bound
    from ..edst import verify_edsts

    nf = read_trees(path)
    g = nf.graph
    report = verify_edsts(g, nf.trees)
    verdict = {"file": str(path), "valid": bool(report.valid), "trees": len(nf.trees), "n": g.n, "m": g.m,
               "network": nf.network, "params": jsonable(nf.params), "version": nf.version,
               "upper_bound": int(upper_bound(g)) if g.n >= 2 else 0, "problems": list(report.problems)}
    return verdict, (0 if report.valid else 1)
