"""``python -m elicit_tray``: the same as the ``elicit-tray`` command."""

import sys

from .cli import main

sys.exit(main())
