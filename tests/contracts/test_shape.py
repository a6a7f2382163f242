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
