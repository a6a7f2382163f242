"""The five dialects the library accepts (``from_schema`` for app tests), beside the two contracts accept.

A contract keeps the TypeScript server's rule (draft-07 or 2020-12, :func:`detect_dialect`); a
schema handed to the library may be draft-04, draft-06, draft-07, 2019-09 or 2020-12, each
checked against its official meta-schema (bundled, never fetched) and validated with its own
semantics, ECMA-262 ``pattern`` and our formats.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest

from json_contracts.findings import Finding
from json_contracts.schema import dialects
from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.dialects import detect_dialect, detect_library_dialect
from json_contracts.schema.validation import is_valid, validate
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012

FIVE = [DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012]
ARABIC_INDIC_12 = "\u0661\u0662"


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a connection fails the test."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


# --- which dialect ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("declared", "expected"),
    [
        ("http://json-schema.org/draft-04/schema#", DRAFT4),
        ("http://json-schema.org/draft-04/schema", DRAFT4),
        ("https://json-schema.org/draft-04/schema#", DRAFT4),
        ("http://json-schema.org/draft-06/schema#", DRAFT6),
        ("http://json-schema.org/draft-06/schema", DRAFT6),
        ("http://json-schema.org/draft-07/schema#", DRAFT7),
        ("http://json-schema.org/draft-07/schema", DRAFT7),
        ("https://json-schema.org/draft-07/schema#", DRAFT7),
        ("https://json-schema.org/draft/2019-09/schema", DRAFT201909),
        ("https://json-schema.org/draft/2019-09/schema#", DRAFT201909),
        ("http://json-schema.org/draft/2019-09/schema#", DRAFT201909),
        ("https://json-schema.org/draft/2020-12/schema", DRAFT202012),
        ("https://json-schema.org/draft/2020-12/schema#", DRAFT202012),
    ],
)
def test_the_library_reads_the_usual_spellings_of_five_dialects(declared: str, expected: str) -> None:
    assert detect_library_dialect({"$schema": declared}) == expected


def test_a_schema_without_schema_is_2020_12_as_for_contracts() -> None:
    assert detect_library_dialect({"type": "string"}) == DRAFT202012


@pytest.mark.parametrize(
    "declared",
    ["http://json-schema.org/draft-03/schema#", "http://json-schema.org/schema#", "https://example.com/my-dialect"],
)
def test_an_unknown_schema_uri_names_itself_and_the_five(declared: str) -> None:
    found = detect_library_dialect({"$schema": declared})

    assert isinstance(found, Finding)
    assert found.pointer == "/$schema"
    assert declared in found.message
    for name in FIVE:
        assert name in found.message


def test_a_schema_that_is_not_a_string_is_refused() -> None:
    found = detect_library_dialect({"$schema": 7})

    assert isinstance(found, Finding)
    assert found.pointer == "/$schema"
    assert "string" in found.message


def test_contracts_keep_the_two_dialects() -> None:
    found = detect_dialect({"$schema": "http://json-schema.org/draft-04/schema#"})

    assert isinstance(found, Finding)
    assert found.message == (
        "Unsupported JSON Schema dialect: http://json-schema.org/draft-04/schema#. "
        "Supported dialects are draft-07 and 2020-12."
    )


# --- meta-schemas, offline -----------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", FIVE)
def test_each_meta_schema_checks_a_schema_with_no_network(dialect: str, no_network: None) -> None:
    dialects._META_VALIDATORS.clear()  # built afresh under the guard
    assert check_schema({"type": "object", "properties": {"a": {"type": "string"}}}, dialect) is None

    refused = check_schema({"type": "object", "properties": {"a": {"type": 5}}}, dialect)

    assert refused is not None
    assert refused.pointer.startswith("/properties/a")


@pytest.mark.parametrize("dialect", FIVE)
def test_an_invalid_ecma_pattern_is_refused_in_each_dialect(dialect: str) -> None:
    refused = check_schema({"type": "string", "pattern": "(?P<n>a)"}, dialect)

    assert refused is not None
    assert refused.pointer == "/pattern"


@pytest.mark.parametrize("dialect", FIVE)
def test_a_reference_to_another_file_is_refused_in_each_dialect(dialect: str) -> None:
    refused = check_schema({"properties": {"a": {"$ref": "other.json#/x"}}}, dialect)

    assert refused is not None
    assert "other.json" in refused.message


def test_2019_09_recursive_ref_resolves_when_checked() -> None:
    assert check_schema(_STRICT_TREE, DRAFT201909) is None


# --- validating in each dialect ------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", FIVE)
def test_pattern_is_ecma_262_in_each_dialect(dialect: str) -> None:
    digits = compile_schema({"type": "string", "pattern": "^\\d+$"}, dialect)
    letters = compile_schema(
        {"properties": {"a": {"pattern": "^\\p{L}+$"}}, "patternProperties": {"^\\p{Lu}": {"type": "integer"}}}, dialect
    )

    assert is_valid(digits, "12")
    assert not is_valid(digits, ARABIC_INDIC_12)
    assert is_valid(letters, {"a": "Zo\u00eb", "\u00c9": 1})
    assert not is_valid(letters, {"a": "x1"})
    assert not is_valid(letters, {"\u00c9": "one"})


@pytest.mark.parametrize("dialect", FIVE)
def test_additional_properties_reads_pattern_properties_as_ecma_262(dialect: str) -> None:
    compiled = compile_schema({"patternProperties": {"^\\d+$": {}}, "additionalProperties": False}, dialect)

    assert is_valid(compiled, {"12": 1})
    assert not is_valid(compiled, {ARABIC_INDIC_12: 1})


@pytest.mark.parametrize("dialect", FIVE)
def test_our_formats_apply_in_each_dialect(dialect: str) -> None:
    compiled = compile_schema({"type": "string", "format": "date"}, dialect)

    assert is_valid(compiled, "2024-02-29")
    assert not is_valid(compiled, "2023-02-29")


def test_draft_04_exclusive_maximum_is_a_boolean() -> None:
    compiled = compile_schema({"type": "number", "maximum": 5, "exclusiveMaximum": True, "minimum": 1}, DRAFT4)

    assert is_valid(compiled, 4.5)
    assert is_valid(compiled, 1)
    assert not is_valid(compiled, 5)


def test_draft_04_integer_excludes_a_float_and_ref_ignores_its_siblings() -> None:
    compiled = compile_schema(
        {"definitions": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/definitions/n", "maximum": 0}}},
        DRAFT4,
    )

    assert is_valid(compiled, {"a": 7})
    assert not is_valid(compiled, {"a": 1.5})


def test_draft_04_id_sets_the_base_of_a_reference() -> None:
    schema = {
        "id": "http://example.com/root.json",
        "definitions": {"a": {"id": "a.json", "type": "integer"}},
        "properties": {"x": {"$ref": "a.json"}},
    }
    assert check_schema(schema, DRAFT4) is None
    compiled = compile_schema(schema, DRAFT4)

    assert is_valid(compiled, {"x": 1})
    assert not is_valid(compiled, {"x": "one"})


@pytest.mark.parametrize("dialect", [DRAFT4, DRAFT6, DRAFT7, DRAFT201909])
def test_items_as_an_array_with_additional_items(dialect: str) -> None:
    compiled = compile_schema(
        {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}, dialect
    )

    assert is_valid(compiled, ["a", 1])
    assert not is_valid(compiled, [1, "a"])
    assert not is_valid(compiled, ["a", 1, None])


@pytest.mark.parametrize("dialect", [DRAFT4, DRAFT6, DRAFT7])
def test_dependencies_of_names_and_of_schemas(dialect: str) -> None:
    compiled = compile_schema({"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}, dialect)

    assert is_valid(compiled, {"a": 1, "b": 2})
    assert not is_valid(compiled, {"a": 1})
    assert not is_valid(compiled, {"c": 1})


@pytest.mark.parametrize("dialect", [DRAFT6, DRAFT7, DRAFT201909])
def test_false_sub_schemas_refuse_in_the_boolean_dialects(dialect: str) -> None:
    compiled = compile_schema(
        {"properties": {"a": False, "list": {"items": False}}, "not": {"required": ["z"]}}, dialect
    )

    assert is_valid(compiled, {"b": 1, "list": []})
    assert not is_valid(compiled, {"a": 1})
    assert not is_valid(compiled, {"list": [1]})
    assert not is_valid(compiled, {"z": 1})


_STRICT_TREE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2019-09/schema",
    "$id": "https://example.com/strict-tree.json",
    "$recursiveAnchor": True,
    "$ref": "tree.json",
    "unevaluatedProperties": False,
    "$defs": {
        "tree": {
            "$id": "https://example.com/tree.json",
            "$recursiveAnchor": True,
            "type": "object",
            "properties": {"data": True, "children": {"type": "array", "items": {"$recursiveRef": "#"}}},
        }
    },
}


def test_2019_09_recursive_ref_binds_to_the_outermost_anchor() -> None:
    compiled = compile_schema(_STRICT_TREE, DRAFT201909)

    assert is_valid(compiled, {"children": [{"data": 1}]})
    assert not is_valid(compiled, {"children": [{"daat": 1}]})  # the strict tree applies one level down
    assert not is_valid(compiled, {"daat": 1})


def test_2019_09_keywords() -> None:
    compiled = compile_schema(
        {
            "dependentSchemas": {"card": {"required": ["cvc"]}},
            "dependentRequired": {"a": ["b"]},
            "patternProperties": {"^\\p{Lu}": True},
            "unevaluatedProperties": False,
            "properties": {"card": True, "cvc": True, "a": True, "b": True},
            "contains": {"type": "string"},
        },
        DRAFT201909,
    )

    assert is_valid(compiled, {"card": 1, "cvc": 2, "\u00c9": 0})
    assert not is_valid(compiled, {"card": 1})
    assert not is_valid(compiled, {"a": 1})
    assert not is_valid(compiled, {"\u00e9": 0})
    array = compile_schema({"type": "array", "contains": {"type": "string"}, "minContains": 2}, DRAFT201909)
    assert is_valid(array, ["a", "b"])
    assert not is_valid(array, ["a", 1])


@pytest.mark.parametrize("dialect", [DRAFT4, DRAFT6, DRAFT201909])  # draft-07 and 2020-12: test_validation_bounds
def test_the_deadline_bounds_every_dialect(dialect: str) -> None:
    defs_key = "$defs" if dialect in (DRAFT201909, DRAFT202012) else "definitions"
    levels = 40
    defs: dict[str, Any] = {f"d{i}": {"anyOf": [{"$ref": f"#/{defs_key}/d{i + 1}"}] * 2} for i in range(levels)}
    defs[f"d{levels}"] = {"type": "string"}
    compiled = compile_schema({"allOf": [{"$ref": f"#/{defs_key}/d0"}], defs_key: defs}, dialect)

    result = validate(compiled, 1, timeout=0.1)

    assert not result.valid
    assert result.errors[-1]["keyword"] == "timeout"


@pytest.mark.parametrize("dialect", FIVE)
def test_a_sub_schema_declaring_another_dialect_keeps_the_chosen_one(dialect: str) -> None:
    other = (
        "http://json-schema.org/draft-04/schema#"
        if dialect != DRAFT4
        else "https://json-schema.org/draft/2020-12/schema"
    )
    defs_key = "$defs" if dialect in (DRAFT201909, DRAFT202012) else "definitions"
    compiled = compile_schema(
        {"properties": {"a": {"$ref": "#/x"}}, "x": {"$schema": other, "pattern": "^\\d+$"}, defs_key: {}}, dialect
    )

    assert not is_valid(compiled, {"a": ARABIC_INDIC_12})


def test_draft_04_id_of_an_embedded_resource_is_the_base_of_its_references() -> None:
    schema = {
        "id": "http://example.com/root.json",
        "definitions": {
            "a": {"id": "sub/a.json", "properties": {"x": {"$ref": "b.json"}}},
            "b": {"id": "sub/b.json", "type": "integer"},
        },
        "properties": {"a": {"$ref": "sub/a.json"}},
    }
    assert check_schema(schema, DRAFT4) is None
    compiled = compile_schema(schema, DRAFT4)

    assert is_valid(compiled, {"a": {"x": 1}})
    assert not is_valid(compiled, {"a": {"x": "one"}})


_META_URIS = {
    DRAFT4: "http://json-schema.org/draft-04/schema#",
    DRAFT7: "http://json-schema.org/draft-07/schema#",
    DRAFT201909: "https://json-schema.org/draft/2019-09/schema",
    DRAFT202012: "https://json-schema.org/draft/2020-12/schema",
}


@pytest.mark.parametrize("dialect", sorted(_META_URIS))
def test_the_library_follows_a_ref_to_an_official_meta_schema_offline(dialect: str, no_network: None) -> None:
    # SchemaStore's aio-connector-metadata schemas hold "a JSON Schema" fields this way.
    schema = {"properties": {"s": {"$ref": _META_URIS[dialect]}}}
    assert check_schema(schema, dialect, meta_schemas=True) is None
    validator = compile_schema(schema, dialect).validator
    assert validator.is_valid({"s": {"type": "string"}})
    assert not validator.is_valid({"s": {"type": 5}})


def test_a_contract_still_refuses_a_ref_to_a_meta_schema_as_the_typescript_server_does() -> None:
    problem = check_schema({"properties": {"s": {"$ref": _META_URIS[DRAFT7]}}}, DRAFT7)
    assert problem is not None
    assert "can't resolve reference" in problem.message
