"""A comparison as findings (for text, GitHub annotations and SARIF), as JSON, and as a job summary.

Severity follows the mode: a change that breaks a direction the contract's mode keeps is an
**error** when a witness (or the change itself, for a removed contract) proves it, and a
**warning** saying how many documents the search tried when none did; a change in a direction the
mode does not keep, and every informational change, is **info**. Findings point at the change in
the new file (line and column), or at where a removed contract's file was.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from json_contracts._json.text import dumps
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.evolution.model import Change, ContractDiff, Mode, directions_of
from json_contracts.findings import Code, Finding, Severity
from json_contracts.reporting.markdown import markdown_cell
from json_contracts.reporting.reports import finding_dict
from json_contracts.reporting.text import display_path, severity_counts, sort_findings

__all__ = ["DiffRun", "change_finding", "diff_report", "diff_summary"]

#: How to make each kind of change without breaking anyone: the hint of a breaking finding.
_SAFELY: dict[Code, str] = {
    Code.REQUIRED_ADDED: "add the field as optional first, and make it required once every producer sends it",
    Code.REQUIRED_REMOVED: "keep it required until every consumer copes without it",
    Code.PROPERTY_REMOVED: "stop producing the field first; remove it once no stored document has it",
    Code.PROPERTY_ADDED: "tell consumers about the new field before producers send it",
    Code.TYPE_NARROWED: "accept both types for a release, and narrow once no producer sends the old one",
    Code.TYPE_WIDENED: "make consumers handle the new type first",
    Code.ENUM_VALUE_REMOVED: "stop producing the value first; remove it once no stored document uses it",
    Code.ENUM_VALUE_ADDED: "make consumers handle the new value before producers send it",
    Code.BOUND_TIGHTENED: "tighten in steps, after checking that no stored document is past the new bound",
    Code.BOUND_LOOSENED: "make consumers handle the larger range first",
    Code.ADDITIONAL_PROPERTIES_CLOSED: "list every field producers send in properties before closing the object",
    Code.CONTRACT_REMOVED: "keep the contract until no agent or app asks for it",
    Code.CONTRACT_RENAMED: "keep the old name as a copy until every caller uses the new one",
    Code.OLD_EXAMPLE_REJECTED: "if the old shape is still produced or stored, widen the schema",
}


@dataclass
class DiffRun:
    """A whole comparison: the two folders and one :class:`ContractDiff` per contract."""

    old: LoadResult
    new: LoadResult
    base: str  # the old version's label: a revision (HEAD~1:json-contracts) or a folder
    mode: Mode
    diffs: list[ContractDiff] = field(default_factory=list)

    def findings(self) -> list[Finding]:
        """The new folder's load problems, the old folder's as warnings, then every change."""
        findings = list(self.new.failures) + list(self.new.warnings)
        for failure in self.old.failures:
            message = f"{failure.message} (in the base {self.base}; this contract was not compared)"
            findings.append(
                Finding(code=failure.code, severity="warning", message=message, file=failure.file, line=0, column=0)
            )
        for diff in self.diffs:
            findings += [change_finding(diff, change, self.new.directory) for change in diff.changes]
        return sort_findings(findings)

    @property
    def ok(self) -> bool:
        return self.new.ok and not any(diff.verdict == "breaking" for diff in self.diffs)


def _severity(diff: ContractDiff, change: Change) -> Severity:
    if change.direction is None or change.direction not in directions_of(diff.mode):
        return "info"
    return "error" if change.confirmed else "warning"


def _contract(diff: ContractDiff) -> Contract:
    contract = diff.new or diff.old
    assert contract is not None
    return contract


def change_finding(diff: ContractDiff, change: Change, folder: Path) -> Finding:
    """One change as a finding in the new file (or where a removed contract's file was)."""
    severity = _severity(diff, change)
    message = change.message
    if severity == "warning":
        message += f"; no witness found in {change.tried} document(s), so it may not break anyone"
    elif change.witness is not None and severity == "error":
        message += f"; witness: {dumps(change.witness.document, indent=None)[:200]}"
    hint = _SAFELY.get(change.code) if severity == "error" else None
    if diff.new is not None and diff.new.source is not None:
        source = diff.new.source
        pointer = change.new_pointer or ""
        try:
            line, column = source.position(pointer)
        except (KeyError, ValueError, IndexError):
            line, column = 1, 1
        path: Path = source.path
    else:
        path, pointer, line, column = folder / f"{diff.name}.json", "", 0, 0
    return Finding(
        code=change.code,
        severity=severity,
        message=message,
        file=path.name,
        path=path,
        pointer=pointer,
        line=line,
        column=column,
        contract=diff.name,
        hint=hint,
    )


def _hashes(contract: Contract | None) -> dict[str, str] | None:
    if contract is None:
        return None
    return {"contractHash": contract.contract_hash, "schemaHash": contract.schema_hash}


def _change_dict(diff: ContractDiff, change: Change, folder: Path, cwd: Path | None) -> dict[str, Any]:
    finding = change_finding(diff, change, folder)
    item: dict[str, Any] = {
        "code": change.code,
        "direction": change.direction,
        "severity": finding.severity,
        "message": change.message,
        "oldPointer": change.old_pointer,
        "newPointer": change.new_pointer,
        "file": display_path(finding, cwd),
        "line": finding.line or None,
        "column": finding.column or None,
        "confirmed": change.confirmed,
        "tried": change.tried,
        "witness": None,
    }
    if change.witness is not None:
        item["witness"] = {
            "document": change.witness.document,
            "acceptedBy": change.witness.source,
            "errors": change.witness.errors,
        }
    return item


def diff_report(run: DiffRun, cwd: Path | None = None) -> dict[str, Any]:
    """``diff --json``: every contract that changed, its verdict and changes with witnesses, then findings."""
    findings = run.findings()
    contracts = []
    for diff in run.diffs:
        if diff.verdict == "unchanged":
            continue
        contracts.append(
            {
                "name": diff.name,
                "status": diff.status,
                "renamedFrom": diff.renamed_from,
                "mode": diff.mode,
                "verdict": diff.verdict,
                "old": _hashes(diff.old),
                "new": _hashes(diff.new),
                "changes": [_change_dict(diff, c, run.new.directory, cwd) for c in diff.changes],
            }
        )
    return {
        "ok": run.ok,
        "base": run.base,
        "contractsDir": str(run.new.directory),
        "mode": run.mode,
        "unchanged": sum(diff.verdict == "unchanged" for diff in run.diffs),
        "contracts": contracts,
        "findings": [finding_dict(f, cwd) for f in findings],
        "counts": severity_counts(findings),
    }


def _short(contract: Contract | None) -> str:
    return contract.schema_hash.removeprefix("sha256:")[:12] if contract is not None else "—"


def diff_summary(run: DiffRun, title: str) -> str:
    """The job summary: a verdict line, then one row per contract that changed (old → new, mode, verdict, witnesses)."""
    changed = [diff for diff in run.diffs if diff.verdict != "unchanged"]
    breaking = sum(diff.verdict == "breaking" for diff in changed)
    state = "failed" if not run.ok else "passed"
    lines = [f"### {title}: {state}", ""]
    lines.append(
        f"{len(changed)} contract(s) changed against {markdown_cell(run.base)}, {breaking} breaking; "
        f"{len(run.diffs) - len(changed)} unchanged."
    )
    if changed:
        lines += [
            "",
            "| contract | schema old → new | mode | verdict | changes | witnesses |",
            "|---|---|---|---|---|---|",
        ]
        for diff in changed:
            witnesses = sum(c.witness is not None for c in diff.changes)
            lines.append(
                f"| {markdown_cell(diff.name)} | {_short(diff.old)} → {_short(diff.new)} | {diff.mode} | "
                f"{diff.verdict} | {len(diff.changes)} | {witnesses} |"
            )
    return "\n".join(lines) + "\n"
