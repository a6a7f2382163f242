"""Contract-level rules: JC111, JC122, JC123 (warnings), the info rules JC130, JC131, JC132, and the edit
examples' currentJson: JC133 (invalid, an error) and JC134 (missing, a warning)."""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.findings.catalogue import CATALOGUE, Code
from tests.support.lint import ContractMaker, LintOne

# --- JC111 unknown-field -----------------------------------------------------------------------


@pytest.mark.parametrize(("field", "suggestion"), [("rule", "rules"), ("example", "examples")])
def test_an_unknown_top_level_field_warns_jc111_with_a_did_you_mean(
    lint_one: LintOne, quiet: ContractMaker, field: str, suggestion: str
) -> None:
    contract = quiet({"type": "string"}, "x")
    contract[field] = []
    linted = lint_one(contract)

    finding = linted.one("JC111")
    assert finding.severity == "warning" == CATALOGUE[Code("JC111")].severity
    assert finding.message == f'Unknown contract field "{field}" is ignored; did you mean "{suggestion}"?'
    assert finding.pointer == f"/{field}"
    assert (finding.line, finding.column) == linted.at(f'"{field}": ')


def test_an_unknown_field_unlike_any_known_one_says_it_is_dropped(lint_one: LintOne, quiet: ContractMaker) -> None:
    contract = quiet({"type": "string"}, "x")
    contract["zzz"] = 1
    linted = lint_one(contract)

    assert linted.one("JC111").message == (
        'Unknown contract field "zzz" is ignored; remove it (unknown fields are dropped)'
    )


def test_a_draft_07_schema_uri_at_the_top_of_a_contract_is_told_to_move_into_schema(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = {"$schema": "http://json-schema.org/draft-07/schema#", **quiet({"type": "string"}, "x")}
    linted = lint_one(contract)

    finding = linted.one("JC111")
    assert finding.message == (
        'Unknown contract field "$schema" is ignored, so the schema is read as 2020-12, not draft-07; '
        'move "$schema" into "schema", where it selects the dialect'
    )
    assert finding.pointer == "/$schema"
    assert (finding.line, finding.column) == linted.at('"$schema"')


@pytest.mark.parametrize(
    ("uri", "tail"),
    [
        ("https://json-schema.org/draft/2020-12/schema", "(2020-12 is also the default)"),
        ("https://json-schema.org/draft/2019-09/schema", "(draft-07 or 2020-12)"),
    ],
)
def test_a_json_schema_uri_at_the_top_of_a_contract_belongs_inside_schema(
    lint_one: LintOne, quiet: ContractMaker, uri: str, tail: str
) -> None:
    linted = lint_one({"$schema": uri, **quiet({"type": "string"}, "x")})

    assert linted.one("JC111").message == (
        'Unknown contract field "$schema" is ignored; move "$schema" into "schema", where it selects the dialect '
        + tail
    )


def test_a_second_schema_uri_beside_the_schemas_own_is_told_to_go(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}
    linted = lint_one({"$schema": "http://json-schema.org/draft-07/schema#", **quiet(schema, "x")})

    assert linted.one("JC111").message == (
        'Unknown contract field "$schema" is ignored; the dialect is read from the "$schema" inside "schema": '
        "remove this one"
    )


def test_an_editor_schema_uri_at_the_top_is_not_told_to_move_into_schema(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one({"$schema": "./contract-file.schema.json", **quiet({"type": "string"}, "x")})

    message = linted.one("JC111").message
    assert message.startswith('Unknown contract field "$schema" is ignored: a contract file is not checked against it;')
    assert "remove it" in message
    assert "into" not in message


def test_known_top_level_fields_do_not_warn_jc111(lint_one: LintOne, quiet: ContractMaker) -> None:
    contract = quiet({"type": "string"}, "x", name="sample", description="d", rules=["be brief"])
    assert "JC111" not in lint_one(contract).codes


# --- JC122 name-mismatch -----------------------------------------------------------------------


def test_a_name_field_that_differs_from_the_file_name_warns_jc122(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"type": "string"}, "x", name="other-name"), name="mine")

    finding = linted.one("JC122")
    assert finding.severity == "warning" == CATALOGUE[Code("JC122")].severity
    assert finding.message == (
        'The name field "other-name" differs from the file name "mine", and the file name wins; '
        "rename the file or remove the name field"
    )
    assert finding.pointer == "/name"
    assert finding.contract == "mine"
    assert (finding.line, finding.column) == linted.at('"other-name"')


def test_a_name_field_equal_to_the_file_name_does_not_warn_jc122(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC122" not in lint_one(quiet({"type": "string"}, "x", name="mine"), name="mine").codes


# --- JC123 duplicate-example -------------------------------------------------------------------


def test_a_repeated_example_warns_jc123_pointing_at_the_repeat(lint_one: LintOne) -> None:
    text = (
        "{\n"
        '  "schema": {"type": "object", "additionalProperties": false,\n'
        '             "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"]},\n'
        '  "operations": {"edit": {"enabled": false}},\n'
        '  "examples": [\n'
        '    {"input": "one", "output": {"a": "x", "b": "y"}},\n'
        '    {"output": {"b": "y", "a": "x"}, "input": "one"}\n'
        "  ]\n"
        "}\n"
    )
    linted = lint_one(text)

    finding = linted.one("JC123")
    assert finding.severity == "warning" == CATALOGUE[Code("JC123")].severity
    assert finding.message == "This example repeats the one at /examples/0; remove it or make it show something new"
    assert finding.pointer == "/examples/1"
    assert (finding.line, finding.column) == linted.at('{"output"')


def test_an_operation_example_repeating_a_top_level_one_names_both(lint_one: LintOne, quiet: ContractMaker) -> None:
    contract = quiet({"type": "string"}, "y")
    contract["operations"]["create"] = {"examples": [{"input": "request 0", "output": "y"}]}
    linted = lint_one(contract)

    finding = linted.one("JC123")
    assert finding.pointer == "/operations/create/examples/0"
    assert finding.message.startswith("This example repeats the one at /examples/0;")


def test_examples_that_differ_only_in_input_are_not_duplicates(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC123" not in lint_one(quiet({"type": "string"}, "y", "y")).codes


# --- JC130 enum-value-without-example ----------------------------------------------------------


def test_an_enum_value_no_example_shows_is_noted_as_info_jc130(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    prop = {"type": "string", "enum": ["open", "closed"]}
    linted = lint_one(quiet(obj({"state": prop}, ["state"]), {"state": "open"}))

    finding = linted.one("JC130")
    assert finding.severity == "info" == CATALOGUE[Code("JC130")].severity
    assert finding.message == 'No example shows enum value(s) "closed"; add an example that uses them'
    assert finding.lint_path == "$.schema.properties.state.enum"
    assert (finding.line, finding.column) == linted.at('"enum": ', after=True)


def test_enum_values_shown_across_examples_and_edit_examples_are_covered(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    prop = {"type": "string", "enum": ["open", "closed", "held"]}
    contract = quiet(obj({"state": prop}, ["state"]), {"state": "open"})
    contract["operations"]["edit"] = {
        "examples": [{"currentJson": {"state": "held"}, "input": "close it", "output": {"state": "closed"}}]
    }
    assert "JC130" not in lint_one(contract).codes


def test_enum_values_inside_array_items_are_looked_up_in_every_item(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    items = {"type": "string", "enum": ["a", "b"]}
    linted = lint_one(quiet(obj({"tags": {"type": "array", "items": items}}, ["tags"]), {"tags": ["a", "b"]}))
    assert "JC130" not in linted.codes

    linted = lint_one(quiet(obj({"tags": {"type": "array", "items": items}}, ["tags"]), {"tags": ["a"]}))
    assert linted.one("JC130").lint_path == "$.schema.properties.tags.items.enum"


def test_an_enum_shared_through_refs_is_covered_by_any_property_that_uses_it(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj(
        {"x": {"$ref": "#/$defs/state"}, "y": {"$ref": "#/$defs/state"}},
        ["x", "y"],
        **{"$defs": {"state": {"type": "string", "enum": ["a", "b"]}}},
    )
    assert "JC130" not in lint_one(quiet(schema, {"x": "a", "y": "b"})).codes


# --- JC131 optional-property-without-example ---------------------------------------------------


def test_an_optional_property_no_example_sets_is_noted_as_info_jc131(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "nickname": {"type": "string"}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    finding = linted.one("JC131")
    assert finding.severity == "info" == CATALOGUE[Code("JC131")].severity
    assert finding.message == 'No example shows optional property "nickname"; add an example that sets it'
    assert finding.lint_path == "$.schema.properties.nickname"
    assert (finding.line, finding.column) == linted.at('"nickname"')


def test_an_optional_property_set_by_some_example_is_covered(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "nickname": {"type": "string"}}
    assert "JC131" not in lint_one(quiet(obj(props, ["a"]), {"a": "x"}, {"a": "y", "nickname": "z"})).codes


def test_a_required_property_is_never_reported_by_jc131(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    assert "JC131" not in lint_one(quiet(obj({"a": {"type": "string"}}, ["a"]), {"a": "x"})).codes


def test_an_optional_property_of_a_shared_definition_is_covered_through_any_reference(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj(
        {"x": {"$ref": "#/$defs/box"}, "y": {"$ref": "#/$defs/box"}},
        ["x", "y"],
        **{"$defs": {"box": obj({"label": {"type": "string"}}, [])}},
    )
    assert "JC131" not in lint_one(quiet(schema, {"x": {}, "y": {"label": "z"}})).codes


# --- JC132 edit-without-examples ---------------------------------------------------------------


def test_an_enabled_edit_operation_without_examples_is_noted_as_info_jc132(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = quiet({"type": "string"}, "x")
    contract["operations"] = {"edit": {"enabled": True}}
    linted = lint_one(contract)

    finding = linted.one("JC132")
    assert finding.severity == "info" == CATALOGUE[Code("JC132")].severity
    assert finding.message == (
        "The edit operation is enabled but has no examples; add operations.edit.examples "
        "with currentJson, input and output, or set enabled to false"
    )
    assert finding.pointer == "/operations/edit"
    assert (finding.line, finding.column) == linted.at('"edit": ', after=True)


def test_a_contract_without_operations_has_edit_enabled_by_default_and_gets_jc132_at_the_top(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    contract = quiet({"type": "string"}, "x")
    del contract["operations"]
    linted = lint_one(contract)

    finding = linted.one("JC132")
    assert (finding.pointer, finding.line, finding.column) == ("", 1, 1)


def test_jc132_points_at_the_operations_key_when_operations_has_no_edit(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    # It used to point at 1:1, far from where edit would be written.
    contract = quiet({"type": "string"}, "x")
    contract["operations"] = {"create": {"rules": ["be brief"]}}
    linted = lint_one(contract)

    finding = linted.one("JC132")
    assert finding.pointer == "/operations"
    assert (finding.line, finding.column) == linted.at('"operations"')


def test_jc132_points_at_an_operation_that_misspells_edit_and_says_nothing_when_the_rename_fixes_it(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJson": "x", "input": "change", "output": "y"}
    contract = quiet({"type": "string"}, "x")
    contract["operations"] = {"Edit": {"rules": ["be brief"]}}
    linted = lint_one(contract)

    finding = linted.one("JC132")
    assert finding.pointer == "/operations/Edit"
    assert (finding.line, finding.column) == linted.at('"Edit"')
    for renamed in ({"examples": [example]}, {"enabled": False}):
        contract["operations"] = {"Edit": renamed}
        linted = lint_one(contract)
        assert "JC132" not in linted.codes
        assert "JC124" in linted.codes  # the rename, which is the whole fix


def test_a_disabled_edit_operation_does_not_get_jc132(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC132" not in lint_one(quiet({"type": "string"}, "x")).codes


def test_an_edit_operation_with_examples_does_not_get_jc132(lint_one: LintOne, quiet: ContractMaker) -> None:
    contract = quiet({"type": "string"}, "x")
    contract["operations"] = {"edit": {"examples": [{"currentJson": "x", "input": "change", "output": "y"}]}}
    assert "JC132" not in lint_one(contract).codes


# --- JC133 edit-example-invalid-current-json ---------------------------------------------------

STATE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"state": {"type": "string", "enum": ["open", "closed"]}, "note": {"type": "string"}},
    "required": ["state"],
}


def _edit(quiet: ContractMaker, *examples: dict[str, Any], enabled: bool = True) -> dict[str, Any]:
    contract = quiet(STATE, {"state": "open", "note": "n"}, {"state": "closed"})
    contract["operations"] = {"edit": {"enabled": enabled, "examples": list(examples)}}
    return contract


def test_an_edit_example_whose_current_json_does_not_validate_is_an_error_jc133(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    valid = {"currentJson": {"state": "open"}, "input": "close it", "output": {"state": "closed"}}
    invalid = {"currentJson": {"state": "pending"}, "input": "close it", "output": {"state": "closed"}}
    linted = lint_one(_edit(quiet, valid, invalid))

    finding = linted.one("JC133")
    assert finding.severity == "error" == CATALOGUE[Code.EDIT_EXAMPLE_INVALID_CURRENT_JSON].severity
    assert finding.message == (
        "currentJson of edit example operations.edit.examples[1] does not validate against the schema, so the "
        "example shows an edit no agent is asked to make (get_edit_contract refuses an invalid currentJson): "
        "/state: must be equal to one of the allowed values (enum); fix currentJson so it validates"
    )
    assert finding.pointer == "/operations/edit/examples/1/currentJson/state"
    assert (finding.line, finding.column) == linted.at('"pending"')


def test_jc133_lists_every_error_and_points_at_the_nearest_place_for_a_missing_property(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJson": {"note": 5}, "input": "close it", "output": {"state": "closed"}}
    linted = lint_one(_edit(quiet, example))

    finding = linted.one("JC133")
    assert finding.message.endswith(
        ": /state: must have required property 'state' (required); /note: must be string (type); "
        "fix currentJson so it validates"
    )
    assert finding.pointer == "/operations/edit/examples/0/currentJson/state"  # the missing name appended
    assert (finding.line, finding.column) == linted.at('"currentJson": ', after=True)  # not in the file: its object


def test_a_valid_current_json_does_not_get_jc133_even_in_a_disabled_edit(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJson": {"state": "open"}, "input": "close it", "output": {"state": "closed"}}
    assert "JC133" not in lint_one(_edit(quiet, example)).codes

    invalid = {"currentJson": {"state": 1}, "input": "close it", "output": {"state": "closed"}}
    assert "JC133" in lint_one(_edit(quiet, invalid, enabled=False)).codes  # still wrong, wherever it is


# --- JC134 edit-example-without-current-json ---------------------------------------------------


def test_an_edit_example_without_current_json_warns_jc134_at_the_example(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(_edit(quiet, {"input": "close it", "output": {"state": "closed"}}))

    finding = linted.one("JC134")
    assert finding.severity == "warning" == CATALOGUE[Code.EDIT_EXAMPLE_WITHOUT_CURRENT_JSON].severity
    assert finding.message == (
        "Edit example operations.edit.examples[0] has no currentJson, so the model sees a result without the "
        "document it was edited from; add currentJson, the document before the edit"
    )
    assert finding.pointer == "/operations/edit/examples/0"
    assert (finding.line, finding.column) == linted.at('{\n          "input": "close it"')


@pytest.mark.parametrize("typo", ["current_json", "currentJSON", "curentJson"])
def test_a_misspelt_current_json_is_one_jc134_that_renames_it_at_the_key(
    lint_one: LintOne, quiet: ContractMaker, typo: str
) -> None:
    # JC125 used to report the same key again ('Unknown field "currentJSON" ... did you mean "currentJson"?').
    example = {typo: {"state": "open"}, "input": "close it", "output": {"state": "closed"}}
    linted = lint_one(_edit(quiet, example))

    finding = linted.one("JC134")
    assert finding.message.endswith(f'; rename "{typo}" to "currentJson"')
    assert finding.pointer == f"/operations/edit/examples/0/{typo}"
    assert (finding.line, finding.column) == linted.at(f'"{typo}"')
    assert "JC125" not in linted.codes


def test_jc125_still_reports_a_second_misspelt_current_json_and_other_unknown_keys_of_that_example(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJSON": {}, "current_json": {}, "contxt": {}, "input": "i", "output": {"state": "open"}}
    linted = lint_one(_edit(quiet, example))

    assert linted.one("JC134").message.endswith('; rename "currentJSON" to "currentJson"')
    assert [f.pointer.rsplit("/", 1)[1] for f in linted.of("JC125")] == ["current_json", "contxt"]


def test_an_edit_example_with_current_json_or_a_top_level_example_does_not_get_jc134(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    example = {"currentJson": {"state": "open"}, "input": "close it", "output": {"state": "closed"}, "x-cur": 1}
    linted = lint_one(_edit(quiet, example))

    assert "JC134" not in linted.codes  # and the top-level examples, which have none, are not edit examples
