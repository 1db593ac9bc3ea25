"""Entry point of the frozen bundle: the same as the ``elicit-tray`` command; started with
``--pattern-worker`` it is the pattern worker (elicit_tray.schema.pattern), since a bundle has
no ``python -c``."""

import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["--pattern-worker"]:
        from elicit_tray.schema.pattern import worker_main

        sys.exit(worker_main())
    from elicit_tray.cli import main

    sys.exit(main())
