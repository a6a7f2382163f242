"""Live reload against real files: a watching `json-contracts` process and an SDK client."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import ResourceListChangedNotification

TICKET = {
    "description": "Support ticket.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"summary": {"type": "string"}},
        "required": ["summary"],
    },
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _until(check: Callable[[], Awaitable[bool]], seconds: float = 10.0) -> None:
    with anyio.fail_after(seconds):
        while not await check():
            await anyio.sleep(0.05)


@pytest.mark.anyio
async def test_edits_breakage_and_repair_on_disk_reach_a_connected_client(tmp_path: Path) -> None:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    ticket = folder / "support-ticket.json"
    ticket.write_text(json.dumps(TICKET), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "WATCH_CONTRACTS"}}
    env["JSON_CONTRACTS_DIR"] = str(folder)
    params = StdioServerParameters(command=sys.executable, args=["-m", "json_contracts"], env=env)
    notified: list[Any] = []

    async def on_message(message: Any) -> None:
        if isinstance(message, ResourceListChangedNotification):
            notified.append(message)

    with anyio.fail_after(60):
        async with Client(stdio_client(params), mode="legacy", message_handler=on_message) as client:

            async def names() -> list[str]:
                listed = await client.call_tool("list_contracts", {})
                return [c["name"] for c in listed.structured_content["contracts"]]

            async def status() -> dict[str, Any]:
                content: dict[str, Any] = (await client.call_tool("status", {})).structured_content
                return content

            before = (await client.call_tool("read_contract", {"contract": "support-ticket"})).structured_content
            assert await names() == ["support-ticket"]

            # A new file appears: the client is told, and the contract is served.
            (folder / "search-query.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")

            async def search_query_served() -> bool:
                return "search-query" in await names()

            await _until(search_query_served)
            await _until(lambda: _true_if(bool(notified)))

            # The ticket breaks: it keeps serving its last good version, and status says why.
            ticket.write_text('{"schema": {"type": "object"}, "version": 2}', encoding="utf-8")

            async def failure_reported() -> bool:
                return bool((await status())["failures"])

            await _until(failure_reported)
            failure = (await status())["failures"][0]
            assert failure["file"] == "support-ticket.json"
            assert failure["message"] == "Contract must not include a version field; use Git for versioning"
            assert failure["line"] == 1
            still = await client.call_tool("read_contract", {"contract": "support-ticket"})
            assert still.structured_content == before

            # The next good save takes effect, and the failure clears.
            repaired = dict(TICKET, description="Support ticket, repaired.")
            ticket.write_text(json.dumps(repaired), encoding="utf-8")

            async def repaired_served() -> bool:
                read = await client.call_tool("read_contract", {"contract": "support-ticket"})
                description: str = read.structured_content["description"]
                return description == "Support ticket, repaired."

            await _until(repaired_served)
            assert (await status())["failures"] == []

            # A deleted file is dropped.
            (folder / "search-query.json").unlink()

            async def dropped() -> bool:
                return await names() == ["support-ticket"]

            await _until(dropped)
            count_after_changes = len(notified)

    assert count_after_changes >= 3


async def _true_if(value: bool) -> bool:
    return value


RELOAD_RECORDED: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "ts-order" / "reload.json").read_text(encoding="utf-8")
)


def _warnings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("[json-contracts] warn: ")]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("allow_invalid", "recorded"), [("false", "watch_failed_stderr"), ("true", "watch_skipped_stderr")]
)
async def test_a_watched_reload_that_meets_a_broken_file_logs_the_typescript_line(
    tmp_path: Path, allow_invalid: str, recorded: str
) -> None:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    (folder / "a.json").write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "WATCH_CONTRACTS", "DEBUG"}}
    env.update(JSON_CONTRACTS_DIR=str(folder), ALLOW_INVALID_CONTRACTS=allow_invalid)
    params = StdioServerParameters(command=sys.executable, args=["-m", "json_contracts"], env=env)
    log = tmp_path / "stderr.txt"
    with anyio.fail_after(60), log.open("w", encoding="utf-8") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            (folder / "b.json").write_text('{"schema": 5}', encoding="utf-8")

            async def logged() -> bool:
                status = (await client.call_tool("status", {})).structured_content
                return bool(status["failures"]) and bool(_warnings(log.read_text(encoding="utf-8")))

            await _until(logged, 20)
    assert _warnings(log.read_text(encoding="utf-8")) == _warnings(RELOAD_RECORDED[recorded])
