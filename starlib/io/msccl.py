"""Allreduce schedules as MSCCL algorithm XML files (MSCCL, RCCL, ASTRA-sim's Chakra).

Two writers: :func:`msccl_allreduce`, an allreduce over ``k`` edge-disjoint spanning trees of the routers (below),
and :func:`msccl_schedule`, any :class:`~starlib.allreduce.schedule.Schedule` run by its ranks (rings, double
binary trees, halving-doubling, trees, with several hosts per router), with the host and router of every rank on
its ``<gpu>`` (:func:`msccl_rank_map`).

The grammar and the limits are those of the MSCCL executor's parser, ``mscclGetAlgoFromXmlFile`` in
``src/misc/msccl/msccl_parser.cc`` with the constants of ``src/include/msccl/msccl_struct.h`` and
``msccl_parser.h`` (Azure/msccl-executor-nccl); the attribute layout is that of msccl-tools' writer
(``ir_to_xml`` in ``msccl/language/ir.py``, microsoft/msccl-tools, "old format") with the ``outofplace``,
``minBytes`` and ``maxBytes`` attributes the executor also requires, as ForestColl's ``to_xml.py`` writes them
(liangyuRain/ForestColl). docs/formats.md §6.10 states the grammar and every limit; :mod:`starlib.io.msccl_replay`
replays a file and checks them.

The trees' schedule. Rank ``r`` is vertex ``r``, named on its ``<gpu>`` (the rank map: ``host = router = r``, a
router that runs a rank itself, and ``name``, the vertex's label as text: a network file's node id). The buffer is
cut into ``k * c`` chunks (``c = chunks``, the chunks per tree): tree ``t`` carries chunks ``t*c .. t*c+c-1``,
reduced towards its root and broadcast back, pipelined chunk by chunk. A rank has one thread block per tree edge at
it (``send = recv =`` the neighbour, channel ``t mod nchannels``), the edge to its parent first, then its children
in increasing order, tree after tree. With ``x = t*c + j`` (``j = 0..c-1``), the thread block towards

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
  <gpu id="0" i_chunks="0" o_chunks="1" s_chunks="0" host="0" router="0" name="0">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
      <step s="1" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
  <gpu id="1" i_chunks="0" o_chunks="1" s_chunks="0" host="1" router="1" name="1">
    <tb id="0" send="0" recv="0" chan="0">
      <step s="0" type="rrc" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1" />
      <step s="1" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="1" deps="0" hasdep="0" />
    </tb>
    <tb id="1" send="2" recv="2" chan="0">
      <step s="0" type="rrc" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="0" deps="0" hasdep="1" />
      <step s="1" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
  <gpu id="2" i_chunks="0" o_chunks="1" s_chunks="0" host="2" router="2" name="2">
    <tb id="0" send="1" recv="1" chan="0">
      <step s="0" type="s" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
      <step s="1" type="r" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0" />
    </tb>
  </gpu>
</algo>
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numba
import numpy as np

from ..edst.trees import EDSTSet, Tree, orient
from ..graphs import ArrayGraph
from ..memory import Size, check_size
from ..validation import check_choice, check_int
from .json_format import label_text
from .xml_safe import xml_attr

if TYPE_CHECKING:
    from ..allreduce.schedule import Schedule

__all__ = ["LCM", "MSCCL_LIMITS", "PROTOCOLS", "check_msccl_options", "lcm_chunks", "msccl_allreduce",
           "msccl_schedule", "msccl_rank_map"]

#: The executor's limits (Azure/msccl-executor-nccl: ``msccl_struct.h``, ``msccl_parser.h``, ``device.h``).
MSCCL_LIMITS: dict[str, int] = {
    "MSCCL_MAX_NUM_STEPS": 64,  # steps of one thread block (the "s" attribute is < 64)
    "MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL": 32,  # thread blocks of a rank that send (or receive) on one channel
    "MAXCHANNELS": 32,  # channels (the executor's src/include/device.h)
    "MSCCL_MAX_NUM_THREAD_BLOCKS": 32 * 32,  # thread blocks of a rank (PER_CHANNEL * MAXCHANNELS)
    "MSCCL_MAX_COUNT": 72,  # a step's cnt is < 72
    "MSCCL_MAX_SUBS": 1024,  # children of one XML element (gpus of the algo, tbs of a gpu)
    "MSCCL_MAX_NODES": 4096,  # XML elements the parser keeps for one rank: algo, every gpu, its own tbs and steps
    "MAX_ATTR_COUNT": 16,  # attributes the parser keeps per element (msccl_parser.h); it drops further ones
    "MAX_STR_LEN": 255,  # characters of an attribute value (msccl_parser.h; mscclXmlGetValue does not check it)
    "DEPENDENT_BID_MAX": 127,  # a dependency's thread block is stored in an int8_t (dependentBid, msccl_struct.h)
}

#: The protocols the executor accepts (``mscclProtocolStrToId``).
PROTOCOLS = ("Simple", "LL128", "LL")


def _attr(text: str, what: str) -> str:
    """``text`` as a double-quoted XML attribute value, refused beyond the parser's ``MAX_STR_LEN`` characters.

    What XML 1.0 cannot hold (a BEL in a network's name) is written visibly, ``\\x07``
    (:func:`starlib.io.xml_safe.xml_attr`), so the file parses.

    >>> _attr('a "b"', "name"), _attr("ring\x07", "name")
    ('"a &quot;b&quot;"', '"ring\\\\x07"')
    """
    quoted = xml_attr(text)
    if len(quoted.encode()) - 2 > MSCCL_LIMITS["MAX_STR_LEN"]:
        raise ValueError(f"{what}={text[:40]!r}... has {len(quoted.encode()) - 2} characters written; the executor's "
                         f"parser reads MAX_STR_LEN=255")
    return quoted


def _gpu(r: int, chunks: int, host: int, router: int, name: Hashable | None) -> str:
    """The opening tag of rank ``r``'s ``<gpu>`` with its rank map: ``host``, ``router`` and the host's ``name``.

    ``name`` is the node's label as text (:func:`starlib.io.json_format.label_text`: a network file's node id as
    itself); None writes no ``name``.

    >>> _gpu(0, 4, 0, 0, "g0r0")
    '  <gpu id="0" i_chunks="0" o_chunks="4" s_chunks="0" host="0" router="0" name="g0r0">\\n'
    """
    named = "" if name is None else f" name={_attr(label_text(name), f'the name of rank {r}')}"
    return f'  <gpu id="{r}" i_chunks="0" o_chunks="{chunks}" s_chunks="0" host="{host}" router="{router}"{named}>\n'


def _step(s: int, kind: str, x: int, dep: tuple[int, int] | None, hasdep: bool) -> str:
    d, ds = dep if dep is not None else (-1, -1)
    return (f'      <step s="{s}" type="{kind}" srcbuf="o" srcoff="{x}" dstbuf="o" dstoff="{x}" cnt="1" '
            f'depid="{d}" deps="{ds}" hasdep="{int(hasdep)}" />\n')


#: ``chunks=LCM``: the least number of chunks per tree that makes the file's chunk count a multiple of the ranks.
LCM = "lcm"

#: Bytes of memory per step of :func:`msccl_allreduce` at its peak (the line, about 130 bytes, held as a str in the
#: list, joined and encoded: about three copies), for the size check before writing.
_STEP_BYTES = 3 * 160


def lcm_chunks(trees: int, ranks: int) -> int:
    """The chunks per tree of ``chunks="lcm"``: the least ``c`` with ``trees * c`` a multiple of ``ranks``.

    ``c = lcm(trees, ranks) / trees = ranks / gcd(trees, ranks)``, so the file has ``lcm(trees, ranks)`` chunks, as
    ASTRA-sim's newer MSCCL converter requires (a multiple of the ranks); every tree still carries ``1/trees`` of
    the buffer.

    Parameters
    ----------
    trees, ranks : int
        The tree count ``k >= 1`` and the rank count ``n >= 1``.

    Returns
    -------
    int

    Example
    -------
    >>> lcm_chunks(3, 50), lcm_chunks(4, 6), lcm_chunks(5, 5)
    (50, 3, 1)
    """
    k = check_int(trees, "trees", 1)
    return math.lcm(k, check_int(ranks, "ranks", 1)) // k


def check_msccl_options(chunks: int | str = 4, channels: int | None = None, proto: str = "Simple", min_bytes: int = 0,
                        max_bytes: int = 0) -> tuple[int | str, int | None, str, int, int]:
    """Check the options of :func:`msccl_allreduce` (the command line calls it before any work).

    Returns
    -------
    tuple
        ``(chunks, channels, proto, min_bytes, max_bytes)`` checked; ``chunks`` is an int or ``"lcm"`` (resolved by
        :func:`msccl_allreduce`, which knows the trees and the ranks: :func:`lcm_chunks`).

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
    >>> check_msccl_options(chunks="lcm")[0]
    'lcm'
    >>> check_msccl_options(chunks="abc")
    Traceback (most recent call last):
    ...
    ValueError: chunks='abc' is neither an integer nor 'lcm': need 1 <= chunks <= 32 or chunks=lcm
    """
    if isinstance(chunks, str):
        if chunks != LCM:
            raise ValueError(f"chunks={chunks!r:.40} is neither an integer nor 'lcm': need 1 <= chunks <= 32 or "
                             f"chunks=lcm")
        c: int | str = LCM
    else:
        c = check_int(chunks, "chunks", 1, MSCCL_LIMITS["MSCCL_MAX_NUM_STEPS"] // 2,
                      rule="1 <= chunks <= 32 (a thread block runs 2 * chunks steps; the executor allows 64), or "
                           "chunks='lcm'")
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
        The network: its ``n`` vertices are the ranks ``0..n-1``; each ``<gpu>`` names its vertex (``host``,
        ``router`` and ``name``, the label as text: :func:`_gpu`).
    trees : sequence of Tree
        Edge-disjoint spanning trees of ``graph``, ``k >= 1`` of them (the buffer is split evenly among them).
    chunks : int or "lcm"
        Chunks per tree (the pipeline's depth), ``1 <= chunks <= 32``: a thread block runs ``2 * chunks`` steps
        and the executor allows 64. ``"lcm"``: the least count that makes the file's ``k * chunks`` chunks a
        multiple of the ranks, ``n / gcd(k, n)`` (:func:`lcm_chunks`; ASTRA-sim's newer converter requires such a
        count), under the same limits.
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
        For a bad option, trees that are not edge-disjoint spanning trees of the graph, a schedule over one of
        the executor's limits (:data:`MSCCL_LIMITS`), or a file over the memory limit
        (:func:`starlib.memory.check_size`), named in the message, before the file is built.

    Example
    -------
    >>> import starlib
    >>> g = starlib.network("slimfly", q=5)
    >>> xml = msccl_allreduce(g, starlib.edsts(g), chunks=2)
    >>> xml.count(b"<gpu "), xml.count(b'type="rrc"'), xml.count(b"<step ")
    (50, 294, 1176)
    >>> k6 = starlib.network("complete", n=6)
    >>> p6 = [Tree(np.array([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]), 0),
    ...       Tree(np.array([[0, 2], [2, 4], [4, 1], [1, 5], [5, 3]]), 3)]
    >>> xml = msccl_allreduce(k6, p6, chunks="lcm")  # lcm(2 trees, 6 ranks) = 6 chunks: 3 per tree
    >>> xml[xml.index(b"nchunksperloop"):xml.index(b" ngpus")]
    b'nchunksperloop="6"'
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
    if c == LCM:
        c = lcm_chunks(k, n)
        if c > MSCCL_LIMITS["MSCCL_MAX_NUM_STEPS"] // 2:
            raise ValueError(f"chunks=lcm gives {c} chunks per tree (lcm(k={k} trees, n={n} ranks) / k) for a total "
                             f"that is a multiple of the ranks: need 1 <= chunks <= 32 (a thread block runs 2 * "
                             f"chunks steps; the executor allows 64)")
    steps = 4 * c * k * (n - 1)  # every tree edge: a thread block at each end, 2c steps each
    check_size(Size(steps, steps, steps * _STEP_BYTES, "steps"), {"chunks": c, "trees": k, "ranks": n},
               "msccl_allreduce")
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
    labels = list(graph.labels)
    out = [f'<algo name={_attr(nm, "name")} proto="{proto}" nchannels="{nch}" nchunksperloop="{k * c}" ngpus="{n}" '
           f'coll="allreduce" inplace="1" outofplace="0" minBytes="{lo}" maxBytes="{hi}">\n']
    for r in range(n):
        out.append(_gpu(r, k * c, r, r, labels[r]))
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


# -- any Schedule (starlib.allreduce.schedule) -------------------------------------------------------------------------

@numba.njit(cache=True)
def _release(chunk_ptr: np.ndarray, dep_ptr: np.ndarray, dep_msg: np.ndarray, dep_off: np.ndarray,
             users_ptr: np.ndarray, users_msg: np.ndarray, users_off: np.ndarray,
             own: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Release the packets in dependency order: each one's level (the longest chain of packets it waits for),
    the contributions it carries (its own plus those of the packets it waits for) and whether it ever leaves.

    The release of :func:`starlib.allreduce.schedule.replay_counts` (which returns neither levels nor counts),
    compiled, with the levels added."""
    M = chunk_ptr.shape[0] - 1
    N = chunk_ptr[M]
    waiting = np.zeros(N, np.int64)
    msg_of = np.empty(N, np.int64)
    for m in range(M):
        msg_of[chunk_ptr[m]:chunk_ptr[m + 1]] = m
        pm = chunk_ptr[m + 1] - chunk_ptr[m]
        for k in range(dep_ptr[m], dep_ptr[m + 1]):
            d, off = dep_msg[k], dep_off[k]
            lo, hi = max(0, -off), min(pm, chunk_ptr[d + 1] - chunk_ptr[d] - off)
            for j in range(lo, hi):
                waiting[chunk_ptr[m] + j] += 1
    count = own.copy()
    level = np.zeros(N, np.int64)
    done = np.zeros(N, np.bool_)
    stack = np.empty(N, np.int64)
    top = 0
    for g in range(N):
        if waiting[g] == 0:
            stack[top] = g
            top += 1
    while top:
        top -= 1
        g = stack[top]
        done[g] = True
        m = msg_of[g]
        j = g - chunk_ptr[m]
        for u in range(users_ptr[m], users_ptr[m + 1]):
            w = users_msg[u]
            jw = j - users_off[u]
            if 0 <= jw < chunk_ptr[w + 1] - chunk_ptr[w]:
                h = chunk_ptr[w] + jw
                count[h] += count[g]
                if level[g] + 1 > level[h]:
                    level[h] = level[g] + 1
                waiting[h] -= 1
                if waiting[h] == 0:
                    stack[top] = h
                    top += 1
    return level, count, done


@numba.njit(cache=True)
def _contents(order: np.ndarray, src: np.ndarray, dst: np.ndarray, chunk: np.ndarray, reduce: np.ndarray,
              count: np.ndarray, ranks: int, chunks: int) -> tuple[int, int]:
    """Run the packets in ``order`` on in-place buffers (every chunk of every rank starts as its own contribution,
    a receive adds or overwrites): the first position whose sender's chunk holds another number of contributions
    than the packet carries, and that number; ``(-1, 0)`` if none."""
    held = np.ones((ranks, chunks), np.int64)
    for i in range(order.shape[0]):
        g = order[i]
        if held[src[g], chunk[g]] != count[g]:
            return i, held[src[g], chunk[g]]
        if reduce[g]:
            held[dst[g], chunk[g]] += count[g]
        else:
            held[dst[g], chunk[g]] = count[g]
    return -1, 0


@numba.njit(cache=True)
def _waits(by_tb: np.ndarray, acc_tb: np.ndarray, acc_step: np.ndarray, lo: np.ndarray, hi: np.ndarray,
           extra_ptr: np.ndarray, extra: np.ndarray, tbs: int) -> tuple[np.ndarray, np.ndarray]:
    """The steps each access waits for (CSR over accesses, targets as access indices, sorted by thread block).

    ``by_tb`` lists the accesses thread block by thread block, each in program order. An access waits for the
    accesses ``lo[a]:hi[a]`` and ``extra[extra_ptr[a]:extra_ptr[a + 1]]``, less those of its own thread block
    (program order), one per other thread block (the latest: the executor's flags grow), less those an earlier
    step of its thread block already waited for."""
    A = by_tb.shape[0]
    best = np.full(tbs, -1, np.int64)  # per target thread block: the latest access waited for (this step)
    seen = np.full(tbs, -1, np.int64)  # per target thread block: the latest step waited for (this thread block)
    ptr = np.zeros(A + 1, np.int64)
    out = np.empty(0, np.int64)
    cap = 0
    n = 0
    touched = np.empty(tbs, np.int64)
    reset = np.empty(tbs, np.int64)
    nreset = 0
    prev_tb = -1
    for i in range(A):
        a = by_tb[i]
        t = acc_tb[a]
        if t != prev_tb:
            for k in range(nreset):
                seen[reset[k]] = -1
            nreset = 0
            prev_tb = t
        nt = 0
        for x in range(lo[a], hi[a] + extra_ptr[a + 1] - extra_ptr[a]):
            y = x if x < hi[a] else extra[extra_ptr[a] + x - hi[a]]
            u = acc_tb[y]
            if u == t:
                continue
            if best[u] < 0:
                touched[nt] = u
                nt += 1
                best[u] = y
            elif acc_step[y] > acc_step[best[u]]:
                best[u] = y
        touched[:nt].sort()
        if n + nt > cap:
            cap = max(2 * cap, n + nt, 16)
            grown = np.empty(cap, np.int64)
            grown[:n] = out[:n]
            out = grown
        for k in range(nt):
            u = touched[k]
            y = best[u]
            best[u] = -1
            if acc_step[y] > seen[u]:
                if seen[u] < 0:
                    reset[nreset] = u
                    nreset += 1
                seen[u] = acc_step[y]
                out[n] = y
                n += 1
        ptr[i + 1] = n
    # ptr is in the order of by_tb: the same lists, indexed by access
    first = np.zeros(A + 1, np.int64)
    for i in range(A):
        first[by_tb[i] + 1] = ptr[i + 1] - ptr[i]
    for a in range(A):
        first[a + 1] += first[a]
    flat = np.empty(n, np.int64)
    for i in range(A):
        a = by_tb[i]
        flat[first[a]:first[a + 1]] = out[ptr[i]:ptr[i + 1]]
    return first, flat


def _nop(s: int, dep: tuple[int, int]) -> str:
    # as msccl-tools writes a nop (no buffer, offsets -1, cnt 0): it only carries a dependency
    return (f'      <step s="{s}" type="nop" srcbuf="i" srcoff="-1" dstbuf="o" dstoff="-1" cnt="0" '
            f'depid="{dep[0]}" deps="{dep[1]}" hasdep="0" />\n')


def _as_schedule(schedule: object) -> Schedule:
    from ..allreduce.schedule import Schedule

    if not isinstance(schedule, Schedule):
        raise ValueError(f"schedule={schedule!r:.60} is not a Schedule (build one with "
                         f"starlib.allreduce.schedule.ScheduleBuilder)")
    return schedule


def msccl_rank_map(schedule: Schedule) -> np.ndarray:
    """The host and the router of every rank of a schedule: what :func:`msccl_schedule` writes on each ``<gpu>``.

    Rank ``r`` runs on node ``host = schedule.ranks[r]``. A node with one link, to a node that is no rank, is a
    host on that router (the host mode: hosts hang off routers, routers only forward); any other rank is a router
    that runs a rank itself (``router = host``).

    Parameters
    ----------
    schedule : Schedule
        The schedule (:mod:`starlib.allreduce.schedule`).

    Returns
    -------
    numpy.ndarray
        ``(R, 2)`` int64: ``host, router`` (node indices of the schedule) per rank.

    Raises
    ------
    ValueError
        If ``schedule`` is not a :class:`~starlib.allreduce.schedule.Schedule`.

    Example
    -------
    Routers 0 - 1, two hosts on each (nodes 2, 3 on router 0; 4, 5 on router 1), every host a rank:

    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> links = np.array([[0, 1], [0, 2], [0, 3], [1, 4], [1, 5]])
    >>> b = ScheduleBuilder(6, links, 1.0, chunk_bytes=[8], ranks=[2, 3, 4, 5])
    >>> _ = b.add([2, 0, 3], [0], own=True)
    >>> msccl_rank_map(b.build("x", 8)).tolist()
    [[2, 0], [3, 0], [4, 1], [5, 1]]
    """
    s = _as_schedule(schedule)
    n = s.nodes
    deg = np.bincount(s.links.reshape(-1), minlength=n)
    other = np.zeros(n, dtype=np.int64)
    other[s.links[:, 0]] = s.links[:, 1]
    other[s.links[:, 1]] = s.links[:, 0]
    is_rank = np.zeros(n, dtype=bool)
    is_rank[s.ranks] = True
    v = s.ranks.astype(np.int64)
    hosted = (deg[v] == 1) & ~is_rank[other[v]]
    return np.stack([v, np.where(hosted, other[v], v)], axis=1)


def _fit(chunks: int, room: int, used: int) -> str:
    """What would fit, the count of chunks scaled to the room left (the elements grow about linearly in chunks)."""
    best = chunks * room // max(used, 1)
    if best < 1:
        return "no number of chunks fits"
    return (f"about {best} chunks would fit (it has {chunks}; the schedule builders take packet_bytes, and a bigger "
            f"packet gives fewer chunks)")


def msccl_schedule(schedule: Schedule, *, channels: int | None = None, proto: str = "Simple",
                   name: str | None = None, min_bytes: int = 0, max_bytes: int = 0,
                   names: Sequence[Hashable] | None = None) -> bytes:
    """A :class:`~starlib.allreduce.schedule.Schedule` as an MSCCL allreduce algorithm (XML), with its rank map.

    **Ranks and chunks.** Rank ``r`` is ``schedule.ranks[r]``; the buffer is the schedule's ``C`` chunks
    (``nchunksperloop = C``; MSCCL cuts a buffer into ``C`` equal chunks, so the chunks' sizes are not written).
    Every step works in place on the output buffer ``o``, one chunk per step (``cnt="1"``), as
    :func:`msccl_allreduce` writes.

    **Messages.** Only ranks hold buffers, so every message goes from a rank to a rank; a message of several hops is
    one send from its first rank to its last (the fabric routes it; nothing of the path is written). Packet ``j``
    of message ``m`` with chunk ``c = chunks(m)[j]`` is a step ``s`` of chunk ``c`` at the source and, at the
    destination, ``rrc`` of chunk ``c`` (the schedule's ``reduce``) or ``r`` (a copy); where the schedule's
    ``meta["copy_from"]`` gives, per message, the packet from which a reducing stream copies instead (the
    builders' ring: reduce-scatter then allgather in one stream), packets ``j >= copy_from[m]`` are copies. A send
    sends what its chunk
    holds: the rank's own contribution unless a copy overwrote it, plus what was added into it. The writer runs the
    packets on such buffers in the order below and refuses a schedule where a packet would carry another number of
    contributions than the schedule says (its ``own`` range and its dependencies): one whose packets must cross
    (a rank sends a chunk that a packet it does not wait for has already added into, as when every rank sends its
    raw part to every other) has no in-place program in that order. A schedule that is wrong in the same way in
    both (a missing dependency, say) is written as it is, and :func:`starlib.io.replay_msccl` refuses the file.

    **Order.** Packets are ordered by their level (the longest chain of packets they wait for, through the
    dependencies ``(d, off)``), then message, then packet. Every thread block runs its steps in that order; every
    step waits for what comes before it at its rank and chunk (a send for the last receive into the chunk, a
    receive for the sends that read the chunk since the last receive, or else that receive: the additions into a
    chunk are serial, and no step races another) and for the receives of the packets it depends on that carry
    other chunks. Every wait points to a packet earlier in the order, so the program cannot deadlock (the earliest
    packet not yet moved can always move, even on connections that hold one message). The executor takes one
    dependency per step (``depid``, ``deps``): a step that waits for several thread blocks is preceded by one
    ``nop`` per extra one, as msccl-tools writes them (its kernel counts a step's ``nop`` s by its dependencies).

    **Thread blocks and channels.** One thread block per (peer, channel, direction): ``send = peer, recv = -1`` or
    ``send = -1, recv = peer``, ids in msccl-tools' order (by ``send``, ``recv``, ``chan``). The ordered pairs of
    ranks are put greedily in groups where no rank sends to (or receives from) more than 32 peers
    (``MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL``); group ``g`` gets ``h`` channels, and packet ``j`` of a message
    that is the ``l``-th between its two ranks takes channel ``g*h + (l + j) mod h``. By default ``h`` is the
    smallest that keeps every thread block within 64 steps.

    **The rank map.** Each ``<gpu>`` carries ``host`` and ``router`` (:func:`msccl_rank_map`) and, given ``names``,
    ``name``: the host's name as text (:func:`starlib.io.json_format.label_text`). The executor's parser
    (``mscclXmlGetNode`` in ``src/misc/msccl/msccl_parser.cc``, Azure/msccl-executor-nccl) reads up to
    ``MAX_ATTR_COUNT = 16`` attributes per element into a list (further ones it drops with an INFO message) and
    ``mscclXmlGetAttr`` finds an attribute by name, so the attributes it never asks for are never read; a
    ``<gpu>`` uses four (``id``, ``i_chunks``, ``o_chunks``, ``s_chunks``), and the map adds three. The same reader
    is NCCL's topology reader (``src/graph/xml.cc``, also ``MAX_ATTR_COUNT 16``). An XML comment would be skipped
    as well
    (``mscclXmlSkipComment``), but attributes sit on the element they describe and every XML reader returns them;
    :func:`starlib.io.replay_msccl` reads them back and checks them against the ranks.

    Parameters
    ----------
    schedule : Schedule
        The collective; every message starts and ends at a rank (``mode="host"`` for the builders).
    channels : int, optional
        Channels (1 to 32); default: the fewest that fit.
    proto : str
        ``"Simple"``, ``"LL128"`` or ``"LL"``.
    name : str, optional
        The algorithm's name (default: the schedule's), at most 255 characters written (``MAX_STR_LEN``).
    min_bytes, max_bytes : int
        The message sizes the runtime may pick this algorithm for (``maxBytes = 0``: no upper limit).
    names : sequence, optional
        One name per node of the schedule (a network file's node ids, say): rank ``r``'s ``<gpu>`` then carries
        ``name``, the name of its host, at most 255 characters written (``MAX_STR_LEN``).

    Returns
    -------
    bytes
        The XML document (UTF-8, no XML declaration), the same bytes for the same input.

    Raises
    ------
    ValueError
        For a bad option; a message that starts or ends at a node that is no rank (the in-network mode: use
        ``mode="host"``); a dependency cycle; a packet whose contributions an in-place MSCCL chunk cannot carry;
        a file over one of the executor's limits (:data:`MSCCL_LIMITS`: 1024 gpus, 64 steps per thread block,
        32 thread blocks per channel and direction, 1024 thread blocks per rank, dependencies on thread blocks
        0..127 only, 4096 XML elements per rank), named, with the number of chunks that would fit.

    References
    ----------
    Azure/msccl-executor-nccl: ``src/misc/msccl/msccl_parser.cc``, ``src/include/msccl/msccl_parser.h``,
    ``src/include/msccl/msccl_struct.h``, ``src/device/msccl_kernel.cu``; microsoft/msccl-tools:
    ``msccl/language/ir.py`` (``ir_to_xml``).

    Example
    -------
    Reduce-scatter then allgather on two ranks, two chunks (rank ``r`` reduces chunk ``r``):

    >>> from starlib.allreduce.schedule import ScheduleBuilder
    >>> b = ScheduleBuilder(2, np.array([[0, 1]]), 1.0, chunk_bytes=[4, 4])
    >>> rs0, rs1 = b.add([0, 1], [1], own=True, reduce=True), b.add([1, 0], [0], own=True, reduce=True)
    >>> _ = b.add([0, 1], [0], deps=[(rs1, 0)], own=True, final=True)
    >>> _ = b.add([1, 0], [1], deps=[(rs0, 0)], own=True, final=True)
    >>> xml = msccl_schedule(b.build("rs-ag", size=8))
    >>> xml.count(b"<tb "), xml.count(b'type="rrc"'), xml.count(b'type="r"'), xml.count(b'type="s"')
    (4, 2, 2, 4)
    """
    s = _as_schedule(schedule)
    _, given, proto, lo_b, hi_b = check_msccl_options(1, channels, proto, min_bytes, max_bytes)
    lim = MSCCL_LIMITS
    R, C, M = int(s.ranks.shape[0]), int(s.chunk_bytes.shape[0]), s.messages
    if R < 2:
        raise ValueError(f"schedule: an allreduce needs at least 2 ranks, got {R}")
    if R > lim["MSCCL_MAX_SUBS"]:
        raise ValueError(f"schedule: {R} ranks; the executor's parser keeps at most MSCCL_MAX_SUBS=1024 gpus")
    if C > lim["MSCCL_MAX_NODES"]:
        raise ValueError(f"schedule: {C} chunks; every rank receives every chunk at least once, and the executor's "
                         f"parser keeps MSCCL_MAX_NODES=4096 XML elements per rank: "
                         f"{_fit(C, lim['MSCCL_MAX_NODES'] - 1 - R, C)}")
    quoted = _attr(s.name if name is None else str(name), "name")
    if names is not None and len(names) != s.nodes:
        raise ValueError(f"names: {len(names)} names for the schedule's {s.nodes} nodes; need one per node")
    rank_of = np.full(s.nodes, -1, dtype=np.int64)
    rank_of[s.ranks] = np.arange(R)
    ends = (s.path_nodes[s.path_ptr[:-1]], s.path_nodes[s.path_ptr[1:] - 1])
    src_m, dst_m = rank_of[ends[0]], rank_of[ends[1]]
    if (src_m < 0).any() or (dst_m < 0).any():
        m = int(np.flatnonzero((src_m < 0) | (dst_m < 0))[0])
        side, node = ("starts", ends[0][m]) if src_m[m] < 0 else ("ends", ends[1][m])
        raise ValueError(f"schedule {s.name!r}: messages[{m}] {side} at node {int(node)}, which is no rank (a router "
                         f"reducing in the network): the in-network mode cannot be an MSCCL program (MSCCL runs on "
                         f"the GPUs of hosts, and only they hold buffers); build the schedule with mode=\"host\"")
    if (src_m == dst_m).any():
        m = int(np.flatnonzero(src_m == dst_m)[0])
        raise ValueError(f"schedule {s.name!r}: messages[{m}] starts and ends at rank {int(src_m[m])}; an MSCCL "
                         f"rank does not send to itself")

    # the packets in dependency order, with the contributions the schedule says each carries
    P = np.diff(s.chunk_ptr)
    N = int(s.chunk_ptr[-1])
    room = lim["MSCCL_MAX_NODES"] - 1 - R
    if 2 * N > R * room:  # a step at each end of every packet: some rank holds more than the average
        raise ValueError(f"schedule {s.name!r}: {N} packets make {2 * N} steps, {-(-2 * N // R)} per rank on average; "
                         f"the executor's parser keeps MSCCL_MAX_NODES=4096 XML elements per rank, {1 + R} of them "
                         f"the algo and the gpus: {_fit(C, room, -(-2 * N // R))}")
    msg_of = np.repeat(np.arange(M, dtype=np.int64), P)
    j_of = np.arange(N, dtype=np.int64) - s.chunk_ptr[:-1][msg_of]
    adds = s.reduce[msg_of]
    if "copy_from" in s.meta:
        cf = np.asarray(s.meta["copy_from"])
        if cf.shape != (M,) or not np.issubdtype(cf.dtype, np.integer):
            raise ValueError(f"schedule {s.name!r}: meta['copy_from'] must hold one integer per message ({M})")
        adds = adds & (j_of < cf[msg_of])
    own = ((j_of >= s.own_lo[msg_of]) & (j_of < s.own_hi[msg_of])).astype(np.int64)
    owner = np.repeat(np.arange(M, dtype=np.int64), np.diff(s.dep_ptr))
    by_dep = np.argsort(s.dep_msg, kind="stable")
    users_ptr = np.zeros(M + 1, dtype=np.int64)
    users_ptr[1:] = np.cumsum(np.bincount(s.dep_msg, minlength=M))
    level, count, done = _release(s.chunk_ptr, s.dep_ptr, s.dep_msg, s.dep_off, users_ptr, owner[by_dep],
                                  s.dep_off[by_dep], own)
    if not done.all():
        g = int(np.flatnonzero(~done)[0])
        raise ValueError(f"schedule {s.name!r}: messages[{int(msg_of[g])}]: packet {int(j_of[g])} never leaves (a "
                         f"cycle of dependencies): no order of steps exists")
    order = np.lexsort((j_of, msg_of, level))
    pos = np.empty(N, dtype=np.int64)
    pos[order] = np.arange(N)
    pa, pb, pc = src_m[msg_of], dst_m[msg_of], s.chunk_ids
    i, held = _contents(order, pa, pb, pc, adds, count, R, C)
    if i >= 0:
        g = int(order[i])
        raise ValueError(f"schedule {s.name!r}: messages[{int(msg_of[g])}]: packet {int(j_of[g])} carries "
                         f"{int(count[g])} contributions, but chunk {int(pc[g])} of rank {int(pa[g])} then holds "
                         f"{int(held)} in the writer's order (packets by level, message, packet): an MSCCL send sends "
                         f"what the chunk holds (the rank's own contribution unless a copy overwrote it, plus what was "
                         f"added into it), so the schedule has no in-place MSCCL program in that order")

    # accesses: the send (a read) and the receive (a write) of every packet, numbered in (rank, chunk, order)
    A = 2 * N
    raw_rank, raw_chunk, raw_pos = np.concatenate([pa, pb]), np.concatenate([pc, pc]), np.concatenate([pos, pos])
    srt = np.lexsort((raw_pos, raw_chunk, raw_rank))
    acc_id = np.empty(A, dtype=np.int64)
    acc_id[srt] = np.arange(A)
    rank, chunk, apos = raw_rank[srt], raw_chunk[srt], raw_pos[srt]
    write = srt >= N
    pkt = np.where(write, srt - N, srt)
    idx = np.arange(A, dtype=np.int64)
    new = np.ones(A, dtype=bool)
    new[1:] = (rank[1:] != rank[:-1]) | (chunk[1:] != chunk[:-1])
    gstart = np.maximum.accumulate(np.where(new, idx, 0))
    lastw = np.maximum.accumulate(np.where(write, idx, -1))
    pw = np.full(A, -1, dtype=np.int64)
    pw[1:] = lastw[:-1]
    pw = np.where(pw >= gstart, pw, -1)
    reads_from = np.where(pw >= 0, pw + 1, gstart)
    has_reads = write & (reads_from < idx)
    lo = np.where(has_reads, reads_from, np.where(pw >= 0, pw, 0))
    hi = np.where(has_reads, idx, np.where(pw >= 0, pw + 1, 0))
    # dependencies on packets of other chunks order the steps too (the chain of a chunk covers its own)
    off_lo = np.maximum(0, -s.dep_off)
    off_hi = np.minimum(P[owner], P[s.dep_msg] - s.dep_off)
    L = np.maximum(off_hi - off_lo, 0)
    rep = np.repeat(np.arange(L.shape[0]), L)
    js = off_lo[rep] + np.arange(int(L.sum())) - np.repeat(np.cumsum(L) - L, L)
    g_w = s.chunk_ptr[owner[rep]] + js
    g_d = s.chunk_ptr[s.dep_msg[rep]] + js + s.dep_off[rep]
    cross = pc[g_w] != pc[g_d]
    waiter, target = acc_id[g_w[cross]], acc_id[N + g_d[cross]]
    o = np.lexsort((target, waiter))
    extra = target[o]
    extra_ptr = np.zeros(A + 1, dtype=np.int64)
    extra_ptr[1:] = np.cumsum(np.bincount(waiter, minlength=A))

    # channels: pairs in groups of at most 32 peers per rank and direction, h channels per group
    pair = pa * R + pb
    pairs = np.unique(pair)
    cap = lim["MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL"]
    load: dict[tuple[int, int, int], int] = {}
    group = np.zeros(pairs.shape[0], dtype=np.int64)
    for k, p in enumerate(pairs.tolist()):
        a, b = divmod(p, R)
        g = 0
        while load.get((0, a, g), 0) >= cap or load.get((1, b, g), 0) >= cap:
            g += 1
        load[0, a, g] = load.get((0, a, g), 0) + 1
        load[1, b, g] = load.get((1, b, g), 0) + 1
        group[k] = g
    G = int(group.max()) + 1
    mpair = src_m * R + dst_m
    mo = np.lexsort((np.arange(M), mpair))
    lane = np.empty(M, dtype=np.int64)
    first_of = np.searchsorted(mpair[mo], mpair[mo], side="left")
    lane[mo] = np.arange(M) - first_of
    pgroup = group[np.searchsorted(pairs, pair)]
    top = lim["MAXCHANNELS"] // G
    if given is not None:
        if G > given:
            raise ValueError(f"channels={given} is too few: a rank sends to (or receives from) more than "
                             f"{cap * given} peers, and a channel holds MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL=32 "
                             f"thread blocks per direction: need channels >= {G}")
        tries = [given // G]
    else:
        if G > lim["MAXCHANNELS"]:
            raise ValueError(f"schedule {s.name!r}: a rank talks to more than {cap * lim['MAXCHANNELS']} peers in one "
                             f"direction; MAXCHANNELS=32 channels of MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL=32 "
                             f"thread blocks cannot hold them")
        busiest = int(np.bincount(np.searchsorted(pairs, pair)).max())
        tries = list(range(min(-(-busiest // lim["MSCCL_MAX_NUM_STEPS"]), top), top + 1))
    for h in tries:
        nch = G * h if given is None else given
        chan = pgroup * h + (lane[msg_of] + j_of) % h
        peer = np.concatenate([pb, pa])[srt]
        achan = np.concatenate([chan, chan])[srt]
        send_peer = np.where(write, -1, peer)
        recv_peer = np.where(write, peer, -1)
        tbo = np.lexsort((achan, recv_peer, send_peer, rank))
        newtb = np.ones(A, dtype=bool)
        newtb[1:] = ((rank[tbo][1:] != rank[tbo][:-1]) | (send_peer[tbo][1:] != send_peer[tbo][:-1])
                     | (recv_peer[tbo][1:] != recv_peer[tbo][:-1]) | (achan[tbo][1:] != achan[tbo][:-1]))
        acc_tb = np.empty(A, dtype=np.int64)
        acc_tb[tbo] = np.cumsum(newtb) - 1
        T = int(acc_tb.max()) + 1
        heads = tbo[newtb]  # one access of each thread block
        tb_rank, tb_send, tb_recv, tb_chan = rank[heads], send_peer[heads], recv_peer[heads], achan[heads]
        rank_first_tb = np.searchsorted(tb_rank, np.arange(R))
        tb_local = np.arange(T) - rank_first_tb[tb_rank]
        by_tb = np.lexsort((apos, acc_tb))
        tb_first = np.searchsorted(acc_tb[by_tb], np.arange(T))
        acc_step = np.empty(A, dtype=np.int64)
        acc_step[by_tb] = np.arange(A) - tb_first[acc_tb[by_tb]]
        wptr, wflat = _waits(by_tb, acc_tb, acc_step, lo, hi, extra_ptr, extra, T)
        size = 1 + np.maximum(np.diff(wptr) - 1, 0)
        cs = np.cumsum(size[by_tb])
        base = np.concatenate([[0], cs])[tb_first]
        xml_step = np.empty(A, dtype=np.int64)
        xml_step[by_tb] = cs - 1 - base[acc_tb[by_tb]]
        tb_steps = np.bincount(acc_tb, weights=size, minlength=T).astype(np.int64)
        t = int(np.argmax(tb_steps))
        if tb_steps[t] > lim["MSCCL_MAX_NUM_STEPS"]:
            if h == tries[-1]:
                side = f"to rank {int(tb_send[t])}" if tb_send[t] >= 0 else f"from rank {int(tb_recv[t])}"
                raise ValueError(f"schedule {s.name!r}: rank {int(tb_rank[t])}'s thread block {side} on channel "
                                 f"{int(tb_chan[t])} of {nch} runs {int(tb_steps[t])} steps; the executor allows "
                                 f"MSCCL_MAX_NUM_STEPS=64 per thread block: "
                                 f"{_fit(C, lim['MSCCL_MAX_NUM_STEPS'], int(tb_steps[t]))}")
            continue
        waited = np.unique(acc_tb[wflat])
        far = waited[tb_local[waited] > lim["DEPENDENT_BID_MAX"]]
        if far.size:
            t = int(far[0])
            raise ValueError(f"schedule {s.name!r}: a step of rank {int(tb_rank[t])} waits for its thread block "
                             f"{int(tb_local[t])}; the executor keeps a dependency's thread block in an int8_t "
                             f"(dependentBid), so only thread blocks 0..127 can be waited for (give fewer channels)")
        tbs_per_rank = np.bincount(tb_rank, minlength=R)
        r = int(np.argmax(tbs_per_rank))
        if tbs_per_rank[r] > lim["MSCCL_MAX_NUM_THREAD_BLOCKS"]:
            raise ValueError(f"schedule {s.name!r}: rank {r} needs {int(tbs_per_rank[r])} thread blocks; the executor "
                             f"allows MSCCL_MAX_NUM_THREAD_BLOCKS=1024 (give fewer channels)")
        steps_per_rank = np.bincount(tb_rank, weights=tb_steps, minlength=R).astype(np.int64)
        nodes = 1 + R + tbs_per_rank + steps_per_rank
        r = int(np.argmax(nodes))
        if nodes[r] > lim["MSCCL_MAX_NODES"]:
            tr, sr = int(tbs_per_rank[r]), int(steps_per_rank[r])
            raise ValueError(f"schedule {s.name!r}: rank {r}'s part of the file has {int(nodes[r])} XML elements (the "
                             f"algo, {R} gpus, {tr} thread blocks, {sr} steps); the executor's parser keeps "
                             f"MSCCL_MAX_NODES=4096: {_fit(C, lim['MSCCL_MAX_NODES'] - 1 - R - tr, sr)}")
        break
    hasdep = np.zeros(A, dtype=bool)
    hasdep[wflat] = True
    kind = np.where(write, np.where(adds[pkt], "rrc", "r"), "s")
    hosts = msccl_rank_map(s)
    out = [f'<algo name={quoted} proto="{proto}" nchannels="{nch}" nchunksperloop="{C}" ngpus="{R}" '
           f'coll="allreduce" inplace="1" outofplace="0" minBytes="{lo_b}" maxBytes="{hi_b}">\n']
    seq = by_tb.tolist()
    ptrs, flat, steps_of, tbl = wptr.tolist(), wflat.tolist(), xml_step.tolist(), tb_local.tolist()
    owner_tb, kinds, chunks_l, hd = acc_tb.tolist(), kind.tolist(), chunk.tolist(), hasdep.tolist()
    k = 0
    for r in range(R):
        host = int(hosts[r, 0])
        out.append(_gpu(r, C, host, int(hosts[r, 1]), None if names is None else names[host]))
        for t in range(int(rank_first_tb[r]), int(rank_first_tb[r + 1]) if r + 1 < R else T):
            out.append(f'    <tb id="{tbl[t]}" send="{int(tb_send[t])}" recv="{int(tb_recv[t])}" '
                       f'chan="{int(tb_chan[t])}">\n')
            while k < A and owner_tb[seq[k]] == t:
                a = seq[k]
                deps = [(tbl[owner_tb[y]], steps_of[y]) for y in flat[ptrs[a]:ptrs[a + 1]]]
                first = steps_of[a] - max(len(deps) - 1, 0)
                out += [_nop(first + i, d) for i, d in enumerate(deps[:-1])]
                out.append(_step(steps_of[a], kinds[a], chunks_l[a], deps[-1] if deps else None, hd[a]))
                k += 1
            out.append("    </tb>\n")
        out.append("  </gpu>\n")
    out.append("</algo>\n")
    return "".join(out).encode()
