"""Values and keywords that contradict each other: required names never defined (JC112), enum and
const values of the wrong type (JC113) or listed twice (JC114), bounds that cross (JC115), and
``default``/``examples`` values their own schema rejects (JC116, JC117).

The proofs of JC113 (:func:`type_allows`) and JC115 (:func:`excluded_kinds`, over
:func:`~json_contracts.schema.authoring.crossed_bounds`) are shared with the rules that must not ask
for what they prove impossible (JC121's proof, JC130, JC131), so each is written once. What JC112 and
JC115 find is decided in :mod:`json_contracts.schema.authoring`, which the loader shares to say
when such a mistake is why an example output fails."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from json_contracts._json.text import canonical, dumps
from json_contracts._json.values import json_type
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import Linter, all_nodes, declared_types, sub_validator, validation_within
from json_contracts.schema.authoring import CrossedBound, crossed_bounds, undefined_required
from json_contracts.schema.validation import describe_errors, error_records


def rule_required_defined(linter: Linter) -> Iterator[Finding]:
    """JC112: a name in ``required`` that ``properties`` does not define; a close name is suggested.

    An error with ``additionalProperties: false`` beside it (no object can satisfy the schema),
    a warning otherwise. The usual cause is a typo in one of the two lists (``szie``/``size``), so a
    property name close to it comes first in the fix. Which names count is
    :func:`~json_contracts.schema.authoring.undefined_required`, which the loader also cites when an
    example fails on such a name.
    """
    for parts, node in all_nodes(linter.contract.schema):
        for found in undefined_required(node):
            name, meant = found.name, found.meant
            if found.closed:
                fix = f'did you mean "{meant}"?' if meant else "add it to properties or remove it from required"
                yield linter.schema_finding(
                    Code.REQUIRED_NOT_DEFINED,
                    f'Required property "{name}" is not in properties and additionalProperties is false, '
                    f"so no object can satisfy this schema; {fix}",
                    (*parts, "required", found.position),
                    severity="error",
                )
            else:
                fix = f'did you mean "{meant}"?' if meant else "add it to properties with a type"
                yield linter.schema_finding(
                    Code.REQUIRED_NOT_DEFINED,
                    f'Required property "{name}" is not in properties, so it accepts any value; {fix}',
                    (*parts, "required", found.position),
                )


def type_allows(types: list[str], value: Any) -> bool:
    """Whether ``value`` has one of the declared ``types`` (JC113 reports a value that has not)."""
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def _enum_home(node: dict[str, Any], types: list[str], keyword: str) -> list[str]:
    """The properties an ``enum`` (or ``const``) on an object schema was meant for, when it is misplaced.

    Evidence, never a guess: the node's type is (or includes) object, every value is of a type it
    excludes (so the list cannot be meant for the node itself), the node has ``properties``, and a
    property's ``type`` accepts every value. An untyped property counts only when it is the one
    property there is. Empty when the evidence is missing: then the value or the type is the fix.
    """
    values = node[keyword] if keyword == "enum" else [node[keyword]]
    properties = node.get("properties")
    if not isinstance(values, list) or not values or not isinstance(properties, dict) or not properties:
        return []
    if "object" not in types or any(type_allows(types, v) for v in values):
        return []
    homes = []
    for name, sub in properties.items():
        sub_types = declared_types(sub) if isinstance(sub, dict) else None
        if sub_types is not None and all(type_allows(sub_types, v) for v in values):
            homes.append(name)
    if not homes and len(properties) == 1:
        ((name, sub),) = properties.items()
        if isinstance(sub, dict) and declared_types(sub) is None:
            homes.append(name)
    return homes


def type_mismatch_fix(node: dict[str, Any], types: list[str], keyword: str) -> str:
    """The fix JC113 gives for ``keyword`` (``enum`` or ``const``) of ``node``, whose values ``types`` excludes.

    Moving it into the property it was meant for, when :func:`_enum_home` finds the evidence;
    otherwise fixing the value or the type. JC121 reuses it when such values are its whole cause.
    """
    homes = _enum_home(node, types, keyword)
    if homes:
        where = " or ".join(f"properties.{name}" for name in homes) if len(homes) <= 3 else "the property it restricts"
        return f'the {keyword} sits on the object, not on its property: move "{keyword}" into {where}'
    return "fix the value or the type" if keyword == "enum" else "fix the const or the type"


def rule_enum_types(linter: Linter) -> Iterator[Finding]:
    """JC113: enum and const values of a type the node's ``type`` excludes, which can never validate.

    An enum written on an object schema instead of on one of its properties (every value a string
    while the type is object, and a string property beside it) is told to move, naming the property.
    """
    for parts, node in all_nodes(linter.contract.schema):
        types = declared_types(node)
        if types is None:
            continue
        enum = node.get("enum")
        if isinstance(enum, list):
            fix = type_mismatch_fix(node, types, "enum")
            for i, value in enumerate(enum):
                if not type_allows(types, value):
                    yield linter.schema_finding(
                        Code.ENUM_TYPE_MISMATCH,
                        f"Enum value {dumps(value, indent=None)} is {json_type(value)} but the type is "
                        f"{' or '.join(types)}, so it can never validate; {fix}",
                        (*parts, "enum", i),
                    )
        if "const" in node and not type_allows(types, node["const"]):
            fix = type_mismatch_fix(node, types, "const")
            yield linter.schema_finding(
                Code.ENUM_TYPE_MISMATCH,
                f"const {dumps(node['const'], indent=None)} is {json_type(node['const'])} but the type is "
                f"{' or '.join(types)}, so nothing can validate; {fix}",
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


def excluded_kinds(node: dict[str, Any]) -> dict[str, CrossedBound]:
    """The kinds of value (``string``, ``number`` for integers too, ``array``, ``object``) that crossed
    bounds leave no room for, each with its first crossing.

    ``minContains``/``maxContains`` are left out: they constrain only with ``contains`` beside them,
    and only in 2020-12, so they prove nothing here (the proof never guesses).
    """
    kinds: dict[str, CrossedBound] = {}
    for crossed in crossed_bounds(node):
        if crossed.low_key != "minContains":
            kinds.setdefault(crossed.kind, crossed)
    return kinds


def kind_of(value_type: str) -> str:
    """The kind of bounds a JSON type answers to: an integer is a number."""
    return "number" if value_type == "integer" else value_type


def rule_contradictory_bounds(linter: Linter) -> Iterator[Finding]:
    for parts, node in all_nodes(linter.contract.schema):
        for crossed in crossed_bounds(node):
            yield linter.schema_finding(
                Code.CONTRADICTORY_BOUNDS,
                f"{crossed.crossing}, so no {crossed.kind} satisfies both; lower {crossed.low_key} or raise "
                f"{crossed.high_key}",
                (*parts, crossed.low_key),
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
                if not validation_within(linter, node, value):
                    continue  # too much to validate (an allOf diamond): the value is not judged
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
