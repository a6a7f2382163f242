"""ECMA-262 ``pattern`` rewritten for Python's ``re``, for drawing strings with Hypothesis's ``from_regex``.

Generation only: a drawn string is still checked by the ECMA-262 engine (:mod:`json_contracts.schema.patterns`),
so a translation that matches a subset of what the pattern matches costs coverage, never correctness,
while one that matches more costs filtering. The pattern is read as ECMA-262 in Unicode mode (as Ajv
compiles it and our validator matches it) and every character set is spelled out as code points, so
Python's own meanings never leak in:

* ``.`` is any code point but ``\\n``, ``\\r``, U+2028 and U+2029; ``\\d`` and ``\\w`` are ASCII; ``\\s``
  is ECMA-262's white space and line terminators (U+FEFF, U+00A0, the Zs spaces, …); ``[^]`` is any
  code point and ``[]`` none;
* ``^`` and ``$`` are the very start and end (Python's ``$`` would also match before a final ``\\n``),
  kept only where they can hold (see below); ``\\b``/``\\B`` are ASCII word boundaries;
* ``\\cX``, ``\\0``, ``\\xHH``, ``\\uHHHH`` (a surrogate pair of them is one code point), ``\\u{…}`` and the
  identity escapes (``\\/``, ``\\-`` in a class) become the code points they name;
* ``\\p{…}``/``\\P{…}`` (general categories, scripts, binary properties), also inside a class, take
  the code points ``regress`` gives them, so the Unicode version is the validator's;
* named groups become numbered ones and ``\\k<name>`` a numbered reference; a reference to a group
  that has not closed yet matches the empty string, as in ECMA-262; lookarounds are kept (a
  lookbehind Python cannot express, one of varying width, leaves the pattern untranslated).

A class of more than :data:`CLASS_BUDGET` code points whose complement is also that large
(``\\p{L}``) is drawn from a subset spread over its ranges: Hypothesis lists a class code point by
code point, and every drawn string still matches.

Hypothesis draws an anchor as nothing wherever it stands, then checks each drawn string with
Python's backtracking ``re``: a ``^`` drawn after a letter, or a ``$`` before one, gave a string the
translation refuses, and under a nested repetition (``^(?:a+|b$)+$``) refusing it took exponential
time, so drawing never ended. So a ``^`` is kept only where nothing can have been drawn before it,
a ``$`` only where nothing can be drawn after it, and otherwise becomes :data:`NOTHING`; a
repetition around a kept anchor is cut to one turn (a second turn is never at the start), and an
optional part right after a ``$`` that may hold is left out. The translation then matches a subset
of the pattern (``^(?:a|^b)+$`` no longer matches ``"ba"``, ``a*^b`` nothing), which costs coverage
only. Inside a lookaround an anchor stays as it is. Lookarounds, ``\\b``/``\\B`` and references
can still give strings the translation refuses (Hypothesis does not draw them faithfully).

:data:`NOTHING` (also ``[]``) is a class of no code points: Hypothesis leaves out any alternative or
optional part that needs one, so such parts are never drawn and never rejected; a translation that
needs one on every path becomes :data:`MATCHES_NOTHING`.

A reference to a group that an enclosing
repetition has reset is the one place the translation can match more than ECMA-262 (Python keeps
the earlier repetition's text); the filter removes those strings.
"""

from __future__ import annotations

import re
import warnings
from functools import lru_cache

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from json_contracts.schema.ecma_classes import (
    DIGIT,
    LINE_TERMINATORS,
    MAX_CODE_POINT,
    SPACE,
    WORD,
    Ranges,
    complement_ranges,
    merge_ranges,
)
from json_contracts.schema.ecma_linear import property_ranges

__all__ = ["CLASS_BUDGET", "MATCHES_NOTHING", "NOTHING", "python_pattern"]

#: The most code points a translated class lists; a larger one is drawn from a subset of this size.
CLASS_BUDGET = 8192
# Longer patterns are not translated (their strings are drawn as any text and filtered).
_MAX_PATTERN = 100_000
# Nor are translations longer than this: Unicode classes make short patterns long (``\p{L}`` is some
# 13,000 characters of Python text), and ``re`` and Hypothesis compile 25 MB in about a minute.
_MAX_TRANSLATION = 1_000_000

_CONTROL_ESCAPES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|/")
_HEX = frozenset("0123456789abcdefABCDEF")
_ASCII_DIGITS = frozenset("0123456789")
_SETS = {"d": DIGIT, "w": WORD, "s": SPACE}
_DOT = complement_ranges(LINE_TERMINATORS)
#: A class of no code points, which Hypothesis cannot draw from and so leaves out (see the module docstring).
NOTHING = r"[^\s\S]"
#: The translation of a pattern that matches nothing on any path (``a^b``, ``^[]$``, ``$ref``).
MATCHES_NOTHING = "(?!)"
# Placeholders for what is decided once the whole pattern is read: a $ (kept or not) and the
# quantifier of a repetition around one (cut to one turn if the $ is kept). Raw NUL never
# appears otherwise: every other character is written as an escape.
_PLACEHOLDER = re.compile("\x00([eq])([0-9]+)\x00")


class _Untranslatable(Exception):
    """The pattern uses something this translation does not know (the caller returns None)."""


@lru_cache(maxsize=256)
def python_pattern(pattern: str) -> str | None:
    """The ECMA-262 ``pattern`` as a Python ``re`` pattern matching the same strings (or a subset of
    them), or None when Python cannot express it."""
    if len(pattern) > _MAX_PATTERN:
        return None
    try:
        candidate = "(?a)" + _Translator(pattern).translate()  # (?a): \b and \B are ASCII, as in ECMA-262
        if len(candidate) > _MAX_TRANSLATION:
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(candidate)
    except (_Untranslatable, IndexError, ValueError, re.error, RecursionError, OverflowError):
        return None
    try:
        # The alphabet strings are drawn from (strategies._UTF8): Hypothesis's default, codec="utf-8",
        # encodes all 1.1 million code points once per process (~1 s, ~200 MB).
        st.from_regex(candidate, alphabet=st.characters(exclude_categories=["Cs"])).validate()
    except InvalidArgument:  # Hypothesis's IncompatibleWithAlphabet: NOTHING is needed on every path
        return MATCHES_NOTHING
    return candidate


class _Translator:
    """Recursive descent over the ECMA-262 grammar (Unicode mode), writing Python ``re`` text.

    ``regress`` has already accepted the pattern, so this reads it leniently: whatever it does not
    recognise makes the whole pattern untranslated rather than guessed at.
    """

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.at = 0
        self.groups = 0  # capturing groups opened so far (ECMA-262 and Python number them alike)
        self.closed: set[int] = set()
        self.names: dict[str, int] = {}
        # Where the anchors can hold (see the module docstring):
        self.at_start = True  # nothing can have been drawn on the way here
        self.lookaround = 0  # depth of lookarounds, where anchors are kept as they are
        self.drawn = 0  # atoms read so far that Hypothesis draws text for
        self.starts = 0  # ^ kept so far
        self.ends = 0  # $ read so far (their numbers)
        self.open_ends: set[int] = set()  # $ on the way here with nothing drawn since
        self.dead_ends: set[int] = set()  # $ followed by something drawn
        self.cuts: dict[int, tuple[str, str, range]] = {}  # quantifier, cut to one turn, the $ it depends on

    def translate(self) -> str:
        result = self._disjunction()
        if self.at != len(self.pattern):
            raise _Untranslatable  # a stray ")"
        return _PLACEHOLDER.sub(self._decided, result)

    def _decided(self, match: re.Match[str]) -> str:
        number = int(match[2])
        if match[1] == "e":
            return NOTHING if number in self.dead_ends else r"\Z"
        quantifier, cut, ends = self.cuts[number]
        return cut if any(end not in self.dead_ends for end in ends) else quantifier

    def _peek(self, offset: int = 0) -> str:
        index = self.at + offset
        return self.pattern[index] if index < len(self.pattern) else ""

    def _take(self) -> str:
        char = self.pattern[self.at]
        self.at += 1
        return char

    def _disjunction(self) -> str:
        at_start, open_ends = self.at_start, set(self.open_ends)
        alternatives: list[str] = []
        still_at_start, still_open = True, set[int]()
        while True:
            self.at_start, self.open_ends = at_start, set(open_ends)
            alternatives.append(self._alternative())
            still_at_start, still_open = still_at_start and self.at_start, still_open | self.open_ends
            if self._peek() != "|":
                break
            self.at += 1
        self.at_start, self.open_ends = still_at_start, still_open - self.dead_ends
        return "|".join(alternatives)

    def _alternative(self) -> str:
        terms: list[str] = []
        while self._peek() not in ("", "|", ")"):
            terms.append(self._term())
        return "".join(terms)

    def _term(self) -> str:
        char = self._peek()
        if char == "^":
            self.at += 1
            if self.lookaround or self.at_start:
                self.starts += not self.lookaround
                return r"\A"
            return NOTHING  # something is drawn before it: it cannot hold
        if char == "$":
            self.at += 1
            if self.lookaround:
                return r"\Z"
            self.open_ends.add(self.ends)
            self.ends += 1
            return f"\x00e{self.ends - 1}\x00"
        if char == "\\" and self._peek(1) in ("b", "B"):
            self.at += 2
            return "\\" + self.pattern[self.at - 1]
        drawn, starts, ends, open_ends = self.drawn, self.starts, self.ends, set(self.open_ends)
        at_start, dead_ends = self.at_start, set(self.dead_ends)
        atom = self._atom()
        quantifier, low, high = self._quantifier()
        if high != 0 and self.drawn > drawn and low == 0 and open_ends:
            # optional after a $ that may hold: left out, so the $ stays (whatever its body decided)
            self.at_start, self.open_ends, self.dead_ends = at_start, open_ends, dead_ends | set(range(ends, self.ends))
            return f"(?:{atom}){{0}}"
        if high != 0 and self.drawn > drawn:  # text may be drawn here: no ^ after it, no $ before it
            self.at_start = False
            self.dead_ends |= open_ends
            self.open_ends -= open_ends
        if high is not None and high <= 1:
            return atom + quantifier
        lazy = "?" if quantifier.endswith("?") else ""
        cut = "?" + lazy if low == 0 else "" if low == 1 else quantifier + NOTHING
        if self.starts > starts:  # a second turn is never at the start
            return atom + cut
        if self.ends > ends:  # a turn after a kept $ would draw after it
            self.cuts[len(self.cuts)] = (quantifier, cut, range(ends, self.ends))
            return f"{atom}\x00q{len(self.cuts) - 1}\x00"
        return atom + quantifier

    def _quantifier(self) -> tuple[str, int, int | None]:
        """The quantifier's text and its least and most turns (None: no limit)."""
        char = self._peek()
        if char in ("*", "+", "?"):
            self.at += 1
            quantifier = char
            low, high = (0 if char != "+" else 1), (1 if char == "?" else None)
        elif char == "{":
            close = self.pattern.find("}", self.at)
            least, comma, most = self.pattern[self.at + 1 : close].partition(",") if close > 0 else ("", "", "")
            if not least or not set(least) <= _ASCII_DIGITS or not set(most) <= _ASCII_DIGITS:
                raise _Untranslatable  # str.isdigit() would take "²" for a count
            self.at = close + 1
            quantifier = "{" + least + comma + most + "}"
            low, high = int(least), (int(most) if most else None if comma else int(least))
        else:
            return "", 1, 1
        if self._peek() == "?":
            self.at += 1
            quantifier += "?"
        return quantifier, low, high

    def _atom(self) -> str:
        char = self._take()
        if char == "(":
            return self._group()
        self.drawn += 1
        if char == ".":
            return _class(_DOT)
        if char == "[":
            return _class(self._class_body())
        if char == "\\":
            return self._atom_escape()
        if char in _SYNTAX_CHARACTERS - {"/"}:
            raise _Untranslatable  # Unicode mode refuses these as literals; regress would have
        return _literal(ord(char))

    def _group(self) -> str:
        name = None
        if self._peek() == "?":
            opener = next((o for o in ("?:", "?=", "?!", "?<=", "?<!") if self.pattern.startswith(o, self.at)), None)
            if opener is not None:  # not capturing: the same syntax in Python
                self.at += len(opener)
                if opener != "?:":
                    return self._lookaround(opener)
                body = self._disjunction()
                self._close()
                return f"({opener}{body})"
            if self._peek(1) != "<":
                raise _Untranslatable  # a modifier group, which Ajv's ECMA-262 lacks
            end = self.pattern.index(">", self.at)
            name = self.pattern[self.at + 2 : end]
            self.at = end + 1
        self.groups += 1
        number = self.groups
        body = self._disjunction()
        self._close()
        self.closed.add(number)
        if name is not None:
            self.names[name] = number  # Python's names are narrower than ECMA-262's: numbers only
        return f"({body})"

    def _lookaround(self, opener: str) -> str:
        """A lookaround matches no text, but Hypothesis draws a positive one's body as text (and a
        negative one as nothing), so only a positive one counts as drawn; anchors inside stay."""
        at_start, open_ends, drawn = self.at_start, set(self.open_ends), self.drawn
        self.lookaround += 1
        body = self._disjunction()
        self._close()
        self.lookaround -= 1
        self.at_start, self.open_ends = at_start, open_ends
        if "!" in opener:
            self.drawn = drawn
        return f"({opener}{body})"

    def _close(self) -> None:
        if self._peek() != ")":
            raise _Untranslatable
        self.at += 1

    def _atom_escape(self) -> str:
        char = self._peek()
        if char == "k" and self._peek(1) == "<":
            end = self.pattern.index(">", self.at)
            name = self.pattern[self.at + 2 : end]
            self.at = end + 1
            return self._reference(self.names.get(name))
        if char in _ASCII_DIGITS and char != "0":
            start = self.at
            while self._peek() in _ASCII_DIGITS:
                self.at += 1
            return self._reference(int(self.pattern[start : self.at]))
        return _class(self._escape())

    def _reference(self, number: int | None) -> str:
        """A back reference: to a group not closed yet it matches the empty string, as in ECMA-262."""
        if number is None or number not in self.closed:
            return "(?:)"
        if number > 99:
            raise _Untranslatable  # Python reads \100 as an octal escape
        self.drawn += 1
        return f"(?:\\{number})"

    def _class_body(self) -> Ranges:
        negated = self._peek() == "^"
        if negated:
            self.at += 1
        ranges: list[tuple[int, int]] = []
        while self._peek() != "]":
            if not self._peek():
                raise _Untranslatable
            first = self._class_atom()
            if self._peek() == "-" and self._peek(1) not in ("]", ""):
                self.at += 1
                last = self._class_atom()
                if not isinstance(first, int) or not isinstance(last, int) or first > last:
                    raise _Untranslatable  # [\d-z]: Unicode mode refuses it
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
        if char != "\\":
            return ord(char)
        if self._peek() == "b":
            self.at += 1
            return 0x08  # [\b] is a backspace
        if self._peek() == "-":
            self.at += 1
            return ord("-")
        escaped = self._escape()
        return escaped[0][0] if len(escaped) == 1 and escaped[0][0] == escaped[0][1] else escaped

    def _escape(self) -> Ranges:
        """The code points of what follows a backslash (assertions and references are the caller's)."""
        char = self._take()
        if char.lower() in _SETS:
            chosen = _SETS[char.lower()]
            return chosen if char.islower() else complement_ranges(chosen)
        if char in ("p", "P"):
            close = self.pattern.find("}", self.at)
            if self._peek() != "{" or close < 0:
                raise _Untranslatable
            ranges = property_ranges(self.pattern[self.at - 2 : close + 1])
            if ranges is None:
                raise _Untranslatable
            self.at = close + 1
            return ranges
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
        if char == "0" and self._peek() not in _ASCII_DIGITS:
            return 0
        if char == "x":
            return self._hex(2)
        if char == "u":
            return self._unicode_escape()
        if char in _SYNTAX_CHARACTERS:
            return ord(char)
        raise _Untranslatable

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
            if not digits or not set(digits) <= _HEX or int(digits, 16) > MAX_CODE_POINT:
                raise _Untranslatable
            self.at = close + 1
            return int(digits, 16)
        value = self._hex(4)
        if 0xD800 <= value <= 0xDBFF and self.pattern.startswith("\\u", self.at):
            trail = self.pattern[self.at + 2 : self.at + 6]
            if len(trail) == 4 and set(trail) <= _HEX and 0xDC00 <= int(trail, 16) <= 0xDFFF:
                self.at += 6
                return 0x10000 + ((value - 0xD800) << 10) + (int(trail, 16) - 0xDC00)
        return value


def _literal(code: int) -> str:
    char = chr(code)
    return char if char.isascii() and char.isalnum() else f"\\U{code:08x}"


def _size(ranges: Ranges) -> int:
    return sum(high - low + 1 for low, high in ranges)


def _listed(ranges: Ranges) -> str:
    return "".join(f"\\U{low:08x}" if low == high else f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges)


def _class(ranges: Ranges) -> str:
    """A Python class for exactly these code points, or for a subset of them when both they and
    their complement are too many to list (see the module docstring)."""
    if not ranges:
        return NOTHING  # ECMA-262's [] matches nothing
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _literal(ranges[0][0])
    if _size(ranges) <= CLASS_BUDGET:
        return f"[{_listed(ranges)}]"
    complement = complement_ranges(ranges)
    if not complement:
        return "(?s:.)"
    if _size(complement) <= CLASS_BUDGET:
        return f"[^{_listed(complement)}]"
    return f"[{_listed(_spread_subset(ranges))}]"


def _spread_subset(ranges: Ranges) -> Ranges:
    """At most :data:`CLASS_BUDGET` code points of ``ranges``, taken from as many of its ranges as
    the budget allows (a few from each), so every script of ``\\p{L}`` can still appear."""
    step = max(1, -(-len(ranges) // CLASS_BUDGET))
    chosen = ranges[::step]
    each = max(1, CLASS_BUDGET // len(chosen))
    return tuple((low, min(high, low + each - 1)) for low, high in chosen)
