"""``python -m engine …``: record, check and export traces; run the benchmarks. See ``engine/cli.py``."""

import sys

from engine.cli import main

sys.exit(main())
