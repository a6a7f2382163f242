"""Only ASCII digits are digits in ECMA-262 pattern syntax; ``str.isdigit()`` is also true for U+0661.

A back reference ``\\1`` or a NUL escape ``\\0`` followed by such a character ends before it, and the
character is a literal: the JC120 analysis and the RE2 translation must read it so.
"""

from __future__ import annotations

from json_contracts.schema.ecma_linear import translate
from json_contracts.schema.patterns import search
from json_contracts.schema.regex_safety import analyse_pattern


def test_a_back_reference_ends_before_a_non_ascii_digit() -> None:
    # \1 then the literal U+0661 repeated twice in a row: the same polynomial risk as with "b"
    risk = analyse_pattern("^(a)\\1\u0661+\u0661+x$")
    assert risk is not None
    assert (risk.kind, risk.degree) == ("polynomial", 2)


def test_a_nul_escape_ends_before_a_non_ascii_digit() -> None:
    # NUL then U+0661, and "0" then U+0661, are different texts: the alternatives never match the same text
    assert analyse_pattern("^(?:\\0\u0661|0\u0661)+$") is None


def test_the_linear_engine_reads_a_nul_escape_before_a_non_ascii_digit() -> None:
    translated = translate("^\\0\u0661$")
    assert translated is not None  # matched in process, not by the backtracking worker
    assert search("^\\0\u0661$", "\x00\u0661")
    assert not search("^\\0\u0661$", "0\u0661")
