"""Depth certificates for the Table IV networks: the least depth of ``k`` EDSTs, proved or bracketed by CP-SAT.

For one row of ``paper_tables/maximum_shallow.csv`` (a network and its parameters), :func:`certify_row` builds the
network, takes ``k`` = the count of :func:`~starlib.edst.depth.shallow.shallow_trees` (the most trees starlib
knows) and that family as the start, and the counting bound ``b`` =
:func:`~starlib.edst.depth.bound.depth_lower_bound`. When the start is deeper than ``b`` it asks CP-SAT
(:func:`~starlib.edst.depth.exact.depth_feasible`, the model :data:`~starlib.edst.depth.exact.MODEL`, one worker,
a fixed seed and a **deterministic** time limit per depth, so the statuses are the same on every run) first at
``D = b`` (a family there is optimal; a refutation raises the proved bound to ``b + 1``), then, if ``b`` was
refuted, at ``D = start depth - 1, start depth - 2, ...`` down to the proved bound (each family found is
shallower than the start). A family below the start is written with the project's JSON writer
(:func:`starlib.io.json_format.write_json`, atomic) as ``<network>_<params>.json`` and its SHA-256 goes into the
row, so a test can re-read it, re-verify it and compare the digest; a refuted depth can be re-checked by solving
the same model with the same ``time_limit`` and ``seed``.

Example
-------
>>> row = certify_row("polarfly", "q=3", time_limit=5.0)
>>> {c: row[c] for c in ("network", "n", "k", "per_tree_bound", "proved_lower", "best_depth", "status")}
{'network': 'polarfly', 'n': 13, 'k': 2, 'per_tree_bound': 3, 'proved_lower': 3, 'best_depth': 3, 'status': 'optimal'}
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from ..edst.depth import exact
from ..edst.depth.bound import depth_lower_bound
from ..edst.depth.shallow import shallow_trees
from ..edst.trees import EDSTSet
from ..io.json_format import write_json
from .catalog import build, parse_params_text

__all__ = ["COLUMNS", "KEY", "LONG_TIME_LIMITS", "certify_row", "family_filename", "row_time_limit"]

#: The columns of ``data/depth_certificates.csv``, in order.
COLUMNS = ("network", "parameters", "n", "links", "k", "start_depth", "per_tree_bound", "proved_lower",
           "best_depth", "status", "refuted", "unknown", "model", "time_limit", "seed", "family_file",
           "family_sha256")

#: The columns that name a row.
KEY = ("network", "parameters")


#: Rows that ten deterministic seconds leave open and a longer limit settles: ``(network, parameters)`` -> CP-SAT's
#: deterministic time limit per depth for that row (``make depth-certificates``). Depth 3 is UNKNOWN after 10 and
#: refuted with 300 on Slim Fly MMS(4) (about 2 minutes of the clock) and Bundlefly MMS(3) * QR(5) (about 40 s).
#: Every other row gets ``--time-limit``.
LONG_TIME_LIMITS: dict[tuple[str, str], float] = {("bundlefly", "q=3 paley_q=5"): 300.0, ("slimfly", "q=4"): 300.0}


def row_time_limit(network: str, parameters: str, default: float) -> float:
    """The deterministic time limit per depth of one row: :data:`LONG_TIME_LIMITS` where listed, else ``default``.

    >>> row_time_limit("polarfly", "q=3", 10.0)
    10.0
    """
    return LONG_TIME_LIMITS.get((network, parameters), default)


def family_filename(network: str, parameters: str) -> str:
    """The file name of a row's family: ``"polarfly", "q=3"`` -> ``"polarfly_q=3.json"`` (spaces as ``_``).

    >>> family_filename("polarstar-paley", "q=3 paley_q=5")
    'polarstar-paley_q=3_paley_q=5.json'
    """
    return f"{network}_{'_'.join(parameters.split())}.json"


def _params(parameters: str | dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if isinstance(parameters, dict):
        params = dict(parameters)
    else:
        params = {k: int(v) if v.lstrip("-").isdigit() else v for k, v in parse_params_text(parameters).items()}
    return " ".join(f"{k}={v}" for k, v in params.items()), params


def certify_row(family: str, params: str | dict[str, Any], *, time_limit: float, seed: int = 0,
                out_dir: str | os.PathLike | None = None) -> dict[str, Any]:
    """Bracket (or settle) the least depth of ``k`` EDSTs of one Table IV network with CP-SAT.

    Parameters
    ----------
    family : str
        A family of :data:`starlib.registry.NETWORK_FAMILIES` (``"polarfly"``, ``"slimfly"``, ...).
    params : str or dict
        Its parameters, as the table writes them (``"q=3 paley_q=5"``) or as a dict.
    time_limit : float
        CP-SAT's deterministic time limit for **each** depth solved (> 0).
    seed : int, optional
        CP-SAT's seed (and the seed of :func:`~starlib.edst.depth.shallow.shallow_trees`); one worker.
    out_dir : path-like, optional
        Where to write the family when CP-SAT finds one below the start (``family_filename``); None writes
        nothing (the digest is still computed from the bytes that would be written).

    Returns
    -------
    dict
        One row with the keys :data:`COLUMNS`: ``k``, ``start_depth`` (the start's maximum depth),
        ``per_tree_bound`` (``b``), ``proved_lower`` (the largest ``D`` with ``D - 1`` refuted, at least ``b``),
        ``best_depth`` (the least depth of a verified family known), ``status`` (``"optimal"`` when they meet,
        else ``"open"``), ``refuted`` and ``unknown`` (the depths CP-SAT proved infeasible / left open,
        space-separated), ``model`` (``MODEL[0]``), ``family_file`` and ``family_sha256`` (empty when the start
        stayed the best).

    Raises
    ------
    ValueError
        If ``time_limit <= 0``, or ``n * k > MAX_VERTEX_TREES`` (the solver's size limit).

    Example
    -------
    >>> r = certify_row("slimfly", "q=3", time_limit=1.0)
    >>> r["k"], r["start_depth"], r["proved_lower"], r["status"], r["refuted"]
    (2, 3, 3, 'optimal', '')
    """
    if not time_limit > 0:
        raise ValueError(f"time_limit={time_limit!r} is not allowed: need a deterministic time limit > 0")
    text, p = _params(params)
    g = build(family, p)
    n = int(g.n)
    start = shallow_trees(g, seed=seed)
    k = len(start)
    if n * k > exact.MAX_VERTEX_TREES:
        raise ValueError(f"params={text!r}: n * k = {n} * {k} = {n * k} is above the solver's size limit: need "
                         f"n * k <= {exact.MAX_VERTEX_TREES} (MAX_VERTEX_TREES)")
    b = int(depth_lower_bound(g, k).value)
    start_depth = int(max(start.depths()))
    best: EDSTSet = start
    best_depth, lower = start_depth, b
    refuted: list[int] = []
    unknown: list[int] = []
    prep: dict[str, Any] = {}

    def solve(D: int) -> exact.DepthSolve:
        return exact.depth_feasible(g, k, D, time_limit=time_limit, hint=start, seed=seed, workers=1,
                                    wall_limit=8 * time_limit, _prepared=prep)

    if best_depth > b:
        s = solve(b)
        if s.found:
            assert s.trees is not None
            best, best_depth = s.trees, int(max(s.trees.depths()))
        elif s.infeasible:
            refuted.append(b)
            lower = b + 1
        else:
            unknown.append(b)
        D = best_depth - 1
        while D >= lower and D > b:
            s = solve(D)
            if s.found:
                assert s.trees is not None
                best, best_depth = s.trees, int(max(s.trees.depths()))
                D = best_depth - 1
            elif s.infeasible:
                refuted.append(D)
                lower = D + 1
                break
            else:
                unknown.append(D)
                break
    fname = sha = ""
    if best is not start:
        fname = family_filename(family, text)
        if out_dir is not None:
            path = write_json(Path(out_dir) / fname, g, list(best), network=family, params=p)
            data = path.read_bytes()
        else:
            from ..io.json_format import encode

            data = encode(g, list(best), network=family, params=p)
        sha = hashlib.sha256(data).hexdigest()
    return {"network": family, "parameters": text, "n": n, "links": int(g.m), "k": k, "start_depth": start_depth,
            "per_tree_bound": b, "proved_lower": lower, "best_depth": best_depth,
            "status": "optimal" if best_depth == lower else "open",
            "refuted": " ".join(map(str, sorted(refuted))), "unknown": " ".join(map(str, sorted(unknown))),
            "model": exact.MODEL[0], "time_limit": time_limit, "seed": seed, "family_file": fname,
            "family_sha256": sha}
