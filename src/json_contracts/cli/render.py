"""Rendering findings and reports for people (text), programs (JSON) and GitHub (annotations)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import click

from json_contracts.jstext import dumps
from json_contracts.model import Finding
from json_contracts.reports import display_path, finding_location

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


def echo_github(findings: Iterable[Finding]) -> None:
    for finding in findings:
        click.echo(github_annotation(finding), color=False)
