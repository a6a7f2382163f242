"""The Markdown job summary: cell escaping, counts, one row per finding, and GitHub's size limit."""

from __future__ import annotations

import pytest

from json_contracts.reporting.markdown import SUMMARY_LIMIT, markdown_cell, markdown_summary
from tests.support.findings import numbered_finding


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
def test_a_markdown_cell_escapes_what_would_break_the_table_or_render(text: str, cell: str) -> None:
    assert markdown_cell(text) == cell


def test_the_summary_has_counts_and_one_row_per_finding_errors_first() -> None:
    findings = [
        numbered_finding("info", 0),
        numbered_finding("warning", 1, message="a | b\nc"),
        numbered_finding("error", 2),
        numbered_finding("error", 3, file="folder", line=0, column=0),
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


def test_a_summary_without_findings_says_so() -> None:
    summary = markdown_summary([], title="t", failed=False)

    assert summary == "### t: passed\n\n0 errors, 0 warnings, 0 info.\n\nNo findings.\n"


def test_a_huge_summary_stops_under_githubs_limit_and_says_how_many_it_left_out() -> None:
    findings = [numbered_finding("error", n, message="x" * 500) for n in range(5000)]

    summary = markdown_summary(findings, title="t")

    assert len(summary.encode("utf-8")) <= SUMMARY_LIMIT
    rows = [line for line in summary.splitlines() if line.startswith("| a.json")]
    assert 1000 < len(rows) < 5000
    assert summary.endswith(
        f"\n{5000 - len(rows)} more findings not listed: GitHub discards a step summary over 1 MiB.\n"
    )
