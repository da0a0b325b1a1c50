"""The site's scripts find their neighbours from the base runtime-boot.js sets, not from currentScript.

``document.currentScript`` names the running script only during a classic script's first synchronous
run; read later (after an await, or while another script runs) it names some other script or none.
workshop.js once read it and, on busy machines, looked for its editor in static/py/ (issue 16, while
PyScript ran the page's Python). Only runtime-boot.js, loaded from <head>, reads it, at once.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_only_the_head_script_reads_current_script():
    code = {p.name: re.sub(r"//[^\n]*", "", p.read_text()) for p in (ROOT / "static" / "js").glob("*.js")}
    readers = sorted(name for name, text in code.items() if "currentScript" in text)
    assert readers == ["runtime-boot.js"]
