"""The family declarations: one record per family, beside its builder, that the command line, the catalogue, the
closed forms, Table V and the memory guard all read.

Independent references: each builder itself (a record's parameter checks must accept exactly what the builder
accepts, and its size model must count exactly what the builder builds), the edge sets of the two Slim Fly
builders (the vertex map a relabelled product carries), and a family declared without a size model (refused).
"""

from __future__ import annotations

import numpy as np
import pytest

from starlib import cayley, netdesign
from starlib.api import families
from starlib.edst import auto_trees, default_factor_trees, maximum_trees, relabel_trees, verify_edsts
from starlib.family import Family, Param, declared_in, family, family_table, integer
from starlib.memory import Size
from starlib.networks import bundlefly, slimfly, slimfly_hafner
from starlib.paper import catalog, formulas, table5, tree_depths
from starlib.products import RelabelledProduct, StarProduct, star_form
from starlib.registry import NETWORK_FAMILIES, get_family


@pytest.mark.parametrize("name, param, values", [
    ("complete", "n", range(-1, 12)), ("complete-bipartite", "n", range(-1, 12)), ("cycle", "n", range(-1, 12)),
    ("paley", "q", range(-1, 60)), ("mms-supernode", "q", range(-1, 40)), ("mms-supernode-prime", "q", range(-1, 40)),
    ("polarfly", "q", range(-1, 40)), ("inductive-quad", "d", range(-1, 24)), ("bdf", "d", range(-1, 24)),
    ("slimfly", "q", range(-1, 14)), ("slimfly-hafner", "q", range(-1, 14)),
])
def test_a_record_admits_exactly_what_its_builder_builds(name, param, values):
    fam = NETWORK_FAMILIES[name]
    for v in values:
        try:
            fam.build(**{param: v})
            built = True
        except ValueError:
            built = False
        assert fam.admits(**{param: v}) == built, (name, v)


def test_every_table_names_families_of_the_one_table():
    names = set(NETWORK_FAMILIES)
    assert set(formulas.FORMULAS) <= names
    assert set(table5.FAMILIES) <= names
    assert {f for f, _ in catalog.paper_grid()} <= names
    assert {f for f, _ in tree_depths.depth_instances(q_max=5)} <= names
    cli = families()
    assert names <= set(cli) and len(cli) == len(names) + 13 + 3  # core, 13 super Cayley, 3 network-design


def test_variants_are_the_general_builder_with_fixed_arguments():
    a = NETWORK_FAMILIES["polarstar-iq"].build(q=3, d=4)
    b = NETWORK_FAMILIES["polarstar"].build(q=3, supernode="iq", d=4)
    assert a.params == b.params and np.array_equal(a.edges, b.edges)
    with pytest.raises(ValueError, match="supernode is not a parameter of polarstar-iq"):
        NETWORK_FAMILIES["polarstar-iq"].build(q=3, d=4, supernode="paley")
    assert get_family("mms-supernode-prime").build(q=7).params == {"q": 7, "prime": 1}


def test_family_table_refuses_a_name_twice():
    f = Family("x", int, {"n": Param(integer(1))}, "x", size=lambda n: Size(n, 0, 0))
    with pytest.raises(ValueError, match="name='x' is given to two families"):
        family_table(f, f)
    with pytest.raises(ValueError, match="network='nope' is not a known family"):
        get_family("nope")


ALL = {**NETWORK_FAMILIES, **cayley.NETWORK_FAMILIES, **netdesign.NETWORK_FAMILIES}


def test_a_family_without_a_size_model_is_refused():
    """A planted family with no size model: declaring it fails, so no member is ever estimated as zero."""
    with pytest.raises(ValueError, match="family 'planted' has no size model"):
        @family("planted", params={"n": Param(integer(2))}, size=None, summary="a planted family", declare=False)
        def planted(n):
            return n
    with pytest.raises(ValueError, match="family 'planted' has no size model"):
        Family("planted", int, {}, "x", size=None)
    assert all(callable(f.size) for f in ALL.values()) and len(ALL) == 26 + 13 + 3


def test_declared_parameters_are_the_builders():
    """Every record's parameters (for a variant: with the preset ones) are its builder's, with the same defaults;
    the declaration of a builder with other parameters is refused."""
    import inspect

    for f in ALL.values():
        sig = inspect.signature(f.builder)
        if f.preset:  # a variant: some of the builder's parameters, the others fixed or left at their defaults
            assert set(f.params) | set(f.preset) <= set(sig.parameters), f.name
        else:
            assert list(f.params) == list(sig.parameters), f.name
        for k, p in f.params.items():
            default = sig.parameters[k].default
            if not f.preset:
                assert p.required == (default is inspect.Parameter.empty), (f.name, k)
            if not p.required:
                assert p.default == default, (f.name, k)
    with pytest.raises(ValueError, match="declared parameters"):
        family("x", params={"m": Param(integer(1))}, size=lambda m: Size(m, 0, 0), summary="x",
               declare=False)(lambda n: n)


def test_every_family_is_declared_once_in_its_module():
    from starlib import factors, networks, registry, standard

    declared = [f.name for m in (factors, networks, standard, registry) for f in declared_in(m)]
    assert declared == list(NETWORK_FAMILIES)
    assert [f.name for f in declared_in(cayley.families)] == list(cayley.NETWORK_FAMILIES)


@pytest.mark.parametrize("name", sorted(n for n, f in ALL.items()
                                        if all(p.rule.kind in ("integer", "prime power") for p in f.params.values())
                                        and f.check is None and f.params))
def test_the_rule_text_states_the_check(name):
    """The words of each integer rule come from its fields: the stated minimum passes the check (when its residue
    class allows it) and the integer below it is refused with a message that quotes the words."""
    fam = ALL[name]
    for key, p in fam.params.items():
        r = p.rule
        if r.minimum is None:
            continue
        assert f">= {r.minimum}" in p.text or f"{r.minimum} <=" in p.text
        with pytest.raises(ValueError, match=f"{key}={r.minimum - 1} is (too small|not a prime power)"):
            p.check(r.minimum - 1)


@pytest.mark.parametrize("q", [3, 4, 5, 7, 8, 9])
def test_hafner_form_carries_its_star_product(q):
    H = slimfly_hafner(q)
    assert isinstance(H, RelabelledProduct) and not isinstance(H, StarProduct)
    P, index = star_form(H)
    assert isinstance(P, StarProduct) and P.name == "slimfly"
    assert sorted(index.tolist()) == list(range(H.n))
    # the map sends the star product's edges onto Hafner's, built independently from the geometric definition
    mapped = np.sort(index[P.edges], axis=1)
    assert sorted(map(tuple, mapped.tolist())) == sorted(map(tuple, H.edges.tolist()))
    # and its labels as the docstring says: ((0, x), y) -> (0, x, y), ((1, m), c') -> (1, m, xi c')
    xi = H.meta["xi"]
    from starlib.fields import tables

    T = tables(q)
    for v in range(0, P.n, max(1, P.n // 17)):
        (side, a), b = P.labels[v]
        assert H.labels[index[v]] == ((side, a, b) if side == 0 else (side, a, int(T.mul(xi, b))))


def test_bundlefly_recurses_into_its_structure_graph_without_rebuilding_it():
    P = bundlefly(4, 5)
    G = P.structure
    g = default_factor_trees(G)
    assert g.theorem == "V-C.3" and set(g.constructions()) <= {"V-C.4", "V-C.5", "V-C.6", "V-C.7"}
    assert verify_edsts(G, g).valid
    s = auto_trees(P)
    assert verify_edsts(P, s).valid and len(s) == s.factors[0].t + s.factors[1].t


def test_relabel_trees_maps_a_construction_onto_the_relabelled_graph():
    H = slimfly_hafner(5)
    on_product = maximum_trees(H.product)
    on_hafner = maximum_trees(H)
    assert verify_edsts(H, on_hafner).valid and not verify_edsts(H, on_product).valid
    again = relabel_trees(on_product, H.index)
    assert [t.edges.tolist() for t in again] == [t.edges.tolist() for t in on_hafner]
    assert again.theorem == on_hafner.theorem == "V-C.10"
    assert slimfly(5).n == H.n


SIZE_SAMPLES = [  # at least one member of every family with a size estimate, read back from the built graph
    ("complete", {"n": 7}), ("complete-bipartite", {"n": 5}), ("cycle", {"n": 9}), ("paley", {"q": 25}),
    ("mms-supernode", {"q": 13}), ("mms-supernode", {"q": 11}), ("mms-supernode-prime", {"q": 8}),
    ("polarfly", {"q": 9}), ("inductive-quad", {"d": 8}), ("bdf", {"d": 7}),
    ("chimera-graph", {"rows": 3, "cols": 3}), ("chimera-graph", {"rows": 3, "cols": 4, "toric": 1}),
    ("slimfly", {"q": 5}), ("slimfly", {"q": 7}), ("slimfly", {"q": 8}), ("slimfly-hafner", {"q": 9}),
    ("bundlefly", {"q": 7, "paley_q": 13}), ("polarstar", {"q": 3, "d": 3}),
    ("polarstar", {"q": 4, "paley_q": 9, "loops": 1}), ("polarstar-paley", {"q": 5, "paley_q": 5}),
    ("polarstar-iq", {"q": 3, "d": 4, "loops": 1}), ("complete-paley", {"n": 3, "q": 13}),
    ("cartesian", {"G": "complete:n=4", "H": "paley:q=5"}), ("hyperx", {"sizes": "3,4"}),
    ("torus", {"sizes": "3,4,5"}), ("chimera", {"rows": 4, "cols": 6}), ("chimera", {"rows": 4, "cols": 4, "toric": 1}),
    ("netdesign-tree", {"N": 17, "m": 5}), ("netdesign-tree", {"N": 30, "m": 6, "n": 2}),
    ("netdesign-chain", {"N": 11, "m": 5}), ("star", {"k": 5}), ("bubble-sort", {"k": 4}),
    ("transposition", {"k": 4}), ("macro-star", {"l": 2, "n": 2}), ("macro-rotator", {"l": 2, "n": 2}),
    ("hypercube", {"n": 1}), ("hypercube", {"n": 6, "p": 3}), ("mesh", {"sizes": "7"}), ("mesh", {"sizes": "2,3,5"}),
    ("fat-tree", {"k": 2, "n": 2}), ("fat-tree", {"k": 3, "n": 4}), ("dragonfly", {"a": 4, "p": 2, "h": 2}),
    ("dragonfly", {"a": 3, "p": 1, "h": 2, "arrangement": "circulant"}),
    ("dragonfly", {"a": 1, "p": 1, "h": 5, "arrangement": "relative"}), ("jellyfish", {"n": 30, "r": 5}),
    ("jellyfish", {"n": 12, "r": 9, "seed": 4}),
]


@pytest.mark.parametrize("name, params", SIZE_SAMPLES, ids=[f"{n}-{p}" for n, p in SIZE_SAMPLES])
def test_size_estimates_count_exactly_what_the_builder_builds(name, params):
    """The estimate that refuses large networks before allocating comes from the parameters alone; its vertex and
    edge counts are exact, as the graph built from the same parameters shows."""
    fam = ALL[name]
    est, g = fam.estimate(params), fam.build(**params)
    assert (est.n, est.m) == (g.n, g.m)
    assert est.peak_bytes >= 48 * g.m  # no model below the 48 bytes per edge measured for the leanest builder


def test_a_random_network_is_estimated_from_above():
    """netdesign-random pairs free router ports at random and drops doubled links: its estimate counts the vertices
    exactly and bounds the links (one per two ports)."""
    fam = ALL["netdesign-random"]
    for seed in range(5):
        params = {"N": 12, "n": 2, "M": 6, "m": 6, "seed": seed}
        est, g = fam.estimate(params), fam.build(**params)
        assert est.n == g.n and g.m <= est.m <= g.m + 6


@pytest.mark.parametrize("name, params, match", [
    ("netdesign-tree", {"N": 10, "m": 3}, "N=10 is too large: netdesign-tree"),
    ("netdesign-random", {"N": 10**8, "n": 1, "M": 10**8, "m": 3}, "N=100000000 is too large"),
    ("complete", {"n": 10**6}, "n=1000000 is too large"),
])
def test_the_memory_guard_refuses_every_kind_of_family(name, params, match):
    """Before the declarations, the three network-design families had no size model and were estimated as zero:
    a one-byte limit let them through."""
    with pytest.raises(ValueError, match=match):
        ALL[name].check_size(params, max_memory=1 if name == "netdesign-tree" else 2**30)


@pytest.mark.parametrize("name, params", [("paley", {"q": 7}), ("slimfly", {"q": 2}), ("polarstar", {"q": 3}),
                                          ("netdesign-random", {"N": 10, "n": 1, "M": 2, "m": 3}),
                                          ("macro-star", {"l": 2, "n": 0}), ("cartesian", {"G": "nope", "H": "x"})])
def test_an_estimate_of_bad_parameters_is_the_builders_error(name, params):
    """No estimate is ever empty: parameters that break the rules raise what the builder raises."""
    fam = ALL[name]
    with pytest.raises(ValueError) as est:
        fam.estimate(params)
    with pytest.raises(ValueError) as built:
        fam.build(**params)
    assert str(est.value) == str(built.value)
