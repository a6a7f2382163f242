"""Options shared by several commands, and turning them into settings."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from json_contracts._env import EmptyFolderOptionError, contracts_folder, text
from json_contracts.contracts.limits import DocumentLimits, Limits, limits_from_env
from json_contracts.contracts.loading import load_contracts
from json_contracts.contracts.model import LoadResult
from json_contracts.errors import EnvironmentVariableError

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("text", "json", "github", "sarif")
#: What to do about a contracts folder that does not exist (``check``'s error, ``test``'s finding).
FOLDER_HINT = "pass the folder with -c DIR (or set JSON_CONTRACTS_DIR), or create it with json-contracts init"


def colour_from_environment() -> bool | None:
    """``NO_COLOR`` (any non-empty value) turns colour off, else ``FORCE_COLOR`` turns it on; None: on a terminal.

    The two conventions (no-color.org, force-color.org) other tools follow; ``NO_COLOR`` wins when
    both are set, as in Python's own tracebacks. Neither value is refused: they belong to every tool.
    """
    if text(os.environ, "NO_COLOR"):
        return False
    if text(os.environ, "FORCE_COLOR"):
        return True
    return None


def contracts_dir(value: str | None) -> Path:
    """``--contracts`` > ``$JSON_CONTRACTS_DIR`` (an empty value counts as unset) > ``./json-contracts``."""
    try:
        return Path(os.path.abspath(contracts_folder(value, os.environ)))
    except EmptyFolderOptionError as exc:
        raise click.UsageError(str(exc)) from exc


def environment_limits() -> tuple[Limits, DocumentLimits]:
    """The ``JSON_CONTRACTS_MAX_*`` limits (and the pattern time bound checked); a bad value is a usage error."""
    try:
        return limits_from_env(os.environ)
    except EnvironmentVariableError as exc:
        raise click.UsageError(str(exc)) from exc


def load_folder(contracts: str | None, limits: Limits | None = None) -> LoadResult:
    """The folder ``--contracts`` names (or the default), loaded under the environment's limits."""
    return load_contracts(contracts_dir(contracts), limits or environment_limits()[0])


def common_options(func: F) -> F:
    """``-c/--contracts``, ``--json`` and ``--format`` (text, json, github or sarif)."""
    return _common_options(
        func,
        FORMATS,
        "Output format: text (default), json, github (workflow annotations) or sarif (code scanning).",
    )


def init_options(func: F) -> F:
    """``init``'s ``-c/--contracts``, ``--json`` and ``--format``: text or json, since init reports no findings."""
    return _common_options(func, ("text", "json"), "Output format: text (default) or json.")


def _common_options(func: F, formats: tuple[str, ...], help_text: str) -> F:
    func = click.option("--format", "output_format", type=click.Choice(formats), default=None, help=help_text)(func)
    func = click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON (same as --format json).")(
        func
    )
    func = click.option(
        "-c",
        "--contracts",
        "contracts",
        metavar="DIR",
        default=None,
        help="Contracts directory (default: $JSON_CONTRACTS_DIR or ./json-contracts).",
    )(func)
    return func


def output_format(as_json: bool, chosen: str | None) -> str:
    if as_json and chosen not in (None, "json"):
        raise click.UsageError("--json and --format cannot disagree; use one of them")
    return "json" if as_json else chosen or "text"


def _appendable_file(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """Check that the file can be appended to now, so a bad path is a usage error before any work."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("needs a file path")
    try:
        with open(value, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise click.BadParameter(f"cannot write {value}: {exc.strerror or exc}") from exc
    return Path(value)


def report_options(func: F) -> F:
    """``--summary FILE`` and ``--counts FILE``: the files a CI job reads besides the output.

    Both append, never truncate: ``$GITHUB_STEP_SUMMARY`` and ``$GITHUB_OUTPUT`` collect
    several writers.
    """
    func = click.option(
        "--counts",
        "counts_file",
        metavar="FILE",
        default=None,
        callback=_appendable_file,
        help="Append errors=N, warnings=N and info=N lines to FILE ($GITHUB_OUTPUT's format).",
    )(func)
    func = click.option(
        "--summary",
        "summary_file",
        metavar="FILE",
        default=None,
        callback=_appendable_file,
        help="Append a markdown summary with a table of every finding to FILE (e.g. $GITHUB_STEP_SUMMARY).",
    )(func)
    return func
