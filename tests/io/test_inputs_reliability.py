"""Reading inputs: what a crafted or broken input file does to every verb that reads one.

Each bad kind writes one file in a folder of its own, runs a verb on it in-process from an empty working folder
(with ``-o`` for the verbs that write) and asserts: status 2, nothing on standard output, one printable line on
standard error naming the file (as given) and the rule broken, nothing written. The FIFO and ``/dev/zero`` cases run
real processes with a timeout (the library's ``read_json`` and the command line), since the failure they guard
against is a process that blocks or reads until memory runs out.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from starlib.cli import main
from starlib.io import decode, read_json
from starlib.memory import limit_memory

WRITES = ("build", "edsts", "improve", "repair")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, dict]:
    """Polarfly q=3 with its trees, as the command line writes it in version 2 and in version 1 (parsed)."""
    d = tmp_path_factory.mktemp("made")
    assert main(["edsts", "polarfly", "q=3", "-q", "-o", str(d / "v2.json")]) == 0
    assert main(["edsts", "polarfly", "q=3", "-q", "--format", "json-v1", "-o", str(d / "v1.json")]) == 0
    return {v: json.loads((d / f"{v}.json").read_bytes()) for v in ("v1", "v2")}


def _with(obj: dict, **keys) -> dict:
    out = json.loads(json.dumps(obj))
    out.update(keys)
    return out


def _raw(obj: dict, key: str, text: str) -> bytes:
    """The object as JSON with ``key`` set to the raw JSON text ``text`` (a literal ``json`` would not write)."""
    return json.dumps({**obj, key: "@@"}).encode().replace(b'"@@"', text.encode())


def _edit(change: str, version: str = "v1"):
    """A maker that changes a copy of the parsed file (``change``: a one-line edit of ``o``, the table's own)."""
    def make(f: dict) -> dict:
        obj = json.loads(json.dumps(f[version]))
        exec(change, {"o": obj})
        return obj
    return make


def _depth(obj: dict, text: str) -> bytes:
    """The file with the first tree's depth written as the raw JSON ``text``."""
    return re.sub(r'"depth": -?[0-9]+', f'"depth": {text}', json.dumps(obj), count=1).encode()


GRAPHML = ('<?xml version="1.0"?>\n{dtd}<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
           '<graph edgedefault="undirected"><node id="{a}"/><node id="b"/><edge source="{a}" target="b"/>'
           '</graph></graphml>\n')
LAUGHS = ('<!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">' + "".join(
    f'<!ENTITY a{i + 1} "{("&a" + (str(i) if i else "") + ";") * 10}">' for i in range(8)) + "]>\n")

# (kind, file name, maker(files) -> bytes or JSON object, verb and options, fragment of the one-line message)
KINDS = [
    # version 1 as strict as version 2, key by key
    ("v1: a self-loop edge", "t.json", _edit("o['edges'].append([o['nodes'][0], o['nodes'][0]])"), ["verify"],
     "edges[24]=[[0,0,1],[0,0,1]] is a self-loop; a link joins two different nodes"),
    ("v1: a duplicated edge", "t.json", _edit("o['edges'].append(o['edges'][3])"), ["verify"],
     "edges[3] and edges[24] are the same link"),
    ("v1: a reversed duplicate edge", "t.json", _edit("o['edges'].append(o['edges'][3][::-1])"), ["improve"],
     "edges[3] and edges[24] are the same link"),
    ("v1: upper_bound 1e400", "t.json", lambda f: _raw(f["v1"], "upper_bound", "1e400"), ["verify"],
     "upper_bound=1e400 is a number beyond a 64-bit float; need a finite number"),
    ("v1: method 1e400 through improve", "t.json", lambda f: _raw(f["v1"], "method", "1e400"), ["improve"],
     "method=1e400 is a number beyond a 64-bit float"),
    ("v1: method a number", "t.json", lambda f: _with(f["v1"], method=5), ["improve"],
     "method=5 is an integer; the command line writes method as a string"),
    ("v1: upper_bound a string", "t.json", lambda f: _with(f["v1"], upper_bound="2"), ["verify"],
     "upper_bound=\"2\" is a string; the command line writes upper_bound as an integer >= 0"),
    ("v1: params value 1e999999", "t.json", lambda f: _raw(f["v1"], "params", '{"q": 1e999999}'), ["verify"],
     "params.q=1e999999 is a number beyond a 64-bit float"),
    ("v1: network not a string", "t.json", lambda f: _with(f["v1"], network=["polarfly"]), ["verify"],
     "network=[\"polarfly\"] is a list, not a string"),
    ("v1: labels that repeat", "t.json", _edit("o['nodes'][5] = o['nodes'][0]"), ["verify"],
     "nodes[0] and nodes[5] are the same label [0,0,1]; labels must be distinct"),
    ("v1: node ids that are bools", "t.json", lambda f: {"nodes": [True, False], "edges": [[True, False]]},
     ["info"], "nodes[0]: true is a bool; a label is an integer, a string or a list of labels"),
    ("v1: a label beyond 64 bits", "t.json", lambda f: b'{"nodes": [0, 123456789012345678901], "edges": [[0, 1]]}',
     ["info"], "nodes[1]: 123456789012345678901 is an integer beyond 64 bits"),
    ("v1: a tree as a string", "t.json", _edit("o['trees'][1] = 'abc'"), ["verify"],
     "trees[1] is a string, not an object"),
    ("v1: a tree without root", "t.json", _edit("del o['trees'][0]['root']"), ["verify"],
     "trees[0]: the key 'root' is missing"),
    ("v1: a tree without edges", "t.json", _edit("del o['trees'][0]['edges']"), ["verify"],
     "trees[0]: the key 'edges' is missing"),
    ("v1: a tree edge to no node", "t.json", _edit("o['trees'][0]['edges'][2][1] = [9, 9, 9]"), ["verify"],
     "trees[0].edges[2]: [9,9,9] is not one of the nodes"),
    ("v1: a tree with a self-loop", "t.json", _edit("o['trees'][0]['edges'][2][1] = o['trees'][0]['edges'][2][0]"),
     ["verify"], "trees[0].edges[2]="),
    ("v1: a tree short of n-1 edges", "t.json", _edit("o['trees'][0]['edges'].pop()"), ["verify"],
     "trees[0].edges has 11 pairs; a spanning tree of n=13 nodes has n-1=12"),
    ("v1: depth a bool", "t.json", _edit("o['trees'][0]['depth'] = True"), ["verify"],
     "trees[0].depth=true is a bool, not an integer"),
    ("v1: depth 1e400", "t.json", lambda f: _depth(f["v1"], "1e400"), ["verify"],
     "trees[0].depth=1e400 is a number beyond a 64-bit float"),
    ("v1: a version-2 key", "t.json", lambda f: _with(f["v1"], n=13), ["verify"],
     "the key 'n' belongs to version 2, but the file has no \"format\" key"),
    # version 2: integers beyond 64 bits, named with their key
    ("v2: upper_bound beyond 64 bits", "t.json",
     lambda f: _raw(f["v2"], "upper_bound", "123456789012345678901234567890"), ["verify"],
     "upper_bound=123456789012345678901234567890 is an integer beyond 64 bits; need an integer of at most 64 bits"),
    ("v2: n beyond 64 bits", "t.json", lambda f: _raw(f["v2"], "n", "1" + "0" * 400), ["info"],
     "is an integer beyond 64 bits; need an integer of at most 64 bits"),
    ("v2: a parent index of 2**64-1", "t.json", _edit("o['trees'][1]['parent'][4] = 2**64 - 1", "v2"), ["verify"],
     "trees[1].parent[4]=18446744073709551615 is an integer beyond 64 bits"),
    ("v2: params value 1e999999", "t.json", lambda f: _raw(f["v2"], "params", '{"q": 1e999999}'), ["verify"],
     "params.q=1e999999 is a number beyond a 64-bit float"),
    # JSON text itself
    ("v2: a duplicate key", "t.json", lambda f: json.dumps(f["v2"]).encode()[:-1] + b', "n": 13}', ["verify"],
     "the key \"n\" appears twice in one object; the keys of a JSON object must be distinct"),
    ("v1: a duplicate key", "t.json", lambda f: json.dumps(f["v1"]).encode()[:-1] + b', "network": "x"}', ["verify"],
     "the key \"network\" appears twice in one object"),
    ("UTF-16", "t.json", lambda f: json.dumps(f["v2"]).encode("utf-16"), ["verify"],
     "a NUL byte; a starlib JSON file is UTF-8 text (is this UTF-16?)"),
    ("a NUL byte", "t.json", lambda f: json.dumps(f["v1"]).encode()[:-1] + b"\x00}", ["verify"], "a NUL byte"),
    ("bytes that are not UTF-8", "t.json", lambda f: json.dumps(f["v1"]).encode()[:-1] + b'"\xff"}', ["verify"],
     "the byte 0xff is not UTF-8"),
    ("a lone surrogate", "t.json", lambda f: json.dumps({**f["v1"], "network": "\ud800x"}).encode(), ["verify"],
     "holds the lone surrogate"),
    ("deeply nested arrays (v1)", "t.json", lambda f: b'{"nodes": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     ["verify"], "nested deeper than Python's JSON reader goes"),
    ("deeply nested arrays (v2)", "t.json", lambda f: _raw(f["v2"], "x", "[" * 100_000 + "]" * 100_000),
     ["verify"], "nested deeper than Python's JSON reader goes"),
    ("a NaN literal", "t.json", lambda f: _raw(f["v2"], "upper_bound", "NaN"), ["verify"], "NaN is not JSON"),
    ("an Infinity literal", "t.json", lambda f: _raw(f["v1"], "upper_bound", "-Infinity"), ["verify"],
     "-Infinity is not JSON"),
    # the other formats
    ("edge list: a vertex id of 10**20", "t.edges", lambda f: b"0 1\n1 100000000000000000000\n", ["info"],
     "line 2: the index '100000000000000000000' has more than 18 digits"),
    ("edge list: CR line ends only", "t.edges", lambda f: b"0 1\r1 2\r", ["info"],
     "line 1: 4 words ('0 1\\r1 2'); an edge list has two per line"),
    ("edge list: an escape in a word", "t.edges", lambda f: b"a \x1b]0;x\x07b c\n", ["info"],
     "line 1: 3 words ('a \\x1b]0;x\\x07b c')"),
    ("GraphML: an external entity (XXE)", "t.graphml",
     lambda f: GRAPHML.format(dtd='<!DOCTYPE g [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n', a="&x;").encode(),
     ["info"], "the file declares an XML entity (<!ENTITY ...>); starlib does not expand entities in GraphML"),
    ("GraphML: entity expansion (billion laughs)", "t.graphml",
     lambda f: GRAPHML.format(dtd=LAUGHS, a="&a8;").encode(), ["edsts"], "declares an XML entity"),
    ("GML: lists nested 20,000 deep", "t.gml",
     lambda f: b"graph [ " + b"x [ " * 20_000 + b"]" * 20_000 + b" node [ id 0 ] node [ id 1 ] "
               b"edge [ source 0 target 1 ] ]", ["info"], "lists nested deeper than networkx's GML parser goes"),
    ("anynet: a negative router id", "t.anynet", lambda f: b"router -1 router 1\n", ["info"],
     "line 1: '-1' is not a router or node id"),
    ("anynet: a router id of 10**20", "t.anynet", lambda f: b"router 0 router 100000000000000000000\n", ["info"],
     "the router or node id '100000000000000000000' has more than 18 digits"),
    ("node-link: a duplicate key", "t.json",
     lambda f: b'{"nodes":[{"id":1},{"id":2}],"links":[{"source":1,"target":2}],"links":[]}', ["info"],
     "the key \"links\" appears twice in one object"),
    ("node-link: an id beyond 64 bits", "t.json",
     lambda f: b'{"nodes":[{"id":123456789012345678901234567890},{"id":2}],"links":[]}', ["info"],
     "nodes[0].id=123456789012345678901234567890 is an integer beyond 64 bits"),
    ("node-link: an id that is a bool", "t.json", lambda f: b'{"nodes":[{"id":true},{"id":2}],"links":[]}',
     ["info"], "nodes[0].id=True is bool; an id is an integer or a string"),
    ("node-link: escapes in a repeated link", "t.json",
     lambda f: b'{"nodes":[{"id":"\\u001b[2J\\u009b"},{"id":2}],"links":[{"source":"\\u001b[2J\\u009b","target":2},'
               b'{"source":2,"target":"\\u001b[2J\\u009b"}]}', ["info"], "'\\x1b[2J\\x9b' and 2: parallel links"),
]


def _run(args: list[str], work: Path, capsys) -> tuple[int, str, str]:
    if args[0] in WRITES:
        args = [*args, "-o", str(work / "out.json")]
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def _refused(code: int, out: str, err: str, fragment: str, work: Path, path: str) -> None:
    assert code == 2, err
    assert out == ""
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert err[:-1].isprintable(), err  # no control character, C1 control or bidi override reaches the terminal
    assert fragment in err, err
    assert repr(path) in err, err  # the file, named as given
    assert "Traceback" not in err and len(err) < 600, err
    assert os.listdir(work) == [], "something was written"


@pytest.mark.parametrize("kind, name, make, args, fragment", KINDS, ids=[k[0] for k in KINDS])
def test_a_bad_input_is_one_line_status_2_naming_file_and_rule(kind, name, make, args, fragment, files, folders,
                                                                  capsys):
    inputs, work = folders
    content = make(files)
    content = content if isinstance(content, bytes) else json.dumps(content).encode()
    path = inputs / name
    path.write_bytes(content)
    verb, *options = args
    code, out, err = _run([verb, str(path), *options], work, capsys)
    _refused(code, out, err, fragment, work, str(path))
    assert path.read_bytes() == content


def test_the_table_counts_at_least_40_kinds():
    assert len(KINDS) >= 40


@pytest.mark.parametrize("verb", ["verify", "improve", "repair"])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_the_same_rules_through_every_verb_that_reads_trees(verb, version, files, folders, capsys):
    inputs, work = folders
    obj = json.loads(json.dumps(files[version]))
    text = json.dumps(obj).encode()[:-1] + b', "upper_bound": 123456789012345678901234567890}'
    path = inputs / "t.json"
    path.write_bytes(text.replace(b', "upper_bound": 2,', b","))
    extra = ["--fail", "[0,0,1]-[0,1,0]"] if verb == "repair" else []
    code, out, err = _run([verb, str(path), *extra], work, capsys)
    _refused(code, out, err, "upper_bound=123456789012345678901234567890 is an integer beyond 64 bits", work,
             str(path))


# -- well-formed files with invalid trees: verify says INVALID (1), improve refuses (2) -------------------------------

TREE_FAULTS = [
    ("a tree edge outside the graph", "o['trees'][0]['edges'][0] = [o['nodes'][0], o['nodes'][1]]",
     "not in the graph"),
    ("a tree listed twice", "o['trees'].append(o['trees'][0])", "shares 12 edge(s) with tree 0"),
    ("a tree that holds a cycle", "o['trees'][0]['edges'][0] = o['trees'][1]['edges'][0]", "tree"),
]


@pytest.mark.parametrize("kind, edit, fragment", TREE_FAULTS, ids=[t[0] for t in TREE_FAULTS])
def test_invalid_trees_are_the_verifiers_question(kind, edit, fragment, files, folders, capsys):
    inputs, work = folders
    path = inputs / "t.json"
    path.write_text(json.dumps(_edit(edit)(files)))
    code, out, err = _run(["verify", str(path)], work, capsys)
    assert code == 1 and err == "" and out.count("\n") == 1 and ": INVALID: " in out and fragment in out, out
    code, out, err = _run(["improve", str(path)], work, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and os.listdir(work) == [], err


# -- accepted as before ------------------------------------------------------------------------------------------------

ACCEPTED = [
    ("a UTF-8 byte-order mark (v2)", "t.json", lambda f: b"\xef\xbb\xbf" + json.dumps(f["v2"]).encode()),
    ("a UTF-8 byte-order mark (v1)", "t.json", lambda f: b"\xef\xbb\xbf" + json.dumps(f["v1"]).encode()),
    ("-0 as a depth", "t.json", lambda f: _depth(f["v2"], "-0")),
    ("an edge list with tabs", "t.edges", lambda f: b"0\t1\n1\t2\n2\t0\n"),
    ("an edge list with CR LF", "t.edges", lambda f: b"0 1\r\n1 2\r\n2 0\r\n"),
    ("a GraphML DOCTYPE without entities", "t.graphml",
     lambda f: GRAPHML.format(dtd="<!DOCTYPE graphml>\n", a="a").encode()),
]


@pytest.mark.parametrize("kind, name, make", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_inputs_that_stay_accepted(kind, name, make, files, folders, capsys):
    inputs, work = folders
    path = inputs / name
    path.write_bytes(make(files))
    code, out, err = _run(["info", str(path)], work, capsys)
    assert code == 0, err


def test_version_1_and_2_of_the_same_trees_read_the_same(files):
    a, b = decode(json.dumps(files["v1"])), decode(json.dumps(files["v2"]))
    assert a.graph.labels == b.graph.labels and a.graph.edges.tolist() == b.graph.edges.tolist()
    assert [t.edges.tolist() for t in a.trees] == [t.edges.tolist() for t in b.trees]


# -- terminal escapes from a file --------------------------------------------------------------------------------------

EVIL = "\x1b]0;pwned\x07\x1b[2Jfake OK\u202e\u2066\x9b" + "A" * 500


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("verb", ["verify", "info", "improve", "verify-invalid"])
def test_strings_from_a_file_are_escaped_and_shortened(verb, version, files, folders, capsys):
    inputs, work = folders
    obj = _with(files[version], network=EVIL, params={"q\x1b[31m": "\x9b2J" + "B" * 300})
    if verb == "verify-invalid":
        obj["trees"].append(obj["trees"][0])
    path = inputs / "evil\x1b[2J.json"
    path.write_text(json.dumps(obj))
    args = {"verify": ["verify"], "verify-invalid": ["verify"], "info": ["info"], "improve": ["improve"]}[verb]
    code, out, err = _run([args[0], str(path)], work, capsys)
    text = out + err
    assert code == (1 if verb == "verify-invalid" else 0), text
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\u2066"):
        assert raw not in text, text
    assert all(line.isprintable() for line in text.splitlines()), text
    assert max(map(len, text.splitlines())) < 600, text
    if verb != "improve":  # improve prints only the line after the write
        assert "\\x1b]0;pwned\\x07\\x1b[2Jfake OK\\u202e" in text and f"({len(EVIL)} characters)" in text, text
        assert "evil\\x1b[2J.json" in text, text
    if verb.startswith("verify"):
        assert "q\\x1b[31m=\\x9b2J" in text, text



@pytest.mark.parametrize("verb", ["verify", "info"])
def test_json_output_holds_no_raw_control_or_bidi_character(verb, files, folders, capsys):
    """``--json`` output is ASCII: a file's network name reaches the terminal as JSON escapes, and parses back."""
    inputs, work = folders
    path = inputs / "evil.json"
    path.write_text(json.dumps(_with(files["v2"], network=EVIL)))
    code, out, err = _run([verb, str(path), "--json"], work, capsys)
    assert code == 0, err
    assert out.isascii(), out
    assert json.loads(out)["network"] == EVIL


def test_a_file_name_with_escapes_is_escaped_in_the_progress_bar(files, folders):
    """The progress bar (shown on a terminal) names the file escaped, as every other line does."""
    from starlib.cli.progress import Progress

    assert Progress(["read"], desc="verify evil\x1b[2J.json").desc == "verify evil\\x1b[2J.json"

# -- FIFOs, devices and the memory limit: real processes -------------------------------------------------------------

API = ("import sys\nfrom starlib.io import read_json\ntry:\n    read_json(sys.argv[1])\nexcept ValueError as exc:\n"
       "    print(exc)\n    sys.exit(2)\nprint('read')\n")


def _special(tmp_path: Path, kind: str) -> tuple[Path, str]:
    if kind == "FIFO":
        path = tmp_path / "pipe.json"
        os.mkfifo(path)
        return path, "is a named pipe (FIFO), not a regular file"
    path = tmp_path / "zero.json"
    path.symlink_to("/dev/zero")
    return path, "is a character device, not a regular file"


@pytest.mark.parametrize("kind", ["FIFO", "symlink to /dev/zero"])
def test_read_json_refuses_a_fifo_or_a_device_without_blocking(kind, tmp_path):
    path, fragment = _special(tmp_path, kind)
    done = subprocess.run([sys.executable, "-c", API, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == f"path={str(path)!r}: {fragment}: starlib reads networks from regular files only (it " \
                          f"checks their size before it reads them)\n"


@pytest.mark.parametrize("verb", ["verify", "improve", "info"])
@pytest.mark.parametrize("kind", ["FIFO", "symlink to /dev/zero"])
def test_the_command_line_refuses_a_fifo_or_a_device_without_blocking(kind, verb, tmp_path):
    path, fragment = _special(tmp_path, kind)
    out = tmp_path / "out"
    out.mkdir()
    args = [sys.executable, "-m", "starlib", verb, str(path)] + (["-o", str(out / "t.json")] if verb in WRITES else [])
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and fragment in done.stderr and repr(str(path)) in done.stderr
    assert os.listdir(out) == []


@pytest.mark.parametrize("verb", ["build", "info", "edsts", "improve", "repair", "verify"])
def test_max_memory_applies_to_the_input_file_of_every_verb(verb, files, folders, capsys):
    inputs, work = folders
    path = inputs / "big.json"
    path.write_text(json.dumps(files["v2"]))
    size = path.stat().st_size
    extra = ["--fail", "[0,0,1]-[0,1,0]"] if verb == "repair" else []
    code, out, err = _run([verb, str(path), *extra, "--max-memory", "1K"], work, capsys)
    _refused(code, out, err, "is too large: reading", work, str(path))
    assert f"{size} B" in err and "over the memory limit of 1.00 KiB" in err, err
    assert "with the interpreter and libraries about" in err, err  # the command line counts its own baseline


@pytest.mark.parametrize("verb", ["info", "verify"])
def test_the_file_counts_on_top_of_the_baseline(verb, files, folders, capsys):
    """A limit above the verb's baseline but below the baseline plus the file's need refuses the file; 100 MiB more
    reads it (a 640 KB file: about 25 MiB to read at 40 bytes per byte)."""
    from starlib.memory import process_baseline

    inputs, work = folders
    path = inputs / "padded.json"
    path.write_text(json.dumps(files["v2"]) + " " * 640_000)  # JSON allows trailing white space
    base = process_baseline(verb) // 2**20
    code, out, err = _run([verb, str(path), "--max-memory", f"{base + 10}M"], work, capsys)
    _refused(code, out, err, "is too large: reading", work, str(path))
    code, out, err = _run([verb, str(path), "--max-memory", f"{base + 100}M"], work, capsys)
    assert code == 0, err


def test_read_json_checks_the_size_against_the_memory_limit(files, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(files["v1"]))
    assert read_json(path).trees is not None
    with limit_memory(1024), pytest.raises(ValueError, match=r"^path='.*t\.json' is too large: reading .* over the "
                                                             r"memory limit of 1\.00 KiB"):
        read_json(path)
    empty = tmp_path / "e.json"
    empty.write_bytes(b"")
    with pytest.raises(ValueError, match=r"the file is empty \(0 bytes\)"):
        read_json(empty)


def test_a_long_path_with_escapes_is_shortened_in_the_message(folders, capsys):
    inputs, work = folders
    path = str(inputs / ("d" * 200) / ("x\x1b[2J" + "y" * 200 + ".json"))
    code, out, err = _run(["verify", path], work, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and err[:-1].isprintable(), err
    assert "cannot read (No such file or directory)" in err and f"({len(path)} characters)" in err, err
    assert len(err) < 400 and os.listdir(work) == []
