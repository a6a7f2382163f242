"""The contract file's shape (zod's messages, as the TypeScript server prints them) and its normalised operations."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from json_contracts._json.values import json_type
from json_contracts.contracts.shape import normalise_operations, shape_issues


@pytest.mark.parametrize(
    ("value", "name"),
    [(None, "null"), (True, "boolean"), (1, "number"), (1.5, "number"), ("", "string"), ([], "array"), ({}, "object")],
)
def test_type_names_are_the_ones_zod_prints(value: Any, name: str) -> None:
    assert json_type(value, integers=False) == name


def test_a_minimal_contract_has_no_shape_issues() -> None:
    assert shape_issues({"schema": {}}) == []


def test_issues_point_at_the_offending_field() -> None:
    data = {
        "name": 1,
        "rules": ["a", 2],
        "operations": {"a/b": {"enabled": 1, "rules": "x", "examples": [{"output": 1}]}},
        "examples": [{"input": 1, "output": 2}, 3],
    }
    assert [(issue.pointer, issue.message) for issue in shape_issues(data)] == [
        ("/name", "Expected string, received number"),
        ("/rules/1", "Expected string, received number"),
        ("/operations/a~1b/enabled", "Expected boolean, received number"),
        ("/operations/a~1b/rules", "Expected array, received string"),
        ("/operations/a~1b/examples/0", "value is required"),
        ("/schema", "schema must be a JSON Schema object"),
        ("/examples/1", "Expected object, received number"),
    ]


def test_unknown_top_level_and_operation_keys_are_allowed() -> None:
    assert shape_issues({"schema": {}, "x": 1, "operations": {"custom": {"anything": [1]}}}) == []


def test_normalising_no_operations_gives_the_defaults() -> None:
    assert json.dumps(normalise_operations(None)) == json.dumps(
        {
            "create": {"enabled": True, "rules": [], "examples": []},
            "edit": {"enabled": True, "return": "full_object", "rules": [], "examples": []},
        }
    )


def test_normalising_does_not_change_the_file_data() -> None:
    operations = {"edit": {"note": 1}, "create": {"rules": ["r"]}}
    before = copy.deepcopy(operations)
    normalised = normalise_operations(operations)
    assert operations == before
    assert normalised["create"] is not operations["create"]


def test_custom_operations_get_no_default_return() -> None:
    assert normalise_operations({"summarise": {}})["summarise"] == {"enabled": True, "rules": [], "examples": []}


# --- hints: the field, the place and the fix, which zod's wording never names ------------------------

_NEEDS = 'every example needs "input" and "output"'


@pytest.mark.parametrize(
    ("data", "pointer", "hint"),
    [
        ([{"schema": {}}], "", "a contract file holds one JSON object: remove the [ ] around it"),
        (
            None,
            "",
            'a contract file holds one JSON object, such as {"schema": {"type": "object"}}, not null',
        ),
        (
            {"name": 5, "schema": {}},
            "/name",
            '"name" must be a string, not the number 5; the file name is the contract\'s name, so you may remove it',
        ),
        (
            {"name": "", "schema": {}},
            "/name",
            '"name" is empty; the file name is the contract\'s name, so you may remove it',
        ),
        (
            {"description": ["a", "b"], "schema": {}},
            "/description",
            '"description" must be a string, not an array: join the lines into one string',
        ),
        (
            {"rules": "Be brief.", "schema": {}},
            "/rules",
            '"rules" must be a list of strings: write "rules": ["Be brief."]',
        ),
        (
            {"rules": ["a", 2], "schema": {}},
            "/rules/1",
            "rules[1] must be a string (one rule, in words), not the number 2",
        ),
        (
            {"operations": ["create", "edit"], "schema": {}},
            "/operations",
            '"operations" maps each operation to its settings: write {"create": {"enabled": true}, "edit": '
            '{"enabled": true}}',
        ),
        (
            {"operations": {"edit": False}, "schema": {}},
            "/operations/edit",
            'operations.edit must be an object of settings: write "edit": {"enabled": false}',
        ),
        (
            {"operations": {"edit": {"enabled": "false"}}, "schema": {}},
            "/operations/edit/enabled",
            'operations.edit.enabled must be true or false, not the string "false": write false without quotes',
        ),
        (
            {"operations": {"create": {"enabled": 1}}, "schema": {}},
            "/operations/create/enabled",
            "operations.create.enabled must be true or false, not the number 1: write true",
        ),
        (
            {"operations": {"edit": {"return": "patch"}}, "schema": {}},
            "/operations/edit/return",
            'operations.edit.return must be "full_object" (the whole document) or "json_patch": did you mean '
            '"json_patch"?',
        ),
        (
            {"operations": {"edit": {"return": "fullObject"}}, "schema": {}},
            "/operations/edit/return",
            'operations.edit.return must be "full_object" (the whole document) or "json_patch": did you mean '
            '"full_object"?',
        ),
        (
            {"operations": {"edit": {"return": 5}}, "schema": {}},
            "/operations/edit/return",
            'operations.edit.return must be "full_object" (the whole document) or "json_patch", not the number 5',
        ),
        (
            {"operations": {"edit": {"examples": {"input": "i", "output": 1}}}, "schema": {}},
            "/operations/edit/examples",
            "operations.edit.examples must be a list of examples: put [ ] around the example",
        ),
        (
            {"Schema": {}},
            "/schema",
            'the contract has no "schema" (it has "Schema": did you mean "schema"?)',
        ),
        (
            {"type": "object", "properties": {}},
            "/schema",
            'the contract has no "schema", but "type" and "properties" are at the top level: move them into '
            '"schema": {...}',
        ),
        (
            {},
            "/schema",
            'every contract needs "schema": the JSON Schema its documents must satisfy, such as {"type": "object"}',
        ),
        (
            {"schema": True},
            "/schema",
            '"schema": true is not accepted here: write {} to accept any value, or an object schema',
        ),
        ({"schema": "object"}, "/schema", '"schema" must be a JSON Schema object: write {"type": "object"}'),
        (
            {"schema": "schemas/ticket.json"},
            "/schema",
            '"schema" must be the JSON Schema object itself, not the string "schemas/ticket.json": copy the schema '
            "here (files and URLs are never read)",
        ),
        (
            {"schema": [{}]},
            "/schema",
            '"schema" must be one JSON Schema object, not an array: to accept several shapes, write {"anyOf": [...]}',
        ),
        (
            {"schema": {}, "examples": [{"input": "x", "outputs": {}}]},
            "/examples/0",
            f'examples[0] has no "output" (it has "outputs": did you mean "output"?); {_NEEDS}',
        ),
        (
            {"schema": {}, "examples": [{"prompt": "x", "expected": {}}]},
            "/examples/0",
            f'examples[0] has no "input" and no "output" (it has "prompt" and "expected": did you mean "input" and '
            f'"output"?); {_NEEDS}',
        ),
        (
            {"schema": {}, "examples": [{"input": "x", "context": {}}]},
            "/examples/0",
            f'examples[0] has no "output"; {_NEEDS}',
        ),
        (
            {"schema": {}, "examples": ["x"]},
            "/examples/0",
            'examples[0] must be an object {"input": ..., "output": ...}, not the string "x"',
        ),
        (
            {"schema": {}, "examples": "x"},
            "/examples",
            '"examples" must be a list of {"input": ..., "output": ...} objects, not the string "x"',
        ),
    ],
)
def test_each_issue_has_a_hint_naming_the_field_and_the_fix(data: Any, pointer: str, hint: str) -> None:
    issue = shape_issues(data)[0]
    assert (issue.pointer, issue.hint) == (pointer, hint)


def test_an_example_missing_both_keys_has_two_issues_with_one_hint() -> None:
    issues = shape_issues({"schema": {}, "operations": {"v1.x": {"examples": [{}]}}})
    assert [issue.message for issue in issues] == ["value is required", "value is required"]
    assert {issue.hint for issue in issues} == {f'operations.v1.x.examples[0] has no "input" and no "output"; {_NEEDS}'}
