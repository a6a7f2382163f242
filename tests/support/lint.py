"""Helpers for the lint tests: one contract linted, with positions taken from its own file text.

Positions are checked against the file text itself: ``Linted.at(needle)`` is the 1-based
line and column where ``needle`` starts (or, with ``after=True``, where the text after it
starts), so a test states "the finding points at this key / this value" without counting.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.findings import Finding

#: The lint_one fixture: ``(contract, *, name="sample", ignore=())`` -> :class:`Linted`.
LintOne = Callable[..., "Linted"]
#: The lint folder's load_one fixture: ``(contract, *, name="sample")`` -> the load result and the file text.
LoadOne = Callable[..., tuple[LoadResult, str]]
#: The write_folder fixture: ``({name: contract})`` -> the new folder.
WriteFolder = Callable[..., Path]
#: The quiet and obj fixtures (:func:`quiet_contract`, :func:`closed`).
ContractMaker = Callable[..., dict[str, Any]]


def text_position(text: str, needle: str, *, after: bool = False, occurrence: int | None = None) -> tuple[int, int]:
    """Line and column (1-based) of ``needle`` in ``text`` (unique unless ``occurrence`` is given)."""
    if occurrence is None:
        assert text.count(needle) == 1, f"{needle!r} occurs {text.count(needle)} times in the test contract"
    offset = -1
    for _ in range(occurrence or 1):
        offset = text.index(needle, offset + 1)
    if after:
        offset += len(needle)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


@dataclass
class Linted:
    """One linted contract: its file text, the loaded contract and its findings."""

    text: str
    path: Path
    contract: Contract
    findings: list[Finding]

    @property
    def codes(self) -> list[str]:
        return [f.code for f in self.findings]

    def of(self, code: str) -> list[Finding]:
        return [f for f in self.findings if f.code == code]

    def one(self, code: str) -> Finding:
        found = self.of(code)
        assert len(found) == 1, f"expected one {code}, got {[(f.code, f.message) for f in self.findings]}"
        return found[0]

    def at(self, needle: str, *, after: bool = False, occurrence: int | None = None) -> tuple[int, int]:
        return text_position(self.text, needle, after=after, occurrence=occurrence)


def contract_text(contract: dict[str, Any] | str) -> str:
    return contract if isinstance(contract, str) else json.dumps(contract, indent=2, ensure_ascii=False) + "\n"


def quiet_contract(schema: Any, *outputs: Any, **fields: Any) -> dict[str, Any]:
    """A contract around ``schema`` that triggers no rule by itself: edit off, one example per output."""
    contract: dict[str, Any] = {"schema": schema, "operations": {"edit": {"enabled": False}}}
    contract["examples"] = [{"input": f"request {i}", "output": output} for i, output in enumerate(outputs)]
    contract.update(fields)
    return contract


def closed(properties: dict[str, Any], required: list[str] | None = None, **keywords: Any) -> dict[str, Any]:
    """An object schema with ``additionalProperties: false`` (so JC104 stays quiet)."""
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": properties}
    if required is not None:
        schema["required"] = required
    schema.update(keywords)
    return schema
