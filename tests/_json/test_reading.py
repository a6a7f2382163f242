"""Reading JSON text as JSON.parse does, with positions (the engine's only parser)."""

from __future__ import annotations

import pytest

from json_contracts._json.pointers import escape_pointer_segment, pointer_from_parts
from json_contracts._json.reading import SourceMap, line_column, parse_json, syntax_hint
from json_contracts.errors import JsonParseError


def _parse_error(text: str) -> JsonParseError:
    with pytest.raises(JsonParseError) as caught:
        parse_json(text)
    return caught.value


def test_parse_error_carries_line_column_and_offset() -> None:
    text = '{\n  "a": 1,\n  "b": }'
    error = _parse_error(text)
    assert (error.line, error.column, error.offset) == (3, 8, text.index("}"))
    assert "line 3, column 8" in error.message


def test_an_unterminated_string_message_says_at_once() -> None:
    error = _parse_error('{"a": "x}')
    assert error.message == "Unterminated string starting at line 1, column 7"


def _hint(text: str) -> str | None:
    return syntax_hint(text, _parse_error(text).offset)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ('{"a": 1,}', "remove the comma at line 1, column 8: JSON allows no comma after the last member of an object"),
        ("[1,\n  2,\n]", "remove the comma at line 2, column 4: JSON allows no comma after the last item of an array"),
        ('{"a": 1,,"b": 2}', "remove the extra comma at line 1, column 9"),
        ('{"a": 1\n "b": 2}', 'a comma is missing: add "," after the value that ends at line 1, column 7'),
        ("[1 2]", 'a comma is missing: add "," after the value that ends at line 1, column 2'),
        ("{'a': 1}", "JSON strings use double quotes: write \"a\" instead of 'a'"),
        ("{\"a\": 'x y'}", "JSON strings use double quotes: write \"x y\" instead of 'x y'"),
        (
            '{"a": 1 // note\n}',
            'JSON has no comments: remove the comment at line 1, column 9 (a note can go in a "description")',
        ),
        (
            "/* c */ {}",
            'JSON has no comments: remove the comment at line 1, column 1 (a note can go in a "description")',
        ),
        ("# c\n{}", 'JSON has no comments: remove the comment at line 1, column 1 (a note can go in a "description")'),
        ("{a: 1}", 'keys are strings in double quotes: write "a"'),
        ('{"a" 1}', "put a colon between the key and its value, at line 1, column 6"),
        ('{"a": True}', "JSON literals are lower case: write true"),
        ('{"a": None}', "JSON literals are lower case: write null"),
        ('{"a": undefined}', "JSON has no undefined: write null, or leave the key out"),
        ('{"type": string}', 'text is a string in double quotes: write "string"'),
        ('{"a": +1}', "JSON numbers have no plus sign: remove the +"),
        ('{"a": .5}', "JSON numbers start with a digit: write 0.5"),
        ('{"a": 01}', "JSON numbers have no leading zeros: remove the 0, or write the value as a string"),
        ('{"a": 1.}', "JSON numbers need a digit after the point: write 1.0 or 1"),
        ('{"a": 0x1F}', "JSON numbers are decimal: write 31 for 0x1F"),
        ('{"a": 1e}', "1e is not a JSON number: write digits, an optional fraction (.5) and an optional exponent (e3)"),
        (
            '{"p": "^\\d+$"}',
            '"\\d" is not a JSON escape: write "\\\\d" for a backslash '
            '(a regular expression\'s \\d is "\\\\d" in JSON)',
        ),
        (
            '{"a": "x\ny"}',
            "a string cannot span lines: close it with a double quote on this line, or write \\n for a line break",
        ),
        ('{"a": "x\ty"}', "write a tab as \\t and other control characters as \\u00XX inside a string"),
        ('{"a": "x}', "close the string that starts at line 1, column 7 with a double quote"),
        ('{"a": 1}}', "remove the extra } at line 1, column 9: every bracket is already closed"),
        (
            '{"a": 1}\n{"b": 2}',
            "the JSON value ends at line 1, column 8: remove what follows, or put the values together in one array "
            "or object",
        ),
        ("", "the text is empty: write a JSON value, such as {}"),
        (" \n ", "the text is empty: write a JSON value, such as {}"),
        (
            '{"a": [1, {"b": 2}',
            "the text ends before the JSON value does: add ] for the [ at line 1, column 7 and } for the { at line 1, "
            "column 1",
        ),
    ],
)
def test_syntax_slips_get_a_hint_with_the_fix_and_where_it_goes(text: str, hint: str) -> None:
    assert _hint(text) == hint


@pytest.mark.parametrize(
    "text",
    ['\ufeff{"a": 1}', '{"a": NaN}', '{"a": 1e999}', '{"a": "\\ud800"}', '{"a": @}'],
)
def test_problems_whose_message_already_says_the_fix_or_that_are_not_slips_get_no_hint(text: str) -> None:
    assert _hint(text) is None


def test_a_hint_is_only_given_for_the_place_the_parser_stopped_at() -> None:
    assert syntax_hint('{"a": 1,}', 0) is None
    assert syntax_hint('{"a": 1}', 3) is None


def test_parse_error_for_unquoted_key_points_at_the_key() -> None:
    error = _parse_error("{ nope")
    assert (error.line, error.column) == (1, 3)


def test_empty_text_is_not_json() -> None:
    error = _parse_error("")
    assert (error.line, error.column) == (1, 1)


def test_trailing_data_is_not_json() -> None:
    error = _parse_error('{"a": 1}\nx')
    assert (error.line, error.column) == (2, 1)


def test_byte_order_mark_is_rejected_even_before_valid_json() -> None:
    error = _parse_error('\ufeff{"schema": {}}')
    assert (error.line, error.column, error.offset) == (1, 1, 0)
    assert "BOM" in error.message


@pytest.mark.parametrize(
    ("text", "token", "line", "column"),
    [
        ('{"a": NaN}', "NaN", 1, 7),
        ("[1,\n -Infinity]", "-Infinity", 2, 2),
        ('{\n  "x": [\n    Infinity\n  ]\n}', "Infinity", 3, 5),
    ],
)
def test_nan_and_infinity_are_rejected_with_their_position(text: str, token: str, line: int, column: int) -> None:
    error = _parse_error(text)
    assert (error.line, error.column) == (line, column)
    assert error.message.startswith(f"{token} is not valid JSON at line {line}, column {column}")


def test_nan_position_is_not_taken_from_an_earlier_string_value() -> None:
    text = '{"note": "Infinity", "x": NaN}'
    error = _parse_error(text)
    assert (error.line, error.column) == (1, text.index("NaN") + 1)


def test_integers_beyond_2_53_are_rounded_to_doubles_as_javascript_does() -> None:
    assert parse_json("12345678901234567890") == 12345678901234567000.0
    assert isinstance(parse_json("12345678901234567890"), float)
    assert parse_json("[9007199254740993]") == [9007199254740992.0]
    assert parse_json("-9007199254740993") == -9007199254740992.0


def test_safe_integers_stay_integers() -> None:
    assert parse_json("9007199254740992") == 2**53
    assert isinstance(parse_json("42"), int)
    assert parse_json("2.0") == 2.0


@pytest.mark.parametrize(
    ("text", "literal"),
    [
        ("1" + "0" * 400, "1" + "0" * 400),
        ('{"a": [1, -1e400]}', "-1e400"),
        ('{\n  "a": 2e308\n}', "2e308"),
    ],
)
def test_a_number_too_large_for_a_double_is_a_parse_error_at_its_position(text: str, literal: str) -> None:
    error = _parse_error(text)
    assert (error.line, error.column) == line_column(text, text.index(literal))
    assert "too large" in error.message


def test_the_largest_double_still_parses() -> None:
    assert parse_json("1.7976931348623157e308") == 1.7976931348623157e308
    assert parse_json("1" + "0" * 308) == 1e308


def test_a_too_large_number_position_is_not_taken_from_an_earlier_string_value() -> None:
    text = '{"note": "1e400", "x": 1e400}'
    error = _parse_error(text)
    assert (error.line, error.column) == (1, text.rindex("1e400") + 1)


def test_line_column_counts_code_points_from_one() -> None:
    text = "ab\nc😀d"
    assert line_column(text, 0) == (1, 1)
    assert line_column(text, 3) == (2, 1)
    assert line_column(text, text.index("d")) == (2, 3)


def test_pointer_segments_escape_tilde_before_slash() -> None:
    assert escape_pointer_segment("a/b") == "a~1b"
    assert escape_pointer_segment("m~n") == "m~0n"
    assert escape_pointer_segment("~1") == "~01"
    assert pointer_from_parts(["a", 0, "x/y"]) == "/a/0/x~1y"
    assert pointer_from_parts([]) == ""


def _at(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    return line_column(text, offset)


_ESCAPED = '{\n  "a/b": 1,\n  "m~n": [10, {"x": true}],\n  "a\\"b": "s",\n  "\\u00e9t\\u00e9": null\n}'


@pytest.mark.parametrize(
    ("pointer", "value_needle", "key_needle"),
    [
        ("/a~1b", "1,", '"a/b"'),
        ("/m~0n", "[10", '"m~n"'),
        ('/a"b', '"s"', '"a\\"b"'),
        ("/été", "null", '"\\u00e9t'),
    ],
)
def test_source_map_finds_values_and_keys_behind_escaped_names(
    pointer: str, value_needle: str, key_needle: str
) -> None:
    source = SourceMap(_ESCAPED)
    assert source.position(pointer) == _at(_ESCAPED, value_needle)
    assert source.position(pointer, key=True) == _at(_ESCAPED, key_needle)


def test_source_map_finds_array_items_and_nested_values() -> None:
    source = SourceMap(_ESCAPED)
    assert source.position("/m~0n/0") == _at(_ESCAPED, "10")
    assert source.position("/m~0n/1") == _at(_ESCAPED, '{"x"')
    assert source.position("/m~0n/1/x") == _at(_ESCAPED, "true")
    assert source.position("/m~0n/1/x", key=True) == _at(_ESCAPED, '"x"')


def test_source_map_reads_raw_non_ascii_keys() -> None:
    text = '{"é": {"ü": [1, 2]}}'
    assert SourceMap(text).position("/é/ü/1") == (1, text.index("2") + 1)


def test_source_map_columns_are_right_in_crlf_files() -> None:
    text = '{\r\n  "schema": {\r\n    "type": "object"\r\n  },\r\n  "version": 3\r\n}\r\n'
    source = SourceMap(text)
    assert source.position("/schema/type") == (3, 13)
    assert source.position("/version") == (5, 14)
    assert source.position("/version", key=True) == (5, 3)


def test_source_map_falls_back_to_the_nearest_ancestor() -> None:
    source = SourceMap(_ESCAPED)
    assert source.position("/m~0n/7") == source.position("/m~0n")
    assert source.position("/missing/deeper") == (1, 1)
    assert source.position("/missing", key=True) == (1, 1)


def test_source_map_of_broken_text_still_maps_what_came_before_the_problem() -> None:
    text = '{\n  "a": 1,\n  "b": [true, nope]\n}'
    source = SourceMap(text)
    assert source.position("/a") == (2, 8)
    assert source.position("/b/0") == (3, 9)
