"""JC121's proof drops only the JSON types whose keywords are impossible: the others still validate.

``required`` (and the other object keywords) say nothing about a value that is not an object, so an
impossible required property proves a schema unsatisfiable only when the schema, or the schema it
sits in, admits objects alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.lint import ContractMaker, LintOne

IMPOSSIBLE_A = {"required": ["a"], "properties": {"a": False}}


@pytest.mark.parametrize(
    ("schema", "example"),
    [
        ({"type": ["object", "null"], **IMPOSSIBLE_A}, None),  # the issue's schema: null validates
        (IMPOSSIBLE_A, 1),  # untyped: every non-object validates
        ({"type": ["object", "string"], "required": ["a"], "properties": {"a": {"not": {}}}}, "text"),
        ({"type": ["object", "null"], "allOf": [IMPOSSIBLE_A]}, None),
        ({"type": ["object", "null"], "anyOf": [IMPOSSIBLE_A, {"required": ["b"], "properties": {"b": False}}]}, None),
        ({"oneOf": [IMPOSSIBLE_A, {"type": "object"}]}, 2),
        ({"type": ["object", "null"], "enum": [None, {"a": 1}], **IMPOSSIBLE_A}, None),
    ],
)
def test_an_impossible_object_keyword_leaves_the_other_types_valid(
    lint_one: LintOne, quiet: ContractMaker, schema: dict[str, Any], example: Any
) -> None:
    linted = lint_one(quiet(schema, example))  # the example validates: the loader checks it
    assert "JC121" not in linted.codes, [f.message for f in linted.findings]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", **IMPOSSIBLE_A},
        {"type": "object", "allOf": [IMPOSSIBLE_A]},  # the type is the enclosing schema's
        {"type": "object", "anyOf": [IMPOSSIBLE_A, {"required": ["b"], "properties": {"b": False}}]},
        {"enum": [{"b": 1}], **IMPOSSIBLE_A},  # only objects are allowed, by the enum
    ],
)
def test_an_impossible_object_keyword_on_objects_only_is_still_proven(
    lint_one: LintOne, quiet: ContractMaker, schema: dict[str, Any]
) -> None:
    linted = lint_one(quiet(schema))
    finding = linted.one("JC121")
    assert finding.severity == "error"
    assert finding.message.startswith("No JSON value can satisfy this schema (")
