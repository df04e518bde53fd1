"""The grid of ``make simulate``: networks x algorithms x message sizes, simulated on ns-3 and modelled as in
notebook 08, into the record ``data/simulate.csv``.

Networks (one endpoint per router, played by the router's node): PolarFly q=7 (57 routers), Slim Fly q=5 (50),
Bundlefly MMS(3) * QR(5) (90) and PolarStar ER_5 * QR(5) (155). Links: 100 Gb/s each direction, 1 us propagation
delay, packets of at most 8 KiB payload (plus ns-3's 2-byte PPP header). Algorithms: ``bfs`` (one breadth-first
tree from vertex 0), ``auto`` (the paper's construction, ``starlib.edsts(G, method="auto")``: Table I's count),
``shallow`` (the shallow maximum family) and ``ring`` (see :func:`starlib.netsim.simulate.ring_messages`).
Sizes 1 KiB, 4 KiB, ..., 16 MiB.

The model column is :func:`starlib.allreduce.allreduce_time` with ``alpha = 1 us`` and ``beta = 1/12.5 GB/s``
(notebook 08's parameters) for the trees, and ``2 (n - 1) (alpha + beta S / n)`` for the ring (Thakur,
Rabenseifner and Gropp, "Optimization of collective communication operations in MPICH", IJHPCA 19(1), 2005,
section 4.4).

Example
-------
>>> [name for name, _, _ in NETWORKS]
['bundlefly', 'polarfly', 'polarstar', 'slimfly']
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from typing import Any

import numpy as np

from ..allreduce import allreduce_time, tree_height
from ..validation import check_choice, require_extra
from .simulate import bfs_parents, simulate_ring, simulate_trees, simulator_version

__all__ = ["NETWORKS", "ALGORITHMS", "SIZES", "RATE_GBPS", "DELAY_US", "PACKET_BYTES", "ALPHA_US", "BETA_US",
           "COLUMNS", "build", "case", "grid_rows", "to_csv", "main"]

NETWORKS: list[tuple[str, str, dict[str, int]]] = [
    ("bundlefly", "q=3,paley_q=5", {"q": 3, "paley_q": 5}),
    ("polarfly", "q=7", {"q": 7}),
    ("polarstar", "q=5,paley_q=5", {"q": 5, "paley_q": 5}),
    ("slimfly", "q=5", {"q": 5}),
]
ALGORITHMS = ("auto", "bfs", "ring", "shallow")
SIZES = tuple(2 ** e for e in range(10, 25, 2))  # 1 KiB .. 16 MiB
RATE_GBPS = 100.0
DELAY_US = 1.0
PACKET_BYTES = 8192
ALPHA_US = 1.0
BETA_US = 1.0 / (RATE_GBPS / 8 * 1e3)  # microseconds per byte at 12.5 GB/s
COLUMNS = ("network", "params", "routers", "links", "algorithm", "trees", "max_depth", "size_bytes", "sim_us",
           "model_us", "sim_over_model", "packet_hops", "simulator")


def build(network: str) -> tuple[int, np.ndarray, dict[str, tuple[list[np.ndarray], list[int]]]]:
    """``(n, edges, {algorithm: (parent arrays, heights)})`` of one network of :data:`NETWORKS` (ring: no trees).

    Example
    -------
    >>> n, e, trees = build("slimfly")
    >>> n, e.shape[0], len(trees["auto"][0]), trees["bfs"][1]
    (50, 175, 3, [2])
    """
    from ..api import edsts  # noqa: PLC0415
    from ..api import network as make
    spec = {name: kw for name, _, kw in NETWORKS}
    check_choice(network, "network", sorted(spec))
    G = make(network, **spec[network])
    n, e = G.n, np.asarray(G.edges, dtype=np.int64)
    out: dict[str, tuple[list[np.ndarray], list[int]]] = {}
    par = bfs_parents(n, e, 0)
    out["bfs"] = ([par], [tree_height(n, np.column_stack([np.arange(1, n), par[1:]]), 0)])
    for method in ("auto", "shallow"):
        fam = edsts(G, method=method)
        out[method] = ([np.asarray(t.parent_array(), dtype=np.int64) for t in fam],
                       [tree_height(n, np.asarray(t.edges, dtype=np.int64), int(t.root)) for t in fam])
    return n, e, out


def case(n: int, edges: np.ndarray, trees: dict[str, Any], algorithm: str, size: int) -> dict[str, Any]:
    """One simulated and modelled allreduce: the record's columns from ``algorithm`` to ``packet_hops``.

    Parameters
    ----------
    n : int
        Routers.
    edges : numpy.ndarray
        ``(m, 2)`` links.
    trees : dict
        ``{algorithm: (parent arrays, heights)}`` as :func:`build` returns (not used for ``ring``).
    algorithm : str
        One of :data:`ALGORITHMS`.
    size : int
        Message size in bytes.

    Returns
    -------
    dict
        ``algorithm``, ``trees``, ``max_depth``, ``size_bytes``, ``sim_us`` and ``model_us`` (rounded to the
        nanosecond), ``sim_over_model`` (3 decimals), ``packet_hops``.

    Example
    -------
    >>> case(2, np.array([[0, 1]]), {"bfs": ([np.array([-1, 0])], [1])}, "bfs", 1000)["sim_us"]
    2.16
    """
    check_choice(algorithm, "algorithm", ALGORITHMS)
    if algorithm == "ring":
        r = simulate_ring(n, edges, size, PACKET_BYTES, RATE_GBPS, DELAY_US)
        k, depth = 0, 0
        model = 2 * (n - 1) * (ALPHA_US + BETA_US * size / n)
    else:
        parents, heights = trees[algorithm]
        r = simulate_trees(n, edges, parents, size, PACKET_BYTES, RATE_GBPS, DELAY_US)
        k, depth = len(parents), max(heights)
        model = float(allreduce_time(heights, float(size), ALPHA_US, BETA_US))
    sim = r.time_ns / 1000
    return {"algorithm": algorithm, "trees": k, "max_depth": depth, "size_bytes": size, "sim_us": round(sim, 3),
            "model_us": round(model, 3), "sim_over_model": round(sim / model, 3), "packet_hops": r.hops}


def grid_rows(networks: list[str] | None = None, sizes: tuple[int, ...] = SIZES,
              algorithms: tuple[str, ...] = ALGORITHMS, log: Any = None) -> list[dict[str, Any]]:
    """Every row of the grid (sorted by network, algorithm, size).

    Parameters
    ----------
    networks : list of str, optional
        Names of :data:`NETWORKS` (default: all).
    sizes, algorithms : tuple
        Message sizes (bytes) and algorithms of :data:`ALGORITHMS`.
    log : file, optional
        Where to print each row as it is done (``make simulate`` uses standard error).

    Returns
    -------
    list of dict
        One row per network, algorithm and size, with the columns :data:`COLUMNS`.

    Example
    -------
    >>> rows = grid_rows(["slimfly"], sizes=(1024,), algorithms=("bfs",))
    >>> rows[0]["sim_us"], rows[0]["model_us"]
    (4.328, 4.328)
    """
    rows = []
    version = simulator_version()
    params = {name: p for name, p, _ in NETWORKS}
    for name in sorted(networks or params):
        n, e, trees = build(name)
        for alg in sorted(algorithms):
            for size in sorted(sizes):
                row = {"network": name, "params": params[name], "routers": n, "links": int(e.shape[0]),
                       **case(n, e, trees, alg, size), "simulator": version}
                rows.append(row)
                if log:
                    print(",".join(str(row[c]) for c in COLUMNS), file=log, flush=True)
    return rows


def to_csv(rows: list[dict[str, Any]]) -> bytes:
    """The record's bytes: a header and the rows sorted by network, algorithm and size.

    Example
    -------
    >>> to_csv([]).decode().split(",")[:2]
    ['network', 'params']
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for r in sorted(rows, key=lambda r: (r["network"], r["algorithm"], r["size_bytes"])):
        w.writerow([r[c] for c in COLUMNS])
    return buf.getvalue().encode()


def main(argv: list[str] | None = None) -> int:
    """``python -m starlib.netsim.grid -o data/simulate.csv``: run the grid, write the record atomically."""
    ap = argparse.ArgumentParser(prog="python -m starlib.netsim.grid", description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--output", required=True, help="the CSV record to write")
    args = ap.parse_args(argv)
    from ..io.atomic import atomic_write, check_target  # noqa: PLC0415
    try:
        check_target(args.output, "output")
        require_extra("simulate", "python -m starlib.netsim.grid")
    except (ValueError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    atomic_write(args.output, to_csv(grid_rows(log=sys.stderr)), "output")
    return 0


if __name__ == "__main__":
    sys.exit(main())
