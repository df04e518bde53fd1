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
    for name in ("cartesian", "complete", "complete-bipartite", "paley", "mms-supernode", "slimfly", "polarfly",
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
    (["build", "cartesian", "G=complete:n=4", "H=paley:q=7"], "q=7"),
    (["build", "cartesian", "G=complete:m=4", "H=paley:q=5"], "m is not a parameter of complete"),
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


def test_edsts_then_verify_roundtrip(capsys, tmp_path):
    f = tmp_path / "sf.json"
    assert main(["edsts", "slimfly", "q=4", "--method", "maximum", "-o", str(f)]) == 0
    obj = json.loads(f.read_text())
    # Table IV, Slim Fly with delta = 0: 3q/4 trees, equal to the upper bound
    assert obj["method"] == "maximum" and obj["upper_bound"] == 3 and len(obj["trees"]) == 3
    n = len(obj["nodes"])
    for t in obj["trees"]:
        assert len(t["edges"]) == n - 1 and t["construction"].startswith("V-C")
    capsys.readouterr()
    assert main(["verify", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["valid"] is True
    # a tree that reuses an edge of another tree must be rejected, with status 1
    obj["trees"][1]["edges"][0] = obj["trees"][0]["edges"][0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    assert main(["verify", str(bad)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["valid"] is False and verdict["problems"]


def test_edsts_method_errors(capsys):
    assert main(["edsts", "paley", "q=13", "--method", "maximum"]) == 2
    assert "method=maximum" in capsys.readouterr().err
    assert main(["edsts", "slimfly", "q=5", "--method", "nonsense"]) == 2
    assert "method=nonsense" in capsys.readouterr().err
