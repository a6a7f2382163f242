"""How witnesses prove changes: the broad search's witness credited to the change it lands on, the
changes no rule names found beside named ones, and no search where none is needed."""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.evolution import compare
from json_contracts.evolution.compare import diff_contracts
from json_contracts.evolution.model import Change
from json_contracts.findings import Code
from json_contracts.testing.results import RunOptions
from json_contracts.testing.witness import Search, find_witness
from tests.evolution.corpus import CORPUS, REWRITES, obj
from tests.evolution.support import RUN, contract, separates

_find_witness = find_witness


@pytest.fixture
def broad_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Focused searches find nothing: every proof has to come from the broad search's attribution."""

    def search(*args: Any, **kwargs: Any) -> Search:
        if kwargs.get("schema") is not None:
            return Search(None, [], 0, False)
        return _find_witness(*args, **kwargs)

    monkeypatch.setattr(compare, "find_witness", search)


def _pair(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    pair = next(p for p in CORPUS if p.name == name)
    return pair.old, pair.new


def _confirmed(changes: list[Change], direction: str = "backward") -> set[Code]:
    return {c.code for c in changes if c.direction == direction and c.confirmed}


@pytest.mark.usefixtures("broad_only")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("three changes at once", {Code.REQUIRED_ADDED, Code.ENUM_VALUE_REMOVED, Code.BOUND_TIGHTENED}),
        ("an enum value removed in a draft-07 definition used by array items", {Code.ENUM_VALUE_REMOVED}),
        ("a definition used twice changed: named once", {Code.BOUND_TIGHTENED}),
        ("type of a property narrowed inside array items", {Code.TYPE_NARROWED}),
    ],
)
def test_the_broad_search_credits_its_witness_to_the_named_change_it_lands_on(name: str, expected: set[Code]) -> None:
    old_schema, new_schema = _pair(name)
    old, new = contract(old_schema), contract(new_schema)

    # What is tested is the crediting, not the search's reach: a budget well past the one a broad
    # witness needs here (the definition-used-twice pair once drew none in 100 in a full-suite run).
    diff = diff_contracts(old, new, "backward", RunOptions(max_examples=400, derandomize=True))

    assert _confirmed(diff.changes) == expected  # no JC430 for what a rule names
    assert all(separates(c, old, new) for c in diff.changes if c.confirmed)


def test_a_change_no_rule_names_is_found_beside_a_named_one() -> None:
    old = contract(obj({"k": {"enum": ["a", "b"]}, "flags": {"type": "array", "items": {"type": "boolean"}}}))
    new = contract(
        obj({"k": {"enum": ["a"]}, "flags": {"type": "array", "items": {"type": "boolean"}, "uniqueItems": True}})
    )

    diff = diff_contracts(old, new, "backward", RUN)

    assert _confirmed(diff.changes) == {Code.ENUM_VALUE_REMOVED, Code.ACCEPTED_BEFORE_REJECTED_NOW}
    unnamed = next(c for c in diff.changes if c.code == Code.ACCEPTED_BEFORE_REJECTED_NOW)
    assert unnamed.message == (
        "the new version rejects a document the old one accepted (uniqueItems at /flags), at a change no rule "
        "names: documents like the witness are now rejected"
    )
    assert separates(unnamed, old, new)


def test_a_witness_rejected_for_another_change_does_not_confirm_this_one() -> None:
    old = contract(obj({"s": {"type": "string", "pattern": "^a"}}))
    new = contract(obj({"s": {"type": "string", "pattern": "^(a|b)"}}, ["z"]))

    diff = diff_contracts(old, new, "backward", RUN)

    assert _confirmed(diff.changes) == {Code.REQUIRED_ADDED}
    pattern = next(c for c in diff.changes if c.code == Code.PATTERN_CHANGED)
    assert not pattern.confirmed
    assert pattern.tried > 0


def test_one_witness_proves_every_change_it_lands_on() -> None:
    old = contract(obj({"a": {"type": "string"}, "b": {"type": "string"}}))
    new = contract(obj({"a": {"type": "string"}, "b": {"type": "string"}}, ["a", "b"]))

    diff = diff_contracts(old, new, "backward", RUN)

    first, second = (c for c in diff.changes if c.code == Code.REQUIRED_ADDED)
    assert first.witness is not None
    assert second.witness is not None
    assert all(separates(c, old, new) for c in (first, second))


#: Rewrites whose normal forms differ: the rules name nothing, the search runs and finds nothing.
_SEARCHED = {
    "draft-07: items as a schema or as a tuple with the same rest",
    "2020-12: items, or a prefix with the same rest",
}


@pytest.mark.parametrize("name", [p.name for p in REWRITES if p.name not in _SEARCHED])
def test_a_schema_written_differently_costs_no_search(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old_schema, new_schema = _pair(name)

    def no_search(*args: Any, **kwargs: Any) -> Search:
        raise AssertionError("searched")

    monkeypatch.setattr(compare, "find_witness", no_search)

    diff = diff_contracts(contract(old_schema), contract(new_schema), "full", RUN)

    assert diff.changes == []


def test_mode_none_names_the_changes_and_searches_nothing() -> None:
    old_schema, new_schema = _pair("three changes at once")

    diff = diff_contracts(contract(old_schema), contract(new_schema), "none", RUN)

    assert {c.code for c in diff.changes} == {Code.REQUIRED_ADDED, Code.ENUM_VALUE_REMOVED, Code.BOUND_TIGHTENED}
    assert all(c.tried == 0 and not c.confirmed for c in diff.changes)
    assert diff.verdict == "compatible"
