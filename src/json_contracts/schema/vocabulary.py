"""JSON Schema vocabulary: which keywords exist per dialect and which hold sub-schemas.

Shared by the validator set-up (to reorder keywords), lint (to walk schemas and spot unknown
keywords) and repair (to find the sub-schema at a data path).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "DRAFT4",
    "DRAFT6",
    "DRAFT7",
    "DRAFT201909",
    "DRAFT202012",
    "KNOWN_KEYWORDS",
    "iter_subschemas",
]

# Contracts are written in draft-07 or 2020-12 (the TypeScript server's rule); the library also
# reads the three other dialects jsonschema validates, for schemas an app test brings.
DRAFT4 = "draft-04"
DRAFT6 = "draft-06"
DRAFT7 = "draft-07"
DRAFT201909 = "2019-09"
DRAFT202012 = "2020-12"

#: Keywords whose value is one sub-schema.
SINGLE = (
    "additionalProperties",
    "additionalItems",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
)
#: Keywords whose value is an array of sub-schemas.
ARRAYS = ("prefixItems", "allOf", "anyOf", "oneOf")
#: Keywords whose value maps names to sub-schemas.
MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies")

_COMMON = {
    "$schema", "$id", "$ref", "$comment", "title", "description", "default", "examples",
    "readOnly", "writeOnly", "deprecated", "type", "enum", "const", "multipleOf", "maximum",
    "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern",
    "items", "additionalItems", "maxItems", "minItems", "uniqueItems", "contains",
    "maxProperties", "minProperties", "required", "properties", "patternProperties",
    "additionalProperties", "propertyNames", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "format", "contentMediaType", "contentEncoding", "definitions",
}  # fmt: skip
# Added in draft-06 or later: absent from draft-04, which names its base `id`.
_SINCE_6 = {"$id", "const", "contains", "propertyNames", "examples"}
_SINCE_7 = {"$comment", "if", "then", "else", "readOnly", "writeOnly", "contentMediaType", "contentEncoding"}
KNOWN_KEYWORDS: dict[str, frozenset[str]] = {
    DRAFT4: frozenset((_COMMON - _SINCE_6 - _SINCE_7 - {"deprecated"}) | {"id", "dependencies"}),
    DRAFT6: frozenset((_COMMON - _SINCE_7 - {"deprecated"}) | {"dependencies"}),
    DRAFT7: frozenset(_COMMON | {"dependencies", "contentSchema"}),
    DRAFT201909: frozenset(
        _COMMON
        | {
            "$defs", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "minContains",
            "maxContains", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
            "unevaluatedItems", "contentSchema",
        }
    ),
    DRAFT202012: frozenset(
        _COMMON
        | {
            "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "prefixItems",
            "minContains", "maxContains", "dependentRequired", "dependentSchemas",
            "unevaluatedProperties", "unevaluatedItems", "contentSchema", "dependencies",
        }
    ),
}  # fmt: skip


def iter_subschemas(node: dict[str, Any]) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Yield ``(path segments, sub-schema)`` for each direct sub-schema of a schema object.

    Order: single-schema keywords, then arrays, then maps (``items`` as an array is the draft-07
    tuple form; ``dependencies`` values that are arrays of names are not schemas).
    """
    for key in SINGLE:
        value = node.get(key)
        if isinstance(value, (dict, bool)):
            yield (key,), value
        elif key == "items" and isinstance(value, list):
            for i, sub in enumerate(value):
                yield (key, i), sub
    for key in ARRAYS:
        value = node.get(key)
        if isinstance(value, list):
            for i, sub in enumerate(value):
                yield (key, i), sub
    for key in MAPS:
        value = node.get(key)
        if isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(sub, (dict, bool)):
                    yield (key, name), sub


def item_schemas(node: dict[str, Any], tuple_items: bool) -> tuple[list[Any], Any]:
    """An array schema as (the schemas of its first positions, the schema of every later item).

    ``tuple_items`` is the dialect's form before 2020-12: ``items`` as a list is the tuple and
    ``additionalItems`` the rest; from 2020-12, ``prefixItems`` is the tuple and ``items`` the rest.
    """
    if tuple_items:
        items = node.get("items", True)
        if isinstance(items, list):
            return items, node.get("additionalItems", True)
        return [], items
    prefix = node.get("prefixItems")
    return (prefix if isinstance(prefix, list) else []), node.get("items", True)
