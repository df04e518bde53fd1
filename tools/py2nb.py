"""Convert a percent-format script into a notebook (a convenience for writing notebooks).

Usage: python tools/py2nb.py SRC.py DEST.ipynb

Cells start with ``# %%`` (code) or ``# %% [markdown]`` (markdown, each line prefixed by ``# ``).
Add tags like ``# %% tags=["parameters"]`` or ``# %% tags=["nbval-ignore-output"]``.
The notebook, not the script, is the committed source; run it with tools/run_notebook.py.
"""

from __future__ import annotations

import json
import re
import sys

import nbformat


def convert(text: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                   "language_info": {"name": "python"}}
    blocks = re.split(r"^# %%(.*)$", text, flags=re.M)
    for head, body in zip(blocks[1::2], blocks[2::2], strict=False):
        tags = []
        m = re.search(r"tags=(\[.*?\])", head)
        if m:
            tags = json.loads(m.group(1))
        body = body.strip("\n")
        if "[markdown]" in head:
            src = "\n".join(line[2:] if line.startswith("# ") else line.lstrip("#") for line in body.splitlines())
            cell = nbformat.v4.new_markdown_cell(src)
        else:
            cell = nbformat.v4.new_code_cell(body)
        if tags:
            cell.metadata["tags"] = tags
        cell.pop("id", None)
        nb.cells.append(cell)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    return nb


if __name__ == "__main__":
    src, dest = sys.argv[1:3]
    with open(src) as f:
        nb = convert(f.read())
    nbformat.write(nb, dest)
