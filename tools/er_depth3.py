"""Write the committed depth-3 maximum families of ER_q (``make er-depth3``): the CP-SAT search of
:mod:`starlib.edst.depth.er3`, one record per ``q`` in starlib's JSON format (version 2, atomic), as the package
data that :func:`starlib.edst.depth.er3.er_depth3_trees` reads.

Usage: ``python tools/er_depth3.py [--dir DIR] [q ...]`` (default: every ``q`` of ``ER_DEPTH3_QS`` into the
package's ``er_depth3`` folder).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from starlib.edst.depth.er3 import (
    DATA_DIR,
    ER_DEPTH3_PARAMS,
    ER_DEPTH3_QS,
    er_depth3_search,
    er_depth3_trees,
    record_path,
)
from starlib.factors import polarfly
from starlib.io import write_json
from starlib.primes import check_prime_power


def write_er_depth3(q: int, directory: str | Path | None = None, **search: object) -> Path | None:
    """Run :func:`er_depth3_search` and write the family as starlib JSON ``q{q}.json`` (atomic).

    Parameters
    ----------
    q : int
        A prime power.
    directory : str or Path, optional
        Where to write; default :data:`DATA_DIR` (``starlib/edst/depth/er_depth3``, package data).
    **search
        Keyword arguments of :func:`er_depth3_search`.

    Returns
    -------
    Path or None
        The file written, or None (nothing written) when the search found no family.

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_er_depth3(3, d).name
    'q3.json'
    """
    q = check_prime_power(q)
    trees = er_depth3_search(q, **search)  # type: ignore[arg-type]
    if trees is None:
        return None
    return write_json(record_path(q, directory), polarfly(q), trees, network="polarfly", params={"q": q},
                      extra={"method": "er_depth3_search", "search": {k: v for k, v in sorted(search.items())}})


def write_all(qs: tuple[int, ...] = ER_DEPTH3_QS, directory: str | Path | None = None) -> list[tuple[int, int, float]]:
    """Write the record of every ``q`` in ``qs`` (``make er-depth3``); print and return (q, depth, seconds).

    The depth is ``-1`` when the search found nothing (no file written). The seconds are measured and vary;
    they are not in the records.

    Example
    -------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     [row[:2] for row in write_all((2, 3), d)]  # doctest: +ELLIPSIS
    q=2 ...
    [(2, 2), (3, 3)]
    """
    import time

    rows = []
    for q in qs:
        t0 = time.perf_counter()
        path = write_er_depth3(q, directory, **ER_DEPTH3_PARAMS.get(q, {}))
        sec = time.perf_counter() - t0
        depth = -1 if path is None else max(er_depth3_trees(q, directory=directory).depths())  # type: ignore[union-attr]
        roots = [] if path is None else [t.root for t in er_depth3_trees(q, directory=directory)]  # type: ignore[union-attr]
        print(f"q={q} depth={depth} seconds={sec:.1f} roots={roots}", flush=True)
        rows.append((q, depth, sec))
    return rows


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and write the records."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("q", nargs="*", type=int, help="prime powers (default: ER_DEPTH3_QS)")
    ap.add_argument("--dir", default=str(DATA_DIR), help="output folder (default: the package data folder)")
    a = ap.parse_args(argv)
    write_all(tuple(a.q) or ER_DEPTH3_QS, a.dir)


if __name__ == "__main__":
    main()
