"""References inside embedded ``$id`` resources, as the generator follows them through :class:`CompiledSchema`.

``root_base``, ``base_of``, ``resolve`` and ``for_subschema(node, base_uri)``: a sub-schema inside
an embedded resource resolves ``#/$defs/...`` against that resource, a ``$ref`` naming an
embedded ``$id`` (absolutely or relative to the base) or an ``$anchor`` is followed, and one
naming another file or URL is None, never fetched.
"""

from __future__ import annotations

import json
import socket
from importlib import resources
from typing import Any

import pytest

from json_contracts.schema.checking import check_schema
from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT7, DRAFT202012, iter_subschemas

ROOT = "http://example.com/root.json"
X = "http://example.com/x.json"


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def _embedded(root_id: str | None = None) -> dict[str, Any]:
    """A root whose ``$defs/x`` is a resource of its own, with a ``$defs/y`` that only it can name."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"viaId": {"$ref": "x.json" if root_id else X}, "viaAnchor": {"$ref": "#top"}},
        "$defs": {
            "top": {"$anchor": "top", "type": "boolean"},
            "x": {
                "$id": X,
                "type": "object",
                "properties": {"a": {"$ref": "#/$defs/y"}, "b": {"$ref": "#inner"}},
                "$defs": {
                    "y": {"type": "integer", "minimum": 10},
                    "z": {"$anchor": "inner", "type": "string"},
                },
            },
            "nothing": False,
        },
    }
    if root_id:
        schema["$id"] = root_id
    return schema


def test_the_root_base_is_the_root_id_or_empty() -> None:
    assert compile_schema(_embedded(ROOT), DRAFT202012).root_base == ROOT
    assert compile_schema(_embedded(), DRAFT202012).root_base == ""
    assert compile_schema({"id": ROOT}, DRAFT4).root_base == ROOT
    assert compile_schema({"$id": ROOT + "#"}, DRAFT202012).root_base == ROOT


def test_base_of_joins_an_id_onto_the_base() -> None:
    compiled = compile_schema(_embedded(ROOT), DRAFT202012)

    assert compiled.base_of({"$id": "sub/x.json"}, ROOT) == "http://example.com/sub/x.json"
    assert compiled.base_of({"$id": X}, "") == X
    assert compiled.base_of({"type": "string"}, ROOT) == ROOT
    assert compiled.base_of(True, ROOT) == ROOT


def test_base_of_follows_the_dialect() -> None:
    assert compile_schema({}, DRAFT4).base_of({"id": "a.json"}, ROOT) == "http://example.com/a.json"
    assert compile_schema({}, DRAFT4).base_of({"$id": "a.json"}, ROOT) == ROOT
    assert compile_schema({}, DRAFT6).base_of({"$id": "a.json"}, ROOT) == "http://example.com/a.json"
    # draft-07: an $id that is only a fragment names a place, and an $id beside $ref is ignored
    assert compile_schema({}, DRAFT7).base_of({"$id": "#here"}, ROOT) == ROOT
    assert compile_schema({}, DRAFT7).base_of({"$id": "a.json", "$ref": "#"}, ROOT) == ROOT


@pytest.mark.parametrize("root_id", [None, ROOT])
def test_resolve_finds_local_pointers_embedded_resources_and_anchors(root_id: str | None) -> None:
    schema = _embedded(root_id)
    assert check_schema(schema, DRAFT202012) is None
    compiled = compile_schema(schema, DRAFT202012)
    base = compiled.root_base
    x = schema["$defs"]["x"]

    assert compiled.resolve("#/$defs/top", None) == (schema["$defs"]["top"], base)
    assert compiled.resolve("#top") == (schema["$defs"]["top"], base)
    assert compiled.resolve(X) == (x, X)
    assert compiled.resolve("#/$defs/x", base) == (x, X)
    assert compiled.resolve("#/$defs/y", X) == (x["$defs"]["y"], X)
    assert compiled.resolve("#inner", X) == (x["$defs"]["z"], X)
    assert compiled.resolve(X + "#inner") == (x["$defs"]["z"], X)
    assert compiled.resolve(X + "#/properties/a") == (x["properties"]["a"], X)
    found = compiled.resolve("#/$defs/x")
    assert found is not None
    assert found[0] is x  # the caller's own objects, not a copy


def test_resolve_follows_a_name_relative_to_the_base() -> None:
    compiled = compile_schema(_embedded(ROOT), DRAFT202012)

    assert compiled.resolve("x.json") == (_embedded(ROOT)["$defs"]["x"], X)
    assert compiled.resolve("x.json#/$defs/y", ROOT) == ({"type": "integer", "minimum": 10}, X)
    assert compiled.resolve("root.json#/$defs/top", X) == ({"$anchor": "top", "type": "boolean"}, ROOT)


def test_resolve_returns_a_false_sub_schema_as_false() -> None:
    compiled = compile_schema(_embedded(), DRAFT202012)

    assert compiled.resolve("#/$defs/nothing") == (False, "")


@pytest.mark.parametrize(
    "ref",
    [
        "other.json",
        "other.json#/$defs/a",
        "https://elsewhere.example/schema.json",
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2020-12/schema",
        "#/$defs/missing",
        "#/$defs/y",  # only inside x.json
        "#nowhere",
        "#/properties/viaId/$ref/0",
    ],
)
def test_resolve_is_none_for_what_this_schema_does_not_hold(ref: str) -> None:
    compiled = compile_schema(_embedded(ROOT), DRAFT202012)

    assert compiled.resolve(ref) is None


def test_resolve_in_draft_07_reads_a_fragment_id_as_an_anchor() -> None:
    schema: dict[str, Any] = {"definitions": {"a": {"$id": "#alpha", "type": "string"}}, "$ref": "#alpha"}
    compiled = compile_schema(schema, DRAFT7)

    assert compiled.resolve("#alpha") == (schema["definitions"]["a"], "")


def test_resolve_in_draft_04_reads_id() -> None:
    schema: dict[str, Any] = {
        "id": ROOT,
        "definitions": {"a": {"id": "a.json", "definitions": {"b": {"type": "integer"}}}},
    }
    compiled = compile_schema(schema, DRAFT4)

    assert compiled.resolve("a.json") == (schema["definitions"]["a"], "http://example.com/a.json")
    assert compiled.resolve("#/definitions/b", "http://example.com/a.json") == (
        {"type": "integer"},
        "http://example.com/a.json",
    )


def test_a_validator_for_a_node_inside_an_embedded_resource_resolves_against_that_resource() -> None:
    schema = _embedded()
    compiled = compile_schema(schema, DRAFT202012)
    x = schema["$defs"]["x"]

    validator = compiled.for_subschema(x["properties"]["a"], X)

    assert validator.is_valid(12)
    assert not validator.is_valid(3)
    assert not validator.is_valid("12")
    whole = compiled.for_subschema(x, compiled.base_of(x, compiled.root_base))
    assert whole.is_valid({"a": 11, "b": "s"})
    assert not whole.is_valid({"a": 11, "b": 1})


def test_a_validator_for_a_node_resolves_against_the_root_by_default() -> None:
    schema = _embedded(ROOT)
    compiled = compile_schema(schema, DRAFT202012)

    validator = compiled.for_subschema(schema["properties"]["viaId"])

    assert validator.is_valid({"a": 10})
    assert not validator.is_valid({"a": 9})
    assert compiled.for_subschema(schema["properties"]["viaAnchor"]).is_valid(True)


def test_a_validator_for_a_node_keeps_our_keywords_and_messages() -> None:
    schema = {"$defs": {"a": {"$schema": "http://json-schema.org/draft-07/schema#", "required": ["p", "q"]}}}
    compiled = compile_schema(schema, DRAFT202012)

    errors = list(compiled.for_subschema(schema["$defs"]["a"]).iter_errors({}))

    assert type(compiled.for_subschema(schema["$defs"]["a"])) is type(compiled.validator)
    assert [list(e.path) for e in errors] == [["p"], ["q"]]


def test_a_node_s_validator_is_built_from_the_compiled_copy_not_a_new_one() -> None:
    schema = _embedded()
    compiled = compile_schema(schema, DRAFT202012)
    node = schema["$defs"]["x"]

    assert compiled.for_subschema(node, X).schema is compiled.for_subschema(node, X).schema


def test_for_subschema_reuses_the_compiled_copy_of_every_node_of_a_big_schema() -> None:
    """Each call is a lookup: no copy of the node's subtree (the root's copy took 0.09 s on renovate's schema)."""
    vendored = resources.files("check_jsonschema") / "builtin_schemas" / "vendor" / "renovate.json"
    schema = json.loads(vendored.read_text(encoding="utf-8"))
    compiled = compile_schema(schema, DRAFT7)
    nodes: list[Any] = []
    pending: list[Any] = [schema]
    while pending:
        node = pending.pop()
        nodes.append(node)
        if isinstance(node, dict):
            pending.extend(sub for _, sub in iter_subschemas(node))

    copied = [
        node
        for node in nodes
        if isinstance(node, dict) and compiled.for_subschema(node).schema is not compiled.for_subschema(node).schema
    ]

    assert len(nodes) > 20_000
    assert copied == []
    assert compiled.for_subschema(schema).schema is compiled.validator.schema


def test_a_schema_changed_after_compiling_still_gets_validators() -> None:
    schema: dict[str, Any] = {"properties": {"a": {"type": "integer"}}}
    compiled = compile_schema(schema, DRAFT202012)
    schema["properties"]["b"] = {"type": "string", "pattern": "^\\d+$"}
    schema["items"] = [{"type": "string"}]

    assert compiled.for_subschema(schema["properties"]["b"]).is_valid("12")
    assert not compiled.for_subschema(schema["properties"]["b"]).is_valid("\u0661\u0662")
    assert compiled.for_subschema(schema["properties"]["a"]).is_valid(1)


@pytest.mark.parametrize("dialect", ["draft-04", "draft-06", "draft-07"])
def test_dependencies_given_as_property_lists_are_not_crawled_as_schemas(dialect: str) -> None:
    # SchemaStore's tmlanguage.json: referencing's crawl read ["begin"] as a schema and raised
    # AttributeError, a traceback out of `validate`.
    dependencies = {"begin": {"required": ["end"]}, "end": ["begin"]}
    schema = {"$id": "https://example.com/t.json", "definitions": {"p": {"dependencies": dependencies}},
              "$ref": "#/definitions/p"}  # fmt: skip
    assert check_schema(schema, dialect) is None
    compiled = compile_schema(schema, dialect)
    assert not compiled.validator.is_valid({"end": 1})
    assert compiled.validator.is_valid({"end": 1, "begin": 2})
