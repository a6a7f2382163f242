"""Breaking a valid document the way models do, and fixing it the way the repairs say.

The ``repair-hints`` check needs both halves: :func:`mutations` lists the single edits that
should make a document invalid (drop a required field, add an extra key, wrong type, value
outside the enum, string too long or short, number out of range, too many or too few items,
pattern broken), and :func:`apply_repairs` follows the engine's machine-readable ``repairs``
as a model following the hints would, with replacement values drawn from the sub-schema.

A mutation built from a schema's number (a string of ``maxLength + 1`` characters, an array of
``maxItems + 1`` items) is built only up to :data:`MAX_BUILT_SIZE`; one that would be larger is
listed in :attr:`Mutations.too_large` instead, naming its keyword, so a 600-byte contract cannot
make the check allocate gigabytes.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeGuard

from json_contracts._json.pointers import escape_pointer_segment, index_of, lookup, pointer_from_parts, pointer_parts
from json_contracts.agent.repair import contains_schema, first_value, merged_schema, schema_nodes_at, value_schema
from json_contracts.schema.formats import ecma_regex

__all__ = ["MAX_BUILT_SIZE", "Mutation", "Mutations", "apply_repairs", "mutations"]

#: The longest string and the longest array a mutation builds from a schema's number.
MAX_BUILT_SIZE = 100_000

_DELETE = object()  # marks a mutation that removes the key at its path


@dataclass(frozen=True)
class Mutation:
    """One edit: set (or delete) the value at ``path``; ``kind`` says what it breaks."""

    kind: str
    path: str
    value: Any = _DELETE

    def apply(self, document: Any) -> Any:
        mutated = copy.deepcopy(document)
        if self.path == "":
            return None if self.value is _DELETE else self.value
        return _set(mutated, self.path, self.value)


def _walk(document: Any) -> Iterator[tuple[str, Any]]:
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, dict):
            stack.extend((f"{path}/{escape_pointer_segment(k)}", v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((f"{path}/{i}", v) for i, v in enumerate(value))


def _set(document: Any, path: str, value: Any) -> Any:
    """``document`` with the value at ``path`` set (or deleted); a missing parent leaves it unchanged."""
    parts = pointer_parts(path)
    if not parts:
        return value
    found, parent = lookup(document, pointer_from_parts(parts[:-1]))
    last = parts[-1]
    if not found:
        return document
    if isinstance(parent, dict):
        if value is _DELETE:
            parent.pop(last, None)
        else:
            parent[last] = value
    elif isinstance(parent, list) and (index := index_of(last, len(parent) + 1)) is not None:
        if value is _DELETE:
            if index < len(parent):
                del parent[index]
        elif index == len(parent):
            parent.append(value)
        else:
            parent[index] = value
    return document


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(size: int) -> str:
    return "x" * size


def _padded(items: list[Any], size: int) -> list[Any]:
    """``items`` grown to ``size`` by repeating its first item."""
    return items + [items[0]] * (size - len(items))


def _wrong_type_value(types: set[str]) -> Any | None:
    for candidate, name in (("not a number", "string"), (12345, "number"), (None, "null"), (True, "boolean")):
        if name not in types and not (name == "number" and "integer" in types):
            return candidate
    return None


def _breaks_pattern(pattern: str) -> str | None:
    try:
        compiled = ecma_regex(pattern)
    except Exception:
        return None
    for candidate in ("", "!", "~ ~", "0", "a", "\u00e9\u00e9"):
        if compiled.find(candidate) is None:
            return candidate
    return None


class Mutations(list[Mutation]):
    """The mutations of a document, and ``too_large``: ``"maxLength 1000000000 at /name"`` for each
    one left out because it would be larger than :data:`MAX_BUILT_SIZE`."""

    def __init__(self) -> None:
        super().__init__()
        self.too_large: list[str] = []

    def add_sized(self, kind: str, path: str, keyword: str, limit: int, size: int, build: Callable[[], Any]) -> None:
        """Add the mutation ``build()`` makes, of ``size`` characters or items, unless that is too large."""
        if size > MAX_BUILT_SIZE:
            self.too_large.append(f"{kind} ({keyword} {limit} at {path or '/'})")
        else:
            self.append(Mutation(kind, path, build()))


def mutations(schema: Any, document: Any) -> Mutations:
    """Every single edit of ``document`` that the schema at that place says is invalid."""
    found = Mutations()
    for path, value in _walk(document):
        nodes = schema_nodes_at(schema, path)
        if not nodes:
            continue
        types = {t for node in nodes for t in ([node["type"]] if isinstance(node.get("type"), str) else [])}
        types |= {t for node in nodes if isinstance(node.get("type"), list) for t in node["type"]}
        if types and (wrong := _wrong_type_value(types)) is not None:
            found.append(Mutation("wrong type", path, wrong))
        enum = first_value(nodes, "enum")
        if isinstance(enum, list) and "__not_an_allowed_value__" not in enum:
            found.append(Mutation("value outside the enum", path, "__not_an_allowed_value__"))
        if isinstance(value, dict):
            for name in first_value(nodes, "required") or []:
                if isinstance(name, str) and name in value:
                    found.append(Mutation("drop a required field", f"{path}/{escape_pointer_segment(name)}"))
            if any(node.get("additionalProperties") is False for node in nodes) and "unexpectedField" not in value:
                found.append(Mutation("add an extra key", f"{path}/unexpectedField", "surprise"))
        elif isinstance(value, str):
            max_length, min_length = first_value(nodes, "maxLength"), first_value(nodes, "minLength")
            if _whole(max_length):
                size = max_length + 1
                found.add_sized("string too long", path, "maxLength", max_length, size, partial(_text, size))
            if _whole(min_length) and min_length > 0:
                size = min_length - 1
                found.add_sized("string too short", path, "minLength", min_length, size, partial(_text, size))
            pattern = first_value(nodes, "pattern")
            if isinstance(pattern, str) and (broken := _breaks_pattern(pattern)) is not None:
                found.append(Mutation("pattern broken", path, broken))
        elif isinstance(value, int | float) and not isinstance(value, bool):
            for keyword, step in (("maximum", 1), ("exclusiveMaximum", 0), ("minimum", -1), ("exclusiveMinimum", 0)):
                limit = first_value(nodes, keyword)
                if isinstance(limit, int | float) and not isinstance(limit, bool):
                    found.append(Mutation("number out of range", path, limit + step))
        elif isinstance(value, list):
            max_items, min_items = first_value(nodes, "maxItems"), first_value(nodes, "minItems")
            if _whole(max_items) and value:
                size = max_items + 1
                found.add_sized("too many items", path, "maxItems", max_items, size, partial(_padded, value, size))
            if _whole(min_items) and min_items > 0:
                found.append(Mutation("too few items", path, value[: min_items - 1]))
    return found


Draw = Callable[[Any], Any]  # draws one value valid against a sub-schema node


def apply_repairs(schema: Any, document: Any, repairs: list[dict[str, Any]], draw: Draw) -> Any:
    """``document`` after following each repair, as a model reading the hints would.

    A new value is drawn from everything the schema says about its place (:func:`value_schema`:
    ``properties`` with every matching ``patternProperties``, ``allOf`` branches, the item schema
    of its index). "Add items" keeps the items there and adds each new one from the item schema of
    its own index; a failed ``contains`` adds one item that ``contains`` and that place accept.
    """
    fixed = copy.deepcopy(document)
    for repair in repairs:
        path, action = repair["path"], repair["action"]
        found, current = lookup(fixed, path)
        limit = repair.get("limit")
        if action == "remove":
            fixed = _set(fixed, path, _DELETE)
        elif action == "remove-items" and isinstance(current, list) and _whole(limit):
            fixed = _set(fixed, path, current[:limit])
        elif action == "replace" and repair.get("allowed"):
            fixed = _set(fixed, path, copy.deepcopy(repair["allowed"][0]))
        elif action == "add" and found:
            continue  # already added by an earlier repair
        elif action == "add-items" and isinstance(current, list) and _whole(limit) and limit <= MAX_BUILT_SIZE:
            added = [draw(value_schema(schema, f"{path}/{i}", fixed)) for i in range(len(current), limit)]
            fixed = _set(fixed, path, current + added)
        elif repair["keyword"] == "contains" and isinstance(current, list):
            place = value_schema(schema, f"{path}/{len(current)}", fixed)
            fixed = _set(fixed, path, [*current, draw(merged_schema([place, contains_schema(schema, path, fixed)]))])
        else:
            fixed = _set(fixed, path, draw(value_schema(schema, path, fixed)))
    return fixed
