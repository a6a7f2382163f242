"""GitHub annotations (escaping, caps), the markdown summary and the counts file, through the CLI and on their own."""

from __future__ import annotations

import json
import re

import pytest
from ci_support import BROKEN, run_script

from json_contracts.findings import Finding
from json_contracts.reporting.github import ANNOTATION_LIMIT, github_annotations
from json_contracts.reporting.markdown import SUMMARY_LIMIT, markdown_cell, markdown_summary


def _finding(severity: str = "error", number: int = 0, **changes) -> Finding:
    fields = {
        "code": {"error": "JC113", "warning": "JC104", "info": "JC130"}[severity],
        "severity": severity,
        "message": f"finding {number}",
        "file": "a.json",
        "line": number + 1,
        "column": 1,
    }
    fields.update(changes)
    return Finding(**fields)


def _unescape(value: str) -> str:
    return re.sub(
        r"%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m[1]], value
    )


# --- annotations -------------------------------------------------------------------------


def test_annotation_properties_and_message_survive_percent_cr_lf_colon_and_comma(run_cli, workspace):
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


def test_within_the_caps_every_finding_is_annotated_errors_first():
    findings = [_finding(s, n) for n in range(ANNOTATION_LIMIT) for s in ("info", "warning", "error")]

    lines = github_annotations(findings)

    assert len(lines) == 3 * ANNOTATION_LIMIT
    assert [line.split(" ", 1)[0] for line in lines] == (
        ["::error"] * ANNOTATION_LIMIT + ["::warning"] * ANNOTATION_LIMIT + ["::notice"] * ANNOTATION_LIMIT
    )
    assert lines[0].startswith("::error file=a.json,line=1,col=1,title=JC113::finding 0")


def test_over_the_caps_the_first_of_each_level_show_then_one_notice_with_the_count():
    findings = [_finding("warning", n) for n in range(13)] + [_finding("error", n) for n in range(11)]

    lines = github_annotations(findings)

    assert [line.split(" ", 1)[0] for line in lines] == ["::error"] * 10 + ["::warning"] * 10 + ["::notice"]
    assert lines[9].endswith("::finding 9")  # the first ten errors, in file order
    assert lines[-1] == (
        "::notice title=json-contracts::4 more finding(s) not shown as annotations (GitHub shows 10 errors and "
        "10 warnings per step); run json-contracts with --format text, or pass --summary FILE, to list them all."
    )


def test_too_many_notices_leave_room_for_the_overflow_notice():
    lines = github_annotations([_finding("info", n) for n in range(11)], summary=True)

    assert len(lines) == ANNOTATION_LIMIT
    assert lines[-1].startswith("::notice title=json-contracts::2 more finding(s)")
    assert lines[-1].endswith("the job summary lists them all.")


# --- summary -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("a|b", r"a\|b"),
        ("one\ntwo\r\nthree\rfour", "one<br>two<br>three<br>four"),
        ("back\\|slash", r"back\\\|slash"),
        ("<b>*x*</b> `c` _u_ [l](u) ~s~ &amp;", r"\<b\>\*x\*\</b\> \`c\` \_u\_ \[l\](u) \~s\~ \&amp;"),
        ("plain: a, b. 100% (ok)", "plain: a, b. 100% (ok)"),
    ],
)
def test_a_markdown_cell_escapes_what_would_break_the_table_or_render(text, cell):
    assert markdown_cell(text) == cell


def test_the_summary_has_counts_and_one_row_per_finding_errors_first():
    findings = [
        _finding("info", 0),
        _finding("warning", 1, message="a | b\nc"),
        _finding("error", 2),
        _finding("error", 3, file="folder", line=0, column=0),
    ]

    summary = markdown_summary(findings, title="json-contracts lint (x)", failed=True)

    assert summary == (
        "### json-contracts lint (x): failed\n"
        "\n"
        "2 errors, 1 warning, 1 info.\n"
        "\n"
        "| where | code | severity | message |\n"
        "| --- | --- | --- | --- |\n"
        "| a.json:3:1 | JC113 | error | finding 2 |\n"
        "| folder | JC113 | error | finding 3 |\n"
        "| a.json:2:1 | JC104 | warning | a \\| b<br>c |\n"
        "| a.json:1:1 | JC130 | info | finding 0 |\n"
    )


def test_a_summary_without_findings_says_so():
    summary = markdown_summary([], title="t", failed=False)

    assert summary == "### t: passed\n\n0 errors, 0 warnings, 0 info.\n\nNo findings.\n"


def test_a_huge_summary_stops_under_githubs_limit_and_says_how_many_it_left_out():
    findings = [_finding("error", n, message="x" * 500) for n in range(5000)]

    summary = markdown_summary(findings, title="t")

    assert len(summary.encode("utf-8")) <= SUMMARY_LIMIT
    rows = [line for line in summary.splitlines() if line.startswith("| a.json")]
    assert 1000 < len(rows) < 5000
    assert summary.endswith(
        f"\n{5000 - len(rows)} more findings not listed: GitHub discards a step summary over 1 MiB.\n"
    )


def test_summary_appends_after_what_the_file_holds(run_cli, workspace):
    (workspace / "json-contracts").mkdir()
    (workspace / "json-contracts" / "broken.json").write_text(BROKEN, encoding="utf-8")
    summary = workspace / "summary.md"
    summary.write_text("# Earlier step\nkept", encoding="utf-8")

    first = run_cli("lint", "--summary", "summary.md")
    second = run_cli("validate", "--format", "github", "--summary", "summary.md")

    assert first.exit_code == 1
    assert second.exit_code == 0
    assert "Linted 1 contract(s)" in first.stdout  # text output as usual, summary besides
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# Earlier step\nkept\n### json-contracts lint (json-contracts): failed\n")
    assert "\n### json-contracts validate (json-contracts): passed\n" in text
    assert text.count("| json-contracts/broken.json:") == 4 + 0  # lint's rows; validate found nothing


def test_counts_append_in_github_output_format(run_cli, workspace):
    (workspace / "json-contracts").mkdir()
    (workspace / "json-contracts" / "broken.json").write_text(BROKEN, encoding="utf-8")
    output = workspace / "output"
    output.write_text("earlier=1\n", encoding="utf-8")

    result = run_cli("lint", "--format", "json", "--counts", "output")

    assert result.exit_code == 1
    assert json.loads(result.stdout)["counts"] == {"error": 1, "warning": 1, "info": 2}
    assert output.read_text(encoding="utf-8") == "earlier=1\nerrors=1\nwarnings=1\ninfo=2\n"


def test_check_writes_the_summary_and_counts_for_the_document(run_cli, good_folder, workspace):
    (workspace / "doc.json").write_text('{"summary": "Login broken"}', encoding="utf-8")

    result = run_cli("check", "support-ticket", "doc.json", "--summary", "s.md", "--counts", "c.txt")

    assert result.exit_code == 1
    summary = (workspace / "s.md").read_text(encoding="utf-8")
    assert summary.startswith("### json-contracts check support-ticket (doc.json): failed\n\n2 errors,")
    assert (
        "| doc.json:1:1 | JC301 required | error | /severity must have required property 'severity'. "
        "Add missing required field /severity. |\n"
    ) in summary
    assert (workspace / "c.txt").read_text(encoding="utf-8") == "errors=2\nwarnings=0\ninfo=0\n"


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--summary", "--counts"])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("missing/dir/file.md", "cannot write missing/dir/file.md: No such file or directory"),
        (".", "cannot write .: Is a directory"),
        ("", "needs a file path"),
    ],
)
def test_an_unwritable_report_file_is_a_one_line_usage_error(run_cli, good_folder, option, value, reason):
    result = run_cli("lint", option, value)

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"Error: Invalid value for '{option}': {reason}\n"


def test_an_unwritable_summary_is_refused_by_the_real_script_without_a_traceback(good_folder, workspace):
    completed = run_script("validate", "--format", "sarif", "--summary", "no/such/summary.md", cwd=workspace)

    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.splitlines() == [
        "Error: Invalid value for '--summary': cannot write no/such/summary.md: No such file or directory"
    ]


def test_init_has_no_sarif_output(run_cli, workspace):
    result = run_cli("init", "--format", "sarif")

    assert result.exit_code == 2
    assert result.stderr == "Error: init reports no findings; --format sarif is for validate, lint and check\n"
    assert not (workspace / "json-contracts").exists()
