"""jsonschema validators that behave as Ajv does, the validator the TypeScript server uses.

The keywords whose behaviour or wording differs from Ajv are replaced: ECMA-262
``pattern``/``patternProperties`` (``regress``, with a time bound for backtracking-prone
patterns), one error per missing or extra property with the property in the path, Ajv's
``uniqueItems`` indices, and sub-errors for ``if``/``contains``/``propertyNames``. Every message is
Ajv's English, built here from jsonschema's structured error fields (:func:`message_of`), never
from jsonschema's own text. Keywords are evaluated in Ajv's order by reordering each schema
object's keys in a private copy (:func:`ajv_ordered`), so errors come out in the order Ajv lists
them. ``docs/reference/compatibility.md`` lists every rule followed here.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from operator import methodcaller
from typing import Any, cast

import referencing.jsonschema
from jsonschema import (
    Draft4Validator,
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
    ValidationError,
    validators,
)
from jsonschema._utils import equal, find_evaluated_item_indexes_by_schema

from json_contracts._json.text import canonical, format_number, js_key_order
from json_contracts._json.values import json_type
from json_contracts.findings import Code
from json_contracts.schema.budget import check as check_deadline
from json_contracts.schema.formats import FORMAT_CHECKER
from json_contracts.schema.patterns import PatternNotChecked, PatternTimeout
from json_contracts.schema.patterns import search as pattern_search
from json_contracts.schema.regex_safety import backtracking_risk
from json_contracts.schema.vocabulary import DRAFT4, DRAFT6, DRAFT7, DRAFT201909, DRAFT202012, iter_subschemas

__all__ = [
    "FALSE_MARKER_KEYWORD",
    "META_VALIDATOR_CLASSES",
    "VALIDATOR_CLASSES",
    "AjvError",
    "ajv_ordered",
    "keep_dialect",
    "message_of",
]


class AjvError(ValidationError):
    """A validation error whose message is already Ajv's."""


# --- messages: Ajv's English ---------------------------------------------------------------------

_FIXED = {
    "enum": "must be equal to one of the allowed values",
    "const": "must be equal to constant",
    "anyOf": "must match a schema in anyOf",
    "oneOf": "must match exactly one schema in oneOf",
    "not": "must NOT be valid",
    "additionalProperties": "must NOT have additional properties",
    "unevaluatedProperties": "must NOT have unevaluated properties",
}
_LIMITS = {
    "maxLength": "must NOT have more than {} characters",
    "minLength": "must NOT have fewer than {} characters",
    "maximum": "must be <= {}",
    "minimum": "must be >= {}",
    "exclusiveMaximum": "must be < {}",
    "exclusiveMinimum": "must be > {}",
    "multipleOf": "must be multiple of {}",
    "maxItems": "must NOT have more than {} items",
    "minItems": "must NOT have fewer than {} items",
    "maxProperties": "must NOT have more than {} properties",
    "minProperties": "must NOT have fewer than {} properties",
}


def message_of(error: ValidationError) -> tuple[str, str]:
    """(keyword, message) for one jsonschema error."""
    keyword = error.validator
    value: Any = error.validator_value
    if keyword is None or keyword == FALSE_MARKER_KEYWORD:  # a `false` sub-schema
        return "false schema", "boolean schema is false"
    keyword = str(keyword)
    if isinstance(error, AjvError):
        return keyword, error.message
    if keyword == "type":
        types = [value] if isinstance(value, str) else list(value)
        return keyword, "must be " + ",".join(types)
    if keyword in _FIXED:
        return keyword, _FIXED[keyword]
    if keyword in _LIMITS and isinstance(value, (int, float)) and not isinstance(value, bool):
        return keyword, _LIMITS[keyword].format(format_number(value))
    if keyword == "format":
        return keyword, f'must match format "{value}"'
    if keyword in ("items", "additionalItems"):
        schema = error.schema if isinstance(error.schema, dict) else {}
        tuple_items = schema.get("prefixItems") if keyword == "items" else schema.get("items")
        count = len(tuple_items) if isinstance(tuple_items, list) else 0
        return keyword, f"must NOT have more than {count} items"
    return keyword, f'must pass "{keyword}" keyword validation'


# --- keyword implementations that follow Ajv -------------------------------------------------


# Long loops over a document's items or keys check the deadline of json_contracts.schema.budget
# every 64 turns (``index & _EVERY_64 == _EVERY_64``): a descent into a sub-schema of leaf keywords
# alone never checks it, and a check on every turn (or on the first) would cost small documents.
_EVERY_64 = 63


def _is_object(validator: Any, instance: Any) -> bool:
    return bool(validator.is_type(instance, "object"))


def _timed_out(pattern: str, exc: PatternNotChecked) -> AjvError:
    """The error for a value no engine could check (never a pass: hostile values must not slip by)."""
    if not isinstance(exc, PatternTimeout):
        return AjvError(f'could not be checked against pattern "{pattern}": {exc.reason}; send Unicode text')
    why = (
        f"the pattern can backtrack catastrophically (lint {Code.BACKTRACKING_PATTERN})"
        if backtracking_risk(pattern) is not None
        else "the pattern needs a backtracking engine (a lookaround, a backreference or a count over 1000)"
    )
    return AjvError(
        f'could not be checked against pattern "{pattern}" within {exc.seconds:g} s: {why}; '
        "send a shorter value or fix the pattern"
    )


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string"):
        return
    try:
        matched = pattern_search(pattern, instance)
    except PatternNotChecked as exc:
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
            except PatternNotChecked as exc:
                error = _timed_out(pattern, exc)
                error.path.append(key)
                yield error
                continue
            if matched:
                yield from validator.descend(instance[key], subschema, path=key, schema_path=pattern)


def _key_matches(pattern: str, key: str) -> bool:
    """A key that cannot be checked counts as matching no pattern (so it is never let through)."""
    try:
        return pattern_search(pattern, key)
    except PatternNotChecked:
        return False


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = []
    for index, key in enumerate(js_key_order(instance)):
        if index & _EVERY_64 == _EVERY_64:  # keys times patterns, and no descent to check the clock
            check_deadline()
        if key not in properties and not any(_key_matches(p, key) for p in patterns):
            extras.append(key)
    return extras


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    for extra in _extras(instance, schema):
        if additional is False:
            yield AjvError(_FIXED["additionalProperties"], path=[extra])
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
        if index & _EVERY_64 == _EVERY_64:
            check_deadline()
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
    for index, key in enumerate(js_key_order(instance)):
        if index & _EVERY_64 == _EVERY_64:
            check_deadline()
        errors = list(validator.descend(instance=key, schema=names))
        if errors:
            yield from errors
            yield AjvError("property name must be valid")


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of ``instance`` that ``schema`` evaluates, as jsonschema finds them for
    ``unevaluatedProperties``, with two differences: the result is a set (a list made the
    keyword quadratic in the keys), and ``patternProperties`` are matched as ECMA-262 within the
    pattern time bound (:func:`_key_matches`, as every other pattern), not with Python's ``re``,
    which refused ``\\p{L}`` and backtracked without a bound.
    """
    if not isinstance(schema, dict):
        return set()
    keys: set[str] = set()
    for reference in ("$ref", "$dynamicRef", "$recursiveRef"):
        if (ref := schema.get(reference)) is None or reference not in validator.VALIDATORS:
            continue
        if reference == "$recursiveRef":  # 2019-09
            resolved = referencing.jsonschema.lookup_recursive_ref(validator._resolver)
        else:
            resolved = validator._resolver.lookup(ref)
        target = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
        keys |= _evaluated_keys(target, instance, resolved.contents)
    properties = schema.get("properties")
    if isinstance(properties, dict):
        keys.update(properties.keys() & instance.keys())
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if (subschema := schema.get(keyword)) is None:
            continue
        for index, (key, value) in enumerate(instance.items()):
            if index & _EVERY_64 == _EVERY_64:
                check_deadline()
            if next(validator.descend(value, subschema), None) is None:
                keys.add(key)
    patterns = schema.get("patternProperties")
    if isinstance(patterns, dict) and patterns:
        for index, key in enumerate(instance):
            if index & _EVERY_64 == _EVERY_64:
                check_deadline()
            if any(_key_matches(pattern, key) for pattern in patterns):
                keys.add(key)
    for trigger, subschema in (schema.get("dependentSchemas") or {}).items():
        if trigger in instance:
            keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if next(validator.descend(instance, subschema), None) is None:
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not _is_object(validator, instance):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    for key in js_key_order(instance):
        if key in evaluated:
            continue
        if unevaluated is False:
            yield AjvError(_FIXED["unevaluatedProperties"])
        else:
            yield from validator.descend(instance[key], unevaluated, path=key)


def _unevaluated_items(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "array"):
        return
    evaluated = set(find_evaluated_item_indexes_by_schema(validator, instance, schema))  # a list made this quadratic
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
        try:
            return ("number", float(item))
        except OverflowError:  # an integer past a double: JavaScript reads it as Infinity
            return ("number", float("inf") if item > 0 else float("-inf"))
    if isinstance(item, str):
        return ("string", item)
    return ("json", canonical(item))


def _js_type_matches(item: Any, types: list[str]) -> bool:
    kind = json_type(item)
    return kind in types or (kind == "integer" and "number" in types)


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
            if i & _EVERY_64 == _EVERY_64:
                check_deadline()
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
        if i & _EVERY_64 == _EVERY_64:
            check_deadline()
        occurrences.setdefault(_item_key(item), []).append(i)
    repeated = [found for found in occurrences.values() if len(found) > 1]
    if repeated:
        found = max(repeated, key=lambda f: f[-1])
        yield AjvError(f"must NOT have duplicate items (items ## {found[-2]} and {found[-1]} are identical)")


# jsonschema writes its own messages with repr(instance), which fails on deeply nested
# documents; these keywords only need Ajv's wording, so they are re-stated here.


def _type(validator: Any, types: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    names = [types] if isinstance(types, str) else list(types)
    if not any(validator.is_type(instance, name) for name in names):
        yield AjvError("must be " + ",".join(names))


class _NotJson(Exception):
    """A value that is not plain JSON (a library caller's tuple, a subclass of int): compare it
    with jsonschema's ``equal`` instead of by key."""


class _Deeper(Exception):
    """The value nests deeper than every allowed value, so it equals none of them."""


_TRUE_KEY, _FALSE_KEY = object(), object()  # true and false equal only themselves, never 1 or 0


def _equality_key(value: Any, depth: int) -> Any:
    """A hashable key that equals another value's key exactly when jsonschema's ``equal`` says the
    values are equal: numbers by value (``1 == 1.0``, ``-0 == 0``), booleans apart from numbers,
    arrays in order, objects whatever their key order.

    Raises:
        _NotJson: the value holds something other than plain JSON types.
        _Deeper: the value nests more than ``depth`` levels.
    """
    kind = type(value)
    if kind is str or kind is int or kind is float or value is None:
        return value
    if kind is bool:
        return _TRUE_KEY if value else _FALSE_KEY
    if depth <= 0 and (kind is list or kind is dict):
        raise _Deeper
    if kind is list:
        return tuple([_equality_key(item, depth - 1) for item in value])
    if kind is dict:
        return frozenset([(key, _equality_key(item, depth - 1)) for key, item in value.items()])
    raise _NotJson


def _nesting(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max(map(_nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_nesting, value.values()), default=0)
    return 0


class _Allowed:
    """An ``enum``'s values as a set of equality keys: one lookup per instance, not one deep
    comparison per value (250 values on 200,000 items took a minute)."""

    __slots__ = ("depth", "keys", "shapes", "values")

    def __init__(self, values: list[Any]) -> None:
        self.values = values  # kept so the id this is cached under stays this list's
        self.depth = max(map(_nesting, values), default=0)
        self.keys = frozenset(_equality_key(value, self.depth) for value in values)
        # Arrays and objects are keyed only when some value has their type and length: a large
        # instance unlike every value costs nothing.
        self.shapes = frozenset((type(v), len(v)) for v in values if isinstance(v, (list, dict)))

    def allows(self, instance: Any) -> bool:
        if isinstance(instance, (list, dict)) and (type(instance), len(instance)) not in self.shapes:
            if type(instance) in (list, dict):
                return False
            return any(equal(value, instance) for value in self.values)
        try:
            return _equality_key(instance, self.depth) in self.keys
        except _Deeper:
            return False
        except _NotJson:
            return any(equal(value, instance) for value in self.values)


class _ComparedOneByOne:
    """An ``enum`` whose values are not plain JSON: jsonschema's ``equal`` against each."""

    def __init__(self, values: Any) -> None:
        self.values = values

    def allows(self, instance: Any) -> bool:
        return any(equal(value, instance) for value in self.values)


_ALLOWED: dict[int, _Allowed] = {}
_ALLOWED_VALUES = [0]  # values held by the entries of _ALLOWED, bounded like the schema cache
_ALLOWED_LIMIT = 1 << 20


def _allowed(values: list[Any]) -> _Allowed | None:
    """The keyed form of an ``enum`` list, built once per schema (None if it is not plain JSON)."""
    found = _ALLOWED.get(id(values))
    if found is not None and found.values is values:
        return found
    try:
        built = _Allowed(values)
    except (_NotJson, RecursionError):
        return None
    if len(_ALLOWED) >= 4096 or _ALLOWED_VALUES[0] + len(values) > _ALLOWED_LIMIT:
        _ALLOWED.clear()
        _ALLOWED_VALUES[0] = 0
    _ALLOWED[id(values)] = built
    _ALLOWED_VALUES[0] += len(values)
    return built


def _enum(validator: Any, values: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    allowed: _Allowed | _ComparedOneByOne | None = _allowed(values) if type(values) is list else None
    if allowed is None:
        allowed = _ComparedOneByOne(values)
    if not allowed.allows(instance):
        yield AjvError(_FIXED["enum"])


def _const(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not equal(value, instance):
        yield AjvError(_FIXED["const"])


def _not(validator: Any, not_schema: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.evolve(schema=not_schema).is_valid(instance):
        yield AjvError(_FIXED["not"])


def _any_of(validator: Any, branches: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    collected: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(validator.descend(instance, branch, schema_path=index))
        if not errors:
            return
        collected.extend(errors)
    yield AjvError(_FIXED["anyOf"], context=collected)


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
        yield AjvError(_FIXED["oneOf"], context=collected)


def _limit(kind: str, test: Any, keyword_name: str) -> Any:
    def keyword(validator: Any, limit: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
        if validator.is_type(instance, kind) and test(len(instance), limit):
            yield AjvError(_LIMITS[keyword_name].format(format_number(limit)))

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
        if index & _EVERY_64 == _EVERY_64:
            check_deadline()
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
        if index & _EVERY_64 == _EVERY_64:
            check_deadline()
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
    "maxLength": _limit("string", lambda n, limit: n > limit, "maxLength"),
    "minLength": _limit("string", lambda n, limit: n < limit, "minLength"),
    "maxItems": _limit("array", lambda n, limit: n > limit, "maxItems"),
    "minItems": _limit("array", lambda n, limit: n < limit, "minItems"),
    "maxProperties": _limit("object", lambda n, limit: n > limit, "maxProperties"),
    "minProperties": _limit("object", lambda n, limit: n < limit, "minProperties"),
}


def keep_dialect(cls: Any) -> Any:
    """``cls`` with an ``evolve`` (behind every ``descend``) that always builds ``cls``.

    jsonschema's own ``evolve`` picks its stock class for a sub-schema that carries ``$schema``:
    behind such a sub-schema Python's ``re`` matched ``pattern`` (``\\d`` taking Arabic-Indic
    digits, ``\\p{L}`` crashing), no Ajv keyword nor the deadline applied. The contract's dialect
    decides every validator instead, whatever a sub-schema declares.
    """
    fields = tuple((field.name, field.alias) for field in cls.__attrs_attrs__ if field.init)

    def evolve(self: Any, **changes: Any) -> Any:
        for name, alias in fields:
            if alias not in changes:
                changes[alias] = getattr(self, name)
        return cls(**changes)

    cls.evolve = evolve
    return cls


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

# The dialects only the library reads (an app test's schema, never a contract's) keep jsonschema's
# keywords, whose semantics differ per draft (draft-04's boolean exclusiveMaximum, 2019-09's
# minContains), with these exceptions: ECMA-262 patterns wherever a pattern is matched, the false
# marker of `ajv_ordered`, and Ajv's keywords where every draft means the same (their messages
# are built without repr() of the document, which failed on deep ones).
_SAME_IN_EVERY_DRAFT = (
    FALSE_MARKER_KEYWORD, "pattern", "patternProperties", "additionalProperties", "required", "type", "enum",
    "const", "not", "anyOf", "oneOf", "maxLength", "minLength", "maxItems", "minItems", "maxProperties",
    "minProperties",
)  # fmt: skip


def _library_class(stock: Any, **extra: Any) -> Any:
    keywords = {name: _OVERRIDES[name] for name in _SAME_IN_EVERY_DRAFT if name in stock.VALIDATORS}
    keywords[FALSE_MARKER_KEYWORD] = _false_marker
    return validators.extend(stock, validators={**keywords, **extra}, format_checker=FORMAT_CHECKER)  # type: ignore[no-untyped-call]


#: The classes that validate documents, one per dialect; each keeps its own class in every descent.
VALIDATOR_CLASSES: dict[str, Any] = {
    DRAFT4: keep_dialect(_library_class(Draft4Validator)),
    DRAFT6: keep_dialect(_library_class(Draft6Validator)),
    DRAFT7: keep_dialect(validators.extend(_Draft7, validators={})),  # type: ignore[no-untyped-call]
    DRAFT201909: keep_dialect(_library_class(Draft201909Validator, unevaluatedProperties=_unevaluated_properties)),
    DRAFT202012: keep_dialect(validators.extend(_Draft202012, validators={})),  # type: ignore[no-untyped-call]
}
#: The classes that check a schema against its dialect's meta-schema. They keep jsonschema's
#: ``evolve``: the meta-schemas are jsonschema's own (2019-09's and 2020-12's are several resources
#: that each declare ``$schema``), the loader's verdicts and messages were made with these, and a
#: meta-schema's patterns are ASCII, where Python's ``re`` and ECMA-262 agree; ``format: regex``
#: is ours in both.
META_VALIDATOR_CLASSES: dict[str, Any] = {
    DRAFT4: Draft4Validator,
    DRAFT6: Draft6Validator,
    DRAFT7: _Draft7,
    DRAFT201909: Draft201909Validator,
    DRAFT202012: _Draft202012,
}


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
    the instance path (``items: false`` before 2020-12 too, where it applies to every item).
    ``$schema`` is left out: the dialect is already chosen (:func:`keep_dialect` holds every
    validator to it), and ``referencing`` would read the ``$id``, anchors and sub-resources of a
    resource that declares another dialect by that dialect's rules.
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
    ordered = {key: node[key] for key in sorted(node, key=lambda k: ranks.get(k, 500)) if key != "$schema"}
    for parts, sub in iter_subschemas(node):
        target: Any = ordered
        for part in parts[:-1]:
            child = copy.copy(target[part])
            target[part] = child
            target = child
        generic = parts[0] in _GENERIC_DESCENT or (parts[0] == "items" and (dialect != DRAFT202012 or len(parts) > 1))
        target[parts[-1]] = dict(_FALSE_MARKER) if sub is False and generic else ajv_ordered(sub, dialect)
    for key in _NAME_MAPS:  # JS iterates integer-like names first, and so does Ajv
        if isinstance(ordered.get(key), dict):
            ordered[key] = {name: ordered[key][name] for name in js_key_order(ordered[key])}
    return ordered
