"""The site's scripts find their neighbours from the base runtime-boot.js sets, not from currentScript.

PyScript redefines ``document.currentScript`` while a ``<script type="py">`` runs, and boot.py
awaits the page's package, so a classic script that runs in that pause reads boot.py's address.
workshop.js did, and on busy machines looked for its editor in static/py/ (issue 16). Only
runtime-boot.js, loaded from <head> before PyScript, may read it.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_only_the_head_script_reads_current_script():
    code = {p.name: re.sub(r"//[^\n]*", "", p.read_text()) for p in (ROOT / "static" / "js").glob("*.js")}
    readers = sorted(name for name, text in code.items() if "currentScript" in text)
    assert readers == ["runtime-boot.js"]
