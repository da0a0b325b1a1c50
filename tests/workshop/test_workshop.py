"""The workshop scripts' frame (kit/workshop.py); each concept's own test checks its script's numbers."""

from pathlib import Path

import pytest
from probierlabor import SLUGS, module_name
from probierlabor import workshop as scripts
from probierlabor.kit import api, workshop

WITH_SCRIPT = [s for s in SLUGS if Path(scripts.__path__[0], f"{module_name(s)}.py").exists()]


@pytest.mark.parametrize("slug", WITH_SCRIPT)
def test_the_file_as_written_is_the_default_state(slug):
    assert workshop.fill(slug) == workshop.template(slug)


@pytest.mark.parametrize("slug", WITH_SCRIPT)
def test_a_script_is_short_sets_only_parameters_and_takes_the_readers_values(slug):
    text = workshop.template(slug)
    assert len(text.splitlines()) <= 45, "ein kurzes Skript (Ziel: 40 Zeilen)"
    names = workshop.settings(text, slug)
    assert names and len(names) == len(set(names)), names
    preset = next((api.preset_values(slug, p.label) for p in api.concept(slug).PRESETS
                   if any(api.preset_values(slug, p.label)[n] != api.params_of(slug)[n].default for n in names)), None)
    if preset is None:
        pytest.skip("keine Voreinstellung ändert eine Einstellung des Skripts")
    filled = workshop.fill(slug, preset)
    values, _ = api.check(slug, preset)
    for name in names:
        assert f"\n{name} = {workshop.literal(values[name])}\n" in filled


def test_values_are_python_literals():
    assert workshop.literal(((2, 5.5), (4, -1.0))) == "[[2, 5.5], [4, -1.0]]"
    assert workshop.literal(True) == "True" and workshop.literal(0.1) == "0.1" and workshop.literal("a'b") == '"a\'b"'


def test_an_unknown_concept_has_no_script():
    with pytest.raises(KeyError):
        workshop.template("nichts-da")


def test_every_concept_page_has_a_script():
    assert list(SLUGS) == WITH_SCRIPT


@pytest.mark.parametrize("slug", WITH_SCRIPT)
def test_a_script_compiles_as_a_file(slug):
    """As bytes, like py_compile at build time: a first line such as "# Greedy Decoding: Der …" reads as an
    encoding declaration (PEP 263) and stops the build; a str source, as the tests exec it, would not show it."""
    compile(workshop.template(slug).encode("utf-8"), f"{module_name(slug)}.py", "exec")
