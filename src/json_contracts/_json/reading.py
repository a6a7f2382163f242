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

__all__ = ["SourceMap", "line_column", "parse_json", "syntax_hint"]

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
        what = exc.msg.removesuffix(" at")  # "Unterminated string starting at" names the place itself
        raise JsonParseError(
            f"{what} at line {exc.lineno}, column {exc.colno}", exc.lineno, exc.colno, exc.pos
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


_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*")
_NUMBER_LIKE = re.compile(r"[0-9A-Za-z.]+")
_LITERALS = {"True": "true", "False": "false", "None": "null", "TRUE": "true", "FALSE": "false", "NULL": "null"}


def syntax_hint(text: str, offset: int) -> str | None:
    """What to change in ``text`` when :func:`parse_json` stopped at ``offset``, or None.

    Hand-written JSON fails on a few slips: a trailing or a missing comma, single quotes, a
    comment, an unquoted key, ``True`` for ``true``, a backslash in a regular expression. The
    parser's own message names what it expected, not the slip, so the hint names the slip and
    the line and column where the fix goes (the comma to remove sits before where parsing stopped).
    """
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return _slip(text, exc.msg, exc.pos) if exc.pos == offset else None
    except (ValueError, RecursionError):
        return None
    return None


def _at(text: str, offset: int) -> str:
    line, column = line_column(text, offset)
    return f"line {line}, column {column}"


def _open_brackets(text: str) -> tuple[list[tuple[str, int]], int | None]:
    """The brackets still open at the end of ``text``, and where an unclosed string starts."""
    stack: list[tuple[str, int]] = []
    string_start: int | None = None
    escaped = False
    for i, char in enumerate(text):
        if string_start is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                string_start = None
        elif char == '"':
            string_start = i
        elif char in "{[":
            stack.append((char, i))
        elif char in "}]" and stack:
            stack.pop()
    return stack, string_start


def _ended_early(text: str) -> str:
    if not text.strip():
        return "the text is empty: write a JSON value, such as {}"
    stack, string_start = _open_brackets(text)
    if string_start is not None:
        return f"close the string that starts at {_at(text, string_start)} with a double quote"
    if stack:
        closing = " and ".join(
            f"{'}' if char == '{' else ']'} for the {char} at {_at(text, i)}" for char, i in stack[::-1][:3]
        )
        return f"the text ends before the JSON value does: add {closing}"
    return "the text ends before the JSON value does: complete the last value"


def _word_hint(word: str, as_key: bool) -> str:
    if word in _LITERALS:
        return f"JSON literals are lower case: write {_LITERALS[word]}"
    if word == "undefined":
        return "JSON has no undefined: write null, or leave the key out"
    if as_key:
        return f'keys are strings in double quotes: write "{word}"'
    return f'text is a string in double quotes: write "{word}"'


def _is_digit(char: str) -> bool:
    """A digit of a JSON number: ``0``-``9`` only (``str.isdigit`` is also true for ``²`` and Arabic-Indic digits)."""
    return len(char) == 1 and "0" <= char <= "9"


def _number_hint(text: str, pos: int) -> str:
    """How to write a number JSON does not read: ``1.`` or ``0x1F`` (the parser stopped at ``pos``)."""
    start = pos
    while start > 0 and _is_digit(text[start - 1]):
        start -= 1
    match = _NUMBER_LIKE.match(text, start)
    token = match.group()[:24] if match else ""
    if token[:2].lower() == "0x":
        try:
            return f"JSON numbers are decimal: write {int(token, 16)} for {token}"
        except ValueError:
            return "JSON numbers are decimal: write the number in decimal digits"
    if token.endswith("."):
        return f"JSON numbers need a digit after the point: write {token}0 or {token[:-1]}"
    return f"{token} is not a JSON number: write digits, an optional fraction (.5) and an optional exponent (e3)"


def _slip(text: str, msg: str, pos: int) -> str | None:
    """The fix for the slip the parser stopped at; ``msg`` and ``pos`` are the parser's."""
    if msg.startswith("Unexpected UTF-8 BOM"):
        return None  # parse_json's own message says what to do
    if not text[pos:].strip() and not msg.startswith(("Invalid", "Unterminated")):
        return _ended_early(text)
    char = text[pos : pos + 1]
    before = text[:pos].rstrip(" \t\n\r")
    previous = before[-1:]
    if msg.startswith("Invalid \\escape"):
        following = text[pos + 1 : pos + 2]
        return (
            f'"\\{following}" is not a JSON escape: write "\\\\{following}" for a backslash '
            f'(a regular expression\'s \\d is "\\\\d" in JSON)'
        )
    if msg.startswith("Invalid control character"):
        if char in "\r\n":
            return (
                "a string cannot span lines: close it with a double quote on this line, or write \\n for a line break"
            )
        return "write a tab as \\t and other control characters as \\u00XX inside a string"
    if msg.startswith("Unterminated string"):
        return f"close the string that starts at {_at(text, pos)} with a double quote"
    if msg.startswith("Extra data"):
        if char in "}]":
            return f"remove the extra {char} at {_at(text, pos)}: every bracket is already closed"
        return (
            f"the JSON value ends at {_at(text, len(before) - 1)}: remove what follows, "
            "or put the values together in one array or object"
        )
    if text.startswith(("//", "/*"), pos) or char == "#":
        return f'JSON has no comments: remove the comment at {_at(text, pos)} (a note can go in a "description")'
    if char == "'":
        end = text.find("'", pos + 1, text.find("\n", pos) if "\n" in text[pos:] else len(text))
        quoted = text[pos + 1 : end] if end > pos else ""
        shown = f"\"{quoted}\" instead of '{quoted}'" if 0 < len(quoted) <= 40 else "double quotes"
        return f"JSON strings use double quotes: write {shown}"
    if char in "}]" and previous == ",":
        kind = "member of an object" if char == "}" else "item of an array"
        return f"remove the comma at {_at(text, len(before) - 1)}: JSON allows no comma after the last {kind}"
    if char == ",":
        after = text[pos + 1 :].lstrip(" \t\n\r")[:1]
        if after in ("}", "]"):
            return f"remove the comma at {_at(text, pos)}: JSON allows no comma after the last value"
        if previous in (",", "{", "[", ""):
            return f"remove the extra comma at {_at(text, pos)}"
    if msg.startswith("Expecting ',' delimiter"):
        if previous == "0" and _is_digit(char) and not _is_digit(before[-2:-1]):
            return "JSON numbers have no leading zeros: remove the 0, or write the value as a string"
        if _is_digit(previous) and char in ".xXeE":
            return _number_hint(text, pos)
        return f'a comma is missing: add "," after the value that ends at {_at(text, len(before) - 1)}'
    if msg.startswith("Expecting ':' delimiter"):
        return f"put a colon between the key and its value, at {_at(text, pos)}"
    word = _WORD.match(text, pos)
    if word is not None:
        return _word_hint(word.group(), as_key=msg.startswith("Expecting property name"))
    if char == "+":
        return "JSON numbers have no plus sign: remove the +"
    fraction = _NUMBER.match("0" + text[pos : pos + 24])
    if char == "." and fraction is not None and len(fraction.group()) > 2:
        return f"JSON numbers start with a digit: write {fraction.group()}"
    return None


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
