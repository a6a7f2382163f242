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

from json_contracts._json.pointers import escape_pointer_segment, lookup
from json_contracts._json.text import dumps
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.evolution.model import Change, ContractDiff, Mode, directions_of
from json_contracts.findings import Code, Finding, Severity
from json_contracts.reporting.markdown import markdown_cell
from json_contracts.reporting.reports import finding_dict
from json_contracts.reporting.text import display_path, severity_counts, sort_findings

__all__ = ["DiffRun", "change_finding", "diff_report", "diff_summary", "status_text", "witness_lines"]

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
    Code.ADDITIONAL_PROPERTIES_OPENED: "make consumers ignore fields they do not know first",
    Code.PATTERN_CHANGED: "accept both patterns for a release (anyOf), and drop the old one once nobody relies on it",
    Code.FORMAT_ADDED: "check that every stored document matches the format before it is checked",
    Code.FORMAT_REMOVED: "make consumers cope with strings that do not match the format first",
    Code.CONST_CHANGED: "accept both values for a release (an enum), and drop the old one once nobody relies on it",
    Code.BRANCH_REMOVED: "keep the branch until no document needs it",
    Code.BRANCH_ADDED: "make the other side handle what the branch changes first",
    Code.ACCEPTED_BEFORE_REJECTED_NOW: "the witness is a document the old version accepted: widen the schema for it",
    Code.REJECTED_BEFORE_ACCEPTED_NOW: "the witness is a document the old version rejected: make consumers handle it",
    Code.CONTRACT_REMOVED: "keep the contract until no agent or app asks for it",
    Code.CONTRACT_RENAMED: "keep the old name as a copy until every caller uses the new one",
    Code.OLD_EXAMPLE_REJECTED: "if the old shape is still produced or stored, widen the schema",
}


@dataclass
class DiffRun:
    """A whole comparison: the two folders and one :class:`ContractDiff` per contract.

    ``seed`` and ``derandomized`` say how the witness search drew its documents (a seed repeats
    the run; a derandomised run draws the same documents every time and has none), and
    ``max_examples`` how many it drew per search.
    """

    old: LoadResult
    new: LoadResult
    base: str  # the old version's label: a revision (HEAD~1:json-contracts) or a folder
    mode: Mode
    diffs: list[ContractDiff] = field(default_factory=list)
    seed: int | None = None
    derandomized: bool = False
    max_examples: int = 100

    def findings(self) -> list[Finding]:
        """The new folder's load problems, the old folder's as warnings (and its own warnings, such as
        no folder at the base), then every change."""
        findings = list(self.new.failures) + list(self.new.warnings) + list(self.old.warnings)
        for failure in self.old.failures:
            # The base's file may live in a temporary folder that is gone: name it as base/file.
            label = f"{self.base}/{failure.file}" if "/" not in failure.file else failure.file
            message = f"{failure.message} (in the base {self.base}; this contract was not compared)"
            findings.append(
                Finding(
                    code=failure.code,
                    severity="warning",
                    message=message,
                    file=label,
                    line=0,
                    column=0,
                    contract=failure.contract,
                )
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


def _located(contract: Contract, change: Change) -> tuple[str, int, int]:
    """The most precise place of the change in the new file: a keyword of the change when the file
    has it there (``/schema/required``, the line a pull request changed), else the node."""
    assert contract.source is not None
    pointer = change.new_pointer or ""
    candidates = [f"{pointer}/{escape_pointer_segment(keyword)}" for keyword in sorted(change.keywords)]
    chosen = next((c for c in candidates if lookup(contract.raw, c)[0]), pointer)
    line, column = contract.source.position(chosen)  # a place the file lacks: its nearest ancestor
    return chosen, line, column


def change_finding(diff: ContractDiff, change: Change, folder: Path, *, witness: bool = True) -> Finding:
    """One change as a finding in the new file (or where a removed contract's file was).

    With ``witness`` (the default) a proving document is quoted in the message, since annotations
    and SARIF have no other place for it; the text output shows it on lines of its own instead.
    """
    severity = _severity(diff, change)
    message = change.message
    if severity == "warning":
        message += f"; no witness found in {change.tried} document(s), so it may not break anyone"
    elif witness and change.witness is not None and severity == "error":
        message += f"; witness: {dumps(change.witness.document, indent=None)[:200]}"
    hint = _SAFELY.get(change.code) if severity == "error" else None
    if diff.new is not None and diff.new.source is not None:
        pointer, line, column = _located(diff.new, change)
        path: Path = diff.new.source.path
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
        "seed": None if run.derandomized else run.seed,
        "derandomized": run.derandomized,
        "maxExamples": run.max_examples,
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
    lines = [f"### {markdown_cell(title)}: {state}", ""]
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
            name = diff.name if diff.status == "changed" else f"{diff.name} ({status_text(diff)})"
            lines.append(
                f"| {markdown_cell(name)} | {_short(diff.old)} → {_short(diff.new)} | {diff.mode} | "
                f"{diff.verdict} | {len(diff.changes)} | {witnesses} |"
            )
    return "\n".join(lines) + "\n"


_WITNESS_WIDTH = 300  # characters of a witness document on its text line: enough to read, never a wall


def status_text(diff: ContractDiff) -> str:
    """What happened to the contract: ``changed``, ``added``, ``renamed from old-name`` …"""
    return f"renamed from {diff.renamed_from}" if diff.status == "renamed" else diff.status


def witness_lines(change: Change) -> list[str]:
    """The witness on one indented line (cut when long), then each error the judging version gave it.

    Every adapter prints a witness this way: the CLI's text output and the plugin's ``::compat`` failure.
    """
    witness = change.witness
    if witness is None:
        return []
    judge = "new" if witness.source == "old" else "old"
    document = dumps(witness.document, indent=None)
    if len(document) > _WITNESS_WIDTH:
        document = document[: _WITNESS_WIDTH - 1] + "…"
    lines = [f"  witness (accepted by {witness.source}, rejected by {judge}): {document}"]
    lines += [f"    {e['path'] or '/'} {e['message']} ({e['keyword']})" for e in witness.errors]
    return lines
