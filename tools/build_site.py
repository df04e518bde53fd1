"""Build the reader's site: every committed, executed notebook as an HTML page, and a landing page.

Usage: python tools/build_site.py [--out DIR]        (``make site`` writes ``site/``)

Nothing is re-executed: each page is nbconvert's JupyterLab rendering of ``notebooks/NN-*.ipynb`` as committed,
outputs and figures included. The landing page is the README's title, its introduction, its "What regenerates
what" table (the notebook column linked to the pages) and its Errata section, read from ``README.md`` itself, so
the site and the README cannot disagree. Every page loads only files of the site: MathJax 2.7 is copied from the
locked ``jupyter-server-mathjax`` package into ``_static/mathjax/``, the page template (``tools/site/``) drops
nbconvert's CDN scripts (require.js, mermaid), and all links are relative, so the folder works opened from disk
or served from any path. Files that a page links to or shows (``../paper_tables/figures/*.png``) are copied to
the same relative place in the site; a link to nothing, or a page that would load anything from the network,
stops the build. The output has no timestamps: the same inputs give the same bytes.

The site is built in a temporary folder next to ``--out`` and moved into place at the end, so a failed build
leaves the previous site alone. ``--out`` must be a new or empty folder or an earlier site (it carries the
marker file ``.starlib-site``). Every error is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIR = Path(__file__).resolve().parent / "site"
MAP_HEADING = "What regenerates what"
EXTRA_SECTIONS = ("Errata",)
MARKER = ".starlib-site"
MATHJAX_DIR = "_static/mathjax"
SITE_NOTE = """
---
*About this site.* Every page is a notebook as committed, with the outputs and figures of its last run; building
the site (`make site`) runs nothing. To rerun the notebooks and regenerate `paper_tables/`, clone the repository
and run `make all`; `make test` checks that the results come out the same.
"""
# Leading columns of the README's map, by header (the header may go on, e.g. "output files (`paper_tables/`)").
COLUMNS = ("paper item", "notebook", "output files")


def split_row(line: str) -> list[str]:
    """Cells of one Markdown table row, stripped; ``\\|`` stays inside its cell.

    Parameters
    ----------
    line : str
        A row such as ``| a | b |``.

    Returns
    -------
    list of str
        The cells in order.

    Raises
    ------
    ValueError
        If ``line`` does not start and end with ``|``.

    Examples
    --------
    >>> split_row("| Table I | `04-constructions` | `table1`, `a \\\\| b` |")
    ['Table I', '`04-constructions`', '`table1`, `a \\\\| b`']
    """
    text = line.strip()
    if len(text) < 2 or not (text.startswith("|") and text.endswith("|")):
        raise ValueError(f"line={line!r} is not a Markdown table row: it must start and end with '|'")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", text[1:-1])]


def readme_sections(text: str) -> dict[str, list[str]]:
    """The README split at its level-2 headings: the title block under ``""``, each section under its title.

    Parameters
    ----------
    text : str
        The README's Markdown.

    Returns
    -------
    dict of str to list of str
        Lines of each part; a section's lines start with its ``## `` heading.

    Examples
    --------
    >>> parts = readme_sections("# T\\nintro\\n## A\\na\\n### A.1\\nb\\n## B\\n")
    >>> parts[""], parts["A"], parts["B"]
    (['# T', 'intro'], ['## A', 'a', '### A.1', 'b'], ['## B'])
    """
    parts: dict[str, list[str]] = {"": []}
    current = ""
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            parts[current] = []
        parts[current].append(line)
    return parts


@dataclass(frozen=True)
class MapRow:
    """One row of the README's "What regenerates what" table (Markdown cells as written)."""

    item: str
    notebook: str
    outputs: str
    line: int


def notebook_map(text: str) -> list[MapRow]:
    """The rows of the README's "What regenerates what" table: paper item, notebook and output files.

    The one source of the paper-item-to-notebook mapping: the README shows it, the landing page and every
    notebook page of the site are built from it.

    Parameters
    ----------
    text : str
        README.md as read; only the section "What regenerates what" is used, its first table.

    Returns
    -------
    list of MapRow
        One per row: the paper item and output files as Markdown, the notebook's name without backticks, and
        the row's index among the table's lines.

    Raises
    ------
    ValueError
        If the section, its table, a column of ``COLUMNS`` or a row's cell is missing.

    Examples
    --------
    >>> readme = ("# T\\n## What regenerates what\\n\\n| paper item | notebook | output files (`x/`) | time |\\n"
    ...           "|---|---|---|---|\\n| Table I | `04-constructions` | `table1` | 14 s |\\n")
    >>> notebook_map(readme)
    [MapRow(item='Table I', notebook='04-constructions', outputs='`table1`', line=2)]
    """
    section = readme_sections(text).get(MAP_HEADING)
    if section is None:
        raise ValueError(f"README: no section '## {MAP_HEADING}'; the site's landing page is built from its table")
    table = _first_table(section)
    if len(table) < 3:
        raise ValueError(f"README, '{MAP_HEADING}': a table with a header, a separator and rows is needed, "
                         f"found {len(table)} table lines")
    header = split_row(table[0])
    for i, name in enumerate(COLUMNS):
        if i >= len(header) or not header[i].lower().startswith(name):
            raise ValueError(f"README, '{MAP_HEADING}': column {i + 1} must be '{name}', "
                             f"the header is {header!r}")
    rows = []
    for k, line in enumerate(table[2:], start=2):
        cells = split_row(line)
        if len(cells) != len(header):
            raise ValueError(f"README, '{MAP_HEADING}': row {line!r} has {len(cells)} cells, the header "
                             f"{len(header)}")
        rows.append(MapRow(item=cells[0], notebook=cells[1].strip("`").strip(), outputs=cells[2], line=k))
    return rows


def _first_table(lines: list[str]) -> list[str]:
    """The first run of lines that start with ``|``."""
    start = next((i for i, line in enumerate(lines) if line.startswith("|")), len(lines))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    return lines[start:end]


def landing_markdown(text: str, pages: dict[str, str]) -> str:
    """The landing page's Markdown: the README's title and introduction, its map with the notebooks linked to
    their pages, and the sections of ``EXTRA_SECTIONS`` that the README has.

    Parameters
    ----------
    text : str
        The README's Markdown.
    pages : dict of str to str
        Notebook name -> the page's relative address, for every notebook that the map names.

    Returns
    -------
    str
        Markdown.

    Raises
    ------
    ValueError
        If the map names a notebook that is not in ``pages`` (see ``notebook_map`` for the other rules).

    Examples
    --------
    >>> readme = ("# T\\nintro\\n## Two commands\\nmake\\n## What regenerates what\\n"
    ...           "| paper item | notebook | output files |\\n|---|---|---|\\n| Table I | `04-x` | `t1` |\\n")
    >>> print(landing_markdown(readme, {"04-x": "notebooks/04-x.html"}), end="")
    # T
    intro
    ## What regenerates what
    | paper item | notebook | output files |
    |---|---|---|
    | Table I | [`04-x`](notebooks/04-x.html) | `t1` |
    """
    rows = notebook_map(text)
    missing = [row.notebook for row in rows if row.notebook not in pages]
    if missing:
        raise ValueError(f"README, '{MAP_HEADING}': notebook(s) {missing} have no notebooks/<name>.ipynb")
    parts = readme_sections(text)
    section = list(parts[MAP_HEADING])
    start = section.index(_first_table(section)[0])
    for row in rows:
        cells = split_row(section[start + row.line])
        cells[1] = f"[`{row.notebook}`]({pages[row.notebook]})"
        section[start + row.line] = "| " + " | ".join(cells) + " |"
    lines = parts[""] + section
    for name in EXTRA_SECTIONS:
        lines += parts.get(name, [])
    return "\n".join(lines).strip() + "\n"


def page_title(nb) -> str:
    """A page's title: the first Markdown heading of the notebook, without its ``#`` and ``$`` marks.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The notebook.

    Returns
    -------
    str
        The title, or ``""`` if no Markdown cell starts with a heading.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 12. ER$_q$ trees\\nmore")])
    >>> page_title(nb)
    '12. ER_q trees'
    """
    for cell in nb.cells:
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("#"):
            return cell.source.lstrip().splitlines()[0].lstrip("#").strip().replace("$", "")
    return ""


class _Refs(HTMLParser):
    """Every ``src`` and ``href`` of a page, with its tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value is not None:
                self.refs.append((tag, name, value))


def page_refs(html: str) -> list[tuple[str, str, str]]:
    """The ``(tag, attribute, address)`` of every ``src`` and ``href`` in a page.

    Parameters
    ----------
    html : str
        The page.

    Returns
    -------
    list of tuple
        In document order.

    Examples
    --------
    >>> page_refs('<a href="a.html#x">a</a><img src="../f.png"><script src="s.js"></script>')
    [('a', 'href', 'a.html#x'), ('img', 'src', '../f.png'), ('script', 'src', 's.js')]
    """
    parser = _Refs()
    parser.feed(html)
    parser.close()
    return parser.refs


def resolve_refs(site: Path, root: Path) -> list[Path]:
    """Make every relative link of the site's pages work, or say which does not.

    A relative address that is a file of the site is fine; one that is a file of the repository (``root``, at
    the same relative place: pages mirror the repository's layout) is copied into the site. An address with a
    scheme is allowed only as a link (``<a href>``): a page must not load anything from the network.

    Parameters
    ----------
    site : Path
        The built site (``*.html`` pages anywhere under it).
    root : Path
        The repository the pages were built from.

    Returns
    -------
    list of Path
        The files copied from the repository, relative to ``site``.

    Raises
    ------
    ValueError
        Naming the page and the address: a relative address that is neither in the site nor in the repository,
        one that leaves the site, or a resource (``src``, ``<link href>``) with a scheme other than ``data:``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     site, root = Path(d, "site"), Path(d, "repo")
    ...     (site / "notebooks").mkdir(parents=True); (root / "figs").mkdir(parents=True)
    ...     _ = (root / "figs" / "f.png").write_bytes(b"png")
    ...     _ = (site / "notebooks" / "a.html").write_text('<img src="../figs/f.png">')
    ...     resolve_refs(site, root), (site / "figs" / "f.png").read_bytes()
    ([PosixPath('figs/f.png')], b'png')
    """
    site, root = site.resolve(), root.resolve()
    copied = []
    for page in sorted(site.rglob("*.html")):
        for tag, attr, address in page_refs(page.read_text(encoding="utf-8")):
            if address.startswith("#") or address.startswith("data:"):
                continue
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", address) or address.startswith("//"):
                if tag == "a" and attr == "href":
                    continue
                raise ValueError(f"{page.relative_to(site)}: <{tag} {attr}={address!r}> would load from the "
                                 "network; the site must be self-contained")
            path = re.split(r"[?#]", address, maxsplit=1)[0]
            if not path:
                continue
            target = (page.parent / path).resolve()
            if not target.is_relative_to(site):
                raise ValueError(f"{page.relative_to(site)}: {attr}={address!r} leaves the site")
            rel = target.relative_to(site)
            if target.is_file():
                continue
            source = root / rel
            if not source.is_file() or ".git" in rel.parts:
                raise ValueError(f"{page.relative_to(site)}: {attr}={address!r} points at nothing "
                                 f"(neither the site nor the repository has {rel})")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            copied.append(rel)
    return copied


def _link_notebooks(html: str, names: set[str]) -> str:
    """Links to a sibling notebook (``04-x.ipynb#h``) point at its page (``04-x.html#h``)."""
    def repl(m: re.Match) -> str:
        return f'href="{m.group(1)}.html{m.group(2) or ""}"' if m.group(1) in names else m.group(0)
    return re.sub(r'href="([^"/#?]+)\.ipynb(#[^"]*)?"', repl, html)


def _exporter():
    from nbconvert import HTMLExporter

    return HTMLExporter(template_name="lab", extra_template_paths=[str(TEMPLATE_DIR)],
                        template_file="page.html.j2", theme="light")


def _render(exporter, nb, name: str, source_dir: Path, site: dict) -> str:
    resources = {"metadata": {"name": name, "path": str(source_dir)}, "site": site}
    html, _ = exporter.from_notebook_node(nb, resources=resources)
    return html


def build_site(out: Path, root: Path = ROOT) -> list[Path]:
    """Build the site into ``out`` from ``root``'s README and committed notebooks (none is executed).

    Parameters
    ----------
    out : Path
        The site's folder: new, empty, or an earlier site (it has the marker ``.starlib-site``); replaced only
        when the whole build succeeded.
    root : Path
        The repository: ``README.md``, ``notebooks/[0-9]*.ipynb`` and the files the notebooks show.

    Returns
    -------
    list of Path
        The pages, relative to ``out``: ``index.html``, then ``notebooks/<name>.html`` in notebook order.

    Raises
    ------
    ValueError
        If ``out`` is a folder with other content, if the README's map and the notebooks disagree (a notebook
        without a row, a row without a notebook), or for a broken link (``resolve_refs``).

    Examples
    --------
    ``make site`` is ``build_site(Path("site"))``; ``tests/tools/test_site.py`` opens every page in Chromium. A
    repository with one notebook:

    >>> import nbformat, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     repo = Path(d, "repo")
    ...     (repo / "notebooks").mkdir(parents=True)
    ...     _ = (repo / "README.md").write_text("# R\\n## What regenerates what\\n| paper item | notebook | "
    ...                                         "output files |\\n|---|---|---|\\n| Table I | `01-a` | `t1` |\\n")
    ...     nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# 1. A\\n$x$")])
    ...     nbformat.write(nb, str(repo / "notebooks" / "01-a.ipynb"))
    ...     build_site(Path(d, "site"), repo), "01-a.html" in Path(d, "site", "index.html").read_text()
    ([PosixPath('index.html'), PosixPath('notebooks/01-a.html')], True)
    """
    import nbformat
    from jupyter_server_mathjax import __file__ as mathjax_init

    out, root = Path(out).resolve(), Path(root).resolve()
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / MARKER).is_file())):
        raise ValueError(f"out={str(out)!r} exists and is not a site built by tools/build_site.py (no {MARKER} in "
                         "it): choose a new folder")
    if out == root or root.is_relative_to(out):
        raise ValueError(f"out={str(out)!r} must not contain the repository {str(root)!r}")
    readme = (root / "README.md").read_text(encoding="utf-8")
    notebooks = sorted((root / "notebooks").glob("[0-9]*.ipynb"))
    rows = {row.notebook: row for row in notebook_map(readme)}
    unlisted = [p.stem for p in notebooks if p.stem not in rows]
    if unlisted:
        raise ValueError(f"notebooks {unlisted} are not in the README's '{MAP_HEADING}' table; add a row for each")

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        shutil.copytree(Path(mathjax_init).parent / "static", tmp / MATHJAX_DIR)
        for name in ("site.css", "site.js"):
            shutil.copyfile(TEMPLATE_DIR / name, tmp / "_static" / name)
        exporter = _exporter()
        names = [p.stem for p in notebooks]
        (tmp / "notebooks").mkdir()
        for i, path in enumerate(notebooks):
            nb = nbformat.read(str(path), as_version=4)
            nb.metadata["title"] = page_title(nb) or path.stem
            row = rows[path.stem]
            nav = {"root": "../", "has_code": any(c.cell_type == "code" for c in nb.cells),
                   "item": row.item, "outputs": row.outputs,
                   "prev": {"name": names[i - 1], "href": f"{names[i - 1]}.html"} if i > 0 else None,
                   "next": {"name": names[i + 1], "href": f"{names[i + 1]}.html"} if i + 1 < len(names) else None}
            html = _link_notebooks(_render(exporter, nb, path.stem, path.parent, nav), set(names))
            (tmp / "notebooks" / f"{path.stem}.html").write_text(html, encoding="utf-8")
        landing = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
            landing_markdown(readme, {name: f"notebooks/{name}.html" for name in names}) + SITE_NOTE,
            id="landing")])
        landing.metadata["title"] = page_title(landing) or "starlib"
        first = {"name": names[0], "href": f"notebooks/{names[0]}.html"} if names else None
        html = _render(exporter, landing, "index", root, {"root": "", "landing": True, "next": first})
        (tmp / "index.html").write_text(html, encoding="utf-8")
        resolve_refs(tmp, root)
        (tmp / MARKER).write_text("built by tools/build_site.py; make site replaces this folder\n")
        umask = os.umask(0)
        os.umask(umask)
        tmp.chmod(0o777 & ~umask)  # mkdtemp made it private; a site is for reading
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [Path("index.html")] + [Path("notebooks", f"{name}.html") for name in names]


def main(argv: list[str] | None = None) -> int:
    """Command line: build the site, print one summary line; errors are one line with status 2."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "site"), help="the site's folder (default: site/ in the repository)")

    def fail(message: str) -> None:
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)

    ap.error = fail  # type: ignore[method-assign]
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        pages = build_site(Path(a.out))
    except (ValueError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    print(f"site: {len(pages)} pages in {a.out}/ (open {Path(a.out) / 'index.html'}), "
          f"{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
