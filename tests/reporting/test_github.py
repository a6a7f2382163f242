"""GitHub annotations: workflow-command escaping, one finding at a time, the caps, and through the CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from json_contracts.reporting.github import ANNOTATION_LIMIT, github_annotation, github_annotations
from tests.support.cli import RunCli
from tests.support.findings import numbered_finding, open_schema_finding


def test_a_github_annotation_names_file_line_column_and_code() -> None:
    assert github_annotation(open_schema_finding()) == (
        "::warning file=support-ticket.json,line=3,col=13,title=JC104::"
        "Object schema does not set additionalProperties:false."
    )


def test_github_severity_levels_are_error_warning_and_notice() -> None:
    levels = [github_annotation(open_schema_finding(severity=s)).split(" ", 1)[0] for s in ("error", "warning", "info")]
    assert levels == ["::error", "::warning", "::notice"]


def test_github_properties_escape_percent_newlines_colon_and_comma() -> None:
    annotation = github_annotation(open_schema_finding(file="dir,a:b%\r\nc.json"))

    assert annotation.startswith("::warning file=dir%2Ca%3Ab%25%0D%0Ac.json,line=3,col=13,title=JC104::")


def test_github_message_data_escapes_percent_and_newlines_but_not_colon_or_comma() -> None:
    annotation = github_annotation(open_schema_finding(message="100% sure: a, b\nnext\rline"))

    assert annotation.endswith("::100%25 sure: a, b%0Anext%0Dline")


def test_a_percent_is_escaped_before_the_sequences_that_contain_one() -> None:
    annotation = github_annotation(open_schema_finding(file="%0A", message="%0A\n"))

    assert annotation == "::warning file=%250A,line=3,col=13,title=JC104::%250A%0A"


def test_a_github_annotation_shows_a_file_inside_the_working_folder_relative_to_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    inside = tmp_path / "contracts" / "a.json"
    outside = Path("/elsewhere/b.json")

    assert "file=contracts/a.json," in github_annotation(open_schema_finding(path=inside))
    assert "file=/elsewhere/b.json," in github_annotation(open_schema_finding(path=outside))


def _unescape(value: str) -> str:
    return re.sub(
        r"%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m[1]], value
    )


# --- annotations of a whole run ------------------------------------------------------------


def test_annotation_properties_and_message_survive_percent_cr_lf_colon_and_comma(
    run_cli: RunCli, workspace: Path
) -> None:
    folder_name = "d%1,2:3\r\n4"
    folder = workspace / folder_name
    folder.mkdir()
    keyword = "odd%25\r\nkey:a,b"
    contract = {
        "schema": {"type": "string", keyword: 1},
        "operations": {"edit": {"enabled": False}},
        "examples": [{"input": "i", "output": "s"}],
    }
    (folder / "odd.json").write_text(json.dumps(contract, indent=2), encoding="utf-8")

    result = run_cli("lint", "--format", "github", "--contracts", folder_name)

    lines = result.stdout.split("\n")[:-1]
    assert len(lines) == 1
    assert "\r" not in lines[0]
    match = re.fullmatch(r"::warning (?P<props>[^:]*)::(?P<message>.*)", lines[0])
    assert match is not None
    props = dict(item.split("=", 1) for item in match["props"].split(","))
    assert _unescape(props["file"]) == f"{folder_name}/odd.json"
    assert props["title"] == "JC110"
    assert "%2C" in props["file"]
    assert "%3A" in props["file"]
    assert "%0D%0A" in props["file"]
    assert "%2525" in match["message"]
    assert "%0D%0A" in match["message"]
    assert _unescape(match["message"]).startswith(f'Unknown 2020-12 keyword "{keyword}"')
    assert "key:a,b" in match["message"]  # ":" and "," stay raw in the message


def test_within_the_caps_every_finding_is_annotated_errors_first() -> None:
    findings = [numbered_finding(s, n) for n in range(ANNOTATION_LIMIT) for s in ("info", "warning", "error")]

    lines = github_annotations(findings)

    assert len(lines) == 3 * ANNOTATION_LIMIT
    assert [line.split(" ", 1)[0] for line in lines] == (
        ["::error"] * ANNOTATION_LIMIT + ["::warning"] * ANNOTATION_LIMIT + ["::notice"] * ANNOTATION_LIMIT
    )
    assert lines[0].startswith("::error file=a.json,line=1,col=1,title=JC113::finding 0")


def test_over_the_caps_the_first_of_each_level_show_then_one_notice_with_the_count() -> None:
    findings = [numbered_finding("warning", n) for n in range(13)] + [numbered_finding("error", n) for n in range(11)]

    lines = github_annotations(findings)

    assert [line.split(" ", 1)[0] for line in lines] == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"]
    assert lines[9].endswith("::finding 9")  # the first ten errors, in file order
    assert lines[-1] == (
        "::notice title=json-contracts::4 more finding(s) not shown as annotations (GitHub shows 10 errors and "
        "10 warnings per step); run json-contracts with --format text, or pass --summary FILE, to list them all."
    )


def test_too_many_notices_leave_room_for_the_overflow_notice() -> None:
    lines = github_annotations([numbered_finding("info", n) for n in range(11)], summary=True)

    assert len(lines) == ANNOTATION_LIMIT
    assert lines[-1].startswith("::notice title=json-contracts::2 more finding(s)")
    assert lines[-1].endswith("the job summary lists them all.")
