"""JSON pointers (RFC 6901): building, splitting and following them.

Escaping and unescaping are the ``jsonpointer`` library's; this module adds the two things our
callers need on top: pointers built from path segments that may be integers, and following a
``$ref`` fragment (``#/$defs/a``) inside a schema without raising.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from jsonpointer import escape, unescape

from json_contracts._json.text import array_index, js_string

__all__ = [
    "escape_pointer_segment",
    "index_of",
    "json_path",
    "lookup",
    "pointer_from_parts",
    "pointer_parts",
    "resolve_local_ref",
]


def escape_pointer_segment(segment: str | int) -> str:
    """One segment, escaped: ``~`` becomes ``~0`` and ``/`` becomes ``~1``."""
    return str(escape(str(segment)))


def pointer_from_parts(parts: Iterable[str | int]) -> str:
    """A JSON pointer from path segments (``['a', 0]`` -> ``/a/0``); the root is ``""``."""
    return "".join("/" + escape_pointer_segment(part) for part in parts)


def pointer_parts(pointer: str) -> list[str]:
    """The unescaped segments of a pointer (``/a~1b/0`` -> ``['a/b', '0']``); the root has none."""
    return [str(unescape(segment)) for segment in pointer.split("/")[1:]] if pointer else []


_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def json_path(parts: Iterable[str | int], root: str = "$") -> str:
    """A JavaScript-style path: ``['schema', 'properties', 'a-b', 0]`` -> ``$.schema.properties["a-b"][0]``.

    Integers are indexes; keys that are JavaScript identifiers follow a dot; any other key is a
    quoted string in brackets. Lint findings in ``lint --json`` carry paths in this form.
    """
    text = root
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}"
        else:
            text += f"[{js_string(part)}]"
    return text


def index_of(segment: str, length: int) -> int | None:
    """``segment`` as an index into a list of ``length`` items (:func:`array_index`'s rule), else None."""
    index = array_index(segment)
    return index if index is not None and index < length else None


def lookup(document: Any, pointer: str) -> tuple[bool, Any]:
    """``(True, value)`` at ``pointer`` in ``document``, or ``(False, None)`` where nothing is there."""
    node = document
    for segment in pointer_parts(pointer):
        if isinstance(node, dict) and segment in node:
            node = node[segment]
        elif isinstance(node, list) and (index := index_of(segment, len(node))) is not None:
            node = node[index]
        else:
            return False, None
    return True, node


def resolve_local_ref(root: Any, ref: str) -> Any:
    """The node a local ``$ref`` points at inside ``root``, or None when it points nowhere.

    ``#`` and ``#/…`` are JSON pointers. A fragment that is not a pointer (``#item``, a plain-name
    ``$anchor``) resolves to the root, as the TypeScript server's hint lookup does: the text after
    ``#`` has no ``/``-separated segments to follow (docs/reference/compatibility.md, "Finding the
    sub-schema"). The validator itself resolves anchors properly.
    """
    if not ref.startswith("#"):
        return None
    fragment = ref[1:]
    return lookup(root, fragment if fragment.startswith("/") else "")[1]
