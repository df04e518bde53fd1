"""The repository's root, for tests that read its files (notebooks, docs, data, the package source)."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

#: The repository (the folder that holds ``starlib/``, ``notebooks/`` and ``tests/``).
ROOT = Path(__file__).resolve().parent.parent


def load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` (the tools are scripts, not a package) as the module ``tools_<name>``."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module
