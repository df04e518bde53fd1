"""Run one notebook with papermill, headless and deterministic, then strip volatile metadata.

Usage: python tools/run_notebook.py notebooks/01-star-products.ipynb [-p NAME VALUE ...] [--output PATH]
                                    [--timeout SECONDS]

Without ``-p`` the notebook is run in place with its committed parameters (this is how ``make notebooks``
regenerates ``paper_tables/``). With ``-p`` it is a variant run, which must not touch committed files: it needs
``--output`` (another notebook file) and, when the notebook writes tables, ``-p out_dir DIR`` outside
``paper_tables/``. Relative ``out_dir`` values are resolved against the notebook's folder, as the notebooks
themselves do.

Parameter names are checked against the notebook's ``parameters`` cell (papermill only warns about unknown
names; this runner refuses them). VALUE is parsed as a Python literal when it is one (``-p q_max 13``), else kept
as a string. The result is written to a temporary file first and moved into place only when every cell ran, so
a failed run never replaces a notebook. Every error is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ENV = {"MPLBACKEND": "Agg", "PYTHONHASHSEED": "0", "SOURCE_DATE_EPOCH": "0", "TZ": "UTC",
       "JUPYTER_PREFER_ENV_PATH": "1", "TQDM_DISABLE": "1", "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
STRIP_KEYS = ("metadata.papermill cell.metadata.papermill cell.metadata.execution metadata.widgets "
              "metadata.language_info.version")  # the kernel's Python patch release is not an output
ROOT = Path(__file__).resolve().parent.parent
COMMITTED_TABLES = ROOT / "paper_tables"


class RunError(Exception):
    """A problem reported as one line, exit status 2."""


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


def _parse_value(text: str) -> object:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def check_run(nb: Path, out: Path, params: dict[str, object], known: dict) -> None:
    """Refuse a run that would overwrite committed files with a variant (see the module docstring)."""
    for name in params:
        if name not in known:
            raise RunError(f"parameter {name!r} is not in the parameters cell of {nb.name} "
                           f"(known: {', '.join(sorted(known))})")
    if not params:
        return
    if out == nb:
        raise RunError(f"-p {next(iter(params))}: a run with other parameters needs --output PATH (it would "
                       f"overwrite the committed {nb.name})")
    if "out_dir" in known:
        if "out_dir" not in params:
            raise RunError("-p out_dir DIR is needed: without it this variant run would write into the committed "
                           "paper_tables/")
        target = (nb.parent / str(params["out_dir"])).resolve()
        if _inside(target, COMMITTED_TABLES):
            raise RunError(f"out_dir={params['out_dir']!r} is inside the committed paper_tables/: write variant "
                           "outputs elsewhere (for example ../build/tables)")


@contextlib.contextmanager
def _kernel_stderr_to(log: Path):
    """Send file descriptor 2 (where the kernel process writes its warnings) to ``log`` for the duration."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(log, "wb") as f:
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _first_error_line(exc: Exception) -> str:
    ename, evalue = getattr(exc, "ename", type(exc).__name__), getattr(exc, "evalue", str(exc))
    cell = getattr(exc, "exec_count", None)
    where = f"cell {cell}" if cell is not None else "a cell"
    return f"{where} raised {ename}: {str(evalue).splitlines()[0] if evalue else ''}".rstrip(": ")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    ap.add_argument("--output", default=None)
    ap.add_argument("--timeout", type=int, default=1800)

    def fail(message: str) -> None:
        sys.stderr.write(f"error: {message}\n")
        raise SystemExit(2)

    ap.error = fail  # type: ignore[method-assign]
    a = ap.parse_args(argv)
    try:
        return _run(a)
    except RunError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2


def _run(a: argparse.Namespace) -> int:
    import papermill as pm

    nb = Path(a.notebook).resolve()
    if not nb.is_file() or nb.suffix != ".ipynb":
        raise RunError(f"notebook={a.notebook!r} is not a notebook file")
    out = Path(a.output).resolve() if a.output else nb
    params = {name: _parse_value(value) for name, value in a.parameter}
    try:
        known = pm.inspect_notebook(str(nb))
    except Exception as exc:  # not JSON, JSON but no notebook, unreadable: one line, not nbformat's traceback
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise RunError(f"notebook={a.notebook!r} is not a notebook file: {type(exc).__name__}: "
                       f"{first[:120]}{'...' if len(first) > 120 else ''}".rstrip(": ")) from None
    check_run(nb, out, params, known)
    if out.suffix != ".ipynb":
        raise RunError(f"--output={a.output!r} must end in .ipynb")
    os.environ.update(ENV)
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(suffix=".ipynb", prefix=f".{out.stem}.", dir=out.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        try:
            with _kernel_stderr_to(tmp.with_suffix(".log")):
                pm.execute_notebook(str(nb), str(tmp), parameters=params, kernel_name="python3", cwd=str(nb.parent),
                                    execution_timeout=a.timeout, progress_bar=False, log_output=False)
        except pm.PapermillExecutionError as exc:
            raise RunError(f"{nb.name}: {_first_error_line(exc)} (nothing written)") from None
        except Exception as exc:  # the kernel died or timed out: still one line, and nothing written
            raise RunError(f"{nb.name}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''} "
                           "(nothing written)") from None
        merge_streams(tmp)
        subprocess.run([sys.executable, "-m", "nbstripout", "--keep-output", "--keep-count",
                        "--extra-keys", STRIP_KEYS, str(tmp)], check=True)
        tmp.chmod(0o644)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
        tmp.with_suffix(".log").unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
