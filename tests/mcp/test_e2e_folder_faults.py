"""The contracts folder taken away, locked, replaced and flooded under a real watching server.

A real ``json-contracts`` process on stdio, an SDK client, real files: ``status`` must say what is
wrong, calls go on being answered, and the server recovers by itself when the folder is back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.support.mcp import assert_tool_error, error_message
from tests.support.mcp_faults import contract_text, versioned

pytestmark = pytest.mark.anyio

NOBODY = 65534


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MCP_TRANSPORT", "PORT", "API_AUTH_TOKEN"}}
    env.update({"JSON_CONTRACTS_DIR": str(folder), "WATCH_CONTRACTS": "true", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


@asynccontextmanager
async def _client(folder: Path, command: list[str]) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=command[0], args=[*command[1:], "-m", "json_contracts"], env=_env(folder))
    async with Client(stdio_client(params), mode="legacy") as client:
        yield client


async def _status(client: Client) -> dict[str, Any]:
    status: dict[str, Any] = (await client.call_tool("status", {})).structured_content
    return status


async def _wait_for(client: Client, check: Callable[[dict[str, Any]], bool], seconds: float = 20) -> dict[str, Any]:
    with anyio.fail_after(seconds):
        while not check(status := await _status(client)):
            await anyio.sleep(0.1)
    return status


def _codes(status: dict[str, Any]) -> list[str]:
    return [failure["code"] for failure in status["failures"]]


async def _version(client: Client) -> int | str:
    """The served version of ``ticket`` (from its description), or the error text."""
    answer = await client.call_tool("read_contract", {"contract": "ticket"})
    if answer.is_error:  # an error is only the text {"error": ...}: no structured content
        message = error_message(answer)
        assert_tool_error(answer, message)
        return message
    data: dict[str, Any] = answer.structured_content
    return int(data["description"].rsplit(" ", 1)[1])


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A contracts folder another user can reach (pytest's own temporary folders are private to us)."""
    base = Path(tempfile.mkdtemp(prefix="json-contracts-faults-"))
    base.chmod(0o755)
    folder = base / "contracts"
    folder.mkdir()
    folder.chmod(0o755)
    (folder / "ticket.json").write_text(contract_text(versioned("ticket", 1)), encoding="utf-8")
    (folder / "ticket.json").chmod(0o644)
    try:
        yield folder
    finally:
        folder.chmod(0o755)
        shutil.rmtree(base)


def _unprivileged_command() -> list[str]:
    """The server command, run as a user a mode of 000 applies to (root reads any folder)."""
    if os.geteuid() != 0:
        return [sys.executable]
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, which reads a folder whatever its mode, and setpriv is not installed")
    command = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable]
    probe = subprocess.run([*command, "-c", "import json_contracts.mcp"], capture_output=True, check=False)
    if probe.returncode != 0:  # e.g. the checkout or the virtual environment is private to root
        pytest.skip("running as root, and user nobody cannot run json-contracts from here")
    return command


async def test_a_folder_made_unreadable_keeps_serving_says_why_and_recovers(shared_folder: Path) -> None:
    folder = shared_folder
    with anyio.fail_after(90):
        async with _client(folder, _unprivileged_command()) as client:
            assert (await _status(client))["loaded"] == 1

            folder.chmod(0o000)
            status = await _wait_for(client, lambda s: _codes(s) == ["JC003"])
            assert "Permission denied" in status["failures"][0]["message"]
            assert status["loaded"] == 1
            assert await _version(client) == 1  # the last good version, still served

            (folder / "ticket.json").write_text(contract_text(versioned("ticket", 2)), encoding="utf-8")
            await anyio.sleep(0.7)  # the watcher has looked again (and could not read it)
            assert await _version(client) == 1

            folder.chmod(0o755)
            status = await _wait_for(client, lambda s: s["failures"] == [])
            assert [c["description"] for c in status["contracts"]] == ["ticket version 2"]
            assert await _version(client) == 2


async def test_a_folder_deleted_replaced_and_flooded_under_a_real_server(tmp_path: Path) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "ticket.json").write_text(contract_text(versioned("ticket", 1)), encoding="utf-8")
    with anyio.fail_after(120):
        async with _client(folder, [sys.executable]) as client:
            shutil.rmtree(folder)
            status = await _wait_for(client, lambda s: _codes(s) == ["JC002"])
            assert status["loaded"] == 0
            assert await _version(client) == "Contract not found: ticket"

            folder.mkdir()
            (folder / "ticket.json").write_text(contract_text(versioned("ticket", 2)), encoding="utf-8")
            await _wait_for(client, lambda s: s["loaded"] == 1 and s["failures"] == [])
            assert await _version(client) == 2

            shutil.rmtree(folder)
            folder.write_text("a file where the folder was", encoding="utf-8")
            status = await _wait_for(client, lambda s: _codes(s) == ["JC003"])
            assert "Not a directory" in status["failures"][0]["message"]
            # Still serving what it served before (unless a reload fell between the two calls above
            # and saw no folder at all, which serves nothing; tests/contracts/test_store_faults.py covers this exactly).
            assert status["loaded"] in (0, 1)

            folder.unlink()
            folder.mkdir()
            (folder / "ticket.json").write_text(contract_text(versioned("ticket", 3)), encoding="utf-8")
            await _wait_for(client, lambda s: s["failures"] == [])
            assert await _version(client) == 3

            # A thousand files arrive at once, with calls going on while they load.
            for i in range(1000):
                (folder / f"bulk-{i:04}.json").write_text(contract_text(versioned("bulk", i)), encoding="utf-8")
            (folder / "README.txt").write_text("not a contract", encoding="utf-8")
            assert await _version(client) == 3
            status = await _wait_for(client, lambda s: s["loaded"] == 1001, seconds=60)
            assert status["failures"] == []
            answer = await client.call_tool("validate_json", {"contract": "bulk-0999", "json": {"n": 1000}})
            assert answer.structured_content["errors"][0]["message"] == "must be <= 999"
