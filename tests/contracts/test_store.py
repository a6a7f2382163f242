"""ContractStore reloads: only changed files are rebuilt; broken files keep their last good version."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import json_contracts.contracts.loading as loading
from json_contracts.contracts.store import ContractStore


def _write(folder: Path, name: str, body: dict[str, Any]) -> None:
    (folder / f"{name}.json").write_text(json.dumps(body, indent=2), encoding="utf-8")


def _body(max_length: int) -> dict[str, Any]:
    return {"schema": {"type": "object", "properties": {"a": {"type": "string", "maxLength": max_length}}}}


@pytest.fixture
def counted_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the contracts the loader parsed, checked and compiled (not reused)."""
    built: list[str] = []
    original = loading._parse_and_build

    def counting(name: str, *args: Any) -> Any:
        built.append(name)
        return original(name, *args)

    monkeypatch.setattr(loading, "_parse_and_build", counting)
    return built


def test_a_reload_rebuilds_only_the_file_that_changed(tmp_path: Path, counted_builds: list[str]) -> None:
    for i in range(20):
        _write(tmp_path, f"c{i:02}", _body(10 + i))
    store = ContractStore.open(tmp_path)
    assert len(counted_builds) == 20
    unchanged = store.contracts["c03"]

    _write(tmp_path, "c07", _body(99))
    outcome = store.reload()

    assert counted_builds[20:] == ["c07"]
    assert outcome.changed is True
    assert store.contracts["c03"] is unchanged
    assert store.contracts["c07"].schema["properties"]["a"]["maxLength"] == 99


def test_a_reload_with_nothing_changed_rebuilds_nothing(tmp_path: Path, counted_builds: list[str]) -> None:
    _write(tmp_path, "only", _body(5))
    store = ContractStore.open(tmp_path)
    generation = store.generation

    outcome = store.reload()

    assert counted_builds == ["only"]
    assert outcome.changed is False
    assert store.generation == generation


def test_a_broken_edit_keeps_the_last_good_version_and_the_fix_is_rebuilt(tmp_path: Path) -> None:
    _write(tmp_path, "t", _body(5))
    store = ContractStore.open(tmp_path)
    good = store.contracts["t"]

    (tmp_path / "t.json").write_text("{ broken", encoding="utf-8")
    broken = store.reload()
    assert store.contracts["t"] is good
    assert [f.code for f in broken.failures] == ["JC014"]

    _write(tmp_path, "t", _body(5))  # the same text as the good version: reused as it is
    fixed = store.reload()
    assert fixed.failures == []
    assert store.contracts["t"] is good
