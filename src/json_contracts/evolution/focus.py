"""Narrowing a schema to the place a change is, so the witness search lands on it.

A focus names a place by the path a document takes to it through the schema (``/properties/a``,
``/items``, ``/anyOf/1``), which may go through a ``$ref`` and may name a place the schema does
not write (a property it leaves to ``additionalProperties``, a tuple position its ``items``
covers). :func:`focused_schema` follows that path in a copy of the schema and makes every document
drawn from the copy reach the place: the object on the way requires the property, the array gets
the item, the ``anyOf`` keeps only the branch, the ``if`` must hold for a ``then``. A ``$ref`` on
the way is replaced by a copy of its target, so the constraint holds at this one use of a
definition, not at all of them. Every step only narrows: what the copy accepts the original
accepts (and the search checks it again).

:func:`document_place` reads the same path as a place in documents, where errors are reported.
"""

from __future__ import annotations

import copy
import re
from typing import Any
from urllib.parse import unquote

from json_contracts._json.pointers import lookup, pointer_parts
from json_contracts._json.text import array_index
from json_contracts.evolution.model import Focus
from json_contracts.schema.patterns import matches
from json_contracts.schema.vocabulary import DRAFT7

__all__ = ["document_place", "focused_schema"]

_CONTAINERS = ("$defs", "definitions", "$schema", "$id")
_PURE_REF = frozenset({"$ref", "$defs", "definitions", "$schema", "$id", "$comment", "title", "description",
                       "examples", "default", "deprecated", "readOnly", "writeOnly", "$anchor"})  # fmt: skip
#: Names tried for a property a ``patternProperties`` pattern must match, after the pattern's own literal text.
_CANDIDATES = ("a", "x", "A", "X", "0", "1", "_", "aa", "ab", "a0", "a_b", "a-b", "x-a", "abc", "A0", "aA", "ID",
               "id", "name", "key", "foo", "en", "en-US", "2020-01-01", "a.b", "a:b", "$a", "@a")  # fmt: skip
_META = re.compile(r"[\\.^$|?*+()\[\]{}]")


class _Impossible(Exception):
    """The source cannot hold a value at the place (a closed object, a closed tuple)."""


def focused_schema(
    schema: dict[str, Any], focus: Focus, dialect: str | None = None, *, exists: bool = False
) -> dict[str, Any] | None:
    """A copy of ``schema`` narrowed to ``focus``, or None when the path leads to no place the schema can fill.

    By default every item or extra property on the way satisfies the focus (the most documents
    to draw from); with ``exists``, one of them does, which is the question "does this document land
    on the change?" asks of a witness found elsewhere.
    """
    if dialect is None:
        declared = schema.get("$schema")
        dialect = DRAFT7 if isinstance(declared, str) and "draft-07" in declared else "2020-12"
    box: dict[str, Any] = {"root": copy.deepcopy(schema)}
    try:
        _Narrowing(box, dialect == DRAFT7, exists).run(pointer_parts(focus.pointer), focus.schema)
    except (_Impossible, KeyError, IndexError, ValueError, TypeError):
        return None
    root = box["root"]
    return root if isinstance(root, dict) else None


class _Narrowing:
    """One walk down a copied schema (held in ``box["root"]``, so even the root can be replaced)."""

    def __init__(self, box: dict[str, Any], draft7: bool, exists: bool) -> None:
        self.box = box
        self.draft7 = draft7
        self.exists = exists

    def run(self, parts: list[str], constraint: dict[str, Any]) -> None:
        holder: Any = self.box
        key: Any = "root"
        i = 0
        while True:
            node = self.settle(holder, key)
            if i == len(parts):
                break
            holder, key, i = self.step(node, parts, i)
        if constraint:
            node = holder[key]
            if "$ref" in node and self.draft7:  # draft-07 ignores a $ref's siblings: wrap it
                holder[key] = {"allOf": [node, copy.deepcopy(constraint)]}
            else:
                node["allOf"] = [
                    *(node["allOf"] if isinstance(node.get("allOf"), list) else []),
                    copy.deepcopy(constraint),
                ]

    def settle(self, holder: Any, key: Any) -> dict[str, Any]:
        """The schema object at ``holder[key]``: ``true`` made ``{}``, a ``$ref`` replaced by its target's copy."""
        for _ in range(32):
            node = holder[key]
            if node is True:
                node = holder[key] = {}
            if not isinstance(node, dict):
                raise _Impossible
            ref = node.get("$ref")
            if not isinstance(ref, str) or not (self.draft7 or set(node) <= _PURE_REF):
                return node
            target = _resolve(self.box["root"], ref)
            if target is None:
                return node
            inlined = {} if target is True else copy.deepcopy(target)
            if not isinstance(inlined, dict):
                raise _Impossible
            kept = {k: node[k] for k in _CONTAINERS if k in node}  # the root's definitions stay where refs find them
            if kept.keys() & inlined.keys():
                return node
            holder[key] = {**inlined, **kept}
        raise _Impossible

    def step(self, node: dict[str, Any], parts: list[str], i: int) -> tuple[Any, Any, int]:
        """One keyword of the path: make ``node`` reach it, and return where the next node is."""
        part = parts[i]
        name = parts[i + 1] if i + 1 < len(parts) else None
        if part == "properties" and name is not None:
            declared = node.setdefault("properties", {})
            if name not in declared:
                declared[name] = self.undeclared(node, name)
            _require(node, name)
            return declared, name, i + 2
        if self.exists and part in ("patternProperties", "additionalProperties", "items", "additionalItems"):
            return self.some(node, parts, i)
        if part == "patternProperties" and name is not None:
            patterns = node.setdefault("patternProperties", {})
            if name not in patterns:
                patterns[name] = self.undeclared(node, None)
            matching = _name_matching(name, node)
            if matching is not None:
                _require(node, matching)
            return patterns, name, i + 2
        if part == "additionalProperties":
            extra = node.get("additionalProperties", True)
            if extra is False:
                raise _Impossible
            node["additionalProperties"] = extra
            _require(node, _fresh_name(node))
            return node, part, i + 1
        if part == "propertyNames":
            node.setdefault(part, True)
            _at_least(node, "minProperties", 1)
            return node, part, i + 1
        if part in ("items", "prefixItems") and name is not None and (index := array_index(name)) is not None:
            return (*self.position(node, part, index), i + 2)
        if part == "items":
            prefix = node.get("prefixItems") if not self.draft7 else None
            rest = node.get("items", True)
            if rest is False or isinstance(rest, list):
                raise _Impossible
            node["items"] = rest
            _at_least(node, "minItems", len(prefix) + 1 if isinstance(prefix, list) else 1)
            return node, part, i + 1
        if part == "additionalItems":
            items = node.get("items")
            rest = node.get("additionalItems", True)
            if rest is False or not isinstance(items, list):
                raise _Impossible
            node["additionalItems"] = rest
            _at_least(node, "minItems", len(items) + 1)
            return node, part, i + 1
        if part == "contains":
            node.setdefault(part, True)
            return node, part, i + 1
        if part in ("allOf", "anyOf", "oneOf") and name is not None:
            branches = node[part]
            index = array_index(name)
            if not isinstance(branches, list) or index is None or index >= len(branches):
                raise _Impossible
            if part == "anyOf":
                node[part] = [branches[index]]
                return node[part], 0, i + 2
            if part == "oneOf":
                others = [b for j, b in enumerate(branches) if j != index]
                node[part] = [branches[index]]
                if others:  # still exactly one: none of the others may match
                    _also(node, {"not": {"anyOf": others}})
                return node[part], 0, i + 2
            return branches, index, i + 2
        if part in ("then", "else"):
            if "if" not in node:
                raise _Impossible
            condition = copy.deepcopy(node["if"])
            _also(node, condition if part == "then" else {"not": condition})
            node.setdefault(part, True)
            return node, part, i + 1
        if part in ("dependentSchemas", "dependencies") and name is not None:
            mapping = node.setdefault(part, {})
            if isinstance(mapping.get(name, True), list):
                raise _Impossible
            mapping.setdefault(name, True)
            _require(node, name)
            return mapping, name, i + 2
        raise _Impossible

    def some(self, node: dict[str, Any], parts: list[str], i: int) -> tuple[Any, Any, int]:
        """A wildcard step taken for one value, not all: some item or extra property is at the place."""
        part = parts[i]
        index = array_index(parts[i + 1]) if i + 1 < len(parts) else None
        if part in ("items", "additionalItems") and index is None:
            rest = node.get(part, True)
            if rest is False or isinstance(rest, list) or (part == "additionalItems" and "items" not in node):
                raise _Impossible
            wrapper: dict[str, Any] = {"contains": {"allOf": [copy.deepcopy(rest)]}}
            _also(node, wrapper)
            return wrapper, "contains", i + 1
        if part in ("items", "additionalItems") and index is not None:
            return (*self.position(node, part, index), i + 2)
        declared, patterns = _mapping(node, "properties"), _mapping(node, "patternProperties")
        if part == "patternProperties":
            value = patterns[parts[i + 1]]
            inner: dict[str, Any] = {"not": {"allOf": [copy.deepcopy(value)]}}
            _also(node, {"not": {"patternProperties": {parts[i + 1]: inner}}})
            return inner, "not", i + 2
        extra = node.get("additionalProperties", True)
        if extra is False:
            raise _Impossible
        inner = {"not": {"allOf": [copy.deepcopy(extra)]}}
        others = {"properties": dict.fromkeys(declared, True), "patternProperties": dict.fromkeys(patterns, True)}
        _also(node, {"not": {**others, "additionalProperties": inner}})
        return inner, "not", i + 1

    def undeclared(self, node: dict[str, Any], name: str | None) -> Any:
        """What an object lets a property it does not declare hold, written as that property's schema.

        Declared, the property escapes ``additionalProperties``, so the schema carries it along
        (only narrower: the patterns that match the name still apply).
        """
        patterns = node.get("patternProperties")
        if name is not None and isinstance(patterns, dict) and any(matches(p, name) for p in patterns):
            return {}
        extra = node.get("additionalProperties", True)
        if extra is False:
            raise _Impossible
        return {} if extra is True else {"allOf": [copy.deepcopy(extra)]}

    def position(self, node: dict[str, Any], keyword: str, index: int) -> tuple[Any, Any]:
        """Tuple position ``index`` written out (from the rest schema when the tuple is shorter), and required."""
        if self.draft7:
            items = node.get("items", True)
            if isinstance(items, list):
                prefix, rest = items, node.get("additionalItems", True)
            else:
                prefix, rest = [], items
                if rest is not True:
                    node["additionalItems"] = rest
            if index >= len(prefix) and rest is False:
                raise _Impossible
            node["items"] = [*prefix, *(copy.deepcopy(rest) for _ in range(index + 1 - len(prefix)))]
            holder = node["items"]
        else:
            prefix = node.get("prefixItems", [])
            rest = node.get("items", True)
            if not isinstance(prefix, list) or (index >= len(prefix) and rest is False):
                raise _Impossible
            node["prefixItems"] = [*prefix, *(copy.deepcopy(rest) for _ in range(index + 1 - len(prefix)))]
            holder = node["prefixItems"]
        _at_least(node, "minItems", index + 1)
        return holder, index


def _resolve(root: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    fragment = unquote(ref[1:])
    if fragment and not fragment.startswith("/"):
        return None
    found, node = lookup(root, fragment)
    return node if found else None


def _mapping(node: dict[str, Any], key: str) -> dict[str, Any]:
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _require(node: dict[str, Any], name: str) -> None:
    required = node.get("required")
    if not isinstance(required, list):
        node["required"] = [name]
    elif name not in required:
        node["required"] = [*required, name]


def _at_least(node: dict[str, Any], keyword: str, value: int) -> None:
    current = node.get(keyword)
    if not isinstance(current, int) or isinstance(current, bool) or current < value:
        node[keyword] = value


def _also(node: dict[str, Any], constraint: Any) -> None:
    node["allOf"] = [*(node["allOf"] if isinstance(node.get("allOf"), list) else []), constraint]


def _fresh_name(node: dict[str, Any]) -> str:
    """A property name the object neither declares nor matches with a pattern: ``additionalProperties`` holds it."""
    declared, patterns = _mapping(node, "properties"), _mapping(node, "patternProperties")
    for i in range(1, 1000):
        name = "extra" if i == 1 else f"extra{i}"
        if name not in declared and not any(matches(p, name) for p in patterns):
            return name
    raise _Impossible


def _name_matching(pattern: str, node: dict[str, Any]) -> str | None:
    """A property name ``pattern`` matches that the object does not declare, or None when none is guessed."""
    literal = pattern.removeprefix("^").removesuffix("$")
    declared = _mapping(node, "properties")
    for name in ([literal] if literal and not _META.search(literal) else []) + list(_CANDIDATES):
        if name not in declared and matches(pattern, name):
            return name
    return None


def document_place(pointer: str) -> tuple[str | None, ...]:
    """The place in documents a focus path leads to, as pointer segments (None: any key or index)."""
    parts = pointer_parts(pointer)
    place: list[str | None] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        following = parts[i + 1] if i + 1 < len(parts) else None
        indexed = following is not None and array_index(following) is not None
        if part in ("properties", "prefixItems") or (part == "items" and indexed):
            place.append(following)
            i += 2
        elif part == "patternProperties":
            place.append(None)
            i += 2
        elif part in ("additionalProperties", "additionalItems", "items", "contains"):
            place.append(None)
            i += 1
        elif part in ("allOf", "anyOf", "oneOf", "dependentSchemas", "dependencies"):
            i += 2
        else:  # then, else, propertyNames: the same value
            i += 1
    return tuple(place)
