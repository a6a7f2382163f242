"""The checks of one contract share one built strategy tree, and still count their own draws."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import json_contracts.testing.strategies as strategies_module
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract
from json_contracts.testing.checks import RunOptions, run_checks
from json_contracts.testing.strategies import SampleStats, from_contract

FAST = RunOptions(max_examples=10, derandomize=True)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "pattern": "^[a-z]{3}$"},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}},
        "n": {"type": "integer", "not": {"const": 3}},
    },
    "required": ["id", "n"],
    "additionalProperties": False,
}


def _contract(tmp_path: Path, schema: Any) -> Contract:
    folder = tmp_path / "json-contracts"
    folder.mkdir()
    (folder / "thing.json").write_text(json.dumps({"description": "x", "schema": schema}), encoding="utf-8")
    result = load_contracts(folder)
    assert not result.failures, result.failures
    return result.contracts["thing"]


def _draw(strategy: Any, count: int = 10) -> list[Any]:
    drawn: list[Any] = []

    @settings(max_examples=count, database=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(strategy)
    def collect(document: Any) -> None:
        drawn.append(document)

    collect()
    return drawn


def test_every_check_of_a_contract_draws_from_one_built_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """satisfiable, samples-valid, repair-hints (and each repair value) and edit each built the whole
    tree again: node validators, flattened nodes, strategies, and what Hypothesis learnt of them."""
    built: list[int] = []
    real = strategies_module._Builder.__init__

    def counting(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(id(self))
        real(self, *args, **kwargs)

    monkeypatch.setattr(strategies_module._Builder, "__init__", counting)
    contract = _contract(tmp_path, SCHEMA)
    results = run_checks(contract, FAST)
    assert [(r.check, r.outcome) for r in results if r.outcome == "failed"] == []
    assert len(built) == 1


def test_each_use_of_the_shared_tree_counts_into_its_own_stats(tmp_path: Path) -> None:
    contract = _contract(
        tmp_path,
        {
            **SCHEMA,
            "properties": {**SCHEMA["properties"], "n": {"type": "integer", "multipleOf": 7, "not": {"minimum": 0}}},
        },
    )
    first, second = SampleStats(), SampleStats()
    assert len(_draw(from_contract(contract, stats=first))) == 10
    seen = (first.accepted, first.rejected)
    assert first.accepted >= 10
    assert first.rejected > 0
    assert len(_draw(from_contract(contract, stats=second))) == 10
    assert (first.accepted, first.rejected) == seen
    assert second.accepted >= 10
    assert second.rejected > 0
    assert second.most_blamed() == first.most_blamed() == ("not", "/properties/n/not")


def test_a_keyword_too_large_to_draw_is_reported_to_every_check(tmp_path: Path) -> None:
    """The builder notes a minLength past MAX_DRAWN_SIZE once, when it builds the node; a later check
    drawing from the same tree must still learn of it, or it would call the schema unsatisfiable."""
    schema = {"type": "object", "properties": {"s": {"type": "string", "minLength": 5000}}, "required": ["s"]}
    contract = _contract(tmp_path, schema)
    results = {r.check: r for r in run_checks(contract, FAST, ["satisfiable", "samples-valid", "edit"])}
    for check in ("satisfiable", "samples-valid", "edit"):
        assert results[check].outcome == "inconclusive", (check, results[check].message)
        assert "minLength 5000 at /properties/s/minLength" in results[check].message
