"""mkdocs_hooks/csp.py: one Content-Security-Policy for the whole site, in every page before its first
script, allowing exactly the inline scripts the built pages carry."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from tools import bundle, serve

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("csp_hook", ROOT / "mkdocs_hooks" / "csp.py")
csp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(csp)

ALERT = "alert('Hello, world.');"
ALERT_HASH = "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"  # the example in the CSP specification


def _page_policy(header: str) -> str:
    """The meta tag's policy: the header's without what only a header can say, with the pages' own part."""
    return "; ".join([csp.shared(header), *(f"{name} {sources}" for name, sources in csp.PAGE_ONLY)])


def _site(tmp_path, pages):
    for name, text in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_every_page_gets_the_one_policy_before_its_first_script(tmp_path):
    site = _site(tmp_path, {
        "index.html": f'<html><head><meta charset="utf-8"><script>{ALERT}</script>'
                      '<script src="a.js"></script><script id="__config" type="application/json">{"a": 1}</script>',
        "ewc/index.html": '<head><meta charset="utf-8"><script type="module">var x = 1;</script></head>',
        "404.html": '<head><meta charset="utf-8"><title>weg</title></head>',
    })
    header = csp.protect(site)
    policy = _page_policy(header)
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    scripts = directives["script-src"].split()
    assert scripts[0] == "'self'" and ALERT_HASH in scripts and "'unsafe-inline'" not in scripts
    # the JSON config is data, not a script; a script with src is covered by 'self'
    assert len([s for s in scripts if s.startswith("'sha256-")]) == 2
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert directives["style-src"] == "'self'" and directives["base-uri"] == "'self'"
    tag = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    for name in ("index.html", "ewc/index.html", "404.html"):
        page = (site / name).read_text(encoding="utf-8")
        assert page.count("Content-Security-Policy") == 1 and '<meta charset="utf-8">' + tag in page, name


def test_a_changed_inline_script_changes_the_policy(tmp_path):
    site = _site(tmp_path / "a", {"index.html": f'<meta charset="utf-8"><script>{ALERT}</script>'})
    other = _site(tmp_path / "b", {"index.html": f'<meta charset="utf-8"><script>{ALERT} </script>'})
    assert ALERT_HASH in csp.protect(site) and ALERT_HASH not in csp.protect(other)


def test_a_page_without_charset_or_with_a_policy_already_stops_the_build(tmp_path):
    with pytest.raises(PluginError, match="charset"):
        csp.protect(_site(tmp_path / "a", {"index.html": "<head><title>x</title></head>"}))
    site = _site(tmp_path / "b", {"index.html": '<meta charset="utf-8">'})
    csp.protect(site)
    with pytest.raises(PluginError, match="schon"):
        csp.protect(site)


def test_the_header_forbids_framing_by_other_sites_and_the_server_sends_it(tmp_path):
    # frame-ancestors works only in a header (a meta tag's is ignored, with a console error), so it goes
    # into the file tools/serve.py sends, and into no page
    site = _site(tmp_path, {"index.html": f'<meta charset="utf-8"><script>{ALERT}</script>'})
    header = csp.protect(site)
    assert dict(part.split(" ", 1) for part in header.split("; "))["frame-ancestors"] == "'self'"
    assert serve.site_policy(site) == header
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "frame-ancestors" not in page and _page_policy(header) in page
    # Trusted Types in the pages only: the header covers Web Workers too, which have no DOM to guard
    assert "require-trusted-types-for 'script'" in page and "trusted-types" not in header


def test_the_readme_and_the_bundles_readme_point_admins_to_the_file_the_build_writes():
    path = f"site/{csp.POLICY_FILE}"
    assert path in (ROOT / "README.md").read_text(encoding="utf-8") and path in bundle.LIESMICH
