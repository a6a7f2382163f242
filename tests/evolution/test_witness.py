"""The witness search: drawn from the source, judged by the target, kept only when the source accepts it."""

from __future__ import annotations

from json_contracts.schema.compiled import compile_schema
from json_contracts.schema.validation import ErrorRecord, is_valid
from json_contracts.schema.vocabulary import DRAFT202012
from json_contracts.testing.witness import find_witness
from tests.evolution.support import RUN, contract


def test_a_witness_is_valid_under_the_source_even_when_the_narrowed_schema_is_wider() -> None:
    source = contract({"type": "integer", "minimum": 0, "maximum": 5})
    target = compile_schema({"type": "integer", "maximum": 3}, DRAFT202012)

    search = find_witness(source, target, RUN, schema={"type": "integer"})  # wider than the source

    assert search.found
    assert search.document in (4, 5)
    assert is_valid(source.compiled, search.document)
    assert search.errors == [{"path": "", "message": "must be <= 3", "keyword": "maximum"}]


def test_accept_chooses_which_rejected_documents_count() -> None:
    source = contract({"type": "string"})
    target = compile_schema({"type": "string", "maxLength": 2, "pattern": "^a"}, DRAFT202012)

    def too_long(document: object, errors: list[ErrorRecord]) -> bool:
        return any(error["keyword"] == "maxLength" for error in errors)

    search = find_witness(source, target, RUN, accept=too_long)

    assert search.found
    assert isinstance(search.document, str)
    assert len(search.document) == 3


def test_nothing_to_find_is_an_empty_search_with_its_count() -> None:
    source = contract({"type": "string", "maxLength": 2})
    target = compile_schema({"type": "string", "maxLength": 3}, DRAFT202012)

    search = find_witness(source, target, RUN)

    assert (search.found, search.document, search.errors) == (False, None, [])
    assert search.tried == RUN.max_examples


def test_a_narrowed_schema_nothing_fits_or_that_is_not_a_schema_finds_nothing() -> None:
    source = contract({"type": "string"})
    target = compile_schema({"type": "integer"}, DRAFT202012)

    impossible = find_witness(source, target, RUN, schema={"type": "string", "minLength": 3, "maxLength": 2})
    broken = find_witness(source, target, RUN, schema={"type": 5})

    assert not impossible.found
    assert (broken.found, broken.tried) == (False, 0)
