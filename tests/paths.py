"""The repository's root, for tests that read its files (notebooks, docs, data, the package source)."""

from pathlib import Path

#: The repository (the folder that holds ``starlib/``, ``notebooks/`` and ``tests/``).
ROOT = Path(__file__).resolve().parent.parent
