"""Prompts over MCP: the TypeScript server's list, its text byte for byte, and its errors as
JSON-RPC errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import MCPError

from json_contracts._json.text import dumps
from tests.support.golden import golden_json, golden_text
from tests.support.mcp import Served
from tests.support.samples import SAMPLE_CURRENT, SAMPLE_INPUT, SEVERITY_ENUM

pytestmark = pytest.mark.anyio

TICKET = "support-ticket"
MIB = 1024 * 1024

JSON_ARGUMENTS = {"contract": TICKET, "input": SAMPLE_INPUT, "context": '{"source":"chat"}'}
EDIT_ARGUMENTS = {
    "contract": TICKET,
    "currentJson": json.dumps(SAMPLE_CURRENT),
    "input": "make it critical",
    "context": '{"source": "chat"}',
}
REPAIR_ARGUMENTS = {
    "contract": TICKET,
    "invalidJson": '{"severity":"urgent"}',
    "validationErrors": json.dumps([SEVERITY_ENUM]),
}


async def _render(served: Served, mode: str, name: str, arguments: dict[str, str] | None) -> str:
    async with served.client(mode) as client:
        result = await client.get_prompt(name, arguments)
    assert result.description is None
    assert len(result.messages) == 1
    message = result.messages[0]
    assert message.role == "user"
    assert message.content.type == "text"
    return message.content.text


async def _error(served: Served, name: str, arguments: dict[str, str] | None, mode: str = "modern") -> str:
    async with served.client(mode) as client:
        with pytest.raises(MCPError) as caught:
            await client.get_prompt(name, arguments)
        assert caught.value.code == -32602  # invalid params: the spec's code for a bad name or argument
        # The server keeps answering.
        assert len((await client.list_prompts()).prompts) == 3
    return caught.value.message


async def test_prompts_list_is_the_original_s(served: Served, mode: str) -> None:
    async with served.client(mode) as client:
        listed = await client.list_prompts()
    assert listed.next_cursor is None
    prompts = [prompt.model_dump(by_alias=True, mode="json", exclude_none=True) for prompt in listed.prompts]
    assert {"prompts": prompts} == golden_json("mcp-prompts-list.json")


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("json_contract_prompt", JSON_ARGUMENTS),
        ("edit_contract_prompt", EDIT_ARGUMENTS),
        ("repair_contract_prompt", REPAIR_ARGUMENTS),
    ],
    ids=["json", "edit", "repair"],
)
async def test_each_prompt_renders_the_original_text(
    served: Served, mode: str, name: str, arguments: dict[str, str]
) -> None:
    assert await _render(served, mode, name, arguments) == golden_text(f"prompt-{name}.txt")


async def test_context_may_be_empty_or_left_out(served: Served) -> None:
    empty = await _render(served, "modern", "json_contract_prompt", {**JSON_ARGUMENTS, "context": ""})
    absent = await _render(served, "modern", "json_contract_prompt", {"contract": TICKET, "input": SAMPLE_INPUT})
    assert empty == absent
    assert empty.endswith("\n\nContext:\n{}")


async def test_the_repair_prompt_renders_only_the_supplied_errors(served: Served) -> None:
    text = await _render(served, "modern", "repair_contract_prompt", {"contract": TICKET, "invalidJson": "{}"})
    assert text.endswith("\n\nInvalid JSON:\n{}\n\nValidation errors:\n[]")


async def test_a_non_json_invalid_json_is_rendered_as_a_string(served: Served) -> None:
    text = await _render(served, "modern", "repair_contract_prompt", {"contract": TICKET, "invalidJson": "not json"})
    assert f"\n\nInvalid JSON:\n{dumps('not json')}\n\n" in text


async def test_the_repair_prompt_needs_no_enabled_operation(served: Served) -> None:
    text = await _render(served, "modern", "repair_contract_prompt", {"contract": "no-ops", "invalidJson": "1"})
    assert "Contract: no-ops" in text


def _required(key: str) -> list[dict[str, Any]]:
    return [
        {"code": "invalid_type", "expected": "string", "received": "undefined", "path": [key], "message": "Required"}
    ]


@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("nope", {}, "Unknown prompt: nope"),
        ("json_contract_prompt", {"contract": "missing", "input": "x"}, "Contract not found: missing"),
        ("json_contract_prompt", {"contract": "Support-Ticket", "input": "x"}, "Contract not found: Support-Ticket"),
        (
            "json_contract_prompt",
            {"contract": "no-ops", "input": "x"},
            "Contract no-ops does not enable the create operation.",
        ),
        (
            "edit_contract_prompt",
            {"contract": "no-ops", "currentJson": "{}", "input": "x"},
            "Contract no-ops does not enable the edit operation.",
        ),
        (
            "edit_contract_prompt",
            {"contract": "patch-edit", "currentJson": "{}", "input": "x"},
            "Contract patch-edit edit operation must return full_object for edit_contract_prompt.",
        ),
        (
            "edit_contract_prompt",
            {"contract": TICKET, "currentJson": "not json", "input": "x"},
            "currentJson does not validate against contract support-ticket: /: must be object (type)",
        ),
        (
            "edit_contract_prompt",
            {"contract": TICKET, "currentJson": "null", "input": "x"},
            "currentJson does not validate against contract support-ticket: /: must be object (type)",
        ),
    ],
    ids=["unknown-prompt", "unknown-contract", "case", "create-disabled", "edit-disabled", "json-patch", "raw", "null"],
)
async def test_prompt_failures_are_json_rpc_errors_with_the_original_message(
    served: Served, mode: str, name: str, arguments: dict[str, str], message: str
) -> None:
    assert await _error(served, name, arguments, mode) == message


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("json_contract_prompt", {"contract": TICKET}, _required("input")),
        ("json_contract_prompt", None, [*_required("contract"), *_required("input")]),
        (
            "json_contract_prompt",
            {"contract": "../x", "input": "x"},
            [{"code": "custom", "message": "contract must be a safe contract name", "path": ["contract"]}],
        ),
        (
            "json_contract_prompt",
            {"contract": TICKET, "input": "x", "context": "[1]"},
            [
                {
                    "code": "invalid_type",
                    "expected": "object",
                    "received": "array",
                    "path": ["context"],
                    "message": "Expected object, received array",
                }
            ],
        ),
        (
            "json_contract_prompt",
            {"contract": TICKET, "input": "x", "context": "not json"},
            [
                {
                    "code": "invalid_type",
                    "expected": "object",
                    "received": "string",
                    "path": ["context"],
                    "message": "Expected object, received string",
                }
            ],
        ),
        (
            "json_contract_prompt",
            {"contract": TICKET, "input": "x", "extra": "1"},
            [
                {
                    "code": "unrecognized_keys",
                    "keys": ["extra"],
                    "path": [],
                    "message": "Unrecognized key(s) in object: 'extra'",
                }
            ],
        ),
        (
            "edit_contract_prompt",
            {"contract": TICKET, "currentJson": "", "input": "x"},
            [{"code": "custom", "message": "value is required", "fatal": True, "path": ["currentJson"]}],
        ),
        (
            "repair_contract_prompt",
            {"contract": TICKET, "invalidJson": "{}", "validationErrors": "[1]"},
            [
                {
                    "code": "invalid_type",
                    "expected": "object",
                    "received": "number",
                    "path": ["validationErrors", 0],
                    "message": "Expected object, received number",
                }
            ],
        ),
        (
            "repair_contract_prompt",
            {"contract": TICKET, "invalidJson": "{}", "validationErrors": "oops"},
            [
                {
                    "code": "invalid_type",
                    "expected": "array",
                    "received": "string",
                    "path": ["validationErrors"],
                    "message": "Expected array, received string",
                }
            ],
        ),
    ],
    ids=[
        "missing",
        "no-arguments",
        "unsafe",
        "context-array",
        "context-raw",
        "extra",
        "empty-current",
        "errors-item",
        "errors-raw",
    ],
)
async def test_prompt_argument_errors_are_the_zod_issue_list(
    served: Served, name: str, arguments: dict[str, str] | None, expected: list[dict[str, Any]]
) -> None:
    assert await _error(served, name, arguments) == dumps(expected)


async def test_an_oversized_prompt_document_is_refused_clearly(served: Served, mode: str) -> None:
    big = json.dumps("x" * (2 * MIB))
    message = await _error(served, "repair_contract_prompt", {"contract": TICKET, "invalidJson": big}, mode)
    assert message == f"invalidJson is {2 * MIB + 2} bytes, over the limit of {MIB} bytes; send a smaller document"


async def test_an_overdeep_prompt_document_is_refused_clearly(served: Served, mode: str) -> None:
    deep = "[" * 100 + "]" * 100
    message = await _error(
        served, "edit_contract_prompt", {"contract": TICKET, "currentJson": deep, "input": "x"}, mode
    )
    assert message == "currentJson is nested more than 64 levels deep; flatten it"


@pytest.mark.parametrize(
    ("name", "key", "arguments"),
    [
        ("repair_contract_prompt", "invalidJson", {"contract": TICKET}),
        ("edit_contract_prompt", "currentJson", {"contract": TICKET, "input": "x"}),
    ],
    ids=["repair", "edit"],
)
async def test_a_prompt_document_too_deep_to_parse_is_refused_as_too_deep(
    served: Served, name: str, key: str, arguments: dict[str, str]
) -> None:
    deep = "[" * 200_000 + "]" * 200_000
    async with served.client() as client:
        try:
            await client.get_prompt(name, {**arguments, key: deep})
        except MCPError as exc:
            message = exc.message
        else:
            message = "rendered"
    assert message == f"{key} is nested more than 64 levels deep; flatten it"
