"""``json-contracts test``: the property checks from the command line, every output format."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.cli import RunCli, RunScript, WriteContracts
from tests.support.samples import COUPLED


@pytest.mark.slow  # every property check on the eight starter contracts
def test_the_starter_set_passes_every_check(run_cli: RunCli, workdir: Path) -> None:
    assert run_cli("init").exit_code == 0

    result = run_cli("test", "--max-examples", "10", env={"CI": "true"})

    assert result.exit_code == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[-1] == "48 check(s) on 8 contract(s): 48 passed, 0 failed, 0 skipped."
    assert "pass support-ticket repair-hints: " in result.stdout


def test_a_failing_check_points_at_the_file_and_prints_the_evidence(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"coupled": COUPLED, "ticket": samples.TICKET})

    result = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "7")

    assert result.exit_code == 1
    fail = next(line for line in result.stdout.splitlines() if line.startswith("FAIL"))
    assert fail.startswith("FAIL contracts/coupled.json:2:13: JC204 error repair-hints: following the repairs")
    assert "     broken document:" in result.stdout
    assert "     error: /b must be equal to constant (const)" in result.stdout
    assert result.stdout.splitlines()[-1] == "Repeat this run with: json-contracts test --seed 7"
    assert "skip ticket edit: the edit operation is disabled" in result.stdout


def test_json_output_is_the_report_and_the_seed_repeats_the_run(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"coupled": COUPLED})

    first = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "99", "--json")
    second = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "99", "--json")

    report = json.loads(first.stdout)
    assert first.exit_code == 1
    assert report["ok"] is False
    assert report["seed"] == 99
    assert report["derandomized"] is False
    assert report["counts"] == {"passed": 3, "failed": 1, "skipped": 2}
    failed = [r for r in report["results"] if r["outcome"] == "failed"]
    assert [(r["check"], r["code"], r["file"], r["line"]) for r in failed] == [
        ("repair-hints", "JC204", "contracts/coupled.json", 2)
    ]
    assert json.loads(second.stdout)["results"] == report["results"]


def test_ci_runs_are_derandomised(run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    report = json.loads(run_cli("test", "-c", str(folder), "--max-examples", "5", "--json", env={"CI": "1"}).stdout)

    assert report["derandomized"] is True
    assert report["seed"] is None
    assert report["ok"] is True


def test_ci_set_to_false_is_not_ci(run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    report = json.loads(run_cli("test", "-c", str(folder), "--max-examples", "5", "--json", env={"CI": "false"}).stdout)

    assert report["derandomized"] is False
    assert isinstance(report["seed"], int)


def test_github_format_annotates_failed_checks_and_load_failures(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"coupled": COUPLED, "broken": "{ nope"})

    result = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "3", "--format", "github")

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("::error file=contracts/broken.json,line=1,col=3,title=JC014::Invalid JSON")
    assert lines[1].startswith("::error file=contracts/coupled.json,line=2,col=13,title=JC204::repair-hints: ")


def test_only_the_chosen_checks_and_contracts_run(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"coupled": COUPLED, "ticket": samples.TICKET})

    result = run_cli("test", "-c", str(folder), "--contract", "ticket", "--check", "hashes", "--check", "examples")

    assert result.exit_code == 0
    assert result.stdout.splitlines()[:2] == [
        "pass ticket examples: 2 examples validate",
        "pass ticket hashes: " + result.stdout.splitlines()[1].split(": ", 1)[1],
    ]
    assert "2 check(s) on 1 contract(s)" in result.stdout


def test_an_unknown_contract_is_a_one_line_usage_error(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    result = run_cli("test", "-c", str(folder), "--contract", "nope")

    assert result.exit_code == 2
    assert result.stderr == "Error: Contract not found: nope (loaded: ticket)\n"


def test_the_real_script_runs_the_checks(run_script: RunScript, workdir: Path) -> None:
    assert run_script("init").returncode == 0

    process = run_script("test", "--max-examples", "5", "--contract", "support-ticket", env={"CI": "1"})

    assert process.returncode == 0, process.stdout + process.stderr
    assert process.stdout.splitlines()[-1] == "6 check(s) on 1 contract(s): 6 passed, 0 failed, 0 skipped."
    assert process.stderr == ""


def test_sarif_summary_and_counts_for_ci(run_cli: RunCli, write_contracts: WriteContracts, workdir: Path) -> None:
    folder = write_contracts({"coupled": COUPLED})
    summary, counts = workdir / "summary.md", workdir / "counts.txt"

    result = run_cli(
        "test", "-c", str(folder), "--max-examples", "15", "--format", "sarif",
        "--summary", str(summary), "--counts", str(counts), env={"CI": "1"},
    )  # fmt: skip

    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert log["version"] == "2.1.0"
    [finding] = log["runs"][0]["results"]
    assert finding["ruleId"] == "JC204"
    assert finding["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    assert "JC204" in summary.read_text(encoding="utf-8")
    assert "errors=1" in counts.read_text(encoding="utf-8").splitlines()
