"""Narrowing a schema to a change: the path through ``$ref``, undeclared places, tuples and branches.

Every narrowed schema only narrows (what it accepts the original accepts), and the documents it
accepts reach the place: checked here on hand-made cases and on every change of the corpus.
"""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.evolution.focus import document_place, focused_schema
from json_contracts.evolution.model import Focus
from json_contracts.evolution.rules import compare_schemas
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import is_valid
from json_contracts.schema.vocabulary import DRAFT7, DRAFT202012
from json_contracts.testing.harness import CheckFailure, explore
from json_contracts.testing.results import RunOptions
from json_contracts.testing.strategies import from_schema
from tests.evolution.corpus import CORPUS, D7

_REFS: dict[str, Any] = {
    "$defs": {"zip": {"type": "string", "maxLength": 10}},
    "type": "object",
    "properties": {"home": {"$ref": "#/$defs/zip"}, "work": {"$ref": "#/$defs/zip"}},
}


def _valid(schema: dict[str, Any], document: Any, dialect: str = DRAFT202012) -> bool:
    return is_valid(compile_schema(schema, dialect), document)


def test_a_ref_on_the_way_is_replaced_by_its_target_at_that_use_only() -> None:
    narrowed = focused_schema(_REFS, Focus("/properties/home", {"minLength": 6}))

    assert narrowed is not None
    assert narrowed["properties"]["home"] == {"type": "string", "maxLength": 10, "allOf": [{"minLength": 6}]}
    assert narrowed["properties"]["work"] == {"$ref": "#/$defs/zip"}
    assert narrowed["$defs"] == _REFS["$defs"]  # the definition itself is untouched
    assert narrowed["required"] == ["home"]  # every document reaches the place
    assert _valid(narrowed, {"home": "abcdefg", "work": "a"})
    assert not _valid(narrowed, {"home": "abc"})


def test_a_draft_07_ref_at_the_place_is_wrapped_because_its_siblings_are_ignored() -> None:
    schema = {"$schema": D7, "definitions": {"n": {"type": "integer"}}, "$ref": "#/definitions/n"}

    narrowed = focused_schema(schema, Focus("", {"minimum": 5}), DRAFT7)

    assert narrowed is not None
    assert _valid(narrowed, 7, DRAFT7)
    assert not _valid(narrowed, 3, DRAFT7)


def test_a_path_through_a_recursive_definition_inlines_one_level() -> None:
    schema = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"v": {"type": "string"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
            }
        },
        "$ref": "#/$defs/node",
    }

    narrowed = focused_schema(schema, Focus("/properties/kids/items/properties/v", {"const": "x"}))

    assert narrowed is not None
    assert _valid(narrowed, {"kids": [{"v": "x"}]})
    assert not _valid(narrowed, {"kids": [{"v": "y"}]})
    assert not _valid(narrowed, {"v": "x"})  # the place must be reached


def test_an_undeclared_property_is_written_with_what_additional_properties_lets_it_hold() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "integer"}}

    narrowed = focused_schema(schema, Focus("/properties/b", {"minimum": 3}))

    assert narrowed is not None
    assert narrowed["properties"]["b"] == {"allOf": [{"type": "integer"}, {"minimum": 3}]}
    assert _valid(narrowed, {"b": 4})
    assert not _valid(narrowed, {"b": "4"})  # still what the original allowed there


def test_a_closed_object_cannot_hold_an_undeclared_property() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "additionalProperties": False}

    assert focused_schema(schema, Focus("/properties/b", {})) is None
    assert focused_schema(schema, Focus("/additionalProperties", {})) is None


def test_pattern_properties_get_a_required_name_the_pattern_matches() -> None:
    schema = {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": False}

    narrowed = focused_schema(schema, Focus("/patternProperties/^x-", {"minLength": 3}))

    assert narrowed is not None
    assert narrowed["required"] == ["x-"]
    assert _valid(narrowed, {"x-": "abc"})
    assert not _valid(narrowed, {"x-": "ab"})


def test_additional_properties_get_a_fresh_name() -> None:
    schema = {"type": "object", "properties": {"extra": {}}, "additionalProperties": {"type": "string"}}

    narrowed = focused_schema(schema, Focus("/additionalProperties", {"maxLength": 0}))

    assert narrowed is not None
    assert narrowed["required"] == ["extra2"]
    assert _valid(narrowed, {"extra2": ""})


@pytest.mark.parametrize(
    ("schema", "pointer", "dialect", "inside", "outside"),
    [
        (
            {"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}},
            "/prefixItems/2",
            DRAFT202012,
            ["a", 1, 5],
            ["a", 1, 4],
        ),
        ({"type": "array", "items": {"type": "integer"}}, "/prefixItems/1", DRAFT202012, [0, 5], [5]),
        ({"$schema": D7, "type": "array", "items": {"type": "integer"}}, "/items/1", DRAFT7, [0, 5], [5, 0]),
        (
            {"$schema": D7, "type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "integer"}},
            "/additionalItems",
            DRAFT7,
            ["a", 5],
            ["a"],
        ),
    ],
    ids=[
        "2020-12 position past the prefix",
        "2020-12 position from items",
        "draft-07 position from items",
        "draft-07 additionalItems",
    ],
)
def test_tuple_positions_are_written_out_and_required(
    schema: dict[str, Any], pointer: str, dialect: str, inside: list[Any], outside: list[Any]
) -> None:
    narrowed = focused_schema(schema, Focus(pointer, {"minimum": 5}), dialect)

    assert narrowed is not None
    assert _valid(narrowed, inside, dialect)
    assert not _valid(narrowed, outside, dialect)
    assert _valid(schema, inside, dialect)


def test_an_any_of_keeps_only_the_branch_and_a_one_of_stays_exclusive() -> None:
    any_of = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    one_of = {"oneOf": [{"type": "integer", "maximum": 3}, {"type": "integer", "minimum": 0}]}

    narrowed_any = focused_schema(any_of, Focus("/anyOf/1", {}))
    narrowed_one = focused_schema(one_of, Focus("/oneOf/1", {}))

    assert narrowed_any is not None
    assert narrowed_one is not None
    assert _valid(narrowed_any, 3)
    assert not _valid(narrowed_any, "a")
    assert _valid(narrowed_one, 7)
    assert not _valid(narrowed_one, 2)


def test_then_and_else_bring_their_condition() -> None:
    schema = {"if": {"type": "integer"}, "then": {"minimum": 0}, "else": {"type": "string"}}

    then = focused_schema(schema, Focus("/then", {}))
    otherwise = focused_schema(schema, Focus("/else", {}))

    assert then is not None
    assert otherwise is not None
    assert _valid(then, 1)
    assert not _valid(then, "a")
    assert _valid(otherwise, "a")
    assert not _valid(otherwise, 1)


def test_with_exists_one_item_or_extra_property_is_enough() -> None:
    items = {"type": "array", "items": {"type": "string"}}
    extras = {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}

    some_item = focused_schema(items, Focus("/items", {"const": "x"}), exists=True)
    some_extra = focused_schema(extras, Focus("/additionalProperties", {"const": "x"}), exists=True)

    assert some_item is not None
    assert some_extra is not None
    assert _valid(some_item, ["a", "x"])
    assert not _valid(some_item, ["a"])
    assert _valid(some_extra, {"a": 1, "q": "a", "r": "x"})
    assert not _valid(some_extra, {"a": "x", "q": "a"})


@pytest.mark.parametrize(
    ("pointer", "place"),
    [
        ("", ()),
        ("/properties/a/items/properties/b", ("a", None, "b")),
        ("/prefixItems/1", ("1",)),
        ("/items/0/additionalProperties", ("0", None)),
        ("/anyOf/2/properties/x", ("x",)),
        ("/patternProperties/^x-/then", (None,)),
    ],
)
def test_the_place_in_documents(pointer: str, place: tuple[str | None, ...]) -> None:
    assert document_place(pointer) == place


_CHANGES = [
    (pair.name, i, source, change)
    for pair in CORPUS
    for i, change in enumerate(compare_schemas(pair.old, pair.new))
    for source in [pair.old if change.direction == "backward" else pair.new]
]


@pytest.mark.parametrize(("name", "index", "source", "change"), _CHANGES, ids=[f"{c[0]}#{c[1]}" for c in _CHANGES])
def test_every_corpus_focus_only_narrows(name: str, index: int, source: dict[str, Any], change: Any) -> None:
    dialect = DRAFT7 if source.get("$schema") == D7 else DRAFT202012
    narrowed = focused_schema(source, change.focus, dialect)
    if narrowed is None:
        return
    original = compile_schema(source, dialect)

    def body(document: Any) -> None:
        if not is_valid(original, document):
            raise CheckFailure("the narrowed schema accepts what the original rejects")

    outcome = explore(from_schema(narrowed, dialect=dialect), body, RunOptions(max_examples=20, derandomize=True))

    assert outcome.failure is None, outcome.counterexample
