"""``init``, ``validate``, ``lint`` and ``check``: options in, engine call, rendering, exit code."""

from __future__ import annotations

import functools
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from json_contracts.cli.files import remove_stale_temporaries, write_whole_file
from json_contracts.cli.options import common_options, contracts_dir, environment_limits, load_folder, report_options
from json_contracts.cli.options import output_format as _format
from json_contracts.cli.render import echo_findings, echo_json, emit, finding_line, report_title
from json_contracts.config import ConfigError, load_settings, parse_codes
from json_contracts.errors import JsonParseError, JsonTooDeepError
from json_contracts.jsonio import SourceMap, document_problem, parse_json, too_deep_message
from json_contracts.lint import lint_result
from json_contracts.model import Finding
from json_contracts.names import is_safe_name
from json_contracts.payloads import validation_payload
from json_contracts.repair import field_hints, repairs
from json_contracts.reports import lint_report, severity_counts, sort_findings, validate_report
from json_contracts.starter_set import starter_files


@click.command()
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@common_options
def init(force: bool, contracts: str | None, as_json: bool, output_format: str | None) -> None:
    """Copy the starter contracts into the contracts directory (never overwrites without --force)."""
    fmt = _format(as_json, output_format)
    if fmt == "sarif":
        raise click.UsageError("init reports no findings; --format sarif is for validate, lint and check")
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
        click.echo("Skipped: " + ", ".join(skipped))
    shown = os.path.relpath(target) if target.is_relative_to(Path.cwd()) else str(target)
    click.echo("")
    click.echo("Next:")
    click.echo(f"  json-contracts validate --contracts {shown}")
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
            click.echo(f"Validated {len(result.contracts)} contract(s) in {result.directory}.")
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
@click.option("--strict", is_flag=True, default=None, help="Also fail on warnings (never on info).")
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
    """Validate, then report contract quality findings with stable codes."""
    fmt = _format(as_json, output_format)
    try:
        settings = load_settings(Path.cwd())
        ignored = settings.ignore | parse_codes(ignore.split(","), "--ignore")
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from exc
    strict = settings.strict if strict is None else strict
    result = load_folder(contracts)
    findings = lint_result(result, ignored) if result.ok else []
    counts = severity_counts(findings)
    failed = not result.ok or counts["error"] > 0 or (strict and counts["warning"] > 0)
    shown = sort_findings(result.failures + [f for f in result.warnings if f.code not in ignored])
    if result.ok:
        shown = sort_findings(findings)
    if fmt == "json":
        echo_json(lint_report(result, findings, strict=strict))
    elif fmt == "text":
        if result.ok:
            click.echo(f"Linted {len(result.contracts)} contract(s) in {result.directory}.")
        echo_findings(shown)
        if not result.ok:
            click.echo(f"Contract validation failed: {len(result.failures)} error(s).")
        elif not findings:
            click.echo("No lint findings.")
        else:
            click.echo(
                f"{len(findings)} finding(s): {counts['error']} error(s), {counts['warning']} warning(s), "
                f"{counts['info']} info."
            )
    title = report_title("lint --strict" if strict else "lint", result.directory)
    emit(shown, fmt, title=title, failed=failed, summary=summary_file, counts=counts_file)
    sys.exit(1 if failed else 0)


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
    if loaded is None:
        own = [
            f
            for f in result.failures
            if f.contract == contract or (f.code == "JC010" and f"{contract}.json" in f.file.split(", "))
        ]
        if own:
            click.echo(finding_line(own[0]), err=True)
            click.echo(f"Contract {contract} did not load; fix it first (json-contracts validate).", err=True)
            sys.exit(1)
        available = ", ".join(c.name for c in result.sorted_contracts()) or "none"
        raise click.UsageError(f"Contract not found: {contract} (loaded: {available})")
    label = "<stdin>" if document == "-" else document
    path = Path(label) if document != "-" else None
    title = f"json-contracts check {contract} ({label})"
    if document == "-" and sys.stdin.isatty():
        click.echo("Reading the document from stdin; end it with Ctrl-D (or pass a FILE).", err=True)
    refuse = functools.partial(
        _refuse, fmt, contract, label, path, title=title, summary=summary_file, counts=counts_file
    )
    raw = _read_bounded(document, label, document_limits.max_bytes)
    if len(raw) > document_limits.max_bytes:
        refuse(
            "limit",
            f"document is larger than {document_limits.max_bytes} bytes, the limit; check a smaller document "
            "or raise JSON_CONTRACTS_MAX_DOCUMENT_BYTES",
        )
    text = raw.decode("utf-8", errors="replace")
    try:
        value = parse_json(text)
    except JsonTooDeepError:
        refuse("limit", too_deep_message("document", document_limits.max_depth))
    except JsonParseError as exc:
        refuse("JC014", f"Invalid JSON: {exc.message}", exc.line, exc.column)
    problem = document_problem(
        value, max_bytes=document_limits.max_bytes, max_depth=document_limits.max_depth, name="document"
    )
    if problem is not None:
        refuse("limit", problem)
    payload = validation_payload(loaded, value, max_errors=document_limits.max_errors)
    hints = field_hints(loaded.schema, payload["errors"])
    source = SourceMap(text)
    findings: list[Finding] = []
    for error, hint in zip(payload["errors"], _hint_per_error(loaded.schema, payload["errors"]), strict=True):
        line, column = source.position(error["path"], key=error["keyword"] == "additionalProperties")
        message = f"{error['path'] or '/'} {error['message']}. {hint}"
        findings.append(Finding(error["keyword"], "error", message, label, path, error["path"], line, column, contract))
    if fmt == "json":
        payload["instructions"] = hints
        payload["repairs"] = repairs(loaded.schema, payload["errors"])
        echo_json(payload)
    elif payload["valid"] and fmt in ("text", "github"):
        click.echo(f"{label} is valid against {contract}.")
    elif fmt == "text":
        for error, finding in zip(payload["errors"], findings, strict=True):
            where = f"{label}:{finding.line}:{finding.column}:"
            click.echo(f"{where} {click.style(error['keyword'], bold=True)} {error['path'] or '/'} {error['message']}")
        click.echo("How to repair:")
        for hint in hints:
            click.echo(f"  - {hint}")
        click.echo(f"{label} does not validate against {contract}: {len(payload['errors'])} error(s).")
    emit(findings, fmt, title=title, failed=not payload["valid"], summary=summary_file, counts=counts_file)
    sys.exit(0 if payload["valid"] else 1)


def _read_bounded(document: str, label: str, max_bytes: int) -> bytes:
    """At most ``max_bytes + 1`` bytes of the document: a huge file, a pipe or /dev/zero costs no more."""
    try:
        if document == "-":
            return sys.stdin.buffer.read(max_bytes + 1)
        with open(document, "rb") as handle:
            return handle.read(max_bytes + 1)
    except OSError as exc:
        raise click.UsageError(f"Cannot read {label}: {exc.strerror or exc}") from exc


def _refuse(
    fmt: str,
    contract: str,
    label: str,
    path: Path | None,
    code: str,
    message: str,
    line: int = 1,
    column: int = 1,
    *,
    title: str,
    summary: Path | None,
    counts: Path | None,
) -> NoReturn:
    """Report a document that cannot be checked (not JSON, or over a limit) and exit 1."""
    if fmt == "json":
        report: dict[str, Any] = {"valid": False, "contract": contract, "file": label, "error": message}
        if code == "JC014":
            report |= {"line": line, "column": column}
        echo_json(report)
    elif fmt == "text":
        where = f"{label}:{line}:{column}: invalid JSON: " if code == "JC014" else f"{label}: "
        click.echo(where + (message.removeprefix("Invalid JSON: ") if code == "JC014" else message))
    finding = Finding(code, "error", message, label, path, "", line, column, contract)
    emit([finding], fmt, title=title, failed=True, summary=summary, counts=counts)
    sys.exit(1)


def _hint_per_error(schema: object, errors: list[dict[str, str]]) -> list[str]:
    return [field_hints(schema, [error])[0] for error in errors]


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
    from json_contracts.mcp_server.settings import SettingsError, settings_from_env

    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # stray prints never sit in a buffer
    try:
        settings = settings_from_env(os.environ, contracts=contracts, transport=transport, host=host, port=port)
    except SettingsError as exc:
        click.echo(f"[json-contracts] error: {exc}", err=True)
        sys.exit(1)
    from json_contracts.mcp_server import run_server

    sys.exit(run_server(settings))
