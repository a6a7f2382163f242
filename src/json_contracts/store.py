"""The live set of contracts a long-running server answers from, and how it reloads.

A reload rescans the folder. A contract that loaded before and now fails keeps serving its last
good version (it never silently disappears), and the failure is kept for ``status``; the next
good save takes effect. A file that was deleted is dropped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from json_contracts.errors import ContractNotFoundError, InvalidContractNameError, LoadError
from json_contracts.loading import Limits, load_contracts
from json_contracts.model import Contract, Finding, LoadResult
from json_contracts.names import collation_key, is_safe_name

__all__ = ["ContractStore", "ReloadOutcome"]


@dataclass(frozen=True)
class ReloadOutcome:
    """What a reload did: whether the served set changed, and the files that failed."""

    changed: bool
    failures: list[Finding]
    message: str | None  # the original's aggregated message when something failed


def _signature(contracts: dict[str, Contract]) -> list[tuple[str, str]]:
    return sorted((name, c.contract_hash) for name, c in contracts.items())


@dataclass
class ContractStore:
    """Contracts served from one folder, reloadable while serving.

    ``allow_invalid`` is the original's ``ALLOW_INVALID_CONTRACTS``: when false, a folder with
    a broken file fails to *start* (:meth:`open` raises); later breakages never take a served
    contract away.
    """

    directory: Path
    allow_invalid: bool = False
    limits: Limits = field(default_factory=Limits)
    contracts: dict[str, Contract] = field(default_factory=dict)
    failures: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    generation: int = 0  # bumped whenever a reload changes what is served

    @classmethod
    def open(
        cls, directory: str | os.PathLike[str], *, allow_invalid: bool = False, limits: Limits | None = None
    ) -> ContractStore:
        """Load the folder for serving.

        Raises:
            LoadError: a file failed and ``allow_invalid`` is false (the original refuses to start).
        """
        store = cls(Path(os.path.abspath(directory)), allow_invalid, limits or Limits())
        result = load_contracts(store.directory, store.limits)
        if not result.ok and not allow_invalid:
            raise LoadError(result.failure_message(), result.failures)
        store._apply(result)
        return store

    def _apply(self, result: LoadResult) -> None:
        kept = {}
        for finding in result.failures:
            if finding.contract and finding.contract in self.contracts and finding.code != "JC010":
                kept[finding.contract] = self.contracts[finding.contract]
        self.contracts = {**kept, **result.contracts}
        self.failures = list(result.failures)
        self.warnings = list(result.warnings)

    def reload(self) -> ReloadOutcome:
        """Rescan the folder; keep each broken contract's last good version; rebuild only changed files."""
        before = _signature(self.contracts)
        result = load_contracts(self.directory, self.limits, reuse=self.contracts)
        self._apply(result)
        message = None if result.ok else result.failure_message()
        changed = _signature(self.contracts) != before
        if changed:
            self.generation += 1
        return ReloadOutcome(changed, list(result.failures), message)

    def names(self) -> list[str]:
        """Contract names in the original's sort order."""
        return sorted(self.contracts, key=collation_key)

    def sorted_contracts(self) -> list[Contract]:
        return [self.contracts[name] for name in self.names()]

    def get(self, name: str) -> Contract:
        """The contract called ``name``.

        Raises:
            InvalidContractNameError: the name breaks the safe-name rule.
            ContractNotFoundError: no such contract is loaded (names are case-sensitive).
        """
        if not is_safe_name(name):
            raise InvalidContractNameError(f"Invalid contract name: {name}")
        contract = self.contracts.get(name)
        if contract is None:
            raise ContractNotFoundError(f"Contract not found: {name}")
        return contract

    def failure_records(self) -> list[dict[str, Any]]:
        """``{file, message, line, column}`` for each file that failed on the last (re)load."""
        return [
            {"file": f.file, "message": f.message, "line": f.line, "column": f.column, "code": f.code}
            for f in self.failures
        ]
