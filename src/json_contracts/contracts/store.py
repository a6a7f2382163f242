"""The live set of contracts a long-running server answers from, and how it reloads.

A reload rescans the folder. A contract that loaded before and now fails keeps serving its last
good version (it never silently disappears), and the failure is kept for ``status``; the next
good save takes effect. A file that was deleted is dropped, and so is every contract when the
folder itself is gone. A folder that cannot be listed (unreadable, or no longer a folder) says
nothing about its files, so everything keeps serving and the failure is reported.

Readers and reloads may run on different threads (the server reloads off its event loop).
Everything a reader sees is one immutable :class:`Snapshot`, replaced by a single reference
assignment, so a call that takes :attr:`ContractStore.snapshot` once answers wholly from the old
set or wholly from the new one. Reloads are serialised, so a reload that started later never
loses to one that read the folder earlier.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from json_contracts.contracts.loading import Limits, load_contracts
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.contracts.names import collation_key, is_safe_name
from json_contracts.errors import ContractNotFoundError, InvalidContractNameError, LoadError
from json_contracts.findings import Code, Finding

__all__ = ["ContractStore", "ReloadOutcome", "Snapshot"]

FOLDER_CODES = frozenset(
    {Code.MISSING_DIRECTORY, Code.UNREADABLE_DIRECTORY}
)  # findings about the folder itself, not one file


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One consistent served set: contracts, the failures and warnings of the load that made it.

    Never mutated after it is built; a reload makes a new one.
    """

    contracts: Mapping[str, Contract] = field(default_factory=lambda: MappingProxyType({}))
    failures: tuple[Finding, ...] = ()
    warnings: tuple[Finding, ...] = ()
    generation: int = 0  # bumped whenever a reload changes what is served
    names: tuple[str, ...] = ()  # the contract names in the TypeScript server's sort order

    @classmethod
    def build(
        cls, contracts: dict[str, Contract], failures: list[Finding], warnings: list[Finding], generation: int
    ) -> Snapshot:
        names = tuple(sorted(contracts, key=collation_key))
        return cls(MappingProxyType(dict(contracts)), tuple(failures), tuple(warnings), generation, names)

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

    def sorted_contracts(self) -> list[Contract]:
        return [self.contracts[name] for name in self.names]

    def failure_records(self) -> list[dict[str, Any]]:
        """``{file, message, line, column, code}`` per failed file, and for a missing or unreadable folder."""
        problems = [*self.failures, *(w for w in self.warnings if w.code in FOLDER_CODES)]
        return [
            {"file": f.file, "message": f.message, "line": f.line, "column": f.column, "code": f.code} for f in problems
        ]

    def signature(self) -> list[tuple[str, str]]:
        return sorted((name, c.contract_hash) for name, c in self.contracts.items())


@dataclass(frozen=True)
class ReloadOutcome:
    """What a reload did: whether the served set changed, the files that failed, the new snapshot."""

    changed: bool
    failures: list[Finding]
    message: str | None  # the TypeScript server's aggregated message when the reload failed
    snapshot: Snapshot = field(default_factory=Snapshot)


class ContractStore:
    """Contracts served from one folder, reloadable while serving.

    ``allow_invalid`` is the TypeScript server's ``ALLOW_INVALID_CONTRACTS``: when false, a folder with
    a broken file fails to *start* (:meth:`open` raises) and a reload that meets one reports the
    failure (:attr:`ReloadOutcome.message`); when true, both skip the broken file. Either way later
    breakages never take a served contract away.
    """

    def __init__(self, directory: Path, allow_invalid: bool = False, limits: Limits | None = None) -> None:
        self.directory = directory
        self.allow_invalid = allow_invalid
        self.limits = limits or Limits()
        self.snapshot = Snapshot()  # replaced whole, never mutated: read it once per answer
        self._reload_lock = threading.Lock()

    @classmethod
    def open(
        cls, directory: str | os.PathLike[str], *, allow_invalid: bool = False, limits: Limits | None = None
    ) -> ContractStore:
        """Load the folder for serving.

        Raises:
            LoadError: a file failed and ``allow_invalid`` is false (the TypeScript server refuses to start).
        """
        store = cls(Path(os.path.abspath(directory)), allow_invalid, limits)
        result = load_contracts(store.directory, store.limits)
        if not result.ok and not allow_invalid:
            raise LoadError(result.failure_message(), result.failures)
        store.snapshot = store._next(store.snapshot, result)
        return store

    @staticmethod
    def _next(previous: Snapshot, result: LoadResult) -> Snapshot:
        """The snapshot a load result makes, keeping last good versions where files failed."""
        if any(f.code in FOLDER_CODES for f in result.failures):  # the folder could not be listed
            kept = dict(previous.contracts)
        else:
            kept = {}
            for finding in result.failures:
                if finding.contract and finding.contract in previous.contracts and finding.code != Code.DUPLICATE_NAME:
                    kept[finding.contract] = previous.contracts[finding.contract]
        contracts = {**kept, **result.contracts}
        snapshot = Snapshot.build(contracts, result.failures, result.warnings, previous.generation)
        if snapshot.signature() != previous.signature():
            snapshot = Snapshot.build(contracts, result.failures, result.warnings, previous.generation + 1)
        return snapshot

    def reload(self) -> ReloadOutcome:
        """Rescan the folder; keep each broken contract's last good version; rebuild only changed files.

        Safe to call from several threads: reloads run one at a time, each reading the folder
        after the previous one has been applied.
        """
        with self._reload_lock:
            previous = self.snapshot
            result = load_contracts(self.directory, self.limits, reuse=previous.contracts)
            snapshot = self._next(previous, result)
            self.snapshot = snapshot  # the one assignment readers can observe
        # As in the TypeScript server, allowing invalid contracts makes a reload that meets a broken
        # file succeed (the file is skipped, ``failures`` says why); a folder that cannot be listed
        # still fails it.
        refused = not result.ok and (not self.allow_invalid or any(f.code in FOLDER_CODES for f in result.failures))
        message = result.failure_message() if refused else None
        changed = snapshot.generation != previous.generation
        return ReloadOutcome(changed, list(result.failures), message, snapshot)

    # -- reads of the current snapshot (each one call; take ``snapshot`` once for several reads) --

    @property
    def contracts(self) -> Mapping[str, Contract]:
        return self.snapshot.contracts

    @property
    def failures(self) -> tuple[Finding, ...]:
        return self.snapshot.failures

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return self.snapshot.warnings

    @property
    def generation(self) -> int:
        return self.snapshot.generation

    def names(self) -> list[str]:
        """Contract names in the TypeScript server's sort order."""
        return list(self.snapshot.names)

    def sorted_contracts(self) -> list[Contract]:
        return self.snapshot.sorted_contracts()

    def get(self, name: str) -> Contract:
        """The contract called ``name`` (see :meth:`Snapshot.get`)."""
        return self.snapshot.get(name)

    def failure_records(self) -> list[dict[str, Any]]:
        return self.snapshot.failure_records()
