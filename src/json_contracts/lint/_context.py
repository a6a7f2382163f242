"""What every lint rule works with: the contract, where a finding points, and walks over the schema."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from json_contracts._json.pointers import json_path, pointer_from_parts, pointer_parts, resolve_local_ref
from json_contracts.contracts.model import Contract
from json_contracts.findings import CATALOGUE, Code, Finding, Severity
from json_contracts.schema.authoring import declared_types as declared_types
from json_contracts.schema.authoring import suggest as suggest
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


_MAX_DATA_DEPTH = 24


def data_nodes(
    root: dict[str, Any], node: Any, parts: Segments = (), data_path: tuple[str, ...] = (), depth: int = 0
) -> Iterator[tuple[Segments, dict[str, Any], tuple[str, ...]]]:
    """Schema objects with the data path they govern (array items as ``*``), through local refs.

    The walk covers what can describe a value of a document (``properties``, items, ``allOf``,
    ``anyOf``, ``oneOf``, ``then``, ``else``), not ``not`` or ``if``, whose properties describe what
    a value must not be or a condition. A node shared through ``$ref`` comes once per reference.
    """
    if not isinstance(node, dict) or depth > _MAX_DATA_DEPTH:
        return
    yield parts, node, data_path
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = resolve_local_ref(root, ref)
        ref_parts = tuple(int(p) if p.isascii() and p.isdigit() else p for p in pointer_parts(ref[1:]))
        yield from data_nodes(root, target, ref_parts, data_path, depth + 1)
    properties = node.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            yield from data_nodes(root, sub, (*parts, "properties", name), (*data_path, name), depth + 1)
    for key in ("items", "additionalItems", "contains"):
        if isinstance(node.get(key), dict):
            yield from data_nodes(root, node[key], (*parts, key), (*data_path, "*"), depth + 1)
    for key in ("prefixItems",):
        for i, sub in enumerate(node.get(key) or []):
            yield from data_nodes(root, sub, (*parts, key, i), (*data_path, "*"), depth + 1)
    for key in ("allOf", "anyOf", "oneOf"):
        for i, sub in enumerate(node.get(key) or []):
            yield from data_nodes(root, sub, (*parts, key, i), data_path, depth + 1)
    for key in ("then", "else"):
        if isinstance(node.get(key), dict):
            yield from data_nodes(root, node[key], (*parts, key), data_path, depth + 1)


def sub_validator(linter: Linter, node: dict[str, Any]) -> Any:
    """A validator for ``node``, a sub-schema of the contract (``$ref`` resolves against the root)."""
    return linter.contract.compiled.for_subschema(node)
