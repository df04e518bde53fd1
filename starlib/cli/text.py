"""What the command line prints for people: the families table, the ``info`` summary, the line after a write.

Programs get JSON instead (``--json``); these functions only lay out what :mod:`starlib.cli.commands` computed.
Every string that may come from a file or the command line (a path, a network name, parameters, labels in a
verdict) goes through :func:`starlib.validation.printable`: control characters, C1 controls and bidi overrides are
shown escaped (``\\x1b``, ``\\u202e``), so a crafted file cannot rewrite the terminal, and long text is shortened.

Example
-------
>>> wrote_line("t.json", 12_345_678, trees=28, nodes=48_778)
'wrote t.json: 28 trees, 48,778 nodes, 12.3 MB'
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from ..validation import printable

__all__ = ["KIND_TITLES", "families_text", "info_text", "verify_text", "wrote_line", "megabytes", "params_text",
           "sweep_line", "depth_warning", "plain", "edsts_summary"]

#: The headings of the families table, by :attr:`~starlib.family.Family.kind`, in the order shown.
KIND_TITLES = {
    "product": "Networks built as star products (and Cartesian products)",
    "network": "Other networks (PolarFly, Dragonfly, fat tree, Jellyfish; a star product in another labelling)",
    "factor": "Factor graphs (the G and H of a star product)",
    "cayley": "Super Cayley graphs (permutation networks)",
    "netdesign": "Network-design solutions",
}
_WIDTH = 100


def megabytes(size: int) -> str:
    """A file size in decimal megabytes with one decimal (``12.3 MB``), or kB/bytes below that.

    >>> megabytes(999), megabytes(12_345), megabytes(16_860_294)
    ('999 bytes', '12.3 kB', '16.9 MB')
    """
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1e3:.1f} kB"
    return f"{size / 1e6:.1f} MB"


def wrote_line(path: str, size: int, *, trees: int | None = None, nodes: int | None = None,
               fmt: str = "json") -> str:
    """The one line printed after a file is written: what it holds and how big it is.

    >>> wrote_line("g.graphml", 2048, nodes=50, fmt="graphml")
    'wrote g.graphml (graphml): 50 nodes, 2.0 kB'
    """
    what = [f"{trees:,} tree{'' if trees == 1 else 's'}"] if trees is not None else []
    what += [f"{nodes:,} node{'' if nodes == 1 else 's'}"] if nodes is not None else []
    tag = "" if fmt == "json" else f" ({printable(fmt, 40)})"
    return f"wrote {printable(path, 200)}{tag}: {', '.join(what + [megabytes(size)])}"


def depth_warning(what: str, deepest: int, diameter: int, how: str, verb: str = "edsts") -> str | None:
    """The one-line warning of ``edsts`` (and ``repair``) when its deepest tree exceeds ``2 x diameter + 1``; else
    None.

    One spanning tree of depth at most the diameter always exists (a BFS tree from a centre); edge-disjoint trees
    must detour, and ``2 x diameter + 1`` is the margin past which the trees are deep for no reason of the network:
    ``--method shallow`` packs the most trees, then searches for the least depth; after a ``repair``, ``starlib
    improve`` searches every tree (the kept ones too).

    >>> depth_warning("slimfly q=13", 85, 2, "BFS from every vertex")
    'warning: edsts slimfly q=13: the deepest tree has depth 85, over 2 x diameter + 1 = 5 (diameter 2: BFS from \
every vertex); --method shallow packs the most trees, then the least depth'
    >>> depth_warning("slimfly q=13", 5, 2, "BFS from every vertex") is None
    True
    >>> depth_warning("t.json", 9, 3, "BFS from every vertex", verb="repair")
    'warning: repair t.json: the deepest tree has depth 9, over 2 x diameter + 1 = 7 (diameter 3: BFS from every \
vertex); starlib improve searches every tree, the kept ones too'
    """
    if deepest <= 2 * diameter + 1:
        return None
    hint = ("starlib improve searches every tree, the kept ones too" if verb == "repair" else
            "--method shallow packs the most trees, then the least depth")
    return (f"warning: {verb} {printable(what, 200)}: the deepest tree has depth {deepest}, over 2 x diameter + 1 = "
            f"{2 * diameter + 1} (diameter {diameter}: {how}); {hint}")


def params_text(params: Mapping[str, Any]) -> str:
    """``KEY=VALUE`` words as typed on the command line (``q=3 d=3``), each key and value escaped and shortened.

    >>> params_text({"q": 3, "d": 3})
    'q=3 d=3'
    >>> params_text({"q\x1b[2J": "\x9b31m"})
    'q\\\\x1b[2J=\\\\x9b31m'
    """
    return " ".join(f"{printable(k, 40)}={printable(v, 60)}" for k, v in params.items())


_ROLE = re.compile(r":[a-z]+:`~?([^`]*)`")
_LITERAL = re.compile(r"``([^`]*)``")


def plain(text: str) -> str:
    """A docstring's phrase for the terminal: reStructuredText literals and roles as their plain text.

    ``x`` becomes x, :func:`~a.b.f` becomes f (the last dotted name, as Sphinx shows ``~``), :func:`a.b.f` a.b.f.

    >>> plain("adjacent transpositions ``T_{i,i+1}`` (:func:`~starlib.cayley.star_graph`)")
    'adjacent transpositions T_{i,i+1} (star_graph)'
    """
    def role(m: re.Match[str]) -> str:
        name = m.group(1)
        return name.rsplit(".", 1)[-1] if m.group(0).split("`", 1)[1].startswith("~") else name

    return _LITERAL.sub(r"\1", _ROLE.sub(role, text))


def families_text(families: Sequence[Any]) -> str:
    """The families as a table for people: grouped by kind, each with its summary and its parameters' rules.

    Parameters
    ----------
    families : sequence of Family
        The records (:func:`starlib.api.families`).

    Returns
    -------
    str
        Ends with how to read a parameter line and how to get JSON.

    Examples
    --------
    >>> from starlib.registry import NETWORK_FAMILIES
    >>> print(families_text([NETWORK_FAMILIES["paley"]]))  # doctest: +NORMALIZE_WHITESPACE
    Factor graphs (the G and H of a star product)
    <BLANKLINE>
      paley                  Paley graph QR(q)  [QR(q'), App. B-B1]
          q                  prime power q = 1 (mod 4)
    <BLANKLINE>
    Parameters are KEY=VALUE words after the name: starlib info slimfly q=5. Optional ones are marked. JSON
    for programs: starlib networks --json.
    """
    out: list[str] = []
    present = {k for f in families for k in (f.kind, *getattr(f, "also", ()))}
    kinds = [k for k in KIND_TITLES if k in present]
    kinds += sorted(present - set(kinds))
    for kind in kinds:
        out += [KIND_TITLES.get(kind, kind), ""]
        members = (f for f in families if kind == f.kind or kind in getattr(f, "also", ()))
        for f in sorted(members, key=lambda f: f.name):
            tags = ", ".join(x for x in (f.symbol, f.reference) if x)
            head = f"  {f.name:<22} {plain(f.summary)}" + (f"  [{tags}]" if tags else "")
            out += textwrap.wrap(head, _WIDTH, subsequent_indent=" " * 25, break_on_hyphens=False)
            for key, p in f.params.items():
                opt = "" if p.required else " (optional)" if p.default is None else f" (optional, default {p.default})"
                out += textwrap.wrap(f"      {key:<18} {plain(p.text)}{opt}", _WIDTH, subsequent_indent=" " * 25,
                                     break_on_hyphens=False)
            if not f.params:
                out.append("      (no parameters)")
        out.append("")
    out += textwrap.wrap("Parameters are KEY=VALUE words after the name: starlib info slimfly q=5. Optional ones "
                         "are marked. JSON for programs: starlib networks --json.", _WIDTH)
    return "\n".join(out)


def info_text(info: Mapping[str, Any]) -> str:
    """The ``info`` summary for people (the same facts as ``info --json``).

    Examples
    --------
    >>> print(info_text({"network": "slimfly", "params": {"q": 5}, "summary": "Slim Fly", "n": 50, "m": 175,
    ...                  "degree_min": 7, "degree_max": 7, "regular": True, "directed": False, "connected": True,
    ...                  "diameter": 2, "t": 3, "r": 28, "upper_bound": 3, "cut_ratio": "7/1", "cut_ratio_float": 7.0,
    ...                  "strength": "25/7", "strength_float": 25 / 7}))
    slimfly q=5: Slim Fly
      vertices          50
      links             175
      degree            7 (regular)
      connected         yes
      diameter          2
      EDST upper bound  3 = min(floor(m/(n-1)) = 3, minimum degree 7); r = m - 3(n-1) = 28
      cut ratio         7/1 = 7: ForestColl's allgather of M bytes takes (M/N) 7 / b
      strength          25/7 = 3.571429: no allreduce beats M / (3.571429 b)
    """
    head = printable(info["file"], 200) if info.get("file") else \
        f"{printable(info['network'], 80)} {params_text(info['params'])}".strip()
    lines = [f"{head}: {printable(info['summary'], 300)}" if info.get("summary") else head]

    def row(key: str, value: Any) -> None:
        lines.append(f"  {key:<17} {value}")

    row("vertices", f"{info['n']:,}")
    row("arcs" if info["directed"] else "links", f"{info['m']:,}")
    lo, hi = info["degree_min"], info["degree_max"]
    row("out-degree" if info["directed"] else "degree", f"{lo} (regular)" if info["regular"] else f"{lo} to {hi}")
    if info["directed"]:
        row("directed", "yes")
    row("connected", "yes" if info["connected"] else "no")
    if info.get("diameter") is not None:
        row("diameter", info["diameter"])
    elif info.get("diameter_skipped"):
        row("diameter", f"not computed: {info['diameter_skipped']}")
    if "upper_bound" in info:
        row("EDST upper bound", f"{info['upper_bound']} = min(floor(m/(n-1)) = {info['t']}, minimum degree {lo}); "
                                f"r = m - {info['t']}(n-1) = {info['r']:,}")
    if info.get("cut_ratio") is not None:  # unit links (b bytes/s each way), every vertex a compute node
        rho, sigma = f"{info['cut_ratio_float']:.7g}", f"{info['strength_float']:.7g}"
        row("cut ratio", f"{info['cut_ratio']} = {rho}: ForestColl's allgather of M bytes takes (M/N) {rho} / b")
        row("strength", f"{info['strength']} = {sigma}: no allreduce beats M / ({sigma} b)")
    elif info.get("optimum_skipped"):
        row("cut ratio", f"not computed (nor the strength): {info['optimum_skipped']}")
    return "\n".join(lines)


def verify_text(verdict: Mapping[str, Any]) -> str:
    """One line: ``valid: 28 edge-disjoint spanning trees of bundlefly q=29 paley_q=29 (...)`` or ``INVALID: ...``.

    >>> verify_text({"file": "t.json", "valid": True, "trees": 2, "n": 10, "m": 15, "network": "complete-paley",
    ...              "params": {"n": 2, "q": 5}, "upper_bound": 1, "problems": [], "max_depth": 3})
    't.json: valid: 2 edge-disjoint spanning trees of complete-paley n=2 q=5 (10 vertices, 15 links; upper bound 1; \
maximum depth 3)'
    """
    name = f"{printable(verdict.get('network') or verdict.get('input') or 'the graph', 80)} " \
           f"{params_text(verdict.get('params') or {})}".strip()
    file = printable(verdict["file"], 200)
    where = f"{verdict['n']:,} vertices, {verdict['m']:,} links; upper bound {verdict['upper_bound']}"
    if verdict.get("max_depth") is not None:
        where += f"; maximum depth {verdict['max_depth']}"
    if verdict["valid"]:
        return f"{file}: valid: {verdict['trees']} edge-disjoint spanning trees of {name} ({where})"
    problems = verdict["problems"]
    more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
    return f"{file}: INVALID: {printable(problems[0], 300)}{more}; {verdict['trees']} trees of {name} ({where})"


def sweep_line(row: Mapping[str, Any], done: int, todo: int) -> str:
    """One line per finished sweep point, for standard error.

    >>> sweep_line({"q": 7, "family": "low-depth", "trees": 4, "bound": 4, "verified": True, "max_depth": 4,
    ...             "seconds": 0.1, "peak_mb": 210}, 3, 10)
    'q=7 low-depth: 4 trees (bound 4), verified, depth 4, 0.1 s, 210 MB [3/10]'
    """
    verdict = "verified" if row["verified"] else "NOT VERIFIED"
    return (f"q={row['q']} {row['family']}: {row['trees']} trees (bound {row['bound']}), {verdict}, "
            f"depth {row['max_depth']}, {row['seconds']} s, {row['peak_mb']} MB [{done}/{todo}]")


def edsts_summary(what: str, trees: int, nodes: int, upper_bound: int, depth: int) -> str:
    """What ``edsts`` prints on a terminal instead of its JSON: the result in two lines, and how to get the trees.

    >>> print(edsts_summary("slimfly q=5", 3, 50, 3, 4))
    edsts slimfly q=5: 3 trees (upper bound 3), 50 nodes, maximum depth 4, verified.
    The trees are not printed on a terminal: -o FILE writes them (JSON, or --format), and a pipe gets the JSON.
    """
    return (f"edsts {printable(what, 200)}: {trees:,} trees (upper bound {upper_bound:,}), {nodes:,} nodes, "
            f"maximum depth {depth}, verified.\n"
            "The trees are not printed on a terminal: -o FILE writes them (JSON, or --format), and a pipe gets the "
            "JSON.")
