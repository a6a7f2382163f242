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
from json_contracts._json.text import dumps
from json_contracts.findings import Finding
from json_contracts.reporting.escaping import escape_json, escape_text, shown_name
from json_contracts.reporting.github import counts_text, github_annotations
from json_contracts.reporting.markdown import markdown_summary
from json_contracts.reporting.sarif import sarif_log
from json_contracts.reporting.text import finding_location, finding_message

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


def echo_json(data: Any) -> None:
    """Pretty JSON exactly as the TypeScript server prints it (``JSON.stringify(v, null, 2)``).

    Characters a terminal or a CI log would obey (bidi controls, C1, ``##[``) are written as
    ``\\u`` escapes (:func:`escape_json`): the same value, and nothing raw for a reader to act on.
    """
    click.echo(escape_json(dumps(data)))


def finding_line(finding: Finding) -> str:
    """``file:line:col: CODE severity message``, the severity coloured on a terminal; one line, escaped."""
    where = finding_location(finding)
    severity = click.style(finding.severity, fg=_COLOURS[finding.severity], bold=finding.severity == "error")
    return f"{where} {click.style(finding.code, bold=True)} {severity} {escape_text(finding_message(finding))}"


def echo_findings(findings: Iterable[Finding], *, err: bool = False) -> None:
    for finding in findings:
        click.echo(finding_line(finding), err=err)


def echo_github(findings: Iterable[Finding], *, summary: bool = False) -> None:
    """Print :func:`github_annotations` without colour: the runner parses these lines."""
    for line in github_annotations(findings, summary=summary):
        click.echo(line, color=False)


def _append(path: Path, text: str, *, blank_line: bool = False) -> None:
    """Append ``text``; with ``blank_line``, after an empty line if the file already has text."""
    try:
        # backslashreplace: a name that is not UTF-8 shows as an escape, never a crash after the run
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as handle:
            if blank_line and handle.tell() > 0:
                text = "\n" + text
            handle.write(text)
    except OSError as exc:
        raise click.UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc


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


def shown_path(path: Path) -> str:
    """A path as a command line would take it: relative to the working directory when inside it."""
    return shown_name(os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path))


def report_title(command: str, directory: Path) -> str:
    """``json-contracts lint (json-contracts)``: the heading of a command's job summary."""
    return f"json-contracts {command} ({shown_path(directory)})"
