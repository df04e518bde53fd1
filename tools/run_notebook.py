"""Run one notebook in place with papermill, headless and deterministic, then strip volatile metadata.

Usage: python tools/run_notebook.py notebooks/01-star-products.ipynb [-p NAME VALUE ...] [--output PATH]
                                    [--timeout SECONDS]

Parameter names are checked against the notebook's ``parameters`` cell (papermill only warns
about unknown names; this runner refuses them). VALUE is parsed as a Python literal when it
is one (``-p q_max 13``), else kept as a string. Variant runs should use ``--output build/...``.
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
from pathlib import Path

ENV = {"MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "SOURCE_DATE_EPOCH": "0", "TZ": "UTC",
       "JUPYTER_PREFER_ENV_PATH": "1", "TQDM_DISABLE": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
STRIP_KEYS = "metadata.papermill cell.metadata.papermill cell.metadata.execution metadata.widgets"


def merge_streams(path: Path) -> None:
    """Join consecutive stream outputs of the same name (a busy kernel may split one print in two)."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        merged = []
        for o in cell.get("outputs", []):
            if (o.get("output_type") == "stream" and merged and merged[-1].get("output_type") == "stream"
                    and merged[-1]["name"] == o["name"]):
                merged[-1]["text"] += o["text"]
            else:
                merged.append(o)
        if "outputs" in cell:
            cell["outputs"] = merged
    nbformat.write(nb, str(path))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    ap.add_argument("--output", default=None)
    ap.add_argument("--timeout", type=int, default=1800)
    a = ap.parse_args(argv)

    import papermill as pm

    nb = Path(a.notebook).resolve()
    out = Path(a.output).resolve() if a.output else nb
    known = pm.inspect_notebook(str(nb))
    params = {}
    for name, value in a.parameter:
        if name not in known:
            print(f"error: parameter {name!r} is not in the parameters cell of {nb.name} "
                  f"(known: {', '.join(sorted(known))})", file=sys.stderr)
            return 2
        try:
            params[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            params[name] = value
    os.environ.update(ENV)
    out.parent.mkdir(parents=True, exist_ok=True)
    pm.execute_notebook(str(nb), str(out), parameters=params, kernel_name="python3", cwd=str(nb.parent),
                        execution_timeout=a.timeout, progress_bar=False, log_output=False)
    merge_streams(out)
    subprocess.run([sys.executable, "-m", "nbstripout", "--keep-output", "--keep-count",
                    "--extra-keys", STRIP_KEYS, str(out)], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
