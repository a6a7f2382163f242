"""The four lint warnings the TypeScript server already gave: JC101, JC102, JC103 and JC104.

Messages and ``$.schema…`` paths must match the TypeScript server's exactly, as must the walk order.
"""

from __future__ import annotations

from typing import Any

from json_contracts.findings.catalogue import CATALOGUE, Code
from json_contracts.lint import lint_result
from json_contracts.reporting.reports import lint_report
from tests.support.lint import ContractMaker, Linted, LintOne, LoadOne

NO_EXAMPLES = "Contract has no examples."
EMPTY = "Schema object is empty and accepts any JSON value."
OPEN_TRUE = "Object schema uses additionalProperties:true; prefer explicit fields when possible."
NOT_CLOSED = "Object schema does not set additionalProperties:false."
ORIGINAL = {"JC101", "JC102", "JC103", "JC104"}


def _original(linted: Linted) -> list[tuple[str, str | None]]:
    return [(f.code, f.lint_path) for f in linted.findings if f.code in ORIGINAL]


# --- JC101 no-examples -------------------------------------------------------------------------


def test_a_contract_without_any_example_warns_jc101_at_the_top_of_the_file(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string"}}, ["a"])))

    finding = linted.one("JC101")
    assert finding.severity == "warning" == CATALOGUE[Code("JC101")].severity
    assert finding.message == NO_EXAMPLES
    assert finding.lint_path == "examples"
    assert (finding.line, finding.column) == (1, 1)
    assert finding.contract == "sample"
    assert finding.file == "sample.json"
    assert finding.path == linted.path


def test_examples_that_live_only_in_an_operation_count_against_jc101(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    contract = quiet(obj({"a": {"type": "string"}}, ["a"]))
    contract["operations"]["create"] = {"examples": [{"input": "make one", "output": {"a": "x"}}]}

    assert "JC101" not in lint_one(contract).codes


# --- JC102 empty-schema ------------------------------------------------------------------------


def test_an_empty_property_schema_warns_jc102_pointing_at_its_braces(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"note": {}}, []), {"note": 1}))

    finding = linted.one("JC102")
    assert finding.severity == "warning"
    assert finding.message == EMPTY
    assert finding.lint_path == "$.schema.properties.note"
    assert finding.pointer == "/schema/properties/note"
    assert (finding.line, finding.column) == linted.at('"note": ', after=True, occurrence=1)


def test_a_property_schema_with_a_type_does_not_warn_jc102(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    assert "JC102" not in lint_one(quiet(obj({"note": {"type": "string"}}, []), {"note": "x"})).codes


def test_an_empty_root_schema_warns_jc102_at_dollar_schema(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({}, {"anything": True}))

    finding = linted.one("JC102")
    assert finding.lint_path == "$.schema"
    assert (finding.line, finding.column) == linted.at('"schema": ', after=True)


def test_identical_empty_schemas_in_two_places_each_warn_jc102(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {}, "b": {}}, []), {}))

    assert [f.lint_path for f in linted.of("JC102")] == ["$.schema.properties.a", "$.schema.properties.b"]


# --- JC103 additional-properties-true ----------------------------------------------------------


def test_additional_properties_true_warns_jc103_at_the_object_schema(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {"type": "object", "additionalProperties": True, "properties": {"a": {"type": "string"}}}
    linted = lint_one(quiet(schema, {"a": "x", "extra": 1}))

    finding = linted.one("JC103")
    assert finding.severity == "warning"
    assert finding.message == OPEN_TRUE
    assert finding.lint_path == "$.schema"
    assert (finding.line, finding.column) == linted.at('"schema": ', after=True)
    assert "JC104" not in linted.codes


def test_additional_properties_false_does_not_warn_jc103(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string"}}, []), {"a": "x"}))

    assert "JC103" not in linted.codes
    assert "JC104" not in linted.codes


# --- JC104 additional-properties-missing -------------------------------------------------------


def test_an_object_schema_without_additional_properties_warns_jc104(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    inner = {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
    linted = lint_one(quiet(obj({"inner": inner}, ["inner"]), {"inner": {"b": "x"}}))

    finding = linted.one("JC104")
    assert finding.severity == "warning"
    assert finding.message == NOT_CLOSED
    assert finding.lint_path == "$.schema.properties.inner"
    assert finding.pointer == "/schema/properties/inner"
    assert (finding.line, finding.column) == linted.at('"inner": ', after=True, occurrence=1)


def test_an_additional_properties_schema_object_still_warns_jc104(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}}
    linted = lint_one(quiet(schema, {"x": "y"}))

    assert _original(linted) == [("JC104", "$.schema")]


def test_properties_without_a_type_make_a_schema_object_shaped_for_jc104(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"properties": {"a": {"type": "string"}}}, {"a": "x"}))

    assert _original(linted) == [("JC104", "$.schema")]


def test_a_nullable_object_type_without_properties_is_not_object_shaped(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": ["object", "null"]}, None, {}))

    assert _original(linted) == []


def test_a_closed_nested_object_does_not_warn_jc104(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    inner = obj({"b": {"type": "string"}}, ["b"])
    assert "JC104" not in lint_one(quiet(obj({"inner": inner}, ["inner"]), {"inner": {"b": "x"}})).codes


# --- paths and walk order ----------------------------------------------------------------------


def test_original_warnings_follow_the_original_walk_order_and_path_escaping(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "additionalProperties": True,
        "properties": {
            "a-b": {"type": "object", "properties": {"c": {}}},
            "$x": {"type": "string"},
            "plain": {"type": "object", "properties": {}, "additionalProperties": False},
        },
        "patternProperties": {"^z": {"type": "object"}},
        "$defs": {"thing": {"properties": {}}},
        "anyOf": [{}, {"type": "object"}],
        "not": {"type": "object", "properties": {"q": {}}, "required": ["q"]},
    }
    linted = lint_one(quiet(schema, {"a-b": {"c": 1}}))

    assert _original(linted) == [
        ("JC103", "$.schema"),
        ("JC104", '$.schema.properties["a-b"]'),
        ("JC102", '$.schema.properties["a-b"].properties.c'),
        ("JC104", "$.schema.not"),
        ("JC102", "$.schema.not.properties.q"),
        ("JC102", "$.schema.anyOf[0]"),
        ("JC104", "$.schema.anyOf[1]"),
        ("JC104", "$.schema.$defs.thing"),
        ("JC104", '$.schema.patternProperties["^z"]'),
    ]


def test_keys_that_are_not_identifiers_are_written_as_json_strings(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    properties: dict[str, Any] = {"0": {}, 'say "hi"': {}, "_ok$1": {}, "ünï": {}}
    linted = lint_one(quiet(obj(properties, []), {}))

    assert [f.lint_path for f in linted.of("JC102")] == [
        '$.schema.properties["0"]',
        '$.schema.properties["say \\"hi\\""]',
        "$.schema.properties._ok$1",
        '$.schema.properties["ünï"]',
    ]


def test_positions_of_escaped_keys_point_at_their_own_value(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a/b": {}, "a~b": {}}, []), {}))

    first, second = linted.of("JC102")
    assert first.pointer == "/schema/properties/a~1b"
    assert (first.line, first.column) == linted.at('"a/b": ', after=True)
    assert second.pointer == "/schema/properties/a~0b"
    assert (second.line, second.column) == linted.at('"a~b": ', after=True)


def test_ref_targets_are_walked_once_in_their_own_place_not_at_the_reference(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"x": {"$ref": "#/$defs/o"}},
        "$defs": {"o": {"type": "object"}},
    }
    linted = lint_one(quiet(schema, {"x": {}}))

    assert _original(linted) == [("JC104", "$.schema.$defs.o")]


def test_keywords_the_original_does_not_walk_raise_no_original_warnings(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj(
        {"a": {"type": "string"}},
        [],
        propertyNames={},
        unevaluatedProperties={},
        dependencies={"a": {}},
    )
    linted = lint_one(quiet(schema, {}, {"a": "x"}))

    assert _original(linted) == []


def test_boolean_sub_schemas_are_skipped_by_the_walk(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": True, "b": {"type": "array", "items": True}}, []), {}, {"a": 1, "b": [1]}))

    assert _original(linted) == []


def test_an_empty_sub_schema_is_reported_once_and_not_descended_into(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"list": {"type": "array", "items": {}}}, []), {}, {"list": [1]}))

    assert _original(linted) == [("JC102", "$.schema.properties.list.items")]


def test_draft_07_tuple_items_are_walked_with_their_index(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{}, {"type": "object"}],
        "additionalItems": {"type": "object", "additionalProperties": False},
    }
    linted = lint_one(quiet(schema, [1, {}]))

    assert _original(linted) == [("JC102", "$.schema.items[0]"), ("JC104", "$.schema.items[1]")]


def test_positions_count_code_points_and_survive_tabs_and_crlf_line_ends(lint_one: LintOne) -> None:
    text = (
        '{\r\n  "examples": [],\r\n  "operations": {"edit": {"enabled": false}},\r\n'
        '\t"schema": {"description": "\U0001f600é", "type": "object", "properties": {"a": {}}}\r\n}\r\n'
    )
    linted = lint_one(text)

    assert [(f.code, f.line, f.column) for f in linted.findings if f.code in ORIGINAL] == [
        ("JC101", 1, 1),
        ("JC104", 4, 12),
        ("JC102", 4, 72),
    ]


# --- hints: the fix beside the TypeScript server's wording ---------------------------------------

CLOSE = 'add "additionalProperties": false to this object schema, so a model cannot add fields of its own'
IGNORE = 'turn the rule off if you close objects this way (ignore = ["JC104"])'


def test_each_original_warning_keeps_its_message_and_says_the_fix_in_its_hint(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "properties": {"open": {"type": "object", "additionalProperties": True}, "any": {}},
    }
    linted = lint_one(quiet(schema))

    said = {f.code: (f.message, f.hint) for f in linted.findings if f.code in ORIGINAL}
    assert said == {
        "JC101": (
            NO_EXAMPLES,
            'add one: "examples": [{"input": "what a user asks for", "output": a document the schema accepts}]',
        ),
        "JC102": (
            EMPTY,
            'give it a "type" and the keywords that describe the value, or write true if any value is meant',
        ),
        "JC103": (
            OPEN_TRUE,
            'list every field in "properties" and set "additionalProperties": false, or give additionalProperties '
            'a schema ({"type": "string"}) when the object is a map of values of one kind',
        ),
        "JC104": (NOT_CLOSED, CLOSE),
    }


def test_lint_json_keeps_the_original_message_in_warnings_and_adds_the_hint_to_findings(
    load_one: LoadOne, quiet: ContractMaker
) -> None:
    result, _ = load_one(quiet({"type": "object", "properties": {"a": {"type": "string"}}}, {"a": "x"}))
    findings = lint_result(result)

    report = lint_report(result, findings, strict=False)

    assert report["warnings"] == [{"contract": "sample", "path": "$.schema", "message": NOT_CLOSED}]
    (closing,) = [f for f in report["findings"] if f["code"] == "JC104"]
    assert (closing["message"], closing["hint"]) == (NOT_CLOSED, CLOSE)


def test_an_object_composed_from_branches_is_told_to_close_with_unevaluated_properties(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "allOf": [{"properties": {"extra": {"type": "string"}}}],
    }
    linted = lint_one(quiet(schema, {"kind": "a"}))

    root, branch = linted.of("JC104")
    assert root.pointer == "/schema"
    assert root.hint == (
        'add "unevaluatedProperties": false, which sees the properties its branches define; '
        '"additionalProperties": false would forbid them'
    )
    assert branch.pointer == "/schema/allOf/0"
    assert branch.hint == (
        'close the object this branch is part of with "unevaluatedProperties": false instead: '
        '"additionalProperties": false here would forbid the properties defined outside this branch'
    )


def test_objects_closed_by_unevaluated_properties_are_told_to_turn_jc104_off(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "allOf": [{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"properties": {"a": {"type": "string"}}}}],
        "unevaluatedProperties": False,
    }
    linted = lint_one(quiet(schema, {"kind": "a"}))

    hints = {f.pointer: f.hint for f in linted.of("JC104")}
    assert hints == {
        "/schema": '"unevaluatedProperties": false already closes this object; ' + IGNORE,
        "/schema/allOf/0/if": 'the object this branch is part of is closed by "unevaluatedProperties": false; '
        + IGNORE,
        "/schema/allOf/0/then": 'the object this branch is part of is closed by "unevaluatedProperties": false; '
        + IGNORE,
    }


def test_a_draft_07_composed_object_is_told_to_list_every_property_since_it_has_no_unevaluated_properties(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "allOf": [{"properties": {"extra": {"type": "string"}}}],
    }
    linted = lint_one(quiet(schema, {"kind": "a"}))

    assert {f.hint for f in linted.of("JC104")} == {
        'add "additionalProperties": false to the whole object and list in its "properties" every property '
        "its branches define (additionalProperties sees only the properties beside it)"
    }


def test_a_map_of_values_of_one_kind_is_told_to_turn_jc104_off_if_it_is_meant(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "object", "additionalProperties": {"type": "string"}}, {"k": "v"}))

    assert linted.one("JC104").hint == (
        "additionalProperties is a schema, so this object is a map of such values: if that is meant, turn the "
        'rule off (ignore = ["JC104"]); otherwise list the fields in "properties" and set "additionalProperties": false'
    )


def test_unevaluated_properties_closes_nothing_in_draft_07(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "unevaluatedProperties": False,
    }
    linted = lint_one(quiet(schema, {"a": "x"}))

    assert linted.one("JC104").hint == CLOSE
    assert "JC110" in linted.codes  # the keyword itself is unknown there


def test_alternatives_of_an_untyped_any_of_are_whole_objects_and_get_the_plain_fix(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "null"}]}
    linted = lint_one(quiet(schema, None))

    assert linted.one("JC104").hint == CLOSE
