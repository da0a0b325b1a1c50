"""Runs workshop scripts (kit/workshop.py) in CPython as a student's browser would run them.

Each script runs in a fresh namespace, with matplotlib's settings as they were before it, in one
subprocess per test process that lives as long as the process (numpy and matplotlib load once, not
once per test), with matplotlib's Agg backend; what it prints comes back per script, plus how many
figures it left open. A script that raises fails the test with its traceback."""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import subprocess
import sys
import tempfile

from probierlabor.kit import workshop

TIMEOUT_S = 300
# The answer's line: a script's own output goes to a buffer, but a library may still write to stdout.
ANSWER = "workshop_check:"
_RUNNER = rf"""
import contextlib, io, json, sys, traceback
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
for line in sys.stdin:
    results = []
    for text in json.loads(line):
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), matplotlib.rc_context():
                exec(compile(text, "<skript>", "exec"), {{"__name__": "__main__"}})
            results.append({{"stdout": out.getvalue(), "figures": len(plt.get_fignums())}})
        except Exception:
            results.append({{"stdout": out.getvalue(), "error": traceback.format_exc()}})
        plt.close("all")
    print({ANSWER!r} + json.dumps(results), flush=True)
"""
_runner: subprocess.Popen | None = None


# The machine's kernels pass through, so a run with OPENBLAS_CORETYPE (or numpy's CPU features switched
# off) checks the scripts as another CPU computes them.
KERNEL_SETTINGS = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")


def _environment() -> dict:
    return {"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"} | {k: os.environ[k] for k in KERNEL_SETTINGS
                                                             if k in os.environ}


def _started() -> subprocess.Popen:
    global _runner
    if _runner is None or _runner.poll() is not None:
        errors = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115 - lives as long as the runner; read back only when it dies
        _runner = subprocess.Popen([sys.executable, "-c", _RUNNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=errors, text=True, env=_environment())
        _runner.errors = errors
        atexit.register(_runner.kill)
    return _runner


def run_scripts(texts: list[str]) -> list[dict]:
    runner = _started()
    runner.stdin.write(json.dumps(texts) + "\n")
    runner.stdin.flush()
    line = ""
    while not line.startswith(ANSWER):
        ready, _, _ = select.select([runner.stdout], [], [], TIMEOUT_S)
        assert ready, f"no answer from the scripts within {TIMEOUT_S} s"
        line = runner.stdout.readline()
        if not line:  # the runner died
            runner.errors.seek(0)
            raise AssertionError(runner.errors.read()[-3000:])
    results = json.loads(line[len(ANSWER):])
    for result in results:
        assert "error" not in result, result["error"]
    return results


def run_states(slug: str, states: list[dict]) -> list[dict]:
    """The slug's script filled with each state (raw values as api.run takes them), run once each."""
    return run_scripts([workshop.fill(slug, state) for state in states])


def number(stdout: str, label: str) -> float:
    """The number printed after „<label>:“ (German decimal comma or point, optional unit after it)."""
    match = re.search(rf"^{re.escape(label)}:\s*(−|-)?([0-9][0-9 ]*(?:[.,][0-9]+)?)", stdout, re.M)
    assert match, f"„{label}:“ fehlt in der Ausgabe:\n{stdout}"
    value = float(match.group(2).replace(" ", "").replace(",", "."))
    return -value if match.group(1) else value
