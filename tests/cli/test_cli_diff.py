"""``json-contracts diff``: real Git repositories, real commits, the real command in every output format.

Each test makes a repository in its working folder, commits a contracts folder, changes it,
commits again and compares with ``--base HEAD~1`` (or another folder with ``--against``). Runs
that search for witnesses are derandomised (``CI=true``) or seeded, so they are the same every time.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from pytest_json_contracts import assert_valid_json

from tests.support.cli import RunCli, RunScript, contract_text

CI = {"CI": "true"}

TICKET: dict[str, Any] = {
    "description": "Convert a help-desk message into a support ticket.",
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "summary": {"type": "string", "maxLength": 80},
            "severity": {"type": "string", "enum": ["low", "medium", "high", "critical"]},
        },
        "required": ["summary", "severity"],
    },
    "examples": [
        {"input": "Urgent: nobody can log in", "output": {"summary": "Nobody can log in", "severity": "critical"}}
    ],
}
NOTE: dict[str, Any] = {
    "schema": {
        "type": "object",
        "properties": {"text": {"type": "string", "minLength": 1}},
        "required": ["text"],
    },
    "examples": [{"input": "Call Bo", "output": {"text": "Call Bo"}}],
}

Commit = Callable[..., None]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "commit.gpgsign=false", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        timeout=60,
    )


@pytest.fixture
def git_env(monkeypatch: pytest.MonkeyPatch, workdir: Path) -> None:
    """No repository above the working folder counts, and no CI variable of the machine running the tests."""
    if shutil.which("git") is None:
        pytest.skip("diff --base needs git")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(workdir.parent))
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def commit(workdir: Path, git_env: None) -> Commit:
    """``commit({name: contract or None})``: write (or, for None, delete) contracts in json-contracts/ and commit.

    The first call makes the repository.
    """

    def run(files: dict[str, dict[str, Any] | str | None], message: str = "change") -> None:
        if not (workdir / ".git").exists():
            _git(workdir, "init", "-q")
        folder = workdir / "json-contracts"
        folder.mkdir(exist_ok=True)
        for name, contract in files.items():
            path = folder / f"{name}.json"
            if contract is None:
                path.unlink()
            else:
                path.write_text(contract_text(contract), encoding="utf-8")
        _git(workdir, "add", "-A")
        _git(workdir, "commit", "-q", "--allow-empty", "-m", message)

    return run


def _ticket(**schema_changes: Any) -> dict[str, Any]:
    """The ticket with its schema changed: a key set to None is removed, ``properties`` merged."""
    ticket = copy.deepcopy(TICKET)
    for key, value in schema_changes.items():
        if key == "properties":
            ticket["schema"]["properties"].update(value)
        elif value is None:
            del ticket["schema"][key]
        else:
            ticket["schema"][key] = value
    return ticket


def _report(result: Result) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(result.stdout)
    assert_valid_json("diff-report", report)
    return report


def _codes(report: dict[str, Any], name: str) -> list[tuple[str, str]]:
    contract = next(c for c in report["contracts"] if c["name"] == name)
    return [(change["code"], change["severity"]) for change in contract["changes"]]


# --- breaking and compatible changes ------------------------------------------------------------


def _breaking_ticket() -> dict[str, Any]:
    """A required field added and an enum value removed."""
    ticket = _ticket(required=["summary", "severity", "category"])
    ticket["schema"]["properties"]["severity"]["enum"] = ["low", "high", "critical"]
    ticket["schema"]["properties"]["category"] = {"type": "string", "enum": ["bug", "billing", "other"]}
    ticket["examples"][0]["output"]["category"] = "bug"
    return ticket


def test_a_required_field_added_and_an_enum_value_removed_fail_with_witnesses(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    commit({"support-ticket": _breaking_ticket()})

    result = run_cli("diff", "--base", "HEAD~1", env=CI)

    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "support-ticket: changed, backward, breaking"
    required = next(i for i, line in enumerate(lines) if " JC410 error " in line)
    assert lines[required].startswith("json-contracts/support-ticket.json:")
    assert '"category"' in lines[required]
    assert lines[required].endswith(
        "; add the field as optional first, and make it required once every producer sends it"
    )
    assert lines[required + 1] == '  witness (accepted by old, rejected by new): {"summary":"","severity":"low"}'
    assert lines[required + 2] == "    /category must have required property 'category' (required)"
    removed = next(i for i, line in enumerate(lines) if " JC416 error " in line)
    assert '"medium"' in lines[removed]
    assert lines[removed + 1].startswith("  witness (accepted by old, rejected by new): ")
    assert '"severity":"medium"' in lines[removed + 1]
    assert "    /severity must be equal to one of the allowed values (enum)" in lines[removed + 2 : removed + 4]
    assert "note" not in result.stdout  # unchanged: nothing printed
    assert lines[-2] == (
        "1 contract(s) changed (1 breaking, 0 compatible), 1 unchanged; mode backward against "
        "HEAD~1:json-contracts; failed (1 breaking contract(s))."
    )
    assert (
        lines[-1]
        == "Repeat this run with: CI=true json-contracts diff --base 'HEAD~1' -c json-contracts --max-examples 100"
    )
    assert result.stderr == ""


def test_the_json_report_has_each_change_with_its_witness(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    commit({"support-ticket": _breaking_ticket()})

    report = _report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI))

    assert (report["ok"], report["base"], report["mode"], report["unchanged"]) == (
        False, "HEAD~1:json-contracts", "backward", 1
    )  # fmt: skip
    assert (report["seed"], report["derandomized"], report["maxExamples"]) == (None, True, 100)
    (ticket,) = report["contracts"]
    assert (ticket["name"], ticket["status"], ticket["verdict"]) == ("support-ticket", "changed", "breaking")
    assert ("JC410", "error") in _codes(report, "support-ticket")
    assert ("JC416", "error") in _codes(report, "support-ticket")
    assert ("JC413", "info") in _codes(report, "support-ticket")  # forward only: not kept by backward
    required = next(c for c in ticket["changes"] if c["code"] == "JC410")
    assert required["witness"] == {
        "document": {"summary": "", "severity": "low"},
        "acceptedBy": "old",
        "errors": [{"path": "/category", "message": "must have required property 'category'", "keyword": "required"}],
    }
    assert required["confirmed"] is True
    assert ("JC440", "error") in _codes(report, "support-ticket")  # the old example has no category
    assert report["counts"] == {"error": 3, "warning": 0, "info": 1}


def test_an_optional_field_in_a_closed_object_and_a_new_enum_value_are_compatible_backward(
    run_cli: RunCli, commit: Commit
) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    ticket = _ticket(properties={"component": {"type": "string", "maxLength": 40}})
    ticket["schema"]["properties"]["severity"]["enum"].append("blocker")
    commit({"support-ticket": ticket})

    result = run_cli("diff", "--base", "HEAD~1", env=CI)

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "support-ticket: changed, backward, compatible"
    # Both reach consumers (forward), which backward does not keep: information, not searched.
    assert any(" JC413 info " in line and '"component"' in line for line in lines)
    assert any(" JC417 info " in line and '"blocker"' in line for line in lines)
    assert "witness" not in result.stdout
    assert lines[-1] == (
        "1 contract(s) changed (0 breaking, 1 compatible), 1 unchanged; mode backward against HEAD~1:json-contracts."
    )


def test_forward_mode_flips_the_verdict(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET})
    ticket = copy.deepcopy(TICKET)
    ticket["schema"]["properties"]["severity"]["enum"].append("blocker")
    commit({"support-ticket": ticket})

    result = run_cli("diff", "--base", "HEAD~1", "--mode", "forward", env=CI)

    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "support-ticket: changed, forward, breaking"
    added = next(i for i, line in enumerate(lines) if " JC417 error " in line)
    assert lines[added + 1] == '  witness (accepted by new, rejected by old): {"summary":"","severity":"blocker"}'
    assert lines[added + 2] == "    /severity must be equal to one of the allowed values (enum)"
    assert lines[-1].startswith(
        "Repeat this run with: CI=true json-contracts diff --base 'HEAD~1' -c json-contracts --mode forward "
    )


def test_mode_none_lists_every_change_as_info_and_passes(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET})
    commit({"support-ticket": _breaking_ticket()})

    result = run_cli("diff", "--base", "HEAD~1", "--mode", "none", "--json")

    report = _report(result)
    assert result.exit_code == 0
    assert report["ok"] is True
    assert {severity for _, severity in _codes(report, "support-ticket")} == {"info"}
    assert {"JC410", "JC416"} <= {code for code, _ in _codes(report, "support-ticket")}
    assert report["contracts"][0]["verdict"] == "compatible"
    assert all(change["tried"] == 0 for change in report["contracts"][0]["changes"])  # nothing searched


def test_unchanged_contracts_print_nothing_and_cost_no_search(
    run_cli: RunCli, commit: Commit, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    (workdir / "README.md").write_text("# app\n", encoding="utf-8")
    commit({})

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged contract was searched")

    monkeypatch.setattr("json_contracts.evolution.compare.find_witness", no_search)
    text = run_cli("diff", "--base", "HEAD~1")
    report = _report(run_cli("diff", "--base", "HEAD~1", "--json"))

    assert text.exit_code == 0
    assert text.stdout.splitlines() == [
        "0 contract(s) changed (0 breaking, 0 compatible), 2 unchanged; mode backward against HEAD~1:json-contracts."
    ]
    assert (report["unchanged"], report["contracts"], report["findings"]) == (2, [], [])


def test_renamed_added_and_removed_contracts(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    memo = copy.deepcopy(NOTE)
    memo["schema"]["properties"]["to"] = {"type": "string"}
    commit({"support-ticket": None, "ticket": TICKET, "note": None, "memo": memo})

    result = run_cli("diff", "--base", "HEAD~1", env=CI)
    report = _report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI))

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "memo: added, backward, compatible"
    assert lines[1] == "json-contracts/memo.json:1:1: JC402 info contract memo was added"
    assert lines[2] == "note: removed, backward, breaking"
    assert lines[3].startswith(
        "json-contracts/note.json: JC401 error contract note was removed: agents and apps that ask for it get "
        "'Contract not found'; keep the contract"
    )
    assert lines[4] == "ticket: renamed from support-ticket, backward, breaking"
    assert " JC403 error contract support-ticket was renamed to ticket (same schema)" in lines[5]
    assert lines[-2].startswith("3 contract(s) changed (2 breaking, 1 compatible), 0 unchanged;")
    renamed = next(c for c in report["contracts"] if c["name"] == "ticket")
    assert (renamed["status"], renamed["renamedFrom"]) == ("renamed", "support-ticket")
    assert renamed["old"]["schemaHash"] == renamed["new"]["schemaHash"]
    removed = next(c for c in report["contracts"] if c["name"] == "note")
    assert (removed["new"], removed["changes"][0]["line"]) == (None, None)
    added = next(c for c in report["contracts"] if c["name"] == "memo")
    assert (added["old"], added["verdict"]) == (None, "compatible")
    run_cli("diff", "--base", "HEAD~1", "--summary", "s.md", env=CI)
    rows = Path("s.md").read_text(encoding="utf-8").splitlines()[-3:]
    assert [row.split(" | ")[0] for row in rows] == [  # the table says what happened, as the text does
        "| memo (added)",
        "| note (removed)",
        "| ticket (renamed from support-ticket)",
    ]


def test_an_old_example_the_new_schema_rejects_is_its_own_witness(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET})
    ticket = _ticket(properties={"summary": {"type": "string", "maxLength": 10}})
    ticket["examples"][0]["output"]["summary"] = "No login"
    commit({"support-ticket": ticket})

    result = run_cli("diff", "--base", "HEAD~1", env=CI)

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    example = next(i for i, line in enumerate(lines) if " JC440 error " in line)
    assert "the old output of examples[0] does not validate against the new schema" in lines[example]
    assert lines[example + 1] == (
        '  witness (accepted by old, rejected by new): {"summary":"Nobody can log in","severity":"critical"}'
    )
    assert lines[example + 2] == "    /summary must NOT have more than 10 characters (maxLength)"
    assert any(" JC418 error maxLength at /properties/summary " in line for line in lines)


def test_a_long_witness_is_cut_in_the_text_output_and_whole_in_json(run_cli: RunCli, commit: Commit) -> None:
    long_summary = "Nobody can log in " * 25  # 450 characters
    old = _ticket(properties={"summary": {"type": "string", "maxLength": 500}})
    old["examples"][0]["output"]["summary"] = long_summary
    commit({"support-ticket": old})
    commit({"support-ticket": TICKET})  # maxLength 80, and its own short example

    text = run_cli("diff", "--base", "HEAD~1", env=CI)
    report = _report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI))

    shown = next(line for line in text.stdout.splitlines() if long_summary[:40] in line)
    prefix = "  witness (accepted by old, rejected by new): "
    assert shown.startswith(prefix)
    assert len(shown) == len(prefix) + 300
    assert shown.endswith("…")
    example = next(c for c in report["contracts"][0]["changes"] if c["code"] == "JC440")
    assert example["witness"]["document"]["summary"] == long_summary


def test_a_new_file_that_does_not_load_fails_and_is_not_called_removed(run_cli: RunCli, commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    commit({"note": '{\n  "schema": {\n'})

    result = run_cli("diff", "--base", "HEAD~1", env=CI)

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("json-contracts/note.json:3:1: JC014 error Invalid JSON")
    assert "JC401" not in result.stdout
    assert lines[-1] == (
        "0 contract(s) changed (0 breaking, 0 compatible), 1 unchanged; mode backward against "
        "HEAD~1:json-contracts; failed (1 file(s) did not load)."
    )


# --- other outputs ------------------------------------------------------------------------------


def test_github_annotations_sit_on_the_changed_line_of_the_new_file(
    run_cli: RunCli, commit: Commit, workdir: Path
) -> None:
    commit({"support-ticket": TICKET})
    commit({"support-ticket": _breaking_ticket()})
    text = (workdir / "json-contracts" / "support-ticket.json").read_text(encoding="utf-8").splitlines()
    enum_line = 1 + next(i for i, line in enumerate(text) if '"enum"' in line and '"low"' in text[i + 1])
    required_line = 1 + next(i for i, line in enumerate(text) if line.strip() == '"required": [')

    result = run_cli("diff", "--base", "HEAD~1", "--format", "github", env=CI)

    assert result.exit_code == 1
    annotations = {line.split("title=")[1].split("::")[0]: line for line in result.stdout.splitlines()}
    assert annotations["JC416"].startswith(f"::error file=json-contracts/support-ticket.json,line={enum_line},col=")
    assert annotations["JC410"].startswith(f"::error file=json-contracts/support-ticket.json,line={required_line},")
    assert 'witness: {"summary":"","severity":"low"}' in annotations["JC410"]
    assert annotations["JC413"].startswith("::notice ")


def test_sarif_summary_and_counts(run_cli: RunCli, commit: Commit, workdir: Path) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    commit({"support-ticket": _breaking_ticket()})

    result = run_cli(
        "diff", "--base", "HEAD~1", "--format", "sarif", "--summary", "summary.md", "--counts", "counts.txt", env=CI
    )

    assert result.exit_code == 1
    sarif = json.loads(result.stdout)
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} == {"JC410", "JC413", "JC416", "JC440"}
    summary = (workdir / "summary.md").read_text(encoding="utf-8").splitlines()
    assert summary[0] == "### json-contracts diff (json-contracts): failed"
    assert summary[2] == "1 contract(s) changed against HEAD\\~1:json-contracts, 1 breaking; 1 unchanged."
    assert summary[-1].startswith("| support-ticket | ")
    assert summary[-1].endswith(" | backward | breaking | 4 | 3 |")
    assert (workdir / "counts.txt").read_text(encoding="utf-8") == "errors=3\nwarnings=0\ninfo=1\n"


# --- seeds and CI -------------------------------------------------------------------------------


def _note_text_capped(commit: Commit) -> None:
    """A change the search proves with a drawn document: the note's text gets a maxLength."""
    commit({"note": NOTE})
    note = copy.deepcopy(NOTE)
    note["schema"]["properties"]["text"]["maxLength"] = 10
    commit({"note": note})


def test_a_seed_repeats_the_run_and_is_printed(run_cli: RunCli, commit: Commit, workdir: Path) -> None:
    _note_text_capped(commit)

    first = run_cli("diff", "--base", "HEAD~1", "--seed", "7", "--max-examples", "20", "--json")
    second = run_cli("diff", "--base", "HEAD~1", "--seed", "7", "--max-examples", "20", "--json")
    text = run_cli("diff", "--base", "HEAD~1", "--seed", "7", "--max-examples", "20")

    assert first.stdout == second.stdout
    report = _report(first)
    assert (report["seed"], report["derandomized"], report["maxExamples"]) == (7, False, 20)
    assert "mode backward against HEAD~1:json-contracts (seed 7); failed" in text.stdout.splitlines()[-2]
    assert text.stdout.splitlines()[-1] == (
        "Repeat this run with: json-contracts diff --base 'HEAD~1' -c json-contracts --max-examples 20 --seed 7"
    )
    assert report["contracts"][0]["changes"][0]["witness"] is not None
    assert sorted(path.name for path in workdir.iterdir()) == [".git", "json-contracts"]  # diff keeps nothing


def test_ci_derandomises_and_a_random_seed_is_printed_otherwise(run_cli: RunCli, commit: Commit) -> None:
    _note_text_capped(commit)

    ci = [_report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI)) for _ in range(2)]
    local = _report(run_cli("diff", "--base", "HEAD~1", "--json"))

    assert ci[0] == ci[1]
    assert (ci[0]["seed"], ci[0]["derandomized"]) == (None, True)
    assert isinstance(local["seed"], int)
    assert local["derandomized"] is False


# --- configuration ------------------------------------------------------------------------------


def _enum_value_added(commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    ticket = copy.deepcopy(TICKET)
    ticket["schema"]["properties"]["severity"]["enum"].append("blocker")
    commit({"support-ticket": ticket})


def test_compatibility_in_pyproject_sets_the_mode_and_overrides_set_one_contracts(
    run_cli: RunCli, commit: Commit, workdir: Path
) -> None:
    _enum_value_added(commit)
    pyproject = workdir / "pyproject.toml"

    pyproject.write_text('[tool.json-contracts]\ncompatibility = "forward"\n', encoding="utf-8")
    forward = _report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI))
    pyproject.write_text(
        '[tool.json-contracts]\ncompatibility = "forward"\n\n'
        '[tool.json-contracts.compatibility-overrides]\nsupport-ticket = "backward"\n',
        encoding="utf-8",
    )
    overridden = _report(run_cli("diff", "--base", "HEAD~1", "--json", env=CI))
    command_line = _report(run_cli("diff", "--base", "HEAD~1", "--json", "--mode", "full", env=CI))

    assert (forward["ok"], forward["mode"], forward["contracts"][0]["verdict"]) == (False, "forward", "breaking")
    assert (overridden["ok"], overridden["mode"]) == (True, "forward")
    assert overridden["contracts"][0]["mode"] == "backward"
    # --mode is for every contract: it wins over the table too
    assert (command_line["ok"], command_line["contracts"][0]["mode"]) == (False, "full")


def test_an_unknown_mode_in_pyproject_is_a_usage_error(run_cli: RunCli, commit: Commit, workdir: Path) -> None:
    _enum_value_added(commit)
    (workdir / "pyproject.toml").write_text(
        '[tool.json-contracts.compatibility-overrides]\nsupport-ticket = "both"\n', encoding="utf-8"
    )

    result = run_cli("diff", "--base", "HEAD~1")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {workdir / 'pyproject.toml'}: [tool.json-contracts.compatibility-overrides] support-ticket must be "
        "one of backward, forward, full or none, got 'both'"
    ]


# --- another folder -----------------------------------------------------------------------------


def test_against_compares_with_another_folder(run_cli: RunCli, workdir: Path, git_env: None) -> None:
    for folder, ticket in (("old", TICKET), ("json-contracts", _breaking_ticket())):
        (workdir / folder).mkdir()
        (workdir / folder / "support-ticket.json").write_text(contract_text(ticket), encoding="utf-8")

    report = _report(run_cli("diff", "--against", "old", "--json", env=CI))

    assert report["base"] == "old"
    assert report["ok"] is False
    assert ("JC410", "error") in _codes(report, "support-ticket")


# --- usage errors -------------------------------------------------------------------------------


def _usage_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_outside_a_git_repository_base_is_a_usage_error(run_cli: RunCli, workdir: Path, git_env: None) -> None:
    (workdir / "json-contracts").mkdir()
    (workdir / "json-contracts" / "note.json").write_text(contract_text(NOTE), encoding="utf-8")

    line = _usage_error(run_cli("diff", "--base", "HEAD~1"))

    assert line.startswith(f"Error: {workdir / 'json-contracts'} is not in a Git repository (")
    assert "not a git repository" in line


def test_an_unknown_revision_is_a_usage_error(run_cli: RunCli, commit: Commit) -> None:
    commit({"note": NOTE})

    line = _usage_error(run_cli("diff", "--base", "no-such-branch"))

    assert line.startswith("Error: unknown revision 'no-such-branch'; name a branch, tag or commit")


def test_a_revision_without_the_folder_counts_every_contract_as_added(
    run_cli: RunCli, commit: Commit, workdir: Path
) -> None:
    # The pull request that brings the first contracts used to fail with a usage error.
    _git(workdir, "init", "-q")
    _git(workdir, "commit", "-q", "--allow-empty", "-m", "empty")
    commit({"note": NOTE})

    result = run_cli("diff", "--base", "HEAD~1", "--json", env=CI)

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert [(c["name"], c["status"]) for c in report["contracts"]] == [("note", "added")]
    warning = next(f for f in report["findings"] if f["code"] == "JC002")
    assert warning["severity"] == "warning"
    assert warning["message"].startswith("HEAD~1 has no folder json-contracts, so every contract counts as added")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (),
            "Error: name the old version with --base REF (a Git revision, such as origin/main) or --against DIR "
            "(a folder)",
        ),
        (
            ("--base", "HEAD", "--against", "old"),
            "Error: --base and --against cannot be used together; name one old version",
        ),
        (
            ("--base", "--upload-pack=touch pwned"),
            "Error: --base needs a Git revision (a branch, tag or commit), got '--upload-pack=touch pwned'",
        ),
        (("--against", ""), "Error: --against needs a folder path"),
        (
            ("--against", "missing"),
            "Error: --against folder does not exist: missing; name the folder of the old version",
        ),
        (
            ("--base", "HEAD", "--mode", "both"),
            "Error: Invalid value for '--mode': 'both' is not one of 'backward', 'forward', 'full', 'none'.",
        ),
    ],
    ids=["neither", "both", "option-as-base", "empty-against", "missing-against", "unknown-mode"],
)
def test_usage_errors_are_one_line(run_cli: RunCli, commit: Commit, args: tuple[str, ...], message: str) -> None:
    commit({"note": NOTE})

    assert _usage_error(run_cli("diff", *args)) == message


def test_a_missing_contracts_folder_is_a_usage_error(run_cli: RunCli, commit: Commit) -> None:
    commit({"note": NOTE})

    line = _usage_error(run_cli("diff", "--base", "HEAD", "-c", "contract"))

    assert line.startswith("Error: Contracts folder does not exist: contract; pass the folder with -c DIR")


# --- the installed script -----------------------------------------------------------------------


def test_the_script_prints_the_breaking_changes_and_exits_1(run_script: RunScript, commit: Commit) -> None:
    commit({"support-ticket": TICKET, "note": NOTE})
    commit({"support-ticket": _breaking_ticket()})

    done = run_script("diff", "--base", "HEAD~1", "--max-examples", "30", env={"CI": "true"})

    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == "support-ticket: changed, backward, breaking"
    assert " JC410 error " in done.stdout
    assert "\x1b[" not in done.stdout
    assert done.stderr == ""
