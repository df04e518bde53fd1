"""Where a notebook's files go: relative paths are resolved against the notebooks' folder, whoever runs it.

The notebooks' ``parameters`` cells say ``out_dir = "../paper_tables"``: a path relative to ``notebooks/``.
papermill resolves relative paths against the current directory, so ``papermill notebooks/06-depth.ipynb ...``
run from the repository root would write outside the clone. Every notebook therefore passes its paths through
:func:`notebook_path` first.

Example
-------
>>> notebook_path("../paper_tables") == repository_root() / "paper_tables"
True
>>> notebook_path("/tmp/x").as_posix()
'/tmp/x'
"""

from __future__ import annotations

import functools
from pathlib import Path

__all__ = ["repository_root", "notebook_path"]


@functools.cache
def repository_root() -> Path:
    """The clone this package lives in (the folder holding ``notebooks/`` and ``paper_tables/``).

    Found from the package's own location (an editable install, as ``make venv`` makes), else from the current
    directory and its parents.

    Raises
    ------
    FileNotFoundError
        If neither leads to a folder with ``notebooks/`` and ``paper_tables/``.
    """
    here = Path(__file__).resolve()
    for start in (here.parents[2], Path.cwd().resolve()):
        for folder in (start, *start.parents):
            if (folder / "notebooks").is_dir() and (folder / "paper_tables").is_dir():
                return folder
    raise FileNotFoundError("no folder with notebooks/ and paper_tables/ above the package or the current directory")


def notebook_path(path: str | Path) -> Path:
    """``path`` as the notebooks mean it: absolute paths as given, relative ones from ``notebooks/``.

    Parameters
    ----------
    path : str or Path
        A parameter such as ``out_dir = "../paper_tables"`` or ``results_csv = "../benchmarks/results/x.csv"``.

    Returns
    -------
    Path
        An absolute path.
    """
    p = Path(path).expanduser()
    return p if p.is_absolute() else (repository_root() / "notebooks" / p).resolve()
