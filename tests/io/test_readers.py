"""Networks read from files (starlib.io.readers): every input format read back from what starlib and networkx write,
the vertices named by the file's ids in the file's order, trees carried by a 'tree' attribute, BookSim's own anynet
examples, the checks made before a byte is read (file type, size against the memory limit) and the format table."""

from __future__ import annotations

import json
import os
import re
import threading

import networkx as nx
import numpy as np
import pytest

import starlib
import starlib.networks as nw
from starlib.edst import METHODS, verify_edsts
from starlib.edst.trees import EDSTSet, Tree
from starlib.graphs import ArrayGraph
from starlib.io import FORMATS, INPUT_FORMATS, node_ids, read_input, render
from starlib.io.readers import decode_input, input_formats_for
from starlib.memory import limit_memory

#: output format -> (input format, suffix): every input format is written by one of starlib's output formats
WRITTEN = {"json": ("json", ".json"), "json-v1": ("json", ".json"), "graphml": ("graphml", ".graphml"),
           "gml": ("gml", ".gml"), "node-link": ("node-link", ".json"), "edgelist": ("edgelist", ".edges"),
           "anynet": ("anynet", ".anynet")}
#: the formats that carry labels (the others name vertices by index: the labels file maps them)
LABELLED = {"json", "json-v1", "graphml", "gml", "node-link"}


def _family(name):
    return {"slimfly": lambda: nw.slimfly(5), "torus": lambda: starlib.network("torus", sizes="3,4"),
            "polarstar-iq": lambda: starlib.network("polarstar-iq", q=3, d=3)}[name]()


def test_every_input_format_is_written_by_an_output_format():
    assert {f for f, _ in WRITTEN.values()} == set(INPUT_FORMATS)
    assert set(WRITTEN) <= set(FORMATS)
    for out, (fmt, suffix) in WRITTEN.items():
        assert suffix in INPUT_FORMATS[fmt].suffixes, out


@pytest.mark.parametrize("family", ["slimfly", "torus", "polarstar-iq"])
@pytest.mark.parametrize("out", list(WRITTEN))
def test_a_family_exported_and_read_back_is_the_same_network(out, family, tmp_path):
    G = _family(family)
    fmt, suffix = WRITTEN[out]
    path = tmp_path / f"net{suffix}"
    path.write_bytes(render(out, G, None, network=family, params=dict(G.params)))
    f = read_input(path)
    assert f.format == fmt and f.trees is None
    assert f.graph.n == G.n and np.array_equal(f.graph.edges, G.edges)  # the same vertex order
    assert f.graph.labels == (G.labels if out in LABELLED else list(range(G.n)))
    if out in LABELLED:
        assert f.network == family and f.params == dict(G.params)
    else:
        assert f.extra == {"input": path.name, "input_format": fmt} | ({"compute_nodes": G.n} if fmt == "anynet"
                                                                        else {})
    assert f.graph.meta["input"] == path.name
    # no star product any more: the exact maximum, as the generic packer finds on the family
    trees = starlib.edsts(f.graph, method="auto")
    assert len(trees) == len(METHODS["generic"](G)) and verify_edsts(f.graph, trees).valid


@pytest.mark.parametrize("out", ["json", "json-v1", "graphml", "gml", "node-link"])
def test_trees_come_back_from_every_format_that_has_them(out, tmp_path):
    G = starlib.network("torus", sizes="3,4")
    T = METHODS["shallow"](G)
    path = tmp_path / f"t{WRITTEN[out][1]}"
    path.write_bytes(render(out, G, T))
    f = read_input(path)
    assert len(f.trees) == len(T) and verify_edsts(f.graph, f.trees).valid
    assert [t.root for t in f.trees] == [t.root for t in T]
    assert [t.edges.tolist() for t in f.trees] == [t.edges.tolist() for t in T]
    assert [t.depth for t in f.trees] == [t.depth for t in T]


def test_a_graphml_network_keeps_its_node_ids_in_every_output(tmp_path):
    g = nx.relabel_nodes(nx.petersen_graph(), {i: f"sw-{i}" for i in range(10)})
    g.add_edge("sw-0", "sw-7")  # 16 links: one spanning tree and an unused link or two
    nx.write_graphml(g, tmp_path / "my.graphml")
    G = starlib.read_network(tmp_path / "my.graphml")
    ids = [f"sw-{i}" for i in range(10)]
    assert G.labels == ids == node_ids(G)  # the file's order
    T = starlib.edsts(G, method="shallow")
    back = {out: read_input(starlib.export(tmp_path / f"{out}{WRITTEN[out][1]}", G, T, format=out))
            for out in ("json", "graphml", "gml", "node-link")}
    for out, f in back.items():
        assert f.graph.labels == ids, out
        assert f.trees is not None and verify_edsts(f.graph, f.trees).valid, out
    # GraphML and node-link write the ids themselves, as networkx reads them
    h = nx.read_graphml(tmp_path / "graphml.graphml")
    assert list(h.nodes) == ids and nx.utils.edges_equal(h.edges, g.edges)
    assert json.loads((tmp_path / "json.json").read_text())["nodes"] == ids
    nl = json.loads((tmp_path / "node-link.json").read_text())
    assert [v["id"] for v in nl["nodes"]] == ids and {e["source"] for e in nl["edges"]} <= set(ids)
    # edge lists, parent arrays and anynet name vertices by index; the labels file names the index
    labels = [json.loads(line) for line in render("labels", G).decode().splitlines()]
    assert labels == ids
    rows = [line.split() for line in render("tree-edgelist", G, T).decode().splitlines()]
    assert {frozenset((labels[int(u)], labels[int(v)])) for u, v, _ in rows} <= {frozenset(e) for e in g.edges}


def test_a_family_network_keeps_index_ids_and_writes_the_same_bytes_as_before():
    G = nw.slimfly(3)
    assert node_ids(G) is None
    f = decode_input(render("json", G), [INPUT_FORMATS["json"]], "s.json")
    assert render("graphml", f.graph) == render("graphml", G)  # tuple labels: ids stay 0..n-1
    assert render("json", f.graph, network="slimfly", params={"q": 3}) == render("json", G, network="slimfly",
                                                                                params={"q": 3})


def test_gml_names_nodes_by_label_when_every_node_has_one_as_networkx_does(tmp_path):
    g = nx.Graph([(10, 20), (20, 30), (30, 10)])
    nx.write_gml(g, tmp_path / "a.gml")  # networkx writes label "10", ...
    assert read_input(tmp_path / "a.gml").graph.labels == ["10", "20", "30"]
    (tmp_path / "b.gml").write_text("graph [\n node [ id 5 ]\n node [ id 7 ]\n node [ id 9 label \"x\" ]\n"
                                    " edge [ source 5 target 7 ]\n edge [ source 7 target 9 ]\n]\n")
    assert read_input(tmp_path / "b.gml").graph.labels == [5, 7, 9]  # not every node has a label: the ids


def test_edge_lists_with_comments_names_and_integers(tmp_path):
    p = tmp_path / "a.edges"
    p.write_text("# routers of rack A\r\n7 3  # uplink\r\n3\t12\r\n\r\n   # nothing\n12 7\n")
    f = read_input(p)
    assert f.graph.labels == [3, 7, 12] and f.graph.edges.tolist() == [[0, 1], [0, 2], [1, 2]]  # sorted integers
    p.write_text("\ufeffspine-2 leaf-1\nleaf-1 spine-1\nspine-1 leaf-2\n")  # a byte-order mark is dropped
    assert read_input(p).graph.labels == ["spine-2", "leaf-1", "spine-1", "leaf-2"]  # order of first appearance
    assert read_input(p, "edgelist").format == "edgelist"


def test_booksims_own_anynet_example_and_its_header_examples(tmp_path):
    # src/examples/anynet/anynet_file of booksim/booksim2: three routers of three nodes each, a triangle
    p = tmp_path / "anynet_file"
    p.write_text("router 0 node 0 node 1 node 2 router 1\nrouter 1 node 3 node 4 node 5\n"
                 "router 2 node 6 node 7 node 8 router 1 router 0\n")
    f = read_input(p, "anynet")
    assert f.graph.labels == [0, 1, 2] and f.graph.edges.tolist() == [[0, 1], [0, 2], [1, 2]]
    assert f.extra["compute_nodes"] == 9
    # anynet.cpp's header: latencies per channel; a link in both directions is one link
    p.write_text("router 0 router 1 15 router 2\nrouter 1 router 0 3\r\nrouter 2 node 0 5\n")
    assert read_input(p, "anynet").graph.edges.tolist() == [[0, 1], [0, 2]]
    # BookSim declares a router under a line's head id whatever its type: node 3 makes a router 3 (unconnected)
    p.write_text("router 0 router 1 router 2 router 3\nnode 4 router 0\nrouter 1 node 0 node 1 node 2 node 3\n")
    g = read_input(p, "anynet").graph
    assert g.n == 5 and not g.is_connected()


@pytest.mark.parametrize("c, latency, node_latency", [(1, None, None), (4, None, None), (2, 3, 7)])
def test_anynet_written_by_starlib_reads_back(c, latency, node_latency, tmp_path):
    G = nw.slimfly(5)
    p = tmp_path / "sf.anynet"
    p.write_bytes(render("anynet", G, nodes_per_router=c, latency=latency, node_latency=node_latency))
    f = read_input(p)
    assert np.array_equal(f.graph.edges, G.edges) and f.extra["compute_nodes"] == c * G.n


def test_node_link_json_with_links_or_edges_is_told_from_starlib_json(tmp_path):
    g = nx.relabel_nodes(nx.cycle_graph(5), {i: f"n{i}" for i in range(5)})
    for key in ("edges", "links"):
        p = tmp_path / f"{key}.json"
        p.write_text(json.dumps(nx.node_link_data(g, edges=key)))
        f = read_input(p)
        assert f.format == "node-link" and f.graph.labels == [f"n{i}" for i in range(5)] and f.graph.m == 5
    p = tmp_path / "s.json"
    p.write_bytes(render("json", starlib.network("torus", sizes="3,3")))
    assert read_input(p).format == "json"
    assert [f.name for f in input_formats_for(p)] == ["node-link", "json"]


def test_a_directed_file_stays_directed(tmp_path):
    nx.write_graphml(nx.DiGraph([("a", "b"), ("b", "a"), ("b", "c")]), tmp_path / "d.graphml")
    g = read_input(tmp_path / "d.graphml").graph
    assert g.directed and g.m == 3


# -- checks before reading ---------------------------------------------------------------------------------------------

def test_a_file_too_large_is_refused_from_its_size_before_reading(tmp_path, monkeypatch):
    p = tmp_path / "huge.graphml"
    with open(p, "wb") as fh:  # a sparse 1 TB file: reading it would take hours
        fh.truncate(10**12)
    monkeypatch.setattr(os, "read", lambda *a: pytest.fail("read although too large"))
    with pytest.raises(ValueError, match=r"huge.graphml' is too large: reading 931 GiB of graphml would need about "
                                         r"36.4 TiB \(40 bytes per byte of file\), over the memory limit of"):
        read_input(p)
    small = tmp_path / "small.edges"
    small.write_text("0 1\n1 2\n")  # 8 bytes x 56 = 448 bytes
    with limit_memory(400), pytest.raises(ValueError, match="over the memory limit of 400 B; refused before"):
        read_input(small)
    with limit_memory(500):
        assert read_input(small).graph.m == 2


def test_a_fifo_or_a_device_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.graphml"
    os.mkfifo(fifo)  # no writer: opening it for reading would block, reading it would never end
    outcome = []
    worker = threading.Thread(target=lambda: outcome.append(pytest.raises(ValueError, read_input, fifo)),
                              daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert "is a named pipe (FIFO), not a regular file" in str(outcome[0].value)
    with pytest.raises(ValueError, match="'/dev/zero': is a character device, not a regular file"):
        read_input("/dev/zero", "edgelist")


def test_the_format_table():
    assert list(INPUT_FORMATS) == ["json", "node-link", "graphml", "gml", "edgelist", "anynet"]
    for f in INPUT_FORMATS.values():
        assert f.bytes_per_byte > 0 and f.suffixes and all(s.startswith(".") for s in f.suffixes)
        assert f.trees == (f.name not in ("edgelist", "anynet"))
    shared = [f for f in INPUT_FORMATS.values() if ".json" in f.suffixes]
    assert sum(f.sniff is None for f in shared) == 1  # exactly one fallback per shared suffix
    with pytest.raises(ValueError, match="--input-format='csv' is not one of json, node-link, graphml"):
        input_formats_for("x.csv", "csv")


def test_read_network_and_read_in_the_api(tmp_path):
    G = nw.slimfly(5)
    T = starlib.edsts(G)
    starlib.export(tmp_path / "sf.gml", G, T, network="slimfly", params={"q": 5})
    f = starlib.read(tmp_path / "sf.gml")
    assert f.format == "gml" and len(f.trees) == len(T) and f.graph.labels == G.labels
    g = starlib.read_network(tmp_path / "sf.gml")
    assert isinstance(g, ArrayGraph) and np.array_equal(g.edges, G.edges)
    assert len(starlib.edsts(g, method="shallow")) == 3
    with pytest.raises(ValueError, match="method=maximum needs a star product"):
        starlib.edsts(g, method="maximum")


def test_trees_from_a_tree_attribute_without_roots_start_at_vertex_0(tmp_path):
    g = nx.complete_graph(4)
    for (u, v), t in zip(g.edges, [0, 1, 1, 0, 1, 0], strict=True):
        g.edges[u, v]["tree"] = t
    nx.write_graphml(g, tmp_path / "k4.graphml")
    f = read_input(tmp_path / "k4.graphml")
    assert len(f.trees) == 2 and [t.root for t in f.trees] == [0, 0] and verify_edsts(f.graph, f.trees).valid
    assert isinstance(f.trees, EDSTSet) and all(isinstance(t, Tree) for t in f.trees)


def test_the_examples_of_docs_formats_md_section_8_read_as_documented(tmp_path):
    from tests.paths import ROOT

    doc = (ROOT / "docs" / "formats.md").read_text()
    section = doc[doc.index("## 8. Network files"):]
    examples = re.findall(r"`(ring\.\w+)`(?: \(([\w-]+)\))?:\n\n((?:    .*\n)+)", section)
    assert sorted(fmt or name.split(".")[1] for name, fmt, _ in examples) == sorted(
        ["json", "graphml", "gml", "node-link", "edges", "anynet"])
    for k, (name, fmt, block) in enumerate(examples):
        path = tmp_path / str(k) / name
        path.parent.mkdir()
        path.write_text("".join(line[4:] + "\n" for line in block.splitlines()))
        f = read_input(path)
        assert f.format == (fmt or {"edges": "edgelist"}.get(name.split(".")[1], name.split(".")[1])), name
        assert f.graph.labels == ([0, 1, 2, 3] if f.format == "anynet" else ["s0", "s1", "s2", "s3"]), name
        assert f.graph.edges.tolist() == [[0, 1], [0, 3], [1, 2], [2, 3]], name
