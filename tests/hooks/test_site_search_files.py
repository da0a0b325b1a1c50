"""The built site carries the search's language files that its search reads, and no others
(mkdocs_hooks/assemble.py): the theme ships 30 languages, the site searches in German."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LUNR = ROOT / "site" / "assets" / "javascripts" / "lunr"


def test_only_the_search_languages_of_the_site_are_shipped():
    if not LUNR.exists():
        pytest.skip("site/ fehlt: erst `make site`")
    shipped = {p.name for p in LUNR.rglob("*.js")}
    assert shipped == {"lunr.de.min.js", "lunr.stemmer.support.min.js", "lunr.multi.min.js"}
    config = json.loads((ROOT / "site" / "search" / "search_index.json").read_text())["config"]
    assert config["lang"] == ["de"]
