"""``python -m recorder …``: record, check and export traces; run the benchmarks. See ``recorder/cli.py``."""

import sys

from recorder.cli import main

sys.exit(main())
