"""Over streamable HTTP, a client that hangs up stops the work it asked for.

The server answers in JSON-response mode, where the SDK ran a tool call to its end with nobody
watching the connection: a client that posted a minute-long ``validate_json`` and hung up after a
second left the server validating for the rest of that minute (2.5 s of CPU in the next 4 s).
Now the disconnect cancels the request, the validation stops at its next check, and the server
goes quiet, in both protocol eras. A client that stays connected still gets its answer, however
long the document takes.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp import http_env, http_server

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the server's CPU time from /proc/<pid>/stat (Linux only)"
)

HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"


def _diamond(levels: int) -> dict[str, Any]:
    """Each level is an anyOf of two references to the next: 2**levels paths to a failing leaf."""
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    return {"$ref": "#/$defs/d0", "$defs": defs}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, int]]:
    """A real HTTP server (port, pid) over ``endless`` (hours of work for ``1``) and ``finite`` (about a second)."""
    folder = tmp_path_factory.mktemp("http-cancel") / "json-contracts"
    folder.mkdir()
    (folder / "endless.json").write_text(json.dumps({"schema": _diamond(40)}), encoding="utf-8")
    (folder / "finite.json").write_text(json.dumps({"schema": _diamond(13)}), encoding="utf-8")
    with http_server(http_env(folder, JSON_CONTRACTS_VALIDATION_TIMEOUT="60")) as (port, process):
        yield port, process.pid


def _cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _post(port: int, version: str, request_id: int, method: str, params: dict[str, Any]) -> bytes:
    """A raw HTTP/1.1 POST of one JSON-RPC request in ``version``'s era (the 2026 era's envelope and headers)."""
    headers = {"mcp-protocol-version": version}
    if version == MODERN:
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
        }
        params = {**params, "_meta": meta}
        headers["mcp-method"] = method
        if "name" in params:
            headers["mcp-name"] = params["name"]
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Accept: application/json, text/event-stream\r\nContent-Length: {len(body)}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        + "\r\n"
    )
    return head.encode() + body


def _validate(port: int, version: str, contract: str) -> bytes:
    arguments = {"contract": contract, "json": 1}
    return _post(port, version, 7, "tools/call", {"name": "validate_json", "arguments": arguments})


def _answer(port: int, request: bytes, timeout: float) -> tuple[int, dict[str, Any]]:
    """Send ``request`` on a new connection; the status and JSON body of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            assert chunk, received
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        length = next(int(line.split(":", 1)[1]) for line in lines if line.lower().startswith("content-length:"))
        while len(body) < length:
            chunk = connection.recv(65536)
            assert chunk, body
            body += chunk
    return int(lines[0].split()[1]), json.loads(body)


def _quiet_within(pid: int, seconds: float, window: float = 2.0, busy: float = 0.15) -> bool:
    """Whether, within ``seconds``, the process spends less than ``busy`` CPU seconds in some ``window``."""
    samples = [(time.monotonic(), _cpu_seconds(pid))]
    until = samples[0][0] + seconds
    while time.monotonic() < until:
        time.sleep(0.25)
        now = (time.monotonic(), _cpu_seconds(pid))
        samples.append(now)
        start = next((s for s in reversed(samples) if now[0] - s[0] >= window), None)
        if start is not None and now[1] - start[1] < busy:
            return True
    return False


@pytest.mark.parametrize("version", [HANDSHAKE, MODERN])
def test_a_client_that_hangs_up_stops_its_validation(served: tuple[int, int], version: str) -> None:
    port, pid = served
    assert _quiet_within(pid, 20), "the server was busy before the test began"
    before = _cpu_seconds(pid)
    with socket.create_connection(("127.0.0.1", port), timeout=20) as connection:
        connection.sendall(_validate(port, version, "endless"))
        time.sleep(1.0)
    # It was working on the document (otherwise stopping would prove nothing) ...
    assert _cpu_seconds(pid) > before + 0.05
    # ... and stops once the client has gone, instead of validating for its full 60 s.
    assert _quiet_within(pid, 20), "the server kept validating for a client that hung up"
    status, answer = _answer(port, _post(port, HANDSHAKE, 8, "ping", {}), timeout=20)  # no ping from 2026-07-28
    assert (status, answer) == (200, {"jsonrpc": "2.0", "id": 8, "result": {}})


@pytest.mark.parametrize("version", [HANDSHAKE, MODERN])
def test_a_client_that_stays_connected_gets_its_answer(served: tuple[int, int], version: str) -> None:
    port, _ = served
    status, answer = _answer(port, _validate(port, version, "finite"), timeout=60)
    assert status == 200, answer
    payload = answer["result"]["structuredContent"]
    assert payload["valid"] is False
    keywords = {error["keyword"] for error in payload["errors"]}
    assert "type" in keywords
    assert "timeout" not in keywords  # validated to the end (its error cap), not cut short
