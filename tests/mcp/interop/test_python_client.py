"""The official Python SDK client (mcp 2.3) against a real server process, on stdio and streamable
HTTP, in both protocol eras: the 2025 handshake (``legacy``) and 2026-07-28 (``auto`` discovers it)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.interop.support import HttpServer, contract_names, json_contracts_command, server_env
from tests.support.mcp import TOKEN

pytestmark = pytest.mark.anyio

#: The version each client mode ends up speaking with this server.
MODES = {"legacy": "2025-11-25", "auto": "2026-07-28"}
#: "Resource not found" per era: -32002 up to 2025-11-25, Invalid params (-32602) from 2026-07-28.
NOT_FOUND = {"legacy": -32002, "auto": -32602}
TRANSPORTS = ["stdio", "http"]


@asynccontextmanager
async def connect(request: pytest.FixtureRequest, transport: str, mode: str, **options: Any) -> AsyncIterator[Client]:
    """A Python SDK client of a real server: a ``json-contracts serve`` it launches, or the module's HTTP one."""
    server: Any
    if transport == "stdio":
        folder: Path = request.getfixturevalue("folder")
        env = {**os.environ, **server_env(folder, **options.pop("env", {}))}
        server = StdioServerParameters(command=json_contracts_command(), args=["serve"], env=env)
        async with Client(server, mode=mode, **options) as client:
            yield client
        return
    http: HttpServer = request.getfixturevalue("http")
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as http_client,
        Client(streamable_http_client(http.url, http_client=http_client), mode=mode, **options) as client,
    ):
        yield client


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("mode", list(MODES))
async def test_the_python_client_negotiates_and_uses_every_feature(
    request: pytest.FixtureRequest, folder: Path, transport: str, mode: str
) -> None:
    async with connect(request, transport, mode) as client:
        assert client.protocol_version == MODES[mode]
        capabilities = client.server_capabilities
        assert capabilities.tools is not None
        assert capabilities.resources is not None
        assert capabilities.prompts is not None

        tools = await client.list_tools()
        assert len(tools.tools) == 8
        listed = await client.call_tool("list_contracts", {})
        assert not listed.is_error
        assert listed.structured_content is not None
        assert [c["name"] for c in listed.structured_content["contracts"]] == contract_names(folder)

        missing = await client.call_tool("read_contract", {"contract": "nope"})
        assert missing.is_error is True
        assert missing.content[0].type == "text"
        assert json.loads(missing.content[0].text) == {"error": "Contract not found: nope"}

        read = await client.read_resource("json-contract://support-ticket")
        assert json.loads(read.contents[0].text)["name"] == "support-ticket"  # type: ignore[union-attr]
        with pytest.raises(MCPError) as unknown:
            await client.read_resource("json-contract://nope")
        assert unknown.value.code == NOT_FOUND[mode]

        prompt = await client.get_prompt("json_contract_prompt", {"contract": "support-ticket", "input": "hi"})
        assert prompt.messages[0].content.text.startswith("Convert the input into JSON.")  # type: ignore[union-attr]
        with pytest.raises(MCPError) as bad:
            await client.get_prompt("json_contract_prompt", {})
        assert bad.value.code == -32602
