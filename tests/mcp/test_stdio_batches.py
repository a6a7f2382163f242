"""JSON-RPC batches on stdio: answered per JSON-RPC 2.0 in 2025-03-26 sessions, refused in others.

A batch (a line holding a JSON array) is part of MCP revision 2025-03-26 only. Such a session gets
one array line with the answers of the batch's requests (notifications get none, invalid members
their own error); any other session, or one not yet initialized, gets one -32600 error with id
null. Before, a batch got no answer at all, and its requests waited for ever.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp import CONTRACT_FILES, contract_text

_BOUND = 60  # seconds for a whole session; a healthy one takes about one


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for name, content in CONTRACT_FILES.items():
        (tmp_path / name).write_text(contract_text(content), encoding="utf-8")
    return tmp_path


def _initialize(version: str) -> dict[str, Any]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    return {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params}


_INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _session(folder: Path, messages: list[Any]) -> list[Any]:
    """Every line the real server writes for ``messages`` (one per line), then end of input."""
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false"})
    text = "".join(json.dumps(message) + "\n" for message in messages)
    done = subprocess.run(
        [sys.executable, "-m", "json_contracts", "serve"],
        input=text.encode(),
        capture_output=True,
        env=env,
        timeout=_BOUND,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def _call(request_id: Any, document: Any) -> dict[str, Any]:
    arguments = {"contract": "no-ops", "json": document}
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "validate_json", "arguments": arguments},
    }


def test_a_batch_in_a_2025_03_26_session_gets_one_array_of_answers(folder: Path) -> None:
    batch = [
        {"jsonrpc": "2.0", "id": 10, "method": "ping"},
        _call(11, {"n": 1}),
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        {"jsonrpc": "2.0", "id": "r", "method": "resources/list"},  # answered by the SDK's server
        1,
        {"jsonrpc": "2.0", "id": 1.5, "method": "ping"},
    ]
    lines = _session(folder, [_initialize("2025-03-26"), _INITIALIZED, batch])
    arrays = [line for line in lines if isinstance(line, list)]
    assert len(arrays) == 1, lines
    answers = arrays[0]
    assert [answer["id"] for answer in answers] == [10, 11, "r", None, None]
    assert answers[0]["result"] == {}
    assert answers[1]["result"]["structuredContent"] == {
        "valid": True,
        "contract": "no-ops",
        "json": {"n": 1},
        "errors": [],
    }
    assert [item["name"] for item in answers[2]["result"]["resources"]] == ["no-ops", "patch-edit", "support-ticket"]
    assert answers[3]["error"]["code"] == -32600
    assert answers[4]["error"] == {"code": -32600, "message": "Invalid request: id must be a string or an integer"}


def test_a_batch_of_notifications_gets_no_line_and_an_empty_batch_one_error(folder: Path) -> None:
    notifications = [_INITIALIZED, {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}]
    lines = _session(
        folder, [_initialize("2025-03-26"), notifications, [], {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
    )
    assert lines[1:] == [
        {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}},
        {"jsonrpc": "2.0", "id": 2, "result": {}},
    ]


@pytest.mark.parametrize("version", [None, "2024-11-05", "2025-06-18", "2025-11-25"])
def test_a_batch_outside_a_2025_03_26_session_gets_one_error(folder: Path, version: str | None) -> None:
    opening = [] if version is None else [_initialize(version), _INITIALIZED]
    lines = _session(folder, [*opening, [{"jsonrpc": "2.0", "id": 3, "method": "ping"}, _call(4, {})]])
    refusal = lines[-1]
    assert not isinstance(refusal, list)
    assert refusal["id"] is None
    assert refusal["error"]["code"] == -32600
    assert "2025-03-26" in refusal["error"]["message"]
    assert len(lines) == (1 if version is None else 2)  # the initialize answer, then only the refusal
