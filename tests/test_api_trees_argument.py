"""The public functions that take trees name the ``trees`` argument when it is no sequence of trees (None, a
number, a text) or a tree that is no pairs of integers, instead of a bare ``TypeError`` from deep inside."""

from __future__ import annotations

import pytest

import starlib

G = starlib.network("torus", sizes="3,3")
FAIL = ["[0,0]-[0,1]"]

CASES = [
    ("repair, None", lambda: starlib.repair(G, None, FAIL), TypeError, "trees=None is not a sequence of trees"),
    ("repair, a number", lambda: starlib.repair(G, 5, FAIL), TypeError, "trees=5 is not a sequence of trees"),
    ("repair, a text", lambda: starlib.repair(G, "abc", FAIL), TypeError, "trees='abc' is not a sequence of trees"),
    ("repair, a dict", lambda: starlib.repair(G, {}, FAIL), TypeError, "trees={} is not a sequence of trees"),
    ("repair, a tree of text", lambda: starlib.repair(G, ["ab"], FAIL), ValueError, "trees[0]"),
    ("repair, a tree of floats", lambda: starlib.repair(G, [[[0.5, 1.0]]], FAIL), ValueError,
     "trees[0]: vertex indices must be integers"),
    ("export, a number", lambda: starlib.export("unused.json", G, 5), TypeError,
     "trees=5 is not a sequence of trees"),
    ("edsts, g_trees a number", lambda: starlib.edsts(G, g_trees=5), TypeError,
     "g_trees=5 is not a sequence of trees"),
    ("verify, None", lambda: starlib.verify(G, None), TypeError, "trees=None is not a sequence of trees"),
    ("verify, graph None", lambda: starlib.verify(None, []), TypeError, "graph=None is not a graph"),
]


@pytest.mark.parametrize("name, call, kind, words", CASES, ids=[c[0] for c in CASES])
def test_the_trees_argument_is_named(name, call, kind, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(kind) as info:
        call()
    assert words in str(info.value), (name, str(info.value))
    assert list(tmp_path.iterdir()) == []  # export refused before writing
