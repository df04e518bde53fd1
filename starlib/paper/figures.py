"""What a notebook shows: figures saved byte-stably and embedded, tables rendered, one look for every chart.

* :func:`show_figure` saves a figure as ``NAME.png`` and ``NAME.pdf`` (through :func:`save_figure`) and
  displays the PNG just written as the output of the cell that made it, so that the notebook holds the picture
  of its own run, in the same bytes as the file (``make test`` requires both to be identical on every rerun).
* :func:`show_table` displays a frame as a rendered table (HTML, with a plain-text twin), its cells formatted
  as the table writers format them (:func:`starlib.paper.tables.format_cell`).
* :data:`PALETTE` (Okabe and Ito's colour-blind-safe colours), :data:`MARKERS`, :data:`METHOD_STYLES` (one
  colour and marker per EDST construction, the same in every figure) and :func:`paper_style` (legible font
  sizes) give every chart the same look; :func:`network_title` names a network as the paper does and
  :func:`plain_log_ticks` writes log-axis ticks as plain numbers ("0.2", "5", not "2x10^-1").

PNG files carry no ``Software`` key and PDF files no creation date, so the bytes depend only on the figure
and the locked matplotlib version.

Example
-------
>>> import tempfile, matplotlib; matplotlib.use("Agg")
>>> import matplotlib.pyplot as plt
>>> fig, ax = plt.subplots(figsize=(ONE_COLUMN, 1))
>>> paths = save_figure(fig, "x", tempfile.mkdtemp())
>>> [p.name for p in paths], png_size(paths[0])
(['x.png', 'x.pdf'], (525, 150))
>>> plt.close(fig)
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, NamedTuple

import matplotlib
import matplotlib.figure
import matplotlib.pyplot as plt
import matplotlib.text
import matplotlib.ticker as mticker

from ..figure_style import (
    MARKERS,
    MAX_HEIGHT,
    MIN_FONT_PT,
    ONE_COLUMN,
    PALETTE,
    PAPER_RC,
    TWO_COLUMN,
    paper_style,
)

__all__ = ["save_figure", "show_figure", "stable_rc", "png_size", "PALETTE", "MARKERS",
           "Style", "METHOD_STYLES", "PAPER_RC", "paper_style", "network_title", "plain_log_ticks", "FIGURE_DPI",
           "ONE_COLUMN", "TWO_COLUMN", "MIN_FONT_PT", "MAX_HEIGHT", "print_faults", "check_print_figure"]

stable_rc = {"svg.hashsalt": "starlib", "pdf.compression": 6, "path.simplify": True}

#: Raster resolution of every PNG (dots per inch).
FIGURE_DPI = 150

class Style(NamedTuple):
    """Colour, marker and label of one kind of series."""

    colour: str
    marker: str
    label: str


#: One style per tree-set method of the notebooks (``starlib.paper.tree_depths``, ``starlib.allreduce``).
METHOD_STYLES = {
    "bfs": Style("#7f7f7f", "D", "one BFS tree"),
    "universal": Style(PALETTE[0], "o", "Universal"),
    "low-depth": Style(PALETTE[2], "^", "low-depth Universal"),
    "maximum": Style(PALETTE[1], "s", "Maximum"),
    "twisted": Style("#882255", "p", "Maximum, twisted"),
    "property": Style(PALETTE[3], "D", "Property V-D.1"),
    "generic": Style(PALETTE[6], "x", "exact packer"),
    "auto": Style(PALETTE[5], "<", "auto (Table I; a factor packing)"),
    "hamiltonian": Style(PALETTE[7], ">", "Hamiltonian paths (ER-A)"),
    "shallow": Style(PALETTE[4], "v", "shallow (local search)"),
}

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def save_figure(fig: matplotlib.figure.Figure, name: str, out_dir: str | Path = "../paper_tables/figures",
                formats: tuple[str, ...] = ("png", "pdf"), dpi: int = FIGURE_DPI, *,
                print_size: bool = True) -> list[Path]:
    """Save ``fig`` as ``NAME.png`` and ``NAME.pdf`` with metadata that does not change between runs.

    A figure of the compendium must print legibly (:func:`check_print_figure`: one or two columns wide, at most
    :data:`MAX_HEIGHT` high, no text under :data:`MIN_FONT_PT`, one legend); it is refused before a file is written.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure.
    name : str
        File stem.
    out_dir : str or Path
        Directory (created if missing).
    formats : tuple of str
        Any of ``png``, ``pdf``, ``svg``.
    dpi : int
        Raster resolution, at least 150.
    print_size : bool
        Refuse a figure that would not print legibly (default); ``False`` for a scratch figure.

    Returns
    -------
    list of Path
        The files written, in the order of ``formats``.

    Raises
    ------
    ValueError
        If a format is not one of png, pdf, svg, ``dpi`` is below 150, or the figure breaks a print rule.

    Example
    -------
    >>> import tempfile
    >>> fig, ax = plt.subplots(figsize=(12, 4))
    >>> save_figure(fig, "wide", tempfile.mkdtemp())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: figure 'wide': width 12.00 in is neither one column (3.5 in) nor two (7.1 in)...
    >>> plt.close(fig)
    """
    if print_size:
        check_print_figure(fig, name)
    if dpi < 150:
        raise ValueError(f"dpi={dpi} is below 150: PNGs of the compendium are at least 150 dpi")
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


def print_faults(fig: matplotlib.figure.Figure) -> list[str]:
    """What keeps ``fig`` from printing legibly: a width not :data:`ONE_COLUMN` or :data:`TWO_COLUMN`, a height
    above :data:`MAX_HEIGHT`, visible text under :data:`MIN_FONT_PT`, or a legend in more than one panel.

    Every visible, non-empty Text artist counts (titles, labels, tick labels, legends, annotations, node
    labels); since the figure is drawn at its print width, a text's font size is its printed size.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, drawn at its print size.

    Returns
    -------
    list of str
        One sentence per rule broken (empty if the figure prints legibly).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = plt.figure(figsize=(ONE_COLUMN, 2.5)); _ = fig.text(0.5, 0.5, "small", fontsize=5)
    >>> print_faults(fig)
    ["smallest text is 5 pt < 7.0 pt ('small')"]
    >>> plt.close(fig)
    """
    faults = []
    width, height = fig.get_size_inches()
    if not any(abs(width - w) < 0.01 for w in (ONE_COLUMN, TWO_COLUMN)):
        faults.append(f"width {width:.2f} in is neither one column ({ONE_COLUMN} in) nor two ({TWO_COLUMN} in)")
    if height > MAX_HEIGHT + 1e-9:
        faults.append(f"height {height:.2f} in exceeds {MAX_HEIGHT} in")
    fig.canvas.draw()  # tick labels exist only once drawn
    texts = [t for t in fig.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip() and t.get_figure(root=True) is fig]
    if texts:
        smallest = min(texts, key=lambda t: t.get_fontsize())
        if smallest.get_fontsize() < MIN_FONT_PT - 1e-9:
            faults.append(f"smallest text is {smallest.get_fontsize():g} pt < {MIN_FONT_PT} pt "
                          f"({smallest.get_text()!r})")
    panel_legends = sum(1 for ax in fig.axes if ax.get_legend() is not None)
    if panel_legends > 1:
        faults.append(f"{panel_legends} panels each draw a legend: use one figure-level legend")
    return faults


def check_print_figure(fig: matplotlib.figure.Figure, name: str) -> None:
    """Raise unless ``fig`` prints legibly (:func:`print_faults` finds nothing).

    Raises
    ------
    ValueError
        Naming the figure, the rule and the offending value.

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> fig = plt.figure(figsize=(12, 4))
    >>> check_print_figure(fig, "wide")
    Traceback (most recent call last):
    ...
    ValueError: figure 'wide': width 12.00 in is neither one column (3.5 in) nor two (7.1 in)
    >>> plt.close(fig)
    """
    faults = print_faults(fig)
    if faults:
        raise ValueError(f"figure {name!r}: " + "; ".join(faults))


def png_size(path: str | Path) -> tuple[int, int]:
    """Width and height in pixels of a PNG file, read from its header.

    Raises
    ------
    ValueError
        If the file is not a PNG.
    """
    head = Path(path).read_bytes()[:24]
    if head[:8] != _PNG_SIGNATURE:
        raise ValueError(f"path={str(path)!r} is not a PNG file")
    return struct.unpack(">II", head[16:24])


def show_figure(fig: matplotlib.figure.Figure, name: str, out_dir: str | Path, dpi: int = FIGURE_DPI) -> None:
    """Save ``fig`` as ``NAME.png`` and ``NAME.pdf`` in ``out_dir``, show the PNG in the notebook, close ``fig``.

    The cell's output is the PNG file's own bytes (``image/png``), displayed at the figure's size (100 pixels
    per inch of width) and sharp on high-resolution screens. Nothing is returned, so the cell shows the picture
    and no path. Outside IPython nothing is displayed; the files are still written.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure (closed afterwards, so an inline backend does not draw it a second time).
    name : str
        File stem, for example ``"depth_by_q"``.
    out_dir : str or Path
        Directory of the figure files (``paper_tables/figures`` for the committed run).
    dpi : int
        Raster resolution of the PNG, at least 150.

    Example
    -------
    >>> import tempfile
    >>> d = tempfile.mkdtemp()
    >>> fig, ax = plt.subplots(figsize=(ONE_COLUMN, 2))
    >>> show_figure(fig, "x", d)
    <IPython.core.display.Image object>
    >>> sorted(p.name for p in Path(d).iterdir()), plt.fignum_exists(fig.number)
    (['x.pdf', 'x.png'], False)
    """
    from IPython.display import Image, display

    width_px = round(fig.get_figwidth() * 100)
    paths = save_figure(fig, name, out_dir, ("png", "pdf"), dpi)
    plt.close(fig)
    display(Image(data=paths[0].read_bytes(), format="png", width=width_px))


_NETWORK_TITLES = {
    "slimfly": "Slim Fly MMS({q})",
    "bundlefly": r"Bundlefly MMS({q}) $\star$ QR({paley_q})",
    "polarstar-paley": r"PolarStar ER$_{{{q}}}$ $\star$ QR({paley_q})",
    "polarstar-iq": r"PolarStar ER$_{{{q}}}$ $\star$ IQ({d})",
    "polarfly": r"PolarFly ER$_{{{q}}}$",
}


def network_title(family: str, params: dict[str, Any] | str) -> str:
    """The network as the paper writes it (mathtext), from a family name and its parameters.

    ``params`` is a dict or the ``"q=4 paley_q=5"`` string of the tables (:func:`starlib.paper.catalog.format_params`).

    >>> network_title("bundlefly", "q=4 paley_q=5")
    'Bundlefly MMS(4) $\\\\star$ QR(5)'
    >>> network_title("polarstar-iq", {"q": 3, "d": 4})
    'PolarStar ER$_{3}$ $\\\\star$ IQ(4)'

    Raises
    ------
    ValueError
        If the family has no title or a parameter is missing.
    """
    if family not in _NETWORK_TITLES:
        raise ValueError(f"family={family!r} has no title: one of {', '.join(_NETWORK_TITLES)}")
    if isinstance(params, str):
        params = dict(item.split("=", 1) for item in params.replace(";", " ").split())
    try:
        return _NETWORK_TITLES[family].format(**params)
    except KeyError as err:
        raise ValueError(f"params={params!r}: {family} needs the parameter {err.args[0]!r}") from None


def _plain_number(value: float, _pos: int | None = None) -> str:
    return f"{value:g}"


def plain_log_ticks(ax: matplotlib.axes.Axes, axis: str = "y", subs: tuple[float, ...] = (1.0, 2.0, 5.0)) -> None:
    """Label a log axis at 1, 2, 5 times the powers of ten, written as plain numbers (``0.2``, ``5``, ``100``).

    Parameters
    ----------
    ax : matplotlib Axes
        Axes whose ``axis`` is already on a log scale.
    axis : str
        ``"x"``, ``"y"`` or ``"both"``.
    subs : tuple of float
        Multiples of each power of ten that get a labelled tick.

    Raises
    ------
    ValueError
        If ``axis`` is not x, y or both.

    Example
    -------
    >>> fig, ax = plt.subplots()
    >>> ax.set_yscale("log")
    >>> _ = ax.set_ylim(0.1, 5)
    >>> plain_log_ticks(ax)
    >>> fig.canvas.draw()
    >>> [t.get_text() for t in ax.get_yticklabels() if 0.1 <= t.get_position()[1] <= 5]
    ['0.1', '0.2', '0.5', '1', '2', '5']
    >>> plt.close(fig)
    """
    if axis not in ("x", "y", "both"):
        raise ValueError(f"axis={axis!r} is not one of x, y, both")
    for a in ((ax.xaxis, ax.yaxis) if axis == "both" else (getattr(ax, f"{axis}axis"),)):
        a.set_major_locator(mticker.LogLocator(base=10, subs=subs))
        a.set_major_formatter(mticker.FuncFormatter(_plain_number))
        a.set_minor_formatter(mticker.NullFormatter())

