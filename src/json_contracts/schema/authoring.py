"""Schemas that are valid and still wrong: the facts lint reports and the loader cites.

A schema can pass its meta-schema and still not say what its author meant: a name in ``required``
that ``properties`` does not define (JC112), a lower bound above its upper bound (JC115), a
property's schema written beside ``properties`` instead of in it (JC110). Lint reports each one;
the loader, when an example output fails because of one, names it in JC020's hint, so the author
fixes the schema rather than a correct example. Each fact is decided here, once, so the two never
disagree.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from json_contracts._json.text import format_number
from json_contracts.schema.patterns import search as pattern_search
from json_contracts.schema.vocabulary import ARRAYS, KNOWN_KEYWORDS, MAPS, SINGLE

__all__ = [
    "OBJECT_KEYWORDS",
    "SCHEMA_VALUED",
    "CrossedBound",
    "UndefinedRequired",
    "crossed_bounds",
    "declared_types",
    "known_keywords",
    "looks_like_a_schema",
    "object_like",
    "property_schema_beside",
    "suggest",
    "undefined_required",
]

#: Keywords whose value is a schema or holds schemas: a schema under a near-miss of one is its typo.
SCHEMA_VALUED = frozenset((*SINGLE, *ARRAYS, *MAPS, "contentSchema"))
#: Keywords only objects answer to: an untyped schema with one of them describes objects.
OBJECT_KEYWORDS = (
    "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
    "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "unevaluatedProperties",
)  # fmt: skip
#: Keywords that apply other schemas to the same object: a name they define is defined.
_COMPOSING = ("allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas")


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells (same letters in another case first), or None."""
    candidates = list(candidates)
    for candidate in candidates:
        if candidate.lower() == word.lower():
            return candidate
    matches = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return matches[0] if matches else None


def declared_types(node: dict[str, Any]) -> list[str] | None:
    """The node's ``type`` as a list, or None when it has none (or not a list of names)."""
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return list(declared)
    return None


class UndefinedRequired(NamedTuple):
    """A name in ``required`` that ``properties`` does not define (JC112).

    ``closed`` when ``additionalProperties: false`` sits beside it, so no object can satisfy the
    schema; ``meant`` is the property it most likely misspells; ``position`` is its index in ``required``.
    """

    position: int
    name: str
    closed: bool
    meant: str | None


def undefined_required(node: dict[str, Any]) -> Iterator[UndefinedRequired]:
    """Names in the node's ``required`` that neither ``properties`` defines nor ``patternProperties`` matches.

    Only where that is a mistake: a bare ``required`` (no ``properties``, not closed) is a normal
    idiom, and an open schema that composes may define the name in a branch or a ``$ref``.
    """
    properties, required = node.get("properties", {}), node.get("required")
    closed = node.get("additionalProperties") is False
    if not isinstance(properties, dict) or not isinstance(required, list):
        return
    if not properties and not closed:
        return
    if not closed and any(key in node for key in _COMPOSING):
        return
    patterns = node.get("patternProperties") or {}
    for i, name in enumerate(required):
        if not isinstance(name, str) or name in properties:
            continue
        if patterns:
            try:
                if any(pattern_search(p, name) for p in patterns):
                    continue
            except Exception:  # an invalid or runaway pattern: JC119/JC120 report it
                continue
        yield UndefinedRequired(i, name, closed, suggest(name, properties))


class CrossedBound(NamedTuple):
    """A lower bound above its upper bound, and the kind of value (a JSON type) they constrain."""

    low_key: str
    high_key: str
    strict: bool
    low: Any
    high: Any
    kind: str

    @property
    def crossing(self) -> str:
        """``minItems 100 is greater than maxItems 50``: the two bounds as JC115 names them."""
        relation = "not below" if self.strict else "greater than"
        return f"{self.low_key} {format_number(self.low)} is {relation} {self.high_key} {format_number(self.high)}"


_BOUNDS = (
    ("minLength", "maxLength", False, "string"),
    ("minimum", "maximum", False, "number"),
    ("exclusiveMinimum", "exclusiveMaximum", True, "number"),
    ("minimum", "exclusiveMaximum", True, "number"),
    ("exclusiveMinimum", "maximum", True, "number"),
    ("minItems", "maxItems", False, "array"),
    ("minProperties", "maxProperties", False, "object"),
    ("minContains", "maxContains", False, "array"),
)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def crossed_bounds(node: dict[str, Any]) -> Iterator[CrossedBound]:
    """Every pair of bounds in ``node`` that no value of their kind can satisfy (JC115)."""
    for low_key, high_key, strict, kind in _BOUNDS:
        low: Any = node.get(low_key)
        high: Any = node.get(high_key)
        if _number(low) and _number(high) and (low > high or (strict and low >= high)):
            yield CrossedBound(low_key, high_key, strict, low, high, kind)


def known_keywords(dialect: str) -> frozenset[str]:
    """The keywords JC110 takes as known in ``dialect``: its own, and ``$defs``, whose schemas a ``$ref``
    reaches in a draft-07 schema too."""
    return KNOWN_KEYWORDS[dialect] | {"$defs"}


def looks_like_a_schema(value: Any, known: frozenset[str]) -> bool:
    """An object most of whose keys are schema keywords (``{"type": "string"}``), as a property's schema is."""
    if not isinstance(value, dict) or not value:
        return False
    keywords = sum(1 for key in value if key in known or key.startswith("x-"))
    return keywords > 0 and 2 * keywords >= len(value)


def object_like(node: dict[str, Any]) -> bool:
    """Whether ``node`` describes objects: its type says so, or it has keywords only objects answer to."""
    types = declared_types(node)
    if types is not None:
        return "object" in types
    return any(key in node for key in OBJECT_KEYWORDS)


def property_schema_beside(node: dict[str, Any], key: str, known: frozenset[str]) -> bool:
    """Whether ``node[key]``, a keyword ``known`` lacks, holds a schema: a property's, its wrapper forgotten.

    Not when ``key`` is a near-miss of a keyword that takes a schema (``item`` for ``items``): a
    typo is the likelier meaning there. Whether the node describes objects is the caller's second
    question (:func:`object_like`): only then is "move it into properties" the whole fix.
    """
    if key in known or key.startswith("x-") or not looks_like_a_schema(node.get(key), known):
        return False
    return suggest(key, known) not in SCHEMA_VALUED
