"""Figures and tables as the notebooks show them (starlib.paper.figures, drawing) and the committed notebooks' images.

The notebooks embed every figure as the PNG file written by the same run: the tests below read the committed
notebooks and require each figure cell's image output to be byte for byte the committed file under
``paper_tables/figures/``, and no Markdown image link into ``paper_tables/``.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import matplotlib

from tests.paths import ROOT

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

from starlib.networks import complete_paley  # noqa: E402
from starlib.paper.drawing import SUPERNODE_COLOURS, draw_star_product  # noqa: E402
from starlib.paper.figures import (  # noqa: E402
    METHOD_STYLES,
    PALETTE,
    network_title,
    paper_style,
    plain_log_ticks,
    png_size,
    save_figure,
    show_figure,
)

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
FIGURES = ROOT / "paper_tables" / "figures"


def _code_cells(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


def test_palette_is_okabe_ito():
    # Okabe & Ito (2008), "Color Universal Design", the eight colours in RGB 0-255.
    okabe_ito = {(0, 0, 0), (230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178),
                 (213, 94, 0), (204, 121, 167)}
    assert {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in PALETTE} == okabe_ito
    styles = [(s.colour, s.marker) for s in METHOD_STYLES.values()]
    assert len(set(s[0] for s in styles)) == len(styles) and len(set(s[1] for s in styles)) >= len(styles) - 1


def test_save_figure_writes_150_dpi_and_identical_bytes(tmp_path):
    small = plt.figure(figsize=(3, 2))
    with pytest.raises(ValueError, match="figure 'small': width 3.00 in is neither one column"):
        save_figure(small, "small", tmp_path)
    assert not list(tmp_path.iterdir())  # refused before any file is written
    save_figure(small, "small", tmp_path, print_size=False)  # a scratch figure may opt out
    plt.close(small)
    fig, ax = plt.subplots(figsize=(3.5, 2))
    ax.plot([1, 2], [3, 4])
    first = [p.read_bytes() for p in save_figure(fig, "a", tmp_path)]
    second = [p.read_bytes() for p in save_figure(fig, "a", tmp_path / "again")]
    plt.close(fig)
    assert first == second
    assert png_size(tmp_path / "a.png") == (525, 300)
    assert b"Software" not in first[0] and b"CreationDate" not in first[1]
    with pytest.raises(ValueError, match="dpi=100"):
        save_figure(fig, "b", tmp_path, dpi=100)
    with pytest.raises(ValueError, match="'gif'"):
        save_figure(fig, "b", tmp_path, formats=("gif",))
    with pytest.raises(ValueError, match="not a PNG"):
        png_size(tmp_path / "a.pdf")


def test_show_figure_displays_the_file_bytes(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: shown.extend(objs))
    fig, ax = plt.subplots(figsize=(3.5, 2))
    ax.plot([0, 1], [0, 1])
    assert show_figure(fig, "line", tmp_path) is None
    assert not plt.fignum_exists(fig.number)
    (img,) = shown
    assert img.data == (tmp_path / "line.png").read_bytes() and img.width == 350
    assert (tmp_path / "line.pdf").read_bytes().startswith(b"%PDF")


def test_network_title():
    assert network_title("slimfly", "q=7") == "Slim Fly MMS(7)"
    assert network_title("polarstar-paley", {"q": 4, "paley_q": 5}) == r"PolarStar ER$_{4}$ $\star$ QR(5)"
    with pytest.raises(ValueError, match="family='torus'"):
        network_title("torus", "q=3")
    with pytest.raises(ValueError, match="'paley_q'"):
        network_title("bundlefly", "q=3")


def test_plain_log_ticks_and_style():
    with paper_style():
        fig, ax = plt.subplots()
        assert plt.rcParams["legend.fontsize"] >= 8
    ax.set_xscale("log")
    ax.set_xlim(1, 1000)
    plain_log_ticks(ax, "x")
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels() if 1 <= t.get_position()[0] <= 1000]
    plt.close(fig)
    assert labels == ["1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"]
    with pytest.raises(ValueError, match="axis='z'"):
        plain_log_ticks(ax, "z")


def test_star_product_drawing_colours_supernodes():
    P = complete_paley(4, 5)
    fig, ax = plt.subplots()
    draw_star_product(P, ax)
    colours = [to_hex(c) for c in ax.collections[-1].get_facecolors()]
    plt.close(fig)
    by_supernode = [set(colours[g * 5:(g + 1) * 5]) for g in range(4)]
    assert all(len(s) == 1 for s in by_supernode) and len(set.union(*by_supernode)) == 4
    assert [s.pop() for s in by_supernode] == [c.lower() for c in SUPERNODE_COLOURS[:4]]
    assert "#000000" not in SUPERNODE_COLOURS  # black vertices would vanish among the dark supernode edges


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_figures_are_embedded_as_the_committed_files(path):
    for cell in _code_cells(path):
        src = "".join(cell["source"])
        names = re.findall(r'show_figure\(.*?"(\w+)",\s*fig_dir\)', src, flags=re.DOTALL)
        images = [o["data"]["image/png"] for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        assert len(images) == len(names), f"{path.name}: cell with {names} has {len(images)} images"
        for name, image in zip(names, images, strict=True):
            data = base64.b64decode("".join(image) if isinstance(image, list) else image)
            assert data == (FIGURES / f"{name}.png").read_bytes(), f"{path.name}: {name} differs from the file"


def _legend_has_artists(ax) -> bool:
    legend = ax.get_legend()
    return legend is not None and all(h is not None for h in legend.legend_handles)


def test_table1_depth_figure_draws_each_product_once():
    from starlib.paper.depth_figures import table1_depth_figure

    rows = pd.DataFrame({"row": [4, 5, 5, 1, 6, 6], "instance": ["a", "a", "b", "c", "d", "e"],
                         "method": ["property", "property", "property", "maximum", "universal", "universal"],
                         "depth": [5, 5, 3, 9, None, 4], "depth_formula": [7, 7, 7, 20, 5, 6]})
    fig = table1_depth_figure(rows)
    ax = fig.axes[0]
    points = {c.get_label(): len(c.get_offsets()) for c in ax.collections}
    plt.close(fig)
    assert points == {"Universal, row 6 (1 products)": 1, "Maximum, row 1 (1 products)": 1,
                      "Property V-D.1, rows 4-5 (2 products)": 2}
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    with pytest.raises(ValueError, match="no row has a depth"):
        table1_depth_figure(rows.assign(depth=None))
    with pytest.raises(ValueError, match="'magic'"):
        table1_depth_figure(rows.assign(method="magic"))


def test_tree_panels_keep_titles_inside_the_figure(tmp_path):
    from starlib.edst import auto_trees
    from starlib.networks import hyperx
    from starlib.paper.tree_figures import draw_tree_panels

    P = hyperx("4,4")
    fig = draw_tree_panels(P, auto_trees(P), structure_pos={0: (-1, 1), 1: (1, 1), 2: (1, -1), 3: (-1, -1)})
    fig.savefig(tmp_path / "t.png", dpi=150)
    renderer = fig.canvas.get_renderer()
    top = fig.bbox.y1
    tops = [ax.title.get_window_extent(renderer).y1 for ax in fig.axes]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    plt.close(fig)
    assert max(tops) < top and labels[-1] == "root" and len(labels) == 4


def _summary() -> pd.DataFrame:
    rows = []
    for network, params in (("polarstar-iq", "q={q};d=3"), ("slimfly", "q={q}")):
        for q in (3, 4, 5):
            for method, choice, depth in (("universal", "paths", 2 * q), ("low-depth", "paths", 2 * q),
                                          ("maximum", "paths", 5 * q), ("maximum", "shallow", 4 * q),
                                          ("generic", "-", 3 * q)):
                rows.append({"network": network, "parameters": params.format(q=q), "method": method,
                             "factor_trees": choice, "trees": 2 + (method == "maximum"), "max_depth": depth})
    return pd.DataFrame(rows)


def test_depth_by_q_figure_panels_legend_and_styles():
    from starlib.paper.depth_figures import depth_by_q_figure

    fig = depth_by_q_figure(_summary())
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    legend = fig.axes[2].get_legend()
    lines = {(ln.get_color(), ln.get_linestyle(), ln.get_fillstyle()) for ln in fig.axes[0].get_lines()}
    plt.close(fig)
    assert titles == ["Slim Fly MMS(q)", r"PolarStar ER$_{q}$ $\star$ IQ(3)"]  # the paper's order, not alphabetical
    assert [t.get_text() for t in legend.get_texts()] == ["Universal", "low-depth Universal", "Maximum", "exact packer",
                                                          "factor trees: paths", "factor trees: shallow"]
    maximum = METHOD_STYLES["maximum"].colour
    assert (maximum, "-", "full") in lines and (maximum, "--", "none") in lines  # paths and shallow differ twice
    with pytest.raises(ValueError, match="do not start with q="):
        depth_by_q_figure(_summary().assign(parameters="d=3"))


def test_depth_tradeoff_vs_bound_and_orders_figures():
    from starlib.paper.depth_figures import depth_tradeoff_figure, depth_vs_bound_figure, generic_orders_figure

    fig = depth_tradeoff_figure(_summary())
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    joins = [ln for ln in fig.axes[0].get_lines() if len(ln.get_xdata()) == 2]
    plt.close(fig)
    assert labels == ["low-depth Universal", "Maximum", "exact packer", "the sets of one network"]
    assert len(joins) == 6  # one line per network and q

    bounded = pd.DataFrame({"theorem": ["V-B.4", "V-B.4", "V-C.12(4)"], "bound": [10, 12, 40], "depth": [7, 12, 9]})
    fig = depth_vs_bound_figure(bounded)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    plt.close(fig)
    assert labels == ["V-B.4 (2 trees)", "V-C.12(4) (1 trees)", "depth = bound"]
    with pytest.raises(ValueError, match="no tree"):
        depth_vs_bound_figure(bounded.iloc[:0])

    orders = pd.DataFrame({"network": "slimfly", "parameters": "q=7", "seed": [0, 1, 2], "min_depth": [10, 11, 9],
                           "max_depth": [14, 16, 13], "low_depth_max": 8, "low_depth_bound": 10})
    fig = generic_orders_figure(orders)
    ax = fig.axes[0]
    plt.close(fig)
    assert ax.get_xlabel().startswith("network (3 random edge orders") and ax.get_ylabel() == "tree depth"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Slim Fly MMS(7)"]
    assert len(ax.get_legend().get_texts()) == 3 and ax.get_ylim()[1] > 16


def test_speedup_figure_merges_identical_curves_only():
    from starlib.allreduce import allreduce_time
    from starlib.paper.allreduce_figures import byte_label, speedup_figure

    sizes = 2.0 ** np.arange(3, 31)
    depths = {("polarstar-iq", "q=4;d=3", "bfs"): [3], ("polarstar-iq", "q=4;d=3", "universal"): [6],
              ("polarstar-iq", "q=4;d=3", "low-depth"): [6], ("polarstar-iq", "q=4;d=3", "maximum"): [19, 7, 8],
              ("polarstar-iq", "q=4;d=3", "generic"): [19, 4, 5], ("slimfly", "q=4", "bfs"): [2],
              ("slimfly", "q=4", "maximum"): [11, 5, 6], ("slimfly", "q=4", "generic"): [10, 5, 6]}
    fig = speedup_figure(depths, [("polarstar-iq", "q=4;d=3"), ("slimfly", "q=4")], sizes, 1.0, 8e-5)
    first, second = fig.axes[0], fig.axes[1]
    labels = [[t.get_text() for t in ax.texts] for ax in (first, second)]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    suptitle = fig.get_suptitle()
    top = second.get_lines()[-1].get_ydata()
    plt.close(fig)
    # same depth maximum and count: the same time at every size (the equal split); 10 != 11: two curves
    assert labels[0] == ["BFS: k=1, D=3", "Univ. = low-depth: k=1, D=6", "Max. = exact packer: k=3, D=19"]
    assert labels[1] == ["BFS: k=1, D=2", "Max.: k=3, D=11", "exact packer: k=3, D=10"]
    assert legend == ["one BFS tree", "Universal", "low-depth Universal", "Maximum", "exact packer"]
    expected = allreduce_time([2], sizes, 1.0, 8e-5) / allreduce_time([10, 5, 6], sizes, 1.0, 8e-5)
    assert np.allclose(top, expected) and 2.8 < top[-1] < 3.0  # tends to k = 3
    assert "1 µs per message" in suptitle and "12.5 GB/s" in suptitle
    assert [byte_label(2.0**e) for e in (3, 10, 26)] == ["8 B", "1 KiB", "64 MiB"]
    with pytest.raises(ValueError, match="no 'bfs' set"):
        speedup_figure({("slimfly", "q=4", "maximum"): [3]}, [("slimfly", "q=4")], sizes, 1.0, 8e-5)


def test_resilience_figure_one_line_per_tree_count():
    from starlib.allreduce import intact_expected
    from starlib.paper.allreduce_figures import resilience_figure

    rows = [{"network": "slimfly", "parameters": "q=4", "n": 32, "method": m, "trees": k, "f": f,
             "mc_intact": intact_expected(k, 32, f), "sd_intact": 0.1}
            for m, k in (("bfs", 1), ("low-depth", 1), ("maximum", 3), ("generic", 3)) for f in (0.001, 0.01)]
    fig = resilience_figure(pd.DataFrame(rows), trials=100)
    ax = fig.axes[0]
    curves = [ln for ln in ax.get_lines() if len(ln.get_xdata()) == 100]
    texts = [t.get_text() for t in ax.texts]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    plt.close(fig)
    assert len(curves) == 2 and texts == ["k=1", "k=3", "n = 32", "BFS: k=1", "low-depth: k=1", "Max.: k=3",
                                          "exact packer: k=3"]
    assert labels[:4] == ["one BFS tree", "low-depth Universal", "Maximum", "exact packer"]
    assert ticks == ["0.1%", "1%"] and ax.get_title() == "Slim Fly MMS(4)"
    with pytest.raises(ValueError, match="trials=0"):
        resilience_figure(pd.DataFrame(rows), trials=0)


def test_netdesign_figures():
    from starlib import netdesign as nd
    from starlib.paper.netdesign_figures import (
        COMPUTE_COLOUR,
        confidence_figure,
        evolution_figure,
        max_routers_figure,
        route_figure,
        toy_networks_figure,
    )

    N, m = 100, 4
    ns = np.arange(1, N - 1)
    mmax = np.array([nd.max_routers(N, m, int(x)) for x in ns])
    levels = np.array([nd.tree_levels(N, m, int(x)) for x in ns])
    fig = max_routers_figure(ns, mmax, levels, N, m)
    ax = fig.axes[0]
    drawn = sum(len(ln.get_xdata()) for ln in ax.get_lines())
    plt.close(fig)
    assert drawn == len(ns) and len(ax.get_lines()) == len(set(levels.tolist()))  # one panel, every n once
    assert f"{mmax.min():,} at n = {ns[np.argmin(mmax)]}" in ax.texts[0].get_text()
    with pytest.raises(ValueError, match="differ"):
        max_routers_figure(ns, mmax[:-1], levels, N, m)

    a, b = np.random.default_rng(5), np.random.default_rng(5)
    fig = confidence_figure([2, 10], a, mc_trials=50)
    dots = [ln.get_ydata() for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "None"][:2]
    plt.close(fig)
    for U, got in zip((2, 10), dots, strict=True):  # the same draws, in the same order, as the notebook made
        p = np.unique(np.geomspace(1, 5 * U, 60).astype(int))
        assert np.array_equal(got, nd.monte_carlo_confidence(p[:: max(1, len(p) // 12)].tolist(), U, 50, seed=b))
    assert a.random() == b.random()  # and nothing else: later cells of the notebook see the same generator state
    assert fig.axes[0].get_legend().get_texts()[-1].get_text() == "the notes: U = 100, C = 0.9, p = 230"

    ex = nd.NOTES_EXAMPLE_CONNECTIONS
    pos = {-1: (0, 0), 4: (1, 0), -2: (2, -0.9), 5: (3, 0), -3: (4, 0), 2: (1, 1.4), 1: (2, 2.1), 3: (3, 1.4)}
    fig = route_figure(ex, pos, [-1, 4, 2, 1, 3, 5, -3], [-1, 4, -2, 5, -3])
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    plt.close(fig)
    assert labels[:2] == ["through routers only: 5 routers, 6 links", "through compute node: 4 links (not allowed)"]

    fig = toy_networks_figure({"one router": nd.single_port_network([], [5])})
    ax = fig.axes[0]
    squares = [c for c in ax.collections
               if len(c.get_facecolor()) and to_hex(c.get_facecolor()[0]) == COMPUTE_COLOUR.lower()]
    plt.close(fig)
    assert ax.get_title() == "one router\npairs: 10 at 1 hop" and len(squares[0].get_offsets()) == 5

    result = nd.evolve(nd.random_network(8, 1, 4, 4, seed=0), steps=20, seed=0)
    fig = evolution_figure(result, "search")
    ylabels = [ax.get_ylabel() for ax in fig.axes]
    plt.close(fig)
    assert ylabels == ["score f (lower is better)", "mean router hops", "bisection width (exact)"]


def test_cayley_figures():
    from starlib.paper.cayley_figures import FAMILIES, degree_diameter_figure, family_style, mnb_te_figure

    # the paper's names: <super generators><nucleus>, with IS alone having no super generators
    assert [family_style(f) for f in ("MS", "RR", "IS", "complete-RIS")] == [
        ("star nucleus", "swaps"), ("rotator nucleus", "rotations"), ("insertion-selection nucleus", "none"),
        ("insertion-selection nucleus", "all rotations")]
    assert len({(family_style(f)) for f in FAMILIES}) == len(FAMILIES)  # every family has its own look
    with pytest.raises(ValueError, match="'TN'"):
        family_style("TN")
    table = pd.DataFrame([{"family": f, "nodes": 24, "degree": 3, "diameter": 5} for f in (*FAMILIES, "star")])
    fig = degree_diameter_figure(table, 4)
    ax = fig.axes[0]
    xs = sorted(float(c.get_offsets()[0][0]) for c in ax.collections)
    plt.close(fig)
    assert len(xs) == 10 and len(set(xs)) == 10 and xs[0] < 24 < xs[-1]  # spread around N = 4! = 24
    cor = pd.DataFrame([{"series": s, "k": k, "mnb_over_order": 2.0, "te_over_order": 3.0, "mnb_over_lb": 4.0,
                         "te_over_lb": 5.0} for s in ("a", "b") for k in (3, 5, 7)])
    fig = mnb_te_figure(cor)
    ylabels = [ax.get_ylabel() for ax in fig.axes]
    widths = [ln.get_linewidth() for ln in fig.axes[0].get_lines()]
    plt.close(fig)
    assert all(ylabels) and fig.axes[2].get_xlabel().startswith("number of symbols k")
    assert widths[0] > 2 * widths[1]  # coinciding series: the first drawn wide under the second
    with pytest.raises(ValueError, match="5 series"):
        mnb_te_figure(pd.concat([cor.assign(series=str(i)) for i in range(5)]))


def test_scaling_figures_keep_the_legend_clear_of_the_targets():
    from starlib.paper.scaling_figures import PHASES, scaling_memory_figure, scaling_time_figure

    data = pd.DataFrame({"family": ["a", "a", "b", "b"], "links": [10**3, 10**6, 10**3, 10**6], "runs": 5,
                         "generic_factor": [False, True, False, False], "peak_rss_mb": 300.0, "rss_growth_mb": 20.0,
                         **{f"seconds_{p}": [1e-4, 1e-2, 2e-4, 2e-2] for p in PHASES},
                         **{f"traced_mb_{p}": [0.01, 10.0, 0.02, 20.0] for p in PHASES}})
    fig = scaling_time_figure(data, {"a": "A", "b": "B"}, target_links=10**6, target_seconds=10.0, fit_min_links=10)
    axes = fig.axes
    time_labels = [t.get_text() for t in fig.legends[0].get_texts()]
    notes = [t.get_text() for t in axes[0].texts]
    plt.close(fig)
    assert [ax.get_title() for ax in axes] == ["A", "B"] and axes[0].get_legend() is None  # legend outside
    assert time_labels == ["edges", "build", "edsts", "verify", "generic factor packing"]
    assert notes == ["1,000,000 links", "10 s target"] and axes[0].get_ylabel() == "seconds (best of 5 runs)"
    fig = scaling_memory_figure(data, {"a": "A"}, memory_limit_gb=8)
    assert [t.get_text() for t in fig.axes[0].texts] == ["8 GB limit"] and fig.axes[0].get_legend() is None
    assert len(fig.legends[0].get_texts()) == 6
    plt.close(fig)


def test_er_depth_figure():
    from starlib.paper.depth_figures import er_depth_figure

    depths = pd.DataFrame({"q": [2, 3, 2, 3], "method": ["hamiltonian", "hamiltonian", "low-depth", "low-depth"],
                           "max_depth": [3, 6, 3, 5]})
    fig = er_depth_figure(depths)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    ys = [list(ln.get_ydata()) for ln in ax.get_lines()]
    plt.close(fig)
    assert labels == ["Construction A: Hamiltonian paths", "lifted-cluster trees (low depth)", "lower bound 3"]
    assert ys[:2] == [[3, 6], [3, 5]] and ax.get_xlabel() and ax.get_ylabel()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_show_their_figures_and_resolve_their_paths(path):
    cells = json.loads(path.read_text())["cells"]
    markdown = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    code = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert not re.search(r"!\[[^\]]*\]\([^)]*paper_tables", markdown), "a Markdown image link into paper_tables/"
    assert "save_figure(" not in code and "plt.show(" not in code, "figures are shown with show_figure"
    assert ".to_string(" not in code, "tables are shown with show_table (or as Markdown), not printed"
    assert "out_dir = notebook_path(out_dir)" in code  # whoever runs it, relative paths start at notebooks/
    params = next("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    for name in re.findall(r"^(\w+_(?:csv|json))\s*=", params, flags=re.MULTILINE):
        assert f"notebook_path({name})" in code, f"input path {name} is not resolved by notebook_path"


def test_every_committed_figure_is_shown_by_a_notebook():
    shown = set()
    for path in NOTEBOOKS:
        for cell in _code_cells(path):
            shown |= set(re.findall(r'show_figure\(.*?"(\w+)",\s*fig_dir\)', "".join(cell["source"]), flags=re.DOTALL))
    files = {p.stem for p in FIGURES.glob("*.png")}
    assert shown == files and {p.stem for p in FIGURES.glob("*.pdf")} == files
    for name in files:  # the PNG's pHYs chunk: pixels per metre
        data = (FIGURES / f"{name}.png").read_bytes()
        at = data.index(b"pHYs") + 4
        assert round(int.from_bytes(data[at:at + 4], "big") * 0.0254) >= 150 and data[at + 8] == 1, name


# --- print size and smallest font ------------------------------------------------------------------------------

from starlib.paper.figures import (  # noqa: E402
    MIN_FONT_PT,
    ONE_COLUMN,
    TWO_COLUMN,
    check_print_figure,
    print_faults,
)


def _legible(width: float = ONE_COLUMN) -> plt.Figure:
    with paper_style():
        fig, ax = plt.subplots(figsize=(width, 2.4))
        ax.plot([1, 2], [1, 2], label="a")
        ax.set(xlabel="x", ylabel="y", title="t")
    return fig


@pytest.mark.parametrize("width", [ONE_COLUMN, TWO_COLUMN])
def test_print_check_passes_a_legible_figure(width):
    fig = _legible(width)
    assert print_faults(fig) == []
    check_print_figure(fig, "ok")
    plt.close(fig)


def test_print_check_refuses_a_screen_width():
    fig = _legible(12.0)
    with pytest.raises(ValueError, match=r"figure 'wide': width 12.00 in"):
        check_print_figure(fig, "wide")
    plt.close(fig)


def test_print_check_refuses_a_page_high_figure():
    fig = _legible()
    fig.set_size_inches(ONE_COLUMN, 10.0)
    assert any("height 10.00 in" in f for f in print_faults(fig))
    plt.close(fig)


def test_print_check_finds_a_5pt_tick_label():
    fig = _legible()
    fig.axes[0].tick_params(axis="x", labelsize=5)
    faults = print_faults(fig)
    assert len(faults) == 1 and f"5 pt < {MIN_FONT_PT} pt" in faults[0]
    plt.close(fig)


def test_print_check_finds_a_small_annotation_and_ignores_hidden_text():
    fig = _legible()
    note = fig.axes[0].annotate("tiny", (1, 1), fontsize=6)
    assert any("'tiny'" in f for f in print_faults(fig))
    note.set_visible(False)
    assert print_faults(fig) == []
    plt.close(fig)


def test_print_check_finds_a_legend_in_every_panel():
    with paper_style():
        fig, axes = plt.subplots(1, 2, figsize=(TWO_COLUMN, 2.5))
        for ax in axes:
            ax.plot([1, 2], label="a")
            ax.legend()
    assert any("2 panels each draw a legend" in f for f in print_faults(fig))
    for ax in axes:
        ax.get_legend().remove()
    fig.legend(*axes[0].get_legend_handles_labels())
    assert print_faults(fig) == []
    plt.close(fig)


def test_sweep_figure_prints_and_draws_zero_seconds_at_zero():
    from starlib.paper.sweep_figures import sweep_figure

    record = pd.DataFrame({"family": ["hamiltonian"] * 3 + ["low-depth"] * 3, "q": [2, 3, 4] * 2,
                           "max_depth": [1, 2, 3, 3, 3, 3], "seconds": [0.0, 0.0, 0.2, 0.0, 0.1, 0.3],
                           "peak_mb": [300.0, 301.0, 302.0, 300.0, 300.0, 305.0]})
    fig = sweep_figure(record)
    check_print_figure(fig, "er_sweep")
    time_axis = fig.axes[1]
    assert time_axis.get_yscale() == "symlog"
    assert min(min(line.get_ydata()) for line in time_axis.get_lines()) == 0.0  # no invented floor
    assert len([ax for ax in fig.axes if ax.get_legend() is not None]) == 0 and len(fig.legends) == 1
    plt.close(fig)
