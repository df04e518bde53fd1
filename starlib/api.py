"""The small API of starlib: one obvious way to build a network, pack its trees, check them and write them out.

================================  ===================================================================================
function                          what
================================  ===================================================================================
:func:`network`                   a network by family name and parameters (``starlib networks`` lists them)
:func:`families`                  every family: the core library's, the super Cayley and the network-design ones
:func:`edsts`                     its edge-disjoint spanning trees by a method of :data:`~starlib.edst.METHODS`,
                                  verified before they are returned
:func:`verify`                    check any trees against any graph (:func:`~starlib.edst.verify_edsts`)
:func:`export`                    write a graph and its trees, in a format named or read off the file's suffix
:func:`read_network`              your own network from a file: GraphML, GML, an edge list, node-link JSON, a
                                  BookSim anynet file, starlib JSON (the format read off the suffix)
:func:`read`                      read any such file back whole (graph, trees, what made them)
:func:`repair`                    the maximum trees again after link failures, grown from the surviving ones
================================  ===================================================================================

Everything here is re-exported by :mod:`starlib` itself; :mod:`starlib.edst` keeps the full set of constructions
for power users. The heavy parts are imported when a function first needs them, so ``import starlib`` stays cheap.

Example
-------
>>> import starlib
>>> G = starlib.network("slimfly", q=5)              # Slim Fly MMS(5), the Hoffman-Singleton graph
>>> trees = starlib.edsts(G, method="maximum")      # Constructions V-C.4 to V-C.7: 3 trees
>>> len(trees), starlib.verify(G, trees).valid
(3, True)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the heavy modules load when a function first runs
    from .edst import EDSTSet, Repair, VerifyReport
    from .family import Family
    from .graphs import ArrayGraph, GraphLike
    from .io import NetworkFile

__all__ = ["network", "families", "edsts", "verify", "export", "read", "read_network", "repair", "SUFFIXES",
           "suffix_format"]

#: The format a file's suffix names, for :func:`export` and ``starlib export`` (any other suffix needs the format
#: named): ``.xml`` is the MSCCL algorithm file; a two-part suffix (``.infragraph.yaml``) is matched before its last
#: part.
SUFFIXES = {".json": "json", ".graphml": "graphml", ".gml": "gml", ".anynet": "anynet", ".edges": "edgelist",
            ".parents": "parents", ".xml": "msccl-xml", ".infragraph.yaml": "infragraph",
            ".infragraph.json": "infragraph"}


def suffix_format(path: str | os.PathLike, what: str = "path") -> str:
    """The output format the suffix of ``path`` names (:data:`SUFFIXES`, any case).

    Raises
    ------
    ValueError
        For a suffix that names no format, naming ``what`` (the argument), the path and the suffixes known.

    Examples
    --------
    >>> suffix_format("allreduce.XML"), suffix_format("t.graphml"), suffix_format("net.infragraph.yaml")
    ('msccl-xml', 'graphml', 'infragraph')
    >>> suffix_format("t.csv")
    Traceback (most recent call last):
    ...
    ValueError: path='t.csv': the suffix '.csv' names no format; give format= (suffixes: .json, .graphml, .gml, \
.anynet, .edges, .parents, .xml, .infragraph.yaml, .infragraph.json)
    """
    suffixes = [x.lower() for x in Path(path).suffixes]
    suffix = "".join(suffixes[-2:])
    if suffix not in SUFFIXES:
        suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        give = "format=" if what == "path" else "--format"
        raise ValueError(f"{what}={str(path)!r}: the suffix {suffix or '(none)'!r} names no format; give {give} "
                         f"(suffixes: {', '.join(SUFFIXES)})")
    return SUFFIXES[suffix]


def families() -> dict[str, Family]:
    """Every network family by name: the core library's, then the super Cayley and network-design ones.

    >>> fams = families()
    >>> "polarstar-iq" in fams and "star" in fams and "netdesign-tree" in fams
    True
    """
    from . import cayley, netdesign
    from .registry import NETWORK_FAMILIES

    return {**NETWORK_FAMILIES, **cayley.NETWORK_FAMILIES, **netdesign.NETWORK_FAMILIES}


def network(name: str, **params: Any) -> ArrayGraph:
    """The member of the family ``name`` with these parameters.

    Parameters
    ----------
    name : str
        A family name (:func:`families`; ``starlib networks`` on the command line lists them with their rules).
    **params
        The family's parameters (``q=7``).

    Returns
    -------
    ArrayGraph
        A :class:`~starlib.products.StarProduct` for the star-product networks, so that the constructions can read
        its factors; ``.to_networkx()`` converts it.

    Raises
    ------
    ValueError
        For an unknown family or parameter, a value against its rule, or a network estimated over the memory
        limit (:func:`~starlib.memory.limit_memory`), refused before anything is built.

    Examples
    --------
    >>> network("polarstar", q=3, d=3).n
    104
    >>> network("slimfly", q=6)
    Traceback (most recent call last):
    ...
    ValueError: q=6 is not a prime power
    """
    from .registry import get_family

    return get_family(name, families()).build(**params)


#: The options :func:`edsts` takes (the factor EDST sets of the constructions).
EDSTS_OPTIONS = ("g_trees", "h_trees")


def edsts(graph: GraphLike, method: str = "auto", **options: Any) -> EDSTSet:
    """Edge-disjoint spanning trees of ``graph`` by ``method``, verified before they are returned.

    Parameters
    ----------
    graph : ArrayGraph, StarProduct or networkx.Graph
        Any graph for ``"auto"``, ``"generic"`` and ``"shallow"`` (a networkx graph's trees are index arrays of its
        nodes in sorted order); a star product for the paper's constructions.
    method : str
        A key of :data:`starlib.edst.METHODS`: ``"auto"`` (Table I's construction; the maximum on any other graph),
        ``"shallow"`` (the most trees, then the least depth), ``"maximum"``, ``"twisted"`` (``maximum``'s count,
        depth linear in the factor depths), ``"property"``, ``"universal"``, ``"low-depth"``, ``"generic"`` (the
        exact packer), ``"optimal-depth"``.
    **options
        ``g_trees``, ``h_trees``: EDST sets of the factors, for the constructions.

    Returns
    -------
    EDSTSet
        Each tree tagged with its construction, root and depth.

    Raises
    ------
    ValueError
        For an unknown method or option (``k=2`` is not one: the method decides the count), or a method that
        does not apply to the graph.

    Example
    -------
    >>> import networkx as nx
    >>> len(edsts(nx.complete_graph(6)))                   # K_6: three Hamiltonian paths
    3
    >>> edsts(nx.complete_graph(6), k=2)
    Traceback (most recent call last):
    ...
    ValueError: k=2 is not an option of edsts (its options: g_trees, h_trees; the method decides how many trees)
    """
    from .edst import check_edsts, get_method
    from .edst.verify import check_tree_sequence
    from .validation import shorten

    unknown = sorted(set(options) - set(EDSTS_OPTIONS))
    if unknown:
        raise ValueError(f"{unknown[0]}={shorten(options[unknown[0]])} is not an option of edsts (its options: "
                         f"{', '.join(EDSTS_OPTIONS)}; the method decides how many trees)")
    for key in EDSTS_OPTIONS:
        if options.get(key) is not None:
            check_tree_sequence(options[key], key, "the factor's EDSTs (a list of Tree) or None")
    run = get_method(method)
    graph = run.checked(graph)  # the door: a networkx graph converted once, for the method and the verifier
    trees = run.build(graph, options.get("g_trees"), options.get("h_trees"))
    check_edsts(graph, trees, allow_empty=True)  # a construction may build none (Table I's count can be 0)
    return trees


def verify(graph: GraphLike, trees: Any) -> VerifyReport:
    """Whether ``trees`` are edge-disjoint spanning trees of ``graph`` (:func:`~starlib.edst.verify_edsts`).

    >>> import networkx as nx
    >>> verify(nx.cycle_graph(4), [[(0, 1), (1, 2), (2, 3)]]).valid
    True
    """
    from .edst import verify_edsts
    from .graphs import as_graph

    return verify_edsts(as_graph(graph, "graph"), trees)


def export(path: str | os.PathLike, graph: ArrayGraph, trees: Any = None, *, format: str | None = None,
           **options: Any) -> Path:
    """Write ``graph`` (and ``trees``) to ``path`` atomically, in ``format`` or the one its suffix names.

    Parameters
    ----------
    path : str or path
    graph : ArrayGraph or networkx.Graph
    trees : EDSTSet, optional
    format : str, optional
        A key of :data:`starlib.io.FORMATS`; by default read off the suffix (:data:`SUFFIXES`).
    **options
        The format's options (``nodes_per_router=4`` for ``anynet``) and what the run was (``network``,
        ``params``, ``extra``), which the formats that record it write.

    Raises
    ------
    ValueError
        For a suffix that names no format (give ``format=``), an unknown format or option, or a target that
        cannot be written (checked before anything is encoded).

    Example
    -------
    >>> import tempfile
    >>> G = network("torus", sizes="3,3")
    >>> p = export(Path(tempfile.mkdtemp()) / "torus.json", G, edsts(G))
    >>> read(p).trees is not None
    True
    >>> from starlib.io import replay_msccl
    >>> replay_msccl(export(p.with_name("allreduce.xml"), G, edsts(G)).read_bytes()).ranks   # MSCCL XML
    9
    """
    from .edst.verify import check_tree_sequence
    from .graphs import as_graph
    from .io import check_target
    from .io import write_format as write

    if not isinstance(path, str | os.PathLike) or not str(path):
        raise ValueError(f"path={path!r} is not a file path: need a str or os.PathLike naming the file to write")
    graph = as_graph(graph, "graph")
    if trees is not None:
        check_tree_sequence(trees, "trees", "an EDSTSet, a list of Tree objects or of (n-1, 2) arrays, or None")
    if format is None:
        format = suffix_format(path)
    check_target(path, "path")
    return write(path, format, graph, trees, **options)


def read(path: str | os.PathLike, format: str | None = None) -> NetworkFile:
    """A network file whole: its graph, its trees (where the format has them) and what made them.

    Any format of :data:`starlib.io.INPUT_FORMATS` (:func:`starlib.io.read_input`): starlib JSON (version 1 or 2),
    GraphML, GML or node-link JSON (with the trees of a ``tree`` edge attribute, as :func:`export` writes them),
    an edge list, a BookSim anynet file.

    Example
    -------
    >>> import tempfile
    >>> G = network("torus", sizes="3,3")
    >>> f = read(export(Path(tempfile.mkdtemp()) / "t.graphml", G, edsts(G)))
    >>> f.format, len(f.trees), f.graph.labels[:2]
    ('graphml', 2, [(0, 0), (0, 1)])
    """
    from .io import read_input

    return read_input(path, format)


def read_network(path: str | os.PathLike, format: str | None = None) -> ArrayGraph:
    """Your own network from a file, to give to :func:`edsts`, :func:`verify` and :func:`export`.

    Parameters
    ----------
    path : str or path
        A GraphML (``.graphml``), GML (``.gml``), edge-list (``.edges``, ``.edgelist``, ``.txt``), node-link or
        starlib JSON (``.json``) or BookSim anynet (``.anynet``) file.
    format : str, optional
        A key of :data:`starlib.io.INPUT_FORMATS`; by default read off the suffix.

    Returns
    -------
    ArrayGraph
        The vertices are the file's node ids, in the file's order (docs/formats.md §8); the graph remembers the
        file (``meta["input"]``), so :func:`export` names the vertices by those ids again. It is no star product:
        ``"auto"``, ``"generic"`` and ``"shallow"`` apply to it, the paper's constructions do not.

    Raises
    ------
    ValueError
        Naming the file and what is wrong (a missing or empty file, a folder or FIFO, a parse error, a self-loop,
        parallel links, duplicate node ids, fewer than two vertices, a file too large for the memory limit).

    Example
    -------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "k4.edges"
    >>> _ = p.write_text("a b\\na c\\na d\\nb c\\nb d\\nc d\\n")
    >>> G = read_network(p)
    >>> G.labels, len(edsts(G, method="shallow"))
    (['a', 'b', 'c', 'd'], 2)
    """
    return read(path, format).graph


def repair(graph: GraphLike, trees: Any, fail: Any, *, deep: bool | None = None, seed: int = 0) -> Repair:
    """The maximum EDSTs of ``graph`` after the links ``fail`` failed, grown from ``trees``, verified.

    Trees that lost no link are kept as they were; each damaged tree's cut subtrees are joined back by an unused
    link nearest the root; when that cannot restore the bound, the exact packer augments the damaged trees from the
    unused links, and only when the count cannot be reached so does it change a kept tree (one if one is enough;
    ``.changed`` names them). The count is the new maximum, certified (:func:`starlib.edst.repair_edsts`, whose
    module text has the details).

    Parameters
    ----------
    graph : ArrayGraph or networkx.Graph
        The network before the failures.
    trees : EDSTSet or sequence of trees
        Its edge-disjoint spanning trees (``read(path).trees``, :func:`edsts`).
    fail : sequence
        The failed links: each a text ``"U-V"`` (two vertex labels as the network's file writes them, joined by
        ``-``: ``"a-b"``, ``"3-17"``, ``"[[0,1],2]-[[1,1],0]"``) or a pair ``(U, V)`` of labels.
    deep : bool, optional
        Run the depth search (:func:`starlib.edst.improve_depth`) on the trees the repair made, never on the kept
        ones; by default (None) on networks of at most 200,000 links (``starlib.edst.repair.DEEP_LINKS``).
    seed : int
        Its seed.

    Returns
    -------
    Repair
        ``.graph`` the damaged network, ``.trees`` the family, ``.count_before``/``.count_after``,
        ``.depth_before``/``.depth_after``, the input trees ``.kept``, ``.reattached``, ``.changed`` and
        ``.dropped``, ``.upper_bound`` with ``.bound_kind`` and ``.certificate``, ``.summary()``.

    Raises
    ------
    ValueError
        For a label that names no vertex, an item that is no link, a pair that is no link, a link named twice, no
        link, no trees, a tree that is no pairs of integers; a ``deep`` that is no flag or a ``seed`` that is no
        integer >= 0.
    TypeError
        For ``trees`` that is no sequence of trees (None, a number, a text), naming ``trees``.

    Example
    -------
    >>> G = network("torus", sizes="3,3")
    >>> r = repair(G, edsts(G), ["[0,0]-[0,1]"])
    >>> r.count_before, r.count_after, r.bound_kind, verify(r.graph, r.trees).valid
    (2, 2, 'edges', True)
    """
    from .edst.repair import label_index, parse_link, repair_edsts
    from .graphs import as_graph
    from .validation import check_flag, check_int, shorten

    graph = as_graph(graph, "graph")
    deep = None if deep is None else check_flag(deep, "deep")
    seed = check_int(seed, "seed", 0, rule="an integer seed >= 0")
    if isinstance(fail, (str, bytes)) or not hasattr(fail, "__iter__"):
        raise ValueError(f"fail={fail!r} must be a list of links ('U-V' texts or (U, V) label pairs)")
    index, texts = graph.index(), None
    pairs = []
    for i, item in enumerate(fail):
        if isinstance(item, str):
            texts = label_index(graph.labels) if texts is None else texts
            pairs.append(parse_link(item, texts, "fail"))
            continue
        try:
            u, v = item
        except (TypeError, ValueError):
            raise ValueError(f"fail[{i}]={shorten(item)} is not a link: need a 'U-V' text or a (U, V) pair of "
                             f"vertex labels") from None
        for x in (u, v):
            try:
                known = x in index
            except TypeError:  # unhashable: a list where the labels are tuples
                known = False
            if not known:
                raise ValueError(f"fail: vertex {x!r} is not in the network" + (
                    " (labels are hashable; a list is not one: use a tuple)" if isinstance(x, list) else ""))
        pairs.append((index[u], index[v]))
    return repair_edsts(graph, trees, pairs, deep=deep, seed=seed)
