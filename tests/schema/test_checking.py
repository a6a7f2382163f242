"""Dialect choice (draft-07 or 2020-12, as the TypeScript server allows) and schema checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from json_contracts.findings import Finding
from json_contracts.schema.checking import check_schema
from json_contracts.schema.dialects import detect_dialect


@pytest.mark.parametrize(
    ("schema", "dialect"),
    [
        ({}, "2020-12"),
        ({"$schema": "https://json-schema.org/draft/2020-12/schema"}, "2020-12"),
        ({"$schema": "https://json-schema.org/draft/2020-12/schema#"}, "2020-12"),
        ({"$schema": "http://json-schema.org/draft-07/schema#"}, "draft-07"),
        ({"$schema": "http://json-schema.org/draft-07/schema"}, "draft-07"),
    ],
)
def test_dialect_defaults_to_2020_12_and_honours_draft_07(schema: dict[str, Any], dialect: str) -> None:
    assert detect_dialect(schema) == dialect


def test_an_explicit_null_schema_uri_is_not_a_string() -> None:
    problem = detect_dialect({"$schema": None})
    assert isinstance(problem, Finding)
    assert problem.message == "Invalid JSON Schema: $schema must be a string when present"
    assert problem.pointer == "/$schema"


@pytest.mark.parametrize("uri", ["https://json-schema.org/draft/2019-09/schema", "http://json-schema.org/schema#", ""])
def test_unsupported_dialect_message_names_the_uri(uri: str) -> None:
    problem = detect_dialect({"$schema": uri})
    assert isinstance(problem, Finding)
    assert problem.message == f"Unsupported JSON Schema dialect: {uri}. Supported dialects are draft-07 and 2020-12."


@pytest.mark.parametrize("uri", ["HTTP://JSON-SCHEMA.ORG/DRAFT-07/SCHEMA#", "urn:whatever:2020-12"])
def test_uris_that_only_mention_a_dialect_are_still_refused(uri: str) -> None:
    # The TypeScript server passes its case-insensitive dialect test and then fails the meta-schema lookup.
    problem = detect_dialect({"$schema": uri})
    assert isinstance(problem, Finding)
    assert uri in problem.message


def test_meta_schema_errors_are_prefixed_and_point_at_the_keyword() -> None:
    problem = check_schema({"type": "object", "required": "a"}, "2020-12")
    assert problem is not None
    assert (
        problem.message
        == 'Invalid JSON Schema: /required: "required" must be a list of property names: write "required": ["a"]'
    )
    assert problem.pointer == "/required"
    assert problem.code == "JC019"


def test_array_items_is_not_2020_12_but_is_draft_07() -> None:
    problem = check_schema({"items": [{}]}, "2020-12")
    assert problem is not None
    assert problem.message == (
        'Invalid JSON Schema: /items: the array form of "items" is draft-07\'s; in 2020-12 write "prefixItems": '
        '[...] for a schema per position, or "items": {...} for one schema for every item'
    )
    assert check_schema({"items": [{}]}, "draft-07") is None


# --- meta-schema errors, one sentence per problem ---------------------------------------------------

_TYPES = "use one of string, number, integer, boolean, object, array, null"


@pytest.mark.parametrize(
    ("schema", "pointer", "sentence"),
    [
        (
            {"properties": {"a": {"type": "strin"}}},
            "/properties/a/type",
            f'/properties/a/type: "strin" is not a JSON Schema type: {_TYPES}; did you mean "string"?',
        ),
        ({"type": "int"}, "/type", f'/type: "int" is not a JSON Schema type: {_TYPES}; did you mean "integer"?'),
        ({"type": "String"}, "/type", f'/type: "String" is not a JSON Schema type: {_TYPES}; did you mean "string"?'),
        (
            {"type": "date"},
            "/type",
            '/type: "date" is not a JSON Schema type; write "type": "string" with "format": "date"',
        ),
        ({"type": "any"}, "/type", '/type: "any" is not a JSON Schema type; leave "type" out to accept any value'),
        ({"type": "zzz"}, "/type", f'/type: "zzz" is not a JSON Schema type: {_TYPES}'),
        (
            {"type": ["string", "nul"]},
            "/type/1",
            f'/type/1: "nul" is not a JSON Schema type: {_TYPES}; did you mean "null"?',
        ),
        ({"type": ["string", "string"]}, "/type", '/type: "type" lists "string" twice; list each type once'),
        (
            {"type": []},
            "/type",
            '/type: "type": [] allows no value at all; name at least one type, or leave "type" out',
        ),
        (
            {"type": 5},
            "/type",
            '/type: "type" must be a type name or a list of them, such as "string", not the number 5',
        ),
        (
            {"additionalProperties": "false"},
            "/additionalProperties",
            '/additionalProperties: must be a schema (object) or a boolean, not the string "false"; write false '
            "without quotes",
        ),
        (
            {"properties": {"a": "string"}},
            "/properties/a",
            '/properties/a: must be a schema (object) or a boolean, not the string "string"; write {"type": "string"}',
        ),
        (
            {"properties": {"a": "date"}},
            "/properties/a",
            '/properties/a: must be a schema (object) or a boolean, not the string "date"; write {"type": "string", '
            '"format": "date"}',
        ),
        ({"not": 3}, "/not", "/not: must be a schema (object) or a boolean, not the number 3"),
        (
            {"properties": {"a": {"type": "string", "required": True}}},
            "/properties/a/required",
            '/properties/a/required: "required" must be a list of property names, not true: remove it from the '
            'property and add "a" to the "required" list beside "properties" (in the schema at /)',
        ),
        (
            {"required": True},
            "/required",
            '/required: "required" must be a list of property names, not true: write "required": ["name", ...]',
        ),
        ({"required": ["a", "a"]}, "/required", '/required: "required" lists "a" twice; list each name once'),
        ({"required": [1]}, "/required", '/required: every name in "required" must be a string, not the number 1'),
        (
            {"properties": {"a": {}, "required": ["a"]}},
            "/properties/required",
            '/properties/required: "required" is a keyword, not a property: move it out of "properties", to sit '
            "beside it in the object schema",
        ),
        (
            {"properties": {"size": {}, "enum": ["s"]}},
            "/properties/enum",
            '/properties/enum: "enum" is a keyword, not a property: "properties" maps each property name to its '
            'schema, so write it inside a property\'s schema, such as "properties": {"size": {"enum": ...}}',
        ),
        (
            {"properties": ["a", "b"]},
            "/properties",
            '/properties: "properties" maps each property name to its schema, not a list of names: write '
            '{"a": {...}, "b": {...}}',
        ),
        ({"$defs": []}, "/$defs", '/$defs: "$defs" must be an object that maps each name to a schema, not an array'),
        (
            {"enum": "low"},
            "/enum",
            '/enum: "enum" must be a list of the allowed values, not the string "low": write "enum": ["low"]',
        ),
        ({"minLength": -1}, "/minLength", '/minLength: "minLength" must be 0 or more, not -1'),
        (
            {"maxItems": 1.5},
            "/maxItems",
            '/maxItems: "maxItems" must be a whole number, 0 or more, not the number 1.5',
        ),
        (
            {"maxLength": "80"},
            "/maxLength",
            '/maxLength: "maxLength" must be a whole number, 0 or more, not the string "80"; write 80 without quotes',
        ),
        (
            {"minimum": "0"},
            "/minimum",
            '/minimum: "minimum" must be a number, not the string "0"; write 0 without quotes',
        ),
        ({"multipleOf": 0}, "/multipleOf", '/multipleOf: "multipleOf" must be greater than 0, not 0'),
        (
            {"uniqueItems": "true"},
            "/uniqueItems",
            '/uniqueItems: "uniqueItems" must be true or false, not the string "true"; write true without quotes',
        ),
        ({"pattern": 5}, "/pattern", '/pattern: "pattern" must be a string, not the number 5'),
        ({"format": True}, "/format", '/format: "format" must be a string, not true'),
        ({"anyOf": []}, "/anyOf", '/anyOf: "anyOf" must list at least one schema'),
        (
            {"oneOf": {"type": "string"}},
            "/oneOf",
            '/oneOf: "oneOf" must be a list of schemas, not an object: put [ ] around the schema',
        ),
        (
            {"examples": "x"},
            "/examples",
            '/examples: "examples" must be a list of sample values: write "examples": ["x"]',
        ),
        (
            {"dependentRequired": {"a": "b"}},
            "/dependentRequired",
            '/dependentRequired: "dependentRequired" maps each property name to a list of property names: write '
            '{"a": ["b"]}',
        ),
        (
            {"$id": "https://example.com/s#part"},
            "/$id",
            '/$id: "$id" must not hold a fragment ("https://example.com/s#part"): name the schema with "$anchor": '
            '"part" and refer to it as "#part"',
        ),
        (
            {"$anchor": "1x"},
            "/$anchor",
            '/$anchor: "$anchor" "1x" is not a plain name: start it with a letter or "_", then letters, digits, '
            '"-", "_" or "."',
        ),
    ],
)
def test_each_meta_schema_mistake_is_one_sentence_naming_the_place_and_the_fix(
    schema: dict[str, Any], pointer: str, sentence: str
) -> None:
    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert (problem.code, problem.pointer, problem.message) == ("JC019", pointer, f"Invalid JSON Schema: {sentence}")


@pytest.mark.parametrize(
    ("schema", "sentence"),
    [
        ({"type": "strin"}, f'/type: "strin" is not a JSON Schema type: {_TYPES}; did you mean "string"?'),
        (
            {"exclusiveMinimum": True, "minimum": 5},
            '/exclusiveMinimum: "exclusiveMinimum": true is the draft-04 form; write the bound itself, '
            '"exclusiveMinimum": 5, and remove "minimum"',
        ),
        (
            {"dependencies": {"a": 3}},
            "/dependencies/a: must be a schema (object) or a boolean, not the number 3",
        ),
        ({"required": "id"}, '/required: "required" must be a list of property names: write "required": ["id"]'),
    ],
)
def test_draft_07_meta_schema_mistakes_are_translated_too(schema: dict[str, Any], sentence: str) -> None:
    problem = check_schema({"$schema": "http://json-schema.org/draft-07/schema#", **schema}, "draft-07")

    assert problem is not None
    assert problem.message == f"Invalid JSON Schema: {sentence}"


def test_a_mistake_repeated_by_the_meta_schema_is_said_once_per_place_in_file_order() -> None:
    # The 2020-12 meta-schema reports a string additionalProperties eight times per place; a type
    # typo three times (enum, type and the anyOf around them).
    schema = {
        "type": "object",
        "additionalProperties": "false",
        "properties": {"b": {"additionalProperties": "false"}, "a": {"type": "strin"}},
    }

    problem = check_schema(schema, "2020-12")

    assert problem is not None
    fix = 'must be a schema (object) or a boolean, not the string "false"; write false without quotes'
    assert problem.message == (
        f"Invalid JSON Schema: /additionalProperties: {fix}. /properties/b/additionalProperties: {fix}. "
        f'/properties/a/type: "strin" is not a JSON Schema type: {_TYPES}; did you mean "string"?'
    )
    assert problem.pointer == "/additionalProperties"


def test_the_first_problem_in_the_file_is_where_the_finding_points() -> None:
    problem = check_schema({"properties": {"a": {"minLength": -1}}, "required": "a"}, "2020-12")

    assert problem is not None
    assert problem.pointer == "/properties/a/minLength"
    assert problem.message.startswith("Invalid JSON Schema: /properties/a/minLength: ")
    assert problem.message.endswith('/required: "required" must be a list of property names: write "required": ["a"]')


def test_a_bad_regex_after_another_problem_is_still_an_invalid_schema() -> None:
    problem = check_schema({"minLength": -1, "pattern": "("}, "2020-12")

    assert problem is not None
    assert problem.code == "JC019"
    assert problem.message.startswith('Invalid JSON Schema: /minLength: "minLength" must be 0 or more, not -1. ')
    assert 'data/pattern must match format "regex" (' in problem.message


def test_a_pattern_that_is_not_ecma_262_is_an_invalid_schema() -> None:
    problem = check_schema({"properties": {"a": {"pattern": "("}}}, "2020-12")
    assert problem is not None
    assert problem.message.startswith('Invalid JSON Schema: data/properties/a/pattern must match format "regex"')
    assert problem.pointer == "/properties/a/pattern"


def test_ecma_only_regex_syntax_is_accepted() -> None:
    assert check_schema({"pattern": "^\\p{Lu}(?<rest>[a-z]+)\\k<rest>$"}, "2020-12") is None


def test_two_schemas_may_share_an_id() -> None:
    schema = {"$id": "https://example.com/ticket.json", "$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}
    assert check_schema(schema, "2020-12") is None
    assert check_schema(dict(schema), "2020-12") is None


# --- schemas that would never finish validating, or that are too deep to check -----------------


@pytest.mark.parametrize(
    "schema",
    [
        {"$ref": "#"},
        {"not": {"$ref": "#"}},
        {"if": {"$ref": "#"}},
        {"allOf": [{"$ref": "#/$defs/a"}], "$defs": {"a": {"anyOf": [{"$ref": "#"}]}}},
    ],
)
def test_a_ref_cycle_that_consumes_nothing_is_refused_with_the_ref_named(schema: dict[str, Any]) -> None:
    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert problem.message.startswith("Invalid JSON Schema: $ref cycle through #")
    assert problem.pointer.endswith("$ref") or problem.pointer.endswith("/0")


def test_a_draft07_definition_that_refers_to_itself_is_refused() -> None:
    problem = check_schema({"definitions": {"a": {"$ref": "#/definitions/a"}}}, "draft-07")

    assert problem is not None
    assert "$ref cycle through #/definitions/a" in problem.message


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"child": {"$ref": "#"}}},
        {
            "$defs": {"n": {"anyOf": [{"type": "null"}, {"properties": {"next": {"$ref": "#/$defs/n"}}}]}},
            "$ref": "#/$defs/n",
        },
        {"type": "array", "items": {"$ref": "#"}},
    ],
)
def test_recursion_through_properties_or_items_is_allowed(schema: dict[str, Any]) -> None:
    assert check_schema(schema, "2020-12") is None


def test_a_schema_nested_beyond_the_limit_is_refused_not_crashed_on() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(100):
        schema = {"type": "object", "properties": {"a": schema}}

    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert problem.message.startswith("Invalid JSON Schema: sub-schemas are nested more than 64 levels deep")
    deeper = check_schema(schema, "2020-12", max_depth=200)  # past the guard: checked, or refused cleanly
    assert deeper is None or deeper.message.startswith("Invalid JSON Schema: the schema is nested too deeply")


def test_two_contracts_sharing_a_self_referencing_schema_load_as_two_clear_failures(tmp_path: Path) -> None:
    from json_contracts.contracts.loading import load_contracts

    text = '{"schema":{"if":{"$ref":"#"}},"examples":[{"input":1,"output":1}]}'
    (tmp_path / "a.json").write_text(text, encoding="utf-8")
    (tmp_path / "b.json").write_text(text, encoding="utf-8")

    result = load_contracts(tmp_path)

    assert [f.code for f in result.failures] == ["JC019", "JC019"]


def test_an_unresolvable_ref_names_the_root_id_as_its_base() -> None:
    problem = check_schema({"$id": "https://example.com/root", "$ref": "#/$defs/missing"}, "2020-12")

    assert problem is not None
    assert problem.message.startswith(
        "Invalid JSON Schema: can't resolve reference #/$defs/missing from id https://example.com/root"
    )


@pytest.mark.parametrize(
    ("schema", "ref", "hint"),
    [
        ({"$defs": {"address": {}}}, "#/definitions/address", "did you mean #/$defs/address?"),
        ({"definitions": {"address": {}}}, "#/$defs/address", "did you mean #/definitions/address?"),
        ({"$defs": {"address": {}}}, "#/$defs/adress", "did you mean #/$defs/address?"),
        ({"$defs": {"address": {}}}, "#/$defs/zzz", "point it at a schema of this contract, such as #/$defs/address"),
        ({}, "#/$defs/zzz", 'put the schema it names under "$defs" and point at it as #/$defs/<name>'),
    ],
)
def test_a_local_ref_that_names_nothing_says_what_to_point_at(schema: dict[str, Any], ref: str, hint: str) -> None:
    problem = check_schema({**schema, "properties": {"a": {"$ref": ref}}}, "2020-12")

    assert problem is not None
    assert problem.message == f"Invalid JSON Schema: can't resolve reference {ref} from id #; {hint}"
    assert problem.pointer == "/properties/a/$ref"


def test_a_schema_with_many_problems_names_the_first_twenty_and_counts_the_rest() -> None:
    schema = {"type": "object", "properties": {f"p{i}": {"minLength": -1} for i in range(25)}}

    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert problem.message.count('"minLength" must be 0 or more') == 20
    assert problem.message.endswith(
        '/properties/p19/minLength: "minLength" must be 0 or more, not -1. '
        "5 more problems are not shown; fix these first"
    )
