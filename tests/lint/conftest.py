"""Fixtures for lint tests: write one contract into a fresh folder, load it, lint it (see ``tests.support.lint``)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.lint import lint_contract
from tests.support.lint import (
    ContractMaker,
    Linted,
    LintOne,
    LoadOne,
    WriteFolder,
    closed,
    contract_text,
    quiet_contract,
)


@pytest.fixture
def write_folder(tmp_path: Path) -> WriteFolder:
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
def load_one(write_folder: WriteFolder) -> LoadOne:
    """Load a folder holding just this contract; returns the result and the file text."""

    def load(contract: dict[str, Any] | str, *, name: str = "sample") -> tuple[LoadResult, str]:
        folder = write_folder({name: contract})
        return load_contracts(folder), contract_text(contract)

    return load


@pytest.fixture
def lint_one(load_one: LoadOne) -> LintOne:
    """Load and lint one contract (which must load cleanly)."""

    def lint(contract: dict[str, Any] | str, *, name: str = "sample", ignore: Iterable[str] = ()) -> Linted:
        result, text = load_one(contract, name=name)
        assert result.failures == [], [f.message for f in result.failures]
        loaded = result.contracts[name]
        assert loaded.source is not None
        return Linted(text, loaded.source.path, loaded, lint_contract(loaded, ignore))

    return lint


@pytest.fixture
def quiet() -> ContractMaker:
    return quiet_contract


@pytest.fixture
def obj() -> ContractMaker:
    return closed
