"""Tests for starlib.allreduce.schedules: every allreduce schedule as a Schedule, with hosts, in-network or on them.

Independent sources: the count replay of starlib.allreduce.schedule (every final packet carries all contributions,
no stall), a per-rank tally written here (every rank ends with every chunk), the bytes per link each algorithm
moves in closed form (Patarasuk and Yuan's ring: 2(N-1)/N of its share per ring link and direction; trees: a tree's
share per tree link, direction and phase; Thakur, Rabenseifner and Gropp's halving-doubling: size / 2^k between new
ranks 2^k apart, the whole buffer before and after for the ranks that sit out), the old message lists of
starlib.netsim.simulate (tree_messages, ring_messages), a transcription of NCCL's ncclGetBtree / ncclGetDtree
written here, and networkx (Hamiltonian cycles).
"""

import networkx as nx
import numpy as np
import pytest

from starlib.allreduce.schedule import replay_counts
from starlib.allreduce.schedules import (
    MODES,
    SCHEDULES,
    build_schedule,
    nccl_double_binary_tree,
    with_hosts,
)
from starlib.api import edsts, network
from starlib.graphs import as_graph
from starlib.memory import limit_memory
from starlib.netsim.simulate import bfs_parents, ring_messages, tree_messages

GRAPHS = {
    "K4": lambda: as_graph(nx.complete_graph(4)),
    "C6": lambda: as_graph(nx.cycle_graph(6)),
    "petersen": lambda: as_graph(nx.petersen_graph()),
    "polarfly3": lambda: network("polarfly", q=3),
    "slimfly3": lambda: network("slimfly", q=3),
}
_CACHE: dict = {}


def graph(name):
    if name not in _CACHE:
        g = GRAPHS[name]()
        _CACHE[name] = (g, list(edsts(g)))
    return _CACHE[name]


def options(name, trees):
    kw = {}
    if SCHEDULES[name].needs_trees:
        kw["trees"] = trees
    if name == "weighted-trees":
        kw["weights"] = [1.0 + t for t in range(len(trees))]
    return kw


def tally(s):
    """Per rank, how often each chunk arrives in a final range, and which chunks it sends in final ranges."""
    C = s.chunk_bytes.shape[0]
    rank_of = {int(v): i for i, v in enumerate(s.ranks.tolist())}
    got = np.zeros((s.ranks.shape[0], C), dtype=np.int64)
    sent = np.zeros((s.ranks.shape[0], C), dtype=bool)
    for m, lo, hi in zip(s.final_msg.tolist(), s.final_lo.tolist(), s.final_hi.tolist(), strict=True):
        p = s.path(m)
        c = s.chunks(m)[lo:hi]
        if int(p[-1]) in rank_of:
            np.add.at(got[rank_of[int(p[-1])]], c, 1)
        if int(p[0]) in rank_of:
            sent[rank_of[int(p[0])], c] = True
    return got, sent


def router_bytes(s, g):
    """Bytes per router link and direction, keyed by (u, v)."""
    lb = s.link_bytes()
    out = {}
    for i, (u, v) in enumerate(g.edges.tolist()):
        out[(u, v)] = int(lb[i, 0])
        out[(v, u)] = int(lb[i, 1])
    return out


def host_bytes(s, g):
    """(up, down) bytes of every host link (router -> host rows after the router links)."""
    lb = s.link_bytes()[g.m:]
    return lb[:, 1], lb[:, 0]


# ---------------------------------------------------------------------------------------- every schedule, replayed


CASES = [(gname, name, P, mode) for gname in GRAPHS for name in SCHEDULES for P in (1, 2, 3) for mode in MODES
         if not (gname == "petersen" and name in ("ring", "multiring"))]


@pytest.mark.parametrize(("gname", "name", "P", "mode"), CASES)
def test_replay_and_every_rank_gets_every_chunk(gname, name, P, mode):
    g, trees = graph(gname)
    size = 6007  # blocks of unequal sizes
    s = build_schedule(g, name, size, hosts_per_router=P, mode=mode, packet_bytes=512, **options(name, trees))
    assert replay_counts(s) == s.messages
    assert s.nodes == g.n * (1 + P)
    assert s.ranks.tolist() == list(range(g.n, g.n * (1 + P)))
    assert s.chunk_bytes.sum() == size and s.chunk_bytes.max() <= 512
    got, sent = tally(s)
    if mode == "in-network":
        assert (got == 1).all()  # every host receives every chunk exactly once
        # and sends its own contribution once: the buffer up its link, the result down
        up, down = host_bytes(s, g)
        assert (up == size).all() and (down == size).all()
    else:
        assert (got <= 1).all()
        assert ((got == 1) | sent).all()  # what a rank does not receive, it computed and sends on
    copy = s.meta["copy_from"]
    assert ((copy >= 0) & (copy <= s.packets)).all()
    assert (copy[~s.reduce] == 0).all()


def test_petersen_has_no_ring():
    g, _ = graph("petersen")
    for name in ("ring", "multiring"):
        with pytest.raises(ValueError, match="graph: no Hamiltonian cycle"):
            build_schedule(g, name, 4096)
    assert replay_counts(build_schedule(g, "ring-sp", 4096)) > 0  # the fallback runs


# ---------------------------------------------------------------------------------------- bytes in closed form


def assert_cycle(g, cycle):
    G = nx.Graph(g.edges.tolist())
    c = [int(v) for v in cycle]
    assert sorted(c) == list(range(g.n))
    assert all(G.has_edge(a, b) for a, b in zip(c, c[1:] + c[:1], strict=True))
    return c


@pytest.mark.parametrize("gname", ["K4", "C6", "polarfly3", "slimfly3"])
@pytest.mark.parametrize("directions", [1, 2])
def test_ring_bytes_in_network(gname, directions):
    g, _ = graph(gname)
    N = g.n
    size = 2 * N * 1000
    s = build_schedule(g, "ring", size, directions=directions, packet_bytes=300)
    c = assert_cycle(g, s.meta["cycles"][0])
    assert s.meta["rings"] == 1 and s.meta["directions"] == directions
    share = size // directions
    want = {e: 0 for e in router_bytes(s, g)}
    for a, b in zip(c, c[1:] + c[:1], strict=True):
        want[(a, b)] += 2 * (N - 1) * share // N  # Patarasuk and Yuan: 2(N-1)/N of the share per ring link
        if directions == 2:
            want[(b, a)] += 2 * (N - 1) * share // N
    assert router_bytes(s, g) == want
    # per ring: N streams; per router, its host's stream up, and down the blocks it receives and the one it reduces
    assert s.messages == 4 * N * directions


@pytest.mark.parametrize("P", [1, 3])
def test_ring_bytes_host_mode(P):
    g, _ = graph("polarfly3")
    N = g.n * P
    size = 2 * N * 64
    s = build_schedule(g, "ring", size, hosts_per_router=P, mode="host", packet_bytes=64)
    c = assert_cycle(g, s.meta["cycles"][0])
    per = 2 * (N - 1) * (size // 2) // N
    want = {e: 0 for e in router_bytes(s, g)}
    for a, b in zip(c, c[1:] + c[:1], strict=True):
        want[(a, b)] += per
        want[(b, a)] += per
    assert router_bytes(s, g) == want
    up, down = host_bytes(s, g)
    assert (up == 2 * per).all() and (down == 2 * per).all()  # one stream out and one in per ring direction
    assert s.messages == 2 * N


def test_multiring_bytes():
    g, _ = graph("slimfly3")
    N = g.n
    s = build_schedule(g, "multiring", 2 * N * 2 * 3 * 50, packet_bytes=64)
    k = s.meta["rings"]
    assert k == len(s.meta["cycles"]) == 2  # degree 5: at most 2 edge-disjoint Hamiltonian cycles, both found
    share = s.size // (2 * k)
    want = {e: 0 for e in router_bytes(s, g)}
    seen = set()
    for cyc in s.meta["cycles"]:
        c = assert_cycle(g, cyc)
        for a, b in zip(c, c[1:] + c[:1], strict=True):
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
            want[(a, b)] += 2 * (N - 1) * share // N
            want[(b, a)] += 2 * (N - 1) * share // N
    assert router_bytes(s, g) == want


def old_bytes(msgs, g):
    """Bytes per router link and direction of the message lists of starlib.netsim.simulate."""
    out = {}
    for path, packets, nbytes, last, _deps, _own in msgs:
        b = (packets - 1) * nbytes + last
        for a, c in zip(path[:-1], path[1:], strict=True):
            out[(a, c)] = out.get((a, c), 0) + b
    return {e: out.get(e, 0) for e in [(u, v) for u, v in g.edges.tolist()] + [(v, u) for u, v in g.edges.tolist()]}


@pytest.mark.parametrize("gname", ["K4", "polarfly3", "slimfly3"])
def test_ring_sp_one_direction_is_the_old_ring(gname):
    g, _ = graph(gname)
    size = g.n * 4000
    s = build_schedule(g, "ring-sp", size, directions=1, packet_bytes=1000)
    msgs, _ = ring_messages(g.n, g.edges, size, packet_bytes=1000)
    assert router_bytes(s, g) == old_bytes(msgs, g)
    assert s.messages == 4 * g.n  # N streams (not 2N(N-1) messages) and the hosts' streams


@pytest.mark.parametrize("gname", ["K4", "polarfly3", "slimfly3"])
def test_trees_bytes_are_tree_messages(gname):
    g, trees = graph(gname)
    size = 3001 * len(trees) - 1  # shares of 3001 and 3000 bytes: last packets of 953 and 952 (the old lists pad
    s = build_schedule(g, "trees", size, trees=trees, packet_bytes=1024)  # packets below 16 bytes)
    msgs, _ = tree_messages([t.parent_array() for t in trees], size, packet_bytes=1024)
    assert router_bytes(s, g) == old_bytes(msgs, g)
    assert s.meta["trees"] == len(trees)


def test_weighted_trees_share_links():
    g, _ = graph("polarfly3")
    parents = [bfs_parents(g.n, g.edges, r) for r in (0, 5, 9)]  # breadth-first trees: they share links
    w = [1.0, 2.0, 5.0]
    size = 8 * 1000
    s = build_schedule(g, "weighted-trees", size, trees=parents, weights=w, packet_bytes=256)
    shares = [1000, 2000, 5000]
    assert s.meta["shares"] == shares
    want = {e: 0 for e in router_bytes(s, g)}
    for par, sh in zip(parents, shares, strict=True):
        for v, p in enumerate(par.tolist()):
            if p >= 0:
                want[(v, p)] += sh  # reduce
                want[(p, v)] += sh  # broadcast
    assert router_bytes(s, g) == want
    assert replay_counts(s) == s.messages


def test_weighted_rounding_is_exact():
    g, _ = graph("K4")
    parents = [bfs_parents(g.n, g.edges, r) for r in range(3)]
    s = build_schedule(g, "weighted-trees", 10, trees=parents, weights=[1.0, 1.0, 1.0], packet_bytes=4)
    assert s.meta["shares"] == [4, 3, 3]  # 10/3 each, the one byte left to the first
    s = build_schedule(g, "weighted-trees", 100, trees=parents, weights=[0.1, 0.2, 0.7], packet_bytes=64)
    assert s.meta["shares"] == [10, 20, 70]


def test_bfs_is_trees_with_one_tree():
    g, _ = graph("slimfly3")
    a = build_schedule(g, "bfs", 7000, packet_bytes=500)
    b = build_schedule(g, "trees", 7000, trees=[bfs_parents(g.n, g.edges, 0)], packet_bytes=500)
    for f in ("path_nodes", "chunk_ids", "dep_msg", "dep_off", "own_lo", "own_hi", "final_msg", "chunk_bytes"):
        assert np.array_equal(getattr(a, f), getattr(b, f))


def nccl_btree(nranks, rank):
    """NCCL's ncclGetBtree (src/graph/trees.cc), transcribed: (parent, child0, child1)."""
    bit = 1
    while bit < nranks:
        if bit & rank:
            break
        bit <<= 1
    if rank == 0:
        return -1, -1, (bit >> 1 if nranks > 1 else -1)
    up = (rank ^ bit) | (bit << 1)
    if up >= nranks:
        up = rank ^ bit
    lowbit = bit >> 1
    down0 = -1 if lowbit == 0 else rank - lowbit
    down1 = -1 if lowbit == 0 else rank + lowbit
    while down1 >= nranks:
        down1 = -1 if lowbit == 0 else rank + lowbit
        lowbit >>= 1
    return up, down0, down1


def nccl_dtree(nranks, rank):
    """NCCL's ncclGetDtree, transcribed: ((parent, children) of tree 1, (parent, children) of tree 2)."""
    u, d0, d1 = nccl_btree(nranks, rank)
    if nranks % 2:
        u2, e0, e1 = nccl_btree(nranks, (rank - 1 + nranks) % nranks)
        f = lambda x: -1 if x == -1 else (x + 1) % nranks  # noqa: E731
    else:
        u2, e0, e1 = nccl_btree(nranks, nranks - 1 - rank)
        f = lambda x: -1 if x == -1 else nranks - 1 - x  # noqa: E731
    return (u, {d0, d1} - {-1}), (f(u2), {f(e0), f(e1)} - {-1})


@pytest.mark.parametrize("N", list(range(1, 40)) + [64, 100, 993])
def test_double_binary_tree_is_ncclgetdtree(N):
    t1, t2 = nccl_double_binary_tree(N)
    for par in (t1, t2):
        kids = [set() for _ in range(N)]
        for v, p in enumerate(par.tolist()):
            if p >= 0:
                kids[p].add(v)
        for r in range(N):
            want = nccl_dtree(N, r)[0 if par is t1 else 1]
            assert (int(par[r]), kids[r]) == want
        g = nx.Graph([(v, p) for v, p in enumerate(par.tolist()) if p >= 0])
        g.add_nodes_from(range(N))
        assert nx.is_tree(g)
    # ncclGetDtreeRoots: 0, and N - 1 (even N) or 1 (odd N > 1)
    assert np.flatnonzero(t1 < 0).tolist() == [0]
    assert np.flatnonzero(t2 < 0).tolist() == [(1 if N % 2 and N > 1 else N - 1)]
    inner1 = np.isin(np.arange(N), t1)
    inner2 = np.isin(np.arange(N), t2)
    if N % 2 == 0:
        assert not (inner1 & inner2).any()  # a leaf in one tree or the other
    else:
        assert (inner1 & inner2).sum() <= 1  # the shift leaves rank 0 interior in both at most


def test_dbtree_bytes_on_complete_graph():
    for n in (5, 8):
        g = as_graph(nx.complete_graph(n))
        size = 2 * 3000
        s = build_schedule(g, "dbtree", size, packet_bytes=1000)
        want = {e: 0 for e in router_bytes(s, g)}
        for r in range(n):
            for p, _ in nccl_dtree(n, r):
                if p >= 0:
                    want[(r, p)] += size // 2
                    want[(p, r)] += size // 2
        assert router_bytes(s, g) == want
        assert s.meta["trees"] == 2


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 8, 12])
def test_halving_doubling_bytes(n):
    g = as_graph(nx.complete_graph(n))  # every route one hop: link bytes are the algorithm's messages
    pof2 = 1 << (n.bit_length() - 1)
    rem = n - pof2
    size = pof2 * 96
    s = build_schedule(g, "halving-doubling", size, packet_bytes=32)
    real = [2 * i + 1 if i < rem else i + rem for i in range(pof2)]
    want = {e: 0 for e in router_bytes(s, g)}
    for a in range(pof2):
        mask = 1
        while mask < pof2:  # reduce-scatter and allgather: size / 2^(k+1) each way at distance 2^k
            want[(real[a], real[a ^ mask])] += 2 * size // (2 * mask)
            mask <<= 1
    for i in range(rem):
        want[(2 * i, 2 * i + 1)] += size
        want[(2 * i + 1, 2 * i)] += size
    assert router_bytes(s, g) == want
    # Thakur et al.: each of the pof2 ranks sends 2 (p-1)/p of the buffer
    sent = sum(b for (u, _), b in want.items() if u in real) - sum(size for _ in range(rem))
    assert sent == pof2 * 2 * (pof2 - 1) * size // pof2
    assert s.meta["power_of_two"] == pof2
    assert replay_counts(s) == s.messages


def test_halving_doubling_routes_on_shortest_paths():
    g, _ = graph("slimfly3")
    s = build_schedule(g, "halving-doubling", 16 * 64, mode="host", packet_bytes=64)
    dist = dict(nx.all_pairs_shortest_path_length(nx.Graph(g.edges.tolist())))
    for m in range(s.messages):
        p = s.path(m).tolist()
        a, b = p[1], p[-2]  # the routers of the two hosts
        assert len(p) - 3 == dist[a][b]


def test_host_mode_trees_rotate():
    g, trees = graph("polarfly3")
    P = 3
    k = len(trees)
    share = 999
    s = build_schedule(g, "trees", k * share, trees=trees, hosts_per_router=P, mode="host", packet_bytes=333)
    up, down = host_bytes(s, g)
    # on tree t, host t mod P of each router takes its place: its link carries up its share to the parent (unless
    # it is the root), down to each of its P - 1 siblings and to the hosts in the place of its child routers; a host
    # in no router's place sends its share up to its sibling in the place
    parents = [t.parent_array() for t in trees]
    for r in range(g.n):
        for h in range(P):
            want = 0
            for t, par in enumerate(parents):
                if t % P != h:
                    want += share
                else:
                    want += share * (int(par[r] >= 0) + (P - 1) + int((par == r).sum()))
            assert up[r * P + h] == want
    assert (up == down).all()
    # the router links carry each tree's share once each way, as the router-level schedule does
    base = build_schedule(g, "trees", k * share, trees=trees, packet_bytes=333)
    assert router_bytes(s, g) == router_bytes(base, g)


def test_deterministic():
    g, trees = graph("slimfly3")
    for name in SCHEDULES:
        for mode in MODES:
            a = build_schedule(g, name, 9000, mode=mode, hosts_per_router=2, packet_bytes=700,
                               **options(name, trees))
            b = build_schedule(g, name, 9000, mode=mode, hosts_per_router=2, packet_bytes=700,
                               **options(name, trees))
            for f in ("links", "path_ptr", "path_nodes", "chunk_ptr", "chunk_ids", "dep_ptr", "dep_msg", "dep_off",
                      "own_lo", "own_hi", "reduce", "final_msg", "final_lo", "final_hi", "chunk_bytes"):
                assert getattr(a, f).tobytes() == getattr(b, f).tobytes(), (name, mode, f)


def test_with_hosts():
    g = as_graph(nx.path_graph(3))
    net = with_hosts(g, 2, link_gbps=10.0, delay_us=2.0, host_gbps=40.0, host_delay_us=0.5)
    assert net.nodes == 9
    assert net.ranks.tolist() == list(range(3, 9))
    assert net.router.tolist() == [0, 1, 2, 0, 0, 1, 1, 2, 2]
    assert net.links.tolist() == [[0, 1], [1, 2], [0, 3], [0, 4], [1, 5], [1, 6], [2, 7], [2, 8]]
    assert net.rate_gbps.tolist() == [10.0, 10.0] + [40.0] * 6
    assert net.delay_us.tolist() == [2.0, 2.0] + [0.5] * 6
    assert net.hosts(1).tolist() == [5, 6]
    s = build_schedule(g, "bfs", 100, hosts_per_router=2, link_gbps=10.0, delay_us=2.0, host_gbps=40.0,
                       host_delay_us=0.5)
    assert np.array_equal(s.links, net.links) and np.array_equal(s.rate_gbps, net.rate_gbps)
    assert np.array_equal(s.delay_us, net.delay_us)


# ---------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("kw", "name"), [
    ({"name": "rings"}, "name"),
    ({"name": "trees"}, "trees"),
    ({"name": "weighted-trees"}, "trees"),
    ({"name": "ring", "trees": "T"}, "trees"),
    ({"name": "trees", "trees": "T", "weights": [1.0, 1.0]}, "weights"),
    ({"name": "weighted-trees", "trees": "T"}, "weights"),
    ({"name": "weighted-trees", "trees": "T", "weights": [1.0]}, "weights"),
    ({"name": "weighted-trees", "trees": "T", "weights": [1.0, 0.0]}, "weights"),
    ({"name": "dbtree", "directions": 2}, "directions"),
    ({"name": "ring", "directions": 3}, "directions"),
    ({"name": "ring", "hosts_per_router": -1}, "hosts_per_router"),  # 0: the routers are the ranks
    ({"name": "ring", "mode": "hosts"}, "mode"),
    ({"name": "ring", "size": 0}, "size"),
    ({"name": "ring", "size": 15}, "size"),  # 2 rings of 8 blocks need 16 bytes
    ({"name": "ring", "packet_bytes": 0}, "packet_bytes"),
    ({"name": "ring", "size": 17, "packet_bytes": 1}, "packet_bytes"),  # blocks of 2 and 1 bytes, equal counts
    ({"name": "trees", "trees": []}, "trees"),
    ({"name": "ring", "link_gbps": 0.0}, "link_gbps"),
    ({"name": "ring", "host_delay_us": -1.0}, "host_delay_us"),
    ({"name": "trees", "trees": [np.array([-1, 0, 0, 0, 0, 0, 0, 0])]}, "trees"),  # 0-2 is no link of C8
    ({"name": "trees", "trees": [np.array([-1, 0, 1, 2, 3, 4, 5, 6, 7])]}, "trees"),  # wrong length
    ({"name": "trees", "trees": [np.array([1, 0, 1, 2, 3, 4, 5, 6])]}, "trees"),  # no root
    ({"name": "trees", "trees": [np.array([-1, 2, 1, 2, 3, 4, 5, 6])]}, "trees"),  # 1 and 2 a cycle below nothing
])
def test_bad_input(kw, name):
    g = as_graph(nx.cycle_graph(8))
    two = [bfs_parents(8, g.edges, 0), bfs_parents(8, g.edges, 4)]
    kw = dict(kw)
    if isinstance(kw.get("trees"), str):
        kw["trees"] = two
    args = {"size": 4096, **kw}
    with pytest.raises(ValueError, match=name):
        build_schedule(g, args.pop("name"), args.pop("size"), **args)


def test_trees_as_one_array():
    g, trees = graph("slimfly3")
    a = build_schedule(g, "trees", 5000, trees=np.stack([t.parent_array() for t in trees]))
    b = build_schedule(g, "trees", 5000, trees=trees)
    assert np.array_equal(a.chunk_ids, b.chunk_ids) and np.array_equal(a.path_nodes, b.path_nodes)


def test_bad_graphs():
    with pytest.raises(ValueError, match="graph"):
        build_schedule(as_graph(nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))), "bfs", 4096)
    with pytest.raises(ValueError, match="graph"):
        build_schedule(as_graph(nx.empty_graph(1)), "bfs", 4096)


def test_too_large_is_refused_before_building():
    g, _ = graph("polarfly3")
    with limit_memory(2**20), pytest.raises(ValueError, match="size=.* is too large"):
        build_schedule(g, "ring", 2**30, packet_bytes=64)
