"""``--format sarif``: valid against the SARIF 2.1.0 schema, rules for every code, results that point at the line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from json_contracts.findings import Code, Finding
from json_contracts.findings.catalogue import CATALOGUE
from json_contracts.reporting.sarif import artifact_uri, sarif_log
from tests.support.action import position
from tests.support.cli import RunCli
from tests.support.golden import SARIF_SCHEMA
from tests.support.samples import BROKEN


@pytest.fixture(scope="module")
def sarif_validator() -> Draft4Validator:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)


def assert_valid(validator: Draft4Validator, log: dict[str, Any]) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]
    assert errors == []


def test_the_schema_on_disk_rejects_what_sarif_forbids(sarif_validator: Draft4Validator) -> None:
    # the check below would pass anything if the schema file were empty or wrong
    assert not sarif_validator.is_valid({"version": "2.1.0", "runs": [{"tool": {}}]})
    assert not sarif_validator.is_valid({"version": "2.0.0", "runs": []})
    region_without_start = {"artifactLocation": {"uri": "a.json"}, "region": {"startColumn": 3}}
    result = {"message": {"text": "m"}, "locations": [{"physicalLocation": region_without_start}]}
    log = {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [result]}]}
    assert not sarif_validator.is_valid(log)


def test_lint_sarif_validates_and_points_at_the_offending_line(
    run_cli: RunCli, workspace: Path, sarif_validator: Draft4Validator
) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    (folder / "broken.json").write_text(BROKEN, encoding="utf-8")

    result = run_cli("lint", "--format", "sarif")

    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert_valid(sarif_validator, log)
    [run] = log["runs"]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == workspace.as_uri() + "/"
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert set(by_rule) == {"JC113", "JC104", "JC130", "JC132"}
    error = by_rule["JC113"]
    assert error["level"] == "error"
    assert error["message"]["text"].startswith("Enum value 5 is integer")
    location = error["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "json-contracts/broken.json", "uriBaseId": "%SRCROOT%"}
    line, column = position(BROKEN, "5,")
    assert location["region"] == {"startLine": line, "startColumn": column}
    assert by_rule["JC130"]["level"] == "note"
    assert error["properties"] == {"pointer": "/schema/properties/size/enum/1"}


def test_every_code_is_a_rule_with_metadata_and_every_result_indexes_its_rule(run_cli: RunCli, workspace: Path) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    (folder / "broken.json").write_text(BROKEN, encoding="utf-8")

    log = json.loads(run_cli("lint", "--format", "sarif").stdout)

    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "json-contracts"
    rules = driver["rules"]
    assert [rule["id"] for rule in rules] == list(CATALOGUE)
    for rule in rules:
        code = CATALOGUE[rule["id"]]
        assert rule["name"] == code.name
        assert rule["shortDescription"] == {"text": code.summary}
        assert (
            rule["defaultConfiguration"]["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[code.severity]
        )
    for result in log["runs"][0]["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]


def test_a_clean_folder_is_a_valid_log_with_no_results(
    run_cli: RunCli, good_folder: Path, sarif_validator: Draft4Validator
) -> None:
    result = run_cli("validate", "--format", "sarif")

    assert result.exit_code == 0
    log = json.loads(result.stdout)
    assert_valid(sarif_validator, log)
    assert log["runs"][0]["results"] == []


def test_validate_sarif_has_load_errors_and_folder_findings_without_a_region(
    run_cli: RunCli, workspace: Path, sarif_validator: Draft4Validator
) -> None:
    folder = workspace / "json-contracts"
    folder.mkdir()
    (folder / "bad.json").write_text('{"schema": {"type": "string"},\n  oops}\n', encoding="utf-8")
    (folder / "link.json").symlink_to(folder / "bad.json")

    result = run_cli("validate", "--format", "sarif")
    missing = run_cli("validate", "--format", "sarif", "--contracts", "nowhere")

    assert result.exit_code == 1
    for log in (json.loads(result.stdout), json.loads(missing.stdout)):
        assert_valid(sarif_validator, log)
    results = {r["ruleId"]: r for r in json.loads(result.stdout)["runs"][0]["results"]}
    assert results["JC014"]["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 3}
    [folder_level] = json.loads(missing.stdout)["runs"][0]["results"]
    assert folder_level["ruleId"] == "JC002"
    assert "region" not in folder_level["locations"][0]["physicalLocation"]
    assert folder_level["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "nowhere"


def test_check_sarif_reports_document_errors_under_their_rule_with_the_keyword_as_a_property(
    run_cli: RunCli, good_folder: Path, sarif_validator: Draft4Validator, workspace: Path
) -> None:
    document = '{\n  "summary": "Login broken",\n  "severity": "urgent"\n}\n'
    (workspace / "ticket.json").write_text(document, encoding="utf-8")

    result = run_cli("check", "support-ticket", "ticket.json", "--format", "sarif")

    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert_valid(sarif_validator, log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == list(CATALOGUE)  # no rule outside the catalogue
    results = {r["properties"]["keyword"]: r for r in run["results"]}
    assert set(results) == {"required", "enum"}
    assert {r["ruleId"] for r in run["results"]} == {"JC301"}
    assert rules[results["enum"]["ruleIndex"]]["name"] == "document-invalid"
    location = results["enum"]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "ticket.json"
    line, column = position(document, '"urgent"')
    assert location["region"] == {"startLine": line, "startColumn": column}


def test_uris_are_relative_and_percent_encoded_inside_the_root_and_absolute_outside(tmp_path: Path) -> None:
    inside = Finding(
        code=Code.INVALID_JSON, severity="error", message="m", file="a b#.json", path=tmp_path / "dir" / "a b#.json"
    )
    outside = Finding(
        code=Code.INVALID_JSON, severity="error", message="m", file="x.json", path=Path("/elsewhere/x.json")
    )
    stdin = Finding(code=Code.DOCUMENT_INVALID, severity="error", message="m", file="<stdin>", keyword="required")

    assert artifact_uri(inside, tmp_path) == ("dir/a%20b%23.json", True)
    assert artifact_uri(outside, tmp_path) == ("file:///elsewhere/x.json", False)
    assert artifact_uri(stdin, tmp_path) == ("%3Cstdin%3E", True)
    result = sarif_log([outside], tool_version="1.0", root=tmp_path)["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "file:///elsewhere/x.json"}


def test_the_sarif_version_is_the_installed_package_s(run_cli: RunCli, good_folder: Path) -> None:
    from importlib.metadata import version

    log = json.loads(run_cli("lint", "--format", "sarif").stdout)

    assert log["runs"][0]["tool"]["driver"]["version"] == version("json-contracts")


def test_a_document_refused_for_its_depth_names_the_limit_rule_not_a_keyword(
    run_cli: RunCli, good_folder: Path, sarif_validator: Draft4Validator, workspace: Path
) -> None:
    # Before the typed finding model, the refusal's code was the word "limit", and SARIF made a
    # rule "the JSON Schema keyword limit" for it.
    (workspace / "deep.json").write_text("[" * 70 + "]" * 70, encoding="utf-8")

    result = run_cli("check", "support-ticket", "deep.json", "--format", "sarif")

    assert result.exit_code == 1
    log = json.loads(result.stdout)
    assert_valid(sarif_validator, log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    [refusal] = run["results"]
    assert refusal["ruleId"] == "JC303"
    rule = rules[refusal["ruleIndex"]]
    assert rule["id"] == "JC303"
    assert rule["name"] == "document-over-limit"
    assert "keyword" not in rule["shortDescription"]["text"]
    assert refusal["message"]["text"] == "document is nested more than 64 levels deep; flatten it"
