"""``python -m bench`` (from ``benchmarks/``): the same run as ``benchmarks/run.py``."""

import sys

from .main import main

sys.exit(main())
