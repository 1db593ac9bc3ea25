"""Entry point of the frozen bundle: the same as the ``elicit-tray`` command."""

import sys

from elicit_tray.cli import main

if __name__ == "__main__":
    sys.exit(main())
