"""MkDocs hook: every committed trace (static/traces/*.json) passes recorder/tracer.py's full check.

The browser's replay (static/js/replay/core.js) only checks a trace's format and folds its events into
states; whether the events agree with each other (free blocks handed out, reference counts, block
tables, token order, end-of-step counts, running ∩ waiting, nothing held at the end) is checked
once, here, by the same ``tracer.validate`` the engine's tests use. A trace that contradicts itself
therefore stops ``make site`` with its name and step, and never reaches a reader. The schema itself
is shipped to the browser, whose loader checks every trace's types and bounds with it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from recorder import tracer

TRACES = Path(__file__).resolve().parent.parent / "static" / "traces"
# Where the browser's loader (static/js/replay/core.js SCHEMA_PATH) finds the schema it checks traces with.
SCHEMA_URL = "static/recorder/trace.schema.json"

_valid: set[str] = set()  # content hashes already checked: `mkdocs serve` rebuilds re-check only changes


def check(path: Path) -> None:
    """Raises PluginError naming the trace (and, from the tracer, the step) if it is not valid."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest in _valid:
        return
    where = f"static/traces/{path.name}"
    try:
        tracer.validate(tracer.parse(data))  # NaN, Infinity: refused as the CLI refuses them
    except json.JSONDecodeError as error:
        raise PluginError(f"Aufzeichnung {where} ist kein gültiges JSON: {error}") from None
    except (tracer.TraceError, KeyError, TypeError, IndexError) as error:
        # KeyError and the like: a field the schema requires but an event lacks, reached by the replay
        raise PluginError(f"Aufzeichnung {where} ist ungültig: {error}. Neu aufnehmen mit "
                          f"`python -m recorder record {path.stem}`.") from None
    _valid.add(digest)


def check_all(folder: Path = TRACES) -> int:
    paths = sorted(folder.glob("*.json"))
    for path in paths:
        check(path)
    return len(paths)


def on_pre_build(config):
    check_all()


def on_files(files, config):
    # One schema for engine and browser: the file itself is shipped, not a hand-kept copy in JS.
    files.append(File.generated(config, SCHEMA_URL, abs_src_path=str(tracer.SCHEMA_PATH)))
    return files
