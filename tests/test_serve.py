"""tools/serve.py, the server behind `make serve` and the USB-stick bundle."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest

from tools import serve


@pytest.fixture
def served(tmp_path):
    def start(files: dict[str, str]):
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text, encoding="utf-8")
        server = serve.make_server(tmp_path, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
        return f"http://127.0.0.1:{server.server_port}"

    started = []
    yield start
    for server in started:
        server.shutdown()
        server.server_close()


def _get(url):
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_a_missing_address_gets_the_sites_own_404_page(served):
    origin = served({"index.html": "start", "404.html": "<p>Seite nicht gefunden</p>", "ewc/index.html": "ewc"})
    status, headers, body = _get(origin + "/gibt/es/nicht")
    assert (status, body) == (404, "<p>Seite nicht gefunden</p>")
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert _get(origin + "/ewc/")[::2] == (200, "ewc")


def test_without_a_404_page_the_plain_answer_stays(served):
    origin = served({"index.html": "start"})
    status, _, body = _get(origin + "/fehlt")
    assert status == 404 and "Error code: 404" in body


def test_types_the_browser_insists_on(served):
    origin = served({"index.html": "", "a.wasm": "", "b.mjs": "", "c.webmanifest": "{}"})
    assert _get(origin + "/a.wasm")[1]["Content-Type"] == "application/wasm"
    assert _get(origin + "/b.mjs")[1]["Content-Type"] == "text/javascript"
    assert _get(origin + "/c.webmanifest")[1]["Content-Type"] == "application/manifest+json"


@pytest.mark.parametrize("error", [BrokenPipeError, ConnectionResetError])
def test_a_browser_closing_early_prints_no_traceback(error, capsys, tmp_path):
    server = serve.make_server(tmp_path, "127.0.0.1", 0)
    try:
        for raised, quiet in ((error, True), (ValueError, False)):
            try:
                raise raised("x")
            except raised:
                server.handle_error(None, ("127.0.0.1", 1))
            assert (capsys.readouterr().err == "") is quiet, raised
    finally:
        server.server_close()
