"""Run one notebook with papermill, headless and deterministic, then strip volatile metadata.

Usage: python tools/run_notebook.py notebooks/01-star-products.ipynb [-p NAME VALUE ...] [--output PATH]
                                    [--timeout SECONDS]

Without ``-p`` the notebook is run in place with its committed parameters (this is how ``make notebooks``
regenerates ``paper_tables/``). With ``-p`` it is a variant run, which must not touch committed files: it needs
``--output`` (another notebook file) and, when the notebook writes tables, ``-p out_dir DIR``. Every path a run
writes (``--output`` unless it is the notebook itself, and a variant's ``out_dir``) must be outside this repository
or inside a folder git ignores (``build/``); the check is on the real path (symlinks and ``..`` resolved) and is
made before papermill starts. Relative ``out_dir`` values are resolved against the notebook's folder, as the
notebooks themselves do.

Parameter names are checked against the notebook's ``parameters`` cell (papermill only warns about unknown
names; this runner refuses them). VALUE is parsed as a Python literal (``-p q_max 13``); where the committed
value is text, VALUE is kept as text. A value that is not a literal, or not of the committed value's kind (a
number for a number, a list for a list, True/False for a flag), is refused. ``--timeout`` is whole seconds from 1
to a week. The result is written to a temporary file first and moved into place only when every cell ran; a run
that fails, or is stopped by Ctrl-C or SIGTERM, leaves nothing behind: the folders it created are removed, and so
are the files it added to an existing ``out_dir`` (the ones it changed there are restored). Every error is one line
on standard error and exit status 2 (130 after Ctrl-C, 143 after SIGTERM).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import shutil
import signal
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
REPO = ROOT  # the repository whose tracked files a run must not write


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


SHARED = {Path(p).resolve() for p in ("/", "/tmp", "/var/tmp", tempfile.gettempdir(), Path.home())}
MAX_TIMEOUT = 7 * 24 * 3600  # a week: longer is a typo, not a run


class Interrupted(BaseException):
    """SIGTERM (or SIGHUP) arrived: unwind like Ctrl-C, so the run's files are removed on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _parse_value(name: str, text: str, known: dict) -> object:
    """``text`` as the value of parameter ``name``: a Python literal of the committed value's kind, or text where
    the committed value is text (see the module docstring)."""
    try:
        default = ast.literal_eval(str(known.get(name, {}).get("default", "")).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        default = None  # an expression: no kind to compare with
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        if isinstance(default, str) or name not in known:
            return text
        raise RunError(f"-p {name} {_short(text)}: the value is not a Python literal (the committed value is "
                       f"{_short(known[name]['default'])}; quote text as '\"...\"')") from None
    if isinstance(default, str) and not isinstance(value, str):
        return text  # -p out_dir 5: the folder "5"
    kinds = ((bool, (bool,), "True or False"), (int, (int,), "an integer"), (float, (int, float), "a number"),
             ((list, tuple), (list, tuple), "a list"), (dict, (dict,), "a dict"))
    for kind, accepted, what in kinds:
        if isinstance(default, kind):
            ok = isinstance(value, accepted) and (kind is bool or not isinstance(value, bool))
            if not ok:
                raise RunError(f"-p {name} {_short(text)}: need {what}, like the committed value "
                               f"{_short(known[name]['default'])}")
            break
    return value


def _short(text: object, limit: int = 40) -> str:
    r = repr(text) if not isinstance(text, str) else text
    return r if len(r) <= limit else f"{r[:limit - 3]}..."


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _ignored_by_git(path: Path) -> bool:
    """True if ``path`` (inside the repository) is in a folder git ignores and is not tracked."""
    try:
        p = subprocess.run(["git", "-C", str(REPO), "check-ignore", "-q", str(path)], capture_output=True,
                           timeout=60)
    except (OSError, subprocess.SubprocessError):
        return False  # no git: nothing inside the repository is known to be safe
    return p.returncode == 0


def check_writable(what: str, given: object, path: Path, *, folder: bool) -> None:
    """Refuse a path a run would write that is committed (see the module docstring), or of the wrong kind.

    ``path`` is resolved (symlinks followed); ``folder``: the path is a folder (``out_dir``), else a file.
    """
    if _inside(path, REPO / ".git") or (_inside(path, REPO) and not _ignored_by_git(path)):
        where = path.relative_to(REPO).as_posix() if path != REPO else "."
        raise RunError(f"{what}={_short(given)} is {where} in this repository, which git tracks: a run writes "
                       f"outside the repository or in a folder git ignores (for example build/)")
    if folder and path in SHARED:
        raise RunError(f"{what}={_short(given)} is a shared folder ({path}): name a folder of the run's own "
                       f"inside it, which a failed run can remove")
    if folder and path.exists() and not path.is_dir():
        raise RunError(f"{what}={_short(given)} is a file: need a folder (it is created if missing)")
    if not folder and path.is_dir():
        raise RunError(f"{what}={_short(given)} is a folder: need a notebook file path ending in .ipynb")
    for up in (path if folder else path.parent, *(path if folder else path.parent).parents):
        if up.exists():
            if not up.is_dir():
                raise RunError(f"{what}={_short(given)} lies under {up}, which is a file, not a folder")
            break


def check_run(nb: Path, out: Path, params: dict[str, object], known: dict, *, output_given: bool = True) -> None:
    """Refuse a run that would overwrite committed files with a variant (see the module docstring)."""
    for name in params:
        if name not in known:
            raise RunError(f"parameter {name!r} is not in the parameters cell of {nb.name} "
                           f"(known: {', '.join(sorted(known))})")
    if out != nb and output_given:
        check_writable("--output", str(out), out, folder=False)
    if not params:
        return
    if out == nb:
        if output_given:
            raise RunError(f"--output is the notebook {nb.name} itself: a run with other parameters must write "
                           f"another file")
        raise RunError(f"-p {next(iter(params))}: a run with other parameters needs --output PATH (it would "
                       f"overwrite the committed {nb.name})")
    if "out_dir" in known:
        if "out_dir" not in params:
            raise RunError("-p out_dir DIR is needed: without it this variant run would write into the committed "
                           "paper_tables/")
        target = out_dir_path(nb, params["out_dir"])
        if _inside(target, COMMITTED_TABLES):
            raise RunError(f"out_dir={params['out_dir']!r} is inside the committed paper_tables/: write variant "
                           "outputs elsewhere (for example ../build/tables)")
        check_writable("out_dir", params["out_dir"], target, folder=True)


def out_dir_path(nb: Path, value: object) -> Path:
    """The real path of ``out_dir`` as the notebook sees it (relative to its folder)."""
    text = str(value)
    if not text.strip():
        raise RunError(f"out_dir={text!r} is empty: need a folder")
    return (nb.parent / os.path.expanduser(text)).resolve()


class Cleanup:
    """What a run adds to the file system, so that a failed or stopped run removes it.

    Records, before the run, the first missing folder above each target (the folders the run will create) and,
    for an existing ``out_dir``, its files (a copy of each, to restore the ones the run changes).
    """

    BACKUP_LIMIT = 256 * 2**20  # bytes of an existing out_dir copied for restoring; above that, only new files go

    def __init__(self) -> None:
        self.created: list[Path] = []
        self.folders: list[tuple[Path, dict[Path, tuple[int, int]], Path | None]] = []

    def watch_created(self, folder: Path) -> bool:
        """Record the first missing folder above ``folder`` (and itself); True if ``folder`` already exists."""
        missing = [p for p in (folder, *folder.parents) if not p.exists()]
        if missing:
            self.created.append(missing[-1])
        return not missing

    def watch_folder(self, folder: Path) -> None:
        """As :meth:`watch_created`, and for an existing folder its files, to undo what the run adds or changes."""
        if not self.watch_created(folder):
            return
        files = {f: (st.st_size, st.st_mtime_ns) for f in folder.rglob("*")
                 if f.is_file() and not f.is_symlink() for st in [f.stat()]}
        backup = None
        if sum(s for s, _ in files.values()) <= self.BACKUP_LIMIT and files:
            backup = Path(tempfile.mkdtemp(prefix="run_notebook_backup."))
            for f in files:
                dest = backup / f.relative_to(folder)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, dest)
        self.folders.append((folder, files, backup))

    def undo(self) -> None:
        for top in self.created:
            if top.is_dir() and not top.is_symlink():
                shutil.rmtree(top, ignore_errors=True)
            elif top.exists() or top.is_symlink():
                top.unlink(missing_ok=True)
        for folder, files, backup in self.folders:
            if not folder.is_dir():
                continue
            for f in sorted(folder.rglob("*"), key=lambda q: len(q.parts), reverse=True):
                if f in files:
                    st = f.stat()
                    if (st.st_size, st.st_mtime_ns) != files[f] and backup is not None:
                        shutil.copy2(backup / f.relative_to(folder), f)
                elif f.is_dir() and not f.is_symlink():
                    if not any(g in files for g in files if f in g.parents):
                        shutil.rmtree(f, ignore_errors=True)
                else:
                    f.unlink(missing_ok=True)

    def close(self) -> None:
        for _, _, backup in self.folders:
            if backup is not None:
                shutil.rmtree(backup, ignore_errors=True)


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


def _timeout(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not 1 <= value <= MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"{_short(text)!r} is not whole seconds from 1 to {MAX_TIMEOUT} (a week)")
    return value


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notebook")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    ap.add_argument("--output", default=None)
    ap.add_argument("--timeout", type=_timeout, default=1800)

    def fail(message: str) -> None:
        sys.stderr.write(f"error: {message.splitlines()[0] if message else 'bad arguments'}\n")
        raise SystemExit(2)

    ap.error = fail  # type: ignore[method-assign]
    a = ap.parse_args(argv)

    def stop(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave the handlers alone
            previous[sig] = signal.signal(sig, stop)
    try:
        return _run(a)
    except RunError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted by Ctrl-C (nothing written; the folders the run created removed)\n")
        return 130
    except Interrupted as exc:
        sys.stderr.write(f"error: stopped by {exc} (nothing written; the folders the run created removed)\n")
        return 128 + exc.signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _run(a: argparse.Namespace) -> int:
    import papermill as pm

    nb = Path(a.notebook).resolve()
    if not nb.is_file() or nb.suffix != ".ipynb":
        raise RunError(f"notebook={a.notebook!r} is not a notebook file")
    out = Path(a.output).resolve() if a.output else nb
    try:
        known = pm.inspect_notebook(str(nb))
    except Exception as exc:  # not JSON, JSON but no notebook, unreadable: one line, not nbformat's traceback
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise RunError(f"notebook={a.notebook!r} is not a notebook file: {type(exc).__name__}: "
                       f"{first[:120]}{'...' if len(first) > 120 else ''}".rstrip(": ")) from None
    for name, _ in a.parameter:
        if name not in known:
            raise RunError(f"parameter {name!r} is not in the parameters cell of {nb.name} "
                           f"(known: {', '.join(sorted(known))})")
    if a.output is not None and not a.output.endswith(".ipynb"):
        raise RunError(f"--output={a.output!r} must end in .ipynb")
    params = {name: _parse_value(name, value, known) for name, value in a.parameter}
    check_run(nb, out, params, known, output_given=a.output is not None)
    os.environ.update(ENV)
    cleanup = Cleanup()
    tmp: Path | None = None
    done = False
    try:
        cleanup.watch_created(out.parent)
        if params and "out_dir" in params:
            cleanup.watch_folder(out_dir_path(nb, params["out_dir"]))
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(suffix=".ipynb", prefix=f".{out.stem}.", dir=out.parent)
        os.close(fd)
        tmp = Path(tmp_name)
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
        done = True
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
            tmp.with_suffix(".log").unlink(missing_ok=True)
        if not done:
            cleanup.undo()
        cleanup.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
