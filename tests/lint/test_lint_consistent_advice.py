"""No finding asks for an example that another finding proves impossible.

JC130 (show this enum value) and JC131 (set this optional property) skip what JC113 (a value of the
wrong type), JC115 (crossed bounds) or JC121 (no value satisfies the schema) prove can never
validate; each proof is written once and shared. Each contract here drew the contradiction before.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.lint import ContractMaker, LintOne

#: Codes whose findings prove a place in the schema can never hold a value.
PROOFS = ("JC113", "JC115", "JC121")


def test_jc130_does_not_ask_for_an_enum_value_jc113_says_can_never_validate(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"size": {"type": "string", "enum": ["s", 5]}}, ["size"])
    linted = lint_one(quiet(schema, {"size": "s"}))

    assert linted.codes == ["JC113"]
    assert linted.one("JC113").message.startswith("Enum value 5 is integer but the type is string")


def test_jc130_still_asks_for_the_values_of_the_same_enum_that_can_validate(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"size": {"type": "string", "enum": ["s", 5, "m"]}}, ["size"])
    linted = lint_one(quiet(schema, {"size": "s"}))

    assert linted.codes == ["JC113", "JC130"]
    assert linted.one("JC130").message == 'No example shows enum value(s) "m"; add an example that uses them'


def test_jc131_does_not_ask_to_set_a_property_whose_bounds_jc115_says_cross(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "n": {"type": "integer", "minimum": 5, "maximum": 1}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    assert linted.codes == ["JC115"]
    assert linted.one("JC115").message.startswith("minimum 5 is greater than maximum 1, so no number satisfies both")


def test_jc131_does_not_ask_to_set_a_property_jc121_proves_can_never_be_set(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "n": {"type": "string", "enum": ["long"], "maxLength": 2}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    assert linted.codes == ["JC121"]
    assert linted.one("JC121").message.startswith(
        'Optional property "n" can never be set (no enum value satisfies the other keywords)'
    )


def test_jc131_does_not_ask_to_set_a_property_whose_const_jc113_says_can_never_validate(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "kind": {"type": "string", "const": 1}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    assert linted.codes == ["JC113"]


def test_nothing_inside_an_object_that_can_never_exist_is_asked_for(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    inner = obj(
        {
            "b": {"type": "integer", "minimum": 3, "maximum": 2},
            "c": {"type": "string"},
            "d": {"type": "string", "enum": ["p", "q"]},
        },
        ["b"],
    )
    linted = lint_one(quiet(obj({"a": {"type": "string"}, "o": inner}, ["a"]), {"a": "x"}))

    assert linted.codes == ["JC115"]  # o requires b, which can never be set: not o, c, nor d's values
    assert linted.one("JC115").pointer == "/schema/properties/o/properties/b/minimum"


def test_enum_values_that_crossed_bounds_of_their_kind_rule_out_are_not_asked_for(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    items = {"type": ["string", "integer"], "enum": ["a", "b", 1, 2], "minLength": 3, "maxLength": 1}
    linted = lint_one(quiet(obj({"tags": {"type": "array", "items": items}}, ["tags"]), {"tags": [1]}))

    assert linted.codes == ["JC115", "JC130"]
    assert linted.one("JC130").message == "No example shows enum value(s) 2; add an example that uses them"


def test_a_property_forbidden_on_purpose_is_neither_asked_for_nor_reported(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "additionalProperties": {"type": "string"},
        "properties": {"a": {"type": "string"}, "legacy": False, "old": {"not": {}}},
        "required": ["a"],
    }
    linted = lint_one(quiet(schema, {"a": "x"}), ignore=["JC102", "JC103", "JC104"])

    assert linted.codes == []


def test_crossed_number_bounds_on_an_untyped_property_still_leave_other_values_to_show(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    """``{"minimum": 5, "maximum": 1}`` holds any string: JC115 names numbers, JC131 may ask for a value."""
    props = {"a": {"type": "string"}, "m": {"minimum": 5, "maximum": 1}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    assert linted.codes == ["JC115", "JC131"]
    assert "so no number satisfies both" in linted.one("JC115").message


@pytest.mark.parametrize(
    "prop",
    [
        {"type": "string", "enum": [5, 6]},
        {"type": "string", "const": 5},
        {"type": "integer", "minimum": 5, "maximum": 1},
        {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 1, "enum": [1, 2]},
        {"type": "string", "minLength": 4, "maxLength": 1, "enum": ["abcd"]},
        {"type": "array", "minItems": 2, "maxItems": 1, "items": {"enum": ["a", "b"]}},
        {"type": "object", "minProperties": 2, "maxProperties": 1, "properties": {"z": {"type": "string"}}},
        {"type": "string", "allOf": [{"type": "integer"}]},
        {"type": "string", "anyOf": [{"type": "string", "not": {}}, False]},
        {"type": "object", "properties": {"q": {"type": "integer", "maximum": 0, "minimum": 1}}, "required": ["q"]},
    ],
)
def test_nothing_is_asked_for_in_an_optional_property_a_proof_rules_out(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker, prop: dict[str, Any]
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string"}, "p": prop}, ["a"]), {"a": "x"}))

    assert [f.code for f in linted.findings if f.code in PROOFS]
    asked = [f.message for f in linted.findings if f.pointer.startswith("/schema/properties/p")]
    assert not [m for m in asked if "add an example" in m]
