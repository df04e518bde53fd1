"""An allreduce over k edge-disjoint spanning trees as an MSCCL algorithm XML file (MSCCL, RCCL, ASTRA-sim's Chakra).

The grammar and the limits are those of the MSCCL executor's parser, ``mscclGetAlgoFromXmlFile`` in
``src/misc/msccl/msccl_parser.cc`` with the constants of ``src/include/msccl/msccl_struct.h`` and
``msccl_parser.h`` (Azure/msccl-executor-nccl); the attribute layout is that of msccl-tools' writer
(``ir_to_xml`` in ``msccl/language/ir.py``, microsoft/msccl-tools, "old format") with the ``outofplace``,
``minBytes`` and ``maxBytes`` attributes the executor also requires, as ForestColl's ``to_xml.py`` writes them
(liangyuRain/ForestColl). docs/formats.md §6.10 states the grammar and every limit; :mod:`starlib.io.msccl_replay`
replays a file and checks them.

The schedule. Rank ``r`` is vertex ``r``. The buffer is cut into ``k * c`` chunks (``c = chunks``, the chunks per
tree): tree ``t`` carries chunks ``t*c .. t*c+c-1``, reduced towards its root and broadcast back, pipelined chunk
by chunk. A rank has one thread block per tree edge at it (``send = recv =`` the neighbour, channel ``t mod
nchannels``), the edge to its parent first, then its children in increasing order, tree after tree. With ``x =
t*c + j`` (``j = 0..c-1``), the thread block towards

* a child ``ch_i`` runs ``rrc x`` at steps ``j`` (receive the child's partial sum and add it in place; after the
  same step of the thread block of the previous child ``ch_{i-1}``, so that the additions into a chunk are serial),
  then ``s x`` at steps ``c + j`` (the result down, after the parent's ``r x``; at the root, after the last
  child's ``rrc x``);
* the parent runs ``s x`` at steps ``j`` (the partial sum up, after the last child's ``rrc x``), then ``r x`` at
  steps ``c + j`` (the result, overwriting the chunk).

Every send is matched, in order, by the receive of the thread block at the other end of the same edge and channel.
All steps work in place on the output buffer ``o`` (``inplace="1"``, ``i_chunks="0"``, as ForestColl writes an in-place
allreduce).

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst.trees import Tree
>>> p3 = ArrayGraph.from_edges(range(3), np.array([[0, 1], [1, 2]]))
>>> xml = msccl_allreduce(p3, [Tree(np.array([[0, 1], [1, 2]]), 1)], chunks=1, name="P3").decode()
>>> print(xml[:xml.index(" inplace")])
<algo name="P3" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="3" coll="allreduce"
>>> print(xml[xml.index("inplace"):], end="")
inplace="1" outofplace="0" minBytes="0" maxBytes="0">
  <gpu id="0" i_chunks="0" o_chunks="1" s_chunks="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
      <step s="1" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
  <gpu id="1" i_chunks="0" o_chunks="1" s_chunks="0">
    <tb id="0" send="0" recv="0" chan="0">
      <step s="0" type="rrc" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1" />
      <step s="1" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="1" deps="0" hasdep="0" />
    </tb>
    <tb id="1" send="2" recv="2" chan="0">
      <step s="0" type="rrc" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="0" deps="0" hasdep="1" />
      <step s="1" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
  <gpu id="2" i_chunks="0" o_chunks="1" s_chunks="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
      <step s="1" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
</algo>
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import quoteattr

import numpy as np

from ..edst.trees import EDSTSet, Tree, orient
from ..graphs import ArrayGraph
from ..validation import check_choice, check_int

__all__ = ["MSCCL_LIMITS", "PROTOCOLS", "check_msccl_options", "msccl_allreduce"]

#: The executor's limits (Azure/msccl-executor-nccl: ``msccl_struct.h``, ``msccl_parser.h``, ``device.h``).
MSCCL_LIMITS: dict[str, int] = {
    "MSCCL_MAX_NUM_STEPS": 64,  # steps of one thread block (the "s" attribute is < 64)
    "MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL": 32,  # thread blocks of a rank that send (or receive) on one channel
    "MAXCHANNELS": 32,  # channels (the executor's src/include/device.h)
    "MSCCL_MAX_NUM_THREAD_BLOCKS": 32 * 32,  # thread blocks of a rank (PER_CHANNEL * MAXCHANNELS)
    "MSCCL_MAX_COUNT": 72,  # a step's cnt is < 72
    "MSCCL_MAX_SUBS": 1024,  # children of one XML element (gpus of the algo, tbs of a gpu)
    "MSCCL_MAX_NODES": 4096,  # XML elements the parser keeps for one rank: algo, every gpu, its own tbs and steps
}

#: The protocols the executor accepts (``mscclProtocolStrToId``).
PROTOCOLS = ("Simple", "LL128", "LL")


def _step(s: int, kind: str, x: int, dep: tuple[int, int] | None, hasdep: bool) -> str:
    d, ds = dep if dep is not None else (-1, -1)
    return (f'      <step s="{s}" type="{kind}" srcbuf="o" srcoff="{x}" dstbuf="o" dstoff="{x}" cnt="1" '
            f'depid="{d}" deps="{ds}" hasdep="{int(hasdep)}" />\n')


def check_msccl_options(chunks: int = 4, channels: int | None = None, proto: str = "Simple", min_bytes: int = 0,
                        max_bytes: int = 0) -> tuple[int, int | None, str, int, int]:
    """Check the options of :func:`msccl_allreduce` (the command line calls it before any work).

    Returns
    -------
    tuple
        ``(chunks, channels, proto, min_bytes, max_bytes)`` checked.

    Raises
    ------
    ValueError
        Naming the option, its value and the rule.

    Example
    -------
    >>> check_msccl_options(chunks=8, channels=2)
    (8, 2, 'Simple', 0, 0)
    >>> check_msccl_options(channels=40)
    Traceback (most recent call last):
    ...
    ValueError: channels=40 is too large: need 1 <= channels <= 32 (MAXCHANNELS)
    """
    c = check_int(chunks, "chunks", 1, MSCCL_LIMITS["MSCCL_MAX_NUM_STEPS"] // 2,
                  rule="1 <= chunks <= 32 (a thread block runs 2 * chunks steps; the executor allows 64)")
    ch = None if channels is None else check_int(channels, "channels", 1, MSCCL_LIMITS["MAXCHANNELS"],
                                                 rule="1 <= channels <= 32 (MAXCHANNELS)")
    proto = check_choice(proto, "proto", PROTOCOLS)
    lo = check_int(min_bytes, "min_bytes", 0)
    hi = check_int(max_bytes, "max_bytes", 0)
    if hi and hi < lo:
        raise ValueError(f"max_bytes={hi} is below min_bytes={lo}: need max_bytes = 0 (no limit) or >= min_bytes")
    return c, ch, proto, lo, hi


def msccl_allreduce(graph: ArrayGraph, trees: Sequence[Tree], chunks: int = 4, *, channels: int | None = None,
                    proto: str = "Simple", min_bytes: int = 0, max_bytes: int = 0, name: str | None = None) -> bytes:
    """An allreduce over the trees as an MSCCL XML algorithm (the schedule of the module docstring).

    Parameters
    ----------
    graph : ArrayGraph
        The network: its ``n`` vertices are the ranks ``0..n-1``.
    trees : sequence of Tree
        Edge-disjoint spanning trees of ``graph``, ``k >= 1`` of them (the buffer is split evenly among them).
    chunks : int
        Chunks per tree (the pipeline's depth), ``1 <= chunks <= 32``: a thread block runs ``2 * chunks`` steps
        and the executor allows 64.
    channels : int, optional
        Channels (default ``min(k, 32)``); tree ``t`` uses channel ``t mod channels``. At most 32.
    proto : str
        ``"Simple"``, ``"LL128"`` or ``"LL"``.
    min_bytes, max_bytes : int
        The message sizes the runtime may pick this algorithm for (``maxBytes = 0``: no upper limit).
    name : str, optional
        The algorithm's name (default: the graph's name and the tree count).

    Returns
    -------
    bytes
        The XML document (UTF-8, no XML declaration, as msccl-tools writes it).

    Raises
    ------
    ValueError
        For a bad option, trees that are not edge-disjoint spanning trees of the graph, or a schedule over one of
        the executor's limits (:data:`MSCCL_LIMITS`), named in the message.

    Example
    -------
    >>> import starlib
    >>> g = starlib.network("slimfly", q=5)
    >>> xml = msccl_allreduce(g, starlib.edsts(g), chunks=2)
    >>> xml.count(b"<gpu "), xml.count(b'type="rrc"'), xml.count(b"<step ")
    (50, 294, 1176)
    """
    c, given_channels, proto, lo, hi = check_msccl_options(chunks, channels, proto, min_bytes, max_bytes)
    if graph.directed:
        raise ValueError("graph: an allreduce over trees needs an undirected graph")
    if trees is None or isinstance(trees, str | bytes) or not all(isinstance(t, Tree) for t in trees):
        raise ValueError(f"trees={trees!r:.60} is not a sequence of Tree")
    ts = EDSTSet.of(trees)
    k, n = len(ts), int(graph.n)
    if k == 0:
        raise ValueError("trees: an allreduce needs at least one tree")
    if n < 2:
        raise ValueError(f"graph: an allreduce needs at least 2 ranks, got n={n}")
    if n > MSCCL_LIMITS["MSCCL_MAX_SUBS"]:
        raise ValueError(f"graph: n={n} ranks; the executor's parser keeps at most MSCCL_MAX_SUBS=1024 gpus")
    ts.edge_trees(graph)  # every tree edge in the graph and in one tree only (ValueError otherwise)
    nch = min(k, MSCCL_LIMITS["MAXCHANNELS"]) if given_channels is None else given_channels
    parents, kids = [], []
    for t in ts:
        p = orient(n, t.rows, t.root).parent.astype(np.int64)
        parents.append(p)
        ch = [[] for _ in range(n)]
        for v in np.flatnonzero(p >= 0).tolist():
            ch[int(p[v])].append(v)
        kids.append(ch)
    nm = name if name is not None else f"{graph.name or 'graph'}: allreduce over {k} trees"
    out = [f'<algo name={quoteattr(nm)} proto="{proto}" nchannels="{nch}" nchunksperloop="{k * c}" ngpus="{n}" '
           f'coll="allreduce" inplace="1" outofplace="0" minBytes="{lo}" maxBytes="{hi}">\n']
    for r in range(n):
        out.append(f'  <gpu id="{r}" i_chunks="0" o_chunks="{k * c}" s_chunks="0">\n')
        tb = 0
        per_channel = [0] * nch
        blocks: list[tuple[int, int, int, list[tuple[str, int, tuple[int, int] | None]]]] = []  # id, peer, chan, steps
        depended: set[tuple[int, int]] = set()
        for t in range(k):
            p, ch = int(parents[t][r]), kids[t][r]
            chan = t % nch
            ptb = tb if p >= 0 else -1
            first_child = tb + (1 if p >= 0 else 0)
            last = first_child + len(ch) - 1 if ch else -1
            if p >= 0:
                steps = [("s", t * c + j, (last, j) if ch else None) for j in range(c)]
                steps += [("r", t * c + j, None) for j in range(c)]
                blocks.append((tb, p, chan, steps))
                tb += 1
            for i, w in enumerate(ch):
                me = first_child + i
                steps = [("rrc", t * c + j, (me - 1, j) if i else None) for j in range(c)]
                if p >= 0:
                    steps += [("s", t * c + j, (ptb, c + j)) for j in range(c)]
                else:
                    steps += [("s", t * c + j, (last, j) if me != last else None) for j in range(c)]
                blocks.append((tb, w, chan, steps))
                tb += 1
            per_channel[chan] += (1 if p >= 0 else 0) + len(ch)
        if tb > MSCCL_LIMITS["MSCCL_MAX_NUM_THREAD_BLOCKS"]:
            raise ValueError(f"trees: rank {r} needs {tb} thread blocks; the executor allows "
                             f"MSCCL_MAX_NUM_THREAD_BLOCKS=1024")
        worst = max(per_channel)
        if worst > MSCCL_LIMITS["MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL"]:
            raise ValueError(f"trees: rank {r} needs {worst} thread blocks on one channel; the executor allows "
                             f"MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL=32 (give more channels)")
        nodes = 1 + n + tb + sum(len(b[3]) for b in blocks)
        if nodes > MSCCL_LIMITS["MSCCL_MAX_NODES"]:
            raise ValueError(f"chunks={c}: rank {r}'s part of the file has {nodes} XML elements; the executor's parser "
                             f"keeps MSCCL_MAX_NODES=4096 (use fewer chunks)")
        for _, _, _, steps in blocks:
            depended.update(d for _, _, d in steps if d is not None)
        for b, peer, chan, steps in blocks:
            out.append(f'    <tb id="{b}" send="{peer}" recv="{peer}" chan="{chan}">\n')
            out += [_step(s, kind, x, dep, (b, s) in depended) for s, (kind, x, dep) in enumerate(steps)]
            out.append("    </tb>\n")
        out.append("  </gpu>\n")
    out.append("</algo>\n")
    return "".join(out).encode()
