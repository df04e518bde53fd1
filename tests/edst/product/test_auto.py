"""The product floor's doors: a public function checks a star product once and passes it inward.

``auto_trees``, ``construct`` (behind every construction of a graph) and ``product_context`` ask
``require_star_product`` (or ``star_form``) once and test each factor's connectivity once; past the door the
factor trees and the factor data take the checked ``ArrayGraph`` without converting it again. Counted by wrapping the
names in the modules that call them, on networks whose trees the verifier accepts.
"""

from __future__ import annotations

import importlib

import networkx as nx
import pytest

from starlib.edst import auto_trees, maximum_trees, product_context, verify_edsts
from starlib.factors import complete
from starlib.graphs import ArrayGraph
from starlib.networks import bundlefly, chimera, slimfly, slimfly_hafner
from starlib.products import star_product

# the modules themselves (the package re-exports a function named factor_data)
auto = importlib.import_module("starlib.edst.product.auto")
factor_data = importlib.import_module("starlib.edst.product.factor_data")


def counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[tuple]:
    """Replace ``module.name`` by a wrapper that records each call's positional arguments."""
    calls: list[tuple] = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


@pytest.fixture
def checks(monkeypatch):
    """The door checks of the product floor, counted: connectivity, the star-product check, the conversions."""
    return {"is_connected": counting(monkeypatch, auto, "is_connected"),
            "require_star_product": counting(monkeypatch, auto, "require_star_product"),
            "as_graph": counting(monkeypatch, auto, "as_graph"),
            "factor_data.as_graph": counting(monkeypatch, factor_data, "as_graph")}


def test_auto_trees_checks_each_factor_once(checks):
    P = slimfly(5)
    trees = auto_trees(P)
    assert len(trees) == 3 and verify_edsts(P, trees).valid
    assert [args[0] for args in checks["is_connected"]] == [P.structure.n, P.supernode.n]
    assert checks["require_star_product"] == [] and checks["as_graph"] == [] and checks["factor_data.as_graph"] == []


def test_a_factor_that_is_a_star_product_is_checked_once_too(checks):
    """Bundlefly's structure graph is Hafner's MMS(q), a relabelled K_{q,q} * C(X): its factors are tested once
    where the default factor trees recurse into Table I, not again by a second door."""
    P = bundlefly(3, 5)
    trees = auto_trees(P)
    assert verify_edsts(P, trees).valid
    inner = P.structure.product
    assert sorted(args[0] for args in checks["is_connected"]) == sorted(
        [P.structure.n, P.supernode.n, inner.structure.n, inner.supernode.n])
    assert checks["require_star_product"] == [] and checks["factor_data.as_graph"] == []


def test_a_construction_asks_require_star_product_once(checks):
    P = slimfly(7)
    trees = maximum_trees(P)
    assert len(trees) == 5 and verify_edsts(P, trees).valid
    assert [args[1] for args in checks["require_star_product"]] == ["method=maximum"]
    assert len(checks["is_connected"]) == 2 and checks["factor_data.as_graph"] == []


def test_product_context_is_its_own_door(checks):
    ctx = product_context(slimfly(5))
    assert (ctx.G.t, ctx.H.t) == (2, 1)
    assert [args[1] for args in checks["require_star_product"]] == ["product_context"]
    assert len(checks["is_connected"]) == 2


def test_the_doors_still_refuse(checks):
    """Each public path keeps its one check and its message."""
    with pytest.raises(ValueError, match="^P: method=maximum needs a star product .*got a networkx Graph"):
        maximum_trees(nx.petersen_graph())
    with pytest.raises(ValueError, match="^P: product_context needs a star product .*RelabelledProduct"):
        product_context(slimfly_hafner(4))
    with pytest.raises(ValueError, match="^supernode .* is not connected: the constructions need connected factors"):
        maximum_trees(chimera(2, 2))
    with pytest.raises(TypeError, match="^P=None is not a graph"):
        auto_trees(None)
    G = ArrayGraph.from_edges(range(1), [])
    with pytest.raises(ValueError, match="^structure graph : n=1; the constructions need factors with n >= 2"):
        auto_trees(star_product(G, complete(3), [0, 1, 2]))
