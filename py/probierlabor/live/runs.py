"""The one entry of „Eigener Lauf“: page settings to a run of the right kind, and a recorded run back to
settings. Settings with a γ are a speculative run (speculative.py), all others a batching run
(batching.py); the worker (static/py/engine_run.py) and the page blocks call only this."""

from __future__ import annotations

from collections.abc import Mapping

from . import batching, speculative
from .fields import SPECULATIVE_KEY


def run_settings(settings: Mapping, folder: str | None = None, **kwargs) -> dict:
    """``parse`` then ``run``: the trace, the notes to show and the settings as they ran (capped); a
    ``form.WorkloadError`` before anything runs. ``folder``: where the trained model's files are (the
    browser's worker puts them there); None, the engine's own folder."""
    kind = speculative if SPECULATIVE_KEY in settings else batching
    workload = kind.parse(settings, folder)
    return {"trace": kind.run(workload, folder=folder, **kwargs), "notes": list(workload.notes),
            "settings": workload.settings()}


def settings_of_trace(trace: Mapping) -> dict:
    """A recorded run's workload as settings: the pages' presets are the runs they replay."""
    kind = speculative if SPECULATIVE_KEY in trace["config"] else batching
    return kind.settings_of_trace(trace)
