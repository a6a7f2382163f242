"""``json-contracts validate``: success and failure in text, JSON and GitHub form; folder selection."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from json_contracts.contracts.loading import load_contracts
from tests.support.cli import RunCli, WriteContracts


def _position(text: str, needle: str) -> tuple[int, int]:
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def test_validate_prints_the_folder_and_each_contract_hash_in_sorted_order(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"zeta": samples.TICKET, "alpha": samples.OPEN_OBJECT})

    result = run_cli("validate", "-c", "contracts")

    assert result.exit_code == 0
    assert result.stderr == ""
    loaded = load_contracts(folder).contracts
    assert result.stdout.splitlines() == [
        f"Validated 2 contract(s) in {folder}.",
        f"- alpha {loaded['alpha'].contract_hash}",
        f"- zeta {loaded['zeta'].contract_hash}",
    ]
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", loaded["alpha"].contract_hash)


def test_validate_json_lists_contract_summaries_under_the_original_keys(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    result = run_cli("validate", "--json", "-c", str(folder))

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert list(report) == ["valid", "contractsDir", "loaded", "contracts", "findings"]
    assert report["valid"] is True
    assert report["contractsDir"] == str(folder)
    assert report["loaded"] == 1
    (summary,) = report["contracts"]
    assert list(summary) == ["name", "description", "contractHash", "schemaHash"]
    assert summary["name"] == "ticket"
    assert summary["description"] == "A tiny ticket."
    assert report["findings"] == []


def test_validate_fails_with_one_located_line_per_broken_file(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"good": samples.TICKET, "old": samples.VERSIONED, "cut": '{"schema": '})
    old_text = (folder / "old.json").read_text(encoding="utf-8")

    result = run_cli("validate", "-c", "contracts")

    assert result.exit_code == 1
    line, column = _position(old_text, '"1.0.0"')
    output = result.output.splitlines()
    assert "contracts/cut.json:1:12: JC014 error Invalid JSON: " in result.output
    assert (
        f"contracts/old.json:{line}:{column}: JC015 error Contract must not include a version field; "
        "use Git for versioning"
    ) in output
    assert output[-1] == "Contract validation failed: 2 error(s) in 2 file(s)."
    assert "Validated" not in result.output


def test_validate_json_failure_keeps_the_original_errors_list(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"good": samples.TICKET, "old": samples.VERSIONED})

    result = run_cli("validate", "--json", "-c", "contracts")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert list(report) == ["valid", "contractsDir", "errors", "findings"]
    assert report["valid"] is False
    assert report["contractsDir"] == str(folder)
    message = "Contract must not include a version field; use Git for versioning"
    assert report["errors"] == [f"Failed to load JSON contracts: old.json: {message}", f"- old.json: {message}"]
    (finding,) = report["findings"]
    assert finding["code"] == "JC015"
    assert finding["severity"] == "error"
    assert finding["file"] == "contracts/old.json"
    assert finding["pointer"] == "/version"


def test_validate_of_a_missing_folder_succeeds_with_no_contracts(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("validate", "-c", "does-not-exist")

    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"Validated 0 contract(s) in {workdir / 'does-not-exist'}."
    assert "Contracts directory does not exist; no contracts loaded" in result.output


def test_validate_json_of_a_missing_folder_reports_zero_contracts_and_a_warning(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("validate", "--json", "-c", "does-not-exist")

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert report["valid"] is True
    assert report["loaded"] == 0
    assert report["contracts"] == []
    assert [(f["code"], f["severity"]) for f in report["findings"]] == [("JC002", "warning")]


def test_validate_uses_json_contracts_dir_when_no_folder_is_given(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET}, folder="other/nested")

    result = run_cli("validate", env={"JSON_CONTRACTS_DIR": "other/nested"})

    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == f"Validated 1 contract(s) in {folder}."


def test_the_contracts_option_beats_json_contracts_dir(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET}, folder="chosen")
    write_contracts({"a": samples.TICKET, "b": samples.TICKET}, folder="from-env")

    result = run_cli("validate", "--contracts", "chosen", env={"JSON_CONTRACTS_DIR": "from-env"})

    assert result.stdout.splitlines()[0] == f"Validated 1 contract(s) in {folder}."


@pytest.mark.parametrize("env_value", ["", None])
def test_an_empty_or_unset_json_contracts_dir_falls_back_to_json_contracts_in_cwd(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path, env_value: str | None
) -> None:
    folder = write_contracts({"ticket": samples.TICKET}, folder="json-contracts")
    write_contracts({"stray": samples.TICKET}, folder=".")

    result = run_cli("validate", env={"JSON_CONTRACTS_DIR": env_value})

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"Validated 1 contract(s) in {folder}.",
        f"- ticket {load_contracts(folder).contracts['ticket'].contract_hash}",
    ]


def test_validate_github_format_annotates_each_failure(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"old": samples.VERSIONED})
    line, column = _position((folder / "old.json").read_text(encoding="utf-8"), '"1.0.0"')

    result = run_cli("validate", "--format", "github", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"::error file=contracts/old.json,line={line},col={column},title=JC015::"
        "Contract must not include a version field; use Git for versioning"
    ]


def test_json_and_a_different_format_together_are_a_usage_error(run_cli: RunCli) -> None:
    result = run_cli("validate", "--json", "--format", "github")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["Error: --json and --format cannot disagree; use one of them"]


def test_an_unknown_command_is_a_one_line_usage_error(run_cli: RunCli) -> None:
    result = run_cli("bogus")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("Error: ")
    assert "bogus" in result.stderr


def test_an_unknown_option_is_a_one_line_usage_error(run_cli: RunCli) -> None:
    result = run_cli("validate", "--bogus")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "--bogus" in result.stderr


def test_a_contracts_option_without_a_value_is_a_usage_error(run_cli: RunCli) -> None:
    result = run_cli("validate", "-c")

    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")


def test_validate_github_format_prints_nothing_for_a_clean_folder(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"ticket": samples.TICKET})

    result = run_cli("validate", "--format", "github", "-c", "contracts")

    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_a_contracts_path_that_is_a_file_fails_with_the_plain_message(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "afile").write_text("", encoding="utf-8")

    text = run_cli("validate", "-c", "afile")
    report = json.loads(run_cli("validate", "--json", "-c", "afile").stdout)

    assert text.exit_code == 1
    assert text.output.splitlines()[0].startswith(
        f"afile: JC003 error Cannot read contracts directory {workdir / 'afile'}: "
    )
    assert report["valid"] is False
    assert len(report["errors"]) == 1
    assert report["errors"][0].startswith(f"Cannot read contracts directory {workdir / 'afile'}: ")


def test_an_empty_contracts_option_is_a_usage_error(run_cli: RunCli) -> None:
    result = run_cli("validate", "-c", "")

    assert result.exit_code == 2
    assert result.stderr.startswith("Error: --contracts needs a folder path")


def test_a_missing_folder_is_reported_without_a_line_and_column(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("validate", "-c", "nowhere")
    report = json.loads(run_cli("validate", "--json", "-c", "nowhere").stdout)

    assert result.exit_code == 0
    assert "nowhere: JC002 warning Contracts directory does not exist" in result.stdout
    assert report["findings"][0]["line"] is None


def test_an_option_before_the_command_is_a_usage_error_that_says_where_options_go(run_cli: RunCli) -> None:
    result = run_cli("-c", "contracts")

    assert result.exit_code == 2
    assert result.stderr == (
        "Error: No such option '-c'. Options go after the command, as in json-contracts serve -c DIR.\n"
    )
