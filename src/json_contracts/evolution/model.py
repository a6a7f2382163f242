"""What ``json-contracts diff`` finds: changes between two versions of a contract, each with the
compatibility it breaks and, when found, a witness document that proves it.

Two directions, named as schema registries name them: **backward** breaks when the new version
rejects a document the old one accepted (stored documents, agents still writing the old shape);
**forward** breaks when the new version accepts a document the old one rejected (consumers written
against the old contract). A mode says which directions a contract must keep.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from json_contracts.contracts.model import Contract
from json_contracts.findings import Code
from json_contracts.schema.validation import ErrorRecord

__all__ = [
    "MODES",
    "Change",
    "ContractDiff",
    "Direction",
    "Focus",
    "Mode",
    "Status",
    "Witness",
    "directions_of",
]

Direction = Literal["backward", "forward"]
Mode = Literal["backward", "forward", "full", "none"]
Status = Literal["added", "removed", "renamed", "changed", "unchanged"]
MODES: tuple[Mode, ...] = ("backward", "forward", "full", "none")


def directions_of(mode: Mode) -> tuple[Direction, ...]:
    """The directions a mode keeps: ``full`` both, ``none`` neither."""
    kept: dict[Mode, tuple[Direction, ...]] = {
        "backward": ("backward",),
        "forward": ("forward",),
        "full": ("backward", "forward"),
        "none": (),
    }
    return kept[mode]


@dataclass(frozen=True)
class Focus:
    """Where to look for a witness: the value at ``pointer`` (in the schema documents are drawn
    from, without the ``/schema`` prefix) must also satisfy ``schema``."""

    pointer: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Witness:
    """A document valid under one version and invalid under the other, with the other's errors.

    ``source`` is the version that accepts it (``old`` for a backward break).
    """

    document: Any
    errors: list[ErrorRecord]
    source: Literal["old", "new"]


@dataclass
class Change:
    """One difference that matters to producers or consumers of the contract's documents.

    ``direction`` is the compatibility it breaks (None: information only, such as new rules);
    ``old_pointer`` and ``new_pointer`` are JSON pointers into each file (None where the place
    does not exist in that version). ``proven`` is set when the change breaks by construction (a
    removed contract); otherwise ``witness`` proves it, or ``tried`` says how many documents the
    search drew without finding one.
    """

    code: Code
    direction: Direction | None
    message: str
    old_pointer: str | None = None
    new_pointer: str | None = None
    focus: Focus | None = None
    witness: Witness | None = None
    tried: int = 0
    proven: bool = False
    keywords: frozenset[str] = frozenset()  # the JSON Schema keywords whose errors this change explains

    @property
    def confirmed(self) -> bool:
        return self.proven or self.witness is not None


@dataclass
class ContractDiff:
    """One contract compared: how it changed, under which mode, and what the change breaks."""

    name: str
    status: Status
    mode: Mode
    old: Contract | None = None
    new: Contract | None = None
    renamed_from: str | None = None
    changes: list[Change] = field(default_factory=list)

    def breaking(self) -> list[Change]:
        """The changes that break the mode's directions and are proven (witness or construction)."""
        kept = directions_of(self.mode)
        return [c for c in self.changes if c.direction in kept and c.confirmed]

    def unproven(self) -> list[Change]:
        """Changes in the mode's directions that no witness confirmed: warnings, not failures."""
        kept = directions_of(self.mode)
        return [c for c in self.changes if c.direction in kept and not c.confirmed]

    @property
    def verdict(self) -> Literal["compatible", "breaking", "unchanged"]:
        if self.status == "unchanged" and not self.changes:
            return "unchanged"
        return "breaking" if self.breaking() else "compatible"
