"""Streamable HTTP with a bearer token: a real server process on loopback."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp import INITIALIZE, TOKEN, http_env, http_server


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    contracts = tmp_path / "json-contracts"
    contracts.mkdir()
    (contracts / "note.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    return contracts


@pytest.fixture
def server(folder: Path) -> Iterator[int]:
    with http_server(http_env(folder, API_AUTH_TOKEN=TOKEN)) as (port, _):
        yield port


def _post(port: int, body: dict[str, Any], token: str | None) -> tuple[int, dict[str, str], bytes]:
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.mark.parametrize("token", [None, "wrong", TOKEN[:-1], TOKEN + "x"])
def test_a_request_without_the_right_token_gets_401(server: int, token: str | None) -> None:
    status, headers, body = _post(server, INITIALIZE, token)

    assert status == 401
    assert headers["www-authenticate"].startswith("Bearer")
    assert json.loads(body) == {"error": "Send Authorization: Bearer <API_AUTH_TOKEN>."}


def test_the_right_token_reaches_the_tools(server: int) -> None:
    status, _, body = _post(server, INITIALIZE, TOKEN)
    assert status == 200
    assert json.loads(body)["result"]["serverInfo"]["name"] == "json-contracts"

    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "validate_json", "arguments": {"contract": "note", "json": {"a": 1}}},
    }
    status, _, body = _post(server, call, TOKEN)

    assert status == 200
    assert json.loads(body)["result"]["structuredContent"]["valid"] is True


def test_a_non_loopback_host_without_a_token_is_refused(folder: Path) -> None:
    process = subprocess.run(
        [sys.executable, "-m", "json_contracts", "serve", "--transport", "http", "--host", "0.0.0.0"],
        env=http_env(folder),
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert process.returncode == 1
    assert process.stderr == (
        "[json-contracts] error: Refusing to serve HTTP on 0.0.0.0 without API_AUTH_TOKEN; "
        "set a token or use 127.0.0.1\n"
    )
