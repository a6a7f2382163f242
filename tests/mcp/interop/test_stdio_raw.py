"""What no SDK client sends but the stdio transport must handle: a JSON-RPC batch in a 2025-03-26
session (the one revision with batches), and a host that starts the server with nothing on stdin."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from tests.mcp.interop.support import json_contracts_command, server_env

#: Each run ends when stdin does; a server still running after this hangs at EOF.
EOF_TIMEOUT = 30


def _serve(folder: Path, data: bytes | None) -> subprocess.CompletedProcess[bytes]:
    """Run ``json-contracts serve`` on ``data`` then EOF, or with stdin on ``/dev/null`` when ``None``."""
    command = [json_contracts_command(), "serve"]
    env = {**os.environ, **server_env(folder)}
    if data is None:
        return subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=EOF_TIMEOUT, check=False
        )
    return subprocess.run(command, input=data, capture_output=True, env=env, timeout=EOF_TIMEOUT, check=False)


def _request(request_id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({} if params is None else {"params": params})}


def test_a_batch_in_a_2025_03_26_session_is_answered_with_one_batch(folder: Path) -> None:
    initialize = _request(
        1,
        "initialize",
        {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
    )
    batch = [
        _request(2, "ping"),
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}},
        _request(3, "tools/call", {"name": "validate_json", "arguments": {"contract": "no-ops", "json": {}}}),
        _request(4, "resources/read", {"uri": "json-contract://nope"}),
    ]
    lines = [initialize, {"jsonrpc": "2.0", "method": "notifications/initialized"}, batch]
    data = "".join(json.dumps(line) + "\n" for line in lines).encode()

    process = _serve(folder, data)

    assert process.returncode == 0, process.stderr.decode()
    assert b"Traceback" not in process.stderr
    replies = process.stdout.decode().splitlines()
    assert len(replies) == 2, replies  # the initialize answer, then one line for the whole batch
    first, second = replies
    assert json.loads(first)["result"]["protocolVersion"] == "2025-03-26"
    answers = json.loads(second)
    assert isinstance(answers, list), second
    by_id = {answer["id"]: answer for answer in answers}
    assert sorted(by_id) == [2, 3, 4]  # one answer per request, none for the notification
    assert by_id[2]["result"] == {}
    assert by_id[3]["result"]["structuredContent"]["valid"] is True
    assert by_id[4]["error"]["code"] == -32002


def test_serve_with_stdin_at_eof_exits_0_quietly(folder: Path) -> None:
    process = _serve(folder, None)

    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout == b""
    assert b"Traceback" not in process.stderr
