"""The shared runtime itself: heavy packages load offline, library chatter is not an error."""

import pytest

pytestmark = pytest.mark.browser


def test_systemcheck_loads_numpy_and_matplotlib_offline_without_error_boxes(visit):
    v = visit("/systemcheck/")
    button = v.page.locator("[data-systemcheck] button")
    v.page.wait_for_selector("[data-systemcheck] button:not([disabled])", timeout=90_000)
    button.click()
    v.page.wait_for_selector('[data-systemcheck][data-state="ready"], [data-systemcheck][data-state="error"]',
                             timeout=180_000)
    assert v.page.get_attribute("[data-systemcheck]", "data-state") == "ready"
    text = v.page.inner_text("[data-systemcheck]")
    assert "numpy\t2.0.2" in text and "matplotlib\t3.8.4" in text and "Pyodide\t0.27.7" in text
    assert "fehlt wie erwartet" in text
    assert v.page.locator("img.pl-check-figure").evaluate("img => img.naturalWidth") > 100
    # matplotlib announced its font cache on stderr: that must be neither a red box nor a console error
    assert any("font cache" in text for kind, text in v.console if kind == "warning")
    assert v.page.locator(".py-error").count() == 0
    assert v.console_errors() == []
    assert v.foreign_requests() == []
    assert not [u for u in v.requests if "scipy" in u]
