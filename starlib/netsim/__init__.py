"""Allreduce schedules on two network simulators: ns-3 (packet level, the reference) and SimGrid (flow level).

=========================================  =====================================================================
module                                     contents
=========================================  =====================================================================
:mod:`~starlib.netsim.ns3`                 any :class:`~starlib.allreduce.schedule.Schedule` run packet by packet on
                                           ns-3 point-to-point links (per-link rate and delay), sums checked
:mod:`~starlib.netsim.engine`              the C++ engine it runs (compiled by cppyy)
:mod:`~starlib.netsim.simgrid`             the same schedules on SimGrid's flow-level model (CM02, max-min
                                           sharing), sums checked; SimGrid 3.32 from Debian (``libsimgrid-dev``)
:mod:`~starlib.netsim.simgrid_engine`      its C++ engine and worker script (cppyy, in a process of its own)
:mod:`~starlib.netsim.simulate`            messages of a tree or ring allreduce (notebook 15), run there
:mod:`~starlib.netsim.grid`                the grid of ``make simulate`` (networks, algorithms, sizes) and its
                                           record ``data/simulate.csv`` with notebook 08's model alongside
:mod:`~starlib.netsim.cases`               one simulated case with ForestColl's optimum and the proved bound beside
                                           it (what ``starlib simulate`` prints); the two simulators declared once
:mod:`~starlib.netsim.comparison`          the grid of ``make schedules`` and its record ``data/schedules.csv``
:mod:`~starlib.netsim.study`               what notebook 16 reads off that record
:mod:`~starlib.netsim.figures`             the figures of notebooks 15 and 16
=========================================  =====================================================================

A side domain on top: it imports the core, the EDST methods, :mod:`starlib.allreduce`, :mod:`starlib.io` (its
records), the sweep engine (the grid's Dask tasks), the user API and the paper's figure style; only the command line
imports it. ns-3 and SimGrid are imported on first use only (tens of seconds).
"""

from __future__ import annotations

from .ns3 import SimResult, simulate_schedule, simulator_version
from .simulate import (
    MIN_PACKET,
    bfs_parents,
    messages_schedule,
    ring_messages,
    simulate_messages,
    simulate_ring,
    simulate_trees,
    tree_messages,
)

__all__ = ["MIN_PACKET", "SimResult", "bfs_parents", "messages_schedule", "ring_messages", "simulate_messages",
           "simulate_ring", "simulate_schedule", "simulate_trees", "simulator_version", "tree_messages"]
