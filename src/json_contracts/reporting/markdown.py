"""The job summary: a markdown table of every finding, for ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from json_contracts.findings import SEVERITY_RANK, Finding
from json_contracts.reporting.escaping import visible
from json_contracts.reporting.text import display_path, finding_message, rule_label, severity_counts, sort_findings

__all__ = ["SUMMARY_LIMIT", "markdown_cell", "markdown_summary"]

#: GitHub drops a step summary larger than 1 MiB whole, so the table stops short of that.
SUMMARY_LIMIT = 1_000_000
#: Characters with a meaning in GitHub markdown inline text or tables (``$`` opens math); each gets a
#: backslash. So does the ``:`` of ``scheme://`` and the ``.`` of ``www.``, which GitHub would
#: otherwise turn into links of their own.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&$])|(?<=[A-Za-z])(:)(?=//)|(?<![A-Za-z0-9])((?i:www))(\.)")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def _escape_markdown(match: re.Match[str]) -> str:
    special, colon, www, dot = match.groups()
    return f"{www}\\{dot}" if www else f"\\{special or colon}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 or word == "info" else f"{count} {word}s"


def markdown_cell(text: str) -> str:
    """Text that stays one literal table cell in GitHub markdown.

    Markdown punctuation (``|`` above all, which would end the cell) is backslash-escaped,
    backslashes included so an escape is never undone, and line breaks become ``<br>``. So no
    contract text can render a link, an image, HTML or math; other controls show as escapes.
    """
    return "<br>".join(_MARKDOWN_SPECIAL.sub(_escape_markdown, visible(line)) for line in _NEWLINES.split(text))


def markdown_summary(
    findings: Iterable[Finding],
    *,
    title: str,
    failed: bool | None = None,
    cwd: Path | None = None,
    limit: int = SUMMARY_LIMIT,
) -> str:
    """A job summary: a heading, the counts and a table of every finding (file:line:col, code, severity, message).

    Rows go errors first, then warnings, then info, each in file and position order.

    GitHub shows only 10 error and 10 warning annotations per step; this table is where the
    rest are read. Rows stop before the text would pass ``limit`` bytes (GitHub discards a
    larger summary entirely) and a last line says how many were left out.
    """
    ordered = sorted(sort_findings(findings), key=lambda f: SEVERITY_RANK[f.severity])  # errors first, as annotated
    counts = severity_counts(ordered)
    status = "" if failed is None else (": failed" if failed else ": passed")
    head = [
        f"### {markdown_cell(title)}{status}",
        "",
        f"{_plural(counts['error'], 'error')}, {_plural(counts['warning'], 'warning')}, "
        f"{_plural(counts['info'], 'info')}.",
        "",
    ]
    if not ordered:
        return "\n".join([*head, "No findings."]) + "\n"
    lines = [*head, "| where | code | severity | message |", "| --- | --- | --- | --- |"]
    size = len("\n".join(lines).encode("utf-8"))
    footer_room = 200
    for shown, finding in enumerate(ordered):
        where = display_path(finding, cwd) + (f":{finding.line}:{finding.column}" if finding.line else "")
        row = (
            f"| {markdown_cell(where)} | {markdown_cell(rule_label(finding))} | {finding.severity} "
            f"| {markdown_cell(finding_message(finding))} |"
        )
        size += len(row.encode("utf-8")) + 1
        if size + footer_room > limit:
            left = len(ordered) - shown
            lines += ["", f"{_plural(left, 'more finding')} not listed: GitHub discards a step summary over 1 MiB."]
            break
        lines.append(row)
    return "\n".join(lines) + "\n"
