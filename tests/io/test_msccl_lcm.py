"""``chunks=lcm`` of the MSCCL allreduce (starlib.io.msccl): the file's chunk count is a multiple of the ranks (the
least one, lcm(k, n)), every tree still carries 1/k of the buffer, starlib's replay checks the allreduce, and bad
values or a file too large are refused before anything is written."""

from __future__ import annotations

import math
import os
import re

import pytest

import starlib
from starlib.cli import main
from starlib.io import msccl_allreduce, render, replay_msccl
from starlib.io.msccl import lcm_chunks
from starlib.memory import limit_memory

#: (network, parameters, trees used): k trees of the network's packing, n ranks
CASES = [("complete", {"n": 6}, 1), ("complete", {"n": 6}, 2), ("complete", {"n": 6}, 3), ("complete", {"n": 7}, 2),
         ("complete", {"n": 8}, 3), ("complete", {"n": 9}, 4), ("slimfly", {"q": 3}, 2)]


def _chunks_per_channel(xml: bytes) -> dict[int, set[int]]:
    """The chunks each channel's steps touch (tree t runs on channel t when there are at most 32 trees)."""
    out: dict[int, set[int]] = {}
    for chan, body in re.findall(rb'<tb id="\d+" send="\d+" recv="\d+" chan="(\d+)">(.*?)</tb>', xml, re.S):
        out.setdefault(int(chan), set()).update(int(x) for x in re.findall(rb'srcoff="(\d+)"', body))
    return out


@pytest.mark.parametrize("family, params, k", CASES, ids=[f"{f} {p} k={k}" for f, p, k in CASES])
def test_the_chunk_count_is_the_least_multiple_of_the_ranks_and_the_replay_passes(family, params, k):
    g = starlib.network(family, **params)
    trees = list(starlib.edsts(g))[:k]
    assert len(trees) == k
    n = g.n
    xml = msccl_allreduce(g, trees, chunks="lcm")
    rep = replay_msccl(xml)  # raises unless every rank ends with every chunk summed over all ranks once
    c = lcm_chunks(k, n)
    assert rep.chunks == k * c == math.lcm(k, n) and rep.chunks % n == 0
    assert all((k * d) % n for d in range(1, c))  # no smaller count per tree would do
    assert rep.ranks == n and rep.messages == 2 * c * k * (n - 1)
    # the sizes per tree are unchanged: tree t carries chunks t*c .. t*c+c-1, 1/k of the buffer, as with chunks=1
    per = _chunks_per_channel(xml)
    assert per == {t: set(range(t * c, (t + 1) * c)) for t in range(k)}
    one = _chunks_per_channel(msccl_allreduce(g, trees, chunks=1))
    assert [len(per[t]) / rep.chunks for t in range(k)] == [len(one[t]) / k for t in range(k)] == [1 / k] * k


def test_lcm_under_the_executor_limit_or_refused_with_the_count():
    g = starlib.network("complete", n=6)
    trees = list(starlib.edsts(g))
    assert lcm_chunks(len(trees), g.n) == 2
    g50 = starlib.network("slimfly", q=5)
    t50 = list(starlib.edsts(g50))[:1]  # lcm(1, 50) = 50 chunks for one tree: over 32
    with pytest.raises(ValueError, match=r"chunks=lcm gives 50 chunks per tree \(lcm\(k=1 trees, n=50 ranks\) / k\)"
                                         r".*need 1 <= chunks <= 32"):
        msccl_allreduce(g50, t50, chunks="lcm")


@pytest.mark.parametrize("value, words", [(0, "chunks=0 is too small: need 1 <= chunks <= 32"),
                                          ("abc", "chunks='abc' is neither an integer nor 'lcm'"),
                                          ("LCM", "chunks='LCM' is neither an integer nor 'lcm'")])
def test_bad_values_are_refused(value, words):
    g = starlib.network("complete", n=6)
    with pytest.raises(ValueError, match=re.escape(words)):
        render("msccl-xml", g, list(starlib.edsts(g)), chunks=value)


def test_a_file_over_the_memory_limit_is_refused_before_it_is_built():
    g = starlib.network("complete", n=6)
    with limit_memory(4096, baseline=0), pytest.raises(ValueError, match=r"chunks=2 is too large: msccl_allreduce\("
                                                                         r"chunks=2, trees=3, ranks=6\) would have"):
        msccl_allreduce(g, list(starlib.edsts(g)), chunks="lcm")


def _run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_writes_lcm_and_refuses_bad_values(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "edsts", "complete", "n=6", "--format", "msccl-xml", "--option", "chunks=lcm",
                        "-o", "a.xml")
    assert code == 0, err
    rep = replay_msccl((tmp_path / "a.xml").read_bytes())
    assert rep.chunks == 6 and rep.chunks % rep.ranks == 0
    os.remove("a.xml")
    for value, words in [("0", "chunks=0 is too small"), ("abc", "chunks='abc' is not an integer")]:
        code, out, err = _run(capsys, "edsts", "complete", "n=6", "--format", "msccl-xml", "--option",
                              f"chunks={value}", "-o", "b.xml")
        assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
        assert os.listdir(tmp_path) == []
