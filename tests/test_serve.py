"""tools/serve.py, the server behind `make serve` and the USB-stick bundle."""

from __future__ import annotations

import socket
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


def test_a_connection_that_sends_nothing_is_closed_after_the_timeout(tmp_path):
    # 150 half-open connections would otherwise keep 150 threads waiting forever
    (tmp_path / "index.html").write_text("start", encoding="utf-8")
    server = serve.make_server(tmp_path, "127.0.0.1", 0, timeout=0.2)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with socket.create_connection(("127.0.0.1", server.server_port), timeout=20) as idle:
            assert idle.recv(100) == b""  # closed by the server; a hanging server fails with a client timeout
    finally:
        server.shutdown()
        server.server_close()


def test_a_folder_is_never_listed(served):
    origin = served({"index.html": "start", "static/js/a.js": "geheim", "ewc/index.html": "ewc"})
    status, _, body = _get(origin + "/static/js/")
    assert status == 404 and "a.js" not in body
    assert _get(origin + "/static/js")[0] == 404
    assert _get(origin + "/ewc/")[::2] == (200, "ewc")  # a folder with its index.html still opens


def test_a_nul_byte_in_the_path_is_a_bad_request_without_traceback(served, capsys):
    origin = served({"index.html": "start"})
    for path in ("/.%00./etc/passwd", "/index.html%00", "/%00/"):
        assert _get(origin + path)[0] == 400, path
    assert "Traceback" not in capsys.readouterr().err


def test_a_link_out_of_the_served_folder_is_not_followed(served, tmp_path):
    outside = tmp_path.parent / (tmp_path.name + "-draussen")
    outside.mkdir()
    (outside / "passwd").write_text("root:x:0:0", encoding="utf-8")
    (outside / "index.html").write_text("fremd", encoding="utf-8")
    (tmp_path / "etc").symlink_to(outside, target_is_directory=True)
    (tmp_path / "passwd").symlink_to(outside / "passwd")
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "index.html").symlink_to(outside / "index.html")
    (tmp_path / "same.html").symlink_to(tmp_path / "inside" / "real.html")
    origin = served({"index.html": "start", "inside/real.html": "drinnen"})
    for path in ("/etc/passwd", "/passwd", "/etc/", "/inside/"):
        status, _, body = _get(origin + path)
        assert status == 404 and "root:" not in body and "fremd" not in body, path
    assert _get(origin + "/same.html")[::2] == (200, "drinnen")  # a link within the folder is fine


def test_every_answer_carries_the_policy_the_build_wrote_into_the_pages(served):
    policy = "default-src 'self'; img-src 'self' data:"
    meta = '<meta http-equiv="Content-Security-Policy" content="default-src &#x27;self&#x27;; img-src \'self\' data:">'
    origin = served({"index.html": f"<head><meta charset=utf-8>{meta}</head>", "a.js": "", "404.html": "weg"})
    for path in ("/", "/a.js", "/fehlt"):
        assert _get(origin + path)[1]["Content-Security-Policy"] == policy, path


def test_a_folder_without_a_policy_gets_no_header(served):
    origin = served({"index.html": "<head><meta charset=utf-8></head>"})
    assert "Content-Security-Policy" not in _get(origin + "/")[1]
