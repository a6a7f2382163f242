"""Repair guidance for a document that failed validation.

Two views of the same errors: the TypeScript server's instruction lines (byte for byte, in
:func:`field_hints`) for a model to read, and :func:`repairs`, one machine-readable entry per
error (what to do at which path, and what is allowed there) for programs and for the property
checks that prove the hints are sufficient. :func:`document_hints` is the lines for a person
reading ``check`` or a failed test: the same, plus what the TypeScript lines leave out.

The hints find a path's sub-schemas the TypeScript server's way (:func:`schema_nodes_at`);
:func:`value_schema` is what a value written there must satisfy as the validator reads the schema
(``patternProperties`` included), for the property checks that follow the repairs.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Iterator
from typing import Any

from json_contracts._json.pointers import lookup, pointer_from_parts, pointer_parts, resolve_local_ref
from json_contracts._json.text import array_index, dumps, format_number
from json_contracts.schema.authoring import suggest
from json_contracts.schema.formats import FORMAT_EXAMPLES
from json_contracts.schema.patterns import property_schemas
from json_contracts.schema.validation import TIMEOUT_KEYWORD, ErrorRecord

__all__ = [
    "MAX_LISTED_VALUES",
    "contains_schema",
    "document_hints",
    "field_hints",
    "first_value",
    "left_out_line",
    "merged_schema",
    "repair_instructions",
    "repairs",
    "schema_nodes_at",
    "value_schema",
]

_MAX_REF_DEPTH = 64
#: Stands for "no document given" (``None`` is the JSON value null).
_NO_DOCUMENT: Any = object()


def _expand(node: Any, root: Any) -> list[dict[str, Any]]:
    """The node plus every node its local ``$ref`` chain leads to (cycle-guarded)."""
    found: list[dict[str, Any]] = []
    seen: set[int] = set()
    depth = 0
    while isinstance(node, dict) and id(node) not in seen and depth <= _MAX_REF_DEPTH:
        seen.add(id(node))
        found.append(node)
        ref = node.get("$ref")
        node = resolve_local_ref(root, ref) if isinstance(ref, str) else None
        depth += 1
    return found


def _with_branches(nodes: Iterable[dict[str, Any]], root: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = []
    seen: set[int] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop(0)
        if id(node) in seen or len(result) > 1000:
            continue
        seen.add(id(node))
        result.append(node)
        for key in ("allOf", "anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                for branch in branches:
                    stack.extend(_expand(branch, root))
    return result


def _children(node: dict[str, Any], segment: str) -> list[Any]:
    children: list[Any] = []
    properties = node.get("properties")
    if isinstance(properties, dict) and segment in properties:
        children.append(properties[segment])
    elif isinstance(node.get("additionalProperties"), dict):
        children.append(node["additionalProperties"])
    index = array_index(segment)
    if index is not None:
        prefix, items = node.get("prefixItems"), node.get("items")
        if isinstance(prefix, list) and index < len(prefix):
            children.append(prefix[index])
        elif isinstance(items, list) and index < len(items):
            children.append(items[index])
        elif isinstance(items, dict):
            children.append(items)
        elif isinstance(node.get("additionalItems"), dict):
            children.append(node["additionalItems"])
    return children


def schema_nodes_at(schema: Any, pointer: str) -> list[dict[str, Any]]:
    """Sub-schemas that govern the data at ``pointer`` (following ``$ref`` and compositions)."""
    level = _with_branches(_expand(schema, schema), schema)
    for segment in pointer_parts(pointer):
        following: list[dict[str, Any]] = []
        for node in level:
            for child in _children(node, segment):
                following.extend(_expand(child, schema))
        level = _with_branches(following, schema)
    return level


# --- the schema a repaired value must satisfy -----------------------------------------------------


def value_schema(schema: Any, pointer: str, document: Any = _NO_DOCUMENT) -> Any:
    """The schema a value at ``pointer`` must satisfy, read as the validator reads ``schema``.

    :func:`schema_nodes_at` walks as the TypeScript server's hints do; a repair needs a value that
    validates, so at each step this takes ``properties`` and every matching ``patternProperties``
    together (``additionalProperties`` only where neither applies), an index's own item schema
    (``prefixItems``/``items``, then the rest), and merges them with what a ``$ref`` target and each
    ``allOf`` branch say (an ``allOf``); ``anyOf``/``oneOf`` branches that say anything about the
    value are alternatives (an ``anyOf``). With ``document``, a step into an array reads only the
    item keywords and a step into an object only the property ones. True where nothing constrains
    the value.
    """
    current, value = schema, document
    for segment in pointer_parts(pointer):
        kind = "array" if isinstance(value, list) else "object" if isinstance(value, dict) else None
        current = merged_schema(_below(current, segment, kind, schema, 0))
        value = _child_value(value, segment)
    return current


def contains_schema(schema: Any, pointer: str, document: Any = _NO_DOCUMENT) -> Any:
    """What an item added for a failed ``contains`` at ``pointer`` must satisfy: every ``contains``
    that applies to the array there (through ``$ref`` and ``allOf``), merged; True if none does."""
    return merged_schema([node["contains"] for node in _conjuncts(value_schema(schema, pointer, document), schema)
                          if "contains" in node])  # fmt: skip


def merged_schema(parts: Iterable[Any]) -> Any:
    """One schema that holds where all of ``parts`` hold: True for none, the one itself, else an ``allOf``."""
    kept: dict[int, Any] = {}
    for part in parts:
        if part is not True and part != {}:
            kept.setdefault(id(part), part)
    if not kept:
        return True
    values = list(kept.values())
    return values[0] if len(values) == 1 else {"allOf": values}


def _child_value(value: Any, segment: str) -> Any:
    if isinstance(value, dict):
        return value.get(segment, _NO_DOCUMENT)
    index = array_index(segment) if isinstance(value, list) else None
    return value[index] if index is not None and index < len(value) else _NO_DOCUMENT


def _below(node: Any, segment: str, kind: str | None, root: Any, depth: int) -> list[Any]:
    """The schemas (all of which apply) for the child ``segment`` of a value ``node`` governs."""
    if not isinstance(node, dict) or depth > _MAX_REF_DEPTH:
        return []
    found: list[Any] = []
    ref = node.get("$ref")
    if isinstance(ref, str):
        found += _below(resolve_local_ref(root, ref), segment, kind, root, depth + 1)
    if kind != "array":
        found += property_schemas(node, segment)
    index = array_index(segment) if kind != "object" else None
    if index is not None:
        found += _item_schemas(node, index)
    branches = node.get("allOf")
    for branch in branches if isinstance(branches, list) else []:
        found += _below(branch, segment, kind, root, depth + 1)
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            said = [m for b in branches if (m := merged_schema(_below(b, segment, kind, root, depth + 1))) is not True]
            if said:
                found.append(said[0] if len(said) == 1 else {"anyOf": said})
    return found


def _item_schemas(node: dict[str, Any], index: int) -> list[Any]:
    """The schema of the item at ``index``: ``prefixItems``/a tuple ``items`` for its place, else the rest."""
    prefix, items = node.get("prefixItems"), node.get("items")
    if isinstance(prefix, list):
        return [prefix[index]] if index < len(prefix) else ([items] if "items" in node else [])
    if isinstance(items, list):
        rest = [node["additionalItems"]] if "additionalItems" in node else []
        return [items[index]] if index < len(items) else rest
    return [items] if "items" in node else []


def _conjuncts(node: Any, root: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """``node`` and every node that applies with it: its ``$ref`` targets and ``allOf`` branches."""
    if not isinstance(node, dict) or depth > _MAX_REF_DEPTH:
        return
    yield node
    ref = node.get("$ref")
    if isinstance(ref, str):
        yield from _conjuncts(resolve_local_ref(root, ref), root, depth + 1)
    branches = node.get("allOf")
    for branch in branches if isinstance(branches, list) else []:
        yield from _conjuncts(branch, root, depth + 1)


def _js_string(value: Any) -> str:
    """JavaScript ``String(value)``."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return format_number(value)
    if isinstance(value, list):
        return ",".join("" if v is None else _js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def _enum_values(nodes: list[dict[str, Any]]) -> list[Any]:
    values: list[Any] = []
    seen: set[str] = set()
    for node in nodes:
        enum = node.get("enum")
        if isinstance(enum, list):
            for value in enum:
                text = dumps(value, indent=None)
                if text not in seen:
                    seen.add(text)
                    values.append(value)
    return values


def _types(nodes: list[dict[str, Any]]) -> list[str]:
    types: list[str] = []
    for node in nodes:
        declared = node.get("type")
        for name in [declared] if isinstance(declared, str) else declared if isinstance(declared, list) else []:
            if isinstance(name, str) and name not in types:
                types.append(name)
    return types


_SIMPLE_HINTS = {
    "maxLength": "Shorten {} to satisfy the maximum length.",
    "minLength": "Lengthen {} to satisfy the minimum length.",
    "minimum": "Increase {} to satisfy the minimum value.",
    "exclusiveMinimum": "Increase {} to satisfy the minimum value.",
    "maximum": "Decrease {} to satisfy the maximum value.",
    "exclusiveMaximum": "Decrease {} to satisfy the maximum value.",
    "pattern": "Set {} to match the required pattern.",
}


_KEYWORD_HINTS = frozenset({"enum", "required", "additionalProperties", "type", *_SIMPLE_HINTS})


def _hint(schema: Any, error: ErrorRecord) -> str:
    path, keyword = error["path"], error["keyword"]
    target = path or "the JSON value"
    if keyword == "enum":
        values = _enum_values(schema_nodes_at(schema, path))
        if values:
            return f"Set {target} to one of: {', '.join(_js_string(v) for v in values)}."
        return f"Set {target} to an allowed enum value."
    if keyword == "required":
        return f"Add missing required field {path}."
    if keyword == "additionalProperties":
        return f"Remove extra field {path}."
    if keyword == "type":
        types = _types(schema_nodes_at(schema, path))
        if types:
            return f"Set {target} to a valid {' or '.join(types)} value."
        return f"Set {target} to the required type."
    if keyword in _SIMPLE_HINTS:
        return _SIMPLE_HINTS[keyword].format(target)
    if keyword == TIMEOUT_KEYWORD:  # not an error in the document: it ran out of checking time
        return "Fix the errors listed, then send the document again; if it still runs out of time, send a smaller one."
    return f"Fix {target}: {error['message']}."


def field_hints(schema: Any, errors: Iterable[ErrorRecord], *, max_bytes: int | None = None) -> list[str]:
    """One hint line per error, in order, without repeats.

    An ``enum`` hint lists every allowed value, so with ``max_bytes`` the lines stop once they
    hold about that much text, and a last line says how many were left out and what to do.
    """
    hints: dict[str, None] = {}  # ordered and de-duplicated in linear time: a document may have 100,000 errors
    seen: set[tuple[str, str, str]] = set()  # an error met before gives the same line: build it once
    size = 0
    left_out = 0
    for error in errors:
        # only the catch-all line quotes the message; the others depend on the keyword and path alone
        message = "" if error["keyword"] in _KEYWORD_HINTS else error["message"]
        key = (error["keyword"], error["path"], message)
        if key in seen:
            continue
        seen.add(key)
        if max_bytes is not None and size > max_bytes:
            left_out += 1
            continue
        hint = _hint(schema, error)
        if hint not in hints:
            hints[hint] = None
            size += len(hint)
    if left_out:
        hints[left_out_line(left_out, "hints", max_bytes or 0)] = None
    return list(hints)


def left_out_line(count: int, what: str, max_bytes: int) -> str:
    """The note that ends a list cut to fit an answer: how much was left out, and what to do."""
    return (
        f"{count} more {what} not listed: an answer lists about {max_bytes} bytes of them; "
        "fix the errors listed, then validate again"
    )


#: A missing field's allowed values named in its hint, at most; the rest are counted. An enum of
#: hundreds of values would otherwise drown the other hints (``check --json`` lists them all).
MAX_LISTED_VALUES = 10
_MAX_LISTED_CHARACTERS = 200  # and at most about this much text of them


def _allowed_values(nodes: list[dict[str, Any]]) -> list[Any]:
    """The values a field may take when its schema says (``enum``, else ``const``), as ``repairs`` lists them."""
    values = _enum_values(nodes)
    if not values and any("const" in node for node in nodes):
        values = [first_value(nodes, "const")]
    return values


def _listed(values: list[Any]) -> str:
    shown: list[str] = []
    size = 0
    for value in values[:MAX_LISTED_VALUES]:
        text = _js_string(value)
        if shown and size + len(text) > _MAX_LISTED_CHARACTERS:
            break
        shown.append(text)
        size += len(text) + 2
    rest = len(values) - len(shown)
    return ", ".join(shown) + (f" and {rest} more (see the schema)" if rest else "")


_FORMAT_MESSAGE = re.compile(r'must match format "(.+)"\Z')
#: The formats whose strings start with a calendar date (``YYYY-MM-DD``).
_DATED_FORMATS = ("date", "date-time", "iso-date-time")
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
#: English whatever the locale (``calendar.month_name`` follows it).
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip


def _required_hint(schema: Any, error: ErrorRecord, hint: str) -> str:
    """A missing field's line, with the values its schema allows (``enum`` or ``const``)."""
    values = _allowed_values(schema_nodes_at(schema, error["path"])) if error["path"] else []
    if len(values) == 1:
        return f"{hint[:-1]} with the value {_listed(values)}."
    if values:
        return f"{hint[:-1]} with one of: {_listed(values)}."
    return hint


_SEPARATORS = re.compile(r"[\s_-]+")
#: A name cut short must keep at least this many letters to stand for a longer one (``due``).
_MIN_PREFIX = 3


def _folded(name: str) -> str:
    return _SEPARATORS.sub("", name).lower()


def _meant_property(word: str, candidates: list[str]) -> str | None:
    """The property an extra field most likely misspells: lint's :func:`suggest`, plus the slips of
    a document's keys, another case style (``due_date``: ``dueDate``) or a name cut short (``due``,
    when ``dueDate`` is the only property it begins).

    A document's writer guesses the names, so a shortened name is as likely as a typo; a schema's
    keyword is not, which is why lint keeps :func:`suggest` alone.
    """
    found = suggest(word, candidates)
    if found is not None:
        return found
    folded = _folded(word)
    same = [c for c in candidates if _folded(c) == folded]
    if same:
        return same[0]
    longer = [c for c in candidates if len(folded) >= _MIN_PREFIX and _folded(c).startswith(folded)]
    return longer[0] if len(longer) == 1 else None


def _extra_field_hint(schema: Any, error: ErrorRecord, hint: str, document: Any) -> str:
    """An extra field's line, with the property it most likely misspells (``due``: ``dueDate``).

    A property the object already has is no candidate: renaming onto it would clash.
    """
    parts = pointer_parts(error["path"])
    if not parts:
        return hint
    parent = pointer_from_parts(parts[:-1])
    names: dict[str, None] = {}
    for node in schema_nodes_at(schema, parent):
        properties = node.get("properties")
        if isinstance(properties, dict):
            names.update(dict.fromkeys(properties))
    found, obj = lookup(document, parent) if document is not _NO_DOCUMENT else (False, None)
    present = obj if found and isinstance(obj, dict) else {}
    meant = _meant_property(parts[-1], [name for name in names if name not in present and name != parts[-1]])
    return f'{hint[:-1]}; did you mean "{meant}"?' if meant else hint


def _impossible_date(value: Any) -> str | None:
    """Why a value starting ``YYYY-MM-DD`` names no day: "2026-02-30 is not a calendar date (…)", or None."""
    match = _DATE.match(value) if isinstance(value, str) else None
    if match is None:
        return None
    year, month, day = (int(group) for group in match.groups())
    if not 1 <= month <= 12:
        return f"{match[0]} is not a calendar date (there is no month {match[2]})"
    days = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days:
        return f"{match[0]} is not a calendar date ({_MONTHS[month - 1]} {match[1]} has {days} days)"
    return None


def _format_hint(schema: Any, error: ErrorRecord, hint: str, document: Any) -> str:
    """A format error's line says what to write: the shape and one value that passes.

    Ajv's 'must match format "date"' names the rule, not the shape; a date that has the shape but
    names no day (``2026-02-30``) is said to be impossible, since its shape looks right.
    """
    named = _FORMAT_MESSAGE.match(error["message"])
    name = named[1] if named else first_value(schema_nodes_at(schema, error["path"]), "format")
    if not isinstance(name, str) or name not in FORMAT_EXAMPLES:
        return hint
    shape, example = FORMAT_EXAMPLES[name]
    target = error["path"] or "the JSON value"
    found, value = lookup(document, error["path"]) if document is not _NO_DOCUMENT else (False, None)
    impossible = _impossible_date(value) if found and name in _DATED_FORMATS else None
    if impossible:
        return f"Fix {target}: {impossible}; write {shape}, e.g. {example}."
    return f"Write {target} as {shape}, e.g. {example}."


def _document_hint(schema: Any, error: ErrorRecord, document: Any) -> str:
    hint = _hint(schema, error)
    keyword = error["keyword"]
    if keyword == "required":
        return _required_hint(schema, error, hint)
    if keyword == "additionalProperties":
        return _extra_field_hint(schema, error, hint, document)
    if keyword == "format":
        return _format_hint(schema, error, hint, document)
    return hint


def document_hints(schema: Any, errors: Iterable[ErrorRecord], document: Any = _NO_DOCUMENT) -> list[str]:
    """:func:`field_hints` for a person reading one document's errors (``check``, a failed test).

    The MCP instructions keep the TypeScript server's shorter lines byte for byte, which is why
    this is a separate function; ``repairs`` is the view for programs. Added here:

    - a missing field whose schema is an ``enum`` or a ``const`` gets its allowed values (at most
      :data:`MAX_LISTED_VALUES`): "Add missing required field /category with one of: bug, other.";
    - an extra field that misspells a property of its object gets a did-you-mean: "Remove extra
      field /items/0/due; did you mean "dueDate"?";
    - a value that fails a ``format`` gets the shape to write and an example: "Write /date as a
      date in the form YYYY-MM-DD, e.g. 2026-03-03."

    With ``document`` (the value that failed), a date of the right shape that names no day
    (``2026-02-30``) is called impossible, and a property the object already has is never
    suggested for an extra field.
    """
    hints: dict[str, None] = {}
    for error in errors:
        hints.setdefault(_document_hint(schema, error, document))
    return list(hints)


def repair_instructions(schema: Any, errors: Iterable[ErrorRecord]) -> list[str]:
    """The field hints followed by ``Return JSON only.``: the instruction lines, as a list for library callers."""
    return [*field_hints(schema, errors), "Return JSON only."]


_ACTIONS = {
    "required": "add",
    "additionalProperties": "remove",
    "unevaluatedProperties": "remove",
    "enum": "replace",
    "const": "replace",
    "type": "set-type",
    "maxLength": "shorten",
    "minLength": "lengthen",
    "maximum": "decrease",
    "exclusiveMaximum": "decrease",
    "minimum": "increase",
    "exclusiveMinimum": "increase",
    "multipleOf": "set-multiple",
    "pattern": "match-pattern",
    "format": "match-format",
    "maxItems": "remove-items",
    "minItems": "add-items",
    "uniqueItems": "deduplicate",
    "maxProperties": "remove-properties",
    "minProperties": "add-properties",
    "dependentRequired": "add-dependencies",
    "dependencies": "add-dependencies",
}
_LIMIT_KEYWORDS = {
    "maxLength", "minLength", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "multipleOf", "maxItems", "minItems", "maxProperties", "minProperties",
}  # fmt: skip


def first_value(nodes: list[dict[str, Any]], keyword: str) -> Any:
    """The value of ``keyword`` in the first of ``nodes`` (sub-schemas at one path) that has it, else None."""
    return next((node[keyword] for node in nodes if keyword in node), None)


def repairs(schema: Any, errors: Iterable[ErrorRecord], *, max_bytes: int | None = None) -> list[dict[str, Any]]:
    """One machine-readable repair per error: ``path``, ``keyword``, ``action`` and what is allowed.

    ``add`` entries carry the new field's ``types``/``allowed`` values when the schema says;
    ``replace`` carries ``allowed``; ``set-type`` carries ``types``; limit actions carry
    ``limit``; ``match-pattern``/``match-format`` carry the pattern or format. Anything else is
    ``fix`` with the error message.

    Every entry for one place in the schema shares its ``allowed`` list, but each one repeats
    it on the wire: with ``max_bytes`` the entries stop once they hold about that much JSON, and
    a last ``fix`` entry (keyword ``maxErrors``, path ``""``) says how many were left out.
    """
    result: list[dict[str, Any]] = []
    facts: dict[str, tuple[dict[str, Any], int]] = {}  # what the schema says at a path, and its JSON size
    size = 0
    left_out = 0
    for error in errors:
        if max_bytes is not None and size > max_bytes:
            left_out += 1
            continue
        path, keyword = error["path"], error["keyword"]
        known = facts.get(path)
        if known is None:
            nodes = schema_nodes_at(schema, path)
            found = {
                "allowed": _allowed_values(nodes),
                "types": _types(nodes),
                "nodes": nodes,
            }
            known = (found, len(dumps(found["allowed"], indent=None)) if found["allowed"] else 0)
            facts[path] = known
        found, allowed_size = known
        entry: dict[str, Any] = {"path": path, "keyword": keyword, "action": _ACTIONS.get(keyword, "fix")}
        nodes = found["nodes"]
        if keyword in ("enum", "const", "required") and found["allowed"]:
            entry["allowed"] = found["allowed"]
            size += allowed_size
        if keyword in ("type", "required", "enum", "const") and found["types"]:
            entry["types"] = list(found["types"])
        if keyword in _LIMIT_KEYWORDS:
            limit = first_value(nodes, keyword)
            if limit is not None:
                entry["limit"] = limit
        elif keyword == "pattern":
            entry["pattern"] = first_value(nodes, "pattern")
        elif keyword == "format":
            entry["format"] = first_value(nodes, "format")
        entry["message"] = error["message"]
        size += len(path) + len(keyword) + len(error["message"]) + len(str(entry.get("pattern") or "")) + 80
        result.append(entry)
    if left_out:
        note = left_out_line(left_out, "repairs", max_bytes or 0)
        result.append({"path": "", "keyword": "maxErrors", "action": "fix", "message": note})
    return result
