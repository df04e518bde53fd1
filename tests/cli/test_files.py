"""Network files on the command line: every verb takes a file in place of a family, every input format round-trips
(build a family, export it, read it back as a file network: the same EDST count, a valid verification, the labels
kept), every method does what it says on a file network, and the README's four commands print what it shows."""

from __future__ import annotations

import json
import re

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.cli import main
from starlib.io import read_input
from tests.paths import ROOT

#: output format -> suffix of the file it writes (each is read back by the input format of that suffix)
OUTPUTS = {"json": ".json", "json-v1": ".json", "graphml": ".graphml", "gml": ".gml", "node-link": ".json",
           "edgelist": ".edges", "anynet": ".anynet"}
LABELLED = {"json", "json-v1", "graphml", "gml", "node-link"}


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("family, params", [("slimfly", ["q=5"]), ("torus", ["sizes=3,4"])])
@pytest.mark.parametrize("out", list(OUTPUTS))
def test_every_format_round_trips_through_the_command_line(out, family, params, capsys, tmp_path):
    G = starlib.network(family, **dict(p.split("=") for p in params) | ({"q": 5} if family == "slimfly" else {}))
    net = tmp_path / f"net{OUTPUTS[out]}"
    assert run(capsys, "build", family, *params, "--format", out, "-o", net)[0] == 0
    # the same EDST count: the exact maximum, as the generic packer gives on the family built by name
    assert run(capsys, "edsts", family, *params, "--method", "generic", "-o", tmp_path / "by-name.json")[0] == 0
    want = len(json.loads((tmp_path / "by-name.json").read_text())["trees"])
    for method in ("auto", "generic", "shallow"):
        trees = tmp_path / f"{method}.json"
        code, _, err = run(capsys, "edsts", net, "--method", method, "-o", trees)
        assert code == 0 and f"{want} trees" in err, err
        code, verdict, _ = run(capsys, "verify", trees)
        assert code == 0 and f"valid: {want} edge-disjoint spanning trees" in verdict
        data = json.loads(trees.read_text())
        labels = [tuple(x) if isinstance(x, list) else x for x in json.loads(json.dumps(data["nodes"]))]
        f = read_input(trees)
        if out in LABELLED:  # the labels survive
            assert f.graph.labels == G.labels and data["network"] == family
        else:  # vertex i is index i; the labels file of the family names it
            assert labels == list(range(G.n)) and data["input_format"] == ("anynet" if out == "anynet" else "edgelist")
        assert np.array_equal(f.graph.edges, G.edges)
        assert data["input"] == net.name and data["method"] == method and data["upper_bound"] == want


def test_a_graphml_networks_trees_name_its_ids_in_every_output(capsys, tmp_path):
    g = nx.relabel_nodes(nx.random_regular_graph(4, 12, seed=3), {i: f"leaf{i:02d}" for i in range(12)})
    nx.write_graphml(g, tmp_path / "my.graphml")
    ids = list(g.nodes)
    outs = {}
    for fmt, suffix in {"json": ".json", "graphml": ".graphml", "gml": ".gml", "node-link": ".nl.json",
                        "labels": ".labels", "tree-edgelist": ".txt", "parents": ".parents"}.items():
        assert run(capsys, "edsts", tmp_path / "my.graphml", "--format", fmt, "-o", tmp_path / f"t{suffix}")[0] == 0
        outs[fmt] = (tmp_path / f"t{suffix}").read_text()
    assert json.loads(outs["json"])["nodes"] == ids
    assert [v["id"] for v in json.loads(outs["node-link"])["nodes"]] == ids
    assert list(nx.read_graphml(tmp_path / "t.graphml").nodes) == ids
    assert [json.loads(line) for line in outs["labels"].splitlines()] == ids
    k = len(json.loads(outs["json"])["trees"])
    rows = [line.split() for line in outs["tree-edgelist"].splitlines()]
    assert all({ids[int(u)], ids[int(v)]} <= set(ids) and g.has_edge(ids[int(u)], ids[int(v)]) for u, v, _ in rows)
    assert len(outs["parents"].splitlines()) == k
    # the trees come back from each file that has them, named the same
    for name in ("t.json", "t.graphml", "t.gml", "t.nl.json"):
        code, verdict, _ = run(capsys, "verify", tmp_path / name)
        assert code == 0 and f"valid: {k} edge-disjoint" in verdict, name
        assert read_input(tmp_path / name).graph.labels == ids


def test_methods_on_a_file_network(capsys, tmp_path):
    assert run(capsys, "build", "slimfly", "q=7", "--format", "edgelist", "-o", tmp_path / "sf7.edges")[0] == 0
    depths = {}
    for method in ("auto", "generic", "shallow"):
        code, _, err = run(capsys, "edsts", tmp_path / "sf7.edges", "--method", method, "-o", tmp_path / "t.json")
        assert code == 0 and "5 trees" in err, (method, err)  # the upper bound of MMS(7)
        depths[method] = max(t["depth"] for t in json.loads((tmp_path / "t.json").read_text())["trees"])
    assert depths["shallow"] <= min(depths["auto"], depths["generic"]) and depths["shallow"] == 4
    for method in ("maximum", "property", "universal", "low-depth"):
        code, _, err = run(capsys, "edsts", tmp_path / "sf7.edges", "--method", method, "-o", tmp_path / "x.json")
        assert code == 2 and err.count("\n") == 1
        assert f"method='{method}' needs a star product, and a network read from a file is not one" in err
    assert not (tmp_path / "x.json").exists()


def test_info_on_a_file(capsys, tmp_path):
    run(capsys, "build", "slimfly", "q=5", "-o", tmp_path / "sf.json")
    code, out, _ = run(capsys, "info", tmp_path / "sf.json", "--json")
    info = json.loads(out)
    assert code == 0 and info["file"] == str(tmp_path / "sf.json") and info["input_format"] == "json"
    assert (info["network"], info["params"], info["n"], info["m"], info["diameter"], info["upper_bound"]) == \
        ("slimfly", {"q": 5}, 50, 175, 2, 3)
    assert "paper_diameter" not in info
    code, text, _ = run(capsys, "info", tmp_path / "sf.json")
    assert text.splitlines()[0] == f"{tmp_path / 'sf.json'}: a network read from json, a file of slimfly q=5"
    nx.write_graphml(nx.DiGraph([(0, 1), (1, 2)]), tmp_path / "d.graphml")
    code, text, _ = run(capsys, "info", tmp_path / "d.graphml")
    assert code == 0 and "arcs              2" in text and "directed          yes" in text
    (tmp_path / "two.edges").write_text("a b\nc d\n")
    code, text, _ = run(capsys, "info", tmp_path / "two.edges")
    assert code == 0 and "connected         no" in text


def test_build_converts_and_a_json_file_converts_to_the_same_bytes(capsys, tmp_path):
    run(capsys, "build", "polarstar-iq", "q=3", "d=3", "-o", tmp_path / "ps.json")
    run(capsys, "build", tmp_path / "ps.json", "-o", tmp_path / "again.json")
    again, first = json.loads((tmp_path / "again.json").read_text()), json.loads((tmp_path / "ps.json").read_text())
    assert (again.pop("input"), again.pop("input_format")) == ("ps.json", "json") and again == first
    run(capsys, "build", tmp_path / "again.json", "-o", tmp_path / "third.json")  # the first file is kept
    assert (tmp_path / "third.json").read_bytes() == (tmp_path / "again.json").read_bytes()
    run(capsys, "build", tmp_path / "ps.json", "--format", "graphml", "-o", tmp_path / "ps.graphml")
    run(capsys, "build", "polarstar-iq", "q=3", "d=3", "--format", "graphml", "-o", tmp_path / "by-name.graphml")
    assert (tmp_path / "ps.graphml").read_bytes() == (tmp_path / "by-name.graphml").read_bytes()
    # anynet out and back in: the same links (BookSim's own numbering: router r is vertex r)
    run(capsys, "build", tmp_path / "ps.graphml", "--format", "anynet", "--option", "nodes_per_router=2", "-o",
        tmp_path / "ps.anynet")
    assert np.array_equal(read_input(tmp_path / "ps.anynet").graph.edges, starlib.network(
        "polarstar-iq", q=3, d=3).edges)
    code, _, err = run(capsys, "build", tmp_path / "ps.anynet", "--format", "edgelist", "-o", tmp_path / "ps.edges")
    size = (tmp_path / "ps.edges").stat().st_size
    assert code == 0 and err == f"wrote {tmp_path / 'ps.edges'} (edgelist): 104 nodes, {size / 1e3:.1f} kB\n"


def test_improve_reads_trees_from_graphml_and_an_input_format_overrides_the_suffix(capsys, tmp_path):
    run(capsys, "edsts", "slimfly", "q=5", "--method", "generic", "--format", "graphml", "-o", tmp_path / "t.graphml")
    (tmp_path / "t.xml").write_bytes((tmp_path / "t.graphml").read_bytes())
    code, _, err = run(capsys, "improve", tmp_path / "t.xml", "--input-format", "graphml", "-o", tmp_path / "s.json")
    assert code == 0 and "3 trees" in err and "(maximum depth" in err
    assert run(capsys, "verify", tmp_path / "s.json")[0] == 0
    code, out, _ = run(capsys, "verify", tmp_path / "t.xml", "--input-format", "graphml", "--json")
    assert code == 0 and json.loads(out)["valid"] and json.loads(out)["version"] is None


def test_a_family_name_wins_over_a_file_of_that_name(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "slimfly").write_text("0 1\n")
    code, out, _ = run(capsys, "info", "slimfly", "q=5")
    assert code == 0 and out.startswith("slimfly q=5: Slim Fly")
    code, out, _ = run(capsys, "info", "./slimfly", "--input-format", "edgelist")
    assert code == 0 and out.startswith("./slimfly: a network read from edgelist")
    code, _, err = run(capsys, "info", "slimfy", "q=5")  # no such family, and no such file: the family's message
    assert code == 2 and "network='slimfy' is not a known family" in err


def test_help_lists_the_input_formats(capsys):
    for verb in ("info", "build", "edsts", "improve", "verify"):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        out = capsys.readouterr().out
        assert "--input-format" in out and "graphml" in out and "node-link" in out, verb
        assert ("anynet" in out) == (verb != "verify"), verb  # no trees in anynet files
    with pytest.raises(SystemExit):
        main(["edsts", "--help"])
    out = capsys.readouterr().out
    assert "starlib edsts my.graphml --method shallow -o trees.json" in out and "[.edges .edgelist .txt]" in out


# -- the README's session: read, pack, verify, convert, repair, export, simulate ---------------------------------------

def readme_session() -> tuple[str, list[tuple[str, list[str]]]]:
    """The README's 'Your own network': the Python line that writes my.graphml, and each command with its output."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## The command line\n"):text.index("## Sweeps on a cluster\n")]
    make = re.search(r'\(`python -c "(.*?)"`\)', section).group(1)
    block = section[section.index("    $ starlib info my.graphml"):]
    lines = [line[4:] for line in block.split("\n\n")[0].splitlines()]
    session: list[tuple[str, list[str]]] = []
    for line in lines:
        if line.startswith("$ "):
            session.append((line[2:], []))
        else:
            session[-1][1].append(line)
    return make, session


def test_the_readme_shows_the_engineers_path_as_it_runs(capsys, tmp_path, monkeypatch):
    make, session = readme_session()
    assert [c.split()[1] for c, _ in session] == ["info", "edsts", "verify", "build", "repair", "export", "simulate"]
    monkeypatch.chdir(tmp_path)
    exec(make, {})
    for command, shown in session:
        code, out, err = run(capsys, *command.split()[1:])
        assert code == 0, (command, err)
        assert (out + err).splitlines() == shown, command
    assert read_input(tmp_path / "my.anynet").graph.m == 256
