"""No result may depend on which SIMD kernel numpy picks on this CPU.

numpy runs its float64 transcendental functions (``power``, ``exp``, ``log``, ``sin``, ...) in kernels chosen at
run time from the CPU's features (``numpy.lib.introspect.opt_func_info`` lists them: ``power`` has an AVX-512
kernel and a baseline one, ``exp`` and ``log`` AVX-512, AVX2 and baseline). The kernels agree only to the last
bit or so: ``6.0 ** np.arange(40.)`` gives another ``6**34`` under AVX-512 than elsewhere. A value that decides a
discrete choice (a tie between two moves of a search) then gives other trees on another machine, and a committed
record stops reproducing there. Machines without AVX-512 cannot run the AVX-512 kernels, so no rerun here can
catch it; this test reads the source instead.

Every call of such a function on floats in ``starlib/`` (``np.exp(...)``, and ``x ** np.arange(...)`` without an
integer dtype) must say on its line, in a comment ``# cpu-stable: <why>``, why its last bit cannot reach a file or
a choice (rounded to the digits a reader sees, a figure coordinate, compiled by numba to the C library's
function). The test also plants an unmarked call to show that it can fail.
"""

from __future__ import annotations

import ast

from tests.paths import ROOT

#: numpy functions whose float64 loops are dispatched per CPU and are not correctly rounded
TRANSCENDENTAL = frozenset({"arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "cbrt", "cos",
                            "cosh", "exp", "exp2", "expm1", "float_power", "log", "log10", "log1p", "log2", "power",
                            "sin", "sinh", "tan", "tanh"})
MARK = "# cpu-stable:"


def _numpy_call(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            isinstance(node.func.value, ast.Name) and node.func.value.id in ("np", "numpy"):
        return node.func.attr
    return None


def unmarked(source: str) -> list[tuple[int, str]]:
    """``(line, what)`` of every CPU-dispatched float call in ``source`` whose line lacks the mark."""
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        what = None
        name = _numpy_call(node)
        if name in TRANSCENDENTAL:
            what = f"np.{name}"
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            for side in (node.left, node.right):
                if _numpy_call(side) and not any(k.arg == "dtype" and "int" in ast.unparse(k.value)
                                                 for k in side.keywords):
                    what = "** on a numpy array"
        if what and MARK not in lines[node.lineno - 1]:
            out.append((node.lineno, what))
    return sorted(set(out))


def test_every_dispatched_float_call_is_marked() -> None:
    bad = []
    for p in sorted((ROOT / "starlib").rglob("*.py")):
        bad += [f"{p.relative_to(ROOT)}:{line}: {what}" for line, what in unmarked(p.read_text())]
    assert not bad, "unmarked CPU-dependent float calls (see this test's docstring):\n" + "\n".join(bad)


def test_the_check_can_fail() -> None:
    planted = "import numpy as np\npw = 6.0 ** np.arange(40, dtype=np.float64)\ny = np.exp(x)\nz = 3 ** np.arange(4)\n"
    assert unmarked(planted) == [(2, "** on a numpy array"), (3, "np.exp"), (4, "** on a numpy array")]
    ok = "import numpy as np\nw = 3 ** np.arange(4, dtype=np.int64)\ny = np.exp(x)  # cpu-stable: rounded\n"
    assert unmarked(ok) == []


def test_numpy_still_dispatches_these() -> None:
    # the premise, read off numpy itself: power and exp have kernels beyond the baseline
    from numpy.lib.introspect import opt_func_info

    info = opt_func_info(func_name="^(power|exp)$", signature="float64")
    for name in ("power", "exp"):
        targets = " ".join(v["available"] for v in info[name].values())
        assert "AVX512" in targets, (name, targets)


def test_the_depth_search_powers_are_exact() -> None:
    # the search's potential uses correctly rounded powers, the same on every CPU
    from fractions import Fraction

    from starlib.edst.depth.search import exact_powers

    for base in (6.0, 3.0, 20.0):
        p = exact_powers(base, 400, 1e300)
        for i in (23, 34, 61, 200):
            want = float(Fraction(base) ** i) if Fraction(base) ** i < 1e300 else 1e300
            assert p[i] == want, (base, i)

