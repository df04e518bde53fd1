"""The memory estimate bounds the real peak of a fresh ``starlib`` process.

``--max-memory`` is a bound only if the estimate it is compared with (the verb's baseline, the interpreter and its
libraries, plus the family's data model, plus the trees for ``edsts``: :mod:`starlib.memory`) is at least the peak
resident set of the run. Each case runs the command line in a fresh interpreter that reads its own high-water mark
(``VmHWM`` in ``/proc/self/status``, the measure :class:`starlib.sweep.memory.PeakMemory` reads) when the verb has
returned, once with ``NUMBA_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`` and once without, and the worse of the two must
not exceed the estimate.

Every family the command line lists is built at a small size (the baseline dominates; with the default threads
only, to keep the run within a minute on two cores); the larger sizes, where the data dominate (10^5 to 2 * 10^6
edges, a few seconds each), and the small ones with one thread are marked ``slow`` (``pytest -m slow``). ``edsts`` runs
on K_n, Slim Fly, ER_q, a PolarStar and the star graph at two sizes (the larger ``slow``), ``info`` on three
small networks.

Independent reference: the kernel's own count of the process's resident pages, nothing starlib computes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from starlib.cli.commands import families
from starlib.memory import edst_size, format_bytes, process_baseline
from starlib.registry import parse_params

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="VmHWM needs Linux /proc")

#: The child: the command line in-process (``starlib.cli.main.main``), then its own peak resident set in bytes.
CHILD = """
import sys
from starlib.cli.main import main
status = main(sys.argv[1:])
with open("/proc/self/status") as fh:
    kib = next(int(line.split()[1]) for line in fh if line.startswith("VmHWM:"))
print("PEAK", status, kib * 1024)
"""

#: Every family of ``starlib networks``: (family, small parameters, larger parameters).
BUILD_CASES = [
    ("complete", "n=10", "n=2000"),
    ("complete-bipartite", "n=5", "n=1400"),
    ("cycle", "n=10", "n=400000"),
    ("paley", "q=13", "q=2017"),
    ("mms-supernode", "q=5", "q=2003"),
    ("mms-supernode-prime", "q=5", "q=2003"),
    ("polarfly", "q=3", "q=127"),
    ("inductive-quad", "d=3", "d=1000"),
    ("bdf", "d=3", "d=400"),
    ("chimera-graph", "rows=2 cols=2", "rows=150 cols=150"),
    ("slimfly", "q=5", "q=101"),
    ("slimfly-hafner", "q=5", "q=101"),
    ("bundlefly", "q=5 paley_q=5", "q=37 paley_q=29"),
    ("polarstar", "q=3 d=3", "q=31 d=28 loops=1"),  # the most bytes per edge measured (115)
    ("polarstar-paley", "q=3 paley_q=5", "q=47 paley_q=29"),
    ("polarstar-iq", "q=3 d=3", "q=47 d=15"),
    ("complete-paley", "n=2 q=5", "n=100 q=101"),
    ("hyperx", "sizes=4,4", "sizes=40,40,40"),
    ("torus", "sizes=4,4", "sizes=400,400"),
    ("chimera", "rows=2 cols=2", "rows=102 cols=100"),
    ("hypercube", "n=3", "n=16"),
    ("mesh", "sizes=4,4", "sizes=500,500"),
    ("fat-tree", "k=2 n=2", "k=16 n=4"),
    ("dragonfly", "a=4 p=2 h=2", "a=40 p=1 h=20"),
    ("jellyfish", "n=10 r=3", "n=100000 r=10"),
    ("cartesian", "G=complete:n=4 H=paley:q=5", "G=complete:n=100 H=complete:n=100"),
    ("star", "k=4", "k=9"),
    ("bubble-sort", "k=4", "k=9"),
    ("transposition", "k=4", "k=8"),
    ("insertion-selection", "k=4", "k=8"),
    ("macro-star", "l=2 n=1", "l=2 n=4"),
    ("rotation-star", "l=2 n=1", "l=2 n=4"),
    ("complete-rotation-star", "l=2 n=1", "l=2 n=4"),
    ("macro-rotator", "l=2 n=1", "l=2 n=4"),
    ("rotation-rotator", "l=2 n=1", "l=2 n=4"),
    ("complete-rotation-rotator", "l=2 n=1", "l=2 n=4"),
    ("macro-insertion-selection", "l=2 n=1", "l=2 n=4"),
    ("rotation-insertion-selection", "l=2 n=1", "l=2 n=4"),
    ("complete-rotation-insertion-selection", "l=2 n=1", "l=2 n=4"),
    ("netdesign-tree", "N=17 m=5", "N=600 m=8 n=2"),
    ("netdesign-chain", "N=11 m=5", "N=100000 m=8"),
    ("netdesign-random", "N=12 n=2 M=6 m=6", "N=20000 n=2 M=10000 m=8"),
]

#: ``edsts`` (``--method auto``) on K_n, Slim Fly, ER_q, a PolarStar (a product) and the star graph (super Cayley).
EDST_CASES = [
    ("complete", "n=10", "n=1000"),
    ("slimfly", "q=5", "q=49"),
    ("polarfly", "q=5", "q=61"),
    ("polarstar", "q=3 d=3", "q=29 paley_q=13"),
    ("star", "k=4", "k=7"),
]

_THREADS_1 = {"NUMBA_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}


def estimate(verb: str, name: str, words: str) -> int:
    """What the command line checks against ``--max-memory``: the verb's baseline plus the data."""
    fam = families()[name]
    size = fam.estimate(parse_params(fam, words.split()))
    return process_baseline(verb) + (edst_size(size) if verb == "edsts" else size).peak_bytes


def peak(verb: str, name: str, words: str, out: str, both: bool = True) -> int:
    """The worse peak resident set of a fresh process running ``starlib VERB NAME WORDS``, with the default
    threads and (``both``) with one numba and OpenBLAS thread."""
    argv = [verb, name, *words.split(), "-q", *(["-o", out] if verb != "info" else [])]
    worst = 0
    for extra in ({}, _THREADS_1) if both else ({},):
        env = {k: v for k, v in os.environ.items() if k not in _THREADS_1} | extra
        p = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, env=env, timeout=600)
        line = p.stdout.strip().splitlines()[-1].split() if p.stdout.strip() else []
        assert p.returncode == 0 and line[:2] == ["PEAK", "0"], (argv, p.stdout[-300:], p.stderr[-500:])
        worst = max(worst, int(line[2]))
    return worst


def check(verb: str, name: str, words: str, tmp_path, both: bool = True) -> None:
    est = estimate(verb, name, words)
    measured = peak(verb, name, words, str(tmp_path / "out.json"), both)
    assert measured <= est, (f"starlib {verb} {name} {words}: peak {format_bytes(measured)} over the estimate "
                             f"{format_bytes(est)}")


def test_every_family_is_measured():
    """The cases cover exactly the families the command line lists (a new family needs its two sizes here)."""
    assert sorted(name for name, _, _ in BUILD_CASES) == sorted(families())


@pytest.mark.parametrize("name, words", [(n, s) for n, s, _ in BUILD_CASES], ids=[n for n, _, _ in BUILD_CASES])
def test_build_small_fits_the_estimate(name, words, tmp_path):
    """The default threads only (the more threads on this machine), to keep the run short; the slow test below
    measures both settings."""
    check("build", name, words, tmp_path, both=False)


@pytest.mark.slow
@pytest.mark.parametrize("name, words", [(n, s) for n, s, _ in BUILD_CASES], ids=[n for n, _, _ in BUILD_CASES])
def test_build_small_fits_the_estimate_with_one_thread(name, words, tmp_path):
    check("build", name, words, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name, words", [(n, b) for n, _, b in BUILD_CASES], ids=[n for n, _, _ in BUILD_CASES])
def test_build_large_fits_the_estimate(name, words, tmp_path):
    check("build", name, words, tmp_path)


@pytest.mark.parametrize("name, words", [(n, s) for n, s, _ in EDST_CASES], ids=[n for n, _, _ in EDST_CASES])
def test_edsts_small_fits_the_estimate(name, words, tmp_path):
    check("edsts", name, words, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("name, words", [(n, b) for n, _, b in EDST_CASES], ids=[n for n, _, _ in EDST_CASES])
def test_edsts_large_fits_the_estimate(name, words, tmp_path):
    check("edsts", name, words, tmp_path)


@pytest.mark.parametrize("name, words", [("slimfly", "q=5"), ("polarfly", "q=27"), ("star", "k=6")])
def test_info_fits_the_estimate(name, words, tmp_path):
    """``info`` runs numba's BFS kernels for the diameter: its own, larger baseline."""
    check("info", name, words, tmp_path)


def test_the_issue_example_is_refused_up_front(tmp_path):
    """``starlib edsts complete n=4000 --max-memory 490M`` (old estimate 489 MiB, peak 785 MiB) is refused before
    anything is built: status 2, one line naming the estimate and the limit, nothing written."""
    out = tmp_path / "t.json"
    p = subprocess.run([sys.executable, "-m", "starlib", "edsts", "complete", "n=4000", "--max-memory", "490M", "-o",
                        str(out)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and not out.exists()
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "n=4000 is too large" in lines[0] and "over the memory limit of 490 MiB" in lines[0]
    assert format_bytes(estimate("edsts", "complete", "n=4000")) in lines[0]


def test_a_limit_below_the_baseline_says_so(tmp_path):
    """A limit the interpreter and libraries alone exceed refuses even the smallest network, and says why."""
    p = subprocess.run([sys.executable, "-m", "starlib", "build", "complete", "n=3", "--max-memory", "64M", "-o",
                        str(tmp_path / "k3.json")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "the memory limit of 64.0 MiB is too small" in p.stderr
    assert f"the interpreter and libraries alone take about {format_bytes(process_baseline('build'))}" in p.stderr
