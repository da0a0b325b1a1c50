"""German number rules: kit/fmt.py against tests/golden/numbers.json, and static/js/fmt.js against the same
table (tests/js/, run with Node here so that `make test` covers the browser's numbers too)."""

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from probierlabor.kit import fmt

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((ROOT / "tests/golden/numbers.json").read_text(encoding="utf-8"))


def _arg(value):
    """Fractions travel as strings ("1/3"), lists of them as lists."""
    if isinstance(value, str) and value not in fmt.BYTE_UNITS:
        return Fraction(value)
    if isinstance(value, list):
        return [_arg(v) for v in value]
    return value


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=lambda c: f"{c['fn']}{c['args']}{c.get('kwargs', '')}")
def test_python_matches_the_golden_table(case):
    args = case["args"] if case["fn"] == "token" else map(_arg, case["args"])  # a token's text is text
    out = getattr(fmt, case["fn"])(*args, **case.get("kwargs", {}))
    assert (str(out) if isinstance(out, Fraction) else out) == case["expected"]


def test_units_match_the_golden_table():
    assert {name: getattr(fmt, name) for name in GOLDEN["units"]} == GOLDEN["units"]


def test_every_browser_function_has_cases():
    assert set(GOLDEN["browser"]) <= {case["fn"] for case in GOLDEN["cases"]}


def test_node_checks_the_browser_port_against_the_same_table():
    node = shutil.which("node")
    assert node, "Node.js is needed for tests/js (npm is already needed for make setup)"
    done = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_root_is_exact_where_the_root_is_a_fraction_and_none_elsewhere():
    big = Fraction(123456789012345678, 10**17 + 3)  # 18 digits: a float root of its cube is off in the last place
    assert fmt.root(big**3, 3) == big and fmt.root(big**7, 7) == big
    assert fmt.root(Fraction(27, 8), 3) == Fraction(3, 2) and fmt.root(0, 5) == 0 and fmt.root(5, 1) == 5
    assert fmt.root(2, 2) is None and fmt.root(big**3 + 1, 3) is None and fmt.root(Fraction(4, 3), 2) is None
    assert fmt.root(-8, 3) is None and fmt.root(Fraction(3, 2), 10**17) is None and fmt.root(1, 10**17) == 1  # at once
