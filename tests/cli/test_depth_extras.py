"""The deepest tree in the summary lines of edsts and verify (and its warning, checked
against networkx's diameter and BFS depths), and a missing optional extra named in one line (status 2 from the
command line, an ImportError with the same words from the library)."""

from __future__ import annotations

import json
import subprocess
import sys

import networkx as nx
import pytest

from starlib.cli.main import main
from starlib.io import read_json
from starlib.networks import slimfly
from tests.paths import ROOT


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def nx_depths(path):
    """Each tree's depth from its root by networkx BFS, and the network's diameter by networkx."""
    nf = read_json(path)
    g = nf.graph.to_networkx()
    depths = []
    for t in nf.trees:
        tg = t.to_networkx(nf.graph.labels)
        assert nx.is_tree(tg) and tg.number_of_nodes() == g.number_of_nodes()
        depths.append(max(nx.single_source_shortest_path_length(tg, nf.graph.labels[t.root]).values()))
    return depths, nx.diameter(g)


def test_edsts_reports_the_deepest_tree_and_warns_past_twice_the_diameter(capsys, tmp_path):
    f = tmp_path / "auto.json"
    code, _, err = run(["edsts", "slimfly", "q=5", "-o", str(f)], capsys)
    depths, diameter = nx_depths(f)
    assert code == 0 and diameter == 2 and max(depths) > 2 * diameter + 1  # auto ignores depth: 12 on MMS(5)
    warning, wrote = err.splitlines()
    assert warning == (f"warning: edsts slimfly q=5: the deepest tree has depth {max(depths)}, over 2 x diameter + 1 "
                       f"= 5 (diameter 2: BFS from every vertex); --method shallow packs the most trees, then the "
                       f"least depth")
    assert wrote.startswith(f"wrote {f}: 3 trees, 50 nodes, ") and wrote.endswith(f" (maximum depth {max(depths)})")
    # the method the warning names: the same count, within the margin, and no warning
    s = tmp_path / "shallow.json"
    code, _, err = run(["edsts", "slimfly", "q=5", "--method", "shallow", "-o", str(s)], capsys)
    depths, _ = nx_depths(s)
    assert code == 0 and len(depths) == 3 and max(depths) <= 5
    assert err == f"wrote {s}: 3 trees, 50 nodes, {err.split(', ')[2].split(' (')[0]} (maximum depth {max(depths)})\n"
    # quiet: neither the warning nor the summary
    assert run(["edsts", "slimfly", "q=5", "-o", str(f), "-q"], capsys)[2] == ""


def test_verify_reports_the_deepest_tree_only_when_valid(capsys, tmp_path):
    f = tmp_path / "t.json"
    assert main(["edsts", "slimfly", "q=5", "--method", "maximum", "-o", str(f), "-q"]) == 0
    depths, _ = nx_depths(f)
    code, out, _ = run(["verify", str(f)], capsys)
    assert code == 0 and out.endswith(f"(50 vertices, 175 links; upper bound 3; maximum depth {max(depths)})\n")
    code, out, _ = run(["verify", str(f), "--json"], capsys)
    assert code == 0 and f'"max_depth": {max(depths)}' in out
    # improve reports the same quantity before and after
    code, _, err = run(["improve", str(f), "-o", str(tmp_path / "i.json")], capsys)
    after, _ = nx_depths(tmp_path / "i.json")
    assert code == 0 and err.endswith(f"(maximum depth {max(depths)} -> {max(after)})\n")
    # trees that share links have no depth to report
    obj = json.loads(f.read_text())
    obj["trees"][1] = obj["trees"][0]
    f.write_text(json.dumps(obj))
    code, out, _ = run(["verify", str(f)], capsys)
    assert code == 1 and "INVALID" in out and "maximum depth" not in out
    code, out, _ = run(["verify", str(f), "--json"], capsys)
    assert code == 1 and "max_depth" not in json.loads(out)


def test_the_diameter_edsts_compares_with():
    from starlib.cli.commands import depth_diameter
    from starlib.registry import NETWORK_FAMILIES

    g = slimfly(5)
    assert depth_diameter(g, None) == (nx.diameter(g.to_networkx()), "BFS from every vertex")
    # over the BFS budget: the family's closed form, else none
    import starlib.cli.commands as commands

    saved, commands.DEPTH_DIAMETER_WORK = commands.DEPTH_DIAMETER_WORK, 10
    try:
        assert depth_diameter(g, NETWORK_FAMILIES["slimfly"]) == (2, "slimfly's closed form")
        assert depth_diameter(g, None)[0] is None
    finally:
        commands.DEPTH_DIAMETER_WORK = saved


# -- optional extras -------------------------------------------------------------------------------------------------
def without(modules, code):
    """Run ``code`` in a fresh interpreter where ``modules`` cannot be imported (set to None in sys.modules)."""
    hide = "; ".join(f"sys.modules[{m!r}] = None" for m in modules)
    return subprocess.run([sys.executable, "-c", f"import sys; {hide}; {code}"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.mark.parametrize("missing", ["dask", "distributed"])
def test_sweep_without_its_extra_says_which_to_install(tmp_path, missing):
    out = tmp_path / "er.csv"
    p = without([missing], f"from starlib.cli.main import main; sys.exit(main(['sweep', 'er', '--q-max', '5', "
                           f"'-o', {str(out)!r}]))")
    assert p.returncode == 2 and p.stdout == "" and not out.exists()
    assert p.stderr == "error: starlib sweep needs the 'sweep' extra: pip install 'starlib[sweep]'\n"


def test_the_library_raises_an_import_error_naming_the_extra():
    p = without(["distributed"], "from starlib.sweep.engine import open_client\n"
                                 "try:\n    open_client()\nexcept ImportError as e:\n    print(e)")
    assert p.returncode == 0 and p.stdout == "starlib.sweep.open_client needs the 'sweep' extra: pip install " \
                                             "'starlib[sweep]'\n", p.stderr
    p = without(["cppyy"], "import numpy as np\nfrom starlib.netsim import simulate_trees\ntry:\n"
                           "    simulate_trees(2, np.array([[0, 1]]), [np.array([-1, 0])], 1024)\n"
                           "except ImportError as e:\n    print(e)")
    assert p.returncode == 0 and p.stdout == "starlib.netsim needs the 'simulate' extra: pip install " \
                                             "'starlib[simulate]'\n", p.stderr


def test_the_rest_of_the_command_line_needs_no_extra(tmp_path):
    """Without any extra's module, the verbs of a plain ``pip install`` run (edsts here)."""
    hidden = ["dask", "distributed", "cppyy", "ns", "IPython", "papermill", "nbformat", "playwright"]
    p = without(hidden, f"from starlib.cli.main import main; sys.exit(main(['edsts', 'slimfly', 'q=5', '--method', "
                        f"'shallow', '-o', {str(tmp_path / 't.json')!r}]))")
    assert p.returncode == 0 and p.stderr.startswith("wrote "), p.stderr


def test_edsts_takes_a_budget_for_shallow_only(tmp_path, capsys):
    from starlib.cli.main import main

    out = tmp_path / "t.json"
    assert main(["edsts", "slimfly", "q=5", "--method", "shallow", "--budget", "0.5", "-o", str(out), "--quiet"]) == 0
    assert out.is_file()
    for argv, words in ((["--method", "shallow", "--budget", "soon"], "--budget='soon' is not a number"),
                        (["--method", "shallow", "--budget", "-1"], "--budget"),
                        (["--method", "auto", "--budget", "1"], "method 'auto' takes no such option")):
        target = tmp_path / "u.json"
        assert main(["edsts", "slimfly", "q=5", *argv, "-o", str(target)]) == 2
        assert words in capsys.readouterr().err and not target.exists()
