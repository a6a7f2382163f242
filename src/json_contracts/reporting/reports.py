"""Reports as JSON-ready dicts: what ``validate --json`` and ``lint --json`` print.

The shapes keep the TypeScript server's fields (``valid``, ``contractsDir``, ``loaded``,
``contracts``, ``errors``, ``warnings``) and add ``findings``: one entry per finding with code,
severity, file, line and column. Each report has a contract in this project's ``json-contracts/``
folder that describes it (``docs/reference/outputs.md``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from json_contracts._json.pointers import json_path, pointer_parts
from json_contracts.contracts.model import LoadResult
from json_contracts.findings import Code, Finding
from json_contracts.reporting.escaping import shown_name
from json_contracts.reporting.text import display_path, severity_counts, sort_findings

__all__ = ["finding_dict", "lint_report", "validate_report"]


def _pointer_path(pointer: str) -> str:
    """``/schema/properties/a-b`` -> ``$.schema.properties["a-b"]``; digit segments are written as they
    stand, in brackets (``/examples/01`` -> ``$.examples[01]``), as this path has always shown them."""
    parts = pointer_parts(pointer)
    return "$" + "".join(f"[{s}]" if s.isascii() and s.isdigit() else json_path([s], root="") for s in parts)


def finding_dict(finding: Finding, cwd: Path | None = None) -> dict[str, Any]:
    """One finding as JSON."""
    item: dict[str, Any] = {
        "code": finding.code,
        "severity": finding.severity,
        "message": finding.message,
        "file": display_path(finding, cwd),
        "line": finding.line or None,
        "column": finding.column or None,
        "pointer": finding.pointer,
        "contract": finding.contract,
    }
    if finding.hint:
        item["hint"] = finding.hint
    return item


def validate_report(result: LoadResult, cwd: Path | None = None) -> dict[str, Any]:
    """``validate --json``: the TypeScript server's success or failure shape plus ``findings``."""
    findings = [finding_dict(f, cwd) for f in sort_findings(result.failures + result.warnings)]
    if result.ok:
        return {
            "valid": True,
            "contractsDir": shown_name(str(result.directory)),
            "loaded": len(result.contracts),
            "contracts": [c.summary() for c in result.sorted_contracts()],
            "findings": findings,
        }
    errors = [result.failure_message()] + [f"- {f.file}: {f.message}" for f in result.failures]
    if any(f.code == Code.UNREADABLE_DIRECTORY for f in result.failures):
        errors = [f.message for f in result.failures]
    return {"valid": False, "contractsDir": shown_name(str(result.directory)), "errors": errors, "findings": findings}


def lint_report(
    result: LoadResult, lint_findings: list[Finding], *, strict: bool, cwd: Path | None = None
) -> dict[str, Any]:
    """``lint --json``: the TypeScript server's fields plus ``findings`` and ``counts``.

    ``lint_findings`` is :func:`~json_contracts.lint.lint_result`'s list (load warnings
    included); ``warnings`` keeps the TypeScript server's ``{contract, path, message}`` items for every
    error and warning about a contract. When files do not load, the report starts with
    ``validate --json``'s failure fields (``valid: false``, ``contractsDir``, ``errors``), then
    has the same fields for the contracts that did load, their failures among the findings and
    counted, and ``notLinted``: one ``{file, code}`` per file that did not load. A file whose only
    failure is an example output (``result.schema_checked``) was linted by the rules that read the
    schema alone, so its entry adds ``schemaLinted: true``: its schema findings are in the report,
    its examples were not linted.
    """
    findings = sort_findings(result.failures + lint_findings)
    counts = severity_counts(findings)
    failing = counts["error"] + (counts["warning"] if strict else 0)
    warnings = [
        {"contract": f.contract, "path": f.lint_path or _pointer_path(f.pointer), "message": f.message}
        for f in lint_findings
        if f.severity != "info" and f.contract is not None
    ]
    linted: dict[str, Any] = {
        "ok": failing == 0,
        "strict": strict,
        "contractsDir": shown_name(str(result.directory)),
        "loaded": len(result.contracts),
        "warnings": warnings,
        "findings": [finding_dict(f, cwd) for f in findings],
        "counts": counts,
    }
    if result.ok:
        return {"valid": True, **linted}
    failed = validate_report(result, cwd)
    not_linted = [_not_linted(f, result, cwd) for f in sort_findings(result.failures)]
    return {"valid": False, "contractsDir": failed["contractsDir"], "errors": failed["errors"], **linted,
            "notLinted": not_linted}  # fmt: skip


def _not_linted(failure: Finding, result: LoadResult, cwd: Path | None) -> dict[str, Any]:
    """A ``notLinted`` entry: the file and its load error, and whether its schema was linted anyway."""
    entry: dict[str, Any] = {"file": display_path(failure, cwd), "code": failure.code}
    if failure.contract is not None and failure.contract in result.schema_checked:
        entry["schemaLinted"] = True
    return entry
