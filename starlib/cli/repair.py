"""``starlib repair FILE --fail U-V [--fail ...]``: the maximum trees again after link failures, verified and written.

FILE is a network file with trees (starlib JSON as ``starlib edsts ... -o x.json`` writes it, or GraphML, GML or
node-link JSON whose edges carry ``tree``). Each ``--fail U-V`` names a failed link by its two vertex labels as the
file writes them, joined by ``-`` (:func:`starlib.edst.repair.parse_link`): ``a-b`` for an edge list's ids,
``3-17`` for integer ids, ``[[0,1],2]-[[1,1],0]`` for the nested labels of a starlib JSON file (spaces ignored,
``(`` ``)`` read as ``[`` ``]``; quote it for the shell). An unknown vertex, a pair that is no link or a link
named twice is refused with one line, exit 2, nothing written.

The repair (:func:`starlib.edst.repair_edsts`) keeps every tree that lost no link as it was, joins each cut subtree
back by an unused link nearest the root, and when that cannot restore the bound repacks the damaged trees alone
from the unused links by augmenting paths; only when the count cannot be reached so does it change other trees, one
if one is enough, and it names them. The depth search then runs on the trees it made (on by default up to
``DEEP_LINKS`` = 200,000 links; ``--deep`` or ``--no-deep`` decide). The result is verified and written atomically
in any format of ``edsts -o``; one summary line on standard error gives the count, the trees kept, reattached and
changed, and the depths before and after; a warning line as ``edsts`` prints it when the deepest tree is deeper than
2 x diameter + 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

__all__ = ["add_repair_parser", "repair_file"]

EXAMPLES = ["starlib repair t.json --fail '[[0,0],0]-[[0,0],1]' -o repaired.json",
            "starlib repair trees.graphml --fail a-b --fail c-d --format graphml -o repaired.graphml",
            "starlib repair t.json --fail 3-17 --no-deep -o repaired.json"]


def add_repair_parser(sub: Any, parents: Sequence[argparse.ArgumentParser], epilog_fn: Any) -> None:
    """The ``repair`` verb on the sub-parsers ``sub`` (``parents``: the common, output and input-format options)."""
    r = sub.add_parser("repair", parents=list(parents), help="repair the trees of a file after link failures: the new "
                       "maximum, verified and written",
                       description="Read a file of edge-disjoint spanning trees, remove the failed links (--fail U-V, "
                       "the two vertex labels as the file writes them, joined by '-'), keep the trees that lost no "
                       "link as they are, rejoin each cut subtree by an unused link nearest the root, and when that "
                       "cannot reach the bound repack the damaged trees from the unused links by augmenting paths; "
                       "change other trees (as few as possible, named in the summary) only when the count needs it. "
                       "The count is the new maximum (certified by a Nash-Williams partition when it drops). Run "
                       "the depth search on the trees the repair made (default: up to 200,000 links). Verify and "
                       "write the result.",
                       epilog_fn=lambda: epilog_fn() + "\n\nexamples:\n" + "\n".join(f"  {x}" for x in EXAMPLES))
    r.add_argument("file", help="a file with trees (edsts writes one)")
    r.add_argument("--fail", action="append", default=[], metavar="U-V", required=True,
                   help="a failed link, by the labels of its two vertices (repeat for several)")
    r.add_argument("--deep", action=argparse.BooleanOptionalAction, default=None,
                   help="run the depth search on the trees the repair made, never on the kept ones (default: on up "
                   "to 200,000 links)")
    r.add_argument("--seed", default="0", metavar="N", help="seed of the depth search (default 0)")


def repair_file(path: str, fails: Sequence[str], input_format: str | None, *, deep: bool | None, seed: str,
                fmt: str, options: dict[str, Any], progress: Any) -> tuple[bytes, str, str | None]:
    """Read ``path``, repair its trees after ``fails``, verify: ``(the file's bytes in fmt, the summary line, the
    depth warning or None)``.

    The warning is :func:`~starlib.cli.text.depth_warning` of ``edsts``, against the damaged network's diameter by
    BFS from every vertex (:func:`~starlib.cli.commands.depth_diameter`; none above its budget).

    Raises
    ------
    ValueError
        For a file without trees, a link text that names no link (:func:`~starlib.edst.repair.parse_link`), a bad
        seed; nothing is written then.
    """
    import numpy as np

    from ..edst.repair import label_index, parse_link, repair_edsts
    from ..io import render
    from ..validation import check_int, parse_int
    from .commands import deepest, depth_diameter, read_trees
    from .text import depth_warning

    seed_n = check_int(parse_int(seed, "seed"), "seed", minimum=0, rule="a seed >= 0")
    progress.stage("read")
    nf = read_trees(path, input_format)
    g = nf.graph
    if g.directed:
        raise ValueError(f"file={str(path)!r}: the graph is directed; trees are repaired on undirected networks")
    index = label_index(g.labels)
    pairs = [parse_link(text, index) for text in fails]
    progress.stage("repair")
    r = repair_edsts(g, nf.trees, pairs, deep=deep, seed=seed_n, names=list(fails))  # verified inside
    if r.count_after == 0:  # a file of no trees proves nothing, and verify refuses it
        parts = r.certificate
        a, b = g.labels[int(np.argmax(parts == 0))], g.labels[int(np.argmax(parts == 1))]
        raise ValueError(f"the failed links disconnect the network ({int(parts.max()) + 1} components; {a!r} and "
                         f"{b!r} are in different ones): no spanning tree is left; nothing written")
    progress.stage("write")
    method = str(nf.extra.get("method", "input"))
    extra = {**nf.extra, "method": method if method.endswith("+repair") else method + "+repair",
             "upper_bound": int(r.upper_bound), "failed": [str(x) for x in fails]}
    data = render(fmt, r.graph, r.trees, network=nf.network, params=nf.params, extra=extra, **options)
    diameter, how = depth_diameter(r.graph, None)  # the damaged network: no family's closed form holds
    warning = None if diameter is None else depth_warning(str(path), deepest(r.trees), diameter, how,
                                                          verb="repair")
    return data, "repaired: " + r.summary(), warning
