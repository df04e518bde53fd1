"""What each entry point loads: the method table and the everyday verbs leave the solvers and the depth study alone.

Start-up time is what a user of the command line meets first (``benchmarks/bench_cli.py`` measures it); it is kept
here by the modules a fresh process loads, which do not depend on the machine's speed. The depth search, its
solvers (SciPy's optimisers, OR-tools, HiGHS) and the table libraries load when a method or verb uses them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: Modules that only the depth search, the exact solvers, the tables or the figures need.
HEAVY = ("starlib.edst.depth", "scipy.optimize", "ortools", "highspy", "networkx", "pandas", "matplotlib", "sympy")


def loaded(code: str, cwd) -> list[str]:
    """The modules of :data:`HEAVY` that a fresh process running ``code`` has loaded at its end."""
    probe = f"{code}\nimport sys\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=cwd)
    return eval(out.stdout.strip().splitlines()[-1])


def test_the_method_table_loads_no_solver_and_no_depth_study(tmp_path):
    assert loaded("import starlib.edst.methods", tmp_path) == []
    assert loaded("import starlib", tmp_path) == []


EDSTS = ["edsts", "bundlefly", "q=5", "paley_q=9", "-o", "t.json"]


@pytest.mark.parametrize("argv", [
    EDSTS,
    ["verify", "t.json"],
    ["info", "slimfly", "q=5"],
    ["export", "t.json", "--format", "graphml", "-o", "t.graphml"],
])
def test_the_everyday_verbs_load_no_solver_and_no_depth_study(tmp_path, argv):
    if argv[0] != "edsts":  # the trees file is made by a process of its own: the probe sees only the verb's imports
        subprocess.run([sys.executable, "-m", "starlib", *EDSTS, "--quiet"], check=True, cwd=tmp_path)
    assert loaded(f"from starlib.cli.main import main\nassert main({argv!r}) == 0", tmp_path) == []


def test_the_probe_sees_a_heavy_module(tmp_path):
    # the check can fail: a process that uses the depth search is seen to load it
    assert "starlib.edst.depth" in loaded("import starlib\nimport networkx as nx\n"
                                          "starlib.edsts(nx.petersen_graph(), 'shallow')", tmp_path)


def test_the_first_run_says_that_it_compiles(tmp_path, monkeypatch, capsys):
    # an empty cache is seen as one (numba's own cache folder, by NUMBA_CACHE_DIR), a filled one as filled
    probe = "from starlib._kernels import kernels_cached; print(kernels_cached())"
    empty = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                           env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")})
    assert empty.stdout.split() == ["False"]
    from starlib import _kernels
    from starlib.cli.main import main

    _kernels.edst_certificate(2, [[0, 1]], [[[0, 1]]])  # the verifier's kernel, compiled or loaded here
    assert _kernels.kernels_cached()
    subprocess.run([sys.executable, "-m", "starlib", "edsts", "slimfly", "q=5", "-o", "t.json", "--quiet"],
                   check=True, cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_kernels, "kernels_cached", lambda: False)
    monkeypatch.setenv("STARLIB_PROGRESS", "0")  # a script's log: nothing said
    assert main(["verify", "t.json"]) == 0
    assert "compiling" not in capsys.readouterr().err
    monkeypatch.setenv("STARLIB_PROGRESS", "1")  # where progress is shown
    assert main(["verify", "t.json"]) == 0
    assert "compiling starlib's kernels for this machine, once" in capsys.readouterr().err
    assert main(["verify", "t.json", "--quiet"]) == 0
    assert "compiling" not in capsys.readouterr().err
