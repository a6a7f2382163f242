"""``init``, ``validate``, ``lint`` and ``check``: options in, engine call, rendering, exit code."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from json_contracts.agent.documents import check_document
from json_contracts.cli.files import remove_stale_temporaries, write_whole_file
from json_contracts.cli.options import (
    FOLDER_HINT,
    common_options,
    contracts_dir,
    environment_limits,
    init_options,
    load_folder,
    report_options,
)
from json_contracts.cli.options import output_format as _format
from json_contracts.cli.render import echo_findings, echo_json, emit, finding_line, report_title, shown_path
from json_contracts.contracts.names import is_safe_name
from json_contracts.contracts.starter import starter_files
from json_contracts.findings import Code, Finding
from json_contracts.lint import lint_result
from json_contracts.lint.config import ConfigError, load_settings, parse_codes
from json_contracts.reporting.escaping import escape_text
from json_contracts.reporting.reports import lint_report, validate_report
from json_contracts.reporting.text import display_path, finding_message, severity_counts, sort_findings


@click.command()
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@init_options
def init(force: bool, contracts: str | None, as_json: bool, output_format: str | None) -> None:
    """Copy the starter contracts into the contracts directory (never overwrites without --force)."""
    fmt = _format(as_json, output_format)
    target = contracts_dir(contracts)
    files = starter_files()
    source_dir = str(Path(str(files[0])).parent) if files else ""
    copied: list[str] = []
    skipped: list[str] = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(target)  # left by an init that was killed
        for item in files:
            # Whole or not at all: a killed init never leaves a half-written starter file, which a
            # later init would then skip as existing.
            if write_whole_file(target / item.name, item.read_bytes(), overwrite=force):
                copied.append(item.name)
            else:
                skipped.append(item.name)
    except OSError as exc:
        message = f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc)
        if fmt == "json":
            echo_json({"initialized": False, "contractsDir": str(target), "error": message})
        else:
            click.echo(f"Failed to initialize starter contracts: {message}", err=True)
        sys.exit(1)
    if fmt == "json":
        echo_json(
            {
                "initialized": True,
                "force": force,
                "contractsDir": str(target),
                "sourceDir": source_dir,
                "copied": copied,
                "skipped": skipped,
            }
        )
        return
    click.echo(f"Initialized starter contracts in {target}.")
    click.echo(f"Copied {len(copied)} file(s). Skipped {len(skipped)} existing file(s).")
    if copied:
        click.echo("Copied: " + ", ".join(copied))
    if skipped:
        click.echo("Skipped: " + ", ".join(skipped) + " (they exist; use --force to overwrite)")
    click.echo("")
    click.echo("Next:")
    click.echo(f"  json-contracts validate --contracts {shown_path(target)}")
    click.echo("  Add json-contracts to your MCP host config with JSON_CONTRACTS_DIR pointing at this folder.")


@click.command()
@common_options
@report_options
def validate(
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Load every contract: shape, limits, JSON Schema validity, example outputs valid."""
    fmt = _format(as_json, output_format)
    result = load_folder(contracts)
    findings = sort_findings(result.failures + result.warnings)
    if fmt == "json":
        echo_json(validate_report(result))
    elif fmt == "text":
        if result.ok:
            click.echo(f"Validated {len(result.contracts)} contract(s) in {escape_text(str(result.directory))}.")
            for contract in result.sorted_contracts():
                click.echo(f"- {contract.name} {contract.contract_hash}")
        echo_findings(findings)
        if not result.ok:
            files = len({f.file for f in result.failures})
            click.echo(f"Contract validation failed: {len(result.failures)} error(s) in {files} file(s).")
    title = report_title("validate", result.directory)
    emit(findings, fmt, title=title, failed=not result.ok, summary=summary_file, counts=counts_file)
    sys.exit(0 if result.ok else 1)


@click.command()
@click.option("--strict/--no-strict", default=None,
              help="Fail on warnings too (never on info); default: strict in pyproject.toml, else off.")  # fmt: skip
@click.option("--ignore", "ignore", metavar="CODE,...", default="", help="Finding codes to turn off, comma-separated.")
@common_options
@report_options
def lint(
    strict: bool | None,
    ignore: str,
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Validate, then report contract quality findings with stable codes.

    Every contract that loads is linted, even when other files do not load: one broken file must
    not hide everyone else's findings. A file that fails only on an example output still has its
    schema linted, since a schema mistake is often why a correct example fails. The run still fails
    when a file does not load.
    """
    fmt = _format(as_json, output_format)
    try:
        settings = load_settings(Path.cwd())
        ignored = settings.ignore | parse_codes(ignore.split(","), "--ignore")
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    strict = settings.strict if strict is None else strict
    result = load_folder(contracts)
    linted = lint_result(result, ignored)
    findings = sort_findings(result.failures + linted)
    counts = severity_counts(findings)
    failed = not result.ok or counts["error"] > 0 or (strict and counts["warning"] > 0)
    if fmt == "json":
        echo_json(lint_report(result, linted, strict=strict))
    elif fmt == "text":
        linted_line = f"Linted {len(result.contracts)} contract(s) in {escape_text(str(result.directory))}"
        if result.schema_checked:  # files that failed only on an example: their schema was linted
            linted_line += f", and the schema of {len(result.schema_checked)} file(s) that did not load"
        click.echo(linted_line + ".")
        echo_findings(findings)
        if not result.ok:
            click.echo(_not_linted(result.failures, result.schema_checked))
        if not findings:
            click.echo("No lint findings.")
        else:
            reasons = [f"{counts['error']} error(s)"] if counts["error"] else []
            reasons += [f"strict: {counts['warning']} warning(s)"] if strict and counts["warning"] else []
            click.echo(
                f"{len(findings)} finding(s): {counts['error']} error(s), {counts['warning']} warning(s), "
                f"{counts['info']} info" + (f"; failed ({', '.join(reasons)})." if failed else ".")
            )
    title = report_title("lint --strict" if strict else "lint", result.directory)
    emit(findings, fmt, title=title, failed=failed, summary=summary_file, counts=counts_file)
    sys.exit(1 if failed else 0)


def _not_linted(failures: list[Finding], schema_checked: Mapping[str, object]) -> str:
    """Which files lint could not read, and the code that says why; and which it read in part.

    A file whose only failure is an example output (``schema_checked``) had its schema linted but
    not its examples: it is "not fully linted", never "not linted".
    """
    if any(f.code == Code.UNREADABLE_DIRECTORY for f in failures):
        return f"Nothing linted: the contracts folder cannot be read ({Code.UNREADABLE_DIRECTORY})."
    partly: list[Finding] = []
    unread: list[Finding] = []
    for failure in sort_findings(failures):
        (partly if failure.contract is not None and failure.contract in schema_checked else unread).append(failure)
    lines = []
    if unread:
        listed = ", ".join(f"{escape_text(display_path(f))} ({f.code})" for f in unread)
        lines.append(f"{len(unread)} file(s) not linted because they did not load: {listed}.")
    if partly:
        listed = ", ".join(f"{escape_text(display_path(f))} ({f.code})" for f in partly)
        lines.append(
            f"{len(partly)} file(s) not fully linted because an example output does not validate: {listed}; "
            "the schema rules ran, the example rules did not."
        )
    return "\n".join(lines)


@click.command()
@click.argument("contract")
@click.argument("document", default="-", metavar="[FILE|-]")
@common_options
@report_options
def check(
    contract: str,
    document: str,
    contracts: str | None,
    as_json: bool,
    output_format: str | None,
    summary_file: Path | None,
    counts_file: Path | None,
) -> None:
    """Validate one JSON document (a file, or - for stdin) against CONTRACT; print errors and repair hints."""
    fmt = _format(as_json, output_format)
    if not is_safe_name(contract):
        raise click.UsageError(f"Invalid contract name: {contract}")
    limits, document_limits = environment_limits()
    result = load_folder(contracts, limits)
    loaded = result.contracts.get(contract)
    if result.missing_directory:
        raise click.UsageError(f"Contracts folder does not exist: {shown_path(result.directory)}; {FOLDER_HINT}")
    unreadable = [f for f in result.failures if f.code == Code.UNREADABLE_DIRECTORY]
    if unreadable:
        raise click.UsageError(f"{unreadable[0].message}; pass the folder with -c DIR (or set JSON_CONTRACTS_DIR)")
    if loaded is None:
        own = [
            f
            for f in result.failures
            if f.contract == contract or (f.code == Code.DUPLICATE_NAME and f"{contract}.json" in f.file.split(", "))
        ]
        if own:
            click.echo(finding_line(own[0]), err=True)
            click.echo(f"Contract {contract} did not load; fix it first (json-contracts validate).", err=True)
            sys.exit(1)
        available = ", ".join(c.name for c in result.sorted_contracts()) or "none"
        raise click.UsageError(f"Contract not found: {contract} (loaded: {available})")
    label = "<stdin>" if document == "-" else document
    shown = escape_text(label)  # the label as text lines show it; JSON keeps it as it is
    title = f"json-contracts check {contract} ({label})"
    if document == "-" and sys.stdin.isatty():
        click.echo("Reading the document from stdin; end it with Ctrl-D (or pass a FILE).", err=True)
    outcome = check_document(
        loaded,
        _read_bounded(document, label, document_limits.max_bytes),
        label=label,
        path=Path(label) if document != "-" else None,
        limits=document_limits,
    )
    if outcome.refusal is not None:
        _render_refusal(outcome.refusal, fmt, contract, label)
        emit([outcome.refusal], fmt, title=title, failed=True, summary=summary_file, counts=counts_file)
        sys.exit(1)
    assert outcome.payload is not None
    if fmt == "json":
        echo_json({**outcome.payload, "instructions": outcome.hints, "repairs": outcome.repairs})
    elif outcome.valid and fmt in ("text", "github"):
        click.echo(f"{shown} is valid against {contract}.")
    elif fmt == "text":
        for error, finding in zip(outcome.payload["errors"], outcome.findings, strict=False):  # the cut note has none
            # The path and the message quote the document and the contract: escaped, so one line each.
            keyword = click.style(escape_text(error["keyword"]), bold=True)
            path, message = escape_text(error["path"] or "/"), escape_text(error["message"])
            click.echo(f"{shown}:{finding.line}:{finding.column}: {keyword} {path} {message}")
        click.echo("How to repair:")
        for hint in outcome.hints:
            click.echo(f"  - {escape_text(hint)}")
        more = ", more not listed (JSON_CONTRACTS_MAX_ERRORS)" if outcome.cut else ""
        click.echo(f"{shown} does not validate against {contract}: {len(outcome.findings)} error(s){more}.")
    emit(outcome.findings, fmt, title=title, failed=not outcome.valid, summary=summary_file, counts=counts_file)
    sys.exit(0 if outcome.valid else 1)


def _read_bounded(document: str, label: str, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of the document: a huge file, a pipe or /dev/zero costs no more."""
    try:
        if document == "-":
            return sys.stdin.buffer.read(max_bytes + 1)
        with open(document, "rb") as handle:
            return handle.read(max_bytes + 1)
    except OSError as exc:
        raise click.UsageError(f"Cannot read {label}: {exc.strerror or exc}") from exc


def _render_refusal(refusal: Finding, fmt: str, contract: str, label: str) -> None:
    """A document that cannot be checked (not JSON, or over a limit), in the text and json formats."""
    not_json = refusal.code == Code.DOCUMENT_NOT_JSON
    if fmt == "json":
        report: dict[str, Any] = {"valid": False, "contract": contract, "file": label, "error": refusal.message}
        if not_json:
            report |= {"line": refusal.line, "column": refusal.column}
        echo_json(report)
    elif fmt == "text":
        shown = escape_text(label)
        if not_json:
            where = f"{shown}:{refusal.line}:{refusal.column}: invalid JSON: "
            click.echo(where + escape_text(finding_message(refusal).removeprefix("Invalid JSON: ")))
        else:
            click.echo(f"{shown}: {escape_text(finding_message(refusal))}")


_STDIO_ON_A_TERMINAL = (
    "[json-contracts] info: this is the MCP server, waiting for a client on stdin (an agent host starts it); "
    "Ctrl-C stops it. For the commands, run json-contracts --help."
)


@click.command()
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default=None,
    help="stdio (default, or $MCP_TRANSPORT) or http (streamable HTTP).",
)
@click.option("--host", default=None, help="HTTP host (default 127.0.0.1; others need $API_AUTH_TOKEN).")
@click.option("--port", type=int, default=None, help="HTTP port (default $PORT or 3000).")
@click.option("-c", "--contracts", metavar="DIR", default=None, help="Contracts directory.")
def serve(transport: str | None, host: str | None, port: int | None, contracts: str | None) -> None:
    """Start the MCP server (what `json-contracts` with no command does)."""
    start_server(transport=transport, host=host, port=port, contracts=contracts)


def start_server(
    *, transport: str | None = None, host: str | None = None, port: int | None = None, contracts: str | None = None
) -> None:
    """Read settings, then hand over to the MCP adapter (imported only now: it loads the SDK)."""
    from json_contracts.mcp.settings import SettingsError, settings_from_env

    folder = str(contracts_dir(contracts))  # an empty --contracts is a usage error, as for every command
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # stray prints never sit in a buffer
    try:
        settings = settings_from_env(os.environ, contracts=folder, transport=transport, host=host, port=port)
    except SettingsError as exc:
        click.echo(f"[json-contracts] error: {exc}", err=True)
        sys.exit(1)
    if settings.transport == "stdio" and sys.stdin.isatty():
        # A person typed it, and would otherwise see nothing at all. A host's stdin is a pipe: then
        # nothing is written, so stdout stays the protocol channel and stderr stays quiet.
        click.echo(_STDIO_ON_A_TERMINAL, err=True)
    from json_contracts.mcp.run import run_server

    sys.exit(run_server(settings))
