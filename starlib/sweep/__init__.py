"""Sweeps past one machine: parameter points as Dask tasks, results in a resumable record.

A *sweep* is a list of parameter points, each computed by one task on a ``dask.distributed`` cluster (a
:class:`~distributed.LocalCluster` on this machine by default, or any scheduler by address). Each finished point
becomes one row of a CSV *record*, rewritten atomically as soon as the row arrives (under the record's lock, after
reading it again, so several runs may share it); a rerun reads the record and skips the points it holds, so an
interrupted sweep resumes without losing or duplicating a row. Every row read is validated
(:func:`~starlib.sweep.er.check_er_row`) and keyed canonically. A worker that
dies mid-task loses nothing: the scheduler runs its tasks again elsewhere.

Modules: :mod:`~starlib.sweep.er` (the ER_q points: both EDST families built and verified tree by tree),
:mod:`~starlib.sweep.record` (the record file), :mod:`~starlib.sweep.engine` (the Dask loop),
:mod:`~starlib.sweep.memory` (peak memory of a task).

This floor sits above :mod:`starlib.io` (it writes files atomically) and below the command line
(``starlib sweep``).
"""

from .engine import Point, check_scheduler, run_sweep
from .er import ER_COLUMNS, ER_FAMILIES, check_er_row, er_point, er_points
from .memory import PeakMemory
from .record import CellError, merge_record, read_record, write_record

__all__ = ["Point", "run_sweep", "check_scheduler", "ER_COLUMNS", "ER_FAMILIES", "er_point", "er_points",
           "check_er_row", "PeakMemory", "read_record", "write_record", "merge_record", "CellError"]
