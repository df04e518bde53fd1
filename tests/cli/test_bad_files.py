"""Bad network files on the command line: one line naming the file and what is wrong, status 2, nothing written.

Each case writes one input file (or makes a folder, a FIFO, a missing path) in a folder of its own, runs a verb on
it in-process with an output file in an empty working folder, and asserts: status 2, nothing on standard output,
exactly one line on standard error that names the file and holds the fragment, no traceback, the working folder
still empty and the input unchanged. It covers directed graphs, multigraphs, self-loops,
disconnected graphs where the verb needs a connected one, duplicate node ids, bytes that are not UTF-8, empty,
missing and oversized files, folders, FIFOs and devices, truncated or malformed XML, GML and JSON, edge lists with
three columns or a word that is no integer, anynet lines that break BookSim's grammar, node-link JSON that is not
one, graphs of 0 or 1 vertex, an unknown --input-format, and more.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from starlib.cli import main

GRAPHML = ('<?xml version="1.0" encoding="UTF-8"?>\n<graphml xmlns="http://graphml.graphdrawing.org/xmlns">\n'
           '<graph edgedefault="{kind}">\n{body}</graph>\n</graphml>\n')


def graphml(body: str, kind: str = "undirected") -> bytes:
    return GRAPHML.format(kind=kind, body=body).encode()


TRIANGLE = '<node id="a"/><node id="b"/><node id="c"/>\n'
TRIANGLE_EDGES = '<edge source="a" target="b"/><edge source="b" target="c"/><edge source="c" target="a"/>\n'
GML_TRIANGLE = "graph [\n node [ id 0 label \"a\" ]\n node [ id 1 label \"b\" ]\n node [ id 2 label \"c\" ]\n"
V2 = (b'{"format":"starlib","version":2,"network":"","params":{},"directed":false,"n":4,"m":2,"nodes":[0,1,2,3],'
      b'"adjacency":[[1],[],[3],[]],"trees":[{"root":0,"parent":[-1,0,3,2]}]}')

# (kind, file name, content, verb and options, fragment of the one-line message)
CASES = [
    ("directed graph", "d.graphml", graphml(TRIANGLE + TRIANGLE_EDGES, "directed"), ["edsts"], "the graph is directed"),
    ("directed graph, verify", "d.json", V2.replace(b'"directed":false', b'"directed":true')
     .replace(b',"trees":[{"root":0,"parent":[-1,0,3,2]}]', b""), ["verify"], "has no trees"),
    ("multigraph (GraphML)", "m.graphml", graphml(TRIANGLE + TRIANGLE_EDGES + '<edge source="b" target="a"/>'),
     ["info"], "parallel links (a multigraph)"),
    ("multigraph (GML, multigraph 1)", "m.gml", (GML_TRIANGLE.replace("graph [", "graph [\n multigraph 1")
                                                 + " edge [ source 0 target 1 ]\n edge [ source 0 target 1 ]\n]\n")
     .encode(), ["info"], "parallel links"),
    ("duplicate edge (GML)", "e.gml", (GML_TRIANGLE + " edge [ source 0 target 1 ]\n edge [ source 1 target 0 ]\n]\n")
     .encode(), ["build"], "is duplicated"),
    ("multigraph (edge list)", "m.edges", b"0 1\n1 2\n# again:\n2 1\n", ["edsts"],
     "line 2 and line 4 both link 1 and 2: parallel links"),
    ("multigraph (node-link)", "m.json", b'{"nodes":[{"id":1},{"id":2}],"links":[{"source":1,"target":2},'
                                         b'{"source":2,"target":1}]}', ["info"], "parallel links"),
    ("self-loop (edge list)", "l.edges", b"a b\nb b\n", ["info"], "line 2 is a self-loop at 'b'"),
    ("self-loop (GraphML)", "l.graphml", graphml(TRIANGLE + TRIANGLE_EDGES + '<edge source="c" target="c"/>'),
     ["build"], "a self-loop at 'c'; starlib reads simple graphs"),
    ("self-loop (anynet)", "l.anynet", b"router 0 router 1\nrouter 1 router 1\n", ["info"],
     "line 2: router 1 is linked to itself"),
    ("disconnected, edsts", "two.edges", b"0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n", ["edsts"],
     "the graph is not connected (2 components; 0 and 3 are in different ones)"),
    ("disconnected, improve", "two.json", V2, ["improve"], "the graph is not connected"),
    ("duplicate node ids (GraphML)", "dup.graphml", graphml(TRIANGLE + '<node id="b"/>' + TRIANGLE_EDGES), ["info"],
     "the node id 'b' is declared twice"),
    ("duplicate node ids (GML)", "dup.gml", (GML_TRIANGLE + " node [ id 1 label \"d\" ]\n]\n").encode(), ["info"],
     "node id 1 is duplicated"),
    ("duplicate node labels (GML)", "dupl.gml", (GML_TRIANGLE + " node [ id 3 label \"a\" ]\n]\n").encode(), ["info"],
     "have the same label 'a'"),
    ("duplicate node ids (node-link)", "dup.json", b'{"nodes":[{"id":"x"},{"id":"y"},{"id":"x"}],"edges":[]}',
     ["info"], "nodes[0] and nodes[2] have the same id 'x'"),
    ("not UTF-8 (edge list)", "latin.edges", "café bar\n".encode("latin-1"), ["info"],
     "line 1, column 4: the byte 0xe9 is not UTF-8"),
    ("not UTF-8 (GraphML)", "latin.graphml", graphml('<node id="caf\xe9"/>').replace("é".encode(), b"\xe9"),
     ["info"], "the byte 0xe9 is not UTF-8"),
    ("not ASCII (GML)", "u.gml", (GML_TRIANGLE.replace('"c"', '"ç"') + "]\n").encode(), ["info"],
     "the byte 0xc3 is not ASCII (GML is 7-bit ASCII"),
    ("empty file", "empty.graphml", b"", ["info"], "the file is empty (0 bytes)"),
    ("truncated XML", "cut.graphml", graphml(TRIANGLE + TRIANGLE_EDGES)[:-30], ["edsts"], "not well-formed XML"),
    ("malformed XML", "bad.graphml", b"<graphml><graph></graphml>", ["info"], "not well-formed XML (mismatched tag"),
    ("XML that is not GraphML", "plain.graphml", b"<network><node id='a'/></network>", ["info"],
     "holds 0 <graph> elements in the GraphML namespace"),
    ("two graphs in one GraphML", "two.graphml", graphml(TRIANGLE + '</graph><graph edgedefault="undirected">'),
     ["info"], "holds 2 <graph> elements"),
    ("an edge to an undeclared node (GraphML)", "u.graphml", graphml(TRIANGLE + '<edge source="a" target="z"/>'),
     ["info"], "an <edge> names the node 'z', which no <node> declares"),
    ("truncated GML", "cut.gml", GML_TRIANGLE.encode(), ["info"], "not GML that networkx reads"),
    ("malformed GML", "bad.gml", b"graph [ node [ id 0 ] ] ]\n", ["info"], "not GML that networkx reads"),
    ("truncated JSON (node-link)", "cut.json", b'{"nodes":[{"id":1},{"id":2}],"links":[{"source":1,', ["info"],
     "not JSON"),
    ("truncated JSON (starlib)", "cut-v2.json", V2[:60], ["edsts"], "not JSON"),
    ("node-link JSON that is not one", "nl.json", b'{"nodes":[{"name":1}],"links":[]}', ["info"],
     "is not node-link JSON (networkx's node_link_data"),
    ("node-link edge to an unknown node", "nl2.json", b'{"nodes":[{"id":1},{"id":2}],"links":[{"source":1,'
                                                      b'"target":3}]}', ["info"], "links[0].target=3 is not the id"),
    ("edge list with 3 columns", "w.edges", b"0 1\n1 2 5\n", ["info"],
     "line 2: 3 words ('1 2 5'); an edge list has two per line"),
    ("edge list with a non-integer index", "f.edges", b"0 1\n1 2.5\n", ["info"],
     "line 2: '2.5' is not an integer index, but line 1 names vertices by integers"),
    ("edge list with a header line", "h.txt", b"source target\n0 1\n1 2\n", ["info"],
     "line 1: 'source' is not an integer index"),
    ("edge list of comments only", "c.edges", b"# nothing here\n\n", ["info"], "no links"),
    ("anynet: a word that is no type", "g.anynet", b"router 0 switch 1\n", ["info"],
     "line 1: 'switch' is not a body type"),
    ("anynet: a line cut short", "s.anynet", b"router 0 router 1\nrouter 1 node\n", ["info"],
     "line 2: 'router 1 node' ends after a type"),
    ("anynet: an id that is no number", "i.anynet", b"router 0 router x\n", ["info"], "'x' is not a router or node id"),
    ("anynet: routers not numbered from 0", "r.anynet", b"router 0 router 2\n", ["info"], "router 1 is never named"),
    ("anynet: a node on two routers", "n.anynet", b"router 0 node 0 router 1\nrouter 1 node 0\n", ["info"],
     "node 0 is connected to routers 0 and 1"),
    ("anynet: latency 0", "z.anynet", b"router 0 router 1 0\n", ["info"], "latency 0: BookSim's channels need"),
    ("anynet: node to node", "nn.anynet", b"node 0 node 1\n", ["info"], "BookSim connects nodes only to routers"),
    ("a graph of 0 vertices", "zero.graphml", graphml(""), ["info"], "the graph has 0 vertices"),
    ("a graph of 1 vertex", "one.gml", b"graph [ node [ id 0 ] ]\n", ["info"], "the graph has 1 vertex"),
    ("a tree index below -1", "t.graphml", graphml(TRIANGLE + '<edge source="a" target="b"><data key="t">-2</data>'
                                                   '</edge>').replace(b"<graph ", b'<key id="t" for="edge" '
                                                                      b'attr.name="tree" attr.type="int"/><graph '),
     ["verify"], "the edge 'a' - 'b' has tree=-2"),
    ("too large for --max-memory", "big.graphml", graphml(TRIANGLE + TRIANGLE_EDGES), ["info", "--max-memory", "1K"],
     "is too large: reading"),
    ("an unknown suffix", "net.csv", b"0,1\n", ["info"], "the suffix '.csv' names no input format"),
    ("KEY=VALUE words with a file", "k.edges", b"0 1\n", ["build", "q=5"], "is a network file, which takes no KEY"),
    ("a method that needs a star product", "sp.edges", b"0 1\n1 2\n2 0\n", ["edsts", "--method", "maximum"],
     "needs a star product, and a network read from a file is not one"),
    ("verify a format without trees", "v.edges", b"0 1\n1 2\n", ["verify"], "is edgelist, a format without trees"),
    ("verify a GraphML file without trees", "v.graphml", graphml(TRIANGLE + TRIANGLE_EDGES), ["verify"],
     "has no trees"),
]
SPECIAL = ["missing file", "folder", "FIFO", "/dev/zero", "unknown --input-format"]


def _run(args: list[str], work, capsys):
    if args[0] in ("build", "edsts", "improve"):
        args = [*args, "-o", str(work / "out.json")]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _one_line(code, out, err, fragment, work, path: str | None):
    assert code == 2, err
    assert out == ""
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert fragment in err, err
    if path is not None:
        assert repr(path) in err, err  # the file, named as given
    assert "Traceback" not in err and len(err) < 500, err
    assert os.listdir(work) == [], "something was written"


@pytest.mark.parametrize("kind, name, content, args, fragment", CASES, ids=[c[0] for c in CASES])
def test_a_bad_file_is_one_line_status_2_and_nothing_written(kind, name, content, args, fragment, folders, capsys):
    inputs, work = folders
    path = inputs / name
    path.write_bytes(content)
    verb, *options = args
    code, out, err = _run([verb, str(path), *options], work, capsys)
    _one_line(code, out, err, fragment, work, str(path))
    assert path.read_bytes() == content


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("verb", ["info", "build", "edsts", "improve", "verify"])
def test_paths_that_are_no_file(kind, verb, folders, capsys):
    inputs, work = folders
    fmt: list[str] = []
    if kind == "missing file":
        path, fragment = str(inputs / "my.graphml"), "cannot read (No such file or directory)"
    elif kind == "folder":
        path, fragment = str(inputs), "cannot read (Is a directory)"
        fmt = ["--input-format", "graphml"]
    elif kind == "FIFO":
        path, fragment = str(inputs / "pipe.json"), "is a named pipe (FIFO), not a regular file"
        os.mkfifo(path)
    elif kind == "/dev/zero":
        path, fragment = "/dev/zero", "is a character device, not a regular file"
        fmt = ["--input-format", "edgelist"]
    else:
        path, fragment = str(inputs / "net.graphml"), "--input-format='csv' is not one of json, node-link, graphml"
        (inputs / "net.graphml").write_bytes(graphml(TRIANGLE + TRIANGLE_EDGES))
        fmt = ["--input-format", "csv"]
    code, out, err = _run([verb, path, *fmt], work, capsys)
    _one_line(code, out, err, fragment, work, None if kind == "unknown --input-format" else path)


def test_the_battery_has_at_least_20_kinds():
    assert len(CASES) + len(SPECIAL) >= 50


def test_a_fifo_does_not_block_the_command(tmp_path):
    fifo = tmp_path / "net.graphml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "starlib", "edsts", str(fifo), "-o", str(tmp_path / "t.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "named pipe (FIFO)" in done.stderr and done.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.graphml"]
