"""What every lint rule works with: the contract, where a finding points, and walks over the schema."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from json_contracts._json.pointers import json_path, pointer_from_parts
from json_contracts.contracts.model import Contract
from json_contracts.findings import CATALOGUE, Code, Finding, Severity
from json_contracts.schema.vocabulary import iter_subschemas

Segments = tuple[str | int, ...]
Rule = Callable[["Linter"], Iterator[Finding]]


@dataclass
class Linter:
    """One contract being linted; builds findings that point at their place in its file."""

    contract: Contract

    def finding(
        self,
        code: Code,
        message: str,
        pointer: str,
        *,
        key: bool = False,
        severity: Severity | None = None,
        lint_path: str | None = None,
    ) -> Finding:
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


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells (same letters in another case first), or None."""
    candidates = list(candidates)
    for candidate in candidates:
        if candidate.lower() == word.lower():
            return candidate
    matches = difflib.get_close_matches(word, candidates, n=1, cutoff=0.75)
    return matches[0] if matches else None


def declared_types(node: dict[str, Any]) -> list[str] | None:
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list) and all(isinstance(t, str) for t in declared):
        return list(declared)
    return None


def sub_validator(linter: Linter, node: dict[str, Any]) -> Any:
    """A validator for ``node``, a sub-schema of the contract (``$ref`` resolves against the root)."""
    return linter.contract.compiled.for_subschema(node)
