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

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.text import LONE_SURROGATE, MAX_SAFE_INTEGER, escape_lone_surrogates
from json_contracts.errors import JsonParseError, JsonTooDeepError

__all__ = ["SourceMap", "line_column", "parse_json"]

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WS = re.compile(r"[ \t\n\r]*")
# A string literal or a bare NaN/Infinity: the first bare one is where the problem is.
_STRING_OR_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?(?:NaN|Infinity))')
_STRING_OR_NUMBER = re.compile(r'"(?:[^"\\]|\\.)*"|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?)')
_STRING_LITERAL = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
# A surrogate, raw or as a \u escape: only then can a string hold a lone one.
_SURROGATE_HINT = re.compile(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]")


class _NonJsonConstant(ValueError):
    pass


class _NumberTooLarge(ValueError):
    pass


def _parse_int(text: str) -> int | float:
    if len(text) < 16:
        return int(text)
    value = int(text)
    if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
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


def _lone_surrogate_problem(text: str) -> JsonParseError | None:
    """Where parsed ``text`` holds a string with a lone surrogate (I-JSON, RFC 7493, forbids it)."""
    if _SURROGATE_HINT.search(text) is None:
        return None
    for match in _STRING_LITERAL.finditer(text):
        literal = match.group()
        if _SURROGATE_HINT.search(literal) is None:
            continue
        found = LONE_SURROGATE.search(json.loads(literal))
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
