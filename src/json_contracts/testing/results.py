"""What a property check reports, and the checks that need no Hypothesis (one example at a time).

Kept apart from :mod:`json_contracts.testing.checks` so that listing and running examples (the pytest
plugin's ``::example[i]`` items, ``--json-contracts-no-hypothesis``) never imports Hypothesis.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from json_contracts._env import ci_is_set, positive_seconds
from json_contracts._json.text import dumps
from json_contracts.agent.repair import document_hints
from json_contracts.contracts.model import Contract
from json_contracts.findings import CHECK_CODES, Code, Finding
from json_contracts.schema.validation import ErrorRecord, validate

__all__ = [
    "CHECK_IDS",
    "DEFAULT_TIME_BUDGET",
    "TIME_BUDGET_VARIABLE",
    "CheckResult",
    "ExampleRef",
    "Outcome",
    "RunOptions",
    "derandomize_by_default",
    "example_refs",
    "run_example",
    "time_budget_from",
]


def derandomize_by_default(environ: Mapping[str, str]) -> bool:
    """Whether a run without a seed is derandomised (the same documents every time): on CI, when ``CI`` is set."""
    return ci_is_set(environ)


#: Seconds the property checks of one contract may take, together, in ``test`` and the pytest plugin.
#: The slowest starter contract took 14 s at the default 50 documents per check on a loaded 2-core
#: machine (the others 4-7 s), so this leaves room for eight times that; without a budget a hostile
#: contract could hold a run for hours.
DEFAULT_TIME_BUDGET = 120.0
TIME_BUDGET_VARIABLE = "JSON_CONTRACTS_TEST_TIMEOUT"


def time_budget_from(environ: Mapping[str, str]) -> float:
    """The per-contract time budget ``$JSON_CONTRACTS_TEST_TIMEOUT`` sets (seconds), else the default.

    Raises:
        EnvironmentVariableError: the value is not a positive number of seconds.
    """
    return positive_seconds(environ, "JSON_CONTRACTS_TEST_TIMEOUT", DEFAULT_TIME_BUDGET)


@dataclass(frozen=True)
class RunOptions:
    """How hard and how reproducibly to search: ``max_examples`` per check, a seed or derandomised.

    ``database`` is the folder of Hypothesis's example database, where a failing document is saved
    and replayed first by the next run, so a fix is tried on the very document that failed; None
    (the default) keeps none. ``database_key`` says whose documents they are (the CLI uses the
    contract's name): each contract replays only its own. A derandomised run never uses one
    (Hypothesis refuses the pair: a derandomised run must not depend on earlier runs).

    ``time_budget`` is the seconds one contract's checks may take together (None: no bound, the
    library's default); ``deadline`` is when they must stop, on :func:`time.monotonic`'s clock,
    set by :func:`~json_contracts.testing.checks.run_checks` from the budget (or by a caller that
    spreads one budget over several calls, as the pytest plugin does). A check that runs out is
    ``inconclusive``, never failed.
    """

    max_examples: int = 50
    seed: int | None = None
    derandomize: bool = False
    max_depth: int = 3
    database: Path | None = None
    database_key: str = ""
    time_budget: float | None = None
    deadline: float | None = None


#: ``inconclusive``: the check could not decide (out of time, or a value too large to build); it
#: does not fail a run, and it is reported as a warning at the place to look.
Outcome = Literal["passed", "failed", "skipped", "inconclusive"]

CHECK_IDS = tuple(CHECK_CODES)


@dataclass(frozen=True)
class CheckResult:
    """One check of one contract: the outcome, a one-line reason and the lines that explain it."""

    contract: str
    check: str
    outcome: Outcome
    message: str
    pointer: str = ""  # where in the contract file the problem is
    details: tuple[str, ...] = ()
    examples: int = 0  # documents the check tried
    rejected_share: float | None = None  # share of candidates the validator filter rejected
    seed: int | None = None
    source: Path | None = field(default=None, compare=False)

    @property
    def code(self) -> Code:
        return CHECK_CODES.get(self.check.split("[")[0], CHECK_CODES["examples"])

    def finding(self, contract: Contract) -> Finding:
        """The failure (an error) or the inconclusive result (a warning) as a finding at its place in
        the contract file (for text, GitHub, SARIF)."""
        line, column = contract.source.position(self.pointer) if contract.source else (1, 1)
        path = contract.source.path if contract.source else None
        return Finding(
            code=self.code,
            severity="warning" if self.outcome == "inconclusive" else "error",
            message=f"{self.check}: {self.message}",
            file=path.name if path else contract.name,
            path=path,
            pointer=self.pointer,
            line=line,
            column=column,
            contract=contract.name,
        )


@dataclass(frozen=True)
class ExampleRef:
    """One example: its item id (``example[0]``, ``edit.example[1]``), group label and index."""

    id: str
    label: str
    pointer: str
    index: int


def example_refs(contract: Contract) -> list[ExampleRef]:
    """Every example of the contract, top level first, then each operation's, in file order."""
    refs: list[ExampleRef] = []
    for label, pointer, group in contract.all_examples():
        prefix = "" if label == "examples" else label.split(".")[1] + "."
        refs += [ExampleRef(f"{prefix}example[{i}]", label, f"{pointer}/{i}", i) for i in range(len(group))]
    return refs


def error_lines(contract: Contract, errors: list[ErrorRecord], *document: Any) -> list[str]:
    """The errors, then how to fix them; given the document (one optional argument, which may be
    ``null``), the hints can look at its values (a date that is no calendar date)."""
    lines = [f"error: {e['path'] or '/'} {e['message']} ({e['keyword']})" for e in errors]
    return lines + [f"hint: {hint}" for hint in document_hints(contract.schema, errors, *document)]


#: A document shown in a report keeps this many lines, each cut to this many characters: a drawn
#: or broken document can be as large as a schema's numbers allow, and a report must stay readable.
MAX_DOCUMENT_LINES = 60
MAX_LINE_CHARACTERS = 500


def document_lines(label: str, document: Any) -> list[str]:
    """``label:`` and the document as indented JSON lines, at most :data:`MAX_DOCUMENT_LINES` of them."""
    lines = dumps(document).splitlines()
    shown = [_cut(line) for line in lines[:MAX_DOCUMENT_LINES]]
    if len(lines) > MAX_DOCUMENT_LINES:
        shown.append(f"... {len(lines) - MAX_DOCUMENT_LINES} more lines")
    return [f"{label}:", *("  " + line for line in shown)]


def _cut(line: str) -> str:
    if len(line) <= MAX_LINE_CHARACTERS:
        return line
    return f"{line[:MAX_LINE_CHARACTERS]}... ({len(line) - MAX_LINE_CHARACTERS} more characters)"


def run_example(contract: Contract, ref: ExampleRef) -> CheckResult:
    """The ``example[i]`` check: its output validates, and so does an edit example's ``currentJson``."""
    group = next(g for label, _, g in contract.all_examples() if label == ref.label)
    example = group[ref.index]
    for key in ("currentJson", "output"):
        if not isinstance(example, dict) or key not in example:
            continue
        result = validate(contract.compiled, example[key])
        if not result.valid:
            where = f"{ref.pointer}/{key}{result.errors[0]['path']}"
            message = f"{ref.label}[{ref.index}].{key} does not validate against the schema"
            details = document_lines(key, example[key]) + error_lines(contract, result.errors, example[key])
            return CheckResult(contract.name, ref.id, "failed", message, where, tuple(details))
    return CheckResult(contract.name, ref.id, "passed", "valid", ref.pointer)
