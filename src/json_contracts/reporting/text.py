"""Findings as text for people: ``file:line:col: CODE severity message``, in a stable order.

The CLI adds colour on a terminal; the pytest plugin and every other adapter use these lines as
they are. The file and the message are contract text, so the line shows them escaped
(:func:`~json_contracts.reporting.escaping.escape_text`): one line, whatever they hold.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from json_contracts.findings import SEVERITY_RANK, Finding
from json_contracts.reporting.escaping import escape_text, shown_name

__all__ = [
    "display_path",
    "finding_location",
    "finding_message",
    "finding_text",
    "rule_label",
    "severity_counts",
    "sort_findings",
]


def display_path(finding: Finding, cwd: Path | None = None) -> str:
    """The file as a user should see it: relative to the working directory when inside it.

    A name that is not UTF-8 shows its bytes as ``\\xNN`` (:func:`shown_name`), so it can be
    printed and written anywhere; the rest is the name as it is, for each medium to escape.
    """
    if finding.path is None:
        return shown_name(finding.file)
    cwd = cwd or Path.cwd()
    try:
        shown = os.path.relpath(finding.path, cwd) if finding.path.is_relative_to(cwd) else str(finding.path)
    except ValueError:
        shown = str(finding.path)
    return shown_name(shown)


def finding_location(finding: Finding, cwd: Path | None = None) -> str:
    """``file:line:col:`` (just ``file:`` for a folder), the prefix editors and terminals link; the file escaped."""
    where = f"{escape_text(display_path(finding, cwd))}:"
    return where + f"{finding.line}:{finding.column}:" if finding.line else where


def rule_label(finding: Finding) -> str:
    """The rule as a title names it: the code, then the JSON Schema keyword for a document error."""
    return f"{finding.code} {finding.keyword}" if finding.keyword else str(finding.code)


def finding_message(finding: Finding) -> str:
    """The message people read: the finding's message, then its hint (what to do) when it has one.

    The text as it is: each medium escapes it (text lines, annotations, the summary), and JSON
    and SARIF carry it unchanged.

    After a full sentence the hint starts a sentence of its own; otherwise it continues the
    message after a semicolon, as the lint messages that carry their fix do.
    """
    if not finding.hint:
        return finding.message
    if finding.message.endswith((".", "!", "?")):
        return f"{finding.message} {finding.hint[:1].upper()}{finding.hint[1:]}"
    return f"{finding.message}; {finding.hint}"


def finding_text(finding: Finding, cwd: Path | None = None) -> str:
    """``file:line:col: CODE severity message`` without colour (the CLI's line, for other adapters), on one line."""
    return f"{finding_location(finding, cwd)} {finding.code} {finding.severity} {escape_text(finding_message(finding))}"


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Stable order for people: by file, then position, then severity."""
    return sorted(findings, key=lambda f: (str(f.path or f.file), f.line, f.column, SEVERITY_RANK[f.severity]))


def severity_counts(findings: Iterable[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        counts[finding.severity] += 1
    return counts
