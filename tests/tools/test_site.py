"""The reader's site (tools/build_site.py, ``make site``), checked in a real headless Chromium.

Every page (the README, each docs page, the references and each notebook) is reached from the landing page and
opened from a local HTTP server (under a sub-path, as the site may be served from anywhere) and once from disk:
status 200, no console error, no failed or off-site request, no broken image, no link to a missing file, and every
formula rendered by the bundled MathJax with no raw ``$`` left; the search box finds a term and leads to its page.
A separate test plants each fault in a synthetic page and shows that the check reports it. The browser tests skip,
with a message, where Playwright or Chromium is missing (``.ci/run`` installs Debian's Chromium); Playwright never
downloads a browser.
"""

from __future__ import annotations

import contextlib
import doctest
import functools
import http.server
import os
import re
import threading
import time
from pathlib import Path
from urllib.parse import urljoin

import nbformat
import pytest

from tests.paths import ROOT, load_tool

CHROMIUM = os.environ.get("STARLIB_CHROMIUM", "/usr/bin/chromium")  # Debian's; another binary by this variable
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


bs = load_tool("build_site")

# What a page must satisfy once loaded; returns a list of problems (empty when the page is fine).
PAGE_CHECK_JS = r"""
() => {
  const problems = [];
  for (const img of document.images) {
    if (!img.complete || img.naturalWidth === 0) problems.push("broken image " + img.src.slice(0, 100));
  }
  const maths = Array.from(document.querySelectorAll('script[type^="math/tex"]'));
  for (const s of maths) {
    const frame = document.getElementById(s.id + "-Frame");
    if (!frame) problems.push("formula not rendered: " + s.textContent.slice(0, 60));
  }
  for (const e of document.querySelectorAll(".MathJax_Error")) {
    problems.push("MathJax error: " + e.textContent.slice(0, 80));
  }
  // TeX errors (shown as their source by noErrors) and undefined macros (red by noUndefined), in MathJax's tree
  const bad = n => n && (n.type === "merror" || (n.type === "mtext" && n.mathcolor === "red") ||
                         (n.data || []).some(bad));
  for (const jax of (window.MathJax && MathJax.Hub ? MathJax.Hub.getAllJax() : [])) {
    if (bad(jax.root)) problems.push("MathJax error in: " + jax.originalText.slice(0, 60));
  }
  for (const md of document.querySelectorAll(".jp-RenderedMarkdown, .site-item")) {
    const copy = md.cloneNode(true);
    copy.querySelectorAll('script, code, pre, [class^="MathJax"], [id^="MathJax"]').forEach(e => e.remove());
    const m = copy.textContent.match(/.{0,30}\$.{0,30}/);
    if (m) problems.push("raw $ left: " + m[0].replace(/\s+/g, " "));
  }
  return {problems: problems, formulas: maths.length,
          links: Array.from(document.querySelectorAll("a[href]")).map(a => a.getAttribute("href"))};
}
"""

# Resolves once MathJax has typeset the page: "done", "no MathJax", or "timeout" after 20 s. Hub.Queue runs after
# the start-up typesetting; polling isReady first covers a page where MathJax.js is still loading its parts.
MATHJAX_DONE_JS = """
() => new Promise(resolve => {
  const started = Date.now();
  const poll = () => {
    if (!window.MathJax) { resolve("no MathJax"); return; }
    if (Date.now() - started > 20000) { resolve("timeout"); return; }
    if (MathJax.isReady && MathJax.Hub) { MathJax.Hub.Queue(() => resolve("done")); return; }
    setTimeout(poll, 50);
  };
  poll();
})
"""


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (make venv)")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium; STARLIB_CHROMIUM names "
                    "another); the site is not checked in a browser")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@contextlib.contextmanager
def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1 from a thread; yields the base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _open(browser, url: str, allowed: str):
    """Start loading ``url`` in a fresh context that blocks and reports every request outside ``allowed``."""
    context = browser.new_context()
    context.set_default_timeout(30_000)
    page = context.new_page()
    problems: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith(allowed) or r.request.url.startswith("data:"):
            r.continue_()
        else:
            problems.append(f"request outside the site: {r.request.url}")
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url} ({r.failure})"))
    page.on("response", lambda r: problems.append(f"status {r.status}: {r.url}") if r.status >= 400 else None)
    pending: dict[object, str] = {}  # requests in flight, tracked here rather than by Playwright's "networkidle"
    page.on("request", lambda r: pending.__setitem__(r, r.url))
    page.on("requestfinished", lambda r: pending.pop(r, None))
    page.on("requestfailed", lambda r: pending.pop(r, None))
    page.pending = pending
    response = page.goto(url, wait_until="commit")
    if url.startswith("http") and (response is None or response.status != 200):
        problems.append(f"status {None if response is None else response.status} for the page")
    return context, page, problems


SETTLE_S = 90  # generous: two test workers, four pages and a browser share two cores


def _settle(page, quiet_ms: int = 500) -> list[str]:
    """Wait until no request of ``page`` has been open for ``quiet_ms``; the URLs still open after ``SETTLE_S``.

    Playwright's own "networkidle" state is documented as unfit for tests and, seen once, missed a quiet page for
    30 s under load; counting the page's requests and their ends says which request keeps it busy.
    """
    deadline = time.monotonic() + SETTLE_S
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        if page.pending:
            quiet_since = time.monotonic()
        elif (time.monotonic() - quiet_since) * 1000 >= quiet_ms:
            return []
        page.wait_for_timeout(50)  # lets Playwright deliver the page's events
    return sorted(page.pending.values())


def _finish(context, page, problems: list[str]) -> dict:
    """Wait for the page, its maths and the network to settle, then run the checks and close the context."""
    try:
        page.wait_for_load_state("load")
        if page.evaluate(MATHJAX_DONE_JS) == "timeout":
            problems.append("MathJax did not finish within 20 s")
        page.evaluate("() => document.fonts.ready.then(() => true)")  # the fonts the rendered maths asked for
        late = _settle(page)  # and any request they make late is seen
        if late:
            problems.append(f"requests still open after {SETTLE_S} s: {', '.join(late[:3])}")
        result = page.evaluate(PAGE_CHECK_JS)
    finally:
        context.close()
    result["problems"] = problems + result["problems"]
    return result


def check_pages(browser, urls: list[str], allowed: str, at_once: int = 4) -> dict[str, dict]:
    """Open each URL (``at_once`` loading side by side) and check it; requests outside ``allowed`` (a URL
    prefix) are blocked and reported.

    Returns, per URL, the page's problems (status, console errors, failed or blocked requests, broken images,
    formulas not typeset or in error, raw ``$``), its number of formulas and its links.
    """
    results = {}
    for i in range(0, len(urls), at_once):
        opened = [(url, _open(browser, url, allowed)) for url in urls[i:i + at_once]]
        for url, state in opened:
            results[url] = _finish(*state)
    return results


def internal_links(results: dict[str, dict], top: str) -> list[str]:
    """Every link of the checked pages that stays inside the site at ``top``, relative to it, without fragments."""
    links = {urljoin(url, href).split("#")[0] for url, r in results.items() for href in r["links"]}
    return sorted(u[len(top):] for u in links if u.startswith(top))


def missing_files(links: list[str], out: Path) -> list[str]:
    """The problems of links (relative to the site ``out``) that name no file of the site."""
    return [f"link to a missing file: {rel}" for rel in links if not (out / rel).is_file()]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, list[Path]]:
    """The site built from this repository, deep inside a served folder (``/compendium/v1/site/``)."""
    www = tmp_path_factory.mktemp("www")
    out = www / "compendium" / "v1" / "site"
    return out, bs.build_site(out)


def test_every_page_of_the_site_in_chromium(browser, site):
    out, pages = site
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9]*.ipynb"))
    docs = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert pages == [Path("index.html")] + [Path("docs", f"{d}.html") for d in docs] + \
        [Path("docs", "references.html")] + [Path("notebooks", f"{n}.html") for n in notebooks]
    rows = bs.notebook_map((ROOT / "README.md").read_text(encoding="utf-8"))
    with_math = {p.stem for p in (ROOT / "notebooks").glob("[0-9]*.ipynb")
                 if any("$" in c.source for c in nbformat.read(str(p), as_version=4).cells
                        if c.cell_type == "markdown")}
    with serve(out.parent.parent.parent) as base:
        top = urljoin(base, "compendium/v1/site/")
        seen: dict[str, dict] = {}
        todo = [urljoin(top, "index.html")]
        while todo:  # crawl from the landing page: every page must be reachable
            seen.update(check_pages(browser, todo, base))
            todo = sorted({target for url in todo for href in seen[url]["links"]
                           for target in [urljoin(url, href).split("#")[0]]
                           if target.startswith(top) and target.endswith(".html") and target not in seen})
        problems = [f"{url[len(top):]}: {p}" for url, r in sorted(seen.items()) for p in r["problems"]]
        internal = internal_links(seen, top)
        problems += missing_files(internal, out)
        assert not problems, "\n".join(problems)
        assert sorted(u[len(top):] for u in seen) == sorted(str(p) for p in pages)
        assert len(internal) > len(pages) + len(notebooks)  # downloads and output files are linked too
        assert all(f"notebooks/{n}.ipynb" in internal for n in notebooks)

        index = seen[urljoin(top, "index.html")]
        linked = [h for h in index["links"] if h.startswith("notebooks/")]
        assert sorted(set(linked)) == [f"notebooks/{r.notebook}.html" for r in rows] == \
            [f"notebooks/{n}.html" for n in notebooks]
        for name in notebooks:
            formulas = seen[urljoin(top, f"notebooks/{name}.html")]["formulas"]
            assert (formulas > 0) == (name in with_math), (name, formulas)
        for page in pages:  # the sidebar lists every page, the stamp names the version
            assert sum(urljoin(top, href) == urljoin(top, str(page))
                       for href in seen[urljoin(top, "index.html")]["links"]) >= 1, page

        # Search: a query lists the pages that have its words; following a hit opens that page.
        context = browser.new_context()
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else r.abort())
        page.goto(urljoin(top, f"notebooks/{notebooks[-1]}.html"))
        assert "starlib " in page.inner_text(".site-sidebar .site-stamp")
        page.fill("#site-search", "Bollobás labelled")
        hits = page.locator("#site-search-results a.site-search-hit")
        hits.first.wait_for()
        assert "../docs/references.html" in [hits.nth(i).get_attribute("href") for i in range(hits.count())]
        words = ("matroid", "partition")
        expected = {f"../docs/{d}.html" for d in docs
                    if all(w in (ROOT / "docs" / f"{d}.md").read_text(encoding="utf-8").lower() for w in words)}
        page.fill("#site-search", " ".join(words))
        found = {hits.nth(i).get_attribute("href") for i in range(hits.count())}
        assert expected and expected <= found, (expected, found)
        target = sorted(expected)[0]
        page.click(f'#site-search-results a[href="{target}"]')
        page.wait_for_load_state("load")
        assert page.url == urljoin(urljoin(top, f"notebooks/{notebooks[-1]}.html"), target)
        context.close()

        # The "hide code" switch hides the code and keeps the argument, on this page and the next one.
        context = browser.new_context()
        page = context.new_page()
        page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base) else r.abort())
        page.goto(urljoin(top, f"notebooks/{notebooks[0]}.html"))
        code = page.locator(".jp-CodeCell .jp-Cell-inputWrapper").first
        prose = page.locator(".jp-MarkdownCell").first
        assert code.is_visible() and prose.is_visible()
        page.check("#site-hide-code")
        assert not code.is_visible() and prose.is_visible()
        page.click("a.site-next >> nth=0")
        page.wait_for_load_state("load")
        assert page.is_checked("#site-hide-code")
        assert not page.locator(".jp-CodeCell .jp-Cell-inputWrapper").first.is_visible()
        context.close()

    # Opened from disk, without a server: the same checks, on the landing page and the page with most formulas.
    busiest = max(notebooks, key=lambda n: seen[urljoin(top, f"notebooks/{n}.html")]["formulas"])
    from_disk = check_pages(browser, [(out / rel).as_uri() for rel in ("index.html", f"notebooks/{busiest}.html")],
                            out.as_uri())
    assert not [r["problems"] for r in from_disk.values() if r["problems"]], from_disk


def test_the_page_check_catches_each_fault(browser, tmp_path):
    """A page of a site built from a synthetic repository, clean and then with one fault planted per copy: the
    check above passes the clean page and reports each fault."""
    repo = _mini_repo(tmp_path / "repo", ["01-a"], "# 1. A page\nwith $q^2 + q + 1$ and ![a figure](f.png)")
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(1, 1))
    fig.savefig(repo / "notebooks" / "f.png")
    plt.close(fig)
    out = tmp_path / "site"
    bs.build_site(out, repo)
    clean = (out / "notebooks" / "01-a.html").read_text(encoding="utf-8")
    assert clean.count("</main>") == 1 and "MathJax.js?" in clean
    faults = {
        "broken_image": ('<img src="missing.png">', "status 404: "),
        "console_error": ('<script>console.error("planted");</script>', "console error: planted"),
        "script_error": ("<script>undefinedFunction();</script>", "page error: undefinedFunction is not defined"),
        "off_site": ('<img src="http://192.0.2.1/x.png">', "request outside the site: http://192.0.2.1/x.png"),
        "raw_math": ('<div class="jp-RenderedMarkdown tex2jax_ignore"><p>left as $x$</p></div>', "raw $ left"),
        "tex_error": ("<p>$\\frac{1}{$</p>", "MathJax error in: \\frac{1}{"),
        "undefined_macro": ("<p>$\\notamacro x$</p>", "MathJax error in: \\notamacro x"),
        "zero_size_image": ('<img src="data:image/png;base64,">', "broken image data:image/png"),
        "missing_link": ('<a href="missing.csv">a table</a>', ""),  # reported by missing_files
    }
    for name, (snippet, _) in faults.items():
        (out / "notebooks" / f"{name}.html").write_text(clean.replace("</main>", snippet + "</main>"))
    with serve(out) as base:
        checked = check_pages(browser, [urljoin(base, f"notebooks/{name}.html") for name in ["01-a", *faults]], base)
        results = {url.rsplit("/", 1)[1][:-5]: result for url, result in checked.items()}
        links = internal_links(checked, base)
    assert results["01-a"]["problems"] == [] and results["01-a"]["formulas"] == 1
    assert missing_files(links, out) == ["link to a missing file: notebooks/missing.csv"]
    for name, (_, report) in [(n, f) for n, f in faults.items() if n != "missing_link"]:
        assert any(report in p for p in results[name]["problems"]), (name, results[name]["problems"])


def test_builder_doctests():
    failures, tried = doctest.testmod(bs, optionflags=doctest.ELLIPSIS)
    assert tried >= 6 and failures == 0


def _mini_repo(root: Path, readme_rows: list[str], markdown: str = "# 1. A notebook\nwith $x^2$") -> Path:
    """A repository with a README map and one notebook per row name, each with one Markdown and one code cell."""
    (root / "notebooks").mkdir(parents=True)
    table = ["| paper item | notebook | output files (`paper_tables/`) | time |", "|---|---|---|---|"]
    table += [f"| item {n} | `{n}` | `t{n}` | 1 s |" for n in readme_rows]
    (root / "README.md").write_text("# Mini\n\nIntro.\n\n## What regenerates what\n\n" + "\n".join(table) + "\n")
    for name in readme_rows:
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(markdown),
                                             nbformat.v4.new_code_cell("print(1)")])
        nbformat.write(nb, str(root / "notebooks" / f"{name}.ipynb"))
    return root


def test_builder_copies_what_pages_show_links_notebooks_and_repeats_its_bytes(tmp_path):
    md = ("# 1. First\n![f](../paper_tables/figures/f.png) and [the other one](02-b.ipynb#Top), "
          "[outside](https://example.org/x)")
    repo = _mini_repo(tmp_path / "repo", ["01-a", "02-b"], md)
    (repo / "paper_tables" / "figures").mkdir(parents=True)
    (repo / "paper_tables" / "figures" / "f.png").write_bytes(b"\x89PNG")
    pages = bs.build_site(tmp_path / "s1", repo)
    assert pages == [Path("index.html"), Path("notebooks/01-a.html"), Path("notebooks/02-b.html")]
    page = (tmp_path / "s1" / "notebooks" / "01-a.html").read_text()
    assert 'href="02-b.html#Top"' in page and "02-b.ipynb" not in page and 'href="https://example.org/x"' in page
    assert "mybinder" not in page and "site-binder" not in page  # no CITATION.cff: no guessed address, no line
    assert (tmp_path / "s1" / "paper_tables" / "figures" / "f.png").read_bytes() == b"\x89PNG"
    index = (tmp_path / "s1" / "index.html").read_text()
    assert '<a href="notebooks/01-a.html"><code>01-a</code></a>' in index and "item 02-b" in index
    bs.build_site(tmp_path / "s2", repo)
    for f in sorted(p for p in (tmp_path / "s1").rglob("*") if p.is_file()):
        assert f.read_bytes() == (tmp_path / "s2" / f.relative_to(tmp_path / "s1")).read_bytes(), f
    bs.build_site(tmp_path / "s1", repo)  # an earlier site is replaced


def test_builder_adds_docs_references_search_and_links_between_pages(tmp_path):
    repo = _mini_repo(tmp_path / "repo", ["01-a"], "# 1. First\nSee [the docs](../docs/guide.md#usage).")
    (repo / "CITATION.cff").write_text("cff-version: 1.2.0\nrepository-code: \"https://github.com/o/r\"\n")
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text("# A guide\nBack to [the notebook](../notebooks/01-a.ipynb) and "
                                            "[home](../README.md); $q^2$ and zanzibarword.\n")
    (repo / "docs" / "references.bib").write_text("@book{b1, author = {Erd{\\H{o}}s, P.}, title = {T}, year = 1}")
    (repo / "paper_tables").mkdir()
    (repo / "paper_tables" / "t01-a.csv").write_text("x\n")
    pages = bs.build_site(tmp_path / "s", repo)
    assert pages == [Path("index.html"), Path("docs/guide.html"), Path("docs/references.html"),
                     Path("notebooks/01-a.html")]
    site = tmp_path / "s"
    nb, guide = (site / "notebooks/01-a.html").read_text(), (site / "docs/guide.html").read_text()
    assert 'href="../docs/guide.html#usage"' in nb and 'download="" href="01-a.ipynb"' in nb
    assert (site / "notebooks/01-a.ipynb").is_file()
    assert "mybinder.org/v2/gh/o/r/HEAD?labpath=notebooks%2F01-a.ipynb" in nb
    assert 'href="../paper_tables/t01-a.csv"' in nb and (site / "paper_tables/t01-a.csv").is_file()
    assert 'href="../notebooks/01-a.html"' in guide and 'href="../index.html"' in guide
    assert 'id="b1"' in (site / "docs/references.html").read_text() and "Erdős" in \
        (site / "docs/references.html").read_text()
    index = (site / "_static/search-index.js").read_text()
    assert "zanzibarword" in index and '"href": "docs/guide.html"' in index
    for page in pages:  # every page has the sidebar with every page, and previous/next in reading order
        html = (site / page).read_text()
        assert html.count('id="site-search"') == 1 and all(p.name in html for p in pages)


@pytest.mark.parametrize("case, message", [
    ("unlisted", r"notebooks \['02-b'\] are not in the README's 'What regenerates what' table"),
    ("no notebook", r"notebook\(s\) \['03-c'\] have no notebooks/<name>.ipynb"),
    ("broken link", r"notebooks/01-a.html: src='\.\./paper_tables/missing.png' points at nothing"),
    ("network", r"notebooks/01-a.html: <img src='https://example.org/x.png'> would load from the network"),
    ("not a site", r"exists and is not a site built by tools/build_site.py"),
    ("no map", r"README: no section '## What regenerates what'"),
])
def test_builder_refuses(tmp_path, case, message):
    md = {"broken link": "# A\n![x](../paper_tables/missing.png)",
          "network": '# A\n<img src="https://example.org/x.png">'}.get(case, "# A")
    repo = _mini_repo(tmp_path / "repo", ["01-a", "02-b"], md)
    out = tmp_path / "site"
    if case == "unlisted":
        readme = (repo / "README.md").read_text()
        (repo / "README.md").write_text("\n".join(x for x in readme.splitlines() if "02-b" not in x))
    elif case == "no notebook":
        readme = (repo / "README.md").read_text()
        (repo / "README.md").write_text(readme + "| item 03 | `03-c` | `t` | 1 s |\n")
    elif case == "not a site":
        out.mkdir()
        (out / "notes.txt").write_text("mine")
    elif case == "no map":
        (repo / "README.md").write_text("# Mini\n")
    with pytest.raises(ValueError, match=message):
        bs.build_site(out, repo)
    if case == "not a site":
        assert (out / "notes.txt").read_text() == "mine"
    else:
        assert not out.exists() and not [p for p in tmp_path.iterdir() if p.name.startswith(".site")]


def test_every_notebook_title_is_numbered_as_its_file_and_plain_text():
    for path in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        title = bs.page_title(nbformat.read(str(path), as_version=4))
        assert title.startswith(f"{int(path.name[:2])}. "), (path.name, title)  # "9. ...", not "09 — ..."
        assert not re.search(r"[$\\{}]", title), (path.name, title)  # no TeX in a sidebar, a tab or the index
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(r"# 3. $\lfloor n/2 \rfloor$ trees of "
                                                                        r"$\mathrm{ER}_q$, $k \le 5$")])
    assert bs.page_title(nb) == "3. \u230an/2\u230b trees of ER_q, k \u2264 5"


def test_make_site_installs_only_the_site_extra():
    import subprocess
    import tomllib

    dry = subprocess.run(["make", "-n", "-B", "site"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    assert "-r requirements.txt" not in dry.stdout  # not the whole locked environment of make venv
    install = next(line for line in dry.stdout.splitlines() if "pip install" in line)
    assert "-c requirements.txt" in install and '["optional-dependencies"]["site"]' in install
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["site"]
    assert {"nbconvert", "nbformat", "jupyter-server-mathjax"} <= {re.split(r"[<>=!]", r)[0] for r in extra}
