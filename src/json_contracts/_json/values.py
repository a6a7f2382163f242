"""What a decoded JSON value is: its type name, how deep it nests, and whether an answer can carry it.

Contract files and received documents are untrusted, so depth is measured without recursion (a
200,000-level value costs one pass, never a ``RecursionError``) and every limit message has the
one wording of :func:`nested_too_deep`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment, pointer_from_parts
from json_contracts._json.text import LONE_SURROGATE, MAX_SAFE_INTEGER, escape_lone_surrogates

__all__ = ["document_problem", "first_too_deep", "json_type", "nested_too_deep"]


def json_type(value: Any, *, integers: bool = True) -> str:
    """The JSON Schema type name of a decoded value: ``null``, ``boolean``, ``integer``, ``number``, …

    Whole numbers (``3`` and ``3.0``) are ``integer``, as JSON Schema counts them; with
    ``integers=False`` every number is ``number`` (the names zod and JavaScript print).
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        whole = isinstance(value, int) or (math.isfinite(value) and value.is_integer())
        return "integer" if integers and whole else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def nested_too_deep(subject: str, limit: int, fix: str = "flatten it", *, verb: str = "is") -> str:
    """The one wording for a value past a depth limit: ``json is nested more than 64 levels deep; flatten it``."""
    return f"{subject} {verb} nested more than {limit} levels deep; {fix}"


def _walk(value: Any, limit: int) -> tuple[bool, bool]:
    """One pass over ``value``: (an array or object is nested deeper than ``limit``, an integer is past
    the largest double). No pointers are built, so a large document costs one cheap pass."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    huge_integer = False
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):  # a tuple is faster than a union here, on the hot path
            if depth > limit:
                return True, huge_integer
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
        elif type(node) is int and not -MAX_SAFE_INTEGER <= node <= MAX_SAFE_INTEGER:
            huge_integer = huge_integer or not _fits_a_double(node)
    return False, huge_integer


def first_too_deep(value: Any, limit: int) -> str | None:
    """The pointer of the first array or object nested deeper than ``limit`` (the root is level 1), or None."""
    if not _walk(value, limit)[0]:
        return None
    # Found: now find where, depth first, keeping only the current path (building a pointer for
    # every value would cost memory quadratic in a hostile file's size). Children are visited last
    # first, the order of _walk, so the pointer is the first too-deep place _walk meets.
    if limit < 1:
        return ""
    path: list[str | int] = []
    pending: list[list[tuple[str | int, Any]]] = [_children(value)]
    while pending:
        if not pending[-1]:
            pending.pop()
            if path:
                path.pop()
            continue
        key, child = pending[-1].pop()
        if isinstance(child, (dict, list)):
            path.append(key)
            if len(path) + 1 > limit:
                return pointer_from_parts(path)
            pending.append(_children(child))
    return None


def _children(node: dict[str, Any] | list[Any]) -> list[tuple[str | int, Any]]:
    return list(node.items()) if isinstance(node, dict) else list(enumerate(node))


def document_problem(value: Any, *, max_bytes: int, max_depth: int, name: str = "document") -> str | None:
    """Why a received JSON value cannot be handled (nesting, then content, then size), or None.

    Content problems are what the wire can carry but no answer can: a number that is not finite
    (``1e999999`` reads as infinity) and a lone surrogate.
    """
    too_deep, huge_integer = _walk(value, max_depth)
    if too_deep:
        return nested_too_deep(name, max_depth)
    if huge_integer:
        return _content_problem(value, name)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        size = len(text.encode("utf-8"))
    except (ValueError, TypeError):  # UnicodeEncodeError is a ValueError
        return _content_problem(value, name) or f"{name} is not a JSON value; send JSON"
    if size > max_bytes:
        return f"{name} is {size} bytes, over the limit of {max_bytes} bytes; send a smaller document"
    return None


def _fits_a_double(number: int) -> bool:
    """JS reads every JSON number as a double; an integer past the largest double would be infinity."""
    try:
        float(number)
    except OverflowError:
        return False
    return True


def _content_problem(value: Any, name: str) -> str | None:
    """The first value (or key) in ``value`` that JSON text cannot carry, named by its pointer."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        node, pointer = stack.pop()
        where = pointer or "/"
        if isinstance(node, str):
            found = LONE_SURROGATE.search(node)
            if found is not None:
                escaped = escape_lone_surrogates(found.group())
                return (
                    f"{name} has a lone surrogate ({escaped}) at {escape_lone_surrogates(where)}, "
                    "which is not Unicode text; send valid UTF-8"
                )
        elif (isinstance(node, float) and not math.isfinite(node)) or (type(node) is int and not _fits_a_double(node)):
            if isinstance(node, float) and math.isnan(node):
                return f"{name} has NaN at {where}, which is not a JSON number; send a number or null"
            return f"{name} has a number at {where} too large for a JSON number (a double); send a smaller number"
        elif isinstance(node, dict):
            for key, child in reversed(node.items()):
                key_text = str(key)
                if LONE_SURROGATE.search(key_text):
                    escaped = escape_lone_surrogates(key_text if len(key_text) <= 200 else key_text[:200] + "...")
                    return (
                        f"{name} has a key with a lone surrogate ({escaped}) at {escape_lone_surrogates(where)}, "
                        "which is not Unicode text; send valid UTF-8"
                    )
                stack.append((child, pointer + "/" + escape_pointer_segment(key_text)))
        elif isinstance(node, list | tuple):
            stack.extend((child, f"{pointer}/{i}") for i, child in reversed(list(enumerate(node))))
        elif node is not None and not isinstance(node, bool | int | float):
            return f"{name} holds a {type(node).__name__} at {where}, which is not a JSON value"
    return None
