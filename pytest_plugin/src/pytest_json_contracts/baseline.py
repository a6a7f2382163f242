"""``--json-contracts-base REF``: the contracts folder as a Git revision has it, and what each ``::compat``
item compares against it.

The base is read once per session, at start-up (so a revision Git does not know is a usage error
before anything runs), with :func:`json_contracts.evolution.revisions.load_revision`, the reader
``json-contracts diff --base`` uses. Contracts in both versions are compared by their item when it
runs (:func:`json_contracts.evolution.compare.diff_contracts`: the witness search is the costly
part, so an unselected item costs nothing); added, removed and renamed contracts are matched once by
:func:`~json_contracts.evolution.compare.diff_folders`, the CLI's matching, given only the contracts
that are not in both versions. The failure text is the CLI's: each change on a finding line, its
witness and the errors the other version gives it, and how to make the change safely.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from json_contracts.contracts.limits import limits_from_env
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.errors import EnvironmentVariableError
from json_contracts.evolution.model import MODES, ContractDiff, Mode, directions_of
from json_contracts.evolution.report import change_finding, status_text, witness_lines
from json_contracts.evolution.revisions import RevisionError, load_revision
from json_contracts.reporting.escaping import escape_text
from json_contracts.reporting.text import finding_text

if TYPE_CHECKING:
    from json_contracts.testing.results import RunOptions

__all__ = ["Baseline", "Comparison", "as_mode", "compat_text", "searched"]


def as_mode(value: str, where: str) -> Mode:
    """A compatibility mode read from ``[tool.json-contracts]`` (already checked there) as the engine's type."""
    for mode in MODES:
        if mode == value:
            return mode
    raise pytest.UsageError(f"{where}: unknown compatibility mode {value!r}; use one of {', '.join(MODES)}")


@dataclass(frozen=True)
class Comparison:
    """What one ``::compat`` item compares.

    ``diff`` is set when the answer needs no search (a contract added, removed or renamed); ``old``
    and ``new`` are the two versions of a contract in both, compared when the item runs;
    ``not_compared`` says why a contract is left alone (its base file did not load).
    """

    name: str
    mode: Mode
    diff: ContractDiff | None = None
    old: Contract | None = None
    new: Contract | None = None
    not_compared: str | None = None

    @property
    def file_name(self) -> str:
        """The contract's file name: a removed contract's item is named after the file it had."""
        versions = [self.new, self.old]
        if self.diff is not None:
            versions += [self.diff.new, self.diff.old]
        for contract in versions:
            if contract is not None and contract.source is not None:
                return contract.source.path.name
        return f"{self.name}.json"


@dataclass
class Baseline:
    """The base revision's contracts folder and the modes each contract keeps, for one session."""

    revision: str
    label: str  # REV:folder, as messages name the base
    old: LoadResult
    mode: Mode = "backward"
    overrides: Mapping[str, Mode] = field(default_factory=dict)
    _matches: tuple[LoadResult, dict[str, ContractDiff]] | None = field(default=None, init=False, repr=False)

    @classmethod
    def load(cls, directory: Path, revision: str, mode: Mode, overrides: Mapping[str, Mode]) -> Baseline:
        """Read ``directory`` as ``revision`` has it, with the ``JSON_CONTRACTS_MAX_*`` limits.

        Raises:
            pytest.UsageError: not a Git repository, an unknown revision, no such folder at it, or a bad limit.
        """
        try:
            limits = limits_from_env(os.environ)[0]
            old, label = load_revision(directory, revision, limits)
        except (RevisionError, EnvironmentVariableError) as exc:
            raise pytest.UsageError(f"--json-contracts-base {revision}: {exc}") from None
        return cls(revision, label, old, mode, overrides)

    def mode_of(self, name: str) -> Mode:
        return self.overrides.get(name, self.mode)

    def comparison(self, contract: Contract, new: LoadResult) -> Comparison | None:
        """What ``contract``'s ``::compat`` item compares, or None when it did not change (no item)."""
        name = contract.name
        before = self.old.contracts.get(name)
        if before is not None:
            if before.contract_hash == contract.contract_hash:
                return None
            return Comparison(name, self.mode_of(name), old=before, new=contract)
        failed = [f for f in self.old.failures if f.contract == name or f.file == f"{name}.json"]
        if failed:
            codes = ", ".join(sorted({f.code for f in failed}))
            reason = f"{name}.json did not load in the base {self.label} ({codes}), so it was not compared"
            return Comparison(name, self.mode_of(name), new=contract, not_compared=reason)
        diff = self._matched(new).get(name)
        return None if diff is None else Comparison(name, diff.mode, diff=diff)

    def removed(self, new: LoadResult) -> list[Comparison]:
        """The base's contracts the folder no longer has (renamed ones are their new name's item)."""
        diffs = self._matched(new).values()
        return [Comparison(d.name, d.mode, diff=d) for d in diffs if d.status == "removed"]

    def _matched(self, new: LoadResult) -> dict[str, ContractDiff]:
        """Added, removed and renamed contracts by name, matched as ``json-contracts diff`` matches them."""
        if self._matches is None or self._matches[0] is not new:
            both = set(self.old.contracts) & set(new.contracts)
            old_only = replace(self.old, contracts={n: c for n, c in self.old.contracts.items() if n not in both})
            new_only = replace(new, contracts={n: c for n, c in new.contracts.items() if n not in both})
            diffs: list[ContractDiff] = []
            if old_only.contracts or new_only.contracts:  # else nothing to match, and Hypothesis stays unimported
                from json_contracts.evolution.compare import DiffOptions, diff_folders

                # No search runs: no contract is in both.
                diffs = diff_folders(old_only, new_only, DiffOptions(self.mode, self.overrides))
            self._matches = (new, {diff.name: diff for diff in diffs})
        return self._matches[1]

    def run(self, comparison: Comparison, options: RunOptions) -> ContractDiff:
        """The comparison's diff: found when it was matched, or searched now for a changed contract."""
        if comparison.diff is not None:
            return comparison.diff
        assert comparison.old is not None
        assert comparison.new is not None
        from json_contracts.evolution.compare import diff_contracts

        return diff_contracts(comparison.old, comparison.new, comparison.mode, options)


def compat_text(diff: ContractDiff, folder: Path) -> str:
    """The contract's changes as ``json-contracts diff`` prints them: a header, then each finding and its witness."""
    lines = [escape_text(f"{diff.name}: {status_text(diff)}, {diff.mode}, {diff.verdict}")]
    for change in diff.changes:  # the witness on lines of its own, as the CLI's text shows it
        lines.append(finding_text(change_finding(diff, change, folder, witness=False)))
        lines += (escape_text(line) for line in witness_lines(change))
    return "\n".join(lines)


def searched(diff: ContractDiff) -> bool:
    """Whether a witness search drew documents for this diff, so that a seed repeats it."""
    if diff.old is None or diff.new is None or not directions_of(diff.mode):
        return False
    return diff.status == "changed" and diff.old.schema_hash != diff.new.schema_hash
