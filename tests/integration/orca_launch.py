"""Start Debian's Orca (``/usr/bin/orca``) as it is, except for its one-instance check
and with its debug log written line by line.

Run with the system Python: ``/usr/bin/python3 orca_launch.py ORCA_ARGS...``. Orca refuses to
start while another process named ``orca`` runs for the same user (``pgrep -u UID -x orca``),
whatever desktop and accessibility bus that one serves; two test runs on one machine, each on
its own Xvfb and bus, would stop each other. This loads the ``orca`` command as a module, turns
that check and the renaming of the process off, makes the debug file line-buffered, and calls its ``main()`` with the arguments
given: every other step (settings, speech, the AT-SPI registry, scripts) is Orca's own.
"""

import builtins
import functools
import importlib.machinery
import importlib.util
import os
import sys

ORCA = "/usr/bin/orca"

# This file's folder holds the test helper tests/integration/orca.py, which would shadow Orca's
# own package ("from orca import debug"): Orca's command sees the interpreter's path only.
sys.path = [p for p in sys.path if os.path.realpath(p or ".") != os.path.dirname(os.path.realpath(__file__))]

loader = importlib.machinery.SourceFileLoader("orca_command", ORCA)
spec = importlib.util.spec_from_loader("orca_command", loader)
assert spec is not None
command = importlib.util.module_from_spec(spec)
loader.exec_module(command)
command.otherOrcas = lambda: []  # this Orca serves its own display and bus only
command.setProcessName = lambda name: False  # stays "python3": other runs' checks ignore it
# Orca opens its debug file block-buffered; a test reads it while Orca runs: line by line.
command.open = functools.partial(builtins.open, buffering=1)
sys.argv[0] = ORCA
sys.exit(command.main())
