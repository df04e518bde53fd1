"""Write the committed depth-3 maximum families of Slim Fly MMS(q) (``make slimfly-depth3``): the CP-SAT search that
:mod:`starlib.edst.depth.slimfly3` describes, one record per ``q`` in starlib's JSON format (version 2, atomic), as the
package data that :func:`starlib.edst.depth.slimfly3.slimfly_depth3_trees` reads.

Usage: ``python tools/slimfly_depth3.py [--dir DIR] [q ...]`` (default: every ``q`` of ``SLIMFLY_DEPTH3_QS`` into
the package's ``slimfly_depth3`` folder, with the arguments of ``SLIMFLY_DEPTH3_PARAMS``). MMS(7) takes about
6 minutes of the clock on one core. A ``q`` whose search finds nothing writes nothing and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from starlib.edst.depth.exact import depth_feasible
from starlib.edst.depth.slimfly import check_slimfly_graph, slimfly_edst_count, slimfly_shallow_trees
from starlib.edst.depth.slimfly3 import (
    DATA_DIR,
    DEPTH,
    SLIMFLY_DEPTH3_PARAMS,
    SLIMFLY_DEPTH3_QS,
    TAG,
    record_path,
    slimfly_depth3_trees,
)
from starlib.edst.trees import EDSTSet, Tree
from starlib.edst.verify import check_edsts
from starlib.factors import MMS_ORDER
from starlib.graphs import GraphLike
from starlib.io import write_json
from starlib.networks import slimfly
from starlib.validation import check_int, check_real


def slimfly_depth3_search(q: int, graph: GraphLike | None, *, time_limit: float = 600.0,
                          seed: int = 0) -> EDSTSet | None:
    """Search ``k(q)`` EDSTs of Slim Fly MMS(q), every tree of depth 3, with CP-SAT (the model of ``slimfly3``).

    Parameters
    ----------
    q : int
        An admissible MMS order (:data:`~starlib.factors.MMS_ORDER`).
    graph : StarProduct
        The network ``slimfly(q)`` (:func:`~starlib.edst.depth.slimfly.check_slimfly_graph`); the trees are in its
        vertex indices.
    time_limit : float, optional
        CP-SAT's deterministic time limit (> 0; work units that track seconds of one worker).
    seed : int, optional
        CP-SAT's seed (>= 0).

    Returns
    -------
    EDSTSet or None
        ``k(q)`` trees of depth 3, tag ``TAG``, ``theorem == "slimfly-depth3"``, checked by
        :func:`~starlib.edst.verify.check_edsts`; None when CP-SAT proved depth 3 infeasible or ran out of time.

    Raises
    ------
    ValueError
        If ``q`` is not admissible, ``graph`` is not ``slimfly(q)``, ``time_limit <= 0``, ``seed < 0``, or the
        model is above :data:`~starlib.edst.depth.exact.MAX_VERTEX_TREES` vertex-tree pairs.

    Example
    -------
    >>> slimfly_depth3_search(5, slimfly(5), time_limit=5.0) is None  # Hoffman-Singleton: depth 3 is infeasible
    True
    """
    q = MMS_ORDER(q, "q")
    time_limit = check_real(time_limit, "time_limit", minimum=0.0, strict=True, rule="a time limit > 0")
    seed = check_int(seed, "seed", minimum=0, rule="a seed >= 0")
    P = check_slimfly_graph(q, graph)
    hint = slimfly_shallow_trees(q, P)
    s = depth_feasible(P, slimfly_edst_count(q), DEPTH, time_limit=time_limit, hint=hint, seed=seed, workers=1)
    if not s.found:
        return None
    assert s.trees is not None
    out = EDSTSet(Tree(t.rows, t.root, TAG, n=t.n, meta={"q": q}) for t in s.trees)
    out.theorem = "slimfly-depth3"
    check_edsts(P, out)
    return out


def write_slimfly_depth3(q: int, directory: str | Path | None = None, graph: GraphLike | None = None,
                         **search: float) -> Path | None:
    """Run :func:`slimfly_depth3_search` on ``slimfly(q)`` and write the family as ``q{q}.json`` (atomic).

    ``graph`` is ``slimfly(q)`` when the caller has built it already (built here otherwise). Returns the file
    written, or None (nothing written) when the search found no family.

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_slimfly_depth3(5, d, time_limit=5.0) is None  # depth 3 is infeasible on MMS(5)
    True
    """
    P = slimfly(q) if graph is None else graph
    trees = slimfly_depth3_search(q, P, **search)  # type: ignore[arg-type]
    if trees is None:
        return None
    return write_json(record_path(q, directory), P, trees, network="slimfly", params={"q": q},
                      extra={"method": "slimfly_depth3_search", "search": dict(sorted(search.items()))})


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, write the records, print one line per ``q``; 1 if a search found nothing."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("q", nargs="*", type=int, help="admissible MMS orders (default: SLIMFLY_DEPTH3_QS)")
    ap.add_argument("--dir", default=str(DATA_DIR), help="output folder (default: the package data folder)")
    a = ap.parse_args(argv)
    status = 0
    for q in tuple(a.q) or SLIMFLY_DEPTH3_QS:
        t0 = time.perf_counter()
        P = slimfly(q)
        path = write_slimfly_depth3(q, a.dir, P, **SLIMFLY_DEPTH3_PARAMS.get(q, {}))
        depth = -1
        if path is not None:
            depth = max(slimfly_depth3_trees(q, P, directory=a.dir).depths())  # type: ignore[union-attr]
        else:
            status = 1
        print(f"q={q} depth={depth} seconds={time.perf_counter() - t0:.1f}", flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
