"""The public ``from_schema`` reads five dialects as their validators do, and follows references
inside the schema it is given (embedded ``$id`` resources too), refusing one to another file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from json_contracts.contracts.loading import contract_from_text
from json_contracts.errors import InvalidInputError
from json_contracts.testing.strategies import SampleStats, blame_message, for_subschema, from_schema

D4 = "http://json-schema.org/draft-04/schema#"
D6 = "http://json-schema.org/draft-06/schema#"
D7 = "http://json-schema.org/draft-07/schema#"
D2019 = "https://json-schema.org/draft/2019-09/schema"
D2020 = "https://json-schema.org/draft/2020-12/schema"


def _draw(schema: Any, count: int = 60, stats: SampleStats | None = None) -> list[Any]:
    drawn: list[Any] = []

    @settings(max_examples=count, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])  # fmt: skip
    @given(schema if isinstance(schema, st.SearchStrategy) else from_schema(schema, stats=stats))
    def collect(document: Any) -> None:
        drawn.append(document)

    collect()
    return drawn


# (id, schema, what the drawn documents must show at least once)
DIALECTS: list[tuple[str, dict[str, Any], Any]] = [
    (
        "draft-04-boolean-exclusive",
        {"$schema": D4, "type": "number", "minimum": 0, "exclusiveMinimum": True, "maximum": 1,
         "exclusiveMaximum": True},
        lambda d: 0 < d < 1,
    ),
    (
        "draft-04-id-and-definitions",
        {"$schema": D4, "id": "http://example.com/root.json", "definitions": {"n": {"type": "integer", "minimum": 5}},
         "type": "array", "items": {"$ref": "#/definitions/n"}, "minItems": 1},
        lambda d: len(d) > 1,
    ),
    (
        "draft-06-items-array",
        {"$schema": D6, "type": "array", "items": [{"type": "string"}, {"type": "integer"}],
         "additionalItems": False, "minItems": 2},
        lambda d: isinstance(d[1], int),
    ),
    (
        "draft-06-dependencies",
        {"$schema": D6, "type": "object", "properties": {"a": {}, "b": {}, "c": {}},
         "dependencies": {"a": ["b"]}, "maxProperties": 2},
        lambda d: "a" in d,
    ),
    (
        "2019-09-items-array",
        {"$schema": D2019, "type": "array", "items": [{"const": 1}], "additionalItems": {"type": "string"},
         "minItems": 2},
        lambda d: isinstance(d[-1], str),
    ),
    (
        "2019-09-recursive-ref",
        {"$schema": D2019, "type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array",
         "items": {"$recursiveRef": "#"}}}, "required": ["v"], "additionalProperties": False},
        lambda d: bool(d.get("kids")),
    ),
    (
        "2019-09-dependent-required",
        {"$schema": D2019, "type": "object", "properties": {"a": {}, "b": {}},
         "dependentRequired": {"a": ["b"]}, "minProperties": 1},
        lambda d: "a" in d,
    ),
    (
        "draft-06-ref-hides-siblings",
        {"$schema": D6, "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "minLength": 99},
        lambda d: len(d) < 99,
    ),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "wanted"), [(s, w) for _, s, w in DIALECTS], ids=[i for i, _, _ in DIALECTS])
def test_each_dialect_is_drawn_as_its_validator_reads_it(schema: dict[str, Any], wanted: Any) -> None:
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    independent = jsonschema.validators.validator_for(schema)(schema)
    assert drawn, blame_message(stats)
    assert all(independent.is_valid(d) for d in drawn)
    assert any(wanted(d) for d in drawn), drawn[:8]
    assert stats.rejected_share < 0.3, blame_message(stats)


def test_draft_07_applies_the_siblings_of_a_ref_as_ajv_does() -> None:
    schema = {"$schema": D7, "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "minLength": 3}
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert drawn
    assert all(isinstance(d, str) and len(d) >= 3 for d in drawn)
    assert stats.rejected_share < 0.2, blame_message(stats)


# -- references inside the schema, embedded $id resources included --------------------------------

X = "http://example.com/x.json"
EMBEDDED: dict[str, Any] = {
    "$id": "http://example.com/root.json",
    "type": "object",
    "properties": {"viaId": {"$ref": "x.json"}, "viaAnchor": {"$ref": "#top"}},
    "required": ["viaId", "viaAnchor"],
    "$defs": {
        "top": {"$anchor": "top", "type": "boolean"},
        "x": {
            "$id": X,
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/y"}, "b": {"$ref": "#inner"}},
            "required": ["a", "b"],
            "additionalProperties": False,
            "$defs": {"y": {"type": "integer", "minimum": 10}, "z": {"$anchor": "inner", "type": "string"}},
        },
    },
}


def test_references_inside_an_embedded_resource_are_followed_by_construction() -> None:
    stats = SampleStats()
    drawn = _draw(EMBEDDED, stats=stats)

    assert drawn, blame_message(stats)
    for document in drawn:
        assert isinstance(document["viaAnchor"], bool)
        assert document["viaId"]["a"] >= 10
        assert isinstance(document["viaId"]["b"], str)
    assert stats.rejected_share < 0.2, blame_message(stats)


def test_a_reference_to_another_file_is_refused_naming_it() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "common.json#/$defs/a"}}}
    with pytest.raises(InvalidInputError) as caught:
        from_schema(schema)
    message = str(caught.value)
    assert "refers to another file" in message
    assert "'common.json#/$defs/a' at /properties/a/$ref" in message


def test_for_subschema_reads_a_node_at_the_root_base(tmp_path: Path) -> None:
    """A root with a relative ``$id`` (SchemaStore's compose-spec): ``#/$defs/...`` resolves against it."""
    schema = {
        "$id": "compose_spec.json",
        "type": "object",
        "properties": {"include": {"$ref": "#/$defs/include"}},
        "required": ["include"],
        "$defs": {"include": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    }
    text = json.dumps({"description": "x", "schema": schema})
    contract = contract_from_text("compose", text, tmp_path / "compose.json")

    drawn = _draw(for_subschema(contract, contract.schema), 20)

    assert drawn
    assert all(isinstance(d["include"], list) and d["include"] for d in drawn)
