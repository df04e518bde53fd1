"""Figure 2 of the paper: Cartesian EDSTs moved edge by edge into a star product.

Oracles: the star product's edges written out from the definition ((g, h) ~ (g', f(h)) on every arc g < g'),
networkx for components, cycles and trees, and the verifier's verdict on the Cartesian trees.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from starlib.edst import auto_trees, verify_edsts
from starlib.factors import complete, paley
from starlib.networks import complete_paley, polarstar, slimfly
from starlib.paper.naive_transfer import naive_transfer, naive_transfer_frame
from starlib.products import cartesian_product, star_product

CASES = {"K2*QR5": lambda: complete_paley(2, 5), "K3*QR5": lambda: complete_paley(3, 5),
         "K5*QR5": lambda: complete_paley(5, 5), "MMS(3)": lambda: slimfly(3), "MMS(4)": lambda: slimfly(4),
         "ER2*QR5": lambda: polarstar(2, paley_q=5)}


def _expected_image(P, edges):
    """The naive image by the definition, one edge at a time."""
    nH, G = P.supernode.n, P.structure
    arcs = {tuple(e): k for k, e in enumerate(G.edges.tolist())}
    out = []
    for u, v in np.asarray(edges).tolist():
        (g, h), (g2, h2) = divmod(u, nH), divmod(v, nH)
        if g == g2:
            out.append((u, v))
            continue
        assert h == h2
        lo, hi = min(g, g2), max(g, g2)
        out.append((lo * nH + h, hi * nH + int(P.bijections[arcs[(lo, hi)], h])))
    return out


@pytest.mark.parametrize("name", list(CASES))
def test_naive_transfer_against_networkx(name):
    P = CASES[name]()
    C = cartesian_product(P.structure, P.supernode)
    trees = auto_trees(C)
    assert verify_edsts(C, trees).valid
    star_edges = {tuple(sorted(e)) for e in P.edges.tolist()}
    df = naive_transfer_frame(P, trees)
    images = []
    for t, row in zip(trees, df.itertuples(), strict=True):
        img = naive_transfer(P, t.edges)
        assert [tuple(e) for e in img.tolist()] == _expected_image(P, t.edges)
        assert {tuple(sorted(e)) for e in img.tolist()} <= star_edges
        g = nx.Graph()
        g.add_nodes_from(range(P.n))
        g.add_edges_from(img.tolist())
        assert g.number_of_edges() == P.n - 1 == row.edges
        comps = nx.number_connected_components(g)
        assert (row.components, row.uncovered) == (comps, sum(1 for v in g if g.degree(v) == 0))
        assert row.cycles == len(nx.cycle_basis(g))
        assert row.is_tree == nx.is_tree(g) == row.spanning == (row.verifier == "ok")
        assert row.cartesian == "ok"
        images.append({tuple(sorted(e)) for e in img.tolist()})
    assert sum(map(len, images)) == len(set().union(*images))  # still edge-disjoint: the move is a bijection


def test_figure2_neither_trees_nor_spanning():
    """K_3 * QR(5): the first tree becomes a cycle plus a vertex that no edge reaches; the Petersen graph's
    single tree survives; with identity bijections (a Cartesian product) nothing moves."""
    df = naive_transfer_frame(complete_paley(3, 5))
    bad = df.iloc[0]
    assert (bad.components, bad.uncovered, bad.cycles, bad.is_tree) == (2, 1, 1, False)
    assert set(bad.verifier.split(", ")) == {"acyclic", "spanning"}
    assert naive_transfer_frame(complete_paley(2, 5)).is_tree.all()
    H = paley(5)
    C = star_product(complete(3), H, np.arange(5))
    t = auto_trees(C)
    assert all(np.array_equal(naive_transfer(C, x.edges), x.edges) for x in t)
    assert naive_transfer_frame(C).is_tree.all()


def test_naive_transfer_rejects_non_cartesian_edges():
    P = complete_paley(2, 5)
    with pytest.raises(ValueError, match=r"\(1, 7\)"):
        naive_transfer(P, [[1, 7]])
