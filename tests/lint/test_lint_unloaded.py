"""Lint on a file that did not load only because an example output does not validate (JC020).

Every load check before the examples passed, so the rules that read the schema alone still run on
it (``LoadResult.schema_checked``), and those about its examples, operations and fields do not. A
schema mistake is often why a correct example fails; before, its finding appeared only once the
examples were removed, so it never fired where it mattered.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.findings import Code
from json_contracts.lint import CONTRACT_RULES, RULES, SCHEMA_RULES, lint_contract, lint_result
from tests.support.lint import ContractMaker, WriteFolder

#: "required" misspells "actionItems"; "notes" is optional and no example sets it.
MINUTES: dict[str, Any] = {
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "title": {"type": "string"},
            "actionItems": {"type": "array", "items": {"type": "string"}},
            "notes": {"type": "string"},
        },
        "required": ["title", "actionitems"],
    },
    "examples": [{"input": "Standup", "output": {"title": "Standup", "actionItems": ["Ana ships the fix"]}}],
}
#: The codes of the rules that read more than the schema (examples, operations, top-level fields).
CONTRACT_CODES = {
    Code.NO_EXAMPLES, Code.UNKNOWN_FIELD, Code.NAME_MISMATCH, Code.DUPLICATE_EXAMPLE,
    Code.UNKNOWN_OPERATION_FIELD, Code.UNKNOWN_EXAMPLE_FIELD, Code.IGNORED_OPERATION_FIELD,
    Code.ENUM_VALUE_WITHOUT_EXAMPLE, Code.OPTIONAL_PROPERTY_WITHOUT_EXAMPLE, Code.EDIT_WITHOUT_EXAMPLES,
    Code.EDIT_EXAMPLE_INVALID_CURRENT_JSON, Code.EDIT_EXAMPLE_WITHOUT_CURRENT_JSON,
}  # fmt: skip


def test_every_rule_is_either_a_schema_rule_or_a_contract_rule_in_rule_order() -> None:
    assert set(SCHEMA_RULES).isdisjoint(CONTRACT_RULES)
    assert len(SCHEMA_RULES) + len(CONTRACT_RULES) == len(RULES)
    assert tuple(rule for rule in RULES if rule in SCHEMA_RULES) == SCHEMA_RULES
    assert tuple(rule for rule in RULES if rule in CONTRACT_RULES) == CONTRACT_RULES


def test_the_schema_rules_read_nothing_but_the_schema(write_folder: WriteFolder, quiet: ContractMaker) -> None:
    schema = {
        "type": "object",
        "properties": {
            "size": {"type": "string", "enum": ["s", 5, "s"]},
            "note": {"type": "string", "maxlength": 3, "format": "colour"},
            "n": {"type": "integer", "minimum": 5, "maximum": 1},
        },
        "required": ["size", "sise"],
    }
    output = {"size": "s", "sise": 1}
    noisy = quiet(schema, output, output, rule=["x"], name="other")
    noisy["operations"] = {"edit": {"enabeld": False, "examples": [{"input": "i", "output": output}]}}
    result = load_contracts(write_folder({"noisy": noisy}))
    loaded = result.contracts["noisy"]
    bare = replace(loaded, examples=[], operations={}, raw={"schema": loaded.schema})

    as_loaded = lint_result(LoadResult(result.directory, schema_checked={"noisy": loaded}))
    as_bare = lint_result(LoadResult(result.directory, schema_checked={"noisy": bare}))

    assert as_loaded == as_bare  # no schema rule reads examples, operations or top-level fields
    codes, every_code = {f.code for f in as_loaded}, {f.code for f in lint_contract(loaded)}
    assert len(every_code & CONTRACT_CODES) >= 5  # the contract rules had plenty to say
    assert codes == every_code - CONTRACT_CODES
    assert codes >= {Code.ADDITIONAL_PROPERTIES_MISSING, Code.UNKNOWN_KEYWORD, Code.CONTRADICTORY_BOUNDS}


def test_a_file_that_failed_only_on_an_example_is_linted_by_the_schema_rules_in_its_place(
    write_folder: WriteFolder, quiet: ContractMaker, obj: ContractMaker
) -> None:
    open_one = quiet({"type": "object", "properties": {"a": {"type": "string"}}}, {"a": "x"})
    folder = write_folder({"zeta": open_one, "minutes": MINUTES, "alpha": open_one})
    result = load_contracts(folder)

    findings = lint_result(result)

    assert [f.code for f in result.failures] == [Code.INVALID_EXAMPLE]
    assert [(f.contract, f.code) for f in findings] == [
        ("alpha", Code.ADDITIONAL_PROPERTIES_MISSING),
        ("minutes", Code.REQUIRED_NOT_DEFINED),  # and no JC131 for "notes": its examples are not linted
        ("zeta", Code.ADDITIONAL_PROPERTIES_MISSING),
    ]
    required = findings[1]
    assert required.pointer == "/schema/required/1"
    assert required.message == (
        'Required property "actionitems" is not in properties and additionalProperties is false, so no object '
        'can satisfy this schema; did you mean "actionItems"?'
    )


def test_ignored_codes_are_left_out_for_such_a_file_too(write_folder: WriteFolder) -> None:
    result = load_contracts(write_folder({"minutes": MINUTES}))

    assert [f.code for f in lint_result(result)] == [Code.REQUIRED_NOT_DEFINED]
    assert lint_result(result, ignore=[Code.REQUIRED_NOT_DEFINED]) == []


def test_a_file_that_failed_before_its_examples_is_not_linted_at_all(write_folder: WriteFolder) -> None:
    early = {**MINUTES, "rules": "one rule"}  # a shape problem: the schema was never checked
    result = load_contracts(write_folder({"early": early}))

    assert [f.code for f in result.failures] == [Code.INVALID_SHAPE]
    assert result.schema_checked == {}
    assert lint_result(result) == []
