"""The corpus of schema pairs (tests/evolution/corpus.py) against ``diff``: every change proven, nothing more.

Each pair is compared once in ``full`` mode (both directions searched, at the default budget,
derandomised); the verdict of every mode is then read from the same changes.
"""

from __future__ import annotations

import pytest

from json_contracts.evolution.compare import diff_contracts
from json_contracts.evolution.model import MODES, ContractDiff, Mode, directions_of
from json_contracts.evolution.rules import compare_schemas
from tests.evolution.corpus import CORPUS, Pair
from tests.evolution.support import RUN, contract, separates


@pytest.mark.parametrize("pair", CORPUS, ids=[pair.name for pair in CORPUS])
def test_each_pair_proves_exactly_its_changes(pair: Pair) -> None:
    old, new = contract(pair.old), contract(pair.new)

    diff = diff_contracts(old, new, "full", RUN)

    for direction, expected in (("backward", pair.backward), ("forward", pair.forward)):
        mine = [change for change in diff.changes if change.direction == direction]
        confirmed = [change for change in mine if change.confirmed]
        assert {c.code for c in confirmed} == expected, [c.message for c in mine]
        assert {c.code for c in mine if not c.confirmed} <= pair.unproven, [c.message for c in mine]
        for change in confirmed:
            assert separates(change, old, new), (change.message, change.witness)
    same_hash = old.schema_hash == new.schema_hash  # keys reordered: the same schema to the byte
    for mode in MODES:
        kept = directions_of(mode)
        expected_verdict = (
            "breaking" if any(getattr(pair, d) for d in kept) else "unchanged" if same_hash else "compatible"
        )
        assert (
            ContractDiff(diff.name, diff.status, mode, old=old, new=new, changes=diff.changes).verdict
            == expected_verdict
        ), mode
    if pair.rewrite:
        assert diff.changes == []


@pytest.mark.parametrize("pair", [p for p in CORPUS if p.rewrite], ids=[p.name for p in CORPUS if p.rewrite])
def test_a_schema_written_differently_names_no_change(pair: Pair) -> None:
    assert compare_schemas(pair.old, pair.new) == []
    assert compare_schemas(pair.new, pair.old) == []


@pytest.mark.parametrize("mode", ["backward", "forward"])
def test_one_direction_alone_finds_what_full_finds_in_it(mode: Mode) -> None:
    pair = next(p for p in CORPUS if p.name == "enum value swapped")
    old, new = contract(pair.old), contract(pair.new)

    alone = diff_contracts(old, new, mode, RUN)

    assert alone.verdict == "breaking"
    assert {c.code for c in alone.breaking()} == getattr(pair, mode)
    assert all(c.tried == 0 and not c.confirmed for c in alone.changes if c.direction != mode)  # not searched
