"""Helpers for the evolution tests: a contract from a bare schema, and the check that a witness separates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from json_contracts.contracts.loading import contract_from_text
from json_contracts.contracts.model import Contract
from json_contracts.evolution.model import Change
from json_contracts.schema.validation import is_valid
from json_contracts.testing.results import RunOptions

#: The default budget of ``diff`` (100 documents per search), derandomised as on CI.
RUN = RunOptions(max_examples=100, derandomize=True)


def contract(schema: dict[str, Any], name: str = "thing") -> Contract:
    """A contract around ``schema``, through the loader's own pipeline (schema checked, validator compiled)."""
    text = json.dumps({"description": "A thing.", "schema": schema})
    return contract_from_text(name, text, Path(f"{name}.json"))


def separates(change: Change, old: Contract, new: Contract) -> bool:
    """Whether the change's witness is valid under the version that accepts it and invalid under the other."""
    witness = change.witness
    if witness is None:
        return False
    accepting, rejecting = (old, new) if witness.source == "old" else (new, old)
    expected = "old" if change.direction == "backward" else "new"
    return (
        witness.source == expected
        and is_valid(accepting.compiled, witness.document)
        and not is_valid(rejecting.compiled, witness.document)
        and bool(witness.errors)
    )
