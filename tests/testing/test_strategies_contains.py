"""``contains`` items are placed within the array's bounds: beside prefix items, or in a prefix position."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from json_contracts.schema.compiled import compile_schema
from json_contracts.testing import from_schema

_SETTINGS = settings(max_examples=200, database=None, derandomize=True, phases=[Phase.generate],
                     suppress_health_check=[HealthCheck.too_slow])  # fmt: skip

CASES = {
    # Review of issue 16: the contains item was appended after the prefix, so every candidate had
    # two items and maxItems rejected it; [5] is valid.
    "prefix-fills-maxItems": {
        "type": "array",
        "prefixItems": [{}],
        "minItems": 1,
        "maxItems": 1,
        "contains": {"const": 5},
    },
    "no-items-beyond-prefix": {
        "type": "array",
        "prefixItems": [{}, {"type": "string"}],
        "items": False,
        "minItems": 2,
        "contains": {"const": 5},
    },
    "draft-07-tuple": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "array",
        "items": [{"type": "integer"}],
        "additionalItems": False,
        "contains": {"minimum": 3},
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_contains_item_fits_within_the_arrays_bounds(name: str) -> None:
    schema: dict[str, Any] = CASES[name]
    dialect = "draft-07" if "$schema" in schema else "2020-12"
    found = find(from_schema(schema), lambda _: True, settings=_SETTINGS)
    assert compile_schema(schema, dialect).validator.is_valid(found)
