"""The ``starlib`` command: argument parsing, the verbs, exit statuses and the one-line error rule.

Exit statuses: 0 success; 1 ``verify`` found a broken tree; 2 bad input of any kind (one line on standard error,
nothing written), an optional package missing (the line names the extra: ``pip install 'starlib[sweep]'``), or a
file the system would not let starlib read or write (a full disk, a read-only file, a size limit: the line names
the file and the cause; any previous file is unchanged);
130 interrupted (Ctrl-C), 143 terminated (SIGTERM), in both cases with no partial file; 70 an internal error (a
bug: please report it; ``STARLIB_TRACEBACK=1`` shows the traceback).

Every output file is checked before any work (its folder exists, it is not a folder or a device, a file can be
created there, an existing file is one the user may change) and written atomically: a temporary file in the same
folder, renamed over the target when whole.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["main", "parser"]

EXAMPLES = {
    "networks": ["starlib networks", "starlib networks --json > families.json"],
    "build": ["starlib build slimfly q=5 -o mms5.json",
              "starlib build bundlefly q=7 paley_q=5 --format anynet --option nodes_per_router=4 -o bf.anynet",
              "starlib build polarstar-iq q=3 d=3 --format graphml -o ps.graphml",
              "starlib build my.graphml --format anynet -o my.anynet     # a file in, another format out",
              "starlib build net.txt --input-format edgelist -o net.json"],
    "info": ["starlib info slimfly q=29", "starlib info polarfly q=1024 --json", "starlib info polarstar q=3 d=3",
             "starlib info my.graphml", "starlib info anynet_file --input-format anynet"],
    "edsts": ["starlib edsts bundlefly q=29 paley_q=29 -o t.json",
              "starlib edsts slimfly q=7 --method maximum --format tree-edgelist -o trees.txt",
              "starlib edsts torus sizes=4,4 --format parents", "starlib edsts star k=6 --method generic",
              "starlib edsts slimfly q=13 --method shallow -o shallow.json",
              "starlib edsts my.graphml --method shallow -o trees.json",
              "starlib edsts my.graphml --format graphml -o trees.graphml"],
    "improve": ["starlib improve t.json -o shallow.json", "starlib improve t.json --seed 3 --format parents",
                "starlib improve trees.graphml -o shallow.json"],
    "export": ["starlib export t.json --format msccl-xml -o allreduce.xml   # the file's trees, unchanged",
               "starlib export repaired.json -o allreduce.xml --option chunks=8   # the format read off the suffix",
               "starlib export trees.graphml --format routes -o routes.json",
               "starlib export t.json --format astra-ns3 --option hosts_per_router=4 -o net.txt",
               "starlib export t.json --format astra-ns3-map --option hosts_per_router=4 -o net.map"],
    "verify": ["starlib verify t.json", "starlib verify t.json --json", "starlib verify trees.graphml"],
    "sweep": ["starlib sweep er --q-max 128 -o er.csv", "starlib sweep er --q-max 1024 -o data/er_sweep.csv",
              "starlib sweep er --q-min 512 --family low-depth --scheduler tcp://10.0.0.5:8786 -o er.csv",
              "starlib sweep er --q-max 64 --check-record 5 -o data/er_sweep.csv   # recompute 5 rows, compare",
              "starlib sweep schedules -o data/schedules.csv --workers 2"],
}


class UsageError(Exception):
    """A command-line mistake found by the parser (reported like a ValueError: one line, exit 2)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors raise :class:`UsageError` and whose epilog is computed when help is shown."""

    def __init__(self, *args: Any, epilog_fn: Callable[[], str] | None = None, **kw: Any) -> None:
        kw.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kw)
        self._epilog_fn = epilog_fn

    def format_help(self) -> str:
        if self._epilog_fn is not None:
            self.epilog, self._epilog_fn = self._epilog_fn(), None
        return super().format_help()

    def error(self, message: str) -> Any:  # argparse's own: usage + message + exit 2
        raise UsageError(message.splitlines()[0] if message else "bad arguments")


def _examples(verb: str) -> str:
    return "examples:\n" + "\n".join(f"  {e}" for e in EXAMPLES[verb])


def _formats_text(trees: bool) -> str:
    from ..io import FORMATS

    rows = [f for f in FORMATS.values() if trees or f.trees != "required"]
    out = ["formats (--format):"]
    for f in rows:
        opts = f"  [--option {', '.join(o + '=' for o in f.options)}]" if f.options else ""
        out.append(f"  {f.name:<14} {f.summary}{opts}")
    return "\n".join(out)


def _methods_text() -> str:
    from ..edst import METHODS

    out = ["methods (--method):"]
    for m in sorted(METHODS.values(), key=lambda m: m.name != "auto"):  # the default first
        out += textwrap.wrap(m.summary, 100, initial_indent=f"  {m.name:<14} ", subsequent_indent=" " * 17)
    return "\n".join(out)


def _network_help() -> str:
    return "network families: starlib networks (names, parameters and their rules)"


def _input_formats_text(trees: bool = False) -> str:
    from ..io import INPUT_FORMATS

    rows = [f for f in INPUT_FORMATS.values() if f.trees or not trees]
    head = ("a file of trees (--input-format; default from its suffix):" if trees else
            "or a network file instead of a family (--input-format; default from its suffix):")
    out = [head]
    for f in rows:
        out += textwrap.wrap(f"{f.summary} [{' '.join(f.suffixes)}]", 100, initial_indent=f"  {f.name:<14} ",
                             subsequent_indent=" " * 17)
    return "\n".join(out)


def _output_parser(default_format: str | None) -> argparse.ArgumentParser:
    """The options of a verb that writes a file: ``-o``, ``--format`` (``default_format``; None: read off the
    suffix of ``-o``) and ``--option``.

    >>> _output_parser(None).parse_args(["-o", "a.xml"]).format is None
    True
    """
    out = argparse.ArgumentParser(add_help=False)
    out.add_argument("-o", "--output", metavar="FILE", default="-",
                     help="file to write atomically (default '-': standard output)")
    out.add_argument("--format", default=default_format, metavar="FORMAT",
                     help=f"output format (below; default {default_format})" if default_format else
                     "output format (below; default: the one the suffix of -o names)")
    out.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                     help="an option of the format, e.g. nodes_per_router=4 for anynet")
    return out


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``starlib`` (help texts list methods and formats when shown).

    >>> parser().parse_args(["edsts", "slimfly", "q=5", "-o", "t.json"]).method
    'auto'
    """
    from .. import __version__

    p = _Parser(prog="starlib", description="Star-product networks and their edge-disjoint spanning trees "
                "(EDSTs): build a network, inspect it, pack and export its trees, verify a file of trees.",
                epilog_fn=lambda: "\n\n".join(["verbs: starlib VERB --help for each verb's options and examples",
                                               _network_help(),
                                               "exit status: 0 ok, 1 verify found a broken tree (or sweep "
                                               "--check-record a row that differs), 2 bad input or a file the "
                                               "system refuses (a full disk, a read-only file: one line on stderr, "
                                               "nothing written), 130 interrupted"]))
    p.add_argument("--version", action="version", version=f"starlib {__version__}")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true", help="no progress bar, warnings or 'wrote' line")
    common.add_argument("--max-memory", metavar="SIZE", default=None,
                        help="refuse networks whose run is estimated above SIZE, the interpreter and libraries "
                             "included (8G, 512M, bytes; default a quarter of the machine's memory)")
    input_format = argparse.ArgumentParser(add_help=False)
    input_format.add_argument("--input-format", metavar="FORMAT", default=None,
                              help="the format of the input file (below; default: read off its suffix)")
    network = argparse.ArgumentParser(add_help=False, parents=[input_format])
    network.add_argument("network", help="a family name (starlib networks lists them), or a network file: GraphML, "
                                         "GML, an edge list, node-link or starlib JSON, a BookSim anynet file")
    network.add_argument("params", nargs="*", metavar="KEY=VALUE", help="the family's parameters, e.g. q=5")
    output = _output_parser("json")
    as_json = argparse.ArgumentParser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="JSON for programs instead of text for people")

    sub.add_parser("networks", parents=[common, as_json], help="list the network families and their parameters",
                   description="List every network family: name, summary, parameters and their rules.",
                   epilog_fn=lambda: _examples("networks"))
    sub.add_parser("build", parents=[common, network, output], help="build a network and write it",
                   description="Build a network and write its topology (starlib JSON, or an export format); "
                   "given a network file, convert it (its node ids name the vertices: docs/formats.md §8).",
                   epilog_fn=lambda: "\n\n".join([_formats_text(False), _network_help(), _input_formats_text(),
                                                  _examples("build")]))
    i = sub.add_parser("info", parents=[common, network, as_json],
                       help="vertices, links, degrees, diameter, EDST upper bound, cut ratio, strength",
                       description="Summarise a network: vertices, links, degrees, connectivity, diameter, the "
                       "EDST upper bound min(floor(m/(n-1)), minimum degree), and for unit links with every vertex "
                       "a compute node the exact cut ratio (ForestColl's allgather takes (M/N) cut ratio / b) and "
                       "strength (no allreduce beats M / (strength b)); docs/collectives.md.",
                       epilog_fn=lambda: "\n\n".join([_network_help(), _input_formats_text(), _examples("info")]))
    d = i.add_mutually_exclusive_group()
    d.add_argument("--diameter", dest="diameter", action="store_const", const=True, default=None,
                   help="compute the diameter however large the graph (default: up to 3e8 BFS steps)")
    d.add_argument("--no-diameter", dest="diameter", action="store_const", const=False, help="skip the diameter")
    o = i.add_mutually_exclusive_group()
    o.add_argument("--optimum", dest="optimum", action="store_const", const=True, default=None,
                   help="compute the cut ratio and the strength however large the graph (default: up to n m = 2e7, "
                        "the 1,000-router networks, a few seconds)")
    o.add_argument("--no-optimum", dest="optimum", action="store_const", const=False,
                   help="skip the cut ratio and the strength")
    e = sub.add_parser("edsts", parents=[common, network, output],
                       help="build a network, pack its edge-disjoint spanning trees, verify and write them",
                       description="Build a network (or read it from a file), construct its edge-disjoint spanning "
                       "trees, verify them and write them (starlib JSON by default). A network read from a file is "
                       "no star product: auto and generic give the exact maximum, shallow the most trees at the least "
                       "depth, and the product constructions (maximum, twisted, property, universal, low-depth) do not "
                       "apply.",
                       epilog_fn=lambda: "\n\n".join([_methods_text(), _formats_text(True), _network_help(),
                                                      _input_formats_text(), _examples("edsts")]))
    e.add_argument("--method", default="auto", metavar="METHOD", help="construction (below; default auto)")
    e.add_argument("--budget", default=None, metavar="SECONDS",
                   help="--method shallow: seconds its optional work may take (the exact packer, the deepening), "
                        "planned from estimates, so the same budget gives the same trees on every machine; default "
                        "none (up to a minute of exact packing, the full deepening)")
    im = sub.add_parser("improve", parents=[common, output, input_format],
                        help="make the trees of a file shallower (same count), verify and write them",
                        description="Read a file of edge-disjoint spanning trees (starlib JSON version 1 or 2, or "
                        "GraphML, GML or node-link JSON whose edges carry 'tree', from any method or program), run "
                        "the depth-reducing local search (exchanges with unused edges and between trees, each tree "
                        "re-rooted at its centre; the count is kept), verify the result and write it. The maximum "
                        "depth never grows.",
                        epilog_fn=lambda: "\n\n".join([_formats_text(True), _input_formats_text(True),
                                                       _examples("improve")]))
    im.add_argument("file", help="a file with trees (edsts writes one)")
    im.add_argument("--seed", default="0", metavar="N", help="seed of the local search (default 0)")
    ex = sub.add_parser("export", parents=[common, _output_parser(None), input_format],
                        help="write the trees of a file, unchanged and verified, in any format",
                        description="Read a file of edge-disjoint spanning trees (starlib JSON version 1 or 2, or "
                        "GraphML, GML or node-link JSON whose edges carry 'tree': from edsts, improve, repair or any "
                        "program), verify them and write them in another format, the trees unchanged (edsts on the "
                        "same file would pack new ones). --format defaults to the one -o's suffix names (.json, "
                        ".graphml, .gml, .anynet, .edges, .parents, .xml for msccl-xml). A file whose trees fail "
                        "verification is refused and nothing is written.",
                        epilog_fn=lambda: "\n\n".join([_formats_text(True), _input_formats_text(True),
                                                       _examples("export")]))
    ex.add_argument("file", help="a file with trees (edsts, improve or repair writes one)")
    from .repair import add_repair_parser

    add_repair_parser(sub, [common, output, input_format], lambda: "\n\n".join([_formats_text(True),
                                                                               _input_formats_text(True)]))
    from .simulate import add_simulate_parser

    add_simulate_parser(sub, [common, network, as_json], lambda: "\n\n".join([_network_help(),
                                                                             _input_formats_text()]))
    v = sub.add_parser("verify", parents=[common, as_json, input_format], help="check the trees of a file",
                       description="Check that a file of trees (starlib JSON version 1 or 2, or GraphML, GML or "
                       "node-link JSON whose edges carry 'tree') holds edge-disjoint spanning trees of its graph. Exit "
                       "0 if valid, 1 if a tree is broken, 2 if the file is not a network file with trees.",
                       epilog_fn=lambda: "\n\n".join([_input_formats_text(True), _examples("verify")]))
    v.add_argument("file", help="the file edsts wrote")
    sw = sub.add_parser("sweep", parents=[common], help="verify a family of networks as Dask tasks into a resumable "
                        "record", description="Run a sweep: one Dask task per parameter point, on a local cluster of "
                        "worker processes or on the Dask scheduler at --scheduler. Each finished point becomes a row "
                        "of the CSV record (-o), rewritten atomically as it arrives; a rerun skips the points the "
                        "record holds. 'er': every prime power q in --q-min .. --q-max, each EDST family of ER_q "
                        "(PolarFly) built and verified tree by tree, with its depth, a SHA-256 of its trees, the "
                        "time and the peak memory. Several runs may share a record (it is locked around each "
                        "write). Exit 0 done, 1 a point failed (or, with --check-record, a row differs), 2 bad "
                        "input.", epilog_fn=lambda: _examples("sweep"))
    sw.add_argument("sweep", metavar="SWEEP", help="what to sweep: er (ER_q's EDST families) or schedules (every "
                    "allreduce schedule on the networks of notebook 16, both simulators: make schedules)")
    sw.add_argument("--q-min", default="2", metavar="Q", help="smallest q (default 2)")
    sw.add_argument("--q-max", default="1024", metavar="Q", help="largest q (default 1024)")
    sw.add_argument("--family", action="append", default=None, metavar="FAMILY",
                    help="hamiltonian or low-depth; repeat for both (default both)")
    sw.add_argument("-o", "--output", metavar="FILE", required=True, help="the record (CSV): resumed if it exists")
    sw.add_argument("--scheduler", metavar="ADDRESS", default=None,
                    help="a running Dask scheduler, e.g. tcp://host:8786 (default: a local cluster)")
    sw.add_argument("--workers", default="2", metavar="N", help="worker processes of the local cluster (default 2)")
    sw.add_argument("--check-record", metavar="N", default=None,
                    help="compute nothing new: recompute N rows of the record -o (a seeded sample of the rows in "
                    "--q-min .. --q-max and --family) in this process and compare every column but the times; one "
                    "line per row that differs; exit 1 if one differs, 0 if all agree. The record is not written")
    return p


def _max_memory(text: str | None) -> int | None:
    from ..validation import parse_bytes

    return None if text is None else parse_bytes(text, "--max-memory")


def _format_options(fmt: str, words: Sequence[str], trees: bool) -> dict[str, Any]:
    """Check ``--format`` and ``--option`` before any work; the options as keyword arguments."""
    from ..io import FORMATS
    from ..validation import parse_int

    if fmt not in FORMATS:
        raise ValueError(f"--format={fmt!r} is not one of {', '.join(FORMATS)}")
    f = FORMATS[fmt]
    if f.trees == "required" and not trees:
        raise ValueError(f"--format={fmt!r} writes trees: use starlib export FILE (a file's trees) or starlib edsts "
                         f"(new trees); build writes no trees")
    out: dict[str, Any] = {}
    for w in words:
        key, eq, text = w.partition("=")
        if not eq or key not in f.options:
            takes = ", ".join(o + "=N" for o in f.options) or "no option"
            raise ValueError(f"--option {w!r}: format {fmt} takes {takes}")
        if key in out:
            raise ValueError(f"--option {key} is given twice ({key}={out[key]} and {w!r}): give each option once")
        out[key] = text if (key, text) in f.words else parse_int(text, key)  # a declared word (chunks=lcm)
    if f.check is not None:  # the values against the format's rules, before any work
        f.check(**out)
    return out


def _target(output: str) -> str | None:
    """None for standard output, else the path, checked writable before any work (:func:`starlib.io.check_target`:
    an existing file must be one the user may change, a symbolic link is followed, a dangling one refused)."""
    from ..io import check_target

    if output == "-":
        return None
    check_target(output, "--output")
    return output


def _emit(data: bytes, target: str | None) -> int:
    """Write ``data`` to the target atomically (or to standard output); the bytes written."""
    from ..interrupts import INTERRUPTS

    INTERRUPTS.raise_pending()  # an interrupt swallowed during the work stops the run before anything is written
    if target is None:
        if sys.stdout is None:  # started with standard output closed (>&-)
            raise ValueError("--output='-': standard output is closed; give a file with -o PATH")
        try:
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except BrokenPipeError:  # the reader went away (| head): main() ends quietly with status 141
            raise
        except OSError as exc:  # > /dev/full, a full disk under a redirection
            raise ValueError(f"--output='-' (standard output): cannot write ({exc.strerror or exc})") from None
    else:
        from ..io import atomic_write

        atomic_write(target, data, "--output")
    return len(data)


def _terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a person reading), not a file or a pipe (a program)."""
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # a replaced or closed stream
        return False


def _say(a: argparse.Namespace, line: str) -> None:
    if not a.quiet:
        sys.stderr.write(line + "\n")


#: The verbs that run compiled kernels (packing, verification, the depth search, the simulators' set-up).
_KERNEL_VERBS = ("edsts", "verify", "repair", "improve", "export", "simulate")


def _compile_note(a: argparse.Namespace) -> None:
    """Say, before a verb's work, that the kernels are being compiled when numba's cache does not hold them yet (where
    progress is shown: a script reading standard error gets the verb's own lines only)."""
    from .progress import progress_shown

    if a.verb not in _KERNEL_VERBS or getattr(a, "quiet", False) or not progress_shown(sys.stderr):
        return  # shown where progress is: a terminal, or STARLIB_PROGRESS=1 (a log)
    from .._kernels import kernels_cached

    if not kernels_cached():
        _say(a, "note: compiling starlib's kernels for this machine, once (about a minute; later runs load them from "
                "numba's cache)")


def _cmd_networks(a: argparse.Namespace) -> int:
    from .commands import families, networks_json
    from .text import families_text

    fams = families()
    if a.json:
        import json

        sys.stdout.write(json.dumps(networks_json(fams), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(families_text(list(fams.values())) + "\n")
    return 0


def _cmd_info(a: argparse.Namespace) -> int:
    from .commands import build_network, graph_info, is_file, read_network
    from .progress import Progress
    from .text import info_text

    if is_file(a.network, a.input_format):
        with Progress(["read", "measure"], a.quiet, desc=f"info {a.network}") as pr:
            pr.stage("read")
            nf = read_network(a.network, a.params, a.input_format)  # refused over --max-memory before reading
            pr.stage("measure")
            info = graph_info(nf.graph, None, nf.params, a.diameter, a.optimum, source=nf, path=a.network)
    else:
        with Progress(["build", "measure"], a.quiet, desc=f"info {a.network}") as pr:
            pr.stage("build")
            graph, params, fam = build_network(a.network, a.params)  # main set --max-memory (limit_memory)
            pr.stage("measure")
            info = graph_info(graph, fam, params, a.diameter, a.optimum)
    if a.json:
        import json

        sys.stdout.write(json.dumps(info) + "\n")  # ASCII: a file's strings reach the terminal escaped
    else:
        sys.stdout.write(info_text(info) + "\n")
    return 0


def _cmd_build(a: argparse.Namespace) -> int:
    from ..io import render
    from .commands import build_network, is_file, read_network, source_extra
    from .progress import Progress
    from .text import wrote_line

    options = _format_options(a.format, a.option, trees=False)
    target = _target(a.output)
    if is_file(a.network, a.input_format):  # a converter: the file's network in another format
        with Progress(["read", "write"], a.quiet, desc=f"build {a.network}") as pr:
            pr.stage("read")
            nf = read_network(a.network, a.params, a.input_format)
            pr.stage("write")
            size = _emit(render(a.format, nf.graph, None, network=nf.network, params=nf.params,
                                extra=source_extra(nf, a.network), **options), target)
        if target is not None:
            _say(a, wrote_line(target, size, nodes=int(nf.graph.n), fmt=a.format))
        return 0
    with Progress(["build", "write"], a.quiet, desc=f"build {a.network}") as pr:
        pr.stage("build")
        graph, params, fam = build_network(a.network, a.params)
        pr.stage("write")
        size = _emit(render(a.format, graph, None, network=fam.name, params=params, **options), target)
    if target is not None:
        _say(a, wrote_line(target, size, nodes=int(graph.n), fmt=a.format))
    return 0


def _pack(a: argparse.Namespace, pr: Any, graph: Any, method: Any, what: str) -> Any:
    """The trees of ``graph`` by ``method`` (its plan, a warning before a long run, progress), verified."""
    from ..bounds import upper_bound
    from ..edst import check_edsts
    from ..edst.methods import format_duration
    from .progress import WARN_SECONDS

    plan = method.plan(graph)
    if plan.seconds > WARN_SECONDS:
        pr.note(f"warning: edsts {what}: {plan.what} may take about {format_duration(plan.seconds)}; Ctrl-C stops "
                f"it and writes nothing")
    pr.stage("trees")
    trees = plan(lambda placed, wanted: pr.detail(f"{placed:,} of {wanted:,} tree edges"))
    if len(trees) == 0:  # a file of no trees proves nothing, and verify refuses it
        raise ValueError(f"method={a.method!r} builds no spanning tree for {what} (upper bound {upper_bound(graph)}); "
                         f"nothing written")
    pr.stage("verify")
    check_edsts(graph, trees)
    return trees


def _depth_extra(trees: Any) -> dict[str, Any]:
    """What ``--method optimal-depth`` proved about the depth, for the record (empty for the other methods).

    >>> from starlib.edst import METHODS
    >>> import networkx as nx
    >>> _depth_extra(METHODS["optimal-depth"](nx.wheel_graph(6)))
    {'depth_status': 'optimal', 'depth_lower_bound': 3, 'depth_model': 'cp-sat arborescence+levels'}
    >>> _depth_extra(METHODS["shallow"](nx.wheel_graph(6)))
    {}
    """
    meta = trees[0].meta if len(trees) else {}
    if "status" not in meta or "model" not in meta:
        return {}
    return {"depth_status": meta["status"], "depth_lower_bound": int(meta["lower_bound"]),
            "depth_model": meta["model"]}


def _cmd_edsts(a: argparse.Namespace) -> int:
    from ..bounds import upper_bound
    from ..edst import get_method
    from ..io import render
    from ..validation import printable
    from .commands import (
        deepest,
        depth_diameter,
        is_file,
        read_network,
        require_edst_network,
        require_star_product,
        resolve,
        source_extra,
    )
    from .progress import Progress
    from .text import depth_warning, edsts_summary, params_text, wrote_line

    options = _format_options(a.format, a.option, trees=True)
    target = _target(a.output)
    summary_only = target is None and _terminal(sys.stdout)  # the trees go to a file or a pipe, not a screen
    method = get_method(a.method)
    if a.budget is not None:
        from ..validation import parse_real

        method = method.configured(budget=parse_real(a.budget, "--budget", 0))
    if is_file(a.network, a.input_format):
        require_star_product(method, a.network)  # before reading: no file network is a star product
        with Progress(["read", "trees", "verify", "write"], a.quiet, desc=f"edsts {a.network}") as pr:
            pr.stage("read")
            nf = read_network(a.network, a.params, a.input_format)
            require_edst_network(nf, a.network)
            if nf.trees:  # the file's own trees are not what edsts writes: say so, and what keeps them
                pr.note(f"note: {printable(a.network, 200)} holds {len(nf.trees)} trees; edsts packs new ones "
                        f"(method {method.name}) and writes those; starlib export {printable(a.network, 200)} "
                        f"keeps the file's trees")
            graph, fam, what = nf.graph, None, a.network
            trees = _pack(a, pr, graph, method, what)
            pr.stage("write")
            extra = {**source_extra(nf, a.network), "upper_bound": int(upper_bound(graph)), "method": method.name,
                     **_depth_extra(trees)}
            size = 0 if summary_only else _emit(render(a.format, graph, trees, network=nf.network,
                                                       params=nf.params, extra=extra, **options), target)
    else:
        fam, params = resolve(a.network, a.params, trees=True)  # the trees' memory too, before building
        method.check_links(fam.estimate(params).m)  # an exact packing estimated over a day, refused before building
        with Progress(["build", "trees", "verify", "write"], a.quiet, desc=f"edsts {a.network}") as pr:
            pr.stage("build")
            graph, what = fam.build(**params), f"{fam.name} {params_text(params)}"
            trees = _pack(a, pr, graph, method, what)
            pr.stage("write")
            extra = {"upper_bound": int(upper_bound(graph)), "method": method.name, **_depth_extra(trees)}
            size = 0 if summary_only else _emit(render(a.format, graph, trees, network=fam.name, params=params,
                                                       extra=extra, **options), target)
    depth = deepest(trees)
    diameter, how = depth_diameter(graph, fam)
    warning = None if diameter is None else depth_warning(what, depth, diameter, how)
    if warning is not None:
        _say(a, warning)
    if target is not None:
        _say(a, wrote_line(target, size, trees=len(trees), nodes=int(graph.n), fmt=a.format)
             + f" (maximum depth {depth})")
    if summary_only:
        sys.stdout.write(edsts_summary(what, len(trees), int(graph.n), int(upper_bound(graph)), depth) + "\n")
    return 0


def _cmd_improve(a: argparse.Namespace) -> int:
    from ..edst import check_edsts
    from ..edst.depth import improve_depth
    from ..io import render
    from ..validation import check_int, parse_int
    from .commands import deepest, read_trees, require_edst_network
    from .progress import Progress
    from .text import wrote_line

    options = _format_options(a.format, a.option, trees=True)
    target = _target(a.output)
    seed = check_int(parse_int(a.seed, "seed"), "seed", minimum=0, rule="a seed >= 0")
    with Progress(["read", "improve", "verify", "write"], a.quiet, desc=f"improve {a.file}") as pr:
        pr.stage("read")
        nf = read_trees(a.file, a.input_format)
        require_edst_network(nf, a.file)
        pr.stage("improve")
        trees = improve_depth(nf.graph, nf.trees, seed=seed)
        pr.stage("verify")
        check_edsts(nf.graph, trees)
        pr.stage("write")
        method = str(nf.extra.get("method", "input"))
        extra = {**nf.extra, "method": method if method.endswith("+ls") else method + "+ls"}
        size = _emit(render(a.format, nf.graph, trees, network=nf.network, params=nf.params, extra=extra, **options),
                     target)
    if target is not None:
        before, after = deepest(nf.trees), deepest(trees)
        _say(a, wrote_line(target, size, trees=len(trees), nodes=int(nf.graph.n), fmt=a.format)
             + f" (maximum depth {before} -> {after})")
    return 0


def _cmd_export(a: argparse.Namespace) -> int:
    from ..api import suffix_format
    from ..edst import verify_edsts
    from ..io import render
    from ..validation import shorten
    from .commands import deepest, read_trees
    from .progress import Progress
    from .text import wrote_line

    if a.format is None:
        if a.output == "-":
            raise ValueError("--format: give the format to write to standard output (or -o FILE, whose suffix "
                             "names it)")
        a.format = suffix_format(a.output, "--output")
    options = _format_options(a.format, a.option, trees=True)
    target = _target(a.output)
    with Progress(["read", "verify", "write"], a.quiet, desc=f"export {a.file}") as pr:
        pr.stage("read")
        nf = read_trees(a.file, a.input_format)
        pr.stage("verify")
        report = verify_edsts(nf.graph, nf.trees)
        if not report.valid:
            more = len(report.problems) - 1
            raise ValueError(f"file={shorten(str(a.file), 200)}: its trees fail verification ({report.problems[0]}"
                             f"{f'; and {more} more problem' + ('s' if more > 1 else '') if more else ''}); nothing "
                             f"written (starlib verify lists every problem)")
        pr.stage("write")
        size = _emit(render(a.format, nf.graph, nf.trees, network=nf.network, params=nf.params, extra=nf.extra,
                            **options), target)
    if target is not None:
        from ..io import FORMATS

        held = FORMATS[a.format].trees != "no"  # astra-ns3, anynet, ...: the topology only
        _say(a, wrote_line(target, size, trees=len(nf.trees) if held else None, nodes=int(nf.graph.n), fmt=a.format)
             + (f" (the file's trees, verified; maximum depth {deepest(nf.trees)})" if held else
                f" (the topology of a file whose {len(nf.trees)} trees are verified)"))
    return 0


def _cmd_repair(a: argparse.Namespace) -> int:
    from .progress import Progress
    from .repair import repair_file

    options = _format_options(a.format, a.option, trees=True)
    target = _target(a.output)
    with Progress(["read", "repair", "write"], a.quiet, desc=f"repair {a.file}") as pr:
        data, summary, warning = repair_file(a.file, a.fail, a.input_format, deep=a.deep, seed=a.seed, fmt=a.format,
                                             options=options, progress=pr)
        size = _emit(data, target)
    if warning is not None:
        _say(a, warning)
    _say(a, summary + ("" if target is None else f"; wrote {target} ({size:,} bytes)"))
    return 0


def _cmd_simulate(a: argparse.Namespace) -> int:
    from .simulate import print_row, simulate_command

    print_row(simulate_command(a, lambda line: _say(a, line)), a.json)
    return 0


def _cmd_verify(a: argparse.Namespace) -> int:
    from .commands import verify_file
    from .text import verify_text

    verdict, status = verify_file(a.file, a.input_format)
    if a.json:
        import json

        sys.stdout.write(json.dumps(verdict) + "\n")  # ASCII: a file's strings reach the terminal escaped
    else:
        sys.stdout.write(verify_text(verdict) + "\n")
    return status


def _check_record(a: argparse.Namespace, points: Sequence[Any], n: int) -> int:
    """``starlib sweep er --check-record N``: :func:`starlib.sweep.er.recheck_er_record`, one line per row."""
    from ..sweep.er import recheck_er_record

    total, checked = recheck_er_record(a.output, points, n)
    if not total:
        wanted = {tuple(p.key) for p in points}
        raise ValueError(f"--output={a.output!r} holds no row of this sweep (q in {a.q_min} .. {a.q_max}, families "
                         f"{', '.join(sorted({k[1] for k in wanted}))}): nothing to check")
    differ = 0
    for (q, family), bad in checked.items():
        if bad:
            differ += 1
            sys.stdout.write(f"q={q} {family}: differs from a recomputation in " + "; ".join(
                f"{c} (record {was!r}, recomputed {now!r})" for c, was, now in bad) + "\n")
        else:
            _say(a, f"q={q} {family}: recomputed, same")
    sys.stdout.write(f"{a.output}: {len(checked)} of {total} row(s) recomputed (seeded sample), {differ} "
                     f"differ{'s' if differ == 1 else ''}\n")
    return 1 if differ else 0


def _cmd_sweep(a: argparse.Namespace) -> int:
    from ..io import check_target
    from ..sweep import ER_COLUMNS, er_points, run_sweep
    from ..sweep.engine import check_scheduler
    from ..sweep.er import ER_FAMILIES, ER_KEY, Q_LIMIT, check_er_row
    from ..sweep.record import read_record
    from ..validation import check_int, parse_int, require_extra
    from .progress import Progress
    from .text import sweep_line

    if a.sweep == "schedules":
        return _sweep_schedules(a)
    if a.sweep != "er":
        raise ValueError(f"SWEEP={a.sweep!r} is not one of 'er', 'schedules'")
    q_range = f"an integer in 2 .. {Q_LIMIT}"
    q_min = check_int(parse_int(a.q_min, "--q-min"), "--q-min", minimum=2, maximum=Q_LIMIT, rule=q_range)
    q_max = check_int(parse_int(a.q_max, "--q-max"), "--q-max", minimum=2, maximum=Q_LIMIT, rule=q_range)
    points = er_points(q_min, q_max, a.family or ER_FAMILIES)
    if a.output == "-":
        raise ValueError("--output='-': a sweep writes a record file and resumes from it, not standard output")
    if a.check_record is not None:  # in this process, no cluster: nothing written
        n = check_int(parse_int(a.check_record, "--check-record"), "--check-record", minimum=1, maximum=100_000,
                      rule="a number of rows in 1 .. 100000")
        if not os.path.lexists(a.output):
            raise ValueError(f"--output={a.output!r} does not exist: --check-record checks an existing record")
        return _check_record(a, points, n)
    require_extra("sweep", "starlib sweep")  # before any work: dask and distributed are an extra
    workers = check_int(parse_int(a.workers, "--workers"), "--workers", minimum=1, maximum=256,
                        rule="an integer in 1 .. 256")
    if a.scheduler is not None:
        check_scheduler(a.scheduler, "--scheduler")
    check_target(a.output, "--output")
    held = read_record(a.output, columns=ER_COLUMNS, key=ER_KEY, check=check_er_row)  # a bad record: before any work
    labels = [" ".join(p.key) for p in points if p.key not in held]
    with Progress(labels or ["none"], a.quiet, desc=f"sweep {a.sweep}") as pr:
        def on_row(row: dict, done: int, todo: int) -> None:
            pr.stage(f"{row['q']} {row['family']}")
            pr.note(sweep_line(row, done, todo))

        result = run_sweep(points, a.output, columns=ER_COLUMNS, key=ER_KEY, scheduler=a.scheduler,
                           workers=workers, on_row=on_row, check=check_er_row)
    taken = f", {result.taken} written meanwhile by another run" if result.taken else ""
    _say(a, f"wrote {a.output}: {result.computed} point(s) computed, {result.skipped} already in the record{taken}, "
         f"{len(result.rows)} row(s) in all")
    if result.failed:
        key, message = result.failed[0]
        sys.stderr.write(f"error: {len(result.failed)} point(s) failed and have no row (a rerun tries them again); "
                         f"first: {' '.join(key)}: {message}\n")
        return 1
    return 0


def _sweep_schedules(a: argparse.Namespace) -> int:
    """``starlib sweep schedules -o data/schedules.csv``: :mod:`starlib.netsim.comparison` as Dask tasks."""
    from ..io import check_target
    from ..netsim import comparison
    from ..sweep import run_sweep
    from ..sweep.engine import check_scheduler
    from ..sweep.record import read_record
    from ..validation import check_int, parse_int, require_extra
    from .progress import Progress

    if a.output == "-":
        raise ValueError("--output='-': a sweep writes a record file and resumes from it, not standard output")
    if a.check_record is not None:
        n = check_int(parse_int(a.check_record, "--check-record"), "--check-record", minimum=1, maximum=100_000,
                      rule="a number of rows in 1 .. 100000")
        if not os.path.lexists(a.output):
            raise ValueError(f"--output={a.output!r} does not exist: --check-record checks an existing record")
        differ = 0
        for key, bad in comparison.recheck(a.output, n).items():
            differ += bool(bad)
            what = "; ".join(f"{c} (record {was!r}, recomputed {now!r})" for c, was, now in bad) or "same"
            sys.stdout.write(f"{' '.join(key)}: {what}\n")
        return 1 if differ else 0
    require_extra("sweep", "starlib sweep")
    workers = check_int(parse_int(a.workers, "--workers"), "--workers", minimum=1, maximum=256,
                        rule="an integer in 1 .. 256")
    if a.scheduler is not None:
        check_scheduler(a.scheduler, "--scheduler")
    check_target(a.output, "--output")
    held = read_record(a.output, columns=comparison.COLUMNS, key=comparison.KEY, check=comparison.check_row)
    points = comparison.points()
    labels = [" ".join(p.key) for p in points if p.key not in held]
    with Progress(labels or ["none"], a.quiet, desc="sweep schedules") as pr:
        def on_row(row: dict, done: int, todo: int) -> None:
            pr.stage(" ".join(str(row[c]) for c in comparison.KEY))
            pr.note(f"[{done}/{todo}] {row['network']} {row['params']} {row['schedule']} {row['simulator']} "
                    f"{row['size_bytes']} B: {row['time_us']} us")

        result = run_sweep(points, a.output, columns=comparison.COLUMNS, key=comparison.KEY, scheduler=a.scheduler,
                           workers=workers, on_row=on_row, check=comparison.check_row)
    _say(a, f"wrote {a.output}: {result.computed} point(s) computed, {result.skipped} already in the record, "
         f"{len(result.rows)} row(s) in all")
    if result.failed:
        key, message = result.failed[0]
        sys.stderr.write(f"error: {len(result.failed)} point(s) failed and have no row (a rerun tries them again); "
                         f"first: {' '.join(key)}: {message}\n")
        return 1
    return 0


_VERBS = {"networks": _cmd_networks, "build": _cmd_build, "info": _cmd_info, "edsts": _cmd_edsts,
          "export": _cmd_export, "improve": _cmd_improve, "repair": _cmd_repair, "verify": _cmd_verify,
          "sweep": _cmd_sweep, "simulate": _cmd_simulate}


def _fail(message: str, status: int = 2) -> int:
    """Write the first line of ``message`` to stderr, every non-printable character escaped; return ``status``."""
    from ..validation import printable

    sys.stderr.write(printable(message.splitlines()[0], 4000) + "\n" if message else "error\n")
    return status


def _os_error_line(exc: OSError) -> str:
    """One line for an :class:`OSError` that escaped a verb: the file(s) it names and the system's reason.

    >>> _os_error_line(OSError(28, "No space left on device", "x.json"))
    "error: 'x.json': No space left on device (the system refused the file; nothing was written)"
    """
    files = " -> ".join(repr(os.fsdecode(f)) for f in (exc.filename, exc.filename2) if f is not None)
    reason = exc.strerror or str(exc) or type(exc).__name__
    where = f"{files}: " if files else ""
    return f"error: {where}{reason} (the system refused the file; nothing was written)"


def _tolerant_streams() -> None:
    """Let standard output and error write any text: a character their encoding lacks (a network name in Greek
    under ``LC_ALL=C``, an ASCII terminal) is written escaped (``\\u03b1``) instead of raising
    ``UnicodeEncodeError`` and losing the verdict or the message (under the C locale Python's ``surrogateescape``
    handles only the undecodable bytes of file names, not such characters)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) != "backslashreplace":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError, TypeError):  # a closed or replaced stream
                pass


def run() -> None:
    """Entry point of the ``starlib`` script and ``python -m starlib``: :func:`main`, then exit with its status.

    After Ctrl-C or SIGTERM (status 130 or 143) the process ends without the interpreter's teardown: a signal that
    cut numba's compiler short leaves half-built llvmlite objects whose finalizers would print tracebacks after
    the one ``interrupted`` line. Nothing is lost: every file is written atomically and the temporary files are
    gone by the time :func:`main` returns.
    """
    status = main()
    if status in (130, 143):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
    sys.exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``python -m starlib`` and the ``starlib`` script; returns the exit status.

    >>> main(["info", "slimfly", "q=6"])
    2
    """
    _tolerant_streams()
    from ..interrupts import INTERRUPTS, Terminated, sigterm_raises
    from ..validation import MissingExtra
    from .environment import check_environment

    with INTERRUPTS.handled():
        try:
            with sigterm_raises(INTERRUPTS.signals):
                check_environment()  # before numba is imported: it reads NUMBA_NUM_THREADS once, on import
                try:
                    a = parser().parse_args(argv)
                except UsageError as exc:
                    return _fail(f"error: {exc}")
                from ..memory import limit_memory, process_baseline

                # the limit bounds the whole process: the interpreter and the verb's libraries count too
                with limit_memory(_max_memory(a.max_memory), baseline=process_baseline(a.verb)):
                    _compile_note(a)
                    return _VERBS[a.verb](a)
        except (ValueError, TypeError, OverflowError, ZeroDivisionError) as exc:
            if os.environ.get("STARLIB_TRACEBACK"):
                raise
            return _fail(f"error: {exc}" if str(exc) else f"error: {type(exc).__name__}")
        except MissingExtra as exc:  # an optional package not installed: the extra to install, status 2
            return _fail(f"error: {exc}")
        except MemoryError:
            return _fail("error: out of memory: the machine could not hold this network; a smaller network or "
                         "--max-memory (to refuse it up front) avoids this")
        except KeyboardInterrupt:
            return _fail("interrupted", 130)
        except Terminated:
            return _fail("terminated", 143)
        except BrokenPipeError:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 141
        except OSError as exc:  # the system refused a file (a full disk, a permission): the user's situation, not a bug
            if os.environ.get("STARLIB_TRACEBACK"):
                raise
            return _fail(_os_error_line(exc))
        except Exception as exc:
            # a signal that lands as compiled code returns surfaces as SystemError("... returned a result with an
            # exception set") whose context is the KeyboardInterrupt or Terminated
            cause = exc.__cause__ or exc.__context__
            while cause is not None and not isinstance(cause, KeyboardInterrupt | Terminated):
                cause = cause.__cause__ or cause.__context__
            if isinstance(cause, KeyboardInterrupt):
                return _fail("interrupted", 130)
            if isinstance(cause, Terminated):
                return _fail("terminated", 143)
            # a signal that cut numba's compiler short can surface later as an unrelated error ("no compiled object
            # yet for <Library ...>"): the run was interrupted, not broken
            signal_name = INTERRUPTS.interrupted_by()
            if signal_name is not None:
                return _fail("interrupted", 130) if signal_name == "SIGINT" else _fail("terminated", 143)
            if os.environ.get("STARLIB_TRACEBACK"):
                raise
            return _fail(f"internal error: {type(exc).__name__}: {exc} (a bug in starlib: please report it with the "
                         f"command; STARLIB_TRACEBACK=1 shows the traceback)", 70)
