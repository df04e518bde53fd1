"""starlib's command line: ``python -m starlib networks | build | info | edsts | verify``.

The verbs, names and JSON format are those of ``docs/formats.md``. Every error prints one
line to standard error (``error: q=6 is not a prime power``), writes nothing and exits with
status 2; a verification that finds a broken tree exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .graphs import jsonable
from .registry import NETWORK_FAMILIES, Family, get_family, parse_params

__all__ = ["main", "families", "parse_params", "graph_to_json", "build_network"]


class UsageError(ValueError):
    """A command-line mistake (reported like a ValueError)."""


def families() -> dict[str, Family]:
    """Every family the command line builds: the core library's, then the super Cayley and network-design ones."""
    from . import cayley, netdesign

    return {**NETWORK_FAMILIES, **cayley.NETWORK_FAMILIES, **netdesign.NETWORK_FAMILIES}


def build_network(name: str, pairs: Sequence[str]) -> tuple[Any, dict[str, Any]]:
    """Build the named network from ``KEY=VALUE`` words; returns (graph, params)."""
    fam = get_family(name, families())
    params = parse_params(fam, pairs)
    try:
        graph = fam.build(**params)
    except TypeError as exc:  # a builder signature mismatch is a usage error, not a crash
        raise UsageError(f"{name}: {exc}") from None
    return graph, params


def graph_to_json(graph: Any, network: str, params: dict[str, Any]) -> dict[str, Any]:
    """The interface's JSON object for a graph (no trees): sorted nodes and edges as labels."""
    labels = [jsonable(v) for v in graph.labels]
    return {"network": network, "params": jsonable(params), "nodes": labels,
            "edges": [[labels[u], labels[v]] for u, v in graph.edges.tolist()]}


def _info(graph: Any, network: str, params: dict[str, Any]) -> dict[str, Any]:
    n, m = graph.n, graph.m
    deg = graph.degrees()
    out: dict[str, Any] = {"network": network, "params": jsonable(params), "n": n, "m": m,
                           "degree_min": int(deg.min()) if n else 0, "degree_max": int(deg.max()) if n else 0,
                           "regular": bool(n and deg.min() == deg.max()), "directed": bool(graph.directed)}
    if not graph.directed and n >= 2:
        t = m // (n - 1)
        out["t"] = t
        out["r"] = m - t * (n - 1)
        try:
            from .bounds import upper_bound
            out["upper_bound"] = int(upper_bound(graph))
        except ImportError:
            out["upper_bound"] = t
    out["connected"] = bool(graph.is_connected())
    if out["connected"] and n * max(m, 1) <= 3 * 10**8:
        out["diameter"] = int(graph.diameter())
    return out


def _cmd_networks(_: argparse.Namespace) -> dict[str, Any]:
    fams = families()
    return {"networks": [{"name": f.name, "kind": f.kind, "summary": f.summary,
                          "params": {k: {"type": p.type.__name__, "rule": p.rule, "required": p.required,
                                         **({"default": jsonable(p.default)} if p.default is not None else {})}
                                     for k, p in f.params.items()}}
                         for f in sorted(fams.values(), key=lambda f: f.name)]}


def _cmd_edsts(a: argparse.Namespace) -> dict[str, Any]:
    from . import edst
    from .bounds import upper_bound

    graph, params = build_network(a.network, a.params)
    methods = edst.METHODS
    if a.method not in methods:
        raise UsageError(f"method={a.method} is not one of {', '.join(methods)}")
    trees = methods[a.method](graph)
    edst.check_edsts(graph, trees)
    obj = graph_to_json(graph, a.network, params)
    obj["trees"] = trees.to_json(graph.labels)
    obj["upper_bound"] = int(upper_bound(graph))
    obj["method"] = a.method
    return obj


def _cmd_verify(a: argparse.Namespace) -> tuple[dict[str, Any], int]:
    from .edst import verify_edsts
    from .graphs import ArrayGraph

    path = Path(a.file)
    try:
        obj = json.loads(path.read_text())
    except OSError as exc:
        raise UsageError(f"FILE={a.file}: cannot read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"FILE={a.file}: not JSON ({exc.msg} at line {exc.lineno})") from None
    for key in ("nodes", "edges", "trees"):
        if key not in obj:
            raise UsageError(f"FILE={a.file}: missing the key {key!r}")

    def key(v: Any) -> Any:
        return tuple(key(x) for x in v) if isinstance(v, list) else v

    nodes = [key(v) for v in obj["nodes"]]
    idx = {v: i for i, v in enumerate(nodes)}
    if len(idx) != len(nodes):
        raise UsageError(f"FILE={a.file}: a node is listed twice")

    def arr(pairs: Any, what: str) -> np.ndarray:
        try:
            return np.array([[idx[key(u)], idx[key(v)]] for u, v in pairs], dtype=np.int64).reshape(-1, 2)
        except KeyError as exc:
            raise UsageError(f"FILE={a.file}: {what} names the unknown node {exc.args[0]!r}") from None
        except (TypeError, ValueError):
            raise UsageError(f"FILE={a.file}: {what} is not a list of [u, v] pairs") from None

    graph = ArrayGraph.from_edges(nodes, arr(obj["edges"], "edges"))
    trees = [arr(t.get("edges", []), f"tree {i}") for i, t in enumerate(obj["trees"])]
    report = verify_edsts(graph, trees)
    verdict = {"file": str(path), "valid": bool(report.valid), "trees": len(trees), "n": graph.n, "m": graph.m,
               "problems": list(report.problems)}
    return verdict, (0 if report.valid else 1)


def _write(obj: Any, out: str | None) -> None:
    text = json.dumps(obj, separators=(",", ":")) + "\n"
    if out:
        Path(out).write_text(text)
    else:
        sys.stdout.write(text)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="starlib", description="Star-product networks and their edge-disjoint "
                                "spanning trees.")
    sub = p.add_subparsers(dest="verb", required=True)
    sub.add_parser("networks", help="list every network family, its parameters and their rules")
    for verb, hlp in (("build", "build a network and write its JSON"), ("info", "n, m, degrees, diameter, t, r, "
                                                                                 "upper bound"),
                      ("edsts", "build a network and its edge-disjoint spanning trees")):
        s = sub.add_parser(verb, help=hlp)
        s.add_argument("network")
        s.add_argument("params", nargs="*", metavar="KEY=VALUE")
        s.add_argument("-o", "--output", default=None)
        if verb == "edsts":
            s.add_argument("--method", default="auto")
    v = sub.add_parser("verify", help="check the trees of a JSON file (exit 0 if valid)")
    v.add_argument("file")
    return p




def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m starlib`` and the ``starlib`` script; returns the exit status."""
    parser = _parser()

    def fail(message: str) -> None:
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)

    parser.error = fail  # type: ignore[method-assign]
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for sp in action.choices.values():
            sp.error = fail  # type: ignore[method-assign]
    a = parser.parse_args(argv)
    status = 0
    try:
        if a.verb == "networks":
            obj = _cmd_networks(a)
        elif a.verb == "build":
            graph, params = build_network(a.network, a.params)
            obj = graph_to_json(graph, a.network, params)
        elif a.verb == "info":
            graph, params = build_network(a.network, a.params)
            obj = _info(graph, a.network, params)
        elif a.verb == "edsts":
            obj = _cmd_edsts(a)
        else:
            obj, status = _cmd_verify(a)
            sys.stderr.write(("valid: " if status == 0 else "INVALID: ") + f"{obj['trees']} trees on "
                             f"{obj['n']} vertices" + ("" if status == 0 else f"; {obj['problems'][0]}") + "\n")
        _write(obj, getattr(a, "output", None))
    except (ValueError, ZeroDivisionError, OverflowError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        sys.stderr.write(f"error: {msg}\n")
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
