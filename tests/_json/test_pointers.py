"""JSON pointer segments read as array indexes: one rule (ASCII digits, no leading zero) for every caller."""

from __future__ import annotations

import pytest

from json_contracts._json.pointers import index_of, lookup
from json_contracts._json.text import array_index, dumps, js_key_order

#: Past the 4,300 digits Python's ``int`` converts; ``isdigit()`` is true for it.
LONG_DIGITS = "1" * 5000


@pytest.mark.parametrize(("segment", "index"), [("0", 0), ("7", 7), ("120", 120), ("9007199254740991", 2**53 - 1)])
def test_ascii_digits_without_a_leading_zero_are_indexes(segment: str, index: int) -> None:
    assert array_index(segment) == index


@pytest.mark.parametrize(
    "segment",
    ["", "01", "00", "-1", "+1", "1.0", " 1", "1 ", "²", "¹", "١٢", "\uff11", "Ⅻ", "1²", LONG_DIGITS, "1" * 17],
)
def test_anything_else_is_no_index(segment: str) -> None:
    # "²".isdigit() is True and int("²") raises; int() also refuses 4,300 digits or more.
    assert array_index(segment) is None


def test_lookup_reads_no_leading_zero_or_unicode_digit_as_an_index() -> None:
    document = {"list": ["a", "b", "c"], "²": 2}
    assert lookup(document, "/list/1") == (True, "b")
    assert lookup(document, "/list/01") == (False, None)
    assert lookup(document, "/list/²") == (False, None)
    assert lookup(document, "/²") == (True, 2)
    assert index_of("²", 5) is None


def test_lookup_and_key_order_survive_a_key_of_thousands_of_digits() -> None:
    document = {"b": 1, LONG_DIGITS: [1], "2": 3}
    assert lookup(document, f"/{LONG_DIGITS}/0") == (True, 1)
    assert lookup([1, 2], f"/{LONG_DIGITS}") == (False, None)
    assert js_key_order(document) == ["2", "b", LONG_DIGITS]
    assert dumps(document, indent=None) == f'{{"2":3,"b":1,"{LONG_DIGITS}":[1]}}'
