"""Two runs with the same options give the same changes and the same witnesses: derandomised (as on CI), or seeded."""

from __future__ import annotations

from typing import Any

import pytest

from json_contracts.evolution.compare import diff_contracts
from json_contracts.testing.results import RunOptions
from tests.evolution.corpus import CORPUS
from tests.evolution.support import contract

#: Pairs with several changes, a definition, a tuple and a change only the broad search finds.
_NAMES = (
    "three changes at once",
    "enum value swapped",
    "oneOf stops being exclusive (two branches now overlap)",
    "an enum value removed in a draft-07 definition used by array items",
    "tuple position narrowed (draft-07 array-form items)",
    "uniqueItems added (no rule: the broad search)",
)


def _run(options: RunOptions) -> list[list[tuple[Any, ...]]]:
    runs = []
    for pair in (p for p in CORPUS if p.name in _NAMES):
        diff = diff_contracts(contract(pair.old), contract(pair.new), "full", options)
        runs.append(
            [
                (
                    c.code,
                    c.direction,
                    c.message,
                    c.tried,
                    c.witness.document if c.witness else None,
                    c.witness.errors if c.witness else None,
                )
                for c in diff.changes
            ]
        )
    return runs


@pytest.mark.parametrize(
    "options",
    [RunOptions(max_examples=100, derandomize=True), RunOptions(max_examples=100, seed=20240611)],
    ids=["derandomized", "seeded"],
)
def test_two_runs_give_the_same_changes_and_witnesses(options: RunOptions) -> None:
    first, second = _run(options), _run(options)

    assert first == second
    assert sum(1 for changes in first for change in changes if change[4] is not None) >= len(_NAMES)
