"""JSON text exactly as JavaScript's ``JSON.stringify`` writes it.

The TypeScript server runs on JavaScript, and its hashes, ``--json`` output, MCP payloads and prompt
bodies are all ``JSON.stringify`` text. Python's ``json`` differs in three places, handled here:
numbers (``1.0`` prints as ``1``, ``1e21`` as ``1e+21``), lone surrogates (escaped, not raw)
and object key order (integer-like keys first, ascending).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

import orjson

__all__ = [
    "LONE_SURROGATE",
    "MAX_SAFE_INTEGER",
    "array_index",
    "canonical",
    "display_text",
    "dumps",
    "escape_lone_surrogates",
    "format_number",
    "js_key_order",
    "js_string",
]

MAX_SAFE_INTEGER = 2**53  # larger integers lose precision as doubles, which JavaScript reads them as
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_encode_string = json.encoder.encode_basestring  # escapes only '"', '\\' and C0, like JS


def format_number(value: float | int) -> str:
    """Format a number as ECMAScript ``Number::toString`` does.

    Integers beyond 2**53 are first rounded to the nearest double, as a JS parser would.

    Raises:
        ValueError: for NaN and infinities, which JSON cannot carry.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            return str(value)
        value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a JSON number")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr() gives the shortest round-trip digits, as ECMAScript requires.
    _, digit_tuple, exponent = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    point = k + int(exponent)  # value = 0.<digits> * 10**point
    if k <= point <= 21:
        text = digits + "0" * (point - k)
    elif 0 < point <= 21:
        text = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        text = "0." + "0" * (-point) + digits
    else:
        shown = point - 1
        head = digits[0] + ("." + digits[1:] if k > 1 else "")
        text = f"{head}e{'+' if shown >= 0 else '-'}{abs(shown)}"
    return sign + text


def js_string(text: str) -> str:
    """A JSON string literal as JS writes it: raw non-ASCII, lone surrogates escaped."""
    encoded: str = _encode_string(text)
    return escape_lone_surrogates(encoded)


def escape_lone_surrogates(text: str) -> str:
    """``text`` with each lone surrogate written as its ``\\uXXXX`` escape, so it can be printed or sent.

    A lone surrogate is not Unicode text: UTF-8 output and the MCP SDK's JSON encoder refuse it.
    """
    if LONE_SURROGATE.search(text) is None:
        return text
    return LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def display_text(text: str) -> str:
    """``text`` as it can be printed and sent: file-name bytes that are not UTF-8 become U+FFFD.

    Python hands such names over with surrogate escapes, which no UTF-8 output (and no MCP
    answer) can carry; they are shown the way the loader reads bad bytes inside a file.
    """
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:  # a surrogate that is not an escaped byte
        return escape_lone_surrogates(text)


#: Digits of the longest index :func:`array_index` reads: no list holds more than 2**53 items.
_MAX_INDEX_DIGITS = 16


def array_index(segment: str) -> int | None:
    """``segment`` (an object key or a JSON pointer segment) read as an array index, else None.

    An index is ASCII digits without a leading zero (``0``, ``12``), as JSON pointers and JavaScript
    read them: ``01``, ``-1``, ``²`` and Arabic-Indic digits are keys. ``str.isdigit`` is true for the last two,
    and ``int`` refuses ``²`` and any run of 4,300 digits or more, so every place that asks whether a
    key or segment is an index asks here. A number longer than any list can be is no index either.
    """
    if not (0 < len(segment) <= _MAX_INDEX_DIGITS and segment.isascii() and segment.isdigit()):
        return None
    return int(segment) if segment == "0" or segment[0] != "0" else None


def _is_array_index(key: str) -> bool:
    """JavaScript's array-index keys, which its objects list first: indexes below 2**32 - 1."""
    index = array_index(key)
    return index is not None and index < 2**32 - 1


def js_key_order(keys: Iterable[str]) -> list[str]:
    """Keys in JavaScript object order: array-index keys ascending first, then insertion order."""
    keys = list(keys)
    indexes = [k for k in keys if _is_array_index(k)]
    if not indexes:
        return keys
    indexes.sort(key=int)
    return indexes + [k for k in keys if not _is_array_index(k)]


def _utf16_key(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def canonical(value: Any) -> str:
    """Compact JSON with keys sorted by UTF-16 code units: the text the hashes are taken of."""
    parts: list[str] = []
    _write(value, parts, None, "", sort_keys=True)
    return "".join(parts)


def dumps(value: Any, indent: int | None = 2) -> str:
    """``JSON.stringify(value, null, indent)``; ``indent=None`` gives the compact form.

    Values orjson writes exactly as JavaScript does (see :func:`_plain`) take its C encoder, about
    thirty times faster than the writer below, which handles the rest: every MCP answer's text is
    written here.
    """
    if indent in (None, 2) and _plain(value):
        try:
            return orjson.dumps(value, option=_ORJSON_OPTIONS[indent]).decode("utf-8")
        except orjson.JSONEncodeError:  # a lone surrogate, which JavaScript writes as an escape
            pass
    parts: list[str] = []
    _write(value, parts, indent, "", sort_keys=False)
    return "".join(parts)


_ORJSON_OPTIONS = {None: 0, 2: orjson.OPT_INDENT_2}
_SAFE_INTEGER = 2**53  # beyond it JavaScript writes the nearest double, not the digits
#: Values with more nodes than this take the writer below: orjson reserves about 160 bytes per
#: array item while it writes (200,000 small integers: a 32 MiB peak for 1.3 MB of text; a 1 MiB
#: document 63 levels deep: 127 MiB), which would break the memory bound of a large answer.
_FAST_NODES = 4096


def _plain(value: Any) -> bool:
    """Whether orjson writes ``value`` byte for byte as ``JSON.stringify`` does.

    It does for strings (raw non-ASCII, the same escapes; a lone surrogate makes it refuse),
    booleans, null, integers JavaScript holds exactly, lists and tuples, and objects with string
    keys none of which starts with a digit (JavaScript moves array-index keys first). Floats are
    left to the writer below, which formats numbers as JavaScript does (``1.0`` is ``1``), and so
    are values of more than :data:`_FAST_NODES` nodes, whose memory the writer keeps small.
    """
    stack = [value]
    pop, extend = stack.pop, stack.extend
    budget = _FAST_NODES
    while stack:
        budget -= 1
        if budget < 0:
            return False
        node = pop()
        kind = type(node)
        if kind is str or node is None or kind is bool:
            continue
        if kind is int:
            if -_SAFE_INTEGER <= node <= _SAFE_INTEGER:
                continue
            return False
        if kind is dict:
            for key in node:
                if type(key) is not str or "0" <= key[:1] <= "9":  # may be an array index
                    return False
            extend(node.values())
        elif kind is list or kind is tuple:
            extend(node)
        else:
            return False
    return True


def _write(value: Any, out: list[str], indent: int | None, prefix: str, *, sort_keys: bool) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(js_string(value))
    elif isinstance(value, (int, float)):
        out.append(format_number(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        keys = sorted(value, key=_utf16_key) if sort_keys else js_key_order(value)
        inner = prefix + " " * indent if indent else prefix
        out.append("{")
        for i, key in enumerate(keys):
            if i:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            out.append(js_string(key))
            out.append(": " if indent else ":")
            _write(value[key], out, indent, inner, sort_keys=sort_keys)
        if indent:
            out.append("\n" + prefix)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = prefix + " " * indent if indent else prefix
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            if indent:
                out.append("\n" + inner)
            _write(item, out, indent, inner, sort_keys=sort_keys)
        if indent:
            out.append("\n" + prefix)
        out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} is not a JSON value")
