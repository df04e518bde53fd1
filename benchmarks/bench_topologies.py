"""Build times of the large topologies: starlib's vectorised builders against naive per-edge Python.

Run: ``.venv/bin/python benchmarks/bench_topologies.py`` (``make bench``). Prints one table; never part of
the tests. Each starlib build is timed with ``time.perf_counter`` as the best of 3 runs (the GF(q) tables are
cached after the first call, whose time is shown separately). The naive baselines are what one writes first:

* ER_q: a Python double loop over all pairs of points testing ``u.v = 0 (mod q)``, ``nx.Graph.add_edge`` per
  edge. Quadratic in n, so it is measured on a smaller q and extrapolated by the number of pairs (labelled);
* MMS(q) (Hafner form) and Bundlefly: one ``add_edge`` per edge, generated straight from the definitions with
  Python integers, measured at full size.

Every naive graph is checked to have exactly starlib's edge set on the instance it was measured on.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import galois  # noqa: E402,F401  (imported up front: its ~1 s import is not construction time)
import networkx as nx  # noqa: E402
import pandas as pd  # noqa: E402
import sympy  # noqa: E402
from _timing import best_of  # noqa: E402

from starlib.factors import polarfly, polarfly_points  # noqa: E402
from starlib.networks import bundlefly, slimfly, slimfly_hafner  # noqa: E402


# ----------------------------------------------------------------------------------------- naive versions
def naive_polarfly(q: int) -> nx.Graph:
    """ER_q for prime q by testing every pair of points (the textbook definition)."""
    pts = [tuple(p) for p in polarfly_points(q).tolist()]
    g = nx.Graph()
    g.add_nodes_from(range(len(pts)))
    for i in range(len(pts)):
        a = pts[i]
        for j in range(i + 1, len(pts)):
            b = pts[j]
            if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) % q == 0:
                g.add_edge(i, j)
    return g


def naive_mms_sets(q: int) -> tuple[list[int], list[int]]:
    """X and X' of MMS(q) for prime q, by Python powers of the least primitive root."""
    xi = int(sympy.primitive_root(q))
    delta = {1: 1, 3: -1}[q % 4]
    w = (q - delta) // 4
    if delta == 1:
        ex, exp_ = range(0, q - 2, 2), range(1, q - 1, 2)
    else:
        ex = list(range(0, 2 * w - 1, 2)) + list(range(2 * w - 1, 4 * w - 2, 2))
        exp_ = list(range(1, 2 * w, 2)) + list(range(2 * w, 4 * w - 1, 2))
    return [pow(xi, e, q) for e in ex], [pow(xi, e, q) for e in exp_]


def naive_mms(q: int) -> nx.Graph:
    """MMS(q), prime q, Hafner's form, one add_edge per edge."""
    X, Xp = naive_mms_sets(q)
    g = nx.Graph()
    for x in range(q):
        for y in range(q):
            for s in X:
                g.add_edge((0, x, y), (0, x, (y + s) % q))
            for s in Xp:
                g.add_edge((1, x, y), (1, x, (y + s) % q))
    for x in range(q):
        for m in range(q):
            for c in range(q):
                g.add_edge((0, x, (m * x + c) % q), (1, m, c))
    return g


def naive_bundlefly(q: int, pq: int) -> nx.Graph:
    """MMS(q) * QR(pq), prime q and pq, f(h) = xi h on every arc oriented by vertex index."""
    mms = naive_mms(q)
    order = {v: i for i, v in enumerate(sorted(mms.nodes()))}
    xi = int(sympy.primitive_root(pq))
    squares = {(h * h) % pq for h in range(1, pq)}
    g = nx.Graph()
    for v in mms.nodes():
        for h in range(pq):
            for s in squares:
                g.add_edge((v, h), (v, (h + s) % pq))
    for u, v in mms.edges():
        if order[u] > order[v]:
            u, v = v, u
        for h in range(pq):
            g.add_edge((u, h), (v, (xi * h) % pq))
    return g


def same_edges(nxg: nx.Graph, ag) -> bool:
    """True if the networkx graph (labels = ArrayGraph labels or indices) has exactly ag's edges."""
    idx = ag.index()
    try:
        mine = {tuple(sorted((idx[u], idx[v]))) for u, v in nxg.edges()}
    except KeyError:
        mine = {tuple(sorted((u, v))) for u, v in nxg.edges()}
    return mine == {tuple(e) for e in ag.edges.tolist()}


# ----------------------------------------------------------------------------------------- main
def main() -> None:
    rows = []

    # ER_127 (naive: all pairs, measured at q = 31 and extrapolated by the number of pairs)
    first, best, g = best_of(lambda: polarfly(127))
    q_small = 47
    t = time.perf_counter()
    ng = naive_polarfly(q_small)
    t_naive_small = time.perf_counter() - t
    ok = same_edges(ng, polarfly(q_small))
    n_small = q_small**2 + q_small + 1
    t_naive = t_naive_small * (g.n * (g.n - 1)) / (n_small * (n_small - 1))
    rows.append({"instance": "ER_127 (polarfly)", "n": g.n, "m": g.m, "first call s": first, "best of 3 s": best,
                 "naive s": t_naive,
                 "naive measured on": f"ER_{q_small} ({t_naive_small:.2f} s), extrapolated x pairs",
                 "naive edges equal": ok, "target s": 2.0})

    # MMS(101): star-product form (slimfly) and Hafner form; naive per-edge at full size
    first, best, g = best_of(lambda: slimfly(101))
    t = time.perf_counter()
    ng = naive_mms(101)
    t_naive = time.perf_counter() - t
    hf_first, hf_best, hg = best_of(lambda: slimfly_hafner(101))
    ok = same_edges(ng, hg)
    rows.append({"instance": "MMS(101) = K_{q,q} * C(X) (slimfly)", "n": g.n, "m": g.m, "first call s": first,
                 "best of 3 s": best, "naive s": t_naive, "naive measured on": "MMS(101), full size",
                 "naive edges equal": ok, "target s": 2.0})
    rows.append({"instance": "MMS(101) Hafner form (slimfly_hafner)", "n": hg.n, "m": hg.m,
                 "first call s": hf_first, "best of 3 s": hf_best, "naive s": t_naive,
                 "naive measured on": "MMS(101), full size", "naive edges equal": ok, "target s": 2.0})

    # Bundlefly MMS(29) * QR(29)
    first, best, g = best_of(lambda: bundlefly(29, 29))
    t = time.perf_counter()
    ng = naive_bundlefly(29, 29)
    t_naive = time.perf_counter() - t
    ok = same_edges(ng, g)
    rows.append({"instance": "Bundlefly MMS(29) * QR(29)", "n": g.n, "m": g.m, "first call s": first,
                 "best of 3 s": best, "naive s": t_naive, "naive measured on": "full size",
                 "naive edges equal": ok, "target s": 5.0})

    df = pd.DataFrame(rows)
    df["speed-up"] = df["naive s"] / df["best of 3 s"]
    df["met"] = df["best of 3 s"] <= df["target s"]
    pd.set_option("display.width", 250)
    print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
