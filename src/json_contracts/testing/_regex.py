"""ECMA-262 ``pattern`` as Python's ``re`` reads it, for drawing strings with Hypothesis's ``from_regex``.

Generation only: a drawn string is still checked by the ECMA-262 engine (:mod:`json_contracts.schema.patterns`),
so a translation that covers a subset of what the pattern matches costs coverage, never correctness.
"""

from __future__ import annotations

import re
import warnings

__all__ = ["python_pattern"]

# Unicode property escapes Python's ``re`` lacks, as a subset of their characters: samples drawn
# from the subset still match the real pattern (which the filter re-checks with the ECMA engine).
_PROPERTY_SUBSETS = {
    "L": "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff",
    "Letter": "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff",
    "Lu": "A-Z\u00c0-\u00d6\u00d8-\u00de",
    "Uppercase_Letter": "A-Z\u00c0-\u00d6\u00d8-\u00de",
    "Ll": "a-z\u00df-\u00f6\u00f8-\u00ff",
    "Lowercase_Letter": "a-z\u00df-\u00f6\u00f8-\u00ff",
    "N": "0-9",
    "Nd": "0-9",
    "Number": "0-9",
    "P": "!-#%-*,-/:;?@\\[-\\]_{}",
    "Punctuation": "!-#%-*,-/:;?@\\[-\\]_{}",
    "Zs": " ",
    "Script=Latin": "A-Za-z",
    "sc=Latin": "A-Za-z",
}
_PROPERTY = re.compile(r"\\p\{([A-Za-z_=]+)\}")


def python_pattern(pattern: str) -> str | None:
    """The ECMA-262 pattern as Python ``re`` reads it with ASCII classes, or None if it cannot."""
    if re.search(r"\[[^\]]*\\[pP]\{", pattern):
        return None  # \p{…} inside a character class: Python has no class-in-class
    pattern = _PROPERTY.sub(
        lambda m: m.group(0) if m.group(1) not in _PROPERTY_SUBSETS else f"[{_PROPERTY_SUBSETS[m.group(1)]}]",
        pattern,
    )
    candidate = "(?a)" + pattern  # ECMA's \d, \w and \b are ASCII-only, even in Unicode mode
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. "possible nested set": Python reads it its own way
            re.compile(candidate)
    except (re.error, RecursionError, OverflowError):
        return None
    return candidate
