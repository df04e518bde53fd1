"""What the super Cayley families advertise for EDSTs (the ``k`` the exact packing reaches within an hour).

The advertisement skips the directed members, which have no EDSTs: whether a member is directed is read from its
generators (closed under inverses or not), and checked here against the graph the builder actually makes.
"""

from __future__ import annotations

import pytest

from starlib.cayley.families import FAMILIES, _reach, _splits, _undirected, build_family, family_info, largest_k


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_directed_members_are_those_the_builder_makes_directed(name):
    info = family_info(name)
    seen = 0
    for k in range(3, 7):
        for p in _splits(info, k):
            assert _undirected(info, p) == (not build_family(name, **p).directed), (name, p)
            seen += 1
    assert seen > 0


def test_reach_names_the_k_and_the_undirected_members():
    # every star graph that fits in memory (k <= 10 on 24 GB) packs within the hour (S_10: 63 s measured)
    assert _reach(family_info("star")).endswith(f"EDSTs within an hour for k <= {largest_k('star')})")
    # RR(l, 1) uses the rotation R alone, an involution only for l = 2 (k = 3): no undirected member beyond it
    rr = _reach(family_info("rotation-rotator"))
    assert rr.endswith("EDSTs of the undirected members within an hour for k <= 3)")
    assert "undirected members" in _reach(family_info("macro-rotator"))
    assert "undirected members" not in _reach(family_info("macro-star"))
