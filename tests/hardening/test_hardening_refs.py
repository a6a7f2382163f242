"""``$ref`` loops however they are spelt, and references the validator cannot follow, are load errors.

Before: a loop written with a percent-encoded pointer (``#/%24defs/a``), through a place no keyword
owns (``#/$defs/x/notAKeyword``), through an ``$anchor`` or an ``$id`` passed ``validate`` and
``lint``, then hung or crashed the validator; a pointer into an array with a name (``#/allOf/x``)
crashed the loader, and one at a list or a string crashed the validator. Now the loader follows each
reference as the validator does and refuses all of them (JC019), naming the reference.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from json_contracts.schema.checking import check_schema
from tests.support.cli import script_path


def _loop_through(ref: str, defs: dict[str, Any]) -> dict[str, Any]:
    """``#/$defs/n0`` holds an ``anyOf`` that reaches ``ref``; ``defs`` put ``ref``'s place back on n0."""
    return {"$ref": "#/$defs/n0", "$defs": {"n0": {"anyOf": [{"$ref": ref}]}, **defs}}


# Each schema loops back to where it started without reading any of the document.
LOOPS: dict[str, dict[str, Any]] = {
    "plain": _loop_through("#/$defs/n0", {}),
    "percent-encoded $": _loop_through("#/%24defs/n0", {}),
    "percent-encoded name": _loop_through("#/$defs/n%30", {}),
    "percent-encoded both": _loop_through("#/%24%64efs/n0", {}),
    "percent-encoded slash": {"$defs": {"a": {"b": {"allOf": [{"$ref": "#/$defs/a%2Fb"}]}}}, "$ref": "#/$defs/a%2Fb"},
    "escaped slash": {"$defs": {"a/b": {"not": {"$ref": "#/$defs/a~1b"}}}, "$ref": "#/$defs/a~1b"},
    "escaped tilde": {"$defs": {"a~b": {"oneOf": [{"$ref": "#/$defs/a~0b"}]}}, "$ref": "#/$defs/a~0b"},
    "percent-encoded tilde escape": {"$defs": {"a~b": {"if": {"$ref": "#/$defs/a%7E0b"}}}, "$ref": "#/$defs/a~0b"},
    "not a keyword": _loop_through("#/$defs/x/notAKeyword/y", {"x": {"notAKeyword": {"y": {"$ref": "#/$defs/n0"}}}}),
    "properties map": _loop_through("#/$defs/x/properties/p", {"x": {"properties": {"p": {"$ref": "#/$defs/n0"}}}}),
    "properties map, encoded": _loop_through("#/$defs/x/propert%69es/p", {"x": {"properties": {"p": {"$ref": "#"}}}}),
    "prefixItems": _loop_through("#/$defs/x/prefixItems/0", {"x": {"prefixItems": [{"$ref": "#/%24defs/n0"}]}}),
    "nested $defs": _loop_through("#/$defs/x/$defs/y", {"x": {"$defs": {"y": {"$ref": "#/$defs/n%30"}}}}),
    "dependentSchemas": _loop_through(
        "#/$defs/x/dependentSchemas/k", {"x": {"dependentSchemas": {"k": {"$ref": "#/%24defs/n0"}}}}
    ),
    "anchor": {"$anchor": "top", "allOf": [{"$ref": "#top"}]},
    "anchor in $defs": {"$defs": {"a": {"$anchor": "here", "anyOf": [{"$ref": "#here"}]}}, "$ref": "#here"},
    "$id": {"$id": "https://example.com/s.json", "allOf": [{"$ref": "https://example.com/s.json"}]},
    "relative $id": {
        "$id": "https://example.com/root.json",
        "$defs": {"a": {"$id": "a.json", "allOf": [{"$ref": "root.json#/%24defs/a"}]}},
        "$ref": "a.json",
    },
    "$dynamicRef": {"$dynamicAnchor": "node", "anyOf": [{"$dynamicRef": "#node"}]},
}


@pytest.mark.parametrize("schema", list(LOOPS.values()), ids=list(LOOPS))
def test_a_loop_that_reads_nothing_is_refused_however_spelt(schema: dict[str, Any]) -> None:
    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert problem.code == "JC019"
    assert "cycle through #" in problem.message, problem.message
    assert "never reaches properties or items" in problem.message


def test_a_draft07_loop_through_an_items_array_is_refused() -> None:
    schema = {
        "definitions": {
            "t": {"items": [{"$ref": "#/definitions/n"}]},
            "n": {"allOf": [{"$ref": "#/definitions/t/items/0"}]},
        },
        "$ref": "#/definitions/n",
    }
    problem = check_schema(schema, "draft-07")

    assert problem is not None
    assert "$ref cycle through #/definitions/" in problem.message


def test_the_cycle_is_named_by_the_place_it_reaches_not_by_the_spelling() -> None:
    problem = check_schema(LOOPS["percent-encoded both"], "2020-12")

    assert problem is not None
    assert "$ref cycle through #/$defs/n0 " in problem.message or "$ref cycle through #/$defs/n0/" in problem.message


# Recursion that reads the document, and references that merely reuse a schema: never refused.
FINE: dict[str, dict[str, Any]] = {
    "through a property": {"$defs": {"n": {"properties": {"next": {"$ref": "#/%24defs/n"}}}}, "$ref": "#/$defs/n"},
    "through items": {"$anchor": "list", "items": {"$ref": "#list"}},
    "reuse of a property's schema": {
        "properties": {"a": {"type": "string"}, "b": {"$ref": "#/properties/a"}, "c": {"$ref": "#/propert%69es/a"}}
    },
    "an anchor reused twice": {
        "$defs": {"s": {"$anchor": "str", "type": "string"}},
        "properties": {"a": {"$ref": "#str"}, "b": {"$ref": "#str"}},
    },
    "an $id reused": {
        "$id": "https://example.com/r.json",
        "$defs": {"s": {"$id": "s.json", "type": "string"}},
        "properties": {"a": {"$ref": "s.json"}, "b": {"$ref": "https://example.com/r.json#/$defs/s"}},
    },
    "a diamond without a loop": {
        "$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}, {"$ref": "#/$defs/b"}]}, "b": {"type": "string"}},
        "$ref": "#/$defs/a",
    },
    "a tree through $dynamicRef": {
        "$dynamicAnchor": "node",
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}},
    },
}


@pytest.mark.parametrize("schema", list(FINE.values()), ids=list(FINE))
def test_recursion_that_reads_the_document_and_plain_reuse_load(schema: dict[str, Any]) -> None:
    assert check_schema(schema, "2020-12") is None


# References the validator would crash on: a clean problem at the reference, never an exception.
UNFOLLOWABLE: dict[str, tuple[dict[str, Any], str, str]] = {
    "a name as an array index": ({"allOf": [{}], "$ref": "#/allOf/x"}, "/$ref", "can't resolve reference #/allOf/x"),
    "a list": ({"required": ["a"], "properties": {"x": {"$ref": "#/required"}}}, "/properties/x/$ref", "an array"),
    "a string": ({"title": "t", "properties": {"x": {"$ref": "#/title"}}}, "/properties/x/$ref", "a string"),
    "a number": ({"x-count": 3, "$ref": "#/x-count"}, "/$ref", "a number"),
    "a pointer with a dot-dot": (
        {"$defs": {"n0": {"allOf": [{"$ref": "#/$defs/n0/allOf/0/.."}]}}, "$ref": "#/$defs/n0"},
        "/$defs/n0/allOf/0/$ref",
        "can't resolve reference",
    ),
}


@pytest.mark.parametrize("case", list(UNFOLLOWABLE.values()), ids=list(UNFOLLOWABLE))
def test_a_reference_the_validator_cannot_follow_is_a_problem_at_the_reference(
    case: tuple[dict[str, Any], str, str],
) -> None:
    schema, pointer, words = case
    problem = check_schema(schema, "2020-12")

    assert problem is not None
    assert problem.code == "JC019"
    assert problem.pointer == pointer
    assert words in problem.message, problem.message


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [str(script_path()), *args, "-c", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder.parent,
        timeout=120,  # before the fix, test hung here for good (killed after 120 s when measured)
        check=False,
    )


@pytest.mark.parametrize("spelling", ["#/%24defs/n0", "#/$defs/n0/notAKeyword", "#a"])
def test_the_cli_test_command_reports_a_spelt_loop_at_load(tmp_path: Path, spelling: str) -> None:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    n0 = {"$anchor": "a", "anyOf": [{"$ref": "#/$defs/n1"}], "notAKeyword": {"$ref": "#/$defs/n1"}}
    contract = {"description": "loops", "schema": {"$ref": "#/$defs/n0", "$defs": {"n0": n0, "n1": {"$ref": spelling}}}}
    (folder / "loop.json").write_text(json.dumps(contract, indent=2), encoding="utf-8")

    for args in (["validate"], ["lint"], ["test", "--max-examples", "3", "--no-database"]):
        ran = _run(folder, *args)
        both = ran.stdout + ran.stderr
        assert ran.returncode == 1, both[-2000:]
        assert "JC019" in both, both[-2000:]
        assert "cycle through #/$defs/n" in both, both[-2000:]
        assert "Traceback" not in both, both[-2000:]
        assert "panic" not in both.lower(), both[-2000:]
