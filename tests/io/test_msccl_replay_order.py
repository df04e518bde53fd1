"""The race rule of starlib.io.msccl_replay: happens-before across ranks.

Hand-written programs: two writes of a chunk at a tree rank ordered only through the round trip via the tree parent
pass (and the count of pairs only messages order is the one read off the program); the same program whose send to
the parent no longer waits for the first write is a race; a message forwarded piece by piece orders a read and a
write at the same place in it and not at another place; a step waits for the first signalling step at or after
``deps``, not for a later one. A second method, the executor's orders as a graph (networkx reachability over the
start, first piece, reads done, last piece and end of every step), decides every pair of accesses of ForestColl's
layout (one chunk per tree, separate reduce-scatter and allgather thread blocks) over starlib's trees of PolarFly
q = 3 and of seeded variants with dependencies dropped; the replay agrees with it, and with itself when it decides
the pairs a few at a time.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import networkx as nx
import pytest

import starlib
import starlib.io.msccl_replay as replay_module
from starlib.io import replay_msccl

RACE = ("both touch chunk {x} of buffer 'o', one writing, and neither waits for the other, on the rank or through "
        "messages")


def _algo(gpus: list[list[tuple[int, int, list[tuple]]]], chunks: int, name: str = "hand", scratch: int = 0) -> str:
    """An in-place allreduce file: per rank its thread blocks ``(send, recv, steps)`` on channel 0; a step is
    ``(type, srcoff, dstoff, cnt, (depid, deps) or None, hasdep, srcbuf, dstbuf)``; ``scratch`` chunks of ``s``."""
    out = [f'<algo name="{name}" proto="Simple" nchannels="1" nchunksperloop="{chunks}" ngpus="{len(gpus)}" '
           f'coll="allreduce" inplace="1" outofplace="0" minBytes="0" maxBytes="0">']
    for r, tbs in enumerate(gpus):
        out.append(f'<gpu id="{r}" i_chunks="0" o_chunks="{chunks}" s_chunks="{scratch}">')
        for i, (send, recv, steps) in enumerate(tbs):
            out.append(f'<tb id="{i}" send="{send}" recv="{recv}" chan="0">')
            for s, (kind, src, dst, cnt, dep, hasdep, srcbuf, dstbuf) in enumerate(steps):
                d = dep or (-1, -1)
                out.append(f'<step s="{s}" type="{kind}" srcbuf="{srcbuf}" srcoff="{src}" dstbuf="{dstbuf}" '
                           f'dstoff="{dst}" cnt="{cnt}" depid="{d[0]}" deps="{d[1]}" hasdep="{hasdep}"/>')
            out.append("</tb>")
        out.append("</gpu>")
    return "".join(out) + "</algo>"


def _step(kind: str, off: int = 0, dep: tuple[int, int] | None = None, hasdep: int = 0, cnt: int = 1,
          dst: int | None = None, srcbuf: str = "o", dstbuf: str = "o") -> tuple:
    return kind, off, off if dst is None else dst, cnt, dep, hasdep, srcbuf, dstbuf


def _round_trip(wait: bool = True) -> str:
    """The path 0 - 1 - 2 rooted at 2, one chunk, rank 1 laid out as ForestColl lays out a tree rank.

    Rank 1: tb 0 adds the leaf's part (rrc, signals), tb 1 sends the sum to the root after it (``wait``), tb 2
    takes the total from the root (r, signals), tb 3 passes it to the leaf after tb 2. Nothing on rank 1 orders
    tb 0's write before tb 2's: only tb 1's send, the root's rrc and the root's send back.
    """
    leaf = [(1, 1, [_step("s"), _step("r")])]
    middle = [(-1, 0, [_step("rrc", hasdep=1)]),
              (2, -1, [_step("s", dep=(0, 0) if wait else None)]),
              (-1, 2, [_step("r", hasdep=1)]),
              (0, -1, [_step("s", dep=(2, 0))])]
    root = [(1, 1, [_step("rrc"), _step("s")])]
    return _algo([leaf, middle, root], 1, "round trip")


def test_two_writes_ordered_only_through_the_round_trip_via_the_parent_pass():
    rep = replay_msccl(_round_trip())
    assert (rep.ranks, rep.threadblocks, rep.messages) == (3, 6, 4)
    # rank 1's accesses to chunk 0 in the run: tb 0 reads and writes it, tb 1 reads it, tb 2 writes it, tb 3
    # reads it. Pairs of two thread blocks with a write that the rank alone leaves unordered: tb 0's read and
    # write before tb 2's write, tb 1's read before tb 2's write (tb 2 waits for nothing on the rank), and tb 0's
    # write before tb 3's read (tb 3 waits for tb 2 only). The round trip orders all four.
    assert rep.ordered_across == 4


def test_the_round_trip_without_the_wait_for_the_first_write_is_a_race():
    # tb 1 sends the chunk without waiting for tb 0's addition: the run happens to add first (the leaf's part is
    # there before tb 1 starts) and every rank ends with the full sum, but nothing orders the two on a GPU
    with pytest.raises(ValueError, match=re.escape("msccl (in place): gpu 1: tb 1 step 0 and tb 0 step 0 "
                                                   + RACE.format(x=0))):
        replay_msccl(_round_trip(wait=False))


def _forwarded(shift: int = 0) -> str:
    """Two ranks, three chunks: rank 0 sends chunks 0-1 then 2 (tb 0), rank 1 adds its own and sends each sum
    straight back (rrcs), rank 0 takes the sums (tb 1), the first at ``dstoff = shift``."""
    leaf = [(1, -1, [_step("s", 0, cnt=2), _step("s", 2)]),
            (-1, 1, [_step("r", 0, cnt=2, dst=shift), _step("r", 2)])]
    root = [(0, 0, [_step("rrcs", 0, cnt=2), _step("rrcs", 2)])]
    return _algo([leaf, root], 3, "forwarded")


def test_a_message_forwarded_piece_by_piece_orders_a_read_and_a_write_at_the_same_place():
    # rank 0's tb 1 writes each chunk from a piece computed, through rank 1's rrcs, from the piece tb 0 read at
    # the same place: the three pairs (chunks 0, 1 and 2) are ordered, and only so
    rep = replay_msccl(_forwarded())
    assert (rep.messages, rep.ordered_across) == (4, 3)
    # written one place further on, chunk 1 is written from the piece of chunk 0: the write of chunk 1 may come
    # before tb 0 has read it
    with pytest.raises(ValueError, match=re.escape("gpu 0: tb 1 step 0 and tb 0 step 0 " + RACE.format(x=1))):
        replay_msccl(_forwarded(shift=1))


def _read_after_reply(fused: bool) -> str:
    """Two ranks, one chunk. Rank 1's tb 0 copies the chunk onto itself, then sends it; rank 0 keeps it in its
    scratch chunk, then sends its own part back and adds the kept one (re). Rank 1's tb 1 adds rank 0's part
    into the chunk: in the step that receives it (``fused``: rrc) or after receiving it into scratch (r, re)."""
    other = [(1, 1, [_step("r", dstbuf="s"), _step("s"), _step("re", srcbuf="s")])]
    add = [_step("rrc")] if fused else [_step("r", dstbuf="s"), _step("re", srcbuf="s")]
    return _algo([other, [(0, -1, [_step("cpy"), _step("s")]), (-1, 0, add)]], 1, "read after reply", scratch=1)


def test_a_receiving_step_reads_its_source_unordered_by_its_own_message():
    # the reply was sent after rank 0 received the copied chunk, so rank 1's later steps and the writes of the
    # receiving step come after the copy; its read of the chunk does not (LL loads the source before it polls
    # the connection): a race, and reading after the receiving step is not
    with pytest.raises(ValueError, match=re.escape("gpu 1: tb 1 step 0 and tb 0 step 0 " + RACE.format(x=0))):
        replay_msccl(_read_after_reply(fused=True))
    # tb 1's re writes the chunk after tb 0's copy read and wrote it and after tb 0's send read it: three pairs
    assert replay_msccl(_read_after_reply(fused=False)).ordered_across == 3


def test_a_step_waits_for_the_first_signalling_step_at_or_after_deps_not_a_later_one():
    # rank 1's tb 0 adds rank 0's part (step 0, signals) and copies the chunk onto itself (step 1, signals); tb 1
    # sends the chunk after step 0 only, so its read and the copy's write are a race, even though the run
    # finishes tb 0 before tb 1 starts
    leaf = [(1, 1, [_step("s"), _step("r")])]
    root = [(-1, 0, [_step("rrc", hasdep=1), _step("cpy", hasdep=1)]), (0, -1, [_step("s", dep=(0, 0))])]
    with pytest.raises(ValueError, match=re.escape("gpu 1: tb 1 step 0 and tb 0 step 1 " + RACE.format(x=0))):
        replay_msccl(_algo([leaf, root], 1))
    root[1] = (0, -1, [_step("s", dep=(0, 1))])
    assert replay_msccl(_algo([leaf, root], 1)).ordered_across == 0


# -- ForestColl's layout over starlib's trees, against the executor's orders as a graph --------------------------------

def _forestcoll_layout(n: int, trees: list, drop: set[tuple[int, int]] = frozenset()) -> str:
    """ForestColl's ``to_xml.construct_algo_allreduce`` layout, one chunk per tree (chunk ``c`` on tree ``c``).

    At each rank and tree: one rrc thread block per child but the first (the additions chained, each signalling);
    towards the parent an rrs (s at a leaf) that receives from the first child and waits for the last rrc, and an
    rcs (r at a leaf) that takes the total from the parent and passes it to the first child (signalling when
    other children wait for it); one s thread block per other child after it. The root has an rrcs to and from
    its first child after the last rrc. ``drop``: ``(rank, tb)`` whose step waits for nothing.
    """
    gpus: list[list[tuple[int, int, list[tuple]]]] = [[] for _ in range(n)]

    def tb(r: int, send: int, recv: int, kind: str, c: int, dep: int | None, hasdep: int) -> int:
        wait = None if dep is None or (r, len(gpus[r])) in drop else (dep, 0)
        gpus[r].append((send, recv, [_step(kind, c, dep=wait, hasdep=hasdep)]))
        return len(gpus[r]) - 1

    for c, t in enumerate(trees):
        parent = t.parent_array()
        children: list[list[int]] = [[] for _ in range(n)]
        for v in range(n):
            if parent[v] >= 0:
                children[int(parent[v])].append(v)
        for r in range(n):
            first, others = (children[r][0], children[r][1:]) if children[r] else (-1, [])
            last = None
            for o in others:
                last = tb(r, -1, o, "rrc", c, last, 1)
            if parent[r] < 0:
                top = tb(r, first, first, "rrcs", c, last, int(bool(others)))
            else:
                p = int(parent[r])
                tb(r, p, first, "rrs" if children[r] else "s", c, last, 0)
                top = tb(r, first, p, "rcs" if children[r] else "r", c, None, int(bool(others)))
            for o in others:
                tb(r, o, -1, "s", c, top, 0)
    return _algo(gpus, len(trees), "forestcoll layout")


STEP_TYPES = {  # reads the source, writes the destination, receives, sends (the executor's step types)
    "s": (True, False, False, True), "r": (False, True, True, False), "rcs": (False, True, True, True),
    "rrs": (True, False, True, True), "rrc": (True, True, True, False), "rrcs": (True, True, True, True),
    "cpy": (True, True, False, False), "re": (True, True, False, False), "nop": (False, False, False, False)}


def _orders_as_graph(xml: str) -> tuple[set[tuple], int]:
    """Every pair of accesses to a chunk of a rank by two thread blocks, one writing, decided on a graph.

    Nodes per step: S (start), W (its first write may follow: after S and, for a receive, the first piece of its
    message), R (its reads are done), Q (its last piece is posted) and E (end). Edges: S -> W, R, Q; R -> Q, E;
    W -> E; E -> S of the next step of the thread block; E of the first step ``>= deps`` with hasdep -> S of a
    step with a dependency; for the k-th send and the k-th receive of a connection, W -> W, Q -> E and, when the
    receiving step sends too, Q -> Q. A read is done at R and a write at E; a read may start at S and a write at
    W. A pair is ordered when one is done before the other may start, or when a receiving step writes at the
    ``dstoff`` where a step of the chain of receive-and-send steps its message came through read (``srcoff``).
    Returns the unordered pairs ``(rank, chunk, (tb, step), (tb, step))`` and the ordered pairs the graph
    without message edges (the rank alone) leaves unordered.
    """
    root = ET.fromstring(xml)
    steps, first_signal, sends, recvs = {}, {}, {}, {}
    for g in root.iter("gpu"):
        r = int(g.get("id"))
        for t in g.iter("tb"):
            b, send, recv, chan = (int(t.get(k)) for k in ("id", "send", "recv", "chan"))
            tb_steps = [{k: st.get(k) for k in st.attrib} for st in t.iter("step")]
            signal = None
            for s in range(len(tb_steps) - 1, -1, -1):
                signal = s if tb_steps[s]["hasdep"] == "1" else signal
                first_signal[r, b, s] = signal
            for s, st in enumerate(tb_steps):
                steps[r, b, s] = st
                reads, writes, receives, sends_ = STEP_TYPES[st["type"]]
                if sends_:
                    sends.setdefault((chan, r, send), []).append((r, b, s))
                if receives:
                    recvs.setdefault((chan, recv, r), []).append((r, b, s))
    local, full = nx.DiGraph(), nx.DiGraph()
    for (r, b, s), st in steps.items():
        x = (r, b, s)
        local.add_edges_from([(("S", x), ("W", x)), (("S", x), ("R", x)), (("S", x), ("Q", x)), (("R", x), ("Q", x)),
                              (("R", x), ("E", x)), (("W", x), ("E", x))])
        if (r, b, s + 1) in steps:
            local.add_edge(("E", x), ("S", (r, b, s + 1)))
        if st["depid"] != "-1":
            d = int(st["depid"])
            local.add_edge(("E", (r, d, first_signal[r, d, int(st["deps"])])), ("S", x))
    full.add_edges_from(local.edges)
    came_from = {}
    for key, out in sends.items():
        for sigma, rho in zip(out, recvs[key], strict=True):
            came_from[rho] = sigma
            full.add_edges_from([(("W", sigma), ("W", rho)), (("Q", sigma), ("E", rho))])
            if STEP_TYPES[steps[rho]["type"]][3]:
                full.add_edge(("Q", sigma), ("Q", rho))
    accesses: dict[tuple[int, int], list[tuple]] = {}
    for (r, b, s), st in steps.items():
        reads, writes = STEP_TYPES[st["type"]][:2]
        for used, off, write in ((reads, st["srcoff"], False), (writes, st["dstoff"], True)):
            if used:
                for x in range(int(off), int(off) + int(st["cnt"])):
                    accesses.setdefault((r, x), []).append(((r, b, s), write))

    def same_place(read: tuple, write: tuple) -> bool:
        at = came_from.get(write)
        while at is not None:
            if at == read:
                return steps[read]["srcoff"] == steps[write]["dstoff"]
            at = came_from.get(at)
        return False

    def before(graph: nx.DiGraph, a: tuple, b: tuple) -> bool:
        return nx.has_path(graph, ("E" if a[1] else "R", a[0]), ("W" if b[1] else "S", b[0]))

    races, across = set(), 0
    for (r, x), acc in accesses.items():
        for i, a in enumerate(acc):
            for b in acc[i + 1:]:
                if a[0][1] == b[0][1] or not (a[1] or b[1]):
                    continue
                if before(local, a, b) or before(local, b, a):
                    continue
                if (before(full, a, b) or before(full, b, a) or (b[1] and not a[1] and same_place(a[0], b[0]))
                        or (a[1] and not b[1] and same_place(b[0], a[0]))):
                    across += 1
                else:
                    races.add((r, x, *sorted([a[0][1:], b[0][1:]])))
    return races, across


def _pf3_trees() -> tuple[int, list]:
    g = starlib.network("polarfly", q=3)
    return g.n, list(starlib.edsts(g))


def test_forestcoll_layout_over_polarfly_trees_passes_as_the_graph_says():
    n, trees = _pf3_trees()
    xml = _forestcoll_layout(n, trees)
    races, across = _orders_as_graph(xml)
    assert not races and across > 0
    rep = replay_msccl(xml)
    assert rep.ordered_across == across
    assert rep.messages == 2 * len(trees) * (n - 1)


def _waiting(xml: str) -> list[tuple[int, int]]:
    """``(rank, tb)`` of the thread blocks whose step waits for another."""
    return [(r, int(t.get("id"))) for r, g in enumerate(ET.fromstring(xml).iter("gpu")) for t in g.iter("tb")
            if next(t.iter("step")).get("depid") != "-1"]


def _race_named(message: str) -> tuple:
    m = re.search(r"gpu (\d+): tb (\d+) step (\d+) and tb (\d+) step (\d+) both touch chunk (\d+)", message)
    assert m, message
    r, b1, s1, b2, s2, x = map(int, m.groups())
    return (r, x, *sorted([(b1, s1), (b2, s2)]))


@pytest.mark.parametrize("seed", range(6))
def test_forestcoll_layout_with_dependencies_dropped_agrees_with_the_graph(seed):
    n, trees = _pf3_trees()
    drop = set(random.Random(seed).sample(_waiting(_forestcoll_layout(n, trees)), 1 + seed % 3))
    xml = _forestcoll_layout(n, trees, drop)
    races, across = _orders_as_graph(xml)
    assert races  # every dependency of the layout orders something
    with pytest.raises(ValueError, match="race") as err:
        replay_msccl(xml)
    assert _race_named(str(err.value)) in races


def test_deciding_the_pairs_a_few_at_a_time_changes_nothing(monkeypatch):
    n, trees = _pf3_trees()
    xml = _forestcoll_layout(n, trees)
    racy = _forestcoll_layout(n, trees, set(_waiting(xml)[:2]))
    expected = replay_msccl(xml).ordered_across
    with pytest.raises(ValueError, match="race") as err:
        replay_msccl(racy)
    # at most 3 pairs kept before they are decided, 2 first accesses followed per pass
    monkeypatch.setattr(replay_module, "_PENDING", 3)
    monkeypatch.setattr(replay_module, "_BITS", 2)
    assert replay_msccl(xml).ordered_across == expected
    with pytest.raises(ValueError, match=re.escape(str(err.value))):
        replay_msccl(racy)
