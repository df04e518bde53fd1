"""The ``infragraph`` export (starlib.io.infragraph) read by the owner's own parser, infragraph's
``InfraGraphService.set_graph``: the graph it builds has the network's vertices and edges (named
``routers.i.switch.0``), the description passes the package's own validation, the suffixes name the format, and
docs/formats.md's example is what starlib writes."""

from __future__ import annotations

import json
import warnings

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.api import suffix_format
from starlib.cli import main
from starlib.graphs import ArrayGraph
from starlib.io import infragraph, render
from tests.io.test_formats_doc import _block, _shown

service = pytest.importorskip("infragraph.infragraph_service", reason="infragraph, the owner's parser, is not "
                              "installed: pip install -r requirements.txt (or the test extra)")


def _owner_graph(text: bytes) -> nx.Graph:
    """The graph infragraph's own service builds from the description (its zero-degree warning aside)."""
    s = service.InfraGraphService()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        s.set_graph(text.decode())
    s.infrastructure.serialize("json")  # the package's own required-field checks on the object it read
    return s.get_networkx_graph()


def _same_graph(g: ArrayGraph, owner: nx.Graph) -> None:
    names = {f"routers.{i}.switch.0": i for i in range(g.n)}
    assert owner.number_of_nodes() == g.n and set(owner.nodes) == set(names)
    assert all(d["type"] == "switch" for _, d in owner.nodes(data=True))
    edges = {tuple(sorted((names[u], names[v]))) for u, v in owner.edges}
    assert owner.number_of_edges() == g.m and edges == {tuple(e) for e in np.asarray(g.edges).tolist()}


@pytest.mark.parametrize("family, params", [("slimfly", {"q": 5}), ("complete", {"n": 6}),
                                            ("bundlefly", {"q": 3, "paley_q": 5})])
def test_the_owners_service_builds_the_same_graph(family, params):
    g = starlib.network(family, **params)
    text = render("infragraph", g, None, network=family, params=params)
    _same_graph(g, _owner_graph(text))
    assert json.loads(text)["description"].startswith(f'starlib network "{family}", parameters ')


def test_a_file_network_with_an_isolated_vertex_and_odd_names():
    g = ArrayGraph.from_edges(["r1", "é&\"<x>", "lone", 7], np.array([[0, 1], [1, 3]]), name="my net: q=5 ü")
    text = infragraph(g)
    assert text.isascii()
    owner = _owner_graph(text)
    _same_graph(g, owner)
    assert owner.graph["name"] == "starlib my net_ q_5 _"


def test_a_directed_graph_is_refused():
    d = ArrayGraph.from_edges("ab", np.array([[0, 1]]), directed=True)
    with pytest.raises(ValueError, match="a directed graph cannot be written"):
        infragraph(d)


def test_the_suffixes_and_the_command_line(capsys, tmp_path, monkeypatch):
    assert suffix_format("n.infragraph.yaml") == suffix_format("n.INFRAGRAPH.JSON") == "infragraph"
    assert suffix_format("n.json") == "json"
    monkeypatch.chdir(tmp_path)
    g = starlib.network("slimfly", q=3)
    assert main(["edsts", "slimfly", "q=3", "-o", "net.json"]) == 0
    assert main(["export", "net.json", "-o", "net.infragraph.yaml"]) == 0  # the format read off the suffix
    assert main(["build", "slimfly", "q=3", "--format", "infragraph", "-o", "net.txt"]) == 0
    capsys.readouterr()
    yaml_text, plain = (tmp_path / "net.infragraph.yaml").read_bytes(), (tmp_path / "net.txt").read_bytes()
    assert yaml_text == plain
    _same_graph(g, _owner_graph(yaml_text))
    code = main(["build", "slimfly", "q=3", "--format", "infragraph", "--option", "chunks=2", "-o", "bad.yaml"])
    out, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1 and "takes no option" in err, err
    assert not (tmp_path / "bad.yaml").exists()


def test_the_docs_example():
    p3 = ArrayGraph.from_edges(range(3), np.array([[0, 1], [1, 2]]))
    _shown(_block("### 6.13 `infragraph`"), infragraph(p3, network="P3").decode())
