"""What every table under ``paper_tables/`` shows: caption, column glossary, decimals, formula columns, layout.

One :class:`TableNote` per table name, in :data:`TABLE_NOTES`; :func:`starlib.paper.tables.write_table` looks the
name up and refuses a table without one (and a note that does not describe exactly the frame's columns). The
notes are read from what the notebooks compute (the modules of :mod:`starlib.paper` and the side domains);
captions cite the source's table, section, theorem or equation numbers: the star-product paper (Isham et al.,
2025), the super Cayley paper (Yeh, Varvarigos and Lee) and the network-design notes.

Text conventions (captions, meanings, units): ``$...$`` is LaTeX mathematics (GitHub and Jupyter render it in
the Markdown files too) and ```...``` is code. A column's ``kind`` says how the LaTeX rendering typesets its
cells: ``"text"`` as text, ``"math"`` as one formula written in ASCII (``(3*q - 1)/2``), ``"mixed"`` as text with
formulas in it (:mod:`starlib.paper.latex` states the grammar).

Example
-------
>>> note = TABLE_NOTES["table4"]
>>> note.columns["Degree"].kind, note.landscape
('mixed', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Column", "TableNote", "TABLE_NOTES"]


@dataclass(frozen=True)
class Column:
    """The description of one column.

    Attributes
    ----------
    meaning : what the column holds (text; ``$...$`` mathematics, ```...``` code).
    unit : its unit (``"vertices"``, ``"$\\mu$s"``), empty for a flag, a name or a formula.
    tex : the LaTeX header (an abbreviation, raw LaTeX); default the column name, escaped.
    kind : ``"text"``, ``"math"`` or ``"mixed"`` (module docstring).
    star : ``*`` in the column's formulas is the star product (else multiplication).
    decimals : digits after the point of every float in the Markdown and LaTeX renderings (required for a
        column that holds floats).
    sci : floats in scientific notation (``4.74e-298``) with ``decimals`` digits.
    missing : values that mean "no value" and are shown as the missing marker (``-1`` for "no tree").
    empty : what an empty string shows; ``None``: it is a missing value.
    width : LaTeX column width (``"3cm"``): the text wraps inside it.
    """

    meaning: str
    unit: str = ""
    tex: str | None = None
    kind: str = "text"
    star: bool = False
    decimals: int | None = None
    sci: bool = False
    missing: tuple = ()
    empty: str | None = None
    width: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("text", "math", "mixed"):
            raise ValueError(f"kind={self.kind!r} is not one of text, math, mixed")
        if self.decimals is not None and (not isinstance(self.decimals, int) or self.decimals < 0):
            raise ValueError(f"decimals={self.decimals!r} must be an integer >= 0")


@dataclass(frozen=True)
class TableNote:
    """The description of one table.

    Attributes
    ----------
    caption : what the table shows, citing the source's numbers (text with ``$...$`` mathematics).
    columns : column name -> :class:`Column`, for every column of the frame.
    default : the description of every column not in ``columns`` (tables with one column per dimension).
    landscape : LaTeX: the table gets a page of its own, turned (``pdflscape``).
    size : LaTeX font size of the table (``small``, ``footnotesize``, ``scriptsize``, ...).
    tabcolsep : LaTeX space on each side of a column.
    rotate : LaTeX headers turned by 90 degrees (each column only as wide as its values).
    long : full listing (``NAME_full.tex``): a ``longtable`` (breaks across pages) or a ``table`` float;
        ``None``: a ``longtable`` when the table has more than :data:`starlib.paper.tables.LONGTABLE_ROWS` rows.
    audit : the columns that check the table rather than state its result (instances counted, verification
        flags, closed forms recomputed beside measured values): the CSV and the full listing keep them, the paper
        form ``NAME.tex`` leaves them out.
    group_by : the paper form's compact layout: one line per group of these columns, every other column as the
        range or set of its values in the group (:func:`starlib.paper.compact.compact`); empty: one line per row.
    lines : what one line of the compact form stands for, in the reader's words: the caption says "One line per
        {lines}" (``"network family and radix budget"``); required with ``group_by`` (a test checks every table).
    block : a column of ``group_by`` that splits the paper form into blocks: a rule before each new value, and the
        value shown on the block's first line only (for a table that repeats its networks at several budgets).
    wide : the paper form spans both columns of a two-column paper (``table*``); else a one-column ``table``.
    detail : the columns shown only in the full listing: per-row identifiers (an instance, a network's name and
        parameters) and per-row details that a line of the compact form cannot summarize (a degree distribution,
        a schedule). The CSV and the full listing keep them; requires ``group_by``.
    equal : pairs ``(a, b)`` of columns whose agreement the paper form states: it shows a column ``a = b``
        (yes where ``a`` equals ``b`` in every row of the line, computed from the frame) after the later of
        the two; it may be
        named in ``group_by``.
    rows : pairs ``(column, values)``: the paper form keeps only the rows whose ``column`` is one of ``values``
        (for a table that repeats every case at several rates, the rates a paper shows); the caption says so, and
        the CSV and the full listing keep every row.

    ``landscape``, ``long`` and ``rotate`` shape the full listing (and ``rotate``, ``size``, ``tabcolsep`` the
    paper form too); the paper form is never a landscape page nor a ``longtable``.
    """

    caption: str
    columns: dict[str, Column] = field(default_factory=dict)
    default: Column | None = None
    landscape: bool = False
    size: str = "small"
    tabcolsep: str = "4pt"
    rotate: bool = False
    long: bool | None = None
    audit: tuple[str, ...] = ()
    group_by: tuple[str, ...] = ()
    wide: bool = False
    detail: tuple[str, ...] = ()
    equal: tuple[tuple[str, str], ...] = ()
    rows: tuple[tuple[str, tuple], ...] = ()
    lines: str = ""
    block: str | None = None

    def __post_init__(self) -> None:
        for name in ("audit", "group_by", "detail"):
            value = getattr(self, name)
            if not isinstance(value, tuple) or not all(isinstance(c, str) for c in value):
                raise ValueError(f"{name}={value!r} must be a tuple of column names")
        if self.lines and not self.group_by:
            raise ValueError(f"lines={self.lines!r} needs group_by (it says what one line of the compact form is)")
        if self.block is not None and self.block not in self.group_by:
            raise ValueError(f"block={self.block!r} must be one of group_by={self.group_by!r}")
        if self.detail and not self.group_by:
            raise ValueError(f"detail={self.detail!r} needs group_by (a paper form of one line per row shows them)")
        if not isinstance(self.equal, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and all(isinstance(c, str) for c in p) for p in self.equal):
            raise ValueError(f"equal={self.equal!r} must be a tuple of (column, column) pairs")
        if not isinstance(self.rows, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], tuple) and p[1]
                for p in self.rows):
            raise ValueError(f"rows={self.rows!r} must be a tuple of (column, non-empty tuple of values) pairs")

    @property
    def condensed(self) -> bool:
        """Whether the paper form leaves out columns or rows of the frame (then ``NAME_full.tex`` lists them all)."""
        return bool(self.audit or self.group_by or self.detail or self.rows)

    def equal_name(self, a: str, b: str) -> str:
        """The name of the paper form's column stating that ``a`` equals ``b``."""
        return f"{a} = {b}"


# -- columns shared by several tables ----------------------------------------------------------------------------

_NETWORK = Column("network family (`slimfly`: Slim Fly $\\mathrm{MMS}(q)$; `bundlefly`: "
                  "$\\mathrm{MMS}(q) \\star \\mathrm{QR}(q')$; `polarstar-paley`: $\\mathrm{ER}_q \\star "
                  "\\mathrm{QR}(q')$; `polarstar-iq`: $\\mathrm{ER}_q \\star \\mathrm{IQ}(d')$)", tex="network")
_PARAMS = Column("the family's parameters (`paley_q` is the Paley order $q'$, `d` the IQ degree $d'$)",
                 tex="param.")
_N = Column("vertices of the network", "vertices", tex="$n$")
_M = Column("edges of the network", "edges", tex="$m$")
_YES = "yes if "


def _flag(text: str, tex: str | None = None) -> Column:
    return Column(_YES + text, tex=tex)


def _pick(note: TableNote, *names: str) -> dict[str, Column]:
    """The columns ``names`` of ``note``, for a table that shows some of another table's columns."""
    return {k: note.columns[k] for k in names}


_Q = Column("prime power", tex="$q$")
_UPPER_BOUND = Column("eq. (1) bound $\\lfloor m/(n-1) \\rfloor$", "trees", tex="bound")
_MEAN_DEPTH = Column("mean depth of the trees", "hops", tex="mean", decimals=2)
_VERIFIED = _flag("the verifier accepts the trees", "ver.")
_VALID = _flag("the trees verify", "valid")


# -- the star-product paper ----------------------------------------------------------------------------------------

_NETWORKS = TableNote(
    "The networks of the star-product paper (Section II, Appendix B): vertices, edges, degree set and "
    "diameter of each network, equal to the closed forms of Appendix B.",
    {"network": Column("network family (as on the command line, `python -m starlib networks`)"),
     "parameters": Column("the family's parameters", tex="param."),
     "vertices": Column("vertices counted on the built graph", "vertices", tex="$n$"),
     "edges": Column("edges counted on the built graph", "edges", tex="$m$"),
     "degrees": Column("the distinct vertex degrees, counted", "links", tex="degrees"),
     "diameter": Column("diameter (breadth-first search)", "hops", tex="diam."),
     "formula_vertices": Column("closed form of $n$ (docs/star-products.md §10)", "vertices", tex="$n$ (f.)"),
     "formula_edges": Column("closed form of $m$", "edges", tex="$m$ (f.)"),
     "formula_degrees": Column("closed form of the degree set", "links", tex="degrees (f.)"),
     "expected_diameter": Column("the diameter the family is known to have, where one is stated", "hops",
                                 tex="diam. (f.)"),
     "agree": _flag("every measured value equals its closed form")},
    size="footnotesize",
    audit=("formula_vertices", "formula_edges", "formula_degrees", "expected_diameter", "agree"), group_by=("network",),
    lines="network family")

_TABLE5 = TableNote(
    "Table V of the star-product paper (Appendix B-B): closed forms of the factor graphs per case, each "
    "holding for every parameter of its case. $t = \\lfloor m/(n-1) \\rfloor$ is the eq. (1) bound and $r "
    "= m - t(n-1)$ the number of edges left outside $t$ spanning trees.",
    {"graph": Column("factor graph", tex="graph", kind="math"),
     "case": Column("parameter case ($q = 4w + \\delta$ for the MMS graphs)", tex="case", kind="mixed"),
     "parameter": Column("the parameter written as $a k + c$, and its admissible values", tex="parameter",
                         kind="mixed", width="5cm"),
     "n": Column("closed form of the number of vertices", "vertices", tex="$n$", kind="math"),
     "m": Column("closed form of the number of edges", "edges", tex="$m$", kind="math"),
     "degree": Column("closed form of the degree (ER$_q$: $q+1$ at $q^2$ vertices, $q$ at the $q+1$ absolute "
                      "points)", "links", tex="degree", kind="mixed", width="2.6cm"),
     "st_edges": Column("edges of a spanning tree, $n - 1$", "edges", tex="$n-1$", kind="math"),
     "t": Column("eq. (1) bound $\\lfloor m/(n-1) \\rfloor$, attained (Appendix B-B)", "trees", tex="$t$",
                 kind="math"),
     "r": Column("non-tree edges $m - t(n-1)$", "edges", tex="$r$", kind="math"),
     "r_vs_t": Column("$r$ against $t$ (Table I: $r = t$ Theorem V-C.3, $r > t$ Corollary V-C.10, $r < t$ "
                      "Corollary V-C.11)", tex="$r$ vs $t$", kind="math"),
     "proved": _flag("sympy proved the row for every parameter of the case", "proved"),
     "source": Column("section of the paper", tex="source")},
    landscape=True, size="footnotesize",
    audit=("proved", "source"), wide=True)

_DEGREES_MEASURED = "degrees as `d (xN)`: $N$ vertices of degree $d$"
_TABLE5_MEASURED = TableNote(
    "Table V at given parameters (Appendix B-B of the star-product paper): each factor graph's vertices, "
    "edges, degrees, the eq. (1) bound $t$ and the maximum number of EDSTs, equal to the closed forms of "
    "Table V.",
    {"graph": Column("factor graph (the row of Table V)", tex="graph", kind="math"),
     "family": Column("builder (`starlib.factors`; `slimfly` for $\\mathrm{MMS}(q)$)", tex="builder"),
     "parameter": Column("the parameter's value", tex="param.", kind="math"),
     "case": Column("the case of Table V", tex="case", kind="mixed"),
     "n": Column("vertices counted", "vertices", tex="$n$"),
     "m": Column("edges counted", "edges", tex="$m$"),
     "degrees": Column(_DEGREES_MEASURED + ", counted", tex="degrees", width="2.2cm"),
     "st_edges": Column("edges of a spanning tree, $n - 1$", "edges", tex="$n-1$"),
     "t_eq1": Column("eq. (1) bound $\\lfloor m/(n-1) \\rfloor$", "trees", tex="$t_{\\mathrm{eq1}}$"),
     "t_packed": Column("maximum number of EDSTs found by the exact packing (`max_edsts`, trees verified); not "
                        "computed above `pack_max_edges` edges", "trees", tex="$t_{\\mathrm{packed}}$"),
     "r": Column("non-tree edges $m - t(n-1)$, with the packed $t$ where computed", "edges", tex="$r$"),
     "cf_n": Column("closed form of $n$", "vertices", tex="$n$ (f.)"),
     "cf_m": Column("closed form of $m$", "edges", tex="$m$ (f.)"),
     "cf_degrees": Column("closed form of the " + _DEGREES_MEASURED, tex="degrees (f.)", width="2.2cm"),
     "cf_t": Column("closed form of $t$", "trees", tex="$t$ (f.)"),
     "cf_r": Column("closed form of $r$", "edges", tex="$r$ (f.)"),
     "agree": _flag("every measured value equals its closed form and the packing attains $t$")},
    landscape=True, size="footnotesize", tabcolsep="3pt",
    audit=("family", "cf_n", "cf_m", "cf_degrees", "cf_t", "cf_r", "agree"), group_by=("graph", "case"),
    lines="factor graph and case of Table V", wide=True,
    detail=("degrees",))

_BOUNDS_CHECK = TableNote(
    "Upper bounds on the number of EDSTs of a star product (Section IV and Appendix A of the star-product "
    "paper): each statement, the argument that establishes it and the cases it covers.",
    {"statement": Column("the statement checked ($\\tau$: maximum number of EDSTs; $\\tau^*$: the eq. (1) bound "
                         "of the product)", tex="statement", kind="mixed", star=True, width="8.6cm"),
     "method": Column("how it was checked", tex="method", width="4.6cm"),
     "range": Column("the cases covered", tex="range", kind="mixed", star=True, width="6cm"),
     "cases": Column("cases checked", "cases", tex="cases"),
     "counterexamples": Column("cases where the statement fails", "cases", tex="fails"),
     "holds": _flag("no counterexample", "holds")},
    landscape=True, size="footnotesize",
    audit=("cases", "counterexamples", "holds"), wide=True)

_TABLE1 = TableNote(
    "Table I of the star-product paper (Section V): the number of EDSTs of $G \\star H$ built per case, "
    "whether it is maximum, and the depths. $t_G, t_H$ are the factors' EDST counts, $r_G, r_H$ their "
    "non-tree edges, $d_G, d_H$ the largest radii of their trees, $D_G$ the height of $T_G^{t_G}$ from "
    "the root used and $D_T$ that of the Property V-D.1 tree (Table II).",
    {"Conditions": Column("when the row applies", tex="Conditions", kind="mixed", width="2.9cm"),
     "# EDSTs": Column("number of EDSTs the construction builds", "trees", tex="\\# EDSTs", kind="math",
                       width="1.5cm"),
     "Max?": Column("how far the count can be from the maximum", tex="Max?", kind="mixed", width="2.2cm"),
     "EDST Thm.": Column("the result that builds the trees", tex="EDST Thm."),
     "Max Depth": Column("bound on the depth of the deepest tree", "hops", tex="Max Depth", kind="mixed",
                         width="5.2cm"),
     "Min Depth": Column("bound on the depth of the min-depth trees", "hops", tex="Min Depth", kind="math",
                         width="1.6cm"),
     "# Min-Depth EDSTs": Column("number of trees within the Min Depth bound", "trees", tex="\\# Min-D.",
                                 kind="math"),
     "Depth Thms.": Column("the depth theorems", tex="Depth Thms.", width="1.3cm"),
     "instances": Column("distinct star products checked in the row", "products", tex="inst."),
     "checks": Column("(product, construction) pairs checked", "checks", tex="checks"),
     "largest gap to bound": Column("largest eq. (1) bound minus count over the checks", "trees",
                                    tex="gap bd."),
     "largest gap to maximum": Column("largest exact maximum minus count, where the exact packing ran", "trees",
                                      tex="gap max."),
     "all agree": _flag("every check agrees: count equals the formula, trees verified, gap within the claim, "
                        "every depth within its bounds", "agree")},
    landscape=True, size="footnotesize",
    audit=("instances", "checks", "largest gap to bound", "largest gap to maximum", "all agree"), wide=True)

_TABLE1_INSTANCES = TableNote(
    "Star products $G \\star H$ for the rows of Table I (Section V of the star-product paper): factor "
    "quantities as in Table II, the number of EDSTs the row's construction gives against the upper bound "
    "and the maximum, and the depths against the row's formulas.",
    {"row": Column("the row of Table I", tex="row"),
     "instance": Column("the star product ($\\square$: Cartesian product; random ones are seeded)", tex="instance",
                        kind="mixed", star=True, width="1.6cm"),
     "source": Column("family or kind of product", tex="source", width="1.5cm"),
     "parameters": Column("its parameters (random products: factor sizes, $t$, $r$ and seed)", tex="param.",
                          width="2.2cm"),
     "vertices": _N,
     "edges": _M,
     "t_G": Column("EDSTs of the structure graph $G$", "trees", tex="$t_G$"),
     "r_G": Column("non-tree edges of $G$", "edges", tex="$r_G$"),
     "t_H": Column("EDSTs of the supernode $H$", "trees", tex="$t_H$"),
     "r_H": Column("non-tree edges of $H$", "edges", tex="$r_H$"),
     "property_vd1": _flag("the product has Property V-D.1", "V-D.1"),
     "method": Column("construction run (`maximum`: Section V-C; `property`: V-D; `universal`, `low-depth`: "
                      "V-B)", tex="method"),
     "theorem": Column("the result the construction used", tex="thm."),
     "formula_count": Column("the row's count formula at the factors' values", "trees", tex="form."),
     "constructed": Column("trees built and verified", "trees", tex="built"),
     "upper_bound": Column("eq. (1) bound of the product", "trees", tex="bound"),
     "exact_maximum": Column("exact maximum (matroid packing), for products with at most `exact_max_edges` edges",
                             "trees", tex="max."),
     "max": Column("gap of the count to the bound", tex="gap"),
     "claim": Column("the row's Max? claim", tex="claim", kind="mixed", width="1.9cm"),
     "claim_holds": _flag("the gap is within the claim", "ok"),
     "verified": _VERIFIED,
     "depth": Column("depth of the deepest tree", "hops", tex="depth"),
     "depth_formula": Column("the row's Max Depth bound at the measured quantities", "hops", tex="bd."),
     "min_depth": Column("depth of the deepest min-depth tree (Constructions V-B.2, V-C.4)", "hops",
                         tex="min d."),
     "min_depth_formula": Column("the row's Min Depth bound", "hops", tex="bd."),
     "d_G": Column("largest radius of the trees of $G$", "hops", tex="$d_G$"),
     "d_H": Column("largest radius of the trees of $H$", "hops", tex="$d_H$"),
     "D_G": Column("height of $T_G^{t_G}$ from the root used", "hops", tex="$D_G$"),
     "D_T": Column("height of the Property V-D.1 tree $T$ (construction `property` only)", "hops", tex="$D_T$"),
     "agree": _flag("everything agrees: count, verifier, claim, depth bounds, theorem", "agree")},
    landscape=True, size="scriptsize", tabcolsep="2.5pt", rotate=True,
    audit=("source", "formula_count", "claim", "claim_holds", "verified", "depth_formula",
           "min_depth_formula", "agree"), group_by=("row",),
    lines="row of Table I", wide=True,
    detail=("instance", "parameters", "d_G", "d_H", "D_G", "D_T"))

_TABLE4 = TableNote(
    "Table IV of the star-product paper (Appendix B-C): Slim Fly, Bundlefly and PolarStar as star "
    "products, their degree, the eq. (1) upper bound, the theorem that builds their EDSTs and how many, "
    "and whether that is maximum. $q = 4w + \\delta$; $q'$ is a prime power $\\equiv 1 \\pmod 4$; $d' "
    "\\equiv 0$ or $3 \\pmod 4$.",
    {"Network": Column("the network as a star product", tex="Network", kind="mixed", star=True, width="2.8cm"),
     "Parameters": Column("the parameter case", tex="Parameters", kind="mixed", width="3.1cm"),
     "Degree": Column("degree (ER$_q$ is loop-free, so PolarStar is not regular: $q + \\deg_H$ at the $q+1$ "
                      "absolute points, $q + 1 + \\deg_H$ elsewhere)", "links", tex="Degree", kind="mixed",
                      width="3.2cm"),
     "Upper bound": Column("eq. (1) bound $\\lfloor m/(n-1) \\rfloor$", "trees", tex="Upper bound", kind="math"),
     "Thm.": Column("the construction Table I selects", tex="Thm."),
     "# EDSTs constructed": Column("trees it builds", "trees", tex="\\# EDSTs", kind="math"),
     "Max?": Column("the paper's answer: does the construction reach the maximum", tex="Max?"),
     "bound proved": _flag("sympy proved the bound is $\\lfloor m/(n-1) \\rfloor$ for every parameter "
                           "(and, for regular rows, $2m = n \\cdot$ degree)", "proved"),
     "bound - constructed": Column("bound minus count, simplified symbolically", "trees", tex="gap",
                                   kind="math"),
     "instances": Column("networks of the row built and checked", "networks", tex="inst."),
     "all agree": _flag("every instance has the row's degree, bound, theorem and count, and its trees verify",
                        "agree"),
     "Max? (computed)": Column("the answer from the computation (`table4_maybe` settles the Maybe row by exact "
                               "packing)", tex="Max? (computed)", width="2.6cm")},
    landscape=True, size="footnotesize",
    audit=("bound proved", "bound - constructed", "instances", "all agree", "Max? (computed)"), wide=True)

_TABLE4_INSTANCES = TableNote(
    "The networks of Table IV at given parameters (star-product paper, Section V and Appendix B-C): "
    "degree, eq. (1) bound, the construction Table I prescribes and the number of EDSTs it builds.",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "vertices": _N,
     "edges": _M,
     "degree": Column("degree, or the range min-max when the network is not regular", "links", tex="degree"),
     "upper_bound": _UPPER_BOUND,
     "theorem": Column("the result that built the trees", tex="thm."),
     "constructed": Column("trees built", "trees", tex="built"),
     "maximum": _flag("the count reaches the bound (so it is the maximum)", "max."),
     "verified": _flag("the verifier accepts the trees (spanning, acyclic, edge-disjoint)", "ver.")},
    size="footnotesize",
    audit=("verified",), group_by=("network", "theorem"),
    lines="network family and the theorem that built its trees", wide=True)

_TABLE4_MAYBE = TableNote(
    "The row of Table IV marked Maybe (PolarStar $\\mathrm{ER}_q \\star \\mathrm{IQ}(d')$, $q$ odd, $d' "
    "\\equiv 3 \\pmod 4$; star-product paper): the construction's count against the maximum number of "
    "EDSTs.",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "vertices": _N,
     "edges": _M,
     "upper_bound": _UPPER_BOUND,
     "theorem": Column("the result the construction uses", tex="thm."),
     "constructed": Column("trees the construction builds", "trees", tex="built"),
     "exact_maximum": Column("maximum number of EDSTs (Edmonds' matroid partition)", "trees", tex="max."),
     "certificate": Column("the bound that certifies the maximum (`edges`: eq. (1))", tex="cert."),
     "verified": _flag("both tree sets verify", "ver."),
     "construction_is_maximum": _flag("the construction reaches the maximum", "constr. max.")},
    size="footnotesize",
    audit=("certificate", "verified"), wide=True)

#: the columns that name a tree set of `depths` and `depths_trees`
_DEPTH_SET = {
    "network": _NETWORK,
    "parameters": _PARAMS,
    "n": _N,
    "radius": Column("radius of the network (no spanning tree is shallower)", "hops", tex="rad."),
    "method": Column("construction (`universal`: Theorem V-B.1; `low-depth`: the same with Theorem V-B.5(2); "
                     "`maximum`: V-C.3, V-C.10, V-C.11; `twisted`: the same count by our twisted construction, "
                     "docs/star-products.md §7.7; `generic`: exact packing, no depth control)", tex="method"),
    "factor_trees": Column("factor EDSTs used (`paths`: Hamiltonian paths where they exist; `shallow`: shallow "
                           "trees; the exact packer uses none)", tex="factor", missing=("-",)),
    "trees": Column("trees in the set (all verified)", "trees", tex="trees"),
    "expected_trees": Column("trees Table I predicts (generic: the upper bound)", "trees", tex="exp."),
}
_DEPTHS = TableNote(
    "Depth of the EDSTs of Slim Fly, Bundlefly and PolarStar (the depth theorems of Section V of the "
    "star-product paper, Table I's depth columns, the count-against-depth trade-off of Section VI), per "
    "network, construction and choice of factor trees.",
    {**_DEPTH_SET,
     "min_depth": Column("depth of the shallowest tree", "hops", tex="min", missing=(-1,)),
     "max_depth": Column("depth of the deepest tree", "hops", tex="max", missing=(-1,)),
     "mean_depth": _MEAN_DEPTH,
     "max_bound": Column("largest depth bound of the trees' theorems (Table I's Max Depth for these factor "
                         "trees)", "hops", tex="bound", missing=(-1,)),
     "low_family_trees": Column("trees of the min-depth families V-B.2, V-C.4, V-B.5(2)", "trees",
                                tex="min-d."),
     "within_bound": _flag("every tree is within its theorem's bound", "within")},
    size="footnotesize",
    audit=("expected_trees", "within_bound"), group_by=("network", "method", "factor_trees"),
    lines="network family, construction and kind of factor trees", wide=True)

_DEPTHS_TREES = TableNote(
    "Depth of every tree of the constructions of Section V of the star-product paper and of the twisted "
    "Maximum construction (ours, not the paper's), measured from its root, beside the bound of its depth theorem.",
    {**_DEPTH_SET,
     "valid": _flag("the set verifies", "valid"),
     "tree": Column("the tree's number in its set (0: the set is empty)", tex="tree", missing=(0,)),
     "construction": Column("the construction that built the tree", tex="constr."),
     "depth": Column("depth measured from the tree's root", "hops", tex="depth", missing=(-1,)),
     "bound": Column("depth bound recorded by the construction", "hops", tex="bound", missing=(-1,)),
     "bound_recomputed": Column("the bound recomputed from the recorded quantities (docs/star-products.md "
                                "§5-§8)", "hops", tex="recomp.", missing=(-1,)),
     "theorem": Column("the depth theorem that bounds the tree", tex="theorem")},
    size="scriptsize", tabcolsep="2.8pt",
    audit=("expected_trees", "valid", "bound_recomputed"), group_by=("network", "method", "factor_trees"),
    lines="network family, construction and kind of factor trees", wide=True)

_DEPTHS_GENERIC = TableNote(
    "A maximum packing without depth control (Section VI of the star-product paper): the depths of "
    "maximum EDST families over shuffled edge orders, against the low-depth construction with shallow "
    "factor trees (Theorems V-B.4, V-B.5(2)).",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "seed": Column("seed of the edge order", tex="seed"),
     "trees": Column("trees of the maximum packing", "trees", tex="trees"),
     "min_depth": Column("depth of its shallowest tree", "hops", tex="min"),
     "max_depth": Column("depth of its deepest tree", "hops", tex="max"),
     "low_depth_trees": Column("trees of the low-depth construction", "trees", tex="low trees"),
     "low_depth_max": Column("depth of its deepest tree", "hops", tex="low max"),
     "low_depth_bound": Column("its largest depth bound", "hops", tex="low bound")},
    group_by=("network", "parameters"),
    lines="network instance, over the seeds of its edge orders")

_CHIMERA = TableNote(
    "The Chimera graph $C_{R \\times C}$ as a star product $K_2 \\star H$ (Appendix C of the star-product "
    "paper): vertices, edges, the two colour classes, the Proposition IV-.1 bound and the maximum number "
    "of EDSTs.",
    {"instance": Column("the Chimera, planar or toric", tex="Chimera", kind="mixed"),
     "rows": Column("rows $R$ of cells", "cells", tex="$R$"),
     "cols": Column("columns $C$ of cells", "cells", tex="$C$"),
     "toric": _flag("wrap-around couplers", "toric"),
     "n": _N,
     "m": _M,
     "cf_n": Column("closed form $8RC$", "vertices", tex="$n$ (f.)"),
     "cf_m": Column("closed form $24RC - 4(R+C)$, toric $24RC$", "edges", tex="$m$ (f.)"),
     "degrees": Column("the distinct vertex degrees", "links", tex="deg."),
     "blue": Column("components of the blue cells (`K44`: one cell; `pair`: two cells joined; `ring`: four "
                    "cells round a block corner)", tex="blue"),
     "red": Column("components of the red cells", tex="red"),
     "isomorphic": _flag("the blue and red parts are isomorphic", "iso."),
     "rule": _flag("the derived rule says $K_2 \\star H$: $(a-1)(b-1)$ even for $C_{2a \\times 2b}$ "
                   "(docs/networks.md §9.3; planar even sizes only)", "rule"),
     "star_product": _flag("the library's $K_2 \\star H$ maps onto the Chimera edge for edge", "$K_2 \\star H$"),
     "n_H": Column("vertices of the supernode $H$ (the blue part)", "vertices", tex="$n_H$"),
     "m_H": Column("edges of $H$", "edges", tex="$m_H$"),
     "a": Column("$a$ in $m = a n + b$ (Proposition IV-.1)", tex="$a$"),
     "b": Column("$b$ in $m = a n + b$", "edges", tex="$b$"),
     "bound": Column("Proposition IV-.1 bound", "trees", tex="bound"),
     "max_edsts": Column("maximum number of EDSTs (exact packing, up to `pack_max_vertices` vertices)", "trees",
                         tex="max.")},
    landscape=True, size="footnotesize",
    audit=("cf_n", "cf_m", "isomorphic", "rule"), wide=True)

_ER_EDSTS = TableNote(
    "EDSTs of $\\mathrm{ER}_q$ (PolarFly; Appendix B-B7 of the star-product paper): Construction A "
    "(Hamiltonian paths from the Singer difference set) attains the bound $\\lfloor (q+1)/2 \\rfloor$ for "
    "every prime power $q$ computed.",
    {"q": _Q,
     "vertices": Column("vertices $q^2 + q + 1$", "vertices", tex="$n$"),
     "edges": Column("edges $q(q+1)^2/2$", "edges", tex="$m$"),
     "bound": Column("eq. (1) bound $\\lfloor (q+1)/2 \\rfloor$", "trees", tex="bound"),
     "trees": Column("trees of Construction A", "trees", tex="trees"),
     "verified": _VERIFIED,
     "seconds": Column("wall time to build and verify (recorded only with `record_times`)", "s", tex="time",
                       decimals=3)},
    size="footnotesize",
    audit=("seconds",), equal=(("trees", "bound"),), group_by=("verified", "trees = bound"),
    lines="outcome of the two checks (the verifier accepts the trees; their number equals the bound)")

_ER_EDSTS_DEPTH = TableNote(
    "Depth of two EDST families of $\\mathrm{ER}_q$: Construction A's Hamiltonian paths (Appendix B-B7 of "
    "the star-product paper) against low-depth lifted-cluster trees; a maximum family has depth at least "
    "3 for $q \\ge 3$.",
    {"q": _Q,
     "method": Column("family (`hamiltonian`: Construction A; `low-depth`: lifted clusters)", tex="family"),
     "constructions": Column("the constructions of its trees (docs/er-edsts.md)", tex="constructions"),
     "trees": Column("trees", "trees", tex="trees"),
     "verified": _VERIFIED,
     "min_depth": Column("depth of the shallowest tree", "hops", tex="min"),
     "max_depth": Column("depth of the deepest tree", "hops", tex="max")},
    size="footnotesize",
    audit=("verified",), group_by=("method", "constructions"),
    lines="family of trees and the constructions its trees come from")

_ER_SWEEP_SUMMARY = TableNote(
    "Both EDST families of $\\mathrm{ER}_q$ for every prime power $q \\le 1024$, one row per family: the "
    "bound $\\lfloor (q+1)/2 \\rfloor$ is attained throughout.",
    {"family": Column("EDST family (`hamiltonian`: Construction A; `low-depth`: lifted clusters)", tex="family"),
     "points": Column("prime powers $q$ in the record", "values of $q$", tex="points"),
     "q_max": Column("largest $q$ in the record", tex="$q_{\\max}$"),
     "largest_q_verified": Column("largest $q$ up to which every point is at the bound and verified",
                                  tex="verified to"),
     "at_bound": _flag("every family has $\\lfloor (q+1)/2 \\rfloor$ trees", "bound"),
     "verified": _flag("every tree spans, is acyclic, and is edge-disjoint from the others (streaming checks)",
                       "ver."),
     "isomorphism": _flag("$D$ is a perfect difference set and the Gram-basis map is an isomorphism onto the "
                          "dot-product $\\mathrm{ER}_q$, checked edge by edge, for every $q$", "iso."),
     "max_depth_range": Column("smallest and largest depth of the deepest tree, $q \\ge 3$", "hops",
                               tex="depth"),
     "task_hours": Column("sum of the tasks' wall times", "hours", tex="hours", decimals=2),
     "longest_task_s": Column("the longest task ($q = 1024$)", "s", tex="longest", decimals=1),
     "peak_mb": Column("largest peak resident memory of a worker during a task", "MB", tex="peak")},
    size="footnotesize",
    wide=True)

_ER_SWEEP_PROJECTION = TableNote(
    "Wall time of building both EDST families of $\\mathrm{ER}_q$ for every prime power $q \\le 1024$ on "
    "$N$ workers, projected from the measured time of each task with the schedule dearest task first, to "
    "the first free worker (Graham's LPT rule).",
    {"workers": Column("workers $N$ (one core each)", tex="$N$"),
     "hours": Column("projected wall time", "hours", tex="hours", decimals=3),
     "ideal_hours": Column("total task time / $N$", "hours", tex="ideal", decimals=3),
     "efficiency": Column("ideal / projected", tex="eff.", decimals=3),
     "bound_by": Column("what sets the time: the total work, or the longest single task", tex="bound by")},
    size="footnotesize")

# -- beyond the paper: allreduce and resilience (notebook 08), scaling (notebook 11) -------------------------------

_AR_METHOD = Column("tree set (`bfs`: one breadth-first tree; `universal`, `low-depth`, `maximum`: the "
                    "constructions of Section V; `generic`: exact packing)", tex="method")
_ALLREDUCE = TableNote(
    "Time of a pipelined allreduce over each set of edge-disjoint spanning trees in the latency-bandwidth "
    "model (the message cut into one part per tree, each part pipelined in chunks), beyond the "
    "star-product paper's Section VI trade-off.",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "n": _N,
     "method": _AR_METHOD,
     "trees": Column("trees in the set", "trees", tex="$k$"),
     "max_depth": Column("depth of the deepest tree", "hops", tex="$D_{\\max}$"),
     "t_1KiB_us": Column("allreduce time of 1 KiB, equal split", "$\\mu$s", tex="1\\,KiB", decimals=2),
     "t_64KiB_us": Column("allreduce time of 64 KiB, equal split", "$\\mu$s", tex="64\\,KiB", decimals=1),
     "t_1MiB_us": Column("allreduce time of 1 MiB, equal split", "$\\mu$s", tex="1\\,MiB", decimals=1),
     "t_64MiB_us": Column("allreduce time of 64 MiB, equal split", "$\\mu$s", tex="64\\,MiB", decimals=0),
     "t_64MiB_balanced_us": Column("allreduce time of 64 MiB, split balanced by tree depth", "$\\mu$s",
                                   tex="64\\,MiB bal.", decimals=0),
     "bandwidth_GBps": Column("bandwidth of the set: trees times the link bandwidth", "GB/s", tex="GB/s",
                              decimals=1),
     "crossover_vs_low_depth_equal_bytes": Column(
         "message size above which this set beats the low-depth set, equal split (only for sets with more trees)",
         "bytes", tex="cross. eq.", decimals=0),
     "crossover_vs_low_depth_balanced_bytes": Column("the same with the balanced split", "bytes",
                                                     tex="cross. bal.", decimals=0)},
    landscape=True, size="footnotesize",
    group_by=("network", "method"),
    lines="network family and tree set", wide=True)

_NETWORK_ER = Column(_NETWORK.meaning[:-1] + "; `polarfly`: $\\mathrm{ER}_q$)", tex="network")
_SHALLOW = TableNote(
    "Maximum and shallow, beyond the star-product paper's Section VI trade-off: per network, the count "
    "and the deepest tree of the paper's construction (Table I; for $\\mathrm{ER}_q$ the Hamiltonian "
    "paths of Appendix B-B7), of an exact maximum packing and of a shallow maximum family (the most "
    "trees, then a local search), with the lower bound on the maximum depth of any family of that many "
    "EDSTs (radius and degree budgets) and the target $2\\,\\mathrm{diameter} + 1$. Depths are measured "
    "from each tree's root.",
    {"network": _NETWORK_ER,
     "parameters": _PARAMS,
     "n": _N,
     "links": Column("edges of the network", "edges", tex="$m$"),
     "diameter": Column("diameter of the network", "hops", tex="diam."),
     "upper_bound": Column("upper bound $\\min(\\lfloor m/(n-1) \\rfloor, \\delta)$ on the EDSTs (eq. (1))",
                           "trees", tex="bound"),
     "paper": Column("the paper's construction (`auto`: Table I; `hamiltonian`: paths of Appendix B-B7)",
                     tex="paper"),
     "paper_trees": Column("trees of the paper's construction", "trees", tex="$k$ paper"),
     "paper_depth": Column("deepest tree of the paper's construction", "hops", tex="$D$ paper"),
     "generic_trees": Column("trees of the exact packer (-- : not run, estimated over the time budget)", "trees",
                             tex="$k$ gen.", missing=(-1,)),
     "generic_depth": Column("deepest tree of the exact packer, rooted at its centre", "hops", tex="$D$ gen.",
                             missing=(-1,)),
     "shallow_trees": Column("trees of `shallow_trees`", "trees", tex="$k$ sh."),
     "shallow_depth": Column("deepest tree of `shallow_trees`", "hops", tex="$D$ sh."),
     "shallow_mean_depth": Column("mean depth of the trees of `shallow_trees`", "hops", tex="mean", decimals=2),
     "shallow_start": Column("the starting family the shallow trees came from (`auto`, `shallow factor trees`, "
                             "`generic`, `hamiltonian`)", tex="start", width="1.3cm"),
     "maximum_known": _flag("the shallow count is the maximum: it equals the upper bound, or the exact packer "
                            "ran", "max."),
     "lower_bound": Column("counting lower bound on the deepest tree of any family of that many EDSTs (radius "
                           "and degree budgets, one tree at a time)", "hops", tex="l.b."),
     "proved_lower": Column("proved lower bound: the counting bound, or higher where CP-SAT refuted a depth on "
                            "the exact model (committed certificates)", "hops", tex="proved"),
     "certificate": Column("what proves the lower bound (`counting` or `CP-SAT`)", tex="by"),
     "gap": Column("shallow depth minus the proved lower bound", "hops", tex="gap"),
     "depth_status": Column("`optimal` (the shallow depth meets the proved lower bound) or `gap N`",
                            tex="status"),
     "target": Column("$2\\,\\mathrm{diameter} + 1$", "hops", tex="target"),
     "within_target": _flag("the shallow depth is at most the target", "ok")},
    landscape=True, size="scriptsize", tabcolsep="1.5pt",
    audit=("shallow_start", "maximum_known", "lower_bound", "certificate", "gap", "target", "within_target"),
    group_by=("network",),
    lines="network family", wide=True)

_SHALLOW_ER = TableNote(
    "$\\mathrm{ER}_q$ at the bound $\\lfloor (q+1)/2 \\rfloor$ with depth at most 4 (Appendix B-B7 of the "
    "star-product paper gives paths): the lifted-cluster family, a local search, then a repair of the "
    "vertices deeper than 4, depths measured from each tree's root; the lower bound is 3 for $q \\ge 3$.",
    {**_pick(_ER_EDSTS, "q", "vertices", "bound"),
     "links": _ER_EDSTS.columns["edges"],
     "trees": Column("trees built", "trees", tex="trees"),
     "verified": _ER_EDSTS_DEPTH.columns["verified"],
     "max_depth": _ER_EDSTS_DEPTH.columns["max_depth"],
     "mean_depth": _MEAN_DEPTH,
     "lower_bound": Column("lower bound on the deepest tree of any maximum family", "hops", tex="l.b."),
     "start": Column("the family the local search and repair started from", tex="start"),
     "depth3_family": Column("deepest tree of the committed depth-3 family (a symmetric CP-SAT search; -- : none "
                             "known)", "hops", tex="$D_3$", missing=(-1,)),
     "best_depth": Column("least maximum depth known", "hops", tex="best"),
     "depth_status": Column("`optimal` (the best depth meets the lower bound) or `gap N`", tex="status")},
    size="footnotesize",
    audit=("verified", "start", "depth3_family"), equal=(("trees", "bound"),),
    group_by=("max_depth", "best_depth", "lower_bound", "depth_status", "trees = bound"),
    lines="run of prime powers with the same depths, lower bound and status")

_DEPTH_EXACT_SMALL = TableNote(
    "The least depth of $k$ edge-disjoint spanning trees, settled exactly: OR-tools CP-SAT proves the "
    "depth below the optimum infeasible on a model of roots, parent arcs and levels, and finds a family "
    "at the optimum. The counting bound reasons one tree at a time; the coupled bound (an integer "
    "program over all $k$ trees at once, solved by HiGHS) reaches the optimum on every instance.",
    {"name": Column("the graph", tex="graph"),
     "n": _N,
     "m": Column("edges of the graph", "edges", tex="$m$"),
     "k": Column("number of trees (the maximum)", "trees", tex="$k$"),
     "lower_bound": Column("counting lower bound (radius and degree budgets, one tree at a time)", "hops",
                           tex="count."),
     "coupled_bound": Column("coupled lower bound (the trees share every vertex's degree)", "hops",
                             tex="coupled"),
     "start_depth": Column("depth of the shallow family the solver started from (`shallow_trees`)", "hops",
                           tex="start"),
     "optimum": Column("least depth found (a verified family)", "hops", tex="opt."),
     "proved_lower": Column("lower bound proved by CP-SAT (the depth below refuted)", "hops", tex="proved"),
     "status": Column("`optimal` when the family meets the proved bound", tex="status")},
    size="footnotesize")

_SHALLOW_FRONT = TableNote(
    "The count-depth front of the families built (Section VI of the star-product paper): for each count "
    "$c$, the least maximum depth of $c$ edge-disjoint spanning trees among every family and its locally "
    "searched version (a family of $k \\ge c$ trees gives its $c$ shallowest), and the family that gives "
    "it.",
    {"network": _NETWORK_ER,
     "parameters": _PARAMS,
     "trees": Column("number of trees $c$", "trees", tex="$c$"),
     "max_depth": Column("least maximum depth of $c$ trees", "hops", tex="depth"),
     "family": Column("the family (method; `+ls`: after the local search; `bfs`: one BFS tree at a centre)",
                      tex="family"),
     "lower_bound": Column("lower bound for $c$ trees (radius and degree budgets)", "hops", tex="l.b.")},
    size="footnotesize")

_SHALLOW_ALLREDUCE = TableNote(
    "The allreduce model on the shallow families: time of a pipelined allreduce over one BFS tree, the "
    "paper's construction, the low-depth construction and the shallow maximum family, and the message "
    "size from which each beats one BFS tree.",
    {"network": _NETWORK_ER,
     "parameters": _PARAMS,
     "n": _N,
     "method": Column("tree set (`bfs`: one BFS tree; `auto`/`hamiltonian`: the paper's construction; "
                      "`low-depth`: Theorem V-B.5(2); `shallow`: `shallow_trees`)", tex="method"),
     **_pick(_ALLREDUCE, "trees", "max_depth", "t_1KiB_us", "t_64KiB_us", "t_1MiB_us", "t_64MiB_us",
             "t_64MiB_balanced_us"),
     "beats_bfs_from_bytes": Column("message size from which the set is faster than one BFS tree (-- : never, "
                                    "or the BFS tree itself)", "bytes", tex="beats BFS", decimals=0)},
    landscape=True, size="footnotesize",
    wide=True)

_PEERS_NETWORK = Column("network family (as on the command line: star products `slimfly`, `polarfly` "
                        "($\\mathrm{ER}_q$), `bundlefly`, `polarstar-iq`, `polarstar-paley`; peers `dragonfly`, "
                        "`fat-tree` (k-ary n-tree), `hyperx`, `torus`, `hypercube`, `jellyfish`)", tex="network")
_PEERS_PARAMS = Column("the family's parameters (`starlib info NETWORK PARAMETERS` builds it; `p` is endpoints per "
                       "router, `loops=1` PolarStar's network version)", tex="param.", width="3.4cm")
_PEERS_BUDGET = Column("radix budget $R$ the network was designed for (ports per router)", "ports", tex="$R$")
_PEERS = TableNote(
    "Star products among their peers, beyond the star-product paper: for each radix budget $R$, each "
    "family's instance chosen by the designers' endpoint split with radix at most $R$: the maximum number "
    "of EDSTs (certified by a partition of the vertices), EDSTs per router port, the deepest tree of a "
    "shallow maximum family with the lower bound for that count, and the allreduce time of a large "
    "message over it with one rank per router (the endpoints take no part in it).",
    {"radix_budget": _PEERS_BUDGET,
     "network": _PEERS_NETWORK,
     "parameters": _PEERS_PARAMS,
     "kind": Column("`star product` or `peer`", tex="kind"),
     "routers": Column("routers (vertices of the network)", "routers", tex="$n$"),
     "links": Column("links between routers (edges)", "links", tex="$m$"),
     "diameter": Column("diameter of the network", "hops", tex="diam."),
     "network_ports": Column("largest number of links at a router (largest degree $k'$)", "ports", tex="$k'$"),
     "endpoints_per_router": Column("endpoints per router $p$ (fat tree: at its leaves, none elsewhere)",
                                    "endpoints", tex="$p$"),
     "radix": Column("ports of the busiest router, $\\max(\\deg + \\text{endpoints})$, counted on the network",
                     "ports", tex="radix"),
     "endpoints": Column("endpoints of the whole network", "endpoints", tex="endp."),
     "upper_bound": Column("upper bound $\\min(\\lfloor m/(n-1) \\rfloor, \\delta)$ on the EDSTs (eq. (1) and "
                           "the least degree)", "trees", tex="bound"),
     "max_edsts": Column("maximum number of EDSTs (the exact packer `generic_packing`)", "trees", tex="$k$"),
     "certified": _flag("the $k$ trees verify and the packer's vertex partition has a Nash-Williams bound of $k$",
                        "cert."),
     "edsts_per_port": Column("EDSTs per router port, $k$ / radix", "trees per port", tex="$k$/port",
                              decimals=4),
     "shallow_depth": Column("deepest tree of the shallow maximum family, measured from its root", "hops",
                             tex="$D$"),
     "lower_bound": Column("lower bound on the deepest tree of any family of $k$ EDSTs", "hops", tex="l.b."),
     "allreduce_us": Column("pipelined allreduce time of the large message (64 MiB in the committed run) over the "
                            "shallow family, equal split, notebook 08's model, with one rank per router (the "
                            "routers reduce; the endpoints are not ranks)", "$\\mu$s",
                            tex="allreduce, 1 rank/router", decimals=2)},
    landscape=True, size="scriptsize", tabcolsep="3pt",
    audit=("certified",), group_by=("radix_budget", "network", "kind"), block="radix_budget",
    lines="radix budget and network family (the Dragonfly's two global-link arrangements share a line, as do the "
          "Jellyfish's seeds; the full listing has every instance)", wide=True, detail=("parameters",))

_PEERS_JELLYFISH = TableNote(
    "Jellyfish over its seeds: the random regular graph built from the Slim Fly's switches for each radix "
    "budget, one graph per seed, and the least and largest value of each measure.",
    {"radix_budget": _PEERS_BUDGET,
     "parameters": Column("Jellyfish's parameters without the seed ($n$ routers, $r$ links and $p$ endpoints per "
                          "router)", tex="param."),
     "seeds": Column("seeds (graphs) measured", "graphs", tex="seeds"),
     **{f"{col}_{end}": Column(f"{word} of the {what}", unit, tex=f"{tex} {end}", decimals=dec)
        for col, what, unit, tex, dec in (("diameter", "diameter", "hops", "diam.", None),
                                          ("max_edsts", "maximum number of EDSTs", "trees", "$k$", None),
                                          ("shallow_depth", "deepest tree of the shallow maximum family", "hops",
                                           "$D$", None),
                                          ("lower_bound", "lower bound on the depth", "hops", "l.b.", None),
                                          ("allreduce_us", "allreduce time (as in `peers`)", "$\\mu$s",
                                           "allr.", 2))
        for end, word in (("min", "least value"), ("max", "largest value"))}},
    size="footnotesize", tabcolsep="3pt",
    wide=True)

_SIM_NET = Column("network family (`polarfly`: $\\mathrm{ER}_q$; `slimfly`: $\\mathrm{MMS}(q)$; `bundlefly`: "
                  "$\\mathrm{MMS}(q) \\star \\mathrm{QR}(q')$; `polarstar`: $\\mathrm{ER}_q \\star \\mathrm{QR}(q')$)",
                  tex="network")
_SIM_ALG = Column("`bfs`: one breadth-first tree from vertex 0; `auto`: the paper's construction (Table I's count); "
                  "`shallow`: the shallow maximum family; `ring`: reduce-scatter and allgather around a Hamiltonian "
                  "cycle, every step one link, in both directions (two rings, half the message each); `ring-sp`: "
                  "the contended ring, one direction over the breadth-first preorder, every step routed on a "
                  "shortest path", tex="alg.")
_SIMULATED = TableNote(
    "Allreduce simulated packet by packet (ns-3 3.44), beyond the star-product paper: one endpoint per "
    "router, point-to-point links of 100 Gb/s each way with a 1 $\\mu$s delay, packets of at most 8 KiB "
    "plus a 2-byte PPP header, the message split equally among the trees and pipelined packet by packet; "
    "beside it the latency-bandwidth model with $\\alpha = 1$ $\\mu$s and $\\beta = 1/12.5$ GB/s (for the "
    "two rings on a Hamiltonian cycle $2(n-1)(\\alpha + \\beta S/(2n))$, for the contended ring "
    "$2(n-1)(\\alpha + \\beta S/n)$; Patarasuk and Yuan 2009, Thakur et al. 2005).",
    {"network": _SIM_NET,
     "params": _PARAMS,
     "routers": Column("routers (one endpoint each)", "routers", tex="$n$"),
     "links": Column("links between routers", "links", tex="$m$"),
     "algorithm": _SIM_ALG,
     "trees": Column("trees the message is split over (0 for the rings)", "trees", tex="$k$"),
     "max_depth": Column("height of the deepest tree from its root (0 for the rings)", "hops", tex="$D$"),
     "size_bytes": Column("message size $S$", "bytes", tex="$S$"),
     "sim_us": Column("simulated completion time: the last packet at the last endpoint", "$\\mu$s", tex="sim.",
                      decimals=3),
     "model_us": Column("notebook 08's model for the same parameters", "$\\mu$s", tex="model", decimals=3),
     "sim_over_model": Column("simulated over modelled time", tex="ratio", decimals=3),
     "packet_hops": Column("packet transmissions (one per packet per link crossed)", "packets", tex="hops")},
    size="scriptsize", tabcolsep="3pt",
    group_by=("network", "algorithm"),
    lines="network family and schedule", wide=True)
_SIMULATED_TREES = TableNote(
    "Many shallow trees against one tree and the rings, simulated packet by packet: from which message size "
    "the shallow maximum family is faster than one breadth-first tree at every larger size of the grid (1 KiB "
    "to 16 MiB, powers of 4), in the simulation and in the latency-bandwidth model, and at 16 MiB the time of "
    "one tree, of the ring on a Hamiltonian cycle and of the contended ring over the shallow family's.",
    {"network": _SIM_NET,
     "params": _PARAMS,
     "routers": Column("routers (one endpoint each)", "routers", tex="$n$"),
     "shallow_trees": Column("trees of the shallow maximum family", "trees", tex="$k$"),
     "shallow_depth": Column("its deepest tree", "hops", tex="$D$"),
     "bfs_depth": Column("height of the breadth-first tree", "hops", tex="$D_1$"),
     "sim_from_bytes": Column("smallest size from which the shallow family wins in the simulation", "bytes",
                              tex="sim. from"),
     "model_from_bytes": Column("the same in the model", "bytes", tex="model from"),
     "speedup_16MiB_sim": Column("one tree's time over the shallow family's at 16 MiB, simulated", tex="sim. gain",
                                 decimals=2),
     "speedup_16MiB_model": Column("the same in the model", tex="model gain", decimals=2),
     "ring_over_shallow_16MiB": Column("the simulated time of the ring on a Hamiltonian cycle (both directions) "
                                       "over the shallow family's at 16 MiB", tex="ring/shallow", decimals=2),
     "ring_sp_over_shallow_16MiB": Column("the same for the contended ring (one direction over the breadth-first "
                                          "preorder, steps on shortest paths)", tex="ring-sp/shallow",
                                          decimals=2)},
    size="footnotesize", tabcolsep="3pt",
    wide=True)

_SCHED_NET = Column("network family (`slimfly`: Slim Fly $\\mathrm{MMS}(q)$; `polarfly`: $\\mathrm{ER}_q$; "
                    "`bundlefly`: $\\mathrm{MMS}(q) \\star \\mathrm{QR}(q')$; `polarstar-iq`: $\\mathrm{ER}_q \\star "
                    "\\mathrm{IQ}(d')$; `dragonfly`, `fat-tree` (k-ary n-tree), `hyperx`)", tex="network")
_SCHED_PARAMS = Column("the family's parameters (`paley_q` is the Paley order $q'$, `d` the IQ degree $d'$)",
                       tex="param.")
_SCHED_ROUTERS = Column("routers, each a rank (or with its hosts)", "routers", tex="$n$")


_SCHEDULES_LARGEST = TableNote(
    "Every allreduce schedule against ForestColl's optimum, simulated packet by packet (ns-3) with the routers as "
    "the ranks, at each network's largest message size: the time over ForestColl's throughput-optimal "
    "reduce-scatter and allgather $2(M/N)\\rho/b$, and the proved lower bound for any allreduce, "
    "$\\max(M/(b\\sigma), D\\,\\delta)$ with $\\sigma$ the strength (fractional tree packing number) of the "
    "network, over the same optimum. Links of 100 Gb/s each way and 1 $\\mu$s.",
    {"network": _SCHED_NET,
     "params": _SCHED_PARAMS,
     "routers": _SCHED_ROUTERS,
     "size_bytes": Column("message size $M$, the largest the network ran", "bytes", tex="$M$"),
     "optimum_us": Column("ForestColl's optimum $2(M/N)\\rho/b$", "$\\mu$s", tex="opt.", decimals=1),
     "bound_over_optimum": Column("the proved lower bound over the optimum (below 1: the optimum is not the best "
                                  "allreduce)", tex="bound", decimals=3),
     "trees": Column("the shallow maximum family of edge-disjoint spanning trees, the message split equally: time "
                     "over the optimum", tex="EDSTs", decimals=3),
     "weighted_trees": Column("the weighted tree family (a fractional tree packing, each tree paced at its share): "
                              "time over the optimum", tex="weighted", decimals=3),
     "bfs": Column("one breadth-first tree: time over the optimum", tex="BFS", decimals=3),
     "ring": Column("the ring on a Hamiltonian cycle, both directions: time over the optimum (empty: no cycle)",
                    tex="ring", decimals=3),
     "multiring": Column("rings on every edge-disjoint Hamiltonian cycle found: time over the optimum", tex="rings",
                         decimals=3),
     "ring_sp": Column("the contended ring (breadth-first preorder, steps on shortest paths): time over the "
                       "optimum (empty: not run)", tex="ring-sp", decimals=3),
     "dbtree": Column("NCCL's double binary tree: time over the optimum", tex="dbtree", decimals=3),
     "halving_doubling": Column("Rabenseifner's halving-doubling: time over the optimum", tex="h-d", decimals=3)},
    size="scriptsize", tabcolsep="3pt", wide=True)
_SCHEDULES_CROSSOVERS = TableNote(
    "From which message size on the shallow family of edge-disjoint spanning trees is faster than each other "
    "schedule at every larger size of the grid, simulated packet by packet (ns-3), the routers as the ranks "
    "(-- : the schedule did not run, or the trees are not faster at the largest size).",
    {"network": _SCHED_NET,
     "params": _SCHED_PARAMS,
     "routers": _SCHED_ROUTERS,
     "smallest_bytes": Column("smallest message size the network ran", "bytes", tex="from"),
     "largest_bytes": Column("largest message size the network ran", "bytes", tex="to"),
     "from_bfs": Column("against one breadth-first tree", "bytes", tex="BFS", missing=(-1,)),
     "from_ring": Column("against the ring on a Hamiltonian cycle", "bytes", tex="ring", missing=(-1,)),
     "from_multiring": Column("against the rings on edge-disjoint Hamiltonian cycles", "bytes", tex="rings",
                              missing=(-1,)),
     "from_ring_sp": Column("against the contended ring", "bytes", tex="ring-sp", missing=(-1,)),
     "from_dbtree": Column("against NCCL's double binary tree", "bytes", tex="dbtree", missing=(-1,)),
     "from_halving_doubling": Column("against halving-doubling", "bytes", tex="h-d", missing=(-1,))},
    size="footnotesize", tabcolsep="3pt", wide=True)
_SCHEDULES_TARGETS = TableNote(
    "The targets of the comparison, each checked on every simulated case in its scope (ns-3; SimGrid against "
    "ns-3): the edge-disjoint trees within 3% of ForestColl's optimum on PolarFly and the even-degree regular "
    "networks, the weighted tree family within 5% of the fractional optimum $M/(b\\sigma)$ where its weight "
    "exceeds the tree count, the ring on a Hamiltonian cycle within 10% of its bandwidth term "
    "$(N-1)M/(Nb)$ (both directions, half the message each), and the flow-level simulator within 15% of the "
    "packet-level one from 1 MiB on.",
    {"target": Column("what is compared with what", width="3.2cm"),
     "scope": Column("the cases checked", width="3cm"),
     "limit": Column("the ratio the target allows"),
     "cases": Column("cases in the scope", "cases"),
     "within": Column("cases within the limit", "cases"),
     "worst": Column("the ratio farthest outside the limit (if none: the largest, or for the simulators the "
                     "farthest from 1)", decimals=4),
     "worst_case": Column("its network, size (and schedule)", width="3.5cm"),
     "met": Column("every case within the limit")},
    size="footnotesize", tabcolsep="3pt", wide=True)
_SCHEDULES_ENDPOINTS = TableNote(
    "Allreduce with the designers' endpoints, simulated packet by packet (ns-3): in-network (every host sends "
    "its vector to its router and receives the sum back; the routers run the schedule) and on the hosts (every "
    "host a rank), each over the proved lower bound, which with endpoints is the host link's $M/b$ (a host "
    "receives the whole result over its one link).",
    {"network": _SCHED_NET,
     "params": _SCHED_PARAMS,
     "routers": Column("routers", "routers", tex="$n$"),
     "hosts_per_router": Column("hosts per router, each on a link of its own", "hosts", tex="$p$"),
     "ranks": Column("ranks (hosts)", "ranks", tex="$N$"),
     "size_bytes": Column("message size $M$", "bytes", tex="$M$"),
     "schedule": Column("the schedule (`trees`: the shallow family of edge-disjoint spanning trees; `bfs`: one "
                        "breadth-first tree; `ring`: a Hamiltonian cycle, both directions; `dbtree`: NCCL's "
                        "double binary tree; `halving-doubling`: Rabenseifner's)", tex="schedule"),
     "in_network_us": Column("time in-network", "$\\mu$s", tex="in-net.", decimals=1),
     "host_us": Column("time on the hosts (empty: not run)", "$\\mu$s", tex="hosts", decimals=1),
     "bound_us": Column("the proved lower bound", "$\\mu$s", tex="bound", decimals=1),
     "in_network_over_bound": Column("in-network over the bound", tex="in-net./bd.", decimals=3),
     "host_over_bound": Column("on the hosts over the bound", tex="hosts/bd.", decimals=3)},
    size="scriptsize", tabcolsep="3pt", group_by=("network", "schedule"),
    lines="network family and schedule", detail=("params",), wide=True)

_RESILIENCE = TableNote(
    "Edge-disjoint spanning trees that stay intact when links fail, independently with probability $f$ or "
    "as a fixed number $F = \\mathrm{round}(fm)$ of links: closed forms against Monte Carlo means.",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "n": _N,
     "m": _M,
     "method": _AR_METHOD,
     "trees": Column("trees in the set", "trees", tex="$k$"),
     "f": Column("failure probability of a link", tex="$f$", decimals=4),
     "expected_intact": Column("expected intact trees $k(1-f)^{n-1}$", "trees", tex="$E$", decimals=3),
     "mc_intact": Column("Monte Carlo mean of intact trees", "trees", tex="$E$ MC", decimals=3),
     "sd_intact": Column("standard deviation of intact trees (binomial)", "trees", tex="sd", decimals=3),
     "p_any_intact": Column("probability that some tree is intact, $1 - (1 - (1-f)^{n-1})^k$", tex="$P$",
                            decimals=3),
     "mc_p_any_intact": Column("Monte Carlo frequency of some tree intact", tex="$P$ MC", decimals=3),
     "failed_links": Column("failed links $F$ in the fixed-count model", "links", tex="$F$"),
     "expected_intact_fixed": Column("expected intact trees with $F$ failed links, "
                                     "$k\\binom{m-n+1}{F}/\\binom{m}{F}$", "trees", tex="$E_F$", decimals=3),
     "mc_intact_fixed": Column("Monte Carlo mean with $F$ failed links", "trees", tex="$E_F$ MC", decimals=3),
     "sd_intact_fixed": Column("standard deviation with $F$ failed links", "trees", tex="sd$_F$", decimals=3)},
    size="scriptsize", tabcolsep="3pt",
    audit=("mc_intact", "sd_intact", "mc_p_any_intact", "mc_intact_fixed",
           "sd_intact_fixed"), group_by=("network", "method", "f"),
    lines="network family, tree set and failure probability", wide=True, rows=(("f", (0.001, 0.01)),))

_RESILIENCE_REPAIR = TableNote(
    "Repair of edge-disjoint spanning trees after $F$ links fail at once (uniform random sets): the trees "
    "that lost no link and the trees after repair (intact trees kept, cut subtrees rejoined by unused "
    "links nearest the root, else the damaged trees repacked on their own and the unused links, and only "
    "where that falls short intact trees opened, up to the damaged network's maximum); every repaired "
    "count equals the maximum of the damaged network.",
    {"network": _NETWORK,
     "parameters": _PARAMS,
     "n": _N,
     "m": _M,
     "method": _AR_METHOD,
     "trees": Column("trees in the set before the failures", "trees", tex="$k$"),
     "depth": Column("depth of its deepest tree before the failures", "hops", tex="$D$"),
     "failed_links": Column("links failing at once", "links", tex="$F$"),
     "intact_mean": Column("mean number of trees that lost no link", "trees", tex="intact", decimals=2),
     "repaired_mean": Column("mean number of trees after the repair (the maximum of the damaged network)", "trees",
                             tex="rep.", decimals=2),
     "repaired_min": Column("fewest trees after a repair", "trees", tex="min"),
     "at_bound": _flag("every repaired count equals its certified upper bound", "cert."),
     "reattached_mean": Column("mean number of cut subtrees rejoined by an unused link", "subtrees", tex="reatt.",
                               decimals=2),
     "repacked": Column("failure sets whose repair needed the augmenting repack", "sets", tex="repack"),
     "depth_mean": Column("mean depth of the deepest repaired tree", "hops", tex="$D$ rep.", decimals=2),
     "depth_max": Column("largest depth of a repaired tree", "hops", tex="$D$ max")},
    size="scriptsize", tabcolsep="3pt",
    group_by=("network", "method"),
    lines="network family and tree set", wide=True)

_SCALING_FAMILY = Column("network family (`polarstar`: $\\mathrm{ER}_q \\star \\mathrm{QR}(q')$)", tex="family")
_SCALING_RATIOS = TableNote(
    "Scale and speed of the EDST constructions: the best time of each phase per instance and its ratio to "
    "the edge-list floor, the time to write the product's edge list once.",
    {"family": _SCALING_FAMILY,
     "instance": Column("the star product", tex="instance", kind="mixed", star=True),
     "links": Column("links (edges) of the product", "links", tex="$m$"),
     "trees": Column("EDSTs built", "trees", tex="trees"),
     "theorem": Column("the construction Table I selects", tex="thm."),
     "edges ms": Column("edge-list floor: each link written once", "ms", tex="edges", decimals=3),
     "build ms": Column("the starlib builder, factors and sorting included", "ms", tex="build", decimals=3),
     "edsts ms": Column("the EDST construction, factor packings included", "ms", tex="edsts", decimals=3),
     "verify ms": Column("the verifier", "ms", tex="verify", decimals=3),
     "build/edges": Column("build time over the floor", tex="b/e", decimals=2),
     "edsts/edges": Column("construction time over the floor", tex="c/e", decimals=2),
     "edsts/build": Column("construction time over the build time", tex="c/b", decimals=2),
     "edsts+verify s": Column("construction and verification", "s", tex="c+v", decimals=3),
     "(edsts+verify)/edges": Column("construction and verification over the floor", tex="(c+v)/e", decimals=2),
     "sort ms": Column("canonical sort of all tree edges (for output only)", "ms", tex="sort", decimals=3),
     "peak RSS MB": Column("peak resident memory of the process", "MB", tex="RSS", decimals=1),
     "valid": _VALID},
    landscape=True, size="footnotesize",
    audit=("valid",), wide=True)

#: the columns of a least-squares fit of cost = c m^k on log-log axes (notebook 11)
_FIT = {
    "exponent": Column("fitted exponent $k$", tex="$k$", decimals=3),
    "r2": Column("coefficient of determination of the fit", tex="$R^2$", decimals=3),
    "points": Column("instances fitted", "instances", tex="pts."),
    "min links": Column("links of the smallest instance fitted", "links", tex="min $m$"),
    "max links": Column("links of the largest instance fitted", "links", tex="max $m$"),
}
_SCALING = TableNote(
    "Scale and speed of the EDST constructions: exponent $k$ of cost $= c\\,m^k$ ($m$ links), fitted by "
    "least squares on log-log axes per family and phase over the instances above a least size, and the "
    "cost at the largest of them.",
    {"family": _SCALING_FAMILY,
     "cost": Column("the cost fitted: the time of a phase (`seconds_edges`, `seconds_build`, `seconds_edsts`, "
                    "`seconds_verify`), the peak resident memory above the imports (`rss_growth_mb`) or the traced "
                    "memory of one phase (`traced_mb_edges`, ...)", tex="cost"),
     **_FIT,
     "largest fitted": Column("the largest instance fitted", tex="largest", kind="mixed", star=True),
     "at largest": Column("the cost there", "s or MB", tex="cost there", decimals=3),
     "ratio to floor at largest": Column("time cost there over the edge-list floor (times only)",
                                         tex="/ floor", decimals=2)},
    size="footnotesize",
    wide=True)

_PACKING_CURVE = Column("the family of graphs measured (dense: Slim Fly, PolarFly; sparse: star and bubble-sort "
                        "graphs, 3-D tori)", tex="graphs")
_GENERIC_PACKING = TableNote(
    "The exact generic EDST packing: greedy forests, then augmenting paths of Edmonds' matroid partition "
    "(in phases on sparse graphs of at least 120,000 links), per instance, beside one augmenting search per "
    "missing edge, the packer before it and Sage's Roskind-Tarjan packing, measured in the same run.",
    {"curve": _PACKING_CURVE,
     "params": Column("the command-line parameters", tex="parameters"),
     "links": Column("links (edges)", "links", tex="$m$"),
     "trees": Column("EDSTs packed: the maximum", "trees", tex="trees"),
     "certificate": Column("the bound that certifies the maximum: `edges` for $\\lfloor m/(n-1) \\rfloor$, "
                           "`degree`, or `partition` (Nash-Williams)", tex="cert."),
     "valid": _VALID,
     "generic ms": Column("starlib's exact packing (best of the runs)", "ms", tex="starlib", decimals=3),
     "one search per edge s": Column("the same packing with one augmenting search per missing edge, where the "
                                     "phases replace it (empty: the same engine as starlib's column)", "s",
                                     tex="per edge", decimals=3),
     "previous s": Column("the previous packer (Python augmenting paths), same count", "s", tex="previous",
                          decimals=3),
     "Sage s": Column("Sage's `edge_disjoint_spanning_trees` (Roskind-Tarjan), same count", "s", tex="Sage",
                      decimals=3),
     "per edge/generic": Column("speed-up of the phases over one search per missing edge", tex="edge/",
                                decimals=1),
     "previous/generic": Column("speed-up over the previous packer", tex="prev./", decimals=0),
     "Sage/generic": Column("speed-up over Sage", tex="Sage/", decimals=0),
     "packing MB": Column("peak resident memory of the packing above the graph", "MB", tex="MB", decimals=1)},
    size="scriptsize", tabcolsep="3pt",
    audit=("certificate", "valid"), wide=True)

_GENERIC_PACKING_FITS = TableNote(
    "The exact generic EDST packing: exponent $k$ of cost $= c\\,m^k$ ($m$ links), fitted by least "
    "squares on log-log axes per family of graphs over the instances above a least size.",
    {"curve": _PACKING_CURVE,
     "cost": Column("the cost fitted: the packing's time (`seconds_generic`) or its peak memory above the graph "
                    "(`packing_mb`)", tex="cost"),
     **_FIT},
    size="footnotesize")

# -- the network-design notes (notebook 09) --------------------------------------------------------------------------

_COMPUTE_NODES = Column("compute nodes", "nodes", tex="$N$")
_ROUTER_COUNTS = TableNote(
    "Router counts of the network-design notes (section 6): the maximum (every node roots $n$ private "
    "trees of routers, $k$ levels deep; eqs. 3, 9, 10) and the minimum (a daisy chain, eqs. 6, 7), "
    "evaluated and counted in the networks built.",
    {"case": Column("the notes' example or figure", tex="case", kind="mixed", width="3.3cm"),
     "N": _COMPUTE_NODES,
     "m": Column("ports per router", "ports", tex="$m$"),
     "n": Column("ports per compute node", "ports", tex="$n$"),
     "k": Column("tree levels: the least $k$ with $n(m-1)^k \\ge N-1$", "levels", tex="$k$"),
     "max_routers": Column("maximum router count $M_{\\max}$ (eq. 10)", "routers", tex="$M_{\\max}$"),
     "tree_routers_built": Column("routers of the tree network built", "routers", tex="built"),
     "tree_empty_ports": Column("router ports left empty in it", "ports", tex="empty"),
     "tree_route_routers": Column("routers on the longest route (not computed for $N$ = `N_example`)", "routers",
                                  tex="route", decimals=0),
     "notes_max": Column("the notes' value of $M_{\\max}$", "routers", tex="notes", decimals=0),
     "min_routers": Column("minimum router count $M_{\\min}$ (eq. 7; $n = 1$ only)", "routers", tex="$M_{\\min}$",
                           decimals=0),
     "chain_routers_built": Column("routers of the daisy chain built", "routers", tex="built", decimals=0),
     "chain_max_hops": Column("longest route in it", "routers", tex="hops", decimals=0),
     "notes_min": Column("the notes' value of $M_{\\min}$", "routers", tex="notes", decimals=0)},
    size="footnotesize",
    wide=True)

_BISECTION_CONFIDENCE = TableNote(
    "Picks needed so that $p$ random picks with replacement among $U$ items include a given one with confidence "
    "$C = 1 - (1 - 1/U)^p$ (network-design notes, section 8.1.1, eqs. 17-20), with a seeded Monte Carlo check.",
    {"U": Column("items (bisections) to pick from", "items", tex="$U$"),
     "C": Column("confidence wanted", tex="$C$", decimals=2),
     "picks": Column("least $p$ with confidence at least $C$", "picks", tex="$p$"),
     "confidence_at_picks": Column("confidence of $p$ picks", tex="$C(p)$", decimals=4),
     "confidence_at_picks_minus_1": Column("confidence of $p - 1$ picks (below $C$)", tex="$C(p-1)$",
                                           decimals=4),
     "mc_trials": Column("Monte Carlo runs", "runs", tex="runs"),
     "mc_estimate": Column("Monte Carlo frequency of the item among $p$ picks", tex="MC", decimals=4),
     "mc_sigma": Column("standard error of that frequency", tex="$\\sigma$", decimals=4),
     "notes_picks": Column("the notes' value of $p$", "picks", tex="notes", decimals=0)},
    size="small")

_HOP_COUNTS = TableNote(
    "Router-only hop counts (routers per route; network-design notes, section 1.3) over all pairs of "
    "compute nodes, and bisection widths (section 8.2), of the notes' networks, trees, daisy chains and "
    "random networks.",
    {"network": Column("the network ($N$ nodes, $n$ ports each; $M$ routers, $m$ ports each)", tex="network",
                       kind="mixed", width="4.2cm"),
     "N": _COMPUTE_NODES,
     "M": Column("routers", "routers", tex="$M$"),
     "max_node_ports": Column("most ports of a compute node", "ports", tex="ports"),
     "pairs": Column("pairs of compute nodes", "pairs", tex="pairs"),
     "hops_1": Column("pairs 1 router apart", "pairs", tex="1"),
     "hops_2": Column("pairs 2 routers apart", "pairs", tex="2"),
     "hops_3": Column("pairs 3 routers apart", "pairs", tex="3"),
     "hops_4_or_more": Column("pairs 4 or more routers apart", "pairs", tex="$\\ge 4$"),
     "mean_hops": Column("mean hop count", "routers", tex="mean", decimals=3),
     "max_hops": Column("largest hop count", "routers", tex="max"),
     "bisection": Column("bisection width: fewest links separating two halves of the compute nodes (even $N$ "
                         "only)", "links", tex="bis.", decimals=0),
     "bisection_exact": _flag("every split was examined (else sampled: an upper bound)", "exact"),
     "bisection_splits": Column("compute splits examined", "splits", tex="splits", decimals=0),
     "bisection_confidence": Column("confidence that a given minimising split was examined (eq. 17)",
                                    tex="conf.", decimals=2, sci=True),
     "notes": Column("what the notes say", tex="notes", width="2.4cm")},
    landscape=True, size="footnotesize",
    wide=True)

# -- the super Cayley paper (notebook 10) ----------------------------------------------------------------------------

_SC_NETWORK = Column("super Cayley graph ($k = nl + 1$ symbols: an outside ball and $l$ boxes of $n$ balls)",
                     tex="network")
_SC_L = Column("boxes $l$", "boxes", tex="$l$")
_SC_N = Column("balls per box $n$", "balls", tex="$n$")
_SC_K = Column("symbols $k = nl + 1$", "symbols", tex="$k$")
_SUPER_CAYLEY = TableNote(
    "Super Cayley graphs (Yeh, Varvarigos and Lee, Definitions 1-3) and reference networks (star graph, "
    "bubble-sort graph, transposition network): nodes, degree, and the diameter and mean distance from one "
    "breadth-first search (the graphs are vertex-transitive).",
    {"network": Column("the graph and its parameters", tex="network"),
     "family": Column("its family", tex="family"),
     "l": Column("boxes $l$ (super Cayley graphs only)", "boxes", tex="$l$"),
     "n": Column("balls per box $n$ (super Cayley graphs only)", "balls", tex="$n$"),
     "k": Column("symbols $k$", "symbols", tex="$k$"),
     "nodes": Column("nodes $k!$", "nodes", tex="nodes"),
     "degree": Column("distinct non-identity generators", "links", tex="deg."),
     "degree_parallel": Column("generators with coincident ones counted twice", "links", tex="deg. par."),
     "directed": _flag("the generator set is not closed under inverses", "dir."),
     "diameter": Column("diameter", "hops", tex="diam."),
     "mean_distance": Column("mean distance from a node to the others", "hops", tex="mean dist.", decimals=4)},
    size="footnotesize",
    group_by=("family",),
    lines="family of graphs", detail=("network",), wide=True)

_SCHED_NETWORK = Column("host network", tex="network")
_SUPER_CAYLEY_CONGESTION = TableNote(
    "Emulating the star graph (Theorems 1-3 of the super Cayley paper): for every star dimension a generator "
    "word; their dilation and their congestion per directed link ($I_2$ and $I_2^{-1}$ as parallel or as one "
    "merged link).",
    {"network": _SCHED_NETWORK, "l": _SC_L, "n": _SC_N, "k": _SC_K,
     "words_ok": _flag("every word leads from every node $U$ to $U T_j$", "ok"),
     "dilation": Column("longest word", "links", tex="dil."),
     "congestion_parallel": Column("largest number of words on a directed link, parallel links", "paths",
                                   tex="cong. par."),
     "congestion_merged": Column("the same with one merged link", "paths", tex="cong. mer."),
     "claim_max(2n,l)": Column("the paper's congestion $\\max(2n, l)$", "paths", tex="claim"),
     "per_dim_near": Column("largest congestion of one dimension $i \\le n+1$", "paths", tex="$i \\le n+1$"),
     "per_dim_far_min": Column("smallest congestion of one dimension $i > n+1$ (the paper: 2)", "paths",
                               tex="$i > n+1$ min"),
     "per_dim_far_max": Column("largest congestion of one dimension $i > n+1$", "paths", tex="$i > n+1$ max"),
     "node_check": Column("the words walked from all $k!$ nodes, loads uniform (up to `k_node_max`)",
                          tex="nodes")},
    size="footnotesize",
    audit=("node_check",), group_by=("network",),
    lines="host network", wide=True)

_SUPER_CAYLEY_ALLPORT = TableNote(
    "All-port emulation of the star graph (Theorems 4-5 of the super Cayley paper): the claimed slowdown against "
    "the schedule of the proof, the constructed schedule, and the optimum found by integer programming.",
    {"network": _SCHED_NETWORK, "l": _SC_L, "n": _SC_N, "k": _SC_K,
     "claim": Column("claimed steps: $\\max(2n, l+1)$ (MS, complete-RS) or $\\max(2n, l+2)$ (MIS, complete-RIS)",
                     "steps", tex="claim"),
     "proof_schedule": Column("the proof's schedule of Theorem 4: its steps and verdict (defined for $l = rn+1$ "
                              "and $l \\le n$)", tex="proof", width="4.2cm"),
     "constructed": Column("steps of the constructed schedule", "steps", tex="constr."),
     "optimum_parallel": Column("fewest steps (integer programming), $I_2$, $I_2^{-1}$ parallel links", "steps",
                                tex="opt. par."),
     "optimum_merged": Column("fewest steps with one merged link", "steps", tex="opt. mer."),
     "simulated": Column("the schedule simulated packet by packet on all $k!$ nodes (up to `k_node_max`)",
                         tex="sim.")},
    size="footnotesize",
    group_by=("network",),
    lines="host network", wide=True, detail=("proof_schedule",))

_FIGURE_DIM = Column("star dimension $j$: the generator the packet for dimension $j$ takes at this step "
                     "($T_j$: transposition, $R^i$: rotation by $i$ boxes; a dash: waiting or not yet sent; "
                     "empty: delivered)", tex=None, kind="mixed", empty="")
_FIGURE_STEP = Column("step of the schedule", "steps", tex="step")
_FIGURE1A = TableNote(
    "Figure 1a of the super Cayley paper regenerated from the proof of Theorem 4: the all-port schedule of the "
    "13-star on MS(4, 3), one row per step, one column per star dimension.",
    {"step": _FIGURE_STEP}, default=_FIGURE_DIM, size="footnotesize",
    wide=True)
_FIGURE1B = TableNote(
    "Figure 1b of the super Cayley paper: a schedule of the 16-star on MS(5, 3) consistent with the printed rows "
    "(the extension of Theorem 4), one row per step, one column per star dimension.",
    {"step": _FIGURE_STEP}, default=_FIGURE_DIM, size="footnotesize",
    wide=True)

_FIGURE1_CHECK = TableNote(
    "Figure 1 of the super Cayley paper as printed against the schedules regenerated from the proof of "
    "Theorem 4, step by step.",
    {"figure": Column("panel of Figure 1", tex="panel"),
     "step": _FIGURE_STEP,
     "printed_cells": Column("non-empty cells of the printed row", "cells", tex="printed"),
     "regenerated_cells": Column("non-empty cells of the regenerated row", "cells", tex="regen."),
     "verdict": Column("how the printed row compares", tex="verdict"),
     "left_aligned_mismatch": Column("dimensions whose cell differs when the printed row is read left-aligned",
                                     tex="left-aligned mismatch", empty="none")},
    size="footnotesize")

_SUPER_CAYLEY_TN = TableNote(
    "The transposition network embedded by the six-case word table of Theorems 6-7 of the super Cayley paper: "
    "the words as printed, with the box move $B_i$ fixed, and corrected; their dilation against the true one.",
    {"network": _SCHED_NETWORK,
     "l": Column("boxes $l$ (not for IS)", "boxes", tex="$l$"),
     "n": Column("balls per box $n$ (not for IS)", "balls", tex="$n$"),
     "k": _SC_K,
     "variant": Column("word table: `printed`; `fixed-B` with $B_i = R^{-(i-1)}$; `corrected` also with the "
                       "relative rotation of case 6", tex="variant"),
     "words_ok": _flag("every word equals its transposition $T_{i,j}$ at every node", "ok"),
     "failing_cases": Column("cases of the word table that fail", tex="failing", empty="none"),
     "word_dilation": Column("longest word", "links", tex="words"),
     "true_dilation": Column("largest distance $d(e, T_{i,j})$ in the host (the least dilation possible)",
                             "links", tex="true")},
    size="footnotesize",
    group_by=("network", "variant"),
    lines="host network and word table", wide=True)

#: every table of ``paper_tables/``, by name
TABLE_NOTES: dict[str, TableNote] = {
    "networks": _NETWORKS,
    "table5": _TABLE5,
    "table5_measured": _TABLE5_MEASURED,
    "bounds_check": _BOUNDS_CHECK,
    "table1": _TABLE1,
    "table1_instances": _TABLE1_INSTANCES,
    "table4": _TABLE4,
    "table4_instances": _TABLE4_INSTANCES,
    "table4_maybe": _TABLE4_MAYBE,
    "depths": _DEPTHS,
    "depths_trees": _DEPTHS_TREES,
    "depths_generic_orders": _DEPTHS_GENERIC,
    "chimera": _CHIMERA,
    "allreduce": _ALLREDUCE,
    "resilience": _RESILIENCE,
    "resilience_repair": _RESILIENCE_REPAIR,
    "router_counts": _ROUTER_COUNTS,
    "bisection_confidence": _BISECTION_CONFIDENCE,
    "hop_counts": _HOP_COUNTS,
    "super_cayley": _SUPER_CAYLEY,
    "super_cayley_congestion": _SUPER_CAYLEY_CONGESTION,
    "super_cayley_allport": _SUPER_CAYLEY_ALLPORT,
    "super_cayley_figure1a": _FIGURE1A,
    "super_cayley_figure1b": _FIGURE1B,
    "super_cayley_figure1_check": _FIGURE1_CHECK,
    "super_cayley_tn": _SUPER_CAYLEY_TN,
    "scaling": _SCALING,
    "generic_packing": _GENERIC_PACKING,
    "generic_packing_fits": _GENERIC_PACKING_FITS,
    "scaling_ratios": _SCALING_RATIOS,
    "er_edsts": _ER_EDSTS,
    "er_edsts_depth": _ER_EDSTS_DEPTH,
    "er_sweep_summary": _ER_SWEEP_SUMMARY,
    "er_sweep_projection": _ER_SWEEP_PROJECTION,
    "maximum_shallow": _SHALLOW,
    "maximum_shallow_front": _SHALLOW_FRONT,
    "maximum_shallow_er": _SHALLOW_ER,
    "depth_exact_small": _DEPTH_EXACT_SMALL,
    "maximum_shallow_allreduce": _SHALLOW_ALLREDUCE,
    "peers": _PEERS,
    "peers_jellyfish": _PEERS_JELLYFISH,
    "simulated": _SIMULATED,
    "simulated_trees": _SIMULATED_TREES,
    "schedules_largest": _SCHEDULES_LARGEST,
    "schedules_crossovers": _SCHEDULES_CROSSOVERS,
    "schedules_targets": _SCHEDULES_TARGETS,
    "schedules_endpoints": _SCHEDULES_ENDPOINTS,
}
