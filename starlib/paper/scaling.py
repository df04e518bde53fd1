"""Scaling measurements: the edge-list floor of a star product and power-law fits of cost against size.

Two small tools behind ``benchmarks/bench_scaling.py`` and notebook 11:

* :func:`star_edge_list` writes every link of a star product ``G * H`` exactly once into one preallocated
  ``(m, 2)`` array, with no sorting, labels or validation. Its time is the *floor* any builder or EDST
  construction on the product is compared with: nothing that outputs ``m`` links can be much faster.
* :func:`fit_exponent` fits ``y = c x^k`` by least squares on ``(log x, log y)`` and returns ``k``, ``c``
  and the coefficient of determination; :func:`fit_exponents` does it per group of a measurement table
  (one exponent per family and phase).

Example
-------
>>> import numpy as np
>>> fit = fit_exponent([10, 100, 1000], [3, 300, 30000])      # y = 0.03 x^2
>>> round(fit.exponent, 12), round(fit.prefactor, 12), round(fit.r2, 12)
(2.0, 0.03, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from ..graphs import ArrayGraph

__all__ = ["PowerLawFit", "fit_exponent", "fit_exponents", "star_edge_list"]


class PowerLawFit(NamedTuple):
    """Least-squares fit of ``y = prefactor * x ** exponent`` on log-log axes.

    Attributes
    ----------
    exponent : slope of ``log y`` against ``log x``.
    prefactor : ``exp`` of the intercept.
    r2 : coefficient of determination of the log-log fit (1 for an exact power law).
    points : number of ``(x, y)`` pairs used.
    """

    exponent: float
    prefactor: float
    r2: float
    points: int


def _positive_vector(values: Any, name: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={values!r} is not a sequence of numbers") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} has shape {arr.shape}: need a one-dimensional sequence of numbers")
    bad = ~np.isfinite(arr) | (arr <= 0)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name}[{i}]={float(arr[i])!r} is not a finite positive number: "
                         f"a log-log fit needs {name} > 0")
    return arr


def fit_exponent(x: Sequence[float] | np.ndarray, y: Sequence[float] | np.ndarray) -> PowerLawFit:
    """Fit ``y = c x^k`` by ordinary least squares of ``log y`` on ``log x``.

    The exponent ``k`` is the empirical order of growth: ``k = 1`` means cost proportional to size
    (for example time linear in the number of links), ``k = 2`` quadratic.

    Parameters
    ----------
    x : sequence of float
        Sizes (for example links), all finite and ``> 0``, at least two distinct values.
    y : sequence of float
        Costs (seconds, bytes), all finite and ``> 0``, same length as ``x``.

    Returns
    -------
    PowerLawFit
        ``exponent`` k, ``prefactor`` c, ``r2`` of the log-log fit, and the number of ``points``.

    Raises
    ------
    ValueError
        If ``x`` or ``y`` has a non-positive or non-finite entry, the lengths differ, fewer than two
        points are given, or all ``x`` are equal (the slope is undefined).

    Examples
    --------
    >>> fit = fit_exponent([1, 2, 4, 8], [5, 10, 20, 40])       # y = 5 x
    >>> round(fit.exponent, 12), round(fit.prefactor, 12), fit.points
    (1.0, 5.0, 4)

    References
    ----------
    Standard log-log regression for empirical complexity (e.g. Goldsmith, Aiken, Wilkerson, "Measuring
    empirical computational complexity", ESEC/FSE 2007, doi:10.1145/1287624.1287681).
    """
    lx = np.log(_positive_vector(x, "x"))  # cpu-stable: fit, rounded
    ly = np.log(_positive_vector(y, "y"))  # cpu-stable: fit, rounded
    if lx.size != ly.size:
        raise ValueError(f"x has {lx.size} values and y has {ly.size}: they must have the same length")
    if lx.size < 2:
        raise ValueError(f"x has {lx.size} value(s): a fit needs at least 2 points")
    dx = lx - lx.mean()
    sxx = float(dx @ dx)
    if sxx == 0.0:
        xs = np.exp(lx).tolist()  # cpu-stable: an error message
        raise ValueError(f"x={xs} has a single distinct value: the exponent is undefined")
    dy = ly - ly.mean()
    k = float(dx @ dy) / sxx
    b = float(ly.mean() - k * lx.mean())
    resid = dy - k * dx
    syy = float(dy @ dy)
    r2 = 1.0 - float(resid @ resid) / syy if syy > 0 else 1.0
    return PowerLawFit(k, float(np.exp(b)), r2, int(lx.size))  # cpu-stable: rounded


def fit_exponents(frame: pd.DataFrame, x: str, ys: Sequence[str], by: Sequence[str] = (),
                  min_x: float = 0.0) -> pd.DataFrame:
    """One :func:`fit_exponent` per group of ``frame`` and per cost column.

    Parameters
    ----------
    frame : DataFrame
        One row per measured instance.
    x : str
        Column of sizes (for example ``"links"``).
    ys : sequence of str
        Cost columns to fit against ``x`` (for example ``["seconds_edsts", "seconds_verify"]``).
    by : sequence of str
        Grouping columns (for example ``["family"]``); empty for one fit over all rows.
    min_x : float
        Only rows with ``x >= min_x`` enter the fit (small instances measure fixed overheads, not growth).

    Returns
    -------
    DataFrame
        Columns ``*by, "cost", "exponent", "prefactor", "r2", "points", "min_x", "max_x"``, rows in the
        order of the sorted groups and of ``ys``.

    Raises
    ------
    ValueError
        If a column is missing, or a group has fewer than two rows with ``x >= min_x`` (see
        :func:`fit_exponent` for invalid values).

    Examples
    --------
    >>> df = pd.DataFrame({"f": ["a"] * 3 + ["b"] * 3, "m": [1, 10, 100] * 2, "s": [2, 20, 200, 1, 100, 10000]})
    >>> fit_exponents(df, "m", ["s"], by=["f"])[["f", "cost", "exponent"]].round(12).to_string(index=False)
    'f cost  exponent\\na    s       1.0\\nb    s       2.0'
    """
    by = list(by)
    for col in [x, *ys, *by]:
        if col not in frame.columns:
            raise ValueError(f"column {col!r} is not in the frame (columns: {list(frame.columns)})")
    sub = frame[frame[x] >= min_x]
    groups = sub.groupby(by, sort=True) if by else [((), sub)]
    rows = []
    for key, grp in groups:
        key = key if isinstance(key, tuple) else (key,)
        for y in ys:
            if len(grp) < 2:
                raise ValueError(f"group {dict(zip(by, key, strict=True))} has {len(grp)} row(s) with "
                                 f"{x} >= min_x={min_x}: a fit needs at least 2")
            fit = fit_exponent(grp[x].to_numpy(), grp[y].to_numpy())
            rows.append({**dict(zip(by, key, strict=True)), "cost": y, "exponent": fit.exponent,
                         "prefactor": fit.prefactor, "r2": fit.r2, "points": fit.points,
                         "min_x": grp[x].min(), "max_x": grp[x].max()})
    return pd.DataFrame(rows, columns=[*by, "cost", "exponent", "prefactor", "r2", "points", "min_x", "max_x"])


def star_edge_list(G: ArrayGraph, H: ArrayGraph, bijections: np.ndarray) -> np.ndarray:
    """Every link of the star product ``G * H`` written once: the edge-list floor of a builder.

    Row block 1 holds the ``G.n`` copies of ``H`` (``(g, h) ~ (g, h')``), block 2 the ``G.m H.n`` links
    ``(g, h) ~ (g', f_(g,g')(h))`` of the arcs ``g < g'``. Vertex ``(g, h)`` is index ``g * H.n + h`` as
    in :func:`~starlib.products.star_product`. Rows satisfy ``u < v`` but are *not* sorted, and the
    bijections are not re-checked: this is the least work that outputs the product's ``m`` links, the
    baseline against which construction times are reported.

    Parameters
    ----------
    G : ArrayGraph
        Structure graph (edges ``u < v``).
    H : ArrayGraph
        Supernode.
    bijections : ndarray
        One permutation of ``0..H.n-1`` (used on every arc) or a ``(G.m, H.n)`` array, row ``k`` the
        bijection of arc ``G.edges[k]``, as :attr:`~starlib.products.StarProduct.bijections`.

    Returns
    -------
    ndarray
        ``(G.n H.m + G.m H.n, 2)`` int64, each link of ``G * H`` once.

    Raises
    ------
    ValueError
        If a factor is not an :class:`~starlib.graphs.ArrayGraph` or ``bijections`` has the wrong shape.

    Examples
    --------
    >>> from starlib.networks import slimfly
    >>> from starlib.graphs import canonical_edges
    >>> P = slimfly(5)
    >>> E = star_edge_list(P.structure, P.supernode, P.bijections)
    >>> len(E) == P.m, bool((canonical_edges(E, P.n) == P.edges).all())
    (True, True)

    References
    ----------
    Definition II-B.2 (the star product) and Property II-B.3 of Isham et al. (2025) (``m = m_G n_H + n_G m_H``).
    """
    for role, X in (("G", G), ("H", H)):
        if not isinstance(X, ArrayGraph):
            raise ValueError(f"{role}: expected an ArrayGraph, got {type(X).__name__}")
    nG, nH = G.n, H.n
    B = np.asarray(bijections)
    if B.ndim == 1:
        B = B[None, :]
    if B.ndim != 2 or B.shape[1] != nH or B.shape[0] not in (1, G.m):
        raise ValueError(f"bijections has shape {np.shape(bijections)}: need ({nH},) or (G.m, H.n)=({G.m}, {nH})")
    mi, mc = nG * H.m, G.m * nH
    out = np.empty((mi + mc, 2), dtype=np.int64)
    hn = np.int64(nH)
    out[:mi].reshape(nG, H.m, 2)[...] = (np.arange(nG, dtype=np.int64) * hn)[:, None, None] + H.edges[None, :, :]
    cross = out[mi:].reshape(G.m, nH, 2)
    np.add((G.edges[:, 0] * hn)[:, None], np.arange(nH, dtype=np.int64)[None, :], out=cross[:, :, 0])
    np.add((G.edges[:, 1] * hn)[:, None], B, out=cross[:, :, 1])
    return out
