"""Keys that look like numbers to ``str.isdigit`` but are no array index: hints and repairs never crash on
them and never read them as an index (``²``, ``١٢``, ``01``, thousands of digits)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from json_contracts.agent.payloads import repair_payload
from json_contracts.agent.repair import document_hints, field_hints, repairs, schema_nodes_at
from json_contracts.contracts.loading import _subschema, contract_from_text
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import validate
from json_contracts.schema.vocabulary import DRAFT202012

LONG_DIGITS = "1" * 5000  # isdigit() is true; int() refuses 4,300 digits or more
NOT_INDEXES = ["²", "¹", "١٢", "01", LONG_DIGITS]

#: Objects and arrays both: a key is read through additionalProperties; an index would also go
#: through prefixItems, which says "integer" (that word in a hint means a key was read as an index).
SCHEMA: dict[str, Any] = {
    "type": ["object", "array"],
    "additionalProperties": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}}},
    "prefixItems": [{"type": "integer"}, {"type": "integer"}],
}


def errors_for(document: Any) -> list[Any]:
    return validate(compile_schema(SCHEMA, DRAFT202012), document).errors


@pytest.mark.parametrize("key", NOT_INDEXES, ids=["sup2", "sup1", "arabic", "leading-zero", "5000-digits"])
def test_hints_and_repairs_read_the_key_as_a_key(key: str) -> None:
    document = {key: {"a": 5}, "x": 1}
    errors = errors_for(document)
    assert {(e["path"], e["keyword"]) for e in errors} == {(f"/{key}/a", "type"), ("/x", "type")}

    assert [node.get("type") for node in schema_nodes_at(SCHEMA, f"/{key}")] == ["object"]
    assert field_hints(SCHEMA, errors) == [f"Set /{key}/a to a valid string value.", "Set /x to a valid object value."]
    assert document_hints(SCHEMA, errors, document) == field_hints(SCHEMA, errors)
    planned = repairs(SCHEMA, [*errors, {"path": f"/{key}", "keyword": "type", "message": "must be object"}])
    assert [(r["path"], r["action"], r.get("types")) for r in planned] == [
        (f"/{key}/a", "set-type", ["string"]),
        ("/x", "set-type", ["object"]),
        (f"/{key}", "set-type", ["object"]),
    ]


def test_a_true_index_still_reads_the_item_schema() -> None:
    assert [node.get("type") for node in schema_nodes_at(SCHEMA, "/1")] == ["object", "integer"]


@pytest.mark.parametrize("key", NOT_INDEXES, ids=["sup2", "sup1", "arabic", "leading-zero", "5000-digits"])
def test_get_repair_contract_answers_for_such_a_key(key: str) -> None:
    text = json.dumps({"description": "Digit keys.", "schema": SCHEMA})
    contract = contract_from_text("digits", text, Path("digits.json"))
    payload = repair_payload(contract, {key: {}})
    assert payload["validationErrors"] == [
        {"path": f"/{key}/a", "message": "must have required property 'a'", "keyword": "required"}
    ]
    assert f"Add missing required field /{key}/a." in payload["instructions"]
    assert [(r["path"], r["action"]) for r in payload["repairs"]] == [(f"/{key}/a", "add")]


@pytest.mark.parametrize("key", NOT_INDEXES, ids=["sup2", "sup1", "arabic", "leading-zero", "5000-digits"])
def test_an_example_hint_reads_the_key_as_a_key(key: str) -> None:
    """The loader's schema-cause lookup for a failing example (JC020's hint) went into ``items`` for
    any key ``str.isdigit`` accepts; a key is read through ``properties`` only, so it finds nothing."""
    schema = {"properties": {"m": {"items": {"type": "string"}}}}
    assert _subschema(schema, f"/m/{key}") == (None, None)
    assert _subschema(schema, "/m/0") == ({"type": "string"}, "/properties/m/items")
