"""ER_q is recognised by the marker its builders put in ``meta`` (:func:`starlib.edst.factor.er.er_order`), not by a
graph's name or by the tags of its trees; and the ER_q package's internal API is the one its ``__init__`` documents.

Independent sources: the builders themselves (``polarfly``, ``singer_graph``, a graph assembled by hand with the
same name and parameters), the JSON writer and reader, and the verifier on every family.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil

import pytest

import starlib.edst.factor.er as er_package
from starlib.edst import auto_trees, factor_edsts, verify_edsts
from starlib.edst.depth import shallow_starts
from starlib.edst.factor.er import ER_ORDER_KEY, er_order, singer_graph
from starlib.factors import complete, polarfly
from starlib.graphs import ArrayGraph
from starlib.io import read_json, write_json
from starlib.networks import polarstar
from tests.paths import ROOT


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9])
def test_builders_mark_er_q(q):
    assert er_order(polarfly(q)) == q
    assert er_order(singer_graph(q)) == q
    assert polarfly(q).meta[ER_ORDER_KEY] == q
    assert er_order(polarfly(q, loops=True)) is None  # a looped ER_q is not given the ER_q constructions


def test_other_graphs_are_not_er_q():
    assert er_order(complete(7)) is None  # 7 = 2^2 + 2 + 1 vertices, but not ER_2
    assert er_order(polarstar(3, d=7)) is None
    assert er_order(None) is None
    g = polarfly(5)
    wrong = ArrayGraph(g.labels, g.edges, name="polarfly", params=dict(g.params), meta={ER_ORDER_KEY: 7})
    assert er_order(wrong) is None  # a marker that does not fit n = q^2 + q + 1 is ignored


def test_the_name_no_longer_counts():
    """A graph named ``polarfly`` with ``q`` in its parameters but built by hand (or read back from a file) has no
    marker: factor_edsts treats it as any graph (the exact packer), where the builder's graph gets ER_q's trees."""
    g = polarfly(5)
    by_hand = ArrayGraph(g.labels, g.edges, name="polarfly", params={"q": 5, "loops": 0})
    assert er_order(by_hand) is None
    built, plain = factor_edsts(g), factor_edsts(by_hand)
    assert built.constructions() == ["ER-C", "ER-C", "ER-F"]
    assert plain.constructions() == ["generic"] * 3
    assert verify_edsts(g, built).valid and verify_edsts(by_hand, plain).valid
    with pytest.raises(ValueError, match="does not apply"):
        factor_edsts(by_hand, "er")


def test_a_graph_read_back_from_json_is_unmarked_and_the_command_line_keeps_its_trees(tmp_path):
    """``starlib improve`` and ``starlib verify`` never looked for ER_q: the file's trees are searched and verified
    as they are. In Python the file's graph is an unmarked graph (the JSON format keeps no ``meta``)."""
    g = polarfly(7)
    trees = auto_trees(g)
    path = tmp_path / "pf7.json"
    write_json(path, g, trees)
    f = read_json(path)
    assert f.graph.name == "polarfly" and er_order(f.graph) is None
    assert [t.edges.tolist() for t in f.trees] == [t.edges.tolist() for t in trees]


def test_marked_graphs_get_the_er_q_starts():
    assert [s.name for s in shallow_starts(polarfly(5))][:2] == ["auto", "ER shallow"]
    assert "ER shallow" not in [s.name for s in shallow_starts(polarfly(5, loops=True))]
    sg = singer_graph(5)  # the Singer labelling is ER_q too: its own vertex indices
    T = factor_edsts(sg)
    assert T.constructions() == ["ER-C", "ER-C", "ER-F"] and verify_edsts(sg, T).valid


def _modules() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules(er_package.__path__))


def test_every_module_is_documented_with_what_it_offers():
    """The package docstring's table lists every module and every name a module offers its siblings (its
    ``__all__``), so that the internal API is the documented one."""
    doc = er_package.__doc__
    for name in _modules():
        mod = importlib.import_module(f"starlib.edst.factor.er.{name}")
        assert f"``{name}``" in doc, name
        for offered in mod.__all__:
            assert offered in doc, f"{name}.{offered} is not in the package's internal API"


def test_siblings_import_only_what_a_sibling_offers():
    """Every ``from .module import name`` inside the package names something in that module's ``__all__``."""
    for name in _modules():
        path = ROOT / "starlib" / "edst" / "factor" / "er" / f"{name}.py"
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                offered = importlib.import_module(f"starlib.edst.factor.er.{node.module}").__all__
                for alias in node.names:
                    assert alias.name in offered, f"{name} imports {node.module}.{alias.name}"
