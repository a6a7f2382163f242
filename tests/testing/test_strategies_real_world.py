"""Heavy filtering found on SchemaStore schemas, each distilled to the few keywords that caused it.

Each schema here had most drawn candidates rejected (``samples-valid`` failed on the real schema)
although the schema says exactly what is allowed; the generator now builds it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from json_contracts.errors import InvalidInputError
from json_contracts.testing.strategies import SampleStats, blame_message, from_schema
from tests.support.drawing import draw_documents, valid_in_own_dialect

D7 = "http://json-schema.org/draft-07/schema#"


def _draw(schema: Any, count: int = 40, stats: SampleStats | None = None) -> list[Any]:
    return draw_documents(schema, count, stats)


_valid = valid_in_own_dialect


#: SchemaStore's bosh-deploy-config: a root ``$id`` beside a root ``$ref`` whose target is an
#: ``anyOf``. Merged into each branch, the root's ``$id`` moved the branch's base URI to it, where
#: ``#/definitions/...`` names nothing the compiled schema knows, so ``flags`` was drawn as any value
#: (92 % rejected by ``anyOf`` at ``/anyOf``).
ROOT_ID_BESIDE_REF = {
    "$schema": D7,
    "$id": "https://json.schemastore.org/bosh-deploy-config.json",
    "$ref": "#/definitions/Config",
    "definitions": {
        "Config": {
            "type": "object",
            "anyOf": [
                {"additionalProperties": False, "required": ["flags"],
                 "properties": {"flags": {"$ref": "#/definitions/Flags"}, "exclude": {"$ref": "#/definitions/Names"}}},
                {"additionalProperties": False, "required": ["flags"],
                 "properties": {"flags": {"$ref": "#/definitions/Flags"}, "include": {"$ref": "#/definitions/Names"}}},
            ],
        },
        "Flags": {"type": "array", "items": {"type": "string", "pattern": "^(fix|recreate)$"}},
        "Names": {"type": "array", "items": {"type": "string"}},
    },
}  # fmt: skip
RELATIVE_ID_BESIDE_REF = {**ROOT_ID_BESIDE_REF, "$id": "bosh-deploy-config.json"}

#: SchemaStore's enonic-xp-cms: a ``oneOf`` of untyped object schemas told apart by a required
#: ``type`` property's ``const``. Every non-object value matches all the branches, and each branch
#: carried the others' negation for the filter: 55 % rejected by ``not`` in a ``oneOf`` branch.
DISCRIMINATED_ONE_OF = {
    "type": "array",
    "minItems": 1,
    "items": {
        "oneOf": [
            {
                "properties": {"type": {"const": "TextLine"}, "name": {"type": "string"}},
                "required": ["type", "name"],
                "additionalProperties": False,
            },
            {
                "properties": {
                    "type": {"const": "ComboBox"},
                    "options": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["type", "options"],
                "additionalProperties": False,
            },
            {
                "properties": {"type": {"enum": ["GeoPoint", "Date"]}},
                "required": ["type"],
                "additionalProperties": False,
            },
        ]
    },
}
#: A oneOf whose branches only say what objects look like, with nothing to tell them apart: a value
#: that is no object matches both, so only objects can match one.
UNTYPED_OBJECT_ONE_OF = {
    "oneOf": [
        {"required": ["a"], "properties": {"a": {"type": "integer"}}},
        {"required": ["b"], "minProperties": 2},
    ]
}

#: SchemaStore's specif-1.0/1.1: a required ``$schema`` property with ``format: uri`` and a pattern
#: naming two URLs. Drawn as any URI and then matched against the pattern, no candidate ever
#: passed (Hypothesis gave up: "unsatisfiable"). A pattern anchored at both ends says more than
#: its format: the string is drawn from the pattern and the format checks it.
FORMAT_AND_ANCHORED_PATTERN = {
    "type": "object",
    "required": ["$schema", "day"],
    "properties": {
        "$schema": {
            "type": "string",
            "format": "uri",
            "pattern": "^https?:\\/\\/(specif\\.de\\/v1\\.1\\/schema|json\\.schemastore\\.org\\/specif-1\\.1)\\.json$",
        },
        "day": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])$"},
        "flags": {"type": "array", "items": {"type": "string", "format": "regex", "pattern": "^(fix|recreate)$"}},
    },
}

#: SchemaStore's kya: an array that must contain two given strings, one ``contains`` per ``allOf``
#: part. Merged, one ``contains`` was built and the other left to chance: "unsatisfiable".
TWO_CONTAINS = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "string"},
            "allOf": [{"contains": {"const": "VerifiablePresentation"}}, {"contains": {"const": "KyaManifest"}}],
        },
    },
}


#: SchemaStore's popxf-1.0: an ``allOf`` of ``if/then`` parts, each about one object property holding
#: (or not) a required key, some with a ``const``. The ``else`` of each was drawn as the property
#: failing its ``if`` left to a ``not`` filter, so a ``then`` requiring the key beside another part's
#: ``else`` forbidding it was a combination the filter rejected every time (67 % rejected here; on
#: popxf itself Hypothesis's filter_too_much health check failed).
def _holding(name: str, key: str, *value: Any) -> dict[str, Any]:
    held = {"const": value[0]} if value else {}
    return {"properties": {name: {"type": "object", "properties": {key: held}, "required": [key]}}}


CONDITIONALS_ON_ONE_PROPERTY = {
    "$schema": D7,
    "type": "object",
    "required": ["metadata", "data"],
    "properties": {
        "metadata": {"type": "object", "properties": {"degree": {"enum": [1, 2, 3]}, "names": {"type": "string"}}},
        "data": {"type": "object", "properties": {"central": {"type": "integer"}}},
    },
    "allOf": [
        {"if": _holding("metadata", "names"), "then": _holding("data", "central")},
        {"if": _holding("data", "central"), "then": _holding("metadata", "names")},
        {"if": _holding("metadata", "degree", 3), "then": {"properties": {"data": {"maxProperties": 1}}}},
    ],
}

CASES: list[tuple[str, dict[str, Any]]] = [
    ("conditionals-on-one-property", CONDITIONALS_ON_ONE_PROPERTY),
    ("two-contains", TWO_CONTAINS),
    ("format-and-anchored-pattern", FORMAT_AND_ANCHORED_PATTERN),
    ("root-id-beside-ref", ROOT_ID_BESIDE_REF),
    ("relative-root-id-beside-ref", RELATIVE_ID_BESIDE_REF),
    ("discriminated-one-of", DISCRIMINATED_ONE_OF),
    ("untyped-object-one-of", UNTYPED_OBJECT_ONE_OF),
]


@pytest.mark.parametrize("schema", [s for _, s in CASES], ids=[i for i, _ in CASES])
def test_a_real_world_shape_is_built_not_filtered(schema: dict[str, Any]) -> None:
    stats = SampleStats()
    drawn = _draw(schema, stats=stats)

    assert len(drawn) >= 30, blame_message(stats)
    assert all(_valid(schema, d) for d in drawn)
    assert stats.rejected_share < 0.2, blame_message(stats)


def test_an_unknown_dialect_name_is_refused_with_the_names_accepted() -> None:
    with pytest.raises(InvalidInputError, match="draft7") as refused:
        from_schema({"type": "integer"}, dialect="draft7")
    assert all(name in str(refused.value) for name in ("draft-04", "draft-07", "2020-12"))


def test_a_reference_to_an_official_meta_schema_is_drawn_from() -> None:
    schema = {"$schema": D7, "type": "object", "required": ["s"],
              "properties": {"s": {"$ref": "http://json-schema.org/draft-07/schema#"}}}  # fmt: skip
    drawn = _draw(schema, count=10)
    assert len(drawn) == 10
    assert all(_valid(schema, d) for d in drawn)


def test_an_else_of_required_keys_counts_the_keys_dependencies_bring() -> None:
    """The negated ``if: {required: [a, b]}`` forbade ``a``, the first key not required beside it,
    although ``x`` (required) brings ``a`` along: nothing could be drawn, yet ``{"x": 1, "a": 1}`` is valid."""
    schema = {"type": "object", "required": ["x"], "dependentRequired": {"x": ["a"]},
              "if": {"required": ["a", "b"]}, "then": False}  # fmt: skip
    stats = SampleStats()
    drawn = _draw(schema, count=20, stats=stats)
    assert len(drawn) >= 15, blame_message(stats)
    assert all(_valid(schema, d) for d in drawn)


def test_an_any_of_branch_contradicting_its_siblings_is_never_drawn() -> None:
    """The shape a contradictory then/else combination leaves: a property requiring ``names`` whose
    ``anyOf`` says "not an object, or no ``names``". Each branch alone is possible, so it was drawn,
    found empty only when drawn, and the document given up: nine such and one integer, and the
    filter_too_much health check failed although every integer is valid."""
    contradiction = {
        "type": "object",
        "required": ["m"],
        "properties": {
            "m": {"type": "object", "required": ["names"],
                  "anyOf": [{"not": {"type": "object"}}, {"type": "object", "properties": {"names": False}}]},
        },
    }  # fmt: skip
    schema = {"$schema": D7, "anyOf": [*[dict(contradiction, title=str(i)) for i in range(9)], {"type": "integer"}]}
    drawn: list[Any] = []

    @settings(max_examples=20, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(from_schema(schema))
    def collect(document: Any) -> None:
        drawn.append(document)

    collect()
    assert len(drawn) == 20
    assert all(isinstance(d, int) for d in drawn)


@pytest.mark.parametrize("name", ["email", "idn-email", "hostname", "idn-hostname", "uri", "iri-reference"])
def test_domain_formats_are_drawn_without_scanning_the_utf8_codec(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """hypothesis-jsonschema draws these from Hypothesis's domain strategy, whose regex has no
    alphabet: the first draw in a fresh ``.hypothesis`` folder scanned the UTF-8 codec (about 1 s),
    and the example app's own ``@given`` test failed Hypothesis's ``too_slow`` health check in CI."""
    import hypothesis.internal.charmap

    def scan(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the UTF-8 codec was scanned")

    monkeypatch.setattr(hypothesis.internal.charmap, "intervals_from_codec", scan)
    schema = {"type": "string", "format": name}
    drawn = _draw(schema, count=20)
    assert len(drawn) == 20
    assert all(_valid(schema, d) for d in drawn)
