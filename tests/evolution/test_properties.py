"""Properties of ``diff`` over generated schema pairs: no breaking finding without a separating witness,
and a schema compared with itself, or with a rewrite of itself, shows no change.

The pairs are mutations of three realistic base schemas (both dialects, ``$defs``/``definitions``,
tuples, ``dependencies``) and small schemas drawn from a grammar. The witness search runs inside
the property (a nested Hypothesis run), at a small budget: the property is soundness, not reach.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from json_contracts.errors import LoadError
from json_contracts.evolution.compare import diff_contracts
from json_contracts.evolution.rules import compare_schemas, equivalent
from json_contracts.testing.results import RunOptions
from tests.evolution.corpus import D7, obj
from tests.evolution.support import contract, separates

_INNER = RunOptions(max_examples=25, derandomize=True)
_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.nested_given, HealthCheck.too_slow, HealthCheck.data_too_large],
)

BASES: list[dict[str, Any]] = [
    obj(
        {
            "summary": {"type": "string", "maxLength": 80},
            "severity": {"type": "string", "enum": ["low", "medium", "high"]},
            "count": {"type": "integer", "minimum": 0, "maximum": 10},
            "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 3},
            "who": obj({"name": {"type": "string"}, "email": {"type": "string", "format": "email"}}, ["name"]),
        },
        ["summary", "severity"],
        closed=True,
    ),
    {
        "$defs": {
            "line": obj(
                {"sku": {"type": "string", "pattern": "^[A-Z]{3}$"}, "qty": {"type": "integer", "minimum": 1}},
                ["sku"],
                closed=True,
            ),
        },
        **obj(
            {
                "lines": {"type": "array", "items": {"$ref": "#/$defs/line"}, "minItems": 1},
                "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False},
                "kind": {"anyOf": [{"const": "a"}, {"type": "integer"}]},
            },
            ["lines"],
            dependentRequired={"point": ["kind"]},
        ),
    },
    {
        "$schema": D7,
        "definitions": {"code": {"type": "string", "enum": ["a", "b", "c"]}},
        **obj(
            {
                "codes": {
                    "type": "array",
                    "items": [{"$ref": "#/definitions/code"}, {"type": "integer"}],
                    "additionalItems": False,
                },
                "note": {"type": ["string", "null"], "minLength": 1},
            },
            dependencies={"note": ["codes"]},
        ),
    },
]

_SINGLE = ("items", "additionalProperties", "additionalItems", "not", "contains")
_MAPS = ("properties", "$defs", "definitions", "patternProperties")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems", "items")


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema object in a schema, pre-order."""
    if not isinstance(node, dict):
        return
    yield node
    for key in _SINGLE:
        if isinstance(node.get(key), dict):
            yield from _nodes(node[key])
    for key in _MAPS:
        for sub in (node.get(key) or {}).values() if isinstance(node.get(key), dict) else ():
            yield from _nodes(sub)
    for key in _LISTS:
        for sub in node.get(key) or [] if isinstance(node.get(key), list) else []:
            yield from _nodes(sub)


def _kinds(node: dict[str, Any]) -> list[str]:
    kinds = node.get("type")
    return [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []


def _mutations(node: dict[str, Any]) -> list[Callable[[int], None]]:
    """The changes authors make that apply to ``node``, each taking a number that picks its variant."""
    kinds = _kinds(node)
    found: list[Callable[[int], None]] = []
    properties = node.get("properties") if isinstance(node.get("properties"), dict) else None
    bounds = [k for k in ("maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems") if k in node]

    def bound(how: int) -> None:
        key = bounds[how % len(bounds)]
        node[key] = max(0, node[key] + (1 if how % 2 else -1))

    def required(how: int) -> None:
        assert properties is not None
        name = sorted(properties)[how % len(properties)]
        before = list(node.get("required", []))
        node["required"] = [r for r in before if r != name] if name in before else [*before, name]

    def enum(how: int) -> None:
        node["enum"] = node["enum"][:-1] if len(node["enum"]) > 1 and how % 2 else [*node["enum"], "zz"]

    def kind(how: int) -> None:
        node["type"] = sorted({*kinds, "null"}) if how % 2 else ("integer" if "string" in kinds else "string")

    def closed(how: int) -> None:
        if node.pop("additionalProperties", None) is not False:
            node["additionalProperties"] = False

    def prop(how: int) -> None:
        assert properties is not None
        name = sorted(properties)[how % len(properties)]
        if how % 2:
            del properties[name]
            node["required"] = [r for r in node.get("required", []) if r != name]
        else:
            properties[f"new{how % 3}"] = {"type": "integer", "maximum": 3}

    def text(how: int) -> None:
        node["pattern" if how % 2 else "format"] = "^[a-z]*$" if how % 2 else "date"

    def number(how: int) -> None:
        node["exclusiveMaximum" if how % 2 else "multipleOf"] = 2

    found += [bound] if bounds else []
    found += [required, prop] if properties else []
    found += [enum] if isinstance(node.get("enum"), list) else []
    found += [kind] if kinds else []
    found += [closed] if "object" in kinds else []
    found += [text] if "string" in kinds else []
    found += [number] if {"integer", "number"} & set(kinds) else []
    return found


@st.composite
def _mutated(draw: Callable[..., Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    old = copy.deepcopy(BASES[draw(st.integers(0, len(BASES) - 1))])
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 3))):
        mutations = [mutation for node in _nodes(new) for mutation in _mutations(node)]
        mutations[draw(st.integers(0, len(mutations) - 1))](draw(st.integers(0, 10**6)))
    return old, new


_LEAF = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "integer", "number", "boolean", ["string", "null"]])},
    optional={
        "minLength": st.integers(0, 3),
        "maxLength": st.integers(2, 5),
        "minimum": st.integers(-2, 2),
        "exclusiveMaximum": st.integers(3, 6),
        "multipleOf": st.sampled_from([1, 2, 0.5]),
        "enum": st.lists(st.sampled_from(["a", "b", 1, 2, None]), min_size=1, max_size=3, unique=True),
        "pattern": st.sampled_from(["^a", "^[a-z]*$", r"\d"]),
    },
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    names = st.sampled_from(["a", "b", "c"])
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("object")},
            optional={
                "properties": st.dictionaries(names, children, max_size=3),
                "required": st.lists(names, unique=True, max_size=2),
                "additionalProperties": st.one_of(st.just(False), children),
                "dependentRequired": st.just({"a": ["b"]}),
            },
        ),
        st.fixed_dictionaries(
            {"type": st.just("array")},
            optional={
                "items": children,
                "prefixItems": st.lists(children, max_size=2),
                "maxItems": st.integers(0, 3),
                "uniqueItems": st.booleans(),
            },
        ),
        st.fixed_dictionaries({"anyOf": st.lists(children, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"oneOf": st.lists(children, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"allOf": st.lists(children, min_size=1, max_size=2)}),
    )


_SCHEMAS = st.recursive(_LEAF, _containers, max_leaves=4)


def _contracts(old: dict[str, Any], new: dict[str, Any]) -> tuple[Any, Any]:
    try:
        return contract(old), contract(new)
    except LoadError:
        assume(False)
        raise


def _check_sound(old_schema: dict[str, Any], new_schema: dict[str, Any]) -> None:
    old, new = _contracts(old_schema, new_schema)
    diff = diff_contracts(old, new, "full", _INNER)
    for change in diff.changes:
        if change.confirmed and not change.proven:
            assert separates(change, old, new), (change.message, change.witness)
    assert all(change.witness is not None or change.proven for change in diff.breaking())


@_SETTINGS
@given(_mutated())
def test_every_confirmed_change_of_a_mutated_schema_has_a_separating_witness(
    pair: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    _check_sound(*pair)


@_SETTINGS
@given(_SCHEMAS, _SCHEMAS)
def test_every_confirmed_change_between_two_small_schemas_has_a_separating_witness(
    old: dict[str, Any], new: dict[str, Any]
) -> None:
    _check_sound(old, new)


# -- a schema against itself, written differently --------------------------------------------


def _rewrite(node: Any, rng: random.Random, root: bool = True) -> Any:
    """The same schema written differently: keys shuffled, ``type`` as a list or not, ``enum`` and
    ``required`` reordered, annotations added, sub-schemas wrapped in an ``allOf`` of one."""
    if isinstance(node, list):
        return [_rewrite(item, rng, root=False) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    keys = list(node)
    rng.shuffle(keys)
    for key in keys:
        value = node[key]
        if key in ("properties", "$defs", "definitions", "patternProperties", "dependentRequired", "dependencies"):
            names = list(value)
            rng.shuffle(names)
            out[key] = {name: _rewrite(value[name], rng, root=False) for name in names}
        elif key in ("enum", "required"):
            out[key] = rng.sample(value, len(value))
        elif key == "type" and isinstance(value, str) and rng.random() < 0.5:
            out[key] = [value]
        else:
            out[key] = _rewrite(value, rng, root=False)
    if rng.random() < 0.3:
        out["description"] = "rewritten"
    if not root and "$ref" not in out and rng.random() < 0.3:
        return {"allOf": [out]}
    return out


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(st.one_of(st.sampled_from(BASES), _SCHEMAS), st.randoms(use_true_random=False))
def test_a_schema_and_a_rewrite_of_it_show_no_change(schema: dict[str, Any], rng: random.Random) -> None:
    rewritten = _rewrite(schema, rng)

    assert compare_schemas(schema, schema) == []
    assert compare_schemas(schema, rewritten) == []
    assert compare_schemas(rewritten, schema) == []
    assert equivalent(schema, rewritten)


@settings(max_examples=10, deadline=None, database=None, derandomize=True)
@given(st.sampled_from(BASES), st.randoms(use_true_random=False))
def test_diff_of_a_rewrite_has_no_change_and_costs_no_search(schema: dict[str, Any], rng: random.Random) -> None:
    old, new = contract(schema), contract(_rewrite(schema, rng))

    diff = diff_contracts(old, new, "full", _INNER)

    assert diff.changes == []
    assert diff.verdict in ("compatible", "unchanged")
