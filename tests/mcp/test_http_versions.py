"""A bad ``MCP-Protocol-Version`` header gets 400 and a message that names the header, the value and
the versions served.

Before, the SDK routed every value it did not know to the 2026-07-28 entry, which answered that
``params._meta`` lacked its envelope keys: true of the body, but not what was wrong.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.mcp import http_env, http_server

SUPPORTED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("versions") / "json-contracts"
    folder.mkdir()
    (folder / "note.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    with http_server(http_env(folder)) as (chosen, _):
        yield chosen


def _post(port: int, body: bytes, version: str | None) -> tuple[int, dict[str, Any]]:
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if version is not None:
        headers["mcp-protocol-version"] = version
    request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            text = response.read()
            return response.status, json.loads(text) if text else {}
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _message(value: str) -> str:
    return f"Unsupported MCP-Protocol-Version header: {json.dumps(value)}; this server supports {', '.join(SUPPORTED)}"


@pytest.mark.parametrize("value", ["2099-01-01", "2000-01-01", "garbage", "2025-6-18", "", "2026-07-28,2025-06-18"])
def test_an_unsupported_version_header_names_itself(port: int, value: str) -> None:
    status, answer = _post(port, b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}', value)

    assert status == 400
    assert answer == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {
            "code": -32022,
            "message": _message(value),
            "data": {"supported": SUPPORTED, "requested": value},
        },
    }


def test_a_notification_or_an_unreadable_body_gets_id_null(port: int) -> None:
    for body in (b'{"jsonrpc": "2.0", "method": "notifications/initialized"}', b"not json", b'[{"id": 1}]'):
        status, answer = _post(port, body, "1.0")
        assert status == 400
        assert answer["id"] is None
        assert answer["error"]["message"] == _message("1.0")


def test_a_control_character_in_the_value_is_shown_escaped(port: int) -> None:
    status, answer = _post(port, b'{"jsonrpc": "2.0", "id": "a", "method": "ping"}', "2025\x7f\x1b[1m")
    assert status == 400
    assert answer["error"]["message"].startswith('Unsupported MCP-Protocol-Version header: "2025\\u007f\\u001b[1m";')


@pytest.mark.parametrize("version", [None, *SUPPORTED[:-1]])
def test_supported_versions_and_no_header_still_reach_the_server(port: int, version: str | None) -> None:
    status, answer = _post(port, b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}', version)
    assert (status, answer) == (200, {"jsonrpc": "2.0", "id": 1, "result": {}})
