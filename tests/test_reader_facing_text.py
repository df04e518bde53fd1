"""The project speaks to a reader: no issue numbers and no rounds of review, which its readers cannot follow.

Every text file git tracks under the library, the tests, the tools, the benchmarks, the docs and the notebooks, and
the README and the changelog, is searched for the word issue followed by a number (with or without ``#``), and for
a numbered round (second to fourth) or a round of a review. The planted examples below are put together at run
time, so that this file passes its own search.
"""

from __future__ import annotations

import re
import subprocess

from tests.paths import ROOT

#: What a reader cannot follow.
LEAKS = re.compile(r"\bissues? #?\d+|\b(?:second|third|fourth)\s+round\b|\breview\s+rounds?\b", re.I)

#: A number after the word, and a round after its ordinal, joined only when the tests run.
ISSUE, ROUND = "issue", " round"

FOLDERS = ("starlib", "tests", "tools", "benchmarks", "docs", "notebooks")


def leaks(text: str) -> list[str]:
    """The phrases of ``text`` that cite an issue or a round of review.

    >>> leaks(f"fixed in {ISSUE} 27, second{ROUND}; the issue's command") == [f"{ISSUE} 27", f"second{ROUND}"]
    True
    """
    return [m.group(0) for m in LEAKS.finditer(text)]


def test_no_file_cites_an_issue_or_a_review_round():
    files = subprocess.run(["git", "ls-files", *FOLDERS, "README.md", "CHANGELOG.md"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    found = {}
    for name in files:
        if name.endswith((".py", ".md", ".ipynb", ".txt", ".cfg", ".toml", ".tex", ".bib")):
            hits = leaks((ROOT / name).read_text(encoding="utf-8", errors="replace"))
            if hits:
                found[name] = hits[:3]
    assert not found, found


def test_the_search_finds_a_planted_citation():
    assert leaks(f"Targets ({ISSUE} 7): fast") == [f"{ISSUE} 7"]
    cited = f"{ISSUE.title()} #27"
    assert leaks(f"the sweep under stress ({cited}, third{ROUND})") == [cited, f"third{ROUND}"]
    assert leaks("the issue's command; a round trip") == []
