"""``starlib repair``: the file it writes (verified by the API's verifier, the count against a from-scratch exact
packing of the damaged graph built with networkx), the summary line, and planted bad inputs: one line, exit 2,
nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest

import starlib
from starlib.cli import main
from starlib.edst import Tree, generic_packing
from starlib.graphs import ArrayGraph


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def sf5(tmp_path, capsys):
    path = tmp_path / "sf5.json"
    assert run(["edsts", "slimfly", "q=5", "-q", "-o", str(path)], capsys)[0] == 0
    return path


def test_repair_writes_a_verified_maximum(sf5, tmp_path, capsys):
    out = tmp_path / "r.json"
    before = starlib.read(sf5)
    G = before.graph
    labels = [json.dumps(starlib.graphs.jsonable(x), separators=(",", ":")) for x in G.labels]
    t1 = before.trees[1].edges[:2].tolist()  # two links of one tree
    fails = [f"{labels[u]}-{labels[v]}" for u, v in t1]
    code, _, err = run(["repair", str(sf5), "--fail", fails[0], "--fail", fails[1].replace(",", ", "), "-o", str(out)],
                       capsys)
    assert code == 0, err
    after = starlib.read(out)
    h = G.to_networkx()
    h.remove_edges_from([(G.labels[u], G.labels[v]) for u, v in t1])
    assert after.graph.m == G.m - 2 == h.number_of_edges()
    assert starlib.verify(after.graph, after.trees).valid
    assert len(after.trees) == generic_packing(ArrayGraph.from_networkx(h)).count == 3
    assert after.extra["method"] == "auto+repair" and after.extra["failed"] == [fails[0], fails[1].replace(",", ", ")]
    line = err.strip().splitlines()[-1]
    depth_before, depth_after = max(before.trees.depths()), max(after.trees.depths())
    assert line.startswith("repaired: 2 links failed, 1 tree damaged: 3 -> 3 trees, deepest "
                           f"{depth_before} -> {depth_after}")
    assert f"wrote {out}" in line
    # the same, in another output format, and with the full depth search
    gml = tmp_path / "r.graphml"
    assert run(["repair", str(sf5), "--fail", fails[0], "--deep", "--format", "graphml", "-q", "-o", str(gml)],
               capsys)[0] == 0
    assert starlib.verify(starlib.read(gml).graph, starlib.read(gml).trees).valid


def test_repair_edge_list_labels_and_a_lower_count(tmp_path, capsys):
    """Two triangles and a square sharing links: string ids, a failure that lowers the maximum to 1."""
    edges = tmp_path / "g.edges"
    edges.write_text("a b\na c\nb c\nc d\nb d\nd e\nc e\n")
    trees = tmp_path / "t.graphml"
    assert run(["edsts", str(edges), "--method", "generic", "--format", "graphml", "-q", "-o", str(trees)],
               capsys)[0] == 0
    assert len(starlib.read(trees).trees) == 1
    out = tmp_path / "r.json"
    code, _, err = run(["repair", str(trees), "--fail", "d-e", "-o", str(out)], capsys)
    assert code == 0, err
    r = starlib.read(out)
    assert len(r.trees) == 1 and starlib.verify(r.graph, r.trees).valid and r.graph.m == 6


@pytest.mark.parametrize("fail,words", [
    ("[[0,0],0]-[[9,9],9]", "vertex '[[9,9],9]' is not in the network"),
    ("[[0,0],0]-[[0,0],2]", "are not linked"),
    ("nolink", "a link is written U-V"),
])
def test_bad_links_one_line_exit_2_nothing_written(sf5, tmp_path, capsys, fail, words):
    out = tmp_path / "r.json"
    code, stdout, err = run(["repair", str(sf5), "--fail", fail, "-o", str(out)], capsys)
    assert code == 2 and stdout == "" and not out.exists()
    assert len(err.strip().splitlines()) == 1 and words in err


def test_twice_no_trees_disconnecting_and_no_fail(sf5, tmp_path, capsys):
    out = tmp_path / "r.json"
    code, _, err = run(["repair", str(sf5), "--fail", "[[0,0],0]-[[0,0],1]", "--fail", "[[0,0],1]-[[0,0],0]", "-o",
                        str(out)], capsys)
    assert code == 2 and "named twice" in err and not out.exists()
    edges = tmp_path / "p.edges"
    edges.write_text("a b\nb c\n")
    code, _, err = run(["repair", str(edges), "--fail", "a-b", "-o", str(out)], capsys)
    assert code == 2 and "a format without trees" in err and not out.exists()
    net = tmp_path / "net.json"
    assert run(["build", "torus", "sizes=3,3", "-q", "-o", str(net)], capsys)[0] == 0
    code, _, err = run(["repair", str(net), "--fail", "[0,0]-[0,1]", "-o", str(out)], capsys)
    assert code == 2 and "trees" in err and not out.exists()
    path = tmp_path / "p.json"
    assert run(["edsts", str(edges), "-q", "-o", str(path)], capsys)[0] == 0
    code, _, err = run(["repair", str(path), "--fail", "b-c", "-o", str(out)], capsys)
    assert code == 2 and not out.exists()
    assert err.strip() == ("error: the failed links disconnect the network (2 components; 'a' and 'c' are in "
                           "different ones): no spanning tree is left; nothing written")
    code, _, err = run(["repair", str(sf5), "-o", str(out)], capsys)
    assert code == 2 and "--fail" in err and not out.exists()


def test_help_documents_the_link_syntax(capsys):
    with pytest.raises(SystemExit):
        main(["repair", "--help"])
    text = capsys.readouterr().out
    assert "--fail U-V" in text and "joined by '-'" in text and "starlib repair t.json" in text
    assert np.all([w in text for w in ("json", "graphml", "parents")])


def test_summary_names_the_changed_tree_and_warns_on_depth(tmp_path, capsys):
    """The hand-made network of tests/edst/test_repair.py (paths 0-1-2-3-4 and 0-2-4-1-3, and 0-4): 1-4 fails and
    tree 0 must give a link to tree 1; 0-2 fails and tree 0 stays. The summary line counts and names them."""
    import networkx as nx

    g = nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (0, 2), (2, 4), (1, 4), (1, 3), (0, 4)])
    G = ArrayGraph.from_networkx(g)
    path = tmp_path / "hand.json"
    starlib.export(path, G, [Tree([(0, 1), (1, 2), (2, 3), (3, 4)], 0, n=5), Tree([(0, 2), (2, 4), (1, 4), (1, 3)], 0,
                                                                                  n=5)])
    out = tmp_path / "r.json"
    code, _, err = run(["repair", str(path), "--fail", "0-2", "--no-deep", "-o", str(out)], capsys)
    assert code == 0, err
    assert err.strip().splitlines()[-1] == (
        f"repaired: 1 link failed, 1 tree damaged: 2 -> 2 trees, deepest 4 -> 4 (1 kept, 1 reattached, 0 changed; "
        f"depths tree 1 4 -> 3); maximum: 8 links < 3 x 4 (edges bound 2); wrote {out} ({out.stat().st_size:,} "
        f"bytes)")
    h = g.copy()
    h.remove_edge(0, 2)
    assert nx.diameter(h) == 2 and "warning" not in err  # depth 4 <= 2 x 2 + 1
    code, _, err = run(["repair", str(path), "--fail", "1-4", "-o", str(out)], capsys)
    assert code == 0, err
    line = err.strip().splitlines()[-1]
    assert "(0 kept, 1 reattached, 1 changed to keep the count: tree 0; depths tree 0 4 -> " in line
    assert "after the depth search; augmenting repack)" in line
    r = starlib.read(out)
    assert starlib.verify(r.graph, r.trees).valid and len(r.trees) == 2


def test_repair_warns_as_edsts_does(tmp_path, capsys):
    """A path of depth 9 kept intact on K_10 less a link (diameter 2 by networkx): 9 > 2 x 2 + 1, the warning of
    edsts with the verb repair."""
    import networkx as nx

    G = ArrayGraph.from_networkx(nx.complete_graph(10))
    path = tmp_path / "k10.json"
    chain = [(i, i + 1) for i in range(9)]
    star = [(0, j) for j in range(2, 10)] + [(1, 3)]
    starlib.export(path, G, [Tree(chain, 0, n=10), Tree(star, 0, n=10)])
    h = nx.complete_graph(10)
    h.remove_edge(0, 2)
    assert nx.diameter(h) == 2
    code, _, err = run(["repair", str(path), "--fail", "0-2", "-o", str(tmp_path / "r.json")], capsys)
    assert code == 0, err
    assert [x for x in err.splitlines() if x.startswith("warning")] == [
        f"warning: repair {path}: the deepest tree has depth 9, over 2 x diameter + 1 = 5 (diameter 2: BFS from "
        f"every vertex); starlib improve searches every tree, the kept ones too"]
