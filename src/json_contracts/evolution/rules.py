"""Static rules: the schema changes ``diff`` names, found by walking both versions side by side.

Each rule looks at one pair of schema objects at the same place and asks one question: "which
values does the *source* accept that the *target* rejects, because of this keyword?". Asked with
(old, new) the answer breaks **backward** compatibility; asked with (new, old) it breaks
**forward**. So every rule is written once, and each answer carries a :class:`Focus`: the extra
constraint under which a document drawn from the source lands exactly on the change, which the
witness search uses (:mod:`.focus`).

The walk pairs the places documents can reach in both versions: a ``$ref`` is followed to its
target (so a change inside ``$defs`` is found where it is used, once, and an unused definition
changes nothing), a property declared in one version only is compared with what the other lets
that property hold (its ``additionalProperties``), and tuple positions are compared position by
position across ``items``/``prefixItems``/``additionalItems``. A change to an array's item schema
is named by the rules at the item's place (the keyword and bound that changed);
:data:`~json_contracts.findings.Code.ITEMS_CHANGED` is kept for what only the array as a whole
shows: a tuple closed at another length.

Two schemas written differently but meaning the same (keys reordered, ``"type": "string"`` or
``["string"]``, ``["integer", "number"]`` or ``"number"``, an ``allOf`` whose parts do not
interact, ``required`` or ``enum`` in another order, annotations, a ``$ref`` to an equal schema)
compare equal: each node is normalised, and equal subtrees are not walked. What no rule names (a
``not`` or an ``if`` that changed, ``uniqueItems``, a ``oneOf`` whose branches start to overlap) is
left to the broad search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any
from urllib.parse import unquote

from json_contracts._json.pointers import lookup, pointer_from_parts
from json_contracts._json.text import canonical, dumps
from json_contracts.evolution.model import Change, Direction, Focus
from json_contracts.findings import Code
from json_contracts.schema.patterns import matches
from json_contracts.schema.vocabulary import DRAFT7, item_schemas

__all__ = ["compare_schemas", "equivalent", "normalise"]

_TYPES = ("array", "boolean", "integer", "null", "number", "object", "string")
#: Keywords that never change which documents validate.
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
                          "writeOnly", "$schema", "$id", "$anchor", "$dynamicAnchor", "contentMediaType",
                          "contentEncoding", "contentSchema"})  # fmt: skip
_CONTAINERS = frozenset({"$defs", "definitions"})
#: A ``$ref`` with only these beside it is the schema it points to (in draft-07 every sibling is ignored).
_PURE_REF = _ANNOTATIONS | _CONTAINERS | {"$ref"}
#: Keywords that read each other inside one schema object: an ``allOf`` whose parts split one group
#: cannot be merged into one object (``additionalProperties`` sees only its own ``properties``).
_GROUPS = (
    frozenset({"properties", "patternProperties", "additionalProperties"}),
    frozenset({"items", "prefixItems", "additionalItems"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
)
_SINGLE = ("additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else",
           "unevaluatedProperties", "unevaluatedItems")  # fmt: skip
_MAPS = ("properties", "patternProperties", "dependentSchemas", "dependencies")
_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
#: Keywords whose absence means "no constraint", so an empty value is dropped.
_EMPTY_MEANS_NOTHING = ("additionalProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
                        "required", "dependentRequired", "dependentSchemas", "properties", "patternProperties",
                        "prefixItems")  # fmt: skip
_NODE_BUDGET = 20_000  # schema nodes one normal form may visit (references inlined): past it, "differs"

#: Length bounds: keyword -> (the focus keyword that draws a value past the target's bound, the
#: type the keyword applies to, the noun in messages). Values past ``maxLength: 5`` have ``minLength: 6``.
_LENGTHS: dict[str, tuple[str, str, str]] = {
    "maxLength": ("minLength", "string", "characters"),
    "minLength": ("maxLength", "string", "characters"),
    "maxItems": ("minItems", "array", "items"),
    "minItems": ("maxItems", "array", "items"),
    "maxProperties": ("minProperties", "object", "properties"),
    "minProperties": ("maxProperties", "object", "properties"),
}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _mapping(node: dict[str, Any], key: str) -> dict[str, Any]:
    """``node[key]`` when it is an object (``properties``, ``patternProperties``), else an empty one."""
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _shown(value: Any) -> str:
    return dumps(value, indent=None)


# -- the two versions ----------------------------------------------------------------------------


class _Version:
    """One version's schema: its root (where ``$ref`` resolves), its dialect, and normal forms."""

    def __init__(self, root: Any, dialect: str | None) -> None:
        self.root = root
        if dialect is None:
            declared = root.get("$schema") if isinstance(root, dict) else None
            dialect = DRAFT7 if isinstance(declared, str) and "draft-07" in declared else "2020-12"
        self.draft7 = dialect == DRAFT7

    def resolve(self, ref: Any) -> tuple[Any, str] | None:
        """The node a local ``#/…`` reference points at and its pointer, or None (anchors, other files)."""
        if not isinstance(ref, str) or not ref.startswith("#"):
            return None
        fragment = unquote(ref[1:])
        if fragment and not fragment.startswith("/"):
            return None
        found, node = lookup(self.root, fragment)
        return (node, fragment) if found else None

    def pure_ref(self, node: Any) -> bool:
        """Whether ``node`` means exactly what its ``$ref`` points at."""
        return (
            isinstance(node, dict)
            and isinstance(node.get("$ref"), str)
            and (self.draft7 or all(key in _PURE_REF for key in node))
        )

    def follow(self, node: Any, pointer: str) -> tuple[Any, str, str | None]:
        """``node`` with its chain of pure references followed: the target, its pointer, the first ref."""
        first: str | None = None
        for _ in range(32):
            if not self.pure_ref(node):
                break
            found = self.resolve(node["$ref"])
            if found is None:
                break
            first = first if first is not None else node["$ref"]
            node, pointer = found
        return node, pointer, first

    def normal(self, node: Any) -> str | None:
        """The node's normal form as canonical JSON (None when too large to build): equal means same meaning."""
        try:
            return canonical(self._normal(node, (), [_NODE_BUDGET]))
        except _TooLarge:
            return None

    def _normal(self, node: Any, stack: tuple[str, ...], budget: list[int]) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooLarge
        if node is True:
            return {}
        if not isinstance(node, dict):
            return node
        if self.pure_ref(node):
            found = self.resolve(node["$ref"])
            if found is not None:
                target, pointer = found
                if pointer in stack:  # recursion: the same reference, seen from inside
                    return {"$ref": "#" + pointer}
                return self._normal(target, (*stack, pointer), budget)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _ANNOTATIONS or key in _CONTAINERS:
                continue
            if key == "$ref":  # a 2020-12 reference with siblings: one more part of an allOf
                found = self.resolve(value)
                if found is None:
                    part: Any = {"$ref": value}
                elif found[1] in stack:
                    part = {"$ref": "#" + found[1]}
                else:
                    part = self._normal(found[0], (*stack, found[1]), budget)
                out.setdefault("allOf", []).append(part)
            elif key in _SINGLE or (key == "items" and not isinstance(value, list)):
                out[key] = self._normal(value, stack, budget)
            elif key in _MAPS and isinstance(value, dict):
                out[key] = {
                    name: sorted(sub) if isinstance(sub, list) else self._normal(sub, stack, budget)
                    for name, sub in value.items()
                }
            elif (key in _LISTS or key == "items") and isinstance(value, list):
                parts = [self._normal(sub, stack, budget) for sub in value]
                if key in ("allOf", "anyOf", "oneOf"):
                    parts = sorted(parts, key=canonical)
                out[key] = [*out.get(key, []), *parts]
            else:
                out[key] = value
        tidy = _tidy(out, self.draft7)[0]
        if isinstance(tidy.get("allOf"), list):  # merged parts leave placeholders; a normal form has none
            tidy["allOf"] = [part for part in tidy["allOf"] if part is not True]
        return tidy


class _TooLarge(Exception):
    """A normal form past :data:`_NODE_BUDGET` nodes."""


def _mergeable(node: dict[str, Any], parts: list[Any]) -> bool:
    """Whether an ``allOf`` can join its node as plain keywords: no keyword twice, no group split."""
    if any(not isinstance(part, dict) or "$ref" in part or "allOf" in part for part in parts):
        return False
    owners = [{k for k in node if k not in _ANNOTATIONS and k != "allOf"}]
    owners += [{k for k in part if k not in _ANNOTATIONS} for part in parts]
    seen: set[str] = set()
    for keys in owners:
        if keys & seen or any(k.startswith("unevaluated") for k in keys):
            return False
        seen |= keys
    return all(sum(bool(keys & group) for keys in owners) <= 1 for group in _GROUPS)


def _tidy(node: dict[str, Any], draft7: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """One object in the form where equal meaning is equal data (see the module docstring), and for
    each keyword merged from an ``allOf`` part, the pointer (relative to the node) it came from."""
    node = dict(node)
    origins: dict[str, str] = {}
    parts = node.get("allOf")
    alone = [k for k in node if k != "allOf" and k not in _ANNOTATIONS]
    if isinstance(parts, list) and len(parts) == 1 and isinstance(parts[0], dict) and not alone:
        inner, inner_origins = _tidy(parts[0], draft7)  # an allOf of one around everything: the part itself
        return inner, {key: "/allOf/0" + inner_origins.get(key, "") for key in inner}
    if isinstance(parts, list):
        # Each part that joins the node as plain keywords is merged (its place kept as ``true``, so
        # the indexes of the others stay the file's); the rest stay an allOf.
        kept: list[Any] = []
        for index, part in enumerate(parts):
            others = {k: v for k, v in node.items() if k != "allOf"}
            if part is not True and part != {} and not _mergeable(others, [part]):
                kept.append(part)
                continue
            kept.append(True)
            for key, value in part.items() if isinstance(part, dict) else ():
                if key not in _ANNOTATIONS:
                    node[key] = value
                    origins[key] = f"/allOf/{index}"
        if all(part is True for part in kept):
            del node["allOf"]
        else:
            node["allOf"] = kept
    kinds = node.get("type")
    if isinstance(kinds, str):
        kinds = [kinds]
    if isinstance(kinds, list) and all(isinstance(t, str) for t in kinds):
        unique = set(kinds)
        if "number" in unique:
            unique.discard("integer")  # every integer is a number
        node["type"] = sorted(unique)
    if isinstance(node.get("required"), list):
        node["required"] = sorted({r for r in node["required"] if isinstance(r, str)})
    if isinstance(node.get("enum"), list):
        node["enum"] = [v for _, v in sorted({canonical(v): v for v in node["enum"]}.items())]
        if len(node["enum"]) == 1 and "const" not in node:  # an enum of one value is a const
            node["const"] = node.pop("enum")[0]
    for key in _EMPTY_MEANS_NOTHING:
        if key in node and (node[key] is True or node[key] == {} or node[key] == []):
            del node[key]
    if (
        "items" in node
        and (node["items"] is True or node["items"] == {})
        and not isinstance(node.get("prefixItems"), list)
    ):
        del node["items"]  # an open tuple's rest, or any item at all
    for key in ("minLength", "minItems", "minProperties"):
        if node.get(key) == 0:
            del node[key]
    if node.get("type") == ["integer"] and node.get("multipleOf") == 1:
        del node["multipleOf"]
    if not draft7 and isinstance(node.get("prefixItems"), list) and not node["prefixItems"]:
        del node["prefixItems"]
    return node, origins


def normalise(node: Any, *, draft7: bool = False) -> Any:
    """The node in a form where equal meaning is equal data, one level deep (see the module docstring)."""
    if node is True:
        return {}
    return _tidy(node, draft7)[0] if isinstance(node, dict) else node


def equivalent(old: Any, new: Any, *, old_dialect: str | None = None, new_dialect: str | None = None) -> bool:
    """Whether two schemas are one schema written differently: no document can tell them apart.

    Sufficient, not necessary: False only means the search has to look.
    """
    left, right = _Version(old, old_dialect).normal(old), _Version(new, new_dialect).normal(new)
    return left is not None and left == right


# -- places --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Spot:
    """One version's node at a place: its pointer in the file (without ``/schema``), the focus path
    that reaches it (through ``$ref``, possibly not written yet), and whether it is written there
    (False: what the version lets that place hold, such as ``additionalProperties`` for an
    undeclared property; the pointer is then where that comes from)."""

    pointer: str
    path: tuple[str, ...]
    real: bool = True

    def _base(self, origin: str) -> str:
        """Where a keyword merged into the node is written: ``/allOf/1`` under it, or ``#/$defs/a`` anywhere."""
        return origin[1:] if origin.startswith("#") else self.pointer + origin

    def child(self, *keys: str, origin: str = "") -> _Spot:
        return _Spot(self._base(origin) + pointer_from_parts(keys), (*self.path, *keys), self.real)

    def virtual(self, *keys: str, source: str = "") -> _Spot:
        """A place this version does not write: the focus path goes on, the pointer stays at ``source``."""
        return _Spot(self._base(source), (*self.path, *keys), False)


@dataclass(frozen=True)
class _Side:
    """A pair of nodes seen from one direction: the version documents are drawn from (``source``)
    and the one that judges them (``target``)."""

    source: dict[str, Any]
    target: dict[str, Any]
    direction: Direction
    old: _Spot
    new: _Spot
    versions: tuple[_Version, _Version]  # (the source's, the target's)

    @property
    def backward(self) -> bool:
        return self.direction == "backward"

    @property
    def path(self) -> tuple[str, ...]:
        return (self.old if self.backward else self.new).path

    @property
    def where(self) -> str:
        """The place as messages name it: the new file's pointer, or the path where the new version has none."""
        text = (self.new.pointer if self.new.real else pointer_from_parts(self.new.path)) or "the root"
        if not self.old.real:
            text += " (declared in the new version only)"
        elif not self.new.real:
            text += " (declared in the old version only)"
        return text


def _change(
    side: _Side,
    codes: tuple[Code, Code],
    message: str,
    focus: dict[str, Any] | None,
    keywords: tuple[str, ...],
    sub: tuple[str, ...] = (),
) -> Change:
    """A change seen from one direction; ``codes`` are (as seen backward, as seen forward)."""
    return Change(
        code=codes[0] if side.backward else codes[1],
        direction=side.direction,
        message=message,
        old_pointer="/schema" + side.old.pointer,
        new_pointer="/schema" + side.new.pointer,
        focus=Focus(pointer_from_parts((*side.path, *sub)), focus or {}),
        keywords=frozenset(keywords),
    )


# -- the rules -----------------------------------------------------------------------------------


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _declared(node: dict[str, Any]) -> set[str] | None:
    """The types ``type`` allows (a number type allows integers too), or None without one."""
    kinds = node.get("type")
    if not isinstance(kinds, list):
        return None
    allowed = {k for k in kinds if isinstance(k, str)}
    return allowed | {"integer"} if "number" in allowed else allowed


def _values(node: dict[str, Any]) -> list[Any] | None:
    """The values ``enum`` and ``const`` leave (None when neither restricts)."""
    enum = node.get("enum") if isinstance(node.get("enum"), list) else None
    if "const" in node:
        const = node["const"]
        if enum is not None and canonical(const) not in {canonical(v) for v in enum}:
            return []
        return [const]
    return enum


def _value_types(node: dict[str, Any]) -> set[str] | None:
    """The types the node's values can have: those its ``type`` and its enum or const both allow."""
    declared, values = _declared(node), _values(node)
    if values is None:
        return declared
    kinds = {_type_of(v) for v in values}
    return kinds if declared is None else kinds & declared


_KIND_TEST: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "number": _is_number,
}


def _failing(side: _Side, kind: str, passes: Callable[[Any], bool]) -> list[Any] | None:
    """For a source that lists its values (``enum``, ``const``), those of ``kind`` the target's keyword
    rejects (so the rule is decided, and its focus is exact); None when the source lists none."""
    values = _values(side.source)
    if values is None:
        return None
    return [v for v in values if _KIND_TEST[kind](v) and not passes(v)]


def _rule_type(side: _Side) -> Iterator[Change]:
    allowed = _declared(side.target)
    if allowed is None:
        return
    kinds = _value_types(side.source)
    lost = (set(_TYPES) if kinds is None else kinds) - allowed
    if {"number", "integer"} <= lost:
        lost.discard("integer")  # "number" says it
    if not lost:
        return
    focus: dict[str, Any] = {"type": sorted(lost)}
    shown = sorted(lost)
    if "number" in lost and "integer" in allowed:  # only numbers with a fraction are lost
        focus["not"] = {"type": "integer"}
        shown = [("non-integer number" if kind == "number" else kind) for kind in shown]
    what = ", ".join(shown)
    if side.backward:
        message = f"type at {side.where} no longer allows {what}: documents with such a value are now rejected"
    else:
        message = f"type at {side.where} now allows {what}: consumers may get such a value"
    yield _change(side, (Code.TYPE_NARROWED, Code.TYPE_WIDENED), message, focus, ("type",))


def _rule_required(side: _Side) -> Iterator[Change]:
    source = set(side.source.get("required") or [])
    for name in sorted(set(side.target.get("required") or []) - source):
        if side.backward:
            message = f'"{name}" is now required at {side.where}: documents without it are rejected'
        else:
            message = f'"{name}" is no longer required at {side.where}: consumers may get documents without it'
        focus = {"not": {"required": [name]}}
        yield _change(side, (Code.REQUIRED_ADDED, Code.REQUIRED_REMOVED), message, focus, ("required",))


def _dependents(node: dict[str, Any]) -> dict[str, set[str]]:
    """For each property, the properties its presence requires (dependentRequired, draft-07 dependencies)."""
    found: dict[str, set[str]] = {}
    for key in ("dependentRequired", "dependencies"):
        mapping = node.get(key)
        for trigger, needed in mapping.items() if isinstance(mapping, dict) else ():
            if isinstance(needed, list):
                found.setdefault(trigger, set()).update(n for n in needed if isinstance(n, str))
    return found


def _rule_dependent_required(side: _Side) -> Iterator[Change]:
    source, always = _dependents(side.source), set(side.source.get("required") or [])
    for trigger, needed in sorted(_dependents(side.target).items()):
        for name in sorted(needed - source.get(trigger, set()) - always - {trigger}):
            if side.backward:
                message = (
                    f'"{name}" is now required at {side.where} when "{trigger}" is present: documents with '
                    f'"{trigger}" but without "{name}" are rejected'
                )
            else:
                message = (
                    f'"{name}" is no longer required at {side.where} when "{trigger}" is present: consumers may '
                    f'get documents with "{trigger}" but without "{name}"'
                )
            focus = {"required": [trigger], "not": {"required": [name]}}
            keywords = ("dependentRequired", "dependencies")
            yield _change(side, (Code.REQUIRED_ADDED, Code.REQUIRED_REMOVED), message, focus, keywords)


def _rule_values(side: _Side) -> Iterator[Change]:
    """``enum`` and ``const`` as one rule: a const is an enum of one value."""
    target = _values(side.target)
    if target is None:
        return
    keywords = ("enum", "const")
    source = _values(side.source)
    target_const = "const" in side.target and "enum" not in side.target
    if source is None:
        if target_const:
            shown, codes = _shown(side.target["const"]), (Code.CONST_CHANGED, Code.CONST_CHANGED)
            if side.backward:
                message = f"const {shown} was added at {side.where}: every other value is rejected"
            else:
                message = f"const {shown} was removed at {side.where}: consumers may get other values"
        else:
            codes = (Code.ENUM_VALUE_REMOVED, Code.ENUM_VALUE_ADDED)
            if side.backward:
                message = f"an enum now restricts the values at {side.where}: values it does not list are rejected"
            else:
                message = f"the enum at {side.where} was removed: consumers may get values it did not list"
        yield _change(side, codes, message, {"not": {"enum": target}}, keywords)
        return
    allowed = {canonical(v) for v in target}
    typed = _declared(side.target)
    for value in source:
        if canonical(value) in allowed or (typed is not None and _type_of(value) not in typed):
            continue  # kept, or lost to a type change (the type rule names it)
        shown = _shown(value)
        if target_const and "const" in side.source and "enum" not in side.source:
            old, new = (shown, _shown(side.target["const"])) if side.backward else (_shown(side.target["const"]), shown)
            what = f"documents with {old} are rejected" if side.backward else f"consumers may get {new}"
            message = f"const at {side.where} changed from {old} to {new}: {what}"
            yield _change(side, (Code.CONST_CHANGED, Code.CONST_CHANGED), message, {"const": value}, keywords)
            continue
        if side.backward:
            message = f"enum value {shown} was removed at {side.where}: documents that use it are rejected"
        else:
            message = f"enum value {shown} was added at {side.where}: consumers may get it"
        codes = (Code.ENUM_VALUE_REMOVED, Code.ENUM_VALUE_ADDED)
        yield _change(side, codes, message, {"const": value}, keywords)


def _fits_length(value: Any, *, bound: int, upper: bool) -> bool:
    """Whether a string, array or object is within a length bound."""
    return len(value) <= bound if upper else len(value) >= bound


def _rule_lengths(side: _Side) -> Iterator[Change]:
    for keyword, (focus_key, kind, noun) in _LENGTHS.items():
        bound = side.target.get(keyword)
        upper = keyword.startswith("max")
        if not isinstance(bound, int) or isinstance(bound, bool) or (not upper and bound <= 0):
            continue
        before = side.source.get(keyword)
        if isinstance(before, int | float) and (before <= bound if upper else before >= bound):
            continue
        failing = _failing(side, kind, partial(_fits_length, bound=bound, upper=upper))
        if failing == []:
            continue
        past = bound + 1 if upper else bound - 1
        more = "more" if upper else "fewer"
        if side.backward:
            was = f" (was {before})" if _is_number(before) else ""
            message = f"{keyword} at {side.where} is now {bound}{was}: values with {more} {noun} are rejected"
        else:
            now = f"{before}" if _is_number(before) else "no bound"
            message = (
                f"{keyword} at {side.where} was loosened from {bound} to {now}: consumers may get values with "
                f"{more} {noun}"
            )
        focus = {"enum": failing} if failing else {"type": kind, focus_key: past}
        yield _change(side, (Code.BOUND_TIGHTENED, Code.BOUND_LOOSENED), message, focus, (keyword,))


Bound = tuple[float, bool]  # a number and whether it is exclusive


def _bound(node: dict[str, Any], upper: bool) -> tuple[Bound, str] | None:
    """The tightest numeric bound of one side (inclusive and exclusive keywords together), and its keyword."""
    pairs = (
        (("maximum", False), ("exclusiveMaximum", True)) if upper else (("minimum", False), ("exclusiveMinimum", True))
    )
    best: tuple[Bound, str] | None = None
    for keyword, exclusive in pairs:
        value = node.get(keyword)
        if isinstance(value, int | float) and not isinstance(value, bool):
            bound: Bound = (value, exclusive)
            if best is None or _tighter(bound, best[0], upper):
                best = (bound, keyword)
    return best


def _tighter(a: Bound, b: Bound, upper: bool) -> bool:
    """Whether bound ``a`` lets fewer numbers through than ``b``."""
    if a[0] != b[0]:
        return a[0] < b[0] if upper else a[0] > b[0]
    return a[1] and not b[1]


def _rule_range(side: _Side) -> Iterator[Change]:
    for upper in (True, False):
        target = _bound(side.target, upper)
        if target is None:
            continue
        (value, exclusive), keyword = target
        source = _bound(side.source, upper)
        if source is not None and not _tighter(target[0], source[0], upper):
            continue
        failing = _failing(side, "number", partial(_within, bound=(value, exclusive), upper=upper))
        if failing == []:
            continue
        past = (">=" if exclusive else ">") if upper else ("<=" if exclusive else "<")
        numbers = f"numbers {past} {_shown(value)}"
        if side.backward:
            was = f" (was {source[1]} {_shown(source[0][0])})" if source else ""
            message = f"{keyword} at {side.where} is now {_shown(value)}{was}: {numbers} are rejected"
        else:
            now = f"{source[1]} {_shown(source[0][0])}" if source else "no bound"
            message = f"{keyword} {_shown(value)} at {side.where} was loosened to {now}: consumers may get {numbers}"
        limit = (
            ("minimum" if exclusive else "exclusiveMinimum")
            if upper
            else ("maximum" if exclusive else "exclusiveMaximum")
        )
        keywords = ("maximum", "exclusiveMaximum") if upper else ("minimum", "exclusiveMinimum")
        focus = {"enum": failing} if failing else {"type": "number", limit: value}
        yield _change(side, (Code.BOUND_TIGHTENED, Code.BOUND_LOOSENED), message, focus, keywords)


def _within(value: Any, *, bound: Bound, upper: bool) -> bool:
    """Whether a number passes a bound."""
    limit, exclusive = bound
    if upper:
        return bool(value < limit if exclusive else value <= limit)
    return bool(value > limit if exclusive else value >= limit)


def _fraction(value: Any) -> Fraction | None:
    try:
        return Fraction(str(value)) if _is_number(value) and value > 0 else None
    except (ValueError, ZeroDivisionError):
        return None


def _rule_multiple_of(side: _Side) -> Iterator[Change]:
    step = _fraction(side.target.get("multipleOf"))
    if step is None:
        return
    before = side.source.get("multipleOf")
    base = _fraction(before)
    if base is None and (_declared(side.source) or {"number"}) <= {"integer"}:
        base = Fraction(1)  # integers are multiples of 1
    if base is not None and (base / step).denominator == 1:
        return  # every multiple of the source's step is a multiple of the target's
    failing = _failing(side, "number", lambda v: (Fraction(str(v)) / step).denominator == 1)
    if failing == []:
        return
    shown = _shown(side.target["multipleOf"])
    if side.backward:
        was = f" (was {_shown(before)})" if base is not None and _is_number(before) else ""
        message = (
            f"multipleOf at {side.where} is now {shown}{was}: numbers that are not multiples of {shown} are rejected"
        )
    else:
        now = _shown(before) if _is_number(before) else "none"
        message = (
            f"multipleOf {shown} at {side.where} was relaxed to {now}: consumers may get numbers that are not "
            f"multiples of {shown}"
        )
    focus = {"enum": failing} if failing else {"type": "number", "not": {"multipleOf": side.target["multipleOf"]}}
    yield _change(side, (Code.BOUND_TIGHTENED, Code.BOUND_LOOSENED), message, focus, ("multipleOf",))


def _rule_pattern(side: _Side) -> Iterator[Change]:
    target = side.target.get("pattern")
    if not isinstance(target, str) or side.source.get("pattern") == target:
        return
    failing = _failing(side, "string", lambda v: matches(target, v))
    if failing == []:
        return
    before = side.source.get("pattern")
    if side.backward:
        was = f" (was {_shown(before)})" if isinstance(before, str) else ""
        message = f"pattern at {side.where} is now {_shown(target)}{was}: strings it does not match are rejected"
    else:
        now = f"replaced by {_shown(before)}" if isinstance(before, str) else "removed"
        message = f"pattern {_shown(target)} at {side.where} was {now}: consumers may get strings it does not match"
    focus = {"enum": failing} if failing else {"type": "string", "not": {"pattern": target}}
    yield _change(side, (Code.PATTERN_CHANGED, Code.PATTERN_CHANGED), message, focus, ("pattern",))


def _rule_format(side: _Side) -> Iterator[Change]:
    target = side.target.get("format")
    if not isinstance(target, str) or side.source.get("format") == target:
        return
    before = side.source.get("format")
    if side.backward:
        was = f' (was "{before}")' if isinstance(before, str) else ""
        message = f'format "{target}" at {side.where} is now checked{was}: strings that do not match it are rejected'
    else:
        now = f'replaced by "{before}"' if isinstance(before, str) else "no longer checked"
        message = f'format "{target}" at {side.where} is {now}: consumers may get strings that do not match it'
    focus = {"type": "string", "not": {"format": target}}
    yield _change(side, (Code.FORMAT_ADDED, Code.FORMAT_REMOVED), message, focus, ("format",))


def _patterns(node: dict[str, Any]) -> list[str]:
    patterns = node.get("patternProperties")
    return list(patterns) if isinstance(patterns, dict) else []


def _rule_closed(side: _Side) -> Iterator[Change]:
    if side.target.get("additionalProperties") is not False:
        return
    declared = side.target.get("properties")
    target_properties: dict[str, Any] = declared if isinstance(declared, dict) else {}
    target_patterns = _patterns(side.target)
    source_properties = side.source.get("properties")
    keyword = ("additionalProperties",)
    for name, sub in source_properties.items() if isinstance(source_properties, dict) else ():
        if name in target_properties or sub is False or any(matches(p, name) for p in target_patterns):
            continue
        if side.backward:
            message = (
                f'property "{name}" was removed from the closed object at {side.where}: documents that set it '
                "are rejected"
            )
        else:
            message = f'property "{name}" was added to the closed object at {side.where}: consumers may get it'
        focus: dict[str, Any] = {"type": "object", "required": [name]}
        yield _change(side, (Code.PROPERTY_REMOVED, Code.PROPERTY_ADDED), message, focus, keyword)
    if side.source.get("additionalProperties") is not False:
        if side.backward:
            message = f"the object at {side.where} was closed: documents with fields it does not list are rejected"
        else:
            message = f"the object at {side.where} was opened: consumers may get fields the old version did not list"
        # some property the target neither declares nor matches with a pattern
        listed: dict[str, Any] = {
            "properties": dict.fromkeys(target_properties, True),
            "patternProperties": dict.fromkeys(target_patterns, True),
            "additionalProperties": False,
        }
        focus = {"type": "object", "not": listed}
        codes = (Code.ADDITIONAL_PROPERTIES_CLOSED, Code.ADDITIONAL_PROPERTIES_OPENED)
        yield _change(side, codes, message, focus, keyword)


def _rule_items(side: _Side) -> Iterator[Change]:
    """A tuple closed at a length the source goes past (``items: false``, ``additionalItems: false``)."""
    prefix, rest = item_schemas(side.target, side.versions[1].draft7)
    if rest is not False:
        return
    length = len(prefix)
    source_prefix, source_rest = item_schemas(side.source, side.versions[0].draft7)
    longest = len(source_prefix) if source_rest is False else None
    maximum = side.source.get("maxItems")
    if isinstance(maximum, int) and not isinstance(maximum, bool):
        longest = maximum if longest is None else min(longest, maximum)
    if longest is not None and longest <= length:
        return
    if side.backward:
        message = f"arrays at {side.where} now hold at most {length} item(s): longer arrays are rejected"
    else:
        message = f"arrays at {side.where} may now hold more than {length} item(s): consumers may get longer arrays"
    focus = {"type": "array", "minItems": length + 1}
    keywords = ("items", "additionalItems", "prefixItems")
    yield _change(side, (Code.ITEMS_CHANGED, Code.ITEMS_CHANGED), message, focus, keywords)


def _match(
    left: _Version, olds: list[Any], right: _Version, news: list[Any]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Branches of two lists: equal ones matched, then the rest paired in order when as many are left
    on both sides (a branch edited in place); returns (edited pairs, unmatched left, unmatched right)."""
    forms = [left.normal(b) for b in olds]
    free = {j: right.normal(b) for j, b in enumerate(news)}
    unmatched_left: list[int] = []
    for i, form in enumerate(forms):
        j = next((j for j, other in free.items() if form is not None and other == form), None)
        if j is None:
            unmatched_left.append(i)
        else:
            del free[j]
    unmatched_right = list(free)
    if len(unmatched_left) == len(unmatched_right):
        return list(zip(unmatched_left, unmatched_right, strict=True)), [], []
    return [], unmatched_left, unmatched_right


def _ref_free(node: Any) -> bool:
    """Whether a schema holds no ``$ref`` (so it means the same copied into the other version)."""
    if isinstance(node, dict):
        return "$ref" not in node and all(_ref_free(v) for v in node.values())
    if isinstance(node, list):
        return all(_ref_free(v) for v in node)
    return True


def _implied(part: Any, node: dict[str, Any]) -> bool:
    """Whether every keyword of an ``allOf`` part is already in ``node`` with the same value."""
    if not isinstance(part, dict):
        return part is True
    tidy = normalise(part)
    return all(key in node and canonical(node[key]) == canonical(value) for key, value in tidy.items())


def _rule_branches(side: _Side) -> Iterator[Change]:
    source_version, target_version = side.versions
    for keyword in ("anyOf", "oneOf"):
        source, target = side.source.get(keyword), side.target.get(keyword)
        if not isinstance(source, list) or not isinstance(target, list):
            continue
        for i in _match(source_version, source, target_version, target)[1]:
            if side.backward:
                message = f"{keyword} branch {i} at {side.where} was removed: documents only it accepted are rejected"
            else:
                message = f"{keyword} branch {i} at {side.where} was added: consumers may get documents only it accepts"
            yield _change(side, (Code.BRANCH_REMOVED, Code.BRANCH_ADDED), message, {}, (), (keyword, str(i)))
    source, target = side.source.get("allOf"), side.target.get("allOf")
    if not isinstance(target, list):
        return
    unmatched = range(len(target))
    if isinstance(source, list):
        unmatched = _match(target_version, target, source_version, source)[1]  # type: ignore[assignment]
    for i in unmatched:
        branch = target[i]
        if branch is True or _implied(branch, side.source):
            continue
        if side.backward:
            message = f"allOf branch {i} at {side.where} was added: documents it rejects are now rejected"
        else:
            message = f"allOf branch {i} at {side.where} was removed: consumers may get documents it rejected"
        focus = {"not": branch} if _ref_free(branch) else {}
        yield _change(side, (Code.BRANCH_ADDED, Code.BRANCH_REMOVED), message, focus, ())


def _rule_not(side: _Side) -> Iterator[Change]:
    """A ``not`` the target has and the source lacks: the values it names are now refused.

    Only an added (or removed, asked the other way) ``not`` is named here; a ``not`` that changed
    inside is left to the broad search, since every rule would read it backwards.
    """
    excluded = side.target.get("not")
    if "not" in side.source or excluded is None or excluded is False or not _ref_free(excluded):
        return
    if side.backward:
        message = f"a not at {side.where} was added: documents it matches are now rejected"
    else:
        message = f"the not at {side.where} was removed: consumers may get documents it matched"
    focus = excluded if isinstance(excluded, dict) else {}
    yield _change(side, (Code.BRANCH_ADDED, Code.BRANCH_REMOVED), message, focus, ("not",))


def _ref_change(side: _Side, source_ref: str, target_ref: str) -> Change:
    """A ``$ref`` that points elsewhere, at a schema that accepts other documents."""
    old, new = (source_ref, target_ref) if side.backward else (target_ref, source_ref)
    if side.backward:
        what = f"documents {old} accepted and {new} rejects are now rejected"
    else:
        what = f"consumers may get documents {old} rejected"
    message = f"$ref at {side.where} now points to {new} instead of {old}: {what}"
    resolved = side.versions[1].resolve(target_ref)
    focus = {"not": resolved[0]} if resolved is not None and _ref_free(resolved[0]) else {}
    return _change(side, (Code.REF_CHANGED, Code.REF_CHANGED), message, focus, ())


_DIRECTIONS: tuple[Direction, Direction] = ("backward", "forward")
_RULES: tuple[Callable[[_Side], Iterator[Change]], ...] = (
    _rule_type,
    _rule_required,
    _rule_dependent_required,
    _rule_values,
    _rule_lengths,
    _rule_range,
    _rule_multiple_of,
    _rule_pattern,
    _rule_format,
    _rule_closed,
    _rule_items,
    _rule_branches,
    _rule_not,
)


# -- the walk ------------------------------------------------------------------------------------


@dataclass
class _Walk:
    """Both versions walked side by side; every rule asked at every pair of places, both ways."""

    old: _Version
    new: _Version
    changes: list[Change] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)

    def sides(self, old: dict[str, Any], new: dict[str, Any], at_old: _Spot, at_new: _Spot) -> Iterator[_Side]:
        """The pair seen backward (drawn from old, judged by new), then forward."""
        for direction in _DIRECTIONS:
            forward = direction == "forward"
            versions = (self.new, self.old) if forward else (self.old, self.new)
            yield _Side(new if forward else old, old if forward else new, direction, at_old, at_new, versions)

    def ask(self, old: dict[str, Any], new: dict[str, Any], at_old: _Spot, at_new: _Spot) -> None:
        for side in self.sides(old, new, at_old, at_new):
            for rule in _RULES:
                self.changes.extend(rule(side))

    def pair(self, old: Any, new: Any, at_old: _Spot, at_new: _Spot) -> int:
        """Compare two nodes at one place (and everything under them); how many changes were found."""
        before = len(self.changes)
        sites = (at_old, at_new)  # where the references are written
        old, old_pointer, old_ref = self.old.follow(old, at_old.pointer)
        new, new_pointer, new_ref = self.new.follow(new, at_new.pointer)
        if old_ref is not None or new_ref is not None:
            key = (old_pointer, new_pointer)
            if key in self.seen:  # a definition compared already (used twice, or recursive)
                return 0
            self.seen.add(key)
            at_old = _Spot(old_pointer, at_old.path, at_old.real)
            at_new = _Spot(new_pointer, at_new.path, at_new.real)
        if old is True:
            old = {}
        if new is True:
            new = {}
        if not isinstance(old, dict) or not isinstance(new, dict):
            return 0
        form = self.old.normal(old)
        if form is not None and form == self.new.normal(new):
            return 0
        old, old_refs = self.merged_ref(self.old, old)
        new, new_refs = self.merged_ref(self.new, new)
        old_node, old_origins = _tidy(old, self.old.draft7)
        new_node, new_origins = _tidy(new, self.new.draft7)
        self.ask(old_node, new_node, at_old, at_new)
        origins = ({**old_refs, **old_origins}, {**new_refs, **new_origins})
        self.children(old_node, new_node, at_old, at_new, origins)
        found = len(self.changes) - before
        if found == 0 and old_ref is not None and new_ref is not None and old_ref != new_ref:
            self.refs_moved(old_ref, new_ref, *sites)
            found = len(self.changes) - before
        return found

    def refs_moved(self, old_ref: str, new_ref: str, at_old: _Spot, at_new: _Spot) -> None:
        """Two references whose targets differ in what no rule names: the reference itself is the change."""
        for side in self.sides({}, {}, at_old, at_new):
            source, target = (old_ref, new_ref) if side.backward else (new_ref, old_ref)
            self.changes.append(_ref_change(side, source, target))

    def merged_ref(self, version: _Version, node: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """A 2020-12 ``$ref`` beside other keywords, its target's keywords merged in when they do not interact."""
        found = version.resolve(node.get("$ref"))
        if version.pure_ref(node) or found is None or not isinstance(found[0], dict):
            return node, {}
        rest = {k: v for k, v in node.items() if k != "$ref"}
        if not _mergeable(rest, [found[0]]):
            return node, {}
        merged = {**rest, **{k: v for k, v in found[0].items() if k not in _ANNOTATIONS}}
        return merged, {k: "#" + found[1] for k in found[0] if k not in _ANNOTATIONS}

    def children(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        at_old: _Spot,
        at_new: _Spot,
        origins: tuple[dict[str, str], dict[str, str]],
    ) -> None:
        def spot(at: _Spot, node: dict[str, Any], side: int, *keys: str) -> _Spot:
            if keys[0] in node:
                return at.child(*keys, origin=origins[side].get(keys[0], ""))
            return at.virtual(*keys)

        def both(*keys: str) -> tuple[_Spot, _Spot]:
            return spot(at_old, old, 0, *keys), spot(at_new, new, 1, *keys)

        if "$ref" in old or "$ref" in new:
            self.ref_targets(old.get("$ref"), new.get("$ref"), at_old, at_new)
        for key in ("additionalProperties", "propertyNames"):
            if key in old or key in new:
                self.pair(old.get(key, True), new.get(key, True), *both(key))
        if "contains" in old and "contains" in new:
            self.pair(old["contains"], new["contains"], *both("contains"))
        if canonical(old.get("if")) == canonical(new.get("if")) and "if" in old:
            for key in ("then", "else"):
                self.pair(old.get(key, True), new.get(key, True), *both(key))
        self.properties(old, new, at_old, at_new, origins)
        for key in ("dependentSchemas", "dependencies"):  # absent: no condition, as if ``true``
            olds, news = _mapping(old, key), _mapping(new, key)
            for name in [*olds, *(n for n in news if n not in olds)]:
                a, b = olds.get(name, True), news.get(name, True)
                if not isinstance(a, list) and not isinstance(b, list):  # draft-07 name lists: a rule's
                    at_a = at_old.child(key, name) if name in olds else at_old.virtual(key, name)
                    at_b = at_new.child(key, name) if name in news else at_new.virtual(key, name)
                    self.pair(a, b, at_a, at_b)
        self.arrays(old, new, at_old, at_new)
        for key in ("allOf", "anyOf", "oneOf"):
            old_branches, new_branches = old.get(key), new.get(key)
            if isinstance(old_branches, list) and isinstance(new_branches, list):
                for i, j in _match(self.old, old_branches, self.new, new_branches)[0]:
                    self.pair(old_branches[i], new_branches[j], at_old.child(key, str(i)), at_new.child(key, str(j)))

    def ref_targets(self, old_ref: Any, new_ref: Any, at_old: _Spot, at_new: _Spot) -> None:
        """A ``$ref`` beside keywords that interact with its target's: the two targets, at this same place."""
        old, new = self.old.resolve(old_ref), self.new.resolve(new_ref)
        if old is None and new is None:
            if canonical(old_ref) != canonical(new_ref):
                self.refs_moved(str(old_ref), str(new_ref), at_old, at_new)
            return
        key = (old[1] if old else f"@{at_old.pointer}", new[1] if new else f"@{at_new.pointer}")
        if key in self.seen:
            return
        self.seen.add(key)
        at_a = _Spot(old[1], at_old.path, at_old.real) if old else at_old
        at_b = _Spot(new[1], at_new.path, at_new.real) if new else at_new
        found = self.pair(old[0] if old else True, new[0] if new else True, at_a, at_b)
        moved = isinstance(old_ref, str) and isinstance(new_ref, str) and old_ref != new_ref
        if found == 0 and moved and (old is None or new is None or self.old.normal(old[0]) != self.new.normal(new[0])):
            self.refs_moved(str(old_ref), str(new_ref), at_old, at_new)

    def properties(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        at_old: _Spot,
        at_new: _Spot,
        origins: tuple[dict[str, str], dict[str, str]],
    ) -> None:
        """Declared properties, and a property declared in one version against what the other lets it hold."""
        olds, news = _mapping(old, "properties"), _mapping(new, "properties")
        for name in [*olds, *(n for n in news if n not in olds)]:
            ends: list[tuple[Any, _Spot]] = []
            for node, declared, at, side in ((old, olds, at_old, 0), (new, news, at_new, 1)):
                if name in declared:
                    origin = origins[side].get("properties", "")
                    ends.append((declared[name], at.child("properties", name, origin=origin)))
                elif any(matches(p, name) for p in _patterns(node)):
                    break  # a pattern speaks for it: the broad search compares
                elif "additionalProperties" in node:
                    source = origins[side].get("additionalProperties", "") + "/additionalProperties"
                    ends.append((node["additionalProperties"], at.virtual("properties", name, source=source)))
                else:
                    ends.append((True, at.virtual("properties", name)))
            if len(ends) == 2:
                self.pair(ends[0][0], ends[1][0], ends[0][1], ends[1][1])
        olds, news = _mapping(old, "patternProperties"), _mapping(new, "patternProperties")
        for pattern in olds:
            if pattern in news:
                at_a, at_b = at_old.child("patternProperties", pattern), at_new.child("patternProperties", pattern)
                self.pair(olds[pattern], news[pattern], at_a, at_b)

    def arrays(self, old: dict[str, Any], new: dict[str, Any], at_old: _Spot, at_new: _Spot) -> None:
        """Position by position: a tuple position against the other version's position or rest."""
        keys = ("items", "prefixItems", "additionalItems")
        if not any(k in old or k in new for k in keys):
            return
        ends = []
        for node, at, version in ((old, at_old, self.old), (new, at_new, self.new)):
            prefix, rest = item_schemas(node, version.draft7)
            prefix_key = "items" if version.draft7 else "prefixItems"
            rest_key = "additionalItems" if version.draft7 and isinstance(node.get("items"), list) else "items"
            ends.append((prefix, rest, prefix_key, rest_key, at, node))
        (op, orest, okey, orest_key, _, onode), (np_, nrest, nkey, nrest_key, _, nnode) = ends

        def position(
            i: int, prefix: list[Any], rest: Any, key: str, rest_key: str, at: _Spot, node: dict[str, Any]
        ) -> tuple[Any, _Spot]:
            if i < len(prefix):
                return prefix[i], at.child(key, str(i))
            source = "/" + rest_key if rest_key in node else ""
            return rest, at.virtual(key, str(i), source=source)

        for i in range(max(len(op), len(np_))):
            a, at_a = position(i, op, orest, okey, orest_key, at_old, onode)
            b, at_b = position(i, np_, nrest, nkey, nrest_key, at_new, nnode)
            self.pair(a, b, at_a, at_b)
        at_a = at_old.child(orest_key) if orest_key in onode else at_old.virtual(orest_key)
        at_b = at_new.child(nrest_key) if nrest_key in nnode else at_new.virtual(nrest_key)
        self.pair(orest, nrest, at_a, at_b)


def compare_schemas(
    old: Any, new: Any, *, old_dialect: str | None = None, new_dialect: str | None = None
) -> list[Change]:
    """Every change the rules name between two schemas, backward before forward at each place.

    Each change is named once: a definition used in several places is compared at the first.
    """
    walk = _Walk(_Version(old, old_dialect), _Version(new, new_dialect))
    walk.pair(old, new, _Spot("", ()), _Spot("", ()))
    unique: dict[tuple[str, ...], Change] = {}
    for change in walk.changes:
        key = (change.code, str(change.direction), change.message, change.old_pointer or "", change.new_pointer or "")
        unique.setdefault(key, change)
    return list(unique.values())
