"""Schema pairs with known answers: what ``diff`` must prove in each direction, and nothing more.

Each :class:`Pair` is an old and a new schema and the codes of the changes that must be
*confirmed* (a witness found) in each direction; ``unproven`` lists codes a rule may name without
a witness because the change really is one-sided (a pattern swapped for a narrower one is named
both ways, and only one way has a witness). The verdict of every mode follows: backward breaks
when ``backward`` is not empty, forward when ``forward`` is not, full when either does. A pair
with no codes at all is one schema written two ways, and must show no change in any mode.

The pairs cover every static rule's trigger and non-trigger, both dialects (draft-07 with
``definitions``, ``dependencies`` and array-form ``items``; 2020-12 with ``$defs``,
``prefixItems`` and ``dependentRequired``), compositions, references, and changes no rule names
that the broad search must find (JC430/JC431).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from json_contracts.findings import Code

D7 = "http://json-schema.org/draft-07/schema#"


@dataclass(frozen=True)
class Pair:
    """One old and one new schema, and the codes ``diff`` must prove in each direction."""

    name: str
    old: dict[str, Any]
    new: dict[str, Any]
    backward: frozenset[Code] = frozenset()
    forward: frozenset[Code] = frozenset()
    unproven: frozenset[Code] = field(default_factory=frozenset)

    @property
    def rewrite(self) -> bool:
        """No change at all: the two schemas mean the same."""
        return not (self.backward or self.forward or self.unproven)


def _pair(
    name: str,
    old: dict[str, Any],
    new: dict[str, Any],
    backward: tuple[Code, ...] = (),
    forward: tuple[Code, ...] = (),
    unproven: tuple[Code, ...] = (),
) -> Pair:
    return Pair(name, old, new, frozenset(backward), frozenset(forward), frozenset(unproven))


def obj(
    properties: dict[str, Any], required: list[str] | None = None, *, closed: bool = False, **more: Any
) -> dict[str, Any]:
    """An object schema."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    return {**schema, **more}


def d7(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema in draft-07."""
    return {"$schema": D7, **schema}


STR = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
C = Code

REQUIRED = [
    _pair("required added", obj({"a": STR, "b": STR}), obj({"a": STR, "b": STR}, ["a"]), backward=(C.REQUIRED_ADDED,)),
    _pair("required removed", obj({"a": STR}, ["a"]), obj({"a": STR}), forward=(C.REQUIRED_REMOVED,)),
    _pair(
        "required added in a nested object",
        obj({"who": obj({"name": STR, "email": STR}, ["name"])}, ["who"]),
        obj({"who": obj({"name": STR, "email": STR}, ["name", "email"])}, ["who"]),
        backward=(C.REQUIRED_ADDED,),
    ),
    _pair(
        "dependentRequired added (2020-12)",
        obj({"card": STR, "cvc": STR}),
        obj({"card": STR, "cvc": STR}, dependentRequired={"card": ["cvc"]}),
        backward=(C.REQUIRED_ADDED,),
    ),
    _pair(
        "dependentRequired removed (2020-12)",
        obj({"card": STR, "cvc": STR}, dependentRequired={"card": ["cvc"]}),
        obj({"card": STR, "cvc": STR}),
        forward=(C.REQUIRED_REMOVED,),
    ),
    _pair(
        "dependencies added (draft-07, array form)",
        d7(obj({"card": STR, "cvc": STR})),
        d7(obj({"card": STR, "cvc": STR}, dependencies={"card": ["cvc"]})),
        backward=(C.REQUIRED_ADDED,),
    ),
    _pair(
        "dependentSchemas added: a property required when another is present",
        obj({"card": STR, "cvc": STR}),
        obj({"card": STR, "cvc": STR}, dependentSchemas={"card": {"required": ["cvc"]}}),
        backward=(C.REQUIRED_ADDED,),
    ),
]

PROPERTIES = [
    _pair(
        "property removed from a closed object",
        obj({"a": STR, "b": STR}, closed=True),
        obj({"a": STR}, closed=True),
        backward=(C.PROPERTY_REMOVED,),
    ),
    _pair(
        "property added to a closed object",
        obj({"a": STR}, closed=True),
        obj({"a": STR, "b": STR}, closed=True),
        forward=(C.PROPERTY_ADDED,),
    ),
    # not on an open object: the removed declaration lets any value in, which is a forward break
    _pair(
        "property removed from an open object",
        obj({"a": STR, "b": STR}),
        obj({"a": STR}),
        forward=(C.TYPE_WIDENED,),
    ),
    _pair(
        "typed property declared on an open object",
        obj({"a": STR}),
        obj({"a": STR, "b": INT}),
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "object closed",
        obj({"a": STR}),
        obj({"a": STR}, closed=True),
        backward=(C.ADDITIONAL_PROPERTIES_CLOSED,),
    ),
    _pair(
        "object opened",
        obj({"a": STR}, closed=True),
        obj({"a": STR}),
        forward=(C.ADDITIONAL_PROPERTIES_OPENED,),
    ),
    _pair(
        "additionalProperties schema narrowed",
        obj({"a": STR}, additionalProperties={"type": "string"}),
        obj({"a": STR}, additionalProperties={"type": "string", "maxLength": 3}),
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "patternProperties value narrowed",
        obj({}, patternProperties={"^x-": STR}, additionalProperties=False),
        obj({}, patternProperties={"^x-": {"type": "string", "maxLength": 2}}, additionalProperties=False),
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "closed object loses its patternProperties (no rule: the broad search)",
        obj({"a": STR}, patternProperties={"^x-": STR}, additionalProperties=False),
        obj({"a": STR}, additionalProperties=False),
        backward=(C.ACCEPTED_BEFORE_REJECTED_NOW,),
    ),
]

TYPES = [
    _pair("type narrowed", {"type": ["string", "null"]}, STR, backward=(C.TYPE_NARROWED,)),
    _pair("type widened", STR, {"type": ["string", "null"]}, forward=(C.TYPE_WIDENED,)),
    _pair("integer to number", INT, NUM, forward=(C.TYPE_WIDENED,)),
    _pair("number to integer", NUM, INT, backward=(C.TYPE_NARROWED,)),
    _pair(
        "type of a property narrowed inside array items",
        {"type": "array", "items": obj({"n": {"type": ["integer", "string"]}}, ["n"])},
        {"type": "array", "items": obj({"n": INT}, ["n"])},
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "a type added where there was none",
        {"minLength": 2},
        {"type": "string", "minLength": 2},
        backward=(C.TYPE_NARROWED,),
    ),
]

VALUES = [
    _pair(
        "enum value removed",
        {"type": "string", "enum": ["a", "b", "c"]},
        {"type": "string", "enum": ["a", "b"]},
        backward=(C.ENUM_VALUE_REMOVED,),
    ),
    _pair(
        "enum value added",
        {"type": "string", "enum": ["a", "b"]},
        {"type": "string", "enum": ["a", "b", "c"]},
        forward=(C.ENUM_VALUE_ADDED,),
    ),
    _pair(
        "enum value swapped",
        obj({"s": {"enum": ["a", "b"]}}, ["s"]),
        obj({"s": {"enum": ["a", "c"]}}, ["s"]),
        backward=(C.ENUM_VALUE_REMOVED,),
        forward=(C.ENUM_VALUE_ADDED,),
    ),
    _pair("enum added", STR, {"type": "string", "enum": ["a", "b"]}, backward=(C.ENUM_VALUE_REMOVED,)),
    _pair("enum dropped", {"type": "string", "enum": ["a", "b"]}, STR, forward=(C.ENUM_VALUE_ADDED,)),
    _pair("const changed", {"const": "a"}, {"const": "b"}, backward=(C.CONST_CHANGED,), forward=(C.CONST_CHANGED,)),
    _pair("const added", STR, {"type": "string", "const": "a"}, backward=(C.CONST_CHANGED,)),
    _pair("const removed", {"type": "string", "const": "a"}, STR, forward=(C.CONST_CHANGED,)),
    _pair(
        "maxLength added that one enum value is past",
        {"enum": ["a", "abcd"]},
        {"enum": ["a", "abcd"], "maxLength": 3},
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "a pattern every enum value matches",
        {"enum": ["low", "high"]},
        {"enum": ["low", "high"], "pattern": "^[a-z]+$"},
    ),
    _pair("a minimum every enum value meets", {"enum": [3, 5]}, {"enum": [3, 5], "minimum": 3, "multipleOf": 1}),
    _pair(
        "a type no enum value has (the new node accepts nothing)",
        {"type": "string", "enum": ["a"]},
        {"type": "integer", "enum": ["a"]},
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "const out of an enum",
        {"enum": ["a", "b"]},
        {"const": "a"},
        backward=(C.ENUM_VALUE_REMOVED,),
    ),
]


def _bounds() -> list[Pair]:
    pairs = []
    for keyword, kind, low, high in (
        ("maxLength", "string", 3, 5),
        ("maxItems", "array", 1, 3),
        ("maxProperties", "object", 1, 3),
        ("maximum", "number", 3, 5),
        ("exclusiveMaximum", "number", 3, 5),
    ):
        tight, loose = {"type": kind, keyword: low}, {"type": kind, keyword: high}
        pairs.append(_pair(f"{keyword} tightened", loose, tight, backward=(C.BOUND_TIGHTENED,)))
        pairs.append(_pair(f"{keyword} loosened", tight, loose, forward=(C.BOUND_LOOSENED,)))
    for keyword, kind, low, high in (
        ("minLength", "string", 2, 4),
        ("minItems", "array", 1, 3),
        ("minProperties", "object", 1, 2),
        ("minimum", "number", 3, 5),
        ("exclusiveMinimum", "number", 3, 5),
    ):
        tight, loose = {"type": kind, keyword: high}, {"type": kind, keyword: low}
        pairs.append(_pair(f"{keyword} tightened", loose, tight, backward=(C.BOUND_TIGHTENED,)))
        pairs.append(_pair(f"{keyword} loosened", tight, loose, forward=(C.BOUND_LOOSENED,)))
    pairs += [
        _pair(
            "maximum made exclusive",
            {"type": "number", "maximum": 10},
            {"type": "number", "exclusiveMaximum": 10},
            backward=(C.BOUND_TIGHTENED,),
        ),
        _pair(
            "exclusiveMinimum made inclusive",
            {"type": "number", "exclusiveMinimum": 0},
            {"type": "number", "minimum": 0},
            forward=(C.BOUND_LOOSENED,),
        ),
        _pair("maxLength added", STR, {"type": "string", "maxLength": 4}, backward=(C.BOUND_TIGHTENED,)),
        _pair(
            "multipleOf tightened",
            {"type": "integer", "multipleOf": 2},
            {"type": "integer", "multipleOf": 4},
            backward=(C.BOUND_TIGHTENED,),
        ),
        _pair(
            "multipleOf loosened",
            {"type": "integer", "multipleOf": 4},
            {"type": "integer", "multipleOf": 2},
            forward=(C.BOUND_LOOSENED,),
        ),
        _pair(
            "multipleOf changed",
            {"type": "integer", "multipleOf": 2},
            {"type": "integer", "multipleOf": 3},
            backward=(C.BOUND_TIGHTENED,),
            forward=(C.BOUND_LOOSENED,),
        ),
        _pair("multipleOf added to numbers", NUM, {"type": "number", "multipleOf": 0.5}, backward=(C.BOUND_TIGHTENED,)),
        _pair(
            "bound tightened in a draft-07 definition reached through $ref",
            d7(
                {
                    "definitions": {"zip": {"type": "string", "maxLength": 10}},
                    **obj({"home": {"$ref": "#/definitions/zip"}}, ["home"]),
                }
            ),
            d7(
                {
                    "definitions": {"zip": {"type": "string", "maxLength": 5}},
                    **obj({"home": {"$ref": "#/definitions/zip"}}, ["home"]),
                }
            ),
            backward=(C.BOUND_TIGHTENED,),
        ),
    ]
    return pairs


BOUNDS = _bounds()

STRINGS = [
    _pair(
        "pattern narrowed",
        {"type": "string", "pattern": "^[a-z]+$"},
        {"type": "string", "pattern": "^[a-z]{1,3}$"},
        backward=(C.PATTERN_CHANGED,),
        unproven=(C.PATTERN_CHANGED,),  # named forward too; no string the new pattern takes is refused by the old
    ),
    _pair("pattern added", STR, {"type": "string", "pattern": "^[0-9]+$"}, backward=(C.PATTERN_CHANGED,)),
    _pair("pattern removed", {"type": "string", "pattern": "^[0-9]+$"}, STR, forward=(C.PATTERN_CHANGED,)),
    _pair("format added", STR, {"type": "string", "format": "email"}, backward=(C.FORMAT_ADDED,)),
    _pair("format removed", {"type": "string", "format": "date"}, STR, forward=(C.FORMAT_REMOVED,)),
]

ARRAYS = [
    _pair(
        "item type narrowed (2020-12 items)",
        {"type": "array", "items": {"type": ["string", "integer"]}},
        {"type": "array", "items": STR},
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "item schema added",
        {"type": "array"},
        {"type": "array", "items": STR},
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "closed tuple made shorter (2020-12 prefixItems)",
        {"type": "array", "prefixItems": [STR, INT], "items": False},
        {"type": "array", "prefixItems": [STR], "items": False},
        backward=(C.ITEMS_CHANGED,),
    ),
    _pair(
        "closed tuple opened (2020-12)",
        {"type": "array", "prefixItems": [STR], "items": False},
        {"type": "array", "prefixItems": [STR]},
        forward=(C.ITEMS_CHANGED,),
    ),
    _pair(
        "tuple position narrowed (draft-07 array-form items)",
        d7({"type": "array", "items": [STR, NUM], "additionalItems": False}),
        d7({"type": "array", "items": [STR, INT], "additionalItems": False}),
        backward=(C.TYPE_NARROWED,),
    ),
    _pair(
        "closed tuple made shorter (draft-07 additionalItems)",
        d7({"type": "array", "items": [STR, STR], "additionalItems": False}),
        d7({"type": "array", "items": [STR], "additionalItems": False}),
        backward=(C.ITEMS_CHANGED,),
    ),
    _pair(
        "first position constrained where items covered it (2020-12)",
        {"type": "array", "items": STR},
        {"type": "array", "prefixItems": [{"type": "string", "maxLength": 2}], "items": STR},
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "second position constrained where items covered it (draft-07)",
        d7({"type": "array", "items": STR}),
        d7({"type": "array", "items": [STR, {"type": "string", "maxLength": 2}], "additionalItems": STR}),
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "uniqueItems added (no rule: the broad search)",
        {"type": "array", "items": {"type": "boolean"}},
        {"type": "array", "items": {"type": "boolean"}, "uniqueItems": True},
        backward=(C.ACCEPTED_BEFORE_REJECTED_NOW,),
    ),
]

COMPOSITIONS = [
    _pair("anyOf branch removed", {"anyOf": [STR, INT]}, {"anyOf": [STR]}, backward=(C.BRANCH_REMOVED,)),
    _pair("anyOf branch added", {"anyOf": [STR]}, {"anyOf": [STR, INT]}, forward=(C.BRANCH_ADDED,)),
    _pair(
        "oneOf branch removed",
        {"oneOf": [STR, INT, {"type": "boolean"}]},
        {"oneOf": [STR, INT]},
        backward=(C.BRANCH_REMOVED,),
    ),
    _pair(
        "oneOf branch added", {"oneOf": [STR, INT]}, {"oneOf": [STR, INT, {"type": "null"}]}, forward=(C.BRANCH_ADDED,)
    ),
    _pair(
        "anyOf branch edited in place",
        {"anyOf": [{"type": "string", "maxLength": 5}, INT]},
        {"anyOf": [{"type": "string", "maxLength": 3}, INT]},
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "allOf branch added",
        obj({"a": INT}, ["a"]),
        {"allOf": [obj({"a": INT}, ["a"]), {"properties": {"a": {"minimum": 0}}}]},
        backward=(C.BRANCH_ADDED,),
    ),
    _pair(
        "allOf branch removed",
        {"allOf": [obj({"a": INT}, ["a"]), {"properties": {"a": {"minimum": 0}}}]},
        obj({"a": INT}, ["a"]),
        forward=(C.BRANCH_REMOVED,),
    ),
    _pair(
        "allOf rewrite that narrows (an if/then merged in; no rule: the broad search)",
        obj({"a": INT, "b": INT}),
        {"allOf": [obj({"a": INT, "b": INT}), {"if": {"required": ["a"]}, "then": {"required": ["b"]}}]},
        backward=(C.ACCEPTED_BEFORE_REJECTED_NOW,),
    ),
    _pair(
        "oneOf stops being exclusive (two branches now overlap)",
        {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 5}]},
        {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "string", "minLength": 3}]},
        backward=(C.ACCEPTED_BEFORE_REJECTED_NOW,),
        forward=(C.BOUND_LOOSENED,),
    ),
    _pair(
        "not added",
        STR,
        {"type": "string", "not": {"maxLength": 0}},
        backward=(C.BRANCH_ADDED,),
    ),
    _pair(
        "not removed",
        {"type": "string", "not": {"maxLength": 0}},
        STR,
        forward=(C.BRANCH_REMOVED,),
    ),
    _pair(  # a random search almost never draws the excluded values: the rule's focus does
        "not of an enum added to a property",
        obj({"status": STR}),
        obj({"status": {"type": "string", "not": {"enum": ["deleted", "archived"]}}}),
        backward=(C.BRANCH_ADDED,),
    ),
    _pair(
        "not of a const added",
        INT,
        {"type": "integer", "not": {"const": 7}},
        backward=(C.BRANCH_ADDED,),
    ),
    _pair(
        "three changes at once",
        obj({"s": {"type": "string", "maxLength": 10}, "k": {"enum": ["a", "b"]}}, ["s"], closed=True),
        obj({"s": {"type": "string", "maxLength": 5}, "k": {"enum": ["a"]}}, ["s", "k"], closed=True),
        backward=(C.REQUIRED_ADDED, C.ENUM_VALUE_REMOVED, C.BOUND_TIGHTENED),
    ),
]

REFS = [
    _pair(
        "$ref target changed",
        {"$defs": {"a": STR, "b": INT}, **obj({"v": {"$ref": "#/$defs/a"}}, ["v"])},
        {"$defs": {"a": STR, "b": INT}, **obj({"v": {"$ref": "#/$defs/b"}}, ["v"])},
        backward=(C.TYPE_NARROWED,),
        forward=(C.TYPE_WIDENED,),
    ),
    _pair(
        "$ref target changed in what no rule names",
        {"$defs": {"a": {"type": "array"}, "b": {"type": "array", "uniqueItems": True}}, "$ref": "#/$defs/a"},
        {"$defs": {"a": {"type": "array"}, "b": {"type": "array", "uniqueItems": True}}, "$ref": "#/$defs/b"},
        backward=(C.REF_CHANGED,),
        unproven=(C.REF_CHANGED,),  # forward: the new target accepts nothing the old refused
    ),
    _pair(
        "a change inside $defs reached through $ref",
        {
            "$defs": {"addr": obj({"zip": {"type": "string", "maxLength": 10}}, ["zip"])},
            **obj({"home": {"$ref": "#/$defs/addr"}}),
        },
        {
            "$defs": {"addr": obj({"zip": {"type": "string", "maxLength": 5}}, ["zip"])},
            **obj({"home": {"$ref": "#/$defs/addr"}}),
        },
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "an enum value removed in a draft-07 definition used by array items",
        d7(
            {
                "definitions": {"c": obj({"f": {"enum": ["x", "y", "z"]}}, ["f"])},
                **obj({"cs": {"type": "array", "items": {"$ref": "#/definitions/c"}}}, ["cs"]),
            }
        ),
        d7(
            {
                "definitions": {"c": obj({"f": {"enum": ["x", "y"]}}, ["f"])},
                **obj({"cs": {"type": "array", "items": {"$ref": "#/definitions/c"}}}, ["cs"]),
            }
        ),
        backward=(C.ENUM_VALUE_REMOVED,),
    ),
    _pair(
        "a recursive definition changed",
        {
            "$defs": {
                "node": obj(
                    {
                        "v": {"type": "string", "maxLength": 8},
                        "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    ["v"],
                )
            },
            "$ref": "#/$defs/node",
        },
        {
            "$defs": {
                "node": obj(
                    {
                        "v": {"type": "string", "maxLength": 4},
                        "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    ["v"],
                )
            },
            "$ref": "#/$defs/node",
        },
        backward=(C.BOUND_TIGHTENED,),
    ),
    _pair(
        "a definition used twice changed: named once",
        {
            "$defs": {"n": {"type": "integer", "maximum": 9}},
            **obj({"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "#/$defs/n"}}),
        },
        {
            "$defs": {"n": {"type": "integer", "maximum": 5}},
            **obj({"a": {"$ref": "#/$defs/n"}, "b": {"$ref": "#/$defs/n"}}),
        },
        backward=(C.BOUND_TIGHTENED,),
    ),
]

REWRITES = [
    _pair(
        "keys reordered",
        obj({"a": STR, "b": INT}, ["a"], closed=True),
        {"additionalProperties": False, "required": ["a"], "properties": {"b": INT, "a": STR}, "type": "object"},
    ),
    _pair("type as a string or a list", {"type": "string"}, {"type": ["string"]}),
    _pair("integer and number, or number", {"type": ["integer", "number"]}, {"type": "number"}),
    _pair("allOf of one", {"allOf": [{"type": "string", "maxLength": 3}]}, {"type": "string", "maxLength": 3}),
    _pair(
        "allOf split into parts that do not interact",
        {"type": "string", "maxLength": 3},
        {"allOf": [{"type": "string"}, {"maxLength": 3}]},
    ),
    _pair("enum in another order", {"enum": ["a", "b", "c"]}, {"enum": ["c", "a", "b"]}),
    _pair("required in another order", obj({"a": STR, "b": STR}, ["a", "b"]), obj({"a": STR, "b": STR}, ["b", "a"])),
    _pair(
        "annotations changed",
        {"type": "string", "title": "A", "description": "one"},
        {"type": "string", "title": "B", "description": "two", "examples": ["x"]},
    ),
    _pair("anyOf in another order", {"anyOf": [STR, INT]}, {"anyOf": [INT, STR]}),
    _pair("const or an enum of one", {"const": "a"}, {"enum": ["a"]}),
    _pair("empty defaults written out", {"type": "array"}, {"type": "array", "items": {}, "minItems": 0}),
    _pair("additionalProperties true written out", obj({"a": STR}), obj({"a": STR}, additionalProperties=True)),
    _pair("a definition inlined", {"$defs": {"s": STR}, **obj({"a": {"$ref": "#/$defs/s"}})}, obj({"a": STR})),
    _pair(
        "a definition renamed",
        {"$defs": {"s": STR}, **obj({"a": {"$ref": "#/$defs/s"}})},
        {"$defs": {"t": STR}, **obj({"a": {"$ref": "#/$defs/t"}})},
    ),
    _pair(
        "an unused definition changed",
        {"$defs": {"u": STR}, **obj({"a": INT})},
        {"$defs": {"u": INT}, **obj({"a": INT})},
    ),
    _pair(
        "draft-07: items as a schema or as a tuple with the same rest",
        d7({"type": "array", "items": STR}),
        d7({"type": "array", "items": [STR], "additionalItems": STR}),
    ),
    _pair(
        "2020-12: items, or a prefix with the same rest",
        {"type": "array", "items": STR},
        {"type": "array", "prefixItems": [STR], "items": STR},
    ),
    _pair("multipleOf 1 on integers", INT, {"type": "integer", "multipleOf": 1}),
    _pair(
        "draft-07 definitions reordered and renamed",
        d7(
            {
                "definitions": {"a": STR, "b": INT},
                **obj({"x": {"$ref": "#/definitions/a"}, "y": {"$ref": "#/definitions/b"}}),
            }
        ),
        d7(
            {
                "definitions": {"int": INT, "str": STR},
                **obj({"y": {"$ref": "#/definitions/int"}, "x": {"$ref": "#/definitions/str"}}),
            }
        ),
    ),
]

CORPUS: list[Pair] = REQUIRED + PROPERTIES + TYPES + VALUES + BOUNDS + STRINGS + ARRAYS + COMPOSITIONS + REFS + REWRITES
