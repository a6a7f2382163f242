"""``tools/list`` and the handshake, against what the TypeScript server answers (tests/data/mcp-*.json)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from mcp import Client

from tests.support.golden import golden_json
from tests.support.mcp import TOOL_NAMES, Served

pytestmark = pytest.mark.anyio

READ_ONLY = {name: name != "reload_contracts" for name in TOOL_NAMES}
TITLES = {
    "list_contracts": "List contracts",
    "read_contract": "Read contract",
    "get_json_contract": "Get JSON contract",
    "get_edit_contract": "Get edit contract",
    "validate_json": "Validate JSON",
    "get_repair_contract": "Get repair contract",
    "status": "Server status",
    "reload_contracts": "Reload contracts",
}


async def _tools(served: Served, mode: str) -> list[dict[str, Any]]:
    async with served.client(mode) as client:
        listed = await client.list_tools()
    assert listed.next_cursor is None
    return [tool.model_dump(by_alias=True, mode="json", exclude_none=True) for tool in listed.tools]


def _golden_tools() -> dict[str, dict[str, Any]]:
    return {tool["name"]: tool for tool in golden_json("mcp-tools-list.json")["tools"]}


async def test_eight_tools_in_the_original_order(served: Served, mode: str) -> None:
    tools = await _tools(served, mode)
    assert [tool["name"] for tool in tools] == TOOL_NAMES
    assert [tool["name"] for tool in golden_json("mcp-tools-list.json")["tools"]] == TOOL_NAMES


async def test_names_descriptions_and_input_schemas_equal_the_golden_file(served: Served, mode: str) -> None:
    golden = _golden_tools()
    for tool in await _tools(served, mode):
        assert tool["description"] == golden[tool["name"]]["description"], tool["name"]
        assert tool["inputSchema"] == golden[tool["name"]]["inputSchema"], tool["name"]


async def test_output_schemas_equal_the_golden_file_but_for_the_documented_additions(served: Served, mode: str) -> None:
    golden = _golden_tools()
    for tool in await _tools(served, mode):
        output = copy.deepcopy(tool["outputSchema"])
        if tool["name"] == "get_repair_contract":
            del output["properties"]["repairs"]
        if tool["name"] == "status":
            del output["properties"]["failures"]
        assert output == golden[tool["name"]]["outputSchema"], tool["name"]


async def test_nothing_but_title_and_annotations_is_added_to_a_tool(served: Served, mode: str) -> None:
    golden = _golden_tools()
    for tool in await _tools(served, mode):
        assert set(tool) == set(golden[tool["name"]]) | {"title", "annotations"}, tool["name"]


async def test_get_repair_contract_declares_its_repairs(served: Served) -> None:
    tools = {tool["name"]: tool for tool in await _tools(served, "modern")}
    repairs = tools["get_repair_contract"]["outputSchema"]["properties"]["repairs"]
    assert repairs["type"] == "array"
    item = repairs["items"]
    assert item["type"] == "object"
    assert set(item["required"]) == {"path", "keyword", "action", "message"}
    for key in ("path", "keyword", "action", "message"):
        assert item["properties"][key] == {"type": "string"}
    # The extra output is optional, so a client written for the TypeScript server still validates.
    assert "repairs" not in tools["get_repair_contract"]["outputSchema"].get("required", [])


async def test_status_declares_its_failures(served: Served) -> None:
    tools = {tool["name"]: tool for tool in await _tools(served, "modern")}
    failures = tools["status"]["outputSchema"]["properties"]["failures"]
    assert failures["type"] == "array"
    item = failures["items"]
    assert item["type"] == "object"
    assert {"file", "message", "line", "column"} <= set(item["required"])
    assert item["properties"]["file"] == {"type": "string"}
    assert item["properties"]["message"] == {"type": "string"}
    assert item["properties"]["line"] == {"type": "integer"}
    assert item["properties"]["column"] == {"type": "integer"}
    assert "failures" not in tools["status"]["outputSchema"].get("required", [])


async def test_titles_and_annotations(served: Served, mode: str) -> None:
    for tool in await _tools(served, mode):
        name = tool["name"]
        assert tool["title"] == TITLES[name]
        annotations = tool["annotations"]
        assert annotations["title"] == TITLES[name]
        assert annotations["openWorldHint"] is False, name
        assert annotations.get("destructiveHint", False) is False, name
        if READ_ONLY[name]:
            assert annotations["readOnlyHint"] is True, name
        else:
            assert annotations.get("readOnlyHint", False) is False, name
            assert annotations["idempotentHint"] is True
            # Explicitly false: MCP's default for a non-read-only tool is destructiveHint true.
            assert annotations["destructiveHint"] is False


# --- the handshake ---------------------------------------------------------------------------------


async def test_a_legacy_client_completes_the_2025_handshake(served: Served) -> None:
    async with served.client("legacy") as client:
        assert client.protocol_version == "2025-11-25"
        assert client.server_info is not None
        assert client.server_info.name == "json-contracts"
        capabilities = client.server_capabilities
        assert capabilities.tools is not None
        assert capabilities.prompts is not None
        assert capabilities.resources is not None
        assert capabilities.logging is None
        assert capabilities.completions is None
        # In process, updates are pushed on the session: subscriptions are offered and honoured.
        assert capabilities.resources.subscribe is True
        assert capabilities.resources.list_changed is True
        assert [tool.name for tool in (await client.list_tools()).tools] == TOOL_NAMES


async def test_a_modern_client_discovers_the_server(served: Served) -> None:
    async with served.client("modern") as client:
        assert client.protocol_version == "2026-07-28"
        assert client.server_capabilities.tools is not None
        assert client.server_capabilities.resources is not None
        assert client.server_capabilities.prompts is not None


async def test_the_served_initialize_result_is_the_original_s(served: Served) -> None:
    """Over the loop stdio runs (``serve_streams``): the golden result, version aside, plus
    ``resources.subscribe`` (stdio pushes resource updates; the TypeScript server offers none)."""
    golden = golden_json("mcp-initialize.json")
    async with Client(served.stdio_like(), mode="legacy") as client:
        assert client.protocol_version == "2025-11-25"
        result = client.session.initialize_result
        assert result is not None
        dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    assert dumped["serverInfo"]["name"] == golden["serverInfo"]["name"]
    assert "instructions" not in dumped
    capabilities = dumped["capabilities"]
    assert capabilities["resources"]["listChanged"] is True
    assert capabilities["resources"]["subscribe"] is True
    assert set(capabilities) == set(golden["capabilities"])
