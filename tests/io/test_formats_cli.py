"""The new export formats on the command line (registry-driven --format and --option): routes, msccl-xml,
astra-ns3 and graphml's endpoints write files that read back, and a bad option gets one line, status 2 and no
file."""

from __future__ import annotations

import os

import numpy as np
import pytest

import starlib
from starlib.cli import main
from starlib.io import read_ns3_topology, read_routes, replay_msccl


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_each_new_format_from_the_command_line_reads_back(capsys, tmp_path):
    g = starlib.network("slimfly", q=5)
    trees = starlib.edsts(g)
    assert run(capsys, "edsts", "slimfly", "q=5", "--format", "routes", "-o", tmp_path / "r.json")[0] == 0
    doc = read_routes((tmp_path / "r.json").read_bytes())
    assert np.array_equal(np.array([t["parent"] for t in doc["trees"]]), trees.parent_arrays())
    assert doc["network"] == "slimfly" and doc["params"] == {"q": 5}
    code, _, err = run(capsys, "edsts", "slimfly", "q=5", "--format", "msccl-xml", "--option", "chunks=3",
                       "-o", tmp_path / "a.xml")
    assert code == 0, err
    rep = replay_msccl((tmp_path / "a.xml").read_bytes())
    assert rep.chunks == 3 * len(trees) and rep.messages == 2 * 3 * len(trees) * (g.n - 1)
    assert run(capsys, "build", "slimfly", "q=5", "--format", "astra-ns3", "--option", "hosts_per_router=2",
               "--option", "latency_ns=250", "-o", tmp_path / "t.txt")[0] == 0
    t = read_ns3_topology((tmp_path / "t.txt").read_text())
    assert t.nodes == 3 * g.n and set(t.delays) == {"250ns"}
    assert run(capsys, "build", "slimfly", "q=5", "--format", "graphml", "--option", "endpoints=3",
               "-o", tmp_path / "m.graphml")[0] == 0
    assert (tmp_path / "m.graphml").read_text().count('<data key="endpoints">3</data>') == g.n


@pytest.mark.parametrize("args, words", [
    (["edsts", "slimfly", "q=5", "--format", "msccl-xml", "--option", "chunks=33"], "chunks=33 is too large"),
    (["edsts", "slimfly", "q=5", "--format", "msccl-xml", "--option", "channels=0"], "channels=0 is too small"),
    (["edsts", "slimfly", "q=5", "--format", "msccl-xml", "--option", "proto=LL"], "format msccl-xml takes chunks=N"),
    (["edsts", "slimfly", "q=5", "--format", "routes", "--option", "table=2"], "table=2 is not a flag"),
    (["build", "slimfly", "q=5", "--format", "routes"],
     "writes trees: use starlib export FILE (a file's trees) or starlib edsts"),
    (["build", "slimfly", "q=5", "--format", "astra-ns3", "--option", "latency_ns=0.5"], "latency_ns"),
    (["build", "slimfly", "q=5", "--format", "astra-ns3", "--option", "bandwidth_gbps=0"], "bandwidth_gbps=0"),
    (["build", "slimfly", "q=5", "--format", "graphml", "--option", "endpoints=0"], "endpoints=0 is too small"),
])
def test_a_bad_option_gets_one_line_status_2_and_no_file(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args, "-o", "out.file")
    assert code == 2 and out == "" and err.count("\n") == 1 and words in err, err
    assert "Traceback" not in err and os.listdir(tmp_path) == []


def test_a_bad_option_value_is_refused_before_the_network_is_read(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for fmt, option, words in [("msccl-xml", "chunks=33", "chunks=33"), ("routes", "table=5", "table=5"),
                               ("astra-ns3", "hosts_per_router=0", "hosts_per_router=0")]:
        code, _, err = run(capsys, "edsts", "missing.graphml", "--format", fmt, "--option", option, "-o", "o")
        assert code == 2 and words in err and "missing.graphml" not in err, err
