"""Repair hints (the TypeScript server's wording) and the machine-readable repairs beside them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from json_contracts.agent.repair import (
    MAX_LISTED_VALUES,
    document_hints,
    field_hints,
    repair_instructions,
    repairs,
    schema_nodes_at,
)
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.formats import FORMAT_CHECKER, FORMAT_EXAMPLES, KNOWN_FORMATS
from json_contracts.schema.validation import ErrorRecord, validate
from json_contracts.schema.vocabulary import DRAFT202012

ErrorsOf = Callable[[dict[str, Any], Any], list[ErrorRecord]]


def err(path: str, message: str, keyword: str) -> ErrorRecord:
    return {"path": path, "message": message, "keyword": keyword}


def test_support_ticket_worked_example(errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]) -> None:
    errors = errors_of(support_ticket_schema, {"severity": "urgent"})
    assert repair_instructions(support_ticket_schema, errors) == [
        "Add missing required field /summary.",
        "Add missing required field /category.",
        "Set /severity to one of: low, medium, high, critical.",
        "Return JSON only.",
    ]


def test_document_hints_name_the_values_a_missing_enum_field_allows(
    errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]
) -> None:
    errors = errors_of(support_ticket_schema, {"severity": "urgent"})
    assert document_hints(support_ticket_schema, errors) == [
        "Add missing required field /summary.",  # a free string: nothing to list
        "Add missing required field /category with one of: authentication, billing, bug, feature_request, other.",
        "Set /severity to one of: low, medium, high, critical.",
    ]
    # the same values check --json already lists for programs
    assert repairs(support_ticket_schema, errors)[1]["allowed"] == [
        "authentication", "billing", "bug", "feature_request", "other"
    ]  # fmt: skip


def test_the_typescript_hint_lines_stay_as_they_are(errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]) -> None:
    errors = errors_of(support_ticket_schema, {"severity": "urgent"})
    assert field_hints(support_ticket_schema, errors)[1] == "Add missing required field /category."


def test_document_hints_name_a_missing_constant_and_find_values_through_ref(errors_of: ErrorsOf) -> None:
    schema = {
        "type": "object",
        "$defs": {"state": {"enum": ["open", "closed"]}},
        "properties": {"kind": {"const": "ticket"}, "state": {"$ref": "#/$defs/state"}},
        "required": ["kind", "state"],
    }
    assert document_hints(schema, errors_of(schema, {})) == [
        "Add missing required field /kind with the value ticket.",
        "Add missing required field /state with one of: open, closed.",
    ]


def test_document_hints_bound_a_long_enum(errors_of: ErrorsOf) -> None:
    many = {"type": "object", "properties": {"code": {"enum": [f"c{n}" for n in range(250)]}}, "required": ["code"]}
    long = {"type": "object", "properties": {"text": {"enum": ["x" * 150, "y" * 150, "z"]}}, "required": ["text"]}

    listed = [f"c{n}" for n in range(MAX_LISTED_VALUES)]
    assert document_hints(many, errors_of(many, {})) == [
        f"Add missing required field /code with one of: {', '.join(listed)} and 240 more (see the schema)."
    ]
    assert document_hints(long, errors_of(long, {})) == [
        f"Add missing required field /text with one of: {'x' * 150} and 2 more (see the schema)."
    ]


def test_document_hints_keep_every_other_line_of_field_hints(errors_of: ErrorsOf) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}, "additionalProperties": False}
    errors = errors_of(schema, {"n": 5, "x": 1})
    supplied_root = [err("", "must have required property 'x'", "required")]
    assert document_hints(schema, errors) == field_hints(schema, errors)
    assert document_hints(schema, supplied_root) == ["Add missing required field ."]


def test_enum_values_are_found_through_ref_and_all_of(errors_of: ErrorsOf) -> None:
    schema = {
        "type": "object",
        "$defs": {"state": {"type": "string", "enum": ["open", "closed"]}},
        "allOf": [{"properties": {"state": {"$ref": "#/$defs/state"}}}],
    }
    errors = errors_of(schema, {"state": "x"})
    assert field_hints(schema, errors) == ["Set /state to one of: open, closed."]


def test_any_of_string_or_number_hint(errors_of: ErrorsOf) -> None:
    schema = {"anyOf": [{"type": "string"}, {"type": "number"}]}
    assert field_hints(schema, errors_of(schema, True)) == [
        "Set the JSON value to a valid string or number value.",
        "Fix the JSON value: must match a schema in anyOf.",
    ]


@pytest.mark.parametrize(
    ("keyword", "at_path", "at_root"),
    [
        (
            "maxLength",
            "Shorten /p to satisfy the maximum length.",
            "Shorten the JSON value to satisfy the maximum length.",
        ),
        (
            "minLength",
            "Lengthen /p to satisfy the minimum length.",
            "Lengthen the JSON value to satisfy the minimum length.",
        ),
        (
            "minimum",
            "Increase /p to satisfy the minimum value.",
            "Increase the JSON value to satisfy the minimum value.",
        ),
        (
            "exclusiveMinimum",
            "Increase /p to satisfy the minimum value.",
            "Increase the JSON value to satisfy the minimum value.",
        ),
        (
            "maximum",
            "Decrease /p to satisfy the maximum value.",
            "Decrease the JSON value to satisfy the maximum value.",
        ),
        (
            "exclusiveMaximum",
            "Decrease /p to satisfy the maximum value.",
            "Decrease the JSON value to satisfy the maximum value.",
        ),
        ("pattern", "Set /p to match the required pattern.", "Set the JSON value to match the required pattern."),
        ("required", "Add missing required field /p.", "Add missing required field ."),
        ("additionalProperties", "Remove extra field /p.", "Remove extra field ."),
        ("format", "Fix /p: msg.", "Fix the JSON value: msg."),
        ("const", "Fix /p: msg.", "Fix the JSON value: msg."),
        ("multipleOf", "Fix /p: msg.", "Fix the JSON value: msg."),
        ("false schema", "Fix /p: msg.", "Fix the JSON value: msg."),
        ("x-custom", "Fix /p: msg.", "Fix the JSON value: msg."),
        ("enum", "Set /p to an allowed enum value.", "Set the JSON value to an allowed enum value."),
        ("type", "Set /p to the required type.", "Set the JSON value to the required type."),
    ],
)
def test_hint_wording_per_keyword(keyword: str, at_path: str, at_root: str) -> None:
    assert field_hints({}, [err("/p", "msg", keyword)]) == [at_path]
    assert field_hints({}, [err("", "msg", keyword)]) == [at_root]


def test_a_message_ending_with_a_period_gets_a_second_one() -> None:
    assert field_hints({}, [err("/a", "must be valid.", "x-custom")]) == ["Fix /a: must be valid.."]


def test_enum_values_print_as_javascript_string_does() -> None:
    schema = {"properties": {"o": {"enum": [{"a": 1}, [1, 2], [None, "x"], None, True, 1.0, 1e21, 0.5, "s"]}}}
    assert field_hints(schema, [err("/o", "x", "enum")]) == [
        "Set /o to one of: [object Object], 1,2, ,x, null, true, 1, 1e+21, 0.5, s."
    ]


def test_enum_values_are_collected_from_every_branch_without_repeats() -> None:
    schema = {"properties": {"c": {"anyOf": [{"enum": ["a", "b"]}, {"enum": ["b", "c"]}]}}}
    assert field_hints(schema, [err("/c", "x", "enum")]) == ["Set /c to one of: a, b, c."]


def test_type_hint_joins_every_declared_type() -> None:
    schema = {"properties": {"n": {"type": ["integer", "null"]}}}
    assert field_hints(schema, [err("/n", "must be integer,null", "type")]) == [
        "Set /n to a valid integer or null value."
    ]


def test_pattern_properties_are_not_consulted_for_types() -> None:
    schema = {"patternProperties": {"^n": {"type": "string"}}}
    assert field_hints(schema, [err("/n_a", "must be string", "type")]) == ["Set /n_a to the required type."]


def test_contains_is_not_consulted_for_types(errors_of: ErrorsOf) -> None:
    schema = {"contains": {"type": "string"}}
    assert field_hints(schema, errors_of(schema, [1])) == [
        "Set /0 to the required type.",
        "Fix the JSON value: must contain at least 1 valid item(s).",
    ]


def test_array_items_are_followed_by_index() -> None:
    schema = {
        "properties": {
            "tuple": {"prefixItems": [{"enum": ["x"]}], "items": {"enum": ["y"]}},
            "old": {"items": [{"enum": ["p"]}], "additionalItems": {"enum": ["q"]}},
        }
    }
    assert field_hints(
        schema,
        [
            err("/tuple/0", "", "enum"),
            err("/tuple/3", "", "enum"),
            err("/old/0", "", "enum"),
            err("/old/5", "", "enum"),
        ],
    ) == [
        "Set /tuple/0 to one of: x.",
        "Set /tuple/3 to one of: y.",
        "Set /old/0 to one of: p.",
        "Set /old/5 to one of: q.",
    ]


def test_additional_properties_schema_is_followed_for_unknown_keys() -> None:
    schema = {"properties": {"a": {"enum": [1]}}, "additionalProperties": {"enum": [2]}}
    assert field_hints(schema, [err("/zzz", "", "enum")]) == ["Set /zzz to one of: 2."]


def test_escaped_pointer_segments_are_unescaped_for_the_lookup() -> None:
    schema = {"properties": {"a/b": {"properties": {"m~n": {"enum": ["v"]}}}}}
    assert field_hints(schema, [err("/a~1b/m~0n", "", "enum")]) == ["Set /a~1b/m~0n to one of: v."]


def test_a_ref_to_a_plain_name_anchor_leads_back_to_the_root_as_in_the_typescript_server() -> None:
    # The lookup follows JSON-pointer fragments only; "#item" has no segments, so it means the root.
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#item"}},
        "$defs": {"i": {"$anchor": "item", "type": "string"}},
    }
    assert field_hints(schema, [{"path": "/a", "message": "must be string", "keyword": "type"}]) == [
        "Set /a to a valid object value."
    ]


def test_cyclic_refs_do_not_loop_forever() -> None:
    schema = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    assert field_hints(schema, [err("", "", "enum")]) == ["Set the JSON value to an allowed enum value."]
    assert len(schema_nodes_at(schema, "")) == 3


def test_repeated_hints_appear_once() -> None:
    errors = [err("/a", "must be string", "type"), err("/a", "must be string", "type")]
    assert field_hints({}, errors) == ["Set /a to the required type."]


def test_library_instructions_end_with_return_json_only() -> None:
    assert repair_instructions({}, []) == ["Return JSON only."]


def test_repairs_describe_what_to_do_at_each_path(errors_of: ErrorsOf, support_ticket_schema: dict[str, Any]) -> None:
    errors = errors_of(support_ticket_schema, {"severity": "urgent", "summary": "x" * 81, "extra": 1})
    assert repairs(support_ticket_schema, errors) == [
        {
            "path": "/category",
            "keyword": "required",
            "action": "add",
            "allowed": ["authentication", "billing", "bug", "feature_request", "other"],
            "types": ["string"],
            "message": "must have required property 'category'",
        },
        {
            "path": "/extra",
            "keyword": "additionalProperties",
            "action": "remove",
            "message": "must NOT have additional properties",
        },
        {
            "path": "/summary",
            "keyword": "maxLength",
            "action": "shorten",
            "limit": 80,
            "message": "must NOT have more than 80 characters",
        },
        {
            "path": "/severity",
            "keyword": "enum",
            "action": "replace",
            "allowed": ["low", "medium", "high", "critical"],
            "types": ["string"],
            "message": "must be equal to one of the allowed values",
        },
    ]


def test_repairs_carry_limits_patterns_formats_and_constants(errors_of: ErrorsOf) -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "maximum": 3},
            "t": {"type": "string", "pattern": "^a"},
            "e": {"type": "string", "format": "email"},
            "k": {"const": "x"},
            "l": {"type": "array", "minItems": 2},
        },
    }
    entries = repairs(schema, errors_of(schema, {"n": 5, "t": "b", "e": "nope", "k": "y", "l": [1]}))
    assert [(e["path"], e["action"]) for e in entries] == [
        ("/n", "decrease"),
        ("/t", "match-pattern"),
        ("/e", "match-format"),
        ("/k", "replace"),
        ("/l", "add-items"),
    ]
    assert entries[0]["limit"] == 3
    assert entries[1]["pattern"] == "^a"
    assert entries[2]["format"] == "email"
    assert entries[3]["allowed"] == ["x"]
    assert entries[4]["limit"] == 2


def test_repairs_set_type_lists_the_types_and_unknown_keywords_say_fix() -> None:
    schema = {"properties": {"n": {"type": ["integer", "null"]}}}
    assert repairs(schema, [err("/n", "must be integer,null", "type"), err("", "must NOT be valid", "not")]) == [
        {
            "path": "/n",
            "keyword": "type",
            "action": "set-type",
            "types": ["integer", "null"],
            "message": "must be integer,null",
        },
        {"path": "", "keyword": "not", "action": "fix", "message": "must NOT be valid"},
    ]


# --- document_hints: what to write for a format, and the property an extra field misspells ----------


@pytest.mark.parametrize(("name", "entry"), sorted(FORMAT_EXAMPLES.items()))
def test_a_format_error_s_document_hint_says_the_shape_and_gives_an_example(
    name: str, entry: tuple[str, str | int]
) -> None:
    # It used to repeat the error: 'Fix /v: must match format "date".'
    shape, example = entry
    error = err("/v", f'must match format "{name}"', "format")

    assert document_hints({}, [error]) == [f"Write /v as {shape}, e.g. {example}."]
    assert field_hints({}, [error]) == [f'Fix /v: must match format "{name}".']  # MCP keeps the TypeScript line


def test_every_format_that_can_fail_has_a_shape_and_an_example_that_passes_its_own_check() -> None:
    always_pass = {"float", "double", "password", "binary"}
    assert set(FORMAT_EXAMPLES) == KNOWN_FORMATS - always_pass
    for name, (_, example) in FORMAT_EXAMPLES.items():
        assert FORMAT_CHECKER.conforms(example, name), name
    for name in always_pass:
        assert all(FORMAT_CHECKER.conforms(value, name) for value in ("", "x", 1, -(2**70), None))


def test_a_real_format_error_gets_the_shape_from_its_message_or_its_schema(errors_of: ErrorsOf) -> None:
    schema = {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}
    errors = errors_of(schema, {"at": "tomorrow"})

    assert document_hints(schema, errors) == [
        "Write /at as a date and time in the form YYYY-MM-DDTHH:MM:SS with a time zone (Z or +HH:MM), "
        "e.g. 2026-03-03T09:30:00Z."
    ]
    assert document_hints(schema, [err("/at", "some other wording", "format")]) == document_hints(schema, errors)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("2026-02-30", "2026-02-30 is not a calendar date (February 2026 has 28 days)"),
        ("2026-04-31", "2026-04-31 is not a calendar date (April 2026 has 30 days)"),
        ("2026-13-01", "2026-13-01 is not a calendar date (there is no month 13)"),
        ("2026-02-00", "2026-02-00 is not a calendar date (February 2026 has 28 days)"),
    ],
)
def test_a_date_of_the_right_shape_that_names_no_day_is_called_impossible(
    errors_of: ErrorsOf, value: str, why: str
) -> None:
    schema = {"type": "object", "properties": {"date": {"type": "string", "format": "date"}}}
    document = {"date": value}

    assert document_hints(schema, errors_of(schema, document), document) == [
        f"Fix /date: {why}; write a date in the form YYYY-MM-DD, e.g. 2026-03-03."
    ]


def test_an_impossible_date_inside_a_date_time_is_named_and_a_leap_day_is_not(errors_of: ErrorsOf) -> None:
    schema = {"type": "array", "items": {"type": "string", "format": "date-time"}}
    document = ["2026-02-29T09:00:00Z", "2024-02-29T09:00:00"]

    assert document_hints(schema, errors_of(schema, document), document) == [
        "Fix /0: 2026-02-29 is not a calendar date (February 2026 has 28 days); write a date and time in the form "
        "YYYY-MM-DDTHH:MM:SS with a time zone (Z or +HH:MM), e.g. 2026-03-03T09:30:00Z.",
        "Write /1 as a date and time in the form YYYY-MM-DDTHH:MM:SS with a time zone (Z or +HH:MM), "
        "e.g. 2026-03-03T09:30:00Z.",  # a real day: only the time zone is missing
    ]


ACTION_ITEMS = {
    "type": "object",
    "properties": {
        "actionItems": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"title": {"type": "string"}, "dueDate": {"type": "string"}},
            },
        }
    },
}


@pytest.mark.parametrize("key", ["due", "due_date", "Due-Date", "duedate", "dueDte"])
def test_an_extra_field_that_misspells_a_property_of_its_object_gets_a_did_you_mean(
    errors_of: ErrorsOf, key: str
) -> None:
    # It used to say only 'Remove extra field /actionItems/0/due.'
    document = {"actionItems": [{"title": "Call", key: "2026-03-03"}]}
    errors = errors_of(ACTION_ITEMS, document)

    expected = [f'Remove extra field /actionItems/0/{key}; did you mean "dueDate"?']
    assert document_hints(ACTION_ITEMS, errors) == expected
    assert document_hints(ACTION_ITEMS, errors, document) == expected
    assert field_hints(ACTION_ITEMS, errors) == [f"Remove extra field /actionItems/0/{key}."]  # MCP unchanged


def test_an_extra_field_gets_no_did_you_mean_when_nothing_is_close_or_the_property_is_there(
    errors_of: ErrorsOf,
) -> None:
    far = {"actionItems": [{"owner": "me"}]}
    beside = {"actionItems": [{"dueDate": "2026-03-03", "due": "soon"}]}
    ambiguous = {"type": "object", "additionalProperties": False, "properties": {"itemCode": {}, "itemName": {}}}

    assert document_hints(ACTION_ITEMS, errors_of(ACTION_ITEMS, far), far) == [
        "Remove extra field /actionItems/0/owner."
    ]
    assert document_hints(ACTION_ITEMS, errors_of(ACTION_ITEMS, beside), beside) == [
        "Remove extra field /actionItems/0/due."  # renaming it would clash with the dueDate it has
    ]
    assert document_hints(ambiguous, errors_of(ambiguous, {"item": 1})) == ["Remove extra field /item."]
    assert document_hints(ambiguous, errors_of(ambiguous, {"id": 1})) == ["Remove extra field /id."]


def test_a_document_that_ran_out_of_checking_time_is_told_to_send_a_smaller_one() -> None:
    fanning: dict[str, Any] = {"$defs": {f"n{i}": {"anyOf": [{"$ref": f"#/$defs/n{i + 1}"}] * 2} for i in range(40)}}
    fanning["$defs"]["n40"] = {"type": "string"}
    compiled = compile_schema({**fanning, "$ref": "#/$defs/n0"}, DRAFT202012)
    errors = validate(compiled, 1, timeout=0.2).errors

    assert errors[-1]["keyword"] == "timeout"
    assert field_hints({}, errors)[-1] == (
        "Fix the errors listed, then send the document again; if it still runs out of time, send a smaller one."
    )
