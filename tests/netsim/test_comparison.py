"""The grid of ``make schedules`` and its record ``data/schedules.csv``.

Checks: the record holds cases of the grid once each (and nothing else); no simulated time beats the proved lower
bound; the optimum and the bound of every row equal those recomputed from the graph; the two simulators agree
within 15 % from 1 MiB on where both ran and no link direction carries two message streams (and differ by more
only where one does); and a seeded sample of cheap rows is recomputed in this process, column for column, on both
simulators.
"""

from __future__ import annotations

import pandas as pd
import pytest

from starlib.netsim import comparison
from tests.paths import ROOT

RECORD = ROOT / "data" / "schedules.csv"


@pytest.fixture(scope="module")
def record() -> pd.DataFrame:
    if not RECORD.exists():
        pytest.skip("data/schedules.csv not written yet (make schedules)")
    return pd.read_csv(RECORD, keep_default_na=False)


def test_grid_declared_once():
    labels = [n.label for n in comparison.NETWORKS]
    assert len(set(labels)) == len(labels)
    assert any(comparison.network_graph(n.family, n.params).n >= 1000 for n in comparison.NETWORKS)
    keys = [tuple(p.key) for p in comparison.points()]
    assert len(set(keys)) == len(keys)


def test_the_fat_tree_has_no_hamiltonian_cycle():
    # bipartite (leaves and spines against the middle level) with parts of 128 and 64 switches: no cycle visits all
    import networkx as nx

    ft = next(n for n in comparison.NETWORKS if n.family == "fat-tree")
    g = comparison.network_graph(ft.family, ft.params).to_networkx()
    parts = nx.bipartite.sets(g)
    assert sorted(len(p) for p in parts) == [64, 128]
    assert not comparison.has_hamiltonian_cycle(ft.family, ft.params)


def test_record_holds_cases_of_the_grid_once(record):
    # the record is resumable: it holds cases of the grid, each once, and nothing else (notebook 16 prints how many
    # of the grid's cases it holds; make schedules computes the rest)
    keys = [tuple(str(r[c]) for c in comparison.KEY) for _, r in record.iterrows()]
    want = {tuple(p.key) for p in comparison.points()}
    assert len(set(keys)) == len(keys)
    assert set(keys) <= want, sorted(set(keys) - want)[:3]


def test_no_time_beats_the_bound(record):
    assert (record.time_us >= record.bound_us).all()


def test_optimum_and_bound_recomputed(record):
    from starlib.netsim.cases import reference

    for (fam, params, P), rows in record.groupby(["network", "params", "hosts_per_router"]):
        pv = comparison.parse_params(params)
        ref = reference(comparison.network_graph(fam, pv), int(P), comparison.LINK_GBPS, comparison.DELAY_US)
        for size, r in rows.groupby("size_bytes").first().iterrows():
            assert (r.optimum_us, r.bound_us) == (ref.optimum_us(size), ref.bound_us(size)), (fam, params, P, size)


def _streams_per_direction(row) -> int:
    """The most messages any link direction of a recorded case's schedule carries (built, not simulated)."""
    import numpy as np

    s = comparison.grid_schedule(row.network, comparison.parse_params(row.params), int(row.hosts_per_router),
                                 row.mode, row.schedule, int(row.size_bytes))
    return int(np.bincount(s.hop_directions()).max())


def test_simulators_agree_from_1MiB_where_no_link_is_shared(record):
    # from 1 MiB on the two simulators agree within 15 % wherever every link direction carries one message stream
    # (edge-disjoint trees, rings on Hamiltonian cycles): there packets queue behind nothing on ns-3, and SimGrid
    # shares nothing. Where they differ by more, the schedule routes several streams over one link direction, which
    # ns-3 serves first in, first out and SimGrid by max-min sharing (docs/collectives.md §8).
    big = record[record.size_bytes >= 1 << 20]
    index = [c for c in comparison.KEY if c != "simulator"]
    wide = big.pivot_table(index=index + ["packet_bytes"], columns="simulator", values="time_us").dropna()
    assert len(wide) > 0
    ratio = (wide["simgrid"] / wide["ns3"]).rename("ratio").reset_index()
    apart = ratio[(ratio.ratio - 1).abs() > 0.15]
    for r in apart.itertuples():
        assert _streams_per_direction(r) > 1, r
    alone = ratio[ratio.schedule.isin(["trees", "ring", "multiring", "bfs"]) & (ratio.hosts_per_router == 0)]
    assert len(alone) > 0 and ((alone.ratio - 1).abs() <= 0.15).all(), alone


def test_sampled_rows_reproduce(record):
    out = comparison.recheck(RECORD, 2, seed=1)
    assert len(out) == 2
    assert all(not bad for bad in out.values()), out
