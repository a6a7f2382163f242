"""The one place JSON text is read: parsing with JS-compatible numbers, and source positions.

Contract files and agent documents are untrusted. Parsing rejects what JavaScript's
``JSON.parse`` rejects (``NaN``, ``Infinity``, a byte-order mark), rounds integers beyond 2**53
to doubles as JS does (so hashes agree), and turns every failure into a
:class:`~json_contracts.errors.JsonParseError` with line and column. :class:`SourceMap` maps a
JSON pointer back to the line and column of its value (or key) in the text.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import math
import re
from json.decoder import scanstring  # type: ignore[attr-defined]  # stable, undocumented
from typing import Any

from json_contracts.errors import JsonParseError, JsonTooDeepError

__all__ = [
    "SourceMap",
    "document_problem",
    "escape_lone_surrogates",
    "escape_pointer_segment",
    "line_column",
    "parse_json",
    "pointer_from_parts",
    "too_deep_message",
]

_MAX_SAFE = 2**53
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WS = re.compile(r"[ \t\n\r]*")
# A string literal or a bare NaN/Infinity: the first bare one is where the problem is.
_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?(?:NaN|Infinity))')
_STRING_OR_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)')
_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
# A surrogate, raw or as a \u escape: only then can a string hold a lone one.
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _NonJsonConstant(ValueError):
    pass


class _NumberTooLarge(ValueError):
    pass


def _parse_int(text: str) -> int | float:
    if len(text) < 16:
        return int(text)
    value = int(text)
    if -_MAX_SAFE <= value <= _MAX_SAFE:
        return value
    try:
        return float(value)
    except OverflowError as exc:
        raise _NumberTooLarge(text) from exc


def _parse_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _NumberTooLarge(text)
    return value


def _reject_constant(name: str) -> Any:
    raise _NonJsonConstant(name)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column (in code points) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def escape_lone_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape, so it can be printed or sent.

    A lone surrogate is not Unicode text: UTF-8 output and the MCP SDK's JSON encoder refuse it.
    """
    if _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _lone_surrogate_problem(text: str) -> JsonParseError | None:
    """Where parsed ``text`` holds a string with a lone surrogate (I-JSON, RFC 7493, forbids it)."""
    if _SURROGATE_HINT.search(text) is None:
        return None
    for match in _STRING_LITERAL.finditer(text):
        literal = match.group()
        if _SURROGATE_HINT.search(literal) is None:
            continue
        found = _LONE_SURROGATE.search(json.loads(literal))
        if found is not None:
            line, column = line_column(text, match.start())
            return JsonParseError(
                f"string at line {line}, column {column} holds a lone surrogate "
                f"({escape_lone_surrogates(found.group())}), which is not Unicode text; "
                "remove it or complete the surrogate pair",
                line,
                column,
                match.start(),
            )
    return None


def parse_json(text: str) -> Any:
    """Parse JSON text as ``JSON.parse`` would, and as I-JSON asks: no lone surrogates.

    A string with a lone surrogate (``"\\ud800"``) is refused: it cannot be printed as UTF-8 nor
    sent back over MCP, so accepting it would only move the failure somewhere less clear.

    Raises:
        JsonParseError: the text is not JSON; the message says what and where.
    """
    if text.startswith("\ufeff"):
        raise JsonParseError("file starts with a UTF-8 byte order mark (BOM); save it as UTF-8 without a BOM", 1, 1, 0)
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise JsonParseError(
            f"{exc.msg} at line {exc.lineno}, column {exc.colno}", exc.lineno, exc.colno, exc.pos
        ) from exc
    except _NonJsonConstant as exc:
        offset = next((m.start(1) for m in _STRING_OR_CONSTANT.finditer(text) if m.group(1)), 0)
        line, column = line_column(text, offset)
        raise JsonParseError(
            f"{exc} is not valid JSON at line {line}, column {column}; use a number or null",
            line,
            column,
            offset,
        ) from exc
    except _NumberTooLarge as exc:
        digits = str(exc)
        offset = next((m.start(1) for m in _STRING_OR_NUMBER.finditer(text) if m.group(1) == digits), 0)
        line, column = line_column(text, offset)
        shown = digits if len(digits) <= 24 else digits[:20] + "..."
        raise JsonParseError(
            f"number {shown} at line {line}, column {column} is too large for a JSON number (a double)",
            line,
            column,
            offset,
        ) from exc
    except RecursionError as exc:
        raise JsonTooDeepError("JSON is nested too deeply to read", 1, 1, 0) from exc
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise JsonParseError(f"{exc}", 1, 1, 0) from exc
    problem = _lone_surrogate_problem(text)
    if problem is not None:
        raise problem
    return value


def escape_pointer_segment(segment: str | int) -> str:
    """RFC 6901: ``~`` becomes ``~0`` and ``/`` becomes ``~1``."""
    return str(segment).replace("~", "~0").replace("/", "~1")


def pointer_from_parts(parts: Any) -> str:
    """A JSON pointer from path segments (``['a', 0]`` -> ``/a/0``); the root is ``""``."""
    return "".join("/" + escape_pointer_segment(p) for p in parts)


class SourceMap:
    """Where each value (and each object key) of a JSON text starts.

    Built by a small scanner over the text, because no maintained library maps RFC 6901
    pointers (with escaped keys) to positions correctly. Built lazily: only files with
    findings pay for it.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._values: dict[str, int] = {}
        self._keys: dict[str, int] = {}
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # A partial map still locates everything scanned before a problem.
        with contextlib.suppress(RecursionError, ValueError, IndexError):
            self._scan(self._skip(0), "")

    def _skip(self, idx: int) -> int:
        match = _WS.match(self.text, idx)
        return match.end() if match else idx

    def _scan(self, idx: int, pointer: str) -> int:
        text = self.text
        self._values[pointer] = idx
        char = text[idx]
        if char == "{":
            idx = self._skip(idx + 1)
            if text[idx] == "}":
                return idx + 1
            while True:
                key_start = idx
                key, idx = scanstring(text, idx + 1)
                child = pointer + "/" + escape_pointer_segment(key)
                self._keys[child] = key_start
                idx = self._skip(idx)
                idx = self._skip(idx + 1)  # the ':'
                idx = self._skip(self._scan(idx, child))
                if text[idx] == "}":
                    return idx + 1
                idx = self._skip(idx + 1)  # the ','
        if char == "[":
            idx = self._skip(idx + 1)
            if text[idx] == "]":
                return idx + 1
            index = 0
            while True:
                idx = self._skip(self._scan(idx, f"{pointer}/{index}"))
                index += 1
                if text[idx] == "]":
                    return idx + 1
                idx = self._skip(idx + 1)
        if char == '"':
            end: int = scanstring(text, idx + 1)[1]
            return end
        for literal in ("true", "false", "null"):
            if text.startswith(literal, idx):
                return idx + len(literal)
        match = _NUMBER.match(text, idx)
        if match is None:
            raise ValueError(f"unexpected character at {idx}")
        return match.end()

    def offset(self, pointer: str, *, key: bool = False) -> int:
        """Offset of the value at ``pointer`` (or its key), else of its nearest ancestor."""
        if key and pointer in self._keys:
            return self._keys[pointer]
        while pointer not in self._values and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        return int(self._values.get(pointer, 0))

    def position(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of ``pointer``; see :meth:`offset`."""
        offset = self.offset(pointer, key=key)
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


def too_deep_message(name: str, max_depth: int) -> str:
    """The one wording for a value nested past the depth limit, wherever it is caught."""
    return f"{name} is nested more than {max_depth} levels deep; flatten it"


def document_problem(value: Any, *, max_bytes: int, max_depth: int, name: str = "document") -> str | None:
    """Why a received JSON value cannot be handled (nesting, then content, then size), or None.

    Depth is measured without recursion, so a hostile 200,000-deep value costs one pass and
    never a ``RecursionError``. Content problems are what the wire can carry but no answer can:
    a number that is not finite (``1e999999`` reads as infinity) and a lone surrogate.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    huge_integer = False
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > max_depth:
                return too_deep_message(name, max_depth)
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
        elif type(node) is int and not -_MAX_SAFE <= node <= _MAX_SAFE:
            huge_integer = huge_integer or not _fits_a_double(node)
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
            found = _LONE_SURROGATE.search(node)
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
                if _LONE_SURROGATE.search(key_text):
                    escaped = escape_lone_surrogates(key_text if len(key_text) <= 200 else key_text[:200] + "...")
                    return (
                        f"{name} has a key with a lone surrogate ({escaped}) at {escape_lone_surrogates(where)}, "
                        "which is not Unicode text; send valid UTF-8"
                    )
                stack.append((child, pointer + "/" + escape_pointer_segment(key_text)))
        elif isinstance(node, (list, tuple)):
            stack.extend((child, f"{pointer}/{i}") for i, child in reversed(list(enumerate(node))))
        elif node is not None and not isinstance(node, (bool, int, float)):
            return f"{name} holds a {type(node).__name__} at {where}, which is not a JSON value"
    return None
