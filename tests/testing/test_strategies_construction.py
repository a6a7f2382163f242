"""Drawing by construction: what the schema says is allowed is built, not found by filtering.

Each case here was reported unsatisfiable, or needed most candidates filtered away, before the
generator read the keyword it names: untyped schemas over every JSON type, properties forbidden
by ``false`` or ``not: {}``, ``oneOf``, ``not`` of simple schemas, ``if``/``else``, dependencies
with a property count, and numbers kept within what JSON text round-trips.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from json_contracts._json.reading import parse_json
from json_contracts.testing.strategies import SampleStats, blame_message, from_schema
from tests.support.drawing import draw_documents, valid_in_own_dialect

D7 = "http://json-schema.org/draft-07/schema#"
SAFE = 2**53 - 1


def _draw(schema: Any, count: int = 60, stats: SampleStats | None = None) -> list[Any]:
    return draw_documents(schema, count, stats)


_valid = valid_in_own_dialect


def _assert_built(schema: dict[str, Any], wanted: Any, most_rejected: float) -> None:
    """Documents are drawn, every one valid, some as ``wanted``, and the filter rejected little."""
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert drawn, blame_message(stats)
    assert all(_valid(schema, d) for d in drawn)
    assert any(wanted(d) for d in drawn), drawn[:8]
    assert stats.rejected_share < most_rejected, blame_message(stats)


# -- untyped schemas: every JSON type their keywords admit --------------------------------------

UNTYPED: list[tuple[str, dict[str, Any], Any]] = [
    ("contains-false", {"contains": False}, lambda d: not isinstance(d, list)),
    ("crossed-items", {"minItems": 2, "maxItems": 1}, lambda d: not isinstance(d, list)),
    ("required-false", {"required": ["a"], "properties": {"a": False}}, lambda d: not isinstance(d, dict)),
    ("crossed-lengths", {"minLength": 3, "maxLength": 1}, lambda d: isinstance(d, int | float)),
    ("crossed-bounds", {"minimum": 3, "maximum": 1}, lambda d: isinstance(d, str)),
    ("properties-only", {"properties": {"a": {"type": "integer"}}}, lambda d: d is None),
    ("properties-only-object", {"properties": {"a": {"type": "integer"}}}, lambda d: isinstance(d, dict) and "a" in d),
]


@pytest.mark.parametrize(("schema", "wanted"), [(s, w) for _, s, w in UNTYPED], ids=[i for i, _, _ in UNTYPED])
def test_an_untyped_schema_draws_every_type_its_keywords_admit(schema: dict[str, Any], wanted: Any) -> None:
    _assert_built(schema, wanted, most_rejected=0.2)


def test_a_type_whose_keywords_cannot_hold_drops_out_and_none_left_draws_nothing() -> None:
    schema = {"type": ["array", "object"], "contains": False, "required": ["a"], "properties": {"a": False}}
    assert from_schema(schema).is_empty  # known before any draw: the satisfiable check need not search
    assert not from_schema({**schema, "type": ["array", "object", "null"]}).is_empty


# -- properties forbidden by false or not: {} ----------------------------------------------------

FORBIDDEN: list[tuple[str, dict[str, Any]]] = [
    ("false", {"type": "object", "properties": {"a": False, "b": {"type": "integer"}}, "minProperties": 1}),
    ("not-empty", {"type": "object", "properties": {"a": {"not": {}}, "b": {"type": "integer"}}, "minProperties": 1}),
    ("not-true", {"type": "object", "properties": {"a": {"not": True}}, "minProperties": 2}),
    ("pattern-false", {"type": "object", "patternProperties": {"^a": False}, "minProperties": 2}),
    ("ref-to-false", {"$defs": {"no": False}, "type": "object", "properties": {"a": {"$ref": "#/$defs/no"}}}),
]


@pytest.mark.parametrize("schema", [s for _, s in FORBIDDEN], ids=[i for i, _ in FORBIDDEN])
def test_a_forbidden_property_is_never_generated(schema: dict[str, Any]) -> None:
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert len(drawn) >= 20
    assert all(_valid(schema, d) for d in drawn)
    assert stats.rejected_share < 0.2, blame_message(stats)


# -- oneOf, not, if/else, dependencies -----------------------------------------------------------

LITTLE_FILTERING: list[tuple[str, dict[str, Any], Any]] = [
    ("oneOf-number-integer", {"oneOf": [{"type": "number"}, {"type": "integer"}]}, lambda d: d < 0),
    (
        "oneOf-required",
        {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
         "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
        lambda d: "b" in d,
    ),
    ("not-integer", {"type": "number", "not": {"type": "integer"}}, lambda d: d < 0),
    ("not-type", {"not": {"type": ["string", "object", "array"]}}, lambda d: d is None),
    ("not-const", {"enum": [1, 2, 3], "not": {"const": 2}}, lambda d: d == 3),
    ("not-enum", {"type": "string", "enum": ["a", "b", "c"], "not": {"enum": ["a", "b"]}}, lambda d: d == "c"),
    (
        "if-else",
        {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["a", "b"]}},
         "if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["x"]},
         "else": {"properties": {"x": False}}},
        lambda d: d["kind"] == "b",
    ),
    (
        "dependencies-maxProperties",
        {"$schema": D7, "type": "object", "properties": {"a": {}, "b": {}, "c": {}, "d": {}},
         "dependencies": {"a": ["b", "c"], "b": ["d"]}, "maxProperties": 2},
        lambda d: "b" in d,
    ),
    (
        "dependentSchemas-maxProperties",
        {"type": "object", "properties": {"a": {}, "b": {}, "c": {}},
         "dependentSchemas": {"a": {"required": ["b", "c"]}}, "maxProperties": 2, "minProperties": 1},
        lambda d: "c" in d,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("schema", "wanted"), [(s, w) for _, s, w in LITTLE_FILTERING], ids=[i for i, _, _ in LITTLE_FILTERING]
)
def test_schemas_that_allow_plenty_are_drawn_with_little_filtering(schema: dict[str, Any], wanted: Any) -> None:
    _assert_built(schema, wanted, most_rejected=0.3)


@pytest.mark.parametrize("bounds", [{}, {"maximum": -3}, {"minimum": 0, "maximum": 1e17}], ids=["open", "max", "both"])
def test_numbers_that_are_not_integers_are_built_not_filtered(bounds: dict[str, Any]) -> None:
    """Past 2**52 every float is whole: the large floats Hypothesis draws were left to the filter
    (31 % rejected unbounded, 47 % below -3). They are moved below 2**50, plus a half."""
    schema = {"type": "number", "not": {"type": "integer"}, **bounds}
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert len(drawn) == 60
    assert all(_valid(schema, d) for d in drawn)
    assert stats.rejected_share < 0.05, blame_message(stats)


def test_if_then_branches_keyed_on_a_const_are_built_not_filtered() -> None:
    """SchemaStore's issue forms: an item's shape chosen by ``allOf`` of ``if``/``then`` on its ``type``."""
    kinds = ["markdown", "input", "textarea", "dropdown"]
    schema = {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"enum": kinds}},
            "allOf": [
                {
                    "if": {"properties": {"type": {"const": kind}}},
                    "then": {
                        "required": ["type", kind],
                        "properties": {"type": {"enum": kinds}, kind: {"type": "string"}},
                        "additionalProperties": False,
                    },
                }
                for kind in kinds
            ],
        },
    }
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert all(_valid(schema, d) for d in drawn)
    assert {item["type"] for d in drawn for item in d} == set(kinds)
    assert stats.rejected_share < 0.3, blame_message(stats)


# -- numbers within what JSON text round-trips ----------------------------------------------------


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "number", "multipleOf": 3},
        {"type": "number", "multipleOf": 0.5},
        {"type": "integer", "multipleOf": 7},
        {"type": "number"},
        {"type": "number", "minimum": 1e300},
        {},
    ],
    ids=["number-multipleOf-int", "number-multipleOf-half", "integer-multipleOf", "number", "huge-bound", "any"],
)
def test_drawn_numbers_survive_a_json_text_round_trip(schema: dict[str, Any]) -> None:
    def numbers(value: Any) -> list[Any]:
        if isinstance(value, list):
            return [n for v in value for n in numbers(v)]
        if isinstance(value, dict):
            return [n for v in value.values() for n in numbers(v)]
        return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []

    drawn = _draw(schema, 150)
    found = [n for d in drawn for n in numbers(d)]

    assert found
    for number in found:
        assert not (isinstance(number, int) and abs(number) > SAFE), number
        assert parse_json(json.dumps(number)) == number, number


@pytest.mark.parametrize(
    ("schema", "wanted"),
    [
        ({"type": "integer", "multipleOf": 0.123456789}, 0),  # no whole multiple within 2**53 but 0
        ({"type": "integer", "multipleOf": 0.5, "minimum": 3, "maximum": 3}, 3),
    ],
    ids=["tiny-fraction", "half"],
)
def test_whole_multiples_of_a_fractional_step_are_built_not_filtered(schema: dict[str, Any], wanted: int) -> None:
    stats = SampleStats()
    drawn = _draw(schema, 20, stats)

    assert wanted in drawn
    assert all(_valid(schema, d) for d in drawn)
    assert stats.rejected == 0, blame_message(stats)


@pytest.mark.parametrize("pattern", ["^\\0$", "^\\x00$", "^a\\u0000b$"])
def test_a_pattern_that_requires_nul_draws_nul(pattern: str) -> None:
    schema = {"type": "string", "pattern": pattern}
    drawn = _draw(schema, 10)

    assert drawn
    assert all("\x00" in d and _valid(schema, d) for d in drawn)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "additionalProperties": False},
        {"properties": {"foo": {}, "bar": {}}, "required": ["foo"]},
        {"type": ["array", "object"]},
    ],
    ids=["closed-object", "required", "array-or-object"],
)
def test_drawing_objects_raises_no_hypothesis_warning(schema: dict[str, Any]) -> None:
    drawn: list[Any] = []

    @settings(max_examples=30, database=None, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow], phases=[Phase.generate])  # fmt: skip
    @given(from_schema(schema))
    def collect(document: Any) -> None:  # with the health checks on, as the corpus suite draws
        drawn.append(document)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        collect()
    assert drawn
    assert [str(w.message) for w in caught] == []
