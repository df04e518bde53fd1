"""starlib's command line: ``starlib networks | build | info | edsts | improve | export | verify | repair | simulate |
sweep`` (also ``python -m starlib``).

=====================  ===============================================================================
module                 what
=====================  ===============================================================================
:mod:`.main`           the parser, the verbs, exit statuses and the one-line error rule
:mod:`.commands`       the work behind each verb (resolve and build with a size check, network files, info, verify)
:mod:`.text`           what people read: the families table, the info summary, the ``wrote`` line
:mod:`.progress`       the progress bar on standard error
:mod:`.repair`         ``starlib repair``: the maximum trees again after link failures, verified and written
:mod:`.simulate`       ``starlib simulate``: one allreduce on ns-3 or SimGrid, with the optimum and the bound
:mod:`.environment`    the environment variables the command line reads, checked at start-up
=====================  ===============================================================================

Every error prints one line to standard error (``error: q=6 is not a prime power ...``), writes nothing and exits
with status 2; ``verify`` exits with 1 when a tree is broken; Ctrl-C prints ``interrupted`` and exits with 130.
Files are written atomically in the formats of docs/formats.md.

Example
-------
>>> main(["build", "slimfly", "q=6"])
2
"""

from .main import main, parser

__all__ = ["main", "parser"]
