"""JSON Schema set-up: dialect choice, schema checks, compiled validators, no network.

Validation is jsonschema's, with the keyword implementations that differ from the original
(Ajv) replaced: ECMA-262 ``pattern``/``patternProperties`` (``regress``), one error per missing
or extra property with the property in the path, Ajv's ``uniqueItems`` indices, and sub-errors
for ``if``/``contains``/``propertyNames``. Keywords are evaluated in Ajv's order (REFERENCE
§4.5) by reordering each schema object's keys in a private copy. ``$ref`` never leaves the
contract: the registry refuses every retrieval.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from operator import methodcaller
from typing import Any, cast

import referencing
import referencing.exceptions
import referencing.jsonschema
import regress
from jsonschema import Draft7Validator, Draft202012Validator, ValidationError, validators
from jsonschema._utils import equal, find_evaluated_item_indexes_by_schema, find_evaluated_property_keys_by_schema
from jsonschema.protocols import Validator

from json_contracts.formats import FORMAT_CHECKER, ecma_regex
from json_contracts.jsonio import pointer_from_parts
from json_contracts.jstext import canonical, format_number, js_key_order
from json_contracts.keywords import DRAFT7, DRAFT202012, iter_subschemas
from json_contracts.patterns import PatternTimeout
from json_contracts.patterns import search as pattern_search

__all__ = [
    "AjvError",
    "CompiledSchema",
    "SchemaProblem",
    "compile_schema",
    "detect_dialect",
]

_META_URIS = {
    DRAFT7: {"http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-07/schema"},
    DRAFT202012: {
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
    },
}


class AjvError(ValidationError):
    """A validation error whose message is already in the original's words."""


@dataclass(frozen=True)
class SchemaProblem:
    """Why a schema cannot be used; ``pointer`` is where, inside the schema."""

    message: str
    pointer: str = ""
    code: str = "JC019"


def detect_dialect(schema: dict[str, Any]) -> str | SchemaProblem:
    """``draft-07`` or ``2020-12`` (the default), as the original picks it (REFERENCE §4.1)."""
    declared = schema.get("$schema")
    if declared is None and "$schema" not in schema:
        return DRAFT202012
    if not isinstance(declared, str):
        return SchemaProblem("Invalid JSON Schema: $schema must be a string when present", "/$schema")
    lowered = declared.lower()
    dialect = DRAFT7 if "draft-07" in lowered else DRAFT202012 if "2020-12" in lowered else None
    if dialect is None:
        return SchemaProblem(
            f"Unsupported JSON Schema dialect: {declared}. Supported dialects are draft-07 and 2020-12.",
            "/$schema",
        )
    if declared not in _META_URIS[dialect]:
        canonical_uri = sorted(_META_URIS[dialect])[0]
        return SchemaProblem(
            f"Invalid JSON Schema: unknown $schema URI {declared}; use {canonical_uri}",
            "/$schema",
        )
    return dialect


# --- keyword implementations that follow Ajv -------------------------------------------------


def _is_object(validator: Any, instance: Any) -> bool:
    return bool(validator.is_type(instance, "object"))


def _timed_out(pattern: str, exc: PatternTimeout) -> AjvError:
    return AjvError(
        f'could not be checked against pattern "{pattern}" within {exc.seconds:g} s: the pattern can '
        "backtrack catastrophically (lint JC120); send a shorter value or fix the pattern"
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        matched = pattern_search(pattern, instance)
    except PatternTimeout as exc:
        yield _timed_out(pattern, exc)
        return
    if not matched:
        yield AjvError(f'must match pattern "{pattern}"')


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for pattern, subschema in patterns.items():
        for key in js_key_order(instance):
            try:
                matched = pattern_search(pattern, key)
            except PatternTimeout as exc:
                error = _timed_out(pattern, exc)
                error.path.append(key)
                yield error
                continue
            if matched:
                yield from validator.descend(instance[key], subschema, path=key, schema_path=pattern)


def _key_matches(pattern: str, key: str) -> bool:
    """A key whose check times out counts as matching no pattern (so it is never let through)."""
    try:
        return pattern_search(pattern, key)
    except PatternTimeout:
        return False


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key
        for key in js_key_order(instance)
        if key not in properties and not any(_key_matches(p, key) for p in patterns)
    ]


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for extra in _extras(instance, schema):
        if additional is False:
            yield AjvError("must NOT have additional properties", path=[extra])
        elif isinstance(additional, dict):
            yield from validator.descend(instance[extra], additional, path=extra)


def _required(validator: Any, required: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for name in required:
        if name not in instance:
            yield AjvError(f"must have required property '{name}'", path=[name])


def _dependency_errors(trigger: str, needed: list[str], instance: Any) -> Iterator[ValidationError]:
    plural = "properties" if len(needed) > 1 else "property"
    message = f"must have {plural} {', '.join(needed)} when property {trigger} is present"
    for name in needed:
        if name not in instance:
            yield AjvError(message)


def _dependent_required(validator: Any, dependent: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for trigger, needed in dependent.items():
        if trigger in instance:
            yield from _dependency_errors(trigger, list(needed), instance)


def _dependencies(validator: Any, dependencies: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for trigger, dependency in dependencies.items():
        if trigger not in instance:
            continue
        if isinstance(dependency, list):
            yield from _dependency_errors(trigger, dependency, instance)
        else:
            yield from validator.descend(instance, dependency, schema_path=trigger)


def _if(validator: Any, if_schema: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    branch = "then" if validator.evolve(schema=if_schema).is_valid(instance) else "else"
    if branch not in schema:
        return
    errors = list(validator.descend(instance, schema[branch], schema_path=branch))
    if errors:
        yield from errors
        yield AjvError(f'must match "{branch}" schema')


def _contains(validator: Any, contains: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "array"):
        return
    dialect_2020 = "prefixItems" in validator.VALIDATORS
    minimum = schema.get("minContains", 1) if dialect_2020 else 1
    maximum = schema.get("maxContains") if dialect_2020 else None
    item_errors: list[ValidationError] = []
    matches = 0
    for index, item in enumerate(instance):
        errors = list(validator.descend(item, contains, path=index))
        if errors:
            item_errors.extend(errors)
        else:
            matches += 1
    if matches >= minimum and (maximum is None or matches <= maximum):
        return
    yield from item_errors
    low = format_number(minimum)
    if maximum is None:
        yield AjvError(f"must contain at least {low} valid item(s)")
    else:
        yield AjvError(f"must contain at least {low} and no more than {format_number(maximum)} valid item(s)")


def _property_names(validator: Any, names: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for key in js_key_order(instance):
        errors = list(validator.descend(instance=key, schema=names))
        if errors:
            yield from errors
            yield AjvError("property name must be valid")


def _unevaluated_properties(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    evaluated = find_evaluated_property_keys_by_schema(validator, instance, schema)
    for key in js_key_order(instance):
        if key in evaluated:
            continue
        if unevaluated is False:
            yield AjvError("must NOT have unevaluated properties")
        else:
            yield from validator.descend(instance[key], unevaluated, path=key)


def _unevaluated_items(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "array"):
        return
    evaluated = find_evaluated_item_indexes_by_schema(validator, instance, schema)
    rest = [i for i in range(len(instance)) if i not in evaluated]
    if not rest:
        return
    if unevaluated is False:
        yield AjvError(f"must NOT have more than {len(instance) - len(rest)} items")
    else:
        for index in rest:
            yield from validator.descend(instance[index], unevaluated, path=index)


def _item_key(item: Any) -> Any:
    if isinstance(item, bool) or item is None:
        return ("literal", item)
    if isinstance(item, (int, float)):
        return ("number", float(item))
    if isinstance(item, str):
        return ("string", item)
    return ("json", canonical(item))


def _js_type_matches(item: Any, types: list[str]) -> bool:
    for type_name in types:
        if type_name == "string" and isinstance(item, str):
            return True
        if type_name == "boolean" and isinstance(item, bool):
            return True
        if type_name == "null" and item is None:
            return True
        is_number = isinstance(item, (int, float)) and not isinstance(item, bool)
        if is_number and (type_name == "number" or (type_name == "integer" and float(item).is_integer())):
            return True
    return False


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not unique or not validator.is_type(instance, "array"):
        return
    items = schema.get("items")
    item_types = items.get("type") if isinstance(items, dict) else None
    types = [item_types] if isinstance(item_types, str) else list(item_types or [])
    typed = bool(types) and not any(t in ("object", "array") for t in types)
    seen: dict[Any, int] = {}
    if typed:  # Ajv's fast loop: from the end, first repeated primitive wins
        for i in range(len(instance) - 1, -1, -1):
            if not _js_type_matches(instance[i], types):
                continue
            key = _item_key(instance[i])
            if key in seen:
                yield AjvError(f"must NOT have duplicate items (items ## {seen[key]} and {i} are identical)")
                return
            seen[key] = i
        return
    occurrences: dict[Any, list[int]] = {}
    for i, item in enumerate(instance):
        occurrences.setdefault(_item_key(item), []).append(i)
    repeated = [found for found in occurrences.values() if len(found) > 1]
    if repeated:
        found = max(repeated, key=lambda f: f[-1])
        yield AjvError(f"must NOT have duplicate items (items ## {found[-2]} and {found[-1]} are identical)")


# jsonschema writes its own messages with repr(instance), which fails on deeply nested
# documents; these keywords only need the original's wording, so they are re-stated here.


def _type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    names = [types] if isinstance(types, str) else list(types)
    if not any(validator.is_type(instance, name) for name in names):
        yield AjvError("must be " + ",".join(names))


def _enum(validator: Any, values: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not any(equal(value, instance) for value in values):
        yield AjvError("must be equal to one of the allowed values")


def _const(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not equal(value, instance):
        yield AjvError("must be equal to constant")


def _not(validator: Any, not_schema: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.evolve(schema=not_schema).is_valid(instance):
        yield AjvError("must NOT be valid")


def _any_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    collected: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if not errors:
            return
        collected.extend(errors)
    yield AjvError("must match a schema in anyOf", context=collected)


def _one_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    collected: list[ValidationError] = []
    passing = 0
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if errors:
            collected.extend(errors)
        else:
            passing += 1
            if passing > 1:
                break  # Ajv stops at the second match and keeps the failed branches' errors
    if passing != 1:
        yield AjvError("must match exactly one schema in oneOf", context=collected)


def _limit(kind: str, test: Any, message: str) -> Any:
    def keyword(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if validator.is_type(instance, kind) and test(len(instance), limit):
            yield AjvError(message.format(format_number(limit)))

    return keyword


def _items_2020(validator: Any, items: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "array"):
        return
    prefix = len(schema.get("prefixItems", []))
    if items is False and prefix:  # Ajv counts: no items beyond the tuple
        if len(instance) > prefix:
            yield AjvError(f"must NOT have more than {prefix} items")
        return
    if items is False:  # without a tuple, Ajv applies the false schema to every item
        items = _FALSE_MARKER
    for index in range(prefix, len(instance)):
        yield from validator.descend(instance[index], items, path=index)


def _additional_items(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    items = schema.get("items", {})
    if not validator.is_type(instance, "array") or not isinstance(items, list):
        return
    if additional is False:
        if len(instance) > len(items):
            yield AjvError(f"must NOT have more than {len(items)} items")
        return
    for index in range(len(items), len(instance)):
        yield from validator.descend(instance[index], additional, path=index)


# jsonschema drops the instance path of errors from a `false` sub-schema; the private copy a
# validator runs on replaces such sub-schemas with this marker, which fails the same way.
FALSE_MARKER_KEYWORD = "$json-contracts:false"
_FALSE_MARKER = {FALSE_MARKER_KEYWORD: True}
_GENERIC_DESCENT = {
    "properties", "patternProperties", "prefixItems", "allOf", "anyOf", "oneOf", "not", "if", "then",
    "else", "contains", "dependentSchemas", "dependencies", "$defs", "definitions", "propertyNames",
}  # fmt: skip


def _false_marker(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    yield AjvError("boolean schema is false")


_OVERRIDES: dict[str, Any] = {
    FALSE_MARKER_KEYWORD: _false_marker,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "required": _required,
    "if": _if,
    "contains": _contains,
    "propertyNames": _property_names,
    "uniqueItems": _unique_items,
    "type": _type,
    "enum": _enum,
    "const": _const,
    "not": _not,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "maxLength": _limit("string", lambda n, limit: n > limit, "must NOT have more than {} characters"),
    "minLength": _limit("string", lambda n, limit: n < limit, "must NOT have fewer than {} characters"),
    "maxItems": _limit("array", lambda n, limit: n > limit, "must NOT have more than {} items"),
    "minItems": _limit("array", lambda n, limit: n < limit, "must NOT have fewer than {} items"),
    "maxProperties": _limit("object", lambda n, limit: n > limit, "must NOT have more than {} properties"),
    "minProperties": _limit("object", lambda n, limit: n < limit, "must NOT have fewer than {} properties"),
}

_Draft7 = validators.create(
    meta_schema=Draft7Validator.META_SCHEMA,
    validators={
        **Draft7Validator.VALIDATORS,
        **_OVERRIDES,
        "dependencies": _dependencies,
        "additionalItems": _additional_items,
    },
    type_checker=Draft7Validator.TYPE_CHECKER,
    format_checker=FORMAT_CHECKER,
    id_of=cast(Any, referencing.jsonschema.DRAFT7.id_of),
    applicable_validators=methodcaller("items"),  # Ajv applies $ref siblings in draft-07 too
)
_Draft202012 = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    validators={
        **_OVERRIDES,
        "dependentRequired": _dependent_required,
        "dependencies": _dependencies,
        "unevaluatedProperties": _unevaluated_properties,
        "unevaluatedItems": _unevaluated_items,
        "items": _items_2020,
    },
    format_checker=FORMAT_CHECKER,
)
VALIDATOR_CLASSES: dict[str, Any] = {DRAFT7: _Draft7, DRAFT202012: _Draft202012}
_SPECIFICATIONS = {DRAFT7: referencing.jsonschema.DRAFT7, DRAFT202012: referencing.jsonschema.DRAFT202012}


def _refuse(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


OFFLINE_REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]

# --- Ajv keyword order -------------------------------------------------------------------------

_ANY = ("$ref", "$dynamicRef", "const", "enum", "not", "anyOf", "oneOf", "allOf", "if")
_GROUPS = {
    "number": ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf", "format"),
    "string": ("maxLength", "minLength", "pattern", "format"),
    "array": ("maxItems", "minItems", "prefixItems", "items", "additionalItems", "contains", "uniqueItems"),
    "object": (
        "maxProperties", "minProperties", "required", "propertyNames", "additionalProperties",
        "dependencies", "properties", "patternProperties", "dependentRequired", "dependentSchemas",
    ),
}  # fmt: skip
_RANK: dict[str, int] = {key: i for i, key in enumerate(_ANY)}
for _offset, (_group, _keys) in enumerate(_GROUPS.items(), start=1):
    for _i, _key in enumerate(_keys, start=1):
        _RANK.setdefault(_key, 100 * _offset + _i)
# `format` belongs to both the number and string groups; it runs last in the string slot unless
# the node is a number (see ajv_ordered).
_RANK.update(unevaluatedProperties=900, unevaluatedItems=901, format=200 + len(_GROUPS["string"]))
_NAME_MAPS = ("properties", "patternProperties", "dependentRequired", "dependentSchemas", "dependencies")
_GROUP_BASE = {group: 100 * i for i, group in enumerate(_GROUPS, start=1)}


def ajv_ordered(node: Any, dialect: str = DRAFT202012) -> Any:
    """A copy of ``node`` whose schema objects list keywords in Ajv's evaluation order.

    ``false`` sub-schemas reached by plain descent become the false marker, so their errors keep
    the instance path (``items: false`` in draft-07 too, where it applies to every item).
    """
    if not isinstance(node, dict):
        return node
    ranks = dict(_RANK)
    declared = node.get("type")
    if isinstance(declared, str) and declared in _GROUPS and any(k in node for k in _GROUPS[declared]):
        ranks["type"] = _GROUP_BASE[declared]  # the type check runs inside its group's slot
        if declared == "number":
            ranks["format"] = _GROUP_BASE["number"] + 6
    else:
        ranks["type"] = -1
    ordered = {key: node[key] for key in sorted(node, key=lambda k: ranks.get(k, 500))}
    for parts, sub in iter_subschemas(node):
        target: Any = ordered
        for part in parts[:-1]:
            child = copy.copy(target[part])
            target[part] = child
            target = child
        generic = parts[0] in _GENERIC_DESCENT or (parts[0] == "items" and (dialect == DRAFT7 or len(parts) > 1))
        target[parts[-1]] = dict(_FALSE_MARKER) if sub is False and generic else ajv_ordered(sub, dialect)
    for key in _NAME_MAPS:  # JS iterates integer-like names first, and so does Ajv
        if isinstance(ordered.get(key), dict):
            ordered[key] = {name: ordered[key][name] for name in js_key_order(ordered[key])}
    return ordered


# --- compiling ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CompiledSchema:
    """A ready validator for one schema, built once and reused for every document."""

    dialect: str
    validator: Validator

    def for_subschema(self, node: Any) -> Validator:
        """A validator for a sub-schema of this schema (its ``$ref``s resolve against the root)."""
        return self.validator.evolve(schema=ajv_ordered(node, self.dialect))


def _ajv_path(error: ValidationError) -> str:
    return pointer_from_parts(error.absolute_path)


def meta_errors(schema: dict[str, Any], dialect: str) -> list[ValidationError]:
    """The schema's errors against its dialect's meta-schema (pattern checks use ECMA-262).

    A 2020-12 schema is first checked against :func:`flat_meta_schema_2020_12`, which accepts
    exactly what the official meta-schema accepts about seven times faster; only a schema it
    rejects is walked again by the official one, for the errors in their usual order.
    """
    if dialect == DRAFT202012:
        flat = _META_VALIDATORS.get("flat")
        if flat is None:
            flat = _META_VALIDATORS["flat"] = Draft202012Validator(
                flat_meta_schema_2020_12(), format_checker=FORMAT_CHECKER
            )
        if flat.is_valid(schema):
            return []
    meta = _META_VALIDATORS.get(dialect)
    if meta is None:
        cls = VALIDATOR_CLASSES[dialect]
        meta = _META_VALIDATORS[dialect] = cls(cls.META_SCHEMA, format_checker=FORMAT_CHECKER)
    return list(meta.iter_errors(schema))


_META_VALIDATORS: dict[str, Any] = {}
_META_2020_12 = "https://json-schema.org/draft/2020-12/"


def flat_meta_schema_2020_12() -> dict[str, Any]:
    """The 2020-12 meta-schema as one resource: its seven vocabularies' ``properties`` and
    ``$defs`` side by side, ``$dynamicRef: "#meta"`` as ``$ref: "#"``.

    The official one is an ``allOf`` of seven resources tied together by ``$dynamicRef``, which
    jsonschema resolves through URL joins at every level: 75% of a cold ``validate``. Validating a
    schema (not a meta-schema) never rebinds ``#meta``, so both accept the same schemas; a
    property test holds them to it.
    """
    from jsonschema_specifications import REGISTRY

    def local(node: Any) -> Any:
        if isinstance(node, dict):
            if node.get("$dynamicRef") == "#meta":
                return {"$ref": "#", **{k: local(v) for k, v in node.items() if k != "$dynamicRef"}}
            return {
                k: "#" + v.split("#", 1)[1] if k == "$ref" and isinstance(v, str) and "#/" in v else local(v)
                for k, v in node.items()
            }
        return [local(v) for v in node] if isinstance(node, list) else node

    root = REGISTRY.contents(_META_2020_12 + "schema")
    properties: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for vocabulary in [REGISTRY.contents(_META_2020_12 + part["$ref"]) for part in root["allOf"]] + [root]:
        for target, key in ((properties, "properties"), (defs, "$defs")):
            for name, sub in vocabulary.get(key, {}).items():
                if name in target:  # not so in 2020-12; a future revision must not merge silently
                    raise RuntimeError(f"2020-12 meta-schema: {key}/{name} defined twice")
                target[name] = local(sub)
    return {"type": ["object", "boolean"], "properties": properties, "$defs": defs}


_REF_KEYWORDS = ("$ref", "$dynamicRef")


def _ref_hint(ref: str) -> str:
    """Why a reference that points outside the contract is never followed, and what to do instead."""
    if ref.startswith(("http://", "https://", "file:", "//")):
        return "; remote references are never fetched: copy the schema into $defs"
    if not ref.startswith("#"):
        return "; only references inside this contract (#...) are followed: copy the schema into $defs"
    return ""


def _unresolvable_refs(schema: dict[str, Any], dialect: str) -> Iterator[SchemaProblem]:
    spec = _SPECIFICATIONS[dialect]
    root = referencing.Resource.from_contents(schema, default_specification=spec)
    registry = OFFLINE_REGISTRY.with_resource(root.id() or "", root)
    resolver = registry.resolver_with_root(root)

    def walk(node: Any, parts: tuple[str | int, ...], resolver: Any) -> Iterator[SchemaProblem]:
        if not isinstance(node, dict):
            return
        if parts and isinstance(node.get("$id"), str):
            resolver = resolver.in_subresource(referencing.Resource.from_contents(node, default_specification=spec))
        for keyword in _REF_KEYWORDS:  # $dynamicRef resolves like $ref when no dynamic anchor rebinds it
            ref = node.get(keyword)
            if not isinstance(ref, str):
                continue
            try:
                resolver.lookup(ref)
            except referencing.exceptions.Unresolvable:
                yield SchemaProblem(
                    f"Invalid JSON Schema: can't resolve reference {ref} from id {root.id() or '#'}{_ref_hint(ref)}",
                    pointer_from_parts((*parts, keyword)),
                )
        for sub_parts, sub in iter_subschemas(node):
            yield from walk(sub, parts + sub_parts, resolver)

    yield from walk(schema, (), resolver)


_SAME_INSTANCE = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies")


def _schema_nodes(schema: Any) -> dict[str, Any]:
    """Every schema object by JSON pointer, found without recursion."""
    nodes: dict[str, Any] = {}
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, dict) and pointer not in nodes:
            nodes[pointer] = node
            stack.extend((pointer + pointer_from_parts(parts), sub) for parts, sub in iter_subschemas(node))
    return nodes


def _depth_problem(schema: Any, limit: int) -> SchemaProblem | None:
    stack: list[tuple[str, Any, int]] = [("", schema, 1)]
    while stack:
        pointer, node, depth = stack.pop()
        if depth > limit:
            return SchemaProblem(
                f"Invalid JSON Schema: sub-schemas are nested more than {limit} levels deep; "
                "move repeated parts into $defs",
                pointer,
            )
        if isinstance(node, dict):
            stack.extend((pointer + pointer_from_parts(p), sub, depth + 1) for p, sub in iter_subschemas(node))
    return None


def _cycle_problem(schema: dict[str, Any]) -> SchemaProblem | None:
    """A ``$ref`` loop that returns to the same place without consuming any of the document.

    Validation of such a schema never ends (``{"not": {"$ref": "#"}}``); recursion through
    ``properties`` or ``items`` is fine and is not reported.
    """
    nodes = _schema_nodes(schema)

    def edges(pointer: str, node: dict[str, Any]) -> Iterator[str]:
        ref = node.get("$ref")
        if isinstance(ref, str) and (ref == "#" or ref.startswith("#/")):
            yield ref[1:]
        for parts, _ in iter_subschemas(node):
            if parts[0] in _SAME_INSTANCE:
                yield pointer + pointer_from_parts(parts)

    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    for start in nodes:
        if start in state:
            continue
        stack: list[tuple[str, Iterator[str]]] = [(start, edges(start, nodes[start]))]
        state[start] = 1
        while stack:
            pointer, pending = stack[-1]
            following = next(pending, None)
            if following is None:
                state[pointer] = 2
                stack.pop()
            elif following in nodes and state.get(following) == 1:
                return SchemaProblem(
                    f"Invalid JSON Schema: $ref cycle through #{following} never reaches properties or "
                    "items, so validation would never end; make the recursion go through a property or an item",
                    pointer + "/$ref" if "$ref" in nodes[pointer] else pointer,
                )
            elif following in nodes and following not in state:
                state[following] = 1
                stack.append((following, edges(following, nodes[following])))
    return None


def check_schema(schema: dict[str, Any], dialect: str, *, max_depth: int = 64) -> SchemaProblem | None:
    """The first reason ``schema`` cannot be compiled, in the original's words, or None."""
    from json_contracts.validation import error_records  # records use the same catalogue

    problem = _depth_problem(schema, max_depth)
    if problem is not None:
        return problem
    try:
        errors = meta_errors(schema, dialect)
    except RecursionError:
        return SchemaProblem("Invalid JSON Schema: the schema is nested too deeply to check; flatten it")
    if errors:
        texts = [f"data{r['path']} {r['message']}" for r in error_records(errors)]
        first = errors[0]
        message = "Invalid JSON Schema: " + ", ".join(texts)
        if first.validator == "format" and first.validator_value == "regex":
            reason = is_regex_valid(str(first.instance))
            message += f" ({reason}); write the pattern as an ECMA-262 regular expression"
            return SchemaProblem(message, _ajv_path(first), "JC119")
        return SchemaProblem(message, _ajv_path(first))
    for problem in _unresolvable_refs(schema, dialect):
        return problem
    return _cycle_problem(schema)


_CACHE: dict[tuple[str, str], CompiledSchema] = {}
_CACHE_LIMIT = 1024


def compile_schema(schema: dict[str, Any], dialect: str, *, cache_key: str | None = None) -> CompiledSchema:
    """A validator for an already checked schema; cached by ``cache_key`` (e.g. the schema hash).

    Safe from several threads (a server reloads off its event loop while library users load in
    theirs): every cache step is one dictionary operation, and an entry another thread evicted
    first is simply not there.
    """
    if cache_key is not None:
        cached = _CACHE.get((dialect, cache_key))
        if cached is not None:
            return cached
    cls = VALIDATOR_CLASSES[dialect]
    validator = cls(ajv_ordered(schema, dialect), format_checker=FORMAT_CHECKER, registry=OFFLINE_REGISTRY)
    compiled = CompiledSchema(dialect, validator)
    if cache_key is not None:
        while len(_CACHE) >= _CACHE_LIMIT:
            try:
                _CACHE.pop(next(iter(_CACHE)), None)
            except (StopIteration, RuntimeError):  # emptied, or resized while we looked, by another thread
                break
        _CACHE[(dialect, cache_key)] = compiled
    return compiled


def is_regex_valid(pattern: str) -> str | None:
    """None when ``pattern`` is valid ECMA-262, else the regex engine's reason."""
    try:
        ecma_regex(pattern)
    except regress.RegressError as exc:
        return str(exc)
    return None
