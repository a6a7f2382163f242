"""``merge``: one schema for the values two sub-schemas both accept, as the document generator needs it.

Exact expectations for every keyword branch, then property tests against the project's own
validator: for the keywords the merge is exact for, the result accepts exactly the values both
inputs accept; merging a schema with itself changes nothing a validator can see; the inputs are
never modified.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import CompiledSchema, compile_schema
from json_contracts.schema.validation import is_valid
from json_contracts.testing.merge import PENDING, _both, _meet_types, _multiple, merge

DIALECT = "2020-12"
STRING = {"type": "string"}
INTEGER = {"type": "integer"}
SHORT = {"maxLength": 3}
POSITIVE = {"minimum": 1}


def _compiled(schema: dict[str, Any]) -> CompiledSchema:
    assert check_schema(schema, DIALECT) is None, schema
    return compile_schema(schema, DIALECT)


def _accepts(schema: Any, value: Any) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    return is_valid(_compiled(schema), value)


# -- trivial sides -----------------------------------------------------------------------------


@pytest.mark.parametrize("anything", [True, {}])
def test_true_or_the_empty_schema_on_either_side_gives_the_other_side(anything: Any) -> None:
    schema = {"type": "string", "minLength": 2}
    assert merge(anything, schema) is schema
    assert merge(schema, anything) is schema
    assert merge(anything, False) is False
    assert merge(False, anything) is False


def test_two_trivial_sides_give_a_trivial_schema() -> None:
    assert merge(True, True) is True
    assert merge({}, {}) == {}
    assert merge(True, {}) == {}


@pytest.mark.parametrize("other", [False, None, 3, "string", ["type"]])
def test_false_or_a_value_that_is_not_a_schema_object_makes_the_merge_unsatisfiable(other: Any) -> None:
    assert merge({"type": "string"}, other) is False
    assert merge(other, {"type": "string"}) is False


# -- keys on one side, annotations -------------------------------------------------------------


def test_keys_on_one_side_only_are_copied_from_either_side() -> None:
    left = {"type": "string", "pattern": "^a", "anyOf": [SHORT, POSITIVE]}
    right = {"minLength": 1, "format": "email", "if": STRING, "then": SHORT, "not": INTEGER}
    expected = {
        "type": "string",
        "pattern": "^a",
        "anyOf": [SHORT, POSITIVE],
        "minLength": 1,
        "format": "email",
        "if": STRING,
        "then": SHORT,
        "not": INTEGER,
    }
    assert merge(left, right) == expected
    assert merge(right, left) == expected


@pytest.mark.parametrize(
    "keyword",
    ["title", "description", "default", "examples", "$comment", "$id", "$schema", "$anchor", "readOnly",
     "writeOnly", "deprecated"],
)  # fmt: skip
def test_an_annotation_on_both_sides_keeps_the_first_sides_value_and_nothing_is_pending(keyword: str) -> None:
    assert merge({keyword: "left", "type": "string"}, {keyword: "right"}) == {keyword: "left", "type": "string"}
    assert merge({"type": "string"}, {keyword: "right"}) == {"type": "string", keyword: "right"}


# -- type --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ("string", "string", ["string"]),
        ("string", ["null", "string"], ["string"]),
        (["string", "null"], ["null", "integer"], ["null"]),
        (["string", "object"], ["object", "string", "array"], ["object", "string"]),
        ("integer", "number", ["integer"]),
        ("number", "integer", ["integer"]),
        (["number", "string"], ["integer", "string"], ["string", "integer"]),
        (["number", "boolean"], ["integer", "null"], ["integer"]),
        ("number", ["number", "integer"], ["number", "integer"]),
    ],
)
def test_types_meet_in_the_canonical_type_order_and_integer_meets_number(
    left: Any, right: Any, expected: list[str]
) -> None:
    assert merge({"type": left}, {"type": right}) == {"type": expected}


@pytest.mark.parametrize(
    ("left", "right"),
    [("string", "integer"), (["null"], ["boolean", "object"]), ("number", "boolean"), (["array"], "object")],
)
def test_types_with_nothing_in_common_make_the_merge_unsatisfiable(left: Any, right: Any) -> None:
    assert merge({"type": left, "minLength": 1}, {"type": right}) is False
    assert merge({"type": right}, {"type": left}) is False


def test_an_unreadable_type_leaves_the_other_sides_types() -> None:
    assert merge({"type": 5}, {"type": "string"}) == {"type": ["string"]}
    assert merge({"type": ["string", 5]}, {"type": {"x": 1}}) == {"type": ["string"]}
    assert _meet_types(None, 5) == ["null", "boolean", "object", "array", "number", "string", "integer"]


# -- bounds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "keyword", ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"]
)
def test_a_lower_bound_on_both_sides_keeps_the_larger_one(keyword: str) -> None:
    assert merge({keyword: 2}, {keyword: 5}) == {keyword: 5}
    assert merge({keyword: 5}, {keyword: 2}) == {keyword: 5}


@pytest.mark.parametrize(
    "keyword", ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"]
)
def test_an_upper_bound_on_both_sides_keeps_the_smaller_one(keyword: str) -> None:
    assert merge({keyword: 2}, {keyword: 5}) == {keyword: 2}
    assert merge({keyword: 5}, {keyword: 2}) == {keyword: 2}


def test_numeric_bounds_compare_integers_and_fractions() -> None:
    assert merge({"minimum": 1.5, "maximum": 10}, {"minimum": 1, "maximum": 9.5}) == {"minimum": 1.5, "maximum": 9.5}


def test_an_inclusive_and_an_exclusive_bound_are_both_kept() -> None:
    merged = merge({"minimum": 3, "maximum": 9}, {"exclusiveMinimum": 1, "exclusiveMaximum": 10})
    assert merged == {"minimum": 3, "maximum": 9, "exclusiveMinimum": 1, "exclusiveMaximum": 10}


# -- object keywords ---------------------------------------------------------------------------


def test_required_names_are_united_in_order_without_duplicates() -> None:
    assert merge({"required": ["a", "b"]}, {"required": ["c", "b", "a", "d"]}) == {"required": ["a", "b", "c", "d"]}
    assert merge({"required": ["a", "a"]}, {"required": []}) == {"required": ["a"]}


@pytest.mark.parametrize("keyword", ["properties", "patternProperties", "dependentSchemas", "$defs", "definitions"])
def test_named_sub_schemas_are_conjoined_name_by_name(keyword: str) -> None:
    left = {
        keyword: {
            "both": STRING,
            "left_only": POSITIVE,
            "same": INTEGER,
            "left_true": True,
            "left_empty": {},
            "left_false": False,
            "right_true": SHORT,
            "right_false": SHORT,
        }
    }
    right = {
        keyword: {
            "both": SHORT,
            "right_only": INTEGER,
            "same": {"type": "integer"},
            "left_true": SHORT,
            "left_empty": SHORT,
            "left_false": SHORT,
            "right_true": True,
            "right_false": False,
        }
    }
    assert merge(left, right) == {
        keyword: {
            "both": {"allOf": [STRING, SHORT]},
            "left_only": POSITIVE,
            "same": INTEGER,
            "left_true": SHORT,
            "left_empty": SHORT,
            "left_false": False,
            "right_true": SHORT,
            "right_false": False,
            "right_only": INTEGER,
        }
    }


def test_dependent_required_lists_are_united_name_by_name() -> None:
    left = {"dependentRequired": {"card": ["cvc"], "left": ["x"]}}
    right = {"dependentRequired": {"card": ["expiry", "cvc"], "right": ["y"]}}
    assert merge(left, right) == {"dependentRequired": {"card": ["cvc", "expiry"], "left": ["x"], "right": ["y"]}}


# -- _both: the lazy conjunction of two sub-schemas ---------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        (True, STRING, STRING),
        ({}, STRING, STRING),
        (STRING, True, STRING),
        (STRING, {}, STRING),
        (True, False, False),
        (False, STRING, False),
        (STRING, False, False),
        (STRING, {"type": "string"}, STRING),
        ({"minimum": 1, "maximum": 2}, {"maximum": 2.0, "minimum": 1}, {"minimum": 1, "maximum": 2}),
        (STRING, SHORT, {"allOf": [STRING, SHORT]}),
        ({"const": True}, {"const": 1}, {"allOf": [{"const": True}, {"const": 1}]}),
    ],
)
def test_both_takes_the_shortcuts_before_falling_back_to_all_of(left: Any, right: Any, expected: Any) -> None:
    assert _both(left, right) == expected


def test_both_keeps_the_first_of_two_equal_schemas() -> None:
    left = {"minimum": 1}
    assert _both(left, {"minimum": 1.0}) is left


@pytest.mark.parametrize(
    "keyword",
    ["additionalProperties", "additionalItems", "propertyNames", "contains", "unevaluatedProperties",
     "unevaluatedItems"],
)  # fmt: skip
def test_sub_schema_keywords_on_both_sides_take_the_shortcuts_of_a_conjunction(keyword: str) -> None:
    assert merge({keyword: True}, {keyword: SHORT}) == {keyword: SHORT}
    assert merge({keyword: SHORT}, {keyword: {}}) == {keyword: SHORT}
    assert merge({keyword: False}, {keyword: SHORT}) == {keyword: False}
    assert merge({keyword: SHORT}, {keyword: {"maxLength": 3}}) == {keyword: SHORT}


@pytest.mark.parametrize(
    "keyword",
    ["additionalProperties", "additionalItems", "propertyNames", "unevaluatedProperties", "unevaluatedItems"],
)
def test_sub_schema_keywords_on_both_sides_are_conjoined(keyword: str) -> None:
    assert merge({keyword: STRING}, {keyword: SHORT}) == {keyword: {"allOf": [STRING, SHORT]}}


def test_two_different_contains_still_accept_an_array_with_one_item_for_each() -> None:
    left, right = {"contains": {"const": 1}}, {"contains": {"const": 2}}
    assert _accepts(left, [1, 2])
    assert _accepts(right, [1, 2])
    merged = merge(left, right)
    assert _accepts({k: v for k, v in merged.items() if k != PENDING}, [1, 2])


# -- items and prefixItems -----------------------------------------------------------------------


@pytest.mark.parametrize("keyword", ["items", "prefixItems"])
def test_item_lists_are_conjoined_pairwise_and_the_longer_tail_is_kept(keyword: str) -> None:
    assert merge({keyword: [STRING, INTEGER, True]}, {keyword: [SHORT, True]}) == {
        keyword: [{"allOf": [STRING, SHORT]}, INTEGER, True]
    }
    assert merge({keyword: [STRING]}, {keyword: [SHORT, POSITIVE]}) == {keyword: [{"allOf": [SHORT, STRING]}, POSITIVE]}
    assert merge({keyword: [STRING, False]}, {keyword: [STRING, INTEGER]}) == {keyword: [STRING, False]}


def test_items_schemas_on_both_sides_are_conjoined() -> None:
    assert merge({"items": STRING}, {"items": SHORT}) == {"items": {"allOf": [STRING, SHORT]}}
    assert merge({"items": False}, {"items": SHORT}) == {"items": False}
    assert merge({"items": True}, {"items": SHORT}) == {"items": SHORT}
    assert merge({"items": STRING}, {"items": {"type": "string"}}) == {"items": STRING}


def test_an_items_list_and_an_items_schema_are_kept_for_the_validator_to_decide() -> None:
    assert merge({"items": [STRING]}, {"items": SHORT}) == {"items": [STRING], PENDING: [{"items": SHORT}]}
    assert merge({"items": SHORT}, {"items": [STRING]}) == {"items": SHORT, PENDING: [{"items": [STRING]}]}


# -- enum, const, uniqueItems --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        ([1, "a", None, 2], ["a", 2, 3], ["a", 2]),
        ([1, 2], [2.0, 1.0], [1, 2]),
        ([{"x": 1, "y": [1]}], [{"y": [1.0], "x": 1}], [{"x": 1, "y": [1]}]),
        ([True, 1, "1"], [1], [1]),
        ([None, False], [None, 0, ""], [None]),
    ],
)
def test_enums_intersect_by_json_equality_in_the_first_sides_order(left: Any, right: Any, expected: Any) -> None:
    assert merge({"enum": left}, {"enum": right}) == {"enum": expected}


@pytest.mark.parametrize(("left", "right"), [([1, 2], [3]), ([True], [1]), (["1"], [1]), ([0], [False, None])])
def test_enums_with_no_value_in_common_make_the_merge_unsatisfiable(left: Any, right: Any) -> None:
    assert merge({"enum": left}, {"enum": right}) is False


@pytest.mark.parametrize(
    ("left", "right"), [(1, 1.0), ("a", "a"), ({"a": [1, None]}, {"a": [1.0, None]}), (None, None)]
)
def test_equal_consts_keep_the_first_sides_value(left: Any, right: Any) -> None:
    assert merge({"const": left}, {"const": right}) == {"const": left}


@pytest.mark.parametrize(("left", "right"), [(1, 2), (True, 1), ("1", 1), (None, False), ([1], [1, 1])])
def test_different_consts_make_the_merge_unsatisfiable(left: Any, right: Any) -> None:
    assert merge({"const": left}, {"const": right}) is False


@pytest.mark.parametrize(
    ("left", "right", "expected"), [(False, True, True), (True, False, True), (True, True, True), (False, False, False)]
)
def test_unique_items_holds_when_either_side_asks_for_it(left: bool, right: bool, expected: bool) -> None:
    assert merge({"uniqueItems": left}, {"uniqueItems": right}) == {"uniqueItems": expected}


# -- multipleOf ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "right", "expected"),
    [
        (4, 6, 12),
        (3, 3, 3),
        (2, 0.5, 2),
        (0.5, 0.2, 1),
        (2.0, 3, 6),
        (0.5, 0.3, 1.5),
        (0.1, 0.25, 0.5),
        (0.1, 0.3, 0.3),
        (0.01, 0.05, 0.05),
    ],
)
def test_two_multiples_of_become_their_least_common_multiple(left: Any, right: Any, expected: Any) -> None:
    merged = merge({"multipleOf": left}, {"multipleOf": right})
    assert merged == {"multipleOf": expected}
    assert type(merged["multipleOf"]) is type(expected)


def test_a_whole_common_multiple_is_written_as_an_integer() -> None:
    assert _multiple(0.5, 0.2) == 1
    assert isinstance(_multiple(0.5, 0.2), int)
    assert isinstance(_multiple(1.5, 1.0), int)
    assert isinstance(_multiple(0.5, 0.3), float)


@pytest.mark.parametrize("untidy", [float("inf"), "ten", None])
def test_a_multiple_of_with_no_tidy_common_multiple_is_kept_pending(untidy: Any) -> None:
    assert _multiple(2, untidy) is None
    assert merge({"multipleOf": 2}, {"multipleOf": untidy}) == {"multipleOf": 2, PENDING: [{"multipleOf": untidy}]}
    assert merge({"multipleOf": untidy}, {"multipleOf": 2}) == {"multipleOf": untidy, PENDING: [{"multipleOf": 2}]}


# -- not, if/then/else, combinators --------------------------------------------------------------


def test_two_nots_become_one_not_of_either() -> None:
    assert merge({"not": STRING}, {"not": INTEGER}) == {"not": {"anyOf": [STRING, INTEGER]}}


def test_then_and_else_travel_with_their_if_into_the_pending_list() -> None:
    left = {"if": STRING, "then": SHORT, "else": POSITIVE}
    right = {"then": {"minLength": 2}, "if": {"type": "array"}, "else": {"maxItems": 0}}
    assert merge(left, right) == {
        "if": STRING,
        "then": SHORT,
        "else": POSITIVE,
        PENDING: [{"if": {"type": "array"}, "then": {"minLength": 2}, "else": {"maxItems": 0}}],
    }


def test_an_if_alone_goes_pending_alone() -> None:
    assert merge({"if": STRING, "then": SHORT}, {"if": INTEGER}) == {
        "if": STRING,
        "then": SHORT,
        PENDING: [{"if": INTEGER}],
    }


@pytest.mark.parametrize(
    ("left", "right", "value"),
    [
        ({"if": {"minimum": 10}, "else": {"maximum": 5}}, {"if": STRING, "then": STRING}, 20),
        ({"if": INTEGER, "then": {"minimum": 0}}, {"if": STRING, "else": {"type": "boolean"}}, "x"),
    ],
)
def test_a_then_or_else_never_pairs_with_the_other_sides_if(left: Any, right: Any, value: Any) -> None:
    assert _accepts(left, value)
    assert _accepts(right, value)
    merged = merge(left, right)
    assert _accepts({k: v for k, v in merged.items() if k != PENDING}, value)


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf"])
def test_a_combinator_on_both_sides_keeps_the_first_and_pends_the_second(keyword: str) -> None:
    assert merge({keyword: [STRING, INTEGER]}, {keyword: [SHORT, POSITIVE]}) == {
        keyword: [STRING, INTEGER],
        PENDING: [{keyword: [SHORT, POSITIVE]}],
    }
    assert merge({keyword: [STRING]}, {keyword: [STRING]}) == {keyword: [STRING], PENDING: [{keyword: [STRING]}]}


@pytest.mark.parametrize(
    ("keyword", "left", "right"),
    [
        ("pattern", "^a", "b$"),
        ("format", "email", "uri"),
        ("allOf", [STRING], [SHORT]),
        ("$ref", "#/$defs/a", "#/$defs/b"),
        ("dependencies", {"a": ["b"]}, {"a": ["c"]}),
    ],
)
def test_two_different_values_are_kept_for_the_validator_to_decide(keyword: str, left: Any, right: Any) -> None:
    assert merge({keyword: left}, {keyword: right}) == {keyword: left, PENDING: [{keyword: right}]}


@pytest.mark.parametrize(("keyword", "value"), [("pattern", "^a"), ("format", "email"), ("$ref", "#/$defs/a")])
def test_two_equal_values_are_kept_once_with_nothing_pending(keyword: str, value: Any) -> None:
    assert merge({keyword: value}, {keyword: value}) == {keyword: value}


# -- the pending list ----------------------------------------------------------------------------


def test_pending_lists_from_both_sides_are_concatenated_with_new_pending_parts() -> None:
    left = {"pattern": "^a", PENDING: [{"format": "email"}]}
    right = {PENDING: [{"anyOf": [STRING]}], "pattern": "b$"}
    assert merge(left, right) == {
        "pattern": "^a",
        PENDING: [{"format": "email"}, {"anyOf": [STRING]}, {"pattern": "b$"}],
    }


def test_a_pending_list_on_one_side_survives_the_merge() -> None:
    assert merge({PENDING: [SHORT]}, STRING) == {"type": "string", PENDING: [SHORT]}
    assert merge(STRING, {PENDING: [SHORT]}) == {"type": "string", PENDING: [SHORT]}


def test_an_empty_pending_list_is_dropped() -> None:
    assert merge({PENDING: [], "type": "string"}, {"minLength": 1}) == {"type": "string", "minLength": 1}


def test_the_merge_reports_unsatisfiable_even_after_other_keys_merged() -> None:
    assert merge({"minimum": 1, "enum": [1, 2], "type": "integer"}, {"minimum": 2, "enum": [3]}) is False
    assert merge({"required": ["a"], "const": 1}, {"required": ["b"], "const": 2}) is False


# -- properties, checked by the project's validator ----------------------------------------------

_NAMES = st.sampled_from(["a", "b", "c"])
_TYPE = st.sampled_from(["null", "boolean", "object", "array", "number", "string", "integer"])
_TYPES = st.one_of(_TYPE, st.lists(_TYPE, min_size=1, max_size=3, unique=True))
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-4, 4),
    st.sampled_from([0.5, 1.0, -2.5, 3.0]),
    st.sampled_from(["", "a", "ab", "abc", "abcd"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(_NAMES, children, max_size=3)),
    max_leaves=8,
)
_BOUND = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, -1.5]))
_COUNT = st.integers(0, 3)


def _few(keywords: dict[str, st.SearchStrategy[Any]], most: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas with at most ``most`` of ``keywords``: sparse enough for some values to satisfy two of them."""
    return st.lists(st.sampled_from(sorted(keywords)), max_size=most, unique=True).flatmap(
        lambda names: st.fixed_dictionaries({name: keywords[name] for name in names})
    )


@st.composite
def _pairs(draw: st.DrawFn, keywords: dict[str, st.SearchStrategy[Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two sparse schemas that mostly share their keywords, so the merge has to combine them."""
    names = sorted(keywords)
    shared = draw(st.lists(st.sampled_from(names), min_size=1, max_size=2, unique=True))
    left_only = draw(st.lists(st.sampled_from(names), max_size=1))
    right_only = draw(st.lists(st.sampled_from(names), max_size=1))
    left = draw(st.fixed_dictionaries({name: keywords[name] for name in shared + left_only}))
    right = draw(st.fixed_dictionaries({name: keywords[name] for name in shared + right_only}))
    return left, right


def _constants(schema: Any) -> list[Any]:
    if isinstance(schema, dict):
        found = [schema["const"]] if "const" in schema else []
        found += schema["enum"] if isinstance(schema.get("enum"), list) else []
        return found + [c for key, sub in schema.items() if key not in ("const", "enum") for c in _constants(sub)]
    return [c for sub in schema for c in _constants(sub)] if isinstance(schema, list) else []


def _literals(schema: Any) -> list[Any]:
    """The ``const`` and ``enum`` values in ``schema``, also inside an array and an object: likely valid values."""
    found = _constants(schema)
    return found + [[value] for value in found] + [{"a": value, "b": value} for value in found]


# Only keywords the merge is exact for: the merged schema accepts exactly what both inputs accept.
_EXACT_LEAVES = _few(
    {
        "type": _TYPES,
        "minimum": _BOUND,
        "maximum": _BOUND,
        "exclusiveMinimum": _BOUND,
        "exclusiveMaximum": _BOUND,
        "minLength": _COUNT,
        "maxLength": _COUNT,
        "multipleOf": st.sampled_from([1, 2, 3, 4]),
        "enum": st.lists(_SCALARS, min_size=1, max_size=4),
        "const": _SCALARS,
        "not": st.one_of(st.fixed_dictionaries({"type": _TYPES}), st.fixed_dictionaries({"const": _SCALARS})),
    }
)
_EXACT_KEYWORDS: dict[str, st.SearchStrategy[Any]] = {
    "type": _TYPES,
    "minimum": _BOUND,
    "maximum": _BOUND,
    "minLength": _COUNT,
    "maxLength": _COUNT,
    "minItems": _COUNT,
    "maxItems": _COUNT,
    "minProperties": _COUNT,
    "maxProperties": _COUNT,
    "uniqueItems": st.booleans(),
    "multipleOf": st.sampled_from([1, 2, 3]),
    "enum": st.lists(_VALUES, min_size=1, max_size=4),
    "const": _VALUES,
    "required": st.lists(_NAMES, unique=True, max_size=2),
    "properties": st.dictionaries(_NAMES, st.one_of(st.booleans(), _EXACT_LEAVES), max_size=2),
    "dependentRequired": st.dictionaries(_NAMES, st.lists(_NAMES, unique=True, max_size=2), max_size=2),
    "propertyNames": st.one_of(st.booleans(), st.fixed_dictionaries({"enum": st.lists(_NAMES, min_size=1)})),
    "items": st.one_of(st.booleans(), _EXACT_LEAVES),
    "not": _EXACT_LEAVES,
}
# Anything, for properties that must hold whatever the keywords.
_ANY_LEAF = st.one_of(
    st.booleans(),
    _EXACT_LEAVES,
    st.fixed_dictionaries(
        {},
        optional={
            "pattern": st.sampled_from(["^a", "b", "^$"]),
            "format": st.sampled_from(["email", "date"]),
            "multipleOf": st.sampled_from([0.5, 0.25, 2]),
            "contains": _EXACT_LEAVES,
            "minContains": _COUNT,
            "title": st.just("t"),
        },
    ),
)
_ANY = st.recursive(
    _ANY_LEAF,
    lambda children: st.fixed_dictionaries(
        {},
        optional={
            "anyOf": st.lists(children, min_size=1, max_size=2),
            "oneOf": st.lists(children, min_size=1, max_size=2),
            "allOf": st.lists(children, min_size=1, max_size=2),
            "if": children,
            "then": children,
            "else": children,
            "not": children,
            "properties": st.dictionaries(_NAMES, children, max_size=2),
            "additionalProperties": children,
            "prefixItems": st.lists(children, min_size=1, max_size=2),
            "items": children,
            "contains": children,
            "required": st.lists(_NAMES, unique=True, max_size=2),
            "type": _TYPES,
        },
    ),
    max_leaves=6,
)

_PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(_PROPERTY_SETTINGS, max_examples=300)
@given(pair=_pairs(_EXACT_KEYWORDS), values=st.lists(_VALUES, min_size=1, max_size=12))
def test_for_exact_keywords_nothing_is_pending_and_the_merge_accepts_exactly_what_both_sides_accept(
    pair: tuple[dict[str, Any], dict[str, Any]], values: list[Any]
) -> None:
    left, right = pair
    merged = merge(left, right)
    note(f"merged: {merged!r}")
    compiled_left, compiled_right = _compiled(left), _compiled(right)
    if merged is not False:
        assert isinstance(merged, dict)
        assert PENDING not in merged
    compiled_merged = _compiled(merged) if merged is not False else None
    for value in values + _literals(left) + _literals(right):
        both = is_valid(compiled_left, value) and is_valid(compiled_right, value)
        if compiled_merged is None:
            assert not both, value
        else:
            assert is_valid(compiled_merged, value) == both, value


@_PROPERTY_SETTINGS
@given(schema=_ANY, values=st.lists(_VALUES, min_size=1, max_size=12))
def test_merging_a_schema_with_itself_accepts_the_same_values(schema: Any, values: list[Any]) -> None:
    merged = merge(schema, copy.deepcopy(schema))
    note(f"merged: {merged!r}")
    if isinstance(schema, bool):
        assert merged is schema
        return
    assert isinstance(merged, dict)
    compiled, compiled_merged = _compiled(schema), _compiled(merged)
    for value in values + _literals(schema):
        assert is_valid(compiled_merged, value) == is_valid(compiled, value), value


@settings(_PROPERTY_SETTINGS, max_examples=100)
@given(left=_ANY, right=_ANY)
def test_merging_never_modifies_either_input(left: Any, right: Any) -> None:
    left_before, right_before = copy.deepcopy(left), copy.deepcopy(right)
    merge(left, right)
    assert left == left_before
    assert right == right_before
