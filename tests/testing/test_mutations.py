"""Breaking documents and following repairs (``testing/mutations.py``), on keys and schemas nobody here wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import find

from json_contracts.agent.repair import repairs
from json_contracts.contracts.loading import contract_from_text
from json_contracts.contracts.model import Contract
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import validate
from json_contracts.schema.vocabulary import DRAFT202012
from json_contracts.testing.mutations import apply_repairs, mutations
from json_contracts.testing.strategies import for_subschema

LONG_DIGITS = "1" * 5000  # isdigit() is true; int() refuses 4,300 digits or more
DIGIT_KEYS = pytest.mark.parametrize(
    "key", ["²", "١٢", "01", LONG_DIGITS], ids=["sup2", "arabic", "leading-zero", "5000-digits"]
)


def errors_of(schema: dict[str, Any], document: Any) -> list[Any]:
    return validate(compile_schema(schema, DRAFT202012), document).errors


#: A key goes through additionalProperties; only a true index would reach prefixItems.
KEYED: dict[str, Any] = {
    "type": ["object", "array"],
    "additionalProperties": {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string", "maxLength": 3}},
    },
    "prefixItems": [{"type": "integer", "maximum": 5}, {"type": "integer", "maximum": 5}],
}


@DIGIT_KEYS
def test_mutations_of_a_digit_key_come_from_its_property_schema(key: str) -> None:
    document = {key: {"name": "abc"}}
    found = {(m.kind, m.path) for m in mutations(KEYED, document)}
    assert found >= {("string too long", f"/{key}/name"), ("drop a required field", f"/{key}/name")}
    assert not any(kind == "number out of range" for kind, _path in found)  # prefixItems never applied


@DIGIT_KEYS
def test_following_the_repairs_under_a_digit_key_makes_the_document_valid(key: str) -> None:
    broken = {key: {"name": 7}}
    errors = errors_of(KEYED, broken)
    assert errors
    fixed = apply_repairs(KEYED, broken, repairs(KEYED, errors), lambda node: "ok")
    assert fixed == {key: {"name": "ok"}}
    assert errors_of(KEYED, fixed) == []


# --- the repair value comes from every sub-schema that applies (issue 16, item 8) -------------------


def contract_of(tmp_path: Path, schema: dict[str, Any]) -> Contract:
    path = tmp_path / "thing.json"
    text = json.dumps({"description": "x", "schema": schema})
    path.write_text(text, encoding="utf-8")
    return contract_from_text("thing", text, path)


def repaired(tmp_path: Path, schema: dict[str, Any], broken: Any) -> Any:
    """``broken`` after one round of repairs, each value the smallest one its sub-schema allows."""
    contract = contract_of(tmp_path, schema)
    errors = errors_of(schema, broken)
    assert errors

    def smallest(node: Any) -> Any:
        return find(for_subschema(contract, node), lambda _value: True)

    return apply_repairs(schema, broken, repairs(schema, errors), smallest)


def test_a_required_key_gets_a_value_from_its_property_and_every_matching_pattern(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "required": ["x-n", "x-s"],
        "properties": {"x-n": {"type": "integer"}},
        "patternProperties": {"^x-": {"minimum": 1000}, "-s$": {"type": "string", "minLength": 2}},
        "additionalProperties": {"type": "boolean"},  # matched by a pattern: never applies to these keys
    }
    fixed = repaired(tmp_path, schema, {})
    assert fixed == {"x-n": 1000, "x-s": "00"}
    assert errors_of(schema, fixed) == []


def test_add_items_keeps_the_items_and_adds_each_from_its_own_item_schema(tmp_path: Path) -> None:
    schema = {
        "type": "object",
        "properties": {"list": {"type": "array", "prefixItems": [{"type": "string"}, {"const": "second"}],
                                "items": {"type": "integer", "minimum": 10}}},
        "allOf": [{"properties": {"list": {"minItems": 4}}}],
    }  # fmt: skip
    fixed = repaired(tmp_path, schema, {"list": ["hello"]})
    assert fixed == {"list": ["hello", "second", 10, 10]}
    assert errors_of(schema, fixed) == []


def test_a_missing_contains_item_is_added_from_the_contains_and_item_schemas(tmp_path: Path) -> None:
    schema = {
        "type": "array",
        "items": {"type": "string"},
        "allOf": [{"contains": {"minLength": 3, "pattern": "^n"}}],
    }
    fixed = repaired(tmp_path, schema, ["a", "b"])
    # Ajv also reports each item's failed try at contains (minLength, pattern at /0 and /1): those
    # repairs redraw the two items from their own schema, and the contains repair adds the third.
    assert len(fixed) == 3
    assert fixed[2] == "n00"
    assert errors_of(schema, fixed) == []
