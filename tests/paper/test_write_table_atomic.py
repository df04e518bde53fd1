"""write_table writes every file atomically: the same bytes as before, each file replaced whole, every
target checked before the first is replaced, and a file the system refuses reported as a ValueError naming it."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pandas as pd
import pytest

import starlib.io.atomic as atomic
import starlib.paper.tables as tables
from starlib.io.atomic import OutputError
from starlib.paper.table_notes import Column, TableNote
from starlib.paper.tables import write_table

#: a condensed note (an audit column): write_table writes a fourth file, NAME_full.tex
NOTE = TableNote("Ratios of $q$ with é and ≤.",
                 {"q": Column("prime power", tex="$q$"), "ratio": Column("a ratio", decimals=2),
                  "name": Column("a name"), "checked": Column("yes if checked")}, audit=("checked",))
OLD = b"the previous table\n"


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"q": [3, 5, 7], "ratio": [0.5, 1.0, 1 / 3], "name": ["a_b", "c, d", "é ≤ x"],
                         "checked": [True, False, True]})


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_bytes_are_those_write_text_gave(tmp_path, monkeypatch):
    """The atomic path against the former one (Path.write_text(text, encoding='utf-8')), file by file."""
    new = write_table(_frame(), "t", tmp_path / "new", note=NOTE)
    assert [p.name for p in new] == ["t.csv", "t.md", "t.tex", "t_full.tex"]

    def write_text(path, data, name="path", **_):
        Path(path).write_text(data.decode("utf-8"), encoding="utf-8")  # a plain, non-atomic write, for comparison
        return Path(path)

    monkeypatch.setattr(tables, "atomic_write", write_text)
    write_table(_frame(), "t", tmp_path / "old", note=NOTE)
    before, after = _files(tmp_path / "old"), _files(tmp_path / "new")
    assert before == after and len(after) == 4
    assert "é ≤".encode() in after["t.csv"] and b"\r" not in after["t.md"]


def test_every_file_goes_through_the_atomic_write(tmp_path, monkeypatch):
    for suffix in (".csv", ".md", ".tex", "_full.tex"):
        (tmp_path / f"t{suffix}").write_bytes(OLD)
    replaced = []

    def refuse(src, dst):
        replaced.append(Path(dst).name)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic.os, "replace", refuse)
    with pytest.raises(OutputError, match=r"out_dir='.*/t.csv': cannot replace the file \(No space left on device\)"):
        write_table(_frame(), "t", tmp_path, note=NOTE)
    assert replaced == ["t.csv"]
    assert set(_files(tmp_path).values()) == {OLD} and len(_files(tmp_path)) == 4  # no temporary file left
    monkeypatch.undo()
    write_table(_frame(), "t", tmp_path, note=NOTE)
    assert OLD not in _files(tmp_path).values() and len(_files(tmp_path)) == 4


def test_a_read_only_file_is_refused_before_any_file_is_replaced(tmp_path):
    for suffix in (".csv", ".md", ".tex", "_full.tex"):
        (tmp_path / f"t{suffix}").write_bytes(OLD)
    os.chmod(tmp_path / "t_full.tex", 0o444)
    with pytest.raises(ValueError, match=r"out_dir='.*/t_full.tex' is read-only \(mode 0444\); make it writable"):
        write_table(_frame(), "t", tmp_path, note=NOTE)
    assert set(_files(tmp_path).values()) == {OLD}  # t.csv, the first, untouched too
    assert stat.S_IMODE((tmp_path / "t_full.tex").stat().st_mode) == 0o444


def test_modes_are_kept_and_a_file_in_the_way_of_the_folder_is_named(tmp_path):
    (tmp_path / "t.csv").write_bytes(OLD)
    os.chmod(tmp_path / "t.csv", 0o640)
    write_table(_frame(), "t", tmp_path, note=NOTE)
    assert stat.S_IMODE((tmp_path / "t.csv").stat().st_mode) == 0o640
    (tmp_path / "plain").write_bytes(OLD)
    folder = r"out_dir='.*/plain/sub': cannot create the folder \((File exists|Not a directory)\)"
    with pytest.raises(ValueError, match=folder):
        write_table(_frame(), "t", tmp_path / "plain" / "sub", note=NOTE)
