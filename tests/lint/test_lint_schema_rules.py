"""Schema rules JC110 and JC112-JC121: each triggered once and kept quiet by a near-identical schema."""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.findings import Finding
from json_contracts.findings.catalogue import CATALOGUE, Code
from tests.support.lint import ContractMaker, LintOne, LoadOne

UNSAT_TAIL = "; every document will fail validation — relax or remove the conflicting keyword"


def _assert_kind(finding: Finding, code: str, severity: str) -> None:
    assert finding.code == code
    assert finding.severity == severity
    assert CATALOGUE[Code(code)].severity == severity or code == "JC112"


# --- JC110 unknown-keyword ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typo", "suggestion"),
    [("maxlength", "maxLength"), ("require", "required"), ("additionalproperties", "additionalProperties")],
)
def test_a_misspelt_keyword_warns_jc110_with_a_did_you_mean(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker, typo: str, suggestion: str
) -> None:
    prop = {"type": "string", typo: 3}
    linted = lint_one(quiet(obj({"a": prop}, ["a"]), {"a": "x"}))

    finding = linted.one("JC110")
    _assert_kind(finding, "JC110", "warning")
    assert finding.message == (
        f'Unknown 2020-12 keyword "{typo}" is ignored by the validator; did you mean "{suggestion}"?'
    )
    assert finding.lint_path == f"$.schema.properties.a.{typo}"
    assert finding.pointer == f"/schema/properties/a/{typo}"
    assert (finding.line, finding.column) == linted.at(f'"{typo}"')


def test_correctly_spelt_keywords_and_x_extensions_do_not_warn_jc110(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    prop = {"type": "string", "maxLength": 3, "x-maxlength": 3, "x-ui": {"widget": "text"}}
    assert "JC110" not in lint_one(quiet(obj({"a": prop}, ["a"]), {"a": "x"})).codes


def test_a_property_named_like_a_keyword_typo_is_not_a_keyword(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"maxlength": {"type": "integer"}}, ["maxlength"]), {"maxlength": 1}))

    assert "JC110" not in linted.codes


def test_an_unknown_keyword_with_no_close_match_says_how_to_mark_an_extension(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({}, [], frobnicate=True), {}))

    assert linted.one("JC110").message == (
        'Unknown 2020-12 keyword "frobnicate" is ignored by the validator; remove it, or prefix extensions with "x-"'
    )


def test_a_draft_07_schema_names_its_dialect_in_jc110(lint_one: LintOne, quiet: ContractMaker) -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "string", "maxlength": 2}
    linted = lint_one(quiet(schema, "ab"))

    assert linted.one("JC110").message == (
        'Unknown draft-07 keyword "maxlength" is ignored by the validator; did you mean "maxLength"?'
    )


MOVE_INTO_PROPERTIES = 'it looks like a property\'s schema: move it into "properties" ("properties": {"street": {...}})'


def test_a_property_schema_written_beside_properties_is_told_to_move_into_properties(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"city": {"type": "string"}}, [], street={"type": "string", "maxLength": 80})
    linted = lint_one(quiet(schema, {"city": "Oslo"}))

    finding = linted.one("JC110")
    assert finding.message == ('Unknown 2020-12 keyword "street" is ignored by the validator; ' + MOVE_INTO_PROPERTIES)
    assert finding.pointer == "/schema/street"
    assert (finding.line, finding.column) == linted.at('"street"')


def test_a_property_schema_in_an_object_schema_without_properties_is_told_to_add_a_properties_object(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "object", "street": {"type": "string"}}, {"street": "Main St"}))

    assert linted.one("JC110").message.endswith(
        '; it looks like a property\'s schema: move it into a "properties" object ("properties": {"street": {...}})'
    )


def test_a_property_schema_that_misspells_no_schema_keyword_is_still_a_property(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    """``types`` is close to ``type``, but ``type`` takes a name, not a schema: the value says it is a property."""
    linted = lint_one(quiet(obj({}, [], types={"type": "array"}), {}))

    assert linted.one("JC110").message.endswith('move it into "properties" ("properties": {"types": {...}})')


def test_a_schema_under_a_near_miss_of_a_schema_keyword_is_that_keyword_misspelt(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "array", "item": {"type": "string"}}, ["a"]))

    assert linted.one("JC110").message.endswith('; did you mean "items"?')


def test_an_untyped_schema_offers_the_move_as_one_of_two_fixes(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"street": {"type": "string"}}, {"street": "Main St"}))

    assert linted.one("JC110").message.endswith(
        '; if "street" is a property, it looks like a property\'s schema: move it into a "properties" object '
        '("properties": {"street": {...}}); otherwise remove it, or prefix extensions with "x-"'
    )


def test_a_property_schema_already_in_properties_is_told_to_merge(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"street": {"type": "string"}}, [], street={"maxLength": 80}), {}))

    assert linted.one("JC110").message.endswith(
        '; "properties" already has a "street": merge this schema into it, or remove this one'
    )


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "street": {"type": "string"}},  # a string has no properties
        {"type": "object", "additionalProperties": False, "street": {"note": "not a schema"}},
        {"type": "object", "additionalProperties": False, "street": "text"},
    ],
)
def test_an_unknown_keyword_without_the_evidence_of_a_property_gets_the_general_fix(
    lint_one: LintOne, quiet: ContractMaker, schema: dict[str, Any]
) -> None:
    linted = lint_one(quiet(schema))

    assert linted.one("JC110").message.endswith('; remove it, or prefix extensions with "x-"')


# --- JC112 required-not-defined ----------------------------------------------------------------


def test_a_required_name_missing_from_properties_of_an_open_object_warns_jc112(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a", "stray_name"],
        "additionalProperties": {"type": "string"},
    }
    linted = lint_one(quiet(schema, {"a": "x", "stray_name": "y"}))

    finding = linted.one("JC112")
    _assert_kind(finding, "JC112", "warning")
    assert finding.message == (
        'Required property "stray_name" is not in properties, so it accepts any value; add it to properties with a type'
    )
    assert finding.lint_path == "$.schema.required[1]"
    assert (finding.line, finding.column) == linted.at('"stray_name"', occurrence=1)


def test_a_required_name_missing_from_a_closed_object_is_an_error_jc112(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string"}}, ["a", "stray_name"])))

    finding = linted.one("JC112")
    _assert_kind(finding, "JC112", "error")
    assert finding.message == (
        'Required property "stray_name" is not in properties and additionalProperties is false, so no object '
        "can satisfy this schema; add it to properties or remove it from required"
    )
    assert finding.pointer == "/schema/required/1"
    assert (finding.line, finding.column) == linted.at('"stray_name"')


def test_a_required_name_that_misspells_a_property_of_a_closed_object_suggests_it(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"size": {"type": "string"}}, ["szie"])))

    finding = linted.one("JC112")
    assert finding.message == (
        'Required property "szie" is not in properties and additionalProperties is false, so no object '
        'can satisfy this schema; did you mean "size"?'
    )
    assert (finding.line, finding.column) == linted.at('"szie"')


def test_a_required_name_that_misspells_a_property_of_an_open_object_suggests_it(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["Colour"]}
    linted = lint_one(quiet(schema, {"colour": "red", "Colour": "red"}), ignore=["JC104"])

    assert linted.one("JC112").message == (
        'Required property "Colour" is not in properties, so it accepts any value; did you mean "colour"?'
    )


def test_a_required_name_listed_in_properties_does_not_warn_jc112(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "stray_name": {"type": "string"}}
    linted = lint_one(quiet(obj(props, ["a", "stray_name"]), {"a": "x", "stray_name": "y"}))

    assert "JC112" not in linted.codes


def test_a_required_name_defined_in_an_allof_branch_does_not_warn_jc112(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a", "b"],
        "allOf": [{"properties": {"b": {"type": "string"}}}],
        "unevaluatedProperties": False,
    }
    assert "JC112" not in lint_one(quiet(schema, {"a": "x", "b": "y"})).codes


def test_a_required_name_matched_by_pattern_properties_does_not_warn_jc112(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({}, ["b1"], patternProperties={"^b[0-9]$": {"type": "string"}})
    assert "JC112" not in lint_one(quiet(schema, {"b1": "x"})).codes


def test_a_closed_object_with_required_names_but_no_properties_is_an_error(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "object", "additionalProperties": False, "required": ["a"]}))

    assert [(f.code, f.severity, f.pointer) for f in linted.findings if f.severity == "error"] == [
        ("JC112", "error", "/schema/required/0")
    ]
    assert linted.one("JC112").message.startswith(
        'Required property "a" is not in properties and additionalProperties is false'
    )


def test_bare_required_lists_in_open_branches_are_a_normal_idiom_and_do_not_warn_jc112(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "b": {"type": "string"}}
    schema = obj(props, [], anyOf=[{"required": ["a"]}, {"required": ["b"]}])
    assert "JC112" not in lint_one(quiet(schema, {"a": "x"}, {"b": "y"})).codes


# --- JC113 enum-type-mismatch ------------------------------------------------------------------


def test_an_enum_value_of_the_wrong_type_is_an_error_jc113(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "enum": ["x", 12345]}}, ["a"]), {"a": "x"}))

    finding = linted.one("JC113")
    _assert_kind(finding, "JC113", "error")
    assert finding.message == (
        "Enum value 12345 is integer but the type is string, so it can never validate; fix the value or the type"
    )
    assert finding.lint_path == "$.schema.properties.a.enum[1]"
    assert (finding.line, finding.column) == linted.at("12345")


def test_a_const_of_the_wrong_type_is_an_error_jc113(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"n": {"type": "integer", "const": "7"}}, []), {}))

    finding = linted.one("JC113")
    assert finding.message == (
        'const "7" is string but the type is integer, so nothing can validate; fix the const or the type'
    )
    assert finding.pointer == "/schema/properties/n/const"
    assert (finding.line, finding.column) == linted.at('"const": ', after=True)


def test_a_boolean_in_an_integer_enum_is_a_type_mismatch(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"type": "integer", "enum": [1, True]}, 1))

    assert [f.pointer for f in linted.of("JC113")] == ["/schema/enum/1"]
    assert linted.one("JC113").message.startswith("Enum value true is boolean but the type is integer")


MOVE_ENUM = 'the enum sits on the object, not on its property: move "enum" into properties.size'


def test_an_enum_written_on_the_object_instead_of_its_property_is_told_to_move(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"size": {"type": "string"}, "count": {"type": "integer"}}, [], enum=["s", "m"])
    linted = lint_one(quiet(schema), ignore=["JC121"])

    first, second = linted.of("JC113")
    assert first.message == ('Enum value "s" is string but the type is object, so it can never validate; ' + MOVE_ENUM)
    assert second.message.endswith("; " + MOVE_ENUM)
    assert [f.pointer for f in linted.of("JC113")] == ["/schema/enum/0", "/schema/enum/1"]
    assert (first.line, first.column) == linted.at('"s"')


def test_jc121_on_a_misplaced_enum_gives_the_same_fix_as_jc113(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"size": {"type": "string"}}, [], enum=["s", "m"])))

    assert linted.one("JC121").message == (
        "No JSON value can satisfy this schema (no enum value satisfies the other keywords); every document "
        "will fail validation — " + MOVE_ENUM
    )


def test_a_const_written_on_the_object_is_told_to_move_into_the_property_it_fits(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"kind": {"type": "string"}, "n": {"type": "integer"}}, [], const=3)
    linted = lint_one(quiet(schema), ignore=["JC121"])

    assert linted.one("JC113").message == (
        "const 3 is integer but the type is object, so nothing can validate; "
        'the const sits on the object, not on its property: move "const" into properties.n'
    )


def test_a_misplaced_enum_names_every_property_it_fits(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"size": {"type": "string"}, "colour": {"type": ["string", "null"]}}, [], enum=["s"])
    linted = lint_one(quiet(schema), ignore=["JC121"])

    assert linted.one("JC113").message.endswith('move "enum" into properties.size or properties.colour')


def test_a_misplaced_enum_that_fits_many_properties_names_none(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {name: {"type": "string"} for name in ("a", "b", "c", "d")}
    linted = lint_one(quiet(obj(props, [], enum=["s"])), ignore=["JC121"])

    assert linted.one("JC113").message.endswith('move "enum" into the property it restricts')


def test_a_misplaced_enum_moves_into_the_one_untyped_property_there_is(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"size": {"maxLength": 3}}, [], enum=["s"])), ignore=["JC121"])

    assert linted.one("JC113").message.endswith('move "enum" into properties.size')


@pytest.mark.parametrize(
    "schema",
    [
        # no property takes strings
        {"type": "object", "additionalProperties": False, "properties": {"n": {"type": "integer"}}, "enum": ["s"]},
        # one value is an object, so the enum may be meant for the object itself
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {"size": {"type": "string"}},
            "enum": [{}, "s"],
        },
        # no properties to move it into
        {"type": "object", "additionalProperties": False, "enum": ["s"]},
        # a string schema has no properties to hold it, whatever it lists
        {"type": "string", "properties": {"n": {"type": "integer"}}, "enum": [1]},
        # two untyped properties: which one is a guess
        {"type": "object", "additionalProperties": False, "properties": {"a": {}, "b": {}}, "enum": ["s"]},
    ],
)
def test_an_enum_on_an_object_without_the_evidence_of_a_home_gets_the_general_fix(
    lint_one: LintOne, quiet: ContractMaker, schema: dict[str, Any]
) -> None:
    linted = lint_one(quiet(schema), ignore=["JC121"])

    assert linted.of("JC113")
    assert all(f.message.endswith("; fix the value or the type") for f in linted.of("JC113"))


def test_enum_and_const_values_of_the_declared_types_do_not_warn_jc113(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {
        "a": {"type": "string", "enum": ["x", "y"]},
        "n": {"type": "number", "enum": [1, 2.5]},
        "i": {"type": "integer", "const": 3.0},
        "m": {"type": ["string", "null"], "enum": ["x", None]},
    }
    linted = lint_one(quiet(obj(props, []), {"a": "x", "n": 1, "i": 3, "m": "x"}, {"a": "y", "n": 2.5, "m": None}))

    assert "JC113" not in linted.codes


# --- JC114 duplicate-enum-value ----------------------------------------------------------------


def test_a_repeated_enum_value_warns_jc114_at_the_repeat(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    prop = {"type": "string", "enum": ["low", "high", "low"]}
    linted = lint_one(quiet(obj({"p": prop}, ["p"]), {"p": "low"}, {"p": "high"}))

    finding = linted.one("JC114")
    _assert_kind(finding, "JC114", "warning")
    assert finding.message == 'Enum value "low" is listed twice; remove the repeat'
    assert finding.lint_path == "$.schema.properties.p.enum[2]"
    assert (finding.line, finding.column) == linted.at('"low"', occurrence=2)


def test_enum_values_equal_as_json_are_duplicates_whatever_the_key_order_or_number_spelling(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    text = (
        '{"schema": {"enum": [1, 1.0, true, {"a": 1, "b": 2}, {"b": 2, "a": 1}]},\n'
        ' "operations": {"edit": {"enabled": false}},\n'
        ' "examples": [{"input": "i", "output": 1}, {"input": "j", "output": true},'
        ' {"input": "k", "output": {"a": 1, "b": 2}}]}\n'
    )
    linted = lint_one(text)

    assert [f.pointer for f in linted.of("JC114")] == ["/schema/enum/1", "/schema/enum/4"]
    assert (linted.of("JC114")[1].line, linted.of("JC114")[1].column) == linted.at('{"b": 2, "a": 1}')


def test_distinct_enum_values_do_not_warn_jc114(lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker) -> None:
    prop = {"type": "string", "enum": ["low", "high"]}
    assert "JC114" not in lint_one(quiet(obj({"p": prop}, ["p"]), {"p": "low"}, {"p": "high"})).codes


# --- JC115 contradictory-bounds ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("low_key", "low", "high_key", "high", "kind"),
    [
        ("minLength", 5, "maxLength", 2, "string"),
        ("minimum", 5, "maximum", 1.5, "number"),
        ("minItems", 3, "maxItems", 1, "array"),
        ("minProperties", 2, "maxProperties", 1, "object"),
    ],
)
def test_a_lower_bound_above_its_upper_bound_is_an_error_jc115(
    lint_one: LintOne,
    quiet: ContractMaker,
    obj: ContractMaker,
    low_key: str,
    low: float,
    high_key: str,
    high: float,
    kind: str,
) -> None:
    linted = lint_one(quiet(obj({"v": {"type": kind, low_key: low, high_key: high}}, []), {}))

    finding = linted.one("JC115")
    _assert_kind(finding, "JC115", "error")
    assert finding.message == (
        f"{low_key} {low} is greater than {high_key} {high}, so no {kind} satisfies both; "
        f"lower {low_key} or raise {high_key}"
    )
    assert finding.lint_path == f"$.schema.properties.v.{low_key}"
    assert (finding.line, finding.column) == linted.at(f'"{low_key}": ', after=True)


def test_equal_exclusive_bounds_are_contradictory(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"type": "number", "exclusiveMinimum": 5, "exclusiveMaximum": 5}))

    assert linted.one("JC115").message == (
        "exclusiveMinimum 5 is not below exclusiveMaximum 5, so no number satisfies both; "
        "lower exclusiveMinimum or raise exclusiveMaximum"
    )


@pytest.mark.parametrize(
    "bounds",
    [
        {"type": "string", "minLength": 2, "maxLength": 2},
        {"type": "number", "minimum": 5, "maximum": 5},
        {"type": "array", "minItems": 1, "maxItems": 3},
        {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2},
    ],
)
def test_bounds_that_leave_room_for_a_value_do_not_warn_jc115(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker, bounds: dict[str, Any]
) -> None:
    assert "JC115" not in lint_one(quiet(obj({"v": bounds}, []), {})).codes


# --- JC116 invalid-default ---------------------------------------------------------------------


def test_a_default_that_fails_its_own_schema_warns_jc116(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "default": 3}}, ["a"]), {"a": "x"}))

    finding = linted.one("JC116")
    _assert_kind(finding, "JC116", "warning")
    assert finding.message == (
        "Schema default value does not validate against its own schema: /: must be string (type); "
        "fix the value or the schema"
    )
    assert finding.lint_path == "$.schema.properties.a.default"
    assert (finding.line, finding.column) == linted.at('"default": ', after=True)


def test_a_default_checked_through_a_local_ref_still_warns_jc116(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    schema = obj({"a": {"$ref": "#/$defs/s", "default": 3}}, ["a"], **{"$defs": {"s": {"type": "string"}}})
    assert lint_one(quiet(schema, {"a": "x"})).codes.count("JC116") == 1


def test_a_default_that_fits_its_schema_does_not_warn_jc116(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    assert "JC116" not in lint_one(quiet(obj({"a": {"type": "string", "default": "3"}}, ["a"]), {"a": "x"})).codes


# --- JC117 invalid-schema-example --------------------------------------------------------------


def test_a_schema_examples_value_that_fails_its_schema_warns_jc117(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "examples": ["ok", 31337]}}, ["a"]), {"a": "x"}))

    finding = linted.one("JC117")
    _assert_kind(finding, "JC117", "warning")
    assert finding.message == (
        "Schema examples[1] value does not validate against its own schema: /: must be string (type); "
        "fix the value or the schema"
    )
    assert finding.lint_path == "$.schema.properties.a.examples[1]"
    assert (finding.line, finding.column) == linted.at("31337")


def test_schema_examples_that_fit_their_schema_do_not_warn_jc117(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "examples": ["ok", "31337"]}}, ["a"]), {"a": "x"}))
    assert "JC117" not in linted.codes


# --- JC118 unknown-format ----------------------------------------------------------------------


def test_an_unknown_format_warns_jc118_with_a_did_you_mean(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "format": "emial"}}, ["a"]), {"a": "x"}))

    finding = linted.one("JC118")
    _assert_kind(finding, "JC118", "warning")
    assert finding.message == 'Unknown format "emial" is not checked, so any string passes; did you mean "email"?'
    assert finding.lint_path == "$.schema.properties.a.format"
    assert (finding.line, finding.column) == linted.at('"emial"')


def test_an_unknown_format_with_no_close_name_suggests_a_pattern(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"type": "string", "format": "zzzzqq"}, "x"))

    assert linted.one("JC118").message.endswith("; use a known format or a pattern")


@pytest.mark.parametrize("name", ["email", "date-time", "uri", "uuid", "date"])
def test_a_known_format_does_not_warn_jc118(lint_one: LintOne, quiet: ContractMaker, name: str) -> None:
    assert "JC118" not in lint_one(quiet({"type": "string", "format": name})).codes


# --- JC119 invalid-pattern (a load error) ------------------------------------------------------


def test_an_invalid_ecma_pattern_fails_loading_with_jc119_at_the_pattern(
    load_one: LoadOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    result, text = load_one(quiet(obj({"a": {"type": "string", "pattern": "(abc"}}, ["a"]), {"a": "abc"}))

    assert result.contracts == {}
    (failure,) = result.failures
    assert failure.code == "JC119"
    assert failure.severity == "error" == CATALOGUE[Code("JC119")].severity
    assert failure.message.startswith('Invalid JSON Schema: data/properties/a/pattern must match format "regex" (')
    assert failure.message.endswith("); write the pattern as an ECMA-262 regular expression")
    offset = text.index('"(abc"')
    assert (failure.line, failure.column) == (text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset))


def test_a_python_only_regex_syntax_is_not_an_ecma_pattern(load_one: LoadOne, quiet: ContractMaker) -> None:
    result, _ = load_one(quiet({"type": "string", "pattern": "(?P<n>a)"}))

    assert [f.code for f in result.failures] == ["JC119"]


@pytest.mark.parametrize("pattern", ["(abc)", "^\\p{L}+$", "^[a-z]{2,}$"])
def test_a_valid_ecma_pattern_loads_without_jc119(lint_one: LintOne, quiet: ContractMaker, pattern: str) -> None:
    linted = lint_one(quiet({"type": "string", "pattern": pattern}))
    assert "JC119" not in linted.codes


# --- JC120 backtracking-pattern ----------------------------------------------------------------


def test_a_nested_unbounded_repetition_warns_jc120(lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "pattern": "^(a+)+$"}}, ["a"]), {"a": "aaa"}))

    finding = linted.one("JC120")
    _assert_kind(finding, "JC120", "warning")
    assert finding.message == (
        'Pattern "^(a+)+$" can take exponential time on a backtracking engine: the repeated "(a+)+" can go on '
        'repeating its inner "a+" or start a new repetition, so it matches the same text in many ways, and a '
        'near-miss input such as "aaaa…!" stalls it; rewrite it so each repetition has one way to match: drop '
        "the inner quantifier (`(a+)+` is `a+`) or start each repetition with a delimiter the repeated part "
        "cannot match (`(-[a-z]+)*`)"
    )
    assert finding.lint_path == "$.schema.properties.a.pattern"
    assert (finding.line, finding.column) == linted.at('"^(a+)+$"')


def test_a_backtracking_pattern_properties_key_is_reported_at_the_key(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({}, [], patternProperties={"^(\\w*)*$": {"type": "string"}}), {}))

    finding = linted.one("JC120")
    assert finding.lint_path == '$.schema.patternProperties["^(\\\\w*)*$"]'
    assert (finding.line, finding.column) == linted.at('"^(\\\\w*)*$"')


@pytest.mark.parametrize("pattern", ["^(a+)$", "^(ab)+$", "^a+b+$", "^[(a+)+]$", "^\\(a+\\)+$"])
def test_patterns_without_nested_unbounded_repetition_do_not_warn_jc120(
    lint_one: LintOne, quiet: ContractMaker, pattern: str
) -> None:
    assert "JC120" not in lint_one(quiet({"type": "string", "pattern": pattern})).codes


def test_a_bounded_inner_repetition_is_not_called_unbounded(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC120" not in lint_one(quiet({"type": "string", "pattern": "^([a-z]{2,5}\\.)+$"})).codes


def test_an_open_ended_counted_repetition_is_unbounded(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC120" in lint_one(quiet({"type": "string", "pattern": "^([a-z]{2,})+$"})).codes


@pytest.mark.parametrize("pattern", ["^(a|aa)+$", "(a|a)*", "(.*a){20}", "(x|y+)*", "^(\\w*)*$"])
def test_overlapping_alternatives_and_repeated_unbounded_groups_warn_jc120(
    lint_one: LintOne, quiet: ContractMaker, pattern: str
) -> None:
    assert "JC120" in lint_one(quiet({"type": "string", "pattern": pattern})).codes


@pytest.mark.parametrize(
    "pattern",
    ["^[a-z0-9]+(-[a-z0-9]+)*$", "^(\\d+\\.)*\\d+$", "^([a-z]{2,}\\.)+$", "^(cat|dog)+$", "^(?:ab|cd)*$"],
)
def test_repetitions_that_a_delimiter_or_distinct_starts_keep_linear_do_not_warn_jc120(
    lint_one: LintOne, quiet: ContractMaker, pattern: str
) -> None:
    assert "JC120" not in lint_one(quiet({"type": "string", "pattern": pattern})).codes


def test_a_polynomial_email_pattern_warns_jc120_with_its_degree_and_the_rewrite(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "string", "pattern": "\\S+@\\S+\\.\\S+"}))

    finding = linted.one("JC120")
    _assert_kind(finding, "JC120", "warning")
    assert finding.message.startswith('Pattern "\\\\S+@\\\\S+\\\\.\\\\S+" can take polynomial time (degree 3)')
    assert 'a near-miss input such as "a@a@… " stalls it' in finding.message
    assert "`\\S+@\\S+` becomes `[^\\s@]+@[^\\s@]+`" in finding.message


def test_the_suggested_email_rewrite_does_not_warn_jc120(lint_one: LintOne, quiet: ContractMaker) -> None:
    pattern = "^[^\\s@]+@[^\\s@.]+(\\.[^\\s@.]+)+$"
    assert "JC120" not in lint_one(quiet({"type": "string", "pattern": pattern})).codes


def test_a_long_pattern_is_quoted_in_part_with_its_length(lint_one: LintOne, quiet: ContractMaker) -> None:
    pattern = "x" * 300 + "(a+)+"
    finding = lint_one(quiet({"type": "string", "pattern": pattern})).one("JC120")
    assert finding.message.startswith('Pattern "' + "x" * 200 + '"... (305 characters) can take exponential time')


# --- JC121 unsatisfiable-schema ----------------------------------------------------------------


def test_an_enum_no_value_of_which_fits_the_other_keywords_is_unsatisfiable(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "string", "enum": ["a"], "maxLength": 0}))

    finding = linted.one("JC121")
    _assert_kind(finding, "JC121", "error")
    assert finding.message == (
        "No JSON value can satisfy this schema (no enum value satisfies the other keywords)" + UNSAT_TAIL
    )
    assert finding.lint_path == "$.schema.enum"
    assert (finding.line, finding.column) == linted.at('"enum": ', after=True)


def test_an_enum_with_a_value_that_fits_is_satisfiable(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC121" not in lint_one(quiet({"type": "string", "enum": ["a"], "maxLength": 1}, "a")).codes


def test_all_of_with_a_disjoint_type_is_unsatisfiable_and_names_both_types_as_json(
    lint_one: LintOne, quiet: ContractMaker
) -> None:
    linted = lint_one(quiet({"type": "string", "allOf": [{"type": "integer"}]}))

    finding = linted.one("JC121")
    assert finding.severity == "error"
    assert finding.message == (
        'No JSON value can satisfy this schema (type ["integer"] does not overlap type ["string"])' + UNSAT_TAIL
    )
    assert finding.pointer == "/schema/allOf/0/type"
    assert (finding.line, finding.column) == linted.at('"integer"')


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "number", "allOf": [{"type": "integer"}]},
        {"type": "integer", "allOf": [{"type": "number"}]},
        {"type": ["string", "null"], "allOf": [{"type": "null"}]},
    ],
)
def test_all_of_with_overlapping_types_is_satisfiable(
    lint_one: LintOne, quiet: ContractMaker, schema: dict[str, Any]
) -> None:
    assert "JC121" not in lint_one(quiet(schema)).codes


def test_not_with_an_empty_schema_is_unsatisfiable(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"type": "string", "not": {}}))

    finding = linted.one("JC121")
    assert finding.message == "No JSON value can satisfy this schema (not forbids every value)" + UNSAT_TAIL
    assert finding.lint_path == "$.schema.not"
    assert (finding.line, finding.column) == linted.at('"not": ', after=True)


def test_not_with_a_real_schema_is_satisfiable(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC121" not in lint_one(quiet({"type": "string", "not": {"const": "x"}}, "y")).codes


def test_an_unsatisfiable_required_property_makes_the_whole_schema_unsatisfiable(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string", "enum": ["a"], "maxLength": 0}}, ["a"])))

    finding = linted.one("JC121")
    assert finding.message == (
        'No JSON value can satisfy this schema (required property "a": no enum value satisfies the other keywords)'
        + UNSAT_TAIL
    )
    assert finding.pointer == "/schema/properties/a/enum"


def test_any_of_whose_every_branch_is_unsatisfiable_is_unsatisfiable(lint_one: LintOne, quiet: ContractMaker) -> None:
    linted = lint_one(quiet({"anyOf": [{"type": "string", "not": {}}, False]}))

    finding = linted.one("JC121")
    assert finding.message == "No JSON value can satisfy this schema (no branch of anyOf can be satisfied)" + UNSAT_TAIL
    assert finding.pointer == "/schema/anyOf"


def test_any_of_with_one_satisfiable_branch_is_satisfiable(lint_one: LintOne, quiet: ContractMaker) -> None:
    assert "JC121" not in lint_one(quiet({"anyOf": [{"type": "string", "not": {}}, {"type": "null"}]}, None)).codes


OPTIONAL_TAIL = (
    "so a document that sets it always fails validation; "
    "relax or remove the conflicting keyword, or remove the property"
)


def test_an_optional_property_that_can_never_be_set_warns_jc121_at_the_cause(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    props = {"a": {"type": "string"}, "k": {"type": "string", "allOf": [{"type": "integer"}]}}
    linted = lint_one(quiet(obj(props, ["a"]), {"a": "x"}))

    finding = linted.one("JC121")
    # documents stay possible, so a warning; the whole schema is an error (the catalogue's severity)
    assert (finding.severity, CATALOGUE[Code.UNSATISFIABLE_SCHEMA].severity) == ("warning", "error")
    assert finding.message == (
        'Optional property "k" can never be set (type ["integer"] does not overlap type ["string"]), ' + OPTIONAL_TAIL
    )
    assert finding.pointer == "/schema/properties/k/allOf/0/type"
    assert (finding.line, finding.column) == linted.at('"integer"')


def test_an_optional_object_whose_required_property_can_never_be_set_is_reported_once(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker
) -> None:
    inner = obj({"b": {"type": "string", "enum": ["long"], "maxLength": 2}, "c": {"type": "string"}}, ["b"])
    linted = lint_one(quiet(obj({"a": {"type": "string"}, "o": inner}, ["a"]), {"a": "x"}))

    finding = linted.one("JC121")
    assert finding.message.startswith(
        'Optional property "o" can never be set (required property "b": no enum value satisfies the other keywords)'
    )
    assert finding.pointer == "/schema/properties/o/properties/b/enum"


@pytest.mark.parametrize(
    "prop",
    [
        False,  # the usual ways to forbid a property
        {"not": {}},
        {"not": True},
        {"type": "integer", "minimum": 5, "maximum": 1},  # JC115 says it
        {"type": "string", "const": 5},  # JC113 says it
        {"type": "string", "enum": [1, 2]},
        {"type": "string", "allOf": [{"type": ["string", "null"]}]},  # satisfiable
    ],
)
def test_an_optional_property_forbidden_on_purpose_or_reported_by_another_rule_is_not_jc121(
    lint_one: LintOne, quiet: ContractMaker, obj: ContractMaker, prop: Any
) -> None:
    linted = lint_one(quiet(obj({"a": {"type": "string"}, "p": prop}, ["a"]), {"a": "x"}))

    assert "JC121" not in linted.codes
