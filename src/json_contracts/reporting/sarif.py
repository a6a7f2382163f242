"""Findings as a SARIF 2.1.0 log, for GitHub code scanning and other SARIF viewers.

Built by hand: no maintained Python SARIF builder exists, and the subset needed (one run, rule
metadata, results with a file region) is small. Every code of the catalogue
(:data:`~json_contracts.findings.CATALOGUE`) becomes a rule, so a viewer can explain a code even
when this run did not report it; a document error's JSON Schema keyword is a result property.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from json_contracts.findings import CATALOGUE, CodeInfo, Finding, Severity
from json_contracts.reporting.text import finding_message

__all__ = ["SARIF_SCHEMA", "SARIF_VERSION", "artifact_uri", "sarif_log"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"

# SARIF has no "info" level; "note" is its lowest.
_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}


def _rule(info: CodeInfo) -> dict[str, Any]:
    return {
        "id": str(info.code),
        "name": info.name,
        "shortDescription": {"text": info.summary},
        "defaultConfiguration": {"level": _LEVEL[info.severity]},
        "properties": {"tags": ["json-contracts"]},
    }


def artifact_uri(finding: Finding, root: Path) -> tuple[str, bool]:
    """The finding's file as a URI and whether it is relative to ``root`` (``%SRCROOT%``).

    Relative URIs let code scanning place results in the repository whatever the runner's
    checkout path; a file outside ``root`` keeps an absolute ``file:`` URI. The name's bytes are
    percent-encoded as they are on disk, so a name that is not UTF-8 (``bad%FF.json``) still
    names its file.
    """
    if finding.path is None:
        return quote(os.fsencode(finding.file.replace(os.sep, "/"))), True
    path = Path(os.path.abspath(finding.path))
    if path.is_relative_to(root):
        return quote(os.fsencode(path.relative_to(root).as_posix())), True
    return path.as_uri(), False


def _result(finding: Finding, rule_index: int, root: Path) -> dict[str, Any]:
    uri, relative = artifact_uri(finding, root)
    artifact: dict[str, Any] = {"uri": uri}
    if relative:
        artifact["uriBaseId"] = SRCROOT
    physical: dict[str, Any] = {"artifactLocation": artifact}
    if finding.line:
        physical["region"] = {"startLine": finding.line, "startColumn": max(finding.column, 1)}
    result: dict[str, Any] = {
        "ruleId": str(finding.code),
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": finding_message(finding)},
        "locations": [{"physicalLocation": physical}],
    }
    properties = {"pointer": finding.pointer, "keyword": finding.keyword}
    if any(properties.values()):
        result["properties"] = {key: value for key, value in properties.items() if value}
    return result


def sarif_log(
    findings: Iterable[Finding],
    *,
    tool_version: str,
    root: Path | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run: every code as a rule, one result per finding.

    ``root`` (default: the working directory) is the folder result URIs are relative to; on
    GitHub that is the checkout, so results land on the right file. Columns count code points,
    as every json-contracts position does. Every finding's code is in the catalogue, so every
    ``ruleIndex`` resolves to its rule.
    """
    root = Path(os.path.abspath(root or Path.cwd()))
    rules = [_rule(info) for info in CATALOGUE.values()]
    index = {info.code: i for i, info in enumerate(CATALOGUE.values())}
    results = [_result(finding, index[finding.code], root) for finding in findings]
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "json-contracts",
                        "version": tool_version,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
