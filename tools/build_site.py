"""Build the reader's site: the README, every ``docs/*.md`` page, the references and every committed, executed
notebook as HTML pages, with a contents sidebar, search, previous/next links and a version stamp.

Usage: python tools/build_site.py [--out DIR]        (``make site`` writes ``site/``)

Nothing is re-executed: each notebook page is nbconvert's JupyterLab rendering of ``notebooks/NN-*.ipynb`` as
committed, outputs and figures included, with a download link to the ``.ipynb`` and a Binder launch link (the
repository's public address from ``CITATION.cff``'s ``repository-code``; without one the page says that the
address is not declared, rather than guess it). The landing page is the
whole README, its "What regenerates what" table with the notebooks linked to their pages and the output files to
the files; each ``docs/*.md`` becomes ``docs/<name>.html`` through the same Markdown and maths machinery, and
``docs/references.bib`` the References page. Links between these sources (``../docs/x.md``, ``04-x.ipynb``,
``README.md``) point at their pages. The search box reads ``_static/search-index.js``, the text of every page,
so it works opened from disk as well as served. Every page loads only files of the site: MathJax 2.7 is copied
from the locked ``jupyter-server-mathjax`` package into ``_static/mathjax/``, the page template (``tools/site/``)
drops nbconvert's CDN scripts (require.js, mermaid), and all links are relative, so the folder works opened from
disk or served from any path. Files that a page links to or shows (``../paper_tables/figures/*.png``) are copied
to the same relative place in the site; a link to nothing, or a page that would load anything from the network,
stops the build. The output has no timestamps: the same inputs give the same bytes, except the stamp's commit.

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
MARKER = ".starlib-site"
MATHJAX_DIR = "_static/mathjax"
BIBLIOGRAPHY = "docs/references.bib"
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


def landing_markdown(text: str, pages: dict[str, str], outputs=None) -> str:
    """The landing page's Markdown: the whole README, its map's notebook column linked to the pages.

    Parameters
    ----------
    text : str
        The README's Markdown.
    pages : dict of str to str
        Notebook name -> the page's relative address, for every notebook that the map names.
    outputs : callable, optional
        Applied to each row's output-files cell (Markdown -> Markdown), e.g. to link the files.

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
    ## Two commands
    make
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
        if outputs is not None:
            cells[2] = outputs(cells[2])
        section[start + row.line] = "| " + " | ".join(cells) + " |"
    parts[MAP_HEADING] = section
    lines = [line for part in parts.values() for line in part]
    return "\n".join(lines).strip() + "\n"


def link_outputs(cell: str, root: Path, prefix: str) -> str:
    """Link each backticked file name of a map cell (``table4``, ``figures/scaling_*``) to its files.

    A name is looked up under ``paper_tables/`` (or the repository, if it starts with ``paper_tables/``) as a
    file, a glob, or a stem with any extension; one match links the name, several follow it as a list.

    Parameters
    ----------
    cell : str
        Markdown of the cell.
    root : Path
        The repository.
    prefix : str
        The relative address of the site's top from the page (``""`` or ``"../"``).

    Returns
    -------
    str
        Markdown; names with no file are left as written.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / "paper_tables").mkdir()
    ...     for n in ("t1.csv", "t1.tex"): _ = (Path(d) / "paper_tables" / n).write_text("x")
    ...     link_outputs("`t1`, `none`", Path(d), "../")
    '`t1` ([t1.csv](../paper_tables/t1.csv), [t1.tex](../paper_tables/t1.tex)), `none`'
    """
    def repl(m: re.Match) -> str:
        name = m.group(1).strip()
        base = root if name.startswith("paper_tables/") else root / "paper_tables"
        if not name or name.startswith("/") or ".." in name:
            return m.group(0)
        found = sorted({p for pattern in (name, name + ".*") for p in base.glob(pattern) if p.is_file()})
        if not found:
            return m.group(0)
        links = [f"[{p.name}]({prefix}{p.relative_to(root).as_posix()})" for p in found]
        if len(found) == 1:
            return f"[`{name}`]({prefix}{found[0].relative_to(root).as_posix()})"
        return f"`{name}` ({', '.join(links)})"
    return re.sub(r"`([^`]+)`", repl, cell)


#: LaTeX commands of headings as the plain characters a sidebar, a tab and the search index show
_TITLE_SYMBOLS = {"lfloor": "\u230a", "rfloor": "\u230b", "lceil": "\u2308", "rceil": "\u2309", "le": "\u2264",
                  "leq": "\u2264", "ge": "\u2265", "geq": "\u2265", "times": "\u00d7", "cdot": "\u00b7",
                  "star": "\u22c6", "ne": "\u2260", "infty": "\u221e", "to": "\u2192"}


def plain_title(text: str) -> str:
    """A heading's text without TeX: ``$`` dropped, symbols as characters, ``\\mathrm{X}`` as X, other commands as
    their names.

    >>> plain_title(r"ER$_q$ at the bound $\\lfloor (q+1)/2 \\rfloor$, $\\mathrm{MMS}(q)$")
    'ER_q at the bound \u230a(q+1)/2\u230b, MMS(q)'
    """
    text = text.replace("$", "")
    text = re.sub(r"\\(?:mathrm|mathit|text|mathbf|operatorname)\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda m: _TITLE_SYMBOLS.get(m.group(1), m.group(1)), text)
    text = re.sub(r"([\u230a\u2308])\s+", r"\1", text)  # no space inside the brackets
    text = re.sub(r"\s+([\u230b\u2309])", r"\1", text)
    return re.sub(r"\s{2,}", " ", text).strip()


def page_title(nb) -> str:
    """A page's title: the first Markdown heading of the notebook, without its ``#`` marks and TeX
    (:func:`plain_title`).

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
            return plain_title(cell.source.lstrip().splitlines()[0].lstrip("#").strip())
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


def link_pages(html: str, source: Path, page: Path, pages: dict[Path, Path], root: Path) -> str:
    """Links to a notebook or Markdown file that is a page of the site point at that page.

    Parameters
    ----------
    html : str
        A rendered page.
    source : Path
        The folder of the page's source in the repository (relative links start there).
    page : Path
        The page's place in the site.
    pages : dict of Path to Path
        Source file (relative to ``root``) -> its page in the site.
    root : Path
        The repository.

    Returns
    -------
    str
        The page; other links, and ``<a download ...>`` links, are left alone.

    Examples
    --------
    >>> pages = {Path("docs/a.md"): Path("docs/a.html"), Path("notebooks/01-x.ipynb"): Path("notebooks/01-x.html")}
    >>> link_pages('<a href="../docs/a.md#s">a</a> <a href="01-x.ipynb">x</a> <a download href="01-x.ipynb">',
    ...            Path("/r/notebooks"), Path("notebooks/01-x.html"), pages, Path("/r"))
    '<a href="../docs/a.html#s">a</a> <a href="01-x.html">x</a> <a download href="01-x.ipynb">'
    """
    def repl(m: re.Match) -> str:
        target = Path(os.path.normpath(source / m.group(1)))
        if not target.is_relative_to(root) or target.relative_to(root) not in pages:
            return m.group(0)
        href = os.path.relpath(pages[target.relative_to(root)], page.parent)
        return f'href="{Path(href).as_posix()}{m.group(2) or ""}"'
    return re.sub(r'(?<!download )(?<!download="" )href="([^":#?]+\.(?:ipynb|md))(#[^"]*)?"', repl, html)


def repository_url(root: Path) -> str | None:
    """The repository's public address: ``repository-code`` of ``CITATION.cff``, or ``None`` if it has none.

    Parameters
    ----------
    root : Path
        The repository.

    Returns
    -------
    str or None
        A URL (the Binder links need it), or ``None``: the archive address is entered in ``CITATION.cff`` when the
        repository is published, and the pages then say so instead of linking to a guessed address.

    Examples
    --------
    >>> repository_url(Path("/nonexistent")) is None
    True
    """
    cff = root / "CITATION.cff"
    text = cff.read_text(encoding="utf-8") if cff.is_file() else ""
    m = re.search(r"^repository-code:\s*[\"']?([^\"'\s]+)", text, flags=re.MULTILINE)
    return m.group(1) if m else None


def binder_url(repository: str, notebook: str) -> str:
    """The Binder address that opens ``notebook`` (a path in the repository) in JupyterLab.

    Examples
    --------
    >>> binder_url("https://github.com/o/r", "notebooks/01-a.ipynb")
    'https://mybinder.org/v2/gh/o/r/HEAD?labpath=notebooks%2F01-a.ipynb'
    """
    from urllib.parse import quote

    m = re.match(r"https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$", repository)
    spec = f"gh/{m.group(1)}/{m.group(2)}" if m else f"git/{quote(repository, safe='')}"
    return f"https://mybinder.org/v2/{spec}/HEAD?labpath={quote(notebook, safe='')}"


def version_stamp(root: Path) -> str:
    """``starlib <version>``, with ``, commit <short hash>`` (``-dirty`` if the tree has changes) inside git.

    Parameters
    ----------
    root : Path
        The repository (``starlib/__init__.py`` gives the version; it is read, not imported).

    Returns
    -------
    str
        The stamp; parts that cannot be found are left out.

    Examples
    --------
    >>> version_stamp(Path("/nonexistent"))
    'starlib'
    """
    import subprocess

    init = root / "starlib" / "__init__.py"
    m = re.search(r'^__version__\s*=\s*"([^"]+)"', init.read_text(encoding="utf-8"), flags=re.MULTILINE) \
        if init.is_file() else None
    stamp = f"starlib {m.group(1)}" if m else "starlib"
    try:
        def git(*args: str) -> str:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=True,
                                  timeout=30).stdout.strip()
        if git("rev-parse", "--show-toplevel") and Path(git("rev-parse", "--show-toplevel")).resolve() == \
                root.resolve():
            commit = git("rev-parse", "--short", "HEAD")
            dirty = "-dirty" if git("status", "--porcelain", "--untracked-files=no") else ""
            stamp += f", commit {commit}{dirty}"
    except (OSError, subprocess.SubprocessError):
        pass
    return stamp


def parse_bibtex(text: str) -> list[dict[str, str]]:
    """The entries of a BibTeX file: ``key``, ``type`` and each field, braces and quotes removed.

    Parameters
    ----------
    text : str
        BibTeX; fields delimited by ``{...}`` (nested braces allowed), ``"..."`` or a bare number.

    Returns
    -------
    list of dict
        In file order.

    Raises
    ------
    ValueError
        For an entry whose braces do not close.

    Examples
    --------
    >>> parse_bibtex('@article{k1, title = {The {Slim} Fly}, year = 2014}')
    [{'type': 'article', 'key': 'k1', 'title': 'The Slim Fly', 'year': '2014'}]
    """
    entries = []
    for m in re.finditer(r"@(\w+)\s*\{\s*([^,\s]+)\s*,", text):
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth:
            raise ValueError(f"BibTeX entry {m.group(2)!r}: its braces do not close")
        body, entry, j = text[m.end():i - 1], {"type": m.group(1).lower(), "key": m.group(2)}, 0
        for f in re.finditer(r"(\w+)\s*=\s*", body):
            if f.start() < j:
                continue
            k, value = f.end(), ""
            if body[k:k + 1] in "{\"":
                close, depth, k = {"{": "}", "\"": "\""}[body[k]], 1, k + 1
                start = k
                while k < len(body) and depth:
                    if body[k] == close and (close == "}" or depth == 1):
                        depth -= 1
                    elif body[k] == "{" and close == "}":
                        depth += 1
                    k += 1
                value = body[start:k - 1]
            else:
                value = re.match(r"[^,]*", body[k:]).group(0).strip()
                k += len(value)
            entry[f.group(1).lower()] = latex_text(value)
            j = k
        entries.append(entry)
    return entries


ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "H": "\u030b",
           "v": "\u030c", "c": "\u0327"}


def latex_text(value: str) -> str:
    """A BibTeX field as plain text: accent commands as Unicode letters, braces dropped, spaces collapsed.

    Examples
    --------
    >>> latex_text(r"Erd{\\H{o}}s and {\\v{S}}ir{\\'a}{\\v{n}}, {Slim}  Fly")
    'Erdős and Širáň, Slim Fly'
    """
    import unicodedata

    def accent(m: re.Match) -> str:
        return unicodedata.normalize("NFC", m.group(2) + ACCENTS[m.group(1)])
    value = re.sub(r"\\([\'`^\"~Hvc])\s*\{?(\w)\}?", accent, value)
    return re.sub(r"\s+", " ", value.replace("{", "").replace("}", "")).strip()


def bibliography_markdown(entries: list[dict[str, str]]) -> str:
    """The bibliography page's Markdown: one anchored item per entry, sorted by key.

    Examples
    --------
    >>> print(bibliography_markdown([{"key": "a", "author": "A. B and C. D", "title": "T", "year": "2000",
    ...                               "doi": "10.1/x"}]), end="")
    # References
    <BLANKLINE>
    Cited works of the compendium, from `docs/references.bib`; a citation links here as `references.html#<key>`.
    <BLANKLINE>
    * <a id="a"></a>**[a]** A. B, C. D, "T", 2000, [doi:10.1/x](https://doi.org/10.1/x).
    """
    lines = ["# References", "",
             "Cited works of the compendium, from `docs/references.bib`; a citation links here as "
             "`references.html#<key>`.", ""]
    for e in sorted(entries, key=lambda e: e["key"].lower()):
        parts = [", ".join(a.strip() for a in e.get("author", "").split(" and ") if a.strip()),
                 f'"{e["title"]}"' if "title" in e else "",
                 e.get("journal") or e.get("booktitle") or e.get("institution") or e.get("publisher", ""),
                 " ".join(x for x in (e.get("volume", ""), f"({e['number']})" if "number" in e else "") if x),
                 e.get("pages", "").replace("--", "-"), e.get("year", "")]
        if "doi" in e:
            parts.append(f"[doi:{e['doi']}](https://doi.org/{e['doi']})")
        elif "eprint" in e:
            parts.append(f"[arXiv:{e['eprint']}](https://arxiv.org/abs/{e['eprint']})")
        elif "url" in e:
            parts.append(f"<{e['url']}>")
        lines.append(f'* <a id="{e["key"]}"></a>**[{e["key"]}]** ' + ", ".join(x for x in parts if x) + ".")
    return "\n".join(lines) + "\n"


class _Text(HTMLParser):
    """The visible text of a page's notebook cells (for the search index)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style", "nav", "aside"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "nav", "aside") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def page_text(html: str) -> str:
    """A page's text for searching: everything in ``<main>`` but scripts, styles, navigation and side boxes.

    Examples
    --------
    >>> page_text('<nav>menu</nav><main><nav>x</nav><h1>Star  products</h1><script>s()</script></main>')
    'Star products'
    """
    start = html.find("<main>")
    parser = _Text()
    parser.feed(html[start if start >= 0 else 0:html.rfind("</main>") if "</main>" in html else len(html)])
    parser.close()
    return re.sub(r"\s+", " ", " ".join(parser.parts)).strip()


def _exporter():
    from nbconvert import HTMLExporter

    return HTMLExporter(template_name="lab", extra_template_paths=[str(TEMPLATE_DIR)],
                        template_file="page.html.j2", theme="light")


def _render(exporter, nb, name: str, source_dir: Path, site: dict) -> str:
    resources = {"metadata": {"name": name, "path": str(source_dir)}, "site": site}
    html, _ = exporter.from_notebook_node(nb, resources=resources)
    return html


@dataclass
class _Page:
    """One page to build: where it goes, its title, its source notebook and what the template needs."""

    path: Path
    title: str
    nb: object
    source: Path
    site: dict


def _markdown_notebook(markdown: str, cell_id: str):
    import nbformat

    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(markdown, id=cell_id)])


def build_site(out: Path, root: Path = ROOT) -> list[Path]:
    """Build the site into ``out`` from ``root``'s README, ``docs/*.md``, ``docs/references.bib`` and committed
    notebooks (none is executed).

    Pages, in reading order (the sidebar's order, and that of previous/next): ``index.html`` (the README), the
    ``docs/<name>.html`` pages, ``docs/references.html`` if there is a BibTeX file, then the notebooks. Each
    notebook page offers its ``.ipynb`` for download and a Binder launch link (``repository_url``). Every page
    has the search box, whose index (``_static/search-index.js``) is the text of all pages, and the version stamp.

    Parameters
    ----------
    out : Path
        The site's folder: new, empty, or an earlier site (it has the marker ``.starlib-site``); replaced only
        when the whole build succeeded.
    root : Path
        The repository: ``README.md``, ``notebooks/[0-9]*.ipynb``, optionally ``docs/``, and the files the
        pages show.

    Returns
    -------
    list of Path
        The pages, relative to ``out``, in reading order.

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
    import json

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
    repository, stamp = repository_url(root), version_stamp(root)
    names = [p.stem for p in notebooks]

    pages: list[_Page] = []
    landing = _markdown_notebook(landing_markdown(
        readme, {name: f"notebooks/{name}.html" for name in names},
        lambda cell: link_outputs(cell, root, "")) + SITE_NOTE, "landing")
    pages.append(_Page(Path("index.html"), page_title(landing) or "starlib", landing, root, {"landing": True}))
    for md in sorted((root / "docs").glob("*.md")):
        nb = _markdown_notebook(md.read_text(encoding="utf-8"), md.stem)
        pages.append(_Page(Path("docs", f"{md.stem}.html"), page_title(nb) or md.stem, nb, md.parent, {}))
    bib = root / BIBLIOGRAPHY
    if bib.is_file():
        nb = _markdown_notebook(bibliography_markdown(parse_bibtex(bib.read_text(encoding="utf-8"))), "references")
        pages.append(_Page(Path("docs", "references.html"), "References", nb, bib.parent, {}))
    for path in notebooks:
        nb = nbformat.read(str(path), as_version=4)
        row = rows[path.stem]
        pages.append(_Page(Path("notebooks", f"{path.stem}.html"), page_title(nb) or path.stem, nb, path.parent, {
            "has_code": any(c.cell_type == "code" for c in nb.cells), "item": row.item,
            "outputs": link_outputs(row.outputs, root, "../"), "name": path.stem,
            "download": f"{path.stem}.ipynb",
            "binder": binder_url(repository, f"notebooks/{path.name}") if repository else None}))
    sources = {Path("README.md"): Path("index.html")}
    sources.update({p.source.relative_to(root) / p.path.with_suffix(".md").name: p.path
                    for p in pages if p.path.parts[0] == "docs"})
    sources.update({Path("notebooks", f"{name}.ipynb"): Path("notebooks", f"{name}.html") for name in names})

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        shutil.copytree(Path(mathjax_init).parent / "static", tmp / MATHJAX_DIR)
        for name in ("site.css", "site.js"):
            shutil.copyfile(TEMPLATE_DIR / name, tmp / "_static" / name)
        exporter = _exporter()
        index = []
        for i, page in enumerate(pages):
            up = "../" * (len(page.path.parts) - 1)

            def rel(target: Path, up: str = up) -> str:
                return up + target.as_posix()
            page.nb.metadata["title"] = page.title
            site = dict(page.site, root=up, stamp=stamp, repository=repository,
                        toc=[{"title": p.title, "href": rel(p.path), "current": p is page,
                              "group": p.path.parts[0] if len(p.path.parts) > 1 else ""} for p in pages],
                        prev={"name": pages[i - 1].title, "href": rel(pages[i - 1].path)} if i else None,
                        next={"name": pages[i + 1].title, "href": rel(pages[i + 1].path)}
                        if i + 1 < len(pages) else None)
            html = _render(exporter, page.nb, page.path.stem, page.source, site)
            html = link_pages(html, page.source, page.path, sources, root)
            (tmp / page.path).parent.mkdir(parents=True, exist_ok=True)
            (tmp / page.path).write_text(html, encoding="utf-8")
            index.append({"title": page.title, "href": page.path.as_posix(), "text": page_text(html)})
        (tmp / "_static" / "search-index.js").write_text(
            "// The search index of the reader's site (tools/build_site.py): the text of every page.\n"
            "window.STARLIB_SEARCH = " + json.dumps(index, ensure_ascii=False, indent=0) + ";\n", encoding="utf-8")
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
    return [p.path for p in pages]


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
