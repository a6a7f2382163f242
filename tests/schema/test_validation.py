"""Validation errors as the TypeScript server prints Ajv's: {path, message, keyword}.

See docs/reference/compatibility.md for what must match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from json_contracts.contracts.model import Contract
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import (
    ErrorRecord,
    count_errors,
    describe_errors,
    is_valid,
    iter_errors,
    too_many_errors,
    validate,
)

ErrorsOf = Callable[[dict[str, Any], Any], list[ErrorRecord]]
D7 = "http://json-schema.org/draft-07/schema#"


def err(path: str, message: str, keyword: str) -> ErrorRecord:
    return {"path": path, "message": message, "keyword": keyword}


CATALOGUE = [
    pytest.param({"type": "string"}, 5, [err("", "must be string", "type")], id="type"),
    pytest.param({"type": ["string", "null"]}, 5, [err("", "must be string,null", "type")], id="type-union"),
    pytest.param({"type": "integer"}, 2.5, [err("", "must be integer", "type")], id="type-integer"),
    pytest.param({"type": "integer"}, 2.0, [], id="type-integer-accepts-2.0"),
    pytest.param({"type": "number"}, "5", [err("", "must be number", "type")], id="type-no-coercion"),
    pytest.param({"enum": [1, "a"]}, 2, [err("", "must be equal to one of the allowed values", "enum")], id="enum"),
    pytest.param({"const": "a"}, "b", [err("", "must be equal to constant", "const")], id="const"),
    pytest.param(
        {"required": ["a", "b"]},
        {"b": 1},
        [err("/a", "must have required property 'a'", "required")],
        id="required-appends-the-property",
    ),
    pytest.param(
        {"properties": {"a": {"required": ["b"]}}},
        {"a": {}},
        [err("/a/b", "must have required property 'b'", "required")],
        id="required-nested",
    ),
    pytest.param(
        {"additionalProperties": False},
        {"x/y": 1, "m~n": 2},
        [
            err("/x~1y", "must NOT have additional properties", "additionalProperties"),
            err("/m~0n", "must NOT have additional properties", "additionalProperties"),
        ],
        id="additionalProperties-appends-the-escaped-property",
    ),
    pytest.param(
        {"maxLength": 1}, "😀😀", [err("", "must NOT have more than 1 characters", "maxLength")], id="maxLength"
    ),
    pytest.param({"maxLength": 2}, "😀😀", [], id="maxLength-counts-code-points"),
    pytest.param(
        {"minLength": 3}, "😀😀", [err("", "must NOT have fewer than 3 characters", "minLength")], id="minLength"
    ),
    pytest.param({"maximum": 1.5}, 2, [err("", "must be <= 1.5", "maximum")], id="maximum"),
    pytest.param({"minimum": 1}, 0, [err("", "must be >= 1", "minimum")], id="minimum"),
    pytest.param({"minimum": 1e21}, 0, [err("", "must be >= 1e+21", "minimum")], id="minimum-js-number"),
    pytest.param({"exclusiveMaximum": 1}, 1, [err("", "must be < 1", "exclusiveMaximum")], id="exclusiveMaximum"),
    pytest.param({"exclusiveMinimum": 1}, 1, [err("", "must be > 1", "exclusiveMinimum")], id="exclusiveMinimum"),
    pytest.param(
        {"$schema": D7, "exclusiveMinimum": 0.5}, 0.5, [err("", "must be > 0.5", "exclusiveMinimum")], id="exclusive-d7"
    ),
    pytest.param({"multipleOf": 3}, 4, [err("", "must be multiple of 3", "multipleOf")], id="multipleOf"),
    pytest.param({"multipleOf": 0.5}, 1.25, [err("", "must be multiple of 0.5", "multipleOf")], id="multipleOf-float"),
    pytest.param({"pattern": "^[a-z]+$"}, "A", [err("", 'must match pattern "^[a-z]+$"', "pattern")], id="pattern"),
    pytest.param({"pattern": "^\\p{L}+$"}, "héllo", [], id="pattern-ecma-unicode-property"),
    pytest.param({"pattern": "^\\d+$"}, "٣", [err("", 'must match pattern "^\\d+$"', "pattern")], id="pattern-ecma-d"),
    pytest.param({"pattern": "b"}, "abc", [], id="pattern-is-unanchored"),
    pytest.param({"format": "date"}, "2026-02-30", [err("", 'must match format "date"', "format")], id="format-date"),
    pytest.param({"format": "date"}, "2024-02-29", [], id="format-date-leap-day"),
    pytest.param({"format": "time"}, "10:00:00", [err("", 'must match format "time"', "format")], id="format-time"),
    pytest.param({"format": "time"}, "10:00:00+02:00", [], id="format-time-with-offset"),
    pytest.param({"format": "date-time"}, "2026-01-01t10:00:00z", [], id="format-date-time-lowercase"),
    pytest.param(
        {"format": "email"}, "jörg@example.com", [err("", 'must match format "email"', "format")], id="format-email"
    ),
    pytest.param({"format": "email"}, "sam@example.org", [], id="format-email-ascii"),
    pytest.param({"format": "email"}, "Sam.O'Neil+x@Mail.Example.ORG", [], id="format-email-case-and-specials"),
    pytest.param(
        {"format": "email"},
        "sam@localhost",
        [err("", 'must match format "email"', "format")],
        id="format-email-domain-without-dot",
    ),
    pytest.param(
        {"format": "email"},
        "sam@example.org\n",
        [err("", 'must match format "email"', "format")],
        id="format-email-no-final-newline",
    ),
    pytest.param(
        {"format": "email"},
        '"sam"@example.org',
        [err("", 'must match format "email"', "format")],
        id="format-email-no-quoted-local-part",
    ),
    # U+212A KELVIN SIGN folds to "k" in Python's Unicode matching, never in Ajv's (JavaScript's).
    pytest.param(
        {"format": "email"},
        "sam@ex\u212aample.org",
        [err("", 'must match format "email"', "format")],
        id="format-email-no-unicode-case-folding",
    ),
    pytest.param({"format": "duration"}, "P1Y2M3DT4H5M6S", [], id="format-duration"),
    pytest.param({"format": "duration"}, "P2W", [], id="format-duration-weeks"),
    pytest.param(
        {"format": "duration"},
        "P1W2D",
        [err("", 'must match format "duration"', "format")],
        id="format-duration-weeks-alone",
    ),
    pytest.param(
        {"format": "duration"}, "P", [err("", 'must match format "duration"', "format")], id="format-duration-empty"
    ),
    pytest.param(
        {"format": "duration"}, "PT", [err("", 'must match format "duration"', "format")], id="format-duration-bare-t"
    ),
    pytest.param({"format": "uri"}, "relative/path", [err("", 'must match format "uri"', "format")], id="format-uri"),
    pytest.param({"format": "uri"}, "https://example.com/a?b#c", [], id="format-uri-absolute"),
    pytest.param({"format": "uri-reference"}, "../x", [], id="format-uri-reference"),
    pytest.param({"format": "email"}, 5, [], id="format-ignores-other-types"),
    pytest.param({"maxItems": 1}, [1, 2], [err("", "must NOT have more than 1 items", "maxItems")], id="maxItems"),
    pytest.param({"minItems": 3}, [1], [err("", "must NOT have fewer than 3 items", "minItems")], id="minItems"),
    pytest.param(
        {"prefixItems": [{}], "items": False},
        [1, 2, 3],
        [err("", "must NOT have more than 1 items", "items")],
        id="items-false-after-prefixItems",
    ),
    pytest.param(
        {"$schema": D7, "items": [{}], "additionalItems": False},
        [1, 2, 3],
        [err("", "must NOT have more than 1 items", "additionalItems")],
        id="additionalItems",
    ),
    pytest.param(
        {"uniqueItems": True},
        [1, 2, 1],
        [err("", "must NOT have duplicate items (items ## 0 and 2 are identical)", "uniqueItems")],
        id="uniqueItems-untyped",
    ),
    pytest.param(
        {"uniqueItems": True, "items": {"type": "integer"}},
        [1, 2, 1],
        [err("", "must NOT have duplicate items (items ## 2 and 0 are identical)", "uniqueItems")],
        id="uniqueItems-typed",
    ),
    pytest.param(
        {"uniqueItems": True},
        [{"a": 1, "b": 2}, {"b": 2, "a": 1}],
        [err("", "must NOT have duplicate items (items ## 0 and 1 are identical)", "uniqueItems")],
        id="uniqueItems-objects-ignore-key-order",
    ),
    pytest.param(
        {"uniqueItems": True},
        [1, 1.0, True],
        [err("", "must NOT have duplicate items (items ## 0 and 1 are identical)", "uniqueItems")],
        id="uniqueItems-1-equals-1.0-not-true",
    ),
    pytest.param(
        {"maxProperties": 1},
        {"a": 1, "b": 2},
        [err("", "must NOT have more than 1 properties", "maxProperties")],
        id="maxProperties",
    ),
    pytest.param(
        {"minProperties": 2},
        {"a": 1},
        [err("", "must NOT have fewer than 2 properties", "minProperties")],
        id="minProperties",
    ),
    pytest.param(
        {"dependentRequired": {"a": ["b"]}},
        {"a": 1},
        [err("", "must have property b when property a is present", "dependentRequired")],
        id="dependentRequired",
    ),
    pytest.param(
        {"dependentRequired": {"a": ["b", "c"]}},
        {"a": 1},
        [err("", "must have properties b, c when property a is present", "dependentRequired")] * 2,
        id="dependentRequired-once-per-missing-dependency",
    ),
    pytest.param(
        {"$schema": D7, "dependencies": {"a": ["b", "c"]}},
        {"a": 1, "c": 1},
        [err("", "must have properties b, c when property a is present", "dependencies")],
        id="dependencies-d7",
    ),
    pytest.param(
        {"anyOf": [{"type": "string"}, {"type": "number"}]},
        True,
        [
            err("", "must be string", "type"),
            err("", "must be number", "type"),
            err("", "must match a schema in anyOf", "anyOf"),
        ],
        id="anyOf-branch-errors-first",
    ),
    pytest.param({"anyOf": [{"type": "string"}, {"minimum": 5}]}, 6, [], id="anyOf-passing-branch-discards-the-others"),
    pytest.param(
        {"oneOf": [{"type": "number"}, {"type": "integer"}]},
        1,
        [err("", "must match exactly one schema in oneOf", "oneOf")],
        id="oneOf-two-match",
    ),
    pytest.param(
        {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        None,
        [
            err("", "must be string", "type"),
            err("", "must be integer", "type"),
            err("", "must match exactly one schema in oneOf", "oneOf"),
        ],
        id="oneOf-none-match",
    ),
    pytest.param({"not": {"type": "number"}}, 1, [err("", "must NOT be valid", "not")], id="not"),
    pytest.param(
        {"if": {"type": "number"}, "then": {"minimum": 5}},
        1,
        [err("", "must be >= 5", "minimum"), err("", 'must match "then" schema', "if")],
        id="if-then",
    ),
    pytest.param(
        {"if": {"type": "number"}, "then": {"minimum": 5}, "else": {"maxLength": 1}},
        "ab",
        [err("", "must NOT have more than 1 characters", "maxLength"), err("", 'must match "else" schema', "if")],
        id="if-else",
    ),
    pytest.param({"then": {"minimum": 5}}, 1, [], id="then-without-if-is-ignored"),
    pytest.param(
        {"contains": {"type": "string"}},
        [1, 2],
        [
            err("/0", "must be string", "type"),
            err("/1", "must be string", "type"),
            err("", "must contain at least 1 valid item(s)", "contains"),
        ],
        id="contains",
    ),
    pytest.param(
        {"contains": {"type": "string"}, "maxContains": 1},
        ["a", "b"],
        [err("", "must contain at least 1 and no more than 1 valid item(s)", "contains")],
        id="contains-maxContains",
    ),
    pytest.param(
        {"contains": {"type": "string"}, "minContains": 2},
        ["a", 1],
        [err("/1", "must be string", "type"), err("", "must contain at least 2 valid item(s)", "contains")],
        id="contains-minContains",
    ),
    pytest.param(
        {"propertyNames": {"maxLength": 1}},
        {"ab": 1},
        [
            err("", "must NOT have more than 1 characters", "maxLength"),
            err("", "property name must be valid", "propertyNames"),
        ],
        id="propertyNames",
    ),
    pytest.param(
        {"properties": {"a": {}}, "unevaluatedProperties": False},
        {"a": 1, "b": 2},
        [err("", "must NOT have unevaluated properties", "unevaluatedProperties")],
        id="unevaluatedProperties",
    ),
    pytest.param(
        {"allOf": [{"properties": {"a": {}}}], "unevaluatedProperties": False},
        {"a": 1},
        [],
        id="unevaluatedProperties-sees-allOf",
    ),
    pytest.param(
        {"prefixItems": [{}], "unevaluatedItems": False},
        [1, 2],
        [err("", "must NOT have more than 1 items", "unevaluatedItems")],
        id="unevaluatedItems",
    ),
    pytest.param(
        {"properties": {"a": {"properties": {"b": False}}}},
        {"a": {"b": 1}},
        [err("/a/b", "boolean schema is false", "false schema")],
        id="false-subschema",
    ),
    pytest.param(
        {"prefixItems": [False]},
        [1],
        [err("/0", "boolean schema is false", "false schema")],
        id="false-subschema-in-prefixItems",
    ),
    pytest.param(
        {"items": False},
        [1, 2],
        [err("/0", "boolean schema is false", "false schema"), err("/1", "boolean schema is false", "false schema")],
        id="items-false-without-prefixItems",
    ),
    pytest.param(
        {"$schema": D7, "items": False},
        [1],
        [err("/0", "boolean schema is false", "false schema")],
        id="false-items-d7",
    ),
    pytest.param(
        {"contains": False},
        [1],
        [
            err("/0", "boolean schema is false", "false schema"),
            err("", "must contain at least 1 valid item(s)", "contains"),
        ],
        id="false-contains",
    ),
    pytest.param(
        {"oneOf": [{"type": "number"}, {"type": "integer"}, {"type": "string"}]},
        1,
        [err("", "must match exactly one schema in oneOf", "oneOf")],
        id="oneOf-stops-at-the-second-passing-branch",
    ),
    pytest.param(
        {"oneOf": [{"type": "string"}, {"type": "number"}, {"type": "integer"}]},
        1,
        [err("", "must be string", "type"), err("", "must match exactly one schema in oneOf", "oneOf")],
        id="oneOf-two-match-keeps-earlier-failing-branch-errors",
    ),
]


@pytest.mark.parametrize(("schema", "instance", "expected"), CATALOGUE)
def test_each_keyword_reports_the_original_record(
    errors_of: ErrorsOf, schema: dict[str, Any], instance: Any, expected: list[ErrorRecord]
) -> None:
    assert errors_of(schema, instance) == expected


def test_unknown_keywords_and_unknown_formats_are_ignored(errors_of: ErrorsOf) -> None:
    assert errors_of({"x-widget": "textarea", "format": "no-such-format"}, "anything") == []


def test_the_reference_ordering_example_comes_out_in_ajv_order(errors_of: ErrorsOf) -> None:
    schema = {
        "type": "object",
        "required": ["summary", "severity", "category"],
        "additionalProperties": False,
        "properties": {
            "summary": {"type": "string", "maxLength": 5},
            "severity": {"type": "string", "enum": ["low", "high"]},
            "count": {"type": "number", "minimum": 1},
        },
    }
    instance = {"summary": "too long text", "severity": "x", "count": 0, "extra": 1, "other": 2}
    assert [(e["keyword"], e["path"]) for e in errors_of(schema, instance)] == [
        ("required", "/category"),
        ("additionalProperties", "/extra"),
        ("additionalProperties", "/other"),
        ("maxLength", "/summary"),
        ("enum", "/severity"),
        ("minimum", "/count"),
    ]


def test_support_ticket_with_an_unknown_severity_reports_required_before_enum(
    errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]
) -> None:
    assert errors_of(support_ticket_schema, {"summary": "s", "severity": "urgent"}) == [
        err("/category", "must have required property 'category'", "required"),
        err("/severity", "must be equal to one of the allowed values", "enum"),
    ]


def test_properties_are_checked_in_schema_order_not_instance_order(errors_of: ErrorsOf) -> None:
    schema = {"properties": {"b": {"type": "string"}, "a": {"type": "string"}}}
    assert [e["path"] for e in errors_of(schema, {"a": 1, "b": 2})] == ["/b", "/a"]


def test_instance_keys_follow_javascript_order_with_integer_keys_first(errors_of: ErrorsOf) -> None:
    errors = errors_of({"additionalProperties": False}, {"b": 1, "10": 2, "a": 3, "2": 4})
    assert [e["path"] for e in errors] == ["/2", "/10", "/b", "/a"]


def test_a_single_group_type_is_checked_after_the_any_type_keywords(errors_of: ErrorsOf) -> None:
    assert errors_of({"type": "string", "enum": ["a"], "maxLength": 5}, 5) == [
        err("", "must be equal to one of the allowed values", "enum"),
        err("", "must be string", "type"),
    ]


def test_a_type_without_its_group_keywords_is_checked_first(errors_of: ErrorsOf) -> None:
    assert errors_of({"type": "string", "enum": ["a"]}, 5) == [
        err("", "must be string", "type"),
        err("", "must be equal to one of the allowed values", "enum"),
    ]


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ({"type": ["string", "null"], "enum": ["a"], "maxLength": 5}, 5),
        ({"type": "integer", "enum": [1], "minimum": 0}, "x"),
        ({"type": "boolean", "enum": [True]}, "x"),
    ],
)
def test_union_integer_and_boolean_types_are_checked_first(
    errors_of: ErrorsOf, schema: dict[str, Any], instance: Any
) -> None:
    assert [e["keyword"] for e in errors_of(schema, instance)] == ["type", "enum"]


def test_any_type_keywords_run_in_ajv_order(errors_of: ErrorsOf) -> None:
    schema = {"allOf": [{"type": "string"}], "anyOf": [{"type": "null"}], "not": {}, "enum": [2], "const": 1}
    assert [e["keyword"] for e in errors_of(schema, 5)] == ["const", "enum", "not", "type", "anyOf", "type"]


def test_object_keywords_run_in_ajv_order(errors_of: ErrorsOf) -> None:
    schema = {
        "dependentRequired": {"a": ["q"]},
        "properties": {"a": {"type": "string"}},
        "additionalProperties": False,
        "propertyNames": {"maxLength": 1},
        "required": ["z"],
        "minProperties": 9,
    }
    assert [e["keyword"] for e in errors_of(schema, {"a": 1, "bb": 2})] == [
        "minProperties",
        "required",
        "maxLength",
        "propertyNames",
        "additionalProperties",
        "type",
        "dependentRequired",
    ]


def test_number_keywords_run_in_ajv_order(errors_of: ErrorsOf) -> None:
    schema = {"multipleOf": 7, "exclusiveMinimum": 50, "minimum": 40, "maximum": 1, "type": "number"}
    assert [e["keyword"] for e in errors_of(schema, 3)] == ["maximum", "minimum", "exclusiveMinimum", "multipleOf"]


def test_string_keywords_run_in_ajv_order_with_format_last(errors_of: ErrorsOf) -> None:
    schema = {"format": "date", "pattern": "^a", "maxLength": 1, "type": "string"}
    assert [e["keyword"] for e in errors_of(schema, "bc")] == ["maxLength", "pattern", "format"]


def test_array_keywords_run_in_ajv_order(errors_of: ErrorsOf) -> None:
    schema = {"uniqueItems": True, "contains": {"type": "string"}, "items": {"type": "integer"}, "minItems": 9}
    assert [e["keyword"] for e in errors_of(schema, [1.5, 1.5])] == [
        "minItems",
        "type",
        "type",
        "type",
        "type",
        "contains",
    ]


def test_draft_07_ref_applies_its_sibling_keywords(errors_of: ErrorsOf) -> None:
    schema = {"$schema": D7, "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 1}
    assert errors_of(schema, "ab") == [err("", "must NOT have more than 1 characters", "maxLength")]
    assert errors_of(schema, 5) == [err("", "must be string", "type")]


def test_2020_12_ref_is_evaluated_with_its_siblings(errors_of: ErrorsOf) -> None:
    schema = {"$defs": {"s": {"enum": ["a", "abc"]}}, "$ref": "#/$defs/s", "maxLength": 2}
    assert errors_of(schema, "abc") == [err("", "must NOT have more than 2 characters", "maxLength")]
    assert [e["keyword"] for e in errors_of(schema, "zzz")] == ["enum", "maxLength"]


def test_recursive_refs_validate_nested_data(errors_of: ErrorsOf) -> None:
    schema = {"type": "object", "properties": {"child": {"$ref": "#"}, "n": {"type": "integer"}}}
    assert errors_of(schema, {"child": {"child": {"n": "x"}}}) == [err("/child/child/n", "must be integer", "type")]


def test_defaults_are_never_applied(errors_of: ErrorsOf) -> None:
    schema = {"properties": {"a": {"default": 1}}, "required": ["a"]}
    document: dict[str, Any] = {}
    assert errors_of(schema, document) == [err("/a", "must have required property 'a'", "required")]
    assert document == {}


def test_errors_are_not_deduplicated(errors_of: ErrorsOf) -> None:
    schema = {"properties": {"ab": {"type": "string"}}, "patternProperties": {"^a": {"type": "string"}}}
    assert errors_of(schema, {"ab": 1}) == [err("/ab", "must be string", "type")] * 2


def test_validate_is_valid_and_iter_errors_agree(support_ticket: Contract, valid_ticket: dict[str, Any]) -> None:
    good = validate(support_ticket.compiled, valid_ticket)
    assert (good.valid, good.errors) == (True, [])
    assert is_valid(support_ticket.compiled, valid_ticket)
    bad = validate(support_ticket.compiled, None)
    assert (bad.valid, bad.errors) == (False, [err("", "must be object", "type")])
    assert not is_valid(support_ticket.compiled, None)
    assert list(iter_errors(support_ticket.compiled, None)) == bad.errors


def test_a_cut_list_counts_its_errors_without_the_cap_record(support_ticket: Contract) -> None:
    document = {f"extra{i}": i for i in range(5)}  # 3 missing fields and 5 extra keys: 8 errors
    cut = validate(support_ticket.compiled, document, max_errors=2)
    whole = validate(support_ticket.compiled, document)

    assert cut.errors[-1] == too_many_errors(2)
    assert len(cut.errors) == 3  # what an agent receives: two errors, then the note that more exist
    assert (cut.error_count, cut.cut) == (2, True)
    assert count_errors(cut.errors) == (2, True)
    assert (whole.error_count, whole.cut) == (8, False)
    exact = validate(support_ticket.compiled, document, max_errors=8)  # at the limit, nothing is cut
    assert (exact.error_count, exact.cut, exact.errors) == (8, False, whole.errors)


def test_count_errors_counts_a_list_that_was_not_cut() -> None:
    assert count_errors([]) == (0, False)
    assert count_errors([err("", "must be object", "type"), err("/a", "x", "maxErrors")]) == (2, False)


def test_a_json_string_holding_json_is_validated_as_a_string(support_ticket: Contract) -> None:
    assert validate(support_ticket.compiled, '{"summary": "s"}').errors == [err("", "must be object", "type")]


def test_describe_errors_prints_a_slash_for_the_root_and_joins_with_semicolons() -> None:
    errors = [err("", "must be object", "type"), err("/a", "must be >= 1", "minimum")]
    assert describe_errors(errors) == "/: must be object (type); /a: must be >= 1 (minimum)"
    assert describe_errors([]) == ""


def test_compiled_schemas_are_cached_by_key() -> None:
    first = compile_schema({"type": "object"}, "2020-12", cache_key="test-cache-key")
    assert compile_schema({"type": "string"}, "2020-12", cache_key="test-cache-key") is first
    assert compile_schema({"type": "object"}, "2020-12") is not first


# --- deeply nested documents --------------------------------------------------------------------


def _nested_lists(depth: int) -> list[Any]:
    root: list[Any] = []
    current = root
    for _ in range(depth):
        child: list[Any] = []
        current.append(child)
        current = child
    return root


def _nested_objects(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    current = root
    for _ in range(depth):
        child: dict[str, Any] = {}
        current["a"] = child
        current = child
    return root


_DEEP_LIST = _nested_lists(100_000)
_DEEP_OBJECT = _nested_objects(100_000)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object"},
        {"type": "array"},
        {"items": {"$ref": "#"}},
        {"additionalProperties": {"$ref": "#"}},
        {"uniqueItems": True},
        {"enum": [[1]]},
        {"contains": {"type": "string"}},
        {"anyOf": [{"items": {"$ref": "#"}}, {"type": "string"}]},
        {"properties": {"a": {"$ref": "#"}}, "unevaluatedProperties": False},
    ],
)
@pytest.mark.parametrize(
    "instance", [_DEEP_LIST, _DEEP_OBJECT, [_DEEP_LIST, _DEEP_LIST]], ids=["list", "object", "pair"]
)
def test_validate_never_raises_for_100000_deep_documents(
    errors_of: ErrorsOf, schema: dict[str, Any], instance: Any
) -> None:
    errors = errors_of(schema, instance)
    assert all(list(e) == ["path", "message", "keyword"] for e in errors)
    assert all(isinstance(v, str) for e in errors for v in e.values())


def test_a_deep_object_is_valid_against_an_object_schema(errors_of: ErrorsOf) -> None:
    assert errors_of({"type": "object"}, _DEEP_OBJECT) == []


def test_a_deep_list_against_an_object_schema_reports_the_type_error(
    errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]
) -> None:
    assert errors_of(support_ticket_schema, _nested_lists(5_000)) == [err("", "must be object", "type")]


def test_integer_like_property_names_are_checked_first_as_in_javascript(errors_of: ErrorsOf) -> None:
    schema = {"properties": {"b": {"type": "string"}, "1": {"type": "string"}}}

    assert errors_of(schema, {"b": 1, "1": 2}) == [
        err("/1", "must be string", "type"),
        err("/b", "must be string", "type"),
    ]


def test_a_rust_panic_from_deep_reference_recursion_becomes_a_depth_error() -> None:
    from json_contracts.schema.compiled import CompiledSchema
    from json_contracts.schema.validation import iter_errors

    class PanicException(BaseException):  # the shape of pyo3's panic, which is no Exception
        pass

    class Panicking:
        def iter_errors(self, instance: Any) -> Any:
            raise PanicException("__eq__ failed!")

    compiled = CompiledSchema("2020-12", Panicking())  # type: ignore[arg-type]

    assert [e["keyword"] for e in iter_errors(compiled, {})] == ["depth"]


def test_a_real_error_that_is_not_a_panic_still_propagates() -> None:
    from json_contracts.schema.compiled import CompiledSchema
    from json_contracts.schema.validation import iter_errors

    class Broken:
        def iter_errors(self, instance: Any) -> Any:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        list(iter_errors(CompiledSchema("2020-12", Broken()), {}))  # type: ignore[arg-type]
