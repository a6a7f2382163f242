"""What the SDK path answers, spec-exact for the era a session speaks: tool errors that every client
accepts, and JSON-RPC error codes (and details) for resources, prompts and malformed params.

Each test runs the SDK server itself (``Server.run`` over memory streams, or the SDK's in-memory
client), with no stdio transport in front, so it holds for every transport that hands a request to
the SDK (streamable HTTP, and whatever stdio forwards).
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client, MCPError
from mcp.shared.memory import create_client_server_memory_streams

from json_contracts._json.text import dumps
from tests.support.mcp import Served, WirePeer

pytestmark = pytest.mark.anyio

TICKET = "support-ticket"
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002  # the handshake era's code; 2026-07-28 uses INVALID_PARAMS


@asynccontextmanager
async def sdk_peer(served: Served) -> AsyncIterator[WirePeer]:
    """A JSON-RPC peer talking straight to the SDK server (no stdio transport in front)."""
    async with (
        create_client_server_memory_streams() as ((client_read, client_write), (server_read, server_write)),
        anyio.create_task_group() as group,
    ):
        options = served.server.server.create_initialization_options()
        group.start_soon(served.server.server.run, server_read, server_write, options)
        try:
            yield WirePeer(client_write, client_read)
        finally:
            group.cancel_scope.cancel()


async def raw_request(client: Client, method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Send ``params`` unchecked (the SDK client would refuse a malformed request itself)."""
    data: dict[str, Any] = {"method": method, "params": copy.deepcopy(params)}
    options: Any = {}
    client.session._stamp(data, options)  # the era's envelope: _meta in 2026-07-28, nothing before
    result: dict[str, Any] = await client.session._dispatcher.send_raw_request(method, data["params"], options)
    return result


# --- 1. tool errors: content and isError, no structured content -----------------------------------


ERROR_CALLS = [
    ("read_contract", {"contract": "nope"}, "Contract not found: nope"),
    ("nope", {}, "Unknown tool: nope"),
    (
        "get_json_contract",
        {"contract": "no-ops", "input": "x"},
        "Contract no-ops does not enable the create operation.",
    ),
]


@pytest.mark.parametrize(("tool", "arguments", "message"), ERROR_CALLS, ids=[c[0] for c in ERROR_CALLS])
async def test_a_tool_error_carries_no_structured_content(
    served: Served, mode: str, tool: str, arguments: dict[str, Any], message: str
) -> None:
    """Structured content must match the tool's outputSchema; ``{"error": …}`` matches none, and
    TypeScript SDK clients reject a whole result whose structured content does not match."""
    async with served.client(mode) as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error is True
    assert result.structured_content is None
    assert [(c.type, c.text) for c in result.content] == [("text", dumps({"error": message}))]  # type: ignore[union-attr]


async def test_a_tool_error_on_the_wire_is_content_and_is_error_only(served: Served) -> None:
    async with sdk_peer(served) as peer:
        await peer.initialize()
        answer = await peer.request(1, "tools/call", {"name": "read_contract", "arguments": {"contract": "nope"}})
    assert answer["result"] == {
        "content": [{"type": "text", "text": dumps({"error": "Contract not found: nope"})}],
        "isError": True,
    }


async def test_a_success_still_carries_structured_content_and_no_is_error(served: Served) -> None:
    async with sdk_peer(served) as peer:
        await peer.initialize()
        answer = await peer.request(1, "tools/call", {"name": "read_contract", "arguments": {"contract": TICKET}})
    assert set(answer["result"]) == {"content", "structuredContent"}
    assert json.loads(answer["result"]["content"][0]["text"]) == answer["result"]["structuredContent"]


async def test_every_structured_content_matches_the_declared_output_schema(served: Served, mode: str) -> None:
    """What a TypeScript SDK client checks: any structuredContent validates against outputSchema."""
    calls: list[tuple[str, dict[str, Any]]] = [
        ("read_contract", {"contract": "nope"}),
        ("read_contract", {"contract": TICKET}),
        ("validate_json", {"contract": TICKET, "json": {}}),
        ("validate_json", {"contract": "../x", "json": {}}),
        ("get_edit_contract", {"contract": "patch-edit", "currentJson": {}, "input": "x"}),
        ("reload_contracts", {"extra": 1}),
        ("status", {}),
    ]
    async with served.client(mode) as client:
        schemas = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            schema = schemas[name]
            assert schema is not None
            if result.structured_content is not None:
                jsonschema.validate(result.structured_content, schema)


# --- 5. error codes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("era", "code"),
    [("legacy", RESOURCE_NOT_FOUND), ("modern", INVALID_PARAMS)],  # 2026-07-28 retired -32002
)
async def test_an_unknown_resource_gets_the_code_of_the_session_s_era(served: Served, era: str, code: int) -> None:
    async with served.client(era) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource("json-contract://nope")
    assert caught.value.code == code
    assert caught.value.message == "Contract not found: nope"
    assert caught.value.error.data == {"uri": "json-contract://nope"}


@pytest.mark.parametrize(
    ("uri", "message"),
    [
        ("file:///etc/passwd", "Invalid resource URI scheme: file:///etc/passwd"),
        ("json-contract://", "Invalid resource URI: json-contract://"),
        ("json-contract://../x", "Invalid contract name: ../x"),
    ],
)
async def test_a_malformed_resource_uri_is_invalid_params(served: Served, mode: str, uri: str, message: str) -> None:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
    assert (caught.value.code, caught.value.message) == (INVALID_PARAMS, message)
    assert caught.value.error.data == {"uri": uri}


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("nope", {}, "Unknown prompt: nope"),
        ("json_contract_prompt", {"contract": "missing", "input": "x"}, "Contract not found: missing"),
        (
            "json_contract_prompt",
            {"contract": "no-ops", "input": "x"},
            "Contract no-ops does not enable the create operation.",
        ),
    ],
)
async def test_a_bad_prompt_request_is_invalid_params(
    served: Served, mode: str, name: str, arguments: dict[str, str], message: str
) -> None:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt(name, arguments)
    assert (caught.value.code, caught.value.message) == (INVALID_PARAMS, message)


async def test_bad_prompt_arguments_are_invalid_params_with_the_zod_list(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt("json_contract_prompt", {"contract": TICKET})
    assert caught.value.code == INVALID_PARAMS
    assert json.loads(caught.value.message)[0]["path"] == ["input"]


MALFORMED = [
    ("tools/call", {"arguments": {}}, "params.name: Field required"),
    ("tools/call", {"name": "status", "arguments": [1]}, "params.arguments: Input should be a valid dictionary"),
    ("resources/read", {"cursor": "x"}, "params.uri: Field required"),
    (
        "prompts/get",
        {"name": "json_contract_prompt", "arguments": {"input": 5}},
        "params.arguments.input: Input should be a valid string",
    ),
]


@pytest.mark.parametrize(
    ("method", "params", "detail"), MALFORMED, ids=[f"{m}-{d.split(':')[0]}" for m, _, d in MALFORMED]
)
async def test_malformed_params_say_what_is_wrong(
    served: Served, mode: str, method: str, params: dict[str, Any], detail: str
) -> None:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await raw_request(client, method, params)
        assert caught.value.code == INVALID_PARAMS
        assert caught.value.message == f"Invalid request parameters: {detail}"
        path, problem = detail.split(": ", 1)
        assert {"path": path, "problem": problem} in caught.value.error.data
        assert len((await client.list_tools()).tools) == 8  # and the server answers on


async def test_the_detail_of_malformed_params_is_bounded(served: Served) -> None:
    """A hostile request with a huge key in a thousand bad places gets a short message."""
    arguments = {f"{'k' * 10_000}{i}": i for i in range(1_000)}
    async with sdk_peer(served) as peer:
        await peer.initialize()
        answer = await peer.request(1, "prompts/get", {"name": "json_contract_prompt", "arguments": arguments})
    error = answer["error"]
    assert error["code"] == INVALID_PARAMS
    assert error["message"].startswith("Invalid request parameters: params.arguments.kkkk")
    assert len(error["message"]) < 2_000
    assert len(json.dumps(error["data"])) < 4_000
    assert "more" in error["message"]
