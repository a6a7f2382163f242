"""Comparing two versions of a contracts folder: match contracts, name the changes, prove them.

Contracts are matched by name; a contract only in the old version whose schema (``schemaHash``)
appears under another name only in the new one was renamed. For each contract whose schema
changed, the static rules (:mod:`.rules`) name the changes; then, for each direction the mode
keeps, a focused search per change and one broad search over the whole schema look for a witness
(:mod:`json_contracts.testing.witness`). A contract whose schema did not change costs no search.
The old version's examples are checked against the new schema, and the contract's rules,
description and operations are compared as information.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.text import canonical
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.evolution.focus import focused_schema
from json_contracts.evolution.model import Change, ContractDiff, Direction, Mode, Status, Witness, directions_of
from json_contracts.evolution.rules import compare_schemas
from json_contracts.findings import Code
from json_contracts.schema.validation import iter_errors
from json_contracts.testing.results import RunOptions
from json_contracts.testing.witness import find_witness

__all__ = ["DiffOptions", "diff_contracts", "diff_folders"]

_MAX_ERRORS = 20


@dataclass(frozen=True)
class DiffOptions:
    """The mode for every contract (``overrides`` by name), and the search budget per direction."""

    mode: Mode = "backward"
    overrides: Mapping[str, Mode] = field(default_factory=dict)
    run: RunOptions = field(default_factory=lambda: RunOptions(max_examples=100))

    def mode_of(self, name: str) -> Mode:
        return self.overrides.get(name, self.mode)


def diff_folders(old: LoadResult, new: LoadResult, options: DiffOptions | None = None) -> list[ContractDiff]:
    """One :class:`ContractDiff` per contract in either version, in name order (unchanged ones too)."""
    options = options or DiffOptions()
    diffs: list[ContractDiff] = []
    old_only = [name for name in old.contracts if name not in new.contracts]
    new_only = [name for name in new.contracts if name not in old.contracts]
    renamed: dict[str, str] = {}  # new name -> old name
    by_hash = {new.contracts[name].schema_hash: name for name in new_only}
    for name in old_only:
        target = by_hash.get(old.contracts[name].schema_hash)
        if target is not None and target not in renamed:
            renamed[target] = name
    for name in sorted(set(old.contracts) | set(new.contracts)):
        mode = options.mode_of(name)
        before, after = old.contracts.get(name), new.contracts.get(name)
        if before is not None and after is not None:
            diffs.append(diff_contracts(before, after, mode, options.run))
        elif after is not None and name in renamed:
            diffs.append(_renamed(renamed[name], old.contracts[renamed[name]], after, mode))
        elif after is not None:
            change = Change(Code.CONTRACT_ADDED, None, f"contract {name} was added", new_pointer="")
            diffs.append(ContractDiff(name, "added", mode, new=after, changes=[change]))
        elif before is not None and name not in renamed.values():
            message = f"contract {name} was removed: agents and apps that ask for it get 'Contract not found'"
            change = Change(Code.CONTRACT_REMOVED, _kept(mode), message, old_pointer="", proven=True)
            diffs.append(ContractDiff(name, "removed", mode, old=before, changes=[change]))
    return diffs


def _kept(mode: Mode) -> Direction | None:
    """The direction a removed or renamed contract breaks: both, so whichever the mode keeps."""
    kept = directions_of(mode)
    return kept[0] if kept else None


def _renamed(old_name: str, old: Contract, new: Contract, mode: Mode) -> ContractDiff:
    message = (
        f"contract {old_name} was renamed to {new.name} (same schema): callers that ask for {old_name} get "
        "'Contract not found'"
    )
    change = Change(Code.CONTRACT_RENAMED, _kept(mode), message, old_pointer="", new_pointer="", proven=True)
    return ContractDiff(new.name, "renamed", mode, old=old, new=new, renamed_from=old_name, changes=[change])


def diff_contracts(old: Contract, new: Contract, mode: Mode, run: RunOptions | None = None) -> ContractDiff:
    """How ``new`` differs from ``old`` (the same contract's two versions), each change proven where it can be."""
    run = run or RunOptions(max_examples=100)
    changes = _information(old, new)
    if old.schema_hash != new.schema_hash:
        static = compare_schemas(old.schema, new.schema)
        for direction in directions_of(mode):
            _prove(old, new, direction, [c for c in static if c.direction == direction], run)
        changes = static + _old_examples(old, new) + _searched(old, new, mode, static, run) + changes
    status: Status = "changed" if changes or old.contract_hash != new.contract_hash else "unchanged"
    return ContractDiff(new.name, status, mode, old=old, new=new, changes=changes)


def _sides(old: Contract, new: Contract, direction: Direction) -> tuple[Contract, Contract]:
    """(the version documents are drawn from, the version that judges them)."""
    return (old, new) if direction == "backward" else (new, old)


def _prove(old: Contract, new: Contract, direction: Direction, changes: list[Change], run: RunOptions) -> None:
    source, target = _sides(old, new, direction)
    for change in changes:
        if change.focus is None:
            continue
        narrowed = focused_schema(source.schema, change.focus)
        if narrowed is None:
            continue
        search = find_witness(source, target.compiled, run, schema=narrowed)
        change.tried = search.tried
        if search.found:
            change.witness = Witness(search.document, search.errors, "old" if direction == "backward" else "new")


def _searched(old: Contract, new: Contract, mode: Mode, static: list[Change], run: RunOptions) -> list[Change]:
    """The broad search per kept direction: it confirms a rule's change, or finds one no rule names."""
    found: list[Change] = []
    for direction in directions_of(mode):
        source, target = _sides(old, new, direction)
        search = find_witness(source, target.compiled, run)
        mine = [c for c in static if c.direction == direction]
        for change in mine:
            if not change.confirmed:
                change.tried += search.tried
        if not search.found:
            continue
        witness = Witness(search.document, search.errors, "old" if direction == "backward" else "new")
        keywords = {error["keyword"] for error in search.errors}
        explained = [c for c in mine if c.keywords & keywords]
        if any(c.confirmed for c in explained):
            continue
        if explained:
            explained[0].witness = witness
            continue
        code = Code.ACCEPTED_BEFORE_REJECTED_NOW if direction == "backward" else Code.REJECTED_BEFORE_ACCEPTED_NOW
        verb = (
            "the old version accepted and the new one rejects"
            if direction == "backward"
            else ("the old version rejected and the new one accepts")
        )
        message = f"a document {verb}, at a change no rule names (see the witness)"
        found.append(Change(code, direction, message, "/schema", "/schema", witness=witness, tried=search.tried))
    return found


def _old_examples(old: Contract, new: Contract) -> list[Change]:
    """Every example of the old version the new schema rejects: a backward break proven by the example itself."""
    found: list[Change] = []
    for label, pointer, group in old.all_examples():
        for i, example in enumerate(group):
            if not isinstance(example, dict):
                continue
            for key in ("output", "currentJson"):
                if key not in example:
                    continue
                errors = list(iter_errors(new.compiled, example[key], limit=_MAX_ERRORS))[:_MAX_ERRORS]
                if not errors:
                    continue
                message = f"the old {key} of {label}[{i}] does not validate against the new schema"
                change = Change(
                    Code.OLD_EXAMPLE_REJECTED,
                    "backward",
                    message,
                    old_pointer=f"{pointer}/{i}/{key}",
                    new_pointer="/schema",
                    witness=Witness(example[key], errors, "old"),
                    proven=True,
                )
                found.append(change)
    return found


def _information(old: Contract, new: Contract) -> list[Change]:
    """Rules, description and operations that changed: what the model reads, not what validates."""
    found: list[Change] = []
    if old.description != new.description:
        found.append(Change(Code.DESCRIPTION_CHANGED, None, "the description changed", "/description", "/description"))
    if old.rules != new.rules:
        found.append(Change(Code.RULES_CHANGED, None, "the contract's rules changed", "/rules", "/rules"))
    for name in sorted(set(old.operations) | set(new.operations)):
        before, after = old.operations.get(name, {}), new.operations.get(name, {})
        pointer = "/operations/" + escape_pointer_segment(name)
        if before.get("rules") != after.get("rules"):
            found.append(Change(Code.RULES_CHANGED, None, f"the rules of operation {name} changed", pointer, pointer))
        for key in ("enabled", "return"):
            if canonical(before.get(key)) != canonical(after.get(key)):
                message = f"operation {name}: {key} changed from {before.get(key)} to {after.get(key)}"
                found.append(Change(Code.OPERATIONS_CHANGED, None, message, pointer, pointer))
    return found
