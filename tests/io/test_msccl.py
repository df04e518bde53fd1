"""The MSCCL allreduce XML (starlib.io.msccl) replayed by starlib.io.msccl_replay: Table IV networks pass (a sample
here, every one with at most 500 routers under ``-m slow``), the message and step counts are the schedule's closed
forms, hand-written programs of the grammar (fused rrs/rcs steps, a reduce-scatter + allgather) pass, and every
planted fault is refused: a missing step, a wrong dependency, a chunk reduced twice, each limit exceeded."""

from __future__ import annotations

import re

import numpy as np
import pytest

import starlib
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph
from starlib.io import MSCCL_LIMITS, msccl_allreduce, render, replay_msccl
from starlib.paper.table4 import instance_grid, row_for

SAMPLE = [("slimfly", {"q": 3}), ("slimfly", {"q": 5}), ("bundlefly", {"q": 3, "paley_q": 5}),
          ("polarstar", {"q": 2, "supernode": "paley", "paley_q": 5}),
          ("polarstar", {"q": 3, "supernode": "iq", "d": 3})]
#: Table IV's families (starlib.paper.table4.instance_grid) as starlib.network names and parameters.
TABLE_IV_AS_NETWORK = {"slimfly": lambda p: ("slimfly", p), "bundlefly": lambda p: ("bundlefly", p),
                       "polarstar-paley": lambda p: ("polarstar", {**p, "supernode": "paley"}),
                       "polarstar-iq": lambda p: ("polarstar", {**p, "supernode": "iq"})}


def _counts(g: ArrayGraph, k: int, c: int) -> dict[str, int]:
    """The schedule's closed forms: each of the k(n-1) tree edges has a thread block at each end, running 2c steps,
    and carries c chunks up and c down."""
    e = k * (g.n - 1)
    return {"ranks": g.n, "threadblocks": 2 * e, "steps": 4 * c * e, "messages": 2 * c * e, "chunks": k * c,
            "max_steps_per_tb": 2 * c}


@pytest.mark.parametrize("family, params", SAMPLE, ids=[f"{f} {p}" for f, p in SAMPLE])
@pytest.mark.parametrize("c", [1, 4])
def test_table_iv_networks_replay_to_a_full_allreduce(family, params, c):
    g = starlib.network(family, **params)
    trees = starlib.edsts(g)
    xml = msccl_allreduce(g, trees, chunks=c)
    rep = replay_msccl(xml)
    assert {k: getattr(rep, k) for k in _counts(g, len(trees), c)} == _counts(g, len(trees), c)
    # only step types Chakra's MSCCL converter turns into trace nodes (s, r, rrc; another, but nop, makes it fail)
    assert set(re.findall(rb'type="(\w+)"', xml)) == {b"s", b"r", b"rrc"}
    assert rep.channels == min(len(trees), 32) and rep.max_tbs_per_channel <= 32 and rep.max_xml_nodes <= 4096


@pytest.mark.slow
def test_every_table_iv_network_with_at_most_500_routers_passes():
    done = 0
    for family, params in instance_grid():
        assert row_for(family, params)
        name, kw = TABLE_IV_AS_NETWORK[family](params)
        g = starlib.network(name, **kw)
        if g.n > 500:
            continue
        trees = starlib.edsts(g)
        rep = replay_msccl(msccl_allreduce(g, trees, chunks=4))
        assert rep.messages == 2 * 4 * len(trees) * (g.n - 1)
        done += 1
    assert done == 56


def test_a_hand_written_reduce_scatter_allgather_on_two_ranks_passes():
    def gpu(r: int, mine: int, other: int) -> str:
        steps = [("s", other), ("rrc", mine), ("s", mine), ("r", other)]
        body = "".join(f'<step s="{s}" type="{t}" srcbuf="o" srcoff="{x}" dstbuf="o" dstoff="{x}" cnt="1" depid="-1" '
                       f'deps="-1" hasdep="0"/>' for s, (t, x) in enumerate(steps))
        return f'<gpu id="{r}" i_chunks="0" o_chunks="2" s_chunks="0"><tb id="0" send="{1 - r}" recv="{1 - r}" ' \
               f'chan="0">{body}</tb></gpu>'

    xml = ('<algo name="rs-ag" proto="LL" nchannels="1" nchunksperloop="2" ngpus="2" coll="allreduce" inplace="1" '
           'outofplace="0" minBytes="0" maxBytes="0">' + gpu(0, 0, 1) + gpu(1, 1, 0) + "</algo>")
    rep = replay_msccl(xml)
    assert (rep.ranks, rep.messages, rep.steps) == (2, 4, 8)
    # rank 1 adds the reduced chunk 0 to its own copy instead of taking it: its own part counted twice
    g1 = xml.index('<gpu id="1" ')
    with pytest.raises(ValueError, match="gpu 1, tb 0, step 3 \\(rrc\\): chunk 0 would count the contributions of "
                                         "rank\\(s\\) \\[1\\] twice"):
        replay_msccl(xml[:g1] + xml[g1:].replace('<step s="3" type="r"', '<step s="3" type="rrc"'))


def test_a_hand_written_chain_with_fused_rrs_and_rcs_steps_passes():
    head = ('<algo name="chain" proto="Simple" nchannels="1" nchunksperloop="1" ngpus="3" coll="allreduce" '
            'inplace="1" outofplace="0" minBytes="0" maxBytes="0">')

    def step(s, t, dep=(-1, -1), hasdep=0):
        return (f'<step s="{s}" type="{t}" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="{dep[0]}" '
                f'deps="{dep[1]}" hasdep="{hasdep}"/>')

    g0 = '<gpu id="0" i_chunks="0" o_chunks="1" s_chunks="0"><tb id="0" send="1" recv="1" chan="0">' + \
        step(0, "s") + step(1, "r") + "</tb></gpu>"
    # rank 1: receive 0's part, add its own, pass to 2 (rrs); then the result from 2, kept and passed to 0 (rcs),
    # which must wait for the rrs that read the chunk (a dependency, or the replay calls it a race)
    g1 = '<gpu id="1" i_chunks="0" o_chunks="1" s_chunks="0"><tb id="0" send="2" recv="0" chan="0">' + \
        step(0, "rrs", hasdep=1) + '</tb><tb id="1" send="0" recv="2" chan="0">' + step(0, "rcs", (0, 0)) + \
        "</tb></gpu>"
    g2 = '<gpu id="2" i_chunks="0" o_chunks="1" s_chunks="0"><tb id="0" send="1" recv="1" chan="0">' + \
        step(0, "rrc") + step(1, "s") + "</tb></gpu>"
    xml = head + g0 + g1 + g2 + "</algo>"
    assert replay_msccl(xml).messages == 4
    # without the dependency the rcs still writes after the rrs read: the message it receives left rank 2 after
    # rank 2 received what the rrs sent, an order across ranks and nothing within rank 1
    dropped = replay_msccl(xml.replace(
        'type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="0" deps="0"',
        'type="rcs" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1"'))
    assert (dropped.messages, dropped.ordered_across) == (4, 1)
    # and a chain that never goes round: rank 2 sends its own chunk before it receives, so nothing orders the two
    cut = xml.replace('depid="0" deps="0"', 'depid="-1" deps="-1"').replace(
        step(0, "rrc") + step(1, "s"), step(0, "s") + step(1, "rrc"))
    with pytest.raises(ValueError, match="race"):
        replay_msccl(cut)


# -- planted faults ----------------------------------------------------------------------------------------------------

def _sf3() -> str:
    g = starlib.network("slimfly", q=3)
    return msccl_allreduce(g, starlib.edsts(g), chunks=2).decode()


SF3 = _sf3()


def _gpu_tb(xml: str, rank: int, tb: int) -> tuple[int, int]:
    """The character span of <tb id=tb> of <gpu id=rank>."""
    g = xml.index(f'<gpu id="{rank}" ')
    start = xml.index(f'<tb id="{tb}" ', g)
    return start, xml.index("</tb>", start)


def _renumber(tb_text: str) -> str:
    count = iter(range(10 ** 6))
    return re.sub(r'<step s="\d+"', lambda m: f'<step s="{next(count)}"', tb_text)


def test_a_missing_step_is_refused():
    a, b = _gpu_tb(SF3, 0, 0)
    tb = SF3[a:b]
    lines = tb.split("\n")
    step_lines = [i for i, s in enumerate(lines) if "<step " in s]
    gone = "\n".join(line for i, line in enumerate(lines) if i != step_lines[0])
    with pytest.raises(ValueError, match="expected s=0 \\(a step is missing or out of order\\)"):
        replay_msccl(SF3[:a] + gone + SF3[b:])
    with pytest.raises(ValueError, match="deadlock|never received|ends with chunk"):
        replay_msccl(SF3[:a] + _renumber(gone) + SF3[b:])


def test_a_wrong_dependency_is_refused():
    # the serial chain of additions into a chunk: drop one link of it and two rrc write the chunk at once
    m = re.search(r'type="rrc"[^>]*depid="(\d+)" deps="(\d+)"', SF3)
    racy = SF3[:m.start()] + m.group(0).replace(f'depid="{m.group(1)}" deps="{m.group(2)}"',
                                                 'depid="-1" deps="-1"') + SF3[m.end():]
    with pytest.raises(ValueError, match="race"):
        replay_msccl(racy)
    # a dependency on a step that signals nothing (hasdep="0" on the step waited for, the last of its thread
    # block to signal; the executor's flags grow, so a later signalling step would release the waiter)
    m = re.search(r'<step s="1" type="rrc"([^>]*)hasdep="1"', SF3)
    with pytest.raises(ValueError, match='deadlock.*hasdep="0" and so never signals'):
        replay_msccl(SF3[:m.start()] + m.group(0)[:-len('hasdep="1"')] + 'hasdep="0"' + SF3[m.end():])
    # a parent's send made to wait for its own broadcast: a cycle of waits
    m = re.search(r'<step s="0" type="s"([^>]*)depid="(\d+)" deps="0"', SF3)
    with pytest.raises(ValueError, match="deadlock"):
        replay_msccl(SF3[:m.start()] + m.group(0)[:-len('deps="0"')] + 'deps="3"' + SF3[m.end():])


def test_a_chunk_reduced_twice_is_refused():
    # a leaf that adds the broadcast result to its own part instead of taking it: its own part counted twice
    p3 = ArrayGraph.from_edges(range(3), np.array([[0, 1], [1, 2]]))
    xml = msccl_allreduce(p3, [Tree(np.array([[0, 1], [1, 2]]), 1)], chunks=1).decode()
    assert replay_msccl(xml).messages == 4
    with pytest.raises(ValueError, match="gpu 0, tb 0, step 1 \\(rrc\\): chunk 0 would count the contributions of "
                                         "rank\\(s\\) \\[0\\] twice"):
        replay_msccl(xml.replace('<step s="1" type="r"', '<step s="1" type="rrc"', 1))


def _two_star_trees(leaves: int = 40) -> tuple[ArrayGraph, EDSTSet]:
    half = leaves // 2
    a = [(0, i) for i in range(1, half + 1)] + [(i - half, i) for i in range(half + 1, leaves + 1)]
    b = [(0, i) for i in range(half + 1, leaves + 1)] + [(i, half + i % half + 1) for i in range(1, half + 1)]
    g = ArrayGraph.from_edges(range(leaves + 1), np.array(a + b))
    return g, EDSTSet([Tree(np.array(a), 0), Tree(np.array(b), 0)])


@pytest.mark.parametrize("plant, words", [
    (lambda x: x.replace('nchannels="2"', 'nchannels="33"'), "nchannels=33 must be 1..32"),
    (lambda x: x.replace('chan="1"', 'chan="0"'), "already uses the send connection|thread blocks send or receive"),
    (lambda x: x.replace('cnt="1"', 'cnt="72"', 1), "cnt=72 must be 1..71"),
    (lambda x: x.replace('<tb id="3" ', '<tb id="99" ', 1), "thread block ids must be 0..39"),
    (lambda x: x.replace('minBytes="0"', 'minBytes="9"').replace('maxBytes="0"', 'maxBytes="8"'), "maxBytes=8"),
    (lambda x: x.replace(' hasdep="0" />', ' />', 1), "has no attribute 'hasdep'"),
    (lambda x: x.replace('send="0" recv="0"', 'send="-1" recv="0"', 1), "sends, but its thread block has no send"),
    (lambda x: x.replace('srcoff="1"', 'srcoff="2"', 1), "srcoff=2 with cnt=1 leaves buffer 'o' of 2 chunks"),
])
def test_planted_limit_violations_are_refused(plant, words):
    g, trees = _two_star_trees()
    xml = msccl_allreduce(g, trees, chunks=1).decode()
    rep = replay_msccl(xml)
    assert rep.max_tbs_per_channel == 20 and rep.channels == 2
    with pytest.raises(ValueError, match=words):
        replay_msccl(plant(xml))


def test_too_many_thread_blocks_on_a_channel_and_too_many_steps_are_refused():
    g, trees = _two_star_trees()
    xml = msccl_allreduce(g, trees, chunks=1, channels=2).decode()
    # every thread block of rank 0 onto channel 0, each with its own peer: 40 > 32 per channel
    g0 = xml.index('<gpu id="0" ')
    g1 = xml.index('<gpu id="1" ')
    moved = xml[:g0] + xml[g0:g1].replace('chan="1"', 'chan="0"') + xml[g1:]
    with pytest.raises(ValueError, match="gpu 0: 40 thread blocks send or receive on one channel"):
        replay_msccl(moved.replace('nchannels="2"', 'nchannels="2"'))
    star = ArrayGraph.from_edges(range(34), np.array([(0, i) for i in range(1, 34)]))
    with pytest.raises(ValueError, match="rank 0 needs 33 thread blocks on one channel"):
        msccl_allreduce(star, [Tree(np.array([(0, i) for i in range(1, 34)]), 0)])
    p2 = ArrayGraph.from_edges(range(2), np.array([[0, 1]]))
    xml = msccl_allreduce(p2, [Tree(np.array([[0, 1]]), 0)], chunks=32).decode()
    assert replay_msccl(xml).max_steps_per_tb == 64 == MSCCL_LIMITS["MSCCL_MAX_NUM_STEPS"]
    a, b = _gpu_tb(xml, 0, 0)
    extra = '      <step s="64" type="nop" srcbuf="o" srcoff="0" dstbuf="o" dstoff="0" cnt="0" depid="-1" deps="-1" ' \
            'hasdep="0" />\n'
    with pytest.raises(ValueError, match="has 65 steps; the executor allows MSCCL_MAX_NUM_STEPS=64"):
        replay_msccl(xml[:b] + extra + "    " + xml[b:])
    with pytest.raises(ValueError, match="chunks=33 is too large"):
        msccl_allreduce(p2, [Tree(np.array([[0, 1]]), 0)], chunks=33)


def test_the_format_names_the_run_and_refuses_bad_options():
    g = starlib.network("slimfly", q=3)
    trees = starlib.edsts(g)
    xml = render("msccl-xml", g, trees, network="slimfly", params={"q": 3}, chunks=1)
    assert xml.startswith(b'<algo name="slimfly q=3: allreduce over 2 trees" proto="Simple" nchannels="2" ')
    for kw, words in [({"chunks": 0}, "chunks=0 is too small"), ({"channels": 33}, "channels=33 is too large"),
                      ({"min_bytes": 8, "max_bytes": 4}, "max_bytes=4 is below min_bytes=8"),
                      ({"proto": "fast"}, "proto")]:
        with pytest.raises(ValueError, match=words):
            msccl_allreduce(g, trees, **kw)
    with pytest.raises(ValueError, match="not in the graph|edge"):
        msccl_allreduce(g, [Tree(np.array([[i, i + 1] for i in range(g.n - 1)]), 0)])


def test_an_out_of_place_program_reads_the_input_and_fills_the_output():
    def gpu(r: int, mine: int, other: int, first_src: str = "i") -> str:
        steps = [("s", first_src, other, "o", other), ("rrc", "i", mine, "o", mine), ("s", "o", mine, "o", mine),
                 ("r", "o", other, "o", other)]
        body = "".join(f'<step s="{s}" type="{t}" srcbuf="{sb}" srcoff="{so}" dstbuf="{db}" dstoff="{do}" cnt="1" '
                       f'depid="-1" deps="-1" hasdep="0"/>' for s, (t, sb, so, db, do) in enumerate(steps))
        return f'<gpu id="{r}" i_chunks="2" o_chunks="2" s_chunks="0"><tb id="0" send="{1 - r}" recv="{1 - r}" ' \
               f'chan="0">{body}</tb></gpu>'

    head = ('<algo name="oop" proto="Simple" nchannels="1" nchunksperloop="2" ngpus="2" coll="allreduce" '
            'inplace="0" outofplace="1" minBytes="0" maxBytes="0">')
    assert replay_msccl(head + gpu(0, 0, 1) + gpu(1, 1, 0) + "</algo>").messages == 4
    with pytest.raises(ValueError, match="out of place.*reads chunk\\(s\\) 1..1 of buffer 'o' before anything is"):
        replay_msccl(head + gpu(0, 0, 1, first_src="o") + gpu(1, 1, 0) + "</algo>")
