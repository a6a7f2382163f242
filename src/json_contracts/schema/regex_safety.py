"""Spotting ``pattern`` regexes that can take exponential time on a backtracking engine.

JSON Schema patterns run on a backtracking engine (ECMA-262 semantics via ``regress``), so a
pattern such as ``^(a|aa)+$`` can stall on a 60-character near-miss. No maintained library
analyses ECMA-262 patterns for this, so here is a small, conservative analysis of the three
classic shapes:

* a repeated group whose body repeats something it can also start and end with
  (``(a+)+``, ``(\\w*)*``, ``(x|y+)*``) — not ``(-[a-z]+)*`` or ``(\\d+\\.)*``, where a
  delimiter fixes where each repetition ends;
* a repeated group whose alternatives can start with the same character (``(a|aa)+``);
* a group containing unbounded repetition, itself repeated a fixed number of times
  (``(.*a){20}``).

Characters are approximated by a sample alphabet (ASCII plus a few non-ASCII letters and
digits); the analysis may miss exotic cases but does not flag the ordinary ones above.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

__all__ = ["backtracking_risk"]

_ALPHABET = frozenset(string.printable + "éß٣😀\u00a0")
_DIGITS = frozenset(string.digits)
_WORD = frozenset(string.ascii_letters + string.digits + "_")
_SPACE = frozenset(" \t\n\r\x0b\x0c\u00a0")
_CLASS_ESCAPES = {
    "d": _DIGITS,
    "D": _ALPHABET - _DIGITS,
    "w": _WORD,
    "W": _ALPHABET - _WORD,
    "s": _SPACE,
    "S": _ALPHABET - _SPACE,
}
_UNBOUNDED = re.compile(r"[*+]\??|\{(\d+),\}\??")
_BOUNDED = re.compile(r"\{(\d+)(?:,(\d+))?\}\??|\?\??")


@dataclass
class _Group:
    """What a group (or the whole pattern) contains, as far as this analysis needs."""

    alternatives_first: list[frozenset[str]] = field(default_factory=lambda: [frozenset()])
    alternatives_last: list[frozenset[str]] = field(default_factory=lambda: [frozenset()])
    repeated_sets: set[str] = field(default_factory=set)  # characters inner repetitions match
    has_unbounded: bool = False


def _escape_set(char: str) -> frozenset[str]:
    if char in _CLASS_ESCAPES:
        return _CLASS_ESCAPES[char]
    return frozenset({char}) if char not in "bBpP" else _ALPHABET


def _class_set(pattern: str, start: int) -> tuple[frozenset[str], int]:
    """The characters ``[...]`` starting at ``start`` matches, and the index after it."""
    i = start + 1
    negate = i < len(pattern) and pattern[i] == "^"
    i += negate
    chars: set[str] = set()
    previous: str | None = None
    while i < len(pattern) and pattern[i] != "]":
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            escaped = _escape_set(pattern[i + 1])
            chars |= escaped
            previous = pattern[i + 1] if len(escaped) == 1 else None
            i += 2
            continue
        if char == "-" and previous is not None and i + 1 < len(pattern) and pattern[i + 1] != "]":
            high = pattern[i + 1]
            chars |= {c for c in _ALPHABET if previous <= c <= high}
            previous = None
            i += 2
            continue
        chars.add(char)
        previous = char
        i += 1
    result = frozenset(chars & _ALPHABET if not negate else _ALPHABET - chars)
    return result, i + 1


def backtracking_risk(pattern: str) -> str | None:
    """A short reason when ``pattern`` has a catastrophic-backtracking shape, else None."""
    try:
        return _scan(pattern)
    except IndexError:  # malformed patterns are reported by the regex compiler instead
        return None


def _scan(pattern: str) -> str | None:
    stack: list[_Group] = [_Group()]
    at_start: list[bool] = [True]
    i, n = 0, len(pattern)
    while i < n:
        char = pattern[i]
        atom: frozenset[str] | None = None
        closed: _Group | None = None
        if char == "\\":
            atom = _escape_set(pattern[i + 1])
            i += 2
        elif char == "[":
            atom, i = _class_set(pattern, i)
        elif char == "(":
            if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                depth, i = 1, i + 1
                while i < n and depth:  # skip lookarounds: they match no characters
                    depth += {"(": 1, ")": -1}.get(pattern[i], 0)
                    i += 2 if pattern[i] == "\\" else 1
                continue
            stack.append(_Group())
            at_start.append(True)
            i += 3 if pattern.startswith("(?:", i) else 1
            continue
        elif char == ")":
            closed = stack.pop()
            at_start.pop()
            i += 1
        elif char == "|":
            stack[-1].alternatives_first.append(frozenset())
            stack[-1].alternatives_last.append(frozenset())
            at_start[-1] = True
            i += 1
            continue
        elif char in "^$":
            i += 1
            continue
        else:
            atom = _ALPHABET if char == "." else frozenset({char})
            i += 1
        group = stack[-1]
        unbounded = _UNBOUNDED.match(pattern, i)
        bounded = None if unbounded else _BOUNDED.match(pattern, i)
        quantifier = unbounded or bounded
        if quantifier:
            i = quantifier.end()
        if closed is not None:
            body_first = frozenset().union(*closed.alternatives_first)
            body_last = frozenset().union(*closed.alternatives_last)
            if unbounded:
                if closed.has_unbounded and body_first & closed.repeated_sets and body_first & body_last:
                    return "a repeated group whose body repeats what the group repeats"
                overlapping = [a & b for x, a in enumerate(closed.alternatives_first)
                               for b in closed.alternatives_first[x + 1 :]]  # fmt: skip
                if any(overlapping):
                    return "a repeated group whose alternatives can match the same text"
            elif bounded and bounded.group(0)[0] == "{" and closed.has_unbounded:
                times = int(bounded.group(2) or bounded.group(1))
                if times >= 2:
                    return "a group with unbounded repetition, repeated several times"
            atom_first, atom_last = body_first, body_last
            group.has_unbounded |= closed.has_unbounded or bool(unbounded)
            group.repeated_sets |= closed.repeated_sets | (set(body_first) if unbounded else set())
        else:
            atom_first = atom_last = atom or frozenset()
            if unbounded:
                group.has_unbounded = True
                group.repeated_sets |= atom_first
        optional = quantifier is not None and (quantifier.group(0)[0] in "*?" or quantifier.group(0).startswith("{0"))
        if optional:
            group.alternatives_last[-1] |= atom_last
        else:
            group.alternatives_last[-1] = atom_last
        if at_start[-1]:
            group.alternatives_first[-1] |= atom_first
            if not optional:
                at_start[-1] = False
    return None
