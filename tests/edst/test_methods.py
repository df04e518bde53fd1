"""The methods floor's door: :meth:`Method.plan` checks the graph it plans for once, and its run does not check again.

The construction behind a product method keeps its own door (``construct``: one ``require_star_product``), which is
the only check of the planned run; ``Method.checked`` (the door of ``METHODS[name](graph)``) is not run again.
"""

from __future__ import annotations

import importlib

import pytest

from starlib.edst import METHODS, verify_edsts
from starlib.networks import slimfly

methods = importlib.import_module("starlib.edst.methods")
auto = importlib.import_module("starlib.edst.product.auto")


def test_a_planned_product_method_is_checked_once(monkeypatch):
    seen: list[str] = []
    for module in (methods, auto):
        real = module.require_star_product

        def counted(P, what, *args, _real=real, _where=module.__name__, **kwargs):
            seen.append(f"{_where.rsplit('.', 1)[-1]}: {what}")
            return _real(P, what, *args, **kwargs)

        monkeypatch.setattr(module, "require_star_product", counted)
    P = slimfly(5)
    plan = METHODS["maximum"].plan(P)
    assert seen == []
    trees = plan()
    assert len(trees) == 3 and verify_edsts(P, trees).valid
    assert seen == ["auto: method=maximum"]


@pytest.mark.parametrize("name", ["auto", "shallow"])
def test_a_planned_method_of_any_graph_runs_on_the_graph_it_was_given(name, monkeypatch):
    calls = []
    real = methods.as_graph
    monkeypatch.setattr(methods, "as_graph", lambda *a, **k: calls.append(a) or real(*a, **k))
    P = slimfly(5)
    trees = METHODS[name].plan(P)()
    assert len(trees) == 3 and verify_edsts(P, trees).valid and calls == []
