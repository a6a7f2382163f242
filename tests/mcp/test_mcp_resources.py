"""Resources: one per contract, the ``json-contract://{name}`` template, and ``resources/read`` with
the TypeScript server's URI checks and messages."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from mcp import MCPError

from json_contracts._json.text import dumps
from json_contracts.agent.payloads import resource_payload
from tests.support.golden import golden_json
from tests.support.mcp import CONTRACT_NAMES, Served
from tests.support.samples import SUPPORT_TICKET

pytestmark = pytest.mark.anyio

TICKET = "support-ticket"


def _dump(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dumped


async def test_one_resource_per_contract_sorted(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        listed = await client.list_resources()
    assert listed.next_cursor is None
    assert [_dump(resource) for resource in listed.resources] == [
        # An empty or absent description is omitted.
        {"uri": "json-contract://no-ops", "name": "no-ops", "mimeType": "application/json"},
        {"uri": "json-contract://patch-edit", "name": "patch-edit", "mimeType": "application/json"},
        {
            "uri": "json-contract://support-ticket",
            "name": TICKET,
            "mimeType": "application/json",
            "description": SUPPORT_TICKET["description"],
        },
    ]


async def test_the_starter_contracts_list_as_the_original_lists_them(serve: Any) -> None:
    folder = resources.files("json_contracts.contracts.starter")
    files = {item.name: item.read_text(encoding="utf-8") for item in folder.iterdir() if item.name.endswith(".json")}
    served = serve(files)
    async with served.client() as client:
        listed = [_dump(resource) for resource in (await client.list_resources()).resources]
    golden = golden_json("mcp-resources-list.json")["resources"]
    # Our starter descriptions are our own text; everything else is the TypeScript server's listing.
    assert [{k: v for k, v in item.items() if k != "description"} for item in listed] == [
        {k: v for k, v in item.items() if k != "description"} for item in golden
    ]
    for item in listed:
        assert item["description"] == json.loads(files[f"{item['name']}.json"])["description"]


async def test_the_template_is_exactly_the_original_s(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        templates = await client.list_resource_templates()
    assert {"resourceTemplates": [_dump(t) for t in templates.resource_templates]} == golden_json(
        "mcp-resources-templates-list.json"
    )


@pytest.mark.parametrize("name", CONTRACT_NAMES)
async def test_read_returns_the_resource_body(served: Served, mode: str, name: str) -> None:
    uri = f"json-contract://{name}"
    async with served.client(mode) as client:
        read = await client.read_resource(uri)
    assert len(read.contents) == 1
    content = read.contents[0]
    assert _dump(content) == {
        "uri": uri,
        "mimeType": "application/json",
        "text": dumps(resource_payload(served.contract(name))),
    }


async def test_the_resource_text_key_order(served: Served) -> None:
    async with served.client() as client:
        ticket = json.loads((await client.read_resource("json-contract://support-ticket")).contents[0].text)  # type: ignore[union-attr]
        no_ops = json.loads((await client.read_resource("json-contract://no-ops")).contents[0].text)  # type: ignore[union-attr]
    assert list(ticket) == [
        "name",
        "description",
        "rules",
        "operations",
        "schema",
        "examples",
        "contractHash",
        "schemaHash",
    ]
    assert ticket["name"] == TICKET
    assert ticket["contractHash"] == served.contract(TICKET).contract_hash
    assert ticket["schemaHash"] == served.contract(TICKET).schema_hash
    assert ticket["schema"] == SUPPORT_TICKET["schema"]
    # An empty description is left out of the body.
    assert list(no_ops) == ["name", "rules", "operations", "schema", "examples", "contractHash", "schemaHash"]


async def test_read_follows_a_reload(served: Served) -> None:
    async with served.client() as client:
        served.write("added.json", {"description": "Added.", "schema": {"type": "object"}})
        assert not (await client.call_tool("reload_contracts", {})).is_error
        read = await client.read_resource("json-contract://added")
        listed = [r.name for r in (await client.list_resources()).resources]
    assert json.loads(read.contents[0].text)["description"] == "Added."  # type: ignore[union-attr]
    assert listed == ["added", *CONTRACT_NAMES]


# The TypeScript server's four checks, in order: scheme, shape, name rule, lookup. No percent-decoding.
URI_ERRORS = [
    ("x://support-ticket", "Invalid resource URI scheme: x://support-ticket"),
    ("support-ticket", "Invalid resource URI scheme: support-ticket"),
    ("json-contract:/support-ticket", "Invalid resource URI scheme: json-contract:/support-ticket"),
    ("JSON-CONTRACT://support-ticket", "Invalid resource URI scheme: JSON-CONTRACT://support-ticket"),
    ("json-contract://", "Invalid resource URI: json-contract://"),
    ("json-contract://support-ticket?v=1", "Invalid resource URI: json-contract://support-ticket?v=1"),
    ("json-contract://support-ticket#top", "Invalid resource URI: json-contract://support-ticket#top"),
    ("json-contract://../x?y", "Invalid resource URI: json-contract://../x?y"),
    ("json-contract://support-ticket/", "Invalid contract name: support-ticket/"),
    ("json-contract://../x", "Invalid contract name: ../x"),
    ("json-contract://a/../support-ticket", "Invalid contract name: a/../support-ticket"),
    ("json-contract://support%2Dticket", "Invalid contract name: support%2Dticket"),
    ("json-contract://nope", "Contract not found: nope"),
    ("json-contract://Support-Ticket", "Contract not found: Support-Ticket"),
]


@pytest.mark.parametrize(("uri", "message"), URI_ERRORS, ids=[uri for uri, _ in URI_ERRORS])
async def test_read_refuses_a_bad_uri_with_the_original_message(
    served: Served, mode: str, uri: str, message: str
) -> None:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
        assert caught.value.message == message
        # Invalid params, except a well-formed URI naming no contract before 2026-07-28: resource not found.
        not_found = message.startswith("Contract not found") and mode == "legacy"
        assert caught.value.code == (-32002 if not_found else -32602)
        # The server keeps answering.
        assert len((await client.list_resources()).resources) == 3
