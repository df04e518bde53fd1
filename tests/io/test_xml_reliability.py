"""XML files, read and written: entities never expanded, encodings named, every file starlib writes parses.

The table ``CASES`` gives, row by row, a file's bytes, the command run on it (in-process, from an empty working
folder, with ``-o`` for the verbs that write), the exit status and the words of the one-line message (for status 0,
words of standard output), and every row checks that nothing was written. ``WRITES`` runs commands whose inputs
hold text XML 1.0 cannot hold (control characters, U+FFFE, U+FFFF, tab and newline in ids) and reads every file
written back: Python's XML parser, ``networkx.read_graphml`` and starlib's reader, the same graph again.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import numpy as np
import orjson
import pytest

from starlib.cli import main
from starlib.edst.trees import Tree
from starlib.graphs import ArrayGraph
from starlib.io import msccl_allreduce, read_input, replay_msccl
from starlib.io.exports import graphml
from starlib.io.xml_safe import XML_RULE, refuse_entities, xml_attr, xml_holds, xml_json, xml_text

from .test_inputs_reliability import GRAPHML, LAUGHS
from .test_inputs_reliability import WRITES as WRITING_VERBS

NS = 'xmlns="http://graphml.graphdrawing.org/xmlns"'
TREE_KEY = '<key id="t" for="edge" attr.name="tree" attr.type="int"/>'
#: A triangle whose edge a-b carries the tree index {t} (a triangle holds at most 3 // 2 = 1 spanning tree).
TRI = ('<?xml version="1.0"?>\n<graphml ' + NS + '>' + TREE_KEY + '<graph edgedefault="undirected"><node id="a"/>'
       '<node id="b"/><node id="c"/><edge source="a" target="b"><data key="t">{t}</data></edge>'
       '<edge source="b" target="c"/><edge source="c" target="a"/></graph></graphml>\n')
#: A triangle as starlib writes it (labels, network, params) with one tree and the graph's ``roots`` {roots}.
STARLIB_TRI = ('<?xml version="1.0"?>\n<graphml ' + NS + '>' + TREE_KEY + "".join(
    f'<key id="{k}" for="{f}" attr.name="{k}" attr.type="string"/>'
    for k, f in [("network", "graph"), ("params", "graph"), ("roots", "graph"), ("label", "node")])
    + '<graph edgedefault="undirected"><data key="network">K3</data><data key="params">{{}}</data>'
    '<data key="roots">{roots}</data>' + "".join(f'<node id="{i}"><data key="label">{i}</data></node>'
                                                for i in range(3))
    + '<edge source="0" target="1"><data key="t">0</data></edge><edge source="1" target="2"><data key="t">0</data>'
    '</edge><edge source="2" target="0"/></graph></graphml>\n')
ENTITY = '<!DOCTYPE g [<!ENTITY x "pulled in">]>\n'
BODY = ('<graphml ' + NS + '><graph edgedefault="undirected"><node id="a"/><node id="b"/>'
        '<edge source="a" target="b"/></graph></graphml>\n')
GML_TRI = 'graph [ node [ id {a} ] node [ id 1 ] node [ id 2 ] edge [ source {a} target 1 {t} ] ' \
          'edge [ source 1 target 2 ] edge [ source 2 target {a} ] ]'
BIG = 123456789012345678901234567890


def xml(prolog: str, body: str = BODY, encoding: str = "utf-8") -> bytes:
    return (prolog + body).encode(encoding)


def with_entity(before: str = "", encoding: str = "utf-8", dtd: str = ENTITY) -> bytes:
    return xml(before + dtd, BODY.replace('id="a"/>', 'id="a"><data key="d">&x;</data></node>'), encoding)


# (kind, file name, content, command (verb and options), exit status, words of the message)
CASES = [
    # the entity guard, as expat sees the declarations
    ("entity after a comment naming <graphml>", "t.graphml", with_entity("<!-- <graphml> -->\n"), ["info"], 2,
     "the file declares an XML entity (<!ENTITY ...>); starlib does not expand entities in GraphML"),
    ("entity after a processing instruction naming <graphml>", "t.graphml",
     with_entity('<?xml version="1.0"?><?note <graphml x="1"/> ?>\n'), ["info"], 2, "which declares 'x'"),
    ("entity after a comment, through edsts", "t.graphml", with_entity("<!--<graphml-->"), ["edsts"], 2,
     "declares an XML entity"),
    ("entity in UTF-16 LE with a BOM", "t.graphml", with_entity(encoding="utf-16"), ["info"], 2,
     "declares an XML entity"),
    ("entity in UTF-16 BE with a BOM", "t.graphml", b"\xfe\xff" + with_entity(encoding="utf-16-be"), ["build"], 2,
     "declares an XML entity"),
    ("entity in UTF-16 declared, no BOM", "t.graphml",
     with_entity('<?xml version="1.0" encoding="UTF-16"?>', encoding="utf-16-le"), ["info"], 2,
     "declares an XML entity"),
    ("a parameter entity", "t.graphml", xml('<!DOCTYPE g [<!ENTITY % p "x">]>\n'), ["info"], 2,
     "which declares '%p'"),
    ("an external parameter entity", "t.graphml",
     xml('<!DOCTYPE g [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>\n'), ["verify"], 2, "which declares '%p'"),
    ("an external entity (XXE) in UTF-16", "t.graphml",
     with_entity(encoding="utf-16", dtd='<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>'), ["info"], 2,
     "starlib does not expand entities in GraphML (no external files, no expansion)"),
    ("an unparsed entity", "t.graphml", xml('<!DOCTYPE g [<!NOTATION n SYSTEM "v"><!ENTITY x SYSTEM "f" NDATA n>]>'),
     ["info"], 2, "declares an XML entity"),
    ("billion laughs behind a comment", "t.graphml",
     ("<!-- <graphml> -->" + GRAPHML.format(dtd=LAUGHS, a="&a8;").replace('<?xml version="1.0"?>\n', "")).encode(),
     ["edsts"], 2, "declares an XML entity"),
    # encodings
    ("UTF-32 LE with a BOM", "t.graphml", xml("", encoding="utf-32"), ["info"], 2,
     "starts with a UTF-32 byte-order mark"),
    ("UTF-32 BE with a BOM", "t.graphml", b"\x00\x00\xfe\xff" + xml("", encoding="utf-32-be"), ["info"], 2,
     "UTF-32 byte-order mark; the XML parser (expat) reads UTF-8, UTF-16"),
    ("an unknown encoding", "t.graphml", xml('<?xml version="1.0" encoding="foo-bar"?>\n'), ["info"], 2,
     "the XML declaration names the encoding 'foo-bar', which the XML parser (expat) cannot read"),
    ("an unknown encoding, through build", "t.graphml", xml("<?xml version='1.0' encoding='x-nope'?>"), ["build"],
     2, "names the encoding 'x-nope'"),
    ("a multi-byte encoding", "t.graphml", xml('<?xml version="1.0" encoding="Shift_JIS"?>\n'), ["info"], 2,
     "names the encoding 'shift_jis', which the XML parser (expat) cannot read (multi-byte"),
    ("UTF-32 declared, UTF-8 bytes", "t.graphml", xml('<?xml version="1.0" encoding="UTF-32"?>\n'), ["edsts"], 2,
     "names the encoding 'utf-32'"),
    ("a control character by reference", "t.graphml", GRAPHML.format(dtd="", a="a&#1;").encode(), ["info"], 2,
     "not well-formed XML (reference to invalid character number"),
    # tree indices no graph can hold
    ("GraphML: tree index 10**9", "t.graphml", TRI.format(t=10**9).encode(), ["verify"], 2,
     "the edge 'a' - 'b' has tree=1000000000; a graph of 3 vertices and 3 edges has at most m // (n - 1) = 1 "
     "edge-disjoint spanning trees, so a tree index is -1 (no tree) or 0"),
    ("GraphML: tree index beyond 64 bits", "t.graphml", TRI.format(t=BIG).encode(), ["info"], 2,
     f"the edge 'a' - 'b' has tree={BIG}; a graph of 3 vertices"),
    ("GraphML: tree index 1 of a triangle", "t.graphml", TRI.format(t=1).encode(), ["improve"], 2,
     "has tree=1; a graph of 3 vertices and 3 edges has at most m // (n - 1) = 1"),
    ("node-link: tree index 10**9", "t.json",
     b'{"nodes":[{"id":1},{"id":2},{"id":3}],"edges":[{"source":1,"target":2,"tree":1000000000},'
     b'{"source":2,"target":3},{"source":3,"target":1}]}', ["verify"], 2, "the edge 1 - 2 has tree=1000000000"),
    ("GML: tree index 10**9", "t.gml", GML_TRI.format(a=0, t="tree 1000000000").encode(), ["verify"], 2,
     "the edge 0 - 1 has tree=1000000000; a graph of 3 vertices"),
    ("GML: tree index beyond 64 bits", "t.gml", GML_TRI.format(a=0, t=f"tree {BIG}").encode(), ["edsts"], 2,
     f"has tree={BIG}"),
    ("GraphML: roots beyond 64 bits", "t.graphml", STARLIB_TRI.format(roots=f"[{BIG}]").encode(), ["verify"], 2,
     "roots=[1.2345678901234568e+29]: need a list of 1 vertex indices in 0..2, one per tree"),
    ("GraphML: roots that are not JSON", "t.graphml", STARLIB_TRI.format(roots="[0,").encode(), ["verify"], 2,
     "roots='[0,' is not JSON text; starlib writes the roots as a JSON list of vertex indices or node ids"),
    # ids beyond 64 bits, in every reader
    ("GML: node id beyond 64 bits (info)", "t.gml", GML_TRI.format(a=BIG, t="").encode(), ["info"], 2,
     f"the node id {BIG} is an integer beyond 64 bits; an id is an integer of at most 64 bits"),
    ("GML: node id beyond 64 bits (edsts)", "t.gml", GML_TRI.format(a=BIG, t="").encode(), ["edsts"], 2,
     "is an integer beyond 64 bits"),
    ("GML: node id -2**63 - 1", "t.gml", GML_TRI.format(a=-(2**63) - 1, t="").encode(), ["build"], 2,
     f"the node id {-(2**63) - 1} is an integer beyond 64 bits"),
    ("GML: a label beyond 64 bits", "t.gml",
     f'graph [ node [ id 0 label "a" ] node [ id 1 label {BIG} ] edge [ source 0 target 1 ] ]'.encode(), ["info"],
     2, f"node 1's label {BIG} is an integer beyond 64 bits"),
    ("GML: a label with a lone surrogate", "t.gml",
     b'graph [ node [ id 0 label "a&#55296;" ] node [ id 1 label "b" ] edge [ source 0 target 1 ] ]', ["build"],
     2, "node 0's label 'a\\ud800' holds the lone surrogate U+D800"),
    ("node-link: id beyond 64 bits", "t.json", b'{"nodes":[{"id":%d},{"id":2}],"edges":[]}' % BIG, ["edsts"], 2,
     f"nodes[0].id={BIG} is an integer beyond 64 bits"),
    ("edge list: id beyond 64 bits", "t.edges", b"0 1\n1 %d\n" % BIG, ["edsts"], 2,
     "line 2: the index '123456789012...901234567890' (30 characters) has more than 18 digits"),
    ("anynet: id beyond 64 bits", "t.anynet", b"router 0 router %d\n" % BIG, ["info"], 2,
     "has more than 18 digits (it must fit in 64 bits)"),
    # accepted
    ("a DOCTYPE without entities after a comment", "t.graphml", xml("<!-- x --><?pi y?><!DOCTYPE graphml>\n"),
     ["info"], 0, "vertices          2"),
    ("an external DTD, never fetched", "t.graphml", xml('<!DOCTYPE graphml SYSTEM "file:///nonexistent.dtd">'),
     ["info"], 0, "vertices          2"),
    ("UTF-16 with a BOM", "t.graphml", xml("", encoding="utf-16"), ["info"], 0, "links             1"),
    ("ISO-8859-1 declared", "t.graphml",
     xml('<?xml version="1.0" encoding="ISO-8859-1"?>', BODY.replace('"a"', '"caf\xe9"'), "latin-1"), ["info"], 0,
     "vertices          2"),
    ("GraphML: a starlib file with its roots", "t.graphml", STARLIB_TRI.format(roots="[1]").encode(), ["verify"], 0,
     "valid: 1 edge-disjoint spanning trees of K3"),
    ("GML: node id 2**63 - 1", "t.gml", GML_TRI.format(a=2**63 - 1, t="").encode(), ["info"], 0,
     "vertices          3"),
]


def _run(args: list[str], work: Path, capsys) -> tuple[int, str, str]:
    if args[0] in WRITING_VERBS:
        args = [*args, "-o", str(work / "out.json")]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind, name, content, args, status, words", CASES, ids=[c[0] for c in CASES])
def test_a_crafted_xml_or_id_is_one_line_and_nothing_written(kind, name, content, args, status, words, folders,
                                                              capsys):
    inputs, work = folders
    path = inputs / name
    path.write_bytes(content)
    code, out, err = _run([args[0], str(path), *args[1:]], work, capsys)
    assert code == status, err
    if status == 2:
        assert out == "" and err.startswith("error: ") and err.count("\n") == 1 and err.endswith("\n"), err
        assert err[:-1].isprintable() and "Traceback" not in err and repr(str(path)) in err, err
        assert words in err, err
    else:
        assert words in out, out
    assert os.listdir(work) == [], "something was written"
    assert path.read_bytes() == content


def test_the_table_counts_at_least_25_rows():
    assert len(CASES) >= 25


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="reads the kernel's high-water mark (Linux)")
def test_an_entity_expanded_10000_times_in_11_mb_is_refused_cheaply(tmp_path):
    """One entity of 1 kB referenced 10,000 times in an 11 MB file: refused at the declaration, in well under the
    memory that expanding it would take (it took 2 GB)."""
    body = '<node id="n{i}"><data key="d">&e;</data></node>'
    nodes = "".join(body.format(i=i) for i in range(10_000))
    pad = "<!-- " + "p" * (11 << 20) + " -->"
    text = ('<?xml version="1.0"?>\n<!-- <graphml> -->\n<!DOCTYPE g [<!ENTITY e "' + "x" * 1000 + '">]>\n' + pad
            + '<graphml ' + NS + '><graph edgedefault="undirected">' + nodes + "</graph></graphml>\n")
    path = tmp_path / "big.graphml"
    path.write_text(text)
    assert path.stat().st_size > 11 << 20
    # the kernel's high-water mark, restarted as the child starts: a fresh process's ru_maxrss begins at the peak of
    # the process that spawned it (a pytest worker's, over a gigabyte), so it cannot be the measure
    probe = ("import sys\nwith open('/proc/self/clear_refs', 'w') as f:\n    f.write('5')\n"
             "from starlib.cli import main\ncode = main(['info', sys.argv[1]])\n"
             "print(code, next(int(x.split()[1]) for x in open('/proc/self/status') if x.startswith('VmHWM')))")
    done = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    code, peak_kib = map(int, done.stdout.split())
    assert code == 2 and "declares an XML entity" in done.stderr, done.stderr
    assert peak_kib < 600 << 10, f"peak {peak_kib} KiB"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.graphml"]


# -- writing: every file starlib writes parses and reads back ------------------------------------------------------

def _v2(nodes: list, network: str = "", params: str = "{}") -> bytes:
    """starlib JSON of a ring on ``nodes`` (JSON values), with a chord 0-2, named ``network``."""
    n = len(nodes)
    adjacency = [[i + 1] + ([2] if i == 0 else []) for i in range(n - 1)] + [[]]
    adjacency[0].append(n - 1)
    adjacency[0].sort()
    return json.dumps({"format": "starlib", "version": 2, "network": network, "params": json.loads(params),
                       "directed": False, "n": n, "m": sum(map(len, adjacency)), "nodes": nodes,
                       "adjacency": adjacency}).encode()


def _node_link(ids: list[str]) -> bytes:
    """node-link JSON of a ring on ``ids`` (JSON escapes every control character), with a chord 0-2 from 4 ids."""
    n = len(ids)
    edges = [(i, (i + 1) % n) for i in range(n)] + ([(0, 2)] if n >= 4 else [])
    return json.dumps({"nodes": [{"id": v} for v in ids],
                       "edges": [{"source": ids[u], "target": ids[v]} for u, v in edges]}).encode()


# (kind, input file name, its content, the command (verb and options))
WRITES = [
    ("node-link: U+0001 in an id, build graphml", "t.json", _node_link(["a\x01", "b", "c"]),
     ["build", "--format", "graphml"]),
    ("node-link: ESC and BEL in ids, edsts graphml", "t.json", _node_link(["a\x1b[2J", "b", "c\x07", "d"]),
     ["edsts", "--format", "graphml"]),
    ("node-link: U+0001 in an id, edsts msccl-xml", "t.json", _node_link(["a\x01", "b", "c"]),
     ["edsts", "--format", "msccl-xml"]),
    ("JSON: BEL in the network's name, msccl-xml", "t.json", _v2(["s0", "s1", "s2", "s3"], "ring\x07"),
     ["edsts", "--format", "msccl-xml"]),
    ("JSON: BEL in the name, U+FFFF in params, graphml", "t.json",
     _v2(["s0", "s1", "s2", "s3"], "ring\x07\ufffe", '{"note": "\\u0001\\uffff"}'), ["edsts", "--format", "graphml"]),
    ("JSON: every forbidden character in labels, graphml", "t.json",
     _v2([f"v{c}" for c in [*map(chr, [*range(0, 9), 11, 12, *range(14, 32)]), "\ufffe", "\uffff"]]),
     ["edsts", "--format", "graphml"]),
    ("JSON: tab, LF, CR, quotes in ids, graphml", "t.json", _v2(["a\tb", "c\nd", "e\rf", 'g"<&>h']),
     ["edsts", "--format", "graphml"]),
    ("JSON: tuple labels with U+0002, graphml", "t.json", _v2([[0, "\x02"], [1, "x"], [2, "y"], [3, "\uffff"]]),
     ["edsts", "--format", "graphml"]),
    ("GML: &#1; in a label, graphml", "t.gml",
     b'graph [ node [ id 0 label "a&#1;" ] node [ id 1 label "b" ] node [ id 2 label "c" ] '
     b"edge [ source 0 target 1 ] edge [ source 1 target 2 ] edge [ source 2 target 0 ] ]",
     ["edsts", "--format", "graphml"]),
    ("GML: &#1; in a label, msccl-xml", "t.gml",
     b'graph [ node [ id 0 label "a&#1;" ] node [ id 1 label "b" ] node [ id 2 label "c" ] '
     b"edge [ source 0 target 1 ] edge [ source 1 target 2 ] edge [ source 2 target 0 ] ]",
     ["edsts", "--format", "msccl-xml"]),
    ("GraphML: a tab in an id by reference, graphml", "t.graphml",
     GRAPHML.format(dtd="", a="a&#9;x").encode(), ["edsts", "--format", "graphml"]),
    ("node-link: BEL in ids, graphml", "t.json",
     b'{"nodes":[{"id":"\\u0007a"},{"id":"b"},{"id":"c"}],"edges":[{"source":"\\u0007a","target":"b"},'
     b'{"source":"b","target":"c"},{"source":"c","target":"\\u0007a"}]}', ["edsts", "--format", "graphml"]),
]


@pytest.mark.parametrize("kind, name, content, args", WRITES, ids=[w[0] for w in WRITES])
def test_every_xml_file_starlib_writes_parses_and_reads_back(kind, name, content, args, folders, capsys):
    inputs, work = folders
    path = inputs / name
    path.write_bytes(content)
    fmt = args[args.index("--format") + 1]
    out = work / ("out.xml" if fmt == "msccl-xml" else "out.graphml")
    code = main([args[0], str(path), *args[1:], "-q", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert os.listdir(work) == [out.name]
    ET.parse(out)  # Python's XML parser reads it
    before = read_input(path)
    if fmt == "msccl-xml":
        report = replay_msccl(out.read_bytes())
        assert report.ranks == before.graph.n
        assert all(xml_holds(x) for x in report.rank_names)
        return
    g = nx.read_graphml(out)
    assert g.number_of_nodes() == before.graph.n and g.number_of_edges() == before.graph.m
    after = read_input(out)
    assert after.graph.labels == before.graph.labels
    assert after.graph.edges.tolist() == before.graph.edges.tolist()
    if args[0] == "edsts":
        assert after.trees is not None and len(after.trees) >= 1
        assert main(["verify", str(out)]) == 0, capsys.readouterr()


FORBIDDEN = [*map(chr, [*range(0, 9), 11, 12, *range(14, 32)]), "\ufffe", "\uffff", "\ud800", "\udfff"]


@pytest.mark.parametrize("c", FORBIDDEN, ids=[f"U+{ord(c):04X}" for c in FORBIDDEN])
def test_each_character_xml_cannot_hold_is_written_visibly_by_every_xml_writer(c):
    assert not xml_holds(c) and not xml_holds(f"a{c}b")
    ET.fromstring(f"<a b={xml_attr('x' + c)}>{xml_text(c + 'y')}</a>")
    assert ET.fromstring(f"<a>{xml_text(c)}</a>").text == repr(c)[1:-1]
    assert ET.fromstring(f"<a b={xml_attr(c)}/>").get("b") == repr(c)[1:-1]
    k3 = ArrayGraph.from_edges(["p", "q", "r"], np.array([[0, 1], [1, 2], [0, 2]]), name=f"net{c}")
    ET.fromstring(graphml(k3))
    nx.read_graphml(io.BytesIO(graphml(k3)))
    ET.fromstring(msccl_allreduce(k3, [Tree(np.array([[0, 1], [1, 2]]), 0)], chunks=1, name=f"algo{c}"))


def test_json_text_in_xml_keeps_every_character_but_lone_surrogates():
    text = "".join(FORBIDDEN[:-2]) + "<&>\"\t"
    assert orjson.loads(ET.fromstring(f"<a>{xml_json([text])}</a>").text) == [text]
    with pytest.raises(ValueError, match="cannot be written as JSON text"):
        xml_json("\ud800")


def test_the_guard_reads_a_str_and_names_the_rule():
    with pytest.raises(ValueError, match="MSCCL XML"):
        refuse_entities('<!DOCTYPE a [<!ENTITY x "y">]><a/>', "msccl", "MSCCL XML")
    refuse_entities("<a>no entity</a>", "doc", "GraphML")
    assert "U+FFFE" in XML_RULE


def test_replay_refuses_an_entity_before_expanding_it():
    with pytest.raises(ValueError, match="msccl: line 1, column .*: the file declares an XML entity"):
        replay_msccl(b'<!-- <algo> --><!DOCTYPE a [<!ENTITY x "y">]><algo name="&x;"/>')
