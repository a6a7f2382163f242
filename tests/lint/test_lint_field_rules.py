"""Operation and example fields that do nothing: JC124 (unknown operation fields and misspelt operation
names), JC125 (unknown example fields) and JC126 (operation fields no tool reads where they are).

Every contract here loads (``lint_one`` asserts it): the loader keeps extra keys, as the TypeScript
server does, and lint is what says they do nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.agent.payloads import contract_payload, create_payload
from json_contracts.agent.prompts import render_json_prompt
from json_contracts.errors import OperationError
from json_contracts.findings.catalogue import CATALOGUE, Code
from tests.support.lint import ContractMaker, LintOne

OBJECT = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"state": {"type": "string", "enum": ["open", "closed"]}},
    "required": ["state"],
}


def _contract(quiet: ContractMaker, operations: dict[str, Any], *outputs: Any) -> dict[str, Any]:
    """A quiet contract (edit disabled unless ``operations`` says otherwise) with these operations."""
    contract = quiet(OBJECT, *(outputs or ({"state": "open"}, {"state": "closed"})))
    contract["operations"] = {"edit": {"enabled": False}, **operations}
    return contract


# --- JC124 unknown-operation-field -------------------------------------------------------------


@pytest.mark.parametrize(
    ("operation", "key", "value", "effect", "meant"),
    [
        ("create", "enabeld", False, "so create stays enabled", "enabled"),
        ("create", "rule", ["be brief"], "so create has no rules of its own", "rules"),
        ("edit", "retrun", "json_patch", "so edit returns full_object", "return"),
        ("edit", "exmaples", [], "so edit has no examples of its own", "examples"),
    ],
)
def test_a_misspelt_operation_field_warns_jc124_saying_what_the_typo_does(
    lint_one: LintOne, quiet: ContractMaker, operation: str, key: str, value: Any, effect: str, meant: str
) -> None:
    linted = lint_one(_contract(quiet, {operation: {key: value}}))

    finding = linted.one("JC124")
    assert finding.severity == "warning" == CATALOGUE[Code.UNKNOWN_OPERATION_FIELD].severity
    assert finding.message == (
        f'Unknown field "{key}" in operations.{operation} does nothing, {effect}; did you mean "{meant}"?'
    )
    assert finding.pointer == f"/operations/{operation}/{key}"
    assert (finding.line, finding.column) == linted.at(f'"{key}"')


def test_the_misspelt_enabled_really_leaves_the_operation_enabled(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_contract(quiet, {"create": {"enabeld": False}}))

    assert linted.contract.operations["create"]["enabled"] is True  # what JC124 says the typo does
    assert "JC124" in linted.codes


def test_disabled_instead_of_enabled_false_says_how_to_turn_the_operation_off(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_contract(quiet, {"create": {"disabled": True}}))

    assert linted.one("JC124").message == (
        'Unknown field "disabled" in operations.create does nothing, so create stays enabled; '
        'write "enabled": false to turn it off'
    )


def test_a_misspelt_field_beside_the_real_one_is_only_to_be_removed(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_contract(quiet, {"create": {"enabled": True, "enabeld": False}}))

    assert linted.one("JC124").message == (
        'Unknown field "enabeld" in operations.create does nothing beside "enabled", which is the one read; remove it'
    )


def test_a_misspelt_return_on_create_is_not_corrected_into_another_field_that_does_nothing(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_contract(quiet, {"create": {"retrun": "full_object"}}))

    assert linted.one("JC124").message == (
        'Unknown field "retrun" in operations.create does nothing, and so would "return" '
        "(only edit's return is read); remove it"
    )
    assert "JC126" not in linted.codes


def test_an_operation_field_unlike_any_known_one_says_how_to_mark_an_extension(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_contract(quiet, {"create": {"description": "make a ticket"}}))

    assert linted.one("JC124").message == (
        'Unknown field "description" in operations.create does nothing (no tool reads it); '
        'remove it, or prefix extensions with "x-"'
    )


def test_known_operation_fields_and_x_extensions_do_not_warn_jc124(lint_one: LintOne, quiet: ContractMaker) -> None:
    operations = {
        "create": {"enabled": True, "rules": ["be brief"], "examples": [], "x-owner": "team", "x-enabeld": 1},
        "edit": {"enabled": False, "return": "full_object", "x-note": "later"},
        "x-craete": {},
    }
    assert "JC124" not in lint_one(_contract(quiet, operations)).codes


@pytest.mark.parametrize(
    ("name", "meant"),
    [("craete", "create"), ("creat", "create"), ("Create", "create"), ("edti", "edit"), ("Edit", "edit")],
)
def test_an_operation_name_that_misspells_create_or_edit_warns_jc124_at_the_key(
    lint_one: LintOne, quiet: ContractMaker, name: str, meant: str
) -> None:
    linted = lint_one(_contract(quiet, {name: {"rules": ["be brief"]}}))

    finding = linted.one("JC124")
    assert finding.message == (
        f'Operation "{name}" is not "{meant}" but a custom operation, which no tool acts on, '
        f'so none of its settings reach {meant}; did you mean "{meant}"?'
    )
    assert finding.pointer == f"/operations/{name}"
    assert (finding.line, finding.column) == linted.at(f'"{name}"')
    assert name in linted.contract.operations  # still a custom operation: lint only warns


def test_a_misspelt_operation_meant_to_disable_create_says_create_stays_enabled(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_contract(quiet, {"craete": {"enabled": False}}))

    assert linted.one("JC124").message == (
        'Operation "craete" is not "create" but a custom operation, which no tool acts on, '
        'so create stays enabled; did you mean "create"?'
    )
    assert linted.contract.operations["create"]["enabled"] is True


@pytest.mark.parametrize("name", ["summarise", "credit", "editor", "emit", "exit", "recreate", "x-edit"])
def test_custom_operation_names_that_are_not_one_slip_from_create_or_edit_do_not_warn_jc124(
    lint_one: LintOne, quiet: ContractMaker, name: str
) -> None:
    assert "JC124" not in lint_one(_contract(quiet, {name: {"enabled": True}})).codes


def test_disabled_false_is_only_noise_since_the_operation_is_enabled_already(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    # The advice used to say 'write "enabled": false to turn it off', the opposite of what was meant.
    linted = lint_one(_contract(quiet, {"create": {"disabled": False}}))

    assert linted.one("JC124").message == (
        'Unknown field "disabled" in operations.create does nothing; create is enabled already '
        '(the field is "enabled", true by default): remove it'
    )


@pytest.mark.parametrize(("name", "meant"), [("Edti", "edit"), ("Crate", "create"), ("Edits", "edit")])
def test_a_misspelt_operation_name_is_found_whatever_its_capitals(
    lint_one: LintOne, quiet: ContractMaker, name: str, meant: str
) -> None:
    # edti, crate and edits were reported and their capitalised forms were not.
    assert (
        f'did you mean "{meant}"?' in lint_one(_contract(quiet, {name: {"rules": ["be brief"]}})).one("JC124").message
    )


def test_a_custom_operation_s_own_keys_are_not_reported(lint_one: LintOne, quiet: ContractMaker) -> None:
    # A custom operation is served as written; its metadata used to warn JC124 "no tool reads it".
    operations = {"summarize": {"description": "Summarise a ticket.", "note": "for the weekly digest"}}

    assert "JC124" not in lint_one(_contract(quiet, operations)).codes


# --- JC125 unknown-example-field ---------------------------------------------------------------


def test_a_misspelt_example_field_warns_jc125_saying_the_model_sees_it(lint_one: LintOne, quiet: ContractMaker) -> None:
    contract = _contract(quiet, {})
    contract["examples"][0]["contxt"] = {"channel": "chat"}
    linted = lint_one(contract)

    finding = linted.one("JC125")
    assert finding.severity == "warning" == CATALOGUE[Code.UNKNOWN_EXAMPLE_FIELD].severity
    assert finding.message == (
        'Unknown field "contxt" in examples[0] is shown to the model as written, but no tool reads it, '
        'so the example has no context; did you mean "context"?'
    )
    assert finding.pointer == "/examples/0/contxt"
    assert (finding.line, finding.column) == linted.at('"contxt"')


def test_a_misspelt_field_beside_the_real_one_is_to_be_merged_or_removed(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = _contract(quiet, {})
    contract["examples"][1]["outputs"] = {"state": "open"}
    linted = lint_one(contract)

    finding = linted.one("JC125")
    assert finding.message == (
        'Unknown field "outputs" in examples[1] is shown to the model as written beside "output", '
        'but no tool reads it; merge it into "output" or remove it'
    )
    assert finding.pointer == "/examples/1/outputs"


def test_a_misspelt_current_json_in_a_custom_operation_s_example_warns_jc125(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"curentJson": {"state": "open"}, "input": "sum it up", "output": {"state": "closed"}}
    linted = lint_one(_contract(quiet, {"summarise": {"examples": [example]}}))

    finding = linted.one("JC125")
    assert finding.message == (
        'Unknown field "curentJson" in operations.summarise.examples[0] is shown to the model as written, '
        'but no tool reads it, so the example has no currentJson; did you mean "currentJson"?'
    )
    assert finding.pointer == "/operations/summarise/examples/0/curentJson"
    assert (finding.line, finding.column) == linted.at('"curentJson"')


def test_a_misspelt_current_json_in_an_edit_example_is_left_to_jc134_s_rename(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJSON": {"state": "open"}, "input": "close it", "output": {"state": "closed"}}
    linted = lint_one(_contract(quiet, {"edit": {"examples": [example]}}))

    assert [(f.code, f.pointer) for f in linted.findings] == [("JC134", "/operations/edit/examples/0/currentJSON")]
    assert linted.one("JC134").message.endswith('; rename "currentJSON" to "currentJson"')


def test_a_misspelt_current_json_outside_edit_says_only_edit_examples_have_one(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = _contract(quiet, {})
    contract["examples"][0]["currentjson"] = {"state": "closed"}
    linted = lint_one(contract)

    assert linted.one("JC125").message == (
        'Unknown field "currentjson" in examples[0] is shown to the model as written, but no tool reads it; '
        'did you mean "currentJson"? Only edit examples have one: move this example to operations.edit.examples'
    )


def test_current_json_in_a_top_level_example_warns_jc125_since_create_is_shown_it_too(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = _contract(quiet, {})
    contract["examples"][1]["currentJson"] = {"state": "open"}
    linted = lint_one(contract)

    finding = linted.one("JC125")
    assert finding.message == (
        "currentJson in examples[1] is shown as written to every operation, create included, though only edit "
        "starts from a document; move this example to operations.edit.examples"
    )
    assert finding.pointer == "/examples/1/currentJson"
    assert (finding.line, finding.column) == linted.at('"currentJson"')


def test_current_json_in_a_create_example_warns_jc125(lint_one: LintOne, quiet: ContractMaker) -> None:
    example = {"currentJson": {"state": "open"}, "input": "new one", "output": {"state": "open"}}
    linted = lint_one(_contract(quiet, {"create": {"examples": [example]}}))

    finding = linted.one("JC125")
    assert finding.message == (
        "currentJson in operations.create.examples[0] is shown to the model as written, though create starts "
        "from no document; remove it, or move this example to operations.edit.examples"
    )
    assert finding.pointer == "/operations/create/examples/0/currentJson"


def test_an_example_field_unlike_any_known_one_says_how_to_keep_it_on_purpose(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = _contract(quiet, {})
    contract["examples"][0]["note"] = "the usual case"
    linted = lint_one(contract)

    assert linted.one("JC125").message == (
        'Unknown field "note" in examples[0] is shown to the model as written, but no tool reads it; '
        'remove it, or prefix it with "x-" to keep it on purpose'
    )


def test_known_example_fields_and_x_extensions_do_not_warn_jc125(lint_one: LintOne, quiet: ContractMaker) -> None:
    edit_example = {"currentJson": {"state": "open"}, "input": "close", "output": {"state": "closed"}, "context": {}}
    custom_example = {"currentJson": {"state": "open"}, "input": "sum up", "output": {"state": "open"}}
    contract = _contract(quiet, {"edit": {"examples": [edit_example]}, "summarise": {"examples": [custom_example]}})
    contract["examples"][0].update({"context": {"channel": "chat"}, "x-note": "why", "x-currentJson": 1})
    assert "JC125" not in lint_one(contract).codes


# --- JC126 ignored-operation-field -------------------------------------------------------------


def test_return_on_create_warns_jc126_at_the_key(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_contract(quiet, {"create": {"return": "full_object"}}))

    finding = linted.one("JC126")
    assert finding.severity == "warning" == CATALOGUE[Code.IGNORED_OPERATION_FIELD].severity
    assert finding.message == '"return" has no effect on create: only edit\'s return is read; remove it'
    assert finding.pointer == "/operations/create/return"
    assert (finding.line, finding.column) == linted.at('"return"')


def test_return_on_a_custom_operation_warns_jc126(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(_contract(quiet, {"summarise": {"return": "json_patch"}}))

    assert linted.one("JC126").message == (
        '"return" has no effect on custom operation "summarise" (no tool acts on one): '
        "only edit's return is read; remove it"
    )


def test_return_on_an_operation_that_misspells_edit_is_left_to_jc124_s_rename(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    # JC126 used to say '"return" has no effect on custom operation "Edit" ...; remove it': wrong once renamed.
    operations = {"Edit": {"enabled": False, "return": "full_object", "retrun": "json_patch"}}
    contract = _contract(quiet, operations)
    del contract["operations"]["edit"]
    linted = lint_one(contract)

    assert "JC126" not in linted.codes
    assert [f.message for f in linted.of("JC124")] == [
        'Operation "Edit" is not "edit" but a custom operation, which no tool acts on, so edit stays enabled; '
        'did you mean "edit"?',
        'Unknown field "retrun" in operations.Edit does nothing beside "return", which is the one read; remove it',
    ]


def test_jc126_reads_an_operation_that_misspells_edit_as_edit_once_renamed(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = _contract(quiet, {"Edit": {"return": "json_patch"}})
    del contract["operations"]["edit"]
    linted = lint_one(contract)

    finding = linted.one("JC126")
    assert finding.message == (
        'operations.Edit misspells edit, and once renamed returns "json_patch", which get_edit_contract and '
        "edit_contract_prompt refuse (they return the full object), so no agent could edit with this contract; "
        'set return to "full_object", or set enabled to false'
    )
    assert finding.pointer == "/operations/Edit/return"


def test_jc126_reads_an_operation_that_misspells_create_as_create_once_renamed(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_contract(quiet, {"craete": {"enabled": False, "return": "full_object", "rules": ["r"]}}))

    assert [f.message for f in linted.of("JC126")] == [
        '"return" has no effect on create, which "craete" misspells: only edit\'s return is read; remove it',
        "operations.craete misspells create, and once renamed is disabled, so its rules would reach no agent: "
        "get_json_contract and json_contract_prompt refuse a disabled create, and only read_contract lists them; "
        "remove them, or set enabled to true",
    ]


def test_an_operation_that_misspells_one_beside_the_real_one_stays_custom_for_jc126(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    # Renaming "Edit" would clash with "edit": its return is a custom operation's, read by no tool.
    linted = lint_one(_contract(quiet, {"Edit": {"return": "full_object"}}))

    assert linted.one("JC126").message.startswith('"return" has no effect on custom operation "Edit"')


def test_an_enabled_edit_returning_json_patch_warns_jc126_at_the_value(lint_one: LintOne, quiet: ContractMaker) -> None:
    example = {"currentJson": {"state": "open"}, "input": "close it", "output": {"state": "closed"}}
    linted = lint_one(_contract(quiet, {"edit": {"return": "json_patch", "examples": [example]}}))

    finding = linted.one("JC126")
    assert finding.message == (
        'operations.edit returns "json_patch", which get_edit_contract and edit_contract_prompt refuse '
        '(they return the full object), so no agent can edit with this contract; set return to "full_object", '
        "or set enabled to false"
    )
    assert finding.pointer == "/operations/edit/return"
    assert (finding.line, finding.column) == linted.at('"json_patch"')


@pytest.mark.parametrize(
    "edit",
    [{"enabled": False, "return": "json_patch"}, {"enabled": False, "return": "full_object"}, {"enabled": False}],
)
def test_a_disabled_edit_s_return_and_a_full_object_edit_do_not_warn_jc126(
    lint_one: LintOne, quiet: ContractMaker, edit: dict[str, Any]
) -> None:
    assert "JC126" not in lint_one(_contract(quiet, {"edit": edit})).codes


@pytest.mark.parametrize(
    ("operation", "refused_by"),
    [
        ("create", "get_json_contract and json_contract_prompt"),
        ("edit", "get_edit_contract and edit_contract_prompt"),
    ],
)
def test_rules_and_examples_of_a_disabled_operation_warn_jc126_once_each(
    lint_one: LintOne, quiet: ContractMaker, operation: str, refused_by: str
) -> None:
    example = {"currentJson": {"state": "open"}, "input": "a request", "output": {"state": "closed"}}
    linted = lint_one(_contract(quiet, {operation: {"enabled": False, "rules": ["be brief"], "examples": [example]}}))

    assert [(f.pointer, f.message) for f in linted.of("JC126")] == [
        (
            f"/operations/{operation}/{field}",
            f"operations.{operation} is disabled, so its {field} reach no agent: {refused_by} refuse a disabled "
            f"{operation}, and only read_contract lists them; remove them, or set enabled to true",
        )
        for field in ("rules", "examples")
    ]


def test_a_disabled_operation_s_rules_reach_only_read_contract(lint_one: LintOne, quiet: ContractMaker) -> None:
    """What JC126 claims: no create payload or prompt is built; read_contract lists the rules as data."""
    linted = lint_one(_contract(quiet, {"create": {"enabled": False, "rules": ["be brief"]}}))

    with pytest.raises(OperationError):
        create_payload(linted.contract, "a request")
    with pytest.raises(OperationError):
        render_json_prompt(linted.contract, "a request")
    assert contract_payload(linted.contract)["operations"]["create"]["rules"] == ["be brief"]


def test_empty_rules_of_a_disabled_operation_and_a_disabled_custom_operation_do_not_warn_jc126(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"input": "sum up", "output": {"state": "open"}}
    operations = {
        "create": {"enabled": False, "rules": [], "examples": []},
        "summarise": {"enabled": False, "rules": ["short"], "examples": [example]},
    }
    assert "JC126" not in lint_one(_contract(quiet, operations)).codes


# --- every mistake fails lint --strict ---------------------------------------------------------


def _edit_example(current: Any = None, **extra: Any) -> dict[str, Any]:
    example = {"input": "close it", "output": {"state": "closed"}, **extra}
    return example if current is None else {"currentJson": current, **example}


@pytest.mark.parametrize(
    "operations",
    [
        {"create": {"enabeld": False}},
        {"craete": {"enabled": False}},
        {"create": {"return": "full_object"}},
        {"create": {"enabled": False, "rules": ["r"]}},
        {"edit": {"return": "json_patch", "examples": [_edit_example({"state": "open"})]}},
        {"edit": {"examples": [_edit_example()]}},
        {"edit": {"examples": [_edit_example({"state": "new"})]}},
        {"edit": {"examples": [_edit_example({"state": "open"}, contxt={})]}},
    ],
)
def test_every_authoring_mistake_is_a_warning_or_an_error_so_strict_fails(
    lint_one: LintOne, quiet: ContractMaker, operations: dict[str, Any]
) -> None:
    new_codes = {"JC124", "JC125", "JC126", "JC133", "JC134"}
    findings = [f for f in lint_one(_contract(quiet, operations)).findings if f.code in new_codes]

    assert findings
    assert {f.severity for f in findings} <= {"warning", "error"}
