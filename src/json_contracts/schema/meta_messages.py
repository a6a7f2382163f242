"""Meta-schema errors as one sentence per problem, each saying what to write instead.

A schema that breaks its dialect's meta-schema gives raw errors that name the meta-schema's
structure rather than the author's mistake: ``"type": "strin"`` gives three (an ``enum``, a
``type`` and the ``anyOf`` around them) and ``"additionalProperties": "false"`` the same one eight
times (once per vocabulary of the 2020-12 meta-schema). Here each error is read back against the
schema itself: where it is (a sub-schema, or the value of which keyword), what that place takes,
and what was written, so the sentence names the place (a JSON pointer into the schema), the
value, and the fix (``write false without quotes``, ``did you mean "string"?``). Sentences are
de-duplicated and put in the order their places appear in the file, so the first one is where
the finding points.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from json_contracts._json.pointers import pointer_from_parts
from json_contracts._json.values import json_type
from json_contracts.schema.vocabulary import ARRAYS, DRAFT202012, MAPS, SINGLE

if TYPE_CHECKING:  # only the attributes of jsonschema's errors are read
    from jsonschema import ValidationError

__all__ = [
    "JSON_TYPES",
    "MetaProblem",
    "describe_value",
    "join_sentences",
    "json_snippet",
    "meta_problems",
    "suggest_type",
]

#: The seven type names of JSON Schema, in the order a sentence lists them.
JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
_TYPE_SYNONYMS = {
    "str": "string", "text": "string", "char": "string", "varchar": "string",
    "int": "integer", "long": "integer", "short": "integer", "int32": "integer", "int64": "integer",
    "float": "number", "double": "number", "decimal": "number", "numeric": "number", "real": "number",
    "bool": "boolean", "dict": "object", "map": "object", "obj": "object", "hash": "object", "record": "object",
    "list": "array", "tuple": "array", "set": "array", "none": "null", "nil": "null",
}  # fmt: skip
# Type names that are really formats of a string.
_FORMAT_TYPES = {
    "date": "date", "datetime": "date-time", "date-time": "date-time", "timestamp": "date-time",
    "time": "time", "email": "email", "uri": "uri", "url": "uri", "uuid": "uuid",
}  # fmt: skip
_COUNTS = (
    "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains",
)  # fmt: skip
_NUMBERS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
_FLAGS = ("uniqueItems", "deprecated", "readOnly", "writeOnly")
# Keywords of an object schema: inside "properties" they were meant to sit beside it.
_OBJECT_KEYWORDS = (
    "required", "additionalProperties", "minProperties", "maxProperties", "patternProperties",
    "propertyNames", "dependentRequired", "unevaluatedProperties",
)  # fmt: skip
_VALUE_KEYWORDS = (
    "type", "enum", "const", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "items",
    "description", "default", "examples", "title",
)  # fmt: skip
_REGEX_FIX = "write the pattern as an ECMA-262 regular expression"


@dataclass(frozen=True)
class MetaProblem:
    """One problem of a schema: where (a pointer into the schema), the sentence, and whether it is a bad regex."""

    pointer: str
    sentence: str
    regex: bool = False


def describe_value(value: Any) -> str:
    """A value as a sentence names it: ``the string "false"``, ``the number -1``, ``true``, ``an array``."""
    kind = json_type(value, integers=False)
    if kind in ("string", "number"):
        return f"the {kind} {json_snippet(value)}"
    if kind in ("boolean", "null"):
        return json_snippet(value)
    return f"an {kind}"


def join_sentences(parts: Iterable[str]) -> str:
    """Sentences as one text: each once, in order, each but the last closed by a full stop."""
    unique = list(dict.fromkeys(part for part in parts if part))
    return " ".join(p if i == len(unique) - 1 or p[-1] in ".?!" else p + "." for i, p in enumerate(unique))


def suggest_type(name: str) -> str | None:
    """The JSON Schema type ``name`` most likely stands for (``strin``, ``int``, ``String``), or None."""
    lowered = name.strip().lower()
    if lowered in JSON_TYPES:
        return lowered
    if lowered in _TYPE_SYNONYMS:
        return _TYPE_SYNONYMS[lowered]
    matches = difflib.get_close_matches(lowered, JSON_TYPES, n=1, cutoff=0.6)
    return matches[0] if matches else None


def json_snippet(value: Any, limit: int = 40) -> str:
    """A value as JSON, cut to ``limit`` characters: long values would drown the sentence."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain(value: Any) -> Any:
    """What a quoted number or flag meant (``"5"`` -> 5, ``"false"`` -> False), or None."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in ("true", "false"):
        return text == "true"
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number):
        return None
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


def _unquote(value: Any, *kinds: type) -> str | None:
    """``write 5 without quotes`` when a string holds a value of a kind the place takes."""
    meant = _plain(value)
    if meant is None or isinstance(meant, bool) != (bool in kinds) or not isinstance(meant, kinds):
        return None
    return f"write {json.dumps(meant)} without quotes"


# --- where an error is ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Place:
    """Where a meta-schema error is in the schema.

    ``keyword`` is the keyword whose value holds the place (None at the root); ``is_schema`` says
    the place itself must be a schema (``properties/a``, ``additionalProperties``); ``owner`` is
    the pointer parts of the schema object the keyword belongs to; ``name`` the property name or
    index that led to a sub-schema under a map or list keyword.
    """

    keyword: str | None
    is_schema: bool
    owner: tuple[str | int, ...]
    name: str | int | None = None


def _place(parts: Sequence[str | int], dialect: str) -> _Place:
    state = "schema"
    keyword: str | None = None
    owner: tuple[str | int, ...] = ()
    name: str | int | None = None
    for i, part in enumerate(parts):
        if state == "schema":
            keyword, owner, name = str(part), tuple(parts[:i]), None
            following = parts[i + 1] if i + 1 < len(parts) else None
            if part in ARRAYS or (part == "items" and dialect != DRAFT202012 and isinstance(following, int)):
                state = "list"
            elif part in MAPS:
                state = "map"
            elif part in SINGLE:
                state = "schema"
            else:
                state = "value"
        elif state in ("list", "map"):
            state, name = "schema", part
        else:
            break
    return _Place(keyword, state == "schema" and bool(parts), owner, name)


def _order(schema: Any, parts: Sequence[str | int], positions: dict[int, dict[str, int]]) -> tuple[int, ...]:
    """Where ``parts`` is in the file: the position of each key among its siblings, as written.

    ``positions`` caches each object's key positions, so a schema with thousands of problems in
    one large object is ordered in one pass over that object.
    """
    key: list[int] = []
    node = schema
    for part in parts:
        if isinstance(node, dict) and part in node:
            index = positions.get(id(node))
            if index is None:
                index = positions[id(node)] = {name: i for i, name in enumerate(node)}
            key.append(index[str(part)])
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            key.append(part)
            node = node[part]
        else:
            break
    return tuple(key)


# --- what to say --------------------------------------------------------------------------------

_KINDS = {
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _kinds(expected: Any) -> str:
    names = [expected] if isinstance(expected, str) else list(expected) if isinstance(expected, list) else []
    if sorted(names) == ["boolean", "object"]:
        return "a schema (object) or a boolean"
    return " or ".join(_KINDS.get(str(name), str(name)) for name in names) or "something else"


def _type_name_sentence(name: str) -> str:
    known_format = _FORMAT_TYPES.get(name.strip().lower())
    if known_format is not None:
        return f'"{name}" is not a JSON Schema type; write "type": "string" with "format": "{known_format}"'
    if name.strip().lower() == "any":
        return '"any" is not a JSON Schema type; leave "type" out to accept any value'
    sentence = f'"{name}" is not a JSON Schema type: use one of {", ".join(JSON_TYPES)}'
    suggestion = suggest_type(name)
    return f'{sentence}; did you mean "{suggestion}"?' if suggestion else sentence


def _type_problems(value: Any, at: tuple[str | int, ...]) -> list[tuple[tuple[str | int, ...], str]]:
    if isinstance(value, str):
        return [(at, _type_name_sentence(value))]
    if not isinstance(value, list):
        return [(at, f'"type" must be a type name or a list of them, such as "string", not {describe_value(value)}')]
    if not value:
        return [(at, '"type": [] allows no value at all; name at least one type, or leave "type" out')]
    found: list[tuple[tuple[str | int, ...], str]] = []
    for i, member in enumerate(value):
        if not isinstance(member, str):
            found.append(((*at, i), f'must be a type name, such as "string", not {describe_value(member)}'))
        elif member not in JSON_TYPES:
            found.append(((*at, i), _type_name_sentence(member)))
    repeated = [m for i, m in enumerate(value) if isinstance(m, str | int | float | bool) and m in value[:i]]
    if repeated:
        found.append((at, f'"type" lists {json_snippet(repeated[0])} twice; list each type once'))
    return found


def _required_sentence(value: Any, place: _Place) -> str:
    owner = place.owner
    if isinstance(value, bool):
        if len(owner) >= 2 and owner[-2] == "properties":
            where = pointer_from_parts(owner[:-2]) or "/"
            return (
                f'"required" must be a list of property names, not {json.dumps(value)}: remove it from the '
                f'property and add "{owner[-1]}" to the "required" list beside "properties" (in the schema at {where})'
            )
        return f'"required" must be a list of property names, not {json.dumps(value)}: write "required": ["name", ...]'
    if isinstance(value, str):
        return f'"required" must be a list of property names: write "required": [{json_snippet(value)}]'
    if isinstance(value, list):
        repeated = [m for i, m in enumerate(value) if m in value[:i]]
        if repeated:
            return f'"required" lists {json_snippet(repeated[0])} twice; list each name once'
        odd = next((m for m in value if not isinstance(m, str)), None)
        return f'every name in "required" must be a string, not {describe_value(odd)}'
    if isinstance(value, dict):
        return '"required" must be a list of property names, such as ["id", "name"], not an object'
    return f'"required" must be a list of property names, such as ["id", "name"], not {describe_value(value)}'


def _schema_sentence(value: Any, place: _Place, dialect: str) -> str:
    """A place that takes a schema holds something else."""
    if place.keyword == "items" and isinstance(value, list) and dialect == DRAFT202012:
        return (
            'the array form of "items" is draft-07\'s; in 2020-12 write "prefixItems": [...] for a schema per '
            'position, or "items": {...} for one schema for every item'
        )
    if place.keyword == "properties" and isinstance(place.name, str) and not isinstance(value, dict | bool):
        name = place.name
        if name in _OBJECT_KEYWORDS:
            return (
                f'"{name}" is a keyword, not a property: move it out of "properties", to sit beside it in the '
                "object schema"
            )
        if name in _VALUE_KEYWORDS:
            return (
                f'"{name}" is a keyword, not a property: "properties" maps each property name to its schema, '
                f'so write it inside a property\'s schema, such as "properties": {{"size": {{"{name}": ...}}}}'
            )
    base = f"must be a schema (object) or a boolean, not {describe_value(value)}"
    if isinstance(value, str) and value.strip() in ("true", "false"):
        return f"{base}; write {value.strip()} without quotes"
    if isinstance(value, str) and suggest_type(value) == value.strip().lower():
        return f'{base}; write {{"type": "{value.strip().lower()}"}}'
    if isinstance(value, str) and value.strip().lower() in _FORMAT_TYPES:
        return f'{base}; write {{"type": "string", "format": "{_FORMAT_TYPES[value.strip().lower()]}"}}'
    return base


def _keyword_sentence(error: ValidationError, place: _Place, value: Any, schema: Any) -> str | None:
    """A sentence for the value of ``place.keyword`` (``value`` is the keyword's whole value), or None."""
    keyword = place.keyword or ""
    if keyword == "required":
        return _required_sentence(value, place)
    if keyword == "enum" and not isinstance(value, list):
        written = f"[{json_snippet(value)}]" if not isinstance(value, dict) else "[...]"
        return f'"enum" must be a list of the allowed values, not {describe_value(value)}: write "enum": {written}'
    if keyword in _COUNTS:
        fix = _unquote(value, int)
        if fix:
            return f'"{keyword}" must be a whole number, 0 or more, not {describe_value(value)}; {fix}'
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            return f'"{keyword}" must be 0 or more, not {json_snippet(value)}'
        return f'"{keyword}" must be a whole number, 0 or more, not {describe_value(value)}'
    if keyword in _NUMBERS:
        if isinstance(value, bool) and keyword.startswith("exclusive"):
            bound = "minimum" if keyword == "exclusiveMinimum" else "maximum"
            owner = _lookup(schema, place.owner)
            limit = owner.get(bound) if isinstance(owner, dict) else None
            number = json.dumps(limit) if isinstance(limit, int | float) and not isinstance(limit, bool) else "<bound>"
            return (
                f'"{keyword}": {json.dumps(value)} is the draft-04 form; write the bound itself, '
                f'"{keyword}": {number}, and remove "{bound}"'
            )
        fix = _unquote(value, int, float)
        if fix:
            return f'"{keyword}" must be a number, not {describe_value(value)}; {fix}'
        if keyword == "multipleOf" and isinstance(value, int | float) and not isinstance(value, bool):
            return f'"multipleOf" must be greater than 0, not {json_snippet(value)}'
        return f'"{keyword}" must be a number, not {describe_value(value)}'
    if keyword in _FLAGS:
        fix = _unquote(value, bool)
        return f'"{keyword}" must be true or false, not {describe_value(value)}' + (f"; {fix}" if fix else "")
    if keyword in ARRAYS and not isinstance(value, list):
        if isinstance(value, dict):
            return f'"{keyword}" must be a list of schemas, not an object: put [ ] around the schema'
        return f'"{keyword}" must be a list of schemas, not {describe_value(value)}'
    if keyword in ARRAYS and not value:
        return f'"{keyword}" must list at least one schema'
    if keyword in MAPS and not isinstance(value, dict):
        if keyword == "properties" and isinstance(value, list) and all(isinstance(v, str) for v in value):
            named = ", ".join(f'"{v}": {{...}}' for v in value[:2])
            return f'"properties" maps each property name to its schema, not a list of names: write {{{named}}}'
        return f'"{keyword}" must be an object that maps each name to a schema, not {describe_value(value)}'
    if keyword == "examples" and not isinstance(value, list):
        return f'"examples" must be a list of sample values: write "examples": [{json_snippet(value)}]'
    if keyword == "$id" and isinstance(value, str) and "#" in value.rstrip("#"):
        anchor = value.split("#", 1)[1]
        return (
            f'"$id" must not hold a fragment ({json_snippet(value)}): name the schema with "$anchor": '
            f'{json_snippet(anchor)} and refer to it as "#{anchor}"'
        )
    if keyword == "$anchor" and isinstance(value, str):
        return (
            f'"$anchor" {json_snippet(value)} is not a plain name: start it with a letter or "_", '
            'then letters, digits, "-", "_" or "."'
        )
    if keyword == "dependentRequired":
        return '"dependentRequired" maps each property name to a list of property names: write {"a": ["b"]}'
    if error.validator == "type" and error.validator_value == "string" and not isinstance(error.instance, str):
        return f'"{keyword}" must be a string, not {describe_value(error.instance)}'
    return None


def _generic_sentence(error: ValidationError) -> str:
    """What the meta-schema asked for, in words, when no keyword-specific sentence applies."""
    expected, got = error.validator_value, error.instance
    if error.validator == "type":
        return f"must be {_kinds(expected)}, not {describe_value(got)}"
    if error.validator == "minimum":
        return f"must be {json_snippet(expected)} or more, not {json_snippet(got)}"
    if error.validator == "exclusiveMinimum":
        return f"must be greater than {json_snippet(expected)}, not {json_snippet(got)}"
    if error.validator == "minItems":
        return f"must list at least {expected} item{'s' if expected != 1 else ''}"
    if error.validator == "uniqueItems":
        return "must not list the same value twice"
    if error.validator == "enum" and isinstance(expected, list):
        return f"must be one of {', '.join(json_snippet(v) for v in expected)}, not {describe_value(got)}"
    if error.validator == "pattern":
        return f"{describe_value(got)} does not match the pattern {expected}"
    if error.validator == "format":
        return f'{describe_value(got)} is not a valid "{expected}"'
    return f"is not valid here ({error.validator} {json_snippet(expected)})"


def _regex_sentence(error: ValidationError, reason: str | None) -> str:
    """The JC119 sentence: its wording is pinned by tests of the lint family, so it keeps its form."""
    where = pointer_from_parts(error.absolute_path)
    return f'data{where} must match format "regex" ({reason}); {_REGEX_FIX}'


def meta_problems(
    schema: Any,
    errors: Iterable[ValidationError],
    dialect: str,
    regex_reason: Callable[[str], str | None] | None = None,
) -> list[MetaProblem]:
    """One problem per place and mistake, in file order; ``regex_reason(pattern)`` explains a bad regex."""
    found: dict[tuple[str, str], tuple[tuple[int, ...], MetaProblem]] = {}
    positions: dict[int, dict[str, int]] = {}

    def add(parts: Sequence[str | int], sentence: str, *, regex: bool = False) -> None:
        pointer = pointer_from_parts(parts)
        key = (pointer, sentence)
        if key not in found:
            found[key] = (_order(schema, parts, positions), MetaProblem(pointer, sentence, regex))

    for error in errors:
        parts = tuple(error.absolute_path)
        place = _place(parts, dialect)
        if error.validator == "format" and error.validator_value == "regex":
            reason = regex_reason(str(error.instance)) if regex_reason is not None else None
            add(parts, _regex_sentence(error, reason), regex=True)
            continue
        if place.is_schema:
            add(parts, f"{pointer_from_parts(parts)}: {_schema_sentence(error.instance, place, dialect)}")
            continue
        if place.keyword is None:
            add(parts, f"/: {_generic_sentence(error)}")
            continue
        keyword_parts = (*place.owner, place.keyword)
        value = _lookup(schema, keyword_parts)
        if place.keyword == "type":
            for at, sentence in _type_problems(value, keyword_parts):
                add(at, f"{pointer_from_parts(at)}: {sentence}")
            continue
        said = _keyword_sentence(error, place, value, schema)
        if said is not None:
            add(keyword_parts, f"{pointer_from_parts(keyword_parts)}: {said}")
        else:
            add(parts, f"{pointer_from_parts(parts)}: {_generic_sentence(error)}")
    return [problem for _, problem in sorted(found.values(), key=lambda item: item[0])]


def _lookup(schema: Any, parts: Sequence[str | int]) -> Any:
    node = schema
    for part in parts:
        node = node[part]
    return node
