"""The grid of ``make simulate``: networks x algorithms x message sizes, simulated on ns-3 and modelled as in
notebook 08, into the record ``data/simulate.csv``.

Networks (one endpoint per router, played by the router's node): PolarFly q=7 (57 routers), Slim Fly q=5 (50),
Bundlefly MMS(3) * QR(5) (90) and PolarStar ER_5 * QR(5) (155). Links: 100 Gb/s each direction, 1 us propagation
delay, packets of at most 8 KiB payload (plus ns-3's 2-byte PPP header). Algorithms:

* ``bfs``: one breadth-first tree from vertex 0;
* ``auto``: the paper's construction (``starlib.edsts(G, method="auto")``: Table I's count);
* ``shallow``: the shallow maximum family (``method="shallow"``);
* ``ring``: reduce-scatter then allgather around a Hamiltonian cycle of the network, every hop one link, in both
  directions (two rings, half the message each; ``build_schedule(G, "ring", size, hosts_per_router=0)``);
* ``ring-sp``: the contended ring, one direction over the breadth-first preorder from vertex 0, each hop a
  shortest path (``build_schedule(G, "ring-sp", size, directions=1, hosts_per_router=0)``): consecutive vertices
  of the preorder are not always neighbours, so its steps cross several links and share them.

Sizes 1 KiB, 4 KiB, ..., 16 MiB. The trees run on :func:`~starlib.netsim.simulate.simulate_trees`, the rings on
:func:`~starlib.netsim.ns3.simulate_schedule`.

The model column is :func:`starlib.allreduce.allreduce_time` with ``alpha = 1 us`` and ``beta = 1/12.5 GB/s``
(notebook 08's parameters) for the trees; for ``ring`` ``2 (n - 1) (alpha + beta S / (2n))``: each of the two
rings runs ``2 (n - 1)`` steps of a block of ``S / (2n)`` bytes, one link each, both at once (Patarasuk and Yuan
2009; Thakur, Rabenseifner and Gropp 2005, section 4.4); for ``ring-sp`` the one-ring model ``2 (n - 1) (alpha +
beta S / n)``, which ignores its routes.

References
----------
P. Patarasuk and X. Yuan, "Bandwidth optimal all-reduce algorithms for clusters of workstations", JPDC 69(2),
117-124, 2009.
R. Thakur, R. Rabenseifner and W. Gropp, "Optimization of collective communication operations in MPICH", IJHPCA
19(1), 49-66, 2005.

Example
-------
>>> [name for name, _, _ in NETWORKS]
['bundlefly', 'polarfly', 'polarstar', 'slimfly']
>>> ALGORITHMS
('auto', 'bfs', 'ring', 'ring-sp', 'shallow')
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from typing import Any

import numpy as np

from ..allreduce import allreduce_time, tree_height
from ..allreduce.schedules import build_schedule
from ..graphs import ArrayGraph
from ..validation import check_choice, require_extra
from .ns3 import simulate_schedule
from .simulate import bfs_parents, simulate_trees, simulator_version

__all__ = ["NETWORKS", "ALGORITHMS", "RINGS", "SIZES", "RATE_GBPS", "DELAY_US", "PACKET_BYTES", "ALPHA_US", "BETA_US",
           "COLUMNS", "build", "case", "grid_rows", "to_csv", "floor_us", "wins_from", "versus", "main"]

NETWORKS: list[tuple[str, str, dict[str, int]]] = [
    ("bundlefly", "q=3,paley_q=5", {"q": 3, "paley_q": 5}),
    ("polarfly", "q=7", {"q": 7}),
    ("polarstar", "q=5,paley_q=5", {"q": 5, "paley_q": 5}),
    ("slimfly", "q=5", {"q": 5}),
]
ALGORITHMS = ("auto", "bfs", "ring", "ring-sp", "shallow")
RINGS = ("ring", "ring-sp")  # the algorithms without trees
SIZES = tuple(2 ** e for e in range(10, 25, 2))  # 1 KiB .. 16 MiB
RATE_GBPS = 100.0
DELAY_US = 1.0
PACKET_BYTES = 8192
ALPHA_US = 1.0
BETA_US = 1.0 / (RATE_GBPS / 8 * 1e3)  # microseconds per byte at 12.5 GB/s
COLUMNS = ("network", "params", "routers", "links", "algorithm", "trees", "max_depth", "size_bytes", "sim_us",
           "model_us", "sim_over_model", "packet_hops", "simulator")


def build(network: str) -> tuple[int, np.ndarray, dict[str, tuple[list[np.ndarray], list[int]]]]:
    """``(n, edges, {algorithm: (parent arrays, heights)})`` of one network of :data:`NETWORKS` (rings: no trees).

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
        ``{algorithm: (parent arrays, heights)}`` as :func:`build` returns (not used for the rings).
    algorithm : str
        One of :data:`ALGORITHMS`.
    size : int
        Message size in bytes.

    Returns
    -------
    dict
        ``algorithm``, ``trees``, ``max_depth``, ``size_bytes``, ``sim_us`` and ``model_us`` (rounded to the
        nanosecond), ``sim_over_model`` (3 decimals), ``packet_hops``. The rings have ``trees`` and
        ``max_depth`` 0.

    Example
    -------
    >>> case(2, np.array([[0, 1]]), {"bfs": ([np.array([-1, 0])], [1])}, "bfs", 1000)["sim_us"]
    2.16
    """
    check_choice(algorithm, "algorithm", ALGORITHMS)
    if algorithm in RINGS:
        G = ArrayGraph.from_edges(list(range(n)), np.asarray(edges, dtype=np.int64))
        rings = 2 if algorithm == "ring" else 1
        r = simulate_schedule(build_schedule(G, algorithm, size, directions=rings, hosts_per_router=0,
                                             link_gbps=RATE_GBPS, delay_us=DELAY_US, packet_bytes=PACKET_BYTES))
        k, depth = 0, 0
        model = 2 * (n - 1) * (ALPHA_US + BETA_US * size / (rings * n))
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


def floor_us(table: Any) -> Any:
    """What no row of the record can beat (microseconds): the propagation delays on its longest chain of links and
    the bytes its busiest link direction must carry at :data:`RATE_GBPS`.

    A tree allreduce's last packet goes up and down the deepest tree (``2D`` delays) and each tree's share ``S/k``
    crosses its links; a ring's last block passes ``2(n - 1)`` hops in turn, and every endpoint receives
    ``2(n - 1)`` blocks of ``S / (rn)`` bytes on its incoming link of each of the ``r`` rings (``r = 2`` for
    ``ring``, 1 for ``ring-sp``).

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of the record (columns ``algorithm``, ``routers``, ``trees``, ``max_depth``, ``size_bytes``).

    Returns
    -------
    pandas.Series
        One floor per row.

    Example
    -------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"algorithm": ["shallow", "ring"], "routers": [50, 50], "trees": [3, 0],
    ...                   "max_depth": [4, 0], "size_bytes": [2 ** 24, 1024]})
    >>> [round(float(v), 3) for v in floor_us(t)]
    [447.392, 98.0]
    """
    import pandas as pd  # noqa: PLC0415
    rings = table.algorithm.map({"ring": 2, "ring-sp": 1}).fillna(0).to_numpy()
    n, size = table.routers.to_numpy(), table.size_bytes.to_numpy()
    ring = rings > 0
    delays = np.where(ring, 2 * (n - 1), 2 * table.max_depth.to_numpy()) * DELAY_US
    link_bytes = np.where(ring, 2 * (n - 1) * size / (np.maximum(rings, 1) * n),
                          size / np.maximum(table.trees.to_numpy(), 1))
    return pd.Series(np.maximum(delays, link_bytes * BETA_US), index=table.index)


def wins_from(table: Any, col: str, fast: str = "shallow", slow: str = "bfs") -> int:
    """The smallest size from which ``fast`` takes less time than ``slow`` at every larger size of ``table``.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows of one network (columns ``algorithm``, ``size_bytes`` and ``col``).
    col : str
        ``"sim_us"`` or ``"model_us"``.
    fast, slow : str
        Algorithms of :data:`ALGORITHMS`.

    Returns
    -------
    int
        Bytes; -1 if ``fast`` is not faster at the largest size.

    Example
    -------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"algorithm": ["bfs"] * 3 + ["shallow"] * 3, "size_bytes": [1, 2, 3] * 2,
    ...                   "sim_us": [1.0, 2.0, 3.0, 0.5, 2.5, 2.0]})
    >>> wins_from(t, "sim_us")
    3
    """
    t = table.pivot_table(index="size_bytes", columns="algorithm", values=col)
    better = (t[fast] < t[slow])[::-1].cummin()[::-1]
    return int(better[better].index.min()) if better.any() else -1


def versus(table: Any) -> Any:
    """Per network, the shallow family against one tree and the two rings (notebook 15's ``simulated_trees``).

    Parameters
    ----------
    table : pandas.DataFrame
        The record (every algorithm of :data:`ALGORITHMS` for each network).

    Returns
    -------
    pandas.DataFrame
        ``network``, ``params``, ``routers``; the shallow family's ``shallow_trees`` and ``shallow_depth``, the
        breadth-first tree's ``bfs_depth``; ``sim_from_bytes`` and ``model_from_bytes`` (:func:`wins_from`, the
        shallow family against one tree); at the largest size (16 MiB in the record), one tree's time over the
        shallow family's simulated and modelled (``speedup_16MiB_sim``, ``speedup_16MiB_model``) and the
        simulated time of each ring over the shallow family's (``ring_over_shallow_16MiB``,
        ``ring_sp_over_shallow_16MiB``), ratios to 4 decimals.

    Example
    -------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"network": ["x"] * 5, "params": ["q=2"] * 5, "routers": [7] * 5, "size_bytes": [64] * 5,
    ...                   "algorithm": list(ALGORITHMS), "trees": [2, 1, 0, 0, 2], "max_depth": [3, 2, 0, 0, 3],
    ...                   "sim_us": [4.0, 6.0, 9.0, 30.0, 3.0], "model_us": [4.0, 5.0, 9.0, 9.0, 4.0]})
    >>> v = versus(t).iloc[0]
    >>> int(v.sim_from_bytes), float(v.speedup_16MiB_sim), float(v.ring_over_shallow_16MiB)
    (64, 2.0, 3.0)
    """
    import pandas as pd  # noqa: PLC0415
    rows = []
    for net, sub in table.groupby("network"):
        at = sub[sub.size_bytes == sub.size_bytes.max()].set_index("algorithm")
        rows.append({"network": net, "params": sub.params.iloc[0], "routers": int(sub.routers.iloc[0]),
                     "shallow_trees": int(at.trees["shallow"]), "shallow_depth": int(at.max_depth["shallow"]),
                     "bfs_depth": int(at.max_depth["bfs"]), "sim_from_bytes": wins_from(sub, "sim_us"),
                     "model_from_bytes": wins_from(sub, "model_us"),
                     "speedup_16MiB_sim": round(at.sim_us["bfs"] / at.sim_us["shallow"], 4),
                     "speedup_16MiB_model": round(at.model_us["bfs"] / at.model_us["shallow"], 4),
                     "ring_over_shallow_16MiB": round(at.sim_us["ring"] / at.sim_us["shallow"], 4),
                     "ring_sp_over_shallow_16MiB": round(at.sim_us["ring-sp"] / at.sim_us["shallow"], 4)})
    return pd.DataFrame(rows)


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
