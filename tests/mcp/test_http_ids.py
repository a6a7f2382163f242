"""Over HTTP too, a request whose id is not a string or an integer gets one answer: -32600, id null.

Before, the SDK read such a request as a notification and answered 202 with no body, so a caller
waited for an answer that never came (stdio already answered it, ``tests/mcp/test_mcp_ids.py``).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.mcp import http_env, http_server

TICKET = {"description": "A ticket.", "schema": {"type": "object"}}


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("http-ids") / "json-contracts"
    folder.mkdir()
    (folder / "ticket.json").write_text(json.dumps(TICKET), encoding="utf-8")
    with http_server(http_env(folder)) as (chosen, _):
        yield chosen


def _post(port: int, body: bytes) -> tuple[int, str]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/mcp",
        data=body,
        headers={"content-type": "application/json", "accept": "application/json, text/event-stream"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.parametrize("odd", ["1.5", "true", "false", "null", "{}", "[]", "1e3", "-0.0"])
def test_a_request_with_an_unusable_id_is_answered_with_id_null(port: int, odd: str) -> None:
    status, text = _post(port, f'{{"jsonrpc": "2.0", "id": {odd}, "method": "ping"}}'.encode())

    assert status == 400, text
    answer: dict[str, Any] = json.loads(text)
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert answer["error"]["message"] == "Invalid request: id must be a string or an integer"


@pytest.mark.parametrize("request_id", [7, "seven", "1.5"])
def test_ordinary_ids_and_notifications_pass_through(port: int, request_id: Any) -> None:
    status, text = _post(port, json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}).encode())
    assert status == 200, text
    assert json.loads(text) == {"jsonrpc": "2.0", "id": request_id, "result": {}}

    status, _ = _post(port, b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    assert status == 202
