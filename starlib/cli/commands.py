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
>>> is_file("slimfly", None), is_file("my.graphml", None), is_file("slimfy", None)
(False, True, False)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..api import families
from ..family import Family
from ..graphs import ArrayGraph, jsonable
from ..memory import check_size, edst_size
from ..registry import NETWORK_FAMILIES, get_family, parse_params
from ..validation import shorten
from .text import params_text

if TYPE_CHECKING:
    from ..io import NetworkFile

__all__ = ["words", "resolve", "build_network", "graph_info", "networks_json", "DIAMETER_WORK", "is_file",
           "read_network", "source_extra", "require_edst_network", "require_star_product", "file_summary",
           "read_trees", "verify_file", "deepest", "depth_diameter", "DEPTH_DIAMETER_WORK", "OPTIMUM_WORK"]

#: ``info`` computes the diameter (a BFS from every vertex, ``n m`` steps) only up to this much work (about 10 s
#: on one core); ``--diameter`` computes it anyway.
DIAMETER_WORK = 3 * 10**8

#: ``info`` computes the cut ratio and the strength (:mod:`starlib.allreduce.optimum`: a minimum cut per vertex for
#: each, about ``n m`` steps apiece; PolarFly q=31, 1.6e7, takes about 3 s each on one core) only up to this much
#: work, which takes in the 1,000-router networks; ``--optimum`` computes them anyway.
OPTIMUM_WORK = 2 * 10**7

#: ``edsts`` compares its deepest tree with the diameter, found by BFS from every vertex up to this much work
#: (``n m`` steps: Slim Fly MMS(29), 6.1e7 steps, takes 0.1 s), above it the diameter the family declares (Slim Fly
#: 2, the other star products 3), else none (no comparison).
DEPTH_DIAMETER_WORK = 10**8


def words(pairs: Sequence[str]) -> list[str]:
    """The ``KEY=VALUE`` words, with a word such as ``"q=3;d=3"`` (a table's parameters cell, quoted) split at ``;``.

    >>> words(["q=3", "paley_q=5;loops=1"])
    ['q=3', 'paley_q=5', 'loops=1']
    """
    return [w for word in pairs for w in (word.split(";") if ";" in word else [word])]


def resolve(name: str, pairs: Sequence[str], max_memory: int | None = None, trees: bool = False
            ) -> tuple[Family, dict[str, Any]]:
    """The family and parameters named on the command line, checked (rules and estimated size, with the trees'
    packing and verification if ``trees``: :func:`~starlib.memory.edst_size`), nothing built.

    >>> fam, params = resolve("polarstar", ["q=3", "d=3"])
    >>> fam.name, params, fam.estimate(params).n
    ('polarstar', {'q': 3, 'd': 3}, 104)
    """
    # the core families first: the super Cayley and network-design packages (pandas, ...) load only when named
    fam = NETWORK_FAMILIES[name] if name in NETWORK_FAMILIES else get_family(name, families())
    params = parse_params(fam, words(pairs))
    if trees:
        size = fam.estimate(params)
        given = {k: v for k, v in params.items() if v is not None}
        if size.directed:  # known from the parameters: refused before a graph of n nodes is built
            raise ValueError(f"{fam.name} {params_text(given)}: the graph is directed "
                             f"(its generators are not closed under inverses); edge-disjoint spanning trees are taken "
                             f"on undirected networks (starlib info and build read directed ones)")
        check_size(edst_size(size), given, fam.name, max_memory)
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


def graph_info(graph: ArrayGraph, family: Family | None, params: dict[str, Any], diameter: bool | None = None,
               optimum: bool | None = None, *, source: NetworkFile | None = None,
               path: str | None = None) -> dict[str, Any]:
    """What ``info`` reports: size, degrees, connectivity, diameter (or why it was skipped), the EDST bound, and
    the cut ratio and strength of allreduce (:mod:`starlib.allreduce.optimum`; or why they were skipped).

    Parameters
    ----------
    graph : ArrayGraph
    family : Family or None
        The family it was built from (None for a network read from a file).
    params : dict
    diameter : bool, optional
        True: always compute the diameter; False: never; None: only when ``n m <= DIAMETER_WORK``.
    optimum : bool, optional
        True: always compute the cut ratio and the strength (unit links, every vertex a compute node); False:
        never; None: only when ``n m <= OPTIMUM_WORK``. Either way only for a connected undirected graph.
    source, path : NetworkFile, str, optional
        For a network read from a file: what was read, and the path as given (reported as ``file`` with the
        ``input_format``; ``network`` is the family the file names, if any).

    Returns
    -------
    dict
        JSON-ready; ``diameter`` is None and ``diameter_skipped`` says why when it was not computed;
        ``cut_ratio`` and ``strength`` are exact fractions ``"p/q"`` (``cut_ratio_float`` and ``strength_float``
        the same as floats), all four None and ``optimum_skipped`` saying why when they were not computed.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> d = graph_info(slimfly(5), NETWORK_FAMILIES["slimfly"], {"q": 5})
    >>> d["n"], d["m"], d["diameter"], d["upper_bound"], d["cut_ratio"], d["strength"]
    (50, 175, 2, 3, '7/1', '25/7')
    """
    n, m = int(graph.n), int(graph.m)
    deg = graph.degrees()
    name = family.name if family is not None else (source.network if source is not None else "")
    summary = family.summary if family is not None else (file_summary(source) if source is not None else "")
    out: dict[str, Any] = {"network": name, "params": jsonable(params), "summary": summary,
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
        try:
            out["diameter"] = int(graph.diameter())
        except ValueError:  # a digraph (read from a file) that is only weakly connected
            out["diameter_skipped"] = "not every vertex reaches every other along the arcs (the diameter is infinite)"
    else:
        out["diameter_skipped"] = (f"a BFS from each of {n:,} vertices over {m:,} links is {work:.1e} steps, over "
                                   f"the {DIAMETER_WORK:.0e} that info spends by default; --diameter computes it")
    out.update(_optimum(graph, out["connected"], optimum, work))
    if family is not None and family.diameter is not None:
        out["paper_diameter"] = family.diameter
    if source is not None:
        out.update(file=str(path), input_format=source.format)
    return out


def _optimum(graph: ArrayGraph, connected: bool, optimum: bool | None, work: int) -> dict[str, Any]:
    """The ``info`` keys ``cut_ratio``, ``strength`` (exact, ``"p/q"``), their floats, or ``optimum_skipped``."""
    out: dict[str, Any] = dict.fromkeys(("cut_ratio", "cut_ratio_float", "strength", "strength_float"))
    why = ("a directed graph (they are defined for networks of full-duplex links)" if graph.directed else
           "the graph is not connected (the cut ratio is infinite, the strength 0)" if not connected else
           "a single vertex" if graph.n < 2 else
           "--no-optimum was given" if optimum is False else
           None if optimum or work <= OPTIMUM_WORK else
           f"a minimum cut per vertex for each, {work:.1e} steps (n m), over the {OPTIMUM_WORK:.0e} that info spends "
           f"by default; --optimum computes them")
    if why is not None:
        out["optimum_skipped"] = why
        return out
    from ..allreduce.optimum import cut_ratio, strength

    for key, value in (("cut_ratio", cut_ratio(graph).value), ("strength", strength(graph).value)):
        out[key] = f"{value.numerator}/{value.denominator}"
        out[f"{key}_float"] = float(value)
    return out


def networks_json(fams: dict[str, Family]) -> dict[str, Any]:
    """``networks --json``: every family with its kind (and ``also``, the other kinds it belongs to), summary and
    parameters (type, rule, required, default).

    >>> d = networks_json({"paley": NETWORK_FAMILIES["paley"]})
    >>> d["networks"][0]["params"]["q"]["rule"]
    'prime power q = 1 (mod 4)'
    """
    return {"networks": [{"name": f.name, "kind": f.kind, **({"also": list(f.also)} if f.also else {}),
                          "summary": f.summary,
                          "params": {k: {"type": p.type.__name__, "rule": p.text, "required": p.required,
                                         **({"default": jsonable(p.default)} if p.default is not None else {})}
                                     for k, p in f.params.items()}}
                         for f in sorted(fams.values(), key=lambda f: f.name)]}


# -- networks from files -----------------------------------------------------------------------------------------------

def is_file(name: str, input_format: str | None) -> bool:
    """Whether the command line's ``NETWORK`` names a file rather than a family.

    A family name wins (a file named like a family is ``./slimfly``); then ``--input-format``, a path separator or
    a suffix (no family name has one) or an existing path make it a file. Anything else is a family name, and
    an unknown one is reported as such (with the nearest names).

    >>> is_file("torus", None), is_file("nets/ring", None), is_file("torus", "graphml")
    (False, True, True)
    """
    if input_format is not None:
        return True
    if name in NETWORK_FAMILIES or not name:
        return False
    if "/" in name or os.sep in name or Path(name).suffix:
        return True
    return os.path.lexists(name) and name not in families()


def read_network(path: str, pairs: Sequence[str] = (), input_format: str | None = None) -> NetworkFile:
    """Read the network a file holds (any format of :data:`starlib.io.INPUT_FORMATS`) for ``info``, ``build``,
    ``edsts``; ``KEY=VALUE`` words are refused (a file has no parameters).

    Raises
    ------
    ValueError
        Naming the file and what is wrong (:func:`starlib.io.read_input`), or the first ``KEY=VALUE`` word.

    Example
    -------
    >>> read_network("ring.graphml", ["q=5"])
    Traceback (most recent call last):
    ...
    ValueError: 'q=5': path='ring.graphml' is a network file, which takes no KEY=VALUE parameters
    """
    from ..io import read_input

    if pairs:
        raise ValueError(f"{shorten(pairs[0], 40)}: path={shorten(str(path), 200)} is a network file, which takes "
                         f"no KEY=VALUE parameters")
    return read_input(path, input_format)


def source_extra(nf: NetworkFile, path: str) -> dict[str, Any]:
    """What an output records about a network read from a file: the ``input`` file's name and its ``input_format``.

    The first file a network was read from: a starlib JSON file that records an ``input`` (it was converted from
    another file) passes it on.

    >>> from starlib.io import NetworkFile
    >>> source_extra(NetworkFile(None, None, extra={"input": "my.graphml", "input_format": "graphml"}), "t.json")
    {'input': 'my.graphml', 'input_format': 'graphml'}
    >>> source_extra(NetworkFile(None, None, "slimfly", {"q": 5}, 2, {"method": "auto"}), "runs/sf.json")
    {'input': 'sf.json', 'input_format': 'json'}
    """
    if "input" in nf.extra:
        return {"input": nf.extra["input"], "input_format": nf.extra.get("input_format", nf.format)}
    return {"input": Path(path).name, "input_format": nf.format}


def file_summary(nf: NetworkFile) -> str:
    """One line on what a network file holds, for ``info``: its format, and the family a starlib file names.

    >>> from starlib.io import NetworkFile
    >>> file_summary(NetworkFile(None, None, "slimfly", {"q": 5}))
    'a network read from json, a file of slimfly q=5'
    >>> file_summary(NetworkFile(None, None, "\x1b[2Jfake", {}))  # escaped: a file cannot drive the terminal
    'a network read from json, a file of \\\\x1b[2Jfake'
    """
    from ..validation import printable

    named = " ".join([printable(nf.network, 80), *(f"{printable(k, 40)}={printable(v, 60)}"
                                                   for k, v in nf.params.items())]).strip()
    return f"a network read from {nf.format}" + (f", a file of {named}" if named else "")


def require_edst_network(nf: NetworkFile, path: str) -> None:
    """Refuse a network read from a file that has no spanning tree: directed, or not connected (naming two vertices
    in different components).

    Raises
    ------
    ValueError
        ``path='...': the graph is not connected (...)``, or directed.

    Example
    -------
    >>> import numpy as np
    >>> from starlib.io import NetworkFile
    >>> two = NetworkFile(ArrayGraph.from_edges("abcd", np.array([[0, 1], [2, 3]])), None)
    >>> require_edst_network(two, "two.edges")
    Traceback (most recent call last):
    ...
    ValueError: path='two.edges': the graph is not connected (2 components; 'a' and 'c' are in different ones), so \
it has no spanning tree
    """
    g = nf.graph
    source = f"path={shorten(str(path), 200)}"
    if g.directed:
        raise ValueError(f"{source}: the graph is directed; edge-disjoint spanning trees are taken on undirected "
                         f"networks (starlib info and build read directed ones)")
    if not g.is_connected():
        from scipy.sparse import csgraph

        k, comp = csgraph.connected_components(g.adjacency(), directed=False)
        other = int((comp != comp[0]).argmax())
        raise ValueError(f"{source}: the graph is not connected ({k} components; {shorten(g.labels[0], 40)} and "
                         f"{shorten(g.labels[other], 40)} are in different ones), so it has no spanning tree")


def require_star_product(method: Any, path: str) -> None:
    """Refuse a method that needs a star product on a network read from a file, in one line that says why.

    >>> from starlib.edst import METHODS
    >>> require_star_product(METHODS["shallow"], "my.graphml")
    >>> require_star_product(METHODS["maximum"], "my.graphml")
    Traceback (most recent call last):
    ...
    ValueError: path='my.graphml': method='maximum' needs a star product, and a network read from a file is not \
one (only a network built by name carries its factors); use --method auto, generic or shallow
    """
    if method.product_only:
        raise ValueError(f"path={shorten(str(path), 200)}: method={method.name!r} needs a star product, and a "
                         f"network read from "
                         f"a file is not one (only a network built by name carries its factors); use --method auto, "
                         f"generic or shallow")


def read_trees(path: str, input_format: str | None = None) -> NetworkFile:
    """Read a file that must hold a non-empty family of trees of an undirected graph (``verify``, ``improve``).

    Any input format with trees (:data:`starlib.io.INPUT_FORMATS`): starlib JSON (version 1 or 2), and GraphML,
    GML or node-link JSON whose edges carry ``tree`` (as ``edsts --format graphml`` writes them).

    Returns
    -------
    NetworkFile
        :class:`~starlib.io.json_format.NetworkFile` with ``trees`` set.

    Raises
    ------
    ValueError
        For a file that cannot be read or is not a network file with trees (malformed, a wrong shape, no
        ``trees``, an empty list of trees, a directed graph, a format without trees): a usage error, not an
        invalid family.
    """
    from ..io import INPUT_FORMATS, read_input

    nf = read_input(path, input_format)
    source = f"file={shorten(str(path), 200)}"
    if nf.trees is None and not INPUT_FORMATS[nf.format].trees:
        raise ValueError(f"{source} is {nf.format}, a format without trees: this needs a file with trees (starlib "
                         f"JSON, or GraphML, GML or node-link JSON whose edges carry 'tree', as edsts writes them)")
    if nf.trees is None:
        raise ValueError(f"{source} has no trees (a network file from build?): this needs the file edsts writes")
    if len(nf.trees) == 0:
        raise ValueError(f"{source} lists 0 trees: there is nothing to check")
    if nf.graph.directed:
        raise ValueError(f"{source} holds a directed graph: EDSTs are checked on undirected graphs")
    return nf


def deepest(trees: Iterable[Any]) -> int:
    """The largest depth of a tree from its root (``improve``, ``edsts`` and ``verify`` report it); 0 for none.

    >>> import starlib
    >>> G = starlib.network("slimfly", q=5)
    >>> deepest(starlib.edsts(G, method="shallow")), deepest([])
    (4, 0)
    """
    return max((int(t.depth) for t in trees), default=0)


def depth_diameter(graph: ArrayGraph, family: Family | None) -> tuple[int | None, str]:
    """The diameter ``edsts`` compares its deepest tree with, and how it was found.

    By BFS from every vertex when ``n m <= DEPTH_DIAMETER_WORK``; else the diameter the family declares for every
    member (:attr:`starlib.family.Family.diameter`); else ``(None, why)``. A graph that is not connected has none.

    >>> from starlib.networks import slimfly
    >>> depth_diameter(slimfly(5), NETWORK_FAMILIES["slimfly"])
    (2, 'BFS from every vertex')
    >>> depth_diameter(slimfly(5), None)[0]
    2
    """
    n, m = int(graph.n), int(graph.m)
    if n * max(m, 1) <= DEPTH_DIAMETER_WORK:
        try:
            return int(graph.diameter()), "BFS from every vertex"
        except ValueError:  # not connected, or a digraph only weakly connected: no finite diameter
            return None, "the graph has no finite diameter"
    if family is not None and family.diameter is not None:
        return int(family.diameter), f"{family.name}'s closed form"
    return None, f"a BFS from each of {n:,} vertices is over {DEPTH_DIAMETER_WORK:.0e} steps"


def verify_file(path: str, input_format: str | None = None) -> tuple[dict[str, Any], int]:
    """Read a file of trees (:func:`read_trees`) and verify them; ``(verdict, status)``.

    Returns
    -------
    (dict, int)
        The verdict (``valid``, ``trees``, ``n``, ``m``, ``network``, ``params``, ``upper_bound``, ``problems``;
        ``input``, the name of the file the network was first read from, when it records one; ``max_depth``, the
        deepest tree's depth from its root, when valid) and the exit status: 0 valid, 1 invalid trees.

    Raises
    ------
    ValueError
        For a file that cannot be read or is not a starlib network file with trees (malformed JSON, a wrong
        shape, no ``trees``, an empty list of trees): such a file is a usage error, not an invalid family.
    """
    from ..bounds import upper_bound
    from ..edst import verify_edsts

    nf = read_trees(path, input_format)
    g = nf.graph
    report = verify_edsts(g, nf.trees)
    verdict = {"file": str(path), "valid": bool(report.valid), "trees": len(nf.trees), "n": g.n, "m": g.m,
               "network": nf.network, "params": jsonable(nf.params), "version": nf.version,
               "upper_bound": int(upper_bound(g)) if g.n >= 2 else 0, "problems": list(report.problems),
               **({"input": nf.extra["input"]} if "input" in nf.extra else {}),
               **({"max_depth": deepest(nf.trees)} if report.valid else {})}  # a broken tree has no depth
    return verdict, (0 if report.valid else 1)
