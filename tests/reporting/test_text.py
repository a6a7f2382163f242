"""The plain-text finding line the CLI prints and other adapters (the pytest plugin) share."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from json_contracts.cli.render import finding_line
from json_contracts.findings import Code, Finding
from json_contracts.reporting.text import finding_location, finding_text
from tests.support.findings import open_schema_finding


def test_finding_text_is_the_cli_line_without_colour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "c" / "a.json"
    finding = Finding(
        code=Code.ADDITIONAL_PROPERTIES_MISSING,
        severity="warning",
        message="Object schema is open.",
        file="a.json",
        path=path,
        pointer="/schema",
        line=3,
        column=13,
    )

    assert finding_text(finding) == "c/a.json:3:13: JC104 warning Object schema is open."
    assert finding_text(finding) == click.unstyle(finding_line(finding))


def test_a_folder_finding_has_no_line_or_column() -> None:
    finding = Finding(
        code=Code.MISSING_DIRECTORY,
        severity="warning",
        message="Contracts directory does not exist",
        file="/x/json-contracts",
        line=0,
        column=0,
    )

    assert finding_location(finding) == "/x/json-contracts:"
    assert finding_text(finding) == "/x/json-contracts: JC002 warning Contracts directory does not exist"


def test_a_text_finding_line_is_file_line_column_code_severity_message() -> None:
    line = finding_line(open_schema_finding())

    assert click.unstyle(line) == (
        "support-ticket.json:3:13: JC104 warning Object schema does not set additionalProperties:false."
    )
