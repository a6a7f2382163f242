"""Reports as JSON-ready dicts, shared by every adapter (CLI ``--json``, MCP, Action summary).

Shapes keep the original's fields (REFERENCE §11.1-11.2) and add ``findings``: one entry per
finding with code, severity, file, line and column.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from json_contracts.model import SEVERITY_RANK, Finding, LoadResult

__all__ = [
    "SUMMARY_LIMIT",
    "display_path",
    "finding_dict",
    "finding_location",
    "finding_text",
    "lint_report",
    "markdown_cell",
    "markdown_summary",
    "severity_counts",
    "sort_findings",
    "validate_report",
]

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")

#: GitHub drops a step summary larger than 1 MiB whole, so the table stops short of that.
SUMMARY_LIMIT = 1_000_000
#: Characters with a meaning in GitHub markdown inline text or tables; each gets a backslash.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
_NEWLINES = re.compile(r"\r\n|\r|\n")


def display_path(finding: Finding, cwd: Path | None = None) -> str:
    """The file as a user should see it: relative to the working directory when inside it."""
    if finding.path is None:
        return finding.file
    cwd = cwd or Path.cwd()
    try:
        return os.path.relpath(finding.path, cwd) if finding.path.is_relative_to(cwd) else str(finding.path)
    except ValueError:
        return str(finding.path)


def finding_location(finding: Finding, cwd: Path | None = None) -> str:
    """``file:line:col:`` (just ``file:`` for a folder), the prefix editors and terminals link."""
    where = f"{display_path(finding, cwd)}:"
    return where + f"{finding.line}:{finding.column}:" if finding.line else where


def finding_text(finding: Finding, cwd: Path | None = None) -> str:
    """``file:line:col: CODE severity message`` without colour (the CLI's line, for other adapters)."""
    return f"{finding_location(finding, cwd)} {finding.code} {finding.severity} {finding.message}"


def json_path(pointer: str) -> str:
    """``/schema/properties/a-b`` -> ``$.schema.properties["a-b"]`` (the original's path style)."""
    text = "$"
    for raw in pointer.split("/")[1:] if pointer else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if part.isdigit():
            text += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            text += f".{part}"
        else:
            text += "[" + json.dumps(part, ensure_ascii=False) + "]"
    return text


def finding_dict(finding: Finding, cwd: Path | None = None) -> dict[str, Any]:
    """One finding as JSON."""
    return {
        "code": finding.code,
        "severity": finding.severity,
        "message": finding.message,
        "file": display_path(finding, cwd),
        "line": finding.line or None,
        "column": finding.column or None,
        "pointer": finding.pointer,
        "contract": finding.contract,
    }


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Stable order for people: by file, then position, then severity."""
    return sorted(findings, key=lambda f: (str(f.path or f.file), f.line, f.column, SEVERITY_RANK[f.severity]))


def severity_counts(findings: Iterable[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        counts[finding.severity] += 1
    return counts


def validate_report(result: LoadResult, cwd: Path | None = None) -> dict[str, Any]:
    """``validate --json``: the original's success or failure shape plus ``findings``."""
    findings = [finding_dict(f, cwd) for f in sort_findings(result.failures + result.warnings)]
    if result.ok:
        return {
            "valid": True,
            "contractsDir": str(result.directory),
            "loaded": len(result.contracts),
            "contracts": [c.summary() for c in result.sorted_contracts()],
            "findings": findings,
        }
    errors = [result.failure_message()] + [f"- {f.file}: {f.message}" for f in result.failures]
    if any(f.code == "JC003" for f in result.failures):
        errors = [f.message for f in result.failures]
    return {"valid": False, "contractsDir": str(result.directory), "errors": errors, "findings": findings}


def lint_report(
    result: LoadResult, lint_findings: list[Finding], *, strict: bool, cwd: Path | None = None
) -> dict[str, Any]:
    """``lint --json``: the original's fields plus ``findings`` and ``counts``.

    ``lint_findings`` is :func:`~json_contracts.lint.lint_result`'s list (load warnings
    included); ``warnings`` keeps the original's ``{contract, path, message}`` items for every
    error and warning about a contract.
    """
    if not result.ok:
        return validate_report(result, cwd)
    counts = severity_counts(lint_findings)
    failing = counts["error"] + (counts["warning"] if strict else 0)
    warnings = [
        {"contract": f.contract, "path": f.lint_path or json_path(f.pointer), "message": f.message}
        for f in lint_findings
        if f.severity != "info" and f.contract is not None
    ]
    return {
        "valid": True,
        "ok": failing == 0,
        "strict": strict,
        "contractsDir": str(result.directory),
        "loaded": len(result.contracts),
        "warnings": warnings,
        "findings": [finding_dict(f, cwd) for f in sort_findings(lint_findings)],
        "counts": counts,
    }


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 or word == "info" else f"{count} {word}s"


def markdown_cell(text: str) -> str:
    """Text that stays one literal table cell in GitHub markdown.

    Markdown punctuation (``|`` above all, which would end the cell) is backslash-escaped,
    backslashes included so an escape is never undone, and line breaks become ``<br>``.
    """
    return "<br>".join(_MARKDOWN_SPECIAL.sub(r"\\\1", line) for line in _NEWLINES.split(text))


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
            f"| {markdown_cell(where)} | {markdown_cell(finding.code)} | {finding.severity} "
            f"| {markdown_cell(finding.message)} |"
        )
        size += len(row.encode("utf-8")) + 1
        if size + footer_room > limit:
            left = len(ordered) - shown
            lines += ["", f"{_plural(left, 'more finding')} not listed: GitHub discards a step summary over 1 MiB."]
            break
        lines.append(row)
    return "\n".join(lines) + "\n"
