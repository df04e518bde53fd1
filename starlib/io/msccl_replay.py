"""Replay an MSCCL allreduce XML file: its limits, its deadlock freedom, its races, and what every rank ends with.

:func:`replay_msccl` reads an algorithm file (:mod:`starlib.io.msccl`, or any file of the same grammar) with
``xml.etree`` and checks it (docs/formats.md §6.10).

1. **The grammar and the executor's limits**, as ``mscclGetAlgoFromXmlFile`` of Azure/msccl-executor-nccl
   (``src/misc/msccl/msccl_parser.cc``) checks them, with the constants of
   :data:`starlib.io.msccl.MSCCL_LIMITS`: every required attribute present and an integer where it must be one;
   ``coll="allreduce"``; a known protocol; ``1 <= nchannels <= 32`` and every thread block on a channel below
   ``nchannels``; thread block ids ``0..T-1`` without gaps or repeats, ``T <= 1024``; at most 32 thread blocks of
   a rank sending (and 32 receiving) on one channel; peers other than the rank itself; at most 64 steps per
   thread block, numbered ``s = 0, 1, ...``; ``1 <= cnt < 72``; a send only in a thread block with a send peer, a
   receive only with a receive peer; offsets inside the buffers; ``hasdep`` 0 or 1; a dependency on an existing
   step of another thread block of the rank; at most 1024 gpus and 1024 thread blocks per gpu
   (``MSCCL_MAX_SUBS``) and at most 4096 XML elements kept for one rank (``MSCCL_MAX_NODES``: the algo, every
   gpu, the rank's thread blocks and steps). Two thread blocks of a rank may not send to (or receive from) the
   same peer on the same channel: they would share one connection. The parser's records: at most 16 attributes
   per element (``MAX_ATTR_COUNT``), values of at most 255 characters (``MAX_STR_LEN``). A dependency names a
   thread block ``0..127`` (the executor keeps it in an ``int8_t``, ``dependentBid`` of ``msccl_struct.h``). A
   ``nop`` is how a step waits for more than one thread block: the parser adds its dependency to the next step's
   and the kernel counts the nops of a step by its dependencies (``src/device/msccl_kernel.cu``), so a nop has a
   dependency, no ``hasdep``, and a step with a dependency of its own after it.
2. **The run.** Thread blocks execute their steps in order. A step with a dependency ``(depid, deps)`` waits until
   thread block ``depid`` has completed a step ``>= deps`` that has ``hasdep="1"`` (the executor's flags are set
   only by such steps, and grow). A send puts its chunks on the connection ``(channel, rank, peer)``, which holds
   at most ``slots`` messages (default 1, the strictest; NCCL has more, and more room cannot add a deadlock to
   a schedule without one); a receive takes the oldest message of ``(channel, peer, rank)`` and needs as many
   chunks as its ``cnt``. Each chunk of a rank holds the *set of ranks* whose contributions it sums; a reduction
   (``rrc``, ``rrs``, ``rrcs``, ``re``) unites two sets and refuses two that share a rank (a contribution counted
   twice). The run ends when no step can execute; a thread block left with steps is a deadlock, reported with
   what it waits for, and a message left on a connection is a send without its receive.
3. **The result.** With ``inplace="1"`` the input and output buffers are one (each rank's chunks start as its
   own contribution); every chunk ``0..nchunksperloop-1`` of the output buffer of every rank must end with the
   set of all ranks.
4. **Races.** Two steps of different thread blocks of a rank that touch the same chunk, one of them writing, must be
   ordered by what the executor synchronises on; otherwise the runtime may run them at once. The order is
   happens-before across ranks (Lamport's relation, tracked with Mattern's vector clocks), built from three
   guarantees of the executor (``src/device/msccl_kernel.cu``; NCCL's primitives ``src/device/prims_simple.h``
   and ``prims_ll.h``):

   * *program order*: a thread block runs its steps one after the other, and a step ends on a barrier of the block;
   * *flags*: after the primitive of a step with ``hasdep="1"`` has returned, the block's last thread sets the
     block's flag (behind a ``__threadfence()`` when the work needs one), and a step with a dependency polls that
     flag before it does anything: it starts after the first step ``>= deps`` with ``hasdep="1"`` is done (that
     step, not a later one the thread block may have reached meanwhile);
   * *connections*: a send posts its chunks piece by piece (slices on Simple, 8-byte lines carrying their own
     flag on LL) into the FIFO of its connection ``(channel, rank, peer)``, and the receives of that connection
     read them in the same order, each piece after it was posted. So the k-th receive takes the k-th send, every
     value a receiving step writes is computed from a piece it has read, and the step ends after the last piece.

   A message is weaker than a flag: the receiver may start before the sending step is done; on LL it loads its own
   source before it polls the connection, and a step that sends and writes (``rcs``, ``rrcs``) posts a line before
   it stores the same value into its destination (``LLGenericOp``). So an access of step ``a`` is ordered before an
   access of step ``b`` of another thread block of the rank when ``a`` is done at a point ``b``'s access waits for:

   * ``before(b)``, what is done when ``b`` starts: its thread block's earlier steps and its dependency's step,
     each with what was done when it ended. The reads of ``b`` are checked against it.
   * A message of step ``s`` carries ``first(s)``, done before its first piece: ``before(s)`` and, when ``s``
     forwards what it receives (``rcs``, ``rrs``, ``rrcs``), the ``first`` of its own message; and ``last(s)``,
     done before its last piece: ``before(s)``, the reads of ``s`` (every value sent is computed from them) and
     the ``last`` of its own message. The writes of a receiving step ``b`` are checked against ``before(b)`` and
     its message's ``first``; when ``b`` ends, it knows ``before(b)``, its message's ``last`` and ``b`` itself.
   * A write of a receiving step is also ordered after a read of the same chunk by a step of the chain of
     forwarding steps its message came through, when the read and the write sit at the same place in the
     message (``srcoff`` of the read equals ``dstoff`` of the write): each piece written is computed from the
     piece read at the same place.

   Each rule follows a chain of the executor's own waits, so two accesses the replay orders cannot overlap on the
   GPUs. Waiting for room on a connection orders nothing (NCCL's connections hold more than ``slots``). A
   tree's reduce-scatter write of a chunk at a rank and its allgather write of the same chunk are thus ordered
   through the round trip via the tree parent when the rank's send to the parent waits (a dependency) for the
   first write, as in ForestColl's files; two thread blocks that touch a chunk with no such chain are a race, and
   so is a chain whose sending step did not wait for the first access.

   The rank's own program order and flags order most accesses. The run keeps them as vector clocks over the
   rank's thread blocks, and only the pairs these leave unordered are decided across ranks, in a second pass over
   the run's steps in their order, with bit sets over the first accesses of those pairs (a vector clock over every
   thread block of every rank would have ``R * T`` entries, too many at 1,000 ranks).
   :attr:`ReplayReport.ordered_across` counts the pairs only messages order.

The rank map. A ``<gpu>`` may carry ``host`` and ``router`` (:func:`starlib.io.msccl.msccl_schedule` and
:func:`~starlib.io.msccl.msccl_allreduce` write them; the executor's parser reads attributes by name and ignores
these): then every gpu carries both, integers ``>= 0``, and a host sits on one router. It may also carry ``name``,
the host's name (a network file's node id): then every gpu carries one. :attr:`ReplayReport.rank_map` and
:attr:`ReplayReport.rank_names` return them.

Any failure raises ``ValueError`` naming the rank, thread block, step and rule; a file that passes returns a
:class:`ReplayReport`.

Example
-------
>>> import numpy as np
>>> from starlib.graphs import ArrayGraph
>>> from starlib.edst.trees import Tree
>>> from starlib.io.msccl import msccl_allreduce
>>> c4 = ArrayGraph.from_edges(range(4), np.array([[0, 1], [1, 2], [2, 3], [0, 3]]))
>>> rep = replay_msccl(msccl_allreduce(c4, [Tree(np.array([[0, 1], [1, 2], [2, 3]]), 0)], chunks=2))
>>> rep.ranks, rep.threadblocks, rep.steps, rep.messages, rep.max_steps_per_tb, rep.ordered_across
(4, 6, 24, 12, 4, 0)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..validation import check_int
from .msccl import MSCCL_LIMITS, PROTOCOLS
from .xml_safe import refuse_entities

__all__ = ["ReplayReport", "replay_msccl", "STEP_TYPES"]

#: Step types: (receives, sends, reduces, reads src, writes dst) as the executor's parser sets them.
STEP_TYPES: dict[str, tuple[bool, bool, bool, bool, bool]] = {
    "s": (False, True, False, True, False),
    "r": (True, False, False, False, True),
    "rcs": (True, True, False, False, True),
    "rrs": (True, True, True, True, False),
    "rrc": (True, False, True, True, True),
    "rrcs": (True, True, True, True, True),
    "cpy": (False, False, False, True, True),
    "re": (False, False, True, True, True),
    "nop": (False, False, False, False, False),
}

_ALGO_ATTRS = ("nchunksperloop", "nchannels", "ngpus", "proto", "coll", "minBytes", "maxBytes", "inplace",
               "outofplace")
_STEP_INTS = ("s", "srcoff", "dstoff", "cnt", "depid", "deps", "hasdep")


@dataclass(frozen=True)
class ReplayReport:
    """What a replay that passed saw.

    Attributes
    ----------
    ranks, threadblocks, steps : gpus, thread blocks and steps of the file (all ranks).
    chunks : ``nchunksperloop``.
    channels : ``nchannels``.
    messages : sends matched by receives.
    max_steps_per_tb : the most steps of one thread block (the executor allows 64).
    max_tbs_per_channel : the most thread blocks of one rank sending or receiving on one channel (32 allowed).
    max_xml_nodes : the most XML elements the executor's parser keeps for one rank (4096 allowed).
    ordered_across : pairs of accesses to a chunk of a rank, by two of its thread blocks and one of them writing,
        that the rank's own program order and flags leave unordered and messages through other ranks order (the
        first mode run: in place when the file allows it).
    rank_map : ``(host, router)`` of each rank ``0..ranks-1`` from the ``<gpu>`` attributes ``host`` and
        ``router`` (:func:`starlib.io.msccl.msccl_schedule` writes them), or ``None`` for a file without them.
    rank_names : the ``name`` of each rank ``0..ranks-1`` (its host's name, such as a network file's node id), or
        ``None`` for a file without them.
    """

    ranks: int
    threadblocks: int
    steps: int
    chunks: int
    channels: int
    messages: int
    max_steps_per_tb: int
    max_tbs_per_channel: int
    max_xml_nodes: int
    rank_map: tuple[tuple[int, int], ...] | None = None
    ordered_across: int = 0
    rank_names: tuple[str, ...] | None = None


@dataclass
class _Step:
    kind: str
    srcbuf: str
    srcoff: int
    dstbuf: str
    dstoff: int
    cnt: int
    dep: tuple[int, int] | None
    hasdep: bool
    until: int = -1  # the step of thread block dep[0] whose flag releases this one: the first >= deps with hasdep


@dataclass
class _Tb:
    rank: int
    id: int
    send: int
    recv: int
    chan: int
    steps: list[_Step]
    pc: int = 0
    flag: int = 0  # 1 + the last completed step with hasdep="1"
    vc: list[int] | None = None  # the steps of the rank's thread blocks done before this one's next step
    waiters: dict[int, int] | None = None  # step -> steps of other thread blocks its flag releases
    ends: dict[int, Any] | None = None  # step -> clock when it ended, kept until its waiters have read it
    left: dict[int, int] | None = None  # step -> waiters still to read it
    pc2: int = 0  # second pass: the next step
    known: int = 0  # second pass: bit set of the earlier accesses done before the next step


def _int(elem: ET.Element, key: str, where: str) -> int:
    text = elem.get(key)
    if text is None:
        raise ValueError(f"msccl: {where} has no attribute {key!r} (the executor requires it)")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"msccl: {where}: {key}={text!r} is not an integer") from None


def _check_attributes(root: ET.Element) -> None:
    """Every element within the parser's fixed-size records: at most 16 attributes, values of 255 characters."""
    for elem in root.iter():
        if len(elem.attrib) > MSCCL_LIMITS["MAX_ATTR_COUNT"]:
            raise ValueError(f"msccl: a <{elem.tag}> has {len(elem.attrib)} attributes; the executor's parser keeps "
                             f"MAX_ATTR_COUNT=16 and drops the others")
        for key, value in elem.attrib.items():
            if len(value) > MSCCL_LIMITS["MAX_STR_LEN"]:
                raise ValueError(f"msccl: a <{elem.tag}>'s {key} has {len(value)} characters; the executor's parser "
                                 f"reads values into MAX_STR_LEN=255 characters")


def _parse(root: ET.Element) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    if root.tag != "algo":
        raise ValueError(f"msccl: the document element is <{root.tag}>, not <algo>")
    _check_attributes(root)
    for key in _ALGO_ATTRS:
        if root.get(key) is None:
            raise ValueError(f"msccl: <algo> has no attribute {key!r} (the executor requires it)")
    algo: dict[str, Any] = {k: _int(root, k, "<algo>") for k in ("nchunksperloop", "nchannels", "ngpus", "minBytes",
                                                                   "maxBytes", "inplace", "outofplace")}
    algo["proto"], algo["coll"] = root.get("proto"), root.get("coll")
    if algo["coll"] != "allreduce":
        raise ValueError(f"msccl: coll={algo['coll']!r}; this replay checks an allreduce")
    if algo["proto"] not in PROTOCOLS:
        raise ValueError(f"msccl: proto={algo['proto']!r} is not one of {', '.join(PROTOCOLS)}")
    if not 1 <= algo["nchannels"] <= MSCCL_LIMITS["MAXCHANNELS"]:
        raise ValueError(f"msccl: nchannels={algo['nchannels']} must be 1..32 (NCCL's MAXCHANNELS)")
    if algo["nchunksperloop"] < 1:
        raise ValueError(f"msccl: nchunksperloop={algo['nchunksperloop']} must be >= 1")
    if algo["minBytes"] < 0 or algo["maxBytes"] < 0 or (algo["maxBytes"] and algo["maxBytes"] < algo["minBytes"]):
        raise ValueError(f"msccl: minBytes={algo['minBytes']}, maxBytes={algo['maxBytes']}: need 0 <= minBytes and "
                         f"maxBytes = 0 (no limit) or >= minBytes")
    if algo["inplace"] not in (0, 1) or algo["outofplace"] not in (0, 1) or not algo["inplace"] + algo["outofplace"]:
        raise ValueError("msccl: inplace and outofplace must be 0 or 1, and one of them 1")
    gpus = [g for g in root if g.tag == "gpu"]
    if len(gpus) > MSCCL_LIMITS["MSCCL_MAX_SUBS"]:
        raise ValueError(f"msccl: {len(gpus)} <gpu> elements; the parser keeps MSCCL_MAX_SUBS=1024")
    if len(gpus) != algo["ngpus"]:
        raise ValueError(f"msccl: ngpus={algo['ngpus']} but {len(gpus)} <gpu> elements")
    ranks = []
    for g in gpus:
        r = _int(g, "id", "a <gpu>")
        where = f"gpu {r}"
        info: dict[str, Any] = {"id": r, "tbs": []}
        for key in ("i_chunks", "o_chunks", "s_chunks"):
            info[key] = _int(g, key, where)
            if info[key] < 0:
                raise ValueError(f"msccl: {where}: {key}={info[key]} is negative")
        if (g.get("host") is None) != (g.get("router") is None):
            raise ValueError(f"msccl: {where}: the rank map needs both host and router, or neither")
        if g.get("host") is not None:
            info["map"] = (_int(g, "host", where), _int(g, "router", where))
            if min(info["map"]) < 0:
                raise ValueError(f"msccl: {where}: host={info['map'][0]}, router={info['map'][1]} must be >= 0")
        for t in g:
            if t.tag != "tb":
                continue
            b = _int(t, "id", f"{where}, a <tb>")
            tw = f"{where}, tb {b}"
            tb = _Tb(r, b, _int(t, "send", tw), _int(t, "recv", tw), _int(t, "chan", tw), [])
            for st in t:
                if st.tag != "step":
                    continue
                v = {k: _int(st, k, f"{tw}, a <step>") for k in _STEP_INTS}
                sw = f"{tw}, step {v['s']}"
                for k in ("type", "srcbuf", "dstbuf"):
                    if st.get(k) is None:
                        raise ValueError(f"msccl: {sw} has no attribute {k!r} (the executor requires it)")
                if v["s"] != len(tb.steps):
                    raise ValueError(f"msccl: {sw}: steps must be numbered 0, 1, ... in order; expected "
                                     f"s={len(tb.steps)} (a step is missing or out of order)")
                if st.get("type") not in STEP_TYPES:
                    raise ValueError(f"msccl: {sw}: type={st.get('type')!r} is not one of {', '.join(STEP_TYPES)}")
                if v["hasdep"] not in (0, 1):
                    raise ValueError(f"msccl: {sw}: hasdep={v['hasdep']} must be 0 or 1")
                if (v["depid"] < 0) != (v["deps"] < 0):
                    raise ValueError(f"msccl: {sw}: depid={v['depid']} and deps={v['deps']} must both be -1 or both "
                                     f"name a step")
                tb.steps.append(_Step(st.get("type"), st.get("srcbuf"), v["srcoff"], st.get("dstbuf"), v["dstoff"],
                                      v["cnt"], (v["depid"], v["deps"]) if v["depid"] >= 0 else None,
                                      bool(v["hasdep"])))
            info["tbs"].append(tb)
        ranks.append(info)
    if sorted(i["id"] for i in ranks) != list(range(len(ranks))):
        raise ValueError(f"msccl: gpu ids must be 0..{len(ranks) - 1}, each once")
    ranks = sorted(ranks, key=lambda i: i["id"])
    mapped = [i for i in ranks if "map" in i]
    if mapped and len(mapped) != len(ranks):
        missing = next(i["id"] for i in ranks if "map" not in i)
        raise ValueError(f"msccl: the rank map (host, router on <gpu>) names {len(mapped)} of {len(ranks)} ranks; "
                         f"gpu {missing} has none")
    router_of: dict[int, tuple[int, int]] = {}
    for i in mapped:
        host, router = i["map"]
        if router_of.setdefault(host, (router, i["id"]))[0] != router:
            other, r0 = router_of[host]
            raise ValueError(f"msccl: the rank map puts host {host} on router {other} (gpu {r0}) and on router "
                             f"{router} (gpu {i['id']})")
    algo["rank_map"] = tuple(i["map"] for i in mapped) if mapped else None
    named = [g.get("name") for g in sorted(gpus, key=lambda g: int(g.get("id")))]
    if any(x is not None for x in named) and None in named:
        raise ValueError(f"msccl: {sum(x is not None for x in named)} of {len(named)} gpus carry a name; gpu "
                         f"{named.index(None)} has none (the rank map names every rank or none)")
    algo["rank_names"] = tuple(named) if named and None not in named else None
    return algo, ranks


def _check_limits(algo: dict[str, Any], ranks: list[dict[str, Any]]) -> dict[str, int]:
    n, nch, lim = algo["ngpus"], algo["nchannels"], MSCCL_LIMITS
    worst = {"steps": 0, "tbs_per_channel": 0, "nodes": 0}
    for info in ranks:
        r, tbs = info["id"], info["tbs"]
        where = f"gpu {r}"
        if len(tbs) > min(lim["MSCCL_MAX_NUM_THREAD_BLOCKS"], lim["MSCCL_MAX_SUBS"]):
            raise ValueError(f"msccl: {where} has {len(tbs)} thread blocks; the executor allows 1024")
        if sorted(t.id for t in tbs) != list(range(len(tbs))):
            raise ValueError(f"msccl: {where}: thread block ids must be 0..{len(tbs) - 1}, each once (the executor "
                             f"refuses a gap or a repeat)")
        sends: dict[tuple[int, int], int] = {}
        recvs: dict[tuple[int, int], int] = {}
        per_channel = [[0, 0] for _ in range(nch)]
        for t in tbs:
            tw = f"{where}, tb {t.id}"
            if not 0 <= t.chan < nch:
                raise ValueError(f"msccl: {tw}: chan={t.chan} is not below nchannels={nch}")
            for key, peer, seen, col in (("send", t.send, sends, 0), ("recv", t.recv, recvs, 1)):
                if peer == r or not -1 <= peer < n:
                    raise ValueError(f"msccl: {tw}: {key}={peer} must be -1 or another rank 0..{n - 1}")
                if peer >= 0:
                    if (t.chan, peer) in seen:
                        raise ValueError(f"msccl: {tw}: thread block {seen[t.chan, peer]} already uses the {key} "
                                         f"connection to rank {peer} on channel {t.chan}")
                    seen[t.chan, peer] = t.id
                    per_channel[t.chan][col] += 1
            if len(t.steps) > lim["MSCCL_MAX_NUM_STEPS"]:
                raise ValueError(f"msccl: {tw} has {len(t.steps)} steps; the executor allows MSCCL_MAX_NUM_STEPS=64")
            bufs = {"i": info["i_chunks"], "o": info["o_chunks"], "s": info["s_chunks"]}
            for s, st in enumerate(t.steps):
                sw = f"{tw}, step {s} ({st.kind})"
                recv, send, _, reads, writes = STEP_TYPES[st.kind]
                if st.dep is not None:
                    d, ds = st.dep
                    if d == t.id or not 0 <= d < len(tbs) or not 0 <= ds < len(tbs[[u.id for u in tbs].index(d)].steps):
                        raise ValueError(f"msccl: {sw}: depends on tb {d} step {ds}, which is not a step of another "
                                         f"thread block of gpu {r}")
                    if d > lim["DEPENDENT_BID_MAX"]:
                        raise ValueError(f"msccl: {sw}: depends on tb {d}; the executor keeps a dependency's thread "
                                         f"block in an int8_t (dependentBid), so only 0..127 can be waited for")
                if st.kind == "nop":
                    # the parser turns a nop into one more dependency of the next step, and the kernel counts the
                    # nops of a step by its dependencies (msccl_kernel.cu: step += numDependencies - 1)
                    if st.dep is None:
                        raise ValueError(f"msccl: {sw} has no dependency: the executor counts a nop only through "
                                         f"its dependency, and the steps after it would signal the wrong step")
                    if st.hasdep:
                        raise ValueError(f"msccl: {sw} has hasdep=\"1\": the executor never signals after a nop")
                    nxt = next((u for u in t.steps[s + 1:] if u.kind != "nop"), None)
                    if nxt is None or nxt.dep is None:
                        raise ValueError(f"msccl: {sw}: the nops before a step carry its extra dependencies, and the "
                                         f"step after them must have one of its own (the executor refuses it "
                                         f"otherwise, or, at the end of a thread block, never waits)")
                    continue
                if not 1 <= st.cnt < lim["MSCCL_MAX_COUNT"]:
                    raise ValueError(f"msccl: {sw}: cnt={st.cnt} must be 1..71 (MSCCL_MAX_COUNT=72)")
                if send and t.send < 0:
                    raise ValueError(f"msccl: {sw} sends, but its thread block has no send peer")
                if recv and t.recv < 0:
                    raise ValueError(f"msccl: {sw} receives, but its thread block has no receive peer")
                for used, buf, off, what in ((reads, st.srcbuf, st.srcoff, "src"), (writes, st.dstbuf, st.dstoff,
                                                                                    "dst")):
                    if used:
                        if buf not in bufs:
                            raise ValueError(f"msccl: {sw}: {what}buf={buf!r} is not i, o or s")
                        if off < 0 or off + st.cnt > bufs[buf]:
                            raise ValueError(f"msccl: {sw}: {what}off={off} with cnt={st.cnt} leaves buffer {buf!r} "
                                             f"of {bufs[buf]} chunks")
        busiest = max(max(c) for c in per_channel)
        if busiest > lim["MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL"]:
            raise ValueError(f"msccl: {where}: {busiest} thread blocks send or receive on one channel; the executor "
                             f"allows MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL=32")
        nodes = 1 + n + len(tbs) + sum(len(t.steps) for t in tbs)
        if nodes > lim["MSCCL_MAX_NODES"]:
            raise ValueError(f"msccl: {where}: the parser would keep {nodes} XML elements for this rank; it keeps "
                             f"MSCCL_MAX_NODES=4096")
        worst["steps"] = max(worst["steps"], max((len(t.steps) for t in tbs), default=0))
        worst["tbs_per_channel"] = max(worst["tbs_per_channel"], busiest)
        worst["nodes"] = max(worst["nodes"], nodes)
    return worst


def replay_msccl(data: bytes | str, *, slots: int = 1) -> ReplayReport:
    """Check an MSCCL allreduce file: limits, a run to completion, no race, every chunk the sum of all ranks once.

    Parameters
    ----------
    data : bytes or str
        The XML document.
    slots : int
        Messages a connection holds before a send waits (>= 1; default 1, the strictest).

    Returns
    -------
    ReplayReport

    Raises
    ------
    ValueError
        At the first violation (the module docstring lists them), naming rank, thread block, step and rule.

    Example
    -------
    >>> bad = b'<algo nchunksperloop="1" nchannels="1" ngpus="1" proto="Simple" coll="allgather" minBytes="0" ' \\
    ...       b'maxBytes="0" inplace="1" outofplace="0"></algo>'
    >>> replay_msccl(bad)
    Traceback (most recent call last):
    ...
    ValueError: msccl: coll='allgather'; this replay checks an allreduce
    """
    cap = check_int(slots, "slots", 1)
    refuse_entities(data, "msccl", "MSCCL XML")  # as every XML reader of starlib: no entity is ever expanded
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise ValueError(f"msccl: not well-formed XML ({e})") from None
    algo, ranks = _parse(root)
    worst = _check_limits(algo, ranks)
    n, chunks = algo["ngpus"], algo["nchunksperloop"]
    everyone = (1 << n) - 1
    tbs: dict[tuple[int, int], _Tb] = {}
    sender: dict[tuple[int, int, int], _Tb] = {}
    receiver: dict[tuple[int, int, int], _Tb] = {}
    for info in ranks:
        for t in info["tbs"]:
            tbs[t.rank, t.id] = t
            t.waiters = {}
            if t.send >= 0:
                sender[t.chan, t.rank, t.send] = t
            if t.recv >= 0:
                receiver[t.chan, t.recv, t.rank] = t
    for (c, a, b), t in sorted(sender.items()):
        if any(STEP_TYPES[s.kind][1] for s in t.steps) and (c, a, b) not in receiver:
            raise ValueError(f"msccl: gpu {a}, tb {t.id} sends to rank {b} on channel {c}, but no thread block of "
                             f"gpu {b} receives from rank {a} on channel {c}")
    # the flags grow and only steps with hasdep="1" set them, so a dependency (d, deps) is released by the first
    # step >= deps of thread block d with hasdep="1" (none: the step never runs)
    signals = {}
    for t in tbs.values():
        first, nxt = [-1] * len(t.steps), -1
        for i in range(len(t.steps) - 1, -1, -1):
            nxt = i if t.steps[i].hasdep else nxt
            first[i] = nxt
        signals[t.rank, t.id] = first
    for t in tbs.values():
        for st in t.steps:
            if st.dep is not None:
                st.until = signals[t.rank, st.dep[0]][st.dep[1]]
                if st.until >= 0:
                    waited = tbs[t.rank, st.dep[0]].waiters
                    waited[st.until] = waited.get(st.until, 0) + 1
    mode_results = []
    for inplace in ([True] if algo["inplace"] else []) + ([False] if algo["outofplace"] else []):
        for info in ranks:
            for t in info["tbs"]:
                t.pc, t.flag = 0, 0
                t.vc = [0] * len(info["tbs"])
                t.ends, t.left = {}, dict(t.waiters)
        mode_results.append(_run(algo, ranks, tbs, sender, receiver, cap, inplace, everyone, chunks))
    return ReplayReport(n, len(tbs), sum(len(t.steps) for t in tbs.values()), chunks, algo["nchannels"],
                        mode_results[0][0], worst["steps"], worst["tbs_per_channel"], worst["nodes"],
                        algo["rank_map"], mode_results[0][1], algo["rank_names"])


#: Pairs of accesses left unordered by a rank's own clocks that are kept before the second pass decides them.
_PENDING = 1 << 16
#: Earlier accesses the second pass follows at once (bits of one Python integer per clock).
_BITS = 1 << 14


def _run(algo: dict[str, Any], ranks: list[dict[str, Any]], tbs: dict[tuple[int, int], _Tb],
         sender: dict[tuple[int, int, int], _Tb], receiver: dict[tuple[int, int, int], _Tb], cap: int, inplace: bool,
         everyone: int, chunks: int) -> tuple[int, int]:
    """One run (in place or out of place): the messages matched and the access pairs only messages order."""
    mode = "in place" if inplace else "out of place"
    bufs: dict[tuple[int, str], list[int | None]] = {}
    for info in ranks:
        r = info["id"]
        own: list[int | None] = [1 << r] * max(info["i_chunks"], chunks if inplace else 0)
        bufs[r, "i"] = own
        bufs[r, "o"] = own if inplace else [None] * info["o_chunks"]
        bufs[r, "s"] = [None] * info["s_chunks"]
    fifo: dict[tuple[int, int, int], deque] = {k: deque() for k in sender}
    access: dict[tuple[int, str, int], list[tuple[int, int, bool]]] = {}
    waiting: dict[tuple[int, int], set[tuple[int, int]]] = {}
    wake: list[_Tb] = []  # thread blocks a step may have unblocked
    order: list[_Tb] = []  # the thread block of every step run, in the run's order
    pending: list[tuple[int, int, int, bool, int, int, bool, str, int]] = []  # pairs the rank leaves unordered
    messages = 0
    across = 0

    def buffer(r: int, name: str) -> list[int | None]:
        return bufs[r, "o" if inplace and name == "i" else name]

    def touch(t: _Tb, s: int, name: str, off: int, cnt: int, write: bool) -> None:
        key_name = "o" if inplace and name == "i" else name
        for x in range(off, off + cnt):
            seen = access.setdefault((t.rank, key_name, x), [])
            for b, stamp, w in seen:
                if b != t.id and (w or write) and t.vc[b] < stamp:
                    pending.append((t.rank, b, stamp - 1, w, t.id, s, write, key_name, x))
            seen.append((t.id, t.pc + 1, write))

    def settle() -> str | None:
        """Decide the pending pairs across ranks: the first race, or None (and count them as ordered)."""
        nonlocal across
        if not pending:
            return None
        race = _first_race(order, pending, tbs, sender, mode)
        across += len(pending)
        pending.clear()
        return race

    def step(t: _Tb) -> bool:
        st = t.steps[t.pc]
        s = t.pc
        recv, send, reduce, reads, writes = STEP_TYPES[st.kind]
        if st.dep is not None:
            d = tbs[t.rank, st.dep[0]]
            if d.flag <= st.dep[1]:
                waiting.setdefault((t.rank, d.id), set()).add((t.rank, t.id))
                return False
        inbox = fifo.get((t.chan, t.recv, t.rank)) if recv else None
        if recv and not inbox:
            return False
        outbox = fifo.get((t.chan, t.rank, t.send)) if send else None
        if send and len(outbox) >= cap:
            return False
        # the step runs: clocks first (what it has waited for), then the data
        order.append(t)
        vc = t.vc
        if st.dep is not None:
            pub = d.ends[st.until]
            for i, v in enumerate(pub):
                if v > vc[i]:
                    vc[i] = v
            d.left[st.until] -= 1
            if not d.left[st.until]:
                del d.ends[st.until]
        vc[t.id] = s + 1
        where = f"msccl ({mode}): gpu {t.rank}, tb {t.id}, step {s} ({st.kind})"
        got = None
        if recv:
            got = inbox.popleft()
            if len(got) != st.cnt:
                raise ValueError(f"{where} receives {st.cnt} chunks but the matching send sent {len(got)}")
            wake.append(sender[t.chan, t.recv, t.rank])
        local = None
        if reads:
            touch(t, s, st.srcbuf, st.srcoff, st.cnt, False)
            src = buffer(t.rank, st.srcbuf)
            local = src[st.srcoff:st.srcoff + st.cnt]
            if any(v is None for v in local):
                raise ValueError(f"{where} reads chunk(s) {st.srcoff}..{st.srcoff + st.cnt - 1} of buffer "
                                 f"{st.srcbuf!r} before anything is written there")
        if st.kind == "re":
            dst = buffer(t.rank, st.dstbuf)
            got = dst[st.dstoff:st.dstoff + st.cnt]
            if any(v is None for v in got):
                raise ValueError(f"{where} reduces into chunk(s) of buffer {st.dstbuf!r} never written")
        value = got if not reads else local
        if reduce:
            value = []
            for x, (a, b) in enumerate(zip(got, local, strict=True)):
                if a & b:
                    twice = [i for i in range(a.bit_length()) if (a & b) >> i & 1]
                    raise ValueError(f"{where}: chunk {st.srcoff + x} would count the contributions of rank(s) "
                                     f"{twice[:5]} twice")
                value.append(a | b)
        if writes:
            touch(t, s, st.dstbuf, st.dstoff, st.cnt, True)
            buffer(t.rank, st.dstbuf)[st.dstoff:st.dstoff + st.cnt] = value
        if send:
            outbox.append(list(value))
            wake.append(receiver[t.chan, t.rank, t.send])
        t.pc += 1
        if st.hasdep:
            t.flag = t.pc
            if t.left.get(s):
                t.ends[s] = list(vc)
            wake.extend(tbs[w] for w in waiting.pop((t.rank, t.id), ()))
        return True

    try:
        queue = deque(sorted(tbs.values(), key=lambda u: (u.rank, u.id)))
        queued = {(u.rank, u.id) for u in queue}
        while queue:
            t = queue.popleft()
            queued.discard((t.rank, t.id))
            wake.clear()
            while t.pc < len(t.steps):
                received = STEP_TYPES[t.steps[t.pc].kind][0]
                if not step(t):
                    break
                messages += received
                if len(pending) >= _PENDING:
                    race = settle()
                    if race:
                        raise ValueError(race)
            for u in wake:
                if (u.rank, u.id) not in queued and u.pc < len(u.steps):
                    queued.add((u.rank, u.id))
                    queue.append(u)
        _check_end(ranks, tbs, bufs, fifo, mode, everyone, chunks)
    except ValueError:
        race = settle()  # a race explains what fails after it
        if race:
            raise ValueError(race) from None
        raise
    race = settle()
    if race:
        raise ValueError(race)
    return messages, across


def _check_end(ranks: list[dict[str, Any]], tbs: dict[tuple[int, int], _Tb], bufs: dict[tuple[int, str], list],
               fifo: dict[tuple[int, int, int], deque], mode: str, everyone: int, chunks: int) -> None:
    """After the run: no thread block left with steps, no message left, every output chunk the sum of all ranks."""
    stuck = [t for t in sorted(tbs.values(), key=lambda u: (u.rank, u.id)) if t.pc < len(t.steps)]
    if stuck:
        why = []
        for t in stuck[:3]:
            st = t.steps[t.pc]
            if st.dep is not None and tbs[t.rank, st.dep[0]].flag <= st.dep[1]:
                d = tbs[t.rank, st.dep[0]]
                hint = "" if d.steps[st.dep[1]].hasdep else ", which has hasdep=\"0\" and so never signals"
                what = f"waits for tb {d.id} step {st.dep[1]}{hint}"
            elif STEP_TYPES[st.kind][0] and not fifo.get((t.chan, t.recv, t.rank)):
                what = f"waits for a message from rank {t.recv} on channel {t.chan}"
            else:
                what = f"waits for room on the connection to rank {t.send} on channel {t.chan}"
            why.append(f"gpu {t.rank} tb {t.id} step {t.pc} ({st.kind}) {what}")
        raise ValueError(f"msccl ({mode}): deadlock: {len(stuck)} thread block(s) never finish: " + "; ".join(why))
    for (c, a, b), q in sorted(fifo.items()):
        if q:
            raise ValueError(f"msccl ({mode}): rank {a} sends {len(q)} message(s) to rank {b} on channel {c} that are "
                             f"never received")
    for info in ranks:
        r = info["id"]
        out = bufs[r, "o"]
        if len(out) < chunks:
            raise ValueError(f"msccl ({mode}): gpu {r}: the output buffer has {len(out)} chunks, fewer than "
                             f"nchunksperloop={chunks}")
        for x in range(chunks):
            v = out[x]
            if v != everyone:
                have = 0 if v is None else bin(v).count("1")
                missing = [i for i in range(everyone.bit_length()) if not (v or 0) >> i & 1]
                raise ValueError(f"msccl ({mode}): gpu {r} ends with chunk {x} holding the contributions of {have} of "
                                 f"{everyone.bit_length()} ranks (missing rank(s) {missing[:5]})")


def _first_race(order: list[_Tb], pending: list[tuple], tbs: dict[tuple[int, int], _Tb],
                sender: dict[tuple[int, int, int], _Tb], mode: str) -> str | None:
    """The first pair of ``pending`` (in the run's order) that happens-before across ranks leaves unordered.

    A pair is ``(rank, b, sb, wb, t, s, write, buffer, chunk)``: step ``sb`` of thread block ``b`` touched the chunk
    before step ``s`` of thread block ``t`` (``wb``, ``write``: whether each writes). The steps of ``order`` are run
    again with, for every thread block, connection message and signalling step, a bit set of the earlier accesses
    (``(rank, b, sb, wb)``) done by then (module docstring, item 4), ``_BITS`` of them at a time.
    """
    earlier: dict[tuple[int, int, int, bool], int] = {}
    later: dict[tuple[int, int, int], list[tuple[int, int, bool]]] = {}
    for i, p in enumerate(pending):
        bit = earlier.setdefault(p[:4], len(earlier))
        later.setdefault((p[0], p[4], p[5]), []).append((i, bit, p[6]))
    ordered = [False] * len(pending)
    came_from: dict[tuple[int, int, int], tuple[int, int, int]] = {}  # a receiving step -> the step that sent
    accesses = list(earlier)
    for lo in range(0, len(accesses), _BITS):
        reads_done: dict[tuple[int, int, int], int] = {}  # step -> its reads among the bits (done before it sends)
        all_done: dict[tuple[int, int, int], int] = {}  # step -> its accesses among the bits (done when it ends)
        for j, (r, b, sb, wb) in enumerate(accesses[lo:lo + _BITS]):
            all_done[r, b, sb] = all_done.get((r, b, sb), 0) | 1 << j
            if not wb:
                reads_done[r, b, sb] = reads_done.get((r, b, sb), 0) | 1 << j
        fifo: dict[tuple[int, int, int], deque] = {k: deque() for k in sender}
        ends: dict[tuple[int, int, int], int] = {}
        left = {(t.rank, t.id, s): c for t in tbs.values() for s, c in t.waiters.items()}
        for t in tbs.values():
            t.pc2, t.known = 0, 0
        for t in order:
            s = t.pc2
            t.pc2 = s + 1
            st = t.steps[s]
            me = (t.rank, t.id, s)
            before = t.known
            if st.dep is not None:
                key = (t.rank, st.dep[0], st.until)
                before |= ends[key]
                left[key] -= 1
                if not left[key]:
                    del ends[key]
            recv, send = STEP_TYPES[st.kind][:2]
            last = 0
            first = before
            if recv:
                came, got_first, last = fifo[t.chan, t.recv, t.rank].popleft()
                first |= got_first
                if not lo:
                    came_from[me] = came
            for i, bit, write in later.get(me, ()):
                if lo <= bit < lo + _BITS and (first if write else before) >> (bit - lo) & 1:
                    ordered[i] = True
            if send:
                fifo[t.chan, t.rank, t.send].append((me, first, before | last | reads_done.get(me, 0)))
            t.known = before | last | all_done.get(me, 0)
            if st.hasdep and (t.rank, t.id, s) in left:
                ends[me] = t.known
    for i, (r, b, sb, wb, tid, s, write, name, x) in enumerate(pending):
        if ordered[i] or (write and not wb and _same_place(tbs, came_from, r, b, sb, tid, s)):
            continue
        return (f"msccl ({mode}): gpu {r}: tb {tid} step {s} and tb {b} step {sb} both touch chunk {x} of buffer "
                f"{name!r}, one writing, and neither waits for the other, on the rank or through messages (a race: "
                f"a dependency is missing or wrong)")
    return None


def _same_place(tbs: dict[tuple[int, int], _Tb], came_from: dict[tuple[int, int, int], tuple[int, int, int]], r: int,
                b: int, sb: int, tid: int, s: int) -> bool:
    """Whether step ``s`` of thread block ``tid`` received a message forwarded piece by piece from step ``sb`` of
    thread block ``b`` (through steps that receive and send), which read at the place the step writes to."""
    at = came_from.get((r, tid, s))
    while at is not None:
        if at == (r, b, sb):
            return tbs[r, b].steps[sb].srcoff == tbs[r, tid].steps[s].dstoff
        at = came_from.get(at)
    return False
