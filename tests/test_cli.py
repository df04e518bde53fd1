"""The command line: verbs, JSON, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import networkx as nx
import pytest

from starlib.cli import main


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_networks_lists_families_with_rules(capsys):
    code, out, _ = run(["networks"], capsys)
    assert code == 0
    fams = {f["name"]: f for f in json.loads(out)["networks"]}
    for name in ("complete", "complete-bipartite", "paley", "mms-supernode", "slimfly", "polarfly",
                 "inductive-quad", "bundlefly", "polarstar", "complete-paley", "hyperx", "torus", "chimera"):
        assert name in fams, name
    assert "prime power" in fams["slimfly"]["params"]["q"]["rule"]


def test_build_petersen_and_determinism(capsys, tmp_path):
    code, out, _ = run(["build", "complete-paley", "n=2", "q=5"], capsys)
    assert code == 0
    obj = json.loads(out)
    assert obj["network"] == "complete-paley" and obj["params"] == {"n": 2, "q": 5}
    g = nx.Graph()
    g.add_edges_from((tuple(map(tuple, [u, v]))[0], tuple(map(tuple, [u, v]))[1]) for u, v in obj["edges"])
    assert g.number_of_nodes() == len(obj["nodes"]) == 10
    assert nx.is_isomorphic(g, nx.petersen_graph())
    code, out2, _ = run(["build", "complete-paley", "n=2", "q=5"], capsys)
    assert out2 == out
    f = tmp_path / "p.json"
    assert main(["build", "complete-paley", "n=2", "q=5", "-o", str(f)]) == 0
    assert f.read_text() == out


def test_info_slimfly(capsys):
    code, out, _ = run(["info", "slimfly", "q=5"], capsys)
    info = json.loads(out)
    assert code == 0
    assert (info["n"], info["m"], info["degree_min"], info["degree_max"], info["diameter"]) == (50, 175, 7, 7, 2)
    assert info["t"] == 175 // 49 and info["r"] == 175 - 3 * 49


@pytest.mark.parametrize("args, fragment", [
    (["build", "slimfly", "q=6"], "q=6"),
    (["build", "paley", "q=7"], "q=7"),
    (["build", "inductive-quad", "d=5"], "d=5"),
    (["build", "slimfly"], "needs q"),
    (["build", "slimfly", "p=5"], "p is not a parameter"),
    (["build", "slimfly", "q=abc"], "not an integer"),
    (["build", "no-such-net"], "no-such-net"),
    (["frobnicate"], "invalid choice"),
    (["verify", "/nonexistent/file.json"], "cannot read"),
])
def test_errors_are_one_line_with_status_2(args, fragment, capsys, tmp_path):
    with pytest.raises(SystemExit) if args == ["frobnicate"] else _nullcontext() as exc:
        code = main(args)
    if args == ["frobnicate"]:
        code = exc.value.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and fragment in err


class _nullcontext:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_module_entry_point_exit_status():
    p = subprocess.run([sys.executable, "-m", "starlib", "build", "slimfly", "q=6"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr
    assert p.stderr.strip().startswith("error: q=6")
