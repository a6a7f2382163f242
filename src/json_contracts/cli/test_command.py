"""``json-contracts test``: the property checks on every contract, rendered for people, programs and CI.

Hypothesis and the checks are imported only when this command runs, so ``validate``, ``lint``
and ``check`` keep their cold start.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import click

from json_contracts.cli.options import common_options, load_folder, report_options
from json_contracts.cli.options import output_format as _format
from json_contracts.cli.render import echo_findings, echo_json, emit, finding_line, report_title
from json_contracts.findings.catalogue import CHECK_CODES
from json_contracts.reporting.text import sort_findings
from json_contracts.testing.results import derandomize_by_default

_CHECKS = tuple(CHECK_CODES)
_MARK = {"passed": ("pass", "green"), "failed": ("FAIL", "red"), "skipped": ("skip", "yellow")}


@click.command(name="test")
@click.option("--max-examples", type=click.IntRange(1, 100_000), default=50, show_default=True,
              help="Documents drawn per property check.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None,
              help="Seed to repeat a run (printed on failure); default random, fixed when $CI is set.")  # fmt: skip
@click.option("--check", "only_checks", multiple=True, type=click.Choice(_CHECKS),
              help="Run only this check (repeatable).")  # fmt: skip
@click.option("--contract", "only_contracts", multiple=True, metavar="NAME",
              help="Test only this contract (repeatable).")  # fmt: skip
@common_options
@report_options
def test(
    max_examples: int,
    seed: int | None,
    only_checks: tuple[str, ...],
    only_contracts: tuple[str, ...],
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Prove each contract sound with Hypothesis: satisfiable, samples valid, examples, repair hints, edit, hashes."""
    from json_contracts.testing.checks import RunOptions, run_checks
    from json_contracts.testing.report import check_report, result_findings

    fmt = _format(as_json, output_format)
    result = load_folder(contracts)
    unknown = [name for name in only_contracts if name not in result.contracts]
    if unknown:
        loaded = ", ".join(c.name for c in result.sorted_contracts()) or "none"
        raise click.UsageError(f"Contract not found: {', '.join(unknown)} (loaded: {loaded})")
    derandomize = seed is None and derandomize_by_default(os.environ)
    if seed is None and not derandomize:
        seed = random.randrange(2**32)
    options = RunOptions(max_examples=max_examples, seed=seed, derandomize=derandomize)
    chosen = [c for c in result.sorted_contracts() if not only_contracts or c.name in only_contracts]
    progress = fmt == "text" and sys.stderr.isatty()
    checks = []
    for contract in chosen:
        if progress:
            click.echo(f"\rtesting {contract.name} …", err=True, nl=False)
        checks += run_checks(contract, options, only_checks or _CHECKS)
    if progress:
        click.echo("\r\033[K", err=True, nl=False)
    report = check_report(result, checks, seed=None if derandomize else seed, derandomized=derandomize)

    findings = sort_findings(result_findings(result, checks))
    if fmt == "json":
        echo_json(report)
    elif fmt == "text":
        echo_findings(sort_findings(result.failures))
        for check in checks:
            mark, colour = _MARK[check.outcome]
            if check.outcome == "failed":
                line = finding_line(check.finding(result.contracts[check.contract]))
                click.echo(f"{click.style(mark, fg=colour, bold=True)} {line}")
                for detail in check.details:
                    click.echo(f"     {detail}")
            else:
                click.echo(f"{click.style(mark, fg=colour)} {check.contract} {check.check}: {check.message}")
        counts = report["counts"]
        click.echo(
            f"{len(checks)} check(s) on {len(chosen)} contract(s): {counts['passed']} passed, "
            f"{counts['failed']} failed, {counts['skipped']} skipped"
            + (f"; {len(result.failures)} file(s) did not load" if result.failures else "")
            + ("." if derandomize else f" (seed {seed}).")
        )
        if counts["failed"] and not derandomize:
            click.echo(f"Repeat this run with: json-contracts test --seed {seed}")
    title = report_title("test", result.directory)
    emit(findings, fmt, title=title, failed=not report["ok"], summary=summary_file, counts=counts_file)
    sys.exit(0 if report["ok"] else 1)
