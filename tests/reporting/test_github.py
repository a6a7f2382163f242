"""The renderers on their own: GitHub workflow-command escaping and the text finding line."""

from __future__ import annotations

from pathlib import Path

import click

from json_contracts.cli.render import finding_line
from json_contracts.findings import Finding
from json_contracts.reporting.github import github_annotation


def _finding(**changes):
    fields = {
        "code": "JC104",
        "severity": "warning",
        "message": "Object schema does not set additionalProperties:false.",
        "file": "support-ticket.json",
        "path": None,
        "pointer": "/schema",
        "line": 3,
        "column": 13,
        "contract": "support-ticket",
    }
    fields.update(changes)
    return Finding(**fields)


def test_a_github_annotation_names_file_line_column_and_code():
    assert github_annotation(_finding()) == (
        "::warning file=support-ticket.json,line=3,col=13,title=JC104::"
        "Object schema does not set additionalProperties:false."
    )


def test_github_severity_levels_are_error_warning_and_notice():
    levels = [github_annotation(_finding(severity=s)).split(" ", 1)[0] for s in ("error", "warning", "info")]
    assert levels == ["::error", "::warning", "::notice"]


def test_github_properties_escape_percent_newlines_colon_and_comma():
    annotation = github_annotation(_finding(file="dir,a:b%\r\nc.json"))

    assert annotation.startswith("::warning file=dir%2Ca%3Ab%25%0D%0Ac.json,line=3,col=13,title=JC104::")


def test_github_message_data_escapes_percent_and_newlines_but_not_colon_or_comma():
    annotation = github_annotation(_finding(message="100% sure: a, b\nnext\rline"))

    assert annotation.endswith("::100%25 sure: a, b%0Anext%0Dline")


def test_a_percent_is_escaped_before_the_sequences_that_contain_one():
    annotation = github_annotation(_finding(file="%0A", message="%0A\n"))

    assert annotation == "::warning file=%250A,line=3,col=13,title=JC104::%250A%0A"


def test_a_github_annotation_shows_a_file_inside_the_working_folder_relative_to_it(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    inside = tmp_path / "contracts" / "a.json"
    outside = Path("/elsewhere/b.json")

    assert "file=contracts/a.json," in github_annotation(_finding(path=inside))
    assert "file=/elsewhere/b.json," in github_annotation(_finding(path=outside))


def test_a_text_finding_line_is_file_line_column_code_severity_message():
    line = finding_line(_finding())

    assert click.unstyle(line) == (
        "support-ticket.json:3:13: JC104 warning Object schema does not set additionalProperties:false."
    )
