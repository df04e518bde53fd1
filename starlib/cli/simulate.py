"""``starlib simulate NETWORK|FILE --schedule NAME --size SIZE``: one allreduce on ns-3 or SimGrid, with the optimum
and the proved bound beside it.

The network is a family with its parameters or a network file (as ``info`` and ``edsts`` read them); the
schedule one of :data:`starlib.allreduce.schedules.SCHEDULES`; ``trees`` and ``weighted-trees`` run on the trees of
``--trees FILE`` (a file ``edsts``, ``improve`` or ``repair`` wrote for the same network) or, without it, on the
family ``--method`` packs (the shallow maximum family by default). ``--hosts-per-router P`` hangs P hosts on every
router, each on its own link (``--host-gbps``, ``--host-delay-us``); the hosts are the ranks, and ``--mode`` says
whether the routers reduce (``in-network``) or only forward (``host``). ``P = 0``: the routers are the ranks. One
line on standard output (or ``--json``: the row of :func:`starlib.netsim.cases.run_case`); nothing is written to a
file. Every value is checked before the network is built.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["add_simulate_parser", "simulate_command", "EXAMPLES"]

EXAMPLES = ["starlib simulate polarfly q=9 --schedule trees --size 16M --hosts-per-router 0",
            "starlib simulate slimfly q=7 --schedule ring --size 1M --simulator simgrid --json",
            "starlib simulate polarfly q=7 --schedule dbtree --size 4M --hosts-per-router 5 --mode host",
            "starlib simulate my.graphml --schedule trees --trees trees.json --size 1M --link-gbps 400"]


def add_simulate_parser(sub: Any, parents: Sequence[argparse.ArgumentParser], epilog_fn: Any) -> None:
    """The ``simulate`` verb on the sub-parsers ``sub`` (``parents``: the common, network and --json options)."""
    s = sub.add_parser("simulate", parents=list(parents), help="simulate one allreduce schedule on ns-3 or SimGrid "
                       "against ForestColl's optimum and the proved lower bound",
                       description="Build a network (or read it from a file), build an allreduce schedule on it, run "
                       "it on a network simulator and print the time with ForestColl's optimal reduce-scatter + "
                       "allgather time and the proved lower bound for any allreduce beside it. Nothing is written.",
                       epilog_fn=lambda: "\n\n".join([_schedules_text(), _simulators_text(), epilog_fn(),
                                                      "examples:\n" + "\n".join(f"  {x}" for x in EXAMPLES)]))
    s.add_argument("--schedule", required=True, metavar="NAME", help="the schedule (below)")
    s.add_argument("--size", required=True, metavar="SIZE",
                   help="bytes of every rank's buffer (1024, 64K, 16M, 1G: binary units)")
    s.add_argument("--trees", metavar="FILE", default=None,
                   help="trees and weighted-trees: the trees of this file (edsts wrote it for the same network)")
    s.add_argument("--method", default="shallow", metavar="METHOD",
                   help="trees and weighted-trees without --trees: the EDST method (default shallow)")
    s.add_argument("--simulator", default="ns3", metavar="NAME", help="ns3 (default) or simgrid (below)")
    s.add_argument("--hosts-per-router", default="1", metavar="P",
                   help="hosts on each router, each on its own link (default 1; 0: the routers are the ranks)")
    s.add_argument("--mode", default="in-network", metavar="MODE",
                   help="in-network (the routers reduce; default) or host (the hosts run the schedule)")
    s.add_argument("--link-gbps", default="100", metavar="G", help="rate of a router link, Gb/s each way (100)")
    s.add_argument("--delay-us", default="1", metavar="US", help="delay of a router link, microseconds (1)")
    s.add_argument("--host-gbps", default=None, metavar="G", help="rate of a host link (default: --link-gbps)")
    s.add_argument("--host-delay-us", default=None, metavar="US", help="delay of a host link (default: --delay-us)")
    s.add_argument("--packet-bytes", default="8192", metavar="B", help="largest packet payload (8192)")
    s.add_argument("--seed", default="0", metavar="N", help="seed of the Hamiltonian cycle search (0)")


def _schedules_text() -> str:
    import textwrap

    from ..allreduce.schedules import SCHEDULES

    out = ["schedules (--schedule):"]
    for spec in SCHEDULES.values():
        out += textwrap.wrap(spec.summary, 100, initial_indent=f"  {spec.name:<18} ", subsequent_indent=" " * 21)
    return "\n".join(out)


def _simulators_text() -> str:
    import textwrap

    from ..netsim.cases import SIMULATORS

    out = ["simulators (--simulator):"]
    for sim in SIMULATORS.values():
        out += textwrap.wrap(sim.summary, 100, initial_indent=f"  {sim.name:<18} ", subsequent_indent=" " * 21)
    return "\n".join(out)


def _same_network(graph: Any, trees_graph: Any, path: str) -> None:
    """Refuse trees of another network: the same vertices and links (by index)."""
    import numpy as np

    same = int(graph.n) == int(trees_graph.n) and np.array_equal(np.asarray(graph.edges),
                                                                 np.asarray(trees_graph.edges))
    if not same:
        raise ValueError(f"--trees={path!r}: its network ({trees_graph.n} vertices, {trees_graph.m} links) is not the "
                         f"network simulated ({graph.n} vertices, {graph.m} links); write the trees with starlib edsts "
                         "for this network")


def simulate_command(a: argparse.Namespace, say: Any = None) -> dict[str, Any]:
    """Check every option, build or read the network, run the case; the row (:func:`starlib.netsim.cases.run_case`).

    ``say(line)`` is told what runs once every option is checked (the verb prints it on standard error)."""
    from ..allreduce.schedules import MODES, SCHEDULES
    from ..netsim.cases import SIMULATORS, run_case
    from ..validation import check_choice, check_int, parse_bytes, parse_int, parse_real
    from .commands import build_network, is_file, read_network, read_trees

    schedule = check_choice(a.schedule, "--schedule", tuple(SCHEDULES))
    simulator = check_choice(a.simulator, "--simulator", tuple(SIMULATORS))
    mode = check_choice(a.mode, "--mode", MODES)
    size = parse_bytes(a.size, "--size")
    P = check_int(parse_int(a.hosts_per_router, "--hosts-per-router"), "--hosts-per-router", minimum=0,
                  maximum=4096, rule="an integer in 0 .. 4096 (0: the routers are the ranks)")
    link = parse_real(a.link_gbps, "--link-gbps", 0, True)
    delay = parse_real(a.delay_us, "--delay-us", 0, True)
    host = parse_real(a.host_gbps, "--host-gbps", 0, True)
    host_delay = parse_real(a.host_delay_us, "--host-delay-us", 0, True)
    packet = check_int(parse_int(a.packet_bytes, "--packet-bytes"), "--packet-bytes", minimum=16, maximum=65535,
                       rule="an integer in 16 .. 65535 (a packet is one ns-3 frame)")
    seed = check_int(parse_int(a.seed, "--seed"), "--seed", minimum=0, rule="a seed >= 0")
    if a.trees is not None and not SCHEDULES[schedule].needs_trees:
        raise ValueError(f"--trees: the {schedule!r} schedule takes no trees (only "
                         f"{', '.join(s.name for s in SCHEDULES.values() if s.needs_trees)} do)")
    if SCHEDULES[schedule].needs_trees and a.trees is None:
        from ..edst import get_method

        get_method(a.method)  # an unknown method: before any work
    SIMULATORS[simulator].version()  # the simulator installed: before any work
    if say is not None:
        say(f"simulate {a.network}: {schedule}, {size:,} bytes on {simulator} (a first run loads the simulator and "
            "compiles its engine: seconds)")
    if is_file(a.network, a.input_format):
        nf = read_network(a.network, a.params, a.input_format)
        graph, name, params = nf.graph, a.network, ""
    else:
        graph, par, fam = build_network(a.network, a.params)
        name, params = fam.name, " ".join(f"{k}={v}" for k, v in par.items())
    if graph.directed:
        raise ValueError(f"network {a.network!r} is directed; the simulated links are full duplex")
    trees = None
    if a.trees is not None:
        tf = read_trees(a.trees, None)
        _same_network(graph, tf.graph, a.trees)
        trees = tf.trees
    return run_case(graph, schedule, size, simulator=simulator, trees=trees, method=a.method, hosts_per_router=P,
                    mode=mode, link_gbps=link, delay_us=delay, host_gbps=host, host_delay_us=host_delay,
                    packet_bytes=packet, seed=seed, network=name, params=params)


def row_line(row: dict[str, Any]) -> str:
    """The one line ``starlib simulate`` prints.

    >>> row_line({"schedule": "trees", "network": "polarfly", "params": "q=9", "routers": 91, "ranks": 91,
    ...           "hosts_per_router": 0, "mode": "in-network", "size_bytes": 16777216, "simulator_version": "ns-3 3.44",
    ...           "time_us": 277.825, "optimum_us": 294.984, "bound_us": 268.435, "trees": 5, "max_depth": 3,
    ...           "rings": 0})
    ...           # doctest: +NORMALIZE_WHITESPACE
    'trees (5 trees, depth 3) on polarfly q=9 (91 routers, the routers are the ranks), 16,777,216 bytes on
     ns-3 3.44: 277.825 us; ForestColl optimum 294.984 us (0.942x), lower bound 268.435 us (1.035x)'
    """
    what = row["schedule"]
    if row.get("max_depth"):
        what += f" ({row['trees']} tree{'s' if row['trees'] > 1 else ''}, depth {row['max_depth']})"
    elif row.get("rings"):
        what += f" ({row['rings']} ring{'s' if row['rings'] > 1 else ''})"
    net = f"{row['network']} {row['params']}".strip()
    ranks = ("the routers are the ranks" if row["hosts_per_router"] == 0 else
             f"{row['ranks']} hosts, {row['hosts_per_router']} per router, {row['mode']}")
    t = row["time_us"]
    return (f"{what} on {net} ({row['routers']} routers, {ranks}), {row['size_bytes']:,} bytes on "
            f"{row['simulator_version']}: {t} us; ForestColl optimum {row['optimum_us']} us "
            f"({t / row['optimum_us']:.3f}x), lower bound {row['bound_us']} us ({t / row['bound_us']:.3f}x)")


def print_row(row: dict[str, Any], as_json: bool) -> None:
    """Write the row to standard output: one line, or JSON."""
    if as_json:
        import json

        sys.stdout.write(json.dumps(row) + "\n")
    else:
        sys.stdout.write(row_line(row) + "\n")
