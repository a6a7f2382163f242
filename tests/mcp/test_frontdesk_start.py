"""Start-up over stdio loads no MCP SDK: the front desk answers the handshake and the tools itself.

Importing the SDK (pydantic models for every protocol revision, its client) is most of what a
start-up used to cost. With watching on (the default) the watcher imported it anyway, through a
type it only needed for annotations, so the default start-up paid for it. The test looks at the
running server's memory map: pydantic's compiled core is mapped as soon as the SDK is imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mcp import CONTRACT_FILES, contract_text

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps (Linux)")


def _line(message: dict[str, object]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _sdk_loaded(pid: int) -> bool:
    return "pydantic_core" in Path(f"/proc/{pid}/maps").read_text()


@pytest.mark.parametrize("watch", ["true", "false"])
def test_the_handshake_and_a_tool_call_load_no_sdk_and_a_resource_read_does(tmp_path: Path, watch: str) -> None:
    for name, content in CONTRACT_FILES.items():
        (tmp_path / name).write_text(contract_text(content), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(tmp_path), "WATCH_CONTRACTS": watch})
    with subprocess.Popen(
        [sys.executable, "-m", "json_contracts", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    ) as process:
        _converse(process)


def _converse(process: subprocess.Popen[bytes]) -> None:
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        initialize = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        process.stdin.write(_line({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize}))
        process.stdin.write(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        process.stdin.write(_line({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        arguments = {"contract": "support-ticket", "json": {}}
        call = {"name": "validate_json", "arguments": arguments}
        process.stdin.write(_line({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": call}))
        process.stdin.flush()
        answers = [json.loads(process.stdout.readline()) for _ in range(3)]
        assert [a["id"] for a in answers] == [1, 2, 3]
        assert len(answers[1]["result"]["tools"]) == 8
        assert not _sdk_loaded(process.pid)

        uri = "json-contract://support-ticket"
        process.stdin.write(_line({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": uri}}))
        process.stdin.flush()
        answer = json.loads(process.stdout.readline())
        assert answer["id"] == 4
        assert answer["result"]["contents"][0]["uri"] == uri
        assert _sdk_loaded(process.pid)  # the SDK answers what the desk does not
    finally:
        process.stdin.close()
        process.wait(30)
