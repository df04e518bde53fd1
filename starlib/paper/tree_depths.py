"""Depths of the EDSTs built on star products, beside the paper's depth theorems (Sections V and VI, Table I).

The constructions of :mod:`starlib.edst` record on every tree the depth bound of the theorem that covers it
(``Tree.meta["bound"]``) and the factor quantities it uses. This module measures the depths independently
(``scipy.sparse.csgraph.shortest_path`` from the tree's root), re-derives each bound from the recorded
quantities with its own copy of the formulas (:func:`depth_bound`, docs/star-products.md §5, §7.5, §8.4), and
collects one row per tree for ``notebooks/06-depth.ipynb``:

===============  ==================================================================================
method           trees
===============  ==================================================================================
``universal``    Theorem V-B.1: Constructions V-B.2 and V-B.3 (``t_G + t_H - 2`` trees)
``low-depth``    the same with the ``S'_j`` of Theorem V-B.5(2) (twisted copies)
``maximum``      Theorem V-C.3 / Corollaries V-C.10, V-C.11 (``t_G + t_H`` or ``t_G + t_H - 1``)
``twisted``      the same count with twisted sheets (starlib's construction,
                 :mod:`starlib.edst.product.twisted`): depth linear in the factor depths
``generic``      the exact matroid-partition packer on the whole product, trees rooted at a center:
                 a maximum count, but no depth control (no theorem bounds its depth)
===============  ==================================================================================

The depth theorems are stated in terms of the radii of the *factor* trees, so the choice of factor EDSTs matters
(docs/star-products.md §12). ``factor_trees="paths"`` uses Hamiltonian-path packings wherever they exist (radius
about ``n/2``): Walecki's paths of ``K_n``, the paths of ``K_{q,q}``, the ``x -> x + s`` paths of Paley / ``C(X)``
of prime order, and Construction A of ER_q; the exact packer for IQ and prime-power orders; the paper's own
constructions for the Bundlefly structure graph MMS(q). ``"shallow"`` uses the ER_q lifted-cluster trees of depth at
most 5 (:func:`starlib.edst.factor.er.er_edsts`, ``"low-depth"``) for the structure graph ER_q and the exact
packer's trees for every other factor (they are not built for depth, but are measured to be shallow).
(:func:`starlib.edst.factor_edsts` itself now defaults to the low-depth ER_q trees.)

Example
-------
>>> rows = tree_depth_rows("slimfly", {"q": 5}, methods=("maximum",))
>>> [(r["construction"], r["depth"], r["bound"]) for r in rows]
[('V-C.4', 11, 12), ('V-C.6', 9, 12), ('V-C.7', 12, 41)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph

from ..bounds import t_and_r, table_i_count, upper_bound
from ..edst import (
    METHODS,
    EDSTSet,
    auto_trees,
    er_edsts,
    factor_edsts,
    generic_trees,
    verify_edsts,
)
from ..edst.factor.er import er_order
from ..graphs import ArrayGraph
from ..primes import is_prime_power
from ..products import StarProduct, star_form
from ..validation import check_int
from .catalog import build, format_params

__all__ = ["DEPTH_METHODS", "FACTOR_TREES", "depth_bound", "measured_depth", "graph_radius",
           "depth_instances", "factor_tree_sets", "build_trees", "shuffled_generic_trees", "expected_count",
           "tree_depth_rows", "depth_table", "summarise_depths"]

#: methods compared by :func:`build_trees`
DEPTH_METHODS = ("universal", "low-depth", "maximum", "twisted", "generic")
#: choices of factor EDSTs (see the module docstring)
FACTOR_TREES = ("paths", "shallow")


def depth_bound(theorem: str, q: dict[str, int]) -> int:
    """The depth bound of one product tree from the paper's depth theorems, in their reconstructed forms.

    Parameters
    ----------
    theorem : str
        ``"V-B.4"``, ``"V-B.5(1)"``, ``"V-B.5(2)"``, ``"V-C.12(1)"`` .. ``"V-C.12(4)"``, ``"V-D.7(1)"`` ..
        ``"V-D.7(3)"``, and ``"twisted(2)"`` .. ``"twisted(4)"`` (starlib's theorem,
        :mod:`starlib.edst.product.twisted`).
    q : dict
        The quantities the bound uses: ``d_G``, ``d_H`` (factor tree radii), ``D_G`` (height of
        ``T_G^{t_G}`` from the root used), ``L_H``, ``L_G`` (Lemma V-C.1 path lengths), ``L`` (the escape
        length of the twisted V-C.6t), ``D_T``, ``ecc_g``, ``ecc_g2`` (Theorem V-D.7).

    Returns
    -------
    int
        The depth bound of the theorem for these quantities.

    Raises
    ------
    ValueError
        If the theorem is unknown or a quantity it needs is missing.

    Example
    -------
    >>> depth_bound("V-B.5(1)", {"D_G": 2, "d_H": 3}), depth_bound("V-B.5(2)", {"D_G": 2, "d_H": 3})
    (17, 8)

    References
    ----------
    Theorems V-B.4, V-B.5, V-C.12, V-D.7 of Isham et al. (2025), as reconstructed in docs/star-products.md §5,
    §7.5, §8.4.
    """
    formulas = {
        "V-B.4": (("d_H", "d_G"), lambda d: d["d_H"] + 2 * d["d_G"]),
        "V-B.5(1)": (("D_G", "d_H"), lambda d: d["D_G"] + d["d_H"] + 2 * d["D_G"] * d["d_H"]),
        "V-B.5(2)": (("D_G", "d_H"), lambda d: d["D_G"] + 2 * d["d_H"]),
        "V-C.12(1)": (("d_H", "d_G"), lambda d: d["d_H"] + 2 * d["d_G"]),
        "V-C.12(2)": (("D_G", "d_H"), lambda d: d["D_G"] + d["d_H"] + 2 * d["D_G"] * d["d_H"]),
        "V-C.12(3)": (("d_H", "D_G", "L_H"), lambda d: d["d_H"] + d["D_G"] * (d["L_H"] + 1)),
        "V-C.12(4)": (("D_G", "L_G", "d_H"), lambda d: (d["D_G"] + 1) * (2 * d["L_G"] + 2 * d["d_H"]) + d["D_G"]),
        "V-D.7(1)": (("D_T", "ecc_g", "ecc_g2"), lambda d: 2 * d["D_T"] + d["ecc_g"] + d["ecc_g2"]),
        "V-D.7(2)": (("D_G", "d_H"), lambda d: d["D_G"] + d["d_H"] + 2 * d["D_G"] * d["d_H"]),
        "V-D.7(3)": (("D_T", "D_G"), lambda d: d["D_T"] + d["D_G"] * (2 * d["D_T"] + 1)),
        "twisted(2)": (("D_G", "d_H"), lambda d: d["D_G"] + 2 * d["d_H"]),
        "twisted(3)": (("d_H", "D_G", "L"), lambda d: d["d_H"] + d["D_G"] * (d["L"] + 1)),
        "twisted(4)": (("D_G", "L_G", "d_H"), lambda d: d["D_G"] + 2 * d["d_H"] + d["L_G"]),
    }
    if theorem not in formulas:
        raise ValueError(f"theorem={theorem!r} is not a depth theorem (known: {', '.join(formulas)})")
    need, f = formulas[theorem]
    missing = [k for k in need if k not in q]
    if missing:
        raise ValueError(f"theorem={theorem!r} needs the quantities {', '.join(missing)}")
    return int(f({k: int(q[k]) for k in need}))


def _csr(n: int, edges: np.ndarray) -> sp.csr_matrix:
    e = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    data = np.ones(2 * e.shape[0], dtype=np.float64)
    return sp.csr_matrix((data, (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n, n))


def measured_depth(n: int, edges: np.ndarray, root: int) -> int:
    """Eccentricity of ``root`` in the graph ``(n, edges)`` by unweighted shortest paths; ``-1`` if disconnected.

    A second implementation beside :attr:`starlib.edst.Tree.depth` (which uses ``breadth_first_order``).

    Example
    -------
    >>> measured_depth(4, np.array([[0, 1], [1, 2], [2, 3]]), 1)
    2
    """
    n = check_int(n, "n", minimum=1)
    root = check_int(root, "root", minimum=0, maximum=n - 1)
    dist = csgraph.shortest_path(_csr(n, edges), unweighted=True, directed=False, indices=root)
    return -1 if not np.isfinite(dist).all() else int(dist.max())


def graph_radius(graph: ArrayGraph) -> int:
    """Radius of a connected graph: no spanning tree, rooted anywhere, is shallower.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> graph_radius(slimfly(5))
    2
    """
    return int(np.min(graph.eccentricities()))


def _prime_powers(lo: int, hi: int, residues: set[int] | None = None) -> list[int]:
    return [x for x in range(lo, hi + 1) if is_prime_power(x) and (residues is None or x % 4 in residues)]


def depth_instances(q_max: int, paley_orders: Sequence[int] = (5,), iq_degrees: Sequence[int] = (3, 4),
                    bundlefly_q_max: int | None = None) -> list[tuple[str, dict[str, int]]]:
    """The networks of the depth study: Slim Fly, Bundlefly and PolarStar for every admissible ``q <= q_max``.

    Parameters
    ----------
    q_max : int
        Largest structure-graph parameter: MMS(q) for prime powers ``q >= 3``, ``q != 2 mod 4`` (Slim Fly,
        Bundlefly); ER_q for prime powers ``q >= 2`` (PolarStar).
    paley_orders : supernode Paley orders ``q' = 1 mod 4`` (Bundlefly and PolarStar-QR).
    iq_degrees : supernode IQ degrees ``d' = 0, 3 mod 4`` (PolarStar-IQ).
    bundlefly_q_max : int, optional
        A separate (smaller) cap for Bundlefly, whose instances are the largest; default ``q_max``.

    Returns
    -------
    list of ``(family, params)`` in the names of :func:`starlib.paper.catalog.build`.

    Raises
    ------
    ValueError
        If ``q_max < 2`` or a supernode parameter is not admissible.

    Example
    -------
    >>> [(f, format_params(p)) for f, p in depth_instances(4, paley_orders=(5,), iq_degrees=())]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('slimfly', 'q=3'), ('slimfly', 'q=4'), ('bundlefly', 'q=3 paley_q=5'), ('bundlefly', 'q=4 paley_q=5'),
     ('polarstar-paley', 'q=2 paley_q=5'), ('polarstar-paley', 'q=3 paley_q=5'), ('polarstar-paley', 'q=4 paley_q=5')]
    """
    q_max = check_int(q_max, "q_max", minimum=2)
    bf_max = q_max if bundlefly_q_max is None else check_int(bundlefly_q_max, "bundlefly_q_max", minimum=2)
    for p in paley_orders:
        if not (is_prime_power(int(p)) and int(p) % 4 == 1):
            raise ValueError(f"paley_orders: {p} is not a prime power = 1 mod 4")
    for d in iq_degrees:
        if int(d) < 3 or int(d) % 4 not in (0, 3):
            raise ValueError(f"iq_degrees: d={d} must be >= 3 and = 0 or 3 mod 4")
    mms = _prime_powers(3, q_max, {0, 1, 3})
    er = _prime_powers(2, q_max)
    out: list[tuple[str, dict[str, int]]] = [("slimfly", {"q": q}) for q in mms]
    out += [("bundlefly", {"q": q, "paley_q": int(p)}) for q in mms if q <= bf_max for p in paley_orders]
    out += [("polarstar-paley", {"q": q, "paley_q": int(p)}) for q in er for p in paley_orders]
    out += [("polarstar-iq", {"q": q, "d": int(d)}) for q in er for d in iq_degrees]
    return out


def _path_trees(G: ArrayGraph) -> EDSTSet:
    """Hamiltonian-path packings where they reach ``t`` (ER_q: Construction A), else star / exact packer."""
    if (q := er_order(G)) is not None:
        return er_edsts(q, "hamiltonian", graph=G)
    t = t_and_r(G)[0]
    for method in ("walecki", "bipartite", "circulant"):
        try:
            trees = factor_edsts(G, method)
        except ValueError:
            continue
        if len(trees) == t:
            return trees
    if star_form(G) is not None and len(trees := auto_trees(G)) == t:  # the Bundlefly structure graph MMS(q)
        return trees
    return factor_edsts(G, "generic")


def factor_tree_sets(P: StarProduct, factor_trees: str = "paths") -> tuple[EDSTSet, EDSTSet]:
    """Maximum EDST sets of the two factors of a star product, for the given choice (module docstring).

    Parameters
    ----------
    P : StarProduct
    factor_trees : ``"paths"`` or ``"shallow"``

    Returns
    -------
    (g_trees, h_trees)

    Raises
    ------
    ValueError
        If ``factor_trees`` is unknown or a packing does not reach the factor's bound ``floor(m/(n-1))``.

    Example
    -------
    >>> from starlib.networks import polarstar
    >>> g, h = factor_tree_sets(polarstar(5, supernode="paley", paley_q=5), "shallow")
    >>> [t.depth for t in g], len(h)
    ([5, 5, 5], 1)
    """
    if factor_trees not in FACTOR_TREES:
        raise ValueError(f"factor_trees={factor_trees!r} is not one of {', '.join(FACTOR_TREES)}")
    G, H = P.structure, P.supernode
    if factor_trees == "paths":
        g, h = _path_trees(G), _path_trees(H)
    else:
        if (q := er_order(G)) is not None:
            g = er_edsts(q, "low-depth", graph=G)
        else:
            g = factor_edsts(G, "generic")
        h = factor_edsts(H, "generic")
    for role, X, s in (("structure graph", G, g), ("supernode", H, h)):
        if len(s) != t_and_r(X)[0]:
            raise ValueError(f"factor_trees={factor_trees!r}: {len(s)} trees for the {role} {X.name}, "
                             f"below its bound {t_and_r(X)[0]}")
    return g, h


def shuffled_generic_trees(graph: ArrayGraph, seed: int) -> EDSTSet:
    """The exact packer's trees with the edges inserted in a random order (``seed``), rooted at centers.

    The packer (Edmonds' matroid partition) maximises the count and ignores depth; different insertion
    orders give different maximum sets of different depths.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> len(shuffled_generic_trees(slimfly(5), seed=1))
    3
    """
    seed = check_int(seed, "seed", minimum=0)
    rng = np.random.default_rng(seed)
    e = np.asarray(graph.edges, dtype=np.int64)
    shuffled = ArrayGraph(list(range(int(graph.n))), e[rng.permutation(e.shape[0])])  # rows kept in this order
    return generic_trees(shuffled)


def build_trees(P: StarProduct, method: str, factor_trees: str = "paths") -> EDSTSet:
    """The EDSTs one method builds on a star product (see :data:`DEPTH_METHODS`).

    Parameters
    ----------
    P : StarProduct
    method : one of :data:`DEPTH_METHODS`
    factor_trees : one of :data:`FACTOR_TREES` (ignored by ``"generic"``)

    Returns
    -------
    EDSTSet

    Raises
    ------
    ValueError
        For an unknown method, or ``"maximum"`` on a product with ``r_G < t_G`` and ``r_H < t_H``.

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> build_trees(slimfly(7), "low-depth").constructions()
    ['V-B.2', 'V-B.2', 'V-B.5(2)']
    """
    if method not in DEPTH_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(DEPTH_METHODS)}")
    if method == "generic":
        return METHODS[method](P)
    return METHODS[method](P, *factor_tree_sets(P, factor_trees))


def expected_count(P: StarProduct, method: str) -> int:
    """Number of trees a method should build, from the factors' ``t, r`` (Table I) or the product's bound.

    ``universal`` / ``low-depth``: ``t_G + t_H - 2``; ``maximum``, ``twisted``: Table I's count; ``generic``: the upper
    bound ``min(floor(m/(n-1)), min degree)`` (the packer is exact, so it reaches it unless a partition
    bound is lower).

    Example
    -------
    >>> from starlib.networks import slimfly
    >>> [expected_count(slimfly(7), m) for m in DEPTH_METHODS]
    [3, 3, 5, 5, 5]
    """
    if method not in DEPTH_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(DEPTH_METHODS)}")
    if method == "generic":
        return upper_bound(P)
    tG, rG = t_and_r(P.structure)
    tH, rH = t_and_r(P.supernode)
    if method in ("maximum", "twisted"):
        return table_i_count(tG, rG, tH, rH)[1]
    return max(tG + tH - 2, 0)


def tree_depth_rows(family: str, params: dict[str, Any], methods: Sequence[str] = DEPTH_METHODS,
                    factor_choices: Sequence[str] = ("paths",), generic_n_max: int | None = None) -> list[dict]:
    """One row per tree: measured depth, recorded bound, re-derived bound, for each method and factor choice.

    Parameters
    ----------
    family, params : a network of :func:`starlib.paper.catalog.build` (a star product).
    methods : subset of :data:`DEPTH_METHODS`.
    factor_choices : subset of :data:`FACTOR_TREES` for the constructions (``generic`` runs once, tagged
        ``"-"``).
    generic_n_max : int, optional
        Skip ``generic`` on products with more vertices (the exact packer is the slow step).

    Returns
    -------
    list of dict with keys ``network, parameters, n, radius, method, factor_trees, trees, expected_trees,
    valid, tree, construction, depth, bound, bound_recomputed, theorem``. ``bound`` is ``-1`` for generic
    trees (no theorem). A method that builds no tree gives one row with ``tree = 0`` and depth ``-1``.

    Raises
    ------
    RuntimeError
        If a method's trees fail :func:`starlib.edst.verify_edsts`.
    """
    P = build(family, params)
    radius = graph_radius(P)
    rows: list[dict] = []
    for method in methods:
        choices = ["-"] if method == "generic" else list(factor_choices)
        if method == "generic" and generic_n_max is not None and P.n > generic_n_max:
            continue
        for choice in choices:
            trees = build_trees(P, method, "paths" if choice == "-" else choice)
            report = verify_edsts(P, trees, allow_empty=True)
            if not report.valid:
                raise RuntimeError(f"{family} {params} {method}/{choice}: " + "; ".join(report.problems[:3]))
            base = {"network": family, "parameters": format_params(params), "n": int(P.n), "radius": radius,
                    "method": method, "factor_trees": choice, "trees": len(trees),
                    "expected_trees": expected_count(P, method), "valid": True}
            if not len(trees):
                rows.append({**base, "tree": 0, "construction": "", "depth": -1, "bound": -1,
                             "bound_recomputed": -1, "theorem": ""})
            for i, t in enumerate(trees, start=1):
                thm = t.meta.get("bound_thm", "")
                rows.append({**base, "tree": i, "construction": t.construction,
                             "depth": measured_depth(P.n, t.edges, t.root),
                             "bound": int(t.meta.get("bound", -1)),
                             "bound_recomputed": depth_bound(thm, t.meta) if thm else -1, "theorem": thm})
    return rows


def depth_table(instances: Iterable[tuple[str, dict[str, Any]]], methods: Sequence[str] = DEPTH_METHODS,
                factor_choices: Sequence[str] = ("paths",), generic_n_max: int | None = None) -> pd.DataFrame:
    """:func:`tree_depth_rows` over many networks, as one frame (one row per tree).

    Example
    -------
    >>> df = depth_table([("polarstar-paley", {"q": 3, "paley_q": 5})], methods=("universal", "maximum"))
    >>> df[["method", "construction", "depth", "bound"]].values.tolist()
    [['universal', 'V-B.2', 8, 14], ['maximum', 'V-C.4', 8, 14], ['maximum', 'V-C.6', 8, 8]]
    """
    rows: list[dict] = []
    for family, params in instances:
        rows += tree_depth_rows(family, params, methods, factor_choices, generic_n_max)
    return pd.DataFrame(rows)


#: construction tags of the "min-depth" families of Table I (depth at most ``d_H + 2 d_G``, or
#: ``D_G + 2 d_H`` for the low-depth variant)
_LOW_FAMILIES = ("V-B.2", "V-C.4", "V-B.5(2)")


def summarise_depths(trees: pd.DataFrame) -> pd.DataFrame:
    """Per network x method x factor choice: tree count, depth range, largest bound (Table I's depth columns).

    Columns: ``network, parameters, n, radius, method, factor_trees, trees, expected_trees, min_depth,
    max_depth, mean_depth, max_bound, low_family_trees, within_bound``. ``max_bound`` is the largest
    per-tree theorem bound (Table I's "Max depth" for these factor trees); ``low_family_trees`` counts the
    trees of the min-depth families V-B.2 / V-C.4 / V-B.5(2) (Table I's "# min-depth EDSTs").

    Example
    -------
    >>> df = depth_table([("slimfly", {"q": 7})], methods=("low-depth",))
    >>> summarise_depths(df)[["trees", "max_depth", "max_bound", "low_family_trees"]].values.tolist()
    [[3, 12, 17, 3]]
    """
    keys = ["network", "parameters", "n", "radius", "method", "factor_trees"]
    out = []
    for key, grp in trees.groupby(keys, sort=False):
        built = grp[grp["tree"] > 0]
        d = built["depth"]
        has_bound = built["bound"] >= 0
        out.append({**dict(zip(keys, key, strict=True)), "trees": int(grp["trees"].iloc[0]),
                    "expected_trees": int(grp["expected_trees"].iloc[0]),
                    "min_depth": int(d.min()) if len(d) else -1, "max_depth": int(d.max()) if len(d) else -1,
                    "mean_depth": float(d.mean()) if len(d) else float("nan"),
                    "max_bound": int(built["bound"].max()) if has_bound.any() else -1,
                    "low_family_trees": int(built["construction"].isin(_LOW_FAMILIES).sum()),
                    "within_bound": bool((built["depth"][has_bound] <= built["bound"][has_bound]).all())})
    return pd.DataFrame(out)
