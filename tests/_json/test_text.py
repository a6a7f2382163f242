"""JSON text exactly as JavaScript's JSON.stringify writes it: numbers, strings, key order, hashing input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from json_contracts._json.hashing import sha256_of
from json_contracts._json.text import canonical, dumps, format_number, js_key_order, js_string


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1"),
        (1, "1"),
        (-1.5, "-1.5"),
        (0.1, "0.1"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (1e-7, "1e-7"),
        (1.23e-18, "1.23e-18"),
        (0.000001, "0.000001"),
        (0.0000012, "0.0000012"),
        (123.456, "123.456"),
        (-0.0, "0"),
        (0, "0"),
        (12345678901234567890, "12345678901234567000"),
        (2**53, "9007199254740992"),
        (2**53 + 1, "9007199254740992"),
        (-(2**60), "-1152921504606847000"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
    ],
)
def test_numbers_print_as_ecmascript_number_to_string(value: float, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_are_not_json(value: float) -> None:
    with pytest.raises(ValueError, match="not a JSON number"):
        format_number(value)


def test_canonical_sorts_keys_and_uses_no_whitespace() -> None:
    assert canonical({"b": 1, "a": [3, {"d": None, "c": "x"}]}) == '{"a":[3,{"c":"x","d":null}],"b":1}'


def test_canonical_sorts_keys_by_utf16_code_units_not_code_points() -> None:
    # U+1F600 is D83D DE00 in UTF-16, which sorts before U+FF01; code-point order says the opposite.
    assert canonical({"\uff01": 1, "😀": 2}) == '{"😀":2,"\uff01":1}'


def test_canonical_prints_literals_and_empty_containers() -> None:
    assert canonical([None, True, False, {}, [], ""]) == '[null,true,false,{},[],""]'


def test_strings_escape_only_quote_backslash_and_control_characters() -> None:
    assert js_string('"\\') == '"\\"\\\\"'
    assert js_string("\b\f\n\r\t") == '"\\b\\f\\n\\r\\t"'
    assert js_string("\x00\x1f") == '"\\u0000\\u001f"'
    assert js_string("é/\u2028\x7f😀") == '"é/\u2028\x7f😀"'


def test_lone_surrogates_are_escaped_in_lower_case_hex() -> None:
    assert js_string("a\ud800b") == '"a\\ud800b"'
    assert canonical({"k": "\udfff"}) == '{"k":"\\udfff"}'
    assert sha256_of("\ud83d").startswith("sha256:")


def test_pretty_dumps_matches_json_stringify_with_two_space_indent() -> None:
    value = {"a": [1.0, {"b": None}], "c": {}, "d": [], "e": "é"}
    assert (
        dumps(value)
        == '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {},\n  "d": [],\n  "e": "é"\n}'
    )


def test_pretty_dumps_puts_integer_like_keys_first_in_ascending_order() -> None:
    assert dumps({"b": 1, "10": 2, "a": 3, "2": 4}) == '{\n  "2": 4,\n  "10": 2,\n  "b": 1,\n  "a": 3\n}'


def test_keys_that_are_not_array_indexes_keep_insertion_order() -> None:
    # Leading zeros, signs and 2**32 - 1 or more are ordinary string keys in JavaScript.
    keys = ["b", "01", "-1", "4294967295", "4294967294", "0", "a"]
    assert js_key_order(keys) == ["0", "4294967294", "b", "01", "-1", "4294967295", "a"]


def test_compact_dumps_keeps_key_order_and_prints_js_numbers() -> None:
    assert dumps({"z": 1e21, "a": 2.0}, indent=None) == '{"z":1e+21,"a":2}'


def test_dumps_refuses_values_that_are_not_json() -> None:
    with pytest.raises(TypeError):
        dumps({"a": {1, 2}})


# --- properties --------------------------------------------------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


def _shuffled(value: Any, rnd: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rnd.shuffle(items)
        return {k: _shuffled(v, rnd) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rnd) for v in value]
    return value


@settings(max_examples=200, database=None)
@given(json_values)
def test_canonical_text_survives_a_round_trip_through_a_json_parser(value: Any) -> None:
    text = canonical(value)
    assert canonical(json.loads(text)) == text


@settings(max_examples=200, database=None)
@given(json_values, st.randoms(use_true_random=False))
def test_key_order_never_changes_the_canonical_text_or_the_hash(value: Any, rnd: random.Random) -> None:
    reordered = _shuffled(value, rnd)
    assert canonical(reordered) == canonical(value)
    assert sha256_of(reordered) == sha256_of(value)


@settings(max_examples=200, database=None)
@given(json_values)
def test_pretty_and_compact_dumps_parse_back_to_the_same_canonical_value(value: Any) -> None:
    assert canonical(json.loads(dumps(value))) == canonical(value)
    assert canonical(json.loads(dumps(value, indent=None))) == canonical(value)


# --- the C fast path writes what the JavaScript-exact writer writes ----------------------------------

_KEYS = st.one_of(st.text(max_size=6), st.sampled_from(["0", "1", "10", "01", "2", "4294967295", "-1", "1e3"]))
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**60), max_value=2**60),
    st.integers(min_value=-(2**53) - 2, max_value=2**53 + 2),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=8),  # lone surrogates too
)
_VALUES = st.recursive(
    _SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(_KEYS, children, max_size=4)),
    max_leaves=20,
)


def _reference(value: Any, indent: int | None) -> str:
    """The pure-Python writer alone (what ``dumps`` falls back to)."""
    from json_contracts._json import text

    parts: list[str] = []
    text._write(value, parts, indent, "", sort_keys=False)
    return "".join(parts)


@settings(max_examples=600, deadline=None)
@given(_VALUES, st.sampled_from([2, None]))
def test_dumps_writes_what_the_javascript_exact_writer_writes(value: Any, indent: int | None) -> None:
    assert dumps(value, indent) == _reference(value, indent)


def test_the_fast_path_takes_plain_values_and_leaves_the_rest() -> None:
    from json_contracts._json.text import _plain

    assert _plain({"a": [1, "é", None, True, {"b": 2**53}], "c": ()})
    assert not _plain({"a": 1.5})  # JavaScript's number formatting
    assert not _plain({"2": 1})  # array-index keys move first in JavaScript
    assert not _plain([2**53 + 1])  # past 2**53 JavaScript writes the nearest double
    assert not _plain(list(range(5000)))  # large values: orjson's working memory grows per item


def test_a_large_answer_is_written_within_a_small_multiple_of_its_size() -> None:
    import tracemalloc

    value = list(range(200_000))  # 1.3 MB of text: orjson peaks at 32 MiB (25x), the writer at 15 MiB
    tracemalloc.start()
    try:
        text = dumps(value, indent=None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * len(text)
