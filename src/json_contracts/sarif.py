"""Findings as a SARIF 2.1.0 log, for GitHub code scanning and other SARIF viewers.

Built by hand: no maintained Python SARIF builder exists, and the subset needed (one run, rule
metadata, results with a file region) is small. Every code in :data:`~json_contracts.codes.CODES`
becomes a rule, so a viewer can explain a code even when this run did not report it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from json_contracts.codes import CODES, Code
from json_contracts.model import Finding, Severity

__all__ = ["SARIF_SCHEMA", "SARIF_VERSION", "artifact_uri", "sarif_log"]

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"

# SARIF has no "info" level; "note" is its lowest.
_LEVEL: dict[Severity, str] = {"error": "error", "warning": "warning", "info": "note"}


def _rule(code: Code) -> dict[str, Any]:
    return {
        "id": code.code,
        "name": code.name,
        "shortDescription": {"text": code.summary},
        "defaultConfiguration": {"level": _LEVEL[code.severity]},
        "properties": {"tags": ["json-contracts"]},
    }


def _keyword_rule(keyword: str) -> dict[str, Any]:
    """A rule for a code outside the catalogue: ``check`` reports the JSON Schema keyword that failed."""
    return {
        "id": keyword,
        "name": f"schema-keyword-{keyword}",
        "shortDescription": {"text": f"The document does not satisfy the JSON Schema keyword {keyword}."},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["json-contracts", "json-schema"]},
    }


def artifact_uri(finding: Finding, root: Path) -> tuple[str, bool]:
    """The finding's file as a URI and whether it is relative to ``root`` (``%SRCROOT%``).

    Relative URIs let code scanning place results in the repository whatever the runner's
    checkout path; a file outside ``root`` keeps an absolute ``file:`` URI.
    """
    if finding.path is None:
        return quote(finding.file.replace(os.sep, "/")), True
    path = Path(os.path.abspath(finding.path))
    if path.is_relative_to(root):
        return quote(path.relative_to(root).as_posix()), True
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
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[finding.severity],
        "message": {"text": finding.message},
        "locations": [{"physicalLocation": physical}],
    }
    if finding.pointer:
        result["properties"] = {"pointer": finding.pointer}
    return result


def sarif_log(
    findings: Iterable[Finding],
    *,
    tool_version: str,
    root: Path | None = None,
    codes: Mapping[str, Code] = CODES,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run: every code as a rule, one result per finding.

    ``root`` (default: the working directory) is the folder result URIs are relative to; on
    GitHub that is the checkout, so results land on the right file. Columns count code points,
    as every json-contracts position does. Codes not in ``codes`` (``check`` reports JSON
    Schema keywords) get a rule of their own, so every ``ruleIndex`` resolves.
    """
    root = Path(os.path.abspath(root or Path.cwd()))
    rules = [_rule(code) for code in codes.values()]
    index = {rule["id"]: i for i, rule in enumerate(rules)}
    results = []
    for finding in findings:
        if finding.code not in index:
            index[finding.code] = len(rules)
            rules.append(_keyword_rule(finding.code))
        results.append(_result(finding, index[finding.code], root))
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
