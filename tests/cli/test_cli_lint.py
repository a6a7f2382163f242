"""``json-contracts lint``: exit codes by severity, --strict, --ignore, pyproject settings, JSON and GitHub output."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from pytest_json_contracts import assert_valid_json

from json_contracts.findings import Code
from tests.support.cli import RunCli, WriteContracts
from tests.support.lint import text_position

NOT_CLOSED = "Object schema does not set additionalProperties:false."
NOT_CLOSED_HINT = 'add "additionalProperties": false to this object schema, so a model cannot add fields of its own'
#: What people read: the TypeScript server's message, then the hint as a sentence of its own.
NOT_CLOSED_TEXT = f"{NOT_CLOSED} {NOT_CLOSED_HINT[0].upper()}{NOT_CLOSED_HINT[1:]}"


def _schema_position(folder: Path, name: str = "open") -> tuple[int, int]:
    text = (folder / f"{name}.json").read_text(encoding="utf-8")
    offset = text.index('"schema": ') + len('"schema": ')
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def test_lint_of_clean_contracts_reports_no_findings(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})

    result = run_cli("lint", "--strict", "-c", "contracts")

    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.splitlines() == [f"Linted 1 contract(s) in {folder}.", "No lint findings."]


def test_warnings_are_printed_with_location_and_pass_without_strict(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"open": samples.OPEN_OBJECT})
    line, column = _schema_position(folder)

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"Linted 1 contract(s) in {folder}.",
        f"contracts/open.json:{line}:{column}: JC104 warning {NOT_CLOSED_TEXT}",
        "1 finding(s): 0 error(s), 1 warning(s), 0 info.",
    ]


def test_warnings_fail_with_strict(run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})

    result = run_cli("lint", "--strict", "-c", "contracts")

    assert result.exit_code == 1
    assert "JC104 warning" in result.stdout


def test_info_findings_never_fail_even_with_strict(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"info": samples.UNSHOWN_OPTIONAL})

    result = run_cli("lint", "--strict", "-c", "contracts")

    assert result.exit_code == 0
    assert "JC131 info" in result.stdout
    assert result.stdout.splitlines()[-1] == "1 finding(s): 0 error(s), 0 warning(s), 1 info."


def test_lint_errors_fail_even_without_strict(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"enum": samples.WRONG_ENUM})

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 1
    assert "JC113 error Enum value 5 is integer but the type is string" in result.stdout


def test_a_folder_that_does_not_load_fails_lint_with_the_validate_lines(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"old": samples.VERSIONED})

    result = run_cli("lint", "-c", "contracts")
    validate = run_cli("validate", "-c", "contracts")

    assert result.exit_code == 1
    finding_lines = [line for line in result.output.splitlines() if line.startswith("contracts/")]
    assert finding_lines == [line for line in validate.output.splitlines() if line.startswith("contracts/")]
    assert finding_lines[0].split(": ", 1)[1].startswith("JC015 error ")


@pytest.mark.parametrize("ignore", ["JC104", "jc104", "JC104,JC131", " JC131 , JC104 "])
def test_ignore_turns_codes_off_so_strict_passes(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, ignore: str
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})

    result = run_cli("lint", "--strict", "--ignore", ignore, "-c", "contracts")

    assert result.exit_code == 0
    assert "JC104" not in result.stdout
    assert result.stdout.splitlines()[-1] == "No lint findings."


def test_an_unknown_ignore_code_is_a_one_line_usage_error(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})

    result = run_cli("lint", "--ignore", "JC104,JC999", "-c", "contracts")

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "Error: --ignore: unknown code 'JC999'; known codes are JC001-JC443, listed in docs/reference/rules.md"
    ]


def test_pyproject_ignore_in_the_working_folder_is_honoured(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})
    (workdir / "pyproject.toml").write_text('[tool.json-contracts]\nignore = ["JC104"]\n', encoding="utf-8")

    result = run_cli("lint", "--strict", "-c", "contracts")

    assert result.exit_code == 0
    assert "JC104" not in result.stdout


def test_pyproject_strict_makes_warnings_fail_without_the_flag(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})
    (workdir / "pyproject.toml").write_text("[tool.json-contracts]\nstrict = true\n", encoding="utf-8")

    result = run_cli("lint", "--json", "-c", "contracts")

    assert result.exit_code == 1
    assert json.loads(result.stdout)["strict"] is True


def test_a_broken_pyproject_table_is_a_one_line_usage_error(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})
    pyproject = workdir / "pyproject.toml"
    pyproject.write_text('[tool.json-contracts]\nignor = ["JC104"]\n', encoding="utf-8")

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"Error: {pyproject}: [tool.json-contracts] has unknown key(s) ignor; use ignore, strict, compatibility or "
        "compatibility-overrides"
    ]


def test_lint_json_has_the_original_fields_plus_findings_and_counts(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"info": samples.UNSHOWN_OPTIONAL, "open": samples.OPEN_OBJECT})
    line, column = _schema_position(folder)

    result = run_cli("lint", "--json", "--strict", "-c", "contracts")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert list(report) == ["valid", "ok", "strict", "contractsDir", "loaded", "warnings", "findings", "counts"]
    assert report["valid"] is True
    assert report["ok"] is False
    assert report["strict"] is True
    assert report["contractsDir"] == str(folder)
    assert report["loaded"] == 2
    assert report["warnings"] == [{"contract": "open", "path": "$.schema", "message": NOT_CLOSED}]
    assert [(f["code"], f["severity"], f["contract"]) for f in report["findings"]] == [
        ("JC131", "info", "info"),
        ("JC104", "warning", "open"),
    ]
    assert report["findings"][1] == {
        "code": "JC104",
        "severity": "warning",
        "message": NOT_CLOSED,
        "file": "contracts/open.json",
        "line": line,
        "column": column,
        "pointer": "/schema",
        "contract": "open",
        "hint": NOT_CLOSED_HINT,
    }
    assert report["counts"] == {"error": 0, "warning": 1, "info": 1}


def test_lint_json_is_ok_with_warnings_when_not_strict(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})

    result = run_cli("lint", "--json", "-c", "contracts")

    assert result.exit_code == 0
    report = json.loads(result.stdout)
    assert (report["ok"], report["strict"]) == (True, False)


def test_lint_json_warning_paths_use_the_original_escaping(run_cli: RunCli, write_contracts: WriteContracts) -> None:
    contract = {
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"a-b": {"type": "object"}},
            "patternProperties": {"^z": {}},
        },
        "operations": {"edit": {"enabled": False}},
        "examples": [{"input": "i", "output": {"a-b": {}}}],
    }
    write_contracts({"paths": contract})

    report = json.loads(run_cli("lint", "--json", "-c", "contracts").stdout)

    assert report["warnings"] == [
        {"contract": "paths", "path": '$.schema.properties["a-b"]', "message": NOT_CLOSED},
        {
            "contract": "paths",
            "path": '$.schema.patternProperties["^z"]',
            "message": "Schema object is empty and accepts any JSON value.",
        },
    ]


def test_lint_json_drops_ignored_load_warnings_too(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})
    (folder / "folder.json").mkdir()

    report = json.loads(run_cli("lint", "--json", "--ignore", "JC001", "-c", "contracts").stdout)

    assert report["findings"] == []


def test_load_warnings_are_listed_by_lint_and_dropped_when_ignored(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})
    (folder / "folder.json").mkdir()

    shown = run_cli("lint", "-c", "contracts")
    hidden = run_cli("lint", "--ignore", "JC001", "-c", "contracts")

    assert "contracts/folder.json:1:1: JC001 warning Skipped folder.json: it is a folder, not a regular file" in (
        shown.stdout.splitlines()
    )
    assert "JC001" not in hidden.stdout


def test_github_format_writes_one_annotation_per_finding_by_severity(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts(
        {"enum": samples.WRONG_ENUM, "info": samples.UNSHOWN_OPTIONAL, "open": samples.OPEN_OBJECT}
    )
    line, column = _schema_position(folder)

    result = run_cli("lint", "--format", "github", "-c", "contracts")

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    # errors first, then warnings, then notices (GitHub caps each level per step)
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::notice"]
    assert lines[0].startswith("::error file=contracts/enum.json,line=")
    assert ",title=JC113::Enum value 5 is integer" in lines[0]
    assert lines[1] == f"::warning file=contracts/open.json,line={line},col={column},title=JC104::{NOT_CLOSED_TEXT}"
    assert lines[2].startswith("::notice file=contracts/info.json,line=")
    assert ',title=JC131::No example shows optional property "b";' in lines[2]


def test_github_format_escapes_properties_and_message_data(run_cli: RunCli, write_contracts: WriteContracts) -> None:
    contract = {
        "schema": {"type": "string", "x%y\nz": 1, "x-ok": 1},
        "operations": {"edit": {"enabled": False}},
        "examples": [{"input": "i", "output": "s"}],
    }
    folder = write_contracts({"odd": contract}, folder="a,b:c%d")
    text = (folder / "odd.json").read_text(encoding="utf-8")
    offset = text.index('"x%y')
    line, column = text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)

    result = run_cli("lint", "--format", "github", "-c", "a,b:c%d")

    assert result.stdout.splitlines() == [
        f"::warning file=a%2Cb%3Ac%25d/odd.json,line={line},col={column},title=JC110::"
        'Unknown 2020-12 keyword "x%25y%0Az" is ignored by the validator; remove it, or prefix extensions with "x-"'
    ]


def test_lint_json_of_a_folder_that_does_not_load_keeps_the_validate_failure_fields_first(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"old": samples.VERSIONED})

    result = run_cli("lint", "--json", "--strict", "-c", "contracts")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert list(report)[:3] == ["valid", "contractsDir", "errors"]  # the TypeScript server's failure shape
    assert report["valid"] is False
    assert report["errors"][0].startswith("Failed to load JSON contracts: old.json: ")
    assert (report["ok"], report["loaded"], report["notLinted"]) == (
        False,
        0,
        [{"file": "contracts/old.json", "code": "JC015"}],
    )


def test_strict_lint_fails_on_a_skipped_entry_warning(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"ticket": samples.TICKET})
    (folder / "folder.json").mkdir()

    assert run_cli("lint", "-c", "contracts").exit_code == 0
    assert run_cli("lint", "--strict", "-c", "contracts").exit_code == 1
    assert run_cli("lint", "--strict", "--ignore", "JC001", "-c", "contracts").exit_code == 0


# --- a folder where some files do not load --------------------------------------------------------

BAD_SHAPE = {"schema": {"type": "string"}, "rules": "x"}


def test_a_broken_file_hides_no_other_contract_s_findings(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"open": samples.OPEN_OBJECT, "a": BAD_SHAPE, "b": "{ nope"})
    line, column = _schema_position(folder)

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 1  # a file that does not load still fails the run
    lines = result.stdout.splitlines()
    assert lines[0] == f"Linted 1 contract(s) in {folder}."
    assert [line.split(" ", 3)[:3] for line in lines[1:4]] == [
        ["contracts/a.json:5:12:", "JC016", "error"],
        ["contracts/b.json:1:3:", "JC014", "error"],
        [f"contracts/open.json:{line}:{column}:", "JC104", "warning"],
    ]
    assert lines[4:] == [
        "2 file(s) not linted because they did not load: contracts/a.json (JC016), contracts/b.json (JC014).",
        "3 finding(s): 2 error(s), 1 warning(s), 0 info; failed (2 error(s)).",
    ]


def test_lint_json_with_broken_files_has_the_findings_of_the_contracts_that_loaded(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"open": samples.OPEN_OBJECT, "a": BAD_SHAPE, "b": "{ nope"})

    report = json.loads(run_cli("lint", "--json", "-c", "contracts").stdout)
    validate = json.loads(run_cli("validate", "--json", "-c", "contracts").stdout)

    assert list(report) == [
        "valid", "contractsDir", "errors", "ok", "strict", "loaded", "warnings", "findings", "counts", "notLinted"
    ]  # fmt: skip
    assert (report["valid"], report["contractsDir"], report["errors"]) == (False, str(folder), validate["errors"])
    assert (report["ok"], report["strict"], report["loaded"]) == (False, False, 1)
    assert report["warnings"] == [{"contract": "open", "path": "$.schema", "message": NOT_CLOSED}]
    assert [(f["code"], f["file"]) for f in report["findings"]] == [
        ("JC016", "contracts/a.json"),
        ("JC014", "contracts/b.json"),
        ("JC104", "contracts/open.json"),
    ]
    assert report["counts"] == {"error": 2, "warning": 1, "info": 0}
    assert report["notLinted"] == [
        {"file": "contracts/a.json", "code": "JC016"},
        {"file": "contracts/b.json", "code": "JC014"},
    ]


def test_github_sarif_summary_and_counts_have_both_load_errors_and_lint_findings(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT, "b": "{ nope"})

    github = run_cli("lint", "--format", "github", "-c", "contracts", "--summary", "s.md", "--counts", "c.txt")
    sarif = json.loads(run_cli("lint", "--format", "sarif", "-c", "contracts").stdout)

    assert github.exit_code == 1
    assert [line.split(",title=")[1].split("::")[0] for line in github.stdout.splitlines()] == ["JC014", "JC104"]
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["JC014", "JC104"]
    summary = (workdir / "s.md").read_text(encoding="utf-8")
    assert re.findall(r"^\| contracts/\S+ \| (JC\d+) \|", summary, re.MULTILINE) == ["JC014", "JC104"]
    assert (workdir / "c.txt").read_text(encoding="utf-8") == "errors=1\nwarnings=1\ninfo=0\n"


def test_a_folder_that_cannot_be_listed_says_nothing_was_linted(run_cli: RunCli, workdir: Path) -> None:
    (workdir / "afile").write_text("", encoding="utf-8")

    result = run_cli("lint", "-c", "afile")

    assert result.exit_code == 1
    assert result.stdout.splitlines()[-2:] == [
        "Nothing linted: the contracts folder cannot be read (JC003).",
        "1 finding(s): 1 error(s), 0 warning(s), 0 info; failed (1 error(s)).",
    ]


# --- strict -----------------------------------------------------------------------------------------


def test_the_closing_line_says_when_strict_fails_the_run_on_warnings(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})

    strict = run_cli("lint", "--strict", "-c", "contracts")
    lenient = run_cli("lint", "-c", "contracts")

    assert (strict.exit_code, lenient.exit_code) == (1, 0)
    assert strict.stdout.splitlines()[-1] == (
        "1 finding(s): 0 error(s), 1 warning(s), 0 info; failed (strict: 1 warning(s))."
    )
    assert lenient.stdout.splitlines()[-1] == "1 finding(s): 0 error(s), 1 warning(s), 0 info."


def test_no_strict_overrides_strict_true_in_pyproject(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace, workdir: Path
) -> None:
    write_contracts({"open": samples.OPEN_OBJECT})
    (workdir / "pyproject.toml").write_text("[tool.json-contracts]\nstrict = true\n", encoding="utf-8")

    default = run_cli("lint", "-c", "contracts")
    lenient = run_cli("lint", "--no-strict", "--json", "-c", "contracts")

    assert default.exit_code == 1
    assert lenient.exit_code == 0
    assert (json.loads(lenient.stdout)["strict"], json.loads(lenient.stdout)["ok"]) == (False, True)


# --- a file whose only load error is an example output: its schema is still linted ----------------

#: (a) "required" misspells "actionItems", which the correct example sets.
MINUTES = {
    "operations": {"edit": {"enabled": False}},
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"title": {"type": "string"}, "actionItems": {"type": "array", "items": {"type": "string"}}},
        "required": ["title", "actionitems"],
    },
    "examples": [{"input": "Standup: Ana ships the fix", "output": {"title": "Standup", "actionItems": ["Ana"]}}],
}
#: (b) bounds that cross, so no array of tags passes.
TAGS = {
    "operations": {"edit": {"enabled": False}},
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"tags": {"type": "array", "items": {"type": "string"}, "minItems": 100, "maxItems": 50}},
        "required": ["tags"],
    },
    "examples": [{"input": "tag it", "output": {"tags": ["a", "b"]}}],
}
#: (c) a property's schema beside "properties" in a closed object, while the example sets the property.
ADDRESS = {
    "operations": {"edit": {"enabled": False}},
    "schema": {
        "type": "object",
        "additionalProperties": False,
        "properties": {"city": {"type": "string"}},
        "street": {"type": "string"},
        "required": ["city"],
    },
    "examples": [{"input": "Main St, Springfield", "output": {"city": "Springfield", "street": "Main St"}}],
}
INVALID_OUTPUT = "Example output at examples[0] does not validate against contract schema: "
NOT_FULLY_LINTED = "because an example output does not validate: {}; the schema rules ran, the example rules did not."


def _at(folder: Path, name: str, needle: str, *, occurrence: int = 1, after: bool = False) -> str:
    """``contracts/NAME.json:line:column`` of the ``occurrence``-th ``needle`` in the file (after it with ``after``)."""
    text = (folder / f"{name}.json").read_text(encoding="utf-8")
    line, column = text_position(text, needle, occurrence=occurrence, after=after)
    return f"contracts/{name}.json:{line}:{column}"


def _line_of(location: str) -> str:
    return location.split(":")[1]


def test_a_misspelt_required_name_is_reported_beside_the_example_it_fails(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"minutes": MINUTES})
    required = _at(folder, "minutes", '"actionitems"')
    output = _at(folder, "minutes", '"output": ', after=True)

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        f"Linted 0 contract(s) in {folder}, and the schema of 1 file(s) that did not load.",
        f'{required}: {Code.REQUIRED_NOT_DEFINED} error Required property "actionitems" is not in properties and '
        'additionalProperties is false, so no object can satisfy this schema; did you mean "actionItems"?',
        f"{output}: {Code.INVALID_EXAMPLE} error {INVALID_OUTPUT}/actionitems: must have required property "
        '\'actionitems\' (required); the schema is the cause: "required" lists "actionitems", which '
        f'"properties" does not define (did you mean "actionItems"?), line {_line_of(required)} '
        f"({Code.REQUIRED_NOT_DEFINED})",
        "1 file(s) not fully linted " + NOT_FULLY_LINTED.format(f"contracts/minutes.json ({Code.INVALID_EXAMPLE})"),
        "2 finding(s): 2 error(s), 0 warning(s), 0 info; failed (2 error(s)).",
    ]


def test_crossed_bounds_are_reported_beside_the_example_they_fail(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"tags": TAGS})
    bound = _at(folder, "tags", '"minItems": ', after=True)
    tags = _at(folder, "tags", '"tags": ', occurrence=2, after=True)

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:3] == [
        f"{bound}: {Code.CONTRADICTORY_BOUNDS} error minItems 100 is greater than maxItems 50, so no array satisfies "
        "both; lower minItems or raise maxItems",
        f"{tags}: {Code.INVALID_EXAMPLE} error {INVALID_OUTPUT}/tags: must NOT have fewer than 100 items (minItems); "
        "the schema is the cause: minItems 100 is greater than maxItems 50, so no array satisfies both (lower "
        f"minItems or raise maxItems), line {_line_of(bound)} ({Code.CONTRADICTORY_BOUNDS})",
    ]
    assert result.stdout.splitlines()[-1] == "2 finding(s): 2 error(s), 0 warning(s), 0 info; failed (2 error(s))."


def test_a_property_schema_beside_properties_is_reported_beside_the_example_it_fails(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"address": ADDRESS})
    street = _at(folder, "address", '"street"')
    value = _at(folder, "address", '"street": ', occurrence=2, after=True)

    result = run_cli("lint", "-c", "contracts")

    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:3] == [
        f'{street}: {Code.UNKNOWN_KEYWORD} warning Unknown 2020-12 keyword "street" is ignored by the validator; it '
        'looks like a property\'s schema: move it into "properties" ("properties": {"street": {...}})',
        f"{value}: {Code.INVALID_EXAMPLE} error {INVALID_OUTPUT}/street: must NOT have additional properties "
        '(additionalProperties); the schema is the cause: "street" is a property\'s schema written beside '
        '"properties", so "additionalProperties": false forbids it (move it into "properties"), '
        f"line {_line_of(street)} ({Code.UNKNOWN_KEYWORD})",
    ]
    assert result.stdout.splitlines()[-1] == "2 finding(s): 1 error(s), 1 warning(s), 0 info; failed (1 error(s))."


def test_validate_shows_the_cause_in_the_hint_and_no_lint_finding(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    folder = write_contracts({"minutes": MINUTES})
    required = _line_of(_at(folder, "minutes", '"actionitems"'))

    result = run_cli("validate", "-c", "contracts")

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split(" ", 2)[1] for line in lines[:-1]] == [Code.INVALID_EXAMPLE]
    assert lines[0].endswith(f'(did you mean "actionItems"?), line {required} ({Code.REQUIRED_NOT_DEFINED})')
    assert lines[-1] == "Contract validation failed: 1 error(s) in 1 file(s)."


def test_not_linted_and_not_fully_linted_files_are_told_apart(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts({"open": samples.OPEN_OBJECT, "minutes": MINUTES, "b": "{ nope", "tags": TAGS})

    result = run_cli("lint", "--ignore", Code.REQUIRED_NOT_DEFINED, "-c", "contracts")

    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"Linted 1 contract(s) in {folder}, and the schema of 2 file(s) that did not load."
    assert [line.split(" ", 2)[1] for line in lines[1:-3]] == [
        Code.INVALID_JSON, Code.INVALID_EXAMPLE, Code.ADDITIONAL_PROPERTIES_MISSING, Code.CONTRADICTORY_BOUNDS,
        Code.INVALID_EXAMPLE,
    ]  # fmt: skip
    assert lines[-3:] == [
        f"1 file(s) not linted because they did not load: contracts/b.json ({Code.INVALID_JSON}).",
        "2 file(s) not fully linted "
        + NOT_FULLY_LINTED.format(
            f"contracts/minutes.json ({Code.INVALID_EXAMPLE}), contracts/tags.json ({Code.INVALID_EXAMPLE})"
        ),
        "5 finding(s): 4 error(s), 1 warning(s), 0 info; failed (4 error(s)).",
    ]


def test_lint_json_lists_the_schema_findings_and_marks_the_file_schema_linted(
    run_cli: RunCli, write_contracts: WriteContracts, samples: SimpleNamespace
) -> None:
    folder = write_contracts(
        {"open": samples.OPEN_OBJECT, "minutes": MINUTES, "tags": TAGS, "address": ADDRESS, "b": "{ nope"}
    )

    result = run_cli("lint", "--json", "-c", "contracts")

    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert_valid_json("lint-report", report)
    assert (report["valid"], report["ok"], report["loaded"]) == (False, False, 1)
    found = [(f["code"], f"{f['file']}:{f['line']}:{f['column']}") for f in report["findings"]]
    assert found == [
        (Code.UNKNOWN_KEYWORD, _at(folder, "address", '"street"')),
        (Code.INVALID_EXAMPLE, _at(folder, "address", '"street": ', occurrence=2, after=True)),
        (Code.INVALID_JSON, "contracts/b.json:1:3"),
        (Code.REQUIRED_NOT_DEFINED, _at(folder, "minutes", '"actionitems"')),
        (Code.INVALID_EXAMPLE, _at(folder, "minutes", '"output": ', after=True)),
        (Code.ADDITIONAL_PROPERTIES_MISSING, "contracts/open.json:{}:{}".format(*_schema_position(folder))),
        (Code.CONTRADICTORY_BOUNDS, _at(folder, "tags", '"minItems": ', after=True)),
        (Code.INVALID_EXAMPLE, _at(folder, "tags", '"tags": ', occurrence=2, after=True)),
    ]
    hints = [f["hint"] for f in report["findings"] if f["code"] == Code.INVALID_EXAMPLE]
    assert all(hint.startswith("the schema is the cause: ") for hint in hints)
    assert [(w["contract"], w["path"]) for w in report["warnings"]] == [
        ("address", "$.schema.street"),
        ("minutes", "$.schema.required[1]"),
        ("open", "$.schema"),
        ("tags", "$.schema.properties.tags.minItems"),
    ]
    assert report["notLinted"] == [
        {"file": "contracts/address.json", "code": Code.INVALID_EXAMPLE, "schemaLinted": True},
        {"file": "contracts/b.json", "code": Code.INVALID_JSON},
        {"file": "contracts/minutes.json", "code": Code.INVALID_EXAMPLE, "schemaLinted": True},
        {"file": "contracts/tags.json", "code": Code.INVALID_EXAMPLE, "schemaLinted": True},
    ]


def test_github_and_sarif_carry_the_schema_finding_and_the_load_error(
    run_cli: RunCli, write_contracts: WriteContracts
) -> None:
    write_contracts({"minutes": MINUTES})

    github = run_cli("lint", "--format", "github", "-c", "contracts")
    sarif = json.loads(run_cli("lint", "--format", "sarif", "-c", "contracts").stdout)

    assert github.exit_code == 1
    assert [line.split(",title=")[1].split("::")[0] for line in github.stdout.splitlines()] == [
        Code.REQUIRED_NOT_DEFINED,
        Code.INVALID_EXAMPLE,
    ]
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == [Code.REQUIRED_NOT_DEFINED, Code.INVALID_EXAMPLE]
