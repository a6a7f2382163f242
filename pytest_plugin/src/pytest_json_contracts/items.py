"""Contract files as pytest collectors and their checks as items, reported like the CLI.

A failing item prints ``file:line:col: CODE severity message`` and the lines that explain it
(document, errors, hints), never a traceback into the plugin: an item raises
:class:`ContractFailure` with that text and :meth:`ContractItem.repr_failure` returns it. That holds
for a crash too (any exception, even a Rust panic, which is no ``Exception``): the item fails with
the contract, the check and the exception named, and the other items run on. A property check that
cannot decide (its contract's time budget ran out) is skipped as ``inconclusive``.
With ``--json-contracts-base``, a contract that changed also gets a ``::compat`` item
(:class:`CompatItem`), and so does each contract the folder no longer has (:func:`removed_contracts`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import pytest

from json_contracts.contracts.model import Contract
from json_contracts.findings import Finding
from json_contracts.lint import lint_contract
from json_contracts.reporting.escaping import escape_text
from json_contracts.reporting.text import finding_text
from json_contracts.testing.results import CHECK_IDS, CheckResult, RunOptions, example_refs, run_example
from pytest_json_contracts.baseline import Comparison, compat_text, searched
from pytest_json_contracts.session import PluginOptions, PluginState

__all__ = [
    "PROPERTY_CHECKS",
    "CompatItem",
    "ContractFailure",
    "ContractFile",
    "ContractItem",
    "RemovedContract",
    "removed_contracts",
]

#: The property checks that become items (``examples`` is covered by one item per example).
PROPERTY_CHECKS = tuple(check for check in CHECK_IDS if check != "examples")
#: Where each property check's item points before it has run (a failure points more precisely).
_CHECK_POINTERS = {"edit": "/operations/edit", "hashes": ""}
#: What an item raises on purpose (a failure of ours, pytest's skip, fail, xfail and exit) and what
#: stops the run (Ctrl-C): passed on as they are; anything else is a crash, reported as one.
_PASSED_THROUGH: tuple[type[BaseException], ...] = (
    KeyboardInterrupt,
    SystemExit,
    GeneratorExit,
    pytest.skip.Exception,
    pytest.fail.Exception,
    pytest.xfail.Exception,
    pytest.exit.Exception,
)
_MAX_CRASH_MESSAGE = 500  # characters of a crash's message in a failure


class ContractFailure(Exception):
    """A contract check failed; ``text`` is the whole report, in the CLI's words."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class ContractFile(pytest.File):
    """One contract file: ``::load``, ``::lint``, one item per example, then the property checks.

    Ids come from the file alone (examples in file order, checks in a fixed order), so every
    xdist worker collects the same items. A file that did not load keeps ``::load`` (failing)
    and its check items (skipped), and has no example items.
    """

    def __init__(self, *, state: PluginState, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state

    def collect(self) -> Iterator[pytest.Item]:
        registry = self.state.registry()
        findings = registry.findings_for(self.path)
        contract = next((c for c in registry.values() if c.source is not None and c.source.path == self.path), None)
        common: dict[str, Any] = {"state": self.state, "contract": contract, "findings": findings}
        yield LoadItem.from_parent(self, name="load", **common)
        yield LintItem.from_parent(self, name="lint", **common)
        if contract is not None:
            for ref in example_refs(contract):
                yield ExampleItem.from_parent(self, name=ref.id, pointer=ref.pointer, **common)
        for check in PROPERTY_CHECKS:
            yield CheckItem.from_parent(self, name=check, pointer=_CHECK_POINTERS.get(check, "/schema"), **common)
        baseline = self.state.baseline
        if baseline is not None and contract is not None:  # a file that does not load is not compared
            comparison = baseline.comparison(contract, registry.result)
            if comparison is not None:  # unchanged since the base: no item
                yield CompatItem.from_parent(self, name="compat", comparison=comparison, **common)


def removed_contracts(folder: pytest.Directory, state: PluginState) -> list[RemovedContract]:
    """One collector per contract the base has and the folder does not (the folder's collector adds them)."""
    if state.baseline is None:
        return []
    return [
        RemovedContract.from_parent(folder, path=folder.path / comparison.file_name, state=state, comparison=comparison)
        for comparison in state.baseline.removed(state.registry().result)
    ]


class RemovedContract(pytest.File):
    """A contract the base has and the folder does not; named after its old file, which no longer exists."""

    def __init__(self, *, state: PluginState, comparison: Comparison, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state = state
        self.comparison = comparison

    def collect(self) -> Iterator[pytest.Item]:
        yield CompatItem.from_parent(
            self, name="compat", state=self.state, contract=None, findings=[], comparison=self.comparison
        )


class ContractItem(pytest.Item):
    """One check of one contract file; subclasses implement :meth:`check`."""

    def __init__(
        self,
        *,
        state: PluginState,
        contract: Contract | None,
        findings: list[Finding],
        pointer: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.state = state
        self.contract = contract
        self.findings = findings
        self.pointer = pointer

    @property
    def options(self) -> PluginOptions:
        return self.state.options

    def runtest(self) -> None:
        try:
            self.check()
        except ContractFailure:
            raise
        except _PASSED_THROUGH:
            raise
        except BaseException as exc:  # a panic below the engine is no Exception, and must not lose the run
            name = self.contract.name if self.contract else self.path.stem
            text = " ".join(str(exc).split())[:_MAX_CRASH_MESSAGE]
            raise ContractFailure(
                f"{self.path.name}: {name}::{self.name} crashed ({type(exc).__name__}: {text}); "
                "the other checks ran on; please report this with the contract"
            ) from None

    def check(self) -> None:
        raise NotImplementedError

    def run_options(self, *, database: Path | None = None, database_key: str = "") -> RunOptions:
        """How this session searches: its documents per search, and its seed or a derandomised order."""
        return RunOptions(
            max_examples=self.options.max_examples,
            seed=self.options.seed,
            derandomize=self.options.derandomize,
            database=database,
            database_key=database_key,
        )

    def require_contract(self) -> Contract:
        """The loaded contract, or skip: a file that did not load has nothing else to check."""
        if self.contract is None:
            codes = ", ".join(sorted({f.code for f in self.findings})) or "not loaded"
            skip(f"{self.path.name} did not load ({codes}); see ::load")
        return self.contract

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ContractFailure):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)  # a bug in the engine: its traceback helps

    def reportinfo(self) -> tuple[Path, int | None, str]:
        if self.contract is not None and self.contract.source is not None:
            line = self.contract.source.position(self.pointer)[0]
        else:
            line = next((f.line for f in self.findings if f.line), 1)
        # The label heads the failure ("support-ticket: example[0]"); pytest rewrites a label that
        # ends the node id (dots become "::"), so it must not look like one.
        name = self.contract.name if self.contract else self.path.stem
        return self.path, line - 1, f"{name}: {self.name}"


class LoadItem(ContractItem):
    """The file loads: JSON, shape, limits, schema, example outputs (``json-contracts validate``)."""

    def check(self) -> None:
        if self.contract is not None:
            return
        errors = [f for f in self.findings if f.severity == "error"]
        text = "\n".join(finding_text(f) for f in errors or self.findings)
        if errors or (self.findings and self.options.strict):
            raise ContractFailure(text)
        skip(text or f"{self.path.name} was not read by the loader")


class LintItem(ContractItem):
    """``json-contracts lint`` for this file: errors fail, warnings fail only when strict."""

    def check(self) -> None:
        contract = self.require_contract()
        findings = lint_contract(contract, ignore=self.options.ignore)
        errors = [f for f in findings if f.severity == "error"]
        warnings = [f for f in findings if f.severity == "warning"]
        failing = errors + warnings if self.options.strict else errors
        if failing:
            summary = f"{len(errors)} lint error(s), {len(warnings)} warning(s)"
            if self.options.strict and warnings:
                summary += " (strict: warnings fail)"
            # Fix first: most findings are mistakes (a misspelt keyword), and ignoring a code hides
            # every later finding of it too.
            codes = ", ".join(f'"{c}"' for c in sorted({f.code for f in failing}))
            summary += (
                ". Fix each finding above; only if one is deliberate, ignore its code in "
                f"[tool.json-contracts]: ignore = [{codes}]"
            )
            raise ContractFailure("\n".join([*(finding_text(f) for f in failing), summary]))
        if findings:  # shown with -rP, and kept in JUnit XML
            self.add_report_section("call", "json-contracts lint", "\n".join(finding_text(f) for f in findings))


class ExampleItem(ContractItem):
    """One example: its output (and an edit example's ``currentJson``) validates."""

    def check(self) -> None:
        contract = self.require_contract()
        ref = next(r for r in example_refs(contract) if r.id == self.name)
        _raise_for(run_example(contract, ref), contract)


class CheckItem(ContractItem):
    """One property check (``satisfiable``, ``samples-valid``, ``repair-hints``, ``edit``, ``hashes``)."""

    def check(self) -> None:
        contract = self.require_contract()
        if not self.options.hypothesis:
            skip("property checks are off (--json-contracts-no-hypothesis)")
        from json_contracts.testing.checks import run_check  # Hypothesis: only once a property check runs

        # The CLI's key: a failure either of them saved, both replay first. The contract's checks
        # share one time budget, as in the CLI: each item gets what the ones before it left.
        spent = self.state.spent.get(contract.name, 0.0)
        started = time.monotonic()
        options = self.run_options(database=self.state.database, database_key=contract.name)
        options = replace(options, time_budget=self.options.time_budget,
                          deadline=started + max(self.options.time_budget - spent, 0.0))  # fmt: skip
        try:
            result = run_check(contract, self.name, options)
        finally:
            self.state.spent[contract.name] = spent + time.monotonic() - started
        _raise_for(result, contract)


class CompatItem(ContractItem):
    """The contract against ``--json-contracts-base``: fails on a change its compatibility mode forbids.

    The mode is ``[tool.json-contracts]``'s (``compatibility-overrides``, else ``compatibility``, else
    backward); a breaking change must be proven (a witness, or the change itself), as in
    ``json-contracts diff``. Changes that break nothing are attached to the report (``-rP``).
    The witness search keeps no example database, as ``json-contracts diff`` keeps none.
    """

    def __init__(self, *, comparison: Comparison, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.comparison = comparison

    def check(self) -> None:
        baseline = self.state.baseline
        assert baseline is not None  # only collected with a base
        if self.comparison.not_compared is not None:
            skip(self.comparison.not_compared)
        diff = baseline.run(self.comparison, self.run_options())
        text = compat_text(diff, self.options.directory)
        if diff.verdict == "breaking":
            count = len(diff.breaking())
            lines = [
                text,
                f"{count} change(s) break {diff.mode} compatibility against {baseline.label}. Make each change the "
                f"safe way its hint says; a deliberate break needs another mode for this contract: "
                f'{diff.name} = "none" in [tool.json-contracts.compatibility-overrides]',
            ]
            if searched(diff) and self.options.seed is not None:
                lines.append(f"seed {self.options.seed}: repeat with --json-contracts-seed {self.options.seed}")
            raise ContractFailure("\n".join(lines))
        if diff.changes:  # shown with -rP, and kept in JUnit XML
            self.add_report_section("call", "json-contracts diff", text)


def skip(reason: str) -> NoReturn:
    """Skip the running item, reported at the contract file's line rather than at this module's."""
    raise pytest.skip.Exception(reason, _use_item_location=True)  # what pytest's own skip markers do


def _raise_for(result: CheckResult, contract: Contract) -> None:
    if result.outcome == "skipped":
        skip(escape_text(result.message))
    if result.outcome == "inconclusive":
        skip(f"inconclusive: {escape_text(result.message)}")
    if result.outcome == "failed":
        # The documents and details quote contract text: escaped, as every text output is.
        lines = [finding_text(result.finding(contract)), *(escape_text(line) for line in result.details)]
        if result.seed is not None:
            lines.append(f"seed {result.seed}: repeat with --json-contracts-seed {result.seed}")
        raise ContractFailure("\n".join(lines))
