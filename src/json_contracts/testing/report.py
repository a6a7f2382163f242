"""The ``json-contracts test`` report as data: what ``--json`` prints and what CI renders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.findings import Finding
from json_contracts.reporting.reports import finding_dict
from json_contracts.reporting.text import display_path
from json_contracts.testing.checks import CheckResult

__all__ = ["check_report", "result_findings"]

_PLACED = ("failed", "inconclusive")  # outcomes that point at a place in the file to look at


def result_findings(result: LoadResult, checks: Iterable[CheckResult]) -> list[Finding]:
    """Load failures, then one finding per failed check (an error) or inconclusive one (a warning),
    at its place in the contract file."""
    findings = list(result.failures)
    for check in checks:
        if check.outcome in ("failed", "inconclusive"):
            findings.append(check.finding(result.contracts[check.contract]))
    return findings


def _result_dict(check: CheckResult, contract: Contract) -> dict[str, Any]:
    finding = check.finding(contract)
    entry: dict[str, Any] = {
        "contract": check.contract,
        "check": check.check,
        "outcome": check.outcome,
        "message": check.message,
        "code": check.code,
        "file": display_path(finding),
        "line": finding.line if check.outcome in _PLACED else None,
        "column": finding.column if check.outcome in _PLACED else None,
        "pointer": check.pointer,
        "examples": check.examples,
    }
    if check.rejected_share is not None:
        entry["rejectedShare"] = round(check.rejected_share, 4)
    if check.details:
        entry["details"] = list(check.details)
    return entry


def check_report(
    result: LoadResult, checks: list[CheckResult], *, seed: int | None, derandomized: bool
) -> dict[str, Any]:
    """``{ok, seed, derandomized, counts, results, loadFailures}``; ``ok`` only when nothing failed
    (an inconclusive check, like a skipped one, does not fail the run; it is reported as a warning)."""
    counts = Counter(check.outcome for check in checks)
    return {
        "ok": not result.failures and counts["failed"] == 0,
        "contractsDir": str(result.directory),
        "seed": seed,
        "derandomized": derandomized,
        "counts": {"passed": counts["passed"], "failed": counts["failed"], "skipped": counts["skipped"]}
        | ({"inconclusive": counts["inconclusive"]} if counts["inconclusive"] else {}),
        "results": [_result_dict(check, result.contracts[check.contract]) for check in checks],
        "loadFailures": [finding_dict(f) for f in result.failures],
    }
