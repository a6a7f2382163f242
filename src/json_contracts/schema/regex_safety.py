"""Spotting ``pattern`` regexes that take exponential or polynomial time on a backtracking engine.

The TypeScript server (Ajv, JavaScript's backtracking ``RegExp``) and most other validators run a
contract's patterns on a backtracking engine, so lint JC120 tells authors which patterns can stall
it. The pattern is parsed as ECMA-262 (Unicode mode, as Ajv compiles it) into a small tree, and
two kinds of ambiguity are looked for:

* **exponential**: a sub-pattern repeated without bound that can match the same text in more
  than one way, so each extra character doubles the ways to try: an inner repetition that a next
  repetition can continue (``(a+)+``, ``(\\w*)*``, ``(x[a-z]+)+``), or alternatives that match the
  same text, directly or split across repetitions (``(a|a)+``, ``(a|aa)+``);
* **polynomial of degree N**: N repetitions without bound in a row whose characters overlap and
  that nothing mandatory outside those characters separates, before something that can fail
  (``^\\d+\\d+$``, ``\\S+@\\S+\\.\\S+``). A pattern is searched, not matched whole: without a leading
  ``^`` the engine tries it at every position, which counts as one more repetition in front. A
  group with unbounded repetition inside, repeated a fixed number of times, adds that many
  (``(.*a){20}``).

Delimited repetition is linear and not flagged: in ``^[a-z0-9]+(-[a-z0-9]+)*$`` or ``(\\d+\\.)*``
the delimiter lies outside the repeated class, so each repetition has one place to end.

The analysis runs in time and memory linear in the pattern's length: every node is summarised
once, each summary holds a bounded number of character sets, alternatives are compared by sorting
rather than pairwise, and a pattern nested deeper than :data:`MAX_GROUP_DEPTH` groups is reported
as too deep to analyse instead of being walked. Character sets are exact code-point ranges;
``\\p{…}`` general categories come from :mod:`unicodedata` (exact in the Basic Multilingual Plane,
sampled beyond it) and other properties count as any character, which can only flag more.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from json_contracts._json.text import dumps
from json_contracts.schema.ecma_classes import DIGIT as _DIGIT
from json_contracts.schema.ecma_classes import LINE_TERMINATORS, Ranges, complement_ranges, merge_ranges
from json_contracts.schema.ecma_classes import MAX_CODE_POINT as _MAX
from json_contracts.schema.ecma_classes import SPACE as _SPACE
from json_contracts.schema.ecma_classes import WORD as _WORD

__all__ = ["MAX_GROUP_DEPTH", "BacktrackingRisk", "analyse_pattern", "backtracking_risk"]

#: Groups nested deeper than this are not walked (the analysis recurses once per group level).
MAX_GROUP_DEPTH = 32

# -- character sets: sorted, disjoint, non-adjacent inclusive ranges of code points ---------------

_ALL: Ranges = ((0, _MAX),)
_NONE: Ranges = ()
_LINE_BREAKS = LINE_TERMINATORS


class _Work:
    """Counts the steps of one analysis: the linear-time bound is tested on this count."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = 0


_WORK = _Work()


def _normalise(ranges: Iterable[tuple[int, int]]) -> Ranges:
    items = list(ranges)
    _WORK.steps += len(items) + 1
    return merge_ranges(items)


def _union(sets: Iterable[Ranges]) -> Ranges:
    distinct = dict.fromkeys(sets)  # a class written ten thousand times costs its size once
    return _normalise(r for ranges in distinct for r in ranges)


def _complement(ranges: Ranges) -> Ranges:
    _WORK.steps += len(ranges) + 1
    return complement_ranges(ranges)


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    _WORK.steps += 1
    if a == b or b == _ALL:  # the common cases (\S+ after \S+, the search's any character) cost nothing
        return a
    if a == _ALL:
        return b
    _WORK.steps += len(a) + len(b)
    result: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        low, high = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if low <= high:
            result.append((low, high))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(result)


def _overlaps(a: Ranges, b: Ranges) -> bool:
    if a is b:
        return bool(a)
    i = j = 0
    while i < len(a) and j < len(b):
        _WORK.steps += 1
        if a[i][0] <= b[j][1] and b[j][0] <= a[i][1]:
            return True
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return False


def _size(ranges: Ranges) -> int:
    return sum(high - low + 1 for low, high in ranges)


@lru_cache(maxsize=1024)
def _sample(ranges: Ranges) -> str:
    """A readable character of the set, for the attack sketch."""
    for char in "a0A_-.@ é":
        if _overlaps(ranges, ((ord(char), ord(char)),)):
            return char
    for low, high in ranges:
        if high >= 0x21 and low <= 0x7E:
            return chr(max(low, 0x21))
    low = ranges[0][0] if ranges else 0x21
    return chr(low) if not 0xD800 <= low <= 0xDFFF else "\ufffd"


# -- \p{…} sets --------------------------------------------------------------------------------------

_CATEGORY_NAMES = {
    "Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M",
    "Combining_Mark": "M", "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me",
    "Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
    "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
    "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C",
    "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co",
    "Unassigned": "Cn",
}  # fmt: skip


@lru_cache(maxsize=1)
def _categories() -> dict[str, Ranges]:
    """Code-point ranges of each general category: exact in the Basic Multilingual Plane, sampled
    every 64 code points beyond it (enough to tell which sets overlap)."""
    found: dict[str, list[tuple[int, int]]] = {}
    previous, start = "", 0
    for point in (*range(0x10000), *range(0x10000, _MAX + 1, 64)):
        category = unicodedata.category(chr(point))
        if category != previous:
            if previous:
                found.setdefault(previous, []).append((start, point - 1))
            previous, start = category, point
    found.setdefault(previous, []).append((start, _MAX))
    return {name: _normalise(ranges) for name, ranges in found.items()}


@lru_cache(maxsize=256)
def _property_set(name: str, *, negated: bool = False) -> Ranges:
    """The code points ``\\p{name}`` (or ``\\P{name}``) matches; for a property this analysis does not
    know, any character (so it can only flag more)."""
    if negated:
        ranges = _property_set(name)
        return _ALL if ranges == _ALL else _complement(ranges)
    value = name.split("=", 1)[1] if name.startswith(("gc=", "General_Category=")) else name
    value = _CATEGORY_NAMES.get(value, value)
    table = _categories()
    if value == "LC":
        return _union(table.get(c, _NONE) for c in ("Lu", "Ll", "Lt"))
    if len(value) == 1 and value.isupper():
        return _union(ranges for category, ranges in table.items() if category[0] == value)
    if value in table:
        return table[value]
    if value == "Cn":
        return _complement(_union(table.values()))
    known = {
        "ASCII": ((0, 0x7F),),
        "ASCII_Hex_Digit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
        "White_Space": _SPACE,
        "Alphabetic": _union(table.get(c, _NONE) for c in ("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Mn", "Mc")),
        "Uppercase": table.get("Lu", _NONE),
        "Lowercase": table.get("Ll", _NONE),
    }
    return known.get(value, _ALL)


# -- the tree ----------------------------------------------------------------------------------------

Kind = Literal["chars", "seq", "alt", "repeat", "group", "look", "assert", "backref"]


@dataclass(eq=False, slots=True)
class _Node:
    """A parsed sub-pattern with the summaries the checks read, computed once when it is built."""

    kind: Kind
    start: int
    end: int
    items: list[_Node] = field(default_factory=list)
    chars: Ranges = _NONE  # for "chars": the set; otherwise every character the node can consume
    low: int = 1
    high: int | None = 1
    anchor: str = ""  # for "assert": ^ $ b B
    nullable: bool = False  # can match the empty string
    succeeds: bool = False  # can match the empty string with no assertion that could fail
    first: Ranges = _NONE  # characters a non-empty match can start with
    needs: tuple[Ranges, ...] = ()  # sets a string over some set S must hit for the node to match it
    loops: bool = False  # contains a repetition without bound (outside lookarounds)


_NEEDS_KEPT = 3


def _merge_needs(*groups: tuple[Ranges, ...]) -> tuple[Ranges, ...]:
    """The smallest few sets of several need lists: a small set (a delimiter) is the one a repeated
    class most likely misses, and keeping fewer sets can only flag more, never hide a risk."""
    merged = {ranges: None for group in groups for ranges in group}
    _WORK.steps += len(merged) + 1
    return tuple(sorted(merged, key=_size)[:_NEEDS_KEPT])


def _summarise(node: _Node) -> _Node:
    """Fill in the summaries of a node from its children's (called once per node, bottom-up)."""
    _WORK.steps += len(node.items) + 1
    kind, items = node.kind, node.items
    if kind == "chars":
        node.first = node.chars
        node.needs = (node.chars,)
    elif kind in ("assert", "look", "backref"):
        node.nullable = True
        node.succeeds = kind == "backref"
        node.loops = False
        if kind == "look":
            node.chars = _NONE
    elif kind == "group":
        (body,) = items
        node.chars, node.first, node.needs = body.chars, body.first, body.needs
        node.nullable, node.succeeds, node.loops = body.nullable, body.succeeds, body.loops
    elif kind == "seq":
        node.chars = _union(item.chars for item in items)
        node.nullable = all(item.nullable for item in items)
        node.succeeds = all(item.succeeds for item in items)
        starts: list[Ranges] = []
        for item in items:
            starts.append(item.first)
            if not item.nullable:
                break
        node.first = _union(starts)
        node.needs = _merge_needs(*(item.needs for item in items))
        node.loops = any(item.loops for item in items)
    elif kind == "alt":
        node.chars = _union(item.chars for item in items)
        node.first = _union(item.first for item in items)
        node.nullable = any(item.nullable for item in items)
        node.succeeds = any(item.succeeds for item in items)
        # a string over S matches some branch only if S hits, for some branch, all its needs: so S
        # must at least hit the union of each branch's smallest need
        if node.nullable:
            node.needs = ()
        else:
            node.needs = (_union(item.needs[0] if item.needs else _ALL for item in items),)
        node.loops = any(item.loops for item in items)
    elif kind == "repeat":
        (body,) = items
        node.chars, node.first = body.chars, body.first
        node.nullable = node.low == 0 or body.nullable
        node.succeeds = node.low == 0 or body.succeeds
        node.needs = body.needs if node.low > 0 else ()
        node.loops = body.loops or (node.high is None and bool(body.chars))
    return node


# -- the parser ---------------------------------------------------------------------------------------


class _TooDeep(Exception):
    """Groups nest deeper than :data:`MAX_GROUP_DEPTH`."""


class _Malformed(Exception):
    """Not a pattern the regex compiler accepts (JC119 reports it; this analysis says nothing)."""


_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_CONTROL_ESCAPES = {"t": 9, "n": 10, "v": 11, "f": 12, "r": 13}
_CLASS_ESCAPES: dict[str, Ranges] = {"d": _DIGIT, "w": _WORD, "s": _SPACE}


class _Parser:
    """A lenient recursive-descent reader of ECMA-262 patterns (Unicode mode): whatever it does not
    recognise it reads as a literal, since the regex compiler has already refused malformed patterns."""

    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.at = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> str:
        index = self.at + offset
        return self.text[index] if index < len(self.text) else ""

    def parse(self) -> _Node:
        node = self.disjunction()
        if self.at < len(self.text):  # an unmatched ")"
            raise _Malformed
        return node

    def disjunction(self) -> _Node:
        start = self.at
        branches = [self.alternative()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.alternative())
        if len(branches) == 1:
            return branches[0]
        return _summarise(_Node("alt", start, self.at, branches))

    def alternative(self) -> _Node:
        start = self.at
        terms: list[_Node] = []
        while self.at < len(self.text) and self.peek() not in "|)":
            terms.append(self.term())
        return _summarise(_Node("seq", start, self.at, terms))

    def term(self) -> _Node:
        start = self.at
        atom = self.atom()
        bounds = self.quantifier()
        if bounds is None:
            return atom
        low, high = bounds
        if self.peek() == "?":
            self.at += 1
        return _summarise(_Node("repeat", start, self.at, [atom], low=low, high=high))

    def quantifier(self) -> tuple[int, int | None] | None:
        char = self.peek()
        if char in ("*", "+", "?") and char:
            self.at += 1
            return {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        if char != "{":
            return None
        end = self.text.find("}", self.at)
        body = self.text[self.at + 1 : end] if end > 0 else ""
        low_text, comma, high_text = body.partition(",")
        if not low_text.isdigit() or (high_text and not high_text.isdigit()) or not body.isascii():
            return None
        self.at = end + 1
        low = int(low_text) if len(low_text) < 10 else 10**9
        high = low if not comma else (int(high_text) if len(high_text) < 10 else 10**9) if high_text else None
        return low, high

    def atom(self) -> _Node:
        start, char = self.at, self.peek()
        if char == "(":
            return self.group()
        if char in "^$":
            self.at += 1
            return _summarise(_Node("assert", start, self.at, anchor=char))
        if char == ".":
            self.at += 1
            return self.chars(start, _complement(_LINE_BREAKS))
        if char == "[":
            return self.chars(start, self.char_class())
        if char == "\\":
            return self.escape()
        self.at += 1
        point = ord(char)
        if 0xD800 <= point <= 0xDBFF and 0xDC00 <= ord(self.peek() or "\0") <= 0xDFFF:
            point = 0x10000 + ((point - 0xD800) << 10) + ord(self.peek()) - 0xDC00
            self.at += 1
        return self.chars(start, ((point, point),))

    def chars(self, start: int, ranges: Ranges) -> _Node:
        return _summarise(_Node("chars", start, self.at, chars=ranges))

    def group(self) -> _Node:
        start = self.at
        self.depth += 1
        if self.depth > MAX_GROUP_DEPTH:
            raise _TooDeep
        look = None
        for opener in ("(?<=", "(?<!", "(?=", "(?!", "(?:"):
            if self.text.startswith(opener, self.at):
                self.at += len(opener)
                look = opener
                break
        else:
            self.at += 1
            if self.peek() == "?" and self.peek(1) == "<":  # a named group: (?<name>…)
                close = self.text.find(">", self.at)
                if close < 0:
                    raise _Malformed
                self.at = close + 1
        body = self.disjunction()
        if self.peek() != ")":
            raise _Malformed
        self.at += 1
        self.depth -= 1
        kind: Kind = "look" if look not in (None, "(?:") else "group"
        return _summarise(_Node(kind, start, self.at, [body]))

    def escape(self) -> _Node:
        start = self.at
        self.at += 1
        char = self.peek()
        if not char:
            raise _Malformed
        if char in "bB":
            self.at += 1
            return _summarise(_Node("assert", start, self.at, anchor=char))
        if char in "123456789" or (char == "k" and self.peek(1) == "<"):
            if char == "k":
                close = self.text.find(">", self.at)
                self.at = close + 1 if close > 0 else len(self.text)
            else:
                while self.peek() and self.peek() in "0123456789":  # not isdigit(): a U+0661 after it is a literal
                    self.at += 1
            return _summarise(_Node("backref", start, self.at))
        return self.chars(start, self.class_escape())

    def class_escape(self) -> Ranges:
        """The set one escape (after its backslash) matches, inside or outside a class."""
        char = self.peek()
        self.at += 1
        lower = char.lower()
        if lower in _CLASS_ESCAPES:
            ranges = _CLASS_ESCAPES[lower]
            return _complement(ranges) if char.isupper() else ranges
        if lower == "p" and self.peek() == "{":
            close = self.text.find("}", self.at)
            if close < 0:
                raise _Malformed
            ranges = _property_set(self.text[self.at + 1 : close], negated=char == "P")
            self.at = close + 1
            return ranges
        point = self.character_escape(char)
        return ((point, point),)

    def character_escape(self, char: str) -> int:
        """The code point a character escape names (``\\n``, ``\\cJ``, ``\\x41``, ``\\u{1F600}``, ``\\.``)."""
        if char in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[char]
        if char == "c" and self.peek().isascii() and self.peek().isalpha():
            self.at += 1
            return ord(self.text[self.at - 1]) % 32
        if char == "0" and not (self.peek() and self.peek() in "0123456789"):
            return 0
        if char == "x":
            return self.hex_digits(2) if self._is_hex(2) else ord("x")
        if char == "u":
            if self.peek() == "{":
                close = self.text.find("}", self.at)
                digits = self.text[self.at + 1 : close] if close > 0 else ""
                if digits and len(digits) <= 8 and all(c in "0123456789abcdefABCDEF" for c in digits):
                    self.at = close + 1
                    return min(int(digits, 16), _MAX)
                raise _Malformed
            if not self._is_hex(4):
                return ord("u")
            point = self.hex_digits(4)
            if 0xD800 <= point <= 0xDBFF and self.text.startswith("\\u", self.at):
                self.at += 2
                if self._is_hex(4):
                    low = int(self.text[self.at : self.at + 4], 16)
                    if 0xDC00 <= low <= 0xDFFF:
                        self.at += 4
                        return 0x10000 + ((point - 0xD800) << 10) + low - 0xDC00
                self.at -= 2
            return point
        return ord(char)

    def _is_hex(self, count: int) -> bool:
        digits = self.text[self.at : self.at + count]
        return len(digits) == count and all(c in "0123456789abcdefABCDEF" for c in digits)

    def hex_digits(self, count: int) -> int:
        self.at += count
        return int(self.text[self.at - count : self.at], 16)

    def char_class(self) -> Ranges:
        """The set ``[…]`` matches, reading ranges, escapes (``[\\b]`` is a backspace) and ``[^]``."""
        self.at += 1
        negate = self.peek() == "^"
        self.at += negate
        parts: list[tuple[int, int]] = []
        while self.peek() != "]":
            if not self.peek():
                raise _Malformed
            low = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", "") and len(low) == 1 and low[0][0] == low[0][1]:
                self.at += 1
                high = self.class_atom()
                if len(high) == 1 and high[0][0] == high[0][1] and high[0][0] >= low[0][0]:
                    parts.append((low[0][0], high[0][0]))
                    continue
                parts += [*low, (ord("-"), ord("-")), *high]
                continue
            parts += low
        self.at += 1
        ranges = _normalise(parts)
        return _complement(ranges) if negate else ranges

    def class_atom(self) -> Ranges:
        char = self.peek()
        if char == "\\":
            self.at += 1
            if self.peek() == "b":
                self.at += 1
                return ((8, 8),)
            if not self.peek():
                raise _Malformed
            return self.class_escape()
        self.at += 1
        point = ord(char)
        if 0xD800 <= point <= 0xDBFF and 0xDC00 <= ord(self.peek() or "\0") <= 0xDFFF:
            point = 0x10000 + ((point - 0xD800) << 10) + ord(self.peek()) - 0xDC00
            self.at += 1
        return ((point, point),)


# -- the result ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BacktrackingRisk:
    """What JC120 reports about one pattern.

    ``kind`` is ``exponential``, ``polynomial`` (``degree`` ≥ 2: the time grows as the input's
    length to that power) or ``too-deep`` (not analysed); ``sub_pattern`` is the part to rewrite,
    ``attack`` a sketch of an input that stalls a backtracking engine, ``fix`` how to rewrite it.
    """

    kind: Literal["exponential", "polynomial", "too-deep"]
    degree: int | None
    sub_pattern: str
    pump: str  # the text a near-miss input repeats …
    rejected: str  # … before a character that makes the match fail
    fix: str
    shape: str

    @property
    def attack(self) -> str:
        """``"aaaa…!"``: a sketch of a near-miss input, as a JSON string."""
        if not self.pump:
            return ""
        return dumps(self.pump * max(2, 4 // len(self.pump)) + "…" + self.rejected, indent=None)

    @property
    def reason(self) -> str:
        """One clause naming the kind and the shape, as :func:`backtracking_risk` returns it."""
        if self.kind == "too-deep":
            return f"groups nested more than {MAX_GROUP_DEPTH} deep, too deep to analyse"
        time = "exponential time" if self.kind == "exponential" else f"polynomial time (degree {self.degree})"
        return f"{time}: {self.shape}"


_EXPONENTIAL_FIX = (
    "rewrite it so each repetition has one way to match: drop the inner quantifier (`(a+)+` is `a+`) "
    "or start each repetition with a delimiter the repeated part cannot match (`(-[a-z]+)*`)"
)
_ALTERNATIVES_FIX = (
    "make the alternatives match different text (no text matched by two of them, also across "
    "repetitions) or merge single characters into one class (`(a|b)+` is `[ab]+`)"
)
_POLYNOMIAL_FIX = (
    "exclude the separator from the repeated classes so each part has one place to end "
    "(`\\S+@\\S+` becomes `[^\\s@]+@[^\\s@]+`), bound the repetitions (`{1,64}`), or start the "
    "pattern with ^ when it should match from the start"
)
_SHOWN = 60


def _quote(text: str) -> str:
    shown = text if len(text) <= _SHOWN else text[:_SHOWN] + "…"
    return dumps(shown, indent=None)


def _rejected(pumped: Ranges) -> str:
    """A character outside the pumped set, to end a near-miss input with."""
    return next((c for c in "! 0a\n" if not _overlaps(pumped, ((ord(c), ord(c)),))), "")


# -- the checks -------------------------------------------------------------------------------------


def _repeats(node: _Node) -> Iterator[_Node]:
    """Every node of the tree (lookaround bodies included), parents first."""
    stack = [node]
    while stack:
        current = stack.pop()
        _WORK.steps += 1
        yield current
        stack.extend(reversed(current.items))


def _pump(loop: _Node) -> Ranges:
    """The characters a repetition's body consumes."""
    return loop.items[0].chars


def _inner_loops(
    node: _Node, before: tuple[Ranges, ...], after: tuple[Ranges, ...]
) -> Iterator[tuple[_Node, tuple[Ranges, ...], tuple[Ranges, ...]]]:
    """Each repetition without bound inside ``node`` (not inside lookarounds), with the needs of
    what must be matched between the start of ``node`` and it, and between it and the end."""
    _WORK.steps += 1
    if node.kind in ("group", "alt"):
        for item in node.items:
            yield from _inner_loops(item, before, after)
    elif node.kind == "seq":
        items = node.items
        suffix: list[tuple[Ranges, ...]] = [after] * (len(items) + 1)
        for index in range(len(items) - 1, -1, -1):
            suffix[index] = _merge_needs(items[index].needs, suffix[index + 1])
        prefix = before
        for index, item in enumerate(items):
            if item.loops:
                yield from _inner_loops(item, prefix, suffix[index + 1])
            prefix = _merge_needs(prefix, item.needs)
    elif node.kind == "repeat" and node.loops:
        if node.high is None and node.items[0].chars:
            yield node, before, after
        yield from _inner_loops(node.items[0], before, after)


def _unwrap(node: _Node) -> _Node:
    while node.kind == "group" or (node.kind == "seq" and len(node.items) == 1):
        node = node.items[0]
    return node


@dataclass
class _Profile:
    """A branch as its first few single characters, then (if more follows) what that starts with."""

    sets: list[Ranges]
    tail_first: Ranges | None  # None: the branch ends after ``sets``
    tail_nullable: bool


_PROFILE_LENGTH = 8


def _profile(branch: _Node) -> _Profile:
    items = branch.items if branch.kind == "seq" else [branch]
    sets: list[Ranges] = []
    for index, item in enumerate(items):
        _WORK.steps += 1
        if item.kind in ("assert", "look"):
            continue
        single = item if item.kind == "chars" else None
        count = 1
        if item.kind == "repeat" and item.items[0].kind == "chars" and item.low == item.high:
            single, count = item.items[0], item.low
        if single is not None and len(sets) + count <= _PROFILE_LENGTH:
            sets += [single.chars] * count
            continue
        rest = items[index:]
        starts: list[Ranges] = []
        for later in rest:
            starts.append(later.first)
            if not later.nullable:
                break
        return _Profile(sets, _union(starts), all(later.nullable for later in rest))
    return _Profile(sets, None, False)


def _components(members: list[tuple[int, Ranges]]) -> list[list[int]]:
    """Groups of members whose sets overlap, directly or through others (a sort and a sweep)."""
    parent = {member: member for member, _ in members}

    def root(member: int) -> int:
        while parent[member] != member:
            parent[member] = parent[parent[member]]
            member = parent[member]
        return member

    spans = sorted((low, high, member) for member, ranges in members for low, high in ranges)
    _WORK.steps += len(spans) + 1
    reach, holder = -1, -1
    for low, high, member in spans:
        if low <= reach:
            parent[root(member)] = root(holder)
        if high > reach:
            reach, holder = high, member
    groups: dict[int, list[int]] = {}
    for member, _ in members:
        groups.setdefault(root(member), []).append(member)
    return list(groups.values())


def _ambiguous_alternatives(alt: _Node, split: bool, delimited: bool = False) -> str | None:
    """Text two branches can both match (a sketch of it), or None.

    Branches are compared position by position on their profiles, partitioned by overlapping sets
    (never pairwise, so ten thousand branches cost a sort). Two branches that can end at the same
    position, or one that goes on with anything next to another, match the same text. ``split``:
    the alternation is a repetition's whole body, so a branch that ends where a longer one goes on
    with a character a next repetition can start with matches that text in two ways (``(a|aa)+``).
    ``delimited``: the alternation ends the repetition's body and the next repetition starts with
    a character no branch consumes (semver's ``(\\.(0|[1-9]\\d*|\\d*[a-z-][0-9a-z-]*))*``), so two
    ways through one repetition match the same text, and a branch that provably matches no text
    another matches (:func:`_without_disjoint`) is no longer taken to go on with anything.
    """
    profiles = [_profile(branch) for branch in alt.items]

    def text(member: int, upto: int) -> str:
        return "".join(_sample(ranges) for ranges in profiles[member].sets[:upto])

    pending: list[tuple[int, list[int]]] = [(0, list(range(len(profiles))))]
    while pending:
        position, members = pending.pop()
        _WORK.steps += len(members)
        if position >= _PROFILE_LENGTH:
            return text(members[0], position)
        ending: list[int] = []
        going: list[tuple[int, Ranges]] = []
        for member in members:
            profile = profiles[member]
            if position < len(profile.sets):
                going.append((member, profile.sets[position]))
                continue
            if profile.tail_first is not None:
                going.append((member, profile.tail_first))
            if position > 0 and (profile.tail_first is None or profile.tail_nullable):
                ending.append(member)
        if len(ending) >= 2:
            return text(ending[0], position)
        if delimited:
            going = _without_disjoint(alt, going, {m for m, _ in going if position >= len(profiles[m].sets)})
        sets = dict(going)
        for group in _components(going):
            opened = [m for m in group if position >= len(profiles[m].sets)]
            if len(group) >= 2 and opened:
                return text(opened[0], position) + _sample(sets[opened[0]])
            if split and ending:
                for member in group:
                    if _overlaps(sets[member], alt.first):
                        return text(member, position) + _sample(_intersect(sets[member], alt.first))
            if len(group) >= 2:
                pending.append((position + 1, group))
    return None


def _delimits(body: _Node, alt: _Node) -> bool:
    """Whether ``alt`` ends a repetition's ``body`` (a sequence) whose every repetition starts with a
    character ``alt`` never consumes, so one repetition's ``alt`` ends where the next one starts."""
    if body.kind != "seq" or not body.items or _unwrap(body.items[-1]) is not alt or _has_backref(alt):
        return False
    return bool(body.first) and not body.nullable and not _overlaps(body.first, alt.chars)


_PAIRS_COMPARED = 4096


def _without_disjoint(alt: _Node, going: list[tuple[int, Ranges]], opened: set[int]) -> list[tuple[int, Ranges]]:
    """``going`` without the branches past their profile (``opened``) that provably match no text
    another branch matches. Such a branch would otherwise count as matching anything the others
    match (``[1-9]\\d*`` beside ``\\d*[a-z]\\w*``). Past :data:`_PAIRS_COMPARED` pairs every
    branch is kept, which can only flag more."""
    if not opened or len(opened) * len(going) > _PAIRS_COMPARED:
        return going
    disjoint = {m for m in opened if not any(k != m and _may_share(alt.items[m], alt.items[k]) for k, _ in going)}
    return [(m, ranges) for m, ranges in going if m not in disjoint] if disjoint else going


def _may_share(a: _Node, b: _Node) -> bool:
    """Whether some text may match both ``a`` and ``b``: False only when one needs a character the
    other never consumes (then every text of the other lacks it). Neither may hold a back reference
    (it may match any character), which :func:`_delimits` makes sure of."""
    _WORK.steps += len(a.needs) + len(b.needs) + 1
    return all(_overlaps(need, a.chars) for need in b.needs) and all(_overlaps(need, b.chars) for need in a.needs)


def _has_backref(node: _Node) -> bool:
    return any(item.kind == "backref" for item in _repeats(node))


@dataclass
class _State:
    """An open chain of overlapping repetitions: their common characters, how many, and what the
    characters must still hit (the needs of repeated groups in it)."""

    common: Ranges
    count: int
    needs: tuple[Ranges, ...]
    start: int  # where its first explicit repetition starts; -1 for the unanchored search
    unit: str  # a sketch of the text each repetition shares


@dataclass
class _Worst:
    degree: int = 1
    start: int = 0
    end: int = 0
    unit: str = ""
    common: Ranges = _NONE
    unanchored: bool = False


_STATES_KEPT = 4
_MAX_DEGREE = 99


class _Chains:
    """Polynomial ambiguity: the longest chain of overlapping repetitions before something that can fail."""

    def __init__(self) -> None:
        self.worst = _Worst()

    def note(self, state: _State, end: int, can_fail: bool) -> None:
        if can_fail and state.count > self.worst.degree:
            unit = _sample(state.common) + state.unit
            self.worst = _Worst(min(state.count, _MAX_DEGREE), state.start, end, unit, state.common, state.start < 0)

    def run(self, node: _Node, states: list[_State], can_fail: bool) -> list[_State]:
        """The chains open after ``node``; ``can_fail``: what follows ``node`` can fail to match."""
        _WORK.steps += len(states) + 1
        kind = node.kind
        if kind == "chars":
            return [
                replace(s, unit=(s.unit + _sample(_intersect(s.common, node.chars)))[:12])
                for s in states
                if _overlaps(s.common, node.chars)
            ]
        if kind in ("assert", "backref"):
            return states
        if kind == "look":
            self.run(node.items[0], states, False)
            return states
        if kind == "group":
            return self.run(node.items[0], states, can_fail)
        if kind == "seq":
            items = node.items
            fails = [can_fail] * (len(items) + 1)
            for index in range(len(items) - 1, -1, -1):
                fails[index] = fails[index + 1] or not items[index].succeeds
            for index, item in enumerate(items):
                states = self.run(item, states, fails[index + 1])
            return states
        if kind == "alt":
            merged: list[_State] = []
            for branch in node.items:
                merged += self.run(branch, states, can_fail)
            return _keep(merged)
        return self.repeat(node, states, can_fail)

    def repeat(self, node: _Node, states: list[_State], can_fail: bool) -> list[_State]:
        body = node.items[0]
        bypass = states if node.low == 0 else []
        if node.high is None and body.chars:
            pump = body.chars
            group_needs = () if body.kind == "chars" else body.needs
            inner = [] if body.kind == "chars" else self.run(body, states, can_fail)
            links = []
            for state in states:
                common = _intersect(state.common, pump)
                needs = _merge_needs(state.needs, group_needs)
                if common and all(_overlaps(need, common) for need in needs):
                    links.append(_State(common, state.count + 1, needs, state.start, state.unit))
                    self.note(links[-1], node.end, can_fail)
            fresh = _State(pump, 1, group_needs, node.start, "")
            return _keep([*links, *bypass, *inner, fresh])
        if node.high == 0:
            return states
        once = self.run(body, states, can_fail)
        if node.high is not None and node.high >= 2 and body.loops:
            before = max((s.count for s in states), default=0)
            after = max((s.count for s in once), default=0)
            gain = after - before
            if gain >= 1:
                extra = min(gain * (node.high - 1), _MAX_DEGREE)
                once = [replace(s, count=min(s.count + extra, _MAX_DEGREE)) if s.count == after else s for s in once]
                # a mandatory later copy of the body can fail too: (.*a){20} fails on its twentieth "a"
                copies_fail = can_fail or (node.low >= 2 and not body.succeeds)
                for state in once:
                    self.note(state, node.end, copies_fail)
        return _keep([*bypass, *once])


def _keep(states: list[_State]) -> list[_State]:
    return sorted(states, key=lambda s: -s.count)[:_STATES_KEPT]


def _covers(node: _Node, pumped: Ranges) -> bool:
    """Whether ``node`` matches some text using only mandatory parts that take every character of
    ``pumped`` and no assertion that could fail: then any pumped character completes a match."""
    _WORK.steps += 1
    kind = node.kind
    if kind == "chars":
        return _intersect(pumped, node.chars) == pumped
    if kind in ("assert", "look"):
        return False
    if kind == "backref":
        return True
    if kind == "repeat":
        return node.low == 0 or _covers(node.items[0], pumped)
    if kind == "alt":
        return any(_covers(item, pumped) for item in node.items)
    return all(_covers(item, pumped) for item in node.items)


def _anchored(node: _Node) -> bool:
    """Whether every way to match starts with ``^`` (so the search tries only the first position)."""
    node = _unwrap(node)
    if node.kind == "alt":
        return all(_anchored(branch) for branch in node.items)
    if node.kind == "seq":
        for item in node.items:
            if item.kind == "look":
                continue
            return _anchored(item)
        return False
    return node.kind == "assert" and node.anchor == "^"


def _exponential(root: _Node, pattern: str) -> BacktrackingRisk | None:
    for node in _repeats(root):
        if node.kind != "repeat" or node.high is not None or not node.loops:
            continue
        body = node.items[0]
        for loop, before, after in _inner_loops(body, (), ()):
            pump = _pump(loop)
            if all(_overlaps(need, pump) for need in (*before, *after)):
                sub, repeated = pattern[node.start : node.end], pattern[loop.start : loop.end]
                return BacktrackingRisk(
                    "exponential",
                    None,
                    sub,
                    _sample(pump),
                    _rejected(pump),
                    _EXPONENTIAL_FIX,
                    f"the repeated {_quote(sub)} can go on repeating its inner {_quote(repeated)} or start a new "
                    "repetition, so it matches the same text in many ways",
                )
    for node in _repeats(root):
        if node.kind != "repeat" or node.high is not None:
            continue
        for inner in _repeats(node.items[0]):
            if inner.kind != "alt":
                continue
            body = _unwrap(node.items[0])
            split = inner is body
            shared = _ambiguous_alternatives(inner, split, _delimits(body, inner))
            if shared is not None:
                sub, repeated = pattern[inner.start : inner.end], pattern[node.start : node.end]
                return BacktrackingRisk(
                    "exponential",
                    None,
                    repeated,
                    shared,
                    _rejected(_normalise((ord(c), ord(c)) for c in shared)),
                    _ALTERNATIVES_FIX,
                    f"alternatives of {_quote(sub)} can match the same text, and {_quote(repeated)} repeats them",
                )
    return None


def analyse_pattern(pattern: str) -> BacktrackingRisk | None:
    """The worst backtracking risk of an ECMA-262 ``pattern``, or None (also for a malformed one,
    which the regex compiler reports as JC119)."""
    _WORK.steps = 0
    try:
        return _analyse(pattern)
    except (_TooDeep, RecursionError):  # a RecursionError only when called from very deep already
        return BacktrackingRisk(
            "too-deep", None, pattern[:_SHOWN], "", "", f"nest groups at most {MAX_GROUP_DEPTH} deep", ""
        )
    except (_Malformed, ValueError):
        return None


def _analyse(pattern: str) -> BacktrackingRisk | None:
    root = _Parser(pattern).parse()
    found = _exponential(root, pattern)
    if found:
        return found
    chains = _Chains()
    unanchored = not _anchored(root) and not root.succeeds
    search = [_State(_ALL, 1, (), -1, "")] if unanchored else []
    chains.run(root, search, False)
    worst = chains.worst
    if worst.unanchored and _covers(root, worst.common):
        # every character the chain repeats already completes a match at the first position
        # (``(\d+\.)*\d+``), so the search never moves on: only the chains of one attempt count
        chains = _Chains()
        chains.run(root, [], False)
        worst = chains.worst
    if worst.degree < 2:
        return None
    start, end = _widen(root, max(worst.start, 0), worst.end)
    sub = pattern[start:end]
    if worst.unanchored and worst.degree == 2:
        shape = (
            f"without a leading ^ the search starts again at every position, and {_quote(sub)} repeats "
            "the same characters from each"
        )
    elif worst.unanchored:
        shape = (
            f"without a leading ^ the search starts again at every position, and from each {_quote(sub)} has "
            f"{worst.degree - 1} repetitions in a row over the same characters"
        )
    else:
        shape = f"{_quote(sub)} has {worst.degree} repetitions in a row over the same characters"
    return BacktrackingRisk(
        "polynomial",
        worst.degree,
        sub,
        worst.unit,
        _rejected(worst.common),
        _POLYNOMIAL_FIX,
        f"{shape}, so the engine tries every way to split a near-miss input between them",
    )


def _widen(root: _Node, start: int, end: int) -> tuple[int, int]:
    """The span of whole top-level terms around ``start:end``, so the part shown never cuts a group."""
    node = _unwrap(root)
    while node.kind == "alt":
        node = _unwrap(next((b for b in node.items if b.start <= start <= b.end), node.items[0]))
    if node.kind != "seq":
        return min(start, node.start), max(end, node.end)
    touched = [item for item in node.items if item.start < end and item.end > start]
    if not touched:
        return start, end
    return min(start, touched[0].start), max(end, touched[-1].end)


def backtracking_risk(pattern: str) -> str | None:
    """A short reason when ``pattern`` can take exponential or polynomial time, else None."""
    risk = analyse_pattern(pattern)
    return risk.reason if risk else None
