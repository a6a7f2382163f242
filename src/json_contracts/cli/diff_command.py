"""``json-contracts diff``: the contract changes that break producers or consumers, each proven by a witness.

The old version is a Git revision of the contracts folder (``--base``, read with ``git`` without
touching the work tree) or another folder (``--against``); the new one is the contracts folder.
The engine (:mod:`json_contracts.evolution`) names each change and looks for a document that one
version accepts and the other rejects; this module only chooses the mode, renders and exits.
Hypothesis is imported only when the command runs, so the other commands keep their cold start.
"""

from __future__ import annotations

import os
import random
import shlex
import sys
from pathlib import Path

import click

from json_contracts.cli.options import FOLDER_HINT, common_options, contracts_dir, environment_limits, report_options
from json_contracts.cli.options import output_format as _format
from json_contracts.cli.render import echo_findings, echo_json, emit, finding_line, report_title, shown_path
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.evolution.model import MODES, ContractDiff, Mode, directions_of
from json_contracts.evolution.report import (
    DiffRun,
    change_finding,
    diff_report,
    diff_summary,
    status_text,
    witness_lines,
)
from json_contracts.evolution.revisions import RevisionError, load_revision
from json_contracts.findings import CATALOGUE, Code, Finding
from json_contracts.lint.config import ConfigError, Settings, load_settings
from json_contracts.reporting.escaping import escape_text
from json_contracts.testing.results import RunOptions, derandomize_by_default

__all__ = ["diff"]

_DEFAULT_MAX_EXAMPLES = 100
_VERDICT_COLOUR = {"breaking": "red", "compatible": "green"}


@click.command(name="diff")
@click.option("--base", metavar="REF", default=None,
              help="Compare with the contracts folder as this Git revision (branch, tag, commit) has it.")  # fmt: skip
@click.option("--against", metavar="DIR", default=None, help="Compare with another contracts folder instead.")
@click.option("--mode", type=click.Choice(MODES), default=None,
              help="Compatibility to keep; default: compatibility in pyproject.toml, else backward.")  # fmt: skip
@click.option("--max-examples", type=click.IntRange(1, 100_000), default=_DEFAULT_MAX_EXAMPLES, show_default=True,
              help="Documents drawn per witness search.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=None,
              help="Seed to repeat a run (printed on failure); default random, fixed when $CI is set.")  # fmt: skip
@common_options
@report_options
def diff(
    base: str | None,
    against: str | None,
    mode: str | None,
    max_examples: int,
    seed: int | None,
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Find the contract changes that break producers or consumers, each proven by a witness document.

    Compares the contracts folder with --base REF (a Git revision, such as origin/main) or
    --against DIR (another folder). Fails when a change breaks the compatibility a contract keeps
    (--mode, or compatibility in pyproject.toml) and a witness document proves it.
    """
    fmt = _format(as_json, output_format)
    if base is not None and against is not None:
        raise click.UsageError("--base and --against cannot be used together; name one old version")
    if base is None and against is None:
        raise click.UsageError(
            "name the old version with --base REF (a Git revision, such as origin/main) or --against DIR (a folder)"
        )
    try:
        settings = load_settings(Path.cwd())
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    default_mode, overrides = _modes(mode, settings)
    limits = environment_limits()[0]
    folder = contracts_dir(contracts)
    new = _loaded(folder, load_contracts(folder, limits), "Contracts folder", FOLDER_HINT)
    if base is not None:
        if not base.strip() or base.startswith("-"):
            raise click.UsageError(f"--base needs a Git revision (a branch, tag or commit), got {base!r}")
        try:
            old, label = load_revision(folder, base, limits)
        except RevisionError as exc:
            raise click.UsageError(str(exc)) from exc
    else:
        assert against is not None
        if not against.strip():
            raise click.UsageError("--against needs a folder path")
        other = Path(os.path.abspath(against))
        old = _loaded(other, load_contracts(other, limits), "--against folder", "name the folder of the old version")
        label = shown_path(other)

    derandomize = seed is None and derandomize_by_default(os.environ)
    if seed is None and not derandomize:
        seed = random.randrange(2**32)
    from json_contracts.testing.harness import hypothesis_storage

    with hypothesis_storage(None):  # diff keeps nothing: no example database, no .hypothesis/ folder
        # Imported only now: importing the strategies already writes Hypothesis's character cache.
        from json_contracts.evolution.compare import DiffOptions, diff_folders

        options = DiffOptions(default_mode, overrides, RunOptions(max_examples, seed, derandomize))
        diffs = diff_folders(old, new, options)
    run = DiffRun(old, new, label, default_mode, diffs, seed, derandomize, max_examples)

    findings = run.findings()
    if fmt == "json":
        echo_json(diff_report(run))
    elif fmt == "text":
        _echo_text(run, findings)
        if any(d.verdict == "breaking" for d in run.diffs):
            argv = ["json-contracts", "diff", *(("--base", base) if base is not None else ("--against", label))]
            argv += ["-c", shown_path(folder), *(("--mode", mode) if mode is not None else ())]
            argv += ["--max-examples", str(max_examples), *(() if derandomize else ("--seed", str(seed)))]
            # A derandomised run has no seed; the variable that made it derandomised repeats it.
            click.echo("Repeat this run with: " + ("CI=true " if derandomize else "") + escape_text(shlex.join(argv)))
    title = report_title("diff", folder)
    emit(findings, fmt, title=title, failed=not run.ok, counts=counts_file)  # the summary is diff's own, below
    if summary_file is not None:
        _append(summary_file, diff_summary(run, title))
    sys.exit(0 if run.ok else 1)


def _modes(chosen: str | None, settings: Settings) -> tuple[Mode, dict[str, Mode]]:
    """The mode of every contract: ``--mode`` for all of them, else the overrides and ``compatibility``.

    ``--mode`` is the most specific setting there is (a command line, for one run), so it wins over
    the per-contract table too: ``--mode full`` shows what every contract would break.
    """
    if chosen is not None:
        return _as_mode(chosen), {}
    overrides = {name: _as_mode(value) for name, value in settings.compatibility_overrides.items()}
    return _as_mode(settings.compatibility), overrides


def _as_mode(value: str) -> Mode:
    for mode in MODES:
        if mode == value:
            return mode
    raise click.UsageError(f"unknown compatibility mode {value!r}; use one of {', '.join(MODES)}")


def _loaded(folder: Path, result: LoadResult, what: str, hint: str) -> LoadResult:
    """The folder's load result, or a usage error when there is no folder to compare (missing or unreadable)."""
    if result.missing_directory:
        raise click.UsageError(f"{what} does not exist: {shown_path(folder)}; {hint}")
    unreadable = [f for f in result.failures if f.code == Code.UNREADABLE_DIRECTORY]
    if unreadable:
        raise click.UsageError(f"{unreadable[0].message}; {hint}")
    return result


def _header(diff: ContractDiff) -> str:
    """``support-ticket: changed, backward, breaking``: what happened to the contract and the verdict."""
    verdict = click.style(diff.verdict, fg=_VERDICT_COLOUR.get(diff.verdict), bold=diff.verdict == "breaking")
    return f"{click.style(diff.name, bold=True)}: {status_text(diff)}, {diff.mode}, {verdict}"


def _echo_text(run: DiffRun, findings: list[Finding]) -> None:
    """Load problems first, then each contract that changed with its changes and witnesses, then the verdict."""
    echo_findings(f for f in findings if CATALOGUE[f.code].family != "diff")
    changed = [d for d in run.diffs if d.verdict != "unchanged"]
    for diff in changed:
        click.echo(_header(diff))
        for change in diff.changes:
            click.echo(finding_line(change_finding(diff, change, run.new.directory, witness=False)))
            for line in witness_lines(change):  # the witness and its errors quote both contracts: escaped
                click.echo(escape_text(line))
    breaking = sum(d.verdict == "breaking" for d in changed)
    reasons = [f"{breaking} breaking contract(s)"] if breaking else []
    if run.new.failures:
        reasons.append(f"{len({f.file for f in run.new.failures})} file(s) did not load")
    searched = any(
        d.old is not None and d.new is not None and d.old.schema_hash != d.new.schema_hash and directions_of(d.mode)
        for d in changed
    )
    seed = f" (seed {run.seed})" if searched and not run.derandomized else ""
    click.echo(
        f"{len(changed)} contract(s) changed ({breaking} breaking, {len(changed) - breaking} compatible), "
        f"{len(run.diffs) - len(changed)} unchanged; mode {run.mode} against {escape_text(run.base)}{seed}"
        + (f"; failed ({', '.join(reasons)})." if not run.ok else ".")
    )


def _append(path: Path, text: str) -> None:
    """Append the job summary after an empty line when the file has text (several steps share it)."""
    try:
        # backslashreplace: a name that is not UTF-8 shows as an escape, never a crash after the run
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as handle:
            handle.write(("\n" if handle.tell() > 0 else "") + text)
    except OSError as exc:
        raise click.UsageError(f"cannot write {path}: {exc.strerror or exc}") from exc
