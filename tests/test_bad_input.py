"""A catalogue of bad input to the Python API, and what each one gets back.

Every row below is one kind of bad input: the call, the exception it must raise, the parameter the message must
name, and fragments that carry the value and the rule. For every row the test also asserts that the message is
one line and shorter than 300 characters (a caller prints it as it is). The tables, in order:

=====================  ===========================================================================================
table                  what it refuses
=====================  ===========================================================================================
``GRAPHS``             graphs and edge arrays: ``ArrayGraph.from_edges`` out of range, floats, ragged;
                       ``edge_array``; ``as_graph`` on None, text, edge lists, multigraphs, digraphs
``VERIFY``             ``verify_edsts`` / ``check_edsts``: trees with float or out-of-range indices, bare ints,
                       None, ragged lists, wrong shapes; a graph argument that is none; ``n`` that does not fit
``EDST_ENTRY``         ``auto_trees``, ``generic_trees``, ``factor_edsts``, ``upper_bound``, ``t_and_r``, the
                       product constructions, ``METHODS``, ``edsts``, ``generic_packing``, ``star_product`` on
                       None, text, multigraphs, digraphs, one vertex, graphs that are no star product
``BUILDERS``           network and factor builders: non-prime-powers, bools, floats, ``q = 1 mod 4`` rules,
                       HyperX / torus size lists (``"4,x"``, ``"4,,4"``, Arabic-Indic digits, 65 sizes)
``SIZES``              builds refused as too large before anything is allocated (``slimfly(q=100003)``,
                       ``polarfly(q=1024)`` under 1 GiB, ``complete(n=20000)``): also checked with tracemalloc
``TEXT``               user text: ``parse_int`` (``'٥'``, ``'５'``, ``'1_3'``, ``' 5 '``, ``''``, 5000 digits),
                       ``parse_int_list``, ``parse_bytes``
``CHECKS``             the argument checks of :mod:`starlib.validation` and ``limit_memory``
``BOUNDS``             :mod:`starlib.bounds` on impossible counts
``CAYLEY``             super Cayley families out of range (``l``, ``n``, ``k = n*l + 1 <= 10``), unknown families
``NETDESIGN``          the network-design formulas (router counts, bisections, confidences, constructions)
=====================  ===========================================================================================

Prime and prime-power recognition (which every ``q`` goes through) is checked separately against sympy and
against brute force: ``2^61 - 1``, large composites, perfect powers of large primes, Carmichael numbers and
strong pseudoprimes.
"""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable

import networkx as nx
import numpy as np
import pytest

from starlib import cayley as cy
from starlib import netdesign as nd
from starlib.bounds import eq1_bound, product_upper_bound, prop_iv1, regular_bound, t_and_r, upper_bound
from starlib.edst import (
    METHODS,
    Tree,
    auto_trees,
    check_edsts,
    edsts,
    factor_edsts,
    generic_packing,
    generic_trees,
    has_property_vd1,
    maximum_trees,
    universal_trees,
    verify_edsts,
)
from starlib.factors import complete, cycle, mms_supernode, paley, polarfly
from starlib.graphs import ArrayGraph, as_graph, edge_array
from starlib.memory import limit_memory
from starlib.networks import bundlefly, chimera, complete_paley, hyperx, polarstar, slimfly, slimfly_hafner, torus
from starlib.primes import check_prime_power, is_prime, prime_power_parts
from starlib.products import cartesian_product, star_product
from starlib.validation import (
    check_choice,
    check_int,
    check_permutation,
    check_real,
    parse_bytes,
    parse_int,
    parse_int_list,
)

#: A row: (kind, call, exception type, parameter the message names, fragments for the value and the rule).
Row = tuple[str, Callable[[], object], type[Exception], str, tuple[str, ...]]

K3 = np.array([[0, 1], [0, 2], [1, 2]])
K4 = complete(4)
PATH = [[0, 1], [1, 2], [2, 3]]          # a spanning tree of K_4
GiB = 2**30


def _multi() -> nx.MultiGraph:
    return nx.MultiGraph([(0, 1), (0, 1), (1, 2), (2, 0)])


def _di() -> nx.DiGraph:
    return nx.DiGraph([(0, 1), (1, 2), (2, 0)])


def _directed_array_graph() -> ArrayGraph:
    return ArrayGraph.from_edges(range(3), [[0, 1], [1, 2]], name="arcs", directed=True)


def _float_array_graph() -> ArrayGraph:
    return ArrayGraph(list(range(3)), np.array([[0.0, 1.0]]))


GRAPHS: list[Row] = [
    ("Tree with float edges", lambda: Tree([[0.5, 1.7]], root=0), ValueError, "edges",
     ("must be integers", "float64", "not truncated")),
    ("from_edges [[0, 5]] on range(3)", lambda: ArrayGraph.from_edges(range(3), [[0, 5]]), ValueError, "edges",
     ("vertex index 5", "out of range", "0..2")),
    ("from_edges [[0, 4]] on range(3)", lambda: ArrayGraph.from_edges(range(3), [[0, 4]]), ValueError, "edges",
     ("vertex index 4", "0..2")),
    ("from_edges negative index", lambda: ArrayGraph.from_edges(range(3), [[-1, 2]]), ValueError, "edges",
     ("vertex index -1", "0..2")),
    ("from_edges float indices", lambda: ArrayGraph.from_edges(range(3), [[0.5, 1.0]]), ValueError, "edges",
     ("must be integers", "float64")),
    ("from_edges ragged pairs", lambda: ArrayGraph.from_edges(range(3), [[0, 1], [2]]), ValueError, "edges",
     ("ragged",)),
    ("from_edges triples", lambda: ArrayGraph.from_edges(range(3), [[0, 1, 2]]), ValueError, "edges",
     ("(m, 2)", "(1, 3)")),
    ("from_edges labels not a sequence", lambda: ArrayGraph.from_edges(5, [[0, 1]]), ValueError, "labels",
     ("labels=5", "sequence")),
    ("edge_array booleans", lambda: edge_array([[True, False]]), ValueError, "edges", ("integers", "bool")),
    ("edge_array strings", lambda: edge_array([["a", "b"]]), ValueError, "edges", ("integers",)),
    ("as_graph None", lambda: as_graph(None), TypeError, "graph", ("graph=None", "not a graph")),
    ("as_graph a string", lambda: as_graph("petersen"), TypeError, "graph", ("'petersen'", "not a graph")),
    ("as_graph an edge list", lambda: as_graph([[0, 1], [1, 2]]), TypeError, "graph", ("[[0, 1], [1, 2]]",)),
    ("as_graph a MultiGraph", lambda: as_graph(_multi()), ValueError, "graph", ("MultiGraph", "parallel edges")),
    ("as_graph a DiGraph", lambda: as_graph(_di()), ValueError, "graph", ("DiGraph", "directed")),
    ("as_graph a directed ArrayGraph", lambda: as_graph(_directed_array_graph()), ValueError, "graph",
     ("directed", "undirected")),
    ("as_graph float edges", lambda: as_graph(_float_array_graph()), ValueError, "graph", ("integer", "float64")),
]

VERIFY: list[Row] = [
    ("float vertex indices", lambda: verify_edsts(K4, [PATH, [[0.0, 2.0], [2.0, 1.0], [1.0, 3.0]]]), ValueError,
     "trees[1]", ("vertex indices must be integers", "float64")),
    ("floats that look like integers", lambda: verify_edsts(K4, [np.array(PATH, dtype=float)]), ValueError,
     "trees[0]", ("float64",)),
    ("index out of range", lambda: verify_edsts(K4, [[[0, 1], [1, 2], [2, 4]]]), ValueError, "trees[0]",
     ("vertex index 4", "out of range", "0..3")),
    ("negative index", lambda: verify_edsts(K4, [PATH, [[-1, 1], [1, 2], [2, 3]]]), ValueError, "trees[1]",
     ("vertex index -1", "0..3")),
    ("a bare int as a tree", lambda: verify_edsts(K4, [5]), ValueError, "trees[0]", ("(m, 2)", "shape ()")),
    ("None as a tree", lambda: verify_edsts(K4, [PATH, None]), ValueError, "trees[1]", ("(m, 2)",)),
    ("a ragged tree", lambda: verify_edsts(K4, [[[0, 1], [1, 2, 3]]]), ValueError, "trees[0]", ("ragged",)),
    ("rows of three", lambda: verify_edsts(K4, [[[0, 1, 2], [1, 2, 3]]]), ValueError, "trees[0]",
     ("(m, 2)", "(2, 3)")),
    ("one tree instead of a list", lambda: verify_edsts(K4, np.array(PATH)), ValueError, "trees[0]",
     ("shape (2,)",)),
    ("trees=None", lambda: verify_edsts(K4, None), TypeError, "trees", ("trees=None", "sequence of trees")),
    ("trees a string", lambda: verify_edsts(K4, "0-1,1-2"), TypeError, "trees", ("'0-1,1-2'",)),
    ("graph None", lambda: verify_edsts(None, [PATH]), TypeError, "graph_or_edges", ("None", "not a graph")),
    ("graph float edges", lambda: verify_edsts(K3.astype(float), []), ValueError, "graph_or_edges",
     ("integers", "float64")),
    ("graph edges out of range for n", lambda: verify_edsts(K3, [], n=2), ValueError, "graph_or_edges",
     ("vertex index 2", "0..1")),
    ("graph a MultiGraph", lambda: verify_edsts(_multi(), []), ValueError, "graph_or_edges", ("MultiGraph",)),
    ("n differs from the graph's", lambda: verify_edsts(K4, [PATH], n=5), ValueError, "n=5", ("n=4",)),
    ("n=0", lambda: verify_edsts(np.zeros((0, 2), dtype=int), [], n=0), ValueError, "n=0", ("too small", ">= 1")),
    ("n a float", lambda: verify_edsts(K3, [], n=3.0), ValueError, "n=3.0", ("not an integer",)),
    ("allow_empty not a flag", lambda: verify_edsts(K4, [], allow_empty="yes"), ValueError, "allow_empty",
     ("'yes'", "flag")),
    ("check_edsts on a broken family", lambda: check_edsts(K4, [PATH, PATH, PATH, PATH, PATH]), ValueError,
     "trees", ("not an EDST set", "tree 1: shares 3 edge(s)")),
    ("check_edsts on twenty copies of a tree", lambda: check_edsts(K4, [PATH] * 20), ValueError, "trees",
     ("tree 3: shares 3 edge(s)", "and 16 more problems")),
    ("check_edsts on no tree", lambda: check_edsts(K4, []), ValueError, "trees", ("no trees", "allow_empty")),
]

EDST_ENTRY: list[Row] = [
    ("auto_trees(None)", lambda: auto_trees(None), TypeError, "P", ("P=None", "not a graph")),
    ('auto_trees("x")', lambda: auto_trees("x"), TypeError, "P", ("P='x'", "not a graph")),
    ("auto_trees(edge list)", lambda: auto_trees([[0, 1], [1, 2]]), TypeError, "P", ("not a graph",)),
    ("auto_trees(MultiGraph)", lambda: auto_trees(_multi()), ValueError, "P", ("MultiGraph", "nx.Graph(g)")),
    ("auto_trees(DiGraph)", lambda: auto_trees(_di()), ValueError, "P", ("DiGraph", "to_undirected")),
    ("auto_trees(one vertex)", lambda: auto_trees(nx.empty_graph(1)), ValueError, "P", ("n=1", "n >= 2")),
    ("generic_trees(None)", lambda: generic_trees(None), TypeError, "graph", ("graph=None",)),
    ("generic_trees(MultiGraph)", lambda: generic_trees(_multi()), ValueError, "graph", ("MultiGraph",)),
    ("generic_trees(DiGraph)", lambda: generic_trees(_di()), ValueError, "graph", ("DiGraph",)),
    ("generic_trees(no vertex)", lambda: generic_trees(nx.Graph()), ValueError, "graph", ("n=0", "n >= 2")),
    ("factor_edsts unknown method", lambda: factor_edsts(K4, "fastest"), ValueError, "method",
     ("'fastest'", "walecki")),
    ("factor_edsts method that does not apply", lambda: factor_edsts(nx.petersen_graph(), "walecki"),
     ValueError, "method", ("walecki", "does not apply", "n=10")),
    ("upper_bound(None)", lambda: upper_bound(None), TypeError, "graph", ("graph=None",)),
    ("upper_bound(MultiGraph)", lambda: upper_bound(_multi()), ValueError, "graph", ("MultiGraph",)),
    ("upper_bound(DiGraph)", lambda: upper_bound(_di()), ValueError, "graph", ("DiGraph",)),
    ("upper_bound(one vertex)", lambda: upper_bound(nx.empty_graph(1)), ValueError, "graph", ("n=1", "n >= 2")),
    ('t_and_r("x")', lambda: t_and_r("x"), TypeError, "graph", ("'x'",)),
    ("maximum_trees(networkx graph)", lambda: maximum_trees(nx.petersen_graph()), ValueError, "P",
     ("method=maximum", "needs a star product", "got a networkx Graph", "auto_trees")),
    ("universal_trees(ArrayGraph)", lambda: universal_trees(complete(5)), ValueError, "P",
     ("method=universal", "got an ArrayGraph 'complete'", "generic_trees")),
    ("universal_trees(None)", lambda: universal_trees(None), TypeError, "P", ("P=None",)),
    ("has_property_vd1(relabelled product)", lambda: has_property_vd1(slimfly_hafner(4)), ValueError, "P",
     ("method=property", "RelabelledProduct")),
    ('METHODS["property"](networkx graph)', lambda: METHODS["property"](nx.complete_graph(4)), ValueError,
     "graph", ("method=property", "networkx Graph")),
    ('METHODS["generic"](None)', lambda: METHODS["generic"](None), TypeError, "graph", ("graph=None",)),
    ("edsts unknown method", lambda: edsts(K4, "fastest"), ValueError, "method", ("'fastest'", "maximum")),
    ("generic_packing k=-1", lambda: generic_packing(K4, k=-1), ValueError, "k=-1", ("non-negative",)),
    ("generic_packing k above the maximum", lambda: generic_packing(K4, k=3), ValueError, "k=3",
     ("exceeds the maximum", "bounds it by 2")),
    ("auto_trees float factor trees", lambda: auto_trees(slimfly(5), g_trees=[[[0.5, 1.2]]]), ValueError,
     "g_trees[0]", ("integers", "float64")),
    ("maximum_trees short factor tree", lambda: maximum_trees(slimfly(5), h_trees=[[[0, 1]]]), ValueError,
     "h_trees", ("tree 0 has 1 edges", "n=5 has 4")),
    ("star_product(None, H)", lambda: star_product(None, K4, [0, 1, 2, 3]), TypeError, "G", ("G=None",)),
    ("star_product bijection not a permutation", lambda: star_product(complete(3), complete(3), [0, 0, 1]),
     ValueError, "bijections", ("[0, 0, 1]", "permutation of 0..2")),
    ("star_product float bijection", lambda: star_product(complete(3), complete(3), [0.0, 1.0, 2.0]),
     ValueError, "bijections", ("integers", "float64")),
    ("cartesian_product(G, MultiGraph)", lambda: cartesian_product(K4, _multi()), ValueError, "H",
     ("MultiGraph",)),
]

BUILDERS: list[Row] = [
    ("slimfly(q=6)", lambda: slimfly(6), ValueError, "q=6", ("not a prime power",)),
    ("slimfly(q=True)", lambda: slimfly(True), ValueError, "q=True", ("not an integer",)),
    ("slimfly(q=2.0)", lambda: slimfly(2.0), ValueError, "q=2.0", ("not an integer",)),
    ('slimfly(q="7")', lambda: slimfly("7"), ValueError, "q='7'", ("not an integer",)),
    ("slimfly(q=2^61 - 1)", lambda: slimfly(2**61 - 1), ValueError, "q=2305843009213693951", ("too large",)),
    ("paley(q=7)", lambda: paley(7), ValueError, "q=7", ("1 mod 4",)),
    ("paley(q=9.0)", lambda: paley(9.0), ValueError, "q=9.0", ("not an integer",)),
    ("bundlefly(3, paley_q=7)", lambda: bundlefly(3, 7), ValueError, "paley_q=7", ("1 mod 4",)),
    ("polarstar unknown supernode", lambda: polarstar(3, supernode="cube"), ValueError, "supernode",
     ("'cube'", "'paley'", "'iq'")),
    ("polarstar d = 1 mod 4", lambda: polarstar(3, supernode="iq", d=5), ValueError, "d=5", ("0 or 3 mod 4",)),
    ("complete(n=1)", lambda: complete(1), ValueError, "n=1", ("too small", "n >= 2")),
    ('complete(n="5")', lambda: complete("5"), ValueError, "n='5'", ("not an integer",)),
    ("cycle(n=2)", lambda: cycle(2), ValueError, "n=2", ("n >= 3",)),
    ("mms_supernode(q=6)", lambda: mms_supernode(6), ValueError, "q=6", ("prime power",)),
    ("complete_paley(n=1)", lambda: complete_paley(1, 5), ValueError, "n=1", ("n >= 2",)),
    ("chimera(rows=0)", lambda: chimera(0, 2), ValueError, "rows=0", ("rows >= 2",)),
    ('hyperx("4,x")', lambda: hyperx("4,x"), ValueError, "sizes", ("'4,x'", "item 2", "ASCII digits")),
    ('hyperx("4,,4")', lambda: hyperx("4,,4"), ValueError, "sizes", ("'4,,4'", "item 2 is empty")),
    ('hyperx("٥")', lambda: hyperx("٥"), ValueError, "sizes", ("'٥'", "ASCII digits")),
    ('hyperx("")', lambda: hyperx(""), ValueError, "sizes", ("empty",)),
    ("hyperx([4, 1])", lambda: hyperx([4, 1]), ValueError, "sizes=1", ("too small", ">= 2")),
    ("hyperx(4.5)", lambda: hyperx(4.5), ValueError, "sizes=4.5", ("not a list",)),
    ("torus with 65 sizes", lambda: torus([3] * 65), ValueError, "sizes", ("65 sizes", "at most 64")),
    ('torus("3,3,...") with 65 sizes', lambda: torus(",".join(["3"] * 65)), ValueError, "sizes",
     ("65 sizes", "at most 64")),
]


def _under(limit: int, build: Callable[[], object]) -> Callable[[], object]:
    def call() -> object:
        with limit_memory(limit):
            return build()
    return call


SIZES: list[Row] = [
    ("slimfly(q=100003)", _under(GiB, lambda: slimfly(100003)), ValueError, "q=100003",
     ("too large", "slimfly(q=100003)", "20,001,200,018 vertices", "memory limit of 1.00 GiB")),
    ("polarfly(q=1024) under 1 GiB", _under(GiB, lambda: polarfly(1024)), ValueError, "q=1024",
     ("too large", "1,049,601 vertices", "memory limit of 1.00 GiB")),
    ("complete(n=20000) under 1 GiB", _under(GiB, lambda: complete(20000)), ValueError, "n=20000",
     ("too large", "199,990,000 edges", "memory limit of 1.00 GiB")),
    ("hyperx 1000 x 1000 under 1 GiB", _under(GiB, lambda: hyperx("1000,1000")), ValueError, "sizes",
     ("too large", "1,000,000 vertices", "memory limit of 1.00 GiB")),
    ("macro_star(l=3, n=3) (k = 10) under 64 MiB", _under(2**26, lambda: cy.macro_star(3, 3)), ValueError, "l=3",
     ("too large", "3,628,800", "memory limit of 64.0 MiB")),
]

TEXT: list[Row] = [
    ("parse_int Arabic-Indic five", lambda: parse_int("٥", "q"), ValueError, "q", ("'٥'", "ASCII digits 0-9")),
    ("parse_int full-width five", lambda: parse_int("５", "q"), ValueError, "q", ("'５'", "ASCII digits 0-9")),
    ("parse_int underscore", lambda: parse_int("1_3", "q"), ValueError, "q", ("'1_3'", "no spaces, +, _")),
    ("parse_int spaces", lambda: parse_int(" 5 ", "q"), ValueError, "q", ("' 5 '", "no spaces")),
    ("parse_int plus sign", lambda: parse_int("+5", "q"), ValueError, "q", ("'+5'",)),
    ("parse_int empty", lambda: parse_int("", "q"), ValueError, "q", ("''", "is empty")),
    ("parse_int lone minus", lambda: parse_int("-", "q"), ValueError, "q", ("'-'", "not an integer")),
    ("parse_int 5000 digits", lambda: parse_int("7" * 5000, "q"), ValueError, "q",
     ("too large", "(5000 characters)", "at most 40 digits")),
    ("parse_int not text", lambda: parse_int(5, "q"), TypeError, "q", ("q=5", "str")),
    ("parse_int_list trailing comma", lambda: parse_int_list("4,", "sizes"), ValueError, "sizes",
     ("item 2 is empty",)),
    ("parse_bytes empty", lambda: parse_bytes(""), ValueError, "max_memory", ("''", "8G")),
    ("parse_bytes unknown unit", lambda: parse_bytes("8X"), ValueError, "max_memory", ("'8X'", "K, M, G, T")),
    ("parse_bytes fraction", lambda: parse_bytes("1.5G"), ValueError, "max_memory", ("'1.5G'",)),
    ("parse_bytes negative", lambda: parse_bytes("-1"), ValueError, "max_memory", ("'-1'",)),
    ("parse_bytes zero", lambda: parse_bytes("0"), ValueError, "max_memory", ("'0'", "too small", "1 byte")),
    ("parse_bytes other digits", lambda: parse_bytes("٥G"), ValueError, "max_memory", ("'٥G'",)),
    ("parse_bytes unit only", lambda: parse_bytes("G"), ValueError, "max_memory", ("'G'",)),
    ("parse_bytes not text", lambda: parse_bytes(8), TypeError, "max_memory", ("max_memory=8", "str")),
]

CHECKS: list[Row] = [
    ("check_int bool", lambda: check_int(True, "n", 2), ValueError, "n=True", ("not an integer",)),
    ("check_int above maximum", lambda: check_int(9, "i", 2, 4, rule="2 <= i <= k = 4"), ValueError, "i=9",
     ("too large", "2 <= i <= k = 4")),
    ("check_real nan", lambda: check_real(float("nan"), "C", 0, 1, strict=True), ValueError, "C=nan",
     ("out of range",)),
    ("check_real text", lambda: check_real("1", "bandwidth", 0), ValueError, "bandwidth='1'", ("not a number",)),
    ("check_prime_power composite", lambda: check_prime_power(2**61 + 1), ValueError, "q=2305843009213693953",
     ("not a prime power",)),
    ("check_prime_power float", lambda: check_prime_power(4.0), ValueError, "q=4.0", ("not an integer",)),
    ("check_permutation repeat", lambda: check_permutation([0, 0, 1], 3), ValueError, "f=[0, 0, 1]",
     ("not a permutation of 0..2",)),
    ("check_choice", lambda: check_choice("x", "supernode", ("paley", "iq")), ValueError, "supernode='x'",
     ("'paley', 'iq'",)),
    ("limit_memory(0)", lambda: limit_memory(0).__enter__(), ValueError, "max_memory=0",
     ("positive number of bytes",)),
]

BOUNDS: list[Row] = [
    ("eq1_bound(n=1)", lambda: eq1_bound(1, 5), ValueError, "n=1", ("too small", "n >= 2")),
    ("eq1_bound(n=2.5)", lambda: eq1_bound(2.5, 5), ValueError, "n=2.5", ("not an integer",)),
    ("eq1_bound(m=-1)", lambda: eq1_bound(5, -1), ValueError, "m=-1", ("m >= 0",)),
    ("prop_iv1 too many edges", lambda: prop_iv1(4, 7), ValueError, "m=7", ("n(n-1)/2=6", "simple graph")),
    ("regular_bound k n odd", lambda: regular_bound(3, 5), ValueError, "k=3", ("n=5", "k*n even")),
    ("product_upper_bound n_g=1", lambda: product_upper_bound(1, 0, 1, 1, 1, 5), ValueError, "n_g=1",
     ("n_g >= 2",)),
]

CAYLEY: list[Row] = [
    ("macro_star(l=0)", lambda: cy.macro_star(0, 2), ValueError, "l=0", ("l >= 2",)),
    ("macro_star(n=0)", lambda: cy.macro_star(2, 0), ValueError, "n=0", ("n >= 1",)),
    ("macro_star(l=2.0)", lambda: cy.macro_star(2.0, 2), ValueError, "l=2.0", ("not an integer",)),
    ("macro_star(l=5, n=5): k = 26", lambda: cy.macro_star(5, 5), ValueError, "l=5", ("k = n*l + 1 = 26",
                                                                                      "k <= 10")),
    ("build_family without l and n", lambda: cy.build_family("MS", k=99), ValueError, "k=99", ("takes l and n",)),
    ("bubble_sort_graph(k=1)", lambda: cy.bubble_sort_graph(1), ValueError, "k=1", ("2 <= k",)),
    ("bubble_sort_graph(k=30)", lambda: cy.bubble_sort_graph(30), ValueError, "k=30", ("k <= 10",)),
    ("star_mnb_time(k=0)", lambda: cy.star_mnb_time(0), ValueError, "k=0", ("k >= 2",)),
    ("mnb_lower_bound(num_nodes=0)", lambda: cy.mnb_lower_bound(0, 3), ValueError, "num_nodes=0",
     ("num_nodes >= 1",)),
]

NETDESIGN: list[Row] = [
    ("max_routers(N=0)", lambda: nd.max_routers(0, 5), ValueError, "N=0", ("N > 2",)),
    ("max_routers(m=2)", lambda: nd.max_routers(8, 2), ValueError, "m=2", ("m > 2",)),
    ("max_routers(n=0)", lambda: nd.max_routers(8, 5, n=0), ValueError, "n=0", ("1 <= n <= N - 1 = 7",)),
    ("max_routers(N=8.5)", lambda: nd.max_routers(8.5, 5), ValueError, "N=8.5", ("not an integer",)),
    ("min_routers(m=1)", lambda: nd.min_routers(8, 1), ValueError, "m=1", ("m > 2",)),
    ("tree_levels(m=True)", lambda: nd.tree_levels(8, True), ValueError, "m=True", ("not an integer",)),
    ("balanced_bipartitions(N=3)", lambda: nd.balanced_bipartitions(3), ValueError, "N=3", ("odd",)),
    ("balanced_bipartitions(N=-2)", lambda: nd.balanced_bipartitions(-2), ValueError, "N=-2", ("N >= 2",)),
    ("bisection_picks(C=1.5)", lambda: nd.bisection_picks(1.5, 10), ValueError, "C=1.5", ("0 < C < 1",)),
    ("bisection_picks(C=nan)", lambda: nd.bisection_picks(float("nan"), 10), ValueError, "C=nan", ("0 < C < 1",)),
    ("daisy_chain(m=1)", lambda: nd.daisy_chain(8, 1), ValueError, "m=1", ("m > 2",)),
    ("tree_network(N=0)", lambda: nd.tree_network(0, 5), ValueError, "N=0", ("N > 2",)),
    ("random_network(m=0)", lambda: nd.random_network(4, 1, 2, 0), ValueError, "m=0", ("m >= 1",)),
    ("validate_connections label 0", lambda: nd.validate_connections([[0, 1]]), ValueError, "connections",
     ("label 0", "negative", "positive")),
]

TABLES = {"GRAPHS": GRAPHS, "VERIFY": VERIFY, "EDST_ENTRY": EDST_ENTRY, "BUILDERS": BUILDERS, "SIZES": SIZES,
          "TEXT": TEXT, "CHECKS": CHECKS, "BOUNDS": BOUNDS, "CAYLEY": CAYLEY, "NETDESIGN": NETDESIGN}
ROWS = [(table, *row) for table, rows in TABLES.items() for row in rows]


def test_the_catalogue_has_many_distinct_kinds():
    kinds = [row[1] for row in ROWS]
    assert len(kinds) == len(set(kinds)) >= 45


@pytest.mark.parametrize("table, kind, call, exc, param, fragments", ROWS, ids=[f"{r[0]}: {r[1]}" for r in ROWS])
def test_bad_input_is_refused_in_one_line_naming_the_parameter(table, kind, call, exc, param, fragments):
    with pytest.raises(exc) as info:
        call()
    assert type(info.value) is exc                       # not a subclass standing in for it
    message = str(info.value)
    assert "\n" not in message and 0 < len(message) < 300, message
    # the parameter as a word (``q=6``, ``trees[1]:``, ``P:``), not as part of another word
    assert re.search(rf"(?<![\w.]){re.escape(param)}(?![\w])", message), (param, message)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_an_unknown_cayley_family_is_named_with_the_known_ones():
    with pytest.raises(ValueError) as info:
        cy.build_family("nope", l=2, n=2)
    message = str(info.value)
    assert "\n" not in message and message.startswith("family='nope' is not a known Cayley family")
    assert "starlib networks lists them" in message and len(message) < 300
    with pytest.raises(ValueError, match="did you mean macro-star"):
        cy.build_family("macro-stra", l=2, n=2)


@pytest.mark.parametrize("kind, call, exc, param, fragments", SIZES, ids=[r[0] for r in SIZES])
def test_too_large_is_refused_before_anything_is_allocated(kind, call, exc, param, fragments):
    """The estimate comes from the parameters alone: the refusal allocates next to nothing."""
    tracemalloc.start()
    try:
        with pytest.raises(exc, match="too large"):
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20, f"{kind}: {peak} bytes traced before the refusal"


def test_a_graph_argument_is_not_modified_by_a_refusal():
    G = _multi()
    edges = sorted(G.edges(keys=True))
    with pytest.raises(ValueError):
        auto_trees(G)
    assert sorted(G.edges(keys=True)) == edges


def test_a_malformed_tree_is_refused_even_where_truncation_would_pass():
    """``[[0.5, 1.7], ...]`` was once truncated to ``[[0, 1], ...]`` and the family called valid."""
    truncated = [[0, 1], [1, 2], [2, 3]]
    assert verify_edsts(K4, [truncated]).valid
    with pytest.raises(ValueError, match=r"^trees\[0\]: vertex indices must be integers, got dtype float64$"):
        verify_edsts(K4, [[[0.5, 1.7], [1.2, 2.9], [2.4, 3.1]]])


# -- prime and prime-power recognition (every q of every family goes through it) ---------------------------------
def _smallest_factor(n: int) -> int:
    d = 2
    while d * d <= n:
        if n % d == 0:
            return d
        d += 1
    return n


def _carmichael_numbers(limit: int) -> list[int]:
    """Korselt's criterion by trial division: n composite, squarefree, and p - 1 | n - 1 for every prime p | n."""
    out = []
    for n in range(3, limit, 2):
        m, ok, factors = n, True, 0
        while m > 1 and ok:
            p = _smallest_factor(m)
            m //= p
            ok = m % p != 0 and (n - 1) % (p - 1) == 0
            factors += 1
        if ok and factors >= 2:
            out.append(n)
    return out


def test_2_61_minus_1_is_a_prime_and_a_prime_power():
    q = 2**61 - 1  # answered in well under a second; trial division ran for hours
    assert is_prime(q) and prime_power_parts(q) == (q, 1) and check_prime_power(q) == q


def test_small_numbers_against_trial_division():
    for n in range(0, 5000):
        p = _smallest_factor(n) if n >= 2 else None
        assert is_prime(n) == (n >= 2 and p == n), n
        if n < 2:
            assert prime_power_parts(n) is None
            continue
        m, k = n, 0
        while m % p == 0:
            m //= p
            k += 1
        assert prime_power_parts(n) == ((p, k) if m == 1 else None), n


def test_carmichael_numbers_are_neither_primes_nor_prime_powers():
    found = _carmichael_numbers(100_000)
    assert found[:7] == [561, 1105, 1729, 2465, 2821, 6601, 8911] and len(found) == 16  # OEIS A002997
    for n in found:
        assert not is_prime(n) and prime_power_parts(n) is None, n
        with pytest.raises(ValueError, match=rf"^q={n} is not a prime power$"):
            check_prime_power(n)


def test_large_numbers_against_sympy():
    sympy = pytest.importorskip("sympy")
    m61, m89, m127 = 2**61 - 1, 2**89 - 1, 2**127 - 1
    cases = [m61, m89, m127, m61 * m89, m61**2, m89**3, m61 * m61 * m89, 2**64 + 13, 10**30 + 57,
             3215031751, 3825123056546413051,     # strong pseudoprimes to bases 2, 3, 5, 7 and to 2 .. 23
             318665857834031151167461,            # a strong pseudoprime to the first 12 primes as bases
             9999109081, 1000000007 * 998244353, 1000003**5, 7**40, 3**101, 2**200]
    for n in cases:
        assert is_prime(n) == sympy.isprime(n), n
        power = sympy.perfect_power(n)  # (b, e) with the largest e, or False
        expected = (n, 1) if sympy.isprime(n) else (power if power and sympy.isprime(power[0]) else None)
        assert prime_power_parts(n) == (None if expected is None else (int(expected[0]), int(expected[1]))), n
    assert [prime_power_parts(n) for n in (m61**2, m89**3, 7**40, 2**200)] == [(m61, 2), (m89, 3), (7, 40), (2, 200)]
