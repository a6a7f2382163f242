"""What the SDK logs over HTTP reaches stderr in the server's own line format, escaped.

The SDK's DNS-rebinding protection logs each refused ``Host`` or ``Origin`` value. Before, those
lines went out bare (``Invalid Host header: evil.example``), without the ``[json-contracts]``
prefix every other line has, and with the header's control characters raw, so a client could
write escape sequences into an operator's terminal or forge a log line.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mcp import free_port, http_env


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    root = tmp_path_factory.mktemp("logs")
    folder = root / "json-contracts"
    folder.mkdir()
    (folder / "note.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    log = root / "stderr.txt"
    chosen = free_port()
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--port", str(chosen)],
            env=http_env(folder),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            deadline = time.monotonic() + 30
            while True:  # the log line is written before uvicorn listens: wait for a connection too
                assert process.poll() is None, log.read_text()
                try:
                    socket.create_connection(("127.0.0.1", chosen), timeout=0.2).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, f"the server did not listen within 30 s: {log.read_text()}"
                    time.sleep(0.05)
            yield chosen, log
        finally:
            process.terminate()
            process.wait(timeout=10)


def _status(port: int, headers: dict[str, str]) -> int:
    sent = {"content-type": "application/json", "accept": "application/json, text/event-stream", **headers}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp", data=b'{"jsonrpc":"2.0","id":1,"method":"ping"}', headers=sent, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def _lines_after(log: Path, start: int) -> list[str]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and len(log.read_bytes()) <= start:
        time.sleep(0.05)
    return log.read_bytes()[start:].decode("utf-8", "replace").splitlines()


@pytest.mark.parametrize(
    ("header", "value", "status", "line"),
    [
        ("host", "evil.example", 421, "[json-contracts] warn: Invalid Host header: evil.example"),
        (
            "host",
            "evil\x1b[31m.example\x9b2J",
            421,
            "[json-contracts] warn: Invalid Host header: evil\\u001b[31m.example\\u009b2J",
        ),
        ("origin", "http://evil.example", 403, "[json-contracts] warn: Invalid Origin header: http://evil.example"),
        ("origin", "null\x07", 403, "[json-contracts] warn: Invalid Origin header: null\\u0007"),
    ],
)
def test_a_refused_host_or_origin_is_logged_in_our_format(
    server: tuple[int, Path], header: str, value: str, status: int, line: str
) -> None:
    port, log = server
    start = len(log.read_bytes())

    assert _status(port, {header: value}) == status

    assert _lines_after(log, start) == [line]


def test_an_accepted_request_logs_nothing(server: tuple[int, Path]) -> None:
    port, log = server
    start = len(log.read_bytes())
    assert _status(port, {}) == 200
    time.sleep(0.3)
    assert log.read_bytes()[start:] == b""
