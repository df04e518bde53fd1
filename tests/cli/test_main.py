"""The command line: what each verb prints for people and for programs, the files it writes, and their contents.

The values are checked against independent sources: networkx (the Petersen graph, isomorphism, BFS diameters,
is_tree), the formulas of the networks (Slim Fly MMS(q): 2q^2 vertices of degree (3q - delta)/2), and the
verifier of the Python API. The bad-input battery is tests/cli/test_bad_input.py.
"""

import json
import os
import re
import subprocess
import sys

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from starlib.cli import main
from starlib.cli.commands import families, words
from starlib.graphs import as_graph
from starlib.io import read_json
from starlib.registry import parse_params
from tests.paths import ROOT


def run(args, capsys):
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


# -- networks -------------------------------------------------------------------------------------------------------
def test_networks_table_for_people_and_json_for_programs(capsys):
    code, out, err = run(["networks"], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 100  # a table, not one 9,000-character line
    fams = families()
    for name, fam in fams.items():  # every family and every parameter rule is in the table
        assert any(line.split()[:1] == [name] for line in lines), name
        for key in fam.params:
            assert any(line.split()[:1] == [key] for line in lines), (name, key)
    assert "prime power q >= 3, q != 2 (mod 4)" in out
    code, out, _ = run(["networks", "--json"], capsys)
    obj = {f["name"]: f for f in json.loads(out)["networks"]}
    assert set(obj) == set(fams)
    assert obj["slimfly"]["params"]["q"]["rule"] == fams["slimfly"].params["q"].text
    assert obj["polarstar"]["params"]["supernode"]["required"] is False


# -- build ----------------------------------------------------------------------------------------------------------
def test_build_petersen_json_v2_and_determinism(capsys, tmp_path):
    code, out, _ = run(["build", "complete-paley", "n=2", "q=5"], capsys)
    assert code == 0
    obj = json.loads(out)
    assert (obj["format"], obj["version"], obj["network"], obj["params"]) == ("starlib", 2, "complete-paley",
                                                                              {"n": 2, "q": 5})
    g = nx.Graph((u, v) for u, row in enumerate(obj["adjacency"]) for v in row)
    assert g.number_of_nodes() == len(obj["nodes"]) == 10 and nx.is_isomorphic(g, nx.petersen_graph())
    assert run(["build", "complete-paley", "n=2", "q=5"], capsys)[1] == out  # same bytes
    f = tmp_path / "p.json"
    code, _, err = run(["build", "complete-paley", "n=2", "q=5", "-o", str(f)], capsys)
    assert code == 0 and f.read_text() == out
    assert err == f"wrote {f}: 10 nodes, {len(out.encode())} bytes\n"
    assert run(["build", "complete-paley", "n=2", "q=5", "-o", str(f), "--quiet"], capsys)[2] == ""


@pytest.mark.parametrize("fmt, reader", [
    ("edgelist", lambda p: nx.read_edgelist(p, nodetype=int)),
    ("graphml", lambda p: nx.read_graphml(p)),
])
def test_build_exports_read_back_by_networkx(fmt, reader, capsys, tmp_path):
    f = tmp_path / f"sf.{fmt}"
    assert main(["build", "slimfly", "q=5", "--format", fmt, "-o", str(f)]) == 0
    assert capsys.readouterr().err.startswith(f"wrote {f} ({fmt}): 50 nodes")
    g = reader(f)
    assert (g.number_of_nodes(), g.number_of_edges(), nx.diameter(g)) == (50, 175, 2)
    assert {d for _, d in g.degree()} == {7}  # (3q - delta)/2 with q = 5, delta = 1


def test_build_anynet_with_concentration(capsys, tmp_path):
    f = tmp_path / "sf.anynet"
    assert main(["build", "slimfly", "q=5", "--format", "anynet", "--option", "nodes_per_router=2", "-o", str(f)]) == 0
    lines = f.read_text().splitlines()
    # BookSim's anynet grammar: 'router r node i node j' for the 2 terminals of each of the 50 routers, then one
    # 'router u router v' line per link (BookSim adds the reverse channel)
    heads, links = lines[:50], lines[50:]
    assert [line.split()[1::2] for line in heads] == [[str(r), str(2 * r), str(2 * r + 1)] for r in range(50)]
    g = nx.Graph((int(line.split()[1]), int(line.split()[3])) for line in links)
    assert (len(links), g.number_of_nodes(), nx.diameter(g)) == (175, 50, 2)


# -- info -----------------------------------------------------------------------------------------------------------
def test_info_summary_and_json(capsys):
    code, out, _ = run(["info", "slimfly", "q=5"], capsys)
    assert code == 0 and out.startswith("slimfly q=5: Slim Fly")
    assert "  vertices          50\n" in out and "7 (regular)" in out and "  diameter          2\n" in out
    code, out, _ = run(["info", "slimfly", "q=5", "--json"], capsys)
    info = json.loads(out)
    assert (info["n"], info["m"], info["degree_min"], info["degree_max"], info["diameter"]) == (50, 175, 7, 7, 2)
    assert info["t"] == 175 // 49 and info["r"] == 175 - 3 * 49 and info["upper_bound"] == 3


def test_info_says_when_and_why_the_diameter_is_skipped(capsys):
    code, out, _ = run(["info", "polarfly", "q=127", "--json"], capsys)
    info = json.loads(out)
    n, m = 127**2 + 127 + 1, 127 * 128**2 // 2  # ER_q: q^2 + q + 1 vertices, q (q + 1)^2 / 2 links
    assert code == 0 and (info["n"], info["m"]) == (n, m) and info["diameter"] is None
    assert f"{n:,} vertices" in info["diameter_skipped"] and "--diameter" in info["diameter_skipped"]
    code, out, _ = run(["info", "polarfly", "q=127"], capsys)
    assert "diameter          not computed: a BFS from each of 16,257 vertices" in out
    code, out, _ = run(["info", "torus", "sizes=3,4", "--no-diameter", "--json"], capsys)
    assert json.loads(out)["diameter_skipped"] == "--no-diameter was given"


def test_info_reports_the_cut_ratio_and_the_strength(capsys, tmp_path):
    # the torus C_3 x C_3 (K_3 x K_3): its every vertex set and every partition, by brute force
    from tests.allreduce.test_optimum import brute_cut_ratio, brute_strength

    g = as_graph(nx.grid_graph(dim=[3, 3], periodic=True))
    ones = np.ones(g.m, dtype=np.int64)
    rho, sigma = brute_cut_ratio(9, g.edges, ones, np.ones(9, dtype=bool)), brute_strength(9, g.edges, ones)
    info = json.loads(run(["info", "torus", "sizes=3,3", "--json"], capsys)[1])
    assert (info["cut_ratio"], info["cut_ratio_float"]) == (f"{rho.numerator}/{rho.denominator}", float(rho))
    assert (info["strength"], info["strength_float"]) == (f"{sigma.numerator}/{sigma.denominator}", float(sigma))
    assert "optimum_skipped" not in info
    out = run(["info", "torus", "sizes=3,3"], capsys)[1]
    assert f"  cut ratio         {rho.numerator}/{rho.denominator} = {float(rho):.7g}: ForestColl's" in out
    assert f"  strength          {sigma.numerator}/{sigma.denominator} = {float(sigma):.7g}: no allreduce" in out
    # skipped: on request, over the default work (the reason names --optimum), disconnected or directed networks
    info = json.loads(run(["info", "torus", "sizes=3,3", "--no-optimum", "--json"], capsys)[1])
    assert info["cut_ratio"] is info["strength"] is None and info["optimum_skipped"] == "--no-optimum was given"
    info = json.loads(run(["info", "polarfly", "q=127", "--no-diameter", "--json"], capsys)[1])
    assert info["strength_float"] is None and "--optimum computes them" in info["optimum_skipped"]
    assert "cut ratio         not computed (nor the strength): --no-optimum" in \
        run(["info", "torus", "sizes=3,3", "--no-optimum"], capsys)[1]
    (tmp_path / "two.edges").write_text("a b\nc d\n")
    nx.write_graphml(nx.DiGraph([(0, 1), (1, 2), (2, 0)]), tmp_path / "d.graphml")
    for name, why in (("two.edges", "not connected"), ("d.graphml", "a directed graph")):
        info = json.loads(run(["info", str(tmp_path / name), "--json"], capsys)[1])
        assert info["cut_ratio"] is None and why in info["optimum_skipped"]


@pytest.mark.parametrize("sizes", ["3,4", "5,5", "3,3,4"])
def test_info_diameter_matches_networkx(sizes, capsys):
    dims = [int(x) for x in sizes.split(",")]
    g = nx.grid_graph(dim=dims, periodic=True)  # the torus C_3 x C_4 x ...
    info = json.loads(run(["info", "torus", f"sizes={sizes}", "--json"], capsys)[1])
    assert (info["n"], info["m"], info["diameter"]) == (g.number_of_nodes(), g.number_of_edges(), nx.diameter(g))


# -- edsts and verify --------------------------------------------------------------------------------------------
def test_edsts_then_verify_roundtrip(capsys, tmp_path):
    f = tmp_path / "sf.json"
    code, _, err = run(["edsts", "slimfly", "q=4", "--method", "maximum", "-o", str(f)], capsys)
    assert code == 0 and err.splitlines()[-1].startswith(f"wrote {f}: 3 trees, 32 nodes, ")  # after a depth warning
    nf = read_json(f)
    # Table IV, Slim Fly with delta = 0: 3q/4 trees, equal to the upper bound
    assert nf.extra == {"upper_bound": 3, "method": "maximum"} and len(nf.trees) == 3
    g = nf.graph.to_networkx()
    for t in nf.trees:
        tg = t.to_networkx(nf.graph.labels)
        assert nx.is_tree(tg) and all(g.has_edge(u, v) for u, v in tg.edges()) and t.construction.startswith("V-C")
    code, out, _ = run(["verify", str(f)], capsys)
    assert code == 0 and out == (f"{f}: valid: 3 edge-disjoint spanning trees of slimfly q=4 (32 vertices, 96 links; "
                                 f"upper bound 3; maximum depth {max(t.depth for t in nf.trees)})\n")
    # a tree that reuses an edge of another tree is rejected with status 1 (a version-1 file: edges as label pairs)
    assert main(["edsts", "slimfly", "q=4", "--method", "maximum", "--format", "json-v1", "-o", str(f), "-q"]) == 0
    obj = json.loads(f.read_text())
    obj["trees"][1]["edges"][0] = obj["trees"][0]["edges"][0]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    code, out, _ = run(["verify", str(bad), "--json"], capsys)
    verdict = json.loads(out)
    assert code == 1 and verdict["valid"] is False and verdict["problems"] and verdict["version"] == 1


@pytest.mark.parametrize("fmt", ["tree-edgelist", "parents"])
def test_edsts_tree_exports_against_networkx(fmt, capsys, tmp_path):
    f = tmp_path / "trees.txt"
    assert main(["edsts", "torus", "sizes=4,4", "--format", fmt, "-o", str(f), "-q"]) == 0
    g = nx.grid_2d_graph(4, 4, periodic=True)  # the 4 x 4 torus: 2 EDSTs (m = 32 = 2 (n - 1) + 2)
    lab = sorted(g.nodes())
    if fmt == "parents":
        lines = f.read_text().splitlines()
        trees = [[(i, int(p)) for i, p in enumerate(line.split()) if int(p) >= 0] for line in lines]
    else:
        rows = np.loadtxt(f, dtype=np.int64).reshape(-1, 3)
        trees = [[(u, v) for u, v, k in rows if k == t] for t in sorted(set(rows[:, 2]))]
    assert len(trees) == 2
    used = set()
    for t in trees:
        tg = nx.Graph([(lab[u], lab[v]) for u, v in t])
        assert tg.number_of_nodes() == 16 and nx.is_tree(tg) and all(g.has_edge(*e) for e in tg.edges())
        edges = {frozenset(e) for e in tg.edges()}
        assert not edges & used
        used |= edges


def test_polarstar_infers_its_supernode_and_table_cells_paste(capsys):
    a = run(["info", "polarstar", "q=3", "d=3", "--json"], capsys)[1]
    b = run(["info", "polarstar-iq", "q=3", "d=3", "--json"], capsys)[1]
    c = run(["info", "polarstar-iq", "q=3;d=3", "--json"], capsys)[1]  # a parameters cell pasted in quotes
    # ER_3 * IQ(3): 13 * 8 = 104 vertices; 3 * 16 / 2 * 8 + 13 * 12 = 348 links
    assert {(json.loads(x)["n"], json.loads(x)["m"]) for x in (a, b, c)} == {(104, 348)}


def _table_networks():
    """Every (network, parameters) pair named in paper_tables/ (CSV columns network and parameters)."""
    pairs = {}
    for path in sorted((ROOT / "paper_tables").glob("*.csv")):
        df = pd.read_csv(path, dtype=str)
        if {"network", "parameters"} <= set(df.columns):
            size = "vertices" if "vertices" in df.columns else "n" if "n" in df.columns else None
            for row in df.itertuples(index=False):
                row = row._asdict()
                pairs.setdefault((row["network"], row["parameters"]), (path.name, row.get(size) if size else None))
    return pairs


def test_every_network_in_the_tables_rebuilds_from_its_cells(capsys):
    pairs = _table_networks()
    assert len(pairs) > 100
    fams = families()
    built = 0
    for (name, params), (table, n) in pairs.items():
        fam = fams[name]  # the network column is a command-line name
        cells = params.split()  # pasted as they stand: KEY=VALUE words separated by spaces
        kwargs = parse_params(fam, words(cells))
        est = fam.estimate(kwargs)
        if n is not None:
            assert est.n == int(n), (table, name, params)  # the size estimate agrees with the table
        if est.m <= 20_000:
            code, out, err = run(["info", name, *cells, "--json", "--no-diameter", "--no-optimum"], capsys)
            assert code == 0, (table, name, params, err)
            if n is not None:
                assert json.loads(out)["n"] == int(n), (table, name, params)
            built += 1
    assert built > 50


# -- help and version -------------------------------------------------------------------------------------------
def test_help_lists_methods_formats_and_examples():
    from starlib.edst import METHODS
    from starlib.io import FORMATS

    p = subprocess.run([sys.executable, "-m", "starlib", "edsts", "--help"], capture_output=True, text=True)
    assert p.returncode == 0
    for name in [*METHODS, *FORMATS]:
        assert f"\n  {name} " in p.stdout, name
    assert "examples:\n  starlib edsts bundlefly q=29 paley_q=29 -o t.json" in p.stdout
    p = subprocess.run([sys.executable, "-m", "starlib", "build", "--help"], capture_output=True, text=True)
    assert "\n  anynet " in p.stdout and "\n  parents " not in p.stdout  # build writes no trees
    for verb in ("networks", "info", "verify"):
        p = subprocess.run([sys.executable, "-m", "starlib", verb, "--help"], capture_output=True, text=True)
        assert p.returncode == 0 and "examples:\n  starlib " + verb in p.stdout


def test_version():
    import starlib

    p = subprocess.run([sys.executable, "-m", "starlib", "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout == f"starlib {starlib.__version__}\n"


# -- progress and warnings --------------------------------------------------------------------------------------
def test_long_runs_warn_with_an_estimate_and_quiet_silences(monkeypatch, capsys, tmp_path):
    import starlib.cli.progress as progress

    monkeypatch.setattr(progress, "WARN_SECONDS", 0.0)  # any generic packing counts as long
    f = tmp_path / "t.json"
    code, _, err = run(["edsts", "star", "k=4", "-o", str(f)], capsys)
    lines = err.splitlines()
    assert code == 0 and lines[0].startswith("warning: edsts star k=4: method auto (no structured packing for 36 "
                                             "links): the exact generic packing on 36 links may take about")
    assert lines[-1].startswith(f"wrote {f}: 1 tree, 24 nodes")  # 3-regular on 24 vertices: floor(36/23) = 1
    assert run(["edsts", "star", "k=4", "-o", str(f), "--quiet"], capsys)[2] == ""


def test_progress_bar_appears_on_stderr_for_long_work(tmp_path):
    # draw the bar although stderr is a pipe, and at once (the run may take less than the default second)
    env = {**os.environ, "STARLIB_PROGRESS": "1", "STARLIB_PROGRESS_DELAY": "0"}
    p = subprocess.run([sys.executable, "-m", "starlib", "edsts", "star", "k=7", "--method", "generic", "-o",
                        str(tmp_path / "t.json")], capture_output=True, text=True, env=env)
    assert p.returncode == 0
    assert "edsts star: trees" in p.stderr and "steps" in p.stderr  # tqdm's bar
    # the exact packing reports the tree edges it has placed: K_7's star graph S_7 has 3 trees of 5,039 edges
    assert "edsts star: trees (15,117 of 15,117 tree edges)" in p.stderr.replace("\r", "\n")
    assert p.stderr.rstrip().splitlines()[-1].startswith("wrote ") and "Traceback" not in p.stderr
    q = subprocess.run([sys.executable, "-m", "starlib", "edsts", "star", "k=7", "--method", "generic", "-q", "-o",
                        str(tmp_path / "t.json")], capture_output=True, text=True, env=env)
    assert q.returncode == 0 and q.stderr == ""


def test_networks_lists_polarfly_as_a_network_and_a_factor_and_shows_no_markup(capsys):
    code, out, _ = run(["networks"], capsys)
    text = out.split("\n")
    titles = [i for i, line in enumerate(text) if line and not line.startswith(" ")]
    listed = {}
    for i, start in enumerate(titles):
        end = titles[i + 1] if i + 1 < len(titles) else len(text)
        listed[text[start]] = {line.split()[0] for line in text[start + 1:end] if line.startswith("  ")
                               and not line.startswith("      ")}
    factor = next(t for t in listed if t.startswith("Factor graphs"))
    other = next(t for t in listed if t.startswith("Other networks"))
    assert "polarfly" in listed[factor] and "polarfly" in listed[other] and "PolarFly" in other
    assert "``" not in out and not re.search(r":[a-z]+:`", out)  # reStructuredText is for the docs, not here
    assert "The MS(l, n) network (command line: macro-star l= n=)." in out
    assert "adjacent transpositions T_{i,i+1}" in out
    code, out, _ = run(["networks", "--json"], capsys)
    obj = {f["name"]: f for f in json.loads(out)["networks"]}
    assert (obj["polarfly"]["kind"], obj["polarfly"]["also"]) == ("factor", ["network"])
    assert "also" not in obj["slimfly"]


def test_edsts_on_a_terminal_prints_a_summary_and_json_elsewhere(capsys, monkeypatch, tmp_path):
    code, out, _ = run(["edsts", "slimfly", "q=5"], capsys)  # captured: not a terminal, so JSON
    assert code == 0 and json.loads(out)["network"] == "slimfly" and len(json.loads(out)["trees"]) == 3
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    code, out, err = run(["edsts", "slimfly", "q=5"], capsys)
    assert code == 0 and out.splitlines() == [
        "edsts slimfly q=5: 3 trees (upper bound 3), 50 nodes, maximum depth 12, verified.",
        "The trees are not printed on a terminal: -o FILE writes them (JSON, or --format), and a pipe gets the JSON."]
    code, out, err = run(["edsts", "slimfly", "q=5", "-o", str(tmp_path / "t.json")], capsys)  # a file: as before
    assert code == 0 and out == "" and "wrote" in err and len(read_json(tmp_path / "t.json").trees) == 3


def test_edsts_on_a_pseudo_terminal(tmp_path):
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "starlib", "edsts", "slimfly", "q=5", "-q"], stdout=follower,
                              stderr=subprocess.PIPE, cwd=tmp_path, timeout=300)
        os.close(follower)
        follower = None
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the terminal's other end is closed: everything is read
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)
    shown = b"".join(chunks).decode()
    assert proc.returncode == 0
    assert shown.startswith("edsts slimfly q=5: 3 trees (upper bound 3), 50 nodes") and "{" not in shown
    piped = subprocess.run([sys.executable, "-m", "starlib", "edsts", "slimfly", "q=5", "-q"], capture_output=True,
                           cwd=tmp_path, timeout=300)
    assert piped.returncode == 0 and json.loads(piped.stdout)["n"] == 50
