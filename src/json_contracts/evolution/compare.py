"""Comparing two versions of a contracts folder: match contracts, name the changes, prove them.

Contracts are matched by name; a contract only in the old version whose schema (``schemaHash``)
appears under another name only in the new one was renamed. For each contract whose schema
changed (and is not the same schema written differently), the static rules (:mod:`.rules`) name
the changes; then, for each direction the mode keeps, a focused search per change and a few broad
searches over the whole schema look for witnesses (:mod:`json_contracts.testing.witness`). A
witness proves a change only when it lands on it and the other version rejects it there; the
broad search looks for documents no proven change explains, so it credits a named change its
focused search missed, or finds one no rule names (JC430/JC431) even beside named ones. A
contract whose schema did not change costs no search. The old version's examples are checked
against the new schema, and the contract's rules, description and operations are compared as
information.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from json_contracts._json.pointers import escape_pointer_segment, pointer_from_parts, pointer_parts
from json_contracts._json.text import array_index, canonical
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.evolution.focus import document_place, focused_schema
from json_contracts.evolution.model import Change, ContractDiff, Direction, Mode, Status, Witness, directions_of
from json_contracts.evolution.rules import compare_schemas, equivalent
from json_contracts.findings import Code
from json_contracts.schema.compiled import CompiledSchema, compile_schema
from json_contracts.schema.validation import ErrorRecord, is_valid, iter_errors
from json_contracts.testing.results import RunOptions
from json_contracts.testing.witness import find_witness

__all__ = ["DiffOptions", "diff_contracts", "diff_folders"]

_MAX_ERRORS = 20
_ROUNDS = 3  # broad searches per direction: one that proves a named change is followed by another


@dataclass(frozen=True)
class DiffOptions:
    """The mode for every contract (``overrides`` by name), and the search budget per direction."""

    mode: Mode = "backward"
    overrides: Mapping[str, Mode] = field(default_factory=dict)
    run: RunOptions = field(default_factory=lambda: RunOptions(max_examples=100))

    def mode_of(self, name: str) -> Mode:
        return self.overrides.get(name, self.mode)


def diff_folders(old: LoadResult, new: LoadResult, options: DiffOptions | None = None) -> list[ContractDiff]:
    """One :class:`ContractDiff` per contract in either version, in name order (unchanged ones too);
    a contract whose file did not load in one of them is left out."""
    options = options or DiffOptions()
    diffs: list[ContractDiff] = []
    # A contract whose file did not load in either version is not compared: its load error is
    # reported instead, where comparing would call a broken file "removed" or a fixed one "added".
    unloaded = {f.contract for f in (*old.failures, *new.failures) if f.contract is not None}
    old_only = [name for name in old.contracts if name not in new.contracts and name not in unloaded]
    new_only = [name for name in new.contracts if name not in old.contracts and name not in unloaded]
    renamed: dict[str, str] = {}  # new name -> old name
    by_hash = {new.contracts[name].schema_hash: name for name in new_only}
    for name in old_only:
        target = by_hash.get(old.contracts[name].schema_hash)
        if target is not None and target not in renamed:
            renamed[target] = name
    for name in sorted((set(old.contracts) | set(new.contracts)) - unloaded):
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
        dialects = {"old_dialect": old.dialect, "new_dialect": new.dialect}
        static: list[Change] = []
        searched: list[Change] = []
        if not equivalent(old.schema, new.schema, **dialects):  # one schema written two ways: nothing to search
            static = compare_schemas(old.schema, new.schema, **dialects)
            for direction in directions_of(mode):
                proof = _Proof(old, new, direction, run)
                mine = [c for c in static if c.direction == direction]
                proof.focused(mine)
                searched += proof.broad(mine)
        changes = static + _old_examples(old, new) + searched + changes
    status: Status = "changed" if changes or old.contract_hash != new.contract_hash else "unchanged"
    return ContractDiff(new.name, status, mode, old=old, new=new, changes=changes)


def _sides(old: Contract, new: Contract, direction: Direction) -> tuple[Contract, Contract]:
    """(the version documents are drawn from, the version that judges them)."""
    return (old, new) if direction == "backward" else (new, old)


_SCHEMA_MAPS = ("properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


def _in_definition(pointer: str) -> str | None:
    """For a pointer into a definition (``/schema/$defs/a/properties/b``), the rest of it after the
    definition (``/properties/b``); None for a place outside every definition."""
    parts = pointer_parts(pointer)[1:]  # without "schema"
    rest: str | None = None
    i = 0
    while i < len(parts):
        listed = parts[i] in _SCHEMA_LISTS and i + 1 < len(parts) and array_index(parts[i + 1]) is not None
        if parts[i] in _SCHEMA_MAPS or listed:
            if parts[i] in ("$defs", "definitions"):
                rest = pointer_from_parts(parts[i + 2 :])
            i += 2
        else:
            i += 1
    return rest


def _place(change: Change) -> tuple[tuple[str | None, ...], bool]:
    """Where a change is in documents, and whether that place starts at the root: a change inside a
    definition is wherever the definition is used, so only the end of the place is known."""
    pointer = change.old_pointer if change.direction == "backward" else change.new_pointer
    inside = _in_definition(pointer or "")
    if inside is not None:
        return document_place(inside), False
    return (document_place(change.focus.pointer) if change.focus is not None else ()), True


def _at_change(place: tuple[str | None, ...], rooted: bool, keywords: frozenset[str], error: ErrorRecord) -> bool:
    """Whether an error is where a change is: at its place (or a property or item of it, where
    ``required`` and ``additionalProperties`` report), for one of its keywords; a change without
    keywords (a branch, a reference) takes any error at or under its place."""
    parts = pointer_parts(error["path"])
    for start in range(len(parts) - len(place) + 1) if not rooted else range(min(1, len(parts) - len(place) + 1)):
        window = parts[start : start + len(place)]
        if any(p is not None and p != q for p, q in zip(place, window, strict=True)):
            continue
        if not keywords or (error["keyword"] in keywords and len(parts) - start <= len(place) + 1):
            return True
    return False


def _evidence(change: Change, errors: list[ErrorRecord]) -> bool:
    """Whether the target's errors for a document include one this change explains."""
    place, rooted = _place(change)
    return any(_at_change(place, rooted, change.keywords, error) for error in errors)


class _Proof:
    """The witness searches of one direction: drawn from ``source``, judged by ``target``.

    A witness proves a change when it lands on it (the change's narrowed schema accepts it) and the
    target rejects it there (:func:`_evidence`): so a document rejected for another change's sake
    never confirms this one, and one document can prove several changes without a search each.
    """

    def __init__(self, old: Contract, new: Contract, direction: Direction, run: RunOptions) -> None:
        self.source, self.target = _sides(old, new, direction)
        self.direction = direction
        self.run = run
        self._landing: dict[int, CompiledSchema | None] = {}

    def narrowed(self, change: Change) -> dict[str, Any] | None:
        """The source's schema narrowed to the change, to draw from (None: the change has no place in it)."""
        if change.focus is None:
            return None
        return focused_schema(self.source.schema, change.focus, self.source.dialect)

    def lands(self, change: Change, document: Any, errors: list[ErrorRecord]) -> bool:
        """Whether a document the target rejects (with ``errors``) proves ``change``: the target rejects
        it where the change is, and the document is on the change (for one item, one extra property)."""
        if not _evidence(change, errors):
            return False
        if not _place(change)[1]:
            return True  # a definition used in several places: the errors say where it landed
        key = id(change)
        if key not in self._landing:
            schema = None
            if change.focus is not None:
                schema = focused_schema(self.source.schema, change.focus, self.source.dialect, exists=True)
            try:
                self._landing[key] = compile_schema(schema, self.source.dialect) if schema is not None else None
            except Exception:  # a narrowing the validator cannot build proves nothing
                self._landing[key] = None
        compiled = self._landing[key]
        return compiled is not None and is_valid(compiled, document)

    def witness(self, document: Any, errors: list[ErrorRecord]) -> Witness:
        return Witness(document, errors, "old" if self.direction == "backward" else "new")

    def options(self, label: str) -> RunOptions:
        """The run's options, with an example-database key of this search's own."""
        return replace(self.run, database_key=f"{self.run.database_key}\0{self.direction}\0{label}")

    def focused(self, changes: list[Change]) -> None:
        """One search per change, narrowed to it; a witness found for one change is reused by the others it proves."""
        found: list[Witness] = []
        for change in changes:
            reused = next((w for w in found if self.lands(change, w.document, w.errors)), None)
            if reused is not None:
                change.witness = reused
                continue
            schema = self.narrowed(change)
            if schema is None or change.focus is None:
                continue
            accept = partial(_accepts_for, change)
            label = f"{change.code}{change.focus.pointer}"
            search = find_witness(self.source, self.target.compiled, self.options(label), schema=schema, accept=accept)
            change.tried = search.tried
            if search.found:
                change.witness = self.witness(search.document, search.errors)
                found.append(change.witness)

    def broad(self, changes: list[Change]) -> list[Change]:
        """Searches over the whole schema for a document no proven change explains: it proves a named
        change, and the search goes on, or it is a change no rule names (JC430/JC431)."""
        for _ in range(_ROUNDS):
            proven = [c for c in changes if c.confirmed]
            accept = partial(_unexplained, self, proven)
            search = find_witness(self.source, self.target.compiled, self.options("broad"), accept=accept)
            for change in changes:
                if not change.confirmed:
                    change.tried += search.tried
            if not search.found:
                return []
            witness = self.witness(search.document, search.errors)
            owners = [c for c in changes if not c.confirmed and self.lands(c, search.document, search.errors)]
            for change in owners:
                change.witness = witness
            if not owners:
                return [self.unnamed(witness, search.tried)]
        return []

    def unnamed(self, witness: Witness, tried: int) -> Change:
        """A change no rule names, told by its witness's first error."""
        error = witness.errors[0]
        what = f"{error['keyword']} at {error['path'] or 'the root'}"
        if self.direction == "backward":
            code = Code.ACCEPTED_BEFORE_REJECTED_NOW
            message = (
                f"the new version rejects a document the old one accepted ({what}), at a change no rule names: "
                "documents like the witness are now rejected"
            )
        else:
            code = Code.REJECTED_BEFORE_ACCEPTED_NOW
            message = (
                f"the new version accepts a document the old one rejected ({what} in the old version), at a change "
                "no rule names: consumers may get documents like the witness"
            )
        return Change(code, self.direction, message, "/schema", "/schema", witness=witness, tried=tried)


def _accepts_for(change: Change, document: Any, errors: list[ErrorRecord]) -> bool:
    """A focused search's witness: rejected where the change is."""
    return _evidence(change, errors)


def _unexplained(proof: _Proof, proven: list[Change], document: Any, errors: list[ErrorRecord]) -> bool:
    """A broad search's witness: rejected for a reason no proven change gives."""
    return not any(proof.lands(change, document, errors) for change in proven)


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
