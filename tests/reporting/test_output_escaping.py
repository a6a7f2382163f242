"""One escaping rule per medium: contract and document text can neither steer a reader nor break an output.

Text (a terminal, a CI log) shows every control, bidi and line-separator character as a visible
escape and never lets contract text start a line GitHub's runner would obey; annotations use
GitHub's own escaping on top; the job summary escapes markdown, HTML and autolinks; JSON and SARIF
keep the original text exactly (escaped as JSON) and name a non-UTF-8 file by its bytes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import click
import pytest

from json_contracts.cli.render import finding_line
from json_contracts.findings import Code, Finding
from json_contracts.reporting.escaping import escape_json, escape_text, shown_name
from json_contracts.reporting.github import github_annotation
from json_contracts.reporting.markdown import markdown_cell, markdown_summary
from json_contracts.reporting.reports import finding_dict
from json_contracts.reporting.sarif import artifact_uri, sarif_log
from json_contracts.reporting.text import display_path, finding_text

HOSTILE = "a\n::error::pwned\r\x1b]52;c;aGk=\x07\x1b[2J\x9b\x7f\u202eb\u2066\u2028 ##[error]x"
BAD_BYTES_NAME = os.fsdecode(b"bad\xff.json")  # what os.listdir gives for a name that is not UTF-8


def _finding(message: str = "m", *, path: Path | None = None, file: str = "a.json", hint: str | None = None) -> Finding:
    return Finding(
        code=Code.UNKNOWN_OPERATION_FIELD,
        severity="warning",
        message=message,
        file=file,
        path=path,
        line=3,
        column=4,
        hint=hint,
    )


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text: a, b. 100% (ok) \\d+ ünïcødé ✓", "plain text: a, b. 100% (ok) \\d+ ünïcødé ✓"),
        ("a\nb\r\tc", "a\\u000ab\\u000d\\u0009c"),
        ("\x1b]52;c;aGk=\x07\x1b[2J", "\\u001b]52;c;aGk=\\u0007\\u001b[2J"),
        ("\x7f\x85\x9b", "\\u007f\\u0085\\u009b"),
        ("\u202e\u2066\u2069\u2028\u2029", "\\u202e\\u2066\\u2069\\u2028\\u2029"),
        ("::error::x", "\\u003a:error::x"),
        ("  \u3000::warning::x", "  \u3000\\u003a:warning::x"),
        ("see ##[error]x and ##[add-mask]y", "see ##\\u005berror]x and ##\\u005badd-mask]y"),
        ("a::b", "a::b"),
        (BAD_BYTES_NAME, "bad\\xff.json"),
        ("\ud800", "\\ud800"),
    ],
)
def test_text_shows_every_character_that_could_steer_a_terminal_or_a_runner_as_an_escape(text: str, shown: str) -> None:
    assert escape_text(text) == shown


def test_a_finding_line_is_one_line_that_no_contract_text_can_turn_into_a_command() -> None:
    finding = _finding(HOSTILE, path=Path.cwd() / "::error::f\n.json", hint="fix " + HOSTILE)

    for line in (finding_text(finding), click.unstyle(finding_line(finding))):
        assert line.splitlines() == [line]
        assert line.startswith("\\u003a:error::f\\u000a.json:3:4: JC124 warning a\\u000a::error::pwned\\u000d")
        assert not re.search("\x1b|\u202e|##\\[", line)


def test_an_annotation_keeps_githubs_escaping_and_shows_controls_as_escapes() -> None:
    annotation = github_annotation(_finding(HOSTILE, file="x,y:z\n.json"))

    assert annotation.splitlines() == [annotation]
    assert annotation.startswith("::warning file=x%2Cy%3Az%0A.json,line=3,col=4,title=JC124::a%0A::error::pwned%0D")
    shown = "\\u001b]52;c;aGk=\\u0007\\u001b[2J\\u009b\\u007f\\u202eb\\u2066\\u2028 ##\\u005berror]x"
    assert annotation.endswith(shown)


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("[x](https://evil.example) ![i](http://e/i.png)", r"\[x\](https\://evil.example) !\[i\](http\://e/i.png)"),
        ("visit www.evil.example", r"visit www\.evil.example"),
        ("<img src=x onerror=alert(1)>", r"\<img src=x onerror=alert(1)\>"),
        ("$x^2$ and $schema", r"\$x^2\$ and \$schema"),
        ("\x1b[2J\u202e", r"\\u001b\[2J\\u202e"),
        ("a\u2028b", r"a\\u2028b"),
    ],
)
def test_a_summary_cell_cannot_render_a_link_an_image_html_math_or_a_control(text: str, cell: str) -> None:
    assert markdown_cell(text) == cell


def test_json_output_carries_the_original_text_with_every_risky_character_escaped() -> None:
    text = json.dumps({"m": HOSTILE, "k\u2028": "[##[x]"}, ensure_ascii=False)

    escaped = escape_json(text)

    assert json.loads(escaped) == {"m": HOSTILE, "k\u2028": "[##[x]"}
    assert "##[" not in escaped
    assert not {"\u202e", "\u2028", "\x9b"} & set(escaped)


def test_a_file_name_that_is_not_utf8_is_named_by_its_bytes_everywhere(tmp_path: Path) -> None:
    path = tmp_path / BAD_BYTES_NAME
    finding = _finding("Invalid contract name", path=path, file="bad\ufffd.json")

    assert shown_name(BAD_BYTES_NAME) == "bad\\xff.json"
    assert display_path(finding, tmp_path) == "bad\\xff.json"
    assert finding_dict(finding, tmp_path)["file"] == "bad\\xff.json"
    assert finding_text(finding, tmp_path).startswith("bad\\xff.json:3:4: ")
    assert artifact_uri(finding, tmp_path) == ("bad%FF.json", True)
    outside = artifact_uri(finding, tmp_path / "elsewhere")
    assert outside == (path.as_uri(), False)
    assert outside[0].endswith("/bad%FF.json")
    log = sarif_log([finding], tool_version="0", root=tmp_path)
    [result] = json.loads(json.dumps(log))["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad%FF.json"
    summary = markdown_summary([finding], title="t", cwd=tmp_path)
    assert "| bad\\\\xff.json:3:4 |" in summary
    summary.encode("utf-8")  # no surrogate left to refuse
