"""Every package's ``__init__`` lists its modules: a reader meets the whole package in its docstring."""

from __future__ import annotations

import re

import pytest

from tests.paths import ROOT

PACKAGES = sorted(p.parent for p in (ROOT / "starlib").rglob("__init__.py") if "__pycache__" not in p.parts)


def unlisted(package) -> list[str]:
    """The modules of ``package`` (a folder) that its ``__init__`` docstring names by no ``:mod:`` role."""
    text = (package / "__init__.py").read_text(encoding="utf-8")
    named = set(re.findall(r":mod:`[~.]*(?:starlib\.)?(?:[\w.]*\.)?(\w+)`", text))
    named |= set(re.findall(r"^``(\w+)``\s", text, re.M))  # a table row naming its module as a literal
    modules = [p.stem for p in package.glob("*.py") if p.stem != "__init__" and not p.stem.startswith("_")]
    subpackages = [p.parent.name for p in package.glob("*/__init__.py")]
    return sorted(m for m in modules + subpackages if m not in named)


@pytest.mark.parametrize("package", PACKAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_init_lists_every_module(package):
    assert unlisted(package) == [], package
