"""tools/serve.py, the server behind `make serve` and the USB-stick bundle."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
import time
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


@contextlib.contextmanager
def _running(folder, **options):
    (folder / "index.html").write_text("start", encoding="utf-8")
    server = serve.make_server(folder, "127.0.0.1", 0, **options)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_a_connection_that_sends_nothing_is_closed_after_the_timeout(tmp_path):
    # 150 half-open connections would otherwise keep 150 threads waiting forever
    with _running(tmp_path, timeout=0.2) as server, \
            socket.create_connection(("127.0.0.1", server.server_port), timeout=20) as idle:
        assert idle.recv(100) == b""  # closed by the server; a hanging server fails with a client timeout


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


def test_every_answer_carries_the_policy_the_build_wrote_for_the_header(served):
    policy = "default-src 'self'; img-src 'self' data:; frame-ancestors 'self'"
    origin = served({"index.html": "start", serve.POLICY_FILE: policy + "\n", "a.js": "", "404.html": "weg"})
    for path in ("/", "/a.js", "/fehlt"):
        assert _get(origin + path)[1]["Content-Security-Policy"] == policy, path


def test_a_folder_without_a_policy_gets_no_header(served):
    origin = served({"index.html": "<head><meta charset=utf-8></head>"})
    assert "Content-Security-Policy" not in _get(origin + "/")[1]


def test_no_answer_lets_the_browser_guess_its_type(served):
    origin = served({"index.html": "start", "a.txt": "<script>alert(1)</script>", "404.html": "weg"})
    for path in ("/", "/a.txt", "/fehlt", "/%ff", "/static/"):
        assert _get(origin + path)[1]["X-Content-Type-Options"] == "nosniff", path


def test_an_address_that_is_no_utf8_is_a_bad_request_without_traceback(served, capsys):
    origin = served({"index.html": "start"})
    for path in ("/%ff", "/%c3", "/static/%ed%a0%80.js", "/%ff/../index.html"):
        assert _get(origin + path)[0] == 400, path
    assert "Traceback" not in capsys.readouterr().err
    assert _get(origin + "/")[0] == 200


def test_a_name_with_a_leading_dot_is_not_found_at_any_depth(served):
    secret = "TOKEN=geheim"
    origin = served({"index.html": "start", ".env": secret, "static/.git/config": secret,
                     "ewc/.hidden/index.html": secret, "ewc/.notiz.html": secret, "404.html": "weg"})
    for path in ("/.env", "/%2eenv", "/static/.git/config", "/ewc/.hidden/", "/ewc/.notiz.html",
                 "/ewc/%2Enotiz.html", "/ewc/x%5c.notiz.html"):
        status, _, body = _get(origin + path)
        assert status == 404 and secret not in body, path
    assert _get(origin + "/")[::2] == (200, "start")


def _closed(connection: socket.socket) -> bool:
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(100) == b""
    except ConnectionError:
        return True


def test_a_client_dripping_its_headers_is_cut_off_at_the_deadline(tmp_path):
    # a timeout per read alone lets a client that sends a byte now and then keep a thread as long as it likes
    with (_running(tmp_path, timeout=0.5) as server,
          socket.create_connection(("127.0.0.1", server.server_port), timeout=5) as slow):
        slow.sendall(b"GET / HTTP/1.0\r\n")
        for _ in range(50):  # 5 s of dripping, ten times the deadline
            try:
                slow.sendall(b"X")
            except ConnectionError:
                break
            time.sleep(0.1)
            if _closed(slow):
                break
        else:
            pytest.fail("the server still reads a request that started 5 s ago")


def test_connections_beyond_the_cap_wait_and_hold_no_thread(tmp_path):
    slow = []
    with _running(tmp_path, timeout=0.5, max_connections=3) as server:
        before = threading.active_count()
        most = 0
        for step in range(40):  # 2 s of dripping: a byte in time for any per-read timeout, never a whole request
            if step < 9:
                slow.append(socket.create_connection(("127.0.0.1", server.server_port), timeout=5))
                slow[-1].sendall(b"GET / HTTP/1.0\r\n")
            for connection in slow:
                with contextlib.suppress(OSError):
                    connection.sendall(b"X")
            most = max(most, threading.active_count() - before)
            time.sleep(0.05)
        for connection in slow:
            connection.close()
        assert most <= 3  # not a thread for each of the 9
        assert _get(f"http://127.0.0.1:{server.server_port}/")[::2] == (200, "start")  # served once a slot frees


def test_with_every_slot_held_a_connection_gets_a_german_503(tmp_path):
    with _running(tmp_path, timeout=0.3, max_connections=1) as server:
        origin = f"http://127.0.0.1:{server.server_port}/"
        server.slots.acquire()  # a download to a client that does not read holds it
        status, headers, body = _get(origin)
        assert status == 503 and "ausgelastet" in body and headers["X-Content-Type-Options"] == "nosniff"
        server.slots.release()
        assert _get(origin)[::2] == (200, "start")


def _answer(port: int, data: bytes, limit_s: float = 5) -> bytes:
    """All the server sends back to ``data`` before it closes the connection (at most limit_s)."""
    with socket.create_connection(("127.0.0.1", port), timeout=limit_s) as client:
        client.sendall(data)
        client.shutdown(socket.SHUT_WR)  # what a client that sent everything does; a line without its end stays cut
        got, deadline = b"", time.monotonic() + limit_s
        while time.monotonic() < deadline:
            try:
                part = client.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                return got
            got += part
        pytest.fail(f"no clean close within {limit_s} s after {data[:40]!r}")
        return got


# A TLS ClientHello's first bytes, as a browser sends them for https:// on this plain port: a handshake
# record (0x16), TLS 1.0 in the record, the hello's length; somewhere inside it a 0x0a, read as a line's end.
CLIENT_HELLO = bytes.fromhex("160301020001000200fc03") + bytes(range(256)) * 2


MALFORMED = (
    (b"NONSENSE\r\n\r\n", 400),
    (b"GET / HTTP/9.9\r\n\r\n", 505),
    (b"GET / HTTX/1.0\r\n\r\n", 400),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.0\r\n\r\n", 414),
    (b"GET / HTTP/1.0\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n", 431),
    (CLIENT_HELLO, None),
)


def test_a_malformed_request_gets_an_error_status_or_a_clean_close_and_no_traceback(tmp_path, capsys):
    with _running(tmp_path) as server:
        for request_bytes, status in MALFORMED:
            started = time.monotonic()
            answer = _answer(server.server_port, request_bytes)
            if status is None:  # no HTTP to a TLS client, which could not read it: the connection just ends, at once
                assert answer == b"" and time.monotonic() - started < 2
            else:
                assert answer.split(b"\r\n", 1)[0].startswith(b"HTTP/1.0 %d " % status), answer[:80]
                assert b"nosniff" in answer
            assert _get(f"http://127.0.0.1:{server.server_port}/")[::2] == (200, "start")  # and serves on
    assert "Traceback" not in capsys.readouterr().err
