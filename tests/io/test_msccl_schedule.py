"""Any allreduce Schedule as MSCCL XML (starlib.io.msccl.msccl_schedule), checked by the replay
(starlib.io.msccl_replay) and, independently, by the schedule's own count replay (replay_counts).

The schedules are built here by hand with ScheduleBuilder: a ring (reduce-scatter then allgather, one stream per
phase and direction, the dependencies with offsets -1 and R-2), a tree with several children (the additions into
a chunk chained in the writer's order), and the same in host mode with two hosts per router (messages of several
hops). Every file replays to a full allreduce with one message per packet; a schedule with a missing dependency is
refused by both replays; the executor's limits are refused with their names, at the sizes the closed forms say;
the bytes are the same in a fresh process; the rank map reads back. If the schedule builders of
starlib.allreduce.schedules are present, each algorithm on K_4, C_6 and PolarFly q=2 is written and replayed too.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce.schedule import Schedule, ScheduleBuilder, replay_counts
from starlib.io import MSCCL_LIMITS, msccl_rank_map, msccl_schedule, replay_msccl
from tests.paths import ROOT

# -- schedules by hand -------------------------------------------------------------------------------------------------


def _ring(R: int, k: int = 1, *, path=None, nodes: int | None = None, links=None, ranks=None, drop: bool = False,
          name: str = "ring") -> Schedule:
    """Ring allreduce over ranks 0..R-1 in ring order, C = k R chunks: rank i reduces block (i + 1) mod R.

    Reduce-scatter: rank i streams to i+1 the blocks i, i-1, ..., i-R+2 (k chunks each), packet p waiting for
    packet p - k of the stream it receives (offset -k), its own contribution added. Allgather: rank i streams
    blocks i+1, i, ..., i-R+3, the first block after the last k packets of its reduce-scatter input (offset
    (R-2) k), then each packet after packet p - k of its allgather input; only the first block carries the
    rank's own (it holds the sum), the rest are copies. ``drop``: the allgather does not wait for the reduce-scatter
    (a missing dependency)."""
    C = k * R
    if links is None:
        links = np.array([[i, (i + 1) % R] for i in range(R)])
    b = ScheduleBuilder(nodes or R, links, 1.0, chunk_bytes=[64] * C, ranks=ranks)
    hop = path or (lambda a, c: [a, c])
    node = (lambda i: i) if ranks is None else (lambda i: ranks[i])

    def blocks(first: int) -> list[int]:
        return [((first - s) % R) * k + x for s in range(R - 1) for x in range(k)]

    # message indices: reduce-scatter of rank i is i, allgather is R + i; rank i receives from i - 1
    for i in range(R):
        b.add(hop(node(i), node((i + 1) % R)), blocks(i), [((i - 1) % R, -k)], own=True, reduce=True)
    for i in range(R):
        deps = [] if drop else [((i - 1) % R, (R - 2) * k)]
        b.add(hop(node(i), node((i + 1) % R)), blocks(i + 1), [*deps, (R + (i - 1) % R, -k)], own=(0, k), final=True)
    return b.build(name, size=64 * C)


def _tree(parent: dict[int, int], root: int, C: int, *, nodes: int, links, ranks=None, path=None,
          name: str = "tree") -> Schedule:
    """Reduce to ``root`` then broadcast, over the tree of ranks ``parent`` (rank -> parent rank), pipelined: packet
    ``j`` of each message carries chunk ``j`` and waits for packet ``j`` of the messages it needs (offset 0)."""
    R = len(parent) + 1
    kids: dict[int, list[int]] = {v: [] for v in range(R)}
    for v, p in sorted(parent.items()):
        kids[p].append(v)
    order = sorted(parent)
    up = {v: i for i, v in enumerate(order)}
    down = {v: len(order) + i for i, v in enumerate(order)}
    b = ScheduleBuilder(nodes, links, 1.0, chunk_bytes=[32] * C, ranks=ranks)
    node = (lambda i: i) if ranks is None else (lambda i: ranks[i])
    hop = path or (lambda a, c: [a, c])
    for v in order:
        b.add(hop(node(v), node(parent[v])), range(C), [(up[w], 0) for w in kids[v]], own=True, reduce=True)
    for v in order:
        p = parent[v]
        deps = [(up[w], 0) for w in kids[p]] if p == root else [(down[p], 0)]
        b.add(hop(node(p), node(v)), range(C), deps, own=p == root, final=True)
    return b.build(name, size=32 * C)


#: a tree of 7 ranks: root 0 with children 1, 2, 3; 1 with children 4, 5; 3 with child 6
PARENT = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 3}


def _tree7(C: int = 3) -> Schedule:
    links = np.array(sorted((p, v) for v, p in PARENT.items()))
    return _tree(PARENT, 0, C, nodes=7, links=links)


def _host_net(routers: nx.Graph, P: int) -> tuple[int, np.ndarray, list[int], callable]:
    """Routers plus ``P`` hosts on each (host ``h`` of router ``r`` is node ``n + r P + h``): nodes, links, the
    hosts (the ranks, router by router) and the path host -> routers (a shortest path) -> host."""
    n = routers.number_of_nodes()
    hosts = [n + r * P + h for r in range(n) for h in range(P)]
    links = np.array(sorted(routers.edges()) + [((h - n) // P, h) for h in hosts])

    def path(a: int, c: int) -> list[int]:
        ra, rc = (a - n) // P, (c - n) // P
        return [a, *nx.shortest_path(routers, ra, rc), c]

    return n + n * P, links, hosts, path


def _host_ring(routers: nx.Graph, P: int, k: int = 1) -> Schedule:
    nodes, links, hosts, path = _host_net(routers, P)
    return _ring(len(hosts), k, path=path, nodes=nodes, links=links, ranks=hosts, name="host ring")


def _host_tree(routers: nx.Graph, P: int, C: int = 2) -> Schedule:
    """The BFS tree of the routers from router 0, host 0 of each router in its place, its other hosts below it."""
    nodes, links, hosts, path = _host_net(routers, P)
    bfs = dict(nx.bfs_predecessors(routers, 0))
    parent = {r * P: p * P for r, p in bfs.items()}
    parent.update({r * P + h: r * P for r in range(routers.number_of_nodes()) for h in range(1, P)})
    return _tree(parent, 0, C, nodes=nodes, links=links, ranks=hosts, path=path, name="host tree")


def _steps(xml: bytes, rank: int) -> list[dict[str, int | str]]:
    """Every step of ``rank`` with its thread block's peers (a small independent reader of the grammar)."""
    text = xml.decode()
    g = text.index(f'<gpu id="{rank}" ')
    body = text[g:text.index("</gpu>", g)]
    out = []
    for tb in re.finditer(r'<tb id="(\d+)" send="(-?\d+)" recv="(-?\d+)" chan="(\d+)">(.*?)</tb>', body, re.S):
        for st in re.finditer(r'<step s="(\d+)" type="(\w+)" [^>]*srcoff="(-?\d+)"[^>]*depid="(-?\d+)" '
                              r'deps="(-?\d+)" hasdep="(\d)"', tb.group(5)):
            out.append({"tb": int(tb.group(1)), "send": int(tb.group(2)), "recv": int(tb.group(3)),
                        "s": int(st.group(1)), "type": st.group(2), "chunk": int(st.group(3)),
                        "depid": int(st.group(4)), "deps": int(st.group(5))})
    return out


def _check(s: Schedule, **kw) -> tuple[bytes, object]:
    """Write ``s``, replay the file, and check it against the schedule: both replays pass, one message per packet,
    every rank's contributions everywhere (the replay's last check), a step per packet at each end plus nops."""
    assert replay_counts(s) == s.messages
    xml = msccl_schedule(s, **kw)
    rep = replay_msccl(xml)
    packets = int(s.chunk_ptr[-1])
    nops = xml.count(b'type="nop"')
    assert (rep.ranks, rep.chunks, rep.messages) == (len(s.ranks), len(s.chunk_bytes), packets)
    assert rep.steps == 2 * packets + nops
    assert xml.count(b'type="s"') == packets == xml.count(b'type="r"') + xml.count(b'type="rrc"')
    assert xml.count(b'type="rrc"') == int(np.diff(s.chunk_ptr)[s.reduce].sum())
    return xml, rep


# -- the files replay to a full allreduce ------------------------------------------------------------------------------

@pytest.mark.parametrize("k", [1, 2, 5])
def test_a_ring_on_c4_replays_to_a_full_allreduce(k):
    s = _ring(4, k)
    xml, rep = _check(s)
    # one thread block per peer and direction on each channel: rank i sends to i+1 and receives from i-1 only
    assert rep.threadblocks == 4 * 2 * rep.channels
    # the ring needs no nop: each send waits for the receive into its chunk, each receive for one send
    assert b'type="nop"' not in xml
    assert rep.rank_map == tuple((i, i) for i in range(4))


def test_a_tree_with_several_children_chains_the_additions_into_each_chunk():
    s = _tree7(C=3)
    xml, _ = _check(s)
    # at the root, chunk x is added to from children 1, 2, 3: the leaf 2 first (its packets wait for nothing), then
    # 1 and 3 (a level deeper), in message order; each addition waits for the previous one
    steps = _steps(xml, 0)

    def waits(st: dict) -> set[tuple[int, int]]:
        """What a step waits for: its own dependency and those of the nops right before it."""
        mine = sorted((o for o in steps if o["tb"] == st["tb"] and o["s"] <= st["s"]), key=lambda o: o["s"])
        out = {(st["depid"], st["deps"])}
        for o in reversed(mine[:-1]):
            if o["type"] != "nop":
                break
            out.add((o["depid"], o["deps"]))
        return out

    for x in range(3):
        adds = {st["recv"]: st for st in steps if st["type"] == "rrc" and st["chunk"] == x}
        assert sorted(adds) == [1, 2, 3]
        chain = [adds[2], adds[1], adds[3]]
        assert not waits(chain[0]) & {(a["tb"], a["s"]) for a in chain}
        for prev, st in zip(chain, chain[1:], strict=False):
            assert (prev["tb"], prev["s"]) in waits(st)
        # the results go down after the last addition, once to each child
        sends = [st for st in steps if st["type"] == "s" and st["chunk"] == x]
        assert sorted(st["send"] for st in sends) == [1, 2, 3]
        assert all(waits(st) == {(chain[-1]["tb"], chain[-1]["s"])} for st in sends)


def test_a_dropped_addition_order_is_a_race_the_replay_catches():
    xml = msccl_schedule(_tree7(C=1)).decode()
    steps = _steps(xml.encode(), 0)
    second = [st for st in steps if st["type"] == "rrc"][1]
    g = xml.index('<gpu id="0" ')
    tb = xml.index(f'<tb id="{second["tb"]}" ', g)
    line = re.compile(f'(<step s="{second["s"]}" type="rrc" [^>]*)depid="\\d+" deps="\\d+"')
    cut = xml[:tb] + line.sub(r'\1depid="-1" deps="-1"', xml[tb:], count=1)
    assert cut != xml
    with pytest.raises(ValueError, match="race"):
        replay_msccl(cut)


@pytest.mark.parametrize("P", [1, 2])
def test_host_mode_rings_and_trees_replay_and_carry_the_rank_map(P):
    routers = nx.cycle_graph(3)
    for s in (_host_ring(routers, P, k=2), _host_tree(routers, P)):
        xml, rep = _check(s)
        # host h of router r is node 3 + 2r + h (P = 2) or 3 + r (P = 1): the map, from the construction
        expected = tuple((3 + r * P + h, r) for r in range(3) for h in range(P))
        assert rep.rank_map == expected == tuple(map(tuple, msccl_rank_map(s).tolist()))
        # a message of several hops is one send between its two ranks: no router appears as a peer
        peers = {int(x) for x in re.findall(rb'(?:send|recv)="(\d+)"', xml)}
        assert peers <= set(range(3 * P))


def test_two_hosts_per_router_on_k4():
    s = _host_ring(nx.complete_graph(4), 2, k=1)
    _, rep = _check(s)
    assert rep.ranks == 8 and {router for _, router in rep.rank_map} == {0, 1, 2, 3}


def test_a_missing_dependency_is_refused_by_both_replays():
    # the allgather no longer waits for the reduce-scatter: it passes on each rank's own part, not the sum
    s = _ring(4, 2, drop=True)
    with pytest.raises(ValueError, match="delivers the sum of 1 contributions, not of all 4 ranks"):
        replay_counts(s)
    xml = msccl_schedule(s)  # the file says what the schedule says
    with pytest.raises(ValueError, match="ends with chunk \\d+ holding the contributions of 1 of 4 ranks"):
        replay_msccl(xml)


def _crossing() -> Schedule:
    """Every rank sends its raw part to every other, which adds it in: an allreduce by counts, but the packets must
    cross (each rank must send before it adds), so in-place steps in one order cannot carry it."""
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2], [0, 2]]), 1.0, chunk_bytes=[8])
    for a in range(3):
        for c in range(3):
            if a != c:
                b.add([a, c], [0], own=True, reduce=True)
    return b.build("direct", size=8)


def test_packets_that_must_cross_have_no_in_place_program():
    s = _crossing()
    assert replay_counts(s) == 6  # no final range: nothing to check by counts
    with pytest.raises(ValueError, match="packet 0 carries 1 contributions, but chunk 0 of rank 1 then holds 2 in the "
                                         "writer's order .*no in-place MSCCL program in that order"):
        msccl_schedule(s)


def _two_reads_then_a_write() -> Schedule:
    """Three ranks, one chunk: 2 and 0 add their parts at 1; 0 also sends its part to 2 (a copy, after 2 sent its
    own); 1 sends the sum to both. Rank 0's chunk is read by two thread blocks (to 1, to 2) before the sum
    overwrites it: that receive waits for both, one through a nop."""
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2], [0, 2]]), 1.0, chunk_bytes=[8])
    a = b.add([2, 1], [0], own=True, reduce=True)
    c = b.add([0, 1], [0], own=True, reduce=True)
    b.add([0, 2], [0], own=True)
    b.add([1, 0], [0], [(a, 0), (c, 0)], own=True, final=True)
    b.add([1, 2], [0], [(a, 0), (c, 0)], own=True, final=True)
    return b.build("two reads", size=8)


def test_a_step_that_waits_for_two_thread_blocks_gets_a_nop():
    xml, rep = _check(_two_reads_then_a_write())
    steps = _steps(xml, 0)
    sends = {st["send"]: (st["tb"], st["s"]) for st in steps if st["type"] == "s"}
    nop, final = [st for st in steps if st["recv"] == 1]
    assert nop["type"] == "nop" and final["type"] == "r" and final["s"] == nop["s"] + 1
    assert {(nop["depid"], nop["deps"]), (final["depid"], final["deps"])} == {sends[1], sends[2]}
    assert xml.count(b'type="nop"') == 1 and rep.steps == 2 * 5 + 1


# -- what cannot be an MSCCL program -----------------------------------------------------------------------------------

def test_the_in_network_mode_is_refused():
    # two hosts (nodes 1, 2) on router 0, which reduces: its messages start and end at a node that is no rank
    b = ScheduleBuilder(3, np.array([[0, 1], [0, 2]]), 1.0, chunk_bytes=[8], ranks=[1, 2])
    u1 = b.add([1, 0], [0], own=True, reduce=True)
    u2 = b.add([2, 0], [0], own=True, reduce=True)
    b.add([0, 1], [0], [(u1, 0), (u2, 0)], final=True)
    b.add([0, 2], [0], [(u1, 0), (u2, 0)], final=True)
    s = b.build("in-network", size=8)
    assert replay_counts(s) == 4
    with pytest.raises(ValueError, match='messages\\[0\\] ends at node 0, which is no rank .*in-network mode cannot '
                                         'be an MSCCL program .*mode="host"'):
        msccl_schedule(s)


def test_a_relay_that_drops_its_own_part_has_no_in_place_program():
    # rank 1 adds rank 0's part into its chunk, then forwards "only rank 0's part" (own=False) and sends its own
    # separately: correct by counts, but an MSCCL chunk holds one sum
    b = ScheduleBuilder(3, np.array([[0, 1], [1, 2]]), 1.0, chunk_bytes=[8])
    a = b.add([0, 1], [0], own=True, reduce=True)
    b.add([1, 2], [0], [(a, 0)], reduce=True)
    b.add([1, 2], [0], own=True, reduce=True)
    s = b.build("relay", size=8)
    with pytest.raises(ValueError, match="packet 0 carries 1 contributions, but chunk 0 of rank 1 then holds 2"):
        msccl_schedule(s)


def test_a_cycle_of_dependencies_is_refused():
    b = ScheduleBuilder(2, np.array([[0, 1]]), 1.0, chunk_bytes=[8])
    b.add([0, 1], [0], [(1, 0)], own=True, reduce=True)
    b.add([1, 0], [0], [(0, 0)], own=True, final=True)
    with pytest.raises(ValueError, match="never leaves .*cycle"):
        msccl_schedule(b.build("cycle", size=8))


# -- the executor's limits ---------------------------------------------------------------------------------------------

def _two(C: int) -> Schedule:
    """Reduce-scatter + allgather on two ranks, C chunks: rank 0 reduces the first half, rank 1 the second; each
    rank sends C packets to the other (C/2 partial sums, C/2 results), one stream per phase."""
    half = C // 2
    b = ScheduleBuilder(2, np.array([[0, 1]]), 1.0, chunk_bytes=[8] * C)
    r0 = b.add([0, 1], range(half, C), own=True, reduce=True)
    r1 = b.add([1, 0], range(half), own=True, reduce=True)
    b.add([0, 1], range(half), [(r1, 0)], own=True, final=True)
    b.add([1, 0], range(half, C), [(r0, 0)], own=True, final=True)
    return b.build("two", size=8 * C)


def test_64_steps_per_thread_block():
    # one channel: each rank's one sending thread block runs C steps
    _, rep = _check(_two(64), channels=1)
    assert rep.max_steps_per_tb == 64 == MSCCL_LIMITS["MSCCL_MAX_NUM_STEPS"]
    with pytest.raises(ValueError, match="runs 66 steps; the executor allows MSCCL_MAX_NUM_STEPS=64 per thread block: "
                                         "about 64 chunks would fit .*packet_bytes"):
        msccl_schedule(_two(66), channels=1)
    # by default the writer takes the fewest channels that fit: two
    _, rep = _check(_two(66))
    assert rep.channels == 2 and rep.max_steps_per_tb == 33


def _ring_nodes(R: int, k: int) -> int:
    """XML elements of a rank of the ring of :func:`_ring` (closed form): the algo, R gpus, 2 thread blocks per
    channel (one to each neighbour), and 4 (R-1) k steps (send and receive 2 (R-1) k packets); channels: the fewest
    that keep 2 (R-1) k sends within 64 per thread block."""
    h = -(-2 * (R - 1) * k // 64)
    return 1 + R + 2 * h + 4 * (R - 1) * k


def test_4096_xml_elements_per_rank_at_the_size_the_closed_form_says():
    R = 4
    k = max(k for k in range(1, 400) if _ring_nodes(R, k) <= 4096)
    _, rep = _check(_ring(R, k))
    assert rep.max_xml_nodes == _ring_nodes(R, k) and rep.max_steps_per_tb <= 64
    with pytest.raises(ValueError, match=f"has {_ring_nodes(R, k + 1)} XML elements .*MSCCL_MAX_NODES=4096: about "
                                         f"\\d+ chunks would fit \\(it has {R * (k + 1)};"):
        msccl_schedule(_ring(R, k + 1))


def test_too_many_packets_are_refused_before_the_work():
    # 2 ranks, 4000 chunks: 8000 steps per rank, twice what a rank's part of the file may hold
    with pytest.raises(ValueError, match="8000 packets make 16000 steps, 8000 per rank on average; .*"
                                         "MSCCL_MAX_NODES=4096 .*: about 2046 chunks would fit"):
        msccl_schedule(_two(4000))


def test_1024_gpus():
    n = 1025
    b = ScheduleBuilder(n, np.array([[i, i + 1] for i in range(n - 1)]), 1.0, chunk_bytes=[8])
    b.add([0, 1], [0], own=True)
    with pytest.raises(ValueError, match="1025 ranks; the executor's parser keeps at most MSCCL_MAX_SUBS=1024 gpus"):
        msccl_schedule(b.build("long", size=8))


def _star(leaves: int) -> Schedule:
    parent = dict.fromkeys(range(1, leaves + 1), 0)
    return _tree(parent, 0, 1, nodes=leaves + 1, links=np.array([(0, v) for v in parent]), name="star")


def test_32_thread_blocks_per_channel_and_direction():
    s = _star(40)
    with pytest.raises(ValueError, match="channels=1 is too few: .*MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL=32 .*"
                                         "need channels >= 2"):
        msccl_schedule(s, channels=1)
    _, rep = _check(s)
    assert rep.channels == 2 and rep.max_tbs_per_channel == 32


def test_dependencies_only_on_thread_blocks_0_to_127():
    # the root's additions are chained across 130 receiving thread blocks: the last ones have ids above 127
    with pytest.raises(ValueError, match="waits for its thread block 12[89]; .*int8_t \\(dependentBid\\)"):
        msccl_schedule(_star(130))
    _check(_star(100))


def test_bad_options_and_names():
    s = _ring(3)
    with pytest.raises(ValueError, match="is not a Schedule"):
        msccl_schedule("ring")
    with pytest.raises(ValueError, match="channels=33 is too large"):
        msccl_schedule(s, channels=33)
    with pytest.raises(ValueError, match="proto"):
        msccl_schedule(s, proto="fast")
    with pytest.raises(ValueError, match="has 300 characters written; the executor's parser reads MAX_STR_LEN=255"):
        msccl_schedule(s, name="x" * 300)
    xml = msccl_schedule(s, name='a "quoted" & <name>', proto="LL", min_bytes=8, max_bytes=1 << 20)
    assert xml.startswith(b'<algo name="a &quot;quoted&quot; &amp; &lt;name&gt;" proto="LL" ')
    assert b'minBytes="8" maxBytes="1048576"' in xml
    assert replay_msccl(xml).ranks == 3


# -- determinism and the rank map --------------------------------------------------------------------------------------

def test_the_same_bytes_in_a_fresh_process():
    s = _host_ring(nx.cycle_graph(3), 2, k=2)
    xml = msccl_schedule(s)
    assert xml == msccl_schedule(s) == msccl_schedule(_host_ring(nx.cycle_graph(3), 2, k=2))
    code = ("import networkx as nx, hashlib, sys; from tests.io.test_msccl_schedule import _host_ring; "
            "from starlib.io import msccl_schedule; "
            "sys.stdout.write(hashlib.sha256(msccl_schedule(_host_ring(nx.cycle_graph(3), 2, k=2))).hexdigest())")
    env = {"NUMBA_NUM_THREADS": "1", "PATH": "/usr/bin:/bin", "HOME": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout == hashlib.sha256(xml).hexdigest()


def test_the_replay_checks_the_rank_map():
    xml = msccl_schedule(_host_ring(nx.cycle_graph(3), 2)).decode()
    assert replay_msccl(xml).rank_map == ((3, 0), (4, 0), (5, 1), (6, 1), (7, 2), (8, 2))
    with pytest.raises(ValueError, match="gpu 2: the rank map needs both host and router"):
        replay_msccl(xml.replace(' host="5" router="1"', ' host="5"'))
    with pytest.raises(ValueError, match="names 5 of 6 ranks; gpu 2 has none"):
        replay_msccl(xml.replace(' host="5" router="1"', ""))
    with pytest.raises(ValueError, match="puts host 3 on router 0 \\(gpu 0\\) and on router 1 \\(gpu 1\\)"):
        replay_msccl(xml.replace('host="4" router="0"', 'host="3" router="1"'))
    with pytest.raises(ValueError, match="host=-1, router=0 must be >= 0"):
        replay_msccl(xml.replace('host="3" router="0"', 'host="-1" router="0"'))
    # a file without the map (the tree writer's) has none
    assert replay_msccl(re.sub(r' host="\d+" router="\d+"', "", xml)).rank_map is None


# -- the replay's rules for what the writer uses -----------------------------------------------------------------------

def test_the_replay_refuses_what_the_executor_would_misread():
    xml = msccl_schedule(_two_reads_then_a_write()).decode()
    nop = re.search(r'<step s="\d+" type="nop"[^>]*depid="(\d+)" deps="(\d+)" hasdep="0" />', xml)
    dep = f'depid="{nop.group(1)}" deps="{nop.group(2)}"'
    with pytest.raises(ValueError, match="has no dependency: the executor counts a nop only through its dependency"):
        replay_msccl(xml[:nop.start()] + nop.group(0).replace(dep, 'depid="-1" deps="-1"') + xml[nop.end():])
    with pytest.raises(ValueError, match='hasdep="1": the executor never signals after a nop'):
        replay_msccl(xml[:nop.start()] + nop.group(0).replace('hasdep="0"', 'hasdep="1"') + xml[nop.end():])
    # 17 attributes on a gpu: the parser would drop one
    extra = " ".join(f'x{i}="0"' for i in range(11))
    with pytest.raises(ValueError, match="a <gpu> has 17 attributes; the executor's parser keeps MAX_ATTR_COUNT=16"):
        replay_msccl(xml.replace('<gpu id="0" ', f'<gpu id="0" {extra} ', 1))
    with pytest.raises(ValueError, match="name has 256 characters"):
        replay_msccl(re.sub(r'name="[^"]*"', f'name="{"n" * 256}"', xml, count=1))


def test_the_replay_refuses_a_nop_that_ends_a_thread_block_and_a_dependency_above_127():
    head = ('<algo name="x" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="2" coll="allreduce" inplace="1" '
            'outofplace="0" minBytes="0" maxBytes="0">')

    def step(s, t, dep=(-1, -1), hasdep=0):
        return (f'<step s="{s}" type="{t}" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="{dep[0]}" '
                f'deps="{dep[1]}" hasdep="{hasdep}"/>')

    # rank 0 sends its part and takes the sum back; rank 1 adds, then sends the sum from another thread block
    g0 = ('<gpu id="0" i_chunks="0" o_chunks="1" s_chunks="0"><tb id="0" send="1" recv="1" chan="0">'
          + step(0, "s") + step(1, "r") + "</tb></gpu>")

    def g1(filler: int, tail: str = "") -> str:
        # ``filler`` thread blocks first, each copying the sum to a scratch chunk of its own after the send
        tbs = "".join(f'<tb id="{i}" send="-1" recv="-1" chan="0"><step s="0" type="cpy" srcbuf="o" srcoff="0" '
                      f'dstbuf="s" dstoff="{i}" cnt="1" depid="{filler + 1}" deps="0" hasdep="0"/></tb>'
                      for i in range(filler))
        return (f'<gpu id="1" i_chunks="0" o_chunks="1" s_chunks="{filler}">' + tbs
                + f'<tb id="{filler}" send="-1" recv="0" chan="0">{step(0, "rrc", hasdep=1)}</tb>'
                + f'<tb id="{filler + 1}" send="0" recv="-1" chan="0">{step(0, "s", (filler, 0), hasdep=1)}'
                + tail + "</tb></gpu>")

    assert replay_msccl(head + g0 + g1(0) + "</algo>").messages == 2
    assert replay_msccl(head + g0 + g1(126) + "</algo>").threadblocks == 1 + 128
    with pytest.raises(ValueError, match="the step after them must have one of its own"):
        replay_msccl(head + g0 + g1(0, step(1, "nop", (0, 0))) + "</algo>")
    with pytest.raises(ValueError, match="depends on tb 128; the executor keeps a dependency's thread block in an "
                                         "int8_t"):
        replay_msccl(head + g0 + g1(127) + "</algo>")


# -- the schedule builders, when present -------------------------------------------------------------------------------

BUILDERS = importlib.util.find_spec("starlib.allreduce.schedules") is not None




# -- docs/formats.md §6.10 ---------------------------------------------------------------------------------------------

def test_the_docs_example_is_what_the_writer_writes():
    doc = (ROOT / "docs" / "formats.md").read_text()
    lines = doc[doc.index("Two hosts (nodes 2 and 3) on routers 0 - 1"):].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    <algo "))
    block = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:].strip())
    b = ScheduleBuilder(4, np.array([[0, 1], [0, 2], [1, 3]]), 100.0, chunk_bytes=[512, 512], ranks=[2, 3])
    rs0 = b.add([2, 0, 1, 3], [1], own=True, reduce=True)
    rs1 = b.add([3, 1, 0, 2], [0], own=True, reduce=True)
    b.add([2, 0, 1, 3], [0], deps=[(rs1, 0)], own=True, final=True)
    b.add([3, 1, 0, 2], [1], deps=[(rs0, 0)], own=True, final=True)
    written = iter(line.strip() for line in msccl_schedule(b.build("two hosts", size=1024)).decode().splitlines())
    kept = [line for line in block if line and "..." not in line]
    assert len(kept) == 14  # the algo, gpu 0 whole, gpu 1's line, the closing tags
    assert not [line for line in kept if not any(line == w for w in written)]  # in order, a subsequence


# -- the schedule builders ---------------------------------------------------------------------------------------------

def _networks():
    import starlib

    return {"K_4": nx.complete_graph(4), "C_6": nx.cycle_graph(6), "PolarFly q=2": starlib.network("polarfly", q=2)}


BUILT = ["trees", "bfs", "ring", "multiring", "ring-sp", "dbtree", "halving-doubling"]


@pytest.mark.skipif(importlib.util.find_spec("starlib.allreduce.schedules") is None,
                    reason="starlib.allreduce.schedules is not there")
@pytest.mark.parametrize("P", [1, 2])
@pytest.mark.parametrize("network", ["K_4", "C_6", "PolarFly q=2"])
def test_every_builder_in_host_mode_replays(network, P):
    import starlib
    from starlib.allreduce.schedules import build_schedule

    g = _networks()[network]
    n = len(g) if isinstance(g, nx.Graph) else g.n
    written = 0
    for name in BUILT:
        trees = starlib.edsts(g) if name == "trees" else None
        try:
            s = build_schedule(g, name, 1 << 14, trees=trees, hosts_per_router=P, mode="host", packet_bytes=1024)
        except ValueError as e:  # PolarFly q=2 has no Hamiltonian cycle
            assert "no Hamiltonian cycle" in str(e) and name in ("ring", "multiring") and network == "PolarFly q=2"
            continue
        xml = msccl_schedule(s)
        rep = replay_msccl(xml)
        packets = int(s.chunk_ptr[-1])
        assert (rep.ranks, rep.chunks, rep.messages) == (n * P, len(s.chunk_bytes), packets), name
        # the packets that add at their destination: those of reducing messages before their copy_from
        j = np.arange(packets) - np.repeat(s.chunk_ptr[:-1], np.diff(s.chunk_ptr))
        m = np.repeat(np.arange(s.messages), np.diff(s.chunk_ptr))
        adds = int((s.reduce[m] & (j < np.asarray(s.meta["copy_from"])[m])).sum())
        assert xml.count(b'type="rrc"') == adds and xml.count(b'type="s"') == packets, name
        # host h of router r is node n + r P + h, on router r
        assert rep.rank_map == tuple((n + r * P + h, r) for r in range(n) for h in range(P)), name
        written += 1
    assert written == len(BUILT) - 2 * (network == "PolarFly q=2")
    # the routers reducing in the network: refused
    with pytest.raises(ValueError, match='in-network mode cannot be an MSCCL program .*mode="host"'):
        msccl_schedule(build_schedule(g, "ring-sp", 1 << 14, hosts_per_router=P, mode="in-network",
                                      packet_bytes=1024))
