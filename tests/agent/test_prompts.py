"""The MCP prompts: definitions, argument pre-processing and the TypeScript server's text, byte for byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from json_contracts.agent.prompts import (
    preprocess_prompt_arguments,
    render_edit_prompt,
    render_json_prompt,
    render_repair_prompt,
)
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from json_contracts.errors import InvalidInputError, OperationError
from json_contracts.mcp.tools import PROMPTS
from tests.support.golden import golden_text
from tests.support.samples import SAMPLE_CONTEXT, SAMPLE_CURRENT, SAMPLE_INPUT, SEVERITY_ENUM, SUPPORT_TICKET

PROMPT_DEFINITIONS = [prompt.listing() for prompt in PROMPTS]


def _load(tmp_path: Path, content: dict[str, Any], name: str = "support-ticket") -> Contract:
    folder = tmp_path / "contracts"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(content, indent=2), encoding="utf-8")
    result = load_contracts(folder)
    assert result.failures == [], [f.message for f in result.failures]
    return result.contracts[name]


def _variant(**changes: Any) -> dict[str, Any]:
    contract: dict[str, Any] = json.loads(json.dumps(SUPPORT_TICKET))
    for key, value in changes.items():
        if value is None:
            contract.pop(key, None)
        else:
            contract[key] = value
    return contract


@pytest.fixture
def ticket(tmp_path: Path) -> Contract:
    return _load(tmp_path, SUPPORT_TICKET)


# --- definitions -----------------------------------------------------------------------------


def test_prompt_definitions_equal_the_original_prompts_list() -> None:
    golden = json.loads(golden_text("mcp-prompts-list.json"))
    assert golden["prompts"] == PROMPT_DEFINITIONS
    assert [p["name"] for p in PROMPT_DEFINITIONS] == [
        "json_contract_prompt",
        "edit_contract_prompt",
        "repair_contract_prompt",
    ]


def test_prompt_definitions_keep_the_original_key_order() -> None:
    golden = json.loads(golden_text("mcp-prompts-list.json"))
    assert json.dumps(PROMPT_DEFINITIONS) == json.dumps(golden["prompts"])


# --- byte-exact samples ----------------------------------------------------------------------


def test_json_prompt_reproduces_the_original_sample_byte_for_byte(ticket: Contract) -> None:
    text = render_json_prompt(ticket, SAMPLE_INPUT, SAMPLE_CONTEXT)
    assert text == golden_text("prompt-json_contract_prompt.txt")


def test_edit_prompt_reproduces_the_original_sample_byte_for_byte(ticket: Contract) -> None:
    text = render_edit_prompt(ticket, SAMPLE_CURRENT, "make it critical", SAMPLE_CONTEXT)
    assert text == golden_text("prompt-edit_contract_prompt.txt")


def test_repair_prompt_reproduces_the_original_sample_byte_for_byte(ticket: Contract) -> None:
    text = render_repair_prompt(ticket, {"severity": "urgent"}, [SEVERITY_ENUM])
    assert text == golden_text("prompt-repair_contract_prompt.txt")


def test_prompts_from_preprocessed_string_arguments_match_the_samples(ticket: Contract) -> None:
    create = preprocess_prompt_arguments({"input": SAMPLE_INPUT, "context": '{"source":"chat"}'})
    edit = preprocess_prompt_arguments(
        {"currentJson": json.dumps(SAMPLE_CURRENT), "input": "make it critical", "context": '{"source": "chat"}'}
    )
    repair = preprocess_prompt_arguments(
        {"invalidJson": '{"severity":"urgent"}', "validationErrors": json.dumps([SEVERITY_ENUM])}
    )
    texts = [
        render_json_prompt(ticket, create["input"], create["context"]),
        render_edit_prompt(ticket, edit["currentJson"], edit["input"], edit["context"]),
        render_repair_prompt(ticket, repair["invalidJson"], repair["validationErrors"]),
    ]
    assert texts == [
        golden_text("prompt-json_contract_prompt.txt"),
        golden_text("prompt-edit_contract_prompt.txt"),
        golden_text("prompt-repair_contract_prompt.txt"),
    ]


def test_rendered_prompts_have_no_trailing_newline(ticket: Contract) -> None:
    assert not render_json_prompt(ticket, "x", {}).endswith("\n")
    assert not render_edit_prompt(ticket, SAMPLE_CURRENT, "x", {}).endswith("\n")
    assert not render_repair_prompt(ticket, {}, []).endswith("\n")


# --- layout details --------------------------------------------------------------------------


def test_empty_rules_render_as_a_literal_empty_list(tmp_path: Path) -> None:
    contract = _load(tmp_path, _variant(rules=None, operations=None))
    text = render_json_prompt(contract, "x", {})
    assert "\nRules:\n[]\n\nCreate operation rules:\n[]\n\nJSON Schema:\n" in text
    edit = render_edit_prompt(contract, SAMPLE_CURRENT, "x", {})
    assert "\nRules:\n[]\n\nEdit operation rules:\n[]\n\nJSON Schema:\n" in edit
    repair = render_repair_prompt(contract, {}, [])
    assert "\nRules:\n[]\n\nJSON Schema:\n" in repair


def test_rules_are_numbered_from_one_on_their_own_lines(ticket: Contract) -> None:
    text = render_json_prompt(ticket, "x", {})
    assert "\nRules:\n1. If the user says urgent, severity must be critical.\n2. Summary must be under 80" in text


@pytest.mark.parametrize("description", [None, ""])
def test_missing_or_empty_description_renders_label_with_trailing_space(tmp_path: Path, description: Any) -> None:
    contract = _load(tmp_path, _variant(description=None) if description is None else _variant(description=""))
    for text in (
        render_json_prompt(contract, "x", {}),
        render_edit_prompt(contract, SAMPLE_CURRENT, "x", {}),
        render_repair_prompt(contract, {}, []),
    ):
        assert "\nDescription: \n" in text


def test_context_is_rendered_as_pretty_json_text(ticket: Contract) -> None:
    context = {"user": {"name": "Zoë", "ids": [1, 2.0, 1e21]}, "empty": {}, "list": []}
    text = render_json_prompt(ticket, "x", context)
    expected = (
        "Context:\n{\n"
        '  "user": {\n    "name": "Zoë",\n    "ids": [\n      1,\n      2,\n      1e+21\n    ]\n  },\n'
        '  "empty": {},\n  "list": []\n}'
    )
    assert text.endswith("\n\n" + expected)


def test_missing_context_renders_an_empty_object(ticket: Contract) -> None:
    assert render_json_prompt(ticket, "x").endswith("\n\nContext:\n{}")
    assert render_edit_prompt(ticket, SAMPLE_CURRENT, "x").endswith("\n\nContext:\n{}")


def test_input_text_is_rendered_verbatim_even_over_several_lines(ticket: Contract) -> None:
    text = render_json_prompt(ticket, 'line one\nline "two"', {})
    assert '\n\nInput:\nline one\nline "two"\n\nContext:\n{}' in text


def test_integer_like_schema_keys_come_first_as_javascript_orders_them(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"b": {}, "10": {}, "2": {}}}
    contract = _load(tmp_path, _variant(schema=schema, examples=None, operations=None))
    text = render_repair_prompt(contract, {}, [])
    assert '"properties": {\n    "2": {},\n    "10": {},\n    "b": {}\n  }' in text


# --- operation checks ------------------------------------------------------------------------


def test_json_prompt_refuses_a_contract_with_create_disabled(tmp_path: Path) -> None:
    contract = _load(tmp_path, _variant(operations={"create": {"enabled": False}}))
    with pytest.raises(OperationError) as info:
        render_json_prompt(contract, "x", {})
    assert str(info.value) == "Contract support-ticket does not enable the create operation."


def test_edit_prompt_refuses_a_contract_with_edit_disabled(tmp_path: Path) -> None:
    contract = _load(tmp_path, _variant(operations={"edit": {"enabled": False}}))
    with pytest.raises(OperationError) as info:
        render_edit_prompt(contract, SAMPLE_CURRENT, "x", {})
    assert str(info.value) == "Contract support-ticket does not enable the edit operation."


def test_edit_prompt_refuses_a_json_patch_edit_naming_the_prompt(tmp_path: Path) -> None:
    contract = _load(tmp_path, _variant(operations={"edit": {"return": "json_patch"}}))
    with pytest.raises(OperationError) as info:
        render_edit_prompt(contract, SAMPLE_CURRENT, "x", {})
    assert str(info.value) == (
        "Contract support-ticket edit operation must return full_object for edit_contract_prompt."
    )


def test_edit_prompt_checks_enabled_before_return_kind(tmp_path: Path) -> None:
    contract = _load(tmp_path, _variant(operations={"edit": {"enabled": False, "return": "json_patch"}}))
    with pytest.raises(OperationError, match="does not enable the edit operation"):
        render_edit_prompt(contract, None, "x", {})


def test_edit_prompt_refuses_a_current_json_that_does_not_validate(ticket: Contract) -> None:
    with pytest.raises(InvalidInputError) as info:
        render_edit_prompt(ticket, {**SAMPLE_CURRENT, "severity": "urgent"}, "x", {})
    assert str(info.value) == (
        "currentJson does not validate against contract support-ticket: "
        "/severity: must be equal to one of the allowed values (enum)"
    )


def test_edit_prompt_validates_an_unparsable_current_json_as_a_string(ticket: Contract) -> None:
    current = preprocess_prompt_arguments({"currentJson": "not json"})["currentJson"]
    with pytest.raises(InvalidInputError) as info:
        render_edit_prompt(ticket, current, "x", {})
    assert str(info.value) == "currentJson does not validate against contract support-ticket: /: must be object (type)"


def test_edit_prompt_refuses_null_current_json(ticket: Contract) -> None:
    with pytest.raises(InvalidInputError, match=r"support-ticket: /: must be object \(type\)$"):
        render_edit_prompt(ticket, None, "x", {})


def test_repair_prompt_works_with_every_operation_disabled(tmp_path: Path) -> None:
    ops = {"create": {"enabled": False}, "edit": {"enabled": False, "return": "json_patch"}}
    contract = _load(tmp_path, _variant(operations=ops))
    assert render_repair_prompt(contract, {"severity": "urgent"}, [SEVERITY_ENUM]).startswith(
        "The previous JSON failed validation.\n"
    )


# --- repair prompt errors --------------------------------------------------------------------


def test_repair_prompt_renders_no_errors_when_none_are_supplied(ticket: Contract) -> None:
    # {"severity": "urgent"} has three errors, but the prompt computes none.
    text = render_repair_prompt(ticket, {"severity": "urgent"}, [])
    assert text.endswith('\n\nInvalid JSON:\n{\n  "severity": "urgent"\n}\n\nValidation errors:\n[]')
    assert render_repair_prompt(ticket, {"severity": "urgent"}) == text


def test_repair_prompt_renders_supplied_errors_verbatim_even_when_wrong(ticket: Contract) -> None:
    made_up = [
        {"path": "/nowhere", "message": "is imaginary", "keyword": "custom"},
        {"path": "/nowhere", "message": "is imaginary", "keyword": "custom"},
    ]
    text = render_repair_prompt(ticket, SAMPLE_CURRENT, made_up)
    assert text.endswith("\n\nValidation errors:\n" + json.dumps(made_up, indent=2))


def test_repair_prompt_keeps_only_path_message_keyword_in_that_order(ticket: Contract) -> None:
    supplied = [{"keyword": "enum", "extra": 1, "message": "must be equal to one of the allowed values", "path": "/s"}]
    text = render_repair_prompt(ticket, {}, supplied)
    expected = [{"path": "/s", "message": "must be equal to one of the allowed values", "keyword": "enum"}]
    assert text.endswith("\n\nValidation errors:\n" + json.dumps(expected, indent=2))


def test_repair_prompt_renders_a_raw_string_invalid_json_as_a_json_string(ticket: Contract) -> None:
    text = render_repair_prompt(ticket, "{oops", [])
    assert '\n\nInvalid JSON:\n"{oops"\n\nValidation errors:\n[]' in text


# --- argument pre-processing -----------------------------------------------------------------


def test_preprocessing_leaves_absent_keys_absent_and_other_keys_untouched() -> None:
    args = {"contract": "support-ticket", "input": '{"a": 1}', "extra": "[1]"}
    assert preprocess_prompt_arguments(args) == args
    assert preprocess_prompt_arguments({}) == {}


def test_preprocessing_does_not_change_the_callers_dict() -> None:
    args = {"context": "", "currentJson": ""}
    preprocess_prompt_arguments(args)
    assert args == {"context": "", "currentJson": ""}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", {}),
        ('{"source": "chat"}', {"source": "chat"}),
        ("[1, 2]", [1, 2]),
        ("null", None),
        ('"text"', "text"),
        ("{not json", "{not json"),
        ("NaN", "NaN"),
    ],
)
def test_context_preprocessing_parses_json_keeps_raw_text_and_maps_empty_to_object(raw: str, expected: Any) -> None:
    assert preprocess_prompt_arguments({"context": raw}) == {"context": expected}


@pytest.mark.parametrize("key", ["currentJson", "invalidJson"])
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"severity": "urgent"}', {"severity": "urgent"}),
        ("null", None),
        ("0", 0),
        ("1.0", 1.0),
        ('""', ""),
        ("not json", "not json"),
        ("{'single': 'quotes'}", "{'single': 'quotes'}"),
        (" ", " "),
    ],
)
def test_document_preprocessing_parses_json_or_keeps_raw_text(key: str, raw: str, expected: Any) -> None:
    result = preprocess_prompt_arguments({"contract": "c", key: raw})
    assert result == {"contract": "c", key: expected}
    assert type(result[key]) is type(expected)


@pytest.mark.parametrize("key", ["currentJson", "invalidJson"])
def test_empty_document_argument_is_removed(key: str) -> None:
    assert preprocess_prompt_arguments({"contract": "c", key: ""}) == {"contract": "c"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("", []),
        (json.dumps([SEVERITY_ENUM]), [SEVERITY_ENUM]),
        ("[]", []),
        ('{"not": "a list"}', {"not": "a list"}),
        ("[oops", "[oops"),
    ],
)
def test_validation_errors_preprocessing_parses_json_keeps_raw_text_and_maps_empty_to_list(
    raw: str, expected: Any
) -> None:
    assert preprocess_prompt_arguments({"validationErrors": raw}) == {"validationErrors": expected}


def test_preprocessing_handles_every_key_together() -> None:
    args = {
        "contract": "support-ticket",
        "input": "make it critical",
        "context": "",
        "currentJson": "",
        "invalidJson": "{bad",
        "validationErrors": "",
    }
    assert preprocess_prompt_arguments(args) == {
        "contract": "support-ticket",
        "input": "make it critical",
        "context": {},
        "invalidJson": "{bad",
        "validationErrors": [],
    }


def test_preprocessing_reads_big_integers_as_javascript_does() -> None:
    assert preprocess_prompt_arguments({"currentJson": "9007199254740993"}) == {"currentJson": 9007199254740992.0}
