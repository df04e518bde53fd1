"""Slim Fly MMS(q) at its maximum EDST count with every tree of depth 3, where CP-SAT finds such a family.

:func:`slimfly_depth3_trees` returns a committed family of ``k(q) = floor((3q - delta)/4)`` edge-disjoint spanning
trees of :func:`~starlib.networks.slimfly` ``(q)``, every tree of depth 3, re-verified on reading; None for a ``q``
without a record. The search that writes the records is ``tools/slimfly_depth3.py`` (``make slimfly-depth3``), below.

Why depth 3 is optimal where it is reached
------------------------------------------
Every tree of a family of ``k(q)`` EDSTs of MMS(q) has depth at least 3, for every admissible ``q``
(:mod:`starlib.edst.depth.slimfly`, "Lower bound": a tree has degree at most ``c = d - k + 1`` at any vertex, and
``1 + c^2 < 2q^2``). A family of depth 3 therefore has the least possible maximum depth, and the least possible
depth of every one of its trees.

Where it is not: ``q = 4`` and ``q = 5``
----------------------------------------
The count does not decide it. CP-SAT proves depth 3 infeasible on MMS(5) in under a second (the Hoffman-Singleton
graph: a Moore graph of girth 5 forces a depth-3 tree to hold every edge at its root; the hand proof is in
``tests/edst/depth/test_exact.py``) and on MMS(4) with 300 deterministic seconds (about 2 minutes of the clock),
on the model of :mod:`starlib.edst.depth.exact` (``data/depth_certificates.csv``). At ``q = 3`` the depth-4
pipeline already gives depth 3. So the least depth of a maximum family is 3 at ``q = 3, 7``, 4 at ``q = 4, 5``.

The search
----------
``tools/slimfly_depth3.py`` runs :func:`~starlib.edst.depth.exact.depth_feasible` at ``D = 3`` on MMS(q) with
``k(q)`` trees: the exact model of roots, parent arcs and levels, with its cuts and symmetry rules (MMS(q) is
vertex-transitive, so one tree is rooted at vertex 0), one CP-SAT worker, a fixed seed and a deterministic time
limit, the depth-4 family of :func:`~starlib.edst.depth.slimfly.slimfly_shallow_trees` as the hint. So a rerun
with the arguments of :data:`SLIMFLY_DEPTH3_PARAMS` writes the same trees on any machine (unless the wall-clock
safety net of ``depth_feasible`` stops a much slower machine first). The model has ``n k`` vertex-tree pairs and
is limited to :data:`~starlib.edst.depth.exact.MAX_VERTEX_TREES`; MMS(7) (``n k = 490``) takes about 6 minutes
of the clock.

Records: ``slimfly_depth3/q{q}.json`` (package data), starlib's JSON format version 2 (``network`` ``"slimfly"``,
``params`` ``{"q": q}``, each tree as ``root`` and ``parent`` of every vertex). The committed ``q`` are
:data:`SLIMFLY_DEPTH3_QS`; :func:`~starlib.edst.depth.shallow.shallow_trees` (the command line's
``--method shallow``) returns them for ``slimfly(q)``.

Example
-------
>>> from starlib.networks import slimfly
>>> T = slimfly_depth3_trees(7, slimfly(7))
>>> len(T), max(T.depths())
(5, 3)
"""

from __future__ import annotations

from pathlib import Path

from ...factors import MMS_ORDER
from ...graphs import GraphLike, as_graph
from ..trees import EDSTSet
from ..verify import check_edsts
from .record import read_parent_record
from .slimfly import check_slimfly_graph, slimfly_edst_count

__all__ = ["DATA_DIR", "DEPTH", "SLIMFLY_DEPTH3_PARAMS", "SLIMFLY_DEPTH3_QS", "TAG", "record_path",
           "slimfly_depth3_trees"]

#: where the committed records are (package data)
DATA_DIR = Path(__file__).resolve().parent / "slimfly_depth3"
#: the construction tag of the trees
TAG = "slimfly-depth3(cp-sat)"
#: the depth of every tree
DEPTH = 3
#: the ``q`` the committed records cover (``make slimfly-depth3`` writes them)
SLIMFLY_DEPTH3_QS = (7,)
#: the search arguments of each record (also written into the record)
SLIMFLY_DEPTH3_PARAMS: dict[int, dict[str, float | int]] = {7: {"time_limit": 600.0, "seed": 0}}


def record_path(q: int, directory: str | Path | None = None) -> Path:
    """The record of ``q``: ``q{q}.json`` in ``directory`` (default :data:`DATA_DIR`).

    >>> record_path(7).name
    'q7.json'
    """
    return (DATA_DIR if directory is None else Path(directory)) / f"q{q}.json"


def slimfly_depth3_trees(q: int, graph: GraphLike | None, *,
                         directory: str | Path | None = None) -> EDSTSet | None:
    """The committed depth-3 maximum family of Slim Fly MMS(q), re-verified, or None if none is known for ``q``.

    Parameters
    ----------
    q : int
        An admissible MMS order.
    graph : StarProduct
        The network ``slimfly(q)`` (:func:`~.slimfly.check_slimfly_graph`; this floor does not build networks);
        the trees are in its vertex indices.
    directory : str or Path, optional
        Where the records are; default :data:`DATA_DIR`.

    Returns
    -------
    EDSTSet or None
        ``k(q)`` trees of depth 3, checked by :func:`~starlib.edst.verify.check_edsts`; None when no record exists.

    Raises
    ------
    ValueError
        If ``q`` is not admissible, ``graph`` is not ``slimfly(q)``, or the record is not a valid depth-3 family.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> slimfly_depth3_trees(4, slimfly(4)) is None  # depth 3 is infeasible at q = 4 (module docstring)
    True
    """
    q = MMS_ORDER(q, "q")
    g = as_graph(check_slimfly_graph(q, graph), "graph")
    path = record_path(q, directory)
    if not path.exists():
        return None
    trees = read_parent_record(path, "slimfly", {"q": q}, int(g.n), TAG)
    k = slimfly_edst_count(q)
    if len(trees) != k or max(trees.depths()) > DEPTH:
        raise ValueError(f"q={q}: record {path} has {len(trees)} trees of depths {trees.depths()}, "
                         f"expected {k} of depth <= {DEPTH}")
    trees.theorem = "slimfly-depth3"
    check_edsts(g, trees)
    return trees
