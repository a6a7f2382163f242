"""Meta-schema sentences name the right dialect for the library's five (not only draft-07 and 2020-12)."""

from __future__ import annotations

import pytest

from json_contracts.schema.checking import check_schema


@pytest.mark.parametrize("dialect", ["draft-04", "draft-06", "draft-07", "2019-09"])
def test_an_items_array_is_not_called_draft_07s_where_it_is_the_dialects_own(dialect: str) -> None:
    problem = check_schema({"items": [{"type": "string"}, 3]}, dialect)
    assert problem is not None
    assert "draft-07's" not in problem.message


def test_in_2020_12_the_array_form_of_items_is_explained() -> None:
    problem = check_schema({"items": [{"type": "string"}]}, "2020-12")
    assert problem is not None
    assert "prefixItems" in problem.message
