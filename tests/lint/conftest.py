"""Fixtures for lint tests: write one contract into a fresh folder, load it, lint it.

Positions are checked against the file text itself: ``Linted.at(needle)`` is the 1-based
line and column where ``needle`` starts (or, with ``after=True``, where the text after it
starts), so a test states "the finding points at this key / this value" without counting.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.findings import Finding
from json_contracts.lint import lint_contract


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


@pytest.fixture
def write_folder(tmp_path: Path) -> Callable[..., Path]:
    """Write ``{name: contract}`` into a new folder under tmp_path and return the folder."""
    counter = iter(range(1000))

    def write(files: dict[str, dict[str, Any] | str]) -> Path:
        folder = tmp_path / f"contracts-{next(counter)}"
        folder.mkdir()
        for name, contract in files.items():
            (folder / f"{name}.json").write_text(contract_text(contract), encoding="utf-8")
        return folder

    return write


@pytest.fixture
def load_one(write_folder: Callable[..., Path]) -> Callable[..., tuple[LoadResult, str]]:
    """Load a folder holding just this contract; returns the result and the file text."""

    def load(contract: dict[str, Any] | str, *, name: str = "sample") -> tuple[LoadResult, str]:
        folder = write_folder({name: contract})
        return load_contracts(folder), contract_text(contract)

    return load


@pytest.fixture
def lint_one(load_one: Callable[..., tuple[LoadResult, str]]) -> Callable[..., Linted]:
    """Load and lint one contract (which must load cleanly)."""

    def lint(contract: dict[str, Any] | str, *, name: str = "sample", ignore: Iterable[str] = ()) -> Linted:
        result, text = load_one(contract, name=name)
        assert result.failures == [], [f.message for f in result.failures]
        loaded = result.contracts[name]
        assert loaded.source is not None
        return Linted(text, loaded.source.path, loaded, lint_contract(loaded, ignore))

    return lint


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


@pytest.fixture
def quiet() -> Callable[..., dict[str, Any]]:
    return quiet_contract


@pytest.fixture
def obj() -> Callable[..., dict[str, Any]]:
    return closed
