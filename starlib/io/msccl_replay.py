"""Replay an MSCCL allreduce XML file: its limits, its deadlock freedom, its races, and what every rank ends with.

:func:`replay_msccl` reads an algorithm file (:mod:`starlib.io.msccl`, or any file of the same grammar) with
``xml.etree`` and checks it in three passes (docs/formats.md §6.10).

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
   set of all ranks. Races: two steps of different thread blocks of a rank that touch the same chunk, one of them
   writing, must be ordered by the rank's own program order and dependencies (vector clocks over the rank's
   thread blocks); otherwise the runtime may run them at once.

The rank map. A ``<gpu>`` may carry ``host`` and ``router`` (:func:`starlib.io.msccl.msccl_schedule` writes
them; the executor's parser reads attributes by name and ignores these): then every gpu carries both, integers
``>= 0``, and a host sits on one router. :attr:`ReplayReport.rank_map` returns them.

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
>>> rep.ranks, rep.threadblocks, rep.steps, rep.messages, rep.max_steps_per_tb
(4, 6, 24, 12, 4)
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import deque
from dataclasses import dataclass
from typing import Any

from ..validation import check_int
from .msccl import MSCCL_LIMITS, PROTOCOLS

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
    rank_map : ``(host, router)`` of each rank ``0..ranks-1`` from the ``<gpu>`` attributes ``host`` and
        ``router`` (:func:`starlib.io.msccl.msccl_schedule` writes them), or ``None`` for a file without them.
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
    vc: list[int] | None = None
    published: list[int] | None = None


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
            t.vc = [0] * len(info["tbs"])
            t.published = [0] * len(info["tbs"])
            tbs[t.rank, t.id] = t
            if t.send >= 0:
                sender[t.chan, t.rank, t.send] = t
            if t.recv >= 0:
                receiver[t.chan, t.recv, t.rank] = t
    for (c, a, b), t in sorted(sender.items()):
        if any(STEP_TYPES[s.kind][1] for s in t.steps) and (c, a, b) not in receiver:
            raise ValueError(f"msccl: gpu {a}, tb {t.id} sends to rank {b} on channel {c}, but no thread block of "
                             f"gpu {b} receives from rank {a} on channel {c}")
    mode_results = []
    for inplace in ([True] if algo["inplace"] else []) + ([False] if algo["outofplace"] else []):
        for t in tbs.values():
            t.pc, t.flag = 0, 0
            t.vc = [0] * len(t.vc)
            t.published = [0] * len(t.published)
        mode_results.append(_run(algo, ranks, tbs, sender, receiver, cap, inplace, everyone, chunks))
    return ReplayReport(n, len(tbs), sum(len(t.steps) for t in tbs.values()), chunks, algo["nchannels"],
                        mode_results[0], worst["steps"], worst["tbs_per_channel"], worst["nodes"], algo["rank_map"])


def _run(algo: dict[str, Any], ranks: list[dict[str, Any]], tbs: dict[tuple[int, int], _Tb],
         sender: dict[tuple[int, int, int], _Tb], receiver: dict[tuple[int, int, int], _Tb], cap: int, inplace: bool,
         everyone: int, chunks: int) -> int:
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
    messages = 0

    def buffer(r: int, name: str) -> list[int | None]:
        return bufs[r, "o" if inplace and name == "i" else name]

    def touch(t: _Tb, s: int, name: str, off: int, cnt: int, write: bool) -> None:
        key_name = "o" if inplace and name == "i" else name
        for x in range(off, off + cnt):
            seen = access.setdefault((t.rank, key_name, x), [])
            for b, stamp, w in seen:
                if b != t.id and (w or write) and t.vc[b] < stamp:
                    raise ValueError(f"msccl ({mode}): gpu {t.rank}: tb {t.id} step {s} and tb {b} step {stamp - 1} "
                                     f"both touch chunk {x} of buffer {key_name!r}, one writing, and neither waits "
                                     f"for the other (a race: a dependency is missing or wrong)")
            seen.append((t.id, t.pc + 1, write))

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
        vc = t.vc
        if st.dep is not None:
            pub = tbs[t.rank, st.dep[0]].published
            for i, v in enumerate(pub):
                if v > vc[i]:
                    vc[i] = v
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
            t.published = list(vc)
            wake.extend(tbs[w] for w in waiting.pop((t.rank, t.id), ()))
        return True

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
        for u in wake:
            if (u.rank, u.id) not in queued and u.pc < len(u.steps):
                queued.add((u.rank, u.id))
                queue.append(u)
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
    return messages
