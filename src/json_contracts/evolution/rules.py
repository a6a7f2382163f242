"""Static rules: the schema changes ``diff`` names, found by walking both versions side by side.

Each rule looks at one pair of schema objects at the same place and asks one question: "which
values does the *source* accept that the *target* rejects, because of this keyword?". Asked with
(old, new) the answer breaks **backward** compatibility; asked with (new, old) it breaks
**forward**. So every rule is written once, and each answer carries a :class:`Focus`: the extra
constraint under which a document drawn from the source lands exactly on the change, which the
witness search uses.

Two schemas written differently but meaning the same (keys reordered, ``"type": "string"`` or
``["string"]``, an ``allOf`` of one schema, ``required`` or ``enum`` in another order) compare
equal: each node is normalised before it is compared. What no rule names (an ``allOf`` rewrite, a
``oneOf`` that stops being exclusive) is left to the broad search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.text import canonical, dumps
from json_contracts.evolution.model import Change, Direction, Focus
from json_contracts.findings import Code

__all__ = ["compare_schemas", "normalise"]

_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")

#: Upper and lower bounds: keyword -> (the focus keyword that draws a value past the target's bound,
#: how the focus value follows from the bound). Values past ``maxLength: 5`` have ``minLength: 6``.
_UPPER: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "maxLength": ("minLength", lambda b: b + 1),
    "maxItems": ("minItems", lambda b: b + 1),
    "maxProperties": ("minProperties", lambda b: b + 1),
    "maximum": ("exclusiveMinimum", lambda b: b),
}
_LOWER: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "minLength": ("maxLength", lambda b: b - 1),
    "minItems": ("maxItems", lambda b: b - 1),
    "minProperties": ("maxProperties", lambda b: b - 1),
    "minimum": ("exclusiveMaximum", lambda b: b),
}
_BOUND_NOUN = {
    "maxLength": "characters",
    "minLength": "characters",
    "maxItems": "items",
    "minItems": "items",
    "maxProperties": "properties",
    "minProperties": "properties",
    "maximum": "",
    "minimum": "",
}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def normalise(node: Any) -> Any:
    """The node in a form where equal meaning is equal data (see the module docstring)."""
    if not isinstance(node, dict):
        return node
    node = dict(node)
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
        inner = all_of[0]
        if not set(inner) & (set(node) - {"allOf"}):  # merging changes nothing when no key is shared
            del node["allOf"]
            node.update(inner)
    kinds = node.get("type")
    if isinstance(kinds, str):
        node["type"] = [kinds]
    if isinstance(node.get("type"), list) and all(isinstance(t, str) for t in node["type"]):
        node["type"] = sorted(set(node["type"]))
    if isinstance(node.get("required"), list):
        node["required"] = sorted({r for r in node["required"] if isinstance(r, str)})
    if isinstance(node.get("enum"), list):
        node["enum"] = [v for _, v in sorted({canonical(v): v for v in node["enum"]}.items())]
    return node


@dataclass(frozen=True)
class _Side:
    """One node of the version documents are drawn from (``source``) and of the one that judges (``target``)."""

    source: dict[str, Any]
    target: dict[str, Any]
    pointer: str  # the same place in both schemas, without /schema
    direction: Direction


def _change(
    side: _Side, codes: tuple[Code, Code], message: str, focus: dict[str, Any] | None, *keywords: str
) -> Change:
    """A change seen from one direction; ``codes`` are (as seen backward, as seen forward)."""
    code = codes[0] if side.direction == "backward" else codes[1]
    pointer = "/schema" + side.pointer
    return Change(
        code=code,
        direction=side.direction,
        message=message,
        old_pointer=pointer,
        new_pointer=pointer,
        focus=Focus(side.pointer, focus) if focus is not None else None,
        keywords=frozenset(keywords),
    )


def _types(node: dict[str, Any]) -> set[str] | None:
    kinds = node.get("type")
    return set(kinds) if isinstance(kinds, list) else None


def _where(side: _Side) -> str:
    return side.pointer or "the root"


def _rule_type(side: _Side) -> Iterator[Change]:
    source, target = _types(side.source), _types(side.target)
    if target is None:
        return
    allowed = set(target) | ({"integer"} if "number" in target else set())
    lost = sorted((source if source is not None else set(_TYPES)) - allowed)
    if source is None and "number" in lost and "integer" in allowed:
        lost.remove("number")
    if not lost:
        return
    what = ", ".join(lost)
    if side.direction == "backward":
        message = f"type at {_where(side)} no longer allows {what}: documents with such a value are now rejected"
    else:
        message = f"type at {_where(side)} now allows {what}: consumers may get such a value"
    yield _change(side, (Code.TYPE_NARROWED, Code.TYPE_WIDENED), message, {"type": lost}, "type")


def _rule_required(side: _Side) -> Iterator[Change]:
    source = set(side.source.get("required") or [])
    for name in sorted(set(side.target.get("required") or []) - source):
        if side.direction == "backward":
            message = f'"{name}" is now required at {_where(side)}: documents without it are rejected'
        else:
            message = f'"{name}" is no longer required at {_where(side)}: consumers may get documents without it'
        focus = {"not": {"required": [name]}}
        yield _change(side, (Code.REQUIRED_ADDED, Code.REQUIRED_REMOVED), message, focus, "required")


def _rule_enum(side: _Side) -> Iterator[Change]:
    target = side.target.get("enum")
    if not isinstance(target, list):
        return
    allowed = {canonical(v) for v in target}
    source = side.source.get("enum")
    if not isinstance(source, list):
        if "const" in side.source:
            return  # the const rule speaks for it
        verb = "now restricts" if side.direction == "backward" else "no longer restricts"
        message = f"an enum {verb} the values at {_where(side)}"
        focus = {"not": {"enum": target}} if side.direction == "backward" else None
        yield _change(side, (Code.ENUM_VALUE_REMOVED, Code.ENUM_VALUE_ADDED), message, focus, "enum")
        return
    for value in source:
        if canonical(value) in allowed:
            continue
        shown = dumps(value, indent=None)
        if side.direction == "backward":
            message = f"enum value {shown} was removed at {_where(side)}: documents that use it are rejected"
        else:
            message = f"enum value {shown} was added at {_where(side)}: consumers may get it"
        yield _change(side, (Code.ENUM_VALUE_REMOVED, Code.ENUM_VALUE_ADDED), message, {"const": value}, "enum")


def _rule_const(side: _Side) -> Iterator[Change]:
    if "const" not in side.target:
        return
    target = canonical(side.target["const"])
    if "const" in side.source and canonical(side.source["const"]) == target:
        return
    enum = side.source.get("enum")
    if "const" not in side.source and isinstance(enum, list) and all(canonical(v) == target for v in enum):
        return
    old = side.source.get("const") if side.direction == "backward" else side.target["const"]
    new = side.target["const"] if side.direction == "backward" else side.source.get("const")
    message = f"const at {_where(side)} changed from {dumps(old, indent=None)} to {dumps(new, indent=None)}"
    focus = {"not": {"const": side.target["const"]}}
    yield _change(side, (Code.CONST_CHANGED, Code.CONST_CHANGED), message, focus, "const")


def _rule_bounds(side: _Side) -> Iterator[Change]:
    for keyword, (focus_key, past) in (_UPPER | _LOWER).items():
        bound = side.target.get(keyword)
        if not _is_number(bound):
            continue
        before: Any = side.source.get(keyword)
        upper = keyword in _UPPER
        if _is_number(before) and (before <= bound if upper else before >= bound):
            continue
        noun = _BOUND_NOUN[keyword]
        shown = f"{bound} {noun}".strip()
        if side.direction == "backward":
            was = f" (was {before})" if _is_number(before) else ""
            message = f"{keyword} at {_where(side)} is now {shown}{was}: values past it are rejected"
        else:
            now = f"{before}" if _is_number(before) else "no bound"
            message = (
                f"{keyword} at {_where(side)} was loosened from {bound} to {now}: consumers may get values past {bound}"
            )
        if noun and not isinstance(bound, int):
            continue
        if noun and not upper and bound is not None and bound <= 0:
            continue
        yield _change(side, (Code.BOUND_TIGHTENED, Code.BOUND_LOOSENED), message, {focus_key: past(bound)}, keyword)


def _rule_pattern(side: _Side) -> Iterator[Change]:
    target = side.target.get("pattern")
    if not isinstance(target, str) or side.source.get("pattern") == target:
        return
    before = side.source.get("pattern")
    if side.direction == "backward":
        was = f" (was {dumps(before, indent=None)})" if isinstance(before, str) else ""
        message = f"pattern at {_where(side)} is now {dumps(target, indent=None)}{was}: some strings are rejected"
    else:
        message = (
            f"pattern {dumps(target, indent=None)} at {_where(side)} changed: consumers may get strings it rejected"
        )
    yield _change(side, (Code.PATTERN_CHANGED, Code.PATTERN_CHANGED), message, {"not": {"pattern": target}}, "pattern")


def _rule_format(side: _Side) -> Iterator[Change]:
    target = side.target.get("format")
    if not isinstance(target, str) or side.source.get("format") == target:
        return
    if side.direction == "backward":
        message = f'format "{target}" at {_where(side)} is now checked: strings that do not match it are rejected'
    else:
        message = (
            f'format "{target}" at {_where(side)} is no longer checked: consumers may get strings that do not match it'
        )
    yield _change(side, (Code.FORMAT_ADDED, Code.FORMAT_REMOVED), message, {"not": {"format": target}}, "format")


def _extra_name(*nodes: dict[str, Any]) -> str:
    """A property name no node lists (for a document that sets a property the target does not know)."""
    taken = {name for node in nodes if isinstance(node.get("properties"), dict) for name in node["properties"]}
    name, i = "extra", 1
    while name in taken:
        i += 1
        name = f"extra{i}"
    return name


def _rule_closed(side: _Side) -> Iterator[Change]:
    if side.target.get("additionalProperties") is not False:
        return
    source_properties: dict[str, Any] = side.source.get("properties") or {}
    target_properties: dict[str, Any] = side.target.get("properties") or {}
    if not isinstance(source_properties, dict) or not isinstance(target_properties, dict):
        return
    if side.source.get("additionalProperties") is not False and "patternProperties" not in side.target:
        if side.direction == "backward":
            message = f"the object at {_where(side)} was closed: fields it does not list are rejected"
        else:
            message = f"the object at {_where(side)} was opened: consumers may get fields the old version did not list"
        focus = {"required": [_extra_name(side.source, side.target)]}
        codes = (Code.ADDITIONAL_PROPERTIES_CLOSED, Code.ADDITIONAL_PROPERTIES_OPENED)
        yield _change(side, codes, message, focus, "additionalProperties")
        return
    for name in source_properties:
        if name in target_properties or source_properties[name] is False:
            continue
        if side.direction == "backward":
            message = f'property "{name}" was removed from the closed object at {_where(side)}: documents with it fail'
        else:
            message = f'property "{name}" was added to the closed object at {_where(side)}: consumers may get it'
        focus = {"required": [name]}
        yield _change(side, (Code.PROPERTY_REMOVED, Code.PROPERTY_ADDED), message, focus, "additionalProperties")


def _rule_branches(side: _Side) -> Iterator[Change]:
    for keyword in ("anyOf", "oneOf"):
        source, target = side.source.get(keyword), side.target.get(keyword)
        if not isinstance(source, list) or not isinstance(target, list):
            continue
        kept = {canonical(normalise(b)) for b in target}
        for i, branch in enumerate(source):
            if canonical(normalise(branch)) in kept or not isinstance(branch, dict):
                continue
            verb = "was removed" if side.direction == "backward" else "was added"
            message = f"{keyword} branch {i} at {_where(side)} {verb}: documents that only it accepts change verdict"
            yield _change(side, (Code.BRANCH_REMOVED, Code.BRANCH_ADDED), message, branch, keyword)
    source, target = side.source.get("allOf"), side.target.get("allOf")
    if isinstance(target, list):
        kept = {canonical(normalise(b)) for b in source} if isinstance(source, list) else set()
        for i, branch in enumerate(target):
            if canonical(normalise(branch)) in kept or not isinstance(branch, (dict, bool)):
                continue
            verb = "was added" if side.direction == "backward" else "was removed"
            message = f"allOf branch {i} at {_where(side)} {verb}: documents it rejects change verdict"
            yield _change(side, (Code.BRANCH_ADDED, Code.BRANCH_REMOVED), message, {"not": branch}, "allOf")


def _rule_ref(side: _Side) -> Iterator[Change]:
    if side.direction != "backward":
        return  # one finding for a moved reference; the search proves either direction
    source, target = side.source.get("$ref"), side.target.get("$ref")
    if isinstance(source, str) and isinstance(target, str) and source != target:
        message = f"$ref at {_where(side)} changed from {source} to {target}"
        yield _change(side, (Code.REF_CHANGED, Code.REF_CHANGED), message, None, "$ref")


_RULES = (
    _rule_type,
    _rule_required,
    _rule_enum,
    _rule_const,
    _rule_bounds,
    _rule_pattern,
    _rule_format,
    _rule_closed,
    _rule_branches,
    _rule_ref,
)
_SINGLE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _pairs(old: Any, new: Any, pointer: str) -> Iterator[tuple[dict[str, Any], dict[str, Any], str]]:
    """Both versions' schema objects at the same places, pre-order (only where both have one)."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return
    old, new = normalise(old), normalise(new)
    if canonical(old) == canonical(new):
        return
    yield old, new, pointer
    for key in _SINGLE:
        yield from _pairs(old.get(key), new.get(key), f"{pointer}/{key}")
    for key in _MAPS:
        olds, news = old.get(key), new.get(key)
        if isinstance(olds, dict) and isinstance(news, dict):
            for name in olds:
                if name in news:
                    yield from _pairs(olds[name], news[name], f"{pointer}/{key}/{escape_pointer_segment(name)}")
    for key in ("prefixItems", "allOf", "anyOf", "oneOf"):
        olds, news = old.get(key), new.get(key)
        if isinstance(olds, list) and isinstance(news, list) and len(olds) == len(news):
            for i, (a, b) in enumerate(zip(olds, news, strict=True)):
                yield from _pairs(a, b, f"{pointer}/{key}/{i}")
    if isinstance(old.get("items"), list) and isinstance(new.get("items"), list):  # draft-07 tuples
        for i, (a, b) in enumerate(zip(old["items"], new["items"], strict=False)):
            yield from _pairs(a, b, f"{pointer}/items/{i}")


def compare_schemas(old: Any, new: Any) -> list[Change]:
    """Every change the rules name between two schemas, backward ones first at each place."""
    changes: list[Change] = []
    for old_node, new_node, pointer in _pairs(old, new, ""):
        for direction, source, target in (("backward", old_node, new_node), ("forward", new_node, old_node)):
            side = _Side(source, target, pointer, direction)  # type: ignore[arg-type]
            for rule in _RULES:
                changes.extend(rule(side))
    return changes
