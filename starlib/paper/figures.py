"""Save matplotlib figures byte-stably (PNG and PDF) under ``paper_tables/figures/``.

PNG files carry no ``Software`` key and PDF files no creation date, so the bytes depend only
on the figure and the locked matplotlib version.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import matplotlib.figure

__all__ = ["save_figure", "stable_rc"]

stable_rc = {"svg.hashsalt": "starlib", "pdf.compression": 6, "path.simplify": True}


def save_figure(fig: matplotlib.figure.Figure, name: str, out_dir: str | Path = "../paper_tables/figures",
                formats: tuple[str, ...] = ("png", "pdf"), dpi: int = 100) -> list[Path]:
    """Save ``fig`` as ``NAME.png`` and ``NAME.pdf`` with metadata that does not change between runs.

    Parameters
    ----------
    fig : the figure.
    name : file stem.
    out_dir : directory (created if missing).
    formats : any of ``png``, ``pdf``, ``svg``.
    dpi : raster resolution.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meta = {"png": {"Software": None}, "pdf": {"CreationDate": None, "ModDate": None, "Producer": None,
                                                "Creator": None},
            "svg": {"Date": None, "Creator": None}}
    paths = []
    with matplotlib.rc_context(stable_rc):
        for fmt in formats:
            if fmt not in meta:
                raise ValueError(f"formats: {fmt!r} is not one of png, pdf, svg")
            p = out / f"{name}.{fmt}"
            fig.savefig(p, format=fmt, dpi=dpi, metadata=meta[fmt])
            paths.append(p)
    return paths
