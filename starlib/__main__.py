"""``python -m starlib``: see :mod:`starlib.cli`."""

from .cli.main import run

run()
