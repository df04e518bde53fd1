"""The streamed ER_q families (:mod:`starlib.edst.factor.er.stream`) equal the in-memory ones, tree by tree.

Independent sources: :func:`starlib.edst.factor.er.er_edsts` (which materialises every edge of ER_q through
:func:`~starlib.edst.factor.er.clusters.cluster_layout`) for the trees, roots and tags; the layout's edge list
for the partner lookup the stream uses instead of the matchings; the Singer verifier for larger ``q``.
"""

from __future__ import annotations

import numpy as np
import pytest

from starlib.edst.factor.er import (
    ErTreeStream,
    cluster_layout,
    er_edsts,
    er_tree_stream,
    singer_model,
    verify_singer_edsts,
)
from starlib.edst.factor.er import stream as er_stream
from starlib.edst.factor.er.layout import INTERNAL, MATCHING, layout_base, partner

PRIME_POWERS_64 = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41, 43, 47, 49, 53, 59,
                   61, 64]
SAMPLE_128 = [81, 125, 127, 128]


def _canon(e: np.ndarray) -> np.ndarray:
    e = np.sort(np.asarray(e, dtype=np.int64).reshape(-1, 2), axis=1)
    return e[np.lexsort((e[:, 1], e[:, 0]))]


def _same_as_in_memory(q: int, family: str) -> None:
    ref = er_edsts(q, family, labels="singer")
    st = er_tree_stream(q, family)
    assert isinstance(st, ErTreeStream)
    assert (st.q, st.n, st.family) == (q, q * q + q + 1, family)
    assert len(st) == st.k == len(ref)
    for t, (e, root, tag) in enumerate(st):
        assert e.dtype == np.int32 and e.shape == (st.n - 1, 2)
        assert np.array_equal(_canon(e), _canon(ref[t].edges)), (q, family, t)
        assert (root, tag) == (ref[t].root, ref[t].construction), (q, family, t)


@pytest.mark.parametrize("family", ["hamiltonian", "low-depth"])
@pytest.mark.parametrize("q", PRIME_POWERS_64 + SAMPLE_128)
def test_stream_equals_er_edsts(q, family):
    _same_as_in_memory(q, family)


def test_tags_and_roots_of_low_depth():
    assert [tag for _, _, tag in er_tree_stream(8, "low-depth")] == ["ER-C"] * 4
    tags = [tag for _, _, tag in er_tree_stream(9, "low-depth")]
    assert tags == ["ER-C"] * 4 + ["ER-F"]
    assert [tag for _, _, tag in er_tree_stream(3, "low-depth")] == ["ER-C", "ER-D"]  # q = 3: the repair


@pytest.mark.parametrize("family", ["hamiltonian", "low-depth"])
def test_deterministic(family):
    a, b = er_tree_stream(27, family), er_tree_stream(27, family)
    for (ea, ra, ta), (eb, rb, tb) in zip(a, b, strict=True):
        assert np.array_equal(ea, eb) and (ra, ta) == (rb, tb)
    e0 = a.tree(3)[0]
    assert np.array_equal(e0, a.tree(3)[0])  # asking again gives the same array


def test_partner_lookup_is_the_layout_matching():
    for q in (4, 5, 7, 8, 9, 16, 25):
        L = cluster_layout(singer_model(q))
        _, centres, cluster, _, d1 = layout_base(singer_model(q))
        assert np.array_equal(cluster, L.cluster) and np.array_equal(centres, L.centres)
        for u, v in L.edges[L.kind == MATCHING].tolist():
            assert partner(d1, u, int(centres[cluster[v]])) == v
            assert partner(d1, v, int(centres[cluster[u]])) == u
        mate = {}
        for u, v in L.edges[L.kind == INTERNAL].tolist():
            mate[u], mate[v] = v, u
        for x in np.flatnonzero((cluster >= 0) & ~L.is_centre).tolist():
            y = partner(d1, x, int(centres[cluster[x]]))
            has = y != x and y != centres[cluster[x]] and cluster[y] == cluster[x]
            assert (mate.get(x) == y) if has else (x not in mate)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="q=6 is not a prime power"):
        er_tree_stream(6)
    with pytest.raises(ValueError, match="family='repair'"):
        er_tree_stream(5, "repair")
    st = er_tree_stream(4, "low-depth")
    with pytest.raises(IndexError, match="t=2"):
        st.tree(2)
    with pytest.raises(IndexError, match="t=-1"):
        st.tree(-1)


def test_failed_odd_design_falls_back_or_raises(monkeypatch):
    monkeypatch.setattr(er_stream, "_odd_design", lambda *args, **kwargs: None)
    _same_as_in_memory(11, "low-depth")  # q <= 128: the in-memory family (here the same design)
    with pytest.raises(RuntimeError, match="q=131: "):
        er_tree_stream(131, "low-depth")


@pytest.mark.slow
@pytest.mark.parametrize("q", [243, 256, 257])
def test_larger_streams_are_edsts(q):
    for family in ("hamiltonian", "low-depth"):
        st = er_tree_stream(q, family)
        trees = [e for e, _, _ in st]
        assert len(trees) == (q + 1) // 2
        assert verify_singer_edsts(q, trees).valid
