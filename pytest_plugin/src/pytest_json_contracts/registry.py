"""The loaded contracts folder as app tests see it: the ``json_contracts`` fixture's value.

Loaded once per session (per xdist worker) and shared by the collected items, the fixture,
``assert_valid_json`` and the per-example parametrisation, so a folder is read only once.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from json_contracts.contracts.limits import limits_from_env
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.errors import EnvironmentVariableError
from json_contracts.findings import Finding
from json_contracts.reporting.documents import invalid_document_text
from json_contracts.reporting.text import finding_text
from json_contracts.schema.validation import validate
from json_contracts.testing.results import example_refs

__all__ = ["ContractExample", "ContractRegistry", "check_document"]


@dataclass(frozen=True)
class ContractExample:
    """One example of a contract, as a test receives it (values are copies: mutate freely).

    ``id`` is the item id (``example[0]``, ``edit.example[1]``); ``group`` the TypeScript server's label
    (``examples``, ``operations.edit.examples``); ``current_json`` is None unless it is an edit example.
    """

    contract: str
    id: str
    group: str
    index: int
    input: Any
    output: Any
    current_json: Any = None
    raw: Any = None


class ContractRegistry(Mapping[str, Contract]):
    """The contracts that loaded, by name, plus what did not load.

    ``registry["support-ticket"]`` is a :class:`~json_contracts.contracts.model.Contract`; ``names`` are
    sorted; ``failures`` are the load findings of files that did not load.
    """

    def __init__(self, result: LoadResult) -> None:
        self.result = result

    @classmethod
    def load(cls, directory: Path) -> ContractRegistry:
        """Load with the ``JSON_CONTRACTS_MAX_*`` limits, as ``json-contracts validate`` does."""
        try:
            limits = limits_from_env(os.environ)[0]
        except EnvironmentVariableError as exc:
            import pytest

            raise pytest.UsageError(str(exc)) from None
        return cls(load_contracts(directory, limits))

    @property
    def directory(self) -> Path:
        return self.result.directory

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.result.sorted_contracts()]

    @property
    def failures(self) -> list[Finding]:
        return list(self.result.failures)

    def __getitem__(self, name: str) -> Contract:
        try:
            return self.result.contracts[name]
        except KeyError:
            raise KeyError(self._unknown(name)) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.result.contracts)

    def __repr__(self) -> str:
        return f"<ContractRegistry {self.directory} {self.names}>"

    def _unknown(self, name: str) -> str:
        failed = [f for f in self.result.failures if f.contract == name or f.file == f"{name}.json"]
        if failed:
            return f"contract {name!r} did not load: " + "; ".join(finding_text(f) for f in failed)
        known = ", ".join(self.names) or "none"
        return f"no contract {name!r} in {self.directory} (loaded: {known})"

    def findings_for(self, path: Path) -> list[Finding]:
        """Load failures and skip warnings about one file (a duplicate-name group names every file)."""

        def about(finding: Finding) -> bool:
            if finding.path == path:
                return True
            in_folder = finding.path is not None and finding.path.parent == path.parent
            return in_folder and path.name in finding.file.split(", ")

        return [f for f in self.result.failures + self.result.warnings if about(f)]

    def examples(self, name: str) -> list[ContractExample]:
        """Every example of a contract in item order: top level first, then each operation's."""
        contract = self[name]
        groups = {label: group for label, _, group in contract.all_examples()}
        examples = []
        for ref in example_refs(contract):
            raw = copy.deepcopy(groups[ref.label][ref.index])
            fields = raw if isinstance(raw, dict) else {}
            examples.append(
                ContractExample(
                    contract.name,
                    ref.id,
                    ref.label,
                    ref.index,
                    fields.get("input"),
                    fields.get("output"),
                    fields.get("currentJson"),
                    raw,
                )
            )
        return examples

    def strategy(self, name: str, *, max_depth: int = 3) -> Any:
        """A Hypothesis strategy of documents valid against the contract (``strategies.from_contract``)."""
        from json_contracts.testing.strategies import from_contract

        return from_contract(self[name], max_depth=max_depth)


def check_document(contract: Contract, document: Any) -> str | None:
    """None when ``document`` is valid, else why not: the errors, the repair hints, then the document."""
    result = validate(contract.compiled, document)
    return None if result.valid else invalid_document_text(contract, document, result.errors)
