"""The one-resource 2020-12 meta-schema accepts exactly what the official one accepts."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from json_contracts._json.pointers import pointer_parts
from json_contracts.contracts.starter import starter_files
from json_contracts.schema.checking import check_schema
from json_contracts.schema.dialects import flat_meta_schema_2020_12
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.vocabulary import DRAFT202012

OFFICIAL = Draft202012Validator(Draft202012Validator.META_SCHEMA, format_checker=FORMAT_CHECKER)
FLAT = Draft202012Validator(flat_meta_schema_2020_12(), format_checker=FORMAT_CHECKER)

KEYWORDS = [
    "type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "multipleOf", "minLength", "maxLength",
    "pattern", "format", "items", "prefixItems", "contains", "minContains", "properties", "patternProperties",
    "additionalProperties", "required", "dependentRequired", "dependentSchemas", "propertyNames", "allOf", "anyOf",
    "oneOf", "not", "if", "then", "else", "$ref", "$id", "$schema", "$anchor", "$dynamicRef", "$dynamicAnchor",
    "$defs", "definitions", "dependencies", "$comment", "title", "description", "default", "examples",
    "deprecated", "readOnly", "unevaluatedProperties", "unevaluatedItems", "contentEncoding", "contentMediaType",
    "contentSchema", "uniqueItems", "minItems", "maxItems", "$vocabulary", "$recursiveRef", "$recursiveAnchor",
]  # fmt: skip
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=3), st.lists(st.sampled_from(["a", "string", "object"]), max_size=2),
    st.sampled_from(["(", "#frag", "a b", "http://x/y#z", "string", "^a$", "#/$defs/x", {}]),
)  # fmt: skip


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    member = st.one_of(VALUES, children, st.lists(children, max_size=2), st.dictionaries(st.text(max_size=2), children,
                                                                                            max_size=2))  # fmt: skip
    return st.dictionaries(st.sampled_from(KEYWORDS), member, max_size=4)


SCHEMAS = st.recursive(st.one_of(st.booleans(), st.dictionaries(st.sampled_from(KEYWORDS), VALUES, max_size=3)),
                       _extend, max_leaves=8)  # fmt: skip


@settings(max_examples=400, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS)
def test_the_flat_meta_schema_agrees_with_the_official_one(schema: Any) -> None:
    assert FLAT.is_valid(schema) == OFFICIAL.is_valid(schema), json.dumps(schema)


def test_every_starter_schema_passes_both() -> None:
    for path in starter_files():
        if path.name.endswith(".json"):
            schema = json.loads(path.read_text(encoding="utf-8"))["schema"]
            assert FLAT.is_valid(schema)
            assert OFFICIAL.is_valid(schema)


def test_an_invalid_schema_still_gets_the_official_errors() -> None:
    problem = check_schema({"type": "object", "properties": {"a": {"type": "strnig"}}, "minLength": -1},
                           DRAFT202012)  # fmt: skip
    assert problem is not None
    assert problem.message.startswith('Invalid JSON Schema: /properties/a/type: "strnig" is not a JSON Schema type')
    assert problem.message.endswith('/minLength: "minLength" must be 0 or more, not -1')


@settings(max_examples=300, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(SCHEMAS)
def test_every_invalid_schema_gets_sentences_that_point_into_it(schema: Any) -> None:
    # The sentences are built by reading the schema back at each error's place: no schema may
    # make that fail, and the finding points at a place that exists.
    if not isinstance(schema, dict) or "$schema" in schema:
        return
    problem = check_schema(schema, DRAFT202012)
    if OFFICIAL.is_valid(schema) and problem is None:
        return
    assert problem is not None
    assert problem.message.startswith("Invalid JSON Schema: ")
    node: Any = schema
    for part in pointer_parts(problem.pointer):
        node = node[int(part)] if isinstance(node, list) else node[part]
