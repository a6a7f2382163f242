"""The protocol surface as JSON-RPC text, in memory: lines parsed and answers
serialised exactly as the SDK's stdio transport does, served by the loop ``json-contracts serve``
runs (``serve_streams``). The real subprocess is exercised in ``test_e2e_stdio.py``."""

from __future__ import annotations

import json
from typing import Any

import mcp.types as types
import pytest

from json_contracts import __version__
from json_contracts._json.text import dumps
from tests.support.golden import golden_json
from tests.support.mcp import Served, nested_list, wire_peer, wire_tool_error
from tests.support.samples import VALID_TICKET

pytestmark = pytest.mark.anyio

TICKET = "support-ticket"
MIB = 1024 * 1024
DEPTH_MESSAGE = "json is nested more than 64 levels deep; flatten it"


def _validate_line(request_id: Any, document_text: str) -> str:
    """A ``validate_json`` call whose ``json`` argument is ``document_text``, verbatim."""
    envelope = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": "validate_json", "arguments": {}},
        }
    )
    arguments = f'{{"contract": "{TICKET}", "json": {document_text}}}'
    return envelope.replace('"arguments": {}', f'"arguments": {arguments}')


def _tool_result(answer: dict[str, Any]) -> dict[str, Any]:
    assert "error" not in answer, answer
    result: dict[str, Any] = answer["result"]
    return result


# --- handshake ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"])
async def test_initialize_echoes_a_supported_version(served: Served, version: str) -> None:
    async with wire_peer(served) as peer:
        answer = await peer.initialize(version)
    assert answer["result"]["protocolVersion"] == version


async def test_initialize_answers_an_unknown_version_with_the_latest(served: Served) -> None:
    async with wire_peer(served) as peer:
        answer = await peer.initialize("1999-01-01")
    assert answer["result"]["protocolVersion"] == "2025-11-25"


async def test_initialize_result_matches_the_original(served: Served) -> None:
    golden = golden_json("mcp-initialize.json")
    async with wire_peer(served) as peer:
        result = (await peer.initialize(golden["protocolVersion"]))["result"]
    assert result["protocolVersion"] == golden["protocolVersion"]
    assert result["serverInfo"] == {"name": "json-contracts", "version": __version__}
    assert "instructions" not in result
    # The SDK spells out false flags the TypeScript server leaves out; what is true is the same, plus
    # resources.subscribe: this server delivers resource updates where it can push (stdio, in process).
    expected = {**golden["capabilities"], "resources": {**golden["capabilities"]["resources"], "subscribe": True}}
    capabilities = result["capabilities"]
    assert set(capabilities) == set(expected)
    for name, flags in capabilities.items():
        assert {k: v for k, v in flags.items() if v} == expected[name], name


async def test_ping_and_both_id_kinds_are_echoed(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        assert await peer.request(7, "ping") == {"jsonrpc": "2.0", "id": 7, "result": {}}
        assert await peer.request("abc", "ping") == {"jsonrpc": "2.0", "id": "abc", "result": {}}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("bogus/method", {}),
        ("logging/setLevel", {"level": "info"}),
        (
            "completion/complete",
            {
                "ref": {"type": "ref/prompt", "name": "json_contract_prompt"},
                "argument": {"name": "contract", "value": "s"},
            },
        ),
    ],
)
async def test_unsupported_methods_are_method_not_found(served: Served, method: str, params: Any) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        answer = await peer.request(1, method, params)
        assert answer["error"]["code"] == -32601
        assert answer["error"]["message"] == "Method not found"
        assert (await peer.request(2, "ping"))["result"] == {}


async def test_resources_subscribe_is_answered_where_updates_can_be_pushed(served: Served) -> None:
    """The stdio loop pushes ``notifications/resources/updated``, so it accepts subscriptions (and
    unsubscriptions) and refuses a malformed URI as invalid params."""
    uri = f"json-contract://{TICKET}"
    async with wire_peer(served) as peer:
        await peer.initialize()
        assert (await peer.request(1, "resources/subscribe", {"uri": uri}))["result"] == {}
        assert (await peer.request(2, "resources/unsubscribe", {"uri": uri}))["result"] == {}
        bad = await peer.request(3, "resources/subscribe", {"uri": "file:///etc/passwd"})
        assert bad["error"]["code"] == -32602
        assert bad["error"]["message"] == "Invalid resource URI scheme: file:///etc/passwd"
        assert (await peer.request(4, "ping"))["result"] == {}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("tools/call", {}),
        ("tools/call", {"name": 3}),
        ("tools/call", {"name": "status", "arguments": "x"}),
        ("tools/call", {"name": "status", "arguments": [1]}),
        ("prompts/get", {"name": "json_contract_prompt", "arguments": {"contract": TICKET, "input": 5}}),
        ("resources/read", {}),
    ],
    ids=["no-name", "name-number", "arguments-string", "arguments-array", "prompt-number", "no-uri"],
)
async def test_malformed_params_are_a_json_rpc_error_and_the_server_goes_on(
    served: Served, method: str, params: Any
) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        answer = await peer.request(1, method, params)
        assert "result" not in answer
        assert isinstance(answer["error"]["code"], int)
        assert "isError" not in (await peer.request(2, "tools/call", {"name": "status", "arguments": {}}))["result"]


async def test_garbage_lines_get_no_reply_and_stop_nothing(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        for line in ["not json", "[1, 2", '{"jsonrpc": "2.0", "id": 5}', "{}", '"text"']:
            await peer.send_line(line)
        answer = await peer.request("after", "ping")
        assert answer["result"] == {}
        assert [message.get("id") for message in peer.received] == ["init", "after"]


async def test_missing_arguments_count_as_empty(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(await peer.request(1, "tools/call", {"name": "list_contracts"}))
    assert [c["name"] for c in result["structuredContent"]["contracts"]] == ["no-ops", "patch-edit", TICKET]


# --- results as bytes ---------------------------------------------------------------------------------


async def test_a_tool_result_on_the_wire(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(
            await peer.request(
                1, "tools/call", {"name": "validate_json", "arguments": {"contract": TICKET, "json": VALID_TICKET}}
            )
        )
    payload = {"valid": True, "contract": TICKET, "json": VALID_TICKET, "errors": []}
    assert result["structuredContent"] == payload
    assert list(result["structuredContent"]) == list(payload)
    assert result["content"] == [{"type": "text", "text": dumps(payload)}]
    assert not result.get("isError", False)


async def test_a_success_result_has_no_is_error_key(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(await peer.request(1, "tools/call", {"name": "status", "arguments": {}}))
    assert set(result) == {"content", "structuredContent"}


async def test_an_error_result_on_the_wire(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(await peer.request(1, "tools/call", {"name": "nope", "arguments": {}}))
    assert result == {
        "content": [{"type": "text", "text": dumps({"error": "Unknown tool: nope"})}],
        "isError": True,
    }


async def test_resource_and_prompt_errors_carry_the_message_and_the_spec_s_code(served: Served) -> None:
    """A 2025-era session: an unknown resource is "resource not found" (-32002), a malformed URI and
    an unknown prompt are invalid params (-32602)."""
    async with wire_peer(served) as peer:
        await peer.initialize()
        read = await peer.request(1, "resources/read", {"uri": "json-contract://nope"})
        malformed = await peer.request(2, "resources/read", {"uri": "json-contract://a/b"})
        prompt = await peer.request(3, "prompts/get", {"name": "nope", "arguments": {}})
    assert read["error"] == {
        "code": -32002,
        "message": "Contract not found: nope",
        "data": {"uri": "json-contract://nope"},
    }
    assert malformed["error"] == {
        "code": -32602,
        "message": "Invalid contract name: a/b",
        "data": {"uri": "json-contract://a/b"},
    }
    assert prompt["error"]["code"] == -32602
    assert prompt["error"]["message"] == "Unknown prompt: nope"


# --- hostile documents --------------------------------------------------------------------------------


async def test_a_two_mib_document_on_the_wire_is_refused_clearly(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(await peer.send_and_wait(1, _validate_line(1, json.dumps("x" * (2 * MIB)))))
    assert (
        wire_tool_error(result)
        == f"json is {2 * MIB + 2} bytes, over the limit of {MIB} bytes; send a smaller document"
    )


async def test_a_150_deep_document_on_the_wire_is_refused_clearly(served: Served) -> None:
    async with wire_peer(served) as peer:
        await peer.initialize()
        result = _tool_result(await peer.send_and_wait(1, _validate_line(1, "[" * 150 + "]" * 150)))
        assert wire_tool_error(result) == DEPTH_MESSAGE
        assert (await peer.request(2, "ping"))["result"] == {}


async def test_a_200000_deep_document_that_reaches_the_handler_is_refused_clearly(served: Served) -> None:
    """Built iteratively and handed over as a message object: the handler's bound, no RecursionError."""
    async with wire_peer(served) as peer:
        await peer.initialize()
        request = types.JSONRPCRequest.model_construct(
            jsonrpc="2.0",
            id=1,
            method="tools/call",
            params={"name": "validate_json", "arguments": {"contract": TICKET, "json": nested_list(200_000)}},
        )
        await peer.send_message(request)
        result = _tool_result(await peer.response(1))
        assert wire_tool_error(result) == DEPTH_MESSAGE
        assert (await peer.request(2, "ping"))["result"] == {}


@pytest.mark.parametrize("depth", [200, 900])
async def test_a_document_too_deep_for_the_sdk_parser_is_still_answered(served: Served, depth: int) -> None:
    """pydantic-core refuses the line at ~200 levels; Python's parser still reads it, so the tool answers."""
    async with wire_peer(served) as peer:
        await peer.initialize()
        await peer.send_line(_validate_line(1, "[" * depth + "]" * depth))
        assert (await peer.request(2, "ping"))["result"] == {}  # the server is alive...
        result = _tool_result(await peer.response(1, timeout=20))  # ...and the request was answered
    assert wire_tool_error(result) == DEPTH_MESSAGE


async def test_a_line_too_deep_for_any_parser_gets_a_json_rpc_error(served: Served) -> None:
    """200,000 levels: no parser reads it, but the id that precedes params is answered."""
    depth = 200_000
    async with wire_peer(served) as peer:
        await peer.initialize()
        await peer.send_line(_validate_line(7, "[" * depth + "]" * depth))
        answer = await peer.response(7, timeout=20)
        assert answer["error"] == {
            "code": -32600,
            "message": "Request is nested too deeply to read; documents may be nested at most 64 levels",
        }
        assert (await peer.request(8, "ping"))["result"] == {}


async def test_a_too_deep_line_with_its_id_last_is_answered_too(served: Served) -> None:
    """The id is found in the outermost object wherever it is, so the client never waits forever."""
    depth = 200_000
    line = '{"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "validate_json", "arguments": {"json": '
    async with wire_peer(served) as peer:
        await peer.initialize()
        await peer.send_line(line + "[" * depth + "]" * depth + '}}, "id": 9}')
        answer = await peer.response(9, timeout=20)
        assert answer["error"]["code"] == -32600
        assert answer["error"]["message"].startswith("Request is nested too deeply to read")
        assert (await peer.request(10, "ping"))["result"] == {}
