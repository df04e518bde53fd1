"""Peak resident memory of one task, in a process that runs many.

On Linux, writing ``5`` to ``/proc/self/clear_refs`` resets the process's peak resident set size ("high water
mark", ``VmHWM`` in ``/proc/self/status``) to its current size (Linux 4.0 and later), so the peak read after the
task is the peak during the task. Where that is not possible, the process's lifetime peak
(:func:`resource.getrusage`) is reported and :attr:`PeakMemory.scope` says so.

Example
-------
>>> with PeakMemory() as pm:
...     x = bytearray(50_000_000)
>>> pm.megabytes >= 50
True
"""

from __future__ import annotations

import resource
from types import TracebackType

__all__ = ["PeakMemory"]


def _vmhwm_kib() -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:  # pragma: no cover - not Linux
        return None
    return None  # pragma: no cover


class PeakMemory:
    """Context manager: the peak resident memory (MB) of this process while the block ran.

    Attributes
    ----------
    megabytes : int
        Peak resident set size in MiB, rounded up; set on exit.
    scope : str
        ``"task"`` (the peak was reset at entry) or ``"process"`` (the lifetime peak: no reset available).
    """

    def __init__(self) -> None:
        self.megabytes = 0
        self.scope = "process"

    def __enter__(self) -> PeakMemory:
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
                fh.write("5")
            self.scope = "task" if _vmhwm_kib() is not None else "process"
        except OSError:  # pragma: no cover - not Linux, or not allowed
            self.scope = "process"
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        kib = _vmhwm_kib() if self.scope == "task" else None
        if kib is None:  # pragma: no cover - not Linux
            kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        self.megabytes = -(-kib // 1024)
