"""The engine's data: loaded contracts, findings and the results of loading.

Everything here is plain data. Adapters render it; :mod:`json_contracts.reporting.reports` turns it into
JSON-ready dicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from json_contracts._json.hashing import sha256_of
from json_contracts._json.pointers import escape_pointer_segment
from json_contracts._json.reading import SourceMap
from json_contracts.contracts.names import collation_key
from json_contracts.findings import Finding

if TYPE_CHECKING:  # the model stays light: the validator class is built by the loader, not imported here
    from json_contracts.schema.compiled import CompiledSchema

__all__ = ["Contract", "LoadResult", "SourceFile"]


@dataclass(frozen=True, eq=False)
class SourceFile:
    """A contract file's path and text, with a lazily built map from pointers to positions."""

    path: Path
    text: str

    @cached_property
    def source_map(self) -> SourceMap:
        return SourceMap(self.text)

    def position(self, pointer: str, *, key: bool = False) -> tuple[int, int]:
        return self.source_map.position(pointer, key=key)


@dataclass(frozen=True, eq=False)
class Contract:
    """A loaded, normalised contract and where it came from."""

    name: str
    description: str | None
    rules: list[str]
    operations: dict[str, dict[str, Any]]
    schema: dict[str, Any]
    examples: list[Any]
    schema_hash: str
    dialect: str
    compiled: CompiledSchema
    source: SourceFile | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def contract_hash(self) -> str:
        """SHA-256 of the public body (:meth:`public_body`)."""
        return sha256_of(self.public_body())

    def public_body(self) -> dict[str, Any]:
        """The object ``contractHash`` is computed from."""
        body: dict[str, Any] = {"name": self.name}
        if self.description:
            body["description"] = self.description
        body.update(rules=self.rules, operations=self.operations, schema=self.schema, examples=self.examples)
        return body

    def summary(self) -> dict[str, Any]:
        """``{name, description?, contractHash, schemaHash}`` as list_contracts shows it."""
        item: dict[str, Any] = {"name": self.name}
        if self.description:
            item["description"] = self.description
        item["contractHash"] = self.contract_hash
        item["schemaHash"] = self.schema_hash
        return item

    def all_examples(self) -> list[tuple[str, str, list[Any]]]:
        """Example groups: ``(label, JSON pointer in the file, examples)``.

        Labels are the TypeScript server's (``examples``, ``operations.<op>.examples``); pointers are
        escaped per RFC 6901, so an operation named ``v1.summary`` still maps to its place.
        """
        groups: list[tuple[str, str, list[Any]]] = [("examples", "/examples", self.examples)]
        for op_name, op in self.operations.items():
            pointer = "/operations/" + escape_pointer_segment(op_name) + "/examples"
            groups.append((f"operations.{op_name}.examples", pointer, op.get("examples", [])))
        return groups


@dataclass
class LoadResult:
    """What loading a folder gave: the contracts that loaded and every finding.

    ``failures`` are the files that did not load (errors, in the TypeScript server's order);
    ``warnings`` are notes that did not stop loading (e.g. a skipped symbolic link).
    ``schema_checked`` holds, by name, the files whose only failure is an example output that does
    not validate (JC020): every check before that passed, so their schema is usable and lint reads
    it (a schema mistake is often why a correct example fails). They are not loaded: no command
    serves, tests or counts them.
    """

    directory: Path
    contracts: dict[str, Contract] = field(default_factory=dict)
    failures: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)
    missing_directory: bool = False
    schema_checked: dict[str, Contract] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.failures

    def failure_message(self) -> str:
        """The TypeScript server's aggregated message: ``Failed to load JSON contracts: f: m; …``."""
        joined = "; ".join(f"{f.file}: {f.message}" for f in self.failures)
        return f"Failed to load JSON contracts: {joined}"

    def sorted_contracts(self) -> list[Contract]:
        return [self.contracts[n] for n in sorted(self.contracts, key=collation_key)]
