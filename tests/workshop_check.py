"""Runs workshop scripts (kit/workshop.py) in CPython as a student's browser would run them.

Each script runs in a fresh namespace in one subprocess per call (numpy and matplotlib load once),
with matplotlib's Agg backend; what it prints comes back per script, plus how many figures it left
open. A script that raises fails the test with its traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from probierlabor.kit import workshop

_RUNNER = r"""
import contextlib, io, json, sys, traceback
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
results = []
for text in json.load(sys.stdin):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(text, "<skript>", "exec"), {"__name__": "__main__"})
        results.append({"stdout": out.getvalue(), "figures": len(plt.get_fignums())})
    except Exception:
        results.append({"stdout": out.getvalue(), "error": traceback.format_exc()})
    plt.close("all")
print(json.dumps(results))
"""


# The machine's kernels pass through, so a run with OPENBLAS_CORETYPE (or numpy's CPU features switched
# off) checks the scripts as another CPU computes them.
KERNEL_SETTINGS = ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES")


def run_scripts(texts: list[str]) -> list[dict]:
    env = {"MPLBACKEND": "Agg", "PATH": "/usr/bin:/bin"} | {k: os.environ[k] for k in KERNEL_SETTINGS if k in os.environ}
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(texts), capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.strip().splitlines()[-1])
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
