"""Dogfood: this project's own outputs are checked against this project's own contracts.

Every ``--json`` report of the CLI and every result of the eight MCP tools has a contract in the
repository's ``json-contracts/`` folder. Here each of them is produced for real, the CLI in a
subprocess on folders under ``tmp_path`` (so this repository's ``pyproject.toml`` settings never
apply by accident) and the server through an in-memory MCP client, and checked with the
project's own ``assert_valid_json`` (the pytest plugin, enabled for this repository's test run by
``json_contracts_dir``). The last tests hold ``json-contracts/`` to the project's own gates: its
pre-commit hooks and the Action's commands, run from the repository root as CI runs them.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from mcp import Client
from pytest_json_contracts import assert_valid_json

from json_contracts.contracts.store import ContractStore
from json_contracts.mcp.handlers import ContractService
from json_contracts.mcp.server import build_server
from json_contracts.mcp.settings import ServerSettings
from json_contracts.mcp.tools import TOOL_NAMES, tool_named

ROOT = Path(__file__).resolve().parents[1]
OWN_CONTRACTS = ROOT / "json-contracts"
CLI_REPORTS = ("validate-report", "lint-report", "check-report", "test-report", "init-report", "diff-report")

# --- the contracts the reports are produced on ---------------------------------------------------

TICKET: dict[str, Any] = {
    "description": "Convert a help-desk message into a support ticket.",
    "rules": ["If the user says urgent, severity is critical."],
    "operations": {
        "edit": {
            "examples": [
                {
                    "currentJson": {"summary": "Export fails", "severity": "low", "category": "bug"},
                    "input": "Customers are blocked, raise it",
                    "output": {"summary": "Export fails", "severity": "high", "category": "bug"},
                }
            ]
        }
    },
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "summary": {"type": "string", "minLength": 1, "maxLength": 60},
            "severity": {"type": "string", "enum": ["low", "high", "critical"]},
            "category": {"type": "string", "enum": ["bug", "billing", "other"]},
            "email": {"type": "string", "format": "email"},
            "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "pattern": "^[a-z0-9-]+$"}},
            "seats": {"type": "integer", "minimum": 1},
        },
        "required": ["summary", "severity", "category"],
    },
    "examples": [
        {
            "input": "Urgent: the 40-seat sales team cannot log in",
            "output": {
                "summary": "Sales team cannot log in",
                "severity": "critical",
                "category": "bug",
                "tags": ["login"],
                "seats": 40,
            },
        },
        {
            "input": "Charged twice, ana@example.com",
            "output": {
                "summary": "Charged twice",
                "severity": "low",
                "category": "billing",
                "email": "ana@example.com",
            },
        },
        {"input": "Dark mode?", "output": {"summary": "Dark mode", "severity": "low", "category": "other"}},
    ],
}
NOTE: dict[str, Any] = {
    "operations": {"edit": {"enabled": False}},
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"text": {"type": "string", "minLength": 1}},
        "required": ["text"],
    },
    "examples": [{"input": "Remember to call Bo", "output": {"text": "Call Bo"}}],
}
# Lint errors, warnings and info: an unknown field, a misspelt keyword, an open object, an enum value
# of the wrong type, and examples that show neither "m" nor the optional "note".
MESSY: dict[str, Any] = {
    "rule": ["Sizes are s, m or l."],
    "schema": {
        "type": "object",
        "properties": {"size": {"type": "string", "enum": ["s", "m", 5]}, "note": {"type": "string", "maxlength": 3}},
        "required": ["size"],
    },
    "examples": [{"input": "small", "output": {"size": "s"}}],
}
# Loads, but no document can satisfy it: the satisfiable check fails whatever the seed.
NEVER: dict[str, Any] = {
    "operations": {"edit": {"enabled": False}},
    "schema": {"type": "object", "properties": {"a": {"not": {}}}, "required": ["a"]},
}
# Every error kind a repair can describe: too long, not allowed, missing, no address, not
# kebab-case, below the minimum, an extra key.
BROKEN_TICKET: dict[str, Any] = {
    "summary": "The invoice PDF that finance downloads every month has the wrong totals",
    "severity": "urgent",
    "email": "finance at example.com",
    "tags": ["Invoices"],
    "seats": 0,
    "priority": 1,
}
VALID_TICKET: dict[str, Any] = {"summary": "Export fails", "severity": "low", "category": "bug"}


def write_folder(folder: Path, files: Mapping[str, Any]) -> Path:
    """``folder`` holding ``files`` (name -> JSON value, or raw text for a str), written as init writes."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        text = content if isinstance(content, str) else json.dumps(content, indent=2, ensure_ascii=False) + "\n"
        (folder / name).write_text(text, encoding="utf-8")
    return folder


# --- the CLI ----------------------------------------------------------------------------------------


def environment(**extra: str) -> dict[str, str]:
    """This process's environment without what changes a report (folder, limits, CI), plus ``extra``."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith("JSON_CONTRACTS_") and k != "CI"}
    return {**kept, **extra}


@dataclass(frozen=True)
class Run:
    """One CLI run: its exit code and the JSON it printed."""

    exit_code: int
    report: Any
    stderr: str


def run_cli(cwd: Path, *args: str, stdin: str = "", **env: str) -> Run:
    """``json-contracts ARGS`` in a subprocess in ``cwd``; its stdout must be one JSON document."""
    process = subprocess.run(
        [sys.executable, "-m", "json_contracts", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=environment(**env),
        timeout=600,
        check=False,
    )
    assert process.stdout.strip(), f"no report on stdout (exit {process.returncode}): {process.stderr}"
    return Run(process.returncode, json.loads(process.stdout), process.stderr)


def test_every_cli_report_has_a_contract() -> None:
    assert {path.stem for path in OWN_CONTRACTS.glob("*-report.json")} == set(CLI_REPORTS)


def test_validate_report_when_the_folder_loads(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "note.json": NOTE})

    run = run_cli(tmp_path, "validate", "--json")

    assert run.exit_code == 0
    assert_valid_json("validate-report", run.report)
    assert run.report["valid"] is True
    assert [c["name"] for c in run.report["contracts"]] == ["note", "ticket"]
    assert run.report["loaded"] == 2


def test_validate_report_when_a_file_is_broken(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "broken.json": '{\n  "schema": {\n'})

    run = run_cli(tmp_path, "validate", "--json")

    assert run.exit_code == 1
    assert_valid_json("validate-report", run.report)
    assert run.report["valid"] is False
    assert run.report["errors"][0].startswith("Failed to load JSON contracts: broken.json: ")
    assert [(f["code"], f["file"]) for f in run.report["findings"]] == [("JC014", "json-contracts/broken.json")]


def test_validate_report_when_the_folder_is_missing(tmp_path: Path) -> None:
    run = run_cli(tmp_path, "validate", "--json", "--contracts", "missing")

    assert run.exit_code == 0
    assert_valid_json("validate-report", run.report)
    assert (run.report["valid"], run.report["loaded"]) == (True, 0)
    assert [(f["code"], f["line"]) for f in run.report["findings"]] == [("JC002", None)]


def test_lint_report_when_the_folder_is_clean(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "note.json": NOTE})

    run = run_cli(tmp_path, "lint", "--json", "--strict")

    assert run.exit_code == 0
    assert_valid_json("lint-report", run.report)
    assert (run.report["ok"], run.report["strict"], run.report["findings"]) == (True, True, [])


def test_lint_report_with_findings_of_every_severity(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"messy.json": MESSY})

    run = run_cli(tmp_path, "lint", "--json")

    assert run.exit_code == 1
    assert_valid_json("lint-report", run.report)
    findings = run.report["findings"]
    assert {f["severity"] for f in findings} == {"error", "warning", "info"}
    # The rules the schema cannot state: counts count the findings, ok follows the counts.
    assert run.report["counts"] == {s: sum(f["severity"] == s for f in findings) for s in ("error", "warning", "info")}
    assert run.report["ok"] is False
    assert len(run.report["warnings"]) == sum(f["severity"] != "info" for f in findings)


def test_lint_report_when_the_folder_does_not_load(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "broken.json": "{ nope"})

    run = run_cli(tmp_path, "lint", "--json")
    validate = run_cli(tmp_path, "validate", "--json")

    assert run.exit_code == 1
    assert_valid_json("lint-report", run.report)
    # validate's failure fields first, unchanged; then what lint found in the files that did load
    assert {key: run.report[key] for key in ("valid", "contractsDir", "errors")} == {
        key: validate.report[key] for key in ("valid", "contractsDir", "errors")
    }
    assert run.report["notLinted"] == [{"file": "json-contracts/broken.json", "code": "JC014"}]
    assert run.report["loaded"] == 1


def _check(tmp_path: Path, document: str, **env: str) -> Run:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET})
    (tmp_path / "document.json").write_text(document, encoding="utf-8")
    run = run_cli(tmp_path, "check", "ticket", "document.json", "--json", **env)
    assert_valid_json("check-report", run.report)
    return run


def test_check_report_for_a_valid_document(tmp_path: Path) -> None:
    run = _check(tmp_path, json.dumps(VALID_TICKET))

    assert run.exit_code == 0
    assert run.report["json"] == VALID_TICKET


def test_check_report_for_an_invalid_document(tmp_path: Path) -> None:
    run = _check(tmp_path, json.dumps(BROKEN_TICKET, indent=2))

    assert run.exit_code == 1
    errors, repairs = run.report["errors"], run.report["repairs"]
    assert len(errors) == 7
    assert [(r["path"], r["keyword"], r["message"]) for r in repairs] == [
        (e["path"], e["keyword"], e["message"]) for e in errors
    ]
    assert {r["action"] for r in repairs} == {
        "add", "remove", "shorten", "replace", "match-format", "match-pattern", "increase"
    }  # fmt: skip


def test_check_report_for_a_document_that_is_not_json(tmp_path: Path) -> None:
    run = _check(tmp_path, '{"summary": "Login"\n')

    assert run.exit_code == 1
    assert (run.report["file"], run.report["line"], run.report["column"]) == ("document.json", 2, 1)


def test_check_report_for_a_document_over_the_depth_limit(tmp_path: Path) -> None:
    run = _check(tmp_path, "[" * 70 + "]" * 70)

    assert run.exit_code == 1
    assert "nested more than 64 levels" in run.report["error"]
    assert "line" not in run.report


def test_check_report_for_a_document_over_the_size_limit(tmp_path: Path) -> None:
    run = _check(tmp_path, json.dumps(VALID_TICKET), JSON_CONTRACTS_MAX_DOCUMENT_BYTES="16")

    assert run.exit_code == 1
    assert "larger than 16 bytes" in run.report["error"]


def test_test_report_when_every_check_passes(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "note.json": NOTE})

    run = run_cli(tmp_path, "test", "--json", "--max-examples", "5", "--seed", "1")

    assert run.exit_code == 0, run.report
    assert_valid_json("test-report", run.report)
    counts, results = run.report["counts"], run.report["results"]
    assert (run.report["ok"], run.report["seed"], counts["failed"]) == (True, 1, 0)
    assert counts["passed"] + counts["failed"] + counts["skipped"] == len(results) == 12


def test_test_report_with_a_failing_check_and_a_file_that_does_not_load(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"never.json": NEVER, "broken.json": "{ nope"})

    run = run_cli(tmp_path, "test", "--json", "--max-examples", "5", CI="true")

    assert run.exit_code == 1
    assert_valid_json("test-report", run.report)
    assert (run.report["ok"], run.report["seed"], run.report["derandomized"]) == (False, None, True)
    failed = [r for r in run.report["results"] if r["outcome"] == "failed"]
    assert failed
    assert all(r["line"] is not None for r in failed)
    assert failed[0]["check"] == "satisfiable"
    assert [f["code"] for f in run.report["loadFailures"]] == ["JC014"]


def test_init_report_on_a_fresh_folder_and_on_a_second_run(tmp_path: Path) -> None:
    first = run_cli(tmp_path, "init", "--json")
    second = run_cli(tmp_path, "init", "--json")

    assert (first.exit_code, second.exit_code) == (0, 0)
    assert_valid_json("init-report", first.report)
    assert_valid_json("init-report", second.report)
    assert (first.report["skipped"], len(first.report["copied"])) == ([], 9)
    assert (second.report["copied"], second.report["skipped"]) == ([], first.report["copied"])


def test_init_report_when_the_folder_cannot_be_created(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("a file, not a folder\n", encoding="utf-8")

    run = run_cli(tmp_path, "init", "--json", "--contracts", "notes.txt/json-contracts")

    assert run.exit_code == 1
    assert_valid_json("init-report", run.report)
    assert run.report["initialized"] is False


def _commit(repository: Path, files: Mapping[str, Any]) -> None:
    """Write ``files`` into ``repository/json-contracts`` (None deletes one) and commit; the first call inits."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("diff --base needs git")
    identity = ["-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "commit.gpgsign=false"]
    if not (repository / ".git").exists():
        subprocess.run([git, "init", "-q"], cwd=repository, check=True, capture_output=True)
    folder = repository / "json-contracts"
    write_folder(folder, {name: content for name, content in files.items() if content is not None})
    for name in (name for name, content in files.items() if content is None):
        (folder / name).unlink()
    for args in (["add", "-A"], ["commit", "-q", "--allow-empty", "-m", "change"]):
        subprocess.run([git, *identity, *args], cwd=repository, check=True, capture_output=True)


def _ticket_v2() -> dict[str, Any]:
    """The ticket with a required field added, a severity removed and a description reworded."""
    ticket: dict[str, Any] = json.loads(json.dumps(TICKET))
    ticket["description"] = "Convert a help-desk message into a support ticket with a queue."
    ticket["schema"]["properties"]["queue"] = {"type": "string", "enum": ["first-line", "engineering"]}
    ticket["schema"]["required"].append("queue")
    ticket["schema"]["properties"]["severity"]["enum"].remove("high")
    for example in [*ticket["examples"], *ticket["operations"]["edit"]["examples"]]:
        for key in ("output", "currentJson"):
            if key in example:
                example[key]["queue"] = "first-line"
                if example[key]["severity"] == "high":
                    example[key]["severity"] = "critical"
    return ticket


def test_diff_report_for_breaking_changes_with_witnesses(tmp_path: Path) -> None:
    _commit(tmp_path, {"ticket.json": TICKET, "note.json": NOTE})
    _commit(tmp_path, {"ticket.json": _ticket_v2()})

    run = run_cli(
        tmp_path, "diff", "--base", "HEAD~1", "--json", CI="true", GIT_CEILING_DIRECTORIES=str(tmp_path.parent)
    )

    assert run.exit_code == 1, run.stderr
    assert_valid_json("diff-report", run.report)
    assert (run.report["ok"], run.report["unchanged"], run.report["seed"]) == (False, 1, None)
    changes = run.report["contracts"][0]["changes"]
    assert {"JC410", "JC416", "JC440", "JC442"} <= {c["code"] for c in changes}
    assert all(c["witness"] is not None for c in changes if c["severity"] == "error")
    # The rules the schema cannot state: counts count the findings, ok follows the verdicts.
    findings = run.report["findings"]
    assert run.report["counts"] == {s: sum(f["severity"] == s for f in findings) for s in ("error", "warning", "info")}
    assert run.report["contracts"][0]["verdict"] == "breaking"


def test_diff_report_for_renamed_added_and_removed_contracts_and_broken_files(tmp_path: Path) -> None:
    _commit(tmp_path, {"ticket.json": TICKET, "note.json": NOTE, "messy.json": MESSY})
    _commit(tmp_path, {"ticket.json": None, "support-ticket.json": TICKET, "note.json": None, "never.json": NEVER})
    write_folder(tmp_path / "json-contracts", {"messy.json": "{ nope"})

    run = run_cli(
        tmp_path, "diff", "--base", "HEAD~1", "--mode", "full", "--seed", "3", "--json",
        GIT_CEILING_DIRECTORIES=str(tmp_path.parent),
    )  # fmt: skip

    assert run.exit_code == 1, run.stderr
    assert_valid_json("diff-report", run.report)
    statuses = {c["name"]: (c["status"], c["renamedFrom"]) for c in run.report["contracts"]}
    assert statuses == {
        "never": ("added", None),
        "note": ("removed", None),
        "support-ticket": ("renamed", "ticket"),
    }
    # messy.json no longer loads: its load error is reported, and it is neither removed nor compared
    assert ("JC014", "json-contracts/messy.json") in [(f["code"], f["file"]) for f in run.report["findings"]]


def test_diff_report_against_a_folder_when_nothing_changed(tmp_path: Path) -> None:
    write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "note.json": NOTE})
    write_folder(tmp_path / "old", {"ticket.json": TICKET, "note.json": NOTE, "broken.json": "{ nope"})

    run = run_cli(tmp_path, "diff", "--against", "old", "--json", "--seed", "1")

    assert run.exit_code == 0, run.stderr
    assert_valid_json("diff-report", run.report)
    assert (run.report["ok"], run.report["contracts"], run.report["unchanged"]) == (True, [], 2)
    assert [(f["code"], f["severity"], f["file"]) for f in run.report["findings"]] == [
        ("JC014", "warning", "old/broken.json")
    ]


# --- the MCP server -------------------------------------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


TOOL_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_contracts", {}),
    ("read_contract", {"contract": "ticket"}),
    ("read_contract", {"contract": "note"}),
    ("get_json_contract", {"contract": "ticket", "input": "Urgent: nobody can log in", "context": {"channel": "chat"}}),
    ("get_json_contract", {"contract": "note", "input": "Call Bo"}),
    ("get_edit_contract", {"contract": "ticket", "currentJson": VALID_TICKET, "input": "Raise it"}),
    ("validate_json", {"contract": "ticket", "json": VALID_TICKET}),
    ("validate_json", {"contract": "ticket", "json": BROKEN_TICKET}),
    ("get_repair_contract", {"contract": "ticket", "invalidJson": BROKEN_TICKET}),
    (
        "get_repair_contract",
        {
            "contract": "note",
            "invalidJson": {"text": ""},
            "validationErrors": [
                {"path": "/text", "message": "must NOT have fewer than 1 characters", "keyword": "minLength"}
            ],
        },
    ),
    ("status", {}),
    ("reload_contracts", {}),
]


def test_the_calls_cover_every_tool() -> None:
    assert {name for name, _ in TOOL_CALLS} == set(TOOL_NAMES)


async def _call(
    folder: Path, calls: list[tuple[str, dict[str, Any]]], *, allow_invalid: bool = False
) -> list[dict[str, Any]]:
    """Call each tool on a server over ``folder``; each result must match its tool's output contract."""
    results: list[dict[str, Any]] = []
    store = ContractStore.open(folder, allow_invalid=allow_invalid)
    service = ContractService(store, ServerSettings(store.directory, watch=False, allow_invalid=allow_invalid))
    server = build_server(service)
    async with Client(server.server, raise_exceptions=True) as client:
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, result.structured_content)
            tool = tool_named(name)
            assert tool is not None
            assert_valid_json(tool.output, result.structured_content)
            assert result.structured_content is not None
            results.append(result.structured_content)
    return results


@pytest.mark.anyio
@pytest.mark.parametrize(("tool", "arguments"), TOOL_CALLS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(TOOL_CALLS)])
async def test_tool_result_matches_its_contract(tmp_path: Path, tool: str, arguments: dict[str, Any]) -> None:
    folder = write_folder(tmp_path / "json-contracts", {"ticket.json": TICKET, "note.json": NOTE})
    await _call(folder, [(tool, arguments)])


@pytest.mark.anyio
async def test_status_with_failures_and_results_on_an_empty_folder_match_their_contracts(tmp_path: Path) -> None:
    broken = write_folder(tmp_path / "broken", {"ticket.json": TICKET, "broken.json": "{ nope"})
    status, _ = await _call(broken, [("status", {}), ("list_contracts", {})], allow_invalid=True)
    assert [f["code"] for f in status["failures"]] == ["JC014"]
    status, _ = await _call(tmp_path / "missing", [("status", {}), ("list_contracts", {})], allow_invalid=True)
    assert [(f["code"], f["line"]) for f in status["failures"]] == [("JC002", 0)]
    empty = write_folder(tmp_path / "empty", {})
    listed, reloaded, _ = await _call(empty, [("list_contracts", {}), ("reload_contracts", {}), ("status", {})])
    assert listed["contracts"] == reloaded["contracts"] == []


# --- this project's own gates on json-contracts/ ---------------------------------------------------


def json_contracts_command() -> list[str]:
    """The ``json-contracts`` console script of this environment (what the hooks and the Action run)."""
    script = Path(sys.executable).parent / "json-contracts"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "json_contracts"]


def repository_files() -> list[str]:
    """What ``git ls-files`` lists (and files not yet added, so a new contract counts before its commit)."""
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        [git, "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return listed.stdout.splitlines()


HOOKS: list[dict[str, Any]] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("hook", HOOKS, ids=[hook["id"] for hook in HOOKS])
def test_the_pre_commit_hook_passes_on_this_project(hook: dict[str, Any]) -> None:
    files = [name for name in repository_files() if re.search(hook.get("files", ""), name)]
    assert any(name.startswith("json-contracts/") for name in files), hook["id"]
    entry = shlex.split(hook["entry"])
    assert entry[0] == "json-contracts"
    command = [*json_contracts_command(), *entry[1:], *hook.get("args", [])]
    if hook.get("pass_filenames", True):
        command += files

    process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=environment(), check=False)

    assert process.returncode == 0, process.stdout + process.stderr


@pytest.mark.parametrize(
    ("command", "strict"),
    [("lint", "true"), pytest.param("test", "true", marks=pytest.mark.slow)],
)
def test_the_action_passes_on_this_project(tmp_path: Path, command: str, strict: str) -> None:
    """``action/run.sh`` itself, with the environment action.yml gives it, on this repository."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("the Action's scripts need bash")
    executable = json_contracts_command()
    if len(executable) > 1:  # run.sh takes one executable: wrap `python -m json_contracts`
        wrapper = tmp_path / "json-contracts"
        wrapper.write_text(f'#!/bin/sh\nexec {shlex.join(executable)} "$@"\n', encoding="utf-8")
        wrapper.chmod(0o755)
        executable = [str(wrapper)]
    outputs, summary = tmp_path / "github-output", tmp_path / "step-summary.md"
    env = environment(
        CI="true",  # as on GitHub: the property checks run derandomised
        GITHUB_WORKSPACE=str(ROOT),
        GITHUB_OUTPUT=str(outputs),
        GITHUB_STEP_SUMMARY=str(summary),
        RUNNER_TEMP=str(tmp_path),
        JC_BIN=executable[0],
        JC_COMMAND=command,
        JC_CONTRACTS="json-contracts",
        JC_STRICT=strict,
        JC_ARGS="",
    )

    process = subprocess.run(
        [bash, str(ROOT / "action" / "run.sh")], cwd=ROOT, capture_output=True, text=True, env=env, check=False
    )

    assert process.returncode == 0, process.stdout + process.stderr
    assert "--format github" in process.stderr  # the command line run.sh echoes
    assert not re.search(r"^::(error|warning)", process.stdout, re.MULTILINE), process.stdout
    counts = dict(line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines())
    assert (counts["errors"], counts["warnings"]) == ("0", "0")
    assert "passed" in summary.read_text(encoding="utf-8")
