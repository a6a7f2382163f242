"""The payloads agents receive: the TypeScript server's key order and fixed lines, and error handling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from json_contracts.agent.payloads import (
    CREATE_INSTRUCTIONS,
    EDIT_INSTRUCTIONS,
    REPAIR_INSTRUCTIONS,
    contract_payload,
    create_payload,
    edit_payload,
    repair_payload,
    resource_payload,
    validation_payload,
)
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError, JsonContractsError, OperationError
from json_contracts.schema.validation import ErrorRecord
from tests.support.samples import SEVERITY_ENUM

LoadOne = Callable[..., Contract]

CREATE_LINES = [
    "Convert the input into JSON.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Match the schema exactly.",
    "Use enum values exactly.",
    "Follow all rules.",
    "Use examples as guidance.",
]
EDIT_LINES = [
    "Start from currentJson.",
    "Apply only the user's requested change.",
    "Preserve all unspecified fields exactly.",
    "Return the complete updated JSON object, not a patch.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Match the schema exactly.",
    "Use enum values exactly.",
    "Follow all rules.",
    "Use examples as guidance.",
]
REPAIR_LINES = [
    "Repair the JSON so it validates against the schema.",
    "Return JSON only.",
    "Do not return markdown.",
    "Do not include commentary.",
    "Do not include extra keys.",
    "Preserve valid fields where possible.",
]
MISSING_SUMMARY: ErrorRecord = {
    "path": "/summary",
    "message": "must have required property 'summary'",
    "keyword": "required",
}
MISSING_CATEGORY: ErrorRecord = {
    "path": "/category",
    "message": "must have required property 'category'",
    "keyword": "required",
}


def test_fixed_instruction_lines_are_the_originals() -> None:
    assert CREATE_INSTRUCTIONS == CREATE_LINES
    assert EDIT_INSTRUCTIONS == EDIT_LINES
    assert REPAIR_INSTRUCTIONS == REPAIR_LINES


def test_read_payload_has_the_original_key_order(support_ticket: Contract) -> None:
    payload = contract_payload(support_ticket)
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
    assert payload["contract"] == "support-ticket"
    assert payload["contractHash"] == support_ticket.contract_hash
    assert payload["schemaHash"] == support_ticket.schema_hash
    assert list(payload["operations"]) == ["create", "edit"]


def test_resource_payload_is_the_public_body_with_hashes_last(support_ticket: Contract) -> None:
    payload = resource_payload(support_ticket)
    assert list(payload) == [
        "name",
        "description",
        "rules",
        "operations",
        "schema",
        "examples",
        "contractHash",
        "schemaHash",
    ]


def test_create_payload_has_the_original_key_order_and_lines(
    support_ticket: Contract, support_ticket_file: dict[str, Any]
) -> None:
    payload = create_payload(support_ticket, "Login is broken", {"source": "chat"})
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
    assert payload["instructions"] == CREATE_LINES
    assert payload["description"] == support_ticket_file["description"]
    assert payload["rules"] == ["Keep summary short."]
    assert payload["operationRules"] == ["Create rule."]
    assert payload["schema"] == support_ticket_file["schema"]
    assert payload["examples"] == support_ticket_file["examples"]
    assert payload["operationExamples"] == []
    assert (payload["input"], payload["context"]) == ("Login is broken", {"source": "chat"})


def test_create_payload_context_defaults_to_an_empty_object(support_ticket: Contract) -> None:
    assert create_payload(support_ticket, "x")["context"] == {}


def test_create_payload_instructions_are_a_fresh_copy(support_ticket: Contract) -> None:
    create_payload(support_ticket, "x")["instructions"].append("tampered")
    assert create_payload(support_ticket, "x")["instructions"] == CREATE_LINES


def test_payload_description_is_empty_string_when_absent(load_one: LoadOne) -> None:
    contract = load_one({"description": "", "schema": {"type": "object"}}, name="plain")
    assert contract_payload(contract)["description"] == ""
    assert create_payload(contract, "x")["description"] == ""


def test_disabled_create_is_refused(load_one: LoadOne, support_ticket_schema: dict[str, Any]) -> None:
    contract = load_one({"schema": support_ticket_schema, "operations": {"create": {"enabled": False}}}, name="off")
    with pytest.raises(OperationError) as caught:
        create_payload(contract, "x")
    assert str(caught.value) == "Contract off does not enable the create operation."
    assert isinstance(caught.value, JsonContractsError)


def test_edit_payload_has_the_original_key_order_and_lines(
    support_ticket: Contract, valid_ticket: dict[str, Any], support_ticket_file: dict[str, Any]
) -> None:
    payload = edit_payload(support_ticket, valid_ticket, "Make it critical.", {"source": "chat"})
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
    assert payload["instructions"] == EDIT_LINES
    assert payload["operationRules"] == ["Edit rule."]
    assert payload["operationExamples"] == support_ticket_file["operations"]["edit"]["examples"]
    assert payload["currentJson"] == valid_ticket
    assert (payload["input"], payload["context"]) == ("Make it critical.", {"source": "chat"})
    assert edit_payload(support_ticket, valid_ticket, "x")["context"] == {}


def test_disabled_edit_is_refused_before_current_json_is_checked(
    load_one: LoadOne, support_ticket_schema: dict[str, Any]
) -> None:
    contract = load_one({"schema": support_ticket_schema, "operations": {"edit": {"enabled": False}}}, name="off")
    with pytest.raises(OperationError) as caught:
        edit_payload(contract, None, "x")
    assert str(caught.value) == "Contract off does not enable the edit operation."


def test_a_json_patch_edit_is_refused_before_current_json_is_checked(
    load_one: LoadOne, support_ticket_schema: dict[str, Any]
) -> None:
    contract = load_one({"schema": support_ticket_schema, "operations": {"edit": {"return": "json_patch"}}}, name="p")
    with pytest.raises(OperationError) as caught:
        edit_payload(contract, None, "x")
    assert str(caught.value) == "Contract p edit operation must return full_object for get_edit_contract."


def test_null_current_json_is_refused_with_the_root_type_error(support_ticket: Contract) -> None:
    with pytest.raises(InvalidInputError) as caught:
        edit_payload(support_ticket, None, "x")
    assert (
        str(caught.value) == "currentJson does not validate against contract support-ticket: /: must be object (type)"
    )


def test_invalid_current_json_lists_every_error(support_ticket: Contract) -> None:
    with pytest.raises(InvalidInputError) as caught:
        edit_payload(support_ticket, {"summary": "s", "severity": "urgent"}, "x")
    assert str(caught.value) == (
        "currentJson does not validate against contract support-ticket: "
        "/category: must have required property 'category' (required); "
        "/severity: must be equal to one of the allowed values (enum)"
    )


def test_edit_payload_works_when_create_is_disabled(
    load_one: LoadOne, support_ticket_schema: dict[str, Any], valid_ticket: dict[str, Any]
) -> None:
    contract = load_one({"schema": support_ticket_schema, "operations": {"create": {"enabled": False}}}, name="c")
    assert edit_payload(contract, valid_ticket, "x")["operation"] == "edit"


def test_valid_json_payload_echoes_the_document(support_ticket: Contract, valid_ticket: dict[str, Any]) -> None:
    payload = validation_payload(support_ticket, valid_ticket)
    assert payload == {"valid": True, "contract": "support-ticket", "json": valid_ticket, "errors": []}
    assert list(payload) == ["valid", "contract", "json", "errors"]


def test_invalid_json_payload_has_errors_and_no_json_key(support_ticket: Contract) -> None:
    payload = validation_payload(support_ticket, {"summary": "s", "severity": "urgent"})
    assert list(payload) == ["valid", "contract", "errors"]
    assert payload["valid"] is False
    assert payload["errors"] == [MISSING_CATEGORY, SEVERITY_ENUM]


def test_null_is_a_document_that_gets_validated(support_ticket: Contract) -> None:
    assert validation_payload(support_ticket, None)["errors"] == [
        {"path": "", "message": "must be object", "keyword": "type"}
    ]


# --- repair ---------------------------------------------------------------------------------------

REPAIR_KEYS = [
    "contract",
    "contractHash",
    "schemaHash",
    "instructions",
    "schema",
    "rules",
    "examples",
    "invalidJson",
    "validationErrors",
]


def test_repair_payload_has_the_original_key_order_then_repairs(
    support_ticket: Contract, support_ticket_file: dict[str, Any]
) -> None:
    payload = repair_payload(support_ticket, {"severity": "urgent"})
    assert list(payload) == [*REPAIR_KEYS, "repairs"]
    assert payload["schema"] == support_ticket_file["schema"]
    assert payload["rules"] == support_ticket_file["rules"]
    assert payload["examples"] == support_ticket_file["examples"]
    assert payload["invalidJson"] == {"severity": "urgent"}
    assert len(payload["repairs"]) == len(payload["validationErrors"])


def test_repair_payload_worked_example(support_ticket: Contract) -> None:
    payload = repair_payload(support_ticket, {"severity": "urgent"}, [])
    assert payload["instructions"] == [
        *REPAIR_LINES,
        "Add missing required field /summary.",
        "Add missing required field /category.",
        "Set /severity to one of: low, medium, high, critical.",
    ]
    assert payload["validationErrors"] == [MISSING_SUMMARY, MISSING_CATEGORY, SEVERITY_ENUM]


def test_valid_json_without_supplied_errors_gets_only_the_six_fixed_lines(
    support_ticket: Contract, valid_ticket: dict[str, Any]
) -> None:
    payload = repair_payload(support_ticket, valid_ticket)
    assert payload["instructions"] == REPAIR_LINES
    assert payload["validationErrors"] == []
    assert payload["repairs"] == []


def test_valid_json_keeps_the_supplied_errors_unchanged_even_repeated(
    support_ticket: Contract, valid_ticket: dict[str, Any]
) -> None:
    supplied: list[ErrorRecord] = [{"path": "/x", "message": "custom", "keyword": "foo"}] * 2
    payload = repair_payload(support_ticket, valid_ticket, supplied)
    assert payload["validationErrors"] == supplied
    assert payload["instructions"] == [*REPAIR_LINES, "Fix /x: custom."]


def test_invalid_json_lists_computed_errors_then_new_supplied_ones_without_repeats(support_ticket: Contract) -> None:
    supplied: list[ErrorRecord] = [SEVERITY_ENUM, {"path": "/x", "message": "custom", "keyword": "foo"}, SEVERITY_ENUM]
    payload = repair_payload(support_ticket, {"severity": "urgent"}, supplied)
    assert payload["validationErrors"] == [
        MISSING_SUMMARY,
        MISSING_CATEGORY,
        SEVERITY_ENUM,
        {"path": "/x", "message": "custom", "keyword": "foo"},
    ]


def test_hints_follow_the_computed_errors_then_the_supplied_ones(support_ticket: Contract) -> None:
    # The TypeScript server's order: hints follow validationErrors, not the caller's list first.
    supplied: list[ErrorRecord] = [SEVERITY_ENUM, {"path": "/x", "message": "custom", "keyword": "foo"}]
    payload = repair_payload(support_ticket, {"severity": "urgent"}, supplied)
    assert payload["instructions"] == [
        *REPAIR_LINES,
        "Add missing required field /summary.",
        "Add missing required field /category.",
        "Set /severity to one of: low, medium, high, critical.",
        "Fix /x: custom.",
    ]


def test_errors_are_the_same_when_keyword_path_and_message_match(support_ticket: Contract) -> None:
    near_copy: ErrorRecord = {
        "path": "/severity",
        "message": "must be equal to one of the allowed values",
        "keyword": "const",
    }
    payload = repair_payload(support_ticket, {"severity": "urgent"}, [near_copy])
    assert payload["validationErrors"][-1] == near_copy
    assert len(payload["validationErrors"]) == 4


def test_extra_keys_of_supplied_errors_are_stripped(support_ticket: Contract, valid_ticket: dict[str, Any]) -> None:
    supplied: list[Any] = [
        {"keyword": "foo", "params": {"a": 1}, "path": "/x", "message": "custom", "schemaPath": "#/x"}
    ]  # as an agent sends them
    payload = repair_payload(support_ticket, valid_ticket, supplied)
    assert payload["validationErrors"] == [{"path": "/x", "message": "custom", "keyword": "foo"}]
    assert list(payload["validationErrors"][0]) == ["path", "message", "keyword"]
    assert "params" in supplied[0]


def test_a_supplied_root_required_error_gives_the_odd_empty_field_hint(
    support_ticket: Contract, valid_ticket: dict[str, Any]
) -> None:
    supplied: list[ErrorRecord] = [{"path": "", "message": "must have required property 'x'", "keyword": "required"}]
    assert repair_payload(support_ticket, valid_ticket, supplied)["instructions"][-1] == "Add missing required field ."


def test_repair_works_when_every_operation_is_disabled(
    load_one: LoadOne, support_ticket_schema: dict[str, Any]
) -> None:
    off = {"enabled": False}
    contract = load_one({"schema": support_ticket_schema, "operations": {"create": off, "edit": off}}, name="off")
    assert repair_payload(contract, {})["validationErrors"][0] == MISSING_SUMMARY
