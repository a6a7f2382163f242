"""``json-contracts check CONTRACT [FILE|-]``: one document, located errors and repair hints."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.cli import RunCli, WriteContracts

BAD_DOC = '{\n  "title": "ab",\n  "priority": "urgent",\n  "extra": 1\n}\n'
ERROR_LINES = [
    "{label}:4:3: additionalProperties /extra must NOT have additional properties",
    "{label}:2:12: minLength /title must NOT have fewer than 3 characters",
    "{label}:3:15: enum /priority must be equal to one of the allowed values",
]
HINTS = [
    "  - Remove extra field /extra.",
    "  - Lengthen /title to satisfy the minimum length.",
    "  - Set /priority to one of: low, high.",
]


@pytest.fixture
def ticket_folder(write_contracts: WriteContracts, samples: SimpleNamespace) -> Path:
    return write_contracts({"ticket": samples.TICKET})


def test_a_valid_document_passes_with_exit_0(run_cli: RunCli, ticket_folder: Path, workdir: Path) -> None:
    (workdir / "good.json").write_text('{"title": "Broken chair", "priority": "low"}', encoding="utf-8")

    result = run_cli("check", "ticket", "good.json", "-c", "contracts")

    assert result.exit_code == 0
    assert result.stdout == "good.json is valid against ticket.\n"
    assert result.stderr == ""


def test_an_invalid_document_lists_located_errors_and_how_to_repair(
    run_cli: RunCli, ticket_folder: Path, workdir: Path
) -> None:
    (workdir / "doc.json").write_text(BAD_DOC, encoding="utf-8")

    result = run_cli("check", "ticket", "doc.json", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        *(line.format(label="doc.json") for line in ERROR_LINES),
        "How to repair:",
        *HINTS,
        "doc.json does not validate against ticket: 3 error(s).",
    ]


@pytest.mark.parametrize("args", [("-",), ()])
def test_the_document_can_come_from_stdin(run_cli: RunCli, ticket_folder: Path, args: tuple[str, ...]) -> None:
    result = run_cli("check", "ticket", *args, "-c", "contracts", input=BAD_DOC)

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[:3] == [line.format(label="<stdin>") for line in ERROR_LINES]
    assert lines[-1] == "<stdin> does not validate against ticket: 3 error(s)."


def test_a_missing_required_field_is_located_at_its_parent_object(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "-", "-c", "contracts", input='\n  {"title": "Chair"}')

    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "<stdin>:2:3: required /priority must have required property 'priority'"
    # the allowed values are named, which the MCP instructions (the TypeScript server's lines) leave out
    assert "  - Add missing required field /priority with one of: low, high." in result.stdout.splitlines()


def test_a_document_that_is_not_json_fails_with_its_position(
    run_cli: RunCli, ticket_folder: Path, workdir: Path
) -> None:
    (workdir / "cut.json").write_text('{"title": ', encoding="utf-8")

    result = run_cli("check", "ticket", "cut.json", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.startswith("cut.json:1:11: invalid JSON")
    assert len(result.stdout.splitlines()) == 1


def test_a_document_with_a_json_slip_gets_the_fix_at_its_place(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "-", "-c", "contracts", input='{"title": "Chair", "priority": "low",}')

    assert result.exit_code == 1
    line = result.stdout.splitlines()[0]
    assert line.startswith("<stdin>:1:")
    assert "remove the comma at line 1, column 37" in line


def test_an_error_list_cut_at_the_limit_counts_only_its_errors(
    run_cli: RunCli, write_contracts: WriteContracts, workdir: Path
) -> None:
    write_contracts({"many": {"schema": {"type": "array", "items": {"type": "integer"}}}})
    (workdir / "doc.json").write_text('["a", "b", "c", "d"]', encoding="utf-8")
    env = {"JSON_CONTRACTS_MAX_ERRORS": "2"}

    result = run_cli("check", "many", "doc.json", "-c", "contracts", "--counts", "c.txt", env=env)

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in lines[:2]] == ["doc.json:1:2:", "doc.json:1:7:"]
    assert (
        lines[-1] == "doc.json does not validate against many: 2 error(s), more not listed (JSON_CONTRACTS_MAX_ERRORS)."
    )
    assert (workdir / "c.txt").read_text(encoding="utf-8") == "errors=2\nwarnings=0\ninfo=0\n"
    report = json.loads(run_cli("check", "many", "doc.json", "-c", "contracts", "--json", env=env).stdout)
    assert [error["keyword"] for error in report["errors"]] == ["type", "type", "maxErrors"]  # agents read the note
    assert [repair["keyword"] for repair in report["repairs"]] == ["type", "type"]


def test_a_document_that_is_not_json_in_json_mode_reports_line_and_column(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "-", "--json", "-c", "contracts", input="[1,\n 2,,]")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert report["file"] == "<stdin>"
    assert (report["line"], report["column"]) == (2, 4)
    assert report["error"].startswith("Invalid JSON: ")


def test_check_json_returns_errors_instructions_and_repairs(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "--json", "-c", "contracts", input=BAD_DOC)

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert report["contract"] == "ticket"
    assert [(e["keyword"], e["path"]) for e in report["errors"]] == [
        ("additionalProperties", "/extra"),
        ("minLength", "/title"),
        ("enum", "/priority"),
    ]
    assert report["instructions"] == [hint.removeprefix("  - ") for hint in HINTS]
    assert [r["action"] for r in report["repairs"]] == ["remove", "lengthen", "replace"]
    assert list(report)[-2:] == ["instructions", "repairs"]


def test_check_json_of_a_valid_document_has_no_errors(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "--json", "-c", "contracts", input='{"title": "Chair", "priority": "low"}')

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert (report["valid"], report["contract"], report["errors"]) == (True, "ticket", [])
    assert (report["instructions"], report["repairs"]) == ([], [])


def test_check_github_format_annotates_each_error_with_its_hint(
    run_cli: RunCli, ticket_folder: Path, workdir: Path
) -> None:
    (workdir / "doc.json").write_text(BAD_DOC, encoding="utf-8")

    result = run_cli("check", "ticket", "doc.json", "--format", "github", "-c", "contracts")

    assert result.exit_code == 1
    # annotations follow the document's order (line, then column), not the validator's
    assert (
        "::error file=doc.json,line=4,col=3,title=JC301 additionalProperties::"
        "/extra must NOT have additional properties. Remove extra field /extra."
    ) in result.stdout.splitlines()
    positions = [line.split(",title=", 1)[0] for line in result.stdout.splitlines()]
    assert positions == [
        "::error file=doc.json,line=2,col=12",
        "::error file=doc.json,line=3,col=15",
        "::error file=doc.json,line=4,col=3",
    ]


def test_an_unknown_contract_is_a_usage_error_listing_what_loaded(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "nosuch", "-", "-c", "contracts", input="{}")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == ["Error: Contract not found: nosuch (loaded: ticket)"]


def test_an_unsafe_contract_name_is_a_usage_error(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "../ticket", "-", "-c", "contracts", input="{}")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["Error: Invalid contract name: ../ticket"]


def test_an_unreadable_document_file_is_a_usage_error(run_cli: RunCli, ticket_folder: Path) -> None:
    result = run_cli("check", "ticket", "missing.json", "-c", "contracts")

    assert result.exit_code == 2
    assert result.stderr.startswith("Error: Cannot read missing.json: ")


def test_a_contract_that_did_not_load_fails_with_its_load_error(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"old": samples.VERSIONED, "ticket": samples.TICKET})

    result = run_cli("check", "old", "-", "-c", "contracts", input="{}")

    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("contracts/old.json:")
    assert " JC015 error Contract must not include a version field" in lines[0]
    assert lines[1] == "Contract old did not load; fix it first (json-contracts validate)."


def test_a_broken_neighbour_does_not_stop_checking_a_contract_that_loaded(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"old": samples.VERSIONED, "ticket": samples.TICKET})

    result = run_cli("check", "ticket", "-c", "contracts", input='{"title": "Chair", "priority": "low"}')

    assert result.exit_code == 0
    assert result.stdout == "<stdin> is valid against ticket.\n"


def test_check_on_a_contract_in_a_duplicate_group_reports_the_duplicate(run_cli: RunCli, workdir: Path) -> None:
    folder = workdir / "contracts"
    folder.mkdir()
    for name in ("dup.json", "Dup.json"):
        (folder / name).write_text('{"schema": {"type": "object"}}', encoding="utf-8")
    (workdir / "doc.json").write_text("{}", encoding="utf-8")

    result = run_cli("check", "dup", "doc.json", "-c", "contracts")

    assert result.exit_code == 1
    assert "JC010" in result.stderr
    assert "did not load" in result.stderr


def test_check_with_github_format_annotates_a_document_that_is_not_json(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"ticket": samples.TICKET})
    (workdir / "doc.json").write_text('{"summary": ', encoding="utf-8")

    result = run_cli("check", "ticket", "doc.json", "--format", "github", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.startswith("::error file=doc.json,line=1,col=13,title=JC302::Invalid JSON: ")


def test_check_with_a_missing_folder_says_so_and_how_to_fix_it(run_cli: RunCli, workdir: Path) -> None:
    result = run_cli("check", "ticket", "-", "-c", "nowhere", input="{}")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "Error: Contracts folder does not exist: nowhere; pass the folder with -c DIR (or set JSON_CONTRACTS_DIR), "
        "or create it with json-contracts init"
    ]


def test_check_with_a_folder_that_is_a_file_says_so(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "afile").write_text("", encoding="utf-8")

    result = run_cli("check", "ticket", "-", "-c", "afile", input="{}")

    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: Cannot read contracts directory {workdir / 'afile'}: ")
    assert "Contract not found" not in result.stderr


def test_check_says_what_to_write_for_a_format_and_which_property_an_extra_field_misspells(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    # The hints used to repeat the errors: 'Fix /date: must match format "date".', 'Remove extra field ....'
    item = {"type": "object", "additionalProperties": False, "properties": {"dueDate": {"type": "string"}}}
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {"date": {"type": "string", "format": "date"}, "actionItems": {"type": "array", "items": item}},
    }
    write_contracts({"meeting": {"schema": schema}})

    result = run_cli("check", "meeting", "-c", "contracts", input='{"date": "3/3/2026", "actionItems": [{"due": "x"}]}')

    assert result.exit_code == 1
    hints = result.stdout.splitlines()[3:5]
    assert hints == [
        "  - Write /date as a date in the form YYYY-MM-DD, e.g. 2026-03-03.",
        '  - Remove extra field /actionItems/0/due; did you mean "dueDate"?',
    ]
    assert result.stdout.splitlines()[2] == "How to repair:"


def test_check_says_a_date_is_no_calendar_date(run_cli: RunCli, write_contracts: WriteContracts) -> None:
    schema = {"type": "object", "properties": {"date": {"type": "string", "format": "date"}}}
    write_contracts({"meeting": {"schema": schema}})

    result = run_cli("check", "meeting", "-c", "contracts", input='{"date": "2026-02-30"}')

    assert result.exit_code == 1
    assert result.stdout.splitlines()[2] == (
        "  - Fix /date: 2026-02-30 is not a calendar date (February 2026 has 28 days); "
        "write a date in the form YYYY-MM-DD, e.g. 2026-03-03."
    )
