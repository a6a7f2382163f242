"""Rendering findings and reports for people (text), programs (JSON), GitHub (annotations) and SARIF.

:func:`emit` is the one call every findings command makes for the outputs they share: the
``github`` and ``sarif`` formats, ``--summary`` and ``--counts``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import click

import json_contracts
from json_contracts.jstext import dumps
from json_contracts.model import Finding
from json_contracts.reports import display_path, finding_location, markdown_summary, severity_counts, sort_findings
from json_contracts.sarif import sarif_log

#: GitHub shows at most 10 error and 10 warning annotations per step and drops the rest
#: silently; notices are capped the same way here, to be safe.
ANNOTATION_LIMIT = 10

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}
_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def echo_json(data: Any) -> None:
    """Pretty JSON exactly as the original prints it (``JSON.stringify(v, null, 2)``)."""
    click.echo(dumps(data))


def finding_line(finding: Finding) -> str:
    """``file:line:col: CODE severity message``, the severity coloured on a terminal."""
    where = finding_location(finding)
    severity = click.style(finding.severity, fg=_COLOURS[finding.severity], bold=finding.severity == "error")
    return f"{where} {click.style(finding.code, bold=True)} {severity} {finding.message}"


def echo_findings(findings: Iterable[Finding], *, err: bool = False) -> None:
    for finding in findings:
        click.echo(finding_line(finding), err=err)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(finding: Finding) -> str:
    """One workflow command: ``::error file=…,line=…,col=…,title=CODE::message``."""
    fields: list[tuple[str, object]] = [("file", display_path(finding))]
    if finding.line:
        fields += [("line", finding.line), ("col", finding.column)]
    fields.append(("title", finding.code))
    props = ",".join(f"{key}={_escape_property(str(value))}" for key, value in fields)
    return f"::{_GITHUB_LEVEL[finding.severity]} {props}::{_escape_data(finding.message)}"


def github_annotations(findings: Iterable[Finding], *, summary: bool = False) -> list[str]:
    """Workflow commands within GitHub's per-step caps: errors first, then warnings, then notices.

    When findings exceed a cap, the last line is one ``::notice`` saying how many were not
    shown and where to read them (the job summary when ``summary`` is true).
    """
    by_severity: dict[str, list[Finding]] = {"error": [], "warning": [], "info": []}
    for finding in sort_findings(findings):
        by_severity[finding.severity].append(finding)
    errors, warnings, infos = by_severity["error"], by_severity["warning"], by_severity["info"]
    overflow = len(errors) > ANNOTATION_LIMIT or len(warnings) > ANNOTATION_LIMIT or len(infos) > ANNOTATION_LIMIT
    info_limit = ANNOTATION_LIMIT - 1 if overflow else ANNOTATION_LIMIT  # the overflow notice takes a slot
    shown = errors[:ANNOTATION_LIMIT] + warnings[:ANNOTATION_LIMIT] + infos[:info_limit]
    lines = [github_annotation(finding) for finding in shown]
    hidden = len(errors) + len(warnings) + len(infos) - len(shown)
    if hidden:
        where = (
            "the job summary lists them all"
            if summary
            else "run json-contracts with --format text, or pass --summary FILE, to list them all"
        )
        message = (
            f"{hidden} more finding(s) not shown as annotations (GitHub shows {ANNOTATION_LIMIT} errors and "
            f"{ANNOTATION_LIMIT} warnings per step); {where}."
        )
        lines.append(f"::notice title={_escape_property('json-contracts')}::{_escape_data(message)}")
    return lines


def echo_github(findings: Iterable[Finding], *, summary: bool = False) -> None:
    """Print :func:`github_annotations` without colour: the runner parses these lines."""
    for line in github_annotations(findings, summary=summary):
        click.echo(line, color=False)


def _append(path: Path, text: str, *, blank_line: bool = False) -> None:
    """Append ``text``; with ``blank_line``, after an empty line if the file already has text."""
    try:
        with open(path, "a", encoding="utf-8") as handle:
            if blank_line and handle.tell() > 0:
                text = "\n" + text
            handle.write(text)
    except OSError as exc:
        raise click.UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


def counts_text(findings: Iterable[Finding]) -> str:
    """``errors=N``, ``warnings=N``, ``info=N`` lines, the format ``$GITHUB_OUTPUT`` reads."""
    counts = severity_counts(findings)
    return f"errors={counts['error']}\nwarnings={counts['warning']}\ninfo={counts['info']}\n"


def emit(
    findings: Sequence[Finding],
    fmt: str,
    *,
    title: str,
    failed: bool,
    summary: Path | None = None,
    counts: Path | None = None,
) -> None:
    """Render what every findings command shares; text and json stay with the command.

    Prints the ``github`` annotations or the ``sarif`` log when ``fmt`` is one of those (and
    nothing for ``text`` or ``json``), then appends the markdown summary (headed ``title``,
    marked failed or passed) to ``summary`` and the counts to ``counts`` when given.

    Raises:
        click.UsageError: a summary or counts file cannot be written.
    """
    if fmt == "github":
        echo_github(findings, summary=summary is not None)
    elif fmt == "sarif":
        echo_json(sarif_log(findings, tool_version=json_contracts.__version__))
    if summary is not None:
        _append(summary, markdown_summary(findings, title=title, failed=failed), blank_line=True)
    if counts is not None:
        _append(counts, counts_text(findings))


def report_title(command: str, directory: Path) -> str:
    """``json-contracts lint (json-contracts)``: the heading of a command's job summary."""
    shown = os.path.relpath(directory) if directory.is_relative_to(Path.cwd()) else str(directory)
    return f"json-contracts {command} ({shown})"
