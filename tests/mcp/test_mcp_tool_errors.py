"""Every expected tool failure is an ``isError`` result whose text is ``{"error": <message>}`` with the
TypeScript server's message (and no structured content, which must match the tool's outputSchema),
never a JSON-RPC error, a crash or a hang; reload failures keep the last good contract served;
oversized and overdeep documents are refused with a clear message."""

from __future__ import annotations

import json
from typing import Any

import pytest

from json_contracts.agent.payloads import contract_payload
from tests.support.mcp import (
    CONTRACT_NAMES,
    Served,
    assert_success,
    assert_tool_error,
    error_message,
    issues,
    nested_list,
)
from tests.support.samples import SAMPLE_CURRENT, SUPPORT_TICKET, VALID_TICKET

pytestmark = pytest.mark.anyio


TICKET = "support-ticket"
# Every tool that takes a contract name, with otherwise valid arguments.
CONTRACT_TOOLS: dict[str, dict[str, Any]] = {
    "read_contract": {},
    "get_json_contract": {"input": "x"},
    "get_edit_contract": {"currentJson": SAMPLE_CURRENT, "input": "x"},
    "validate_json": {"json": {}},
    "get_repair_contract": {"invalidJson": {}},
}
# The TypeScript server's exact text for contract:"../x" (zod's issue list).
UNSAFE_NAME_MESSAGE = """[
  {
    "code": "custom",
    "message": "contract must be a safe contract name",
    "path": [
      "contract"
    ]
  }
]"""


def required(path: list[Any]) -> dict[str, Any]:
    return {"code": "invalid_type", "expected": "string", "received": "undefined", "path": path, "message": "Required"}


def wrong_type(expected: str, received: str, path: list[Any]) -> dict[str, Any]:
    return {
        "code": "invalid_type",
        "expected": expected,
        "received": received,
        "path": path,
        "message": f"Expected {expected}, received {received}",
    }


def unrecognized(*keys: str) -> dict[str, Any]:
    listed = ", ".join(f"'{key}'" for key in keys)
    return {
        "code": "unrecognized_keys",
        "keys": list(keys),
        "path": [],
        "message": f"Unrecognized key(s) in object: {listed}",
    }


def value_required(key: str) -> dict[str, Any]:
    return {"code": "custom", "message": "value is required", "fatal": True, "path": [key]}


# --- contract lookup -------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", list(CONTRACT_TOOLS))
async def test_an_unknown_contract_is_not_found(served: Served, mode: str, tool: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(tool, {"contract": "missing", **CONTRACT_TOOLS[tool]})
    assert_tool_error(result, "Contract not found: missing")


@pytest.mark.parametrize("name", ["Support-Ticket", "SUPPORT-TICKET", "support-Ticket"])
async def test_contract_lookup_is_case_sensitive(served: Served, name: str) -> None:
    async with served.client() as client:
        result = await client.call_tool("read_contract", {"contract": name})
    assert_tool_error(result, f"Contract not found: {name}")


@pytest.mark.parametrize("tool", list(CONTRACT_TOOLS))
async def test_an_unsafe_name_is_the_original_zod_issue_list(served: Served, mode: str, tool: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(tool, {"contract": "../x", **CONTRACT_TOOLS[tool]})
    assert_tool_error(result, UNSAFE_NAME_MESSAGE)


@pytest.mark.parametrize("name", ["../support-ticket", "a/b", "a\\b", ".hidden", "-dash", "a..b", "a b", "é"])
async def test_every_unsafe_name_is_refused_before_lookup(served: Served, name: str) -> None:
    async with served.client() as client:
        result = await client.call_tool("read_contract", {"contract": name})
    assert issues(result) == [
        {"code": "custom", "message": "contract must be a safe contract name", "path": ["contract"]}
    ]


async def test_an_empty_name_is_too_small_and_unsafe(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("read_contract", {"contract": ""})
    assert issues(result) == [
        {
            "code": "too_small",
            "minimum": 1,
            "type": "string",
            "inclusive": True,
            "exact": False,
            "message": "String must contain at least 1 character(s)",
            "path": ["contract"],
        },
        {"code": "custom", "message": "contract must be a safe contract name", "path": ["contract"]},
    ]


# --- argument checks (zod issue lists) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "arguments", "expected"),
    [
        ("read_contract", {}, [required(["contract"])]),
        ("read_contract", {"contract": 1}, [wrong_type("string", "number", ["contract"])]),
        ("read_contract", {"contract": TICKET, "x": 1}, [unrecognized("x")]),
        ("read_contract", {"contract": TICKET, "b": 1, "a": 2}, [unrecognized("b", "a")]),
        ("list_contracts", {"x": 1}, [unrecognized("x")]),
        ("status", {"verbose": True}, [unrecognized("verbose")]),
        ("reload_contracts", {"force": True}, [unrecognized("force")]),
        ("get_json_contract", {"contract": TICKET}, [required(["input"])]),
        ("get_json_contract", {"contract": TICKET, "input": 5}, [wrong_type("string", "number", ["input"])]),
        (
            "get_json_contract",
            {"contract": TICKET, "input": "x", "context": []},
            [wrong_type("object", "array", ["context"])],
        ),
        (
            "get_json_contract",
            {"contract": TICKET, "input": "x", "context": "{}"},
            [wrong_type("object", "string", ["context"])],
        ),
        (
            "get_json_contract",
            {"contract": TICKET, "input": "x", "context": None},
            [wrong_type("object", "null", ["context"])],
        ),
        (
            "get_json_contract",
            {"zz": 0, "context": [], "input": 1, "contract": 2},
            [
                wrong_type("string", "number", ["contract"]),
                wrong_type("string", "number", ["input"]),
                wrong_type("object", "array", ["context"]),
                unrecognized("zz"),
            ],
        ),
        ("validate_json", {"contract": TICKET}, [value_required("json")]),
        ("get_edit_contract", {"contract": TICKET, "input": "x"}, [value_required("currentJson")]),
        ("get_repair_contract", {"contract": TICKET}, [value_required("invalidJson")]),
        (
            "get_repair_contract",
            {"contract": TICKET, "invalidJson": {}, "validationErrors": {}},
            [wrong_type("array", "object", ["validationErrors"])],
        ),
        (
            "get_repair_contract",
            {
                "contract": TICKET,
                "invalidJson": {},
                "validationErrors": [{"path": "/a", "keyword": "type", "message": 1}],
            },
            [wrong_type("string", "number", ["validationErrors", 0, "message"])],
        ),
        (
            "get_repair_contract",
            {"contract": TICKET, "invalidJson": {}, "validationErrors": ["x"]},
            [wrong_type("object", "string", ["validationErrors", 0])],
        ),
    ],
)
async def test_bad_arguments_are_the_original_zod_issue_list(
    served: Served, mode: str, tool: str, arguments: dict[str, Any], expected: list[dict[str, Any]]
) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(tool, arguments)
    assert issues(result) == expected
    # The text is byte-for-byte the 2-space issue JSON, keys in zod's order.
    assert error_message(result) == json.dumps(expected, indent=2, ensure_ascii=False)


async def test_arguments_are_checked_before_the_contract_lookup(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool("read_contract", {"contract": "missing", "x": 1})
    assert issues(result) == [unrecognized("x")]


@pytest.mark.parametrize("document", [None, False, 0, ""], ids=repr)
async def test_a_falsy_json_value_is_present_not_missing(served: Served, document: Any) -> None:
    async with served.client() as client:
        result = await client.call_tool("get_repair_contract", {"contract": TICKET, "invalidJson": document})
    assert not result.is_error
    assert (result.structured_content or {})["invalidJson"] == document


# --- operations and currentJson --------------------------------------------------------------------


async def test_disabled_create(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("get_json_contract", {"contract": "no-ops", "input": "x"})
    assert_tool_error(result, "Contract no-ops does not enable the create operation.")


async def test_disabled_edit_is_checked_before_current_json(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("get_edit_contract", {"contract": "no-ops", "currentJson": "bad", "input": "x"})
    assert_tool_error(result, "Contract no-ops does not enable the edit operation.")


async def test_an_edit_returning_json_patch_is_refused(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(
            "get_edit_contract", {"contract": "patch-edit", "currentJson": {}, "input": "x"}
        )
    assert_tool_error(result, "Contract patch-edit edit operation must return full_object for get_edit_contract.")


@pytest.mark.parametrize(
    ("current", "detail"),
    [
        (None, "/: must be object (type)"),
        ("not json", "/: must be object (type)"),
        ({**VALID_TICKET, "severity": "urgent"}, "/severity: must be equal to one of the allowed values (enum)"),
    ],
    ids=["null", "string", "enum"],
)
async def test_an_invalid_current_json_is_refused(served: Served, mode: str, current: Any, detail: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool("get_edit_contract", {"contract": TICKET, "currentJson": current, "input": "x"})
    assert_tool_error(result, f"currentJson does not validate against contract {TICKET}: {detail}")


async def test_several_current_json_errors_are_joined(served: Served) -> None:
    async with served.client() as client:
        result = await client.call_tool(
            "get_edit_contract", {"contract": TICKET, "currentJson": {"summary": 3}, "input": "x"}
        )
    assert result.is_error
    message = error_message(result)
    prefix = f"currentJson does not validate against contract {TICKET}: "
    assert message.startswith(prefix)
    parts = message[len(prefix) :].split("; ")
    assert len(parts) == 3
    assert "/summary: must be string (type)" in parts


# --- unknown tools ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["nope", "List_Contracts", "validate-json", ""])
async def test_an_unknown_tool_is_an_error_result(served: Served, mode: str, name: str) -> None:
    async with served.client(mode) as client:
        result = await client.call_tool(name, {"anything": [1, 2]})
        assert_tool_error(result, f"Unknown tool: {name}")
        # The server keeps answering.
        assert not (await client.call_tool("status", {})).is_error


# --- reload failures --------------------------------------------------------------------------------

BROKEN_TEXT = '{\n  "schema": {"type": "object"},\n  oops\n}\n'


async def test_a_contract_that_breaks_keeps_its_last_good_version(served: Served, mode: str) -> None:
    good = contract_payload(served.contract(TICKET))
    async with served.client(mode) as client:
        served.write(f"{TICKET}.json", BROKEN_TEXT)
        result = await client.call_tool("reload_contracts", {})
        assert result.is_error
        message = error_message(result)
        assert message.startswith(f"Failed to load JSON contracts: {TICKET}.json: Invalid JSON")
        assert_tool_error(result, message)

        # The last good version is still served, everywhere.
        assert_success(await client.call_tool("read_contract", {"contract": TICKET}), good)
        listed = await client.call_tool("list_contracts", {})
        assert [c["name"] for c in (listed.structured_content or {})["contracts"]] == CONTRACT_NAMES
        validated = await client.call_tool("validate_json", {"contract": TICKET, "json": VALID_TICKET})
        assert (validated.structured_content or {})["valid"] is True

        # status names the file, where it broke, and why.
        status = (await client.call_tool("status", {})).structured_content or {}
        assert status["loaded"] == 3
        assert len(status["failures"]) == 1
        failure = status["failures"][0]
        assert failure["file"] == f"{TICKET}.json"
        assert (failure["line"], failure["column"]) == (3, 3)
        assert failure["message"].startswith("Invalid JSON")
        assert failure["message"] in message
        assert isinstance(failure["code"], str)

        # The next good save takes effect and clears the failure.
        served.write(f"{TICKET}.json", {**SUPPORT_TICKET, "description": "Repaired."})
        assert_success(await client.call_tool("reload_contracts", {}), {"loaded": 3, "contracts": CONTRACT_NAMES})
        read = (await client.call_tool("read_contract", {"contract": TICKET})).structured_content or {}
        assert read["description"] == "Repaired."
        assert (await client.call_tool("status", {})).structured_content["failures"] == []


async def test_a_new_broken_file_fails_the_reload_and_serves_the_rest(served: Served) -> None:
    async with served.client() as client:
        served.write("broken.json", BROKEN_TEXT)
        served.write("added.json", {"schema": {"type": "object"}})
        result = await client.call_tool("reload_contracts", {})
        assert result.is_error
        message = error_message(result)
        assert message.startswith("Failed to load JSON contracts: broken.json: Invalid JSON")
        missing = await client.call_tool("read_contract", {"contract": "broken"})
        assert_tool_error(missing, "Contract not found: broken")
        listed = await client.call_tool("list_contracts", {})
        assert [c["name"] for c in (listed.structured_content or {})["contracts"]] == ["added", *CONTRACT_NAMES]
        status = (await client.call_tool("status", {})).structured_content or {}
        assert [(f["file"], f["line"], f["column"]) for f in status["failures"]] == [("broken.json", 3, 3)]


async def test_every_broken_file_is_reported(served: Served) -> None:
    async with served.client() as client:
        served.write(f"{TICKET}.json", '{"schema": {"type": "nope"}}')
        served.write("shape.json", '{"schema": {"type": "object"}, "rules": 3}')
        result = await client.call_tool("reload_contracts", {})
        message = error_message(result)
        assert result.is_error
        assert message.startswith("Failed to load JSON contracts: ")
        assert f"{TICKET}.json: Invalid JSON Schema" in message
        assert "shape.json: Invalid contract shape" in message
        status = (await client.call_tool("status", {})).structured_content or {}
    files = {f["file"]: f for f in status["failures"]}
    assert set(files) == {f"{TICKET}.json", "shape.json"}
    assert files["shape.json"]["line"] == 1
    assert files["shape.json"]["column"] == 41  # the offending value, "rules": 3
    assert all(f["line"] >= 1 and f["column"] >= 1 for f in status["failures"])
    assert status["loaded"] == 3


# --- bounds ---------------------------------------------------------------------------------------

MIB = 1024 * 1024
DOCUMENT_ARGUMENTS = {
    "validate_json": ("json", {"contract": TICKET}),
    "get_edit_contract": ("currentJson", {"contract": TICKET, "input": "x"}),
    "get_repair_contract": ("invalidJson", {"contract": TICKET}),
}


@pytest.mark.parametrize("tool", list(DOCUMENT_ARGUMENTS))
async def test_a_document_over_one_mib_is_refused_clearly(served: Served, mode: str, tool: str) -> None:
    key, arguments = DOCUMENT_ARGUMENTS[tool]
    async with served.client(mode) as client:
        result = await client.call_tool(tool, {**arguments, key: "x" * (2 * MIB)})
        assert_tool_error(
            result, f"{key} is {2 * MIB + 2} bytes, over the limit of {MIB} bytes; send a smaller document"
        )
        assert not (await client.call_tool("status", {})).is_error


@pytest.mark.parametrize("tool", list(DOCUMENT_ARGUMENTS))
async def test_a_document_nested_over_64_levels_is_refused_clearly(served: Served, mode: str, tool: str) -> None:
    key, arguments = DOCUMENT_ARGUMENTS[tool]
    async with served.client(mode) as client:
        # As deep as the SDK client itself can serialise (about 254 levels); deeper ones are in
        # test_mcp_wire.py, sent as raw JSON-RPC.
        result = await client.call_tool(tool, {**arguments, key: {"a": nested_list(200)}})
        assert_tool_error(result, f"{key} is nested more than 64 levels deep; flatten it")
        assert not (await client.call_tool("status", {})).is_error


async def test_the_bounds_are_inclusive(served: Served) -> None:
    async with served.client() as client:
        at_depth = await client.call_tool("validate_json", {"contract": TICKET, "json": nested_list(64)})
        over_depth = await client.call_tool("validate_json", {"contract": TICKET, "json": nested_list(65)})
        at_size = await client.call_tool("validate_json", {"contract": TICKET, "json": "x" * (MIB - 2)})
        over_size = await client.call_tool("validate_json", {"contract": TICKET, "json": "x" * (MIB - 1)})
    assert not at_depth.is_error
    assert over_depth.is_error
    assert not at_size.is_error
    assert over_size.is_error
    assert error_message(over_size).startswith(f"json is {MIB + 1} bytes")


async def test_the_bounds_are_configurable(serve: Any) -> None:
    served = serve(max_document_bytes=100, max_document_depth=3)
    async with served.client() as client:
        deep = await client.call_tool("validate_json", {"contract": TICKET, "json": nested_list(4)})
        big = await client.call_tool("validate_json", {"contract": TICKET, "json": "x" * 99})
        fine = await client.call_tool("validate_json", {"contract": TICKET, "json": VALID_TICKET})
    assert_tool_error(deep, "json is nested more than 3 levels deep; flatten it")
    assert_tool_error(big, "json is 101 bytes, over the limit of 100 bytes; send a smaller document")
    assert not fine.is_error


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("get_json_contract", {"contract": TICKET, "input": "x", "context": {"a": nested_list(100)}}),
        ("get_json_contract", {"contract": TICKET, "input": "x", "context": {"a": "x" * (2 * MIB)}}),
        ("get_json_contract", {"contract": TICKET, "input": "x" * (2 * MIB)}),
        (
            "get_repair_contract",
            {
                "contract": TICKET,
                "invalidJson": {},
                "validationErrors": [{"path": "", "keyword": "k", "message": "x" * (2 * MIB)}],
            },
        ),
    ],
    ids=["deep-context", "big-context", "big-input", "big-validationErrors"],
)
async def test_every_argument_is_bounded(served: Served, tool: str, arguments: dict[str, Any]) -> None:
    async with served.client() as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error
    message = error_message(result)
    assert "deep" in message or "bytes" in message
