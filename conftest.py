"""pytest configuration shared by the unit tests and nbval.

nbval compares every notebook cell's stored output with a fresh run. Standard error (progress
bars, library warnings) is not part of a notebook's argument, so it is left out of the comparison,
as are rich HTML reprs (their DataFrame styling varies between pandas builds).
"""

from __future__ import annotations

import os

os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_collectstart(collector):
    if getattr(collector, "fspath", None) is not None and collector.fspath.ext == ".ipynb":
        collector.skip_compare += ("stderr", "text/html", "application/javascript")
