"""Values and keywords that contradict each other: required names never defined (JC112), enum and
const values of the wrong type (JC113) or listed twice (JC114), bounds that cross (JC115), and
``default``/``examples`` values their own schema rejects (JC116, JC117)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from json_contracts._json.text import canonical, dumps, format_number
from json_contracts._json.values import json_type
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, all_nodes, declared_types, sub_validator
from json_contracts.schema.patterns import search as pattern_search
from json_contracts.schema.validation import describe_errors, error_records


def rule_required_defined(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        properties, required = node.get("properties", {}), node.get("required")
        closed = node.get("additionalProperties") is False
        if not isinstance(properties, dict) or not isinstance(required, list):
            continue
        if not properties and not closed:
            continue  # a bare `required` (e.g. in an if or allOf branch) is a normal idiom
        patterns = node.get("patternProperties") or {}
        # With composition beside it, the property may well be defined in a branch or a $ref.
        composed = any(k in node for k in ("allOf", "anyOf", "oneOf", "if", "$ref", "dependentSchemas"))
        for i, name in enumerate(required):
            if not isinstance(name, str) or name in properties:
                continue
            if patterns:
                try:
                    if any(pattern_search(p, name) for p in patterns):
                        continue
                except Exception:  # an invalid or runaway pattern: JC119/JC120 report it
                    continue
            if closed:
                yield linter.schema_finding(
                    Code.REQUIRED_NOT_DEFINED,
                    f'Required property "{name}" is not in properties and additionalProperties is false, '
                    "so no object can satisfy this schema; add it to properties or remove it from required",
                    (*parts, "required", i),
                    severity="error",
                )
            elif not composed:
                yield linter.schema_finding(
                    Code.REQUIRED_NOT_DEFINED,
                    f'Required property "{name}" is not in properties, so it accepts any value; '
                    "add it to properties with a type",
                    (*parts, "required", i),
                )


def _type_allows(types: list[str], value: Any) -> bool:
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def rule_enum_types(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        types = declared_types(node)
        if types is None:
            continue
        enum = node.get("enum")
        if isinstance(enum, list):
            for i, value in enumerate(enum):
                if not _type_allows(types, value):
                    yield linter.schema_finding(
                        Code.ENUM_TYPE_MISMATCH,
                        f"Enum value {dumps(value, indent=None)} is {json_type(value)} but the type is "
                        f"{' or '.join(types)}, so it can never validate; fix the value or the type",
                        (*parts, "enum", i),
                    )
        if "const" in node and not _type_allows(types, node["const"]):
            yield linter.schema_finding(
                Code.ENUM_TYPE_MISMATCH,
                f"const {dumps(node['const'], indent=None)} is {json_type(node['const'])} but the type is "
                f"{' or '.join(types)}, so nothing can validate; fix the const or the type",
                (*parts, "const"),
            )


def rule_duplicate_enum(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        enum = node.get("enum")
        if not isinstance(enum, list):
            continue
        seen: set[str] = set()
        for i, value in enumerate(enum):
            text = canonical(value)
            if text in seen:
                yield linter.schema_finding(
                    Code.DUPLICATE_ENUM_VALUE,
                    f"Enum value {dumps(value, indent=None)} is listed twice; remove the repeat",
                    (*parts, "enum", i),
                )
            seen.add(text)


_BOUNDS = (
    ("minLength", "maxLength", False),
    ("minimum", "maximum", False),
    ("exclusiveMinimum", "exclusiveMaximum", True),
    ("minimum", "exclusiveMaximum", True),
    ("exclusiveMinimum", "maximum", True),
    ("minItems", "maxItems", False),
    ("minProperties", "maxProperties", False),
    ("minContains", "maxContains", False),
)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rule_contradictory_bounds(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        for low_key, high_key, strict in _BOUNDS:
            low: Any = node.get(low_key)
            high: Any = node.get(high_key)
            if not (_number(low) and _number(high)):
                continue
            if low > high or (strict and low >= high):
                relation = "not below" if strict else "greater than"
                yield linter.schema_finding(
                    Code.CONTRADICTORY_BOUNDS,
                    f"{low_key} {format_number(low)} is {relation} {high_key} {format_number(high)}, so no value "
                    f"satisfies both; lower {low_key} or raise {high_key}",
                    (*parts, low_key),
                )


def own_value_rule(code: Code, keyword: str, many: bool) -> Callable[[Linter], Iterator[Finding]]:
    def rule(linter: Linter) -> Iterator[Finding]:
        for parts, node in all_nodes(linter.contract.schema):
            if keyword not in node:
                continue
            values = node[keyword] if many else [node[keyword]]
            if not isinstance(values, list):
                continue
            validator = None
            for i, value in enumerate(values):
                validator = validator or sub_validator(linter, node)
                try:
                    errors = error_records(validator.iter_errors(value))
                except Exception:
                    continue
                if errors:
                    where = (*parts, keyword, i) if many else (*parts, keyword)
                    label = f"examples[{i}] value" if many else "default value"
                    yield linter.schema_finding(
                        code,
                        f"Schema {label} does not validate against its own schema: {describe_errors(errors)}; "
                        "fix the value or the schema",
                        where,
                    )

    rule.__name__ = f"rule_{keyword}_valid"
    return rule
