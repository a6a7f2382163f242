"""Every request with an id gets exactly one answer with that id, on every stdio transport.

A real ``json-contracts`` process reads the lines through a pipe (the lean transport) or from a
regular file (the threaded one, also used on Windows). An id that is not a string or an integer
makes an invalid request: JSON-RPC answers it with -32600 and id null, and MCP forbids a null id.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.mcp import INITIALIZE

MIB = 1024 * 1024
TOO_LONG = {"code": -32600, "message": "Request line is longer than 16777216 bytes; send a smaller document"}
BAD_ID = {"code": -32600, "message": "Invalid request: id must be a string or an integer"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    contracts = tmp_path / "json-contracts"
    contracts.mkdir()
    (contracts / "open.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    return contracts


def _serve(folder: Path, lines: list[str], stdin_kind: str) -> list[dict[str, Any]]:
    """Run the server on ``lines`` then end of input; its answers, in order."""
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "false"})
    data = "".join(line + "\n" for line in [json.dumps({**INITIALIZE, "id": "init"}), *lines]).encode()
    command = [sys.executable, "-m", "json_contracts"]
    if stdin_kind == "pipe":
        process = subprocess.run(command, input=data, capture_output=True, env=env, timeout=120)
    else:
        requests = folder.parent / "requests.jsonl"
        requests.write_bytes(data)
        with requests.open("rb") as stdin:
            process = subprocess.run(command, stdin=stdin, capture_output=True, env=env, timeout=120)
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    assert b"Traceback" not in process.stderr, process.stderr.decode()[-2000:]
    answers = [json.loads(line) for line in process.stdout.splitlines()]
    return [answer for answer in answers if answer["id"] != "init"]


def _status(request_id: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "status"}})


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_a_request_whose_id_is_not_a_string_or_integer_is_answered_once_with_id_null(
    folder: Path, stdin_kind: str
) -> None:
    # Before: the SDK read each of these as a notification and nothing was ever answered.
    odd = ["1.5", "true", "false", "null", "{}", "[]", '{"a": 1}', "1e3"]
    lines = [
        f'{{"jsonrpc": "2.0", "id": {value}, "method": "tools/call", "params": {{"name": "status"}}}}' for value in odd
    ]
    lines.append(f'{{"jsonrpc": "2.0", "id": 2.5, "method": "tools/call", "params": {"[" * 300}{"]" * 300}}}')
    lines.append(_status(7))

    answers = _serve(folder, lines, stdin_kind)

    assert [answer.get("error") for answer in answers[:-1]] == [BAD_ID] * (len(odd) + 1)
    assert all(answer["id"] is None for answer in answers[:-1])
    assert answers[-1]["id"] == 7
    assert "result" in answers[-1]


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_an_over_long_line_is_refused_on_every_stdio_transport_with_its_own_id(folder: Path, stdin_kind: str) -> None:
    # Before: the file transport (the SDK's) read the whole line, without a limit, and answered
    # a schema error or nothing; the pipe transport answered an escaped id with its raw text.
    big = "x" * (17 * MIB)

    def long_call(id_text: str, *, id_last: bool = False) -> str:
        params = f'"params": {{"name": "validate_json", "arguments": {{"contract": "open", "json": {{"t": "{big}"}}}}}}'
        if id_last:
            return f'{{"jsonrpc": "2.0", "method": "tools/call", {params}, "id": {id_text}}}'
        return f'{{"jsonrpc": "2.0", "id": {id_text}, "method": "tools/call", {params}}}'

    lines = [
        long_call('"a\\"b"'),
        long_call('"\\u0041"'),
        long_call("12"),
        long_call('"last"', id_last=True),
        long_call("1.5"),
        _status(99),
    ]

    answers = _serve(folder, lines, stdin_kind)

    assert [(answer["id"], answer.get("error")) for answer in answers] == [
        ('a"b', TOO_LONG),
        ("A", TOO_LONG),
        (12, TOO_LONG),
        ("last", TOO_LONG),
        (None, TOO_LONG),
        (99, answers[-1].get("error")),
    ]
    assert "result" in answers[-1]


@pytest.mark.parametrize("stdin_kind", ["pipe", "file"])
def test_every_ordinary_request_still_gets_exactly_one_answer_in_order(folder: Path, stdin_kind: str) -> None:
    # Calls now run in worker threads; one client's answers still come back in the order it asked.
    lines = []
    for i in range(60):
        document = {"n": i, "text": "y" * (200_000 if i % 10 == 0 else 10)}
        call = {"name": "validate_json", "arguments": {"contract": "open", "json": document}}
        lines.append(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": call}))
    lines.append(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    answers = _serve(folder, lines, stdin_kind)

    assert [answer["id"] for answer in answers] == list(range(60))
    assert all(answer["result"]["structuredContent"]["valid"] for answer in answers)
