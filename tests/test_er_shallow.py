"""Tests for starlib.edst.factor.er_shallow: maximum EDST families of ER_q of depth at most 4.

Depths are measured independently: networkx BFS (``nx.single_source_shortest_path_length``) on each tree as an
``nx.Graph`` from the root the tree states, and the centre checked against the tree's radius.
"""

import networkx as nx
import numpy as np
import pytest

from starlib.edst import er_edst_bound, singer_graph, verify_edsts
from starlib.edst.depth import depth_lower_bound
from starlib.edst.factor.er_shallow import er_shallow_trees
from starlib.factors import polarfly


def nx_depths(trees):
    """(depth from the stated root, radius) of every tree, by networkx BFS."""
    out = []
    for t in trees:
        g = nx.Graph()
        g.add_nodes_from(range(t.n))
        g.add_edges_from(t.edges.tolist())
        assert nx.is_tree(g)
        dist = nx.single_source_shortest_path_length(g, t.root)
        assert len(dist) == t.n
        ecc = nx.eccentricity(g) if t.n <= 400 else None
        out.append((max(dist.values()), None if ecc is None else min(ecc.values())))
    return out


# odd and even q, the small ones where the plain local search stays at depth 5 (3, 5, 7, 9, 13, 19, 23, 29),
# and ones it already solves (4, 8, 11, 16, 17, 25, 27)
@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29])
def test_count_verified_depth_at_most_4(q):
    g = polarfly(q)
    T = er_shallow_trees(q)
    assert len(T) == er_edst_bound(q)
    assert verify_edsts(g, T).valid
    measured = nx_depths(T)
    depths = [d for d, _ in measured]
    assert depths == T.depths()
    assert max(depths) <= 4
    assert max(depths) >= depth_lower_bound(g, len(T)).value
    for d, rad in measured:
        if rad is not None:
            assert d == rad  # rooted at a centre
    assert all(c.startswith("ER-shallow(") for c in T.constructions())
    assert all(t.meta["target"] == 4 for t in T)


def test_q2_single_tree_depth_2():
    T = er_shallow_trees(2)
    assert len(T) == 1 and nx_depths(T)[0][0] == 2  # ER_2 has diameter 2 and no vertex of degree 6


def test_deterministic_and_seeded():
    a = er_shallow_trees(13)
    b = er_shallow_trees(13)
    assert [t.root for t in a] == [t.root for t in b]
    assert all(np.array_equal(x.edges, y.edges) for x, y in zip(a, b, strict=True))
    c = er_shallow_trees(13, seed=1)
    assert verify_edsts(polarfly(13), c).valid and max(c.depths()) <= 4


def test_singer_graph_labels():
    g = singer_graph(11)
    T = er_shallow_trees(11, g)
    assert verify_edsts(g, T).valid
    assert max(d for d, _ in nx_depths(T)) <= 4


def test_rejects_non_prime_power():
    with pytest.raises(ValueError):
        er_shallow_trees(6)
