"""``starlib export``: a file's trees written unchanged in every format, verified first, and the user's node ids in
every output, each checked with the reader of the tool that owns the format (networkx for GraphML, GML and node-link
JSON, the MSCCL replay, ASTRA-sim's ns-3 grammar) against a network built here by hand in networkx: the Dragonfly
of 5 groups of 4 routers (a = 4, h = 1), its routers named ``g{group}r{router}``."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.cli import main
from starlib.io import read_input, read_ns3_topology, read_routes, replay_msccl
from tests.paths import ROOT


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def dragonfly() -> nx.Graph:
    """5 groups of 4 routers, each group a K_4; group i's router d-1 links to group (i+d) mod 5's router 4-d."""
    g = nx.Graph()
    g.add_nodes_from(f"g{i}r{k}" for i in range(5) for k in range(4))
    g.add_edges_from((f"g{i}r{a}", f"g{i}r{b}") for i in range(5) for a in range(4) for b in range(a + 1, 4))
    g.add_edges_from((f"g{i}r{d - 1}", f"g{(i + d) % 5}r{4 - d}") for i in range(5) for d in range(1, 5))
    return g


@pytest.fixture(scope="module")
def packed(tmp_path_factory):
    """The Dragonfly as networkx writes GraphML, and its trees as ``starlib edsts --method shallow`` writes them."""
    d = tmp_path_factory.mktemp("df")
    g = dragonfly()
    assert (g.number_of_nodes(), g.number_of_edges()) == (20, 40)  # 5 * 6 links in groups, C(5, 2) between
    nx.write_graphml(g, d / "df.graphml")
    assert main(["edsts", str(d / "df.graphml"), "--method", "shallow", "-q", "-o", str(d / "t.json")]) == 0
    doc = json.loads((d / "t.json").read_text())
    return d, g, doc


def links(g: nx.Graph) -> set[frozenset]:
    return {frozenset(e) for e in g.edges}


def tree_links(doc: dict) -> list[set[frozenset]]:
    """Each tree of a starlib JSON file as the set of its links, named by the file's node ids."""
    ids = doc["nodes"]
    return [{frozenset((ids[v], ids[p])) for v, p in enumerate(t["parent"]) if p >= 0} for t in doc["trees"]]


def test_the_trees_are_the_files_byte_for_byte(packed, capsys):
    d, g, doc = packed
    assert doc["nodes"] == list(g.nodes) and len(doc["trees"]) == 2  # the bound: floor(40 / 19) = 2
    code, _, err = run(capsys, "export", d / "t.json", "--format", "json", "-o", d / "same.json")
    assert code == 0 and "the file's trees, verified" in err
    assert (d / "same.json").read_bytes() == (d / "t.json").read_bytes()
    assert run(capsys, "export", d / "t.json", "-o", d / "t.parents")[0] == 0  # the format read off the suffix
    parents = np.loadtxt(d / "t.parents", dtype=int, ndmin=2)
    assert parents.tolist() == [t["parent"] for t in doc["trees"]]


def test_graphml_names_the_ids_and_roots_by_id(packed, capsys):
    d, g, doc = packed
    assert run(capsys, "export", d / "t.json", "-o", d / "t.graphml")[0] == 0
    back = nx.read_graphml(d / "t.graphml")
    assert list(back.nodes) == list(g.nodes) and links(back) == links(g)
    roots = json.loads(back.graph["roots"])
    assert roots == [doc["nodes"][t["root"]] for t in doc["trees"]] and set(roots) <= set(g.nodes)
    for t, want in enumerate(tree_links(doc)):
        assert {frozenset((u, v)) for u, v, x in back.edges(data="tree") if x == t} == want
    f = read_input(d / "t.graphml")  # and starlib reads the roots back by id
    assert [int(t.root) for t in f.trees] == [t["root"] for t in doc["trees"]]
    code, out, _ = run(capsys, "verify", d / "t.graphml")
    assert code == 0 and "valid: 2 edge-disjoint spanning trees" in out


def test_gml_labels_are_the_ids_as_networkx_reads_them(packed, capsys):
    d, g, doc = packed
    assert run(capsys, "export", d / "t.json", "--format", "gml", "-o", d / "t.gml")[0] == 0
    back = nx.read_gml(d / "t.gml")  # networkx names the nodes by label
    assert list(back.nodes) == list(g.nodes) and links(back) == links(g)
    for t, want in enumerate(tree_links(doc)):
        assert {frozenset((u, v)) for u, v, x in back.edges(data="tree") if x == t} == want
    f = read_input(d / "t.gml")
    assert f.graph.labels == list(g.nodes) and [int(t.root) for t in f.trees] == [t["root"] for t in doc["trees"]]


def test_node_link_names_the_ids_and_roots_by_id(packed, capsys):
    d, g, doc = packed
    assert run(capsys, "export", d / "t.json", "--format", "node-link", "-o", d / "nl.json")[0] == 0
    back = nx.node_link_graph(json.loads((d / "nl.json").read_text()), edges="edges")
    assert list(back.nodes) == list(g.nodes) and links(back) == links(g)
    assert back.graph["roots"] == [doc["nodes"][t["root"]] for t in doc["trees"]]
    f = read_input(d / "nl.json")  # and starlib reads the roots back by id
    assert [int(t.root) for t in f.trees] == [t["root"] for t in doc["trees"]]


def test_msccl_xml_maps_every_rank_to_its_id(packed, capsys):
    d, g, doc = packed
    assert run(capsys, "export", d / "t.json", "-o", d / "allreduce.xml", "--option", "chunks=2")[0] == 0
    data = (d / "allreduce.xml").read_bytes()
    report = replay_msccl(data)  # the executor's grammar and limits, and every chunk reduced once from all ranks
    assert report.ranks == 20 and report.rank_names == tuple(g.nodes)
    assert report.rank_map == tuple((r, r) for r in range(20))
    gpus = ET.fromstring(data).findall("gpu")
    assert [x.get("name") for x in gpus] == list(g.nodes)
    # rank r's thread blocks talk to its tree neighbours: the ids of its links in the two trees
    for gpu in gpus:
        me = gpu.get("name")
        peers = {gpus[int(tb.get("send"))].get("name") for tb in gpu.findall("tb")}
        assert peers == {v for t in tree_links(doc) for e in t if me in e for v in e - {me}}


def test_routes_name_the_ids(packed, capsys):
    d, g, doc = packed
    assert run(capsys, "export", d / "t.json", "--format", "routes", "-o", d / "r.json")[0] == 0
    r = read_routes((d / "r.json").read_bytes())
    assert r["vertices"] == list(g.nodes)
    assert [t["parent"].tolist() for t in r["trees"]] == [t["parent"] for t in doc["trees"]]


def test_astra_ns3_and_its_map_name_every_node(packed, capsys):
    d, g, doc = packed
    for fmt in ("astra-ns3", "astra-ns3-map"):
        code, _, err = run(capsys, "export", d / "t.json", "--format", fmt, "--option", "hosts_per_router=2", "-o",
                           d / fmt)
        assert code == 0 and "2 trees are verified" in err, err
    topo = read_ns3_topology((d / "astra-ns3").read_bytes())
    rows = [line.split(" ", 2) for line in (d / "astra-ns3-map").read_text().splitlines()]
    assert [int(i) for i, _, _ in rows] == list(range(topo.nodes)) == list(range(60))
    name = {int(i): json.loads(x) for i, _, x in rows}
    role = {int(i): kind for i, kind, _ in rows}
    assert {i for i, kind in role.items() if kind == "switch"} == set(topo.switches)
    assert [name[s] for s in topo.switches] == list(g.nodes)
    switch_links = [(u, v) for u, v in topo.links.tolist() if role[u] == role[v] == "switch"]
    assert {frozenset((name[u], name[v])) for u, v in switch_links} == links(g) and len(switch_links) == 40
    for s, hosts in topo.hosts_of().items():  # each NPU is named by the router it hangs off
        assert len(hosts) == 2 and all(role[h] == "host" and name[h] == name[s] for h in hosts)


def test_trees_that_fail_are_refused_and_verify_names_ids(packed, capsys, tmp_path):
    d, g, doc = packed
    bad = dict(doc, trees=[doc["trees"][0], doc["trees"][0]])  # the same tree twice: 19 shared links
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    ids = doc["nodes"]
    first = min(tuple(sorted((v, p))) for v, p in enumerate(doc["trees"][0]["parent"]) if p >= 0)
    shared = f"tree 1: shares 19 edge(s) with tree 0, e.g. {(ids[first[0]], ids[first[1]])!r}"
    code, out, _ = run(capsys, "verify", tmp_path / "bad.json")
    assert code == 1 and shared in out
    code, out, err = run(capsys, "export", tmp_path / "bad.json", "-o", tmp_path / "x.xml")
    assert code == 2 and not out and err.count("\n") == 1 and shared in err and "nothing written" in err
    assert not (tmp_path / "x.xml").exists()


@pytest.mark.parametrize("args, words", [
    (["--format", "gml"], ["file=", "edgelist, a format without trees"]),
    (["-o", "-"], ["--format: give the format"]),
    (["-o", "t.csv"], ["--output='t.csv': the suffix '.csv' names no format"]),
    (["--format", "msccl-xml", "--option", "chunks=99", "-o", "x.xml"], ["chunks=99"]),
])
def test_bad_input_one_line_status_2_nothing_written(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    nx.write_edgelist(dragonfly(), "df.edges", data=False)
    source = "df.edges" if "gml" in args else "df.json"
    if source == "df.json":
        assert main(["edsts", "df.edges", "-q", "-o", "df.json"]) == 0
    before = sorted(p.name for p in tmp_path.iterdir())
    code, out, err = run(capsys, "export", source, *args)
    assert code == 2 and not out and err.count("\n") == 1 and all(w in err for w in words), err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_edsts_on_a_file_of_trees_says_it_packs_new_ones(packed, capsys, tmp_path):
    d, g, doc = packed
    code, _, err = run(capsys, "edsts", d / "t.json", "-o", tmp_path / "new.json")
    assert code == 0 and f"{d / 't.json'} holds 2 trees; edsts packs new ones (method auto)" in err
    assert "starlib export" in err and len(json.loads((tmp_path / "new.json").read_text())["trees"]) == 2
    code, _, err = run(capsys, "edsts", d / "df.graphml", "-o", tmp_path / "plain.json")
    assert code == 0 and "holds" not in err  # a network without trees: nothing to say
    code, _, err = run(capsys, "build", d / "t.json", "--format", "msccl-xml", "-o", tmp_path / "b.xml")
    assert code == 2 and "use starlib export FILE" in err and not (tmp_path / "b.xml").exists()


def test_the_library_writes_msccl_xml_for_the_suffix_xml(packed, tmp_path):
    d, g, doc = packed
    f = starlib.read(d / "t.json")
    report = replay_msccl(starlib.export(tmp_path / "a.xml", f.graph, f.trees).read_bytes())
    assert report.rank_names == tuple(g.nodes)


def test_every_verb_has_examples_and_export_is_documented(capsys):
    from starlib.cli.main import _VERBS

    for verb in _VERBS:
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        assert f"examples:\n  starlib {verb}" in capsys.readouterr().out, verb
    readme, formats = (ROOT / "README.md").read_text(), (ROOT / "docs" / "formats.md").read_text()
    assert re.search(r"\n    starlib export \S+ ", readme) and "python -m starlib export FILE" in formats
