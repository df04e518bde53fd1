"""Ctrl-C and SIGTERM: turned into exceptions, kept when something swallows them, and raised again, in one place.

A run is interrupted by ``SIGINT`` (Ctrl-C, :class:`KeyboardInterrupt`) or ``SIGTERM`` (:class:`Terminated`, which
:func:`sigterm_raises` raises). Both unwind the stack, so every atomic write removes its temporary file and leaves
the previous file intact. Two things can lose an interrupt, and :data:`INTERRUPTS` keeps it in both cases:

* it lands in a ctypes callback while numba compiles a kernel and reaches Python only through
  ``sys.unraisablehook`` (kept in ``pending``);
* something swallows the exception without a trace (kept in ``signals``, recorded by the handlers).

:meth:`Interrupts.raise_pending` raises a kept interrupt again (at the start of every stage and before a file is
written), and :meth:`Interrupts.interrupted_by` tells afterwards whether the run was interrupted, so that a later,
unrelated error (a kernel whose compilation the signal cut short) is reported as the interrupt it is.
:meth:`Interrupts.handled` installs the handlers around a command-line run.

Example
-------
>>> with sigterm_raises():
...     signal.getsignal(signal.SIGTERM).__name__
'_raise'
>>> INTERRUPTS.raise_pending()  # nothing kept
>>> INTERRUPTS.interrupted_by() is None
True
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Terminated", "sigterm_raises", "Interrupts", "INTERRUPTS"]


class Terminated(BaseException):
    """Raised in the main thread by :func:`sigterm_raises` when the process receives ``SIGTERM``.

    A :class:`BaseException` (like :class:`KeyboardInterrupt`), so ``except Exception`` does not swallow it.
    """


@contextlib.contextmanager
def sigterm_raises(received: list[int] | None = None) -> Iterator[None]:
    """Inside the block, ``SIGTERM`` raises :class:`Terminated` instead of ending the process at once.

    The exception unwinds the stack like Ctrl-C does, so :func:`~starlib.io.atomic.atomic_open` removes its
    temporary file. The previous handler is restored on exit. Outside the main thread (where Python cannot
    install signal handlers) the block runs unchanged. ``received``, if given, gets the number of every SIGTERM
    handled.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def _raise(signum: int, frame: Any) -> None:
        if received is not None:
            received.append(signum)
        raise Terminated(f"signal {signum} (SIGTERM)")

    previous = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _name(exc_or_signum: BaseException | int) -> str:
    if isinstance(exc_or_signum, BaseException):
        return "SIGINT" if isinstance(exc_or_signum, KeyboardInterrupt) else "SIGTERM"
    return "SIGINT" if exc_or_signum == signal.SIGINT else "SIGTERM"


@dataclass
class Interrupts:
    """The interrupts of one run: swallowed ones kept, and raised again at the next chance.

    Attributes
    ----------
    pending : interrupts (KeyboardInterrupt, Terminated) that reached ``sys.unraisablehook`` (swallowed by a
        ctypes callback while numba compiled a kernel).
    signals : the signals (SIGINT, SIGTERM) the handlers received; cleared when raised again.
    raised : every interrupt of this run that :meth:`raise_pending` raised again (``"SIGINT"``/``"SIGTERM"``); not
        cleared when raised, so the run still knows it was interrupted when a later error follows.
    """

    pending: list[BaseException] = field(default_factory=list)
    signals: list[int] = field(default_factory=list)
    raised: list[str] = field(default_factory=list)

    def clear(self) -> None:
        """Forget every interrupt (a new run starts)."""
        self.pending.clear()
        self.signals.clear()
        self.raised.clear()

    def raise_pending(self) -> None:
        """Raise a kept interrupt, if any (the start of every stage and the write call it)."""
        if self.pending:
            exc = self.pending[0]
            self.raised.append(_name(exc))
            self.pending.clear()
            self.signals.clear()
            raise exc
        if self.signals:
            signum = self.signals[0]
            self.signals.clear()
            self.raised.append(_name(signum))
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            raise Terminated(f"signal {signum} (SIGTERM)")

    def interrupted_by(self) -> str | None:
        """``"SIGINT"`` or ``"SIGTERM"`` if this run received that signal (the first one), else ``None``.

        >>> i = Interrupts(raised=["SIGTERM"])
        >>> i.interrupted_by()
        'SIGTERM'
        """
        if self.raised:
            return self.raised[0]
        if self.pending:
            return _name(self.pending[0])
        if self.signals:
            return _name(self.signals[0])
        return None

    @contextlib.contextmanager
    def handled(self) -> Iterator[Interrupts]:
        """A run with the interrupt handlers installed, and everything restored afterwards.

        Ctrl-C raises :class:`KeyboardInterrupt` and records the signal (unless SIGINT is ignored, as in a
        background job); an interrupt that reaches ``sys.unraisablehook`` is kept; after an interrupt, the
        tracebacks of finalizers of objects the signal cut short (llvmlite's while numba compiles) are noise and
        are dropped. Use :func:`sigterm_raises` with :attr:`signals` inside for SIGTERM.
        """
        previous_hook = sys.unraisablehook

        def keep(u: Any) -> None:
            if isinstance(u.exc_value, KeyboardInterrupt | Terminated):
                self.pending.append(u.exc_value)
                return
            if self.interrupted_by():
                return
            previous_hook(u)

        def on_interrupt(signum: int, frame: Any) -> None:
            self.signals.append(signum)  # kept in case the KeyboardInterrupt is swallowed (raise_pending)
            raise KeyboardInterrupt

        sys.unraisablehook = keep
        self.clear()
        previous_int = None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):  # not where SIGINT is ignored
            previous_int = signal.signal(signal.SIGINT, on_interrupt)
        try:
            yield self
        finally:
            self.raised.clear()  # only this run's signals count: runs also happen in-process (tests, notebooks)
            sys.unraisablehook = previous_hook
            if previous_int is not None:
                signal.signal(signal.SIGINT, previous_int)


#: The interrupts of the running command: the one place that keeps them.
INTERRUPTS = Interrupts()
