"""``json-contracts init``: copy the starter set, never overwrite without --force, report as text or JSON."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.cli import RunCli

STARTER_DIR = Path(str(resources.files("json_contracts.contracts.starter")))


def _init_text(target: Path, copied: list[str], skipped: list[str]) -> list[str]:
    lines = [
        f"Initialized starter contracts in {target}.",
        f"Copied {len(copied)} file(s). Skipped {len(skipped)} existing file(s).",
    ]
    if copied:
        lines.append("Copied: " + ", ".join(copied))
    if skipped:
        lines.append("Skipped: " + ", ".join(skipped) + " (they exist; use --force to overwrite)")
    return [*lines, "", "Next:"]


def test_init_copies_the_nine_starter_files_in_the_original_order(
    run_cli: RunCli, workdir: Path, samples: SimpleNamespace
) -> None:
    result = run_cli("init")

    assert result.exit_code == 0
    assert result.stderr == ""
    target = workdir / "json-contracts"
    lines = result.stdout.splitlines()
    assert lines[:5] == _init_text(target, samples.STARTER_FILES, [])
    assert lines[5].startswith("  json-contracts validate --contracts ")
    assert (workdir / lines[5].split("--contracts ", 1)[1]).resolve() == target
    assert lines[6:] == [
        "  Add json-contracts to your MCP host config with JSON_CONTRACTS_DIR pointing at this folder."
    ]
    assert sorted(p.name for p in target.iterdir()) == sorted(samples.STARTER_FILES)
    for name in samples.STARTER_FILES:
        assert (target / name).read_bytes() == (STARTER_DIR / name).read_bytes()


def test_a_second_init_skips_every_existing_file_and_keeps_local_edits(
    run_cli: RunCli, workdir: Path, samples: SimpleNamespace
) -> None:
    run_cli("init")
    edited = workdir / "json-contracts" / "support-ticket.json"
    edited.write_text("my own edit", encoding="utf-8")

    result = run_cli("init")

    assert result.exit_code == 0
    assert result.stdout.splitlines()[:5] == _init_text(workdir / "json-contracts", [], samples.STARTER_FILES)
    assert "Copied:" not in result.stdout
    assert edited.read_text(encoding="utf-8") == "my own edit"


def test_init_force_overwrites_every_file(run_cli: RunCli, workdir: Path, samples: SimpleNamespace) -> None:
    run_cli("init")
    edited = workdir / "json-contracts" / "support-ticket.json"
    edited.write_text("my own edit", encoding="utf-8")

    result = run_cli("init", "--force", "--json")

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["force"] is True
    assert report["copied"] == samples.STARTER_FILES
    assert report["skipped"] == []
    assert edited.read_bytes() == (STARTER_DIR / "support-ticket.json").read_bytes()


def test_init_json_has_the_original_shape_with_this_machines_paths(
    run_cli: RunCli, workdir: Path, samples: SimpleNamespace
) -> None:
    run_cli("init")

    result = run_cli("init", "--json")

    assert result.exit_code == 0
    assert result.stderr == ""
    expected = {
        "initialized": True,
        "force": False,
        "contractsDir": str(workdir / "json-contracts"),
        "sourceDir": str(STARTER_DIR),
        "copied": [],
        "skipped": samples.STARTER_FILES,
    }
    assert list(json.loads(result.stdout)) == list(expected)
    assert result.stdout == json.dumps(expected, indent=2) + "\n"


def test_init_creates_a_nested_custom_folder(run_cli: RunCli, workdir: Path, samples: SimpleNamespace) -> None:
    result = run_cli("init", "-c", "other/nested", "--json")

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["contractsDir"] == str(workdir / "other" / "nested")
    assert report["copied"] == samples.STARTER_FILES
    assert (workdir / "other" / "nested" / "LICENSE.md").is_file()


def test_init_fails_with_exit_1_when_a_path_component_is_a_file(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "blocker").write_text("not a folder", encoding="utf-8")

    result = run_cli("init", "-c", "blocker/sub")

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("Failed to initialize starter contracts: ")
    assert len(result.stderr.splitlines()) == 1
    assert "blocker" in result.stderr


def test_init_json_failure_reports_initialized_false_with_the_error(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "blocker").write_text("not a folder", encoding="utf-8")

    result = run_cli("init", "-c", "blocker/sub", "--json")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert list(report) == ["initialized", "contractsDir", "error"]
    assert report["initialized"] is False
    assert report["contractsDir"] == str(workdir / "blocker" / "sub")
    assert isinstance(report["error"], str)
    assert report["error"]


def test_init_then_lint_strict_in_an_empty_folder_passes(run_cli: RunCli) -> None:
    assert run_cli("init").exit_code == 0

    result = run_cli("lint", "--strict")

    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "No lint findings."


def test_init_into_a_path_that_is_a_file_fails_with_exit_1(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "afile").write_text("keep me", encoding="utf-8")

    result = run_cli("init", "-c", "afile")

    assert result.exit_code == 1
    assert result.stderr.startswith("Failed to initialize starter contracts: ")
    assert (workdir / "afile").read_text(encoding="utf-8") == "keep me"


def test_init_says_how_to_overwrite_what_it_skipped(run_cli: RunCli, workdir: Path) -> None:
    run_cli("init")
    (workdir / "json-contracts" / "support-ticket.json").unlink()

    result = run_cli("init")

    assert result.stdout.splitlines()[1:4] == [
        "Copied 1 file(s). Skipped 8 existing file(s).",
        "Copied: support-ticket.json",
        "Skipped: chart-generation.json, create-filter.json, ecommerce-return.json, expense-report.json, "
        "legal-client-intake.json, LICENSE.md, patient-intake.json, real-estate-lead.json "
        "(they exist; use --force to overwrite)",
    ]


@pytest.mark.parametrize("fmt", ["github", "sarif"])
def test_init_takes_text_or_json_only(run_cli: RunCli, workdir: Path, fmt: str) -> None:
    result = run_cli("init", "--format", fmt)

    assert result.exit_code == 2
    assert result.stderr == f"Error: Invalid value for '--format': '{fmt}' is not one of 'text', 'json'.\n"
    assert not (workdir / "json-contracts").exists()
