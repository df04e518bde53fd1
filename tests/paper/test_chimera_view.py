"""Appendix C: the Chimera graph as K_2 * H, its colour classes, bounds and drawing."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from starlib.paper import chimera_view as cv  # noqa: E402


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 4), (2, 6), (4, 4), (4, 6), (6, 6), (4, 8), (2, 8)])
def test_rule_matches_isomorphism(rows, cols):
    cc = cv.colour_classes(rows, cols)
    assert cc.cross_is_perfect_matching
    assert cv.supernodes_isomorphic(cc) == cv.star_product_rule(rows, cols)


def test_c4_is_not_a_star_product():
    cc = cv.colour_classes(4, 4)
    assert cv.component_types(cc.blue) == "1 ring + 4 K44"
    assert cv.component_types(cc.red) == "4 pair"
    # same order, size and degree sequence: only the structure tells them apart
    assert (cc.blue.n, cc.blue.m) == (cc.red.n, cc.red.m)
    assert sorted(cc.blue.degrees().tolist()) == sorted(cc.red.degrees().tolist())
    assert not cv.supernodes_isomorphic(cc)
    assert cv.chimera_row(4, 4, pack=False)["star_product"] is False


def test_products_match_the_chimera():
    assert cv.product_matches_chimera(2, 2)
    assert cv.product_matches_chimera(2, 4)
    assert cv.product_matches_chimera(4, 4, toric=True)


def test_closed_forms_and_degrees():
    for rows in range(1, 6):
        for cols in range(1, 6):
            cc = cv.colour_classes(rows, cols)
            assert (cc.graph.n, cc.graph.m) == cv.chimera_closed_form(rows, cols)
            if rows >= 3 and cols >= 3:
                t = cv.colour_classes(rows, cols, toric=True).graph
                assert (t.n, t.m) == cv.chimera_closed_form(rows, cols, toric=True)
                assert t.degree_set() == [6]
    # Appendix C-A of the paper: corner cells and half the vertices of side cells have 5 neighbours
    g = cv.colour_classes(4, 4).graph
    assert int((g.degrees() == 5).sum()) == 4 * 8 + 8 * 4


def test_checkerboard_colouring_is_not_a_matching():
    assert cv.colour_classes(2, 2, colouring="checkerboard").cross_is_perfect_matching  # same as blocks at 2x2
    cc = cv.colour_classes(2, 4, colouring="checkerboard")
    assert not cc.cross_is_perfect_matching
    assert np.bincount(cc.cross.ravel(), minlength=cc.graph.n).max() == 2


def test_bounds_and_maxima():
    r = cv.chimera_row(2, 2)
    assert (r["n"], r["m"], r["a"], r["b"], r["bound"], r["max_edsts"]) == (32, 80, 2, 16, 2, 2)
    r = cv.chimera_row(4, 4, toric=True)
    assert (r["n"], r["m"], r["a"], r["b"], r["bound"], r["max_edsts"]) == (128, 384, 3, 0, 3, 3)
    assert (r["blue"], r["n_H"], r["m_H"], r["star_product"]) == ("2 ring", 64, 160, True)


def test_bad_input():
    with pytest.raises(ValueError, match="rows=3"):
        cv.star_product_rule(3, 4)
    with pytest.raises(ValueError, match="colouring"):
        cv.colour_classes(2, 2, colouring="stripes")


def test_draw_is_deterministic():
    out = []
    for _ in range(2):
        fig, ax = plt.subplots()
        cv.draw_chimera(4, 4, toric=True, ax=ax)
        out.append([c.get_segments() for c in ax.collections[:-1]])
        plt.close(fig)
    assert all(np.array_equal(np.array(a), np.array(b)) for a, b in zip(out[0], out[1], strict=True))
