"""The look of every figure of starlib: print widths, the smallest font, colours, markers and legible font sizes.

One declaration for the paper's figures (:mod:`starlib.paper.figures`, which re-exports these names) and for the
side domains that draw their own (the simulations' figures), so that no side domain imports the paper layer.

Example
-------
>>> import matplotlib; matplotlib.use("Agg")
>>> len(PALETTE) == len(MARKERS) == 8, ONE_COLUMN < TWO_COLUMN
(True, True)
"""

from __future__ import annotations

import contextlib

import matplotlib
from cycler import cycler

__all__ = ["ONE_COLUMN", "TWO_COLUMN", "MIN_FONT_PT", "MAX_HEIGHT", "PALETTE", "MARKERS", "PAPER_RC", "paper_style"]

#: Print widths (inches) of an IEEE two-column page: one column (``\\columnwidth``) and both (``\\textwidth``).
ONE_COLUMN = 3.5
TWO_COLUMN = 7.1

#: Smallest font (points) any text of a figure may have at its print width.
MIN_FONT_PT = 7.0

#: Tallest figure (inches) that fits a page with its caption: in an IEEEtran conference page a figure* of 8.85 in
#: with its caption overflows the text block (tests/paper/test_figure_page.py); 8 in leaves room for the caption.
MAX_HEIGHT = 8.0

#: Okabe and Ito's eight colours, distinguishable with every common colour-vision deficiency (Okabe & Ito 2008,
#: "Color Universal Design"): blue, vermillion, bluish green, reddish purple, orange, sky blue, black, yellow.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")

#: Markers paired with :data:`PALETTE`, so that no two series differ by colour alone (all readable hollow).
MARKERS = ("o", "s", "^", "D", "v", "<", ">", "p")


#: Font sizes a reader can read at the figure's printed size, and the colour cycle of :data:`PALETTE`.
PAPER_RC = {"font.size": 10, "axes.titlesize": 10.5, "axes.labelsize": 10, "xtick.labelsize": 9,
            "ytick.labelsize": 9, "legend.fontsize": 8.5, "legend.title_fontsize": 9, "figure.titlesize": 11,
            "axes.prop_cycle": cycler(color=PALETTE), "lines.markersize": 5, "legend.framealpha": 0.92}

def paper_style() -> contextlib.AbstractContextManager:
    """A context in which figures get :data:`PAPER_RC` (create the figure and its artists inside it).

    >>> import matplotlib.pyplot as plt
    >>> with paper_style():
    ...     fig, ax = plt.subplots()
    ...     size = ax.xaxis.label.get_fontsize()
    >>> size, plt.close(fig)
    (10.0, None)
    """
    return matplotlib.rc_context(PAPER_RC)
