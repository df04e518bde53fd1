"""``python -m starlib``: see :mod:`starlib.cli`."""

import sys

from .cli import main

sys.exit(main())
