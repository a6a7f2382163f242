"""What every lint rule works with: the contract, where a finding points, and walks over the schema."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from json_contracts._json.pointers import json_path, pointer_from_parts
from json_contracts.contracts.model import Contract
from json_contracts.findings import CATALOGUE, Code, Finding, Severity
from json_contracts.schema.authoring import declared_types as declared_types
from json_contracts.schema.authoring import suggest as suggest
from json_contracts.schema.checking import References, schema_references
from json_contracts.schema.vocabulary import iter_subschemas

# declared_types and suggest live in schema.authoring, which the loader shares; the rules import them from here.
Segments = tuple[str | int, ...]
Rule = Callable[["Linter"], Iterator[Finding]]


@dataclass
class Linter:
    """One contract being linted; builds findings that point at their place in its file.

    ``proofs`` keeps what one rule proved for the rules after it (see ``_satisfiable``), so a proof
    two rules rely on is computed once per contract.
    """

    contract: Contract
    proofs: dict[str, Any] = field(default_factory=dict, repr=False)

    def finding(
        self,
        code: Code,
        message: str,
        pointer: str,
        *,
        key: bool = False,
        severity: Severity | None = None,
        lint_path: str | None = None,
        hint: str | None = None,
    ) -> Finding:
        """A finding at ``pointer`` in the contract's file (at the key itself with ``key``).

        ``hint`` is for the TypeScript server's warnings (JC101-JC104), whose message text ``lint
        --json`` keeps as it was: the fix goes beside it, never into it.
        """
        source = self.contract.source
        line, column = source.position(pointer, key=key) if source else (1, 1)
        return Finding(
            code=code,
            severity=severity or CATALOGUE[code].severity,
            message=message,
            file=source.path.name if source else f"{self.contract.name}.json",
            path=source.path if source else None,
            pointer=pointer,
            line=line,
            column=column,
            contract=self.contract.name,
            lint_path=lint_path,
            hint=hint,
        )

    def references(self) -> References:
        """The schema's ``$ref`` targets as the validator resolves them, computed once per contract."""
        found: References | None = self.proofs.get("references")
        if found is None:
            found = schema_references(self.contract.schema, self.contract.dialect)
            self.proofs["references"] = found
        return found

    def schema_finding(self, code: Code, message: str, parts: Segments, **kw: Any) -> Finding:
        return self.finding(
            code, message, "/schema" + pointer_from_parts(parts), lint_path=json_path(parts, root="$.schema"), **kw
        )


_ORIGINAL_SINGLE = ("items", "additionalProperties", "additionalItems", "contains", "not", "if", "then", "else")
_ORIGINAL_ARRAYS = ("prefixItems", "allOf", "anyOf", "oneOf")
_ORIGINAL_MAPS = ("$defs", "definitions", "dependentSchemas", "patternProperties")


def original_walk(node: Any, parts: Segments) -> Iterator[tuple[Segments, dict[str, Any]]]:
    """Pre-order walk in the order the TypeScript server's lint uses; stops at empty objects."""
    if not isinstance(node, dict):
        return
    yield parts, node
    if not node:
        return
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield from original_walk(sub, (*parts, "properties", name))
    for key in _ORIGINAL_SINGLE:
        value = node.get(key)
        if isinstance(value, dict):
            yield from original_walk(value, (*parts, key))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from original_walk(sub, (*parts, key, i))
    for key in _ORIGINAL_ARRAYS:
        value = node.get(key)
        if isinstance(value, list):
            for i, sub in enumerate(value):
                yield from original_walk(sub, (*parts, key, i))
    for key in _ORIGINAL_MAPS:
        value = node.get(key)
        if isinstance(value, dict):
            for name, sub in value.items():
                yield from original_walk(sub, (*parts, key, name))


def all_nodes(node: Any, parts: Segments = ()) -> Iterator[tuple[Segments, dict[str, Any]]]:
    """Every schema object, pre-order, through every sub-schema keyword."""
    if not isinstance(node, dict):
        return
    yield parts, node
    for sub_parts, sub in iter_subschemas(node):
        yield from all_nodes(sub, parts + sub_parts)


#: A walk step: where the schema object is, the object, the data path it governs (array items as
#: ``*``) and the documents' values there.
_Step = tuple[Segments, Any, tuple[str, ...], list[Any]]


def data_nodes(linter: Linter, documents: Sequence[Any] = ()) -> Iterator[tuple[Segments, dict[str, Any], list[Any]]]:
    """Schema objects that describe a value of a document, each with the ``documents``' values it describes.

    The walk covers what can describe a value (``properties``, items, ``allOf``, ``anyOf``,
    ``oneOf``, ``then``, ``else``, and ``$ref`` targets as the validator resolves them), not ``not``
    or ``if``, whose properties describe what a value must not be or a condition. Pre-order, so a
    schema object comes first where a reader of the schema meets it first.

    Linear, not exponential, in a schema whose ``$defs`` refer to each other many times: an
    object is walked again only for a place in the documents it has not described yet, and once
    in all for every place no document reaches (no values there, nothing new to learn).
    """
    references = linter.references()
    seen: set[tuple[Segments, tuple[str, ...] | None]] = set()
    stack: list[_Step] = [((), linter.contract.schema, (), list(documents))]
    while stack:
        parts, node, data_path, values = stack.pop()
        if not isinstance(node, dict):
            continue
        key = (parts, data_path if values else None)
        if key in seen:
            continue
        seen.add(key)
        yield parts, node, values
        stack.extend(reversed(list(_data_children(references, parts, node, data_path, values))))


def _data_children(
    references: References, parts: Segments, node: dict[str, Any], data_path: tuple[str, ...], values: list[Any]
) -> Iterator[_Step]:
    for target in references.of(node):
        target_parts = references.parts(target)
        if target_parts is not None:
            yield target_parts, target, data_path, values
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            inner = [value[name] for value in values if isinstance(value, dict) and name in value]
            yield (*parts, "properties", name), sub, (*data_path, name), inner
    items = [item for value in values if isinstance(value, list) for item in value]
    for key in ("items", "additionalItems", "contains"):
        if isinstance(node.get(key), dict):
            yield (*parts, key), node[key], (*data_path, "*"), items
    for i, sub in enumerate(node.get("prefixItems") or []):
        yield (*parts, "prefixItems", i), sub, (*data_path, "*"), items
    for key in ("allOf", "anyOf", "oneOf"):
        for i, sub in enumerate(node.get(key) or []):
            yield (*parts, key, i), sub, data_path, values
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            yield (*parts, key), node[key], data_path, values


#: The most sub-schema applications lint lets one of its own validations take; about a second.
VALIDATION_LIMIT = 100_000
# Keywords that apply their sub-schema to the value itself, to each property value, to each item.
_SAME_VALUE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies")
_EACH_PROPERTY = ("patternProperties", "additionalProperties", "unevaluatedProperties")
_EACH_ITEM = ("additionalItems", "contains", "unevaluatedItems")


def validation_within(linter: Linter, node: Any, value: Any, *, limit: int = VALIDATION_LIMIT) -> bool:
    """Whether validating ``value`` against ``node`` (a sub-schema) applies at most ``limit`` sub-schemas.

    The validator follows every path through the schema: an ``allOf`` of two references to a
    schema that holds the same ``allOf`` applies ``2**depth`` schemas to one value, though the
    schema is small. Lint's proofs that validate (JC116, JC117, JC121's enum proof) ask this first
    and prove nothing when it is too much; the count itself is memoised per (schema, value), so
    it costs no more than the schema and the value are large.
    """
    references = linter.references()
    counts: dict[tuple[int, int], int] = {}
    keep: list[Any] = []  # values made here (property names) stay alive, so their ids stay theirs

    def count(schema: Any, instance: Any, depth: int) -> int:
        if not isinstance(schema, dict):
            return 1
        key = (id(schema), id(instance))
        if key in counts:
            return counts[key]
        if depth > 200:  # deeper than any checked schema and document allow: too much
            return limit + 1
        counts[key] = limit + 1  # a loop through a value is too much until proven otherwise
        total = 1
        for child in _applied(references, schema, instance, keep):
            total += count(child[0], child[1], depth + 1)
            if total > limit:
                break
        counts[key] = total
        return total

    return count(node, value, 0) <= limit


def _applied(
    references: References, schema: dict[str, Any], instance: Any, keep: list[Any]
) -> Iterator[tuple[Any, Any]]:
    """(sub-schema, value) for every sub-schema the validator may apply while checking ``instance``."""
    for target in references.of(schema):
        yield target, instance
    for key in _SAME_VALUE:
        sub = schema.get(key)
        if isinstance(sub, dict) and key in ("dependentSchemas", "dependencies"):
            yield from ((each, instance) for each in sub.values())
        elif isinstance(sub, list):
            yield from ((each, instance) for each in sub)
        elif sub is not None:
            yield sub, instance
    if isinstance(instance, dict):
        properties = schema.get("properties")
        if isinstance(properties, dict):
            yield from ((properties[name], value) for name, value in instance.items() if name in properties)
        for key in _EACH_PROPERTY:
            sub = schema.get(key)
            subs = list(sub.values()) if key == "patternProperties" and isinstance(sub, dict) else [sub]
            yield from ((each, value) for each in subs if each is not None for value in instance.values())
        if schema.get("propertyNames") is not None:
            keep.extend(instance)
            yield from ((schema["propertyNames"], name) for name in instance)
    if isinstance(instance, list):
        tuple_items = schema.get("prefixItems")
        items = schema.get("items")
        if isinstance(items, list):  # draft-07's tuple form
            tuple_items, items = items, None
        if isinstance(tuple_items, list):
            yield from zip(tuple_items, instance, strict=False)
        for sub in (items, *(schema.get(key) for key in _EACH_ITEM)):
            if sub is not None:
                yield from ((sub, value) for value in instance)


def sub_validator(linter: Linter, node: dict[str, Any]) -> Any:
    """A validator for ``node``, a sub-schema of the contract (``$ref`` resolves against the root)."""
    return linter.contract.compiled.for_subschema(node)
