"""Each tool's success result over MCP: the engine's payload as ``structuredContent`` and as pretty
JSON text, in the TypeScript server's key order."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from json_contracts import __version__
from json_contracts.agent.payloads import (
    CREATE_INSTRUCTIONS,
    EDIT_INSTRUCTIONS,
    REPAIR_INSTRUCTIONS,
    contract_payload,
    create_payload,
    edit_payload,
    repair_payload,
)
from tests.support.mcp import CONTRACT_NAMES, Served, assert_success
from tests.support.samples import (
    SAMPLE_CONTEXT,
    SAMPLE_CURRENT,
    SAMPLE_INPUT,
    SEVERITY_ENUM,
    SUPPORT_TICKET,
    VALID_TICKET,
)

pytestmark = pytest.mark.anyio

TICKET = "support-ticket"


# --- list_contracts / read_contract ---------------------------------------------------------------


async def test_list_contracts(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("list_contracts", {})
    expected = {"contracts": [served.contract(name).summary() for name in CONTRACT_NAMES]}
    assert_success(result, expected)
    summaries = expected["contracts"]
    assert [s["name"] for s in summaries] == CONTRACT_NAMES
    # An empty or absent description is omitted, not sent as "".
    assert list(summaries[0]) == ["name", "contractHash", "schemaHash"]
    assert list(summaries[1]) == ["name", "contractHash", "schemaHash"]
    assert list(summaries[2]) == ["name", "description", "contractHash", "schemaHash"]
    assert summaries[2]["description"] == SUPPORT_TICKET["description"]


async def test_list_contracts_without_arguments_counts_as_empty_arguments(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("list_contracts")
    assert_success(result, {"contracts": [served.contract(name).summary() for name in CONTRACT_NAMES]})


async def test_read_contract(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("read_contract", {"contract": TICKET})
    payload = contract_payload(served.contract(TICKET))
    assert_success(result, payload)
    assert list(payload) == [
        "contract",
        "contractHash",
        "schemaHash",
        "description",
        "rules",
        "operations",
        "schema",
        "examples",
    ]
    assert payload["schema"] == SUPPORT_TICKET["schema"]


async def test_read_contract_sends_an_empty_description_as_empty_string(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("read_contract", {"contract": "patch-edit"})
    assert_success(result, contract_payload(served.contract("patch-edit")))
    assert result.structured_content is not None
    assert result.structured_content["description"] == ""


# --- get_json_contract / get_edit_contract ----------------------------------------------------------


async def test_get_json_contract(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(
            "get_json_contract", {"contract": TICKET, "input": SAMPLE_INPUT, "context": SAMPLE_CONTEXT}
        )
    payload = create_payload(served.contract(TICKET), SAMPLE_INPUT, SAMPLE_CONTEXT)
    assert_success(result, payload)
    assert list(payload) == [
        "contract",
        "contractHash",
        "schemaHash",
        "operation",
        "instructions",
        "description",
        "rules",
        "operationRules",
        "schema",
        "examples",
        "operationExamples",
        "input",
        "context",
    ]
    assert payload["operation"] == "create"
    assert payload["instructions"] == CREATE_INSTRUCTIONS
    assert payload["context"] == SAMPLE_CONTEXT


async def test_get_json_contract_context_defaults_to_an_empty_object(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("get_json_contract", {"contract": TICKET, "input": "x"})
    assert_success(result, create_payload(served.contract(TICKET), "x", {}))
    assert result.structured_content is not None
    assert result.structured_content["context"] == {}


async def test_get_edit_contract(served: Served, mode: str) -> None:
    arguments = {"contract": TICKET, "currentJson": SAMPLE_CURRENT, "input": "make it critical"}
    async with served.client(mode) as client:
        result = await client.call_tool("get_edit_contract", {**arguments, "context": SAMPLE_CONTEXT})
    payload = edit_payload(served.contract(TICKET), SAMPLE_CURRENT, "make it critical", SAMPLE_CONTEXT)
    assert_success(result, payload)
    assert list(payload) == [
        "contract",
        "contractHash",
        "schemaHash",
        "operation",
        "instructions",
        "description",
        "rules",
        "operationRules",
        "schema",
        "examples",
        "operationExamples",
        "currentJson",
        "input",
        "context",
    ]
    assert payload["operation"] == "edit"
    assert payload["instructions"] == EDIT_INSTRUCTIONS
    assert payload["currentJson"] == SAMPLE_CURRENT


# --- validate_json ---------------------------------------------------------------------------------


async def test_validate_json_valid(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("validate_json", {"contract": TICKET, "json": VALID_TICKET})
    assert_success(result, {"valid": True, "contract": TICKET, "json": VALID_TICKET, "errors": []})


async def test_validate_json_invalid_is_a_result_without_the_document(served: Served, mode: str) -> None:
    document = {**VALID_TICKET, "severity": "urgent"}
    async with served.client(mode) as client:
        result = await client.call_tool("validate_json", {"contract": TICKET, "json": document})
    assert_success(result, {"valid": False, "contract": TICKET, "errors": [SEVERITY_ENUM]})
    assert result.structured_content is not None
    assert "json" not in result.structured_content


@pytest.mark.parametrize("document", [None, False, 0, "", []], ids=repr)
async def test_validate_json_accepts_any_json_value(served: Served, document: Any) -> None:
    async with served.client() as client:
        result = await client.call_tool("validate_json", {"contract": TICKET, "json": document})
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["valid"] is False
    assert result.structured_content["errors"][0]["keyword"] == "type"


async def test_validate_json_does_not_parse_a_string_holding_json(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("validate_json", {"contract": TICKET, "json": json.dumps(VALID_TICKET)})
    assert_success(
        result,
        {"valid": False, "contract": TICKET, "errors": [{"path": "", "message": "must be object", "keyword": "type"}]},
    )


# --- get_repair_contract -----------------------------------------------------------------------------


async def test_get_repair_contract(served: Served, mode: str) -> None:
    invalid = {"summary": "Login broken", "severity": "urgent"}
    supplied = [{**SEVERITY_ENUM, "extra": "stripped"}]
    async with served.client(mode) as client:
        result = await client.call_tool(
            "get_repair_contract", {"contract": TICKET, "invalidJson": invalid, "validationErrors": supplied}
        )
    payload = repair_payload(served.contract(TICKET), invalid, [SEVERITY_ENUM])
    assert_success(result, payload)
    assert list(payload) == [
        "contract",
        "contractHash",
        "schemaHash",
        "instructions",
        "schema",
        "rules",
        "examples",
        "invalidJson",
        "validationErrors",
        "repairs",
    ]
    assert payload["instructions"][:6] == REPAIR_INSTRUCTIONS
    assert len(payload["instructions"]) > 6  # the field hints follow the fixed lines
    # Computed errors first, then supplied ones, de-duplicated; the extra key is stripped.
    keywords = [error["keyword"] for error in payload["validationErrors"]]
    assert sorted(keywords) == ["enum", "required"]
    assert all(set(error) == {"path", "message", "keyword"} for error in payload["validationErrors"])
    # One machine-readable repair per error, in the same order.
    repairs = payload["repairs"]
    assert [(r["path"], r["keyword"]) for r in repairs] == [
        (e["path"], e["keyword"]) for e in payload["validationErrors"]
    ]
    by_keyword = {r["keyword"]: r for r in repairs}
    assert by_keyword["enum"]["allowed"] == ["low", "medium", "high", "critical"]
    assert by_keyword["required"]["path"] == "/category"
    assert all(isinstance(r["action"], str) and r["action"] for r in repairs)


async def test_get_repair_contract_for_valid_json_gives_only_the_fixed_lines(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("get_repair_contract", {"contract": TICKET, "invalidJson": VALID_TICKET})
    payload = repair_payload(served.contract(TICKET), VALID_TICKET, [])
    assert_success(result, payload)
    assert payload["instructions"] == REPAIR_INSTRUCTIONS
    assert payload["validationErrors"] == []
    assert payload["repairs"] == []


async def test_get_repair_contract_works_with_every_operation_disabled(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("get_repair_contract", {"contract": "no-ops", "invalidJson": {"n": "x"}})
    assert_success(result, repair_payload(served.contract("no-ops"), {"n": "x"}, []))


# --- status ----------------------------------------------------------------------------------------


async def test_status(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("status", {})
    expected = {
        "server": "json-contracts",
        "version": __version__,
        "contractsDir": str(served.folder.resolve()),
        "loaded": 3,
        "contracts": [served.contract(name).summary() for name in CONTRACT_NAMES],
        "watchContracts": False,
        "allowInvalidContracts": False,
        "failures": [],
    }
    assert_success(result, expected)


async def test_status_reports_the_settings(serve: Any) -> None:
    served = serve(watch=True, allow_invalid=True)
    async with served.client() as client:
        result = await client.call_tool("status")
    assert result.structured_content is not None
    assert result.structured_content["watchContracts"] is True
    assert result.structured_content["allowInvalidContracts"] is True


# --- reload_contracts ------------------------------------------------------------------------------


async def test_reload_picks_up_added_and_removed_files(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        served.write("added.json", {"schema": {"type": "object"}})
        result = await client.call_tool("reload_contracts", {})
        assert_success(result, {"loaded": 4, "contracts": ["added", *CONTRACT_NAMES]})
        assert list(result.structured_content or {}) == ["loaded", "contracts"]
        read = await client.call_tool("read_contract", {"contract": "added"})
        assert_success(read, contract_payload(served.contract("added")))

        (served.folder / "no-ops.json").unlink()
        result = await client.call_tool("reload_contracts", {})
        assert_success(result, {"loaded": 3, "contracts": ["added", "patch-edit", TICKET]})
        gone = await client.call_tool("read_contract", {"contract": "no-ops"})
        assert gone.is_error
        listed = await client.call_tool("list_contracts", {})
        assert [c["name"] for c in (listed.structured_content or {})["contracts"]] == ["added", "patch-edit", TICKET]


async def test_reload_serves_a_changed_contract(served: Served) -> None:
    async with served.client() as client:
        before = await client.call_tool("read_contract", {"contract": TICKET})
        served.write(f"{TICKET}.json", {**SUPPORT_TICKET, "description": "Changed."})
        result = await client.call_tool("reload_contracts")
        assert_success(result, {"loaded": 3, "contracts": CONTRACT_NAMES})
        after = await client.call_tool("read_contract", {"contract": TICKET})
    assert (after.structured_content or {})["description"] == "Changed."
    assert (after.structured_content or {})["contractHash"] != (before.structured_content or {})["contractHash"]


async def test_reload_lists_names_in_the_original_sort_order(serve: Any) -> None:
    served = serve({"beta.json": {"schema": {}}})
    async with served.client() as client:
        for name in ("Gamma", "alpha", "Delta", "2nd"):
            served.write(f"{name}.json", {"schema": {}})
        result = await client.call_tool("reload_contracts", {})
    # localeCompare: digits before letters, letters case-insensitively (code-point order would differ).
    assert_success(result, {"loaded": 5, "contracts": ["2nd", "alpha", "beta", "Delta", "Gamma"]})


# --- output schemas --------------------------------------------------------------------------------


async def test_every_success_result_validates_against_the_tool_s_output_schema(served: Served) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_contracts", {}),
        ("read_contract", {"contract": TICKET}),
        ("get_json_contract", {"contract": TICKET, "input": SAMPLE_INPUT, "context": SAMPLE_CONTEXT}),
        ("get_edit_contract", {"contract": TICKET, "currentJson": SAMPLE_CURRENT, "input": "x"}),
        ("validate_json", {"contract": TICKET, "json": VALID_TICKET}),
        ("validate_json", {"contract": TICKET, "json": {"severity": 1}}),
        ("get_repair_contract", {"contract": TICKET, "invalidJson": {"summary": "x" * 90, "severity": "urgent"}}),
        ("status", {}),
        ("reload_contracts", {}),
    ]
    async with served.client() as client:
        schemas: dict[str, Any] = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
        served.write("broken.json", '{"schema": ')
        await client.call_tool("reload_contracts", {})  # a failure for status to report
        for name, arguments in calls[:-1]:
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, result.structured_content)
            jsonschema.validate(result.structured_content, schemas[name])
        (served.folder / "broken.json").unlink()
        name, arguments = calls[-1]
        result = await client.call_tool(name, arguments)
        assert not result.is_error, result.structured_content
        jsonschema.validate(result.structured_content, schemas[name])
