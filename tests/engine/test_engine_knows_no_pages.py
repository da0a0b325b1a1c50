"""engine/ is the engine only: no German text and no page slug in its code. The pages' words live on the
page side (py/probierlabor), the recorded runs' titles in py/probierlabor/pageblocks/replays.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from probierlabor import SLUGS

ENGINE = Path(__file__).resolve().parents[2] / "engine"
GERMAN = re.compile(r"[äöüÄÖÜß„“]|\b(der|die|das|und|oder|nicht|mit|für|ein|eine|ist|wird|nur|auf|unbekannt\w*|"
                    r"Fehler|Seite|Kerne?)\b", re.IGNORECASE)
# Words the engine names its own things by, which some pages also carry as their slug: a step's kind
# (prefill, decode) and the attention kernels; the attention kinds are upper case (GQA, MQA). A string
# equal to any other slug is a page's name.
OWN_WORDS = {"prefill", "decode", "attention"}
# The character tokenizer's default alphabet is German letters as data, not text.
DATA = {("tokenizer.py", "DEFAULT_ALPHABET")}


def _docstrings(tree: ast.Module) -> set[int]:
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))]
    return {id(n.body[0].value) for n in nodes
            if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _data(path: Path, tree: ast.Module) -> set[int]:
    return {id(c) for n in ast.walk(tree) if isinstance(n, ast.Assign)
            for t in n.targets if isinstance(t, ast.Name) and (path.name, t.id) in DATA
            for c in ast.walk(n.value)}


def strings(path: Path) -> list[tuple[int, str]]:
    """Every string in the module's code (f-strings' literal parts too), docstrings and declared data aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree) | _data(path, tree)
    return sorted((n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip)


def offences(path: Path) -> list[str]:
    found = []
    for line, text in strings(path):
        if GERMAN.search(text):
            found.append(f"{path.name}:{line} German: {text!r}")
        named = [s for s in SLUGS if s not in OWN_WORDS and (text == s or ("-" in s and re.search(
            rf"(?<![\w-]){re.escape(s)}(?!\w)", text)))]
        if named:
            found.append(f"{path.name}:{line} page slug {named[0]}: {text!r}")
    return found


def test_the_engine_holds_no_german_text_and_no_page_slug():
    modules = sorted(ENGINE.glob("*.py"))
    assert len(modules) > 10
    assert [o for path in modules for o in offences(path)] == []


def test_the_check_finds_what_it_looks_for(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""Der Docstring darf deutsch sein."""\n'
                     'A = "unbekanntes Backend"\nB = f"{1} Kerne"\nC = "kv-cache-growth"\nD = "gqa"\n'
                     'E = "decode"\nF = "prompt"\nG = "Größe"\n', encoding="utf-8")
    found = offences(probe)
    assert [f.split(" ", 1)[0] for f in found] == ["probe.py:2", "probe.py:3", "probe.py:4", "probe.py:5",
                                                   "probe.py:8"], found
