"""Findings as GitHub sees them: workflow-command annotations and ``$GITHUB_OUTPUT`` counts.

GitHub shows at most 10 error and 10 warning annotations per step and drops the rest silently,
so errors come first and one notice says how many more there are (the job summary, built by
:mod:`json_contracts.reporting.markdown`, lists them all).
"""

from __future__ import annotations

from collections.abc import Iterable

from json_contracts.findings import Finding
from json_contracts.reporting.escaping import visible
from json_contracts.reporting.text import display_path, finding_message, rule_label, severity_counts, sort_findings

__all__ = ["ANNOTATION_LIMIT", "counts_text", "github_annotation", "github_annotations"]

#: GitHub shows at most 10 error and 10 warning annotations per step and drops the rest
#: silently; notices are capped the same way here, to be safe.
ANNOTATION_LIMIT = 10

_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    """A command's message: GitHub's escaping (``%``, CR, LF), every other control shown as an escape.

    Line breaks stay line breaks in the annotation, encoded so the command is one line. The rest
    can only be data once the runner has read ``::level …::``; ``##[`` is taken apart all the same,
    as in text, so no reading of the line finds a legacy command in it.
    """
    shown = visible(text, line_breaks=True).replace("##[", "##\\u005b")
    return shown.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A property's value: the message's escaping, plus ``:`` and ``,``, which end a property."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(finding: Finding) -> str:
    """One workflow command: ``::error file=…,line=…,col=…,title=CODE::message``."""
    fields: list[tuple[str, object]] = [("file", display_path(finding))]
    if finding.line:
        fields += [("line", finding.line), ("col", finding.column)]
    fields.append(("title", rule_label(finding)))
    props = ",".join(f"{key}={_escape_property(str(value))}" for key, value in fields)
    return f"::{_GITHUB_LEVEL[finding.severity]} {props}::{_escape_data(finding_message(finding))}"


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


def counts_text(findings: Iterable[Finding]) -> str:
    """``errors=N``, ``warnings=N``, ``info=N`` lines, the format ``$GITHUB_OUTPUT`` reads."""
    counts = severity_counts(findings)
    return f"errors={counts['error']}\nwarnings={counts['warning']}\ninfo={counts['info']}\n"
