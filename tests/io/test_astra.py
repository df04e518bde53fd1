"""ASTRA-sim's ns-3 topology file (starlib.io.astra) parsed back into the same graph, with the grammar of
ASTRA-sim's reader (scratch/common.h of astra-sim/astra-network-ns3: counts, switch ids, five fields per link);
bad files refused; and the GraphML ``endpoints`` attribute read as SST merlin's anytopo reads it."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

import starlib
from starlib.graphs import ArrayGraph
from starlib.io import ns3_topology, read_ns3_topology, render


@pytest.mark.parametrize("family, params, c", [("slimfly", {"q": 5}, 1), ("bundlefly", {"q": 3, "paley_q": 5}, 3),
                                              ("torus", {"sizes": "3,4"}, 2)])
def test_ns3_file_parses_back_into_the_same_graph(family, params, c):
    g = starlib.network(family, **params)
    t = read_ns3_topology(render("astra-ns3", g, hosts_per_router=c, bandwidth_gbps=200, latency_ns=700))
    hosts = g.n * c
    assert t.nodes == hosts + g.n and t.switches == list(range(hosts, hosts + g.n))
    assert t.links.shape == (hosts + g.m, 2)
    sw = t.switch_graph()
    back = {tuple(sorted((sw.labels[u] - hosts, sw.labels[v] - hosts))) for u, v in sw.edges.tolist()}
    assert back == {tuple(e) for e in np.sort(g.edges, axis=1).tolist()} and len(back) == g.m
    assert t.hosts_of() == {hosts + r: list(range(r * c, r * c + c)) for r in range(g.n)}
    assert set(t.rates[hosts:]) == {"200Gbps"} and set(t.delays[hosts:]) == {"700ns"} and set(t.error_rates) == {0.0}
    # hosts first, each as "host switch", as ASTRA-sim's reader tags ToR switches from (first = host, second = switch)
    assert all(t.links[h].tolist() == [h, hosts + h // c] for h in range(hosts))


def test_the_grammar_of_astra_sims_reader():
    # a hand-written file in the reader's grammar: 4 NPUs on one switch, fields separated by any white space
    text = ("5 1 4\n4\n0 4 400Gbps 0.0005ms 0\n1 4 400Gbps 0.0005ms 0\n2\t4 400Gbps 0.0005ms 0\n"
            "3 4 400Gbps 0.0005ms 0.01")
    t = read_ns3_topology(text)
    assert t.nodes == 5 and t.switches == [4] and t.hosts_of() == {4: [0, 1, 2, 3]}
    assert t.error_rates == [0.0, 0.0, 0.0, 0.01] and t.delays[0] == "0.0005ms"
    p4 = ArrayGraph.from_edges(range(4), np.array([[0, 1], [1, 2], [2, 3]]))
    assert ns3_topology(p4, host_bandwidth_gbps=100, host_latency_ns=20).decode().splitlines()[:4] == [
        "8 4 7", "4 5 6 7", "0 4 100Gbps 20ns 0", "1 5 100Gbps 20ns 0"]


@pytest.mark.parametrize("text, words", [
    ("3 1", "token 3 \\(link_num\\)"),
    ("3 1 1\n2\n0 2 1Gbps 1ns 0 7", "the header promises"),
    ("x 1 1\n2\n0 2 1Gbps 1ns 0", "node_num"),
    ("3 1 1\n5\n0 2 1Gbps 1ns 0", "switch ids must be distinct and < node_num=3"),
    ("3 2 1\n2 2\n0 2 1Gbps 1ns 0", "switch ids must be distinct"),
    ("3 1 1\n2\n2 2 1Gbps 1ns 0", "needs two different ids"),
    ("3 1 1\n2\n0 2 1Gbps 1ns lots", "error_rate='lots'"),
])
def test_bad_ns3_files_are_refused(text, words):
    with pytest.raises(ValueError, match=words):
        read_ns3_topology(text)


@pytest.mark.parametrize("kw, words", [({"hosts_per_router": 0}, "hosts_per_router=0 is too small"),
                                       ({"bandwidth_gbps": 0}, "bandwidth_gbps=0 is too small"),
                                       ({"latency_ns": -1}, "latency_ns=-1 is too small")])
def test_bad_ns3_options_name_the_parameter(kw, words):
    with pytest.raises(ValueError, match=words):
        ns3_topology(starlib.network("slimfly", q=3), **kw)


def _merlin_endpoints(path) -> tuple[dict[int, int], list[tuple[int, int]]]:
    """What SST merlin's topoAny does with a GraphML file (pymerlin-topo-any.py: import_graph, _process_graph):
    nx.read_graphml, node ids relabelled to integers in file order, int(G.nodes[v]['endpoints']) per vertex."""
    G = nx.read_graphml(path)
    G = nx.relabel_nodes(G, {v: i for i, v in enumerate(G.nodes())}, copy=True)
    if any("endpoints" not in G.nodes[v] for v in G.nodes()):
        raise AssertionError("Each vertex in the input graph must have an 'endpoints' attribute")
    return {v: int(G.nodes[v]["endpoints"]) for v in G.nodes()}, sorted(tuple(sorted(e)) for e in G.edges())


def test_graphml_endpoints_attribute_is_what_merlin_anytopo_reads(tmp_path):
    g = starlib.network("slimfly", q=5)
    path = tmp_path / "sf.graphml"
    path.write_bytes(render("graphml", g, starlib.edsts(g), endpoints=4))
    eps, edges = _merlin_endpoints(path)
    assert eps == {v: 4 for v in range(g.n)}
    assert edges == sorted(map(tuple, np.sort(g.edges, axis=1).tolist()))
    assert nx.read_graphml(path, node_type=int).nodes[0]["endpoints"] == 4  # declared attr.type="int"
    plain = tmp_path / "plain.graphml"
    plain.write_bytes(render("graphml", g))
    with pytest.raises(AssertionError, match="'endpoints' attribute"):
        _merlin_endpoints(plain)  # without the option, merlin refuses the file


def test_graphml_endpoints_on_a_file_network_keeps_its_ids(tmp_path):
    src = tmp_path / "ring.graphml"
    nx.write_graphml(nx.relabel_nodes(nx.cycle_graph(4), {i: f"sw{i}" for i in range(4)}), src)
    g = starlib.read_network(src)
    out = tmp_path / "out.graphml"
    out.write_bytes(render("graphml", g, endpoints=2))
    G = nx.read_graphml(out)
    assert list(G.nodes()) == ["sw0", "sw1", "sw2", "sw3"] and {G.nodes[v]["endpoints"] for v in G} == {2}
