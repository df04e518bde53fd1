"""The project speaks to a reader: no issue numbers or review rounds, which a reader of the compendium cannot follow.

Every text file git tracks under the library, the tests, the tools, the benchmarks, the docs and the notebooks, and
the README and the changelog, is searched for ``issue 27``, ``issue #27``, ``second round`` and ``review round``.
"""

from __future__ import annotations

import re
import subprocess

from tests.paths import ROOT

#: What a reader cannot follow.
LEAKS = re.compile(r"\bissues? #?\d+|\b(?:second|third|fourth) round\b|\breview rounds?\b", re.I)

FOLDERS = ("starlib", "tests", "tools", "benchmarks", "docs", "notebooks")


def leaks(text: str) -> list[str]:
    """The phrases of ``text`` that cite an issue or a review round.

    >>> leaks("fixed in issue 27, second round; the issue's command")
    ['issue 27', 'second round']
    """
    return [m.group(0) for m in LEAKS.finditer(text)]


def test_no_file_cites_an_issue_or_a_review_round():
    files = subprocess.run(["git", "ls-files", *FOLDERS, "README.md", "CHANGELOG.md"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    found = {}
    for name in files:
        if name.endswith((".py", ".md", ".ipynb", ".txt", ".cfg", ".toml", ".tex", ".bib")):
            hits = leaks((ROOT / name).read_text(encoding="utf-8", errors="replace"))
            if hits and name != "tests/test_reader_facing_text.py":
                found[name] = hits[:3]
    assert not found, found


def test_the_search_finds_a_planted_citation():
    assert leaks("Targets (issue 7): fast") == ["issue 7"]
    assert leaks("the sweep under stress (Issue #27, third round)") == ["Issue #27", "third round"]
    assert leaks("the issue's command; a round trip") == []
