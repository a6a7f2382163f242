"""Merging sub-schemas (``allOf``, ``$ref`` siblings, a chosen ``anyOf`` branch) for generation.

The generator builds one strategy per merged node, so ``{"allOf": [A, B]}`` must become a
single schema that describes (close to) the intersection. The merge is exact for the
keywords generation reads most (type, bounds, properties, required, items, enum, const) and
deliberately approximate elsewhere: a keyword that cannot be merged keeps one side, and the
other side is kept under :data:`PENDING` to be re-applied after a branch is chosen or, at
worst, enforced by the validator filter every sample passes. Nothing here decides validity.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from json_contracts._json.text import canonical

__all__ = ["PENDING", "merge"]

PENDING = "x-json-contracts-pending"  # schemas still to merge once a combinator branch is chosen

_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
_COMBINATORS = ("anyOf", "oneOf")
_CONDITIONAL = ("if", "then", "else")
# Sub-schemas every value they apply to must satisfy, so two of them conjoin. Not ``contains``: two
# different ones may be satisfied by two different items, so one is kept and the other is PENDING.
_SUBSCHEMA_ANDED = ("additionalProperties", "additionalItems", "propertyNames", "unevaluatedProperties",
                    "unevaluatedItems")  # fmt: skip
_IGNORED = ("title", "description", "default", "examples", "$comment", "$id", "$schema", "$anchor", "readOnly",
            "writeOnly", "deprecated")  # fmt: skip
_TYPE_NAMES = ("null", "boolean", "object", "array", "number", "string", "integer")


def _types(value: Any) -> set[str] | None:
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return {t for t in value if isinstance(t, str)}
    return None


def _meet_types(a: Any, b: Any) -> list[str]:
    left, right = _types(a), _types(b)
    if left is None or right is None:
        return sorted(left or right or set(_TYPE_NAMES), key=_TYPE_NAMES.index)
    meet = left & right
    if ("integer" in left and "number" in right) or ("number" in left and "integer" in right):
        meet.add("integer")
    return sorted(meet, key=_TYPE_NAMES.index)


def _both(a: Any, b: Any) -> Any:
    """The conjunction of two sub-schemas, as lazily as possible."""
    if a is True or a == {}:
        return b
    if b is True or b == {}:
        return a
    if a is False or b is False:
        return False
    if a is b or canonical(a) == canonical(b):  # the same node merged twice (a $ref both sides follow)
        return a
    return {"allOf": [a, b]}


def _both_trivial(a: Any, b: Any) -> bool:
    """Whether :func:`_both` can combine ``a`` and ``b`` without an ``allOf`` (a side is true, false or equal)."""
    return a is b or any(side is True or side is False or side == {} for side in (a, b)) or canonical(a) == canonical(b)


def _multiple(a: Any, b: Any) -> Any | None:
    """A common multiple of two ``multipleOf`` values, or None when there is no tidy one."""
    try:
        fa, fb = Fraction(str(a)), Fraction(str(b))
    except (ValueError, ZeroDivisionError):
        return None
    lcm = Fraction(
        math.lcm(fa.numerator * fb.denominator, fb.numerator * fa.denominator), fa.denominator * fb.denominator
    )
    return int(lcm) if lcm.denominator == 1 else float(lcm)


def merge(a: Any, b: Any) -> Any:
    """A schema for values valid against both ``a`` and ``b`` (see the module docstring)."""
    if a is True or a == {}:
        return b
    if b is True or b == {}:
        return a
    if a is False or b is False or not isinstance(a, dict) or not isinstance(b, dict):
        return False
    result = dict(a)
    pending: list[Any] = list(result.pop(PENDING, []))
    for key, value in b.items():
        if key == PENDING:
            pending.extend(value)
        elif key in ("then", "else"):
            continue  # travels with its "if" below, and means nothing without one
        elif key == "if":
            # if/then/else is one unit: never pair a then or else with the other side's if.
            conditional = {k: b[k] for k in _CONDITIONAL if k in b}
            if any(k in result for k in _CONDITIONAL):
                pending.append(conditional)
            else:
                result.update(conditional)
        elif key not in result or key in _IGNORED:
            result.setdefault(key, value)
        elif key == "type":
            result["type"] = _meet_types(result["type"], value)
            if not result["type"]:
                return False
        elif key in _LOWER:
            result[key] = max(result[key], value)
        elif key in _UPPER:
            result[key] = min(result[key], value)
        elif key == "required":
            result[key] = list(dict.fromkeys([*result[key], *value]))
        elif key in ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions"):
            merged = dict(result[key])
            for name, sub in value.items():
                merged[name] = _both(merged[name], sub) if name in merged else sub
            result[key] = merged
        elif key == "dependentRequired":
            merged = dict(result[key])
            for name, needed in value.items():
                merged[name] = list(dict.fromkeys([*merged.get(name, []), *needed]))
            result[key] = merged
        elif key in _SUBSCHEMA_ANDED:
            result[key] = _both(result[key], value)
        elif key == "contains" and not _both_trivial(result[key], value):
            pending.append({key: value})  # two items may satisfy them; one item need not satisfy both
        elif key == "contains":
            result[key] = _both(result[key], value)
        elif key in ("items", "prefixItems") and isinstance(value, list) and isinstance(result[key], list):
            longer, shorter = (value, result[key]) if len(value) >= len(result[key]) else (result[key], value)
            result[key] = [_both(x, shorter[i]) if i < len(shorter) else x for i, x in enumerate(longer)]
        elif key == "items" and isinstance(value, dict | bool) and isinstance(result[key], dict | bool):
            result[key] = _both(result[key], value)
        elif key == "enum":
            allowed = {canonical(v) for v in value}
            result["enum"] = [v for v in result["enum"] if canonical(v) in allowed]
            if not result["enum"]:
                return False
        elif key == "const":
            if canonical(result["const"]) != canonical(value):
                return False
        elif key == "uniqueItems":
            result[key] = bool(result[key]) or bool(value)
        elif key == "multipleOf":
            common = _multiple(result[key], value)
            if common is None:
                pending.append({key: value})
            else:
                result[key] = common
        elif key == "not":
            result["not"] = {"anyOf": [result["not"], value]}
        elif key in _COMBINATORS:
            pending.append({key: value})
        elif canonical(result[key]) != canonical(value):
            pending.append({key: value})  # e.g. two patterns or formats: the validator filter decides
    if pending:
        result[PENDING] = pending
    return result
