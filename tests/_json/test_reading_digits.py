"""JSON syntax hints read only ASCII digits as digits: ``²`` or an Arabic-Indic digit after 0 is no leading zero."""

from __future__ import annotations

import pytest

from json_contracts._json.reading import parse_json, syntax_hint
from json_contracts.errors import JsonParseError


@pytest.mark.parametrize("text", ['{"a": 0\u00b2}', '{"a": 0\u0661}'], ids=["superscript-two", "arabic-indic-one"])
def test_a_unicode_digit_after_zero_is_not_called_a_leading_zero(text: str) -> None:
    with pytest.raises(JsonParseError) as caught:
        parse_json(text)
    hint = syntax_hint(text, caught.value.offset)
    assert hint is not None
    assert "leading zero" not in hint


def test_an_ascii_digit_after_zero_still_is() -> None:
    text = '{"a": 01}'
    with pytest.raises(JsonParseError) as caught:
        parse_json(text)
    assert syntax_hint(text, caught.value.offset) == (
        "JSON numbers have no leading zeros: remove the 0, or write the value as a string"
    )
