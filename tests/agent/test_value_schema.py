"""``value_schema``: what a repaired value must satisfy, read as the validator reads the schema (not the
TypeScript server's hint walk, which ``schema_nodes_at`` keeps)."""

from __future__ import annotations

from typing import Any

from json_contracts.agent.repair import contains_schema, merged_schema, schema_nodes_at, value_schema

INTEGER: dict[str, Any] = {"type": "integer"}
BIG: dict[str, Any] = {"minimum": 1000}
TEXT: dict[str, Any] = {"type": "string"}


def test_a_property_and_every_matching_pattern_apply_and_additional_properties_does_not() -> None:
    extra: dict[str, Any] = {"type": "boolean"}
    schema = {"properties": {"x-n": INTEGER}, "patternProperties": {"^x-": BIG, "^y-": TEXT},
              "additionalProperties": extra}  # fmt: skip
    assert value_schema(schema, "/x-n") == {"allOf": [INTEGER, BIG]}
    assert value_schema(schema, "/x-other") is BIG
    assert value_schema(schema, "/other") is extra
    assert schema_nodes_at(schema, "/x-other") == [extra]  # the hint walk ignores patterns, as the TypeScript server


def test_each_index_reads_its_own_item_schema() -> None:
    first: dict[str, Any] = {"const": "a"}
    schema = {"prefixItems": [first], "items": INTEGER}
    assert value_schema(schema, "/0") is first
    assert value_schema(schema, "/5") is INTEGER
    tuple_schema = {"items": [first], "additionalItems": TEXT}  # draft-07
    assert value_schema(tuple_schema, "/0") is first
    assert value_schema(tuple_schema, "/1") is TEXT


def test_refs_and_all_of_merge_and_any_of_branches_are_alternatives() -> None:
    schema = {
        "$defs": {"n": {"properties": {"n": INTEGER}}},
        "$ref": "#/$defs/n",
        "allOf": [{"properties": {"n": BIG}}],
        "anyOf": [
            {"properties": {"n": {"maximum": 5000}}},
            {"properties": {"n": {"multipleOf": 7}}},
            {"required": ["n"]},
        ],
    }
    assert value_schema(schema, "/n") == {"allOf": [INTEGER, BIG, {"anyOf": [{"maximum": 5000}, {"multipleOf": 7}]}]}


def test_with_the_document_a_digit_key_of_an_object_is_no_index() -> None:
    schema = {"additionalProperties": TEXT, "items": INTEGER}
    assert value_schema(schema, "/1", {"1": "x"}) is TEXT
    assert value_schema(schema, "/1", ["x", "y"]) is INTEGER
    assert value_schema(schema, "/1") == {"allOf": [TEXT, INTEGER]}  # no document: both may apply


def test_contains_merges_every_contains_that_applies() -> None:
    needle: dict[str, Any] = {"const": "needle"}
    schema = {"properties": {"list": {"items": TEXT, "allOf": [{"contains": needle}]}}}
    assert contains_schema(schema, "/list") is needle
    assert contains_schema(schema, "") is True


def test_merged_schema_drops_what_says_nothing() -> None:
    assert merged_schema([]) is True
    assert merged_schema([True, {}]) is True
    assert merged_schema([TEXT, True, TEXT]) is TEXT
    assert merged_schema([TEXT, False]) == {"allOf": [TEXT, False]}
