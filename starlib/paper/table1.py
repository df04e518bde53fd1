"""Table I of the paper (summary of the constructions), reconstructed and checked on concrete star products.

:data:`TABLE_I` holds the six rows of Table I (docs/star-products.md §9) with every formula cell as a string that
sympy parses (:func:`formula`), in the symbols of docs/star-products.md §2 (Table II): ``t_G, t_H`` (factor EDST
counts), ``r_G, r_H`` (non-tree edges), ``d_G, d_H`` (largest radius of a factor tree), ``D_G`` (height of
``T_G^{t_G}`` from the root the construction uses) and ``D_T`` (height of the Property V-D.1 tree ``T`` from
``h*``).

:func:`check_instance` builds one star product, computes ``t`` and ``r`` of the factor packings, searches
Property V-D.1, and for every row whose condition holds runs the row's construction; it records the count
against the row's formula, the eq. (1) upper bound and (for small products) the exact maximum from the
matroid packing, the verifier's verdict, and the deepest tree against the row's depth formula.
:func:`table_i_frame` condenses those rows into the reconstructed Table I with the number of instances
checked per row and whether they all agree.

Example
-------
>>> from starlib.networks import slimfly
>>> rows = check_instance(Instance("MMS(4)", "slimfly", {"q": 4}, lambda: slimfly(4)))
>>> [(r["row"], r["method"], r["constructed"], r["upper_bound"], r["agree"]) for r in rows][:2]
[(1, 'maximum', 3, 3, True), (2, 'maximum', 3, 3, True)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import sympy

from .. import factors, networks
from ..bounds import upper_bound
from ..edst import METHODS, generic_packing, has_property_vd1, verify_edsts
from ..products import StarProduct, cartesian_product
from .catalog import format_params
from .formulas import evaluate_formula, parse_formula
from .random_products import random_factor, random_star_product, vd1_classes

__all__ = ["SYMBOLS", "formula", "evaluate", "TableIRow", "TABLE_I", "TABLE_I_METHODS", "Built", "build_trees",
           "Instance", "named_instances", "random_instances", "instance_pool", "check_instance",
           "instances_frame", "table_i_frame", "formula_frame"]

SYMBOLS: dict[str, sympy.Symbol] = {name: sympy.Symbol(name, integer=True, nonnegative=True)
                                    for name in ("t_G", "t_H", "r_G", "r_H", "d_G", "d_H", "D_G", "D_T")}
"""The symbols of the formula cells (docs/star-products.md §2 and §8.2)."""


def formula(text: str) -> sympy.Expr:
    """Parse a formula cell of :data:`TABLE_I` (``Max`` is the maximum).

    Parameters
    ----------
    text : str
        E.g. ``"t_G + t_H - 1"`` or ``"Max(d_H + 2*d_G, d_G + 2*d_H)"``.

    Returns
    -------
    sympy.Expr

    Raises
    ------
    ValueError
        If the text uses a name other than the symbols of :data:`SYMBOLS` and ``Max``.

    Example
    -------
    >>> formula("Max(d_H + 2*d_G, d_G + 2*d_H)").subs({SYMBOLS["d_G"]: 3, SYMBOLS["d_H"]: 1})
    7
    """
    return parse_formula(text, SYMBOLS, {"Max": sympy.Max}, f"allowed symbols are {sorted(SYMBOLS)}")


def evaluate(text: str, values: dict[str, int]) -> int:
    """Evaluate a formula cell at integer values of its symbols.

    Raises
    ------
    ValueError
        If a symbol of the formula has no value (or the value is not an integer).

    Example
    -------
    >>> evaluate("(D_G + 1)*(2*t_G + 2*d_H) + D_G", {"D_G": 2, "t_G": 1, "d_H": 3})
    26
    """
    given = {SYMBOLS[k]: int(v) for k, v in values.items() if v is not None and k in SYMBOLS}
    return evaluate_formula(text, formula(text), given, "values")


@dataclass(frozen=True)
class TableIRow:
    """One row of Table I.

    Attributes
    ----------
    row : row number (1..6, the order of the paper).
    conditions : the condition column, in words.
    count : ``# EDSTs`` formula.
    claim : the ``Max?`` column (``"YES"``, ``"Within 1"``, ...).
    claim_gap : the largest gap to the eq. (1) bound the claim allows (0 for ``YES``).
    edst_thm : the result that builds the trees.
    max_depth : depth bound of the deepest tree (formula).
    min_depth : depth bound of the ``# min-depth`` low-depth trees (formula).
    n_min_depth : how many trees have the minimum depth bound (formula).
    depth_thms : the depth theorems.
    methods : the constructions run for the row (keys of :data:`starlib.edst.METHODS`).
    low_depth_max : for the Universal row, the depth bound with the low-depth variant V-B.5(2).
    """

    row: int
    conditions: str
    count: str
    claim: str
    claim_gap: int
    edst_thm: str
    max_depth: str
    min_depth: str
    n_min_depth: str
    depth_thms: str
    methods: tuple[str, ...]
    low_depth_max: str | None = None

    def applies(self, t_g: int, r_g: int, t_h: int, r_h: int, property_vd1: bool) -> bool:
        """Whether a product with these factor parameters falls in this row."""
        ge_g, ge_h = r_g >= t_g, r_h >= t_h
        return {1: ge_g and ge_h,
                2: r_g == t_g and r_h == t_h,
                3: ge_g != ge_h,
                4: property_vd1 and not ge_g and not ge_h,
                5: property_vd1,
                6: True}[self.row]


_MAX_C = "Max(D_G + d_H + 2*D_G*d_H, d_H + D_G*(t_H + 1), (D_G + 1)*(2*t_G + 2*d_H) + D_G)"
_MAX_D = "Max(D_G + d_H + 2*D_G*d_H, D_T + D_G*(2*D_T + 1))"

TABLE_I: tuple[TableIRow, ...] = (
    TableIRow(1, "r_G >= t_G and r_H >= t_H", "t_G + t_H", "Within 1 (YES if r_G = t_G or r_H = t_H)", 1,
              "V-C.10", _MAX_C, "d_H + 2*d_G", "t_G - 1", "V-C.12, V-C.13", ("maximum",)),
    TableIRow(2, "r_G = t_G and r_H = t_H", "t_G + t_H", "YES", 0,
              "V-C.3", _MAX_C, "d_H + 2*d_G", "t_G - 1", "V-C.12, V-C.13", ("maximum",)),
    TableIRow(3, "r_G >= t_G or r_H >= t_H (exactly one)", "t_G + t_H - 1", "Within 1", 1,
              "V-C.11", _MAX_C, "d_H + 2*d_G", "t_G - 1", "V-C.12, V-C.13", ("maximum",)),
    TableIRow(4, "Property V-D.1, r_G < t_G and r_H < t_H", "t_G + t_H - 1", "YES", 0,
              "V-D.2", _MAX_D, "2*D_T + 4*d_G", "t_G - 1", "V-D.7", ("property",)),
    TableIRow(5, "Property V-D.1", "t_G + t_H - 1", "Within 2", 2,
              "V-D.2", _MAX_D, "2*D_T + 4*d_G", "t_G - 1", "V-D.7", ("property",)),
    TableIRow(6, "any star product (Universal)", "t_G + t_H - 2", "Within 3", 3,
              "V-B.1", "d_G + d_H + 2*d_G*d_H", "d_H + 2*d_G", "t_G - 1", "V-B.4, V-B.5",
              ("universal", "low-depth"), low_depth_max="Max(d_H + 2*d_G, d_G + 2*d_H)"),
)
"""The six rows of Table I (docs/star-products.md §9), formulas as sympy-parsable strings."""

#: the constructions Table I's rows run (keys of :data:`starlib.edst.METHODS`), in order of first use
TABLE_I_METHODS: tuple[str, ...] = tuple(dict.fromkeys(m for row in TABLE_I for m in row.methods))


@dataclass
class Built:
    """The trees of one construction on one product and the quantities of the depth formulas.

    Attributes
    ----------
    method : one of :data:`TABLE_I_METHODS`.
    trees : the :class:`~starlib.edst.trees.EDSTSet` (``.theorem`` names the result).
    values : ``t_G, r_G, t_H, r_H, d_G, d_H, D_G`` and ``D_T`` (``None`` outside V-D) of the factor packings
        the construction actually used (after the swaps of Lemma V-C.1).
    """

    method: str
    trees: Any
    values: dict[str, int | None] = field(default_factory=dict)


def build_trees(P: StarProduct, method: str) -> Built:
    """Run one construction on ``P`` and read the quantities of the Table I formulas off its factor packings.

    Parameters
    ----------
    P : StarProduct
        A star product with connected factors.
    method : {"maximum", "property", "universal", "low-depth"}

    Returns
    -------
    Built

    Raises
    ------
    ValueError
        If ``method`` is unknown or the construction does not apply (e.g. ``maximum`` with ``r_G < t_G`` and
        ``r_H < t_H``, ``property`` without Property V-D.1).

    Example
    -------
    >>> from starlib.networks import hyperx
    >>> b = build_trees(hyperx("4,4"), "property")
    >>> len(b.trees), b.trees.theorem, b.values["t_G"], b.values["D_T"]
    (3, 'V-D.2', 2, 2)

    References
    ----------
    Sections V-B, V-C, V-D of Isham et al. (2025).
    """
    if method not in TABLE_I_METHODS:
        raise ValueError(f"method={method!r} is not one of {', '.join(TABLE_I_METHODS)}")
    trees = METHODS[method](P)
    G, H = trees.factors  # the packings used (Lemma V-C.1 may have swapped edges)
    root = None
    for t in trees:
        root = t.meta.get("g_0", t.meta.get("g_star", root))
    if root is None:
        root = G.center(-1)[0]
    D_T = None
    if method == "property":
        D_T = int(next(t.meta["D_T"] for t in trees if t.construction == "V-D.5"))
    values = {"t_G": G.t, "r_G": G.r, "t_H": H.t, "r_H": H.r, "d_G": max(G.radii()), "d_H": max(H.radii()),
              "D_G": int(G.ecc(-1)[int(root)]), "D_T": D_T}
    return Built(method, trees, values)


@dataclass(frozen=True)
class Instance:
    """A named star product for the Table I checks.

    Attributes
    ----------
    name : how the tables show it (``"MMS(5)"``, ``"K_4 □ K_4"``).
    source : the family (``"slimfly"``, ``"hyperx"``, ``"random"``, ``"random-invariant"``, ...).
    params : its parameters (``format_params`` writes them as ``q=3 d=7``).
    build : a function that builds it.
    """

    name: str
    source: str
    params: dict[str, Any]
    build: Callable[[], StarProduct]


def named_instances() -> list[Instance]:
    """Star products of the paper's families and a few Cartesian products (HyperX, tori, ``K_{3,3}``).

    Chosen to cover every row of Table I: Slim Fly and Bundlefly (rows 1, 2), PolarStar and ``K_n * QR(q)``
    (rows 1 to 3), HyperX ``K_a □ K_b`` with ``a, b`` even (``r = 0``: row 4), tori and ``K_{3,3} □ K_{3,3}``
    (Property V-D.1 with ``r >= t``: row 5).

    Example
    -------
    >>> [i.name for i in named_instances()][:3]
    ['MMS(3)', 'MMS(4)', 'MMS(5)']
    """
    out = [Instance(f"MMS({q})", "slimfly", {"q": q}, (lambda q=q: networks.slimfly(q))) for q in (3, 4, 5, 7, 8)]
    out += [Instance(f"MMS({q}) * QR({p})", "bundlefly", {"q": q, "paley_q": p},
                     (lambda q=q, p=p: networks.bundlefly(q, p))) for q, p in ((3, 5), (4, 5))]
    out += [Instance(f"ER_{q} * QR({p})", "polarstar-paley", {"q": q, "paley_q": p},
                     (lambda q=q, p=p: networks.polarstar(q, supernode="paley", paley_q=p)))
            for q, p in ((2, 5), (3, 5), (3, 9), (4, 5))]
    out += [Instance(f"ER_{q} * IQ({d})", "polarstar-iq", {"q": q, "d": d},
                     (lambda q=q, d=d: networks.polarstar(q, supernode="iq", d=d)))
            for q, d in ((2, 3), (3, 3), (3, 4), (4, 4))]
    out += [Instance(f"K_{n} * QR({p})", "complete-paley", {"n": n, "q": p},
                     (lambda n=n, p=p: networks.complete_paley(n, p))) for n, p in ((2, 5), (3, 5), (4, 5), (5, 9))]
    out += [Instance(f"K_{a} □ K_{b}", "hyperx", {"sizes": f"{a},{b}"},
                     (lambda a=a, b=b: networks.hyperx(f"{a},{b}"))) for a, b in ((2, 4), (4, 4), (4, 6), (6, 6))]
    out += [Instance(f"C_{a} □ C_{b}", "torus", {"sizes": f"{a},{b}"},
                     (lambda a=a, b=b: networks.torus(f"{a},{b}"))) for a, b in ((3, 4), (4, 5))]
    out += [Instance("K_{3,3} □ K_{3,3}", "cartesian", {"G": "K_{3,3}", "H": "K_{3,3}"},
                     lambda: cartesian_product(factors.complete_bipartite(3), factors.complete_bipartite(3)))]
    return out


def _draw_factor(rng: np.random.Generator, n_lo: int, n_hi: int, small_r: bool) -> tuple[int, int, int]:
    n = int(rng.integers(n_lo, n_hi + 1))
    t = int(rng.integers(1, (n - 1) // 2 + 1))
    r_hi = min(n - 2, n * (n - 1) // 2 - t * (n - 1))
    if small_r:
        r_hi = min(r_hi, t - 1)
    r = int(rng.integers(0, r_hi + 1))
    return n, t, r


def random_instances(seed: int = 0, count: int = 6, invariant: bool = False) -> list[Instance]:
    """Seeded random star products of two :func:`~starlib.paper.random_products.random_factor` graphs.

    ``G`` has 4 to 7 vertices and ``H`` 5 to 9, each with a random ``t`` (at most ``(n-1)/2``) and ``r``
    (at most ``n - 2``). With ``invariant=False`` every arc gets a uniformly random bijection; with
    ``invariant=True`` the bijections preserve the classes of :func:`~starlib.paper.random_products.vd1_classes`,
    so the product has Property V-D.1 and is not Cartesian, and every other instance has ``r < t`` on both
    sides (row 4 of Table I).

    Example
    -------
    >>> inst = random_instances(0, 4, invariant=True)
    >>> [(i.params["r_G"] < i.params["t_G"], i.params["r_H"] < i.params["t_H"]) for i in inst[::2]]
    [(True, True), (True, True)]
    """
    rng = np.random.default_rng([seed, int(invariant)])
    out = []
    for k in range(count):
        small = invariant and k % 2 == 0
        nG, tG, rG = _draw_factor(rng, 4, 7, small)
        nH, tH, rH = _draw_factor(rng, 5, 9, small)
        s = int(rng.integers(0, 2**31))
        params = {"n_G": nG, "t_G": tG, "r_G": rG, "n_H": nH, "t_H": tH, "r_H": rH, "seed": s}

        def build(nG=nG, tG=tG, rG=rG, nH=nH, tH=tH, rH=rH, s=s) -> StarProduct:
            G = random_factor(nG, tG, rG, seed=s)
            H = random_factor(nH, tH, rH, seed=s + 1)
            classes = vd1_classes(H) if invariant else None
            return random_star_product(G, H, seed=s + 2, classes=classes)

        kind = "random-invariant" if invariant else "random"
        out.append(Instance(f"{kind} #{k}", kind, params, build))
    return out


def instance_pool(seed: int = 0, n_random: int = 6, n_invariant: int = 6) -> list[Instance]:
    """:func:`named_instances` followed by the random and the invariant random instances.

    Example
    -------
    >>> len(instance_pool(0, 2, 2)) == len(named_instances()) + 4
    True
    """
    return named_instances() + random_instances(seed, n_random) + random_instances(seed, n_invariant, True)


def _depth_values(built: Built) -> tuple[int | None, int | None, bool]:
    """(deepest tree, deepest low-depth tree, every tree within its own theorem's bound)."""
    depths = built.trees.depths()
    tag = METHODS[built.method].families[0]
    low = [t.depth for t in built.trees if t.construction == tag]
    own = all(t.depth <= t.meta["bound"] for t in built.trees)
    return (max(depths) if depths else None), (max(low) if low else None), own


def check_instance(inst: Instance, exact_max_edges: int = 1500) -> list[dict[str, Any]]:
    """Every Table I row this instance falls in, with its construction run and checked.

    Parameters
    ----------
    inst : Instance
    exact_max_edges : int
        Compute the exact maximum number of EDSTs (:func:`~starlib.edst.packing.generic_packing`) when the product
        has at most this many edges.

    Returns
    -------
    list of dict
        One dict per (row, construction) with the columns of :func:`instances_frame`.

    Example
    -------
    >>> from starlib.networks import torus
    >>> rows = check_instance(Instance("C_3 □ C_4", "torus", {"sizes": "3,4"}, lambda: torus("3,4")))
    >>> sorted({r["row"] for r in rows}), {r["agree"] for r in rows}
    ([1, 2, 5, 6], {True})
    """
    P = inst.build()
    bound = upper_bound(P)
    exact = None
    if P.m <= exact_max_edges:
        pk = generic_packing(P)
        if not verify_edsts(P, pk.trees, allow_empty=True).valid:  # pragma: no cover - the packer's own guarantee
            raise RuntimeError(f"{inst.name}: the exact packing failed verification")
        exact = int(pk.count)
    prop = has_property_vd1(P) is not None
    cache: dict[str, Built] = {}
    rows = []
    for row in TABLE_I:
        for method in row.methods:
            if method not in cache:
                try:
                    cache[method] = build_trees(P, method)
                except ValueError:
                    continue
            b = cache[method]
            v = b.values
            if not row.applies(v["t_G"], v["r_G"], v["t_H"], v["r_H"], prop):
                continue
            count = len(b.trees)
            want = evaluate(row.count, v)
            gap = bound - count
            claim_ok = gap <= row.claim_gap
            if row.row == 1 and (v["r_G"] == v["t_G"] or v["r_H"] == v["t_H"]):
                claim_ok = gap == 0
            verified = bool(verify_edsts(P, b.trees, allow_empty=True).valid)
            deepest, deepest_low, own_ok = _depth_values(b)
            dtext = row.low_depth_max if method == "low-depth" else row.max_depth
            dbound = evaluate(dtext, v)
            lbound = evaluate(row.min_depth, v)
            depth_ok = deepest is None or deepest <= dbound
            low_ok = deepest_low is None or deepest_low <= lbound
            exact_ok = exact is None or count <= exact <= bound
            thm = row.edst_thm
            if row.row == 1 and v["r_G"] == v["t_G"] and v["r_H"] == v["t_H"]:
                thm = "V-C.3"  # the equality case of row 1 is row 2
            agree = (count == want and verified and claim_ok and depth_ok and low_ok and own_ok and exact_ok
                     and b.trees.theorem == thm)
            rows.append({
                "row": row.row, "instance": inst.name, "source": inst.source, "parameters": format_params(inst.params),
                "vertices": int(P.n), "edges": int(P.m), "t_G": v["t_G"], "r_G": v["r_G"], "t_H": v["t_H"],
                "r_H": v["r_H"], "property_vd1": prop, "method": method, "theorem": b.trees.theorem,
                "formula_count": want, "constructed": count, "upper_bound": bound, "exact_maximum": exact,
                "max": "yes" if gap == 0 else f"within {gap}", "claim": row.claim, "claim_holds": bool(claim_ok),
                "verified": verified, "depth": deepest, "depth_formula": dbound, "min_depth": deepest_low,
                "min_depth_formula": lbound, "d_G": v["d_G"], "d_H": v["d_H"], "D_G": v["D_G"], "D_T": v["D_T"],
                "agree": bool(agree)})
    return rows


_INT_NA = ("exact_maximum", "depth", "min_depth", "D_T")


def instances_frame(instances: list[Instance], exact_max_edges: int = 1500) -> pd.DataFrame:
    """:func:`check_instance` over a list of instances, sorted by Table I row then instance order.

    Returns
    -------
    DataFrame
        Columns ``row, instance, source, parameters, vertices, edges, t_G, r_G, t_H, r_H, property_vd1,
        method, theorem, formula_count, constructed, upper_bound, exact_maximum, max, claim, claim_holds,
        verified, depth, depth_formula, min_depth, min_depth_formula, d_G, d_H, D_G, D_T, agree``.

    Example
    -------
    >>> df = instances_frame(named_instances()[:1])
    >>> df[["row", "method", "constructed", "exact_maximum", "max"]].values.tolist()
    [[1, 'maximum', 2, 2, 'yes'], [6, 'universal', 0, 2, 'within 2'], [6, 'low-depth', 0, 2, 'within 2']]
    """
    rows = []
    for k, inst in enumerate(instances):
        for r in check_instance(inst, exact_max_edges):
            r["_order"] = k
            rows.append(r)
    df = pd.DataFrame(rows)
    df = df.sort_values(["row", "_order"], kind="mergesort").drop(columns="_order").reset_index(drop=True)
    for c in _INT_NA:
        df[c] = df[c].astype("Int64")
    return df


def formula_frame() -> pd.DataFrame:
    """Table I as printed (reconstructed): one row per :data:`TABLE_I` entry, formula cells as strings.

    Example
    -------
    >>> formula_frame()["EDST Thm."].tolist()
    ['V-C.10', 'V-C.3', 'V-C.11', 'V-D.2', 'V-D.2', 'V-B.1']
    """
    recs = []
    for row in TABLE_I:
        max_depth = row.max_depth if row.low_depth_max is None else \
            f"{row.max_depth} (V-B.3), or {row.low_depth_max} (V-B.5(2))"
        n_min = row.n_min_depth
        recs.append({"Conditions": row.conditions, "# EDSTs": row.count, "Max?": row.claim,
                     "EDST Thm.": row.edst_thm, "Max Depth": max_depth, "Min Depth": row.min_depth,
                     "# Min-Depth EDSTs": n_min, "Depth Thms.": row.depth_thms})
    return pd.DataFrame(recs)


def table_i_frame(instances: pd.DataFrame) -> pd.DataFrame:
    """The reconstructed Table I with, per row, how many instances were checked and whether all agree.

    Parameters
    ----------
    instances : DataFrame
        The output of :func:`instances_frame`.

    Returns
    -------
    DataFrame
        :func:`formula_frame` plus ``instances`` (distinct products), ``checks`` (product, construction pairs),
        ``largest gap to bound``, ``largest gap to maximum`` (exact packing, where computed) and ``all agree``.

    Example
    -------
    >>> t = table_i_frame(instances_frame(named_instances()[:2]))
    >>> t[["instances", "all agree"]].values.tolist()[:2]
    [[2, True], [1, True]]
    """
    out = formula_frame()
    inst, checks, gap_b, gap_m, agree = [], [], [], [], []
    for row in TABLE_I:
        sub = instances[instances["row"] == row.row]
        inst.append(int(sub["instance"].nunique()))
        checks.append(int(len(sub)))
        gap_b.append(int((sub["upper_bound"] - sub["constructed"]).max()) if len(sub) else None)
        ex = sub[sub["exact_maximum"].notna()]
        gap_m.append(int((ex["exact_maximum"] - ex["constructed"]).max()) if len(ex) else None)
        agree.append(bool(len(sub) and sub["agree"].all()))
    out["instances"] = inst
    out["checks"] = checks
    out["largest gap to bound"] = pd.array(gap_b, dtype="Int64")
    out["largest gap to maximum"] = pd.array(gap_m, dtype="Int64")
    out["all agree"] = agree
    return out
