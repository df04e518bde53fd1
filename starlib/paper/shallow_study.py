"""Notebook 13, "Maximum and shallow": count and depth of every method's EDSTs per network, the lower bound, the
Pareto front of count against depth, and the allreduce model re-evaluated on the shallow families.

* :func:`shallow_row` builds, for one network, the paper's construction (Table I's :func:`~starlib.edst.auto_trees`
  on a star product; the Hamiltonian paths of Appendix B-B7 on ``ER_q``), the exact packer's family (when its
  estimated time is within a budget), and :func:`~starlib.edst.depth.shallow_trees`; it verifies each, measures
  each tree's depth from its stated root (:func:`measured_depths`, a BFS in the tree independent of the
  construction), and adds the lower bound :func:`~starlib.edst.depth.depth_lower_bound` and the gap.
* :func:`method_families` and :func:`pareto_front` give the points of the count-depth figure: every method's
  family, the same family after the local search, one BFS tree at a centre, and the front of what can be built
  (a family of ``k`` trees also gives ``c < k`` trees: its ``c`` shallowest).
* :func:`allreduce_rows` evaluates notebook 08's pipelined allreduce model on one BFS tree, the paper's family and
  the shallow one.

Example
-------
>>> from starlib.networks import slimfly
>>> row = shallow_row("slimfly", {"q": 5}, slimfly(5))
>>> row["shallow_trees"] == row["upper_bound"], row["shallow_depth"] >= row["lower_bound"]
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import allreduce as ar
from ..bounds import upper_bound
from ..edst import EDSTSet, Tree, auto_trees, check_edsts, generic_trees, verify_edsts
from ..edst.depth import (
    coupled_depth_bound,
    depth_lower_bound,
    er_depth3_trees,
    er_shallow_trees,
    improve_depth,
)
from ..edst.factor.er import er_edst_bound, er_edsts, er_order
from ..edst.packing import generic_seconds
from ..edst.trees import bfs_tree
from ..graphs import ArrayGraph
from .catalog import format_params
from .shallow_record import SEED_ROUTERS, SEEDS, seeded_family, table_starts

__all__ = ["measured_depths", "paper_family", "shallow_row", "ROW_COLUMNS", "method_families", "pareto_front",
           "front_rows", "allreduce_rows", "bfs_family", "er_shallow_row", "read_certificates", "depth_status",
           "small_depth_rows", "SMALL_COLUMNS"]

#: The columns of ``paper_tables/maximum_shallow.csv``, in order.
ROW_COLUMNS = ("network", "parameters", "n", "links", "diameter", "upper_bound", "paper", "paper_trees",
               "paper_depth", "generic_trees", "generic_depth", "shallow_trees", "shallow_depth", "shallow_mean_depth",
               "shallow_start", "maximum_known", "lower_bound", "proved_lower", "certificate", "gap", "depth_status",
               "target", "within_target")

#: The columns of ``paper_tables/depth_exact_small.csv``, in order.
SMALL_COLUMNS = ("name", "n", "m", "k", "lower_bound", "coupled_bound", "start_depth", "optimum", "proved_lower",
                 "status")


def read_certificates(path: str | Path | Any) -> dict[tuple[str, str], dict[str, Any]]:
    """The committed CP-SAT depth certificates (``data/depth_certificates.csv``), by (network, parameters).

    Each row states the depths CP-SAT refuted on its model and the proved lower bound ``proved_lower``
    (:mod:`starlib.paper.depth_certificates`; a test re-checks the record).

    Example
    -------
    >>> import io
    >>> text = "network,parameters,k,proved_lower,refuted,unknown|slimfly,q=5,3,4,3,".replace("|", chr(10))
    >>> c = read_certificates(io.StringIO(text))
    >>> c[("slimfly", "q=5")]["proved_lower"], c[("slimfly", "q=5")]["refuted"]
    (4, '3')
    """
    frame = pd.read_csv(path, dtype={"refuted": str, "unknown": str}, keep_default_na=False)
    return {(r["network"], r["parameters"]): r for r in frame.to_dict("records")}


def depth_status(depth: int, lower: int) -> str:
    """``"optimal"`` when a family's depth meets the proved lower bound, else ``"gap N"``.

    >>> depth_status(3, 3), depth_status(5, 4)
    ('optimal', 'gap 1')
    """
    return "optimal" if depth == lower else f"gap {depth - lower}"


def small_depth_rows(*, time_limit: float = 10.0, seed: int = 0) -> list[dict[str, Any]]:
    """The small instances the exact solver settles (:func:`~starlib.edst.depth.settle_small`), with the coupled
    bound (:func:`~starlib.edst.depth.coupled_depth_bound`) beside the per-tree one; no wall-clock column.

    Example
    -------
    >>> from starlib.edst.depth import small_instances
    >>> rows = small_depth_rows()
    >>> r = rows[0]
    >>> r["name"], r["lower_bound"], r["coupled_bound"], r["optimum"], r["status"]
    ('K_{3,4}', 2, 3, 3, 'optimal')
    """
    from ..edst.depth import settle_small, small_instances

    out = []
    for inst, row in zip(small_instances(), settle_small(time_limit=time_limit, seed=seed), strict=True):
        row["coupled_bound"] = int(coupled_depth_bound(inst.build(), inst.k).value)
        out.append({c: row[c] for c in SMALL_COLUMNS})
    return out


def measured_depths(graph: ArrayGraph | None, trees: Sequence[Tree]) -> list[int]:
    """Each tree's depth from its stated root, by a BFS in the tree (independent of the construction's record).

    Example
    -------
    >>> import numpy as np
    >>> measured_depths(None, [Tree(np.array([[0, 1], [1, 2]]), 0, n=3)])
    [2]
    """
    return [int(ar.tree_height(t.n, t.edges, t.root)) for t in trees]


def paper_family(family: str, params: Mapping[str, Any], graph: ArrayGraph) -> tuple[str, EDSTSet]:
    """The paper's construction for a network: ``("hamiltonian", paths)`` for ``ER_q``, else ``("auto", Table I)``.

    Example
    -------
    >>> from starlib.factors import polarfly
    >>> name, T = paper_family("polarfly", {"q": 5}, polarfly(5))
    >>> name, len(T), max(T.depths())
    ('hamiltonian', 3, 15)
    """
    if family == "polarfly":
        return "hamiltonian", er_edsts(int(params["q"]), "hamiltonian", graph=graph)
    return "auto", auto_trees(graph)


def shallow_row(family: str, params: Mapping[str, Any], graph: ArrayGraph, *, generic_max_seconds: float = 30.0,
                exact_max_seconds: float | None = None, seed: int = 0, seeds: int = SEEDS,
                seed_routers: int = SEED_ROUTERS, certificate: Mapping[str, Any] | None = None,
                shallow: EDSTSet | None = None) -> dict[str, Any]:
    """One row of the "maximum and shallow" table (columns :data:`ROW_COLUMNS`).

    Parameters
    ----------
    family, params : the network's family name and parameters (for the first two columns).
    graph : the network.
    generic_max_seconds : run the exact packer, for the ``generic`` columns and as a start of the shallow family,
        only when its estimated time (:func:`~starlib.edst.packing.generic_seconds`) is at most this; otherwise
        the ``generic`` columns hold -1.
    exact_max_seconds : the larger budget for the exact packer where the other families are below the upper bound
        and only the exact packer can tell the maximum (default ``generic_max_seconds``).
    seed : the local search's (first) seed.
    seeds, seed_routers : the seed rule of :func:`~starlib.paper.shallow_record.seeded_family` (a network of at most
        ``seed_routers`` routers whose family is :data:`~starlib.paper.shallow_record.SEED_GAP` or more levels
        above the counting bound also tries the next ``seeds - 1`` seeds), for a family searched here.
    certificate : the network's row of the committed CP-SAT certificates (:func:`read_certificates`), if any: its
        ``proved_lower`` raises the lower bound where CP-SAT refuted a depth for this count.
    shallow : the shallow family as :func:`~starlib.paper.shallow_record.seeded_family` gives it for these
        settings, read from the committed record (:func:`~starlib.paper.shallow_record.recorded_family`); None
        runs the search (:func:`~starlib.paper.shallow_record.seeded_family`). Either way the family is verified,
        and its count must be the starts' count.

    Returns
    -------
    dict
        Counts and maximum depths (measured from the stated roots) of the paper's, the exact packer's and the
        shallow family; the shallow family's mean depth and starting family; ``maximum_known`` (the shallow count
        equals the upper bound, or the exact packer ran); the lower bound for the shallow count, the gap
        ``shallow_depth - proved_lower`` (``proved_lower``: the counting bound, or CP-SAT's where its certificate
        is higher; ``certificate`` names which), ``depth_status`` (``optimal`` or ``gap N``), the target
        ``2 diameter + 1`` and whether the shallow depth meets it. Every family is verified (a ``ValueError``
        otherwise).
    """
    ecc = graph.eccentricities()
    diameter = int(ecc.max())
    paper_name, paper = paper_family(family, params, graph)
    starts = table_starts(graph, generic_max_seconds=generic_max_seconds, exact_max_seconds=exact_max_seconds,
                          seed=seed)
    if shallow is None:
        shallow, _ = seeded_family(graph, generic_max_seconds=generic_max_seconds,
                                   exact_max_seconds=exact_max_seconds, seed=seed, seeds=seeds,
                                   seed_routers=seed_routers, starts=starts)
    elif len(shallow) != len(starts[0].trees) or shallow[0].meta.get("start") not in {s.name for s in starts}:
        raise ValueError(f"shallow: {len(shallow)} trees from {shallow[0].meta.get('start')!r}, but the starts "
                         f"give {len(starts[0].trees)} from {[s.name for s in starts]} (a stale record)")
    generic = next((s.trees for s in starts if s.name == "generic"), None)
    if generic is None and generic_seconds(int(graph.m)) <= generic_max_seconds:
        generic = generic_trees(graph)
    families = {"paper": paper, "shallow": shallow} | ({"generic": generic} if generic is not None else {})
    depths = {}
    for name, fam in families.items():
        check_edsts(graph, fam)
        depths[name] = measured_depths(graph, fam)
    lb = int(depth_lower_bound(graph, len(shallow)).value)
    proved, how = lb, "counting"
    if certificate is not None and int(certificate["k"]) == len(shallow) and int(certificate["proved_lower"]) > lb:
        proved, how = int(certificate["proved_lower"]), "CP-SAT"
    sd = depths["shallow"]
    target = 2 * diameter + 1
    bound = int(upper_bound(graph))
    return {"network": family, "parameters": format_params(dict(params)), "n": int(graph.n), "links": int(graph.m),
            "diameter": diameter, "upper_bound": bound, "paper": paper_name,
            "paper_trees": len(paper), "paper_depth": max(depths["paper"]),
            "generic_trees": len(generic) if generic is not None else -1,
            "generic_depth": max(depths["generic"]) if generic is not None else -1,
            "shallow_trees": len(shallow), "shallow_depth": max(sd), "shallow_mean_depth": round(sum(sd) / len(sd), 4),
            "shallow_start": shallow[0].meta["start"], "maximum_known": len(shallow) == bound or generic is not None,
            "lower_bound": lb, "proved_lower": proved, "certificate": how, "gap": max(sd) - proved,
            "depth_status": depth_status(max(sd), proved), "target": target, "within_target": max(sd) <= target}


def er_shallow_row(q: int, *, seed: int = 0) -> dict[str, Any]:
    """One row of the ER_q table of notebook 13: :func:`~starlib.edst.depth.er_shallow_trees` on
    ``polarfly(q)``, verified, depths measured from the stated roots, the lower bound, and the committed depth-3
    family of :func:`~starlib.edst.depth.er_depth3_trees` where one exists (``depth3_family``, -1 if none;
    ``best_depth`` the least of the two, ``depth_status`` against the lower bound).

    Example
    -------
    >>> r = er_shallow_row(7)
    >>> r["trees"], r["bound"], r["verified"], r["max_depth"], r["lower_bound"], r["best_depth"], r["depth_status"]
    (4, 4, True, 4, 3, 3, 'optimal')
    """
    from ..factors import polarfly

    g = polarfly(q)
    trees = er_shallow_trees(q, graph=g, seed=seed)
    d = measured_depths(g, trees)
    lb = int(depth_lower_bound(g, len(trees)).value)
    deep3 = er_depth3_trees(q, graph=g)  # verified on load
    d3 = max(measured_depths(g, deep3)) if deep3 is not None else -1
    best = min(max(d), d3) if d3 >= 0 else max(d)
    return {"q": int(q), "vertices": int(g.n), "links": int(g.m), "bound": int(er_edst_bound(q)),
            "trees": len(trees), "verified": bool(verify_edsts(g, trees).valid), "max_depth": max(d),
            "mean_depth": round(sum(d) / len(d), 4), "lower_bound": lb, "start": str(trees[0].meta.get("start", "")),
            "depth3_family": d3, "best_depth": best, "depth_status": depth_status(best, lb)}


def bfs_family(graph: ArrayGraph) -> EDSTSet:
    """One BFS tree rooted at a centre of the graph (depth = radius): the latency-optimal single tree.

    Example
    -------
    >>> from starlib.factors import cycle
    >>> bfs_family(cycle(6))[0].depth
    3
    """
    root = int(np.argmin(graph.eccentricities()))
    return EDSTSet([Tree(bfs_tree(graph.n, graph.edges, root), root, "bfs", n=graph.n)])


def method_families(graph: ArrayGraph, methods: Sequence[str], *, seed: int = 0) -> dict[str, EDSTSet]:
    """Every named method's family on ``graph`` (keys of :data:`starlib.edst.METHODS`, plus ``"bfs"`` and
    ``"hamiltonian"`` for ``ER_q``), and each non-empty one after the local search under ``"<method>+ls"``.

    Methods that do not apply to the graph (a product-only method on ``ER_q``) are skipped. Every family is
    verified.
    """
    from ..edst import METHODS

    out: dict[str, EDSTSet] = {}
    for name in methods:
        if name == "bfs":
            out[name] = bfs_family(graph)
            continue
        if name == "hamiltonian":
            fam = er_edsts(er_order(graph), "hamiltonian", graph=graph)  # ER_q only (a marked graph)
        else:
            try:
                fam = METHODS[name](graph)
            except ValueError:
                continue
        out[name] = fam
        if len(fam) and name != "shallow":
            out[name + "+ls"] = improve_depth(graph, fam, seed=seed)
    for name, fam in out.items():
        if not verify_edsts(graph, fam, allow_empty=True).valid:
            raise ValueError(f"method={name!r}: the family is not edge-disjoint spanning trees")
    return out


def pareto_front(points: Mapping[str, Sequence[int]]) -> list[tuple[int, int, str]]:
    """The count-depth front of a collection of families: for each count ``c``, the least maximum depth of ``c``
    trees taken from one family (its ``c`` shallowest), keeping only the counts where that depth rises.

    Parameters
    ----------
    points : family name -> the depths of its trees.

    Returns
    -------
    list of (count, depth, family)
        Increasing in count and depth: ``c`` EDSTs of maximum depth ``d`` can be built (the ``c`` shallowest trees
        of ``family``, the first in ``points`` that achieves it), and ``c + 1`` need a larger depth or cannot be
        built by these methods.

    Example
    -------
    >>> pareto_front({"bfs": [2], "max": [4, 5, 9], "shallow": [4, 4, 4]})
    [(1, 2, 'bfs'), (3, 4, 'shallow')]
    """
    best: dict[int, tuple[int, str]] = {}
    for name, depths in points.items():
        for c, d in enumerate(sorted(int(x) for x in depths), start=1):  # the c shallowest have maximum depth d
            if c not in best or d < best[c][0]:
                best[c] = (d, name)
    front: list[tuple[int, int, str]] = []
    for c in sorted(best, reverse=True):  # from the largest count down, keep strict improvements in depth
        if not front or best[c][0] < front[-1][1]:
            front.append((c, best[c][0], best[c][1]))
    return sorted(front)


def front_rows(family: str, params: Mapping[str, Any], graph: ArrayGraph, families: Mapping[str, EDSTSet]
               ) -> tuple[list[dict[str, Any]], tuple[dict[str, list[int]], list[tuple[int, int, str]], int]]:
    """The front of one network as table rows, and the panel of :func:`~starlib.paper.shallow_figures.pareto_figure`.

    Parameters
    ----------
    family, params : the network's family and parameters.
    graph : the network.
    families : name -> family (:func:`method_families`).

    Returns
    -------
    (rows, panel)
        ``rows``: one dict per point of :func:`pareto_front` (``network``, ``parameters``, ``trees``,
        ``max_depth``, ``family``, ``lower_bound`` for that count); ``panel``: (depths per non-empty family, the
        front, the lower bound for the largest count).
    """
    depths = {name: measured_depths(graph, fam) for name, fam in families.items() if len(fam)}
    front = pareto_front(depths)
    rows = [{"network": family, "parameters": format_params(dict(params)), "trees": c, "max_depth": d,
             "family": name, "lower_bound": int(depth_lower_bound(graph, c).value)} for c, d, name in front]
    return rows, (depths, front, rows[-1]["lower_bound"])


def allreduce_rows(graph: ArrayGraph, families: Mapping[str, Sequence[int]], sizes: Mapping[str, float], alpha: float,
                   beta: float) -> list[dict[str, Any]]:
    """Notebook 08's allreduce model on several families of one network: time per message size, bandwidth, and the
    size from which each family beats one BFS tree.

    Parameters
    ----------
    graph : the network (only ``n`` is used).
    families : name -> depths of the trees (must include ``"bfs"``).
    sizes : column suffix -> bytes, e.g. ``{"1KiB": 1024}``.
    alpha, beta : latency per message (microseconds) and time per byte (microseconds) of one link.

    Returns
    -------
    list of dict
        ``method``, ``trees``, ``max_depth``, ``t_<size>_us`` per size, ``t_64MiB_balanced_us`` when 64 MiB is
        among the sizes, and ``beats_bfs_from_bytes``, the message size from which the family is faster than
        one BFS tree (:func:`~starlib.allreduce.timing.crossover_size`: 1 if it is faster at 1 byte, NaN if it
        never is, and for the BFS tree itself).
    """
    rows = []
    bfs = list(families["bfs"])
    for name, depths in families.items():
        depths = list(depths)
        row: dict[str, Any] = {"method": name, "trees": len(depths), "max_depth": max(depths)}
        for label, s in sizes.items():
            row[f"t_{label}_us"] = ar.allreduce_time(depths, float(s), alpha, beta)
        if "64MiB" in sizes:
            row["t_64MiB_balanced_us"] = ar.allreduce_time(depths, float(sizes["64MiB"]), alpha, beta,
                                                           split="balanced")
        cross = float("nan") if name == "bfs" else float(ar.crossover_size(bfs, depths, alpha, beta))
        row["beats_bfs_from_bytes"] = cross
        rows.append(row)
    return rows
