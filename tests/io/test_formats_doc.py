"""The examples of docs/formats.md §6.9 to §6.12 are what starlib writes: each is regenerated and compared (lines
the text shortens with "..." are left out)."""

from __future__ import annotations

import numpy as np

from starlib.edst.trees import Tree
from starlib.graphs import ArrayGraph
from starlib.io import graphml, msccl_allreduce, ns3_map, ns3_topology, routes
from tests.paths import ROOT

DOC = (ROOT / "docs" / "formats.md").read_text()


def _block(heading: str) -> list[str]:
    """The indented lines of the first example block after ``heading``, unindented."""
    text = DOC[DOC.index(heading):]
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    ") and line.strip())
    block = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    while block and not block[-1]:
        block.pop()
    return block


def _shown(block: list[str], written: str) -> None:
    """Every line of the block that "..." does not shorten is a line written, in the written order (a
    subsequence; indentation aside)."""
    out = iter(line.strip() for line in written.splitlines())
    kept = [line.strip() for line in block if "..." not in line]
    missing = [line for line in kept if not any(line == o for o in out)]
    assert not missing, missing


def test_routes_example():
    g = ArrayGraph.from_edges("abcde", np.array([[0, 1], [1, 2], [1, 3], [0, 2], [3, 4], [2, 4]]), name="kite")
    text = routes(g, [Tree(np.array([[0, 1], [1, 2], [1, 3], [3, 4]]), 0)]).decode()
    assert _block("### 6.9 `routes`") == text.splitlines()


def test_msccl_example():
    p3 = ArrayGraph.from_edges(range(3), np.array([[0, 1], [1, 2]]))
    text = msccl_allreduce(p3, [Tree(np.array([[0, 1], [1, 2]]), 1)], chunks=1, name="P3").decode()
    _shown(_block("**The schedule.**"), text)


def test_ns3_example():
    tri = ArrayGraph.from_edges(range(3), np.array([[0, 1], [1, 2], [0, 2]]))
    block = _block("### 6.11 `astra-ns3`")
    assert block[0] == "node_num switch_num link_num"  # the grammar first, then the example
    text = ns3_topology(tri, hosts_per_router=2, bandwidth_gbps=200, latency_ns=700).decode()
    example = DOC[DOC.index("The triangle with `hosts_per_router=2"):]
    assert _block_from(example) == text.splitlines()


def test_ns3_map_example():
    ring = ArrayGraph.from_edges(["s0", "s1"], np.array([[0, 1]]))
    example = DOC[DOC.index("Ring `s0 - s1` with one host each"):]
    assert _block_from(example) == ns3_map(ring).decode().splitlines()


def _block_from(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    ") and line.strip())
    out = []
    for line in lines[start:]:
        if line and not line.startswith("    "):
            break
        out.append(line[4:])
    while out and not out[-1]:
        out.pop()
    return out


def test_merlin_example():
    from starlib.networks import slimfly

    text = graphml(slimfly(5), endpoints=4).decode()
    _shown(_block("### 6.12 GraphML for SST merlin"), text)
