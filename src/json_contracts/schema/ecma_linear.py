"""ECMA-262 ``pattern`` text (Unicode mode, as Ajv compiles it) rewritten for RE2, a linear-time engine.

Only "does it match anywhere" is ever asked, so match priority, laziness and captures do not
matter; what must hold is that RE2 accepts exactly the strings the ECMA-262 pattern accepts.
Every character set is therefore spelled out as code-point ranges rather than trusting RE2's own
meaning of ``.``, ``\\s`` or ``[^…]``:

* ``.`` is any code point except ``\\n``, ``\\r``, U+2028 and U+2029; ``\\d``, ``\\w`` and ``\\b``
  are ASCII; ``\\s`` is ECMA-262's white space and line terminators (U+00A0, U+FEFF, U+1680,
  U+2000-U+200A, U+202F, U+205F, U+3000, U+2028, U+2029, ``\\v``, ``\\f``, …);
* ``^`` and ``$`` are the start and end of the text (no multiline flag);
* ``\\cX``, ``\\0``, ``\\xHH``, ``\\uHHHH`` (a surrogate pair of them is one code point),
  ``\\u{…}``, ``[\\b]``, ``[^]`` (anything) and ``[]`` (nothing);
* ``\\p{…}``/``\\P{…}``: the code points are asked of ``regress`` itself, so the Unicode version is
  the one the syntax authority uses (RE2's tables are older);
* named groups become plain groups; counted repeats up to :data:`MAX_REPEAT`.

Lone surrogates are code points too (U+D800-U+DFFF): RE2 reads them when the text is encoded with
``surrogatepass``, and every range here says whether it holds them, except a property's, which is
why :class:`Linear` records whether the pattern uses one. Anything else (lookarounds,
backreferences, larger counts, a construct this module does not know) returns ``None``: the caller
matches such patterns with ``regress`` in a killable worker. ``regress`` has already accepted the
pattern; this module never decides validity.
"""

from __future__ import annotations

import sys
from array import array
from dataclasses import dataclass
from functools import lru_cache

import regress

from json_contracts.schema.ecma_classes import DIGIT as _DIGIT
from json_contracts.schema.ecma_classes import LINE_TERMINATORS as _LINE_TERMINATORS
from json_contracts.schema.ecma_classes import MAX_CODE_POINT as _MAX_CODE_POINT
from json_contracts.schema.ecma_classes import SPACE as _SPACE
from json_contracts.schema.ecma_classes import WORD as _WORD
from json_contracts.schema.ecma_classes import Ranges, complement_ranges, merge_ranges

__all__ = ["MAX_REPEAT", "Linear", "property_ranges", "translate"]

#: RE2's largest counted repeat.
MAX_REPEAT = 1000

_SURROGATES = (0xD800, 0xDFFF)

_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|/")
_HEX = frozenset("0123456789abcdefABCDEF")


@dataclass(frozen=True, slots=True)
class Linear:
    """An RE2 pattern with the ECMA-262 pattern's matches.

    ``surrogate_exact`` is false when a ``\\p{…}`` class is involved: ``regress`` cannot be asked
    whether a lone surrogate has a property, so text holding one must not take this path.
    """

    source: str
    surrogate_exact: bool


class _Untranslatable(Exception):
    """The pattern uses something RE2 cannot express exactly."""


def translate(pattern: str) -> Linear | None:
    """The RE2 form of an ECMA-262 pattern ``regress`` accepted, or None if it has none."""
    parser = _Parser(pattern)
    try:
        source = parser.disjunction()
    except (_Untranslatable, IndexError):
        return None
    if parser.at < len(pattern):  # a stray ")": regress would have refused it
        return None
    return Linear(source, not parser.uses_property)


class _Parser:
    """Recursive descent over the ECMA-262 grammar, writing RE2 text as it goes."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.at = 0
        self.uses_property = False

    def _peek(self, offset: int = 0) -> str:
        index = self.at + offset
        return self.pattern[index] if index < len(self.pattern) else ""

    def _take(self) -> str:
        char = self.pattern[self.at]
        self.at += 1
        return char

    def disjunction(self) -> str:
        alternatives = [self._alternative()]
        while self._peek() == "|":
            self.at += 1
            alternatives.append(self._alternative())
        return "|".join(alternative or "(?:)" for alternative in alternatives)

    def _alternative(self) -> str:
        terms: list[str] = []
        while self._peek() not in ("", "|", ")"):
            terms.append(self._term())
        return "".join(terms)

    def _term(self) -> str:
        char = self._peek()
        if char in ("^", "$"):
            self.at += 1
            return self._no_quantifier(char)
        if char == "\\" and self._peek(1) in ("b", "B"):
            self.at += 2
            return self._no_quantifier("\\" + self.pattern[self.at - 1])
        return self._quantified(self._atom())

    def _no_quantifier(self, assertion: str) -> str:
        if self._peek() in ("*", "+", "?", "{"):
            raise _Untranslatable
        return assertion

    def _atom(self) -> str:
        char = self._take()
        if char == "(":
            return self._group()
        if char == ".":
            return _class(complement_ranges(_LINE_TERMINATORS))
        if char == "[":
            return _class(self._class_body())
        if char == "\\":
            return _class(self._escape())
        if char in _SYNTAX_CHARACTERS - {"/"} or _is_surrogate(ord(char)):
            raise _Untranslatable  # ECMA-262 Unicode mode refuses these as literals anyway
        return _literal(ord(char))

    def _group(self) -> str:
        if self._peek() == "?":
            if self._peek(1) == ":":
                self.at += 2
            elif self._peek(1) == "<" and self._peek(2) not in ("=", "!"):
                end = self.pattern.index(">", self.at)  # a named group: the name does not matter here
                self.at = end + 1
            else:
                raise _Untranslatable  # a lookaround or a modifier
        body = self.disjunction()
        if self._take() != ")":
            raise _Untranslatable
        return f"(?:{body})"

    def _quantified(self, atom: str) -> str:
        char = self._peek()
        if char in ("*", "+", "?"):
            self.at += 1
            quantifier = char
        elif char == "{":
            quantifier = self._counted()
        else:
            return atom
        if self._peek() == "?":  # lazy: the same strings match
            self.at += 1
        return atom + quantifier

    def _counted(self) -> str:
        close = self.pattern.find("}", self.at)
        if close < 0:
            raise _Untranslatable
        low, comma, high = self.pattern[self.at + 1 : close].partition(",")
        if not low.isascii() or not low.isdigit() or (high and not (high.isascii() and high.isdigit())):
            raise _Untranslatable
        if len(low) > 4 or len(high) > 4 or int(low) > MAX_REPEAT or (high and int(high) > MAX_REPEAT):
            raise _Untranslatable
        if high and int(low) > int(high):
            raise _Untranslatable
        self.at = close + 1
        return "{" + str(int(low)) + (comma and ",") + (str(int(high)) if high else "") + "}"

    def _class_body(self) -> Ranges:
        negated = self._peek() == "^"
        if negated:
            self.at += 1
        ranges: list[tuple[int, int]] = []
        while self._peek() != "]":
            first = self._class_atom()
            if self._peek() == "-" and self._peek(1) not in ("]", ""):
                self.at += 1
                last = self._class_atom()
                if not isinstance(first, int) or not isinstance(last, int) or first > last:
                    raise _Untranslatable
                ranges.append((first, last))
            elif isinstance(first, int):
                ranges.append((first, first))
            else:
                ranges.extend(first)
        self.at += 1
        merged = merge_ranges(ranges)
        return complement_ranges(merged) if negated else merged

    def _class_atom(self) -> int | Ranges:
        char = self._take()
        if char == "\\":
            if self._peek() == "b":
                self.at += 1
                return 0x08
            if self._peek() == "-":
                self.at += 1
                return ord("-")
            escaped = self._escape()
            return escaped[0][0] if len(escaped) == 1 and escaped[0][0] == escaped[0][1] else escaped
        if _is_surrogate(ord(char)):
            raise _Untranslatable
        return ord(char)

    def _escape(self) -> Ranges:
        """The code points of what follows a backslash (``\\b`` and ``\\B`` are handled by the caller)."""
        char = self._take()
        sets = {"d": _DIGIT, "w": _WORD, "s": _SPACE}
        if char.lower() in sets:
            chosen = sets[char.lower()]
            return chosen if char.islower() else complement_ranges(chosen)
        if char in ("p", "P"):
            return self._property(char)
        code = self._character_escape(char)
        return ((code, code),)

    def _character_escape(self, char: str) -> int:
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "c":
            letter = self._take()
            if not ("a" <= letter.lower() <= "z"):
                raise _Untranslatable
            return ord(letter) % 32
        if char == "0" and not (self._peek() and self._peek() in "0123456789"):  # not isdigit(): U+0661
            return 0
        if char == "x":
            return self._hex(2)
        if char == "u":
            return self._unicode_escape()
        if char in _SYNTAX_CHARACTERS:
            return ord(char)
        raise _Untranslatable  # backreferences (\1, \k<name>) and anything unknown

    def _hex(self, count: int) -> int:
        digits = self.pattern[self.at : self.at + count]
        if len(digits) != count or not set(digits) <= _HEX:
            raise _Untranslatable
        self.at += count
        return int(digits, 16)

    def _unicode_escape(self) -> int:
        if self._peek() == "{":
            close = self.pattern.find("}", self.at)
            digits = self.pattern[self.at + 1 : close] if close > 0 else ""
            if not digits or not set(digits) <= _HEX:
                raise _Untranslatable
            self.at = close + 1
            value = int(digits, 16)
            if value > _MAX_CODE_POINT:
                raise _Untranslatable
            return value
        value = self._hex(4)
        if 0xD800 <= value <= 0xDBFF and self.pattern.startswith("\\u", self.at):
            trail = self.pattern[self.at + 2 : self.at + 6]
            if len(trail) == 4 and set(trail) <= _HEX and 0xDC00 <= int(trail, 16) <= 0xDFFF:
                self.at += 6
                return 0x10000 + ((value - 0xD800) << 10) + (int(trail, 16) - 0xDC00)
        return value

    def _property(self, kind: str) -> Ranges:
        if self._peek() != "{":
            raise _Untranslatable
        close = self.pattern.find("}", self.at)
        name = self.pattern[self.at + 1 : close] if close > 0 else ""
        if not name or not all(c.isascii() and (c.isalnum() or c in "_=") for c in name):
            raise _Untranslatable
        self.at = close + 1
        self.uses_property = True
        return _property_ranges(f"\\{kind}{{{name}}}")


def _is_surrogate(code: int) -> bool:
    return _SURROGATES[0] <= code <= _SURROGATES[1]


def _literal(code: int) -> str:
    char = chr(code)
    return char if char.isascii() and char.isalnum() else f"\\x{{{code:X}}}"


def _class(ranges: Ranges) -> str:
    if not ranges:
        return f"[^\\x00-\\x{{{_MAX_CODE_POINT:X}}}]"  # ECMA-262's [] matches nothing
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _literal(ranges[0][0])
    parts = (f"\\x{{{low:X}}}" if low == high else f"\\x{{{low:X}}}-\\x{{{high:X}}}" for low, high in ranges)
    return "[" + "".join(parts) + "]"


@lru_cache(maxsize=1)
def _every_code_point() -> str:
    """Every code point but the surrogates, in order (4.4 MB, kept while properties are read)."""
    codes = array("I", range(_SURROGATES[0]))
    codes.extend(range(_SURROGATES[1] + 1, _MAX_CODE_POINT + 1))
    return codes.tobytes().decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be")


@lru_cache(maxsize=128)
def _property_ranges(escape: str) -> Ranges:
    """The code points ``regress`` gives a ``\\p{…}`` escape, as runs of one scan of the code space.

    Surrogates are left out: a pattern with a property is not used for text holding one.
    """
    try:
        runs = regress.Regex(escape + "+", "u").find_iter(_every_code_point()) or ()
    except regress.RegressError:
        raise _Untranslatable from None
    ranges: list[tuple[int, int]] = []
    for run in runs:
        span = run.range()
        first, last = _code_point_at(span.start), _code_point_at(span.stop - 1)
        if first < _SURROGATES[0] <= last:
            ranges.extend([(first, _SURROGATES[0] - 1), (_SURROGATES[1] + 1, last)])
        else:
            ranges.append((first, last))
    return merge_ranges(ranges)


def property_ranges(escape: str) -> Ranges | None:
    """The code points of a ``\\p{…}`` or ``\\P{…}`` escape as ``regress`` reads it (surrogates left out),
    or None for a property it does not know; for the string generator, which must agree with it."""
    try:
        return _property_ranges(escape)
    except _Untranslatable:
        return None


def _code_point_at(byte_offset: int) -> int:
    """The code point whose UTF-8 encoding in :func:`_every_code_point` covers ``byte_offset``."""
    if byte_offset < 0x80:
        return byte_offset
    if byte_offset < 0x80 + 0x780 * 2:
        return 0x80 + (byte_offset - 0x80) // 2
    three_start = 0x80 + 0x780 * 2
    three_count = (0x10000 - 0x800) - (_SURROGATES[1] - _SURROGATES[0] + 1)
    if byte_offset < three_start + three_count * 3:
        index = 0x800 + (byte_offset - three_start) // 3
        return index if index < _SURROGATES[0] else index + (_SURROGATES[1] - _SURROGATES[0] + 1)
    return 0x10000 + (byte_offset - three_start - three_count * 3) // 4
