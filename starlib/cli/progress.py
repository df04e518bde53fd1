"""Progress on standard error while the command line works, and the warnings it gives before long runs.

A command is a few stages (build, trees, verify, write). :class:`Progress` shows them as one tqdm bar on standard
error, and only once the command has run for :data:`DELAY` seconds, so quick commands print nothing; a ticker
thread refreshes the bar every second, so the elapsed time moves even while one long stage (a generic packing)
runs in compiled code. The bar is drawn on a terminal (``STARLIB_PROGRESS=1`` draws it anywhere, ``0`` never);
``--quiet`` turns it off, and the warnings with it.

Example
-------
>>> with Progress(["build", "write"], quiet=True) as p:
...     p.stage("build")
...     p.stage("write")
>>> p.done
2
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from ..interrupts import INTERRUPTS
from ..validation import printable
from .environment import DELAY, progress_delay

__all__ = ["Progress", "DELAY", "WARN_SECONDS"]

#: A run estimated longer than this is announced with its estimate before it starts.
WARN_SECONDS = 60.0


def progress_shown(stream: Any) -> bool:
    """Whether progress is shown on ``stream``: on a terminal, anywhere with ``STARLIB_PROGRESS=1``, never with ``0``.

    >>> import io
    >>> progress_shown(io.StringIO()) == (os.environ.get("STARLIB_PROGRESS") == "1")
    True
    """
    shown = os.environ.get("STARLIB_PROGRESS", "")
    return shown == "1" or (shown != "0" and stream.isatty())


class Progress:
    """One tqdm bar over a command's stages, on standard error, shown after :data:`DELAY` seconds.

    Parameters
    ----------
    stages : sequence of str
        The stage names, in order.
    quiet : bool
        Show nothing.
    desc : str
        The bar's label (the command).
    stream : file, optional
        Where to draw (default ``sys.stderr``).
    """

    def __init__(self, stages: Sequence[str], quiet: bool = False, desc: str = "starlib",
                 stream: Any = None) -> None:
        self.stages = list(stages)
        self.quiet = quiet
        self.desc = printable(desc, 120)  # a file's name may hold terminal escapes
        self.stream = stream
        self.done = 0
        self._stage = ""
        self._bar: Any = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self.delay = progress_delay()  # checked at start-up (starlib.cli.environment)

    def __enter__(self) -> Progress:
        stream = self.stream or sys.stderr
        shown = os.environ.get("STARLIB_PROGRESS", "")
        if not self.quiet and progress_shown(stream):
            from tqdm import tqdm

            # STARLIB_PROGRESS=1 draws the bar even where TQDM_DISABLE=1 (the Makefile sets it for papermill)
            forced = {"disable": False} if shown == "1" else {}
            self._bar = tqdm(total=len(self.stages), desc=self.desc, unit="step", file=self.stream or sys.stderr,
                             **forced,
                             delay=self.delay, leave=False, dynamic_ncols=True,
                             bar_format="{desc} ({n_fmt}/{total_fmt} steps, {elapsed})")
            self._thread = threading.Thread(target=self._tick, name="starlib-progress", daemon=True)
            self._thread.start()
        return self

    def _tick(self) -> None:
        while not self._stop.wait(0.25):
            with self._lock:
                if self._bar is not None and time.monotonic() - self._start >= self.delay:
                    self._bar.refresh()

    def stage(self, name: str) -> None:
        """Mark the start of stage ``name`` (the previous one is done); a kept interrupt is raised here."""
        INTERRUPTS.raise_pending()
        with self._lock:
            self._stage = name
            if self._bar is not None:
                self._bar.set_description_str(f"{self.desc}: {name}", refresh=False)
                if self.done:
                    self._bar.update(1)
                if time.monotonic() - self._start >= self.delay:  # a visible bar names the new stage at once
                    self._bar.refresh()
            self.done += 1

    def detail(self, text: str) -> None:
        """Show ``text`` after the current stage's name (how far a long stage is); a kept interrupt is raised here."""
        INTERRUPTS.raise_pending()
        with self._lock:
            if self._bar is not None:
                self._bar.set_description_str(f"{self.desc}: {self._stage} ({text})", refresh=False)
                if time.monotonic() - self._start >= self.delay:
                    self._bar.refresh()

    def note(self, message: str) -> None:
        """One line on standard error above the bar (warnings), unless quiet."""
        if self.quiet:
            return
        with self._lock:
            if self._bar is not None:
                self._bar.write(message, file=self.stream or sys.stderr)
            else:
                (self.stream or sys.stderr).write(message + "\n")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            if self._bar is not None:
                drawn = time.monotonic() - self._start >= self.delay
                self._bar.close()
                self._bar = None
                stream = self.stream or sys.stderr
                if drawn and not stream.isatty():  # a log (STARLIB_PROGRESS=1): what follows starts a new line
                    stream.write("\n")
