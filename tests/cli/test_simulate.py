"""``starlib simulate``: every schedule on a family and on a network read from a file, against the proved bound.

Independent checks: no simulated time beats the proved lower bound (docs/collectives.md, computed by
:mod:`starlib.allreduce.optimum` from the graph, not by the simulator); the same network given as a family and as a
GraphML file written by ``starlib build`` has the family's bound; trees given with ``--trees`` give the time of
the same trees packed in the run; ns-3 and SimGrid agree on a pipelined tree allreduce of 1 MiB within 15 %.
"""

from __future__ import annotations

import json

import pytest

from starlib.allreduce.schedules import SCHEDULES
from starlib.cli import main

pytest.importorskip("cppyy")


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def simulate(capsys, *args):
    code, out, err = run(["simulate", *args, "--json", "-q"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("schedule", sorted(SCHEDULES))
def test_every_schedule_on_a_family_respects_the_bound(schedule, capsys):
    row = simulate(capsys, "polarfly", "q=3", "--schedule", schedule, "--size", "64K", "--hosts-per-router", "0")
    assert row["schedule"] == schedule and row["routers"] == 13 and row["ranks"] == 13
    assert row["time_us"] >= row["bound_us"] > 0
    assert row["simulator"] == "ns3" and row["simulator_version"].startswith("ns-3 ")


@pytest.mark.parametrize("mode", ["in-network", "host"])
def test_hosts_per_router(mode, capsys):
    row = simulate(capsys, "polarfly", "q=3", "--schedule", "trees", "--size", "256K", "--hosts-per-router", "2",
                   "--mode", mode)
    assert (row["ranks"], row["hosts_per_router"], row["mode"]) == (26, 2, mode)
    # a host link carries the whole result: M / b at least (12.5 bytes per ns at 100 Gb/s)
    assert row["time_us"] >= row["bound_us"] >= 256 * 1024 / 12500


def test_a_file_and_given_trees(tmp_path, capsys):
    # a GraphML file written by build, its trees packed by edsts: the trees given with --trees are the trees the
    # file's own run packs, and the family's own trees given back give the family's row
    g, t, ft = tmp_path / "pf.graphml", tmp_path / "trees.json", tmp_path / "family.json"
    assert run(["build", "polarfly", "q=3", "--format", "graphml", "-o", str(g), "-q"], capsys)[0] == 0
    assert run(["edsts", str(g), "--method", "shallow", "-o", str(t), "-q"], capsys)[0] == 0
    assert run(["edsts", "polarfly", "q=3", "--method", "shallow", "-o", str(ft), "-q"], capsys)[0] == 0
    common = ["--schedule", "trees", "--size", "1M", "--hosts-per-router", "0"]
    own = simulate(capsys, str(g), *common)
    given = simulate(capsys, str(g), *common, "--trees", str(t))
    fam = simulate(capsys, "polarfly", "q=3", *common)
    fam_given = simulate(capsys, "polarfly", "q=3", *common, "--trees", str(ft))
    for a, b in ((own, given), (fam, fam_given)):
        assert (a["time_us"], a["trees"], a["max_depth"]) == (b["time_us"], b["trees"], b["max_depth"])
    assert given["network"] == str(g) and fam["network"] == "polarfly" and fam["params"] == "q=3"
    assert own["routers"] == fam["routers"] == 13 and own["bound_us"] == fam["bound_us"]


def test_two_simulators_agree(capsys):
    pytest.importorskip("starlib.netsim.simgrid")
    from starlib.netsim.simgrid import simgrid_version
    from starlib.validation import MissingExtra

    try:
        simgrid_version()
    except MissingExtra as exc:
        pytest.skip(str(exc))
    a = simulate(capsys, "polarfly", "q=3", "--schedule", "trees", "--size", "1M", "--hosts-per-router", "0")
    b = simulate(capsys, "polarfly", "q=3", "--schedule", "trees", "--size", "1M", "--hosts-per-router", "0",
                 "--simulator", "simgrid")
    assert b["simulator_version"].startswith("SimGrid ")
    assert abs(a["time_us"] - b["time_us"]) <= 0.15 * a["time_us"]


def test_one_line_for_people(capsys):
    code, out, err = run(["simulate", "polarfly", "q=3", "--schedule", "bfs", "--size", "4K"], capsys)
    assert code == 0 and len(out.splitlines()) == 1
    assert "bfs (1 tree, depth 2) on polarfly q=3 (13 routers, 13 hosts, 1 per router, in-network)" in out
    assert "ForestColl optimum" in out and "lower bound" in out
    assert err.startswith("simulate polarfly: bfs, 4,096 bytes on ns3")


@pytest.mark.parametrize(("args", "words"), [
    (["--schedule", "spanning"], "--schedule='spanning' is not one of"),
    (["--schedule", "ring", "--simulator", "omnet"], "--simulator='omnet' is not one of"),
    (["--schedule", "ring", "--mode", "switch"], "--mode='switch' is not one of"),
    (["--schedule", "ring", "--size", "0"], "--size='0' is too small"),
    (["--schedule", "ring", "--size", "1X"], "--size='1X'"),
    (["--schedule", "ring", "--hosts-per-router", "-1"], "--hosts-per-router"),
    (["--schedule", "ring", "--link-gbps", "0"], "--link-gbps"),
    (["--schedule", "ring", "--link-gbps", "fast"], "--link-gbps='fast' is not a number"),
    (["--schedule", "ring", "--packet-bytes", "70000"], "--packet-bytes"),
    (["--schedule", "ring", "--trees", "t.json"], "--trees: the 'ring' schedule takes no trees"),
    (["--schedule", "trees", "--method", "bogus"], "bogus"),
])
def test_bad_values_one_line_status_2(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    full = ["simulate", "polarfly", "q=3", *args]
    if "--size" not in args:
        full += ["--size", "1K"]
    code, out, err = run(full, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_trees_of_another_network_refused(tmp_path, capsys):
    t = tmp_path / "t.json"
    assert run(["edsts", "polarfly", "q=4", "-o", str(t), "-q"], capsys)[0] == 0
    code, out, err = run(["simulate", "polarfly", "q=3", "--schedule", "trees", "--trees", str(t), "--size", "1K"],
                         capsys)
    assert code == 2 and "is not the network simulated" in err
