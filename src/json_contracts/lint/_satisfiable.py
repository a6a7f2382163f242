"""A static proof that no JSON value satisfies a schema (JC121): conservative, it never guesses.

The proof (:func:`unsatisfiable`) is the one place lint decides that a schema can hold nothing. It
names the rule that reports its cause: JC113 for values of the wrong type, JC115 for crossed bounds,
JC121 for the rest. JC121 reports the whole schema and optional properties; the example-coverage
rules (JC130, JC131) use the same proof, through :func:`impossible_properties`, so they never ask
for an example no document could contain.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from json_contracts._json.text import dumps, format_number
from json_contracts.findings import Code, Finding
from json_contracts.lint._context import (
    Linter,
    Segments,
    data_nodes,
    declared_types,
    sub_validator,
    validation_within,
)
from json_contracts.lint._values import excluded_kinds, kind_of, type_allows, type_mismatch_fix


class Proof(NamedTuple):
    """Where a schema fails every value, why, and the rule whose finding states the cause."""

    where: Segments
    reason: str
    reported_by: Code = Code.UNSATISFIABLE_SCHEMA


def _enum_proof(node: dict[str, Any], parts: Segments, linter: Linter) -> Proof | None:
    """An ``enum`` or ``const`` none of whose values passes the node's other keywords."""
    types = declared_types(node)
    for keyword in ("enum", "const"):
        if keyword not in node:
            continue
        values = node[keyword] if keyword == "enum" else [node[keyword]]
        if not isinstance(values, list):
            continue
        rest = {k: v for k, v in node.items() if k not in ("enum", "const", "default", "examples")}
        if not all(validation_within(linter, node, v) for v in values):  # node: its $refs are known
            return None  # too much to validate (an allOf diamond): no proof, so no claim
        validator = sub_validator(linter, rest)
        try:
            if any(validator.is_valid(v) for v in values):
                continue
        except Exception:
            return None
        what = "no enum value" if keyword == "enum" else "the const value"
        wrong_type = types is not None and not any(type_allows(types, v) for v in values)
        return Proof(
            (*parts, keyword),
            f"{what} satisfies the other keywords",
            Code.ENUM_TYPE_MISMATCH if wrong_type else Code.UNSATISFIABLE_SCHEMA,
        )
    return None


def _allowed_kinds(types: list[str] | None, within: frozenset[str] | None) -> frozenset[str] | None:
    """The kinds of JSON value (an integer counted as a number) a schema with ``type`` ``types``
    admits inside a schema that admits ``within``; None: any."""
    own = None if types is None else frozenset(kind_of(t) for t in types)
    if own is None or within is None:
        return own if within is None else within
    return own & within


def unsatisfiable(
    node: Any,
    parts: Segments,
    linter: Linter,
    *,
    bounds: bool = False,
    depth: int = 0,
    within: frozenset[str] | None = None,
) -> Proof | None:
    """Where and why ``node`` can never validate anything (a conservative, static proof).

    With ``bounds``, crossed bounds that leave no room for any of the declared types count too
    (``{"type": "integer", "minimum": 5, "maximum": 1}``), found before the other causes. The
    whole-schema JC121 leaves them out, as it always has, since JC115 reports every crossing.
    ``within``: the kinds of value the enclosing schemas admit (a branch of ``allOf``, ``anyOf`` or
    ``oneOf`` sees its parent's ``type``). An impossible object keyword (a required property no
    value fits) is a proof only when objects are all the node admits: ``required`` holds for every
    value that is not an object, so ``{"type": ["object", "null"], ...}`` still accepts null.
    """
    if node is False:
        return Proof(parts, "the schema is false")
    if not isinstance(node, dict) or depth > 32:
        return None
    if node.get("not") is True or node.get("not") == {}:
        return Proof((*parts, "not"), "not forbids every value")
    types = declared_types(node)
    if types is not None and not types:
        return Proof((*parts, "type"), "type is an empty list")
    allowed = _allowed_kinds(types, within)
    if bounds and types:
        crossed = excluded_kinds(node)
        if all(kind_of(t) in crossed for t in types):
            first = crossed[kind_of(types[0])]
            relation = "not below" if first.strict else "greater than"
            low, high = format_number(first.low), format_number(first.high)
            reason = f"{first.low_key} {low} is {relation} {first.high_key} {high}"
            return Proof((*parts, first.low_key), reason, Code.CONTRADICTORY_BOUNDS)
    for key in ("allOf",):
        for i, branch in enumerate(node.get(key) or []):
            found = unsatisfiable(branch, (*parts, key, i), linter, bounds=bounds, depth=depth + 1, within=allowed)
            if found:
                return found
            branch_types = declared_types(branch) if isinstance(branch, dict) else None
            if types is not None and branch_types is not None:
                widened = set(types) | ({"integer"} if "number" in types else set())
                meet = {t for t in branch_types if t in widened or (t == "number" and "integer" in types)}
                if not meet:
                    return Proof(
                        (*parts, key, i, "type"),
                        f"type {dumps(branch_types, indent=None)} does not overlap type {dumps(types, indent=None)}",
                    )
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            causes = [
                unsatisfiable(b, (*parts, key, i), linter, bounds=bounds, depth=depth + 1, within=allowed)
                for i, b in enumerate(branches)
            ]
            if all(causes):
                return Proof((*parts, key), f"no branch of {key} can be satisfied")
    found = _enum_proof(node, parts, linter)
    if found:
        return found
    if allowed is None or not allowed <= {"object"}:
        return None  # the object keywords below leave every other kind of value valid
    properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
    for name in node.get("required") or []:
        if isinstance(name, str) and name in properties:
            where = (*parts, "properties", name)
            found = unsatisfiable(properties[name], where, linter, bounds=bounds, depth=depth + 1)
            if found:
                return found._replace(reason=f'required property "{name}": {found.reason}')
    return None


def _property_schemas(linter: Linter) -> Iterator[tuple[Segments, str, Any, bool]]:
    """``(schema path, name, sub-schema, required)`` of every property a document can hold, once each."""
    seen: set[Segments] = set()
    for parts, node, _ in data_nodes(linter):
        properties = node.get("properties")
        if parts in seen or not isinstance(properties, dict):
            continue
        seen.add(parts)
        required = node.get("required")
        required_names = set(required) if isinstance(required, list) else set()
        for name, sub in properties.items():
            yield (*parts, "properties", name), name, sub, name in required_names


def impossible_properties(linter: Linter) -> dict[Segments, Proof]:
    """Properties no value can fill, by schema path, each with its proof (crossed bounds included).

    A property forbidden on purpose (``false``, ``{"not": {}}``) is here too: no example can set
    it either.
    """
    cached: dict[Segments, Proof] | None = linter.proofs.get("impossible_properties")
    if cached is not None:
        return cached
    found: dict[Segments, Proof] = {}
    for where, _, sub, _ in _property_schemas(linter):
        proof = unsatisfiable(sub, where, linter, bounds=True)
        if proof:
            found[where] = proof
    linter.proofs["impossible_properties"] = found
    return found


def _forbidden_on_purpose(where: Segments, proof: Proof) -> bool:
    """``"x": false`` or ``"x": {"not": {}}``: the usual way to say a property must be absent."""
    return proof.where in (where, (*where, "not"))


def _whole_schema_fix(linter: Linter, proof: Proof) -> str:
    """What to change: JC113's fix when values of the wrong type are the cause (an enum written on
    the object instead of its property is moved), else the conflicting keyword."""
    node: Any = linter.contract.schema
    for part in proof.where[:-1]:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    types = declared_types(node) if isinstance(node, dict) else None
    if proof.reported_by == Code.ENUM_TYPE_MISMATCH and isinstance(node, dict) and types:
        return type_mismatch_fix(node, types, str(proof.where[-1]))
    return "relax or remove the conflicting keyword"


def rule_unsatisfiable(linter: Linter) -> Iterator[Finding]:
    """The whole schema (an error), then each optional property that can never be set (a warning).

    An optional property that can never be set leaves documents possible, but the model is told
    about a field it must never use, and no example can show it. Not reported: a property
    forbidden on purpose (``false``, ``{"not": {}}``), and causes JC113 or JC115 already report.
    """
    found = unsatisfiable(linter.contract.schema, (), linter)
    if found:
        yield linter.schema_finding(
            Code.UNSATISFIABLE_SCHEMA,
            f"No JSON value can satisfy this schema ({found.reason}); every document will fail validation — "
            + _whole_schema_fix(linter, found),
            found.where,
        )
    impossible = impossible_properties(linter)
    for where, name, _, required in _property_schemas(linter):
        proof = impossible.get(where)
        if required or proof is None or proof.reported_by != Code.UNSATISFIABLE_SCHEMA:
            continue
        if not _forbidden_on_purpose(where, proof):
            yield linter.schema_finding(
                Code.UNSATISFIABLE_SCHEMA,
                f'Optional property "{name}" can never be set ({proof.reason}), so a document that sets it always '
                "fails validation; relax or remove the conflicting keyword, or remove the property",
                proof.where,
                severity="warning",
            )
