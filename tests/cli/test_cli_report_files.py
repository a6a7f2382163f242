"""``--summary`` and ``--counts``: the job summary and the counts file the Action reads, and bad paths for them.

Run in the working folder with the starter contracts where a test asks for ``good_folder``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.action import run_script
from tests.support.cli import RunCli
from tests.support.samples import BROKEN


def test_summary_appends_after_what_the_file_holds(run_cli: RunCli, workspace: Path) -> None:
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


def test_counts_append_in_github_output_format(run_cli: RunCli, workspace: Path) -> None:
    (workspace / "json-contracts").mkdir()
    (workspace / "json-contracts" / "broken.json").write_text(BROKEN, encoding="utf-8")
    output = workspace / "output"
    output.write_text("earlier=1\n", encoding="utf-8")

    result = run_cli("lint", "--format", "json", "--counts", "output")

    assert result.exit_code == 1
    assert json.loads(result.stdout)["counts"] == {"error": 1, "warning": 1, "info": 2}
    assert output.read_text(encoding="utf-8") == "earlier=1\nerrors=1\nwarnings=1\ninfo=2\n"


def test_check_writes_the_summary_and_counts_for_the_document(
    run_cli: RunCli, good_folder: Path, workspace: Path
) -> None:
    (workspace / "doc.json").write_text('{"summary": "Login broken"}', encoding="utf-8")

    result = run_cli("check", "support-ticket", "doc.json", "--summary", "s.md", "--counts", "c.txt")

    assert result.exit_code == 1
    summary = (workspace / "s.md").read_text(encoding="utf-8")
    assert summary.startswith("### json-contracts check support-ticket (doc.json): failed\n\n2 errors,")
    assert (
        "| doc.json:1:1 | JC301 required | error | /severity must have required property 'severity'. "
        "Add missing required field /severity with one of: low, medium, high, critical. |\n"
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
def test_an_unwritable_report_file_is_a_one_line_usage_error(
    run_cli: RunCli, good_folder: Path, option: str, value: str, reason: str
) -> None:
    result = run_cli("lint", option, value)

    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"Error: Invalid value for '{option}': {reason}\n"


def test_an_unwritable_summary_is_refused_by_the_real_script_without_a_traceback(
    good_folder: Path, workspace: Path
) -> None:
    completed = run_script("validate", "--format", "sarif", "--summary", "no/such/summary.md", cwd=workspace)

    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.splitlines() == [
        "Error: Invalid value for '--summary': cannot write no/such/summary.md: No such file or directory"
    ]


def test_init_has_no_sarif_output(run_cli: RunCli, workspace: Path) -> None:
    result = run_cli("init", "--format", "sarif")

    assert result.exit_code == 2
    assert result.stderr == "Error: Invalid value for '--format': 'sarif' is not one of 'text', 'json'.\n"
    assert not (workspace / "json-contracts").exists()
