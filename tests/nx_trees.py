"""Independent depth measurement for the tests: each tree as a networkx graph, its depth by BFS from its root."""

import networkx as nx


def nx_tree(t):
    """The tree ``t`` (``.n``, ``.edges``) as an ``nx.Graph`` on ``0..n-1``, checked to be a spanning tree."""
    g = nx.Graph()
    g.add_nodes_from(range(t.n))
    g.add_edges_from(t.edges.tolist())
    assert nx.is_tree(g)
    return g


def nx_depths(trees):
    """Depth of every tree by networkx BFS from its stated root (``nx.single_source_shortest_path_length``)."""
    out = []
    for t in trees:
        dist = nx.single_source_shortest_path_length(nx_tree(t), t.root)
        assert len(dist) == t.n
        out.append(max(dist.values()))
    return out
