"""A static proof that no JSON value satisfies a schema (JC121): conservative, it never guesses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from json_contracts._json.text import dumps
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, Segments, declared_types, sub_validator


def _unsatisfiable(node: Any, parts: Segments, linter: Linter, depth: int = 0) -> tuple[Segments, str] | None:
    """Where and why ``node`` can never validate anything (a conservative, static proof)."""
    if node is False:
        return parts, "the schema is false"
    if not isinstance(node, dict) or depth > 32:
        return None
    if node.get("not") is True or node.get("not") == {}:
        return (*parts, "not"), "not forbids every value"
    types = declared_types(node)
    if types is not None and not types:
        return (*parts, "type"), "type is an empty list"
    for key in ("allOf",):
        for i, branch in enumerate(node.get(key) or []):
            found = _unsatisfiable(branch, (*parts, key, i), linter, depth + 1)
            if found:
                return found
            branch_types = declared_types(branch) if isinstance(branch, dict) else None
            if types is not None and branch_types is not None:
                widened = set(types) | ({"integer"} if "number" in types else set())
                meet = {t for t in branch_types if t in widened or (t == "number" and "integer" in types)}
                if not meet:
                    return (*parts, key, i, "type"), (
                        f"type {dumps(branch_types, indent=None)} does not overlap type {dumps(types, indent=None)}"
                    )
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            causes = [_unsatisfiable(b, (*parts, key, i), linter, depth + 1) for i, b in enumerate(branches)]
            if all(causes):
                return (*parts, key), f"no branch of {key} can be satisfied"
    for keyword in ("enum", "const"):
        if keyword not in node:
            continue
        values = node[keyword] if keyword == "enum" else [node[keyword]]
        if isinstance(values, list):
            rest = {k: v for k, v in node.items() if k not in ("enum", "const", "default", "examples")}
            validator = sub_validator(linter, rest)
            try:
                if not any(validator.is_valid(v) for v in values):
                    what = "no enum value" if keyword == "enum" else "the const value"
                    return (*parts, keyword), f"{what} satisfies the other keywords"
            except Exception:
                return None
    properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
    for name in node.get("required") or []:
        if isinstance(name, str) and name in properties:
            found = _unsatisfiable(properties[name], (*parts, "properties", name), linter, depth + 1)
            if found:
                return found[0], f'required property "{name}": {found[1]}'
    return None


def rule_unsatisfiable(linter: Linter) -> Iterator[Finding]:
    found = _unsatisfiable(linter.contract.schema, (), linter)
    if found:
        where, reason = found
        yield linter.schema_finding(
            Code.UNSATISFIABLE_SCHEMA,
            f"No JSON value can satisfy this schema ({reason}); every document will fail validation — "
            "relax or remove the conflicting keyword",
            where,
        )
