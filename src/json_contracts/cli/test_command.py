"""``json-contracts test``: the property checks on every contract, rendered for people, programs and CI.

Hypothesis and the checks are imported only when this command runs, so ``validate``, ``lint``
and ``check`` keep their cold start. Text results are printed contract by contract as they
finish; on a terminal, stderr shows how far the run is (:mod:`json_contracts.cli.progress`).
"""

from __future__ import annotations

import os
import random
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from json_contracts.cli.options import FOLDER_HINT, common_options, load_folder, report_options
from json_contracts.cli.options import output_format as _format
from json_contracts.cli.progress import progress
from json_contracts.cli.render import echo_findings, echo_json, emit, finding_line, report_title, shown_path
from json_contracts.contracts.model import Contract, LoadResult
from json_contracts.errors import EnvironmentVariableError
from json_contracts.findings import Code, Finding
from json_contracts.findings.catalogue import CHECK_CODES
from json_contracts.reporting.escaping import escape_text
from json_contracts.reporting.reports import finding_dict
from json_contracts.reporting.text import sort_findings
from json_contracts.testing.results import (
    DEFAULT_TIME_BUDGET,
    TIME_BUDGET_VARIABLE,
    derandomize_by_default,
    time_budget_from,
)

if TYPE_CHECKING:
    from json_contracts.testing.checks import CheckResult

_CHECKS = tuple(CHECK_CODES)
_MARK = {"passed": ("pass", "green"), "failed": ("FAIL", "red"), "skipped": ("skip", "yellow"),
         "inconclusive": ("warn", "yellow")}  # fmt: skip
_DEFAULT_MAX_EXAMPLES = 50


@click.command(name="test")
@click.option("--max-examples", type=click.IntRange(1, 100_000), default=_DEFAULT_MAX_EXAMPLES, show_default=True,
              help="Documents drawn per property check.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None,
              help="Seed to repeat a run (printed on failure); default random, fixed when $CI is set.")  # fmt: skip
@click.option("--check", "only_checks", multiple=True, type=click.Choice(_CHECKS),
              help="Run only this check (repeatable).")  # fmt: skip
@click.option("--contract", "only_contracts", multiple=True, metavar="NAME",
              help="Test only this contract (repeatable).")  # fmt: skip
@click.option("--no-database", "no_database", is_flag=True,
              help="Remember nothing between runs: no example database, nothing written to disk.")  # fmt: skip
@click.option("--timeout", "time_budget", type=click.FloatRange(0, min_open=True), default=None, metavar="SECONDS",
              help=f"Seconds the checks of one contract may take together; past it they are inconclusive "
                   f"(default ${TIME_BUDGET_VARIABLE}, else {DEFAULT_TIME_BUDGET:g}).")  # fmt: skip
@common_options
@report_options
def test(
    max_examples: int,
    seed: int | None,
    only_checks: tuple[str, ...],
    only_contracts: tuple[str, ...],
    no_database: bool,
    time_budget: float | None,
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Prove each contract sound with Hypothesis: satisfiable, samples valid, examples, repair hints, edit, hashes."""
    from json_contracts.testing.harness import hypothesis_storage, storage_folder

    fmt = _format(as_json, output_format)
    budget = time_budget if time_budget is not None else _environment_budget()
    result = _with_folder_findings(load_folder(contracts))
    unknown = [name for name in only_contracts if name not in result.contracts]
    if unknown and not result.missing_directory:  # a missing folder is the finding to report, not the names
        loaded = ", ".join(c.name for c in result.sorted_contracts()) or "none"
        raise click.UsageError(f"Contract not found: {', '.join(unknown)} (loaded: {loaded})")
    derandomize = seed is None and derandomize_by_default(os.environ)
    if seed is None and not derandomize:
        seed = random.randrange(2**32)
    chosen = [c for c in result.sorted_contracts() if not only_contracts or c.name in only_contracts]
    storage = None if no_database or not chosen else storage_folder(Path.cwd(), os.environ)
    checks: list[CheckResult] = []
    if fmt == "text":
        echo_findings(sort_findings(result.failures + result.warnings))
    with hypothesis_storage(storage) as home, progress(len(chosen), enabled=_stderr_is_terminal()) as line:
        # Imported only now: importing the strategies already writes Hypothesis's character cache.
        from json_contracts.testing.checks import RunOptions, run_checks
        from json_contracts.testing.report import check_report, result_findings

        options = RunOptions(
            max_examples=max_examples,
            seed=seed,
            derandomize=derandomize,
            database=None if storage is None else home / "examples",
            time_budget=budget,
        )
        for contract in chosen:
            line.start(contract.name)
            found = run_checks(contract, replace(options, database_key=contract.name), only_checks or _CHECKS)
            checks += found
            if fmt == "text":
                line.clear()
                _echo_results(found, result.contracts[contract.name])
            line.advance()
    report = check_report(result, checks, seed=None if derandomize else seed, derandomized=derandomize)
    report["warnings"] = [finding_dict(f) for f in sort_findings(result.warnings)]

    findings = sort_findings(result_findings(result, checks) + result.warnings)
    if fmt == "json":
        echo_json(report)
    elif fmt == "text":
        counts, note = report["counts"], _nothing_tested(result)
        inconclusive = f", {counts['inconclusive']} inconclusive" if counts.get("inconclusive") else ""
        click.echo(
            f"{len(checks)} check(s) on {len(chosen)} contract(s): {counts['passed']} passed, "
            f"{counts['failed']} failed, {counts['skipped']} skipped{inconclusive}"
            + (note or (f"; {len(result.failures)} file(s) did not load" if result.failures else ""))
            + ("." if derandomize or note else f" (seed {seed}).")
        )
        if counts["failed"]:
            argv = ["json-contracts", "test", "-c", shown_path(result.directory)]
            argv += [arg for name in only_contracts for arg in ("--contract", name)]
            argv += [arg for check in only_checks for arg in ("--check", check)]
            argv += ["--max-examples", str(max_examples)]
            argv += [] if derandomize else ["--seed", str(seed)]
            argv += ["--no-database"] if no_database else []
            argv += ["--timeout", f"{time_budget:g}"] if time_budget is not None else []
            # A derandomised run has no seed; the variable that made it derandomised repeats it.
            click.echo("Repeat this run with: " + ("CI=true " if derandomize else "") + shlex.join(argv))
    title = report_title("test", result.directory)
    emit(findings, fmt, title=title, failed=not report["ok"], summary=summary_file, counts=counts_file)
    sys.exit(0 if report["ok"] else 1)


def _echo_results(checks: list[CheckResult], contract: Contract) -> None:
    """One contract's results: ``pass``/``skip`` lines, or ``FAIL`` with the finding and its evidence."""
    for check in checks:
        mark, colour = _MARK[check.outcome]
        if check.outcome in ("failed", "inconclusive"):  # at the place in the file to look at
            click.echo(f"{click.style(mark, fg=colour, bold=True)} {finding_line(check.finding(contract))}")
            for detail in check.details:  # documents and errors that quote the contract: escaped
                click.echo(f"     {escape_text(detail)}")
        else:
            click.echo(f"{click.style(mark, fg=colour)} {check.contract} {check.check}: {escape_text(check.message)}")


def _environment_budget() -> float:
    """``$JSON_CONTRACTS_TEST_TIMEOUT``, else the default; a bad value is a usage error naming the variable."""
    try:
        return time_budget_from(os.environ)
    except EnvironmentVariableError as exc:
        raise click.UsageError(str(exc)) from exc


def _with_folder_findings(result: LoadResult) -> LoadResult:
    """The folder as ``test`` judges it: a missing folder fails (JC002 as an error), an empty one warns (JC004).

    ``validate`` and ``lint`` only warn about a missing folder; ``test`` passing on it would keep a
    CI job with a mistyped path green while it proves nothing.
    """
    if result.missing_directory:
        folder = [f for f in result.warnings if f.code == Code.MISSING_DIRECTORY]
        others = [f for f in result.warnings if f.code != Code.MISSING_DIRECTORY]
        missing = [replace(f, severity="error", hint=FOLDER_HINT) for f in folder]
        return replace(result, failures=[*result.failures, *missing], warnings=others)
    has_files = result.contracts or result.failures
    if has_files or any(f.code == Code.EMPTY_DIRECTORY for f in result.warnings):
        return result
    empty = Finding(
        code=Code.EMPTY_DIRECTORY,
        severity="warning",
        message=f"Contracts directory {result.directory} holds no contract file (*.json), so nothing was tested",
        file=str(result.directory),
        path=result.directory,
        line=0,  # about the folder, not a place in a file
        column=0,
        hint="add contracts to it, or copy the starters with json-contracts init",
    )
    return replace(result, warnings=[*result.warnings, empty])


def _nothing_tested(result: LoadResult) -> str:
    """The summary line's note when the folder itself gave nothing to test; empty otherwise."""
    codes = {f.code for f in result.failures + result.warnings}
    if Code.MISSING_DIRECTORY in codes:
        return "; nothing tested: the contracts folder does not exist"
    if Code.UNREADABLE_DIRECTORY in codes:
        return "; nothing tested: the contracts folder cannot be read"
    if Code.EMPTY_DIRECTORY in codes:
        return "; nothing tested: the contracts folder holds no contract file"
    return ""


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty()
