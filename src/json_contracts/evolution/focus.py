"""Narrowing a schema to the place a change is, so the witness search lands on it.

The focus joins the ``allOf`` of the node at the focus pointer: every value drawn from the
narrowed schema still validates against the original. On the way down, each object that holds the
place through ``properties`` requires that property, and each array through ``items`` gets at
least one item, so every drawn document reaches the place instead of leaving it out.
"""

from __future__ import annotations

import copy
from typing import Any

from json_contracts._json.pointers import pointer_parts
from json_contracts.evolution.model import Focus

__all__ = ["focused_schema"]

_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def focused_schema(schema: dict[str, Any], focus: Focus) -> dict[str, Any] | None:
    """A copy of ``schema`` narrowed to ``focus``, or None when the pointer does not lead to a schema object."""
    root = copy.deepcopy(schema)
    node: Any = root
    is_schema = True  # a schema object, not a map of names (properties) or a list (allOf) on the way
    parts = pointer_parts(focus.pointer)
    for i, part in enumerate(parts):
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                return None
            key: str | int = int(part)
        elif isinstance(node, dict) and part in node:
            key = part
        else:
            return None
        if is_schema and i + 1 < len(parts):
            _reach(node, part, parts[i + 1])
        child = node[key]
        is_schema = not is_schema or not (part in _MAPS or isinstance(child, list))
        node = child
    if not isinstance(node, dict):
        return None
    # The focus joins the node's own allOf: wrapping the node would move its $defs and $id.
    all_of = node.get("allOf")
    node["allOf"] = [*(all_of if isinstance(all_of, list) else []), focus.schema]
    return root


def _reach(node: dict[str, Any], keyword: str, name: str) -> None:
    """Make ``node`` always hold its child ``keyword``/``name`` (a required property, a first item)."""
    if keyword == "properties" and isinstance(node.get("properties"), dict) and name in node["properties"]:
        required = node.get("required")
        if isinstance(required, list) and name not in required:
            node["required"] = [*required, name]
        elif not isinstance(required, list):
            node["required"] = [name]
    elif keyword == "items" and isinstance(node.get("items"), dict):
        minimum = node.get("minItems")
        if not isinstance(minimum, int) or minimum < 1:
            node["minItems"] = 1
    elif keyword == "prefixItems" and isinstance(node.get("prefixItems"), list) and name.isdigit():
        minimum = node.get("minItems")
        if not isinstance(minimum, int) or minimum < int(name) + 1:
            node["minItems"] = int(name) + 1
