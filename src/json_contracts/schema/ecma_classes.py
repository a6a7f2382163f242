"""The code points of ECMA-262's character class escapes in Unicode mode, as sorted ranges.

One definition for the two readers of ECMA-262 patterns: the RE2 translation
(:mod:`json_contracts.schema.ecma_linear`), which must match exactly what ``regress`` matches, and
the JC120 analysis (:mod:`json_contracts.schema.regex_safety`), which must agree with both. ``\\d``
and ``\\w`` are ASCII even in Unicode mode (no ``i`` flag in JSON Schema); ``\\s`` is WhiteSpace
plus LineTerminator, which is wider than RE2's or Python's ``\\s``.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "DIGIT",
    "LINE_TERMINATORS",
    "MAX_CODE_POINT",
    "SPACE",
    "WORD",
    "Ranges",
    "complement_ranges",
    "merge_ranges",
]

#: Sorted, disjoint, inclusive ranges of code points.
Ranges = tuple[tuple[int, int], ...]
MAX_CODE_POINT = 0x10FFFF

DIGIT: Ranges = ((0x30, 0x39),)
WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
#: WhiteSpace (TAB, VT, FF, ZWNBSP, the Zs category) and LineTerminator (LF, CR, LS, PS).
SPACE: Ranges = (
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A), (0x2028, 0x2029),
    (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
)  # fmt: skip
#: What ``.`` never matches, and where ``^``/``$`` would split lines in multiline mode.
LINE_TERMINATORS: Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """``ranges`` (in any order, overlapping or touching) as sorted, disjoint ranges."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            if high > merged[-1][1]:
                merged[-1] = (merged[-1][0], high)
        else:
            merged.append((low, high))
    return tuple(merged)


def complement_ranges(ranges: Ranges) -> Ranges:
    """Every code point not in ``ranges`` (sorted and disjoint), as sorted ranges."""
    result: list[tuple[int, int]] = []
    next_low = 0
    for low, high in ranges:
        if low > next_low:
            result.append((next_low, low - 1))
        next_low = high + 1
    if next_low <= MAX_CODE_POINT:
        result.append((next_low, MAX_CODE_POINT))
    return tuple(result)
