"""``json-contracts test``: the property checks from the command line, every output format."""

from __future__ import annotations

import json
import shlex
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
    assert result.stdout.splitlines()[-1] == (
        "Repeat this run with: json-contracts test -c contracts --max-examples 15 --seed 7"
    )
    assert "skip ticket edit: the edit operation is disabled" in result.stdout


def test_json_output_is_the_report_and_the_seed_repeats_the_run(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"coupled": COUPLED})

    # --no-database: the seed alone decides, no failure saved by the first run is replayed first
    first = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "99", "--json", "--no-database")
    second = run_cli("test", "-c", str(folder), "--max-examples", "15", "--seed", "99", "--json", "--no-database")

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


# --- repeating a run ----------------------------------------------------------------------------


def test_the_repeat_line_names_every_option_so_running_it_repeats_the_failure(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"coupled": COUPLED, "ticket": samples.TICKET})
    args = ("--contract", "coupled", "--check", "repair-hints", "--max-examples", "15", "--seed", "7", "--no-database")

    first = run_cli("test", *args, env={"JSON_CONTRACTS_DIR": "contracts"})

    assert first.exit_code == 1
    repeat = first.stdout.splitlines()[-1]
    assert repeat == (
        "Repeat this run with: json-contracts test -c contracts --contract coupled --check repair-hints "
        "--max-examples 15 --seed 7 --no-database"
    )
    again = run_cli(*shlex.split(repeat.removeprefix("Repeat this run with: json-contracts ")))
    assert again.exit_code == 1
    assert again.stdout == first.stdout  # the same checks, the same documents, the same evidence


def test_a_derandomised_run_that_fails_says_how_to_repeat_it(run_cli: RunCli, write_contracts: WriteContracts) -> None:
    write_contracts({"coupled": COUPLED})

    result = run_cli("test", "-c", "contracts", "--max-examples", "15", env={"CI": "1"})

    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == [
        "6 check(s) on 1 contract(s): 3 passed, 1 failed, 2 skipped.",
        "Repeat this run with: CI=true json-contracts test -c contracts --max-examples 15",
    ]


# --- a folder with nothing to test ----------------------------------------------------------------


def test_a_missing_folder_fails_in_every_output(run_cli: RunCli, workdir: Path) -> None:
    text = run_cli("test", "-c", "nowhere")
    report = json.loads(run_cli("test", "-c", "nowhere", "--json").stdout)
    github = run_cli("test", "-c", "nowhere", "--format", "github", "--contract", "ticket")  # the folder, not the name

    assert text.exit_code == 1
    missing = f"JC002 error Contracts directory does not exist; no contracts loaded from {workdir / 'nowhere'}; "
    assert text.stdout.splitlines() == [
        "nowhere: " + missing + "pass the folder with -c DIR (or set JSON_CONTRACTS_DIR), "
        "or create it with json-contracts init",
        "0 check(s) on 0 contract(s): 0 passed, 0 failed, 0 skipped; nothing tested: the contracts folder does not "
        "exist.",
    ]
    assert report["ok"] is False
    assert [(f["code"], f["severity"], f["file"]) for f in report["loadFailures"]] == [("JC002", "error", "nowhere")]
    assert github.exit_code == 1
    assert github.stdout.startswith("::error file=nowhere,title=JC002::Contracts directory does not exist")


def test_an_empty_folder_warns_that_nothing_was_tested(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "empty").mkdir()

    text = run_cli("test", "-c", "empty")
    report = json.loads(run_cli("test", "-c", "empty", "--json").stdout)
    github = run_cli("test", "-c", "empty", "--format", "github")

    assert text.exit_code == 0
    assert text.stdout.splitlines() == [
        f"empty: JC004 warning Contracts directory {workdir / 'empty'} holds no contract file (*.json), so nothing was "
        "tested; add contracts to it, or copy the starters with json-contracts init",
        "0 check(s) on 0 contract(s): 0 passed, 0 failed, 0 skipped; nothing tested: the contracts folder holds no "
        "contract file.",
    ]
    assert (report["ok"], report["counts"], report["loadFailures"]) == (
        True,
        {"passed": 0, "failed": 0, "skipped": 0},
        [],
    )
    assert [(f["code"], f["severity"]) for f in report["warnings"]] == [("JC004", "warning")]
    assert github.exit_code == 0
    assert github.stdout.startswith("::warning file=empty,title=JC004::Contracts directory ")
    assert not (workdir / ".json-contracts-cache").exists()  # nothing run, nothing cached


# --- what test leaves on disk ---------------------------------------------------------------------


def test_hypothesis_files_go_to_the_cache_folder_and_never_to_dot_hypothesis(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})

    process = run_script("test", "-c", "contracts", "--max-examples", "5", env={"HYPOTHESIS_STORAGE_DIRECTORY": ""})

    assert process.returncode == 0, process.stdout + process.stderr
    assert not (workdir / ".hypothesis").exists()
    cache = workdir / ".json-contracts-cache"
    assert (cache / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"  # git never sees it
    assert (cache / "hypothesis").is_dir()


def test_no_database_leaves_nothing_on_disk(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})
    before = sorted(p.name for p in workdir.iterdir())

    process = run_script("test", "-c", "contracts", "--max-examples", "5", "--no-database",
                         env={"HYPOTHESIS_STORAGE_DIRECTORY": ""})  # fmt: skip

    assert process.returncode == 0, process.stdout + process.stderr
    assert sorted(p.name for p in workdir.iterdir()) == before


def test_hypothesis_storage_directory_is_honoured(
    run_script: RunScript, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})

    process = run_script("test", "-c", "contracts", "--max-examples", "5",
                         env={"HYPOTHESIS_STORAGE_DIRECTORY": str(workdir / "elsewhere")})  # fmt: skip

    assert process.returncode == 0, process.stdout + process.stderr
    assert (workdir / "elsewhere").is_dir()
    assert not (workdir / ".json-contracts-cache").exists()
    assert not (workdir / ".hypothesis").exists()


def test_a_failing_document_is_saved_and_tried_first_by_the_next_run(
    run_cli: RunCli, write_contracts: WriteContracts, workdir: Path
) -> None:
    write_contracts({"coupled": COUPLED})
    args = ("test", "-c", "contracts", "--check", "repair-hints", "--json")

    first = run_cli(*args, "--max-examples", "15", "--seed", "7", env={"HYPOTHESIS_STORAGE_DIRECTORY": None})
    # One document, another seed: on its own that draw does not fail (the last run shows it) ...
    again = run_cli(*args, "--max-examples", "1", "--seed", "8", env={"HYPOTHESIS_STORAGE_DIRECTORY": None})
    alone = run_cli(*args, "--max-examples", "1", "--seed", "8", "--no-database")

    assert (workdir / ".json-contracts-cache" / "hypothesis" / "examples").is_dir()
    [failed] = json.loads(first.stdout)["results"]
    [replayed] = json.loads(again.stdout)["results"]  # ... but the saved failure is tried first
    [drawn] = json.loads(alone.stdout)["results"]
    assert (failed["outcome"], replayed["outcome"], drawn["outcome"]) == ("failed", "failed", "passed")
    assert replayed["details"] == failed["details"]  # the very document that failed, already shrunk
