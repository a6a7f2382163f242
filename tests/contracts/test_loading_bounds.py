"""A contracts folder is bounded as a whole: number of contract files and their total size.

Before: only each file was bounded, and ``lint`` takes about 15 MB per 256 KiB file, so a pull
request adding 1,000 copies of one large file (cheap in Git) needed gigabytes. Now the files are
counted and their sizes summed, in name order, before any is opened: those that fit are loaded, and
each file past the budget is refused by name (JC005), naming the folder, the figure, the limit and
the variable that raises it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from json_contracts.contracts.limits import ENVIRONMENT, Limits, limits_from_env
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.store import ContractStore
from json_contracts.errors import EnvironmentVariableError
from tests.support.cli import script_path

CONTRACT: dict[str, Any] = {
    "description": "A small contract.",
    "schema": {"type": "object", "properties": {"a": {"type": "string"}}},
    "examples": [{"input": "go", "output": {"a": "x"}}],
}


def _folder(tmp_path: Path, names: list[str], *, text: str | None = None) -> Path:
    folder = tmp_path / "json-contracts"
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / f"{name}.json").write_text(text or json.dumps(CONTRACT), encoding="utf-8")
    return folder


def test_files_past_the_count_are_refused_by_name_in_name_order(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["e", "c", "a", "d", "b"])

    result = load_contracts(folder, Limits(max_folder_files=3))

    assert sorted(result.contracts) == ["a", "b", "c"]
    assert [(f.file, f.code, f.contract) for f in result.failures] == [
        ("d.json", "JC005", "d"),
        ("e.json", "JC005", "e"),
    ]
    message = result.failures[0].message
    assert str(folder) in message
    assert "5 contract files" in message
    assert "limit of 3" in message
    assert "JSON_CONTRACTS_MAX_FOLDER_FILES" in message


def test_files_past_the_byte_budget_are_refused_before_they_are_read(tmp_path: Path) -> None:
    size = len(json.dumps(CONTRACT).encode())
    folder = _folder(tmp_path, ["a", "b", "c"])
    (folder / "d.json").write_text("{ not json", encoding="utf-8")  # never parsed: no JC014 for it

    result = load_contracts(folder, Limits(max_folder_bytes=2 * size + 5))

    assert sorted(result.contracts) == ["a", "b"]
    assert [f.file for f in result.failures] == ["c.json", "d.json"]
    assert {f.code for f in result.failures} == {"JC005"}
    message = result.failures[0].message
    assert str(folder) in message
    assert f"limit of {2 * size + 5} bytes" in message
    assert "JSON_CONTRACTS_MAX_FOLDER_BYTES" in message
    assert result.failures[0].hint is not None
    assert "JSON_CONTRACTS_MAX_FOLDER_BYTES" in result.failures[0].hint


def test_a_file_refused_on_its_own_size_does_not_use_the_folder_budget(tmp_path: Path) -> None:
    size = len(json.dumps(CONTRACT).encode())
    folder = _folder(tmp_path, ["b", "c"])
    (folder / "a.json").write_text(" " * 5000 + json.dumps(CONTRACT), encoding="utf-8")

    result = load_contracts(folder, Limits(max_file_bytes=4000, max_folder_bytes=2 * size))

    assert sorted(result.contracts) == ["b", "c"]
    assert [(f.file, f.message.startswith("Contract file exceeds size limit (")) for f in result.failures] == [
        ("a.json", True)
    ]


def test_a_server_keeps_serving_a_contract_its_folder_grew_past_the_budget(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["b", "c"])
    store = ContractStore.open(folder, limits=Limits(max_folder_files=2))
    _folder(tmp_path, ["a"])

    outcome = store.reload()

    assert store.names() == ["a", "b", "c"]  # c, now past the budget, keeps its last good version
    assert [f.file for f in outcome.failures] == ["c.json"]


def test_the_folder_limits_have_variables_defaults_and_ceilings() -> None:
    assert ENVIRONMENT["JSON_CONTRACTS_MAX_FOLDER_BYTES"] == ("contract", "max_folder_bytes", 256 * 1024 * 1024)
    assert ENVIRONMENT["JSON_CONTRACTS_MAX_FOLDER_FILES"] == ("contract", "max_folder_files", 20_000)
    assert (Limits().max_folder_bytes, Limits().max_folder_files) == (32 * 1024 * 1024, 2000)
    limits, _ = limits_from_env({"JSON_CONTRACTS_MAX_FOLDER_BYTES": "1_000", "JSON_CONTRACTS_MAX_FOLDER_FILES": "9"})
    assert (limits.max_folder_bytes, limits.max_folder_files) == (1000, 9)
    with pytest.raises(EnvironmentVariableError, match="JSON_CONTRACTS_MAX_FOLDER_FILES must be a whole number"):
        limits_from_env({"JSON_CONTRACTS_MAX_FOLDER_FILES": "20001"})


def test_a_bad_validation_timeout_stops_every_command_at_start() -> None:
    with pytest.raises(EnvironmentVariableError, match="JSON_CONTRACTS_VALIDATION_TIMEOUT"):
        limits_from_env({"JSON_CONTRACTS_VALIDATION_TIMEOUT": "soon"})


def _cli(folder: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "NO_COLOR": "1", **env}
    full.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [str(script_path()), *args, "-c", str(folder)],
        capture_output=True,
        text=True,
        env=full,
        cwd=folder.parent,
        timeout=120,
        check=False,
    )


def test_the_cli_refuses_files_past_the_folder_budget_by_name(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [f"c{i:02d}" for i in range(12)])

    ran = _cli(folder, "validate", env={"JSON_CONTRACTS_MAX_FOLDER_FILES": "10"})

    assert ran.returncode == 1, ran.stdout + ran.stderr
    refused = [line for line in ran.stdout.splitlines() if " JC005 " in line]
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in refused] == ["c10.json", "c11.json"]
    assert "JSON_CONTRACTS_MAX_FOLDER_FILES" in refused[0]
    assert str(folder) in refused[0]
    assert "Traceback" not in ran.stderr


def test_the_cli_stops_on_a_bad_validation_timeout(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["a"])

    ran = _cli(folder, "lint", env={"JSON_CONTRACTS_VALIDATION_TIMEOUT": "-1"})

    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "JSON_CONTRACTS_VALIDATION_TIMEOUT" in ran.stderr
