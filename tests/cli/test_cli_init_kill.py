"""``init`` killed (SIGKILL) at every file operation and at random moments: no half-written starter file.

Every file left in the folder is either a starter file byte for byte or one of init's own
temporaries (never ``*.json``, so nothing loads it), and the next ``init`` removes the
temporaries, skips the complete files and copies the rest.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from json_contracts.cli import main
from json_contracts.cli.files import TEMPORARY_PATTERN, remove_stale_temporaries, write_whole_file
from tests.support import init_kill_harness

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGKILL are POSIX")

STARTER = {
    item.name: item.read_bytes()
    for item in (resources.files("json_contracts.contracts.starter")).iterdir()
    if item.name.endswith(".json") or item.name == "LICENSE.md"
}
# Run as a script, in a process of its own; -P keeps its folder (tests/support, which has an mcp.py
# and a cli.py) off sys.path, where it could shadow the MCP SDK or anything else of that name.
HARNESS = Path(init_kill_harness.__file__)


def _kill_runs(base: Path, mode: str, count: int) -> list[dict[str, Any]]:
    process = subprocess.run(
        [sys.executable, "-P", str(HARNESS), str(base), mode, str(count), "8"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return [json.loads(line) for line in process.stdout.splitlines()]


def _problems(folder: Path) -> list[str]:
    """Anything in ``folder`` that is neither a whole starter file nor one of init's temporaries."""
    if not folder.exists():
        return []
    problems = []
    for path in folder.iterdir():
        if TEMPORARY_PATTERN.fullmatch(path.name):
            continue
        if path.name not in STARTER:
            problems.append(f"unexpected file {path.name}")
        elif path.read_bytes() != STARTER[path.name]:
            problems.append(f"{path.name}: {path.stat().st_size} of {len(STARTER[path.name])} bytes")
    return problems


def _init_again(folder: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["init", "--contracts", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_init_killed_before_each_of_its_file_operations_leaves_only_whole_files(tmp_path: Path) -> None:
    runs = _kill_runs(tmp_path, "steps", 200)

    assert runs[-1]["killed"] is False  # the last run got through: every operation had its turn
    for run in runs:
        folder = Path(run["folder"])
        assert _problems(folder) == [], run
        before = {p.name for p in folder.iterdir() if p.name in STARTER} if folder.exists() else set()

        report = _init_again(folder)  # the next init finishes the job

        assert set(report["skipped"]) == before
        assert set(report["copied"]) == set(STARTER) - before
        assert sorted(p.name for p in folder.iterdir()) == sorted(STARTER)  # temporaries gone
        assert _problems(folder) == []
    assert len(runs) > len(STARTER) * 2  # at least a write and a rename per file were interrupted


def test_init_killed_at_random_moments_leaves_only_whole_files(tmp_path: Path) -> None:
    runs = _kill_runs(tmp_path, "random", 150)

    assert any(run["killed"] for run in runs)
    for run in runs:
        assert _problems(Path(run["folder"])) == [], run


def test_a_failure_between_writing_and_renaming_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "support-ticket.json"
    target.write_bytes(b"my own edit")

    def no_space(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("json_contracts.cli.files.os.replace", no_space)
    with pytest.raises(OSError, match="No space left"):
        write_whole_file(target, STARTER["support-ticket.json"], overwrite=True)

    assert target.read_bytes() == b"my own edit"
    assert [p.name for p in tmp_path.iterdir()] == ["support-ticket.json"]


def test_without_force_an_existing_file_or_link_is_never_replaced(tmp_path: Path) -> None:
    (tmp_path / "kept.json").write_bytes(b"mine")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere")

    assert write_whole_file(tmp_path / "kept.json", b"starter", overwrite=False) is False
    assert write_whole_file(tmp_path / "dangling.json", b"starter", overwrite=False) is False
    assert write_whole_file(tmp_path / "new.json", b"starter", overwrite=False) is True

    assert (tmp_path / "kept.json").read_bytes() == b"mine"
    assert (tmp_path / "dangling.json").is_symlink()
    assert (tmp_path / "new.json").read_bytes() == b"starter"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling.json", "kept.json", "new.json"]


def test_only_temporaries_of_writers_no_longer_running_are_removed(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".json-contracts-{int(dead.stdout)}-0123abcd.support-ticket.json.tmp"
    live = tmp_path / ".json-contracts-1-89abcdef.support-ticket.json.tmp"  # pid 1 is always running
    other = tmp_path / ".support-ticket.json.swp"
    for path in (stale, live, other):
        path.write_bytes(b"partial")

    remove_stale_temporaries(tmp_path)

    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live.name, other.name])
