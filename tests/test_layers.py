"""The package's floors, read from the source: every import (also inside functions) points down, and no circle.

The scanner parses every module of ``starlib/`` with :mod:`ast` (nothing is imported), resolves relative imports,
and checks each import against :data:`LAYERS`: a layer may import only the layers it lists. A package's
``__init__`` belongs to the package's layer. A second test plants violations in a copy of the package and shows
that the scanner reports them.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from tests.paths import ROOT as REPO

ROOT = REPO / "starlib"

#: layer -> (module prefixes, layers it may import). The first matching prefix wins, longest prefixes first.
#: ``edst`` has floors of its own: primitives (trees, the verifier, the exact packer), factor packings, product
#: constructions, the depth floor, and the methods on top (``starlib.edst`` itself re-exports from all of them).
_CORE = frozenset({"base", "graphs", "networks", "registry"})
_EDST = ("edst.primitives", "edst.factor", "edst.product", "edst.depth", "edst.methods")
LAYERS: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "base": (("starlib.validation", "starlib.primes", "starlib.memory", "starlib.interrupts", "starlib.family",
              "starlib._kernels", "starlib.graphs", "starlib.fields", "starlib.bounds", "starlib.figure_style"),
             frozenset({"base"})),
    "graphs": (("starlib.factors", "starlib.products"), frozenset({"base", "graphs"})),
    "networks": (("starlib.networks", "starlib.standard", "starlib.designs"),
                 frozenset({"base", "graphs", "networks"})),
    "registry": (("starlib.registry",), frozenset({"base", "graphs", "networks", "registry"})),
    **{floor: (prefixes, frozenset({"base", "graphs", *_EDST[: k + 1]})) for k, (floor, prefixes) in enumerate(zip(
        _EDST, [tuple(f"starlib.edst.{m}" for m in ("trees", "verify", "packing", "forest_union")),
                ("starlib.edst.factor",), ("starlib.edst.product",), ("starlib.edst.depth",),
                ("starlib.edst.methods", "starlib.edst.repair")], strict=True))},
    **{f"side.{d}": ((f"starlib.{d}",), _CORE | set(_EDST) | {f"side.{d}"}) for d in ("cayley", "netdesign",
                                                                                     "allreduce")},
    # files: starlib's JSON format and the exports (a collective schedule as MSCCL XML reads allreduce's Schedule);
    # only the command line and the sweeps import it
    "io": (("starlib.io",), _CORE | set(_EDST) | {"side.allreduce", "io"}),
    # sweeps on Dask into resumable records (writes files atomically); only the command line imports it
    "sweep": (("starlib.sweep",), frozenset({"base", "graphs", *_EDST, "io", "sweep"})),
    # the paper's records of families (the depth certificates) are written and read in starlib's own format
    "paper": (("starlib.paper",), _CORE | set(_EDST) | {"side.cayley", "side.netdesign", "side.allreduce", "io",
                                                        "paper"}),
    # the small user API (network, edsts, verify, export), re-exported by ``starlib`` itself
    "api": (("starlib.api",), _CORE | set(_EDST) | {"side.cayley", "side.netdesign", "side.allreduce", "io", "api"}),
    # the simulations on ns-3 and SimGrid (a side domain on top: the core, the allreduce schedules, io for its
    # records, the sweep floor (the schedules grid runs as Dask tasks into a resumable record), the user API, the
    # figure style of the base floor); only the command line imports it (starlib simulate, starlib sweep schedules)
    "side.netsim": (("starlib.netsim",), _CORE | set(_EDST) | {"side.allreduce", "io", "sweep", "api",
                                                               "side.netsim"}),
    "app": (("starlib.cli", "starlib.__main__"), frozenset()),  # the command line may import anything
}
#: ``starlib.edst`` itself (its ``__init__``) re-exports every floor: it counts as the top one; ``starlib`` re-exports
#: the user API.
_ALIASES = {"starlib.edst": "edst.methods", "starlib": "api"}
_PREFIXES = sorted(((p, layer) for layer, (ps, _) in LAYERS.items() for p in ps), key=lambda x: -len(x[0]))


def layer_of(module: str) -> str:
    """The layer of a module (a package root that re-exports counts as the layer of what it re-exports)."""
    if module in _ALIASES:
        return _ALIASES[module]
    for prefix, layer in _PREFIXES:
        if module == prefix or module.startswith(prefix + "."):
            return layer
    raise AssertionError(f"module {module} is in no layer: add it to LAYERS")


def modules(root: Path) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file under ``root`` (a directory named ``starlib``)."""
    out = {}
    for p in root.rglob("*.py"):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def imports(root: Path) -> dict[str, set[str]]:
    """Module -> the starlib modules it imports anywhere in its body (top level or inside functions)."""
    mods = modules(root)
    out: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    src = ".".join(base + ([node.module] if node.module else []))
                else:
                    src = node.module or ""
                # "from pkg import sub" imports the submodule when there is one
                targets = [f"{src}.{a.name}" if f"{src}.{a.name}" in mods else src for a in node.names]
            else:
                continue
            for t in targets:
                while t and t not in mods and "." in t:  # "starlib.x.attr" -> "starlib.x"
                    t = t.rpartition(".")[0]
                if t in mods and t != name and (t == "starlib" or t.startswith("starlib.")):
                    found.add(t)
        out[name] = found
    return out


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that goes to a layer its importer may not use."""
    bad = []
    for a, targets in sorted(graph.items()):
        la = layer_of(a)
        allowed = LAYERS[la][1]
        for b in sorted(targets):
            lb = layer_of(b)
            if la != "app" and lb not in allowed:
                bad.append(f"{a} ({la}) imports {b} ({lb})")
    return bad


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first = last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state and (c := visit(w)):
                return c
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state and (c := visit(v)):
            return c
    return None


def test_every_module_is_in_a_layer():
    for m in modules(ROOT):
        layer_of(m)


def test_imports_point_down_the_layers():
    assert layer_violations(imports(ROOT)) == []


def test_no_import_circle():
    assert find_cycle(imports(ROOT)) is None


def test_the_core_never_imports_paper_side_domains_or_the_command_line():
    graph = imports(ROOT)
    core = [m for m in graph if layer_of(m) in ("base", "graphs", "networks", "registry", "io")
            or layer_of(m).startswith("edst.")]
    assert len(core) > 20
    for m in core:
        banned = {"paper", "app", "sweep", "side.cayley", "side.netdesign", "side.allreduce", "side.netsim"}
        if layer_of(m) == "io":
            banned.discard("side.allreduce")  # the MSCCL export writes allreduce's Schedule
        assert not {layer_of(t) for t in graph[m]} & banned, m


def test_only_the_command_line_imports_the_simulation():
    graph = imports(ROOT)
    assert "starlib.netsim.simulate" in graph
    users = {m for m, targets in graph.items() if any(layer_of(t) == "side.netsim" for t in targets)}
    assert {layer_of(m) for m in users} <= {"side.netsim", "app"}, sorted(users)


def test_only_the_command_line_sweeps_the_simulation_and_the_user_api_import_io():
    """starlib.io sits on top of the core: the side domains and the core itself never import it; only the command
    line, the sweep floor above it (which writes its record atomically), the ns-3 simulation (its record too), the
    paper (the families of its depth certificates) and the user API (export, read) do."""
    graph = imports(ROOT)
    io_modules = [m for m in graph if layer_of(m) == "io"]
    assert {"starlib.io", "starlib.io.atomic", "starlib.io.json_format", "starlib.io.exports"} <= set(io_modules)
    users = {m for m, targets in graph.items() if any(layer_of(t) == "io" for t in targets)}
    assert {layer_of(m) for m in users} <= {"io", "sweep", "app", "api", "side.netsim", "paper"}, sorted(users)


def test_the_scanner_catches_planted_violations(tmp_path):
    """A copy of the package with an upward import inside a function and a circle: both are reported."""
    root = tmp_path / "starlib"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    assert layer_violations(imports(root)) == [] and find_cycle(imports(root)) is None
    graphs = root / "graphs.py"
    graphs.write_text(graphs.read_text() + "\n\ndef _planted():\n    from .paper.tables import write_table\n"
                      "    return write_table\n")
    trees = root / "edst" / "trees.py"
    trees.write_text(trees.read_text() + "\n\ndef _planted():\n    from .product import auto\n    return auto\n")
    auto = root / "edst" / "product" / "auto.py"  # inside edst: the product floor reaching up to the depth floor
    auto.write_text(auto.read_text() + "\n\ndef _planted():\n    from ..depth import improve_depth\n"
                    "    return improve_depth\n")
    factor = root / "edst" / "factor" / "choose.py"  # and the factor floor reaching up to the methods
    factor.write_text(factor.read_text() + "\n\ndef _planted():\n    from ..methods import METHODS\n"
                      "    return METHODS\n")
    timing = root / "allreduce" / "timing.py"
    timing.write_text(timing.read_text() + "\n\ndef _planted():\n    from ..io import write_json\n"
                      "    return write_json\n")
    bad = layer_violations(imports(root))
    assert "starlib.allreduce.timing (side.allreduce) imports starlib.io (io)" in bad
    assert "starlib.graphs (base) imports starlib.paper.tables (paper)" in bad
    assert "starlib.edst.trees (edst.primitives) imports starlib.edst.product.auto (edst.product)" in bad
    assert "starlib.edst.product.auto (edst.product) imports starlib.edst.depth (edst.depth)" in bad
    assert "starlib.edst.factor.choose (edst.factor) imports starlib.edst.methods (edst.methods)" in bad
    cycle = find_cycle(imports(root))
    assert cycle is not None and cycle[0] == cycle[-1] and "starlib.edst.trees" in cycle


def private_imports(root: Path) -> list[str]:
    """Every import of a ``_private`` name (one underscore, not a dunder) from another module of the package.

    ``from .x import _name`` and ``import`` of a private attribute chain such as ``x._name`` both count; a private
    *module* (``starlib._kernels``) may be imported, a private name from it may not.
    """
    mods = modules(root)
    bad = []
    for name, path in sorted(mods.items()):
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    src = ".".join(base + ([node.module] if node.module else []))
                else:
                    src = node.module or ""
                if not (src == "starlib" or src.startswith("starlib.")):
                    continue
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__") and f"{src}.{a.name}" not in mods:
                        bad.append(f"{name} imports {a.name} from {src}")
            elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                # module._name on an imported starlib module (e.g. ``_kernels._csr``)
                target = node.value
                if isinstance(target, ast.Name) and target.id in _imported_modules(path, mods):
                    bad.append(f"{name} uses {target.id}.{node.attr}")
    return bad


def _imported_modules(path: Path, mods: dict[str, Path]) -> set[str]:
    """Local names that are bound to starlib modules in this file (``from . import x``, ``import starlib.x as y``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("starlib")):
            out.update(a.asname or a.name for a in node.names if any(m.endswith("." + a.name) for m in mods))
        elif isinstance(node, ast.Import):
            out.update(a.asname or a.name for a in node.names if a.name.startswith("starlib"))
    return out


def test_no_module_imports_a_private_name_from_another():
    assert private_imports(ROOT) == []


def test_the_private_import_scanner_catches_planted_ones(tmp_path):
    root = tmp_path / "starlib"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    assert private_imports(root) == []
    target = root / "edst" / "factor" / "er" / "stream.py"
    target.write_text(target.read_text() + "\n\nfrom .layout import _planted_helper  # noqa\n")
    verify = root / "edst" / "verify.py"
    verify.write_text(verify.read_text() + "\n\ndef _planted():\n    from .. import _kernels\n"
                      "    return _kernels._planted_kernel\n")
    bad = private_imports(root)
    assert "starlib.edst.factor.er.stream imports _planted_helper from starlib.edst.factor.er.layout" in bad
    assert "starlib.edst.verify uses _kernels._planted_kernel" in bad
